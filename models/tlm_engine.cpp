// The TLM-2.0 lookup engine (tlm_engine.h says the payload protocol).
#include "tlm_engine.h"

#include <cmath>
#include <cstring>

namespace lpm_model {

TlmEngine::TlmEngine(sc_module_name nm, lpm_image *image, const lpm_model_cfg *cfg, const lpm_model_calib *fast_cal)
    : sc_module(nm), socket("socket"), img(image), family(lpm_image_family(image)),
      clk(sc_time(1e6 / cfg->clock_mhz, SC_PS)), cal(fast_cal)
{
    socket.register_b_transport(this, &TlmEngine::b_transport);
    for (unsigned i = 0; i < EPOCHS; i++)
        ep_tag[i] = UINT64_MAX, ep_cnt[i] = 0;
    if (cal)
        slot_tag.assign(SLOTS, UINT64_MAX);
    if (!cal) {
        lpm_model_io io = { src, this, bsrc, this, sink, this };
        pipe = new Pipeline("pipeline", img, cfg, &io);
        pipe->c.stop_at_end = false;
    }
}

TlmEngine::~TlmEngine()
{
    delete pipe;
    for (Pending *p : in)
        delete p;
    for (lpm_sim_bubble *b : bub_in)
        delete b;
}

void TlmEngine::close_input()
{
    closed = true;
}

uint64_t TlmEngine::bubbles() const
{
    return pipe ? pipe->c.bubbles : fast_bubbles;
}

static lpm_addr key_of(const unsigned char *d, int family)
{
    lpm_addr a{};
    if (family == LPM_AF_INET) {
        a.hi = (uint64_t)((uint32_t)d[0] << 24 | (uint32_t)d[1] << 16 | (uint32_t)d[2] << 8 | d[3]) << 32;
        return a;
    }
    for (int i = 0; i < 8; i++) {
        a.hi = a.hi << 8 | d[i];
        a.lo = a.lo << 8 | d[8 + i];
    }
    return a;
}

void TlmEngine::b_transport(tlm::tlm_generic_payload &p, sc_time &delay)
{
    unsigned char *d = p.get_data_ptr();
    unsigned len = p.get_data_length();
    if (p.get_byte_enable_ptr() || p.get_streaming_width() != len) {
        p.set_response_status(tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
        return;
    }
    if (p.is_write()) {
        if (len == 0 || len % sizeof(lpm_tlm_write) || len / sizeof(lpm_tlm_write) > LPM_SIM_MAX_STAGES + 1) {
            p.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
            return;
        }
        bubble(reinterpret_cast<const lpm_tlm_write *>(d), len / sizeof(lpm_tlm_write), delay);
        p.set_response_status(tlm::TLM_OK_RESPONSE);
        return;
    }
    if (!p.is_read() || len != (family == LPM_AF_INET ? 4u : 16u)) {
        p.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
        return;
    }
    Pending q;
    q.key = key_of(d, family);
    if (cal)
        lookup_fast(q, delay);
    else
        lookup_cycle(q, delay);
    std::memcpy(d, &q.nh, sizeof q.nh);
    p.set_response_status(tlm::TLM_OK_RESPONSE);
}

// Lookups per cycle around this cycle: the last complete epoch's count
// (the current one's while there is none).
double TlmEngine::fast_load(double cycle)
{
    uint64_t e = (uint64_t)cycle / EPOCH;
    if (ep_tag[e % EPOCHS] != e)
        ep_tag[e % EPOCHS] = e, ep_cnt[e % EPOCHS] = 0;
    ep_cnt[e % EPOCHS]++;
    double load;
    if (e && ep_tag[(e - 1) % EPOCHS] == e - 1)
        load = (double)ep_cnt[(e - 1) % EPOCHS] / EPOCH;
    else
        load = (double)ep_cnt[e % EPOCHS] / (cycle - (double)(e * EPOCH) + 1.0);
    return load < cal->lpc_max ? load : cal->lpc_max;
}

// Loosely timed: the interpreter's answer now; the delay is the wait for
// the first free issue slot at or after the call's time, plus the
// calibrated latency at the load of the recent epochs.
void TlmEngine::lookup_fast(Pending &q, sc_time &delay)
{
    sc_time now = sc_time_stamp() + delay;
    double cyc = now / clk;
    uint64_t k = (uint64_t)std::ceil(cyc * cal->lpc_max - 1e-9);
    for (unsigned tries = 0; slot_tag[k % SLOTS] == k && tries < SLOTS; tries++)
        k++;
    slot_tag[k % SLOTS] = k;
    double start = (double)k / cal->lpc_max;
    double wait_cycles = start > cyc ? start - cyc : 0.0;
    delay += clk * (wait_cycles + lpm_model_calib_latency(cal, fast_load(cyc)));
    q.nh = lpm_image_lookup(img, &q.key);
}

// Cycle accurate: the request joins the pipeline's input at this time and
// the caller waits for its answer.
void TlmEngine::lookup_cycle(Pending &q, sc_time &delay)
{
    wait(delay);
    delay = SC_ZERO_TIME;
    in.push_back(&q);
    while (!q.done)
        wait(q.ev);
}

void TlmEngine::bubble(const lpm_tlm_write *w, size_t n, sc_time &delay)
{
    if (cal) {
        for (size_t i = 0; i < n; i++)
            lpm_image_write(img, w[i].stage, w[i].addr, w[i].word);
        fast_bubbles++;
        delay += clk * (double)cal->bubble_cycles;
        return;
    }
    auto *b = new lpm_sim_bubble;
    b->nw = (unsigned)n;
    for (size_t i = 0; i < n; i++)
        b->w[i] = lpm_sim_write{ w[i].stage, w[i].addr, w[i].word };
    b->ready = 0;
    b->update = 0;
    b->first = b->last = 1;
    bub_in.push_back(b);
}

// The pipeline's request source: what has arrived, in arrival order.
int TlmEngine::src(void *ctx, lpm_addr *key, lpm_err *err)
{
    (void)err;
    auto *e = static_cast<TlmEngine *>(ctx);
    if (e->in.empty())
        return e->closed ? 0 : LPM_MODEL_NOT_YET;
    Pending *q = e->in.front();
    e->in.pop_front();
    *key = q->key;
    e->flight[e->next_id++] = q;
    return 1;
}

int TlmEngine::bsrc(void *ctx, lpm_sim_bubble *b, lpm_err *err)
{
    (void)err;
    auto *e = static_cast<TlmEngine *>(ctx);
    if (e->bub_in.empty())
        return e->closed && e->in.empty() ? 0 : LPM_MODEL_NOT_YET;
    lpm_sim_bubble *x = e->bub_in.front();
    e->bub_in.pop_front();
    *b = *x;
    b->ready = e->pipe->c.cycle;
    delete x;
    return 1;
}

int TlmEngine::sink(void *ctx, const lpm_sim_result *r, lpm_err *err)
{
    auto *e = static_cast<TlmEngine *>(ctx);
    auto it = e->flight.find(r->id);
    if (it == e->flight.end())
        return lpm_err_set(err, LPM_EFAIL, "internal error: result for request %llu, which nobody waits for",
                           (unsigned long long)r->id);
    Pending *q = it->second;
    e->flight.erase(it);
    q->nh = r->nh;
    q->done = true;
    q->ev.notify(SC_ZERO_TIME);
    return 0;
}

} // namespace lpm_model
