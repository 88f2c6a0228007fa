/* Every mapping, on every real table: the image interpreter answers as the
 * reference LPM does. Ring N in {8,16,24,32} x X in {4,8,12,16} x stride
 * {1,3}, and each linear mapping; one image per table goes through a file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "maptest.h"
#include "../../mapper/map.h"

#define SAMPLE 20000
#define SAMPLE_BIG 100000

/* Maps with a prepared trie (or from scratch when m is NULL); the mapper
 * validates every image it makes. */
static void check_config(lpm_maptree *m, const lpm_fib *f, const lpm_ref *ref, const lpm_addr *a,
                         const uint32_t *want, size_t n, const lpm_map_opts *o, const char *table)
{
    lpm_image *img;
    lpm_err err;
    char who[160];
    snprintf(who, sizeof who, "%s %s N=%u X=%u K=%u", table, lpm_map_kind_name(o->kind), o->stages, o->x, o->stride);
    int rc = m ? lpm_maptree_image(m, o, &img, NULL, &err) : lpm_map_build(&img, f, o, NULL, &err);
    ck_assert_msg(rc == 0, "%s: %s", who, err.msg);
    mt_check_image(img, ref, f, a, want, n, who);
    lpm_image_free(img);
}

static void run_table(const lpm_fib *f, const char *name)
{
    lpm_ref *ref;
    ck_assert_int_eq(lpm_ref_build(&ref, f, NULL), 0);
    lpm_addr *a = mt_sample(f, SAMPLE_BIG, 42);
    uint32_t *want = malloc(SAMPLE_BIG * sizeof *want);
    ck_assert_ptr_nonnull(want);
    for (size_t i = 0; i < SAMPLE_BIG; i++)
        want[i] = lpm_ref_lookup(ref, &a[i], NULL);
    static const unsigned Ns[] = { 8, 16, 24, 32 }, Xs[] = { 4, 8, 12, 16 }, Ks[] = { 1, 3 };
    lpm_map_opts o;
    /* One trie per (X, K) serves every N, the adaptive ring and the
     * level and height mappings. */
    static const int kinds[] = { LPM_MAP_RING_ADAPT, LPM_MAP_LEVEL, LPM_MAP_HEIGHT };
    for (unsigned k = 0; k < 2; k++)
        for (unsigned j = 0; j < 4; j++) {
            lpm_map_opts_default(&o);
            o.x = Xs[j];
            o.stride = Ks[k];
            lpm_maptree *m;
            lpm_err err;
            ck_assert_msg(lpm_maptree_new(&m, f, &o, &err) == 0, "%s: %s", name, err.msg);
            for (unsigned i = 0; i < 4; i++) {
                o.kind = LPM_MAP_RING;
                o.stages = Ns[i];
                /* The big sample on one configuration, 20K on the rest. */
                size_t n = (i == 2 && j == 1 && k == 0) ? SAMPLE_BIG : SAMPLE;
                check_config(m, f, ref, a, want, n, &o, name);
            }
            if (Xs[j] == 8)
                for (unsigned i = 0; i < 3; i++) {
                    o.kind = kinds[i];
                    o.stages = kinds[i] == LPM_MAP_RING_ADAPT ? 16 : 0;
                    check_config(m, f, ref, a, want, SAMPLE, &o, name);
                }
            lpm_maptree_free(m);
        }
    /* Balanced: strides chosen for as many stages as stride K needs. */
    for (unsigned k = 0; k < 2; k++) {
        lpm_map_opts_default(&o);
        o.kind = LPM_MAP_BALANCED;
        o.x = 8;
        o.stride = Ks[k];
        o.stages = 0;
        check_config(NULL, f, ref, a, want, SAMPLE, &o, name);
    }
    /* One image through a file: saved, loaded, same answers. */
    lpm_map_opts_default(&o);
    lpm_image *img, *back;
    lpm_err err;
    ck_assert_int_eq(lpm_map_build(&img, f, &o, NULL, &err), 0);
    char path[] = "/tmp/lpmpipe-test-map-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    ck_assert_msg(lpm_image_save(img, path, &err) == 0, "%s", err.msg);
    ck_assert_msg(lpm_image_load(&back, path, &err) == 0, "%s", err.msg);
    unlink(path);
    ck_assert_uint_eq(lpm_image_stages(back), lpm_image_stages(img));
    for (unsigned s = 0; s < lpm_image_stages(img); s++) {
        ck_assert_uint_eq(lpm_image_stage_depth(back, s), lpm_image_stage_depth(img, s));
        for (uint32_t w = 0; w < lpm_image_stage_depth(img, s); w++)
            ck_assert_uint_eq(lpm_image_word(back, s, w), lpm_image_word(img, s, w));
    }
    ck_assert_uint_eq(lpm_image_route_count(back), f->n);
    mt_check_image(back, ref, f, a, want, SAMPLE, "saved and loaded image");
    lpm_image_free(img);
    lpm_image_free(back);
    free(a);
    free(want);
    lpm_ref_free(ref);
}

START_TEST(test_real_table)
{
    char buf[4096];
    const char *path = tu_data_file(tu_tables[_i].file, buf, sizeof buf);
    if (!path)
        return;
    lpm_fib f;
    tu_load(&f, path);
    run_table(&f, tu_tables[_i].file);
    lpm_fib_free(&f);
}
END_TEST

START_TEST(test_random_tables)
{
    int family = _i ? 6 : 4;
    lpm_fib f;
    tu_random_table(&f, family, 3000, 11 + (uint64_t)_i);
    run_table(&f, family == 4 ? "random-v4" : "random-v6");
    lpm_fib_free(&f);
}
END_TEST

START_TEST(test_strides_up_to_8)
{
    lpm_fib f;
    tu_random_table(&f, 4, 2000, 5);
    lpm_ref *ref;
    ck_assert_int_eq(lpm_ref_build(&ref, &f, NULL), 0);
    lpm_addr *a = mt_sample(&f, SAMPLE, 3);
    uint32_t *want = malloc(SAMPLE * sizeof *want);
    for (size_t i = 0; i < SAMPLE; i++)
        want[i] = lpm_ref_lookup(ref, &a[i], NULL);
    for (unsigned k = 1; k <= 8; k++)
        for (unsigned x = 0; x <= 16; x += 4) {
            lpm_map_opts o;
            lpm_map_opts_default(&o);
            o.stride = k;
            o.x = x;
            o.stages = 5;
            check_config(NULL, &f, ref, a, want, SAMPLE, &o, "random-v4");
            o.kind = LPM_MAP_LEVEL;
            o.stages = 0;
            check_config(NULL, &f, ref, a, want, SAMPLE, &o, "random-v4");
        }
    free(a);
    free(want);
    lpm_ref_free(ref);
    lpm_fib_free(&f);
}
END_TEST

START_TEST(test_minmax_balances)
{
    /* Synthetic-free check of the heuristic's promise on a random table:
     * the fullest stage within 5% of the mean for a 24-stage ring. */
    lpm_fib f;
    tu_random_table(&f, 4, 20000, 9);
    lpm_map_opts o;
    lpm_map_opts_default(&o);
    o.x = 12;
    lpm_image *img;
    lpm_map_report rep;
    ck_assert_int_eq(lpm_map_build(&img, &f, &o, &rep, NULL), 0);
    ck_assert_msg(rep.max_over_mean < 1.05, "fullest/mean %.4f", rep.max_over_mean);
    lpm_image_free(img);
    lpm_fib_free(&f);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("mapper_map");
    TCase *t = tcase_create("map");
    tcase_add_loop_test(t, test_random_tables, 0, 2);
    tcase_add_test(t, test_strides_up_to_8);
    tcase_add_test(t, test_minmax_balances);
    tcase_add_loop_test(t, test_real_table, 0, (int)tu_ntables);
    suite_add_tcase(s, t);
    return tu_run(s);
}
