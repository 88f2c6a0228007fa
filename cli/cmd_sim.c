/* lpmpipe sim: options (parse_args, check_args), the inputs (load_inputs,
 * load_table, open_source), the run and the report; the checks on every
 * answer are in cmd_sim_check.c. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "cmd.h"
#include "cmd_sim_check.h"
#include "../core/ref_lpm.h"
#include "../sim/bubble_file.h"
#include "../sim/sim.h"
#include "../sim/sim_report.h"
#include "../sim/sim_source.h"
#include "../sim/walk_image.h"
#include "../sim/walk_synth.h"

static const char *cmd = "sim";

/* sim's request options: no default kind, the trace streamed (no bound
 * but the counters'). */
static void req_init(lpm_cli_req *r)
{
    lpm_cli_req_init(r, -1, 100000, UINT64_MAX / 2);
}

static void help(FILE *fp)
{
    fprintf(fp,
            "usage: lpmpipe sim --image IMG (--trace FILE | --gen KIND [--count N] [--seed S] [--fib F])\n"
            "                   [--hop-cycles D] [--ports P] [--result-ready F] [--queue Q]\n"
            "                   [--issue-width W] [--burst B] [--rob R] [--lookahead K] [--load L]\n"
            "                   [--result-fifo F] [--dit-answers lane|queue]\n"
            "                   [--warmup C] [--updates FILE [--ignore-image-crc] [--update-rate U]\n"
            "                   [--clock-mhz F] [--drain-updates] [--plant-fault F]]\n"
            "                   [--no-check | --verify] [--json] [--results FILE]\n"
            "                   [--cycle-log FILE] [--timing] [--preload] [FIB options]\n"
            "       lpmpipe sim --synthetic N [--linear] [--reads A[-B]] [--count N] [--seed S]\n"
            "                   (the pipeline and output options above)\n"
            "       lpmpipe sim --image IMG --walk-baseline unibit|K (--trace FILE | --gen KIND ...) [--preload]\n"
            "\n"
            "Cycle-level simulation of a CAMP ring or a write-bubble linear pipeline\n"
            "(rules: docs/microarchitecture.md; options and outputs: docs/cli-sim.md).\n"
            "\n"
            "  --image IMG         pipeline image written by lpmpipe map\n"
            "  --synthetic N       no table: N stages, requests enter at a random stage and\n"
            "                      read --reads stages (default N: the whole ring)\n"
            "  --linear            with --synthetic: a linear pipeline\n"
            "  --reads A[-B]       with --synthetic: reads per request, fixed or uniform in A..B\n");
    lpm_cli_req help_req;
    req_init(&help_req);
    lpm_cli_req_help(fp, &help_req);
    fprintf(fp,
            "                      (--trace is streamed; --count and --seed serve --synthetic too)\n"
            "  --fib F             the table, for --gen and --verify (default: the image's)\n"
            "  --hop-cycles D      clocks per hop: 1 = the papers' one-cycle rules, 2 or\n"
            "                      more = the hardware rules v2 (default 2)\n"
            "  --ports P           items each stage serves per cycle, 1 or 2 (default 1)\n"
            "  --result-ready F    D >= 2: the result port is ready in a fraction F of the\n"
            "                      cycles (back-pressure; default 1: always)\n"
            "  --queue Q           per-stage queue depth, 0 = no queues (D = 1 only; default 16)\n"
            "  --issue-width W     requests the dispatcher handles per cycle (default 1)\n"
            "  --burst B           runs of requests with one entry stage, geometric with\n"
            "                      mean B (default 1: no runs); with an image, a run is\n"
            "                      the next trace addresses of its first one's entry stage\n"
            "  --rob R             reorder buffer of R entries: results in input order\n"
            "  --lookahead K       a K-entry dispatch window (K >= W) where requests for\n"
            "                      other entry stages pass one whose queue is full\n"
            "                      (default 0: strict in-order dispatch)\n"
            "  --load L            offered requests per cycle (default: continuous backlog)\n"
            "  --result-fifo F     a linear pipeline under the credit rules (D >= 2): no\n"
            "                      window or queues, every lookup rides every stage, results\n"
            "                      in input order through a FIFO; F result credits (4..4096;\n"
            "                      full rate needs F above the latency in cycles)\n"
            "  --dit-answers A     D >= 2: where a lookup the DIT answers leaves: lane (its\n"
            "                      own result lane, from the window; default) or queue\n"
            "                      (queue 0, then stage 0's lane, like a lookup)\n"
            "  --updates FILE      bubble file (lpmpipe update --bubbles; '-': standard input),\n"
            "                      checked against the image before the run\n"
            "  --ignore-image-crc  apply a bubble file made for another image (its writes\n"
            "                      must still fit this one)\n"
            "  --update-rate U     updates per second (with --updates; default: all at once)\n"
            "  --clock-mhz F       clock that turns the rate into cycles (default 200)\n"
            "  --plant-fault F     for testing the checks: swap-early[=K] (a swap enters K\n"
            "                      cycles too early, default 1) or no-fence (a rebuild does\n"
            "                      not wait for the old copy's lookups); the run must fail\n"
            "  --drain-updates     after the last lookup, run on until every bubble of the\n"
            "                      file has gone through (default: bubbles not in the window\n"
            "                      when the lookups end are counted as left, and a note says so)\n"
            "  --warmup C          cycles left out of the steady-state window (default 0)\n"
            "  --no-check          do not check answers against the image interpreter\n"
            "  --verify            also check every answer against the reference LPM\n"
            "  --json              metrics as one JSON object (default: a table)\n"
            "  --results FILE      one CSV line per lookup: id,addr,nh,dit_cycle,exit_cycle,out_cycle\n"
            "  --cycle-log FILE    the per-cycle log the RTL testbench compares against\n"
            "  --timing            print lookups/s and cycles/s (CPU time) on stderr\n"
            "  --preload           read the whole trace into memory first (for timings)\n"
            "  --walk-baseline unibit|K  instead of simulating, print lookups/s of a plain\n"
            "                      walk: unibit = the table's binary trie, 24 lookups in\n"
            "                      flight (the speed limit make bench compares with); K =\n"
            "                      the image, K in flight through the interpreter\n"
            LPM_CLI_FIB_HELP);
}

static int parse_reads(const char *arg, unsigned *lo, unsigned *hi)
{
    char buf[64];
    snprintf(buf, sizeof buf, "%s", arg);
    char *dash = strchr(buf, '-');
    if (dash)
        *dash = '\0';
    if (lpm_cli_uint(cmd, "--reads", buf, 0, 4096, lo))
        return 2;
    *hi = *lo;
    if (dash && lpm_cli_uint(cmd, "--reads", dash + 1, *lo, 4096, hi))
        return 2;
    return 0;
}

/* CPU time: the figures stay meaningful on a machine shared with others. */
static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* --preload: the whole request stream in memory, so that timings measure
 * the pipeline and not the trace parser. */
typedef struct mem_src {
    lpm_addr *a;
    size_t n, cap, pos;
} mem_src;

static int mem_next(void *ctx, lpm_addr *key, lpm_err *err)
{
    mem_src *m = ctx;
    (void)err;
    if (m->pos == m->n)
        return 0;
    *key = m->a[m->pos++];
    return 1;
}

static int preload(mem_src *m, lpm_sim_source_fn src, void *ctx, lpm_err *err)
{
    lpm_addr k;
    int r;
    while ((r = src(ctx, &k, err)) == 1) {
        if (m->n == m->cap) {
            size_t cap = m->cap ? m->cap * 2 : 65536;
            lpm_addr *p = realloc(m->a, cap * sizeof *p);
            if (!p)
                return lpm_err_set(err, LPM_EFAIL, "out of memory");
            m->a = p;
            m->cap = cap;
        }
        m->a[m->n++] = k;
    }
    return r < 0 ? LPM_EINPUT : 0;
}

int lpm_sim_walk_baseline(lpm_image *img, unsigned k, lpm_sim_source_fn src, void *src_ctx,
                          uint64_t *lookups, uint64_t *checksum, lpm_err *err);
int lpm_sim_walk_unibit(const lpm_fib *f, unsigned k, lpm_sim_source_fn src, void *src_ctx, uint64_t *lookups,
                        uint64_t *checksum, lpm_err *err);

/* The options, as parsed and checked (parse_args, check_args). */
typedef struct sim_args {
    lpm_fib_opts fo;
    lpm_sim_cfg cfg;
    lpm_cli_req req; /* --trace, --gen, --count, --seed */
    const char *image, *fib_path, *updates, *results, *clog;
    unsigned synth, reads_lo, reads_hi, baseline, unibit;
    int linear, have_reads, check, verify, json, timing, pre, ignore_crc;
    double burst, urate, clock_mhz;
} sim_args;

/* What a run holds open: set up by load_inputs and open_source, used by
 * walk_baseline or simulate, released by finish. */
typedef struct sim_state {
    lpm_image *img;
    lpm_fib fib;
    lpm_sim_walker w;
    lpm_sim_synth sy;
    lpm_sim_synth_src ss;
    lpm_sim_file_src fs;
    lpm_sim_gen_src gs;
    lpm_sim_burst_src bs;
    int have_bs;
    lpm_sim_bfile bf;
    mem_src ms;
    lpm_sim_check cc;
    lpm_sim *sim;
    FILE *clog_fp;
    char source[256];
    lpm_sim_source_fn src;
    void *src_ctx;
} sim_state;

enum {
    O_IMAGE = LPM_OPT_FIRST_FREE, O_SYNTH, O_LINEAR, O_READS, O_FIB,
    O_QUEUE, O_WIDTH, O_BURST, O_ROB, O_RFIFO, O_LOAD, O_UPDATES, O_IGNORE_CRC, O_URATE, O_CLOCK, O_WARMUP, O_NOCHECK,
    O_VERIFY, O_JSON, O_RESULTS, O_CLOG, O_TIMING, O_BASELINE, O_PRELOAD, O_LOOKAHEAD, O_HOP, O_PORTS, O_READY, O_ANSQ,
    O_DRAIN, O_FAULT
};

/* --plant-fault F; 0 or 2 after the message. */
static int plant_fault(const char *arg, lpm_sim_cfg *cfg)
{
    if (!strncmp(arg, "swap-early", 10) && (!arg[10] || arg[10] == '=')) {
        cfg->fault = LPM_SIM_FAULT_SWAP_EARLY;
        if (arg[10] && lpm_cli_uint(cmd, "--plant-fault swap-early=", arg + 11, 1, 256, &cfg->fault_cycles))
            return 2;
    } else if (!strcmp(arg, "no-fence"))
        cfg->fault = LPM_SIM_FAULT_NO_FENCE;
    else {
        lpm_cli_error(cmd, "--plant-fault: '%s' is neither swap-early nor no-fence", arg);
        return 2;
    }
    return 0;
}

/* One option of the command's own (not a FIB option); 0, or the exit status. */
static int sim_option(int c, const char *arg, sim_args *a)
{
    lpm_sim_cfg *cfg = &a->cfg;
    switch (c) {
    case O_IMAGE: a->image = arg; break;
    case O_SYNTH: if (lpm_cli_uint(cmd, "--synthetic", arg, 1, LPM_SIM_MAX_STAGES, &a->synth)) return 2; break;
    case O_LINEAR: a->linear = 1; break;
    case O_READS: if (parse_reads(arg, &a->reads_lo, &a->reads_hi)) return 2; a->have_reads = 1; break;
    case O_FIB: a->fib_path = arg; break;
    case O_QUEUE: if (lpm_cli_uint(cmd, "--queue", arg, 0, 65536, &cfg->queue)) return 2; break;
    case O_WIDTH: if (lpm_cli_uint(cmd, "--issue-width", arg, 1, 64, &cfg->width)) return 2; break;
    case O_BURST: if (lpm_cli_double(cmd, "--burst", arg, 1.0, 1e9, &a->burst)) return 2; break;
    case O_ROB: if (lpm_cli_uint(cmd, "--rob", arg, 0, 1u << 20, &cfg->rob)) return 2; break;
    case O_RFIFO: if (lpm_cli_uint(cmd, "--result-fifo", arg, 4, 4096, &cfg->result_fifo)) return 2; break;
    case O_ANSQ: return lpm_cli_dit_answers(cmd, arg, &cfg->dit_queue);
    case O_LOAD: if (lpm_cli_double(cmd, "--load", arg, 1e-9, 64.0, &cfg->load)) return 2; break;
    case O_UPDATES: a->updates = arg; break;
    case O_IGNORE_CRC: a->ignore_crc = 1; break;
    case O_URATE: if (lpm_cli_double(cmd, "--update-rate", arg, 0.0, 1e12, &a->urate)) return 2; break;
    case O_CLOCK: if (lpm_cli_double(cmd, "--clock-mhz", arg, 1e-3, 1e6, &a->clock_mhz)) return 2; break;
    case O_WARMUP: if (lpm_cli_u64(cmd, "--warmup", arg, 0, UINT64_MAX / 2, &cfg->warmup)) return 2; break;
    case O_NOCHECK: a->check = 0; break;
    case O_DRAIN: cfg->drain_updates = 1; break;
    case O_FAULT: return plant_fault(arg, cfg);
    case O_VERIFY: a->verify = 1; break;
    case O_JSON: a->json = 1; break;
    case O_RESULTS: a->results = arg; break;
    case O_CLOG: a->clog = arg; break;
    case O_TIMING: a->timing = 1; break;
    case O_PRELOAD: a->pre = 1; break;
    case O_HOP: if (lpm_cli_uint(cmd, "--hop-cycles", arg, 1, 16, &cfg->hop)) return 2; break;
    case O_PORTS: if (lpm_cli_uint(cmd, "--ports", arg, 1, 2, &cfg->ports)) return 2; break;
    case O_READY: if (lpm_cli_double(cmd, "--result-ready", arg, 1e-6, 1.0, &cfg->result_ready)) return 2; break;
    case O_LOOKAHEAD: if (lpm_cli_uint(cmd, "--lookahead", arg, 0, 4096, &cfg->lookahead)) return 2; break;
    case O_BASELINE:
        if ((a->unibit = !strcmp(arg, "unibit")))
            a->baseline = 24; /* issue 11's limit: 24 lookups in flight */
        else if (lpm_cli_uint(cmd, "--walk-baseline", arg, 1, 4096, &a->baseline))
            return 2;
        break;
    default: return lpm_cli_usage_error(cmd);
    }
    return 0;
}

/* 0 with *help_given set when --help was given (help printed), else the exit
 * status of a bad option (0: go on). */
static int parse_args(int argc, char **argv, sim_args *a, int *help_given)
{
    static const struct option lo[] = {
        { "image", required_argument, 0, O_IMAGE },
        { "synthetic", required_argument, 0, O_SYNTH },
        { "linear", no_argument, 0, O_LINEAR },
        { "reads", required_argument, 0, O_READS },
        LPM_CLI_REQ_LONGOPTS,
        { "fib", required_argument, 0, O_FIB },
        { "queue", required_argument, 0, O_QUEUE },
        { "issue-width", required_argument, 0, O_WIDTH },
        { "burst", required_argument, 0, O_BURST },
        { "rob", required_argument, 0, O_ROB },
        { "result-fifo", required_argument, 0, O_RFIFO },
        { "dit-answers", required_argument, 0, O_ANSQ },
        { "load", required_argument, 0, O_LOAD },
        { "updates", required_argument, 0, O_UPDATES },
        { "ignore-image-crc", no_argument, 0, O_IGNORE_CRC },
        { "update-rate", required_argument, 0, O_URATE },
        { "clock-mhz", required_argument, 0, O_CLOCK },
        { "warmup", required_argument, 0, O_WARMUP },
        { "no-check", no_argument, 0, O_NOCHECK },
        { "verify", no_argument, 0, O_VERIFY },
        { "json", no_argument, 0, O_JSON },
        { "results", required_argument, 0, O_RESULTS },
        { "cycle-log", required_argument, 0, O_CLOG },
        { "timing", no_argument, 0, O_TIMING },
        { "walk-baseline", required_argument, 0, O_BASELINE },
        { "preload", no_argument, 0, O_PRELOAD },
        { "lookahead", required_argument, 0, O_LOOKAHEAD },
        { "hop-cycles", required_argument, 0, O_HOP },
        { "ports", required_argument, 0, O_PORTS },
        { "result-ready", required_argument, 0, O_READY },
        { "drain-updates", no_argument, 0, O_DRAIN },
        { "plant-fault", required_argument, 0, O_FAULT },
        { "help", no_argument, 0, 'h' },
        LPM_CLI_FIB_LONGOPTS,
        { 0, 0, 0, 0 },
    };
    memset(a, 0, sizeof *a);
    lpm_fib_opts_default(&a->fo);
    lpm_sim_cfg_default(&a->cfg);
    a->check = 1;
    req_init(&a->req);
    a->burst = 1.0;
    a->clock_mhz = 200.0;
    *help_given = 0;
    int c, rc;
    while ((c = lpm_cli_getopt(cmd, argc, argv, "h", lo)) != -1) {
        int r = lpm_cli_fib_option(cmd, c, optarg, &a->fo);
        if (!r)
            r = lpm_cli_req_option(cmd, c, optarg, &a->req);
        if (r < 0)
            return 2;
        if (r > 0)
            continue;
        if (c == 'h') {
            help(stdout);
            *help_given = 1;
            return 0;
        }
        if ((rc = sim_option(c, optarg, a)))
            return rc;
    }
    if (optind < argc) {
        lpm_cli_error(cmd, "unexpected argument '%s'", argv[optind]);
        return 2;
    }
    return 0;
}

/* The options that go together; 0 or 2 after the message. */
static int check_args(sim_args *a)
{
    if (!!a->image + !!a->synth != 1) {
        lpm_cli_error(cmd, "give exactly one of --image and --synthetic");
        return 2;
    }
    if (a->synth && (a->req.trace || a->req.gen || a->updates || a->verify || a->baseline)) {
        lpm_cli_error(cmd, "--synthetic takes no --trace, --gen, --updates, --verify or --walk-baseline");
        return 2;
    }
    if (a->image && !!a->req.trace + !!a->req.gen != 1) {
        lpm_cli_error(cmd, "with --image give exactly one of --trace and --gen");
        return 2;
    }
    if ((a->linear || a->have_reads) && !a->synth) {
        lpm_cli_error(cmd, "--linear and --reads go with --synthetic");
        return 2;
    }
    if ((a->urate > 0 || a->ignore_crc || a->cfg.drain_updates) && !a->updates) {
        lpm_cli_error(cmd, "%s needs --updates",
                      a->ignore_crc ? "--ignore-image-crc" : a->urate > 0 ? "--update-rate" : "--drain-updates");
        return 2;
    }
    if (lpm_cli_req_kind(cmd, &a->req))
        return 2;
    return 0;
}

/* The image (and the bubble file, checked against it before anything
 * runs) or the synthetic pipeline. */
static int load_inputs(sim_args *a, sim_state *s)
{
    lpm_err err;
    int rc;
    if (!a->image) {
        lpm_sim_synth_init(&s->sy, a->synth, !a->linear, &s->w);
        if (!a->have_reads)
            a->reads_lo = a->reads_hi = a->synth;
        s->cc.synthetic = 1;
        return 0;
    }
    if ((rc = lpm_image_load(&s->img, a->image, &err))) {
        lpm_cli_error(cmd, "%s", err.msg);
        return rc;
    }
    lpm_sim_image_walker(s->img, &s->w);
    s->cc.family = lpm_image_family(s->img);
    s->cc.nh = lpm_image_nhtab(s->img);
    if (a->updates) {
        double cpu = a->urate > 0 ? a->clock_mhz * 1e6 / a->urate : 0.0;
        if ((rc = lpm_sim_bfile_open(&s->bf, a->updates, s->img, cpu, a->ignore_crc, &err))) {
            lpm_cli_error(cmd, "%s", err.msg);
            return rc;
        }
        if (s->bf.crc_differs)
            lpm_cli_note(cmd, "%s was made for another image (its CRC differs); applied as --ignore-image-crc asks",
                          a->updates);
    }
    return 0;
}

/* The table: for the generators and the reference check. */
static int load_table(const sim_args *a, sim_state *s)
{
    lpm_err err;
    int rc;
    if (a->image && (a->req.gen || a->verify || a->unibit)) {
        if (a->fib_path) {
            if ((rc = lpm_cli_load_fib(cmd, a->fib_path, &a->fo, &s->fib)))
                return rc;
            if (s->fib.family != s->cc.family) {
                lpm_cli_error(cmd, "--fib is IPv%d, the image IPv%d", s->fib.family, s->cc.family);
                return 2;
            }
        } else if ((rc = lpm_cli_image_fib(s->img, &s->fib, &err))) {
            lpm_cli_error(cmd, "%s", err.msg);
            return rc;
        }
    }
    if (a->verify && (rc = lpm_ref_build(&s->cc.ref, &s->fib, &err))) {
        lpm_cli_error(cmd, "%s", err.msg);
        return rc;
    }
    return 0;
}

/* The request stream: synthetic, a trace file or a generator, then bursts
 * and --preload on top. */
static int open_source(const sim_args *a, sim_state *s)
{
    lpm_err err;
    int rc = 0;
    if (a->synth) {
        lpm_sim_synth_src_init(&s->ss, a->synth, !a->linear, a->reads_lo, a->reads_hi, a->burst, a->req.count, a->req.seed);
        s->src = lpm_sim_synth_next;
        s->src_ctx = &s->ss;
        snprintf(s->source, sizeof s->source, "synthetic: %" PRIu64 " requests, %u-%u reads, seed %" PRIu64,
                 a->req.count, a->reads_lo, a->reads_hi, a->req.seed);
    } else if (a->req.trace) {
        rc = lpm_sim_file_src_open(&s->fs, a->req.trace, s->cc.family, &err);
        s->src = lpm_sim_file_next;
        s->src_ctx = &s->fs;
        snprintf(s->source, sizeof s->source, "trace %s", a->req.trace);
    } else {
        rc = lpm_sim_gen_src_init(&s->gs, &s->fib, a->req.kind, a->req.count, a->req.seed, &err);
        s->src = lpm_sim_gen_next;
        s->src_ctx = &s->gs;
        snprintf(s->source, sizeof s->source, "%s: %" PRIu64 " requests, seed %" PRIu64, a->req.gen, a->req.count, a->req.seed);
    }
    if (!rc && a->image && a->burst > 1.0) {
        rc = lpm_sim_burst_src_init(&s->bs, s->src, s->src_ctx, a->burst, a->req.seed, s->w.stages, lpm_sim_image_entry,
                                    s->img, &err);
        if (!rc) {
            s->have_bs = 1;
            s->src = lpm_sim_burst_next;
            s->src_ctx = &s->bs;
            size_t l = strlen(s->source);
            snprintf(s->source + l, sizeof s->source - l, ", bursts of one entry stage (mean %g)", a->burst);
        }
    }
    if (!rc && a->pre && !(rc = preload(&s->ms, s->src, s->src_ctx, &err))) {
        s->src = mem_next;
        s->src_ctx = &s->ms;
    }
    if (rc)
        lpm_cli_error(cmd, "%s", err.msg);
    return rc;
}

/* --walk-baseline: the table's binary trie (unibit) or the image walked
 * with K lookups in flight, no pipeline. */
static int walk_baseline(const sim_args *a, sim_state *s)
{
    lpm_err err;
    uint64_t n = 0, sum = 0;
    double t0 = now_s();
    int rc = a->unibit ? lpm_sim_walk_unibit(&s->fib, a->baseline, s->src, s->src_ctx, &n, &sum, &err)
                       : lpm_sim_walk_baseline(s->img, a->baseline, s->src, s->src_ctx, &n, &sum, &err);
    double dt = now_s() - t0;
    if (rc) {
        lpm_cli_error(cmd, "%s", err.msg);
        return rc;
    }
    printf("{\"walk_baseline\":\"%s\",\"in_flight\":%u,\"lookups\":%" PRIu64 ",\"seconds\":%.4f,\"lookups_per_s\":%.0f,\"checksum\":%" PRIu64 "}\n",
           a->unibit ? "unibit" : "image", a->baseline, n, dt, dt > 0 ? (double)n / dt : 0.0, sum);
    return 0;
}

/* The simulator with its outputs and, with --updates, the hooks that keep
 * the before/after copies of the table the checks need. */
static int make_sim(sim_args *a, sim_state *s)
{
    lpm_err err;
    int rc = 0;
    lpm_sim_check *cc = &s->cc;
    if (a->clog && !(s->clog_fp = lpm_cli_open_out(cmd, a->clog, &rc)))
        return rc;
    if (a->results && !(cc->results = lpm_cli_open_out(cmd, a->results, &rc)))
        return rc;
    if (cc->results)
        fprintf(cc->results, "id,addr,nh,dit_cycle,exit_cycle,out_cycle\n");
    a->cfg.cycle_log = s->clog_fp;
    if ((rc = lpm_sim_new(&s->sim, &s->w, &a->cfg, &err))) {
        lpm_cli_error(cmd, "%s", err.msg);
        return rc;
    }
    cc->img = s->img;
    cc->check = a->check;
    if (!a->updates)
        return 0;
    if (a->check) {
        cc->sh_enter = lpm_image_clone(s->img);
        cc->sh_exit = lpm_image_clone(s->img);
        if (a->cfg.result_fifo)
            cc->sh_lastin = lpm_image_clone(s->img);
        if (!cc->sh_enter || !cc->sh_exit || (a->cfg.result_fifo && !cc->sh_lastin)) {
            lpm_cli_error(cmd, "out of memory");
            return 1;
        }
        cc->bf = &s->bf;
        lpm_sim_set_dit_hook(s->sim, lpm_sim_check_dit_hook, cc);
        lpm_sim_set_exit_hook(s->sim, lpm_sim_check_exit_hook, cc);
        lpm_sim_set_bubble_hook(s->sim, lpm_sim_check_bubble_hook, cc);
    }
    if (cc->ref) {
        lpm_cli_note(cmd, "--verify with --updates: the reference does not follow the bubbles; "
                           "answers are checked against the interpreter before and after each update");
        lpm_ref_free(cc->ref);
        cc->ref = NULL;
    }
    return 0;
}

/* The errors a run can end with after its report: the swap rules, the
 * copies' CRCs, the answers; 1 when any, else 0. */
static int run_errors(const lpm_sim_stats *st, const lpm_sim_check *cc)
{
    int rc = 0;
    if (st->copy_violations) {
        char where[64];
        if (st->viol_stage == LPM_SIM_DIT)
            snprintf(where, sizeof where, "DIT entry %u", st->viol_addr);
        else
            snprintf(where, sizeof where, "stage %u address %u", st->viol_stage, st->viol_addr);
        lpm_cli_error(cmd, "%" PRIu64 " rebuild write%s broke the swap rules; the first, at cycle %" PRIu64
                           ": into copy %u, %s, %s",
                      st->copy_violations, st->copy_violations == 1 ? "" : "s", st->viol_cycle, st->viol_copy, where,
                      st->viol_kind == 1 ? "after the swap had made that copy live"
                                         : "while lookups were walking that copy");
        if (st->viol_kind == 2)
            lpm_cli_error(cmd, "(%" PRIu64 " lookups were walking it)", st->viol_lookups);
        rc = 1;
    }
    if (cc->crc_bad) {
        lpm_cli_error(cmd, "%" PRIu64 " swap%s found the new copy different from what its R line says (first: update %" PRIu64 ")",
                      cc->crc_bad, cc->crc_bad == 1 ? "" : "s", cc->crc_update);
        rc = 1;
    }
    if (cc->mismatches || cc->ref_mismatches) {
        lpm_cli_error(cmd, "%" PRIu64 " mismatch%s", cc->mismatches + cc->ref_mismatches,
                      cc->mismatches + cc->ref_mismatches == 1 ? "" : "es");
        rc = 1;
    }
    return rc;
}

/* The report (JSON or table), the notes, --timing; then run_errors. */
static int report(const sim_args *a, const sim_state *s, const lpm_sim_stats *st, double dt)
{
    const lpm_sim_check *cc = &s->cc;
    const lpm_sim_bfile *bf = &s->bf;
    if (st->requests && !st->win_cycles)
        lpm_cli_error(cmd, "warning: --warmup %" PRIu64 " leaves no steady-state window (the last dispatch was before it): "
                           "LPC and utilisation are 0", a->cfg.warmup);
    lpm_sim_report rep = { st, &a->cfg, s->w.stages, s->w.ring, s->source, a->burst, a->urate, a->clock_mhz,
                           cc->synthetic || !a->check ? "none" : cc->sh_enter ? "interpreter before/after update" : "interpreter",
                           cc->checked, cc->mismatches, cc->ref_checked, cc->ref_mismatches,
                           a->updates != NULL, bf->in_file_bubbles, bf->in_file_updates, bf->updates_applied,
                           bf->in_file_rebuilds, st->swaps, cc->crc_checked, cc->crc_bad };
    if (a->json)
        lpm_sim_report_json(stdout, &rep);
    else
        lpm_sim_report_table(stdout, &rep);
    if (a->updates && bf->in_file_bubbles > st->bubbles)
        lpm_cli_note(cmd, "the lookups ended before the updates: %" PRIu64 " of %" PRIu64 " bubbles (%" PRIu64 " of %" PRIu64
                          " updates) were not simulated; --drain-updates runs on until all are applied",
                     bf->in_file_bubbles - st->bubbles, bf->in_file_bubbles, bf->in_file_updates - bf->updates_applied,
                     bf->in_file_updates);
    if (a->timing)
        fprintf(stderr, "lpmpipe: sim: %" PRIu64 " lookups, %" PRIu64 " cycles in %.3f s: %.0f lookups/s, %.0f cycles/s\n",
                st->requests, st->cycles, dt, dt > 0 ? (double)st->requests / dt : 0.0,
                dt > 0 ? (double)st->cycles / dt : 0.0);
    return run_errors(st, cc);
}

/* Runs the simulation, checks that every request came out (in order with
 * --rob) and that the bubble file ended whole, then reports. */
static int simulate(const sim_args *a, sim_state *s)
{
    lpm_err err;
    lpm_sim_check *cc = &s->cc;
    double t0 = now_s();
    int rc = lpm_sim_run(s->sim, s->src, s->src_ctx, a->updates ? lpm_sim_bfile_next : NULL, &s->bf,
                         lpm_sim_check_sink, cc, &err);
    double dt = now_s() - t0;
    if (rc) {
        lpm_cli_error(cmd, "%s", err.msg);
        return rc;
    }
    if (cc->oom) {
        lpm_cli_error(cmd, "out of memory");
        return 1;
    }
    const lpm_sim_stats *st = lpm_sim_get_stats(s->sim);
    if (a->updates && (rc = lpm_sim_bfile_finish(&s->bf, st->bubbles_entered, &err))) {
        lpm_cli_error(cmd, "%s", err.msg);
        return rc;
    }
    if (cc->count != st->requests || cc->id_sum != (st->requests ? st->requests * (st->requests - 1) / 2 : 0) ||
        ((a->cfg.rob || a->cfg.result_fifo) && !cc->ordered)) {
        lpm_cli_error(cmd, "internal error: %" PRIu64 " results for %" PRIu64 " requests%s", cc->count, st->requests,
                      (a->cfg.rob || a->cfg.result_fifo) && !cc->ordered ? ", out of input order" : "");
        return 1;
    }
    return report(a, s, st, dt);
}

/* Closes the outputs (a failed close makes a clean run fail) and frees
 * everything; returns the exit status. */
static int finish(const sim_args *a, sim_state *s, int rc)
{
    if (s->clog_fp && lpm_cli_close_out(cmd, s->clog_fp, a->clog) && !rc)
        rc = 1;
    if (s->cc.results && lpm_cli_close_out(cmd, s->cc.results, a->results) && !rc)
        rc = 1;
    if (fflush(stdout) && !rc)
        rc = 1;
    free(s->ms.a);
    free(s->cc.fw);
    free(s->cc.fu_end);
    lpm_sim_free(s->sim);
    lpm_sim_bfile_close(&s->bf);
    lpm_sim_file_src_close(&s->fs);
    lpm_sim_gen_src_free(&s->gs);
    if (s->have_bs) {
        if (!rc && s->bs.dropped)
            fprintf(stderr, "lpmpipe: sim: --burst: %" PRIu64 " addresses dropped (their entry stage's pool was full)\n",
                    s->bs.dropped);
        lpm_sim_burst_src_free(&s->bs);
    }
    lpm_ref_free(s->cc.ref);
    lpm_image_free(s->cc.sh_enter);
    lpm_image_free(s->cc.sh_exit);
    lpm_image_free(s->cc.sh_lastin);
    lpm_image_free(s->img);
    lpm_fib_free(&s->fib);
    return rc;
}

int lpm_cmd_sim(int argc, char **argv)
{
    sim_args a;
    int help_given, rc = parse_args(argc, argv, &a, &help_given);
    if (rc || help_given)
        return rc;
    if ((rc = check_args(&a)))
        return rc;
    sim_state s;
    memset(&s, 0, sizeof s);
    lpm_fib_init(&s.fib);
    s.cc.ordered = 1;
    if (!(rc = load_inputs(&a, &s)) && !(rc = load_table(&a, &s)) && !(rc = open_source(&a, &s))) {
        if (a.baseline)
            rc = walk_baseline(&a, &s);
        else if (!(rc = make_sim(&a, &s)))
            rc = simulate(&a, &s);
    }
    return finish(&a, &s, rc);
}
