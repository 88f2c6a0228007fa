/* The TLM engine's latency model, calibrated from cycle runs: the
 * simulator (sim/, cycle-equal to the SystemC cycle model, which
 * `model verify` checks) runs the caller's pipeline and requests once at
 * saturation (continuous backlog: the pipeline's own LPC) and then at
 * fixed fractions of that LPC (--load), recording the latency at each. */
#include <stdlib.h>

#include "model.h"
#include "../sim/walk_image.h"

typedef struct arr_src {
    const lpm_addr *a;
    size_t n, pos;
} arr_src;

static int arr_next(void *ctx, lpm_addr *key, lpm_err *err)
{
    arr_src *s = ctx;
    (void)err;
    if (s->pos == s->n)
        return 0;
    *key = s->a[s->pos++];
    return 1;
}

static int one_run(lpm_image *img, const lpm_model_cfg *mc, double load, const lpm_addr *keys, size_t n, double *lpc,
                   double *mean, double *p99, lpm_err *err)
{
    lpm_sim_walker w;
    lpm_sim_image_walker(img, &w);
    lpm_sim_cfg c;
    lpm_sim_cfg_default(&c);
    c.hop = mc->hop;
    c.ports = mc->ports;
    c.queue = mc->queue;
    c.width = mc->width;
    c.rob = mc->rob;
    c.result_ready = mc->result_ready;
    c.load = load;
    c.warmup = n > 2000 ? 500 : 0;
    lpm_sim *s = NULL;
    arr_src src = { keys, n, 0 };
    int rc = lpm_sim_new(&s, &w, &c, err);
    if (!rc)
        rc = lpm_sim_run(s, arr_next, &src, NULL, NULL, NULL, NULL, err);
    if (!rc) {
        const lpm_sim_stats *st = lpm_sim_get_stats(s);
        uint64_t cnt = 0;
        for (unsigned i = 0; i < LPM_SIM_LAT_BUCKETS; i++)
            cnt += st->lat_hist[i];
        *lpc = st->lpc;
        *mean = cnt ? (double)st->lat_sum / (double)cnt : 0.0;
        *p99 = (double)lpm_sim_latency_pct(st, 99.0);
    }
    lpm_sim_free(s);
    return rc;
}

int lpm_model_calibrate(const lpm_image *img, const lpm_model_cfg *cfg, const lpm_addr *keys, size_t n,
                        lpm_model_calib *cal, lpm_err *err)
{
    static const double frac[LPM_MODEL_CAL_POINTS - 1] = { 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.97 };
    if (!n)
        return lpm_err_set(err, LPM_EINPUT, "calibration needs requests");
    lpm_image *copy = lpm_image_clone(img);
    if (!copy)
        return lpm_err_set(err, LPM_EFAIL, "out of memory");
    double mean, p99, lpc;
    int rc = one_run(copy, cfg, 0.0, keys, n, &cal->lpc_max, &mean, &p99, err);
    cal->n = 0;
    for (unsigned i = 0; !rc && i < LPM_MODEL_CAL_POINTS - 1; i++) {
        double load = frac[i] * cal->lpc_max;
        if (!(rc = one_run(copy, cfg, load, keys, n, &lpc, &cal->lat_mean[cal->n], &cal->lat_p99[cal->n], err)))
            cal->load[cal->n++] = load;
    }
    if (!rc) {
        /* the saturated point: offered = what the pipeline takes */
        cal->load[cal->n] = cal->lpc_max;
        cal->lat_mean[cal->n] = mean;
        cal->lat_p99[cal->n++] = p99;
    }
    /* window (D), queue 0 (1; D >= 2: 2, the push lands a cycle after the
     * decision), N stages of D each, leaving */
    unsigned D = cfg->hop, N = lpm_image_stages(img);
    cal->bubble_cycles = (uint64_t)D + (D > 1 ? 2 : 1) + (uint64_t)N * D;
    lpm_image_free(copy);
    return rc;
}

double lpm_model_calib_latency(const lpm_model_calib *cal, double load)
{
    if (!cal->n)
        return 0.0;
    if (load <= cal->load[0])
        return cal->lat_mean[0];
    for (unsigned i = 1; i < cal->n; i++)
        if (load <= cal->load[i]) {
            double f = (load - cal->load[i - 1]) / (cal->load[i] - cal->load[i - 1]);
            return cal->lat_mean[i - 1] + f * (cal->lat_mean[i] - cal->lat_mean[i - 1]);
        }
    return cal->lat_mean[cal->n - 1];
}
