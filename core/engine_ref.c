/* The reference LPM as an engine, so it can be run and timed like the rest. */
#include "engine.h"
#include "ref_lpm.h"

static int ref_build(void **state, const lpm_fib *fib, lpm_err *err)
{
    lpm_ref *r;
    int rc = lpm_ref_build(&r, fib, err);
    if (!rc)
        *state = r;
    return rc;
}

static uint32_t ref_lookup(const void *s, const lpm_addr *a)
{
    return lpm_ref_lookup(s, a, NULL);
}

static void ref_lookup_batch(const void *s, const lpm_addr *a, uint32_t *nh, size_t n)
{
    lpm_ref_lookup_batch(s, a, nh, n);
}

static int ref_add(void *s, const lpm_prefix *p, uint32_t nh, lpm_err *err)
{
    return lpm_ref_add(s, p, nh) ? lpm_err_set(err, LPM_EFAIL, "out of memory") : LPM_OK;
}

static int ref_del(void *s, const lpm_prefix *p, lpm_err *err)
{
    (void)err;
    lpm_ref_del(s, p);
    return LPM_OK;
}

static size_t ref_memory(const void *s)
{
    return lpm_ref_memory(s);
}

static void ref_destroy(void *s)
{
    lpm_ref_free(s);
}

const lpm_engine_ops lpm_engine_ref = {
    .name = "ref",
    .summary = "reference LPM: one hash table per prefix length (the oracle)",
    .families = LPM_ENGINE_V4 | LPM_ENGINE_V6,
    .build = ref_build,
    .lookup = ref_lookup,
    .lookup_batch = ref_lookup_batch,
    .add = ref_add,
    .del = ref_del,
    .memory = ref_memory,
    .destroy = ref_destroy,
};
