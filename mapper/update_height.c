/* Height mapping (stage = N-1-height): a leaf block sits in the last stage,
 * so a longer prefix under it has no stage left for its chain. Instead of a
 * rebuild, the lowest blocks of its path are copied into earlier stages
 * (each copy at most as late as its original, so every child it keeps is
 * still later), the new chain follows the copies, and one write (the
 * deepest block that stays, or the DIT entry) links them in: head-room
 * writes first, one reachable write last, as for every update. The
 * originals are left behind (lazy delete). */
#include "update_int.h"

enum { MAXP = 130 };

typedef struct {
    unsigned n;                     /* blocks on the path */
    unsigned stage[MAXP], depth[MAXP];
    uint32_t base[MAXP], word[MAXP]; /* block base; the path's word in it */
    uint32_t dit;                   /* the DIT entry (absolute index) */
} path_t;

/* The blocks p's key passes through, down to the one whose word has no
 * child (the caller knows p's own block is missing). */
static void path_of(const lpm_image *img, const lpm_prefix *p, path_t *pt)
{
    lpm_node_word w;
    pt->n = 0;
    pt->dit = lpm_dit_base(img, img->active) + (uint32_t)lpm_addr_bits(&p->addr, 0, img->x);
    lpm_image_dit_decode(img, img->dit[pt->dit], &w);
    unsigned s = w.stage, b = img->x;
    uint32_t base = w.addr;
    while (w.child && pt->n < MAXP) {
        unsigned k = img->stride[s], i = pt->n++;
        pt->stage[i] = s;
        pt->depth[i] = b;
        pt->base[i] = base;
        pt->word[i] = base + (uint32_t)lpm_addr_bits(&p->addr, b, k);
        lpm_image_word_decode(img, s, img->mem[s][pt->word[i]], &w);
        s = w.jump ? w.stage : s + 1;
        base = w.addr;
        b += k;
    }
}

/* Writes a word both into the image and as a bubble write. */
static int put(lpm_upd *u, unsigned s, uint32_t a, uint64_t v)
{
    return lpm_upd_set_word(u, s, a, v) || lpm_upd_add_write(u, s, a, v) ? -1 : 0;
}

/* The copy of block j at stage cs (its path word pointing at `next`,
 * a block at stage cs + 1). */
static int copy_block(lpm_upd *u, const path_t *pt, unsigned j, unsigned cs, uint32_t at, uint32_t next)
{
    lpm_image *img = u->img;
    unsigned s = pt->stage[j], K = img->stride[s];
    for (uint32_t e = 0; e < (1u << K); e++) {
        lpm_node_word w;
        lpm_image_word_decode(img, s, img->mem[s][pt->base[j] + e], &w);
        if (pt->base[j] + e == pt->word[j]) {
            w.child = 1;
            w.addr = next;
            w.jump = 0;
        } else if (w.child) {
            unsigned t = w.jump ? w.stage : s + 1;
            w.jump = t != cs + 1;
            w.stage = w.jump ? t : 0;
        }
        u->plen[cs][at + e] = u->plen[s][pt->base[j] + e];
        uint64_t v = lpm_image_word_encode(img, cs, &w);
        if (v && put(u, cs, at + e, v))
            return -1;
    }
    return 0;
}

int lpm_upd_height_chain(lpm_upd *u, const lpm_prefix *p, uint32_t nh)
{
    lpm_image *img = u->img;
    unsigned N = img->stages, L = p->len, K = img->stride[0];
    path_t pt;
    path_of(img, p, &pt);
    if (!pt.n)
        return LPM_REBUILD_STAGES;
    unsigned m = pt.n - 1, b = pt.depth[m] + K, h = 0;
    for (unsigned d = b; d < L; d += K)
        h++;
    /* the deepest block i that stays: copies of i+1..m and the chain fit
     * in the stages after it (i = -1: the DIT entry is rewritten) */
    int i = (int)m - 1;
    while (i >= 0 && (m - (unsigned)i) + h > N - 1 - pt.stage[i])
        i--;
    if (i < 0 && m + 1 + h > N)
        return LPM_REBUILD_STAGES;
    unsigned c0 = i < 0 ? 0 : pt.stage[i] + 1, nc = m - (unsigned)(i + 1) + 1, tot = nc + h;
    uint32_t need[LPM_IMAGE_MAX_STAGES] = { 0 };
    for (unsigned q = 0; q < tot; q++) {
        need[c0 + q] += 1u << K;
        if ((uint64_t)img->used[c0 + q] + need[c0 + q] > img->depth[c0 + q])
            return LPM_REBUILD_HEADROOM;
    }
    uint32_t at[MAXP];
    for (unsigned q = 0; q < tot; q++) {
        at[q] = lpm_copy_base(img, c0 + q, img->active) + img->used[c0 + q];
        img->used[c0 + q] += 1u << K;
    }
    u->st.blocks_copied += nc;
    u->st.blocks_added += h;
    /* the chain, deepest block first: pointers, then the prefix's entries */
    for (unsigned q = tot; q-- > nc;) {
        unsigned s = c0 + q, d = b + (q - nc) * K;
        if (q == tot - 1) {
            size_t first = at[q] + ((size_t)lpm_addr_bits(&p->addr, d, L - d) << (d + K - L));
            lpm_node_word w = { 0, 1, 0, nh, 0, 0 };
            uint64_t v = lpm_image_word_encode(img, s, &w);
            for (size_t e = first; e < first + ((size_t)1 << (d + K - L)); e++) {
                u->plen[s][e] = (uint8_t)(L + 1);
                if (put(u, s, (uint32_t)e, v))
                    return -1;
            }
        } else {
            lpm_node_word w = { 1, 0, 0, 0, at[q + 1], 0 };
            if (put(u, s, at[q] + (uint32_t)lpm_addr_bits(&p->addr, d, K), lpm_image_word_encode(img, s, &w)))
                return -1;
        }
    }
    /* the copies, deepest first */
    for (unsigned q = nc; q-- > 0;)
        if (copy_block(u, &pt, (unsigned)(i + 1) + q, c0 + q, at[q], at[q + 1]))
            return -1;
    /* the commit: the block that stays (or the DIT entry) points at the copies */
    u->commit_from = u->nw;
    lpm_node_word w;
    if (i < 0) {
        lpm_image_dit_decode(img, img->dit[pt.dit], &w);
        w.child = 1;
        w.addr = at[0];
        w.stage = c0;
        return put(u, LPM_IMAGE_DIT, pt.dit, lpm_image_dit_encode(img, &w));
    }
    lpm_image_word_decode(img, pt.stage[i], img->mem[pt.stage[i]][pt.word[i]], &w);
    w.child = 1;
    w.addr = at[0];
    w.jump = 0;
    w.stage = 0;
    return put(u, pt.stage[i], pt.word[i], lpm_image_word_encode(img, pt.stage[i], &w));
}
