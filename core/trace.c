/* Lookup traces: uniform, random-match (He et al.), table (GAMT), zipf, and
 * bursts of repeated addresses on top of any of them. docs/synthetic.md
 * gives the definitions. */
#include "trace.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rng.h"

void lpm_trace_opts_default(lpm_trace_opts *o)
{
    memset(o, 0, sizeof *o);
    o->kind = LPM_TRACE_RANDOM_MATCH;
    o->zipf_s = 1.0;
}

#define KIND_NAME(id, name) name,
static const char *const kind_names[] = { LPM_TRACE_KINDS(KIND_NAME) };

int lpm_trace_kind_parse(const char *s)
{
    for (int i = 0; i < (int)(sizeof kind_names / sizeof kind_names[0]); i++)
        if (!strcmp(s, kind_names[i]))
            return i;
    return -1;
}

const char *lpm_trace_kind_name(int kind)
{
    if (kind < 0 || kind >= (int)(sizeof kind_names / sizeof kind_names[0]))
        return "?";
    return kind_names[kind];
}

/* A random address of the family. */
static lpm_addr rand_addr(lpm_rng *r, int family)
{
    lpm_addr a;
    a.hi = lpm_rng_next(r);
    a.lo = family == LPM_AF_INET ? 0 : lpm_rng_next(r);
    if (family == LPM_AF_INET)
        a.hi &= 0xFFFFFFFF00000000ULL;
    return a;
}

/* p's bits followed by random ones: an address inside p. */
static lpm_addr complete(lpm_rng *r, const lpm_prefix *p)
{
    lpm_addr a = rand_addr(r, p->family), m = lpm_addr_mask(&a, p->len);
    a.hi = p->addr.hi | (a.hi ^ m.hi);
    a.lo = p->addr.lo | (a.lo ^ m.lo);
    return a;
}

/* The Random Match set (He et al., section IV-A): in the leaf-pushed
 * binary trie of the table, for every prefix p the longest root-to-leaf
 * path among the leaves that carry p. A leaf carries p when it lies in p's
 * subtree and under no longer prefix; leaf pushing puts such leaves at p's
 * own node when it has no children, and beside every node of p's region
 * that has one child only (the missing side). A prefix whose space is all
 * covered by longer ones has no leaf and no path. */
static int cmp_prefix(const void *x, const void *y)
{
    const lpm_prefix *a = x, *b = y;
    int c = lpm_addr_cmp(&a->addr, &b->addr);
    return c ? c : (int)a->len - (int)b->len;
}

typedef struct {
    uint32_t child[2]; /* 0: none (the root is nobody's child) */
    uint32_t route;    /* index in the FIB, UINT32_MAX: no prefix */
} tnode;

int lpm_trace_random_match_set(const lpm_fib *f, lpm_prefix **out, size_t *nout, lpm_err *err)
{
    size_t cap = 1024, n = 1;
    tnode *t = malloc(cap * sizeof *t);
    lpm_prefix *best = malloc(f->n * sizeof *best);
    int rc = LPM_OK;
    if (!t || !best)
        goto nomem;
    t[0] = (tnode){ { 0, 0 }, UINT32_MAX };
    for (size_t i = 0; i < f->n; i++) {
        const lpm_prefix *p = &f->routes[i].pfx;
        uint32_t v = 0;
        for (unsigned d = 0; d < p->len; d++) {
            unsigned b = lpm_addr_bit(&p->addr, d);
            if (!t[v].child[b]) {
                if (n == cap) {
                    tnode *g = realloc(t, 2 * cap * sizeof *t);
                    if (!g)
                        goto nomem;
                    t = g;
                    cap *= 2;
                }
                t[n] = (tnode){ { 0, 0 }, UINT32_MAX };
                t[v].child[b] = (uint32_t)n++;
            }
            v = t[v].child[b];
        }
        t[v].route = (uint32_t)i;
        best[i].len = 0;
        best[i].family = 0; /* 0: no path found yet */
    }
    /* Depth-first walk with an explicit stack: node, its path, its owner
     * (the nearest prefix at or above it). */
    typedef struct {
        uint32_t v, owner;
        lpm_addr path;
        unsigned depth;
    } frame;
    frame *st = malloc(260 * sizeof *st); /* depth + 2 at most */
    if (!st)
        goto nomem;
    int top = 0;
    st[top++] = (frame){ 0, UINT32_MAX, { 0, 0 }, 0 };
    while (top > 0) {
        frame fr = st[--top];
        const tnode *x = &t[fr.v];
        uint32_t owner = x->route != UINT32_MAX ? x->route : fr.owner;
        if (owner != UINT32_MAX) {
            int c0 = x->child[0] != 0, c1 = x->child[1] != 0;
            lpm_prefix cand = { fr.path, (uint8_t)fr.depth, (uint8_t)f->family };
            int have = 1;
            if (c0 && c1)
                have = 0;
            else if (c0 || c1) {
                lpm_addr_set_bit(&cand.addr, fr.depth, c0 ? 1 : 0);
                cand.len++;
            }
            if (have && (!best[owner].family || cand.len > best[owner].len))
                best[owner] = cand;
        }
        for (int b = 1; b >= 0; b--) /* 0 on top: paths in address order */
            if (x->child[b]) {
                frame c = { x->child[b], owner, fr.path, fr.depth + 1 };
                lpm_addr_set_bit(&c.path, fr.depth, (unsigned)b);
                st[top++] = c;
            }
    }
    free(st);
    free(t);
    size_t m = 0;
    for (size_t i = 0; i < f->n; i++)
        if (best[i].family)
            best[m++] = best[i];
    qsort(best, m, sizeof *best, cmp_prefix);
    *out = best;
    *nout = m;
    return rc;
nomem:
    free(t);
    free(best);
    return lpm_err_set(err, LPM_EFAIL, "trace: out of memory");
}

/* Zipf(s) over ranks 1..n with Vose's alias method: one table slot per
 * draw (a binary search over a million-entry cumulative table costs about
 * twenty cache misses a draw). */
typedef struct {
    double p;       /* keep this slot with probability p ... */
    uint32_t alias; /* ... else take this one */
} zslot;

typedef struct {
    zslot *t;
    size_t n;
} zipf;

static int zipf_init(zipf *z, size_t n, double s)
{
    z->n = n;
    z->t = malloc(n * sizeof *z->t);
    uint32_t *small = malloc(n * sizeof *small), *large = malloc(n * sizeof *large);
    if (!z->t || !small || !large) {
        free(small);
        free(large);
        return -1;
    }
    double sum = 0;
    for (size_t k = 0; k < n; k++)
        sum += z->t[k].p = pow((double)(k + 1), -s);
    size_t ns = 0, nl = 0;
    for (size_t k = 0; k < n; k++) {
        z->t[k].p *= (double)n / sum;
        z->t[k].alias = (uint32_t)k;
        if (z->t[k].p < 1.0)
            small[ns++] = (uint32_t)k;
        else
            large[nl++] = (uint32_t)k;
    }
    while (ns && nl) {
        uint32_t l = small[--ns], g = large[nl - 1];
        z->t[l].alias = g;
        z->t[g].p -= 1.0 - z->t[l].p;
        if (z->t[g].p < 1.0) {
            nl--;
            small[ns++] = g;
        }
    }
    while (nl) /* rounding leftovers keep themselves */
        z->t[large[--nl]].p = 1.0;
    while (ns)
        z->t[small[--ns]].p = 1.0;
    free(small);
    free(large);
    return 0;
}

static size_t zipf_draw(const zipf *z, lpm_rng *r)
{
    size_t i = (size_t)lpm_rng_below(r, z->n);
    return lpm_rng_double(r) < z->t[i].p ? i : z->t[i].alias;
}

struct lpm_tracegen {
    const lpm_fib *f;
    int kind;
    lpm_rng r;
    lpm_prefix *set;  /* random-match set */
    size_t nset;
    lpm_addr *flows;  /* zipf flows, rank order */
    zipf z;
    uint64_t stay;    /* a run continues while next() < stay */
    int started;
    lpm_addr last;
};

void lpm_tracegen_free(lpm_tracegen *g)
{
    if (!g)
        return;
    free(g->set);
    free(g->flows);
    free(g->z.t);
    free(g);
}

int lpm_tracegen_new(lpm_tracegen **out, const lpm_fib *f, const lpm_trace_opts *o, lpm_err *err)
{
    *out = NULL;
    if (f->family != LPM_AF_INET && f->family != LPM_AF_INET6)
        return lpm_err_set(err, LPM_EINPUT, "trace: the table has no family (empty table?)");
    if (o->kind < LPM_TRACE_UNIFORM || o->kind > LPM_TRACE_ZIPF)
        return lpm_err_set(err, LPM_EINPUT, "trace: unknown kind %d", o->kind);
    if (o->kind != LPM_TRACE_UNIFORM && f->n == 0)
        return lpm_err_set(err, LPM_EINPUT, "trace: %s needs a non-empty table", lpm_trace_kind_name(o->kind));
    if (o->count > LPM_TRACE_MAX_COUNT)
        return lpm_err_set(err, LPM_EINPUT, "trace: count %zu is more than %u", o->count, LPM_TRACE_MAX_COUNT);
    if (!(o->burst == 0 || (o->burst >= 1 && o->burst <= LPM_TRACE_MAX_BURST)))
        return lpm_err_set(err, LPM_EINPUT, "trace: burst mean %g is not 0 or in 1..%u", o->burst, LPM_TRACE_MAX_BURST);
    if (o->kind == LPM_TRACE_ZIPF && !(o->zipf_s > 0 && o->zipf_s <= LPM_TRACE_MAX_ZIPF_S))
        return lpm_err_set(err, LPM_EINPUT, "trace: zipf exponent %g is not in (0, %g]", o->zipf_s, LPM_TRACE_MAX_ZIPF_S);
    lpm_tracegen *g = calloc(1, sizeof *g);
    if (!g)
        return lpm_err_set(err, LPM_EFAIL, "trace: out of memory");
    g->f = f;
    g->kind = o->kind;
    lpm_rng_seed(&g->r, o->seed ^ (0x7472616365ULL << 8) ^ (uint64_t)o->kind);
    /* A run continues with probability 1 - 1/B: geometric lengths, mean B. */
    g->stay = o->burst > 1 ? (uint64_t)((1.0 - 1.0 / o->burst) * 18446744073709551616.0) : 0;
    int rc = LPM_OK;
    if (o->kind == LPM_TRACE_RANDOM_MATCH) {
        rc = lpm_trace_random_match_set(f, &g->set, &g->nset, err);
        if (rc == LPM_OK && g->nset == 0) /* cannot happen: the deepest prefix has a leaf */
            rc = lpm_err_set(err, LPM_EFAIL, "trace: empty random-match set");
    } else if (o->kind == LPM_TRACE_ZIPF) {
        /* Flows: table addresses drawn once, so popularity rank and address
         * are independent (a permuted set). */
        size_t nf = o->count < LPM_TRACE_ZIPF_FLOWS ? o->count : LPM_TRACE_ZIPF_FLOWS;
        if (nf == 0)
            nf = 1;
        g->flows = malloc(nf * sizeof *g->flows);
        if (!g->flows || zipf_init(&g->z, nf, o->zipf_s))
            rc = lpm_err_set(err, LPM_EFAIL, "trace: out of memory");
        else
            for (size_t i = 0; i < nf; i++)
                g->flows[i] = complete(&g->r, &f->routes[lpm_rng_below(&g->r, f->n)].pfx);
    }
    if (rc) {
        lpm_tracegen_free(g);
        return rc;
    }
    *out = g;
    return LPM_OK;
}

void lpm_tracegen_next(lpm_tracegen *g, lpm_addr *out, size_t n)
{
    lpm_rng *r = &g->r;
    for (size_t i = 0; i < n; i++) {
        if (g->started && g->stay && lpm_rng_next(r) < g->stay) {
            out[i] = g->last;
            continue;
        }
        switch (g->kind) {
        case LPM_TRACE_UNIFORM:
            out[i] = rand_addr(r, g->f->family);
            break;
        case LPM_TRACE_RANDOM_MATCH:
            out[i] = complete(r, &g->set[lpm_rng_below(r, g->nset)]);
            break;
        case LPM_TRACE_TABLE:
            out[i] = complete(r, &g->f->routes[lpm_rng_below(r, g->f->n)].pfx);
            break;
        default:
            out[i] = g->flows[zipf_draw(&g->z, r)];
            break;
        }
        g->last = out[i];
        g->started = 1;
    }
}

int lpm_trace_gen(const lpm_fib *f, const lpm_trace_opts *o, lpm_addr *out, lpm_err *err)
{
    lpm_tracegen *g;
    int rc = lpm_tracegen_new(&g, f, o, err);
    if (rc)
        return rc;
    lpm_tracegen_next(g, out, o->count);
    lpm_tracegen_free(g);
    return LPM_OK;
}
