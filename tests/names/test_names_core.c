/* Name parsing, domain reversal, aggregation, and every structure against
 * the reference on random tables with every stride, through streams of
 * inserts and deletes (tiny MATA primes force collisions and relocations). */
#include <stdlib.h>

#include "nutil.h"
#include "../../names/interweave.h"
#include "../../names/naa.h"

START_TEST(test_normalize)
{
    char out[LPM_NAME_MAX + 1];
    const char *why = NULL;
    ck_assert_int_eq(lpm_name_normalize("/com/parc/www", 13, out, &why), 13);
    ck_assert_str_eq(out, "com/parc/www/");
    ck_assert_int_eq(lpm_name_normalize("/com/parc/", 10, out, &why), 9);
    ck_assert_str_eq(out, "com/parc/");
    ck_assert_int_eq(lpm_name_normalize("/", 1, out, &why), 0);
    static const char *const bad[] = { "", "com/parc", "/com//parc", "//", "/com/pa rc", "/com/\x01",
                                       "/com/\xc3\xa9" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        why = NULL;
        ck_assert_msg(lpm_name_normalize(bad[i], strlen(bad[i]), out, &why) < 0 && why, "accepted '%s'", bad[i]);
    }
    char big[LPM_NAME_MAX + 8];
    big[0] = '/';
    memset(big + 1, 'a', 300);
    ck_assert_int_lt(lpm_name_normalize(big, 301, out, &why), 0); /* component > 255 */
    for (int i = 0; i < LPM_NAME_MAX + 6; i += 2) {
        big[i] = '/';
        big[i + 1] = 'a';
    }
    ck_assert_int_lt(lpm_name_normalize(big, LPM_NAME_MAX + 6, out, &why), 0); /* name > 1024 */
}
END_TEST

START_TEST(test_domain_reverse)
{
    char out[LPM_NAME_MAX + 1];
    const char *why;
    ck_assert_int_eq(lpm_domain_to_name("www.parc.com", 12, out, &why), 13);
    ck_assert_str_eq(out, "com/parc/www/");
    ck_assert_int_lt(lpm_domain_to_name("a..com", 6, out, &why), 0);
    ck_assert_int_lt(lpm_domain_to_name(".com", 4, out, &why), 0);
    ck_assert_int_lt(lpm_domain_to_name("a/b.com", 7, out, &why), 0);
    /* The port rule: a site's names share the site's port unless picked. */
    uint32_t p = lpm_name_port_rule("com/parc/www/", 13, 1000);
    ck_assert_uint_eq(p, lpm_name_port_rule("com/parc/www/", 13, 1000));
    ck_assert_uint_lt(p, 1000);
}
END_TEST

/* Aggregation never changes an answer. */
START_TEST(test_aggregate)
{
    lpm_ntable t;
    nu_random_table(&t, 400, 5 + (uint64_t)_i);
    for (size_t i = 0; i < t.n; i++)
        t.e[i].port %= 2; /* few ports: much to aggregate */
    lpm_nengine before, after;
    ck_assert_int_eq(lpm_nengine_build(&before, LPM_NE_REF, &t, NULL, NULL), 0);
    size_t n0 = t.n, removed = lpm_ntable_aggregate(&t);
    ck_assert_uint_gt(removed, 0);
    ck_assert_uint_eq(t.n + removed, n0);
    ck_assert_int_eq(lpm_nengine_build(&after, LPM_NE_REF, &t, NULL, NULL), 0);
    lpm_rng r;
    lpm_rng_seed(&r, 9);
    char buf[LPM_NAME_MAX + 1];
    for (int q = 0; q < 20000; q++) {
        size_t l = nu_random_name(&r, buf, 7);
        nu_check(&before, "aggregated", buf, l, lpm_nengine_lookup(&after, buf, l));
    }
    lpm_nengine_free(&before);
    lpm_nengine_free(&after);
    lpm_ntable_free(&t);
}
END_TEST

/* The oracle itself against a linear scan of the table. */
START_TEST(test_ref_against_scan)
{
    lpm_ntable t;
    nu_random_table(&t, 300, 21);
    lpm_nengine ref;
    ck_assert_int_eq(lpm_nengine_build(&ref, LPM_NE_REF, &t, NULL, NULL), 0);
    lpm_rng r;
    lpm_rng_seed(&r, 22);
    char buf[LPM_NAME_MAX + 1];
    for (int q = 0; q < 20000; q++) {
        size_t l = nu_random_name(&r, buf, 7);
        uint32_t want = 0xFFFFFFFFu;
        long best = -1;
        for (size_t i = 0; i < t.n; i++)
            if (t.e[i].len <= l && (long)t.e[i].len > best && !memcmp(lpm_ntable_name(&t, i), buf, t.e[i].len)) {
                best = t.e[i].len;
                want = t.e[i].port;
            }
        ck_assert_msg(lpm_nengine_lookup(&ref, buf, l) == want, "/%s: reference wrong", buf);
    }
    lpm_nengine_free(&ref);
    lpm_ntable_free(&t);
}
END_TEST

typedef struct {
    lpm_ne_kind kind;
    unsigned stride;
    uint32_t primes[3];
} variant;

static const variant variants[] = {
    { LPM_NE_TRIE, 1, { 0 } },          { LPM_NE_ATA, 1, { 0 } },
    { LPM_NE_ATA, 2, { 0 } },           { LPM_NE_MATA, 1, { 0 } },
    { LPM_NE_MATA, 2, { 0 } },          { LPM_NE_MATA, 3, { 0 } },
    { LPM_NE_MATA, 4, { 0 } },          { LPM_NE_MATA, 4, { 97, 101, 65521 } },
    { LPM_NE_MATA, 3, { 389, 4099, 0 } },
};

static void compare(const lpm_nengine *ref, const lpm_nengine *e, const char *who, lpm_rng *r,
                    const lpm_ntable *t, int n)
{
    char buf[LPM_NAME_MAX + 1];
    for (int q = 0; q < n; q++) {
        size_t l;
        if (q % 2 && t->n) {
            /* A table name with a random tail. */
            size_t i = lpm_rng_below(r, t->n);
            memcpy(buf, lpm_ntable_name(t, i), t->e[i].len);
            l = t->e[i].len + nu_random_name(r, buf + t->e[i].len, 3);
        } else {
            l = nu_random_name(r, buf, 7);
        }
        nu_check(ref, who, buf, l, lpm_nengine_lookup(e, buf, l));
    }
}

START_TEST(test_structures_random)
{
    const variant *v = &variants[_i];
    char who[64];
    snprintf(who, sizeof who, "%s d=%u%s", lpm_nengine_name(v->kind), v->stride, v->primes[0] ? " small primes" : "");
    lpm_ntable t;
    nu_random_table(&t, 2000, 11);
    lpm_nengine ref, e;
    lpm_naa_opts o;
    lpm_naa_default_opts(&o, v->kind == LPM_NE_MATA);
    o.stride = v->stride;
    if (v->primes[0])
        memcpy(o.primes, v->primes, sizeof v->primes), o.primes[3] = 0;
    lpm_err err;
    ck_assert_int_eq(lpm_nengine_build(&ref, LPM_NE_REF, &t, NULL, NULL), 0);
    int rc = lpm_nengine_build(&e, v->kind, &t, &o, &err);
    ck_assert_msg(rc == 0, "%s: %s", who, err.msg);
    lpm_rng r;
    lpm_rng_seed(&r, 77 + (uint64_t)_i);
    compare(&ref, &e, who, &r, &t, 30000);
    /* Updates: inserts of new and existing names (port changes), deletes of
     * present and absent names, the root name too; compared after each
     * round. */
    char buf[LPM_NAME_MAX + 1];
    for (int round = 0; round < 6; round++) {
        for (int u = 0; u < 400; u++) {
            size_t l = nu_random_name(&r, buf, 5);
            if (lpm_rng_below(&r, 3)) {
                uint32_t port = (uint32_t)lpm_rng_below(&r, 9);
                ck_assert_int_eq(lpm_nengine_insert(&ref, buf, l, port, NULL), 0);
                rc = lpm_nengine_insert(&e, buf, l, port, &err);
                ck_assert_msg(rc == 0, "%s: insert: %s", who, err.msg);
            } else {
                int a = lpm_nengine_delete(&ref, buf, l), b = lpm_nengine_delete(&e, buf, l);
                ck_assert_msg(a == b, "%s: delete /%s: %d vs reference %d", who, buf, b, a);
            }
        }
        compare(&ref, &e, who, &r, &t, 5000);
    }
    /* Delete everything: nothing matches, the arrays are empty again. */
    for (size_t i = 0; i < t.n; i++) {
        lpm_nengine_delete(&ref, lpm_ntable_name(&t, i), t.e[i].len);
        lpm_nengine_delete(&e, lpm_ntable_name(&t, i), t.e[i].len);
    }
    compare(&ref, &e, who, &r, &t, 5000);
    lpm_nengine_free(&ref);
    lpm_nengine_free(&e);
    lpm_ntable_free(&t);
}
END_TEST

START_TEST(test_interweave_roundtrip)
{
    lpm_ntable t, list;
    nu_random_table(&t, 1500, 3);
    lpm_ntable_init(&list);
    lpm_rng r;
    lpm_rng_seed(&r, 4);
    char buf[LPM_NAME_MAX + 1], back[LPM_NAME_MAX + 1];
    /* 1000 names (not a multiple of 32), lengths 0 to long. */
    for (int i = 0; i < 1000; i++) {
        size_t l = nu_random_name(&r, buf, i % 50 == 0 ? 60 : 7);
        ck_assert_int_eq(lpm_ntable_add(&list, buf, l, 0, NULL), 0);
    }
    lpm_niw iw;
    ck_assert_int_eq(lpm_niw_build(&iw, &list, NULL), 0);
    ck_assert_uint_eq(iw.ngroups, 32);
    for (size_t i = 0; i < list.n; i++) {
        size_t l = lpm_niw_get(&iw, i, back);
        ck_assert_uint_eq(l, list.e[i].len);
        ck_assert_mem_eq(back, lpm_ntable_name(&list, i), l);
    }
    /* Row r of a group holds slice r of its 32 names. */
    ck_assert_uint_eq(iw.w[iw.grp[0] + 0] & 0xFF, (unsigned char)lpm_ntable_name(&list, 0)[0] * (list.e[0].len > 0));
    lpm_nengine ref, m;
    ck_assert_int_eq(lpm_nengine_build(&ref, LPM_NE_REF, &t, NULL, NULL), 0);
    ck_assert_int_eq(lpm_nengine_build(&m, LPM_NE_MATA, &t, NULL, NULL), 0);
    uint32_t *out = malloc(list.n * sizeof *out);
    lpm_nm_view v;
    lpm_naa_view(&m.aa, &v);
    lpm_niw_lookup(&iw, &v, out);
    for (size_t i = 0; i < list.n; i++)
        nu_check(&ref, "mata interweaved", lpm_ntable_name(&list, i), list.e[i].len, out[i]);
    free(out);
    lpm_niw_free(&iw);
    lpm_nengine_free(&ref);
    lpm_nengine_free(&m);
    lpm_ntable_free(&t);
    lpm_ntable_free(&list);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("names_core");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_normalize);
    tcase_add_test(tc, test_domain_reverse);
    tcase_add_loop_test(tc, test_aggregate, 0, 3);
    tcase_add_test(tc, test_ref_against_scan);
    tcase_add_loop_test(tc, test_structures_random, 0, (int)(sizeof variants / sizeof variants[0]));
    tcase_add_test(tc, test_interweave_roundtrip);
    suite_add_tcase(s, tc);
    return tu_run(s);
}
