/* Small helpers of the experiment layer: string lists, hashing, JSON paths,
 * JSON text in and out, files written atomically. */
#include "report.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void lpm_strv_push(lpm_strv *s, const char *str)
{
    if (s->n + 1 >= s->cap) {
        s->cap = s->cap ? 2 * s->cap : 16;
        s->v = realloc(s->v, s->cap * sizeof *s->v);
        if (!s->v)
            abort();
    }
    s->v[s->n] = strdup(str);
    if (!s->v[s->n])
        abort();
    s->v[++s->n] = NULL;
}

void lpm_strv_free(lpm_strv *s)
{
    for (size_t i = 0; i < s->n; i++)
        free(s->v[i]);
    free(s->v);
    memset(s, 0, sizeof *s);
}

uint64_t lpm_fnv1a64(const void *p, size_t n, uint64_t h)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

int lpm_report_file_hash(const char *path, uint64_t *h, uint64_t *bytes, lpm_err *err)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return lpm_err_set(err, LPM_EFAIL, "%s: %s", path, strerror(errno));
    static const size_t chunk = 1 << 16;
    unsigned char *buf = malloc(chunk);
    uint64_t x = LPM_FNV_INIT, total = 0;
    size_t got;
    while (buf && (got = fread(buf, 1, chunk, fp)) > 0) {
        x = lpm_fnv1a64(buf, got, x);
        total += got;
    }
    int bad = !buf || ferror(fp);
    free(buf);
    fclose(fp);
    if (bad)
        return lpm_err_set(err, LPM_EFAIL, "%s: read error", path);
    *h = x;
    *bytes = total;
    return LPM_OK;
}

/* One step of a path: a key (up to '.', '[' or the end), or [N], or
 * [field=value]. Returns the rest of the path, or NULL on a syntax error. */
static const char *jpath_step(json_t **cur, const char *p, char *why, size_t n)
{
    if (*p == '[') {
        const char *close = strchr(p, ']');
        if (!close || close == p + 1)
            return NULL;
        char sel[256];
        size_t len = (size_t)(close - p - 1);
        if (len >= sizeof sel)
            return NULL;
        memcpy(sel, p + 1, len);
        sel[len] = 0;
        char *eq = strchr(sel, '=');
        json_t *next = NULL;
        if (!eq) {
            char *end;
            long idx = strtol(sel, &end, 10);
            if (*end || idx < 0)
                return NULL;
            next = *cur && json_is_array(*cur) ? json_array_get(*cur, (size_t)idx) : NULL;
        } else if (*cur && json_is_array(*cur)) {
            *eq = 0;
            size_t i;
            json_t *el;
            json_array_foreach(*cur, i, el) {
                json_t *f = json_object_get(el, sel);
                if (f && json_is_string(f) && !strcmp(json_string_value(f), eq + 1))
                    break;
                if (f && json_is_integer(f) && atoll(eq + 1) == json_integer_value(f) && eq[1])
                    break;
            }
            next = i < json_array_size(*cur) ? json_array_get(*cur, i) : NULL;
            *eq = '=';
        }
        if (!next && why && !why[0])
            snprintf(why, n, "no element [%s]", sel);
        *cur = next;
        p = close + 1;
    } else {
        size_t len = strcspn(p, ".[");
        if (!len)
            return NULL;
        char key[256];
        if (len >= sizeof key)
            return NULL;
        memcpy(key, p, len);
        key[len] = 0;
        json_t *next = *cur && json_is_object(*cur) ? json_object_get(*cur, key) : NULL;
        if (!next && why && !why[0])
            snprintf(why, n, "no key '%s'", key);
        *cur = next;
        p += len;
    }
    if (*p == '.') {
        p++;
        if (!*p || *p == '.')
            return NULL;
    }
    return p;
}

json_t *lpm_jpath(json_t *root, const char *path, char *why, size_t n)
{
    if (why && n)
        why[0] = 0;
    if (!strcmp(path, ".") || !*path)
        return root;
    json_t *cur = root;
    const char *p = path;
    while (*p) {
        p = jpath_step(&cur, p, why, n);
        if (!p) {
            if (why)
                snprintf(why, n, "bad path '%s'", path);
            return NULL;
        }
    }
    return cur;
}

int lpm_jpath_check(const char *path)
{
    if (!strcmp(path, ".") || !*path)
        return 1;
    json_t *dummy = NULL;
    const char *p = path;
    while (*p) {
        p = jpath_step(&dummy, p, NULL, 0);
        if (!p)
            return 0;
    }
    return 1;
}

char *lpm_report_dump(const json_t *v)
{
    char *s = json_dumps(v, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15) | JSON_ENCODE_ANY);
    if (!s)
        abort();
    size_t len = strlen(s);
    char *t = realloc(s, len + 2);
    if (!t)
        abort();
    t[len] = '\n';
    t[len + 1] = 0;
    return t;
}

json_t *lpm_report_parse_seq(const char *buf, size_t len, char *why, size_t n)
{
    json_t *all = json_array();
    size_t off = 0;
    for (;;) {
        while (off < len && (buf[off] == ' ' || buf[off] == '\n' || buf[off] == '\t' || buf[off] == '\r'))
            off++;
        if (off >= len)
            break;
        json_error_t je;
        json_t *v = json_loadb(buf + off, len - off, JSON_DISABLE_EOF_CHECK | JSON_DECODE_ANY, &je);
        if (!v) {
            snprintf(why, n, "output is not JSON (line %d: %s)", je.line, je.text);
            json_decref(all);
            return NULL;
        }
        json_array_append_new(all, v);
        off += (size_t)je.position;
    }
    if (json_array_size(all) == 0) {
        snprintf(why, n, "no JSON on standard output");
        json_decref(all);
        return NULL;
    }
    if (json_array_size(all) == 1) {
        json_t *one = json_incref(json_array_get(all, 0));
        json_decref(all);
        return one;
    }
    return all;
}

int lpm_report_read_file(const char *path, char **buf, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return -1;
    size_t cap = 4096, n = 0, got;
    char *b = malloc(cap + 1);
    while (b && (got = fread(b + n, 1, cap - n, fp)) > 0) {
        n += got;
        if (n == cap) {
            cap *= 2;
            char *t = realloc(b, cap + 1);
            if (!t) {
                free(b);
                b = NULL;
            }
            b = t;
        }
    }
    int bad = !b || ferror(fp);
    fclose(fp);
    if (bad) {
        free(b);
        return -1;
    }
    b[n] = 0;
    *buf = b;
    *len = n;
    return 0;
}

int lpm_report_write_atomic(const char *path, const char *data, size_t len, lpm_err *err)
{
    char tmp[4200];
    const char *slash = strrchr(path, '/');
    int dl = slash ? (int)(slash - path + 1) : 0;
    snprintf(tmp, sizeof tmp, "%.*s.%s.tmp%ld", dl, path, slash ? slash + 1 : path, (long)getpid());
    FILE *fp = fopen(tmp, "wb");
    if (!fp)
        return lpm_err_set(err, LPM_EFAIL, "%s: %s", tmp, strerror(errno));
    int bad = fwrite(data, 1, len, fp) != len;
    bad |= fflush(fp) != 0 || fsync(fileno(fp)) != 0;
    bad |= fclose(fp) != 0;
    if (bad || rename(tmp, path)) {
        int e = errno;
        unlink(tmp);
        return lpm_err_set(err, LPM_EFAIL, "%s: %s", path, strerror(e));
    }
    return LPM_OK;
}

int lpm_report_mkdirs(const char *path, lpm_err *err)
{
    char buf[4096];
    if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf)
        return lpm_err_set(err, LPM_EINPUT, "%s: path too long", path);
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = 0;
        if (mkdir(buf, 0777) && errno != EEXIST)
            return lpm_err_set(err, LPM_EFAIL, "%s: %s", buf, strerror(errno));
        *p = '/';
    }
    if (mkdir(buf, 0777) && errno != EEXIST)
        return lpm_err_set(err, LPM_EFAIL, "%s: %s", buf, strerror(errno));
    struct stat st;
    if (stat(buf, &st) || !S_ISDIR(st.st_mode))
        return lpm_err_set(err, LPM_EINPUT, "%s: not a folder", buf);
    return LPM_OK;
}

int lpm_report_rmtree(const char *path)
{
    struct stat st;
    if (lstat(path, &st))
        return errno == ENOENT ? 0 : -1;
    if (!S_ISDIR(st.st_mode))
        return unlink(path);
    DIR *d = opendir(path);
    if (!d)
        return -1;
    struct dirent *de;
    int rc = 0;
    while ((de = readdir(d))) {
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
            continue;
        char sub[4200];
        snprintf(sub, sizeof sub, "%s/%s", path, de->d_name);
        rc |= lpm_report_rmtree(sub);
    }
    closedir(d);
    return rc | rmdir(path);
}

void lpm_report_value_text(const json_t *v, char *buf, size_t n, int digits)
{
    if (json_is_integer(v))
        snprintf(buf, n, "%lld", (long long)json_integer_value(v));
    else if (json_is_real(v))
        snprintf(buf, n, "%.*g", digits, json_real_value(v));
    else if (json_is_true(v) || json_is_false(v))
        snprintf(buf, n, "%s", json_is_true(v) ? "true" : "false");
    else
        snprintf(buf, n, "%s", json_string_value(v) ? json_string_value(v) : "");
}

FILE *lpm_report_fopen(const char *dir, const char *name, char *path, size_t n, lpm_err *err)
{
    snprintf(path, n, "%s/%s", dir, name);
    FILE *fp = fopen(path, "w");
    if (!fp)
        lpm_err_set(err, LPM_EFAIL, "%s: cannot write", path);
    return fp;
}
