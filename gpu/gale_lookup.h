/* GALE's direct table (DIR-24-8), shared by the CUDA kernel and the CPU
 * build. t24 has 2^24 entries, one per /24. Bit 31 clear: bits 0..30 are
 * the next-hop index (GALE_NH_NONE: no route). Bit 31 set: bits 0..30 name
 * a block of 256 entries in tlong, indexed by the last 8 address bits.
 * GALE_NH_EMPTY fills the long table's head room (blocks not yet sent). */
#ifndef LPM_GALE_LOOKUP_H
#define LPM_GALE_LOOKUP_H

#include "lookup_hd.h"

#define GALE_LONG_FLAG 0x80000000u
#define GALE_NH_NONE 0x7FFFFFFFu
#define GALE_NH_EMPTY 0x7FFFFFFEu
#define GALE_NH_MAX 0x7FFFFFFDu
#define GALE_MAX_BLOCKS (1u << 23)

LPM_HD uint32_t gale_lookup(const uint32_t *t24, const uint32_t *tlong, uint32_t addr)
{
    uint32_t e = lpm_ld_table(t24 + (addr >> 8));
    if (e & GALE_LONG_FLAG)
        e = lpm_ld_table(tlong + (((size_t)(e & ~GALE_LONG_FLAG) << 8) | (addr & 0xFFu)));
    return e;
}

#endif
