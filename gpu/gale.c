/* GALE host side: DIR-24-8 with lengths per entry, updates, bubbles. */
#include "gale.h"
#include "wb_list.h"

#include <stdlib.h>
#include <string.h>

#define N24 (1u << 24)

static int oom(lpm_err *err)
{
    return lpm_err_set(err, LPM_EFAIL, "GALE: out of memory");
}

/* Writes entry i of a table (direct or long) and records it once. */
static int set_entry(lpm_gale *g, int is_long, uint32_t i, uint32_t v)
{
    uint32_t *t = is_long ? g->tl : g->t24;
    if (t[i] == v)
        return 0;
    t[i] = v;
    if (g->building)
        return 0;
    return is_long ? lpm_wb_add(g->dirtyl, &g->wbl, &g->nwbl, &g->capl, i)
                   : lpm_wb_add(g->dirty24, &g->wb24, &g->nwb24, &g->cap24, i);
}

static int set24(lpm_gale *g, uint32_t i, uint32_t v)
{
    return set_entry(g, 0, i, v);
}

static int setl(lpm_gale *g, uint32_t i, uint32_t v)
{
    return set_entry(g, 1, i, v);
}

static uint32_t enc(uint32_t nh)
{
    return nh == LPM_NH_NONE ? GALE_NH_NONE : nh;
}

/* A new block for direct entry i, filled with what i answered so far. */
static int new_block(lpm_gale *g, uint32_t i, lpm_err *err)
{
    if (g->nblocks >= GALE_MAX_BLOCKS)
        return lpm_err_set(err, LPM_EFAIL, "GALE: more than %u long blocks", GALE_MAX_BLOCKS);
    if (g->nblocks == g->hostcap) {
        uint32_t c = g->hostcap ? g->hostcap * 2 : 256;
        uint32_t *t = realloc(g->tl, (size_t)c * 256 * 4);
        if (!t)
            return oom(err);
        g->tl = t;
        uint8_t *l = realloc(g->lenl, (size_t)c * 256);
        if (!l)
            return oom(err);
        g->lenl = l;
        uint64_t *d = realloc(g->dirtyl, (size_t)c * 256 / 8);
        if (!d)
            return oom(err);
        memset(d + (size_t)g->hostcap * 4, 0, (size_t)(c - g->hostcap) * 256 / 8);
        g->dirtyl = d;
        g->hostcap = c;
    }
    uint32_t b = g->nblocks++;
    for (uint32_t j = 0; j < 256; j++) {
        g->tl[b * 256 + j] = g->t24[i]; /* no bubble: the copy gets the block below */
        g->lenl[b * 256 + j] = g->len24[i];
    }
    if (!g->building)
        for (uint32_t j = 0; j < 256; j++)
            if (lpm_wb_add(g->dirtyl, &g->wbl, &g->nwbl, &g->capl, b * 256 + j))
                return oom(err);
    return set24(g, i, GALE_LONG_FLAG | b) ? oom(err) : LPM_OK;
}

/* Entries of [lo, lo+span) of the direct table (or of block b when
 * b >= 0) whose length passes keep() get (len, nh). */
static int paint(lpm_gale *g, uint32_t lo, uint32_t span, unsigned minlen, unsigned eqlen,
                 unsigned len, uint32_t nh)
{
    /* minlen: insert (replace entries of length <= minlen); eqlen: delete
     * (replace entries of exactly eqlen). One of them is 0xFF. */
    for (uint32_t i = lo; i < lo + span; i++) {
        if (g->t24[i] & GALE_LONG_FLAG) {
            uint32_t b = g->t24[i] & ~GALE_LONG_FLAG;
            for (uint32_t j = b * 256; j < b * 256 + 256; j++) {
                unsigned l = g->lenl[j];
                if ((minlen != 0xFF && l <= minlen) || (eqlen != 0xFF && l == eqlen)) {
                    g->lenl[j] = (uint8_t)len;
                    if (setl(g, j, enc(nh)))
                        return -1;
                }
            }
            continue;
        }
        unsigned l = g->len24[i];
        if ((minlen != 0xFF && l <= minlen) || (eqlen != 0xFF && l == eqlen)) {
            g->len24[i] = (uint8_t)len;
            if (set24(g, i, enc(nh)))
                return -1;
        }
    }
    return 0;
}

static int paint_long(lpm_gale *g, uint32_t b, uint32_t lo, uint32_t span, unsigned minlen,
                      unsigned eqlen, unsigned len, uint32_t nh)
{
    for (uint32_t j = b * 256 + lo; j < b * 256 + lo + span; j++) {
        unsigned l = g->lenl[j];
        if ((minlen != 0xFF && l <= minlen) || (eqlen != 0xFF && l == eqlen)) {
            g->lenl[j] = (uint8_t)len;
            if (setl(g, j, enc(nh)))
                return -1;
        }
    }
    return 0;
}

static int checked(const lpm_prefix *p, lpm_err *err)
{
    if (p->family != LPM_AF_INET)
        return lpm_err_set(err, LPM_EINPUT, "GALE: IPv4 only");
    return LPM_OK;
}

int lpm_gale_insert(lpm_gale *g, const lpm_prefix *p, uint32_t nh, lpm_err *err)
{
    int rc = checked(p, err);
    if (rc)
        return rc;
    if (nh > GALE_NH_MAX)
        return lpm_err_set(err, LPM_EINPUT, "GALE: next-hop index %u does not fit 31 bits", nh);
    uint32_t a = lpm_addr_to_v4(&p->addr);
    unsigned l = p->len;
    if (l <= 24) {
        if (paint(g, a >> 8, 1u << (24 - l), l, 0xFF, l, nh))
            return oom(err);
    } else {
        uint32_t i = a >> 8;
        if (!(g->t24[i] & GALE_LONG_FLAG) && (rc = new_block(g, i, err)))
            return rc;
        if (paint_long(g, g->t24[i] & ~GALE_LONG_FLAG, a & 0xFF, 1u << (32 - l), l, 0xFF, l, nh))
            return oom(err);
    }
    return lpm_ref_add(g->shadow, p, nh) ? oom(err) : LPM_OK;
}

int lpm_gale_delete(lpm_gale *g, const lpm_prefix *p, lpm_err *err)
{
    int rc = checked(p, err);
    if (rc)
        return rc;
    if (lpm_ref_get(g->shadow, p) == LPM_NH_NONE)
        return LPM_OK;
    lpm_ref_del(g->shadow, p);
    unsigned l = p->len, rl = 0;
    uint32_t rnh = LPM_NH_NONE;
    for (int j = (int)l - 1; j >= 0; j--) {
        lpm_prefix q = *p;
        q.len = (uint8_t)j;
        q.addr = lpm_addr_mask(&p->addr, (unsigned)j);
        if ((rnh = lpm_ref_get(g->shadow, &q)) != LPM_NH_NONE) {
            rl = (unsigned)j;
            break;
        }
    }
    uint32_t a = lpm_addr_to_v4(&p->addr);
    if (l <= 24)
        rc = paint(g, a >> 8, 1u << (24 - l), 0xFF, l, rl, rnh);
    else if (g->t24[a >> 8] & GALE_LONG_FLAG) /* lazy: blocks stay */
        rc = paint_long(g, g->t24[a >> 8] & ~GALE_LONG_FLAG, a & 0xFF, 1u << (32 - l), 0xFF, l, rl, rnh);
    return rc ? oom(err) : LPM_OK;
}

static int upload(lpm_gale *g, lpm_err *err)
{
    g->devcap = g->nblocks + g->nblocks / 10 + 64;
    if (g->devcap > GALE_MAX_BLOCKS)
        g->devcap = GALE_MAX_BLOCKS;
    g->nwb24 = g->nwbl = 0;
    memset(g->dirty24, 0, N24 / 8);
    if (g->dirtyl)
        memset(g->dirtyl, 0, (size_t)g->hostcap * 256 / 8);
    g->reuploads++;
    return g->sink.upload(g->sink.ctx, g->t24, g->tl, g->nblocks, g->devcap, err);
}

int lpm_gale_reupload(lpm_gale *g, lpm_err *err)
{
    return upload(g, err);
}

int lpm_gale_build(lpm_gale *g, const lpm_fib *f, const lpm_gale_sink *sink, lpm_err *err)
{
    memset(g, 0, sizeof *g);
    if (f->family != LPM_AF_INET)
        return lpm_err_set(err, LPM_EINPUT, "GALE: IPv4 only (DIR-24-8)");
    if (f->nh.n > GALE_NH_MAX)
        return lpm_err_set(err, LPM_EINPUT, "GALE: too many next hops (%zu)", f->nh.n);
    g->sink = *sink;
    g->building = 1;
    g->t24 = malloc((size_t)N24 * 4);
    g->len24 = calloc(N24, 1);
    g->dirty24 = calloc(N24 / 64, 8);
    g->shadow = lpm_ref_new(LPM_AF_INET);
    int rc = LPM_OK;
    if (!g->t24 || !g->len24 || !g->dirty24 || !g->shadow)
        rc = oom(err);
    for (uint32_t i = 0; rc == LPM_OK && i < N24; i++)
        g->t24[i] = GALE_NH_NONE;
    for (size_t i = 0; rc == LPM_OK && i < f->n; i++)
        rc = lpm_gale_insert(g, &f->routes[i].pfx, f->routes[i].nh, err);
    g->building = 0;
    if (rc == LPM_OK)
        rc = upload(g, err);
    g->reuploads = 0;
    if (rc)
        lpm_gale_free(g);
    return rc;
}

void lpm_gale_free(lpm_gale *g)
{
    free(g->t24);
    free(g->len24);
    free(g->tl);
    free(g->lenl);
    free(g->dirty24);
    free(g->dirtyl);
    free(g->wb24);
    free(g->wbl);
    lpm_ref_free(g->shadow);
    memset(g, 0, sizeof *g);
}

size_t lpm_gale_pending(const lpm_gale *g)
{
    return g->nwb24 + g->nwbl;
}

size_t lpm_gale_prepare(lpm_gale *g, lpm_gale_bubble *out, size_t max)
{
    size_t n = 0;
    while (g->nwbl > 0 && n < max) {
        uint32_t j = lpm_wb_pop(g->dirtyl, g->wbl, &g->nwbl);
        out[n].where = GALE_BUBBLE_LONG | j;
        out[n++].value = g->tl[j];
    }
    while (g->nwb24 > 0 && n < max) {
        uint32_t i = lpm_wb_pop(g->dirty24, g->wb24, &g->nwb24);
        out[n].where = i;
        out[n++].value = g->t24[i];
    }
    return n;
}

int lpm_gale_flush(lpm_gale *g, size_t batch, lpm_err *err)
{
    if (g->nblocks > g->devcap) /* the copy's long table is full: send it whole */
        return upload(g, err);
    size_t pend = lpm_gale_pending(g);
    if (pend == 0)
        return LPM_OK;
    if (batch == 0)
        batch = 1;
    size_t cap = pend < batch ? pend : batch, n;
    lpm_gale_bubble *b = malloc(cap * sizeof *b);
    if (!b)
        return oom(err);
    int rc = LPM_OK;
    while (rc == LPM_OK && (n = lpm_gale_prepare(g, b, cap)) > 0) {
        rc = g->sink.apply(g->sink.ctx, b, n, err);
        g->bubbles_sent += n;
        g->batches_sent++;
    }
    free(b);
    return rc;
}

size_t lpm_gale_copy_bytes(const lpm_gale *g)
{
    return (size_t)N24 * 4 + (size_t)g->devcap * 256 * 4;
}
