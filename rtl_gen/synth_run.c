/* rtl synth's runs: the shells, Yosys (synth_xilinx, synth_ice40) and
 * nextpnr-ice40, and the figures read from their reports. */
#include "synth.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rtl_gen_int.h"
#include "rtl_run.h"

/* KEY's number in a generated file: "#define TB_KEY 4u" (tb_cfg.h) or
 * "localparam KEY = 58;" (lpm_item.vh). */
static int param_get(const char *dir, const char *file, const char *prefix, const char *key, unsigned *v)
{
    char path[4200], line[256], want[64];
    lpm_rtl_fmt(path, sizeof path, "%s/%s", dir, file);
    FILE *fp = fopen(path, "r");
    if (!fp)
        return -1;
    snprintf(want, sizeof want, "%s%s ", prefix, key);
    int found = -1;
    while (fgets(line, sizeof line, fp))
        if (!strncmp(line, want, strlen(want))) {
            *v = (unsigned)strtoul(line + strlen(want) + strspn(line + strlen(want), " ="), NULL, 10);
            found = 0;
        }
    fclose(fp);
    return found;
}

static int cfg_get(const char *dir, const char *key, unsigned *v)
{
    return param_get(dir, "tb_cfg.h", "#define TB_", key, v);
}

static long lines_of(const char *path)
{
    FILE *fp = fopen(path, "r");
    if (!fp)
        return -1;
    long n = 0;
    int c;
    while ((c = fgetc(fp)) != EOF)
        n += c == '\n';
    fclose(fp);
    return n;
}

int lpm_synth_shape_of(const char *dir, lpm_synth_shape *s, lpm_err *err)
{
    memset(s, 0, sizeof *s);
    unsigned xi;
    if (cfg_get(dir, "N", &s->n) || cfg_get(dir, "P", &s->p) || cfg_get(dir, "W", &s->w) || cfg_get(dir, "WB", &s->wb) ||
        cfg_get(dir, "DB", &s->db) || cfg_get(dir, "XI", &xi) || cfg_get(dir, "D", &s->d) ||
        cfg_get(dir, "RING", &s->ring) || param_get(dir, "lpm_item.vh", "localparam ", "IW", &s->iw) || s->n < 1 ||
        s->n > LPM_SYNTH_MAX_STAGES || s->p < 1 || s->d < 2 || s->iw < 2 || s->wb < 1 || s->db < 1)
        return lpm_err_set(err, LPM_EINPUT, "%s: no tb_cfg.h of this lpmpipe (not a folder lpmpipe rtl wrote?)", dir);
    char path[4200];
    for (unsigned i = 0; i < s->n; i++) {
        lpm_rtl_fmt(path, sizeof path, "%s/stage_%02u.hex", dir, i);
        long d = lines_of(path);
        if (d < 1)
            return lpm_err_set(err, LPM_EINPUT, "%s: missing or empty", path);
        s->depth[i] = (unsigned)d;
        if (s->depth[i] > s->max_depth)
            s->max_depth = s->depth[i];
    }
    lpm_rtl_fmt(path, sizeof path, "%s/dit.hex", dir);
    long e = lines_of(path);
    if (e < 1)
        return lpm_err_set(err, LPM_EINPUT, "%s: missing or empty", path);
    while ((1L << s->x) < e)
        s->x++;
    return LPM_OK;
}

void lpm_synth_write_fold(FILE *fp, unsigned n)
{
    unsigned lvl = 0;
    for (; n > 4; lvl++) {
        unsigned m = (n + 3) / 4;
        fprintf(fp, "    reg [%u:0] f%u;\n    always @(posedge clk) begin\n", m - 1, lvl + 1);
        for (unsigned k = 0; k < m; k++)
            fprintf(fp, "        f%u[%u] <= ^f%u[%u:%u];\n", lvl + 1, k, lvl, 4 * k + 3 < n ? 4 * k + 3 : n - 1, 4 * k);
        fprintf(fp, "    end\n");
        n = m;
    }
    fprintf(fp, "    always @(posedge clk) dout <= ^f%u;\nendmodule\n", lvl);
}

int lpm_synth_write_shells(const char *dir, const lpm_synth_shape *s, lpm_err *err)
{
    unsigned W, KB, T, BW, L, NB;
    if (cfg_get(dir, "W", &W) || cfg_get(dir, "KB", &KB) || cfg_get(dir, "T", &T) || cfg_get(dir, "BW", &BW) ||
        cfg_get(dir, "L", &L) || cfg_get(dir, "NB", &NB))
        return lpm_err_set(err, LPM_EINPUT, "%s: no tb_cfg.h (not a folder lpmpipe rtl wrote?)", dir);
    char path[4200];
    lpm_rtl_fmt(path, sizeof path, "%s/synth_shell.v", dir);
    FILE *fp = fopen(path, "w");
    if (!fp)
        return lpm_err_set(err, LPM_EFAIL, "%s: cannot write", path);
    /* inputs: req_valid, req_tag, req_key, bub_valid, bub_data, res_ready */
    unsigned i_tag = W, i_key = i_tag + W * T, i_bv = i_key + W * KB, i_bd = i_bv + 1, i_rr = i_bd + BW, in = i_rr + 1;
    /* outputs: res_valid, res_tag, res_nhv, res_nh, busy, req_ready, bub_ready */
    unsigned o_tag = L, o_nhv = o_tag + L * T, o_nh = o_nhv + L, o_busy = o_nh + L * NB, o_rr = o_busy + 1,
             o_br = o_rr + W, out = o_br + 1;
    fprintf(fp,
            "// Written by lpmpipe rtl synth: lpm_top behind two pins (inputs shifted in,\n"
            "// outputs registered and folded into one register), for synthesis only.\n"
            "module synth_shell (input wire clk, input wire rst, input wire din, output reg dout);\n"
            "    reg [%u:0] sh;\n"
            "    always @(posedge clk) sh <= {sh[%u:0], din};\n"
            "    wire [%u:0] o;\n"
            "    lpm_top p (.clk(clk), .rst(rst), .req_valid(sh[%u:0]), .req_ready(o[%u:%u]), .req_tag(sh[%u:%u]),\n"
            "        .req_key(sh[%u:%u]), .bub_valid(sh[%u]), .bub_ready(o[%u]), .bub_data(sh[%u:%u]),\n"
            "        .res_valid(o[%u:0]), .res_tag(o[%u:%u]), .res_nhv(o[%u:%u]), .res_nh(o[%u:%u]), .res_ready(sh[%u]),\n"
            "        .busy(o[%u]));\n"
            "    // the outputs registered, then folded four bits a LUT, each level registered:\n"
            "    // the shell adds no path longer than one LUT between registers\n"
            "    reg [%u:0] f0;\n"
            "    always @(posedge clk) f0 <= o;\n",
            in - 1, in - 2, out - 1, W - 1, o_rr + W - 1, o_rr, i_key - 1, i_tag, i_bv - 1, i_key, i_bv, o_br, i_rr - 1,
            i_bd, L - 1, o_nhv - 1, o_tag, o_nh - 1, o_nhv, o_busy - 1, o_nh, i_rr, o_busy, out - 1);
    lpm_synth_write_fold(fp, out);
    if (fclose(fp))
        return lpm_err_set(err, LPM_EFAIL, "%s: write failed", path);
    lpm_rtl_fmt(path, sizeof path, "%s/bare_loop.v", dir);
    if (!(fp = fopen(path, "w")))
        return lpm_err_set(err, LPM_EFAIL, "%s: cannot write", path);
    unsigned depth = s->max_depth, ib = lpm_synth_addr_bits(depth), wb = s->wb;
    unsigned ab = ib < wb ? ib : wb;
    /* register -> block RAM -> one LUT (the pin mixed in) -> address
     * register: the paths the pipeline's rules allow, nothing else. Written
     * from the shifted pin, so the memory is neither constant nor logic;
     * read enable = not write enable, as in the stages. */
    fprintf(fp,
            "// Written by lpmpipe rtl synth: the bare registered block-RAM read loop of the\n"
            "// largest stage memory's shape (%u x %u bits): each read's data, mixed with\n"
            "// one input pin, is the next read's address.\n"
            "module bare_loop (input wire clk, input wire din, output reg dout);\n"
            "    (* ram_style = \"block\" *) reg [%u:0] mem [0:%u];\n"
            "    reg [%u:0] rdata, sh;\n"
            "    reg [%u:0] addr;\n"
            "    always @(posedge clk) begin\n"
            "        sh <= {sh[%u:0], din};\n"
            "        if (sh[0])\n"
            "            mem[addr] <= sh;\n"
            "        else\n"
            "            rdata <= mem[addr];\n"
            "        addr <= rdata[%u:0] ^ {%u{din}};\n"
            "        dout <= ^rdata;\n"
            "    end\n"
            "endmodule\n",
            depth, wb, wb - 1, depth - 1, wb - 1, ab - 1, wb - 2, ab - 1, ab);
    if (fclose(fp))
        return lpm_err_set(err, LPM_EFAIL, "%s: write failed", path);
    /* LPM_RTL_ICE40_SYNTH's block RAM library, written again: a folder made
     * by an older lpmpipe may lack it */
    return lpm_rtl_write_ice40_lib(dir, NULL, err);
}

static int yosys(const char *dir, const char *script, const char *log)
{
    char *argv[] = { "yosys", "-q", "-l", (char *)log, "-p", (char *)script, NULL };
    return lpm_rtl_run(argv, dir, "/dev/null", "/dev/null");
}

static int sources(const char *dir, const lpm_synth_shape *s, char *buf, size_t n)
{
    /* the credit rules' control is in lpm_credit.v and the one-lane D >= 3
     * control in lpm_ctl3.v, each written only for its folders (so the
     * other folders' read list, and their netlist, stay as they were) */
    char cr[4200], c3[4200];
    lpm_rtl_fmt(cr, sizeof cr, "%s/lpm_credit.v", dir);
    lpm_rtl_fmt(c3, sizeof c3, "%s/lpm_ctl3.v", dir);
    int k = snprintf(buf, n, "read_verilog -I. lpm_top.v lpm_pipe.v lpm_ctl.v lpm_queue.v lpm_rlane.v lpm_dit.v synth_shell.v%s%s",
                     access(cr, R_OK) ? "" : " lpm_credit.v", access(c3, R_OK) ? "" : " lpm_ctl3.v");
    for (unsigned i = 0; i < s->n && k > 0 && (size_t)k < n - 32; i++)
        k += snprintf(buf + k, n - (size_t)k, " lpm_stage_%02u.v", i);
    return k > 0 && (size_t)k < n - 32 ? 0 : -1;
}

/* Cell counts of yosys stat: per module (module NULL: the design totals,
 * after "design hierarchy" when there is one), names starting with prefix. */
static long stat_count(const char *path, const char *module, const char *prefix)
{
    FILE *fp = fopen(path, "r");
    if (!fp)
        return -1;
    char line[512], name[256], want[300];
    long n, sum = 0;
    int hier = 0, on;
    while (fgets(line, sizeof line, fp))
        hier |= strstr(line, "=== design hierarchy ===") != NULL;
    rewind(fp);
    snprintf(want, sizeof want, "=== %s ===", module ? module : "design hierarchy");
    on = !module && !hier;
    while (fgets(line, sizeof line, fp)) {
        if (!strncmp(line, "===", 3))
            on = strstr(line, want) != NULL;
        if (on && sscanf(line, " %255s %ld", name, &n) == 2 && !strncmp(name, prefix, strlen(prefix)))
            sum += n;
    }
    fclose(fp);
    return sum;
}

int lpm_synth_xilinx(const char *dir, const lpm_synth_shape *s, lpm_synth_fig *f, lpm_err *err)
{
    char srcs[8192], script[9000], path[4200];
    if (sources(dir, s, srcs, sizeof srcs))
        return lpm_err_set(err, LPM_EINPUT, "%s: too many stages", dir);
    /* synth_xilinx keeps the hierarchy (no -flatten): one module per stage, for the per-stage figures */
    lpm_rtl_fmt(script, sizeof script, "%s; synth_xilinx -top synth_shell -family xc7; tee -q -o synth_xilinx.stat stat",
                srcs);
    int rc = yosys(dir, script, "synth_xilinx.log");
    if (rc)
        return lpm_err_set(err, LPM_EFAIL, "yosys synth_xilinx failed (exit %d): see %s/synth_xilinx.log", rc, dir);
    lpm_rtl_fmt(path, sizeof path, "%s/synth_xilinx.stat", dir);
    f->bram18 = stat_count(path, NULL, "RAMB18E1");
    f->bram36 = stat_count(path, NULL, "RAMB36E1");
    f->lut = stat_count(path, NULL, "LUT");
    f->lutram = stat_count(path, NULL, "RAM32") + stat_count(path, NULL, "RAM64") + stat_count(path, NULL, "RAM128") +
                stat_count(path, NULL, "RAM256");
    f->ff = stat_count(path, NULL, "FD");
    f->carry = stat_count(path, NULL, "CARRY4");
    f->dsp = stat_count(path, NULL, "DSP48E1");
    f->stage_bits = f->dit_bits = 0;
    for (unsigned i = 0; i < s->n; i++) {
        char m[32];
        snprintf(m, sizeof m, "lpm_stage_%02u", i);
        f->stage_lut[i] = stat_count(path, m, "LUT");
        f->stage_ff[i] = stat_count(path, m, "FD");
        f->stage_bits += (double)s->depth[i] * s->wb;
    }
    f->dit_bits = (double)(1u << s->x) * s->db;
    return LPM_OK;
}

/* nextpnr-ice40 --hx8k: placed (0/1), device utilisation, post-route Fmax. */
static int place_route(const char *dir, const char *json, const char *log, double freq, unsigned seed, long *lc,
                       long *ram, double *fmax, char *note, size_t note_n)
{
    char fq[32], sd[16], path[4200], line[1024];
    snprintf(fq, sizeof fq, "%g", freq);
    snprintf(sd, sizeof sd, "%u", seed);
    char *argv[] = { "nextpnr-ice40", "--hx8k", "--package", "ct256", "--json", (char *)json, "--freq", fq,
                     "--timing-allow-fail", "--seed", sd, "-l", (char *)log, "-q", NULL };
    int rc = lpm_rtl_run(argv, dir, "/dev/null", "/dev/null");
    lpm_rtl_fmt(path, sizeof path, "%s/%s", dir, log);
    FILE *fp = fopen(path, "r");
    *fmax = 0;
    note[0] = '\0';
    while (fp && fgets(line, sizeof line, fp)) {
        char *p;
        long a, b;
        if ((p = strstr(line, "ICESTORM_LC:")) && sscanf(p + 12, " %ld/ %ld", &a, &b) == 2) {
            lc[0] = a;
            lc[1] = b;
        } else if ((p = strstr(line, "ICESTORM_RAM:")) && sscanf(p + 13, " %ld/ %ld", &a, &b) == 2) {
            ram[0] = a;
            ram[1] = b;
        } else if ((p = strstr(line, "Max frequency for clock")) && (p = strchr(p, ':'))) {
            *fmax = atof(p + 1); /* the last one: after routing */
        } else if (!note[0] && (p = strstr(line, "ERROR:"))) {
            line[strcspn(line, "\n")] = '\0';
            lpm_rtl_fmt(note, note_n, "%s", p);
        }
    }
    if (fp)
        fclose(fp);
    return rc == 0;
}

int lpm_synth_ice40(const char *dir, double freq, unsigned seeds, lpm_synth_fig *f, lpm_err *err)
{
    lpm_synth_shape s;
    int rc = lpm_synth_shape_of(dir, &s, err);
    if (rc)
        return rc;
    char srcs[8192], script[9000], note[512];
    if (sources(dir, &s, srcs, sizeof srcs))
        return lpm_err_set(err, LPM_EINPUT, "%s: too many stages", dir);
    lpm_rtl_fmt(script, sizeof script, "%s; " LPM_RTL_ICE40_SYNTH("synth_shell") " -json synth_ice40.json; tee -q -o synth_ice40.stat stat",
                srcs);
    if ((rc = yosys(dir, script, "synth_ice40.log")))
        return lpm_err_set(err, LPM_EFAIL, "yosys synth_ice40 failed (exit %d): see %s/synth_ice40.log", rc, dir);
    if ((rc = yosys(dir, "read_verilog bare_loop.v; " LPM_RTL_ICE40_SYNTH("bare_loop") " -json bare_loop.json", "bare_loop.log")))
        return lpm_err_set(err, LPM_EFAIL, "yosys synth_ice40 (bare loop) failed (exit %d): see %s/bare_loop.log", rc, dir);
    if ((rc = yosys(dir, "read_verilog datapath_only.v; " LPM_RTL_ICE40_SYNTH("datapath_only") " -json datapath_only.json",
                    "datapath_only.log")))
        return lpm_err_set(err, LPM_EFAIL, "yosys synth_ice40 (datapath alone) failed (exit %d): see %s/datapath_only.log",
                           rc, dir);
    f->ice_run = 1;
    f->seeds = seeds;
    long lc[2] = { 0, 0 }, ram[2] = { 0, 0 }, blc[2], bram[2], dlc[2] = { 0, 0 };
    f->placed = f->bare_placed = f->dp_placed = 1;
    for (unsigned k = 0; k < seeds; k++) {
        char log[64], blog[64], dlog[64], bnote[512];
        /* seed 1 keeps the names nextpnr.log / nextpnr_bare.log */
        snprintf(log, sizeof log, "nextpnr_s%u.log", k + 1);
        snprintf(blog, sizeof blog, "nextpnr_bare_s%u.log", k + 1);
        snprintf(dlog, sizeof dlog, "nextpnr_datapath_s%u.log", k + 1);
        if (!k) {
            snprintf(log, sizeof log, "nextpnr.log");
            snprintf(blog, sizeof blog, "nextpnr_bare.log");
            snprintf(dlog, sizeof dlog, "nextpnr_datapath.log");
        }
        /* fit is decided by the placer: a design that does not place is reported as such */
        if (!place_route(dir, "synth_ice40.json", log, freq, k + 1, lc, ram, &f->fmax[k], note, sizeof note)) {
            if (f->placed)
                lpm_rtl_fmt(f->note, sizeof f->note, "seed %u: %s", k + 1, note[0] ? note : "see the nextpnr log");
            f->placed = 0;
        }
        if (!place_route(dir, "bare_loop.json", blog, freq, k + 1, blc, bram, &f->bare_fmax[k], bnote, sizeof bnote))
            f->bare_placed = 0;
        if (!place_route(dir, "datapath_only.json", dlog, freq, k + 1, dlc, bram, &f->dp_fmax[k], bnote, sizeof bnote))
            f->dp_placed = 0;
        if (!f->placed)
            break;
    }
    f->lc = lc[0];
    f->lc_total = lc[1];
    f->ram = ram[0];
    f->ram_total = ram[1];
    f->dp_lc = dlc[0];
    if (!f->placed) {
        char why[512];
        lpm_rtl_fmt(why, sizeof why, "%s", f->note);
        lpm_rtl_fmt(f->note, sizeof f->note, "does not place on an HX8K (%ld of %ld logic cells, %ld of %ld block RAMs): %s",
                    f->lc, f->lc_total, f->ram, f->ram_total, why);
    }
    return LPM_OK;
}
