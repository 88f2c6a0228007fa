/* The synthetic table generator: the contract (count, uniqueness, host
 * bits, determinism, next hops), its length histogram against the model,
 * and, with ../shared/data, its trie shape against the real tables
 * (figures printed; the 10% bound checked where docs/synthetic.md claims
 * it). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "require.h"
#include "../../core/rng.h"
#include "../../core/synth.h"
#include "../../core/trie_unibit.h"

static void check_contract(const lpm_fib *f, int family, size_t n)
{
    ck_assert_uint_eq(f->n, n);
    ck_assert_uint_eq(f->duplicates, 0);
    ck_assert_int_eq(f->family, family);
    unsigned w = lpm_family_bits(family);
    for (size_t i = 0; i < f->n; i++) {
        const lpm_prefix *p = &f->routes[i].pfx;
        REQUIRE((p->len) <= (w));
        REQUIRE((p->family) == (family));
        lpm_addr m = lpm_addr_mask(&p->addr, p->len);
        REQUIRE_MSG(lpm_addr_eq(&m, &p->addr), "host bits set in route %zu", i);
        if (family == LPM_AF_INET)
            REQUIRE(p->addr.lo == 0 && (p->addr.hi & 0xFFFFFFFFULL) == 0);
        if (i > 0) /* sorted and unique after finish */
            REQUIRE(lpm_addr_cmp(&f->routes[i - 1].pfx.addr, &p->addr) < 0 || (lpm_addr_eq(&f->routes[i - 1].pfx.addr, &p->addr) && f->routes[i - 1].pfx.len < p->len));
        REQUIRE((f->routes[i].nh) < (f->nh.n));
    }
}

START_TEST(test_contract)
{
    static const size_t sizes[] = { 1, 2, 17, 1000, 100000 };
    int family = _i ? LPM_AF_INET6 : LPM_AF_INET;
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        lpm_fib f;
        tu_synth(&f, family, sizes[k], 11 + k);
        check_contract(&f, family, sizes[k]);
        lpm_fib_free(&f);
    }
}
END_TEST

/* Above the reference size the model is scaled up; still exact and unique. */
START_TEST(test_beyond_reference)
{
    int family = _i ? LPM_AF_INET6 : LPM_AF_INET;
    size_t n = family == LPM_AF_INET ? 1200000 : 250000;
    lpm_fib f;
    tu_synth(&f, family, n, 5);
    check_contract(&f, family, n);
    lpm_fib_free(&f);
}
END_TEST

START_TEST(test_deterministic)
{
    int family = _i ? LPM_AF_INET6 : LPM_AF_INET;
    lpm_fib a, b, c;
    tu_synth(&a, family, 20000, 42);
    tu_synth(&b, family, 20000, 42);
    tu_synth(&c, family, 20000, 43);
    ck_assert_uint_eq(a.n, b.n);
    for (size_t i = 0; i < a.n; i++) {
        REQUIRE(lpm_addr_eq(&a.routes[i].pfx.addr, &b.routes[i].pfx.addr));
        REQUIRE((a.routes[i].pfx.len) == (b.routes[i].pfx.len));
        REQUIRE((a.routes[i].nh) == (b.routes[i].nh));
    }
    size_t same = 0;
    for (size_t i = 0; i < a.n; i++)
        same += lpm_addr_eq(&a.routes[i].pfx.addr, &c.routes[i].pfx.addr);
    ck_assert_msg(same < a.n / 2, "another seed gave %zu of %zu equal routes", same, a.n);
    lpm_fib_free(&a);
    lpm_fib_free(&b);
    lpm_fib_free(&c);
}
END_TEST

START_TEST(test_next_hops)
{
    lpm_fib f;
    lpm_fib_init(&f);
    lpm_err err;
    ck_assert_int_eq(lpm_synth_fib(&f, LPM_AF_INET, 50000, 3, 8, &err), 0);
    ck_assert_uint_eq(f.nh.n, 8);
    size_t cnt[8] = { 0 };
    for (size_t i = 0; i < f.n; i++)
        cnt[f.routes[i].nh]++;
    for (unsigned i = 0; i < 8; i++) {
        char want[8];
        snprintf(want, sizeof want, "nh%u", i);
        ck_assert_str_eq(lpm_nhtab_name(&f.nh, i), want);
    }
    /* Zipf(1): nh0 is about 8 times as common as nh7. */
    ck_assert_msg(cnt[0] > 4 * cnt[7] && cnt[7] > 0, "nh0 %zu nh7 %zu", cnt[0], cnt[7]);
    lpm_fib_free(&f);
    tu_synth(&f, LPM_AF_INET6, 1000, 3);
    ck_assert_uint_eq(f.nh.n, 32); /* the default */
    lpm_fib_free(&f);
}
END_TEST

START_TEST(test_bad_arguments)
{
    lpm_fib f;
    lpm_fib_init(&f);
    lpm_err err;
    ck_assert_int_eq(lpm_synth_fib(&f, 5, 10, 1, 0, &err), LPM_EINPUT);
    ck_assert_int_eq(lpm_synth_fib(&f, 4, 0, 1, 0, &err), LPM_EINPUT);
    ck_assert_int_eq(lpm_synth_fib(&f, 4, (size_t)LPM_SYNTH_MAX_COUNT + 1, 1, 0, &err), LPM_EINPUT);
    ck_assert_ptr_nonnull(strstr(err.msg, "count"));
    ck_assert_int_eq(lpm_synth_fib(&f, 6, 10, 1, LPM_SYNTH_MAX_NEXT_HOPS + 1, &err), LPM_EINPUT);
    ck_assert_int_eq(lpm_synth_fib(&f, 4, 10, 1, 0, &err), 0);
    ck_assert_int_eq(lpm_synth_fib(&f, 4, 10, 1, 0, &err), LPM_EINPUT); /* not empty */
    lpm_fib_free(&f);
}
END_TEST

/* The length histogram of a sample is the model's, scaled: every length
 * with at least 2000 expected prefixes within 10%. */
START_TEST(test_histogram_model)
{
    int family = _i ? LPM_AF_INET6 : LPM_AF_INET;
    size_t n = family == LPM_AF_INET ? 300000 : 60000;
    lpm_fib f;
    tu_synth(&f, family, n, 9);
    lpm_fib_profile ref, got;
    lpm_synth_reference(family, &ref);
    lpm_fib_profile_measure(&f, &got);
    int checked = 0;
    for (unsigned d = 0; d <= lpm_family_bits(family); d++) {
        double want = (double)ref.len[d] * (double)n / (double)ref.prefixes;
        if (want < 2000)
            continue;
        double dev = (double)got.len[d] / want - 1;
        REQUIRE_MSG(fabs(dev) <= 0.10, "/%u: %zu prefixes, the model says %.0f", d, got.len[d], want);
        checked++;
    }
    ck_assert_int_ge(checked, family == LPM_AF_INET ? 8 : 4);
    lpm_fib_free(&f);
}
END_TEST

/* The profile's node counts are the unibit trie's, level by level. */
START_TEST(test_profile_is_unibit)
{
    int family = _i ? LPM_AF_INET6 : LPM_AF_INET;
    lpm_fib f;
    tu_synth(&f, family, 30000, 4);
    lpm_fib_profile p;
    lpm_fib_profile_measure(&f, &p);
    lpm_unibit t;
    lpm_err err;
    ck_assert_msg(lpm_unibit_build(&t, &f, &err) == 0, "%s", err.msg);
    size_t counts[129];
    lpm_unibit_level_counts(&t, counts);
    size_t total = 0;
    for (unsigned d = 0; d <= 128; d++) {
        ck_assert_msg(counts[d] == p.nodes[d], "level %u: trie %zu, profile %zu", d, counts[d], p.nodes[d]);
        total += counts[d];
    }
    ck_assert_uint_eq(total, t.live);
    ck_assert_uint_eq(p.prefixes, t.prefixes);
    lpm_unibit_free(&t);
    lpm_fib_free(&f);
}
END_TEST

/* A uniform sample of exactly n routes (what "a real table of that size"
 * means here). */
static void sample(const lpm_fib *f, size_t n, lpm_fib *out)
{
    lpm_fib_init(out);
    lpm_rng r;
    lpm_rng_seed(&r, 77);
    size_t want = n, left = f->n;
    for (size_t i = 0; i < f->n; i++, left--)
        if (lpm_rng_below(&r, left) < want) {
            want--;
            REQUIRE((lpm_fib_add(out, &f->routes[i].pfx, 0, NULL)) == (0));
        }
    ck_assert_int_eq(lpm_fib_finish(out, NULL), 0);
}

/* Prints model vs real per level and returns the worst relative deviation
 * of trie nodes over the levels with at least min_nodes real nodes. */
static double compare(const char *name, const lpm_fib *real, size_t n)
{
    lpm_fib s, smp;
    const lpm_fib *rr = real;
    if (n < real->n) {
        sample(real, n, &smp);
        rr = &smp;
    }
    tu_synth(&s, real->family, n, 1);
    lpm_fib_profile pr, ps;
    lpm_fib_profile_measure(rr, &pr);
    lpm_fib_profile_measure(&s, &ps);
    printf("\n%s at %zu prefixes (IPv%d): nesting real %.3f model %.3f; trie nodes real %zu model %zu\n",
           name, n, real->family, (double)pr.nested / (double)n, (double)ps.nested / (double)n,
           pr.total_nodes, ps.total_nodes);
    printf("  len | prefixes real  model    dev |   nodes real  model    dev\n");
    double worst = 0;
    for (unsigned d = 0; d <= lpm_family_bits(real->family); d++) {
        if (!pr.nodes[d] && !ps.nodes[d])
            continue;
        double dn = pr.nodes[d] ? (double)ps.nodes[d] / (double)pr.nodes[d] - 1 : 1;
        double dl = pr.len[d] ? (double)ps.len[d] / (double)pr.len[d] - 1 : (ps.len[d] ? 1 : 0);
        if (pr.len[d] || ps.len[d] || pr.nodes[d] >= 1000)
            printf("  %3u | %13zu %6zu %+5.1f%% | %11zu %6zu %+5.1f%%\n", d, pr.len[d], ps.len[d],
                   100 * dl, pr.nodes[d], ps.nodes[d], 100 * dn);
        if (pr.nodes[d] >= 1000 && fabs(dn) > fabs(worst))
            worst = dn;
    }
    printf("  worst trie level with >= 1000 nodes: %+.1f%%\n", 100 * worst);
    if (rr != real)
        lpm_fib_free(&smp);
    lpm_fib_free(&s);
    return worst;
}

/* The claims of docs/synthetic.md: against the reference tables (tier1)
 * and their samples, trie nodes per level (levels of >= 1000 nodes) within
 * 10%. Other tables are printed for the record, unchecked. */
START_TEST(test_real_tables)
{
    static const struct {
        const char *file;
        size_t n[3]; /* sizes compared (0: the whole table; ends at SIZE_MAX) */
        int checked; /* the 10% claim */
    } cases[] = {
        { "tier1-2024.v4.txt.xz", { 0, 200000, 50000 }, 1 },
        { "routeviews-pfx2as-v4-2020-02.txt.xz", { 0, SIZE_MAX, 0 }, 0 },
        { "tier1-2024.v6.txt.xz", { 0, 80000, SIZE_MAX }, 1 },
        { "routeviews-20210117-as293.fib6.txt", { 0, SIZE_MAX, 0 }, 0 },
        { "routeviews-pfx2as-v6-2020-02.txt.xz", { 0, SIZE_MAX, 0 }, 0 },
    };
    char path[4096];
    int ran = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        if (!tu_data_file(cases[i].file, path, sizeof path))
            continue;
        lpm_fib f;
        tu_load(&f, path);
        for (int k = 0; k < 3 && cases[i].n[k] != SIZE_MAX; k++) {
            size_t n = cases[i].n[k] ? cases[i].n[k] : f.n;
            double worst = compare(cases[i].file, &f, n);
            if (cases[i].checked)
                REQUIRE_MSG(fabs(worst) <= 0.10, "%s at %zu: a trie level is %+.1f%% off", cases[i].file, n, 100 * worst);
        }
        lpm_fib_free(&f);
        ran++;
    }
    if (!ran)
        tu_skip("no real tables: the model is not compared with them");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("synth");
    TCase *t = tcase_create("synth");
    tcase_set_timeout(t, 300);
    tcase_add_loop_test(t, test_contract, 0, 2);
    tcase_add_loop_test(t, test_beyond_reference, 0, 2);
    tcase_add_loop_test(t, test_deterministic, 0, 2);
    tcase_add_test(t, test_next_hops);
    tcase_add_test(t, test_bad_arguments);
    tcase_add_loop_test(t, test_histogram_model, 0, 2);
    tcase_add_loop_test(t, test_profile_is_unibit, 0, 2);
    tcase_add_test(t, test_real_tables);
    suite_add_tcase(s, t);
    return tu_run(s);
}
