/* `lpmpipe bench cpu` (lookups/s and memory of engines and the DPDK peer,
 * run-to-complete or pipelined, every answer checked against the
 * reference) and `lpmpipe bench update-cost` (He et al.'s Table IV).
 * docs/cpu-engines.md documents both and their JSON. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cmd.h"
#include "engines.h"
#include "../core/ref_lpm.h"
#include "../core/trace.h"
#include "../cpu/bench_cpu.h"
#include "../cpu/parallel.h"
#include "../cpu/peer.h"

#define MAXE 16
#define MAXI (MAXE + 16)      /* engines plus DPDK paths */

typedef struct item {
    const char *name;
    const lpm_engine_ops *e;  /* NULL: a peer */
    void *state;
    lpm_peer *peer;           /* a DPDK table; its first path's item owns it */
    unsigned path;            /* the peer's lookup path */
    int owner;
    double build_s;
    size_t memory;
    double *runs;             /* lookups/s of each round */
    double *cpu_runs;         /* lookups per CPU second of each round (0: not measured) */
    unsigned long mismatches;
    const char *model;
} item;

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, unsigned n)
{
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Splits "a,b,c" into engines; "all": every registered engine that takes
 * the family (the reference included). */
static int parse_engines(const char *cmd, const char *list, int family, const lpm_engine_ops **out,
                         size_t *n)
{
    *n = 0;
    int fam = family == LPM_AF_INET ? LPM_ENGINE_V4 : LPM_ENGINE_V6;
    if (!strcmp(list, "all")) {
        for (size_t i = 0; i < lpm_engine_count() && *n < MAXE; i++)
            if (lpm_engine_at(i)->families & fam)
                out[(*n)++] = lpm_engine_at(i);
        return 0;
    }
    char buf[512];
    snprintf(buf, sizeof buf, "%s", list);
    for (char *s = strtok(buf, ","); s; s = strtok(NULL, ",")) {
        const lpm_engine_ops *e = lpm_engine_find(s);
        if (!e) {
            lpm_cli_error(cmd, "--engines: unknown engine '%s' (lpmpipe lookup --help lists them)", s);
            return 2;
        }
        if (!(e->families & fam)) {
            lpm_cli_error(cmd, "--engines: %s does not support IPv%d", s, family);
            return 2;
        }
        if (*n == MAXE) {
            lpm_cli_error(cmd, "--engines: at most %d", MAXE);
            return 2;
        }
        out[(*n)++] = e;
    }
    if (!*n) {
        lpm_cli_error(cmd, "--engines: empty list");
        return 2;
    }
    return 0;
}

static void help_cpu(FILE *fp)
{
    fprintf(fp,
            "usage: lpmpipe bench cpu --fib F [--engines LIST] [--kind K | --trace FILE]\n"
            "                         [--count N] [--seed S] [--threads T] [--model rtc|pipeline]\n"
            "                         [--repeat R]%s [--json] [FIB options]\n"
            "       lpmpipe bench update-cost --fib F [--engines LIST] [--min-len L] [--max-len L]\n"
            "                                 [--updates FILE]%s [--json] [FIB options]\n"
            "\n"
            "cpu: lookups/s (median of R rounds; each round runs every engine and peer\n"
            "once, so ratios compare one run) and memory of each engine; every answer of\n"
            "the first round is checked against the reference LPM (a mismatch: exit 1).\n"
            "update-cost: every prefix of length L..L is deleted and added back, one at a\n"
            "time (or, with --updates, an update trace is replayed on the table): table\n"
            "entries set, nodes copied and allocated per update, updates/s; then the edges\n"
            "of every updated prefix and a random-match trace are checked (a mismatch: exit 1).\n"
            "\n"
            "  --fib F            the table\n"
            "  --engines LIST     comma-separated engine names, or all (default:\n"
            "                     dir24-8,tree-bitmap-13,tree-bitmap-11,hybrid,poptrie for IPv4,\n"
            "                     tree-bitmap-13,tree-bitmap-11,poptrie for IPv6)\n"
            "  --kind K[,K...]    trace kinds: random-match (default), uniform, table, zipf\n"
            "  --trace FILE       addresses from a file instead\n"
            "  --count N          trace length (default 1M)\n"
            "  --seed S           trace seed (default 1)\n"
            "  --threads T        run-to-complete threads (default 1); with --model\n"
            "                     pipeline: stages (default one per trie level)\n"
            "  --model M          rtc (run-to-complete, default) or pipeline (tree-bitmap only)\n"
            "  --repeat R         rounds (default 5)\n"
            "%s"
            "  --min-len, --max-len  update-cost prefix lengths (default 8 and 16)\n"
            "  --updates FILE     update-cost: replay this update trace instead\n"
            "  --json             one JSON object per line instead of the table\n"
            LPM_CLI_FIB_HELP,
            lpm_peer_built() ? " [--peer dpdk]" : "",
            lpm_peer_built() ? " [--peer dpdk]" : "",
            lpm_peer_built() ? "  --peer dpdk        also DPDK: cpu, every lookup path of rte_lpm/rte_lpm6 and\n"
                               "                     rte_fib/rte_fib6 and the best of them; update-cost, rte_fib/rte_fib6\n"
                             : "");
}

static const char *default_engines(int family)
{
    return family == LPM_AF_INET ? "dir24-8,tree-bitmap-13,tree-bitmap-11,hybrid,poptrie"
                                 : "tree-bitmap-13,tree-bitmap-11,poptrie";
}

/* ---- bench update-cost ---- */

/* What a cost row answers lookups with after its updates. */
typedef struct upd_row {
    const char *name;
    lpm_cpu_updater u;
    lpm_cpu_engine_ctx ec;
    lpm_peer *peer;
} upd_row;

static void row_answer(upd_row *w, const lpm_addr *a, uint32_t *nh, size_t n, lpm_err *err)
{
    if (w->peer) {
        if (lpm_peer_prepare(w->peer, a, n, err) == LPM_OK) {
            lpm_peer_run(w->peer, 0, n);
            lpm_peer_results(w->peer, nh);
        }
    } else if (w->ec.e->lookup_batch) {
        w->ec.e->lookup_batch(w->ec.state, a, nh, n);
    } else {
        for (size_t i = 0; i < n; i++)
            nh[i] = w->ec.e->lookup(w->ec.state, &a[i]);
    }
}

static int peer_add(void *ctx, const lpm_prefix *p, uint32_t nh, lpm_err *err)
{
    return lpm_peer_add(ctx, p, nh, err);
}

static int peer_del(void *ctx, const lpm_prefix *p, lpm_err *err)
{
    return lpm_peer_del(ctx, p, err);
}

static void cost_print(const upd_row *w, const lpm_cpu_update_report *r, const char *mode, unsigned long bad,
                       int json)
{
    double na = r->adds ? (double)r->adds : 1, nd = r->dels ? (double)r->dels : 1;
    double ups = r->add_s + r->del_s > 0 ? (double)(r->adds + r->dels) / (r->add_s + r->del_s) : 0;
    const lpm_cpu_cost *c[2] = { &r->add, &r->del };
    double per[2] = { na, nd };
    if (json) {
        printf("{\"engine\":\"%s\",\"peer\":%s,%s,\"prefixes\":%zu,\"adds\":%zu,\"dels\":%zu,\"counted\":%s,", w->name,
               w->peer ? "true" : "false", mode, r->prefixes, r->adds, r->dels, r->counted ? "true" : "false");
        const char *nm[2] = { "add", "del" };
        for (int j = 0; j < 2; j++)
            printf("\"%s\":{\"entries_set\":%.3f,\"entries_moved\":%.3f,\"nodes_copied\":%.3f,"
                   "\"nodes_alloc\":%.3f,\"nodes_freed\":%.3f,\"bytes_written\":%.1f},",
                   nm[j], (double)c[j]->entries_set / per[j], (double)c[j]->entries_moved / per[j],
                   (double)c[j]->nodes_copied / per[j], (double)c[j]->nodes_alloc / per[j],
                   (double)c[j]->nodes_freed / per[j], (double)c[j]->bytes_written / per[j]);
        printf("\"updates_per_s\":%.0f,\"mismatches\":%lu}\n", ups, bad);
        return;
    }
    printf("%-16s %8zu |", w->name, r->adds + r->dels);
    for (int j = 0; j < 2; j++) {
        if (r->counted)
            printf(" %8.2f %8.2f %8.2f %8.1f |", (double)c[j]->entries_set / per[j],
                   (double)c[j]->nodes_copied / per[j], (double)c[j]->nodes_alloc / per[j],
                   (double)c[j]->bytes_written / per[j]);
        else
            printf(" %8s %8s %8s %8s |", "-", "-", "-", "-");
    }
    printf(" %10.0f %8lu\n", ups, bad);
}

/* Every engine (and rte_fib/rte_fib6 with peer) takes the updates, then
 * answers the edges of every updated prefix and a random-match trace,
 * checked against the reference: Table IV mode (lo..hi, up NULL) or the
 * replay of an update trace. */
static int update_cost(const char *cmd, lpm_fib *fib, const lpm_engine_ops **es, size_t ne, unsigned lo,
                       unsigned hi, const lpm_update *up, size_t nup, const char *upath, int peer, int json)
{
    lpm_err err;
    lpm_ref *ref = NULL;
    size_t na = 0, cap = (up ? nup : fib->n) * 4 + 100000;
    lpm_addr *a = malloc(cap * sizeof *a);
    uint32_t *nh = malloc(cap * sizeof *nh);
    int rc = a && nh && lpm_ref_build(&ref, fib, &err) == LPM_OK ? LPM_OK : LPM_EFAIL;
    for (size_t i = 0; !rc && i < (up ? nup : fib->n); i++) {
        const lpm_prefix *p = up ? &up[i].pfx : &fib->routes[i].pfx;
        if (!up && (p->len < lo || p->len > hi))
            continue;
        if (up && (up[i].op == 'a' ? lpm_ref_add(ref, p, up[i].nh) : (lpm_ref_del(ref, p), LPM_OK)))
            rc = LPM_EFAIL;
        na += lpm_cpu_edge_addrs(p, a + na);
    }
    lpm_trace_opts to;
    lpm_trace_opts_default(&to);
    to.count = 100000;
    if (!rc && lpm_trace_gen(fib, &to, a + na, &err) == LPM_OK)
        na += 100000;
    char mode[4200];
    if (up)
        snprintf(mode, sizeof mode, "\"updates_file\":\"%s\"", upath);
    else
        snprintf(mode, sizeof mode, "\"min_len\":%u,\"max_len\":%u", lo, hi);
    if (!rc && !json)
        printf("%-16s %8s | %-35s | %-35s | %10s %8s\n%-16s %8s | %8s %8s %8s %8s | %8s %8s %8s %8s | %10s %8s\n",
               "engine", "", "add (per add)", "delete (per delete)", "", "", "", "updates", "entries",
               "copied", "alloc", "bytes", "entries", "copied", "alloc", "bytes", "updates/s", "mismatch");
    int bad = 0;
    for (size_t k = 0; !rc && k < ne + (peer != 0); k++) {
        upd_row w;
        memset(&w, 0, sizeof w);
        if (k < ne) {
            w.name = es[k]->name;
            w.ec.e = es[k];
            if (!es[k]->add || !es[k]->del) {
                lpm_cli_error(cmd, "%s has no incremental updates: left out", es[k]->name);
                continue;
            }
            if ((rc = es[k]->build(&w.ec.state, fib, &err))) {
                lpm_cli_error(cmd, "%s: %s", w.name, err.msg);
                break;
            }
            w.u = lpm_cpu_engine_updater(&w.ec);
        } else {
            if ((rc = lpm_peer_build(&w.peer, LPM_PEER_FIB | LPM_PEER_SPARE, fib, &err))) {
                lpm_cli_error(cmd, "DPDK peer: %s", err.msg);
                break;
            }
            w.name = lpm_peer_name(w.peer);
            w.u = (lpm_cpu_updater){ peer_add, peer_del, w.peer, NULL };
        }
        lpm_cpu_update_report r;
        rc = up ? lpm_cpu_update_replay(&w.u, up, nup, &r, &err) : lpm_cpu_update_cost(&w.u, fib, lo, hi, &r, &err);
        unsigned long mism = 0;
        if (!rc) {
            row_answer(&w, a, nh, na, &err);
            for (size_t i = 0; i < na; i++)
                mism += nh[i] != lpm_ref_lookup(ref, &a[i], NULL);
            cost_print(&w, &r, mode, mism, json);
        }
        bad |= mism != 0;
        if (rc)
            lpm_cli_error(cmd, "%s: %s", w.name, err.msg);
        if (w.peer)
            lpm_peer_free(w.peer);
        else
            es[k]->destroy(w.ec.state);
    }
    if (rc == LPM_EFAIL && !a)
        lpm_cli_error(cmd, "out of memory");
    free(a);
    free(nh);
    lpm_ref_free(ref);
    return rc ? rc : bad;
}

static void peer_part(void *p, size_t lo, size_t hi)
{
    lpm_peer_run(p, lo, hi);
}

/* Both DPDK tables of the family, one item per lookup path; a path this
 * machine cannot run is named with the reason (stderr under --json). */
static int add_peers(const char *cmd, const lpm_fib *fib, item *it, size_t *ni, int json)
{
    lpm_err err;
    for (int pk = 0; pk < 2; pk++) {
        lpm_peer *p;
        double t0 = lpm_cpu_now();
        if (lpm_peer_build(&p, pk, fib, &err)) {
            lpm_cli_error(cmd, "DPDK peer: %s", err.msg);
            return LPM_EFAIL;
        }
        double build_s = lpm_cpu_now() - t0;
        int owned = 0;
        for (unsigned k = 0; k < lpm_peer_paths(p); k++) {
            const char *why = lpm_peer_path_unavailable(p, k);
            if (why) {
                fprintf(json ? stderr : stdout, "note: %s: not available here: %s\n", lpm_peer_path_name(p, k), why);
                continue;
            }
            if (*ni == MAXI)
                break;
            item *x = &it[(*ni)++];
            x->peer = p;
            x->path = k;
            x->owner = !owned;
            owned = 1;
            x->build_s = build_s;
            x->name = lpm_peer_path_name(p, k);
            x->memory = lpm_peer_memory(p);
            x->model = "rtc";
        }
        if (!owned)
            lpm_peer_free(p);
    }
    return LPM_OK;
}

static int run_round(const char *cmd, item *it, const lpm_addr *a, uint32_t *nh, size_t n,
                     unsigned threads, int pipeline, double *lps, double *cpu_lps)
{
    lpm_err err;
    double s = 0, cs = 0;
    int rc = LPM_OK;
    if (it->peer) {
        lpm_peer_use(it->peer, it->path);
        rc = lpm_cpu_parallel(threads ? threads : 1, peer_part, it->peer, n, &s, &cs, &err);
        lpm_peer_results(it->peer, nh);
    } else if (pipeline) {
        rc = lpm_cpu_run_pipeline(it->e, it->state, a, nh, n, threads, 1, &s, &err);
    } else {
        rc = lpm_cpu_run_rtc(it->e, it->state, a, nh, n, threads, 1, &s, &cs, &err);
    }
    if (rc) {
        lpm_cli_error(cmd, "%s: %s", it->name, err.msg);
        return rc;
    }
    *lps = s > 0 ? (double)n / s : 0;
    *cpu_lps = cs > 0 ? (double)n / cs : 0;
    return 0;
}

/* Prints one trace's results. With DPDK paths, a "best DPDK" row (in
 * each round the fastest path, then the median of those) is what the
 * ratio column is taken against. Returns 1 when any answer differed from
 * the reference. */
static int report(item *it, size_t ni, const lpm_fib *fib, const char *fib_path,
                  const char *trace, size_t n, unsigned repeat, int pipeline,
                  unsigned threads, int json)
{
    double med[MAXI + 1] = { 0 }, cmed[MAXI + 1] = { 0 }, best[1000] = { 0 }, cbest[1000] = { 0 };
    int peers = 0;
    for (size_t i = 0; i < ni; i++) {
        for (unsigned r = 0; r < repeat && it[i].peer; r++) {
            best[r] = it[i].runs[r] > best[r] ? it[i].runs[r] : best[r];
            cbest[r] = it[i].cpu_runs[r] > cbest[r] ? it[i].cpu_runs[r] : cbest[r];
        }
        peers |= it[i].peer != NULL;
        med[i] = median(it[i].runs, repeat);
        cmed[i] = median(it[i].cpu_runs, repeat);
    }
    item bi = { .name = "best DPDK", .peer = it[ni - 1].peer, .runs = best, .cpu_runs = cbest, .model = "rtc" };
    if (peers) {
        it[ni] = bi;
        cmed[ni] = median(cbest, repeat);
        med[ni++] = median(best, repeat);
    }
    double b = peers ? med[ni - 1] : 0, cb = peers ? cmed[ni - 1] : 0;
    const char *bname = peers ? "best DPDK" : "";
    if (!json) {
        char th[48];
        if (pipeline && !threads)
            snprintf(th, sizeof th, "one thread per level");
        else
            snprintf(th, sizeof th, "%u thread%s", threads, threads == 1 ? "" : "s");
        printf("\ntable %s (IPv%d, %zu prefixes), trace %s, %zu lookups, median of %u round%s, %s, %s\n",
               fib_path, fib->family, fib->n, trace, n, repeat, repeat == 1 ? "" : "s",
               pipeline ? "pipelined" : "run-to-complete", th);
        printf("%-28s %10s %12s %12s %12s %10s%s\n", "engine", "build_s", "memory_MB", "Mlookups/s",
               "M/cpu_s", "mismatch", b > 0 ? "  ratio  cpu_ratio" : "");
    }
    int bad = 0;
    for (size_t i = 0; i < ni; i++) {
        double ratio = b > 0 ? med[i] / b : 0, cratio = cb > 0 ? cmed[i] / cb : 0;
        bad |= it[i].mismatches != 0;
        if (json)
            printf("{\"engine\":\"%s\",\"peer\":%s,\"family\":%d,\"prefixes\":%zu,\"trace\":\"%s\","
                   "\"lookups\":%zu,\"model\":\"%s\",\"threads\":%u,\"rounds\":%u,"
                   "\"build_s\":%.4f,\"memory_bytes\":%zu,\"lookups_per_s\":%.0f,\"mismatches\":%lu,"
                   "\"lookups_per_cpu_s\":%.0f,\"ratio_vs\":\"%s\",\"ratio\":%.3f,\"cpu_ratio\":%.3f}\n",
                   it[i].name, it[i].peer ? "true" : "false", fib->family, fib->n, trace, n, it[i].peer ? "rtc" : it[i].model, threads, repeat,
                   it[i].build_s, it[i].memory, med[i], it[i].mismatches, cmed[i], bname, ratio, cratio);
        else if (peers && i == ni - 1)
            printf("%-28s %10s %12s %12.2f %12.2f %10s  %5.2fx  %5.2fx   (%s)\n", it[i].name, "-", "-", med[i] / 1e6,
                   cmed[i] / 1e6, "-", ratio, cratio, bname);
        else if (b > 0)
            printf("%-28s %10.3f %12.2f %12.2f %12.2f %10lu  %5.2fx  %5.2fx\n", it[i].name, it[i].build_s,
                   (double)it[i].memory / 1048576.0, med[i] / 1e6, cmed[i] / 1e6, it[i].mismatches, ratio, cratio);
        else
            printf("%-28s %10.3f %12.2f %12.2f %12.2f %10lu\n", it[i].name, it[i].build_s,
                   (double)it[i].memory / 1048576.0, med[i] / 1e6, cmed[i] / 1e6, it[i].mismatches);
    }
    fflush(stdout);
    return bad;
}

int lpm_cmd_bench_cpu(int argc, char **argv)
{
    const char *cmd = "bench cpu";
    int costs = 0;
    if (argc >= 2 && (!strcmp(argv[1], "cpu") || !strcmp(argv[1], "update-cost"))) {
        costs = !strcmp(argv[1], "update-cost");
        if (costs)
            cmd = "bench update-cost";
        argc--;
        argv++;
    }
    enum { O_FIB = LPM_OPT_FIRST_FREE + 0x40, O_ENG, O_KIND, O_TRACE, O_COUNT, O_SEED, O_THREADS,
           O_MODEL, O_REPEAT, O_PEER, O_MINL, O_MAXL, O_JSON, O_UPDATES };
    static const struct option lo[] = {
        { "fib", required_argument, 0, O_FIB }, { "engines", required_argument, 0, O_ENG },
        { "kind", required_argument, 0, O_KIND }, { "trace", required_argument, 0, O_TRACE },
        { "count", required_argument, 0, O_COUNT }, { "seed", required_argument, 0, O_SEED },
        { "threads", required_argument, 0, O_THREADS }, { "model", required_argument, 0, O_MODEL },
        { "repeat", required_argument, 0, O_REPEAT }, { "peer", required_argument, 0, O_PEER },
        { "min-len", required_argument, 0, O_MINL }, { "max-len", required_argument, 0, O_MAXL },
        { "updates", required_argument, 0, O_UPDATES },
        { "json", no_argument, 0, O_JSON }, { "help", no_argument, 0, 'h' },
        LPM_CLI_FIB_LONGOPTS, { 0, 0, 0, 0 },
    };
    lpm_fib_opts fo;
    lpm_fib_opts_default(&fo);
    const char *fib_path = NULL, *engines = NULL, *trace = NULL, *updates = NULL;
    const char *kinds = "random-match";
    int json = 0, pipeline = 0, peer = 0, c;
    uint64_t count = 1000000, seed = 1;
    unsigned threads = 0, repeat = 5, minl = 8, maxl = 16;
    optind = 1;
    while ((c = lpm_cli_getopt(cmd, argc, argv, "h", lo)) != -1) {
        int r = lpm_cli_fib_option(cmd, c, optarg, &fo);
        if (r < 0)
            return 2;
        if (r > 0)
            continue;
        switch (c) {
        case O_FIB: fib_path = optarg; break;
        case O_ENG: engines = optarg; break;
        case O_TRACE: trace = optarg; break;
        case O_UPDATES: updates = optarg; break;
        case O_KIND:
            kinds = optarg;
            break;
        case O_COUNT:
            if (lpm_cli_u64(cmd, "--count", optarg, 1, 100000000, &count))
                return 2;
            break;
        case O_SEED:
            if (lpm_cli_u64(cmd, "--seed", optarg, 0, UINT64_MAX, &seed))
                return 2;
            break;
        case O_THREADS:
            if (lpm_cli_uint(cmd, "--threads", optarg, 1, 256, &threads))
                return 2;
            break;
        case O_REPEAT:
            if (lpm_cli_uint(cmd, "--repeat", optarg, 1, 1000, &repeat))
                return 2;
            break;
        case O_MINL:
            if (lpm_cli_uint(cmd, "--min-len", optarg, 0, 128, &minl))
                return 2;
            break;
        case O_MAXL:
            if (lpm_cli_uint(cmd, "--max-len", optarg, 0, 128, &maxl))
                return 2;
            break;
        case O_MODEL:
            if (!strcmp(optarg, "pipeline"))
                pipeline = 1;
            else if (strcmp(optarg, "rtc")) {
                lpm_cli_error(cmd, "--model: 'rtc' or 'pipeline', not '%s'", optarg);
                return 2;
            }
            break;
        case O_PEER:
            if (strcmp(optarg, "dpdk")) {
                lpm_cli_error(cmd, "--peer: only 'dpdk', not '%s'", optarg);
                return 2;
            }
            peer = 1;
            break;
        case O_JSON: json = 1; break;
        case 'h': help_cpu(stdout); return 0;
        default: return lpm_cli_usage_error(cmd);
        }
    }
    if (optind < argc) {
        lpm_cli_error(cmd, "unexpected argument '%s'", argv[optind]);
        return 2;
    }
    char kb[256];
    if (strlen(kinds) >= sizeof kb) {
        lpm_cli_error(cmd, "--kind: list too long");
        return 2;
    }
    snprintf(kb, sizeof kb, "%s", kinds);
    for (char *sv = NULL, *k = strtok_r(kb, ",", &sv); k; k = strtok_r(NULL, ",", &sv))
        if (lpm_trace_kind_parse(k) < 0) {
            lpm_cli_error(cmd, "--kind: unknown trace kind '%s' (random-match, uniform, table, zipf)", k);
            return 2;
        }
    if (!fib_path) {
        lpm_cli_error(cmd, "--fib is required");
        return 2;
    }
    if (minl > maxl) {
        lpm_cli_error(cmd, "--min-len %u is above --max-len %u", minl, maxl);
        return 2;
    }
    if (peer && !lpm_peer_built()) {
        lpm_cli_error(cmd, "--peer dpdk: not built into this binary (libdpdk was not found; "
                           "scripts/deps.sh --peers installs it)");
        return 1;
    }
    lpm_fib fib;
    lpm_fib_init(&fib);
    int rc = lpm_cli_load_fib(cmd, fib_path, &fo, &fib);
    if (rc)
        return rc;
    const lpm_engine_ops *es[MAXE];
    size_t ne;
    if ((rc = parse_engines(cmd, engines ? engines : default_engines(fib.family), fib.family, es, &ne))) {
        lpm_fib_free(&fib);
        return rc;
    }
    if (costs) {
        lpm_update *up = NULL;
        size_t nup = 0;
        lpm_err uerr;
        if (updates && (rc = lpm_updates_load(updates, &fib, NULL, &up, &nup, &uerr)))
            lpm_cli_error(cmd, "%s", uerr.msg);
        else
            rc = update_cost(cmd, &fib, es, ne, minl, maxl, up, nup, updates, peer, json);
        free(up);
        lpm_fib_free(&fib);
        return rc;
    }
    for (size_t k = 0; k < ne && pipeline; k++)
        if (!lpm_cpu_pipeline_supported(es[k])) {
            lpm_cli_error(cmd, "--model pipeline: %s has no pipelined model (tree-bitmap engines do)", es[k]->name);
            lpm_fib_free(&fib);
            return 2;
        }
    if (!threads)
        threads = pipeline ? 0 : 1;

    /* Build everything once; then each trace in turn. */
    lpm_err err;
    item it[MAXI + 1];
    size_t ni = 0;
    memset(it, 0, sizeof it);
    for (size_t k = 0; k < ne && !rc; k++) {
        item *x = &it[ni];
        x->name = es[k]->name;
        x->e = es[k];
        x->model = pipeline ? "pipeline" : "rtc";
        double t0 = lpm_cpu_now();
        if ((rc = es[k]->build(&x->state, &fib, &err))) {
            lpm_cli_error(cmd, "%s: %s", x->name, err.msg);
            break;
        }
        x->build_s = lpm_cpu_now() - t0;
        x->memory = es[k]->memory(x->state);
        ni++;
    }
    if (peer && !rc)
        rc = add_peers(cmd, &fib, it, &ni, json);
    lpm_ref *ref = NULL;
    if (!rc && lpm_ref_build(&ref, &fib, &err))
        rc = lpm_err_set(&err, LPM_EFAIL, "out of memory");
    for (size_t i = 0; i < ni && !rc; i++)
        if (!(it[i].runs = calloc(repeat, sizeof(double))) || !(it[i].cpu_runs = calloc(repeat, sizeof(double))))
            rc = LPM_EFAIL;
    char kinds_buf[256];
    snprintf(kinds_buf, sizeof kinds_buf, "%s", kinds);
    char *save = NULL;
    for (char *kn = trace ? (char *)trace : strtok_r(kinds_buf, ",", &save); kn && !rc;
         kn = trace ? NULL : strtok_r(NULL, ",", &save)) {
        lpm_addr *a = NULL;
        size_t n = 0;
        int kind = trace ? 0 : lpm_trace_kind_parse(kn);
        if (trace) {
            int fam;
            if ((rc = lpm_trace_load(trace, &a, &n, &fam, &err)) == LPM_OK && fam != fib.family)
                rc = lpm_err_set(&err, LPM_EINPUT, "%s: IPv%d trace for an IPv%d table", trace, fam, fib.family);
        } else {
            n = (size_t)count;
            a = malloc(n * sizeof *a);
            lpm_trace_opts to;
            lpm_trace_opts_default(&to);
            to.kind = kind;
            to.count = n;
            to.seed = seed;
            rc = a ? lpm_trace_gen(&fib, &to, a, &err) : lpm_err_set(&err, LPM_EFAIL, "out of memory");
        }
        uint32_t *nh = NULL;
        if (!rc && !n)
            rc = lpm_err_set(&err, LPM_EINPUT, "the trace is empty");
        if (!rc && !(nh = malloc(n * sizeof *nh)))
            rc = lpm_err_set(&err, LPM_EFAIL, "out of memory");
        for (size_t i = 0; i < ni && !rc; i++)
            if (it[i].owner)
                rc = lpm_peer_prepare(it[i].peer, a, n, &err);
        if (rc) {
            lpm_cli_error(cmd, "%s", err.msg);
            free(a);
            free(nh);
            break;
        }
        memset(nh, 0, n * sizeof *nh); /* page faults out of the first timing */
        for (size_t i = 0; i < ni; i++)
            it[i].mismatches = 0;
        /* Rounds: every item once per round, so ratios compare one run. */
        for (unsigned r = 0; r < repeat && !rc; r++)
            for (size_t i = 0; i < ni && !rc; i++) {
                rc = run_round(cmd, &it[i], a, nh, n, threads, pipeline && !it[i].peer, &it[i].runs[r],
                               &it[i].cpu_runs[r]);
                for (size_t j = 0; !rc && r == 0 && j < n; j++) {
                    uint32_t want = lpm_ref_lookup(ref, &a[j], NULL);
                    if (nh[j] == want)
                        continue;
                    if (!it[i].mismatches++) {
                        char buf[LPM_ADDR_STRLEN];
                        lpm_addr_format(&a[j], fib.family, buf, sizeof buf);
                        lpm_cli_error(cmd, "mismatch: %s: %s says %s, reference says %s", buf, it[i].name,
                                      nh[j] == LPM_NH_NONE ? "-" : lpm_nhtab_name(&fib.nh, nh[j]),
                                      want == LPM_NH_NONE ? "-" : lpm_nhtab_name(&fib.nh, want));
                    }
                }
            }
        if (!rc)
            rc = report(it, ni, &fib, fib_path, kn, n, repeat, pipeline, threads, json);
        free(a);
        free(nh);
    }
    for (size_t i = 0; i < ni; i++) {
        if (it[i].owner)
            lpm_peer_free(it[i].peer);
        else if (it[i].state)
            it[i].e->destroy(it[i].state);
        free(it[i].runs);
        free(it[i].cpu_runs);
    }
    lpm_ref_free(ref);
    lpm_fib_free(&fib);
    return rc;
}
