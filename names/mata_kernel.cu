// The CUDA MATA engine: one thread per name, names interweaved per warp
// (names/interweave.h), the per-step logic shared with the CPU build through
// the __host__ __device__ inlines of names/nstep.h. A batch is split over
// several streams so copies and kernels overlap (the paper's multi-stream
// pipeline, section 4.2).
#include <cuda_runtime.h>
#include <stdint.h>
#include <string.h>
#include <vector>

extern "C" {
#include "../core/err.h"
}
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

#define CK(x)                                                                                   \
    do {                                                                                        \
        cudaError_t e_ = (x);                                                                   \
        if (e_ != cudaSuccess) {                                                                \
            rc = lpm_err_set(err, LPM_EFAIL, "CUDA: %s: %s", #x, cudaGetErrorString(e_));      \
            goto out;                                                                           \
        }                                                                                       \
    } while (0)

extern "C" int lpm_names_cuda_bench(const lpm_nm_view *v, const lpm_niw *iw, const uint32_t *ref,
                                    const lpm_ngpu_opts *o, lpm_ngpu_result *res, lpm_err *err)
{
    int rc = 0;
    lpm_nm_entry *d_e = NULL;
    lpm_nm_ata_desc *d_ata = NULL;
    uint32_t *d_w = NULL, *d_len = NULL, *d_out = NULL, *h_out = NULL, *h_w = NULL;
    uint64_t *d_grp = NULL;
    std::vector<cudaStream_t> st;
    cudaEvent_t e0 = NULL, e1 = NULL;
    lpm_nm_view dv = *v;
    uint64_t n = iw->n, batch = o->batch / 32 * 32, nata = 0;
    unsigned threads = o->threads, ns = o->streams;
    float ms = 0;
    memset(res, 0, sizeof *res);
    if (!n)
        return lpm_err_set(err, LPM_EINPUT, "no names to look up");
    if (!batch)
        batch = 32;
    if (v->mata)
        for (uint64_t i = 0; i < v->n; nata++)
            i = v->ata[nata].start + v->ata[nata].len;
    CK(cudaMalloc(&d_e, v->n * sizeof *d_e + 1));
    CK(cudaMemcpy(d_e, v->e, v->n * sizeof *d_e, cudaMemcpyHostToDevice));
    if (nata) {
        CK(cudaMalloc(&d_ata, nata * sizeof *d_ata));
        CK(cudaMemcpy(d_ata, v->ata, nata * sizeof *d_ata, cudaMemcpyHostToDevice));
    }
    dv.e = d_e;
    dv.ata = d_ata;
    CK(cudaMalloc(&d_w, iw->nw * 4 + 4));
    CK(cudaMalloc(&d_grp, (iw->ngroups + 1) * 8));
    CK(cudaMalloc(&d_len, n * 4));
    CK(cudaMalloc(&d_out, n * 4));
    CK(cudaMallocHost(&h_out, n * 4));
    CK(cudaMallocHost(&h_w, iw->nw * 4 + 4));
    memcpy(h_w, iw->w, iw->nw * 4);
    CK(cudaMemcpy(d_grp, iw->grp, (iw->ngroups + 1) * 8, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_len, iw->len, n * 4, cudaMemcpyHostToDevice));
    st.resize(ns);
    for (unsigned s = 0; s < ns; s++)
        CK(cudaStreamCreate(&st[s]));
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));

    // Kernel only: the names already on the device.
    CK(cudaMemcpy(d_w, h_w, iw->nw * 4, cudaMemcpyHostToDevice));
    CK(cudaEventRecord(e0));
    for (unsigned r = 0; r < o->repeat; r++)
        lpm_mata_kernel<<<(unsigned)((n + threads - 1) / threads), threads>>>(dv, d_w, d_grp, d_len, 0, n, d_out);
    CK(cudaEventRecord(e1));
    CK(cudaEventSynchronize(e1));
    CK(cudaGetLastError());
    CK(cudaEventElapsedTime(&ms, e0, e1));
    res->kernel_sps = (double)n * o->repeat / (ms * 1e-3);

    // End to end: per batch, each stream copies its slice of groups in,
    // looks them up and copies the answers out.
    CK(cudaMemset(d_out, 0xFF, n * 4));
    CK(cudaEventRecord(e0));
    for (uint64_t b = 0; b < n; b += batch) {
        uint64_t bn = n - b < batch ? n - b : batch, per = (bn / ns + 31) / 32 * 32;
        if (!per)
            per = 32;
        for (unsigned s = 0; s < ns; s++) {
            uint64_t f = b + s * per;
            if (f >= b + bn)
                break;
            uint64_t c = b + bn - f < per ? b + bn - f : per;
            uint64_t w0 = iw->grp[f / 32], w1 = iw->grp[(f + c + 31) / 32];
            CK(cudaMemcpyAsync(d_w + w0, h_w + w0, (w1 - w0) * 4, cudaMemcpyHostToDevice, st[s]));
            lpm_mata_kernel<<<(unsigned)((c + threads - 1) / threads), threads, 0, st[s]>>>(dv, d_w, d_grp, d_len,
                                                                                            f, c, d_out);
            CK(cudaMemcpyAsync(h_out + f, d_out + f, c * 4, cudaMemcpyDeviceToHost, st[s]));
        }
        if (b == 0) {
            // The first batch alone gives the latency of one batch.
            CK(cudaDeviceSynchronize());
            CK(cudaEventRecord(e1));
            CK(cudaEventSynchronize(e1));
            CK(cudaEventElapsedTime(&ms, e0, e1));
            res->latency_us = ms * 1e3;
        }
    }
    CK(cudaEventRecord(e1));
    CK(cudaEventSynchronize(e1));
    CK(cudaGetLastError());
    CK(cudaEventElapsedTime(&ms, e0, e1));
    res->e2e_sps = (double)n / (ms * 1e-3);
    for (uint64_t i = 0; i < n; i++)
        res->mismatches += h_out[i] != ref[i];
out:
    for (size_t s = 0; s < st.size(); s++)
        if (st[s])
            cudaStreamDestroy(st[s]);
    if (e0)
        cudaEventDestroy(e0);
    if (e1)
        cudaEventDestroy(e1);
    cudaFree(d_e);
    cudaFree(d_ata);
    cudaFree(d_w);
    cudaFree(d_grp);
    cudaFree(d_len);
    cudaFree(d_out);
    cudaFreeHost(h_out);
    cudaFreeHost(h_w);
    return rc;
}
