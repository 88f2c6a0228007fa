/* The bubble stream that lpmpipe update --bubbles writes (grammar in
 * docs/cli-mapper.md, "The bubble file"):
 *   U <update> <op> <prefix> <nh> writes=.. bubbles=..
 *   R <update> <reason> copy=C writes=W bubbles=B copy_crc=X   (a rebuild's bubbles follow)
 *   B <bubble> [flag...] STAGE:ADDR:WORD ...   (STAGE D: the DIT; WORD hexadecimal;
 *                                               flags: fence, drain, swap)
 * Read one bubble at a time (streaming): an ordinary update is read whole
 * (the checker judges it as a whole), a rebuild one bubble at a time (it
 * can hold millions of writes). Nothing is skipped: lpm_sim_bfile_finish
 * reads what the simulator did not take and counts it. */
#ifndef LPM_SIM_BUBBLE_FILE_H
#define LPM_SIM_BUBBLE_FILE_H

#include <stddef.h>

#include "../core/input.h"
#include "sim.h"

typedef struct lpm_sim_bfile {
    lpm_input *in;
    unsigned stages;
    double cpu;          /* cycles per update */
    /* counters */
    uint64_t updates;    /* U lines read */
    uint64_t bubbles;    /* bubbles handed out by lpm_sim_bfile_next */
    uint64_t rebuilds;   /* R lines read */
    uint64_t stopped_at; /* a rebuild without a shadow copy (R without copy=) stopped the
                            stream at this update; 0: not stopped */
    /* after lpm_sim_bfile_finish: the whole file */
    uint64_t in_file_updates, in_file_bubbles, in_file_rebuilds;
    uint64_t updates_applied; /* updates before the first bubble that did not go through */
    /* the current update */
    uint64_t update;     /* its U line's number */
    uint64_t uord;       /* its position (1-based) */
    int rebuild;         /* 1: its R line came: bubbles stream one at a time */
    unsigned copy;       /* rebuild: the copy written */
    uint32_t copy_crc;
    uint64_t rb_expect, rb_got; /* rebuild: bubbles announced / read */
    int rb_swapped;
    /* an ordinary update's bubbles, read ahead (an update is judged as a
     * whole: all its writes are in uw) */
    lpm_sim_bubble *ub;
    size_t nub, cap_ub, next_ub;
    lpm_sim_write *uw;
    size_t nuw, cap_uw;
    char *held;          /* a U or R line read ahead, waiting */
    size_t held_cap;
    int have_held, eof;
} lpm_sim_bfile;

int lpm_sim_bfile_open(lpm_sim_bfile *bf, const char *path, unsigned stages, double cycles_per_update, lpm_err *err);
void lpm_sim_bfile_close(lpm_sim_bfile *bf);
int lpm_sim_bfile_next(void *ctx, lpm_sim_bubble *b, lpm_err *err);
/* After the run: reads (and checks) the rest of the file and fills the
 * in_file_* counters and updates_applied. `entered` is the number of
 * bubbles that went into the pipeline (the simulator may hold one more
 * that it fetched and never let in). */
int lpm_sim_bfile_finish(lpm_sim_bfile *bf, uint64_t entered, lpm_err *err);

#endif
