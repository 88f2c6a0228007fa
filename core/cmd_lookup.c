/* lpmpipe lookup: the same "addr nexthop" output from every engine. */
#include <stdlib.h>
#include <string.h>

#include "../cli/cli.h"
#include "engine.h"
#include "input.h"
#include "ref_lpm.h"

/* The mapper answers `lookup --image` (it owns the image interpreter). */
int lpm_cmd_lookup_image(int argc, char **argv) __attribute__((weak));

static const char *cmd = "lookup";

static void help(FILE *fp)
{
    fprintf(fp,
            "usage: lpmpipe lookup --fib F [--engine E] [--verify] [ADDR... | -]\n"
            "       lpmpipe lookup --image IMG [ADDR... | -]   (pipeline image interpreter)\n"
            "\n"
            "Looks addresses up and prints one 'addr nexthop' line each ('-' = no match).\n"
            "Addresses come from the command line, or one per line from standard input\n"
            "with '-' (or with no ADDR at all), or from --trace FILE.\n"
            "\n"
            "  --fib F             the table (any format lpmpipe fib reads)\n"
            "  --engine E          lookup engine (default ref); see the list below\n"
            "  --trace FILE        read addresses from FILE\n"
            "  --verify            compare every answer with the reference LPM; a\n"
            "                      mismatch is reported and the exit status is 1\n"
            LPM_CLI_FIB_HELP
            "\nengines:\n");
    for (size_t i = 0; i < lpm_engine_count(); i++) {
        const lpm_engine_ops *e = lpm_engine_at(i);
        fprintf(fp, "  %-16s %s%s\n", e->name, e->summary,
                e->families == LPM_ENGINE_V4 ? " (IPv4 only)" : "");
    }
}

typedef struct {
    const lpm_engine_ops *e;
    void *state;
    const lpm_fib *fib;
    lpm_ref *ref;
    unsigned long mismatches;
    int family;
} ctx;

static int answer(ctx *c, const char *src, const char *name, unsigned long line)
{
    lpm_addr a;
    int fam;
    lpm_err err;
    if (lpm_addr_parse(src, &fam, &a, &err)) {
        fprintf(stderr, "%s:%lu: %s\n", name, line, err.msg);
        return 2;
    }
    if (fam != c->family) {
        fprintf(stderr, "%s:%lu: IPv%d address looked up in an IPv%d table\n", name, line, fam, c->family);
        return 2;
    }
    uint32_t nh = c->e->lookup(c->state, &a);
    char buf[LPM_ADDR_STRLEN];
    lpm_addr_format(&a, fam, buf, sizeof buf);
    printf("%s %s\n", buf, nh == LPM_NH_NONE ? "-" : lpm_nhtab_name(&c->fib->nh, nh));
    if (c->ref) {
        int len;
        uint32_t want = lpm_ref_lookup(c->ref, &a, &len);
        if (want != nh) {
            char p[LPM_ADDR_STRLEN + 8] = "none";
            if (len >= 0) {
                lpm_prefix pf = { lpm_addr_mask(&a, (unsigned)len), (uint8_t)len, (uint8_t)fam };
                lpm_prefix_format(&pf, p, sizeof p);
            }
            fprintf(stderr, "lpmpipe: lookup: mismatch: %s: engine %s says %s, reference says %s (prefix %s)\n",
                    buf, c->e->name, nh == LPM_NH_NONE ? "-" : lpm_nhtab_name(&c->fib->nh, nh),
                    want == LPM_NH_NONE ? "-" : lpm_nhtab_name(&c->fib->nh, want), p);
            c->mismatches++;
        }
    }
    return 0;
}

static int from_stream(ctx *c, const char *path)
{
    lpm_input *in;
    lpm_err err;
    if (lpm_input_open(&in, path, &err)) {
        fprintf(stderr, "%s\n", err.msg);
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
        rc = answer(c, s, lpm_input_name(in), lpm_input_lineno(in));
    }
    if (rc == 0 && r < 0) {
        fprintf(stderr, "%s\n", err.msg);
        rc = 2;
    }
    lpm_input_close(in);
    return rc;
}

int lpm_cmd_lookup(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--image") || !strncmp(argv[i], "--image=", 8)) {
            if (!lpm_cmd_lookup_image) {
                lpm_cli_error(cmd, "--image: the mapper is not built into this binary");
                return 1;
            }
            return lpm_cmd_lookup_image(argc, argv);
        }
    enum { O_FIB = LPM_OPT_FIRST_FREE, O_ENGINE, O_TRACE, O_VERIFY };
    static const struct option lo[] = {
        { "fib", required_argument, 0, O_FIB },
        { "engine", required_argument, 0, O_ENGINE },
        { "trace", required_argument, 0, O_TRACE },
        { "verify", no_argument, 0, O_VERIFY },
        { "help", no_argument, 0, 'h' },
        LPM_CLI_FIB_LONGOPTS,
        { 0, 0, 0, 0 },
    };
    lpm_fib_opts fo;
    lpm_fib_opts_default(&fo);
    const char *fib_path = NULL, *engine = "ref", *trace = NULL;
    int verify = 0, c;
    while ((c = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
        int r = lpm_cli_fib_option(cmd, c, optarg, &fo);
        if (r < 0)
            return 2;
        if (r > 0)
            continue;
        switch (c) {
        case O_FIB: fib_path = optarg; break;
        case O_ENGINE: engine = optarg; break;
        case O_TRACE: trace = optarg; break;
        case O_VERIFY: verify = 1; break;
        case 'h': help(stdout); return 0;
        default: return lpm_cli_usage_error(cmd);
        }
    }
    if (!fib_path) {
        lpm_cli_error(cmd, "--fib is required (or --image)");
        return lpm_cli_usage_error(cmd);
    }
    ctx cx = { 0 };
    cx.e = lpm_engine_find(engine);
    if (!cx.e) {
        lpm_cli_error(cmd, "--engine: unknown engine '%s' (see --help)", engine);
        return 2;
    }
    lpm_fib fib;
    lpm_fib_init(&fib);
    int rc = lpm_cli_load_fib(cmd, fib_path, &fo, &fib);
    if (rc)
        return rc;
    cx.fib = &fib;
    cx.family = fib.family;
    lpm_err err;
    if (!(cx.e->families & (fib.family == LPM_AF_INET ? LPM_ENGINE_V4 : LPM_ENGINE_V6))) {
        lpm_cli_error(cmd, "engine %s does not support IPv%d", cx.e->name, fib.family);
        lpm_fib_free(&fib);
        return 2;
    }
    if ((rc = cx.e->build(&cx.state, &fib, &err))) {
        lpm_cli_error(cmd, "%s", err.msg);
        lpm_fib_free(&fib);
        return rc;
    }
    if (verify && (rc = lpm_ref_build(&cx.ref, &fib, &err))) {
        lpm_cli_error(cmd, "%s", err.msg);
        goto out;
    }
    if (trace)
        rc = from_stream(&cx, trace);
    else if (optind >= argc || (optind == argc - 1 && !strcmp(argv[optind], "-")))
        rc = from_stream(&cx, "-");
    else
        for (int i = optind; i < argc && rc == 0; i++)
            rc = answer(&cx, argv[i], "<argv>", (unsigned long)(i - optind + 1));
    if (rc == 0 && cx.mismatches) {
        lpm_cli_error(cmd, "%lu mismatch%s against the reference", cx.mismatches, cx.mismatches == 1 ? "" : "es");
        rc = 1;
    }
out:
    if (fflush(stdout))
        rc = rc ? rc : 1;
    lpm_ref_free(cx.ref);
    cx.e->destroy(cx.state);
    lpm_fib_free(&fib);
    return rc;
}
