/* The poptrie engine against the reference LPM on its edge cases (default
 * route, host routes, prefixes at every level boundary, deletes that
 * uncover shorter prefixes, one prefix added and deleted many times,
 * next-hop changes), IPv4 and IPv6, single lookups and every batch this
 * CPU can run (portable and AVX-512), and on
 * every shared real table before
 * and after a tenth of its prefixes is deleted, re-added with new next
 * hops and restored. */
#include <stdio.h>
#include <stdlib.h>

#include "cpu_testlib.h"
#include "../../cpu/poptrie.h"

static const lpm_engine_ops *E = &lpm_engine_poptrie;

/* Single and batch lookups, against ref. */
static void check(const void *st, const lpm_ref *ref, const lpm_fib *fib, const lpm_addr *a, size_t n)
{
    const lpm_poptrie *t = st;
    uint32_t *nh = malloc((n ? n : 1) * sizeof *nh);
    ck_assert_ptr_nonnull(nh);
    for (size_t i = 0; i < n; i++)
        tu_check_answer(ref, fib, &a[i], E->lookup(st, &a[i]), "poptrie (single)");
    lpm_pt_batch_portable(t, a, nh, n);
    for (size_t i = 0; i < n; i++)
        tu_check_answer(ref, fib, &a[i], nh[i], "poptrie (portable batch)");
    if (t->family == LPM_AF_INET6 && lpm_pt_avx512_usable()) {
        lpm_pt_batch_v6_avx512(t, a, nh, n);
        for (size_t i = 0; i < n; i++)
            tu_check_answer(ref, fib, &a[i], nh[i], "poptrie (AVX-512 batch)");
    }
    free(nh);
}

/* The edges of every prefix in the list plus random addresses. */
static void check_prefixes(const void *st, const lpm_ref *ref, const lpm_fib *fib, const lpm_prefix *p,
                           size_t np, lpm_rng *r)
{
    size_t n = np * 6 + 600;
    lpm_addr *a = malloc(n * sizeof *a);
    ck_assert_ptr_nonnull(a);
    for (size_t i = 0; i < np; i++)
        ct_edges(&p[i], r, &a[i * 6]);
    ct_mixed_addrs(fib, r, &a[np * 6], 600);
    check(st, ref, fib, a, n);
    free(a);
}

static lpm_prefix pfx(const char *s)
{
    lpm_prefix p;
    ck_assert_int_eq(lpm_prefix_parse(s, 0, 0, &p, NULL), 0);
    return p;
}

/* An empty table of the family with next hops n0..n(count-1) interned. */
static void empty_fib(lpm_fib *f, int family, int count)
{
    lpm_fib_init(f);
    f->family = family;
    for (int i = 0; i < count; i++) {
        char nm[8];
        int k = snprintf(nm, sizeof nm, "n%d", i);
        lpm_nhtab_intern(&f->nh, nm, (size_t)k);
    }
}

static const char *v4_edges[] = {
    "0.0.0.0/0", "0.0.0.0/32", "255.255.255.255/32", "10.0.0.0/8", "10.0.0.0/17", "10.0.0.0/18",
    "10.0.0.0/19", "10.0.0.0/24", "10.0.0.0/25", "10.0.0.0/30", "10.0.0.0/31", "10.0.0.1/32",
    "10.0.0.64/26", "10.0.0.255/32", "10.0.255.0/24", "10.0.192.0/18", "10.1.2.3/32", "128.0.0.0/1",
};
static const char *v6_edges[] = {
    "::/0", "::/128", "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff/128", "2000::/15", "2001::/16", "2001::/17",
    "2001:c00::/22", "2001:c00::/23", "2001:db8::/32", "2001:db8::/58", "2001:db8::/63", "2001:db8::/64",
    "2001:db8::/65", "2001:db8::/124", "2001:db8::/125", "2001:db8::/127", "2001:db8::1/128",
    "2001:db8::fff0/124", "2001:db8:0:0:ffff::/80", "8000::/1",
};

/* Adds the list in random orders and deletes it again, longest first
 * and shortest first, checking every prefix's edges after each step: each
 * delete uncovers the next shorter prefix. Next hops below 16 (16-bit
 * leaves) and, in the second pair of runs, above 32767 (32-bit leaves:
 * the first such add rebuilds the trie). */
START_TEST(test_edges_nested)
{
    int family = _i & 1 ? LPM_AF_INET6 : LPM_AF_INET;
    uint32_t nhbase = _i >= 2 ? 40000 : 0;
    const char **s = family == LPM_AF_INET ? v4_edges : v6_edges;
    size_t np = family == LPM_AF_INET ? sizeof v4_edges / sizeof *s : sizeof v6_edges / sizeof *s;
    lpm_prefix p[32];
    for (size_t i = 0; i < np; i++)
        p[i] = pfx(s[i]);
    lpm_rng r;
    lpm_rng_seed(&r, 91 + (uint64_t)_i);
    for (int round = 0; round < 6; round++) {
        lpm_fib f;
        empty_fib(&f, family, (int)nhbase + 16);
        lpm_err err;
        void *st;
        ck_assert_int_eq(E->build(&st, &f, &err), 0);
        lpm_ref *ref = lpm_ref_new(family);
        size_t ord[32];
        for (size_t i = 0; i < np; i++)
            ord[i] = i;
        for (size_t i = np; i > 1; i--) {
            size_t j = lpm_rng_below(&r, i), t = ord[i - 1];
            ord[i - 1] = ord[j];
            ord[j] = t;
        }
        for (size_t i = 0; i < np; i++) {
            uint32_t nh = (uint32_t)lpm_rng_below(&r, 16) + (i ? nhbase : 0);
            ck_assert_int_eq(E->add(st, &p[ord[i]], nh, &err), 0);
            ck_assert_int_eq(lpm_ref_add(ref, &p[ord[i]], nh), 0);
            check_prefixes(st, ref, &f, p, np, &r);
        }
        /* Deletes by length, longest first on even rounds. */
        for (unsigned k = 0; k <= 128; k++) {
            unsigned len = round % 2 ? k : 128 - k;
            for (size_t i = 0; i < np; i++) {
                if (p[i].len != len)
                    continue;
                ck_assert_int_eq(E->del(st, &p[i], &err), 0);
                lpm_ref_del(ref, &p[i]);
                check_prefixes(st, ref, &f, p, np, &r);
            }
        }
        ck_assert_uint_eq(lpm_ref_count(ref), 0);
        E->destroy(st);
        lpm_ref_free(ref);
        lpm_fib_free(&f);
    }
}
END_TEST

/* One prefix at a time: added, its next hop replaced, deleted, 300 times,
 * under a covering prefix and with a longer one inside it. */
START_TEST(test_add_delete_add)
{
    int family = _i ? LPM_AF_INET6 : LPM_AF_INET;
    const char *v4[] = { "0.0.0.0/0", "192.168.0.0/16", "192.168.0.0/24", "192.168.0.128/25",
                         "192.168.0.7/32", "192.168.64.0/18" };
    const char *v6[] = { "::/0", "2001:db8::/32", "2001:db8::/48", "2001:db8::/64", "2001:db8::7/128",
                         "2001:db8:4000::/34" };
    const char **s = family == LPM_AF_INET ? v4 : v6;
    lpm_fib f;
    empty_fib(&f, family, 40001);
    lpm_err err;
    void *st;
    ck_assert_int_eq(E->build(&st, &f, &err), 0);
    lpm_ref *ref = lpm_ref_new(family);
    lpm_prefix p[6];
    for (int i = 0; i < 6; i++)
        p[i] = pfx(s[i]);
    lpm_rng r;
    lpm_rng_seed(&r, 95);
    /* The covering /0 and /16 (/32) and the long one inside stay. */
    for (int i = 0; i < 6; i += 3) {
        ck_assert_int_eq(E->add(st, &p[i], 1, &err), 0);
        lpm_ref_add(ref, &p[i], 1);
    }
    for (int it = 0; it < 300; it++) {
        const lpm_prefix *q = &p[1 + it % 5];
        if (q == &p[3])
            q = &p[2];
        /* From iteration 200 on a next hop 16-bit leaves cannot hold. */
        uint32_t nh = 2 + (uint32_t)(it % 13) + (it >= 200 ? 39000 : 0);
        ck_assert_int_eq(E->add(st, q, nh, &err), 0);
        lpm_ref_add(ref, q, nh);
        ck_assert_uint_eq(((const lpm_poptrie *)st)->lw, it >= 200 ? 4 : 2);
        check_prefixes(st, ref, &f, p, 6, &r);
        ck_assert_int_eq(E->add(st, q, nh + 1, &err), 0); /* next-hop change */
        lpm_ref_add(ref, q, nh + 1);
        check_prefixes(st, ref, &f, p, 6, &r);
        ck_assert_int_eq(E->add(st, q, nh + 1, &err), 0); /* same again: no change */
        check_prefixes(st, ref, &f, p, 6, &r);
        ck_assert_int_eq(E->del(st, q, &err), 0);
        lpm_ref_del(ref, q);
        check_prefixes(st, ref, &f, p, 6, &r);
        ck_assert_int_eq(E->del(st, q, &err), 0); /* absent: a no-op */
        check_prefixes(st, ref, &f, p, 6, &r);
    }
    E->destroy(st);
    lpm_ref_free(ref);
    lpm_fib_free(&f);
}
END_TEST

/* Next hops the lookup cannot encode and prefixes of the other family
 * are refused with a reason, and the table stays as it was. */
START_TEST(test_refusals)
{
    lpm_fib f;
    empty_fib(&f, LPM_AF_INET, 16);
    lpm_err err;
    void *st;
    ck_assert_int_eq(E->build(&st, &f, &err), 0);
    lpm_prefix a = pfx("10.0.0.0/8"), b = pfx("2001::/16");
    ck_assert_int_eq(E->add(st, &a, 0x7FFFFFFFu, &err), LPM_EINPUT);
    ck_assert_int_eq(E->add(st, &b, 1, &err), LPM_EINPUT);
    ck_assert_int_eq(E->del(st, &b, &err), LPM_EINPUT);
    lpm_addr x = a.addr;
    ck_assert_uint_eq(E->lookup(st, &x), LPM_NH_NONE);
    E->destroy(st);
    lpm_fib_free(&f);
}
END_TEST

/* A real table: checked, then a tenth of its prefixes deleted (checked),
 * re-added with other next hops (checked) and restored (checked). */
START_TEST(test_real_tables)
{
    const tu_table *tb = &tu_tables[_i];
    char path[4096];
    if (!tu_data_file(tb->file, path, sizeof path))
        return;
    lpm_fib f;
    tu_load(&f, path);
    lpm_err err;
    lpm_ref *ref;
    ck_assert_int_eq(lpm_ref_build(&ref, &f, &err), 0);
    void *st;
    ck_assert_msg(E->build(&st, &f, &err) == 0, "%s", err.msg);
    lpm_rng r;
    lpm_rng_seed(&r, 97 + (uint64_t)_i);
    size_t nmix = 200000, ns = f.n / 10;
    lpm_addr *a = malloc((nmix + ns * 6) * sizeof *a);
    lpm_prefix *sel = malloc((ns ? ns : 1) * sizeof *sel);
    uint32_t *old = malloc((ns ? ns : 1) * sizeof *old);
    for (size_t i = 0; i < ns; i++) {
        const lpm_route *rt = &f.routes[lpm_rng_below(&r, f.n)];
        sel[i] = rt->pfx;
        old[i] = lpm_ref_get(ref, &rt->pfx);
        ct_edges(&sel[i], &r, &a[nmix + i * 6]);
    }
    ct_mixed_addrs(&f, &r, a, nmix);
    size_t n = nmix + ns * 6;
    check(st, ref, &f, a, n);
    for (int phase = 0; phase < 3; phase++) {
        for (size_t i = 0; i < ns; i++) {
            if (phase == 0) {
                ck_assert_int_eq(E->del(st, &sel[i], &err), 0);
                lpm_ref_del(ref, &sel[i]);
            } else {
                uint32_t nh = phase == 1 ? (old[i] + 1) % (uint32_t)f.nh.n : old[i];
                ck_assert_int_eq(E->add(st, &sel[i], nh, &err), 0);
                ck_assert_int_eq(lpm_ref_add(ref, &sel[i], nh), 0);
            }
        }
        check(st, ref, &f, a, n);
    }
    /* Restored: the same structure size as a fresh build of the table. */
    void *st2;
    ck_assert_int_eq(E->build(&st2, &f, &err), 0);
    ck_assert_uint_eq(E->memory(st), E->memory(st2));
    E->destroy(st2);
    E->destroy(st);
    free(sel);
    free(old);
    free(a);
    lpm_ref_free(ref);
    lpm_fib_free(&f);
}
END_TEST

/* IPv4 runs are 16-bit while next hops allow: more than 0x7FFF nodes
 * below /24 (a /25 in each of 33,000 /24s) do not fit them, and the
 * structure is rebuilt with 32-bit ones, by an add (_i 0) or at build
 * (_i 1); answers stay right either way. */
START_TEST(test_wide_nodes)
{
    enum { NPFX = 33000 };
    lpm_fib f;
    empty_fib(&f, LPM_AF_INET, 16);
    lpm_err err;
    lpm_ref *ref = lpm_ref_new(LPM_AF_INET);
    lpm_prefix *p = malloc(NPFX * sizeof *p);
    ck_assert_ptr_nonnull(p);
    for (uint32_t i = 0; i < NPFX; i++) {
        char buf[32];
        snprintf(buf, sizeof buf, "10.%u.%u.128/25", i >> 8, i & 255);
        p[i] = pfx(buf);
        lpm_ref_add(ref, &p[i], 1 + i % 13);
        if (_i)
            ck_assert_int_eq(lpm_fib_add(&f, &p[i], 1 + i % 13, &err), 0);
    }
    void *st;
    ck_assert_int_eq(E->build(&st, &f, &err), 0);
    for (uint32_t i = 0; i < NPFX && !_i; i++) {
        ck_assert_int_eq(E->add(st, &p[i], 1 + i % 13, &err), 0);
        if (i < 0x7000)
            ck_assert_uint_eq(((const lpm_poptrie *)st)->lw, 2);
    }
    ck_assert_uint_eq(((const lpm_poptrie *)st)->lw, 4);
    lpm_rng r;
    lpm_rng_seed(&r, 97);
    check_prefixes(st, ref, &f, p, NPFX, &r);
    E->destroy(st);
    free(p);
    lpm_ref_free(ref);
    lpm_fib_free(&f);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("cpu_poptrie");
    TCase *t = tcase_create("poptrie");
    tcase_add_loop_test(t, test_edges_nested, 0, 4);
    tcase_add_loop_test(t, test_add_delete_add, 0, 2);
    tcase_add_test(t, test_refusals);
    tcase_add_loop_test(t, test_wide_nodes, 0, 2);
    tcase_add_loop_test(t, test_real_tables, 0, (int)tu_ntables);
    suite_add_tcase(s, t);
    return tu_run(s);
}
