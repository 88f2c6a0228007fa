/* Measuring a table's profile from its sorted route list, without a trie:
 * the nodes at depth d are the distinct d-bit prefixes of the routes of
 * length >= d, and in (address, length) order those are contiguous. */
#include "synth_profile.h"

#include <string.h>

void lpm_fib_profile_measure(const lpm_fib *f, lpm_fib_profile *p)
{
    memset(p, 0, sizeof *p);
    p->family = f->family;
    p->prefixes = f->n;
    unsigned w = lpm_family_bits(f->family ? f->family : LPM_AF_INET);
    if (f->n == 0)
        return;
    for (unsigned d = 0; d <= w; d++) {
        int have = 0;
        lpm_addr last = { 0, 0 };
        for (size_t i = 0; i < f->n; i++) {
            const lpm_prefix *q = &f->routes[i].pfx;
            if (q->len < d)
                continue;
            lpm_addr m = lpm_addr_mask(&q->addr, d);
            if (!have || !lpm_addr_eq(&m, &last))
                p->nodes[d]++;
            have = 1;
            last = m;
        }
        p->total_nodes += p->nodes[d];
    }
    /* Leaves and nesting: in sorted order a prefix's descendants follow it
     * directly, so a stack of open ancestors tells both. */
    const lpm_prefix *stack[130];
    int top = 0;
    for (size_t i = 0; i < f->n; i++) {
        const lpm_prefix *q = &f->routes[i].pfx;
        p->len[q->len]++;
        if (i + 1 == f->n || !lpm_prefix_covers(q, &f->routes[i + 1].pfx.addr))
            p->leaves[q->len]++;
        while (top > 0 && !lpm_prefix_covers(stack[top - 1], &q->addr))
            top--;
        if (top > 0)
            p->nested++;
        stack[top++] = q;
    }
}
