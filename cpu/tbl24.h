/* The TBL24 that DIR-24-8-BASIC (dir24_8.c) and He et al.'s hybrid
 * (hybrid.c) share: 2^24 32-bit entries indexed by an address's first 24
 * bits, and a pool of numbered slots (TBLlong blocks, subtries) that
 * entries point to. Each engine keeps its own entry layout. */
#ifndef LPM_CPU_TBL24_H
#define LPM_CPU_TBL24_H

#include <stddef.h>
#include <stdint.h>

#include "../core/prefix.h"

#define LPM_TBL24_N ((size_t)1 << 24)
#define LPM_TBL24_BYTES (LPM_TBL24_N * sizeof(uint32_t))

/* A TBL24 with every entry `empty` (huge pages where offered); NULL: no
 * memory. */
uint32_t *lpm_tbl24_new(uint32_t empty);
void lpm_tbl24_free(uint32_t *t);

/* The entry an IPv4 address reads. */
static inline size_t lpm_tbl24_index(const lpm_addr *a)
{
    return lpm_addr_to_v4(a) >> 8;
}

/* The entries an IPv4 prefix of length <= 24 covers: [*first, *first + *count). */
static inline void lpm_tbl24_range(const lpm_prefix *p, size_t *first, size_t *count)
{
    *first = lpm_tbl24_index(&p->addr);
    *count = (size_t)1 << (24 - p->len);
}

/* Slots numbered from 0, freed ones reused first. The slots' array belongs
 * to the engine; the pool grows it with its own capacity. */
typedef struct lpm_tbl24_pool {
    size_t n, cap;     /* slots handed out (freed ones included), capacity */
    uint32_t *free;    /* stack of freed slots */
    size_t nfree;
} lpm_tbl24_pool;

/* A slot number, growing *slots (elem bytes per slot, first_cap slots the
 * first time, then doubling, never past max slots); UINT32_MAX: no memory
 * or no number left. The slot's contents are the caller's to set. */
uint32_t lpm_tbl24_pool_take(lpm_tbl24_pool *p, void **slots, size_t elem, size_t first_cap, size_t max);

static inline void lpm_tbl24_pool_put(lpm_tbl24_pool *p, uint32_t id)
{
    p->free[p->nfree++] = id; /* fits: the stack has a place per slot */
}

/* Slots in use. */
static inline size_t lpm_tbl24_pool_live(const lpm_tbl24_pool *p)
{
    return p->n - p->nfree;
}

/* Frees the pool's own stack (not the engine's slots). */
void lpm_tbl24_pool_release(lpm_tbl24_pool *p);

#endif
