/* The parts of lpm_pipe both forms share (gen_pipe.c: the window rules;
 * gen_credit.c: the credit rules): its ports, a stage's instance, the DIT
 * index, the copy rules of a shadow copy, and the count of busy flags. */
#include <stdio.h>
#include <string.h>

#include "rtl_gen_int.h"

/* the pipeline's busy flags (lpm_pipe's bflag), each one register or two:
 * the DIT window's two (decided entries, occupancy), a stage lane's held
 * items (D each), the result lanes, the queues' "not empty" */
unsigned lpm_rtl_busy_flags(const lpm_rtl_shape *sh)
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
        snprintf(last, sizeof last, "output wire [%u:0] bflag%s", lpm_rtl_busy_flags(sh) - 1, dbg ? "," : "");
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
        fprintf(fp, "        .hvc(hvc[%u*(%s) +: %s]), .hvb(hvb[%u*Q +: Q]), .hvw(hvw[%u*Q +: Q]),\n", q, lpm_rtl_hvc(sh),
                lpm_rtl_hvc(sh), q, q);
    }
    fprintf(fp, "        .hout(hop[%u:%u]), .busy(st_busy[%u:%u]), .dbg_slot(dbg_slot[%u:%u]));\n", s * pw + pw - 1, s * pw,
            (s + 1) * sh->p * sh->d - 1, s * sh->p * sh->d, (s + 1) * sh->p * sh->slw - 1, s * sh->p * sh->slw);
    if (!has_q)
        fprintf(fp, "    assign dbg_pop[%u:%u] = %u'd0;\n", s * sh->p + sh->p - 1, s * sh->p, sh->p);
}


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


/* The shadow copy (docs/microarchitecture.md, "Rebuilds and the swap"):
 * the DIT select `active`, set by a swap bubble as it is accepted; the
 * bubbles in flight (up at acceptance, down as one holds the last stage),
 * which a drain or swap bubble waits to be none; the lookups in flight by
 * the copy they read (up at acceptance, down at exit into a result lane),
 * which a fence bubble waits to be none for the inactive copy. Counts are
 * registers: the exits and departures of a cycle count from the next, as
 * in the simulator, where they come after the window's refill. */
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
