/* The bubble file (docs/cli-sim.md): one write per line,
 *   BUBBLE UPDATE STAGE ADDRESS WORD
 * bubble and update numbers non-decreasing, STAGE a stage or DIT (65535),
 * at most one write per stage and one DIT write per bubble. */
#ifndef LPM_SIM_BUBBLE_FILE_H
#define LPM_SIM_BUBBLE_FILE_H

#include <stddef.h>

#include "../core/input.h"
#include "sim.h"

typedef struct lpm_sim_bfile {
    lpm_input *in;
    unsigned stages;
    double cpu;          /* cycles per update */
    uint64_t last_bubble, last_update;
    lpm_sim_write held;  /* first write of the next bubble, read ahead */
    uint64_t held_update;
    int have_held;
} lpm_sim_bfile;

int lpm_sim_bfile_open(lpm_sim_bfile *bf, const char *path, unsigned stages, double cycles_per_update, lpm_err *err);
void lpm_sim_bfile_close(lpm_sim_bfile *bf);
int lpm_sim_bfile_next(void *ctx, lpm_sim_bubble *b, lpm_err *err);

#endif
