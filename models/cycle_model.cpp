// The cycle-accurate model's modules: each process implements one step of
// docs/microarchitecture.md section 2 for its part (step numbers below).
#include "cycle_model.h"

#include <algorithm>
#include <cinttypes>

namespace lpm_model {

void Ctx::bury()
{
    for (Item *x : dead)
        delete x;
    dead.clear();
}

// ---------------------------------------------------------------- stages

Stage::Stage(sc_module_name nm, Ctx *ctx, unsigned idx, Queue *queue)
    : sc_module(nm), c(ctx), s(idx), q(queue),
      hop(ctx->D, std::vector<Item *>(ctx->P, nullptr)),
      fin(ctx->D, std::vector<Item *>(ctx->P, nullptr)),
      lane(ctx->P, nullptr), rd(ctx->P, 0)
{
    SC_METHOD(select);
    sensitive << c->phase[2];
    dont_initialize();
    SC_METHOD(operate);
    sensitive << c->phase[5];
    dont_initialize();
}

bool Stage::all_idle() const
{
    for (Item *x : lane)
        if (x)
            return false;
    return true;
}

// Step 2: a passing item takes its lane; the idle lanes take the queue's
// head entries in lane order; a bubble at the head needs every lane idle.
void Stage::select()
{
    const unsigned P = c->P;
    std::vector<Item *> &row = hop[c->cycle % c->D];
    unsigned idle = 0;
    for (unsigned p = 0; p < P; p++) {
        lane[p] = row[p];
        row[p] = nullptr;
        idle += !lane[p];
    }
    ev.clear();
    q->pops = 0;
    size_t avail = q->f.size() - (q->push_at == c->cycle ? q->push_n : 0);
    for (unsigned p = 0; p < P && idle && avail; p++) {
        if (lane[p])
            continue;
        Item *x = q->f.front();
        if (x->bubble) {
            if (idle == P) {
                for (unsigned j = 0; j < P; j++)
                    lane[j] = x;
                avail--;
                q->f.pop_front();
                q->pops++;
                ev += " pop" + std::to_string(s) + ":" + x->tok();
            }
            break;
        }
        lane[p] = x;
        idle--;
        avail--;
        q->f.pop_front();
        q->pops++;
        ev += " pop" + std::to_string(s) + ":" + x->tok();
    }
}

// Step 5: reads and writes; what does not finish goes to the hop register
// of the next stage, for cycle t + D; what finishes tries to exit in t + D - 1.
void Stage::operate()
{
    const unsigned P = c->P, D = c->D, N = c->N;
    const uint64_t t = c->cycle;
    const unsigned row = (unsigned)(t % D), fr = (unsigned)((t + D - 1) % D);
    if (lane[0] && lane[0]->bubble) {
        Item *b = lane[0];
        uint8_t wrote = 0;
        for (const lpm_sim_write &w : b->writes)
            if (w.stage == s) {
                lpm_image_write(c->img, s, w.addr, w.word);
                wrote = 1;
            }
        for (unsigned p = 0; p < P; p++) {
            rd[p] = wrote;
            if (s + 1 < N)
                next->hop[row][p] = b;
        }
        if (s + 1 == N) {
            c->bubbles++;
            c->blive--;
            c->retire(b);
        }
        return;
    }
    const uint32_t guard = 64 * N + 64;
    for (unsigned p = 0; p < P; p++) {
        Item *x = lane[p];
        rd[p] = 0;
        if (!x)
            continue;
        if (!x->v.done) {
            if (++x->hops > guard) {
                c->fail(lpm_err_set(&c->err, LPM_EFAIL, "request %" PRIu64 ": still walking after %u stages (a loop in the image?)",
                                    x->id, guard));
                return;
            }
            if (x->v.stage == s) {
                lpm_image_visit(c->img, &x->v);
                rd[p] = 1;
                if (!x->v.done && x->v.stage >= N) {
                    c->fail(lpm_err_set(&c->err, LPM_EFAIL, "request %" PRIu64 ": the walk names stage %u of %u", x->id,
                                        x->v.stage, N));
                    return;
                }
            }
        }
        if (c->ring ? !x->v.done : s + 1 < N) {
            next->hop[row][p] = x;
            continue;
        }
        if (!x->v.done) {
            c->fail(lpm_err_set(&c->err, LPM_EFAIL, "request %" PRIu64 ": walk not finished at the last stage of a linear pipeline",
                                x->id));
            return;
        }
        fin[fr][p] = x;
    }
}

// ---------------------------------------------------- DIT and window

DitWindow::DitWindow(sc_module_name nm, Ctx *ctx) : sc_module(nm), c(ctx), pending(new lpm_sim_bubble)
{
    unsigned W = c->W;
    cap = c->D > 1 ? W + W * c->D : W; // D >= 2: W*D entries hold the DIT reads under way
    bsrc_done = c->io.bsrc == nullptr;
    cred = c->F;
    if (c->F)
        ent.assign(c->D + 1, nullptr);
    SC_METHOD(refill);
    sensitive << c->phase[4];
    dont_initialize();
    if (c->F) {
        SC_METHOD(enter0);
        sensitive << c->phase[1];
        dont_initialize();
    }
}

DitWindow::~DitWindow()
{
    delete pending;
    for (Item *x : win)
        delete x;
    for (Item *x : ent)
        delete x;
}

// Into the dispatch window, or (the credit rules) on the way to stage 0.
void DitWindow::admit(Item *x)
{
    if (c->F)
        ent[c->cycle % (c->D + 1)] = x;
    else
        win.push_back(x);
}

// The credit rules: what was admitted D + 1 cycles ago is offered to stage
// 0 now (before step 2; nothing else offers to it).
void DitWindow::enter0()
{
    Item *&x = ent[c->cycle % (c->D + 1)];
    if (x) {
        stage0->hop[c->cycle % c->D][0] = x;
        x = nullptr;
    }
}

// Step 4 under the credit rules (docs/microarchitecture.md 4.1): a bubble
// taken in the cycle before enters and takes the cycle; else a ready
// bubble may be taken, and a request is accepted on three free credits as
// counted. Then the count for the next cycle: the acceptance and the
// result given in the cycle before.
void DitWindow::refill_credit()
{
    if (bub_taken) {
        bub_taken = false;
        enter_bubble();
    } else {
        if (bubble_ready())
            bub_taken = true;
        if (cred >= 3 && take_one(false) == 1)
            acc_now = 1;
    }
    cred += (int64_t)pop_prev - (int64_t)acc_prev;
    pop_prev = c->pop_now;
    acc_prev = acc_now;
    acc_now = 0;
    c->pop_now = 0;
}

// The pending bubble may be taken now: ready, and the copy rules let it in.
bool DitWindow::bubble_ready()
{
    return have_pending && pending->ready <= c->cycle && c->bubble_may_enter(pending);
}

// The pending bubble enters the window and writes the DIT now.
void DitWindow::enter_bubble()
{
    const uint64_t t = c->cycle;
    Item *b = new Item;
    b->bubble = true;
    b->id = bubble_seq++;
    b->dit_cycle = t;
    b->ready = pending->ready;
    b->writes.assign(pending->w, pending->w + pending->nw);
    have_pending = false;
    for (const lpm_sim_write &w : b->writes)
        if (w.stage == LPM_SIM_DIT)
            lpm_image_write(c->img, LPM_SIM_DIT, w.addr, w.word);
    if (pending->flags & LPM_SIM_B_SWAP)
        lpm_image_swap(c->img, pending->copy);
    c->blive++;
    admit(b);
    c->live++;
    ev += " win:" + b->tok();
}

// One item into the window: a ready bubble first (it writes the DIT now),
// else the next request (it reads the DIT now). 2 bubble, 1 request, 0
// nothing this cycle, -1 a failure (c->rc set).
int DitWindow::take_one(bool bubble_ok)
{
    const uint64_t t = c->cycle;
    if (bubble_ok && bubble_ready()) {
        enter_bubble();
        return 2;
    }
    if (src_done)
        return 0;
    if (c->load > 0 && (double)t < (double)next_id / c->load)
        return 0; // --load L: request i arrives at the first cycle t >= i / L
    lpm_addr key;
    int got = c->io.src(c->io.src_ctx, &key, &c->err);
    if (got < 0) {
        c->fail(LPM_EINPUT);
        return -1;
    }
    if (got == LPM_MODEL_NOT_YET)
        return 0;
    if (got == 0) {
        src_done = true;
        return 0;
    }
    Item *x = new Item;
    x->v.key = key;
    x->v.best_nh = LPM_NH_NONE;
    lpm_image_dispatch(c->img, &key, &x->v);
    if (!x->v.done && x->v.stage >= c->N) {
        c->fail(lpm_err_set(&c->err, LPM_EFAIL, "request %" PRIu64 ": the direct index table names stage %u of %u", next_id,
                            x->v.stage, c->N));
        delete x;
        return -1;
    }
    x->id = next_id++;
    x->dit_cycle = t;
    c->walking[x->v.copy & 1]++;
    admit(x);
    c->live++;
    ev += " win:" + x->tok();
    return 1;
}

// Step 4: up to W items (the DIT's read ports), at most one bubble, which
// at D >= 2 takes the cycle alone (at D >= 3 the cycle it was taken in
// too); room counts from the start of the cycle at D >= 2 (registered
// credits), after this cycle's dispatches at D = 1.
void DitWindow::refill()
{
    ev.clear();
    if (!have_pending && !bsrc_done) {
        int got = c->io.bsrc(c->io.bsrc_ctx, pending, &c->err);
        if (got < 0) {
            c->fail(LPM_EINPUT);
            return;
        }
        if (got == 0)
            bsrc_done = true;
        else if (got == 1)
            have_pending = true;
    }
    if (c->F) {
        refill_credit();
        return;
    }
    bool bubble_ok = true;
    if (c->D >= 3) {
        // the late bubble: taken in a cycle of its own (ready, the window
        // had room), it enters in the next; neither takes a request
        if (bub_taken) {
            bub_taken = false;
            enter_bubble();
            return;
        }
        if (n0 >= cap)
            return;
        if (bubble_ready()) {
            bub_taken = true;
            return;
        }
        bubble_ok = false;
    }
    for (unsigned j = 0; j < c->W; j++) {
        if (c->D == 1 ? win.size() >= cap : n0 + j >= cap)
            break;
        int got = take_one(bubble_ok);
        if (got <= 0 || (got == 2 && c->D > 1))
            break;
        if (got == 2)
            bubble_ok = false;
    }
}

// ---------------------------------------------------------- dispatcher

Dispatcher::Dispatcher(sc_module_name nm, Ctx *ctx) : sc_module(nm), c(ctx)
{
    SC_METHOD(dispatch);
    sensitive << c->phase[3];
    dont_initialize();
}

// D = 1 direct entry: the first idle lane of the entry stage (a bubble:
// all of them), only when the stage's queue is empty.
bool Dispatcher::enter_idle(unsigned e, Item *x)
{
    Stage *st = (*stages)[e];
    if (!(*queues)[e]->f.empty())
        return false;
    if (x->bubble) {
        if (!st->all_idle())
            return false;
        for (unsigned p = 0; p < c->P; p++)
            st->lane[p] = x;
        return true;
    }
    for (unsigned p = 0; p < c->P; p++)
        if (!st->lane[p]) {
            st->lane[p] = x;
            return true;
        }
    return false;
}

// Step 3: in input order, at most W items whose DIT read is done; the
// first that cannot go on stops the rest.
void Dispatcher::dispatch()
{
    const uint64_t t = c->cycle;
    const unsigned D = c->D, lanes = c->N * c->P;
    const unsigned dit_delay = D + (c->mutate == LPM_MODEL_MUT_DIT_LATE);
    const size_t qcap = c->Q + (c->mutate == LPM_MODEL_MUT_QUEUE_CAPACITY);
    ev.clear();
    dit_done.clear();
    dit_lane.clear();
    std::deque<Item *> &win = dw->win;
    dw->n0 = (unsigned)win.size();
    size_t taken = 0;
    unsigned dispatched = 0;
    for (; taken < win.size() && dispatched < c->W; taken++) {
        Item *x = win[taken];
        if (x->dit_cycle + dit_delay > t)
            break;
        if (!x->bubble && c->R && x->id >= res->rob_head_reg + c->R) {
            ev += " stall:rob";
            break;
        }
        if (!x->bubble && x->v.done && !c->ansq) {
            if (!res->lanes.empty() && !res->lane_room(lanes + dispatched)) {
                ev += " stall:res";
                break;
            }
            ev += " dit:" + x->tok();
            dit_done.push_back(x);
            dit_lane.push_back(lanes + dispatched);
        } else {
            unsigned e = x->bubble || !c->ring || x->v.done ? 0 : x->v.stage; // a DIT answer (ansq): queue 0
            Queue *q = (*queues)[e];
            if (D == 1 && enter_idle(e, x)) {
                ev += " in" + std::to_string(e) + ":" + x->tok();
            } else if (q->f.size() + (D > 1 ? q->pops : 0) < qcap) {
                q->f.push_back(x);
                if (D > 1) {
                    if (q->push_at != t + 1) {
                        q->push_at = t + 1;
                        q->push_n = 0;
                    }
                    q->push_n++;
                }
                ev += " push" + std::to_string(e) + ":" + x->tok();
            } else {
                ev += " stall:q" + std::to_string(e);
                break;
            }
        }
        dispatched++;
        if (!x->bubble && c->R && x->id + 1 > res->rob_alloc)
            res->rob_alloc = x->id + 1;
    }
    win.erase(win.begin(), win.begin() + (long)taken);
}

// --------------------------------------------------------- result side

ResultSide::ResultSide(sc_module_name nm, Ctx *ctx) : sc_module(nm), c(ctx)
{
    if (c->R) {
        rob.resize(c->R);
        rob_valid.assign(c->R, 0);
    } else if (c->D > 1 && !c->F) {
        lanes.resize((size_t)c->N * c->P + c->W);
    }
    SC_METHOD(output);
    sensitive << c->phase[1];
    dont_initialize();
    SC_METHOD(exits);
    sensitive << c->phase[6];
    dont_initialize();
}

// A result lane takes an exit when it held at most one result at the start
// of the cycle (an output in this cycle frees its entry for the next).
bool ResultSide::lane_room(unsigned l) const
{
    const Lane &x = lanes[l];
    return x.n + (x.last_out == c->cycle + 1) < 2;
}

int ResultSide::emit(lpm_sim_result &r)
{
    c->lookups++;
    int rc = c->io.sink ? c->io.sink(c->io.sink_ctx, &r, &c->err) : 0;
    if (rc)
        c->fail(rc);
    return rc;
}

// Step 1: only in a ready cycle; the reorder buffer releases up to W from
// its head, or every result lane gives its oldest result.
// Step 1 under the credit rules: the output shows the results fetched two
// cycles before or earlier; a fetch (the FIFO's oldest written before this
// cycle, the output holding at most two, counting the one fetched in the
// cycle before) shows its result from the cycle after next.
void ResultSide::output_credit()
{
    const uint64_t t = c->cycle;
    vis += f2;
    unsigned S = vis + f1;
    f2 = f1;
    f1 = 0;
    bool fetch = S <= 2 && cres.size() > S && cres_at[S] <= t;
    if (vis && lpm_sim_ready(t, c->ready_thr)) {
        lpm_sim_result r = cres.front();
        cres.pop_front();
        cres_at.pop_front();
        vis--;
        c->pop_now = 1;
        r.out_cycle = t;
        ev_out += " out:" + std::to_string(r.id);
        if (emit(r))
            return;
    }
    if (fetch) {
        f1 = 1;
        ev_out += " fetch:" + std::to_string(cres[vis + f2].id);
    }
}

void ResultSide::output()
{
    const uint64_t t = c->cycle;
    ev_out.clear();
    if (c->F) {
        output_credit();
        return;
    }
    rob_head_reg = rob_head;
    if (!c->R && !rl_live)
        return;
    if (!lpm_sim_ready(t, c->ready_thr))
        return;
    if (c->R) {
        for (unsigned k = 0; k < c->W && rob_head < rob_alloc; k++) {
            uint64_t slot = rob_head % c->R;
            if (!rob_valid[slot])
                break;
            lpm_sim_result r = rob[slot];
            r.out_cycle = t;
            rob_valid[slot] = 0;
            rob_head++;
            ev_out += " rel:" + std::to_string(r.id);
            if (emit(r))
                return;
        }
        return;
    }
    for (Lane &l : lanes) {
        if (!l.n)
            continue;
        lpm_sim_result r = l.r[l.head];
        l.head ^= 1;
        l.n--;
        l.last_out = t + 1;
        rl_live--;
        r.out_cycle = t;
        ev_out += " out:" + std::to_string(r.id);
        if (emit(r))
            return;
    }
}

void ResultSide::exit_one(Item *x, unsigned lane)
{
    lpm_sim_result r{};
    r.id = x->id;
    r.key = x->v.key;
    r.nh = x->v.best_nh;
    r.dit_cycle = x->dit_cycle;
    r.exit_cycle = r.out_cycle = c->cycle;
    r.visits = x->v.visits;
    r.loops = x->v.loops;
    ev_exit += " exit:" + std::to_string(r.id);
    c->walking[x->v.copy & 1]--;
    c->retire(x);
    if (c->F) {
        // into the result FIFO: written at t + 2, fetched from t + 3 on
        cres.push_back(r);
        cres_at.push_back(c->cycle + 3);
    } else if (c->R) {
        rob[r.id % c->R] = r;
        rob_valid[r.id % c->R] = 1;
    } else if (!lanes.empty()) {
        Lane &l = lanes[lane];
        l.r[(l.head + l.n) & 1] = r;
        l.n++;
        rl_live++;
    } else {
        emit(r);
    }
}

// Step 6: finishing lookups by stage and lane, then DIT answers in dispatch
// order. D >= 2: a lookup whose result lane is full rides on to the same
// lane of the next stage, arriving in t + 1, and finishes again there.
void ResultSide::exits()
{
    const uint64_t t = c->cycle;
    const unsigned P = c->P, D = c->D, row = (unsigned)(t % D);
    ev_exit.clear();
    for (Stage *st : *stages)
        for (unsigned p = 0; p < P; p++) {
            Item *x = st->fin[row][p];
            if (!x)
                continue;
            st->fin[row][p] = nullptr;
            unsigned lane = st->s * P + p;
            if (lanes.empty() || lane_room(lane))
                exit_one(x, lane);
            else
                st->next->hop[(t + 1) % D][p] = x;
        }
    for (size_t j = 0; j < disp->dit_done.size(); j++)
        exit_one(disp->dit_done[j], disp->dit_lane[j]);
}

// ----------------------------------------------------------- sequencer

Sequencer::Sequencer(sc_module_name nm, Ctx *ctx) : sc_module(nm), c(ctx)
{
    SC_THREAD(run);
    sensitive << clk.pos();
    dont_initialize();
}

// Step 7: the log line (docs/microarchitecture.md section 7).
void Sequencer::log_cycle()
{
    line = std::to_string(c->cycle) + " S";
    for (Stage *st : *stages)
        for (unsigned p = 0; p < c->P; p++) {
            line += p ? '/' : ' ';
            Item *x = st->lane[p];
            if (!x)
                line += '-';
            else
                line += x->tok() + (st->rd[p] ? "" : "~");
        }
    if (c->F) {
        line += " R " + std::to_string(res->cres.size());   // no queues: the results between exit and output
    } else {
        line += " Q";
        for (Queue *q : *queues)
            line += " " + std::to_string(q->f.size());
    }
    line += res->ev_out;
    for (Stage *st : *stages)
        line += st->ev;
    line += disp->ev + dw->ev + res->ev_exit + "\n";
    if (log)
        fputs(line.c_str(), log);
}

void Sequencer::run()
{
    for (;;) {
        for (int k = 1; k <= 6; k++) {
            c->phase[k].notify();
            wait(SC_ZERO_TIME);
        }
        if (log || c->after_log)
            log_cycle();
        if (c->after_log) {
            c->phase[7].notify();
            wait(SC_ZERO_TIME);
        }
        c->bury();
        c->cycle++;
        bool busy = c->live || res->rl_live || res->rob_head < res->rob_alloc || dw->bub_taken || !res->cres.empty();
        if (c->rc || (dw->src_done && !busy)) {
            c->finished = true;
            c->done_ev.notify(SC_ZERO_TIME);
            if (c->stop_at_end || c->rc)
                sc_stop();
            return;
        }
        wait(); // the next rising edge
    }
}

// ------------------------------------------------------------ pipeline

Pipeline::Pipeline(sc_module_name nm, lpm_image *img, const lpm_model_cfg *cfg, const lpm_model_io *io)
    : sc_module(nm), clk("clk", sc_time(1e6 / cfg->clock_mhz, SC_PS))
{
    c.N = lpm_image_stages(img);
    c.P = cfg->ports;
    c.D = cfg->hop;
    c.W = cfg->width;
    c.Q = cfg->queue;
    c.R = cfg->rob;
    c.F = cfg->result_fifo;
    c.ansq = cfg->dit_queue != 0;
    c.ring = lpm_image_is_ring(img);
    c.mutate = cfg->mutate;
    c.ready_thr = lpm_sim_ready_threshold(cfg->result_ready);
    c.load = cfg->load;
    c.img = img;
    c.io = *io;
    for (unsigned s = 0; s < c.N; s++) {
        queues.push_back(new Queue(sc_gen_unique_name("queue")));
        stages.push_back(new Stage(sc_gen_unique_name("stage"), &c, s, queues.back()));
    }
    for (unsigned s = 0; s < c.N; s++)
        stages[s]->next = stages[(s + 1) % c.N];
    dw = new DitWindow("dit_window", &c);
    disp = new Dispatcher("dispatcher", &c);
    res = new ResultSide("result_side", &c);
    seq = new Sequencer("sequencer", &c);
    dw->stage0 = stages[0];
    disp->dw = dw;
    disp->stages = &stages;
    disp->queues = &queues;
    disp->res = res;
    res->stages = &stages;
    res->disp = disp;
    seq->clk(clk);
    seq->log = cfg->cycle_log;
    seq->stages = &stages;
    seq->queues = &queues;
    seq->dw = dw;
    seq->disp = disp;
    seq->res = res;
}

Pipeline::~Pipeline()
{
    // Items still held (a run stopped by a failure) are freed once.
    std::vector<Item *> left;
    for (Stage *st : stages) {
        for (auto &row : st->hop)
            left.insert(left.end(), row.begin(), row.end());
        for (auto &row : st->fin)
            left.insert(left.end(), row.begin(), row.end());
    }
    for (Queue *q : queues)
        left.insert(left.end(), q->f.begin(), q->f.end());
    std::sort(left.begin(), left.end());
    left.erase(std::unique(left.begin(), left.end()), left.end());
    for (Item *x : left)
        delete x;
    c.bury();
    delete seq;
    delete res;
    delete disp;
    delete dw;
    for (Stage *st : stages)
        delete st;
    for (Queue *q : queues)
        delete q;
}

} // namespace lpm_model
