/* The lookup-engine interface. Every engine in the project (reference,
 * tries, CPU engines, CPU builds of the GPU engines, the image interpreter)
 * exposes one of these, so `lpmpipe lookup --engine`, `lpmpipe bench` and
 * the agreement tests treat them alike. This is only the interface: the
 * registry (which engines exist, by name) is cli/engines.h. */
#ifndef LPM_ENGINE_H
#define LPM_ENGINE_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "fib.h"
#include "prefix.h"

enum { LPM_ENGINE_V4 = 1, LPM_ENGINE_V6 = 2 };

/* Memory operations of updates, counted as He et al.'s Table IV counts
 * them (`bench update-cost`, docs/cpu-engines.md). */
typedef struct lpm_update_cost {
    uint64_t entries_set;    /* table entries / next-hop results written */
    uint64_t entries_moved;  /* results copied because their block moved */
    uint64_t nodes_copied;   /* trie nodes copied into a new child array */
    uint64_t nodes_alloc;    /* trie nodes created */
    uint64_t nodes_freed;    /* trie nodes removed */
    uint64_t bytes_written;  /* all of the above in bytes */
} lpm_update_cost;

typedef struct lpm_engine_ops {
    const char *name;      /* --engine NAME */
    const char *summary;   /* one line for --help */
    int families;          /* LPM_ENGINE_V4 | LPM_ENGINE_V6 */
    /* Builds from a finished FIB; next hops are the FIB's nhtab indexes. */
    int (*build)(void **state, const lpm_fib *fib, lpm_err *err);
    /* Next-hop index or LPM_NH_NONE. Must be safe to call from several
     * threads at once on the same state. */
    uint32_t (*lookup)(const void *state, const lpm_addr *a);
    /* Optional batch form (NULL: lookup is called per address). */
    void (*lookup_batch)(const void *state, const lpm_addr *a, uint32_t *nh, size_t n);
    /* Incremental update; NULL when the engine has none. add replaces. */
    int (*add)(void *state, const lpm_prefix *p, uint32_t nh, lpm_err *err);
    int (*del)(void *state, const lpm_prefix *p, lpm_err *err);
    /* Bytes of lookup structure (what the data path reads). */
    size_t (*memory)(const void *state);
    void (*destroy)(void *state);
    /* The update counters of a state (NULL hook or NULL result: the engine
     * counts none); add and del charge them. */
    lpm_update_cost *(*cost)(void *state);
} lpm_engine_ops;

#endif
