/* Small deterministic PRNG (splitmix64 seeding xoshiro256**): same seed,
 * same stream, on every machine. */
#ifndef LPM_RNG_H
#define LPM_RNG_H

#include <stdint.h>

typedef struct lpm_rng {
    uint64_t s[4];
} lpm_rng;

static inline uint64_t lpm_splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static inline void lpm_rng_seed(lpm_rng *r, uint64_t seed)
{
    for (int i = 0; i < 4; i++)
        r->s[i] = lpm_splitmix64(&seed);
}

static inline uint64_t lpm_rng_next(lpm_rng *r)
{
    uint64_t *s = r->s;
    uint64_t x = s[1] * 5;
    uint64_t res = ((x << 7) | (x >> 57)) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = (s[3] << 45) | (s[3] >> 19);
    return res;
}

/* Uniform in [0, n), n > 0 (Lemire's method, unbiased enough for tests). */
static inline uint64_t lpm_rng_below(lpm_rng *r, uint64_t n)
{
    return (uint64_t)(((unsigned __int128)lpm_rng_next(r) * n) >> 64);
}

/* Uniform double in [0, 1). */
static inline double lpm_rng_double(lpm_rng *r)
{
    return (double)(lpm_rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

#endif
