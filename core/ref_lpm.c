#include "ref_lpm.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    uint64_t hi, lo;
    uint32_t nh;
    uint32_t used;
} slot;

typedef struct {
    slot *s;
    size_t n, cap; /* cap is a power of two or 0 */
} table;

/* maxlen[b] bounds the length of every prefix that can match an address
 * whose top 20 bits are b. It only ever grows (a delete leaves it as it is),
 * so it stays a true upper bound: lookups simply skip the lengths above it,
 * which no prefix under that block can have (1 MiB of bounds). Most blocks hold nothing
 * longer than /24 (IPv4) or /48 (IPv6), so the probes for longer lengths,
 * nearly always misses, are skipped. */
#define BLOCK_BITS 20

struct lpm_ref {
    int family;
    uint8_t maxlen[1u << BLOCK_BITS];
    table t[129];
    int present[129]; /* lengths in use, longest first */
    int npresent;
    size_t count;
};

static uint64_t mix(uint64_t hi, uint64_t lo, unsigned len)
{
    uint64_t h = hi * 0x9E3779B97F4A7C15ULL ^ (lo + 0x632BE59BD9B4E019ULL + len);
    h ^= h >> 29;
    h *= 0xBF58476D1CE4E5B9ULL;
    h ^= h >> 32;
    return h;
}

lpm_ref *lpm_ref_new(int family)
{
    lpm_ref *r = calloc(1, sizeof *r);
    if (r)
        r->family = family;
    return r;
}

void lpm_ref_free(lpm_ref *r)
{
    if (!r)
        return;
    for (int i = 0; i < 129; i++)
        free(r->t[i].s);
    free(r);
}

static void refresh_present(lpm_ref *r)
{
    r->npresent = 0;
    for (int l = 128; l >= 0; l--)
        if (r->t[l].n)
            r->present[r->npresent++] = l;
}

static slot *find(const table *t, uint64_t hi, uint64_t lo, unsigned len)
{
    if (!t->cap)
        return NULL;
    size_t m = t->cap - 1, i = (size_t)mix(hi, lo, len) & m;
    for (;;) {
        slot *s = &t->s[i];
        if (!s->used)
            return NULL;
        if (s->hi == hi && s->lo == lo)
            return s;
        i = (i + 1) & m;
    }
}

static int insert_raw(table *t, uint64_t hi, uint64_t lo, unsigned len, uint32_t nh)
{
    size_t m = t->cap - 1, i = (size_t)mix(hi, lo, len) & m;
    while (t->s[i].used) {
        if (t->s[i].hi == hi && t->s[i].lo == lo) {
            t->s[i].nh = nh;
            return 0;
        }
        i = (i + 1) & m;
    }
    t->s[i].hi = hi;
    t->s[i].lo = lo;
    t->s[i].nh = nh;
    t->s[i].used = 1;
    t->n++;
    return 1;
}

static int grow(table *t, unsigned len)
{
    size_t nc = t->cap ? t->cap * 2 : 16;
    slot *ns = calloc(nc, sizeof *ns);
    if (!ns)
        return -1;
    table nt = { ns, 0, nc };
    for (size_t i = 0; i < t->cap; i++)
        if (t->s[i].used)
            insert_raw(&nt, t->s[i].hi, t->s[i].lo, len, t->s[i].nh);
    free(t->s);
    *t = nt;
    return 0;
}

static void raise_bound(lpm_ref *r, const lpm_prefix *p)
{
    uint32_t first = (uint32_t)lpm_addr_bits(&p->addr, 0, BLOCK_BITS);
    uint32_t n = p->len >= BLOCK_BITS ? 1u : 1u << (BLOCK_BITS - p->len);
    for (uint32_t b = first; b < first + n; b++)
        if (r->maxlen[b] < p->len)
            r->maxlen[b] = p->len;
}

int lpm_ref_add(lpm_ref *r, const lpm_prefix *p, uint32_t nh)
{
    table *t = &r->t[p->len];
    if ((t->n + 1) * 2 > t->cap && grow(t, p->len))
        return LPM_EFAIL;
    size_t before = t->n;
    /* A prefix already present has raised its bound: a short one spans up
     * to 2^20 blocks, so re-adding it (updates, trie-node sets) must not. */
    if (insert_raw(t, p->addr.hi, p->addr.lo, p->len, nh)) {
        r->count++;
        raise_bound(r, p);
    }
    if (before == 0 && t->n)
        refresh_present(r);
    return LPM_OK;
}

int lpm_ref_del(lpm_ref *r, const lpm_prefix *p)
{
    table *t = &r->t[p->len];
    slot *s = find(t, p->addr.hi, p->addr.lo, p->len);
    if (!s)
        return 0;
    /* Backward-shift deletion keeps linear probing chains intact. */
    size_t m = t->cap - 1, i = (size_t)(s - t->s), j = i;
    for (;;) {
        j = (j + 1) & m;
        if (!t->s[j].used)
            break;
        size_t home = (size_t)mix(t->s[j].hi, t->s[j].lo, p->len) & m;
        /* Move j into the hole at i unless its home lies in (i, j]. */
        int in_range = i <= j ? (home > i && home <= j) : (home > i || home <= j);
        if (!in_range) {
            t->s[i] = t->s[j];
            i = j;
        }
    }
    t->s[i].used = 0;
    t->n--;
    r->count--;
    if (t->n == 0)
        refresh_present(r);
    return 1;
}

uint32_t lpm_ref_get(const lpm_ref *r, const lpm_prefix *p)
{
    const slot *s = find(&r->t[p->len], p->addr.hi, p->addr.lo, p->len);
    return s ? s->nh : LPM_NH_NONE;
}

uint32_t lpm_ref_lookup(const lpm_ref *r, const lpm_addr *a, int *len)
{
    int bound = r->maxlen[lpm_addr_bits(a, 0, BLOCK_BITS)];
    int k = 0;
    while (k < r->npresent && r->present[k] > bound)
        k++;
    for (; k < r->npresent; k++) {
        unsigned l = (unsigned)r->present[k];
        lpm_addr m = lpm_addr_mask(a, l);
        const slot *s = find(&r->t[l], m.hi, m.lo, l);
        if (s) {
            if (len)
                *len = (int)l;
            return s->nh;
        }
    }
    if (len)
        *len = -1;
    return LPM_NH_NONE;
}

/* Same answers as lpm_ref_lookup, one by one; first touching, for a group
 * of addresses, the slot each one's first probe will read, so their cache
 * misses overlap instead of queueing. */
#define GROUP 16
void lpm_ref_lookup_batch(const lpm_ref *r, const lpm_addr *a, uint32_t *nh, size_t n)
{
    for (size_t i = 0; i < n; i += GROUP) {
        size_t m = n - i < GROUP ? n - i : GROUP;
        for (size_t j = 0; j < m; j++) {
            const lpm_addr *x = &a[i + j];
            int bound = r->maxlen[lpm_addr_bits(x, 0, BLOCK_BITS)];
            int k = 0;
            while (k < r->npresent && r->present[k] > bound)
                k++;
            if (k == r->npresent)
                continue;
            unsigned l = (unsigned)r->present[k];
            const table *t = &r->t[l];
            lpm_addr mk = lpm_addr_mask(x, l);
            __builtin_prefetch(&t->s[(size_t)mix(mk.hi, mk.lo, l) & (t->cap - 1)]);
        }
        for (size_t j = 0; j < m; j++)
            nh[i + j] = lpm_ref_lookup(r, &a[i + j], NULL);
    }
}

int lpm_ref_build(lpm_ref **out, const lpm_fib *f, lpm_err *err)
{
    lpm_ref *r = lpm_ref_new(f->family ? f->family : LPM_AF_INET);
    if (!r)
        return lpm_err_set(err, LPM_EFAIL, "out of memory");
    for (size_t i = 0; i < f->n; i++)
        if (lpm_ref_add(r, &f->routes[i].pfx, f->routes[i].nh)) {
            lpm_ref_free(r);
            return lpm_err_set(err, LPM_EFAIL, "out of memory");
        }
    *out = r;
    return LPM_OK;
}

size_t lpm_ref_count(const lpm_ref *r)
{
    return r->count;
}

size_t lpm_ref_memory(const lpm_ref *r)
{
    size_t m = sizeof *r;
    for (int i = 0; i < 129; i++)
        m += r->t[i].cap * sizeof(slot);
    return m;
}
