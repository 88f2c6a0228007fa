/* The WB tables' lists of changed locations: appended once per location
 * (a bitmap says whether it is already there). */
#ifndef LPM_GPU_WB_LIST_H
#define LPM_GPU_WB_LIST_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

/* Appends v to list unless the bit for v in dirty is set; -1 on no memory. */
static inline int lpm_wb_add(uint64_t *dirty, uint32_t **list, size_t *n, size_t *cap, uint32_t v)
{
    uint64_t bit = 1ULL << (v & 63);
    if (dirty[v >> 6] & bit)
        return 0;
    if (*n == *cap) {
        size_t c = *cap ? *cap * 2 : 1024;
        uint32_t *q = realloc(*list, c * sizeof *q);
        if (!q)
            return -1;
        *list = q;
        *cap = c;
    }
    dirty[v >> 6] |= bit;
    (*list)[(*n)++] = v;
    return 0;
}

/* Takes the last entry off the list and clears its bit. */
static inline uint32_t lpm_wb_pop(uint64_t *dirty, uint32_t *list, size_t *n)
{
    uint32_t v = list[--*n];
    dirty[v >> 6] &= ~(1ULL << (v & 63));
    return v;
}

#endif
