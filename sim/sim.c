/* The simulator core: one call of step() is one clock cycle, following the
 * numbered steps of docs/microarchitecture.md in that order. Slots are small
 * integers so a cycle touches a few cache lines besides the image reads:
 * 0 idle, k > 0 pool entry k-1 (a lookup, or a bubble: bubbles travel the
 * dispatch window, queue 0 and the stages exactly like a lookup that enters
 * at stage 0 and reads every stage, holding every lane of a stage).
 *
 * A stage has P lanes (ports); lane p of stage s is slot s*P+p. An item that
 * holds a lane in cycle t is offered to the same lane of the next stage in
 * cycle t+D: arr holds D rows of lanes, row t mod D being what is offered in
 * cycle t (and, once consumed, what is offered in t+D). */
#include "sim_int.h"

#include <stdlib.h>
#include <string.h>

#include "cycle_log.h"

void lpm_sim_cfg_default(lpm_sim_cfg *c)
{
    memset(c, 0, sizeof *c);
    c->hop = 2;
    c->ports = 1;
    c->result_ready = 1.0;
    c->queue = 16;
    c->width = 1;
}

/* The linear credit rules (docs/microarchitecture.md 4.1) are one lane wide
 * and keep input order themselves. */
static int check_credit_cfg(const lpm_sim_walker *w, const lpm_sim_cfg *cfg, lpm_err *err)
{
    if (w->ring)
        return lpm_err_set(err, LPM_EINPUT, "result FIFO %u: the credit rules are for a linear pipeline, not a ring",
                           cfg->result_fifo);
    if (cfg->hop < 2)
        return lpm_err_set(err, LPM_EINPUT, "result FIFO %u: the credit rules need hop cycles 2 or more", cfg->result_fifo);
    if (cfg->result_fifo < 4 || cfg->result_fifo > 4096)
        return lpm_err_set(err, LPM_EINPUT, "result FIFO %u: must be 4..4096 credits", cfg->result_fifo);
    if (cfg->ports != 1 || cfg->width != 1)
        return lpm_err_set(err, LPM_EINPUT, "result FIFO %u: the credit rules take one port and issue width 1",
                           cfg->result_fifo);
    if (cfg->rob || cfg->lookahead)
        return lpm_err_set(err, LPM_EINPUT, "result FIFO %u: results are in input order already (no --rob, no --lookahead)",
                           cfg->result_fifo);
    return LPM_OK;
}

static int check_cfg(const lpm_sim_walker *w, const lpm_sim_cfg *cfg, lpm_err *err)
{
    if (w->stages < 1 || w->stages > LPM_SIM_MAX_STAGES)
        return lpm_err_set(err, LPM_EINPUT, "%u stages: the simulator takes 1..%d", w->stages, LPM_SIM_MAX_STAGES);
    if (cfg->hop < 1 || cfg->hop > 16)
        return lpm_err_set(err, LPM_EINPUT, "hop cycles %u: must be 1..16", cfg->hop);
    if (cfg->ports < 1 || cfg->ports > 2)
        return lpm_err_set(err, LPM_EINPUT, "ports %u: must be 1 or 2", cfg->ports);
    if (cfg->width < 1 || cfg->width > 64)
        return lpm_err_set(err, LPM_EINPUT, "issue width %u: must be 1..64", cfg->width);
    if (!w->ring && cfg->width > cfg->ports)
        return lpm_err_set(err, LPM_EINPUT, "a linear pipeline has one entry stage: issue width must be at most the ports (%u)",
                           cfg->ports);
    if (cfg->lookahead && (cfg->lookahead < cfg->width || cfg->lookahead > 4096))
        return lpm_err_set(err, LPM_EINPUT, "lookahead %u: must be 0 or issue width..4096", cfg->lookahead);
    if (cfg->queue > 1u << 16)
        return lpm_err_set(err, LPM_EINPUT, "queue depth %u: must be at most 65536", cfg->queue);
    if (cfg->dit_queue && (cfg->hop < 2 || cfg->result_fifo))
        return lpm_err_set(err, LPM_EINPUT, "DIT answers through the queues: a rule of hop cycles 2 or more under the window "
                                            "rules (not with --result-fifo)");
    if (cfg->result_fifo)
        return check_credit_cfg(w, cfg, err);
    if (cfg->hop > 1 && cfg->queue == 0)
        return lpm_err_set(err, LPM_EINPUT, "hop cycles %u: the dispatcher only pushes into queues, so the queue depth must be at least 1",
                           cfg->hop);
    if (cfg->rob > 1u << 20)
        return lpm_err_set(err, LPM_EINPUT, "reorder buffer %u: must be at most 1048576", cfg->rob);
    if (!(cfg->result_ready >= 0.0 && cfg->result_ready <= 1.0))
        return lpm_err_set(err, LPM_EINPUT, "result ready fraction %g: must be in (0, 1]", cfg->result_ready);
    if (cfg->hop == 1 && cfg->result_ready > 0.0 && cfg->result_ready < 1.0)
        return lpm_err_set(err, LPM_EINPUT, "result back-pressure needs hop cycles 2 or more (the one-cycle rules have none)");
    return LPM_OK;
}

int lpm_sim_new(lpm_sim **out, const lpm_sim_walker *w, const lpm_sim_cfg *cfg, lpm_err *err)
{
    *out = NULL;
    int rc = check_cfg(w, cfg, err);
    if (rc)
        return rc;
    lpm_sim *s = calloc(1, sizeof *s);
    if (!s)
        return lpm_err_set(err, LPM_EFAIL, "out of memory");
    s->w = *w;
    s->cfg = *cfg;
    s->n = w->stages;
    s->active = w->active & 1;
    s->P = cfg->ports;
    s->D = cfg->hop;
    s->lanes = s->n * s->P;
    s->ready_thr = lpm_sim_ready_threshold(cfg->result_ready);
    unsigned n = s->n, L = s->lanes, D = s->D, W = cfg->width;
    unsigned sw = cfg->lookahead ? cfg->lookahead : W;
    /* D >= 2: W * D more entries hold the requests whose DIT read is under way */
    s->cap = D > 1 ? sw + W * D : sw;
    s->scan = cfg->lookahead ? cfg->lookahead : s->cap;
    /* In flight at once: the window, the queues, D rows of lanes, the lanes
     * being worked on, and the DIT answers dispatched in this cycle. */
    s->pool_n = s->cap + W + n * cfg->queue + L * D + L + 1;
    s->nrl = D > 1 && !cfg->rob && !cfg->result_fifo ? L + W : 0;
    /* in flight under the credit rules: at most F - 1 results (the count lags two cycles) */
    s->cres_cap = cfg->result_fifo ? cfg->result_fifo + 4 : 0;
    s->cred = cfg->result_fifo;
    s->cur = calloc(L, sizeof *s->cur);
    s->arr = calloc((size_t)L * D, sizeof *s->arr);
    s->amask = calloc((size_t)4 * D, sizeof *s->amask);
    s->rd = calloc(L, 1);
    s->fin = calloc((size_t)L * D, sizeof *s->fin);
    s->fin_lane = calloc((size_t)L * D, sizeof *s->fin_lane);
    s->fin_n = calloc(D, sizeof *s->fin_n);
    s->rl = s->nrl ? calloc(s->nrl, sizeof *s->rl) : NULL;
    s->qbuf = calloc((size_t)n * (cfg->queue ? cfg->queue : 1), sizeof *s->qbuf);
    s->q = calloc(n, sizeof *s->q);
    s->qpop = calloc(n, sizeof *s->qpop);
    s->qpush_at = calloc(n, sizeof *s->qpush_at);
    s->qpush_n = calloc(n, sizeof *s->qpush_n);
    s->pool = calloc(s->pool_n, sizeof *s->pool);
    s->win = calloc(s->cap, sizeof *s->win);
    s->bub = calloc(s->pool_n, sizeof *s->bub);
    s->exits = calloc(L + W, sizeof *s->exits);
    s->exit_lane = calloc(L + W, sizeof *s->exit_lane);
    s->st.qhist = calloc((size_t)n * (cfg->queue + 1 < LPM_SIM_QHIST_MAX ? cfg->queue + 1 : LPM_SIM_QHIST_MAX),
                         sizeof *s->st.qhist);
    s->st.lat_hist = calloc(LPM_SIM_LAT_BUCKETS, sizeof *s->st.lat_hist);
    if (s->cres_cap) {
        s->cres = calloc(s->cres_cap, sizeof *s->cres);
        s->cres_at = calloc(s->cres_cap, sizeof *s->cres_at);
        s->cent = calloc(D + 1, sizeof *s->cent);
    }
    if (cfg->rob) {
        s->rob = calloc(cfg->rob, sizeof *s->rob);
        s->rob_valid = calloc(cfg->rob, 1);
    }
    if (!s->cur || !s->arr || !s->amask || !s->rd || !s->fin || !s->fin_lane || !s->fin_n || (s->nrl && !s->rl) || !s->qbuf ||
        !s->q || !s->qpop || !s->qpush_at || !s->qpush_n || !s->pool || !s->win || !s->bub || !s->exits || !s->exit_lane || !s->st.qhist ||
        !s->st.lat_hist || (cfg->rob && (!s->rob || !s->rob_valid)) || (s->cres_cap && (!s->cres || !s->cres_at || !s->cent))) {
        lpm_sim_free(s);
        return lpm_err_set(err, LPM_EFAIL, "out of memory");
    }
    for (uint32_t i = 0; i < s->pool_n; i++)
        s->pool[i].next_free = i + 1 < s->pool_n ? i + 2 : 0;
    s->free_head = 1;
    *out = s;
    return LPM_OK;
}

void lpm_sim_free(lpm_sim *s)
{
    if (!s)
        return;
    free(s->cur);
    free(s->arr);
    free(s->amask);
    free(s->rd);
    free(s->fin);
    free(s->fin_lane);
    free(s->fin_n);
    free(s->rl);
    free(s->qbuf);
    free(s->q);
    free(s->qpop);
    free(s->qpush_at);
    free(s->qpush_n);
    free(s->pool);
    free(s->win);
    free(s->bub);
    free(s->exits);
    free(s->exit_lane);
    free(s->rob);
    free(s->rob_valid);
    free(s->cres);
    free(s->cres_at);
    free(s->cent);
    free(s->st.qhist);
    free(s->st.lat_hist);
    free(s->ev);
    free(s);
}

void lpm_sim_set_bubble_hook(lpm_sim *s, lpm_sim_bubble_hook fn, void *ctx)
{
    s->bhook = fn;
    s->bhook_ctx = ctx;
}

void lpm_sim_set_dit_hook(lpm_sim *s, lpm_sim_dit_hook fn, void *ctx)
{
    s->dhook = fn;
    s->dhook_ctx = ctx;
}

void lpm_sim_set_exit_hook(lpm_sim *s, lpm_sim_dit_hook fn, void *ctx)
{
    s->xhook = fn;
    s->xhook_ctx = ctx;
}

const lpm_sim_stats *lpm_sim_get_stats(const lpm_sim *s)
{
    return &s->st;
}

/* Items in the pipeline (lookups or bubbles) or results not yet out. */
static int items_left(const lpm_sim *s)
{
    return s->live || s->rl_live || s->rob_head < s->rob_alloc || s->bub_taken || s->cres_n;
}

/* Something still to do: requests to read, or items in the pipeline. A
 * bubble not yet in the window when the last lookup is out is not
 * simulated (the caller counts and reports it), unless drain_updates
 * keeps the clock running until the bubble source is empty. */
static int busy(const lpm_sim *s)
{
    if (!s->src_done || items_left(s))
        return 1;
    return s->cfg.drain_updates && (s->have_pending || !s->bsrc_done);
}

int lpm_sim_run(lpm_sim *s, lpm_sim_source_fn src, void *src_ctx,
                lpm_sim_bubble_fn bsrc, void *bsrc_ctx,
                lpm_sim_sink_fn sink, void *sink_ctx, lpm_err *err)
{
    run_io io = { src, src_ctx, bsrc, bsrc_ctx, sink, sink_ctx };
    lpm_sim_stats *st = &s->st;
    if (s->cfg.cycle_log) {
        lpm_sim_log_hdr h = { s->n, s->w.ring, s->cfg.queue, s->cfg.width, s->cfg.rob, s->cfg.lookahead,
                              s->D, s->P, s->cfg.result_fifo, s->cfg.dit_queue };
        char line[256];
        lpm_sim_log_header(line, sizeof line, &h);
        fprintf(s->cfg.cycle_log, "%s\n", line);
    }
    if (!bsrc)
        s->bsrc_done = 1;
    for (;;) {
        if (!s->have_pending && !s->bsrc_done) {
            int got = bsrc(bsrc_ctx, &s->pending, err);
            if (got < 0)
                return LPM_EINPUT;
            if (got == 0)
                s->bsrc_done = 1;
            else
                s->have_pending = 1;
        }
        /* Draining updates with nothing in the pipeline: the cycles until
         * the next bubble is ready change nothing but the clock (no cycle
         * log line is due without a log). */
        if (s->cfg.drain_updates && s->src_done && s->have_pending && s->pending.ready > s->cycle &&
            !s->cfg.cycle_log && !items_left(s))
            s->cycle = s->pending.ready;
        int rc = lpm_sim_step(s, &io, err);
        if (rc)
            return rc;
        s->cycle++;
        if (s->src_done && !busy(s))
            break;
    }
    st->cycles = s->cycle;
    st->win_start = s->cfg.warmup;
    if (st->win_end <= st->win_start) {
        st->win_cycles = 0;
        st->lpc = st->util = 0;
        return LPM_OK;
    }
    st->win_cycles = st->win_end - st->win_start;
    st->lpc = (double)st->win_exits / (double)st->win_cycles;
    uint64_t b = 0;
    for (unsigned i = 0; i < s->n; i++)
        b += st->busy[i];
    st->util = (double)b / ((double)st->win_cycles * s->lanes);
    return LPM_OK;
}

uint64_t lpm_sim_latency_pct(const lpm_sim_stats *st, double pct)
{
    uint64_t total = 0;
    for (unsigned i = 0; i < LPM_SIM_LAT_BUCKETS; i++)
        total += st->lat_hist[i];
    if (!total)
        return 0;
    uint64_t want = (uint64_t)((pct / 100.0) * (double)total + 0.999999);
    if (want < 1)
        want = 1;
    uint64_t acc = 0;
    for (unsigned i = 0; i < LPM_SIM_LAT_BUCKETS; i++) {
        acc += st->lat_hist[i];
        if (acc >= want)
            return i;
    }
    return LPM_SIM_LAT_BUCKETS - 1;
}
