/* Update-cost measurement and trace addresses for the CPU benches. */
#include "bench_cpu.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../core/rng.h"
#include "../core/trace.h"
#include "parallel.h"

static void cost_acc(lpm_cpu_cost *sum, const lpm_cpu_cost *after, const lpm_cpu_cost *before)
{
    sum->entries_set += after->entries_set - before->entries_set;
    sum->entries_moved += after->entries_moved - before->entries_moved;
    sum->nodes_copied += after->nodes_copied - before->nodes_copied;
    sum->nodes_alloc += after->nodes_alloc - before->nodes_alloc;
    sum->nodes_freed += after->nodes_freed - before->nodes_freed;
    sum->bytes_written += after->bytes_written - before->bytes_written;
}

int lpm_cpu_update_cost(const lpm_engine_ops *e, void *state, const lpm_fib *fib,
                        unsigned min_len, unsigned max_len, lpm_cpu_update_report *r,
                        lpm_err *err)
{
    memset(r, 0, sizeof *r);
    if (!e->add || !e->del)
        return lpm_err_set(err, LPM_EINPUT, "engine %s has no incremental updates", e->name);
    lpm_cpu_cost *c = lpm_cpu_engine_cost(e, state), zero = { 0 };
    r->counted = c != NULL;
    if (!c)
        c = &zero;
    for (size_t i = 0; i < fib->n; i++) {
        const lpm_route *rt = &fib->routes[i];
        if (rt->pfx.len < min_len || rt->pfx.len > max_len)
            continue;
        lpm_cpu_cost b = *c;
        double t0 = lpm_cpu_now();
        int rc = e->del(state, &rt->pfx, err);
        double t1 = lpm_cpu_now();
        if (rc)
            return rc;
        cost_acc(&r->del, c, &b);
        b = *c;
        double t2 = lpm_cpu_now();
        rc = e->add(state, &rt->pfx, rt->nh, err);
        double t3 = lpm_cpu_now();
        if (rc)
            return rc;
        cost_acc(&r->add, c, &b);
        r->del_s += t1 - t0;
        r->add_s += t3 - t2;
        r->prefixes++;
    }
    return LPM_OK;
}

static lpm_addr inside(const lpm_prefix *p, lpm_rng *r)
{
    lpm_addr x = { lpm_rng_next(r), lpm_rng_next(r) };
    if (p->family == LPM_AF_INET) {
        x.hi &= 0xFFFFFFFF00000000ULL;
        x.lo = 0;
    }
    lpm_addr m = lpm_addr_mask(&x, p->len);
    lpm_addr a = { p->addr.hi | (x.hi ^ m.hi), p->addr.lo | (x.lo ^ m.lo) };
    return a;
}

int lpm_cpu_addrs(const lpm_fib *f, int kind, size_t n, uint64_t seed, lpm_addr *out,
                  int *fallback, lpm_err *err)
{
    lpm_trace_opts o;
    lpm_trace_opts_default(&o);
    o.kind = kind;
    o.count = n;
    o.seed = seed;
    *fallback = 0;
    if (lpm_trace_gen(f, &o, out, err) == LPM_OK)
        return LPM_OK;
    *fallback = 1;
    lpm_rng r;
    lpm_rng_seed(&r, seed);
    if (kind == LPM_TRACE_UNIFORM || !f->n) {
        lpm_prefix all = { { 0, 0 }, 0, (uint8_t)f->family };
        for (size_t i = 0; i < n; i++)
            out[i] = inside(&all, &r);
        return LPM_OK;
    }
    if (kind != LPM_TRACE_ZIPF) {
        for (size_t i = 0; i < n; i++)
            out[i] = inside(&f->routes[lpm_rng_below(&r, f->n)].pfx, &r);
        return LPM_OK;
    }
    /* Zipf (s = 1) over prefixes in a random popularity order. */
    double *cdf = malloc(f->n * sizeof *cdf);
    size_t *perm = malloc(f->n * sizeof *perm);
    if (!cdf || !perm) {
        free(cdf);
        free(perm);
        return lpm_err_set(err, LPM_EFAIL, "out of memory");
    }
    double s = 0;
    for (size_t i = 0; i < f->n; i++) {
        s += 1.0 / (double)(i + 1);
        cdf[i] = s;
        perm[i] = i;
    }
    for (size_t i = f->n; i-- > 1;) {
        size_t j = (size_t)lpm_rng_below(&r, i + 1), t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    for (size_t i = 0; i < n; i++) {
        double u = lpm_rng_double(&r) * s;
        size_t lo = 0, hi = f->n - 1;
        while (lo < hi) {
            size_t mid = (lo + hi) / 2;
            if (cdf[mid] < u)
                lo = mid + 1;
            else
                hi = mid;
        }
        out[i] = inside(&f->routes[perm[lo]].pfx, &r);
    }
    free(cdf);
    free(perm);
    return LPM_OK;
}
