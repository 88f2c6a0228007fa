/* Tree Bitmap engines: 13-4-4-4-4-3 and 11-7-7-7 (IPv4 and IPv6). */
#include "tree_bitmap.h"

#include <stdlib.h>
#include <string.h>

#define LEN_NONE 0xFF

unsigned lpm_tree_bitmap_shape(int family, unsigned k, unsigned s, uint8_t *strides)
{
    unsigned rest = lpm_family_bits(family) - k, n = 0;
    while (rest > s) {
        strides[n++] = (uint8_t)s;
        rest -= s;
    }
    strides[n++] = (uint8_t)rest;
    return n;
}

int lpm_tree_bitmap_new(lpm_tree_bitmap **out, const lpm_engine_ops *ops, int family,
                        unsigned k, const uint8_t *strides, unsigned n, lpm_err *err)
{
    lpm_tree_bitmap *tb = calloc(1, sizeof *tb);
    if (!tb)
        return lpm_err_set(err, LPM_EFAIL, "out of memory");
    tb->h.ops = ops;
    tb->family = family;
    tb->k = k;
    tb->init = calloc((size_t)1 << k, sizeof *tb->init);
    tb->init_len = malloc((size_t)1 << k);
    tb->shadow = lpm_ref_new(family);
    if (!tb->init || !tb->init_len || !tb->shadow) {
        free(tb->init);
        free(tb->init_len);
        lpm_ref_free(tb->shadow);
        free(tb);
        return lpm_err_set(err, LPM_EFAIL, "out of memory");
    }
    memset(tb->init_len, LEN_NONE, (size_t)1 << k);
    for (size_t i = 0; i < ((size_t)1 << k); i++)
        tb->init[i].nh = LPM_NH_NONE;
    int rc = lpm_tbm_init(&tb->t, k, strides, n, &tb->h.cost, err);
    if (rc) {
        free(tb->init);
        free(tb->init_len);
        lpm_ref_free(tb->shadow);
        free(tb);
        return rc;
    }
    *out = tb;
    return LPM_OK;
}

void lpm_tree_bitmap_destroy(lpm_tree_bitmap *tb)
{
    if (!tb)
        return;
    lpm_tbm_free(&tb->t);
    free(tb->init);
    free(tb->init_len);
    lpm_ref_free(tb->shadow);
    free(tb);
}

/* The initial-array entries a prefix shorter than k expands into. */
static void init_range(const lpm_tree_bitmap *tb, const lpm_prefix *p, size_t *first, size_t *count)
{
    *first = (size_t)lpm_addr_bits(&p->addr, 0, tb->k);
    *count = (size_t)1 << (tb->k - p->len);
}

/* Into the structure only (the shadow is the caller's business). */
static int insert(lpm_tree_bitmap *tb, const lpm_prefix *p, uint32_t nh, lpm_err *err)
{
    if (p->len >= tb->k)
        return lpm_tbm_insert(&tb->t, &tb->init[lpm_addr_bits(&p->addr, 0, tb->k)].child,
                              &p->addr, p->len, nh, err);
    size_t first, count;
    init_range(tb, p, &first, &count);
    for (size_t i = first; i < first + count; i++)
        if (tb->init_len[i] == LEN_NONE || tb->init_len[i] <= p->len) {
            tb->init[i].nh = nh;
            tb->init_len[i] = p->len;
            tb->t.cost->entries_set++;
            tb->t.cost->bytes_written += 4;
        }
    return LPM_OK;
}

int lpm_tree_bitmap_add(lpm_tree_bitmap *tb, const lpm_prefix *p, uint32_t nh, lpm_err *err)
{
    if (p->family != tb->family)
        return lpm_err_set(err, LPM_EINPUT, "IPv%d prefix in an IPv%d table", p->family, tb->family);
    int rc = insert(tb, p, nh, err);
    if (rc)
        return rc;
    if (lpm_ref_add(tb->shadow, p, nh))
        return lpm_err_set(err, LPM_EFAIL, "out of memory");
    return LPM_OK;
}

int lpm_tree_bitmap_del(lpm_tree_bitmap *tb, const lpm_prefix *p, lpm_err *err)
{
    if (p->family != tb->family)
        return lpm_err_set(err, LPM_EINPUT, "IPv%d prefix in an IPv%d table", p->family, tb->family);
    if (!lpm_ref_del(tb->shadow, p))
        return LPM_OK; /* absent: a no-op */
    if (p->len >= tb->k) {
        if (lpm_tbm_delete(&tb->t, &tb->init[lpm_addr_bits(&p->addr, 0, tb->k)].child,
                           &p->addr, p->len) < 0) {
            lpm_ref_add(tb->shadow, p, 0);
            return lpm_err_set(err, LPM_EFAIL, "out of memory");
        }
        return LPM_OK;
    }
    int rl;
    uint32_t rnh = lpm_cpu_shadow_parent(tb->shadow, p, 0, &rl);
    size_t first, count;
    init_range(tb, p, &first, &count);
    for (size_t i = first; i < first + count; i++)
        if (tb->init_len[i] == p->len) {
            tb->init[i].nh = rnh;
            tb->init_len[i] = rl < 0 ? LEN_NONE : (uint8_t)rl;
            tb->t.cost->entries_set++;
            tb->t.cost->bytes_written += 4;
        }
    return LPM_OK;
}

int lpm_tree_bitmap_fill(lpm_tree_bitmap *tb, const lpm_fib *f, unsigned max_len, lpm_err *err)
{
    for (size_t i = 0; i < f->n; i++) {
        const lpm_route *r = &f->routes[i];
        if (r->pfx.len > max_len)
            continue;
        int rc = insert(tb, &r->pfx, r->nh, err);
        if (!rc && lpm_ref_add(tb->shadow, &r->pfx, r->nh))
            rc = lpm_err_set(err, LPM_EFAIL, "out of memory");
        if (rc)
            return rc;
    }
    int rc = lpm_tbm_compact(&tb->t, &tb->init[0].child, (size_t)1 << tb->k,
                             sizeof(lpm_tbm_slot) / sizeof(uint32_t), err);
    memset(&tb->h.cost, 0, sizeof tb->h.cost);
    return rc;
}

size_t lpm_tree_bitmap_memory(const lpm_tree_bitmap *tb)
{
    return lpm_tbm_memory(&tb->t) + ((size_t)1 << tb->k) * (sizeof(lpm_tbm_slot) + 1);
}

/* The engine interface, for both shapes. */

static int build_shape(void **state, const lpm_fib *fib, const lpm_engine_ops *ops,
                       unsigned k, unsigned s, lpm_err *err)
{
    if (fib->family != LPM_AF_INET && fib->family != LPM_AF_INET6)
        return lpm_err_set(err, LPM_EINPUT, "%s: empty table (no family)", ops->name);
    uint8_t strides[LPM_TBM_MAX_LEVELS];
    unsigned n = lpm_tree_bitmap_shape(fib->family, k, s, strides);
    lpm_tree_bitmap *tb;
    int rc = lpm_tree_bitmap_new(&tb, ops, fib->family, k, strides, n, err);
    if (rc)
        return rc;
    if ((rc = lpm_tree_bitmap_fill(tb, fib, 128, err))) {
        lpm_tree_bitmap_destroy(tb);
        return rc;
    }
    *state = tb;
    return LPM_OK;
}

static int build13(void **state, const lpm_fib *fib, lpm_err *err)
{
    return build_shape(state, fib, &lpm_engine_tree_bitmap_13, 13, 4, err);
}

static int build11(void **state, const lpm_fib *fib, lpm_err *err)
{
    return build_shape(state, fib, &lpm_engine_tree_bitmap_11, 11, 7, err);
}

static uint32_t op_lookup(const void *s, const lpm_addr *a)
{
    return lpm_tree_bitmap_lookup(s, a);
}

static void op_lookup_batch(const void *s, const lpm_addr *a, uint32_t *nh, size_t n)
{
    const lpm_tree_bitmap *tb = s;
    for (size_t i = 0; i < n; i += LPM_TBM_MULTI) {
        unsigned m = n - i < LPM_TBM_MULTI ? (unsigned)(n - i) : LPM_TBM_MULTI;
        uint32_t root[LPM_TBM_MULTI], dflt[LPM_TBM_MULTI];
        const lpm_addr *pa[LPM_TBM_MULTI];
        for (unsigned k = 0; k < m; k++) {
            const lpm_tbm_slot *e = &tb->init[lpm_addr_bits(&a[i + k], 0, tb->k)];
            root[k] = e->child;
            dflt[k] = e->nh;
            pa[k] = &a[i + k];
        }
        lpm_tbm_lookup_multi(&tb->t, root, pa, dflt, nh + i, m);
    }
}

static int op_add(void *s, const lpm_prefix *p, uint32_t nh, lpm_err *err)
{
    return lpm_tree_bitmap_add(s, p, nh, err);
}

static int op_del(void *s, const lpm_prefix *p, lpm_err *err)
{
    return lpm_tree_bitmap_del(s, p, err);
}

static size_t op_memory(const void *s)
{
    return lpm_tree_bitmap_memory(s);
}

static void op_destroy(void *s)
{
    lpm_tree_bitmap_destroy(s);
}

const lpm_engine_ops lpm_engine_tree_bitmap_13 = {
    .name = "tree-bitmap-13",
    .summary = "Tree Bitmap 13-4-4-4-4-3 (He et al.): 2^13 initial array, stride 4, lazy checking",
    .families = LPM_ENGINE_V4 | LPM_ENGINE_V6,
    .build = build13,
    .lookup = op_lookup,
    .lookup_batch = op_lookup_batch,
    .add = op_add,
    .del = op_del,
    .memory = op_memory,
    .destroy = op_destroy,
    .cost = lpm_cpu_state_cost,
};

const lpm_engine_ops lpm_engine_tree_bitmap_11 = {
    .name = "tree-bitmap-11",
    .summary = "Tree Bitmap 11-7-7-7 (He et al.): 2^11 initial array, stride 7, lazy checking",
    .families = LPM_ENGINE_V4 | LPM_ENGINE_V6,
    .build = build11,
    .lookup = op_lookup,
    .lookup_batch = op_lookup_batch,
    .add = op_add,
    .del = op_del,
    .memory = op_memory,
    .destroy = op_destroy,
    .cost = lpm_cpu_state_cost,
};
