/* lpm_engine_gamt and lpm_engine_gale through the engine interface (what
 * `lpmpipe lookup --engine` and `lpmpipe bench` use): synthetic tables and
 * the project's traces, then add/del updates, all against the reference. */
#include "gputest.h"

extern const lpm_engine_ops lpm_engine_gamt, lpm_engine_gale;

static const lpm_engine_ops *engine(int i)
{
    return i ? &lpm_engine_gale : &lpm_engine_gamt;
}

START_TEST(test_traces)
{
    const lpm_engine_ops *e = engine(_i / 2);
    int family = _i & 1 ? 6 : 4;
    if (!(e->families & (family == 4 ? LPM_ENGINE_V4 : LPM_ENGINE_V6)))
        return;
    lpm_fib f;
    tu_synth(&f, family, 60000, 5 + (uint64_t)_i);
    tu_engine_agrees(e, &f, LPM_TRACE_RANDOM_MATCH, 100000, 1);
    tu_engine_agrees(e, &f, LPM_TRACE_UNIFORM, 50000, 2);
    lpm_fib_free(&f);
}
END_TEST

START_TEST(test_add_del)
{
    const lpm_engine_ops *e = engine(_i / 2);
    int family = _i & 1 ? 6 : 4;
    if (!(e->families & (family == 4 ? LPM_ENGINE_V4 : LPM_ENGINE_V6)))
        return;
    lpm_fib f;
    tu_synth(&f, family, 30000, 9 + (uint64_t)_i);
    lpm_err err;
    lpm_ref *ref;
    ck_assert_int_eq(lpm_ref_build(&ref, &f, &err), 0);
    void *st;
    ck_assert_msg(e->build(&st, &f, &err) == 0, "%s", err.msg);
    lpm_update *u;
    ck_assert_int_eq(lpm_gpu_updates_gen(&f, 5000, 3, &u, &err), 0);
    for (size_t i = 0; i < 5000; i++) {
        int rc = u[i].op == 'w' ? e->del(st, &u[i].pfx, &err) : e->add(st, &u[i].pfx, u[i].nh, &err);
        ck_assert_msg(rc == 0, "%s update %zu: %s", e->name, i, err.msg);
        gt_ref_apply(ref, &u[i]);
    }
    lpm_addr *a = gt_addrs(&f, 50000, 4);
    for (size_t i = 0; i < 50000; i++)
        tu_check_answer(ref, &f, &a[i], e->lookup(st, &a[i]), e->name);
    ck_assert_uint_gt(e->memory(st), 0);
    free(a);
    free(u);
    e->destroy(st);
    lpm_ref_free(ref);
    lpm_fib_free(&f);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("gpu_engines");
    TCase *t = tcase_create("gpu_engines");
    tcase_set_timeout(t, 300);
    tcase_add_loop_test(t, test_traces, 0, 4);
    tcase_add_loop_test(t, test_add_del, 0, 4);
    suite_add_tcase(s, t);
    return tu_run(s);
}
