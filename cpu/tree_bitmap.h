/* The Tree Bitmap engine of He et al.: an initial array indexed by the
 * first k bits (prefixes shorter than k expanded into it), whose entries
 * point at Tree Bitmap subtries with a fixed stride below (13-4-4-4-4-3 and
 * 11-7-7-7 for IPv4; for IPv6 the stride repeats and the last level takes
 * what is left of the 128 bits). The hybrid engine reuses it for its short
 * prefixes, the pipelined model walks it level by level. */
#ifndef LPM_CPU_TREE_BITMAP_H
#define LPM_CPU_TREE_BITMAP_H

#include "cpu.h"
#include "tbm.h"

typedef struct lpm_tbm_slot {
    uint32_t child;   /* root node of the subtrie below this entry, 0: none */
    uint32_t nh;      /* longest prefix shorter than k covering the entry */
} lpm_tbm_slot;

typedef struct lpm_tree_bitmap {
    lpm_cpu_hdr h;
    int family;
    unsigned k;
    lpm_tbm_slot *init;   /* 2^k entries */
    uint8_t *init_len;    /* length behind init[i].nh, 0xFF: none (updates only) */
    lpm_tbm t;
    lpm_ref *shadow;      /* the prefixes, for deletes */
} lpm_tree_bitmap;

/* Node strides after a k-bit initial array: s repeated, the last level
 * taking the rest of the family's bits (>= 1, <= s). Returns the count. */
unsigned lpm_tree_bitmap_shape(int family, unsigned k, unsigned s, uint8_t *strides);

/* An empty engine of that shape. ops: the engine it is built as. */
int lpm_tree_bitmap_new(lpm_tree_bitmap **out, const lpm_engine_ops *ops, int family,
                        unsigned k, const uint8_t *strides, unsigned n, lpm_err *err);
/* Adds every route of f (prefixes longer than max_len are left out), then
 * packs the pool; the update counters start at zero afterwards. */
int lpm_tree_bitmap_fill(lpm_tree_bitmap *tb, const lpm_fib *f, unsigned max_len, lpm_err *err);
void lpm_tree_bitmap_destroy(lpm_tree_bitmap *tb);

int lpm_tree_bitmap_add(lpm_tree_bitmap *tb, const lpm_prefix *p, uint32_t nh, lpm_err *err);
int lpm_tree_bitmap_del(lpm_tree_bitmap *tb, const lpm_prefix *p, lpm_err *err);

static inline uint32_t lpm_tree_bitmap_lookup(const lpm_tree_bitmap *tb, const lpm_addr *a)
{
    const lpm_tbm_slot *e = &tb->init[lpm_addr_bits(a, 0, tb->k)];
    return e->child ? lpm_tbm_lookup(&tb->t, e->child, a, e->nh) : e->nh;
}

size_t lpm_tree_bitmap_memory(const lpm_tree_bitmap *tb);

#endif
