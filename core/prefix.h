/* The one key type: IPv4 and IPv6 addresses and prefixes in 128 bits.
 *
 * Addresses are MSB-aligned: bit 0 is the most significant bit of the
 * address, for both families. An IPv4 address occupies bits 0..31 (the top
 * 32 bits of hi); everything below is zero. So a trie walks bit i the same
 * way whatever the family, and IPv4 is only a family flag and a shorter key.
 */
#ifndef LPM_PREFIX_H
#define LPM_PREFIX_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"

enum { LPM_AF_INET = 4, LPM_AF_INET6 = 6 };

#define LPM_ADDR_STRLEN 48   /* enough for any IPv6 text form plus /128 */

typedef struct lpm_addr {
    uint64_t hi, lo;
} lpm_addr;

typedef struct lpm_prefix {
    lpm_addr addr;   /* host bits are zero */
    uint8_t len;     /* 0..32 or 0..128 */
    uint8_t family;  /* LPM_AF_INET or LPM_AF_INET6 */
} lpm_prefix;

/* Width of the family's addresses in bits: 32 or 128. */
static inline unsigned lpm_family_bits(int family)
{
    return family == LPM_AF_INET ? 32u : 128u;
}

/* Bit i (0 = most significant) of a. */
static inline unsigned lpm_addr_bit(const lpm_addr *a, unsigned i)
{
    return i < 64 ? (unsigned)(a->hi >> (63 - i)) & 1u
                  : (unsigned)(a->lo >> (127 - i)) & 1u;
}

/* n bits (0..64) starting at bit pos, as an integer; bits past 127 read 0. */
static inline uint64_t lpm_addr_bits(const lpm_addr *a, unsigned pos, unsigned n)
{
    if (n == 0 || pos >= 128)
        return 0;
    uint64_t w;
    if (pos == 0)
        w = a->hi;
    else if (pos < 64)
        w = (a->hi << pos) | (a->lo >> (64 - pos));
    else
        w = a->lo << (pos - 64);
    return w >> (64 - n);
}

/* a with every bit from len on cleared. */
static inline lpm_addr lpm_addr_mask(const lpm_addr *a, unsigned len)
{
    lpm_addr r = *a;
    if (len == 0) {
        r.hi = r.lo = 0;
    } else if (len < 64) {
        r.hi &= ~0ULL << (64 - len);
        r.lo = 0;
    } else if (len == 64) {
        r.lo = 0;
    } else if (len < 128) {
        r.lo &= ~0ULL << (128 - len);
    }
    return r;
}

/* a with bit i set to v. */
static inline void lpm_addr_set_bit(lpm_addr *a, unsigned i, unsigned v)
{
    uint64_t *w = i < 64 ? &a->hi : &a->lo;
    uint64_t m = 1ULL << (63 - (i & 63));
    *w = v ? (*w | m) : (*w & ~m);
}

static inline int lpm_addr_eq(const lpm_addr *a, const lpm_addr *b)
{
    return a->hi == b->hi && a->lo == b->lo;
}

static inline int lpm_addr_cmp(const lpm_addr *a, const lpm_addr *b)
{
    if (a->hi != b->hi)
        return a->hi < b->hi ? -1 : 1;
    if (a->lo != b->lo)
        return a->lo < b->lo ? -1 : 1;
    return 0;
}

/* Does prefix p cover address a? */
static inline int lpm_prefix_covers(const lpm_prefix *p, const lpm_addr *a)
{
    lpm_addr m = lpm_addr_mask(a, p->len);
    return lpm_addr_eq(&m, &p->addr);
}

/* IPv4 host-order value <-> lpm_addr. */
static inline lpm_addr lpm_addr_from_v4(uint32_t v)
{
    lpm_addr a = { (uint64_t)v << 32, 0 };
    return a;
}
static inline uint32_t lpm_addr_to_v4(const lpm_addr *a)
{
    return (uint32_t)(a->hi >> 32);
}

/* Parses a textual address (dotted quad or RFC 4291 IPv6, incl. embedded
 * IPv4). *family is set. Returns LPM_OK or LPM_EINPUT with a reason in err. */
int lpm_addr_parse(const char *s, int *family, lpm_addr *out, lpm_err *err);

/* Parses "addr/len" (or "addr" alone when allow_bare, meaning a host route).
 * Host bits set: LPM_EINPUT unless mask_host, which clears them. */
int lpm_prefix_parse(const char *s, int allow_bare, int mask_host,
                     lpm_prefix *out, lpm_err *err);

/* Builds a prefix from an address and a length, checking range and host
 * bits as lpm_prefix_parse does. */
int lpm_prefix_make(const lpm_addr *a, int family, unsigned len, int mask_host,
                    lpm_prefix *out, lpm_err *err);

/* Canonical text forms (IPv6 per RFC 5952). buf holds LPM_ADDR_STRLEN. */
void lpm_addr_format(const lpm_addr *a, int family, char *buf, size_t size);
void lpm_prefix_format(const lpm_prefix *p, char *buf, size_t size);

#endif
