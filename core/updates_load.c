/* Update traces: "time a|w prefix [nexthop]" lines, or bgpdump -m
 * BGP4MP A/W lines of one peer (docs/formats.md, "Update traces"). */
#include "updates_load.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fib_readers.h"
#include "input.h"

typedef struct {
    lpm_update *u;
    size_t n, cap;
} vec;

static int push(vec *v, const lpm_update *u)
{
    if (v->n == v->cap) {
        size_t nc = v->cap ? v->cap * 2 : 1024;
        lpm_update *nu = realloc(v->u, nc * sizeof *nu);
        if (!nu)
            return -1;
        v->u = nu;
        v->cap = nc;
    }
    v->u[v->n++] = *u;
    return 0;
}

static int is_number(const char *s, size_t n)
{
    size_t i = 0, digits = 0, dots = 0;
    for (; i < n; i++) {
        if (s[i] >= '0' && s[i] <= '9')
            digits++;
        else if (s[i] == '.' && dots++ == 0)
            continue;
        else
            return 0;
    }
    return digits > 0;
}

/* "time a|w prefix [nexthop]": fills u (nh token left in *nh). */
static int plain_line(char *s, size_t len, int mask_host, lpm_update *u, const char **nh, size_t *nhlen,
                      char *why, size_t wsize)
{
    char *tok[5], q[LPM_QUOTE_MAX];
    size_t tl[5];
    int n = 0;
    size_t i = 0;
    while (i < len && n < 5) {
        while (i < len && (s[i] == ' ' || s[i] == '\t'))
            i++;
        if (i >= len || s[i] == '#')
            break;
        tok[n] = s + i;
        while (i < len && s[i] != ' ' && s[i] != '\t')
            i++;
        tl[n] = (size_t)(s + i - tok[n]);
        s[i < len ? i++ : i] = '\0';
        n++;
    }
    while (i < len && (s[i] == ' ' || s[i] == '\t'))
        i++;
    if (n == 5 || (i < len && s[i] != '#'))
        return snprintf(why, wsize, "expected 'time a|w prefix [nexthop]', got more than 4 fields"), -1;
    if (n < 3)
        return snprintf(why, wsize, "expected 'time a|w prefix [nexthop]', got %d field%s", n, n == 1 ? "" : "s"), -1;
    if (!is_number(tok[0], tl[0]))
        return snprintf(why, wsize, "bad time '%s' (seconds expected)", lpm_quote(q, sizeof q, tok[0], tl[0])), -1;
    if (tl[1] != 1 || (tok[1][0] != 'a' && tok[1][0] != 'w'))
        return snprintf(why, wsize, "bad operation '%s' (a or w expected)", lpm_quote(q, sizeof q, tok[1], tl[1])), -1;
    lpm_err e;
    if (lpm_prefix_parse(tok[2], 0, mask_host, &u->pfx, &e))
        return snprintf(why, wsize, "%s", e.msg), -1;
    u->time = strtod(tok[0], NULL);
    u->op = tok[1][0];
    *nh = n == 4 ? tok[3] : NULL;
    *nhlen = n == 4 ? tl[3] : 0;
    return 0;
}

int lpm_updates_load_max(const char *path, lpm_fib *fib, const char *peer_addr, int mask_host, size_t max,
                         lpm_update **out, size_t *nout, char *peer_out, size_t peer_size, lpm_err *err)
{
    *out = NULL;
    *nout = 0;
    if (peer_out && peer_size)
        peer_out[0] = '\0';
    lpm_addr want;
    int want_family = 0, have_peer = 0;
    uint32_t peer_as = 0;
    if (peer_addr) {
        lpm_err e;
        if (lpm_addr_parse(peer_addr, &want_family, &want, &e))
            return lpm_err_set(err, LPM_EINPUT, "--peer: %s", e.msg);
    }
    lpm_input *in;
    int rc = lpm_input_open(&in, path, err);
    if (rc)
        return rc;
    const char *name = lpm_input_name(in);
    lpm_fib_opts fo;
    lpm_fib_opts_default(&fo);
    vec v = { 0 };
    int family = fib->family, r = 0;
    char *line;
    size_t len;
    char why[sizeof(lpm_err)];
    while ((max == 0 || v.n < max) && (r = lpm_input_getline(in, &line, &len, err)) == 1) {
        size_t i = 0;
        while (i < len && (line[i] == ' ' || line[i] == '\t'))
            i++;
        if (i == len || line[i] == '#' || (line[i] == '\r' && i + 1 == len))
            continue;
        if (len && line[len - 1] == '\r')
            line[--len] = '\0';
        unsigned long ln = lpm_input_lineno(in);
        if (!lpm_fib_text_check(line, len, "an update trace", why, sizeof why)) {
            rc = lpm_err_at(err, LPM_EINPUT, name, ln, "%s", why);
            break;
        }
        lpm_update u = { 0 };
        const char *nh = NULL;
        size_t nhlen = 0;
        if (memchr(line, '|', len)) {
            lpm_bgpdump_line bl;
            if (lpm_bgpdump_parse_line(line, len, mask_host, &bl, why, sizeof why)) {
                rc = lpm_err_at(err, LPM_EINPUT, name, ln, "%s", why);
                break;
            }
            if (bl.kind == 'S' || bl.kind == 0)
                continue;
            if (bl.kind == 'B') {
                rc = lpm_err_at(err, LPM_EINPUT, name, ln, "RIB entry (B) in an update trace (A and W lines expected)");
                break;
            }
            if (!have_peer) {
                if (want_family && (bl.peer_family != want_family || !lpm_addr_eq(&bl.peer, &want)))
                    continue;
                have_peer = 1;
                want = bl.peer;
                want_family = bl.peer_family;
                peer_as = bl.peer_as;
                if (peer_out && peer_size) {
                    char a[LPM_ADDR_STRLEN];
                    lpm_addr_format(&bl.peer, bl.peer_family, a, sizeof a);
                    snprintf(peer_out, peer_size, "%s AS%u", a, bl.peer_as);
                }
            } else if (bl.peer_family != want_family || !lpm_addr_eq(&bl.peer, &want) || bl.peer_as != peer_as) {
                continue;
            }
            u.time = bl.time;
            u.op = bl.kind == 'A' ? 'a' : 'w';
            u.pfx = bl.pfx;
            nh = bl.nh;
            nhlen = bl.nhlen;
        } else if (plain_line(line, len, mask_host, &u, &nh, &nhlen, why, sizeof why)) {
            rc = lpm_err_at(err, LPM_EINPUT, name, ln, "%s", why);
            break;
        }
        if (!family)
            family = u.pfx.family;
        if (u.pfx.family != family) {
            rc = lpm_err_at(err, LPM_EINPUT, name, ln, "IPv%d update for an IPv%d table", u.pfx.family, family);
            break;
        }
        u.nh = LPM_NH_NONE;
        if (u.op == 'a') {
            char lab[16];
            if (!nh)
                nh = lpm_fib_missing_nh(&fo, &u.pfx, lab, &nhlen);
            u.nh = lpm_nhtab_intern(&fib->nh, nh, nhlen);
            if (u.nh == LPM_NH_NONE) {
                rc = lpm_err_set(err, LPM_EFAIL, "out of memory");
                break;
            }
        }
        if (push(&v, &u)) {
            rc = lpm_err_set(err, LPM_EFAIL, "out of memory");
            break;
        }
    }
    if (!rc && r < 0)
        rc = strstr(err->msg, "memory") ? LPM_EFAIL : LPM_EINPUT;
    if (!rc && v.n == 0)
        rc = peer_addr ? lpm_err_at(err, LPM_EINPUT, name, lpm_input_lineno(in), "no updates from peer %s", peer_addr)
                       : lpm_err_at(err, LPM_EINPUT, name, lpm_input_lineno(in), "no updates in the trace");
    lpm_input_close(in);
    if (rc) {
        free(v.u);
        return rc;
    }
    *out = v.u;
    *nout = v.n;
    return LPM_OK;
}

int lpm_updates_load_ex(const char *path, lpm_fib *fib, const char *peer_addr, int mask_host,
                        lpm_update **out, size_t *n, char *peer_out, size_t peer_size, lpm_err *err)
{
    return lpm_updates_load_max(path, fib, peer_addr, mask_host, 0, out, n, peer_out, peer_size, err);
}

int lpm_updates_load(const char *path, lpm_fib *fib, const char *peer_addr,
                     lpm_update **out, size_t *n, lpm_err *err)
{
    return lpm_updates_load_ex(path, fib, peer_addr, 0, out, n, NULL, 0, err);
}
