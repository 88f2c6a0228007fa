/* The SystemC models (docs/models.md), seen from C: the cycle-accurate
 * model of docs/microarchitecture.md and the TLM-2.0 line card. The C++
 * stays in the .cpp files of models/; without SystemC at build time models/model_none.c
 * stands in (lpm_model_built() is 0, every run fails with LPM_ENODEV).
 *
 * SystemC elaborates one module hierarchy per process: each run function
 * may be called once per process (a second call fails with LPM_EFAIL). */
#ifndef LPM_MODEL_H
#define LPM_MODEL_H

#include <stdint.h>
#include <stdio.h>

#include "../core/err.h"
#include "../mapper/image.h"
#include "../sim/sim.h"

/* Planted faults (--mutate): model verify must then fail. */
enum lpm_model_mutation {
    LPM_MODEL_MUT_NONE = 0,
    LPM_MODEL_MUT_DIT_LATE,      /* the DIT read takes D+1 cycles */
    LPM_MODEL_MUT_QUEUE_CAPACITY /* the dispatcher believes every queue holds Q+1 */
};

/* Co-simulation (model verify --cosim): the Verilated RTL testbench
 * (rtl_gen/tb.cpp built as a shared library, lpm_rtl_tb_build) is stepped
 * one clock cycle at a time by a module of the model's SystemC kernel, on
 * the model's clock, and its cycle log line is compared with the model's
 * in every cycle. Both read one stimulus (the keys and the bubbles with
 * their ready cycles that the model's sources give). */
#define LPM_COSIM_SHOW 3
typedef struct lpm_model_cosim {
    const char *lib;                 /* the testbench library */
    const char *dir;                 /* the generated RTL folder (its memory files) */
    const char *keys, *bubbles;      /* its stimulus: keys.hex, bubbles.txt (rtl_gen/tb_build.h) */
    const char *results;             /* written by it: "id nhv nh dit_cycle exit_cycle out_cycle" */
    double load, ready;              /* --load, --result-ready */
    /* out */
    uint64_t cycles;                 /* cycles compared (the longer of the two logs) */
    uint64_t mismatches;             /* cycle lines (and the header) that differ */
    uint64_t first;                  /* the first differing cycle (UINT64_MAX: none) */
    unsigned shown;
    uint64_t show_cycle[LPM_COSIM_SHOW];
    char show_model[LPM_COSIM_SHOW][512], show_rtl[LPM_COSIM_SHOW][512];
} lpm_model_cosim;

typedef struct lpm_model_cfg {
    unsigned hop;          /* D, clocks per hop (1..16) */
    unsigned ports;        /* P, 1 or 2 */
    unsigned queue;        /* Q per stage (D >= 2: at least 1) */
    unsigned width;        /* W, issue width */
    unsigned rob;          /* reorder buffer entries (0: none) */
    unsigned result_fifo;  /* F > 0: a linear pipeline under the credit rules (sim --result-fifo) */
    int dit_queue;         /* DIT answers through queue 0 (sim --dit-answers queue) */
    double result_ready;   /* D >= 2: fraction of ready cycles (1: always) */
    double load;           /* offered requests per cycle (0: continuous backlog) */
    double clock_mhz;      /* the sc_clock's frequency */
    int mutate;            /* enum lpm_model_mutation */
    FILE *cycle_log;       /* NULL: none */
    lpm_model_cosim *cosim;/* NULL: no co-simulation */
} lpm_model_cfg;

/* Same defaults as lpm_sim_cfg_default: D 2, P 1, Q 16, W 1, R 0; 200 MHz. */
void lpm_model_cfg_default(lpm_model_cfg *c);
/* LPM_EINPUT with the reason for a configuration the rules refuse. */
int lpm_model_cfg_check(const lpm_model_cfg *c, const lpm_image *img, lpm_err *err);
/* "dit-late", "queue-capacity"; LPM_EINPUT for another name. */
int lpm_model_mutation_parse(const char *s, int *out, lpm_err *err);

/* Where requests come from, bubbles come from, and results go (output
 * order), as lpm_sim_run takes them; a source may also return
 * LPM_MODEL_NOT_YET: nothing has arrived this cycle, ask again next cycle
 * (the TLM engine's open-ended input). */
#define LPM_MODEL_NOT_YET 2
typedef struct lpm_model_io {
    lpm_sim_source_fn src;
    void *src_ctx;
    lpm_sim_bubble_fn bsrc; /* NULL: no bubbles */
    void *bsrc_ctx;
    lpm_sim_sink_fn sink;
    void *sink_ctx;
} lpm_model_io;

typedef struct lpm_model_stats {
    uint64_t cycles, lookups, bubbles;
    double seconds;        /* CPU seconds inside sc_start */
} lpm_model_stats;

/* 1 when this binary has the SystemC models. */
int lpm_model_built(void);

/* Runs the cycle-accurate model over img (bubbles write it) until the
 * requests are exhausted and every lookup is out, as lpm_sim_run does. */
int lpm_model_run(lpm_image *img, const lpm_model_cfg *cfg, const lpm_model_io *io, lpm_model_stats *st,
                  lpm_err *err);

/* ---- the TLM-2.0 engine's latency model (models/model_calib.c, plain C
 * on the simulator library, which model verify holds cycle-equal to the
 * cycle-accurate model) ---- */

#define LPM_MODEL_CAL_POINTS 12
typedef struct lpm_model_calib {
    double lpc_max;                       /* lookups per cycle at saturation */
    unsigned n;                           /* points, by increasing load */
    double load[LPM_MODEL_CAL_POINTS];    /* offered lookups per cycle */
    double lat_mean[LPM_MODEL_CAL_POINTS];/* cycles, DIT read to output */
    double lat_p99[LPM_MODEL_CAL_POINTS];
    uint64_t bubble_cycles;               /* a bubble's trip: window to leaving the last stage */
} lpm_model_calib;

/* Runs the simulator with cfg's pipeline over keys[0..n) at saturation
 * and at fractions 0.1 .. 0.99 of it (--load), on a copy of img. */
int lpm_model_calibrate(const lpm_image *img, const lpm_model_cfg *cfg, const lpm_addr *keys, size_t n,
                        lpm_model_calib *cal, lpm_err *err);
/* Mean latency in cycles at a load (lookups per cycle), interpolated;
 * beyond the last point, the last point's. */
double lpm_model_calib_latency(const lpm_model_calib *cal, double load);

/* ---- the line card (models/linecard.cpp): a packet source at a rate,
 * an input FIFO, lookup contexts calling the TLM engine, update bubbles
 * as write transactions ---- */

typedef struct lpm_linecard_cfg {
    lpm_model_cfg mc;        /* the pipeline and its clock */
    int fast;                /* 1: loosely-timed engine (interpreter + calibrated latency) */
    const lpm_model_calib *cal; /* fast mode's latency model */
    double rate_pps;         /* packets (lookups) per second offered; 0: back to back,
                                each context with a TLM quantum keeper (no FIFO) */
    const double *times;     /* NULL, or packet i's arrival in seconds (non-decreasing,
                                a trace's own timing; the first packet arrives at 0) */
    unsigned fifo;           /* input FIFO entries (a full FIFO drops the packet) */
    unsigned contexts;       /* lookups the line card keeps in flight */
    double update_rate;      /* updates per second (0: none) */
} lpm_linecard_cfg;

/* One update's bubbles, in order (the bubble file's grouping). */
typedef struct lpm_linecard_update {
    const lpm_sim_bubble *b;
    size_t n;
} lpm_linecard_update;

typedef struct lpm_linecard_report {
    uint64_t offered, answered, dropped, updates, bubbles, checked, mismatches;
    double sim_seconds;      /* simulated time, first packet to last answer */
    double lookups_per_s;    /* answered / simulated time */
    double lat_p50_ns, lat_p99_ns, lat_max_ns; /* packet arrival to answer */
    double need_per_clock;   /* offered rate / clock: lookups per cycle the engine must sustain
                                (back to back: the lookups per cycle it took; a timed trace:
                                its mean rate) */
    double peak_per_clock;   /* a timed trace: the most packets in any 1 us, per clock */
    double cpu_seconds;      /* host CPU time inside sc_start */
} lpm_linecard_report;

/* check (may be NULL): answers compared with lpm_image_lookup on it (give
 * it only without updates). */
int lpm_linecard_run(lpm_image *img, const lpm_linecard_cfg *cfg, const lpm_addr *keys, size_t n,
                     const lpm_linecard_update *upd, size_t nupd, const lpm_image *check, lpm_linecard_report *rep,
                     lpm_err *err);

#endif
