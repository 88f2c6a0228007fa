/* Unibit (binary) trie: one node per bit, incremental insert and delete,
 * node counts per level, leaf pushing. The mapper builds the pipeline image
 * from it. Node 0 is the root; child index 0 means "no child" (the root is
 * nobody's child). */
#ifndef LPM_TRIE_UNIBIT_H
#define LPM_TRIE_UNIBIT_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "fib.h"
#include "nhtab.h"
#include "prefix.h"

typedef struct lpm_unode {
    uint32_t child[2];  /* 0: none */
    uint32_t nh;        /* LPM_NH_NONE: no prefix ends here */
    uint32_t parent;    /* root's parent is 0 */
    uint8_t depth;      /* bits consumed to reach this node (root 0) */
} lpm_unode;

typedef struct lpm_unibit {
    int family;
    lpm_unode *node;
    size_t n, cap;       /* slots used (including freed ones) and capacity */
    uint32_t free_head;  /* freed slots chained through child[0]; 0: none */
    size_t live;         /* nodes in the trie */
    size_t prefixes;     /* nodes with nh != LPM_NH_NONE */
} lpm_unibit;

int lpm_unibit_init(lpm_unibit *t, int family, lpm_err *err);
void lpm_unibit_free(lpm_unibit *t);
int lpm_unibit_build(lpm_unibit *t, const lpm_fib *f, lpm_err *err);

/* Insert replaces an existing next hop. Delete removes the prefix and
 * prunes nodes left with no prefix and no children; returns LPM_OK, or
 * LPM_EINPUT when the prefix was absent (a no-op). */
int lpm_unibit_insert(lpm_unibit *t, const lpm_prefix *p, uint32_t nh, lpm_err *err);
int lpm_unibit_delete(lpm_unibit *t, const lpm_prefix *p, lpm_err *err);

uint32_t lpm_unibit_lookup(const lpm_unibit *t, const lpm_addr *a);

/* Node whose path is prefix p, or 0 when absent (the root for len 0). */
uint32_t lpm_unibit_find(const lpm_unibit *t, const lpm_prefix *p);

/* counts[d] = live nodes at depth d, for d in 0..128. */
void lpm_unibit_level_counts(const lpm_unibit *t, size_t counts[129]);

/* Leaf pushing: dst becomes a copy of src in which only leaves carry next
 * hops and every internal node has two children (the pushed next hop may
 * be LPM_NH_NONE where no prefix covers). */
int lpm_unibit_leaf_push(const lpm_unibit *src, lpm_unibit *dst, lpm_err *err);

size_t lpm_unibit_memory(const lpm_unibit *t);

#endif
