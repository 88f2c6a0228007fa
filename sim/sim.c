/* The simulator core: one call of step() is one clock cycle, following the
 * numbered steps of docs/microarchitecture.md in that order. Slots are small
 * integers so a cycle touches a few cache lines besides the image reads:
 * 0 idle, k > 0 pool entry k-1 (a lookup, or a bubble: bubbles travel the
 * dispatch window, queue 0 and the stages exactly like a lookup that enters
 * at stage 0 and reads every stage). */
#include "sim.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "../core/nhtab.h"

typedef struct req {
    lpm_visit v;
    uint64_t id, dit_cycle;
    uint32_t tag;
    uint32_t hops;      /* stages passed, a guard against walks that never end */
    uint32_t next_free;
    int32_t bub;        /* -1: a lookup; else its bubble ring entry */
} req;

typedef struct fifo {
    uint32_t head, n;   /* entries are pool slots (1-based) */
} fifo;

struct lpm_sim {
    lpm_sim_walker w;
    lpm_sim_cfg cfg;
    unsigned n;                 /* stages */
    int32_t *cur, *out;         /* slot held this cycle; slot moving on */
    uint32_t *qbuf;             /* n queues of cfg.queue entries */
    fifo *q;
    req *pool;
    uint32_t pool_n, free_head;
    uint32_t *win;              /* dispatch window: pool slots in input order */
    unsigned win_n;
    lpm_sim_bubble *bub;        /* bubbles in flight, indexed like the pool */
    lpm_sim_bubble pending;     /* next bubble from the source */
    uint64_t bubble_seq;
    char tokbuf[32];
    int have_pending, bsrc_done;
    lpm_sim_result *rob;        /* cfg.rob entries, id % rob */
    uint8_t *rob_valid;
    uint64_t rob_head, rob_alloc;
    lpm_sim_result *exits;      /* this cycle's exits, in exit order */
    unsigned nexits;
    uint64_t next_id, cycle;
    int src_done, closed;
    lpm_sim_stats st;
    lpm_sim_bubble_hook bhook;
    void *bhook_ctx;
    lpm_sim_dit_hook dhook;
    void *dhook_ctx;
    /* rebuilds (docs/microarchitecture.md, "Rebuilds and the swap") */
    unsigned active;            /* the copy the DIT select names */
    uint64_t walking[2];        /* lookups between their DIT read and their exit, per copy */
    uint32_t bub_live;          /* bubbles in the window, queue 0 or a stage */
    uint64_t wait_seen;         /* cycle + 1 of the last bubble-wait count */
    /* the cycle log line being built */
    char *ev;
    size_t ev_len, ev_cap;
};

void lpm_sim_cfg_default(lpm_sim_cfg *c)
{
    memset(c, 0, sizeof *c);
    c->queue = 16;
    c->width = 1;
}

int lpm_sim_new(lpm_sim **out, const lpm_sim_walker *w, const lpm_sim_cfg *cfg, lpm_err *err)
{
    *out = NULL;
    if (w->stages < 1 || w->stages > LPM_SIM_MAX_STAGES)
        return lpm_err_set(err, LPM_EINPUT, "%u stages: the simulator takes 1..%d", w->stages, LPM_SIM_MAX_STAGES);
    if (cfg->width < 1 || cfg->width > 64)
        return lpm_err_set(err, LPM_EINPUT, "issue width %u: must be 1..64", cfg->width);
    if (!w->ring && cfg->width != 1)
        return lpm_err_set(err, LPM_EINPUT, "a linear pipeline has one entry: issue width must be 1");
    if (cfg->lookahead && (cfg->lookahead < cfg->width || cfg->lookahead > 4096))
        return lpm_err_set(err, LPM_EINPUT, "lookahead %u: must be 0 or issue width..4096", cfg->lookahead);
    if (cfg->queue > 1u << 16)
        return lpm_err_set(err, LPM_EINPUT, "queue depth %u: must be at most 65536", cfg->queue);
    if (cfg->rob > 1u << 20)
        return lpm_err_set(err, LPM_EINPUT, "reorder buffer %u: must be at most 1048576", cfg->rob);
    lpm_sim *s = calloc(1, sizeof *s);
    if (!s)
        return lpm_err_set(err, LPM_EFAIL, "out of memory");
    s->w = *w;
    s->cfg = *cfg;
    s->n = w->stages;
    s->active = w->active & 1;
    unsigned n = s->n;
    /* In flight at once: the stages, the queues, the window, and the DIT
     * answers dispatched this cycle while the window refills. */
    unsigned wcap = cfg->lookahead > cfg->width ? cfg->lookahead : cfg->width;
    s->pool_n = wcap + cfg->width + n * cfg->queue + n + 1;
    s->cur = calloc(n, sizeof *s->cur);
    s->out = calloc(n, sizeof *s->out);
    s->qbuf = calloc((size_t)n * (cfg->queue ? cfg->queue : 1), sizeof *s->qbuf);
    s->q = calloc(n, sizeof *s->q);
    s->pool = calloc(s->pool_n, sizeof *s->pool);
    s->win = calloc(wcap, sizeof *s->win);
    s->bub = calloc(s->pool_n, sizeof *s->bub);
    s->exits = calloc(n + cfg->width, sizeof *s->exits);
    s->st.qhist = calloc((size_t)n * (cfg->queue + 1 < LPM_SIM_QHIST_MAX ? cfg->queue + 1 : LPM_SIM_QHIST_MAX),
                         sizeof *s->st.qhist);
    s->st.lat_hist = calloc(LPM_SIM_LAT_BUCKETS, sizeof *s->st.lat_hist);
    if (cfg->rob) {
        s->rob = calloc(cfg->rob, sizeof *s->rob);
        s->rob_valid = calloc(cfg->rob, 1);
    }
    if (!s->cur || !s->out || !s->qbuf || !s->q || !s->pool || !s->win || !s->bub || !s->exits ||
        !s->st.qhist || !s->st.lat_hist || (cfg->rob && (!s->rob || !s->rob_valid))) {
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
    free(s->out);
    free(s->qbuf);
    free(s->q);
    free(s->pool);
    free(s->win);
    free(s->bub);
    free(s->exits);
    free(s->rob);
    free(s->rob_valid);
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

const lpm_sim_stats *lpm_sim_get_stats(const lpm_sim *s)
{
    return &s->st;
}

/* ---- the cycle log ---- */

static void ev_add(lpm_sim *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Events cost nothing without a cycle log (their arguments are not built). */
#define EV(...)                           \
    do {                                  \
        if (s->cfg.cycle_log)             \
            ev_add(s, __VA_ARGS__);       \
    } while (0)
static void ev_add(lpm_sim *s, const char *fmt, ...)
{
    if (!s->cfg.cycle_log)
        return;
    char tmp[64];
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (k < 0 || (size_t)k >= sizeof tmp)
        return;
    if (s->ev_len + (size_t)k + 2 > s->ev_cap) {
        size_t cap = s->ev_cap ? s->ev_cap * 2 : 4096;
        char *p = realloc(s->ev, cap);
        if (!p)
            return; /* the log loses this event; the run reports the I/O state at close */
        s->ev = p;
        s->ev_cap = cap;
    }
    s->ev[s->ev_len++] = ' ';
    memcpy(s->ev + s->ev_len, tmp, (size_t)k + 1);
    s->ev_len += (size_t)k;
}

/* The log's name of a slot: a lookup's id, or "b" and a bubble's number. */
static const char *tok(lpm_sim *s, uint32_t k)
{
    const req *r = &s->pool[k - 1];
    if (r->bub < 0)
        snprintf(s->tokbuf, sizeof s->tokbuf, "%llu", (unsigned long long)r->id);
    else
        snprintf(s->tokbuf, sizeof s->tokbuf, "b%llu", (unsigned long long)s->bub[r->bub].seq);
    return s->tokbuf;
}

static void log_cycle(lpm_sim *s, const uint8_t *read)
{
    FILE *fp = s->cfg.cycle_log;
    fprintf(fp, "%llu S", (unsigned long long)s->cycle);
    for (unsigned i = 0; i < s->n; i++) {
        int32_t x = s->cur[i];
        if (x == 0)
            fputs(" -", fp);
        else
            fprintf(fp, " %s%s", tok(s, (uint32_t)x), read[i] ? "" : "~");
    }
    fputs(" Q", fp);
    for (unsigned i = 0; i < s->n; i++)
        fprintf(fp, " %u", s->q[i].n);
    if (s->ev_len)
        fwrite(s->ev, 1, s->ev_len, fp);
    fputc('\n', fp);
    s->ev_len = 0;
}

/* ---- helpers ---- */

/* The steady-state window: from the warmup on, up to and including the
 * cycle in which the dispatcher finds the input exhausted and its window
 * empty (the drain that follows is left out). */
static int in_window(const lpm_sim *s)
{
    return s->cycle >= s->cfg.warmup && !s->closed;
}

static uint32_t pool_get(lpm_sim *s)
{
    uint32_t k = s->free_head;
    s->free_head = s->pool[k - 1].next_free;
    return k;
}

static void pool_put(lpm_sim *s, uint32_t k)
{
    s->pool[k - 1].next_free = s->free_head;
    s->free_head = k;
}

/* A lookup is out of the pipeline: it joins this cycle's exits. */
static void do_exit(lpm_sim *s, uint32_t k)
{
    req *r = &s->pool[k - 1];
    lpm_sim_result *x = &s->exits[s->nexits++];
    x->id = r->id;
    x->key = r->v.key;
    x->nh = r->v.best_nh;
    x->dit_cycle = r->dit_cycle;
    x->exit_cycle = s->cycle;
    x->out_cycle = s->cycle;
    x->visits = r->v.visits;
    x->loops = r->v.loops;
    x->tag = r->tag;
    s->walking[r->v.copy & 1]--;
    EV("exit:%llu", (unsigned long long)r->id);
    pool_put(s, k);
}

static int emit(lpm_sim *s, const lpm_sim_result *x, lpm_sim_sink_fn sink, void *ctx, lpm_err *err)
{
    lpm_sim_stats *st = &s->st;
    st->requests++;
    if (x->dit_cycle >= s->cfg.warmup) {
        uint64_t lat = x->out_cycle - x->dit_cycle;
        if (st->lat_sum == 0 && st->lat_max == 0 && st->lat_hist[0] == 0)
            st->lat_min = lat;
        st->lat_min = lat < st->lat_min ? lat : st->lat_min;
        st->lat_max = lat > st->lat_max ? lat : st->lat_max;
        st->lat_sum += lat;
        st->lat_hist[lat < LPM_SIM_LAT_BUCKETS ? lat : LPM_SIM_LAT_BUCKETS - 1]++;
    }
    st->loops_sum += x->loops;
    st->visits_sum += x->visits;
    if (x->loops > st->loops_max)
        st->loops_max = x->loops;
    return sink ? sink(ctx, x, err) : 0;
}

/* ---- one cycle ---- */

typedef struct run_io {
    lpm_sim_source_fn src;
    void *src_ctx;
    lpm_sim_bubble_fn bsrc;
    void *bsrc_ctx;
    lpm_sim_sink_fn sink;
    void *sink_ctx;
} run_io;

/* ---- rebuilds: fence, drain, swap, and the check of their rules ---- */

/* May the next bubble enter the window now? A drain (or swap) bubble waits
 * until every earlier bubble has left the last stage, a fence bubble until
 * no lookup walks the inactive copy. The planted faults break one rule. */
static int bubble_may_enter(lpm_sim *s, const lpm_sim_bubble *b)
{
    /* a wait counts once per cycle (the refill may ask W times) */
    int win = s->cycle >= s->cfg.warmup && s->wait_seen != s->cycle + 1;
    s->wait_seen = s->cycle + 1;
    if (b->flags & (LPM_SIM_B_DRAIN | LPM_SIM_B_SWAP)) {
        uint32_t live = s->bub_live;
        if ((b->flags & LPM_SIM_B_SWAP) && s->cfg.fault == LPM_SIM_FAULT_SWAP_EARLY) {
            /* K cycles early: bubbles in the last K stages do not count */
            unsigned k = s->cfg.fault_cycles ? s->cfg.fault_cycles : 1;
            for (unsigned i = k < s->n ? s->n - k : 0; i < s->n; i++)
                live -= s->cur[i] && s->pool[s->cur[i] - 1].bub >= 0;
        }
        if (live) {
            s->st.drain_wait += win;
            return 0;
        }
    }
    if ((b->flags & LPM_SIM_B_FENCE) && s->walking[1 - s->active] && s->cfg.fault != LPM_SIM_FAULT_NO_FENCE) {
        s->st.fence_wait += win;
        return 0;
    }
    return 1;
}

/* A rebuild's write into copy b->copy: legal only before its swap and
 * while no lookup walks that copy. */
static void shadow_write_check(lpm_sim *s, const lpm_sim_bubble *b, unsigned stage, uint32_t addr)
{
    if (!(b->flags & LPM_SIM_B_SHADOW))
        return;
    unsigned c = b->copy & 1, kind = s->active == c ? 1 : s->walking[c] ? 2 : 0;
    if (!kind)
        return;
    if (!s->st.copy_violations++) {
        s->st.viol_cycle = s->cycle;
        s->st.viol_stage = stage;
        s->st.viol_addr = addr;
        s->st.viol_copy = c;
        s->st.viol_kind = kind;
        s->st.viol_lookups = s->walking[c];
    }
}

/* Takes the next item into the dispatch window: a ready bubble first, then
 * an arrived request. Returns 1, 0 when nothing can come this cycle, or -1. */
static int refill_one(lpm_sim *s, const run_io *io, lpm_err *err)
{
    const unsigned n = s->n;
    if (!s->free_head) { /* cannot happen: the pool is sized for the worst case */
        lpm_err_set(err, LPM_EFAIL, "internal error: request pool exhausted");
        return -2;
    }
    if (s->have_pending && s->pending.ready <= s->cycle && bubble_may_enter(s, &s->pending)) {
        uint32_t k = pool_get(s);
        req *r = &s->pool[k - 1];
        r->bub = (int32_t)(k - 1);
        lpm_sim_bubble *b = &s->bub[k - 1];
        *b = s->pending;
        b->seq = s->bubble_seq++;
        s->have_pending = 0;
        s->st.bubbles_entered++;
        s->bub_live++;
        r->dit_cycle = s->cycle;
        r->hops = 0;
        for (unsigned j = 0; j < b->nw; j++)
            if (b->w[j].stage == LPM_SIM_DIT) {
                shadow_write_check(s, b, LPM_SIM_DIT, b->w[j].addr);
                s->w.write(s->w.ctx, LPM_SIM_DIT, b->w[j].addr, b->w[j].word);
            }
        if (b->flags & LPM_SIM_B_SWAP) {
            s->active = b->copy & 1;
            s->w.write(s->w.ctx, LPM_SIM_SWAP, s->active, 0);
            s->st.swaps++;
        }
        if (s->bhook)
            s->bhook(s->bhook_ctx, b, 0);
        s->win[s->win_n++] = k;
        EV("win:b%llu", (unsigned long long)b->seq);
        return 1;
    }
    if (s->src_done)
        return 0;
    if (s->cfg.load > 0 && (double)s->cycle < (double)s->next_id / s->cfg.load)
        return 0;
    lpm_addr key;
    int got = io->src(io->src_ctx, &key, err);
    if (got < 0)
        return -1;
    if (got == 0) {
        s->src_done = 1;
        return 0;
    }
    uint32_t k = pool_get(s);
    req *r = &s->pool[k - 1];
    memset(&r->v, 0, sizeof r->v);
    r->v.key = key;
    r->v.best_nh = LPM_NH_NONE;
    r->bub = -1;
    s->w.dispatch(s->w.ctx, &key, &r->v);
    if (!r->v.done && r->v.stage >= n) {
        lpm_err_set(err, LPM_EFAIL, "request %llu: the direct index table names stage %u of %u",
                    (unsigned long long)s->next_id, r->v.stage, n);
        return -2;
    }
    r->id = s->next_id++;
    r->dit_cycle = s->cycle;
    r->hops = 0;
    s->walking[r->v.copy & 1]++;
    r->tag = s->dhook ? s->dhook(s->dhook_ctx, r->id, &key) : 0;
    s->win[s->win_n++] = k;
    EV("win:%llu", (unsigned long long)r->id);
    return 1;
}

static int step(lpm_sim *s, const run_io *io, lpm_err *err)
{
    const unsigned n = s->n, Q = s->cfg.queue, W = s->cfg.width;
    const int win = in_window(s);
    lpm_sim_stats *st = &s->st;
    uint8_t read[LPM_SIM_MAX_STAGES];
    int rc;
    s->nexits = 0;

    /* 1. Reorder buffer release: up to W results that exited in earlier
     * cycles, from the head, in input order. */
    uint64_t rob_head_reg = s->rob_head;
    if (s->cfg.rob) {
        for (unsigned k = 0; k < W && s->rob_head < s->rob_alloc; k++) {
            uint64_t slot = s->rob_head % s->cfg.rob;
            if (!s->rob_valid[slot])
                break;
            lpm_sim_result *x = &s->rob[slot];
            x->out_cycle = s->cycle;
            s->rob_valid[slot] = 0;
            s->rob_head++;
            EV("rel:%llu", (unsigned long long)x->id);
            if ((rc = emit(s, x, io->sink, io->sink_ctx, err)))
                return rc;
        }
    }

    /* 2. Stage selection: the slot passing from the stage before, else the
     * head of the stage's own queue. */
    for (unsigned i = 0; i < n; i++) {
        int32_t in;
        if (s->w.ring)
            in = s->out[i == 0 ? n - 1 : i - 1];
        else
            in = i == 0 ? 0 : s->out[i - 1];
        s->cur[i] = in;
        if (in)
            continue;
        fifo *f = &s->q[i];
        if (f->n) {
            uint32_t k = s->qbuf[(size_t)i * Q + f->head];
            f->head = f->head + 1 == Q ? 0 : f->head + 1;
            f->n--;
            s->cur[i] = (int32_t)k;
            EV("pop%u:%s", i, tok(s, k));
        }
    }

    /* 3. Dispatch: the window in input order, at most W items; each enters
     * its stage directly when that stage is still idle, else joins its
     * queue. In order (lookahead 0) the first item that can do neither
     * stalls the rest; with lookahead it waits and the scan goes on to
     * items of other entry stages (never past a waiting bubble). */
    unsigned taken = 0, kept = 0, dispatched = 0;
    uint32_t dit_done[64];
    unsigned ndit = 0;
    int stalled_q = 0;
    const int ooo = s->cfg.lookahead > 0;
    for (; taken < s->win_n && dispatched < W; taken++) {
        uint32_t k = s->win[taken];
        req *r = &s->pool[k - 1];
        int is_bub = r->bub >= 0;
        if (!is_bub && s->cfg.rob && r->id >= rob_head_reg + s->cfg.rob) {
            EV("stall:rob");
            if (win)
                st->stall_rob++;
            break;
        }
        if (!is_bub && r->v.done) {
            EV("dit:%llu", (unsigned long long)r->id);
            st->dit_answers++;
            dit_done[ndit++] = k;
        } else {
            unsigned e = is_bub ? 0 : r->v.stage;
            if (s->cur[e] == 0) {
                s->cur[e] = (int32_t)k;
                EV("in%u:%s", e, tok(s, k));
            } else if (s->q[e].n < Q) {
                fifo *f = &s->q[e];
                uint32_t pos = f->head + f->n;
                if (pos >= Q)
                    pos -= Q;
                s->qbuf[(size_t)e * Q + pos] = k;
                f->n++;
                EV("push%u:%s", e, tok(s, k));
            } else {
                EV("stall:q%u", e);
                stalled_q = 1;
                if (!ooo || is_bub)
                    break;
                s->win[kept++] = k; /* waits in the window */
                continue;
            }
        }
        dispatched++;
        if (!is_bub && s->cfg.rob && r->id + 1 > s->rob_alloc)
            s->rob_alloc = r->id + 1;
    }
    if (stalled_q && win)
        st->stall_queue++;
    memmove(s->win + kept, s->win + taken, (s->win_n - taken) * sizeof *s->win);
    s->win_n -= taken - kept;

    /* 4. Window refill: bubbles that are ready, then arrived requests, read
     * the direct index table (a bubble writes it); at most W per cycle. */
    unsigned cap = ooo ? s->cfg.lookahead : W;
    for (unsigned j = 0; j < W && s->win_n < cap; j++) {
        int got = refill_one(s, io, err);
        if (got == -1)
            return LPM_EINPUT;
        if (got < 0)
            return LPM_EFAIL;
        if (got == 0)
            break;
    }

    /* 5. Stage reads and writes; what does not finish moves on. */
    unsigned guard = 64 * n + 64;
    for (unsigned i = 0; i < n; i++) {
        int32_t x = s->cur[i];
        read[i] = 0;
        s->out[i] = 0;
        if (x == 0)
            continue;
        if (win)
            st->busy[i]++;
        req *r = &s->pool[x - 1];
        if (r->bub >= 0) {
            lpm_sim_bubble *b = &s->bub[r->bub];
            if (i == 0)
                st->bubble_wait += s->cycle - b->ready;
            for (unsigned j = 0; j < b->nw; j++)
                if (b->w[j].stage == i) {
                    shadow_write_check(s, b, i, b->w[j].addr);
                    s->w.write(s->w.ctx, i, b->w[j].addr, b->w[j].word);
                    read[i] = 1;
                }
            if (i + 1 < n) {
                s->out[i] = x;
            } else {
                st->bubbles++;
                s->bub_live--;
                if (s->bhook)
                    s->bhook(s->bhook_ctx, b, 1);
                pool_put(s, (uint32_t)x);
            }
            continue;
        }
        if (!r->v.done && r->v.stage == i) {
            s->w.visit(s->w.ctx, &r->v);
            read[i] = 1;
            if (!r->v.done && r->v.stage >= n)
                return lpm_err_set(err, LPM_EFAIL, "request %llu: the walk names stage %u of %u",
                                   (unsigned long long)r->id, r->v.stage, n);
        }
        if (++r->hops > guard)
            return lpm_err_set(err, LPM_EFAIL, "request %llu: still walking after %u stages (a loop in the image?)",
                               (unsigned long long)r->id, guard);
        if (s->w.ring ? r->v.done : i == n - 1) {
            if (!r->v.done)
                return lpm_err_set(err, LPM_EFAIL, "request %llu: walk not finished at the last stage of a linear pipeline",
                                   (unsigned long long)r->id);
            do_exit(s, (uint32_t)x);
        } else {
            s->out[i] = x;
        }
    }
    for (unsigned j = 0; j < ndit; j++)
        do_exit(s, dit_done[j]);

    /* 6. Exits go to the reorder buffer or straight out. */
    if (win)
        st->win_exits += s->nexits;
    for (unsigned j = 0; j < s->nexits; j++) {
        lpm_sim_result *x = &s->exits[j];
        if (s->cfg.rob) {
            uint64_t slot = x->id % s->cfg.rob;
            s->rob[slot] = *x;
            s->rob_valid[slot] = 1;
        } else if ((rc = emit(s, x, io->sink, io->sink_ctx, err))) {
            return rc;
        }
    }

    /* 7. End-of-cycle occupancies. */
    if (win) {
        unsigned hb = Q + 1 < LPM_SIM_QHIST_MAX ? Q + 1 : LPM_SIM_QHIST_MAX;
        for (unsigned i = 0; i < n; i++) {
            unsigned o = s->q[i].n;
            st->qsum[i] += o;
            if (o > st->qmax[i])
                st->qmax[i] = o;
            st->qhist[(size_t)i * hb + (o < hb ? o : hb - 1)]++;
        }
        uint64_t occ = s->rob_alloc - s->rob_head;
        st->rob_sum += occ;
        if (occ > st->rob_max)
            st->rob_max = occ;
    }
    if (s->cfg.cycle_log)
        log_cycle(s, read);
    if (!s->closed && s->src_done && s->win_n == 0) {
        s->closed = 1;
        s->st.win_end = s->cycle + 1;
    }
    return 0;
}

/* Items in the pipeline (lookups or bubbles) or results not yet out. */
static int items_left(const lpm_sim *s)
{
    if (s->win_n || s->rob_head < s->rob_alloc)
        return 1;
    for (unsigned i = 0; i < s->n; i++)
        if (s->out[i] || s->q[i].n)
            return 1;
    return 0;
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
    if (s->cfg.cycle_log)
        fprintf(s->cfg.cycle_log, "# lpmpipe sim cycle log v1: stages=%u %s queue=%u width=%u rob=%u lookahead=%u\n", s->n,
                s->w.ring ? "ring" : "linear", s->cfg.queue, s->cfg.width, s->cfg.rob, s->cfg.lookahead);
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
        int rc = step(s, &io, err);
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
    st->util = (double)b / ((double)st->win_cycles * s->n);
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
