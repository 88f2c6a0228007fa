/* lpm_engine_gamt: the CPU build of GAMT behind the engine interface. Every
 * update goes through the WB table and is flushed as bubbles right away,
 * so a lookup after add/del sees it. */
#include <stdlib.h>

#include "../core/engine.h"
#include "gamt_cpu.h"

typedef struct {
    lpm_gamt g;
    lpm_gamt_cpu c;
} gamt_state;

static int gamt_build(void **state, const lpm_fib *fib, lpm_err *err)
{
    gamt_state *s = calloc(1, sizeof *s);
    if (!s)
        return lpm_err_set(err, LPM_EFAIL, "out of memory");
    lpm_gamt_sink sink = lpm_gamt_cpu_sink(&s->c);
    int rc = lpm_gamt_build(&s->g, fib, NULL, &sink, err);
    if (rc) {
        lpm_gamt_cpu_free(&s->c);
        free(s);
        return rc;
    }
    *state = s;
    return LPM_OK;
}

static uint32_t gamt_lookup_one(const void *state, const lpm_addr *a)
{
    const gamt_state *s = state;
    return lpm_gamt_cpu_lookup(&s->g, &s->c, a);
}

static void gamt_lookup_batch(const void *state, const lpm_addr *a, uint32_t *nh, size_t n)
{
    const gamt_state *s = state;
    for (size_t i = 0; i < n; i++)
        nh[i] = lpm_gamt_cpu_lookup(&s->g, &s->c, &a[i]);
}

static int gamt_add(void *state, const lpm_prefix *p, uint32_t nh, lpm_err *err)
{
    gamt_state *s = state;
    int rc = lpm_gamt_insert(&s->g, p, nh, err);
    return rc ? rc : lpm_gamt_flush(&s->g, 4096, err);
}

static int gamt_del(void *state, const lpm_prefix *p, lpm_err *err)
{
    gamt_state *s = state;
    int rc = lpm_gamt_delete(&s->g, p, err);
    return rc ? rc : lpm_gamt_flush(&s->g, 4096, err);
}

static size_t gamt_memory(const void *state)
{
    return 2 * lpm_gamt_copy_bytes(&((const gamt_state *)state)->g); /* two copies, as GAMT keeps */
}

static void gamt_destroy(void *state)
{
    gamt_state *s = state;
    if (!s)
        return;
    lpm_gamt_free(&s->g);
    lpm_gamt_cpu_free(&s->c);
    free(s);
}

const lpm_engine_ops lpm_engine_gamt = {
    .name = "gamt",
    .summary = "GAMT state-jump table (CPU build of the CUDA engine; IPv6: first 64 bits)",
    .families = LPM_ENGINE_V4 | LPM_ENGINE_V6,
    .build = gamt_build,
    .lookup = gamt_lookup_one,
    .lookup_batch = gamt_lookup_batch,
    .add = gamt_add,
    .del = gamt_del,
    .memory = gamt_memory,
    .destroy = gamt_destroy,
};
