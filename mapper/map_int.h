/* The mapper's colored units, shared by map.c and the split mapping
 * (split.c); everyone else uses map.h. */
#ifndef LPM_MAP_INT_H
#define LPM_MAP_INT_H

#include <stddef.h>
#include <stdint.h>

#include "../core/err.h"
#include "mtree.h"

/* Colored units: a subtree root, or a block at a multiple of the split
 * height. unit[b] = the unit's index for every block; a unit's level j
 * (relative to its root) holds cnt[off + j] words. */
typedef struct lpm_units {
    size_t n;
    uint32_t *root_block;   /* unit -> its root block (index) */
    uint32_t *unit;         /* block -> unit */
    size_t *off;
    unsigned *height;
    uint64_t *cnt;
    unsigned *color;
} lpm_units;

/* split 0: one unit per subtree. */
int lpm_units_make(const lpm_mtree *t, unsigned split, lpm_units *u, lpm_err *err);
void lpm_units_free(lpm_units *u);

/* The split mapping: t->b[].stage for every block, pieces of at most H
 * levels placed near their parent (ring) or in a balanced window (linear).
 * N stages; u gets the pieces (for the report). */
int lpm_split_place(lpm_mtree *t, unsigned N, unsigned H, int ring, lpm_units *u, lpm_err *err);

#endif
