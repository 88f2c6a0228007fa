/* GAMT's CPU build against the reference: the lookup copy (written only by
 * uploads and bubbles) and the host trie, on synthetic and real tables,
 * before and after updates through the WB table, with rebuild and swap. */
#include <string.h>

#include "gputest.h"
#include "../../gpu/gamt_cpu.h"

typedef struct {
    lpm_gamt g;
    lpm_gamt_cpu c;
} gt_gamt;

static void build(gt_gamt *x, const lpm_fib *f, const lpm_gamt_opts *o)
{
    lpm_err err;
    lpm_gamt_sink sink = lpm_gamt_cpu_sink(&x->c);
    ck_assert_msg(lpm_gamt_build(&x->g, f, o, &sink, &err) == 0, "build: %s", err.msg);
}

static void drop(gt_gamt *x)
{
    lpm_gamt_free(&x->g);
    lpm_gamt_cpu_free(&x->c);
}

/* The copy lookups read equals the host trie, unit for unit; its head
 * room holds only the explicit no-route leaf, which no unit of the trie
 * uses (a stale read can never look like an answer). */
static void copy_matches_trie(const gt_gamt *x)
{
    const lpm_gamt *g = &x->g;
    ck_assert_int_eq(x->c.active, g->active);
    const uint32_t *t = x->c.tab[g->active];
    ck_assert_uint_eq(x->c.width[g->active], g->width);
    for (unsigned k = 1; k <= g->H; k++) {
        const uint32_t *row = t + (size_t)(k - 1) * g->width;
        ck_assert_uint_le(g->lv[k].used, g->width);
        ck_assert_msg(memcmp(row, g->lv[k].code, g->lv[k].used * 4u) == 0,
                      "level %u of the lookup copy differs from the trie", k);
        for (uint32_t u = 0; u < g->lv[k].used; u++)
            if (g->lv[k].code[u] == GAMT_UNIT_EMPTY)
                ck_abort_msg("level %u unit %u of the trie is the head-room code", k, u);
        for (uint32_t u = g->lv[k].used; u < g->width; u++)
            if (row[u] != GAMT_UNIT_EMPTY)
                ck_abort_msg("level %u head-room unit %u is %#x, not the no-route leaf", k, u, row[u]);
    }
}

static void agree(const gt_gamt *x, const lpm_ref *ref, const lpm_fib *f, size_t n, uint64_t seed)
{
    lpm_addr *a = gt_addrs(f, n, seed);
    char who[64];
    snprintf(who, sizeof who, "gamt (host trie, seed %llu)", (unsigned long long)seed);
    for (size_t i = 0; i < n; i++)
        tu_check_answer(ref, f, &a[i], lpm_gamt_lookup_host(&x->g, &a[i]), who);
    snprintf(who, sizeof who, "gamt (lookup copy, seed %llu)", (unsigned long long)seed);
    for (size_t i = 0; i < n; i++)
        tu_check_answer(ref, f, &a[i], lpm_gamt_cpu_lookup(&x->g, &x->c, &a[i]), who);
    free(a);
}

static int up(void *x, const lpm_update *u, lpm_err *err)
{
    lpm_gamt *g = &((gt_gamt *)x)->g;
    return u->op == 'w' ? lpm_gamt_delete(g, &u->pfx, err) : lpm_gamt_insert(g, &u->pfx, u->nh, err);
}

static int flush(void *x, lpm_err *err)
{
    return lpm_gamt_flush(&((gt_gamt *)x)->g, 777, err);
}

static size_t pending(const void *x)
{
    return lpm_gamt_pending(&((const gt_gamt *)x)->g);
}

/* Host trie + WB table, then bubbles in batches of 777. */
static void replay(gt_gamt *x, lpm_ref *ref, const lpm_update *u, size_t n, size_t per_flush)
{
    static const gt_path path = { up, flush, pending };
    gt_replay(&path, x, ref, u, n, per_flush);
}

START_TEST(test_synthetic)
{
    int family = _i & 1 ? 6 : 4;
    /* IPv4 3, 4, 5, 8 levels; IPv6 one 20-bit level, 6, 8, 12 levels
     * (fewer would need levels wider than 2^24 units on these tables). */
    static const unsigned levels4[] = { 3, 4, 5, 8 }, levels6[] = { 1, 6, 8, 12 };
    unsigned H = family == 4 ? levels4[_i / 2] : levels6[_i / 2];
    lpm_fib f;
    gt_random_table(&f, family, 3000, 11 + (uint64_t)_i);
    lpm_ref *ref;
    ck_assert_int_eq(lpm_ref_build(&ref, &f, NULL), 0);
    lpm_gamt_opts o;
    lpm_gamt_opts_default(&o);
    o.levels = H;
    uint8_t st[8];
    if (family == 6 && H == 1) { /* one level of 20 bits: everything longer goes the long way */
        st[0] = 20;
        o.strides = st;
    }
    gt_gamt x;
    build(&x, &f, &o);
    copy_matches_trie(&x);
    agree(&x, ref, &f, 30000, 5);
    /* Updates through the WB table, several flush sizes. */
    lpm_update *u;
    lpm_err err;
    ck_assert_int_eq(lpm_gpu_updates_gen(&f, 4000, 3, &u, &err), 0);
    replay(&x, ref, u, 4000, 1 + (size_t)_i * 97);
    copy_matches_trie(&x);
    agree(&x, ref, &f, 30000, 6);
    free(u);
    drop(&x);
    lpm_ref_free(ref);
    lpm_fib_free(&f);
}
END_TEST

/* No head room: nearly every new node forces a rebuild into the other copy. */
START_TEST(test_rebuild_swap)
{
    int family = _i ? 6 : 4;
    lpm_fib f;
    gt_random_table(&f, family, 2000, 21 + (uint64_t)_i);
    lpm_ref *ref;
    ck_assert_int_eq(lpm_ref_build(&ref, &f, NULL), 0);
    lpm_gamt_opts o;
    lpm_gamt_opts_default(&o);
    o.headroom = 0;
    o.min_room = 0;
    gt_gamt x;
    build(&x, &f, &o);
    lpm_update *u;
    lpm_err err;
    ck_assert_int_eq(lpm_gpu_updates_gen(&f, 3000, 9, &u, &err), 0);
    replay(&x, ref, u, 3000, 50);
    ck_assert_uint_gt(x.g.rebuilds, 0);
    copy_matches_trie(&x);
    agree(&x, ref, &f, 30000, 7);
    /* An explicit rebuild swaps copies and compacts lazily deleted nodes. */
    int before = x.g.active;
    ck_assert_int_eq(lpm_gamt_rebuild(&x.g, &err), 0);
    ck_assert_int_ne(x.g.active, before);
    copy_matches_trie(&x);
    agree(&x, ref, &f, 30000, 8);
    free(u);
    drop(&x);
    lpm_ref_free(ref);
    lpm_fib_free(&f);
}
END_TEST

/* The WB table keeps each changed unit once; a bubble carries its latest value. */
START_TEST(test_wb_table_unique)
{
    lpm_fib f;
    gt_random_table(&f, 4, 500, 31);
    gt_gamt x;
    build(&x, &f, NULL);
    lpm_prefix p;
    lpm_err err;
    ck_assert_int_eq(lpm_prefix_parse("10.20.0.0/14", 0, 0, &p, NULL), 0);
    ck_assert_int_eq(lpm_gamt_insert(&x.g, &p, 1, &err), 0);
    size_t n1 = lpm_gamt_pending(&x.g);
    ck_assert_uint_gt(n1, 0);
    ck_assert_int_eq(lpm_gamt_insert(&x.g, &p, 2, &err), 0);
    ck_assert_uint_eq(lpm_gamt_pending(&x.g), n1);
    lpm_gamt_bubble *b = malloc(n1 * sizeof *b);
    ck_assert_uint_eq(lpm_gamt_prepare(&x.g, b, n1), n1);
    for (size_t i = 0; i < n1; i++) {
        ck_assert_uint_eq(b[i].value, x.g.lv[b[i].level].code[b[i].loc]);
        if (i)
            ck_assert_uint_ge(b[i - 1].level, b[i].level); /* deepest level first */
    }
    ck_assert_int_eq(x.g.sink.apply(x.g.sink.ctx, x.g.active, b, n1, &err), 0);
    copy_matches_trie(&x);
    lpm_addr a;
    int fam;
    ck_assert_int_eq(lpm_addr_parse("10.21.1.1", &fam, &a, NULL), 0);
    lpm_ref *ref;
    ck_assert_int_eq(lpm_ref_build(&ref, &f, NULL), 0);
    ck_assert_int_eq(lpm_ref_add(ref, &p, 2), 0);
    tu_check_answer(ref, &f, &a, lpm_gamt_cpu_lookup(&x.g, &x.c, &a), "gamt");
    lpm_ref_free(ref);
    free(b);
    drop(&x);
    lpm_fib_free(&f);
}
END_TEST

/* Every shared table; IPv4 ones also after the linx update trace, once
 * with normal and once with no head room (rebuild and swap). */
START_TEST(test_real_tables)
{
    const tu_table *t = &tu_tables[_i];
    char path[4096];
    if (!tu_data_file(t->file, path, sizeof path))
        return;
    lpm_fib f;
    tu_load(&f, path);
    lpm_ref *ref;
    ck_assert_int_eq(lpm_ref_build(&ref, &f, NULL), 0);
    gt_gamt x;
    build(&x, &f, NULL);
    agree(&x, ref, &f, 100000, 40 + (uint64_t)_i);
    if (t->family == 4) {
        size_t n;
        lpm_update *u = gt_linx(&f, &n);
        if (u) {
            replay(&x, ref, u, n, 500);
            agree(&x, ref, &f, 100000, 50 + (uint64_t)_i);
            copy_matches_trie(&x);
            /* Again from the start with no head room (one table: each
             * rebuild of a full table takes seconds). */
            if (_i != 0) {
                free(u);
                goto done;
            }
            drop(&x);
            lpm_ref_free(ref);
            ck_assert_int_eq(lpm_ref_build(&ref, &f, NULL), 0);
            lpm_gamt_opts o;
            lpm_gamt_opts_default(&o);
            o.headroom = 0;
            o.min_room = 0;
            /* 8-8-8-8: level 3 is the widest and gains nodes on this trace. */
            static const uint8_t st[4] = { 8, 8, 8, 8 };
            o.levels = 4;
            o.strides = st;
            build(&x, &f, &o);
            replay(&x, ref, u, n, 2000);
            ck_assert_uint_gt(x.g.rebuilds, 0);
            agree(&x, ref, &f, 100000, 60 + (uint64_t)_i);
            free(u);
        }
    }
done:
    drop(&x);
    lpm_ref_free(ref);
    lpm_fib_free(&f);
}
END_TEST

/* The sink protocol the device relies on (gamt.h): the CPU sink refuses
 * an upload into the copy lookups use, a swap without a new upload, and
 * bubbles for the inactive copy; head room reads as no route. */
START_TEST(test_sink_protocol)
{
    lpm_fib f;
    gt_random_table(&f, 4, 300, 7);
    gt_gamt x;
    build(&x, &f, NULL);
    lpm_gamt_sink *s = &x.g.sink;
    lpm_err err;
    int a = x.g.active, o = 1 - a;
    const uint32_t *rows[GAMT_MAX_LEVELS];
    uint32_t used[GAMT_MAX_LEVELS];
    for (unsigned k = 1; k <= x.g.H; k++) {
        rows[k - 1] = x.g.lv[k].code;
        used[k - 1] = x.g.lv[k].used;
    }
    lpm_gamt_bubble b = { 1, 0, x.g.lv[1].code[0] };
    ck_assert_int_eq(s->upload(s->ctx, a, rows, used, x.g.H, x.g.width, x.g.stride, &err), LPM_EFAIL);
    ck_assert_int_eq(s->swap(s->ctx, o, &err), LPM_EFAIL);
    ck_assert_int_eq(s->apply(s->ctx, o, &b, 1, &err), LPM_EFAIL);
    ck_assert_int_eq(s->upload(s->ctx, o, rows, used, x.g.H, x.g.width, x.g.stride, &err), LPM_OK);
    ck_assert_int_eq(s->apply(s->ctx, o, &b, 1, &err), LPM_EFAIL); /* not swapped in yet */
    ck_assert_int_eq(s->swap(s->ctx, o, &err), LPM_OK);
    ck_assert_int_eq(s->swap(s->ctx, o, &err), LPM_EFAIL);         /* twice: no new upload */
    ck_assert_int_eq(s->apply(s->ctx, o, &b, 1, &err), LPM_OK);
    ck_assert_int_eq(s->apply(s->ctx, a, &b, 1, &err), LPM_EFAIL);
    x.g.active = o;
    copy_matches_trie(&x);
    /* A head-room unit, read as a lookup would read it, is no route. */
    const uint32_t *t = x.c.tab[o];
    uint32_t inf = gamt_unit_inf(t[(size_t)(x.g.H - 1) * x.g.width + x.g.width - 1]);
    lpm_addr any = { 0, 0 };
    ck_assert_uint_eq(lpm_gamt_resolve(&x.g, inf, &any), LPM_NH_NONE);
    drop(&x);
    lpm_fib_free(&f);
}
END_TEST

START_TEST(test_bad_input)
{
    lpm_fib f;
    gt_random_table(&f, 4, 100, 3);
    lpm_gamt_opts o;
    lpm_gamt_opts_default(&o);
    o.levels = 33;
    gt_gamt x;
    lpm_err err;
    lpm_gamt_sink sink = lpm_gamt_cpu_sink(&x.c);
    ck_assert_int_eq(lpm_gamt_build(&x.g, &f, &o, &sink, &err), LPM_EINPUT);
    o.levels = 1; /* one 32-bit stride: more than the 24-bit width */
    ck_assert_int_eq(lpm_gamt_build(&x.g, &f, &o, &sink, &err), LPM_EINPUT);
    ck_assert_ptr_nonnull(strstr(err.msg, "24"));
    build(&x, &f, NULL);
    lpm_prefix p6;
    ck_assert_int_eq(lpm_prefix_parse("2001:db8::/32", 0, 0, &p6, NULL), 0);
    ck_assert_int_eq(lpm_gamt_insert(&x.g, &p6, 0, &err), LPM_EINPUT);
    drop(&x);
    lpm_fib_free(&f);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("gamt");
    TCase *t = tcase_create("gamt");
    tcase_set_timeout(t, 600);
    tcase_add_loop_test(t, test_synthetic, 0, 8);
    tcase_add_loop_test(t, test_rebuild_swap, 0, 2);
    tcase_add_test(t, test_wb_table_unique);
    tcase_add_test(t, test_sink_protocol);
    tcase_add_test(t, test_bad_input);
    tcase_add_loop_test(t, test_real_tables, 0, (int)tu_ntables);
    suite_add_tcase(s, t);
    return tu_run(s);
}
