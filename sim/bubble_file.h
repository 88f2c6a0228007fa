/* The bubble stream that lpmpipe update --bubbles writes (docs/cli-mapper.md):
 *   U <update> <op> <prefix> <nh> writes=.. bubbles=..
 *   B <bubble> STAGE:ADDR:WORD ...   (STAGE D: the DIT; WORD hexadecimal)
 *   R <update> <reason>              (a rebuild: the stream stops there)
 * Read one bubble at a time (streaming). */
#ifndef LPM_SIM_BUBBLE_FILE_H
#define LPM_SIM_BUBBLE_FILE_H

#include <stddef.h>

#include "../core/input.h"
#include "sim.h"

typedef struct lpm_sim_bfile {
    lpm_input *in;
    unsigned stages;
    double cpu;          /* cycles per update */
    uint64_t update;     /* the current U line's number */
    uint64_t updates, bubbles, rebuild_at;
    int stopped;
    /* The current update's bubbles, read ahead (an update is judged as a
     * whole: all its writes are in uw). */
    lpm_sim_bubble *ub;
    size_t nub, cap_ub, next_ub;
    lpm_sim_write *uw;
    size_t nuw, cap_uw;
    char *held;          /* a U or R line read ahead, waiting */
    size_t held_cap;
    int have_held;
} lpm_sim_bfile;

int lpm_sim_bfile_open(lpm_sim_bfile *bf, const char *path, unsigned stages, double cycles_per_update, lpm_err *err);
void lpm_sim_bfile_close(lpm_sim_bfile *bf);
int lpm_sim_bfile_next(void *ctx, lpm_sim_bubble *b, lpm_err *err);

#endif
