// lpm_queue: one stage's queue, first-word-fall-through (docs/microarchitecture.md,
// section 5). A cycle takes up to W pushes (the first push_n of push_item,
// in order: the dispatcher decided them the cycle before, res_n of that
// cycle) and up to P pops (pop_n, never more than the entries held).
// Everything the other modules read is a register: the head entries (the
// first P entries themselves, so that the stage's address multiplexer sees
// registers), nz (a head entry is there), n2 (two are), and room[c] =
// (credits + c < Q), the dispatcher's credits, which count a push from its
// decision (res_n) on, a cycle before it lands.
//
// No arithmetic sits between a pop or a push and a register: the entries
// shift towards the head by the pops (entry i takes entry i + pop_n, or the
// push that lands there), and the occupancy is a thermometer code (th[j] =
// more than j entries), which a cycle shifts by pushes - pops. What entry i
// becomes for each pop count depends on registers only (one LUT a bit); the
// pop count, one LUT from the stage's registers, picks one of them: two LUTs
// from a register to an entry.
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
    output reg               hw,
    output reg  [QCB-1:0]    cnt_next
);
`include "lpm_item.vh"
    localparam integer QL = Q + MUT_QCAP;         // the credit's limit (Q, or one more: a planted fault)
    localparam K = 2 * P + 1;                     // sequence positions a head can take: pop_n + i, +1 for the fault
    localparam TH = (QL + 1 > K + 1) ? QL + 1 : K + 1; // thermometer bits: th[j] = (entries > j)

    localparam QE = (Q > P) ? Q : P;              // entries (P heads even when Q < P: those are never held)
    reg [IW-1:0] e [0:QE-1];                      // e[0] is the oldest entry
    reg [TH-1:0] th;                              // entries held
    reg [TH-1:0] tc;                              // credits: pushes decided - pops

    genvar g;
    generate
        for (g = 0; g < P; g = g + 1) begin : g_head
            assign head[g*IW +: IW] = e[g];
        end
    endgenerate

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

    // eq[n]: exactly n entries
    wire [TH-1:0] eq = {th[TH-2:0], 1'b1} & ~th;

    wire [31:0]  ppi = {30'd0, pop_n};           // the counts as integers
    wire [31:0]  pni = {{(32-WNB){1'b0}}, push_n};
    wire [31:0]  rni = {{(32-WNB){1'b0}}, res_n};

    reg [TH-1:0] th_d, tc_d;
    integer sk, sm, tj;
    always @* begin
        // the occupancy shifted by push_n - pop_n, the credits by res_n - pop_n
        th_d = th;
        tc_d = tc;
        for (sk = 0; sk <= P; sk = sk + 1)
            for (sm = 0; sm <= W; sm = sm + 1) begin
                if (ppi == sk && pni == sm)
                    th_d = tshift(th, sk - sm);
                if (ppi == sk && rni == sm)
                    tc_d = tshift(tc, sk - sm);
            end
        // the binary count of credits (the log's q), for the cycle log only (lpm_top leaves it unconnected)
        cnt_next = {QCB{1'b0}};
        for (tj = 0; tj < TH; tj = tj + 1)
            if (tc_d[tj])
                cnt_next = cnt_next + 1'b1;
    end

    // the entries. With one lane and one push a cycle (P = 1, W = 1) an entry
    // loads only when the head pops or it is not held, from the entry behind
    // it when that one is held, else from the push (which lands there when it
    // lands at all): the pop is only a clock enable, one LUT from registers
    // (the stage's hop valid bit and nz), and each entry's data one LUT from
    // registers. hw, the head is a bubble that writes its stage, follows e[0].
    // Otherwise the pop count picks one of the shifted queues sh[k].
    generate
        if (P == 1 && W == 1 && !MUT_QORDER) begin : g_ce
            wire pop = pop_n[0];
            integer ci;
            always @(posedge clk) begin
                for (ci = 0; ci < QE; ci = ci + 1)
                    if (pop | ~th[ci])
                        e[ci] <= (ci + 1 < QE && th[ci + 1]) ? e[(ci + 1 < QE) ? ci + 1 : 0] : push_item;
                if (pop | ~th[0])
                    hw <= (QE > 1 && th[1]) ? e[(QE > 1) ? 1 : 0][F_B] & e[(QE > 1) ? 1 : 0][F_WEN]
                                            : push_n[0] & push_item[F_B] & push_item[F_WEN];
                if (rst)
                    hw <= 1'b0;
            end
        end else begin : g_sh
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
            always @(posedge clk) begin
                for (ce = 0; ce < QE; ce = ce + 1)
                    e[ce] <= nd[ce];
                hw <= ~rst & th_d[0] & nd[0][F_B] & nd[0][F_WEN];
            end
        end
    endgenerate

    integer c;
    always @(posedge clk) begin
        if (rst) begin
            th <= {TH{1'b0}};
            tc <= {TH{1'b0}};
            nz <= 1'b0;
            n2 <= 1'b0;
            for (c = 0; c < W; c = c + 1)
                room[c] <= c < QL;
        end else begin
            th <= th_d;
            tc <= tc_d;
            nz <= th_d[0];
            n2 <= th_d[1];
            for (c = 0; c < W; c = c + 1)
                room[c] <= (c < QL) ? !tc_d[(c < QL) ? QL - 1 - c : 0] : 1'b0;
        end
    end
endmodule
