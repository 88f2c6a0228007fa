#include "cpu_testlib.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const lpm_engine_ops *cpu_engines[64];
static size_t n_cpu_engines;

static void find_cpu_engines(void)
{
    if (n_cpu_engines)
        return;
    for (size_t i = 0; i < lpm_engine_count() && n_cpu_engines < 64; i++)
        if (lpm_engine_at(i)->cost)
            cpu_engines[n_cpu_engines++] = lpm_engine_at(i);
    if (!n_cpu_engines) {
        fprintf(stderr, "cpu_testlib: the registry has no CPU engine\n");
        abort();
    }
}

const lpm_engine_ops *const *ct_engine_list(void)
{
    find_cpu_engines();
    return cpu_engines;
}

size_t ct_engine_count(void)
{
    find_cpu_engines();
    return n_cpu_engines;
}

int ct_supports(const lpm_engine_ops *e, int family)
{
    return e->families & (family == LPM_AF_INET ? LPM_ENGINE_V4 : LPM_ENGINE_V6);
}

static lpm_addr rand_addr(lpm_rng *r, int family)
{
    lpm_addr a = { lpm_rng_next(r), lpm_rng_next(r) };
    if (family == LPM_AF_INET) {
        a.hi &= 0xFFFFFFFF00000000ULL;
        a.lo = 0;
    }
    return a;
}

lpm_prefix ct_random_prefix(lpm_rng *r, int family)
{
    /* 16 clusters of few top bits so prefixes nest and share nodes; lengths
     * weighted to where real tables have them, with every length possible. */
    lpm_addr a = rand_addr(r, family);
    uint64_t cluster = lpm_rng_below(r, 16) << 60 | (lpm_rng_below(r, 4) << 52);
    a.hi = (a.hi & 0x000FFFFFFFFFFFFFULL & ~(3ULL << 52)) | cluster;
    if (family == LPM_AF_INET)
        a.hi &= 0xFFFFFFFF00000000ULL;
    unsigned w = lpm_family_bits(family), len;
    /* Very short prefixes are rare (as in real tables): each rewrites
     * millions of DIR-24-8 entries. */
    unsigned k = (unsigned)lpm_rng_below(r, 400);
    if (k == 0)
        len = (unsigned)lpm_rng_below(r, 8);
    else if (k < 80)
        len = 8 + (unsigned)lpm_rng_below(r, w - 7);
    else if (family == LPM_AF_INET)
        len = 16 + (unsigned)lpm_rng_below(r, 9);
    else
        len = 28 + (unsigned)lpm_rng_below(r, 37);
    lpm_prefix p;
    ck_assert_int_eq(lpm_prefix_make(&a, family, len, 1, &p, NULL), 0);
    return p;
}

void ct_random_table(lpm_fib *f, int family, size_t n, uint64_t seed)
{
    lpm_rng r;
    lpm_rng_seed(&r, seed);
    lpm_fib_init(f);
    for (size_t i = 0; i < n; i++) {
        lpm_prefix p = ct_random_prefix(&r, family);
        char nh[8];
        int k = snprintf(nh, sizeof nh, "n%u", (unsigned)lpm_rng_below(&r, 40));
        ck_assert_int_eq(lpm_fib_add_tok(f, &p, nh, (size_t)k, NULL), 0);
    }
    ck_assert_int_eq(lpm_fib_finish(f, NULL), 0);
}

static lpm_addr add1(lpm_addr a, int family, int delta)
{
    uint64_t step = family == LPM_AF_INET ? 1ULL << 32 : 1;
    if (family == LPM_AF_INET) {
        a.hi += delta > 0 ? step : -step;
    } else if (delta > 0) {
        if (++a.lo == 0)
            a.hi++;
    } else {
        if (a.lo-- == 0)
            a.hi--;
    }
    return a;
}

void ct_edges(const lpm_prefix *p, lpm_rng *r, lpm_addr *out)
{
    unsigned w = lpm_family_bits(p->family);
    lpm_addr last = p->addr;
    for (unsigned i = p->len; i < w; i++)
        lpm_addr_set_bit(&last, i, 1);
    out[0] = p->addr;
    out[1] = last;
    out[2] = add1(p->addr, p->family, -1);
    out[3] = add1(last, p->family, +1);
    for (int k = 4; k < 6; k++) {
        lpm_addr x = rand_addr(r, p->family), m = lpm_addr_mask(&x, p->len);
        out[k].hi = p->addr.hi | (x.hi ^ m.hi);
        out[k].lo = p->addr.lo | (x.lo ^ m.lo);
    }
}

void ct_check(const lpm_engine_ops *e, const void *st, const lpm_ref *ref,
              const lpm_fib *fib, const lpm_addr *a, size_t n)
{
    uint32_t *nh = malloc((n ? n : 1) * sizeof *nh);
    ck_assert_ptr_nonnull(nh);
    if (e->lookup_batch)
        e->lookup_batch(st, a, nh, n);
    for (size_t i = 0; i < n; i++) {
        uint32_t one = e->lookup(st, &a[i]);
        tu_check_answer(ref, fib, &a[i], one, e->name);
        if (e->lookup_batch)
            tu_check_answer(ref, fib, &a[i], nh[i], e->name);
    }
    free(nh);
}

void ct_mixed_addrs(const lpm_fib *f, lpm_rng *r, lpm_addr *a, size_t n)
{
    lpm_addr e[6];
    for (size_t i = 0; i < n;) {
        if (!f->n || lpm_rng_below(r, 4) == 0) {
            a[i++] = rand_addr(r, f->family);
            continue;
        }
        ct_edges(&f->routes[lpm_rng_below(r, f->n)].pfx, r, e);
        for (int k = 0; k < 6 && i < n; k++)
            a[i++] = e[k];
    }
}
