/* Shared by the gpu tests: random nested tables, the linx update trace,
 * and "every answer equals the reference" over a workload. */
#ifndef LPM_GPUTEST_H
#define LPM_GPUTEST_H

#include <stdio.h>
#include <stdlib.h>

#include "testutil.h"
#include "../../core/rng.h"
#include "../../gpu/workload.h"

/* n random prefixes with few distinct top bits so that they nest; IPv6
 * lengths reach 128 (longer than GAMT's 64 bits on purpose). */
static inline void gt_random_table(lpm_fib *f, int family, size_t n, uint64_t seed)
{
    lpm_rng r;
    lpm_rng_seed(&r, seed);
    lpm_fib_init(f);
    unsigned w = lpm_family_bits(family);
    for (size_t i = 0; i < n; i++) {
        lpm_addr a = { lpm_rng_next(&r) & 0xF0F0FF00FFFFFFFFULL, lpm_rng_next(&r) & 0xFF000000000000FFULL };
        if (family == 4) {
            a.hi &= 0xFFFFFFFF00000000ULL;
            a.lo = 0;
        }
        unsigned len = (unsigned)lpm_rng_below(&r, w + 1);
        if (i % 4 == 0) /* many around the common lengths */
            len = family == 4 ? 16 + (unsigned)lpm_rng_below(&r, 9) : 32 + (unsigned)lpm_rng_below(&r, 17);
        lpm_prefix p;
        ck_assert_int_eq(lpm_prefix_make(&a, family, len, 1, &p, NULL), 0);
        char nh[8];
        int k = snprintf(nh, sizeof nh, "n%u", (unsigned)(i % 37));
        ck_assert_int_eq(lpm_fib_add_tok(f, &p, nh, (size_t)k, NULL), 0);
    }
    ck_assert_int_eq(lpm_fib_finish(f, NULL), 0);
}

/* Lookups for a table: lpm_gpu_addrs plus addresses just inside and just
 * outside prefix edges. */
static inline lpm_addr *gt_addrs(const lpm_fib *f, size_t n, uint64_t seed)
{
    lpm_addr *a = malloc(n * sizeof *a);
    ck_assert_ptr_nonnull(a);
    lpm_gpu_addrs(f, n, seed, a);
    lpm_rng r;
    lpm_rng_seed(&r, seed ^ 0x5555);
    for (size_t i = 3; i < n && f->n; i += 4) {
        const lpm_prefix *p = &f->routes[lpm_rng_below(&r, f->n)].pfx;
        a[i] = p->addr; /* the first address of the prefix */
        if (i % 8 == 7 && p->len > 0) { /* the last one */
            lpm_addr ones = { ~0ULL, ~0ULL }, m = lpm_addr_mask(&ones, p->len);
            a[i].hi |= ~m.hi;
            a[i].lo |= ~m.lo;
            if (f->family == 4) {
                a[i].hi &= 0xFFFFFFFF00000000ULL;
                a[i].lo = 0;
            }
        }
    }
    return a;
}

/* The linx update trace, or NULL with a SKIP line. */
static inline lpm_update *gt_linx(lpm_fib *f, size_t *n)
{
    char path[4096];
    if (!tu_data_file("linx-update-20141217-p52.txt", path, sizeof path))
        return NULL;
    lpm_update *u;
    lpm_err err;
    ck_assert_msg(lpm_gpu_updates_load(path, f, 0, &u, n, &err) == 0, "%s", err.msg);
    return u;
}

/* Applies an update to the oracle (withdrawing an absent prefix is a no-op). */
static inline void gt_ref_apply(lpm_ref *ref, const lpm_update *u)
{
    if (u->op == 'w')
        lpm_ref_del(ref, &u->pfx);
    else
        ck_assert_int_eq(lpm_ref_add(ref, &u->pfx, u->nh), 0);
}

/* What gt_replay drives: one update into the engine's host side, and a
 * flush of everything pending (bubbles into the lookup copy). */
typedef struct {
    int (*update)(void *x, const lpm_update *u, lpm_err *err);
    int (*flush)(void *x, lpm_err *err);
    size_t (*pending)(const void *x);
} gt_path;

/* Replays n updates into x and the oracle, flushing every per_flush. */
static inline void gt_replay(const gt_path *p, void *x, lpm_ref *ref, const lpm_update *u, size_t n,
                             size_t per_flush)
{
    lpm_err err;
    for (size_t i = 0; i < n; i++) {
        ck_assert_msg(p->update(x, &u[i], &err) == 0, "update %zu: %s", i, err.msg);
        gt_ref_apply(ref, &u[i]);
        if ((i + 1) % per_flush == 0 || i + 1 == n) {
            ck_assert_msg(p->flush(x, &err) == 0, "flush: %s", err.msg);
            ck_assert_uint_eq(p->pending(x), 0);
        }
    }
}

#endif
