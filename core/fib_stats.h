/* Figures of a finished table: what `lpmpipe fib stats` prints and what
 * the synthetic model is compared against. */
#ifndef LPM_FIB_STATS_H
#define LPM_FIB_STATS_H

#include <stddef.h>

#include "fib.h"

typedef struct lpm_fib_stats {
    size_t prefixes;
    size_t next_hops;      /* distinct next hops the routes use */
    size_t lengths[129];   /* prefixes per length */
    size_t nested;         /* prefixes covered by a shorter prefix of the table */
} lpm_fib_stats;

/* f must be finished (sorted by address, then length). */
void lpm_fib_stats_compute(const lpm_fib *f, lpm_fib_stats *s);

#endif
