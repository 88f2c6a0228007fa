/* rtl synth's parts: the shells around a generated folder, the Yosys and
 * nextpnr runs and what is read back from their reports (synth_run.c); the
 * command and its report (synth.c). */
#ifndef LPM_RTL_SYNTH_H
#define LPM_RTL_SYNTH_H

#include <stdio.h>

#include "../core/err.h"

#define LPM_SYNTH_MAX_STAGES 255
#define LPM_SYNTH_MAX_SEEDS 15

typedef struct lpm_synth_shape {
    unsigned n, p, w, wb, db, x;            /* from tb_cfg.h and the hex files */
    unsigned d, ring, iw;                    /* hop cycles, ring (1) or linear, item bits (lpm_item.vh) */
    unsigned depth[LPM_SYNTH_MAX_STAGES];    /* words per stage memory */
    unsigned max_depth;
} lpm_synth_shape;

typedef struct lpm_synth_fig {
    /* Xilinx 7-series (synth_xilinx) */
    long bram18, bram36, lut, lutram, ff, carry, dsp;
    long stage_lut[LPM_SYNTH_MAX_STAGES], stage_ff[LPM_SYNTH_MAX_STAGES];
    double stage_bits, dit_bits;             /* memory bits the image needs */
    /* iCE40 HX8K (synth_ice40, nextpnr-ice40) */
    int ice_run, placed, bare_placed;
    long lc, lc_total, ram, ram_total;       /* nextpnr's device utilisation */
    unsigned seeds;                          /* nextpnr runs, seeds 1..seeds, each design */
    double fmax[LPM_SYNTH_MAX_SEEDS];        /* MHz after routing, by seed; 0: none */
    double bare_fmax[LPM_SYNTH_MAX_SEEDS];
    int dp_placed;                           /* the datapath alone (synth_datapath.c) */
    long dp_lc;
    double dp_fmax[LPM_SYNTH_MAX_SEEDS];
    char note[512];
} lpm_synth_fig;

/* Address bits of a memory of WORDS words (at least 1), as the bare loop and
 * the datapath alone declare them. */
static inline unsigned lpm_synth_addr_bits(unsigned words)
{
    unsigned b = 1;
    while ((1u << b) < words)
        b++;
    return b;
}

/* The shape of the folder DIR (a folder lpmpipe rtl wrote). */
int lpm_synth_shape_of(const char *dir, lpm_synth_shape *s, lpm_err *err);
/* synth_shell.v (the pipeline behind two pins) and bare_loop.v (a bare
 * registered block-RAM read loop of the largest stage memory's shape). */
int lpm_synth_write_shells(const char *dir, const lpm_synth_shape *s, lpm_err *err);
/* datapath_only.v: the design's block RAMs and the paths its rules give a
 * lookup, without the control (synth_datapath.c). */
int lpm_synth_write_datapath(const char *dir, const lpm_synth_shape *s, lpm_err *err);
/* The bits f0[n-1:0] folded four a LUT, each level registered, into dout. */
void lpm_synth_write_fold(FILE *fp, unsigned n);
/* Yosys synth_xilinx: the counts. */
int lpm_synth_xilinx(const char *dir, const lpm_synth_shape *s, lpm_synth_fig *f, lpm_err *err);
/* Yosys synth_ice40 and nextpnr-ice40 --hx8k for the pipeline, the bare
 * loop and the datapath alone in one run: fit from the placement, post-route Fmax for each of the
 * placer seeds 1..seeds (nextpnr's seed alone moves it by about 10%). */
int lpm_synth_ice40(const char *dir, double freq, unsigned seeds, lpm_synth_fig *f, lpm_err *err);

#endif
