/* The CPU build of GAMT: the two lookup copies as host arrays, written only
 * through uploads and bubbles, so the CPU engine exercises the same update
 * path the GPU runs. */
#ifndef LPM_GAMT_CPU_H
#define LPM_GAMT_CPU_H

#include "gamt.h"

typedef struct lpm_gamt_cpu {
    uint32_t *tab[2];
    uint32_t width[2];
    uint8_t stride[GAMT_MAX_LEVELS + 1];
    unsigned levels;
} lpm_gamt_cpu;

/* A sink writing into c. */
lpm_gamt_sink lpm_gamt_cpu_sink(lpm_gamt_cpu *c);
void lpm_gamt_cpu_free(lpm_gamt_cpu *c);

/* Algorithm 1 on copy `copy`, resolved to a next-hop index. */
static inline uint32_t lpm_gamt_cpu_lookup(const lpm_gamt *g, const lpm_gamt_cpu *c, const lpm_addr *a)
{
    int k = g->active;
    return lpm_gamt_resolve(g, gamt_lookup(c->tab[k], c->width[k], c->stride, a->hi), a);
}

#endif
