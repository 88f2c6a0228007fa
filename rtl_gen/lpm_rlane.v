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
    reg [1:0]     n;
    wire pop = ready & (n != 2'd0);
    assign valid = n != 2'd0;
    assign dout = e0;
    assign room = ~n[1];
    always @(posedge clk) begin
        if (pop)
            e0 <= e1;
        if (push && {1'b0, n} - {2'b0, pop} == 3'd0)
            e0 <= din;
        if (push && {1'b0, n} - {2'b0, pop} == 3'd1)
            e1 <= din;
        if (rst)
            n <= 2'd0;
        else
            n <= n - {1'b0, pop} + {1'b0, push};
    end
endmodule
