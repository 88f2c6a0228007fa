/* lpmpipe lookup: the same "addr nexthop" output from every engine. */
#include <stdlib.h>
#include <string.h>

#include "addr_stream.h"
#include "cli.h"
#include "cmd.h"
#include "engines.h"
#include "../core/ref_lpm.h"

/* `lookup --image` is cmd_lookup_image.c's (the mapper's image interpreter). */
static const char *cmd = "lookup";

static void help(FILE *fp)
{
    fprintf(fp,
            "usage: lpmpipe lookup --fib F [--engine E] [--verify] [--trace FILE | ADDR... | -]\n"
            "                      [FIB options]\n"
            "       lpmpipe lookup --image IMG ...   (the pipeline image interpreter: lookup --image\n"
            "                                        IMG --help)\n"
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

static int answer(void *vc, const lpm_addr *a)
{
    ctx *c = vc;
    uint32_t nh = c->e->lookup(c->state, a);
    c->mismatches += (unsigned long)lpm_cli_answer(c->e->name, a, c->family,
                                                   nh == LPM_NH_NONE ? "-" : lpm_nhtab_name(&c->fib->nh, nh),
                                                   c->ref, &c->fib->nh, 0);
    return 0;
}

int lpm_cmd_lookup(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--image") || !strncmp(argv[i], "--image=", 8)) {
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
    while ((c = lpm_cli_getopt(cmd, argc, argv, "h", lo)) != -1) {
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
    if (!(cx.e = lpm_cli_engine(cmd, engine)))
        return 2;
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
    rc = lpm_cli_addresses(cx.family, "table", trace, argc, argv, optind, answer, &cx);
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
