/* Helpers of the trie tests: small random nested tables and the two kinds
 * of addresses the tests look up (uniform, and inside a table prefix). */
#ifndef TRIES_UTIL_H
#define TRIES_UTIL_H

#include <stdio.h>

#include "testutil.h"
#include "../../core/rng.h"

/* Uniform over the family's address space. */
static inline lpm_addr tr_uniform(lpm_rng *r, int family)
{
    lpm_addr a = { lpm_rng_next(r), lpm_rng_next(r) };
    if (family == LPM_AF_INET) {
        a.hi &= 0xFFFFFFFF00000000ULL;
        a.lo = 0;
    }
    return a;
}

/* A random address inside prefix p. */
static inline lpm_addr tr_inside(lpm_rng *r, const lpm_prefix *p)
{
    lpm_addr x = tr_uniform(r, p->family), m = lpm_addr_mask(&x, p->len);
    lpm_addr a = { p->addr.hi | (x.hi ^ m.hi), p->addr.lo | (x.lo ^ m.lo) };
    return a;
}

/* Half uniform, half inside a random route of f (when it has any). */
static inline lpm_addr tr_addr(lpm_rng *r, const lpm_fib *f, int family)
{
    if (f->n && (lpm_rng_next(r) & 1))
        return tr_inside(r, &f->routes[lpm_rng_below(r, f->n)].pfx);
    return tr_uniform(r, family);
}

/* n random prefixes, few distinct top bits so that they nest, lengths up
 * to maxlen; next hops n0..n(k-1). */
static inline void tr_random_table(lpm_fib *f, int family, size_t n, unsigned maxlen,
                                   unsigned nhs, uint64_t seed)
{
    lpm_rng r;
    lpm_rng_seed(&r, seed);
    lpm_fib_init(f);
    for (size_t i = 0; i < n; i++) {
        lpm_addr a = tr_uniform(&r, family);
        a.hi &= 0xF0F0FFFFFFFFFFFFULL;
        unsigned len = (unsigned)lpm_rng_below(&r, maxlen + 1);
        if (lpm_rng_below(&r, 4) == 0) /* some short ones, to cover the rest */
            len = (unsigned)lpm_rng_below(&r, maxlen / 2 + 1);
        lpm_prefix p;
        ck_assert_int_eq(lpm_prefix_make(&a, family, len, 1, &p, NULL), 0);
        char nh[16];
        int k = snprintf(nh, sizeof nh, "n%u", (unsigned)(i % nhs));
        ck_assert_int_eq(lpm_fib_add_tok(f, &p, nh, (size_t)k, NULL), 0);
    }
    ck_assert_int_eq(lpm_fib_finish(f, NULL), 0);
}

#endif
