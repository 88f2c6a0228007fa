/* lpmpipe sim: options, the checking sink, and the report. */
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
    /* rebuilds: the live copy's CRC at each swap against its R line */
    uint64_t crc_bad, crc_checked;
    uint64_t crc_update;
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
/* A rebuild's bubbles go one by one: their writes land in the inactive
 * copy, which neither table's lookups read, until the swap makes it live
 * (in "after" as it enters, in "before" as it leaves). */
static void rebuild_bubble(check_ctx *c, const lpm_sim_bubble *b, int leaving)
{
    lpm_image *t = leaving ? c->sh_exit : c->sh_enter;
    for (unsigned j = 0; j < b->nw; j++)
        lpm_image_write(t, b->w[j].stage, b->w[j].addr, b->w[j].word);
    if (!(b->flags & LPM_SIM_B_SWAP))
        return;
    lpm_image_swap(t, b->copy);
    if (!leaving && b->copy_crc) {
        c->crc_checked++;
        if (lpm_image_copy_crc(c->img, b->copy) != b->copy_crc && !c->crc_bad++)
            c->crc_update = b->update;
    }
}

static void bubble_hook(void *ctx, const lpm_sim_bubble *b, int leaving)
{
    check_ctx *c = ctx;
    if (b->flags & (LPM_SIM_B_SHADOW | LPM_SIM_B_SWAP)) {
        rebuild_bubble(c, b, leaving);
        return;
    }
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
int lpm_sim_walk_unibit(const lpm_fib *f, unsigned k, lpm_sim_source_fn src, void *src_ctx, uint64_t *lookups,
                        uint64_t *checksum, lpm_err *err);

int lpm_cmd_sim(int argc, char **argv)
{
    enum {
        O_IMAGE = LPM_OPT_FIRST_FREE, O_SYNTH, O_LINEAR, O_READS, O_TRACE, O_GEN, O_COUNT, O_SEED, O_FIB,
        O_QUEUE, O_WIDTH, O_BURST, O_ROB, O_LOAD, O_UPDATES, O_IGNORE_CRC, O_URATE, O_CLOCK, O_WARMUP, O_NOCHECK,
        O_VERIFY, O_JSON, O_RESULTS, O_CLOG, O_TIMING, O_BASELINE, O_PRELOAD, O_LOOKAHEAD, O_HOP, O_PORTS, O_READY,
        O_DRAIN, O_FAULT
    };
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
        { "drain-updates", no_argument, 0, O_DRAIN },
        { "plant-fault", required_argument, 0, O_FAULT },
        { "help", no_argument, 0, 'h' },
        LPM_CLI_FIB_LONGOPTS,
        { 0, 0, 0, 0 },
    };
    lpm_fib_opts fo;
    lpm_fib_opts_default(&fo);
    lpm_sim_cfg cfg;
    lpm_sim_cfg_default(&cfg);
    const char *image = NULL, *trace = NULL, *gen = NULL, *fib_path = NULL, *updates = NULL;
    const char *results = NULL, *clog = NULL;
    unsigned synth = 0, reads_lo = 0, reads_hi = 0, baseline = 0, unibit = 0;
    int linear = 0, have_reads = 0, check = 1, verify = 0, json = 0, timing = 0, pre = 0, ignore_crc = 0, c;
    uint64_t count = 100000, seed = 1;
    double burst = 1.0, urate = 0.0, clock_mhz = 200.0;
    while ((c = lpm_cli_getopt(cmd, argc, argv, "h", lo)) != -1) {
        int r = lpm_cli_fib_option(cmd, c, optarg, &fo);
        if (r < 0)
            return 2;
        if (r > 0)
            continue;
        switch (c) {
        case O_IMAGE: image = optarg; break;
        case O_SYNTH: if (lpm_cli_uint(cmd, "--synthetic", optarg, 1, LPM_SIM_MAX_STAGES, &synth)) return 2; break;
        case O_LINEAR: linear = 1; break;
        case O_READS: if (parse_reads(optarg, &reads_lo, &reads_hi)) return 2; have_reads = 1; break;
        case O_TRACE: trace = optarg; break;
        case O_GEN: gen = optarg; break;
        case O_COUNT: if (lpm_cli_u64(cmd, "--count", optarg, 1, UINT64_MAX / 2, &count)) return 2; break;
        case O_SEED: if (lpm_cli_u64(cmd, "--seed", optarg, 0, UINT64_MAX, &seed)) return 2; break;
        case O_FIB: fib_path = optarg; break;
        case O_QUEUE: if (lpm_cli_uint(cmd, "--queue", optarg, 0, 65536, &cfg.queue)) return 2; break;
        case O_WIDTH: if (lpm_cli_uint(cmd, "--issue-width", optarg, 1, 64, &cfg.width)) return 2; break;
        case O_BURST: if (lpm_cli_double(cmd, "--burst", optarg, 1.0, 1e9, &burst)) return 2; break;
        case O_ROB: if (lpm_cli_uint(cmd, "--rob", optarg, 0, 1u << 20, &cfg.rob)) return 2; break;
        case O_LOAD: if (lpm_cli_double(cmd, "--load", optarg, 1e-9, 64.0, &cfg.load)) return 2; break;
        case O_UPDATES: updates = optarg; break;
        case O_IGNORE_CRC: ignore_crc = 1; break;
        case O_URATE: if (lpm_cli_double(cmd, "--update-rate", optarg, 0.0, 1e12, &urate)) return 2; break;
        case O_CLOCK: if (lpm_cli_double(cmd, "--clock-mhz", optarg, 1e-3, 1e6, &clock_mhz)) return 2; break;
        case O_WARMUP: if (lpm_cli_u64(cmd, "--warmup", optarg, 0, UINT64_MAX / 2, &cfg.warmup)) return 2; break;
        case O_NOCHECK: check = 0; break;
        case O_DRAIN: cfg.drain_updates = 1; break;
        case O_FAULT:
            if (!strncmp(optarg, "swap-early", 10) && (!optarg[10] || optarg[10] == '=')) {
                cfg.fault = LPM_SIM_FAULT_SWAP_EARLY;
                if (optarg[10] && lpm_cli_uint(cmd, "--plant-fault swap-early=", optarg + 11, 1, 256, &cfg.fault_cycles))
                    return 2;
            } else if (!strcmp(optarg, "no-fence"))
                cfg.fault = LPM_SIM_FAULT_NO_FENCE;
            else {
                lpm_cli_error(cmd, "--plant-fault: '%s' is neither swap-early nor no-fence", optarg);
                return 2;
            }
            break;
        case O_VERIFY: verify = 1; break;
        case O_JSON: json = 1; break;
        case O_RESULTS: results = optarg; break;
        case O_CLOG: clog = optarg; break;
        case O_TIMING: timing = 1; break;
        case O_PRELOAD: pre = 1; break;
        case O_HOP: if (lpm_cli_uint(cmd, "--hop-cycles", optarg, 1, 16, &cfg.hop)) return 2; break;
        case O_PORTS: if (lpm_cli_uint(cmd, "--ports", optarg, 1, 2, &cfg.ports)) return 2; break;
        case O_READY: if (lpm_cli_double(cmd, "--result-ready", optarg, 1e-6, 1.0, &cfg.result_ready)) return 2; break;
        case O_LOOKAHEAD: if (lpm_cli_uint(cmd, "--lookahead", optarg, 0, 4096, &cfg.lookahead)) return 2; break;
        case O_BASELINE:
            if ((unibit = !strcmp(optarg, "unibit")))
                baseline = 24; /* issue 11's limit: 24 lookups in flight */
            else if (lpm_cli_uint(cmd, "--walk-baseline", optarg, 1, 4096, &baseline))
                return 2;
            break;
        case 'h': help(stdout); return 0;
        default: return lpm_cli_usage_error(cmd);
        }
    }
    if (optind < argc) {
        lpm_cli_error(cmd, "unexpected argument '%s'", argv[optind]);
        return 2;
    }
    if (!!image + !!synth != 1) {
        lpm_cli_error(cmd, "give exactly one of --image and --synthetic");
        return 2;
    }
    if (synth && (trace || gen || updates || verify || baseline)) {
        lpm_cli_error(cmd, "--synthetic takes no --trace, --gen, --updates, --verify or --walk-baseline");
        return 2;
    }
    if (image && !!trace + !!gen != 1) {
        lpm_cli_error(cmd, "with --image give exactly one of --trace and --gen");
        return 2;
    }
    if ((linear || have_reads) && !synth) {
        lpm_cli_error(cmd, "--linear and --reads go with --synthetic");
        return 2;
    }
    if ((urate > 0 || ignore_crc || cfg.drain_updates) && !updates) {
        lpm_cli_error(cmd, "%s needs --updates",
                      ignore_crc ? "--ignore-image-crc" : urate > 0 ? "--update-rate" : "--drain-updates");
        return 2;
    }
    int kind = -1;
    if (gen && (kind = lpm_cli_trace_kind(cmd, "--gen", gen)) < 0)
        return 2;

    lpm_err err;
    int rc = 0;
    lpm_image *img = NULL;
    lpm_fib fib;
    lpm_fib_init(&fib);
    int have_fib = 0;
    lpm_sim_walker w;
    lpm_sim_synth sy;
    lpm_sim_synth_src ss;
    lpm_sim_file_src fs = { 0 };
    lpm_sim_gen_src gs = { 0 };
    lpm_sim_burst_src bs = { 0 };
    int have_bs = 0;
    lpm_sim_bfile bf = { 0 };
    mem_src ms = { 0 }; /* before the first goto out, which frees it */
    check_ctx cc = { 0 };
    cc.ordered = 1;
    lpm_sim *sim = NULL;
    FILE *clog_fp = NULL;
    char source[256];
    lpm_sim_source_fn src;
    void *src_ctx;

    if (image) {
        if ((rc = lpm_image_load(&img, image, &err))) {
            lpm_cli_error(cmd, "%s", err.msg);
            return rc;
        }
        lpm_sim_image_walker(img, &w);
        cc.family = lpm_image_family(img);
        cc.nh = lpm_image_nhtab(img);
        /* The whole bubble file is checked against the image before anything runs. */
        if (updates) {
            double cpu = urate > 0 ? clock_mhz * 1e6 / urate : 0.0;
            if ((rc = lpm_sim_bfile_open(&bf, updates, img, cpu, ignore_crc, &err))) {
                lpm_cli_error(cmd, "%s", err.msg);
                goto out;
            }
            if (bf.crc_differs)
                lpm_cli_note(cmd, "%s was made for another image (its CRC differs); applied as --ignore-image-crc asks",
                              updates);
        }
    } else {
        lpm_sim_synth_init(&sy, synth, !linear, &w);
        if (!have_reads)
            reads_lo = reads_hi = synth;
        cc.synthetic = 1;
    }
    /* The table: for the generators and the reference check. */
    if (image && ((gen && kind != LPM_TRACE_UNIFORM) || verify || gen || unibit)) {
        if (fib_path) {
            if ((rc = lpm_cli_load_fib(cmd, fib_path, &fo, &fib)))
                goto out;
            if (fib.family != cc.family) {
                lpm_cli_error(cmd, "--fib is IPv%d, the image IPv%d", fib.family, cc.family);
                rc = 2;
                goto out;
            }
        } else if ((rc = lpm_cli_image_fib(img, &fib, &err))) {
            lpm_cli_error(cmd, "%s", err.msg);
            goto out;
        }
        have_fib = 1;
    }
    if (verify && (rc = lpm_ref_build(&cc.ref, &fib, &err))) {
        lpm_cli_error(cmd, "%s", err.msg);
        goto out;
    }
    if (synth) {
        lpm_sim_synth_src_init(&ss, synth, !linear, reads_lo, reads_hi, burst, count, seed);
        src = lpm_sim_synth_next;
        src_ctx = &ss;
        snprintf(source, sizeof source, "synthetic: %" PRIu64 " requests, %u-%u reads, seed %" PRIu64, count,
                 reads_lo, reads_hi, seed);
    } else if (trace) {
        if ((rc = lpm_sim_file_src_open(&fs, trace, cc.family, &err))) {
            lpm_cli_error(cmd, "%s", err.msg);
            goto out;
        }
        src = lpm_sim_file_next;
        src_ctx = &fs;
        snprintf(source, sizeof source, "trace %s", trace);
    } else {
        if ((rc = lpm_sim_gen_src_init(&gs, &fib, kind, count, seed, &err))) {
            lpm_cli_error(cmd, "%s", err.msg);
            goto out;
        }
        src = lpm_sim_gen_next;
        src_ctx = &gs;
        snprintf(source, sizeof source, "%s: %" PRIu64 " requests, seed %" PRIu64, gen, count, seed);
    }
    if (image && burst > 1.0) {
        if ((rc = lpm_sim_burst_src_init(&bs, src, src_ctx, burst, seed, w.stages, lpm_sim_image_entry, img, &err))) {
            lpm_cli_error(cmd, "%s", err.msg);
            goto out;
        }
        have_bs = 1;
        src = lpm_sim_burst_next;
        src_ctx = &bs;
        size_t l = strlen(source);
        snprintf(source + l, sizeof source - l, ", bursts of one entry stage (mean %g)", burst);
    }

    if (pre) {
        if ((rc = preload(&ms, src, src_ctx, &err))) {
            lpm_cli_error(cmd, "%s", err.msg);
            goto out;
        }
        src = mem_next;
        src_ctx = &ms;
    }
    if (baseline) {
        uint64_t n = 0, sum = 0;
        double t0 = now_s();
        rc = unibit ? lpm_sim_walk_unibit(&fib, baseline, src, src_ctx, &n, &sum, &err)
                    : lpm_sim_walk_baseline(img, baseline, src, src_ctx, &n, &sum, &err);
        double dt = now_s() - t0;
        if (rc) {
            lpm_cli_error(cmd, "%s", err.msg);
            goto out;
        }
        printf("{\"walk_baseline\":\"%s\",\"in_flight\":%u,\"lookups\":%" PRIu64 ",\"seconds\":%.4f,\"lookups_per_s\":%.0f,\"checksum\":%" PRIu64 "}\n",
               unibit ? "unibit" : "image", baseline, n, dt, dt > 0 ? (double)n / dt : 0.0, sum);
        goto out;
    }

    if (clog && !(clog_fp = lpm_cli_open_out(cmd, clog, &rc)))
        goto out;
    if (results && !(cc.results = lpm_cli_open_out(cmd, results, &rc)))
        goto out;
    if (cc.results)
        fprintf(cc.results, "id,addr,nh,dit_cycle,exit_cycle,out_cycle\n");
    cfg.cycle_log = clog_fp;
    if ((rc = lpm_sim_new(&sim, &w, &cfg, &err))) {
        lpm_cli_error(cmd, "%s", err.msg);
        goto out;
    }
    cc.img = img;
    cc.check = check;
    lpm_sim_bubble_fn bsrc = NULL;
    if (updates) {
        bsrc = lpm_sim_bfile_next;
        if (check) {
            cc.sh_enter = lpm_image_clone(img);
            cc.sh_exit = lpm_image_clone(img);
            if (!cc.sh_enter || !cc.sh_exit) {
                lpm_cli_error(cmd, "out of memory");
                rc = 1;
                goto out;
            }
            cc.bf = &bf;
            lpm_sim_set_dit_hook(sim, dit_hook, &cc);
            lpm_sim_set_bubble_hook(sim, bubble_hook, &cc);
        }
        if (cc.ref) {
            lpm_cli_note(cmd, "--verify with --updates: the reference does not follow the bubbles; "
                               "answers are checked against the interpreter before and after each update");
            lpm_ref_free(cc.ref);
            cc.ref = NULL;
        }
    }
    double t0 = now_s();
    rc = lpm_sim_run(sim, src, src_ctx, bsrc, &bf, sink, &cc, &err);
    double dt = now_s() - t0;
    if (rc) {
        lpm_cli_error(cmd, "%s", err.msg);
        goto out;
    }
    if (cc.oom) {
        lpm_cli_error(cmd, "out of memory");
        rc = 1;
        goto out;
    }
    const lpm_sim_stats *st = lpm_sim_get_stats(sim);
    if (updates && (rc = lpm_sim_bfile_finish(&bf, st->bubbles_entered, &err))) {
        lpm_cli_error(cmd, "%s", err.msg);
        goto out;
    }
    if (cc.count != st->requests || cc.id_sum != (st->requests ? st->requests * (st->requests - 1) / 2 : 0) ||
        (cfg.rob && !cc.ordered)) {
        lpm_cli_error(cmd, "internal error: %" PRIu64 " results for %" PRIu64 " requests%s", cc.count, st->requests,
                      cfg.rob && !cc.ordered ? ", out of input order" : "");
        rc = 1;
        goto out;
    }
    if (st->requests && !st->win_cycles)
        lpm_cli_error(cmd, "warning: --warmup %" PRIu64 " leaves no steady-state window (the last dispatch was before it): "
                           "LPC and utilisation are 0", cfg.warmup);
    lpm_sim_report rep = { st, &cfg, w.stages, w.ring, source, burst, urate, clock_mhz,
                           cc.synthetic || !check ? "none" : cc.sh_enter ? "interpreter before/after update" : "interpreter",
                           cc.checked, cc.mismatches, cc.ref_checked, cc.ref_mismatches,
                           updates != NULL, bf.in_file_bubbles, bf.in_file_updates, bf.updates_applied,
                           bf.in_file_rebuilds, st->swaps, cc.crc_checked, cc.crc_bad };
    if (json)
        lpm_sim_report_json(stdout, &rep);
    else
        lpm_sim_report_table(stdout, &rep);
    if (updates && bf.in_file_bubbles > st->bubbles)
        lpm_cli_note(cmd, "the lookups ended before the updates: %" PRIu64 " of %" PRIu64 " bubbles (%" PRIu64 " of %" PRIu64
                          " updates) were not simulated; --drain-updates runs on until all are applied",
                     bf.in_file_bubbles - st->bubbles, bf.in_file_bubbles, bf.in_file_updates - bf.updates_applied,
                     bf.in_file_updates);
    if (timing)
        fprintf(stderr, "lpmpipe: sim: %" PRIu64 " lookups, %" PRIu64 " cycles in %.3f s: %.0f lookups/s, %.0f cycles/s\n",
                st->requests, st->cycles, dt, dt > 0 ? (double)st->requests / dt : 0.0,
                dt > 0 ? (double)st->cycles / dt : 0.0);
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
    if (cc.crc_bad) {
        lpm_cli_error(cmd, "%" PRIu64 " swap%s found the new copy different from what its R line says (first: update %" PRIu64 ")",
                      cc.crc_bad, cc.crc_bad == 1 ? "" : "s", cc.crc_update);
        rc = 1;
    }
    if (cc.mismatches || cc.ref_mismatches) {
        lpm_cli_error(cmd, "%" PRIu64 " mismatch%s", cc.mismatches + cc.ref_mismatches,
                      cc.mismatches + cc.ref_mismatches == 1 ? "" : "es");
        rc = 1;
    }
out:
    if (clog_fp && lpm_cli_close_out(cmd, clog_fp, clog) && !rc)
        rc = 1;
    if (cc.results && lpm_cli_close_out(cmd, cc.results, results) && !rc)
        rc = 1;
    if (fflush(stdout) && !rc)
        rc = 1;
    free(ms.a);
    free(cc.fw);
    free(cc.fu_end);
    lpm_sim_free(sim);
    lpm_sim_bfile_close(&bf);
    lpm_sim_file_src_close(&fs);
    lpm_sim_gen_src_free(&gs);
    if (have_bs) {
        if (!rc && bs.dropped)
            fprintf(stderr, "lpmpipe: sim: --burst: %" PRIu64 " addresses dropped (their entry stage's pool was full)\n", bs.dropped);
        lpm_sim_burst_src_free(&bs);
    }
    lpm_ref_free(cc.ref);
    lpm_image_free(cc.sh_enter);
    lpm_image_free(cc.sh_exit);
    lpm_image_free(img);
    if (have_fib || 1)
        lpm_fib_free(&fib);
    return rc;
}
