/* lpmpipe rtl synth DIR: Yosys figures for a generated folder. synth_xilinx
 * (7-series): block RAMs against the memory bits the image needs, DSP
 * cells, LUTs and flip-flops per stage. synth_ice40 and nextpnr-ice40
 * (HX8K): whether it places (from the placer, not from LUT counts) and the
 * post-route Fmax, next to the Fmax of a bare registered block-RAM read
 * loop of the largest stage memory's shape, placed and routed in the same
 * run. The runs are synth_run.c. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cmd.h"
#include "../rtl_gen/rtl_gen.h"
#include "../rtl_gen/rtl_run.h"
#include "../rtl_gen/synth.h"

static const char *cmd = "rtl synth";

static void help(FILE *fp)
{
    fprintf(fp,
            "usage: lpmpipe rtl synth DIR [--json] [--no-ice40] [--freq MHZ] [--seeds K] [--write-only]\n"
            "\n"
            "Runs Yosys on a folder lpmpipe rtl wrote: synth_xilinx (block RAMs against\n"
            "the memory bits, DSP cells, LUTs and flip-flops, per stage too) and\n"
            "synth_ice40 + nextpnr-ice40 --hx8k: whether it places, and the post-route\n"
            "Fmax beside a bare registered block-RAM read loop of the largest stage\n"
            "memory's shape and beside the design's datapath alone (its block RAMs and\n"
            "the paths a lookup takes, without queues, dispatcher, credits or result\n"
            "lanes), all placed and routed in the same run. Table, or one JSON object\n"
            "(--json).\n"
            "\n"
            "  --no-ice40    Xilinx figures only\n"
            "  --write-only  write synth_shell.v, bare_loop.v and datapath_only.v into DIR\n"
            "                and run no tool (for a flow of your own)\n"
            "  --freq MHZ    nextpnr target clock (default 100)\n"
            "  --seeds K     place and route the three designs with nextpnr seeds 1..K, 1..15\n"
            "                (default 1); Fmax is the median over the seeds, each seed's\n"
            "                figure is listed too (the seed alone moves it by about 10%%)\n");
}

/* The median post-route Fmax over the seeds (0 when it did not place). */
static double median_fmax(const double *by_seed, unsigned seeds, int placed)
{
    double v[LPM_SYNTH_MAX_SEEDS];
    if (!placed || !seeds)
        return 0;
    memcpy(v, by_seed, seeds * sizeof *v);
    return lpm_cli_median(v, seeds);
}

/* The two medians and their ratio (0 when either is missing). */
static double fmax_ratio(const lpm_synth_fig *f, double *fm, double *bm)
{
    *fm = median_fmax(f->fmax, f->seeds, f->placed);
    *bm = median_fmax(f->bare_fmax, f->seeds, f->bare_placed);
    return *bm > 0 && *fm > 0 ? *fm / *bm : 0.0;
}

/* The datapath alone's median and its ratio to the bare loop's median bm. */
static double datapath_ratio(const lpm_synth_fig *f, double bm, double *dm)
{
    *dm = median_fmax(f->dp_fmax, f->seeds, f->dp_placed);
    return *dm > 0 && bm > 0 ? *dm / bm : 0.0;
}

static void print_seeds(const char *name, const double *by_seed, unsigned seeds)
{
    printf(",\"%s\":[", name);
    for (unsigned k = 0; k < seeds; k++)
        printf("%s%.2f", k ? "," : "", by_seed[k]);
    printf("]");
}

static void print_json(const char *dir, const lpm_synth_shape *s, const lpm_synth_fig *f)
{
    double b36 = (double)f->bram36 + 0.5 * (double)f->bram18, ideal = (f->stage_bits + f->dit_bits) / 36864.0;
    printf("{\"dir\":\"%s\",\"stages\":%u,\"ports\":%u,\"xilinx\":{\"family\":\"xc7\",\"bram36\":%ld,\"bram18\":%ld,"
           "\"bram36_equiv\":%.1f,\"memory_bits\":%.0f,\"stage_bits\":%.0f,\"dit_bits\":%.0f,\"bits_over_36k\":%.2f,"
           "\"bram_over_bits\":%.3f,\"lut\":%ld,\"lutram\":%ld,\"ff\":%ld,\"carry4\":%ld,\"dsp\":%ld,\"per_stage\":[",
           dir, s->n, s->p, f->bram36, f->bram18, b36, f->stage_bits + f->dit_bits, f->stage_bits, f->dit_bits, ideal,
           ideal > 0 ? b36 / ideal : 0, f->lut, f->lutram, f->ff, f->carry, f->dsp);
    for (unsigned i = 0; i < s->n; i++)
        printf("%s{\"stage\":%u,\"lut\":%ld,\"ff\":%ld}", i ? "," : "", i, f->stage_lut[i], f->stage_ff[i]);
    printf("]},");
    if (!f->ice_run) {
        printf("\"ice40\":null,\"ice40_note\":\"%s\"}\n", f->note[0] ? f->note : "not run");
        return;
    }
    double fm, bm, ratio = fmax_ratio(f, &fm, &bm);
    printf("\"ice40\":{\"device\":\"hx8k-ct256\",\"placed\":%s,\"logic_cells\":%ld,\"logic_cells_total\":%ld,"
           "\"bram4k\":%ld,\"bram4k_total\":%ld,\"seeds\":%u,\"fmax_mhz\":%.2f,\"bare_bram_loop_fmax_mhz\":%.2f,"
           "\"bare_loop_words\":%u,\"bare_loop_bits\":%u,\"ratio\":%.3f",
           f->placed ? "true" : "false", f->lc, f->lc_total, f->ram, f->ram_total, f->seeds, fm, bm, s->max_depth, s->wb,
           ratio);
    print_seeds("fmax_mhz_seeds", f->fmax, f->placed ? f->seeds : 0);
    print_seeds("bare_fmax_mhz_seeds", f->bare_fmax, f->bare_placed ? f->seeds : 0);
    double dm, dratio = datapath_ratio(f, bm, &dm);
    printf(",\"datapath_placed\":%s,\"datapath_logic_cells\":%ld,\"datapath_fmax_mhz\":%.2f,\"datapath_ratio\":%.3f",
           f->dp_placed ? "true" : "false", f->dp_lc, dm, dratio);
    print_seeds("datapath_fmax_mhz_seeds", f->dp_fmax, f->dp_placed ? f->seeds : 0);
    printf(",\"note\":\"%s\"}}\n", f->note);
}

static void print_table(const char *dir, const lpm_synth_shape *s, const lpm_synth_fig *f)
{
    double b36 = (double)f->bram36 + 0.5 * (double)f->bram18, ideal = (f->stage_bits + f->dit_bits) / 36864.0;
    long lmin = -1, lmax = 0, fmin = -1, fmax = 0;
    for (unsigned i = 0; i < s->n; i++) {
        lmin = lmin < 0 || f->stage_lut[i] < lmin ? f->stage_lut[i] : lmin;
        lmax = f->stage_lut[i] > lmax ? f->stage_lut[i] : lmax;
        fmin = fmin < 0 || f->stage_ff[i] < fmin ? f->stage_ff[i] : fmin;
        fmax = f->stage_ff[i] > fmax ? f->stage_ff[i] : fmax;
    }
    printf("synthesis figures for %s (%u stages, %u port%s)\n", dir, s->n, s->p, s->p > 1 ? "s" : "");
    printf("  %-34s %ld RAMB36E1 + %ld RAMB18E1 = %.1f x 36 Kbit for %.0f memory bits (%.2f x 36 Kbit): %.3f\n",
           "Xilinx 7-series block RAM", f->bram36, f->bram18, b36, f->stage_bits + f->dit_bits, ideal,
           ideal > 0 ? b36 / ideal : 0);
    printf("  %-34s %ld LUT, %ld LUTRAM, %ld FF, %ld CARRY4, %ld DSP48E1\n", "Xilinx 7-series logic", f->lut, f->lutram,
           f->ff, f->carry, f->dsp);
    printf("  %-34s LUT %ld..%ld, FF %ld..%ld\n", "  per stage", lmin, lmax, fmin, fmax);
    if (!f->ice_run) {
        printf("  %-34s %s\n", "iCE40", f->note[0] ? f->note : "not run");
        return;
    }
    printf("  %-34s %s: %ld of %ld logic cells, %ld of %ld block RAMs\n", "iCE40 HX8K (nextpnr placement)",
           f->placed ? "placed" : "does not place", f->lc, f->lc_total, f->ram, f->ram_total);
    double fm, bm, ratio = fmax_ratio(f, &fm, &bm);
    char what[64];
    snprintf(what, sizeof what, f->seeds > 1 ? "post-route Fmax (median, %u seeds)" : "post-route Fmax (nextpnr)",
             f->seeds);
    printf("  %-34s %.2f MHz pipeline, %.2f MHz bare BRAM read loop (%u x %u bits), ratio %.3f\n", what, fm, bm,
           s->max_depth, s->wb, ratio);
    double dm, dratio = datapath_ratio(f, bm, &dm);
    if (f->dp_placed)
        printf("  %-34s %.2f MHz (%ld logic cells), ratio %.3f to the bare loop\n", "  its datapath alone (no control)", dm,
               f->dp_lc, dratio);
    else
        printf("  %-34s does not place\n", "  its datapath alone (no control)");
    if (f->seeds > 1 && f->placed) {
        printf("  %-34s", "  by seed (pipeline / bare / datapath)");
        for (unsigned k = 0; k < f->seeds; k++)
            printf(" %u: %.2f / %.2f / %.2f", k + 1, f->fmax[k], f->bare_fmax[k], f->dp_fmax[k]);
        printf("\n");
    }
    if (f->note[0])
        printf("  %-34s %s\n", "iCE40", f->note);
}

/* The folder's shape, and the three designs rtl synth places written into it. */
static int write_designs(const char *dir, lpm_synth_shape *s, lpm_err *err)
{
    int rc = lpm_synth_shape_of(dir, s, err);
    if (!rc)
        rc = lpm_synth_write_shells(dir, s, err);
    if (!rc)
        rc = lpm_synth_write_datapath(dir, s, err);
    return rc;
}

int lpm_rtl_cmd_synth(int argc, char **argv)
{
    enum { O_JSON = LPM_OPT_FIRST_FREE, O_NOICE, O_FREQ, O_SEEDS, O_WRITE };
    static const struct option lo[] = {
        { "json", no_argument, 0, O_JSON },
        { "no-ice40", no_argument, 0, O_NOICE },
        { "freq", required_argument, 0, O_FREQ },
        { "seeds", required_argument, 0, O_SEEDS },
        { "write-only", no_argument, 0, O_WRITE },
        { "help", no_argument, 0, 'h' },
        { 0, 0, 0, 0 },
    };
    int json = 0, ice = 1, write_only = 0, c;
    double freq = 100;
    unsigned seeds = 1;
    optind = 1;
    while ((c = lpm_cli_getopt(cmd, argc, argv, "h", lo)) != -1) {
        switch (c) {
        case O_JSON: json = 1; break;
        case O_NOICE: ice = 0; break;
        case O_WRITE: write_only = 1; break;
        case O_FREQ: if (lpm_cli_double(cmd, "--freq", optarg, 1, 2000, &freq)) return 2; break;
        case O_SEEDS: if (lpm_cli_uint(cmd, "--seeds", optarg, 1, LPM_SYNTH_MAX_SEEDS, &seeds)) return 2; break;
        case 'h': help(stdout); return 0;
        default: return lpm_cli_usage_error(cmd);
        }
    }
    if (optind + 1 != argc) {
        lpm_cli_error(cmd, "needs exactly one folder (see rtl synth --help)");
        return 2;
    }
    const char *dir = argv[optind];
    lpm_err err;
    lpm_synth_shape s;
    if (write_only) {
        int rc = write_designs(dir, &s, &err);
        if (rc) {
            lpm_cli_error(cmd, "%s", err.msg);
            return rc == LPM_EINPUT ? 2 : 1;
        }
        printf("%s: synth_shell.v, bare_loop.v and datapath_only.v written\n", dir);
        return fflush(stdout) ? 1 : 0;
    }
    if (!lpm_rtl_tool_exists("yosys")) {
        lpm_cli_error(cmd, "needs yosys on the PATH (scripts/deps.sh installs it)");
        return 1;
    }
    lpm_synth_fig *f = calloc(1, sizeof *f);
    if (!f)
        return 1;
    int rc = write_designs(dir, &s, &err);
    if (!rc)
        rc = lpm_synth_xilinx(dir, &s, f, &err);
    if (!rc && ice && !lpm_rtl_tool_exists("nextpnr-ice40"))
        lpm_rtl_fmt(f->note, sizeof f->note, "nextpnr-ice40 not on the PATH");
    else if (!rc && ice)
        rc = lpm_synth_ice40(dir, freq, seeds, f, &err);
    if (rc) {
        lpm_cli_error(cmd, "%s", err.msg);
        free(f);
        return rc == LPM_EINPUT ? 2 : 1;
    }
    if (json)
        print_json(dir, &s, f);
    else
        print_table(dir, &s, f);
    free(f);
    return fflush(stdout) ? 1 : 0;
}
