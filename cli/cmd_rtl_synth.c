/* lpmpipe rtl synth DIR: Yosys estimates for a generated folder.
 * synth_xilinx (7-series): block RAMs, LUTs, flip-flops. synth_ice40 and
 * nextpnr-ice40 (HX8K) when the design fits: post-route Fmax, next to the
 * Fmax of a bare registered block-RAM read loop of the same memory shape,
 * placed and routed in the same run. The pipeline is wrapped in a few-pin
 * shell (inputs shifted in, outputs folded into one register) so that the
 * device's pins are no limit and nothing is optimised away. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cmd.h"
#include "../rtl_gen/rtl_gen.h"
#include "../rtl_gen/rtl_run.h"

static const char *cmd = "rtl synth";

#define HX8K_LUTS 7680
#define HX8K_BRAMS 32

typedef struct synth_fig {
    long bram18, bram36, lut, lutram, ff, carry, dsp;     /* xilinx */
    long ice_lut, ice_bram, ice_ff;                        /* ice40 */
    double fmax, bare_fmax;                                /* MHz; 0: not run */
    char ice_note[256];
} synth_fig;

static void help(FILE *fp)
{
    fprintf(fp,
            "usage: lpmpipe rtl synth DIR [--json] [--no-ice40] [--freq MHZ]\n"
            "\n"
            "Runs Yosys on a folder lpmpipe rtl wrote: synth_xilinx (block RAM, LUT,\n"
            "flip-flop counts) and, when the design fits an iCE40 HX8K, synth_ice40 +\n"
            "nextpnr-ice40 for the post-route Fmax, beside a bare registered block-RAM\n"
            "read loop's Fmax in the same run. Table, or one JSON object (--json).\n"
            "\n"
            "  --no-ice40    Xilinx figures only\n"
            "  --freq MHZ    nextpnr target clock (default 100)\n");
}

/* Reads the generated tb_cfg.h for the shape the shell needs. */
static int cfg_get(const char *dir, const char *key, unsigned *v)
{
    char path[4200], line[256], want[64];
    lpm_rtl_fmt(path, sizeof path, "%s/tb_cfg.h", dir);
    FILE *fp = fopen(path, "r");
    if (!fp)
        return -1;
    snprintf(want, sizeof want, "#define TB_%s ", key);
    int found = -1;
    while (fgets(line, sizeof line, fp))
        if (!strncmp(line, want, strlen(want))) {
            *v = (unsigned)strtoul(line + strlen(want), NULL, 10);
            found = 0;
        }
    fclose(fp);
    return found;
}

/* synth_shell.v: the pipeline behind one input pin and one output pin;
 * bare_loop.v: a registered read loop through one memory of the largest stage's shape. */
static int write_shells(const char *dir, unsigned depth, unsigned wb, unsigned ab, lpm_err *err)
{
    unsigned W, KB, ID, BW, L, NB;
    if (cfg_get(dir, "W", &W) || cfg_get(dir, "KB", &KB) || cfg_get(dir, "ID", &ID) || cfg_get(dir, "BW", &BW) ||
        cfg_get(dir, "L", &L) || cfg_get(dir, "NB", &NB))
        return lpm_err_set(err, LPM_EINPUT, "%s: no tb_cfg.h (not a folder lpmpipe rtl wrote?)", dir);
    char path[4200];
    lpm_rtl_fmt(path, sizeof path, "%s/synth_shell.v", dir);
    FILE *fp = fopen(path, "w");
    if (!fp)
        return lpm_err_set(err, LPM_EFAIL, "%s: cannot write", path);
    unsigned in = 2 * W + W * ID + W * KB + W * BW;
    unsigned out = L + L * ID + L + L * NB + 1;
    fprintf(fp,
            "// Written by lpmpipe rtl synth: lpm_top behind two pins, for synthesis only.\n"
            "module synth_shell (input wire clk, input wire rst, input wire din, output reg dout);\n"
            "    reg [%u:0] sh;\n"
            "    always @(posedge clk) sh <= {sh[%u:0], din};\n"
            "    wire [%u:0] o;\n"
            "    lpm_top p (.clk(clk), .rst(rst), .req_valid(sh[%u:0]), .req_ready(), .req_id(sh[%u:%u]),\n"
            "        .req_key(sh[%u:%u]), .bub_valid(sh[%u:%u]), .bub_ready(), .bub_data(sh[%u:%u]),\n"
            "        .res_valid(o[%u:0]), .res_id(o[%u:%u]), .res_nhv(o[%u:%u]), .res_nh(o[%u:%u]), .busy(o[%u]),\n"
            "        .dbg_cur(), .dbg_read(), .dbg_pop(), .dbg_qn(), .dbg_win(), .dbg_win_n(), .dbg_act(),\n"
            "        .dbg_stall(), .dbg_stall_stg(), .dbg_exit(), .dbg_exit_tag());\n"
            "    always @(posedge clk) dout <= ^o;\n"
            "endmodule\n",
            in - 1, in - 2, out - 1, W - 1, W + W * ID - 1, W, W + W * ID + W * KB - 1, W + W * ID,
            2 * W + W * ID + W * KB - 1, W + W * ID + W * KB, in - 1, 2 * W + W * ID + W * KB, L - 1, L + L * ID - 1,
            L, 2 * L + L * ID - 1, L + L * ID, out - 2, 2 * L + L * ID, out - 1);
    if (fclose(fp))
        return lpm_err_set(err, LPM_EFAIL, "%s: write failed", path);
    lpm_rtl_fmt(path, sizeof path, "%s/bare_loop.v", dir);
    fp = fopen(path, "w");
    if (!fp)
        return lpm_err_set(err, LPM_EFAIL, "%s: cannot write", path);
    /* at least 512 words, so that it is a block RAM and not logic; written
     * from a pin so that it is not a constant */
    if (depth < 512)
        depth = 512;
    unsigned ib = 1;
    while ((1u << ib) < depth)
        ib++;
    if (ib > wb)
        ib = wb;
    (void)ab;
    fprintf(fp,
            "// Written by lpmpipe rtl synth: the bare block-RAM read loop (%u x %u bits):\n"
            "// each read's data, mixed with one input pin, is the next read's address.\n"
            "module bare_loop (input wire clk, input wire din, output reg dout);\n"
            "    (* ram_block *) reg [%u:0] mem [0:%u];\n"
            "    reg [%u:0] rdata, sh;\n"
            "    reg [%u:0] addr;\n"
            "    always @(posedge clk) begin\n"
            "        sh <= {sh[%u:0], din};\n"
            "        if (din)\n"
            "            mem[addr] <= sh;\n"
            "        rdata <= mem[addr];\n"
            "        addr <= rdata[%u:0] ^ {%u{din}};\n"
            "        dout <= ^rdata;\n"
            "    end\n"
            "endmodule\n",
            depth, wb, wb - 1, depth - 1, wb - 1, ib - 1, wb - 2, ib - 1, ib);
    return fclose(fp) ? lpm_err_set(err, LPM_EFAIL, "%s: write failed", path) : LPM_OK;
}

/* "   NAME    COUNT" lines of yosys' stat. */
static long stat_count(const char *path, const char *prefix, int exact)
{
    FILE *fp = fopen(path, "r");
    if (!fp)
        return -1;
    char line[512], name[256];
    long n, sum = 0;
    /* with a hierarchy, only its totals (after "design hierarchy") count */
    int hier = 0, on = 1;
    while (fgets(line, sizeof line, fp))
        if (strstr(line, "=== design hierarchy ==="))
            hier = 1;
    rewind(fp);
    on = !hier;
    while (fgets(line, sizeof line, fp)) {
        if (strstr(line, "=== design hierarchy ==="))
            on = 1;
        if (!on)
            continue;
        if (sscanf(line, " %255s %ld", name, &n) != 2)
            continue;
        if (exact ? !strcmp(name, prefix) : !strncmp(name, prefix, strlen(prefix)))
            sum += n;
    }
    fclose(fp);
    return sum;
}

static double fmax_of(const char *log, const char *clk_hint)
{
    FILE *fp = fopen(log, "r");
    if (!fp)
        return 0;
    char line[1024];
    double f = 0;
    while (fgets(line, sizeof line, fp)) {
        char *p = strstr(line, "Max frequency for clock");
        if (p && (!clk_hint || strstr(line, clk_hint))) {
            char *q = strchr(p, ':');
            if (q)
                f = atof(q + 1); /* the last one: after routing */
        }
    }
    fclose(fp);
    return f;
}

static int yosys(const char *dir, const char *script, const char *log)
{
    char *argv[] = { "yosys", "-q", "-l", (char *)log, "-p", (char *)script, NULL };
    return lpm_rtl_run(argv, dir, "/dev/null", "/dev/null");
}

/* One Yosys synthesis of the shell: TAG.log, TAG.stat (and what PASS writes). */
static int synth_step(const char *dir, const char *srcs, const char *pass, const char *tag)
{
    char script[9000], log[64];
    lpm_rtl_fmt(script, sizeof script, "%s; %s; tee -q -o %s.stat stat", srcs, pass, tag);
    snprintf(log, sizeof log, "%s.log", tag);
    int rc = yosys(dir, script, log);
    if (rc)
        lpm_cli_error(cmd, "yosys %s failed (exit %d): see %s/%s", tag, rc, dir, log);
    return rc;
}

/* nextpnr-ice40 on a synthesised JSON: the post-route Fmax (0 on failure). */
static double place_route(const char *dir, const char *json, const char *log, double freq, int *rc)
{
    char fq[32], path[4200];
    snprintf(fq, sizeof fq, "%g", freq);
    char *argv[] = { "nextpnr-ice40", "--hx8k", "--package", "ct256", "--json", (char *)json, "--freq", fq,
                     "--timing-allow-fail", "--seed", "1", "-l", (char *)log, "-q", NULL };
    *rc = lpm_rtl_run(argv, dir, "/dev/null", "/dev/null");
    lpm_rtl_fmt(path, sizeof path, "%s/%s", dir, log);
    return *rc ? 0 : fmax_of(path, NULL);
}

int lpm_rtl_cmd_synth(int argc, char **argv)
{
    enum { O_JSON = LPM_OPT_FIRST_FREE, O_NOICE, O_FREQ };
    static const struct option lo[] = {
        { "json", no_argument, 0, O_JSON },
        { "no-ice40", no_argument, 0, O_NOICE },
        { "freq", required_argument, 0, O_FREQ },
        { "help", no_argument, 0, 'h' },
        { 0, 0, 0, 0 },
    };
    int json = 0, ice = 1, c;
    double freq = 100;
    optind = 1;
    while ((c = lpm_cli_getopt(cmd, argc, argv, "h", lo)) != -1) {
        switch (c) {
        case O_JSON: json = 1; break;
        case O_NOICE: ice = 0; break;
        case O_FREQ: if (lpm_cli_double(cmd, "--freq", optarg, 1, 2000, &freq)) return 2; break;
        case 'h': help(stdout); return 0;
        default: return lpm_cli_usage_error(cmd);
        }
    }
    if (optind + 1 != argc) {
        lpm_cli_error(cmd, "needs exactly one folder (see rtl synth --help)");
        return 2;
    }
    const char *dir = argv[optind];
    if (!lpm_rtl_tool_exists("yosys")) {
        lpm_cli_error(cmd, "needs yosys on the PATH (scripts/deps.sh installs it)");
        return 1;
    }
    unsigned n, wb, ab;
    lpm_err err;
    if (cfg_get(dir, "N", &n) || cfg_get(dir, "WB", &wb) || cfg_get(dir, "AB", &ab)) {
        lpm_cli_error(cmd, "%s: no tb_cfg.h (not a folder lpmpipe rtl wrote?)", dir);
        return 2;
    }
    /* the bare loop takes the shape of stage 0's memory */
    char path[4200], line[256];
    unsigned depth = 0;
    lpm_rtl_fmt(path, sizeof path, "%s/stage_00.hex", dir);
    FILE *fp = fopen(path, "r");
    if (!fp) {
        lpm_cli_error(cmd, "%s: missing", path);
        return 2;
    }
    while (fgets(line, sizeof line, fp))
        depth++;
    fclose(fp);
    int rc = write_shells(dir, depth, wb, ab, &err);
    if (rc) {
        lpm_cli_error(cmd, "%s", err.msg);
        return rc;
    }
    char srcs[8192];
    int k = snprintf(srcs, sizeof srcs, "read_verilog lpm_top.v lpm_core.v lpm_dit.v synth_shell.v");
    for (unsigned s = 0; s < n && k > 0 && (size_t)k < sizeof srcs - 32; s++)
        k += snprintf(srcs + k, sizeof srcs - (size_t)k, " lpm_stage_%02u.v", s);
    synth_fig f;
    memset(&f, 0, sizeof f);
    if (synth_step(dir, srcs, "synth_xilinx -top synth_shell -family xc7", "synth_xilinx"))
        return 1;
    lpm_rtl_fmt(path, sizeof path, "%s/synth_xilinx.stat", dir);
    f.bram18 = stat_count(path, "RAMB18E1", 1);
    f.bram36 = stat_count(path, "RAMB36E1", 1);
    f.lut = stat_count(path, "LUT", 0);
    f.lutram = stat_count(path, "RAM32", 0) + stat_count(path, "RAM64", 0) + stat_count(path, "RAM128", 0) +
               stat_count(path, "RAM256", 0);
    f.ff = stat_count(path, "FD", 0);
    f.carry = stat_count(path, "CARRY4", 1);
    f.dsp = stat_count(path, "DSP48E1", 1);

    if (ice && (!lpm_rtl_tool_exists("nextpnr-ice40"))) {
        lpm_rtl_fmt(f.ice_note, sizeof f.ice_note, "nextpnr-ice40 not on the PATH");
        ice = 0;
    }
    if (ice) {
        if (synth_step(dir, srcs, "synth_ice40 -top synth_shell -json synth_ice40.json", "synth_ice40"))
            return 1;
        lpm_rtl_fmt(path, sizeof path, "%s/synth_ice40.stat", dir);
        f.ice_lut = stat_count(path, "SB_LUT4", 1);
        f.ice_bram = stat_count(path, "SB_RAM40_4K", 0);
        f.ice_ff = stat_count(path, "SB_DFF", 0);
        /* the bare loop always: the reference figure of the device */
        if (!yosys(dir, "read_verilog bare_loop.v; synth_ice40 -top bare_loop -json bare_loop.json", "bare_loop.log"))
            f.bare_fmax = place_route(dir, "bare_loop.json", "nextpnr_bare.log", freq, &rc);
        if (f.ice_lut > HX8K_LUTS || f.ice_bram > HX8K_BRAMS) {
            lpm_rtl_fmt(f.ice_note, sizeof f.ice_note, "does not fit an HX8K (%ld LUT4 of %d, %ld BRAM of %d)", f.ice_lut,
                        HX8K_LUTS, f.ice_bram, HX8K_BRAMS);
        } else {
            f.fmax = place_route(dir, "synth_ice40.json", "nextpnr.log", freq, &rc);
            if (rc)
                lpm_rtl_fmt(f.ice_note, sizeof f.ice_note, "nextpnr-ice40 could not place it (exit %d): see %s/nextpnr.log",
                            rc, dir);
        }
    }
    double ratio = f.bare_fmax > 0 ? f.fmax / f.bare_fmax : 0;
    if (json) {
        printf("{\"dir\":\"%s\",\"xilinx\":{\"family\":\"xc7\",\"bram18\":%ld,\"bram36\":%ld,\"lut\":%ld,\"lutram\":%ld,"
               "\"ff\":%ld,\"carry4\":%ld,\"dsp\":%ld},",
               dir, f.bram18, f.bram36, f.lut, f.lutram, f.ff, f.carry, f.dsp);
        if (f.ice_lut || f.ice_bram)
            printf("\"ice40\":{\"device\":\"hx8k-ct256\",\"lut4\":%ld,\"bram4k\":%ld,\"ff\":%ld,\"fmax_mhz\":%.2f,"
                   "\"bare_bram_loop_fmax_mhz\":%.2f,\"ratio\":%.3f,\"note\":\"%s\"}}\n",
                   f.ice_lut, f.ice_bram, f.ice_ff, f.fmax, f.bare_fmax, ratio, f.ice_note);
        else
            printf("\"ice40\":null,\"ice40_note\":\"%s\"}\n", ice ? f.ice_note : "not run");
    } else {
        printf("synthesis estimates for %s\n", dir);
        printf("  %-34s %ld RAMB36E1, %ld RAMB18E1, %ld LUT, %ld LUTRAM, %ld FF, %ld CARRY4, %ld DSP48E1\n",
               "Xilinx 7-series (synth_xilinx)", f.bram36, f.bram18, f.lut, f.lutram, f.ff, f.carry, f.dsp);
        if (f.ice_lut || f.ice_bram)
            printf("  %-34s %ld LUT4, %ld SB_RAM40_4K, %ld FF\n", "iCE40 HX8K (synth_ice40)", f.ice_lut, f.ice_bram,
                   f.ice_ff);
        if (f.fmax > 0 || f.bare_fmax > 0)
            printf("  %-34s %.2f MHz pipeline, %.2f MHz bare BRAM read loop, ratio %.3f\n", "post-route Fmax (nextpnr)",
                   f.fmax, f.bare_fmax, ratio);
        if (f.ice_note[0])
            printf("  %-34s %s\n", "iCE40", f.ice_note);
    }
    return fflush(stdout) ? 1 : 0;
}
