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


/* bench cpu's request options: a list of kinds (random-match by default)
 * or --trace, in memory. */
static void req_init(lpm_cli_req *r)
{
    lpm_cli_req_init(r, LPM_TRACE_RANDOM_MATCH, 1000000, 100000000);
    r->list = 1;
}

static void help_cpu(FILE *fp)
{
    fprintf(fp,
            "usage: lpmpipe bench cpu --fib F [--engines LIST] [--gen K | --trace FILE]\n"
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
            "                     tree-bitmap-13,tree-bitmap-11,poptrie for IPv6)\n",
            lpm_peer_built() ? " [--peer dpdk]" : "", lpm_peer_built() ? " [--peer dpdk]" : "");
    lpm_cli_req r;
    req_init(&r);
    r.help_width = 18;
    lpm_cli_req_help(fp, &r);
    fprintf(fp,
            "  --threads T        run-to-complete threads (default 1); with --model\n"
            "                     pipeline: stages (default one per trie level)\n"
            "  --model M          rtc (run-to-complete, default) or pipeline (tree-bitmap only)\n"
            "  --repeat R         rounds (default 5)\n"
            "%s"
            "  --min-len, --max-len  update-cost prefix lengths (default 8 and 16)\n"
            "  --updates FILE     update-cost: replay this update trace instead\n"
            "  --json             one JSON object per line instead of the table\n"
            LPM_CLI_FIB_HELP,
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
        med[i] = lpm_cli_median(it[i].runs, repeat);
        cmed[i] = lpm_cli_median(it[i].cpu_runs, repeat);
    }
    item bi = { .name = "best DPDK", .peer = it[ni - 1].peer, .runs = best, .cpu_runs = cbest, .model = "rtc" };
    if (peers) {
        it[ni] = bi;
        cmed[ni] = lpm_cli_median(cbest, repeat);
        med[ni++] = lpm_cli_median(best, repeat);
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

/* The options of bench cpu and bench update-cost, as parsed. */
typedef struct bcpu_args {
    const char *cmd;          /* "bench cpu" or "bench update-cost" */
    int costs;                /* update-cost */
    lpm_fib_opts fo;
    const char *fib_path, *engines, *trace, *updates, *kinds;
    int json, pipeline, peer;
    uint64_t count, seed;
    unsigned threads, repeat, minl, maxl;
} bcpu_args;

enum { O_FIB = LPM_OPT_FIRST_FREE + 0x40, O_ENG, O_THREADS,
       O_MODEL, O_REPEAT, O_PEER, O_MINL, O_MAXL, O_JSON, O_UPDATES };

/* One option of the command's own (not a FIB option); 0, or the exit status. */
static int bcpu_option(int c, const char *arg, bcpu_args *a)
{
    const char *cmd = a->cmd;
    switch (c) {
    case O_FIB: a->fib_path = arg; break;
    case O_ENG: a->engines = arg; break;
    case O_UPDATES: a->updates = arg; break;
    case O_THREADS: return lpm_cli_uint(cmd, "--threads", arg, 1, 256, &a->threads) ? 2 : 0;
    case O_REPEAT: return lpm_cli_uint(cmd, "--repeat", arg, 1, 1000, &a->repeat) ? 2 : 0;
    case O_MINL: return lpm_cli_uint(cmd, "--min-len", arg, 0, 128, &a->minl) ? 2 : 0;
    case O_MAXL: return lpm_cli_uint(cmd, "--max-len", arg, 0, 128, &a->maxl) ? 2 : 0;
    case O_MODEL:
        if (!strcmp(arg, "pipeline"))
            a->pipeline = 1;
        else if (strcmp(arg, "rtc")) {
            lpm_cli_error(cmd, "--model: 'rtc' or 'pipeline', not '%s'", arg);
            return 2;
        }
        break;
    case O_PEER:
        if (strcmp(arg, "dpdk")) {
            lpm_cli_error(cmd, "--peer: only 'dpdk', not '%s'", arg);
            return 2;
        }
        a->peer = 1;
        break;
    case O_JSON: a->json = 1; break;
    default: return lpm_cli_usage_error(cmd);
    }
    return 0;
}

/* 0 with *help_given set after --help, else the exit status of a bad
 * option or combination (0: go on). */
static int parse_args(int argc, char **argv, bcpu_args *a, int *help_given)
{
    static const struct option lo[] = {
        { "fib", required_argument, 0, O_FIB }, { "engines", required_argument, 0, O_ENG },
        LPM_CLI_REQ_LONGOPTS,
        { "threads", required_argument, 0, O_THREADS }, { "model", required_argument, 0, O_MODEL },
        { "repeat", required_argument, 0, O_REPEAT }, { "peer", required_argument, 0, O_PEER },
        { "min-len", required_argument, 0, O_MINL }, { "max-len", required_argument, 0, O_MAXL },
        { "updates", required_argument, 0, O_UPDATES },
        { "json", no_argument, 0, O_JSON }, { "help", no_argument, 0, 'h' },
        LPM_CLI_FIB_LONGOPTS, { 0, 0, 0, 0 },
    };
    const char *cmd = a->cmd;
    lpm_fib_opts_default(&a->fo);
    lpm_cli_req req;
    req_init(&req);
    a->repeat = 5;
    a->minl = 8;
    a->maxl = 16;
    *help_given = 0;
    int c, rc;
    optind = 1;
    while ((c = lpm_cli_getopt(cmd, argc, argv, "h", lo)) != -1) {
        int r = lpm_cli_fib_option(cmd, c, optarg, &a->fo);
        if (!r)
            r = lpm_cli_req_option(cmd, c, optarg, &req);
        if (r < 0)
            return 2;
        if (r > 0)
            continue;
        if (c == 'h') {
            help_cpu(stdout);
            *help_given = 1;
            return 0;
        }
        if ((rc = bcpu_option(c, optarg, a)))
            return rc;
    }
    if (optind < argc) {
        lpm_cli_error(cmd, "unexpected argument '%s'", argv[optind]);
        return 2;
    }
    if (lpm_cli_req_kind(cmd, &req))
        return 2;
    a->trace = req.trace;
    a->kinds = req.gen ? req.gen : lpm_trace_kind_name(req.kind_def);
    a->count = req.count;
    a->seed = req.seed;
    if (!a->fib_path) {
        lpm_cli_error(cmd, "--fib is required");
        return 2;
    }
    if (a->minl > a->maxl) {
        lpm_cli_error(cmd, "--min-len %u is above --max-len %u", a->minl, a->maxl);
        return 2;
    }
    if (a->peer && !lpm_peer_built()) {
        lpm_cli_error(cmd, "--peer dpdk: not built into this binary (libdpdk was not found; "
                           "scripts/deps.sh --peers installs it)");
        return 1;
    }
    return 0;
}

/* bench update-cost: the table's updates (or its own prefixes) through each engine. */
static int run_costs(const bcpu_args *a, lpm_fib *fib, const lpm_engine_ops **es, size_t ne)
{
    lpm_update *up = NULL;
    size_t nup = 0;
    lpm_err uerr;
    int rc;
    if (a->updates && (rc = lpm_updates_load(a->updates, fib, NULL, &up, &nup, &uerr)))
        lpm_cli_error(a->cmd, "%s", uerr.msg);
    else
        rc = update_cost(a->cmd, fib, es, ne, a->minl, a->maxl, up, nup, a->updates, a->peer, a->json);
    free(up);
    return rc;
}

/* Builds every engine (and the DPDK paths) once, with room for the rounds'
 * figures; *ni items made (free_items frees them, also on failure). */
static int build_items(const bcpu_args *a, const lpm_fib *fib, const lpm_engine_ops **es, size_t ne, item *it,
                       size_t *ni)
{
    lpm_err err;
    int rc = 0;
    for (size_t k = 0; k < ne && !rc; k++) {
        item *x = &it[*ni];
        x->name = es[k]->name;
        x->e = es[k];
        x->model = a->pipeline ? "pipeline" : "rtc";
        double t0 = lpm_cpu_now();
        if ((rc = es[k]->build(&x->state, fib, &err))) {
            lpm_cli_error(a->cmd, "%s: %s", x->name, err.msg);
            break;
        }
        x->build_s = lpm_cpu_now() - t0;
        x->memory = es[k]->memory(x->state);
        ++*ni;
    }
    if (a->peer && !rc)
        rc = add_peers(a->cmd, fib, it, ni, a->json);
    for (size_t i = 0; i < *ni && !rc; i++)
        if (!(it[i].runs = calloc(a->repeat, sizeof(double))) || !(it[i].cpu_runs = calloc(a->repeat, sizeof(double))))
            rc = LPM_EFAIL;
    return rc;
}

static void free_items(item *it, size_t ni)
{
    for (size_t i = 0; i < ni; i++) {
        if (it[i].owner)
            lpm_peer_free(it[i].peer);
        else if (it[i].state)
            it[i].e->destroy(it[i].state);
        free(it[i].runs);
        free(it[i].cpu_runs);
    }
}

/* The addresses of one trace: the --trace file, or kn generated. */
static int trace_addrs(const bcpu_args *a, const lpm_fib *fib, const char *kn, lpm_addr **addrs, size_t *n,
                       lpm_err *err)
{
    int rc;
    if (a->trace) {
        int fam;
        if ((rc = lpm_trace_load(a->trace, addrs, n, &fam, err)) == LPM_OK && fam != fib->family)
            rc = lpm_err_set(err, LPM_EINPUT, "%s: IPv%d trace for an IPv%d table", a->trace, fam, fib->family);
        return rc;
    }
    *n = (size_t)a->count;
    *addrs = malloc(*n * sizeof **addrs);
    lpm_trace_opts to;
    lpm_trace_opts_default(&to);
    to.kind = lpm_trace_kind_parse(kn);
    to.count = *n;
    to.seed = a->seed;
    return *addrs ? lpm_trace_gen(fib, &to, *addrs, err) : lpm_err_set(err, LPM_EFAIL, "out of memory");
}

/* Rounds: every item once per round, so ratios compare one run; the first
 * round's answers are checked against the reference. */
static int run_rounds(const bcpu_args *a, const lpm_fib *fib, const lpm_ref *ref, item *it, size_t ni,
                      const lpm_addr *addrs, uint32_t *nh, size_t n)
{
    int rc = 0;
    for (size_t i = 0; i < ni; i++)
        it[i].mismatches = 0;
    for (unsigned r = 0; r < a->repeat && !rc; r++)
        for (size_t i = 0; i < ni && !rc; i++) {
            rc = run_round(a->cmd, &it[i], addrs, nh, n, a->threads, a->pipeline && !it[i].peer, &it[i].runs[r],
                           &it[i].cpu_runs[r]);
            for (size_t j = 0; !rc && r == 0 && j < n; j++) {
                uint32_t want = lpm_ref_lookup(ref, &addrs[j], NULL);
                if (nh[j] == want)
                    continue;
                if (!it[i].mismatches++) {
                    char buf[LPM_ADDR_STRLEN];
                    lpm_addr_format(&addrs[j], fib->family, buf, sizeof buf);
                    lpm_cli_error(a->cmd, "mismatch: %s: %s says %s, reference says %s", buf, it[i].name,
                                  nh[j] == LPM_NH_NONE ? "-" : lpm_nhtab_name(&fib->nh, nh[j]),
                                  want == LPM_NH_NONE ? "-" : lpm_nhtab_name(&fib->nh, want));
                }
            }
        }
    return rc;
}

/* One trace (the file, or one generated kind kn) through every item, then
 * its report. */
static int run_trace(const bcpu_args *a, const lpm_fib *fib, const lpm_ref *ref, item *it, size_t ni, const char *kn)
{
    lpm_err err;
    lpm_addr *addrs = NULL;
    size_t n = 0;
    uint32_t *nh = NULL;
    int rc = trace_addrs(a, fib, kn, &addrs, &n, &err);
    if (!rc && !n)
        rc = lpm_err_set(&err, LPM_EINPUT, "the trace is empty");
    if (!rc && !(nh = malloc(n * sizeof *nh)))
        rc = lpm_err_set(&err, LPM_EFAIL, "out of memory");
    for (size_t i = 0; i < ni && !rc; i++)
        if (it[i].owner)
            rc = lpm_peer_prepare(it[i].peer, addrs, n, &err);
    if (rc) {
        lpm_cli_error(a->cmd, "%s", err.msg);
    } else {
        memset(nh, 0, n * sizeof *nh); /* page faults out of the first timing */
        rc = run_rounds(a, fib, ref, it, ni, addrs, nh, n);
        if (!rc)
            rc = report(it, ni, fib, a->fib_path, kn, n, a->repeat, a->pipeline, a->threads, a->json);
    }
    free(addrs);
    free(nh);
    return rc;
}

/* bench cpu: build once, then each trace in turn. */
static int run_lookups(bcpu_args *a, const lpm_fib *fib, const lpm_engine_ops **es, size_t ne)
{
    for (size_t k = 0; k < ne && a->pipeline; k++)
        if (!lpm_cpu_pipeline_supported(es[k])) {
            lpm_cli_error(a->cmd, "--model pipeline: %s has no pipelined model (tree-bitmap engines do)", es[k]->name);
            return 2;
        }
    if (!a->threads)
        a->threads = a->pipeline ? 0 : 1;
    lpm_err err;
    item it[MAXI + 1];
    size_t ni = 0;
    memset(it, 0, sizeof it);
    lpm_ref *ref = NULL;
    int rc = build_items(a, fib, es, ne, it, &ni);
    if (!rc && lpm_ref_build(&ref, fib, &err))
        rc = LPM_EFAIL;
    char kinds_buf[256];
    snprintf(kinds_buf, sizeof kinds_buf, "%s", a->kinds);
    char *save = NULL;
    for (char *kn = a->trace ? (char *)a->trace : strtok_r(kinds_buf, ",", &save); kn && !rc;
         kn = a->trace ? NULL : strtok_r(NULL, ",", &save))
        rc = run_trace(a, fib, ref, it, ni, kn);
    free_items(it, ni);
    lpm_ref_free(ref);
    return rc;
}

int lpm_cmd_bench_cpu(int argc, char **argv)
{
    bcpu_args a = { .cmd = "bench cpu" };
    if (argc >= 2 && (!strcmp(argv[1], "cpu") || !strcmp(argv[1], "update-cost"))) {
        a.costs = !strcmp(argv[1], "update-cost");
        if (a.costs)
            a.cmd = "bench update-cost";
        argc--;
        argv++;
    }
    int help_given, rc = parse_args(argc, argv, &a, &help_given);
    if (rc || help_given)
        return rc;
    lpm_fib fib;
    lpm_fib_init(&fib);
    if ((rc = lpm_cli_load_fib(a.cmd, a.fib_path, &a.fo, &fib)))
        return rc;
    const lpm_engine_ops *es[MAXE];
    size_t ne;
    if (!(rc = lpm_cli_engine_list(a.cmd, a.engines ? a.engines : default_engines(fib.family), fib.family,
                                      LPM_ENGINES_FAMILY_ONLY, es, MAXE, &ne)))
        rc = a.costs ? run_costs(&a, &fib, es, ne) : run_lookups(&a, &fib, es, ne);
    lpm_fib_free(&fib);
    return rc;
}
