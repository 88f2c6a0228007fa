/* He et al.'s two parallel execution models, on this machine's cores:
 *  - run-to-complete: T threads, each looks up its own share of the trace
 *    from start to finish with any engine;
 *  - pipelined: one thread per Tree Bitmap level (or per group of levels
 *    when fewer threads are asked for), requests passed between stages
 *    through single-producer single-consumer rings; no lazy checking
 *    (each stage checks its node's IBM, as in the paper). */
#ifndef LPM_CPU_PARALLEL_H
#define LPM_CPU_PARALLEL_H

#include <stddef.h>
#include <stdint.h>

#include "../core/engine.h"

/* Runs fn on [0, n) split into threads contiguous shares, all started
 * together; *seconds: wall time from the start to the last finish;
 * *cpu_seconds (when not NULL): the CPU time of the busiest thread, which
 * leaves out the time a thread waited for a core on a loaded machine. */
int lpm_cpu_parallel(unsigned threads, void (*fn)(void *ctx, size_t lo, size_t hi), void *ctx,
                     size_t n, double *seconds, double *cpu_seconds, lpm_err *err);

/* Looks a[0..n) up repeat times with threads threads; nh gets the answers.
 * *seconds: wall time of all repeats (*cpu_seconds as above, or NULL). */
int lpm_cpu_run_rtc(const lpm_engine_ops *e, const void *state, const lpm_addr *a,
                    uint32_t *nh, size_t n, unsigned threads, unsigned repeat,
                    double *seconds, double *cpu_seconds, lpm_err *err);

/* Does engine e have a pipelined model (the Tree Bitmap engines)? And how
 * many levels (= threads at most) does a built state have? */
int lpm_cpu_pipeline_supported(const lpm_engine_ops *e);
unsigned lpm_cpu_pipeline_levels(const void *state);

/* The pipelined model over stages threads (0: one per level). */
int lpm_cpu_run_pipeline(const lpm_engine_ops *e, const void *state, const lpm_addr *a,
                         uint32_t *nh, size_t n, unsigned stages, unsigned repeat,
                         double *seconds, lpm_err *err);

double lpm_cpu_now(void);
/* CPU seconds the calling thread has run. */
double lpm_cpu_thread_time(void);

#endif
