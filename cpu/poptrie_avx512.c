/* The poptrie batch lookup with AVX-512 (poptrie.h): eight lookups in the
 * lanes of one register walk the trie together, level by level. Each level
 * gathers the eight nodes, finds every lane's position with a variable
 * shift, counts the bits below it with VPOPCNTQ and gathers the leaves of
 * the lanes that end there; the lanes that go on continue with a mask.
 * Chosen at build time where the CPU has AVX-512F/DQ/VL/BW and
 * VPOPCNTDQ (poptrie.c); compiled for any x86-64 with GCC or Clang. */
#include "poptrie.h"

#if defined(__x86_64__) && defined(__GNUC__)

#include <immintrin.h>

#define AVX512 __attribute__((target("avx512f,avx512dq,avx512vl,avx512bw,avx512vpopcntdq,popcnt,bmi2")))

int lpm_pt_avx512_usable(void)
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
           __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512bw") &&
           __builtin_cpu_supports("avx512vpopcntdq");
}

/* Eight keys; v6 also reads the low words. Answers into nh[0..7]. */
static inline __attribute__((always_inline)) AVX512 void lookup8(const lpm_poptrie *t, const lpm_addr *a,
                                                                 uint32_t *nh, int v6)
{
    const unsigned s = v6 ? 16 : 18;
    const __m512i pick_hi = _mm512_set_epi64(14, 12, 10, 8, 6, 4, 2, 0);
    const __m512i pick_lo = _mm512_set_epi64(15, 13, 11, 9, 7, 5, 3, 1);
    const __m512i one = _mm512_set1_epi64(1), two = _mm512_set1_epi64(2);
    const __m512i low32 = _mm512_set1_epi64(0xFFFFFFFF);
    __m512i x0 = _mm512_loadu_si512((const void *)a), x1 = _mm512_loadu_si512((const void *)(a + 4));
    __m512i hi = _mm512_permutex2var_epi64(x0, pick_hi, x1);
    __m512i lo = v6 ? _mm512_permutex2var_epi64(x0, pick_lo, x1) : hi;
    __m256i d = _mm512_i64gather_epi32(_mm512_srli_epi64(hi, 64 - s), (const void *)t->dir, 4);
    __m256i res = _mm256_sub_epi32(d, _mm256_set1_epi32(1));
    __mmask8 k = _mm256_movepi32_mask(d);
    __m512i idx = _mm512_cvtepu32_epi64(_mm256_and_si256(d, _mm256_set1_epi32(0x7FFFFFFF)));
    const char *nodes = (const char *)t->nodes;
    for (unsigned o = s; k; o += LPM_PT_STRIDE) {
        __m512i off = _mm512_add_epi64(_mm512_slli_epi64(idx, 4), _mm512_slli_epi64(idx, 3));
        __m512i vec = _mm512_mask_i64gather_epi64(_mm512_setzero_si512(), k, off, nodes, 1);
        __m512i lvec = _mm512_mask_i64gather_epi64(_mm512_setzero_si512(), k, off, nodes + 8, 1);
        __m512i base = _mm512_mask_i64gather_epi64(_mm512_setzero_si512(), k, off, nodes + 16, 1);
        __m512i w = (v6 && o >= 64) ? lo : hi;
        __m512i v = _mm512_srli_epi64(_mm512_sll_epi64(w, _mm_cvtsi32_si128((int)(o & 63))), 58);
        __m512i msk = _mm512_sub_epi64(_mm512_sllv_epi64(two, v), one);
        __mmask8 go = _mm512_mask_test_epi64_mask(k, _mm512_srlv_epi64(vec, v), one);
        __m512i li = _mm512_add_epi64(_mm512_and_si512(base, low32),
                                      _mm512_sub_epi64(_mm512_popcnt_epi64(_mm512_and_si512(lvec, msk)), one));
        res = _mm512_mask_i64gather_epi32(res, (__mmask8)(k & ~go), li, (const void *)t->leaves, 4);
        idx = _mm512_add_epi64(_mm512_srli_epi64(base, 32),
                               _mm512_sub_epi64(_mm512_popcnt_epi64(_mm512_and_si512(vec, msk)), one));
        k = go;
    }
    _mm256_storeu_si256((__m256i *)nh, res);
}

static inline __attribute__((always_inline)) AVX512 void batch(const lpm_poptrie *t, const lpm_addr *a,
                                                               uint32_t *nh, size_t n, int v6)
{
    size_t i = 0;
    const unsigned s = v6 ? 16 : 18;
    for (; i + 8 <= n; i += 8) {
        if (i + 64 + 8 <= n)
            for (unsigned j = 0; j < 8; j++)
                __builtin_prefetch(&t->dir[a[i + 64 + j].hi >> (64 - s)]);
        lookup8(t, a + i, nh + i, v6);
    }
    if (i < n) {
        lpm_addr tail[8] = { { 0, 0 } };
        uint32_t out[8];
        for (size_t j = i; j < n; j++)
            tail[j - i] = a[j];
        lookup8(t, tail, out, v6);
        for (size_t j = i; j < n; j++)
            nh[j] = out[j - i];
    }
}

AVX512 void lpm_pt_batch_v4_avx512(const lpm_poptrie *t, const lpm_addr *a, uint32_t *nh, size_t n)
{
    batch(t, a, nh, n, 0);
}

AVX512 void lpm_pt_batch_v6_avx512(const lpm_poptrie *t, const lpm_addr *a, uint32_t *nh, size_t n)
{
    batch(t, a, nh, n, 1);
}

#else

int lpm_pt_avx512_usable(void)
{
    return 0;
}

void lpm_pt_batch_v4_avx512(const lpm_poptrie *t, const lpm_addr *a, uint32_t *nh, size_t n)
{
    (void)t, (void)a, (void)nh, (void)n;
}

void lpm_pt_batch_v6_avx512(const lpm_poptrie *t, const lpm_addr *a, uint32_t *nh, size_t n)
{
    (void)t, (void)a, (void)nh, (void)n;
}

#endif
