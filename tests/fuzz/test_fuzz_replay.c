/* Replays every input kept in fuzz/regress/NAME/ through harness NAME: the
 * crashes `make fuzz` found (each fixed since) stay fixed. Under
 * `make test-asan` the same inputs run with ASan and UBSan, as the fuzzer
 * ran them. Each harness also gets a few fixed inputs of its own (empty,
 * one byte, the option byte alone) so that no harness goes unexercised. */
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../fuzz/fuzz.h"
#include "testutil.h"

static const struct {
    const char *name;
    int (*fn)(const uint8_t *, size_t);
} harness[] = {
    { "fib_text", lpm_fuzz_fib_text },       { "fib_mrt", lpm_fuzz_fib_mrt },
    { "input", lpm_fuzz_input },             { "trace", lpm_fuzz_trace },
    { "updates", lpm_fuzz_updates },         { "image", lpm_fuzz_image },
    { "bubbles", lpm_fuzz_bubbles },         { "names_table", lpm_fuzz_names_table },
    { "names_query", lpm_fuzz_names_query },
};
enum { NHARNESS = sizeof harness / sizeof harness[0] };

static unsigned char *slurp(const char *path, size_t *n)
{
    FILE *fp = fopen(path, "rb");
    ck_assert_msg(fp != NULL, "cannot open %s", path);
    size_t cap = 4096, len = 0;
    unsigned char *p = malloc(cap);
    size_t r;
    while (p && (r = fread(p + len, 1, cap - len, fp)) > 0) {
        len += r;
        if (len == cap)
            p = realloc(p, cap *= 2);
    }
    fclose(fp);
    ck_assert(p != NULL);
    *n = len;
    return p;
}

/* Replays (run = 1) or counts the inputs kept for harness h. */
static size_t each_kept(int h, int run)
{
    const char *root = getenv("LPMPIPE_ROOT");
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/fuzz/regress/%s", root ? root : ".", harness[h].name);
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        n++;
        if (!run)
            continue;
        char path[8192];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        size_t len;
        unsigned char *data = slurp(path, &len);
        printf("replay %s %s (%zu bytes)\n", harness[h].name, e->d_name, len);
        fflush(stdout);
        ck_assert_int_eq(harness[h].fn(data, len), 0);
        free(data);
    }
    closedir(d);
    return n;
}

START_TEST(test_replay)
{
    static const uint8_t fixed[][3] = { { 0 }, { 0xff }, { 0x01, '\n' }, { 0x00, 0x00, 0x00 } };
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
        ck_assert_int_eq(harness[_i].fn(fixed[i], i), 0);
    each_kept(_i, 1);
}
END_TEST

/* The kept crashes are there (a missing folder would make the loop above
 * pass on nothing). */
START_TEST(test_kept)
{
    size_t n = 0;
    for (int h = 0; h < NHARNESS; h++)
        n += each_kept(h, 0);
    ck_assert_msg(n >= 3, "only %zu inputs in fuzz/regress/ (LPMPIPE_ROOT wrong?)", n);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("fuzz_replay");
    TCase *tc = tcase_create("replay");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_replay, 0, NHARNESS);
    tcase_add_test(tc, test_kept);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
