/* lpmpipe fib stats|convert|gen|tries: describe, convert and generate tables. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cmd.h"
#include "../core/fib_stats.h"
#include "../core/synth.h"

static void help(FILE *fp)
{
    fprintf(fp,
            "usage: lpmpipe fib stats --fib F [--json] [FIB options]\n"
            "       lpmpipe fib convert --fib F [-o OUT] [--every N] [--first K] [--count M] [FIB options]\n"
            "       lpmpipe fib gen --family 4|6 --count N [--seed S] [--next-hops K] [-o OUT]\n"
            "       lpmpipe fib tries --fib F [--strides S | --levels K --algo A] [--json]\n"
            "\n"
            "stats    prefixes, next hops, family, length histogram, duplicates, skipped\n"
            "         lines and nesting (prefixes covered by a shorter one)\n"
            "convert  reads any format and writes the plain 'prefix/len nexthop' format\n"
            "gen      writes a synthetic table (docs/synthetic.md) in the plain format\n"
            "tries    unibit and multibit trie nodes and memory per level (docs/tries.md)\n"
            "\n"
            "'lpmpipe fib SUBCOMMAND --help' for the options of each. Formats: docs/formats.md.\n");
}

static void help_stats(FILE *fp)
{
    fprintf(fp,
            "usage: lpmpipe fib stats --fib F [--json] [FIB options]\n"
            "\n"
            "  --fib F             the table ('-' = standard input; .gz/.xz/.bz2 read as is)\n"
            "  --json              one JSON object on one line (schema in docs/formats.md)\n"
            LPM_CLI_FIB_HELP);
}

static void help_convert(FILE *fp)
{
    fprintf(fp,
            "usage: lpmpipe fib convert --fib F [-o OUT] [--every N] [--first K] [--count M]\n"
            "                          [FIB options]\n"
            "\n"
            "Writes the table as 'prefix/len nexthop' lines sorted by address, then length.\n"
            "\n"
            "  --fib F             the table, any format lpmpipe reads\n"
            "  -o, --output OUT    where to write (default '-': standard output)\n"
            "  --every N           a subset: one route in N of the sorted table (default 1)\n"
            "  --first K           the subset starts with the Kth route (default 1)\n"
            "  --count M           at most M routes (default: all)\n"
            LPM_CLI_FIB_HELP);
}

static void help_gen(FILE *fp)
{
    fprintf(fp,
            "usage: lpmpipe fib gen --family 4|6 --count N [--seed S] [--next-hops K] [-o OUT]\n"
            "\n"
            "  --family 4|6        address family\n"
            "  --count N           number of unique prefixes (1..4M; K/M suffixes allowed)\n"
            "  --seed S            random seed (default 1); same seed, same table\n"
            "  --next-hops K       distinct next hops (1..65536, default 32)\n"
            "  -o, --output OUT    where to write (default '-': standard output)\n");
}

/* JSON string body: quotes, backslashes and control bytes escaped. */
static void json_str(FILE *fp, const char *s)
{
    fputc('"', fp);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(fp, "\\%c", c);
        else if (c < 0x20)
            fprintf(fp, "\\u%04x", c);
        else
            fputc(c, fp);
    }
    fputc('"', fp);
}

static void print_stats(const char *path, const lpm_fib *f, const lpm_fib_stats *s, int json)
{
    unsigned w = lpm_family_bits(f->family);
    double share = s->prefixes ? (double)s->nested / (double)s->prefixes : 0.0;
    if (json) {
        printf("{\"file\":");
        json_str(stdout, path);
        printf(",\"family\":%d,\"prefixes\":%zu,\"next_hops\":%zu,\"duplicates\":%zu,\"skipped\":%zu,"
               "\"nested\":%zu,\"nesting_share\":%.6f,\"peer\":",
               f->family, s->prefixes, s->next_hops, f->duplicates, f->skipped, s->nested, share);
        json_str(stdout, f->peer);
        printf(",\"lengths\":{");
        int first = 1;
        for (unsigned l = 0; l <= w; l++)
            if (s->lengths[l]) {
                printf("%s\"%u\":%zu", first ? "" : ",", l, s->lengths[l]);
                first = 0;
            }
        printf("}}\n");
        return;
    }
    printf("%-12s %s\n", "table", path);
    printf("%-12s IPv%d\n", "family", f->family);
    printf("%-12s %zu\n", "prefixes", s->prefixes);
    printf("%-12s %zu\n", "next hops", s->next_hops);
    printf("%-12s %zu\n", "duplicates", f->duplicates);
    printf("%-12s %zu\n", "skipped", f->skipped);
    printf("%-12s %zu (%.2f%%)\n", "nested", s->nested, 100.0 * share);
    if (f->peer[0])
        printf("%-12s %s\n", "peer", f->peer);
    printf("\n%-6s %10s %8s\n", "length", "prefixes", "share");
    for (unsigned l = 0; l <= w; l++)
        if (s->lengths[l])
            printf("/%-5u %10zu %7.3f%%\n", l, s->lengths[l],
                   100.0 * (double)s->lengths[l] / (double)s->prefixes);
}

enum { O_FIB = LPM_OPT_FIRST_FREE, O_JSON, O_COUNT, O_SEED, O_NH, O_GFAMILY, O_EVERY, O_FIRST };

/* convert's subset: routes first, first + every, ... of the sorted table, at most count (a held-out
 * sample of a real table, e.g. every 84th route, made by lpmpipe so a report input can name it). */
static void keep_subset(lpm_fib *f, uint64_t every, uint64_t first, uint64_t count)
{
    size_t j = 0;
    for (uint64_t i = first - 1; i < f->n && j < count; i += every)
        f->routes[j++] = f->routes[i];
    f->n = j;
}

/* stats and convert: a table in, figures or the plain format out. */
static int read_cmd(int argc, char **argv, int convert)
{
    const char *cmd = convert ? "fib convert" : "fib stats";
    static const struct option lo[] = {
        { "fib", required_argument, 0, O_FIB },
        { "json", no_argument, 0, O_JSON },
        { "output", required_argument, 0, 'o' },
        { "every", required_argument, 0, O_EVERY },
        { "first", required_argument, 0, O_FIRST },
        { "count", required_argument, 0, O_COUNT },
        { "help", no_argument, 0, 'h' },
        LPM_CLI_FIB_LONGOPTS,
        { 0, 0, 0, 0 },
    };
    lpm_fib_opts fo;
    lpm_fib_opts_default(&fo);
    const char *path = NULL, *out = "-";
    int json = 0, c;
    uint64_t every = 1, first = 1, count = UINT64_MAX;
    while ((c = lpm_cli_getopt(cmd, argc, argv, convert ? ":ho:" : ":h", lo)) != -1) {
        int r = lpm_cli_fib_option(cmd, c, optarg, &fo);
        if (r < 0)
            return 2;
        if (r > 0)
            continue;
        switch (c) {
        case O_FIB: path = optarg; break;
        case O_JSON:
            if (convert)
                return lpm_cli_error(cmd, "--json: only for fib stats"), 2;
            json = 1;
            break;
        case 'o':
            if (!convert)
                return lpm_cli_error(cmd, "-o: only for fib convert and fib gen"), 2;
            out = optarg;
            break;
        case O_EVERY:
        case O_FIRST:
        case O_COUNT: {
            const char *opt = c == O_EVERY ? "--every" : c == O_FIRST ? "--first" : "--count";
            if (!convert)
                return lpm_cli_error(cmd, "%s: only for fib convert", opt), 2;
            if (lpm_cli_u64(cmd, opt, optarg, 1, UINT64_MAX, c == O_EVERY ? &every : c == O_FIRST ? &first : &count))
                return 2;
            break;
        }
        case 'h': convert ? help_convert(stdout) : help_stats(stdout); return 0;
        default: return lpm_cli_usage_error(cmd);
        }
    }
    if (optind < argc) {
        lpm_cli_error(cmd, "unexpected argument '%s' (the table is given with --fib)", argv[optind]);
        return 2;
    }
    if (!path) {
        lpm_cli_error(cmd, "--fib is required");
        return lpm_cli_usage_error(cmd);
    }
    lpm_fib f;
    lpm_fib_init(&f);
    int rc = lpm_cli_load_fib(cmd, path, &fo, &f);
    if (rc)
        return rc;
    if (convert) {
        lpm_err err;
        keep_subset(&f, every, first, count);
        if ((rc = lpm_fib_write_plain(&f, out, &err)))
            lpm_cli_error(cmd, "%s", err.msg);
    } else {
        lpm_fib_stats s;
        lpm_fib_stats_compute(&f, &s);
        print_stats(path, &f, &s, json);
        if (fflush(stdout) || ferror(stdout)) {
            lpm_cli_error(cmd, "write error on standard output");
            rc = 1;
        }
    }
    lpm_fib_free(&f);
    return rc;
}

static int gen_cmd(int argc, char **argv)
{
    const char *cmd = "fib gen";
    static const struct option lo[] = {
        { "family", required_argument, 0, O_GFAMILY },
        { "count", required_argument, 0, O_COUNT },
        { "seed", required_argument, 0, O_SEED },
        { "next-hops", required_argument, 0, O_NH },
        { "output", required_argument, 0, 'o' },
        { "help", no_argument, 0, 'h' },
        { 0, 0, 0, 0 },
    };
    unsigned family = 0, nh = 32;
    uint64_t count = 0, seed = 1;
    int have_count = 0, c;
    const char *out = "-";
    while ((c = lpm_cli_getopt(cmd, argc, argv, ":ho:", lo)) != -1) {
        switch (c) {
        case O_GFAMILY:
            if (strcmp(optarg, "4") && strcmp(optarg, "6")) {
                lpm_cli_error(cmd, "--family: '%s' is not 4 or 6", optarg);
                return 2;
            }
            family = (unsigned)atoi(optarg);
            break;
        case O_COUNT:
            if (lpm_cli_u64(cmd, "--count", optarg, 1, LPM_SYNTH_MAX_COUNT, &count))
                return 2;
            have_count = 1;
            break;
        case O_SEED:
            if (lpm_cli_u64(cmd, "--seed", optarg, 0, UINT64_MAX, &seed))
                return 2;
            break;
        case O_NH:
            if (lpm_cli_uint(cmd, "--next-hops", optarg, 1, 65536, &nh))
                return 2;
            break;
        case 'o': out = optarg; break;
        case 'h': help_gen(stdout); return 0;
        default: return lpm_cli_usage_error(cmd);
        }
    }
    if (optind < argc) {
        lpm_cli_error(cmd, "unexpected argument '%s'", argv[optind]);
        return 2;
    }
    if (!family || !have_count) {
        lpm_cli_error(cmd, "--family and --count are required");
        return lpm_cli_usage_error(cmd);
    }
    lpm_fib f;
    lpm_fib_init(&f);
    lpm_err err;
    int rc = lpm_synth_fib(&f, (int)family, (size_t)count, seed, nh, &err);
    if (!rc)
        rc = lpm_fib_write_plain(&f, out, &err);
    if (rc)
        lpm_cli_error(cmd, "%s", err.msg);
    lpm_fib_free(&f);
    return rc;
}

int lpm_cmd_fib(int argc, char **argv)
{
    if (argc < 2) {
        help(stderr);
        return 2;
    }
    const char *sub = argv[1];
    opterr = 0;
    if (!strcmp(sub, "--help") || !strcmp(sub, "-h") || !strcmp(sub, "help")) {
        help(stdout);
        return 0;
    }
    if (!strcmp(sub, "stats"))
        return read_cmd(argc - 1, argv + 1, 0);
    if (!strcmp(sub, "convert"))
        return read_cmd(argc - 1, argv + 1, 1);
    if (!strcmp(sub, "tries"))
        return lpm_fib_tries_report(argc - 1, argv + 1);
    if (!strcmp(sub, "gen"))
        return gen_cmd(argc - 1, argv + 1);
    lpm_cli_error("fib", "unknown subcommand '%s' (stats, convert, gen, tries)", sub);
    return 2;
}
