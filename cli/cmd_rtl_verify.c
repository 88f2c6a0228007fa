/* lpmpipe rtl verify: the generated Verilog against the simulator, cycle by
 * cycle. This file: the options (parse), then the run (cmd_rtl_verify_run.c), then
 * the report. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cmd.h"
#include "cmd_rtl_verify.h"

static const char *cmd = "rtl verify";

/* rtl verify's request options (as lpmpipe model's): no default kind, the
 * requests held in memory. */
static void req_init(lpm_cli_req *r)
{
    lpm_cli_req_init(r, -1, 10000, 100000000);
}

static void help(FILE *fp)
{
    fprintf(fp,
            "usage: lpmpipe rtl verify --image IMG (--trace F | --gen KIND [--count N] [--seed S])\n"
            "                          [--hop-cycles D] [--ports P] [--queue Q] [--issue-width W] [--rob 0]\n"
            "                          [--result-fifo F] [--dit-answers lane|queue]\n"
            "                          [--load L] [--result-ready F] [--updates U [--ignore-image-crc]\n"
            "                          [--update-rate R] [--clock-mhz F]] [--mutate M] [--vcd FILE]\n"
            "                          [--icarus] [--gate] [--timing] [--build-dir DIR] [--cache DIR]\n"
            "                          [--json]\n"
            "\n"
            "Builds the Verilated model of the generated pipeline, drives it with the\n"
            "stimulus lpmpipe sim gets, and compares every cycle: the cycle log and the\n"
            "result stream (id, next hop, exit and output cycles) must be identical, and\n"
            "every answer must equal the reference LPM. Prints 'N lookups, M cycles, K\n"
            "mismatches'.\n"
            "\n"
            "  --image IMG             pipeline image written by lpmpipe map (--gen: its table)\n");
    lpm_cli_req r;
    req_init(&r);
    r.help_width = 23;
    lpm_cli_req_help(fp, &r);
    fprintf(fp,
            "  --hop-cycles D --ports P --queue Q --issue-width W\n"
            "                          as lpmpipe sim (default 2, 1, 16, 1; D >= 2)\n"
            "  --result-fifo F         a linear pipeline under the credit rules (as sim)\n"
            "  --dit-answers A         lane (default) or queue (as sim; the RTL builds queue\n"
            "                          with --issue-width 1 at --hop-cycles 3 or more)\n"
            "  --load L                requests per cycle (as sim --load): request gaps, req_valid\n"
            "                          low while the pipeline is busy (default: a backlog)\n"
            "  --result-ready F        the result port is ready in a fraction F of the cycles\n"
            "                          (as sim --result-ready; default 1)\n"
            "  --updates U             bubble file (lpmpipe update --bubbles), checked\n"
            "                          against the image first\n"
            "  --ignore-image-crc      apply a bubble file made for another image\n"
            "  --update-rate R         updates per second (default: all at once)\n"
            "  --clock-mhz F           clock for the rate (default 200)\n"
            "  --mutate M              generate with a planted fault (queue-order,\n"
            "                          queue-capacity, bubble-address, swap-early): verify must\n"
            "                          then fail\n"
            "  --vcd FILE              waveform of the Verilated run (a separate build)\n"
            "  --icarus                also run the Icarus Verilog testbench, compare results\n"
            "  --gate                  also synthesise the iCE40 netlist (Yosys) and simulate\n"
            "                          it with Icarus against the cell models: its results\n"
            "                          must be the simulator's (small designs: seconds to minutes)\n"
            "  --timing                then time both again on the same stimulus: the\n"
            "                          simulator (sim --preload --timing --no-check) and the\n"
            "                          model without its cycle log, CPU time, median of 3 each\n"
            "  --build-dir DIR         work folder (default: a temporary one, removed)\n"
            "  --cache DIR             reuse Verilator builds of the same Verilog (default:\n"
            "                          $LPMPIPE_RTL_CACHE when set)\n"
            "  --json                  the summary as one JSON object\n");
}

/* -1: go on; else the exit status. */
static int parse_opts(int argc, char **argv, lpm_verify_opts *v)
{
    enum {
        O_IMAGE = LPM_OPT_FIRST_FREE, O_QUEUE, O_WIDTH, O_ROB, O_UPD, O_URATE,
        O_CLOCK, O_MUT, O_VCD, O_ICARUS, O_BDIR, O_CACHE, O_JSON, O_HOP, O_PORTS, O_LOAD, O_READY, O_GATE, O_ICRC, O_TIMING,
        O_FIFO, O_ANSQ
    };
    static const struct option lo[] = {
        { "image", required_argument, 0, O_IMAGE },      LPM_CLI_REQ_LONGOPTS,
        { "queue", required_argument, 0, O_QUEUE },
        { "issue-width", required_argument, 0, O_WIDTH }, { "rob", required_argument, 0, O_ROB },
        { "updates", required_argument, 0, O_UPD },      { "update-rate", required_argument, 0, O_URATE },
        { "clock-mhz", required_argument, 0, O_CLOCK },  { "mutate", required_argument, 0, O_MUT },
        { "vcd", required_argument, 0, O_VCD },          { "icarus", no_argument, 0, O_ICARUS },
        { "build-dir", required_argument, 0, O_BDIR },   { "cache", required_argument, 0, O_CACHE },
        { "json", no_argument, 0, O_JSON },              { "help", no_argument, 0, 'h' },
        { "hop-cycles", required_argument, 0, O_HOP },   { "ports", required_argument, 0, O_PORTS },
        { "load", required_argument, 0, O_LOAD },        { "result-ready", required_argument, 0, O_READY },
        { "gate", no_argument, 0, O_GATE },              { "ignore-image-crc", no_argument, 0, O_ICRC },
        { "timing", no_argument, 0, O_TIMING },          { "result-fifo", required_argument, 0, O_FIFO },
        { "dit-answers", required_argument, 0, O_ANSQ },
        { 0, 0, 0, 0 },
    };
    lpm_cli_req req;
    req_init(&req);
    int c, r;
    optind = 1;
    while ((c = lpm_cli_getopt(cmd, argc, argv, "h", lo)) != -1) {
        if ((r = lpm_cli_req_option(cmd, c, optarg, &req))) {
            if (r < 0)
                return 2;
            continue;
        }
        switch (c) {
        case O_IMAGE: v->image = optarg; break;
        case O_QUEUE: if (lpm_cli_uint(cmd, "--queue", optarg, 1, 4096, &v->o.queue)) return 2; break;
        case O_WIDTH: if (lpm_cli_uint(cmd, "--issue-width", optarg, 1, 16, &v->o.width)) return 2; break;
        case O_ROB: if (lpm_cli_uint(cmd, "--rob", optarg, 0, 65536, &v->o.rob)) return 2; break;
        case O_UPD: v->updates = optarg; break;
        case O_URATE: if (lpm_cli_double(cmd, "--update-rate", optarg, 0.0, 1e12, &v->urate)) return 2; break;
        case O_CLOCK: if (lpm_cli_double(cmd, "--clock-mhz", optarg, 1e-3, 1e6, &v->clock_mhz)) return 2; break;
        case O_MUT: if (lpm_rtl_parse_mutation(optarg, &v->o.mutate)) return 2; break;
        case O_VCD: v->vcd = optarg; break;
        case O_ICARUS: v->icarus = 1; break;
        case O_GATE: v->gate = 1; break;
        case O_TIMING: v->timing = 1; break;
        case O_ICRC: v->ignore_crc = 1; break;
        case O_BDIR: v->bdir = optarg; break;
        case O_CACHE: v->cache = optarg; break;
        case O_JSON: v->json = 1; break;
        case O_HOP: if (lpm_cli_uint(cmd, "--hop-cycles", optarg, 1, 16, &v->o.hop)) return 2; break;
        case O_PORTS: if (lpm_cli_uint(cmd, "--ports", optarg, 1, 2, &v->o.ports)) return 2; break;
        case O_FIFO: if (lpm_cli_uint(cmd, "--result-fifo", optarg, 4, 4096, &v->o.fifo)) return 2; break;
        case O_ANSQ: if (lpm_cli_dit_answers(cmd, optarg, &v->o.dit_queue)) return 2; break;
        case O_LOAD: if (lpm_cli_double(cmd, "--load", optarg, 1e-6, 64, &v->load)) return 2; break;
        case O_READY: if (lpm_cli_double(cmd, "--result-ready", optarg, 1e-3, 1, &v->ready)) return 2; break;
        case 'h': help(stdout); return 0;
        default: return lpm_cli_usage_error(cmd);
        }
    }
    if (optind < argc) {
        lpm_cli_error(cmd, "unexpected argument '%s'", argv[optind]);
        return 2;
    }
    v->trace = req.trace;
    v->gen = req.gen;
    v->count = req.count;
    v->seed = req.seed;
    if (!v->image || !!v->trace + !!v->gen != 1) {
        lpm_cli_error(cmd, "needs --image IMG and exactly one of --trace and --gen (see rtl verify --help)");
        return 2;
    }
    if ((v->urate > 0 || v->ignore_crc) && !v->updates) {
        lpm_cli_error(cmd, "%s needs --updates", v->ignore_crc ? "--ignore-image-crc" : "--update-rate");
        return 2;
    }
    if (v->updates && !strcmp(v->updates, "-")) {
        lpm_cli_error(cmd, "--updates: the simulator and the testbench both read the bubble file: give a file, not '-'");
        return 2;
    }
    if (lpm_cli_req_kind(cmd, &req))
        return 2;
    return -1;
}

/* --json: one object, "mismatches" last (scripts grep its end). */
static void report_json(const lpm_verify_opts *v, const lpm_verify_run *r, uint64_t total)
{
    const lpm_rtl_cmp *c = &r->cmp;
    const lpm_rtl_bubs *b = &r->bc;
    printf("{\"lookups\":%zu,\"cycles\":%" PRIu64 ",\"bubbles\":{\"in_file\":%" PRIu64 ",\"applied\":%" PRIu64
           ",\"left\":%" PRIu64 "},\"updates\":{\"in_file\":%" PRIu64 ",\"applied\":%" PRIu64 "},"
           "\"cycle_mismatches\":%" PRIu64 ",\"result_mismatches\":%" PRIu64 ",\"reference_checked\":%" PRIu64
           ",\"reference_mismatches\":%" PRIu64 ",",
           r->keys.n, c->cycles, b->in_file, b->applied, b->in_file - b->applied, b->updates_in_file, b->updates_applied,
           c->cycle_bad, c->result_bad, c->ref_checked, c->ref_bad);
    printf("\"simulator\":{\"against\":\"%s\",\"checked\":%" PRIu64 ",\"mismatches\":%" PRIu64 ",\"swaps\":%" PRIu64
           ",\"swaps_checked\":%" PRIu64 ",\"swap_crc_mismatches\":%" PRIu64 ",\"copy_violations\":%" PRIu64 "},",
           r->sim.against, r->sim.checked, r->sim.mismatches, r->sim.swaps, r->sim.swaps_checked,
           r->sim.swap_crc_mismatches, r->sim.copy_violations);
    if (r->timing.runs)
        printf("\"timing\":{\"runs\":%d,\"sim_cycles_per_s\":%.0f,\"rtl_cycles_per_s\":%.0f,\"ratio\":%.3f},",
               r->timing.runs, r->timing.sim_cps, r->timing.rtl_cps, r->timing.sim_cps / r->timing.rtl_cps);
    else
        printf("\"timing\":null,");
    printf("\"icarus\":%s,\"gate\":%s%s%s,\"mismatches\":%" PRIu64 "}\n",
           v->icarus ? (c->icarus_bad ? "\"differs\"" : "\"same\"") : "null", r->gate_note ? "\"" : "",
           r->gate_note ? r->gate_note : "null", r->gate_note ? "\"" : "", total);
}

static int report(const lpm_verify_opts *v, const lpm_verify_run *r)
{
    const lpm_rtl_cmp *c = &r->cmp;
    const lpm_rtl_bubs *b = &r->bc;
    uint64_t total = lpm_rtl_cmp_total(c);
    if (v->json)
        report_json(v, r, total);
    else
        printf("%zu lookups, %" PRIu64 " cycles, %" PRIu64 " mismatches\n", r->keys.n, c->cycles, total);
    if (r->timing.runs && !v->json)
        printf("timing: simulator %.0f cycles/s, Verilated model %.0f cycles/s (CPU time, median of %d): %.1f x\n",
               r->timing.sim_cps, r->timing.rtl_cps, r->timing.runs, r->timing.sim_cps / r->timing.rtl_cps);
    if (v->updates && !v->json)
        printf("updates: %" PRIu64 " of %" PRIu64 " simulated; bubbles: %" PRIu64 " applied, %" PRIu64
               " left of %" PRIu64 " in the file\n",
               b->updates_applied, b->updates_in_file, b->applied, b->in_file - b->applied, b->in_file);
    if (v->updates && b->in_file > b->applied)
        lpm_cli_note(cmd, "the lookups ended before the updates: %" PRIu64 " of %" PRIu64 " bubbles were not simulated",
                     b->in_file - b->applied, b->in_file);
    if (!total)
        return fflush(stdout) ? 1 : 0;
    if (c->first_cycle != UINT64_MAX)
        lpm_cli_error(cmd, "RTL and simulator differ, first at cycle %" PRIu64, c->first_cycle);
    else
        lpm_cli_error(cmd, "RTL and simulator differ");
    return 1;
}

int lpm_rtl_cmd_verify(int argc, char **argv)
{
    lpm_verify_opts v = { .clock_mhz = 200, .ready = 1,
                          .o = { .queue = 16, .width = 1, .hop = 2, .ports = 1 } };
    v.cache = getenv("LPMPIPE_RTL_CACHE");
    int rc = parse_opts(argc, argv, &v);
    if (rc >= 0)
        return rc;
    lpm_verify_run r;
    rc = lpm_verify_run_all(&v, &r);
    if (!rc && v.timing)
        rc = lpm_verify_timing(&v, &r);
    if (!rc)
        rc = report(&v, &r);
    lpm_verify_run_free(&r);
    return rc;
}
