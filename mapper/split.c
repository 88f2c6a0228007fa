/* The split mapping (issue 21): subtrees cut into pieces of at most H
 * block levels; level j of a piece colored c lives in stage c + j (ring:
 * mod N). A piece hangs below a block of its parent piece; its *natural*
 * stage is the one after that block's. A piece placed d stages after its
 * natural one is reached by a jump (the J field), which costs every lookup
 * that enters it d stages passed without a read (ring), and nothing on a
 * linear pipeline, where every lookup rides to the last stage anyway.
 *
 * Placement is a local search over where each piece's root goes (a piece
 * moves with everything below it), from a start where every piece is at
 * its natural stage and the subtree roots are colored by min-max over
 * their whole subtrees (ring; linear: at stage 0, the level mapping).
 * Passes over the pieces, biggest subtree first: a piece takes the stage
 * (ring: natural .. natural + N/2; linear: any later one that leaves room
 * for its height; a ring's subtree root: any, the direct index table names
 * it for free) that leaves the least sum over stages of (words above the
 * capacity)^2, capacity = mean stage + 0.3 %; among equals the shortest
 * jump. Passes stop when no stage is over, nothing moved, or after 12.
 * Most pieces stay natural; the ones that move sat on overfull stages.
 * docs/cli-mapper.md ("The split mapping") says the same for users. */
#include <stdlib.h>
#include <string.h>

#include "color.h"
#include "map_int.h"

#define SLACK_PER_100K 300 /* capacity = mean * (1 + 0.003) */
#define MAX_PASSES 12

typedef struct {
    const lpm_mtree *t;
    lpm_units *u;
    unsigned N, D;
    int ring;
    uint32_t *end;      /* block -> one past its last descendant */
    uint64_t *load;     /* words per stage */
    uint64_t cap;
    uint64_t *prof;     /* scratch: the moving subtree's words per level (ring: folded mod N) */
    uint64_t *cand;     /* scratch: the loads without it */
} split_t;

/* Descendants of a block are the contiguous range [b, end[b]) when the
 * routes were inserted in sorted order (lpm_mtree_build on a finished
 * FIB); checked, so an unsorted build is refused rather than misplaced. */
static int subtree_ranges(split_t *S, uint64_t *words, lpm_err *err)
{
    const lpm_mtree *t = S->t;
    uint32_t *cntd = calloc(t->nb ? t->nb : 1, sizeof *cntd);
    if (!cntd)
        return lpm_err_set(err, LPM_EFAIL, "out of memory (split)");
    for (size_t i = 0; i < t->nb; i++) {
        S->end[i] = (uint32_t)i + 1;
        words[i] = 1ULL << t->b[i].k;
    }
    for (size_t i = t->nb; i-- > 0;) {
        uint32_t p = t->b[i].parent;
        cntd[i]++;
        if (p) {
            cntd[p - 1] += cntd[i];
            words[p - 1] += words[i];
            if (S->end[i] > S->end[p - 1])
                S->end[p - 1] = S->end[i];
        }
    }
    int rc = LPM_OK;
    for (size_t i = 0; i < t->nb && !rc; i++)
        if (S->end[i] - i != cntd[i])
            rc = lpm_err_set(err, LPM_EFAIL, "split mapping: the blocks of a subtree are not contiguous");
    free(cntd);
    return rc;
}

/* Stage of level j of a piece whose root is at stage c; N if past the
 * end of a linear pipeline. */
static unsigned stage_of(const split_t *S, unsigned c, unsigned j)
{
    unsigned s = c + j;
    return S->ring ? s % S->N : (s < S->N ? s : S->N);
}

/* Natural stage of a non-root piece p: one after its parent block. */
static unsigned natural(const split_t *S, uint32_t p)
{
    const lpm_mtree *t = S->t;
    uint32_t pb = t->b[S->u->root_block[p]].parent - 1, q = S->u->unit[pb];
    return stage_of(S, S->u->color[q], t->b[pb].level - t->b[S->u->root_block[q]].level + 1);
}

/* Stage of block i as placed now (its piece's color + its level in it). */
static unsigned block_stage(const split_t *S, uint32_t i)
{
    uint32_t q = S->u->unit[i];
    return S->u->color[q] + (S->t->b[i].level - S->t->b[S->u->root_block[q]].level);
}

/* prof[j] = words of piece p's whole subtree j stages after p's root, as
 * placed now (pieces below may sit at other offsets; ring: mod N; linear:
 * cut at N). Returns 1 + the largest such j. */
static unsigned subtree_profile(const split_t *S, uint32_t p)
{
    const lpm_mtree *t = S->t;
    uint32_t rb = S->u->root_block[p];
    unsigned c = S->u->color[p], h = 0, N = S->N;
    memset(S->prof, 0, N * sizeof *S->prof);
    for (uint32_t i = rb; i < S->end[rb]; i++) {
        unsigned s = block_stage(S, i), j = S->ring ? (s % N + N - c % N) % N : s - c;
        if (j + 1 > h)
            h = j + 1;
        if (S->ring || j < N)
            S->prof[S->ring ? j % N : j] += 1ULL << t->b[i].k;
    }
    return h;
}

typedef unsigned __int128 cost_t;
#define COST_MAX (~(cost_t)0)

static cost_t sq_over(uint64_t v, uint64_t cap)
{
    return v > cap ? (cost_t)(v - cap) * (v - cap) : 0;
}

/* What the subtree adds to the squared words above the capacity, summed
 * over the stages, if rooted at stage c, the rest as cand[] says (squares,
 * so that moving words off the fullest stage helps even when every stage
 * is over, as the first stages of a linear pipeline force); COST_MAX where
 * it does not fit a linear pipeline. */
static cost_t over_at(const split_t *S, unsigned c, unsigned h)
{
    unsigned N = S->N, n = h < N ? h : N;
    if (!S->ring && c + h > N)
        return COST_MAX;
    cost_t o = 0;
    for (unsigned j = 0; j < n; j++) {
        unsigned s = stage_of(S, c, j);
        o += sq_over(S->cand[s] + S->prof[j], S->cap) - sq_over(S->cand[s], S->cap);
    }
    return o;
}

static uint64_t over_cap(const split_t *S)
{
    uint64_t o = 0;
    for (unsigned s = 0; s < S->N; s++)
        if (S->load[s] > S->cap)
            o += S->load[s] - S->cap;
    return o;
}

static void add_profile(const split_t *S, uint64_t *load, unsigned c, unsigned h, int sign)
{
    unsigned n = S->ring ? S->N : h;
    for (unsigned j = 0; j < n; j++) {
        unsigned s = stage_of(S, c, j);
        if (s < S->N)
            load[s] = sign > 0 ? load[s] + S->prof[j] : load[s] - S->prof[j];
    }
}

/* Moves piece p and every piece below it so that p's root is at best. */
static void move_subtree(split_t *S, uint32_t p, unsigned from, unsigned best)
{
    uint32_t rb = S->u->root_block[p];
    for (uint32_t i = rb; i < S->end[rb]; i++) {
        uint32_t q = S->u->unit[i];
        if (S->u->root_block[q] != i)
            continue;
        unsigned *c = &S->u->color[q];
        *c = S->ring ? (*c + S->N - from + best) % S->N : *c - from + best;
    }
}

/* One decision: the root stage for piece p, everything else fixed.
 * Returns 1 if p moved. */
static int place_piece(split_t *S, uint32_t p)
{
    unsigned N = S->N, cur = S->u->color[p];
    uint32_t rb = S->u->root_block[p];
    int root = !S->t->b[rb].parent;
    unsigned nat = root ? 0 : natural(S, p);
    unsigned best = cur, bd = root ? 0 : (S->ring ? (cur + N - nat) % N : cur - nat);
    /* A piece at offset 0 whose own levels are all under the capacity
     * is left alone (the pieces below it get their own turn). */
    if (!bd) {
        unsigned hh = S->u->height[p], over = 0;
        for (unsigned j = 0; j < hh && j < N && !over; j++) {
            unsigned s = stage_of(S, cur, j);
            over = s < N && S->load[s] > S->cap;
        }
        if (!over)
            return 0;
    }
    unsigned h = subtree_profile(S, p);
    memcpy(S->cand, S->load, N * sizeof *S->cand);
    add_profile(S, S->cand, cur, h, -1);
    /* linear: roots stay at stage 0, where only the top of the trie can go */
    unsigned span = root ? (S->ring ? N : 1) : (S->ring ? S->D + 1 : N - nat);
    cost_t bo = over_at(S, cur, h);
    for (unsigned d = 0; d < span; d++) {
        unsigned c = S->ring ? (nat + d) % N : nat + d;
        cost_t o = over_at(S, c, h);
        /* fewer words over the capacity; among equals the shorter jump */
        if (o < bo || (o == bo && !root && d < bd)) {
            bo = o;
            best = c;
            bd = d;
        }
    }
    add_profile(S, S->cand, best, h, 1);
    memcpy(S->load, S->cand, N * sizeof *S->load);
    if (best == cur)
        return 0;
    move_subtree(S, p, cur, best);
    return 1;
}

/* The start: ring, subtree roots by min-max over their whole subtrees,
 * in decreasing size (the plain CAMP coloring of the same blocks);
 * linear, every root at stage 0 (the level mapping). */
static void start_roots(split_t *S, const lpm_size_order *ord, size_t n)
{
    unsigned N = S->N;
    for (size_t o = 0; o < n; o++) {
        uint32_t p = (uint32_t)ord[o].id;
        if (S->t->b[S->u->root_block[p]].parent)
            continue;
        unsigned h = subtree_profile(S, p), best = 0;
        uint64_t bm = UINT64_MAX;
        for (unsigned c = 0; c < N && S->ring; c++) {
            uint64_t m = 0;
            for (unsigned j = 0; j < N; j++)
                if (S->load[(c + j) % N] + S->prof[j] > m)
                    m = S->load[(c + j) % N] + S->prof[j];
            if (m < bm) {
                bm = m;
                best = c;
            }
        }
        move_subtree(S, p, S->u->color[p], best);
        add_profile(S, S->load, best, h, 1);
    }
}

int lpm_split_place(lpm_mtree *t, unsigned N, unsigned H, int ring, lpm_units *u, lpm_err *err)
{
    if (H < 1 || H > 255)
        return lpm_err_set(err, LPM_EINPUT, "split height %u is not in 1..255", H);
    int rc = lpm_units_make(t, H, u, err);
    if (rc)
        return rc;
    split_t S = { t, u, N, N / 2, ring, NULL, NULL, 0, NULL, NULL };
    size_t nb = t->nb ? t->nb : 1, n = u->n;
    uint64_t *words = malloc(nb * sizeof *words);
    lpm_size_order *ord = malloc((n ? n : 1) * sizeof *ord);
    S.end = malloc(nb * sizeof *S.end);
    S.load = calloc(N, sizeof *S.load);
    S.prof = calloc(N, sizeof *S.prof);
    S.cand = calloc(N, sizeof *S.cand);
    if (!words || !ord || !S.end || !S.load || !S.prof || !S.cand)
        rc = lpm_err_set(err, LPM_EFAIL, "out of memory (split)");
    if (!rc)
        rc = subtree_ranges(&S, words, err);
    if (!rc) {
        uint64_t total = 0;
        for (size_t i = 0; i < n; i++) {
            ord[i].id = (uint32_t)i;
            ord[i].size = words[u->root_block[i]];
            if (!t->b[u->root_block[i]].parent)
                total += ord[i].size;
        }
        qsort(ord, n, sizeof *ord, lpm_by_size_desc);
        S.cap = (total * (100000 + SLACK_PER_100K) + 100000ULL * N - 1) / (100000ULL * N);
        /* every piece at offset 0 (parent pieces come first) */
        for (size_t i = 0; i < n; i++)
            u->color[i] = t->b[u->root_block[i]].parent ? natural(&S, (uint32_t)i) : 0;
    }
    if (!rc) {
        start_roots(&S, ord, n);
        for (unsigned pass = 0; pass < MAX_PASSES; pass++) {
            int moved = 0;
            for (size_t o = 0; o < n; o++)
                moved += place_piece(&S, (uint32_t)ord[o].id);
            if (!moved || !over_cap(&S))
                break;
        }
        for (size_t i = 0; i < t->nb; i++) {
            uint32_t q = u->unit[i];
            unsigned s = stage_of(&S, u->color[q], t->b[i].level - t->b[u->root_block[q]].level);
            if (s >= N) {
                rc = lpm_err_set(err, LPM_EINPUT, "the split mapping needs more than %u stages", N);
                break;
            }
            t->b[i].stage = (uint8_t)s;
        }
    }
    free(words);
    free(ord);
    free(S.end);
    free(S.load);
    free(S.prof);
    free(S.cand);
    return rc;
}
