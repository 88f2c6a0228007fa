/* lpm_engine_gale: the CPU build of GALE behind the engine interface;
 * updates are flushed as bubbles right away. */
#include <stdlib.h>

#include "../core/engine.h"
#include "gale_cpu.h"

typedef struct {
    lpm_gale g;
    lpm_gale_cpu c;
} gale_state;

static int gale_build(void **state, const lpm_fib *fib, lpm_err *err)
{
    gale_state *s = calloc(1, sizeof *s);
    if (!s)
        return lpm_err_set(err, LPM_EFAIL, "out of memory");
    lpm_gale_sink sink = lpm_gale_cpu_sink(&s->c);
    int rc = lpm_gale_build(&s->g, fib, &sink, err);
    if (rc) {
        lpm_gale_cpu_free(&s->c);
        free(s);
        return rc;
    }
    *state = s;
    return LPM_OK;
}

static uint32_t gale_lookup_one(const void *state, const lpm_addr *a)
{
    return lpm_gale_cpu_lookup(&((const gale_state *)state)->c, a);
}

static void gale_lookup_batch(const void *state, const lpm_addr *a, uint32_t *nh, size_t n)
{
    const lpm_gale_cpu *c = &((const gale_state *)state)->c;
    for (size_t i = 0; i < n; i++)
        nh[i] = lpm_gale_cpu_lookup(c, &a[i]);
}

static int gale_add(void *state, const lpm_prefix *p, uint32_t nh, lpm_err *err)
{
    gale_state *s = state;
    int rc = lpm_gale_insert(&s->g, p, nh, err);
    return rc ? rc : lpm_gale_flush(&s->g, 4096, err);
}

static int gale_del(void *state, const lpm_prefix *p, lpm_err *err)
{
    gale_state *s = state;
    int rc = lpm_gale_delete(&s->g, p, err);
    return rc ? rc : lpm_gale_flush(&s->g, 4096, err);
}

static size_t gale_memory(const void *state)
{
    return lpm_gale_copy_bytes(&((const gale_state *)state)->g);
}

static void gale_destroy(void *state)
{
    gale_state *s = state;
    if (!s)
        return;
    lpm_gale_free(&s->g);
    lpm_gale_cpu_free(&s->c);
    free(s);
}

const lpm_engine_ops lpm_engine_gale = {
    .name = "gale",
    .summary = "GALE DIR-24-8 direct table (CPU build of the CUDA engine)",
    .families = LPM_ENGINE_V4,
    .build = gale_build,
    .lookup = gale_lookup_one,
    .lookup_batch = gale_lookup_batch,
    .add = gale_add,
    .del = gale_del,
    .memory = gale_memory,
    .destroy = gale_destroy,
};
