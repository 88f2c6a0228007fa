/* Update-trace generation: replayed on the reference LPM, every withdrawal
 * names a present prefix; the withdraw share, re-announcements, new
 * prefixes near old ones, next-hop changes, time order, determinism; the
 * written file reads back through lpm_updates_load. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"
#include "require.h"
#include "../../core/trace.h"


START_TEST(test_replay)
{
    int family = _i ? LPM_AF_INET6 : LPM_AF_INET;
    lpm_fib f;
    tu_synth(&f, family, 20000, 3);
    size_t n = 100000;
    lpm_update *u;
    lpm_err err;
    ck_assert_msg(lpm_updates_gen(&f, n, 0.3, 7, &u, &err) == 0, "%s", err.msg);
    lpm_ref *ref;
    ck_assert_int_eq(lpm_ref_build(&ref, &f, NULL), 0);
    lpm_ref *gone = lpm_ref_new(family); /* withdrawn prefixes */
    size_t w = 0, reannounce = 0, fresh = 0, change = 0;
    for (size_t i = 0; i < n; i++) {
        const lpm_prefix *p = &u[i].pfx;
        REQUIRE((p->family) == (family));
        lpm_addr m = lpm_addr_mask(&p->addr, p->len);
        REQUIRE(lpm_addr_eq(&m, &p->addr));
        if (i > 0)
            REQUIRE(u[i].time >= u[i - 1].time);
        uint32_t old = lpm_ref_get(ref, p);
        if (u[i].op == 'w') {
            REQUIRE_MSG(old != LPM_NH_NONE, "update %zu withdraws an absent prefix", i);
            REQUIRE((u[i].nh) == (LPM_NH_NONE));
            REQUIRE((lpm_ref_del(ref, p)) == (1));
            REQUIRE((lpm_ref_add(gone, p, 0)) == (0));
            w++;
            continue;
        }
        REQUIRE((u[i].op) == ('a'));
        REQUIRE((u[i].nh) < (f.nh.n));
        if (old != LPM_NH_NONE)
            change++;
        else if (lpm_ref_get(gone, p) != LPM_NH_NONE)
            reannounce++;
        else
            fresh++;
        lpm_ref_del(gone, p);
        REQUIRE((lpm_ref_add(ref, p, u[i].nh)) == (0));
    }
    printf("IPv%d: %zu withdrawals, %zu re-announcements, %zu new prefixes, %zu next-hop changes\n", family, w,
           reannounce, fresh, change);
    ck_assert_msg(fabs((double)w / (double)n - 0.3) < 0.01, "withdraw share %.3f", (double)w / (double)n);
    ck_assert_uint_gt(reannounce, n / 20);
    ck_assert_uint_gt(fresh, n / 20);
    ck_assert_uint_gt(change, n / 20);
    lpm_ref_free(gone);
    lpm_ref_free(ref);
    free(u);
    lpm_fib_free(&f);
}
END_TEST

/* Everything withdrawn (share 1) and nothing else: the table drains, and
 * then announcements are the only thing left to do. */
START_TEST(test_extremes)
{
    lpm_fib f;
    tu_synth(&f, LPM_AF_INET, 100, 3);
    lpm_update *u;
    ck_assert_int_eq(lpm_updates_gen(&f, 300, 1.0, 1, &u, NULL), 0);
    size_t w = 0;
    for (size_t i = 0; i < 300; i++)
        w += u[i].op == 'w';
    ck_assert_uint_eq(w, 100 + (300 - 100) / 2); /* drained, then a, w, a, w ... */
    free(u);
    ck_assert_int_eq(lpm_updates_gen(&f, 1000, 0.0, 1, &u, NULL), 0);
    for (size_t i = 0; i < 1000; i++)
        REQUIRE((u[i].op) == ('a'));
    free(u);
    lpm_err err;
    ck_assert_int_eq(lpm_updates_gen(&f, 10, 1.5, 1, &u, &err), LPM_EINPUT);
    ck_assert_int_eq(lpm_updates_gen(&f, (size_t)LPM_UPDATES_MAX_COUNT + 1, 0.5, 1, &u, &err), LPM_EINPUT);
    lpm_fib empty;
    lpm_fib_init(&empty);
    ck_assert_int_eq(lpm_updates_gen(&empty, 10, 0.5, 1, &u, &err), LPM_EINPUT);
    lpm_fib_free(&f);
}
END_TEST

START_TEST(test_deterministic_and_written)
{
    lpm_fib f;
    tu_synth(&f, LPM_AF_INET6, 5000, 3);
    lpm_update *a, *b;
    ck_assert_int_eq(lpm_updates_gen(&f, 5000, 0.2, 9, &a, NULL), 0);
    ck_assert_int_eq(lpm_updates_gen(&f, 5000, 0.2, 9, &b, NULL), 0);
    for (size_t i = 0; i < 5000; i++) {
        REQUIRE(a[i].op == b[i].op && a[i].nh == b[i].nh && a[i].time == b[i].time);
        REQUIRE(lpm_addr_eq(&a[i].pfx.addr, &b[i].pfx.addr) && a[i].pfx.len == b[i].pfx.len);
    }
    char path[] = "/tmp/lpm_updates_XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    lpm_err err;
    ck_assert_int_eq(lpm_updates_write(path, &f, a, 5000, &err), 0);
    /* The text: "time a prefix nexthop" or "time w prefix". */
    FILE *fp = fopen(path, "r");
    char line[256];
    size_t i = 0;
    while (fgets(line, sizeof line, fp)) {
        double t;
        char op, pfx[128], nh[64];
        int k = sscanf(line, "%lf %c %127s %63s", &t, &op, pfx, nh);
        REQUIRE((k) == (a[i].op == 'w' ? 3 : 4));
        REQUIRE((op) == (a[i].op));
        REQUIRE(fabs(t - a[i].time) < 1e-6);
        lpm_prefix p;
        REQUIRE((lpm_prefix_parse(pfx, 0, 0, &p, NULL)) == (0));
        REQUIRE(lpm_addr_eq(&p.addr, &a[i].pfx.addr) && p.len == a[i].pfx.len);
        if (k == 4)
            ck_assert_str_eq(nh, lpm_nhtab_name(&f.nh, a[i].nh));
        i++;
    }
    fclose(fp);
    ck_assert_uint_eq(i, 5000);
    {
        lpm_update *c;
        size_t n;
        REQUIRE_MSG(lpm_updates_load(path, &f, NULL, &c, &n, &err) == 0, "%s", err.msg);
        REQUIRE((n) == (5000));
        for (size_t j = 0; j < n; j++) {
            REQUIRE((c[j].op) == (a[j].op));
            REQUIRE(lpm_addr_eq(&c[j].pfx.addr, &a[j].pfx.addr) && c[j].pfx.len == a[j].pfx.len);
            if (c[j].op == 'a')
                REQUIRE((c[j].nh) == (a[j].nh));
        }
        free(c);
    }
    unlink(path);
    free(a);
    free(b);
    lpm_fib_free(&f);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("updates_gen");
    TCase *t = tcase_create("updates_gen");
    tcase_set_timeout(t, 300);
    tcase_add_loop_test(t, test_replay, 0, 2);
    tcase_add_test(t, test_extremes);
    tcase_add_test(t, test_deterministic_and_written);
    suite_add_tcase(s, t);
    return tu_run(s);
}
