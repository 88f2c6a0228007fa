// lpm_queue: one stage's queue, first-word-fall-through (docs/microarchitecture.md,
// section 5). A cycle takes up to W pushes (the first push_n of push_item,
// in order: the dispatcher decided them the cycle before, res_n of that
// cycle) and up to P pops (pop_n, never more than the entries held).
// Everything the other modules read is a register: the head entries (the
// first P, copies of the buffer's oldest entries, so that the stage's
// address multiplexer sees registers), nz (a head entry is there), n2 (two
// are), and room[c] = (credits + c < Q), the dispatcher's credits, which
// count a push from its decision (res_n) on, a cycle before it lands.
//
// No arithmetic sits between a pop or a push and a register: the entries
// live in a circular buffer of Q entries whose read and write pointers are
// one-hot (a pop or push rotates them: wiring and a small multiplexer), and
// the occupancy is a thermometer code (th[j] = more than j entries), which
// a cycle shifts by pushes - pops. Push m writes the entry the write
// pointer rotated by m names; head i becomes the entry pop_n + i places
// behind the read pointer, or, when that one is not held yet, this cycle's
// push (pop_n + i - entries). Widths and the item layout: lpm_item.vh.
module lpm_queue (
    input  wire              clk,
    input  wire              rst,
    input  wire [W*IW-1:0]   push_item,
    input  wire [WNB-1:0]    push_n,
    input  wire [WNB-1:0]    res_n,
    input  wire [1:0]        pop_n,
    output wire [P*IW-1:0]   head,
    output reg               nz,
    output reg               n2,
    output reg  [W-1:0]      room,
    output reg  [QCB-1:0]    cnt_next
);
`include "lpm_item.vh"
    localparam integer QL = Q + MUT_QCAP;         // the credit's limit (Q, or one more: a planted fault)
    localparam K = 2 * P + 1;                     // sequence positions a head can take: pop_n + i, +1 for the fault
    localparam TH = (QL + 1 > K + 1) ? QL + 1 : K + 1; // thermometer bits: th[j] = (entries > j)
    localparam [Q-1:0] ONE = 1;

    reg [IW-1:0] hr [0:P-1];
    reg [IW-1:0] br [0:Q-1];
    reg [Q-1:0]  rp, wp;                          // one-hot: the oldest entry, the next free one
    reg [TH-1:0] th;                              // entries held
    reg [TH-1:0] tc;                              // credits: pushes decided - pops

    genvar g;
    generate
        for (g = 0; g < P; g = g + 1) begin : g_head
            assign head[g*IW +: IW] = hr[g];
        end
    endgenerate

    // x rotated towards higher entries by r
    function [Q-1:0] rot;
        input [Q-1:0] x;
        input integer r;
        integer z;
        begin
            for (z = 0; z < Q; z = z + 1)
                rot[(z + r) % Q] = x[z];
        end
    endfunction

    // the entry k places behind the read pointer, for every k a head can
    // take (a one-hot read: AND-OR over the entries)
    reg [Q-1:0]  rk [0:K-1];
    reg [IW-1:0] at [0:K-1];
    integer ak, ae;
    always @* begin
        for (ak = 0; ak < K; ak = ak + 1) begin
            rk[ak] = rot(rp, ak);
            at[ak] = {IW{1'b0}};
            for (ae = 0; ae < Q; ae = ae + 1)
                if (rk[ak][ae])
                    at[ak] = at[ak] | br[ae];
        end
    end

    // eq[j]: exactly j entries
    wire [K-1:0] eq = {th[K-2:0], 1'b1} & ~th[K-1:0];

    wire [31:0]  ppi = {30'd0, pop_n};           // the counts as integers
    wire [31:0]  pni = {{(32-WNB){1'b0}}, push_n};
    wire [31:0]  rni = {{(32-WNB){1'b0}}, res_n};
    reg [IW-1:0] hd [0:P-1];
    reg [TH-1:0] th_d, tc_d;
    reg [Q-1:0]  rp_d, wp_d;
    reg [Q-1:0]  wm [0:W-1];                      // where push m goes
    integer hi, hk, hm, tj;
    always @* begin
        for (hi = 0; hi < P; hi = hi + 1) begin
            hd[hi] = hr[hi];
            for (hk = 0; hk < K; hk = hk + 1)
                if (hk == ppi + hi) begin
                    if (th[hk]) begin
                        hd[hi] = at[hk];
                        if (MUT_QORDER && hk + 1 < K && th[hk + 1]) // planted fault: a later entry overtakes
                            hd[hi] = at[hk + 1];
                    end else begin
                        // not held yet: this cycle's push number hk - entries
                        for (hm = 0; hm < W; hm = hm + 1)
                            if (hm <= hk && eq[hk - hm])
                                hd[hi] = push_item[hm*IW +: IW];
                    end
                end
        end
        for (hm = 0; hm < W; hm = hm + 1)
            wm[hm] = rot(wp, hm);
        rp_d = rp;
        for (hk = 1; hk <= P; hk = hk + 1)
            if (ppi == hk)
                rp_d = rot(rp, hk);
        wp_d = wp;
        for (hm = 1; hm <= W; hm = hm + 1)
            if (pni == hm)
                wp_d = rot(wp, hm);
        // the occupancy shifted by push_n - pop_n
        th_d = th;
        for (hk = 0; hk <= P; hk = hk + 1)
            for (hm = 0; hm <= W; hm = hm + 1)
                if (ppi == hk && pni == hm)
                    for (tj = 0; tj < TH; tj = tj + 1)
                        th_d[tj] = (tj + hk - hm < 0) ? 1'b1 : (tj + hk - hm < TH) ? th[tj + hk - hm] : 1'b0;
        // the credits shifted by res_n - pop_n
        tc_d = tc;
        for (hk = 0; hk <= P; hk = hk + 1)
            for (hm = 0; hm <= W; hm = hm + 1)
                if (ppi == hk && rni == hm)
                    for (tj = 0; tj < TH; tj = tj + 1)
                        tc_d[tj] = (tj + hk - hm < 0) ? 1'b1 : (tj + hk - hm < TH) ? tc[tj + hk - hm] : 1'b0;
        // the binary count of credits (the log's q), for the cycle log only (lpm_top leaves it unconnected)
        cnt_next = {QCB{1'b0}};
        for (tj = 0; tj < TH; tj = tj + 1)
            if (tc_d[tj])
                cnt_next = cnt_next + 1'b1;
    end

    integer c, ce, cw;
    always @(posedge clk) begin
        for (c = 0; c < P; c = c + 1)
            hr[c] <= hd[c];
        for (ce = 0; ce < Q; ce = ce + 1)
            for (cw = 0; cw < W; cw = cw + 1)
                if (cw < pni && wm[cw][ce])
                    br[ce] <= push_item[cw*IW +: IW];
        if (rst) begin
            rp <= ONE;
            wp <= ONE;
            th <= {TH{1'b0}};
            tc <= {TH{1'b0}};
            nz <= 1'b0;
            n2 <= 1'b0;
            for (c = 0; c < W; c = c + 1)
                room[c] <= c < QL;
        end else begin
            rp <= rp_d;
            wp <= wp_d;
            th <= th_d;
            tc <= tc_d;
            nz <= th_d[0];
            n2 <= th_d[1];
            for (c = 0; c < W; c = c + 1)
                room[c] <= (c < QL) ? !tc_d[(c < QL) ? QL - 1 - c : 0] : 1'b0;
        end
    end
endmodule
