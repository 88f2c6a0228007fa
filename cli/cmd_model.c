/* lpmpipe model: the SystemC models (docs/models.md). `model run` runs the
 * cycle-accurate model and writes the cycle log and results file that
 * `lpmpipe sim` writes; `model verify` runs the C simulator and the model
 * on one stimulus and compares them cycle by cycle; `model linecard` is
 * the TLM-2.0 line-card example (cmd_model_linecard.c). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cmd.h"
#include "cmd_model.h"
#include "../core/ref_lpm.h"
#include "../rtl_gen/rtl_gen.h"
#include "../sim/sim_source.h"
#include "../sim/walk_image.h"

void lpm_model_help(FILE *fp, const char *sub)
{
    fprintf(fp,
            "usage: lpmpipe model %s --image IMG (--trace F | --gen KIND [--count N] [--seed S])\n"
            "                  [--queue Q] [--issue-width W] [--rob R] [--hop-cycles D] [--ports P]\n"
            "                  [--result-ready F] [--load L] [--updates BUBBLES [--ignore-image-crc]\n"
            "                  [--update-rate U] [--clock-mhz F]]%s\n"
            "\n",
            sub,
            !strcmp(sub, "verify") ? "\n                  [--cosim [--cache DIR] [--build-dir DIR] [--rtl-mutate FAULT]] [--mutate FAULT] [--json]" : " [--cycle-log F] [--results F] [--json]");
    if (!strcmp(sub, "verify"))
        fprintf(fp, "Runs the C simulator (lpmpipe sim) and the SystemC cycle-accurate model on the\n"
                    "same requests and bubbles and compares their cycle logs line by line and their\n"
                    "results (id, next hop, DIT, exit and output cycles); without --updates every\n"
                    "answer is also checked against the reference LPM. Prints 'N lookups, M cycles,\n"
                    "K mismatches', names the first differing cycle and exits 1 on any mismatch.\n"
                    "--cosim adds the Verilated RTL (lpmpipe rtl) stepped by the model's clock in\n"
                    "the same SystemC kernel: its cycle log is compared with the model's in every\n"
                    "cycle, its results with the model's and its answers with the reference.\n\n");
    else
        fprintf(fp, "Runs the SystemC cycle-accurate model (rules: docs/microarchitecture.md) and\n"
                    "writes the cycle log and results file lpmpipe sim writes (docs/cli-sim.md);\n"
                    "without --updates every answer is checked against the image interpreter.\n\n");
    fprintf(fp,
            "  --image IMG         pipeline image written by lpmpipe map\n"
            "  --trace F           addresses, one per line\n"
            "  --gen KIND          uniform, random-match, table, zipf (over the image's table)\n"
            "  --count N, --seed S for --gen (default 10000, 1)\n"
            "  --queue Q --issue-width W --rob R   as lpmpipe sim (default 16, 1, 0)\n"
            "  --hop-cycles D --ports P   the cycle rules (default 2, 1)\n"
            "  --result-ready F    D >= 2: fraction of cycles the result port is ready\n"
            "  --load L            offered requests per cycle (default: continuous backlog)\n"
            "  --updates BUBBLES   bubble file (lpmpipe update --bubbles), checked against the image\n"
            "  --ignore-image-crc  apply a bubble file made for another image\n"
            "  --update-rate U     updates per second (default: all at once)\n"
            "  --clock-mhz F       clock of the sc_clock and of the update rate (default 200)\n");
    if (!strcmp(sub, "verify"))
        fprintf(fp, "  --mutate FAULT      plant a fault in the model (dit-late, queue-capacity):\n"
                    "                      verify must then fail\n"
                    "  --cosim             co-simulate the Verilated RTL (needs verilator; D >= 2, --rob 0)\n"
                    "  --cache DIR         where Verilated builds are kept (default $LPMPIPE_RTL_CACHE)\n"
                    "  --build-dir DIR     keep the co-simulation's work folder there\n"
                    "  --rtl-mutate FAULT  plant a fault in the RTL (lpmpipe rtl --mutate: queue-order,\n"
                    "                      queue-capacity, bubble-address): the co-simulation must fail\n"
                    "  --json              the summary as one JSON object\n");
    else
        fprintf(fp, "  --cycle-log F       the per-cycle log (docs/microarchitecture.md section 7)\n"
                    "  --results F         CSV: id,addr,nh,dit_cycle,exit_cycle,out_cycle\n"
                    "  --json              the summary as one JSON object (with cycles/s)\n");
}

static void help(FILE *fp)
{
    fprintf(fp, "usage: lpmpipe model run ...       the cycle-accurate SystemC model\n"
                "       lpmpipe model verify ...    the model against the C simulator, cycle by cycle\n"
                "       lpmpipe model linecard ...  a TLM-2.0 line card around the lookup engine\n"
                "\n"
                "SystemC models of the pipeline (docs/models.md). lpmpipe model SUB --help\n"
                "describes each.%s\n",
                lpm_model_built() ? "" : "\nThis binary was built without SystemC: scripts/deps.sh installs libsystemc-dev.");
}

int lpm_model_opts_parse(const char *cmd, int argc, char **argv, lpm_model_opts *o)
{
    enum {
        O_IMAGE = LPM_OPT_FIRST_FREE, O_TRACE, O_GEN, O_COUNT, O_SEED, O_QUEUE, O_WIDTH, O_ROB, O_HOP, O_PORTS,
        O_READY, O_UPD, O_ICRC, O_URATE, O_CLOCK, O_MUT, O_CLOG, O_RES, O_JSON, O_LOAD, O_ENGINE, O_RATE, O_FIFO,
        O_CTX, O_TTRACE, O_COSIM, O_CACHE, O_BDIR, O_RMUT
    };
    static const struct option lo[] = {
        { "image", required_argument, 0, O_IMAGE },       { "trace", required_argument, 0, O_TRACE },
        { "gen", required_argument, 0, O_GEN },           { "count", required_argument, 0, O_COUNT },
        { "seed", required_argument, 0, O_SEED },         { "queue", required_argument, 0, O_QUEUE },
        { "issue-width", required_argument, 0, O_WIDTH }, { "rob", required_argument, 0, O_ROB },
        { "hop-cycles", required_argument, 0, O_HOP },    { "ports", required_argument, 0, O_PORTS },
        { "result-ready", required_argument, 0, O_READY }, { "updates", required_argument, 0, O_UPD },
        { "ignore-image-crc", no_argument, 0, O_ICRC },   { "update-rate", required_argument, 0, O_URATE },
        { "clock-mhz", required_argument, 0, O_CLOCK },   { "mutate", required_argument, 0, O_MUT },
        { "cycle-log", required_argument, 0, O_CLOG },    { "results", required_argument, 0, O_RES },
        { "json", no_argument, 0, O_JSON },               { "help", no_argument, 0, 'h' },
        { "load", required_argument, 0, O_LOAD },         { "engine", required_argument, 0, O_ENGINE },
        { "rate-mpps", required_argument, 0, O_RATE },    { "fifo", required_argument, 0, O_FIFO },
        { "contexts", required_argument, 0, O_CTX },      { "cosim", no_argument, 0, O_COSIM },
        { "cache", required_argument, 0, O_CACHE },       { "build-dir", required_argument, 0, O_BDIR },
        { "rtl-mutate", required_argument, 0, O_RMUT },   { "timed-trace", required_argument, 0, O_TTRACE },
        { 0, 0, 0, 0 },
    };
    memset(o, 0, sizeof *o);
    lpm_model_cfg_default(&o->mc);
    o->count = 10000;
    o->seed = 1;
    o->rate_mpps = 148.8;
    o->fifo = 64;
    o->contexts = 64;
    int c, verify = !strcmp(cmd, "model verify"), lc = !strcmp(cmd, "model linecard");
    lpm_err err;
    optind = 1;
    while ((c = lpm_cli_getopt(cmd, argc, argv, "h", lo)) != -1) {
        switch (c) {
        case O_IMAGE: o->image = optarg; break;
        case O_TRACE: o->trace = optarg; o->ntrace++; break;
        case O_GEN: o->gen = optarg; break;
        case O_COUNT: if (lpm_cli_u64(cmd, "--count", optarg, 1, 100000000, &o->count)) return 2; break;
        case O_SEED: if (lpm_cli_u64(cmd, "--seed", optarg, 0, UINT64_MAX, &o->seed)) return 2; break;
        case O_QUEUE: if (lpm_cli_uint(cmd, "--queue", optarg, 0, 65536, &o->mc.queue)) return 2; break;
        case O_WIDTH: if (lpm_cli_uint(cmd, "--issue-width", optarg, 1, 64, &o->mc.width)) return 2; break;
        case O_ROB: if (lpm_cli_uint(cmd, "--rob", optarg, 0, 1u << 20, &o->mc.rob)) return 2; break;
        case O_HOP: if (lpm_cli_uint(cmd, "--hop-cycles", optarg, 1, 16, &o->mc.hop)) return 2; break;
        case O_PORTS: if (lpm_cli_uint(cmd, "--ports", optarg, 1, 2, &o->mc.ports)) return 2; break;
        case O_READY: if (lpm_cli_double(cmd, "--result-ready", optarg, 1e-6, 1.0, &o->mc.result_ready)) return 2; break;
        case O_UPD: o->updates = optarg; break;
        case O_ICRC: o->ignore_crc = 1; break;
        case O_URATE: if (lpm_cli_double(cmd, "--update-rate", optarg, 0.0, 1e12, &o->urate)) return 2; break;
        case O_CLOCK: if (lpm_cli_double(cmd, "--clock-mhz", optarg, 1e-3, 1e6, &o->mc.clock_mhz)) return 2; break;
        case O_MUT:
            if (!verify || lpm_model_mutation_parse(optarg, &o->mc.mutate, &err)) {
                lpm_cli_error(cmd, "%s", verify ? err.msg : "--mutate goes with model verify");
                return 2;
            }
            break;
        case O_CLOG: o->clog = optarg; break;
        case O_RES: o->results = optarg; break;
        case O_JSON: o->json = 1; break;
        case O_LOAD: if (lpm_cli_double(cmd, "--load", optarg, 1e-9, 64.0, &o->mc.load)) return 2; break;
        case O_ENGINE:
            if (strcmp(optarg, "cycle") && strcmp(optarg, "fast")) {
                lpm_cli_error(cmd, "--engine: '%s' is not cycle or fast", optarg);
                return 2;
            }
            o->fast = !strcmp(optarg, "fast");
            break;
        case O_RATE:
            if (lpm_cli_double(cmd, "--rate-mpps", optarg, 0.0, 1e6, &o->rate_mpps))
                return 2;
            o->rate_set = 1;
            break;
        case O_FIFO: if (lpm_cli_uint(cmd, "--fifo", optarg, 1, 1u << 20, &o->fifo)) return 2; break;
        case O_CTX: if (lpm_cli_uint(cmd, "--contexts", optarg, 1, 4096, &o->contexts)) return 2; break;
        case O_TTRACE: o->trace = optarg; o->timed = 1; o->ntrace++; break;
        case O_COSIM: o->cosim = 1; break;
        case O_CACHE: o->cache = optarg; break;
        case O_BDIR: o->bdir = optarg; break;
        case O_RMUT:
            if ((o->rtl_mutate = lpm_rtl_mutation_of(optarg)) <= 0) {
                lpm_cli_error(cmd, "--rtl-mutate: unknown fault '%s' (queue-order, queue-capacity, bubble-address)", optarg);
                return 2;
            }
            break;
        case 'h': return -1;
        default: return lpm_cli_usage_error(cmd);
        }
        if (!verify && c >= O_COSIM) {
            lpm_cli_error(cmd, "--cosim, --cache, --build-dir and --rtl-mutate go with model verify");
            return 2;
        }
        if (!lc && c >= O_ENGINE && c <= O_TTRACE) {
            lpm_cli_error(cmd, "--engine, --rate-mpps, --fifo, --contexts and --timed-trace go with model linecard");
            return 2;
        }
        if (lc && (c == O_CLOG || c == O_RES || c == O_LOAD || c == O_READY)) {
            lpm_cli_error(cmd, "--cycle-log, --results, --load and --result-ready go with model run and verify");
            return 2;
        }
    }
    if (optind < argc) {
        lpm_cli_error(cmd, "unexpected argument '%s'", argv[optind]);
        return 2;
    }
    if (o->timed && (o->gen || o->rate_set || o->ntrace > 1)) {
        lpm_cli_error(cmd, "--timed-trace gives the packets and their times: not with --gen, --trace or --rate-mpps");
        return 2;
    }
    if (!o->image || !!o->trace + !!o->gen != 1) {
        lpm_cli_error(cmd, "needs --image IMG and exactly one of --trace and --gen (see %s --help)", cmd);
        return 2;
    }
    if ((o->urate > 0 || o->ignore_crc) && !o->updates) {
        lpm_cli_error(cmd, "%s needs --updates", o->ignore_crc ? "--ignore-image-crc" : "--update-rate");
        return 2;
    }
    if ((o->cache || o->bdir || o->rtl_mutate) && !o->cosim) {
        lpm_cli_error(cmd, "--cache, --build-dir and --rtl-mutate go with --cosim");
        return 2;
    }
    if (o->cosim && (o->mc.hop < 2 || o->mc.rob || o->mc.queue < 1)) {
        lpm_cli_error(cmd, "--cosim: the RTL implements --hop-cycles 2..16 with --queue 1.. and no reorder buffer "
                           "(--rob 0): see docs/cli-rtl.md");
        return 2;
    }
    if (!o->cache && o->cosim)
        o->cache = getenv("LPMPIPE_RTL_CACHE");
    if (verify && (o->clog || o->results)) {
        lpm_cli_error(cmd, "--cycle-log and --results go with model run (verify compares its own)");
        return 2;
    }
    if (verify && o->updates && !strcmp(o->updates, "-")) {
        lpm_cli_error(cmd, "--updates: the simulator and the model both read the bubble file: give a file, not '-'");
        return 2;
    }
    static const char *const kinds[] = { "uniform", "random-match", "table", "zipf" };
    static const int ids[] = { LPM_TRACE_UNIFORM, LPM_TRACE_RANDOM_MATCH, LPM_TRACE_TABLE, LPM_TRACE_ZIPF };
    o->kind = -1;
    for (int i = 0; o->gen && i < 4; i++)
        if (!strcmp(o->gen, kinds[i]))
            o->kind = ids[i];
    if (o->gen && o->kind < 0) {
        lpm_cli_error(cmd, "--gen: unknown kind '%s' (uniform, random-match, table, zipf)", o->gen);
        return 2;
    }
    return 0;
}

int lpm_model_keys_next(void *ctx, lpm_addr *key, lpm_err *err)
{
    lpm_model_keys *k = ctx;
    (void)err;
    if (k->pos == k->n)
        return 0;
    *key = k->a[k->pos++];
    return 1;
}

/* The requests, read once into memory so that every run gets the same. */
int lpm_model_keys_load(const char *cmd, const lpm_model_opts *o, const lpm_image *img, lpm_model_keys *k)
{
    lpm_err err;
    lpm_sim_file_src fs = { 0 };
    lpm_sim_gen_src gs = { 0 };
    lpm_fib fib;
    lpm_fib_init(&fib);
    lpm_sim_source_fn src = lpm_sim_file_next;
    void *ctx = &fs;
    int rc;
    if (o->trace)
        rc = lpm_sim_file_src_open(&fs, o->trace, lpm_image_family(img), &err);
    else if (!(rc = lpm_cli_image_fib(img, &fib, &err))) {
        rc = lpm_sim_gen_src_init(&gs, &fib, o->kind, o->count, o->seed, &err);
        src = lpm_sim_gen_next;
        ctx = &gs;
    }
    lpm_addr a;
    int got = 0;
    while (!rc && (got = src(ctx, &a, &err)) == 1) {
        lpm_addr *p = lpm_model_grow(k->a, &k->cap, k->n, sizeof *p);
        if (!p) {
            rc = lpm_err_set(&err, LPM_EFAIL, "out of memory");
            break;
        }
        k->a = p;
        k->a[k->n++] = a;
    }
    if (!rc && got < 0)
        rc = LPM_EINPUT;
    if (!rc && !k->n)
        rc = lpm_err_set(&err, LPM_EINPUT, "%s: no requests", o->trace ? o->trace : "--gen");
    if (rc)
        lpm_cli_error(cmd, "%s", err.msg);
    lpm_sim_file_src_close(&fs);
    lpm_sim_gen_src_free(&gs);
    lpm_fib_free(&fib);
    return rc;
}

int lpm_model_image_open(const char *cmd, const lpm_model_opts *o, lpm_image **img, lpm_image **check)
{
    lpm_err err;
    int rc = lpm_image_load(img, o->image, &err);
    if (!rc)
        rc = lpm_model_cfg_check(&o->mc, *img, &err);
    if (!rc && !o->updates && !(*check = lpm_image_clone(*img)))
        rc = lpm_err_set(&err, LPM_EFAIL, "out of memory");
    if (rc) {
        lpm_cli_error(cmd, "%s", err.msg);
        lpm_image_free(*img);
        *img = NULL;
    }
    return rc;
}

int lpm_model_bubbles_open(const char *cmd, const lpm_model_opts *o, const lpm_image *img, lpm_sim_bfile *bf)
{
    lpm_err err;
    double cpu = o->urate > 0 ? o->mc.clock_mhz * 1e6 / o->urate : 0.0;
    int rc = lpm_sim_bfile_open(bf, o->updates, img, cpu, o->ignore_crc, &err);
    if (rc)
        lpm_cli_error(cmd, "%s", err.msg);
    return rc;
}

void *lpm_model_grow(void *a, size_t *cap, size_t n, size_t size)
{
    if (n < *cap)
        return a;
    size_t c = *cap ? *cap * 2 : 1024;
    void *p = realloc(a, c * size);
    if (p)
        *cap = c;
    return p;
}

int lpm_model_results_grow(lpm_model_results *r, const lpm_sim_result *x)
{
    lpm_sim_result *p = lpm_model_grow(r->a, &r->cap, r->n, sizeof *p);
    if (!p)
        return LPM_EFAIL;
    r->a = p;
    r->a[r->n++] = *x;
    return LPM_OK;
}

/* model run's sink: the results file line lpmpipe sim writes, and the
 * answer against the image interpreter. */
typedef struct run_sink {
    FILE *fp;
    const lpm_image *check;   /* NULL: not checked (bubbles change the answers) */
    const lpm_image *img;
    uint64_t checked, bad;
} run_sink;

static int run_emit(void *ctx, const lpm_sim_result *r, lpm_err *err)
{
    run_sink *s = ctx;
    (void)err;
    if (s->check) {
        s->checked++;
        uint32_t want = lpm_image_lookup(s->check, &r->key);
        if (want != r->nh && s->bad++ < 3)
            fprintf(stderr, "lpmpipe: model run: request %" PRIu64 ": the model says %" PRIu32 ", the interpreter %" PRIu32 "\n",
                    r->id, r->nh, want);
    }
    if (s->fp) {
        char a[LPM_ADDR_STRLEN], nh[32];
        lpm_addr_format(&r->key, lpm_image_family(s->img), a, sizeof a);
        const lpm_nhtab *t = lpm_image_nhtab(s->img);
        if (r->nh == LPM_NH_NONE)
            snprintf(nh, sizeof nh, "-");
        else if (r->nh < t->n)
            snprintf(nh, sizeof nh, "%s", lpm_nhtab_name(t, r->nh));
        else
            snprintf(nh, sizeof nh, "#%" PRIu32, r->nh);
        fprintf(s->fp, "%" PRIu64 ",%s,%s,%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n", r->id, a, nh, r->dit_cycle, r->exit_cycle,
                r->out_cycle);
    }
    return 0;
}

static int cmd_run(int argc, char **argv)
{
    const char *cmd = "model run";
    lpm_model_opts o;
    int rc = lpm_model_opts_parse(cmd, argc, argv, &o);
    if (rc < 0)
        lpm_model_help(stdout, "run");
    if (rc)
        return rc < 0 ? 0 : rc;
    lpm_err err;
    lpm_image *img = NULL, *check = NULL;
    lpm_model_keys k = { 0 };
    lpm_sim_bfile bf = { 0 };
    run_sink rs = { 0 };
    FILE *clog = NULL;
    if ((rc = lpm_model_image_open(cmd, &o, &img, &check)))
        return rc;
    if ((rc = lpm_model_keys_load(cmd, &o, img, &k)) || (o.updates && (rc = lpm_model_bubbles_open(cmd, &o, img, &bf))))
        goto out;
    if ((o.clog && !(clog = lpm_cli_open_out(cmd, o.clog, &rc))) ||
        (o.results && !(rs.fp = lpm_cli_open_out(cmd, o.results, &rc))))
        goto out;
    if (rs.fp)
        fprintf(rs.fp, "id,addr,nh,dit_cycle,exit_cycle,out_cycle\n");
    rs.check = check;
    rs.img = img;
    o.mc.cycle_log = clog;
    lpm_model_io io = { lpm_model_keys_next, &k, o.updates ? lpm_sim_bfile_next : NULL, &bf, run_emit, &rs };
    lpm_model_stats st;
    if ((rc = lpm_model_run(img, &o.mc, &io, &st, &err))) {
        lpm_cli_error(cmd, "%s", err.msg);
        goto out;
    }
    double cps = st.seconds > 0 ? (double)st.cycles / st.seconds : 0.0;
    if (o.json)
        printf("{\"model\":\"systemc-cycle\",\"lookups\":%" PRIu64 ",\"cycles\":%" PRIu64 ",\"bubbles\":%" PRIu64
               ",\"lpc\":%.4f,\"seconds\":%.4f,\"cycles_per_s\":%.0f,\"checked\":%" PRIu64 ",\"mismatches\":%" PRIu64 "}\n",
               st.lookups, st.cycles, st.bubbles, st.cycles ? (double)st.lookups / (double)st.cycles : 0.0, st.seconds, cps,
               rs.checked, rs.bad);
    else
        printf("%" PRIu64 " lookups, %" PRIu64 " cycles, %" PRIu64 " bubbles; %.3f s CPU, %.0f cycles/s; %" PRIu64
               " answers checked, %" PRIu64 " mismatches\n",
               st.lookups, st.cycles, st.bubbles, st.seconds, cps, rs.checked, rs.bad);
    if (st.lookups != k.n) {
        lpm_cli_error(cmd, "internal error: %" PRIu64 " results for %zu requests", st.lookups, k.n);
        rc = 1;
    } else if (rs.bad) {
        rc = 1;
    }
out:
    if (clog && lpm_cli_close_out(cmd, clog, o.clog) && !rc)
        rc = 1;
    if (rs.fp && lpm_cli_close_out(cmd, rs.fp, o.results) && !rc)
        rc = 1;
    lpm_sim_bfile_close(&bf);
    free(k.a);
    lpm_image_free(check);
    lpm_image_free(img);
    return rc;
}

int lpm_cmd_model(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        help(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    int (*fn)(int, char **) = NULL;
    if (!strcmp(argv[1], "run"))
        fn = cmd_run;
    else if (!strcmp(argv[1], "verify"))
        fn = lpm_cmd_model_verify;
    else if (!strcmp(argv[1], "linecard"))
        fn = lpm_cmd_model_linecard;
    if (!fn) {
        lpm_cli_error("model", "unknown subcommand '%s' (run, verify, linecard)", argv[1]);
        return 2;
    }
    if (!lpm_model_built()) {
        for (int i = 2; i < argc; i++)
            if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
                return fn(argc - 1, argv + 1);
        lpm_cli_error("model", "this binary was built without SystemC (scripts/deps.sh installs libsystemc-dev)");
        return 3;
    }
    return fn(argc - 1, argv + 1);
}
