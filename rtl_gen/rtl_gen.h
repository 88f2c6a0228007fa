/* The Verilog generator: a pipeline image plus the microarchitecture options
 * of lpmpipe sim (queue depth, issue width, reorder buffer) become a folder
 * of Verilog-2005, $readmemh files, a README, a Makefile and the Verilator
 * testbench that replays a stimulus and writes the simulator's cycle log
 * (docs/cli-rtl.md). */
#ifndef LPM_RTL_GEN_H
#define LPM_RTL_GEN_H

#include "../core/err.h"
#include "../mapper/image.h"

enum lpm_rtl_mutation {
    LPM_RTL_MUT_NONE = 0,
    LPM_RTL_MUT_QUEUE_BEATS_PASS = 1 /* the queue head takes the stage; the passing item is parked in the queue */
};

typedef struct lpm_rtl_opts {
    unsigned queue, width, rob;
    int mutate;                      /* enum lpm_rtl_mutation */
    unsigned hop, ports;             /* the cycle rules asked for (0 reads as 1); the
                                        generator implements hop 1, ports 1 only */
} lpm_rtl_opts;

/* The cycle rules the generated RTL implements (docs/cli-rtl.md). */
#define LPM_RTL_HOP 1u
#define LPM_RTL_PORTS 1u

/* Every width the generated modules and the testbench agree on. */
typedef struct lpm_rtl_shape {
    unsigned n, ring, q, w, r;
    unsigned kb, id, sb, ab, nb, pb, wb, x, xi, db, bqb, stage_bits;
    unsigned iw, bsw, bw, l, qcb, wcb;
    unsigned o_tag, o_nh, o_stg, o_addr, o_bp, o_key;
} lpm_rtl_shape;

int lpm_rtl_shape_of(const lpm_image *img, const lpm_rtl_opts *o, lpm_rtl_shape *sh, lpm_err *err);

/* Writes the folder (created if missing). name is the image as the user
 * gave it: it goes into the header of every generated file. */
int lpm_rtl_generate(const lpm_image *img, const char *name, const lpm_rtl_opts *o, const char *dir, lpm_err *err);

/* The embedded fixed texts (rtl_gen/lpm_core.v, rtl_gen/tb.cpp, ...). */
extern const char lpm_rtl_lpm_core_v[], lpm_rtl_tb_cpp[], lpm_rtl_tb_icarus_v[];

const char *lpm_rtl_mutation_name(int m);

#endif
