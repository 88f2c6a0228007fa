/* lpmpipe map: a table onto pipeline stages; writes the image and reports. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cmd.h"
#include "../mapper/map.h"

static const char *cmd = "map";

static void help(FILE *fp)
{
    fprintf(fp,
            "usage: lpmpipe map --fib F [--arch ring|linear] [--mapping M] [--stages N]\n"
            "                   [--initial-stride X] [--stride K] [--headroom PCT] [--split H]\n"
            "                   [--nh-bits B] [--shadow] -o IMG [--json] [--report FILE] [FIB options]\n"
            "\n"
            "Maps the table's trie onto pipeline stages and writes a pipeline image\n"
            "(docs/image-format.md). Prints the mapping report: an aligned table, or\n"
            "JSON with --json (schema in docs/cli-mapper.md).\n"
            "\n"
            "  --arch A            ring (CAMP, default) or linear (write-bubble pipeline)\n"
            "  --mapping M         ring: minmax (IPv4 default), adaptive (tall subtrees\n"
            "                      split into parent and child subtries, colored\n"
            "                      separately) or split (IPv6 default: pieces of H levels\n"
            "                      placed a short jump after their parent when that\n"
            "                      balances the stages); linear: level (IPv4 default),\n"
            "                      height, balanced or split (IPv6 default)\n"
            "  --stages N          pipeline stages, 1..255 (ring default 24; linear\n"
            "                      default: as many as the mapping needs)\n"
            "  --initial-stride X  direct index table bits, 0..24 (default 8; split on\n"
            "                      IPv6: 14)\n"
            "  --stride K          key bits per stage read, 1..8 (default 1; split on\n"
            "                      IPv6: 2; balanced chooses its own per stage)\n"
            "  --headroom PCT      free words per stage for updates, %% of used (default 10)\n"
            "  --split H           adaptive: split height in levels (default N);\n"
            "                      split: piece height in levels (default 4)\n"
            "  --nh-bits B         next-hop index width (default: the table's + 1)\n"
            "  --shadow            a second copy of every stage memory and the DIT, so that\n"
            "                      lpmpipe update can send a rebuild as bubbles and swap it in\n"
            "  -o IMG              the image to write ('-': standard output)\n"
            "  --json              the report as one JSON object\n"
            "  --report FILE       also write the JSON report to FILE\n"
            LPM_CLI_FIB_HELP);
}

typedef struct map_args {
    lpm_fib_opts fo;
    lpm_map_opts mo;
    const char *fib_path, *arch, *mapping, *outp, *report;
    int json, stages_set;
    unsigned given;
} map_args;

enum { O_FIB = LPM_OPT_FIRST_FREE, O_ARCH, O_MAPPING, O_STAGES, O_X, O_STRIDE, O_HEAD, O_SPLIT, O_NHB, O_JSON, O_REPORT, O_SHADOW };

/* One option of map's own; 0, or 2 after the message. */
static int map_option(int c, const char *arg, map_args *a)
{
    lpm_map_opts *mo = &a->mo;
    switch (c) {
    case O_FIB: a->fib_path = arg; break;
    case O_ARCH: a->arch = arg; break;
    case O_MAPPING: a->mapping = arg; a->given |= LPM_MAPSET_KIND; break;
    case O_STAGES:
        if (lpm_cli_uint(cmd, "--stages", arg, 1, LPM_IMAGE_MAX_STAGES, &mo->stages))
            return 2;
        a->stages_set = 1;
        break;
    case O_X:
        if (lpm_cli_uint(cmd, "--initial-stride", arg, 0, LPM_IMAGE_MAX_X, &mo->x))
            return 2;
        a->given |= LPM_MAPSET_X;
        break;
    case O_STRIDE:
        if (lpm_cli_uint(cmd, "--stride", arg, 1, LPM_IMAGE_MAX_STRIDE, &mo->stride))
            return 2;
        a->given |= LPM_MAPSET_STRIDE;
        break;
    case O_HEAD: if (lpm_cli_uint(cmd, "--headroom", arg, 0, 255, &mo->headroom_pct)) return 2; break;
    case O_SPLIT: if (lpm_cli_uint(cmd, "--split", arg, 1, 128, &mo->split)) return 2; break;
    case O_NHB: if (lpm_cli_uint(cmd, "--nh-bits", arg, 1, LPM_IMAGE_MAX_NH_BITS, &mo->nh_bits)) return 2; break;
    case O_JSON: a->json = 1; break;
    case O_SHADOW: mo->copies = 2; break;
    case O_REPORT: a->report = arg; break;
    case 'o': a->outp = arg; break;
    default: return lpm_cli_usage_error(cmd);
    }
    return 0;
}

/* -1: go on; else the exit status (0 after --help). */
static int parse_args(int argc, char **argv, map_args *a)
{
    static const struct option lo[] = {
        { "fib", required_argument, 0, O_FIB },
        { "arch", required_argument, 0, O_ARCH },
        { "mapping", required_argument, 0, O_MAPPING },
        { "stages", required_argument, 0, O_STAGES },
        { "initial-stride", required_argument, 0, O_X },
        { "stride", required_argument, 0, O_STRIDE },
        { "headroom", required_argument, 0, O_HEAD },
        { "shadow", no_argument, 0, O_SHADOW },
        { "split", required_argument, 0, O_SPLIT },
        { "nh-bits", required_argument, 0, O_NHB },
        { "json", no_argument, 0, O_JSON },
        { "report", required_argument, 0, O_REPORT },
        { "output", required_argument, 0, 'o' },
        { "help", no_argument, 0, 'h' },
        LPM_CLI_FIB_LONGOPTS,
        { 0, 0, 0, 0 },
    };
    memset(a, 0, sizeof *a);
    lpm_fib_opts_default(&a->fo);
    lpm_map_opts_default(&a->mo);
    a->arch = "ring";
    int c, rc;
    optind = 1;
    while ((c = lpm_cli_getopt(cmd, argc, argv, "ho:", lo)) != -1) {
        int r = lpm_cli_fib_option(cmd, c, optarg, &a->fo);
        if (r < 0)
            return 2;
        if (r > 0)
            continue;
        if (c == 'h') {
            help(stdout);
            return 0;
        }
        if ((rc = map_option(c, optarg, a)))
            return rc;
    }
    if (optind < argc) {
        lpm_cli_error(cmd, "unexpected argument '%s'", argv[optind]);
        return 2;
    }
    if (!a->fib_path || !a->outp) {
        lpm_cli_error(cmd, "--fib and -o are required");
        return 2;
    }
    a->mo.kind = lpm_map_kind_parse(a->arch, a->mapping);
    if (a->mo.kind < 0) {
        lpm_cli_error(cmd, "--arch %s --mapping %s: unknown (ring: minmax, adaptive, split; linear: level, height, balanced, split)",
                      a->arch, a->mapping ? a->mapping : "(default)");
        return 2;
    }
    if (!a->stages_set && !strcmp(a->arch, "linear"))
        a->mo.stages = 0;
    return -1;
}

/* The image written (-o) and the report printed (and --report written). */
static int save_and_report(const map_args *a, const lpm_image *img, const lpm_map_report *rep)
{
    lpm_err err;
    int rc = lpm_image_save(img, a->outp, &err);
    if (rc)
        lpm_cli_error(cmd, "%s", err.msg);
    if (!rc && a->report) {
        FILE *fp = lpm_cli_open_out(cmd, a->report, &rc);
        if (fp) {
            lpm_map_report_json(rep, fp);
            rc = lpm_cli_close_out(cmd, fp, a->report);
        }
    }
    if (!rc && strcmp(a->outp, "-")) {
        if (a->json)
            lpm_map_report_json(rep, stdout);
        else
            lpm_map_report_table(rep, stdout);
        if (fflush(stdout))
            rc = 1;
    }
    return rc;
}

int lpm_cmd_map(int argc, char **argv)
{
    map_args a;
    int rc = parse_args(argc, argv, &a);
    if (rc >= 0)
        return rc;
    lpm_fib fib;
    lpm_fib_init(&fib);
    if ((rc = lpm_cli_load_fib(cmd, a.fib_path, &a.fo, &fib)))
        return rc;
    lpm_map_opts_family(&a.mo, fib.family, !strcmp(a.arch, "linear"), a.given);
    int kind = a.mo.kind;
    if (a.mo.split && kind != LPM_MAP_RING_ADAPT && kind != LPM_MAP_RING_SPLIT && kind != LPM_MAP_LINEAR_SPLIT) {
        lpm_cli_error(cmd, "--split needs --mapping adaptive or split");
        lpm_fib_free(&fib);
        return 2;
    }
    lpm_image *img;
    lpm_map_report rep;
    lpm_err err;
    if ((rc = lpm_map_build(&img, &fib, &a.mo, &rep, &err))) {
        lpm_cli_error(cmd, "%s", err.msg);
        lpm_fib_free(&fib);
        return rc;
    }
    rc = save_and_report(&a, img, &rep);
    lpm_image_free(img);
    lpm_fib_free(&fib);
    return rc;
}
