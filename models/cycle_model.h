// The cycle-accurate SystemC model of docs/microarchitecture.md: one
// sc_module per part (DIT and dispatch window, dispatcher, a queue and a
// stage per pipeline stage, the result side: reorder buffer or result
// lanes), clocked by one sc_clock. The rules order the work of a cycle in
// seven steps, each seeing the steps before it; the Sequencer turns every
// rising edge into seven phases (one delta cycle each), and each module's
// SC_METHODs are sensitive to the phase they implement. Modules talk only
// through the registers and ports declared here, never through sim/.
#ifndef LPM_MODELS_CYCLE_MODEL_H
#define LPM_MODELS_CYCLE_MODEL_H

#include <systemc.h>

#include <deque>
#include <string>
#include <vector>

extern "C" {
#include "model.h"
}

namespace lpm_model {

// A lookup or a bubble, from its entry into the window to its output.
struct Item {
    bool bubble = false;
    uint64_t id = 0;          // lookups: input order; bubbles: entry order
    uint64_t dit_cycle = 0;   // the cycle it entered the window (read or wrote the DIT)
    uint32_t hops = 0;        // stages passed, a guard against walks that never end
    uint64_t ready = 0;       // bubbles: first cycle it may enter
    lpm_visit v{};
    std::vector<lpm_sim_write> writes; // bubbles
    std::string tok() const { return bubble ? "b" + std::to_string(id) : std::to_string(id); }
};

// What every module may read: the configuration, the cycle, the phase
// events, and the run's outcome.
struct Ctx {
    unsigned N = 0, P = 1, D = 2, W = 1, Q = 16, R = 0;
    unsigned F = 0;           // the credit rules' result credits (0: the window rules)
    bool ansq = false;        // DIT answers through queue 0 (sim --dit-answers queue)
    unsigned pop_now = 0;     // (credit rules) a result left in this cycle
    bool ring = true;
    int mutate = 0;
    uint64_t ready_thr = UINT64_MAX;
    lpm_image *img = nullptr;
    lpm_model_io io{};
    uint64_t cycle = 0;
    uint64_t live = 0;        // items in the window, queues, stages, hop registers
    uint64_t blive = 0;       // bubbles from window entry until they held stage N-1
    uint64_t walking[2] = {}; // lookups from their DIT read to their exit, by the copy they read
    // the copy rules of a rebuild (docs/microarchitecture.md 3.1), as sim/sim_copy.c
    bool bubble_may_enter(const lpm_sim_bubble *b) const
    {
        if ((b->flags & (LPM_SIM_B_DRAIN | LPM_SIM_B_SWAP)) && blive)
            return false;
        return !((b->flags & LPM_SIM_B_FENCE) && walking[1 - (lpm_image_active(img) & 1)]);
    }
    uint64_t lookups = 0, bubbles = 0;
    double load = 0;          // --load: offered requests per cycle (0: backlog)
    bool stop_at_end = true;  // sc_stop() when the run is over (false: inside a larger model)
    bool finished = false;
    sc_event done_ev;         // notified when the run is over
    int rc = LPM_OK;
    lpm_err err{};
    sc_event phase[8];        // phase[1..7] = steps 1..7
    bool after_log = false;   // phase[7] is notified once the cycle's log line is made (co-simulation)
    std::vector<Item *> dead; // out this cycle, freed after the log line
    void fail(int code) { if (rc == LPM_OK) rc = code; }
    void retire(Item *x) { live--; dead.push_back(x); }
    void bury();
};

// A queue in front of a stage: a FIFO of Q entries whose room the
// dispatcher sees from the start of the cycle (D >= 2: registered credits).
// D >= 2: a push reaches the queue a cycle after the dispatch decision, so
// the pushes of the cycle before cannot be popped yet.
SC_MODULE(Queue) {
    std::deque<Item *> f;
    unsigned pops = 0;        // pops in this cycle
    uint64_t push_at = 0;     // cycle + 1 of the last push
    unsigned push_n = 0;      // pushes in that cycle
    SC_CTOR(Queue) {}
};

struct ResultSide;

// One pipeline stage with P lanes (memory ports); its memory is the image's
// stage memory, read and written through the C image API.
SC_MODULE(Stage) {
    Ctx *c = nullptr;
    unsigned s = 0;
    Queue *q = nullptr;
    Stage *next = nullptr;                   // (s + 1) mod N
    std::vector<std::vector<Item *>> hop;    // hop[t % D][p]: offered to lane p in cycle t
    std::vector<std::vector<Item *>> fin;    // fin[t % D][p]: finishing, exit attempt in cycle t
    std::vector<Item *> lane;                // held this cycle
    std::vector<uint8_t> rd;                 // read or written this cycle (the log's "~")
    std::string ev;                          // this cycle's pop events

    SC_HAS_PROCESS(Stage);
    Stage(sc_module_name nm, Ctx *ctx, unsigned idx, Queue *queue);
    void select();   // step 2
    void operate();  // step 5
    bool all_idle() const;
};

// The direct index table and the dispatch window (step 4).
SC_MODULE(DitWindow) {
    Ctx *c = nullptr;
    std::deque<Item *> win;
    unsigned cap = 0, n0 = 0;               // capacity; entries at the start of the cycle
    bool src_done = false, bsrc_done = false, have_pending = false;
    bool bub_taken = false;                 // D >= 3: the pending bubble was taken last cycle, enters now
    // the credit rules: admitted items reach stage 0 D + 1 cycles later
    // (ent[t % (D + 1)]), requests wait for credits counted two cycles late
    std::vector<Item *> ent;
    Stage *stage0 = nullptr;
    int64_t cred = 0;
    unsigned acc_now = 0, acc_prev = 0, pop_prev = 0;
    lpm_sim_bubble *pending = nullptr;
    uint64_t next_id = 0, bubble_seq = 0;
    std::string ev;

    SC_HAS_PROCESS(DitWindow);
    DitWindow(sc_module_name nm, Ctx *ctx);
    ~DitWindow();
    void refill();   // step 4
    int take_one(bool bubble_ok);
    bool bubble_ready();
    void enter_bubble();
    void admit(Item *x);
    void enter0();   // (credit rules) step 2's offer to stage 0
    void refill_credit();
};

// The dispatcher (step 3): the window's head, in order, into the queues.
SC_MODULE(Dispatcher) {
    Ctx *c = nullptr;
    DitWindow *dw = nullptr;
    std::vector<Stage *> *stages = nullptr;
    std::vector<Queue *> *queues = nullptr;
    ResultSide *res = nullptr;
    std::vector<Item *> dit_done;           // DIT answers dispatched this cycle
    std::vector<unsigned> dit_lane;
    std::string ev;

    SC_HAS_PROCESS(Dispatcher);
    Dispatcher(sc_module_name nm, Ctx *ctx);
    void dispatch();
    bool enter_idle(unsigned e, Item *it);
};

// The result side: the reorder buffer, or (D >= 2) the result lanes, and
// the exits (steps 1 and 6).
SC_MODULE(ResultSide) {
    struct Lane {
        lpm_sim_result r[2];
        unsigned head = 0, n = 0;
        uint64_t last_out = 0;              // cycle of the last output + 1
    };
    Ctx *c = nullptr;
    std::vector<Stage *> *stages = nullptr;
    Dispatcher *disp = nullptr;
    std::vector<lpm_sim_result> rob;
    std::vector<uint8_t> rob_valid;
    uint64_t rob_head = 0, rob_alloc = 0, rob_head_reg = 0;
    std::vector<Lane> lanes;                // N*P stage lanes + W DIT lanes (D >= 2, R = 0, not the credit rules)
    // the credit rules: results from exit to output in input order, the cycle
    // each may be fetched from; shown, fetched one and two cycles before
    std::deque<lpm_sim_result> cres;
    std::deque<uint64_t> cres_at;
    unsigned vis = 0, f1 = 0, f2 = 0;
    uint64_t rl_live = 0;
    std::string ev_out, ev_exit;

    SC_HAS_PROCESS(ResultSide);
    ResultSide(sc_module_name nm, Ctx *ctx);
    void output();   // step 1
    void output_credit();
    void exits();    // step 6
    bool lane_room(unsigned l) const;
    void exit_one(Item *it, unsigned lane);
    int emit(lpm_sim_result &r);
};

// Turns each rising edge into the seven steps, writes the cycle log (step
// 7) and stops the simulation when the run is over.
SC_MODULE(Sequencer) {
    sc_in<bool> clk;
    Ctx *c = nullptr;
    FILE *log = nullptr;
    std::vector<Stage *> *stages = nullptr;
    std::vector<Queue *> *queues = nullptr;
    DitWindow *dw = nullptr;
    Dispatcher *disp = nullptr;
    ResultSide *res = nullptr;
    std::string line;         // this cycle's log line, "\n" ended

    SC_HAS_PROCESS(Sequencer);
    Sequencer(sc_module_name nm, Ctx *ctx);
    void run();
    void log_cycle();
};

// The whole pipeline with its clock.
SC_MODULE(Pipeline) {
    Ctx c;
    sc_clock clk;
    std::vector<Queue *> queues;
    std::vector<Stage *> stages;
    DitWindow *dw;
    Dispatcher *disp;
    ResultSide *res;
    Sequencer *seq;

    Pipeline(sc_module_name nm, lpm_image *img, const lpm_model_cfg *cfg, const lpm_model_io *io);
    ~Pipeline();
};

} // namespace lpm_model

#endif
