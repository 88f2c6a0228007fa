/* The CUDA side as seen from C: gpu/gpu_cuda.cu when nvcc is there at build
 * time, gpu/gpu_none.c (every call says "built without CUDA") otherwise;
 * gpu/module.mk picks one. */
#ifndef LPM_GPU_API_H
#define LPM_GPU_API_H

#include <stddef.h>
#include <stdint.h>

#include "../core/err.h"
#include "../core/fib.h"
#include "../core/ref_lpm.h"
#include "../core/trace.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { LPM_GPU_GAMT = 0, LPM_GPU_GALE = 1 };

typedef struct lpm_gpu_bench_in {
    const lpm_fib *fib;
    int engine;              /* LPM_GPU_GAMT or LPM_GPU_GALE */
    unsigned levels;         /* GAMT H (0: default) */
    const lpm_addr *addr;    /* the lookups, n of them, sent in batches */
    size_t n, batch;
    unsigned streams;        /* 1..32 */
    unsigned reps;           /* kernel-only repetitions */
    const lpm_update *upd;   /* applied while lookups run (may be NULL) */
    size_t nupd;
    double update_rate;      /* updates per second of wall time */
    lpm_ref *ref;            /* the oracle; updated along with the engine */
} lpm_gpu_bench_in;

typedef struct lpm_gpu_bench_out {
    char device[256];
    char strides[128];
    double e2e_lps, kernel_lps, copy_bound_lps, h2d_gbps;
    double lat_mean_us, lat_p99_us;
    double updates_per_s;
    size_t updates_applied, bubbles, rebuilds, table_bytes;
    size_t checked, mismatches;    /* every answer of the final pass */
    size_t inflight_other;         /* answers during updates matching neither the old nor the new table */
    double seconds;
} lpm_gpu_bench_out;

/* 1 when this binary was built with CUDA (gpu_cuda.cu), 0 when not. */
int lpm_gpu_built(void);
/* Number of CUDA devices (0 when none or no driver); name of device 0
 * into buf. Returns LPM_OK, or LPM_ENODEV with a message. */
int lpm_gpu_probe(char *buf, size_t size, lpm_err *err);
int lpm_gpu_bench(const lpm_gpu_bench_in *in, lpm_gpu_bench_out *out, lpm_err *err);

#ifdef __cplusplus
}
#endif

#endif
