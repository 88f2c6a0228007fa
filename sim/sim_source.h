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

typedef struct lpm_sim_gen_src {
    const lpm_fib *fib;
    lpm_trace_opts opts;     /* kind, seed, ... ; count is the chunk size */
    uint64_t count, made, chunk_no;
    lpm_addr *buf;
    size_t buf_n, buf_pos;
    double burst;
    lpm_sim_entry_fn entry;  /* NULL: no regrouping */
    void *entry_ctx;
    uint64_t run_left;
    int run_class;
    lpm_addr run_first;
    uint64_t rng[4];
} lpm_sim_gen_src;

int lpm_sim_gen_src_init(lpm_sim_gen_src *g, const lpm_fib *fib, int kind, uint64_t count, uint64_t seed,
                         double burst, lpm_sim_entry_fn entry, void *entry_ctx, lpm_err *err);
void lpm_sim_gen_src_free(lpm_sim_gen_src *g);
int lpm_sim_gen_next(void *ctx, lpm_addr *key, lpm_err *err);

#endif
