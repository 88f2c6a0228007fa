#include "walk_synth.h"

#include <math.h>
#include <string.h>

#include "../core/nhtab.h"
#include "../core/rng.h"

static void synth_dispatch(void *ctx, const lpm_addr *key, lpm_visit *v)
{
    const lpm_sim_synth *sy = ctx;
    v->key = *key;
    /* a linear pipeline's DIT may name a later first stage too (the lookup
     * still enters at stage 0 and rides there); the sources give 0 */
    v->stage = (unsigned)(key->hi % sy->stages);
    v->addr = 0;
    v->bitpos = (unsigned)key->lo; /* reads wanted */
    v->visits = 0;
    v->loops = 0;
    v->best_nh = LPM_NH_NONE;
    v->done = v->bitpos == 0;
}

static void synth_visit(void *ctx, lpm_visit *v)
{
    const lpm_sim_synth *sy = ctx;
    if (sy->word[v->stage]) /* a nonzero word carries a next hop (V set) */
        v->best_nh = (uint32_t)sy->word[v->stage];
    v->visits++;
    if (v->visits >= v->bitpos || (!sy->ring && v->stage + 1 == sy->stages)) {
        v->done = 1;
        return;
    }
    v->stage++;
    if (v->stage == sy->stages) {
        v->stage = 0;
        v->loops++;
    }
}

static void synth_write(void *ctx, unsigned stage, uint32_t addr, uint64_t word)
{
    lpm_sim_synth *sy = ctx;
    (void)addr;
    if (stage < sy->stages) /* the DIT of a synthetic pipeline has no words */
        sy->word[stage] = word;
}

void lpm_sim_synth_init(lpm_sim_synth *sy, unsigned stages, int ring, lpm_sim_walker *w)
{
    memset(sy, 0, sizeof *sy);
    sy->stages = stages;
    sy->ring = ring;
    w->ctx = sy;
    w->stages = stages;
    w->ring = ring;
    w->dispatch = synth_dispatch;
    w->visit = synth_visit;
    w->write = synth_write;
    w->active = 0;
}

uint64_t lpm_sim_geometric(void *rng, double m)
{
    if (m <= 1.0)
        return 1;
    /* P(L = k) = (1-p)^(k-1) p with p = 1/m, by inversion. */
    double u = lpm_rng_double(rng);
    double p = 1.0 / m;
    return 1 + (uint64_t)floor(log1p(-u) / log1p(-p));
}

void lpm_sim_synth_src_init(lpm_sim_synth_src *g, unsigned stages, int ring, unsigned reads_lo,
                            unsigned reads_hi, double burst, uint64_t count, uint64_t seed)
{
    memset(g, 0, sizeof *g);
    g->stages = stages;
    g->ring = ring;
    g->reads_lo = reads_lo;
    g->reads_hi = reads_hi;
    g->burst = burst;
    g->count = count;
    lpm_rng_seed((lpm_rng *)g->rng, seed);
}

int lpm_sim_synth_next(void *ctx, lpm_addr *key, lpm_err *err)
{
    lpm_sim_synth_src *g = ctx;
    lpm_rng *r = (lpm_rng *)g->rng;
    (void)err;
    if (g->made == g->count)
        return 0;
    if (g->run_left == 0) {
        g->run_left = lpm_sim_geometric(r, g->burst);
        g->run_entry = g->ring ? (unsigned)lpm_rng_below(r, g->stages) : 0;
    }
    g->run_left--;
    unsigned reads = g->reads_lo + (unsigned)lpm_rng_below(r, (uint64_t)(g->reads_hi - g->reads_lo) + 1);
    *key = lpm_sim_synth_key(g->run_entry, reads);
    g->made++;
    return 1;
}
