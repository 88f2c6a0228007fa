/* DIR-24-8-BASIC (Gupta, Lin, McKeown) as He et al. implement it: TBL24
 * holds 2^24 32-bit entries, each a next hop with the length of the prefix
 * that set it, or (long flag) the index of a 256-entry TBLlong block for
 * the /24 that has longer prefixes. IPv4 only.
 *
 * Entry: bit 31 long flag, bits 25..30 prefix length, bits 0..24 next hop
 * (NH_NONE: no route) or block index. Lengths let an update touch only the
 * entries that the updated prefix owns. */
#include "cpu.h"
#include "tbl24.h"

#include <stdlib.h>
#include <string.h>

#define LONG_FLAG 0x80000000u
#define LEN_SHIFT 25
#define VAL_MASK 0x01FFFFFFu
#define NH_NONE VAL_MASK

#define E_LEN(e) (((e) >> LEN_SHIFT) & 0x3Fu)
#define E_VAL(e) ((e) & VAL_MASK)
#define MK(len, v) (((uint32_t)(len) << LEN_SHIFT) | (v))

typedef struct dir24_8 {
    lpm_cpu_hdr h;
    uint32_t *tbl24;
    uint32_t *tbllong;        /* blocks of 256 */
    lpm_tbl24_pool blocks;    /* TBLlong block numbers */
    lpm_ref *shadow;
} dir24_8;

static inline uint32_t dir_lookup(const dir24_8 *d, uint32_t ip)
{
    uint32_t e = d->tbl24[ip >> 8];
    if (e & LONG_FLAG)
        e = d->tbllong[((size_t)E_VAL(e) << 8) | (ip & 0xFF)];
    uint32_t v = E_VAL(e);
    return v == NH_NONE ? LPM_NH_NONE : v;
}

/* A new block filled with entry e (which is not long); UINT32_MAX on no memory. */
static uint32_t block_alloc(dir24_8 *d, uint32_t e)
{
    void *blocks = d->tbllong;
    uint32_t b = lpm_tbl24_pool_take(&d->blocks, &blocks, 256 * sizeof(uint32_t), 256, VAL_MASK);
    d->tbllong = blocks;
    if (b == UINT32_MAX)
        return b;
    for (size_t j = 0; j < 256; j++)
        lpm_cpu_set_entry(&d->h.cost, &d->tbllong[((size_t)b << 8) | j], e);
    return b;
}

/* Writes (len, nh) into the entries of [first, first+count) of a block or
 * of TBL24 whose owner is not longer (add) or is exactly len (delete). */
static void fill(dir24_8 *d, uint32_t *t, size_t first, size_t count, unsigned len,
                 uint32_t v, int del, unsigned newlen)
{
    for (size_t i = first; i < first + count; i++) {
        uint32_t e = t[i];
        if (t == d->tbl24 && (e & LONG_FLAG)) {
            fill(d, d->tbllong, (size_t)E_VAL(e) << 8, 256, len, v, del, newlen);
            continue;
        }
        if (del ? E_LEN(e) == len && E_VAL(e) != NH_NONE : E_LEN(e) <= len || E_VAL(e) == NH_NONE)
            lpm_cpu_set_entry(&d->h.cost, &t[i], MK(newlen, v));
    }
}

static int insert(dir24_8 *d, const lpm_prefix *p, uint32_t nh, lpm_err *err)
{
    if (nh >= NH_NONE)
        return lpm_err_set(err, LPM_EINPUT, "dir24-8: next hop index %u does not fit in 25 bits", nh);
    uint32_t ip = lpm_addr_to_v4(&p->addr);
    size_t first, count;
    if (p->len <= 24) {
        lpm_tbl24_range(p, &first, &count);
        fill(d, d->tbl24, first, count, p->len, nh, 0, p->len);
        return LPM_OK;
    }
    uint32_t *e = &d->tbl24[lpm_tbl24_index(&p->addr)];
    if (!(*e & LONG_FLAG)) {
        uint32_t b = block_alloc(d, *e);
        if (b == UINT32_MAX)
            return lpm_err_set(err, LPM_EFAIL, "out of memory");
        lpm_cpu_set_entry(&d->h.cost, e, LONG_FLAG | b);
    }
    fill(d, d->tbllong, ((size_t)E_VAL(*e) << 8) | (ip & 0xFF), (size_t)1 << (32 - p->len),
         p->len, nh, 0, p->len);
    return LPM_OK;
}

static int op_add(void *s, const lpm_prefix *p, uint32_t nh, lpm_err *err)
{
    dir24_8 *d = s;
    if (p->family != LPM_AF_INET)
        return lpm_err_set(err, LPM_EINPUT, "dir24-8 holds IPv4 only");
    int rc = insert(d, p, nh, err);
    if (!rc && lpm_ref_add(d->shadow, p, nh))
        rc = lpm_err_set(err, LPM_EFAIL, "out of memory");
    return rc;
}

static int op_del(void *s, const lpm_prefix *p, lpm_err *err)
{
    dir24_8 *d = s;
    if (p->family != LPM_AF_INET)
        return lpm_err_set(err, LPM_EINPUT, "dir24-8 holds IPv4 only");
    if (!lpm_ref_del(d->shadow, p))
        return LPM_OK; /* absent: a no-op */
    int rl;
    uint32_t rnh = lpm_cpu_shadow_parent(d->shadow, p, 0, &rl);
    uint32_t v = rl < 0 ? NH_NONE : rnh;
    unsigned nl = rl < 0 ? 0 : (unsigned)rl;
    uint32_t ip = lpm_addr_to_v4(&p->addr);
    size_t first, count;
    if (p->len <= 24) {
        lpm_tbl24_range(p, &first, &count);
        fill(d, d->tbl24, first, count, p->len, v, 1, nl);
        return LPM_OK;
    }
    uint32_t *e = &d->tbl24[lpm_tbl24_index(&p->addr)];
    if (!(*e & LONG_FLAG))
        return LPM_OK;
    uint32_t *blk = &d->tbllong[(size_t)E_VAL(*e) << 8];
    fill(d, blk, ip & 0xFF, (size_t)1 << (32 - p->len), p->len, v, 1, nl);
    /* A block with no prefix longer than /24 left is uniform: fold it back. */
    for (size_t j = 0; j < 256; j++)
        if (E_LEN(blk[j]) > 24)
            return LPM_OK;
    lpm_tbl24_pool_put(&d->blocks, E_VAL(*e));
    lpm_cpu_set_entry(&d->h.cost, e, blk[0]);
    return LPM_OK;
}

static void op_destroy(void *s)
{
    dir24_8 *d = s;
    if (!d)
        return;
    lpm_tbl24_free(d->tbl24);
    free(d->tbllong);
    lpm_tbl24_pool_release(&d->blocks);
    lpm_ref_free(d->shadow);
    free(d);
}

static int op_build(void **state, const lpm_fib *fib, lpm_err *err)
{
    if (fib->family != LPM_AF_INET)
        return lpm_err_set(err, LPM_EINPUT, "dir24-8 holds IPv4 only");
    dir24_8 *d = calloc(1, sizeof *d);
    size_t *idx = malloc((fib->n ? fib->n : 1) * sizeof *idx);
    int rc = LPM_OK;
    if (!d || !idx || !(d->h.ops = &lpm_engine_dir24_8) ||
        !(d->tbl24 = lpm_tbl24_new(NH_NONE)) ||
        lpm_ref_build(&d->shadow, fib, err)) {
        free(idx);
        op_destroy(d);
        return lpm_err_set(err, LPM_EFAIL, "out of memory");
    }
    /* Shortest first: every write then stands. */
    lpm_cpu_order_by_len(fib, idx);
    for (size_t i = 0; i < fib->n && !rc; i++)
        rc = insert(d, &fib->routes[idx[i]].pfx, fib->routes[idx[i]].nh, err);
    free(idx);
    if (rc) {
        op_destroy(d);
        return rc;
    }
    memset(&d->h.cost, 0, sizeof d->h.cost);
    *state = d;
    return LPM_OK;
}

static uint32_t op_lookup(const void *s, const lpm_addr *a)
{
    return dir_lookup(s, lpm_addr_to_v4(a));
}

/* Prefetches the TBL24 entry PF_AHEAD addresses ahead, so the cache
 * misses of consecutive lookups overlap instead of queueing. A lookup
 * costs a few cycles and a miss to memory some hundreds: 16 ahead kept
 * too few misses in flight (random-match on pfx2as, 2026-11-25: 48 ahead
 * ran 1.15-1.2x the lookups per CPU-second of 16; 32 between). */
#define PF_AHEAD 48

static void op_lookup_batch(const void *s, const lpm_addr *a, uint32_t *nh, size_t n)
{
    const dir24_8 *d = s;
    for (size_t i = 0; i < n; i++) {
        if (i + PF_AHEAD < n)
            __builtin_prefetch(&d->tbl24[lpm_tbl24_index(&a[i + PF_AHEAD])]);
        nh[i] = dir_lookup(d, lpm_addr_to_v4(&a[i]));
    }
}

static size_t op_memory(const void *s)
{
    const dir24_8 *d = s;
    return LPM_TBL24_BYTES + lpm_tbl24_pool_live(&d->blocks) * 256 * sizeof(uint32_t);
}

const lpm_engine_ops lpm_engine_dir24_8 = {
    .name = "dir24-8",
    .summary = "DIR-24-8-BASIC: 2^24-entry TBL24 plus 256-entry TBLlong blocks",
    .families = LPM_ENGINE_V4,
    .build = op_build,
    .lookup = op_lookup,
    .lookup_batch = op_lookup_batch,
    .add = op_add,
    .del = op_del,
    .memory = op_memory,
    .destroy = op_destroy,
    .cost = lpm_cpu_state_cost,
};
