/* CUDA side of GAMT and GALE: device sinks (lookup copies in GPU memory,
 * bubbles applied by an update kernel in its own stream), the lookup
 * kernels (Algorithm 1, grid-stride: consecutive threads take consecutive
 * requests) and the multi-stream host pipeline behind `lpmpipe gpu bench`.
 * The per-step lookup code is the same header the CPU builds use. */
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vector>

extern "C" {
#include "gale.h"
#include "gamt.h"
#include "gpu_api.h"
}

#define CK(call)                                                                              \
    do {                                                                                      \
        cudaError_t e_ = (call);                                                              \
        if (e_ != cudaSuccess)                                                                \
            return lpm_err_set(err, LPM_EFAIL, "CUDA: %s: %s", #call, cudaGetErrorString(e_)); \
    } while (0)

__constant__ uint8_t c_strides[GAMT_MAX_LEVELS + 1];

/* ---- kernels ------------------------------------------------------------ */

__global__ void k_gamt_v4(const uint32_t *__restrict__ tab, uint32_t width,
                          const uint32_t *__restrict__ keys, uint32_t *__restrict__ res, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        res[i] = gamt_lookup(tab, width, c_strides, (uint64_t)keys[i] << 32);
}

__global__ void k_gamt_v6(const uint32_t *__restrict__ tab, uint32_t width,
                          const uint64_t *__restrict__ keys, uint32_t *__restrict__ res, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        res[i] = gamt_lookup(tab, width, c_strides, keys[i]);
}

__global__ void k_gale(const uint32_t *__restrict__ t24, const uint32_t *__restrict__ tl,
                       const uint32_t *__restrict__ keys, uint32_t *__restrict__ res, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        res[i] = gale_lookup(t24, tl, keys[i]);
}

/* Bubbles of one batch write distinct units, so threads need no order. */
__global__ void k_gamt_apply(uint32_t *tab, uint32_t width, const lpm_gamt_bubble *b, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        tab[(size_t)(b[i].level - 1) * width + b[i].loc] = b[i].value;
}

__global__ void k_gale_apply(uint32_t *t24, uint32_t *tl, const lpm_gale_bubble *b, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        uint32_t w = b[i].where & ~GALE_BUBBLE_LONG;
        if (b[i].where & GALE_BUBBLE_LONG)
            tl[w] = b[i].value;
        else
            t24[w] = b[i].value;
    }
}

static unsigned grid_for(size_t n)
{
    size_t g = (n + 255) / 256;
    return (unsigned)std::min<size_t>(std::max<size_t>(g, 1), 65535);
}

/* ---- device sinks ------------------------------------------------------- */

struct dev_bubbles {
    void *host = nullptr, *dev = nullptr; /* pinned staging and device copy */
    size_t cap = 0;
    cudaStream_t stream = nullptr;        /* the update stream */
};

static int bubbles_stage(dev_bubbles *d, const void *b, size_t bytes, lpm_err *err)
{
    if (bytes > d->cap) {
        cudaFreeHost(d->host);
        cudaFree(d->dev);
        d->host = d->dev = nullptr;
        size_t c = std::max(bytes, (size_t)1 << 16);
        CK(cudaMallocHost(&d->host, c));
        CK(cudaMalloc(&d->dev, c));
        d->cap = c;
    }
    memcpy(d->host, b, bytes);
    CK(cudaMemcpyAsync(d->dev, d->host, bytes, cudaMemcpyHostToDevice, d->stream));
    return LPM_OK;
}

struct gamt_dev {
    uint32_t *tab[2] = { nullptr, nullptr };
    uint32_t width[2] = { 0, 0 };
    size_t cap[2] = { 0, 0 };
    dev_bubbles ub;
};

static int gamt_upload(void *ctx, int copy, const uint32_t *const *rows, const uint32_t *used,
                       unsigned levels, uint32_t width, const uint8_t *strides, lpm_err *err)
{
    gamt_dev *d = (gamt_dev *)ctx;
    size_t units = (size_t)levels * width;
    if (units > d->cap[copy]) {
        cudaFree(d->tab[copy]); /* synchronizes: no lookup still reads it */
        d->tab[copy] = nullptr;
        CK(cudaMalloc(&d->tab[copy], units * 4));
        d->cap[copy] = units;
    }
    CK(cudaMemset(d->tab[copy], 0, units * 4));
    for (unsigned k = 0; k < levels; k++)
        CK(cudaMemcpy(d->tab[copy] + (size_t)k * width, rows[k], (size_t)used[k] * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpyToSymbol(c_strides, strides, GAMT_MAX_LEVELS + 1));
    d->width[copy] = width;
    return LPM_OK;
}

static int gamt_apply(void *ctx, int copy, const lpm_gamt_bubble *b, size_t n, lpm_err *err)
{
    gamt_dev *d = (gamt_dev *)ctx;
    int rc = bubbles_stage(&d->ub, b, n * sizeof *b, err);
    if (rc)
        return rc;
    const lpm_gamt_bubble *db = (const lpm_gamt_bubble *)d->ub.dev;
    /* Deepest level first, one launch per level: a new child is in place
     * before the pointer to it (stream order). */
    size_t i = 0;
    while (i < n) {
        size_t j = i;
        while (j < n && b[j].level == b[i].level)
            j++;
        k_gamt_apply<<<grid_for(j - i), 256, 0, d->ub.stream>>>(d->tab[copy], d->width[copy], db + i, j - i);
        i = j;
    }
    CK(cudaGetLastError());
    CK(cudaStreamSynchronize(d->ub.stream)); /* staging is reused next time */
    return LPM_OK;
}

struct gale_dev {
    uint32_t *t24 = nullptr, *tl = nullptr;
    dev_bubbles ub;
};

static int gale_upload(void *ctx, const uint32_t *t24, const uint32_t *tlong, uint32_t nblocks,
                       uint32_t capblocks, lpm_err *err)
{
    gale_dev *d = (gale_dev *)ctx;
    if (!d->t24)
        CK(cudaMalloc(&d->t24, (size_t)4 << 24));
    cudaFree(d->tl);
    d->tl = nullptr;
    CK(cudaMalloc(&d->tl, ((size_t)capblocks * 256 + 1) * 4));
    CK(cudaMemcpy(d->t24, t24, (size_t)4 << 24, cudaMemcpyHostToDevice));
    if (nblocks)
        CK(cudaMemcpy(d->tl, tlong, (size_t)nblocks * 256 * 4, cudaMemcpyHostToDevice));
    return LPM_OK;
}

static int gale_apply(void *ctx, const lpm_gale_bubble *b, size_t n, lpm_err *err)
{
    gale_dev *d = (gale_dev *)ctx;
    int rc = bubbles_stage(&d->ub, b, n * sizeof *b, err);
    if (rc)
        return rc;
    size_t split = 0; /* long entries come first: fill blocks before pointing at them */
    while (split < n && (b[split].where & GALE_BUBBLE_LONG))
        split++;
    const lpm_gale_bubble *db = (const lpm_gale_bubble *)d->ub.dev;
    if (split)
        k_gale_apply<<<grid_for(split), 256, 0, d->ub.stream>>>(d->t24, d->tl, db, split);
    if (n > split)
        k_gale_apply<<<grid_for(n - split), 256, 0, d->ub.stream>>>(d->t24, d->tl, db + split, n - split);
    CK(cudaGetLastError());
    CK(cudaStreamSynchronize(d->ub.stream));
    return LPM_OK;
}

/* ---- probe ---------------------------------------------------------------- */

extern "C" int lpm_gpu_built(void)
{
    return 1;
}

extern "C" int lpm_gpu_probe(char *buf, size_t size, lpm_err *err)
{
    int n = 0;
    cudaError_t e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess || n == 0)
        return lpm_err_set(err, LPM_ENODEV, "no CUDA device is present (%s)",
                           e != cudaSuccess ? cudaGetErrorString(e) : "0 devices");
    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));
    snprintf(buf, size, "%s (compute %d.%d, %d SMs, %.1f GiB, %d device%s)", p.name, p.major, p.minor,
             p.multiProcessorCount, p.totalGlobalMem / 1073741824.0, n, n == 1 ? "" : "s");
    return LPM_OK;
}

/* ---- bench ---------------------------------------------------------------- */

struct engine_run {
    int kind;
    int v6;
    lpm_gamt g;
    lpm_gale a;
    gamt_dev gd;
    gale_dev ad;
};

static void launch(engine_run *r, const void *keys, uint32_t *res, size_t n, cudaStream_t s)
{
    if (r->kind == LPM_GPU_GALE)
        k_gale<<<grid_for(n), 256, 0, s>>>(r->ad.t24, r->ad.tl, (const uint32_t *)keys, res, n);
    else if (r->v6)
        k_gamt_v6<<<grid_for(n), 256, 0, s>>>(r->gd.tab[r->g.active], r->gd.width[r->g.active],
                                              (const uint64_t *)keys, res, n);
    else
        k_gamt_v4<<<grid_for(n), 256, 0, s>>>(r->gd.tab[r->g.active], r->gd.width[r->g.active],
                                              (const uint32_t *)keys, res, n);
}

static uint32_t resolve(const engine_run *r, uint32_t v, const lpm_addr *a)
{
    return r->kind == LPM_GPU_GALE ? lpm_gale_resolve(v) : lpm_gamt_resolve(&r->g, v, a);
}

static int apply_update(engine_run *r, const lpm_update *u, lpm_ref *ref, lpm_err *err)
{
    int rc;
    if (u->op == 'w') {
        rc = r->kind == LPM_GPU_GALE ? lpm_gale_delete(&r->a, &u->pfx, err) : lpm_gamt_delete(&r->g, &u->pfx, err);
        lpm_ref_del(ref, &u->pfx);
    } else {
        rc = r->kind == LPM_GPU_GALE ? lpm_gale_insert(&r->a, &u->pfx, u->nh, err)
                                     : lpm_gamt_insert(&r->g, &u->pfx, u->nh, err);
        if (rc == LPM_OK && lpm_ref_add(ref, &u->pfx, u->nh))
            rc = lpm_err_set(err, LPM_EFAIL, "out of memory");
    }
    return rc;
}

static int flush(engine_run *r, lpm_err *err)
{
    return r->kind == LPM_GPU_GALE ? lpm_gale_flush(&r->a, 1 << 16, err) : lpm_gamt_flush(&r->g, 1 << 16, err);
}

static int bench(engine_run *r, const lpm_gpu_bench_in *in, lpm_gpu_bench_out *out, lpm_err *err)
{
    size_t n = in->n, B = std::min(in->batch, n), ks = r->v6 ? 8 : 4;
    unsigned S = in->streams;
    size_t nb = (n + B - 1) / B;
    void *hkeys;
    uint32_t *hres;
    CK(cudaMallocHost(&hkeys, n * ks));
    CK(cudaMallocHost((void **)&hres, n * 4));
    for (size_t i = 0; i < n; i++) {
        if (r->v6)
            ((uint64_t *)hkeys)[i] = in->addr[i].hi;
        else
            ((uint32_t *)hkeys)[i] = lpm_addr_to_v4(&in->addr[i]);
    }
    std::vector<cudaStream_t> st(S);
    std::vector<char *> dk(S);
    std::vector<uint32_t *> dr(S);
    for (unsigned s = 0; s < S; s++) {
        CK(cudaStreamCreate(&st[s]));
        CK(cudaMalloc(&dk[s], B * ks));
        CK(cudaMalloc(&dr[s], B * 4));
    }
    /* Expected answers before any update, for the in-flight check. */
    std::vector<uint32_t> before(in->nupd ? n : 0);
    for (size_t i = 0; i < before.size(); i++)
        before[i] = lpm_ref_lookup(in->ref, &in->addr[i], NULL);

    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    float ms;
    unsigned reps = in->reps ? in->reps : 10;
    /* Kernel only: one batch resident on the device. */
    CK(cudaMemcpy(dk[0], hkeys, B * ks, cudaMemcpyHostToDevice));
    launch(r, dk[0], dr[0], B, st[0]);
    CK(cudaEventRecord(e0, st[0]));
    for (unsigned i = 0; i < reps; i++)
        launch(r, dk[0], dr[0], B, st[0]);
    CK(cudaEventRecord(e1, st[0]));
    CK(cudaEventSynchronize(e1));
    CK(cudaGetLastError());
    CK(cudaEventElapsedTime(&ms, e0, e1));
    out->kernel_lps = (double)B * reps / (ms / 1e3);
    /* Copy bound: pinned host-to-device of the keys. */
    CK(cudaEventRecord(e0, st[0]));
    for (unsigned i = 0; i < reps; i++)
        CK(cudaMemcpyAsync(dk[0], hkeys, B * ks, cudaMemcpyHostToDevice, st[0]));
    CK(cudaEventRecord(e1, st[0]));
    CK(cudaEventSynchronize(e1));
    CK(cudaEventElapsedTime(&ms, e0, e1));
    out->h2d_gbps = (double)B * ks * reps / (ms / 1e3) / 1e9;
    out->copy_bound_lps = out->h2d_gbps * 1e9 / ks;

    /* End to end: batches round-robin over the streams, copy in, kernel,
     * copy out; updates are applied by the host as their time comes. */
    std::vector<cudaEvent_t> bs(nb), be(nb);
    for (size_t b = 0; b < nb; b++) {
        CK(cudaEventCreate(&bs[b]));
        CK(cudaEventCreate(&be[b]));
    }
    size_t upd_done = 0;
    auto t0 = std::chrono::steady_clock::now();
    double upd_time = 0;
    for (size_t b = 0; b < nb; b++) {
        unsigned s = (unsigned)(b % S);
        size_t off = b * B, m = std::min(B, n - off);
        if (b >= S)
            CK(cudaEventSynchronize(be[b - S])); /* the stream's buffers are free again */
        if (in->nupd && upd_done < in->nupd) {
            double el = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            size_t due = std::min(in->nupd, (size_t)(el * in->update_rate)); /* rate 0: none */
            auto u0 = std::chrono::steady_clock::now();
            int rc = LPM_OK;
            for (; upd_done < due && rc == LPM_OK; upd_done++)
                rc = apply_update(r, &in->upd[upd_done], in->ref, err);
            if (rc == LPM_OK)
                rc = flush(r, err);
            if (rc)
                return rc;
            upd_time += std::chrono::duration<double>(std::chrono::steady_clock::now() - u0).count();
        }
        CK(cudaEventRecord(bs[b], st[s]));
        CK(cudaMemcpyAsync(dk[s], (char *)hkeys + off * ks, m * ks, cudaMemcpyHostToDevice, st[s]));
        launch(r, dk[s], dr[s], m, st[s]);
        CK(cudaMemcpyAsync(hres + off, dr[s], m * 4, cudaMemcpyDeviceToHost, st[s]));
        CK(cudaEventRecord(be[b], st[s]));
    }
    CK(cudaDeviceSynchronize());
    CK(cudaGetLastError());
    double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    out->seconds = wall;
    out->e2e_lps = n / wall;
    out->updates_applied = upd_done;
    out->updates_per_s = upd_done ? upd_done / wall : 0;
    (void)upd_time;
    std::vector<double> lat(nb);
    double sum = 0;
    for (size_t b = 0; b < nb; b++) {
        CK(cudaEventElapsedTime(&ms, bs[b], be[b]));
        lat[b] = ms * 1e3;
        sum += lat[b];
    }
    std::sort(lat.begin(), lat.end());
    out->lat_mean_us = sum / nb;
    out->lat_p99_us = lat[std::min(nb - 1, (size_t)(0.99 * nb))];

    /* Every answer is checked: without updates against the table; with
     * updates, in-flight answers must match the table before or after, and
     * a final pass must match the final table exactly. */
    for (size_t i = 0; i < n; i++) {
        uint32_t got = resolve(r, hres[i], &in->addr[i]);
        uint32_t now = lpm_ref_lookup(in->ref, &in->addr[i], NULL);
        if (!in->nupd) {
            out->mismatches += got != now;
            out->checked++;
        } else if (got != now && got != before[i]) {
            out->inflight_other++;
        }
    }
    if (in->nupd) {
        for (size_t b = 0; b < nb; b++) {
            unsigned s = (unsigned)(b % S);
            size_t off = b * B, m = std::min(B, n - off);
            CK(cudaMemcpyAsync(dk[s], (char *)hkeys + off * ks, m * ks, cudaMemcpyHostToDevice, st[s]));
            launch(r, dk[s], dr[s], m, st[s]);
            CK(cudaMemcpyAsync(hres + off, dr[s], m * 4, cudaMemcpyDeviceToHost, st[s]));
            CK(cudaStreamSynchronize(st[s]));
        }
        for (size_t i = 0; i < n; i++) {
            uint32_t got = resolve(r, hres[i], &in->addr[i]);
            out->mismatches += got != lpm_ref_lookup(in->ref, &in->addr[i], NULL);
            out->checked++;
        }
    }
    for (size_t b = 0; b < nb; b++) {
        cudaEventDestroy(bs[b]);
        cudaEventDestroy(be[b]);
    }
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    for (unsigned s = 0; s < S; s++) {
        cudaStreamDestroy(st[s]);
        cudaFree(dk[s]);
        cudaFree(dr[s]);
    }
    cudaFreeHost(hkeys);
    cudaFreeHost(hres);
    return LPM_OK;
}

extern "C" int lpm_gpu_bench(const lpm_gpu_bench_in *in, lpm_gpu_bench_out *out, lpm_err *err)
{
    memset(out, 0, sizeof *out);
    int rc = lpm_gpu_probe(out->device, sizeof out->device, err);
    if (rc)
        return rc;
    CK(cudaSetDevice(0));
    engine_run *r = new engine_run();
    r->kind = in->engine;
    r->v6 = in->fib->family == LPM_AF_INET6;
    if (r->kind == LPM_GPU_GALE) {
        CK(cudaStreamCreateWithFlags(&r->ad.ub.stream, cudaStreamNonBlocking));
        lpm_gale_sink sink = { &r->ad, gale_upload, gale_apply };
        rc = lpm_gale_build(&r->a, in->fib, &sink, err);
        snprintf(out->strides, sizeof out->strides, "24-8");
    } else {
        CK(cudaStreamCreateWithFlags(&r->gd.ub.stream, cudaStreamNonBlocking));
        lpm_gamt_sink sink = { &r->gd, gamt_upload, gamt_apply };
        lpm_gamt_opts o;
        lpm_gamt_opts_default(&o);
        o.levels = in->levels;
        rc = lpm_gamt_build(&r->g, in->fib, &o, &sink, err);
        if (rc == LPM_OK) {
            size_t k = 0;
            for (unsigned l = 1; l <= r->g.H && k + 4 < sizeof out->strides; l++)
                k += (size_t)snprintf(out->strides + k, sizeof out->strides - k, "%s%u", l > 1 ? "-" : "",
                                      r->g.stride[l]);
        }
    }
    if (rc == LPM_OK)
        rc = bench(r, in, out, err);
    if (r->kind == LPM_GPU_GALE) {
        out->bubbles = r->a.bubbles_sent;
        out->table_bytes = lpm_gale_copy_bytes(&r->a);
        lpm_gale_free(&r->a);
        cudaFree(r->ad.t24);
        cudaFree(r->ad.tl);
    } else {
        out->bubbles = r->g.bubbles_sent;
        out->rebuilds = r->g.rebuilds;
        out->table_bytes = 2 * lpm_gamt_copy_bytes(&r->g);
        lpm_gamt_free(&r->g);
        cudaFree(r->gd.tab[0]);
        cudaFree(r->gd.tab[1]);
    }
    delete r;
    return rc;
}
