/* DPDK as a second oracle: rte_lpm, rte_lpm6, rte_fib and rte_fib6 must
 * answer like the reference (and so like our engines) on random tables
 * and on the shared real ones. Skipped where the peer is not built. */
#include <stdlib.h>

#include "cpu_testlib.h"
#include "../../cpu/peer.h"

static void peer_agrees(int kind, const lpm_fib *f, size_t nmix, uint64_t seed)
{
    lpm_err err;
    lpm_peer *p;
    ck_assert_msg(lpm_peer_build(&p, kind, f, &err) == 0, "%s", err.msg);
    lpm_ref *ref;
    ck_assert_int_eq(lpm_ref_build(&ref, f, &err), 0);
    lpm_rng r;
    lpm_rng_seed(&r, seed);
    size_t ne = f->n < 20000 ? f->n : 20000, n = ne * 6 + nmix;
    lpm_addr *a = malloc(n * sizeof *a);
    uint32_t *nh = malloc(n * sizeof *nh);
    for (size_t i = 0; i < ne; i++)
        ct_edges(&f->routes[lpm_rng_below(&r, f->n)].pfx, &r, &a[i * 6]);
    ct_mixed_addrs(f, &r, &a[ne * 6], nmix);
    ck_assert_int_eq(lpm_peer_prepare(p, a, n, &err), 0);
    lpm_peer_run(p, 0, n / 2);
    lpm_peer_run(p, n / 2, n);
    lpm_peer_results(p, nh);
    for (size_t i = 0; i < n; i++)
        tu_check_answer(ref, f, &a[i], nh[i], lpm_peer_name(p));
    ck_assert_uint_gt(lpm_peer_memory(p), 0);
    free(a);
    free(nh);
    lpm_ref_free(ref);
    lpm_peer_free(p);
}

START_TEST(test_random_tables)
{
    int family = _i & 1 ? LPM_AF_INET6 : LPM_AF_INET;
    lpm_fib f;
    ct_random_table(&f, family, 5000, 71 + (uint64_t)_i);
    peer_agrees(_i / 2, &f, 100000, 72);
    lpm_fib_free(&f);
}
END_TEST

/* Real tables: rte_lpm's build is quadratic in the prefixes of one length
 * (minutes for a full IPv4 table), so it gets every 8th prefix of the v4
 * tables; rte_fib, rte_lpm6 and rte_fib6 get the whole tables. */
START_TEST(test_real_tables)
{
    const tu_table *t = &tu_tables[_i];
    char path[4096];
    if (!tu_data_file(t->file, path, sizeof path))
        return;
    lpm_fib f;
    tu_load(&f, path);
    peer_agrees(LPM_PEER_FIB, &f, 200000, 73);
    if (f.family == LPM_AF_INET) {
        size_t k = 0;
        for (size_t i = 0; i < f.n; i += 8)
            f.routes[k++] = f.routes[i];
        f.n = k;
    }
    peer_agrees(LPM_PEER_LPM, &f, 200000, 74);
    lpm_fib_free(&f);
}
END_TEST

int main(void)
{
    if (!lpm_peer_built()) {
        tu_skip("DPDK peer not built (libdpdk not installed; scripts/deps.sh --peers)");
        return 77;
    }
    Suite *s = suite_create("cpu_dpdk");
    TCase *t = tcase_create("dpdk");
    /* One process: DPDK's EAL starts once and stays. */
    tcase_add_loop_test(t, test_random_tables, 0, 4);
    tcase_add_loop_test(t, test_real_tables, 0, (int)tu_ntables);
    suite_add_tcase(s, t);
    return tu_run(s);
}
