// lpm_credit: the linear pipeline under the credit rules
// (docs/microarchitecture.md 4.1, lpmpipe rtl --result-fifo F): the request
// and bubble ports, the result credits and the DIT pipeline into stage 0's
// item (lpm_cctl); the result FIFO and its output (lpm_rfifo). No window,
// no dispatcher, no queue: every item moves on one stage every D cycles,
// and every result has its place in the FIFO from its acceptance on.
// Widths and the item layout come from lpm_item.vh (RF: the credits, RFB:
// the FIFO's address bits). No implicit nets here: a name used before its
// declaration would be a net of its own inside a generate block (Icarus).
`default_nettype none

// Bit K of a thermometer (t[k]: more than k) that moves up on u & ~d and
// down on d & ~u, reset to INIT: one LUT of registers.
(* keep_hierarchy *)
module lpm_thn #(parameter K = 0, F = 4, INIT = 0) (input wire clk, input wire rst, input wire u, input wire d,
    input wire [F-1:0] t, output reg q);
    wire up = (K == 0) ? 1'b1 : t[(K > 0) ? K - 1 : 0];
    wire dn = (K == F - 1) ? 1'b0 : t[(K < F - 1) ? K + 1 : 0];
    always @(posedge clk)
        q <= rst ? (INIT != 0) : (u & ~d) ? up : (d & ~u) ? dn : t[K];
endmodule

// (v & ~r) ? q : d: an output entry holds while it is shown and not taken
(* keep_hierarchy *)
module lpm_holdn (input wire v, input wire r, input wire q, input wire d, output wire o);
    assign o = (v & ~r) ? q : d;
endmodule

// a & ~b: the fetch decision, one copy per group of the registers it drives
(* keep_hierarchy *)
module lpm_andn (input wire a, input wire b, output wire o);
    assign o = a & ~b;
endmodule

// A request accepted in cycle t reads the DIT in t; its key and tag ride
// D registers beside the read (lpm_dit's word D - 1, then one here: the
// block RAM's word goes into a flip-flop as it comes), and in t+D
// lpm_entry makes its item of the word, into the entry register: stage 0
// holds it in t+D+1. A bubble is taken in one cycle (bd, a register of the
// port and the copy rules: it needs no credit) and enters in the next,
// when it writes the DIT and its bubble tables, takes the cycle (no
// request) and rides the same registers. The credits count an acceptance
// and a result given a cycle late (ar; pr, registered beside the result
// FIFO, so that no LUT precedes its net across the die), so req_ready ("at least three
// free", a thermometer bit) and every credit bit are one LUT of registers.
module lpm_cctl (
    input  wire           clk,
    input  wire           rst,
    input  wire           req_valid,
    output wire           req_ready,
    input  wire [T-1:0]   req_tag,
    input  wire [KR-1:0]  req_rest,   // the key bits after the DIT's
    input  wire           bub_valid,  // held until bub_ready, with bub_data
    input  wire           bub_ok,     // the copy rules let this bubble in (1 without a shadow copy)
    output wire           bub_ready,
    input  wire [BW-1:0]  bub_data,
    output wire           dit_we,
    output wire [XI-1:0]  dit_widx,
    output wire [DB-1:0]  dit_wdata,
    output wire           bt_we,
    output wire [BQB-1:0] bt_idx,
    input  wire [DB-1:0]  dit_word,   // the DIT read of D - 1 cycles before (lpm_dit registers it)
    input  wire           pr,         // a result left in the cycle before (lpm_rfifo's register)
    output reg  [IW-1:0]  ent,        // stage 0's item
    output wire [BQB-1:0] bt_ra,      // the bubble number of the item ent takes now (stage 0 reads its table early)
    output wire [D+1:0]   busy        // the bubble taken, the DIT pipeline, the entry
);
`include "lpm_item.vh"
    // ---- credits: cth[k] = more than k free ----
    reg ar, bd, dwe;
    wire [RF-1:0] cth;
    genvar g;
    generate
        for (g = 0; g < RF; g = g + 1) begin : g_c
            lpm_thn #(.K(g), .F(RF), .INIT(1)) k (.clk(clk), .rst(rst), .u(pr), .d(ar), .t(cth), .q(cth[g]));
        end
    endgenerate
    assign req_ready = cth[2] & ~bd;
    assign bub_ready = bd;
    wire acc = req_valid & req_ready;
    wire take = bub_valid & bub_ok & ~bd;   // a bubble is taken: it enters in the next cycle
    reg [BQB-1:0] bseq;                  // the entering bubble's number
    always @(posedge clk) begin
        ar <= rst ? 1'b0 : acc;
        // the DIT's write enable a register, made at the take (bub_data is held)
        dwe <= rst ? 1'b0 : take & bub_data[N*BSW];
        bd <= rst ? 1'b0 : take;
        bseq <= rst ? {BQB{1'b0}} : bseq + {{(BQB-1){1'b0}}, bd};
    end
    assign dit_we = dwe;
    assign dit_widx = bub_data[N*BSW + 1 +: XI];
    assign dit_wdata = bub_data[N*BSW + 1 + XI +: DB];
    // the bubble tables are written at the take (bub_data is held until
    // bub_ready), by the number the bubble gets as it enters: stored in time
    // for stage 0's early read of it D cycles after the entry
    assign bt_we = take;
    assign bt_idx = bseq;
    // the bubble as an item: its stage-0 write rides in it
    reg [IW-1:0] bitem;
    always @* begin
        bitem = {IW{1'b0}};
        bitem[F_V] = 1'b1;
        bitem[F_B] = 1'b1;
        bitem[F_WEN] = bub_data[0];
        bitem[F_ADDR +: AW] = bub_data[1 +: AW];
        bitem[F_KEY +: WB] = bub_data[1 + AW +: WB];
        bitem[F_TAG +: BQB] = bseq;
    end

    // ---- the DIT pipeline: D registers beside the read ----
    reg          pv [1:D];
    reg          pb [1:D];
    reg [KR-1:0] pk [1:D];
    reg [T-1:0]  pt [1:D];
    reg [IW-1:0] pi [1:D];
    reg [DB-1:0] pw;                     // the DIT word, registered as it comes
    integer d;
    always @(posedge clk) begin
        pv[1] <= acc;
        pb[1] <= bd;
        pk[1] <= req_rest;
        pt[1] <= req_tag;
        pi[1] <= bitem;
        pw <= dit_word;
        for (d = 2; d <= D; d = d + 1) begin
            pv[d] <= pv[d-1];
            pb[d] <= pb[d-1];
            pk[d] <= pk[d-1];
            pt[d] <= pt[d-1];
            pi[d] <= pi[d-1];
        end
        if (rst)
            for (d = 1; d <= D; d = d + 1) begin
                pv[d] <= 1'b0;
                pb[d] <= 1'b0;
            end
    end
    wire [IW-1:0] ri, en;
    lpm_entry ue (.e(pw), .key(pk[D]), .tag(pt[D]), .item(ri));
    // each bit through a kept choice: the DIT word's bits (lpm_entry zeroes
    // fields by one of them) reach the entry's D inputs, never a flip-flop's
    // reset (which Yosys would make of them, on a global buffer)
    genvar ge;
    generate
        for (ge = 0; ge < IW; ge = ge + 1) begin : g_e
            lpm_mux2 k (.s(pb[D]), .a(pi[D][ge]), .b(ri[ge]), .o(en[ge]));
        end
    endgenerate
    always @(posedge clk) begin
        ent <= en;
        ent[F_V] <= ~rst & (pv[D] | pb[D]);
        ent[F_WEN] <= ~rst & pb[D] & pi[D][F_WEN];
    end
    genvar gb;
    generate
        for (gb = 1; gb <= D; gb = gb + 1) begin : g_b
            assign busy[gb] = pv[gb] | pb[gb];
        end
    endgenerate
    assign busy[0] = bd;
    assign bt_ra = pi[D][F_TAG +: BQB];
    assign busy[D+1] = ent[F_V];
endmodule

// The result FIFO: the last stage's exit of cycle x, registered twice, is
// written in x+2 (a block RAM written from registers) and can be fetched
// from x+3 on. A fetch (the FIFO holds a result, the output at most two,
// counting the one fetched in the cycle before) reads at the read pointer;
// the word comes in the next cycle into a register (sd: the block RAM's
// word into a flip-flop as it comes), and in the cycle after the output
// shows it at once if it holds nothing older (dout = v0 ? e0 : sd) and
// keeps it (e0, e1, e2, in order) unless it leaves.
module lpm_rfifo (
    input  wire           clk,
    input  wire           rst,
    input  wire           xv,         // an exit this cycle
    input  wire [RDW-1:0] xd,
    input  wire           ready,
    output wire           valid,
    output wire [RDW-1:0] dout,
    output wire           fetch,      // a result fetched this cycle (the testbench logs it)
    output reg            popr,       // a result left in the cycle before (the credits')
    output wire [7:0]     busy
);
`include "lpm_item.vh"
    localparam FD = 1 << RFB;
    reg e1v, e2v;
    reg [RDW-1:0] e1d, e2d;
    (* no_rw_check *) reg [RDW-1:0] mem [0:FD-1];   // a read that meets the write is never used
    reg [RFB-1:0] wp, rp, rp1;           // rp1 = rp + 1 (a register: the fetch only chooses)
    wire [2:0] so;                       // results at the output and fetched, not yet given: so[k] = more than k
    reg [RDW-1:0] rd, sd, e0, e1, e2;
    reg v0, v1, v2, fv, sv;              // e0, e1, e2 hold a result; rd, sd: the fetches of one and two cycles before
    wire [RF-1:0] oth;                   // results in the FIFO: oth[k] = more than k
    assign valid = v0 | sv;
    wire pop = ready & valid;
    // the fetch: the FIFO holds a result and the output at most two,
    // counting rd and sd (so, a register); one kept copy per 8 occupancy
    // bits and one for the pointers, so no copy drives more than a group
    localparam NFC = (RF + 7) / 8 + 1;
    wire [NFC-1:0] fc;
    genvar g;
    generate
        for (g = 0; g < NFC; g = g + 1) begin : g_f
            lpm_andn k (.a(oth[0]), .b(so[2]), .o(fc[g]));
        end
        for (g = 0; g < 3; g = g + 1) begin : g_s
            lpm_thn #(.K(g), .F(3), .INIT(0)) k (.clk(clk), .rst(rst), .u(fc[0]), .d(pop), .t(so), .q(so[g]));
        end
        for (g = 0; g < RF; g = g + 1) begin : g_o
            lpm_thn #(.K(g), .F(RF), .INIT(0)) k (.clk(clk), .rst(rst), .u(e2v), .d(fc[1 + g / 8]), .t(oth), .q(oth[g]));
        end
    endgenerate
    assign fetch = fc[0];
    // the pointers and output entries load through kept choices, no clock
    // enable: a control register reaches a bit through one net and one LUT
    wire [RFB-1:0] rpn, rp1n;
    wire [RFB-1:0] rp1i = rp1 + 1'b1;
    wire [RDW-1:0] e0n, e1n, e2n;
    wire [RDW-1:0] n0 = v1 ? e1 : sd;
    wire [RDW-1:0] n1 = v2 ? e2 : sd;
    generate
        for (g = 0; g < RFB; g = g + 1) begin : g_p
            lpm_mux2 kr (.s(fetch), .a(rp1[g]), .b(rp[g]), .o(rpn[g]));
            lpm_mux2 ki (.s(fetch), .a(rp1i[g]), .b(rp1[g]), .o(rp1n[g]));
        end
        for (g = 0; g < RDW; g = g + 1) begin : g_e
            // the entries after this cycle's output, in order: e0, e1, e2, sd
            lpm_holdn k0 (.v(v0), .r(ready), .q(e0[g]), .d(n0[g]), .o(e0n[g]));
            lpm_holdn k1 (.v(v1), .r(ready), .q(e1[g]), .d(n1[g]), .o(e1n[g]));
            lpm_holdn k2 (.v(v2), .r(ready), .q(e2[g]), .d(sd[g]), .o(e2n[g]));
        end
    endgenerate
    assign dout = v0 ? e0 : sd;
    // results held after this cycle: e0, e1, e2, sd (in that order), less
    // the one given; v0 >= v1 >= v2, so the held entries as a thermometer
    // moved up by sv and down by pop (no adder: two LUTs of registers each)
    wire m0 = v0 | sv, m1 = v1 | (v0 & sv), m2 = v2 | (v1 & sv), m3 = v2 & sv;
    always @(posedge clk) begin
        e1d <= xd;
        e2d <= e1d;
        if (e2v)
            mem[wp] <= e2d;
        rd <= mem[rp];
        sd <= rd;
        e0 <= e0n;
        e1 <= e1n;
        e2 <= e2n;
        if (rst) begin
            e1v <= 1'b0;
            e2v <= 1'b0;
            wp <= {RFB{1'b0}};
            rp <= {RFB{1'b0}};
            rp1 <= {{(RFB-1){1'b0}}, 1'b1};
            fv <= 1'b0;
            sv <= 1'b0;
            popr <= 1'b0;
            v0 <= 1'b0;
            v1 <= 1'b0;
            v2 <= 1'b0;
        end else begin
            e1v <= xv;
            e2v <= e1v;
            wp <= wp + {{(RFB-1){1'b0}}, e2v};
            rp <= rpn;
            rp1 <= rp1n;
            fv <= fetch;
            sv <= fv;
            popr <= pop;
            v0 <= pop ? m1 : m0;
            v1 <= pop ? m2 : m1;
            v2 <= pop ? m3 : m2;
        end
    end
    assign busy = {e1v, e2v, oth[0], v0, v1, v2, fv, sv};
endmodule
`default_nettype wire
