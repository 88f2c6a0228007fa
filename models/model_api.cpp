// The C API of the SystemC models (models/model.h).
#include <ctime>

#include "cosim.h"

extern "C" {
#include "../sim/cycle_log.h"
}

// libsystemc wants an sc_main; lpmpipe's own main elaborates through the
// C API instead, so this one is never called.
int sc_main(int, char **)
{
    return 0;
}

static double cpu_seconds()
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

extern "C" int lpm_model_built(void)
{
    return 1;
}

// SystemC elaborates once per process: a run after another is refused.
extern "C" int lpm_model_elab_check(lpm_err *err)
{
    if (sc_core::sc_get_status() != sc_core::SC_ELABORATION)
        return lpm_err_set(err, LPM_EFAIL, "SystemC elaborates one model per process: this process has run one already");
    return LPM_OK;
}

extern "C" int lpm_model_run(lpm_image *img, const lpm_model_cfg *cfg, const lpm_model_io *io, lpm_model_stats *st,
                             lpm_err *err)
{
    *st = lpm_model_stats{};
    int rc = lpm_model_cfg_check(cfg, img, err);
    if (rc || (rc = lpm_model_elab_check(err)))
        return rc;
    lpm_sim_log_hdr h = { lpm_image_stages(img), lpm_image_is_ring(img), cfg->queue, cfg->width, cfg->rob, 0,
                          cfg->hop, cfg->ports, cfg->result_fifo, cfg->dit_queue };
    char header[256];
    lpm_sim_log_header(header, sizeof header, &h);
    if (cfg->cycle_log)
        fprintf(cfg->cycle_log, "%s\n", header);
    // "simulation stopped by user" and the like: the command reports itself
    sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
    auto *p = new lpm_model::Pipeline("pipeline", img, cfg, io);
    lpm_model::RtlCosim *co = nullptr;
    if (cfg->cosim) {
        co = new lpm_model::RtlCosim("rtl", &p->c, &p->seq->line, cfg->cosim);
        p->c.after_log = true;
        if ((rc = co->open(header, err))) {
            delete co;
            delete p;
            return rc;
        }
    }
    double t0 = cpu_seconds();
    sc_core::sc_start();
    st->seconds = cpu_seconds() - t0;
    st->cycles = p->c.cycle;
    st->lookups = p->c.lookups;
    st->bubbles = p->c.bubbles;
    rc = p->c.rc;
    if (rc)
        *err = p->c.err;
    else if (co)
        rc = co->finish(err);
    delete co;
    delete p;
    return rc;
}
