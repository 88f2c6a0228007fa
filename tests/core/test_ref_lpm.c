#include <stdio.h>
#include <stdlib.h>

#include "testutil.h"
#include "../../core/rng.h"

/* The oracle is checked against a linear scan, the most obvious LPM there is. */
static uint32_t scan(const lpm_fib *f, const lpm_addr *a)
{
    int best = -1;
    uint32_t nh = LPM_NH_NONE;
    for (size_t i = 0; i < f->n; i++)
        if (lpm_prefix_covers(&f->routes[i].pfx, a) && f->routes[i].pfx.len > best) {
            best = f->routes[i].pfx.len;
            nh = f->routes[i].nh;
        }
    return nh;
}

START_TEST(test_against_scan)
{
    int family = _i ? 6 : 4;
    lpm_fib f;
    tu_random_table(&f, family, 400, 7 + (uint64_t)_i);
    lpm_ref *ref;
    ck_assert_int_eq(lpm_ref_build(&ref, &f, NULL), 0);
    lpm_rng r;
    lpm_rng_seed(&r, 99);
    for (int i = 0; i < 20000; i++) {
        lpm_addr a = { lpm_rng_next(&r) & 0xF0FFFFFFFFFFFFFFULL, lpm_rng_next(&r) };
        if (family == 4) {
            a.hi &= 0xFFFFFFFF00000000ULL;
            a.lo = 0;
        }
        /* Every few, an address inside a table prefix. */
        if (i % 3 == 0) {
            const lpm_prefix *p = &f.routes[lpm_rng_below(&r, f.n)].pfx;
            lpm_addr m = lpm_addr_mask(&a, p->len);
            a.hi = p->addr.hi | (a.hi ^ m.hi);
            a.lo = p->addr.lo | (a.lo ^ m.lo);
        }
        ck_assert_uint_eq(lpm_ref_lookup(ref, &a, NULL), scan(&f, &a));
    }
    /* Delete half, and check again. */
    for (size_t i = 0; i < f.n; i += 2) {
        ck_assert_int_eq(lpm_ref_del(ref, &f.routes[i].pfx), 1);
        ck_assert_int_eq(lpm_ref_del(ref, &f.routes[i].pfx), 0);
        f.routes[i].nh = LPM_NH_NONE;
        f.routes[i].pfx.len = 255; /* out of the scan */
    }
    for (size_t i = 0; i < f.n; i++)
        if (f.routes[i].pfx.len == 255)
            f.routes[i].pfx.len = 0, f.routes[i].pfx.addr.hi = 1; /* never covers */
    for (int i = 0; i < 20000; i++) {
        lpm_addr a = { lpm_rng_next(&r) & 0xF0FFFFFFFFFFFFFFULL, lpm_rng_next(&r) };
        if (family == 4) {
            a.hi &= 0xFFFFFFFF00000000ULL;
            a.lo = 0;
        }
        ck_assert_uint_eq(lpm_ref_lookup(ref, &a, NULL), scan(&f, &a));
    }
    lpm_ref_free(ref);
    lpm_fib_free(&f);
}
END_TEST

START_TEST(test_duplicates_last_wins)
{
    lpm_fib f;
    lpm_fib_init(&f);
    lpm_prefix p;
    ck_assert_int_eq(lpm_prefix_parse("10.0.0.0/8", 0, 0, &p, NULL), 0);
    ck_assert_int_eq(lpm_fib_add_tok(&f, &p, "a", 1, NULL), 0);
    ck_assert_int_eq(lpm_fib_add_tok(&f, &p, "b", 1, NULL), 0);
    ck_assert_int_eq(lpm_fib_finish(&f, NULL), 0);
    ck_assert_uint_eq(f.n, 1);
    ck_assert_uint_eq(f.duplicates, 1);
    ck_assert_str_eq(lpm_nhtab_name(&f.nh, f.routes[0].nh), "b");
    lpm_fib_free(&f);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("ref_lpm");
    TCase *t = tcase_create("ref_lpm");
    tcase_add_loop_test(t, test_against_scan, 0, 2);
    tcase_add_test(t, test_duplicates_last_wins);
    suite_add_tcase(s, t);
    return tu_run(s);
}
