/* What the lpmpipe model subcommands share (cli/cmd_model.h): the usage
 * text, the options, the requests in memory, the image and the bubble file
 * opened with their errors printed. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cmd_model.h"
#include "../rtl_gen/rtl_gen.h"
#include "../sim/sim_source.h"

/* model's request options: no default kind, the requests held in memory. */
static void req_init(lpm_cli_req *r)
{
    lpm_cli_req_init(r, -1, 10000, 100000000);
}

void lpm_model_req_help(FILE *fp)
{
    lpm_cli_req r;
    req_init(&r);
    lpm_cli_req_help(fp, &r);
}

void lpm_model_help(FILE *fp, const char *sub)
{
    fprintf(fp,
            "usage: lpmpipe model %s --image IMG (--trace F | --gen KIND [--count N] [--seed S])\n"
            "                  [--queue Q] [--issue-width W] [--rob R] [--hop-cycles D] [--ports P] [--result-fifo F]\n"
            "                  [--dit-answers lane|queue]\n"
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
    fprintf(fp, "  --image IMG         pipeline image written by lpmpipe map (--gen: its table)\n");
    lpm_model_req_help(fp);
    fprintf(fp,
            "  --queue Q --issue-width W --rob R   as lpmpipe sim (default 16, 1, 0)\n"
            "  --hop-cycles D --ports P   the cycle rules (default 2, 1)\n"
            "  --result-fifo F     a linear pipeline under the credit rules, F result credits (as sim)\n"
            "  --dit-answers A     lane (default) or queue: where DIT answers leave (as sim)\n"
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

enum {
    O_IMAGE = LPM_OPT_FIRST_FREE, O_QUEUE, O_WIDTH, O_ROB, O_HOP, O_PORTS, O_RFIFO, O_ANSQ,
    O_READY, O_UPD, O_ICRC, O_URATE, O_CLOCK, O_MUT, O_CLOG, O_RES, O_JSON, O_LOAD, O_ENGINE, O_RATE, O_FIFO,
    O_CTX, O_TTRACE, O_COSIM, O_CACHE, O_BDIR, O_RMUT
};

/* One option into *o; 0, or 2 after the message. */
static int model_option(const char *cmd, int c, const char *arg, lpm_model_opts *o)
{
    int verify = !strcmp(cmd, "model verify");
    lpm_err err;
    switch (c) {
    case O_IMAGE: o->image = arg; break;
    case O_QUEUE: if (lpm_cli_uint(cmd, "--queue", arg, 0, 65536, &o->mc.queue)) return 2; break;
    case O_WIDTH: if (lpm_cli_uint(cmd, "--issue-width", arg, 1, 64, &o->mc.width)) return 2; break;
    case O_ROB: if (lpm_cli_uint(cmd, "--rob", arg, 0, 1u << 20, &o->mc.rob)) return 2; break;
    case O_HOP: if (lpm_cli_uint(cmd, "--hop-cycles", arg, 1, 16, &o->mc.hop)) return 2; break;
    case O_PORTS: if (lpm_cli_uint(cmd, "--ports", arg, 1, 2, &o->mc.ports)) return 2; break;
    case O_RFIFO: if (lpm_cli_uint(cmd, "--result-fifo", arg, 4, 4096, &o->mc.result_fifo)) return 2; break;
    case O_ANSQ: return lpm_cli_dit_answers(cmd, arg, &o->mc.dit_queue);
    case O_READY: if (lpm_cli_double(cmd, "--result-ready", arg, 1e-6, 1.0, &o->mc.result_ready)) return 2; break;
    case O_UPD: o->updates = arg; break;
    case O_ICRC: o->ignore_crc = 1; break;
    case O_URATE: if (lpm_cli_double(cmd, "--update-rate", arg, 0.0, 1e12, &o->urate)) return 2; break;
    case O_CLOCK: if (lpm_cli_double(cmd, "--clock-mhz", arg, 1e-3, 1e6, &o->mc.clock_mhz)) return 2; break;
    case O_MUT:
        if (!verify || lpm_model_mutation_parse(arg, &o->mc.mutate, &err)) {
            lpm_cli_error(cmd, "%s", verify ? err.msg : "--mutate goes with model verify");
            return 2;
        }
        break;
    case O_CLOG: o->clog = arg; break;
    case O_RES: o->results = arg; break;
    case O_JSON: o->json = 1; break;
    case O_LOAD: if (lpm_cli_double(cmd, "--load", arg, 1e-9, 64.0, &o->mc.load)) return 2; break;
    case O_ENGINE:
        if (strcmp(arg, "cycle") && strcmp(arg, "fast")) {
            lpm_cli_error(cmd, "--engine: '%s' is not cycle or fast", arg);
            return 2;
        }
        o->fast = !strcmp(arg, "fast");
        break;
    case O_RATE:
        if (lpm_cli_double(cmd, "--rate-mpps", arg, 0.0, 1e6, &o->rate_mpps))
            return 2;
        o->rate_set = 1;
        break;
    case O_FIFO: if (lpm_cli_uint(cmd, "--fifo", arg, 1, 1u << 20, &o->fifo)) return 2; break;
    case O_CTX: if (lpm_cli_uint(cmd, "--contexts", arg, 1, 4096, &o->contexts)) return 2; break;
    case O_TTRACE: o->req.trace = arg; o->timed = 1; o->ntrace++; break;
    case O_COSIM: o->cosim = 1; break;
    case O_CACHE: o->cache = arg; break;
    case O_BDIR: o->bdir = arg; break;
    case O_RMUT:
        if ((o->rtl_mutate = lpm_rtl_mutation_of(arg)) <= 0) {
            lpm_cli_error(cmd, "--rtl-mutate: unknown fault '%s' (queue-order, queue-capacity, bubble-address)", arg);
            return 2;
        }
        break;
    default: return lpm_cli_usage_error(cmd);
    }
    return 0;
}

/* The options that go with one subcommand only; 0, or 2 after the message. */
static int model_option_sub(const char *cmd, int c)
{
    int verify = !strcmp(cmd, "model verify"), lc = !strcmp(cmd, "model linecard");
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
    return 0;
}

/* The options that go together, after the last one is read; 0, or 2
 * after the message. */
static int model_opts_check(const char *cmd, lpm_model_opts *o)
{
    int verify = !strcmp(cmd, "model verify");
    if (o->timed && (o->req.gen || o->rate_set || o->ntrace > 1)) {
        lpm_cli_error(cmd, "--timed-trace gives the packets and their times: not with --gen, --trace or --rate-mpps");
        return 2;
    }
    if (!o->image || !!o->req.trace + !!o->req.gen != 1) {
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
    if (lpm_cli_req_kind(cmd, &o->req))
        return 2;
    return 0;
}

int lpm_model_opts_parse(const char *cmd, int argc, char **argv, lpm_model_opts *o)
{
    static const struct option lo[] = {
        { "image", required_argument, 0, O_IMAGE },       LPM_CLI_REQ_LONGOPTS,
        { "queue", required_argument, 0, O_QUEUE },
        { "issue-width", required_argument, 0, O_WIDTH }, { "rob", required_argument, 0, O_ROB },
        { "hop-cycles", required_argument, 0, O_HOP },    { "ports", required_argument, 0, O_PORTS },
        { "result-fifo", required_argument, 0, O_RFIFO }, { "dit-answers", required_argument, 0, O_ANSQ },
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
    req_init(&o->req);
    o->rate_mpps = 148.8;
    o->fifo = 64;
    o->contexts = 64;
    int c, rc;
    optind = 1;
    while ((c = lpm_cli_getopt(cmd, argc, argv, "h", lo)) != -1) {
        if (c == 'h')
            return -1;
        if ((rc = lpm_cli_req_option(cmd, c, optarg, &o->req))) {
            if (rc < 0)
                return 2;
            o->ntrace += c == LPM_OPT_TRACE;
            continue;
        }
        if ((rc = model_option(cmd, c, optarg, o)) || (rc = model_option_sub(cmd, c)))
            return rc;
    }
    if (optind < argc) {
        lpm_cli_error(cmd, "unexpected argument '%s'", argv[optind]);
        return 2;
    }
    return model_opts_check(cmd, o);
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
    if (o->req.trace)
        rc = lpm_sim_file_src_open(&fs, o->req.trace, lpm_image_family(img), &err);
    else if (!(rc = lpm_cli_image_fib(img, &fib, &err))) {
        rc = lpm_sim_gen_src_init(&gs, &fib, o->req.kind, o->req.count, o->req.seed, &err);
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
        rc = lpm_err_set(&err, LPM_EINPUT, "%s: no requests", o->req.trace ? o->req.trace : "--gen");
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
