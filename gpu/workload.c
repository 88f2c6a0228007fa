/* Workloads for the GPU runs: lookups and update streams from a table. */
#include "workload.h"

#include <stdlib.h>
#include <string.h>

#include "../core/rng.h"
#include "../core/updates_load.h"

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

int lpm_gpu_updates_load(const char *path, lpm_fib *f, int mask_host, lpm_update **out, size_t *n, lpm_err *err)
{
    return lpm_updates_load_ex(path, f, NULL, mask_host, out, n, NULL, 0, err);
}
