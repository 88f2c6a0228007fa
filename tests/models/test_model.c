/* The SystemC models through their C API: the configuration's refusals,
 * the latency calibration, the cycle model against the simulator (cycle
 * log and results identical, every answer the reference's) on a synthetic
 * table, one elaboration per process, and the TLM line card. Without
 * SystemC the runs print SKIP and check the stand-in's refusal. Each test
 * runs in its own process (Check forks), as SystemC elaborates once. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "../../core/trace.h"
#include "../../mapper/map.h"
#include "../../models/model.h"
#include "../../sim/walk_image.h"

/* Under LeakSanitizer (make test-asan), a test child that ran SystemC
 * reports libcheck's own allocations (its runner's lists, made before the
 * fork) as leaked: SystemC's coroutine stacks hide the runner's frames
 * from the scan. Only libcheck's allocators are suppressed; a leak of
 * ours comes from other functions and is still reported. */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
    return "leak:emalloc\nleak:erealloc\nleak:punpack\nleak:srunner_run_tagged\n";
}

typedef struct run {
    const lpm_addr *a;
    size_t n, pos;
    lpm_sim_result *res;
    size_t nres;
} run;

static int src(void *ctx, lpm_addr *key, lpm_err *err)
{
    run *r = ctx;
    (void)err;
    if (r->pos == r->n)
        return 0;
    *key = r->a[r->pos++];
    return 1;
}

static int sink(void *ctx, const lpm_sim_result *x, lpm_err *err)
{
    run *r = ctx;
    (void)err;
    ck_assert_uint_lt(r->nres, r->n);
    r->res[r->nres++] = *x;
    return 0;
}

static lpm_image *tiny_ring(lpm_fib *f, lpm_addr **a, size_t n)
{
    tu_synth(f, 4, 5000, 3);
    lpm_map_opts mo;
    lpm_map_opts_default(&mo);
    mo.kind = LPM_MAP_RING;
    mo.stages = 8;
    mo.x = 8;
    mo.stride = 2;
    lpm_image *img;
    lpm_err err;
    ck_assert_msg(lpm_map_build(&img, f, &mo, NULL, &err) == 0, "map: %s", err.msg);
    *a = malloc(n * sizeof **a);
    lpm_trace_opts to;
    lpm_trace_opts_default(&to);
    to.kind = LPM_TRACE_RANDOM_MATCH;
    to.count = n;
    to.seed = 5;
    ck_assert_msg(lpm_trace_gen(f, &to, *a, &err) == 0, "trace: %s", err.msg);
    return img;
}

START_TEST(test_cfg_refusals)
{
    lpm_fib f;
    lpm_addr *a;
    lpm_image *img = tiny_ring(&f, &a, 10);
    lpm_model_cfg c;
    lpm_err err;
    lpm_model_cfg_default(&c);
    ck_assert_int_eq(lpm_model_cfg_check(&c, img, &err), 0);
    c.queue = 0;
    ck_assert_int_eq(lpm_model_cfg_check(&c, img, &err), LPM_EINPUT); /* D 2 needs queues */
    c.hop = 1;
    ck_assert_int_eq(lpm_model_cfg_check(&c, img, &err), 0);
    c.result_ready = 0.5;
    ck_assert_int_eq(lpm_model_cfg_check(&c, img, &err), LPM_EINPUT); /* back-pressure is a D >= 2 rule */
    lpm_model_cfg_default(&c);
    c.ports = 3;
    ck_assert_int_eq(lpm_model_cfg_check(&c, img, &err), LPM_EINPUT);
    lpm_model_cfg_default(&c);
    c.hop = 17;
    ck_assert_int_eq(lpm_model_cfg_check(&c, img, &err), LPM_EINPUT);
    int m = -1;
    ck_assert_int_eq(lpm_model_mutation_parse("dit-late", &m, &err), 0);
    ck_assert_int_eq(m, LPM_MODEL_MUT_DIT_LATE);
    ck_assert_int_eq(lpm_model_mutation_parse("queue-capacity", &m, &err), 0);
    ck_assert_int_eq(m, LPM_MODEL_MUT_QUEUE_CAPACITY);
    ck_assert_int_eq(lpm_model_mutation_parse("bogus", &m, &err), LPM_EINPUT);
    free(a);
    lpm_image_free(img);
    lpm_fib_free(&f);
}
END_TEST

START_TEST(test_calibration)
{
    lpm_model_calib h = { .lpc_max = 1.0, .n = 3, .load = { 0.1, 0.5, 1.0 }, .lat_mean = { 10, 20, 60 } };
    ck_assert(lpm_model_calib_latency(&h, 0.0) == 10);
    ck_assert(lpm_model_calib_latency(&h, 0.3) > 14.99 && lpm_model_calib_latency(&h, 0.3) < 15.01);
    ck_assert(lpm_model_calib_latency(&h, 0.75) > 39.99 && lpm_model_calib_latency(&h, 0.75) < 40.01);
    ck_assert(lpm_model_calib_latency(&h, 3.0) == 60);
    lpm_fib f;
    lpm_addr *a;
    lpm_image *img = tiny_ring(&f, &a, 5000);
    lpm_model_cfg c;
    lpm_model_cfg_default(&c);
    c.width = 2;
    lpm_model_calib cal;
    lpm_err err;
    ck_assert_msg(lpm_model_calibrate(img, &c, a, 5000, &cal, &err) == 0, "%s", err.msg);
    ck_assert_uint_eq(cal.n, LPM_MODEL_CAL_POINTS);
    ck_assert(cal.lpc_max > 0.1 && cal.lpc_max <= 2.0 + 1e-9);
    for (unsigned i = 1; i < cal.n; i++)
        ck_assert(cal.load[i] > cal.load[i - 1]);
    /* no lookup is faster than the unloaded minimum of the rules: (1 read + 1) D + 1 */
    ck_assert(cal.lat_mean[0] >= 5.0);
    ck_assert(cal.lat_mean[cal.n - 1] >= cal.lat_mean[0]);
    free(a);
    lpm_image_free(img);
    lpm_fib_free(&f);
}
END_TEST

/* The model and the simulator on one stimulus: the same log, byte for
 * byte, the same results, each the reference's answer; then a second
 * elaboration is refused with a message. */
START_TEST(test_model_equals_sim)
{
    lpm_fib f;
    lpm_addr *a;
    const size_t n = 4000;
    lpm_image *img = tiny_ring(&f, &a, n);
    lpm_model_cfg c;
    lpm_model_cfg_default(&c);
    c.width = 2;
    c.ports = 2;
    c.queue = 4;
    c.result_ready = 0.6;
    lpm_err err;
    if (!lpm_model_built()) {
        lpm_model_stats st;
        lpm_model_io io = { src, NULL, NULL, NULL, NULL, NULL };
        ck_assert_int_eq(lpm_model_run(img, &c, &io, &st, &err), LPM_ENODEV);
        tu_skip("built without SystemC: the cycle model is not compared");
        goto out;
    }
    FILE *ls = tmpfile(), *lm = tmpfile();
    ck_assert(ls && lm);
    run rs = { a, n, 0, calloc(n, sizeof(lpm_sim_result)), 0 }, rm = { a, n, 0, calloc(n, sizeof(lpm_sim_result)), 0 };
    lpm_sim_walker w;
    lpm_sim_image_walker(img, &w);
    lpm_sim_cfg sc;
    lpm_sim_cfg_default(&sc);
    sc.width = 2;
    sc.ports = 2;
    sc.queue = 4;
    sc.result_ready = 0.6;
    sc.cycle_log = ls;
    lpm_sim *s;
    ck_assert_msg(lpm_sim_new(&s, &w, &sc, &err) == 0, "%s", err.msg);
    ck_assert_msg(lpm_sim_run(s, src, &rs, NULL, NULL, sink, &rs, &err) == 0, "%s", err.msg);
    lpm_sim_free(s);
    c.cycle_log = lm;
    lpm_model_io io = { src, &rm, NULL, NULL, sink, &rm };
    lpm_model_stats st;
    ck_assert_msg(lpm_model_run(img, &c, &io, &st, &err) == 0, "%s", err.msg);
    ck_assert_uint_eq(st.lookups, n);
    ck_assert_uint_eq(rm.nres, n);
    ck_assert_uint_eq(rs.nres, n);
    long zs = ftell(ls), zm = ftell(lm);
    ck_assert_int_eq(zs, zm);
    rewind(ls);
    rewind(lm);
    char *bs = malloc((size_t)zs), *bm = malloc((size_t)zm);
    ck_assert(fread(bs, 1, (size_t)zs, ls) == (size_t)zs && fread(bm, 1, (size_t)zm, lm) == (size_t)zm);
    ck_assert_msg(!memcmp(bs, bm, (size_t)zs), "the cycle logs differ");
    lpm_ref *ref;
    ck_assert_int_eq(lpm_ref_build(&ref, &f, &err), 0);
    for (size_t i = 0; i < n; i++) {
        ck_assert_uint_eq(rm.res[i].id, rs.res[i].id);
        ck_assert_uint_eq(rm.res[i].nh, rs.res[i].nh);
        ck_assert_uint_eq(rm.res[i].out_cycle, rs.res[i].out_cycle);
        tu_check_answer(ref, &f, &a[rm.res[i].id], rm.res[i].nh, "the SystemC model");
    }
    rm.pos = 0;
    c.cycle_log = NULL;
    ck_assert_int_eq(lpm_model_run(img, &c, &io, &st, &err), LPM_EFAIL);
    ck_assert(strstr(err.msg, "one model per process"));
    lpm_ref_free(ref);
    free(bs);
    free(bm);
    free(rs.res);
    free(rm.res);
    fclose(ls);
    fclose(lm);
out:
    free(a);
    lpm_image_free(img);
    lpm_fib_free(&f);
}
END_TEST

/* The TLM line card with the cycle engine: every packet answered or
 * dropped, every answer the interpreter's; under the saturated rate
 * nothing is dropped. */
START_TEST(test_linecard)
{
    lpm_fib f;
    lpm_addr *a;
    const size_t n = 3000;
    lpm_image *img = tiny_ring(&f, &a, n);
    if (!lpm_model_built()) {
        tu_skip("built without SystemC: no line card");
        goto out;
    }
    lpm_image *check = lpm_image_clone(img);
    lpm_linecard_cfg lc = { .rate_pps = 50e6, .fifo = 32, .contexts = 32 };
    lpm_model_cfg_default(&lc.mc);
    lpm_linecard_report r;
    lpm_err err;
    ck_assert_msg(lpm_linecard_run(img, &lc, a, n, NULL, 0, check, &r, &err) == 0, "%s", err.msg);
    ck_assert_uint_eq(r.answered + r.dropped, n);
    ck_assert_uint_eq(r.dropped, 0); /* 0.25 lookups per clock */
    ck_assert_uint_eq(r.checked, n);
    ck_assert_uint_eq(r.mismatches, 0);
    ck_assert(r.lat_p50_ns > 0 && r.lat_p50_ns <= r.lat_p99_ns && r.lat_p99_ns <= r.lat_max_ns);
    ck_assert(r.need_per_clock > 0.249 && r.need_per_clock < 0.251);
    lpm_image_free(check);
out:
    free(a);
    lpm_image_free(img);
    lpm_fib_free(&f);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("model");
    TCase *tc = tcase_create("model");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_cfg_refusals);
    tcase_add_test(tc, test_calibration);
    tcase_add_test(tc, test_model_equals_sim);
    tcase_add_test(tc, test_linecard);
    suite_add_tcase(s, tc);
    return tu_run(s);
}
