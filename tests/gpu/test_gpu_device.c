/* On a CUDA device: `gpu bench`'s machinery on synthetic and real tables,
 * every answer compared with the reference, with and without updates.
 * Without a device (or a build without nvcc) it prints SKIP and exits 77. */
#include <string.h>

#include "gputest.h"
#include "../../gpu/gpu_api.h"

static void run(const lpm_fib *f, int engine, size_t n, size_t batch, unsigned streams, size_t nupd)
{
    lpm_err err;
    lpm_ref *ref;
    ck_assert_int_eq(lpm_ref_build(&ref, f, &err), 0);
    lpm_addr *a = gt_addrs(f, n, 9);
    lpm_update *u = NULL;
    if (nupd)
        ck_assert_int_eq(lpm_gpu_updates_gen(f, nupd, 4, &u, &err), 0);
    lpm_gpu_bench_in in = {
        .fib = f, .engine = engine, .addr = a, .n = n, .batch = batch, .streams = streams,
        .reps = 2, .upd = u, .nupd = nupd, .update_rate = 1e12, .ref = ref,
    };
    lpm_gpu_bench_out o;
    ck_assert_msg(lpm_gpu_bench(&in, &o, &err) == 0, "gpu bench: %s", err.msg);
    ck_assert_uint_eq(o.checked, n);
    ck_assert_msg(o.mismatches == 0, "%zu of %zu GPU answers differ from the reference", o.mismatches, n);
    ck_assert_uint_eq(o.updates_applied, nupd);
    free(u);
    free(a);
    lpm_ref_free(ref);
}

START_TEST(test_synthetic)
{
    for (int fam = 4; fam <= 6; fam += 2) {
        lpm_fib f;
        gt_random_table(&f, fam, 5000, 3);
        run(&f, LPM_GPU_GAMT, 1 << 20, 1 << 16, 4, 0);
        run(&f, LPM_GPU_GAMT, 1 << 20, 1 << 12, 8, 3000);
        if (fam == 4) {
            run(&f, LPM_GPU_GALE, 1 << 20, 1 << 16, 4, 0);
            run(&f, LPM_GPU_GALE, 1 << 20, 1 << 12, 8, 3000);
        }
        lpm_fib_free(&f);
    }
}
END_TEST

START_TEST(test_real_tables)
{
    const tu_table *t = &tu_tables[_i];
    char path[4096];
    if (!tu_data_file(t->file, path, sizeof path))
        return;
    lpm_fib f;
    tu_load(&f, path);
    run(&f, LPM_GPU_GAMT, 1 << 22, 1 << 20, 4, 0);
    if (t->family == 4)
        run(&f, LPM_GPU_GALE, 1 << 22, 1 << 20, 4, 0);
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
    tcase_add_loop_test(t, test_real_tables, 0, (int)tu_ntables);
    suite_add_tcase(s, t);
    return tu_run(s);
}
