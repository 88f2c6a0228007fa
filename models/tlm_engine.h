// The lookup engine as a TLM-2.0 target (docs/models.md, "the TLM
// engine"): one tlm_utils::simple_target_socket, blocking transport.
//
//  - a READ is a lookup: the payload's data holds the address (4 bytes for
//    IPv4, 16 for IPv6, network byte order, data_length 4 or 16); the
//    engine writes the next hop back into the first 4 bytes (uint32, host
//    order; 0xFFFFFFFF: no route) and sets TLM_OK_RESPONSE;
//  - a WRITE is a bubble: the data is an array of lpm_tlm_write records
//    (16 bytes each: stage, address, word; stage LPM_SIM_DIT for the
//    direct index table), the writes of one bubble of lpmpipe update.
//
// Two modes, chosen at construction:
//  - cycle: the cycle-accurate Pipeline runs inside the engine; a lookup
//    waits (in b_transport) until the pipeline gives its answer, so the
//    time it takes is what the cycle model gives at the current load; a
//    bubble is posted into the pipeline's bubble input;
//  - fast (loosely timed): the image interpreter answers at once and the
//    delay argument is increased by the calibrated latency at the current
//    load (lpm_model_calib), plus the wait for an issue slot when lookups
//    come faster than the pipeline's saturated LPC; a bubble's writes are
//    applied at once.
#ifndef LPM_MODELS_TLM_ENGINE_H
#define LPM_MODELS_TLM_ENGINE_H

#include <systemc.h>
#include <tlm.h>
#include <tlm_utils/simple_target_socket.h>

#include <deque>
#include <vector>
#include <unordered_map>

#include "cycle_model.h"

namespace lpm_model {

struct lpm_tlm_write {
    uint32_t stage; // LPM_SIM_DIT for the direct index table
    uint32_t addr;
    uint64_t word;
};

SC_MODULE(TlmEngine) {
    tlm_utils::simple_target_socket<TlmEngine> socket;

    TlmEngine(sc_module_name nm, lpm_image *img, const lpm_model_cfg *cfg, const lpm_model_calib *fast_cal);
    ~TlmEngine();
    // No more lookups will come: the cycle pipeline drains and stops.
    void close_input();
    uint64_t bubbles() const;
    int rc() const { return pipe ? pipe->c.rc : LPM_OK; }
    const lpm_err &err() const { return pipe->c.err; }

  private:
    struct Pending {
        lpm_addr key;
        uint32_t nh = LPM_NH_NONE;
        bool done = false;
        sc_event ev;
    };
    lpm_image *img;
    int family;
    sc_time clk;
    // cycle mode
    Pipeline *pipe = nullptr;
    std::deque<Pending *> in;                        // waiting for the window
    std::unordered_map<uint64_t, Pending *> flight; // id -> waiting transaction
    uint64_t next_id = 0;
    bool closed = false;
    std::deque<lpm_sim_bubble *> bub_in;
    // fast mode: issue slots of 1 / lpc_max cycles each, reserved in a
    // ring (initiators decoupled in time may call out of time order), and
    // the load counted per epoch of EPOCH cycles
    static constexpr unsigned SLOTS = 1u << 14, EPOCHS = 8, EPOCH = 256;
    const lpm_model_calib *cal = nullptr;
    std::vector<uint64_t> slot_tag;
    uint64_t ep_tag[EPOCHS], ep_cnt[EPOCHS];
    uint64_t fast_bubbles = 0;
    double fast_load(double cycle);

    void b_transport(tlm::tlm_generic_payload &p, sc_time &delay);
    void lookup_fast(Pending &q, sc_time &delay);
    void lookup_cycle(Pending &q, sc_time &delay);
    void bubble(const lpm_tlm_write *w, size_t n, sc_time &delay);
    static int src(void *ctx, lpm_addr *key, lpm_err *err);
    static int bsrc(void *ctx, lpm_sim_bubble *b, lpm_err *err);
    static int sink(void *ctx, const lpm_sim_result *r, lpm_err *err);
};

} // namespace lpm_model

#endif
