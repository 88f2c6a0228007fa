// lpm_ctl: the request and bubble ports, the direct index table's pipeline,
// the dispatch window and the dispatcher (docs/microarchitecture.md, steps 3
// and 4, the hardware rules D >= 2). Widths and the item layout come from
// lpm_item.vh.
//
// A request accepted in cycle t reads the DIT in t (lpm_dit, addressed by
// req_key); its key and tag ride a pipeline of D-1 registers beside the
// read, and in cycle t+D-1 lpm_entry makes an item of the DIT word, which
// enters the window FIFO at the end of that cycle: the dispatcher sees it
// from t+D on. A bubble takes the cycle alone (its DIT write uses every
// port) and rides the same pipeline. The window's occupancy wn counts the
// FIFO and the pipeline: req_ready and bub_ready come from it (registered
// credits). The dispatcher looks at the first W FIFO entries in order and
// pushes each into its queue while the queue's registered count plus this
// cycle's earlier pushes is below Q; a DIT answer goes to its result lane
// when the lane has room; the first that cannot go stops the rest.
module lpm_ctl (
    input  wire               clk,
    input  wire               rst,
    input  wire [W-1:0]       req_valid,
    output wire [W-1:0]       req_ready,
    input  wire [W*T-1:0]     req_tag,
    input  wire [W*KR-1:0]    req_rest,   // each request's key bits after the DIT's
    input  wire               bub_valid,
    output wire               bub_ready,
    input  wire [BW-1:0]      bub_data,
    output wire               dit_we,
    output wire [XI-1:0]      dit_widx,
    output wire [DB-1:0]      dit_wdata,
    output wire               bt_we,
    output wire [BQB-1:0]     bt_idx,
    output wire [W*KR-1:0]    ent_key,
    output wire [W*T-1:0]     ent_tag,
    input  wire [W*IW-1:0]    ent_item,
    input  wire [NQ*W-1:0]    qroom,      // queue q takes c more: qroom[q*W + c] (registered)
    output reg  [NQ*W*IW-1:0] qpush_item,
    output reg  [NQ*WNB-1:0]  qpush_n,
    input  wire [W-1:0]       drl_room,
    output reg  [W-1:0]       dex_v,
    output reg  [W*RDW-1:0]   dex_d,
    output wire               busy,
    output reg  [W*2-1:0]     dbg_act,
    output reg  [W*WTW-1:0]   dbg_wtok,
    output reg  [1:0]         dbg_stall,
    output reg  [SB-1:0]      dbg_stall_stg
);
`include "lpm_item.vh"

    // ---- the ports: credits from the registered occupancy ----
    reg [FNB-1:0] wn;                    // window entries, the DIT pipeline included
    reg [BQB-1:0] bseq;                  // the next bubble's number
    wire [W-1:0] room;
    wire [W-1:0] acc;                    // lanes taken this cycle
    genvar g;
    generate
        for (g = 0; g < W; g = g + 1) begin : g_acc
            assign room[g] = {{(32-FNB){1'b0}}, wn} + g < C;
            assign req_ready[g] = room[g] & ~bub_valid;
        end
    endgenerate
    reg [W-1:0] acc_r;
    reg         all;
    integer     ka;
    always @* begin
        all = 1'b1;
        for (ka = 0; ka < W; ka = ka + 1) begin
            all = all & req_valid[ka] & req_ready[ka];
            acc_r[ka] = all;
        end
    end
    assign acc = acc_r;
    assign bub_ready = room[0];
    wire bub_take = bub_valid & room[0];
    assign dit_we = bub_take & bub_data[N*BSW];
    assign dit_widx = bub_data[N*BSW + 1 +: XI];
    assign dit_wdata = bub_data[N*BSW + 1 + XI +: DB];
    assign bt_we = bub_take;
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

    // ---- the DIT pipeline: D-1 registers beside the read ----
    reg [W-1:0]    pv   [1:D-1];
    reg            pbub [1:D-1];
    reg [W*KR-1:0] pkey [1:D-1];
    reg [W*T-1:0]  ptag [1:D-1];
    reg [IW-1:0]   pbit [1:D-1];
    integer d;
    always @(posedge clk) begin
        pv[1] <= bub_take ? {{(W-1){1'b0}}, 1'b1} : acc;
        pbub[1] <= bub_take;
        pkey[1] <= req_rest;
        ptag[1] <= req_tag;
        pbit[1] <= bitem;
        for (d = 2; d < D; d = d + 1) begin
            pv[d] <= pv[d-1];
            pbub[d] <= pbub[d-1];
            pkey[d] <= pkey[d-1];
            ptag[d] <= ptag[d-1];
            pbit[d] <= pbit[d-1];
        end
        if (rst)
            for (d = 1; d < D; d = d + 1)
                pv[d] <= {W{1'b0}};
    end
    assign ent_key = pkey[D-1];
    assign ent_tag = ptag[D-1];

    // what enters the FIFO this cycle, in lane order, with the one-hot of
    // its entry stage (decoded here, off the dispatcher's path)
    localparam SN = 5;                   // small counts: 0 .. W
    reg [IW-1:0] inc_item [0:W-1];
    reg [NQ-1:0] inc_oh [0:W-1];
    reg [SN-1:0] inc;
    integer k, q;
    always @* begin
        inc = {SN{1'b0}};
        for (k = 0; k < W; k = k + 1) begin
            inc_item[k] = ent_item[k*IW +: IW];
            if (pv[D-1][k])
                inc = inc + 1'b1;
        end
        if (pbub[D-1])
            inc_item[0] = pbit[D-1];
        for (k = 0; k < W; k = k + 1) begin
            inc_oh[k] = {{(NQ-1){1'b0}}, 1'b1};
            if (RING != 0 && !inc_item[k][F_B])
                for (q = 0; q < NQ; q = q + 1)
                    inc_oh[k][q] = inc_item[k][F_STG +: SB] == q[SB-1:0];
        end
    end

    // ---- the dispatcher: the first W entries in window order ----
    reg [IW-1:0] wf [0:C-1];
    reg [NQ-1:0] woh [0:C-1];            // each entry's entry stage, one-hot
    reg [C:0]    fh;                     // one-hot of fn: fh[i] = (fn == i)
    reg [IW-1:0] it;
    reg [NQ-1:0] oh;
    reg [SN-1:0] taken;
    reg [NQ*SN-1:0] pc;                  // pushes into each queue so far this cycle
    reg [SB-1:0] e;
    integer j, m;
    reg stop, ok;
    always @* begin
        qpush_item = {NQ*W*IW{1'b0}};
        qpush_n = {NQ*WNB{1'b0}};
        dex_v = {W{1'b0}};
        dex_d = {W*RDW{1'b0}};
        dbg_act = {W*2{1'b0}};
        dbg_wtok = {W*WTW{1'b0}};
        dbg_stall = 2'd0;
        dbg_stall_stg = {SB{1'b0}};
        stop = 1'b0;
        ok = 1'b0;
        taken = {SN{1'b0}};
        pc = {NQ*SN{1'b0}};
        for (j = 0; j < W; j = j + 1) begin
            it = wf[j];
            oh = woh[j];
            // a bubble, and every item of a linear pipeline, enters at stage 0
            e = (it[F_B] || RING == 0) ? {SB{1'b0}} : it[F_STG +: SB];
            dbg_wtok[j*WTW +: WTW] = {e, it[F_TAG +: TG], it[F_B]};
            if (!stop && fnz(j)) begin
                if (!it[F_B] && it[F_DONE]) begin
                    if (drl_room[j]) begin
                        dbg_act[j*2 +: 2] = 2'd1;
                        dex_v[j] = 1'b1;
                        dex_d[j*RDW +: RDW] = {it[F_NH +: NB], it[F_NHV], it[F_TAG +: T]};
                        taken = taken + 1'b1;
                    end else begin
                        dbg_stall = 2'd2;
                        stop = 1'b1;
                    end
                end else begin
                    ok = 1'b0;
                    for (q = 0; q < NQ; q = q + 1)
                        for (m = 0; m < W; m = m + 1)
                            if (oh[q] && pc[q*SN +: SN] == m[SN-1:0] && qroom[q*W + m])
                                ok = 1'b1;
                    if (ok) begin
                        for (q = 0; q < NQ; q = q + 1)
                            if (oh[q]) begin
                                for (m = 0; m < W; m = m + 1)
                                    if (pc[q*SN +: SN] == m[SN-1:0])
                                        qpush_item[(q*W + m)*IW +: IW] = it;
                                pc[q*SN +: SN] = pc[q*SN +: SN] + 1'b1;
                                qpush_n[q*WNB +: WNB] = pc[q*SN +: WNB];
                            end
                        dbg_act[j*2 +: 2] = 2'd2;
                        taken = taken + 1'b1;
                    end else begin
                        dbg_stall = 2'd1;
                        dbg_stall_stg = e;
                        stop = 1'b1;
                    end
                end
            end
        end
    end

    // entry j is in the FIFO: fn > j (fh is the one-hot of fn)
    function fnz;
        input integer jj;
        integer z;
        begin
            fnz = 1'b1;
            for (z = 0; z <= jj; z = z + 1)
                if (fh[z])
                    fnz = 1'b0;
        end
    endfunction

    // ---- the window FIFO: taken entries leave the front, the pipeline's join the back ----
    reg [IW-1:0] nf [0:C-1];
    reg [NQ-1:0] nfo [0:C-1];
    reg [C:0]    fh_d;
    integer i, a;
    always @* begin
        for (i = 0; i < C; i = i + 1) begin
            nf[i] = wf[i];
            nfo[i] = woh[i];
            for (a = 1; a <= W; a = a + 1)
                if (taken == a[SN-1:0] && i + a < C) begin
                    nf[i] = wf[i + a];
                    nfo[i] = woh[i + a];
                end
            // the m-th incoming entry lands at fn - taken + m
            for (m = 0; m < W; m = m + 1)
                for (a = 0; a <= W; a = a + 1)
                    if (i + a - m >= 0 && i + a - m <= C && taken == a[SN-1:0] && fh[i + a - m] && m[SN-1:0] < inc) begin
                        nf[i] = inc_item[m];
                        nfo[i] = inc_oh[m];
                    end
        end
        // fn - taken + inc, one-hot
        fh_d = {(C+1){1'b0}};
        for (i = 0; i <= C; i = i + 1)
            for (a = 0; a <= W; a = a + 1)
                for (m = 0; m <= W; m = m + 1)
                    if (fh[i] && taken == a[SN-1:0] && inc == m[SN-1:0] && i - a + m >= 0 && i - a + m <= C)
                        fh_d[i - a + m] = 1'b1;
    end

    reg [SN-1:0] nr;
    always @* begin
        nr = {SN{1'b0}};
        for (k = 0; k < W; k = k + 1)
            if (acc[k])
                nr = nr + 1'b1;
        if (bub_take)
            nr = {{(SN-1){1'b0}}, 1'b1};
    end

    localparam XW = (FNB > SN) ? FNB + 1 : SN + 1;
    /* verilator lint_off UNUSEDSIGNAL */ // the carry
    reg [XW-1:0] wn_d;
    /* verilator lint_on UNUSEDSIGNAL */
    always @* wn_d = {{(XW-FNB){1'b0}}, wn} - {{(XW-SN){1'b0}}, taken} + {{(XW-SN){1'b0}}, nr};

    always @(posedge clk) begin
        for (i = 0; i < C; i = i + 1) begin
            wf[i] <= nf[i];
            woh[i] <= nfo[i];
        end
        if (rst) begin
            wn <= {FNB{1'b0}};
            fh <= {{C{1'b0}}, 1'b1};
            bseq <= {BQB{1'b0}};
        end else begin
            wn <= wn_d[FNB-1:0];
            fh <= fh_d;
            bseq <= bseq + {{(BQB-1){1'b0}}, bub_take};
        end
    end
    assign busy = wn != {FNB{1'b0}};
endmodule
