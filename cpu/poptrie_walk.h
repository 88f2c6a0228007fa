/* One poptrie lookup, inline, for the portable engine (poptrie.c) and the
 * AVX-512 batches' odd lanes (poptrie_avx512.c) alike: a header below
 * both, so neither file calls the other for it. */
#ifndef LPM_CPU_POPTRIE_WALK_H
#define LPM_CPU_POPTRIE_WALK_H

#include <stddef.h>
#include <stdint.h>

#include "poptrie.h"

#ifndef ALWAYS_INLINE
#define ALWAYS_INLINE inline __attribute__((always_inline))
#endif

/* Key bits o..o+k-1 (bits past the key read 0); levels never straddle
 * the two words (IPv6: 16 + 8i meets 64). */
static ALWAYS_INLINE unsigned lpm_pt_chunk(uint64_t hi, uint64_t lo, unsigned o, unsigned k)
{
    return (unsigned)(o < 64 ? hi << o >> (64 - k) : lo << (o - 64) >> (64 - k));
}

/* Leaf k of node n (leaves of lw bytes): in the node for the first
 * LPM_PT_LEAF_BYTES / lw, else in the external array. k is -1 only for a
 * lane that goes on (its answer is never used): it reads the node's own
 * base0 field. A 16-bit leaf is sign-extended: 0xFFFF is LPM_NH_NONE. */
static ALWAYS_INLINE uint32_t lpm_pt_leaf_get(const void *leaves, const lpm_pt_node *n, int k, unsigned lw)
{
    /* A select by mask, not a branch: which side a lookup takes is as
     * unpredictable as the address. */
    int inl = LPM_PT_LEAF_BYTES / (int)lw;
    uintptr_t in = (uintptr_t)n + offsetof(lpm_pt_node, leaf) + (uintptr_t)(intptr_t)k * lw;
    uintptr_t ex = (uintptr_t)leaves + (uintptr_t)(n->base0 + (uint32_t)(k - inl)) * lw;
    uintptr_t p = in ^ ((in ^ ex) & -(uintptr_t)(k >= inl));
    return lw == 2 ? (uint32_t)(int32_t) * (const int16_t *)p : *(const uint32_t *)p;
}

static ALWAYS_INLINE uint32_t lpm_pt_walk(const lpm_poptrie *t, uint64_t hi, uint64_t lo)
{
    uint32_t d = t->mid ? lpm_pt_v4_entry(t, hi) : t->dir[hi >> (64 - t->s)];
    if (!(d & LPM_PT_DIR_NODE))
        return d - 1;
    uint32_t x = d & ~LPM_PT_DIR_NODE;
    for (unsigned o = t->s;; o += t->k) {
        unsigned v = lpm_pt_chunk(hi, lo, o, t->k);
        const lpm_pt_node *n = &t->nodes[x + (v >> 6)];
        uint64_t m = (2ULL << (v & 63)) - 1;
        if (!(n->vec >> (v & 63) & 1))
            return lpm_pt_leaf_get(t->leaves, n, __builtin_popcountll(n->leafvec & m) - 1, t->lw);
        x = n->base1 + ((unsigned)__builtin_popcountll(n->vec & m) - 1) * t->seg;
    }
}

#endif
