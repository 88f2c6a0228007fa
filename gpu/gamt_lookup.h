/* GAMT's state-jump table and its lookup (Algorithm 1), shared by the CUDA
 * kernel and the CPU build. A unit is 32 bits: the upper 24 bits are "inf",
 * the low 8 bits "jump". jump 0: inf is a next-hop index (GAMT_NH_NONE: no
 * route, GAMT_NH_LONG: the /S unit holds longer prefixes, answered on the
 * host, GAMT_NH_EMPTY: head room, a unit no build or bubble wrote, read as
 * no route). jump k: the child node starts at unit inf of level k (levels
 * count from 1). Row k-1 of the table (width units) holds level k. */
#ifndef LPM_GAMT_LOOKUP_H
#define LPM_GAMT_LOOKUP_H

#include "lookup_hd.h"

#define GAMT_MAX_LEVELS 32          /* strides live in a small array */
#define GAMT_MAX_WIDTH (1u << 24)   /* inf is 24 bits */
#define GAMT_NH_NONE 0xFFFFFFu
#define GAMT_NH_LONG 0xFFFFFEu
#define GAMT_NH_EMPTY 0xFFFFFDu     /* head room (never an answer of a correct lookup) */
#define GAMT_NH_MAX 0xFFFFFCu       /* largest next-hop index a unit can hold */
#define GAMT_UNIT_EMPTY (GAMT_NH_EMPTY << 8) /* what head room holds: a no-route leaf */

LPM_HD uint32_t gamt_unit_jump(uint32_t code) { return code & 0xFFu; }
LPM_HD uint32_t gamt_unit_inf(uint32_t code) { return code >> 8; }
LPM_HD uint32_t gamt_unit_leaf(uint32_t nh) { return nh << 8; }
LPM_HD uint32_t gamt_unit_child(uint32_t level, uint32_t off) { return (off << 8) | level; }

/* One state jump: the bits of key (MSB-aligned, 64 bits) at pos..pos+s-1
 * added to inf select the unit in row jump-1. */
LPM_HD uint32_t gamt_step(const uint32_t *table, uint32_t width, uint32_t jump,
                          uint32_t inf, uint64_t key, unsigned pos, unsigned s)
{
    inf += (uint32_t)((key << pos) >> (64 - s));
    return lpm_ld_table(table + (size_t)(jump - 1) * width + inf);
}

/* Algorithm 1's inner loop. strides[k] is level k's stride (k = 1..H, all
 * >= 1, sum <= 64); key is the first 64 bits of the address (IPv4: the
 * address in the top 32 bits). Returns the 24-bit inf of the final unit. */
LPM_HD uint32_t gamt_lookup(const uint32_t *table, uint32_t width,
                            const uint8_t *strides, uint64_t key)
{
    uint32_t jump = 1, inf = 0;
    unsigned pos = 0;
    while (jump != 0) {
        unsigned s = strides[jump];
        uint32_t code = gamt_step(table, width, jump, inf, key, pos, s);
        pos += s;
        jump = gamt_unit_jump(code);
        inf = gamt_unit_inf(code);
    }
    return inf;
}

#endif
