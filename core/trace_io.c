/* Trace files: one address per line, '#' comments and blank lines allowed
 * (docs/synthetic.md). Compressed input is read transparently. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input.h"
#include "trace.h"

int lpm_trace_load(const char *path, lpm_addr **out, size_t *n, int *family, lpm_err *err)
{
    lpm_input *in;
    int rc = lpm_input_open(&in, path, err);
    *out = NULL;
    *n = 0;
    *family = 0;
    if (rc)
        return rc;
    lpm_addr *a = NULL;
    size_t cnt = 0, cap = 0;
    char *line;
    size_t len;
    int r;
    const char *name = lpm_input_name(in);
    while ((r = lpm_input_getline(in, &line, &len, err)) == 1) {
        unsigned long ln = lpm_input_lineno(in);
        if (memchr(line, '\0', len)) {
            rc = lpm_err_at(err, LPM_EINPUT, name, ln, "binary data (NUL byte) in a trace");
            break;
        }
        char *s = line + strspn(line, " \t");
        size_t tl = strcspn(s, " \t\r#");
        if (tl == 0) { /* blank, comment, or a lone CR */
            if (*s == '\r' && s[1]) {
                rc = lpm_err_at(err, LPM_EINPUT, name, ln, "carriage return inside a line");
                break;
            }
            continue;
        }
        char *rest = s + tl + strspn(s + tl, " \t\r");
        if (*rest && *rest != '#') {
            char q[LPM_QUOTE_MAX];
            rc = lpm_err_at(err, LPM_EINPUT, name, ln, "one address per line expected, found more after '%s'",
                            lpm_quote(q, sizeof q, s, tl));
            break;
        }
        s[tl] = '\0';
        lpm_addr x;
        int fam;
        lpm_err e2;
        if (lpm_addr_parse(s, &fam, &x, &e2)) {
            rc = lpm_err_at(err, LPM_EINPUT, name, ln, "%s", e2.msg);
            break;
        }
        if (*family && fam != *family) {
            rc = lpm_err_at(err, LPM_EINPUT, name, ln, "IPv%d address in a trace of IPv%d addresses", fam, *family);
            break;
        }
        *family = fam;
        if (cnt == LPM_TRACE_MAX_COUNT) {
            rc = lpm_err_at(err, LPM_EINPUT, name, ln, "more than %u addresses", LPM_TRACE_MAX_COUNT);
            break;
        }
        if (cnt == cap) {
            size_t nc = cap ? 2 * cap : 4096;
            lpm_addr *g = realloc(a, nc * sizeof *a);
            if (!g) {
                rc = lpm_err_set(err, LPM_EFAIL, "%s: out of memory", name);
                break;
            }
            a = g;
            cap = nc;
        }
        a[cnt++] = x;
    }
    if (rc == LPM_OK && r < 0)
        rc = LPM_EINPUT; /* err set by getline */
    if (rc == LPM_OK && cnt == 0) {
        unsigned long ln = lpm_input_lineno(in);
        rc = lpm_err_at(err, LPM_EINPUT, name, ln ? ln : 1, "no addresses in the trace");
    }
    lpm_input_close(in);
    if (rc) {
        free(a);
        *family = 0;
        return rc;
    }
    *out = a;
    *n = cnt;
    return LPM_OK;
}

/* Dotted quad without printf: writing is on the path of 10M-line traces. */
static size_t put_v4(char *b, uint32_t v)
{
    size_t k = 0;
    for (int i = 3; i >= 0; i--) {
        unsigned o = (v >> (8 * i)) & 255;
        if (o >= 100)
            b[k++] = (char)('0' + o / 100);
        if (o >= 10)
            b[k++] = (char)('0' + o / 10 % 10);
        b[k++] = (char)('0' + o % 10);
        b[k++] = i ? '.' : '\n';
    }
    return k;
}

/* IPv6 as RFC 5952 (the text inet_ntop gives, which lpm_addr_format
 * uses), without printf. Addresses with a zero first group may take an
 * embedded IPv4 form there: those go through lpm_addr_format. */
static size_t put_v6(char *b, const lpm_addr *a)
{
    if ((a->hi >> 48) == 0) {
        lpm_addr_format(a, LPM_AF_INET6, b, LPM_ADDR_STRLEN);
        size_t k = strlen(b);
        b[k++] = '\n';
        return k;
    }
    unsigned w[8];
    for (int i = 0; i < 4; i++) {
        w[i] = (unsigned)(a->hi >> (48 - 16 * i)) & 0xFFFF;
        w[i + 4] = (unsigned)(a->lo >> (48 - 16 * i)) & 0xFFFF;
    }
    int best = -1, blen = 1; /* longest run of two or more zero groups, first on ties */
    for (int i = 0; i < 8;) {
        int j = i;
        while (j < 8 && w[j] == 0)
            j++;
        if (j - i > blen) {
            best = i;
            blen = j - i;
        }
        i = j > i ? j : i + 1;
    }
    static const char hex[] = "0123456789abcdef";
    size_t k = 0;
    for (int i = 0; i < 8; i++) {
        if (i == best) {
            b[k++] = ':';
            if (i == 0)
                b[k++] = ':';
            i += blen - 1;
            continue;
        }
        int started = 0;
        for (int s = 12; s >= 0; s -= 4) {
            unsigned d = (w[i] >> s) & 15;
            if (d || started || s == 0) {
                b[k++] = hex[d];
                started = 1;
            }
        }
        if (i < 7)
            b[k++] = ':';
    }
    b[k++] = '\n';
    return k;
}

int lpm_trace_write_fp(FILE *fp, const lpm_addr *a, size_t n, int family, lpm_err *err)
{
    if (family != LPM_AF_INET && family != LPM_AF_INET6)
        return lpm_err_set(err, LPM_EINPUT, "trace: family must be 4 or 6");
    char buf[1 << 16];
    size_t used = 0;
    for (size_t i = 0; i < n; i++) {
        if (used > sizeof buf - 64) {
            if (fwrite(buf, 1, used, fp) != used)
                return lpm_err_set(err, LPM_EFAIL, "write error: %s", strerror(errno));
            used = 0;
        }
        if (family == LPM_AF_INET) {
            used += put_v4(buf + used, lpm_addr_to_v4(&a[i]));
        } else {
            used += put_v6(buf + used, &a[i]);
        }
    }
    if (used && fwrite(buf, 1, used, fp) != used)
        return lpm_err_set(err, LPM_EFAIL, "write error: %s", strerror(errno));
    return LPM_OK;
}

int lpm_trace_write(const char *path, const lpm_addr *a, size_t n, int family, lpm_err *err)
{
    if (family != LPM_AF_INET && family != LPM_AF_INET6)
        return lpm_err_set(err, LPM_EINPUT, "trace: family must be 4 or 6");
    int to_stdout = !strcmp(path, "-");
    FILE *fp;
    int rc = lpm_output_open(&fp, path, "w", err);
    if (rc)
        return rc;
    rc = lpm_trace_write_fp(fp, a, n, family, NULL);
    int bad = to_stdout ? fflush(fp) != 0 : fclose(fp) != 0;
    if (rc || bad)
        return lpm_err_set(err, LPM_EFAIL, "%s: write error: %s", to_stdout ? "<stdout>" : path, strerror(errno));
    return LPM_OK;
}
