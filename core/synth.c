/* Synthetic tables: a random unibit trie grown level by level so that each
 * level has the reference table's number of nodes, prefixes and leaf
 * prefixes (synth_model.c), then a uniform sample of exactly count of its
 * prefixes. Clustering comes from a weight every subtree inherits with
 * log-normal noise: heavy subtrees branch more and end less, so blocks of
 * siblings (many /24s under one /16-/22, /48s under a /32) form where real
 * tables have them. docs/synthetic.md gives the model and its figures. */
#include "synth.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rng.h"

/* Spread of the subtree weights and where covering prefixes go, per
 * family; tuned so that uniform samples of the model lose trie nodes the
 * way samples of the real tables do, and so that the nesting share is the
 * real one (docs/synthetic.md). */
typedef struct {
    unsigned from; /* weights spread from this depth on (the top is even) */
    double sigma;  /* log-normal spread of subtree weights per level */
    double agg;    /* covering prefixes go to subtrees weighted exp(agg*lw) */
} tuning;
static const tuning tune_v4 = { 6, 0.45, -0.5 }, tune_v6 = { 6, 0.25, 0.3 };
/* Chance that a prefix takes its parent subtree's next hop (blocks of one
 * customer share an exit); otherwise a fresh skewed draw. */
#define NH_INHERIT 0.75

typedef struct {
    lpm_addr a;
    double lw;     /* log weight of the subtree */
    uint32_t nh;   /* next hop its prefixes lean to */
    uint8_t flags; /* F_* */
} snode;

enum { F_PREFIX = 1, F_LEAF = 2, F_BRANCH = 4, F_DEAD = 8 };

typedef struct {
    double key;
    uint32_t i;
} kv;

static int kv_before(const kv *a, const kv *b)
{
    return a->key > b->key || (a->key == b->key && a->i < b->i);
}

/* Reorders v so that v[0..m) are the m largest keys (quickselect). */
static void top_m(kv *v, size_t n, size_t m)
{
    size_t lo = 0, hi = n;
    while (m > lo && m < hi && hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        kv t = v[mid];
        v[mid] = v[hi - 1];
        v[hi - 1] = t;
        size_t s = lo;
        for (size_t i = lo; i + 1 < hi; i++)
            if (kv_before(&v[i], &t)) {
                kv x = v[i];
                v[i] = v[s];
                v[s] = x;
                s++;
            }
        v[hi - 1] = v[s];
        v[s] = t;
        if (s + 1 == m || s == m)
            return;
        if (s > m)
            hi = s;
        else
            lo = s + 1;
    }
}

/* Gumbel-top-k: taking the m largest of lw + G, G Gumbel-distributed,
 * samples m items without replacement with probability proportional to
 * exp(lw). G comes from a table of 2^16 quantiles: the generator touches
 * millions of nodes and two logarithms each would dominate its time. */
#define GUMBEL_BITS 16

static void gumbel_table(double *t)
{
    for (unsigned i = 0; i < 1u << GUMBEL_BITS; i++)
        t[i] = -log(-log((i + 0.5) / (1u << GUMBEL_BITS)));
}

/* Approximately standard normal: Irwin-Hall sum of four 16-bit uniforms. */
static double normal(lpm_rng *r)
{
    uint64_t x = lpm_rng_next(r);
    double s = (double)(x & 0xFFFF) + (double)((x >> 16) & 0xFFFF) +
               (double)((x >> 32) & 0xFFFF) + (double)(x >> 48);
    return (s / 65536.0 - 2.0) * 1.7320508075688772;
}

/* Marks m nodes among those without `skip` flags with `flag`, weighted by
 * exp(sign * lw). */
static void mark(snode *s, size_t n, kv *k, size_t m, uint8_t skip, uint8_t flag,
                 double sign, lpm_rng *r, const double *gt)
{
    if (m == 0)
        return;
    size_t c = 0;
    for (size_t i = 0; i < n; i++)
        if (!(s[i].flags & skip))
            k[c++] = (kv){ sign * s[i].lw + gt[lpm_rng_next(r) >> (64 - GUMBEL_BITS)], (uint32_t)i };
    if (m > c)
        m = c;
    top_m(k, c, m);
    for (size_t i = 0; i < m; i++)
        s[k[i].i].flags |= flag;
}

/* The profile to grow: the reference itself up to its size; above it the
 * reference's nodes scaled by f, as far as each level can reach (every
 * internal node has one or two children, no level over 2^d), with the
 * reference's shares of prefixes and leaves at each level. Levels the cap
 * holds back are caught up by more branching below. */
static size_t plan(const lpm_fib_profile *ref, double f, unsigned w, lpm_fib_profile *p)
{
    if (f <= 1.0) {
        *p = *ref;
        return ref->prefixes;
    }
    memset(p, 0, sizeof *p);
    p->family = ref->family;
    size_t total = 0;
    for (unsigned d = 0; d <= w; d++) {
        if (d == 0) {
            p->nodes[0] = 1;
        } else {
            size_t in = p->nodes[d - 1] - p->leaves[d - 1];
            size_t hi = 2 * in;
            if (d < 63 && hi > (1ull << d))
                hi = 1ull << d;
            size_t want = (size_t)llround((double)ref->nodes[d] * f);
            p->nodes[d] = want < in ? in : want > hi ? hi : want;
        }
        size_t n = p->nodes[d];
        if (n == 0)
            break;
        double rn = (double)ref->nodes[d];
        size_t lf = rn > 0 ? (size_t)llround((double)ref->leaves[d] / rn * (double)n) : 0;
        size_t pl = rn > 0 ? (size_t)llround((double)ref->len[d] / rn * (double)n) : 0;
        if (pl > n)
            pl = n;
        if (lf > pl)
            lf = pl;
        if (d == w || ref->nodes[d + 1] == 0)
            pl = lf = n; /* nothing below: all leaves */
        p->len[d] = pl;
        p->leaves[d] = lf;
        total += pl;
    }
    p->prefixes = total;
    return total;
}

typedef struct {
    lpm_fib *f;
    lpm_rng *r;
    size_t want, left; /* selection sampling: keep want of the left to come */
    const double *cdf;
    unsigned k;
} emitter;

static uint32_t draw_nh(const emitter *e)
{
    double u = lpm_rng_double(e->r);
    unsigned lo = 0, hi = e->k - 1;
    while (lo < hi) {
        unsigned mid = (lo + hi) / 2;
        if (e->cdf[mid] > u)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

static int emit(emitter *e, const snode *s, unsigned d, int family, lpm_err *err)
{
    uint64_t keep = e->want;
    int take = e->left && lpm_rng_below(e->r, e->left) < keep;
    e->left--;
    if (!take)
        return LPM_OK;
    e->want--;
    lpm_prefix p = { s->a, (uint8_t)d, (uint8_t)family };
    uint32_t nh = lpm_rng_double(e->r) < NH_INHERIT ? s->nh : draw_nh(e);
    return lpm_fib_add(e->f, &p, nh, err);
}

/* Real IPv4 tables have 7 of the 8 /3 nodes: 224/3 (multicast and
 * reserved) is the missing one. At depth 2 the node 11 is made the one
 * that does not branch, by swapping flags with the node that was drawn. */
static void keep_off_class_de(snode *s, size_t n)
{
    size_t top = n, single = n;
    for (size_t i = 0; i < n; i++) {
        if ((s[i].a.hi >> 62) == 3)
            top = i;
        else if (!(s[i].flags & (F_BRANCH | F_LEAF | F_DEAD)))
            single = i;
    }
    if (top < n && single < n && (s[top].flags & F_BRANCH)) {
        uint8_t f = s[top].flags;
        s[top].flags = s[single].flags;
        s[single].flags = f;
    }
}

/* Grows the trie level by level and emits its prefixes. */
static int grow(const lpm_fib_profile *p, int family, emitter *e, lpm_err *err)
{
    unsigned w = lpm_family_bits(family);
    const tuning *tu = family == LPM_AF_INET6 ? &tune_v6 : &tune_v4;
    size_t cap = 1;
    for (unsigned d = 0; d <= w; d++)
        if (p->nodes[d] > cap)
            cap = p->nodes[d];
    snode *cur = malloc(cap * sizeof *cur), *nxt = malloc(cap * sizeof *nxt);
    kv *k = malloc(cap * sizeof *k);
    double *gt = malloc(((size_t)1 << GUMBEL_BITS) * sizeof *gt);
    int rc = LPM_OK;
    if (!cur || !nxt || !k || !gt) {
        rc = lpm_err_set(err, LPM_EFAIL, "synthetic table: out of memory");
        goto out;
    }
    gumbel_table(gt);
    size_t n = 1;
    cur[0] = (snode){ { 0, 0 }, 0.0, draw_nh(e), 0 };
    for (unsigned d = 0; d <= w && n > 0 && rc == LPM_OK; d++) {
        size_t leaves = p->leaves[d] < n ? p->leaves[d] : n;
        size_t inner = n - leaves;
        size_t pint = p->len[d] - leaves;
        size_t next = d < w ? p->nodes[d + 1] : 0;
        /* Light subtrees end, heavy ones branch and carry the covering
         * prefixes (aggregates over blocks). */
        mark(cur, n, k, leaves, 0, F_LEAF | F_PREFIX, -1.0, e->r, gt);
        mark(cur, n, k, pint, F_LEAF, F_PREFIX, tu->agg, e->r, gt);
        if (next >= inner)
            mark(cur, n, k, next - inner, F_LEAF, F_BRANCH, 1.0, e->r, gt);
        else
            mark(cur, n, k, inner - next, F_LEAF, F_DEAD, -1.0, e->r, gt);
        if (family == LPM_AF_INET && d == 2)
            keep_off_class_de(cur, n);
        size_t m = 0;
        for (size_t i = 0; i < n && rc == LPM_OK; i++) {
            snode *s = &cur[i];
            if (s->flags & F_PREFIX)
                rc = emit(e, s, d, family, err);
            if (s->flags & (F_LEAF | F_DEAD))
                continue;
            int both = (s->flags & F_BRANCH) != 0;
            unsigned side = (unsigned)(lpm_rng_next(e->r) >> 63);
            if (family == LPM_AF_INET6 && d < 3)
                side = d == 2; /* global unicast, 2000::/3 */
            if (family == LPM_AF_INET && d == 2 && (s->a.hi >> 62) == 3)
                side = 0; /* 192/3, not multicast and reserved 224/3 */
            for (unsigned c = 0; c < 2; c++) {
                if (!both && c != side)
                    continue;
                snode *t = &nxt[m++];
                t->a = s->a;
                lpm_addr_set_bit(&t->a, d, c);
                t->lw = s->lw + (d >= tu->from ? tu->sigma : 0.0) * normal(e->r);
                t->nh = lpm_rng_double(e->r) < NH_INHERIT ? s->nh : draw_nh(e);
                t->flags = 0;
            }
        }
        snode *x = cur;
        cur = nxt;
        nxt = x;
        n = m;
        if (n > cap) { /* cannot happen with a consistent plan */
            rc = lpm_err_set(err, LPM_EFAIL, "synthetic table: inconsistent level plan at /%u", d + 1);
            break;
        }
    }
out:
    free(cur);
    free(nxt);
    free(k);
    free(gt);
    return rc;
}

int lpm_synth_fib(lpm_fib *f, int family, size_t count, uint64_t seed,
                  unsigned next_hops, lpm_err *err)
{
    if (family != LPM_AF_INET && family != LPM_AF_INET6)
        return lpm_err_set(err, LPM_EINPUT, "synthetic table: family must be 4 or 6, not %d", family);
    if (count == 0 || count > LPM_SYNTH_MAX_COUNT)
        return lpm_err_set(err, LPM_EINPUT, "synthetic table: count %zu is not in 1..%u",
                           count, LPM_SYNTH_MAX_COUNT);
    if (next_hops == 0)
        next_hops = 32;
    if (next_hops > LPM_SYNTH_MAX_NEXT_HOPS)
        return lpm_err_set(err, LPM_EINPUT, "synthetic table: %u next hops is more than %u",
                           next_hops, LPM_SYNTH_MAX_NEXT_HOPS);
    if (f->n != 0)
        return lpm_err_set(err, LPM_EINPUT, "synthetic table: the FIB is not empty");

    lpm_fib_profile ref, p;
    lpm_synth_reference(family, &ref);
    unsigned w = lpm_family_bits(family);
    double scale = (double)count / (double)ref.prefixes;
    size_t total = plan(&ref, scale, w, &p);
    for (int i = 0; total < count; i++) { /* capped levels: grow a little more */
        if (i == 1000)
            return lpm_err_set(err, LPM_EINPUT, "synthetic table: the model cannot reach %zu prefixes", count);
        scale *= 1.01;
        total = plan(&ref, scale, w, &p);
    }

    /* Skewed next hops: Zipf(1) over nh0..nhK-1, interned in order so that
     * index i is "nh<i>". */
    double *cdf = malloc(next_hops * sizeof *cdf);
    if (!cdf)
        return lpm_err_set(err, LPM_EFAIL, "synthetic table: out of memory");
    double sum = 0;
    for (unsigned i = 0; i < next_hops; i++)
        sum += 1.0 / (i + 1);
    double acc = 0;
    for (unsigned i = 0; i < next_hops; i++) {
        acc += 1.0 / (i + 1) / sum;
        cdf[i] = acc;
    }
    cdf[next_hops - 1] = 1.0;
    int rc = LPM_OK;
    for (unsigned i = 0; i < next_hops && rc == LPM_OK; i++) {
        char tok[16];
        int len = snprintf(tok, sizeof tok, "nh%u", i);
        if (lpm_nhtab_intern(&f->nh, tok, (size_t)len) != i)
            rc = lpm_err_set(err, LPM_EFAIL, "synthetic table: out of memory");
    }
    lpm_rng r;
    lpm_rng_seed(&r, seed ^ ((uint64_t)family << 56));
    emitter e = { f, &r, count, total, cdf, next_hops };
    if (rc == LPM_OK)
        rc = grow(&p, family, &e, err);
    if (rc == LPM_OK && f->n != count)
        rc = lpm_err_set(err, LPM_EFAIL, "synthetic table: made %zu prefixes, not %zu", f->n, count);
    if (rc == LPM_OK)
        rc = lpm_fib_finish(f, err);
    free(cdf);
    if (rc != LPM_OK) {
        lpm_fib_free(f);
        lpm_fib_init(f);
    }
    return rc;
}
