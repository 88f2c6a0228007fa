/* Updates as write bubbles: after every bubble, applied to a separate
 * "hardware" copy of the image, sampled lookups return the answer from
 * before or from after the update, never anything else; at the end the
 * image equals the reference of the final table. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "maptest.h"
#include "../../core/trace.h"
#include "../../mapper/map.h"
#include "../../mapper/update.h"

typedef struct {
    lpm_image *hw;        /* what the pipeline holds, bubble by bubble */
    lpm_upd *u;
    lpm_ref *ref;         /* the table as the updates go */
    lpm_fib *fib;         /* next hops (for messages) */
    lpm_rng rng;
    size_t bubbles, checks, rebuilds;
} replay_t;

/* Addresses an update can change: inside its prefix (first, last, random)
 * and one outside. */
static size_t probes(replay_t *r, const lpm_prefix *p, lpm_addr *a)
{
    unsigned w = lpm_family_bits(p->family);
    size_t n = 0;
    a[n++] = p->addr;
    for (int i = 0; i < 5; i++) {
        lpm_addr x = { lpm_rng_next(&r->rng), w == 32 ? 0 : lpm_rng_next(&r->rng) };
        if (w == 32)
            x.hi &= 0xFFFFFFFF00000000ULL;
        lpm_addr m = lpm_addr_mask(&x, p->len);
        lpm_addr y = { p->addr.hi | (x.hi ^ m.hi), p->addr.lo | (x.lo ^ m.lo) };
        a[n++] = i == 0 ? x : y;
    }
    return n;
}

static void step(replay_t *r, char op, const lpm_prefix *p, const char *tok, uint32_t nh)
{
    lpm_addr a[8];
    uint32_t before[8], after[8];
    size_t n = probes(r, p, a);
    for (size_t i = 0; i < n; i++)
        before[i] = lpm_ref_lookup(r->ref, &a[i], NULL);
    if (op == 'a')
        ck_assert_int_eq(lpm_ref_add(r->ref, p, nh), 0);
    else
        lpm_ref_del(r->ref, p);
    for (size_t i = 0; i < n; i++)
        after[i] = lpm_ref_lookup(r->ref, &a[i], NULL);
    int rebuilt;
    lpm_err err;
    ck_assert_msg(lpm_upd_apply(r->u, op, p, tok, &rebuilt, &err) == 0, "%s", err.msg);
    r->rebuilds += rebuilt;
    if (rebuilt && lpm_image_copies(r->hw) == 1) {
        /* No shadow copy: the table is reloaded in place. */
        lpm_image_free(r->hw);
        r->hw = lpm_image_clone(lpm_upd_image(r->u));
        ck_assert_ptr_nonnull(r->hw);
    } else {
        /* Ordinary bubbles, or a rebuild's: writes into the shadow copy
         * (nothing changes for lookups), then the swap (after). */
        const lpm_write *w;
        const lpm_bubble *b;
        size_t nw, nb;
        lpm_upd_last(r->u, &w, &nw, &b, &nb);
        if (rebuilt)
            ck_assert(nb >= 1 && b[nb - 1].flags == LPM_BUBBLE_SWAP && b[nb - 1].n == 0);
        for (size_t k = 0; k < nb; k++) {
            for (size_t i = b[k].first; i < b[k].first + b[k].n; i++) {
                /* at most one write per stage in a bubble */
                if (i > b[k].first)
                    ck_assert_uint_ne(w[i].stage, w[i - 1].stage);
                lpm_image_write(r->hw, w[i].stage, w[i].addr, w[i].word);
            }
            if (b[k].flags & LPM_BUBBLE_SWAP)
                lpm_image_swap(r->hw, lpm_image_active(lpm_upd_image(r->u)));
            r->bubbles++;
            for (size_t i = 0; i < n; i++) {
                uint32_t got = lpm_image_lookup(r->hw, &a[i]);
                r->checks++;
                if (got != before[i] && got != after[i]) {
                    char ab[LPM_ADDR_STRLEN], pb[LPM_ADDR_STRLEN + 8];
                    lpm_addr_format(&a[i], p->family, ab, sizeof ab);
                    lpm_prefix_format(p, pb, sizeof pb);
                    ck_abort_msg("after bubble %zu/%zu of %c %s: %s answers %u, before %u, after %u", k + 1, nb, op,
                                 pb, ab, got, before[i], after[i]);
                }
            }
        }
    }
    /* the hardware copy and the updater's image agree after the last bubble */
    for (size_t i = 0; i < n; i++)
        ck_assert_uint_eq(lpm_image_lookup(r->hw, &a[i]), after[i]);
}

/* Every word of both copies, and the copy lookups read, are the same. */
static void same_memory(const lpm_image *a, const lpm_image *b)
{
    ck_assert_uint_eq(lpm_image_copies(a), lpm_image_copies(b));
    ck_assert_uint_eq(lpm_image_active(a), lpm_image_active(b));
    for (uint32_t i = 0; i < lpm_image_copies(a) << lpm_image_initial_stride(a); i++)
        ck_assert_uint_eq(lpm_image_dit_entry(a, i), lpm_image_dit_entry(b, i));
    for (unsigned s = 0; s < lpm_image_stages(a); s++)
        for (uint32_t i = 0; i < lpm_image_copies(a) * lpm_image_stage_depth(a, s); i++)
            ck_assert_uint_eq(lpm_image_word(a, s, i), lpm_image_word(b, s, i));
}

static void replay(const lpm_fib *base, const lpm_update *up, size_t nup, const lpm_fib *unh,
                   const lpm_map_opts *o, size_t every, const char *who)
{
    lpm_image *img;
    lpm_err err;
    ck_assert_msg(lpm_map_build(&img, base, o, NULL, &err) == 0, "%s: %s", who, err.msg);
    replay_t r = { 0 };
    lpm_upd_opts uo = { .rebalance_at = 1.10, .rebuild_every = every };
    ck_assert_msg(lpm_upd_new(&r.u, img, &uo, &err) == 0, "%s", err.msg);
    r.hw = lpm_image_clone(img);
    r.fib = (lpm_fib *)base;
    lpm_rng_seed(&r.rng, 77);
    ck_assert_int_eq(lpm_ref_build(&r.ref, base, NULL), 0);
    /* The reference takes the index the image gives the token. */
    for (size_t i = 0; i < nup; i++) {
        const char *tok = up[i].op == 'a' ? lpm_nhtab_name(&unh->nh, up[i].nh) : NULL;
        uint32_t nh = LPM_NH_NONE;
        if (tok) {
            const lpm_nhtab *t = lpm_image_nhtab(lpm_upd_image(r.u));
            nh = lpm_nhtab_find(t, tok, strlen(tok));
            if (nh == LPM_NH_NONE)
                nh = (uint32_t)t->n; /* the index apply will intern it at */
        }
        step(&r, up[i].op, &up[i].pfx, tok, nh);
    }
    /* The final image against the reference of the final table, on a big
     * sample, also after going through a file. */
    ck_assert_int_eq(lpm_upd_sync_routes(r.u, NULL), 0);
    const lpm_image *fin = lpm_upd_image(r.u);
    ck_assert_int_eq(lpm_image_validate(fin, &err), 0);
    if (lpm_image_copies(fin) == 2)
        same_memory(fin, r.hw); /* the bubbles rebuilt exactly the updater's memory */
    ck_assert_uint_eq(lpm_image_route_count(fin), lpm_ref_count(r.ref));
    lpm_addr *a = mt_sample(base, 100000, 5);
    for (size_t i = 0; i < 100000; i++) {
        uint32_t want = lpm_ref_lookup(r.ref, &a[i], NULL);
        uint32_t got = lpm_image_lookup(fin, &a[i]);
        if (got != want)
            tu_check_answer(r.ref, base, &a[i], got, who);
        ck_assert_uint_eq(lpm_image_lookup(r.hw, &a[i]), want);
    }
    printf("%s: %zu updates, %zu bubbles, %zu lookups checked after bubbles, %zu rebuilds\n", who, nup, r.bubbles,
           r.checks, r.rebuilds);
    free(a);
    lpm_ref_free(r.ref);
    lpm_image_free(r.hw);
    lpm_upd_free(r.u);
    lpm_image_free(img);
}

START_TEST(test_linx_replay)
{
    char b1[4096], b2[4096];
    const char *tab = tu_data_file("routeviews-pfx2as-v4-2020-02.txt.xz", b1, sizeof b1);
    const char *upd = tu_data_file("linx-update-20141217-p52.txt", b2, sizeof b2);
    if (!tab || !upd)
        return;
    lpm_fib f;
    tu_load(&f, tab);
    lpm_fib unh; /* the base next hops, then the trace's, in the image's order */
    lpm_fib_init(&unh);
    unh.family = f.family;
    for (size_t i = 0; i < f.nh.n; i++)
        lpm_nhtab_intern(&unh.nh, f.nh.name[i], strlen(f.nh.name[i]));
    lpm_update *up;
    size_t n;
    lpm_err err;
    ck_assert_msg(lpm_updates_load(upd, &unh, NULL, &up, &n, &err) == 0, "%s", err.msg);
    ck_assert_uint_gt(n, 20000);
    static const int kinds[] = { LPM_MAP_RING, LPM_MAP_LEVEL };
    for (int k = 0; k < 2; k++) {
        lpm_map_opts o;
        lpm_map_opts_default(&o);
        o.kind = kinds[k];
        o.stages = kinds[k] == LPM_MAP_RING ? 24 : 0;
        replay(&f, up, n, &unh, &o, 0, kinds[k] == LPM_MAP_RING ? "linx on pfx2as v4, ring 24x8" : "linx, linear level");
    }
    free(up);
    lpm_fib_free(&unh);
    lpm_fib_free(&f);
}
END_TEST

/* Random updates on a small table with no head room and narrow next-hop
 * fields: rebuilds of every kind happen, and the property still holds. */
START_TEST(test_random_updates_with_rebuilds)
{
    int family = _i % 2 ? 6 : 4;
    static const int kinds[] = { LPM_MAP_RING, LPM_MAP_RING_ADAPT, LPM_MAP_LEVEL, LPM_MAP_HEIGHT, LPM_MAP_BALANCED };
    int kind = kinds[_i / 2];
    lpm_rng r;
    lpm_rng_seed(&r, 1000 + (uint64_t)_i);
    lpm_fib f;
    lpm_fib_init(&f);
    unsigned w = lpm_family_bits(family);
    lpm_prefix pool[600];
    for (size_t i = 0; i < 600; i++) {
        lpm_addr a = { lpm_rng_next(&r) & 0xF0F0FFFFFFFFFFFFULL, lpm_rng_next(&r) };
        if (family == 4) {
            a.hi &= 0xFFFFFFFF00000000ULL;
            a.lo = 0;
        }
        unsigned len = i == 0 ? (w == 32 ? 28 : 64) : (unsigned)lpm_rng_below(&r, (w == 32 ? 28 : 64) + 1);
        ck_assert_int_eq(lpm_prefix_make(&a, family, len, 1, &pool[i], NULL), 0);
        if (i < 200)
            ck_assert_int_eq(lpm_fib_add_tok(&f, &pool[i], "n0", 2, NULL), 0);
    }
    ck_assert_int_eq(lpm_fib_finish(&f, NULL), 0);
    lpm_map_opts o;
    lpm_map_opts_default(&o);
    o.kind = kind;
    o.stages = kind == LPM_MAP_RING || kind == LPM_MAP_RING_ADAPT ? 8 : 0;
    o.x = 4;
    o.stride = 2;
    o.headroom_pct = 200;
    o.nh_bits = 4;
    o.copies = 2;
    /* Next hops n0..n9; the pool's longest prefix is in the base table, so
     * the hardware (stages, strides) holds every update. Rebuilds: when a
     * stage's head room runs out (lazy deletes), a height image needs a
     * later stage, or every 211th effective update. */
    lpm_update *up = malloc(3000 * sizeof *up);
    lpm_fib unh;
    lpm_fib_init(&unh);
    unh.family = family;
    lpm_nhtab_intern(&unh.nh, "n0", 2);
    for (size_t i = 0; i < 3000; i++) {
        up[i].op = lpm_rng_below(&r, 3) ? 'a' : 'w';
        up[i].pfx = pool[lpm_rng_below(&r, 600)];
        char tok[8];
        int k = snprintf(tok, sizeof tok, "n%u", (unsigned)lpm_rng_below(&r, 10));
        up[i].nh = up[i].op == 'a' ? lpm_nhtab_intern(&unh.nh, tok, (size_t)k) : LPM_NH_NONE;
    }
    char who[64];
    snprintf(who, sizeof who, "random IPv%d %s", family, lpm_map_kind_name(kind));
    replay(&f, up, 3000, &unh, &o, 211, who);
    free(up);
    lpm_fib_free(&unh);
    lpm_fib_free(&f);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("mapper_update");
    TCase *t = tcase_create("update");
    tcase_add_loop_test(t, test_random_updates_with_rebuilds, 0, 10);
    tcase_add_test(t, test_linx_replay);
    suite_add_tcase(s, t);
    return tu_run(s);
}
