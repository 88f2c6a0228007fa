// The line-card example (lpmpipe model linecard): a packet source at a
// fixed rate fills an input FIFO (a full FIFO drops the packet); a pool of
// lookup contexts, the initiator side, takes packets from the FIFO and
// sends each lookup over TLM-2.0 to the engine; an update source sends
// each update's bubbles as write transactions at the update rate. To plug
// in your own initiator, bind its tlm_utils::simple_initiator_socket to
// TlmEngine::socket as LineCard does below (docs/models.md).
#include <algorithm>
#include <cstring>
#include <ctime>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/tlm_quantumkeeper.h>

#include "tlm_engine.h"

namespace lpm_model {

SC_MODULE(LineCard) {
    tlm_utils::simple_initiator_socket<LineCard> socket;

    const lpm_linecard_cfg *cfg;
    const lpm_addr *keys;
    size_t n;
    const lpm_linecard_update *upd;
    size_t nupd;
    const lpm_image *check;
    int family;
    TlmEngine *engine = nullptr;

    struct Packet {
        size_t i;
        sc_time arrival;
    };
    std::deque<Packet> fifo;
    sc_event fifo_ev;
    bool source_done = false;
    unsigned running = 0;
    std::vector<double> lat_ns;
    uint64_t dropped = 0, checked = 0, mismatches = 0, updates = 0;
    sc_time first = SC_ZERO_TIME, last = SC_ZERO_TIME;

    SC_HAS_PROCESS(LineCard);
    LineCard(sc_module_name nm, const lpm_linecard_cfg *c, const lpm_addr *k, size_t nk, const lpm_linecard_update *u,
             size_t nu, const lpm_image *chk, int fam)
        : sc_module(nm), socket("socket"), cfg(c), keys(k), n(nk), upd(u), nupd(nu), check(chk), family(fam)
    {
        if (cfg->rate_pps > 0 || cfg->times) {
            SC_THREAD(source);
            for (unsigned i = 0; i < cfg->contexts; i++)
                sc_spawn(sc_bind(&LineCard::context, this), sc_gen_unique_name("context"));
        } else {
            tlm::tlm_global_quantum::instance().set(sc_time(1, SC_US));
            for (unsigned i = 0; i < cfg->contexts; i++)
                sc_spawn(sc_bind(&LineCard::back_to_back, this, i), sc_gen_unique_name("context"));
        }
        running = cfg->contexts;
        if (nupd && cfg->update_rate > 0)
            SC_THREAD(updater);
        lat_ns.reserve(n);
    }

    // Packet i arrives at i / rate, or at its time in the trace.
    void source()
    {
        sc_time period(cfg->rate_pps > 0 ? 1.0 / cfg->rate_pps : 0.0, SC_SEC);
        for (size_t i = 0; i < n; i++) {
            sc_time at = cfg->times ? sc_time(cfg->times[i] - cfg->times[0], SC_SEC) : period * (double)i;
            if (at > sc_time_stamp())
                wait(at - sc_time_stamp());
            if (fifo.size() >= cfg->fifo) {
                dropped++;
                continue;
            }
            fifo.push_back({ i, sc_time_stamp() });
            fifo_ev.notify(SC_ZERO_TIME);
        }
        source_done = true;
        fifo_ev.notify(SC_ZERO_TIME);
    }

    // Sends one lookup; returns its answer. delay: the caller's local time
    // offset in, the offset at the answer out.
    uint32_t send(tlm::tlm_generic_payload &p, size_t i, sc_time &delay)
    {
        unsigned char data[16] = { 0 };
        const lpm_addr &a = keys[i];
        unsigned len = family == LPM_AF_INET ? 4 : 16;
        for (unsigned b = 0; b < len; b++)
            data[b] = (unsigned char)((b < 8 ? a.hi >> (56 - 8 * b) : a.lo >> (56 - 8 * (b - 8))) & 0xff);
        p.set_command(tlm::TLM_READ_COMMAND);
        p.set_address(0);
        p.set_data_ptr(data);
        p.set_data_length(len);
        p.set_streaming_width(len);
        p.set_byte_enable_ptr(nullptr);
        p.set_dmi_allowed(false);
        p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
        socket->b_transport(p, delay);
        if (p.is_response_error())
            SC_REPORT_ERROR("linecard", "the engine refused a lookup");
        uint32_t nh;
        memcpy(&nh, data, sizeof nh);
        if (check) {
            checked++;
            mismatches += lpm_image_lookup(check, &a) != nh;
        }
        return nh;
    }

    // --rate-mpps 0: no source and no FIFO; context c sends lookups c, c+K,
    // ... back to back, loosely timed with a quantum keeper (temporal
    // decoupling, quantum 1 us): the engine's own pace.
    void back_to_back(unsigned c)
    {
        tlm_utils::tlm_quantumkeeper qk;
        tlm::tlm_generic_payload p; // one per context, reused
        qk.reset();
        for (size_t i = c; i < n; i += cfg->contexts) {
            sc_time delay = qk.get_local_time();
            sc_time issue = sc_time_stamp() + delay;
            send(p, i, delay);
            qk.set(delay);
            sc_time done = sc_time_stamp() + delay;
            lat_ns.push_back((done - issue).to_seconds() * 1e9);
            if (done > last)
                last = done;
            if (qk.need_sync())
                qk.sync();
        }
        qk.sync();
        finish_context();
    }

    void finish_context()
    {
        if (--running == 0) {
            engine->close_input();
            if (!updating)
                sc_stop();
        }
    }

    void lookup(tlm::tlm_generic_payload &p, const Packet &pk)
    {
        sc_time delay = SC_ZERO_TIME;
        send(p, pk.i, delay);
        wait(delay); // loosely timed: synchronise at once (one lookup per context)
        lat_ns.push_back((sc_time_stamp() - pk.arrival).to_seconds() * 1e9);
        last = sc_time_stamp();
    }

    void context()
    {
        tlm::tlm_generic_payload p; // one per context, reused
        for (;;) {
            while (fifo.empty() && !source_done)
                wait(fifo_ev);
            if (fifo.empty())
                break;
            Packet pk = fifo.front();
            fifo.pop_front();
            lookup(p, pk);
        }
        finish_context();
    }

    bool updating = false;
    // Update u starts at u / rate; its bubbles follow one another.
    void updater()
    {
        updating = true;
        sc_time period(1.0 / cfg->update_rate, SC_SEC);
        for (size_t u = 0; u < nupd && running; u++) {
            sc_time at = period * (double)u;
            if (at > sc_time_stamp())
                wait(at - sc_time_stamp());
            for (size_t j = 0; j < upd[u].n && running; j++) {
                const lpm_sim_bubble &b = upd[u].b[j];
                std::vector<lpm_tlm_write> w(b.nw);
                for (unsigned k = 0; k < b.nw; k++)
                    w[k] = lpm_tlm_write{ b.w[k].stage, b.w[k].addr, b.w[k].word };
                tlm::tlm_generic_payload p;
                p.set_command(tlm::TLM_WRITE_COMMAND);
                p.set_data_ptr(reinterpret_cast<unsigned char *>(w.data()));
                p.set_data_length((unsigned)(w.size() * sizeof(lpm_tlm_write)));
                p.set_streaming_width(p.get_data_length());
                p.set_byte_enable_ptr(nullptr);
                sc_time delay = SC_ZERO_TIME;
                socket->b_transport(p, delay);
                wait(delay);
            }
            updates++;
        }
        updating = false;
        if (!running)
            sc_stop();
    }
};

} // namespace lpm_model

static double cpu_now()
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double pct(std::vector<double> &v, double p)
{
    if (v.empty())
        return 0.0;
    size_t k = (size_t)(p / 100.0 * (double)v.size() + 0.999999);
    k = k < 1 ? 1 : k > v.size() ? v.size() : k;
    return v[k - 1];
}

extern "C" int lpm_model_elab_check(lpm_err *err);

extern "C" int lpm_linecard_run(lpm_image *img, const lpm_linecard_cfg *cfg, const lpm_addr *keys, size_t n,
                                const lpm_linecard_update *upd, size_t nupd, const lpm_image *check,
                                lpm_linecard_report *rep, lpm_err *err)
{
    *rep = lpm_linecard_report{};
    int rc = lpm_model_cfg_check(&cfg->mc, img, err);
    if (rc || (rc = lpm_model_elab_check(err)))
        return rc;
    if (!(cfg->rate_pps >= 0) || !cfg->fifo || !cfg->contexts || (cfg->fast && !cfg->cal) || (cfg->times && !n))
        return lpm_err_set(err, LPM_EINPUT, "line card: needs a rate, a FIFO, contexts (and a calibration in fast mode)");
    sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
    auto *eng = new lpm_model::TlmEngine("engine", img, &cfg->mc, cfg->fast ? cfg->cal : nullptr);
    auto *lc = new lpm_model::LineCard("linecard", cfg, keys, n, upd, nupd, check, lpm_image_family(img));
    lc->socket.bind(eng->socket);
    lc->engine = eng;
    double t0 = cpu_now();
    sc_core::sc_start();
    rep->cpu_seconds = cpu_now() - t0;
    rc = eng->rc();
    if (rc)
        *err = eng->err();
    std::sort(lc->lat_ns.begin(), lc->lat_ns.end());
    rep->offered = n;
    rep->answered = lc->lat_ns.size();
    rep->dropped = lc->dropped;
    rep->updates = lc->updates;
    rep->bubbles = eng->bubbles();
    rep->checked = lc->checked;
    rep->mismatches = lc->mismatches;
    rep->sim_seconds = (lc->last - lc->first).to_seconds();
    rep->lookups_per_s = rep->sim_seconds > 0 ? (double)rep->answered / rep->sim_seconds : 0.0;
    rep->lat_p50_ns = pct(lc->lat_ns, 50);
    rep->lat_p99_ns = pct(lc->lat_ns, 99);
    rep->lat_max_ns = lc->lat_ns.empty() ? 0.0 : lc->lat_ns.back();
    rep->need_per_clock = cfg->rate_pps / (cfg->mc.clock_mhz * 1e6);
    if (cfg->times) { // the trace's mean rate and its peak over any 1 us window
        double span = cfg->times[n - 1] - cfg->times[0];
        rep->need_per_clock = span > 0 ? (double)(n - 1) / span / (cfg->mc.clock_mhz * 1e6) : 0.0;
        size_t j = 0, peak = 0;
        for (size_t i = 0; i < n; i++) {
            while (cfg->times[i] - cfg->times[j] >= 1e-6)
                j++;
            peak = std::max(peak, i - j + 1);
        }
        rep->peak_per_clock = (double)peak / (1e-6 * cfg->mc.clock_mhz * 1e6);
    } else if (!(cfg->rate_pps > 0)) // back to back: the rate the engine took
        rep->need_per_clock = rep->lookups_per_s / (cfg->mc.clock_mhz * 1e6);
    delete lc;
    delete eng;
    return rc;
}
