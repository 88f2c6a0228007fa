/* The CUDA side as seen from C: gpu/gpu_dev.cu + gpu_bench.cu when nvcc is there at build
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
#define LPM_GPU_STREAMS_MAX 32

typedef struct lpm_gpu_bench_in {
    const lpm_fib *fib;      /* lpm_gpu_bench only (lpm_gpu_open's table) */
    int engine;              /* lpm_gpu_bench only: LPM_GPU_GAMT or LPM_GPU_GALE */
    unsigned levels;         /* lpm_gpu_bench only: GAMT H (0: default) */
    const lpm_addr *addr;    /* the lookups, n of them, sent in batches */
    size_t n, batch;         /* n must hold at least one batch per stream */
    size_t pool;             /* addresses at addr (>= n; 0: n): a session pins and
                                converts them all once, for runs on prefixes of them */
    unsigned streams;        /* 1..LPM_GPU_STREAMS_MAX */
    unsigned reps;           /* kernel-only repetitions */
    double seconds;          /* end to end for at least this long, the n addresses
                                over and over (0: one pass) */
    size_t check;            /* answers compared with the reference: 0 all,
                                else this many, evenly spaced over the n */
    const lpm_update *upd;   /* applied while lookups run (may be NULL) */
    size_t nupd;
    double update_rate;      /* updates per second of wall time */
    size_t rebuild_every;    /* GAMT: rebuild and swap after every N updates
                                applied; GALE: upload the table again (0: never) */
    lpm_ref *ref;            /* the oracle; updated along with the engine */
} lpm_gpu_bench_in;

typedef struct lpm_gpu_bench_out {
    char device[256];
    char strides[128];
    double e2e_lps, kernel_lps, copy_bound_lps, h2d_gbps, d2h_gbps;
    double lat_mean_us, lat_p99_us, lat_max_us;
    double updates_per_s, update_seconds; /* update_seconds: host time applying and flushing */
    size_t lookups;                /* end to end, all passes */
    size_t updates_applied, bubbles, rebuilds, table_bytes;
    size_t host_answers;           /* IPv6 lookups under prefixes longer than GAMT's 64 bits,
                                      answered on the host inside the clock */
    size_t checked, mismatches;    /* answers compared (all or the sample), of the final pass
                                      when there were updates */
    size_t stale;                  /* answers read from head room (must be 0) */
    size_t inflight_other;         /* answers during updates matching neither the old nor the new table */
    double seconds;
} lpm_gpu_bench_out;

/* 1 when this binary was built with CUDA (the .cu files), 0 when not. */
int lpm_gpu_built(void);
/* Number of CUDA devices (0 when none or no driver); name of device 0
 * into buf. Returns LPM_OK, or LPM_ENODEV with a message. */
int lpm_gpu_probe(char *buf, size_t size, lpm_err *err);

/* A session builds one engine on one table and uploads it once; runs then
 * measure any number of (batch, streams) points on it. Updates a run
 * applies stay in the table (and in in->ref) for the runs after it. */
typedef struct lpm_gpu_session lpm_gpu_session;
int lpm_gpu_open(lpm_gpu_session **s, const lpm_fib *f, int engine, unsigned levels, lpm_err *err);
int lpm_gpu_run(lpm_gpu_session *s, const lpm_gpu_bench_in *in, lpm_gpu_bench_out *out, lpm_err *err);
void lpm_gpu_close(lpm_gpu_session *s);
/* open, one run, close. */
int lpm_gpu_bench(const lpm_gpu_bench_in *in, lpm_gpu_bench_out *out, lpm_err *err);

#ifdef __cplusplus
}
#endif

#endif
