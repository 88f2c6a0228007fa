/* rtl verify, in three parts: its options (cli/cmd_rtl_verify.c parses them), the run
 * (cli/cmd_rtl_verify_run.c: the simulator, the Verilated model, Icarus, the gate-level
 * netlist, each on one stimulus) and the comparison (rtl_gen/verify_cmp.c). */
#ifndef LPM_RTL_VERIFY_H
#define LPM_RTL_VERIFY_H

#include <stdint.h>

#include "../rtl_gen/rtl_gen.h"
#include "../rtl_gen/tb_build.h"
#include "../rtl_gen/verify_cmp.h"

typedef struct lpm_verify_opts {
    const char *image, *trace, *gen, *updates, *vcd, *bdir, *cache;
    uint64_t count, seed;
    double urate, clock_mhz;
    double load;          /* requests per cycle (0: a backlog), as sim --load */
    double ready;         /* result port ready fraction, as sim --result-ready */
    int icarus, gate, json;
    int timing;           /* --timing: both sides timed again after the comparison */
    int ignore_crc;       /* --ignore-image-crc */
    lpm_rtl_opts o;
} lpm_verify_opts;

typedef struct lpm_verify_run {
    char work[4096];      /* the work folder (absolute) */
    char rtl[4200], exe[4200]; /* the generated folder and the Verilated model, once built */
    int tmp;              /* made here: removed at the end */
    lpm_image *img;
    lpm_rtl_keys keys;
    lpm_rtl_cmp cmp;
    uint64_t bubbles;     /* handed to the testbench */
    lpm_rtl_bubs bc;      /* the bubble file's counts, each bubble's update (updates.applied) */
    const char *gate_note; /* gate level: "same", "differs", or why it did not run */
    struct {               /* the simulator's own checks (its sim.json), as sim --json's "check" */
        char against[64];  /* "interpreter before/after each update", "reference", ... */
        uint64_t checked, mismatches, swaps, swaps_checked, swap_crc_mismatches, copy_violations;
    } sim;
    struct {               /* --timing (cmd_rtl_verify_time.c): medians, CPU time */
        int runs;
        double sim_cps, rtl_cps; /* cycles/s: lpmpipe sim --no-check, the model without a cycle log */
    } timing;
} lpm_verify_run;

/* lpmpipe sim's command line for the run (cmd_rtl_verify_run.c): a holds
 * LPM_VERIFY_SIM_ARGS pointers, of which the returned count are filled and
 * NULL-terminated, with room left for a few more. */
#define LPM_VERIFY_SIM_ARGS 56
typedef struct lpm_verify_simargs {
    char num[11][64];
} lpm_verify_simargs;
int lpm_verify_sim_argv(const lpm_verify_opts *v, const char *trace, lpm_verify_simargs *sa, char **a);

/* The Verilated model (exe, run in rtl) on the run's stimulus (cmd_rtl_verify_run.c):
 * cycle log LOG ("-": none), results RES, stderr ERR, all named in the work folder. */
int lpm_verify_model(const lpm_verify_opts *v, const char *work, const char *rtl, const char *exe, const char *log,
                     const char *res, const char *err);

/* --timing: the simulator (sim --preload --timing --no-check) and the model
 * (no cycle log) again on the stimulus, LPM_VERIFY_TIMING_RUNS times each,
 * alternating; their median cycles/s into r->timing. 0, or 1 said. */
#define LPM_VERIFY_TIMING_RUNS 3
int lpm_verify_timing(const lpm_verify_opts *v, lpm_verify_run *r);

/* The whole run; LPM_OK with the comparison's counts in r->cmp, or an
 * exit status with the reason printed. */
int lpm_verify_run_all(const lpm_verify_opts *v, lpm_verify_run *r);
void lpm_verify_run_free(lpm_verify_run *r);

#endif
