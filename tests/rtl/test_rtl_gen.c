/* The Verilog generator without a simulator: option limits, the item
 * layout lpm_core.v and the testbench share, determinism of the generated
 * folder, its header, and the memories written as the image holds them.
 * (Cycle equality with the simulator: tests/e2e/rtl.sh.) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../mapper/map.h"
#include "../../rtl_gen/rtl_gen.h"
#include "testutil.h"

static lpm_image *tiny_image(int ring)
{
    lpm_fib f;
    tu_synth(&f, LPM_AF_INET, 300, 7);
    lpm_map_opts o;
    lpm_map_opts_default(&o);
    o.kind = ring ? LPM_MAP_RING : LPM_MAP_LEVEL;
    o.stages = ring ? 5 : 0;
    o.stride = 2;
    o.x = 6;
    lpm_image *img = NULL;
    lpm_err err;
    ck_assert_msg(lpm_map_build(&img, &f, &o, NULL, &err) == 0, "%s", err.msg);
    lpm_fib_free(&f);
    return img;
}

START_TEST(shape_limits)
{
    lpm_image *lin = tiny_image(0), *ring = tiny_image(1);
    lpm_rtl_shape sh;
    lpm_err err;
    lpm_rtl_opts o = { .queue = 4, .width = 2 };
    ck_assert_int_eq(lpm_rtl_shape_of(lin, &o, &sh, &err), LPM_EINPUT); /* linear: width 1 only */
    ck_assert_int_eq(lpm_rtl_shape_of(ring, &o, &sh, &err), LPM_OK);
    o.width = 17;
    ck_assert_int_eq(lpm_rtl_shape_of(ring, &o, &sh, &err), LPM_EINPUT);
    o.width = 1;
    o.queue = 0;
    o.mutate = LPM_RTL_MUT_QUEUE_BEATS_PASS; /* the fault needs a queue */
    ck_assert_int_eq(lpm_rtl_shape_of(ring, &o, &sh, &err), LPM_EINPUT);
    /* the cycle rules it does not implement are refused, naming them */
    lpm_rtl_opts v2 = { .queue = 4, .width = 1, .hop = 2, .ports = 1 };
    ck_assert_int_eq(lpm_rtl_shape_of(ring, &v2, &sh, &err), LPM_EINPUT);
    ck_assert_msg(strstr(err.msg, "--hop-cycles 2") && strstr(err.msg, "one-cycle rules"), "%s", err.msg);
    v2.hop = 1;
    v2.ports = 2;
    ck_assert_int_eq(lpm_rtl_shape_of(ring, &v2, &sh, &err), LPM_EINPUT);
    v2.ports = 1;
    ck_assert_int_eq(lpm_rtl_shape_of(ring, &v2, &sh, &err), LPM_OK);
    lpm_image_free(lin);
    lpm_image_free(ring);
}
END_TEST

START_TEST(shape_layout)
{
    lpm_image *img = tiny_image(1);
    lpm_rtl_opts o = { .queue = 4, .width = 3, .rob = 8 };
    lpm_rtl_shape sh;
    lpm_err err;
    ck_assert_int_eq(lpm_rtl_shape_of(img, &o, &sh, &err), LPM_OK);
    /* the field order of lpm_core.v: v b done nhv | tag nh stg addr bitpos key */
    ck_assert_uint_eq(sh.o_tag, 4);
    ck_assert_uint_eq(sh.o_nh, sh.o_tag + sh.id);
    ck_assert_uint_eq(sh.o_stg, sh.o_nh + sh.nb);
    ck_assert_uint_eq(sh.o_addr, sh.o_stg + sh.sb);
    ck_assert_uint_eq(sh.o_key, sh.o_addr + sh.ab + sh.pb);
    ck_assert_uint_eq(sh.iw, sh.o_key + 32);
    ck_assert_uint_eq(sh.sb, 3);              /* 5 stages */
    ck_assert_uint_eq(sh.l, 3);               /* reorder buffer: W result lanes */
    ck_assert_uint_eq(sh.qcb, 3);             /* counts 0..4 */
    ck_assert(1u << sh.bqb >= sh.w + sh.q + sh.n + 1); /* bubbles in flight fit the table */
    ck_assert_uint_eq(sh.wb, lpm_image_word_bits(img));
    lpm_image_free(img);
}
END_TEST

static char *slurp(const char *path)
{
    FILE *fp = fopen(path, "r");
    ck_assert_msg(fp != NULL, "%s missing", path);
    fseek(fp, 0, SEEK_END);
    long n = ftell(fp);
    rewind(fp);
    char *b = malloc((size_t)n + 1);
    ck_assert(fread(b, 1, (size_t)n, fp) == (size_t)n);
    b[n] = '\0';
    fclose(fp);
    return b;
}

START_TEST(generate_deterministic)
{
    lpm_image *img = tiny_image(1);
    lpm_rtl_opts o = { .queue = 4, .width = 1 };
    lpm_err err;
    char d1[] = "/tmp/lpmpipe-rtlgen.XXXXXX", d2[] = "/tmp/lpmpipe-rtlgen.XXXXXX";
    ck_assert(mkdtemp(d1) && mkdtemp(d2));
    ck_assert_int_eq(lpm_rtl_generate(img, "some/dir/t.lpi", &o, d1, &err), LPM_OK);
    ck_assert_int_eq(lpm_rtl_generate(img, "some/dir/t.lpi", &o, d2, &err), LPM_OK);
    static const char *files[] = { "lpm_top.v", "lpm_core.v", "lpm_dit.v", "lpm_stage_00.v", "lpm_stage_04.v",
                                   "stage_00.hex", "dit.hex", "README.md", "Makefile", "tb.cpp", "tb_cfg.h" };
    char p1[256], p2[256];
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        snprintf(p1, sizeof p1, "%s/%s", d1, files[i]);
        snprintf(p2, sizeof p2, "%s/%s", d2, files[i]);
        char *a = slurp(p1), *b = slurp(p2);
        ck_assert_msg(!strcmp(a, b), "%s differs between two runs", files[i]);
        free(a);
        free(b);
    }
    /* the header names the image (file name only) and the options */
    snprintf(p1, sizeof p1, "%s/lpm_top.v", d1);
    char *top = slurp(p1);
    ck_assert_msg(strstr(top, "from image t.lpi: ring, 5 stages, IPv4") != NULL, "header: %.200s", top);
    ck_assert(strstr(top, "--queue 4 --issue-width 1 --rob 0") != NULL);
    ck_assert(strstr(top, "lpm_stage_04 s04") != NULL);
    ck_assert(strstr(top, ".MUT(0)") != NULL);
    free(top);
    /* the memories as the image holds them: one word a line, every word */
    snprintf(p1, sizeof p1, "%s/stage_02.hex", d1);
    char *hex = slurp(p1);
    unsigned lines = 0;
    char *s = hex;
    for (uint32_t a = 0; a < lpm_image_stage_depth(img, 2); a++) {
        char *e = strchr(s, '\n');
        ck_assert(e != NULL);
        *e = '\0';
        ck_assert_uint_eq(strtoull(s, NULL, 16), lpm_image_word(img, 2, a));
        s = e + 1;
        lines++;
    }
    ck_assert_uint_eq(lines, lpm_image_stage_depth(img, 2));
    ck_assert(*s == '\0');
    free(hex);
    /* a planted fault is visible in the generated text */
    o.mutate = LPM_RTL_MUT_QUEUE_BEATS_PASS;
    ck_assert_int_eq(lpm_rtl_generate(img, "t.lpi", &o, d2, &err), LPM_OK);
    snprintf(p2, sizeof p2, "%s/lpm_top.v", d2);
    top = slurp(p2);
    ck_assert(strstr(top, ".MUT(1)") != NULL && strstr(top, "--mutate queue-beats-pass") != NULL);
    free(top);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s %s", d1, d2);
    ck_assert_int_eq(system(cmd), 0);
    lpm_image_free(img);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("rtl_gen");
    TCase *tc = tcase_create("gen");
    tcase_add_test(tc, shape_limits);
    tcase_add_test(tc, shape_layout);
    tcase_add_test(tc, generate_deterministic);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return tu_run(suite());
}
