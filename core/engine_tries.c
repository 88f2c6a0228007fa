/* The tries as lookup engines: `unibit` (the binary trie as it is) and
 * `multibit` (controlled prefix expansion with the default strides of
 * lpm_multibit_default_strides, docs/tries.md). */
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "engine_tries.h"
#include "trie_multibit.h"
#include "trie_unibit.h"

/* ---- unibit ---- */

static int uni_build(void **state, const lpm_fib *fib, lpm_err *err)
{
    lpm_unibit *t = malloc(sizeof *t);
    if (!t)
        return lpm_err_set(err, LPM_EFAIL, "out of memory");
    int rc = lpm_unibit_build(t, fib, err);
    if (rc) {
        free(t);
        return rc;
    }
    *state = t;
    return LPM_OK;
}

static uint32_t uni_lookup(const void *s, const lpm_addr *a)
{
    return lpm_unibit_lookup(s, a);
}

static int uni_add(void *s, const lpm_prefix *p, uint32_t nh, lpm_err *err)
{
    return lpm_unibit_insert(s, p, nh, err);
}

static int uni_del(void *s, const lpm_prefix *p, lpm_err *err)
{
    (void)err;
    lpm_unibit_delete(s, p, NULL); /* absent: a no-op, as for every engine */
    return LPM_OK;
}

static size_t uni_memory(const void *s)
{
    return lpm_unibit_memory(s);
}

static void uni_destroy(void *s)
{
    if (s)
        lpm_unibit_free(s);
    free(s);
}

const lpm_engine_ops lpm_engine_unibit = {
    .name = "unibit",
    .summary = "binary trie, one bit per step",
    .families = LPM_ENGINE_V4 | LPM_ENGINE_V6,
    .build = uni_build,
    .lookup = uni_lookup,
    .add = uni_add,
    .del = uni_del,
    .memory = uni_memory,
    .destroy = uni_destroy,
};

/* ---- multibit ---- */

int lpm_multibit_default_strides(const lpm_unibit *t, lpm_strides *st, lpm_err *err)
{
    if (t->family == LPM_AF_INET) {
        static const unsigned v4[] = { LPM_MB_DEFAULT_V4 };
        return lpm_strides_fixed(LPM_AF_INET, v4, sizeof v4 / sizeof v4[0], st, err);
    }
    return lpm_strides_optimal(t, LPM_MB_DEFAULT_V6_LEVELS, st, err);
}

int lpm_engine_multibit_build_spec(void **state, const lpm_fib *fib, const char *spec, lpm_err *err)
{
    lpm_multibit *m = malloc(sizeof *m);
    if (!m)
        return lpm_err_set(err, LPM_EFAIL, "out of memory");
    lpm_unibit u;
    lpm_strides st;
    int rc = lpm_unibit_build(&u, fib, err);
    if (!rc) {
        rc = spec ? lpm_strides_spec(&u, spec, &st, err) : lpm_multibit_default_strides(&u, &st, err);
        if (rc)
            lpm_unibit_free(&u);
        else
            rc = lpm_multibit_build_with(m, fib, &st, &u, err);
    }
    if (rc) {
        free(m);
        return rc;
    }
    *state = m;
    return LPM_OK;
}

void lpm_engine_multibit_describe(const void *state, char *buf, size_t size)
{
    lpm_strides_format(&((const lpm_multibit *)state)->st, buf, size);
}

static int mb_build(void **state, const lpm_fib *fib, lpm_err *err)
{
    return lpm_engine_multibit_build_spec(state, fib, NULL, err);
}

static uint32_t mb_lookup(const void *s, const lpm_addr *a)
{
    return lpm_multibit_lookup(s, a);
}

static void mb_lookup_batch(const void *s, const lpm_addr *a, uint32_t *nh, size_t n)
{
    lpm_multibit_lookup_batch(s, a, nh, n);
}

static int mb_add(void *s, const lpm_prefix *p, uint32_t nh, lpm_err *err)
{
    return lpm_multibit_insert(s, p, nh, err);
}

static int mb_del(void *s, const lpm_prefix *p, lpm_err *err)
{
    const lpm_multibit *m = s;
    lpm_err e2;
    int rc = lpm_multibit_delete(s, p, &e2);
    /* Absent prefixes are a no-op, as for every engine; a prefix of the
     * other family or longer than the strides cover is an error. */
    if (rc == LPM_EINPUT && p->family == m->family && p->len <= m->offset[m->st.levels])
        return LPM_OK;
    if (rc && err)
        *err = e2;
    return rc;
}

static size_t mb_memory(const void *s)
{
    size_t total;
    lpm_multibit_stats(s, NULL, &total);
    return total;
}

static void mb_destroy(void *s)
{
    if (s)
        lpm_multibit_free(s);
    free(s);
}

const lpm_engine_ops lpm_engine_multibit = {
    .name = "multibit",
    .summary = "multibit trie, leaf-pushed 32-bit words (IPv4 " LPM_MB_DEFAULT_V4_TEXT
               ", IPv6 optimal strides, docs/tries.md)",
    .families = LPM_ENGINE_V4 | LPM_ENGINE_V6,
    .build = mb_build,
    .lookup = mb_lookup,
    .lookup_batch = mb_lookup_batch,
    .add = mb_add,
    .del = mb_del,
    .memory = mb_memory,
    .destroy = mb_destroy,
};
