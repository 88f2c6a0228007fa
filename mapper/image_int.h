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
    unsigned copies;       /* 1, or 2 with a shadow copy (double buffering) */
    unsigned active;       /* the copy lookups read (DIT select) */
    uint8_t stride[LPM_IMAGE_MAX_STAGES];
    uint32_t depth[LPM_IMAGE_MAX_STAGES];   /* words per copy */
    uint32_t used[LPM_IMAGE_MAX_STAGES];    /* the active copy's words in use */
    uint64_t *dit;         /* copies x 2^x entries, copy 0 first */
    uint64_t *mem[LPM_IMAGE_MAX_STAGES]; /* copies x depth[s] words each, copy 0 first */
    lpm_nhtab nh;
    lpm_route *routes;     /* the table, sorted, next hops index nh */
    size_t nroutes;
    uint32_t file_crc;     /* the CRC-32 trailer it was loaded with (0: built in memory) */
    unsigned version;      /* the version it was loaded from (LPM_IMAGE_VERSION: built in memory) */
};

/* An empty image with the given header (memories zeroed, copy 0 active);
 * NULL on no memory or copies not 1 or 2. */
lpm_image *lpm_image_alloc(int family, int ring, unsigned stages, unsigned x,
                           const lpm_word_fmt *fmt, const uint8_t *stride,
                           const uint32_t *depth, unsigned copies);
/* NULL when a stage of depth words per copy, this stride and this many
 * copies fits the format (a whole number of blocks, every copy's block
 * indexes within addr_bits), else the reason. */
const char *lpm_image_depth_check(uint64_t depth, unsigned stride, unsigned addr_bits, unsigned copies);

/* First word of copy c in stage s, first entry of copy c in the DIT. Copy
 * c's first block index is c*(depth[s] >> stride[s]): depth is whole blocks. */
static inline uint32_t lpm_copy_base(const lpm_image *img, unsigned s, unsigned c)
{
    return c * img->depth[s];
}
static inline uint32_t lpm_dit_base(const lpm_image *img, unsigned c)
{
    return c << img->x;
}
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
