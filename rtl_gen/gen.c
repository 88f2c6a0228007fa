/* lpm_rtl_generate: the folder lpmpipe rtl writes. Verilog (gen_verilog.c),
 * the memories as $readmemh files, tb_cfg.h for the testbenches, README.md
 * and a Makefile. Every file starts with the same header naming the image
 * and the options; nothing in it depends on the time or the machine. */
#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <sys/stat.h>

#include "../sim/cycle_log.h"
#include "rtl_gen_int.h"

int lpm_rtl_open(FILE **fp, const char *dir, const char *name, const char *header, const char *cm, lpm_err *err)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    *fp = fopen(path, "w");
    if (!*fp)
        return lpm_err_set(err, LPM_EFAIL, "%s: %s", path, strerror(errno));
    if (header && cm) {
        const char *p = header;
        while (*p) {
            const char *e = strchr(p, '\n');
            size_t n = e ? (size_t)(e - p) : strlen(p);
            fprintf(*fp, "%s %.*s\n", cm, (int)n, p);
            p += n + (e ? 1 : 0);
        }
    }
    return LPM_OK;
}

int lpm_rtl_close(FILE *fp, const char *dir, const char *name, lpm_err *err)
{
    int bad = ferror(fp);
    if (fclose(fp) || bad)
        return lpm_err_set(err, LPM_EFAIL, "%s/%s: write failed", dir, name);
    return LPM_OK;
}

static int write_hex(const char *dir, const char *name, unsigned bits, uint64_t n, const lpm_image *img, int stage,
                     lpm_err *err)
{
    FILE *fp;
    int rc = lpm_rtl_open(&fp, dir, name, NULL, NULL, err);
    if (rc)
        return rc;
    int digits = (int)((bits + 3) / 4);
    for (uint64_t i = 0; i < n; i++) {
        uint64_t w = stage < 0 ? lpm_image_dit_entry(img, (uint32_t)i) : lpm_image_word(img, (unsigned)stage, (uint32_t)i);
        fprintf(fp, "%0*" PRIx64 "\n", digits, w);
    }
    return lpm_rtl_close(fp, dir, name, err);
}

static int write_cfg(const lpm_rtl_shape *sh, const char *dir, const char *header, lpm_err *err)
{
    FILE *fp;
    int rc = lpm_rtl_open(&fp, dir, "tb_cfg.h", header, "//", err);
    if (rc)
        return rc;
    const struct { const char *k; unsigned v; } kv[] = {
        { "N", sh->n },     { "RING", sh->ring }, { "Q", sh->q },       { "W", sh->w },       { "R", sh->r },
        { "KB", sh->kb },   { "ID", sh->id },     { "SB", sh->sb },     { "AB", sh->ab },     { "NB", sh->nb },
        { "PB", sh->pb },   { "WB", sh->wb },     { "XI", sh->xi },     { "DB", sh->db },     { "BQB", sh->bqb },
        { "IW", sh->iw },   { "BSW", sh->bsw },   { "BW", sh->bw },     { "L", sh->l },       { "QCB", sh->qcb },
        { "WCB", sh->wcb }, { "O_TAG", sh->o_tag }, { "O_STG", sh->o_stg },
    };
    for (size_t i = 0; i < sizeof kv / sizeof kv[0]; i++)
        fprintf(fp, "#define TB_%s %uu\n", kv[i].k, kv[i].v);
    /* the cycle log header, from the one function that writes it for the simulator too */
    lpm_sim_log_hdr h = { sh->n, (int)sh->ring, sh->q, sh->w, sh->r, 0, LPM_RTL_HOP, LPM_RTL_PORTS };
    char line[256];
    lpm_sim_log_header(line, sizeof line, &h);
    fprintf(fp, "#define TB_LOG_HEADER \"%s\"\n", line);
    if ((rc = lpm_rtl_close(fp, dir, "tb_cfg.h", err)) || (rc = lpm_rtl_open(&fp, dir, "tb_cfg.vh", header, "//", err)))
        return rc;
    for (size_t i = 0; i < sizeof kv / sizeof kv[0]; i++)
        fprintf(fp, "localparam TB_%s = %u;\n", kv[i].k, kv[i].v);
    return lpm_rtl_close(fp, dir, "tb_cfg.vh", err);
}

static int write_readme(const lpm_image *img, const lpm_rtl_shape *sh, const char *dir, const char *header,
                        lpm_err *err)
{
    FILE *fp;
    int rc = lpm_rtl_open(&fp, dir, "README.md", NULL, NULL, err);
    if (rc)
        return rc;
    fprintf(fp, "# Generated pipeline\n\n```\n%s```\n\n", header);
    fprintf(fp,
            "A %s pipeline of %u stages for IPv%d keys (%u bits), initial stride %u,\n"
            "per-stage queues of %u, issue width %u, reorder buffer %u%s. The cycle rules\n"
            "are docs/microarchitecture.md of lpmpipe; `lpmpipe rtl verify` proves this\n"
            "Verilog reproduces the simulator's cycle log.\n\n",
            sh->ring ? "CAMP ring" : "write-bubble linear", sh->n, lpm_image_family(img), sh->kb, sh->x, sh->q, sh->w,
            sh->r, sh->r ? " (results in input order)" : " (results in exit order)");
    fprintf(fp, "## Files\n\n"
                "| file | what |\n|---|---|\n"
                "| lpm_top.v | top module: ports below |\n"
                "| lpm_core.v | dispatcher, window, queues, bubble table, reorder buffer |\n"
                "| lpm_dit.v | direct index table (dit.hex) |\n"
                "| lpm_stage_NN.v | one module per stage, memory from stage_NN.hex |\n"
                "| tb.cpp, tb_cfg.h | the Verilator testbench `lpmpipe rtl verify` runs |\n"
                "| tb_icarus.v, tb_cfg.vh | the Icarus Verilog testbench (results only) |\n"
                "| Makefile | `make lint`, `make tb` (Verilator), `make icarus` |\n\n");
    fprintf(fp,
            "## Ports of lpm_top (W = %u lanes)\n\n"
            "| port | width | meaning |\n|---|---|---|\n"
            "| clk, rst | 1 | clock; synchronous reset, active high. Memories use the falling edge. |\n"
            "| req_valid / req_ready | W | request lanes, taken in lane order (lane i only with lanes < i) |\n"
            "| req_id | W x %u | request id; with a reorder buffer ids must count 0, 1, 2, ... |\n"
            "| req_key | W x %u | the address, MSB first |\n"
            "| bub_valid / bub_ready | W | update bubbles, one a cycle (lane 0; other lanes are never ready), taken before requests |\n"
            "| bub_data | W x %u | per stage s: {word %u, addr %u, we} at s x %u, then {entry %u, index %u, we} for the DIT |\n"
            "| res_valid, res_id, res_nhv, res_nh | %u lanes | results: id, next-hop index (res_nhv 0: no route); no back-pressure |\n"
            "| busy | 1 | items in flight |\n"
            "| dbg_* | | what a cycle did, for the testbench's cycle log |\n\n",
            sh->w, sh->id, sh->kb, sh->bw, sh->wb, sh->ab, sh->bsw, sh->db, sh->xi, sh->l);
    fprintf(fp,
            "## Latency\n\n"
            "A request taken in cycle t reads the direct index table in t, enters its\n"
            "stage (a linear pipeline: stage 0) in t+1 at the earliest and, after r stage\n"
            "reads without waiting, leaves in t+r (a linear pipeline: t+N; a table\n"
            "answer: t+1 with the reorder buffer's release). The exact rules (the\n"
            "one-cycle rules, --hop-cycles 1), including queues and stalls:\n"
            "docs/microarchitecture.md.\n\n"
            "## Parameters\n\n"
            "lpm_core takes N=%u RING=%u Q=%u W=%u R=%u KB=%u ID=%u SB=%u AB=%u NB=%u PB=%u\n"
            "WB=%u XI=%u DB=%u BQB=%u; an item (one queue entry or stage register) is %u bits.\n",
            sh->n, sh->ring, sh->q, sh->w, sh->r, sh->kb, sh->id, sh->sb, sh->ab, sh->nb, sh->pb, sh->wb, sh->xi,
            sh->db, sh->bqb, sh->iw);
    return lpm_rtl_close(fp, dir, "README.md", err);
}

static int write_makefile(const lpm_rtl_shape *sh, const char *dir, const char *header, lpm_err *err)
{
    FILE *fp;
    int rc = lpm_rtl_open(&fp, dir, "Makefile", header, "#", err);
    if (rc)
        return rc;
    fprintf(fp, "SRCS := lpm_top.v lpm_core.v lpm_dit.v");
    for (unsigned s = 0; s < sh->n; s++)
        fprintf(fp, " lpm_stage_%02u.v", s);
    fprintf(fp,
            "\nVERILATOR ?= verilator\nIVERILOG ?= iverilog\nJOBS ?= 2\n"
            "# the waivers: docs/cli-rtl.md\n"
            "VFLAGS := -Wall -Wno-DECLFILENAME -Wno-UNUSEDSIGNAL -Wno-UNUSEDPARAM --top-module lpm_top\n\n"
            ".PHONY: all lint tb icarus\nall: lint\n\n"
            "lint:\n\t$(VERILATOR) --lint-only $(VFLAGS) $(SRCS)\n\n"
            "# TRACE=--trace: a second model that can write a VCD, in its own folder\n"
            "MDIR := obj_dir$(if $(TRACE),_vcd,)\n"
            "tb: $(MDIR)/Vlpm_top\n\n"
            "$(MDIR)/Vlpm_top: $(SRCS) tb.cpp tb_cfg.h\n"
            "\t$(VERILATOR) --cc --exe --build -j $(JOBS) -O3 -Wno-fatal $(VFLAGS) $(TRACE) --Mdir $(MDIR) \\\n"
            "\t    -CFLAGS \"-O1 -DTB_VCD=$(if $(TRACE),1,0)\" $(SRCS) tb.cpp -o Vlpm_top\n\n"
            "icarus: tb_icarus.vvp\n\n"
            "tb_icarus.vvp: $(SRCS) tb_icarus.v tb_cfg.vh\n\t$(IVERILOG) -g2005 -o $@ -s tb_icarus $(SRCS) tb_icarus.v\n");
    return lpm_rtl_close(fp, dir, "Makefile", err);
}

int lpm_rtl_generate(const lpm_image *img, const char *name, const lpm_rtl_opts *o, const char *dir, lpm_err *err)
{
    lpm_rtl_shape sh;
    int rc = lpm_rtl_shape_of(img, o, &sh, err);
    if (rc)
        return rc;
    if (mkdir(dir, 0777) && errno != EEXIST)
        return lpm_err_set(err, LPM_EFAIL, "%s: %s", dir, strerror(errno));
    const char *base = strrchr(name, '/');
    base = base ? base + 1 : name;
    char header[512];
    snprintf(header, sizeof header,
             "Generated by lpmpipe rtl from image %s: %s, %u stages, IPv%d.\n"
             "Options: --queue %u --issue-width %u --rob %u --hop-cycles %u --ports %u%s%s. Do not edit.\n",
             base, sh.ring ? "ring" : "linear", sh.n, lpm_image_family(img), sh.q, sh.w, sh.r, LPM_RTL_HOP, LPM_RTL_PORTS,
             o->mutate ? " --mutate " : "", o->mutate ? lpm_rtl_mutation_name(o->mutate) : "");
    if ((rc = lpm_rtl_emit_verilog(img, &sh, o, dir, header, err)))
        return rc;
    char hname[32];
    for (unsigned s = 0; s < sh.n; s++) {
        snprintf(hname, sizeof hname, "stage_%02u.hex", s);
        if ((rc = write_hex(dir, hname, sh.wb, lpm_image_stage_depth(img, s), img, (int)s, err)))
            return rc;
    }
    if ((rc = write_hex(dir, "dit.hex", sh.db, 1ULL << sh.x, img, -1, err)))
        return rc;
    FILE *fp;
    if ((rc = lpm_rtl_open(&fp, dir, "nexthops.txt", NULL, NULL, err)))
        return rc;
    const lpm_nhtab *nh = lpm_image_nhtab(img);
    for (size_t i = 0; i < nh->n; i++)
        fprintf(fp, "%zu %s\n", i, lpm_nhtab_name(nh, (uint32_t)i));
    if ((rc = lpm_rtl_close(fp, dir, "nexthops.txt", err)))
        return rc;
    if ((rc = write_cfg(&sh, dir, header, err)) || (rc = write_readme(img, &sh, dir, header, err)) ||
        (rc = write_makefile(&sh, dir, header, err)))
        return rc;
    if ((rc = lpm_rtl_open(&fp, dir, "tb.cpp", header, "//", err)))
        return rc;
    fputs(lpm_rtl_tb_cpp, fp);
    if ((rc = lpm_rtl_close(fp, dir, "tb.cpp", err)))
        return rc;
    if ((rc = lpm_rtl_open(&fp, dir, "tb_icarus.v", header, "//", err)))
        return rc;
    fputs(lpm_rtl_tb_icarus_v, fp);
    return lpm_rtl_close(fp, dir, "tb_icarus.v", err);
}
