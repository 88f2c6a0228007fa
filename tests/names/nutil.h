/* Helpers of the name tests: random name tables, and the one comparison
 * every name test makes (an engine against the reference, with the name,
 * both answers and the table name that should have matched). */
#ifndef LPM_TEST_NUTIL_H
#define LPM_TEST_NUTIL_H

#include <stdio.h>
#include <string.h>

#include "testutil.h"
#include "../../core/rng.h"
#include "../../names/nengine.h"
#include "../../names/nref.h"
#include "../../names/ntable.h"

/* A random name over a small alphabet so that names share prefixes. */
static inline size_t nu_random_name(lpm_rng *r, char *out, unsigned maxcomp)
{
    static const char al[] = "abc/-x.Z9~";
    size_t o = 0;
    unsigned comps = (unsigned)lpm_rng_below(r, maxcomp + 1);
    for (unsigned c = 0; c < comps; c++) {
        unsigned len = 1 + (unsigned)lpm_rng_below(r, c ? 6 : 2);
        for (unsigned k = 0; k < len; k++) {
            char ch = al[lpm_rng_below(r, sizeof al - 1)];
            out[o++] = ch == '/' ? 'a' : ch;
        }
        out[o++] = '/';
    }
    out[o] = 0;
    return o;
}

static inline void nu_random_table(lpm_ntable *t, size_t n, uint64_t seed)
{
    lpm_rng r;
    lpm_rng_seed(&r, seed);
    lpm_nref *seen;
    lpm_ntable empty;
    lpm_ntable_init(&empty);
    ck_assert_int_eq(lpm_nref_build(&seen, &empty, NULL), 0);
    lpm_ntable_init(t);
    char buf[LPM_NAME_MAX + 1];
    while (t->n < n) {
        size_t l = nu_random_name(&r, buf, 5);
        if (lpm_nref_get(seen, buf, l) != 0xFFFFFFFFu)
            continue;
        ck_assert_int_eq(lpm_nref_insert(seen, buf, l, 1, NULL), 0);
        ck_assert_int_eq(lpm_ntable_add(t, buf, l, (uint32_t)lpm_rng_below(&r, 7), NULL), 0);
    }
    lpm_nref_free(seen);
    ck_assert_int_eq(lpm_ntable_sort(t, NULL), 0);
}

static inline void nu_check(const lpm_nengine *ref, const char *who, const char *s, size_t len,
                            uint32_t got)
{
    uint32_t want = lpm_nengine_lookup(ref, s, len);
    if (got != want) {
        long m = lpm_nref_match_len(ref->ref, s, len);
        ck_abort_msg("%s: /%.*s: got %d, reference %d (should match /%.*s)", who, (int)len, s,
                     got == 0xFFFFFFFFu ? -1 : (int)got, want == 0xFFFFFFFFu ? -1 : (int)want,
                     m < 0 ? 4 : (int)m, m < 0 ? "none" : s);
    }
}

#endif
