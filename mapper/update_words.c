/* The updater's words: which prefix length set each word's next hop, the
 * walk to the block of a prefix, word writes that can be taken back, and
 * the balance ratio (below update.c, update_height.c, update_rebuild.c). */
#include <stdlib.h>

#include "update_int.h"

double lpm_upd_ratio(const lpm_image *img)
{
    uint64_t sum = 0, mx = 0;
    for (unsigned s = 0; s < img->stages; s++) {
        sum += img->used[s];
        if (img->used[s] > mx)
            mx = img->used[s];
    }
    return sum ? (double)mx * img->stages / (double)sum : 0;
}

/* ---- which prefix length set each word's next hop ---- */

void lpm_upd_walk(const lpm_image *img, const lpm_addr *a, unsigned L, lpm_upd_walk_t *r)
{
    lpm_node_word w;
    uint32_t idx = lpm_dit_base(img, img->active) + (uint32_t)lpm_addr_bits(a, 0, img->x);
    lpm_image_dit_decode(img, img->dit[idx], &w);
    if (!w.child) {
        *r = (lpm_upd_walk_t){ 0, LPM_IMAGE_DIT, idx, img->x };
        return;
    }
    unsigned s = w.stage, b = img->x;
    uint32_t base = w.addr;
    for (;;) {
        unsigned k = img->stride[s];
        if (L <= b + k) {
            *r = (lpm_upd_walk_t){ 1, s, base, b };
            return;
        }
        uint32_t j = base + (uint32_t)lpm_addr_bits(a, b, k);
        lpm_image_word_decode(img, s, img->mem[s][j], &w);
        if (!w.child) {
            *r = (lpm_upd_walk_t){ 0, s, j, b + k };
            return;
        }
        s = w.jump ? w.stage : lpm_upd_next_stage(img, s);
        base = w.addr;
        b += k;
    }
}

void lpm_upd_plen_free(lpm_upd *u)
{
    free(u->dplen);
    u->dplen = NULL;
    for (unsigned s = 0; s < LPM_IMAGE_MAX_STAGES; s++) {
        free(u->plen[s]);
        u->plen[s] = NULL;
    }
}

int lpm_upd_plen_build(lpm_upd *u, lpm_err *err)
{
    lpm_image *img = u->img;
    u->dplen = calloc((size_t)img->copies << img->x, 1);
    if (!u->dplen)
        return lpm_err_set(err, LPM_EFAIL, "out of memory");
    for (unsigned s = 0; s < img->stages; s++)
        if (!(u->plen[s] = calloc((size_t)img->copies * img->depth[s], 1)))
            return lpm_err_set(err, LPM_EFAIL, "out of memory");
    for (size_t i = 0; i < img->nroutes; i++) {
        const lpm_prefix *p = &img->routes[i].pfx;
        unsigned L = p->len;
        uint8_t *pl;
        size_t first, count;
        if (L <= img->x) {
            pl = u->dplen;
            first = lpm_dit_base(img, img->active) + ((size_t)lpm_addr_bits(&p->addr, 0, L) << (img->x - L));
            count = (size_t)1 << (img->x - L);
        } else {
            lpm_upd_walk_t r;
            lpm_upd_walk(img, &p->addr, L, &r);
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

/* ---- changing the image, so that it can be taken back ---- */

/* Writes one word (or DIT entry) of the image, keeping the old value: an
 * update that ends in a rebuild takes its writes back, because the
 * pipeline never gets them (the shadow copy must match what it holds). */
int lpm_upd_set_word(lpm_upd *u, uint32_t stage, uint32_t addr, uint64_t v)
{
    uint64_t *m = stage == LPM_IMAGE_DIT ? &u->img->dit[addr] : &u->img->mem[stage][addr];
    if (lpm_upd_room((void **)&u->undo, u->nundo, &u->capundo, sizeof *u->undo))
        return -1;
    u->undo[u->nundo++] = (lpm_write){ stage, addr, *m };
    *m = v;
    return 0;
}
