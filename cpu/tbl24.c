/* TBL24 and its slot pool (tbl24.h). */
#include "tbl24.h"

#include <stdlib.h>

#include "../core/hugemem.h"
#include "cpu.h"

uint32_t *lpm_tbl24_new(uint32_t empty)
{
    uint32_t *t = lpm_huge_alloc(LPM_TBL24_BYTES);
    if (t)
        for (size_t i = 0; i < LPM_TBL24_N; i++)
            t[i] = empty;
    return t;
}

void lpm_tbl24_free(uint32_t *t)
{
    lpm_huge_free(t, LPM_TBL24_BYTES);
}

uint32_t lpm_tbl24_pool_take(lpm_tbl24_pool *p, void **slots, size_t elem, size_t first_cap, size_t max)
{
    if (p->nfree)
        return p->free[--p->nfree];
    if (p->n == p->cap) {
        size_t cap = p->cap ? p->cap * 2 : first_cap;
        if (cap > max)
            return UINT32_MAX;
        void *s = realloc(*slots, cap * elem);
        uint32_t *f = realloc(p->free, cap * sizeof *f);
        if (s)
            *slots = s;
        if (f)
            p->free = f;
        if (!s || !f)
            return UINT32_MAX;
        p->cap = cap;
    }
    return (uint32_t)p->n++;
}

void lpm_tbl24_pool_release(lpm_tbl24_pool *p)
{
    free(p->free);
    p->free = NULL;
    p->n = p->cap = p->nfree = 0;
}
