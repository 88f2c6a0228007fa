/* Building and updating the poptrie (poptrie.h) from its control-plane
 * trie. One routine does both: a node is recomputed from the binary trie
 * below it; a child that the change cannot reach is kept as it is (its
 * 24-byte node copied when its parent's child array moves, its own
 * children and leaves untouched), so an update rewrites only the nodes on
 * the changed prefix's path and those whose inherited next hop changed.
 * Blocks of nodes and of leaves are reused through free lists by size. */
#include "poptrie.h"

#include <stdlib.h>
#include <string.h>

#include "../core/hugemem.h"
#include "../core/nhtab.h"

#define NODE_BYTES sizeof(lpm_pt_node)
_Static_assert(sizeof(lpm_pt_node) == 64, "a node is one cache line");

/* ---- pools ---- */

/* Pools live in memory backed by transparent huge pages where the kernel
 * offers them: a full table's few MiB of nodes then take a handful of TLB
 * entries instead of a thousand. */
static int grow(void **p, uint32_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return LPM_OK;
    size_t c = *cap ? (size_t)*cap * 2 : 1024;
    while (c < need)
        c *= 2;
    if (c > 0x7FFFFFFFu)
        c = 0x7FFFFFFFu;
    if (c < need)
        return LPM_EFAIL;
    void *t = lpm_huge_alloc(c * elem);
    if (!t)
        return LPM_EFAIL;
    if (*p)
        memcpy(t, *p, (size_t)*cap * elem);
    lpm_huge_free(*p, (size_t)*cap * elem);
    *p = t;
    *cap = (uint32_t)c;
    return LPM_OK;
}

/* k contiguous nodes (1..1024); UINT32_MAX when out of memory. The pools
 * keep one spare element at the end: the AVX-512 batch reads a 16-bit
 * leaf as the low half of a 32-bit word. */
static uint32_t nodes_alloc(lpm_poptrie *t, unsigned k)
{
    uint32_t i = t->nfree[k];
    if (i) {
        t->nfree[k] = t->nodes[i].base1;
        t->nfree_elems -= k;
        return i;
    }
    if (grow((void **)&t->nodes, &t->ncap, (size_t)t->nused + k + 1, NODE_BYTES))
        return UINT32_MAX;
    i = t->nused;
    t->nused += k;
    return i;
}

static void nodes_release(lpm_poptrie *t, uint32_t i, unsigned k)
{
    t->nodes[i].base1 = t->nfree[k];
    t->nfree[k] = i;
    t->nfree_elems += k;
    t->h.cost.nodes_freed += k;
}

/* Free blocks of leaves are chained through their first 4 bytes: 16-bit
 * blocks are allocated in pairs of leaves. */
static unsigned leaf_block(const lpm_poptrie *t, unsigned k)
{
    return t->lw == 2 ? (k + 1) & ~1u : k;
}

static uint32_t *leaf_link(lpm_poptrie *t, uint32_t i)
{
    return (uint32_t *)((char *)t->leaves + (size_t)i * t->lw);
}

static uint32_t leaves_alloc(lpm_poptrie *t, unsigned k)
{
    k = leaf_block(t, k);
    uint32_t i = t->lfree[k];
    if (i) {
        t->lfree[k] = *leaf_link(t, i);
        t->lfree_elems -= k;
        return i;
    }
    if (grow(&t->leaves, &t->lcap, (size_t)t->lused + k + 2, t->lw))
        return UINT32_MAX;
    i = t->lused;
    t->lused += k;
    return i;
}

static void leaves_release(lpm_poptrie *t, uint32_t i, unsigned k)
{
    if (!k)
        return;
    k = leaf_block(t, k);
    *leaf_link(t, i) = t->lfree[k];
    t->lfree[k] = i;
    t->lfree_elems += k;
}

/* IPv4 runs (mleaf, lw bytes each): blocks of 2..32 direct entries, free
 * blocks chained through their first 4 bytes; index 0 is the pad. */
static void *run_at(const lpm_poptrie *t, uint32_t i)
{
    return (char *)t->mleaf + (size_t)i * t->lw;
}

static uint32_t runs_alloc(lpm_poptrie *t, unsigned k)
{
    uint32_t i = t->mfree[k];
    if (i) {
        memcpy(&t->mfree[k], run_at(t, i), sizeof i);
        t->mfree_elems -= k;
        return i;
    }
    if (grow(&t->mleaf, &t->mcap, (size_t)t->mused + (k < 2 ? 2 : k), t->lw))
        return UINT32_MAX;
    i = t->mused;
    t->mused += k;
    return i;
}

static void runs_release(lpm_poptrie *t, uint32_t i, unsigned k)
{
    memcpy(run_at(t, i), &t->mfree[k], sizeof i);
    t->mfree[k] = i;
    t->mfree_elems += k;
}

#define MID_N ((size_t)1 << LPM_PT_MID_BITS)
#define TOP_N ((size_t)1 << 16)

int lpm_pt_init(lpm_poptrie *t, int family, unsigned lw, lpm_err *err)
{
    t->family = family;
    t->lw = lw;
    t->inl = LPM_PT_LEAF_BYTES / lw;
    t->s = family == LPM_AF_INET ? LPM_PT_S4 : LPM_PT_S6;
    t->k = family == LPM_AF_INET ? 6 : 8;
    t->seg = 1u << (t->k - 6);
    if (family == LPM_AF_INET) {
        t->mid = lpm_huge_alloc(MID_N * sizeof *t->mid);
        if (!t->mid || runs_alloc(t, 1) != 0)
            return lpm_err_set(err, LPM_EFAIL, "out of memory");
    } else {
        t->dir = lpm_huge_alloc(((size_t)1 << t->s) * sizeof *t->dir);
        t->top = lpm_huge_alloc(TOP_N * sizeof *t->top);
        if (!t->dir || !t->top)
            return lpm_err_set(err, LPM_EFAIL, "out of memory");
    }
    /* leaves[0] is a pad, so an empty external block (index 0) is never
     * a real one. */
    if ((!t->rib.n && lpm_ptrib_init(&t->rib)) || leaves_alloc(t, 1) != 0 || nodes_alloc(t, 1) != 0)
        return lpm_err_set(err, LPM_EFAIL, "out of memory");
    /* Node 0 is a blank that the IPv4 batch reads for lookups the direct
     * array answers (instead of branching around the node step). */
    memset(&t->nodes[0], 0, sizeof t->nodes[0]);
    return LPM_OK;
}

void lpm_pt_release_lookup(lpm_poptrie *t)
{
    if (t->dir)
        lpm_huge_free(t->dir, ((size_t)1 << t->s) * sizeof *t->dir);
    if (t->mid)
        lpm_huge_free(t->mid, MID_N * sizeof *t->mid);
    lpm_huge_free(t->mleaf, (size_t)t->mcap * t->lw);
    t->mid = NULL;
    t->mleaf = NULL;
    t->mused = t->mcap = 0;
    memset(t->mfree, 0, sizeof t->mfree);
    t->mfree_elems = 0;
    if (t->top)
        lpm_huge_free(t->top, TOP_N * sizeof *t->top);
    t->top = NULL;
    lpm_huge_free(t->nodes, (size_t)t->ncap * sizeof *t->nodes);
    lpm_huge_free(t->leaves, (size_t)t->lcap * t->lw);
    t->dir = NULL;
    t->nodes = NULL;
    t->leaves = NULL;
    t->nused = t->ncap = t->lused = t->lcap = 0;
    memset(t->nfree, 0, sizeof t->nfree);
    memset(t->lfree, 0, sizeof t->lfree);
    t->nfree_elems = t->lfree_elems = 0;
}

void lpm_pt_release(lpm_poptrie *t)
{
    lpm_pt_release_lookup(t);
    lpm_ptrib_free(&t->rib);
}

/* ---- recomputing nodes ---- */

#define MAXP 256   /* positions of a level node (k <= 8) */

/* The positions of a level node at offset o: the longest prefix of length
 * <= o + k over each (next hop and length) and the trie node at depth
 * o + k (LPM_PTRIB_NIL when none). */
typedef struct pt_scan {
    uint32_t nh[MAXP];
    int16_t blen[MAXP];
    uint32_t rib[MAXP];
} pt_scan;

static void scan(const lpm_ptrib *rb, uint32_t r, unsigned d, unsigned k, unsigned pos, uint32_t nh, int blen,
                 unsigned o, pt_scan *out)
{
    if (r == LPM_PTRIB_NIL) {
        unsigned w = k - d;
        for (unsigned j = pos << w; j < (pos + 1) << w; j++) {
            out->nh[j] = nh;
            out->blen[j] = (int16_t)blen;
            out->rib[j] = LPM_PTRIB_NIL;
        }
        return;
    }
    if (d > 0 && rb->n[r].nh != LPM_NH_NONE) {
        nh = rb->n[r].nh;
        blen = (int)(o + d);
    }
    if (d == k) {
        out->nh[pos] = nh;
        out->blen[pos] = (int16_t)blen;
        out->rib[pos] = r;
        return;
    }
    for (unsigned b = 0; b < 2; b++) {
        uint32_t c = rb->n[r].child[b];
        scan(rb, c ? c : LPM_PTRIB_NIL, d + 1, k, pos * 2 + b, nh, blen, o, out);
    }
}

/* Rank of position j among the set bits of v (0-based). */
static unsigned rank(uint64_t v, unsigned j)
{
    return (unsigned)__builtin_popcountll(v & ((1ULL << j) - 1));
}

/* Can the change reach the child at position j of a level node at o? */
static int reaches(const lpm_pt_change *ch, unsigned o, unsigned k, unsigned j, const pt_scan *sc)
{
    if (!ch)
        return 1;
    if (ch->len > o + k)
        return j == (unsigned)lpm_addr_bits(&ch->key, o, k);
    /* The prefix covers position j: the child's inherited next hop changed
     * unless a longer prefix (still <= o + k) covers it too. */
    if (ch->len > o && (j >> (o + k - ch->len)) != lpm_addr_bits(&ch->key, o, ch->len - o))
        return 0;
    return sc->blen[j] <= (int)ch->len;
}

/* Leaves a node keeps in the external array. */
static unsigned ext_leaves(const lpm_poptrie *t, const lpm_pt_node *n)
{
    unsigned nl = (unsigned)__builtin_popcountll(n->leafvec);
    return nl > t->inl ? nl - t->inl : 0;
}

/* Children of the level node whose 64-position nodes are n[0..seg). */
static unsigned children(const lpm_pt_node *n, unsigned seg)
{
    unsigned c = 0;
    for (unsigned q = 0; q < seg; q++)
        c += (unsigned)__builtin_popcountll(n[q].vec);
    return c;
}

static void free_subtree(lpm_poptrie *t, uint32_t slot)
{
    unsigned seg = t->seg, nc = children(&t->nodes[slot], seg);
    uint32_t base = t->nodes[slot].base1;
    for (unsigned c = 0; c < nc; c++)
        free_subtree(t, base + c * seg);
    if (nc)
        nodes_release(t, base, nc * seg);
    for (unsigned q = 0; q < seg; q++)
        leaves_release(t, t->nodes[slot + q].base0, ext_leaves(t, &t->nodes[slot + q]));
}

static int node_update(lpm_poptrie *t, uint32_t slot, int had_old, uint32_t r, unsigned o, uint32_t nh,
                       int blen, const lpm_pt_change *ch);

/* Leaves of one 64-position node (positions j0..j0+63 of the scan): runs
 * of equal next hops over the positions without a child; the first
 * t->inl in the node, the rest in an external block (kept when
 * unchanged). */
static int node_leaves(lpm_poptrie *t, const lpm_pt_node *old, const pt_scan *sc, unsigned j0, lpm_pt_node *n)
{
    uint32_t vals[64];
    uint16_t v16[64];
    unsigned nl = 0;
    n->leafvec = 0;
    for (unsigned j = 0; j < 64; j++) {
        if (n->vec >> j & 1)
            continue;
        if (!nl || vals[nl - 1] != sc->nh[j0 + j]) {
            n->leafvec |= 1ULL << j;
            v16[nl] = (uint16_t)sc->nh[j0 + j]; /* LPM_NH_NONE: 0xFFFF */
            vals[nl++] = sc->nh[j0 + j];
        }
    }
    const void *src = t->lw == 2 ? (const void *)v16 : (const void *)vals;
    unsigned in = nl < t->inl ? nl : t->inl, ext = nl - in, lw = t->lw;
    memcpy(n->leaf, src, in * lw);
    t->h.cost.entries_set += in;
    t->h.cost.bytes_written += in * lw;
    n->base0 = 0;
    if (ext && old && ext_leaves(t, old) == ext &&
        !memcmp((char *)t->leaves + (size_t)old->base0 * lw, (const char *)src + in * lw, ext * lw)) {
        n->base0 = old->base0;
        return LPM_OK;
    }
    if (ext) {
        if ((n->base0 = leaves_alloc(t, ext)) == UINT32_MAX)
            return LPM_EFAIL;
        memcpy((char *)t->leaves + (size_t)n->base0 * lw, (const char *)src + in * lw, ext * lw);
        t->h.cost.entries_set += ext;
        t->h.cost.bytes_written += ext * lw;
    }
    if (old)
        leaves_release(t, old->base0, ext_leaves(t, old));
    return LPM_OK;
}

/* Children of a recomputed level node n[0..seg) (old: as it was, or
 * NULL): in place when the set of children is unchanged, else a new block
 * with the kept children copied over. Sets every n[q].base1. */
static int node_children(lpm_poptrie *t, const lpm_pt_node *old, const pt_scan *sc, unsigned o,
                         const lpm_pt_change *ch, lpm_pt_node *n)
{
    unsigned k = t->k, seg = t->seg, co = o + k, same = old != NULL;
    for (unsigned q = 0; q < seg; q++)
        same &= old && old[q].vec == n[q].vec;
    int rc = LPM_OK;
    if (same) {
        for (unsigned q = 0; q < seg; q++)
            n[q].base1 = old[q].base1;
        for (unsigned j = 0; j < (1u << k) && !rc; j++)
            if (n[j >> 6].vec >> (j & 63) & 1 && reaches(ch, o, k, j, sc))
                rc = node_update(t, old[j >> 6].base1 + rank(old[j >> 6].vec, j & 63) * seg, 1, sc->rib[j], co,
                                 sc->nh[j], sc->blen[j], ch);
        return rc;
    }
    unsigned nc = children(n, seg);
    uint32_t base = 0;
    if (nc && (base = nodes_alloc(t, nc * seg)) == UINT32_MAX)
        return LPM_EFAIL;
    for (unsigned q = 0, c = 0; q < seg; q++) {
        n[q].base1 = base + c * seg;
        c += (unsigned)__builtin_popcountll(n[q].vec);
    }
    for (unsigned j = 0, c = 0; j < (1u << k) && !rc; j++) {
        if (!(n[j >> 6].vec >> (j & 63) & 1))
            continue;
        uint32_t dst = base + c++ * seg;
        if (old && old[j >> 6].vec >> (j & 63) & 1) {
            memcpy(&t->nodes[dst], &t->nodes[old[j >> 6].base1 + rank(old[j >> 6].vec, j & 63) * seg],
                   seg * sizeof *t->nodes);
            t->h.cost.nodes_copied += seg;
            t->h.cost.bytes_written += seg * NODE_BYTES;
            if (reaches(ch, o, k, j, sc))
                rc = node_update(t, dst, 1, sc->rib[j], co, sc->nh[j], sc->blen[j], ch);
        } else {
            rc = node_update(t, dst, 0, sc->rib[j], co, sc->nh[j], sc->blen[j], ch);
        }
    }
    if (!old || rc)
        return rc;
    for (unsigned j = 0; j < (1u << k); j++)
        if ((old[j >> 6].vec >> (j & 63) & 1) && !(n[j >> 6].vec >> (j & 63) & 1))
            free_subtree(t, old[j >> 6].base1 + rank(old[j >> 6].vec, j & 63) * seg);
    unsigned onc = children(old, seg);
    if (onc)
        nodes_release(t, old[0].base1, onc * seg);
    return LPM_OK;
}

/* Recomputes the level node at nodes[slot..slot+seg) at offset o from
 * trie node r (depth o), whose longest prefix of length <= o is (nh,
 * blen); had_old: the slots hold the node as it was before the change. */
static int node_update(lpm_poptrie *t, uint32_t slot, int had_old, uint32_t r, unsigned o, uint32_t nh,
                       int blen, const lpm_pt_change *ch)
{
    unsigned seg = t->seg;
    pt_scan sc;
    scan(&t->rib, r, 0, t->k, 0, nh, blen, o, &sc);
    lpm_pt_node old[4], n[4];
    memset(n, 0, sizeof n);
    if (had_old)
        memcpy(old, &t->nodes[slot], seg * sizeof *old);
    else
        t->h.cost.nodes_alloc += seg;
    for (unsigned j = 0; j < (1u << t->k); j++)
        if (lpm_ptrib_splits(&t->rib, sc.rib[j], sc.nh[j]))
            n[j >> 6].vec |= 1ULL << (j & 63);
    int rc = LPM_OK;
    for (unsigned q = 0; q < seg && !rc; q++)
        rc = node_leaves(t, had_old ? &old[q] : NULL, &sc, q * 64, &n[q]);
    if (!rc)
        rc = node_children(t, had_old ? old : NULL, &sc, o, ch, n);
    if (rc)
        return rc;
    memcpy(&t->nodes[slot], n, seg * sizeof *n);
    t->h.cost.bytes_written += seg * NODE_BYTES;
    return LPM_OK;
}

/* ---- the direct array ---- */

/* Where set_dir reads and writes direct entries: the array itself
 * (IPv6), or for IPv4 one /19 block at a time, expanded into e[] and
 * compressed back into mid and mleaf when the walk moves on (entries are
 * visited in increasing order, so each block is expanded once). */
typedef struct dir_view {
    uint32_t blk;           /* the block in e[] (live) */
    int live, rc;
    uint32_t e[32], was[32];
} dir_view;

static void block_expand(const lpm_poptrie *t, uint32_t b, uint32_t *e)
{
    uint64_t w = t->mid[b];
    uint32_t bm = (uint32_t)(w >> 32), k = (uint32_t)w;
    for (unsigned j = 0; j < 32; j++) {
        k += bm >> j & (j > 0);
        e[j] = bm ? lpm_pt_run(t->mleaf, k, t->lw) : (uint32_t)w;
    }
}

/* Writes block v->blk back: runs of equal entries, in place when their
 * number is unchanged. */
static int block_store(lpm_poptrie *t, dir_view *v)
{
    if (!memcmp(v->e, v->was, sizeof v->e))
        return LPM_OK;
    uint32_t runs[32], bm = 0, nr = 0;
    for (unsigned j = 0; j < 32; j++)
        if (!nr || runs[nr - 1] != v->e[j]) {
            bm |= 1u << j;
            runs[nr++] = v->e[j];
        }
    uint64_t old = t->mid[v->blk];
    uint32_t obm = (uint32_t)(old >> 32), onr = (uint32_t)__builtin_popcount(obm), base = (uint32_t)old;
    if (nr == 1) {
        t->mid[v->blk] = runs[0];
    } else {
        uint16_t r16[32];
        for (unsigned j = 0; j < nr && t->lw == 2; j++) {
            if ((runs[j] & LPM_PT_DIR_NODE) && (runs[j] & ~LPM_PT_DIR_NODE) > LPM_PT_RUN16_NODE_MAX)
                return LPM_PT_WIDEN;
            r16[j] = (uint16_t)((runs[j] & 0x7FFF) | (runs[j] >> 16 & 0x8000));
        }
        if (onr != nr && (base = runs_alloc(t, nr)) == UINT32_MAX)
            return LPM_EFAIL;
        memcpy(run_at(t, base), t->lw == 2 ? (const void *)r16 : (const void *)runs, nr * t->lw);
        t->mid[v->blk] = (uint64_t)bm << 32 | base;
        t->h.cost.bytes_written += nr * t->lw;
    }
    if (obm && onr != nr)
        runs_release(t, (uint32_t)old, onr);
    t->h.cost.bytes_written += sizeof *t->mid;
    return LPM_OK;
}

static void view_flush(lpm_poptrie *t, dir_view *v)
{
    if (v->live && !v->rc)
        v->rc = block_store(t, v);
    v->live = 0;
}

static uint32_t *dir_slot(lpm_poptrie *t, dir_view *v, uint32_t e)
{
    if (!t->mid)
        return &t->dir[e];
    if (!v->live || v->blk != e >> 5) {
        view_flush(t, v);
        v->blk = e >> 5;
        v->live = 1;
        block_expand(t, v->blk, v->e);
        memcpy(v->was, v->e, sizeof v->e);
    }
    return &v->e[e & 31];
}

static int set_dir(lpm_poptrie *t, dir_view *v, uint32_t e, uint32_t r, uint32_t nh, int blen,
                   const lpm_pt_change *ch)
{
    if (ch && ch->len <= t->s && blen > (int)ch->len)
        return LPM_OK; /* a longer prefix (<= s) covers this entry */
    uint32_t *de = dir_slot(t, v, e), old = *de;
    int rc = LPM_OK;
    if (lpm_ptrib_splits(&t->rib, r, nh)) {
        if (old & LPM_PT_DIR_NODE)
            return node_update(t, old & ~LPM_PT_DIR_NODE, 1, r, t->s, nh, blen, ch);
        uint32_t slot = nodes_alloc(t, t->seg);
        if (slot == UINT32_MAX)
            return LPM_EFAIL;
        rc = node_update(t, slot, 0, r, t->s, nh, blen, ch);
        *de = LPM_PT_DIR_NODE | slot;
    } else {
        if (old & LPM_PT_DIR_NODE) {
            free_subtree(t, old & ~LPM_PT_DIR_NODE);
            nodes_release(t, old & ~LPM_PT_DIR_NODE, t->seg);
        }
        *de = nh + 1;
    }
    t->h.cost.entries_set++;
    t->h.cost.bytes_written += t->mid ? 0 : sizeof *t->dir;
    return rc;
}

/* Every direct entry under trie node r at depth d (position pos of d bits);
 * (nh, blen) already include r's own prefix. */
static int scan_dir(lpm_poptrie *t, dir_view *v, uint32_t r, unsigned d, uint32_t pos, uint32_t nh, int blen,
                    const lpm_pt_change *ch)
{
    int rc = LPM_OK;
    if (r == LPM_PTRIB_NIL || d == t->s) {
        unsigned w = t->s - d;
        for (uint32_t e = pos << w; e < (pos + 1) << w && !rc; e++)
            rc = set_dir(t, v, e, r, nh, blen, ch);
        return rc;
    }
    for (unsigned b = 0; b < 2 && !rc; b++) {
        uint32_t c = t->rib.n[r].child[b];
        uint32_t cnh = nh;
        int cblen = blen;
        if (c && t->rib.n[c].nh != LPM_NH_NONE) {
            cnh = t->rib.n[c].nh;
            cblen = (int)d + 1;
        }
        rc = scan_dir(t, v, c ? c : LPM_PTRIB_NIL, d + 1, pos * 2 + b, cnh, cblen, ch);
    }
    return rc;
}

/* The top array's entries over direct entries [first, first + count). */
static void set_top(lpm_poptrie *t, uint32_t first, uint32_t count)
{
    if (!t->top)
        return;
    unsigned w = t->s - 16;
    for (uint32_t u = first >> w; u <= (first + count - 1) >> w; u++) {
        const uint32_t *e = &t->dir[(size_t)u << w];
        uint32_t v = e[0];
        for (uint32_t j = 1; j < (1u << w) && !(v & LPM_PT_DIR_NODE); j++)
            v = e[j] == v ? v : LPM_PT_DIR_NODE;
        t->top[u] = v;
    }
}

int lpm_pt_apply(lpm_poptrie *t, const lpm_pt_change *ch, lpm_err *err)
{
    uint32_t nh, first, count = 1;
    int blen, rc;
    dir_view v = { 0, 0, 0, { 0 }, { 0 } };
    if (!ch || ch->len <= t->s) {
        unsigned d = ch ? ch->len : 0;
        uint32_t r = lpm_ptrib_walk(&t->rib, ch ? &ch->key : &(lpm_addr){ 0, 0 }, d, &nh, &blen);
        uint32_t pos = ch ? (uint32_t)lpm_addr_bits(&ch->key, 0, d) : 0;
        rc = scan_dir(t, &v, r, d, pos, nh, blen, ch);
        first = pos << (t->s - d);
        count = 1u << (t->s - d);
    } else {
        uint32_t r = lpm_ptrib_walk(&t->rib, &ch->key, t->s, &nh, &blen);
        first = (uint32_t)lpm_addr_bits(&ch->key, 0, t->s);
        rc = set_dir(t, &v, first, r, nh, blen, ch);
    }
    view_flush(t, &v);
    rc = rc ? rc : v.rc;
    set_top(t, first, count);
    if (rc == LPM_PT_WIDEN)
        return rc;
    return rc ? lpm_err_set(err, LPM_EFAIL, "poptrie: out of memory") : LPM_OK;
}
