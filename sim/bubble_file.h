/* The bubble stream that lpmpipe update --bubbles writes (docs/cli-mapper.md):
 *   H bubbles=1 family=.. arch=.. stages=.. x=.. word_bits=.. dit_bits=.. image_crc=..
 *   U <update> <op> <prefix> <nh> writes=.. bubbles=..
 *   B <bubble> STAGE:ADDR:WORD ...   (STAGE D: the DIT; WORD hexadecimal)
 *   R <update> <reason>              (a rebuild: the stream stops there)
 * Opening reads the whole file once and checks it against the image it is
 * applied to (every write must fit the image; the header must name it), so
 * a bad file is refused with file:line: reason before anything runs; the
 * bubbles are then read one at a time (streaming). */
#ifndef LPM_SIM_BUBBLE_FILE_H
#define LPM_SIM_BUBBLE_FILE_H

#include <stddef.h>

#include "../core/input.h"
#include "../mapper/image.h"
#include "sim.h"

typedef struct lpm_sim_bfile {
    lpm_input *in;
    const lpm_image *img;
    int ignore_crc;      /* a file made for another image is accepted */
    int crc_differs;     /* ... and this one was (the CLI says so) */
    double cpu;          /* cycles per update */
    uint64_t update;     /* the current U line's number */
    uint64_t updates, bubbles, rebuild_at, last_bubble;
    int stopped, have_header;
    /* The current update's bubbles, read ahead (an update is judged as a
     * whole: all its writes are in uw). */
    lpm_sim_bubble *ub;
    size_t nub, cap_ub, next_ub;
    lpm_sim_write *uw;
    size_t nuw, cap_uw;
    uint64_t want_writes, want_bubbles; /* the U line's counts (UINT64_MAX: not given) */
    char *held;          /* a U or R line read ahead, waiting */
    size_t held_cap;
    int have_held;
    int fail_code;       /* LPM_EINPUT, or LPM_EFAIL for memory and I/O */
    FILE *spool;         /* the checking pass's copy of a stream that cannot be read twice */
} lpm_sim_bfile;

/* Opens path ("-": standard input) for img: checks the whole file (exit-2
 * errors as file:line: reason), then rewinds it for lpm_sim_bfile_next.
 * ignore_crc: accept a header naming another image's CRC (the writes are
 * still checked against img). */
int lpm_sim_bfile_open(lpm_sim_bfile *bf, const char *path, const lpm_image *img, double cycles_per_update,
                       int ignore_crc, lpm_err *err);
void lpm_sim_bfile_close(lpm_sim_bfile *bf);
int lpm_sim_bfile_next(void *ctx, lpm_sim_bubble *b, lpm_err *err);

#endif
