// lpm_queue: one stage's queue, first-word-fall-through (docs/microarchitecture.md,
// section 5). A cycle takes up to W pushes (the first push_n of push_item,
// in order: the dispatcher decided them the cycle before, res_n of that
// cycle) and up to P pops (pop_n, never more than the entries held).
// Everything the other modules read is a register: the head entries (the
// first P entries themselves, so that the stage's address multiplexer sees
// registers), nz (a head entry is there), n2 (two are), hw (the head is a
// bubble that writes its stage), and room[c] = (credits + c < Q), the
// dispatcher's credits, which count a push from its decision (res_n) on, a
// cycle before it lands.
//
// No arithmetic sits between a pop or a push and a register: the entries
// shift towards the head by the pops (entry i takes entry i + pop_n, or the
// push that lands there), and the occupancy is a thermometer code (th[j] =
// more than j entries), which a cycle shifts by pushes - pops.
//
// With one lane and one push a cycle (P = 1, W = 1, the case built for
// speed) the pop is ~pass & nz, pass being the stage's hop valid bit (a
// register; passc: a copy per entry, kept by the stage before beside its
// hop register; a ring's entry copy in parts, passc | passb & passw, since
// a ring stage's valid bit depends on its word's child bit): an
// entry loads only when the head pops or it is not held, so
// its clock enable is ~(pass & th[i]) (th[i] implies nz), and its data is
// the entry behind it when that one is held, else the push (which lands
// there when it lands at all). Each group of G bits of an entry has its own
// enable LUT (lpm_nand2; lpm_ce3 on a ring: a hierarchy of its own so that
// synthesis keeps the copies: a net from one LUT to 58 flip-flops spread over the stage's
// datapath costs more than the clock period), and the thermometers take pass
// in their last LUT (lpm_pmux): every path is register -> at most two LUTs
// -> register, and pass -> one LUT -> register.
(* keep_hierarchy *)
module lpm_nand2 (
    input  wire a,
    input  wire b,
    output wire o
);
    assign o = ~(a & b);
endmodule

// ~((a | b & c) & t): a ring queue entry's clock enable, its stage's pass
// bit in parts (a | b & c), registers
(* keep_hierarchy *)
module lpm_ce3 (input wire a, input wire b, input wire c, input wire t, output wire o);
    assign o = ~((a | b & c) & t);
endmodule

// q when p & t (no pop, and held), else d: one LUT (a register that holds
// without a clock enable)
(* keep_hierarchy *)
module lpm_hold (input wire p, input wire t, input wire q, input wire d, output wire o);
    assign o = (p & t) ? q : d;
endmodule

// x when the stage pops its queue (~pass & nz), else y: one LUT
(* keep_hierarchy *)
module lpm_pmux (
    input  wire pass,
    input  wire nz,
    input  wire x,
    input  wire y,
    output wire o
);
    assign o = (~pass & nz) ? x : y;
endmodule

// a register loaded with (~pass & nz) ? x : y through its own LUT: a copy of
// a thermometer bit
(* keep_hierarchy *)
module lpm_rffpm (input wire clk, input wire rst, input wire pass, input wire nz, input wire x, input wire y,
    output reg q);
    always @(posedge clk)
        q <= rst ? 1'b0 : (~pass & nz) ? x : y;
endmodule

// Stage 0's memory write enable, one LUT from registers: ~n0 & ~n1 & a (no
// passing item, the queue's head writes), used by lpm_stage_00
(* keep_hierarchy *)
module lpm_wen (input wire n0, input wire n1, input wire a, output wire o);
    assign o = ~n0 & ~n1 & a;
endmodule

// a register loaded with (s ? a : b), inverted when INV, through its own LUT
(* keep_hierarchy *)
module lpm_rffmux #(parameter INIT = 0, INV = 0) (input wire clk, input wire rst, input wire s, input wire a,
    input wire b, output reg q);
    always @(posedge clk)
        q <= rst ? (INIT != 0) : (s ? a : b) ^ (INV != 0);
endmodule

module lpm_queue (
    input  wire              clk,
    input  wire              rst,
    /* verilator lint_off UNUSEDSIGNAL */         // read only when P = 1 and W = 1
    input  wire [Q+1:0]      passc,               // the stage's lane 0 holds a passing item (its hop register), register
                                                  // copies: one per entry, the head's flag, the thermometers
    input  wire [Q-1:0]      passb,               // a ring's entry copies in parts: passc[i] | passb[i] & passw[i]
    input  wire [Q-1:0]      passw,               // (0 in a linear pipeline)
    /* verilator lint_on UNUSEDSIGNAL */
    input  wire [W*IW-1:0]   push_item,
    input  wire [WNB-1:0]    push_n,
    /* verilator lint_off UNUSEDSIGNAL */         // read only when P = 1 and W = 1
    input  wire              push_w,              // that push is a bubble that writes the stage (a register)
    /* verilator lint_on UNUSEDSIGNAL */
    input  wire [WNB-1:0]    res_n,
    /* verilator lint_off UNUSEDSIGNAL */         // P = 1, W = 1: the queue's own ~pass & nz
    input  wire [1:0]        pop_n,
    /* verilator lint_on UNUSEDSIGNAL */
    output wire [P*IW-1:0]   head,
    output reg               nz,
    output reg               n2,
    output wire [W-1:0]      room,
    output reg               hw,
    output reg  [QCB-1:0]    cnt_next
);
`include "lpm_item.vh"
    localparam integer QL = Q + MUT_QCAP;         // the credit's limit (Q, or one more: a planted fault)
    localparam K = 2 * P + 1;                     // sequence positions a head can take: pop_n + i, +1 for the fault
    localparam TH = (QL + 1 > K + 1) ? QL + 1 : K + 1; // thermometer bits: th[j] = (entries > j)

    localparam QE = (Q > P) ? Q : P;              // entries (P heads even when Q < P: those are never held)
    reg [TH-1:0] th;                              // entries held
    reg [TH-1:0] tc;                              // credits: pushes decided - pops
    wire [TH-1:0] th_d, tc_d;                     // their next values

    // a thermometer count less r (r < 0: more)
    function [TH-1:0] tshift;
        input [TH-1:0] x;
        input integer r;
        integer z;
        begin
            for (z = 0; z < TH; z = z + 1)
                tshift[z] = (z + r < 0) ? 1'b1 : (z + r < TH) ? x[(z + r < 0 || z + r >= TH) ? 0 : z + r] : 1'b0;
        end
    endfunction


    // the binary count of credits (the log's q), for the cycle log only (lpm_top leaves it unconnected)
    integer tj;
    always @* begin
        cnt_next = {QCB{1'b0}};
        for (tj = 0; tj < TH; tj = tj + 1)
            if (tc_d[tj])
                cnt_next = cnt_next + 1'b1;
    end

    // the entries, their enables and the thermometers' next values
    localparam G = 8;                             // bits an enable LUT drives
    localparam NG = (IW + G - 1) / G;
    genvar gi, gg, gz;
    generate
        if (P == 1 && W == 1 && !MUT_QORDER) begin : g_ce
            reg [QE*IW-1:0] ef;                   // entry i = ef[i*IW +: IW]; entry 0 the oldest
            wire [QE-1:0] txw, tyw;               // th_d[j]'s candidates for the entries' copies: with a pop, without
            assign head = ef[0 +: IW];
            for (gi = 0; gi < QE; gi = gi + 1) begin : g_e
                for (gg = 0; gg < NG; gg = gg + 1) begin : g_g
                    localparam LO = gg * G;
                    localparam WD = (IW - LO < G) ? IW - LO : G;
                    wire ce;
                    // entry held: a register copy of th[gi] per group, with its own last LUT (lpm_rffpm)
                    wire thg;
                    lpm_rffpm kth (.clk(clk), .rst(rst), .pass(passc[Q+1]), .nz(th[0]), .x(txw[gi]), .y(tyw[gi]), .q(thg));
                    if (RING != 0) begin : g_r
                        lpm_ce3 k (.a(passc[gi < Q ? gi : 0]), .b(passb[gi < Q ? gi : 0]), .c(passw[gi < Q ? gi : 0]),
                                   .t(thg), .o(ce));
                    end else begin : g_l
                        lpm_nand2 k (.a(passc[gi < Q ? gi : 0]), .b(thg), .o(ce));
                    end
                    always @(posedge clk)
                        if (ce)
                            ef[gi*IW + LO +: WD] <= (gi + 1 < QE && th[gi + 1])
                                ? ef[((gi + 1 < QE) ? gi + 1 : 0)*IW + LO +: WD] : push_item[LO +: WD];
                end
            end
            // hw: no clock enable (a synchronous reset would join it in a
            // LUT before the enable pin): it holds through its own LUT
            wire hwn = (QE > 1 && th[1]) ? ef[((QE > 1) ? IW : 0) + F_B] & ef[((QE > 1) ? IW : 0) + F_WEN]
                                         : push_w;   // = push_n[0] & push_item[F_B] & push_item[F_WEN]
            wire hwd;
            lpm_hold kh (.p(passc[Q]), .t(th[0]), .q(hw), .d(hwn), .o(hwd));
            always @(posedge clk)
                hw <= rst ? 1'b0 : hwd;
            // th and tc shifted by (push or credit) - pop; th[-1] = 1, th[TH] = 0
            wire [TH+1:0] thx = {1'b0, th, 1'b1}, tcx = {1'b0, tc, 1'b1};
            for (gz = 0; gz < TH; gz = gz + 1) begin : g_t
                wire tx = push_n[0] ? thx[gz + 1] : thx[gz + 2];       // with a pop
                wire ty = push_n[0] ? thx[gz] : thx[gz + 1];           // without
                if (gz < QE) begin : g_c
                    assign txw[gz] = tx;
                    assign tyw[gz] = ty;
                end
                wire cu, cv;
                lpm_pmux mt (.pass(passc[Q+1]), .nz(th[0]), .x(tx), .y(ty), .o(th_d[gz]));
                lpm_pmux mu (.pass(passc[Q+1]), .nz(th[0]), .x(tcx[gz + 1]), .y(tcx[gz]), .o(cu));      // a push decided
                lpm_pmux mv (.pass(passc[Q+1]), .nz(th[0]), .x(tcx[gz + 2]), .y(tcx[gz + 1]), .o(cv));  // none
                assign tc_d[gz] = res_n[0] ? cu : cv;
                // the credit flag takes the decision (res_n) in its own LUT
                if (gz == QL - 1) begin : g_room
                    lpm_rffmux #(.INIT(1), .INV(1)) kr (.clk(clk), .rst(rst), .s(res_n[0]), .a(cu), .b(cv), .q(room[0]));
                end
            end
        end else begin : g_sh
            reg [IW-1:0] e [0:QE-1];              // e[0] is the oldest entry
            // eq[n]: exactly n entries
            wire [TH-1:0] eq = {th[TH-2:0], 1'b1} & ~th;
            wire [31:0]  ppi = {30'd0, pop_n};   // the counts as integers
            wire [31:0]  pni = {{(32-WNB){1'b0}}, push_n};
            wire [31:0]  rni = {{(32-WNB){1'b0}}, res_n};
            for (gi = 0; gi < P; gi = gi + 1) begin : g_head
                assign head[gi*IW +: IW] = e[gi];
            end
            // the occupancy shifted by push_n - pop_n, the credits by res_n - pop_n
            reg [TH-1:0] thn, tcn;
            integer sk, sm;
            always @* begin
                thn = th;
                tcn = tc;
                for (sk = 0; sk <= P; sk = sk + 1)
                    for (sm = 0; sm <= W; sm = sm + 1) begin
                        if (ppi == sk && pni == sm)
                            thn = tshift(th, sk - sm);
                        if (ppi == sk && rni == sm)
                            tcn = tshift(tc, sk - sm);
                    end
            end
            assign th_d = thn;
            assign tc_d = tcn;
            // entry i after k pops: entry i + k when held, else the push that lands
            // there (push m lands at entries - k + m; a place no push reaches is
            // not held, so it may take any push: push 0 unless a later one lands
            // there). sh[k][i] depends on registers only; the pop count picks one.
            reg [IW-1:0] sh [0:P][0:QE-1];
            reg [IW-1:0] nd [0:QE-1];
            integer gk, si, gm, sj, ce;
            always @* begin
                for (gk = 0; gk <= P; gk = gk + 1)
                    for (si = 0; si < QE; si = si + 1) begin
                        sj = si + gk;
                        sh[gk][si] = push_item[0 +: IW];
                        for (gm = 1; gm < W; gm = gm + 1)
                            if (sj - gm >= 0 && sj - gm < TH && eq[sj - gm >= 0 && sj - gm < TH ? sj - gm : 0])
                                sh[gk][si] = push_item[gm*IW +: IW];
                        if (sj < QE && th[sj < QE ? sj : 0]) begin
                            sh[gk][si] = e[sj < QE ? sj : 0];
                            // planted fault: the head skips to the next held entry
                            if (MUT_QORDER && si < P && sj + 1 < QE && th[sj + 1 < QE ? sj + 1 : 0])
                                sh[gk][si] = e[sj + 1 < QE ? sj + 1 : 0];
                        end
                    end
                for (si = 0; si < QE; si = si + 1) begin
                    nd[si] = sh[0][si];
                    for (gk = 1; gk <= P; gk = gk + 1)
                        if (ppi == gk)
                            nd[si] = sh[gk][si];
                end
            end
            reg [W-1:0] rr;
            integer c;
            always @(posedge clk)
                for (c = 0; c < W; c = c + 1)
                    rr[c] <= rst ? c < QL : (c < QL) ? !tc_d[(c < QL) ? QL - 1 - c : 0] : 1'b0;
            assign room = rr;
            always @(posedge clk) begin
                for (ce = 0; ce < QE; ce = ce + 1)
                    e[ce] <= nd[ce];
                hw <= ~rst & th_d[0] & nd[0][F_B] & nd[0][F_WEN];
            end
        end
    endgenerate

    always @(posedge clk) begin
        if (rst) begin
            th <= {TH{1'b0}};
            tc <= {TH{1'b0}};
            nz <= 1'b0;
            n2 <= 1'b0;
        end else begin
            th <= th_d;
            tc <= tc_d;
            nz <= th_d[0];
            n2 <= th_d[1];
        end
    end
endmodule
