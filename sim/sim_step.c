/* One clock cycle of the simulator, the steps of docs/microarchitecture.md
 * section 2 in that order, and the cycle log line it writes. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "../core/nhtab.h"
#include "sim_int.h"

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

static void log_cycle(lpm_sim *s)
{
    FILE *fp = s->cfg.cycle_log;
    fprintf(fp, "%llu S", (unsigned long long)s->cycle);
    for (unsigned i = 0; i < s->lanes; i++) {
        int32_t x = s->cur[i];
        fputc(i % s->P ? '/' : ' ', fp);
        if (x == 0)
            fputc('-', fp);
        else
            fprintf(fp, "%s%s", tok(s, (uint32_t)x), s->rd[i] ? "" : "~");
    }
    if (s->cres_cap) {
        fprintf(fp, " R %u", s->cres_n); /* no queues: the results between exit and output */
    } else {
        fputs(" Q", fp);
        for (unsigned i = 0; i < s->n; i++)
            fprintf(fp, " %u", s->q[i].n);
    }
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
    s->live++;
    return k;
}

static void pool_put(lpm_sim *s, uint32_t k)
{
    s->pool[k - 1].next_free = s->free_head;
    s->free_head = k;
    s->live--;
}

/* A result lane can take an exit in this cycle when it held at most one
 * result at the start of the cycle (an output in this cycle frees its
 * entry for the next one). */
static int lane_room(const lpm_sim *s, unsigned lane)
{
    const rlane *l = &s->rl[lane];
    return l->n + (l->last_out == s->cycle + 1) < 2;
}

/* A lookup is out of the pipeline through result lane `lane`: it joins
 * this cycle's exits. */
static void do_exit(lpm_sim *s, uint32_t k, unsigned lane)
{
    req *r = &s->pool[k - 1];
    s->exit_lane[s->nexits] = lane;
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
    x->tag_exit = s->cres_cap || !s->xhook ? r->tag_exit : s->xhook(s->xhook_ctx, r->id, &r->v.key);
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

/* Step 1: in a cycle where the result port is ready, the reorder buffer
 * releases up to W results from its head, or (D >= 2, no reorder buffer)
 * every result lane gives its oldest result. */
static int output_step(lpm_sim *s, const run_io *io, lpm_err *err)
{
    s->rob_head_reg = s->rob_head;
    if (!s->cfg.rob && !s->rl_live)
        return 0;
    if (!lpm_sim_ready(s->cycle, s->ready_thr))
        return 0;
    int rc;
    if (s->cfg.rob) {
        for (unsigned k = 0; k < s->cfg.width && s->rob_head < s->rob_alloc; k++) {
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
        return 0;
    }
    for (unsigned i = 0; i < s->nrl; i++) {
        rlane *l = &s->rl[i];
        if (!l->n)
            continue;
        lpm_sim_result *x = &l->r[l->head];
        l->head ^= 1;
        l->n--;
        l->last_out = s->cycle + 1;
        s->rl_live--;
        x->out_cycle = s->cycle;
        EV("out:%llu", (unsigned long long)x->id);
        if ((rc = emit(s, x, io->sink, io->sink_ctx, err)))
            return rc;
    }
    return 0;
}

/* Step 1 under the credit rules: the output shows the results fetched two
 * cycles before or earlier, the oldest first; a fetch is decided on the
 * start of the cycle (the FIFO's oldest was written before this cycle, the
 * output holds at most two, counting the one fetched in the cycle before)
 * and shows its result from the cycle after next. */
static int credit_output_step(lpm_sim *s, const run_io *io, lpm_err *err)
{
    unsigned cap = s->cres_cap;
    s->cres_vis += s->cres_f2;
    unsigned S = s->cres_vis + s->cres_f1;
    s->cres_f2 = s->cres_f1;
    s->cres_f1 = 0;
    int fetch = S <= 2 && s->cres_n > S && s->cres_at[(s->cres_head + S) % cap] <= s->cycle;
    int rc = 0;
    if (s->cres_vis && lpm_sim_ready(s->cycle, s->ready_thr)) {
        lpm_sim_result *x = &s->cres[s->cres_head];
        s->cres_head = s->cres_head + 1 == cap ? 0 : s->cres_head + 1;
        s->cres_n--;
        s->cres_vis--;
        s->pop_now = 1;
        x->out_cycle = s->cycle;
        EV("out:%llu", (unsigned long long)x->id);
        rc = emit(s, x, io->sink, io->sink_ctx, err);
    }
    if (fetch) {
        s->cres_f1 = 1;
        EV("fetch:%llu", (unsigned long long)s->cres[(s->cres_head + s->cres_vis + s->cres_f2) % cap].id);
    }
    return rc;
}

#define BIT_SET(m, i) ((m)[(i) >> 6] |= 1ULL << ((i)&63))
#define BIT_CLR(m, i) ((m)[(i) >> 6] &= ~(1ULL << ((i)&63)))
/* for each set bit i of the 4-word masks, lowest first: FOR_BITS(i, w, expr) */
#define FOR_BITS(i, w, expr)                                                  \
    for (unsigned w##_j = 0; w##_j < 4; w##_j++)                              \
        for (uint64_t w = (expr); w; w &= w - 1)                              \
            for (unsigned i = w##_j * 64 + (unsigned)__builtin_ctzll(w), w##_once = 1; w##_once; w##_once = 0)

/* An item whose DIT read (or write) is now: into the dispatch window, or
 * under the credit rules to stage 0, D + 1 cycles on (credit_enter). */
static void admit(lpm_sim *s, uint32_t k)
{
    if (!s->cres_cap)
        s->win[s->win_n++] = k;
    else
        s->cent[s->cycle % (s->D + 1)] = k;
}

/* The credit rules: what was admitted D + 1 cycles ago is offered to stage
 * 0 now (nothing else offers to it). */
static void credit_enter(lpm_sim *s)
{
    uint32_t *e = &s->cent[s->cycle % (s->D + 1)];
    if (!*e)
        return;
    unsigned ri = (unsigned)(s->cycle % s->D);
    s->arr[(size_t)ri * s->lanes] = (int32_t)*e;
    BIT_SET(s->amask + 4 * ri, 0);
    *e = 0;
}

static void q_pop(lpm_sim *s, unsigned st)
{
    fifo *f = &s->q[st];
    f->head = f->head + 1 == s->cfg.queue ? 0 : f->head + 1;
    if (!--f->n)
        BIT_CLR(s->qmask, st);
    s->qpop[st]++;
}

/* Step 2: each lane takes the item offered to it (passing from the stage
 * before), else the idle lanes take the queue's head entries in lane
 * order; a bubble at the head needs every lane idle and takes them all. */
static void select_step(lpm_sim *s)
{
    const unsigned P = s->P, Q = s->cfg.queue;
    unsigned ri = (unsigned)(s->cycle % s->D);
    int32_t *row = s->arr + (size_t)ri * s->lanes;
    uint64_t *am = s->amask + 4 * ri, was[4];
    /* only stages offered an item, with a queue entry, or busy last cycle
     * (to clear them, and their pop count); the others stay empty */
    for (unsigned j = 0; j < 4; j++) {
        was[j] = am[j] | s->qmask[j] | s->cmask[j];
        am[j] = s->cmask[j] = 0;
    }
    FOR_BITS(st, m, was[m_j]) {
        int32_t *c = s->cur + st * P, *a = row + st * P;
        unsigned idle = 0;
        for (unsigned p = 0; p < P; p++) {
            c[p] = a[p];
            a[p] = 0;
            idle += !c[p];
        }
        s->qpop[st] = 0;
        fifo *f = &s->q[st];
        /* D >= 2: an entry pushed in the cycle before is still on its way
         * from the window (it lands in the queue at the end of this cycle) */
        unsigned avail = f->n - (s->qpush_at[st] == s->cycle ? s->qpush_n[st] : 0);
        for (unsigned p = 0; p < P && idle && avail; p++) {
            if (c[p])
                continue;
            uint32_t k = s->qbuf[(size_t)st * Q + f->head];
            if (s->pool[k - 1].bub >= 0) {
                if (idle == P) {
                    for (unsigned j = 0; j < P; j++)
                        c[j] = (int32_t)k;
                    idle = 0;
                    avail--;
                    q_pop(s, st);
                    EV("pop%u:%s", st, tok(s, k));
                }
                break;
            }
            c[p] = (int32_t)k;
            idle--;
            avail--;
            q_pop(s, st);
            EV("pop%u:%s", st, tok(s, k));
        }
        if (idle < P)
            BIT_SET(s->cmask, st);
    }
}

/* D = 1 direct entry: a lookup takes the first idle lane of its entry
 * stage, a bubble needs them all; only when the stage's queue is empty. */
static int enter_idle(lpm_sim *s, unsigned e, uint32_t k, int is_bub)
{
    int32_t *c = s->cur + e * s->P;
    if (s->q[e].n)
        return 0;
    for (unsigned p = 0; p < s->P; p++) {
        if (c[p] && is_bub)
            return 0;
        if (!c[p] && !is_bub) {
            c[p] = (int32_t)k;
            BIT_SET(s->cmask, e);
            return 1;
        }
    }
    if (!is_bub)
        return 0;
    for (unsigned p = 0; p < s->P; p++)
        c[p] = (int32_t)k;
    BIT_SET(s->cmask, e);
    return 1;
}

/* Step 3: the window in input order, at most W items: DIT answers leave,
 * the others enter their stage directly (D = 1 only) or join its queue. In
 * order (lookahead 0) the first item that can do neither stalls the rest;
 * with lookahead it waits and the scan goes on to items of other entry
 * stages (never past a waiting bubble). D >= 2: only items whose DIT read
 * is done, the queue's room counts from its start-of-cycle occupancy, and
 * a push reaches the queue a cycle later (popped in t+2 at the earliest). */
static void dispatch_step(lpm_sim *s, int win)
{
    const unsigned W = s->cfg.width, Q = s->cfg.queue, D = s->D;
    lpm_sim_stats *st = &s->st;
    unsigned taken = 0, kept = 0, dispatched = 0;
    int stalled_q = 0;
    const int ooo = s->cfg.lookahead > 0;
    unsigned limit = s->win_n < s->scan ? s->win_n : s->scan;
    s->ndit = 0;
    s->win_n0 = s->win_n;
    for (; taken < limit && dispatched < W; taken++) {
        uint32_t k = s->win[taken];
        req *r = &s->pool[k - 1];
        int is_bub = r->bub >= 0;
        if (r->dit_cycle + D > s->cycle)
            break; /* its DIT read is not done yet, nor those of the items behind it */
        if (!is_bub && s->cfg.rob && r->id >= s->rob_head_reg + s->cfg.rob) {
            EV("stall:rob");
            if (win)
                st->stall_rob++;
            break;
        }
        if (!is_bub && r->v.done && !s->cfg.dit_queue) {
            if (s->nrl && !lane_room(s, s->lanes + dispatched)) {
                EV("stall:res");
                if (win)
                    st->stall_res++;
                break;
            }
            EV("dit:%llu", (unsigned long long)r->id);
            s->dit_lane[s->ndit] = s->lanes + dispatched;
            s->dit_done[s->ndit++] = k;
        } else {
            /* a DIT answer under dit_queue: queue 0, done; it passes stage 0
             * unread and leaves by its lane (or rides on, as a lookup does) */
            unsigned e = is_bub || !s->w.ring || r->v.done ? 0 : r->v.stage;
            fifo *f = &s->q[e];
            if (D == 1 && enter_idle(s, e, k, is_bub)) {
                EV("in%u:%s", e, tok(s, k));
            } else if (f->n + (D > 1 ? s->qpop[e] : 0) < Q) {
                uint32_t pos = f->head + f->n;
                if (pos >= Q)
                    pos -= Q;
                s->qbuf[(size_t)e * Q + pos] = k;
                f->n++;
                BIT_SET(s->qmask, e);
                if (D > 1) {
                    if (s->qpush_at[e] != s->cycle + 1) {
                        s->qpush_at[e] = s->cycle + 1;
                        s->qpush_n[e] = 0;
                    }
                    s->qpush_n[e]++;
                }
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
        if (!is_bub && r->v.done) /* answered by the DIT: leaving by its lane or through queue 0 */
            st->dit_answers++;
        if (!is_bub && s->cfg.rob && r->id + 1 > s->rob_alloc)
            s->rob_alloc = r->id + 1;
    }
    if (stalled_q && win)
        st->stall_queue++;
    memmove(s->win + kept, s->win + taken, (s->win_n - taken) * sizeof *s->win);
    s->win_n -= taken - kept;
}

/* The pending bubble may be taken now: its ready cycle has come and the
 * copy rules let it in (sim_copy.c counts a wait once per cycle). */
static int bubble_ready(lpm_sim *s)
{
    return s->have_pending && s->pending.ready <= s->cycle && lpm_sim_bubble_may_enter(s, &s->pending);
}

/* The pending bubble enters the window and writes the DIT now. */
static void bubble_enter(lpm_sim *s)
{
    uint32_t k = pool_get(s);
    req *r = &s->pool[k - 1];
    r->bub = (int32_t)(k - 1);
    lpm_sim_bubble *b = &s->bub[k - 1];
    *b = s->pending;
    b->seq = s->bubble_seq++;
    s->have_pending = 0;
    r->dit_cycle = s->cycle;
    r->hops = 0;
    for (unsigned j = 0; j < b->nw; j++)
        if (b->w[j].stage == LPM_SIM_DIT) {
            lpm_sim_shadow_write(s, b, LPM_SIM_DIT, b->w[j].addr);
            s->w.write(s->w.ctx, LPM_SIM_DIT, b->w[j].addr, b->w[j].word);
        }
    lpm_sim_bubble_entered(s, b);
    if (s->bhook)
        s->bhook(s->bhook_ctx, b, 0);
    admit(s, k);
    EV("win:b%llu", (unsigned long long)b->seq);
}

/* Takes the next item into the dispatch window: a ready bubble first, then
 * an arrived request. Returns 1 (a request), 2 (a bubble), 0 when nothing
 * can come this cycle, -1 (source error) or -2 (internal). */
static int refill_one(lpm_sim *s, const run_io *io, int bubble_ok, lpm_err *err)
{
    if (!s->free_head) { /* cannot happen: the pool is sized for the worst case */
        lpm_err_set(err, LPM_EFAIL, "internal error: request pool exhausted");
        return -2;
    }
    if (bubble_ok && bubble_ready(s)) {
        bubble_enter(s);
        return 2;
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
    if (!r->v.done && r->v.stage >= s->n) {
        lpm_err_set(err, LPM_EFAIL, "request %llu: the direct index table names stage %u of %u",
                    (unsigned long long)s->next_id, r->v.stage, s->n);
        return -2;
    }
    r->id = s->next_id++;
    r->dit_cycle = s->cycle;
    r->hops = 0;
    s->walking[r->v.copy & 1]++;
    r->tag = s->dhook ? s->dhook(s->dhook_ctx, r->id, &key) : 0;
    /* in lockstep behind every bubble that entered before it, a lookup
     * under the credit rules is out of any later one's reach from now */
    r->tag_exit = s->cres_cap && s->xhook ? s->xhook(s->xhook_ctx, r->id, &key) : 0;
    admit(s, k);
    EV("win:%llu", (unsigned long long)r->id);
    return 1;
}

/* The bubble taken in the cycle before enters now, and takes the cycle. */
static int enter_taken(lpm_sim *s, lpm_err *err)
{
    s->bub_taken = 0;
    if (!s->free_head)
        return lpm_err_set(err, LPM_EFAIL, "internal error: request pool exhausted");
    bubble_enter(s);
    return 0;
}

/* Step 4: up to W items enter the window and read (a bubble: write) the
 * DIT, at most one bubble, bubbles first. D = 1: while the window has room
 * after this cycle's dispatches; D >= 2: room counts from the start of the
 * cycle, and a cycle that takes a bubble takes no request; D >= 3: a
 * bubble enters the cycle after it was taken. */
static int refill_step(lpm_sim *s, const run_io *io, lpm_err *err)
{
    const unsigned W = s->cfg.width;
    int bubble_ok = 1;
    if (s->D >= 3) {
        /* the late bubble: taken in a cycle of its own (it was ready, the
         * window had room), it enters in the next; neither takes a request */
        if (s->bub_taken)
            return enter_taken(s, err);
        if (s->win_n0 >= s->cap)
            return 0;
        if (bubble_ready(s)) {
            s->bub_taken = 1;
            return 0;
        }
        bubble_ok = 0;
    }
    for (unsigned j = 0; j < W; j++) {
        if (s->D == 1 ? s->win_n >= s->cap : s->win_n0 + j >= s->cap)
            break;
        int got = refill_one(s, io, bubble_ok, err);
        if (got == -1)
            return LPM_EINPUT;
        if (got < 0)
            return LPM_EFAIL;
        if (got == 0 || (got == 2 && s->D > 1))
            break;
        if (got == 2)
            bubble_ok = 0;
    }
    return 0;
}

/* Step 4 under the credit rules: a bubble taken in the cycle before
 * enters (writes the DIT) and takes the cycle; else a ready bubble may be
 * taken, and a request is accepted while at least three credits are free
 * as counted (two cycles late: so that none is ever short). */
static int credit_refill_step(lpm_sim *s, const run_io *io, lpm_err *err)
{
    if (s->bub_taken)
        return enter_taken(s, err);
    if (bubble_ready(s))
        s->bub_taken = 1;
    if (s->cred < 3)
        return 0;
    int got = refill_one(s, io, 0, err);
    if (got == -1)
        return LPM_EINPUT;
    if (got < 0)
        return LPM_EFAIL;
    s->acc_now = got == 1;
    return 0;
}

/* A bubble holds every lane of stage st: it writes there, then passes on
 * (to the same lanes D cycles later) or leaves after stage N-1. */
static void bubble_at(lpm_sim *s, unsigned st, int32_t x, int32_t *row, uint64_t *am, int win)
{
    const unsigned P = s->P;
    req *r = &s->pool[x - 1];
    lpm_sim_bubble *b = &s->bub[r->bub];
    uint8_t wrote = 0;
    if (st == 0)
        s->st.bubble_wait += s->cycle - b->ready;
    if (win)
        s->st.busy[st] += P;
    for (unsigned j = 0; j < b->nw; j++)
        if (b->w[j].stage == st) {
            lpm_sim_shadow_write(s, b, st, b->w[j].addr);
            s->w.write(s->w.ctx, st, b->w[j].addr, b->w[j].word);
            wrote = 1;
        }
    for (unsigned p = 0; p < P; p++) {
        s->rd[st * P + p] = wrote;
        if (st + 1 < s->n)
            row[(st + 1) * P + p] = x;
    }
    if (st + 1 < s->n)
        BIT_SET(am, st + 1);
    if (st + 1 == s->n) {
        s->st.bubbles++;
        lpm_sim_bubble_left(s);
        if (s->bhook)
            s->bhook(s->bhook_ctx, b, 1);
        pool_put(s, (uint32_t)x);
    }
}

/* Step 5: stage reads and writes; what does not finish moves on. A
 * finishing lookup exits now (D = 1) or tries to in cycle t+D-1. */
static int stage_step(lpm_sim *s, int win, lpm_err *err)
{
    const unsigned n = s->n, P = s->P, D = s->D;
    const unsigned guard = 64 * n + 64;
    unsigned ri = (unsigned)(s->cycle % D);
    int32_t *row = s->arr + (size_t)ri * s->lanes;
    uint64_t *am = s->amask + 4 * ri;
    unsigned fr = (unsigned)((s->cycle + D - 1) % D);
    uint32_t *fin = s->fin + (size_t)fr * s->lanes, *fin_lane = s->fin_lane + (size_t)fr * s->lanes;
    FOR_BITS(st, m, s->cmask[m_j]) {
        int32_t *c = s->cur + st * P;
        if (c[0] && s->pool[c[0] - 1].bub >= 0) {
            bubble_at(s, st, c[0], row, am, win);
            continue;
        }
        unsigned nxt = st + 1 == n ? 0 : st + 1;
        for (unsigned p = 0; p < P; p++) {
            int32_t x = c[p];
            unsigned lane = st * P + p;
            s->rd[lane] = 0;
            if (x == 0)
                continue;
            if (win)
                s->st.busy[st]++;
            req *r = &s->pool[x - 1];
            if (!r->v.done) {
                if (++r->hops > guard)
                    return lpm_err_set(err, LPM_EFAIL, "request %llu: still walking after %u stages (a loop in the image?)",
                                       (unsigned long long)r->id, guard);
                if (r->v.stage == st) {
                    s->w.visit(s->w.ctx, &r->v);
                    s->rd[lane] = 1;
                    if (!r->v.done && r->v.stage >= n)
                        return lpm_err_set(err, LPM_EFAIL, "request %llu: the walk names stage %u of %u",
                                           (unsigned long long)r->id, r->v.stage, n);
                }
            }
            if (s->w.ring ? !r->v.done : st + 1 < n) {
                row[nxt * P + p] = x;
                BIT_SET(am, nxt);
                continue;
            }
            if (!r->v.done)
                return lpm_err_set(err, LPM_EFAIL, "request %llu: walk not finished at the last stage of a linear pipeline",
                                   (unsigned long long)r->id);
            if (D == 1) {
                do_exit(s, (uint32_t)x, lane);
            } else {
                fin[s->fin_n[fr]] = (uint32_t)x;
                fin_lane[s->fin_n[fr]++] = lane;
            }
        }
    }
    return 0;
}

/* Step 6: the lookups that exit in this cycle: stage exits by stage and
 * lane, then DIT answers in dispatch order. D >= 2: a finishing lookup
 * whose result lane is full does not exit; it passes on (ring and linear
 * alike to stage (s+1) mod N) and tries again where it finishes next. */
static int exit_step(lpm_sim *s, const run_io *io, int win, lpm_err *err)
{
    if (s->D > 1) {
        unsigned fr = (unsigned)(s->cycle % s->D);
        uint32_t *fin = s->fin + (size_t)fr * s->lanes, *fin_lane = s->fin_lane + (size_t)fr * s->lanes;
        int32_t *next = s->arr + (size_t)((s->cycle + 1) % s->D) * s->lanes;
        for (unsigned j = 0; j < s->fin_n[fr]; j++) {
            unsigned lane = fin_lane[j];
            if (!s->nrl || lane_room(s, lane)) {
                do_exit(s, fin[j], lane);
            } else {
                unsigned st = lane / s->P, p = lane % s->P, nx = st + 1 == s->n ? 0 : st + 1;
                next[nx * s->P + p] = (int32_t)fin[j];
                BIT_SET(s->amask + 4 * ((s->cycle + 1) % s->D), nx);
            }
        }
        s->fin_n[fr] = 0;
    }
    for (unsigned j = 0; j < s->ndit; j++)
        do_exit(s, s->dit_done[j], s->dit_lane[j]);
    if (win)
        s->st.win_exits += s->nexits;
    int rc;
    for (unsigned j = 0; j < s->nexits; j++) {
        lpm_sim_result *x = &s->exits[j];
        if (s->cres_cap) {
            /* into the result FIFO: written at x + 2, fetched from x + 3 on */
            unsigned pos = (s->cres_head + s->cres_n++) % s->cres_cap;
            s->cres[pos] = *x;
            s->cres_at[pos] = s->cycle + 3;
        } else if (s->cfg.rob) {
            uint64_t slot = x->id % s->cfg.rob;
            s->rob[slot] = *x;
            s->rob_valid[slot] = 1;
        } else if (s->nrl) {
            rlane *l = &s->rl[s->exit_lane[j]];
            l->r[(l->head + l->n) & 1] = *x;
            l->n++;
            s->rl_live++;
        } else if ((rc = emit(s, x, io->sink, io->sink_ctx, err))) {
            return rc;
        }
    }
    return 0;
}

/* Step 7: end-of-cycle occupancies and the log line. */
static void end_step(lpm_sim *s, int win)
{
    lpm_sim_stats *st = &s->st;
    if (win) {
        unsigned Q = s->cfg.queue, hb = Q + 1 < LPM_SIM_QHIST_MAX ? Q + 1 : LPM_SIM_QHIST_MAX;
        for (unsigned i = 0; i < s->n; i++) {
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
    if (s->cres_cap) {
        /* the credits count this cycle what was accepted and given out in the one before */
        s->cred += (int64_t)s->pop_prev - (int64_t)s->acc_prev;
        s->pop_prev = s->pop_now;
        s->acc_prev = s->acc_now;
        s->pop_now = s->acc_now = 0;
    }
    if (s->cfg.cycle_log)
        log_cycle(s);
    if (!s->closed && s->src_done && s->win_n == 0) {
        s->closed = 1;
        s->st.win_end = s->cycle + 1;
    }
}

int lpm_sim_step(lpm_sim *s, const run_io *io, lpm_err *err)
{
    const int win = in_window(s);
    int rc;
    s->nexits = 0;
    if (s->cres_cap) {
        /* the linear credit rules: no window, no dispatcher, no queues */
        if ((rc = credit_output_step(s, io, err)))
            return rc;
        credit_enter(s);
        select_step(s);
        if ((rc = credit_refill_step(s, io, err)))
            return rc;
    } else {
        if ((rc = output_step(s, io, err)))
            return rc;
        select_step(s);
        dispatch_step(s, win);
        if ((rc = refill_step(s, io, err)))
            return rc;
    }
    if ((rc = stage_step(s, win, err)))
        return rc;
    if ((rc = exit_step(s, io, win, err)))
        return rc;
    end_step(s, win);
    return 0;
}