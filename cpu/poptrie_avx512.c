/* The IPv6 poptrie batch with AVX-512 (poptrie.h): lanes walk level by
 * level eight at a time, counting with VPOPCNTQ and gathering bitmaps and
 * leaves from lines prefetched the level before (gathers that miss the
 * cache are slow on Zen 4; these do not). Chosen at run time where the
 * CPU has AVX-512F/VL/DQ/BW and VPOPCNTDQ; compiled for any x86-64 with
 * GCC or Clang. (IPv4's two loads per lookup are done in scalar code,
 * poptrie.c.) */
#include "poptrie.h"
#include "poptrie_walk.h"

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

/* ---- IPv6 ----
 * A group of 64 lanes walks level by level as eight vectors of eight; a
 * vector whose lanes have all ended is skipped. Each level gathers the
 * lanes' child bitmaps and bases from nodes prefetched by the level
 * before, notes where each lane is, and prefetches the exact 64-byte node
 * each lane needs next (its segment is known from the key); a last pass
 * gathers the leaves. Pass A (direct entries) is scalar, one group ahead. */
#define GRP6 128  /* long walks: a level of 128 lanes hides the next one's misses (64 and 256: within noise, docs/cpu-engines.md) */

typedef struct v6_lanes {
    uint32_t x[GRP6];       /* level node of each lane (0 once ended) */
    uint32_t end[GRP6];     /* 64-position node a lane is in */
    uint32_t endv[GRP6];    /* its position there */
    uint32_t d[GRP6];       /* direct entries */
    __mmask8 live[GRP6 / 8];
} v6_lanes;

static inline void v6_pass_a(const lpm_poptrie *t, const lpm_addr *a, const lpm_addr *ahead, unsigned mahead,
                             v6_lanes *L)
{
    for (unsigned i = 0; i < GRP6; i++) {
        if (i < mahead)
            __builtin_prefetch(lpm_pt_v6_entry(t, ahead[i].hi));
        uint32_t d = *lpm_pt_v6_entry(t, a[i].hi), isnode = d >> 31;
        uint32_t x = d & ~LPM_PT_DIR_NODE & -isnode;
        L->d[i] = d;
        L->x[i] = x;
        L->end[i] = 0;
        L->endv[i] = 0;
        __builtin_prefetch(&t->nodes[x + (unsigned)(a[i].hi >> (62 - LPM_PT_S6) & 3)]);
    }
    for (unsigned j = 0; j < GRP6 / 8; j++) {
        __mmask8 k = 0;
        for (unsigned i = 0; i < 8; i++)
            k |= (__mmask8)((L->d[8 * j + i] >> 31) << i);
        L->live[j] = k;
    }
}

static inline __attribute__((always_inline)) AVX512 __m512i key_word(const lpm_addr *a, unsigned lo)
{
    const __m512i pick_hi = _mm512_set_epi64(14, 12, 10, 8, 6, 4, 2, 0);
    const __m512i pick_lo = _mm512_set_epi64(15, 13, 11, 9, 7, 5, 3, 1);
    return _mm512_permutex2var_epi64(_mm512_loadu_si512((const void *)a), lo ? pick_lo : pick_hi,
                                     _mm512_loadu_si512((const void *)(a + 4)));
}

static inline __attribute__((always_inline)) AVX512 void v6_walk(const lpm_poptrie *t, const lpm_addr *a,
                                                                 uint32_t *nh, v6_lanes *L, unsigned lw)
{
    const char *nodes = (const char *)t->nodes;
    const __m512i one = _mm512_set1_epi64(1), two = _mm512_set1_epi64(2), n63 = _mm512_set1_epi64(63);
    for (unsigned o = LPM_PT_S6, any = 1; any && o < 128; o += 8) {
        any = 0;
        for (unsigned j = 0; j < GRP6 / 8; j++) {
            __mmask8 k = L->live[j];
            if (!k)
                continue;
            __m512i w = key_word(a + 8 * j, o >= 64);
            __m512i u = _mm512_srli_epi64(_mm512_sll_epi64(w, _mm_cvtsi32_si128((int)(o & 63))), 56);
            __m512i v = _mm512_and_si512(u, n63);
            __m512i node = _mm512_add_epi64(_mm512_cvtepu32_epi64(_mm256_loadu_si256((const __m256i *)&L->x[8 * j])),
                                            _mm512_srli_epi64(u, 6));
            __m512i off = _mm512_slli_epi64(node, 6);
            __m512i vec = _mm512_mask_i64gather_epi64(_mm512_setzero_si512(), k, off, nodes, 1);
            __m512i b1 = _mm512_cvtepu32_epi64(_mm512_mask_i64gather_epi32(_mm256_setzero_si256(), k, off, nodes + 16, 1));
            __m512i msk = _mm512_sub_epi64(_mm512_sllv_epi64(two, v), one);
            __m512i c = _mm512_add_epi64(b1, _mm512_slli_epi64(
                _mm512_sub_epi64(_mm512_popcnt_epi64(_mm512_and_si512(vec, msk)), one), 2));
            __mmask8 go = _mm512_mask_test_epi64_mask(k, _mm512_srlv_epi64(vec, v), one);
            _mm256_mask_storeu_epi32(&L->end[8 * j], k, _mm512_cvtepi64_epi32(node));
            _mm256_mask_storeu_epi32(&L->endv[8 * j], k, _mm512_cvtepi64_epi32(v));
            _mm256_mask_storeu_epi32(&L->x[8 * j], go, _mm512_cvtepi64_epi32(c));
            L->live[j] = go;
            any |= go;
            if (go && o + 8 < 128) {
                /* The next level's 64-byte node, from the key's next bits. */
                __m512i wn = o + 8 >= 64 ? key_word(a + 8 * j, 1) : w;
                __m512i pf = _mm512_add_epi64(c, _mm512_srli_epi64(
                    _mm512_sll_epi64(wn, _mm_cvtsi32_si128((int)((o + 8) & 63))), 62));
                /* All eight, unconditionally (ended lanes fetch node 0):
                 * a loop over the live ones mispredicts its exit. */
                uint64_t q[8];
                _mm512_storeu_si512((void *)q, _mm512_maskz_slli_epi64(go, pf, 6));
                for (unsigned g = 0; g < 8; g++)
                    __builtin_prefetch(nodes + q[g]);
            }
        }
    }
    const __m512i ninl = _mm512_set1_epi64(LPM_PT_LEAF_BYTES / lw);
    const int lsh = lw == 2 ? 1 : 2;
    for (unsigned j = 0; j < GRP6 / 8; j++) {
        __m256i d = _mm256_loadu_si256((const __m256i *)&L->d[8 * j]);
        __mmask8 k = _mm256_movepi32_mask(d);
        __m512i off = _mm512_slli_epi64(_mm512_cvtepu32_epi64(_mm256_loadu_si256((const __m256i *)&L->end[8 * j])), 6);
        __m512i v = _mm512_cvtepu32_epi64(_mm256_loadu_si256((const __m256i *)&L->endv[8 * j]));
        __m512i lvec = _mm512_mask_i64gather_epi64(_mm512_setzero_si512(), k, off, nodes + 8, 1);
        __m512i lk = _mm512_sub_epi64(
            _mm512_popcnt_epi64(_mm512_and_si512(lvec, _mm512_sub_epi64(_mm512_sllv_epi64(two, v), one))), one);
        __mmask8 inl = _mm512_mask_cmplt_epi64_mask(k, lk, ninl), far = (__mmask8)(k & ~inl);
        __m256i leaf = _mm512_mask_i64gather_epi32(_mm256_setzero_si256(), inl,
                                                   _mm512_add_epi64(off, _mm512_slli_epi64(lk, lsh)), nodes + 24, 1);
        if (far) {
            __m512i b0 = _mm512_cvtepu32_epi64(_mm512_mask_i64gather_epi32(_mm256_setzero_si256(), far, off, nodes + 20, 1));
            __m512i li = _mm512_slli_epi64(_mm512_sub_epi64(_mm512_add_epi64(b0, lk), ninl), lsh);
            leaf = _mm512_mask_i64gather_epi32(leaf, far, li, t->leaves, 1);
        }
        if (lw == 2)
            leaf = _mm256_srai_epi32(_mm256_slli_epi32(leaf, 16), 16);
        _mm256_storeu_si256((__m256i *)&nh[8 * j],
                            _mm256_mask_blend_epi32(k, _mm256_sub_epi32(d, _mm256_set1_epi32(1)), leaf));
    }
}

static inline __attribute__((always_inline)) AVX512 void batch6(const lpm_poptrie *t, const lpm_addr *a,
                                                                uint32_t *nh, size_t n, unsigned lw)
{
    v6_lanes L[2];
    size_t ng = n / GRP6;
    if (ng)
        v6_pass_a(t, a, a, 0, &L[0]);
    for (size_t g = 0; g < ng; g++) {
        if (g + 1 < ng)
            v6_pass_a(t, a + (g + 1) * GRP6, g + 2 < ng ? a + (g + 2) * GRP6 : a, g + 2 < ng ? GRP6 : 0, &L[(g + 1) & 1]);
        v6_walk(t, a + g * GRP6, nh + g * GRP6, &L[g & 1], lw);
    }
    for (size_t i = ng * GRP6; i < n; i++)
        nh[i] = lpm_pt_walk(t, a[i].hi, a[i].lo);
}

AVX512 void lpm_pt_batch_v6_avx512(const lpm_poptrie *t, const lpm_addr *a, uint32_t *nh, size_t n)
{
    if (t->lw == 2)
        batch6(t, a, nh, n, 2);
    else
        batch6(t, a, nh, n, 4);
}

#else

int lpm_pt_avx512_usable(void)
{
    return 0;
}

void lpm_pt_batch_v6_avx512(const lpm_poptrie *t, const lpm_addr *a, uint32_t *nh, size_t n)
{
    for (size_t i = 0; i < n; i++)
        nh[i] = lpm_pt_walk(t, a[i].hi, a[i].lo);
}

#endif
