#include "naa.h"

#include <stdlib.h>
#include <string.h>

#define NONE LPM_NM_NONE
#define SCAN_LIMIT 256 /* free slots tried in one ATA before trying elsewhere */
#define YMAX 1024

void lpm_naa_default_opts(lpm_naa_opts *o, int mata)
{
    memset(o, 0, sizeof *o);
    o->mata = mata;
    o->stride = mata ? 4 : 1;
    o->primes[0] = 1048573;
    o->primes[1] = 4194301;
    o->primes[2] = 16777213;
    o->max_entries = 1ULL << 26;
    o->fanout_max = LPM_NTRIE_FANOUT_DEFAULT;
}

static int is_used(const lpm_naa *a, uint64_t i)
{
    return i < a->n && ((a->used[i >> 3] >> (i & 7)) & 1);
}

static void set_used(lpm_naa *a, uint64_t i, int v)
{
    if (v)
        a->used[i >> 3] |= (uint8_t)(1u << (i & 7));
    else
        a->used[i >> 3] &= (uint8_t)~(1u << (i & 7));
}

static int occ(const lpm_naa *a, uint64_t i)
{
    return i < a->n && a->e[i].check;
}

/* Makes slots [0, need) exist (zeroed). */
static int ensure(lpm_naa *a, uint64_t need)
{
    if (need <= a->n)
        return 0;
    if (need > a->cap) {
        uint64_t c = a->cap ? a->cap : 4096;
        while (c < need)
            c *= 2;
        lpm_nm_entry *e = realloc(a->e, c * sizeof *e);
        if (!e)
            return -1;
        a->e = e;
        uint8_t *u = realloc(a->used, c / 8 + 1);
        if (!u)
            return -1;
        a->used = u;
        uint32_t *nf = realloc(a->nf, c * sizeof *nf);
        if (!nf)
            return -1;
        a->nf = nf;
        a->used = u;
        memset(a->used + a->cap / 8, 0, c / 8 + 1 - a->cap / 8);
        a->cap = c;
    }
    memset(a->e + a->n, 0, (need - a->n) * sizeof *a->e);
    for (uint64_t i = a->n; i < need; i++) {
        set_used(a, i, 0);
        a->nf[i] = (uint32_t)i; /* the plain ATA's region starts at 0 */
    }
    a->n = need;
    return 0;
}

static uint64_t slot_of(const lpm_naa *a, uint32_t sid, uint32_t y)
{
    if (!a->o.mata)
        return (uint64_t)sid + y;
    const lpm_nm_ata_desc *d = &a->ata[sid >> LPM_NM_ATA_BITS];
    return d->start + ((uint64_t)(sid & ((1u << LPM_NM_ATA_BITS) - 1)) + y) % d->len;
}

static uint64_t base_index(const lpm_naa *a, uint32_t sid)
{
    if (!a->o.mata)
        return sid;
    return a->ata[sid >> LPM_NM_ATA_BITS].start + (sid & ((1u << LPM_NM_ATA_BITS) - 1));
}

static int new_ata(lpm_naa *a, uint32_t len)
{
    if (a->nata >= LPM_NM_MAX_ATAS)
        return -1;
    uint64_t start = a->n;
    if (ensure(a, start + len))
        return -1;
    a->ata[a->nata] = (lpm_nm_ata_desc){ start, len, 0 };
    a->low[a->nata] = 0;
    a->top[a->nata] = 0;
    for (uint32_t j = 0; j < len; j++)
        a->nf[start + j] = j;
    return (int)a->nata++;
}

/* Inputs of node x: 0 for its port slot, then its children's. */
static unsigned inputs(const lpm_naa *a, uint32_t x, uint32_t *y, uint32_t skip_child, int skip_port)
{
    const lpm_nnode *v = a->trie.v;
    unsigned k = 0;
    if (v[x].port != NONE && !skip_port)
        y[k++] = 0;
    for (uint32_t c = v[x].child; c != NONE && k < YMAX; c = v[c].next)
        if (c != skip_child)
            y[k++] = v[c].y;
    return k;
}

/* Next free slot at or after local index i of a region (union-find with
 * path halving: an occupied slot points past itself). Returns the region's
 * length when none (plain ATA: slots past its end are free). */
static uint64_t nf_find(lpm_naa *a, uint64_t start, uint64_t L, uint64_t i)
{
    uint64_t lim = L ? L : a->n;
    if (i >= lim)
        return i; /* also keeps an empty table's NULL nf out of the arithmetic */
    uint32_t *p = a->nf + start;
    while (i < lim && p[i] != i) {
        uint64_t j = p[i];
        if (j < lim && p[j] != j)
            p[i] = p[j];
        i = p[i];
    }
    return i;
}

/* Tries bases in one region: start, length L (0: the growing plain ATA).
 * Returns the local base or UINT64_MAX. */
static uint64_t try_region(lpm_naa *a, uint64_t start, uint64_t L, uint64_t *low, uint64_t top,
                           const uint32_t *y, unsigned k)
{
    uint32_t ymin = k ? y[0] : 0;
    for (unsigned j = 1; j < k; j++)
        if (y[j] < ymin)
            ymin = y[j];
    uint64_t pos = nf_find(a, start, L, L ? *low : (*low > ymin ? *low : ymin)), tried = 0;
    uint64_t give_up = UINT64_MAX;
    int jumped = 0;
    for (;;) {
        /* Holes that kept failing even one-input states are given up (a
         * vacated slot below reopens them): keeps the scan short. */
        if (tried == 16)
            give_up = pos;
        if (k <= 2 && tried == 64 && give_up > *low)
            *low = give_up;
        if (L && pos >= L)
            return UINT64_MAX;
        if (++tried > SCAN_LIMIT) {
            /* MATA: once more past the narrow states (only scattered wide
             * states' slots lie there). */
            if (L && !jumped && top < L && top > pos) {
                jumped = 1;
                tried = 0;
                pos = nf_find(a, start, L, top);
                continue;
            }
            if (L)
                return UINT64_MAX;
            /* The plain ATA: go to its end, where everything is free. */
            if (pos < a->n)
                pos = a->n;
        }
        uint64_t base = L ? (pos + L - ymin % L) % L : pos - ymin;
        int ok = !is_used(a, start + base);
        for (unsigned j = 0; ok && j < k; j++)
            ok = !occ(a, start + (L ? (base + y[j]) % L : base + y[j]));
        if (ok)
            return base;
        pos = pos + 1 < a->n - start || !L ? nf_find(a, start, L, pos + 1) : L;
    }
}

static int cmp_u64(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return (a > b) - (a < b);
}

static int self_collides(const uint32_t *y, unsigned k, uint32_t L)
{
    uint64_t r[YMAX];
    for (unsigned j = 0; j < k; j++)
        r[j] = y[j] % L;
    qsort(r, k, sizeof r[0], cmp_u64);
    for (unsigned j = 1; j < k; j++)
        if (r[j] == r[j - 1])
            return 1;
    return 0;
}

/* Marks global slot g taken (check set by the caller). */
static void occupy(lpm_naa *a, uint64_t g)
{
    uint64_t start = 0;
    if (a->o.mata)
        for (unsigned ai = 0; ai < a->nata; ai++)
            if (g >= a->ata[ai].start && g < a->ata[ai].start + a->ata[ai].len)
                start = a->ata[ai].start;
    a->nf[g] = (uint32_t)(g - start + 1);
    a->occupied++;
}

/* Finds a base for inputs y, reserves the slots (placeholder checks) and
 * the base; returns the state id or NONE. */
static uint32_t place(lpm_naa *a, const uint32_t *y, unsigned k)
{
    uint32_t sid = NONE;
    unsigned ai = 0;
    if (!a->o.mata) {
        uint64_t b = try_region(a, 0, 0, &a->low[0], 0, y, k);
        uint64_t top = b;
        for (unsigned j = 0; j < k; j++)
            if (b + y[j] > top)
                top = b + y[j];
        if (b >= NONE || top + 1 > a->o.max_entries || ensure(a, top + 1))
            return NONE;
        sid = (uint32_t)b;
    } else {
        for (unsigned pi = 0; pi < LPM_NAA_MAX_PRIMES && a->o.primes[pi] && sid == NONE; pi++) {
            uint32_t L = a->o.primes[pi];
            if (self_collides(y, k, L))
                continue;
            for (ai = 0; ai < a->nata && sid == NONE; ai++) {
                if (a->ata[ai].len != L || nf_find(a, a->ata[ai].start, L, a->low[ai]) >= L)
                    continue;
                uint64_t b = try_region(a, a->ata[ai].start, L, &a->low[ai], a->top[ai], y, k);
                if (b != UINT64_MAX)
                    sid = (ai << LPM_NM_ATA_BITS) | (uint32_t)b;
            }
            if (sid == NONE) {
                int na = new_ata(a, L);
                if (na < 0)
                    continue;
                ai = (unsigned)na;
                uint64_t b = try_region(a, a->ata[ai].start, L, &a->low[ai], a->top[ai], y, k);
                if (b != UINT64_MAX)
                    sid = (ai << LPM_NM_ATA_BITS) | (uint32_t)b;
            }
        }
        if (sid == NONE)
            return NONE;
    }
    set_used(a, base_index(a, sid), 1);
    uint32_t ymax = 0;
    for (unsigned j = 0; j < k; j++) {
        uint64_t g = slot_of(a, sid, y[j]);
        a->e[g].check = LPM_NM_PORTMARK;
        occupy(a, g);
        ymax = y[j] > ymax ? y[j] : ymax;
    }
    if (a->o.mata && k) {
        unsigned ai = sid >> LPM_NM_ATA_BITS;
        uint64_t b = sid & ((1u << LPM_NM_ATA_BITS) - 1), end = b + ymax + 1;
        if (end < a->ata[ai].len && end > a->top[ai])
            a->top[ai] = end;
    }
    return sid;
}

static void vacate(lpm_naa *a, uint64_t i)
{
    if (!a->e[i].check)
        return;
    a->e[i] = (lpm_nm_entry){ 0, 0 };
    a->occupied--;
    /* A root again; scans that compressed past it may miss it: fine. */
    uint64_t start = 0;
    unsigned r = 0;
    if (a->o.mata)
        for (unsigned ai = 0; ai < a->nata; ai++)
            if (i >= a->ata[ai].start && i < a->ata[ai].start + a->ata[ai].len) {
                start = a->ata[ai].start;
                r = ai;
            }
    a->nf[i] = (uint32_t)(i - start);
    if (i - start < a->low[r])
        a->low[r] = i - start;
}

static uint32_t flags(const lpm_nnode *c)
{
    return c->y | (c->port != NONE ? LPM_NM_ACC : 0) | ((uint32_t)(c->stride - 1) << LPM_NM_STRIDE_SHIFT);
}

/* Writes every entry of node x at its sid. */
static void write_node(lpm_naa *a, uint32_t x)
{
    const lpm_nnode *v = a->trie.v;
    if (v[x].port != NONE)
        a->e[slot_of(a, v[x].sid, 0)] = (lpm_nm_entry){ LPM_NM_PORTMARK, v[x].port };
    for (uint32_t c = v[x].child; c != NONE; c = v[c].next)
        a->e[slot_of(a, v[x].sid, v[c].y)] = (lpm_nm_entry){ flags(&v[c]), v[c].sid };
}

/* The entry that leads into x (its flags or its target changed). */
static void write_incoming(lpm_naa *a, uint32_t x)
{
    const lpm_nnode *v = a->trie.v;
    if (x == 0)
        return; /* the root's id and port live in the view */
    a->e[slot_of(a, v[v[x].parent].sid, v[x].y)] = (lpm_nm_entry){ flags(&v[x]), v[x].sid };
}

static int place_node(lpm_naa *a, uint32_t x)
{
    uint32_t y[YMAX];
    unsigned k = inputs(a, x, y, NONE, 0);
    if (a->trie.v[x].nchild + 1 > YMAX)
        return -1;
    uint32_t sid = place(a, y, k);
    if (sid == NONE)
        return -1;
    a->trie.v[x].sid = sid;
    return 0;
}

/* Moves x to a new base holding all its current inputs; the old slots are
 * those of its inputs minus new_child / the new port slot. */
static int relocate(lpm_naa *a, uint32_t x, uint32_t new_child, int new_port)
{
    uint32_t old[YMAX];
    unsigned ko = inputs(a, x, old, new_child, new_port);
    uint32_t old_sid = a->trie.v[x].sid;
    if (place_node(a, x))
        return -1;
    write_node(a, x);
    for (unsigned j = 0; j < ko; j++)
        vacate(a, slot_of(a, old_sid, old[j]));
    set_used(a, base_index(a, old_sid), 0);
    write_incoming(a, x);
    a->relocations++;
    return 0;
}

int lpm_naa_build(lpm_naa *a, const lpm_ntable *tab, const lpm_naa_opts *o, lpm_err *err)
{
    memset(a, 0, sizeof *a);
    a->o = *o;
    if (o->stride < 1 || o->stride > LPM_NM_MAXSTRIDE)
        return lpm_err_set(err, LPM_EINPUT, "stride %u is not in 1..4", o->stride);
    if (o->mata) {
        if (!o->primes[0])
            return lpm_err_set(err, LPM_EINPUT, "MATA needs at least one prime length");
        for (unsigned i = 0; i < LPM_NAA_MAX_PRIMES && o->primes[i]; i++)
            if (o->primes[i] > (1u << LPM_NM_ATA_BITS) || o->primes[i] < 97)
                return lpm_err_set(err, LPM_EINPUT, "MATA length %u is not in 97..%u", o->primes[i],
                                   1u << LPM_NM_ATA_BITS);
    }
    int rc = lpm_ntrie_build(&a->trie, tab, o->stride, o->fanout_max, err);
    if (rc)
        return rc;
    if (o->mata && new_ata(a, o->primes[0]) < 0) {
        lpm_naa_free(a);
        return lpm_err_set(err, LPM_EFAIL, "out of memory");
    }
    /* States with the most inputs first, while the arrays are empty (first
     * fit decreasing, as Tarjan and Yao pack rows); breadth-first among
     * equals. Then every entry. */
    uint32_t *q = malloc((size_t)a->trie.n * 2 * sizeof *q);
    if (!q) {
        lpm_naa_free(a);
        return lpm_err_set(err, LPM_EFAIL, "out of memory");
    }
    uint32_t *ord = q + a->trie.n;
    size_t qh = 0, qt = 0, cnt[YMAX + 2] = { 0 };
    q[qt++] = 0;
    while (qh < qt) {
        uint32_t x = q[qh++];
        for (uint32_t c = a->trie.v[x].child; c != NONE; c = a->trie.v[c].next)
            q[qt++] = c;
    }
    for (size_t i = 0; i < qt; i++) {
        const lpm_nnode *x = &a->trie.v[q[i]];
        uint32_t k = x->nchild + (x->port != NONE);
        cnt[k > YMAX ? YMAX : YMAX - k]++;
    }
    for (size_t k = 1; k < YMAX + 2; k++)
        cnt[k] += cnt[k - 1];
    for (size_t i = qt; i-- > 0;) {
        const lpm_nnode *x = &a->trie.v[q[i]];
        uint32_t k = x->nchild + (x->port != NONE);
        ord[--cnt[k > YMAX ? YMAX : YMAX - k]] = q[i];
    }
    for (size_t i = 0; i < qt; i++) {
        if (place_node(a, ord[i])) {
            free(q);
            lpm_naa_free(a);
            return lpm_err_set(err, LPM_EFAIL,
                               o->mata ? "MATA: a state fits no ATA (more ATAs or other primes needed, --primes)"
                                       : "ATA: more than %llu entries needed (use --engine mata, or a smaller --stride)",
                               (unsigned long long)o->max_entries);
        }
    }
    for (size_t i = 0; i < qt; i++)
        write_node(a, q[i]);
    free(q);
    return 0;
}

void lpm_naa_free(lpm_naa *a)
{
    lpm_ntrie_free(&a->trie);
    free(a->e);
    free(a->used);
    free(a->nf);
    memset(a, 0, sizeof *a);
}

void lpm_naa_view(const lpm_naa *a, lpm_nm_view *v)
{
    v->e = a->e;
    v->n = a->n;
    v->ata = a->ata;
    v->mata = (uint32_t)a->o.mata;
    v->root = a->trie.v[0].sid;
    v->root_port = a->trie.v[0].port;
    v->root_stride = a->trie.v[0].stride;
}

uint32_t lpm_naa_lookup(const lpm_naa *a, const char *s, size_t len)
{
    lpm_nm_view v;
    lpm_naa_view(a, &v);
    return lpm_nm_lookup(&v, s, (uint32_t)len);
}

int lpm_naa_insert(lpm_naa *a, const char *s, size_t len, uint32_t port, lpm_err *err)
{
    uint32_t first, x = lpm_ntrie_find(&a->trie, s, len);
    if (x != NONE) {
        lpm_nnode *v = &a->trie.v[x];
        int had = v->port != NONE;
        v->port = port;
        if (x == 0)
            return 0;
        if (had) {
            a->e[slot_of(a, v->sid, 0)].next = port;
            return 0;
        }
        uint64_t i = slot_of(a, v->sid, 0);
        if (!occ(a, i) && !ensure(a, i + 1)) {
            a->e[i] = (lpm_nm_entry){ LPM_NM_PORTMARK, port };
            occupy(a, i);
        } else if (relocate(a, x, NONE, 1)) {
            goto full;
        }
        write_incoming(a, x);
        return 0;
    }
    x = lpm_ntrie_insert(&a->trie, s, len, port, &first);
    if (x == NONE)
        return lpm_err_set(err, LPM_EFAIL, "out of memory");
    /* The new chain, from its leaf up to its first node. */
    for (uint32_t c = x;; c = a->trie.v[c].parent) {
        if (place_node(a, c))
            goto full;
        write_node(a, c);
        if (c == first)
            break;
    }
    uint32_t p = a->trie.v[first].parent;
    uint64_t i = slot_of(a, a->trie.v[p].sid, a->trie.v[first].y);
    if (!occ(a, i) && (a->o.mata || (i < a->o.max_entries && !ensure(a, i + 1)))) {
        a->e[i].check = 1;
        occupy(a, i);
        write_incoming(a, first);
        return 0;
    }
    if (relocate(a, p, first, 0))
        goto full;
    return 0;
full:
    return lpm_err_set(err, LPM_EFAIL, "%s full: no room for /%.*s (rebuild with more room)",
                       a->o.mata ? "MATA" : "ATA", (int)len, s);
}

static void on_unport(void *ctx, uint32_t x)
{
    lpm_naa *a = ctx;
    if (x == 0)
        return;
    vacate(a, slot_of(a, a->trie.v[x].sid, 0));
    write_incoming(a, x);
}

static void on_remove(void *ctx, uint32_t x)
{
    lpm_naa *a = ctx;
    const lpm_nnode *v = a->trie.v;
    vacate(a, slot_of(a, v[v[x].parent].sid, v[x].y));
    set_used(a, base_index(a, v[x].sid), 0);
}

int lpm_naa_delete(lpm_naa *a, const char *s, size_t len)
{
    return lpm_ntrie_delete(&a->trie, s, len, on_unport, on_remove, a);
}

uint64_t lpm_naa_bytes(const lpm_naa *a)
{
    return a->n * sizeof(lpm_nm_entry) + (a->o.mata ? a->nata * sizeof(lpm_nm_ata_desc) : 0);
}
