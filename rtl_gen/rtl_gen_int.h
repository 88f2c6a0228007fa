/* Inside rtl_gen: file helpers and the emitters of each generated file. */
#ifndef LPM_RTL_GEN_INT_H
#define LPM_RTL_GEN_INT_H

#include <stdio.h>

#include "../mapper/map.h"
#include "rtl_gen.h"

/* Opens DIR/NAME for writing and writes the header, each line behind the
 * comment marker cm ("//", "#"; NULL: no header). */
int lpm_rtl_open(FILE **fp, const char *dir, const char *name, const char *header, const char *cm, lpm_err *err);
int lpm_rtl_close(FILE *fp, const char *dir, const char *name, lpm_err *err);
/* DIR/NAME: the header as lpm_rtl_open writes it, then text. */
int lpm_rtl_write_text(const char *dir, const char *name, const char *header, const char *cm, const char *text,
                       lpm_err *err);
/* The block RAM library of LPM_RTL_ICE40_SYNTH (lpm_ice40_brams.txt,
 * lpm_ice40_brams_map.v), into DIR. */
int lpm_rtl_write_ice40_lib(const char *dir, const char *header, lpm_err *err);

/* lpm_item.vh: the shape's numbers as localparams. */
void lpm_rtl_emit_item_vh(FILE *fp, const lpm_rtl_shape *sh);
/* PF_a / PF_k / PF_b: the next read's address, key and bit position after a
 * word with block index blk (fab bits), the remaining key rem and bit
 * position bp, for the target stage tsel (any: J may name any stage; else
 * the constant t0). */
void lpm_rtl_emit_next(FILE *fp, const lpm_image *img, const lpm_rtl_shape *sh, const char *pf, const char *blk,
                       unsigned fab, const char *rem, const char *bp, const char *tsel, int any, unsigned t0);
/* A memory with one write port (we, waddr, wdata) and nrd read ports
 * (address raddr, word rdata: printf formats of the port number), every one
 * on the rising edge, contents from base.hex. The read enable: re ("1'b1":
 * every cycle; a named wire; NULL: not we). A word that tiles block RAM
 * badly (lpm_fpga_split) is held as parts side by side, each from
 * base_part_K.hex (gen.c writes them). */
void lpm_rtl_emit_mem_re(FILE *fp, const char *base, uint64_t depth, unsigned width, unsigned nrd, const char *waddr,
                         const char *wdata, const char *raddr, const char *rdata, const char *re);
int lpm_rtl_emit_dit(const lpm_image *img, const lpm_rtl_shape *sh, const char *dir, const char *header, lpm_err *err);
int lpm_rtl_emit_stages(const lpm_image *img, const lpm_rtl_shape *sh, const char *dir, const char *header,
                        lpm_err *err);
int lpm_rtl_emit_pipe(const lpm_rtl_shape *sh, const char *dir, const char *header, lpm_err *err);
/* lpm_pipe's parts (gen_pipe_parts.c), which both forms share (gen_pipe.c,
 * gen_credit.c): the busy flags' count, its ports, a stage's instance, the
 * copy rules, the DIT index */
unsigned lpm_rtl_busy_flags(const lpm_rtl_shape *sh);
void lpm_rtl_emit_pipe_ports(FILE *fp, const lpm_rtl_shape *sh, int dbg, int pipe, const char *name);
void lpm_rtl_emit_stage_inst(FILE *fp, const lpm_rtl_shape *sh, unsigned s);
void lpm_rtl_emit_copy(FILE *fp, const lpm_rtl_shape *sh);
void lpm_rtl_emit_dit_index(FILE *fp, const lpm_rtl_shape *sh, unsigned k);
void lpm_rtl_emit_pipe_credit(FILE *fp, const lpm_rtl_shape *sh);

/* Which ports stage s has beyond the common ones (gen_stage.c writes them,
 * gen_pipe.c wires them): copies of its hop valid bit for the next stage's
 * queue (the linear pipeline's rider only: a ring stage's valid bit depends
 * on the word), its bubble table read a cycle early by the bubble number of
 * the stage before (s >= 1), and that number given to the next stage. */
static inline int lpm_rtl_stage_feeds_q(const lpm_rtl_shape *sh, unsigned s) { return sh->ring || (s + 1 == sh->n && !sh->f); }
/* the stage takes its queue's head when no item passes (the credit rules: no queue) */
static inline int lpm_rtl_stage_has_q(const lpm_rtl_shape *sh, unsigned s) { return sh->ring || (s == 0 && !sh->f); }
/* (the credit rules: stage 0 too, by the number of the bubble the entry register takes) */
static inline int lpm_rtl_stage_bt_early(const lpm_rtl_shape *sh, unsigned s) { return (s >= 1 || sh->f) && s + 1 < sh->n; }
static inline int lpm_rtl_stage_gives_bt_ra(const lpm_rtl_shape *sh, unsigned s) { return s + 2 < sh->n; }
/* one request lane at D >= 3 under the window rules: lpm_ctl3.v's control
 * (items made before the window); lpm_ctl.v keeps the D = 2 one as measured */
static inline int lpm_rtl_ctl3(const lpm_rtl_shape *sh) { return !sh->f && sh->w == 1 && sh->d >= 3; }
/* D >= 3: a ring stage's pass-bit copies for the next queue are whole (the
 * word is a register at the decision), and under the window rules its
 * control bits come from the first hold register (gen_stage.c) */
static inline int lpm_rtl_whole_pass(const lpm_rtl_shape *sh) { return sh->ring && sh->d >= 3; }
/* lpm_ctl3.v's queue (one port), whose entries load through kept choices with a
 * pass-bit copy per group of 8 bits (HC copies a queue); the planted
 * queue-order fault lives in lpm_queue.v only */
static inline int lpm_rtl_queue3(const lpm_rtl_shape *sh)
{
    return lpm_rtl_ctl3(sh) && sh->p == 1 && sh->mutate != LPM_RTL_MUT_QUEUE_ORDER;
}
/* lpm_queue3's ring stage: the hop's valid bit from riding parts (hz, hy)
 * and the lane's room in the last LUT (gen_stage.c) */
static inline int lpm_rtl_hop_parts(const lpm_rtl_shape *sh) { return lpm_rtl_queue3(sh); }
static inline const char *lpm_rtl_hvc(const lpm_rtl_shape *sh) { return lpm_rtl_queue3(sh) ? "HC" : "Q+2"; }
static inline int lpm_rtl_late_bits(const lpm_rtl_shape *sh) { return sh->d >= 3 && !sh->f; }

#endif
