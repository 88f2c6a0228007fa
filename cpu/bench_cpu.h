/* The update-cost measurements behind `lpmpipe bench update-cost`, as
 * library calls: He et al.'s Table IV (every prefix of some lengths
 * deleted and added back) and the replay of a real update trace, for an
 * engine or for the DPDK peer alike. */
#ifndef LPM_CPU_BENCH_H
#define LPM_CPU_BENCH_H

#include <stddef.h>
#include <stdint.h>

#include "../core/engine.h"
#include "../core/trace.h"
#include "cpu.h"

/* Something that takes updates: an engine's state, or a DPDK table. */
typedef struct lpm_cpu_updater {
    int (*add)(void *ctx, const lpm_prefix *p, uint32_t nh, lpm_err *err);
    int (*del)(void *ctx, const lpm_prefix *p, lpm_err *err);
    void *ctx;
    lpm_cpu_cost *cost;       /* the updater's counters; NULL: not counted */
} lpm_cpu_updater;

/* An engine's state as an updater (ctx holds the pair). */
typedef struct lpm_cpu_engine_ctx {
    const lpm_engine_ops *e;
    void *state;
} lpm_cpu_engine_ctx;
lpm_cpu_updater lpm_cpu_engine_updater(lpm_cpu_engine_ctx *c);

typedef struct lpm_cpu_update_report {
    size_t prefixes;          /* Table IV: prefixes deleted and re-added */
    size_t adds, dels;        /* add and delete calls */
    int counted;              /* 0: no counters (times only) */
    lpm_cpu_cost add, del;    /* totals; divide by adds / dels for averages */
    double add_s, del_s;      /* seconds spent in add / del calls */
} lpm_cpu_update_report;

/* Every prefix of length min_len..max_len in the table deleted and added
 * back, one at a time (He et al.'s Table IV). */
int lpm_cpu_update_cost(const lpm_cpu_updater *u, const lpm_fib *fib, unsigned min_len, unsigned max_len,
                        lpm_cpu_update_report *r, lpm_err *err);

/* The updates u[0..n) applied in order ('a': add or replace, 'w':
 * delete, a no-op for an absent prefix). */
int lpm_cpu_update_replay(const lpm_cpu_updater *u, const lpm_update *up, size_t n, lpm_cpu_update_report *r,
                          lpm_err *err);

/* The first and last address of p and the ones just outside it (those
 * that exist): out holds 4; returns how many were written. */
size_t lpm_cpu_edge_addrs(const lpm_prefix *p, lpm_addr *out);

#endif
