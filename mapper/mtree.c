#include "mtree.h"

#include <stdlib.h>
#include <string.h>

int lpm_mtree_init(lpm_mtree *t, unsigned x, unsigned key_bits, const uint8_t *sd,
                   unsigned nlev, lpm_err *err)
{
    memset(t, 0, sizeof *t);
    if (nlev > LPM_MT_MAX_LEVELS)
        return lpm_err_set(err, LPM_EINPUT, "%u block levels exceed %d", nlev, LPM_MT_MAX_LEVELS);
    t->x = x;
    t->key_bits = key_bits;
    t->nlev = nlev;
    memcpy(t->sd, sd, nlev);
    t->dit = calloc((size_t)1 << x, sizeof *t->dit);
    if (!t->dit)
        return lpm_err_set(err, LPM_EFAIL, "out of memory (direct index table of 2^%u)", x);
    return LPM_OK;
}

void lpm_mtree_free(lpm_mtree *t)
{
    free(t->dit);
    free(t->b);
    free(t->e);
    memset(t, 0, sizeof *t);
}

static uint32_t new_block(lpm_mtree *t, uint32_t parent, uint32_t root, unsigned level, lpm_err *err)
{
    unsigned k = t->sd[level];
    if (t->nb == t->capb) {
        size_t c = t->capb ? t->capb * 2 : 1024;
        lpm_mt_block *q = realloc(t->b, c * sizeof *q);
        if (!q)
            return (uint32_t)lpm_err_set(err, LPM_EFAIL, "out of memory (blocks)"), 0;
        t->b = q;
        t->capb = c;
    }
    size_t need = t->ne + ((size_t)1 << k);
    if (need > t->cape) {
        size_t c = t->cape ? t->cape : 4096;
        while (c < need)
            c *= 2;
        lpm_mt_entry *q = realloc(t->e, c * sizeof *q);
        if (!q)
            return (uint32_t)lpm_err_set(err, LPM_EFAIL, "out of memory (entries)"), 0;
        t->e = q;
        t->cape = c;
    }
    if (t->nb >= UINT32_MAX - 1 || t->ne + ((size_t)1 << k) >= UINT32_MAX) {
        lpm_err_set(err, LPM_EFAIL, "trie too large");
        return 0;
    }
    lpm_mt_block *b = &t->b[t->nb];
    memset(b, 0, sizeof *b);
    b->first = (uint32_t)t->ne;
    b->parent = parent;
    b->root = root;
    b->level = (uint8_t)level;
    b->k = (uint8_t)k;
    for (size_t i = 0; i < ((size_t)1 << k); i++) {
        t->e[t->ne + i].child = 0;
        t->e[t->ne + i].nh = LPM_NH_NONE;
        t->e[t->ne + i].plen = 0;
    }
    t->ne += (size_t)1 << k;
    return (uint32_t)++t->nb;
}

static void expand(lpm_mt_entry *e, size_t first, size_t count, unsigned len, uint32_t nh)
{
    for (size_t i = first; i < first + count; i++)
        if (e[i].plen <= len) {
            e[i].plen = (uint8_t)(len + 1);
            e[i].nh = nh;
        }
}

int lpm_mtree_insert(lpm_mtree *t, const lpm_prefix *p, uint32_t nh, lpm_err *err)
{
    unsigned L = p->len, x = t->x;
    const lpm_addr *a = &p->addr;
    if (L <= x) {
        size_t first = (size_t)lpm_addr_bits(a, 0, L) << (x - L);
        expand(t->dit, first, (size_t)1 << (x - L), L, nh);
        return LPM_OK;
    }
    uint32_t root = (uint32_t)lpm_addr_bits(a, 0, x);
    uint32_t blk = t->dit[root].child;
    if (!blk) {
        if (!(blk = new_block(t, 0, root, 0, err)))
            return LPM_EFAIL;
        t->dit[root].child = blk;
    }
    unsigned b = x, lev = 0;
    for (;;) {
        unsigned k = t->sd[lev];
        size_t first = t->b[blk - 1].first;
        if (L <= b + k) {
            expand(t->e, first + ((size_t)lpm_addr_bits(a, b, L - b) << (b + k - L)),
                   (size_t)1 << (b + k - L), L, nh);
            return LPM_OK;
        }
        size_t j = first + lpm_addr_bits(a, b, k);
        uint32_t c = t->e[j].child;
        if (!c) {
            if (lev + 1 >= t->nlev)
                return lpm_err_set(err, LPM_EINPUT, "prefix /%u is deeper than the %u levels of strides", L, t->nlev);
            if (!(c = new_block(t, blk, root, lev + 1, err)))
                return LPM_EFAIL;
            t->e[j].child = c;
        }
        blk = c;
        b += k;
        lev++;
    }
}

int lpm_mtree_build(lpm_mtree *t, const lpm_fib *f, lpm_err *err)
{
    for (size_t i = 0; i < f->n; i++) {
        int rc = lpm_mtree_insert(t, &f->routes[i].pfx, f->routes[i].nh, err);
        if (rc)
            return rc;
    }
    lpm_mtree_heights(t);
    return LPM_OK;
}

void lpm_mtree_heights(lpm_mtree *t)
{
    for (size_t i = 0; i < t->nb; i++)
        t->b[i].height = 0;
    for (size_t i = t->nb; i-- > 0;) {
        uint32_t p = t->b[i].parent;
        if (p && t->b[p - 1].height < t->b[i].height + 1)
            t->b[p - 1].height = (uint16_t)(t->b[i].height + 1);
    }
}

void lpm_depth_profile(const lpm_fib *f, uint64_t prof[129])
{
    memset(prof, 0, 129 * sizeof *prof);
    unsigned maxlen = 0;
    for (size_t i = 0; i < f->n; i++)
        if (f->routes[i].pfx.len > maxlen)
            maxlen = f->routes[i].pfx.len;
    for (unsigned d = 0; d < maxlen; d++) {
        lpm_addr last = { 0, 0 };
        int have = 0;
        for (size_t i = 0; i < f->n; i++) {
            if (f->routes[i].pfx.len <= d)
                continue;
            lpm_addr m = lpm_addr_mask(&f->routes[i].pfx.addr, d);
            if (!have || !lpm_addr_eq(&m, &last)) {
                prof[d]++;
                last = m;
                have = 1;
            }
        }
    }
}
