// The co-simulation module (models/cosim.h).
#include "cosim.h"

#include <dlfcn.h>

#include <cinttypes>
#include <cstring>

namespace lpm_model {

RtlCosim::RtlCosim(sc_module_name nm, Ctx *ctx, const std::string *line, lpm_model_cosim *cosim)
    : sc_module(nm), c(ctx), model_line(line), co(cosim)
{
    co->cycles = co->mismatches = 0;
    co->first = UINT64_MAX;
    co->shown = 0;
    SC_METHOD(step);
    sensitive << c->phase[7];
    dont_initialize();
}

RtlCosim::~RtlCosim()
{
    if (tb && tb_close)
        tb_close(tb);
    if (dl)
        dlclose(dl);
}

template <class F> static bool sym(void *dl, const char *name, F &f)
{
    f = reinterpret_cast<F>(dlsym(dl, name));
    return f != nullptr;
}

int RtlCosim::open(const char *model_header, lpm_err *err)
{
    dl = dlopen(co->lib, RTLD_NOW | RTLD_LOCAL);
    if (!dl)
        return lpm_err_set(err, LPM_EFAIL, "cannot load the Verilated testbench: %s", dlerror());
    if (!sym(dl, "lpm_tb_header", tb_header) || !sym(dl, "lpm_tb_open", tb_open) || !sym(dl, "lpm_tb_step", tb_step) ||
        !sym(dl, "lpm_tb_close", tb_close))
        return lpm_err_set(err, LPM_EFAIL, "%s: not a co-simulation testbench (no lpm_tb_* functions)", co->lib);
    char msg[512] = "";
    tb = tb_open(co->dir, co->keys, co->bubbles, co->results, co->load, co->ready, msg, sizeof msg);
    if (!tb)
        return lpm_err_set(err, LPM_EFAIL, "the Verilated testbench: %s", msg);
    // the header names the rules and the configuration (a "cycle" before 0)
    if (strcmp(model_header, tb_header())) {
        co->mismatches++;
        co->first = 0;
        snprintf(co->show_model[0], sizeof co->show_model[0], "header %s", model_header);
        snprintf(co->show_rtl[0], sizeof co->show_rtl[0], "header %s", tb_header());
        co->show_cycle[0] = 0;
        co->shown = 1;
    }
    return LPM_OK;
}

void RtlCosim::compare(uint64_t cycle, const char *m, const char *r)
{
    co->cycles = cycle + 1;
    if (m && r && !strcmp(m, r))
        return;
    if (co->mismatches++ == 0 || cycle < co->first)
        co->first = cycle;
    if (co->shown < LPM_COSIM_SHOW) {
        unsigned k = co->shown++;
        co->show_cycle[k] = cycle;
        snprintf(co->show_model[k], sizeof co->show_model[k], "%s", m ? m : "(log ended)");
        snprintf(co->show_rtl[k], sizeof co->show_rtl[k], "%s", r ? r : "(log ended)");
    }
}

void RtlCosim::step()
{
    std::string m = *model_line;
    if (!m.empty() && m.back() == '\n')
        m.pop_back();
    if (rtl_done) {
        compare(c->cycle, m.c_str(), nullptr);
        return;
    }
    const char *r = nullptr;
    int s = tb_step(tb, &r);
    compare(c->cycle, m.c_str(), r);
    if (s != 0)
        rtl_done = true;
    if (s < 0 && c->rc == LPM_OK) {
        lpm_err_set(&c->err, LPM_EFAIL, "the Verilated RTL is still busy after %" PRIu64 " cycles", c->cycle);
        c->fail(LPM_EFAIL);
        sc_stop();
    }
}

int RtlCosim::finish(lpm_err *err)
{
    uint64_t t = c->cycle;
    while (!rtl_done && tb) {
        const char *r = nullptr;
        int s = tb_step(tb, &r);
        compare(t++, nullptr, r);
        if (s != 0)
            rtl_done = true;
    }
    int bad = tb ? tb_close(tb) : 0;
    tb = nullptr;
    if (bad)
        return lpm_err_set(err, LPM_EFAIL, "%s: the RTL's results could not be written", co->results);
    return LPM_OK;
}

} // namespace lpm_model
