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

typedef struct lpm_mlevel {
    lpm_mentry *e;       /* nodes * 2^stride entries, node-major */
    size_t nodes, cap;   /* nodes in use (incl. freed), capacity in nodes */
    uint32_t free_head;  /* freed nodes, chained; 0: none (node index + 1) */
    size_t live;         /* nodes in use */
} lpm_mlevel;

typedef struct lpm_multibit {
    int family;
    lpm_strides st;
    unsigned offset[LPM_MAX_LEVELS + 1]; /* first bit of each level */
    lpm_mlevel level[LPM_MAX_LEVELS];
    lpm_unibit shadow;   /* the original prefixes, to restore on delete */
} lpm_multibit;

/* Fills st; the strides must sum to at most the family's bits. */
int lpm_strides_fixed(int family, const unsigned *strides, unsigned levels,
                      lpm_strides *st, lpm_err *err);
/* Parses "8,8,8,8" or "16-8-8"; LPM_EINPUT with a reason on bad text. */
int lpm_strides_parse(int family, const char *s, lpm_strides *st, lpm_err *err);
int lpm_strides_optimal(const lpm_unibit *t, unsigned levels, lpm_strides *st, lpm_err *err);
int lpm_strides_gamt(const lpm_unibit *t, unsigned levels, unsigned txn_size,
                     lpm_strides *st, lpm_err *err);
/* "8-8-8-8". */
void lpm_strides_format(const lpm_strides *st, char *buf, size_t size);

int lpm_multibit_build(lpm_multibit *m, const lpm_fib *f, const lpm_strides *st, lpm_err *err);
void lpm_multibit_free(lpm_multibit *m);
int lpm_multibit_insert(lpm_multibit *m, const lpm_prefix *p, uint32_t nh, lpm_err *err);
int lpm_multibit_delete(lpm_multibit *m, const lpm_prefix *p, lpm_err *err);
uint32_t lpm_multibit_lookup(const lpm_multibit *m, const lpm_addr *a);

/* Per-level report: live nodes and bytes of entries. */
typedef struct lpm_mlevel_stats {
    size_t nodes, entries, bytes;
} lpm_mlevel_stats;
void lpm_multibit_stats(const lpm_multibit *m, lpm_mlevel_stats *per_level, size_t *total_bytes);

#endif
