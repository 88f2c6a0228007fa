/* Multibit trie with a stride array (controlled prefix expansion), and the
 * stride-selection algorithms: fixed, Srinivasan-Varghese optimal (minimum
 * memory for k levels) and GAMT's Algorithm 3 (minimise the widest level,
 * then total memory transactions for transaction size T). */
#ifndef LPM_TRIE_MULTIBIT_H
#define LPM_TRIE_MULTIBIT_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "fib.h"
#include "prefix.h"
#include "trie_unibit.h"

#define LPM_MAX_LEVELS 64
#define LPM_MAX_STRIDE 24   /* 2^24 entries (64 MiB of lookup words) per node */

typedef struct lpm_strides {
    unsigned levels;
    uint8_t stride[LPM_MAX_LEVELS]; /* sum <= family bits (IPv6 may stop at 64) */
} lpm_strides;

/* One entry of a node: an expanded slot. */
typedef struct lpm_mentry {
    uint32_t child;  /* node index + 1 in the next level; 0: leaf slot */
    uint32_t nh;     /* best next hop expanded into this slot, or LPM_NH_NONE */
    uint8_t len;     /* length of the prefix that set nh (for delete/replace) */
} lpm_mentry;

/* The lookup-optimised copy of an entry: one 32-bit word. With
 * LPM_MW_CHILD set, the low 31 bits are the child's node index in the next
 * level; otherwise they are the leaf-pushed next hop of the slot (the
 * longest prefix covering it, from this node or an ancestor), with
 * LPM_MW_NONE for no route. */
#define LPM_MW_CHILD 0x80000000u
#define LPM_MW_NONE 0x7FFFFFFFu

typedef struct lpm_mlevel {
    lpm_mentry *e;       /* nodes * 2^stride entries, node-major (control plane) */
    uint32_t *w;         /* the same slots as lookup words (data plane) */
    size_t nodes, cap;   /* nodes in use (incl. freed), capacity in nodes */
    uint32_t free_head;  /* freed nodes, chained; 0: none (node index + 1) */
    size_t live;         /* nodes in use */
} lpm_mlevel;

typedef struct lpm_multibit {
    int family;
    lpm_strides st;
    unsigned offset[LPM_MAX_LEVELS + 1]; /* first bit of each level; [levels] = bits covered */
    lpm_mlevel level[LPM_MAX_LEVELS];
    lpm_unibit shadow;   /* the original prefixes, to restore on delete */
} lpm_multibit;

/* Fills st; each stride in 1..LPM_MAX_STRIDE, the sum at most the
 * family's bits (a trie whose strides stop short refuses longer prefixes). */
int lpm_strides_fixed(int family, const unsigned *strides, unsigned levels,
                      lpm_strides *st, lpm_err *err);
/* Parses "8,8,8,8" or "16-8-8"; LPM_EINPUT with a reason on bad text. */
int lpm_strides_parse(int family, const char *s, lpm_strides *st, lpm_err *err);
int lpm_strides_optimal(const lpm_unibit *t, unsigned levels, lpm_strides *st, lpm_err *err);
int lpm_strides_gamt(const lpm_unibit *t, unsigned levels, unsigned txn_size,
                     lpm_strides *st, lpm_err *err);
/* "8-8-8-8". */
void lpm_strides_format(const lpm_strides *st, char *buf, size_t size);
unsigned lpm_strides_sum(const lpm_strides *st);

/* Expansion counts of a unibit trie: counts[d] = nodes at depth d with at
 * least one child (those become multibit nodes of a level starting at d;
 * counts[0] = 1, the root). What the two algorithms below minimise over. */
void lpm_strides_node_counts(const lpm_unibit *t, uint64_t counts[129]);
/* The algorithms on counts directly (width = bits to cover, exactly
 * `levels` levels, each stride 1..LPM_MAX_STRIDE). */
int lpm_strides_optimal_counts(const uint64_t *nodes, unsigned width, unsigned levels,
                               lpm_strides *st, lpm_err *err);
int lpm_strides_gamt_counts(const uint64_t *nodes, unsigned width, unsigned levels,
                            unsigned txn, lpm_strides *st, lpm_err *err);
/* A stride array from text: "16-8-8" (or "8,8,8,8") as given,
 * "optimal:K" (Srinivasan-Varghese, K levels), "gamt:K" or "gamt:K:T"
 * (GAMT Algorithm 3, transactions of T entries, default
 * LPM_STRIDES_DEFAULT_TXN), computed on t. */
#define LPM_STRIDES_DEFAULT_TXN 32  /* 128-byte transactions of 4-byte words */
int lpm_strides_spec(const lpm_unibit *t, const char *spec, lpm_strides *st, lpm_err *err);

/* What a stride array costs on given counts. */
typedef struct lpm_strides_costs {
    uint64_t level_entries[LPM_MAX_LEVELS];
    uint64_t entries;       /* total: Srinivasan-Varghese's objective */
    uint64_t widest;        /* GAMT's first objective */
    uint64_t transactions;  /* GAMT's second: sum of ceil(level entries / txn) */
} lpm_strides_costs;
void lpm_strides_cost(const uint64_t *nodes, const lpm_strides *st, unsigned txn,
                      lpm_strides_costs *c);

/* Build fails with LPM_EINPUT when a prefix is longer than the strides
 * cover, or a next-hop index does not fit in 31 bits. */
int lpm_multibit_build(lpm_multibit *m, const lpm_fib *f, const lpm_strides *st, lpm_err *err);
/* The same, taking over an already built unibit trie of f as the shadow
 * (saves building it twice when it chose the strides); on failure it is freed. */
int lpm_multibit_build_with(lpm_multibit *m, const lpm_fib *f, const lpm_strides *st,
                            lpm_unibit *shadow, lpm_err *err);
void lpm_multibit_free(lpm_multibit *m);
int lpm_multibit_insert(lpm_multibit *m, const lpm_prefix *p, uint32_t nh, lpm_err *err);
/* Delete restores, in every slot the prefix held, the next-longest prefix
 * covering it; LPM_EINPUT when the prefix is absent (a no-op). */
int lpm_multibit_delete(lpm_multibit *m, const lpm_prefix *p, lpm_err *err);
uint32_t lpm_multibit_lookup(const lpm_multibit *m, const lpm_addr *a);
/* n lookups, interleaved level by level so cache misses overlap. */
void lpm_multibit_lookup_batch(const lpm_multibit *m, const lpm_addr *a, uint32_t *nh, size_t n);

/* Per-level report: live nodes, their entries and the bytes of their
 * lookup words (4 per entry); per_level has st.levels elements. */
typedef struct lpm_mlevel_stats {
    size_t nodes, entries, bytes;
} lpm_mlevel_stats;
void lpm_multibit_stats(const lpm_multibit *m, lpm_mlevel_stats *per_level, size_t *total_bytes);

#endif
