/* Update traces for lpmpipe update: core's lpm_updates_load when it is
 * linked in, else this reader of "[time] a|w prefix [nexthop]" lines (the
 * Poptrie/linx format). */
#include <stdlib.h>
#include <string.h>

#include "../core/input.h"
#include "upd_read.h"

int lpm_updates_load(const char *path, lpm_fib *fib, const char *peer_addr, lpm_update **out, size_t *n,
                     lpm_err *err) __attribute__((weak));

static int read_plain(const char *path, lpm_fib *fib, lpm_update **out, size_t *nout, lpm_err *err)
{
    lpm_input *in;
    int rc = lpm_input_open(&in, path, err);
    if (rc)
        return rc;
    lpm_update *u = NULL;
    size_t n = 0, cap = 0;
    char *line;
    size_t len;
    int r;
    while ((r = lpm_input_getline(in, &line, &len, err)) == 1) {
        const char *name = lpm_input_name(in);
        unsigned long ln = lpm_input_lineno(in);
        if (memchr(line, '\0', len)) {
            rc = lpm_err_at(err, LPM_EINPUT, name, ln, "NUL byte in an update line");
            break;
        }
        char *tok[5];
        int nt = 0;
        for (char *s = strtok(line, " \t\r"); s && nt < 5; s = strtok(NULL, " \t\r")) {
            if (*s == '#')
                break;
            tok[nt++] = s;
        }
        if (nt == 0)
            continue;
        int i = 0;
        lpm_update up = { 0 };
        if (strcmp(tok[0], "a") && strcmp(tok[0], "w")) {
            char *e;
            up.time = strtod(tok[0], &e);
            if (*e || e == tok[0]) {
                rc = lpm_err_at(err, LPM_EINPUT, name, ln, "'%s' is neither a time nor a|w", tok[0]);
                break;
            }
            i = 1;
        }
        if (nt - i < 2 || nt - i > 3 || (strcmp(tok[i], "a") && strcmp(tok[i], "w"))) {
            rc = lpm_err_at(err, LPM_EINPUT, name, ln, "expected '[time] a|w prefix [nexthop]'");
            break;
        }
        up.op = tok[i][0];
        lpm_err e2;
        if (lpm_prefix_parse(tok[i + 1], 0, 0, &up.pfx, &e2)) {
            rc = lpm_err_at(err, LPM_EINPUT, name, ln, "%s", e2.msg);
            break;
        }
        if (fib->family && up.pfx.family != fib->family) {
            rc = lpm_err_at(err, LPM_EINPUT, name, ln, "IPv%d update for an IPv%d table", up.pfx.family, fib->family);
            break;
        }
        up.nh = LPM_NH_NONE;
        if (up.op == 'a') {
            if (nt - i < 3) {
                rc = lpm_err_at(err, LPM_EINPUT, name, ln, "an announce needs a next hop");
                break;
            }
            up.nh = lpm_nhtab_intern(&fib->nh, tok[i + 2], strlen(tok[i + 2]));
            if (up.nh == LPM_NH_NONE) {
                rc = lpm_err_set(err, LPM_EFAIL, "out of memory");
                break;
            }
        }
        if (n == cap) {
            cap = cap ? cap * 2 : 1024;
            lpm_update *q = realloc(u, cap * sizeof *q);
            if (!q) {
                rc = lpm_err_set(err, LPM_EFAIL, "out of memory");
                break;
            }
            u = q;
        }
        u[n++] = up;
    }
    if (!rc && r < 0)
        rc = LPM_EINPUT;
    lpm_input_close(in);
    if (rc) {
        free(u);
        return rc;
    }
    *out = u;
    *nout = n;
    return LPM_OK;
}

int lpm_map_updates_read(const char *path, lpm_fib *fib, const char *peer, lpm_update **out, size_t *n,
                         lpm_err *err)
{
    if (lpm_updates_load)
        return lpm_updates_load(path, fib, peer, out, n, err);
    return read_plain(path, fib, out, n, err);
}
