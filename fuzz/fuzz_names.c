/* Name tables and name queries (names/). names_table: byte 0 bit 0 picks
 * the reader, a `NAME PORT` table (names lookup --table) or a domain list
 * (names build --domains); bit 1 --skip-bad; bit 2 aggregation. A table
 * that loads is built into every name engine and each of its names is
 * looked up in each: an answer other than the reference's aborts.
 * names_query: a name list (names lookup --trace) looked up in every
 * engine over a small fixed table, checked the same way. */
#include "fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../names/nengine.h"
#include "../names/ntrace.h"

static void agree(const lpm_ntable *sorted, const lpm_ntable *queries)
{
    lpm_nengine e[4];
    int built[4] = { 0 };
    lpm_err err;
    /* Small MATA lengths: the defaults (1M..16M slots) would make every
     * execution allocate hundreds of MiB; a table that does not fit is
     * refused by the build, and that engine is left out. */
    lpm_naa_opts ao;
    for (int k = 0; k < 4; k++) {
        lpm_naa_default_opts(&ao, k == LPM_NE_MATA);
        if (k == LPM_NE_MATA) {
            ao.primes[0] = 1021;
            ao.primes[1] = 4093;
            ao.primes[2] = 16381;
        }
        ao.max_entries = 1u << 20;
        built[k] = lpm_nengine_build(&e[k], (lpm_ne_kind)k, sorted, &ao, &err) == LPM_OK;
    }
    if (!built[LPM_NE_REF])
        goto out;
    for (size_t i = 0; i < queries->n; i++) {
        const char *s = lpm_ntable_name(queries, i);
        size_t len = queries->e[i].len;
        uint32_t want = lpm_nengine_lookup(&e[LPM_NE_REF], s, len);
        for (int k = 1; k < 4; k++) {
            if (!built[k])
                continue;
            uint32_t got = lpm_nengine_lookup(&e[k], s, len);
            if (got != want) {
                fprintf(stderr, "names engine %s answers %u for '%.*s', the reference %u\n",
                        lpm_nengine_name((lpm_ne_kind)k), got, (int)len, s, want);
                abort();
            }
        }
    }
out:
    for (int k = 0; k < 4; k++)
        if (built[k])
            lpm_nengine_free(&e[k]);
}

int lpm_fuzz_names_table(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    const char *path = lpm_fuzz_path(data + 1, size - 1);
    lpm_ntable t;
    lpm_err err;
    int rc;
    if (data[0] & 1) {
        lpm_ndomain_opts o = { 16, 0, (data[0] >> 2) & 1, (data[0] >> 1) & 1 };
        lpm_ndomain_stats st;
        rc = lpm_ntable_from_domains(&t, path, &o, &st, &err);
    } else {
        size_t skipped;
        rc = lpm_ntable_load(&t, path, (data[0] >> 1) & 1, &skipped, &err);
        if (rc == LPM_OK && lpm_ntable_sort(&t, &err) != LPM_OK) {
            lpm_ntable_free(&t);
            return 0;
        }
    }
    if (rc != LPM_OK)
        return 0;
    agree(&t, &t);
    lpm_ntable_free(&t);
    return 0;
}

/* The fixed table of names_query: nested names, a root, long components. */
static void query_table(lpm_ntable *t)
{
    static const char *const names[] = { "/", "/com", "/com/parc", "/com/parc/www", "/com/google/mail",
                                         "/org/example/a/b/c/d", "/net/x", "/net/xy", "/net/xyz/0123456789abcdef" };
    lpm_err err;
    char norm[LPM_NAME_MAX + 1];
    lpm_ntable_init(t);
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const char *why;
        long n = lpm_name_normalize(names[i], strlen(names[i]), norm, &why);
        if (n < 0 || lpm_ntable_add(t, norm, (size_t)n, (uint32_t)i, &err))
            abort();
    }
    if (lpm_ntable_sort(t, &err))
        abort();
}

int lpm_fuzz_names_query(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    lpm_ntable t, q;
    query_table(&t);
    size_t skipped;
    lpm_err err;
    if (lpm_nlist_load(&q, lpm_fuzz_path(data + 1, size - 1), data[0] & 1, &skipped, &err) == LPM_OK) {
        agree(&t, &q);
        lpm_ntable_free(&q);
    }
    lpm_ntable_free(&t);
    return 0;
}
