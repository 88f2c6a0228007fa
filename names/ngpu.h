/* The CUDA MATA engine's C face: names/mata_kernel.cu when nvcc is there at
 * build time, names/ngpu_none.c otherwise (names/module.mk picks one); a
 * build without CUDA makes `names gpu` say so. */
#ifndef LPM_NGPU_H
#define LPM_NGPU_H

#include <stdint.h>

#include "../core/err.h"
#include "interweave.h"
#include "nstep.h"

typedef struct lpm_ngpu_opts {
    uint32_t batch;   /* names per batch */
    uint32_t streams; /* CUDA streams the batch is split over */
    uint32_t threads; /* threads per block */
    uint32_t repeat;
} lpm_ngpu_opts;

typedef struct lpm_ngpu_result {
    double kernel_sps;  /* searches/s, kernel only */
    double e2e_sps;     /* searches/s, copies included */
    double latency_us;  /* one batch, copy in to copy out */
    uint64_t mismatches; /* against out_ref */
} lpm_ngpu_result;

#ifdef __cplusplus
extern "C" {
#endif
/* 1 when this binary was built with CUDA (mata_kernel.cu), 0 when not. */
int lpm_names_cuda_built(void);
/* Number of CUDA devices (0 when none or no driver). */
int lpm_names_cuda_devices(void);
/* Runs the interweaved names through the kernel and compares every answer
 * with ref[] (the reference's ports). */
int lpm_names_cuda_bench(const lpm_nm_view *v, const lpm_niw *iw, const uint32_t *ref,
                         const lpm_ngpu_opts *o, lpm_ngpu_result *res, lpm_err *err);
#ifdef __cplusplus
}
#endif

#endif
