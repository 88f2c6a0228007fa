/* The colored units (map_int.h): made here for map.c and split.c, so that
 * neither calls the other for them. */
#include <stdlib.h>
#include <string.h>

#include "map_int.h"

void lpm_units_free(lpm_units *u)
{
    free(u->root_block);
    free(u->unit);
    free(u->off);
    free(u->height);
    free(u->cnt);
    free(u->color);
}

int lpm_units_make(const lpm_mtree *t, unsigned split, lpm_units *u, lpm_err *err)
{
    memset(u, 0, sizeof *u);
    size_t nb = t->nb;
    u->unit = malloc((nb ? nb : 1) * sizeof *u->unit);
    u->root_block = malloc((nb ? nb : 1) * sizeof *u->root_block);
    if (!u->unit || !u->root_block)
        goto oom;
    for (size_t i = 0; i < nb; i++) {
        const lpm_mt_block *b = &t->b[i];
        if (!b->parent || (split && b->level % split == 0)) {
            u->root_block[u->n] = (uint32_t)i;
            u->unit[i] = (uint32_t)u->n++;
        } else {
            u->unit[i] = u->unit[b->parent - 1];
        }
    }
    u->off = malloc((u->n + 1) * sizeof *u->off);
    u->height = calloc(u->n + 1, sizeof *u->height);
    u->color = calloc(u->n + 1, sizeof *u->color);
    if (!u->off || !u->height || !u->color)
        goto oom;
    for (size_t i = 0; i < nb; i++) {
        size_t un = u->unit[i];
        unsigned rel = t->b[i].level - t->b[u->root_block[un]].level;
        if (rel + 1 > u->height[un])
            u->height[un] = rel + 1;
    }
    size_t tot = 0;
    for (size_t i = 0; i < u->n; i++) {
        u->off[i] = tot;
        tot += u->height[i];
    }
    u->cnt = calloc(tot + 1, sizeof *u->cnt);
    if (!u->cnt)
        goto oom;
    for (size_t i = 0; i < nb; i++) {
        size_t un = u->unit[i];
        unsigned rel = t->b[i].level - t->b[u->root_block[un]].level;
        u->cnt[u->off[un] + rel] += 1ULL << t->b[i].k;
    }
    return LPM_OK;
oom:
    lpm_units_free(u);
    return lpm_err_set(err, LPM_EFAIL, "out of memory (units)");
}
