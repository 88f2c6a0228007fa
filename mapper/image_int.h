/* The image's fields, for the mapper's own files (everyone else uses the
 * accessors in image.h). */
#ifndef LPM_IMAGE_INT_H
#define LPM_IMAGE_INT_H

#include "image.h"

struct lpm_image {
    int family;            /* 4 or 6 */
    int ring;              /* 1: ring (CAMP), 0: linear */
    unsigned stages;       /* N */
    unsigned x;            /* initial stride: the direct index table has 2^x entries */
    unsigned key_bits;     /* 32 or 128 */
    lpm_word_fmt fmt;
    unsigned word_bits, dit_bits;
    unsigned map_kind;     /* enum lpm_map_kind */
    unsigned stride_k;     /* the mapping's block stride (balanced: 0, see stride[]) */
    unsigned headroom_pct; /* head room asked for at mapping time */
    unsigned split;        /* adaptive CAMP: split height (0: none) */
    uint8_t stride[LPM_IMAGE_MAX_STAGES];
    uint32_t depth[LPM_IMAGE_MAX_STAGES];
    uint32_t used[LPM_IMAGE_MAX_STAGES];
    uint64_t *dit;         /* 2^x entries */
    uint64_t *mem[LPM_IMAGE_MAX_STAGES]; /* depth[s] words each */
    lpm_nhtab nh;
    lpm_route *routes;     /* the table, sorted, next hops index nh */
    size_t nroutes;
    uint32_t file_crc;     /* the CRC-32 trailer it was loaded with (0: built in memory) */
};

/* An empty image with the given header (memories zeroed); NULL on no memory. */
lpm_image *lpm_image_alloc(int family, int ring, unsigned stages, unsigned x,
                           const lpm_word_fmt *fmt, const uint8_t *stride,
                           const uint32_t *depth);
/* NULL when a stage of depth words and this stride fits the format (a
 * whole number of blocks, block indexes within addr_bits), else the reason. */
const char *lpm_image_depth_check(uint64_t depth, unsigned stride, unsigned addr_bits);
/* Recomputes word_bits and dit_bits from fmt. */
void lpm_image_set_fmt(lpm_image *img, const lpm_word_fmt *fmt);

static inline unsigned lpm_ceil_log2(uint64_t n)
{
    unsigned b = 0;
    while (b < 64 && (1ULL << b) < n)
        b++;
    return b;
}

#endif
