/* Every name structure against the reference on tables built from two
 * different real domain lists (150k names each, ports by the documented
 * rule, aggregated), on traces made as the paper makes them (average with
 * real URL paths, heavy), then after a stream of deletes and inserts of
 * held-out real names: per structure 500k lookups a table, 1M in all. */
#include <stdlib.h>

#include "nutil.h"
#include "../../names/interweave.h"
#include "../../names/naa.h"
#include "../../names/ntrace.h"

#define TABLE_NAMES 150000
#define BEFORE 300000
#define AFTER 200000
#define UPDATES 5000

static const char *const lists[] = { "names/ut1-hosts.txt.xz", "names/zonewalk-domains.txt.xz" };

static void trace(const lpm_ntable *t, int heavy, size_t count, uint64_t seed, const char *paths,
                  lpm_ntable *out)
{
    char *buf = NULL;
    size_t blen = 0;
    FILE *fp = open_memstream(&buf, &blen);
    lpm_ntrace_opts o = { heavy, count, seed, heavy ? 0 : 0.8, paths, NULL };
    lpm_err err;
    ck_assert_msg(lpm_ntrace_gen(t, &o, fp, &err) == 0, "%s", err.msg);
    fclose(fp);
    char norm[LPM_NAME_MAX + 1];
    for (char *s = buf, *e; s < buf + blen; s = e + 1) {
        e = strchr(s, '\n');
        const char *why;
        long nl = lpm_name_normalize(s, (size_t)(e - s), norm, &why);
        ck_assert_msg(nl >= 0, "trace line '%.*s': %s", (int)(e - s), s, why);
        ck_assert_int_eq(lpm_ntable_add(out, norm, (size_t)nl, 0, NULL), 0);
    }
    free(buf);
}

static void check_all(const lpm_nengine *ref, const lpm_nengine *e, const char *who,
                      const lpm_ntable *q, size_t from, size_t n)
{
    for (size_t i = from; i < from + n && i < q->n; i++) {
        const char *s = lpm_ntable_name(q, i);
        nu_check(ref, who, s, q->e[i].len, lpm_nengine_lookup(e, s, q->e[i].len));
    }
    if (e->kind == LPM_NE_MATA) {
        /* The GPU kernel's body over the interweaved layout. */
        lpm_ntable sub;
        lpm_ntable_init(&sub);
        for (size_t i = from; i < from + n && i < q->n; i += 4)
            lpm_ntable_add(&sub, lpm_ntable_name(q, i), q->e[i].len, 0, NULL);
        lpm_niw iw;
        ck_assert_int_eq(lpm_niw_build(&iw, &sub, NULL), 0);
        uint32_t *out = malloc((sub.n + 1) * sizeof *out);
        lpm_nm_view v;
        lpm_naa_view(&e->aa, &v);
        lpm_niw_lookup(&iw, &v, out);
        for (size_t i = 0; i < sub.n; i++)
            nu_check(ref, "mata interweaved", lpm_ntable_name(&sub, i), sub.e[i].len, out[i]);
        free(out);
        lpm_niw_free(&iw);
        lpm_ntable_free(&sub);
    }
}

START_TEST(test_real)
{
    char path[4096], upath[4096];
    if (!tu_data_file(lists[_i], path, sizeof path))
        return;
    const char *urls = tu_data_file("names/urls-kasztp.txt.xz", upath, sizeof upath);
    lpm_ntable t, pool, q;
    lpm_ndomain_opts o = { 256, TABLE_NAMES, 1, 0 };
    lpm_ndomain_stats st;
    lpm_err err;
    ck_assert_msg(lpm_ntable_from_domains(&t, path, &o, &st, &err) == 0, "%s", err.msg);
    ck_assert_uint_gt(t.n, TABLE_NAMES * 9 / 10);
    o.limit = TABLE_NAMES + TABLE_NAMES / 10; /* other picks: names to insert */
    ck_assert_msg(lpm_ntable_from_domains(&pool, path, &o, &st, &err) == 0, "%s", err.msg);
    lpm_ntable_init(&q);
    trace(&t, 0, BEFORE * 3 / 4, 1, urls, &q);
    trace(&t, 1, BEFORE / 4, 2, urls, &q);

    lpm_nengine ref0;
    ck_assert_int_eq(lpm_nengine_build(&ref0, LPM_NE_REF, &t, NULL, NULL), 0);
    /* The update stream: UPDATES deletes of table names, UPDATES inserts of
     * real names the table lacks (and some deleted ones back, new port). */
    lpm_rng r;
    lpm_rng_seed(&r, 5);
    size_t *del = malloc(UPDATES * sizeof *del), *ins = malloc(UPDATES * sizeof *ins), nins = 0;
    for (int u = 0; u < UPDATES; u++)
        del[u] = lpm_rng_below(&r, t.n);
    for (size_t i = 0; i < pool.n && nins < UPDATES; i++)
        if (lpm_nref_get(ref0.ref, lpm_ntable_name(&pool, i), pool.e[i].len) == 0xFFFFFFFFu)
            ins[nins++] = i;
    ck_assert_uint_gt(nins, UPDATES / 2);
    /* Queries after the updates: the old trace, and the updated names with
     * tails. */
    size_t qafter = q.n;
    for (size_t i = 0; q.n < qafter + AFTER / 2; i++) {
        const lpm_ntable *src = i % 2 ? &pool : &t;
        size_t k = i % 2 ? ins[i / 2 % nins] : del[i / 2 % UPDATES];
        char buf[LPM_NAME_MAX + 1];
        memcpy(buf, lpm_ntable_name(src, k), src->e[k].len);
        size_t l = src->e[k].len + (i % 3 ? nu_random_name(&r, buf + src->e[k].len, 2) : 0);
        lpm_ntable_add(&q, buf, l, 0, NULL);
    }
    lpm_nengine_free(&ref0);

    static const struct { lpm_ne_kind k; unsigned d; } eng[] = {
        { LPM_NE_TRIE, 1 }, { LPM_NE_ATA, 1 }, { LPM_NE_MATA, 4 } };
    for (size_t x = 0; x < sizeof eng / sizeof eng[0]; x++) {
        char who[96];
        snprintf(who, sizeof who, "%s d=%u on %s", lpm_nengine_name(eng[x].k), eng[x].d, lists[_i]);
        lpm_nengine ref, e;
        lpm_naa_opts ao;
        lpm_naa_default_opts(&ao, eng[x].k == LPM_NE_MATA);
        ao.stride = eng[x].d;
        ck_assert_int_eq(lpm_nengine_build(&ref, LPM_NE_REF, &t, NULL, NULL), 0);
        ck_assert_msg(lpm_nengine_build(&e, eng[x].k, &t, &ao, &err) == 0, "%s: %s", who, err.msg);
        check_all(&ref, &e, who, &q, 0, BEFORE);
        for (int u = 0; u < UPDATES; u++) {
            const char *s = lpm_ntable_name(&t, del[u]);
            int a = lpm_nengine_delete(&ref, s, t.e[del[u]].len), b = lpm_nengine_delete(&e, s, t.e[del[u]].len);
            ck_assert_msg(a == b, "%s: delete /%s: %d, reference %d", who, s, b, a);
            if (u < (int)nins) {
                const lpm_ntable *src = u % 5 ? &pool : &t;
                size_t k = u % 5 ? ins[u] : del[u];
                uint32_t port = u % 5 ? pool.e[k].port : 999;
                ck_assert_int_eq(lpm_nengine_insert(&ref, lpm_ntable_name(src, k), src->e[k].len, port, NULL), 0);
                ck_assert_msg(lpm_nengine_insert(&e, lpm_ntable_name(src, k), src->e[k].len, port, &err) == 0,
                              "%s: insert: %s", who, err.msg);
            }
        }
        check_all(&ref, &e, who, &q, BEFORE - AFTER / 2, AFTER / 2);
        check_all(&ref, &e, who, &q, qafter, AFTER / 2);
        printf("%s: %zu names, %zu lookups checked, %d deletes, %zu inserts\n", who, t.n,
               (size_t)BEFORE + AFTER, UPDATES, nins);
        lpm_nengine_free(&ref);
        lpm_nengine_free(&e);
    }
    free(del);
    free(ins);
    lpm_ntable_free(&t);
    lpm_ntable_free(&pool);
    lpm_ntable_free(&q);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("names_real");
    TCase *tc = tcase_create("real");
    tcase_set_timeout(tc, 900);
    tcase_add_loop_test(tc, test_real, 0, 2);
    suite_add_tcase(s, tc);
    return tu_run(s);
}
