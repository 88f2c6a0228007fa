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

/* bits lo .. lo+bits-1 of every word (a stage's whole word, or one part) */
static int write_hex(const char *dir, const char *name, unsigned lo, unsigned bits, uint64_t n, const lpm_image *img,
                     int stage, lpm_err *err)
{
    FILE *fp;
    int rc = lpm_rtl_open(&fp, dir, name, NULL, NULL, err);
    if (rc)
        return rc;
    int digits = (int)((bits + 3) / 4);
    uint64_t mask = bits >= 64 ? UINT64_MAX : (1ULL << bits) - 1;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t w = stage < 0 ? lpm_image_dit_entry(img, (uint32_t)i) : lpm_image_word(img, (unsigned)stage, (uint32_t)i);
        fprintf(fp, "%0*" PRIx64 "\n", digits, w >> lo & mask);
    }
    return lpm_rtl_close(fp, dir, name, err);
}

/* NAME.hex (the whole words: lpmpipe image hex's files) and, for a memory
 * held as parts (lpm_rtl_emit_mem_re), NAME_part_K.hex; memories.txt gets a
 * line "NAME DEPTH WIDTH PART_WIDTHS..." (scripts/synth-memories.sh). */
static int write_memory(FILE *lst, const char *dir, const char *name, uint64_t depth, unsigned width,
                        const lpm_image *img, int stage, lpm_err *err)
{
    char hname[48];
    unsigned parts[LPM_FPGA_MAX_PARTS];
    unsigned np = lpm_fpga_split(depth, width, parts);
    snprintf(hname, sizeof hname, "%s.hex", name);
    int rc = write_hex(dir, hname, 0, width, depth, img, stage, err);
    fprintf(lst, "%s %" PRIu64 " %u", name, depth, width);
    for (unsigned k = 0, lo = 0; k < np && !rc; lo += parts[k++]) {
        fprintf(lst, " %u", parts[k]);
        snprintf(hname, sizeof hname, "%s_part_%u.hex", name, k);
        if (np > 1)
            rc = write_hex(dir, hname, lo, parts[k], depth, img, stage, err);
    }
    fprintf(lst, "\n");
    return rc;
}

static int write_memories(const lpm_image *img, const lpm_rtl_shape *sh, const char *dir, const char *header,
                          lpm_err *err)
{
    FILE *lst;
    int rc = lpm_rtl_open(&lst, dir, "memories.txt", header, "#", err);
    if (rc)
        return rc;
    char name[32];
    for (unsigned s = 0; s < sh->n && !rc; s++) {
        snprintf(name, sizeof name, "stage_%02u", s);
        rc = write_memory(lst, dir, name, (uint64_t)sh->cp * lpm_image_stage_depth(img, s), sh->wb, img, (int)s, err);
    }
    if (!rc)
        rc = write_memory(lst, dir, "dit", (uint64_t)sh->cp << sh->x, sh->db, img, -1, err);
    int rc2 = lpm_rtl_close(lst, dir, "memories.txt", err);
    return rc ? rc : rc2;
}

static int write_cfg(const lpm_rtl_shape *sh, const char *dir, const char *header, lpm_err *err)
{
    FILE *fp;
    int rc = lpm_rtl_open(&fp, dir, "tb_cfg.h", header, "//", err);
    if (rc)
        return rc;
    const struct { const char *k; unsigned v; } kv[] = {
        { "N", sh->n },     { "P", sh->p },     { "D", sh->d },     { "Q", sh->q },     { "W", sh->w },
        { "RING", sh->ring }, { "L", sh->l },   { "NRL", sh->nrl }, { "T", sh->t },     { "TG", sh->tg },
        { "BQB", sh->bqb }, { "KB", sh->kb },   { "XI", sh->xi },   { "DB", sh->db },   { "AW", sh->aw },
        { "WB", sh->wb },   { "NB", sh->nb },   { "SB", sh->sb },   { "QCB", sh->qcb }, { "SLW", sh->slw },
        { "WTW", sh->wtw }, { "BSW", sh->bsw }, { "BW", sh->bw },   { "CP", sh->cp },   { "BF", sh->bf },
    };
    for (size_t i = 0; i < sizeof kv / sizeof kv[0]; i++)
        fprintf(fp, "#define TB_%s %uu\n", kv[i].k, kv[i].v);
    if (sh->f) /* the credit rules (tb.cpp: the log's R part and fetch events) */
        fprintf(fp, "#define TB_FIFO %uu\n", sh->f);
    /* the cycle log header, from the one function that writes it for the simulator too */
    lpm_sim_log_hdr h = { sh->n, (int)sh->ring, sh->q, sh->w, 0, 0, sh->d, sh->p, sh->f, (int)sh->dq };
    char line[256];
    lpm_sim_log_header(line, sizeof line, &h);
    fprintf(fp, "#define TB_LOG_HEADER \"%s\"\n", line);
    if ((rc = lpm_rtl_close(fp, dir, "tb_cfg.h", err)) || (rc = lpm_rtl_open(&fp, dir, "tb_cfg.vh", header, "//", err)))
        return rc;
    for (size_t i = 0; i < sizeof kv / sizeof kv[0]; i++)
        fprintf(fp, "localparam TB_%s = %u;\n", kv[i].k, kv[i].v);
    if ((rc = lpm_rtl_close(fp, dir, "tb_cfg.vh", err)) || (rc = lpm_rtl_open(&fp, dir, "lpm_item.vh", header, "//", err)))
        return rc;
    lpm_rtl_emit_item_vh(fp, sh);
    return lpm_rtl_close(fp, dir, "lpm_item.vh", err);
}

/* The README of a pipeline under the credit rules (docs/microarchitecture.md 4.1). */
static int write_readme_credit(const lpm_image *img, const lpm_rtl_shape *sh, const char *dir, FILE *fp, lpm_err *err)
{
    fprintf(fp,
            "A write-bubble linear pipeline of %u stages for IPv%d keys (%u bits), initial\n"
            "stride %u, built to the credit rules of lpmpipe's docs/microarchitecture.md\n"
            "section 4.1: a hop takes %u clocks, every memory reads and writes on the rising\n"
            "edge, every item enters at stage 0 and moves on one stage every %u cycles, and\n"
            "results leave in input order through a result FIFO; %u result credits. `lpmpipe\n"
            "rtl verify` proves this Verilog reproduces the simulator's cycle log (`lpmpipe\n"
            "sim --hop-cycles %u --result-fifo %u`).\n\n",
            sh->n, lpm_image_family(img), sh->kb, sh->x, sh->d, sh->d, sh->f, sh->d, sh->f);
    fprintf(fp, "## Files\n\n"
                "| file | what |\n|---|---|\n"
                "| lpm_top.v | the top module: the ports below |\n"
                "| lpm_pipe.v | the wiring, with the debug signals the testbenches log |\n"
                "| lpm_credit.v | request and bubble ports, result credits, the DIT pipeline (lpm_cctl); the result FIFO and its output (lpm_rfifo) |\n"
                "| lpm_dit.v | the direct index table (dit.hex) and lpm_entry (a request's first item) |\n"
                "| lpm_stage_NN.v | one module per stage: memory (stage_NN.hex), hop registers, decision |\n"
                "| lpm_ctl.v, lpm_queue.v, lpm_rlane.v | the small kept cells the stages use (the window rules' modules are not instantiated) |\n"
                "| lpm_item.vh | every width and item field position of this instance |\n"
                "| lpm_tb_top.v, tb.cpp, tb_cfg.h, ready.h | the Verilator testbench `lpmpipe rtl verify` runs |\n"
                "| tb_icarus.v, tb_cfg.vh | the Icarus Verilog testbench |\n"
                "| lpm_ice40_brams.txt, lpm_ice40_brams_map.v | the iCE40 block RAM library of `make gate` and `lpmpipe rtl synth` (not part of the design) |\n"
                "| Makefile | `make lint`, `make tb` (Verilator), `make icarus` |\n\n");
    fprintf(fp,
            "## Ports of lpm_top\n\n"
            "| port | width | meaning |\n|---|---|---|\n"
            "| clk, rst | 1 | clock (every register and memory on the rising edge); synchronous reset, active high |\n"
            "| req_valid / req_ready | 1 | a request; req_ready is a register of the credits (at least three free) and the bubble's entry |\n"
            "| req_tag | %u | the request's tag, returned with its result: no two requests in flight may share one (%u tags cover everything in flight) |\n"
            "| req_key | %u | the address, MSB first |\n"
            "| bub_valid / bub_ready | 1 | an update bubble: bub_valid and bub_data held until bub_ready; the bubble enters in the cycle of bub_ready, which takes no request |\n"
            "| bub_data | %u | per stage s at s x %u: {word %u, address %u, write enable}; then {entry %u, index %u, write enable} for the DIT |\n"
            "| res_valid, res_tag, res_nhv, res_nh | 1 | the results in input order (next-hop index; res_nhv 0: no route) |\n"
            "| res_ready | 1 | the result leaves in a cycle with res_valid and res_ready high |\n"
            "| busy | 1 | items in flight: registered, never low while an item is in flight |\n\n",
            sh->t, 1u << sh->t, sh->kb, sh->bw, sh->bsw, sh->wb, sh->aw, sh->db, sh->xi);
    fprintf(fp,
            "## Latency\n\n"
            "A request taken in cycle t reads the direct index table in t, holds stage 0 in\n"
            "t+%u and stage s in t+%u(s+1), exits at the last stage in t+%u(N+1)-1 and is at\n"
            "the result port from t+%u(N+1)+3 on (later only when res_ready was low). The\n"
            "exact rules: docs/microarchitecture.md section 4.1.\n\n"
            "## Sizes\n\n"
            "An item (hop register) is %u bits. Result FIFO of %u entries; bubble tables of\n"
            "%u entries.\n",
            sh->d, sh->d, sh->d, sh->d, sh->iw, 1u << sh->rfb, 1u << sh->bqb);
    return lpm_rtl_close(fp, dir, "README.md", err);
}

static int write_readme(const lpm_image *img, const lpm_rtl_shape *sh, const char *dir, const char *header,
                        lpm_err *err)
{
    FILE *fp;
    int rc = lpm_rtl_open(&fp, dir, "README.md", NULL, NULL, err);
    if (rc)
        return rc;
    fprintf(fp, "# Generated pipeline\n\n```\n%s```\n\n", header);
    if (sh->f)
        return write_readme_credit(img, sh, dir, fp, err);
    fprintf(fp,
            "A %s pipeline of %u stages for IPv%d keys (%u bits), initial stride %u, built\n"
            "to the hardware cycle rules of lpmpipe's docs/microarchitecture.md: a hop takes\n"
            "%u clocks, every memory reads and writes on the rising edge, each stage serves\n"
            "%u item%s a cycle; per-stage queues of %u (%s), issue width %u. `lpmpipe rtl\n"
            "verify` proves this Verilog reproduces the simulator's cycle log\n"
            "(`lpmpipe sim --hop-cycles %u --ports %u --queue %u --issue-width %u`).\n\n",
            sh->ring ? "CAMP ring" : "write-bubble linear", sh->n, lpm_image_family(img), sh->kb, sh->x, sh->d, sh->p,
            sh->p > 1 ? "s" : "", sh->q, sh->ring ? "one per stage" : "queue 0 only", sh->w, sh->d, sh->p, sh->q, sh->w);
    fprintf(fp, "## Files\n\n"
                "| file | what |\n|---|---|\n"
                "| lpm_top.v | the top module: the ports below |\n"
                "| lpm_pipe.v | the wiring, with the debug signals the testbenches log |\n"
                "%s"
                "| lpm_queue.v, lpm_rlane.v | a stage queue (first word fall through), a result lane |\n"
                "| lpm_dit.v | the direct index table (dit.hex) and lpm_entry (a request's first item) |\n"
                "| lpm_stage_NN.v | one module per stage: memory (stage_NN.hex), hop registers, decision |\n"
                "| lpm_item.vh | every width and item field position of this instance |\n"
                "| lpm_tb_top.v, tb.cpp, tb_cfg.h, ready.h | the Verilator testbench `lpmpipe rtl verify` runs |\n"
                "| tb_icarus.v, tb_cfg.vh | the Icarus Verilog testbench |\n"
                "| lpm_ice40_brams.txt, lpm_ice40_brams_map.v | the iCE40 block RAM library of `make gate` and `lpmpipe rtl synth` (whole-word writes, no write mask; not part of the design) |\n"
                "| Makefile | `make lint`, `make tb` (Verilator), `make icarus` |\n\n",
                lpm_rtl_ctl3(sh) ? "| lpm_ctl3.v | request and bubble ports, DIT pipeline, dispatch window, dispatcher (one lane, D >= 3: items made before the window); with one port also lpm_queue3, the queues |\n"
                                   "| lpm_ctl.v | the small kept cells lpm_ctl3 and the stages use (its lpm_ctl is the D = 2 control, not instantiated) |\n"
                                 : "| lpm_ctl.v | request and bubble ports, DIT pipeline, dispatch window, dispatcher |\n");
    fprintf(fp,
            "## Ports of lpm_top\n\n"
            "| port | width | meaning |\n|---|---|---|\n"
            "| clk, rst | 1 | clock (every register and memory on the rising edge); synchronous reset, active high |\n"
            "| req_valid / req_ready | %u | request lanes, taken in lane order (lane i only with the lanes before it); req_ready comes from registered credits and is low while bub_valid is high |\n"
            "| req_tag | %u x %u | the request's tag, returned with its result: no two requests in flight may share one (%u tags cover everything in flight) |\n"
            "| req_key | %u x %u | the address, MSB first |\n"
            "| bub_valid / bub_ready | 1 | an update bubble; it takes the cycle alone (no request with it) |\n"
            "| bub_data | %u | per stage s at s x %u: {word %u, address %u, write enable}; then {entry %u, index %u, write enable} for the DIT |\n"
            "| res_valid, res_tag, res_nhv, res_nh | %u lanes | results (next-hop index; res_nhv 0: no route), one lane per stage lane%s and one per issue lane (DIT answers) |\n"
            "| res_ready | 1 | every valid result lane gives its result in a cycle with res_ready high |\n"
            "| busy | 1 | items in flight: registered, never low while an item is in flight; falls a few cycles (the depth of its OR tree, lpm_top.v) after the last one leaves or after the last req_valid or bub_valid |\n\n",
            sh->w, sh->w, sh->t, 1u << sh->t, sh->w, sh->kb, sh->bw, sh->bsw, sh->wb, sh->aw, sh->db, sh->xi, sh->l,
            sh->ring ? "" : " of the last stage");
    fprintf(fp,
            "## Latency\n\n"
            "A request taken in cycle t reads the direct index table in t, is pushed into\n"
            "its queue in t+%u, enters its stage in t+%u at the earliest and, after r stage\n"
            "reads without waiting, its result is at the result port in t+(r+1)x%u+1 (a\n"
            "linear pipeline: t+(N+1)x%u+1; a table answer: t+%u+1). The exact rules,\n"
            "including queues, stalls and back-pressure: docs/microarchitecture.md.\n\n"
            "## Sizes\n\n"
            "An item (queue entry, hop register) is %u bits: tag %u, next hop %u, stage %u,\n"
            "word address %u, bit position %u, key %u (the bits after the DIT; a bubble's\n"
            "word). Window %u entries; bubble tables of %u entries.\n",
            sh->d, sh->d + 1, sh->d, sh->d, sh->d, sh->iw, sh->tg, sh->nb, sh->sb, sh->aw, sh->pb, sh->kp, sh->c,
            1u << sh->bqb);
    return lpm_rtl_close(fp, dir, "README.md", err);
}

static int write_makefile(const lpm_rtl_shape *sh, const char *dir, const char *header, lpm_err *err)
{
    FILE *fp;
    int rc = lpm_rtl_open(&fp, dir, "Makefile", header, "#", err);
    if (rc)
        return rc;
    fprintf(fp, "CORE := lpm_pipe.v lpm_ctl.v lpm_queue.v lpm_rlane.v lpm_dit.v%s",
            sh->f ? " lpm_credit.v" : lpm_rtl_ctl3(sh) ? " lpm_ctl3.v" : "");
    for (unsigned s = 0; s < sh->n; s++)
        fprintf(fp, " lpm_stage_%02u.v", s);
    fprintf(fp,
            "\nSRCS := lpm_top.v $(CORE)\nTB_SRCS := lpm_tb_top.v $(CORE)\n"
            "VERILATOR ?= verilator\nIVERILOG ?= iverilog\nJOBS ?= 2\n"
            "YOSYS_DAT ?= $(shell yosys-config --datdir 2>/dev/null || echo /usr/share/yosys)\n"
            "# the waivers: docs/cli-rtl.md\n"
            "VFLAGS := -Wall -Wno-DECLFILENAME -I.\n\n"
            ".PHONY: all lint tb cosim icarus gate\nall: lint\n\n"
            "lint:\n\t$(VERILATOR) --lint-only $(VFLAGS) --top-module lpm_top $(SRCS)\n"
            "\t$(VERILATOR) --lint-only $(VFLAGS) --top-module lpm_tb_top $(TB_SRCS)\n\n"
            "# TRACE=--trace: a second model that can write a VCD, in its own folder\n"
            "MDIR := obj_dir$(if $(TRACE),_vcd,)\n"
            "tb: $(MDIR)/Vlpm_tb_top\n\n"
            "$(MDIR)/Vlpm_tb_top: $(TB_SRCS) lpm_item.vh tb.cpp tb_cfg.h ready.h\n"
            "\t$(VERILATOR) --cc --exe --build -j $(JOBS) -O3 -Wno-fatal $(VFLAGS) --top-module lpm_tb_top $(TRACE) \\\n"
            "\t    --Mdir $(MDIR) -CFLAGS \"-O1 -DTB_VCD=$(if $(TRACE),1,0)\" $(TB_SRCS) tb.cpp -o Vlpm_tb_top\n\n"
            "# the same testbench as a shared library stepped by lpmpipe model verify --cosim\n"
            "cosim: obj_dir_so/libVlpm_tb.so\n\n"
            "obj_dir_so/libVlpm_tb.so: $(TB_SRCS) lpm_item.vh tb.cpp tb_cfg.h ready.h\n"
            "\t$(VERILATOR) --cc --exe --build -j $(JOBS) -O3 -Wno-fatal $(VFLAGS) --top-module lpm_tb_top \\\n"
            "\t    --Mdir obj_dir_so -CFLAGS \"-O1 -fPIC -fvisibility=hidden -DTB_LIB -DTB_VCD=0\" -LDFLAGS -shared \\\n"
            "\t    $(TB_SRCS) tb.cpp -o libVlpm_tb.so\n\n"
            "icarus: tb_icarus.vvp\n\n"
            "tb_icarus.vvp: $(TB_SRCS) lpm_item.vh tb_icarus.v tb_cfg.vh\n"
            "\t$(IVERILOG) -g2005 -I. -o $@ -s tb_icarus $(TB_SRCS) tb_icarus.v\n\n"
            "# the gate-level check: the Yosys iCE40 netlist under Icarus with the cell models\n"
            "gate: gate.vvp\n\n"
            "gate.v: $(TB_SRCS) lpm_item.vh lpm_ice40_brams.txt lpm_ice40_brams_map.v\n"
            "\tyosys -q -l gate_yosys.log -p 'read_verilog -I. $(TB_SRCS); " LPM_RTL_ICE40_SYNTH("lpm_tb_top")
            "; write_verilog -noattr gate.v'\n\n"
            "gate.vvp: gate.v tb_icarus.v tb_cfg.vh\n"
            "\t$(IVERILOG) -g2012 -DNO_ICE40_DEFAULT_ASSIGNMENTS -I. -o $@ -s tb_icarus gate.v tb_icarus.v \\\n"
            "\t    $(YOSYS_DAT)/ice40/cells_sim.v\n");
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
    char header[512], rule_opt[32] = "";
    if (sh.f)
        snprintf(rule_opt, sizeof rule_opt, " --result-fifo %u", sh.f);
    else if (sh.dq)
        snprintf(rule_opt, sizeof rule_opt, " --dit-answers queue");
    snprintf(header, sizeof header,
             "Generated by lpmpipe rtl from image %s: %s, %u stages, IPv%d.\n"
             "Options: --hop-cycles %u --ports %u --queue %u --issue-width %u%s%s%s. Do not edit.\n",
             base, sh.ring ? "ring" : "linear", sh.n, lpm_image_family(img), sh.d, sh.p, sh.q, sh.w, rule_opt,
             o->mutate ? " --mutate " : "", o->mutate ? lpm_rtl_mutation_name(o->mutate) : "");
    if ((rc = lpm_rtl_emit_stages(img, &sh, dir, header, err)) || (rc = lpm_rtl_emit_dit(img, &sh, dir, header, err)) ||
        (rc = lpm_rtl_emit_pipe(&sh, dir, header, err)))
        return rc;
    if ((rc = write_memories(img, &sh, dir, header, err)))
        return rc;
    FILE *fp;
    if ((rc = lpm_rtl_open(&fp, dir, "nexthops.txt", NULL, NULL, err)))
        return rc;
    const lpm_nhtab *nh = lpm_image_nhtab(img);
    for (size_t i = 0; i < nh->n; i++)
        fprintf(fp, "%zu %s\n", i, lpm_nhtab_name(nh, (uint32_t)i));
    if ((rc = lpm_rtl_close(fp, dir, "nexthops.txt", err)))
        return rc;
    const struct { const char *name, *cm, *text; } fixed[] = {
        { "lpm_ctl.v", "//", lpm_rtl_lpm_ctl_v },   { "lpm_queue.v", "//", lpm_rtl_lpm_queue_v },
        { "lpm_rlane.v", "//", lpm_rtl_lpm_rlane_v }, { "tb.cpp", "//", lpm_rtl_tb_cpp },
        { "tb_icarus.v", "//", lpm_rtl_tb_icarus_v }, { "ready.h", "//", lpm_rtl_ready_h },
    };
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
        if ((rc = lpm_rtl_write_text(dir, fixed[i].name, header, fixed[i].cm, fixed[i].text, err)))
            return rc;
    if (sh.f && (rc = lpm_rtl_write_text(dir, "lpm_credit.v", header, "//", lpm_rtl_lpm_credit_v, err)))
        return rc;
    if (lpm_rtl_ctl3(&sh) && (rc = lpm_rtl_write_text(dir, "lpm_ctl3.v", header, "//", lpm_rtl_lpm_ctl3_v, err)))
        return rc;
    if ((rc = lpm_rtl_write_ice40_lib(dir, header, err)))
        return rc;
    if ((rc = write_cfg(&sh, dir, header, err)) || (rc = write_readme(img, &sh, dir, header, err)))
        return rc;
    return write_makefile(&sh, dir, header, err);
}
