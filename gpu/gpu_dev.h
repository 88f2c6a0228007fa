/* The CUDA side's shared parts (C++, included by the .cu files of gpu/ only): the
 * device context every engine run holds (its streams, the lookup copies
 * and the events that order uploads, swaps, bubbles and lookups), and the
 * kernels' launchers.
 *
 * Ordering, with no legacy default stream and no device-wide sync:
 * - lookups run in non-blocking streams; after each lookup kernel the run
 *   records used[c][s] (stream s read copy c);
 * - an upload into copy c runs in the upload stream after waiting for
 *   every used[c][s] and for the last bubbles into c (upd_used[c]); it
 *   frees and allocates stream-ordered (cudaFreeAsync, cudaMallocAsync)
 *   and ends by recording ready[c];
 * - swap(c) makes c the copy later lookups and bubbles use; each of them
 *   first waits for ready[c] (a no-op once the upload is done);
 * - bubbles run in the update stream (highest priority), which waits for
 *   ready[c] of the active copy and records upd_used[c]. */
#ifndef LPM_GPU_DEV_H
#define LPM_GPU_DEV_H

#include <cuda_runtime.h>

#include <vector>

#include "cuda_check.h"

extern "C" {
#include "gale.h"
#include "gamt.h"
}

#define LPM_GPU_MAX_STREAMS 32

/* Every CUDA handle a run or a device context creates, released in the
 * destructor, so no error path leaks buffers, events or streams. */
struct cuda_bag {
    std::vector<void *> dev, host;
    std::vector<cudaEvent_t> ev;
    std::vector<cudaStream_t> st;
    cuda_bag() = default;
    cuda_bag(const cuda_bag &) = delete;
    cuda_bag &operator=(const cuda_bag &) = delete;
    ~cuda_bag();
    cudaError_t dev_alloc(void **p, size_t bytes);
    cudaError_t host_alloc(void **p, size_t bytes);
    cudaError_t event(cudaEvent_t *e, bool timing);
    cudaError_t stream(cudaStream_t *s, int priority);
};

/* GAMT's kernel parameters for one copy: the strides travel by value (no
 * __constant__ upload that would race with running kernels). */
struct gamt_params {
    const uint32_t *tab;
    uint32_t width;
    uint8_t stride[GAMT_MAX_LEVELS + 1];
};

struct gpu_dev {
    cuda_bag bag;
    cudaStream_t upload = nullptr, update = nullptr;
    cudaStream_t look[LPM_GPU_MAX_STREAMS] = {};
    cudaEvent_t ready[2] = {}, upd_used[2] = {};
    cudaEvent_t used[2][LPM_GPU_MAX_STREAMS] = {};
    int active = 0;
    /* GAMT: two copies. GALE: copy 0 is t24 + tl. Freed stream-ordered. */
    uint32_t *tab[2] = { nullptr, nullptr };
    size_t cap[2] = { 0, 0 };
    gamt_params gp[2] = {};
    uint32_t *t24 = nullptr, *tl = nullptr;
    /* Bubble staging: pinned host and device, reused once staged fires. */
    void *stage_host = nullptr, *stage_dev = nullptr;
    size_t stage_cap = 0;
    cudaEvent_t staged = nullptr;
    gpu_dev() = default;
    gpu_dev(const gpu_dev &) = delete;
    gpu_dev &operator=(const gpu_dev &) = delete;
    ~gpu_dev();
};

/* Streams (lookup streams non-blocking at default priority, the update
 * stream at the device's highest priority) and events. */
int lpm_gpu_dev_init(gpu_dev *d, lpm_err *err);
lpm_gamt_sink lpm_gpu_gamt_sink(gpu_dev *d);
lpm_gale_sink lpm_gpu_gale_sink(gpu_dev *d);

/* One lookup batch of n keys in lookup stream s on the active copy: waits
 * for that copy's upload, launches, records used[active][s], and checks
 * the launch. keys: uint32_t (IPv4) or uint64_t (IPv6, GAMT only). */
int lpm_gpu_launch(gpu_dev *d, int gale, int v6, unsigned s, const void *keys, uint32_t *res, size_t n,
                   lpm_err *err);

#endif
