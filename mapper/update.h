/* Route updates compiled into write bubbles (Basu & Narlikar, as GAMT uses
 * them): each announce or withdraw changes the table, the changed words are
 * placed in per-stage head room, and become writes (stage, address, word)
 * packed into bubbles with at most one write per stage. Deletes are lazy:
 * blocks are never unlinked, so no lookup in flight can follow a pointer
 * into reused memory; a rebuild (second copy) collects them.
 *
 * Ordering: writes into head room (new blocks nothing points to yet) come
 * first; the words a lookup can reach come after. Every lookup path holds
 * at most one reachable word that an update changes (the entry of one
 * block, one DIT entry, or the one pointer that links a new chain), so any
 * prefix of the bubble sequence, and any bubble caught half-way, answers
 * each lookup as before or as after the update. */
#ifndef LPM_UPDATE_H
#define LPM_UPDATE_H

#include <stddef.h>
#include <stdint.h>

#include "../core/err.h"
#include "../core/prefix.h"
#include "image.h"

typedef struct lpm_write {
    uint32_t stage;   /* LPM_IMAGE_DIT for the direct index table */
    uint32_t addr;
    uint64_t word;
} lpm_write;

/* Bubble flags (docs/microarchitecture.md, "Rebuilds and the swap"). */
#define LPM_BUBBLE_DRAIN 1u  /* enters only when no earlier bubble is in the pipeline */
#define LPM_BUBBLE_FENCE 2u  /* enters only when no lookup walks the inactive copy */
#define LPM_BUBBLE_SWAP 4u   /* no writes; drain, then the DIT select names the new copy */

typedef struct lpm_bubble {
    size_t first, n;  /* writes[first .. first+n), stages distinct, ascending (DIT first) */
    unsigned flags;   /* LPM_BUBBLE_* */
} lpm_bubble;

enum lpm_rebuild_reason {
    LPM_REBUILD_NONE = 0,
    LPM_REBUILD_HEADROOM,  /* a stage had no free block */
    LPM_REBUILD_STAGES,    /* a linear pipeline needed a stage it does not have */
    LPM_REBUILD_NH_BITS,   /* the next-hop table outgrew its index width */
    LPM_REBUILD_BALANCE,   /* fullest stage over mean passed the threshold */
    LPM_REBUILD_EVERY      /* asked for: every rebuild_every effective updates */
};
const char *lpm_rebuild_reason_name(int r);

typedef struct lpm_upd_opts {
    double rebalance_at;   /* rebuild when fullest/mean exceeds this (0: never) */
    size_t rebuild_every;  /* rebuild after every this many effective updates (0: never) */
    int bubbles_only;      /* every update must become bubbles: without a shadow copy, rebalances are left out */
} lpm_upd_opts;

/* Writes and bubbles count the ordinary updates; a rebuild's own (into
 * the shadow copy, then the swap) are rebuild_writes / rebuild_bubbles. */
typedef struct lpm_upd_stats {
    size_t updates, announces, withdraws, noops;
    size_t writes, bubbles, max_writes, max_bubbles;
    size_t dit_writes, stage_writes[LPM_IMAGE_MAX_STAGES];
    size_t blocks_added, blocks_copied, drain_bubbles;
    size_t rebuilds, rebuild_why[6];
    size_t first_rebuild;  /* the update (1-based, trace order) of the first rebuild; 0: none */
    size_t balance_skipped;/* balance rebuilds left out: the new mapping did not fit the memories */
    size_t rebuild_writes, rebuild_bubbles, max_rebuild_bubbles;
    double rebuild_seconds;
} lpm_upd_stats;

typedef struct lpm_upd lpm_upd;

/* Starts from a copy of img (which must carry its route section). */
int lpm_upd_new(lpm_upd **out, const lpm_image *img, const lpm_upd_opts *o, lpm_err *err);
void lpm_upd_free(lpm_upd *u);

/* One update: op 'a' (announce; replaces) or 'w' (withdraw; absent prefix is
 * a no-op). nh is the next-hop token of an announce. Afterwards the writes
 * and bubbles of this update are in lpm_upd_last; *rebuilt (if non-NULL)
 * tells whether the image was rebuilt instead. With a shadow copy the
 * rebuild is a bubble stream too: the whole new table written into the
 * inactive copy (the first bubble a fence), then one swap bubble. Without
 * one the table is reloaded in place and there are no bubbles. A rebuild
 * keeps the hardware (stages, strides, word format, memory depths): a
 * table that no longer fits fails with LPM_EFAIL and says what it needs. */
int lpm_upd_apply(lpm_upd *u, char op, const lpm_prefix *p, const char *nh, int *rebuilt, lpm_err *err);
void lpm_upd_last(const lpm_upd *u, const lpm_write **w, size_t *nw, const lpm_bubble **b, size_t *nb);
int lpm_upd_last_reason(const lpm_upd *u);

/* The current image (valid until the next apply). */
const lpm_image *lpm_upd_image(const lpm_upd *u);
/* Stores the current table in the image's route section (call before
 * saving); LPM_EFAIL on no memory. */
int lpm_upd_sync_routes(lpm_upd *u, lpm_err *err);
const lpm_upd_stats *lpm_upd_get_stats(const lpm_upd *u);

#endif
