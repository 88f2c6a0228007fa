/* The pipeline's wiring: lpm_pipe (control, DIT, queues, stages, result
 * lanes, and the debug signals the testbenches log), lpm_top (the
 * production ports only, and busy's register tree) and lpm_tb_top (the
 * testbench wrapper with the debug ports and both busy flags). */
#include <stdio.h>
#include <string.h>

#include "rtl_gen_int.h"

static const char *port_names[] = { "clk", "rst", "req_valid", "req_ready", "req_tag", "req_key", "bub_valid",
                                    "bub_ready", "bub_data", "res_valid", "res_tag", "res_nhv", "res_nh", "res_ready",
                                    "bflag" };
static const char *dbg_names[] = { "dbg_slot", "dbg_pop", "dbg_qn", "dbg_act", "dbg_wtok", "dbg_stall",
                                   "dbg_stall_stg", "dbg_exit", "dbg_exit_tag" };

/* lpm_top's busy: the flags ORed by a tree of registers, pairs first (a
 * flag is one or two registers), then fours, so each level is one LUT from
 * registers. The tree lags the flags by its depth LV, so a request or
 * bubble offered in the last LV cycles holds busy high too (nothing enters
 * but by an offer): busy is never low while an item is in flight, and falls
 * at most LV cycles after the last one leaves. */
static void emit_busy_tree(FILE *fp, const lpm_rtl_shape *sh, const char *out)
{
    unsigned nf = lpm_rtl_busy_flags(sh), n = (nf + 1) / 2, lv = 1;
    fprintf(fp,
            "    // busy: the flags ORed by a tree of registers (pairs, then fours: one\n"
            "    // LUT a level); it lags them by the depth, so an offer in as many\n"
            "    // cycles before holds it high too (docs/cli-rtl.md, \"busy\")\n"
            "    reg [%u:0] bz1;\n"
            "    always @(posedge clk) begin\n",
            n - 1);
    for (unsigned i = 0; i < n; i++)
        fprintf(fp, "        bz1[%u] <= ~rst & (|bflag[%u:%u]);\n", i, 2 * i + 1 < nf ? 2 * i + 1 : 2 * i, 2 * i);
    fprintf(fp, "    end\n");
    while (n > 1) {
        unsigned m = (n + 3) / 4;
        fprintf(fp, "    reg [%u:0] bz%u;\n    always @(posedge clk) begin\n", m - 1, lv + 1);
        for (unsigned i = 0; i < m; i++)
            fprintf(fp, "        bz%u[%u] <= ~rst & (|bz%u[%u:%u]);\n", lv + 1, i, lv, 4 * i + 3 < n ? 4 * i + 3 : n - 1,
                    4 * i);
        fprintf(fp, "    end\n");
        n = m;
        lv++;
    }
    unsigned rb = 1;
    while ((1u << rb) <= lv)
        rb++;
    int early = sh->mutate == LPM_RTL_MUT_BUSY_EARLY;
    fprintf(fp,
            "    reg [%u:0] brc;   // cycles left of the last offer's hold\n"
            "    always @(posedge clk)\n"
            "        brc <= rst ? %u'd0 : ((|req_valid) | bub_valid) ? %u'd%u : brc - {%u'd0, brc != %u'd0};%s\n"
            "    assign %s = bz%u[0] | (brc != %u'd0);\n",
            rb - 1, rb, rb, early ? 1 : lv, rb - 1, rb, early ? " // planted fault: busy-early" : "", out, lv, rb);
}

static void emit_wrapper(FILE *fp, const lpm_rtl_shape *sh, int dbg)
{
    if (dbg)
        fprintf(fp, "// The testbench wrapper: lpm_pipe with the signals the cycle log needs.\n");
    else
        fprintf(fp, "// The pipeline: ports and latency in README.md.\n");
    lpm_rtl_emit_pipe_ports(fp, sh, dbg, 0, dbg ? "lpm_tb_top" : "lpm_top");
    if (!dbg)
        fprintf(fp, "    // the debug signals stay inside: nothing here drives or reads them\n"
                    "    /* verilator lint_off PINCONNECTEMPTY */\n");
    fprintf(fp, "    wire [%u:0] bflag;\n", lpm_rtl_busy_flags(sh) - 1);
    fprintf(fp, "    lpm_pipe p (");
    for (size_t i = 0; i < sizeof port_names / sizeof port_names[0]; i++)
        fprintf(fp, "%s.%s(%s)", i ? ", " : "", port_names[i], port_names[i]);
    for (size_t i = 0; i < sizeof dbg_names / sizeof dbg_names[0] + (sh->f != 0); i++) {
        const char *nm = i < sizeof dbg_names / sizeof dbg_names[0] ? dbg_names[i] : "dbg_fetch";
        if (dbg)
            fprintf(fp, ",\n        .%s(%s)", nm, nm);
        else
            fprintf(fp, ",\n        .%s()", nm);
    }
    fprintf(fp, ");\n");
    if (!dbg)
        fprintf(fp, "    /* verilator lint_on PINCONNECTEMPTY */\n");
    if (dbg) /* the exact busy for the testbenches' end of run, the registered one checked against it */
        fprintf(fp, "    assign busy = |bflag;\n");
    emit_busy_tree(fp, sh, dbg ? "dbg_busy_r" : "busy");
    fprintf(fp, "endmodule\n");
}

/* Result lane l: stage lanes (ring: stage s lane p at s*P+p; linear: stage
 * N-1's lanes), then the W dispatch-slot lanes of DIT answers. */
static void emit_rlanes(FILE *fp, const lpm_rtl_shape *sh)
{
    fprintf(fp, "%s    wire [%u:0] rl_push, rl_pf, rl_pr, rl_pc, rl_room;\n    wire [%u:0] rl_din, rl_dout;\n%s",
            sh->dq ? "    /* verilator lint_off UNUSEDSIGNAL */ // --dit-answers queue: the answers' lanes take nothing\n" : "",
            sh->l - 1, sh->l * sh->rdw - 1, sh->dq ? "    /* verilator lint_on UNUSEDSIGNAL */\n" : "");
    fprintf(fp, "    assign rl_push = {dex_v, st_ex_v};\n"
                "    assign rl_pf = {dex_v, st_ex_f};\n    assign rl_pr = {{W{1'b0}}, st_ex_r};\n"
                "    assign rl_pc = {{W{1'b1}}, st_ex_c};\n"
                "    assign rl_din = {dex_d, st_ex_d};\n");
    fprintf(fp, "    assign drl_room = rl_room[%u:%u];\n", sh->l - 1, sh->nrl);
    if (sh->dq) /* DIT answers through queue 0: the answers' lanes stay empty */
        fprintf(fp,
                "    assign res_valid[L-1:NRL] = {W{1'b0}};\n"
                "    assign rl_room[L-1:NRL] = {W{1'b1}};\n"
                "    assign rl_dout[L*RDW-1:NRL*RDW] = {W*RDW{1'b0}};\n"
                "    assign res_tag[L*T-1:NRL*T] = {W*T{1'b0}};\n"
                "    assign res_nhv[L-1:NRL] = {W{1'b0}};\n"
                "    assign res_nh[L*NB-1:NRL*NB] = {W*NB{1'b0}};\n"
                "    assign dbg_exit_tag[L*T-1:NRL*T] = {W*T{1'b0}};\n");
    fprintf(fp,
            "    genvar gl;\n"
            "    generate\n"
            "        for (gl = 0; gl < %s; gl = gl + 1) begin : g_rl\n"
            "            lpm_rlane #(.EX(RING != 0 && gl < NRL)) r (.clk(clk), .rst(rst), .push(rl_push[gl]), .pf(rl_pf[gl]), .pr(rl_pr[gl]),\n"
            "                .pc(rl_pc[gl]), .din(rl_din[gl*RDW +: RDW]),\n"
            "                .ready(res_ready), .valid(res_valid[gl]), .dout(rl_dout[gl*RDW +: RDW]), .room(rl_room[gl]));\n"
            "            assign res_tag[gl*T +: T] = rl_dout[gl*RDW +: T];\n"
            "            assign res_nhv[gl] = rl_dout[gl*RDW + T];\n"
            "            assign res_nh[gl*NB +: NB] = rl_dout[gl*RDW + T + 1 +: NB];\n"
            "            assign dbg_exit_tag[gl*T +: T] = rl_din[gl*RDW +: T];\n"
            "        end\n"
            "    endgenerate\n"
            "    assign dbg_exit = rl_push;\n",
            sh->dq ? "NRL" : "L");
}

static void emit_pipe(FILE *fp, const lpm_rtl_shape *sh)
{
    unsigned w = sh->w, pw = sh->p * sh->iw;
    fprintf(fp, "// The pipeline with its debug signals: lpm_top and lpm_tb_top wrap it.\n");
    lpm_rtl_emit_pipe_ports(fp, sh, 1, 1, "lpm_pipe");
    fprintf(fp,
            "`include \"lpm_item.vh\"\n"
            "    wire dit_we, bt_we, bub_ok;\n"
            "    wire [XI-1:0] dit_widx;\n"
            "    wire [DB-1:0] dit_wdata;\n"
            "    wire [BQB-1:0] bt_idx;\n"
            "%s"
            "    wire [W*DB-1:0] dit_rdata;\n"
            "    wire [NQ-1:0] qnz;\n"
            "%s"
            "%s"
            "    wire [NQ*W-1:0] qroom;\n"
            "    wire [NQ*QCB-1:0] qcnt_next;\n"
            "    wire [NQ*W*IW-1:0] qpush_item;\n"
            "    wire [NQ*WNB-1:0] qpush_n, qres_n;\n"
            "    wire [NQ-1:0] qpush_w;\n"
            "    wire [NQ*2-1:0] pop_n;\n"
            "    wire [NQ*%u-1:0] qhead;\n"
            "    wire [W-1:0] drl_room, dex_v;\n"
            "    wire [W*RDW-1:0] dex_d;\n"
            "    wire [NRL-1:0] st_ex_v, st_ex_f, st_ex_r, st_ex_c;   // the exits, and in parts for the lanes' room\n"
            "    wire [NRL*RDW-1:0] st_ex_d;\n"
            "    wire [N*%u-1:0] hop;\n"
            "    wire [NQ*(%s)-1:0] hvc;   // per queue: copies of the valid bit of the hop into its stage\n"
            "    wire [NQ*Q-1:0] hvb, hvw;   // (ring) its parts: valid = hvc | hvb & hvw for an entry's copy\n"
            "    wire [N*%u-1:0] st_busy;\n"
            "    wire [1:0] ctl_busy;\n",
            lpm_rtl_ctl3(sh) ? /* lpm_ctl3 makes the item itself: its key and tag go to no lpm_entry here */
            "    wire [W*KR-1:0] req_rest;\n"
            "    /* verilator lint_off UNUSEDSIGNAL */\n"
            "    wire [W*KR-1:0] ent_key;\n"
            "    wire [W*T-1:0] ent_tag;\n"
            "    /* verilator lint_on UNUSEDSIGNAL */\n"
            "    wire [W*IW-1:0] ent_item;\n"
            : "    wire [W*KR-1:0] ent_key, req_rest;\n"
              "    wire [W*T-1:0] ent_tag;\n"
              "    wire [W*IW-1:0] ent_item;\n",
            sh->p > 1 ? "    wire [NQ-1:0] qn2;\n"
                      : "    /* verilator lint_off UNUSEDSIGNAL */ // one lane: the second entry is never taken\n"
                        "    wire [NQ-1:0] qn2;\n    /* verilator lint_on UNUSEDSIGNAL */\n",
            sh->nq > 1 ? "    /* verilator lint_off UNUSEDSIGNAL */ // only queue 0 holds bubbles\n"
                         "    wire [NQ-1:0] qhw;\n    /* verilator lint_on UNUSEDSIGNAL */\n"
                       : "    wire [NQ-1:0] qhw;\n",
            pw, pw, lpm_rtl_hvc(sh), sh->p * sh->d);
    if (sh->n >= 3) /* stages 0..N-3: the bubble number each decides (the next one's bubble table read) */
        fprintf(fp, "    wire [%u:0] bt_rn;\n", (sh->n - 2) * sh->bqb - 1);
    /* D >= 3, the late bubble (docs/microarchitecture.md): taken in one
     * cycle (bd, a register of the port, the copy rules and the window's
     * room, which the control gives as its bub_ready with bub_ok 1), the
     * bubble is offered to the control in the next as bub_valid = bd, so
     * its take and the DIT's and bubble tables' write enables are a LUT of
     * registers (bd and the window's room, which the take cannot lack),
     * no longer of the port and the copy rules; requests are held off in
     * both cycles. At D = 2 the control takes the port as it is (its
     * netlist, and the figures of docs/results-rtl.md, unchanged). */
    int late = sh->d >= 3;
    if (late)
        fprintf(fp,
                "    wire bhold = bub_valid & bub_ok;   // a bubble is taken now: no request\n"
                "    wire [W-1:0] creq_valid = req_valid & {W{~bhold}};\n"
                "    wire [W-1:0] creq_ready;\n"
                "    assign req_ready = creq_ready & {W{~bhold}};\n"
                "    wire croom;   // the window's room (the control's bub_ready, its bub_ok 1)\n"
                "    reg bd;       // the bubble taken last cycle enters now\n"
                "    always @(posedge clk)\n"
                "        bd <= rst ? 1'b0 : bhold & croom & ~bd;\n"
                "    assign bub_ready = bd;\n");
    if (lpm_rtl_ctl3(sh)) /* the control's bubble word a register: its DIT write one LUT from registers */
        fprintf(fp,
                "    reg [BW-1:0] bdat;   // the port holds bub_data until bub_ready (bd): the same word in bd's cycle\n"
                "    always @(posedge clk)\n"
                "        bdat <= bub_data;\n");
    fprintf(fp,
            "    %s ctl (.clk(clk), .rst(rst), .req_valid(%s), .req_ready(%s), .req_tag(req_tag),\n"
            "        .req_rest(req_rest), .bub_valid(%s), .bub_ok(%s), .bub_ready(%s), .bub_data(%s),\n"
            "        .dit_we(dit_we), .dit_widx(dit_widx), .dit_wdata(dit_wdata), .bt_we(bt_we), .bt_idx(bt_idx),\n"
            "        .ent_key(ent_key), .ent_tag(ent_tag), .ent_item(ent_item), .qroom(qroom), .qres_n(qres_n),\n"
            "        .qpush_item(qpush_item), .qpush_n(qpush_n), .qpush_w(qpush_w),\n"
            "        .drl_room(drl_room), .dex_v(dex_v), .dex_d(dex_d), .busy(ctl_busy),\n"
            "        .dbg_act(dbg_act), .dbg_wtok(dbg_wtok), .dbg_stall(dbg_stall), .dbg_stall_stg(dbg_stall_stg),\n"
            "        .dit_word(dit_rdata));\n"
            "    wire [W*XI-1:0] dit_idx;\n"
            "    lpm_dit dit (.clk(clk), .idx(dit_idx), .we(dit_we), .widx(dit_widx), .wdata(dit_wdata), .rdata(dit_rdata));\n",
            lpm_rtl_ctl3(sh) ? "lpm_ctl3" : "lpm_ctl", late ? "creq_valid" : "req_valid", late ? "creq_ready" : "req_ready",
            late ? "bd" : "bub_valid",
            late ? "1'b1" : "bub_ok", late ? "croom" : "bub_ready", lpm_rtl_ctl3(sh) ? "bdat" : "bub_data");
    for (unsigned k = 0; k < w; k++) {
        lpm_rtl_emit_dit_index(fp, sh, k);
        if (lpm_rtl_ctl3(sh)) { /* lpm_ctl3 makes the item itself (lpm_entry_u) */
            fprintf(fp, "    assign ent_item = {W*IW{1'b0}};\n");
            continue;
        }
        fprintf(fp, "    lpm_entry e%u (.e(dit_rdata[%u:%u]), .key(ent_key[%u:%u]), .tag(ent_tag[%u:%u]), .item(ent_item[%u:%u]));\n",
                k, k * sh->db + sh->db - 1, k * sh->db, k * sh->kr + sh->kr - 1, k * sh->kr, k * sh->t + sh->t - 1,
                k * sh->t, k * sh->iw + sh->iw - 1, k * sh->iw);
    }
    fprintf(fp,
            "    genvar gq;\n"
            "    generate\n"
            "        for (gq = 0; gq < NQ; gq = gq + 1) begin : g_q\n"
            "            %s q (.clk(clk), .rst(rst), .passc(hvc[gq*(%s) +: %s]),\n"
            "                .passb(hvb[gq*Q +: Q]), .passw(hvw[gq*Q +: Q]),\n"
            "                .push_item(qpush_item[gq*W*IW +: W*IW]),\n"
            "                .push_n(qpush_n[gq*WNB +: WNB]), .push_w(qpush_w[gq]),\n"
            "                .res_n(qres_n[gq*WNB +: WNB]), .pop_n(pop_n[gq*2 +: 2]), .head(qhead[gq*%u +: %u]),\n"
            "                .nz(qnz[gq]), .n2(qn2[gq]), .room(qroom[gq*W +: W]), .hw(qhw[gq]), .cnt_next(qcnt_next[gq*QCB +: QCB]));\n"
            "        end\n"
            "    endgenerate\n",
            lpm_rtl_queue3(sh) ? "lpm_queue3" : "lpm_queue", lpm_rtl_hvc(sh), lpm_rtl_hvc(sh), pw, pw);
    if (sh->nq < sh->n)
        fprintf(fp, "    assign dbg_qn = {%u'd0, qcnt_next};\n", (sh->n - sh->nq) * sh->qcb);
    else
        fprintf(fp, "    assign dbg_qn = qcnt_next;\n");
    for (unsigned s = 0; s < sh->n; s++)
        lpm_rtl_emit_stage_inst(fp, sh, s);
    emit_rlanes(fp, sh);
    lpm_rtl_emit_copy(fp, sh);
    fprintf(fp, "    assign bflag = {qnz, res_valid, st_busy, ctl_busy%s};\nendmodule\n", late ? " | {1'b0, bd}" : "");
}

int lpm_rtl_emit_pipe(const lpm_rtl_shape *sh, const char *dir, const char *header, lpm_err *err)
{
    static const char *const names[] = { "lpm_pipe.v", "lpm_top.v", "lpm_tb_top.v" };
    for (int i = 0; i < 3; i++) {
        FILE *fp;
        int rc = lpm_rtl_open(&fp, dir, names[i], header, "//", err);
        if (rc)
            return rc;
        if (i == 0 && sh->f)
            lpm_rtl_emit_pipe_credit(fp, sh);
        else if (i == 0)
            emit_pipe(fp, sh);
        else
            emit_wrapper(fp, sh, i == 2);
        if ((rc = lpm_rtl_close(fp, dir, names[i], err)))
            return rc;
    }
    return LPM_OK;
}
