/* The per-step logic of aligned transition arrays (ATA and MATA), shared by
 * the CPU engines and the CUDA kernel: every function here is a
 * __host__ __device__ inline so both builds run the same code.
 *
 * A name is normalized ("com/parc/www/": no leading '/', a trailing '/').
 * A transition reads a chunk of up to `stride` characters and stops after a
 * '/', so component ends are always state boundaries. A chunk's input number
 * is y = sum v(c_i) * 95^i with v(c) = c - 0x20 in 1..94 (printable ASCII
 * without space), so y < 95^4 < 2^27 and y >= 1; y = 0 names the port slot.
 *
 * Entry = {check, next}. check = 0: vacant. A transition: check = y | ACC
 * when the destination accepts (has a port) | (destination stride - 1) << 28;
 * next = destination state id. A port slot (at input 0 of an accepting
 * state): check = PORTMARK, next = port. A state id is a base offset: plain
 * ATA: base into one array (slot = base + y); MATA: (ata << 24) | base and
 * slot = start[ata] + (base + y) mod L[ata], L a prime. */
#ifndef LPM_NSTEP_H
#define LPM_NSTEP_H

#include <stdint.h>

#ifdef __CUDACC__
#define LPM_HD __host__ __device__ __forceinline__
#else
#define LPM_HD static inline
#endif

#define LPM_NM_MAXSTRIDE 4
#define LPM_NM_YMASK ((1u << 27) - 1)
#define LPM_NM_STRIDE_SHIFT 28
#define LPM_NM_PORTMARK (1u << 30)
#define LPM_NM_ACC (1u << 31)
#define LPM_NM_NONE 0xFFFFFFFFu
#define LPM_NM_ATA_BITS 24
#define LPM_NM_MAX_ATAS 255

typedef struct lpm_nm_entry {
    uint32_t check, next;
} lpm_nm_entry;

typedef struct lpm_nm_ata_desc {
    uint64_t start; /* first slot in the entry array */
    uint32_t len;   /* prime length (MATA) */
    uint32_t pad;
} lpm_nm_ata_desc;

/* Everything a lookup reads: what is copied to the GPU. */
typedef struct lpm_nm_view {
    const lpm_nm_entry *e;
    uint64_t n;                 /* entries (plain ATA bound check) */
    const lpm_nm_ata_desc *ata; /* MATA only */
    uint32_t mata;              /* 0: plain ATA, 1: MATA */
    uint32_t root;              /* root state id */
    uint32_t root_port;         /* port of the empty name "/", or NONE */
    uint32_t root_stride;
} lpm_nm_view;

LPM_HD uint32_t lpm_nm_code(unsigned c)
{
    return c - 0x20u;
}

/* Adds character c (position i of the chunk) to y; returns 1 when the chunk
 * ends here ('/' read or stride reached). */
LPM_HD int lpm_nm_chunk_add(uint32_t *y, uint32_t *mul, unsigned c, unsigned i, unsigned stride)
{
    *y += lpm_nm_code(c) * *mul;
    *mul *= 95u;
    return c == '/' || i + 1 >= stride;
}

/* Slot of input y in state sid. */
LPM_HD uint64_t lpm_nm_slot(const lpm_nm_view *v, uint32_t sid, uint32_t y)
{
    if (!v->mata)
        return (uint64_t)sid + y;
    const lpm_nm_ata_desc *a = &v->ata[sid >> LPM_NM_ATA_BITS];
    uint64_t b = sid & ((1u << LPM_NM_ATA_BITS) - 1);
    return a->start + (b + y) % a->len;
}

/* One transition: on success moves *sid, sets *stride and, when the
 * destination accepts, *port (second read, only at component ends). */
LPM_HD int lpm_nm_step(const lpm_nm_view *v, uint32_t *sid, uint32_t y, unsigned *stride,
                       uint32_t *port)
{
    uint64_t i = lpm_nm_slot(v, *sid, y);
    if (i >= v->n)
        return 0;
    lpm_nm_entry e = v->e[i];
    if ((e.check & LPM_NM_YMASK) != y || (e.check & LPM_NM_PORTMARK))
        return 0;
    *sid = e.next;
    *stride = ((e.check >> LPM_NM_STRIDE_SHIFT) & 3u) + 1u;
    if (e.check & LPM_NM_ACC)
        *port = v->e[lpm_nm_slot(v, e.next, 0)].next;
    return 1;
}

/* The lookup loop, over any way of fetching character i (GETC). */
#define LPM_NM_LOOKUP_BODY(GETC)                                                      \
    uint32_t sid = v->root, port = v->root_port;                                      \
    unsigned stride = v->root_stride;                                                 \
    uint32_t i = 0;                                                                   \
    while (i < len) {                                                                 \
        uint32_t y = 0, mul = 1;                                                      \
        unsigned k = 0;                                                               \
        while (i < len && !lpm_nm_chunk_add(&y, &mul, (GETC), k, stride))            \
            k++;                                                                      \
        if (!lpm_nm_step(v, &sid, y, &stride, &port))                                 \
            break;                                                                    \
    }                                                                                 \
    return port

/* Longest-prefix match of a normalized name held in contiguous memory. */
LPM_HD uint32_t lpm_nm_lookup(const lpm_nm_view *v, const char *s, uint32_t len)
{
    LPM_NM_LOOKUP_BODY((unsigned char)s[i++]);
}

/* Interweaved input: names of a warp group of 32 are cut into 4-byte
 * slices; row r of the group holds slice r of each of the 32 names (one
 * 128-byte block), so the 32 threads of a warp read one block per row.
 * Character k of lane's name: */
LPM_HD unsigned lpm_nm_iw_char(const uint32_t *grp, unsigned lane, uint32_t k)
{
    return (grp[(k >> 2) * 32u + lane] >> (8u * (k & 3u))) & 0xFFu;
}

/* The same lookup reading a name from an interweaved group (the kernel's
 * body); len is the name's length. */
LPM_HD uint32_t lpm_nm_lookup_iw(const lpm_nm_view *v, const uint32_t *grp, unsigned lane,
                                 uint32_t len)
{
    LPM_NM_LOOKUP_BODY(lpm_nm_iw_char(grp, lane, i++));
}

#endif
