// lpm_credit: the linear pipeline under the credit rules
// (docs/microarchitecture.md 4.1, lpmpipe rtl --result-fifo F): the request
// and bubble ports, the result credits and the DIT pipeline into stage 0's
// item (lpm_cctl); the result FIFO and its output (lpm_rfifo). No window,
// no dispatcher, no queue: every item moves on one stage every D cycles,
// and every result has its place in the FIFO from its acceptance on.
// Widths and the item layout come from lpm_item.vh (RF: the credits, RFB:
// the FIFO's address bits).

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

// A request accepted in cycle t reads the DIT in t; its key and tag ride
// D - 1 registers beside the read (lpm_dit's word as many), and in t+D-1
// lpm_entry makes its item of the word, into the entry register: stage 0
// holds it in t+D. A bubble is taken in one cycle (bd, a register of the
// port and the copy rules: it needs no credit) and enters in the next,
// when it writes the DIT and its bubble tables, takes the cycle (no
// request) and rides the same registers. The credits count an acceptance
// and a result given a cycle late (ar, pr), so req_ready ("at least three
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
    input  wire           pop,        // a result leaves this cycle
    output reg  [IW-1:0]  ent,        // stage 0's item
    output wire [D:0]     busy        // the bubble taken, the DIT pipeline, the entry
);
`include "lpm_item.vh"
    // ---- credits: cth[k] = more than k free ----
    reg ar, pr, bd;
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
    reg [BQB-1:0] bseq;                  // the entering bubble's number
    always @(posedge clk) begin
        ar <= rst ? 1'b0 : acc;
        pr <= rst ? 1'b0 : pop;
        bd <= rst ? 1'b0 : bub_valid & bub_ok & ~bd;
        bseq <= rst ? {BQB{1'b0}} : bseq + {{(BQB-1){1'b0}}, bd};
    end
    assign dit_we = bd & bub_data[N*BSW];
    assign dit_widx = bub_data[N*BSW + 1 +: XI];
    assign dit_wdata = bub_data[N*BSW + 1 + XI +: DB];
    assign bt_we = bd;
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

    // ---- the DIT pipeline: D - 1 registers beside the read ----
    reg          pv [1:D-1];
    reg          pb [1:D-1];
    reg [KR-1:0] pk [1:D-1];
    reg [T-1:0]  pt [1:D-1];
    reg [IW-1:0] pi [1:D-1];
    integer d;
    always @(posedge clk) begin
        pv[1] <= acc;
        pb[1] <= bd;
        pk[1] <= req_rest;
        pt[1] <= req_tag;
        pi[1] <= bitem;
        for (d = 2; d < D; d = d + 1) begin
            pv[d] <= pv[d-1];
            pb[d] <= pb[d-1];
            pk[d] <= pk[d-1];
            pt[d] <= pt[d-1];
            pi[d] <= pi[d-1];
        end
        if (rst)
            for (d = 1; d < D; d = d + 1) begin
                pv[d] <= 1'b0;
                pb[d] <= 1'b0;
            end
    end
    wire [IW-1:0] ri, en;
    lpm_entry ue (.e(dit_word), .key(pk[D-1]), .tag(pt[D-1]), .item(ri));
    // each bit through a kept choice: the DIT word's bits (lpm_entry zeroes
    // fields by one of them) reach the entry's D inputs, never a flip-flop's
    // reset (which Yosys would make of them, on a global buffer)
    genvar ge;
    generate
        for (ge = 0; ge < IW; ge = ge + 1) begin : g_e
            lpm_mux2 k (.s(pb[D-1]), .a(pi[D-1][ge]), .b(ri[ge]), .o(en[ge]));
        end
    endgenerate
    always @(posedge clk) begin
        ent <= en;
        ent[F_V] <= ~rst & (pv[D-1] | pb[D-1]);
        ent[F_WEN] <= ~rst & pb[D-1] & pi[D-1][F_WEN];
    end
    genvar gb;
    generate
        for (gb = 1; gb < D; gb = gb + 1) begin : g_b
            assign busy[gb] = pv[gb] | pb[gb];
        end
    endgenerate
    assign busy[0] = bd;
    assign busy[D] = ent[F_V];
endmodule

// The result FIFO: the last stage's exit of cycle x, registered twice, is
// written in x+2 (a block RAM written from registers) and can be fetched
// from x+3 on. A fetch (the FIFO holds a result, the output at most one,
// counting the one fetched last cycle) reads at the read pointer; the word
// comes in the next cycle, when the output shows it at once if it holds
// nothing older (dout = v0 ? e0 : rd) and keeps it unless it leaves.
module lpm_rfifo (
    input  wire           clk,
    input  wire           rst,
    input  wire           xv,         // an exit this cycle
    input  wire [RDW-1:0] xd,
    input  wire           ready,
    output wire           valid,
    output wire [RDW-1:0] dout,
    output wire           fetch,      // a result fetched this cycle (the testbench logs it)
    output wire [5:0]     busy
);
`include "lpm_item.vh"
    localparam FD = 1 << RFB;
    reg e1v, e2v;
    reg [RDW-1:0] e1d, e2d;
    (* no_rw_check *) reg [RDW-1:0] mem [0:FD-1];   // a read that meets the write is never used
    reg [RFB-1:0] wp, rp;
    reg [RDW-1:0] rd, e0, e1;
    reg v0, v1, fv;                      // e0, e1 hold a result; rd is last cycle's fetch
    wire [RF-1:0] oth;                   // results in the FIFO: oth[k] = more than k
    genvar g;
    generate
        for (g = 0; g < RF; g = g + 1) begin : g_o
            lpm_thn #(.K(g), .F(RF), .INIT(0)) k (.clk(clk), .rst(rst), .u(e2v), .d(fetch), .t(oth), .q(oth[g]));
        end
    endgenerate
    assign fetch = oth[0] & ~(v1 | (v0 & fv));
    assign valid = v0 | fv;
    assign dout = v0 ? e0 : rd;
    wire pop = ready & valid;
    // results held after this cycle: e0, e1, rd (in that order), less the one given
    wire [1:0] n = {1'b0, v0} + {1'b0, v1} + {1'b0, fv} - {1'b0, pop};
    always @(posedge clk) begin
        e1d <= xd;
        e2d <= e1d;
        if (e2v)
            mem[wp] <= e2d;
        rd <= mem[rp];
        if (pop | ~v0)
            e0 <= v1 ? e1 : rd;
        if (~v1)
            e1 <= rd;
        if (rst) begin
            e1v <= 1'b0;
            e2v <= 1'b0;
            wp <= {RFB{1'b0}};
            rp <= {RFB{1'b0}};
            fv <= 1'b0;
            v0 <= 1'b0;
            v1 <= 1'b0;
        end else begin
            e1v <= xv;
            e2v <= e1v;
            wp <= wp + {{(RFB-1){1'b0}}, e2v};
            rp <= rp + {{(RFB-1){1'b0}}, fetch};
            fv <= fetch;
            v0 <= n != 2'd0;
            v1 <= n[1];
        end
    end
    assign busy = {e1v, e2v, oth[0], v0, v1, fv};
endmodule
