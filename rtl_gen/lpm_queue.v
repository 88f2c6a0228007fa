// lpm_queue: one stage's queue, first-word-fall-through (docs/microarchitecture.md,
// section 5). The first P entries are registers (head), so that the stage's
// address multiplexer sees registers; the entries behind them wait in a
// circular buffer. A cycle takes up to W pushes (the first push_n of
// push_item, in order) and up to P pops (pop_n, never more than cnt).
// Everything the other modules read is a register: the head entries, nz
// (a head entry is there), n2 (two are), and room[c] = (cnt + c < Q), the
// dispatcher's credits. The arithmetic is as narrow as the counts: the
// queue as one sequence (heads, buffer, this cycle's pushes) only needs the
// heads held (0..P) and the buffer's count up to P to place every entry.
// Widths and the item layout come from lpm_item.vh.
module lpm_queue (
    input  wire              clk,
    input  wire              rst,
    input  wire [W*IW-1:0]   push_item,
    input  wire [WNB-1:0]    push_n,
    input  wire [1:0]        pop_n,
    output wire [P*IW-1:0]   head,
    output reg               nz,
    output reg               n2,
    output reg  [W-1:0]      room,
    output reg  [QCB-1:0]    cnt_next
);
`include "lpm_item.vh"
    localparam QB = (Q > P) ? Q - P : 1;          // buffer entries behind the head registers
    localparam QBB = (QB > 1) ? $clog2(QB) : 1;
    localparam SW = 6;                            // small sequence positions: 0 .. 2P + W
    localparam CW = ((QCB > SW) ? QCB : SW) + 1; // count arithmetic
    localparam [SW-1:0] PS = P;
    localparam integer QL = Q + MUT_QCAP;         // the credit's limit (Q, or one more: a planted fault)

    reg [IW-1:0]  hr [0:P-1];
    reg [IW-1:0]  br [0:QB-1];
    reg [QCB-1:0] cnt, bc;                        // entries; entries in the buffer
    reg [1:0]     hn;                             // heads held: min(cnt, P)
    reg [1:0]     bs;                             // min(bc, P)
    reg           bgt;                            // bc > P
    reg [QBB-1:0] rp, wp;                         // the buffer's oldest entry, its next free one

    genvar g;
    generate
        for (g = 0; g < P; g = g + 1) begin : g_head
            assign head[g*IW +: IW] = hr[g];
        end
    endgenerate

    // min(x, P)
    function [1:0] sat;
        input [QCB-1:0] x;
        begin
            sat = (x == 0) ? 2'd0 : ((x == 1 || P == 1) ? 2'd1 : 2'd2);
        end
    endfunction

    // a + c modulo QB, for the small c the sequence needs
    function [QBB-1:0] wrap;
        input [QBB-1:0] a;
        input [SW-1:0] c;
        reg [QBB+SW:0] v;
        begin
            v = {{(SW+1){1'b0}}, a} + {{(QBB+1){1'b0}}, c};
            if (v >= QB)
                v = v - QB;
            wrap = v[QBB-1:0];
        end
    endfunction

    reg [SW-1:0]  k, pn, pp, h, b, m0, mv, pb;   // small positions and counts
    reg [IW-1:0]  hd [0:P-1];
    reg [P-1:0]   hw;                             // head i changes
    reg [W-1:0]   bw;                             // push m goes into the buffer
    reg [QBB-1:0] bwa [0:W-1];                    // at this entry
    reg [QCB-1:0] bc_d;
    /* verilator lint_off UNUSEDSIGNAL */ // the carries of the count arithmetic
    reg [CW-1:0]  t1, t2;
    /* verilator lint_on UNUSEDSIGNAL */
    integer i, m;
    always @* begin
        pp = {{(SW-2){1'b0}}, pop_n};
        pn = {{(SW-WNB){1'b0}}, push_n};
        h = {{(SW-2){1'b0}}, hn};
        b = {{(SW-2){1'b0}}, bs};
        for (i = 0; i < P; i = i + 1) begin
            k = pp + i[SW-1:0];                   // the sequence position that becomes head i
            hd[i] = hr[i];
            hw[i] = 1'b0;
            if (k < h) begin
                if (pp != 0) begin
                    hw[i] = 1'b1;
                    for (m = i + 1; m < P; m = m + 1)
                        if (k == m[SW-1:0])
                            hd[i] = hr[m];
                end
            end else if (k < h + b) begin
                hw[i] = 1'b1;
                hd[i] = br[(k == h) ? rp : wrap(rp, k - h)];
                if (MUT_QORDER && bgt)         // planted fault: a later entry overtakes
                    hd[i] = br[wrap(rp, k - h + 1'b1)];
            end else if (k < h + b + pn) begin
                hw[i] = 1'b1;
                for (m = 0; m < W; m = m + 1)
                    if (k - h - b == m[SW-1:0])
                        hd[i] = push_item[m*IW +: IW];
            end
        end
        // buffer entries that move into the heads: positions h .. h+b-1 below pp + P
        mv = (pp + PS > h) ? pp + PS - h : {SW{1'b0}};
        if (mv > b)
            mv = b;
        // pushes from m0 on go into the buffer, at wp onwards
        m0 = (pp + PS > h + b) ? pp + PS - h - b : {SW{1'b0}};
        if (bgt)
            m0 = {SW{1'b0}};
        pb = (pn > m0) ? pn - m0 : {SW{1'b0}};
        for (m = 0; m < W; m = m + 1) begin
            bw[m] = Q > P && m < pn && m >= m0;
            bwa[m] = wrap(wp, m[SW-1:0] - m0);
        end
        t1 = {{(CW-QCB){1'b0}}, cnt} - {{(CW-SW){1'b0}}, pp} + {{(CW-SW){1'b0}}, pn};
        t2 = {{(CW-QCB){1'b0}}, bc} - {{(CW-SW){1'b0}}, mv} + {{(CW-SW){1'b0}}, pb};
        cnt_next = t1[QCB-1:0];
        bc_d = t2[QCB-1:0];
    end

    integer c, ci, cm;
    always @(posedge clk) begin
        for (ci = 0; ci < P; ci = ci + 1)
            if (hw[ci])
                hr[ci] <= hd[ci];
        for (cm = 0; cm < W; cm = cm + 1)
            if (bw[cm])
                br[bwa[cm]] <= push_item[cm*IW +: IW];
        if (rst) begin
            cnt <= {QCB{1'b0}};
            bc <= {QCB{1'b0}};
            hn <= 2'd0;
            bs <= 2'd0;
            bgt <= 1'b0;
            rp <= {QBB{1'b0}};
            wp <= {QBB{1'b0}};
            nz <= 1'b0;
            n2 <= 1'b0;
            for (c = 0; c < W; c = c + 1)
                room[c] <= c < QL;
        end else begin
            cnt <= cnt_next;
            bc <= bc_d;
            hn <= sat(cnt_next);
            bs <= sat(bc_d);
            bgt <= {{(32-QCB){1'b0}}, bc_d} > P;
            rp <= wrap(rp, mv);
            wp <= wrap(wp, pb);
            nz <= cnt_next != 0;
            n2 <= cnt_next > 1;
            for (c = 0; c < W; c = c + 1)
                room[c] <= c < QL && {{(32-QCB){1'b0}}, cnt_next} < QL - c;
        end
    end
endmodule
