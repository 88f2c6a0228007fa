/* lpmpipe sim: options (parse_args, check_args), the inputs (load_inputs,
 * load_table, open_source), the checking sink, the run and the report. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "cmd.h"
#include "../core/ref_lpm.h"
#include "../sim/bubble_file.h"
#include "../sim/sim.h"
#include "../sim/sim_report.h"
#include "../sim/sim_source.h"
#include "../sim/walk_image.h"
#include "../sim/walk_synth.h"

static const char *cmd = "sim";

static void help(FILE *fp)
{
    fprintf(fp,
            "usage: lpmpipe sim --image IMG (--trace FILE | --gen KIND [--count N] [--seed S] [--fib F])\n"
            "                   [--hop-cycles D] [--ports P] [--result-ready F] [--queue Q]\n"
            "                   [--issue-width W] [--burst B] [--rob R] [--lookahead K] [--load L]\n"
            "                   [--warmup C] [--updates FILE [--ignore-image-crc] [--update-rate U]\n"
            "                   [--clock-mhz F]] [--no-check | --verify] [--json] [--results FILE]\n"
            "                   [--cycle-log FILE] [--timing] [--preload] [FIB options]\n"
            "       lpmpipe sim --synthetic N [--linear] [--reads A[-B]] [--count N] [--seed S]\n"
            "                   (the pipeline and output options above)\n"
            "       lpmpipe sim --image IMG --walk-baseline K (--trace FILE | --gen KIND ...) [--preload]\n"
            "\n"
            "Cycle-level simulation of a CAMP ring or a write-bubble linear pipeline\n"
            "(rules: docs/microarchitecture.md; options and outputs: docs/cli-sim.md).\n"
            "\n"
            "  --image IMG         pipeline image written by lpmpipe map\n"
            "  --synthetic N       no table: N stages, requests enter at a random stage and\n"
            "                      read --reads stages (default N: the whole ring)\n"
            "  --linear            with --synthetic: a linear pipeline\n"
            "  --reads A[-B]       with --synthetic: reads per request, fixed or uniform in A..B\n"
            "  --trace FILE        addresses, one per line (streamed)\n"
            "  --gen KIND          uniform, random-match, table, zipf (the table: --fib, or\n"
            "                      the image's own route section)\n"
            "  --count N           requests to generate (default 100000)\n"
            "  --seed S            generator seed (default 1)\n"
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
            "  --updates FILE      bubble file (lpmpipe update --bubbles; '-': standard input),\n"
            "                      checked against the image before the run\n"
            "  --ignore-image-crc  apply a bubble file made for another image (its writes\n"
            "                      must still fit this one)\n"
            "  --update-rate U     updates per second (with --updates; default: all at once)\n"
            "  --clock-mhz F       clock that turns the rate into cycles (default 200)\n"
            "  --warmup C          cycles left out of the steady-state window (default 0)\n"
            "  --no-check          do not check answers against the image interpreter\n"
            "  --verify            also check every answer against the reference LPM\n"
            "  --json              metrics as one JSON object (default: a table)\n"
            "  --results FILE      one CSV line per lookup: id,addr,nh,dit_cycle,exit_cycle,out_cycle\n"
            "  --cycle-log FILE    the per-cycle log the RTL testbench compares against\n"
            "  --timing            print lookups/s and cycles/s (CPU time) on stderr\n"
            "  --preload           read the whole trace into memory first (for timings)\n"
            "  --walk-baseline K   instead of simulating: walk the image with K lookups in\n"
            "                      flight, round robin, and print lookups/s\n"
            LPM_CLI_FIB_HELP);
}

typedef struct check_ctx {
    lpm_image *img;        /* the live image (bubbles write it) */
    lpm_image *sh_enter;   /* every bubble that entered the window applied */
    lpm_image *sh_exit;    /* every bubble that left the last stage applied */
    lpm_ref *ref;
    const lpm_nhtab *nh;
    int family, check, synthetic;
    FILE *results;
    uint64_t checked, mismatches, ref_checked, ref_mismatches;
    uint64_t count, id_sum, last_id;
    int ordered;
    /* Updates in flight, judged whole: the writes of every update whose
     * first bubble entered and whose last bubble has not left, in order. */
    const lpm_sim_bfile *bf;
    lpm_sim_write *fw;        /* concatenated writes */
    size_t fw_n, fw_cap, fw_head;
    size_t *fu_end;           /* per update in flight: end offset in fw */
    size_t fu_n, fu_cap, fu_head;
    int oom;
} check_ctx;

static const char *nh_name(const check_ctx *c, uint32_t nh, char *buf, size_t n)
{
    if (nh == LPM_NH_NONE)
        return "-";
    if (c->synthetic || !c->nh) {
        snprintf(buf, n, "%" PRIu32, nh);
        return buf;
    }
    if (nh >= c->nh->n) { /* a next hop an update brought: the image has no name for it */
        snprintf(buf, n, "#%" PRIu32, nh);
        return buf;
    }
    return lpm_nhtab_name(c->nh, nh);
}

static void addr_text(const check_ctx *c, const lpm_addr *a, char *buf, size_t n)
{
    if (c->synthetic)
        snprintf(buf, n, "e%" PRIu64 "r%" PRIu64, a->hi, a->lo);
    else
        lpm_addr_format(a, c->family, buf, n);
}

static void mismatch(check_ctx *c, const lpm_sim_result *r, const char *who, uint32_t want)
{
    if (c->mismatches + c->ref_mismatches > 10)
        return;
    char a[LPM_ADDR_STRLEN], b1[16], b2[16];
    addr_text(c, &r->key, a, sizeof a);
    fprintf(stderr, "lpmpipe: sim: mismatch: request %" PRIu64 " %s: pipeline says %s, %s says %s (exit cycle %" PRIu64 ")\n",
            r->id, a, nh_name(c, r->nh, b1, sizeof b1), who, nh_name(c, want, b2, sizeof b2), r->exit_cycle);
}

static uint32_t dit_hook(void *ctx, uint64_t id, const lpm_addr *key)
{
    check_ctx *c = ctx;
    (void)id;
    return lpm_image_lookup(c->sh_exit, key);
}

/* "Before" is the table with every update whose last bubble has left the
 * pipeline; "after" the table with every update whose first bubble has
 * entered. A lookup must answer as one of the two at its output. */
static void bubble_hook(void *ctx, const lpm_sim_bubble *b, int leaving)
{
    check_ctx *c = ctx;
    if (!leaving && b->first) {
        const lpm_sim_bfile *bf = c->bf;
        if (c->fw_head == c->fw_n)
            c->fw_head = c->fw_n = 0;
        if (c->fw_n + bf->nuw > c->fw_cap) {
            size_t cap = (c->fw_n + bf->nuw) * 2;
            lpm_sim_write *p = realloc(c->fw, cap * sizeof *p);
            if (!p) {
                c->oom = 1;
                return;
            }
            c->fw = p;
            c->fw_cap = cap;
        }
        if (c->fu_head == c->fu_n)
            c->fu_head = c->fu_n = 0;
        if (c->fu_n == c->fu_cap) {
            size_t cap = c->fu_cap ? c->fu_cap * 2 : 16;
            size_t *p = realloc(c->fu_end, cap * sizeof *p);
            if (!p) {
                c->oom = 1;
                return;
            }
            c->fu_end = p;
            c->fu_cap = cap;
        }
        for (size_t j = 0; j < bf->nuw; j++) {
            c->fw[c->fw_n++] = bf->uw[j];
            lpm_image_write(c->sh_enter, bf->uw[j].stage, bf->uw[j].addr, bf->uw[j].word);
        }
        c->fu_end[c->fu_n++] = c->fw_n;
    }
    if (leaving && b->last && c->fu_head < c->fu_n) {
        size_t end = c->fu_end[c->fu_head++];
        for (; c->fw_head < end; c->fw_head++)
            lpm_image_write(c->sh_exit, c->fw[c->fw_head].stage, c->fw[c->fw_head].addr, c->fw[c->fw_head].word);
    }
}

static int sink(void *ctx, const lpm_sim_result *r, lpm_err *err)
{
    check_ctx *c = ctx;
    (void)err;
    if (c->count && r->id <= c->last_id)
        c->ordered = 0;
    c->count++;
    c->id_sum += r->id;
    c->last_id = r->id;
    if (c->check && !c->synthetic) {
        c->checked++;
        if (c->sh_enter) {
            /* Updates in flight: right before (the table as it was when the
             * lookup read the DIT) or right after (as it is now). */
            uint32_t before = r->tag, after = lpm_image_lookup(c->sh_enter, &r->key);
            if (r->nh != before && r->nh != after) {
                c->mismatches++;
                mismatch(c, r, "the interpreter (before and after the concurrent update)", after);
            }
        } else {
            uint32_t want = lpm_image_lookup(c->img, &r->key);
            if (want != r->nh) {
                c->mismatches++;
                mismatch(c, r, "the image interpreter", want);
            }
        }
    }
    if (c->ref) {
        c->ref_checked++;
        uint32_t want = lpm_ref_lookup(c->ref, &r->key, NULL);
        if (want != r->nh) {
            c->ref_mismatches++;
            mismatch(c, r, "the reference LPM", want);
        }
    }
    if (c->results) {
        char a[LPM_ADDR_STRLEN], b[16];
        addr_text(c, &r->key, a, sizeof a);
        fprintf(c->results, "%" PRIu64 ",%s,%s,%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n", r->id, a,
                nh_name(c, r->nh, b, sizeof b), r->dit_cycle, r->exit_cycle, r->out_cycle);
    }
    return 0;
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

/* The options, as parsed and checked (parse_args, check_args). */
typedef struct sim_args {
    lpm_fib_opts fo;
    lpm_sim_cfg cfg;
    const char *image, *trace, *gen, *fib_path, *updates, *results, *clog;
    unsigned synth, reads_lo, reads_hi, baseline;
    int linear, have_reads, check, verify, json, timing, pre, ignore_crc, kind;
    uint64_t count, seed;
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
    check_ctx cc;
    lpm_sim *sim;
    FILE *clog_fp;
    char source[256];
    lpm_sim_source_fn src;
    void *src_ctx;
} sim_state;

enum {
    O_IMAGE = LPM_OPT_FIRST_FREE, O_SYNTH, O_LINEAR, O_READS, O_TRACE, O_GEN, O_COUNT, O_SEED, O_FIB,
    O_QUEUE, O_WIDTH, O_BURST, O_ROB, O_LOAD, O_UPDATES, O_IGNORE_CRC, O_URATE, O_CLOCK, O_WARMUP, O_NOCHECK,
    O_VERIFY, O_JSON, O_RESULTS, O_CLOG, O_TIMING, O_BASELINE, O_PRELOAD, O_LOOKAHEAD, O_HOP, O_PORTS, O_READY
};

/* One option of the command's own (not a FIB option); 0, or the exit status. */
static int sim_option(int c, const char *arg, sim_args *a)
{
    lpm_sim_cfg *cfg = &a->cfg;
    switch (c) {
    case O_IMAGE: a->image = arg; break;
    case O_SYNTH: if (lpm_cli_uint(cmd, "--synthetic", arg, 1, LPM_SIM_MAX_STAGES, &a->synth)) return 2; break;
    case O_LINEAR: a->linear = 1; break;
    case O_READS: if (parse_reads(arg, &a->reads_lo, &a->reads_hi)) return 2; a->have_reads = 1; break;
    case O_TRACE: a->trace = arg; break;
    case O_GEN: a->gen = arg; break;
    case O_COUNT: if (lpm_cli_u64(cmd, "--count", arg, 1, UINT64_MAX / 2, &a->count)) return 2; break;
    case O_SEED: if (lpm_cli_u64(cmd, "--seed", arg, 0, UINT64_MAX, &a->seed)) return 2; break;
    case O_FIB: a->fib_path = arg; break;
    case O_QUEUE: if (lpm_cli_uint(cmd, "--queue", arg, 0, 65536, &cfg->queue)) return 2; break;
    case O_WIDTH: if (lpm_cli_uint(cmd, "--issue-width", arg, 1, 64, &cfg->width)) return 2; break;
    case O_BURST: if (lpm_cli_double(cmd, "--burst", arg, 1.0, 1e9, &a->burst)) return 2; break;
    case O_ROB: if (lpm_cli_uint(cmd, "--rob", arg, 0, 1u << 20, &cfg->rob)) return 2; break;
    case O_LOAD: if (lpm_cli_double(cmd, "--load", arg, 1e-9, 64.0, &cfg->load)) return 2; break;
    case O_UPDATES: a->updates = arg; break;
    case O_IGNORE_CRC: a->ignore_crc = 1; break;
    case O_URATE: if (lpm_cli_double(cmd, "--update-rate", arg, 0.0, 1e12, &a->urate)) return 2; break;
    case O_CLOCK: if (lpm_cli_double(cmd, "--clock-mhz", arg, 1e-3, 1e6, &a->clock_mhz)) return 2; break;
    case O_WARMUP: if (lpm_cli_u64(cmd, "--warmup", arg, 0, UINT64_MAX / 2, &cfg->warmup)) return 2; break;
    case O_NOCHECK: a->check = 0; break;
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
    case O_BASELINE: if (lpm_cli_uint(cmd, "--walk-baseline", arg, 1, 4096, &a->baseline)) return 2; break;
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
        { "trace", required_argument, 0, O_TRACE },
        { "gen", required_argument, 0, O_GEN },
        { "count", required_argument, 0, O_COUNT },
        { "seed", required_argument, 0, O_SEED },
        { "fib", required_argument, 0, O_FIB },
        { "queue", required_argument, 0, O_QUEUE },
        { "issue-width", required_argument, 0, O_WIDTH },
        { "burst", required_argument, 0, O_BURST },
        { "rob", required_argument, 0, O_ROB },
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
        { "help", no_argument, 0, 'h' },
        LPM_CLI_FIB_LONGOPTS,
        { 0, 0, 0, 0 },
    };
    memset(a, 0, sizeof *a);
    lpm_fib_opts_default(&a->fo);
    lpm_sim_cfg_default(&a->cfg);
    a->check = 1;
    a->count = 100000;
    a->seed = 1;
    a->burst = 1.0;
    a->clock_mhz = 200.0;
    a->kind = -1;
    *help_given = 0;
    int c, rc;
    while ((c = lpm_cli_getopt(cmd, argc, argv, "h", lo)) != -1) {
        int r = lpm_cli_fib_option(cmd, c, optarg, &a->fo);
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
    if (a->synth && (a->trace || a->gen || a->updates || a->verify || a->baseline)) {
        lpm_cli_error(cmd, "--synthetic takes no --trace, --gen, --updates, --verify or --walk-baseline");
        return 2;
    }
    if (a->image && !!a->trace + !!a->gen != 1) {
        lpm_cli_error(cmd, "with --image give exactly one of --trace and --gen");
        return 2;
    }
    if ((a->linear || a->have_reads) && !a->synth) {
        lpm_cli_error(cmd, "--linear and --reads go with --synthetic");
        return 2;
    }
    if ((a->urate > 0 || a->ignore_crc) && !a->updates) {
        lpm_cli_error(cmd, "%s needs --updates", a->ignore_crc ? "--ignore-image-crc" : "--update-rate");
        return 2;
    }
    if (a->gen && (a->kind = lpm_cli_trace_kind(cmd, "--gen", a->gen)) < 0)
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
    if (a->image && (a->gen || a->verify)) {
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
        lpm_sim_synth_src_init(&s->ss, a->synth, !a->linear, a->reads_lo, a->reads_hi, a->burst, a->count, a->seed);
        s->src = lpm_sim_synth_next;
        s->src_ctx = &s->ss;
        snprintf(s->source, sizeof s->source, "synthetic: %" PRIu64 " requests, %u-%u reads, seed %" PRIu64,
                 a->count, a->reads_lo, a->reads_hi, a->seed);
    } else if (a->trace) {
        rc = lpm_sim_file_src_open(&s->fs, a->trace, s->cc.family, &err);
        s->src = lpm_sim_file_next;
        s->src_ctx = &s->fs;
        snprintf(s->source, sizeof s->source, "trace %s", a->trace);
    } else {
        rc = lpm_sim_gen_src_init(&s->gs, &s->fib, a->kind, a->count, a->seed, &err);
        s->src = lpm_sim_gen_next;
        s->src_ctx = &s->gs;
        snprintf(s->source, sizeof s->source, "%s: %" PRIu64 " requests, seed %" PRIu64, a->gen, a->count, a->seed);
    }
    if (!rc && a->image && a->burst > 1.0) {
        rc = lpm_sim_burst_src_init(&s->bs, s->src, s->src_ctx, a->burst, a->seed, s->w.stages, lpm_sim_image_entry,
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

/* --walk-baseline: the image walked with K lookups in flight, no pipeline. */
static int walk_baseline(const sim_args *a, sim_state *s)
{
    lpm_err err;
    uint64_t n = 0, sum = 0;
    double t0 = now_s();
    int rc = lpm_sim_walk_baseline(s->img, a->baseline, s->src, s->src_ctx, &n, &sum, &err);
    double dt = now_s() - t0;
    if (rc) {
        lpm_cli_error(cmd, "%s", err.msg);
        return rc;
    }
    printf("{\"walk_baseline\":%u,\"lookups\":%" PRIu64 ",\"seconds\":%.4f,\"lookups_per_s\":%.0f,\"checksum\":%" PRIu64 "}\n",
           a->baseline, n, dt, dt > 0 ? (double)n / dt : 0.0, sum);
    return 0;
}

/* The simulator with its outputs and, with --updates, the hooks that keep
 * the before/after copies of the table the checks need. */
static int make_sim(sim_args *a, sim_state *s)
{
    lpm_err err;
    int rc = 0;
    check_ctx *cc = &s->cc;
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
        if (!cc->sh_enter || !cc->sh_exit) {
            lpm_cli_error(cmd, "out of memory");
            return 1;
        }
        cc->bf = &s->bf;
        lpm_sim_set_dit_hook(s->sim, dit_hook, cc);
        lpm_sim_set_bubble_hook(s->sim, bubble_hook, cc);
    }
    if (cc->ref) {
        lpm_cli_note(cmd, "--verify with --updates: the reference does not follow the bubbles; "
                           "answers are checked against the interpreter before and after each update");
        lpm_ref_free(cc->ref);
        cc->ref = NULL;
    }
    return 0;
}

/* Runs the simulation and prints the report; 1 on a mismatch. */
static int simulate(const sim_args *a, sim_state *s)
{
    lpm_err err;
    check_ctx *cc = &s->cc;
    double t0 = now_s();
    int rc = lpm_sim_run(s->sim, s->src, s->src_ctx, a->updates ? lpm_sim_bfile_next : NULL, &s->bf, sink, cc, &err);
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
    const lpm_sim_cfg *cfg = &a->cfg;
    if (cc->count != st->requests || cc->id_sum != (st->requests ? st->requests * (st->requests - 1) / 2 : 0) ||
        (cfg->rob && !cc->ordered)) {
        lpm_cli_error(cmd, "internal error: %" PRIu64 " results for %" PRIu64 " requests%s", cc->count, st->requests,
                      cfg->rob && !cc->ordered ? ", out of input order" : "");
        return 1;
    }
    if (st->requests && !st->win_cycles)
        lpm_cli_error(cmd, "warning: --warmup %" PRIu64 " leaves no steady-state window (the last dispatch was before it): "
                           "LPC and utilisation are 0", cfg->warmup);
    lpm_sim_report rep = { st, cfg, s->w.stages, s->w.ring, s->source, a->burst, a->urate, a->clock_mhz,
                           cc->synthetic || !a->check ? "none" : cc->sh_enter ? "interpreter before/after update" : "interpreter",
                           cc->checked, cc->mismatches, cc->ref_checked, cc->ref_mismatches };
    if (a->json)
        lpm_sim_report_json(stdout, &rep);
    else
        lpm_sim_report_table(stdout, &rep);
    if (a->timing)
        fprintf(stderr, "lpmpipe: sim: %" PRIu64 " lookups, %" PRIu64 " cycles in %.3f s: %.0f lookups/s, %.0f cycles/s\n",
                st->requests, st->cycles, dt, dt > 0 ? (double)st->requests / dt : 0.0,
                dt > 0 ? (double)st->cycles / dt : 0.0);
    if (cc->mismatches || cc->ref_mismatches) {
        lpm_cli_error(cmd, "%" PRIu64 " mismatch%s", cc->mismatches + cc->ref_mismatches,
                      cc->mismatches + cc->ref_mismatches == 1 ? "" : "es");
        return 1;
    }
    return 0;
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
