/* lpmpipe trace gen | updates: lookup traces and update traces from a table. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cmd.h"
#include "../core/trace.h"

/* "trace", then "trace gen" or "trace updates" once the subcommand is known. */
static const char *cmd = "trace";

/* trace gen's request options: it writes traces (no --trace), --count
 * required. */
static void gen_req_init(lpm_cli_req *r)
{
    lpm_cli_req_init(r, LPM_TRACE_RANDOM_MATCH, 0, LPM_TRACE_MAX_COUNT);
    r->no_trace = 1;
}

static void help(FILE *fp)
{
    fprintf(fp,
            "usage: lpmpipe trace gen --fib F [--gen K] --count N [--seed S] [--burst MEAN]\n"
            "                         [--zipf S] [-o OUT] [FIB options]\n"
            "       lpmpipe trace updates --fib F --count N [--withdraw-share R] [--seed S] [-o OUT]\n"
            "                             [FIB options]\n"
            "\n"
            "gen writes one address per line (the trace format of docs/synthetic.md):\n");
    lpm_cli_req r;
    gen_req_init(&r);
    lpm_cli_req_help(fp, &r);
    fprintf(fp,
            "                      kinds: uniform       uniform over the family's address space\n"
            "                             random-match  He et al.: the longest leaf-pushed path of\n"
            "                                           a random prefix, completed with random bits\n"
            "                             table         GAMT: a random table prefix, random completion\n"
            "                             zipf          table addresses with Zipf popularity\n"
            "  --burst MEAN        runs of one repeated address, geometric with this mean\n"
            "                      (1..1000000; default none)\n"
            "  --zipf S            Zipf exponent for --gen zipf, in (0, 10] (default 1)\n"
            "  -o OUT              output file (default standard output)\n"
            "\n"
            "updates writes 'time a|w prefix [nexthop]' lines against the table:\n"
            "  --count N           updates, 1..%u\n"
            "  --withdraw-share R  share of withdrawals of present prefixes, 0..1 (default 0.2);\n"
            "                      the rest announce new prefixes near existing ones,\n"
            "                      re-announce withdrawn ones, or change next hops\n"
            "\n"
            LPM_CLI_FIB_HELP,
            LPM_UPDATES_MAX_COUNT);
}

typedef struct {
    const char *fib, *out;
    lpm_fib_opts fo;
    uint64_t count, seed;
    int have_count;
    lpm_trace_opts to;
    double withdraw;
} args;

/* Parses the options of either subcommand; returns -1 to go on, else the
 * exit status. */
static int parse(int argc, char **argv, int gen, args *a)
{
    enum { O_FIB = LPM_OPT_FIRST_FREE, O_COUNT, O_SEED, O_BURST, O_ZIPF, O_WITHDRAW };
    static const struct option lo_gen[] = {
        { "fib", required_argument, 0, O_FIB },
        LPM_CLI_GEN_LONGOPTS,
        { "burst", required_argument, 0, O_BURST },
        { "zipf", required_argument, 0, O_ZIPF },
        { "output", required_argument, 0, 'o' },
        { "help", no_argument, 0, 'h' },
        LPM_CLI_FIB_LONGOPTS,
        { 0, 0, 0, 0 },
    };
    static const struct option lo_upd[] = {
        { "fib", required_argument, 0, O_FIB },
        { "count", required_argument, 0, O_COUNT },
        { "seed", required_argument, 0, O_SEED },
        { "withdraw-share", required_argument, 0, O_WITHDRAW },
        { "output", required_argument, 0, 'o' },
        { "help", no_argument, 0, 'h' },
        LPM_CLI_FIB_LONGOPTS,
        { 0, 0, 0, 0 },
    };
    memset(a, 0, sizeof *a);
    lpm_fib_opts_default(&a->fo);
    lpm_trace_opts_default(&a->to);
    a->out = "-";
    a->seed = 1;
    a->withdraw = 0.2;
    lpm_cli_req req;
    gen_req_init(&req);
    int c;
    optind = 1;
    while ((c = lpm_cli_getopt(cmd, argc, argv, "ho:", gen ? lo_gen : lo_upd)) != -1) {
        int r = lpm_cli_fib_option(cmd, c, optarg, &a->fo);
        if (!r && gen && (r = lpm_cli_req_option(cmd, c, optarg, &req)) > 0 && (c == LPM_OPT_GEN || c == LPM_OPT_KIND))
            r = lpm_cli_req_kind(cmd, &req) ? -1 : 1;
        if (r < 0)
            return 2;
        if (r > 0)
            continue;
        switch (c) {
        case O_FIB: a->fib = optarg; break;
        case 'o': a->out = optarg; break;
        case O_COUNT: /* trace updates */
            if (lpm_cli_u64(cmd, "--count", optarg, 1, LPM_UPDATES_MAX_COUNT, &a->count))
                return 2;
            a->have_count = 1;
            break;
        case O_SEED:
            if (lpm_cli_u64(cmd, "--seed", optarg, 0, UINT64_MAX, &a->seed))
                return 2;
            break;
        case O_BURST:
            if (lpm_cli_double(cmd, "--burst", optarg, 1, LPM_TRACE_MAX_BURST, &a->to.burst))
                return 2;
            break;
        case O_ZIPF:
            if (lpm_cli_double(cmd, "--zipf", optarg, 0, LPM_TRACE_MAX_ZIPF_S, &a->to.zipf_s))
                return 2;
            if (a->to.zipf_s <= 0) {
                lpm_cli_error(cmd, "--zipf: the exponent must be more than 0");
                return 2;
            }
            break;
        case O_WITHDRAW:
            if (lpm_cli_double(cmd, "--withdraw-share", optarg, 0, 1, &a->withdraw))
                return 2;
            break;
        case 'h': help(stdout); return 0;
        default: return lpm_cli_usage_error(cmd);
        }
    }
    if (optind < argc) {
        lpm_cli_error(cmd, "unexpected argument '%s'", argv[optind]);
        return lpm_cli_usage_error(cmd);
    }
    if (gen) {
        a->to.kind = req.kind;
        a->count = req.count;
        a->have_count = req.count != 0;
        a->seed = req.seed;
    }
    if (!a->fib) {
        lpm_cli_error(cmd, "--fib is required");
        return lpm_cli_usage_error(cmd);
    }
    if (!a->have_count) {
        lpm_cli_error(cmd, "--count is required");
        return lpm_cli_usage_error(cmd);
    }
    return -1;
}

static int gen(const args *a, const lpm_fib *f)
{
    lpm_trace_opts o = a->to;
    o.count = (size_t)a->count;
    o.seed = a->seed;
    lpm_err err;
    lpm_tracegen *g;
    int rc = lpm_tracegen_new(&g, f, &o, &err);
    if (rc) {
        lpm_cli_error(cmd, "%s", err.msg);
        return rc;
    }
    /* In chunks: a 1G-address trace never sits in memory. */
    size_t chunk = 1u << 20;
    lpm_addr *buf = malloc((o.count < chunk ? o.count : chunk) * sizeof *buf);
    int orc = 1;
    FILE *fp = buf ? lpm_cli_open_out(cmd, a->out, &orc) : NULL;
    if (!buf)
        lpm_cli_error(cmd, "out of memory");
    if (!fp) {
        free(buf);
        lpm_tracegen_free(g);
        return orc;
    }
    for (size_t done = 0; done < o.count && rc == LPM_OK;) {
        size_t k = o.count - done < chunk ? o.count - done : chunk;
        lpm_tracegen_next(g, buf, k);
        if ((rc = lpm_trace_write_fp(fp, buf, k, f->family, &err)))
            lpm_cli_error(cmd, "%s: %s", a->out, err.msg);
        done += k;
    }
    int crc = lpm_cli_close_out(cmd, fp, a->out);
    free(buf);
    lpm_tracegen_free(g);
    return rc ? rc : crc;
}

static int updates(const args *a, lpm_fib *f)
{
    lpm_err err;
    lpm_update *u;
    int rc = lpm_updates_gen(f, (size_t)a->count, a->withdraw, a->seed, &u, &err);
    if (rc) {
        lpm_cli_error(cmd, "%s", err.msg);
        return rc;
    }
    if ((rc = lpm_updates_write(a->out, f, u, (size_t)a->count, &err)))
        lpm_cli_error(cmd, "%s", err.msg);
    free(u);
    return rc;
}

int lpm_cmd_trace(int argc, char **argv)
{
    if (argc < 2) {
        help(stderr);
        return 2;
    }
    const char *sub = argv[1];
    if (!strcmp(sub, "--help") || !strcmp(sub, "-h") || !strcmp(sub, "help")) {
        help(stdout);
        return 0;
    }
    int is_gen = !strcmp(sub, "gen");
    if (!is_gen && strcmp(sub, "updates")) {
        lpm_cli_error(cmd, "unknown subcommand '%s' (gen or updates)", sub);
        return lpm_cli_usage_error(cmd);
    }
    cmd = is_gen ? "trace gen" : "trace updates";
    args a;
    int rc = parse(argc - 1, argv + 1, is_gen, &a);
    if (rc >= 0)
        return rc;
    lpm_fib f;
    lpm_fib_init(&f);
    if ((rc = lpm_cli_load_fib(cmd, a.fib, &a.fo, &f)))
        return rc;
    if (f.n == 0 && !(is_gen && a.to.kind == LPM_TRACE_UNIFORM)) {
        lpm_cli_error(cmd, "%s: the table is empty", a.fib);
        lpm_fib_free(&f);
        return 2;
    }
    rc = is_gen ? gen(&a, &f) : updates(&a, &f);
    lpm_fib_free(&f);
    return rc;
}
