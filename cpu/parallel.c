/* Run-to-complete and pipelined execution of lookups (parallel.h). */
#include "parallel.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tree_bitmap.h"

double lpm_cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

double lpm_cpu_thread_time(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- run-to-complete ---- */

typedef struct par_job {
    void (*fn)(void *ctx, size_t lo, size_t hi);
    void *ctx;
    size_t lo, hi;
    pthread_barrier_t *start;
    double cpu;
} par_job;

static void *par_main(void *arg)
{
    par_job *j = arg;
    pthread_barrier_wait(j->start);
    double t0 = lpm_cpu_thread_time();
    if (j->hi > j->lo)
        j->fn(j->ctx, j->lo, j->hi);
    j->cpu = lpm_cpu_thread_time() - t0;
    return NULL;
}

int lpm_cpu_parallel(unsigned threads, void (*fn)(void *ctx, size_t lo, size_t hi), void *ctx,
                     size_t n, double *seconds, double *cpu_seconds, lpm_err *err)
{
    if (threads < 1 || threads > 1024)
        return lpm_err_set(err, LPM_EINPUT, "threads must be in 1..1024");
    par_job *jobs = calloc(threads, sizeof *jobs);
    pthread_t *tid = calloc(threads, sizeof *tid);
    pthread_barrier_t start;
    if (!jobs || !tid || pthread_barrier_init(&start, NULL, threads + 1)) {
        free(jobs);
        free(tid);
        return lpm_err_set(err, LPM_EFAIL, "out of memory");
    }
    int rc = LPM_OK;
    for (unsigned t = 0; t < threads; t++) {
        jobs[t] = (par_job){ fn, ctx, n * t / threads, n * (t + 1) / threads, &start, 0 };
        if (rc == LPM_OK && pthread_create(&tid[t], NULL, par_main, &jobs[t]) == 0)
            continue;
        /* Could not start it: its share is dropped, the rest still meets
         * at the barrier (so a stand-in thread with no work is started). */
        rc = lpm_err_set(err, LPM_EFAIL, "cannot start thread %u", t);
        jobs[t].hi = jobs[t].lo;
        if (pthread_create(&tid[t], NULL, par_main, &jobs[t]))
            abort();
    }
    double t0 = lpm_cpu_now();
    pthread_barrier_wait(&start);
    for (unsigned t = 0; t < threads; t++)
        pthread_join(tid[t], NULL);
    *seconds = lpm_cpu_now() - t0;
    if (cpu_seconds) {
        *cpu_seconds = 0;
        for (unsigned t = 0; t < threads; t++)
            *cpu_seconds = jobs[t].cpu > *cpu_seconds ? jobs[t].cpu : *cpu_seconds;
    }
    pthread_barrier_destroy(&start);
    free(jobs);
    free(tid);
    return rc;
}

typedef struct rtc_ctx {
    const lpm_engine_ops *e;
    const void *state;
    const lpm_addr *a;
    uint32_t *nh;
    unsigned repeat;
} rtc_ctx;

static void rtc_part(void *arg, size_t lo, size_t hi)
{
    const rtc_ctx *c = arg;
    for (unsigned r = 0; r < c->repeat; r++) {
        if (c->e->lookup_batch) {
            c->e->lookup_batch(c->state, c->a + lo, c->nh + lo, hi - lo);
        } else {
            for (size_t i = lo; i < hi; i++)
                c->nh[i] = c->e->lookup(c->state, &c->a[i]);
        }
    }
}

int lpm_cpu_run_rtc(const lpm_engine_ops *e, const void *state, const lpm_addr *a,
                    uint32_t *nh, size_t n, unsigned threads, unsigned repeat,
                    double *seconds, double *cpu_seconds, lpm_err *err)
{
    rtc_ctx c = { e, state, a, nh, repeat };
    return lpm_cpu_parallel(threads, rtc_part, &c, n, seconds, cpu_seconds, err);
}

/* ---- pipelined ---- */

typedef struct req {
    uint32_t idx;   /* trace index; END closes the stream */
    uint32_t node;  /* node to visit at this stage's first level */
    uint32_t best;  /* best next hop so far */
} req;

#define END UINT32_MAX
#define RING 4096   /* power of two */

typedef struct ring {
    _Alignas(64) _Atomic size_t head;  /* consumer position */
    _Alignas(64) _Atomic size_t tail;  /* producer position */
    _Alignas(64) req slot[RING];
} ring;

static void ring_push(ring *r, req v)
{
    size_t t = atomic_load_explicit(&r->tail, memory_order_relaxed);
    while (t - atomic_load_explicit(&r->head, memory_order_acquire) == RING)
        sched_yield();
    r->slot[t & (RING - 1)] = v;
    atomic_store_explicit(&r->tail, t + 1, memory_order_release);
}

/* Pops up to max requests into out; waits for at least one. */
static size_t ring_pop(ring *r, req *out, size_t max)
{
    size_t h = atomic_load_explicit(&r->head, memory_order_relaxed), t;
    while ((t = atomic_load_explicit(&r->tail, memory_order_acquire)) == h)
        sched_yield();
    size_t k = t - h < max ? t - h : max;
    for (size_t i = 0; i < k; i++)
        out[i] = r->slot[(h + i) & (RING - 1)];
    atomic_store_explicit(&r->head, h + k, memory_order_release);
    return k;
}

typedef struct stage {
    const lpm_tree_bitmap *tb;
    const lpm_addr *a;
    uint32_t *nh;
    size_t n;
    unsigned lv0, lv1;  /* levels [lv0, lv1) */
    ring *in, *out;     /* in NULL: the first stage reads the trace */
    pthread_barrier_t *start;
} stage;

/* Walks levels [lv0, lv1) for one request; returns 1 when it finished. */
static int advance(const stage *s, req *q)
{
    for (unsigned lv = s->lv0; lv < s->lv1; lv++) {
        q->node = lpm_tbm_step(&s->tb->t, lv, q->node, &s->a[q->idx], &q->best);
        if (!q->node) {
            s->nh[q->idx] = q->best;
            return 1;
        }
    }
    return 0;
}

static void *stage_main(void *arg)
{
    stage *s = arg;
    pthread_barrier_wait(s->start);
    if (!s->in) {
        for (size_t i = 0; i < s->n; i++) {
            const lpm_tbm_slot *e = &s->tb->init[lpm_addr_bits(&s->a[i], 0, s->tb->k)];
            req q = { (uint32_t)i, e->child, e->nh };
            if (!q.node)
                s->nh[i] = q.best;
            else if (!advance(s, &q))
                ring_push(s->out, q);
        }
        if (s->out)
            ring_push(s->out, (req){ END, 0, 0 });
        return NULL;
    }
    req buf[64];
    for (;;) {
        size_t k = ring_pop(s->in, buf, 64);
        for (size_t i = 0; i < k; i++) {
            if (buf[i].idx == END) {
                if (s->out)
                    ring_push(s->out, buf[i]);
                return NULL;
            }
            if (!advance(s, &buf[i]))
                ring_push(s->out, buf[i]);
        }
    }
}

int lpm_cpu_pipeline_supported(const lpm_engine_ops *e)
{
    return e == &lpm_engine_tree_bitmap_13 || e == &lpm_engine_tree_bitmap_11;
}

unsigned lpm_cpu_pipeline_levels(const void *state)
{
    return ((const lpm_tree_bitmap *)state)->t.nlevels;
}

int lpm_cpu_run_pipeline(const lpm_engine_ops *e, const void *state, const lpm_addr *a,
                         uint32_t *nh, size_t n, unsigned stages, unsigned repeat,
                         double *seconds, lpm_err *err)
{
    if (!lpm_cpu_pipeline_supported(e))
        return lpm_err_set(err, LPM_EINPUT, "the pipelined model needs a tree-bitmap engine, not %s", e->name);
    if (n >= END)
        return lpm_err_set(err, LPM_EINPUT, "trace too long for the pipelined model");
    const lpm_tree_bitmap *tb = state;
    unsigned levels = tb->t.nlevels;
    if (stages == 0 || stages > levels)
        stages = levels;
    stage *st = calloc(stages, sizeof *st);
    ring *rings = aligned_alloc(64, sizeof(ring) * stages);
    pthread_t *tid = calloc(stages, sizeof *tid);
    pthread_barrier_t start;
    if (!st || !rings || !tid || pthread_barrier_init(&start, NULL, stages + 1)) {
        free(st);
        free(rings);
        free(tid);
        return lpm_err_set(err, LPM_EFAIL, "out of memory");
    }
    double total = 0;
    int rc = LPM_OK;
    for (unsigned r = 0; r < repeat && !rc; r++) {
        for (unsigned i = 0; i < stages; i++) {
            atomic_init(&rings[i].head, 0);
            atomic_init(&rings[i].tail, 0);
            st[i] = (stage){ tb, a, nh, n, levels * i / stages, levels * (i + 1) / stages,
                             i ? &rings[i - 1] : NULL, i + 1 < stages ? &rings[i] : NULL, &start };
        }
        for (unsigned i = 0; i < stages; i++)
            if (pthread_create(&tid[i], NULL, stage_main, &st[i]))
                abort(); /* the barrier cannot be released otherwise */
        double t0 = lpm_cpu_now();
        pthread_barrier_wait(&start);
        for (unsigned i = 0; i < stages; i++)
            pthread_join(tid[i], NULL);
        total += lpm_cpu_now() - t0;
    }
    *seconds = total;
    pthread_barrier_destroy(&start);
    free(st);
    free(rings);
    free(tid);
    return rc;
}
