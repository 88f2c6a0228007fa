/* The CPU build of GAMT: the two lookup copies as host arrays, written only
 * through uploads and bubbles, so the CPU engine exercises the same update
 * path the GPU runs. It refuses calls that break the sink protocol of
 * gamt.h (upload into the active copy, swap without a new upload, bubbles
 * for the inactive copy), so every CPU test checks the order the device
 * sink relies on. */
#ifndef LPM_GAMT_CPU_H
#define LPM_GAMT_CPU_H

#include "gamt.h"

typedef struct lpm_gamt_cpu {
    uint32_t *tab[2];
    uint32_t width[2];
    uint8_t stride[GAMT_MAX_LEVELS + 1];
    unsigned levels;
    int active;     /* the copy the last swap chose */
    int fresh[2];   /* uploaded since the last swap (the sink protocol in gamt.h) */
} lpm_gamt_cpu;

/* A sink writing into c. */
lpm_gamt_sink lpm_gamt_cpu_sink(lpm_gamt_cpu *c);
void lpm_gamt_cpu_free(lpm_gamt_cpu *c);

/* Algorithm 1 on the active copy, resolved to a next-hop index. */
static inline uint32_t lpm_gamt_cpu_lookup(const lpm_gamt *g, const lpm_gamt_cpu *c, const lpm_addr *a)
{
    int k = c->active;
    return lpm_gamt_resolve(g, gamt_lookup(c->tab[k], c->width[k], c->stride, a->hi), a);
}

#endif
