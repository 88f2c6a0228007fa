#include "addr_stream.h"

#include "cli.h"

#include <stdio.h>
#include <string.h>

#include "../core/input.h"

static int one(int family, const char *what, const char *src, const char *name,
               unsigned long line, lpm_cli_addr_fn fn, void *ctx)
{
    lpm_addr a;
    int fam;
    lpm_err err;
    char at[300]; /* "file:LINE" or, for the command line, "argument N" */
    if (name)
        snprintf(at, sizeof at, "%s:%lu", name, line);
    else
        snprintf(at, sizeof at, "argument %lu", line);
    if (lpm_addr_parse(src, &fam, &a, &err)) {
        lpm_cli_error("lookup", "%s: %s", at, err.msg);
        return 2;
    }
    if (fam != family) {
        lpm_cli_error("lookup", "%s: IPv%d address looked up in an IPv%d %s", at, fam, family, what);
        return 2;
    }
    return fn(ctx, &a);
}

static int from_stream(int family, const char *what, const char *path, lpm_cli_addr_fn fn, void *ctx)
{
    lpm_input *in;
    lpm_err err;
    if (lpm_input_open(&in, path, &err)) {
        lpm_cli_error("lookup", "%s", err.msg);
        return 2;
    }
    char *line;
    size_t len;
    int r, rc = 0;
    while (rc == 0 && (r = lpm_input_getline(in, &line, &len, &err)) == 1) {
        char *s = line;
        while (*s == ' ' || *s == '\t')
            s++;
        char *e = s + strcspn(s, " \t\r#");
        if (e == s)
            continue;
        *e = '\0';
        rc = one(family, what, s, lpm_input_name(in), lpm_input_lineno(in), fn, ctx);
    }
    if (rc == 0 && r < 0) {
        lpm_cli_error("lookup", "%s", err.msg);
        rc = 2;
    }
    lpm_input_close(in);
    return rc;
}

int lpm_cli_addresses(int family, const char *what, const char *trace,
                      int argc, char **argv, int first, lpm_cli_addr_fn fn, void *ctx)
{
    if (trace)
        return from_stream(family, what, trace, fn, ctx);
    if (first >= argc || (first == argc - 1 && !strcmp(argv[first], "-")))
        return from_stream(family, what, "-", fn, ctx);
    int rc = 0;
    for (int i = first; i < argc && rc == 0; i++)
        rc = one(family, what, argv[i], NULL, (unsigned long)(i - first + 1), fn, ctx);
    return rc;
}

int lpm_cli_answer(const char *engine, const lpm_addr *a, int family, const char *got,
                   const lpm_ref *ref, const lpm_nhtab *ref_nh, int quiet)
{
    char buf[LPM_ADDR_STRLEN];
    lpm_addr_format(a, family, buf, sizeof buf);
    if (!quiet)
        printf("%s %s\n", buf, got);
    if (!ref)
        return 0;
    int len;
    uint32_t w = lpm_ref_lookup(ref, a, &len);
    const char *want = w == LPM_NH_NONE ? "-" : lpm_nhtab_name(ref_nh, w);
    if (!strcmp(want, got))
        return 0;
    char p[LPM_ADDR_STRLEN + 8] = "none";
    if (len >= 0) {
        lpm_prefix pf = { lpm_addr_mask(a, (unsigned)len), (uint8_t)len, (uint8_t)family };
        lpm_prefix_format(&pf, p, sizeof p);
    }
    fprintf(stderr, "lpmpipe: lookup: mismatch: %s: %s says %s, reference says %s (prefix %s)\n", buf, engine,
            got, want, p);
    return 1;
}
