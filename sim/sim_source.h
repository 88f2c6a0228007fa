/* Request sources for the simulator, all streaming (memory does not grow
 * with the trace): a trace file read line by line, and the trace generator
 * run in chunks, optionally regrouped into bursts of one entry stage. */
#ifndef LPM_SIM_SOURCE_H
#define LPM_SIM_SOURCE_H

#include <stdint.h>

#include "../core/fib.h"
#include "../core/input.h"
#include "../core/trace.h"
#include "sim.h"

typedef struct lpm_sim_file_src {
    lpm_input *in;
    int family;
} lpm_sim_file_src;

int lpm_sim_file_src_open(lpm_sim_file_src *fs, const char *path, int family, lpm_err *err);
void lpm_sim_file_src_close(lpm_sim_file_src *fs);
int lpm_sim_file_next(void *ctx, lpm_addr *key, lpm_err *err);

/* Entry class of a key for burst grouping: its entry stage, or -1 when the
 * direct index table answers it. */
typedef int (*lpm_sim_entry_fn)(void *ctx, const lpm_addr *key);

/* The trace generator, a chunk at a time. */
typedef struct lpm_sim_gen_src {
    const lpm_fib *fib;
    lpm_trace_opts opts;     /* kind, seed, ... ; count is the chunk size */
    uint64_t count, made, chunk_no;
    lpm_addr *buf;
    size_t buf_n, buf_pos;
} lpm_sim_gen_src;

int lpm_sim_gen_src_init(lpm_sim_gen_src *g, const lpm_fib *fib, int kind, uint64_t count, uint64_t seed,
                         lpm_err *err);
void lpm_sim_gen_src_free(lpm_sim_gen_src *g);
int lpm_sim_gen_next(void *ctx, lpm_addr *key, lpm_err *err);

/* CAMP's bursts over any source: runs of requests with one entry class,
 * run lengths geometric with mean burst. A run starts with the next
 * address of the inner source; its later members are the following
 * addresses of that class, the others wait in a pool per class (bounded:
 * LPM_SIM_BURST_POOL each, what does not fit is dropped and counted) for a
 * run of their own class. Ends when the inner source ends. */
#define LPM_SIM_BURST_POOL 1024
typedef struct lpm_sim_burst_src {
    lpm_sim_source_fn inner;
    void *inner_ctx;
    double burst;
    lpm_sim_entry_fn entry;
    void *entry_ctx;
    unsigned classes;            /* stages + 1 (the last: DIT answers) */
    lpm_addr *pool;              /* classes x LPM_SIM_BURST_POOL */
    uint32_t *head, *n;
    uint64_t run_left, dropped;
    int run_class, inner_done;
    uint64_t rng[4];
} lpm_sim_burst_src;

int lpm_sim_burst_src_init(lpm_sim_burst_src *b, lpm_sim_source_fn inner, void *inner_ctx, double burst,
                           uint64_t seed, unsigned stages, lpm_sim_entry_fn entry, void *entry_ctx, lpm_err *err);
void lpm_sim_burst_src_free(lpm_sim_burst_src *b);
int lpm_sim_burst_next(void *ctx, lpm_addr *key, lpm_err *err);

#endif
