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
    /* Per batch, first slice's copy-in start to last slice's copy-out end
     * (names, lengths and group offsets all copied inside the clock), over
     * every batch of the run with the pipeline full. */
    double latency_us, latency_p99_us, latency_max_us;
    uint64_t batches;
    uint64_t mismatches; /* against out_ref */
} lpm_ngpu_result;

/* The slice of a batch of bn names (bn > 0) that stream s of ns looks up:
 * returns its first name, relative to the batch start, and its length in
 * *count (0: the stream has nothing in this batch). Slices are whole warp
 * groups of 32 names (the interweaved layout's unit) except the batch's
 * last, and together cover every name of the batch exactly once. */
static inline uint64_t lpm_ngpu_slice(uint64_t bn, unsigned ns, unsigned s, uint64_t *count)
{
    uint64_t groups = (bn + 31) / 32, per = (groups + ns - 1) / ns * 32, first = (uint64_t)s * per;
    if (first >= bn) {
        *count = 0;
        return bn;
    }
    *count = bn - first < per ? bn - first : per;
    return first;
}

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
