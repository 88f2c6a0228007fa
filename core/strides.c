/* Stride arrays: parsing and formatting, and the two selection algorithms
 * (Srinivasan-Varghese minimum memory, GAMT Algorithm 3). Both work on the
 * expansion counts of a unibit trie: nodes[d] = multibit nodes a level
 * starting at depth d would hold (see lpm_strides_node_counts). A level
 * starting at depth k with stride s costs nodes[k] * 2^s entries. */
#include <stdio.h>
#include <string.h>

#include "trie_multibit.h"

#define INF UINT64_MAX

static int check_one(int family, unsigned sum, unsigned levels, lpm_err *err)
{
    if (family != LPM_AF_INET && family != LPM_AF_INET6)
        return lpm_err_set(err, LPM_EINPUT, "strides: unknown family %d", family);
    if (levels == 0 || levels > LPM_MAX_LEVELS)
        return lpm_err_set(err, LPM_EINPUT, "strides: %u levels (1..%d allowed)", levels, LPM_MAX_LEVELS);
    if (sum > lpm_family_bits(family))
        return lpm_err_set(err, LPM_EINPUT, "strides: they sum to %u bits, more than IPv%d's %u",
                           sum, family, lpm_family_bits(family));
    return LPM_OK;
}

int lpm_strides_fixed(int family, const unsigned *strides, unsigned levels,
                      lpm_strides *st, lpm_err *err)
{
    if (levels == 0 || levels > LPM_MAX_LEVELS)
        return lpm_err_set(err, LPM_EINPUT, "strides: %u levels (1..%d allowed)", levels, LPM_MAX_LEVELS);
    unsigned sum = 0;
    for (unsigned i = 0; i < levels; i++) {
        if (strides[i] < 1 || strides[i] > LPM_MAX_STRIDE)
            return lpm_err_set(err, LPM_EINPUT, "strides: stride %u of level %u is outside 1..%d",
                               strides[i], i, LPM_MAX_STRIDE);
        sum += strides[i];
    }
    int rc = check_one(family, sum, levels, err);
    if (rc)
        return rc;
    memset(st, 0, sizeof *st);
    st->levels = levels;
    for (unsigned i = 0; i < levels; i++)
        st->stride[i] = (uint8_t)strides[i];
    return LPM_OK;
}

int lpm_strides_parse(int family, const char *s, lpm_strides *st, lpm_err *err)
{
    unsigned v[LPM_MAX_LEVELS], n = 0;
    const char *p = s;
    if (!*p)
        return lpm_err_set(err, LPM_EINPUT, "strides: empty (want e.g. 16-8-8 or 8,8,8,8)");
    for (;;) {
        if (*p < '0' || *p > '9')
            return lpm_err_set(err, LPM_EINPUT, "strides: '%s': expected a number at '%s'", s, p);
        unsigned x = 0;
        while (*p >= '0' && *p <= '9') {
            x = x * 10 + (unsigned)(*p++ - '0');
            if (x > 1000)
                return lpm_err_set(err, LPM_EINPUT, "strides: '%s': stride too large", s);
        }
        if (n == LPM_MAX_LEVELS)
            return lpm_err_set(err, LPM_EINPUT, "strides: '%s': more than %d levels", s, LPM_MAX_LEVELS);
        v[n++] = x;
        if (!*p)
            break;
        if (*p != '-' && *p != ',')
            return lpm_err_set(err, LPM_EINPUT, "strides: '%s': unexpected '%c' (separate with - or ,)", s, *p);
        p++;
    }
    return lpm_strides_fixed(family, v, n, st, err);
}

void lpm_strides_format(const lpm_strides *st, char *buf, size_t size)
{
    size_t k = 0;
    if (size)
        buf[0] = '\0';
    for (unsigned i = 0; i < st->levels && k < size; i++) {
        int w = snprintf(buf + k, size - k, i ? "-%u" : "%u", st->stride[i]);
        if (w < 0)
            return;
        k += (size_t)w;
    }
}

unsigned lpm_strides_sum(const lpm_strides *st)
{
    unsigned s = 0;
    for (unsigned i = 0; i < st->levels; i++)
        s += st->stride[i];
    return s;
}

void lpm_strides_node_counts(const lpm_unibit *t, uint64_t counts[129])
{
    memset(counts, 0, 129 * sizeof counts[0]);
    counts[0] = 1; /* the root node exists even for an empty table */
    if (!t->node || t->n == 0)
        return;
    /* Walk the trie from the root: freed slots are unreachable. */
    uint32_t stack[130];
    size_t sp = 0;
    stack[sp++] = 0;
    while (sp) {
        const lpm_unode *u = &t->node[stack[--sp]];
        if (u->child[0] || u->child[1]) {
            if (u->depth > 0)
                counts[u->depth]++;
            for (int b = 0; b < 2; b++)
                if (u->child[b])
                    stack[sp++] = u->child[b];
        }
    }
}

/* Entries of a level from depth k with stride s; INF when it overflows. */
static uint64_t level_size(const uint64_t *nodes, unsigned k, unsigned s)
{
    uint64_t n = nodes[k];
    if (n && n > (INF >> s))
        return INF;
    return n << s;
}

static uint64_t sat_add(uint64_t a, uint64_t b)
{
    return a > INF - b ? INF : a + b;
}

static int check_dp(unsigned width, unsigned levels, lpm_err *err)
{
    if (width == 0 || width > 128)
        return lpm_err_set(err, LPM_EINPUT, "strides: width %u outside 1..128", width);
    if (levels == 0 || levels > LPM_MAX_LEVELS || levels > width)
        return lpm_err_set(err, LPM_EINPUT, "strides: %u levels for %u bits (1..%u allowed)",
                           levels, width, width < LPM_MAX_LEVELS ? width : LPM_MAX_LEVELS);
    if (levels * LPM_MAX_STRIDE < width)
        return lpm_err_set(err, LPM_EINPUT, "strides: %u levels cannot cover %u bits with strides of at most %d",
                           levels, width, LPM_MAX_STRIDE);
    return LPM_OK;
}

/* Backtrack: from[s][l] is the depth where level s (1-based) starts. */
static void backtrack(unsigned char from[][129], unsigned width, unsigned levels, lpm_strides *st)
{
    memset(st, 0, sizeof *st);
    st->levels = levels;
    unsigned l = width;
    for (unsigned s = levels; s >= 1; s--) {
        unsigned k = from[s][l];
        st->stride[s - 1] = (uint8_t)(l - k);
        l = k;
    }
}

/* Srinivasan-Varghese: T[s][l] = min over k < l of T[s-1][k] + nodes[k]*2^(l-k),
 * T[0][0] = 0; the answer is T[levels][width]. */
int lpm_strides_optimal_counts(const uint64_t *nodes, unsigned width, unsigned levels,
                               lpm_strides *st, lpm_err *err)
{
    int rc = check_dp(width, levels, err);
    if (rc)
        return rc;
    static const size_t rows = LPM_MAX_LEVELS + 1;
    uint64_t t[LPM_MAX_LEVELS + 1][129];
    unsigned char from[LPM_MAX_LEVELS + 1][129];
    for (size_t s = 0; s < rows; s++)
        for (unsigned l = 0; l <= 128; l++)
            t[s][l] = INF;
    t[0][0] = 0;
    for (unsigned s = 1; s <= levels; s++)
        for (unsigned l = s; l <= width; l++) {
            unsigned k0 = l > LPM_MAX_STRIDE ? l - LPM_MAX_STRIDE : 0;
            for (unsigned k = k0 < s - 1 ? s - 1 : k0; k < l; k++) {
                if (t[s - 1][k] == INF)
                    continue;
                uint64_t c = sat_add(t[s - 1][k], level_size(nodes, k, l - k));
                if (c < t[s][l]) { /* strict: ties keep the earliest cut */
                    t[s][l] = c;
                    from[s][l] = (unsigned char)k;
                }
            }
        }
    if (t[levels][width] == INF)
        return lpm_err_set(err, LPM_EINPUT, "strides: no stride array of %u levels fits", levels);
    backtrack(from, width, levels, st);
    return LPM_OK;
}

/* GAMT Algorithm 3, solved exactly in two passes. The paper's single pass
 * keeps one (width, transactions) pair per state, lexicographically; that
 * can miss the best transaction count when a cheaper prefix has a wider,
 * but still not the widest, level. Pass 1 is the min-max DP
 *   F[s][l] = min over k < l of max(F[s-1][k], nodes[k]*2^(l-k)),
 * giving the smallest possible widest level W* = F[levels][width]; pass 2
 *   G[s][l] = min over k < l, nodes[k]*2^(l-k) <= W*, of
 *             G[s-1][k] + ceil(nodes[k]*2^(l-k) / T)
 * minimises the total transactions among the arrays whose widest level is
 * W*. */
int lpm_strides_gamt_counts(const uint64_t *nodes, unsigned width, unsigned levels,
                            unsigned txn, lpm_strides *st, lpm_err *err)
{
    int rc = check_dp(width, levels, err);
    if (rc)
        return rc;
    if (txn == 0)
        return lpm_err_set(err, LPM_EINPUT, "strides: transaction size must be at least 1 entry");
    uint64_t f[LPM_MAX_LEVELS + 1][129];
    unsigned char from[LPM_MAX_LEVELS + 1][129];
    for (unsigned s = 0; s <= levels; s++)
        for (unsigned l = 0; l <= 128; l++)
            f[s][l] = INF;
    f[0][0] = 0;
    for (unsigned s = 1; s <= levels; s++)
        for (unsigned l = s; l <= width; l++) {
            unsigned k0 = l > LPM_MAX_STRIDE ? l - LPM_MAX_STRIDE : 0;
            for (unsigned k = k0 < s - 1 ? s - 1 : k0; k < l; k++) {
                if (f[s - 1][k] == INF)
                    continue;
                uint64_t c = level_size(nodes, k, l - k);
                if (f[s - 1][k] > c)
                    c = f[s - 1][k];
                if (c < f[s][l])
                    f[s][l] = c;
            }
        }
    uint64_t wmax = f[levels][width];
    if (wmax == INF)
        return lpm_err_set(err, LPM_EINPUT, "strides: no stride array of %u levels fits", levels);
    uint64_t (*g)[129] = f; /* pass 2 reuses the table */
    for (unsigned s = 0; s <= levels; s++)
        for (unsigned l = 0; l <= 128; l++)
            g[s][l] = INF;
    g[0][0] = 0;
    for (unsigned s = 1; s <= levels; s++)
        for (unsigned l = s; l <= width; l++) {
            unsigned k0 = l > LPM_MAX_STRIDE ? l - LPM_MAX_STRIDE : 0;
            for (unsigned k = k0 < s - 1 ? s - 1 : k0; k < l; k++) {
                uint64_t size = level_size(nodes, k, l - k);
                if (g[s - 1][k] == INF || size > wmax)
                    continue;
                uint64_t c = sat_add(g[s - 1][k], size / txn + (size % txn != 0));
                if (c < g[s][l]) {
                    g[s][l] = c;
                    from[s][l] = (unsigned char)k;
                }
            }
        }
    backtrack(from, width, levels, st);
    return LPM_OK;
}

void lpm_strides_cost(const uint64_t *nodes, const lpm_strides *st, unsigned txn,
                      lpm_strides_costs *c)
{
    memset(c, 0, sizeof *c);
    unsigned k = 0;
    for (unsigned i = 0; i < st->levels; i++) {
        uint64_t size = level_size(nodes, k, st->stride[i]);
        c->level_entries[i] = size;
        c->entries = sat_add(c->entries, size);
        if (size > c->widest)
            c->widest = size;
        if (txn)
            c->transactions = sat_add(c->transactions, size / txn + (size % txn != 0));
        k += st->stride[i];
    }
}

static unsigned width_of(const lpm_unibit *t)
{
    return lpm_family_bits(t->family);
}

int lpm_strides_optimal(const lpm_unibit *t, unsigned levels, lpm_strides *st, lpm_err *err)
{
    uint64_t nodes[129];
    lpm_strides_node_counts(t, nodes);
    return lpm_strides_optimal_counts(nodes, width_of(t), levels, st, err);
}

int lpm_strides_gamt(const lpm_unibit *t, unsigned levels, unsigned txn_size,
                     lpm_strides *st, lpm_err *err)
{
    uint64_t nodes[129];
    lpm_strides_node_counts(t, nodes);
    return lpm_strides_gamt_counts(nodes, width_of(t), levels, txn_size, st, err);
}

int lpm_strides_spec(const lpm_unibit *t, const char *spec, lpm_strides *st, lpm_err *err)
{
    unsigned levels, txn = LPM_STRIDES_DEFAULT_TXN;
    char tail;
    if (!strncmp(spec, "optimal:", 8)) {
        if (sscanf(spec + 8, "%u%c", &levels, &tail) != 1 || spec[8] < '0' || spec[8] > '9')
            return lpm_err_set(err, LPM_EINPUT, "strides: '%s': want optimal:LEVELS", spec);
        return lpm_strides_optimal(t, levels, st, err);
    }
    if (!strncmp(spec, "gamt:", 5)) {
        int k = sscanf(spec + 5, "%u:%u%c", &levels, &txn, &tail);
        const char *c = strchr(spec + 5, ':');
        if (spec[5] < '0' || spec[5] > '9' || !(k == 1 || k == 2) || (k == 1 && c) ||
            (c && (c[1] < '0' || c[1] > '9')))
            return lpm_err_set(err, LPM_EINPUT, "strides: '%s': want gamt:LEVELS or gamt:LEVELS:TXN", spec);
        return lpm_strides_gamt(t, levels, txn, st, err);
    }
    return lpm_strides_parse(t->family, spec, st, err);
}
