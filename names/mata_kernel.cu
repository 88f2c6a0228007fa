// The CUDA MATA engine: one thread per name, names interweaved per warp
// (names/interweave.h), the per-step logic shared with the CPU build through
// the __host__ __device__ inlines of names/nstep.h. A batch is split over
// several streams (lpm_ngpu_slice) so copies and kernels overlap (the
// paper's multi-stream pipeline, section 4.2).
#include <cuda_runtime.h>
#include <stdint.h>
#include <string.h>

#include <algorithm>
#include <chrono>
#include <vector>

#include "../gpu/cuda_check.h"
#include "ngpu.h"
#include "nstep.h"

__global__ void lpm_mata_kernel(lpm_nm_view v, const uint32_t *w, const uint64_t *grp,
                                const uint32_t *len, uint64_t first, uint64_t n, uint32_t *out)
{
    uint64_t i = first + blockIdx.x * (uint64_t)blockDim.x + threadIdx.x;
    if (i >= first + n)
        return;
    out[i] = lpm_nm_lookup_iw(&v, w + grp[i / 32], (unsigned)(i % 32), len[i]);
}

extern "C" int lpm_names_cuda_built(void)
{
    return 1;
}

extern "C" int lpm_names_cuda_devices(void)
{
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess)
        return 0;
    return n;
}

// Batches whose events are in use at once: the host runs at most this far
// ahead of the device, and reads a batch's latency when its slot comes back.
enum { WINDOW = 4 };

// Every buffer, stream and event of a run, released on every path.
struct names_run {
    lpm_nm_entry *d_e = nullptr;
    lpm_nm_ata_desc *d_ata = nullptr;
    uint32_t *d_w = nullptr, *d_len = nullptr, *d_out = nullptr;
    uint64_t *d_grp = nullptr;
    uint32_t *h_w = nullptr, *h_len = nullptr, *h_out = nullptr; // pinned
    uint64_t *h_grp = nullptr;
    std::vector<cudaStream_t> st;
    std::vector<cudaEvent_t> ev; // [slot][stream][start, end], then the reference
    ~names_run()
    {
        cudaDeviceSynchronize();
        for (cudaStream_t s : st)
            if (s)
                cudaStreamDestroy(s);
        for (cudaEvent_t e : ev)
            if (e)
                cudaEventDestroy(e);
        cudaFree(d_e);
        cudaFree(d_ata);
        cudaFree(d_w);
        cudaFree(d_len);
        cudaFree(d_out);
        cudaFree(d_grp);
        cudaFreeHost(h_w);
        cudaFreeHost(h_len);
        cudaFreeHost(h_out);
        cudaFreeHost(h_grp);
    }
};

// The table on the device, pinned copies of the names, streams, events.
static int setup(names_run *r, const lpm_nm_view *v, lpm_nm_view *dv, const lpm_niw *iw, unsigned ns,
                 lpm_err *err)
{
    uint64_t nata = 0, n = iw->n;
    if (v->mata)
        for (uint64_t i = 0; i < v->n; nata++)
            i = v->ata[nata].start + v->ata[nata].len;
    CK(cudaMalloc(&r->d_e, v->n * sizeof *r->d_e + 1));
    CK(cudaMemcpy(r->d_e, v->e, v->n * sizeof *r->d_e, cudaMemcpyHostToDevice));
    if (nata) {
        CK(cudaMalloc(&r->d_ata, nata * sizeof *r->d_ata));
        CK(cudaMemcpy(r->d_ata, v->ata, nata * sizeof *r->d_ata, cudaMemcpyHostToDevice));
    }
    *dv = *v;
    dv->e = r->d_e;
    dv->ata = r->d_ata;
    CK(cudaMalloc(&r->d_w, iw->nw * 4 + 4));
    CK(cudaMalloc(&r->d_grp, (iw->ngroups + 1) * 8));
    CK(cudaMalloc(&r->d_len, n * 4));
    CK(cudaMalloc(&r->d_out, n * 4));
    CK(cudaMallocHost(&r->h_w, iw->nw * 4 + 4));
    CK(cudaMallocHost(&r->h_grp, (iw->ngroups + 1) * 8));
    CK(cudaMallocHost(&r->h_len, n * 4));
    CK(cudaMallocHost(&r->h_out, n * 4));
    memcpy(r->h_w, iw->w, iw->nw * 4);
    memcpy(r->h_grp, iw->grp, (iw->ngroups + 1) * 8);
    memcpy(r->h_len, iw->len, n * 4);
    r->st.assign(ns, nullptr);
    for (unsigned s = 0; s < ns; s++)
        CK(cudaStreamCreateWithFlags(&r->st[s], cudaStreamNonBlocking));
    r->ev.assign((size_t)WINDOW * ns * 2 + 1, nullptr);
    for (size_t i = 0; i < r->ev.size(); i++)
        CK(cudaEventCreate(&r->ev[i]));
    return LPM_OK;
}

// Kernel only: every name already on the device.
static int time_kernel(names_run *r, const lpm_nm_view *dv, const lpm_niw *iw, const lpm_ngpu_opts *o,
                       lpm_ngpu_result *res, lpm_err *err)
{
    uint64_t n = iw->n;
    unsigned threads = o->threads, blocks = (unsigned)((n + threads - 1) / threads);
    cudaStream_t s = r->st[0];
    cudaEvent_t e0 = r->ev[0], e1 = r->ev[1];
    CK(cudaMemcpyAsync(r->d_w, r->h_w, iw->nw * 4, cudaMemcpyHostToDevice, s));
    CK(cudaMemcpyAsync(r->d_grp, r->h_grp, (iw->ngroups + 1) * 8, cudaMemcpyHostToDevice, s));
    CK(cudaMemcpyAsync(r->d_len, r->h_len, n * 4, cudaMemcpyHostToDevice, s));
    CK(cudaEventRecord(e0, s));
    for (unsigned k = 0; k < o->repeat; k++) {
        lpm_mata_kernel<<<blocks, threads, 0, s>>>(*dv, r->d_w, r->d_grp, r->d_len, 0, n, r->d_out);
        CK(cudaGetLastError());
    }
    CK(cudaEventRecord(e1, s));
    CK(cudaEventSynchronize(e1));
    float ms;
    CK(cudaEventElapsedTime(&ms, e0, e1));
    res->kernel_sps = (double)n * o->repeat / (ms * 1e-3);
    // The end-to-end part must find nothing resident: every slice copies its own.
    CK(cudaMemsetAsync(r->d_w, 0, iw->nw * 4, s));
    CK(cudaMemsetAsync(r->d_grp, 0, (iw->ngroups + 1) * 8, s));
    CK(cudaMemsetAsync(r->d_len, 0, n * 4, s));
    CK(cudaMemsetAsync(r->d_out, 0xFF, n * 4, s));
    CK(cudaStreamSynchronize(s));
    return LPM_OK;
}

// One slice: its words, group offsets and lengths in, lookups, answers out.
static int slice(names_run *r, const lpm_nm_view *dv, const lpm_niw *iw, unsigned threads, cudaStream_t s,
                 uint64_t f, uint64_t c, lpm_err *err)
{
    uint64_t g0 = f / 32, g1 = (f + c + 31) / 32, w0 = iw->grp[g0], w1 = iw->grp[g1];
    CK(cudaMemcpyAsync(r->d_w + w0, r->h_w + w0, (w1 - w0) * 4, cudaMemcpyHostToDevice, s));
    CK(cudaMemcpyAsync(r->d_grp + g0, r->h_grp + g0, (g1 - g0) * 8, cudaMemcpyHostToDevice, s));
    CK(cudaMemcpyAsync(r->d_len + f, r->h_len + f, c * 4, cudaMemcpyHostToDevice, s));
    lpm_mata_kernel<<<(unsigned)((c + threads - 1) / threads), threads, 0, s>>>(*dv, r->d_w, r->d_grp, r->d_len,
                                                                               f, c, r->d_out);
    CK(cudaGetLastError());
    CK(cudaMemcpyAsync(r->h_out + f, r->d_out + f, c * 4, cudaMemcpyDeviceToHost, s));
    return LPM_OK;
}

// A batch's latency once it is done: first slice's copy-in start to last
// slice's copy-out end, both read against the reference event.
static int batch_latency(names_run *r, unsigned slot, unsigned ns, std::vector<double> *lat, lpm_err *err)
{
    cudaEvent_t ref = r->ev.back();
    float lo = 0, hi = 0, t;
    bool any = false;
    for (unsigned s = 0; s < ns; s++) {
        cudaEvent_t a = r->ev[((size_t)slot * ns + s) * 2], b = r->ev[((size_t)slot * ns + s) * 2 + 1];
        CK(cudaEventSynchronize(b)); // a comes before b in stream s
        CK(cudaEventElapsedTime(&t, ref, a));
        lo = any ? std::min(lo, t) : t;
        CK(cudaEventElapsedTime(&t, ref, b));
        hi = any ? std::max(hi, t) : t;
        any = true;
    }
    lat->push_back((hi - lo) * 1e3);
    return LPM_OK;
}

// End to end: every batch split over the streams; the host keeps at most
// WINDOW batches in flight and reads each batch's latency as its slot
// comes back, so every batch of the run is measured with the pipeline full.
static int end_to_end(names_run *r, const lpm_nm_view *dv, const lpm_niw *iw, const lpm_ngpu_opts *o,
                      lpm_ngpu_result *res, lpm_err *err)
{
    uint64_t n = iw->n, batch = std::max<uint64_t>(o->batch / 32 * 32, 32);
    unsigned ns = o->streams;
    std::vector<double> lat;
    std::vector<unsigned> used(WINDOW, 0); // streams with a slice in the slot's batch
    cudaEvent_t ref = r->ev.back();
    CK(cudaEventRecord(ref, r->st[0]));
    CK(cudaEventSynchronize(ref));
    auto t0 = std::chrono::steady_clock::now();
    uint64_t j = 0;
    for (uint64_t b = 0; b < n; b += batch, j++) {
        unsigned slot = (unsigned)(j % WINDOW);
        if (j >= WINDOW) {
            int rc = batch_latency(r, slot, used[slot], &lat, err);
            if (rc)
                return rc;
        }
        uint64_t bn = std::min(batch, n - b);
        used[slot] = 0;
        for (unsigned s = 0; s < ns; s++) {
            uint64_t c, f = lpm_ngpu_slice(bn, ns, s, &c);
            if (!c)
                break; // slices are in order: the rest are empty too
            size_t e = ((size_t)slot * ns + s) * 2;
            CK(cudaEventRecord(r->ev[e], r->st[s]));
            int rc = slice(r, dv, iw, o->threads, r->st[s], b + f, c, err);
            if (rc)
                return rc;
            CK(cudaEventRecord(r->ev[e + 1], r->st[s]));
            used[slot] = s + 1;
        }
    }
    for (uint64_t k = j > WINDOW ? j - WINDOW : 0; k < j; k++) {
        int rc = batch_latency(r, (unsigned)(k % WINDOW), used[k % WINDOW], &lat, err);
        if (rc)
            return rc;
    }
    CK(cudaDeviceSynchronize());
    double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    res->e2e_sps = (double)n / wall;
    std::sort(lat.begin(), lat.end());
    double sum = 0;
    for (double x : lat)
        sum += x;
    res->batches = lat.size();
    res->latency_us = sum / lat.size();
    res->latency_p99_us = lat[std::min(lat.size() - 1, (size_t)(0.99 * lat.size()))];
    res->latency_max_us = lat.back();
    return LPM_OK;
}

extern "C" int lpm_names_cuda_bench(const lpm_nm_view *v, const lpm_niw *iw, const uint32_t *ref,
                                    const lpm_ngpu_opts *o, lpm_ngpu_result *res, lpm_err *err)
{
    memset(res, 0, sizeof *res);
    if (!iw->n)
        return lpm_err_set(err, LPM_EINPUT, "no names to look up");
    if (!o->streams || !o->threads || !o->repeat)
        return lpm_err_set(err, LPM_EINPUT, "names gpu: streams, threads and repeat must be positive");
    names_run r;
    lpm_nm_view dv;
    int rc = setup(&r, v, &dv, iw, o->streams, err);
    if (rc == LPM_OK)
        rc = time_kernel(&r, &dv, iw, o, res, err);
    if (rc == LPM_OK)
        rc = end_to_end(&r, &dv, iw, o, res, err);
    if (rc == LPM_OK)
        for (uint64_t i = 0; i < iw->n; i++)
            res->mismatches += r.h_out[i] != ref[i];
    return rc;
}
