/* The models' configuration: defaults, the refusals of the cycle rules
 * (docs/microarchitecture.md), planted faults. Built with or without
 * SystemC, so the command layer can check options either way. */
#include <string.h>

#include "model.h"

void lpm_model_cfg_default(lpm_model_cfg *c)
{
    memset(c, 0, sizeof *c);
    c->hop = 2;
    c->ports = 1;
    c->queue = 16;
    c->width = 1;
    c->result_ready = 1.0;
    c->clock_mhz = 200.0;
}

int lpm_model_cfg_check(const lpm_model_cfg *c, const lpm_image *img, lpm_err *err)
{
    unsigned n = lpm_image_stages(img);
    if (n < 1 || n > LPM_SIM_MAX_STAGES)
        return lpm_err_set(err, LPM_EINPUT, "%u stages: the model takes 1..%d", n, LPM_SIM_MAX_STAGES);
    if (c->hop < 1 || c->hop > 16)
        return lpm_err_set(err, LPM_EINPUT, "hop cycles %u: must be 1..16", c->hop);
    if (c->ports != 1 && c->ports != 2)
        return lpm_err_set(err, LPM_EINPUT, "ports %u: must be 1 or 2", c->ports);
    if (c->width < 1 || c->width > 64)
        return lpm_err_set(err, LPM_EINPUT, "issue width %u: must be 1..64", c->width);
    if (!lpm_image_is_ring(img) && c->width > c->ports)
        return lpm_err_set(err, LPM_EINPUT, "linear pipeline: every item enters stage 0, so the issue width "
                                            "must be at most the ports (%u)", c->ports);
    if (c->queue > 65536)
        return lpm_err_set(err, LPM_EINPUT, "queue depth %u: must be at most 65536", c->queue);
    if (c->hop >= 2 && c->queue < 1)
        return lpm_err_set(err, LPM_EINPUT, "hop cycles %u: no direct entry, so the queues need at least 1 entry", c->hop);
    if (c->rob > 1u << 20)
        return lpm_err_set(err, LPM_EINPUT, "reorder buffer %u: must be at most 1048576", c->rob);
    if (!(c->result_ready > 0.0 && c->result_ready <= 1.0))
        return lpm_err_set(err, LPM_EINPUT, "result ready fraction %g: must be in (0, 1]", c->result_ready);
    if (c->hop == 1 && c->result_ready < 1.0)
        return lpm_err_set(err, LPM_EINPUT, "result back-pressure is a rule of hop cycles 2 or more");
    if (!(c->load >= 0.0 && c->load <= 64.0))
        return lpm_err_set(err, LPM_EINPUT, "load %g: must be in [0, 64] requests per cycle", c->load);
    if (c->result_fifo && (lpm_image_is_ring(img) || c->hop < 2 || c->ports != 1 || c->width != 1 || c->rob ||
                           c->result_fifo < 4 || c->result_fifo > 4096))
        return lpm_err_set(err, LPM_EINPUT, "result FIFO %u: the credit rules take a linear pipeline, hop cycles 2 or more, "
                                            "one port, issue width 1, no reorder buffer and 4..4096 credits", c->result_fifo);
    if (c->dit_queue && (c->hop < 2 || c->result_fifo))
        return lpm_err_set(err, LPM_EINPUT, "DIT answers through the queues: a rule of hop cycles 2 or more under the window "
                                            "rules (not with --result-fifo)");
    if (!(c->clock_mhz > 0.0 && c->clock_mhz <= 1e6))
        return lpm_err_set(err, LPM_EINPUT, "clock %g MHz: must be in (0, 1e6]", c->clock_mhz);
    return LPM_OK;
}

int lpm_model_mutation_parse(const char *s, int *out, lpm_err *err)
{
    static const char *const names[] = { "dit-late", "queue-capacity" };
    for (int i = 0; i < 2; i++)
        if (!strcmp(s, names[i])) {
            *out = i + 1;
            return LPM_OK;
        }
    return lpm_err_set(err, LPM_EINPUT, "--mutate: unknown fault '%s' (dit-late, queue-capacity)", s);
}
