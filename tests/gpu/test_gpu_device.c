/* On a CUDA device: `gpu bench`'s machinery on synthetic and real tables,
 * every answer compared with the reference, with and without updates,
 * forced rebuilds and swaps (GAMT) and re-uploads (GALE), and many points
 * on one session.
 * Without a device (or a build without nvcc) it prints SKIP and exits 77. */
#include <string.h>

#include "gputest.h"
#include "../../gpu/gpu_api.h"

static void expect_exact(const lpm_gpu_bench_in *in, const lpm_gpu_bench_out *o)
{
    ck_assert_uint_eq(o->checked, in->check ? in->check : in->n);
    ck_assert_msg(o->mismatches == 0, "%zu of %zu GPU answers differ from the reference", o->mismatches,
                  o->checked);
    ck_assert_msg(o->stale == 0, "%zu GPU answers were read from head room", o->stale);
    ck_assert_uint_eq(o->updates_applied, in->nupd);
    ck_assert_uint_ge(o->lookups, in->n);
}

/* One run through lpm_gpu_bench; upd: generated (nupd) or given. */
static void run(const lpm_fib *f, int engine, size_t n, size_t batch, unsigned streams, size_t nupd,
                const lpm_update *given, size_t every)
{
    lpm_err err;
    lpm_ref *ref;
    ck_assert_int_eq(lpm_ref_build(&ref, f, &err), 0);
    lpm_addr *a = gt_addrs(f, n, 9);
    lpm_update *u = NULL;
    if (nupd && !given)
        ck_assert_int_eq(lpm_gpu_updates_gen(f, nupd, 4, &u, &err), 0);
    lpm_gpu_bench_in in = {
        .fib = f, .engine = engine, .addr = a, .n = n, .batch = batch, .streams = streams, .reps = 2,
        .upd = given ? given : u, .nupd = nupd, .update_rate = 1e12, .rebuild_every = every, .ref = ref,
    };
    lpm_gpu_bench_out o;
    ck_assert_msg(lpm_gpu_bench(&in, &o, &err) == 0, "gpu bench: %s", err.msg);
    expect_exact(&in, &o);
    if (every) /* forced rebuilds (GALE: uploads) and swaps happened, and the answers held */
        ck_assert_uint_ge(o.rebuilds, nupd / every);
    free(u);
    free(a);
    lpm_ref_free(ref);
}

START_TEST(test_synthetic)
{
    for (int fam = 4; fam <= 6; fam += 2) {
        lpm_fib f;
        gt_random_table(&f, fam, 5000, 3);
        run(&f, LPM_GPU_GAMT, 1 << 20, 1 << 16, 4, 0, NULL, 0);
        run(&f, LPM_GPU_GAMT, 1 << 20, 1 << 12, 8, 3000, NULL, 0);
        run(&f, LPM_GPU_GAMT, 1 << 20, 1 << 12, 8, 3000, NULL, 700);
        if (fam == 4) {
            run(&f, LPM_GPU_GALE, 1 << 20, 1 << 16, 4, 0, NULL, 0);
            run(&f, LPM_GPU_GALE, 1 << 20, 1 << 12, 8, 3000, NULL, 0);
            run(&f, LPM_GPU_GALE, 1 << 20, 1 << 12, 8, 3000, NULL, 1000);
        }
        lpm_fib_free(&f);
    }
}
END_TEST

/* One session, many (batch, streams) points, a time-bound run and a
 * sampled check: every point exact. */
START_TEST(test_session_points)
{
    lpm_fib f;
    gt_random_table(&f, 4, 20000, 5);
    lpm_err err;
    lpm_ref *ref;
    ck_assert_int_eq(lpm_ref_build(&ref, &f, &err), 0);
    size_t n = 1 << 20;
    lpm_addr *a = gt_addrs(&f, n, 11);
    lpm_gpu_session *s;
    ck_assert_msg(lpm_gpu_open(&s, &f, _i ? LPM_GPU_GALE : LPM_GPU_GAMT, 0, &err) == 0, "%s", err.msg);
    static const size_t batches[] = { 1024, 65536, 1 << 18 };
    static const unsigned streams[] = { 1, 3, 4, 16 };
    for (size_t i = 0; i < 3; i++)
        for (size_t j = 0; j < 4; j++) {
            lpm_gpu_bench_in in = { .addr = a, .n = n, .batch = batches[i], .streams = streams[j], .reps = 2,
                                    .seconds = i == 1 && j == 1 ? 0.5 : 0, .check = j == 2 ? 4099 : 0,
                                    .ref = ref };
            lpm_gpu_bench_out o;
            ck_assert_msg(lpm_gpu_run(s, &in, &o, &err) == 0, "run %zu x %u: %s", batches[i], streams[j], err.msg);
            expect_exact(&in, &o);
            ck_assert(o.lat_mean_us > 0 && o.lat_p99_us > 0 && o.lat_max_us >= o.lat_p99_us);
        }
    lpm_gpu_close(s);
    free(a);
    lpm_ref_free(ref);
    lpm_fib_free(&f);
}
END_TEST

/* Every shared table, without and with updates (generated, and the linx
 * trace on IPv4), including forced rebuilds and swaps. */
START_TEST(test_real_tables)
{
    const tu_table *t = &tu_tables[_i];
    char path[4096];
    if (!tu_data_file(t->file, path, sizeof path))
        return;
    lpm_fib f;
    tu_load(&f, path);
    run(&f, LPM_GPU_GAMT, 1 << 22, 1 << 20, 4, 0, NULL, 0);
    run(&f, LPM_GPU_GAMT, 1 << 21, 1 << 16, 8, 20000, NULL, 5000);
    if (t->family == 4) {
        run(&f, LPM_GPU_GALE, 1 << 22, 1 << 20, 4, 0, NULL, 0);
        run(&f, LPM_GPU_GALE, 1 << 21, 1 << 16, 8, 20000, NULL, 10000);
        size_t nl;
        lpm_update *u = gt_linx(&f, &nl);
        if (u) {
            run(&f, LPM_GPU_GAMT, 1 << 21, 1 << 16, 8, nl, u, nl / 2);
            free(u);
        }
    }
    lpm_fib_free(&f);
}
END_TEST

int main(void)
{
    char dev[256];
    lpm_err err;
    if (!lpm_gpu_built()) {
        tu_skip("no CUDA device: this build has no CUDA (nvcc was absent)");
        return 77;
    }
    if (lpm_gpu_probe(dev, sizeof dev, &err)) {
        tu_skip("no CUDA device (%s)", err.msg);
        return 77;
    }
    printf("device: %s\n", dev);
    Suite *s = suite_create("gpu_device");
    TCase *t = tcase_create("gpu_device");
    tcase_set_timeout(t, 600);
    tcase_add_test(t, test_synthetic);
    tcase_add_loop_test(t, test_session_points, 0, 2);
    tcase_add_loop_test(t, test_real_tables, 0, (int)tu_ntables);
    suite_add_tcase(s, t);
    return tu_run(s);
}
