/* lpmpipe rtl: generate (this file), verify (cmd_rtl_verify.c), synth
 * (cmd_rtl_synth.c). */
#include <string.h>

#include "cli.h"
#include "cmd.h"
#include "../rtl_gen/rtl_gen.h"

static const char *cmd = "rtl";

static void help(FILE *fp)
{
    fprintf(fp,
            "usage: lpmpipe rtl --image IMG -o DIR [--hop-cycles D] [--ports P] [--queue Q] [--issue-width W]\n"
            "                   [--rob 0] [--result-fifo F] [--dit-answers lane|queue] [--mutate M]\n"
            "       lpmpipe rtl verify --image IMG (--trace F | --gen KIND [--count N] [--seed S]) ...\n"
            "                   (lpmpipe rtl verify --help)\n"
            "       lpmpipe rtl synth DIR [--json]\n"
            "\n"
            "Generates the Verilog of the pipeline an image describes, proves it equal to\n"
            "the simulator cycle by cycle (Verilator), and estimates its cost (Yosys).\n"
            "Details: docs/cli-rtl.md.\n"
            "\n"
            "  --image IMG         pipeline image (lpmpipe map)\n"
            "  -o DIR              folder to write (created when missing)\n"
            "  --hop-cycles D      clocks per hop, 2..16 (default 2): the hardware cycle rules\n"
            "  --ports P           items each stage serves per cycle, 1 or 2 (default 1)\n"
            "  --queue Q           per-stage queue depth, 1..4096 (default 16)\n"
            "  --issue-width W     requests dispatched per cycle, 1..16 (default 1; linear: at most P)\n"
            "  --rob R             reorder buffer: only 0 (results leave through result lanes)\n"
            "  --result-fifo F     a linear pipeline under the credit rules (sim --result-fifo):\n"
            "                      no window or queues, results in input order, F credits\n"
            "  --dit-answers A     lane (default) or queue: where DIT answers leave (sim\n"
            "                      --dit-answers; queue: --issue-width 1, --hop-cycles 3+)\n"
            "  --mutate M          plant a known fault (queue-order, queue-capacity,\n"
            "                      bubble-address, swap-early): rtl verify must then fail\n");
}

int lpm_cmd_rtl(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "verify"))
        return lpm_rtl_cmd_verify(argc - 1, argv + 1);
    if (argc > 1 && !strcmp(argv[1], "synth"))
        return lpm_rtl_cmd_synth(argc - 1, argv + 1);
    enum { O_IMAGE = LPM_OPT_FIRST_FREE, O_QUEUE, O_WIDTH, O_ROB, O_MUT, O_HOP, O_PORTS, O_FIFO, O_ANSQ };
    static const struct option lo[] = {
        { "image", required_argument, 0, O_IMAGE },
        { "queue", required_argument, 0, O_QUEUE },
        { "issue-width", required_argument, 0, O_WIDTH },
        { "rob", required_argument, 0, O_ROB },
        { "mutate", required_argument, 0, O_MUT },
        { "hop-cycles", required_argument, 0, O_HOP },
        { "ports", required_argument, 0, O_PORTS },
        { "result-fifo", required_argument, 0, O_FIFO },
        { "dit-answers", required_argument, 0, O_ANSQ },
        { "help", no_argument, 0, 'h' },
        { 0, 0, 0, 0 },
    };
    lpm_rtl_opts o = { .queue = 16, .width = 1, .hop = 2, .ports = 1 };
    const char *image = NULL, *dir = NULL;
    int c;
    while ((c = lpm_cli_getopt(cmd, argc, argv, "ho:", lo)) != -1) {
        switch (c) {
        case O_IMAGE: image = optarg; break;
        case 'o': dir = optarg; break;
        case O_QUEUE: if (lpm_cli_uint(cmd, "--queue", optarg, 1, 4096, &o.queue)) return 2; break;
        case O_WIDTH: if (lpm_cli_uint(cmd, "--issue-width", optarg, 1, 16, &o.width)) return 2; break;
        case O_ROB: if (lpm_cli_uint(cmd, "--rob", optarg, 0, 65536, &o.rob)) return 2; break;
        case O_MUT: if (lpm_rtl_parse_mutation(optarg, &o.mutate)) return 2; break;
        case O_HOP: if (lpm_cli_uint(cmd, "--hop-cycles", optarg, 1, 16, &o.hop)) return 2; break; /* 1: refused with a reason */
        case O_PORTS: if (lpm_cli_uint(cmd, "--ports", optarg, 1, 2, &o.ports)) return 2; break;
        case O_FIFO: if (lpm_cli_uint(cmd, "--result-fifo", optarg, 4, 4096, &o.fifo)) return 2; break;
        case O_ANSQ: if (lpm_cli_dit_answers(cmd, optarg, &o.dit_queue)) return 2; break;
        case 'h': help(stdout); return 0;
        default: return lpm_cli_usage_error(cmd);
        }
    }
    if (optind < argc) {
        lpm_cli_error(cmd, "unexpected argument '%s'", argv[optind]);
        return 2;
    }
    if (!image || !dir) {
        lpm_cli_error(cmd, "needs --image IMG and -o DIR (see --help)");
        return 2;
    }
    lpm_err err;
    lpm_image *img;
    int rc = lpm_image_load(&img, image, &err);
    if (rc) {
        lpm_cli_error(cmd, "%s", err.msg);
        return rc;
    }
    rc = lpm_rtl_generate(img, image, &o, dir, &err);
    if (rc)
        lpm_cli_error(cmd, "%s", err.msg);
    else
        printf("%s: %u stages, %s, Verilog and memories written\n", dir, lpm_image_stages(img),
               lpm_image_is_ring(img) ? "ring" : "linear");
    lpm_image_free(img);
    return rc;
}
