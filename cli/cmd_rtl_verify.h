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
    int ignore_crc;       /* --ignore-image-crc */
    lpm_rtl_opts o;
} lpm_verify_opts;

typedef struct lpm_verify_run {
    char work[4096];      /* the work folder (absolute) */
    int tmp;              /* made here: removed at the end */
    lpm_image *img;
    lpm_rtl_keys keys;
    lpm_rtl_cmp cmp;
    uint64_t bubbles;     /* handed to the testbench */
    lpm_rtl_bubs bc;      /* the bubble file's counts, each bubble's update (updates.applied) */
    const char *gate_note; /* gate level: "same", "differs", or why it did not run */
} lpm_verify_run;

/* The whole run; LPM_OK with the comparison's counts in r->cmp, or an
 * exit status with the reason printed. */
int lpm_verify_run_all(const lpm_verify_opts *v, lpm_verify_run *r);
void lpm_verify_run_free(lpm_verify_run *r);

#endif
