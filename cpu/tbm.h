/* Tree Bitmap nodes (Eatherton, Varghese, Dittia) as He et al. lay them
 * out: a node is one 32-bit pointer word followed by its bitmaps, the
 * external bitmap (EBM, 2^s bits: which children exist) then the internal
 * bitmap (IBM, 2^s - 1 bits: which prefixes end inside the node), packed
 * into as few 32-bit words as they need (stride 4: one word, 8 bytes a
 * node; stride 7: eight words, 36 bytes). The pointer points between the
 * node's results (below it, result j at ptr-1-j) and its child array
 * (above it, children contiguous), so one pointer serves both. The last
 * level has no EBM and an IBM that reaches the full key length.
 *
 * One lpm_tbm holds the node pool of any number of subtries with the same
 * level shape; their root node indexes live with the caller (an initial
 * array, or TBL24 in the hybrid scheme). */
#ifndef LPM_CPU_TBM_H
#define LPM_CPU_TBM_H

#include <stddef.h>
#include <stdint.h>

#include "../core/prefix.h"
#include "cpu.h"

#define LPM_TBM_MAX_LEVELS 40

typedef struct lpm_tbm_level {
    uint8_t depth;       /* key bits consumed before this node */
    uint8_t stride;
    uint8_t last;        /* no children; IBM covers lengths depth..depth+stride */
    uint8_t words;       /* node size in 32-bit words, pointer included */
    uint16_t ebm_bits;   /* 2^stride, 0 on the last level */
    uint16_t ibm_bits;
    uint32_t *pathmask;  /* per index b: IBM positions on b's path, as bitmap words */
} lpm_tbm_level;

typedef struct lpm_tbm {
    unsigned nlevels;
    lpm_tbm_level lv[LPM_TBM_MAX_LEVELS];
    uint32_t *w;          /* the pool; word 0 is never used (0 = null) */
    size_t used, cap;     /* words */
    uint32_t *free_head;  /* free blocks by size in words; 0: none */
    size_t max_block;
    size_t free_words;
    lpm_cpu_cost *cost;   /* counters to charge (never NULL) */
} lpm_tbm;

/* Levels start at key bit depth0 with the given strides; the last stride
 * is the last level. */
int lpm_tbm_init(lpm_tbm *t, unsigned depth0, const uint8_t *strides, unsigned n,
                 lpm_cpu_cost *cost, lpm_err *err);
void lpm_tbm_free(lpm_tbm *t);

/* Adds or replaces prefix (a, len), len >= depth0, in the subtrie whose
 * root index is *root (0: empty; set when a root is created). */
int lpm_tbm_insert(lpm_tbm *t, uint32_t *root, const lpm_addr *a, unsigned len,
                   uint32_t nh, lpm_err *err);
/* Removes it; returns 1 when it was there, 0 when not. Empty nodes are
 * freed, an emptied root sets *root to 0. */
int lpm_tbm_delete(lpm_tbm *t, uint32_t *root, const lpm_addr *a, unsigned len);

/* Longest match inside the subtrie (lazy checking: EBMs on the way down,
 * IBMs on the way back up), or dflt. */
uint32_t lpm_tbm_lookup(const lpm_tbm *t, uint32_t root, const lpm_addr *a, uint32_t dflt);

/* The same for n <= LPM_TBM_MULTI walks at once, interleaved level by
 * level so their memory accesses overlap (the batch lookups use it). */
#define LPM_TBM_MULTI 8
void lpm_tbm_lookup_multi(const lpm_tbm *t, const uint32_t *root, const lpm_addr *const *a,
                          const uint32_t *dflt, uint32_t *out, unsigned n);

/* One node step of the lookup without lazy checking, for the pipelined
 * model: updates *best from node x's IBM and returns the child to visit
 * next (0: done). */
uint32_t lpm_tbm_step(const lpm_tbm *t, unsigned level, uint32_t x, const lpm_addr *a,
                      uint32_t *best);

/* Copies every subtrie into a fresh, exactly packed pool (after a build by
 * insertion); roots[] are rewritten. */
int lpm_tbm_compact(lpm_tbm *t, uint32_t *roots, size_t nroots, size_t root_stride,
                    lpm_err *err);

/* Bytes of live nodes and results. */
size_t lpm_tbm_memory(const lpm_tbm *t);

#endif
