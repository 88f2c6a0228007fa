/* Inside the simulator: its state, shared by sim.c (configuration, the run
 * loop) and sim_step.c (one clock cycle). */
#ifndef LPM_SIM_INT_H
#define LPM_SIM_INT_H

#include "sim.h"

typedef struct req {
    lpm_visit v;
    uint64_t id, dit_cycle;
    uint32_t tag, tag_exit;  /* the DIT hook's; the exit hook's when called at the DIT read */
    uint32_t hops;      /* stages passed while walking: a guard against walks that never end */
    uint32_t next_free;
    int32_t bub;        /* -1: a lookup; else its bubble ring entry */
} req;

typedef struct fifo {
    uint32_t head, n;   /* entries are pool slots (1-based) */
} fifo;

/* A result lane (D >= 2, no reorder buffer): two results, the older first. */
typedef struct rlane {
    lpm_sim_result r[2];
    uint8_t head, n;
    uint64_t last_out;  /* cycle of the last output + 1 (0: none) */
} rlane;

struct lpm_sim {
    lpm_sim_walker w;
    lpm_sim_cfg cfg;
    unsigned n, P, D, lanes;    /* stages, ports, hop cycles, n * P */
    unsigned scan, cap;         /* window entries the dispatcher scans; window capacity */
    uint64_t ready_thr;
    int32_t *cur;               /* lanes: the slot held this cycle */
    int32_t *arr;               /* D rows of lanes: what is offered in cycle = row mod D */
    uint8_t *rd;                /* lanes: read (or written) this cycle, for the log */
    uint32_t *fin, *fin_lane;   /* D rows of lanes: finishing items, exit attempt in cycle = row mod D */
    unsigned *fin_n;
    rlane *rl;                  /* lanes + W result lanes (D >= 2, R = 0) */
    unsigned nrl;
    uint64_t rl_live;           /* results waiting in result lanes */
    uint32_t *qbuf;             /* n queues of cfg.queue entries */
    fifo *q;
    uint32_t *qpop;             /* pops per stage this cycle */
    uint64_t *qpush_at;         /* D >= 2: per stage, cycle + 1 of its last push */
    uint32_t *qpush_n;          /* pushes in that cycle: not poppable in the next one */
    /* the busy stages, one bit each (LPM_SIM_MAX_STAGES / 64 words), so that
     * a cycle visits only those: what arr's row r offers (amask + 4 r), what
     * cur holds, which queues are not empty */
    uint64_t *amask, cmask[4], qmask[4];
    req *pool;
    uint32_t pool_n, free_head, live;
    uint32_t *win;              /* dispatch window: pool slots in input order */
    unsigned win_n, win_n0;     /* entries; entries at the start of the cycle */
    uint32_t dit_done[64], dit_lane[64];
    unsigned ndit;
    lpm_sim_bubble *bub;        /* bubbles in flight, indexed like the pool */
    lpm_sim_bubble pending;     /* next bubble from the source */
    uint64_t bubble_seq;
    char tokbuf[32];
    int have_pending, bsrc_done;
    int bub_taken;              /* D >= 3: the pending bubble was taken last cycle and enters now */
    lpm_sim_result *rob;        /* cfg.rob entries, id % rob */
    uint8_t *rob_valid;
    uint64_t rob_head, rob_alloc, rob_head_reg;
    /* the linear credit rules (cfg.result_fifo): results in input order from
     * the exit to the output, cres_at the cycle each may be fetched from */
    lpm_sim_result *cres;
    uint64_t *cres_at;
    unsigned cres_cap, cres_head, cres_n;
    unsigned cres_vis;            /* at the output */
    unsigned cres_f1, cres_f2;    /* fetched in the cycle before, two before (shown from the next) */
    uint32_t *cent;               /* D + 1 slots: the item admitted in cycle t, at t mod (D + 1) */
    int64_t cred;                 /* free credits as counted this cycle (two cycles late) */
    unsigned acc_now, acc_prev, pop_now, pop_prev;
    lpm_sim_result *exits;      /* this cycle's exits, in exit order */
    uint32_t *exit_lane;
    unsigned nexits;
    uint64_t next_id, cycle;
    int src_done, closed;
    lpm_sim_stats st;
    lpm_sim_bubble_hook bhook;
    void *bhook_ctx;
    lpm_sim_dit_hook dhook;
    void *dhook_ctx;
    lpm_sim_dit_hook xhook;
    void *xhook_ctx;
    /* rebuilds (sim_copy.c) */
    unsigned active;            /* the copy the DIT select names */
    uint64_t walking[2];        /* lookups between their DIT read and their exit, per copy */
    uint32_t bub_live;          /* bubbles in the window, queue 0, a stage or a hop */
    uint64_t wait_seen;         /* cycle + 1 of the last bubble-wait count */
    uint64_t rb_start, rb_out;  /* the running rebuild: its start cycle + 1, outputs then */
    /* the cycle log line being built */
    char *ev;
    size_t ev_len, ev_cap;
};

typedef struct run_io {
    lpm_sim_source_fn src;
    void *src_ctx;
    lpm_sim_bubble_fn bsrc;
    void *bsrc_ctx;
    lpm_sim_sink_fn sink;
    void *sink_ctx;
} run_io;

/* Rebuilds (sim_copy.c): may the next bubble enter now (drain, fence,
 * swap), what entering and leaving do, and the check of a rebuild's write
 * (stage LPM_SIM_DIT for the DIT). */
int lpm_sim_bubble_may_enter(lpm_sim *s, const lpm_sim_bubble *b);
void lpm_sim_bubble_entered(lpm_sim *s, const lpm_sim_bubble *b);
void lpm_sim_bubble_left(lpm_sim *s);
void lpm_sim_shadow_write(lpm_sim *s, const lpm_sim_bubble *b, unsigned stage, uint32_t addr);

/* One clock cycle: steps 1 to 7 of docs/microarchitecture.md. */
int lpm_sim_step(lpm_sim *s, const run_io *io, lpm_err *err);

#endif
