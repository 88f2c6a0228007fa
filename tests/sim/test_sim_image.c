/* The simulator on real pipeline images: synthetic tables (and the shared
 * real ones when present) mapped as rings and linear pipelines, traffic
 * through several queue / width / lookahead / reorder configurations, and
 * every answer the pipeline gives compared with the reference LPM. */
#include <stdio.h>
#include <stdlib.h>

#include "testutil.h"
#include "../../core/rng.h"
#include "../../core/trace.h"
#include "../../mapper/map.h"
#include "../../sim/sim.h"
#include "../../sim/walk_image.h"

typedef struct run {
    const lpm_addr *a;
    size_t n, pos, out;
    const lpm_ref *ref;
    const lpm_fib *fib;
    uint8_t *seen;
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
    ck_assert_uint_lt(x->id, r->n);
    ck_assert_msg(!r->seen[x->id]++, "request %llu out twice", (unsigned long long)x->id);
    ck_assert_msg(lpm_addr_eq(&x->key, &r->a[x->id]), "request %llu came out with another address",
                  (unsigned long long)x->id);
    tu_check_answer(r->ref, r->fib, &x->key, x->nh, "lpmpipe sim");
    r->out++;
    return 0;
}

/* Maps f, runs n addresses through each configuration, checks all. */
static void check_table(const lpm_fib *f, int kind, unsigned stages, unsigned x, unsigned stride, size_t n,
                        uint64_t seed)
{
    lpm_map_opts mo;
    lpm_map_opts_default(&mo);
    mo.kind = kind;
    mo.stages = stages;
    mo.x = x;
    mo.stride = stride;
    lpm_image *img;
    lpm_err err;
    ck_assert_msg(lpm_map_build(&img, f, &mo, NULL, &err) == 0, "map: %s", err.msg);
    lpm_ref *ref;
    ck_assert_int_eq(lpm_ref_build(&ref, f, &err), 0);
    lpm_addr *a = malloc(n * sizeof *a);
    lpm_trace_opts to;
    lpm_trace_opts_default(&to);
    to.kind = LPM_TRACE_RANDOM_MATCH;
    to.count = n;
    to.seed = seed;
    ck_assert_msg(lpm_trace_gen(f, &to, a, &err) == 0, "trace: %s", err.msg);
    lpm_sim_walker w;
    lpm_sim_image_walker(img, &w);
    static const unsigned cfgs[][6] = { /* queue, width, lookahead, rob, hop, ports */
        { 0, 1, 0, 0, 1, 1 }, { 4, 1, 0, 0, 1, 1 }, { 16, 4, 0, 0, 1, 1 }, { 16, 2, 32, 64, 1, 1 }, { 2, 3, 8, 0, 1, 1 },
        { 4, 1, 0, 0, 2, 1 }, { 16, 4, 0, 0, 2, 2 }, { 16, 2, 32, 64, 2, 1 }, { 2, 2, 8, 0, 3, 2 },
    };
    for (size_t c = 0; c < sizeof cfgs / sizeof cfgs[0]; c++) {
        lpm_sim_cfg cfg;
        lpm_sim_cfg_default(&cfg);
        cfg.queue = cfgs[c][0];
        cfg.hop = cfgs[c][4];
        cfg.ports = cfgs[c][5];
        cfg.width = w.ring ? cfgs[c][1] : 1;
        cfg.lookahead = cfgs[c][2] >= cfg.width ? cfgs[c][2] : 0;
        cfg.rob = cfgs[c][3];
        run r = { a, n, 0, 0, ref, f, calloc(n, 1) };
        lpm_sim *s;
        ck_assert_msg(lpm_sim_new(&s, &w, &cfg, &err) == 0, "%s", err.msg);
        ck_assert_msg(lpm_sim_run(s, src, &r, NULL, NULL, sink, &r, &err) == 0, "%s", err.msg);
        ck_assert_uint_eq(r.out, n);
        const lpm_sim_stats *st = lpm_sim_get_stats(s);
        ck_assert(st->lpc <= cfg.width + 1e-9);
        lpm_sim_free(s);
        free(r.seen);
    }
    free(a);
    lpm_ref_free(ref);
    lpm_image_free(img);
}

START_TEST(test_synthetic_tables)
{
    for (int fam = 4; fam <= 6; fam += 2) {
        lpm_fib f;
        tu_synth(&f, fam, fam == 4 ? 20000 : 8000, 11);
        check_table(&f, LPM_MAP_RING, 8, 8, 1, 20000, 1);
        check_table(&f, LPM_MAP_RING, 24, 12, 3, 20000, 2);
        check_table(&f, LPM_MAP_LEVEL, 0, 8, 2, 10000, 3);
        lpm_fib_free(&f);
    }
}
END_TEST

START_TEST(test_real_tables)
{
    char path[4096];
    int any = 0;
    for (size_t i = 0; i < tu_ntables; i++) {
        /* the two full-size FIBs with next hops; the others are covered by e2e/sim */
        if (!strstr(tu_tables[i].file, "pfx2as-v4") && !strstr(tu_tables[i].file, "as293.fib6"))
            continue;
        if (!tu_data_file(tu_tables[i].file, path, sizeof path))
            continue;
        lpm_fib f;
        tu_load(&f, path);
        check_table(&f, LPM_MAP_RING, tu_tables[i].family == 4 ? 24 : 32, 8, tu_tables[i].family == 4 ? 1 : 3,
                    50000, 7);
        lpm_fib_free(&f);
        any = 1;
    }
    if (!any)
        tu_skip("no real table for the image simulation test");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("sim_image");
    TCase *tc = tcase_create("image");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_synthetic_tables);
    tcase_add_test(tc, test_real_tables);
    suite_add_tcase(s, tc);
    return tu_run(s);
}
