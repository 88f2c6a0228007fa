// lpm_queue: one stage's queue, first-word-fall-through (docs/microarchitecture.md,
// section 5). The first P entries are registers (head), so that the stage's
// address multiplexer sees registers; the entries behind them wait in a
// circular buffer. A cycle takes up to W pushes (the first push_n of
// push_item, in order) and up to P pops (pop_n, never more than cnt). cnt
// is the registered occupancy: the dispatcher's credit. Widths and the
// item layout come from lpm_item.vh.
module lpm_queue (
    input  wire              clk,
    input  wire              rst,
    input  wire [W*IW-1:0]   push_item,
    input  wire [WNB-1:0]    push_n,
    input  wire [1:0]        pop_n,
    output wire [P*IW-1:0]   head,
    output reg  [QCB-1:0]    cnt,
    output reg  [QCB-1:0]    cnt_next
);
`include "lpm_item.vh"
    localparam QB = (Q > P) ? Q - P : 1;          // buffer entries behind the head registers
    localparam QBB = (QB > 1) ? $clog2(QB) : 1;

    reg [IW-1:0]  hr [0:P-1];
    reg [IW-1:0]  br [0:QB-1];
    reg [QBB-1:0] rp;

    genvar g;
    generate
        for (g = 0; g < P; g = g + 1) begin : g_head
            assign head[g*IW +: IW] = hr[g];
        end
    endgenerate

    // the buffer entry c places behind the read pointer (c < QB)
    function [QBB-1:0] bidx;
        input [QBB-1:0] base;
        input integer c;
        integer v;
        begin
            v = {{(32-QBB){1'b0}}, base} + c;
            if (v >= QB)
                v = v - QB;
            bidx = v[QBB-1:0];
        end
    endfunction

    // The queue as one sequence: heads (hn), buffer (bn), this cycle's pushes.
    // After pop_n pops, sequence position pop_n + i is the new head i, and
    // positions from pop_n + P on stay in (or go to) the buffer.
    integer hn, bn, pn, pp, cn, i, m, src, take_b, m0;
    reg [IW-1:0] hd [0:P-1];
    reg [P-1:0]  hw;                   // head i changes
    reg [W-1:0]  bw;                   // push m goes to the buffer
    reg [QBB-1:0] bwa [0:W-1];         // at this entry
    reg [QBB-1:0] rp_d;
    always @* begin
        cn = {{(32-QCB){1'b0}}, cnt};
        pn = {{(32-WNB){1'b0}}, push_n};
        pp = {30'd0, pop_n};
        hn = (cn < P) ? cn : P;
        bn = cn - hn;
        for (i = 0; i < P; i = i + 1) begin
            src = pp + i;
            hd[i] = hr[i];
            hw[i] = 1'b0;
            if (src < hn) begin
                if (pp != 0) begin
                    hw[i] = 1'b1;
                    for (m = i + 1; m < P; m = m + 1)
                        if (src == m)
                            hd[i] = hr[m];
                end
            end else if (src - hn < bn) begin
                hw[i] = 1'b1;
                hd[i] = br[bidx(rp, 0)];
                for (m = 1; m < P; m = m + 1)
                    if (src - hn == m)
                        hd[i] = br[bidx(rp, m)];
                if (MUT_QORDER && bn > P)   // planted fault: a later entry overtakes
                    hd[i] = br[bidx(rp, src - hn + 1)];
            end else if (src - hn - bn < pn) begin
                hw[i] = 1'b1;
                for (m = 0; m < W; m = m + 1)
                    if (src - hn - bn == m)
                        hd[i] = push_item[m*IW +: IW];
            end
        end
        // old buffer entries that move into the heads, and pushes that go to the buffer
        take_b = pp + P - hn;
        if (take_b < 0)
            take_b = 0;
        if (take_b > bn)
            take_b = bn;
        m0 = pp + P - hn - bn;
        if (m0 < 0)
            m0 = 0;
        for (m = 0; m < W; m = m + 1) begin
            bw[m] = Q > P && m < pn && m >= m0;
            bwa[m] = bidx(rp, bn + m - m0);
        end
        rp_d = bidx(rp, take_b);
        cnt_next = cnt - pp[QCB-1:0] + pn[QCB-1:0];
    end

    integer k;
    always @(posedge clk) begin
        for (k = 0; k < P; k = k + 1)
            if (hw[k])
                hr[k] <= hd[k];
        for (k = 0; k < W; k = k + 1)
            if (bw[k])
                br[bwa[k]] <= push_item[k*IW +: IW];
        if (rst) begin
            cnt <= {QCB{1'b0}};
            rp <= {QBB{1'b0}};
        end else begin
            cnt <= cnt_next;
            rp <= rp_d;
        end
    end
endmodule
