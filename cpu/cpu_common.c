/* Helpers shared by the CPU engines. */
#include "cpu.h"

#include <stdlib.h>
#include <string.h>

lpm_cpu_cost *lpm_cpu_state_cost(void *state)
{
    return state ? &((lpm_cpu_hdr *)state)->cost : NULL;
}

uint32_t lpm_cpu_shadow_parent(const lpm_ref *r, const lpm_prefix *p,
                               unsigned min_len, int *len)
{
    for (int l = (int)p->len - 1; l >= (int)min_len; l--) {
        lpm_prefix q = { lpm_addr_mask(&p->addr, (unsigned)l), (uint8_t)l, p->family };
        uint32_t nh = lpm_ref_get(r, &q);
        if (nh != LPM_NH_NONE) {
            *len = l;
            return nh;
        }
    }
    *len = -1;
    return LPM_NH_NONE;
}

void lpm_cpu_order_by_len(const lpm_fib *f, size_t *idx)
{
    size_t count[130] = { 0 };
    for (size_t i = 0; i < f->n; i++)
        count[f->routes[i].pfx.len + 1]++;
    for (int l = 1; l < 130; l++)
        count[l] += count[l - 1];
    for (size_t i = 0; i < f->n; i++)
        idx[count[f->routes[i].pfx.len]++] = i;
}
