/* CAMP's min-max coloring heuristic (seed slides 15-21) and the balanced
 * linear stride choice. */
#include "color.h"

#include <stdlib.h>
#include <string.h>

int lpm_by_size_desc(const void *a, const void *b)
{
    const lpm_size_order *x = a, *y = b;
    if (x->size != y->size)
        return x->size > y->size ? -1 : 1;
    return x->id < y->id ? -1 : x->id > y->id;
}

int lpm_color_minmax(const lpm_color_in *in, unsigned N, unsigned *color, uint64_t *load, lpm_err *err)
{
    size_t n = in->n;
    lpm_size_order *ord = malloc((n ? n : 1) * sizeof *ord);
    uint64_t *acc = calloc(N, sizeof *acc);
    if (!ord || !acc) {
        free(ord);
        free(acc);
        return lpm_err_set(err, LPM_EFAIL, "out of memory (coloring)");
    }
    for (size_t i = 0; i < n; i++) {
        ord[i].id = i;
        ord[i].size = 0;
        for (unsigned j = 0; j < in->height[i]; j++)
            ord[i].size += in->cnt[in->off[i] + j];
    }
    qsort(ord, n, sizeof *ord, lpm_by_size_desc);
    memset(load, 0, N * sizeof *load);
    uint64_t curmax = 0;
    for (size_t o = 0; o < n; o++) {
        size_t i = ord[o].id;
        const uint64_t *cnt = in->cnt + in->off[i];
        unsigned h = in->height[i];
        unsigned best = 0;
        uint64_t bmax = UINT64_MAX;
        unsigned __int128 bsec = 0;
        /* Every root color; the one that keeps the fullest stage smallest
         * wins, then the one that puts the big levels on light stages,
         * then the lowest color. */
        for (unsigned c = 0; c < N; c++) {
            uint64_t m = curmax;
            unsigned __int128 sec = 0;
            for (unsigned j = 0; j < h; j++) {
                unsigned s = (c + j) % N;
                acc[s] += cnt[j];
                sec += (unsigned __int128)cnt[j] * load[s];
            }
            for (unsigned j = 0; j < h && j < N; j++) {
                unsigned s = (c + j) % N;
                if (load[s] + acc[s] > m)
                    m = load[s] + acc[s];
            }
            for (unsigned j = 0; j < h && j < N; j++)
                acc[(c + j) % N] = 0;
            if (m < bmax || (m == bmax && sec < bsec)) {
                bmax = m;
                bsec = sec;
                best = c;
            }
        }
        color[i] = best;
        for (unsigned j = 0; j < h; j++)
            load[(best + j) % N] += cnt[j];
        curmax = bmax;
    }
    free(ord);
    free(acc);
    return LPM_OK;
}

/* Minimax then min-total over strides 1..8 per stage; prof[d] = blocks
 * starting at depth d. */
int lpm_strides_balanced(const uint64_t prof[129], unsigned x, unsigned maxlen, unsigned N,
                         uint8_t *sd, unsigned *nlev, lpm_err *err)
{
    if (maxlen <= x) {
        *nlev = 1;
        sd[0] = 1;
        return LPM_OK;
    }
    unsigned span = maxlen - x;
    if (N * LPM_IMAGE_MAX_STRIDE < span)
        return lpm_err_set(err, LPM_EINPUT, "%u stages of stride up to %d cannot cover %u bits (prefixes up to /%u, x = %u)",
                           N, LPM_IMAGE_MAX_STRIDE, span, maxlen, x);
    if (N > span)
        N = span;
    /* f[i][d]: with i stages left at depth x+d, the least possible fullest
     * stage; g[i][d]: least total under the chosen bound. */
    size_t W = span + 1;
    uint64_t *f = malloc((size_t)(N + 1) * W * sizeof *f);
    uint64_t *g = malloc((size_t)(N + 1) * W * sizeof *g);
    uint8_t *ch = malloc((size_t)(N + 1) * W);
    if (!f || !g || !ch) {
        free(f);
        free(g);
        free(ch);
        return lpm_err_set(err, LPM_EFAIL, "out of memory (strides)");
    }
#define F(i, d) f[(size_t)(i) * W + (d)]
#define G(i, d) g[(size_t)(i) * W + (d)]
#define C(i, d) ch[(size_t)(i) * W + (d)]
    for (unsigned d = 0; d <= span; d++)
        F(0, d) = d == span ? 0 : UINT64_MAX;
    for (unsigned i = 1; i <= N; i++)
        for (unsigned d = 0; d <= span; d++) {
            F(i, d) = d == span ? 0 : UINT64_MAX;
            for (unsigned k = 1; k <= LPM_IMAGE_MAX_STRIDE && d < span; k++) {
                unsigned e = d + k > span ? span : d + k;
                if (F(i - 1, e) == UINT64_MAX)
                    continue;
                uint64_t w = prof[x + d] << k;
                uint64_t m = w > F(i - 1, e) ? w : F(i - 1, e);
                if (m < F(i, d))
                    F(i, d) = m;
            }
        }
    uint64_t M = F(N, 0);
    for (unsigned d = 0; d <= span; d++)
        G(0, d) = d == span ? 0 : UINT64_MAX;
    for (unsigned i = 1; i <= N; i++)
        for (unsigned d = 0; d <= span; d++) {
            G(i, d) = d == span ? 0 : UINT64_MAX;
            C(i, d) = 0;
            for (unsigned k = 1; k <= LPM_IMAGE_MAX_STRIDE && d < span; k++) {
                unsigned e = d + k > span ? span : d + k;
                uint64_t w = prof[x + d] << k;
                if (w > M || G(i - 1, e) == UINT64_MAX)
                    continue;
                if (w + G(i - 1, e) < G(i, d)) {
                    G(i, d) = w + G(i - 1, e);
                    C(i, d) = (uint8_t)k;
                }
            }
        }
    unsigned d = 0, n = 0;
    for (unsigned i = N; d < span; i--)
        d += sd[n++] = C(i, d);
    *nlev = n;
#undef F
#undef G
#undef C
    free(f);
    free(g);
    free(ch);
    return LPM_OK;
}
