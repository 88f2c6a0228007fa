/* An ordinary update's writes packed into bubbles (at most one write per
 * stage and one DIT write per bubble). */
#include <stdlib.h>
#include <string.h>

#include "update_int.h"

int lpm_upd_room(void **p, size_t n, size_t *cap, size_t elem)
{
    if (n < *cap)
        return 0;
    size_t c = *cap ? *cap * 2 : 64;
    while (c <= n)
        c *= 2;
    void *q = realloc(*p, c * elem);
    if (!q)
        return -1;
    *p = q;
    *cap = c;
    return 0;
}

int lpm_upd_add_write(lpm_upd *u, uint32_t stage, uint32_t addr, uint64_t word)
{
    if (lpm_upd_room((void **)&u->w, u->nw, &u->capw, sizeof *u->w))
        return -1;
    u->w[u->nw++] = (lpm_write){ stage, addr, word };
    return 0;
}

static int wcmp_bubble(const void *a, const void *b)
{
    const lpm_write *x = a, *y = b;
    uint32_t sx = x->stage == LPM_IMAGE_DIT ? 0 : x->stage + 1;
    uint32_t sy = y->stage == LPM_IMAGE_DIT ? 0 : y->stage + 1;
    return sx < sy ? -1 : sx > sy;
}

enum { MASKW = 5 }; /* 4 x 64 stage bits + 1 word for the DIT */

/* A new, empty bubble nb in the masks; -1 on no memory. */
static int new_bubble(lpm_upd *u, size_t nb)
{
    if ((nb + 1) * MASKW > u->capm) {
        size_t c = u->capm ? u->capm * 2 : 64 * MASKW;
        while (c < (nb + 1) * MASKW)
            c *= 2;
        uint64_t *q = realloc(u->bmask, c * sizeof *q);
        if (!q)
            return -1;
        u->bmask = q;
        u->capm = c;
    }
    memset(u->bmask + nb * MASKW, 0, MASKW * sizeof *u->bmask);
    return 0;
}

/* Regroups the writes bubble by bubble (bi[i]: write i's bubble), stage
 * order inside a bubble; flags[k] per bubble. */
static int regroup(lpm_upd *u, const uint32_t *bi, size_t nb, const unsigned *flags)
{
    if (lpm_upd_room((void **)&u->b, nb ? nb - 1 : 0, &u->capb, sizeof *u->b))
        return -1;
    lpm_write *sorted = malloc((u->nw ? u->nw : 1) * sizeof *sorted);
    size_t *cnt = calloc(nb + 1, sizeof *cnt);
    if (!sorted || !cnt) {
        free(sorted);
        free(cnt);
        return -1;
    }
    for (size_t i = 0; i < u->nw; i++)
        cnt[bi[i] + 1]++;
    for (size_t k = 0; k < nb; k++)
        cnt[k + 1] += cnt[k];
    for (size_t k = 0; k < nb; k++)
        u->b[k] = (lpm_bubble){ cnt[k], cnt[k + 1] - cnt[k], flags[k] };
    for (size_t i = 0; i < u->nw; i++)
        sorted[cnt[bi[i]]++] = u->w[i];
    for (size_t k = 0; k < nb; k++)
        qsort(sorted + u->b[k].first, u->b[k].n, sizeof *sorted, wcmp_bubble);
    memcpy(u->w, sorted, u->nw * sizeof *sorted);
    u->nb = nb;
    free(sorted);
    free(cnt);
    return 0;
}

/* A ring admits lookups at any stage: one that reads a new DIT entry can
 * enter at the new chain's stage before a bubble travelling from stage 0
 * has written it. So a DIT commit after head-room writes rides alone in a
 * drain bubble, which enters once every earlier bubble has left. A linear
 * pipeline admits every item at stage 0 behind the bubble: no need. */
static int dit_commit_needs_drain(const lpm_upd *u)
{
    return u->img->ring && u->commit_from > 0 && u->commit_from < u->nw &&
           u->w[u->nw - 1].stage == LPM_IMAGE_DIT;
}

int lpm_upd_pack(lpm_upd *u)
{
    if (u->nw <= 1) { /* the common case: one write, one bubble */
        if (lpm_upd_room((void **)&u->b, 0, &u->capb, sizeof *u->b))
            return -1;
        u->b[0] = (lpm_bubble){ 0, u->nw, 0 };
        u->nb = u->nw;
        return 0;
    }
    uint32_t *bi = malloc(u->nw * sizeof *bi);
    unsigned *flags = calloc(u->nw + 1, sizeof *flags);
    if (!bi || !flags) {
        free(bi);
        free(flags);
        return -1;
    }
    size_t nb = 0, kmin = 0;
    int drain = dit_commit_needs_drain(u);
    for (size_t i = 0; i < u->nw; i++) {
        uint32_t s = u->w[i].stage;
        size_t word = s == LPM_IMAGE_DIT ? 4 : s / 64;
        uint64_t bit = s == LPM_IMAGE_DIT ? 1 : 1ULL << (s % 64);
        size_t k = i >= u->commit_from ? kmin : 0;
        if (drain && i == u->nw - 1)
            k = nb; /* a bubble of its own */
        while (k < nb && (u->bmask[k * MASKW + word] & bit))
            k++;
        if (k == nb && new_bubble(u, nb++)) {
            free(bi);
            free(flags);
            return -1;
        }
        u->bmask[k * MASKW + word] |= bit;
        bi[i] = (uint32_t)k;
        if (i < u->commit_from && k > kmin)
            kmin = k;
    }
    if (drain)
        flags[nb - 1] = LPM_BUBBLE_DRAIN;
    int rc = regroup(u, bi, nb, flags);
    free(bi);
    free(flags);
    return rc;
}
