/* lpmpipe fib tries: the per-level report of a table's unibit trie and of
 * its multibit trie for a stride array given or chosen by an algorithm.
 * No timings, so the same table and options give the same bytes. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cmd.h"
#include "../core/engine_tries.h"
#include "../core/trie_multibit.h"
#include "../core/trie_unibit.h"

static const char *cmd = "fib tries";

static void help(FILE *fp)
{
    fprintf(fp,
            "usage: lpmpipe fib tries --fib F [--strides S | --levels K --algo fixed|optimal|gamt\n"
            "                         [--txn T]] [--json] [FIB options]\n"
            "\n"
            "Per-level report of the table's unibit trie (nodes per depth, and those with\n"
            "children, which a multibit level starting there would hold) and of the\n"
            "multibit trie built with the strides: nodes, entries and bytes per level,\n"
            "the widest level and the memory transactions GAMT counts.\n"
            "\n"
            "  --fib F           the table (any format lpmpipe fib reads)\n"
            "  --strides S       16-8-8 (or 8,8,8,8), optimal:K, gamt:K or gamt:K:T\n"
            "  --levels K        levels for --algo (default 4 for IPv4, 16 for IPv6)\n"
            "  --algo A          fixed (K near-equal strides over the family's bits),\n"
            "                    optimal (Srinivasan-Varghese minimum memory) or gamt\n"
            "                    (GAMT Algorithm 3; the default when --levels is given)\n"
            "  --txn T           entries per memory transaction (default %d: 128 bytes)\n"
            "  --json            one JSON object (docs/tries.md gives the schema)\n"
            "Without --strides, --levels or --algo: the multibit engine's default strides.\n"
            LPM_CLI_FIB_HELP,
            LPM_STRIDES_DEFAULT_TXN);
}

/* K near-equal strides over the family's bits, longer ones first. */
static int even_strides(int family, unsigned k, lpm_strides *st, lpm_err *err)
{
    unsigned w = lpm_family_bits(family), v[LPM_MAX_LEVELS];
    if (k == 0 || k > LPM_MAX_LEVELS || k > w)
        return lpm_err_set(err, LPM_EINPUT, "--levels %u: 1..%u for IPv%d", k,
                           w < LPM_MAX_LEVELS ? w : LPM_MAX_LEVELS, family);
    for (unsigned i = 0; i < k; i++)
        v[i] = w / k + (i < w % k);
    return lpm_strides_fixed(family, v, k, st, err);
}

typedef struct report {
    const lpm_fib *fib;
    const char *algo;
    unsigned txn;
    size_t ucount[129];
    uint64_t expand[129];
    size_t unodes, ubytes;
    lpm_multibit m;
    lpm_mlevel_stats ls[LPM_MAX_LEVELS];
    size_t mbytes;
    lpm_strides_costs cost;
} report;

static void print_table(const report *r, const char *path)
{
    const lpm_multibit *m = &r->m;
    char sb[4 * LPM_MAX_LEVELS];
    lpm_strides_format(&m->st, sb, sizeof sb);
    printf("table %s: IPv%d, %zu prefixes\n\n", path, r->fib->family, r->fib->n);
    printf("unibit trie: %zu nodes, %zu bytes (%zu a node)\n", r->unodes, r->ubytes, sizeof(lpm_unode));
    printf("%5s %10s %14s\n", "depth", "nodes", "with_children");
    for (unsigned d = 0; d <= 128; d++)
        if (r->ucount[d])
            printf("%5u %10zu %14llu\n", d, r->ucount[d], (unsigned long long)r->expand[d]);
    printf("\nmultibit trie: strides %s (%s), transactions of %u entries\n", sb, r->algo, r->txn);
    printf("%5s %6s %6s %10s %12s %12s %12s\n", "level", "offset", "stride", "nodes", "entries", "bytes",
           "transactions");
    for (unsigned i = 0; i < m->st.levels; i++)
        printf("%5u %6u %6u %10zu %12zu %12zu %12llu\n", i, m->offset[i], m->st.stride[i], r->ls[i].nodes,
               r->ls[i].entries, r->ls[i].bytes,
               (unsigned long long)(r->ls[i].entries / r->txn + (r->ls[i].entries % r->txn != 0)));
    printf("total: %llu entries, %zu bytes of lookup words; widest level %llu entries; %llu transactions\n",
           (unsigned long long)r->cost.entries, r->mbytes, (unsigned long long)r->cost.widest,
           (unsigned long long)r->cost.transactions);
    printf("control plane: %llu bytes of entries (%zu each) + %zu bytes of shadow unibit trie\n",
           (unsigned long long)(r->cost.entries * sizeof(lpm_mentry)), sizeof(lpm_mentry),
           lpm_unibit_memory(&m->shadow));
}

static void print_json(const report *r)
{
    const lpm_multibit *m = &r->m;
    char sb[4 * LPM_MAX_LEVELS];
    lpm_strides_format(&m->st, sb, sizeof sb);
    printf("{\"family\":%d,\"prefixes\":%zu,\"unibit\":{\"nodes\":%zu,\"bytes\":%zu,\"levels\":[", r->fib->family,
           r->fib->n, r->unodes, r->ubytes);
    int first = 1;
    for (unsigned d = 0; d <= 128; d++)
        if (r->ucount[d]) {
            printf("%s{\"depth\":%u,\"nodes\":%zu,\"with_children\":%llu}", first ? "" : ",", d, r->ucount[d],
                   (unsigned long long)r->expand[d]);
            first = 0;
        }
    printf("]},\"multibit\":{\"strides\":\"%s\",\"algo\":\"%s\",\"txn\":%u,\"levels\":[", sb, r->algo, r->txn);
    for (unsigned i = 0; i < m->st.levels; i++)
        printf("%s{\"level\":%u,\"offset\":%u,\"stride\":%u,\"nodes\":%zu,\"entries\":%zu,\"bytes\":%zu}",
               i ? "," : "", i, m->offset[i], m->st.stride[i], r->ls[i].nodes, r->ls[i].entries, r->ls[i].bytes);
    printf("],\"entries\":%llu,\"bytes\":%zu,\"widest\":%llu,\"transactions\":%llu,\"control_bytes\":%llu}}\n",
           (unsigned long long)r->cost.entries, r->mbytes, (unsigned long long)r->cost.widest,
           (unsigned long long)r->cost.transactions,
           (unsigned long long)(r->cost.entries * sizeof(lpm_mentry) + lpm_unibit_memory(&m->shadow)));
}

typedef struct tries_args {
    lpm_fib_opts fo;
    const char *path, *spec, *algo;
    unsigned levels, txn;
    int json;
} tries_args;

/* -1: go on; else the exit status (0 after --help). */
static int parse_args(int argc, char **argv, tries_args *a)
{
    enum { O_FIB = LPM_OPT_FIRST_FREE, O_STRIDES, O_LEVELS, O_ALGO, O_TXN, O_JSON };
    static const struct option lo[] = {
        { "fib", required_argument, 0, O_FIB },
        { "strides", required_argument, 0, O_STRIDES },
        { "levels", required_argument, 0, O_LEVELS },
        { "algo", required_argument, 0, O_ALGO },
        { "txn", required_argument, 0, O_TXN },
        { "json", no_argument, 0, O_JSON },
        { "help", no_argument, 0, 'h' },
        LPM_CLI_FIB_LONGOPTS,
        { 0, 0, 0, 0 },
    };
    memset(a, 0, sizeof *a);
    lpm_fib_opts_default(&a->fo);
    a->txn = LPM_STRIDES_DEFAULT_TXN;
    int c;
    opterr = 0;
    optind = 1;
    while ((c = lpm_cli_getopt(cmd, argc, argv, "h", lo)) != -1) {
        int r = lpm_cli_fib_option(cmd, c, optarg, &a->fo);
        if (r < 0)
            return 2;
        if (r > 0)
            continue;
        switch (c) {
        case O_FIB: a->path = optarg; break;
        case O_STRIDES: a->spec = optarg; break;
        case O_LEVELS:
            if (lpm_cli_uint(cmd, "--levels", optarg, 1, LPM_MAX_LEVELS, &a->levels))
                return 2;
            break;
        case O_ALGO:
            if (strcmp(optarg, "fixed") && strcmp(optarg, "optimal") && strcmp(optarg, "gamt")) {
                lpm_cli_error(cmd, "--algo: '%s' is not fixed, optimal or gamt", optarg);
                return 2;
            }
            a->algo = optarg;
            break;
        case O_TXN:
            if (lpm_cli_uint(cmd, "--txn", optarg, 1, 1u << 24, &a->txn))
                return 2;
            break;
        case O_JSON: a->json = 1; break;
        case 'h': help(stdout); return 0;
        default: return lpm_cli_usage_error(cmd);
        }
    }
    if (optind < argc) {
        lpm_cli_error(cmd, "unexpected argument '%s'", argv[optind]);
        return 2;
    }
    if (!a->path) {
        lpm_cli_error(cmd, "--fib is required");
        return lpm_cli_usage_error(cmd);
    }
    if (a->spec && (a->algo || a->levels)) {
        lpm_cli_error(cmd, "--strides gives the strides; --levels and --algo choose them: not both");
        return 2;
    }
    return -1;
}

/* The strides: given (--strides), chosen (--algo, --levels) or the
 * multibit engine's default; r->algo names which. */
static int choose_strides(const tries_args *a, const lpm_fib *f, lpm_unibit *u, report *r, lpm_strides *st,
                          lpm_err *err)
{
    if (a->spec) {
        r->algo = !strncmp(a->spec, "optimal:", 8) ? "optimal" : !strncmp(a->spec, "gamt:", 5) ? "gamt" : "fixed";
        return lpm_strides_spec(u, a->spec, st, err);
    }
    if (a->algo || a->levels) {
        r->algo = a->algo ? a->algo : "gamt";
        unsigned levels = a->levels ? a->levels : f->family == LPM_AF_INET ? 4 : 16;
        if (!strcmp(r->algo, "fixed"))
            return even_strides(f->family, levels, st, err);
        if (!strcmp(r->algo, "optimal"))
            return lpm_strides_optimal(u, levels, st, err);
        return lpm_strides_gamt(u, levels, a->txn, st, err);
    }
    r->algo = "default";
    return lpm_multibit_default_strides(u, st, err);
}

int lpm_fib_tries_report(int argc, char **argv)
{
    tries_args a;
    int rc = parse_args(argc, argv, &a);
    if (rc >= 0)
        return rc;
    report r;
    memset(&r, 0, sizeof r);
    lpm_fib f;
    lpm_fib_init(&f);
    if ((rc = lpm_cli_load_fib(cmd, a.path, &a.fo, &f)))
        return rc;
    r.fib = &f;
    r.txn = a.txn;
    lpm_err err;
    lpm_unibit u;
    lpm_strides st;
    if ((rc = lpm_unibit_build(&u, &f, &err))) {
        lpm_cli_error(cmd, "%s", err.msg);
        lpm_fib_free(&f);
        return rc;
    }
    lpm_unibit_level_counts(&u, r.ucount);
    lpm_strides_node_counts(&u, r.expand);
    r.unodes = u.live;
    r.ubytes = lpm_unibit_memory(&u);
    if ((rc = choose_strides(&a, &f, &u, &r, &st, &err))) {
        lpm_cli_error(cmd, "%s", err.msg);
        lpm_unibit_free(&u);
        lpm_fib_free(&f);
        return rc;
    }
    lpm_strides_cost(r.expand, &st, a.txn, &r.cost);
    if ((rc = lpm_multibit_build_with(&r.m, &f, &st, &u, &err))) {
        lpm_cli_error(cmd, "%s", err.msg);
        lpm_fib_free(&f);
        return rc;
    }
    lpm_multibit_stats(&r.m, r.ls, &r.mbytes);
    if (a.json)
        print_json(&r);
    else
        print_table(&r, a.path);
    if (fflush(stdout))
        rc = 1;
    lpm_multibit_free(&r.m);
    lpm_fib_free(&f);
    return rc;
}
