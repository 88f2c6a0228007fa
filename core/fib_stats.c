#include "fib_stats.h"

#include <stdlib.h>
#include <string.h>

void lpm_fib_stats_compute(const lpm_fib *f, lpm_fib_stats *s)
{
    memset(s, 0, sizeof *s);
    s->prefixes = f->n;
    /* In (address, length) order a prefix's ancestors come before it and
     * stay on a stack while they cover what follows. */
    const lpm_prefix **stack = malloc(130 * sizeof *stack);
    unsigned char *used = calloc(f->nh.n + 1, 1);
    size_t top = 0;
    for (size_t i = 0; i < f->n; i++) {
        const lpm_prefix *p = &f->routes[i].pfx;
        s->lengths[p->len]++;
        if (used && f->routes[i].nh < f->nh.n && !used[f->routes[i].nh]) {
            used[f->routes[i].nh] = 1;
            s->next_hops++;
        }
        if (!stack)
            continue;
        while (top && !lpm_prefix_covers(stack[top - 1], &p->addr))
            top--;
        if (top)
            s->nested++;
        if (top < 130)
            stack[top++] = p;
    }
    free(stack);
    free(used);
}
