/* The poptrie engine's control-plane copy of the prefixes: a plain binary
 * trie (one node per bit, next hop on the node where a prefix ends), from
 * which the lookup structure is built and rebuilt piece by piece. Nodes
 * live in one pool addressed by 32-bit indexes; node 0 is the root (depth
 * 0, the default route) and 0 doubles as "no child". Deletes prune nodes
 * that hold no prefix and have no children, so a node has children exactly
 * when some longer prefix lies below it. */
#ifndef LPM_CPU_POPTRIE_RIB_H
#define LPM_CPU_POPTRIE_RIB_H

#include <stddef.h>
#include <stdint.h>

#include "../core/prefix.h"

typedef struct lpm_ptrib_node {
    uint32_t child[2];  /* 0: none */
    uint32_t nh;        /* LPM_NH_NONE: no prefix ends here */
    /* The next hop every prefix strictly below shares; LPM_NH_NONE: none
     * below; LPM_PTRIB_MIXED: they differ. A subtree whose prefixes all
     * carry the next hop it inherits answers like a leaf. */
    uint32_t sub;
} lpm_ptrib_node;

#define LPM_PTRIB_MIXED (UINT32_MAX - 1)

typedef struct lpm_ptrib {
    lpm_ptrib_node *n;
    uint32_t used, cap;
    uint32_t free_list;  /* chained through child[0]; 0: empty */
    size_t prefixes;
} lpm_ptrib;

int lpm_ptrib_init(lpm_ptrib *r);
void lpm_ptrib_free(lpm_ptrib *r);

/* Adds or replaces p. *old gets the next hop p had (LPM_NH_NONE: new).
 * LPM_EFAIL when out of memory. */
int lpm_ptrib_add(lpm_ptrib *r, const lpm_prefix *p, uint32_t nh, uint32_t *old);
/* Removes p; returns its next hop, LPM_NH_NONE when it was not there. */
uint32_t lpm_ptrib_del(lpm_ptrib *r, const lpm_prefix *p);

/* The node at depth len on a's path (LPM_PTRIB_NIL when absent),
 * and the longest prefix of length <= len on that path: *nh (LPM_NH_NONE)
 * and *blen (-1 when none). */
uint32_t lpm_ptrib_walk(const lpm_ptrib *r, const lpm_addr *a, unsigned len, uint32_t *nh, int *blen);

#define LPM_PTRIB_NIL UINT32_MAX

/* Whether a longer prefix lies below node i (LPM_PTRIB_NIL: no). */
static inline int lpm_ptrib_has_children(const lpm_ptrib *r, uint32_t i)
{
    return i != LPM_PTRIB_NIL && (r->n[i].child[0] | r->n[i].child[1]);
}

/* Whether addresses below node i can get another answer than inh, the
 * next hop they inherit at i: some prefix below carries another. */
static inline int lpm_ptrib_splits(const lpm_ptrib *r, uint32_t i, uint32_t inh)
{
    return lpm_ptrib_has_children(r, i) && r->n[i].sub != inh;
}

#endif
