/* The poptrie engine (poptrie.h): lookups and the engine interface. */
#include "poptrie.h"

#include <stdlib.h>
#include <string.h>

#include "../core/nhtab.h"

#define ALWAYS_INLINE inline __attribute__((always_inline))

/* Key bits o..o+5; o never straddles the two words (16 + 6k meets 64). */
static ALWAYS_INLINE unsigned chunk(uint64_t hi, uint64_t lo, unsigned o)
{
    return (unsigned)(o < 64 ? hi << o >> 58 : lo << (o - 64) >> 58);
}

static ALWAYS_INLINE uint32_t lookup_one(const lpm_poptrie *t, uint64_t hi, uint64_t lo)
{
    uint32_t d = t->dir[hi >> (64 - t->s)];
    if (!(d & LPM_PT_DIR_NODE))
        return d - 1;
    const lpm_pt_node *n = &t->nodes[d & ~LPM_PT_DIR_NODE];
    for (unsigned o = t->s;; o += LPM_PT_STRIDE) {
        unsigned v = chunk(hi, lo, o);
        uint64_t m = (2ULL << v) - 1;
        if (!(n->vec >> v & 1))
            return t->leaves[n->base0 + (unsigned)__builtin_popcountll(n->leafvec & m) - 1];
        n = &t->nodes[n->base1 + (unsigned)__builtin_popcountll(n->vec & m) - 1];
    }
}

/* Batch lookup: G lookups walk level by level. Each level visits only the
 * lookups still going (a branch-free compaction of their lane numbers),
 * prefetches each one's next node, and writes every lane's leaf answer
 * unconditionally (a lane that goes on overwrites it on a later level),
 * so no branch depends on the data. */
#define G 64

static ALWAYS_INLINE void batch_body(const lpm_poptrie *t, const lpm_addr *a, uint32_t *nh, size_t n,
                                     int v6)
{
    const unsigned s = v6 ? 16 : 18;
    const uint32_t *dir = t->dir;
    const lpm_pt_node *nodes = t->nodes;
    const uint32_t *leaves = t->leaves;
    uint64_t khi[G], klo[G];
    uint32_t idx[G], lidx[G];
    uint8_t act[G];
    for (size_t b = 0; b < n; b += G) {
        unsigned m = n - b < G ? (unsigned)(n - b) : G, cnt = 0;
        for (unsigned i = 0; i < m; i++) {
            uint64_t hi = a[b + i].hi;
            khi[i] = hi;
            if (v6)
                klo[i] = a[b + i].lo;
            if (b + G + i < n)
                __builtin_prefetch(&dir[a[b + G + i].hi >> (64 - s)]);
            uint32_t d = dir[hi >> (64 - s)];
            nh[b + i] = d - 1;
            lidx[i] = 0;
            idx[i] = d & ~LPM_PT_DIR_NODE;
            __builtin_prefetch(&nodes[idx[i]]);
            act[cnt] = (uint8_t)i;
            cnt += d >> 31;
        }
        for (unsigned o = s; cnt; o += LPM_PT_STRIDE) {
            unsigned nc = 0;
            const uint64_t *kw = v6 && o >= 64 ? klo : khi;
            unsigned sh = o & 63;
            for (unsigned j = 0; j < cnt; j++) {
                unsigned i = act[j];
                const lpm_pt_node *p = &nodes[idx[i]];
                unsigned v = (unsigned)(kw[i] << sh >> 58);
                uint64_t msk = (2ULL << v) - 1, vec = p->vec;
                uint32_t l = p->base0 + (unsigned)__builtin_popcountll(p->leafvec & msk) - 1;
                uint32_t c = p->base1 + (unsigned)__builtin_popcountll(vec & msk) - 1;
                lidx[i] = l;
                idx[i] = c;
                __builtin_prefetch(&leaves[l]);
                __builtin_prefetch(&nodes[c]);
                act[nc] = (uint8_t)i;
                nc += (unsigned)(vec >> v) & 1;
            }
            cnt = nc;
        }
        /* The leaves were prefetched as their indexes became known. */
        for (unsigned i = 0; i < m; i++) {
            uint32_t r = leaves[lidx[i]];
            nh[b + i] = lidx[i] ? r : nh[b + i];
        }
    }
}

static void batch_v4(const lpm_poptrie *t, const lpm_addr *a, uint32_t *nh, size_t n)
{
    batch_body(t, a, nh, n, 0);
}

static void batch_v6(const lpm_poptrie *t, const lpm_addr *a, uint32_t *nh, size_t n)
{
    batch_body(t, a, nh, n, 1);
}

#if defined(__x86_64__) && defined(__GNUC__)
/* The same loops with the popcount instruction (and BMI2 shifts) where the
 * CPU has them; a plain x86-64 build would call a bit-twiddling popcount. */
__attribute__((target("popcnt,bmi,bmi2"))) static void batch_v4_popcnt(const lpm_poptrie *t, const lpm_addr *a,
                                                                       uint32_t *nh, size_t n)
{
    batch_body(t, a, nh, n, 0);
}

__attribute__((target("popcnt,bmi,bmi2"))) static void batch_v6_popcnt(const lpm_poptrie *t, const lpm_addr *a,
                                                                       uint32_t *nh, size_t n)
{
    batch_body(t, a, nh, n, 1);
}
#endif

static lpm_pt_batch_fn portable(int family)
{
#if defined(__x86_64__) && defined(__GNUC__)
    if (__builtin_cpu_supports("popcnt") && __builtin_cpu_supports("bmi2"))
        return family == LPM_AF_INET ? batch_v4_popcnt : batch_v6_popcnt;
#endif
    return family == LPM_AF_INET ? batch_v4 : batch_v6;
}

void lpm_pt_batch_portable(const lpm_poptrie *t, const lpm_addr *a, uint32_t *nh, size_t n)
{
    portable(t->family)(t, a, nh, n);
}

static lpm_pt_batch_fn pick_batch(int family)
{
    if (lpm_pt_avx512_usable())
        return family == LPM_AF_INET ? lpm_pt_batch_v4_avx512 : lpm_pt_batch_v6_avx512;
    return portable(family);
}

/* ---- the engine ---- */

static void op_destroy(void *s)
{
    lpm_poptrie *t = s;
    if (!t)
        return;
    lpm_pt_release(t);
    free(t);
}

static int op_build(void **state, const lpm_fib *fib, lpm_err *err)
{
    lpm_poptrie *t = calloc(1, sizeof *t);
    if (!t)
        return lpm_err_set(err, LPM_EFAIL, "out of memory");
    t->h.ops = &lpm_engine_poptrie;
    int family = fib->family ? fib->family : LPM_AF_INET;
    int rc = lpm_pt_init(t, family, err);
    for (size_t i = 0; i < fib->n && !rc; i++) {
        uint32_t old;
        if (fib->routes[i].nh >= 0x7FFFFFFFu)
            rc = lpm_err_set(err, LPM_EINPUT, "poptrie: next hop %u out of range", fib->routes[i].nh);
        else if (lpm_ptrib_add(&t->rib, &fib->routes[i].pfx, fib->routes[i].nh, &old))
            rc = lpm_err_set(err, LPM_EFAIL, "out of memory");
    }
    if (!rc)
        rc = lpm_pt_apply(t, NULL, err);
    if (rc) {
        op_destroy(t);
        return rc;
    }
    t->batch = pick_batch(family);
    memset(&t->h.cost, 0, sizeof t->h.cost);
    *state = t;
    return LPM_OK;
}

static uint32_t op_lookup(const void *s, const lpm_addr *a)
{
    return lookup_one(s, a->hi, a->lo);
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
    lpm_pt_change ch = { p->addr, p->len };
    return lpm_pt_apply(t, &ch, err);
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
    return lpm_pt_apply(t, &ch, err);
}

/* The direct array, the nodes and leaves in use (blocks on the free lists
 * are left out; updates reuse them). */
static size_t op_memory(const void *s)
{
    const lpm_poptrie *t = s;
    return ((size_t)1 << t->s) * sizeof *t->dir + (t->nused - t->nfree_elems) * sizeof(lpm_pt_node) +
           (t->lused - t->lfree_elems) * sizeof(uint32_t);
}

const lpm_engine_ops lpm_engine_poptrie = {
    .name = "poptrie",
    .summary = "Poptrie: 2^18 (IPv6 2^16) direct array, 64-way popcount nodes, compressed leaves",
    .families = LPM_ENGINE_V4 | LPM_ENGINE_V6,
    .build = op_build,
    .lookup = op_lookup,
    .lookup_batch = op_lookup_batch,
    .add = op_add,
    .del = op_del,
    .memory = op_memory,
    .destroy = op_destroy,
};
