// Co-simulation with the Verilated RTL (docs/models.md): RtlCosim steps
// the testbench library (rtl_gen/tb.cpp built with TB_LIB, found by
// dlopen) one clock cycle each time the cycle model has made its cycle's
// log line (phase 7 of the same rising edge), and compares the two lines.
#ifndef LPM_MODELS_COSIM_H
#define LPM_MODELS_COSIM_H

#include "cycle_model.h"

namespace lpm_model {

SC_MODULE(RtlCosim) {
    Ctx *c = nullptr;
    const std::string *model_line = nullptr; // the Sequencer's line of this cycle
    lpm_model_cosim *co = nullptr;
    void *dl = nullptr, *tb = nullptr;
    const char *(*tb_header)(void) = nullptr;
    void *(*tb_open)(const char *, const char *, const char *, const char *, double, double, char *, size_t) = nullptr;
    int (*tb_step)(void *, const char **) = nullptr;
    int (*tb_close)(void *) = nullptr;
    bool rtl_done = false;

    SC_HAS_PROCESS(RtlCosim);
    RtlCosim(sc_module_name nm, Ctx *ctx, const std::string *line, lpm_model_cosim *cosim);
    ~RtlCosim();
    // Loads the library, opens the testbench, compares the log headers.
    int open(const char *model_header, lpm_err *err);
    void step();                              // phase 7 of every cycle
    // After the model's last cycle: the RTL's remaining cycles (each one a
    // mismatch), then its results file closed.
    int finish(lpm_err *err);
    void compare(uint64_t cycle, const char *m, const char *r);
};

} // namespace lpm_model

#endif
