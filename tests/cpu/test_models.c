/* The parallel models (run-to-complete, pipelined) and the update-cost
 * counters, every answer against the reference. */
#include <stdlib.h>

#include "cpu_testlib.h"
#include "../../cpu/bench_cpu.h"
#include "../../cpu/parallel.h"

static void check_all(const lpm_engine_ops *e, const lpm_ref *ref, const lpm_fib *f,
                      const lpm_addr *a, const uint32_t *nh, size_t n)
{
    for (size_t i = 0; i < n; i++)
        tu_check_answer(ref, f, &a[i], nh[i], e->name);
}

START_TEST(test_rtc_and_pipeline)
{
    int family = _i & 1 ? LPM_AF_INET6 : LPM_AF_INET;
    const lpm_engine_ops *e = ct_engines[_i / 2];
    if (!ct_supports(e, family))
        return;
    lpm_fib f;
    ct_random_table(&f, family, 20000, 51);
    lpm_err err;
    lpm_ref *ref;
    ck_assert_int_eq(lpm_ref_build(&ref, &f, &err), 0);
    void *st;
    ck_assert_int_eq(e->build(&st, &f, &err), 0);
    size_t n = 100003; /* not a multiple of any thread count */
    lpm_addr *a = malloc(n * sizeof *a);
    uint32_t *nh = malloc(n * sizeof *nh);
    lpm_rng r;
    lpm_rng_seed(&r, 52);
    ct_mixed_addrs(&f, &r, a, n);
    double s;
    for (unsigned t = 1; t <= 3; t++) {
        for (size_t i = 0; i < n; i++)
            nh[i] = 12345;
        ck_assert_int_eq(lpm_cpu_run_rtc(e, st, a, nh, n, t, 2, &s, NULL, &err), 0);
        check_all(e, ref, &f, a, nh, n);
    }
    if (lpm_cpu_pipeline_supported(e)) {
        unsigned levels = lpm_cpu_pipeline_levels(st);
        unsigned stages[] = { 0, 1, 2, levels };
        for (size_t k = 0; k < 4; k++) {
            for (size_t i = 0; i < n; i++)
                nh[i] = 12345;
            ck_assert_int_eq(lpm_cpu_run_pipeline(e, st, a, nh, n, stages[k], 1, &s, &err), 0);
            check_all(e, ref, &f, a, nh, n);
        }
    } else {
        ck_assert_int_eq(lpm_cpu_run_pipeline(e, st, a, nh, n, 0, 1, &s, &err), LPM_EINPUT);
    }
    ck_assert_int_eq(lpm_cpu_run_rtc(e, st, a, nh, n, 0, 1, &s, NULL, &err), LPM_EINPUT);
    free(a);
    free(nh);
    e->destroy(st);
    lpm_ref_free(ref);
    lpm_fib_free(&f);
}
END_TEST

static void table_of(lpm_fib *f, const char **pfx, size_t n)
{
    lpm_fib_init(f);
    for (size_t i = 0; i < n; i++) {
        lpm_prefix p;
        ck_assert_int_eq(lpm_prefix_parse(pfx[i], 0, 0, &p, NULL), 0);
        ck_assert_int_eq(lpm_fib_add_tok(f, &p, pfx[i], 2, NULL), 0);
    }
    ck_assert_int_eq(lpm_fib_finish(f, NULL), 0);
}

/* The update-cost run of an engine's state. */
static int cost_run(const lpm_engine_ops *e, void *st, const lpm_fib *f, unsigned lo, unsigned hi,
                    lpm_cpu_update_report *r, lpm_err *err)
{
    lpm_cpu_engine_ctx c = { e, st };
    lpm_cpu_updater u = lpm_cpu_engine_updater(&c);
    return lpm_cpu_update_cost(&u, f, lo, hi, r, err);
}

/* Table IV's counters on cases worked out by hand. */
START_TEST(test_update_counts)
{
    const char *t[] = { "10.0.0.0/8", "10.1.0.0/16" };
    lpm_fib f;
    table_of(&f, t, 2);
    lpm_err err;
    lpm_cpu_update_report r;
    void *st;

    /* DIR-24-8: the /16 owns 256 TBL24 entries, the /8 65536. */
    ck_assert_int_eq(lpm_engine_dir24_8.build(&st, &f, &err), 0);
    ck_assert_int_eq(cost_run(&lpm_engine_dir24_8, st, &f, 16, 16, &r, &err), 0);
    ck_assert_uint_eq(r.prefixes, 1);
    ck_assert_uint_eq(r.del.entries_set, 256);
    ck_assert_uint_eq(r.add.entries_set, 256);
    ck_assert_int_eq(cost_run(&lpm_engine_dir24_8, st, &f, 8, 8, &r, &err), 0);
    ck_assert_uint_eq(r.del.entries_set, 65536 - 256);
    ck_assert_uint_eq(r.add.entries_set, 65536 - 256);
    lpm_engine_dir24_8.destroy(st);

    /* Tree Bitmap 13: the /8 expands into 2^5 initial entries; the /16
     * is one result in a node of its own (created on add, freed on del). */
    ck_assert_int_eq(lpm_engine_tree_bitmap_13.build(&st, &f, &err), 0);
    ck_assert_int_eq(cost_run(&lpm_engine_tree_bitmap_13, st, &f, 8, 8, &r, &err), 0);
    ck_assert_uint_eq(r.add.entries_set, 32);
    ck_assert_uint_eq(r.del.entries_set, 32);
    ck_assert_uint_eq(r.add.nodes_alloc, 0);
    ck_assert_int_eq(cost_run(&lpm_engine_tree_bitmap_13, st, &f, 16, 16, &r, &err), 0);
    ck_assert_uint_eq(r.add.entries_set, 1);
    ck_assert_uint_eq(r.add.nodes_alloc, 1);
    ck_assert_uint_eq(r.add.nodes_copied, 0);
    ck_assert_uint_eq(r.del.nodes_freed, 1);
    lpm_engine_tree_bitmap_13.destroy(st);

    /* Hybrid: both live in its short trie, TBL24 is never touched. */
    ck_assert_int_eq(lpm_engine_hybrid.build(&st, &f, &err), 0);
    ck_assert_int_eq(cost_run(&lpm_engine_hybrid, st, &f, 8, 16, &r, &err), 0);
    ck_assert_uint_eq(r.prefixes, 2);
    ck_assert_uint_eq(r.add.entries_set, 32 + 1);
    lpm_engine_hybrid.destroy(st);

    /* The reference has no counters: times only. */
    const lpm_engine_ops *ref = lpm_engine_find("ref");
    ck_assert_ptr_nonnull(ref);
    ck_assert_int_eq(ref->build(&st, &f, &err), 0);
    ck_assert_int_eq(cost_run(ref, st, &f, 8, 16, &r, &err), 0);
    ck_assert_int_eq(r.counted, 0);
    ck_assert_uint_eq(r.prefixes, 2);
    ref->destroy(st);
    lpm_fib_free(&f);
}
END_TEST

/* After a cost run the table is what it was: every engine still agrees. */
START_TEST(test_update_cost_restores)
{
    const lpm_engine_ops *e = ct_engines[_i];
    lpm_fib f;
    ct_random_table(&f, LPM_AF_INET, 5000, 61);
    lpm_err err;
    lpm_ref *ref;
    ck_assert_int_eq(lpm_ref_build(&ref, &f, &err), 0);
    void *st;
    ck_assert_int_eq(e->build(&st, &f, &err), 0);
    size_t before = e->memory(st);
    lpm_cpu_update_report r;
    ck_assert_int_eq(cost_run(e, st, &f, 0, 32, &r, &err), 0);
    ck_assert_uint_eq(r.prefixes, f.n);
    ck_assert_int_eq(r.counted, 1);
    ck_assert_uint_gt(r.add.entries_set, 0);
    /* Same content, possibly less packed than after a fresh build. */
    ck_assert_uint_ge(e->memory(st) + 64 * 1024, before);
    size_t n = 50000;
    lpm_addr *a = malloc(n * sizeof *a);
    lpm_rng rr;
    lpm_rng_seed(&rr, 62);
    ct_mixed_addrs(&f, &rr, a, n);
    ct_check(e, st, ref, &f, a, n);
    free(a);
    e->destroy(st);
    lpm_ref_free(ref);
    lpm_fib_free(&f);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("cpu_models");
    TCase *t = tcase_create("models");
    tcase_add_loop_test(t, test_rtc_and_pipeline, 0, (int)ct_nengines * 2);
    tcase_add_test(t, test_update_counts);
    tcase_add_loop_test(t, test_update_cost_restores, 0, (int)ct_nengines);
    suite_add_tcase(s, t);
    return tu_run(s);
}
