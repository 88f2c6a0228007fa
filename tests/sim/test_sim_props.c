/* Properties over many random configurations of synthetic pipelines (hop
 * cycles 1..3, one or two ports, result back-pressure): LPC never above
 * min(W, N*P), a linear pipeline never above its issue width, every request
 * out exactly once, input order with a reorder buffer, latency at least
 * what the rules allow for the reads made, same seed same run. */
#include <stdlib.h>

#include "testutil.h"
#include "../../core/rng.h"
#include "../../sim/sim.h"
#include "../../sim/walk_synth.h"

typedef struct seen {
    uint8_t *hit;
    uint64_t n, dups, bad_lat, last_id, out_of_order, count;
    uint64_t hash;
    unsigned hop, stages, rob;
    int ring;
} seen;

/* The fewest cycles from the DIT read to the exit (microarchitecture.md,
 * section 3): D = 1, a ring lookup of r reads exits r cycles after its DIT
 * read, a linear one N; D >= 2 adds D-1 cycles per hop and two cycles
 * through the queue (the push lands a cycle after the dispatch). */
static uint64_t min_latency(const seen *s, unsigned reads)
{
    unsigned D = s->hop, N = s->stages;
    if (D == 1)
        return s->ring ? (reads ? reads : 1) : N;
    if (!reads)
        return D;
    return (uint64_t)((s->ring ? reads : N) + 1) * D + 1;
}

static int sink(void *ctx, const lpm_sim_result *x, lpm_err *err)
{
    seen *s = ctx;
    (void)err;
    if (x->id >= s->n || s->hit[x->id]++)
        s->dups++;
    if (x->exit_cycle - x->dit_cycle < min_latency(s, x->visits))
        s->bad_lat++;
    /* the result leaves in its exit cycle only with D = 1 and no reorder buffer */
    int same = !s->rob && s->hop == 1;
    if (same ? x->out_cycle != x->exit_cycle : x->out_cycle <= x->exit_cycle)
        s->bad_lat++;
    if (s->count && x->id < s->last_id)
        s->out_of_order++;
    s->last_id = x->id;
    s->count++;
    s->hash = (s->hash ^ (x->id * 0x9E3779B97F4A7C15ULL + x->out_cycle)) * 0x100000001B3ULL;
    return 0;
}

static void one(uint64_t seed, seen *out, lpm_sim_stats *st_out, unsigned *n_out, unsigned *w_out, int *ring_out,
                unsigned *rob_out, unsigned *ports_out)
{
    lpm_rng r;
    lpm_rng_seed(&r, seed);
    unsigned n = 1 + (unsigned)lpm_rng_below(&r, 32);
    int ring = lpm_rng_below(&r, 4) != 0;
    lpm_sim_cfg cfg;
    lpm_sim_cfg_default(&cfg);
    cfg.hop = 1 + (unsigned)lpm_rng_below(&r, 3);
    cfg.ports = 1 + (unsigned)lpm_rng_below(&r, 2);
    cfg.result_ready = cfg.hop > 1 && lpm_rng_below(&r, 2) ? 0.2 + 0.8 * lpm_rng_double(&r) : 1.0;
    cfg.queue = (unsigned)lpm_rng_below(&r, 20) + (cfg.hop > 1);
    cfg.width = ring ? 1 + (unsigned)lpm_rng_below(&r, 8) : 1 + (unsigned)lpm_rng_below(&r, cfg.ports);
    cfg.rob = lpm_rng_below(&r, 3) ? 0 : 1 + (unsigned)lpm_rng_below(&r, 64);
    cfg.load = lpm_rng_below(&r, 3) ? 0.0 : 0.1 + lpm_rng_double(&r) * 4;
    cfg.warmup = lpm_rng_below(&r, 100);
    cfg.lookahead = lpm_rng_below(&r, 2) ? 0 : cfg.width + (unsigned)lpm_rng_below(&r, 40);
    unsigned lo = (unsigned)lpm_rng_below(&r, 2 * n + 1), hi = lo + (unsigned)lpm_rng_below(&r, 2 * n + 1);
    if (!ring) { /* a linear walk ends by the last stage */
        lo = 1 + (unsigned)lpm_rng_below(&r, n);
        hi = lo + (unsigned)lpm_rng_below(&r, n - lo + 1);
    }
    double burst = 1.0 + lpm_rng_double(&r) * 20;
    uint64_t count = 2000 + lpm_rng_below(&r, 3000);
    lpm_sim_synth sy;
    lpm_sim_walker w;
    lpm_sim_synth_init(&sy, n, ring, &w);
    lpm_sim_synth_src g;
    lpm_sim_synth_src_init(&g, n, ring, lo, hi, burst, count, seed);
    out->n = count;
    out->hit = calloc(count, 1);
    out->hop = cfg.hop;
    out->stages = n;
    out->ring = ring;
    out->rob = cfg.rob;
    lpm_sim *s;
    lpm_err err;
    ck_assert_int_eq(lpm_sim_new(&s, &w, &cfg, &err), 0);
    ck_assert_msg(lpm_sim_run(s, lpm_sim_synth_next, &g, NULL, NULL, sink, out, &err) == 0, "%s", err.msg);
    *st_out = *lpm_sim_get_stats(s);
    st_out->qhist = NULL;
    st_out->lat_hist = NULL;
    lpm_sim_free(s);
    *n_out = n;
    *w_out = cfg.width;
    *ring_out = ring;
    *rob_out = cfg.rob;
    *ports_out = cfg.ports;
}

START_TEST(test_properties)
{
    for (uint64_t seed = 1; seed <= 300; seed++) {
        seen a = { 0 };
        lpm_sim_stats st;
        unsigned n, w, rob, ports;
        int ring;
        one(seed, &a, &st, &n, &w, &ring, &rob, &ports);
        ck_assert_msg(a.count == a.n && a.dups == 0, "seed %llu: %llu results for %llu requests, %llu duplicates",
                      (unsigned long long)seed, (unsigned long long)a.count, (unsigned long long)a.n,
                      (unsigned long long)a.dups);
        for (uint64_t i = 0; i < a.n; i++)
            ck_assert_msg(a.hit[i] == 1, "seed %llu: request %llu out %u times", (unsigned long long)seed,
                          (unsigned long long)i, a.hit[i]);
        ck_assert_msg(a.bad_lat == 0, "seed %llu: %llu latencies below the rules' minimum (hop %u)",
                      (unsigned long long)seed, (unsigned long long)a.bad_lat, a.hop);
        if (rob)
            ck_assert_msg(a.out_of_order == 0, "seed %llu: reorder buffer out of order", (unsigned long long)seed);
        /* Lookups the DIT answers use no stage: then only W bounds. Exits
         * in the window come from dispatches (and stage slots) in cycles 0
         * to its end, the warmup included. */
        double stretch = st.win_cycles ? (double)(st.win_cycles + st.win_start) / (double)st.win_cycles : 1.0;
        double bound = (w < n * ports || st.dit_answers ? w : n * ports) * stretch;
        ck_assert_msg(st.lpc <= bound + 1e-9, "seed %llu: LPC %f above min(W=%u, N*P=%u) (%llu DIT answers)",
                      (unsigned long long)seed, st.lpc, w, n * ports, (unsigned long long)st.dit_answers);
        if (!ring)
            ck_assert_msg(st.lpc <= w * stretch + 1e-9, "seed %llu: linear LPC %f above W %u", (unsigned long long)seed,
                          st.lpc, w);
        ck_assert_msg(st.util <= 1.0 + 1e-9, "seed %llu: utilisation %f", (unsigned long long)seed, st.util);
        for (unsigned i = 0; i < n; i++)
            ck_assert(st.busy[i] <= st.win_cycles * ports);
        /* Determinism: the same seed gives the same run, output for output. */
        if (seed % 10 == 0) {
            seen b = { 0 };
            lpm_sim_stats st2;
            one(seed, &b, &st2, &n, &w, &ring, &rob, &ports);
            ck_assert_uint_eq(a.hash, b.hash);
            ck_assert_uint_eq(st.cycles, st2.cycles);
            free(b.hit);
        }
        free(a.hit);
    }
}
END_TEST

/* CAMP's bound: every request reads all N stages of the ring, so LPC <= 1
 * whatever W; with deep queues and W > 1 it comes close to 1. */
START_TEST(test_full_traversal_bound)
{
    lpm_sim_synth sy;
    lpm_sim_walker w;
    lpm_sim_synth_init(&sy, 24, 1, &w);
    lpm_sim_synth_src g;
    lpm_sim_synth_src_init(&g, 24, 1, 24, 24, 1.0, 50000, 3);
    lpm_sim_cfg cfg;
    lpm_sim_cfg_default(&cfg);
    cfg.queue = 64;
    cfg.width = 4;
    cfg.warmup = 1000;
    cfg.hop = 1;
    lpm_sim *s;
    lpm_err err;
    seen a = { 0 };
    a.n = 50000;
    a.hit = calloc(a.n, 1);
    ck_assert_int_eq(lpm_sim_new(&s, &w, &cfg, &err), 0);
    ck_assert_int_eq(lpm_sim_run(s, lpm_sim_synth_next, &g, NULL, NULL, sink, &a, &err), 0);
    const lpm_sim_stats *st = lpm_sim_get_stats(s);
    ck_assert_msg(st->lpc <= 1.0 + 1e-9 && st->lpc > 0.9, "LPC %f", st->lpc);
    ck_assert_uint_eq(a.count, 50000);
    lpm_sim_free(s);
    free(a.hit);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("sim_props");
    TCase *tc = tcase_create("props");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_properties);
    tcase_add_test(tc, test_full_traversal_bound);
    suite_add_tcase(s, tc);
    return tu_run(s);
}
