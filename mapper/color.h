/* Stage assignment helpers: CAMP min-max coloring and balanced strides. */
#ifndef LPM_COLOR_H
#define LPM_COLOR_H

#include <stddef.h>
#include <stdint.h>

#include "../core/err.h"
#include "image.h"

/* n colored units (subtrees, or pieces of split subtrees); unit i has
 * height[i] levels whose word counts are cnt[off[i] .. off[i]+height[i]). */
typedef struct lpm_color_in {
    size_t n;
    const size_t *off;
    const unsigned *height;
    const uint64_t *cnt;
} lpm_color_in;

/* Items to sort by size, largest first (ties: smaller id first). */
typedef struct lpm_size_order {
    size_t id;
    uint64_t size;
} lpm_size_order;
int lpm_by_size_desc(const void *a, const void *b);

/* Colors units in decreasing size, each root trying every stage; level j
 * of a unit colored c goes to stage (c + j) mod N. load[N] gets the words
 * per stage. */
int lpm_color_minmax(const lpm_color_in *in, unsigned N, unsigned *color, uint64_t *load, lpm_err *err);

/* Strides for a level-mapped linear pipeline of at most N stages that
 * minimise the fullest stage, then the total (exact dynamic program). */
int lpm_strides_balanced(const uint64_t prof[129], unsigned x, unsigned maxlen, unsigned N,
                         uint8_t *sd, unsigned *nlev, lpm_err *err);

#endif
