/* lpm_pipe under the credit rules (docs/microarchitecture.md 4.1, lpmpipe
 * rtl --result-fifo F): the control lpm_cctl (lpm_credit.v) makes stage 0's
 * item, the stages pass every item on (the last one's exit always goes, its
 * place in the FIFO reserved at acceptance), lpm_rfifo gives the results in
 * input order. The ports are those of the window rules' lpm_pipe, with
 * dbg_fetch for the testbench's log; the queue and dispatcher debug
 * signals are zero. */
#include <stdio.h>

#include "rtl_gen_int.h"

void lpm_rtl_emit_pipe_credit(FILE *fp, const lpm_rtl_shape *sh)
{
    fprintf(fp, "// The pipeline under the credit rules, with its debug signals: lpm_top and lpm_tb_top wrap it.\n");
    lpm_rtl_emit_pipe_ports(fp, sh, 1, 1, "lpm_pipe");
    fprintf(fp,
            "`include \"lpm_item.vh\"\n"
            "    wire dit_we, bt_we, bub_ok;\n"
            "    wire [XI-1:0] dit_widx, dit_idx;\n"
            "    wire [DB-1:0] dit_wdata, dit_rdata;\n"
            "    wire [BQB-1:0] bt_idx;\n"
            "    wire [KR-1:0] req_rest;\n"
            "    wire [IW-1:0] ent;\n"
            "    /* verilator lint_off UNUSEDSIGNAL */ // the last stage's hop register: no riders\n"
            "    wire [N*IW-1:0] hop;\n"
            "    wire [0:0] st_ex_f, st_ex_r, st_ex_c;   // the window rules' parts of the exit, for a lane's room\n"
            "    /* verilator lint_on UNUSEDSIGNAL */\n"
            "    wire [0:0] st_ex_v;\n"
            "    wire [RDW-1:0] st_ex_d;\n"
            "    wire [0:0] rl_room = 1'b1;   // every result has its place: the last stage always lets it exit\n"
            "    wire [N*D-1:0] st_busy;\n"
            "    wire [D+1:0] ctl_busy;\n"
            "    wire [7:0] rf_busy;\n"
            "    wire [RDW-1:0] rdat;\n"
            "    wire [BQB-1:0] bt_ra0;   // the bubble number of the item stage 0 holds next\n"
            "    wire rf_popr;            // a result left in the cycle before\n");
    if (sh->cp > 1) /* the copy rules count exits by these names */
        fprintf(fp, "    wire [0:0] rl_push = st_ex_v;\n    wire [RDW-1:0] rl_din = st_ex_d;\n");
    if (sh->n >= 3) /* stages 0..N-3: the bubble number each decides (the next one's bubble table read) */
        fprintf(fp, "    wire [%u:0] bt_rn;\n", (sh->n - 2) * sh->bqb - 1);
    fprintf(fp,
            "    lpm_cctl ctl (.clk(clk), .rst(rst), .req_valid(req_valid), .req_ready(req_ready), .req_tag(req_tag),\n"
            "        .req_rest(req_rest), .bub_valid(bub_valid), .bub_ok(bub_ok), .bub_ready(bub_ready), .bub_data(bub_data),\n"
            "        .dit_we(dit_we), .dit_widx(dit_widx), .dit_wdata(dit_wdata), .bt_we(bt_we), .bt_idx(bt_idx),\n"
            "        .dit_word(dit_rdata), .pr(rf_popr), .ent(ent), .bt_ra(bt_ra0), .busy(ctl_busy));\n"
            "    lpm_dit dit (.clk(clk), .idx(dit_idx), .we(dit_we), .widx(dit_widx), .wdata(dit_wdata), .rdata(dit_rdata));\n");
    lpm_rtl_emit_dit_index(fp, sh, 0);
    for (unsigned s = 0; s < sh->n; s++)
        lpm_rtl_emit_stage_inst(fp, sh, s);
    fprintf(fp,
            "    lpm_rfifo rf (.clk(clk), .rst(rst), .xv(st_ex_v[0]), .xd(st_ex_d), .ready(res_ready), .valid(res_valid),\n"
            "        .dout(rdat), .fetch(dbg_fetch), .popr(rf_popr), .busy(rf_busy));\n"
            "    assign res_tag = rdat[T-1:0];\n"
            "    assign res_nhv = rdat[T];\n"
            "    assign res_nh = rdat[T+1 +: NB];\n"
            "    assign dbg_exit = st_ex_v;\n"
            "    assign dbg_exit_tag = st_ex_d[T-1:0];\n"
            "    assign dbg_qn = {N*QCB{1'b0}};     // no queues, no dispatcher\n"
            "    assign dbg_act = 2'd0;\n"
            "    assign dbg_wtok = {WTW{1'b0}};\n"
            "    assign dbg_stall = 2'd0;\n"
            "    assign dbg_stall_stg = {SB{1'b0}};\n");
    lpm_rtl_emit_copy(fp, sh);
    fprintf(fp, "    assign bflag = {rf_busy, st_busy, ctl_busy};\nendmodule\n");
}
