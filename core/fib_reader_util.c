/* What every FIB reader shares: adding a route with the common options,
 * a bad line under --skip-bad, the next hop of a route that gives none, the
 * binary-data check of a text line. Readers call these; nothing here calls
 * a reader (lpm_fib_load, in fib_load.c, sits above both). */
#include <stdio.h>
#include <string.h>

#include "fib_readers.h"

/* Lines without a next hop (prefix-only tables) get a label from the
 * prefix's hash, so that engines answering with the wrong prefix are caught
 * by tests; docs/formats.md documents it, --default-nh overrides. */
#define SYNTH_LABELS 256u

const char *lpm_fib_missing_nh(const lpm_fib_opts *o, const lpm_prefix *p, char lab[16], size_t *len)
{
    if (o->default_nh) {
        *len = strlen(o->default_nh);
        return o->default_nh;
    }
    uint64_t h = p->addr.hi * 0x9E3779B97F4A7C15ULL ^ p->addr.lo * 0xC2B2AE3D27D4EB4FULL ^ p->len;
    h ^= h >> 31;
    h *= 0xBF58476D1CE4E5B9ULL;
    h ^= h >> 29;
    /* "h" and the decimal label, without printf: this runs per line. */
    unsigned v = (unsigned)(h % SYNTH_LABELS);
    char d[8];
    size_t k = 0, n = 0;
    do
        d[k++] = (char)('0' + v % 10);
    while ((v /= 10) && k < sizeof d);
    lab[n++] = 'h';
    while (k)
        lab[n++] = d[--k];
    lab[n] = '\0';
    *len = n;
    return lab;
}

int lpm_fib_reader_add(lpm_fib *f, lpm_input *in, const lpm_fib_opts *o,
                       const lpm_prefix *p, const char *nh, size_t nhlen, lpm_err *err)
{
    if (o->family && p->family != o->family) {
        f->skipped++;
        return LPM_OK;
    }
    char lab[16];
    if (!nh)
        nh = lpm_fib_missing_nh(o, p, lab, &nhlen);
    lpm_err e;
    int rc = lpm_fib_add_tok(f, p, nh, nhlen, &e);
    if (rc)
        return lpm_err_at(err, rc, lpm_input_name(in), lpm_input_lineno(in), "%s", e.msg);
    return LPM_OK;
}

int lpm_fib_reader_bad(lpm_fib *f, lpm_input *in, const lpm_fib_opts *o,
                       const char *why, lpm_err *err)
{
    if (o->skip_bad) {
        f->skipped++;
        return LPM_OK;
    }
    return lpm_err_at(err, LPM_EINPUT, lpm_input_name(in), lpm_input_lineno(in), "%s", why);
}

int lpm_fib_text_check(const char *s, size_t len, const char *what, char *why, size_t size)
{
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if ((c < 32 && c != '\t' && !(c == '\r' && i + 1 == len)) || c == 127) {
            char q[8];
            snprintf(why, size, "binary data in %s: byte '%s' at column %zu", what, lpm_quote(q, sizeof q, s + i, 1), i + 1);
            return 0;
        }
    }
    return 1;
}
