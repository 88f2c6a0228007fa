/* The pipeline's wiring: lpm_pipe (control, DIT, queues, stages, result
 * lanes, and the debug signals the testbenches log), lpm_top (the
 * production ports only, and busy's register tree) and lpm_tb_top (the
 * testbench wrapper with the debug ports and both busy flags). */
#include <stdio.h>
#include <string.h>

#include "rtl_gen_int.h"

/* the pipeline's busy flags (lpm_pipe's bflag), each one register or two:
 * the DIT window's two (decided entries, occupancy), a stage lane's held
 * items (D each), the result lanes, the queues' "not empty" */
static unsigned busy_flags(const lpm_rtl_shape *sh)
{
    if (sh->f) /* the credit rules: the control's D + 2, the stages', the result FIFO's eight */
        return sh->d + 2 + sh->n * sh->p * sh->d + 8;
    return 2 + sh->n * sh->p * sh->d + sh->l + sh->nq;
}

/* pipe: lpm_pipe's ports, which end in the busy flags (bflag) that the tops
 * fold into busy */
void lpm_rtl_emit_pipe_ports(FILE *fp, const lpm_rtl_shape *sh, int dbg, int pipe, const char *name)
{
    char last[64];
    if (pipe)
        snprintf(last, sizeof last, "output wire [%u:0] bflag%s", busy_flags(sh) - 1, dbg ? "," : "");
    else
        snprintf(last, sizeof last, "output wire busy%s", dbg ? "," : "");
    fprintf(fp,
            "module %s (\n"
            "    input  wire clk,\n"
            "    input  wire rst,\n"
            "    input  wire [%u:0] req_valid,\n"
            "    output wire [%u:0] req_ready,\n"
            "    input  wire [%u:0] req_tag,\n"
            "    input  wire [%u:0] req_key,\n"
            "    input  wire bub_valid,\n"
            "    output wire bub_ready,\n"
            "    input  wire [%u:0] bub_data,\n"
            "    output wire [%u:0] res_valid,\n"
            "    output wire [%u:0] res_tag,\n"
            "    output wire [%u:0] res_nhv,\n"
            "    output wire [%u:0] res_nh,\n"
            "    input  wire res_ready,\n"
            "    %s\n",
            name, sh->w - 1, sh->w - 1, sh->w * sh->t - 1, sh->w * sh->kb - 1, sh->bw - 1, sh->l - 1,
            sh->l * sh->t - 1, sh->l - 1, sh->l * sh->nb - 1, last);
    if (dbg && !pipe)
        fprintf(fp, "    output wire dbg_busy_r,   // lpm_top's busy, for the testbench's check\n");
    if (dbg)
        fprintf(fp,
                "    output wire [%u:0] dbg_slot,\n"
                "    output wire [%u:0] dbg_pop,\n"
                "    output wire [%u:0] dbg_qn,\n"
                "    output wire [%u:0] dbg_act,\n"
                "    output wire [%u:0] dbg_wtok,\n"
                "    output wire [1:0] dbg_stall,\n"
                "    output wire [%u:0] dbg_stall_stg,\n"
                "    output wire [%u:0] dbg_exit,\n"
                "    output wire [%u:0] dbg_exit_tag%s\n",
                sh->n * sh->p * sh->slw - 1, sh->n * sh->p - 1, sh->n * sh->qcb - 1, sh->w * 2 - 1, sh->w * sh->wtw - 1,
                sh->sb - 1, sh->l - 1, sh->l * sh->t - 1, sh->f ? "," : "");
    if (dbg && sh->f)
        fprintf(fp, "    output wire dbg_fetch     // the credit rules: a result fetched from the FIFO\n");
    fprintf(fp, ");\n");
}

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
    unsigned nf = busy_flags(sh), n = (nf + 1) / 2, lv = 1;
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
    fprintf(fp, "    wire [%u:0] bflag;\n", busy_flags(sh) - 1);
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
    fprintf(fp, "    wire [%u:0] rl_push, rl_pf, rl_pr, rl_pc, rl_room;\n    wire [%u:0] rl_din, rl_dout;\n", sh->l - 1,
            sh->l * sh->rdw - 1);
    fprintf(fp, "    assign rl_push = {dex_v, st_ex_v};\n"
                "    assign rl_pf = {dex_v, st_ex_f};\n    assign rl_pr = {{W{1'b0}}, st_ex_r};\n"
                "    assign rl_pc = {{W{1'b1}}, st_ex_c};\n"
                "    assign rl_din = {dex_d, st_ex_d};\n");
    fprintf(fp, "    assign drl_room = rl_room[%u:%u];\n", sh->l - 1, sh->nrl);
    fprintf(fp,
            "    genvar gl;\n"
            "    generate\n"
            "        for (gl = 0; gl < L; gl = gl + 1) begin : g_rl\n"
            "            lpm_rlane #(.EX(RING != 0 && gl < NRL)) r (.clk(clk), .rst(rst), .push(rl_push[gl]), .pf(rl_pf[gl]), .pr(rl_pr[gl]),\n"
            "                .pc(rl_pc[gl]), .din(rl_din[gl*RDW +: RDW]),\n"
            "                .ready(res_ready), .valid(res_valid[gl]), .dout(rl_dout[gl*RDW +: RDW]), .room(rl_room[gl]));\n"
            "            assign res_tag[gl*T +: T] = rl_dout[gl*RDW +: T];\n"
            "            assign res_nhv[gl] = rl_dout[gl*RDW + T];\n"
            "            assign res_nh[gl*NB +: NB] = rl_dout[gl*RDW + T + 1 +: NB];\n"
            "            assign dbg_exit_tag[gl*T +: T] = rl_din[gl*RDW +: T];\n"
            "        end\n"
            "    endgenerate\n"
            "    assign dbg_exit = rl_push;\n");
}

void lpm_rtl_emit_stage_inst(FILE *fp, const lpm_rtl_shape *sh, unsigned s)
{
    unsigned prev = s ? s - 1 : sh->n - 1, pw = sh->p * sh->iw;
    int has_q = lpm_rtl_stage_has_q(sh, s), has_bt = s + 1 < sh->n, has_rl = sh->ring || s + 1 == sh->n;
    if (sh->f && s == 0) /* the credit rules: stage 0 holds the entry register's item */
        fprintf(fp, "    lpm_stage_00 s00 (.clk(clk), .rst(rst), .hin(ent),\n");
    else
        fprintf(fp, "    lpm_stage_%02u s%02u (.clk(clk), .rst(rst), .hin(hop[%u:%u]),\n", s, s, prev * pw + pw - 1, prev * pw);
    if (has_q) {
        unsigned q = sh->ring ? s : 0;
        fprintf(fp, "        .qhead(qhead[%u:%u]), .qnz(qnz[%u]),", q * pw + pw - 1, q * pw, q);
        if (s == 0)
            fprintf(fp, " .qhw(qhw[0]),");
        if (sh->p > 1)
            fprintf(fp, " .qn2(qn2[%u]),", q);
        fprintf(fp, " .pop_n(pop_n[%u:%u]), .dbg_pop(dbg_pop[%u:%u]),\n", q * 2 + 1, q * 2, s * sh->p + sh->p - 1,
                s * sh->p);
    }
    if (has_bt)
        fprintf(fp, "        .bt_we(bt_we), .bt_idx(bt_idx), .bt_data(bub_data[%u:%u]),\n", (s + 1) * sh->bsw + sh->bsw - 1,
                (s + 1) * sh->bsw);
    if (lpm_rtl_stage_bt_early(sh, s) && s == 0)
        fprintf(fp, "        .bt_ra(bt_ra0),\n");
    else if (lpm_rtl_stage_bt_early(sh, s))
        fprintf(fp, "        .bt_ra(bt_rn[%u*BQB +: BQB]),\n", s - 1);
    if (lpm_rtl_stage_gives_bt_ra(sh, s))
        fprintf(fp, "        .bt_rn(bt_rn[%u*BQB +: BQB]),\n", s);
    if (has_rl) {
        unsigned l0 = sh->ring ? s * sh->p : 0;
        fprintf(fp, "        .rl_room(rl_room[%u:%u]), .ex_v(st_ex_v[%u:%u]), .ex_f(st_ex_f[%u:%u]),\n"
                    "        .ex_r(st_ex_r[%u:%u]), .ex_c(st_ex_c[%u:%u]), .ex_d(st_ex_d[%u:%u]),\n",
                l0 + sh->p - 1, l0, l0 + sh->p - 1, l0, l0 + sh->p - 1, l0, l0 + sh->p - 1, l0, l0 + sh->p - 1, l0,
                (l0 + sh->p) * sh->rdw - 1, l0 * sh->rdw);
    }
    if (lpm_rtl_stage_feeds_q(sh, s)) {
        unsigned q = sh->ring ? (s + 1) % sh->n : 0; /* the queue it feeds */
        fprintf(fp, "        .hvc(hvc[%u*(Q+2) +: Q+2]), .hvb(hvb[%u*Q +: Q]), .hvw(hvw[%u*Q +: Q]),\n", q, q, q);
    }
    fprintf(fp, "        .hout(hop[%u:%u]), .busy(st_busy[%u:%u]), .dbg_slot(dbg_slot[%u:%u]));\n", s * pw + pw - 1, s * pw,
            (s + 1) * sh->p * sh->d - 1, s * sh->p * sh->d, (s + 1) * sh->p * sh->slw - 1, s * sh->p * sh->slw);
    if (!has_q)
        fprintf(fp, "    assign dbg_pop[%u:%u] = %u'd0;\n", s * sh->p + sh->p - 1, s * sh->p, sh->p);
}

/* The shadow copy (docs/microarchitecture.md, "Rebuilds and the swap"):
 * the DIT select `active`, set by a swap bubble as it is accepted; the
 * bubbles in flight (up at acceptance, down as one holds the last stage),
 * which a drain or swap bubble waits to be none; the lookups in flight by
 * the copy they read (up at acceptance, down at exit into a result lane),
 * which a fence bubble waits to be none for the inactive copy. Counts are
 * registers: the exits and departures of a cycle count from the next, as
 * in the simulator, where they come after the window's refill. */
/* Lane k's DIT index (the key's first bits, after the active copy) and the
 * key bits after them. */
void lpm_rtl_emit_dit_index(FILE *fp, const lpm_rtl_shape *sh, unsigned k)
{
    if (sh->cp > 1 && sh->x) /* {the active copy, the key's first x bits} */
        fprintf(fp, "    assign dit_idx[%u:%u] = {active, req_key[%u:%u]};\n", k * sh->xi + sh->xi - 1, k * sh->xi,
                k * sh->kb + sh->kb - 1, k * sh->kb + sh->kb - sh->x);
    else if (sh->cp > 1)
        fprintf(fp, "    assign dit_idx[%u] = active;\n", k);
    else if (sh->x)
        fprintf(fp, "    assign dit_idx[%u:%u] = req_key[%u:%u];\n", k * sh->xi + sh->xi - 1, k * sh->xi,
                k * sh->kb + sh->kb - 1, k * sh->kb + sh->kb - sh->x);
    else
        fprintf(fp, "    assign dit_idx[%u] = 1'b0;\n", k);
    fprintf(fp, "    assign req_rest[%u:%u] = req_key[%u:%u];\n", k * sh->kr + sh->kr - 1, k * sh->kr,
            k * sh->kb + sh->kr - 1, k * sh->kb);
}

void lpm_rtl_emit_copy(FILE *fp, const lpm_rtl_shape *sh)
{
    if (sh->cp < 2) {
        fprintf(fp, "    assign bub_ok = 1'b1;\n");
        return;
    }
    unsigned ls = (sh->n - 1) * sh->p * sh->slw;
    fprintf(fp,
            "    reg active;\n"
            "    reg [T:0] walk0, walk1, in0, in1, out0, out1;\n"
            "    reg [BQB:0] blive;\n"
            "    reg tcopy [0:%u];\n"
            "    wire [3:0] bfl = bub_data[BF +: 4]; // fence, drain, swap, the swap's copy\n"
            "    assign bub_ok = !((bfl[1] | (bfl[2] & %s)) && blive != {(BQB+1){1'b0}}) &&\n"
            "                    !(bfl[0] && (active ? walk0 : walk1) != {(T+1){1'b0}});\n"
            "    wire btake = bub_valid & bub_ready;\n"
            "    wire bleave = dbg_slot[%u] & dbg_slot[%u];\n"
            "    reg [W-1:0] cacc;\n"
            "    reg call;\n"
            "    integer ck;\n"
            "    always @* begin\n"
            "        call = 1'b1;\n"
            "        in0 = {(T+1){1'b0}};\n"
            "        in1 = {(T+1){1'b0}};\n"
            "        out0 = {(T+1){1'b0}};\n"
            "        out1 = {(T+1){1'b0}};\n"
            "        for (ck = 0; ck < W; ck = ck + 1) begin\n"
            "            call = call & req_valid[ck] & req_ready[ck];\n"
            "            cacc[ck] = call;\n"
            "            if (call) begin\n"
            "                if (active)\n"
            "                    in1 = in1 + 1'b1;\n"
            "                else\n"
            "                    in0 = in0 + 1'b1;\n"
            "            end\n"
            "        end\n"
            "        for (ck = 0; ck < L; ck = ck + 1)\n"
            "            if (rl_push[ck]) begin\n"
            "                if (tcopy[rl_din[ck*RDW +: T]])\n"
            "                    out1 = out1 + 1'b1;\n"
            "                else\n"
            "                    out0 = out0 + 1'b1;\n"
            "            end\n"
            "    end\n"
            "    always @(posedge clk) begin\n"
            "        for (ck = 0; ck < W; ck = ck + 1)\n"
            "            if (cacc[ck])\n"
            "                tcopy[req_tag[ck*T +: T]] <= active;\n"
            "        if (rst) begin\n"
            "            active <= 1'b%u;\n"
            "            walk0 <= {(T+1){1'b0}};\n"
            "            walk1 <= {(T+1){1'b0}};\n"
            "            blive <= {(BQB+1){1'b0}};\n"
            "        end else begin\n"
            "            walk0 <= walk0 + in0 - out0;\n"
            "            walk1 <= walk1 + in1 - out1;\n"
            "            blive <= blive + {{BQB{1'b0}}, btake} - {{BQB{1'b0}}, bleave};\n"
            "            if (btake & bfl[2])\n"
            "                active <= bfl[3];\n"
            "        end\n"
            "    end\n",
            (1u << sh->t) - 1, sh->mutate == LPM_RTL_MUT_SWAP_EARLY ? "1'b0 /* planted fault: swap-early */" : "1'b1",
            ls, ls + 1, sh->act & 1);
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
            "    wire [W*KR-1:0] ent_key, req_rest;\n"
            "    wire [W*T-1:0] ent_tag;\n"
            "    wire [W*IW-1:0] ent_item;\n"
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
            "    wire [NQ*(Q+2)-1:0] hvc;   // per queue: copies of the valid bit of the hop into its stage\n"
            "    wire [NQ*Q-1:0] hvb, hvw;   // (ring) its parts: valid = hvc | hvb & hvw for an entry's copy\n"
            "    wire [N*%u-1:0] st_busy;\n"
            "    wire [1:0] ctl_busy;\n",
            sh->p > 1 ? "    wire [NQ-1:0] qn2;\n"
                      : "    /* verilator lint_off UNUSEDSIGNAL */ // one lane: the second entry is never taken\n"
                        "    wire [NQ-1:0] qn2;\n    /* verilator lint_on UNUSEDSIGNAL */\n",
            sh->nq > 1 ? "    /* verilator lint_off UNUSEDSIGNAL */ // only queue 0 holds bubbles\n"
                         "    wire [NQ-1:0] qhw;\n    /* verilator lint_on UNUSEDSIGNAL */\n"
                       : "    wire [NQ-1:0] qhw;\n",
            pw, pw, sh->p * sh->d);
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
    fprintf(fp,
            "    lpm_ctl ctl (.clk(clk), .rst(rst), .req_valid(%s), .req_ready(%s), .req_tag(req_tag),\n"
            "        .req_rest(req_rest), .bub_valid(%s), .bub_ok(%s), .bub_ready(%s), .bub_data(bub_data),\n"
            "        .dit_we(dit_we), .dit_widx(dit_widx), .dit_wdata(dit_wdata), .bt_we(bt_we), .bt_idx(bt_idx),\n"
            "        .ent_key(ent_key), .ent_tag(ent_tag), .ent_item(ent_item), .qroom(qroom), .qres_n(qres_n),\n"
            "        .qpush_item(qpush_item), .qpush_n(qpush_n), .qpush_w(qpush_w),\n"
            "        .drl_room(drl_room), .dex_v(dex_v), .dex_d(dex_d), .busy(ctl_busy),\n"
            "        .dbg_act(dbg_act), .dbg_wtok(dbg_wtok), .dbg_stall(dbg_stall), .dbg_stall_stg(dbg_stall_stg),\n"
            "        .dit_word(dit_rdata));\n"
            "    wire [W*XI-1:0] dit_idx;\n"
            "    lpm_dit dit (.clk(clk), .idx(dit_idx), .we(dit_we), .widx(dit_widx), .wdata(dit_wdata), .rdata(dit_rdata));\n",
            late ? "creq_valid" : "req_valid", late ? "creq_ready" : "req_ready", late ? "bd" : "bub_valid",
            late ? "1'b1" : "bub_ok", late ? "croom" : "bub_ready");
    for (unsigned k = 0; k < w; k++) {
        lpm_rtl_emit_dit_index(fp, sh, k);
        fprintf(fp, "    lpm_entry e%u (.e(dit_rdata[%u:%u]), .key(ent_key[%u:%u]), .tag(ent_tag[%u:%u]), .item(ent_item[%u:%u]));\n",
                k, k * sh->db + sh->db - 1, k * sh->db, k * sh->kr + sh->kr - 1, k * sh->kr, k * sh->t + sh->t - 1,
                k * sh->t, k * sh->iw + sh->iw - 1, k * sh->iw);
    }
    fprintf(fp,
            "    genvar gq;\n"
            "    generate\n"
            "        for (gq = 0; gq < NQ; gq = gq + 1) begin : g_q\n"
            "            lpm_queue q (.clk(clk), .rst(rst), .passc(hvc[gq*(Q+2) +: Q+2]),\n"
            "                .passb(hvb[gq*Q +: Q]), .passw(hvw[gq*Q +: Q]),\n"
            "                .push_item(qpush_item[gq*W*IW +: W*IW]),\n"
            "                .push_n(qpush_n[gq*WNB +: WNB]), .push_w(qpush_w[gq]),\n"
            "                .res_n(qres_n[gq*WNB +: WNB]), .pop_n(pop_n[gq*2 +: 2]), .head(qhead[gq*%u +: %u]),\n"
            "                .nz(qnz[gq]), .n2(qn2[gq]), .room(qroom[gq*W +: W]), .hw(qhw[gq]), .cnt_next(qcnt_next[gq*QCB +: QCB]));\n"
            "        end\n"
            "    endgenerate\n",
            pw, pw);
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
