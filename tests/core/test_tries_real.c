/* The tries on every real table in ../shared/data (SKIP when absent):
 * unibit and multibit with fixed, optimal and GAMT strides agree with the
 * reference on 1M addresses per table (700K random-match, 300K uniform);
 * then a sampled sequence of deletes and re-inserts agrees after every
 * step. */
#include <stdlib.h>
#include <string.h>

#include "tries_util.h"
#include "../../core/trace.h"
#include "../../core/trie_multibit.h"

#define MAX_KIND 700000
static const size_t per_kind[2] = { 700000, 300000 };

/* Addresses of a kind, from the trace generators (docs/formats.md). */
static void addresses(const lpm_fib *f, int kind, lpm_addr *a, size_t n, uint64_t seed)
{
    lpm_trace_opts o;
    lpm_trace_opts_default(&o);
    o.kind = kind;
    o.count = n;
    o.seed = seed;
    lpm_err err;
    ck_assert_msg(lpm_trace_gen(f, &o, a, &err) == 0, "trace: %s", err.msg);
}

typedef struct {
    char name[256];
    lpm_multibit m;
} mb_case;

START_TEST(test_real_table)
{
    const tu_table *tt = &tu_tables[_i];
    char path[4096];
    if (!tu_data_file(tt->file, path, sizeof path))
        return;
    lpm_fib f;
    tu_load(&f, path);
    ck_assert_uint_eq(f.n, tt->prefixes);
    lpm_err err;
    lpm_ref *ref;
    ck_assert_int_eq(lpm_ref_build(&ref, &f, &err), 0);
    lpm_unibit u;
    ck_assert_int_eq(lpm_unibit_build(&u, &f, &err), 0);

    mb_case mc[3];
    lpm_strides st[3];
    if (f.family == LPM_AF_INET) {
        ck_assert_int_eq(lpm_strides_parse(4, "16-8-8", &st[0], &err), 0);
        ck_assert_int_eq(lpm_strides_optimal(&u, 3, &st[1], &err), 0);
        ck_assert_int_eq(lpm_strides_gamt(&u, 4, 32, &st[2], &err), 0);
    } else {
        ck_assert_int_eq(lpm_strides_parse(6, "16-8-8-8-8-8-8-8-8-8-8-8-8-8-8", &st[0], &err), 0);
        ck_assert_int_eq(lpm_strides_optimal(&u, 12, &st[1], &err), 0);
        ck_assert_int_eq(lpm_strides_gamt(&u, 16, 32, &st[2], &err), 0);
    }
    static const char *algo[] = { "fixed", "optimal", "gamt" };
    for (int k = 0; k < 3; k++) {
        char sb[200];
        lpm_strides_format(&st[k], sb, sizeof sb);
        snprintf(mc[k].name, sizeof mc[k].name, "multibit %s %s", algo[k], sb);
        ck_assert_msg(lpm_multibit_build(&mc[k].m, &f, &st[k], &err) == 0, "%s: %s", mc[k].name, err.msg);
    }
    lpm_addr *a = malloc(MAX_KIND * sizeof *a);
    uint32_t *nh = malloc(MAX_KIND * sizeof *nh);
    ck_assert_ptr_nonnull(a);
    ck_assert_ptr_nonnull(nh);
    static const int kinds[] = { LPM_TRACE_RANDOM_MATCH, LPM_TRACE_UNIFORM };
    for (int kk = 0; kk < 2; kk++) {
        size_t n = per_kind[kk];
        addresses(&f, kinds[kk], a, n, 1000 + (uint64_t)kk);
        for (size_t i = 0; i < n; i++)
            nh[i] = lpm_ref_lookup(ref, &a[i], NULL);
        /* The reference answers once; each engine is compared with it, and
         * a mismatch is reported through tu_check_answer. */
        for (size_t i = 0; i < n; i++)
            if (lpm_unibit_lookup(&u, &a[i]) != nh[i])
                tu_check_answer(ref, &f, &a[i], lpm_unibit_lookup(&u, &a[i]), "unibit");
        uint32_t *got = malloc(n * sizeof *got);
        ck_assert_ptr_nonnull(got);
        for (int k = 0; k < 3; k++) {
            lpm_multibit_lookup_batch(&mc[k].m, a, got, n);
            for (size_t i = 0; i < n; i++)
                if (got[i] != nh[i] || lpm_multibit_lookup(&mc[k].m, &a[i]) != nh[i])
                    tu_check_answer(ref, &f, &a[i], got[i] != nh[i] ? got[i] : lpm_multibit_lookup(&mc[k].m, &a[i]),
                                    mc[k].name);
        }
        free(got);
    }

    /* Updates on the GAMT-strided trie and the unibit trie: delete a
     * sample of prefixes, re-insert them with another next hop; after each
     * step addresses inside the prefix (and a few anywhere) agree. */
    lpm_multibit *m = &mc[2].m;
    lpm_rng r;
    lpm_rng_seed(&r, 515);
    size_t steps = 4000;
    for (size_t s = 0; s < steps; s++) {
        const lpm_route *rt = &f.routes[lpm_rng_below(&r, f.n)];
        if (s % 2 == 0) {
            int present = lpm_ref_del(ref, &rt->pfx);
            ck_assert_int_eq(lpm_multibit_delete(m, &rt->pfx, &err), present ? LPM_OK : LPM_EINPUT);
            ck_assert_int_eq(lpm_unibit_delete(&u, &rt->pfx, &err), present ? LPM_OK : LPM_EINPUT);
        } else {
            uint32_t v = (uint32_t)lpm_rng_below(&r, f.nh.n);
            ck_assert_int_eq(lpm_multibit_insert(m, &rt->pfx, v, &err), 0);
            ck_assert_int_eq(lpm_unibit_insert(&u, &rt->pfx, v, &err), 0);
            ck_assert_int_eq(lpm_ref_add(ref, &rt->pfx, v), 0);
        }
        for (int k = 0; k < 16; k++) {
            lpm_addr x = k < 12 ? tr_inside(&r, &rt->pfx) : tr_inside(&r, &f.routes[lpm_rng_below(&r, f.n)].pfx);
            tu_check_answer(ref, &f, &x, lpm_multibit_lookup(m, &x), "multibit gamt after update");
            tu_check_answer(ref, &f, &x, lpm_unibit_lookup(&u, &x), "unibit after update");
        }
    }
    free(a);
    free(nh);
    for (int k = 0; k < 3; k++)
        lpm_multibit_free(&mc[k].m);
    lpm_unibit_free(&u);
    lpm_ref_free(ref);
    lpm_fib_free(&f);
}
END_TEST

int main(void)
{
    if (!tu_data_dir()) {
        tu_skip("../shared/data is absent: the tries are not checked on real tables");
        return 77;
    }
    Suite *s = suite_create("tries_real");
    TCase *t = tcase_create("tries_real");
    tcase_add_loop_test(t, test_real_table, 0, (int)tu_ntables);
    suite_add_tcase(s, t);
    return tu_run(s);
}
