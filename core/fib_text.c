/* The two simple text formats: plain "prefix/len [nexthop]" and CAIDA
 * pfx2as "net<TAB>len<TAB>label". */
#include <stdio.h>
#include <string.h>

#include "fib_readers.h"

/* Splits a line into at most max whitespace-separated tokens; returns the
 * count, or max + 1 when there are more. Strips a trailing '\r' and stops
 * at '#'. */
static int tokenize(char *s, size_t len, char **tok, size_t *tlen, int max)
{
    if (len && s[len - 1] == '\r')
        s[--len] = '\0';
    int n = 0;
    size_t i = 0;
    while (i < len) {
        while (i < len && (s[i] == ' ' || s[i] == '\t'))
            i++;
        if (i >= len || s[i] == '#')
            break;
        if (n == max)
            return max + 1;
        tok[n] = s + i;
        while (i < len && s[i] != ' ' && s[i] != '\t')
            i++;
        tlen[n] = (size_t)(s + i - tok[n]);
        n++;
    }
    return n;
}

static int read_lines(lpm_fib *f, lpm_input *in, const lpm_fib_opts *o, lpm_err *err, int pfx2as)
{
    char *line;
    size_t len;
    int r;
    while ((r = lpm_input_getline(in, &line, &len, err)) == 1) {
        char why[sizeof(lpm_err)];
        if (!lpm_fib_text_check(line, len, "a text table", why, sizeof why)) {
            int rc = lpm_fib_reader_bad(f, in, o, why, err);
            if (rc)
                return rc;
            continue;
        }
        char *tok[4];
        size_t tl[4];
        int n = tokenize(line, len, tok, tl, 3);
        if (n == 0)
            continue;
        lpm_prefix p;
        lpm_err e;
        int rc = LPM_OK;
        const char *nh = NULL;
        size_t nhlen = 0;
        if (pfx2as) {
            if (n != 3) {
                snprintf(why, sizeof why, "expected 'network<TAB>length<TAB>label', got %d field%s", n > 3 ? 4 : n, n == 1 ? "" : "s");
                rc = LPM_EINPUT;
            } else {
                char buf[96];
                if (tl[0] + tl[1] + 2 > sizeof buf) {
                    snprintf(why, sizeof why, "field too long");
                    rc = LPM_EINPUT;
                } else {
                    snprintf(buf, sizeof buf, "%.*s/%.*s", (int)tl[0], tok[0], (int)tl[1], tok[1]);
                    if (memchr(tok[0], '/', tl[0])) {
                        snprintf(why, sizeof why, "'/' in the network field of a pfx2as line");
                        rc = LPM_EINPUT;
                    } else if ((rc = lpm_prefix_parse(buf, 0, o->mask_host_bits, &p, &e)))
                        snprintf(why, sizeof why, "%s", e.msg);
                    nh = tok[2];
                    nhlen = tl[2];
                }
            }
        } else {
            if (n > 2) {
                snprintf(why, sizeof why, "expected 'prefix/len [nexthop]', got more than 2 fields");
                rc = LPM_EINPUT;
            } else {
                tok[0][tl[0]] = '\0';
                if ((rc = lpm_prefix_parse(tok[0], 0, o->mask_host_bits, &p, &e)))
                    snprintf(why, sizeof why, "%s", e.msg);
                if (n == 2) {
                    nh = tok[1];
                    nhlen = tl[1];
                }
            }
        }
        if (rc) {
            rc = lpm_fib_reader_bad(f, in, o, why, err);
            if (rc)
                return rc;
            continue;
        }
        rc = lpm_fib_reader_add(f, in, o, &p, nh, nhlen, err);
        if (rc)
            return rc;
    }
    return r < 0 ? (err && strstr(err->msg, "memory") ? LPM_EFAIL : LPM_EINPUT) : LPM_OK;
}

int lpm_fib_read_plain(lpm_fib *f, lpm_input *in, const lpm_fib_opts *o, lpm_err *err)
{
    return read_lines(f, in, o, err, 0);
}

int lpm_fib_read_pfx2as(lpm_fib *f, lpm_input *in, const lpm_fib_opts *o, lpm_err *err)
{
    return read_lines(f, in, o, err, 1);
}
