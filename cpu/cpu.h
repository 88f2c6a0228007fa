/* Shared by the CPU engines (DIR-24-8-BASIC, Tree Bitmap, hybrid): the
 * update-cost counters of He et al.'s Table IV, and the control-plane copy
 * of the prefixes (a reference table) that deletes consult to find the
 * prefix that takes a deleted one's place. */
#ifndef LPM_CPU_H
#define LPM_CPU_H

#include <stddef.h>
#include <stdint.h>

#include "../core/engine.h"
#include "../core/ref_lpm.h"

/* The update counters (core/engine.h), under the CPU engines' name. */
typedef lpm_update_cost lpm_cpu_cost;

/* Every CPU engine's state starts with this, so the update-cost report can
 * read the counters of any of them through the engine's cost hook
 * (lpm_cpu_state_cost). */
typedef struct lpm_cpu_hdr {
    const lpm_engine_ops *ops;
    lpm_cpu_cost cost;
} lpm_cpu_hdr;

/* One table entry written by an update, charged to c. */
static inline void lpm_cpu_set_entry(lpm_cpu_cost *c, uint32_t *e, uint32_t v)
{
    *e = v;
    c->entries_set++;
    c->bytes_written += 4;
}

extern const lpm_engine_ops lpm_engine_dir24_8;
extern const lpm_engine_ops lpm_engine_tree_bitmap_13;
extern const lpm_engine_ops lpm_engine_tree_bitmap_11;
extern const lpm_engine_ops lpm_engine_hybrid;
extern const lpm_engine_ops lpm_engine_poptrie;

/* The cost hook of every CPU engine: the counters in its lpm_cpu_hdr. */
lpm_cpu_cost *lpm_cpu_state_cost(void *state);

/* The counters of a state built by engine e, else NULL (e has no hook). */
static inline lpm_cpu_cost *lpm_cpu_engine_cost(const lpm_engine_ops *e, void *state)
{
    return state && e->cost ? e->cost(state) : NULL;
}

/* Next hop of the longest prefix in r that covers p and is shorter than p
 * but at least min_len long; LPM_NH_NONE (and *len = -1) when none. */
uint32_t lpm_cpu_shadow_parent(const lpm_ref *r, const lpm_prefix *p,
                               unsigned min_len, int *len);

/* Sorts a table's routes by length (shortest first) into idx (f->n
 * entries), so builds that insert in that order never overwrite. */
void lpm_cpu_order_by_len(const lpm_fib *f, size_t *idx);

#endif
