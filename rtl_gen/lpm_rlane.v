// lpm_rlane: a result lane (docs/microarchitecture.md, steps 1 and 6): two
// results, the older one at the output. It takes a result only when it held
// at most one at the start of the cycle (room, a register): the skid buffer
// that lets res_ready reach no logic but these registers.
//
// A push is registered as it comes (xv, xd: the result leaves the stage's
// block RAM word through the one LUT that makes it, into a register) and
// counts as held from the next cycle on, when the lane shows it at once if
// it holds nothing older (dout = v0 ? e0 : xd) and stores it at the end of
// that cycle unless it is popped: the same cycles as storing it at the push,
// without the entries' load choice after the word.

// the lane's room: ~(n1 | xf | xr & ~c), reset to 1, through its own LUT
(* keep_hierarchy *)
module lpm_rffroom (input wire clk, input wire rst, input wire n1, input wire xf, input wire xr, input wire c,
    output reg q);
    always @(posedge clk)
        if (rst)
            q <= 1'b1;
        else
            q <= ~(n1 | xf | xr & ~c);
endmodule

// the same with a push of registers or one LUT: ~(n1 | one & p)
(* keep_hierarchy *)
module lpm_rffroom2 (input wire clk, input wire rst, input wire n1, input wire one, input wire p, output reg q);
    always @(posedge clk)
        if (rst)
            q <= 1'b1;
        else
            q <= ~(n1 | one & p);
endmodule

module lpm_rlane #(parameter EX = 0) (
    input  wire           clk,
    input  wire           rst,
    input  wire           push,
    // push = (pf | pr & ~pc) & room, in parts for the room's last LUT: a
    // ring stage's exit (finished whatever the word, read here, the word's
    // child bit: EX = 1); elsewhere push = pf & room (a DIT answer's pf is
    // the dispatcher's decision, which took the room already)
    input  wire           pf,
    /* verilator lint_off UNUSEDSIGNAL */ // EX = 0: push = pf
    input  wire           pr,
    input  wire           pc,
    /* verilator lint_on UNUSEDSIGNAL */
    input  wire [RDW-1:0] din,
    input  wire           ready,
    output wire           valid,
    output wire [RDW-1:0] dout,
    output wire           room
);
`include "lpm_item.vh"
    reg [RDW-1:0] e0, e1, xd;
    reg           v0, v1, xv;         // e0 holds a result; e1 does too; xd is last cycle's push
    wire pop = ready & (v0 | xv);
    assign valid = v0 | xv;
    assign dout = v0 ? e0 : xd;
    // results held after this cycle, in order: e0 (if v0), e1 (if v1), xd
    // (if xv), less the popped first one (never three: a push needs room)
    wire [1:0] n = {1'b0, v0} + {1'b0, v1} + {1'b0, xv} - {1'b0, pop};
    always @(posedge clk) begin
        // e0: the second of the list when the first is popped, the first when e0 was empty
        if (pop | ~v0)
            e0 <= v1 ? e1 : xd;
        // e1: held, else xd (needed only when e0 stays and xd comes)
        if (~v1)
            e1 <= xd;
        xd <= din;
        if (rst) begin
            v0 <= 1'b0;
            v1 <= 1'b0;
            xv <= 1'b0;
        end else begin
            v0 <= n != 2'd0;
            v1 <= n[1];
            xv <= push;
        end
    end
    // at most one held at the start of next cycle: n + push <= 1, the word's
    // child bit in the last LUT only
    // (room: at most one held at the start of the cycle, so n[0] & room =
    // room & one held & no pop)
    wire one = room & (v0 | xv) & ~ready;
    generate
        if (EX != 0) begin : g_ex
            // a ring stage's lane: pf, pr registers, pc the block RAM word's
            wire xf = one & pf, xr = one & pr;
            lpm_rffroom kr (.clk(clk), .rst(rst), .n1(n[1]), .xf(xf), .xr(xr), .c(pc), .q(room));
        end else begin : g_px
            // push = pf (registers, or the dispatcher's decision: one LUT)
            lpm_rffroom2 kr (.clk(clk), .rst(rst), .n1(n[1]), .one(one), .p(pf), .q(room));
        end
    endgenerate
endmodule
