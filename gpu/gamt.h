/* GAMT on the host: the multibit trie kept on the CPU (the "original
 * trie"), its encoding as a state-jump table, the WB table of changed
 * (level, location) pairs, bubble preparation (Algorithm 2), lazy delete,
 * head room, and rebuild into the second copy. What holds the lookup copies
 * (host arrays for the CPU build, GPU memory for CUDA) is a sink. */
#ifndef LPM_GAMT_H
#define LPM_GAMT_H

#include <stddef.h>
#include <stdint.h>

#include "../core/err.h"
#include "../core/fib.h"
#include "../core/ref_lpm.h"
#include "gamt_lookup.h"

/* One write of the on-line update: <stage, location, value>. */
typedef struct lpm_gamt_bubble {
    uint32_t level;  /* 1..H */
    uint32_t loc;    /* unit within the level */
    uint32_t value;
} lpm_gamt_bubble;

/* Where the two lookup copies live. Every call returns LPM_OK or an error
 * with a message. The protocol (tests/gpu/test_gamt.c checks it):
 * - upload replaces copy c wholesale (any width), and only a copy that
 *   lookups are not using: the initial one, or the inactive one for a
 *   rebuild. It gets row k-1 = level k's first used[k-1] units; the rest
 *   of each row (head room) must read GAMT_UNIT_EMPTY, a no-route leaf, so
 *   that a stale read can never look like an answer. strides is [0..H],
 *   index 0 unused.
 * - swap makes copy c (just uploaded) the one lookups use from now on and
 *   the one bubbles go to: the device waits for the upload before any
 *   lookup or bubble reads c, and may reuse the old copy once the lookups
 *   still reading it are done.
 * - apply writes a batch of bubbles into the active copy c, in list order
 *   of levels (the list comes deepest level first, so a child is written
 *   before its pointer). */
typedef struct lpm_gamt_sink {
    void *ctx;
    int (*upload)(void *ctx, int copy, const uint32_t *const *rows, const uint32_t *used,
                  unsigned levels, uint32_t width, const uint8_t *strides, lpm_err *err);
    int (*swap)(void *ctx, int copy, lpm_err *err);
    int (*apply)(void *ctx, int copy, const lpm_gamt_bubble *b, size_t n, lpm_err *err);
} lpm_gamt_sink;

typedef struct lpm_gamt_level {
    uint32_t *code;   /* the encoded units (the truth bubbles read) */
    uint32_t *onh;    /* next hop of the longest prefix expanded into the unit */
    uint8_t *olen;    /* its length (0: none; the node's inherited hop applies) */
    uint32_t *inh;    /* per node: next hop inherited from the levels above */
    uint32_t *nlong;  /* last level only: prefixes longer than S below the unit */
    uint64_t *dirty;  /* WB table membership, one bit per unit */
    uint32_t *wb;     /* WB table: changed units of this level, each once */
    size_t nwb, wbcap;
    uint32_t used;    /* units allocated (nodes * 2^stride) */
    uint32_t cap;     /* units the host arrays hold */
} lpm_gamt_level;

typedef struct lpm_gamt_opts {
    unsigned levels;      /* H; 0: a default per family */
    double headroom;      /* spare share of the widest level (default 0.10) */
    uint32_t min_room;    /* spare units at least (default 4096) */
    const uint8_t *strides; /* optional explicit strides [0..levels-1] */
} lpm_gamt_opts;

typedef struct lpm_gamt {
    int family;
    unsigned H, S;                 /* levels, bits covered (sum of strides) */
    uint8_t stride[GAMT_MAX_LEVELS + 1]; /* [k], k = 1..H */
    unsigned off[GAMT_MAX_LEVELS + 2];   /* first bit of level k */
    lpm_gamt_level lv[GAMT_MAX_LEVELS + 1];
    uint32_t root_inh;             /* the default route's next hop */
    lpm_ref *shadow;               /* every prefix: exact queries, long answers */
    lpm_prefix *longp;             /* prefixes longer than S (rebuild needs them) */
    size_t nlongp, longcap;
    uint32_t width;                /* array width W of the lookup copies */
    double headroom;
    uint32_t min_room;
    int building;                  /* host arrays grow freely; no width check */
    int active;                    /* the copy lookups use (0 or 1) */
    lpm_gamt_sink sink;
    size_t rebuilds, bubbles_sent, batches_sent;
} lpm_gamt;

void lpm_gamt_opts_default(lpm_gamt_opts *o);

/* The strides GAMT would use: lpm_strides_gamt (Algorithm 3) when the
 * trie library provides it, else an even split of 32 or 64 bits. */
int lpm_gamt_choose_strides(const lpm_fib *f, unsigned levels, uint8_t *stride, lpm_err *err);

/* Builds from a finished FIB and uploads copy 0 through sink. */
int lpm_gamt_build(lpm_gamt *g, const lpm_fib *f, const lpm_gamt_opts *o,
                   const lpm_gamt_sink *sink, lpm_err *err);
void lpm_gamt_free(lpm_gamt *g);

/* Route updates change the host trie and fill the WB table; nothing reaches
 * the lookup copy until lpm_gamt_flush. When a level would outgrow the
 * width, the trie is rebuilt, uploaded into the other copy and swapped in
 * (the WB table is then empty). Withdrawing an absent prefix is a no-op. */
int lpm_gamt_insert(lpm_gamt *g, const lpm_prefix *p, uint32_t nh, lpm_err *err);
int lpm_gamt_delete(lpm_gamt *g, const lpm_prefix *p, lpm_err *err);

/* Algorithm 2: moves up to max bubbles out of the WB table into out,
 * deepest level first, each with the unit's latest value. Returns the count. */
size_t lpm_gamt_prepare(lpm_gamt *g, lpm_gamt_bubble *out, size_t max);
size_t lpm_gamt_pending(const lpm_gamt *g);
/* Prepares and applies every pending bubble in batches of batch. */
int lpm_gamt_flush(lpm_gamt *g, size_t batch, lpm_err *err);
/* Rebuilds now (compacting lazily deleted nodes) and swaps copies. */
int lpm_gamt_rebuild(lpm_gamt *g, lpm_err *err);

/* Turns a lookup copy's answer (inf) into a next-hop index: long answers
 * go to the host's exact table. */
static inline uint32_t lpm_gamt_resolve(const lpm_gamt *g, uint32_t inf, const lpm_addr *a)
{
    if (inf == GAMT_NH_NONE || inf == GAMT_NH_EMPTY)
        return LPM_NH_NONE;
    if (inf == GAMT_NH_LONG)
        return lpm_ref_lookup(g->shadow, a, NULL);
    return inf;
}

/* The host trie's own answer (reads the truth, not a copy). */
uint32_t lpm_gamt_lookup_host(const lpm_gamt *g, const lpm_addr *a);

/* Bytes of one lookup copy (H * W units). */
size_t lpm_gamt_copy_bytes(const lpm_gamt *g);

#endif
