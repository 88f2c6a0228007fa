/* Workloads for the GPU runs: lookups and update streams from a table. */
#include "workload.h"

#include <stdlib.h>
#include <string.h>

#include "../core/input.h"
#include "../core/rng.h"

int lpm_updates_load(const char *path, lpm_fib *fib, const char *peer_addr,
                     lpm_update **out, size_t *n, lpm_err *err) __attribute__((weak));

static lpm_addr random_addr(lpm_rng *r, int family)
{
    lpm_addr a = { lpm_rng_next(r), lpm_rng_next(r) };
    if (family == LPM_AF_INET) {
        a.hi &= 0xFFFFFFFF00000000ULL;
        a.lo = 0;
    } else {
        a.hi = (a.hi >> 3) | 0x2000000000000000ULL;
    }
    return a;
}

void lpm_gpu_addrs(const lpm_fib *f, size_t n, uint64_t seed, lpm_addr *out)
{
    lpm_rng r;
    lpm_rng_seed(&r, seed);
    for (size_t i = 0; i < n; i++) {
        lpm_addr a = random_addr(&r, f->family);
        if (f->n && (i & 1) == 0) {
            const lpm_prefix *p = &f->routes[lpm_rng_below(&r, f->n)].pfx;
            lpm_addr m = lpm_addr_mask(&a, p->len);
            a.hi = p->addr.hi | (a.hi ^ m.hi);
            a.lo = p->addr.lo | (a.lo ^ m.lo);
        }
        out[i] = a;
    }
}

int lpm_gpu_updates_gen(const lpm_fib *f, size_t n, uint64_t seed, lpm_update **out, lpm_err *err)
{
    if (n && (f->n == 0 || f->nh.n == 0))
        return lpm_err_set(err, LPM_EINPUT, "updates need a non-empty table");
    lpm_update *u = calloc(n ? n : 1, sizeof *u);
    if (!u)
        return lpm_err_set(err, LPM_EFAIL, "out of memory");
    lpm_rng r;
    lpm_rng_seed(&r, seed);
    unsigned w = lpm_family_bits(f->family);
    for (size_t i = 0; i < n; i++) {
        const lpm_prefix *p = &f->routes[lpm_rng_below(&r, f->n)].pfx;
        uint64_t k = lpm_rng_below(&r, 3);
        u[i].time = (double)i;
        u[i].pfx = *p;
        u[i].nh = (uint32_t)lpm_rng_below(&r, f->nh.n);
        if (k == 0) {
            u[i].op = 'w';
            u[i].nh = LPM_NH_NONE;
        } else {
            u[i].op = 'a';
            if (k == 2 && p->len + 2u <= w) { /* a new, more specific prefix */
                unsigned len = p->len + 1 + (unsigned)lpm_rng_below(&r, 2);
                lpm_addr a = random_addr(&r, f->family);
                lpm_addr m = lpm_addr_mask(&a, p->len);
                a.hi = p->addr.hi | (a.hi ^ m.hi);
                a.lo = p->addr.lo | (a.lo ^ m.lo);
                u[i].pfx.addr = lpm_addr_mask(&a, len);
                u[i].pfx.len = (uint8_t)len;
            }
        }
    }
    *out = u;
    return LPM_OK;
}

/* The fallback reader: "time a|w prefix [nexthop]", '#' comments. */
static int read_plain(const char *path, lpm_fib *f, lpm_update **out, size_t *n, lpm_err *err)
{
    lpm_input *in;
    int rc = lpm_input_open(&in, path, err);
    if (rc)
        return rc;
    lpm_update *u = NULL;
    size_t cnt = 0, cap = 0, len;
    char *line;
    int r;
    while ((r = lpm_input_getline(in, &line, &len, err)) == 1) {
        char *tok[4] = { 0 }, *save = NULL;
        int k = 0;
        for (char *t = strtok_r(line, " \t\r\n", &save); t && k < 4; t = strtok_r(NULL, " \t\r\n", &save))
            tok[k++] = t;
        if (k == 0 || tok[0][0] == '#')
            continue;
        unsigned long ln = lpm_input_lineno(in);
        if (k < 3 || (strcmp(tok[1], "a") && strcmp(tok[1], "w"))) {
            rc = lpm_err_at(err, LPM_EINPUT, lpm_input_name(in), ln, "expected 'time a|w prefix [nexthop]'");
            break;
        }
        if (cnt == cap) {
            cap = cap ? cap * 2 : 1024;
            lpm_update *q = realloc(u, cap * sizeof *q);
            if (!q) {
                rc = lpm_err_set(err, LPM_EFAIL, "out of memory");
                break;
            }
            u = q;
        }
        lpm_update *x = &u[cnt];
        char *end;
        x->time = strtod(tok[0], &end);
        if (*end) {
            rc = lpm_err_at(err, LPM_EINPUT, lpm_input_name(in), ln, "bad time '%s'", tok[0]);
            break;
        }
        x->op = tok[1][0];
        lpm_err pe;
        if (lpm_prefix_parse(tok[2], 0, 0, &x->pfx, &pe)) {
            rc = lpm_err_at(err, LPM_EINPUT, lpm_input_name(in), ln, "%s", pe.msg);
            break;
        }
        if (f->family && x->pfx.family != f->family) {
            rc = lpm_err_at(err, LPM_EINPUT, lpm_input_name(in), ln, "IPv%d update for an IPv%d table",
                            x->pfx.family, f->family);
            break;
        }
        x->nh = LPM_NH_NONE;
        if (x->op == 'a') {
            const char *nh = tok[3] ? tok[3] : "0";
            if ((x->nh = lpm_nhtab_intern(&f->nh, nh, strlen(nh))) == LPM_NH_NONE) {
                rc = lpm_err_set(err, LPM_EFAIL, "out of memory");
                break;
            }
        }
        cnt++;
    }
    if (rc == LPM_OK && r < 0)
        rc = LPM_EINPUT;
    lpm_input_close(in);
    if (rc) {
        free(u);
        return rc;
    }
    *out = u;
    *n = cnt;
    return LPM_OK;
}

int lpm_gpu_updates_load(const char *path, lpm_fib *f, lpm_update **out, size_t *n, lpm_err *err)
{
    if (lpm_updates_load)
        return lpm_updates_load(path, f, NULL, out, n, err);
    return read_plain(path, f, out, n, err);
}
