/* A synthetic pipeline for the simulator: no trie, only the shape of the
 * walks. A request's key says where it enters and how many stages it reads
 * (CAMP's "every request traverses all 24 stages" experiment is exactly
 * this), and each stage holds one word; a read of a nonzero word makes it
 * the best next hop (words start at 0: no route), so tests can watch
 * bubbles change what lookups see. */
#ifndef LPM_SIM_WALK_SYNTH_H
#define LPM_SIM_WALK_SYNTH_H

#include <stdint.h>

#include "sim.h"

typedef struct lpm_sim_synth {
    unsigned stages;
    int ring;
    uint64_t word[LPM_SIM_MAX_STAGES]; /* one word per stage */
} lpm_sim_synth;

/* The key of a synthetic request: the stage of its first read (the DIT's
 * entry stage) and its reads (0 reads: the direct index table answers it).
 * A linear walk reads consecutive stages and ends by the last one. */
static inline lpm_addr lpm_sim_synth_key(unsigned entry, unsigned reads)
{
    lpm_addr a = { entry, reads };
    return a;
}

/* Fills a walker over sy (words start at 0). */
void lpm_sim_synth_init(lpm_sim_synth *sy, unsigned stages, int ring, lpm_sim_walker *w);

/* A request stream: bursts of requests with the same entry stage, burst
 * lengths geometric with mean burst (<= 1: every request draws its own),
 * reads per request uniform in [reads_lo, reads_hi]. Deterministic in seed. */
typedef struct lpm_sim_synth_src {
    unsigned stages, reads_lo, reads_hi;
    int ring;
    double burst;
    uint64_t count, made, run_left;
    unsigned run_entry;
    uint64_t rng[4];
} lpm_sim_synth_src;

void lpm_sim_synth_src_init(lpm_sim_synth_src *g, unsigned stages, int ring, unsigned reads_lo,
                            unsigned reads_hi, double burst, uint64_t count, uint64_t seed);
int lpm_sim_synth_next(void *ctx, lpm_addr *key, lpm_err *err);

/* Geometric run length with mean m (>= 1), shared with the image source. */
uint64_t lpm_sim_geometric(void *rng, double m);

#endif
