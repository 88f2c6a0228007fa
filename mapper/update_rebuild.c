/* Rebuilds: the whole table mapped again on the same hardware (stages,
 * strides, word format, memory depths) and, with a shadow copy, written
 * into the inactive copy by bubbles that end in one swap bubble
 * (docs/microarchitecture.md, "Rebuilds and the swap"). */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "map.h"
#include "update_int.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int note_cmp(const void *a, const void *b)
{
    const lpm_prefix *x = a, *y = b;
    int c = lpm_addr_cmp(&x->addr, &y->addr);
    return c ? c : (x->len > y->len) - (x->len < y->len);
}

static int route_cmp(const void *a, const void *b)
{
    return note_cmp(&((const lpm_route *)a)->pfx, &((const lpm_route *)b)->pfx);
}

int lpm_upd_sync_routes(lpm_upd *u, lpm_err *err)
{
    lpm_image *img = u->img;
    if (!u->nchg)
        return LPM_OK;
    qsort(u->chg, u->nchg, sizeof *u->chg, note_cmp);
    size_t n = 0;
    for (size_t i = 0; i < u->nchg; i++)
        if (!n || note_cmp(&u->chg[n - 1], &u->chg[i]))
            u->chg[n++] = u->chg[i];
    u->nchg = n;
    lpm_route *r = malloc((img->nroutes + n + 1) * sizeof *r);
    if (!r)
        return lpm_err_set(err, LPM_EFAIL, "out of memory (routes)");
    size_t k = 0;
    for (size_t i = 0; i < img->nroutes; i++)
        if (!bsearch(&img->routes[i].pfx, u->chg, n, sizeof *u->chg, note_cmp))
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

/* A ring mapping turned by r stages is as good a mapping (every chain
 * stays consecutive modulo N): the turn whose stages fit the memories best
 * (the least words over a stage's depth, then the least turn). */
static unsigned best_turn(const lpm_image *old, const lpm_image *nw)
{
    unsigned N = old->stages, best = 0;
    int64_t best_over = INT64_MAX;
    for (unsigned r = 0; r < (old->ring ? N : 1); r++) {
        int64_t over = INT64_MIN;
        for (unsigned s = 0; s < N; s++) {
            int64_t o = (int64_t)nw->used[(s + N - r) % N] - (int64_t)old->depth[s];
            over = o > over ? o : over;
        }
        if (over < best_over || (over <= 0 && best_over > 0)) {
            best_over = over;
            best = r;
        }
        if (best_over <= 0 && r == 0)
            break;
    }
    return best;
}

/* The table mapped with the image's own options onto its own hardware;
 * *turn: the ring turn that fits it (stage s of the new mapping goes to
 * stage s + turn). */
static int remap(const lpm_image *old, lpm_image **out, unsigned *turn, int *nofit, lpm_err *err)
{
    *nofit = 1;
    lpm_fib f;
    lpm_fib_init(&f);
    f.family = old->family;
    f.routes = old->routes; /* borrowed: the FIB is only read */
    f.n = f.cap = old->nroutes;
    f.nh = old->nh;         /* the same next-hop indexes */
    lpm_map_opts o;
    lpm_map_opts_default(&o);
    o.kind = (int)old->map_kind;
    o.stages = old->stages;
    o.x = old->x;
    o.stride = old->stride_k ? old->stride_k : 1;
    o.headroom_pct = old->headroom_pct;
    o.split = old->split;
    o.nh_bits = old->fmt.nh_bits;
    if (old->map_kind == LPM_MAP_BALANCED) {
        o.strides = old->stride;
        o.nstrides = old->stages;
    }
    lpm_err e;
    int rc = lpm_map_build(out, &f, &o, NULL, &e);
    if (rc)
        return lpm_err_set(err, LPM_EFAIL, "the table no longer fits this pipeline: %s; map it again", e.msg);
    *nofit = 0;
    *turn = (*out)->stages == old->stages ? best_turn(old, *out) : 0;
    unsigned N = old->stages;
    for (unsigned s = 0; s < N; s++) {
        unsigned sn = (s + N - *turn) % N;
        if ((*out)->stride[sn] != old->stride[s] || (*out)->stages != old->stages)
            rc = lpm_err_set(err, LPM_EFAIL, "internal error: the rebuild changed stage %u's stride", s);
        else if ((*out)->used[sn] > old->depth[s] && (*nofit = 1))
            rc = lpm_err_set(err, LPM_EFAIL,
                             "the table no longer fits this pipeline: stage %u needs %u words, a copy holds %u; "
                             "map it again with more --headroom",
                             s, (*out)->used[sn], old->depth[s]);
        if (rc) {
            if (*nofit)
                return rc; /* *out kept: a reload without a shadow copy may take it */
            lpm_image_free(*out);
            *out = NULL;
            return rc;
        }
    }
    return LPM_OK;
}

/* A word (or DIT entry) of the new image's stage sn in the old format,
 * turned by r stages, its child address moved into copy c. */
static uint64_t moved(const lpm_image *old, const lpm_image *nw, uint64_t w, int dit, unsigned sn, unsigned r,
                      unsigned c)
{
    lpm_node_word d;
    if (dit)
        lpm_image_dit_decode(nw, w, &d);
    else
        lpm_image_word_decode(nw, sn, w, &d);
    if (d.child) {
        unsigned t = (dit || d.jump ? d.stage : lpm_upd_next_stage(old, sn)) + r;
        t = t >= old->stages ? t - old->stages : t;
        if (dit || d.jump)
            d.stage = t;
        d.addr += lpm_copy_base(old, t, c);
    }
    unsigned so = (sn + r) % old->stages; /* the stage the word lives in, in old */
    return dit ? lpm_image_dit_encode(old, &d) : lpm_image_word_encode(old, so, &d);
}

/* Copy c of img becomes nw; the words that change are recorded (in stage
 * order, addresses ascending, the DIT last) when record is set. */
static int lay(lpm_upd *u, const lpm_image *nw, unsigned r, unsigned c, int record, size_t *per, lpm_err *err)
{
    lpm_image *img = u->img;
    for (unsigned s = 0; s <= img->stages; s++) {
        int dit = s == img->stages;
        unsigned sn = dit ? 0 : (s + img->stages - r) % img->stages;
        uint64_t n = dit ? 1ULL << img->x : img->depth[s];
        uint64_t *dst = dit ? img->dit + lpm_dit_base(img, c) : img->mem[s] + lpm_copy_base(img, s, c);
        uint32_t base = dit ? lpm_dit_base(img, c) : lpm_copy_base(img, s, c);
        per[s] = 0;
        for (uint64_t a = 0; a < n; a++) {
            uint64_t src = dit ? nw->dit[a] : a < nw->depth[sn] ? nw->mem[sn][a] : 0;
            uint64_t v = src ? moved(img, nw, src, dit, sn, r, c) : 0;
            if (v == dst[a])
                continue;
            dst[a] = v;
            per[s]++;
            if (record && lpm_upd_add_write(u, dit ? LPM_IMAGE_DIT : s, base + (uint32_t)a, v))
                return lpm_err_set(err, LPM_EFAIL, "out of memory (rebuild writes)");
        }
    }
    return LPM_OK;
}

/* The writes of every stage (and of the DIT) go into the last bubbles,
 * one per bubble, so that the last bubble writes every stage the rebuild
 * writes (a swap one cycle early then always finds a write still to land).
 * The first bubble is a fence, a swap bubble ends the stream. */
static int pack_rebuild(lpm_upd *u, const size_t *per, lpm_err *err)
{
    unsigned N = u->img->stages;
    size_t nb = 0, start[LPM_IMAGE_MAX_STAGES + 1], off = 0;
    for (unsigned s = 0; s <= N; s++) {
        start[s] = off;
        off += per[s];
        if (per[s] > nb)
            nb = per[s];
    }
    lpm_write *sorted = malloc((u->nw ? u->nw : 1) * sizeof *sorted);
    if (!sorted || lpm_upd_room((void **)&u->b, nb, &u->capb, sizeof *u->b)) {
        free(sorted);
        return lpm_err_set(err, LPM_EFAIL, "out of memory (rebuild bubbles)");
    }
    size_t k = 0;
    for (size_t j = 0; j < nb; j++) {
        size_t first = k;
        /* DIT first, then the stages, as in every bubble */
        if (j + per[N] >= nb)
            sorted[k++] = u->w[start[N] + j + per[N] - nb];
        for (unsigned s = 0; s < N; s++)
            if (j + per[s] >= nb)
                sorted[k++] = u->w[start[s] + j + per[s] - nb];
        u->b[j] = (lpm_bubble){ first, k - first, j == 0 ? LPM_BUBBLE_FENCE : 0 };
    }
    u->b[nb] = (lpm_bubble){ k, 0, LPM_BUBBLE_SWAP };
    memcpy(u->w, sorted, k * sizeof *sorted);
    free(sorted);
    u->nb = nb + 1;
    return LPM_OK;
}

int lpm_upd_remap_fits(lpm_upd *u, lpm_err *err)
{
    double t0 = now();
    int nofit, rc = lpm_upd_sync_routes(u, err);
    if (!rc && !u->pending) {
        rc = remap(u->img, &u->pending, &u->pending_turn, &nofit, err);
        if (rc && u->pending) {
            lpm_image_free(u->pending);
            u->pending = NULL;
        }
    }
    u->st.rebuild_seconds += now() - t0;
    return rc ? (nofit ? 0 : -1) : 1;
}

int lpm_upd_rebuild(lpm_upd *u, int reason, lpm_err *err)
{
    double t0 = now();
    int nofit, rc = lpm_upd_sync_routes(u, err);
    if (rc)
        return rc;
    lpm_image *img = u->img, *nw = u->pending;
    unsigned turn = u->pending_turn;
    u->pending = NULL;
    if (!nw && (rc = remap(img, &nw, &turn, &nofit, err))) {
        if (!nw)
            return rc;
        if (img->copies > 1) {
            lpm_image_free(nw);
            return rc;
        }
        /* Without a shadow copy the rebuild is a reload (the lookups stop):
         * the new mapping may size the memories anew, as map would. */
        u->img = nw;
        lpm_image_free(img);
        u->nw = u->nb = 0;
        lpm_upd_plen_free(u);
        if ((rc = lpm_upd_plen_build(u, err)))
            return rc;
        img = nw;
        goto count;
    }
    /* With a shadow copy the new table goes into the inactive one and
     * becomes live with the swap; without, it replaces the live copy
     * (a reload that stops the lookups, not a bubble stream). */
    unsigned c = img->copies > 1 ? 1 - img->active : img->active;
    size_t per[LPM_IMAGE_MAX_STAGES + 1];
    u->nw = u->nb = 0;
    rc = lay(u, nw, turn, c, img->copies > 1, per, err);
    if (!rc && img->copies > 1)
        rc = pack_rebuild(u, per, err);
    if (!rc) {
        img->active = c;
        for (unsigned s = 0; s < img->stages; s++)
            img->used[s] = nw->used[(s + img->stages - turn) % img->stages];
        lpm_upd_plen_free(u);
        rc = lpm_upd_plen_build(u, err);
    }
    lpm_image_free(nw);
    if (rc)
        return rc;
count:
    u->base_ratio = lpm_upd_ratio(img);
    u->reason = reason;
    if (!u->st.rebuilds)
        u->st.first_rebuild = u->st.updates;
    u->st.rebuilds++;
    u->st.rebuild_why[reason]++;
    u->st.rebuild_writes += u->nw;
    u->st.rebuild_bubbles += u->nb;
    if (u->nb > u->st.max_rebuild_bubbles)
        u->st.max_rebuild_bubbles = u->nb;
    u->st.rebuild_seconds += now() - t0;
    return LPM_OK;
}
