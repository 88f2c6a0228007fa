/* Tree Bitmap node pool: insert, delete, lazy-checking lookup, compaction.
 * Layout and invariants are described in tbm.h. */
#include "tbm.h"

#include <stdlib.h>
#include <string.h>

static inline int bs_test(const uint32_t *bm, unsigned i)
{
    return (int)((bm[i >> 5] >> (i & 31)) & 1u);
}

static inline void bs_set(uint32_t *bm, unsigned i)
{
    bm[i >> 5] |= 1u << (i & 31);
}

static inline void bs_clear(uint32_t *bm, unsigned i)
{
    bm[i >> 5] &= ~(1u << (i & 31));
}

/* Set bits in [a, b): the popcount that turns a bitmap bit into an index. */
static inline unsigned bs_rank(const uint32_t *bm, unsigned a, unsigned b)
{
    unsigned n = 0;
    while (a < b) {
        unsigned wi = a >> 5, lo = a & 31, hi = b - (wi << 5);
        uint32_t m = (hi >= 32 ? ~0u : (1u << hi) - 1) & (~0u << lo);
        n += (unsigned)__builtin_popcount(bm[wi] & m);
        a = (wi + 1) << 5;
    }
    return n;
}

/* Highest set bit of bm & m over nw words, or -1. */
static inline int bs_highest(const uint32_t *bm, const uint32_t *m, unsigned nw)
{
    for (int wi = (int)nw - 1; wi >= 0; wi--) {
        uint32_t v = bm[wi] & m[wi];
        if (v)
            return wi * 32 + 31 - __builtin_clz(v);
    }
    return -1;
}

int lpm_tbm_init(lpm_tbm *t, unsigned depth0, const uint8_t *strides, unsigned n,
                 lpm_cpu_cost *cost, lpm_err *err)
{
    memset(t, 0, sizeof *t);
    t->cost = cost;
    if (n == 0 || n > LPM_TBM_MAX_LEVELS)
        return lpm_err_set(err, LPM_EINPUT, "tree bitmap: 1..%d levels", LPM_TBM_MAX_LEVELS);
    unsigned depth = depth0;
    for (unsigned i = 0; i < n; i++) {
        lpm_tbm_level *L = &t->lv[i];
        unsigned s = strides[i];
        if (s < 1 || s > 8)
            return lpm_err_set(err, LPM_EINPUT, "tree bitmap: stride %u not in 1..8", s);
        L->depth = (uint8_t)depth;
        L->stride = (uint8_t)s;
        L->last = i == n - 1;
        L->ebm_bits = L->last ? 0 : (uint16_t)(1u << s);
        L->ibm_bits = (uint16_t)((1u << (s + L->last)) - 1);
        unsigned nbw = (L->ebm_bits + L->ibm_bits + 31u) / 32u;
        L->words = (uint8_t)(1 + nbw);
        L->pathmask = calloc((size_t)nbw << s, sizeof(uint32_t));
        if (!L->pathmask) {
            t->nlevels = i + 1;
            lpm_tbm_free(t);
            return lpm_err_set(err, LPM_EFAIL, "out of memory");
        }
        for (unsigned b = 0; b < (1u << s); b++)
            for (unsigned l = 0; l < s + L->last; l++)
                bs_set(L->pathmask + (size_t)b * nbw, L->ebm_bits + (1u << l) - 1 + (b >> (s - l)));
        depth += s;
    }
    t->nlevels = n;
    for (unsigned i = 0; i < n; i++) {
        size_t blk = t->lv[i].ibm_bits + (t->lv[i].last ? 0 : (size_t)t->lv[i].ebm_bits * t->lv[i + 1].words);
        if (blk > t->max_block)
            t->max_block = blk;
    }
    if (t->lv[0].words > t->max_block)
        t->max_block = t->lv[0].words;
    t->free_head = calloc(t->max_block + 1, sizeof(uint32_t));
    t->cap = 1024;
    t->w = calloc(t->cap, sizeof(uint32_t));
    t->used = 1; /* index 0 means null */
    if (!t->free_head || !t->w) {
        lpm_tbm_free(t);
        return lpm_err_set(err, LPM_EFAIL, "out of memory");
    }
    return LPM_OK;
}

void lpm_tbm_free(lpm_tbm *t)
{
    for (unsigned i = 0; i < t->nlevels; i++)
        free(t->lv[i].pathmask);
    free(t->free_head);
    free(t->w);
    memset(t, 0, sizeof *t);
}

/* A block of n words (n > 0); 0 on no memory. Free blocks are reused by
 * exact size, which is enough: block sizes are few and small. */
static uint32_t pool_alloc(lpm_tbm *t, size_t n)
{
    if (n <= t->max_block && t->free_head[n]) {
        uint32_t b = t->free_head[n];
        t->free_head[n] = t->w[b];
        t->free_words -= n;
        return b;
    }
    if (t->used + n > t->cap) {
        size_t cap = t->cap * 2;
        while (cap < t->used + n)
            cap *= 2;
        if (cap > UINT32_MAX)
            return 0;
        uint32_t *w = realloc(t->w, cap * sizeof *w);
        if (!w)
            return 0;
        t->w = w;
        t->cap = cap;
    }
    uint32_t b = (uint32_t)t->used;
    t->used += n;
    return b;
}

static void pool_free(lpm_tbm *t, uint32_t b, size_t n)
{
    if (!n)
        return;
    t->w[b] = t->free_head[n];
    t->free_head[n] = b;
    t->free_words += n;
}

enum { ADD_RESULT, DEL_RESULT, ADD_CHILD, DEL_CHILD };

/* Moves node x's block (its results and children) to a new block with one
 * result or child added or removed at rank r. The caller fixes the bitmap.
 * Returns LPM_OK or LPM_EFAIL on no memory (nothing changed then). */
static int reblock(lpm_tbm *t, uint32_t x, unsigned i, int op, unsigned r, uint32_t nh)
{
    const lpm_tbm_level *L = &t->lv[i];
    unsigned cw = L->last ? 0 : t->lv[i + 1].words;
    const uint32_t *bm = &t->w[x + 1];
    unsigned nres = bs_rank(bm, L->ebm_bits, L->ebm_bits + L->ibm_bits);
    unsigned nch = bs_rank(bm, 0, L->ebm_bits);
    unsigned nres2 = nres + (op == ADD_RESULT) - (op == DEL_RESULT);
    unsigned nch2 = nch + (op == ADD_CHILD) - (op == DEL_CHILD);
    size_t osize = nres + (size_t)nch * cw, nsize = nres2 + (size_t)nch2 * cw;
    uint32_t nb = 0;
    if (nsize && !(nb = pool_alloc(t, nsize)))
        return LPM_EFAIL;
    uint32_t *w = t->w;
    uint32_t optr = w[x], nptr = nb + nres2;
    lpm_cpu_cost *c = t->cost;
    for (unsigned j = 0; j < nres2; j++) {
        unsigned k = j;
        if (op == ADD_RESULT && j >= r) {
            if (j == r) {
                w[nptr - 1 - j] = nh;
                c->entries_set++;
                continue;
            }
            k = j - 1;
        } else if (op == DEL_RESULT && j >= r) {
            k = j + 1;
        }
        w[nptr - 1 - j] = w[optr - 1 - k];
        c->entries_moved++;
    }
    for (unsigned j = 0; j < nch2; j++) {
        unsigned k = j;
        if (op == ADD_CHILD && j >= r) {
            if (j == r) {
                memset(&w[nptr + (size_t)j * cw], 0, cw * sizeof *w);
                c->nodes_alloc++;
                continue;
            }
            k = j - 1;
        } else if (op == DEL_CHILD && j >= r) {
            k = j + 1;
        }
        memcpy(&w[nptr + (size_t)j * cw], &w[optr + (size_t)k * cw], cw * sizeof *w);
        c->nodes_copied++;
    }
    if (op == DEL_CHILD)
        c->nodes_freed++;
    c->bytes_written += nsize * 4;
    pool_free(t, optr - nres, osize);
    w[x] = nsize ? nptr : 0;
    return LPM_OK;
}

int lpm_tbm_insert(lpm_tbm *t, uint32_t *root, const lpm_addr *a, unsigned len,
                   uint32_t nh, lpm_err *err)
{
    const lpm_tbm_level *end = &t->lv[t->nlevels - 1];
    if (len < t->lv[0].depth || len > (unsigned)end->depth + end->stride)
        return lpm_err_set(err, LPM_EINPUT, "tree bitmap: /%u outside /%u../%u", len,
                           t->lv[0].depth, end->depth + end->stride);
    if (!*root) {
        uint32_t b = pool_alloc(t, t->lv[0].words);
        if (!b)
            return lpm_err_set(err, LPM_EFAIL, "out of memory");
        memset(&t->w[b], 0, t->lv[0].words * sizeof(uint32_t));
        *root = b;
        t->cost->nodes_alloc++;
        t->cost->bytes_written += t->lv[0].words * 4;
    }
    uint32_t x = *root;
    for (unsigned i = 0;; i++) {
        const lpm_tbm_level *L = &t->lv[i];
        unsigned rel = len - L->depth;
        if (L->last || rel < L->stride) {
            unsigned pos = L->ebm_bits + (1u << rel) - 1 + (unsigned)lpm_addr_bits(a, L->depth, rel);
            unsigned rk = bs_rank(&t->w[x + 1], L->ebm_bits, pos);
            if (bs_test(&t->w[x + 1], pos)) {
                t->w[t->w[x] - 1 - rk] = nh;
                t->cost->entries_set++;
                t->cost->bytes_written += 4;
                return LPM_OK;
            }
            if (reblock(t, x, i, ADD_RESULT, rk, nh))
                return lpm_err_set(err, LPM_EFAIL, "out of memory");
            bs_set(&t->w[x + 1], pos);
            return LPM_OK;
        }
        unsigned c = (unsigned)lpm_addr_bits(a, L->depth, L->stride);
        unsigned rk = bs_rank(&t->w[x + 1], 0, c);
        if (!bs_test(&t->w[x + 1], c)) {
            if (reblock(t, x, i, ADD_CHILD, rk, 0))
                return lpm_err_set(err, LPM_EFAIL, "out of memory");
            bs_set(&t->w[x + 1], c);
        }
        x = t->w[x] + rk * t->lv[i + 1].words;
    }
}

static int node_empty(const lpm_tbm *t, uint32_t x, unsigned i)
{
    for (unsigned k = 1; k < t->lv[i].words; k++)
        if (t->w[x + k])
            return 0;
    return 1;
}

int lpm_tbm_delete(lpm_tbm *t, uint32_t *root, const lpm_addr *a, unsigned len)
{
    uint32_t path[LPM_TBM_MAX_LEVELS];
    unsigned cidx[LPM_TBM_MAX_LEVELS];
    const lpm_tbm_level *end = &t->lv[t->nlevels - 1];
    uint32_t x = *root;
    if (!x || len < t->lv[0].depth || len > (unsigned)end->depth + end->stride)
        return 0;
    unsigned i;
    for (i = 0;; i++) {
        const lpm_tbm_level *L = &t->lv[i];
        unsigned rel = len - L->depth;
        path[i] = x;
        if (L->last || rel < L->stride) {
            unsigned pos = L->ebm_bits + (1u << rel) - 1 + (unsigned)lpm_addr_bits(a, L->depth, rel);
            if (!bs_test(&t->w[x + 1], pos))
                return 0;
            if (reblock(t, x, i, DEL_RESULT, bs_rank(&t->w[x + 1], L->ebm_bits, pos), 0))
                return -1;
            bs_clear(&t->w[x + 1], pos);
            break;
        }
        unsigned c = (unsigned)lpm_addr_bits(a, L->depth, L->stride);
        if (!bs_test(&t->w[x + 1], c))
            return 0;
        cidx[i] = c;
        x = t->w[x] + bs_rank(&t->w[x + 1], 0, c) * t->lv[i + 1].words;
    }
    /* Prune nodes left empty, bottom up. A failed shrink leaves an empty
     * node behind, which lookups treat like a missing one. */
    while (node_empty(t, x, i)) {
        if (i == 0) {
            pool_free(t, x, t->lv[0].words);
            t->cost->nodes_freed++;
            *root = 0;
            break;
        }
        uint32_t p = path[i - 1];
        unsigned c = cidx[i - 1];
        if (reblock(t, p, i - 1, DEL_CHILD, bs_rank(&t->w[p + 1], 0, c), 0))
            break;
        bs_clear(&t->w[p + 1], c);
        i--;
        x = p;
    }
    return 1;
}

uint32_t lpm_tbm_lookup(const lpm_tbm *t, uint32_t root, const lpm_addr *a, uint32_t dflt)
{
    uint32_t sx[LPM_TBM_MAX_LEVELS];
    uint16_t sb[LPM_TBM_MAX_LEVELS];
    const uint32_t *w = t->w;
    unsigned n = 0;
    uint32_t x = root;
    /* Lazy checking: only EBMs on the way down ... */
    while (x) {
        const lpm_tbm_level *L = &t->lv[n];
        unsigned b = (unsigned)lpm_addr_bits(a, L->depth, L->stride);
        sx[n] = x;
        sb[n] = (uint16_t)b;
        n++;
        if (L->last || !bs_test(&w[x + 1], b))
            break;
        x = w[x] + bs_rank(&w[x + 1], 0, b) * t->lv[n].words;
    }
    /* ... and IBMs on the way back, deepest first: the first hit wins. */
    while (n--) {
        const lpm_tbm_level *L = &t->lv[n];
        const uint32_t *bm = &w[sx[n] + 1];
        unsigned nbw = L->words - 1u;
        int g = bs_highest(bm, L->pathmask + (size_t)sb[n] * nbw, nbw);
        if (g >= 0)
            return w[w[sx[n]] - 1 - bs_rank(bm, L->ebm_bits, (unsigned)g)];
    }
    return dflt;
}

void lpm_tbm_lookup_multi(const lpm_tbm *t, const uint32_t *root, const lpm_addr *const *a,
                          const uint32_t *dflt, uint32_t *out, unsigned n)
{
    uint32_t sx[LPM_TBM_MULTI][LPM_TBM_MAX_LEVELS], x[LPM_TBM_MULTI];
    uint16_t sb[LPM_TBM_MULTI][LPM_TBM_MAX_LEVELS];
    unsigned depth[LPM_TBM_MULTI];
    const uint32_t *w = t->w;
    unsigned live = 0;
    for (unsigned k = 0; k < n; k++) {
        x[k] = root[k];
        depth[k] = 0;
        live += x[k] != 0;
    }
    /* All walks go down one level per pass; each lane's next node is
     * prefetched, so the lanes' cache misses overlap. */
    for (unsigned lv = 0; live; lv++) {
        for (unsigned k = 0; k < n; k++) {
            if (!x[k])
                continue;
            const lpm_tbm_level *L = &t->lv[lv];
            unsigned b = (unsigned)lpm_addr_bits(a[k], L->depth, L->stride);
            sx[k][lv] = x[k];
            sb[k][lv] = (uint16_t)b;
            depth[k] = lv + 1;
            if (L->last || !bs_test(&w[x[k] + 1], b)) {
                x[k] = 0;
                live--;
                continue;
            }
            x[k] = w[x[k]] + bs_rank(&w[x[k] + 1], 0, b) * t->lv[lv + 1].words;
            __builtin_prefetch(&w[x[k]]);
        }
    }
    for (unsigned k = 0; k < n; k++) {
        out[k] = dflt[k];
        for (unsigned d = depth[k]; d-- > 0;) {
            const lpm_tbm_level *L = &t->lv[d];
            const uint32_t *bm = &w[sx[k][d] + 1];
            unsigned nbw = L->words - 1u;
            int g = bs_highest(bm, L->pathmask + (size_t)sb[k][d] * nbw, nbw);
            if (g >= 0) {
                out[k] = w[w[sx[k][d]] - 1 - bs_rank(bm, L->ebm_bits, (unsigned)g)];
                break;
            }
        }
    }
}

uint32_t lpm_tbm_step(const lpm_tbm *t, unsigned level, uint32_t x, const lpm_addr *a,
                      uint32_t *best)
{
    const lpm_tbm_level *L = &t->lv[level];
    const uint32_t *w = t->w, *bm = &w[x + 1];
    unsigned b = (unsigned)lpm_addr_bits(a, L->depth, L->stride);
    unsigned nbw = L->words - 1u;
    int g = bs_highest(bm, L->pathmask + (size_t)b * nbw, nbw);
    if (g >= 0)
        *best = w[w[x] - 1 - bs_rank(bm, L->ebm_bits, (unsigned)g)];
    if (L->last || !bs_test(bm, b))
        return 0;
    return w[x] + bs_rank(bm, 0, b) * t->lv[level + 1].words;
}

/* Copies the block of old node xo under new node xn (whose words are
 * already copied), recursively. */
static int copy_block(const lpm_tbm *o, lpm_tbm *t, uint32_t xo, uint32_t xn, unsigned i)
{
    const lpm_tbm_level *L = &t->lv[i];
    unsigned cw = L->last ? 0 : t->lv[i + 1].words;
    const uint32_t *bm = &o->w[xo + 1];
    unsigned nres = bs_rank(bm, L->ebm_bits, L->ebm_bits + L->ibm_bits);
    unsigned nch = bs_rank(bm, 0, L->ebm_bits);
    size_t size = nres + (size_t)nch * cw;
    if (!size) {
        t->w[xn] = 0;
        return LPM_OK;
    }
    uint32_t nb = pool_alloc(t, size);
    if (!nb)
        return LPM_EFAIL;
    uint32_t optr = o->w[xo], nptr = nb + nres;
    for (unsigned j = 0; j < nres; j++)
        t->w[nptr - 1 - j] = o->w[optr - 1 - j];
    memcpy(&t->w[nptr], &o->w[optr], (size_t)nch * cw * sizeof(uint32_t));
    t->w[xn] = nptr;
    for (unsigned k = 0; k < nch; k++)
        if (copy_block(o, t, optr + k * cw, nptr + k * cw, i + 1))
            return LPM_EFAIL;
    return LPM_OK;
}

int lpm_tbm_compact(lpm_tbm *t, uint32_t *roots, size_t nroots, size_t root_stride,
                    lpm_err *err)
{
    lpm_tbm n = *t;
    n.cap = t->used - t->free_words + 1;
    n.w = malloc(n.cap * sizeof(uint32_t));
    n.free_head = calloc(t->max_block + 1, sizeof(uint32_t));
    n.used = 1;
    n.free_words = 0;
    if (!n.w || !n.free_head)
        goto oom;
    for (size_t r = 0; r < nroots; r++) {
        uint32_t *root = &roots[r * root_stride];
        if (!*root)
            continue;
        uint32_t b = pool_alloc(&n, t->lv[0].words);
        if (!b)
            goto oom;
        memcpy(&n.w[b], &t->w[*root], t->lv[0].words * sizeof(uint32_t));
        if (copy_block(t, &n, *root, b, 0))
            goto oom;
        *root = b;
    }
    free(t->w);
    free(t->free_head);
    *t = n;
    return LPM_OK;
oom:
    /* Roots already rewritten point into n: this only happens when memory
     * runs out mid-build, and the caller then destroys the structure. */
    free(n.w);
    free(n.free_head);
    return lpm_err_set(err, LPM_EFAIL, "out of memory");
}

size_t lpm_tbm_memory(const lpm_tbm *t)
{
    return (t->used - 1 - t->free_words) * sizeof(uint32_t);
}
