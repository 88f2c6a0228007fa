/* Unibit trie: level counts and leaf pushing on a trie computed by hand,
 * lookups against the reference, insert / delete sequences with pruning. */
#include <stdlib.h>
#include <string.h>

#include "tries_util.h"
#include "../../core/trie_unibit.h"

static void add(lpm_fib *f, const char *pfx, const char *nh)
{
    lpm_prefix p;
    lpm_err err;
    ck_assert_msg(lpm_prefix_parse(pfx, 0, 0, &p, &err) == 0, "%s: %s", pfx, err.msg);
    ck_assert_int_eq(lpm_fib_add_tok(f, &p, nh, strlen(nh), NULL), 0);
}

static uint32_t look(const lpm_unibit *t, const char *addr)
{
    lpm_addr a;
    int fam;
    ck_assert_int_eq(lpm_addr_parse(addr, &fam, &a, NULL), 0);
    return lpm_unibit_lookup(t, &a);
}

/* 0/1 a, 128/2 b, 192/3 c: root; "0" "1"; "10" "11"; "110". */
START_TEST(test_by_hand)
{
    lpm_fib f;
    lpm_fib_init(&f);
    add(&f, "0.0.0.0/1", "a");
    add(&f, "128.0.0.0/2", "b");
    add(&f, "192.0.0.0/3", "c");
    ck_assert_int_eq(lpm_fib_finish(&f, NULL), 0);
    uint32_t a = lpm_nhtab_find(&f.nh, "a", 1), b = lpm_nhtab_find(&f.nh, "b", 1),
             c = lpm_nhtab_find(&f.nh, "c", 1);
    lpm_unibit t;
    ck_assert_int_eq(lpm_unibit_build(&t, &f, NULL), 0);
    size_t n[129];
    lpm_unibit_level_counts(&t, n);
    ck_assert_uint_eq(n[0], 1);
    ck_assert_uint_eq(n[1], 2);
    ck_assert_uint_eq(n[2], 2);
    ck_assert_uint_eq(n[3], 1);
    ck_assert_uint_eq(n[4], 0);
    ck_assert_uint_eq(t.live, 6);
    ck_assert_uint_eq(t.prefixes, 3);
    ck_assert_uint_eq(look(&t, "1.2.3.4"), a);
    ck_assert_uint_eq(look(&t, "130.0.0.1"), b);
    ck_assert_uint_eq(look(&t, "200.0.0.1"), c);
    ck_assert_uint_eq(look(&t, "230.0.0.1"), LPM_NH_NONE);
    ck_assert_uint_eq(lpm_unibit_memory(&t), 6 * sizeof(lpm_unode));

    /* Leaf pushing adds "111" (no route) and moves every next hop to a leaf. */
    lpm_unibit lp;
    ck_assert_int_eq(lpm_unibit_leaf_push(&t, &lp, NULL), 0);
    lpm_unibit_level_counts(&lp, n);
    ck_assert_uint_eq(n[0], 1);
    ck_assert_uint_eq(n[1], 2);
    ck_assert_uint_eq(n[2], 2);
    ck_assert_uint_eq(n[3], 2);
    ck_assert_uint_eq(n[4], 0);
    ck_assert_uint_eq(look(&lp, "200.0.0.1"), c);
    ck_assert_uint_eq(look(&lp, "230.0.0.1"), LPM_NH_NONE);
    lpm_unibit_free(&lp);

    /* Delete prunes: removing c drops "11" and "110". */
    lpm_prefix p;
    ck_assert_int_eq(lpm_prefix_parse("192.0.0.0/3", 0, 0, &p, NULL), 0);
    ck_assert_int_eq(lpm_unibit_delete(&t, &p, NULL), 0);
    ck_assert_int_eq(lpm_unibit_delete(&t, &p, NULL), LPM_EINPUT);
    ck_assert_uint_eq(t.live, 4);
    ck_assert_uint_eq(lpm_unibit_find(&t, &p), 0);
    ck_assert_uint_eq(look(&t, "200.0.0.1"), LPM_NH_NONE);
    /* Replacing a next hop keeps the count of prefixes. */
    ck_assert_int_eq(lpm_prefix_parse("128.0.0.0/2", 0, 0, &p, NULL), 0);
    ck_assert_int_eq(lpm_unibit_insert(&t, &p, a, NULL), 0);
    ck_assert_uint_eq(t.prefixes, 2);
    ck_assert_uint_eq(look(&t, "130.0.0.1"), a);
    lpm_unibit_free(&t);
    lpm_fib_free(&f);
}
END_TEST

/* Leaf pushing on random tables: same answers, and the shape it promises. */
START_TEST(test_leaf_push_random)
{
    int family = _i ? 6 : 4;
    lpm_fib f;
    tr_random_table(&f, family, 1500, family == 4 ? 32 : 128, 7, 31 + (uint64_t)_i);
    lpm_ref *ref;
    ck_assert_int_eq(lpm_ref_build(&ref, &f, NULL), 0);
    lpm_unibit t, lp;
    ck_assert_int_eq(lpm_unibit_build(&t, &f, NULL), 0);
    ck_assert_int_eq(lpm_unibit_leaf_push(&t, &lp, NULL), 0);
    for (size_t i = 0; i < lp.n; i++) {
        const lpm_unode *u = &lp.node[i];
        if (u->child[0] || u->child[1]) {
            ck_assert_msg(u->child[0] && u->child[1], "leaf-pushed node %zu has one child", i);
            ck_assert_msg(u->nh == LPM_NH_NONE, "leaf-pushed internal node %zu keeps a next hop", i);
        }
    }
    lpm_rng r;
    lpm_rng_seed(&r, 8);
    for (int i = 0; i < 30000; i++) {
        lpm_addr a = tr_addr(&r, &f, family);
        tu_check_answer(ref, &f, &a, lpm_unibit_lookup(&t, &a), "unibit");
        tu_check_answer(ref, &f, &a, lpm_unibit_lookup(&lp, &a), "unibit leaf-pushed");
    }
    lpm_unibit_free(&lp);
    lpm_unibit_free(&t);
    lpm_ref_free(ref);
    lpm_fib_free(&f);
}
END_TEST

START_TEST(test_updates)
{
    int family = _i ? 6 : 4;
    lpm_fib pool;
    tr_random_table(&pool, family, 600, family == 4 ? 32 : 128, 9, 600 + (uint64_t)_i);
    lpm_ref *ref = lpm_ref_new(family);
    ck_assert_ptr_nonnull(ref);
    lpm_unibit t;
    ck_assert_int_eq(lpm_unibit_init(&t, family, NULL), 0);
    lpm_rng r;
    lpm_rng_seed(&r, 77);
    for (int step = 0; step < 4000; step++) {
        const lpm_prefix *p = &pool.routes[lpm_rng_below(&r, pool.n)].pfx;
        if (lpm_rng_below(&r, 3) < 2) {
            uint32_t nh = (uint32_t)lpm_rng_below(&r, pool.nh.n);
            ck_assert_int_eq(lpm_unibit_insert(&t, p, nh, NULL), 0);
            ck_assert_int_eq(lpm_ref_add(ref, p, nh), 0);
        } else {
            int present = lpm_ref_del(ref, p);
            ck_assert_int_eq(lpm_unibit_delete(&t, p, NULL), present ? LPM_OK : LPM_EINPUT);
        }
        ck_assert_uint_eq(t.prefixes, lpm_ref_count(ref));
        for (int k = 0; k < 10; k++) {
            lpm_addr a = k < 5 ? tr_inside(&r, p) : tr_addr(&r, &pool, family);
            tu_check_answer(ref, &pool, &a, lpm_unibit_lookup(&t, &a), "unibit after update");
        }
    }
    for (size_t i = 0; i < pool.n; i++)
        lpm_unibit_delete(&t, &pool.routes[i].pfx, NULL);
    ck_assert_uint_eq(t.live, 1); /* only the root */
    ck_assert_uint_eq(t.prefixes, 0);
    size_t n[129];
    lpm_unibit_level_counts(&t, n);
    ck_assert_uint_eq(n[0], 1);
    ck_assert_uint_eq(n[1], 0);
    lpm_unibit_free(&t);
    lpm_ref_free(ref);
    lpm_fib_free(&pool);
}
END_TEST

START_TEST(test_wrong_family)
{
    lpm_unibit t;
    ck_assert_int_eq(lpm_unibit_init(&t, 4, NULL), 0);
    lpm_prefix p;
    ck_assert_int_eq(lpm_prefix_parse("2001:db8::/32", 0, 0, &p, NULL), 0);
    lpm_err err;
    ck_assert_int_eq(lpm_unibit_insert(&t, &p, 0, &err), LPM_EINPUT);
    ck_assert_ptr_nonnull(strstr(err.msg, "IPv6 prefix in an IPv4 trie"));
    lpm_unibit_free(&t);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("trie_unibit");
    TCase *t = tcase_create("trie_unibit");
    tcase_add_test(t, test_by_hand);
    tcase_add_loop_test(t, test_leaf_push_random, 0, 2);
    tcase_add_loop_test(t, test_updates, 0, 2);
    tcase_add_test(t, test_wrong_family);
    suite_add_tcase(s, t);
    return tu_run(s);
}
