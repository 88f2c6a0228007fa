/* rtl verify's comparison: the simulator's cycle log and results against
 * the RTL testbench's, and every RTL answer against the reference LPM. */
#ifndef LPM_RTL_VERIFY_CMP_H
#define LPM_RTL_VERIFY_CMP_H

#include <stddef.h>
#include <stdint.h>

#include "rtl_gen.h"

typedef struct lpm_rtl_keys {
    lpm_addr *a;
    size_t n, cap;
} lpm_rtl_keys;

typedef struct lpm_rtl_cmp {
    const lpm_image *img;
    const lpm_rtl_keys *keys;
    int check_ref;              /* no updates: answers against the reference LPM */
    uint64_t cycles, first_cycle, first_result;
    uint64_t cycle_bad, result_bad, ref_checked, ref_bad, icarus_bad;
} lpm_rtl_cmp;

int lpm_rtl_compare(lpm_rtl_cmp *c, const char *simlog, const char *rtllog, const char *simres,
                    const char *rtlres, lpm_err *err);
/* The second simulators' stimulus: the generated folder, the work folder
 * (keys.hex, bubbles.txt, rtl.res), --load, --result-ready. */
typedef struct lpm_rtl_second_opts {
    const char *rtl, *work;
    const lpm_rtl_shape *sh;
    double load, ready;
} lpm_rtl_second_opts;
/* Runs tb_icarus.v on the same stimulus, bubbles included; its results
 * must be the Verilated model's (already held against the simulator's)
 * line for line. */
int lpm_rtl_icarus(lpm_rtl_cmp *c, const lpm_rtl_second_opts *o, lpm_err *err);
/* The gate-level check: Yosys synth_ice40 of lpm_tb_top, simulated by
 * Icarus with the iCE40 cell models; *note: "same", "differs" or why it
 * was not run. A difference counts in c->icarus_bad. */
int lpm_rtl_gate(lpm_rtl_cmp *c, const lpm_rtl_second_opts *o, const char **note, lpm_err *err);
uint64_t lpm_rtl_cmp_total(const lpm_rtl_cmp *c);

#endif
