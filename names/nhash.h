/* FNV-1a over a normalized name: the hash of the port rule (ntable.c) and
 * of the reference's hash set (nref.c). A header of its own so that neither
 * of those files calls the other for it. */
#ifndef LPM_NHASH_H
#define LPM_NHASH_H

#include <stddef.h>
#include <stdint.h>

static inline uint64_t lpm_name_fnv(const char *s, size_t len)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < len; i++)
        h = (h ^ (unsigned char)s[i]) * 0x100000001b3ULL;
    return h;
}

#endif
