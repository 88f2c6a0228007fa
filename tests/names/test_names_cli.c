/* lpmpipe names end to end: the bad-input corpus (tests/names/bad/EXPECT:
 * file:line: reason and exit 2, each also skipped on request), absurd
 * options, --help everywhere, the GPU command without a device (exit 3),
 * byte-identical outputs for a seed, and every engine verified against the
 * reference through the CLI on a generated table. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <string.h>

#include "testutil.h"

static char bin[1024], root[1024], tmp[64];

static int run(const char *cmd, char *err, size_t errsz)
{
    char full[16384];
    snprintf(full, sizeof full, "cd %s && %s 2>%s/err >%s/out", root, cmd, tmp, tmp);
    int st = system(full);
    char p[128];
    snprintf(p, sizeof p, "%s/err", tmp);
    FILE *fp = fopen(p, "r");
    size_t n = fp ? fread(err, 1, errsz - 1, fp) : 0;
    err[n] = 0;
    if (fp)
        fclose(fp);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

static void setup(void)
{
    const char *b = getenv("LPMPIPE"), *r = getenv("LPMPIPE_ROOT");
    snprintf(root, sizeof root, "%s", r ? r : ".");
    snprintf(bin, sizeof bin, "%s", b ? b : "build/lpmpipe");
    strcpy(tmp, "/tmp/lpm-names-cli.XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(tmp));
}

static void teardown(void)
{
    char c[128];
    snprintf(c, sizeof c, "rm -rf %s", tmp);
    if (system(c)) {
    }
}

START_TEST(test_bad_corpus)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/tests/names/bad/EXPECT", root);
    FILE *fp = fopen(path, "r");
    ck_assert_ptr_nonnull(fp);
    char line[512], file[128], kind[32], reason[256], cmd[9000], err[4096];
    int cases = 0;
    unsigned long ln;
    while (fgets(line, sizeof line, fp)) {
        if (line[0] == '#' || sscanf(line, "%127s %31s %lu %255[^\n]", file, kind, &ln, reason) != 4)
            continue;
        char f[300];
        snprintf(f, sizeof f, "tests/names/bad/%s", file);
        const char *fmt = !strcmp(kind, "table") ? "%s names stats --table %s%s"
                        : !strcmp(kind, "names") ? "%s names lookup --table tests/names/bad/good.tab --trace %s%s"
                                                 : "%s names build --domains %s%s -o /dev/null";
        snprintf(cmd, sizeof cmd, fmt, bin, f, "");
        int rc = run(cmd, err, sizeof err);
        char want[800];
        snprintf(want, sizeof want, "%s:%lu: %s", f, ln, reason);
        ck_assert_msg(rc == 2, "%s: exit %d, want 2 (%s)", file, rc, err);
        ck_assert_msg(strstr(err, want), "%s: stderr '%s' lacks '%s'", file, err, want);
        /* Skipped on request: the run goes on and says how many. */
        snprintf(cmd, sizeof cmd, fmt, bin, f, " --skip-bad");
        rc = run(cmd, err, sizeof err);
        ck_assert_msg(rc == 0 && strstr(err, "skipped") && strstr(err, " 1"), "%s --skip-bad: exit %d: %s", file, rc, err);
        cases++;
    }
    fclose(fp);
    ck_assert_int_ge(cases, 15);
}
END_TEST

START_TEST(test_options_and_help)
{
    char cmd[9000], err[4096];
    static const char *const sub[] = { "build", "stats", "trace", "lookup", "bench", "gpu", "gen" };
    for (size_t i = 0; i < sizeof sub / sizeof sub[0]; i++) {
        snprintf(cmd, sizeof cmd, "%s names %s --help", bin, sub[i]);
        ck_assert_msg(run(cmd, err, sizeof err) == 0, "names %s --help", sub[i]);
    }
    static const char *const bad[] = {
        "names build --domains tests/names/bad/domains-slash.txt --ports 0",
        "names lookup --table tests/names/bad/good.tab --stride 5 /a",
        "names lookup --table tests/names/bad/good.tab --engine mata --primes 100 /a",
        "names lookup --table tests/names/bad/good.tab --engine mata --primes 65521,101 /a",
        "names lookup --table tests/names/bad/good.tab --engine btree /a",
        "names lookup --table tests/names/bad/good.tab com/no-slash",
        "names trace --table tests/names/bad/good.tab --kind huge",
        "names trace --table tests/names/bad/good.tab --count 0",
        "names gen --count 12x",
        "names frobnicate",
        "names gpu bench --streams 0",
        "names stats",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(cmd, sizeof cmd, "%s %s", bin, bad[i]);
        int rc = run(cmd, err, sizeof err);
        ck_assert_msg(rc == 2 && strstr(err, "lpmpipe: names"), "'%s': exit %d, %s", bad[i], rc, err);
    }
    /* No CUDA device here (or the test machine has one: then it must run). */
    snprintf(cmd, sizeof cmd, "%s names gpu bench --table tests/names/bad/good.tab --trace tests/names/bad/good-names.txt", bin);
    int rc = run(cmd, err, sizeof err);
    ck_assert_msg(rc == 3 ? strstr(err, "no CUDA device") != NULL : rc == 0, "gpu bench: exit %d: %s", rc, err);
}
END_TEST

static void file_eq(const char *a, const char *b)
{
    char cmd[9000], err[64];
    snprintf(cmd, sizeof cmd, "cmp %s %s", a, b);
    ck_assert_msg(run(cmd, err, sizeof err) == 0, "%s and %s differ", a, b);
}

START_TEST(test_pipeline)
{
    char cmd[16000], err[4096], a[200], b[200];
    /* Same seed, same bytes: gen, build, trace. */
    for (int k = 0; k < 2; k++) {
        snprintf(cmd, sizeof cmd,
                 "%s names gen --count 30000 --seed 4 -o %s/d%d && %s names build --domains %s/d%d --ports 64 -o %s/t%d &&"
                 " %s names trace --table %s/t%d --kind %s --count 20000 --seed 9 -o %s/q%d",
                 bin, tmp, k, bin, tmp, k, tmp, k, bin, tmp, k, k ? "heavy" : "average", tmp, k);
        ck_assert_msg(run(cmd, err, sizeof err) == 0, "%s", err);
    }
    snprintf(a, sizeof a, "%s/d0", tmp);
    snprintf(b, sizeof b, "%s/d1", tmp);
    file_eq(a, b);
    /* build --json: the counts of the stderr note as one object on stdout; the same table. */
    snprintf(cmd, sizeof cmd, "%s names build --domains %s/d0 --ports 64 -o %s/tj --json", bin, tmp, tmp);
    ck_assert_msg(run(cmd, err, sizeof err) == 0, "build --json: %s", err);
    {
        char js[512], p[128];
        size_t nl, nd, na, nn, sl, sd, sa, sn, sk;
        snprintf(p, sizeof p, "%s/out", tmp);
        FILE *jf = fopen(p, "r");
        ck_assert_ptr_nonnull(jf);
        size_t n = fread(js, 1, sizeof js - 1, jf);
        js[n] = 0;
        fclose(jf);
        ck_assert_msg(sscanf(js, "{\"lines\":%zu,\"skipped\":%zu,\"duplicates\":%zu,\"aggregated\":%zu,\"names\":%zu}",
                             &sl, &sk, &sd, &sa, &sn) == 5, "build --json printed '%s'", js);
        const char *note = strstr(err, "note: ");
        ck_assert_msg(note && sscanf(note, "note: %zu lines, %zu duplicates, %zu aggregated away, %zu names", &nl, &nd,
                                     &na, &nn) == 4, "no counts note: %s", err);
        ck_assert(sl == nl && sd == nd && sa == na && sn == nn && sk == 0 && sn > 0 && sl == 30000);
    }
    snprintf(b, sizeof b, "%s/tj", tmp);
    snprintf(a, sizeof a, "%s/t0", tmp);
    file_eq(a, b);
    snprintf(cmd, sizeof cmd, "%s names build --domains %s/d0 --json", bin, tmp);
    ck_assert_int_eq(run(cmd, err, sizeof err), 2);
    ck_assert_msg(strstr(err, "--json needs -o TABLE"), "%s", err);
    snprintf(a, sizeof a, "%s/t0", tmp);
    snprintf(b, sizeof b, "%s/t1", tmp);
    file_eq(a, b);
    snprintf(cmd, sizeof cmd, "%s names trace --table %s/t0 --count 20000 --seed 9 -o %s/q2", bin, tmp, tmp);
    ck_assert_int_eq(run(cmd, err, sizeof err), 0);
    snprintf(a, sizeof a, "%s/q0", tmp);
    snprintf(b, sizeof b, "%s/q2", tmp);
    file_eq(a, b);
    /* Every engine and stride, verified against the reference. */
    static const char *const eng[] = { "ref", "trie", "ata --stride 1", "ata --stride 2", "mata --stride 1",
                                       "mata --stride 2", "mata --stride 3", "mata", "mata --primes 65521,262139" };
    for (size_t i = 0; i < sizeof eng / sizeof eng[0]; i++)
        for (int k = 0; k < 2; k++) {
            snprintf(cmd, sizeof cmd, "%s names lookup --table %s/t0 --engine %s --verify --trace %s/q%d", bin, tmp,
                     eng[i], tmp, k);
            int rc = run(cmd, err, sizeof err);
            ck_assert_msg(rc == 0 && strstr(err, "20000 lookups, 0 mismatches"), "%s: exit %d: %s", eng[i], rc, err);
        }
    /* Same answers from every engine, line for line. */
    for (size_t i = 0; i < 3; i++) {
        static const char *const e2[] = { "ref", "trie", "mata" };
        snprintf(cmd, sizeof cmd, "%s names lookup --table %s/t0 --engine %s --trace %s/q0 > %s/o%zu", bin, tmp,
                 e2[i], tmp, tmp, i);
        ck_assert_int_eq(run(cmd, err, sizeof err), 0);
    }
    snprintf(a, sizeof a, "%s/o0", tmp);
    snprintf(b, sizeof b, "%s/o2", tmp);
    file_eq(a, b);
    /* The bench checks itself, updates included. */
    snprintf(cmd, sizeof cmd, "%s names bench --table %s/t0 --trace %s/q0 --updates 2000 --repeat 1", bin, tmp, tmp);
    ck_assert_msg(run(cmd, err, sizeof err) == 0, "bench: %s", err);
    /* Names on the command line. */
    snprintf(cmd, sizeof cmd, "%s names lookup --table tests/names/bad/good.tab --engine mata /com/parc/www/x.html /org /", bin);
    ck_assert_int_eq(run(cmd, err, sizeof err), 0);
    char out[4096], p[128];
    snprintf(p, sizeof p, "%s/out", tmp);
    FILE *fp = fopen(p, "r");
    size_t n = fread(out, 1, sizeof out - 1, fp);
    out[n] = 0;
    fclose(fp);
    ck_assert_str_eq(out, "/com/parc/www/x.html/ 7\n/org/ -\n/ -\n");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("names_cli");
    TCase *tc = tcase_create("cli");
    tcase_set_timeout(tc, 600);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_bad_corpus);
    tcase_add_test(tc, test_options_and_help);
    tcase_add_test(tc, test_pipeline);
    suite_add_tcase(s, tc);
    return tu_run(s);
}
