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
    void *t = lpm_cpu_big_alloc(c * elem);
    if (!t)
        return LPM_EFAIL;
    if (*p)
        memcpy(t, *p, (size_t)*cap * elem);
    lpm_cpu_big_free(*p, (size_t)*cap * elem);
    *p = t;
    *cap = (uint32_t)c;
    return LPM_OK;
}

/* k contiguous nodes (1..64); UINT32_MAX when out of memory. */
static uint32_t nodes_alloc(lpm_poptrie *t, unsigned k)
{
    uint32_t i = t->nfree[k];
    if (i) {
        t->nfree[k] = t->nodes[i].base1;
        t->nfree_elems -= k;
        return i;
    }
    if (grow((void **)&t->nodes, &t->ncap, (size_t)t->nused + k, NODE_BYTES))
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

static uint32_t leaves_alloc(lpm_poptrie *t, unsigned k)
{
    uint32_t i = t->lfree[k];
    if (i) {
        t->lfree[k] = t->leaves[i];
        t->lfree_elems -= k;
        return i;
    }
    if (grow((void **)&t->leaves, &t->lcap, (size_t)t->lused + k, sizeof(uint32_t)))
        return UINT32_MAX;
    i = t->lused;
    t->lused += k;
    return i;
}

static void leaves_release(lpm_poptrie *t, uint32_t i, unsigned k)
{
    if (!k)
        return;
    t->leaves[i] = t->lfree[k];
    t->lfree[k] = i;
    t->lfree_elems += k;
}

int lpm_pt_init(lpm_poptrie *t, int family, lpm_err *err)
{
    t->family = family;
    t->s = family == LPM_AF_INET ? 18 : 16;
    t->dir = lpm_cpu_big_alloc(((size_t)1 << t->s) * sizeof *t->dir);
    /* leaves[0] is a pad, so an empty external block (index 0) is never
     * a real one. */
    if (!t->dir || lpm_ptrib_init(&t->rib) || leaves_alloc(t, 1) != 0 || nodes_alloc(t, 1) != 0)
        return lpm_err_set(err, LPM_EFAIL, "out of memory");
    t->leaves[0] = LPM_NH_NONE;
    /* Node 0 is a blank that the IPv4 batch reads for lookups the direct
     * array answers (instead of branching around the node step). */
    memset(&t->nodes[0], 0, sizeof t->nodes[0]);
    return LPM_OK;
}

void lpm_pt_release(lpm_poptrie *t)
{
    lpm_cpu_big_free(t->dir, ((size_t)1 << t->s) * sizeof *t->dir);
    lpm_cpu_big_free(t->nodes, (size_t)t->ncap * sizeof *t->nodes);
    lpm_cpu_big_free(t->leaves, (size_t)t->lcap * sizeof *t->leaves);
    lpm_ptrib_free(&t->rib);
}

/* ---- recomputing nodes ---- */

/* The 64 positions of a node at offset o: the longest prefix of length
 * <= o + 6 over each (next hop and length) and the trie node at depth
 * o + 6 (LPM_PTRIB_NIL when none). */
typedef struct pt_scan {
    uint32_t nh[64];
    int16_t blen[64];
    uint32_t rib[64];
} pt_scan;

static void scan(const lpm_ptrib *rb, uint32_t r, unsigned d, unsigned pos, uint32_t nh, int blen,
                 unsigned o, pt_scan *out)
{
    if (r == LPM_PTRIB_NIL) {
        unsigned w = LPM_PT_STRIDE - d;
        for (unsigned k = pos << w; k < (pos + 1) << w; k++) {
            out->nh[k] = nh;
            out->blen[k] = (int16_t)blen;
            out->rib[k] = LPM_PTRIB_NIL;
        }
        return;
    }
    if (d > 0 && rb->n[r].nh != LPM_NH_NONE) {
        nh = rb->n[r].nh;
        blen = (int)(o + d);
    }
    if (d == LPM_PT_STRIDE) {
        out->nh[pos] = nh;
        out->blen[pos] = (int16_t)blen;
        out->rib[pos] = r;
        return;
    }
    for (unsigned b = 0; b < 2; b++) {
        uint32_t c = rb->n[r].child[b];
        scan(rb, c ? c : LPM_PTRIB_NIL, d + 1, pos * 2 + b, nh, blen, o, out);
    }
}

/* Rank of position j among the set bits of v (0-based). */
static unsigned rank(uint64_t v, unsigned j)
{
    return (unsigned)__builtin_popcountll(v & ((1ULL << j) - 1));
}

/* Can the change reach the child at position j of a node at offset o? */
static int reaches(const lpm_pt_change *ch, unsigned o, unsigned j, const pt_scan *sc)
{
    if (!ch)
        return 1;
    if (ch->len > o + LPM_PT_STRIDE)
        return j == (unsigned)lpm_addr_bits(&ch->key, o, LPM_PT_STRIDE);
    /* The prefix covers position j: the child's inherited next hop changed
     * unless a longer prefix (still <= o + 6) covers it too. */
    if (ch->len > o && (j >> (o + LPM_PT_STRIDE - ch->len)) != lpm_addr_bits(&ch->key, o, ch->len - o))
        return 0;
    return sc->blen[j] <= (int)ch->len;
}

/* Leaves a node keeps in the external array. */
static unsigned ext_leaves(const lpm_pt_node *n)
{
    unsigned nl = (unsigned)__builtin_popcountll(n->leafvec);
    return nl > LPM_PT_INLINE ? nl - LPM_PT_INLINE : 0;
}

static void free_subtree(lpm_poptrie *t, uint32_t slot)
{
    lpm_pt_node n = t->nodes[slot];
    unsigned nc = (unsigned)__builtin_popcountll(n.vec);
    for (unsigned k = 0; k < nc; k++)
        free_subtree(t, n.base1 + k);
    if (nc)
        nodes_release(t, n.base1, nc);
    leaves_release(t, n.base0, ext_leaves(&n));
}

static int node_update(lpm_poptrie *t, uint32_t slot, int had_old, uint32_t r, unsigned o, uint32_t nh,
                       int blen, const lpm_pt_change *ch);

/* Leaves of a recomputed node: runs of equal next hops over the positions
 * without a child; the first LPM_PT_INLINE in the node, the rest in an
 * external block (kept when unchanged). */
static int node_leaves(lpm_poptrie *t, const lpm_pt_node *old, const pt_scan *sc, uint64_t vec, lpm_pt_node *n)
{
    uint32_t vals[64];
    unsigned nl = 0;
    n->leafvec = 0;
    for (unsigned j = 0; j < 64; j++) {
        if (vec >> j & 1)
            continue;
        if (!nl || vals[nl - 1] != sc->nh[j]) {
            n->leafvec |= 1ULL << j;
            vals[nl++] = sc->nh[j];
        }
    }
    unsigned in = nl < LPM_PT_INLINE ? nl : LPM_PT_INLINE, ext = nl - in;
    memcpy(n->leaf, vals, in * sizeof *vals);
    t->h.cost.entries_set += in;
    t->h.cost.bytes_written += in * sizeof *vals;
    n->base0 = 0;
    if (!ext) {
        if (old)
            leaves_release(t, old->base0, ext_leaves(old));
        return LPM_OK;
    }
    if (old && ext_leaves(old) == ext &&
        !memcmp(&t->leaves[old->base0], vals + in, ext * sizeof *vals)) {
        n->base0 = old->base0;
        return LPM_OK;
    }
    if ((n->base0 = leaves_alloc(t, ext)) == UINT32_MAX)
        return LPM_EFAIL;
    memcpy(&t->leaves[n->base0], vals + in, ext * sizeof *vals);
    t->h.cost.entries_set += ext;
    t->h.cost.bytes_written += ext * sizeof *vals;
    if (old)
        leaves_release(t, old->base0, ext_leaves(old));
    return LPM_OK;
}

/* Children of a recomputed node: in place when the set of children is
 * unchanged, else a new block with the kept children copied over. */
static int node_children(lpm_poptrie *t, const lpm_pt_node *old, const pt_scan *sc, uint64_t vec,
                         unsigned o, const lpm_pt_change *ch, uint32_t *base1)
{
    unsigned co = o + LPM_PT_STRIDE;
    int rc = LPM_OK;
    if (old && old->vec == vec) {
        *base1 = old->base1;
        for (unsigned j = 0, k = 0; j < 64 && !rc; j++)
            if (vec >> j & 1 && reaches(ch, o, j, sc))
                rc = node_update(t, old->base1 + k++, 1, sc->rib[j], co, sc->nh[j], sc->blen[j], ch);
            else
                k += vec >> j & 1;
        return rc;
    }
    unsigned nc = (unsigned)__builtin_popcountll(vec);
    *base1 = 0;
    if (nc && (*base1 = nodes_alloc(t, nc)) == UINT32_MAX)
        return LPM_EFAIL;
    uint64_t ov = old ? old->vec : 0;
    for (unsigned j = 0, k = 0; j < 64 && !rc; j++) {
        if (!(vec >> j & 1))
            continue;
        uint32_t dst = *base1 + k++;
        if (ov >> j & 1) {
            t->nodes[dst] = t->nodes[old->base1 + rank(ov, j)];
            t->h.cost.nodes_copied++;
            t->h.cost.bytes_written += NODE_BYTES;
            if (reaches(ch, o, j, sc))
                rc = node_update(t, dst, 1, sc->rib[j], co, sc->nh[j], sc->blen[j], ch);
        } else {
            rc = node_update(t, dst, 0, sc->rib[j], co, sc->nh[j], sc->blen[j], ch);
        }
    }
    for (unsigned j = 0; j < 64 && !rc; j++)
        if ((ov >> j & 1) && !(vec >> j & 1))
            free_subtree(t, old->base1 + rank(ov, j));
    if (!rc && ov)
        nodes_release(t, old->base1, (unsigned)__builtin_popcountll(ov));
    return rc;
}

/* Recomputes the node in nodes[slot] at offset o from trie node r (depth
 * o), whose longest prefix of length <= o is (nh, blen); had_old: the slot
 * holds the node as it was before the change. */
static int node_update(lpm_poptrie *t, uint32_t slot, int had_old, uint32_t r, unsigned o, uint32_t nh,
                       int blen, const lpm_pt_change *ch)
{
    pt_scan sc;
    scan(&t->rib, r, 0, 0, nh, blen, o, &sc);
    uint64_t vec = 0;
    for (unsigned j = 0; j < 64; j++)
        if (lpm_ptrib_splits(&t->rib, sc.rib[j], sc.nh[j]))
            vec |= 1ULL << j;
    lpm_pt_node old;
    if (had_old)
        old = t->nodes[slot];
    lpm_pt_node n;
    memset(&n, 0, sizeof n);
    n.vec = vec;
    if (!had_old)
        t->h.cost.nodes_alloc++;
    int rc = node_leaves(t, had_old ? &old : NULL, &sc, vec, &n);
    if (!rc)
        rc = node_children(t, had_old ? &old : NULL, &sc, vec, o, ch, &n.base1);
    if (rc)
        return rc;
    t->nodes[slot] = n;
    t->h.cost.bytes_written += NODE_BYTES;
    return LPM_OK;
}

/* ---- the direct array ---- */

static int set_dir(lpm_poptrie *t, uint32_t e, uint32_t r, uint32_t nh, int blen, const lpm_pt_change *ch)
{
    if (ch && ch->len <= t->s && blen > (int)ch->len)
        return LPM_OK; /* a longer prefix (<= s) covers this entry */
    uint32_t old = t->dir[e];
    int rc = LPM_OK;
    if (lpm_ptrib_splits(&t->rib, r, nh)) {
        if (old & LPM_PT_DIR_NODE)
            return node_update(t, old & ~LPM_PT_DIR_NODE, 1, r, t->s, nh, blen, ch);
        uint32_t slot = nodes_alloc(t, 1);
        if (slot == UINT32_MAX)
            return LPM_EFAIL;
        rc = node_update(t, slot, 0, r, t->s, nh, blen, ch);
        t->dir[e] = LPM_PT_DIR_NODE | slot;
    } else {
        if (old & LPM_PT_DIR_NODE) {
            free_subtree(t, old & ~LPM_PT_DIR_NODE);
            nodes_release(t, old & ~LPM_PT_DIR_NODE, 1);
        }
        t->dir[e] = nh + 1;
    }
    t->h.cost.entries_set++;
    t->h.cost.bytes_written += sizeof *t->dir;
    return rc;
}

/* Every direct entry under trie node r at depth d (position pos of d bits);
 * (nh, blen) already include r's own prefix. */
static int scan_dir(lpm_poptrie *t, uint32_t r, unsigned d, uint32_t pos, uint32_t nh, int blen,
                    const lpm_pt_change *ch)
{
    int rc = LPM_OK;
    if (r == LPM_PTRIB_NIL || d == t->s) {
        unsigned w = t->s - d;
        for (uint32_t e = pos << w; e < (pos + 1) << w && !rc; e++)
            rc = set_dir(t, e, r, nh, blen, ch);
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
        rc = scan_dir(t, c ? c : LPM_PTRIB_NIL, d + 1, pos * 2 + b, cnh, cblen, ch);
    }
    return rc;
}

int lpm_pt_apply(lpm_poptrie *t, const lpm_pt_change *ch, lpm_err *err)
{
    uint32_t nh;
    int blen, rc;
    if (!ch || ch->len <= t->s) {
        unsigned d = ch ? ch->len : 0;
        uint32_t r = lpm_ptrib_walk(&t->rib, ch ? &ch->key : &(lpm_addr){ 0, 0 }, d, &nh, &blen);
        uint32_t pos = ch ? (uint32_t)lpm_addr_bits(&ch->key, 0, d) : 0;
        rc = scan_dir(t, r, d, pos, nh, blen, ch);
    } else {
        uint32_t r = lpm_ptrib_walk(&t->rib, &ch->key, t->s, &nh, &blen);
        rc = set_dir(t, (uint32_t)lpm_addr_bits(&ch->key, 0, t->s), r, nh, blen, ch);
    }
    return rc ? lpm_err_set(err, LPM_EFAIL, "poptrie: out of memory") : LPM_OK;
}
