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
module lpm_rlane (
    input  wire           clk,
    input  wire           rst,
    input  wire           push,
    input  wire           pushr,      // = push: a copy for the room's logic (a ring stage's own LUT)
    input  wire [RDW-1:0] din,
    input  wire           ready,
    output wire           valid,
    output wire [RDW-1:0] dout,
    output reg            room
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
            room <= 1'b1;
        end else begin
            v0 <= n != 2'd0;
            v1 <= n[1];
            xv <= push;
            // at most one held at the start of next cycle: n + push <= 1
            room <= ~(n[1] | (n[0] & pushr));
        end
    end
endmodule
