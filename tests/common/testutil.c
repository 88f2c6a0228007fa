#include "testutil.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../../core/rng.h"
#include "../../core/synth.h"
#include "../../core/trace.h"

const tu_table tu_tables[] = {
    { "routeviews-pfx2as-v4-2020-02.txt.xz", 4, 845161 },
    { "routeviews-pfx2as-v6-2020-02.txt.xz", 6, 83125 },
    { "tier1-2024.v4.txt.xz", 4, 901899 },
    { "tier1-2024.v6.txt.xz", 6, 160147 },
    { "routeviews-20210117-as293.fib6.txt", 6, 105363 },
    { "linx-rib6-20141225-p69.txt", 6, 20440 },
};
const size_t tu_ntables = sizeof tu_tables / sizeof tu_tables[0];

const char *tu_data_dir(void)
{
    const char *d = getenv("LPMPIPE_DATA");
    return d && *d ? d : NULL;
}

void tu_skip(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("SKIP: ");
    vprintf(fmt, ap);
    printf("\n");
    fflush(stdout);
    va_end(ap);
}

const char *tu_data_file(const char *name, char *buf, size_t size)
{
    const char *d = tu_data_dir();
    if (!d) {
        tu_skip("%s: ../shared/data is absent", name);
        return NULL;
    }
    snprintf(buf, size, "%s/%s", d, name);
    struct stat st;
    if (stat(buf, &st)) {
        tu_skip("%s: not in %s", name, d);
        return NULL;
    }
    return buf;
}

void tu_load(lpm_fib *f, const char *path)
{
    lpm_fib_init(f);
    lpm_err err;
    int rc = lpm_fib_load(f, path, NULL, &err);
    ck_assert_msg(rc == 0, "loading %s: %s", path, err.msg);
}

void tu_synth(lpm_fib *f, int family, size_t n, uint64_t seed)
{
    lpm_fib_init(f);
    lpm_err err;
    int rc = lpm_synth_fib(f, family, n, seed, 0, &err);
    ck_assert_msg(rc == 0, "synthetic table: %s", err.msg);
}

void tu_random_table(lpm_fib *f, int family, size_t n, uint64_t seed)
{
    lpm_rng r;
    lpm_rng_seed(&r, seed);
    lpm_fib_init(f);
    unsigned w = lpm_family_bits(family);
    for (size_t i = 0; i < n; i++) {
        /* Few distinct top bits, so that prefixes nest. */
        lpm_addr a = { lpm_rng_next(&r) & 0xF0F0FFFFFFFFFFFFULL, lpm_rng_next(&r) };
        if (family == LPM_AF_INET) {
            a.hi &= 0xFFFFFFFF00000000ULL;
            a.lo = 0;
        }
        lpm_prefix p;
        unsigned len = i == 0 ? 0 : (unsigned)lpm_rng_below(&r, w + 1);
        ck_assert_int_eq(lpm_prefix_make(&a, family, len, 1, &p, NULL), 0);
        char nh[8];
        int k = snprintf(nh, sizeof nh, "n%u", (unsigned)(i % 37));
        ck_assert_int_eq(lpm_fib_add_tok(f, &p, nh, (size_t)k, NULL), 0);
    }
    ck_assert_int_eq(lpm_fib_finish(f, NULL), 0);
}

void tu_check_answer(const lpm_ref *ref, const lpm_fib *fib, const lpm_addr *a,
                     uint32_t got, const char *who)
{
    int len;
    uint32_t want = lpm_ref_lookup(ref, a, &len);
    if (want == got)
        return;
    char ab[LPM_ADDR_STRLEN], pb[LPM_ADDR_STRLEN + 8] = "none";
    lpm_addr_format(a, fib->family, ab, sizeof ab);
    if (len >= 0) {
        lpm_prefix p = { lpm_addr_mask(a, (unsigned)len), (uint8_t)len, (uint8_t)fib->family };
        lpm_prefix_format(&p, pb, sizeof pb);
    }
    ck_abort_msg("mismatch at %s: %s says %s, reference says %s (prefix %s)", ab, who,
                 got == LPM_NH_NONE ? "-" : lpm_nhtab_name(&fib->nh, got),
                 want == LPM_NH_NONE ? "-" : lpm_nhtab_name(&fib->nh, want), pb);
}

void tu_engine_agrees(const lpm_engine_ops *e, const lpm_fib *fib, int kind,
                      size_t n, uint64_t seed)
{
    lpm_err err;
    lpm_ref *ref;
    ck_assert_msg(lpm_ref_build(&ref, fib, &err) == 0, "%s", err.msg);
    void *st;
    ck_assert_msg(e->build(&st, fib, &err) == 0, "%s build: %s", e->name, err.msg);
    lpm_trace_opts o;
    lpm_trace_opts_default(&o);
    o.kind = kind;
    o.count = n;
    o.seed = seed;
    lpm_addr *a = malloc(n * sizeof *a);
    ck_assert_ptr_nonnull(a);
    ck_assert_msg(lpm_trace_gen(fib, &o, a, &err) == 0, "trace: %s", err.msg);
    for (size_t i = 0; i < n; i++)
        tu_check_answer(ref, fib, &a[i], e->lookup(st, &a[i]), e->name);
    free(a);
    e->destroy(st);
    lpm_ref_free(ref);
}

int tu_run(Suite *s)
{
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
