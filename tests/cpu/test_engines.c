/* The CPU engines (DIR-24-8-BASIC, Tree Bitmap 13 and 11, hybrid) against
 * the reference LPM: on random tables of both families, through random
 * add/delete sequences, and on every shared real table. */
#include <stdlib.h>

#include "cpu_testlib.h"
#include "../../core/trace.h"

static void agree_on(const lpm_engine_ops *e, const lpm_fib *f, size_t n, uint64_t seed)
{
    lpm_err err;
    lpm_ref *ref;
    ck_assert_int_eq(lpm_ref_build(&ref, f, &err), 0);
    void *st;
    ck_assert_msg(e->build(&st, f, &err) == 0, "%s: %s", e->name, err.msg);
    ck_assert_uint_gt(e->memory(st), 0);
    lpm_rng r;
    lpm_rng_seed(&r, seed);
    /* Every prefix's edges, then a mix. */
    lpm_addr *a = malloc((f->n * 6 + n) * sizeof *a);
    ck_assert_ptr_nonnull(a);
    for (size_t i = 0; i < f->n; i++)
        ct_edges(&f->routes[i].pfx, &r, &a[i * 6]);
    ct_mixed_addrs(f, &r, &a[f->n * 6], n);
    ct_check(e, st, ref, f, a, f->n * 6 + n);
    free(a);
    e->destroy(st);
    lpm_ref_free(ref);
}

START_TEST(test_random_tables)
{
    int family = _i & 1 ? LPM_AF_INET6 : LPM_AF_INET;
    const lpm_engine_ops *e = ct_engines[_i / 2];
    if (!ct_supports(e, family))
        return;
    for (uint64_t seed = 1; seed <= 3; seed++) {
        lpm_fib f;
        ct_random_table(&f, family, seed == 1 ? 50 : 4000, seed);
        agree_on(e, &f, 50000, seed);
        lpm_fib_free(&f);
    }
}
END_TEST

START_TEST(test_edge_tables)
{
    /* Only a default route; only host routes; an empty table of a family. */
    int family = _i & 1 ? LPM_AF_INET6 : LPM_AF_INET;
    const lpm_engine_ops *e = ct_engines[_i / 2];
    if (!ct_supports(e, family))
        return;
    const char *v4[] = { "0.0.0.0/0", "255.255.255.255/32", "0.0.0.0/32", "10.0.0.0/8", "10.1.2.3/32" };
    const char *v6[] = { "::/0", "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff/128", "::/128", "2001:db8::/32", "2001:db8::1/128" };
    const char **t = family == LPM_AF_INET ? v4 : v6;
    for (int variant = 0; variant < 3; variant++) {
        lpm_fib f;
        lpm_fib_init(&f);
        f.family = family;
        for (int i = 0; i < 5; i++) {
            if ((variant == 0 && i != 0) || (variant == 1 && i == 0))
                continue;
            lpm_prefix p;
            ck_assert_int_eq(lpm_prefix_parse(t[i], 0, 0, &p, NULL), 0);
            ck_assert_int_eq(lpm_fib_add_tok(&f, &p, "x", 1, NULL), 0);
        }
        ck_assert_int_eq(lpm_fib_finish(&f, NULL), 0);
        if (variant == 2) { /* now empty it through deletes */
            lpm_err err;
            void *st;
            ck_assert_int_eq(e->build(&st, &f, &err), 0);
            for (size_t i = 0; i < f.n; i++)
                ck_assert_int_eq(e->del(st, &f.routes[i].pfx, &err), 0);
            lpm_rng r;
            lpm_rng_seed(&r, 5);
            lpm_addr a[6];
            for (size_t i = 0; i < f.n; i++) {
                ct_edges(&f.routes[i].pfx, &r, a);
                for (int k = 0; k < 6; k++)
                    ck_assert_uint_eq(e->lookup(st, &a[k]), LPM_NH_NONE);
            }
            e->destroy(st);
        } else {
            agree_on(e, &f, 1000, 9);
        }
        lpm_fib_free(&f);
    }
}
END_TEST

/* Random adds, deletes (also of absent prefixes) and next-hop changes,
 * the reference kept in step, checked around each touched prefix. */
START_TEST(test_random_updates)
{
    int family = _i & 1 ? LPM_AF_INET6 : LPM_AF_INET;
    const lpm_engine_ops *e = ct_engines[_i / 2];
    if (!ct_supports(e, family))
        return;
    lpm_fib f;
    ct_random_table(&f, family, 3000, 11);
    lpm_err err;
    lpm_ref *ref;
    ck_assert_int_eq(lpm_ref_build(&ref, &f, &err), 0);
    void *st;
    ck_assert_msg(e->build(&st, &f, &err) == 0, "%s", err.msg);
    lpm_rng r;
    lpm_rng_seed(&r, 12);
    lpm_prefix *pool = malloc((f.n + 20000) * sizeof *pool);
    size_t np = 0;
    for (size_t i = 0; i < f.n; i++)
        pool[np++] = f.routes[i].pfx;
    lpm_addr a[12];
    for (int op = 0; op < 20000; op++) {
        lpm_prefix p;
        unsigned k = (unsigned)lpm_rng_below(&r, 10);
        if (k < 4 && np) { /* delete a known prefix (maybe already gone) */
            p = pool[lpm_rng_below(&r, np)];
            ck_assert_msg(e->del(st, &p, &err) == 0, "%s", err.msg);
            lpm_ref_del(ref, &p);
        } else {
            p = k < 7 && np ? pool[lpm_rng_below(&r, np)] : ct_random_prefix(&r, family);
            if (k >= 7)
                pool[np++] = p;
            uint32_t nh = (uint32_t)lpm_rng_below(&r, f.nh.n);
            ck_assert_msg(e->add(st, &p, nh, &err) == 0, "%s", err.msg);
            ck_assert_int_eq(lpm_ref_add(ref, &p, nh), 0);
        }
        ct_edges(&p, &r, a);
        ct_edges(&pool[lpm_rng_below(&r, np)], &r, a + 6);
        ct_check(e, st, ref, &f, a, 12);
    }
    lpm_addr *b = malloc(np * 6 * sizeof *b);
    for (size_t i = 0; i < np; i++)
        ct_edges(&pool[i], &r, &b[i * 6]);
    ct_check(e, st, ref, &f, b, np * 6);
    free(b);
    free(pool);
    e->destroy(st);
    lpm_ref_free(ref);
    lpm_fib_free(&f);
}
END_TEST

/* Delete everything, then the structure must answer "no route" and hold
 * no nodes; add it all back and agree again. */
START_TEST(test_delete_all)
{
    int family = _i & 1 ? LPM_AF_INET6 : LPM_AF_INET;
    const lpm_engine_ops *e = ct_engines[_i / 2];
    if (!ct_supports(e, family))
        return;
    lpm_fib f, empty;
    ct_random_table(&f, family, 2000, 21);
    lpm_fib_init(&empty);
    empty.family = family;
    lpm_err err;
    void *st, *st0;
    ck_assert_int_eq(e->build(&st, &f, &err), 0);
    ck_assert_int_eq(e->build(&st0, &empty, &err), 0);
    for (size_t i = 0; i < f.n; i++)
        ck_assert_int_eq(e->del(st, &f.routes[i].pfx, &err), 0);
    ck_assert_uint_eq(e->memory(st), e->memory(st0));
    lpm_ref *ref;
    ck_assert_int_eq(lpm_ref_build(&ref, &empty, &err), 0);
    lpm_rng r;
    lpm_rng_seed(&r, 22);
    lpm_addr *a = malloc(f.n * 6 * sizeof *a);
    for (size_t i = 0; i < f.n; i++)
        ct_edges(&f.routes[i].pfx, &r, &a[i * 6]);
    ct_check(e, st, ref, &f, a, f.n * 6);
    lpm_ref_free(ref);
    for (size_t i = f.n; i-- > 0;)
        ck_assert_int_eq(e->add(st, &f.routes[i].pfx, f.routes[i].nh, &err), 0);
    ck_assert_int_eq(lpm_ref_build(&ref, &f, &err), 0);
    ct_check(e, st, ref, &f, a, f.n * 6);
    free(a);
    lpm_ref_free(ref);
    e->destroy(st);
    e->destroy(st0);
    lpm_fib_free(&f);
    lpm_fib_free(&empty);
}
END_TEST

START_TEST(test_wrong_family)
{
    lpm_fib f;
    ct_random_table(&f, LPM_AF_INET6, 10, 3);
    lpm_err err;
    void *st;
    ck_assert_int_eq(lpm_engine_dir24_8.build(&st, &f, &err), LPM_EINPUT);
    ck_assert_int_eq(lpm_engine_hybrid.build(&st, &f, &err), LPM_EINPUT);
    lpm_fib_free(&f);
}
END_TEST

/* Every shared real table, every engine that takes its family: edges of
 * a sample of prefixes plus a mix, 300k lookups each. */
START_TEST(test_real_tables)
{
    const tu_table *t = &tu_tables[_i];
    char path[4096];
    if (!tu_data_file(t->file, path, sizeof path))
        return;
    lpm_fib f;
    tu_load(&f, path);
    ck_assert_uint_eq(f.n, t->prefixes);
    lpm_err err;
    lpm_ref *ref;
    ck_assert_int_eq(lpm_ref_build(&ref, &f, &err), 0);
    size_t n = 300000;
    lpm_addr *a = malloc(n * sizeof *a);
    lpm_rng r;
    lpm_rng_seed(&r, 31 + (uint64_t)_i);
    ct_mixed_addrs(&f, &r, a, n);
    for (size_t k = 0; k < ct_nengines; k++) {
        const lpm_engine_ops *e = ct_engines[k];
        if (!ct_supports(e, f.family))
            continue;
        void *st;
        ck_assert_msg(e->build(&st, &f, &err) == 0, "%s: %s", e->name, err.msg);
        ct_check(e, st, ref, &f, a, n);
        e->destroy(st);
    }
    free(a);
    lpm_ref_free(ref);
    lpm_fib_free(&f);
}
END_TEST

/* The v4 real tables before and after replaying the LINX update trace
 * (withdrawals of absent prefixes are no-ops): every touched prefix's
 * edges and a mix, in every engine, against the reference kept in step. */
START_TEST(test_linx_replay)
{
    const tu_table *t = &tu_tables[_i];
    char path[4096], upath[4096];
    if (t->family != LPM_AF_INET)
        return;
    if (!tu_data_file(t->file, path, sizeof path) ||
        !tu_data_file("linx-update-20141217-p52.txt", upath, sizeof upath))
        return;
    lpm_fib f;
    tu_load(&f, path);
    lpm_err err;
    lpm_update *u;
    size_t nu;
    ck_assert_msg(lpm_updates_load(upath, &f, NULL, &u, &nu, &err) == 0, "%s", err.msg);
    ck_assert_uint_eq(nu, 23446);
    lpm_ref *ref;
    ck_assert_int_eq(lpm_ref_build(&ref, &f, &err), 0);
    void *st[8];
    size_t ne = 0;
    const lpm_engine_ops *es[8];
    for (size_t k = 0; k < ct_nengines; k++) {
        es[ne] = ct_engines[k];
        ck_assert_msg(es[ne]->build(&st[ne], &f, &err) == 0, "%s", err.msg);
        ne++;
    }
    lpm_rng r;
    lpm_rng_seed(&r, 41);
    size_t nmix = 100000;
    lpm_addr *a = malloc((nu * 6 + nmix) * sizeof *a);
    for (size_t i = 0; i < nu; i++)
        ct_edges(&u[i].pfx, &r, &a[i * 6]);
    ct_mixed_addrs(&f, &r, &a[nu * 6], nmix);
    for (size_t k = 0; k < ne; k++)
        ct_check(es[k], st[k], ref, &f, a, nu * 6 + nmix);
    for (size_t i = 0; i < nu; i++) {
        if (u[i].op == 'a')
            ck_assert_int_eq(lpm_ref_add(ref, &u[i].pfx, u[i].nh), 0);
        else
            lpm_ref_del(ref, &u[i].pfx);
        for (size_t k = 0; k < ne; k++) {
            int rc = u[i].op == 'a' ? es[k]->add(st[k], &u[i].pfx, u[i].nh, &err)
                                    : es[k]->del(st[k], &u[i].pfx, &err);
            ck_assert_msg(rc == 0, "%s: update %zu: %s", es[k]->name, i, err.msg);
        }
    }
    for (size_t k = 0; k < ne; k++) {
        ct_check(es[k], st[k], ref, &f, a, nu * 6 + nmix);
        es[k]->destroy(st[k]);
    }
    free(a);
    free(u);
    lpm_ref_free(ref);
    lpm_fib_free(&f);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("cpu_engines");
    TCase *t = tcase_create("engines");
    int n = (int)ct_nengines * 2;
    tcase_add_loop_test(t, test_random_tables, 0, n);
    tcase_add_loop_test(t, test_edge_tables, 0, n);
    tcase_add_loop_test(t, test_random_updates, 0, n);
    tcase_add_loop_test(t, test_delete_all, 0, n);
    tcase_add_test(t, test_wrong_family);
    tcase_add_loop_test(t, test_real_tables, 0, (int)tu_ntables);
    tcase_add_loop_test(t, test_linx_replay, 0, (int)tu_ntables);
    suite_add_tcase(s, t);
    return tu_run(s);
}
