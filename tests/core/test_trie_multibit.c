/* Multibit trie: lookups (single and batch) against the reference for many
 * stride arrays, refusal of prefixes the strides cannot hold, and insert /
 * delete sequences checked against the reference after every step. */
#include <stdlib.h>
#include <string.h>

#include "tries_util.h"
#include "../../core/engine_tries.h"
#include "../../core/trace.h"
#include "../../core/trie_multibit.h"

static void check_many(const lpm_multibit *m, const lpm_ref *ref, const lpm_fib *f,
                       size_t n, uint64_t seed, const char *who)
{
    lpm_rng r;
    lpm_rng_seed(&r, seed);
    lpm_addr *a = malloc(n * sizeof *a);
    uint32_t *nh = malloc(n * sizeof *nh);
    ck_assert_ptr_nonnull(a);
    ck_assert_ptr_nonnull(nh);
    for (size_t i = 0; i < n; i++)
        a[i] = tr_addr(&r, f, m->family);
    lpm_multibit_lookup_batch(m, a, nh, n);
    for (size_t i = 0; i < n; i++) {
        tu_check_answer(ref, f, &a[i], lpm_multibit_lookup(m, &a[i]), who);
        tu_check_answer(ref, f, &a[i], nh[i], who);
    }
    free(a);
    free(nh);
}

static const struct {
    int family;
    unsigned maxlen;
    const char *strides; /* or "opt:K", "gamt:K" */
} cases[] = {
    { 4, 32, "16-8-8" }, { 4, 32, "8-8-8-8" }, { 4, 32, "1-1-1-5-8-8-8" },
    { 4, 32, "20-12" }, { 4, 32, "4-4-4-4-4-4-4-4" }, { 4, 32, "opt:3" },
    { 4, 32, "gamt:4" }, { 4, 24, "16-8" },
    { 6, 64, "8-8-8-8-8-8-8-8" }, { 6, 128, "12-4-8-8-8-8-8-8-8-8-8-8-8-8-8-8" }, { 6, 128, "opt:16" },
    { 6, 128, "gamt:20" }, { 6, 48, "12-4-8-8-8-8" },
};

static void strides_for(int k, const lpm_unibit *u, lpm_strides *st)
{
    lpm_err err;
    const char *s = cases[k].strides;
    int rc;
    if (!strncmp(s, "opt:", 4))
        rc = lpm_strides_optimal(u, (unsigned)atoi(s + 4), st, &err);
    else if (!strncmp(s, "gamt:", 5))
        rc = lpm_strides_gamt(u, (unsigned)atoi(s + 5), 32, st, &err);
    else
        rc = lpm_strides_parse(cases[k].family, s, st, &err);
    ck_assert_msg(rc == 0, "%s: %s", s, err.msg);
}

START_TEST(test_lookup_vs_reference)
{
    int family = cases[_i].family;
    for (int round = 0; round < 3; round++) {
        lpm_fib f;
        tr_random_table(&f, family, 200 + 1500 * (size_t)round, cases[_i].maxlen, 13, 100 + (uint64_t)(_i * 7 + round));
        lpm_ref *ref;
        lpm_err err;
        ck_assert_int_eq(lpm_ref_build(&ref, &f, &err), 0);
        lpm_unibit u;
        ck_assert_int_eq(lpm_unibit_build(&u, &f, &err), 0);
        lpm_strides st;
        strides_for(_i, &u, &st);
        lpm_multibit m;
        ck_assert_msg(lpm_multibit_build_with(&m, &f, &st, &u, &err) == 0, "%s", err.msg);
        char who[80];
        snprintf(who, sizeof who, "multibit %s", cases[_i].strides);
        check_many(&m, ref, &f, 20000, 5 + (uint64_t)round, who);
        lpm_multibit_free(&m);
        /* The plain build (own shadow) gives the same answers. */
        ck_assert_int_eq(lpm_multibit_build(&m, &f, &st, &err), 0);
        check_many(&m, ref, &f, 2000, 9, who);
        lpm_multibit_free(&m);
        lpm_ref_free(ref);
        lpm_fib_free(&f);
    }
}
END_TEST

START_TEST(test_batch_sizes)
{
    lpm_fib f;
    tr_random_table(&f, 4, 500, 32, 5, 3);
    lpm_ref *ref;
    ck_assert_int_eq(lpm_ref_build(&ref, &f, NULL), 0);
    lpm_strides st;
    ck_assert_int_eq(lpm_strides_parse(4, "8-8-8-8", &st, NULL), 0);
    lpm_multibit m;
    ck_assert_int_eq(lpm_multibit_build(&m, &f, &st, NULL), 0);
    static const size_t sizes[] = { 0, 1, 31, 32, 33, 100 };
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++)
        if (sizes[k])
            check_many(&m, ref, &f, sizes[k], k, "multibit batch");
    lpm_multibit_lookup_batch(&m, NULL, NULL, 0); /* n = 0 touches nothing */
    lpm_multibit_free(&m);
    lpm_ref_free(ref);
    lpm_fib_free(&f);
}
END_TEST

static lpm_prefix pfx(const char *s)
{
    lpm_prefix p;
    lpm_err err;
    ck_assert_msg(lpm_prefix_parse(s, 0, 0, &p, &err) == 0, "%s: %s", s, err.msg);
    return p;
}

START_TEST(test_refuses_long_prefixes)
{
    lpm_fib f;
    lpm_fib_init(&f);
    lpm_prefix p = pfx("2001:db8::/48"), q = pfx("2001:db8::1/128");
    ck_assert_int_eq(lpm_fib_add_tok(&f, &p, "a", 1, NULL), 0);
    ck_assert_int_eq(lpm_fib_add_tok(&f, &q, "b", 1, NULL), 0);
    ck_assert_int_eq(lpm_fib_finish(&f, NULL), 0);
    lpm_strides st;
    lpm_err err;
    ck_assert_int_eq(lpm_strides_parse(6, "16-16-16-16", &st, &err), 0);
    lpm_multibit m;
    ck_assert_int_eq(lpm_multibit_build(&m, &f, &st, &err), LPM_EINPUT);
    ck_assert_msg(strstr(err.msg, "2001:db8::1/128 is longer than the strides 16-16-16-16 cover (64 bits)"),
                  "message: %s", err.msg);
    /* Without the long one it builds; inserting it is refused, and the
     * trie is unchanged. */
    f.n = 1;
    ck_assert_int_eq(lpm_multibit_build(&m, &f, &st, &err), 0);
    ck_assert_int_eq(lpm_multibit_insert(&m, &q, 0, &err), LPM_EINPUT);
    ck_assert_int_eq(lpm_multibit_delete(&m, &q, &err), LPM_EINPUT);
    ck_assert_uint_eq(lpm_multibit_lookup(&m, &q.addr), f.routes[0].nh);
    lpm_prefix v4 = pfx("10.0.0.0/8");
    ck_assert_int_eq(lpm_multibit_insert(&m, &v4, 0, &err), LPM_EINPUT); /* family */
    ck_assert_int_eq(lpm_multibit_insert(&m, &p, LPM_MW_NONE, &err), LPM_EINPUT); /* nh width */
    lpm_multibit_free(&m);
    lpm_fib_free(&f);
}
END_TEST

/* Random inserts, replacements and deletes (present and absent); after each
 * step, addresses inside the touched prefix and random ones agree with the
 * reference; at the end everything is deleted and the trie is empty. */
START_TEST(test_updates)
{
    int family = _i ? 6 : 4;
    lpm_fib pool;
    tr_random_table(&pool, family, 800, family == 4 ? 32 : 70, 11, 900 + (uint64_t)_i);
    lpm_rng r;
    lpm_rng_seed(&r, 4242 + (uint64_t)_i);
    /* Shuffle, then build from the first half. */
    for (size_t i = pool.n - 1; i > 0; i--) {
        size_t j = lpm_rng_below(&r, i + 1);
        lpm_route t = pool.routes[i];
        pool.routes[i] = pool.routes[j];
        pool.routes[j] = t;
    }
    lpm_fib f;
    lpm_fib_init(&f);
    for (size_t i = 0; i < pool.n / 2; i++) {
        const char *nh = lpm_nhtab_name(&pool.nh, pool.routes[i].nh);
        ck_assert_int_eq(lpm_fib_add_tok(&f, &pool.routes[i].pfx, nh, strlen(nh), NULL), 0);
    }
    for (unsigned k = 0; k < 11; k++) { /* intern every next hop the steps use */
        char nh[8];
        int w = snprintf(nh, sizeof nh, "n%u", k);
        lpm_nhtab_intern(&f.nh, nh, (size_t)w);
    }
    ck_assert_int_eq(lpm_fib_finish(&f, NULL), 0);
    lpm_err err;
    lpm_ref *ref;
    ck_assert_int_eq(lpm_ref_build(&ref, &f, &err), 0);
    lpm_strides st;
    ck_assert_int_eq(lpm_strides_parse(family, family == 4 ? "8-4-4-8-8" : "16-8-8-8-16-16-24-24", &st, &err), 0);
    lpm_multibit m;
    ck_assert_msg(lpm_multibit_build(&m, &f, &st, &err) == 0, "%s", err.msg);
    for (int step = 0; step < 3000; step++) {
        const lpm_prefix *p = &pool.routes[lpm_rng_below(&r, pool.n)].pfx;
        unsigned op = (unsigned)lpm_rng_below(&r, 3);
        if (op < 2) { /* insert or replace */
            uint32_t nh = (uint32_t)lpm_rng_below(&r, f.nh.n);
            ck_assert_msg(lpm_multibit_insert(&m, p, nh, &err) == 0, "%s", err.msg);
            ck_assert_int_eq(lpm_ref_add(ref, p, nh), 0);
        } else {
            int present = lpm_ref_del(ref, p);
            ck_assert_int_eq(lpm_multibit_delete(&m, p, &err), present ? LPM_OK : LPM_EINPUT);
        }
        for (int k = 0; k < 20; k++) {
            lpm_addr a = k < 10 ? tr_inside(&r, p) : tr_addr(&r, &pool, family);
            tu_check_answer(ref, &f, &a, lpm_multibit_lookup(&m, &a), "multibit after update");
        }
    }
    for (size_t i = 0; i < pool.n; i++) {
        lpm_ref_del(ref, &pool.routes[i].pfx);
        lpm_multibit_delete(&m, &pool.routes[i].pfx, NULL);
        if (i % 50 == 0)
            check_many(&m, ref, &pool, 300, i, "multibit while emptying");
    }
    lpm_mlevel_stats ls[LPM_MAX_LEVELS];
    lpm_multibit_stats(&m, ls, NULL);
    ck_assert_uint_eq(ls[0].nodes, 1);
    for (unsigned i = 1; i < st.levels; i++)
        ck_assert_msg(ls[i].nodes == 0, "level %u keeps %zu nodes after deleting everything", i, ls[i].nodes);
    ck_assert_uint_eq(m.shadow.prefixes, 0);
    lpm_multibit_free(&m);
    lpm_ref_free(ref);
    lpm_fib_free(&f);
    lpm_fib_free(&pool);
}
END_TEST

/* The default route and a host route, inserted and deleted in both orders. */
START_TEST(test_default_and_host)
{
    lpm_fib f;
    lpm_fib_init(&f);
    lpm_nhtab_intern(&f.nh, "a", 1);
    lpm_nhtab_intern(&f.nh, "b", 1);
    f.family = 4;
    lpm_strides st;
    ck_assert_int_eq(lpm_strides_parse(4, "16-8-8", &st, NULL), 0);
    lpm_multibit m;
    ck_assert_int_eq(lpm_multibit_build(&m, &f, &st, NULL), 0);
    lpm_prefix d = pfx("0.0.0.0/0"), h = pfx("10.1.2.3/32");
    lpm_addr x = h.addr, y = pfx("10.1.2.4/32").addr;
    ck_assert_uint_eq(lpm_multibit_lookup(&m, &x), LPM_NH_NONE);
    ck_assert_int_eq(lpm_multibit_insert(&m, &h, 1, NULL), 0);
    ck_assert_int_eq(lpm_multibit_insert(&m, &d, 0, NULL), 0);
    ck_assert_uint_eq(lpm_multibit_lookup(&m, &x), 1);
    ck_assert_uint_eq(lpm_multibit_lookup(&m, &y), 0);
    ck_assert_int_eq(lpm_multibit_delete(&m, &h, NULL), 0);
    ck_assert_uint_eq(lpm_multibit_lookup(&m, &x), 0);
    ck_assert_int_eq(lpm_multibit_insert(&m, &h, 1, NULL), 0);
    ck_assert_int_eq(lpm_multibit_delete(&m, &d, NULL), 0);
    ck_assert_uint_eq(lpm_multibit_lookup(&m, &x), 1);
    ck_assert_uint_eq(lpm_multibit_lookup(&m, &y), LPM_NH_NONE);
    ck_assert_int_eq(lpm_multibit_delete(&m, &d, NULL), LPM_EINPUT);
    lpm_multibit_free(&m);
    lpm_fib_free(&f);
}
END_TEST

/* Both engines through the registry, on synthetic tables and generated
 * traces; then their update entry points. */
START_TEST(test_engines)
{
    int family = _i ? 6 : 4;
    lpm_fib f;
    tu_synth(&f, family, 30000, 21);
    static const char *names[] = { "unibit", "multibit" };
    for (int k = 0; k < 2; k++) {
        const lpm_engine_ops *e = lpm_engine_find(names[k]);
        ck_assert_ptr_nonnull(e);
        tu_engine_agrees(e, &f, LPM_TRACE_RANDOM_MATCH, 50000, 3);
        tu_engine_agrees(e, &f, LPM_TRACE_UNIFORM, 20000, 4);
        void *st;
        lpm_err err;
        ck_assert_int_eq(e->build(&st, &f, &err), 0);
        lpm_ref *ref;
        ck_assert_int_eq(lpm_ref_build(&ref, &f, &err), 0);
        lpm_rng r;
        lpm_rng_seed(&r, 6);
        for (int i = 0; i < 500; i++) {
            const lpm_prefix *p = &f.routes[lpm_rng_below(&r, f.n)].pfx;
            if (i % 2) {
                ck_assert_int_eq(e->del(st, p, &err), 0); /* absent the second time: a no-op */
                lpm_ref_del(ref, p);
            } else {
                ck_assert_int_eq(e->add(st, p, (uint32_t)i % f.nh.n, &err), 0);
                lpm_ref_add(ref, p, (uint32_t)i % f.nh.n);
            }
            lpm_addr a = tr_inside(&r, p);
            tu_check_answer(ref, &f, &a, e->lookup(st, &a), names[k]);
        }
        if (k == 1) {
            lpm_prefix other = pfx(family == 4 ? "2001:db8::/32" : "10.0.0.0/8");
            ck_assert_int_eq(e->del(st, &other, &err), LPM_EINPUT);
            char buf[200];
            lpm_engine_multibit_describe(st, buf, sizeof buf);
            if (family == 4)
                ck_assert_str_eq(buf, "16-8-8");
            ck_assert_uint_eq(((lpm_multibit *)st)->offset[((lpm_multibit *)st)->st.levels], family == 4 ? 32 : 128);
        }
        ck_assert_uint_gt(e->memory(st), 0);
        e->destroy(st);
        lpm_ref_free(ref);
    }
    lpm_fib_free(&f);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("trie_multibit");
    TCase *t = tcase_create("trie_multibit");
    tcase_add_loop_test(t, test_lookup_vs_reference, 0, (int)(sizeof cases / sizeof cases[0]));
    tcase_add_test(t, test_batch_sizes);
    tcase_add_test(t, test_refuses_long_prefixes);
    tcase_add_loop_test(t, test_updates, 0, 2);
    tcase_add_test(t, test_default_and_host);
    tcase_add_loop_test(t, test_engines, 0, 2);
    suite_add_tcase(s, t);
    return tu_run(s);
}
