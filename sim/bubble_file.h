/* The bubble stream that lpmpipe update --bubbles writes (grammar and the
 * checks in docs/cli-mapper.md, "The bubble file"):
 *   H bubbles=2 family=.. arch=.. stages=.. x=.. word_bits=.. dit_bits=.. copies=.. image_crc=..
 *   U <update> <op> <prefix> <nh> writes=.. bubbles=..
 *   R <update> <reason> copy=C writes=W bubbles=B copy_crc=X   (a rebuild's bubbles follow)
 *   B <bubble> [flag...] STAGE:ADDR:WORD ...   (STAGE D: the DIT; WORD hexadecimal;
 *                                               flags: fence, drain, swap)
 * Opening reads the whole file once and checks it against the image it is
 * applied to (every write must fit the copy it writes; the header must name
 * the image), so a bad file is refused with file:line: reason before
 * anything runs. The bubbles are then read one at a time (streaming): an
 * ordinary update whole (the checker judges it as a whole), a rebuild one
 * bubble at a time (it can hold millions of writes). Nothing is skipped:
 * lpm_sim_bfile_finish reads what the simulator did not take and counts it. */
#ifndef LPM_SIM_BUBBLE_FILE_H
#define LPM_SIM_BUBBLE_FILE_H

#include <stdio.h>

#include "../core/input.h"
#include "../mapper/image.h"
#include "sim.h"

typedef struct lpm_sim_bfile {
    lpm_input *in;
    const lpm_image *img;
    int ignore_crc;      /* a file made for another image is accepted */
    int crc_differs;     /* ... and this one was (the CLI says so) */
    double cpu;          /* cycles per update */
    int fail_code;       /* LPM_EINPUT, or LPM_EFAIL for memory and I/O */
    FILE *spool;         /* the checking pass's copy of a stream that cannot be read twice */
    /* counters */
    uint64_t updates;    /* U lines read */
    uint64_t bubbles;    /* bubbles handed out by lpm_sim_bfile_next */
    uint64_t rebuilds;   /* R lines read */
    /* after lpm_sim_bfile_finish: the whole file */
    uint64_t in_file_updates, in_file_bubbles, in_file_rebuilds;
    uint64_t updates_applied; /* updates before the first bubble that did not go through */
    /* where the reading is */
    int have_header, have_held, eof;
    unsigned active;     /* the live copy at this point of the file */
    uint64_t last_bubble;/* the last B number */
    /* the current update */
    uint64_t update;     /* its U line's number */
    uint64_t uord;       /* its position (1-based) */
    uint64_t want_writes, want_bubbles; /* its U line's counts */
    uint64_t cur_writes, cur_bubbles;   /* its B lines so far */
    int rebuild;         /* 1: its R line came: bubbles stream one at a time */
    unsigned copy;       /* rebuild: the copy written */
    uint32_t copy_crc;
    uint64_t rb_expect, rb_writes; /* rebuild: bubbles and writes its R line announces */
    int rb_swapped;
    /* an ordinary update's bubbles, read ahead (an update is judged as a
     * whole: all its writes are in uw) */
    lpm_sim_bubble *ub;
    size_t nub, cap_ub, next_ub;
    lpm_sim_write *uw;
    size_t nuw, cap_uw;
    char *held;          /* a U line read ahead, waiting */
    size_t held_cap;
} lpm_sim_bfile;

/* Opens path ("-": standard input) for img: checks the whole file (exit-2
 * errors as file:line: reason), then rewinds it for lpm_sim_bfile_next.
 * ignore_crc: accept a header naming another image's CRC (the writes are
 * still checked against img). */
int lpm_sim_bfile_open(lpm_sim_bfile *bf, const char *path, const lpm_image *img, double cycles_per_update,
                       int ignore_crc, lpm_err *err);
void lpm_sim_bfile_close(lpm_sim_bfile *bf);
int lpm_sim_bfile_next(void *ctx, lpm_sim_bubble *b, lpm_err *err);
/* After the run: reads the rest of the file and fills the in_file_*
 * counters and updates_applied. `entered` is the number of bubbles that
 * went into the pipeline (the simulator may hold one more that it fetched
 * and never let in). */
int lpm_sim_bfile_finish(lpm_sim_bfile *bf, uint64_t entered, lpm_err *err);

#endif
