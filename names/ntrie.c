#include "ntrie.h"

#include <stdlib.h>
#include <string.h>

#include "nstep.h"

#define NONE LPM_NM_NONE

static uint32_t new_node(lpm_ntrie *t)
{
    uint32_t i;
    if (t->free_head != NONE) {
        i = t->free_head;
        t->free_head = t->v[i].next;
    } else {
        if (t->n == t->cap) {
            uint32_t c = t->cap ? t->cap * 2 : 1024;
            if (c < t->cap)
                return NONE;
            lpm_nnode *v = realloc(t->v, (size_t)c * sizeof *v);
            if (!v)
                return NONE;
            t->v = v;
            t->cap = c;
        }
        i = t->n++;
    }
    t->v[i] = (lpm_nnode){ NONE, NONE, NONE, NONE, 0, 0, NONE, 0, (uint8_t)t->d, 1, 0 };
    t->live++;
    return i;
}

int lpm_ntrie_init(lpm_ntrie *t, unsigned d, lpm_err *err)
{
    memset(t, 0, sizeof *t);
    t->d = d;
    t->free_head = NONE;
    if (new_node(t) == NONE)
        return lpm_err_set(err, LPM_EFAIL, "out of memory");
    return 0;
}

void lpm_ntrie_free(lpm_ntrie *t)
{
    free(t->v);
    memset(t, 0, sizeof *t);
}

uint32_t lpm_ntrie_chunk(const char *s, size_t len, unsigned stride, unsigned *clen)
{
    uint32_t y = 0, mul = 1;
    unsigned k = 0;
    while (k < len) {
        unsigned c = (unsigned char)s[k];
        if (lpm_nm_chunk_add(&y, &mul, c, k, stride)) {
            k++;
            break;
        }
        k++;
    }
    *clen = k;
    return y;
}

uint32_t lpm_ntrie_child(const lpm_ntrie *t, uint32_t n, uint32_t y)
{
    for (uint32_t c = t->v[n].child; c != NONE; c = t->v[c].next)
        if (t->v[c].y == y)
            return c;
    return NONE;
}

uint32_t lpm_ntrie_add_child(lpm_ntrie *t, uint32_t n, uint32_t y, unsigned stride)
{
    uint32_t c = new_node(t);
    if (c == NONE)
        return NONE;
    lpm_nnode *p = &t->v[n], *x = &t->v[c];
    x->parent = n;
    x->y = y;
    x->stride = (uint8_t)stride;
    x->next = p->child;
    if (p->child != NONE)
        t->v[p->child].prev = c;
    p->child = c;
    p->nchild++;
    return c;
}

void lpm_ntrie_remove_leaf(lpm_ntrie *t, uint32_t c)
{
    lpm_nnode *x = &t->v[c], *p = &t->v[x->parent];
    if (x->prev != NONE)
        t->v[x->prev].next = x->next;
    else
        p->child = x->next;
    if (x->next != NONE)
        t->v[x->next].prev = x->prev;
    p->nchild--;
    x->live = 0;
    x->next = t->free_head;
    t->free_head = c;
    t->live--;
}

/* Top-down over the sorted names [lo, hi) sharing the first pos bytes. */
static int build_rec(lpm_ntrie *t, const lpm_ntable *tab, uint32_t node, size_t lo, size_t hi,
                     size_t pos)
{
    if (lo < hi && tab->e[lo].len == pos) {
        t->v[node].port = tab->e[lo].port;
        lo++;
    }
    if (lo == hi)
        return 0;
    unsigned s = t->d;
    /* Names sharing a chunk share it as a prefix, so they are contiguous:
     * count groups per stride, shrink while the fanout is too wide. */
    for (; s > 1; s--) {
        size_t groups = 0;
        uint32_t prev = NONE;
        for (size_t i = lo; i < hi && groups <= t->fanout_max; i++) {
            unsigned cl;
            uint32_t y = lpm_ntrie_chunk(lpm_ntable_name(tab, i) + pos, tab->e[i].len - pos, s, &cl);
            if (y != prev) {
                groups++;
                prev = y;
            }
        }
        if (groups <= t->fanout_max)
            break;
    }
    t->v[node].stride = (uint8_t)s;
    size_t i = lo;
    while (i < hi) {
        unsigned cl;
        uint32_t y = lpm_ntrie_chunk(lpm_ntable_name(tab, i) + pos, tab->e[i].len - pos, s, &cl);
        size_t j = i + 1;
        while (j < hi) {
            unsigned cl2;
            if (lpm_ntrie_chunk(lpm_ntable_name(tab, j) + pos, tab->e[j].len - pos, s, &cl2) != y)
                break;
            j++;
        }
        uint32_t c = lpm_ntrie_add_child(t, node, y, t->d);
        if (c == NONE)
            return -1;
        if (build_rec(t, tab, c, i, j, pos + cl))
            return -1;
        i = j;
    }
    return 0;
}

int lpm_ntrie_build(lpm_ntrie *t, const lpm_ntable *tab, unsigned d, unsigned fanout_max,
                    lpm_err *err)
{
    int rc = lpm_ntrie_init(t, d, err);
    if (rc)
        return rc;
    t->fanout_max = fanout_max ? fanout_max : LPM_NTRIE_FANOUT_DEFAULT;
    if (build_rec(t, tab, 0, 0, tab->n, 0)) {
        lpm_ntrie_free(t);
        return lpm_err_set(err, LPM_EFAIL, "out of memory building the trie");
    }
    return 0;
}

uint32_t lpm_ntrie_lookup(const lpm_ntrie *t, const char *s, size_t len)
{
    uint32_t n = 0, port = t->v[0].port;
    size_t i = 0;
    while (i < len) {
        unsigned cl;
        uint32_t y = lpm_ntrie_chunk(s + i, len - i, t->v[n].stride, &cl);
        n = lpm_ntrie_child(t, n, y);
        if (n == NONE)
            break;
        if (t->v[n].port != NONE)
            port = t->v[n].port;
        i += cl;
    }
    return port;
}

uint32_t lpm_ntrie_find(const lpm_ntrie *t, const char *s, size_t len)
{
    uint32_t n = 0;
    size_t i = 0;
    while (i < len && n != NONE) {
        unsigned cl;
        uint32_t y = lpm_ntrie_chunk(s + i, len - i, t->v[n].stride, &cl);
        n = lpm_ntrie_child(t, n, y);
        i += cl;
    }
    return n;
}

uint32_t lpm_ntrie_insert(lpm_ntrie *t, const char *s, size_t len, uint32_t port,
                          uint32_t *first_new)
{
    uint32_t n = 0;
    size_t i = 0;
    *first_new = NONE;
    while (i < len) {
        unsigned cl;
        uint32_t y = lpm_ntrie_chunk(s + i, len - i, t->v[n].stride, &cl);
        uint32_t c = lpm_ntrie_child(t, n, y);
        if (c == NONE) {
            c = lpm_ntrie_add_child(t, n, y, t->d);
            if (c == NONE)
                return NONE;
            if (*first_new == NONE)
                *first_new = c;
        }
        n = c;
        i += cl;
    }
    t->v[n].port = port;
    return n;
}

int lpm_ntrie_delete(lpm_ntrie *t, const char *s, size_t len,
                     void (*on_unport)(void *, uint32_t), void (*on_remove)(void *, uint32_t),
                     void *ctx)
{
    uint32_t n = lpm_ntrie_find(t, s, len);
    if (n == NONE || t->v[n].port == NONE)
        return 0;
    t->v[n].port = NONE;
    if (on_unport)
        on_unport(ctx, n);
    while (n != 0 && t->v[n].port == NONE && !t->v[n].nchild) {
        uint32_t p = t->v[n].parent;
        if (on_remove)
            on_remove(ctx, n);
        lpm_ntrie_remove_leaf(t, n);
        n = p;
    }
    return 1;
}

uint64_t lpm_ntrie_stt_bytes(const lpm_ntrie *t)
{
    return (uint64_t)t->live * 256 * 4;
}

size_t lpm_ntrie_mem(const lpm_ntrie *t)
{
    return (size_t)t->live * sizeof(lpm_nnode);
}
