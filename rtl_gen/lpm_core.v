// lpm_core: the dispatcher, the per-stage queues, the dispatch window, the
// bubble table and the reorder buffer of a CAMP ring or write-bubble linear
// pipeline. The cycle rules are docs/microarchitecture.md; step numbers in
// the comments refer to its section 2. The stage memories and the direct
// index table live in generated modules (lpm_stage_NN, lpm_dit): this
// module hands each stage the item it holds this cycle (cur) and takes back
// what the stage made of it (st_item / st_pass / st_exit).
//
// An item is one packed vector (LSB first): v, b (bubble), done, nhv,
// tag (lookup id or bubble number), nh, stg (stage to read next), addr,
// bitpos, key. Registers hold the state between cycles; everything a cycle
// decides is combinational from them (the memories read on the falling
// edge, in the middle of the cycle).
module lpm_core #(
    parameter N = 4,            // stages
    parameter RING = 1,         // 0: linear
    parameter Q = 4,            // queue depth per stage (0: none)
    parameter W = 1,            // issue width = window entries
    parameter R = 0,            // reorder buffer entries (0: none)
    parameter KB = 32,          // key bits
    parameter ID = 32,          // id / tag bits
    parameter SB = 2,           // stage index bits
    parameter AB = 8,           // word address bits
    parameter NB = 4,           // next-hop index bits
    parameter PB = 8,           // bit position bits
    parameter WB = 16,          // node word bits
    parameter XI = 8,           // DIT index bits (at least 1)
    parameter DB = 20,          // DIT entry bits
    parameter BQB = 4,          // log2 of the bubble table entries
    parameter MUT = 0,          // planted fault: 1 = queue head beats the passing item
    // derived: not to be set by the instance
    parameter IW = 4 + ID + NB + SB + AB + PB + KB,
    parameter BSW = 1 + AB + WB,
    parameter BW = N * BSW + 1 + XI + DB,
    parameter L = (R > 0) ? W : N + W,
    parameter QQ = (Q > 0) ? Q : 1,
    parameter RR = (R > 0) ? R : 1,
    parameter QIB = (QQ > 1) ? $clog2(QQ) : 1,
    parameter QCB = $clog2(Q + 1) > 0 ? $clog2(Q + 1) : 1,
    parameter WCB = $clog2(W + 1),
    parameter RIB = (RR > 1) ? $clog2(RR) : 1
) (
    input  wire              clk,
    input  wire              rst,
    // requests: lane i is taken when valid and ready; lanes are taken in order
    input  wire [W-1:0]      req_valid,
    output reg  [W-1:0]      req_ready,
    input  wire [W*ID-1:0]   req_id,
    input  wire [W*KB-1:0]   req_key,
    // update bubbles: per lane, N x {we, addr, word}, then {we, index, entry} for
    // the DIT; only lane 0 is ever ready (one bubble a cycle, as the simulator)
    input  wire [W-1:0]      bub_valid,
    output reg  [W-1:0]      bub_ready,
    input  wire [W*BW-1:0]   bub_data,
    // results: exit order (R = 0) or input order (reorder buffer releases)
    output reg  [L-1:0]      res_valid,
    output reg  [L*ID-1:0]   res_id,
    output reg  [L-1:0]      res_nhv,
    output reg  [L*NB-1:0]   res_nh,
    output wire              busy,
    // the direct index table (lpm_dit): one read per request lane, bubble writes
    input  wire [W*IW-1:0]   dit_item,
    output reg  [W-1:0]      dit_we,
    output reg  [W*XI-1:0]   dit_widx,
    output reg  [W*DB-1:0]   dit_wdata,
    // the stages (lpm_stage_NN)
    output reg  [N*IW-1:0]   cur,
    output wire [N-1:0]      st_we,
    output wire [N*AB-1:0]   st_waddr,
    output wire [N*WB-1:0]   st_wdata,
    input  wire [N*IW-1:0]   st_item,
    input  wire [N-1:0]      st_pass,
    input  wire [N-1:0]      st_exit,
    // what the cycle log needs (docs/microarchitecture.md section 6)
    output reg  [N-1:0]      dbg_pop,
    output reg  [N*QCB-1:0]  dbg_qn,
    output wire [W*IW-1:0]   dbg_win,
    output wire [WCB-1:0]    dbg_win_n,
    output reg  [W*2-1:0]    dbg_act,     // per window entry: 0 -, 1 dit, 2 in, 3 push
    output reg  [1:0]        dbg_stall,   // 0 none, 1 rob, 2 queue
    output reg  [SB-1:0]     dbg_stall_stg,
    output reg  [N+W-1:0]    dbg_exit,    // exit lanes: stages by index, then DIT answers in window order
    output reg  [(N+W)*ID-1:0] dbg_exit_tag
);
    localparam O_TAG = 4, O_NH = O_TAG + ID, O_STG = O_NH + NB, O_ADDR = O_STG + SB;
    localparam O_BP = O_ADDR + AB, O_KEY = O_BP + PB;
    localparam BQ = 1 << BQB;

    // ---- state ----
    reg [N*IW-1:0]   out_q;              // items passing into the next stage
    reg [IW-1:0]     qm [0:N*QQ-1];      // queue entries
    reg [N*QIB-1:0]  qhead_q;
    reg [N*QCB-1:0]  qn_q;
    reg [W*IW-1:0]   win_q;              // dispatch window, input order
    reg [WCB-1:0]    win_n_q;
    reg [ID-1:0]     bseq_q;             // next bubble number
    reg [RR-1:0]     rob_v;
    reg [ID+NB:0]    rob_m [0:RR-1];     // {nhv, nh, id}
    reg [ID-1:0]     rhead_q;            // oldest id not yet released
    reg [RIB-1:0]    rhidx_q;            // its entry

    assign dbg_win = win_q;
    assign dbg_win_n = win_n_q;

    // ---- one cycle, combinational ----
    reg [W-1:0]        push_en;
    reg [W*32-1:0]     push_at;
    reg [N-1:0]        swap;             // MUT: passing item parked at the queue head
    reg [N*IW-1:0]     swap_item;
    reg [W*IW-1:0]     win_d;
    reg [L-1:0]        rel_valid;
    reg [W*RIB-1:0]    rel_idx;
    reg [W*BQB-1:0]    bq_idx;
    reg [N*IW-1:0]     out_d;
    reg [(N+W)*IW-1:0] ex_item;
    integer            taken, nb, nr, rem;

    // queue heads (asynchronous reads of small register files)
    wire [N*IW-1:0] qhead_item;
    genvar gs;
    generate
        for (gs = 0; gs < N; gs = gs + 1) begin : g_qh
            wire [QIB-1:0] h = qhead_q[gs*QIB +: QIB];
            assign qhead_item[gs*IW +: IW] = qm[gs*QQ + {{(32-QIB){1'b0}}, h}];
        end
    endgenerate

    // the bubble table: each stage's write of each bubble in flight, by bubble number
    generate
        for (gs = 0; gs < N; gs = gs + 1) begin : g_bt
            reg [BSW-1:0] bt [0:BQ-1];
            wire [IW-1:0] ci = cur[gs*IW +: IW];
            wire [BSW-1:0] be = bt[ci[O_TAG +: BQB]];
            assign st_we[gs] = ci[0] & ci[1] & be[0];
            assign st_waddr[gs*AB +: AB] = be[1 +: AB];
            assign st_wdata[gs*WB +: WB] = be[1 + AB +: WB];
            integer j;
            always @(posedge clk)
                for (j = 0; j < W; j = j + 1)
                    if (!rst && bub_valid[j] && bub_ready[j] && j < nb)
                        bt[bq_idx[j*BQB +: BQB]] <= bub_data[j*BW + gs*BSW +: BSW];
        end
    endgenerate

    // steps 1 to 3: reorder-buffer release, stage selection, dispatch
    integer s, i, k, e, pos;
    reg [IW-1:0]  it, pin;
    reg [ID-1:0]  dif;
    reg [QCB-1:0] qc;
    reg           stop, go;
    reg [RIB:0]   ri;
    always @* begin
        // step 1: up to W releases from the head, in id order
        rel_valid = {L{1'b0}};
        rel_idx = {W*RIB{1'b0}};
        go = 1'b1;
        for (k = 0; k < W; k = k + 1) begin
            ri = {1'b0, rhidx_q} + k[RIB:0];
            if (ri >= RR[RIB:0])
                ri = ri - RR[RIB:0];
            rel_idx[k*RIB +: RIB] = ri[RIB-1:0];
            if (R > 0 && go && rob_v[ri[RIB-1:0]])
                rel_valid[k] = 1'b1;
            else
                go = 1'b0;
        end

        // step 2: the passing item takes the stage, else the queue head
        cur = {N*IW{1'b0}};
        dbg_pop = {N{1'b0}};
        swap = {N{1'b0}};
        swap_item = {N*IW{1'b0}};
        dbg_qn = qn_q;
        for (s = 0; s < N; s = s + 1) begin
            if (RING != 0)
                pin = out_q[((s + N - 1) % N)*IW +: IW];
            else if (s == 0)
                pin = {IW{1'b0}};
            else
                pin = out_q[(s - 1)*IW +: IW];
            qc = qn_q[s*QCB +: QCB];
            if (MUT == 1 && pin[0] && qc != 0) begin
                cur[s*IW +: IW] = qhead_item[s*IW +: IW];
                swap[s] = 1'b1;
                swap_item[s*IW +: IW] = pin;
            end else if (pin[0]) begin
                cur[s*IW +: IW] = pin;
            end else if (qc != 0) begin
                cur[s*IW +: IW] = qhead_item[s*IW +: IW];
                dbg_pop[s] = 1'b1;
                dbg_qn[s*QCB +: QCB] = qc - 1'b1;
            end
        end

        // step 3: dispatch in window order until one item cannot go on
        stop = 1'b0;
        taken = 0;
        dbg_act = {W*2{1'b0}};
        dbg_stall = 2'd0;
        dbg_stall_stg = {SB{1'b0}};
        push_en = {W{1'b0}};
        push_at = {W*32{1'b0}};
        e = 0;
        pos = 0;
        for (i = 0; i < W; i = i + 1) begin
            it = win_q[i*IW +: IW];
            dif = it[O_TAG +: ID] - rhead_q;
            if (!stop && i < {{(32-WCB){1'b0}}, win_n_q}) begin
                if (!it[1] && R > 0 && dif >= RR[ID-1:0]) begin
                    dbg_stall = 2'd1;
                    stop = 1'b1;
                end else if (!it[1] && it[2]) begin
                    dbg_act[i*2 +: 2] = 2'd1;
                    taken = taken + 1;
                end else begin
                    // a bubble, and every item of a linear pipeline, enters at stage 0
                    e = (it[1] || RING == 0) ? 0 : {{(32-SB){1'b0}}, it[O_STG +: SB]};
                    qc = dbg_qn[e*QCB +: QCB];
                    if (!cur[e*IW]) begin
                        cur[e*IW +: IW] = it;
                        dbg_act[i*2 +: 2] = 2'd2;
                        taken = taken + 1;
                    end else if ({{(32-QCB){1'b0}}, qc} + 32'd1 <= Q) begin
                        pos = {{(32-QIB){1'b0}}, qhead_q[e*QIB +: QIB]} + {{(32-QCB){1'b0}}, qc};
                        if (dbg_pop[e])
                            pos = pos + 1;
                        if (pos >= QQ)
                            pos = pos - QQ;
                        push_en[i] = 1'b1;
                        push_at[i*32 +: 32] = e * QQ + pos;
                        dbg_qn[e*QCB +: QCB] = qc + 1'b1;
                        dbg_act[i*2 +: 2] = 2'd3;
                        taken = taken + 1;
                    end else begin
                        dbg_stall = 2'd2;
                        dbg_stall_stg = e[SB-1:0];
                        stop = 1'b1;
                    end
                end
            end
        end
    end

    // step 4: window refill, ready bubbles first, then requests; each
    // request reads the direct index table now (dit_item)
    integer k4, fr;
    reg     go4;
    reg [IW-1:0] it4;
    reg [ID-1:0] seq4;
    always @* begin
        rem = {{(32-WCB){1'b0}}, win_n_q} - taken;
        fr = W - rem;
        nb = 0;
        nr = 0;
        go4 = 1'b1;
        bub_ready = {W{1'b0}};
        bq_idx = {W*BQB{1'b0}};
        // at most one bubble a cycle (lane 0): the simulator fetches the
        // next bubble once per cycle, so a second one waits for the next
        for (k4 = 0; k4 < W; k4 = k4 + 1) begin
            bub_ready[k4] = k4 == 0 && k4 < fr;
            seq4 = bseq_q + k4[ID-1:0];
            bq_idx[k4*BQB +: BQB] = seq4[BQB-1:0];
            if (go4 && bub_valid[k4] && bub_ready[k4])
                nb = nb + 1;
            else
                go4 = 1'b0;
        end
        go4 = 1'b1;
        req_ready = {W{1'b0}};
        for (k4 = 0; k4 < W; k4 = k4 + 1) begin
            req_ready[k4] = k4 < fr - nb;
            if (go4 && req_valid[k4] && k4 < fr - nb)
                nr = nr + 1;
            else
                go4 = 1'b0;
        end
        dit_we = {W{1'b0}};
        dit_widx = {W*XI{1'b0}};
        dit_wdata = {W*DB{1'b0}};
        for (k4 = 0; k4 < W; k4 = k4 + 1) begin
            dit_we[k4] = k4 < nb && bub_data[k4*BW + N*BSW];
            dit_widx[k4*XI +: XI] = bub_data[k4*BW + N*BSW + 1 +: XI];
            dit_wdata[k4*DB +: DB] = bub_data[k4*BW + N*BSW + 1 + XI +: DB];
        end
        win_d = {W*IW{1'b0}};
        for (k4 = 0; k4 < W; k4 = k4 + 1) begin
            it4 = {IW{1'b0}};
            if (k4 < rem) begin
                it4 = win_q[(k4 + taken)*IW +: IW];
            end else if (k4 - rem < nb) begin
                it4[1:0] = 2'b11;
                seq4 = bseq_q + k4[ID-1:0] - rem[ID-1:0];
                it4[O_TAG +: ID] = seq4;
            end else if (k4 - rem - nb < nr) begin
                it4 = dit_item[(k4 - rem - nb)*IW +: IW];
                it4[0] = 1'b1;
                it4[1] = 1'b0;
                it4[O_TAG +: ID] = req_id[(k4 - rem - nb)*ID +: ID];
                it4[O_KEY +: KB] = req_key[(k4 - rem - nb)*KB +: KB];
            end
            win_d[k4*IW +: IW] = it4;
        end
    end

    // steps 5 and 6: what the stages did; exits in order (stages by index,
    // then table answers in window order); results are the exits or the
    // reorder buffer's releases
    integer k5;
    always @* begin
        out_d = {N*IW{1'b0}};
        dbg_exit = {(N+W){1'b0}};
        dbg_exit_tag = {(N+W)*ID{1'b0}};
        ex_item = {(N+W)*IW{1'b0}};
        for (k5 = 0; k5 < N; k5 = k5 + 1) begin
            if (st_pass[k5])
                out_d[k5*IW +: IW] = st_item[k5*IW +: IW];
            dbg_exit[k5] = st_exit[k5];
            ex_item[k5*IW +: IW] = st_item[k5*IW +: IW];
        end
        for (k5 = 0; k5 < W; k5 = k5 + 1) begin
            dbg_exit[N + k5] = dbg_act[k5*2 +: 2] == 2'd1;
            ex_item[(N + k5)*IW +: IW] = win_q[k5*IW +: IW];
        end
        for (k5 = 0; k5 < N + W; k5 = k5 + 1)
            dbg_exit_tag[k5*ID +: ID] = ex_item[k5*IW + O_TAG +: ID];
    end

    generate
        if (R > 0) begin : g_rel
            integer k6;
            always @* begin
                res_valid = rel_valid;
                for (k6 = 0; k6 < L; k6 = k6 + 1)
                    {res_nhv[k6], res_nh[k6*NB +: NB], res_id[k6*ID +: ID]} = rob_m[rel_idx[k6*RIB +: RIB]];
            end
        end else begin : g_exit
            integer k6;
            always @* begin
                res_valid = dbg_exit;
                for (k6 = 0; k6 < L; k6 = k6 + 1) begin
                    res_id[k6*ID +: ID] = ex_item[k6*IW + O_TAG +: ID];
                    res_nhv[k6] = ex_item[k6*IW + 3];
                    res_nh[k6*NB +: NB] = ex_item[k6*IW + O_NH +: NB];
                end
            end
        end
    endgenerate

    // ---- end of cycle: registers ----
    // next values the clocked block only copies
    reg [31:0]          wn, relc;
    reg [RIB:0]         wi;
    reg [ID-1:0]        wdif;
    reg [RIB-1:0]       rhidx_d;
    reg [(N+W)*RIB-1:0] rob_wi;
    integer k7;
    always @* begin
        wn = rem + nb + nr;
        relc = 32'd0;
        for (k7 = 0; k7 < W; k7 = k7 + 1)
            if (rel_valid[k7])
                relc = relc + 32'd1;
        wi = {1'b0, rhidx_q} + relc[RIB:0];
        if (wi >= RR[RIB:0])
            wi = wi - RR[RIB:0];
        rhidx_d = wi[RIB-1:0];
        rob_wi = {(N+W)*RIB{1'b0}};
        for (k7 = 0; k7 < N + W; k7 = k7 + 1) begin
            wdif = dbg_exit_tag[k7*ID +: ID] - rhead_q;
            wi = {1'b0, rhidx_q} + wdif[RIB:0];
            if (wi >= RR[RIB:0])
                wi = wi - RR[RIB:0];
            rob_wi[k7*RIB +: RIB] = wi[RIB-1:0];
        end
    end

    integer s2, i2, k2;
    always @(posedge clk) begin
        if (rst) begin
            out_q <= {N*IW{1'b0}};
            qhead_q <= {N*QIB{1'b0}};
            qn_q <= {N*QCB{1'b0}};
            win_q <= {W*IW{1'b0}};
            win_n_q <= {WCB{1'b0}};
            bseq_q <= {ID{1'b0}};
            rob_v <= {RR{1'b0}};
            rhead_q <= {ID{1'b0}};
            rhidx_q <= {RIB{1'b0}};
        end else begin
            out_q <= out_d;
            qn_q <= dbg_qn;
            for (s2 = 0; s2 < N; s2 = s2 + 1) begin
                if (dbg_pop[s2]) begin
                    if ({{(32-QIB){1'b0}}, qhead_q[s2*QIB +: QIB]} == QQ - 1)
                        qhead_q[s2*QIB +: QIB] <= {QIB{1'b0}};
                    else
                        qhead_q[s2*QIB +: QIB] <= qhead_q[s2*QIB +: QIB] + 1'b1;
                end
                if (swap[s2])
                    qm[s2*QQ + {{(32-QIB){1'b0}}, qhead_q[s2*QIB +: QIB]}] <= swap_item[s2*IW +: IW];
            end
            for (i2 = 0; i2 < W; i2 = i2 + 1)
                if (push_en[i2])
                    qm[push_at[i2*32 +: 32]] <= win_q[i2*IW +: IW];
            win_q <= win_d;
            win_n_q <= wn[WCB-1:0];
            bseq_q <= bseq_q + nb[ID-1:0];
            if (R > 0) begin
                for (k2 = 0; k2 < W; k2 = k2 + 1)
                    if (rel_valid[k2])
                        rob_v[rel_idx[k2*RIB +: RIB]] <= 1'b0;
                rhead_q <= rhead_q + relc[ID-1:0];
                rhidx_q <= rhidx_d;
                for (k2 = 0; k2 < N + W; k2 = k2 + 1)
                    if (dbg_exit[k2]) begin
                        rob_v[rob_wi[k2*RIB +: RIB]] <= 1'b1;
                        rob_m[rob_wi[k2*RIB +: RIB]] <= {ex_item[k2*IW + 3], ex_item[k2*IW + O_NH +: NB], dbg_exit_tag[k2*ID +: ID]};
                    end
            end
        end
    end

    reg any;
    integer s3;
    always @* begin
        any = win_n_q != 0 || (R > 0 && rob_v != 0);
        for (s3 = 0; s3 < N; s3 = s3 + 1)
            any = any | out_q[s3*IW] | (qn_q[s3*QCB +: QCB] != 0);
    end
    assign busy = any;
endmodule
