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
    const char *tb_note_path;
    uint64_t cycles, first_cycle;
    uint64_t cycle_bad, result_bad, ref_checked, ref_bad, icarus_bad;
} lpm_rtl_cmp;

int lpm_rtl_compare(lpm_rtl_cmp *c, const char *simlog, const char *rtllog, const char *simres,
                    const char *rtlres, lpm_err *err);
/* Runs tb_icarus.v on the same keys and compares its results with the
 * simulator's (id, next hop, cycles). */
int lpm_rtl_icarus(lpm_rtl_cmp *c, const char *rtl, const char *work, int bubbles, const char *simres, lpm_err *err);
uint64_t lpm_rtl_cmp_total(const lpm_rtl_cmp *c);

#endif
