/* GAMT's lookup copies on the host (the CPU build's "device memory"). */
#include "gamt_cpu.h"

#include <stdlib.h>
#include <string.h>

static int cpu_upload(void *ctx, int copy, const uint32_t *const *rows, const uint32_t *used,
                      unsigned levels, uint32_t width, const uint8_t *strides, lpm_err *err)
{
    lpm_gamt_cpu *c = ctx;
    if (copy == c->active && c->tab[copy])
        return lpm_err_set(err, LPM_EFAIL, "GAMT: upload into copy %d, which lookups are using", copy);
    uint32_t *t = malloc((size_t)levels * width * sizeof *t);
    if (!t)
        return lpm_err_set(err, LPM_EFAIL, "GAMT: out of memory for a %u x %u table", levels, width);
    for (unsigned k = 0; k < levels; k++) {
        uint32_t *row = t + (size_t)k * width;
        if (used[k]) /* an empty level's row may be NULL */
            memcpy(row, rows[k], (size_t)used[k] * sizeof *t);
        for (uint32_t u = used[k]; u < width; u++)
            row[u] = GAMT_UNIT_EMPTY;
    }
    free(c->tab[copy]);
    c->tab[copy] = t;
    c->fresh[copy] = 1;
    c->width[copy] = width;
    c->levels = levels;
    memcpy(c->stride, strides, sizeof c->stride);
    return LPM_OK;
}

static int cpu_swap(void *ctx, int copy, lpm_err *err)
{
    lpm_gamt_cpu *c = ctx;
    if (!c->fresh[copy])
        return lpm_err_set(err, LPM_EFAIL, "GAMT: swap to copy %d, which has no new upload", copy);
    c->fresh[copy] = 0;
    c->active = copy;
    return LPM_OK;
}

static int cpu_apply(void *ctx, int copy, const lpm_gamt_bubble *b, size_t n, lpm_err *err)
{
    lpm_gamt_cpu *c = ctx;
    if (copy != c->active)
        return lpm_err_set(err, LPM_EFAIL, "GAMT: bubbles for copy %d, lookups use copy %d", copy, c->active);
    uint32_t w = c->width[copy];
    for (size_t i = 0; i < n; i++) {
        if (b[i].level < 1 || b[i].level > c->levels || b[i].loc >= w)
            return lpm_err_set(err, LPM_EFAIL, "GAMT: bubble outside the table (level %u, unit %u)",
                               b[i].level, b[i].loc);
        c->tab[copy][(size_t)(b[i].level - 1) * w + b[i].loc] = b[i].value;
    }
    return LPM_OK;
}

lpm_gamt_sink lpm_gamt_cpu_sink(lpm_gamt_cpu *c)
{
    memset(c, 0, sizeof *c);
    lpm_gamt_sink s = { c, cpu_upload, cpu_swap, cpu_apply };
    return s;
}

void lpm_gamt_cpu_free(lpm_gamt_cpu *c)
{
    free(c->tab[0]);
    free(c->tab[1]);
    memset(c, 0, sizeof *c);
}
