#include "ntable.h"

#include <stdlib.h>
#include <string.h>

#include "../core/input.h"

void lpm_ntable_init(lpm_ntable *t)
{
    memset(t, 0, sizeof *t);
}

void lpm_ntable_free(lpm_ntable *t)
{
    free(t->buf);
    free(t->e);
    memset(t, 0, sizeof *t);
}

int lpm_ntable_add(lpm_ntable *t, const char *name, size_t len, uint32_t port, lpm_err *err)
{
    if (t->blen + len + 1 > t->bcap) {
        size_t c = t->bcap ? t->bcap * 2 : 1 << 16;
        while (c < t->blen + len + 1)
            c *= 2;
        char *b = realloc(t->buf, c);
        if (!b)
            return lpm_err_set(err, LPM_EFAIL, "out of memory");
        t->buf = b;
        t->bcap = c;
    }
    if (t->n == t->cap) {
        size_t c = t->cap ? t->cap * 2 : 1024;
        lpm_nent *e = realloc(t->e, c * sizeof *e);
        if (!e)
            return lpm_err_set(err, LPM_EFAIL, "out of memory");
        t->e = e;
        t->cap = c;
    }
    memcpy(t->buf + t->blen, name, len);
    t->buf[t->blen + len] = 0;
    t->e[t->n++] = (lpm_nent){ t->blen, (uint32_t)len, port };
    t->blen += len + 1;
    return 0;
}

long lpm_name_normalize(const char *s, size_t len, char *out, const char **why)
{
    if (!len || s[0] != '/') {
        *why = "name does not start with '/' (names look like /com/example/www)";
        return -1;
    }
    size_t o = 0, comp = 0;
    for (size_t i = 1; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '/') {
            if (!comp) {
                *why = "empty name component";
                return -1;
            }
            comp = 0;
        } else if (c < 0x21 || c > 0x7E) {
            *why = "byte outside printable ASCII in a name";
            return -1;
        } else if (++comp > LPM_NAME_COMP_MAX) {
            *why = "name component longer than 255 bytes";
            return -1;
        }
        if (o >= LPM_NAME_MAX) {
            *why = "name longer than 1024 bytes";
            return -1;
        }
        out[o++] = (char)c;
    }
    if (comp) {
        if (o >= LPM_NAME_MAX) {
            *why = "name longer than 1024 bytes";
            return -1;
        }
        out[o++] = '/';
    }
    out[o] = 0;
    return (long)o;
}

static int cmp_ent_buf(const char *b, const lpm_nent *x, const lpm_nent *y)
{
    size_t m = x->len < y->len ? x->len : y->len;
    int c = memcmp(b + x->off, b + y->off, m);
    return c ? c : (x->len > y->len) - (x->len < y->len);
}

/* qsort has no context argument in C11: a merge sort with the buffer. */
static void msort(const char *b, lpm_nent *a, lpm_nent *tmp, size_t n)
{
    if (n < 2)
        return;
    size_t h = n / 2;
    msort(b, a, tmp, h);
    msort(b, a + h, tmp, n - h);
    size_t i = 0, j = h, k = 0;
    while (i < h && j < n)
        tmp[k++] = cmp_ent_buf(b, &a[j], &a[i]) < 0 ? a[j++] : a[i++];
    while (i < h)
        tmp[k++] = a[i++];
    while (j < n)
        tmp[k++] = a[j++];
    memcpy(a, tmp, n * sizeof *a);
}

static int sort_only(lpm_ntable *t, lpm_err *err)
{
    lpm_nent *tmp = malloc((t->n ? t->n : 1) * sizeof *tmp);
    if (!tmp)
        return lpm_err_set(err, LPM_EFAIL, "out of memory");
    msort(t->buf, t->e, tmp, t->n);
    free(tmp);
    return 0;
}

int lpm_ntable_sort(lpm_ntable *t, lpm_err *err)
{
    int rc = sort_only(t, err);
    if (rc)
        return rc;
    for (size_t i = 1; i < t->n; i++)
        if (!cmp_ent_buf(t->buf, &t->e[i - 1], &t->e[i]))
            return lpm_err_set(err, LPM_EINPUT, "duplicate name /%s", lpm_ntable_name(t, i));
    return 0;
}

int lpm_ntable_write(const lpm_ntable *t, FILE *fp)
{
    for (size_t i = 0; i < t->n; i++)
        fprintf(fp, "/%s %u\n", lpm_ntable_name(t, i), t->e[i].port);
    return ferror(fp) ? LPM_EFAIL : 0;
}

long lpm_domain_to_name(const char *s, size_t len, char *out, const char **why)
{
    if (!len) {
        *why = "empty line";
        return -1;
    }
    if (len > 253) {
        *why = "hostname longer than 253 bytes";
        return -1;
    }
    size_t o = 0, end = len;
    /* Labels from the last to the first. */
    while (1) {
        size_t st = end;
        while (st > 0 && s[st - 1] != '.')
            st--;
        if (st == end) {
            *why = "empty label in hostname";
            return -1;
        }
        for (size_t i = st; i < end; i++) {
            unsigned char c = (unsigned char)s[i];
            if (c < 0x21 || c > 0x7E || c == '/') {
                *why = "byte outside printable ASCII (or '/') in a hostname";
                return -1;
            }
            out[o++] = (char)c;
        }
        out[o++] = '/';
        if (st == 0)
            break;
        end = st - 1;
        if (end == 0) {
            *why = "empty label in hostname";
            return -1;
        }
    }
    out[o] = 0;
    return (long)o;
}

uint32_t lpm_name_port_rule(const char *norm, size_t len, uint32_t ports)
{
    uint64_t h = lpm_name_fnv(norm, len);
    if (h % 4 == 0)
        return (uint32_t)((h >> 2) % ports);
    size_t site = 0, comps = 0;
    while (site < len && comps < 2)
        if (norm[site++] == '/')
            comps++;
    return (uint32_t)(lpm_name_fnv(norm, site) % ports);
}

size_t lpm_ntable_aggregate(lpm_ntable *t)
{
    /* Sorted order puts a name right before the block of names it covers,
     * so a stack of kept names holds the nearest covering name on top. */
    size_t *stack = malloc((t->n ? t->n : 1) * sizeof *stack), sp = 0, o = 0, removed = 0;
    if (!stack)
        return 0;
    for (size_t i = 0; i < t->n; i++) {
        const lpm_nent *x = &t->e[i];
        while (sp) {
            const lpm_nent *a = &t->e[stack[sp - 1]];
            if (a->len < x->len && !memcmp(t->buf + a->off, t->buf + x->off, a->len))
                break;
            sp--;
        }
        if (sp && t->e[stack[sp - 1]].port == x->port) {
            removed++;
            continue;
        }
        t->e[o] = *x;
        stack[sp++] = o++;
    }
    t->n = o;
    free(stack);
    return removed;
}

int lpm_ntable_from_domains(lpm_ntable *t, const char *path, const lpm_ndomain_opts *o,
                            lpm_ndomain_stats *st, lpm_err *err)
{
    memset(st, 0, sizeof *st);
    lpm_input *in;
    int rc = lpm_input_open(&in, path, err);
    if (rc)
        return rc;
    lpm_ntable_init(t);
    char norm[LPM_NAME_MAX + 1];
    char *line;
    size_t len;
    while ((rc = lpm_input_getline(in, &line, &len, err)) == 1) {
        st->lines++;
        if (len && line[len - 1] == '\r')
            len--;
        if (len && line[len - 1] == '.')
            len--; /* a fully qualified name */
        const char *why;
        long nl = memchr(line, 0, len) ? (why = "NUL byte in line", -1)
                                       : lpm_domain_to_name(line, len, norm, &why);
        if (nl < 0) {
            if (o->skip_bad) {
                st->skipped++;
                continue;
            }
            char q[LPM_QUOTE_MAX];
            rc = lpm_err_at(err, LPM_EINPUT, lpm_input_name(in), lpm_input_lineno(in), "%s: '%s'", why,
                            lpm_quote(q, sizeof q, line, len));
            goto fail;
        }
        for (long k = 0; k < nl; k++)
            if (norm[k] >= 'A' && norm[k] <= 'Z')
                norm[k] = (char)(norm[k] - 'A' + 'a');
        if ((rc = lpm_ntable_add(t, norm, (size_t)nl, 0, err)))
            goto fail;
    }
    if (rc < 0) {
        rc = LPM_EINPUT;
        goto fail;
    }
    if (t->n == 0) {
        rc = lpm_err_at(err, LPM_EINPUT, lpm_input_name(in), lpm_input_lineno(in), "no hostnames in the list%s",
                        st->skipped ? " (all lines skipped)" : "");
        goto fail;
    }
    lpm_input_close(in);
    if (o->limit && o->limit < t->n) {
        /* Evenly spaced picks keep every part of a sorted list. */
        size_t k = 0, n = t->n;
        for (size_t i = 0; i < n; i++)
            if ((i * o->limit) / n != ((i + 1) * o->limit) / n)
                t->e[k++] = t->e[i];
        t->n = k;
    }
    if ((rc = sort_only(t, err)))
        goto fail2;
    size_t k = 0;
    for (size_t i = 0; i < t->n; i++) {
        if (k && !cmp_ent_buf(t->buf, &t->e[k - 1], &t->e[i])) {
            st->duplicates++;
            continue;
        }
        t->e[k] = t->e[i];
        t->e[k].port = lpm_name_port_rule(t->buf + t->e[k].off, t->e[k].len, o->ports);
        k++;
    }
    t->n = k;
    if (o->aggregate)
        st->aggregated = lpm_ntable_aggregate(t);
    st->names = t->n;
    return 0;
fail:
    lpm_input_close(in);
fail2:
    lpm_ntable_free(t);
    return rc;
}
