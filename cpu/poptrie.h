/* The poptrie engine (docs/cpu-engines.md): a multiway trie after Asai and
 * Ohara's Poptrie (SIGCOMM 2015), written from the paper. The top s key
 * bits index a direct array (s = 24 for IPv4 and IPv6; the IPv4 one is
 * stored compressed, below). Below it, a node of 64 positions consumes 6
 * key bits and holds two 64-bit bitmaps:
 * `vec` marks the positions that continue into a child, `leafvec` the
 * positions where a new run of equal leaves begins. A node's children are
 * contiguous (from base1), so a popcount of `vec` below the key's position
 * indexes them; a popcount of `leafvec` indexes its leaves. Leaves are
 * leaf-pushed next hops; runs of equal leaves are stored once. A node is
 * one 64-byte cache line that carries its first leaves itself (the rest,
 * for nodes with more runs, in a separate leaf array), so a lookup reads
 * one line per level and usually no other. Leaves are 16-bit (20 inline)
 * while every next hop is below 32767, else 32-bit (10 inline); an update
 * that brings a larger one rebuilds the trie with 32-bit leaves. A subtree
 * whose prefixes all carry the next hop it inherits is a leaf, not a
 * node.
 *
 * IPv4: the 2^24 direct entries (one per /24) are kept compressed in
 * blocks of 32 (a /19), the same way a node keeps its leaves: `mid` has
 * one 64-bit word per /19, a 32-bit bitmap of where runs of equal direct
 * entries start and the index of the block's runs in `mleaf` (or, bitmap
 * 0, the one entry of the whole /19 itself). A lookup reads the word, a
 * popcount gives the run, and one more load the direct entry: two lines
 * for almost every address (prefixes up to /24), where the 2^18 array and
 * a node took two or three, and fewer instructions. Nodes start below /24
 * (levels 24, 30).
 *
 * IPv6 levels take 8 bits (24, 32,
 * ..., 120: a /32 ends on the first level, a /48 on the third): a level
 * node is then 4 consecutive 64-position nodes, the top 2 of its 8 bits
 * pick one, and children are counted in whole level nodes.
 *
 * Shared by poptrie.c (lookups, engine) and poptrie_update.c (building and
 * incremental updates from the control-plane trie). */
#ifndef LPM_CPU_POPTRIE_H
#define LPM_CPU_POPTRIE_H

#include <stddef.h>
#include <stdint.h>

#include "cpu.h"
#include "poptrie_rib.h"

#define LPM_PT_DIR_NODE 0x80000000u  /* direct entry: node index follows */

/* Direct-pointing bits: IPv4 24 (compressed by /19: 2^19 words of 8
 * bytes, 4 MiB, and the runs); IPv6 24, so that 8-bit levels end on /32,
 * /40 and /48, where most IPv6 prefixes are, one level fewer for each
 * than from 16. */
#ifndef LPM_PT_S6
#define LPM_PT_S6 24
#endif
#define LPM_PT_S4 24
#define LPM_PT_MID_BITS 19   /* IPv4: a compressed block per /19, 32 direct entries */

#define LPM_PT_LEAF_BYTES 40   /* leaves kept in the node: 10 of 32 bits or 20 of 16 */
#define LPM_PT_NH16_MAX 0x7FFE /* 16-bit leaves hold next hops up to this; 0xFFFF: none */

typedef struct lpm_pt_node {
    uint64_t vec;      /* bit j: position j has a child node */
    uint64_t leafvec;  /* bit j: a run of leaves starts at position j */
    uint32_t base1;    /* first child */
    uint32_t base0;    /* leaf k >= inl is leaf k - inl of the external block at base0 */
    union {
        uint32_t leaf[LPM_PT_LEAF_BYTES / 4];
        uint16_t leaf16[LPM_PT_LEAF_BYTES / 2];
    };
} __attribute__((aligned(64))) lpm_pt_node;

typedef struct lpm_poptrie lpm_poptrie;
typedef void (*lpm_pt_batch_fn)(const lpm_poptrie *t, const lpm_addr *a, uint32_t *nh, size_t n);

struct lpm_poptrie {
    lpm_cpu_hdr h;
    int family;
    unsigned s;               /* direct-pointing bits */
    unsigned k, seg;          /* bits per level, and 64-position nodes per level node (2^(k-6)) */
    /* Direct array: LPM_PT_DIR_NODE | node index, or next hop + 1 (0: no
     * route), so a leaf answers with one subtraction. */
    uint32_t *dir;
    /* IPv6 only (else NULL): 2^16 entries, one per /16: the direct entry
     * (a leaf) that all 256 direct entries under it share, or
     * LPM_PT_DIR_NODE: read the direct array. Batches read it first, so
     * that traffic outside the table's /24s (uniform addresses, most of
     * them in no route) stays in a 256 KiB array instead of missing the
     * cache in the 64 MiB one. */
    uint32_t *top;
    /* IPv4 only (else NULL; dir is then NULL): the direct entries in
     * blocks of 32, one word per block: bitmap << 32 | first run in
     * mleaf, or (bitmap 0) the block's one entry. mleaf[0] is a pad that
     * stays 0, so a lane that needs no run can read it. */
    uint64_t *mid;
    void *mleaf;                         /* runs of lw bytes (16-bit: see lpm_pt_run) */
    uint32_t mused, mcap, mfree[33];     /* mleaf pool: top, size, free blocks by size */
    size_t mfree_elems;
    lpm_pt_node *nodes;
    unsigned lw, inl;         /* leaf width in bytes (2 or 4), leaves inline */
    void *leaves;             /* external leaves, lw bytes each */
    uint32_t nused, ncap, lused, lcap;   /* pool tops and sizes (elements) */
    uint32_t nfree[1025], lfree[65];     /* free blocks by size, 0: none */
    size_t nfree_elems, lfree_elems;
    lpm_pt_batch_fn batch;
    lpm_ptrib rib;
};

/* The prefix an update touched (len) or NULL for "everything" (a build). */
typedef struct lpm_pt_change {
    lpm_addr key;
    unsigned len;
} lpm_pt_change;

/* The batch lookup in C (with the popcount instruction where the CPU has
 * it, chosen at run time), and the IPv6 one with AVX-512
 * (poptrie_avx512.c), which builds install where lpm_pt_avx512_usable().
 * IPv4 has no AVX-512 batch: its two loads per lookup leave too little
 * for vectors to win (docs/cpu-engines.md). */
void lpm_pt_batch_portable(const lpm_poptrie *t, const lpm_addr *a, uint32_t *nh, size_t n);
int lpm_pt_avx512_usable(void);
void lpm_pt_batch_v6_avx512(const lpm_poptrie *t, const lpm_addr *a, uint32_t *nh, size_t n);

/* IPv4 runs are direct entries of the leaves' width: 32-bit as they are;
 * 16-bit (every next hop <= LPM_PT_NH16_MAX) with bit 15 for bit 31, so
 * node indices up to 0x7FFF (lpm_pt_apply returns LPM_PT_WIDEN for a
 * larger one: the caller rebuilds with 32-bit leaves). */
#define LPM_PT_WIDEN 100
#define LPM_PT_RUN16_NODE_MAX 0x7FFFu

static inline __attribute__((always_inline)) uint32_t lpm_pt_run(const void *mleaf, uint32_t k, unsigned lw)
{
    if (lw == 4)
        return ((const uint32_t *)mleaf)[k];
    uint32_t v = ((const uint16_t *)mleaf)[k];
    return (v & 0x7FFF) | (v & 0x8000) << 16;
}

/* IPv4: the direct entry of key word hi, from its /19 block (mid). */
static inline __attribute__((always_inline)) uint32_t lpm_pt_v4_entry(const lpm_poptrie *t, uint64_t hi)
{
    uint64_t e = t->mid[hi >> (64 - LPM_PT_MID_BITS)];
    uint32_t bm = (uint32_t)(e >> 32), v = (uint32_t)(hi >> (64 - LPM_PT_S4)) & 31;
    if (!bm)
        return (uint32_t)e;
    return lpm_pt_run(t->mleaf, (uint32_t)e + (uint32_t)__builtin_popcountll(bm & ((2ULL << v) - 1)) - 1, t->lw);
}

/* IPv6: where the direct entry of key word hi is read: the top array's
 * entry when it answers for its whole /16, else the direct array's (a
 * select, not a branch). */
static inline __attribute__((always_inline)) const uint32_t *lpm_pt_v6_entry(const lpm_poptrie *t, uint64_t hi)
{
    const uint32_t *tp = &t->top[hi >> 48];
    uintptr_t a = (uintptr_t)tp, b = (uintptr_t)&t->dir[hi >> (64 - LPM_PT_S6)];
    return (const uint32_t *)(a ^ ((a ^ b) & -(uintptr_t)(*tp >> 31)));
}

/* Allocates the pools and direct array of an empty trie with leaves of lw
 * bytes (the control-plane trie is kept across a re-init). */
int lpm_pt_init(lpm_poptrie *t, int family, unsigned lw, lpm_err *err);
void lpm_pt_release(lpm_poptrie *t);
void lpm_pt_release_lookup(lpm_poptrie *t);

/* Recomputes the direct entries (and the nodes below them) that a change
 * can reach, from the control-plane trie; ch NULL rebuilds everything.
 * LPM_PT_WIDEN (no message): 16-bit IPv4 runs cannot hold a node index;
 * the trie is half-updated and must be rebuilt with 32-bit leaves. */
int lpm_pt_apply(lpm_poptrie *t, const lpm_pt_change *ch, lpm_err *err);

#endif
