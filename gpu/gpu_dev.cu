/* CUDA side of GAMT and GALE: the lookup kernels (Algorithm 1 and
 * DIR-24-8, grid-stride: consecutive threads take consecutive requests),
 * the update kernels, and the device sinks that keep the lookup copies in
 * GPU memory. The per-step lookup code is the header the CPU builds use;
 * the ordering rules are in gpu_dev.h. */
#include "gpu_dev.h"

#include <algorithm>
#include <string.h>

/* ---- kernels ------------------------------------------------------------ */

/* A bubble's write: a release store at device scope, so the writes of the
 * bubble kernels before it (deeper levels, earlier in the update stream)
 * are visible to a lookup that reads this word. */
__device__ __forceinline__ void st_release(uint32_t *p, uint32_t v)
{
    asm volatile("st.release.gpu.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

/* Tables are read with lpm_ld_table (ld.relaxed.gpu): no __restrict__ and
 * no const-restrict pair that would let the compiler use ld.global.nc. */
template <typename K>
__global__ void k_gamt(gamt_params p, const K *__restrict__ keys, uint32_t *__restrict__ res, size_t n)
{
    __shared__ uint8_t st[GAMT_MAX_LEVELS + 1];
    if (threadIdx.x == 0) /* constant indexes: read from parameter space, no local copy */
#pragma unroll
        for (unsigned i = 0; i <= GAMT_MAX_LEVELS; i++)
            st[i] = p.stride[i];
    __syncthreads();
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        uint64_t key = sizeof(K) == 4 ? (uint64_t)keys[i] << 32 : (uint64_t)keys[i];
        res[i] = gamt_lookup(p.tab, p.width, st, key);
    }
}

__global__ void k_gale(const uint32_t *t24, const uint32_t *tl, const uint32_t *__restrict__ keys,
                       uint32_t *__restrict__ res, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        res[i] = gale_lookup(t24, tl, keys[i]);
}

/* Bubbles of one batch write distinct units, so threads need no order. */
__global__ void k_gamt_apply(uint32_t *tab, uint32_t width, const lpm_gamt_bubble *b, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        st_release(tab + (size_t)(b[i].level - 1) * width + b[i].loc, b[i].value);
}

__global__ void k_gale_apply(uint32_t *t24, uint32_t *tl, const lpm_gale_bubble *b, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        uint32_t w = b[i].where & ~GALE_BUBBLE_LONG;
        st_release((b[i].where & GALE_BUBBLE_LONG) ? tl + w : t24 + w, b[i].value);
    }
}

__global__ void k_fill(uint32_t *p, size_t n, uint32_t v)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        p[i] = v;
}

static unsigned grid_for(size_t n)
{
    size_t g = (n + 255) / 256;
    return (unsigned)std::min<size_t>(std::max<size_t>(g, 1), 65535);
}

/* ---- handles ------------------------------------------------------------ */

cuda_bag::~cuda_bag()
{
    for (void *p : dev)
        cudaFree(p);
    for (void *p : host)
        cudaFreeHost(p);
    for (cudaEvent_t e : ev)
        cudaEventDestroy(e);
    for (cudaStream_t s : st)
        cudaStreamDestroy(s);
}

cudaError_t cuda_bag::dev_alloc(void **p, size_t bytes)
{
    cudaError_t e = cudaMalloc(p, bytes);
    if (e == cudaSuccess)
        dev.push_back(*p);
    return e;
}

cudaError_t cuda_bag::host_alloc(void **p, size_t bytes)
{
    cudaError_t e = cudaMallocHost(p, bytes);
    if (e == cudaSuccess)
        host.push_back(*p);
    return e;
}

cudaError_t cuda_bag::event(cudaEvent_t *e, bool timing)
{
    cudaError_t r = cudaEventCreateWithFlags(e, timing ? cudaEventDefault : cudaEventDisableTiming);
    if (r == cudaSuccess)
        ev.push_back(*e);
    return r;
}

cudaError_t cuda_bag::stream(cudaStream_t *s, int priority)
{
    cudaError_t r = cudaStreamCreateWithPriority(s, cudaStreamNonBlocking, priority);
    if (r == cudaSuccess)
        st.push_back(*s);
    return r;
}

gpu_dev::~gpu_dev()
{
    cudaDeviceSynchronize(); /* the end of a run: nothing may still use what is freed */
    cudaFree(tab[0]);
    cudaFree(tab[1]);
    cudaFree(t24);
    cudaFree(tl);
    cudaFree(stage_dev);
    cudaFreeHost(stage_host);
}

int lpm_gpu_dev_init(gpu_dev *d, lpm_err *err)
{
    int least, greatest;
    CK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    /* Bubbles must not queue behind lookup blocks: the update stream gets
     * the highest priority the device has. */
    CK(d->bag.stream(&d->update, greatest));
    CK(d->bag.stream(&d->upload, least));
    for (unsigned s = 0; s < LPM_GPU_MAX_STREAMS; s++)
        CK(d->bag.stream(&d->look[s], least));
    for (int c = 0; c < 2; c++) {
        CK(d->bag.event(&d->ready[c], false));
        CK(d->bag.event(&d->upd_used[c], false));
        for (unsigned s = 0; s < LPM_GPU_MAX_STREAMS; s++)
            CK(d->bag.event(&d->used[c][s], false));
    }
    CK(d->bag.event(&d->staged, false));
    return LPM_OK;
}

/* ---- uploads and bubbles ------------------------------------------------ */

/* The upload stream waits until nothing reads or writes copy c any more.
 * (Waiting on an event that was never recorded is a no-op.) */
static int wait_for_users(gpu_dev *d, int c, lpm_err *err)
{
    for (unsigned s = 0; s < LPM_GPU_MAX_STREAMS; s++)
        CK(cudaStreamWaitEvent(d->upload, d->used[c][s], 0));
    CK(cudaStreamWaitEvent(d->upload, d->upd_used[c], 0));
    return LPM_OK;
}

/* (Re)allocates *p for bytes in the upload stream, stream-ordered. */
static int upload_alloc(gpu_dev *d, uint32_t **p, size_t *cap, size_t bytes, lpm_err *err)
{
    if (*p && bytes <= *cap)
        return LPM_OK;
    *cap = 0;
    if (*p) {
        CK(cudaFreeAsync(*p, d->upload));
        *p = nullptr;
    }
    CK(cudaMallocAsync((void **)p, bytes, d->upload));
    *cap = bytes;
    return LPM_OK;
}

static int fill(gpu_dev *d, uint32_t *p, size_t n, uint32_t v, lpm_err *err)
{
    k_fill<<<grid_for(n), 256, 0, d->upload>>>(p, n, v);
    CK(cudaGetLastError());
    return LPM_OK;
}

/* Copies bubbles to the device in the update stream. The pinned buffer is
 * reused once the previous batch's copy has left it (staged); the device
 * buffer is reused in stream order after the kernels that read it. */
static int stage(gpu_dev *d, const void *b, size_t bytes, lpm_err *err)
{
    CK(cudaEventSynchronize(d->staged));
    if (bytes > d->stage_cap) {
        size_t c = std::max(bytes, (size_t)1 << 20);
        d->stage_cap = 0; /* a failed allocation leaves no stale capacity */
        if (d->stage_dev) {
            CK(cudaFreeAsync(d->stage_dev, d->update));
            d->stage_dev = nullptr;
        }
        if (d->stage_host) {
            CK(cudaFreeHost(d->stage_host));
            d->stage_host = nullptr;
        }
        CK(cudaMallocHost(&d->stage_host, c));
        CK(cudaMallocAsync(&d->stage_dev, c, d->update));
        d->stage_cap = c;
    }
    memcpy(d->stage_host, b, bytes);
    CK(cudaMemcpyAsync(d->stage_dev, d->stage_host, bytes, cudaMemcpyHostToDevice, d->update));
    CK(cudaEventRecord(d->staged, d->update));
    return LPM_OK;
}

static int gamt_upload(void *ctx, int copy, const uint32_t *const *rows, const uint32_t *used,
                       unsigned levels, uint32_t width, const uint8_t *strides, lpm_err *err)
{
    gpu_dev *d = (gpu_dev *)ctx;
    size_t units = (size_t)levels * width;
    int rc = wait_for_users(d, copy, err);
    if (rc == LPM_OK)
        rc = upload_alloc(d, &d->tab[copy], &d->cap[copy], units * 4, err);
    if (rc == LPM_OK) /* head room: the explicit no-route leaf */
        rc = fill(d, d->tab[copy], units, GAMT_UNIT_EMPTY, err);
    if (rc)
        return rc;
    for (unsigned k = 0; k < levels; k++)
        if (used[k])
            CK(cudaMemcpyAsync(d->tab[copy] + (size_t)k * width, rows[k], (size_t)used[k] * 4,
                               cudaMemcpyHostToDevice, d->upload));
    CK(cudaEventRecord(d->ready[copy], d->upload));
    gamt_params *p = &d->gp[copy];
    p->tab = d->tab[copy];
    p->width = width;
    memcpy(p->stride, strides, sizeof p->stride);
    return LPM_OK;
}

/* From now on lookups and bubbles use copy c (each waits for ready[c]). */
static int gamt_swap(void *ctx, int copy, lpm_err *err)
{
    (void)err;
    ((gpu_dev *)ctx)->active = copy;
    return LPM_OK;
}

static int gamt_apply(void *ctx, int copy, const lpm_gamt_bubble *b, size_t n, lpm_err *err)
{
    gpu_dev *d = (gpu_dev *)ctx;
    if (copy != d->active)
        return lpm_err_set(err, LPM_EFAIL, "GAMT: bubbles for copy %d while lookups use copy %d", copy,
                           d->active);
    CK(cudaStreamWaitEvent(d->update, d->ready[copy], 0));
    int rc = stage(d, b, n * sizeof *b, err);
    if (rc)
        return rc;
    const lpm_gamt_bubble *db = (const lpm_gamt_bubble *)d->stage_dev;
    /* Deepest level first, one launch per level: a new child is in place
     * before the pointer to it (stream order). */
    size_t i = 0;
    while (i < n) {
        size_t j = i;
        while (j < n && b[j].level == b[i].level)
            j++;
        k_gamt_apply<<<grid_for(j - i), 256, 0, d->update>>>(d->tab[copy], d->gp[copy].width, db + i, j - i);
        CK(cudaGetLastError());
        i = j;
    }
    CK(cudaEventRecord(d->upd_used[copy], d->update));
    return LPM_OK;
}

/* GALE has one copy: a re-upload waits for every lookup and bubble still
 * using it, and lookups after it wait for it. */
static int gale_upload(void *ctx, const uint32_t *t24, const uint32_t *tlong, uint32_t nblocks,
                       uint32_t capblocks, lpm_err *err)
{
    gpu_dev *d = (gpu_dev *)ctx;
    size_t n24 = (size_t)1 << 24, nl = (size_t)capblocks * 256 + 1, cap24 = n24 * 4;
    int rc = wait_for_users(d, 0, err);
    if (rc == LPM_OK)
        rc = upload_alloc(d, &d->t24, &cap24, n24 * 4, err);
    if (rc == LPM_OK) {
        d->cap[0] = 0; /* the long table is always new: its size changes */
        rc = upload_alloc(d, &d->tl, &d->cap[0], nl * 4, err);
    }
    if (rc == LPM_OK)
        rc = fill(d, d->tl, nl, GALE_NH_EMPTY, err);
    if (rc)
        return rc;
    CK(cudaMemcpyAsync(d->t24, t24, n24 * 4, cudaMemcpyHostToDevice, d->upload));
    if (nblocks)
        CK(cudaMemcpyAsync(d->tl, tlong, (size_t)nblocks * 256 * 4, cudaMemcpyHostToDevice, d->upload));
    CK(cudaEventRecord(d->ready[0], d->upload));
    d->active = 0;
    return LPM_OK;
}

static int gale_apply(void *ctx, const lpm_gale_bubble *b, size_t n, lpm_err *err)
{
    gpu_dev *d = (gpu_dev *)ctx;
    CK(cudaStreamWaitEvent(d->update, d->ready[0], 0));
    int rc = stage(d, b, n * sizeof *b, err);
    if (rc)
        return rc;
    size_t split = 0; /* long entries come first: fill blocks before pointing at them */
    while (split < n && (b[split].where & GALE_BUBBLE_LONG))
        split++;
    const lpm_gale_bubble *db = (const lpm_gale_bubble *)d->stage_dev;
    if (split) {
        k_gale_apply<<<grid_for(split), 256, 0, d->update>>>(d->t24, d->tl, db, split);
        CK(cudaGetLastError());
    }
    if (n > split) {
        k_gale_apply<<<grid_for(n - split), 256, 0, d->update>>>(d->t24, d->tl, db + split, n - split);
        CK(cudaGetLastError());
    }
    CK(cudaEventRecord(d->upd_used[0], d->update));
    return LPM_OK;
}

lpm_gamt_sink lpm_gpu_gamt_sink(gpu_dev *d)
{
    lpm_gamt_sink s = { d, gamt_upload, gamt_swap, gamt_apply };
    return s;
}

lpm_gale_sink lpm_gpu_gale_sink(gpu_dev *d)
{
    lpm_gale_sink s = { d, gale_upload, gale_apply };
    return s;
}

/* ---- lookups ------------------------------------------------------------ */

int lpm_gpu_launch(gpu_dev *d, int gale, int v6, unsigned s, const void *keys, uint32_t *res, size_t n,
                   lpm_err *err)
{
    int c = d->active;
    cudaStream_t st = d->look[s];
    CK(cudaStreamWaitEvent(st, d->ready[c], 0));
    if (gale)
        k_gale<<<grid_for(n), 256, 0, st>>>(d->t24, d->tl, (const uint32_t *)keys, res, n);
    else if (v6)
        k_gamt<uint64_t><<<grid_for(n), 256, 0, st>>>(d->gp[c], (const uint64_t *)keys, res, n);
    else
        k_gamt<uint32_t><<<grid_for(n), 256, 0, st>>>(d->gp[c], (const uint32_t *)keys, res, n);
    CK(cudaGetLastError());
    CK(cudaEventRecord(d->used[c][s], st));
    return LPM_OK;
}
