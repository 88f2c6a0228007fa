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
    lpm_rtl_opts o = { .queue = 4, .width = 2, .hop = 2, .ports = 1 };
    ck_assert_int_eq(lpm_rtl_shape_of(lin, &o, &sh, &err), LPM_EINPUT); /* linear: width <= ports */
    o.ports = 2;
    ck_assert_int_eq(lpm_rtl_shape_of(lin, &o, &sh, &err), LPM_OK);
    ck_assert_int_eq(lpm_rtl_shape_of(ring, &o, &sh, &err), LPM_OK);
    o.width = 17;
    ck_assert_int_eq(lpm_rtl_shape_of(ring, &o, &sh, &err), LPM_EINPUT);
    o.width = 1;
    o.queue = 0; /* the hardware rules push every item into a queue */
    ck_assert_int_eq(lpm_rtl_shape_of(ring, &o, &sh, &err), LPM_EINPUT);
    o.queue = 4;
    o.rob = 8;
    ck_assert_int_eq(lpm_rtl_shape_of(ring, &o, &sh, &err), LPM_EINPUT);
    ck_assert_msg(strstr(err.msg, "reorder buffer"), "%s", err.msg);
    o.rob = 0;
    /* the one-cycle rules are the simulator's only: refused, naming them */
    o.hop = 1;
    ck_assert_int_eq(lpm_rtl_shape_of(ring, &o, &sh, &err), LPM_EINPUT);
    ck_assert_msg(strstr(err.msg, "--hop-cycles 1") && strstr(err.msg, "one-cycle"), "%s", err.msg);
    o.hop = 0; /* the default: 2 */
    ck_assert_int_eq(lpm_rtl_shape_of(ring, &o, &sh, &err), LPM_OK);
    ck_assert_uint_eq(sh.d, 2);
    lpm_image_free(lin);
    lpm_image_free(ring);
}
END_TEST

START_TEST(shape_layout)
{
    lpm_image *img = tiny_image(1);
    lpm_rtl_opts o = { .queue = 4, .width = 3, .hop = 3, .ports = 2 };
    lpm_rtl_shape sh;
    lpm_err err;
    ck_assert_int_eq(lpm_rtl_shape_of(img, &o, &sh, &err), LPM_OK);
    /* the item: v b done wen nhv | tag nh stg addr bitpos key, packed */
    ck_assert_uint_eq(sh.f_tag, 5);
    ck_assert_uint_eq(sh.f_nh, sh.f_tag + sh.tg);
    ck_assert_uint_eq(sh.f_stg, sh.f_nh + sh.nb);
    ck_assert_uint_eq(sh.f_addr, sh.f_stg + sh.sb);
    ck_assert_uint_eq(sh.f_bp, sh.f_addr + sh.aw);
    ck_assert_uint_eq(sh.f_key, sh.f_bp + sh.pb);
    ck_assert_uint_eq(sh.iw, sh.f_key + sh.kp);
    ck_assert_uint_eq(sh.sb, 3);                         /* 5 stages */
    ck_assert_uint_eq(sh.c, 3 * (3 + 1));                /* W (D + 1) window entries */
    ck_assert_uint_eq(sh.l, 5 * 2 + 3);                  /* a result lane per stage lane and issue lane */
    ck_assert_uint_eq(sh.kr, 32 - 6);                    /* the key after the DIT's 6 bits */
    ck_assert_uint_eq(sh.kp, sh.kr > sh.wb ? sh.kr : sh.wb);
    ck_assert_uint_eq(sh.tg, sh.t > sh.bqb ? sh.t : sh.bqb);
    /* tags cover everything in flight, bubble numbers every bubble in flight */
    ck_assert(1ULL << sh.t >= sh.c + 5ULL * 4 + 5 * 2 * 3 + 2 * sh.l);
    ck_assert(1ULL << sh.bqb >= sh.c + 4 + 5 * 3);
    /* fields only as wide as needed: no 32-bit ids */
    ck_assert_uint_lt(sh.t, 10);
    /* the word slices come from the image's one layout definition */
    lpm_word_fmt f;
    lpm_word_layout l;
    lpm_image_word_fmt(img, &f);
    lpm_word_layout_of(&f, 0, &l);
    ck_assert_uint_eq(sh.wl.addr, l.addr);
    ck_assert_uint_eq(sh.wl.addr_bits, l.addr_bits);
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

static int contains(const char *dir, const char *file, const char *text)
{
    char p[256];
    snprintf(p, sizeof p, "%s/%s", dir, file);
    char *b = slurp(p);
    int r = strstr(b, text) != NULL;
    free(b);
    return r;
}

START_TEST(generate_deterministic)
{
    lpm_image *img = tiny_image(1);
    lpm_rtl_opts o = { .queue = 4, .width = 1, .hop = 2, .ports = 1 };
    lpm_err err;
    char d1[] = "/tmp/lpmpipe-rtlgen.XXXXXX", d2[] = "/tmp/lpmpipe-rtlgen.XXXXXX";
    ck_assert(mkdtemp(d1) && mkdtemp(d2));
    ck_assert_int_eq(lpm_rtl_generate(img, "some/dir/t.lpi", &o, d1, &err), LPM_OK);
    ck_assert_int_eq(lpm_rtl_generate(img, "some/dir/t.lpi", &o, d2, &err), LPM_OK);
    static const char *files[] = { "lpm_top.v", "lpm_tb_top.v", "lpm_pipe.v", "lpm_ctl.v", "lpm_queue.v",
                                   "lpm_rlane.v", "lpm_dit.v", "lpm_item.vh", "lpm_stage_00.v", "lpm_stage_04.v",
                                   "stage_00.hex", "dit.hex", "README.md", "Makefile", "tb.cpp", "tb_cfg.h", "ready.h",
                                   "tb_icarus.v", "tb_cfg.vh", "memories.txt", "lpm_ice40_brams.txt",
                                   "lpm_ice40_brams_map.v" };
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
    ck_assert(contains(d1, "lpm_top.v", "from image t.lpi: ring, 5 stages, IPv4"));
    ck_assert(contains(d1, "lpm_top.v", "--hop-cycles 2 --ports 1 --queue 4 --issue-width 1"));
    ck_assert(contains(d1, "lpm_pipe.v", "lpm_stage_04 s04"));
    /* the production top has no debug ports; the testbench wrapper has them */
    ck_assert(!contains(d1, "lpm_top.v", "] dbg_slot") && contains(d1, "lpm_top.v", ".dbg_slot()"));
    ck_assert(contains(d1, "lpm_tb_top.v", "] dbg_slot") && contains(d1, "lpm_tb_top.v", ".dbg_slot(dbg_slot)"));
    /* the slices of the image's words, from lpm_word_layout_of */
    lpm_word_fmt f;
    lpm_word_layout l;
    lpm_image_word_fmt(img, &f);
    lpm_word_layout_of(&f, 0, &l);
    char want[64];
    snprintf(want, sizeof want, "localparam WL_ADDR = %u;", l.addr);
    ck_assert(contains(d1, "lpm_item.vh", want));
    ck_assert(contains(d1, "lpm_item.vh", "localparam MUT_QCAP = 0;"));
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
    /* planted faults are visible in the generated text */
    o.mutate = LPM_RTL_MUT_QUEUE_CAP;
    ck_assert_int_eq(lpm_rtl_generate(img, "t.lpi", &o, d2, &err), LPM_OK);
    ck_assert(contains(d2, "lpm_item.vh", "localparam MUT_QCAP = 1;"));
    ck_assert(contains(d2, "lpm_top.v", "--mutate queue-capacity"));
    o.mutate = LPM_RTL_MUT_BUBBLE_ADDR;
    ck_assert_int_eq(lpm_rtl_generate(img, "t.lpi", &o, d2, &err), LPM_OK);
    ck_assert(contains(d2, "lpm_stage_00.v", "planted fault: bubble-address"));
    o.mutate = LPM_RTL_MUT_BUSY_EARLY;
    ck_assert_int_eq(lpm_rtl_generate(img, "t.lpi", &o, d2, &err), LPM_OK);
    ck_assert(contains(d2, "lpm_top.v", "planted fault: busy-early"));
    ck_assert(contains(d2, "lpm_tb_top.v", "planted fault: busy-early")); /* the testbench checks this copy */
    ck_assert_int_eq(lpm_rtl_mutation_of("queue-order"), LPM_RTL_MUT_QUEUE_ORDER);
    ck_assert_int_eq(lpm_rtl_mutation_of("nonsense"), -1);
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
