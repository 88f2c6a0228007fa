/* He et al.'s hybrid scheme (their Fig. 8), IPv4 only:
 *   /0../16  in a Tree Bitmap with a 2^13 initial array and one last level
 *            of stride 3 (lengths 13..16), so short prefixes never sprawl
 *            over TBL24 and their updates stay cheap;
 *   /17../24 in TBL24 (2^24 entries: next hop and length);
 *   /25../32 in stride-4 Tree Bitmap subtries (depth 24: /24../27, depth
 *            28: /28../32) hanging off the TBL24 entry of their /24.
 * Lookup: TBL24 (and its subtrie); on no match there, the short trie.
 *
 * TBL24 entry: bit 31 subtrie flag, bits 27..30 length - 16 of the /17../24
 * prefix behind it (0: none), bits 0..26 next hop (NH_NONE: none) or, with
 * the flag, a subtrie id; sub[id] holds the root and that /17../24 next hop. */
#include "cpu.h"
#include "tbl24.h"
#include "tree_bitmap.h"

#include <stdlib.h>
#include <string.h>

#define SUB_FLAG 0x80000000u
#define LEN_SHIFT 27
#define VAL_MASK 0x07FFFFFFu
#define NH_NONE VAL_MASK
#define E_LEN(e) (((e) >> LEN_SHIFT) & 0xFu)
#define E_VAL(e) ((e) & VAL_MASK)

typedef struct hyb_sub {
    uint32_t root;  /* subtrie root node (0: none) */
    uint32_t nh;    /* the /17../24 next hop this /24 inherits, LPM_NH_NONE: none */
} hyb_sub;

typedef struct hybrid {
    lpm_cpu_hdr h;
    uint32_t *tbl24;
    hyb_sub *sub;
    lpm_tbl24_pool subs;      /* subtrie ids */
    lpm_tbm t;                /* the /25../32 subtries */
    lpm_tree_bitmap *shorts;  /* /0../16 */
    lpm_ref *shadow;          /* /17../32 */
} hybrid;

static inline uint32_t hyb_lookup(const hybrid *h, const lpm_addr *a)
{
    uint32_t e = h->tbl24[lpm_tbl24_index(a)];
    uint32_t nh;
    if (e & SUB_FLAG) {
        const hyb_sub *s = &h->sub[E_VAL(e)];
        nh = lpm_tbm_lookup(&h->t, s->root, a, s->nh);
    } else {
        nh = E_VAL(e) == NH_NONE ? LPM_NH_NONE : E_VAL(e);
    }
    return nh != LPM_NH_NONE ? nh : lpm_tree_bitmap_lookup(h->shorts, a);
}

/* Sets the /17../24 part of TBL24 entries in the prefix's range: on add
 * where the owner is not longer, on delete where the owner is len. */
static void fill24(hybrid *h, const lpm_prefix *p, uint32_t nh, unsigned newlen, int del)
{
    size_t first, count;
    lpm_tbl24_range(p, &first, &count);
    unsigned code = p->len - 16, ncode = newlen ? newlen - 16 : 0;
    for (size_t i = first; i < first + count; i++) {
        uint32_t e = h->tbl24[i];
        unsigned c = E_LEN(e);
        if (del ? c != code : c > code)
            continue;
        if (e & SUB_FLAG) {
            h->sub[E_VAL(e)].nh = nh;
            lpm_cpu_set_entry(&h->h.cost, &h->tbl24[i], SUB_FLAG | (ncode << LEN_SHIFT) | E_VAL(e));
        } else {
            lpm_cpu_set_entry(&h->h.cost, &h->tbl24[i], (ncode << LEN_SHIFT) | (nh == LPM_NH_NONE ? NH_NONE : nh));
        }
    }
}

static int insert(hybrid *h, const lpm_prefix *p, uint32_t nh, lpm_err *err)
{
    if (nh >= NH_NONE)
        return lpm_err_set(err, LPM_EINPUT, "hybrid: next hop index %u does not fit in 27 bits", nh);
    if (p->len <= 16)
        return lpm_tree_bitmap_add(h->shorts, p, nh, err);
    if (p->len <= 24) {
        fill24(h, p, nh, p->len, 0);
        return LPM_OK;
    }
    uint32_t *e = &h->tbl24[lpm_tbl24_index(&p->addr)];
    if (!(*e & SUB_FLAG)) {
        void *subs = h->sub;
        uint32_t id = lpm_tbl24_pool_take(&h->subs, &subs, sizeof(hyb_sub), 1024, VAL_MASK);
        h->sub = subs;
        if (id == UINT32_MAX)
            return lpm_err_set(err, LPM_EFAIL, "out of memory");
        h->sub[id].root = 0;
        h->sub[id].nh = E_VAL(*e) == NH_NONE ? LPM_NH_NONE : E_VAL(*e);
        h->h.cost.entries_set++;
        lpm_cpu_set_entry(&h->h.cost, e, SUB_FLAG | (*e & (0xFu << LEN_SHIFT)) | id);
    }
    hyb_sub *s = &h->sub[E_VAL(*e)];
    int rc = lpm_tbm_insert(&h->t, &s->root, &p->addr, p->len, nh, err);
    if (rc && !s->root) { /* fold an empty subtrie back */
        lpm_tbl24_pool_put(&h->subs, E_VAL(*e));
        *e = (*e & (0xFu << LEN_SHIFT)) | (s->nh == LPM_NH_NONE ? NH_NONE : s->nh);
    }
    return rc;
}

static int op_add(void *st, const lpm_prefix *p, uint32_t nh, lpm_err *err)
{
    hybrid *h = st;
    if (p->family != LPM_AF_INET)
        return lpm_err_set(err, LPM_EINPUT, "hybrid holds IPv4 only");
    int rc = insert(h, p, nh, err);
    if (!rc && p->len > 16 && lpm_ref_add(h->shadow, p, nh))
        rc = lpm_err_set(err, LPM_EFAIL, "out of memory");
    return rc;
}

static int op_del(void *st, const lpm_prefix *p, lpm_err *err)
{
    hybrid *h = st;
    if (p->family != LPM_AF_INET)
        return lpm_err_set(err, LPM_EINPUT, "hybrid holds IPv4 only");
    if (p->len <= 16)
        return lpm_tree_bitmap_del(h->shorts, p, err);
    if (!lpm_ref_del(h->shadow, p))
        return LPM_OK; /* absent: a no-op */
    if (p->len <= 24) {
        int rl;
        uint32_t rnh = lpm_cpu_shadow_parent(h->shadow, p, 17, &rl);
        fill24(h, p, rnh, rl < 0 ? 0 : (unsigned)rl, 1);
        return LPM_OK;
    }
    uint32_t *e = &h->tbl24[lpm_tbl24_index(&p->addr)];
    if (!(*e & SUB_FLAG))
        return LPM_OK;
    hyb_sub *s = &h->sub[E_VAL(*e)];
    if (lpm_tbm_delete(&h->t, &s->root, &p->addr, p->len) < 0) {
        lpm_ref_add(h->shadow, p, 0);
        return lpm_err_set(err, LPM_EFAIL, "out of memory");
    }
    if (!s->root) { /* no /25../32 left under this /24: back to a plain entry */
        lpm_tbl24_pool_put(&h->subs, E_VAL(*e));
        lpm_cpu_set_entry(&h->h.cost, e, (*e & (0xFu << LEN_SHIFT)) | (s->nh == LPM_NH_NONE ? NH_NONE : s->nh));
    }
    return LPM_OK;
}

static void op_destroy(void *st)
{
    hybrid *h = st;
    if (!h)
        return;
    lpm_tbl24_free(h->tbl24);
    free(h->sub);
    lpm_tbl24_pool_release(&h->subs);
    lpm_tbm_free(&h->t);
    lpm_tree_bitmap_destroy(h->shorts);
    lpm_ref_free(h->shadow);
    free(h);
}

static int op_build(void **state, const lpm_fib *fib, lpm_err *err)
{
    if (fib->family != LPM_AF_INET)
        return lpm_err_set(err, LPM_EINPUT, "hybrid holds IPv4 only");
    hybrid *h = calloc(1, sizeof *h);
    if (!h)
        return lpm_err_set(err, LPM_EFAIL, "out of memory");
    h->h.ops = &lpm_engine_hybrid;
    static const uint8_t sub_strides[] = { 4, 4 }, short_strides[] = { 3 };
    int rc = lpm_tbm_init(&h->t, 24, sub_strides, 2, &h->h.cost, err);
    if (!rc)
        rc = lpm_tree_bitmap_new(&h->shorts, &lpm_engine_hybrid, LPM_AF_INET, 13, short_strides, 1, err);
    if (!rc && (!(h->tbl24 = lpm_tbl24_new(NH_NONE)) ||
                !(h->shadow = lpm_ref_new(LPM_AF_INET))))
        rc = lpm_err_set(err, LPM_EFAIL, "out of memory");
    if (!rc)
        rc = lpm_tree_bitmap_fill(h->shorts, fib, 16, err);
    if (!rc) {
        size_t *idx = malloc((fib->n ? fib->n : 1) * sizeof *idx);
        if (!idx)
            rc = lpm_err_set(err, LPM_EFAIL, "out of memory");
        else
            lpm_cpu_order_by_len(fib, idx);
        for (size_t i = 0; i < fib->n && !rc; i++) {
            const lpm_route *r = &fib->routes[idx[i]];
            if (r->pfx.len <= 16)
                continue;
            rc = insert(h, &r->pfx, r->nh, err);
            if (!rc && lpm_ref_add(h->shadow, &r->pfx, r->nh))
                rc = lpm_err_set(err, LPM_EFAIL, "out of memory");
        }
        free(idx);
    }
    if (!rc && h->subs.n)
        rc = lpm_tbm_compact(&h->t, &h->sub[0].root, h->subs.n, sizeof(hyb_sub) / sizeof(uint32_t), err);
    if (rc) {
        op_destroy(h);
        return rc;
    }
    /* The short trie counts into the same counters from here on. */
    h->shorts->t.cost = &h->h.cost;
    memset(&h->h.cost, 0, sizeof h->h.cost);
    *state = h;
    return LPM_OK;
}

static uint32_t op_lookup(const void *s, const lpm_addr *a)
{
    return hyb_lookup(s, a);
}

static void op_lookup_batch(const void *st, const lpm_addr *a, uint32_t *nh, size_t n)
{
    const hybrid *h = st;
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        for (int j = 0; j < 16; j++)
            __builtin_prefetch(&h->tbl24[lpm_tbl24_index(&a[i + j])]);
        for (int j = 0; j < 16; j++)
            nh[i + j] = hyb_lookup(h, &a[i + j]);
    }
    for (; i < n; i++)
        nh[i] = hyb_lookup(h, &a[i]);
}

static size_t op_memory(const void *st)
{
    const hybrid *h = st;
    return LPM_TBL24_BYTES + lpm_tbl24_pool_live(&h->subs) * sizeof(hyb_sub) + lpm_tbm_memory(&h->t) +
           lpm_tree_bitmap_memory(h->shorts);
}

const lpm_engine_ops lpm_engine_hybrid = {
    .name = "hybrid",
    .summary = "He et al.'s hybrid: /1-/16 Tree Bitmap, /17-/24 TBL24, longer in stride-4 subtries",
    .families = LPM_ENGINE_V4,
    .build = op_build,
    .lookup = op_lookup,
    .lookup_batch = op_lookup_batch,
    .add = op_add,
    .del = op_del,
    .memory = op_memory,
    .destroy = op_destroy,
    .cost = lpm_cpu_state_cost,
};
