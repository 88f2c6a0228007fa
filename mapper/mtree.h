/* The mapper's software trie: the direct index table plus blocks of
 * 2^stride entries (controlled prefix expansion inside each block), before
 * any stage placement. Blocks are numbered in creation order, a parent
 * always before its children; with routes inserted in sorted order the
 * blocks of one subtree are contiguous. */
#ifndef LPM_MTREE_H
#define LPM_MTREE_H

#include <stddef.h>
#include <stdint.h>

#include "../core/err.h"
#include "../core/fib.h"

#define LPM_MT_MAX_LEVELS 128

typedef struct lpm_mt_entry {
    uint32_t child;  /* block index + 1; 0: none */
    uint32_t nh;
    uint8_t plen;    /* length of the prefix that set nh, + 1; 0: none */
} lpm_mt_entry;

typedef struct lpm_mt_block {
    uint32_t first;   /* first entry */
    uint32_t parent;  /* block index + 1; 0: a subtree root */
    uint32_t root;    /* DIT index of the subtree */
    uint8_t level;    /* 0 for a subtree root */
    uint8_t k;        /* stride */
    uint16_t height;  /* 0 for a block without children */
    /* placement */
    uint8_t stage;
    uint32_t addr;
} lpm_mt_block;

typedef struct lpm_mtree {
    unsigned x, key_bits, nlev;
    uint8_t sd[LPM_MT_MAX_LEVELS];  /* stride of each block level */
    lpm_mt_entry *dit;               /* 2^x */
    lpm_mt_block *b;
    size_t nb, capb;
    lpm_mt_entry *e;
    size_t ne, cape;
} lpm_mtree;

/* sd[0..nlev) must cover key_bits - x. */
int lpm_mtree_init(lpm_mtree *t, unsigned x, unsigned key_bits, const uint8_t *sd,
                   unsigned nlev, lpm_err *err);
void lpm_mtree_free(lpm_mtree *t);
int lpm_mtree_insert(lpm_mtree *t, const lpm_prefix *p, uint32_t nh, lpm_err *err);
int lpm_mtree_build(lpm_mtree *t, const lpm_fib *f, lpm_err *err);
/* Block heights (children before parents, by reverse creation order). */
void lpm_mtree_heights(lpm_mtree *t);

/* For each depth d in [0, 128]: how many distinct d-bit prefixes have a
 * longer route below them (the blocks a level starting at d would hold).
 * f must be finished (sorted). */
void lpm_depth_profile(const lpm_fib *f, uint64_t prof[129]);

#endif
