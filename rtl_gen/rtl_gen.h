/* The Verilog generator: a pipeline image plus the microarchitecture options
 * of lpmpipe sim (hop cycles D >= 2, ports, queue depth, issue width) become
 * a folder of Verilog-2005, $readmemh files, a README, a Makefile and the
 * testbenches that replay a stimulus and write the simulator's cycle log
 * (docs/cli-rtl.md). The hardware is docs/microarchitecture.md section 5. */
#ifndef LPM_RTL_GEN_H
#define LPM_RTL_GEN_H

#include "../core/err.h"
#include "../mapper/image.h"

/* Planted faults (rtl verify must catch each; docs/cli-rtl.md). */
enum lpm_rtl_mutation {
    LPM_RTL_MUT_NONE = 0,
    LPM_RTL_MUT_QUEUE_ORDER,    /* a queue hands out its newest entry first when it holds three or more */
    LPM_RTL_MUT_QUEUE_CAP,      /* the dispatcher's credit allows one entry more than the queue holds */
    LPM_RTL_MUT_BUBBLE_ADDR,    /* a bubble writes stage 1 at the address after the one it carries */
    LPM_RTL_MUT_SWAP_EARLY,     /* a swap bubble does not wait for the bubbles in flight (shadow-copy images) */
    LPM_RTL_MUT_BUSY_EARLY,     /* lpm_top's registered busy holds an offer one cycle, not the tree's depth */
    LPM_RTL_MUT_COUNT
};

typedef struct lpm_rtl_opts {
    unsigned queue, width, rob;
    unsigned hop, ports;             /* the cycle rules (0 reads as the default: 2, 1) */
    unsigned fifo;                   /* F > 0: a linear pipeline under the credit rules, F result credits */
    int dit_queue;                   /* DIT answers through queue 0 (sim --dit-answers queue) */
    int mutate;                      /* enum lpm_rtl_mutation */
} lpm_rtl_opts;

/* Every width and field position the generated modules (lpm_item.vh) and
 * the testbenches (tb_cfg.h) agree on, computed once from the image and the
 * options. Items (queue entries, hop registers) are one packed vector. */
typedef struct lpm_rtl_shape {
    unsigned n, ring, p, d, q, w;    /* stages, ring, ports, hop cycles, queue depth, issue width */
    unsigned c;                      /* window entries: W * (D + 1) */
    unsigned nq;                     /* queues built: N (ring), 1 (linear: queue 0 only) */
    unsigned nrl, l;                 /* stage lanes with a result lane; result lanes (nrl + W) */
    unsigned kb, x, xi, kr, kp;      /* key bits, initial stride, DIT index bits, key bits after the DIT, key field */
    unsigned wb, db, nb, sb, aw, pb; /* word, DIT entry, next hop, stage, word address, bit position */
    unsigned t, bqb, tg;             /* lookup tag, bubble number, tag field */
    unsigned qcb, wnb, fnb;          /* queue count, pushes per cycle, window count */
    unsigned bsw, bw, rdw, slw, wtw; /* one stage's bubble write, the bubble port, a result, log slot, log window token */
    unsigned f_v, f_b, f_done, f_wen, f_nhv, f_tag, f_nh, f_stg, f_addr, f_bp, f_key, iw;
    unsigned cp, act, bf;            /* copies (2: a shadow copy, DIT select), the active one, the bubble flags in bub_data */
    unsigned f, rfb;                 /* the credit rules: result credits (0: the window rules), result FIFO address bits */
    unsigned dq;                     /* DIT answers through queue 0 (lpm_ctl3 only) */
    lpm_word_layout wl, dl;          /* the image's node word and DIT entry layouts */
    int mutate;
} lpm_rtl_shape;

int lpm_rtl_shape_of(const lpm_image *img, const lpm_rtl_opts *o, lpm_rtl_shape *sh, lpm_err *err);

/* Writes the folder (created if missing). name is the image as the user
 * gave it: it goes into the header of every generated file. */
int lpm_rtl_generate(const lpm_image *img, const char *name, const lpm_rtl_opts *o, const char *dir, lpm_err *err);

/* The embedded fixed texts (rtl_gen/lpm_ctl.v, ..., sim/ready.h). */
extern const char lpm_rtl_lpm_ctl_v[], lpm_rtl_lpm_ctl3_v[], lpm_rtl_lpm_queue_v[], lpm_rtl_lpm_rlane_v[], lpm_rtl_lpm_credit_v[], lpm_rtl_tb_cpp[],
    lpm_rtl_tb_icarus_v[], lpm_rtl_ready_h[], lpm_rtl_lpm_ice40_brams_txt[], lpm_rtl_lpm_ice40_brams_map_v[];

/* Yosys's iCE40 flow for a top module (a string literal), as rtl synth and
 * the gate-level check run it: synth_ice40 with the block RAMs mapped first
 * by the generated folder's lpm_ice40_brams.txt and lpm_ice40_brams_map.v
 * (whole-word writes: the write enable on WCLKE, no mask), then by Yosys's
 * own library, whose write mask passes an inverter LUT, only where its
 * masks save a block. */
#define LPM_RTL_ICE40_SYNTH(top)                                                                           \
    "synth_ice40 -top " top " -run :map_ram; memory_libmap -lib lpm_ice40_brams.txt -lib +/ice40/brams.txt; " \
    "techmap -map lpm_ice40_brams_map.v -map +/ice40/brams_map.v; ice40_braminit; "                          \
    "synth_ice40 -top " top " -run map_ffram:"

const char *lpm_rtl_mutation_name(int m);
/* LPM_RTL_MUT_* of a name, or -1. */
int lpm_rtl_mutation_of(const char *name);

#endif
