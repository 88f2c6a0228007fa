/* Update-cost measurements for the CPU benches (bench_cpu.h). */
#include "bench_cpu.h"

#include <stdlib.h>
#include <string.h>

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

static int engine_add(void *ctx, const lpm_prefix *p, uint32_t nh, lpm_err *err)
{
    lpm_cpu_engine_ctx *c = ctx;
    return c->e->add(c->state, p, nh, err);
}

static int engine_del(void *ctx, const lpm_prefix *p, lpm_err *err)
{
    lpm_cpu_engine_ctx *c = ctx;
    return c->e->del(c->state, p, err);
}

lpm_cpu_updater lpm_cpu_engine_updater(lpm_cpu_engine_ctx *c)
{
    lpm_cpu_updater u = { engine_add, engine_del, c, lpm_cpu_engine_cost(c->e, c->state) };
    return u;
}

/* One timed call, its counters added to the add or the delete side. */
static int timed(const lpm_cpu_updater *u, const lpm_prefix *p, int add, uint32_t nh, lpm_cpu_update_report *r,
                 lpm_err *err)
{
    lpm_cpu_cost zero = { 0 }, *c = u->cost ? u->cost : &zero, b = *c;
    double t0 = lpm_cpu_now();
    int rc = add ? u->add(u->ctx, p, nh, err) : u->del(u->ctx, p, err);
    double t = lpm_cpu_now() - t0;
    if (rc)
        return rc;
    cost_acc(add ? &r->add : &r->del, c, &b);
    *(add ? &r->add_s : &r->del_s) += t;
    ++*(add ? &r->adds : &r->dels);
    return LPM_OK;
}

int lpm_cpu_update_cost(const lpm_cpu_updater *u, const lpm_fib *fib, unsigned min_len, unsigned max_len,
                        lpm_cpu_update_report *r, lpm_err *err)
{
    memset(r, 0, sizeof *r);
    r->counted = u->cost != NULL;
    for (size_t i = 0; i < fib->n; i++) {
        const lpm_route *rt = &fib->routes[i];
        if (rt->pfx.len < min_len || rt->pfx.len > max_len)
            continue;
        int rc = timed(u, &rt->pfx, 0, 0, r, err);
        if (!rc)
            rc = timed(u, &rt->pfx, 1, rt->nh, r, err);
        if (rc)
            return rc;
        r->prefixes++;
    }
    return LPM_OK;
}

int lpm_cpu_update_replay(const lpm_cpu_updater *u, const lpm_update *up, size_t n, lpm_cpu_update_report *r,
                          lpm_err *err)
{
    memset(r, 0, sizeof *r);
    r->counted = u->cost != NULL;
    for (size_t i = 0; i < n; i++) {
        int rc = timed(u, &up[i].pfx, up[i].op == 'a', up[i].nh, r, err);
        if (rc)
            return rc;
    }
    return LPM_OK;
}

size_t lpm_cpu_edge_addrs(const lpm_prefix *p, lpm_addr *out)
{
    unsigned w = lpm_family_bits(p->family);
    lpm_addr first = p->addr, last = p->addr;
    for (unsigned i = p->len; i < w; i++)
        lpm_addr_set_bit(&last, i, 1);
    size_t k = 0;
    out[k++] = first;
    out[k++] = last;
    /* One below the first and one above the last, where they exist. */
    lpm_addr below = first, above = last;
    int has_below = 0, has_above = 0;
    for (int i = (int)w - 1; i >= 0; i--) {
        if (lpm_addr_bit(&first, (unsigned)i)) {
            lpm_addr_set_bit(&below, (unsigned)i, 0);
            has_below = 1;
            break;
        }
        lpm_addr_set_bit(&below, (unsigned)i, 1);
    }
    for (int i = (int)w - 1; i >= 0; i--) {
        if (!lpm_addr_bit(&last, (unsigned)i)) {
            lpm_addr_set_bit(&above, (unsigned)i, 1);
            has_above = 1;
            break;
        }
        lpm_addr_set_bit(&above, (unsigned)i, 0);
    }
    if (has_below)
        out[k++] = below;
    if (has_above)
        out[k++] = above;
    return k;
}
