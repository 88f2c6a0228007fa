/* Binary trie of the prefixes (poptrie_rib.h). */
#include "poptrie_rib.h"

#include <stdlib.h>
#include <string.h>

#include "../core/err.h"
#include "../core/nhtab.h"

int lpm_ptrib_init(lpm_ptrib *r)
{
    memset(r, 0, sizeof *r);
    r->cap = 1024;
    if (!(r->n = malloc(r->cap * sizeof *r->n)))
        return LPM_EFAIL;
    r->n[0] = (lpm_ptrib_node){ { 0, 0 }, LPM_NH_NONE, LPM_NH_NONE };
    r->used = 1;
    return LPM_OK;
}

void lpm_ptrib_free(lpm_ptrib *r)
{
    free(r->n);
    memset(r, 0, sizeof *r);
}

static uint32_t node_new(lpm_ptrib *r)
{
    uint32_t i = r->free_list;
    if (i) {
        r->free_list = r->n[i].child[0];
    } else {
        if (r->used == r->cap) {
            if (r->cap >= UINT32_MAX / 2)
                return 0;
            lpm_ptrib_node *t = realloc(r->n, (size_t)r->cap * 2 * sizeof *t);
            if (!t)
                return 0;
            r->n = t;
            r->cap *= 2;
        }
        i = r->used++;
    }
    r->n[i] = (lpm_ptrib_node){ { 0, 0 }, LPM_NH_NONE, LPM_NH_NONE };
    return i;
}

/* One side's contribution to its parent's sub: its prefix and below. */
static uint32_t side(const lpm_ptrib *r, uint32_t c, uint32_t acc)
{
    if (!c)
        return acc;
    uint32_t v[2] = { r->n[c].nh, r->n[c].sub };
    for (int k = 0; k < 2; k++)
        if (v[k] != LPM_NH_NONE)
            acc = acc == LPM_NH_NONE || acc == v[k] ? v[k] : LPM_PTRIB_MIXED;
    return acc;
}

/* Recomputes sub on the path of p from depth len-1 up to the root. */
static void resum(lpm_ptrib *r, const uint32_t *path, unsigned len)
{
    for (unsigned d = len; d-- > 0;) {
        lpm_ptrib_node *n = &r->n[path[d]];
        n->sub = side(r, n->child[1], side(r, n->child[0], LPM_NH_NONE));
    }
}

int lpm_ptrib_add(lpm_ptrib *r, const lpm_prefix *p, uint32_t nh, uint32_t *old)
{
    uint32_t path[129];
    uint32_t i = 0;
    path[0] = 0;
    for (unsigned d = 0; d < p->len; d++) {
        unsigned b = lpm_addr_bit(&p->addr, d);
        uint32_t c = r->n[i].child[b];
        if (!c) {
            if (!(c = node_new(r)))
                return LPM_EFAIL;
            r->n[i].child[b] = c;
        }
        i = c;
        path[d + 1] = i;
    }
    *old = r->n[i].nh;
    r->n[i].nh = nh;
    r->prefixes += *old == LPM_NH_NONE;
    if (*old != nh)
        resum(r, path, p->len);
    return LPM_OK;
}

uint32_t lpm_ptrib_del(lpm_ptrib *r, const lpm_prefix *p)
{
    uint32_t path[129];
    uint32_t i = 0;
    path[0] = 0;
    for (unsigned d = 0; d < p->len; d++) {
        i = r->n[i].child[lpm_addr_bit(&p->addr, d)];
        if (!i)
            return LPM_NH_NONE;
        path[d + 1] = i;
    }
    uint32_t old = r->n[i].nh;
    if (old == LPM_NH_NONE)
        return old;
    r->n[i].nh = LPM_NH_NONE;
    r->prefixes--;
    /* Prune upwards while a node holds nothing. */
    for (unsigned d = p->len; d > 0; d--) {
        uint32_t c = path[d];
        if (r->n[c].nh != LPM_NH_NONE || r->n[c].child[0] || r->n[c].child[1])
            break;
        r->n[path[d - 1]].child[lpm_addr_bit(&p->addr, d - 1)] = 0;
        r->n[c].child[0] = r->free_list;
        r->free_list = c;
    }
    resum(r, path, p->len);
    return old;
}

uint32_t lpm_ptrib_walk(const lpm_ptrib *r, const lpm_addr *a, unsigned len, uint32_t *nh, int *blen)
{
    uint32_t i = 0;
    *nh = r->n[0].nh;
    *blen = *nh == LPM_NH_NONE ? -1 : 0;
    for (unsigned d = 0; d < len; d++) {
        i = r->n[i].child[lpm_addr_bit(a, d)];
        if (!i)
            return LPM_PTRIB_NIL;
        if (r->n[i].nh != LPM_NH_NONE) {
            *nh = r->n[i].nh;
            *blen = (int)d + 1;
        }
    }
    return i;
}
