/* lpmpipe bench: lookup engines side by side on one table and one trace:
 * build time, structure memory, lookups per second (median of repeats,
 * batch path when the engine has one), answers checked against the
 * reference once, and the process's peak RSS. docs/cli-bench.md.
 *
 * Layout, for those extending it: options -> bench_opts; one bench_row per
 * engine filled by run_engine(); print_table() and print_json() only read
 * the rows. A new measurement is a field in bench_row, a line in
 * run_engine() and one in each printer. */
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "cli.h"
#include "cmd.h"
#include "engines.h"
#include "../core/engine_tries.h"
#include "../core/ref_lpm.h"
#include "../core/trace.h"

static const char *cmd = "bench";

/* `bench cpu` and `bench update-cost` (the parallel models, the DPDK peer
 * and the update cost) are cmd_bench_cpu.c's; docs/cpu-engines.md. */
static int wants_cpu(int argc, char **argv)
{
    if (argc >= 2 && (!strcmp(argv[1], "cpu") || !strcmp(argv[1], "update-cost")))
        return 1;
    for (int i = 1; i < argc; i++)
        if (!strncmp(argv[i], "--threads", 9) || !strncmp(argv[i], "--model", 7) || !strncmp(argv[i], "--peer", 6))
            return 1;
    return 0;
}

#define MAX_ROWS 64
#define MAX_REPEAT 1000

typedef struct bench_opts {
    const char *fib_path;
    lpm_fib_opts fo;
    const char *engines;     /* comma list or "all" */
    lpm_cli_req req;         /* --trace FILE, or generated: --gen, --count, --seed */
    unsigned repeat;
    int json;
    const char *strides;     /* multibit strides spec, NULL: default */
} bench_opts;

typedef struct bench_row {
    const lpm_engine_ops *e;
    char detail[128];        /* engine configuration, e.g. the strides */
    const char *skipped;     /* why the engine did not run, or NULL */
    char error[512];         /* build failure, or "" */
    int error_rc;            /* its status: 2 for bad input (e.g. --strides) */
    double build_s;
    size_t memory;
    double lookups_s;        /* median over the repeats, wall clock */
    double lookups_cpu_s;    /* the same per second of this thread's CPU time:
                              * what a loaded machine's figure is closer to */
    double runs_s[MAX_REPEAT];
    int batch;
    uint64_t mismatches;
    long peak_rss_kb;        /* process peak so far (monotonic) */
} bench_row;

typedef struct bench_ctx {
    const bench_opts *o;
    lpm_fib fib;
    double parse_s;
    lpm_addr *addr;
    size_t n;
    uint32_t *want;          /* the reference's answers */
    lpm_ref *ref;
} bench_ctx;

/* bench's request options: random-match unless --trace, in memory. */
static void req_init(lpm_cli_req *r)
{
    lpm_cli_req_init(r, LPM_TRACE_RANDOM_MATCH, 1000000, 100000000);
}

static void help(FILE *fp)
{
    fprintf(fp,
            "usage: lpmpipe bench --fib F [--engines LIST|all] [--trace FILE | --gen KIND\n"
            "                     --count N --seed S] [--repeat R] [--strides S] [--json]\n"
            "                     [FIB options]\n"
            "       lpmpipe bench cpu|update-cost ... [--threads T] [--model M] [--peer dpdk]\n"
            "                     (lpmpipe bench cpu --help)\n"
            "\n"
            "Times lookup engines on one table and one trace: build time, structure\n"
            "memory, lookups/s (median of R runs over the whole trace, batch path when\n"
            "the engine has one), every answer of the first run checked against the\n"
            "reference (a mismatch makes the exit status 1), and the peak RSS.\n"
            "\n"
            "  --fib F             the table (any format lpmpipe fib reads)\n"
            "  --engines LIST      comma-separated engine names, or all (default: all\n"
            "                      engines that support the table's family)\n");
    lpm_cli_req r;
    req_init(&r);
    lpm_cli_req_help(fp, &r);
    fprintf(fp,
            "  --repeat R          timed runs per engine, the median is reported (default 5)\n"
            "  --strides S         multibit strides: 16-8-8, optimal:K, gamt:K or gamt:K:T\n"
            "                      (default: the engine's, see docs/tries.md)\n"
            "  --json              one JSON object instead of the table (docs/cli-bench.md)\n"
            "  --threads T, --model rtc|pipeline, --peer dpdk\n"
            "                      parallel models and DPDK side by side: handled by\n"
            "                      lpmpipe bench cpu (see lpmpipe bench cpu --help)\n"
            "lpmpipe bench update-cost --fib F: update cost per engine (bench cpu --help)\n"
            LPM_CLI_FIB_HELP);
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static double thread_cpu_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static long peak_rss_kb(void)
{
    struct rusage ru;
    return getrusage(RUSAGE_SELF, &ru) ? -1 : ru.ru_maxrss;
}

static void lookup_all(const lpm_engine_ops *e, const void *st, const lpm_addr *a, uint32_t *nh, size_t n)
{
    if (e->lookup_batch) {
        e->lookup_batch(st, a, nh, n);
        return;
    }
    for (size_t i = 0; i < n; i++)
        nh[i] = e->lookup(st, &a[i]);
}

static void report_mismatch(const bench_ctx *c, const lpm_engine_ops *e, size_t i, uint32_t got)
{
    char ab[LPM_ADDR_STRLEN], pb[LPM_ADDR_STRLEN + 8] = "none";
    int len;
    lpm_ref_lookup(c->ref, &c->addr[i], &len);
    lpm_addr_format(&c->addr[i], c->fib.family, ab, sizeof ab);
    if (len >= 0) {
        lpm_prefix p = { lpm_addr_mask(&c->addr[i], (unsigned)len), (uint8_t)len, (uint8_t)c->fib.family };
        lpm_prefix_format(&p, pb, sizeof pb);
    }
    fprintf(stderr, "lpmpipe: bench: mismatch: %s: engine %s says %s, reference says %s (prefix %s)\n", ab,
            e->name, got == LPM_NH_NONE ? "-" : lpm_nhtab_name(&c->fib.nh, got),
            c->want[i] == LPM_NH_NONE ? "-" : lpm_nhtab_name(&c->fib.nh, c->want[i]), pb);
}

static void run_engine(const bench_ctx *c, bench_row *r)
{
    const lpm_engine_ops *e = r->e;
    if (!(e->families & (c->fib.family == LPM_AF_INET ? LPM_ENGINE_V4 : LPM_ENGINE_V6))) {
        r->skipped = c->fib.family == LPM_AF_INET ? "no IPv4" : "no IPv6";
        return;
    }
    lpm_err err;
    void *st = NULL;
    int custom = e == &lpm_engine_multibit;
    double t0 = now_s();
    int rc = custom ? lpm_engine_multibit_build_spec(&st, &c->fib, c->o->strides, &err)
                    : e->build(&st, &c->fib, &err);
    r->build_s = now_s() - t0;
    if (rc) {
        snprintf(r->error, sizeof r->error, "%s", err.msg);
        r->error_rc = rc;
        return;
    }
    if (custom)
        lpm_engine_multibit_describe(st, r->detail, sizeof r->detail);
    r->memory = e->memory ? e->memory(st) : 0;
    r->batch = e->lookup_batch != NULL;
    uint32_t *nh = malloc((c->n ? c->n : 1) * sizeof *nh);
    if (!nh) {
        snprintf(r->error, sizeof r->error, "out of memory");
        r->error_rc = 1;
        e->destroy(st);
        return;
    }
    double wall[MAX_REPEAT], cpu[MAX_REPEAT];
    for (unsigned k = 0; k < c->o->repeat; k++) {
        double c0 = thread_cpu_s();
        t0 = now_s();
        lookup_all(e, st, c->addr, nh, c->n);
        r->runs_s[k] = wall[k] = now_s() - t0;
        cpu[k] = thread_cpu_s() - c0;
        if (k == 0)
            for (size_t i = 0; i < c->n; i++)
                if (nh[i] != c->want[i] && r->mismatches++ < 5)
                    report_mismatch(c, e, i, nh[i]);
    }
    double mw = lpm_cli_median(wall, c->o->repeat), mc = lpm_cli_median(cpu, c->o->repeat);
    r->lookups_s = mw > 0 ? (double)c->n / mw : 0;
    r->lookups_cpu_s = mc > 0 ? (double)c->n / mc : 0;
    r->peak_rss_kb = peak_rss_kb();
    free(nh);
    e->destroy(st);
}

static void print_table(FILE *fp, const bench_ctx *c, const bench_row *rows, size_t nrows)
{
    fprintf(fp, "table %s: IPv%d, %zu prefixes, parsed in %.3f s\n", c->o->fib_path, c->fib.family,
            c->fib.n, c->parse_s);
    if (c->o->req.trace)
        fprintf(fp, "trace %s: %zu addresses; %u runs each, median\n", c->o->req.trace, c->n, c->o->repeat);
    else
        fprintf(fp, "trace %s, %zu addresses, seed %llu; %u runs each, median\n", lpm_trace_kind_name(c->o->req.kind),
                c->n, (unsigned long long)c->o->req.seed, c->o->repeat);
    fprintf(fp, "%-18s %10s %12s %12s %12s %6s %10s %12s  %s\n", "engine", "build_s", "memory_MiB", "Mlookups/s",
            "M/cpu_s", "batch", "mismatch", "peak_RSS_MiB", "detail");
    for (size_t i = 0; i < nrows; i++) {
        const bench_row *r = &rows[i];
        if (r->skipped || r->error[0]) {
            fprintf(fp, "%-18s %s\n", r->e->name, r->skipped ? r->skipped : r->error);
            continue;
        }
        fprintf(fp, "%-18s %10.3f %12.2f %12.2f %12.2f %6s %10llu %12.1f  %s\n", r->e->name, r->build_s,
                (double)r->memory / 1048576.0, r->lookups_s / 1e6, r->lookups_cpu_s / 1e6, r->batch ? "yes" : "no",
                (unsigned long long)r->mismatches, (double)r->peak_rss_kb / 1024.0, r->detail);
    }
}

static void json_str(FILE *fp, const char *s)
{
    fputc('"', fp);
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            fprintf(fp, "\\%c", ch);
        else if (ch < 0x20)
            fprintf(fp, "\\u%04x", ch);
        else
            fputc(ch, fp);
    }
    fputc('"', fp);
}

static void print_json(FILE *fp, const bench_ctx *c, const bench_row *rows, size_t nrows)
{
    fprintf(fp, "{\"fib\":");
    json_str(fp, c->o->fib_path);
    fprintf(fp, ",\"family\":%d,\"prefixes\":%zu,\"parse_s\":%.6f,\"trace\":{", c->fib.family, c->fib.n, c->parse_s);
    if (c->o->req.trace) {
        fprintf(fp, "\"file\":");
        json_str(fp, c->o->req.trace);
    } else {
        fprintf(fp, "\"kind\":\"%s\",\"seed\":%llu", lpm_trace_kind_name(c->o->req.kind), (unsigned long long)c->o->req.seed);
    }
    fprintf(fp, ",\"count\":%zu},\"repeat\":%u,\"engines\":[", c->n, c->o->repeat);
    for (size_t i = 0; i < nrows; i++) {
        const bench_row *r = &rows[i];
        fprintf(fp, "%s{\"name\":", i ? "," : "");
        json_str(fp, r->e->name);
        if (r->skipped || r->error[0]) {
            fprintf(fp, ",\"%s\":", r->skipped ? "skipped" : "error");
            json_str(fp, r->skipped ? r->skipped : r->error);
            fputc('}', fp);
            continue;
        }
        fprintf(fp, ",\"detail\":");
        json_str(fp, r->detail);
        fprintf(fp,
                ",\"build_s\":%.6f,\"memory_bytes\":%zu,\"lookups_per_s\":%.0f,\"lookups_per_cpu_s\":%.0f,"
                "\"batch\":%s,\"runs_s\":[",
                r->build_s, r->memory, r->lookups_s, r->lookups_cpu_s, r->batch ? "true" : "false");
        for (unsigned k = 0; k < c->o->repeat; k++)
            fprintf(fp, "%s%.6f", k ? "," : "", r->runs_s[k]);
        fprintf(fp, "],\"checked\":%zu,\"mismatches\":%llu,\"peak_rss_kb\":%ld}", c->n,
                (unsigned long long)r->mismatches, r->peak_rss_kb);
    }
    fprintf(fp, "]}\n");
}

/* The engines to run, in registry order for "all", else in list order;
 * "all" shows the other family's engines as skipped. */
static int pick_engines(const bench_opts *o, int family, bench_row *rows, size_t *nrows)
{
    const lpm_engine_ops *es[MAX_ROWS];
    int rc = lpm_cli_engine_list(cmd, o->engines, family, LPM_ENGINES_ALL_FAMILIES, es, MAX_ROWS, nrows);
    for (size_t i = 0; !rc && i < *nrows; i++)
        rows[i].e = es[i];
    return rc;
}

static int parse_args(int argc, char **argv, bench_opts *o)
{
    enum { O_FIB = LPM_OPT_FIRST_FREE, O_ENGINES, O_REPEAT, O_JSON, O_STRIDES };
    static const struct option lo[] = {
        { "fib", required_argument, 0, O_FIB },
        { "engines", required_argument, 0, O_ENGINES },
        LPM_CLI_REQ_LONGOPTS,
        { "repeat", required_argument, 0, O_REPEAT },
        { "json", no_argument, 0, O_JSON },
        { "strides", required_argument, 0, O_STRIDES },
        { "help", no_argument, 0, 'h' },
        LPM_CLI_FIB_LONGOPTS,
        { 0, 0, 0, 0 },
    };
    memset(o, 0, sizeof *o);
    lpm_fib_opts_default(&o->fo);
    req_init(&o->req);
    o->repeat = 5;
    int c;
    opterr = 0;
    while ((c = lpm_cli_getopt(cmd, argc, argv, "h", lo)) != -1) {
        int r = lpm_cli_fib_option(cmd, c, optarg, &o->fo);
        if (!r && (r = lpm_cli_req_option(cmd, c, optarg, &o->req)) > 0 && (c == LPM_OPT_GEN || c == LPM_OPT_KIND))
            r = lpm_cli_req_kind(cmd, &o->req) ? -1 : 1;
        if (r < 0)
            return 2;
        if (r > 0)
            continue;
        switch (c) {
        case O_FIB: o->fib_path = optarg; break;
        case O_ENGINES: o->engines = optarg; break;
        case O_REPEAT:
            if (lpm_cli_uint(cmd, "--repeat", optarg, 1, MAX_REPEAT, &o->repeat))
                return 2;
            break;
        case O_JSON: o->json = 1; break;
        case O_STRIDES: o->strides = optarg; break;
        case 'h': help(stdout); return -1;
        default: return lpm_cli_usage_error(cmd);
        }
    }
    if (optind < argc) {
        lpm_cli_error(cmd, "unexpected argument '%s'", argv[optind]);
        return 2;
    }
    if (!o->fib_path) {
        lpm_cli_error(cmd, "--fib is required");
        return lpm_cli_usage_error(cmd);
    }
    if (o->req.trace && o->req.gen_set) {
        lpm_cli_error(cmd, "--trace reads addresses; --gen (--kind), --count and --seed generate them: not both");
        return 2;
    }
    return 0;
}

static int load_addresses(bench_ctx *c)
{
    lpm_err err;
    if (c->o->req.trace) {
        int family;
        if (lpm_trace_load(c->o->req.trace, &c->addr, &c->n, &family, &err)) {
            lpm_cli_error(cmd, "%s", err.msg);
            return 2;
        }
        if (c->n == 0) {
            lpm_cli_error(cmd, "--trace %s: no addresses", c->o->req.trace);
            return 2;
        }
        if (family != c->fib.family) {
            lpm_cli_error(cmd, "--trace %s holds IPv%d addresses, the table is IPv%d", c->o->req.trace, family,
                          c->fib.family);
            return 2;
        }
        return 0;
    }
    c->n = (size_t)c->o->req.count;
    c->addr = malloc(c->n * sizeof *c->addr);
    if (!c->addr) {
        lpm_cli_error(cmd, "out of memory for %zu addresses", c->n);
        return 1;
    }
    lpm_trace_opts to;
    lpm_trace_opts_default(&to);
    to.kind = c->o->req.kind;
    to.count = c->n;
    to.seed = c->o->req.seed;
    if (lpm_trace_gen(&c->fib, &to, c->addr, &err)) {
        lpm_cli_error(cmd, "%s", err.msg);
        return 2;
    }
    return 0;
}

int lpm_cmd_bench(int argc, char **argv)
{
    if (wants_cpu(argc, argv))
        return lpm_cmd_bench_cpu(argc, argv);
    bench_opts o;
    int rc = parse_args(argc, argv, &o);
    if (rc)
        return rc < 0 ? 0 : rc;
    bench_ctx c;
    memset(&c, 0, sizeof c);
    c.o = &o;
    lpm_fib_init(&c.fib);
    double t0 = now_s();
    if ((rc = lpm_cli_load_fib(cmd, o.fib_path, &o.fo, &c.fib)))
        return rc;
    c.parse_s = now_s() - t0;
    if (c.fib.n == 0) {
        lpm_cli_error(cmd, "%s: the table is empty", o.fib_path);
        lpm_fib_free(&c.fib);
        return 2;
    }
    static bench_row rows[MAX_ROWS];
    size_t nrows = 0;
    memset(rows, 0, sizeof rows);
    lpm_err err;
    if ((rc = pick_engines(&o, c.fib.family, rows, &nrows)) || (rc = load_addresses(&c)))
        goto out;
    if ((rc = lpm_ref_build(&c.ref, &c.fib, &err))) {
        lpm_cli_error(cmd, "%s", err.msg);
        goto out;
    }
    c.want = malloc(c.n * sizeof *c.want);
    if (!c.want) {
        rc = 1;
        lpm_cli_error(cmd, "out of memory");
        goto out;
    }
    for (size_t i = 0; i < c.n; i++)
        c.want[i] = lpm_ref_lookup(c.ref, &c.addr[i], NULL);
    for (size_t i = 0; i < nrows; i++)
        run_engine(&c, &rows[i]);
    if (o.json)
        print_json(stdout, &c, rows, nrows);
    else
        print_table(stdout, &c, rows, nrows);
    for (size_t i = 0; i < nrows; i++) {
        if (rows[i].error[0]) {
            lpm_cli_error(cmd, "%s: %s", rows[i].e->name, rows[i].error);
            if (rows[i].error_rc > rc)
                rc = rows[i].error_rc;
        }
        if (rows[i].mismatches) {
            lpm_cli_error(cmd, "%s: %llu mismatch%s against the reference", rows[i].e->name,
                          (unsigned long long)rows[i].mismatches, rows[i].mismatches == 1 ? "" : "es");
            rc = rc ? rc : 1;
        }
    }
    if (fflush(stdout))
        rc = rc ? rc : 1;
out:
    free(c.want);
    free(c.addr);
    lpm_ref_free(c.ref);
    lpm_fib_free(&c.fib);
    return rc;
}
