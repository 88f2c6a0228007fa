/* Multibit trie by controlled prefix expansion. Each level keeps two
 * parallel arrays over the same slots: the control entries (child, the
 * node's own best prefix, its length) that updates reason about, and one
 * 32-bit lookup word per slot, leaf-pushed, that lookups read. The shadow
 * unibit trie holds the original prefixes so a delete can restore the
 * next-longest covering prefix. */
#include <stdlib.h>
#include <string.h>

#include "trie_multibit.h"

static inline uint32_t enc(uint32_t nh)
{
    return nh == LPM_NH_NONE ? LPM_MW_NONE : nh;
}

static inline uint32_t own_word(const lpm_mentry *e, uint32_t inh)
{
    return e->nh != LPM_NH_NONE ? enc(e->nh) : inh;
}

/* Room for `nodes` nodes in all (a build knows how many it will make). */
static int level_reserve(lpm_mlevel *L, unsigned s, size_t nodes)
{
    if (nodes <= L->cap)
        return 0;
    if (nodes > (size_t)LPM_MW_NONE)
        return -1;
    lpm_mentry *e = realloc(L->e, (nodes << s) * sizeof *e);
    if (!e)
        return -1;
    L->e = e;
    uint32_t *w = realloc(L->w, (nodes << s) * sizeof *w);
    if (!w)
        return -1;
    L->w = w;
    L->cap = nodes;
    return 0;
}

/* A fresh node at level i whose slots all inherit `inh`; returns its index
 * or UINT32_MAX on no memory. */
static uint32_t node_new(lpm_mlevel *L, unsigned s, uint32_t inh)
{
    uint32_t n;
    if (L->free_head) {
        n = L->free_head - 1;
        L->free_head = L->e[(size_t)n << s].child;
    } else {
        if (L->nodes == L->cap && level_reserve(L, s, L->cap ? L->cap * 2 : 16))
            return UINT32_MAX;
        n = (uint32_t)L->nodes++;
    }
    size_t base = (size_t)n << s, cnt = (size_t)1 << s;
    for (size_t k = 0; k < cnt; k++) {
        L->e[base + k] = (lpm_mentry){ 0, LPM_NH_NONE, 0 };
        L->w[base + k] = inh;
    }
    L->live++;
    return n;
}

static void node_free(lpm_mlevel *L, unsigned s, uint32_t n)
{
    L->e[(size_t)n << s].child = L->free_head;
    L->free_head = n + 1;
    L->live--;
}

static void push_down(lpm_multibit *m, unsigned i, uint32_t n, uint32_t v);

/* The pushed value of slot `slot` of level i becomes v: a leaf slot shows
 * it, a slot with a child hands it to the child's slots without their own. */
static void set_pushed(lpm_multibit *m, unsigned i, size_t slot, uint32_t v)
{
    lpm_mlevel *L = &m->level[i];
    if (L->e[slot].child)
        push_down(m, i + 1, L->e[slot].child - 1, v);
    else
        L->w[slot] = v;
}

static void push_down(lpm_multibit *m, unsigned i, uint32_t n, uint32_t v)
{
    lpm_mlevel *L = &m->level[i];
    unsigned s = m->st.stride[i];
    size_t base = (size_t)n << s, cnt = (size_t)1 << s;
    for (size_t k = 0; k < cnt; k++)
        if (L->e[base + k].nh == LPM_NH_NONE)
            set_pushed(m, i, base + k, v);
}

static int check_prefix(const lpm_multibit *m, const lpm_prefix *p, lpm_err *err)
{
    if (p->family != m->family)
        return lpm_err_set(err, LPM_EINPUT, "IPv%d prefix in an IPv%d trie", p->family, m->family);
    if (p->len > m->offset[m->st.levels]) {
        char pb[LPM_ADDR_STRLEN + 8], sb[4 * LPM_MAX_LEVELS];
        lpm_prefix_format(p, pb, sizeof pb);
        lpm_strides_format(&m->st, sb, sizeof sb);
        return lpm_err_set(err, LPM_EINPUT,
                           "prefix %s is longer than the strides %s cover (%u bits)",
                           pb, sb, m->offset[m->st.levels]);
    }
    return LPM_OK;
}

/* Expands p into the trie (the shadow is the caller's business). */
static int mb_set(lpm_multibit *m, const lpm_prefix *p, uint32_t nh, lpm_err *err)
{
    uint32_t n = 0, inh = LPM_MW_NONE;
    unsigned len = p->len;
    for (unsigned i = 0;; i++) {
        lpm_mlevel *L = &m->level[i];
        unsigned off = m->offset[i], s = m->st.stride[i];
        size_t base = (size_t)n << s;
        if (len <= off + s) {
            unsigned r = len - off;
            size_t first = base + ((size_t)lpm_addr_bits(&p->addr, off, r) << (s - r));
            size_t cnt = (size_t)1 << (s - r);
            for (size_t k = first; k < first + cnt; k++) {
                lpm_mentry *e = &L->e[k];
                if (e->nh == LPM_NH_NONE || e->len <= len) {
                    e->nh = nh;
                    e->len = (uint8_t)len;
                    set_pushed(m, i, k, enc(nh));
                }
            }
            return LPM_OK;
        }
        size_t slot = base + (size_t)lpm_addr_bits(&p->addr, off, s);
        inh = own_word(&L->e[slot], inh);
        if (!L->e[slot].child) {
            uint32_t c = node_new(&m->level[i + 1], m->st.stride[i + 1], inh);
            if (c == UINT32_MAX)
                return lpm_err_set(err, LPM_EFAIL, "multibit trie: out of memory at level %u", i + 1);
            L = &m->level[i]; /* unchanged, but keep it obvious */
            L->e[slot].child = c + 1;
            L->w[slot] = LPM_MW_CHILD | c;
        }
        n = L->e[slot].child - 1;
    }
}

static int mb_init(lpm_multibit *m, int family, const lpm_strides *st, lpm_err *err)
{
    memset(m, 0, sizeof *m);
    if (family != LPM_AF_INET && family != LPM_AF_INET6)
        return lpm_err_set(err, LPM_EINPUT, "multibit trie: unknown family %d", family);
    unsigned v[LPM_MAX_LEVELS];
    for (unsigned i = 0; i < st->levels && i < LPM_MAX_LEVELS; i++)
        v[i] = st->stride[i];
    int rc = lpm_strides_fixed(family, v, st->levels, &m->st, err);
    if (rc)
        return rc;
    m->family = family;
    for (unsigned i = 0; i < st->levels; i++)
        m->offset[i + 1] = m->offset[i] + st->stride[i];
    if (node_new(&m->level[0], st->stride[0], LPM_MW_NONE) == UINT32_MAX)
        return lpm_err_set(err, LPM_EFAIL, "multibit trie: out of memory");
    return LPM_OK;
}

int lpm_multibit_build_with(lpm_multibit *m, const lpm_fib *f, const lpm_strides *st,
                            lpm_unibit *shadow, lpm_err *err)
{
    int family = f->family ? f->family : shadow->family;
    int rc = mb_init(m, family, st, err);
    if (rc) {
        lpm_unibit_free(shadow);
        return rc;
    }
    m->shadow = *shadow;
    memset(shadow, 0, sizeof *shadow);
    for (size_t i = 0; i < f->n && !rc; i++) {
        const lpm_route *r = &f->routes[i];
        if (!(rc = check_prefix(m, &r->pfx, err)) && r->nh >= LPM_MW_NONE)
            rc = lpm_err_set(err, LPM_EINPUT, "multibit trie: next-hop index %u does not fit in 31 bits", r->nh);
    }
    /* The shadow says exactly how many nodes each level will hold. */
    uint64_t counts[129];
    lpm_strides_node_counts(&m->shadow, counts);
    for (unsigned i = 1; i < m->st.levels && !rc; i++)
        if (level_reserve(&m->level[i], m->st.stride[i], (size_t)counts[m->offset[i]]))
            rc = lpm_err_set(err, LPM_EFAIL, "multibit trie: out of memory for %llu nodes at level %u",
                             (unsigned long long)counts[m->offset[i]], i);
    /* The FIB is sorted by (address, length), so a prefix arrives after
     * every prefix covering it and before every prefix it covers: no
     * expansion ever has to push down into an existing child here. */
    for (size_t i = 0; i < f->n && !rc; i++)
        rc = mb_set(m, &f->routes[i].pfx, f->routes[i].nh, err);
    if (rc)
        lpm_multibit_free(m);
    return rc;
}

int lpm_multibit_build(lpm_multibit *m, const lpm_fib *f, const lpm_strides *st, lpm_err *err)
{
    lpm_unibit u;
    memset(m, 0, sizeof *m);
    int rc = lpm_unibit_build(&u, f, err);
    if (rc)
        return rc;
    return lpm_multibit_build_with(m, f, st, &u, err);
}

void lpm_multibit_free(lpm_multibit *m)
{
    for (unsigned i = 0; i < LPM_MAX_LEVELS; i++) {
        free(m->level[i].e);
        free(m->level[i].w);
    }
    lpm_unibit_free(&m->shadow);
    memset(m, 0, sizeof *m);
}

int lpm_multibit_insert(lpm_multibit *m, const lpm_prefix *p, uint32_t nh, lpm_err *err)
{
    int rc = check_prefix(m, p, err);
    if (rc)
        return rc;
    if (nh >= LPM_MW_NONE)
        return lpm_err_set(err, LPM_EINPUT, "multibit trie: next-hop index %u does not fit in 31 bits", nh);
    if ((rc = lpm_unibit_insert(&m->shadow, p, nh, err)))
        return rc;
    return mb_set(m, p, nh, err);
}

/* Longest prefix in the shadow that covers p with length in [lo, p->len). */
static const lpm_unode *covering(const lpm_unibit *t, const lpm_prefix *p, unsigned lo, unsigned *qlen)
{
    const lpm_unode *best = NULL;
    if (!t->node || t->n == 0)
        return NULL;
    uint32_t idx = 0;
    for (unsigned d = 0; d < p->len; d++) {
        const lpm_unode *u = &t->node[idx];
        if (d >= lo && u->nh != LPM_NH_NONE) {
            best = u;
            *qlen = d;
        }
        idx = u->child[lpm_addr_bit(&p->addr, d)];
        if (!idx)
            break;
    }
    return best;
}

static int node_empty(const lpm_mlevel *L, unsigned s, uint32_t n)
{
    size_t base = (size_t)n << s, cnt = (size_t)1 << s;
    for (size_t k = 0; k < cnt; k++)
        if (L->e[base + k].nh != LPM_NH_NONE || L->e[base + k].child)
            return 0;
    return 1;
}

int lpm_multibit_delete(lpm_multibit *m, const lpm_prefix *p, lpm_err *err)
{
    int rc = check_prefix(m, p, err);
    if (rc)
        return rc;
    if ((rc = lpm_unibit_delete(&m->shadow, p, err)))
        return rc;
    uint32_t node[LPM_MAX_LEVELS], inh[LPM_MAX_LEVELS];
    size_t slot[LPM_MAX_LEVELS];
    unsigned i = 0, len = p->len;
    node[0] = 0;
    inh[0] = LPM_MW_NONE;
    for (;; i++) {
        unsigned off = m->offset[i], s = m->st.stride[i];
        if (len <= off + s)
            break;
        lpm_mlevel *L = &m->level[i];
        slot[i] = ((size_t)node[i] << s) + (size_t)lpm_addr_bits(&p->addr, off, s);
        if (!L->e[slot[i]].child)
            return lpm_err_set(err, LPM_EFAIL, "multibit trie: prefix in the shadow but not in the trie");
        node[i + 1] = L->e[slot[i]].child - 1;
        inh[i + 1] = own_word(&L->e[slot[i]], inh[i]);
    }
    /* Slots the prefix held get the next-longest prefix of this node's
     * range covering it (the same one for all of them), or what the node
     * inherits from above. */
    lpm_mlevel *L = &m->level[i];
    unsigned off = m->offset[i], s = m->st.stride[i], r = len - off, qlen = 0;
    const lpm_unode *q = covering(&m->shadow, p, i ? off + 1 : 0, &qlen);
    uint32_t qnh = q ? q->nh : LPM_NH_NONE, v = q ? enc(q->nh) : inh[i];
    size_t first = ((size_t)node[i] << s) + ((size_t)lpm_addr_bits(&p->addr, off, r) << (s - r));
    size_t cnt = (size_t)1 << (s - r);
    for (size_t k = first; k < first + cnt; k++) {
        lpm_mentry *e = &L->e[k];
        if (e->nh != LPM_NH_NONE && e->len == len) {
            e->nh = qnh;
            e->len = (uint8_t)qlen;
            set_pushed(m, i, k, v);
        }
    }
    /* Nodes left with no prefix and no child go, bottom up. */
    while (i > 0 && node_empty(&m->level[i], m->st.stride[i], node[i])) {
        node_free(&m->level[i], m->st.stride[i], node[i]);
        lpm_mlevel *P = &m->level[i - 1];
        P->e[slot[i - 1]].child = 0;
        P->w[slot[i - 1]] = own_word(&P->e[slot[i - 1]], inh[i - 1]);
        i--;
    }
    return LPM_OK;
}

static inline uint32_t decode(uint32_t w)
{
    return w == LPM_MW_NONE ? LPM_NH_NONE : w;
}

uint32_t lpm_multibit_lookup(const lpm_multibit *m, const lpm_addr *a)
{
    const lpm_mlevel *L = m->level;
    const uint8_t *st = m->st.stride;
    uint32_t w;
    if (m->family == LPM_AF_INET) {
        uint32_t v = (uint32_t)(a->hi >> 32);
        w = L[0].w[v >> (32 - st[0])];
        for (unsigned i = 1; w & LPM_MW_CHILD; i++) {
            uint32_t k = (v << m->offset[i]) >> (32 - st[i]);
            w = L[i].w[((size_t)(w & ~LPM_MW_CHILD) << st[i]) | k];
        }
    } else {
        w = L[0].w[lpm_addr_bits(a, 0, st[0])];
        for (unsigned i = 1; w & LPM_MW_CHILD; i++)
            w = L[i].w[((size_t)(w & ~LPM_MW_CHILD) << st[i]) | lpm_addr_bits(a, m->offset[i], st[i])];
    }
    return decode(w);
}

#ifndef BATCH
#define BATCH 32 /* addresses in flight per group */
#endif

void lpm_multibit_lookup_batch(const lpm_multibit *m, const lpm_addr *a, uint32_t *nh, size_t n)
{
    const lpm_mlevel *L = m->level;
    const uint8_t *st = m->st.stride;
    uint32_t w[BATCH];
    for (size_t b = 0; b < n; b += BATCH) {
        size_t g = n - b < BATCH ? n - b : BATCH;
        const lpm_addr *x = a + b;
        /* One level at a time over the whole group: first every address's
         * slot is computed and prefetched, then read, so the cache misses
         * of the group overlap instead of queueing one after another. */
        if (m->family == LPM_AF_INET) {
            unsigned s0 = 32 - st[0];
            for (size_t j = 0; j < g; j++)
                w[j] = L[0].w[(uint32_t)(x[j].hi >> 32) >> s0];
            for (unsigned i = 1; i < m->st.levels; i++) {
                unsigned off = m->offset[i], sh = 32 - st[i], s = st[i];
                const uint32_t *wi = L[i].w;
                size_t idx[BATCH];
                int more = 0;
                for (size_t j = 0; j < g; j++)
                    if (w[j] & LPM_MW_CHILD) {
                        uint32_t k = ((uint32_t)(x[j].hi >> 32) << off) >> sh;
                        idx[j] = ((size_t)(w[j] & ~LPM_MW_CHILD) << s) | k;
                        __builtin_prefetch(&wi[idx[j]]);
                        more = 1;
                    }
                if (!more)
                    break;
                for (size_t j = 0; j < g; j++)
                    if (w[j] & LPM_MW_CHILD)
                        w[j] = wi[idx[j]];
            }
        } else {
            for (size_t j = 0; j < g; j++)
                w[j] = L[0].w[lpm_addr_bits(&x[j], 0, st[0])];
            for (unsigned i = 1; i < m->st.levels; i++) {
                unsigned off = m->offset[i], s = st[i];
                const uint32_t *wi = L[i].w;
                size_t idx[BATCH];
                int more = 0;
                for (size_t j = 0; j < g; j++)
                    if (w[j] & LPM_MW_CHILD) {
                        idx[j] = ((size_t)(w[j] & ~LPM_MW_CHILD) << s) | lpm_addr_bits(&x[j], off, s);
                        __builtin_prefetch(&wi[idx[j]]);
                        more = 1;
                    }
                if (!more)
                    break;
                for (size_t j = 0; j < g; j++)
                    if (w[j] & LPM_MW_CHILD)
                        w[j] = wi[idx[j]];
            }
        }
        for (size_t j = 0; j < g; j++)
            nh[b + j] = decode(w[j]);
    }
}

void lpm_multibit_stats(const lpm_multibit *m, lpm_mlevel_stats *per_level, size_t *total_bytes)
{
    size_t total = 0;
    for (unsigned i = 0; i < m->st.levels; i++) {
        lpm_mlevel_stats s;
        s.nodes = m->level[i].live;
        s.entries = s.nodes << m->st.stride[i];
        s.bytes = s.entries * sizeof(uint32_t);
        total += s.bytes;
        if (per_level)
            per_level[i] = s;
    }
    if (total_bytes)
        *total_bytes = total;
}
