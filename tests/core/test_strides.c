/* Stride arrays: parsing, and the two selection algorithms against brute
 * force over every composition of the width on small tries. */
#include <string.h>

#include "tries_util.h"
#include "../../core/trie_multibit.h"

START_TEST(test_parse_format)
{
    lpm_strides st;
    lpm_err err;
    char buf[64];
    ck_assert_int_eq(lpm_strides_parse(4, "16-8-8", &st, &err), 0);
    ck_assert_uint_eq(st.levels, 3);
    ck_assert_uint_eq(st.stride[0], 16);
    lpm_strides_format(&st, buf, sizeof buf);
    ck_assert_str_eq(buf, "16-8-8");
    ck_assert_int_eq(lpm_strides_parse(4, "8,8,8,8", &st, &err), 0);
    lpm_strides_format(&st, buf, sizeof buf);
    ck_assert_str_eq(buf, "8-8-8-8");
    ck_assert_uint_eq(lpm_strides_sum(&st), 32);
    /* Short of the width is allowed (longer prefixes are refused later). */
    ck_assert_int_eq(lpm_strides_parse(6, "16-16-16-16", &st, &err), 0);
    ck_assert_uint_eq(lpm_strides_sum(&st), 64);
    static const char *bad[] = { "", "16-", "-16", "16--8", "16-8-9", "0-32", "25-7",
                                 "abc", "16 8", "16-8-8x", "99999999999", "1-1-1-1-1-1-1-1-1-1-1-1-1-1-1-1-1-1-1-1-1-1-1-1-1-1-1-1-1-1-1-1-1" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err.msg[0] = '\0';
        ck_assert_msg(lpm_strides_parse(4, bad[i], &st, &err) == LPM_EINPUT, "'%s' accepted", bad[i]);
        ck_assert_msg(strstr(err.msg, "strides") != NULL, "'%s': message '%s'", bad[i], err.msg);
    }
    ck_assert_int_eq(lpm_strides_parse(6, "24-24-24-24-24-9", &st, &err), LPM_EINPUT); /* 129 bits */
    unsigned v[] = { 8, 8 };
    ck_assert_int_eq(lpm_strides_fixed(4, v, 0, &st, &err), LPM_EINPUT);
    ck_assert_int_eq(lpm_strides_fixed(5, v, 2, &st, &err), LPM_EINPUT);
}
END_TEST

/* Brute force over all compositions of `width` into `levels` strides. */
typedef struct {
    const uint64_t *nodes;
    unsigned txn;
    uint64_t best_entries, best_widest, best_trans;
} brute;

static void enumerate(brute *b, lpm_strides *st, unsigned level, unsigned levels, unsigned left)
{
    if (level == levels) {
        if (left)
            return;
        st->levels = levels;
        lpm_strides_costs c;
        lpm_strides_cost(b->nodes, st, b->txn, &c);
        if (c.entries < b->best_entries)
            b->best_entries = c.entries;
        if (c.widest < b->best_widest || (c.widest == b->best_widest && c.transactions < b->best_trans)) {
            b->best_widest = c.widest;
            b->best_trans = c.transactions;
        }
        return;
    }
    for (unsigned s = 1; s <= LPM_MAX_STRIDE && s <= left; s++) {
        st->stride[level] = (uint8_t)s;
        enumerate(b, st, level + 1, levels, left - s);
    }
}

static void check_against_brute(const uint64_t *nodes, unsigned width, unsigned levels, unsigned txn)
{
    brute b = { nodes, txn, UINT64_MAX, UINT64_MAX, UINT64_MAX };
    lpm_strides st;
    memset(&st, 0, sizeof st);
    enumerate(&b, &st, 0, levels, width);
    lpm_err err;
    lpm_strides_costs c;
    if (b.best_entries == UINT64_MAX) { /* nothing fits: both must say so */
        ck_assert_int_eq(lpm_strides_optimal_counts(nodes, width, levels, &st, &err), LPM_EINPUT);
        ck_assert_int_eq(lpm_strides_gamt_counts(nodes, width, levels, txn, &st, &err), LPM_EINPUT);
        return;
    }
    ck_assert_msg(lpm_strides_optimal_counts(nodes, width, levels, &st, &err) == 0, "%s", err.msg);
    ck_assert_uint_eq(st.levels, levels);
    ck_assert_uint_eq(lpm_strides_sum(&st), width);
    lpm_strides_cost(nodes, &st, txn, &c);
    ck_assert_msg(c.entries == b.best_entries, "optimal: %llu entries, brute force %llu (width %u, %u levels)",
                  (unsigned long long)c.entries, (unsigned long long)b.best_entries, width, levels);
    ck_assert_msg(lpm_strides_gamt_counts(nodes, width, levels, txn, &st, &err) == 0, "%s", err.msg);
    ck_assert_uint_eq(lpm_strides_sum(&st), width);
    lpm_strides_cost(nodes, &st, txn, &c);
    ck_assert_msg(c.widest == b.best_widest && c.transactions == b.best_trans,
                  "gamt: widest %llu trans %llu, brute force %llu %llu (width %u, %u levels, T %u)",
                  (unsigned long long)c.widest, (unsigned long long)c.transactions,
                  (unsigned long long)b.best_widest, (unsigned long long)b.best_trans, width, levels, txn);
}

START_TEST(test_brute_force_counts)
{
    lpm_rng r;
    lpm_rng_seed(&r, 1234 + (uint64_t)_i);
    for (int round = 0; round < 60; round++) {
        uint64_t nodes[129] = { 1 };
        unsigned width = 4 + (unsigned)lpm_rng_below(&r, 13); /* 4..16 */
        for (unsigned d = 1; d <= width; d++) /* grows, then thins out */
            nodes[d] = lpm_rng_below(&r, 2 * nodes[d - 1] + 1) + (d < width / 2);
        unsigned txn = 1 + (unsigned)lpm_rng_below(&r, 16);
        for (unsigned levels = 1; levels <= 5 && levels <= width; levels++)
            check_against_brute(nodes, width, levels, txn);
    }
}
END_TEST

/* Real shapes: counts of random IPv4 tries, 32 bits, up to 4 levels
 * (4495 compositions), plus the 24-bit stride cap (1 level cannot fit). */
START_TEST(test_brute_force_tries)
{
    for (int round = 0; round < 4; round++) {
        lpm_fib f;
        tr_random_table(&f, 4, 300 + 400 * (size_t)round, 32, 7, 55 + (uint64_t)round);
        lpm_unibit u;
        lpm_err err;
        ck_assert_int_eq(lpm_unibit_build(&u, &f, &err), 0);
        uint64_t nodes[129];
        lpm_strides_node_counts(&u, nodes);
        for (unsigned levels = 1; levels <= 4; levels++)
            check_against_brute(nodes, 32, levels, round ? 32 : 8);
        lpm_strides st;
        ck_assert_int_eq(lpm_strides_optimal(&u, 1, &st, &err), LPM_EINPUT);
        ck_assert_int_eq(lpm_strides_gamt(&u, 3, 0, &st, &err), LPM_EINPUT);
        ck_assert_int_eq(lpm_strides_optimal(&u, 33, &st, &err), LPM_EINPUT);
        lpm_unibit_free(&u);
        lpm_fib_free(&f);
    }
}
END_TEST

/* Counts by hand: 0/1, 128/2, 192/3 gives the chain root - "1" - "11". */
START_TEST(test_node_counts_by_hand)
{
    lpm_fib f;
    lpm_fib_init(&f);
    static const char *pf[] = { "0.0.0.0/1", "128.0.0.0/2", "192.0.0.0/3" };
    for (int i = 0; i < 3; i++) {
        lpm_prefix p;
        ck_assert_int_eq(lpm_prefix_parse(pf[i], 0, 0, &p, NULL), 0);
        ck_assert_int_eq(lpm_fib_add_tok(&f, &p, "x", 1, NULL), 0);
    }
    ck_assert_int_eq(lpm_fib_finish(&f, NULL), 0);
    lpm_unibit u;
    ck_assert_int_eq(lpm_unibit_build(&u, &f, NULL), 0);
    uint64_t n[129];
    lpm_strides_node_counts(&u, n);
    ck_assert_uint_eq(n[0], 1);
    ck_assert_uint_eq(n[1], 1);
    ck_assert_uint_eq(n[2], 1);
    for (int d = 3; d <= 128; d++)
        ck_assert_uint_eq(n[d], 0);
    /* Strides 1-1-1-5-24: 2 + 2 + 2 + 0 + 0 entries. */
    lpm_strides st;
    lpm_strides_costs c;
    ck_assert_int_eq(lpm_strides_parse(4, "1-1-1-5-24", &st, NULL), 0);
    lpm_strides_cost(n, &st, 4, &c);
    ck_assert_uint_eq(c.entries, 6);
    ck_assert_uint_eq(c.widest, 2);
    ck_assert_uint_eq(c.transactions, 3);
    lpm_unibit_free(&u);
    lpm_fib_free(&f);
}
END_TEST

/* The counts predict the built trie exactly: entries per level. */
START_TEST(test_counts_predict_build)
{
    int family = _i ? 6 : 4;
    lpm_fib f;
    tr_random_table(&f, family, 2000, family == 4 ? 32 : 64, 9, 77 + (uint64_t)_i);
    lpm_unibit u;
    lpm_err err;
    ck_assert_int_eq(lpm_unibit_build(&u, &f, &err), 0);
    uint64_t nodes[129];
    lpm_strides_node_counts(&u, nodes);
    lpm_strides st;
    if (family == 4)
        ck_assert_int_eq(lpm_strides_gamt(&u, 4, 32, &st, &err), 0);
    else
        ck_assert_int_eq(lpm_strides_optimal(&u, 10, &st, &err), 0);
    lpm_strides_costs c;
    lpm_strides_cost(nodes, &st, 32, &c);
    lpm_multibit m;
    ck_assert_msg(lpm_multibit_build_with(&m, &f, &st, &u, &err) == 0, "%s", err.msg);
    lpm_mlevel_stats ls[LPM_MAX_LEVELS];
    size_t total;
    lpm_multibit_stats(&m, ls, &total);
    for (unsigned i = 0; i < st.levels; i++)
        ck_assert_uint_eq(ls[i].entries, c.level_entries[i]);
    ck_assert_uint_eq(total, c.entries * 4);
    lpm_multibit_free(&m);
    lpm_fib_free(&f);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("strides");
    TCase *t = tcase_create("strides");
    tcase_add_test(t, test_parse_format);
    tcase_add_loop_test(t, test_brute_force_counts, 0, 3);
    tcase_add_test(t, test_brute_force_tries);
    tcase_add_test(t, test_node_counts_by_hand);
    tcase_add_loop_test(t, test_counts_predict_build, 0, 2);
    suite_add_tcase(s, t);
    return tu_run(s);
}
