/* The shape of a prefix table, as the synthetic model sees it: per trie
 * level (depth d = prefix length), the unibit-trie nodes, the prefixes and
 * the leaf prefixes (no longer prefix below them), plus nesting. Measured
 * from any finished FIB; the model in synth.c is one such profile of a
 * real table (docs/synthetic.md). */
#ifndef LPM_SYNTH_PROFILE_H
#define LPM_SYNTH_PROFILE_H

#include <stddef.h>
#include <stdint.h>

#include "fib.h"

typedef struct lpm_fib_profile {
    int family;
    size_t prefixes;
    size_t nodes[129];     /* unibit-trie nodes at depth d (root: depth 0) */
    size_t len[129];       /* prefixes of length d */
    size_t leaves[129];    /* prefixes of length d with no longer prefix below */
    size_t nested;         /* prefixes covered by a shorter prefix */
    size_t total_nodes;
} lpm_fib_profile;

/* Measures a finished (sorted, unique) FIB. O(prefixes x address bits). */
void lpm_fib_profile_measure(const lpm_fib *f, lpm_fib_profile *p);

#endif
