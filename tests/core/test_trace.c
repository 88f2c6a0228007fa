/* Lookup traces: every kind for both families, judged through the
 * reference LPM; the Random Match set on a table with known answers;
 * bursts, Zipf skew, determinism, chunking; the trace file format and its
 * errors. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"
#include "require.h"
#include "../../core/rng.h"
#include "../../core/trace.h"
#include "../../core/trie_unibit.h"

static lpm_addr *gen(const lpm_fib *f, int kind, size_t n, uint64_t seed, double burst)
{
    lpm_trace_opts o;
    lpm_trace_opts_default(&o);
    o.kind = kind;
    o.count = n;
    o.seed = seed;
    o.burst = burst;
    lpm_addr *a = malloc(n * sizeof *a);
    ck_assert_ptr_nonnull(a);
    lpm_err err;
    ck_assert_msg(lpm_trace_gen(f, &o, a, &err) == 0, "%s", err.msg);
    return a;
}

static void in_family(const lpm_addr *a, size_t n, int family)
{
    for (size_t i = 0; i < n; i++)
        if (family == LPM_AF_INET)
            REQUIRE(a[i].lo == 0 && (a[i].hi & 0xFFFFFFFFULL) == 0);
}

static void table_from(lpm_fib *f, const char *const *pfx, size_t n)
{
    lpm_fib_init(f);
    for (size_t i = 0; i < n; i++) {
        lpm_prefix p;
        lpm_err err;
        REQUIRE_MSG(lpm_prefix_parse(pfx[i], 0, 0, &p, &err) == 0, "%s", err.msg);
        char nh[8];
        int k = snprintf(nh, sizeof nh, "n%zu", i);
        REQUIRE((lpm_fib_add_tok(f, &p, nh, (size_t)k, NULL)) == (0));
    }
    ck_assert_int_eq(lpm_fib_finish(f, NULL), 0);
}

/* Mean length of the reference's match over a trace (-1 for no match). */
static double mean_match(const lpm_ref *ref, const lpm_addr *a, size_t n, size_t *misses)
{
    double sum = 0;
    *misses = 0;
    for (size_t i = 0; i < n; i++) {
        int len;
        if (lpm_ref_lookup(ref, &a[i], &len) == LPM_NH_NONE)
            (*misses)++;
        else
            sum += len;
    }
    return n > *misses ? sum / (double)(n - *misses) : 0;
}

/* Every trie node as a prefix: the reference's longest match over this set
 * is how deep a unibit-trie search for the address goes. */
static lpm_ref *trie_nodes(const lpm_fib *f)
{
    lpm_ref *r = lpm_ref_new(f->family);
    ck_assert_ptr_nonnull(r);
    for (size_t i = 0; i < f->n; i++)
        for (unsigned d = 0; d <= f->routes[i].pfx.len; d++) {
            lpm_prefix p = { lpm_addr_mask(&f->routes[i].pfx.addr, d), (uint8_t)d, (uint8_t)f->family };
            REQUIRE((lpm_ref_add(r, &p, 0)) == (0));
        }
    return r;
}

/* Every kind on a synthetic table of each family: right family; table,
 * random-match and zipf addresses all match; random-match searches go
 * deepest (He et al.: the longest search paths). */
START_TEST(test_kinds)
{
    int family = _i ? LPM_AF_INET6 : LPM_AF_INET;
    lpm_fib f;
    tu_synth(&f, family, family == LPM_AF_INET ? 100000 : 30000, 4);
    lpm_ref *ref, *nodes = trie_nodes(&f);
    ck_assert_int_eq(lpm_ref_build(&ref, &f, NULL), 0);
    size_t n = 200000, miss[4], nomiss;
    double len[4], depth[4];
    for (int k = LPM_TRACE_UNIFORM; k <= LPM_TRACE_ZIPF; k++) {
        lpm_addr *a = gen(&f, k, n, 8, 0);
        in_family(a, n, family);
        len[k] = mean_match(ref, a, n, &miss[k]);
        depth[k] = mean_match(nodes, a, n, &nomiss);
        printf("IPv%d %-12s: %zu of %zu unmatched, mean match /%.2f, mean trie search depth %.2f\n",
               family, lpm_trace_kind_name(k), miss[k], n, len[k], depth[k]);
        free(a);
    }
    lpm_ref_free(nodes);
    ck_assert_uint_eq(miss[LPM_TRACE_RANDOM_MATCH], 0);
    ck_assert_uint_eq(miss[LPM_TRACE_TABLE], 0);
    ck_assert_uint_eq(miss[LPM_TRACE_ZIPF], 0);
    ck_assert_uint_gt(miss[LPM_TRACE_UNIFORM], 0);
    for (int k = LPM_TRACE_UNIFORM; k <= LPM_TRACE_ZIPF; k++)
        REQUIRE_MSG(k == LPM_TRACE_RANDOM_MATCH || depth[LPM_TRACE_RANDOM_MATCH] > depth[k], "random-match searches %.2f deep, %s %.2f", depth[LPM_TRACE_RANDOM_MATCH], lpm_trace_kind_name(k), depth[k]);
    /* Uniform IPv4: each bit about half the time. */
    lpm_addr *u = gen(&f, LPM_TRACE_UNIFORM, n, 9, 0);
    for (unsigned b = 0; b < lpm_family_bits(family); b += 7) {
        size_t ones = 0;
        for (size_t i = 0; i < n; i++)
            ones += lpm_addr_bit(&u[i], b);
        REQUIRE_MSG(fabs((double)ones / (double)n - 0.5) < 0.01, "bit %u set in %zu of %zu", b, ones, n);
    }
    free(u);
    lpm_ref_free(ref);
    lpm_fib_free(&f);
}
END_TEST

/* The Random Match set by hand (He et al.'s definition): 10.0.0.0/8 keeps
 * its deepest leaf beside the path to 10.1/16, i.e. 10.0.0.0/16; 10.1/16
 * beside the path to 10.1.2/24, i.e. 10.1.3.0/24; a leaf prefix is its own
 * path; 192.168.0.0/23, covered by its two /24s, has no leaf and no path. */
START_TEST(test_random_match_set)
{
    static const char *const t[] = { "10.0.0.0/8", "10.1.0.0/16", "10.1.2.0/24", "192.168.0.0/23",
                                     "192.168.0.0/24", "192.168.1.0/24", "172.16.0.0/12" };
    static const char *const want[] = { "10.0.0.0/16", "10.1.2.0/24", "10.1.3.0/24", "172.16.0.0/12",
                                        "192.168.0.0/24", "192.168.1.0/24" };
    lpm_fib f;
    table_from(&f, t, sizeof t / sizeof t[0]);
    lpm_prefix *set;
    size_t n;
    lpm_err err;
    ck_assert_int_eq(lpm_trace_random_match_set(&f, &set, &n, &err), 0);
    ck_assert_uint_eq(n, sizeof want / sizeof want[0]);
    for (size_t i = 0; i < n; i++) {
        char b[64];
        lpm_prefix_format(&set[i], b, sizeof b);
        ck_assert_str_eq(b, want[i]);
    }
    free(set);
    /* Its trace: every address falls in one of those paths, and matches
     * the prefix that owns it. */
    lpm_ref *ref;
    ck_assert_int_eq(lpm_ref_build(&ref, &f, NULL), 0);
    lpm_addr *a = gen(&f, LPM_TRACE_RANDOM_MATCH, 30000, 1, 0);
    size_t hits[6] = { 0 };
    static const int owner_len[] = { 8, 24, 16, 12, 24, 24 };
    for (size_t i = 0; i < 30000; i++) {
        int len, k = -1;
        REQUIRE(lpm_ref_lookup(ref, &a[i], &len) != LPM_NH_NONE);
        for (int j = 0; j < 6; j++) {
            lpm_prefix p;
            REQUIRE((lpm_prefix_parse(want[j], 0, 0, &p, NULL)) == (0));
            if (lpm_prefix_covers(&p, &a[i]))
                k = j;
        }
        REQUIRE((k) >= (0));
        REQUIRE((len) == (owner_len[k]));
        hits[k]++;
    }
    for (int j = 0; j < 6; j++) /* unbiased over the set: 5000 each */
        REQUIRE_MSG(hits[j] > 4500 && hits[j] < 5500, "%s drawn %zu times", want[j], hits[j]);
    free(a);
    lpm_ref_free(ref);
    lpm_fib_free(&f);
}
END_TEST

/* On a bigger table, every path of the set is a leaf of the leaf-pushed
 * trie owned by a table prefix: the whole path matches one prefix (its
 * first and last address give the same answer and no table prefix starts
 * strictly inside it), and there is at most one path per prefix. */
static int cmp_prefix(const void *x, const void *y)
{
    const lpm_prefix *a = x, *b = y;
    int c = lpm_addr_cmp(&a->addr, &b->addr);
    return c ? c : (int)a->len - (int)b->len;
}

START_TEST(test_random_match_paths)
{
    int family = _i ? LPM_AF_INET6 : LPM_AF_INET;
    lpm_fib f;
    tu_synth(&f, family, 20000, 6);
    lpm_ref *ref;
    ck_assert_int_eq(lpm_ref_build(&ref, &f, NULL), 0);
    lpm_prefix *set;
    size_t n;
    ck_assert_int_eq(lpm_trace_random_match_set(&f, &set, &n, NULL), 0);
    ck_assert_uint_le(n, f.n);
    ck_assert_uint_ge(n, f.n / 2);
    lpm_prefix *owners = malloc(n * sizeof *owners);
    size_t j = 0;
    for (size_t i = 0; i < n; i++) {
        lpm_addr first = set[i].addr, last = set[i].addr;
        for (unsigned b = set[i].len; b < lpm_family_bits(family); b++)
            lpm_addr_set_bit(&last, b, 1);
        int l1, l2;
        uint32_t a1 = lpm_ref_lookup(ref, &first, &l1), a2 = lpm_ref_lookup(ref, &last, &l2);
        REQUIRE(a1 != LPM_NH_NONE);
        REQUIRE((l1) == (l2));
        REQUIRE((a1) == (a2));
        REQUIRE((l1) <= (set[i].len));
        /* No table prefix strictly inside the path: the routes are sorted,
         * so look from the first route at or after the path's start. */
        while (j < f.n && lpm_addr_cmp(&f.routes[j].pfx.addr, &first) < 0)
            j++;
        for (size_t k = j; k < f.n && lpm_prefix_covers(&set[i], &f.routes[k].pfx.addr); k++)
            REQUIRE_MSG(f.routes[k].pfx.len <= set[i].len, "a route inside a random-match path");
        owners[i] = (lpm_prefix){ lpm_addr_mask(&first, (unsigned)l1), (uint8_t)l1, (uint8_t)family };
    }
    qsort(owners, n, sizeof *owners, cmp_prefix);
    for (size_t i = 1; i < n; i++)
        REQUIRE_MSG(!(owners[i].len == owners[i - 1].len && lpm_addr_eq(&owners[i].addr, &owners[i - 1].addr)), "two random-match paths for one prefix");
    free(owners);
    free(set);
    lpm_ref_free(ref);
    lpm_fib_free(&f);
}
END_TEST

/* The set against the project's own leaf-pushed unibit trie: with one
 * next hop per prefix, the deepest leaf carrying each next hop (leftmost
 * on ties) is that prefix's path. */
static void deepest_leaves(const lpm_unibit *t, uint32_t v, lpm_addr path, lpm_prefix *best, int family)
{
    const lpm_unode *x = &t->node[v];
    if (!x->child[0] && !x->child[1]) {
        if (x->nh != LPM_NH_NONE && (best[x->nh].family == 0 || x->depth > best[x->nh].len))
            best[x->nh] = (lpm_prefix){ path, x->depth, (uint8_t)family };
        return;
    }
    for (unsigned b = 0; b < 2; b++)
        if (x->child[b]) {
            lpm_addr p = path;
            lpm_addr_set_bit(&p, x->depth, b);
            deepest_leaves(t, x->child[b], p, best, family);
        }
}

START_TEST(test_random_match_vs_leaf_push)
{
    int family = _i ? LPM_AF_INET6 : LPM_AF_INET;
    lpm_rng r;
    lpm_rng_seed(&r, 31);
    lpm_fib f;
    lpm_fib_init(&f);
    unsigned w = lpm_family_bits(family);
    for (int i = 0; i < 4000; i++) { /* few top bits: deep nesting */
        lpm_addr a = { lpm_rng_next(&r) & 0xF0F0FF0FFFFFFFFFULL, lpm_rng_next(&r) };
        if (family == LPM_AF_INET)
            a.hi &= 0xFFFFFFFF00000000ULL, a.lo = 0;
        unsigned len = 4 + (unsigned)lpm_rng_below(&r, (family == LPM_AF_INET ? 29 : 61));
        lpm_prefix p;
        ck_assert_int_eq(lpm_prefix_make(&a, family, len > w ? w : len, 1, &p, NULL), 0);
        char nh[16];
        int k = snprintf(nh, sizeof nh, "n%d", i);
        ck_assert_int_eq(lpm_fib_add_tok(&f, &p, nh, (size_t)k, NULL), 0);
    }
    ck_assert_int_eq(lpm_fib_finish(&f, NULL), 0);
    /* Unique next hops per route (duplicates were merged by finish). */
    for (size_t i = 0; i < f.n; i++)
        f.routes[i].nh = (uint32_t)i;
    lpm_unibit t, lp;
    lpm_err err;
    ck_assert_msg(lpm_unibit_build(&t, &f, &err) == 0, "%s", err.msg);
    ck_assert_msg(lpm_unibit_leaf_push(&t, &lp, &err) == 0, "%s", err.msg);
    lpm_prefix *best = calloc(f.n, sizeof *best);
    deepest_leaves(&lp, 0, (lpm_addr){ 0, 0 }, best, family);
    size_t m = 0;
    for (size_t i = 0; i < f.n; i++)
        if (best[i].family)
            best[m++] = best[i];
    qsort(best, m, sizeof *best, cmp_prefix);
    lpm_prefix *set;
    size_t n;
    ck_assert_int_eq(lpm_trace_random_match_set(&f, &set, &n, NULL), 0);
    ck_assert_uint_eq(n, m);
    ck_assert_uint_lt(m, f.n); /* some prefixes are fully covered */
    for (size_t i = 0; i < n; i++)
        REQUIRE_MSG(set[i].len == best[i].len && lpm_addr_eq(&set[i].addr, &best[i].addr),
                    "path %zu differs from the leaf-pushed trie's", i);
    free(set);
    free(best);
    lpm_unibit_free(&t);
    lpm_unibit_free(&lp);
    lpm_fib_free(&f);
}
END_TEST

START_TEST(test_burst_mean)
{
    lpm_fib f;
    tu_synth(&f, LPM_AF_INET, 5000, 2);
    static const double means[] = { 1, 4, 16 };
    for (int m = 0; m < 3; m++) {
        size_t n = 400000;
        lpm_addr *a = gen(&f, LPM_TRACE_UNIFORM, n, 3, means[m]);
        size_t runs = 1;
        for (size_t i = 1; i < n; i++)
            runs += !lpm_addr_eq(&a[i], &a[i - 1]);
        double mean = (double)n / (double)runs;
        printf("burst %g: mean run %.3f\n", means[m], mean);
        REQUIRE_MSG(fabs(mean / means[m] - 1) < 0.03, "burst %g gave mean run %.3f", means[m], mean);
        free(a);
    }
    lpm_fib_free(&f);
}
END_TEST

static int cmp_addr(const void *x, const void *y)
{
    return lpm_addr_cmp(x, y);
}

/* Zipf(1) over min(count, 2^20) flows: the top flow takes about 1/H(n) of
 * the trace, the top 10 flows about H(10)/H(n); a steeper exponent is more
 * skewed. */
START_TEST(test_zipf_skew)
{
    lpm_fib f;
    tu_synth(&f, LPM_AF_INET, 50000, 2);
    size_t n = 200000;
    double top_share[2];
    for (int k = 0; k < 2; k++) {
        lpm_trace_opts o;
        lpm_trace_opts_default(&o);
        o.kind = LPM_TRACE_ZIPF;
        o.count = n;
        o.seed = 5;
        o.zipf_s = k ? 1.5 : 1.0;
        lpm_addr *a = malloc(n * sizeof *a);
        REQUIRE((lpm_trace_gen(&f, &o, a, NULL)) == (0));
        qsort(a, n, sizeof *a, cmp_addr);
        size_t best = 0, run = 1, distinct = 1;
        for (size_t i = 1; i <= n; i++) {
            if (i < n && lpm_addr_eq(&a[i], &a[i - 1])) {
                run++;
                continue;
            }
            if (run > best)
                best = run;
            run = 1;
            distinct += i < n;
        }
        top_share[k] = (double)best / (double)n;
        printf("zipf s=%.1f: top address %.4f of the trace, %zu distinct\n", o.zipf_s, top_share[k], distinct);
        if (k == 0) {
            double h = 0;
            for (size_t r = 1; r <= n; r++)
                h += 1.0 / (double)r;
            REQUIRE_MSG(fabs(top_share[0] * h - 1) < 0.1, "top share %.4f, want %.4f", top_share[0], 1 / h);
            REQUIRE((distinct) < (n / 2));
        }
        free(a);
    }
    ck_assert(top_share[1] > 2 * top_share[0]);
    lpm_fib_free(&f);
}
END_TEST

/* Same seed, same trace, however it is chunked; another seed, another. */
START_TEST(test_deterministic)
{
    lpm_fib f;
    tu_synth(&f, LPM_AF_INET6, 5000, 2);
    for (int k = LPM_TRACE_UNIFORM; k <= LPM_TRACE_ZIPF; k++) {
        size_t n = 50000;
        lpm_addr *a = gen(&f, k, n, 77, 3), *b = gen(&f, k, n, 78, 3);
        lpm_trace_opts o;
        lpm_trace_opts_default(&o);
        o.kind = k;
        o.count = n;
        o.seed = 77;
        o.burst = 3;
        lpm_tracegen *g;
        REQUIRE((lpm_tracegen_new(&g, &f, &o, NULL)) == (0));
        lpm_addr *c = malloc(n * sizeof *c);
        for (size_t done = 0, step = 1; done < n; done += step, step = step * 3 + 1) {
            if (step > n - done)
                step = n - done;
            lpm_tracegen_next(g, c + done, step);
        }
        lpm_tracegen_free(g);
        size_t same = 0;
        for (size_t i = 0; i < n; i++) {
            REQUIRE(lpm_addr_eq(&a[i], &c[i]));
            same += lpm_addr_eq(&a[i], &b[i]);
        }
        REQUIRE((same) < (n / 10));
        free(a);
        free(b);
        free(c);
    }
    lpm_fib_free(&f);
}
END_TEST

START_TEST(test_bad_options)
{
    lpm_fib f, empty;
    tu_synth(&f, LPM_AF_INET, 100, 2);
    lpm_fib_init(&empty);
    lpm_trace_opts o;
    lpm_addr a[4];
    lpm_err err;
    lpm_trace_opts_default(&o);
    o.count = 4;
    o.burst = 0.5;
    ck_assert_int_eq(lpm_trace_gen(&f, &o, a, &err), LPM_EINPUT);
    ck_assert_ptr_nonnull(strstr(err.msg, "burst"));
    o.burst = 0;
    o.kind = LPM_TRACE_ZIPF;
    o.zipf_s = 0;
    ck_assert_int_eq(lpm_trace_gen(&f, &o, a, &err), LPM_EINPUT);
    o.zipf_s = 1;
    o.count = (size_t)LPM_TRACE_MAX_COUNT + 1;
    ck_assert_int_eq(lpm_trace_gen(&f, &o, a, &err), LPM_EINPUT);
    o.count = 4;
    o.kind = 9;
    ck_assert_int_eq(lpm_trace_gen(&f, &o, a, &err), LPM_EINPUT);
    o.kind = LPM_TRACE_RANDOM_MATCH;
    ck_assert_int_eq(lpm_trace_gen(&empty, &o, a, &err), LPM_EINPUT);
    ck_assert_int_eq(lpm_trace_kind_parse("random-match"), LPM_TRACE_RANDOM_MATCH);
    ck_assert_int_eq(lpm_trace_kind_parse("zipf"), LPM_TRACE_ZIPF);
    ck_assert_int_eq(lpm_trace_kind_parse("Zipf"), -1);
    ck_assert_str_eq(lpm_trace_kind_name(LPM_TRACE_TABLE), "table");
    lpm_fib_free(&f);
}
END_TEST

static char *tmpfile_with(const char *text)
{
    static char path[64];
    strcpy(path, "/tmp/lpm_trace_XXXXXX");
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    size_t len = strlen(text);
    ck_assert_int_eq(write(fd, text, len), (ssize_t)len);
    close(fd);
    return path;
}

START_TEST(test_round_trip)
{
    int family = _i ? LPM_AF_INET6 : LPM_AF_INET;
    lpm_fib f;
    tu_synth(&f, family, 3000, 2);
    size_t n = 20000;
    lpm_addr *a = gen(&f, LPM_TRACE_UNIFORM, n, 1, 0);
    a[0] = (lpm_addr){ 0, 0 }; /* the extremes print right too */
    a[1] = family == LPM_AF_INET ? lpm_addr_from_v4(0xFFFFFFFFu) : (lpm_addr){ ~0ULL, ~0ULL };
    char *path = tmpfile_with("");
    lpm_err err;
    ck_assert_int_eq(lpm_trace_write(path, a, n, family, &err), 0);
    lpm_addr *b;
    size_t m;
    int fam;
    ck_assert_msg(lpm_trace_load(path, &b, &m, &fam, &err) == 0, "%s", err.msg);
    ck_assert_uint_eq(m, n);
    ck_assert_int_eq(fam, family);
    for (size_t i = 0; i < n; i++)
        REQUIRE(lpm_addr_eq(&a[i], &b[i]));
    unlink(path);
    free(a);
    free(b);
    lpm_fib_free(&f);
}
END_TEST

/* The fast IPv6 writer prints what lpm_addr_format prints (RFC 5952),
 * zero runs of every length and place included. */
START_TEST(test_v6_text)
{
    lpm_rng r;
    lpm_rng_seed(&r, 5);
    size_t n = 20000;
    lpm_addr *a = malloc(n * sizeof *a);
    for (size_t i = 0; i < n; i++) {
        a[i].hi = lpm_rng_next(&r);
        a[i].lo = lpm_rng_next(&r);
        for (int g = 0; g < 8; g++) /* zero groups often, small ones too */
            if (lpm_rng_below(&r, 3) == 0 || (i % 7 == 0 && g > 0)) {
                uint64_t *w = g < 4 ? &a[i].hi : &a[i].lo;
                *w &= ~(0xFFFFULL << (48 - 16 * (g & 3)));
            } else if (lpm_rng_below(&r, 4) == 0) {
                uint64_t *w = g < 4 ? &a[i].hi : &a[i].lo;
                *w &= ~(0xFFF0ULL << (48 - 16 * (g & 3)));
            }
    }
    char *path = tmpfile_with("");
    ck_assert_int_eq(lpm_trace_write(path, a, n, LPM_AF_INET6, NULL), 0);
    FILE *fp = fopen(path, "r");
    char line[128], want[LPM_ADDR_STRLEN];
    for (size_t i = 0; i < n; i++) {
        REQUIRE(fgets(line, sizeof line, fp) != NULL);
        line[strcspn(line, "\n")] = '\0';
        lpm_addr_format(&a[i], LPM_AF_INET6, want, sizeof want);
        REQUIRE_MSG(strcmp(line, want) == 0, "wrote %s, want %s", line, want);
    }
    fclose(fp);
    unlink(path);
    free(a);
}
END_TEST

START_TEST(test_load_comments)
{
    char *path = tmpfile_with("# a trace\n\n10.0.0.1\n  192.168.1.1   # with a comment\r\n\t1.2.3.4\n");
    lpm_addr *a;
    size_t n;
    int fam;
    lpm_err err;
    ck_assert_msg(lpm_trace_load(path, &a, &n, &fam, &err) == 0, "%s", err.msg);
    ck_assert_uint_eq(n, 3);
    ck_assert_int_eq(fam, 4);
    ck_assert_uint_eq(lpm_addr_to_v4(&a[1]), 0xC0A80101u);
    free(a);
    unlink(path);
}
END_TEST

/* Each bad file gives "file:line: reason". */
START_TEST(test_load_errors)
{
    static const struct {
        const char *text;
        int line;
        const char *reason; /* a word of the message */
    } cases[] = {
        { "10.0.0.1\n10.0.0.256\n", 2, "" },
        { "10.0.0.1\n\n# c\n2001:db8::1\n", 4, "IPv6" },
        { "10.0.0.1 10.0.0.2\n", 1, "one address" },
        { "10.0.0.0/8\n", 1, "" },
        { "", 1, "no addresses" },
        { "# only a comment\n", 1, "no addresses" },
        { "1.2.3.4\nab\0cd\n", 2, "NUL" },
        { "1.2.3.4\nhello\n", 2, "" },
        { "::1\n::ffff:1.2.3.4\n1.2.3.4\n", 3, "IPv4" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        /* The NUL case needs its length: write it by hand. */
        char *path = tmpfile_with("");
        FILE *fp = fopen(path, "w");
        size_t len = strlen(cases[i].text);
        if (strstr(cases[i].text, "ab") == cases[i].text + 8)
            len = 14;
        fwrite(cases[i].text, 1, len, fp);
        fclose(fp);
        lpm_addr *a = (lpm_addr *)1;
        size_t n = 99;
        int fam;
        lpm_err err;
        REQUIRE((lpm_trace_load(path, &a, &n, &fam, &err)) == (LPM_EINPUT));
        ck_assert_ptr_null(a);
        REQUIRE((n) == (0));
        char want[128];
        snprintf(want, sizeof want, "%s:%d: ", path, cases[i].line);
        REQUIRE_MSG(strncmp(err.msg, want, strlen(want)) == 0 && strstr(err.msg, cases[i].reason), "case %zu: '%s'", i, err.msg);
        unlink(path);
    }
    lpm_addr *a;
    size_t n;
    int fam;
    lpm_err err;
    ck_assert_int_ne(lpm_trace_load("/nonexistent/trace", &a, &n, &fam, &err), 0);
}
END_TEST

/* The reference LPM agrees with itself through the engine interface on
 * every kind (the helper other tests use runs here too). */
START_TEST(test_engine_helper)
{
    lpm_fib f;
    tu_synth(&f, LPM_AF_INET, 20000, 12);
    const lpm_engine_ops *e = lpm_engine_find("ref");
    ck_assert_ptr_nonnull(e);
    for (int k = LPM_TRACE_UNIFORM; k <= LPM_TRACE_ZIPF; k++)
        tu_engine_agrees(e, &f, k, 20000, 3);
    lpm_fib_free(&f);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("trace");
    TCase *t = tcase_create("trace");
    tcase_set_timeout(t, 300);
    tcase_add_loop_test(t, test_kinds, 0, 2);
    tcase_add_test(t, test_random_match_set);
    tcase_add_loop_test(t, test_random_match_paths, 0, 2);
    tcase_add_loop_test(t, test_random_match_vs_leaf_push, 0, 2);
    tcase_add_test(t, test_burst_mean);
    tcase_add_test(t, test_zipf_skew);
    tcase_add_test(t, test_deterministic);
    tcase_add_test(t, test_bad_options);
    tcase_add_loop_test(t, test_round_trip, 0, 2);
    tcase_add_test(t, test_v6_text);
    tcase_add_test(t, test_load_comments);
    tcase_add_test(t, test_load_errors);
    tcase_add_test(t, test_engine_helper);
    suite_add_tcase(s, t);
    return tu_run(s);
}
