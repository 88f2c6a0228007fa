/* The offline half of write-bubble updates: table change -> words -> bubbles. */
#include "update.h"

#include <stdlib.h>
#include <string.h>

#include "../core/ref_lpm.h"
#include "image_int.h"
#include "map.h"

struct lpm_upd {
    lpm_image *img;
    lpm_upd_opts o;
    uint8_t *dplen;                         /* DIT: length + 1 of the prefix behind nh */
    uint8_t *plen[LPM_IMAGE_MAX_STAGES];    /* per word, the same */
    lpm_ref *ref;                           /* the current table */
    lpm_prefix *chg;                        /* prefixes changed since the route section */
    size_t nchg, capchg;
    lpm_write *w;
    size_t nw, capw;
    lpm_bubble *b;
    size_t nb, capb;
    uint64_t *bmask;                        /* per bubble: stages taken (4 x 64 bits + DIT) */
    size_t capm;
    int reason;
    double base_ratio;                      /* fullest/mean right after the last build */
    lpm_upd_stats st;
};

const char *lpm_rebuild_reason_name(int r)
{
    static const char *const n[] = { "none", "headroom", "stages", "nh-bits", "balance" };
    return r >= 0 && r <= LPM_REBUILD_BALANCE ? n[r] : "?";
}

static unsigned natural_next(const lpm_image *img, unsigned s)
{
    s++;
    return img->ring && s == img->stages ? 0 : s;
}

static double ratio(const lpm_image *img)
{
    uint64_t sum = 0, mx = 0;
    for (unsigned s = 0; s < img->stages; s++) {
        sum += img->used[s];
        if (img->used[s] > mx)
            mx = img->used[s];
    }
    return sum ? (double)mx * img->stages / (double)sum : 0;
}

/* ---- shadow: which prefix length set each word's next hop ---- */

typedef struct {
    int found;          /* 1: the block holding length L */
    unsigned stage;     /* found: the block's stage; else the parent's (or DIT) */
    uint32_t base;      /* found: block base; else the parent word (or DIT index) */
    unsigned b;         /* key bits consumed before the block (found) or below the parent */
} walk_t;

static void walk(const lpm_image *img, const lpm_addr *a, unsigned L, walk_t *r)
{
    lpm_node_word w;
    uint32_t idx = (uint32_t)lpm_addr_bits(a, 0, img->x);
    lpm_dit_decode(&img->fmt, img->dit[idx], &w);
    if (!w.child) {
        *r = (walk_t){ 0, LPM_IMAGE_DIT, idx, img->x };
        return;
    }
    unsigned s = w.stage, b = img->x;
    uint32_t base = w.addr;
    for (;;) {
        unsigned k = img->stride[s];
        if (L <= b + k) {
            *r = (walk_t){ 1, s, base, b };
            return;
        }
        uint32_t j = base + (uint32_t)lpm_addr_bits(a, b, k);
        lpm_word_decode(&img->fmt, img->mem[s][j], &w);
        if (!w.child) {
            *r = (walk_t){ 0, s, j, b + k };
            return;
        }
        s = w.jump ? w.stage : natural_next(img, s);
        base = w.addr;
        b += k;
    }
}

static void shadow_free(lpm_upd *u)
{
    free(u->dplen);
    u->dplen = NULL;
    for (unsigned s = 0; s < LPM_IMAGE_MAX_STAGES; s++) {
        free(u->plen[s]);
        u->plen[s] = NULL;
    }
}

static int shadow_build(lpm_upd *u, lpm_err *err)
{
    lpm_image *img = u->img;
    u->dplen = calloc((size_t)1 << img->x, 1);
    if (!u->dplen)
        return lpm_err_set(err, LPM_EFAIL, "out of memory");
    for (unsigned s = 0; s < img->stages; s++)
        if (!(u->plen[s] = calloc(img->depth[s], 1)))
            return lpm_err_set(err, LPM_EFAIL, "out of memory");
    for (size_t i = 0; i < img->nroutes; i++) {
        const lpm_prefix *p = &img->routes[i].pfx;
        unsigned L = p->len;
        uint8_t *pl;
        size_t first, count;
        if (L <= img->x) {
            pl = u->dplen;
            first = (size_t)lpm_addr_bits(&p->addr, 0, L) << (img->x - L);
            count = (size_t)1 << (img->x - L);
        } else {
            walk_t r;
            walk(img, &p->addr, L, &r);
            if (!r.found)
                return lpm_err_set(err, LPM_EINPUT, "route %zu (/%u) is not in the image's trie", i, L);
            unsigned k = img->stride[r.stage];
            pl = u->plen[r.stage];
            first = r.base + ((size_t)lpm_addr_bits(&p->addr, r.b, L - r.b) << (r.b + k - L));
            count = (size_t)1 << (r.b + k - L);
        }
        for (size_t j = first; j < first + count; j++)
            if (pl[j] <= L)
                pl[j] = (uint8_t)(L + 1);
    }
    return LPM_OK;
}

/* ---- writes and bubbles ---- */

/* Room for one more element in a doubling array; -1 on no memory. */
static int room(void **p, size_t n, size_t *cap, size_t elem)
{
    if (n < *cap)
        return 0;
    size_t c = *cap ? *cap * 2 : 64;
    void *q = realloc(*p, c * elem);
    if (!q)
        return -1;
    *p = q;
    *cap = c;
    return 0;
}

static int add_write(lpm_upd *u, uint32_t stage, uint32_t addr, uint64_t word)
{
    if (room((void **)&u->w, u->nw, &u->capw, sizeof *u->w))
        return -1;
    u->w[u->nw++] = (lpm_write){ stage, addr, word };
    return 0;
}

static int wcmp_bubble(const void *a, const void *b);

/* Greedy packing in write order: each write into the first bubble whose
 * stage is free. Then writes are regrouped bubble by bubble. */
static int pack(lpm_upd *u)
{
    if (u->nw <= 1) { /* the common case: one write, one bubble */
        if (!u->capb) {
            if (!(u->b = malloc(16 * sizeof *u->b)))
                return -1;
            u->capb = 16;
        }
        u->b[0] = (lpm_bubble){ 0, u->nw };
        u->nb = u->nw;
        return 0;
    }
    size_t nb = 0;
    const size_t W = 5; /* 4 x 64 stage bits + 1 word for the DIT */
    uint32_t *bi = malloc((u->nw ? u->nw : 1) * sizeof *bi);
    if (!bi)
        return -1;
    for (size_t i = 0; i < u->nw; i++) {
        uint32_t s = u->w[i].stage;
        size_t word = s == LPM_IMAGE_DIT ? 4 : s / 64;
        uint64_t bit = s == LPM_IMAGE_DIT ? 1 : 1ULL << (s % 64);
        size_t k = 0;
        while (k < nb && (u->bmask[k * W + word] & bit))
            k++;
        if (k == nb) {
            if ((nb + 1) * W > u->capm) {
                size_t c = u->capm ? u->capm * 2 : 64 * W;
                while (c < (nb + 1) * W)
                    c *= 2;
                uint64_t *q = realloc(u->bmask, c * sizeof *q);
                if (!q) {
                    free(bi);
                    return -1;
                }
                u->bmask = q;
                u->capm = c;
            }
            memset(u->bmask + nb * W, 0, W * sizeof *u->bmask);
            nb++;
        }
        u->bmask[k * W + word] |= bit;
        bi[i] = (uint32_t)k;
    }
    /* Regroup: by bubble, then stage (DIT first). */
    if (nb > u->capb) {
        lpm_bubble *q = realloc(u->b, nb * 2 * sizeof *q);
        if (!q) {
            free(bi);
            return -1;
        }
        u->b = q;
        u->capb = nb * 2;
    }
    lpm_write *sorted = malloc((u->nw ? u->nw : 1) * sizeof *sorted);
    size_t *cnt = calloc(nb + 1, sizeof *cnt);
    if (!sorted || !cnt) {
        free(bi);
        free(sorted);
        free(cnt);
        return -1;
    }
    for (size_t i = 0; i < u->nw; i++)
        cnt[bi[i] + 1]++;
    for (size_t k = 0; k < nb; k++)
        cnt[k + 1] += cnt[k];
    for (size_t k = 0; k < nb; k++)
        u->b[k] = (lpm_bubble){ cnt[k], cnt[k + 1] - cnt[k] };
    for (size_t i = 0; i < u->nw; i++)
        sorted[cnt[bi[i]]++] = u->w[i];
    for (size_t k = 0; k < nb; k++)
        qsort(sorted + u->b[k].first, u->b[k].n, sizeof *sorted, wcmp_bubble);
    memcpy(u->w, sorted, u->nw * sizeof *sorted);
    u->nb = nb;
    free(bi);
    free(sorted);
    free(cnt);
    return 0;
}

static int wcmp_bubble(const void *a, const void *b)
{
    const lpm_write *x = a, *y = b;
    uint32_t sx = x->stage == LPM_IMAGE_DIT ? 0 : x->stage + 1;
    uint32_t sy = y->stage == LPM_IMAGE_DIT ? 0 : y->stage + 1;
    return sx < sy ? -1 : sx > sy;
}

/* ---- the route set and rebuilds ---- */

static int note_change(lpm_upd *u, const lpm_prefix *p)
{
    if (room((void **)&u->chg, u->nchg, &u->capchg, sizeof *u->chg))
        return -1;
    u->chg[u->nchg++] = *p;
    return 0;
}

static int pfx_cmp(const void *a, const void *b)
{
    const lpm_prefix *x = a, *y = b;
    int c = lpm_addr_cmp(&x->addr, &y->addr);
    return c ? c : (x->len > y->len) - (x->len < y->len);
}

static int route_cmp(const void *a, const void *b)
{
    return pfx_cmp(&((const lpm_route *)a)->pfx, &((const lpm_route *)b)->pfx);
}

int lpm_upd_sync_routes(lpm_upd *u, lpm_err *err)
{
    lpm_image *img = u->img;
    if (!u->nchg)
        return LPM_OK;
    qsort(u->chg, u->nchg, sizeof *u->chg, pfx_cmp);
    size_t n = 0;
    for (size_t i = 0; i < u->nchg; i++)
        if (!n || pfx_cmp(&u->chg[n - 1], &u->chg[i]))
            u->chg[n++] = u->chg[i];
    u->nchg = n;
    lpm_route *r = malloc((img->nroutes + n + 1) * sizeof *r);
    if (!r)
        return lpm_err_set(err, LPM_EFAIL, "out of memory (routes)");
    size_t k = 0;
    for (size_t i = 0; i < img->nroutes; i++)
        if (!bsearch(&img->routes[i].pfx, u->chg, n, sizeof *u->chg, pfx_cmp))
            r[k++] = img->routes[i];
    for (size_t i = 0; i < n; i++) {
        uint32_t nh = lpm_ref_get(u->ref, &u->chg[i]);
        if (nh != LPM_NH_NONE)
            r[k++] = (lpm_route){ u->chg[i], nh };
    }
    qsort(r, k, sizeof *r, route_cmp);
    free(img->routes);
    img->routes = r;
    img->nroutes = k;
    u->nchg = 0;
    return LPM_OK;
}

static int rebuild(lpm_upd *u, int reason, lpm_err *err)
{
    int rc = lpm_upd_sync_routes(u, err);
    if (rc)
        return rc;
    lpm_image *old = u->img;
    lpm_fib f;
    lpm_fib_init(&f);
    f.family = old->family;
    f.routes = old->routes; /* borrowed: the FIB is only read */
    f.n = f.cap = old->nroutes;
    f.nh = old->nh;
    lpm_map_opts o;
    lpm_map_opts_default(&o);
    o.kind = (int)old->map_kind;
    o.stages = old->stages;
    o.x = old->x;
    o.stride = old->stride_k ? old->stride_k : 1;
    o.headroom_pct = old->headroom_pct;
    o.split = old->split;
    lpm_image *img;
    rc = lpm_map_build(&img, &f, &o, NULL, err);
    if (rc == LPM_EINPUT && !old->ring) {
        o.stages = 0; /* a linear pipeline may need another stage count */
        rc = lpm_map_build(&img, &f, &o, NULL, err);
    }
    if (rc)
        return rc;
    shadow_free(u);
    u->img = img;
    lpm_image_free(old);
    if ((rc = shadow_build(u, err)))
        return rc;
    u->base_ratio = ratio(img);
    u->reason = reason;
    u->nw = u->nb = 0;
    u->st.rebuilds++;
    u->st.rebuild_why[reason]++;
    return LPM_OK;
}

int lpm_upd_new(lpm_upd **out, const lpm_image *img, const lpm_upd_opts *o, lpm_err *err)
{
    lpm_upd *u = calloc(1, sizeof *u);
    if (!u)
        return lpm_err_set(err, LPM_EFAIL, "out of memory");
    if (o)
        u->o = *o;
    int rc = LPM_OK;
    if (!(u->img = lpm_image_clone(img)) || !(u->ref = lpm_ref_new(img->family))) {
        rc = lpm_err_set(err, LPM_EFAIL, "out of memory");
        goto fail;
    }
    for (size_t i = 0; i < img->nroutes; i++)
        if (lpm_ref_add(u->ref, &img->routes[i].pfx, img->routes[i].nh)) {
            rc = lpm_err_set(err, LPM_EFAIL, "out of memory");
            goto fail;
        }
    if ((rc = shadow_build(u, err)))
        goto fail;
    u->base_ratio = ratio(u->img);
    *out = u;
    return LPM_OK;
fail:
    lpm_upd_free(u);
    return rc;
}

void lpm_upd_free(lpm_upd *u)
{
    if (!u)
        return;
    shadow_free(u);
    lpm_image_free(u->img);
    lpm_ref_free(u->ref);
    free(u->chg);
    free(u->w);
    free(u->b);
    free(u->bmask);
    free(u);
}

/* ---- one update ---- */

/* The longest route covering p with length in (lo, p->len): its length + 1
 * (0: none) and next hop. */
static unsigned fallback(const lpm_upd *u, const lpm_prefix *p, int lo, uint32_t *nh)
{
    for (int l = (int)p->len - 1; l > lo; l--) {
        lpm_prefix q = { lpm_addr_mask(&p->addr, (unsigned)l), (uint8_t)l, p->family };
        uint32_t v = lpm_ref_get(u->ref, &q);
        if (v != LPM_NH_NONE) {
            *nh = v;
            return (unsigned)l + 1;
        }
    }
    *nh = LPM_NH_NONE;
    return 0;
}

/* Rewrites the entries [first, first+count) of a block (or the DIT) that
 * p decides: announce sets them, withdraw hands them to the fallback. */
static int rewrite_entries(lpm_upd *u, uint32_t stage, size_t first, size_t count, char op,
                           const lpm_prefix *p, uint32_t nh, int lo)
{
    lpm_image *img = u->img;
    int dit = stage == LPM_IMAGE_DIT;
    uint8_t *pl = dit ? u->dplen : u->plen[stage];
    uint64_t *mem = dit ? img->dit : img->mem[stage];
    unsigned L = p->len;
    uint32_t fnh = LPM_NH_NONE;
    unsigned fl = op == 'w' ? fallback(u, p, lo, &fnh) : 0;
    for (size_t j = first; j < first + count; j++) {
        unsigned newl;
        uint32_t newnh;
        if (op == 'a') {
            if (pl[j] > L + 1)
                continue;
            newl = L + 1;
            newnh = nh;
        } else {
            if (pl[j] != L + 1)
                continue;
            newl = fl;
            newnh = fnh;
        }
        pl[j] = (uint8_t)newl;
        lpm_node_word w;
        if (dit)
            lpm_dit_decode(&img->fmt, mem[j], &w);
        else
            lpm_word_decode(&img->fmt, mem[j], &w);
        w.valid = newl != 0;
        w.nh = newl ? newnh : 0;
        uint64_t nw = dit ? lpm_dit_encode(&img->fmt, &w) : lpm_word_encode(&img->fmt, &w);
        if (nw != mem[j] && add_write(u, stage, (uint32_t)j, nw))
            return -1;
    }
    return 0;
}

/* A new chain of blocks under the parent in r (a word with no child, or a
 * DIT entry), ending in the block that holds p. Returns a rebuild reason
 * when the image has no room, 0 when done, -1 on no memory. */
static int new_chain(lpm_upd *u, const walk_t *r, const lpm_prefix *p, uint32_t nh)
{
    lpm_image *img = u->img;
    unsigned N = img->stages, L = p->len;
    unsigned st[130];
    unsigned nblk = 0, b = r->b;
    unsigned s;
    /* Plan: stages and depths, checking room before touching anything. */
    if (r->stage == LPM_IMAGE_DIT) {
        if (lpm_map_kind_is_ring((int)img->map_kind)) {
            unsigned h = 0;
            for (unsigned d = b; d < L; d += img->stride_k ? img->stride_k : 1)
                h++;
            uint64_t bestv = UINT64_MAX;
            s = 0;
            for (unsigned c = 0; c < N; c++) {
                uint64_t m = 0;
                for (unsigned j = 0; j < h && j < N; j++) {
                    unsigned t = (c + j) % N;
                    uint64_t v = (uint64_t)img->used[t] + (1ULL << img->stride[t]);
                    if (v > m)
                        m = v;
                }
                if (m < bestv) {
                    bestv = m;
                    s = c;
                }
            }
        } else if (img->map_kind == LPM_MAP_HEIGHT) {
            unsigned h = 0;
            for (unsigned d = b; d < L; d += img->stride[0])
                h++;
            if (h > N)
                return LPM_REBUILD_STAGES;
            s = N - h;
        } else {
            s = 0;
        }
    } else {
        if (!img->ring && r->stage + 1 >= N)
            return LPM_REBUILD_STAGES;
        s = natural_next(img, r->stage);
    }
    uint32_t need[LPM_IMAGE_MAX_STAGES] = { 0 };
    for (;;) {
        unsigned k = img->stride[s];
        st[nblk++] = s;
        need[s] += 1u << k;
        if ((uint64_t)img->used[s] + need[s] > img->depth[s])
            return LPM_REBUILD_HEADROOM;
        if (L <= b + k)
            break;
        b += k;
        if (!img->ring && s + 1 >= N)
            return LPM_REBUILD_STAGES;
        s = natural_next(img, s);
    }
    /* Allocate and write, deepest block first. */
    uint32_t addr[130];
    for (unsigned i = 0; i < nblk; i++) {
        addr[i] = img->used[st[i]];
        img->used[st[i]] += 1u << img->stride[st[i]];
        u->st.blocks_added++;
    }
    b = r->b;
    unsigned depth_of[130];
    for (unsigned i = 0; i < nblk; i++) {
        depth_of[i] = b;
        b += img->stride[st[i]];
    }
    for (unsigned i = nblk; i-- > 0;) {
        unsigned k = img->stride[st[i]], d = depth_of[i];
        if (i == nblk - 1) {
            size_t first = addr[i] + ((size_t)lpm_addr_bits(&p->addr, d, L - d) << (d + k - L));
            size_t count = (size_t)1 << (d + k - L);
            lpm_node_word w = { 0, 1, 0, nh, 0, 0 };
            uint64_t v = lpm_word_encode(&img->fmt, &w);
            for (size_t j = first; j < first + count; j++) {
                u->plen[st[i]][j] = (uint8_t)(L + 1);
                img->mem[st[i]][j] = v;
                if (add_write(u, st[i], (uint32_t)j, v))
                    return -1;
            }
        } else {
            uint32_t j = addr[i] + (uint32_t)lpm_addr_bits(&p->addr, d, k);
            lpm_node_word w = { 1, 0, 0, 0, addr[i + 1], 0 };
            uint64_t v = lpm_word_encode(&img->fmt, &w);
            img->mem[st[i]][j] = v;
            if (add_write(u, st[i], j, v))
                return -1;
        }
    }
    /* The commit: the parent now points at the chain. */
    lpm_node_word w;
    uint64_t v;
    if (r->stage == LPM_IMAGE_DIT) {
        lpm_dit_decode(&img->fmt, img->dit[r->base], &w);
        w.child = 1;
        w.addr = addr[0];
        w.stage = st[0];
        v = lpm_dit_encode(&img->fmt, &w);
        img->dit[r->base] = v;
    } else {
        lpm_word_decode(&img->fmt, img->mem[r->stage][r->base], &w);
        w.child = 1;
        w.addr = addr[0];
        w.jump = 0;
        v = lpm_word_encode(&img->fmt, &w);
        img->mem[r->stage][r->base] = v;
    }
    return add_write(u, r->stage, r->base, v) ? -1 : 0;
}

/* Applies the writes already made in img (entries rewritten in place) or
 * made by rewrite_entries (recorded, not yet applied). */
static void apply_recorded(lpm_upd *u, size_t from)
{
    for (size_t i = from; i < u->nw; i++) {
        const lpm_write *w = &u->w[i];
        if (w->stage == LPM_IMAGE_DIT)
            u->img->dit[w->addr] = w->word;
        else
            u->img->mem[w->stage][w->addr] = w->word;
    }
}

int lpm_upd_apply(lpm_upd *u, char op, const lpm_prefix *p, const char *nhtok, int *rebuilt, lpm_err *err)
{
    lpm_image *img = u->img;
    u->nw = u->nb = 0;
    u->reason = 0;
    if (rebuilt)
        *rebuilt = 0;
    if (p->family != img->family)
        return lpm_err_set(err, LPM_EINPUT, "IPv%d update for an IPv%d image", p->family, img->family);
    if (op != 'a' && op != 'w')
        return lpm_err_set(err, LPM_EINPUT, "update operation '%c' is neither a nor w", op);
    u->st.updates++;
    uint32_t nh = LPM_NH_NONE;
    if (op == 'a') {
        u->st.announces++;
        if (!nhtok || !*nhtok)
            return lpm_err_set(err, LPM_EINPUT, "an announce needs a next hop");
        nh = lpm_nhtab_intern(&img->nh, nhtok, strlen(nhtok));
        if (nh == LPM_NH_NONE)
            return lpm_err_set(err, LPM_EFAIL, "out of memory");
        if (lpm_ref_get(u->ref, p) == nh) {
            u->st.noops++;
            return LPM_OK;
        }
        if (lpm_ref_add(u->ref, p, nh))
            return lpm_err_set(err, LPM_EFAIL, "out of memory");
    } else {
        u->st.withdraws++;
        if (!lpm_ref_del(u->ref, p)) {
            u->st.noops++;
            return LPM_OK;
        }
    }
    if (note_change(u, p))
        return lpm_err_set(err, LPM_EFAIL, "out of memory");
    int reason = 0;
    if (nh != LPM_NH_NONE && nh >= (1u << img->fmt.nh_bits))
        reason = LPM_REBUILD_NH_BITS;
    else if (p->len <= img->x) {
        size_t first = (size_t)lpm_addr_bits(&p->addr, 0, p->len) << (img->x - p->len);
        if (rewrite_entries(u, LPM_IMAGE_DIT, first, (size_t)1 << (img->x - p->len), op, p, nh, -1))
            return lpm_err_set(err, LPM_EFAIL, "out of memory");
        apply_recorded(u, 0);
    } else {
        walk_t r;
        walk(img, &p->addr, p->len, &r);
        if (r.found) {
            unsigned k = img->stride[r.stage], L = p->len;
            size_t first = r.base + ((size_t)lpm_addr_bits(&p->addr, r.b, L - r.b) << (r.b + k - L));
            if (rewrite_entries(u, r.stage, first, (size_t)1 << (r.b + k - L), op, p, nh, (int)r.b))
                return lpm_err_set(err, LPM_EFAIL, "out of memory");
            apply_recorded(u, 0);
        } else if (op == 'a') {
            int c = new_chain(u, &r, p, nh);
            if (c < 0)
                return lpm_err_set(err, LPM_EFAIL, "out of memory");
            reason = c;
        }
        /* A withdraw whose block is missing cannot happen: the route was there. */
    }
    if (!reason && u->o.rebalance_at > 0 && u->base_ratio > 0 && ratio(img) > u->o.rebalance_at * u->base_ratio)
        reason = LPM_REBUILD_BALANCE;
    if (reason) {
        int rc = rebuild(u, reason, err);
        if (rc)
            return rc;
        if (rebuilt)
            *rebuilt = 1;
        return LPM_OK;
    }
    if (pack(u))
        return lpm_err_set(err, LPM_EFAIL, "out of memory");
    u->st.writes += u->nw;
    u->st.bubbles += u->nb;
    if (u->nw > u->st.max_writes)
        u->st.max_writes = u->nw;
    if (u->nb > u->st.max_bubbles)
        u->st.max_bubbles = u->nb;
    for (size_t i = 0; i < u->nw; i++) {
        if (u->w[i].stage == LPM_IMAGE_DIT)
            u->st.dit_writes++;
        else
            u->st.stage_writes[u->w[i].stage]++;
    }
    return LPM_OK;
}

void lpm_upd_last(const lpm_upd *u, const lpm_write **w, size_t *nw, const lpm_bubble **b, size_t *nb)
{
    *w = u->w;
    *nw = u->nw;
    *b = u->b;
    *nb = u->nb;
}

int lpm_upd_last_reason(const lpm_upd *u) { return u->reason; }
const lpm_image *lpm_upd_image(const lpm_upd *u) { return u->img; }
const lpm_upd_stats *lpm_upd_get_stats(const lpm_upd *u) { return &u->st; }
