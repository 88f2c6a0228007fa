/* GAMT host side: the CPU trie behind the state-jump table, its updates
 * into the WB table, Algorithm 2, lazy delete, head room and rebuild. */
#include "gamt.h"
#include "wb_list.h"

#include <stdlib.h>
#include <string.h>

#include "../core/trie_multibit.h"
#include "../core/trie_unibit.h"

enum { NEED_REBUILD = 100 }; /* internal: a level ran out of head room */

void lpm_gamt_opts_default(lpm_gamt_opts *o)
{
    memset(o, 0, sizeof *o);
    o->headroom = 0.10;
    o->min_room = 4096;
}

/* GAMT's Algorithm 3 (core/strides.c) on the table's unibit trie, over the
 * bits GAMT looks at: 32 for IPv4, the first 64 for IPv6. T = 32 units,
 * one 128-byte memory transaction. */
int lpm_gamt_choose_strides(const lpm_fib *f, unsigned levels, uint8_t *stride, lpm_err *err)
{
    unsigned bits = f->family == LPM_AF_INET ? 32 : 64;
    if (levels < 1 || levels > GAMT_MAX_LEVELS || levels > bits)
        return lpm_err_set(err, LPM_EINPUT, "GAMT: %u levels is out of range 1..%u", levels,
                           bits < GAMT_MAX_LEVELS ? bits : GAMT_MAX_LEVELS);
    lpm_unibit t;
    int rc = lpm_unibit_build(&t, f, err);
    if (rc)
        return rc;
    uint64_t nodes[129];
    lpm_strides_node_counts(&t, nodes);
    lpm_unibit_free(&t);
    lpm_strides st;
    if ((rc = lpm_strides_gamt_counts(nodes, bits, levels, 32, &st, err)))
        return rc;
    for (unsigned k = 1; k <= levels; k++)
        stride[k] = st.stride[k - 1];
    return LPM_OK;
}

/* ---- host arrays -------------------------------------------------------- */

static int grow(void **p, size_t elem, size_t oldn, size_t newn)
{
    void *q = realloc(*p, elem * newn);
    if (!q)
        return -1;
    memset((char *)q + elem * oldn, 0, elem * (newn - oldn));
    *p = q;
    return 0;
}

/* Makes level k's host arrays hold at least units units. */
static int reserve(lpm_gamt *g, unsigned k, uint32_t units, lpm_err *err)
{
    lpm_gamt_level *L = &g->lv[k];
    if (units <= L->cap)
        return LPM_OK;
    size_t n = L->cap ? L->cap : 1024;
    while (n < units)
        n *= 2;
    unsigned s = g->stride[k];
    size_t on = L->cap, nn = n;
    if (grow((void **)&L->code, 4, on, nn) || grow((void **)&L->onh, 4, on, nn) ||
        grow((void **)&L->olen, 1, on, nn) ||
        grow((void **)&L->inh, 4, (on >> s) + 1, (nn >> s) + 1) ||
        grow((void **)&L->dirty, 8, (on + 63) / 64, (nn + 63) / 64) ||
        (k == g->H && grow((void **)&L->nlong, 4, on, nn)))
        return lpm_err_set(err, LPM_EFAIL, "GAMT: out of memory for level %u (%zu units)", k, nn);
    /* Units not yet in a node read as the copies' head room does, so a
     * new node's units always differ from it and all become bubbles. */
    for (size_t u = on; u < nn; u++)
        L->code[u] = GAMT_UNIT_EMPTY;
    L->cap = (uint32_t)nn;
    return LPM_OK;
}

static void level_free(lpm_gamt_level *L)
{
    free(L->code);
    free(L->onh);
    free(L->olen);
    free(L->inh);
    free(L->nlong);
    free(L->dirty);
    free(L->wb);
    memset(L, 0, sizeof *L);
}

/* WB table: remember (k, u) once. */
static int mark(lpm_gamt *g, unsigned k, uint32_t u)
{
    lpm_gamt_level *L = &g->lv[k];
    return lpm_wb_add(L->dirty, &L->wb, &L->nwb, &L->wbcap, u);
}

static int set_code(lpm_gamt *g, unsigned k, uint32_t u, uint32_t code)
{
    if (g->lv[k].code[u] == code)
        return 0;
    g->lv[k].code[u] = code;
    return g->building ? 0 : mark(g, k, u);
}

static uint32_t eff(const lpm_gamt *g, unsigned k, uint32_t u)
{
    const lpm_gamt_level *L = &g->lv[k];
    return L->olen[u] ? L->onh[u] : L->inh[u >> g->stride[k]];
}

static uint32_t leaf_code(const lpm_gamt *g, unsigned k, uint32_t u)
{
    if (k == g->H && g->lv[k].nlong[u])
        return gamt_unit_leaf(GAMT_NH_LONG);
    uint32_t nh = eff(g, k, u);
    return gamt_unit_leaf(nh == LPM_NH_NONE ? GAMT_NH_NONE : nh);
}

/* Re-encodes unit u of level k after its own or inherited hop changed; a
 * pointer unit passes the change down to the child's units without one. */
static int update_unit(lpm_gamt *g, unsigned k, uint32_t u)
{
    uint32_t c = g->lv[k].code[u];
    if (!gamt_unit_jump(c))
        return set_code(g, k, u, leaf_code(g, k, u));
    unsigned k2 = k + 1;
    lpm_gamt_level *C = &g->lv[k2];
    uint32_t base = gamt_unit_inf(c), e = eff(g, k, u);
    if (C->inh[base >> g->stride[k2]] == e)
        return 0;
    C->inh[base >> g->stride[k2]] = e;
    for (uint32_t v = base; v < base + (1u << g->stride[k2]); v++)
        if (!C->olen[v] && update_unit(g, k2, v))
            return -1;
    return 0;
}

static int oom(lpm_err *err)
{
    return lpm_err_set(err, LPM_EFAIL, "GAMT: out of memory");
}

/* Hangs a new node under leaf unit u of level k. */
static int create_child(lpm_gamt *g, unsigned k, uint32_t u, lpm_err *err)
{
    unsigned k2 = k + 1;
    lpm_gamt_level *C = &g->lv[k2];
    uint32_t n = 1u << g->stride[k2], base = C->used;
    if (!g->building && (uint64_t)base + n > g->width)
        return NEED_REBUILD;
    if ((uint64_t)base + n > GAMT_MAX_WIDTH)
        return lpm_err_set(err, g->building ? LPM_EINPUT : LPM_EFAIL,
                           "GAMT: level %u needs more than 2^24 units (the 24-bit inf limit); use more levels",
                           k2);
    int rc = reserve(g, k2, base + n, err);
    if (rc)
        return rc;
    C = &g->lv[k2];
    C->used = base + n;
    C->inh[base >> g->stride[k2]] = eff(g, k, u);
    for (uint32_t v = base; v < base + n; v++) {
        C->olen[v] = 0;
        C->onh[v] = LPM_NH_NONE;
        if (set_code(g, k2, v, leaf_code(g, k2, v)))
            return oom(err);
    }
    return set_code(g, k, u, gamt_unit_child(k2, base)) ? oom(err) : LPM_OK;
}

static uint32_t bits_at(uint64_t key, unsigned pos, unsigned s)
{
    return (uint32_t)((key << pos) >> (64 - s));
}

/* The unit of level L on key's path; creates missing nodes when create.
 * Returns LPM_OK, NEED_REBUILD, an error, or -1 (absent, !create). */
static int walk(lpm_gamt *g, uint64_t key, unsigned L, int create, uint32_t *out, lpm_err *err)
{
    uint32_t base = 0;
    for (unsigned k = 1;; k++) {
        uint32_t u = base + bits_at(key, g->off[k], g->stride[k]);
        if (k == L) {
            *out = u;
            return LPM_OK;
        }
        if (!gamt_unit_jump(g->lv[k].code[u])) {
            if (!create)
                return -1;
            int rc = create_child(g, k, u, err);
            if (rc)
                return rc;
        }
        base = gamt_unit_inf(g->lv[k].code[u]);
    }
}

static unsigned level_of(const lpm_gamt *g, unsigned len)
{
    unsigned k = 1;
    while (g->off[k + 1] < len)
        k++;
    return k;
}

static int longp_add(lpm_gamt *g, const lpm_prefix *p)
{
    if (g->nlongp == g->longcap) {
        size_t n = g->longcap ? g->longcap * 2 : 64;
        lpm_prefix *q = realloc(g->longp, n * sizeof *q);
        if (!q)
            return -1;
        g->longp = q;
        g->longcap = n;
    }
    g->longp[g->nlongp++] = *p;
    return 0;
}

static void longp_del(lpm_gamt *g, const lpm_prefix *p)
{
    for (size_t i = 0; i < g->nlongp; i++)
        if (g->longp[i].len == p->len && lpm_addr_eq(&g->longp[i].addr, &p->addr)) {
            g->longp[i] = g->longp[--g->nlongp];
            return;
        }
}

/* Insert into the host trie; NEED_REBUILD leaves it consistent (at most
 * some empty nodes more) and the prefix not yet added. */
static int ins(lpm_gamt *g, const lpm_prefix *p, uint32_t nh, lpm_err *err)
{
    uint64_t key = p->addr.hi;
    unsigned l = p->len;
    int rc;
    uint32_t u;
    if (l > g->S) {
        if ((rc = walk(g, key, g->H, 1, &u, err)))
            return rc;
        if (lpm_ref_get(g->shadow, p) == LPM_NH_NONE) {
            if (longp_add(g, p))
                return oom(err);
            g->lv[g->H].nlong[u]++;
        }
        if (lpm_ref_add(g->shadow, p, nh) || set_code(g, g->H, u, leaf_code(g, g->H, u)))
            return oom(err);
        return LPM_OK;
    }
    if (l == 0) {
        g->root_inh = g->lv[1].inh[0] = nh;
        for (uint32_t v = 0; v < (1u << g->stride[1]); v++)
            if (!g->lv[1].olen[v] && update_unit(g, 1, v))
                return oom(err);
    } else {
        unsigned k = level_of(g, l);
        if ((rc = walk(g, key, k, 1, &u, err)))
            return rc;
        uint32_t span = 1u << (g->off[k] + g->stride[k] - l);
        lpm_gamt_level *L = &g->lv[k];
        for (uint32_t v = u; v < u + span; v++)
            if (L->olen[v] <= l) {
                L->olen[v] = (uint8_t)l;
                L->onh[v] = nh;
                if (update_unit(g, k, v))
                    return oom(err);
            }
    }
    return lpm_ref_add(g->shadow, p, nh) ? oom(err) : LPM_OK;
}

static int del(lpm_gamt *g, const lpm_prefix *p, lpm_err *err)
{
    if (lpm_ref_get(g->shadow, p) == LPM_NH_NONE)
        return LPM_OK; /* absent: a no-op */
    lpm_ref_del(g->shadow, p);
    uint64_t key = p->addr.hi;
    unsigned l = p->len;
    uint32_t u;
    if (l > g->S) {
        if (walk(g, key, g->H, 0, &u, err))
            return lpm_err_set(err, LPM_EFAIL, "GAMT: internal: long prefix path missing");
        longp_del(g, p);
        g->lv[g->H].nlong[u]--;
        return set_code(g, g->H, u, leaf_code(g, g->H, u)) ? oom(err) : LPM_OK;
    }
    if (l == 0) {
        g->root_inh = g->lv[1].inh[0] = LPM_NH_NONE;
        for (uint32_t v = 0; v < (1u << g->stride[1]); v++)
            if (!g->lv[1].olen[v] && update_unit(g, 1, v))
                return oom(err);
        return LPM_OK;
    }
    unsigned k = level_of(g, l);
    if (walk(g, key, k, 0, &u, err))
        return lpm_err_set(err, LPM_EFAIL, "GAMT: internal: prefix path missing");
    /* The same shorter prefix replaces it in every unit it owned. */
    unsigned rl = 0;
    uint32_t rnh = LPM_NH_NONE;
    for (unsigned j = l - 1; j > g->off[k]; j--) {
        lpm_prefix q = *p;
        q.len = (uint8_t)j;
        q.addr = lpm_addr_mask(&p->addr, j);
        if ((rnh = lpm_ref_get(g->shadow, &q)) != LPM_NH_NONE) {
            rl = j;
            break;
        }
    }
    uint32_t span = 1u << (g->off[k] + g->stride[k] - l);
    lpm_gamt_level *L = &g->lv[k];
    for (uint32_t v = u; v < u + span; v++)
        if (L->olen[v] == l) {
            L->olen[v] = (uint8_t)rl;
            L->onh[v] = rnh;
            if (update_unit(g, k, v))
                return oom(err);
        }
    return LPM_OK;
}

/* ---- build, width, upload, rebuild ------------------------------------- */

static int init_empty(lpm_gamt *g, int family, unsigned H, const uint8_t *stride,
                      double headroom, uint32_t min_room, const lpm_gamt_sink *sink, lpm_err *err)
{
    memset(g, 0, sizeof *g);
    g->family = family;
    g->H = H;
    g->headroom = headroom;
    g->min_room = min_room;
    g->building = 1;
    g->root_inh = LPM_NH_NONE;
    if (sink)
        g->sink = *sink;
    g->off[1] = 0;
    for (unsigned k = 1; k <= H; k++) {
        g->stride[k] = stride[k];
        g->off[k + 1] = g->off[k] + stride[k];
    }
    g->S = g->off[H + 1];
    for (unsigned k = H + 2; k <= GAMT_MAX_LEVELS + 1; k++)
        g->off[k] = g->S;
    if (!(g->shadow = lpm_ref_new(family)))
        return oom(err);
    int rc = reserve(g, 1, 1u << stride[1], err);
    if (rc)
        return rc;
    g->lv[1].used = 1u << stride[1];
    g->lv[1].inh[0] = LPM_NH_NONE;
    for (uint32_t v = 0; v < g->lv[1].used; v++) {
        g->lv[1].onh[v] = LPM_NH_NONE;
        g->lv[1].code[v] = gamt_unit_leaf(GAMT_NH_NONE);
    }
    return LPM_OK;
}

/* Ends building: fixes the width with head room and uploads one copy. */
static int finish(lpm_gamt *g, int copy, lpm_err *err)
{
    uint32_t widest = 0, bignode = 0;
    for (unsigned k = 1; k <= g->H; k++) {
        if (g->lv[k].used > widest)
            widest = g->lv[k].used;
        if (k > 1 && (1u << g->stride[k]) > bignode) /* level 1 never grows */
            bignode = 1u << g->stride[k];
    }
    uint64_t room = (uint64_t)(widest * g->headroom);
    if (room < g->min_room)
        room = g->min_room;
    if (room < bignode)
        room = bignode;
    uint64_t w = ((uint64_t)widest + room + 31) & ~31ULL;
    if (w > GAMT_MAX_WIDTH)
        w = GAMT_MAX_WIDTH;
    g->width = (uint32_t)w;
    g->building = 0;
    for (unsigned k = 1; k <= g->H; k++) {
        g->lv[k].nwb = 0;
        if (g->lv[k].dirty) /* NULL for a level with no nodes yet */
            memset(g->lv[k].dirty, 0, ((g->lv[k].cap + 63) / 64) * 8);
    }
    const uint32_t *rows[GAMT_MAX_LEVELS];
    uint32_t used[GAMT_MAX_LEVELS];
    for (unsigned k = 1; k <= g->H; k++) {
        rows[k - 1] = g->lv[k].code;
        used[k - 1] = g->lv[k].used;
    }
    int rc = g->sink.upload(g->sink.ctx, copy, rows, used, g->H, g->width, g->stride, err);
    if (rc == LPM_OK)
        rc = g->sink.swap(g->sink.ctx, copy, err);
    if (rc == LPM_OK)
        g->active = copy;
    return rc;
}

int lpm_gamt_build(lpm_gamt *g, const lpm_fib *f, const lpm_gamt_opts *o,
                   const lpm_gamt_sink *sink, lpm_err *err)
{
    lpm_gamt_opts d;
    if (!o) {
        lpm_gamt_opts_default(&d);
        o = &d;
    }
    memset(g, 0, sizeof *g);
    if (f->family != LPM_AF_INET && f->family != LPM_AF_INET6)
        return lpm_err_set(err, LPM_EINPUT, "GAMT: the table is empty (no family)");
    if (f->nh.n > GAMT_NH_MAX)
        return lpm_err_set(err, LPM_EINPUT, "GAMT: %zu next hops; a unit holds at most %u", f->nh.n,
                           GAMT_NH_MAX + 1);
    unsigned H = o->levels ? o->levels : (f->family == LPM_AF_INET ? 4 : 8);
    uint8_t stride[GAMT_MAX_LEVELS + 1] = { 0 };
    int rc;
    if (o->strides) {
        unsigned sum = 0;
        if (H < 1 || H > GAMT_MAX_LEVELS)
            return lpm_err_set(err, LPM_EINPUT, "GAMT: %u levels is out of range 1..%u", H, GAMT_MAX_LEVELS);
        for (unsigned k = 1; k <= H; k++) {
            stride[k] = o->strides[k - 1];
            if (stride[k] < 1 || stride[k] > 24)
                return lpm_err_set(err, LPM_EINPUT, "GAMT: stride %u of level %u is out of range 1..24",
                                   stride[k], k);
            sum += stride[k];
        }
        if (sum > 64)
            return lpm_err_set(err, LPM_EINPUT, "GAMT: the strides cover %u bits, more than 64", sum);
    } else if ((rc = lpm_gamt_choose_strides(f, H, stride, err))) {
        return rc;
    }
    for (unsigned k = 1; k <= H; k++)
        if (stride[k] > 24)
            return lpm_err_set(err, LPM_EINPUT, "GAMT: stride %u of level %u exceeds 24 bits; use more levels",
                               stride[k], k);
    if ((rc = init_empty(g, f->family, H, stride, o->headroom, o->min_room, sink, err)))
        goto fail;
    for (size_t i = 0; i < f->n; i++)
        if ((rc = ins(g, &f->routes[i].pfx, f->routes[i].nh, err)))
            goto fail;
    if ((rc = finish(g, 0, err)))
        goto fail;
    return LPM_OK;
fail:
    lpm_gamt_free(g);
    return rc == NEED_REBUILD ? LPM_EFAIL : rc;
}

void lpm_gamt_free(lpm_gamt *g)
{
    for (unsigned k = 0; k <= GAMT_MAX_LEVELS; k++)
        level_free(&g->lv[k]);
    lpm_ref_free(g->shadow);
    free(g->longp);
    g->shadow = NULL;
    g->longp = NULL;
}

/* Re-inserts into n every prefix of g ending at the node (k, base) or
 * below. A prefix of length j shows up in no unit's olen when longer ones
 * cover all its units, so the shadow is probed instead: at level k each
 * prefix is probed once, at the first unit of its span, and only where
 * olen >= j (a prefix covering the unit would make olen at least j). */
static int collect(const lpm_gamt *g, lpm_gamt *n, unsigned k, uint32_t base, uint64_t key, lpm_err *err)
{
    const lpm_gamt_level *L = &g->lv[k];
    unsigned s = g->stride[k], top = g->off[k] + s;
    for (uint32_t i = 0; i < (1u << s); i++) {
        uint64_t kv = key | ((uint64_t)i << (64 - top));
        unsigned ol = L->olen[base + i];
        for (unsigned j = top; j > g->off[k] && (i & ((1u << (top - j)) - 1)) == 0; j--) {
            if (j > ol)
                continue;
            lpm_prefix q = { { kv, 0 }, (uint8_t)j, (uint8_t)g->family };
            q.addr = lpm_addr_mask(&q.addr, j);
            uint32_t nh = lpm_ref_get(g->shadow, &q);
            if (nh != LPM_NH_NONE) {
                int rc = ins(n, &q, nh, err);
                if (rc)
                    return rc;
            }
        }
        uint32_t c = L->code[base + i];
        if (gamt_unit_jump(c)) {
            int rc = collect(g, n, k + 1, gamt_unit_inf(c), kv, err);
            if (rc)
                return rc;
        }
    }
    return LPM_OK;
}

int lpm_gamt_rebuild(lpm_gamt *g, lpm_err *err)
{
    lpm_gamt n;
    int rc = init_empty(&n, g->family, g->H, g->stride, g->headroom, g->min_room, &g->sink, err);
    if (rc == LPM_OK && g->root_inh != LPM_NH_NONE) {
        lpm_prefix q = { { 0, 0 }, 0, (uint8_t)g->family };
        rc = ins(&n, &q, g->root_inh, err);
    }
    if (rc == LPM_OK)
        rc = collect(g, &n, 1, 0, 0, err);
    for (size_t i = 0; rc == LPM_OK && i < g->nlongp; i++)
        rc = ins(&n, &g->longp[i], lpm_ref_get(g->shadow, &g->longp[i]), err);
    if (rc == LPM_OK)
        rc = finish(&n, 1 - g->active, err);
    if (rc) {
        lpm_gamt_free(&n);
        return rc == NEED_REBUILD ? LPM_EFAIL : rc;
    }
    n.rebuilds = g->rebuilds + 1;
    n.bubbles_sent = g->bubbles_sent;
    n.batches_sent = g->batches_sent;
    lpm_gamt_free(g);
    *g = n;
    return LPM_OK;
}

static int checked(const lpm_gamt *g, const lpm_prefix *p, lpm_err *err)
{
    if (p->family != g->family)
        return lpm_err_set(err, LPM_EINPUT, "GAMT: IPv%d prefix in an IPv%d table", p->family, g->family);
    return LPM_OK;
}

int lpm_gamt_insert(lpm_gamt *g, const lpm_prefix *p, uint32_t nh, lpm_err *err)
{
    int rc = checked(g, p, err);
    if (rc)
        return rc;
    if (nh > GAMT_NH_MAX)
        return lpm_err_set(err, LPM_EINPUT, "GAMT: next-hop index %u does not fit a unit's 24 bits", nh);
    rc = ins(g, p, nh, err);
    if (rc == NEED_REBUILD) {
        if ((rc = lpm_gamt_rebuild(g, err)))
            return rc;
        rc = ins(g, p, nh, err);
        if (rc == NEED_REBUILD)
            rc = lpm_err_set(err, LPM_EFAIL,
                             "GAMT: no head room even after a rebuild (a level is at the 2^24-unit limit); use more levels");
    }
    return rc;
}

int lpm_gamt_delete(lpm_gamt *g, const lpm_prefix *p, lpm_err *err)
{
    int rc = checked(g, p, err);
    return rc ? rc : del(g, p, err);
}

/* ---- WB table and bubbles ---------------------------------------------- */

size_t lpm_gamt_pending(const lpm_gamt *g)
{
    size_t n = 0;
    for (unsigned k = 1; k <= g->H; k++)
        n += g->lv[k].nwb;
    return n;
}

size_t lpm_gamt_prepare(lpm_gamt *g, lpm_gamt_bubble *out, size_t max)
{
    size_t n = 0;
    for (unsigned k = g->H; k >= 1 && n < max; k--) {
        lpm_gamt_level *L = &g->lv[k];
        while (L->nwb > 0 && n < max) {
            uint32_t u = lpm_wb_pop(L->dirty, L->wb, &L->nwb);
            out[n].level = k;
            out[n].loc = u;
            out[n].value = L->code[u]; /* the latest value, read now */
            n++;
        }
    }
    return n;
}

int lpm_gamt_flush(lpm_gamt *g, size_t batch, lpm_err *err)
{
    if (batch == 0)
        batch = 1;
    size_t pend = lpm_gamt_pending(g);
    if (pend == 0)
        return LPM_OK;
    size_t cap = pend < batch ? pend : batch;
    lpm_gamt_bubble *b = malloc(cap * sizeof *b);
    if (!b)
        return oom(err);
    int rc = LPM_OK;
    size_t n;
    while (rc == LPM_OK && (n = lpm_gamt_prepare(g, b, cap)) > 0) {
        rc = g->sink.apply(g->sink.ctx, g->active, b, n, err);
        g->bubbles_sent += n;
        g->batches_sent++;
    }
    free(b);
    return rc;
}

uint32_t lpm_gamt_lookup_host(const lpm_gamt *g, const lpm_addr *a)
{
    uint64_t key = a->hi;
    uint32_t jump = 1, inf = 0;
    while (jump) {
        unsigned s = g->stride[jump];
        uint32_t c = g->lv[jump].code[inf + bits_at(key, g->off[jump], s)];
        jump = gamt_unit_jump(c);
        inf = gamt_unit_inf(c);
    }
    return lpm_gamt_resolve(g, inf, a);
}

size_t lpm_gamt_copy_bytes(const lpm_gamt *g)
{
    return (size_t)g->H * g->width * 4;
}
