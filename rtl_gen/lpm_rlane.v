// lpm_rlane: a result lane (docs/microarchitecture.md, steps 1 and 6): two
// results, the older one at the output. It takes a result only when it held
// at most one at the start of the cycle (room, from the registered count):
// the skid buffer that lets res_ready reach no logic but these registers.
module lpm_rlane (
    input  wire           clk,
    input  wire           rst,
    input  wire           push,
    input  wire [RDW-1:0] din,
    input  wire           ready,
    output wire           valid,
    output wire [RDW-1:0] dout,
    output wire           room
);
`include "lpm_item.vh"
    reg [RDW-1:0] e0, e1;
    reg           v0, v1;             // e0 holds a result; e1 does too (no counter: flags only)
    wire pop = ready & v0;
    assign valid = v0;
    assign dout = e0;
    assign room = ~v1;
    // a push goes to the first entry free after this cycle's pop; the
    // entries' loads do not wait for push (an entry loaded without one
    // stays invalid), so push reaches only v0 and v1. e0 loads when it is
    // popped or empty, e1 when it is held, else din: the load enables and
    // the choice are registers and res_ready only, so din passes one LUT.
    wire l0 = pop | ~v0;
    wire l1 = pop ? v1 : v0 & ~v1;
    always @(posedge clk) begin
        if (l0)
            e0 <= v1 ? e1 : din;
        if (l1)
            e1 <= din;
        if (rst) begin
            v0 <= 1'b0;
            v1 <= 1'b0;
        end else begin
            v0 <= v1 | push | (v0 & ~pop);
            v1 <= (v1 & (~pop | push)) | (v0 & ~v1 & push & ~pop);
        end
    end
endmodule
