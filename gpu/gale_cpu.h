/* The CPU build of GALE: its lookup copy as host arrays, written only
 * through uploads and bubbles. */
#ifndef LPM_GALE_CPU_H
#define LPM_GALE_CPU_H

#include "gale.h"

typedef struct lpm_gale_cpu {
    uint32_t *t24, *tl;
    uint32_t capblocks;
} lpm_gale_cpu;

lpm_gale_sink lpm_gale_cpu_sink(lpm_gale_cpu *c);
void lpm_gale_cpu_free(lpm_gale_cpu *c);

static inline uint32_t lpm_gale_cpu_lookup(const lpm_gale_cpu *c, const lpm_addr *a)
{
    return lpm_gale_resolve(gale_lookup(c->t24, c->tl, lpm_addr_to_v4(a)));
}

#endif
