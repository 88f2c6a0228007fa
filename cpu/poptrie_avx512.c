/* The poptrie batches with AVX-512 (poptrie.h). IPv4: the same two passes
 * as the portable batch (poptrie.c), the second one eight lanes at a time.
 * Pass A, scalar, reads a group's direct entries and prefetches their
 * nodes one group ahead; pass B then finds all eight lanes' positions with
 * variable shifts, counts with VPOPCNTQ and gathers bitmaps and leaves from
 * lines that are already in L1 (gathers that miss the cache are slow on
 * Zen 4; these do not). Lanes that go below the first node (rare) are
 * looked up one by one afterwards. Chosen at build time where the CPU has
 * AVX-512F/VL/DQ/BW and VPOPCNTDQ; compiled for any x86-64 with GCC or
 * Clang. */
#include "poptrie.h"
#include "poptrie_walk.h"

#if defined(__x86_64__) && defined(__GNUC__)

#include <immintrin.h>

#define AVX512 __attribute__((target("avx512f,avx512dq,avx512vl,avx512bw,avx512vpopcntdq,popcnt,bmi2")))
#define GRP 32   /* 64 put more prefetches in flight than the core keeps (docs/cpu-engines.md) */

int lpm_pt_avx512_usable(void)
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
           __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512bw") &&
           __builtin_cpu_supports("avx512vpopcntdq");
}

/* Lanes whose leaf lies in the external array (a node with more runs
 * than it holds inline): pass B notes where and prefetches the line, and
 * the leaf is read one group later, so that miss overlaps the next
 * group's work instead of stalling this one. */
typedef struct far_list {
    uint32_t off[GRP + 8];   /* byte offset of the leaf in t->leaves */
    uint32_t lane[GRP + 8];  /* lane in the group */
    unsigned n;
} far_list;

/* Eight lanes: a[0..8), direct entries D[0..8), answers nh[0..8) (lane
 * numbers from base in the group); leaves of lw bytes (a 16-bit one is
 * read as the low half of a 32-bit word and sign-extended: the pools keep
 * a spare element at the end for that). */
static inline __attribute__((always_inline)) AVX512 void pass_b8(const lpm_poptrie *t, const lpm_addr *a,
                                                                 const uint32_t *D, uint32_t *nh, unsigned lw,
                                                                 unsigned base, far_list *F)
{
    const __m512i pick_hi = _mm512_set_epi64(14, 12, 10, 8, 6, 4, 2, 0);
    const __m512i one = _mm512_set1_epi64(1), two = _mm512_set1_epi64(2), n63 = _mm512_set1_epi64(63);
    const __m512i ninl = _mm512_set1_epi64(LPM_PT_LEAF_BYTES / lw);
    const int lsh = lw == 2 ? 1 : 2;
    const char *nodes = (const char *)t->nodes;
    __m256i d = _mm256_loadu_si256((const __m256i *)D);
    __mmask8 k = _mm256_movepi32_mask(d);
    __m512i off = _mm512_slli_epi64(
        _mm512_maskz_cvtepu32_epi64(k, _mm256_and_si256(d, _mm256_set1_epi32(0x7FFFFFFF))), 6);
    __m512i hi = _mm512_permutex2var_epi64(_mm512_loadu_si512((const void *)a), pick_hi,
                                           _mm512_loadu_si512((const void *)(a + 4)));
    __m512i v = _mm512_and_si512(_mm512_srli_epi64(hi, 40), n63);
    __m512i msk = _mm512_sub_epi64(_mm512_sllv_epi64(two, v), one);
    __m512i vec = _mm512_mask_i64gather_epi64(_mm512_setzero_si512(), k, off, nodes, 1);
    __m512i lvec = _mm512_mask_i64gather_epi64(_mm512_setzero_si512(), k, off, nodes + 8, 1);
    __m512i lk = _mm512_sub_epi64(_mm512_popcnt_epi64(_mm512_and_si512(lvec, msk)), one);
    __mmask8 deep = _mm512_mask_test_epi64_mask(k, _mm512_srlv_epi64(vec, v), one);
    __mmask8 end = (__mmask8)(k & ~deep), inl = _mm512_mask_cmplt_epi64_mask(end, lk, ninl);
    __m256i leaf = _mm512_mask_i64gather_epi32(_mm256_setzero_si256(), inl,
                                               _mm512_add_epi64(off, _mm512_slli_epi64(lk, lsh)), nodes + 24, 1);
    __mmask8 far = (__mmask8)(end & ~inl);
    /* Compressed in registers, stored whole (the list has room for 8
     * more): a compress straight to memory is slow on Zen 4. */
    __m512i b0 = _mm512_cvtepu32_epi64(_mm512_mask_i64gather_epi32(_mm256_setzero_si256(), far, off, nodes + 20, 1));
    __m512i li = _mm512_slli_epi64(_mm512_sub_epi64(_mm512_add_epi64(b0, lk), ninl), lsh);
    _mm256_storeu_si256((__m256i *)&F->off[F->n], _mm256_maskz_compress_epi32(far, _mm512_cvtepi64_epi32(li)));
    _mm256_storeu_si256((__m256i *)&F->lane[F->n],
                        _mm256_maskz_compress_epi32(far, _mm256_add_epi32(_mm256_set1_epi32((int)base),
                                                                          _mm256_set_epi32(7, 6, 5, 4, 3, 2, 1, 0))));
    F->n += (unsigned)__builtin_popcount(far);
    if (lw == 2)
        leaf = _mm256_srai_epi32(_mm256_slli_epi32(leaf, 16), 16);
    __m256i res = _mm256_mask_blend_epi32(end, _mm256_sub_epi32(d, _mm256_set1_epi32(1)), leaf);
    _mm256_storeu_si256((__m256i *)nh, res);
    for (unsigned g = deep; g; g &= g - 1) {
        unsigned i = (unsigned)__builtin_ctz(g);
        nh[i] = lpm_pt_walk(t, a[i].hi, a[i].lo);
    }
}

/* The external leaves pass B noted for a group (nh: the group's answers). */
static inline __attribute__((always_inline)) void pass_c(const lpm_poptrie *t, const far_list *F, uint32_t *nh,
                                                         unsigned lw)
{
    const char *leaves = t->leaves;
    for (unsigned i = 0; i < F->n; i++)
        nh[F->lane[i]] = lw == 2 ? (uint32_t)(int32_t) * (const int16_t *)(leaves + F->off[i])
                                 : *(const uint32_t *)(leaves + F->off[i]);
}

static inline __attribute__((always_inline)) AVX512 void batch(const lpm_poptrie *t, const lpm_addr *a,
                                                               uint32_t *nh, size_t n, unsigned lw)
{
    uint32_t D[2][GRP];
    far_list F[2];
    size_t ng = n / GRP;
    const char *leaves = t->leaves;
    F[0].n = F[1].n = 0;
    if (ng)
        lpm_pt_v4_pass_a(t, a, GRP, a, 0, D[0]);
    for (size_t g = 0; g < ng; g++) {
        far_list *f = &F[g & 1];
        if (g + 1 < ng)
            lpm_pt_v4_pass_a(t, a + (g + 1) * GRP, GRP, g + 2 < ng ? a + (g + 2) * GRP : a, g + 2 < ng ? GRP : 0,
                   D[(g + 1) & 1]);
        f->n = 0;
        for (unsigned i = 0; i < GRP; i += 8)
            pass_b8(t, a + g * GRP + i, D[g & 1] + i, nh + g * GRP + i, lw, i, f);
        for (unsigned i = 0; i < f->n; i++)
            __builtin_prefetch(leaves + f->off[i]);
        if (g)
            pass_c(t, &F[(g - 1) & 1], nh + (g - 1) * GRP, lw);
    }
    if (ng)
        pass_c(t, &F[(ng - 1) & 1], nh + (ng - 1) * GRP, lw);
    for (size_t i = ng * GRP; i < n; i++)
        nh[i] = lpm_pt_walk(t, a[i].hi, a[i].lo);
}

AVX512 void lpm_pt_batch_v4_avx512(const lpm_poptrie *t, const lpm_addr *a, uint32_t *nh, size_t n)
{
    if (t->lw == 2)
        batch(t, a, nh, n, 2);
    else
        batch(t, a, nh, n, 4);
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

void lpm_pt_batch_v4_avx512(const lpm_poptrie *t, const lpm_addr *a, uint32_t *nh, size_t n)
{
    for (size_t i = 0; i < n; i++)
        nh[i] = lpm_pt_walk(t, a[i].hi, a[i].lo);
}

void lpm_pt_batch_v6_avx512(const lpm_poptrie *t, const lpm_addr *a, uint32_t *nh, size_t n)
{
    lpm_pt_batch_v4_avx512(t, a, nh, n);
}

#endif
