/* The poptrie engine (poptrie.h): lookups and the engine interface. */
#include "poptrie.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "../core/nhtab.h"
#include "poptrie_walk.h"

#define V6_K 8   /* IPv6 bits per level, 4 nodes of 64 positions */

/* Batch lookups work on groups of G addresses, software-pipelined: while
 * one group walks the trie, the next has read its direct entries and
 * prefetched its first nodes, and the one after that has prefetched its
 * direct entries, so each line a walk needs was asked for a group
 * earlier. No branch depends on the data: lanes are selected with masks
 * and compacted branch-free. */
#define G 64

/* IPv6: walks are long (five levels and more), so a group goes level by
 * level over the lanes still walking (their lane numbers compacted),
 * reading only the child bitmap and base on the way down; the node each
 * lane ends in and its position there are noted, and one last pass reads
 * the leaves. */
typedef struct v6_group {
    uint32_t idx[2][G];   /* node of each walking lane, by level parity */
    uint8_t lane[2][G];
    unsigned cnt;
    uint32_t end[G];      /* node a lane ended in (0, the blank: none) */
    uint8_t endv[G];      /* its position there */
} v6_group;

static ALWAYS_INLINE void v6_start(const lpm_poptrie *t, const lpm_addr *a, uint32_t *nh, unsigned m,
                                   const lpm_addr *ahead, unsigned mahead, v6_group *g)
{
    unsigned cnt = 0;
    for (unsigned i = 0; i < m; i++) {
        if (i < mahead)
            __builtin_prefetch(lpm_pt_v6_entry(t, ahead[i].hi));
        uint32_t d = *lpm_pt_v6_entry(t, a[i].hi), isnode = d >> 31;
        uint32_t x = d & ~LPM_PT_DIR_NODE & -isnode;
        nh[i] = d - 1;
        __builtin_prefetch(&t->nodes[x + (unsigned)(a[i].hi >> (62 - LPM_PT_S6) & 3)]);
        g->idx[0][cnt] = x;
        g->lane[0][cnt] = (uint8_t)i;
        g->end[i] = x;
        g->endv[i] = 0; /* read (and masked out) for lanes the direct array answered */
        cnt += isnode;
    }
    g->cnt = cnt;
}

static ALWAYS_INLINE void v6_walk(const lpm_poptrie *t, const lpm_addr *a, uint32_t *nh, unsigned m, v6_group *g,
                                  unsigned lw)
{
    const lpm_pt_node *nodes = t->nodes;
    const uint64_t *key = (const uint64_t *)a; /* hi, lo of lane i at 2i, 2i+1 */
    unsigned cnt = g->cnt, cur = 0;
    for (unsigned o = LPM_PT_S6; cnt; o += V6_K, cur ^= 1) {
        /* The next level's segment is known from the key: prefetch that
         * 64-byte node only. (Past bit 127 it reads 0: a harmless line.) */
        const uint64_t *kw = key + (o >= 64), *kn = key + (o + V6_K >= 64);
        unsigned nc = 0, sh = o & 63, shn = (o + V6_K) & 63;
        for (unsigned j = 0; j < cnt; j++) {
            unsigned ln = g->lane[cur][j];
            unsigned u = (unsigned)(kw[2 * ln] << sh >> (64 - V6_K)), v = u & 63;
            uint32_t x = g->idx[cur][j] + (u >> 6);
            const lpm_pt_node *p = &nodes[x];
            uint64_t vec = p->vec;
            uint32_t c = p->base1 + ((unsigned)__builtin_popcountll(vec & ((2ULL << v) - 1)) - 1) * 4;
            g->end[ln] = x;
            g->endv[ln] = (uint8_t)v;
            __builtin_prefetch(&nodes[c + (unsigned)(kn[2 * ln] << shn >> 62)]);
            g->idx[cur ^ 1][nc] = c;
            g->lane[cur ^ 1][nc] = (uint8_t)ln;
            nc += (unsigned)(vec >> v) & 1;
        }
        cnt = nc;
    }
    for (unsigned i = 0; i < m; i++) {
        uint32_t x = g->end[i], isnode = -(uint32_t)(x != 0);
        const lpm_pt_node *p = &nodes[x];
        uint32_t r = lpm_pt_leaf_get(t->leaves, p, __builtin_popcountll(p->leafvec & ((2ULL << g->endv[i]) - 1)) - 1, lw);
        nh[i] = (nh[i] & ~isnode) | (r & isnode);
    }
}

static ALWAYS_INLINE void batch_v6_body(const lpm_poptrie *t, const lpm_addr *a, uint32_t *nh, size_t n,
                                        unsigned lw)
{
    v6_group S[2];
    size_t ng = (n + G - 1) / G;
#define GM(g) ((unsigned)(n - (g) * G < G ? n - (g) * G : G))
    if (ng)
        v6_start(t, a, nh, GM(0), a, 0, &S[0]);
    for (size_t g = 0; g < ng; g++) {
        if (g + 1 < ng)
            v6_start(t, a + (g + 1) * G, nh + (g + 1) * G, GM(g + 1), g + 2 < ng ? a + (g + 2) * G : a,
                     g + 2 < ng ? GM(g + 2) : 0, &S[(g + 1) & 1]);
        v6_walk(t, a + g * G, nh + g * G, GM(g), &S[g & 1], lw);
    }
#undef GM
}

/* IPv4: two passes over groups of G4 addresses, one group apart. Pass A
 * reads each address's /19 word (prefetched one group before), counts its
 * run and prefetches the run's entry (mleaf[0], the pad, for a block of
 * one entry); pass B reads the entries and answers. The few direct entries
 * that are nodes (prefixes longer than /24) are walked after the group.
 * Masks, not branches: which case a lane takes is as random as the
 * address. */
#define G4 32

static ALWAYS_INLINE void v4_pass_a(const lpm_poptrie *t, const lpm_addr *a, const lpm_addr *ahead, unsigned mahead,
                                    uint32_t *I, uint32_t *E, unsigned lw)
{
    const uint64_t *mid = t->mid;
    for (unsigned i = 0; i < G4; i++) {
        if (i < mahead)
            __builtin_prefetch(&mid[ahead[i].hi >> (64 - LPM_PT_MID_BITS)]);
        uint64_t hi = a[i].hi, e = mid[hi >> (64 - LPM_PT_MID_BITS)];
        uint32_t bm = (uint32_t)(e >> 32), v = (uint32_t)(hi >> (64 - LPM_PT_S4)) & 31;
        uint32_t runs = -(uint32_t)(bm != 0);
        uint32_t k = ((uint32_t)e + (uint32_t)__builtin_popcountll(bm & ((2ULL << v) - 1)) - 1) & runs;
        __builtin_prefetch((const char *)t->mleaf + (size_t)k * lw);
        I[i] = k;
        E[i] = (uint32_t)e & ~runs;
    }
}

static ALWAYS_INLINE void v4_pass_b(const lpm_poptrie *t, const lpm_addr *a, const uint32_t *I, const uint32_t *E,
                                    uint32_t *nh, unsigned lw)
{
    const void *mleaf = t->mleaf;
    uint8_t deep[G4];
    unsigned nd = 0;
    for (unsigned i = 0; i < G4; i++) {
        uint32_t d = lpm_pt_run(mleaf, I[i], lw) | E[i]; /* one of the two is 0 */
        nh[i] = d - 1;
        deep[nd] = (uint8_t)i;
        nd += d >> 31;
    }
    for (unsigned k = 0; k < nd; k++)
        nh[deep[k]] = lpm_pt_walk(t, a[deep[k]].hi, 0);
}

static ALWAYS_INLINE void batch_v4_body(const lpm_poptrie *t, const lpm_addr *a, uint32_t *nh, size_t n, unsigned lw)
{
    uint32_t I[2][G4], E[2][G4];
    size_t ng = n / G4;
    if (ng)
        v4_pass_a(t, a, a, 0, I[0], E[0], lw);
    for (size_t g = 0; g < ng; g++) {
        if (g + 1 < ng)
            v4_pass_a(t, a + (g + 1) * G4, g + 2 < ng ? a + (g + 2) * G4 : a, g + 2 < ng ? G4 : 0, I[(g + 1) & 1],
                      E[(g + 1) & 1], lw);
        v4_pass_b(t, a + g * G4, I[g & 1], E[g & 1], nh + g * G4, lw);
    }
    for (size_t i = ng * G4; i < n; i++)
        nh[i] = lpm_pt_walk(t, a[i].hi, 0);
}

/* The batches for each family and leaf width, plain and (where the CPU
 * has them) with the popcount instruction and BMI2 shifts; a plain x86-64
 * build would call a bit-twiddling popcount. */
#define BATCHES(ATTR, SUF)                                                                          \
    ATTR static void batch_v4_2##SUF(const lpm_poptrie *t, const lpm_addr *a, uint32_t *nh, size_t n) \
    {                                                                                               \
        batch_v4_body(t, a, nh, n, 2);                                                              \
    }                                                                                               \
    ATTR static void batch_v4_4##SUF(const lpm_poptrie *t, const lpm_addr *a, uint32_t *nh, size_t n) \
    {                                                                                               \
        batch_v4_body(t, a, nh, n, 4);                                                              \
    }                                                                                               \
    ATTR static void batch_v6_2##SUF(const lpm_poptrie *t, const lpm_addr *a, uint32_t *nh, size_t n) \
    {                                                                                               \
        batch_v6_body(t, a, nh, n, 2);                                                              \
    }                                                                                               \
    ATTR static void batch_v6_4##SUF(const lpm_poptrie *t, const lpm_addr *a, uint32_t *nh, size_t n) \
    {                                                                                               \
        batch_v6_body(t, a, nh, n, 4);                                                              \
    }

BATCHES(, _plain)
#if defined(__x86_64__) && defined(__GNUC__)
BATCHES(__attribute__((target("popcnt,bmi,bmi2"))), _popcnt)
#endif

static lpm_pt_batch_fn portable(const lpm_poptrie *t)
{
    int v4 = t->family == LPM_AF_INET, w2 = t->lw == 2;
#if defined(__x86_64__) && defined(__GNUC__)
    if (__builtin_cpu_supports("popcnt") && __builtin_cpu_supports("bmi2"))
        return v4 ? (w2 ? batch_v4_2_popcnt : batch_v4_4_popcnt) : (w2 ? batch_v6_2_popcnt : batch_v6_4_popcnt);
#endif
    return v4 ? (w2 ? batch_v4_2_plain : batch_v4_4_plain) : (w2 ? batch_v6_2_plain : batch_v6_4_plain);
}

void lpm_pt_batch_portable(const lpm_poptrie *t, const lpm_addr *a, uint32_t *nh, size_t n)
{
    portable(t)(t, a, nh, n);
}

/* ---- the engine ---- */

static void pick(lpm_poptrie *t)
{
    if (t->family != LPM_AF_INET && lpm_pt_avx512_usable())
        t->batch = lpm_pt_batch_v6_avx512;
    else
        t->batch = portable(t);
}

static void op_destroy(void *s)
{
    lpm_poptrie *t = s;
    if (!t)
        return;
    lpm_pt_release(t);
    free(t);
}

/* Rebuilds the lookup structure from the control-plane trie with 32-bit
 * leaves (a next hop or IPv4 node index 16 bits cannot hold). */
static int widen(lpm_poptrie *t, lpm_err *err)
{
    lpm_pt_release_lookup(t);
    int rc = lpm_pt_init(t, t->family, 4, err);
    if (!rc)
        rc = lpm_pt_apply(t, NULL, err);
    pick(t);
    return rc;
}

/* lpm_pt_apply, widening when it asks for it. */
static int apply(lpm_poptrie *t, const lpm_pt_change *ch, lpm_err *err)
{
    int rc = lpm_pt_apply(t, ch, err);
    return rc == LPM_PT_WIDEN ? widen(t, err) : rc;
}

static int op_build(void **state, const lpm_fib *fib, lpm_err *err)
{
    lpm_poptrie *t = calloc(1, sizeof *t);
    if (!t)
        return lpm_err_set(err, LPM_EFAIL, "out of memory");
    t->h.ops = &lpm_engine_poptrie;
    int family = fib->family ? fib->family : LPM_AF_INET;
    uint32_t maxnh = 0;
    for (size_t i = 0; i < fib->n; i++)
        maxnh = fib->routes[i].nh > maxnh ? fib->routes[i].nh : maxnh;
    int rc = lpm_pt_init(t, family, maxnh <= LPM_PT_NH16_MAX ? 2 : 4, err);
    for (size_t i = 0; i < fib->n && !rc; i++) {
        uint32_t old;
        if (fib->routes[i].nh >= 0x7FFFFFFFu)
            rc = lpm_err_set(err, LPM_EINPUT, "poptrie: next hop %u out of range", fib->routes[i].nh);
        else if (lpm_ptrib_add(&t->rib, &fib->routes[i].pfx, fib->routes[i].nh, &old))
            rc = lpm_err_set(err, LPM_EFAIL, "out of memory");
    }
    if (!rc)
        rc = apply(t, NULL, err);
    if (rc) {
        op_destroy(t);
        return rc;
    }
    pick(t);
    memset(&t->h.cost, 0, sizeof t->h.cost);
    *state = t;
    return LPM_OK;
}

static uint32_t op_lookup(const void *s, const lpm_addr *a)
{
    return lpm_pt_walk(s, a->hi, a->lo);
}

static void op_lookup_batch(const void *s, const lpm_addr *a, uint32_t *nh, size_t n)
{
    const lpm_poptrie *t = s;
    t->batch(t, a, nh, n);
}

static int check_family(const lpm_poptrie *t, const lpm_prefix *p, lpm_err *err)
{
    if (p->family != t->family)
        return lpm_err_set(err, LPM_EINPUT, "poptrie: IPv%d prefix for an IPv%d table", p->family, t->family);
    return LPM_OK;
}

static int op_add(void *s, const lpm_prefix *p, uint32_t nh, lpm_err *err)
{
    lpm_poptrie *t = s;
    uint32_t old;
    int rc = check_family(t, p, err);
    if (rc)
        return rc;
    if (nh >= 0x7FFFFFFFu)
        return lpm_err_set(err, LPM_EINPUT, "poptrie: next hop %u out of range", nh);
    if (lpm_ptrib_add(&t->rib, p, nh, &old))
        return lpm_err_set(err, LPM_EFAIL, "out of memory");
    if (old == nh)
        return LPM_OK;
    if (t->lw == 2 && nh > LPM_PT_NH16_MAX)
        return widen(t, err); /* a next hop 16-bit leaves cannot hold */
    lpm_pt_change ch = { p->addr, p->len };
    return apply(t, &ch, err);
}

static int op_del(void *s, const lpm_prefix *p, lpm_err *err)
{
    lpm_poptrie *t = s;
    int rc = check_family(t, p, err);
    if (rc)
        return rc;
    if (lpm_ptrib_del(&t->rib, p) == LPM_NH_NONE)
        return LPM_OK;
    lpm_pt_change ch = { p->addr, p->len };
    return apply(t, &ch, err);
}

/* The direct array (IPv4: its /19 words and runs), the nodes and leaves
 * in use (blocks on the free lists are left out; updates reuse them). */
static size_t op_memory(const void *s)
{
    const lpm_poptrie *t = s;
    size_t dir = t->mid ? ((size_t)1 << LPM_PT_MID_BITS) * sizeof *t->mid + (t->mused - t->mfree_elems) * t->lw
                        : ((size_t)1 << t->s) * sizeof *t->dir + ((size_t)1 << 16) * sizeof *t->top;
    return dir + (t->nused - t->nfree_elems) * sizeof(lpm_pt_node) + (t->lused - t->lfree_elems) * t->lw;
}

const lpm_engine_ops lpm_engine_poptrie = {
    .name = "poptrie",
    .summary = "Poptrie: 2^24 direct entries (IPv4 compressed by /19), 64-way popcount nodes, compressed leaves",
    .families = LPM_ENGINE_V4 | LPM_ENGINE_V6,
    .build = op_build,
    .lookup = op_lookup,
    .lookup_batch = op_lookup_batch,
    .add = op_add,
    .del = op_del,
    .memory = op_memory,
    .destroy = op_destroy,
    .cost = lpm_cpu_state_cost,
};
