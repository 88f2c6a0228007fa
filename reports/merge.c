/* report merge: result folders of many machines into one. Everything is
 * sorted before it is written, so the output's bytes do not depend on the
 * order of the folders; records of another tool version or another table,
 * and definitions that differ, are refused unless the caller allows them. */
#include "proc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct mitem {
    char *name;  /* experiment (definitions) or "exp/key" (records) */
    char *bytes;
    size_t len;
    const char *from;
    json_t *rec;
} mitem;

typedef struct mset {
    mitem *v;
    size_t n, cap;
} mset;

static void push(mset *s, char *name, char *bytes, size_t len, const char *from, json_t *rec)
{
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 256;
        s->v = realloc(s->v, s->cap * sizeof *s->v);
        if (!s->v)
            abort();
    }
    s->v[s->n++] = (mitem){ name, bytes, len, from, rec };
}

static void set_free(mset *s)
{
    for (size_t i = 0; i < s->n; i++) {
        free(s->v[i].name);
        free(s->v[i].bytes);
        json_decref(s->v[i].rec);
    }
    free(s->v);
}

static int cmp_item(const void *a, const void *b)
{
    const mitem *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    if (c)
        return c;
    size_t m = x->len < y->len ? x->len : y->len;
    c = memcmp(x->bytes, y->bytes, m);
    return c ? c : (x->len > y->len) - (x->len < y->len);
}

static int read_dir(const char *dir, mset *defs, mset *recs, lpm_err *err)
{
    char path[4200];
    size_t nd, ne;
    snprintf(path, sizeof path, "%s/experiments", dir);
    char **d = lpm_report_list(path, ".json", &nd);
    for (size_t i = 0; i < nd; i++) {
        char *buf;
        size_t len;
        snprintf(path, sizeof path, "%s/experiments/%s", dir, d[i]);
        if (lpm_report_read_file(path, &buf, &len) == 0) {
            d[i][strlen(d[i]) - 5] = 0;
            push(defs, strdup(d[i]), buf, len, dir, NULL);
        }
    }
    lpm_report_list_free(d, nd);
    snprintf(path, sizeof path, "%s/records", dir);
    char **ex = lpm_report_list(path, NULL, &ne);
    int rc = LPM_OK;
    for (size_t x = 0; x < ne && !rc; x++) {
        size_t nr;
        snprintf(path, sizeof path, "%s/records/%s", dir, ex[x]);
        char **r = lpm_report_list(path, ".json", &nr);
        for (size_t i = 0; i < nr && !rc; i++) {
            char *buf, name[600];
            size_t len;
            snprintf(path, sizeof path, "%s/records/%s/%s", dir, ex[x], r[i]);
            if (lpm_report_read_file(path, &buf, &len))
                continue;
            json_t *rec = json_loadb(buf, len, 0, NULL);
            r[i][strlen(r[i]) - 5] = 0;
            const char *re = json_string_value(json_object_get(rec, "experiment"));
            const char *rk = json_string_value(json_object_get(rec, "key"));
            if (!rec || !re || !rk || strcmp(re, ex[x]) || strcmp(rk, r[i]) || !json_object_get(rec, "metrics")) {
                rc = lpm_err_set(err, LPM_EINPUT, "%s: not the record of %s/%s", path, ex[x], r[i]);
                json_decref(rec);
                free(buf);
                break;
            }
            snprintf(name, sizeof name, "%s/%s", ex[x], r[i]);
            push(recs, strdup(name), buf, len, dir, rec);
        }
        lpm_report_list_free(r, nr);
    }
    lpm_report_list_free(ex, ne);
    return rc;
}

/* Sorts and folds items of one name; different bytes are an error unless
 * allowed (then the first in byte order stays). */
static int fold(mset *s, int allow, const char *what, const char *flag, size_t *folded, lpm_err *err)
{
    qsort(s->v, s->n, sizeof *s->v, cmp_item);
    size_t k = 0;
    int rc = LPM_OK;
    for (size_t i = 0; i < s->n; i++) {
        if (!rc && k && !strcmp(s->v[k - 1].name, s->v[i].name)) {
            mitem *a = &s->v[k - 1], *b = &s->v[i];
            if ((a->len != b->len || memcmp(a->bytes, b->bytes, a->len)) && !allow) {
                rc = lpm_err_set(err, LPM_EINPUT, "%s %s differs between %s and %s (%s keeps the one whose bytes sort first)",
                                 what, a->name, a->from, b->from, flag);
                s->v[k++] = s->v[i]; /* kept, so that it is freed once */
                continue;
            }
            free(b->name);
            free(b->bytes);
            json_decref(b->rec);
            (*folded)++;
            continue;
        }
        s->v[k++] = s->v[i];
    }
    s->n = k;
    return rc;
}

static int check_versions(const mset *recs, int allow, lpm_err *err)
{
    const char *first = NULL;
    for (size_t i = 0; i < recs->n; i++) {
        const char *v = json_string_value(json_object_get(recs->v[i].rec, "tool_version"));
        if (!v)
            v = "(none)";
        if (!first)
            first = v;
        else if (strcmp(first, v) && !allow)
            return lpm_err_set(err, LPM_EINPUT, "records of two tool versions: '%s' and '%s' (%s/records/%s.json); "
                               "--mixed-versions merges them anyway", first, v, recs->v[i].from, recs->v[i].name);
    }
    return LPM_OK;
}

static int check_inputs(const mset *recs, int allow, lpm_err *err)
{
    json_t *seen = json_object(); /* id -> [checksum, where] */
    int rc = LPM_OK;
    for (size_t i = 0; i < recs->n && !rc && !allow; i++) {
        const char *name;
        json_t *in;
        json_object_foreach(json_object_get(recs->v[i].rec, "inputs"), name, in) {
            const char *id = json_string_value(json_object_get(in, "id"));
            const char *sum = json_string_value(json_object_get(in, "checksum"));
            if (!id || !sum)
                continue;
            json_t *s = json_object_get(seen, id);
            if (!s) {
                json_object_set_new(seen, id, json_pack("[s,s,s]", sum, recs->v[i].from, recs->v[i].name));
            } else if (strcmp(json_string_value(json_array_get(s, 0)), sum)) {
                rc = lpm_err_set(err, LPM_EINPUT, "input %s (%s) has two checksums: %s (%s/records/%s.json) and %s "
                                 "(%s/records/%s.json); --mixed-inputs merges them anyway", name,
                                 json_string_value(json_object_get(in, "file")), json_string_value(json_array_get(s, 0)),
                                 json_string_value(json_array_get(s, 1)), json_string_value(json_array_get(s, 2)), sum,
                                 recs->v[i].from, recs->v[i].name);
                break;
            }
        }
    }
    json_decref(seen);
    return rc;
}

static int write_out(const char *out, const mset *defs, const mset *recs, lpm_err *err)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/experiments", out);
    int rc = lpm_report_mkdirs(path, err);
    for (size_t i = 0; i < defs->n && !rc; i++) {
        snprintf(path, sizeof path, "%s/experiments/%s.json", out, defs->v[i].name);
        rc = lpm_report_write_atomic(path, defs->v[i].bytes, defs->v[i].len, err);
    }
    for (size_t i = 0; i < recs->n && !rc; i++) {
        const char *slash = strchr(recs->v[i].name, '/');
        snprintf(path, sizeof path, "%s/records/%.*s", out, (int)(slash - recs->v[i].name), recs->v[i].name);
        rc = lpm_report_mkdirs(path, err);
        snprintf(path, sizeof path, "%s/records/%s.json", out, recs->v[i].name);
        if (!rc)
            rc = lpm_report_write_atomic(path, recs->v[i].bytes, recs->v[i].len, err);
    }
    return rc ? rc : lpm_report_write_results(out, err);
}

static int out_ok(const char *out, const char *const *dirs, size_t ndirs, lpm_err *err)
{
    char a[4096], b[4096], path[4200];
    struct stat st;
    snprintf(path, sizeof path, "%s/records", out);
    if (stat(path, &st) != 0 || !realpath(out, a))
        return LPM_OK;
    for (size_t i = 0; i < ndirs; i++)
        if (realpath(dirs[i], b) && !strcmp(a, b))
            return LPM_OK;
    return lpm_err_set(err, LPM_EINPUT, "%s holds results and is not one of the folders merged", out);
}

int lpm_report_merge(const char *const *dirs, size_t ndirs, const char *out, const lpm_report_merge_opts *o,
                     char *note, size_t nnote, lpm_err *err)
{
    mset defs = { 0 }, recs = { 0 };
    size_t folded = 0, dfold = 0;
    int rc = out_ok(out, dirs, ndirs, err);
    for (size_t i = 0; i < ndirs && !rc; i++) {
        struct stat st;
        if (stat(dirs[i], &st) || !S_ISDIR(st.st_mode))
            rc = lpm_err_set(err, LPM_EINPUT, "%s: not a result folder", dirs[i]);
        else
            rc = read_dir(dirs[i], &defs, &recs, err);
    }
    if (!rc)
        rc = fold(&defs, o->mixed_definitions, "experiment", "--mixed-definitions", &dfold, err);
    for (size_t i = 0; i < recs.n && !rc; i++) {
        size_t j, len = strcspn(recs.v[i].name, "/");
        for (j = 0; j < defs.n && (strlen(defs.v[j].name) != len || strncmp(defs.v[j].name, recs.v[i].name, len)); j++)
            ;
        if (j == defs.n)
            rc = lpm_err_set(err, LPM_EINPUT, "%s/records/%s.json: no folder holds the definition of its experiment",
                             recs.v[i].from, recs.v[i].name);
    }
    if (!rc)
        rc = check_versions(&recs, o->mixed_versions, err);
    if (!rc)
        rc = check_inputs(&recs, o->mixed_inputs, err);
    if (!rc)
        rc = fold(&recs, o->first_duplicate, "record", "--duplicates first", &folded, err);
    if (!rc)
        rc = write_out(out, &defs, &recs, err);
    if (!rc)
        snprintf(note, nnote, "report merge: %zu records of %zu experiments from %zu folders (%zu duplicates folded)\n",
                 recs.n, defs.n, ndirs, folded);
    set_free(&defs);
    set_free(&recs);
    return rc;
}
