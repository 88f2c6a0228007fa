/* Shared by the mapper's tests: address samples and the comparison of an
 * image's answers with the reference. Header-only (each test is one file). */
#ifndef LPM_MAPTEST_H
#define LPM_MAPTEST_H

#include <stdlib.h>

#include "testutil.h"
#include "../../core/rng.h"
#include "../../mapper/image.h"

/* n addresses: inside random table prefixes (random host bits, and the
 * first and last address of the prefix), plus uniform ones. */
static inline lpm_addr *mt_sample(const lpm_fib *f, size_t n, uint64_t seed)
{
    lpm_addr *a = malloc(n * sizeof *a);
    ck_assert_ptr_nonnull(a);
    lpm_rng r;
    lpm_rng_seed(&r, seed);
    unsigned w = lpm_family_bits(f->family);
    for (size_t i = 0; i < n; i++) {
        lpm_addr x = { lpm_rng_next(&r), w == 32 ? 0 : lpm_rng_next(&r) };
        if (w == 32)
            x.hi &= 0xFFFFFFFF00000000ULL;
        unsigned kind = (unsigned)(i % 8);
        if (f->n && kind != 0) {
            const lpm_prefix *p = &f->routes[lpm_rng_below(&r, f->n)].pfx;
            lpm_addr m = lpm_addr_mask(&x, p->len);
            if (kind == 1)
                x = p->addr;
            else if (kind == 2) {
                lpm_addr ones = { ~0ULL, w == 32 ? 0 : ~0ULL };
                if (w == 32)
                    ones.hi = 0xFFFFFFFF00000000ULL;
                lpm_addr om = lpm_addr_mask(&ones, p->len);
                x.hi = p->addr.hi | (ones.hi ^ om.hi);
                x.lo = p->addr.lo | (ones.lo ^ om.lo);
            } else {
                x.hi = p->addr.hi | (x.hi ^ m.hi);
                x.lo = p->addr.lo | (x.lo ^ m.lo);
            }
        }
        a[i] = x;
    }
    return a;
}

/* The image answers every address as the reference does (want[] holds the
 * reference's answers); the first mismatch fails with full detail. */
static inline void mt_check_image(const lpm_image *img, const lpm_ref *ref, const lpm_fib *fib,
                                  const lpm_addr *a, const uint32_t *want, size_t n, const char *who)
{
    for (size_t i = 0; i < n; i++) {
        uint32_t got = lpm_image_lookup(img, &a[i]);
        if (got != want[i])
            tu_check_answer(ref, fib, &a[i], got, who);
    }
}

#endif
