/* GALE on the host: the DIR-24-8 direct table with the per-entry prefix
 * lengths its update path needs, the set of changed entries (each once),
 * and the bubbles that carry them to the lookup copy (a sink: host arrays
 * for the CPU build, GPU memory for CUDA). IPv4 only. */
#ifndef LPM_GALE_H
#define LPM_GALE_H

#include <stddef.h>
#include <stdint.h>

#include "../core/err.h"
#include "../core/fib.h"
#include "../core/ref_lpm.h"
#include "gale_lookup.h"

#define GALE_BUBBLE_LONG 0x80000000u  /* where: long-table index, else t24 index */

typedef struct lpm_gale_bubble {
    uint32_t where;
    uint32_t value;
} lpm_gale_bubble;

/* upload replaces the lookup copy (t24 and the first nblocks blocks of
 * tlong; room for capblocks); apply writes bubbles in list order (long
 * entries come first, so a block is filled before t24 points at it). */
typedef struct lpm_gale_sink {
    void *ctx;
    int (*upload)(void *ctx, const uint32_t *t24, const uint32_t *tlong, uint32_t nblocks,
                  uint32_t capblocks, lpm_err *err);
    int (*apply)(void *ctx, const lpm_gale_bubble *b, size_t n, lpm_err *err);
} lpm_gale_sink;

typedef struct lpm_gale {
    uint32_t *t24;      /* 2^24 entries (the truth bubbles read) */
    uint8_t *len24;     /* length of the prefix behind each direct entry */
    uint32_t *tl;       /* long blocks, 256 entries each */
    uint8_t *lenl;
    uint32_t nblocks, hostcap, devcap; /* blocks used, held on the host, in the copy */
    uint64_t *dirty24, *dirtyl;
    uint32_t *wb24, *wbl;
    size_t nwb24, nwbl, cap24, capl;
    lpm_ref *shadow;    /* exact prefixes: presence and the replacement on delete */
    int building;
    lpm_gale_sink sink;
    size_t reuploads, bubbles_sent, batches_sent;
} lpm_gale;

int lpm_gale_build(lpm_gale *g, const lpm_fib *f, const lpm_gale_sink *sink, lpm_err *err);
void lpm_gale_free(lpm_gale *g);
/* Updates change the host table and record changed entries; lpm_gale_flush
 * sends them. Withdrawing an absent prefix is a no-op. */
int lpm_gale_insert(lpm_gale *g, const lpm_prefix *p, uint32_t nh, lpm_err *err);
int lpm_gale_delete(lpm_gale *g, const lpm_prefix *p, lpm_err *err);
/* Sends the whole table again (what a flush does when the copy's long
 * table is full); pending changes are in it. */
int lpm_gale_reupload(lpm_gale *g, lpm_err *err);
size_t lpm_gale_pending(const lpm_gale *g);
size_t lpm_gale_prepare(lpm_gale *g, lpm_gale_bubble *out, size_t max);
int lpm_gale_flush(lpm_gale *g, size_t batch, lpm_err *err);

static inline uint32_t lpm_gale_resolve(uint32_t e)
{
    return e == GALE_NH_NONE || e == GALE_NH_EMPTY ? LPM_NH_NONE : e;
}

size_t lpm_gale_copy_bytes(const lpm_gale *g);

#endif
