/* The offline half of write-bubble updates: table change -> words -> bubbles. */
#include <stdlib.h>
#include <string.h>

#include "update_int.h"

const char *lpm_rebuild_reason_name(int r)
{
    static const char *const n[] = { "none", "headroom", "stages", "nh-bits", "balance", "every" };
    return r >= 0 && r <= LPM_REBUILD_EVERY ? n[r] : "?";
}

static void take_back(lpm_upd *u)
{
    while (u->nundo) {
        const lpm_write *w = &u->undo[--u->nundo];
        if (w->stage == LPM_IMAGE_DIT)
            u->img->dit[w->addr] = w->word;
        else
            u->img->mem[w->stage][w->addr] = w->word;
    }
    memcpy(u->img->used, u->used_before, sizeof u->used_before);
}

/* ---- the route set ---- */

static int note_change(lpm_upd *u, const lpm_prefix *p)
{
    if (lpm_upd_room((void **)&u->chg, u->nchg, &u->capchg, sizeof *u->chg))
        return -1;
    u->chg[u->nchg++] = *p;
    return 0;
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
    if ((rc = lpm_upd_plen_build(u, err)))
        goto fail;
    u->base_ratio = lpm_upd_ratio(u->img);
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
    lpm_upd_plen_free(u);
    lpm_image_free(u->img);
    lpm_image_free(u->pending);
    lpm_ref_free(u->ref);
    free(u->chg);
    free(u->w);
    free(u->b);
    free(u->bmask);
    free(u->undo);
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
            lpm_image_dit_decode(img, mem[j], &w);
        else
            lpm_image_word_decode(img, stage, mem[j], &w);
        w.valid = newl != 0;
        w.nh = newl ? newnh : 0;
        uint64_t nw = dit ? lpm_image_dit_encode(img, &w) : lpm_image_word_encode(img, stage, &w);
        if (nw != mem[j] && lpm_upd_add_write(u, stage, (uint32_t)j, nw))
            return -1;
    }
    return 0;
}

/* A new chain of blocks under the parent in r (a word with no child, or a
 * DIT entry), ending in the block that holds p. Returns a rebuild reason
 * when the image has no room, 0 when done, -1 on no memory. */
static int new_chain(lpm_upd *u, const lpm_upd_walk_t *r, const lpm_prefix *p, uint32_t nh)
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
        s = lpm_upd_next_stage(img, r->stage);
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
        s = lpm_upd_next_stage(img, s);
    }
    /* Allocate and write, deepest block first. */
    uint32_t addr[130];
    for (unsigned i = 0; i < nblk; i++) {
        addr[i] = lpm_copy_base(img, st[i], img->active) + img->used[st[i]];
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
            uint64_t v = lpm_image_word_encode(img, st[i], &w);
            for (size_t j = first; j < first + count; j++) {
                u->plen[st[i]][j] = (uint8_t)(L + 1);
                if (lpm_upd_set_word(u, st[i], (uint32_t)j, v) || lpm_upd_add_write(u, st[i], (uint32_t)j, v))
                    return -1;
            }
        } else {
            uint32_t j = addr[i] + (uint32_t)lpm_addr_bits(&p->addr, d, k);
            lpm_node_word w = { 1, 0, 0, 0, addr[i + 1], 0 };
            uint64_t v = lpm_image_word_encode(img, st[i], &w);
            if (lpm_upd_set_word(u, st[i], j, v) || lpm_upd_add_write(u, st[i], j, v))
                return -1;
        }
    }
    /* The commit: the parent now points at the chain (the one reachable
     * write, after every head-room write). */
    u->commit_from = u->nw;
    lpm_node_word w;
    uint64_t v;
    if (r->stage == LPM_IMAGE_DIT) {
        lpm_image_dit_decode(img, img->dit[r->base], &w);
        w.child = 1;
        w.addr = addr[0];
        w.stage = st[0];
        v = lpm_image_dit_encode(img, &w);
    } else {
        lpm_image_word_decode(img, r->stage, img->mem[r->stage][r->base], &w);
        w.child = 1;
        w.addr = addr[0];
        w.jump = 0;
        v = lpm_image_word_encode(img, r->stage, &w);
    }
    return lpm_upd_set_word(u, r->stage, r->base, v) || lpm_upd_add_write(u, r->stage, r->base, v) ? -1 : 0;
}

/* Applies the writes already made in img (entries rewritten in place) or
 * made by rewrite_entries (recorded, not yet applied). */
static int apply_recorded(lpm_upd *u, size_t from)
{
    for (size_t i = from; i < u->nw; i++)
        if (lpm_upd_set_word(u, u->w[i].stage, u->w[i].addr, u->w[i].word))
            return -1;
    return 0;
}

int lpm_upd_apply(lpm_upd *u, char op, const lpm_prefix *p, const char *nhtok, int *rebuilt, lpm_err *err)
{
    lpm_image *img = u->img;
    u->nw = u->nb = u->commit_from = u->nundo = 0;
    memcpy(u->used_before, img->used, sizeof u->used_before);
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
        size_t first = lpm_dit_base(img, img->active) + ((size_t)lpm_addr_bits(&p->addr, 0, p->len) << (img->x - p->len));
        if (rewrite_entries(u, LPM_IMAGE_DIT, first, (size_t)1 << (img->x - p->len), op, p, nh, -1))
            return lpm_err_set(err, LPM_EFAIL, "out of memory");
        if (apply_recorded(u, 0))
            return lpm_err_set(err, LPM_EFAIL, "out of memory");
    } else {
        lpm_upd_walk_t r;
        lpm_upd_walk(img, &p->addr, p->len, &r);
        if (r.found) {
            unsigned k = img->stride[r.stage], L = p->len;
            size_t first = r.base + ((size_t)lpm_addr_bits(&p->addr, r.b, L - r.b) << (r.b + k - L));
            if (rewrite_entries(u, r.stage, first, (size_t)1 << (r.b + k - L), op, p, nh, (int)r.b))
                return lpm_err_set(err, LPM_EFAIL, "out of memory");
            if (apply_recorded(u, 0))
                return lpm_err_set(err, LPM_EFAIL, "out of memory");
        } else if (op == 'a') {
            int c = new_chain(u, &r, p, nh);
            if (c == LPM_REBUILD_STAGES && img->map_kind == LPM_MAP_HEIGHT && r.stage != LPM_IMAGE_DIT)
                c = lpm_upd_height_chain(u, p, nh);
            if (c < 0)
                return lpm_err_set(err, LPM_EFAIL, "out of memory");
            reason = c;
        }
        /* A withdraw whose block is missing cannot happen: the route was there. */
    }
    if (!reason && u->o.rebalance_at > 0 && u->base_ratio > 0 && lpm_upd_ratio(img) > u->o.rebalance_at * u->base_ratio) {
        /* A rebalance is a choice, not a need: one whose mapping does not
         * fit the memories, or that could not go as bubbles (no shadow
         * copy), is left out (until the balance drifts as far again), and
         * the update goes on as an ordinary one. */
        int f = u->o.bubbles_only && img->copies < 2 ? 0 : lpm_upd_remap_fits(u, err);
        if (f < 0)
            return LPM_EFAIL;
        if (f)
            reason = LPM_REBUILD_BALANCE;
        else {
            u->st.balance_skipped++;
            u->base_ratio = lpm_upd_ratio(img);
        }
    }
    if (!reason && u->o.rebuild_every && (u->st.updates - u->st.noops) % u->o.rebuild_every == 0)
        reason = LPM_REBUILD_EVERY;
    if (reason) {
        take_back(u);
        int rc = lpm_upd_rebuild(u, reason, err);
        if (rc)
            return rc;
        if (rebuilt)
            *rebuilt = 1;
        return LPM_OK;
    }
    if (lpm_upd_pack(u))
        return lpm_err_set(err, LPM_EFAIL, "out of memory");
    u->st.writes += u->nw;
    u->st.bubbles += u->nb;
    for (size_t k = 0; k < u->nb; k++)
        u->st.drain_bubbles += (u->b[k].flags & LPM_BUBBLE_DRAIN) != 0;
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
