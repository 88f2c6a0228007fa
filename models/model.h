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

typedef struct lpm_model_cfg {
    unsigned hop;          /* D, clocks per hop (1..16) */
    unsigned ports;        /* P, 1 or 2 */
    unsigned queue;        /* Q per stage (D >= 2: at least 1) */
    unsigned width;        /* W, issue width */
    unsigned rob;          /* reorder buffer entries (0: none) */
    double result_ready;   /* D >= 2: fraction of ready cycles (1: always) */
    double clock_mhz;      /* the sc_clock's frequency */
    int mutate;            /* enum lpm_model_mutation */
    FILE *cycle_log;       /* NULL: none */
} lpm_model_cfg;

/* Same defaults as lpm_sim_cfg_default: D 2, P 1, Q 16, W 1, R 0; 200 MHz. */
void lpm_model_cfg_default(lpm_model_cfg *c);
/* LPM_EINPUT with the reason for a configuration the rules refuse. */
int lpm_model_cfg_check(const lpm_model_cfg *c, const lpm_image *img, lpm_err *err);
/* "dit-late", "queue-capacity"; LPM_EINPUT for another name. */
int lpm_model_mutation_parse(const char *s, int *out, lpm_err *err);

/* Where requests come from, bubbles come from, and results go (output
 * order), exactly as lpm_sim_run takes them. */
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

#endif
