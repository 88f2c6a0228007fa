#include "trie_unibit.h"

#include <stdlib.h>
#include <string.h>

#define FREED UINT32_MAX /* parent of a slot on the free list */

int lpm_unibit_init(lpm_unibit *t, int family, lpm_err *err)
{
    memset(t, 0, sizeof *t);
    t->family = family;
    t->cap = 1024;
    t->node = malloc(t->cap * sizeof *t->node);
    if (!t->node)
        return lpm_err_set(err, LPM_EFAIL, "out of memory");
    memset(&t->node[0], 0, sizeof t->node[0]);
    t->node[0].nh = LPM_NH_NONE;
    t->n = 1;
    t->live = 1;
    return LPM_OK;
}

void lpm_unibit_free(lpm_unibit *t)
{
    free(t->node);
    memset(t, 0, sizeof *t);
}

static uint32_t alloc_node(lpm_unibit *t, uint32_t parent, uint8_t depth)
{
    uint32_t i;
    if (t->free_head) {
        i = t->free_head;
        t->free_head = t->node[i].child[0];
    } else {
        if (t->n == t->cap) {
            size_t nc = t->cap * 2;
            lpm_unode *nn = realloc(t->node, nc * sizeof *nn);
            if (!nn)
                return 0;
            t->node = nn;
            t->cap = nc;
        }
        i = (uint32_t)t->n++;
    }
    lpm_unode *u = &t->node[i];
    u->child[0] = u->child[1] = 0;
    u->nh = LPM_NH_NONE;
    u->parent = parent;
    u->depth = depth;
    t->live++;
    return i;
}

static void free_node(lpm_unibit *t, uint32_t i)
{
    t->node[i].parent = FREED;
    t->node[i].child[0] = t->free_head;
    t->node[i].child[1] = 0;
    t->node[i].nh = LPM_NH_NONE;
    t->free_head = i;
    t->live--;
}

int lpm_unibit_insert(lpm_unibit *t, const lpm_prefix *p, uint32_t nh, lpm_err *err)
{
    if (p->family != t->family)
        return lpm_err_set(err, LPM_EINPUT, "IPv%d prefix in an IPv%d trie", p->family, t->family);
    uint32_t cur = 0;
    for (unsigned d = 0; d < p->len; d++) {
        unsigned b = lpm_addr_bit(&p->addr, d);
        uint32_t c = t->node[cur].child[b];
        if (!c) {
            c = alloc_node(t, cur, (uint8_t)(d + 1));
            if (!c)
                return lpm_err_set(err, LPM_EFAIL, "out of memory");
            t->node[cur].child[b] = c;
        }
        cur = c;
    }
    if (t->node[cur].nh == LPM_NH_NONE)
        t->prefixes++;
    t->node[cur].nh = nh;
    return LPM_OK;
}

uint32_t lpm_unibit_find(const lpm_unibit *t, const lpm_prefix *p)
{
    uint32_t cur = 0;
    for (unsigned d = 0; d < p->len; d++) {
        cur = t->node[cur].child[lpm_addr_bit(&p->addr, d)];
        if (!cur)
            return 0;
    }
    return cur;
}

int lpm_unibit_delete(lpm_unibit *t, const lpm_prefix *p, lpm_err *err)
{
    uint32_t cur = lpm_unibit_find(t, p);
    if ((cur == 0 && p->len) || t->node[cur].nh == LPM_NH_NONE)
        return lpm_err_set(err, LPM_EINPUT, "prefix not in the trie");
    t->node[cur].nh = LPM_NH_NONE;
    t->prefixes--;
    /* Prune the chain of nodes that now lead nowhere. */
    while (cur != 0) {
        lpm_unode *u = &t->node[cur];
        if (u->nh != LPM_NH_NONE || u->child[0] || u->child[1])
            break;
        uint32_t par = u->parent;
        lpm_unode *pu = &t->node[par];
        pu->child[pu->child[1] == cur] = 0;
        free_node(t, cur);
        cur = par;
    }
    return LPM_OK;
}

uint32_t lpm_unibit_lookup(const lpm_unibit *t, const lpm_addr *a)
{
    uint32_t best = t->node[0].nh, cur = 0;
    unsigned w = lpm_family_bits(t->family);
    for (unsigned d = 0; d < w; d++) {
        cur = t->node[cur].child[lpm_addr_bit(a, d)];
        if (!cur)
            break;
        if (t->node[cur].nh != LPM_NH_NONE)
            best = t->node[cur].nh;
    }
    return best;
}

int lpm_unibit_build(lpm_unibit *t, const lpm_fib *f, lpm_err *err)
{
    int rc = lpm_unibit_init(t, f->family ? f->family : LPM_AF_INET, err);
    if (rc)
        return rc;
    for (size_t i = 0; i < f->n; i++)
        if ((rc = lpm_unibit_insert(t, &f->routes[i].pfx, f->routes[i].nh, err))) {
            lpm_unibit_free(t);
            return rc;
        }
    return LPM_OK;
}

void lpm_unibit_level_counts(const lpm_unibit *t, size_t counts[129])
{
    memset(counts, 0, 129 * sizeof counts[0]);
    for (size_t i = 0; i < t->n; i++)
        if (t->node[i].parent != FREED)
            counts[t->node[i].depth]++;
}

/* Copies the subtree at s (source) into d (destination node), pushing the
 * inherited next hop down to the leaves. Iterative: IPv6 tries are deep. */
int lpm_unibit_leaf_push(const lpm_unibit *src, lpm_unibit *dst, lpm_err *err)
{
    int rc = lpm_unibit_init(dst, src->family, err);
    if (rc)
        return rc;
    typedef struct {
        uint32_t s, d, inh;
    } item;
    size_t cap = 256, top = 0;
    item *st = malloc(cap * sizeof *st);
    if (!st) {
        lpm_unibit_free(dst);
        return lpm_err_set(err, LPM_EFAIL, "out of memory");
    }
    st[top++] = (item){ 0, 0, LPM_NH_NONE };
    while (top) {
        item it = st[--top];
        const lpm_unode *s = &src->node[it.s];
        uint32_t inh = s->nh != LPM_NH_NONE ? s->nh : it.inh;
        if (!s->child[0] && !s->child[1]) {
            dst->node[it.d].nh = inh;
            if (inh != LPM_NH_NONE)
                dst->prefixes++;
            continue;
        }
        for (unsigned b = 0; b < 2; b++) {
            uint32_t c = alloc_node(dst, it.d, (uint8_t)(s->depth + 1));
            if (!c) {
                free(st);
                lpm_unibit_free(dst);
                return lpm_err_set(err, LPM_EFAIL, "out of memory");
            }
            dst->node[it.d].child[b] = c;
            if (s->child[b]) {
                if (top == cap) {
                    item *ns = realloc(st, cap * 2 * sizeof *ns);
                    if (!ns) {
                        free(st);
                        lpm_unibit_free(dst);
                        return lpm_err_set(err, LPM_EFAIL, "out of memory");
                    }
                    st = ns;
                    cap *= 2;
                }
                st[top++] = (item){ s->child[b], c, inh };
            } else {
                dst->node[c].nh = inh;
                if (inh != LPM_NH_NONE)
                    dst->prefixes++;
            }
        }
    }
    free(st);
    return LPM_OK;
}

size_t lpm_unibit_memory(const lpm_unibit *t)
{
    return t->live * sizeof(lpm_unode);
}
