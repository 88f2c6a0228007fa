/* GALE's lookup copy on the host (the CPU build's "device memory"). */
#include "gale_cpu.h"

#include <stdlib.h>
#include <string.h>

static int cpu_upload(void *ctx, const uint32_t *t24, const uint32_t *tlong, uint32_t nblocks,
                      uint32_t capblocks, lpm_err *err)
{
    lpm_gale_cpu *c = ctx;
    if (!c->t24 && !(c->t24 = malloc((size_t)4 << 24)))
        return lpm_err_set(err, LPM_EFAIL, "GALE: out of memory");
    size_t cap = (size_t)capblocks * 256 + 1;
    uint32_t *tl = malloc(cap * 4);
    if (!tl)
        return lpm_err_set(err, LPM_EFAIL, "GALE: out of memory");
    memcpy(c->t24, t24, (size_t)4 << 24);
    if (nblocks)
        memcpy(tl, tlong, (size_t)nblocks * 256 * 4);
    for (size_t i = (size_t)nblocks * 256; i < cap; i++)
        tl[i] = GALE_NH_EMPTY; /* head room: never an answer */
    free(c->tl);
    c->tl = tl;
    c->capblocks = capblocks;
    return LPM_OK;
}

static int cpu_apply(void *ctx, const lpm_gale_bubble *b, size_t n, lpm_err *err)
{
    lpm_gale_cpu *c = ctx;
    for (size_t i = 0; i < n; i++) {
        uint32_t w = b[i].where & ~GALE_BUBBLE_LONG;
        if (!(b[i].where & GALE_BUBBLE_LONG))
            c->t24[w] = b[i].value;
        else if (w < (size_t)c->capblocks * 256)
            c->tl[w] = b[i].value;
        else
            return lpm_err_set(err, LPM_EFAIL, "GALE: bubble outside the long table (%u)", w);
    }
    return LPM_OK;
}

lpm_gale_sink lpm_gale_cpu_sink(lpm_gale_cpu *c)
{
    memset(c, 0, sizeof *c);
    lpm_gale_sink s = { c, cpu_upload, cpu_apply };
    return s;
}

void lpm_gale_cpu_free(lpm_gale_cpu *c)
{
    free(c->t24);
    free(c->tl);
    memset(c, 0, sizeof *c);
}
