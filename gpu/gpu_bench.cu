/* The host pipeline behind `lpmpipe gpu bench`: a session builds GAMT or
 * GALE once and uploads it; each run times the kernel alone on a resident
 * batch, the pinned copy bandwidth both ways, then sends batches
 * round-robin over non-blocking streams (copy in, kernel, copy out) while
 * the host applies updates at the requested rate, and finally checks the
 * answers against the reference. */
#include "gpu_dev.h"

#include <algorithm>
#include <chrono>
#include <new>
#include <stdio.h>
#include <string.h>

extern "C" {
#include "gpu_api.h"
}

typedef std::chrono::steady_clock clk;

static double since(clk::time_point t0)
{
    return std::chrono::duration<double>(clk::now() - t0).count();
}

struct lpm_gpu_session {
    int kind = 0, v6 = 0;
    lpm_gamt g;
    lpm_gale a;
    int built = 0;
    char device[256] = "";
    char strides[128] = "";
    /* Pinned keys and results, kept while runs use the same addresses. */
    const lpm_addr *key_src = nullptr;
    size_t key_n = 0;
    void *hkeys = nullptr;
    uint32_t *hres = nullptr;
    double h2d_gbps = 0, d2h_gbps = 0; /* measured by the session's first run */
    gpu_dev dev; /* last: destroyed first, while g and a still exist */
    ~lpm_gpu_session()
    {
        cudaFreeHost(hkeys);
        cudaFreeHost(hres);
    }
};

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
    int drv = 0, rt = 0;
    cudaDriverGetVersion(&drv);
    cudaRuntimeGetVersion(&rt);
    snprintf(buf, size, "%s (compute %d.%d, %d SMs, %.1f GiB, %d device%s, driver API %d.%d, runtime %d.%d)",
             p.name, p.major, p.minor, p.multiProcessorCount, p.totalGlobalMem / 1073741824.0, n,
             n == 1 ? "" : "s", drv / 1000, drv % 1000 / 10, rt / 1000, rt % 1000 / 10);
    return LPM_OK;
}

extern "C" void lpm_gpu_close(lpm_gpu_session *s)
{
    if (!s)
        return;
    if (s->built) {
        if (s->kind == LPM_GPU_GALE)
            lpm_gale_free(&s->a);
        else
            lpm_gamt_free(&s->g);
    }
    delete s;
}

extern "C" int lpm_gpu_open(lpm_gpu_session **out, const lpm_fib *f, int engine, unsigned levels, lpm_err *err)
{
    *out = nullptr;
    char dev[256];
    int rc = lpm_gpu_probe(dev, sizeof dev, err);
    if (rc)
        return rc;
    CK(cudaSetDevice(0));
    lpm_gpu_session *s = new (std::nothrow) lpm_gpu_session();
    if (!s)
        return lpm_err_set(err, LPM_EFAIL, "out of memory");
    memcpy(s->device, dev, sizeof dev);
    s->kind = engine;
    s->v6 = f->family == LPM_AF_INET6;
    rc = lpm_gpu_dev_init(&s->dev, err);
    if (rc == LPM_OK && engine == LPM_GPU_GALE) {
        lpm_gale_sink sink = lpm_gpu_gale_sink(&s->dev);
        rc = lpm_gale_build(&s->a, f, &sink, err);
        snprintf(s->strides, sizeof s->strides, "24-8");
    } else if (rc == LPM_OK) {
        lpm_gamt_sink sink = lpm_gpu_gamt_sink(&s->dev);
        lpm_gamt_opts o;
        lpm_gamt_opts_default(&o);
        o.levels = levels;
        rc = lpm_gamt_build(&s->g, f, &o, &sink, err);
        size_t k = 0;
        for (unsigned l = 1; rc == LPM_OK && l <= s->g.H && k + 4 < sizeof s->strides; l++)
            k += (size_t)snprintf(s->strides + k, sizeof s->strides - k, "%s%u", l > 1 ? "-" : "", s->g.stride[l]);
    }
    s->built = rc == LPM_OK; /* a failed build freed itself */
    if (rc) {
        lpm_gpu_close(s);
        return rc;
    }
    *out = s;
    return LPM_OK;
}

/* ---- one run ------------------------------------------------------------ */

struct run_ctx {
    lpm_gpu_session *s;
    const lpm_gpu_bench_in *in;
    lpm_gpu_bench_out *out;
    size_t n, B, ks, nb;
    unsigned S;
    cuda_bag bag;
    char *dk[LPM_GPU_MAX_STREAMS] = {};
    uint32_t *dr[LPM_GPU_MAX_STREAMS] = {};
    std::vector<size_t> sample;   /* indexes checked against the reference */
    std::vector<uint32_t> before; /* their answers before any update */
};

static int launch(run_ctx *r, unsigned s, const void *keys, uint32_t *res, size_t m, lpm_err *err)
{
    return lpm_gpu_launch(&r->s->dev, r->s->kind == LPM_GPU_GALE, r->s->v6, s, keys, res, m, err);
}

/* Pinned keys for the run's addresses, all of the pool at once (kept for
 * the next runs on the same addresses). */
static int prepare_keys(run_ctx *r, lpm_err *err)
{
    lpm_gpu_session *s = r->s;
    const lpm_gpu_bench_in *in = r->in;
    size_t n = std::max(in->pool, r->n);
    if (s->hkeys && s->key_src == in->addr && s->key_n >= r->n)
        return LPM_OK;
    cudaFreeHost(s->hkeys);
    cudaFreeHost(s->hres);
    s->hkeys = nullptr;
    s->hres = nullptr;
    s->key_src = nullptr;
    CK(cudaMallocHost(&s->hkeys, n * r->ks));
    CK(cudaMallocHost((void **)&s->hres, n * 4));
    for (size_t i = 0; i < n; i++) {
        if (s->v6)
            ((uint64_t *)s->hkeys)[i] = in->addr[i].hi;
        else
            ((uint32_t *)s->hkeys)[i] = lpm_addr_to_v4(&in->addr[i]);
    }
    s->key_src = in->addr;
    s->key_n = n;
    return LPM_OK;
}

/* Kernel alone on one resident batch. */
static int time_kernel(run_ctx *r, cudaEvent_t e0, cudaEvent_t e1, lpm_err *err)
{
    cudaStream_t st = r->s->dev.look[0];
    unsigned reps = r->in->reps ? r->in->reps : 10;
    float ms;
    CK(cudaMemcpyAsync(r->dk[0], r->s->hkeys, r->B * r->ks, cudaMemcpyHostToDevice, st));
    int rc = launch(r, 0, r->dk[0], r->dr[0], r->B, err); /* warm-up */
    CK(cudaEventRecord(e0, st));
    for (unsigned i = 0; rc == LPM_OK && i < reps; i++)
        rc = launch(r, 0, r->dk[0], r->dr[0], r->B, err);
    if (rc)
        return rc;
    CK(cudaEventRecord(e1, st));
    CK(cudaEventSynchronize(e1));
    CK(cudaEventElapsedTime(&ms, e0, e1));
    r->out->kernel_lps = (double)r->B * reps / (ms / 1e3);
    return LPM_OK;
}

/* The pinned copy bandwidth both ways on large transfers (up to 256 MiB),
 * a property of the machine measured once per session: the PCIe bound
 * the end-to-end rate is held to. */
static int time_copies(run_ctx *r, cudaEvent_t e0, cudaEvent_t e1, lpm_err *err)
{
    lpm_gpu_session *s = r->s;
    cudaStream_t st = s->dev.look[0];
    unsigned reps = r->in->reps ? r->in->reps : 10;
    size_t cap = (size_t)256 << 20, up = std::min(r->n * r->ks, cap), down = std::min(r->n * 4, cap);
    float ms;
    void *dbuf;
    if (s->h2d_gbps == 0) {
        CK(r->bag.dev_alloc(&dbuf, std::max(up, down)));
        for (int dir = 0; dir < 2; dir++) {
            size_t bytes = dir ? down : up;
            CK(cudaEventRecord(e0, st));
            for (unsigned i = 0; i < reps; i++) {
                if (dir)
                    CK(cudaMemcpyAsync(s->hres, dbuf, bytes, cudaMemcpyDeviceToHost, st));
                else
                    CK(cudaMemcpyAsync(dbuf, s->hkeys, bytes, cudaMemcpyHostToDevice, st));
            }
            CK(cudaEventRecord(e1, st));
            CK(cudaEventSynchronize(e1));
            CK(cudaEventElapsedTime(&ms, e0, e1));
            (dir ? s->d2h_gbps : s->h2d_gbps) = (double)bytes * reps / (ms / 1e3) / 1e9;
        }
    }
    r->out->h2d_gbps = s->h2d_gbps;
    r->out->d2h_gbps = s->d2h_gbps;
    /* keys in, one 4-byte answer out per lookup; the copy engines run both ways at once */
    r->out->copy_bound_lps = std::min(s->h2d_gbps / r->ks, s->d2h_gbps / 4) * 1e9;
    return LPM_OK;
}

static int apply_update(lpm_gpu_session *s, const lpm_update *u, lpm_ref *ref, lpm_err *err)
{
    int gale = s->kind == LPM_GPU_GALE, rc;
    if (u->op == 'w') {
        rc = gale ? lpm_gale_delete(&s->a, &u->pfx, err) : lpm_gamt_delete(&s->g, &u->pfx, err);
        lpm_ref_del(ref, &u->pfx);
    } else {
        rc = gale ? lpm_gale_insert(&s->a, &u->pfx, u->nh, err) : lpm_gamt_insert(&s->g, &u->pfx, u->nh, err);
        if (rc == LPM_OK && lpm_ref_add(ref, &u->pfx, u->nh))
            rc = lpm_err_set(err, LPM_EFAIL, "out of memory");
    }
    return rc;
}

/* The updates due by now (rate * elapsed), a forced rebuild every
 * rebuild_every of them, then one flush. */
static int updates_due(run_ctx *r, double el, size_t *done, lpm_err *err)
{
    const lpm_gpu_bench_in *in = r->in;
    lpm_gpu_session *s = r->s;
    size_t due = std::min(in->nupd, (size_t)(el * in->update_rate));
    int rc = LPM_OK;
    while (rc == LPM_OK && *done < due) {
        rc = apply_update(s, &in->upd[(*done)++], in->ref, err);
        if (rc == LPM_OK && in->rebuild_every && *done % in->rebuild_every == 0)
            rc = s->kind == LPM_GPU_GALE ? lpm_gale_reupload(&s->a, err) : lpm_gamt_rebuild(&s->g, err);
    }
    if (rc == LPM_OK)
        rc = s->kind == LPM_GPU_GALE ? lpm_gale_flush(&s->a, 1 << 16, err) : lpm_gamt_flush(&s->g, 1 << 16, err);
    return rc;
}

/* A finished batch: IPv6 lookups that ended on a "long" unit are answered
 * on the host now, inside the clock, as a router would have to. */
static void finish_batch(run_ctx *r, size_t off, size_t m)
{
    if (r->s->kind == LPM_GPU_GALE || !r->s->v6)
        return;
    uint32_t *res = r->s->hres;
    for (size_t i = off; i < off + m; i++)
        if (res[i] == GAMT_NH_LONG) {
            res[i] = lpm_gamt_resolve(&r->s->g, GAMT_NH_LONG, &r->in->addr[i]);
            r->out->host_answers++;
        }
}

struct in_flight {
    size_t off = 0, m = 0;
    bool busy = false;
};

/* Batches round-robin over the streams (copy in, kernel, copy out), each
 * stream waiting only for its own previous batch; updates between launches. */
static int end_to_end(run_ctx *r, lpm_err *err)
{
    const lpm_gpu_bench_in *in = r->in;
    gpu_dev *d = &r->s->dev;
    cudaEvent_t bs[LPM_GPU_MAX_STREAMS], be[LPM_GPU_MAX_STREAMS];
    in_flight fl[LPM_GPU_MAX_STREAMS];
    for (unsigned s = 0; s < r->S; s++) {
        CK(r->bag.event(&bs[s], true));
        CK(r->bag.event(&be[s], true));
    }
    std::vector<double> lat;
    size_t upd_done = 0, lookups = 0, b = 0;
    double upd_time = 0;
    float ms;
    int rc = LPM_OK;
    clk::time_point t0 = clk::now();
    for (;; b++) {
        double el = since(t0);
        if (b >= r->nb && el >= in->seconds)
            break;
        unsigned s = (unsigned)(b % r->S);
        if (fl[s].busy) { /* the stream's buffers are free again */
            CK(cudaEventSynchronize(be[s]));
            CK(cudaEventElapsedTime(&ms, bs[s], be[s]));
            lat.push_back(ms * 1e3);
            finish_batch(r, fl[s].off, fl[s].m);
            fl[s].busy = false;
        }
        if (in->nupd && upd_done < in->nupd && in->update_rate > 0) {
            clk::time_point u0 = clk::now();
            if ((rc = updates_due(r, el, &upd_done, err)))
                return rc;
            upd_time += since(u0);
        }
        size_t off = (b % r->nb) * r->B, m = std::min(r->B, r->n - off);
        cudaStream_t st = d->look[s];
        CK(cudaEventRecord(bs[s], st));
        CK(cudaMemcpyAsync(r->dk[s], (char *)r->s->hkeys + off * r->ks, m * r->ks, cudaMemcpyHostToDevice, st));
        if ((rc = launch(r, s, r->dk[s], r->dr[s], m, err)))
            return rc;
        CK(cudaMemcpyAsync(r->s->hres + off, r->dr[s], m * 4, cudaMemcpyDeviceToHost, st));
        CK(cudaEventRecord(be[s], st));
        fl[s] = { off, m, true };
        lookups += m;
    }
    for (unsigned s = 0; s < r->S; s++)
        if (fl[s].busy) {
            CK(cudaEventSynchronize(be[s]));
            CK(cudaEventElapsedTime(&ms, bs[s], be[s]));
            lat.push_back(ms * 1e3);
            finish_batch(r, fl[s].off, fl[s].m);
        }
    double wall = since(t0);
    CK(cudaDeviceSynchronize()); /* bubbles done; a kernel fault surfaces here */
    lpm_gpu_bench_out *o = r->out;
    o->seconds = wall;
    o->lookups = lookups;
    o->e2e_lps = lookups / wall;
    o->updates_applied = upd_done;
    o->updates_per_s = upd_done / wall;
    o->update_seconds = upd_time;
    std::sort(lat.begin(), lat.end());
    double sum = 0;
    for (double x : lat)
        sum += x;
    o->lat_mean_us = sum / lat.size();
    o->lat_p99_us = lat[std::min(lat.size() - 1, (size_t)(0.99 * lat.size()))];
    o->lat_max_us = lat.back();
    return LPM_OK;
}

static uint32_t resolve(const run_ctx *r, uint32_t v, const lpm_addr *a, size_t *stale)
{
    if (r->s->kind == LPM_GPU_GALE) {
        *stale += v == GALE_NH_EMPTY;
        return lpm_gale_resolve(v);
    }
    *stale += v == GAMT_NH_EMPTY;
    return lpm_gamt_resolve(&r->s->g, v, a);
}

/* With updates: one more pass over every address on the final table
 * (launch errors checked like any other), then the sample is compared. */
static int check(run_ctx *r, lpm_err *err)
{
    const lpm_gpu_bench_in *in = r->in;
    lpm_gpu_bench_out *o = r->out;
    const uint32_t *res = r->s->hres;
    if (in->nupd) {
        for (size_t i = 0; i < r->sample.size(); i++) { /* the last timed pass */
            size_t k = r->sample[i];
            uint32_t got = resolve(r, res[k], &in->addr[k], &o->stale);
            if (got != lpm_ref_lookup(in->ref, &in->addr[k], NULL) && got != r->before[i])
                o->inflight_other++;
        }
        for (size_t b = 0; b < r->nb; b++) {
            unsigned s = (unsigned)(b % r->S);
            size_t off = b * r->B, m = std::min(r->B, r->n - off);
            cudaStream_t st = r->s->dev.look[s];
            CK(cudaMemcpyAsync(r->dk[s], (char *)r->s->hkeys + off * r->ks, m * r->ks, cudaMemcpyHostToDevice, st));
            int rc = launch(r, s, r->dk[s], r->dr[s], m, err);
            if (rc)
                return rc;
            CK(cudaMemcpyAsync(r->s->hres + off, r->dr[s], m * 4, cudaMemcpyDeviceToHost, st));
        }
        CK(cudaDeviceSynchronize());
    }
    for (size_t k : r->sample) {
        uint32_t got = resolve(r, res[k], &in->addr[k], &o->stale);
        o->mismatches += got != lpm_ref_lookup(in->ref, &in->addr[k], NULL);
        o->checked++;
    }
    return LPM_OK;
}

static int run(run_ctx *r, lpm_err *err)
{
    const lpm_gpu_bench_in *in = r->in;
    size_t m = in->check && in->check < r->n ? in->check : r->n;
    r->sample.resize(m);
    for (size_t i = 0; i < m; i++)
        r->sample[i] = (size_t)((unsigned __int128)i * r->n / m);
    if (in->nupd) {
        r->before.resize(m);
        for (size_t i = 0; i < m; i++)
            r->before[i] = lpm_ref_lookup(in->ref, &in->addr[r->sample[i]], NULL);
    }
    int rc = prepare_keys(r, err);
    for (unsigned s = 0; rc == LPM_OK && s < r->S; s++) {
        CK(r->bag.dev_alloc((void **)&r->dk[s], r->B * r->ks));
        CK(r->bag.dev_alloc((void **)&r->dr[s], r->B * 4));
    }
    cudaEvent_t e0, e1;
    CK(r->bag.event(&e0, true));
    CK(r->bag.event(&e1, true));
    if (rc == LPM_OK)
        rc = time_kernel(r, e0, e1, err);
    if (rc == LPM_OK)
        rc = time_copies(r, e0, e1, err);
    if (rc == LPM_OK)
        rc = end_to_end(r, err);
    if (rc == LPM_OK)
        rc = check(r, err);
    return rc;
}

extern "C" int lpm_gpu_run(lpm_gpu_session *s, const lpm_gpu_bench_in *in, lpm_gpu_bench_out *out, lpm_err *err)
{
    memset(out, 0, sizeof *out);
    memcpy(out->device, s->device, sizeof out->device);
    memcpy(out->strides, s->strides, sizeof out->strides);
    if (!in->n || !in->batch || in->streams < 1 || in->streams > LPM_GPU_STREAMS_MAX)
        return lpm_err_set(err, LPM_EINPUT, "gpu bench: need lookups, a batch and 1..%d streams",
                           LPM_GPU_STREAMS_MAX);
    run_ctx r;
    r.s = s;
    r.in = in;
    r.out = out;
    r.n = in->n;
    r.B = std::min(in->batch, in->n);
    r.ks = s->v6 ? 8 : 4;
    r.S = in->streams;
    r.nb = (r.n + r.B - 1) / r.B;
    if (r.nb < r.S)
        return lpm_err_set(err, LPM_EINPUT,
                           "gpu bench: %zu lookups make %zu batches of %zu, fewer than the %u streams",
                           r.n, r.nb, r.B, r.S);
    size_t bub0 = s->kind == LPM_GPU_GALE ? s->a.bubbles_sent : s->g.bubbles_sent;
    size_t reb0 = s->kind == LPM_GPU_GALE ? s->a.reuploads : s->g.rebuilds;
    int rc = run(&r, err);
    if (s->kind == LPM_GPU_GALE) {
        out->bubbles = s->a.bubbles_sent - bub0;
        out->rebuilds = s->a.reuploads - reb0;
        out->table_bytes = lpm_gale_copy_bytes(&s->a);
    } else {
        out->bubbles = s->g.bubbles_sent - bub0;
        out->rebuilds = s->g.rebuilds - reb0;
        out->table_bytes = 2 * lpm_gamt_copy_bytes(&s->g);
    }
    return rc;
}

extern "C" int lpm_gpu_bench(const lpm_gpu_bench_in *in, lpm_gpu_bench_out *out, lpm_err *err)
{
    lpm_gpu_session *s;
    memset(out, 0, sizeof *out);
    int rc = lpm_gpu_open(&s, in->fib, in->engine, in->levels, err);
    if (rc)
        return rc;
    rc = lpm_gpu_run(s, in, out, err);
    lpm_gpu_close(s);
    return rc;
}
