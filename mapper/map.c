/* lpm_map_build: trie -> colored/placed blocks -> pipeline image. */
#include "map.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "color.h"
#include "image_int.h"
#include "map_int.h"
#include "mtree.h"

void lpm_map_opts_default(lpm_map_opts *o)
{
    memset(o, 0, sizeof *o);
    o->kind = LPM_MAP_RING;
    o->stages = 24;
    o->x = 8;
    o->stride = 1;
    o->headroom_pct = 10;
}

void lpm_map_opts_family(lpm_map_opts *o, int family, int linear, unsigned given)
{
    if (family != LPM_AF_INET6)
        return;
    if (!(given & LPM_MAPSET_KIND))
        o->kind = linear ? LPM_MAP_LINEAR_SPLIT : LPM_MAP_RING_SPLIT;
    if (o->kind != LPM_MAP_RING_SPLIT && o->kind != LPM_MAP_LINEAR_SPLIT)
        return;
    if (!(given & LPM_MAPSET_X))
        o->x = LPM_SPLIT_V6_X;
    if (!(given & LPM_MAPSET_STRIDE))
        o->stride = LPM_SPLIT_V6_STRIDE;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Stage of every block; ring: unit color + relative level mod N. */
static int place_stages(lpm_mtree *t, const lpm_map_opts *o, unsigned N, lpm_units *u, lpm_err *err)
{
    int kind = o->kind;
    if (kind == LPM_MAP_RING_SPLIT || kind == LPM_MAP_LINEAR_SPLIT)
        return lpm_split_place(t, N, o->split ? o->split : LPM_SPLIT_DEFAULT_H, kind == LPM_MAP_RING_SPLIT, u, err);
    if (kind == LPM_MAP_RING || kind == LPM_MAP_RING_ADAPT) {
        unsigned split = kind == LPM_MAP_RING_ADAPT ? (o->split ? o->split : N) : 0;
        int rc = lpm_units_make(t, split, u, err);
        if (rc)
            return rc;
        uint64_t *load = calloc(N, sizeof *load);
        if (!load)
            return lpm_err_set(err, LPM_EFAIL, "out of memory");
        lpm_color_in in = { u->n, u->off, u->height, u->cnt };
        rc = lpm_color_minmax(&in, N, u->color, load, err);
        free(load);
        if (rc)
            return rc;
        for (size_t i = 0; i < t->nb; i++) {
            size_t un = u->unit[i];
            unsigned rel = t->b[i].level - t->b[u->root_block[un]].level;
            t->b[i].stage = (uint8_t)((u->color[un] + rel) % N);
        }
        return LPM_OK;
    }
    int rc = lpm_units_make(t, 0, u, err); /* for the report's subtree figures */
    if (rc)
        return rc;
    for (size_t i = 0; i < t->nb; i++) {
        lpm_mt_block *b = &t->b[i];
        unsigned s = kind == LPM_MAP_HEIGHT ? N - 1 - b->height : b->level;
        if (s >= N)
            return lpm_err_set(err, LPM_EINPUT, "the trie needs more than %u stages", N);
        b->stage = (uint8_t)s;
    }
    return LPM_OK;
}

static unsigned max_height(const lpm_mtree *t)
{
    unsigned h = 0;
    for (size_t i = 0; i < t->nb; i++)
        if (t->b[i].height > h)
            h = t->b[i].height;
    return h;
}

/* Words at depth 0 of the same block structure in one memory. */
static void unpiped(const lpm_fib *f, const lpm_image *img, const uint64_t prof[129], unsigned K,
                    uint64_t *words, uint64_t *bits)
{
    uint64_t w = 1; /* the /0 slot */
    unsigned maxlen = 0;
    for (size_t i = 0; i < f->n; i++)
        if (f->routes[i].pfx.len > maxlen)
            maxlen = f->routes[i].pfx.len;
    for (unsigned d = 0; d < maxlen; d += K)
        w += prof[d] << K;
    *words = w;
    *bits = w * (2 + img->fmt.nh_bits + lpm_ceil_log2(w));
}

struct lpm_maptree {
    lpm_mtree t;
    const lpm_fib *f;
    int balanced;
    unsigned x, K, stages, maxlen;
    uint64_t prof[129];
    int have_prof;
    double secs;
};

static int check_opts(const lpm_map_opts *o, unsigned key_bits, lpm_err *err)
{
    int kind = o->kind, ring = lpm_map_kind_is_ring(kind);
    if (kind < LPM_MAP_RING || kind > LPM_MAP_LINEAR_SPLIT)
        return lpm_err_set(err, LPM_EINPUT, "unknown mapping kind %d", kind);
    if (o->x > LPM_IMAGE_MAX_X || o->x >= key_bits)
        return lpm_err_set(err, LPM_EINPUT, "initial stride %u is not in 0..%d", o->x, LPM_IMAGE_MAX_X);
    if (o->stride < 1 || o->stride > LPM_IMAGE_MAX_STRIDE)
        return lpm_err_set(err, LPM_EINPUT, "stride %u is not in 1..%d", o->stride, LPM_IMAGE_MAX_STRIDE);
    if (o->stages > LPM_IMAGE_MAX_STAGES || (ring && o->stages < 1))
        return lpm_err_set(err, LPM_EINPUT, "stage count %u is not in 1..%d", o->stages, LPM_IMAGE_MAX_STAGES);
    if (o->copies > 2)
        return lpm_err_set(err, LPM_EINPUT, "%u copies: an image has one, or two with a shadow copy", o->copies);
    return LPM_OK;
}

int lpm_maptree_new(lpm_maptree **out, const lpm_fib *f, const lpm_map_opts *o, lpm_err *err)
{
    double t0 = now();
    *out = NULL;
    int family = f->family ? f->family : LPM_AF_INET;
    unsigned key_bits = lpm_family_bits(family);
    int rc = check_opts(o, key_bits, err);
    if (rc)
        return rc;
    lpm_maptree *m = calloc(1, sizeof *m);
    if (!m)
        return lpm_err_set(err, LPM_EFAIL, "out of memory");
    m->f = f;
    m->x = o->x;
    m->K = o->stride;
    m->balanced = o->kind == LPM_MAP_BALANCED;
    for (size_t i = 0; i < f->n; i++)
        if (f->routes[i].pfx.len > m->maxlen)
            m->maxlen = f->routes[i].pfx.len;
    /* Strides per block level: uniform K (ring, level and height share
     * the blocks), or the balanced choice. */
    uint8_t sd[LPM_MT_MAX_LEVELS];
    unsigned nlev;
    if (m->balanced && o->strides) {
        if (o->nstrides < 1 || o->nstrides > LPM_MT_MAX_LEVELS || o->nstrides > LPM_IMAGE_MAX_STAGES)
            rc = lpm_err_set(err, LPM_EINPUT, "%u given strides", o->nstrides);
        nlev = o->nstrides;
        for (unsigned i = 0; !rc && i < nlev; i++)
            sd[i] = o->strides[i];
        m->stages = nlev;
    } else if (m->balanced) {
        lpm_depth_profile(f, m->prof); /* n x maxlen: only when needed */
        m->have_prof = 1;
        unsigned span = m->maxlen > o->x ? m->maxlen - o->x : 1;
        m->stages = o->stages ? o->stages : (span + m->K - 1) / m->K;
        rc = lpm_strides_balanced(m->prof, o->x, m->maxlen, m->stages, sd, &nlev, err);
    } else {
        nlev = (key_bits - o->x + m->K - 1) / m->K;
        for (unsigned i = 0; i < nlev; i++)
            sd[i] = (uint8_t)m->K;
    }
    if (!rc)
        rc = lpm_mtree_init(&m->t, o->x, key_bits, sd, nlev, err);
    if (!rc)
        rc = lpm_mtree_build(&m->t, f, err);
    if (rc) {
        lpm_maptree_free(m);
        return rc;
    }
    m->secs = now() - t0;
    *out = m;
    return LPM_OK;
}

void lpm_maptree_free(lpm_maptree *m)
{
    if (!m)
        return;
    lpm_mtree_free(&m->t);
    free(m);
}

int lpm_map_build(lpm_image **out, const lpm_fib *f, const lpm_map_opts *o,
                  lpm_map_report *rep, lpm_err *err)
{
    lpm_maptree *m;
    *out = NULL;
    int rc = lpm_maptree_new(&m, f, o, err);
    if (rc)
        return rc;
    rc = lpm_maptree_image(m, o, out, rep, err);
    lpm_maptree_free(m);
    return rc;
}

/* The stage count of a linear mapping: what its blocks need (at most
 * --stages); a ring has the N it was given. */
static int linear_stages(const lpm_mtree *t, const lpm_map_opts *o, unsigned *N, lpm_err *err)
{
    int kind = o->kind;
    unsigned need = t->nb ? (kind == LPM_MAP_HEIGHT ? max_height(t) + 1 : 0) : 1;
    if (kind != LPM_MAP_HEIGHT)
        for (size_t i = 0; i < t->nb; i++)
            if (t->b[i].level + 1u > need)
                need = t->b[i].level + 1u;
    if (need < 1)
        need = 1;
    if (!*N || (kind == LPM_MAP_BALANCED && !o->strides))
        *N = need; /* balanced: the stages its strides use (at most --stages) */
    /* split: stages beyond the trie's height are what it balances with */
    if (!o->stages && kind == LPM_MAP_LINEAR_SPLIT && *N < LPM_SPLIT_LINEAR_STAGES)
        *N = LPM_SPLIT_LINEAR_STAGES;
    if (*N < need)
        return lpm_err_set(err, LPM_EINPUT, "the %s mapping of this table needs %u stages; --stages %u is too few",
                           lpm_map_kind_name(kind), need, *N);
    if (*N > LPM_IMAGE_MAX_STAGES)
        return lpm_err_set(err, LPM_EINPUT, "the table needs %u stages, more than %d", *N, LPM_IMAGE_MAX_STAGES);
    return LPM_OK;
}

/* Per-stage strides and words: addresses in unit order, blocks in creation
 * order (used), and each stage's depth with its head room. */
static int stage_layout(lpm_maptree *m, const lpm_map_opts *o, unsigned N, uint8_t stride[], uint32_t depth[],
                        uint64_t used[], lpm_err *err)
{
    lpm_mtree *t = &m->t;
    int kind = o->kind;
    for (unsigned s = 0; s < N; s++) {
        used[s] = 0;
        stride[s] = (uint8_t)(kind == LPM_MAP_BALANCED ? (s < t->nlev ? t->sd[s] : 1)
                                                        : (kind == LPM_MAP_LEVEL ? t->sd[0] : m->K));
    }
    for (size_t i = 0; i < t->nb; i++) {
        lpm_mt_block *b = &t->b[i];
        b->addr = (uint32_t)used[b->stage];
        used[b->stage] += 1ULL << b->k;
    }
    /* Head room: PCT % of the larger of the stage's own words and the mean
     * over the stages. Updates add blocks to every stage of a new chain, so
     * a small stage (the deep levels of a linear pipeline) needs about as
     * many free blocks as a big one; a share of its own size alone ran out
     * first there (docs/results-mapping.md, "Updates"). */
    uint64_t total = 0;
    for (unsigned s = 0; s < N; s++)
        total += used[s];
    uint64_t mean = (total + N - 1) / N;
    for (unsigned s = 0; s < N; s++) {
        uint64_t blk = 1ULL << stride[s];
        uint64_t room = ((used[s] > mean ? used[s] : mean) * o->headroom_pct + 99) / 100;
        if (room < 4 * blk)
            room = 4 * blk;
        room = (room + blk - 1) / blk * blk;
        uint64_t d = used[s] + room;
        if (d > (1ULL << LPM_IMAGE_MAX_ADDR_BITS))
            return lpm_err_set(err, LPM_EINPUT, "stage %u needs %llu words, more than 2^%d", s,
                               (unsigned long long)d, LPM_IMAGE_MAX_ADDR_BITS);
        depth[s] = (uint32_t)d;
    }
    return LPM_OK;
}

/* The node word's field widths for this table and layout. */
static int word_format(const lpm_fib *f, const lpm_map_opts *o, unsigned N, const uint8_t stride[],
                       const uint32_t depth[], unsigned copies, lpm_word_fmt *fmt, lpm_err *err)
{
    int kind = o->kind;
    size_t nh_n = f->nh.n > 2 ? f->nh.n : 2;
    fmt->nh_bits = o->nh_bits ? o->nh_bits : lpm_ceil_log2(nh_n) + 1;
    if (fmt->nh_bits > LPM_IMAGE_MAX_NH_BITS || (1ULL << fmt->nh_bits) < f->nh.n)
        return lpm_err_set(err, LPM_EINPUT, "%zu next hops do not fit %u-bit indexes", f->nh.n, fmt->nh_bits);
    /* child pointers are block indexes (depth is whole blocks); copy c of
     * stage s starts at block c*(depth[s] >> stride[s]) */
    fmt->addr_bits = 1;
    for (unsigned s = 0; s < N; s++) {
        unsigned b = lpm_ceil_log2((uint64_t)copies * (depth[s] >> stride[s]));
        if (b > fmt->addr_bits)
            fmt->addr_bits = b;
    }
    fmt->stage_bits = (kind == LPM_MAP_RING_ADAPT || kind == LPM_MAP_HEIGHT || kind == LPM_MAP_RING_SPLIT ||
                       kind == LPM_MAP_LINEAR_SPLIT) ? (lpm_ceil_log2(N) ? lpm_ceil_log2(N) : 1) : 0;
    return LPM_OK;
}

/* The header fields beside the memories: how it was mapped, the words each
 * stage uses, the next-hop names and the routes (for updates). */
static int image_meta(lpm_image *img, const lpm_fib *f, const lpm_map_opts *o, unsigned K, const uint64_t used[],
                      lpm_err *err)
{
    int kind = o->kind;
    unsigned N = img->stages;
    img->map_kind = (unsigned)kind;
    img->stride_k = kind == LPM_MAP_BALANCED ? 0 : K;
    img->headroom_pct = o->headroom_pct > 255 ? 255 : o->headroom_pct;
    img->split = kind == LPM_MAP_RING_ADAPT ? (o->split ? o->split : N)
                 : (kind == LPM_MAP_RING_SPLIT || kind == LPM_MAP_LINEAR_SPLIT) ? (o->split ? o->split : LPM_SPLIT_DEFAULT_H) : 0;
    for (unsigned s = 0; s < N; s++)
        img->used[s] = (uint32_t)used[s];
    for (size_t i = 0; i < f->nh.n; i++)
        if (lpm_nhtab_intern(&img->nh, f->nh.name[i], strlen(f->nh.name[i])) != i)
            return lpm_err_set(err, LPM_EFAIL, "out of memory (next hops)");
    if (f->n) {
        img->routes = malloc(f->n * sizeof *img->routes);
        if (!img->routes)
            return lpm_err_set(err, LPM_EFAIL, "out of memory (routes)");
        memcpy(img->routes, f->routes, f->n * sizeof *img->routes);
        img->nroutes = f->n;
    }
    return LPM_OK;
}

/* The DIT and every block's words; a ring's loop counts (how often a
 * chain wraps past stage N-1 before a block) for the report. */
static int encode(lpm_image *img, const lpm_mtree *t, unsigned x, size_t *max_loops, size_t *after_wrap,
                  lpm_err *err)
{
    int ring = img->ring;
    unsigned N = img->stages;
    *max_loops = *after_wrap = 0;
    uint8_t *loops = calloc(t->nb + 1, 1);
    if (!loops)
        return lpm_err_set(err, LPM_EFAIL, "out of memory");
    for (uint64_t i = 0; i < (1ULL << x); i++) {
        const lpm_mt_entry *e = &t->dit[i];
        lpm_node_word w = { e->child != 0, e->plen != 0, 0, e->nh, 0, 0 };
        if (e->child) {
            w.addr = t->b[e->child - 1].addr;
            w.stage = t->b[e->child - 1].stage;
        }
        img->dit[i] = lpm_image_dit_encode(img, &w);
    }
    for (size_t i = 0; i < t->nb; i++) {
        const lpm_mt_block *b = &t->b[i];
        if (b->parent) {
            const lpm_mt_block *p = &t->b[b->parent - 1];
            unsigned l = loops[b->parent - 1] + (ring && b->stage <= p->stage);
            loops[i] = (uint8_t)(l > 255 ? 255 : l);
            if (loops[i] > *max_loops)
                *max_loops = loops[i];
            *after_wrap += loops[i] > 0;
        }
        for (size_t j = 0; j < ((size_t)1 << b->k); j++) {
            const lpm_mt_entry *e = &t->e[b->first + j];
            lpm_node_word w = { e->child != 0, e->plen != 0, 0, e->nh, 0, 0 };
            if (e->child) {
                const lpm_mt_block *c = &t->b[e->child - 1];
                unsigned natural = ring ? (b->stage + 1u) % N : b->stage + 1u;
                w.addr = c->addr;
                if (c->stage != natural) {
                    w.jump = 1;
                    w.stage = c->stage;
                }
            }
            img->mem[b->stage][b->addr + j] = lpm_image_word_encode(img, b->stage, &w);
        }
    }
    free(loops);
    return LPM_OK;
}

/* The mapping report: the image's figures, the subtrees' heights, the
 * loops, and the overhead against the same blocks in one memory. */
static void fill_report(lpm_map_report *rep, const lpm_maptree *m, const lpm_map_opts *o, const lpm_image *img,
                        const lpm_units *u, size_t max_loops, size_t after_wrap)
{
    const lpm_fib *f = m->f;
    memset(rep, 0, sizeof *rep);
    lpm_map_report_image(img, rep);
    rep->routes = f->n;
    rep->subtrees = u->n;
    rep->height_min = u->n ? UINT32_MAX : 0;
    double hs = 0;
    for (size_t i = 0; i < u->n; i++) {
        unsigned h = u->height[i];
        if (h < rep->height_min)
            rep->height_min = h;
        if (h > rep->height_max)
            rep->height_max = h;
        hs += h;
    }
    rep->height_mean = u->n ? hs / (double)u->n : 0;
    rep->max_loops = (unsigned)max_loops;
    rep->blocks_after_wrap = after_wrap;
    unpiped(f, img, m->prof, o->kind == LPM_MAP_BALANCED ? 1 : m->K, &rep->unpiped_words, &rep->unpiped_bits);
    uint64_t pw = rep->words_used + rep->dit_entries, pb = rep->bits_used + rep->dit_bits_total;
    rep->overhead_words_pct = 100.0 * ((double)pw - (double)rep->unpiped_words) / (double)rep->unpiped_words;
    rep->overhead_bits_pct = 100.0 * ((double)pb - (double)rep->unpiped_bits) / (double)rep->unpiped_bits;
}

/* The stages placed, the layout and word format chosen, the image
 * allocated, filled and validated; *img is left for the caller to free. */
static int build_image(lpm_maptree *m, const lpm_map_opts *o, lpm_units *u, lpm_image **img, size_t *max_loops,
                       size_t *after_wrap, lpm_err *err)
{
    int kind = o->kind, ring = lpm_map_kind_is_ring(kind);
    unsigned N = o->stages;
    int rc = ring ? LPM_OK : linear_stages(&m->t, o, &N, err);
    if (rc || (rc = place_stages(&m->t, o, N, u, err)))
        return rc;
    uint8_t stride[LPM_IMAGE_MAX_STAGES];
    uint32_t depth[LPM_IMAGE_MAX_STAGES];
    uint64_t used[LPM_IMAGE_MAX_STAGES];
    unsigned copies = o->copies == 2 ? 2 : 1;
    lpm_word_fmt fmt;
    if ((rc = stage_layout(m, o, N, stride, depth, used, err)) ||
        (rc = word_format(m->f, o, N, stride, depth, copies, &fmt, err)))
        return rc;
    int family = m->f->family ? m->f->family : LPM_AF_INET;
    if (!(*img = lpm_image_alloc(family, ring, N, o->x, &fmt, stride, depth, copies)))
        return lpm_err_set(err, LPM_EFAIL, "out of memory (image)");
    if ((rc = image_meta(*img, m->f, o, m->K, used, err)) ||
        (rc = encode(*img, &m->t, o->x, max_loops, after_wrap, err)))
        return rc;
    return lpm_image_validate(*img, err);
}

int lpm_maptree_image(lpm_maptree *m, const lpm_map_opts *o, lpm_image **out, lpm_map_report *rep, lpm_err *err)
{
    double t0 = now();
    *out = NULL;
    const lpm_fib *f = m->f;
    int family = f->family ? f->family : LPM_AF_INET;
    int rc = check_opts(o, lpm_family_bits(family), err);
    if (rc)
        return rc;
    if (o->x != m->x || o->stride != m->K || (o->kind == LPM_MAP_BALANCED) != m->balanced ||
        (m->balanced && o->stages && o->stages != m->stages))
        return lpm_err_set(err, LPM_EINPUT, "the options do not match the prepared trie");
    if (rep && !m->have_prof) {
        lpm_depth_profile(f, m->prof);
        m->have_prof = 1;
    }
    lpm_units u;
    memset(&u, 0, sizeof u);
    lpm_image *img = NULL;
    size_t max_loops = 0, after_wrap = 0;
    rc = build_image(m, o, &u, &img, &max_loops, &after_wrap, err);
    if (!rc && rep) {
        fill_report(rep, m, o, img, &u, max_loops, after_wrap);
        rep->seconds = now() - t0 + m->secs;
    }
    if (!rc) {
        *out = img;
        img = NULL;
    }
    lpm_image_free(img);
    lpm_units_free(&u);
    return rc;
}
