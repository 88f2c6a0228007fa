/* GALE's CPU build against the reference: the lookup copy (written only by
 * uploads and bubbles) on synthetic and real IPv4 tables, before and after
 * updates, including long-table growth past the copy's head room. */
#include <string.h>

#include "gputest.h"
#include "../../gpu/gale_cpu.h"

typedef struct {
    lpm_gale g;
    lpm_gale_cpu c;
} gt_gale;

static void build(gt_gale *x, const lpm_fib *f)
{
    lpm_err err;
    lpm_gale_sink sink = lpm_gale_cpu_sink(&x->c);
    ck_assert_msg(lpm_gale_build(&x->g, f, &sink, &err) == 0, "build: %s", err.msg);
}

static void drop(gt_gale *x)
{
    lpm_gale_free(&x->g);
    lpm_gale_cpu_free(&x->c);
}

static void copy_matches_table(const gt_gale *x)
{
    ck_assert_msg(memcmp(x->c.t24, x->g.t24, (size_t)4 << 24) == 0, "direct table copy differs");
    ck_assert_uint_le(x->g.nblocks, x->c.capblocks);
    if (x->g.nblocks)
        ck_assert_msg(memcmp(x->c.tl, x->g.tl, (size_t)x->g.nblocks * 256 * 4) == 0, "long table copy differs");
    /* Head room: only the explicit empty code, which no entry uses and
     * which reads as no route, never as next hop 0. */
    for (size_t i = (size_t)x->g.nblocks * 256; i < (size_t)x->c.capblocks * 256; i++)
        if (x->c.tl[i] != GALE_NH_EMPTY)
            ck_abort_msg("long-table head room entry %zu is %#x", i, x->c.tl[i]);
    for (size_t i = 0; i < (size_t)1 << 24; i++)
        if (x->g.t24[i] == GALE_NH_EMPTY)
            ck_abort_msg("direct entry %zu holds the head-room code", i);
    ck_assert_uint_eq(lpm_gale_resolve(GALE_NH_EMPTY), LPM_NH_NONE);
}

static void agree(const gt_gale *x, const lpm_ref *ref, const lpm_fib *f, size_t n, uint64_t seed)
{
    lpm_addr *a = gt_addrs(f, n, seed);
    char who[48];
    snprintf(who, sizeof who, "gale (seed %llu)", (unsigned long long)seed);
    for (size_t i = 0; i < n; i++)
        tu_check_answer(ref, f, &a[i], lpm_gale_cpu_lookup(&x->c, &a[i]), who);
    free(a);
}

static int up(void *x, const lpm_update *u, lpm_err *err)
{
    lpm_gale *g = &((gt_gale *)x)->g;
    return u->op == 'w' ? lpm_gale_delete(g, &u->pfx, err) : lpm_gale_insert(g, &u->pfx, u->nh, err);
}

static int flush(void *x, lpm_err *err)
{
    return lpm_gale_flush(&((gt_gale *)x)->g, 1000, err);
}

static size_t pending(const void *x)
{
    return lpm_gale_pending(&((const gt_gale *)x)->g);
}

static void replay(gt_gale *x, lpm_ref *ref, const lpm_update *u, size_t n, size_t per_flush)
{
    static const gt_path path = { up, flush, pending };
    gt_replay(&path, x, ref, u, n, per_flush);
}

START_TEST(test_synthetic)
{
    lpm_fib f;
    gt_random_table(&f, 4, 5000, 71 + (uint64_t)_i);
    lpm_ref *ref;
    ck_assert_int_eq(lpm_ref_build(&ref, &f, NULL), 0);
    gt_gale x;
    build(&x, &f);
    copy_matches_table(&x);
    agree(&x, ref, &f, 50000, 1);
    uint32_t cap0 = x.g.devcap;
    lpm_update *u;
    lpm_err err;
    /* Enough updates that new long blocks outgrow the copy's head room. */
    ck_assert_int_eq(lpm_gpu_updates_gen(&f, 20000, 5 + (uint64_t)_i, &u, &err), 0);
    replay(&x, ref, u, 20000, _i ? 1 : 250);
    copy_matches_table(&x);
    agree(&x, ref, &f, 50000, 2);
    ck_assert_msg(x.g.nblocks <= cap0 || x.g.reuploads > 0, "long table grew without a re-upload");
    free(u);
    drop(&x);
    lpm_ref_free(ref);
    lpm_fib_free(&f);
}
END_TEST

START_TEST(test_real_tables)
{
    const tu_table *t = &tu_tables[_i];
    if (t->family != 4)
        return;
    char path[4096];
    if (!tu_data_file(t->file, path, sizeof path))
        return;
    lpm_fib f;
    tu_load(&f, path);
    lpm_ref *ref;
    ck_assert_int_eq(lpm_ref_build(&ref, &f, NULL), 0);
    gt_gale x;
    build(&x, &f);
    agree(&x, ref, &f, 100000, 10 + (uint64_t)_i);
    size_t n;
    lpm_update *u = gt_linx(&f, &n);
    if (u) {
        replay(&x, ref, u, n, 500);
        copy_matches_table(&x);
        agree(&x, ref, &f, 100000, 20 + (uint64_t)_i);
        free(u);
    }
    drop(&x);
    lpm_ref_free(ref);
    lpm_fib_free(&f);
}
END_TEST

START_TEST(test_ipv6_refused)
{
    lpm_fib f;
    gt_random_table(&f, 6, 50, 3);
    gt_gale x;
    lpm_err err;
    lpm_gale_sink sink = lpm_gale_cpu_sink(&x.c);
    ck_assert_int_eq(lpm_gale_build(&x.g, &f, &sink, &err), LPM_EINPUT);
    ck_assert_ptr_nonnull(strstr(err.msg, "IPv4"));
    lpm_fib_free(&f);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("gale");
    TCase *t = tcase_create("gale");
    tcase_set_timeout(t, 600);
    tcase_add_loop_test(t, test_synthetic, 0, 2);
    tcase_add_test(t, test_ipv6_refused);
    tcase_add_loop_test(t, test_real_tables, 0, (int)tu_ntables);
    suite_add_tcase(s, t);
    return tu_run(s);
}
