/* The cycle-level simulator of CAMP ring and write-bubble linear pipelines.
 *
 * The rules it implements are docs/microarchitecture.md, word for word; the
 * generated RTL must reproduce its cycle log. The core knows nothing of the
 * image format: it walks lookups through a walker (the pipeline image, a
 * synthetic workload, or a test's hand-made memory), pulls requests from a
 * source callback (streaming: memory does not grow with trace length) and
 * hands finished lookups to a sink callback. */
#ifndef LPM_SIM_H
#define LPM_SIM_H

#include <stdint.h>
#include <stdio.h>

#include "../core/err.h"
#include "sim_visit.h"

/* What the simulator needs from a pipeline: the image's dispatch/visit pair,
 * and a write port for bubbles. */
typedef struct lpm_sim_walker {
    void *ctx;
    unsigned stages;
    int ring; /* 0: linear */
    void (*dispatch)(void *ctx, const lpm_addr *key, lpm_visit *v);
    void (*visit)(void *ctx, lpm_visit *v);
    void (*write)(void *ctx, unsigned stage, uint32_t addr, uint64_t word);
    unsigned active; /* the copy the DIT select names at cycle 0 (image with a shadow copy) */
} lpm_sim_walker;

/* One write of a bubble; a bubble carries at most one per stage, and at
 * most one into the direct index table (stage LPM_SIM_DIT). */
#define LPM_SIM_DIT 0xFFFFu
/* The write port's other use: stage LPM_SIM_SWAP, addr = the copy the DIT
 * select names from now on (a swap bubble entering the window). */
#define LPM_SIM_SWAP 0xFFFEu
typedef struct lpm_sim_write {
    unsigned stage;
    uint32_t addr;
    uint64_t word;
} lpm_sim_write;

#define LPM_SIM_MAX_STAGES 256

/* Bubble flags (docs/microarchitecture.md, "Rebuilds and the swap"). */
#define LPM_SIM_B_DRAIN 1u   /* enters only when no earlier bubble is in flight */
#define LPM_SIM_B_FENCE 2u   /* enters only when no lookup of the inactive copy is in flight */
#define LPM_SIM_B_SWAP 4u    /* no writes; drain, then the DIT select becomes `copy` */
#define LPM_SIM_B_SHADOW 8u  /* part of a rebuild: its writes go into the inactive copy */

typedef struct lpm_sim_bubble {
    unsigned nw;
    lpm_sim_write w[LPM_SIM_MAX_STAGES + 1];
    uint64_t ready;   /* first cycle it may enter the dispatch window */
    uint64_t update;  /* the update it belongs to (its U line's number) */
    uint64_t uord;    /* that update's position in the file (1, 2, ...) */
    int first, last;  /* first / last bubble of its update */
    unsigned flags;   /* LPM_SIM_B_* */
    unsigned copy;    /* shadow / swap: the copy the rebuild writes */
    uint32_t copy_crc;/* swap: CRC of that copy after the rebuild (0: none given) */
    uint64_t seq;     /* set by the simulator: 0, 1, ... in entry order */
} lpm_sim_bubble;

typedef struct lpm_sim_cfg {
    unsigned hop;          /* D: clocks per hop (1: the papers' one-cycle rules;
                              2 or more: the hardware rules v2) */
    unsigned ports;        /* P: items each stage serves per cycle (1 or 2) */
    double result_ready;   /* D >= 2: fraction of cycles the result port is
                              ready (lpm_sim_ready); 0 or 1: always */
    unsigned queue;        /* per-stage queue depth (0: no queues; D >= 2: >= 1) */
    unsigned width;        /* issue width W */
    unsigned lookahead;    /* 0: in-order dispatch; K >= W: a K-entry window,
                              items of other entry stages pass a waiting one */
    unsigned rob;          /* reorder buffer entries (0: none) */
    unsigned result_fifo;  /* F > 0: a linear pipeline under the credit rules
                              (docs/microarchitecture.md 4.1): F result credits,
                              results in input order; 0: the window rules */
    int dit_queue;         /* D >= 2: a DIT answer joins queue 0 like a lookup and
                              leaves by a stage's result lane (sim --dit-answers
                              queue); 0: by its own lane from the window */
    double load;           /* offered requests per cycle (0: continuous backlog) */
    uint64_t warmup;       /* cycles left out of the steady-state window */
    int drain_updates;     /* run on (no lookups) until the bubble source is empty */
    int fault;             /* LPM_SIM_FAULT_*: a planted fault, to show the checks catch it */
    unsigned fault_cycles; /* SWAP_EARLY: how many cycles early (default 1) */
    FILE *cycle_log;       /* NULL: none */
} lpm_sim_cfg;

enum {
    LPM_SIM_FAULT_NONE = 0,
    LPM_SIM_FAULT_SWAP_EARLY, /* a swap enters fault_cycles cycles before the last bubble ahead has left */
    LPM_SIM_FAULT_NO_FENCE    /* a fence bubble does not wait for the old copy's lookups */
};

void lpm_sim_cfg_default(lpm_sim_cfg *c);

/* Result back-pressure (docs/microarchitecture.md, step 1): the ready
 * pattern lives in ready.h, which the RTL testbench includes too. */
#include "ready.h"

/* A request source: fills *key with the next request's address; returns 1,
 * 0 at the end, or -1 on error (message in err). */
typedef int (*lpm_sim_source_fn)(void *ctx, lpm_addr *key, lpm_err *err);
/* A bubble source: fills *b with the next bubble (b->ready set); 1, 0, -1. */
typedef int (*lpm_sim_bubble_fn)(void *ctx, lpm_sim_bubble *b, lpm_err *err);

/* What the sink sees for each lookup, in output order (exit order, or
 * input order with a reorder buffer). */
typedef struct lpm_sim_result {
    uint64_t id;           /* input order, from 0 */
    lpm_addr key;
    uint32_t nh;           /* the pipeline's answer */
    uint64_t dit_cycle;    /* cycle it read the direct index table */
    uint64_t exit_cycle;   /* cycle of its last read (or of its DIT answer) */
    uint64_t out_cycle;    /* exit_cycle, or its reorder-buffer release */
    unsigned visits, loops;
    uint32_t tag;          /* what the DIT hook returned (0 without one) */
    uint32_t tag_exit;     /* what the exit hook returned at its exit (0 without one) */
} lpm_sim_result;
/* Returns 0, or non-zero to stop the run with that status (err filled). */
typedef int (*lpm_sim_sink_fn)(void *ctx, const lpm_sim_result *r, lpm_err *err);

#define LPM_SIM_LAT_BUCKETS 4096 /* latency histogram; the last one is "more" */
#define LPM_SIM_QHIST_MAX 256    /* queue occupancy histogram buckets */

typedef struct lpm_sim_stats {
    uint64_t cycles;           /* total simulated cycles */
    uint64_t requests;         /* lookups that came out */
    uint64_t win_start, win_end, win_cycles, win_exits;
    double lpc, util;
    uint64_t busy[LPM_SIM_MAX_STAGES];       /* busy lane-cycles in the window */
    uint64_t qsum[LPM_SIM_MAX_STAGES], qmax[LPM_SIM_MAX_STAGES];
    uint64_t *qhist;           /* stages x (queue+1) end-of-cycle occupancies */
    uint64_t stall_queue, stall_rob;   /* dispatcher stall cycles (window) */
    uint64_t stall_res;        /* D >= 2: a DIT answer found its result lane full */
    uint64_t dit_answers;      /* answered by the direct index table */
    uint64_t lat_min, lat_max, lat_sum;
    uint64_t *lat_hist;        /* LPM_SIM_LAT_BUCKETS */
    uint64_t loops_sum, loops_max, visits_sum;
    uint64_t rob_sum, rob_max;
    uint64_t bubbles, bubble_wait;  /* bubbles through the last stage; cycles
                                       from ready to entering stage 0 */
    uint64_t bubbles_entered;       /* bubbles that entered the window */
    uint64_t swaps;                 /* swap bubbles that entered (rebuilds made live) */
    uint64_t fence_wait, drain_wait;/* cycles a ready bubble waited for its fence / drain */
    uint64_t rebuild_cycles;        /* from a rebuild's first bubble entering to its swap, summed */
    uint64_t rebuild_outputs;       /* lookups output in those cycles */
    /* The rebuild rules as the run kept them (docs/microarchitecture.md,
     * "Rebuilds and the swap"): a rebuild's write into copy c after the
     * swap made c live, or while a lookup walks c. First one described. */
    uint64_t copy_violations;
    uint64_t viol_cycle, viol_lookups;
    unsigned viol_stage, viol_copy, viol_kind; /* kind 1: after its swap; 2: lookups walk the copy */
    uint32_t viol_addr;
} lpm_sim_stats;

typedef struct lpm_sim lpm_sim;

int lpm_sim_new(lpm_sim **out, const lpm_sim_walker *w, const lpm_sim_cfg *cfg, lpm_err *err);
void lpm_sim_free(lpm_sim *s);

/* Runs until the source is exhausted and every lookup and bubble is out.
 * Bubbles (bsrc may be NULL) come in file order with non-decreasing ready
 * cycles. Returns LPM_OK, or the source's/sink's failure. */
int lpm_sim_run(lpm_sim *s, lpm_sim_source_fn src, void *src_ctx,
                lpm_sim_bubble_fn bsrc, void *bsrc_ctx,
                lpm_sim_sink_fn sink, void *sink_ctx, lpm_err *err);

/* Filled by lpm_sim_run; valid until lpm_sim_free. */
const lpm_sim_stats *lpm_sim_get_stats(const lpm_sim *s);
/* Latency percentile (0..100) from the histogram. */
uint64_t lpm_sim_latency_pct(const lpm_sim_stats *st, double pct);

/* Hook called at the cycle a bubble enters the dispatch window (and writes
 * the direct index table) and the cycle it leaves the last stage (for
 * shadow images that judge consistency). */
typedef void (*lpm_sim_bubble_hook)(void *ctx, const lpm_sim_bubble *b, int leaving);
void lpm_sim_set_bubble_hook(lpm_sim *s, lpm_sim_bubble_hook fn, void *ctx);
/* Hook called when a request reads the direct index table; what it returns
 * comes back in the result's tag (the checker keeps the answer the table
 * gave at that cycle there). */
typedef uint32_t (*lpm_sim_dit_hook)(void *ctx, uint64_t id, const lpm_addr *key);
void lpm_sim_set_dit_hook(lpm_sim *s, lpm_sim_dit_hook fn, void *ctx);
/* The same once nothing entering later can change a lookup's answer: at
 * its exit, or under the credit rules at its DIT read (it stays behind
 * every bubble that entered before it); what it returns comes back in
 * tag_exit. */
void lpm_sim_set_exit_hook(lpm_sim *s, lpm_sim_dit_hook fn, void *ctx);

#endif
