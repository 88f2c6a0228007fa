/* Printing a run's metrics: JSON first (docs/cli-sim.md), a table second. */
#ifndef LPM_SIM_REPORT_H
#define LPM_SIM_REPORT_H

#include <stdio.h>

#include "sim.h"

typedef struct lpm_sim_report {
    const lpm_sim_stats *st;
    const lpm_sim_cfg *cfg;
    unsigned stages;
    int ring;
    const char *source;          /* what the traffic was, one line */
    double burst, update_rate, clock_mhz;
    const char *check_against;   /* "interpreter", "none", ... */
    uint64_t checked, mismatches, ref_checked, ref_mismatches;
    /* with a bubble file: the whole file's counts (bubbles left = in the
     * file and never applied) */
    int have_updates;
    uint64_t bubbles_in_file, updates_in_file, updates_applied, rebuilds_in_file, swaps;
    uint64_t swaps_checked, swap_crc_mismatches;  /* the new copy at each swap against its R line */
} lpm_sim_report;

void lpm_sim_report_json(FILE *fp, const lpm_sim_report *r);
void lpm_sim_report_table(FILE *fp, const lpm_sim_report *r);

#endif
