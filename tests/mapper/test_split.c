/* The split mapping (issue 21): answers like the reference LPM on random
 * tables of both families at many settings (ring and linear), keeps its
 * jumps within N/2 stages, is deterministic, and on every shared IPv6
 * table the IPv6 defaults give fullest/mean <= 1.02 with memory at most
 * 1.25x the stride-1 adaptive image, every sampled lookup checked. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "maptest.h"
#include "../../mapper/map.h"

#define SAMPLE 20000
#define SAMPLE_BIG 100000

typedef struct {
    const lpm_fib *f;
    lpm_ref *ref;
    lpm_addr *a;
    uint32_t *want;
    size_t n;
} oracle;

static void oracle_new(oracle *o, const lpm_fib *f, size_t n, uint64_t seed)
{
    o->f = f;
    o->n = n;
    ck_assert_int_eq(lpm_ref_build(&o->ref, f, NULL), 0);
    o->a = mt_sample(f, n, seed);
    o->want = malloc(n * sizeof *o->want);
    ck_assert_ptr_nonnull(o->want);
    for (size_t i = 0; i < n; i++)
        o->want[i] = lpm_ref_lookup(o->ref, &o->a[i], NULL);
}

static void oracle_free(oracle *o)
{
    lpm_ref_free(o->ref);
    free(o->a);
    free(o->want);
}

/* Every jump of a ring image lands at most N/2 stages past the stage after
 * its word (the split mapping's bound); a linear image only jumps forward
 * (the loader checks that). */
static size_t check_jumps(const lpm_image *img, const char *who)
{
    size_t n = 0;
    if (!lpm_image_is_ring(img))
        return 0;
    unsigned N = lpm_image_stages(img);
    for (unsigned s = 0; s < N; s++)
        for (uint32_t a = 0; a < lpm_image_stage_used(img, s); a++) {
            lpm_node_word w;
            lpm_image_word_decode(img, s, lpm_image_word(img, s, a), &w);
            if (w.child && w.jump) {
                ck_assert_msg((w.stage + 2 * N - s - 1) % N <= N / 2, "%s: stage %u word %u jumps to stage %u",
                              who, s, a, w.stage);
                n++;
            }
        }
    return n;
}

/* Maps, checks every sampled answer and the jump bound; *jumps (if not
 * NULL) gets the number of jumping words. */
static lpm_image *map_checked(const oracle *or, const lpm_map_opts *o, lpm_map_report *rep, const char *table,
                              size_t *jumps)
{
    char who[200];
    snprintf(who, sizeof who, "%s %s N=%u X=%u K=%u H=%u", table, lpm_map_kind_name(o->kind), o->stages, o->x,
             o->stride, o->split);
    lpm_image *img;
    lpm_err err;
    ck_assert_msg(lpm_map_build(&img, or->f, o, rep, &err) == 0, "%s: %s", who, err.msg);
    ck_assert_int_eq(lpm_image_map_kind(img), o->kind);
    mt_check_image(img, or->ref, or->f, or->a, or->want, or->n, who);
    size_t nj = check_jumps(img, who);
    if (jumps)
        *jumps = nj;
    return img;
}

START_TEST(test_random_tables)
{
    int family = _i ? 6 : 4;
    lpm_fib f;
    tu_random_table(&f, family, 3000, 21 + (uint64_t)_i);
    oracle or;
    oracle_new(&or, &f, SAMPLE, 7);
    static const unsigned Ns[] = { 4, 8, 24 }, Hs[] = { 1, 2, 4 }, Ks[] = { 1, 2, 3 }, Xs[] = { 0, 4, 8 };
    for (unsigned i = 0; i < 3; i++)
        for (unsigned j = 0; j < 3; j++)
            for (unsigned k = 0; k < 3; k++) {
                lpm_map_opts o;
                lpm_map_opts_default(&o);
                o.kind = LPM_MAP_RING_SPLIT;
                o.stages = Ns[i];
                o.split = Hs[j];
                o.stride = Ks[k];
                o.x = Xs[(i + j + k) % 3];
                lpm_image_free(map_checked(&or, &o, NULL, family == 4 ? "random-v4" : "random-v6", NULL));
                o.kind = LPM_MAP_LINEAR_SPLIT;
                o.stages = i == 2 ? 0 : 128; /* as many as needed, and many more */
                lpm_image_free(map_checked(&or, &o, NULL, family == 4 ? "random-v4" : "random-v6", NULL));
            }
    oracle_free(&or);
    lpm_fib_free(&f);
}
END_TEST

static int same_image(const lpm_image *a, const lpm_image *b)
{
    if (lpm_image_stages(a) != lpm_image_stages(b) || lpm_image_word_bits(a) != lpm_image_word_bits(b))
        return 0;
    for (uint32_t i = 0; i < (1u << lpm_image_initial_stride(a)); i++)
        if (lpm_image_dit_entry(a, i) != lpm_image_dit_entry(b, i))
            return 0;
    for (unsigned s = 0; s < lpm_image_stages(a); s++) {
        if (lpm_image_stage_depth(a, s) != lpm_image_stage_depth(b, s))
            return 0;
        for (uint32_t w = 0; w < lpm_image_stage_depth(a, s); w++)
            if (lpm_image_word(a, s, w) != lpm_image_word(b, s, w))
                return 0;
    }
    return 1;
}

START_TEST(test_deterministic_and_defaults)
{
    lpm_fib f;
    tu_random_table(&f, 6, 5000, 3);
    lpm_map_opts o;
    lpm_map_opts_default(&o);
    lpm_map_opts_family(&o, 6, 0, 0);
    ck_assert_int_eq(o.kind, LPM_MAP_RING_SPLIT);
    ck_assert_uint_eq(o.x, LPM_SPLIT_V6_X);
    ck_assert_uint_eq(o.stride, LPM_SPLIT_V6_STRIDE);
    lpm_image *a, *b;
    ck_assert_int_eq(lpm_map_build(&a, &f, &o, NULL, NULL), 0);
    ck_assert_int_eq(lpm_map_build(&b, &f, &o, NULL, NULL), 0);
    ck_assert_msg(same_image(a, b), "two builds of one table differ");
    lpm_image_free(a);
    lpm_image_free(b);
    /* given options win; IPv4 and other mappings keep the plain defaults */
    lpm_map_opts_default(&o);
    o.x = 8;
    lpm_map_opts_family(&o, 6, 1, LPM_MAPSET_X);
    ck_assert_int_eq(o.kind, LPM_MAP_LINEAR_SPLIT);
    ck_assert_uint_eq(o.x, 8);
    ck_assert_uint_eq(o.stride, LPM_SPLIT_V6_STRIDE);
    lpm_map_opts_default(&o);
    lpm_map_opts_family(&o, 4, 0, 0);
    ck_assert_int_eq(o.kind, LPM_MAP_RING);
    ck_assert_uint_eq(o.x, 8);
    ck_assert_uint_eq(o.stride, 1);
    lpm_map_opts_default(&o);
    o.kind = LPM_MAP_RING_ADAPT;
    lpm_map_opts_family(&o, 6, 0, LPM_MAPSET_KIND);
    ck_assert_uint_eq(o.x, 8);
    ck_assert_uint_eq(o.stride, 1);
    lpm_fib_free(&f);
}
END_TEST

static uint64_t image_bits(const lpm_map_report *r)
{
    return r->bits_used + r->dit_bits_total;
}

START_TEST(test_real_v6)
{
    const tu_table *tt = &tu_tables[_i];
    if (tt->family != 6)
        return;
    char buf[4096];
    const char *path = tu_data_file(tt->file, buf, sizeof buf);
    if (!path)
        return;
    lpm_fib f;
    tu_load(&f, path);
    oracle or;
    oracle_new(&or, &f, SAMPLE_BIG, 42);
    lpm_map_opts o;
    lpm_map_report rep, base;
    lpm_map_opts_default(&o);
    lpm_map_opts_family(&o, 6, 0, 0);
    size_t jumps;
    lpm_image *img = map_checked(&or, &o, &rep, tt->file, &jumps);
    ck_assert_msg(rep.max_over_mean <= 1.02, "%s: fullest/mean %.4f > 1.02", tt->file, rep.max_over_mean);
    ck_assert_msg(jumps > 0, "%s: no jumps: the bound was not exercised", tt->file);
    lpm_image_free(img);
    /* memory against today's stride-1 adaptive image of the same table */
    lpm_map_opts_default(&o);
    o.kind = LPM_MAP_RING_ADAPT;
    ck_assert_int_eq(lpm_map_build(&img, &f, &o, &base, NULL), 0);
    lpm_image_free(img);
    ck_assert_msg(image_bits(&rep) * 100 <= image_bits(&base) * 125, "%s: %llu bits, adaptive %llu", tt->file,
                  (unsigned long long)image_bits(&rep), (unsigned long long)image_bits(&base));
    /* linear split: stages as needed, answers checked */
    lpm_map_opts_default(&o);
    o.stages = 0;
    lpm_map_opts_family(&o, 6, 1, 0);
    lpm_image_free(map_checked(&or, &o, NULL, tt->file, NULL));
    oracle_free(&or);
    lpm_fib_free(&f);
}
END_TEST

START_TEST(test_fpga_units)
{
    /* block shapes: RAMB36 32Kx1..512x72, URAM288 4Kx72, M20K 16Kx1..512x40 */
    static const struct {
        uint64_t depth;
        unsigned width;
        uint64_t bram36, uram288, m20k;
    } c[] = {
        { 1024, 36, 1, 1, 2 },     /* 1Kx36 exactly; M20K 1Kx20 twice */
        { 4096, 72, 8, 1, 15 },    /* 512x72 x 8; one URAM; 4Kx5 x 15 */
        { 4097, 33, 5, 2, 9 },     /* 1Kx36 x 5; 2 URAM deep; 512x40 x 9 */
        { 32768, 1, 1, 8, 2 },     /* 32Kx1 */
        { 0, 30, 0, 0, 0 },
    };
    for (unsigned i = 0; i < sizeof c / sizeof c[0]; i++) {
        lpm_fpga_units_t u;
        lpm_fpga_units(c[i].depth, c[i].width, &u);
        ck_assert_msg(u.bram36 == c[i].bram36 && u.uram288 == c[i].uram288 && u.m20k == c[i].m20k,
                      "%llux%u: %llu %llu %llu", (unsigned long long)c[i].depth, c[i].width,
                      (unsigned long long)u.bram36, (unsigned long long)u.uram288, (unsigned long long)u.m20k);
    }
}
END_TEST

START_TEST(test_fpga_split)
{
    /* parts low bits first; the blocks each shape takes, worked by hand */
    static const struct {
        uint64_t depth;
        unsigned width, n, parts[LPM_FPGA_MAX_PARTS];
    } c[] = {
        { 15428, 20, 2, { 18, 2 } }, /* 16Kx2 x 10 -> 2Kx18 x 8 + 16Kx2 x 1 */
        { 15428, 18, 1, { 18 } },    /* 2Kx18 x 8 already */
        { 15428, 27, 1, { 27 } },    /* 4Kx9 x 12 = 18 + 9 as 8 + 4: no saving */
        { 1024, 36, 1, { 36 } },     /* one block */
        { 100, 20, 1, { 20 } },      /* one block either way */
        { 4096, 20, 1, { 20 } },     /* 4Kx9 x 3 = 18 + 2 (2 + 1): no saving */
        { 0, 20, 1, { 20 } },
    };
    for (unsigned i = 0; i < sizeof c / sizeof c[0]; i++) {
        unsigned p[LPM_FPGA_MAX_PARTS] = { 0 };
        unsigned n = lpm_fpga_split(c[i].depth, c[i].width, p);
        ck_assert_msg(n == c[i].n, "%llux%u: %u parts", (unsigned long long)c[i].depth, c[i].width, n);
        unsigned sum = 0;
        for (unsigned j = 0; j < n; j++) {
            ck_assert_msg(p[j] == c[i].parts[j], "%llux%u: part %u is %u bits", (unsigned long long)c[i].depth,
                          c[i].width, j, p[j]);
            sum += p[j];
        }
        ck_assert_uint_eq(sum, c[i].width);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("mapper_split");
    TCase *t = tcase_create("split");
    tcase_add_loop_test(t, test_random_tables, 0, 2);
    tcase_add_test(t, test_deterministic_and_defaults);
    tcase_add_test(t, test_fpga_units);
    tcase_add_test(t, test_fpga_split);
    tcase_add_loop_test(t, test_real_v6, 0, (int)tu_ntables);
    tcase_set_timeout(t, 120);
    suite_add_tcase(s, t);
    return tu_run(s);
}
