/* Update-cost measurement and trace addresses for the CPU benches. */
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
