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
// port) and rides the same pipeline. The window's occupancy wt counts the
// FIFO and the pipeline: req_ready and bub_ready come from it (registered
// credits). The dispatcher looks at W FIFO entries in order and pushes
// each into its queue while the queue's registered credit count plus this
// cycle's earlier pushes is below Q; a DIT answer goes to its result lane
// when the lane has room; the first that cannot go stops the rest. A push
// decided in cycle t reaches its queue in t+1: the decided entries stay at
// the FIFO's front one more cycle (the FIFO shifts by the registered count
// tk of last cycle's decisions, so no decision drives the FIFO's shift),
// their queues write them from there (registered push counts and slot
// choices), and the dispatcher looks at the W entries behind them. The
// decision only reaches a few registers: tk, the push registers, the
// queues' credits (qres_n) and the window's (wt).
// Kept cells (a hierarchy each, so that synthesis keeps their copies and
// their shape: one LUT, or one flip-flop): the window's loads (g_one), and
// a ring stage's exit and hop valid bit (lpm_stage_NN.v).
// A register copy of a control bit, reset to INIT.
(* keep_hierarchy *)
module lpm_rff #(parameter INIT = 0) (input wire clk, input wire rst, input wire d, output reg q);
    always @(posedge clk)
        q <= rst ? (INIT != 0) : d;
endmodule
// a & ~b & c & d
(* keep_hierarchy *)
module lpm_and4n (input wire a, input wire b, input wire c, input wire d, output wire o);
    assign o = a & ~b & c & d;
endmodule
// s ? a : b
(* keep_hierarchy *)
module lpm_mux2 (input wire s, input wire a, input wire b, output wire o);
    assign o = s ? a : b;
endmodule
// (s & v) ? a : b
(* keep_hierarchy *)
module lpm_mux2a (input wire s, input wire v, input wire a, input wire b, output wire o);
    assign o = (s & v) ? a : b;
endmodule
// s ? ~a : b
(* keep_hierarchy *)
module lpm_mux2n (input wire s, input wire a, input wire b, output wire o);
    assign o = s ? ~a : b;
endmodule
// a register copy of the dispatcher's taken bit (|a) with its own LUT
(* keep_hierarchy *)
module lpm_rffor4 (input wire clk, input wire rst, input wire [3:0] a, output reg q);
    always @(posedge clk)
        q <= rst ? 1'b0 : |a;
endmodule
// a register loaded with (|t) ? a : b through its own LUT
(* keep_hierarchy *)
module lpm_rffsel (input wire clk, input wire rst, input wire [1:0] t, input wire a, input wire b, output reg q);
    always @(posedge clk)
        q <= rst ? 1'b0 : (|t) ? a : b;
endmodule
// |a
(* keep_hierarchy *)
module lpm_or4 (input wire [3:0] a, output wire o);
    assign o = |a;
endmodule
// a register loaded with (t == v) ? a : b through its own LUT, reset to INIT
(* keep_hierarchy *)
module lpm_rffeq #(parameter INIT = 0) (input wire clk, input wire rst, input wire t, input wire v, input wire a,
    input wire b, output reg q);
    always @(posedge clk)
        q <= rst ? (INIT != 0) : (t == v) ? a : b;
endmodule
// (t ? f1 : f0) & v: an incoming entry with valid bit v lands here, or
// the entry in view (f1 or f0) goes to a target with room v
(* keep_hierarchy *)
module lpm_selv (input wire t, input wire f0, input wire f1, input wire v, output wire o);
    assign o = (t ? f1 : f0) & v;
endmodule
// (f | r & ~c) & m: a ring lookup exits (finished whatever the word f, or
// read here r and the word c has no child; the lane has room m)
(* keep_hierarchy *)
module lpm_exit (input wire f, input wire r, input wire c, input wire m, output wire o);
    assign o = (f | r & ~c) & m;
endmodule
// register copies of a ring hop's valid bit in parts (lpm_stage_NN.v: the
// next stage's queue entries take g & ~h | (g & h) & c), each with its own LUT:
// v & (b ? K : ~(m & f)) (a bubble rides on past K; a lookup unless it can
// finish here, f, and its lane has room, m) and r & m & ~f (it exits unless
// the word has a child)
(* keep_hierarchy *)
module lpm_rffp0 #(parameter K = 1) (input wire clk, input wire rst, input wire v, input wire b, input wire m,
    input wire f, output reg q);
    always @(posedge clk)
        q <= rst ? 1'b0 : v & (b ? (K != 0) : ~(m & f));
endmodule
(* keep_hierarchy *)
module lpm_rffp1 (input wire clk, input wire rst, input wire r, input wire m, input wire f, output reg q);
    always @(posedge clk)
        q <= rst ? 1'b0 : r & m & ~f;
endmodule
// g & ~(h & ~c): a ring hop's valid bit (g, h: registers' parts; c: the word's child bit)
(* keep_hierarchy *)
module lpm_hopv (input wire g, input wire h, input wire c, output wire o);
    assign o = g & ~(h & ~c);
endmodule

module lpm_ctl (
    input  wire               clk,
    input  wire               rst,
    input  wire [W-1:0]       req_valid,
    output wire [W-1:0]       req_ready,
    input  wire [W*T-1:0]     req_tag,
    input  wire [W*KR-1:0]    req_rest,   // each request's key bits after the DIT's
    input  wire               bub_valid,
    input  wire               bub_ok,     // the copy rules let this bubble in (drain, fence; 1 without a shadow copy)
    output wire               bub_ready,
    input  wire [BW-1:0]      bub_data,
    output wire               dit_we,
    output wire [XI-1:0]      dit_widx,
    output wire [DB-1:0]      dit_wdata,
    output wire               bt_we,
    output wire [BQB-1:0]     bt_idx,
    output wire [W*KR-1:0]    ent_key,
    output wire [W*T-1:0]     ent_tag,
    /* verilator lint_off UNUSEDSIGNAL */ // one lane: only the entry stage and done bits (g_one); wider: not the word
    input  wire [W*IW-1:0]    ent_item,
    input  wire [W*DB-1:0]    dit_word,   // the DIT word ent_item was made of
    /* verilator lint_on UNUSEDSIGNAL */
    input  wire [NQ*W-1:0]    qroom,      // queue q takes c more: qroom[q*W + c] (registered)
    output reg  [NQ*WNB-1:0]  qres_n,     // pushes decided this cycle (the queues' credits)
    output reg  [NQ*W*IW-1:0] qpush_item, // last cycle's pushes, landing now
    output reg  [NQ*WNB-1:0]  qpush_n,
    output wire [NQ-1:0]      qpush_w,    // (one lane) last cycle's push is a bubble that writes its stage
    input  wire [W-1:0]       drl_room,
    output reg  [W-1:0]       dex_v,
    output reg  [W*RDW-1:0]   dex_d,
    output wire [1:0]         busy,       // flags: entries decided last cycle, the window holds one
    output reg  [W*2-1:0]     dbg_act,
    output reg  [W*WTW-1:0]   dbg_wtok,
    output reg  [1:0]         dbg_stall,
    output reg  [SB-1:0]      dbg_stall_stg
);
`include "lpm_item.vh"

    // ---- the ports: credits from the registered occupancy ----
    wire [C-1:0] wt;                     // window entries, the DIT pipeline included: wt[j] = more than j
    reg [BQB-1:0] bseq;                  // the next bubble's number
    wire [W-1:0] room;
    wire [W-1:0] acc;                    // lanes taken this cycle
    genvar g;
    generate
        for (g = 0; g < W; g = g + 1) begin : g_acc
            assign room[g] = (g < C) ? ~wt[(g < C) ? C - 1 - g : 0] : 1'b0;
            // a bubble the copy rules hold back leaves the cycle to requests
            assign req_ready[g] = room[g] & ~(bub_valid & bub_ok);
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
    assign bub_ready = room[0] & bub_ok;
    wire bub_take = bub_valid & room[0] & bub_ok;
    // one kept LUT of registers (Yosys adds the block RAM mask's inverter after it)
    lpm_and4n k_ditwe (.a(bub_valid), .b(wt[C-1]), .c(bub_ok), .d(bub_data[N*BSW]), .o(dit_we));
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
    /* verilator lint_off UNUSEDSIGNAL */ // one lane: g_one keeps the word and makes the item later
    reg [IW-1:0] inc_item [0:W-1];
    /* verilator lint_on UNUSEDSIGNAL */
    /* verilator lint_off UNUSEDSIGNAL */ // one lane: g_one decodes the target from the word itself
    reg [NQ-1:0] inc_oh [0:W-1];
    /* verilator lint_on UNUSEDSIGNAL */
    reg [SN-1:0] inc;
    integer ik, iq;
    always @* begin
        inc = {SN{1'b0}};
        for (ik = 0; ik < W; ik = ik + 1) begin
            inc_item[ik] = ent_item[ik*IW +: IW];
            if (pv[D-1][ik])
                inc = inc + 1'b1;
        end
        if (pbub[D-1])
            inc_item[0] = pbit[D-1];
        // a DIT answer (done) goes to no queue: its one-hot is 0, so a
        // queue's push needs only its own bit, its room and fin
        for (ik = 0; ik < W; ik = ik + 1) begin
            inc_oh[ik] = {{(NQ-1){1'b0}}, 1'b1};
            if (RING != 0 && !inc_item[ik][F_B])
                for (iq = 0; iq < NQ; iq = iq + 1)
                    inc_oh[ik][iq] = inc_item[ik][F_STG +: SB] == iq[SB-1:0];
            if (!inc_item[ik][F_B] && inc_item[ik][F_DONE])
                inc_oh[ik] = {NQ{1'b0}};
        end
    end

    /* verilator lint_off UNUSEDSIGNAL */ // wider: not used
    wire [3:0] tka;                      // one lane: the decisions, taken = |tka = |tk2
    wire [1:0] tk2;
    /* verilator lint_on UNUSEDSIGNAL */
    reg [SN-1:0] tk;                     // entries decided last cycle, still at the front
    reg [SN-1:0] taken;                  // entries decided this cycle
    generate
        if (W > 1) begin : g_wide
            assign qpush_w = {NQ{1'b0}};   // read only with one lane
            assign tka = 4'd0;
            assign tk2 = 2'd0;
            // ---- the dispatcher: the W entries behind last cycle's decisions ----
            reg [IW-1:0] wf [0:C-1];
            reg [NQ-1:0] woh [0:C-1];            // each entry's entry stage, one-hot
            reg [C:0]    fh;                     // one-hot of fn: fh[i] = (fn == i)
            reg [C-1:0]  fin;                    // entry i is in the FIFO: fn > i (registered beside fh)
            // the FIFO seen without last cycle's decided entries (entry i + tk):
            // the dispatcher looks at its first W, and it is next cycle's FIFO
            // before the incoming entries join
            reg [IW-1:0] sw [0:C-1];
            reg [NQ-1:0] so [0:C-1];
            integer si, sa;
            always @* begin
                for (si = 0; si < C; si = si + 1) begin
                    sw[si] = wf[si];
                    so[si] = woh[si];
                    for (sa = 1; sa <= W; sa = sa + 1)
                        if (tk == sa[SN-1:0] && si + sa < C) begin
                            sw[si] = wf[si + sa];
                            so[si] = woh[si + sa];
                        end
                end
            end
            reg [IW-1:0] vw [0:W-1];             // what the dispatcher looks at: entry tk + j
            reg [NQ-1:0] vo [0:W-1];
            reg [W-1:0]  vf;
            integer vj, va;
            always @* begin
                for (vj = 0; vj < W; vj = vj + 1) begin
                    vw[vj] = sw[vj];
                    vo[vj] = so[vj];
                    vf[vj] = fin[vj];
                    for (va = 1; va <= W; va = va + 1)
                        if (tk == va[SN-1:0] && vj + va < C)
                            vf[vj] = fin[vj + va];
                end
            end

            reg [IW-1:0] it;
            reg [NQ-1:0] oh;
            reg [NQ*SN-1:0] pc;                  // pushes into each queue so far this cycle
            reg [NQ*W*W-1:0] psel;               // queue q's push m is entry j: psel[(q*W + m)*W + j]
            reg [SB-1:0] e;
            integer dj, dm, dq;
            reg stop, ok, rq;
            always @* begin
                qres_n = {NQ*WNB{1'b0}};
                psel = {NQ*W*W{1'b0}};
                dex_v = {W{1'b0}};
                dex_d = {W*RDW{1'b0}};
                dbg_act = {W*2{1'b0}};
                dbg_wtok = {W*WTW{1'b0}};
                dbg_stall = 2'd0;
                dbg_stall_stg = {SB{1'b0}};
                stop = 1'b0;
                ok = 1'b0;
                rq = 1'b0;
                taken = {SN{1'b0}};
                pc = {NQ*SN{1'b0}};
                for (dj = 0; dj < W; dj = dj + 1) begin
                    it = vw[dj];
                    oh = vo[dj];
                    // a bubble, and every item of a linear pipeline, enters at stage 0
                    e = (it[F_B] || RING == 0) ? {SB{1'b0}} : it[F_STG +: SB];
                    dbg_wtok[dj*WTW +: WTW] = {e, it[F_TAG +: TG], it[F_B]};
                    if (!stop && vf[dj]) begin
                        if (!it[F_B] && it[F_DONE]) begin
                            if (drl_room[dj]) begin
                                dbg_act[dj*2 +: 2] = 2'd1;
                                dex_v[dj] = 1'b1;
                                dex_d[dj*RDW +: RDW] = {it[F_NH +: NB], it[F_NHV], it[F_TAG +: T]};
                                taken = taken + 1'b1;
                            end else begin
                                dbg_stall = 2'd2;
                                stop = 1'b1;
                            end
                        end else begin
                            // oh is one-hot: queue q takes it on its own bit and room
                            ok = 1'b0;
                            for (dq = 0; dq < NQ; dq = dq + 1) begin
                                rq = 1'b0;
                                for (dm = 0; dm < W; dm = dm + 1)
                                    if (pc[dq*SN +: SN] == dm[SN-1:0])
                                        rq = qroom[dq*W + dm];
                                if (oh[dq] && rq) begin
                                    ok = 1'b1;
                                    for (dm = 0; dm < W; dm = dm + 1)
                                        if (pc[dq*SN +: SN] == dm[SN-1:0])
                                            psel[(dq*W + dm)*W + dj] = 1'b1;
                                    pc[dq*SN +: SN] = pc[dq*SN +: SN] + 1'b1;
                                    qres_n[dq*WNB +: WNB] = pc[dq*SN +: WNB];
                                end
                            end
                            if (ok) begin
                                dbg_act[dj*2 +: 2] = 2'd2;
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

            // last cycle's pushes land: entry j of the front, as psel said; the
            // data is not gated (push_n says what lands): one lane needs no
            // multiplexer at all
            reg [NQ*W*W-1:0] psel_r;
            /* verilator lint_off UNUSEDSIGNAL */ // one lane: the choice is always entry 0
            reg [NQ*W*W-1:0] psel_u;
            /* verilator lint_on UNUSEDSIGNAL */
            integer pq, pm, pj;
            always @* begin
                psel_u = psel_r;
                for (pq = 0; pq < NQ; pq = pq + 1)
                    for (pm = 0; pm < W; pm = pm + 1) begin
                        qpush_item[(pq*W + pm)*IW +: IW] = wf[0];
                        if (W > 1) begin
                            qpush_item[(pq*W + pm)*IW +: IW] = {IW{1'b0}};
                            for (pj = 0; pj < W; pj = pj + 1)
                                if (psel_u[(pq*W + pm)*W + pj])
                                    qpush_item[(pq*W + pm)*IW +: IW] = qpush_item[(pq*W + pm)*IW +: IW] | wf[pj];
                        end
                    end
            end
            always @(posedge clk) begin
                psel_r <= psel;
                if (rst) begin
                    qpush_n <= {NQ*WNB{1'b0}};
                    tk <= {SN{1'b0}};
                end else begin
                    qpush_n <= qres_n;
                    tk <= taken;
                end
            end

            // ---- the window FIFO: last cycle's decided entries leave the front, the pipeline's join the back ----
            reg [IW-1:0] nf [0:C-1];
            reg [NQ-1:0] nfo [0:C-1];
            reg [C:0]    fh_d;
            reg [C-1:0]  fin_d;
            integer fi, fa, fm;
            always @* begin
                for (fi = 0; fi < C; fi = fi + 1) begin
                    nf[fi] = sw[fi];
                    nfo[fi] = so[fi];
                    // the m-th incoming entry lands at fn - tk + m; the W positions
                    // from fn - tk on are written whether or not an entry comes (fin
                    // says which are filled), so an entry's load enable is only tk
                    // and the registered fill level
                    for (fm = 0; fm < W; fm = fm + 1)
                        for (fa = 0; fa <= W; fa = fa + 1)
                            if (fi + fa - fm >= 0 && fi + fa - fm <= C && tk == fa[SN-1:0] && fh[fi + fa - fm]) begin
                                nf[fi] = inc_item[fm];
                                nfo[fi] = inc_oh[fm];
                            end
                end
                // fn - tk + inc, one-hot
                fh_d = {(C+1){1'b0}};
                for (fi = 0; fi <= C; fi = fi + 1)
                    for (fa = 0; fa <= W; fa = fa + 1)
                        for (fm = 0; fm <= W; fm = fm + 1)
                            if (fh[fi] && tk == fa[SN-1:0] && inc == fm[SN-1:0] && fi - fa + fm >= 0 && fi - fa + fm <= C)
                                fh_d[fi - fa + fm] = 1'b1;
                // fn' > i: no bit of fh_d at or below i
                for (fi = 0; fi < C; fi = fi + 1) begin
                    fin_d[fi] = 1'b1;
                    for (fa = 0; fa <= fi; fa = fa + 1)
                        if (fh_d[fa])
                            fin_d[fi] = 1'b0;
                end
            end

            integer ci;
            always @(posedge clk) begin
                for (ci = 0; ci < C; ci = ci + 1) begin
                    wf[ci] <= nf[ci];
                    woh[ci] <= nfo[ci];
                end
                if (rst) begin
                    fh <= {{C{1'b0}}, 1'b1};
                    fin <= {C{1'b0}};
                end else begin
                    fh <= fh_d;
                    fin <= fin_d;
                end
            end
        end else begin : g_one
            // One lane (W = 1): the same decisions, with every FIFO entry's
            // target held one-hot with its valid bit folded in (queue q, or
            // NQ: the DIT answers' result lane), so that a target takes the
            // entry on one LUT of registers (tk, the two candidate entries'
            // bits, the target's registered room).
            //
            // No entry has a clock enable: each bit loads through three
            // LUTs of its own (lpm_mux2, kept), the last of which takes the
            // incoming request's bit, so that the DIT's block RAM word
            // reaches an entry through one LUT: m = tk ? the entry behind :
            // this one (the FIFO shifts by last cycle's decisions), m2 = sb ?
            // the bubble's bit : m, bit = sq ? the request's bit : m2, where
            // sq and sb (an incoming request or bubble lands on this entry:
            // tk ? fh[i+1] : fh[i], and its valid bit) are one LUT per group
            // of G bits (lpm_selv). tk and fh have a register copy per group
            // (lpm_rff), so no control net reaches more than a group's LUTs.
            localparam NT = NQ + 1;
            // an entry holds a bubble's item, or a request's {tag, key, DIT
            // word} as it came from the block RAM: lpm_entry makes its item
            // once it is in view
            localparam PW = (IW > DB + KR + T) ? IW : DB + KR + T;
            localparam G = 8;                    // bits a copy of tk and fh serves
            localparam NG = (PW + G - 1) / G;    // data groups; group NG holds wb and wo
            localparam NK = NG + 1;
            reg [C*PW-1:0] wf;                   // entry i = wf[i*PW +: PW]
            reg [C-1:0]    wb;                   // entry i holds a bubble
            reg [C*NT-1:0] wo;                   // entry i's target, one-hot (0: no entry) = wo[i*NT +: NT]
            reg [C:0]      fh;                   // one-hot of the fill level
            wire [C*NK-1:0]     tkc;             // copies of tk: entry i's group g
            wire [NK-1:0]       tkv;             // copies of tk: the view's group g
            wire [(C+1)*NK-1:0] fc;              // copies of fh[k]: fc[k*NK + g]
            // the incoming entry: a request (its target from the DIT word, one
            // LUT) or a bubble (queue 0)
            // (ib, ir: a register copy per entry, made beside the DIT
            // pipeline's last registers: request and bubble are exclusive)
            wire ib_d = (D == 2) ? bub_take : pv[D-2 >= 1 ? D-2 : 1][0] & pbub[D-2 >= 1 ? D-2 : 1];
            wire ir_d = (D == 2) ? acc[0] & ~bub_take : pv[D-2 >= 1 ? D-2 : 1][0] & ~pbub[D-2 >= 1 ? D-2 : 1];
            wire [C-1:0] ibc, irc;
            wire wc = dit_word[DL_C];            // the word continues (lpm_entry: done = ~wc)
            wire [NT-1:0] ixw;
            genvar gq;
            for (gq = 0; gq < NQ; gq = gq + 1) begin : g_ix
                assign ixw[gq] = wc & (RING == 0 || dit_word[DL_STAGE +: SB] == gq);
            end
            assign ixw[NQ] = ~wc;
            wire [PW-1:0] rq = {{(PW-DB-KR-T){1'b0}}, ptag[D-1], pkey[D-1], dit_word[DB-1:0]};
            wire [PW-1:0] bq = {{(PW-IW){1'b0}}, pbit[D-1]};
            genvar gi, gg, gb;
            for (gi = 0; gi < C; gi = gi + 1) begin : g_e
                localparam NX = (gi + 1 < C) ? gi + 1 : gi;   // the entry behind (the last: itself)
                wire ib = ibc[gi], ir = irc[gi];
                lpm_rff #(.INIT(0)) kib (.clk(clk), .rst(rst), .d(ib_d), .q(ibc[gi]));
                lpm_rff #(.INIT(0)) kir (.clk(clk), .rst(rst), .d(ir_d), .q(irc[gi]));
                for (gg = 0; gg < NK; gg = gg + 1) begin : g_g
                    localparam LO = gg * G;
                    localparam WD = (gg == NG) ? 1 + NT : (PW - LO < G) ? PW - LO : G;
                    wire tg = tkc[gi*NK + gg];
                    wire sq, sb;
                    lpm_rffor4 kt (.clk(clk), .rst(rst), .a(tka), .q(tkc[gi*NK + gg]));
                    lpm_selv kq (.t(tg), .f0(fc[gi*NK + gg]), .f1(fc[(gi + 1)*NK + gg]), .v(ir), .o(sq));
                    lpm_selv kb (.t(tg), .f0(fc[gi*NK + gg]), .f1(fc[(gi + 1)*NK + gg]), .v(ib), .o(sb));
                    wire [WD-1:0] cur, nxt, bin, nd;
                    /* verilator lint_off UNUSEDSIGNAL */ // the flags' answers bit: lpm_mux2n takes wc
                    wire [WD-1:0] rin;
                    /* verilator lint_on UNUSEDSIGNAL */
                    if (gg == NG) begin : g_flags
                        assign cur = {wo[gi*NT +: NT], wb[gi]};
                        assign nxt = (gi + 1 < C) ? {wo[NX*NT +: NT], wb[NX]} : {WD{1'b0}};
                        assign bin = {{(NT-1){1'b0}}, 1'b1, 1'b1};
                        assign rin = {ixw, 1'b0};
                        always @(posedge clk) begin
                            wb[gi] <= nd[0];
                            wo[gi*NT +: NT] <= rst ? {NT{1'b0}} : nd[1 +: NT];
                        end
                    end else begin : g_data
                        assign cur = wf[gi*PW + LO +: WD];
                        assign nxt = wf[NX*PW + LO +: WD];
                        assign bin = bq[LO +: WD];
                        assign rin = rq[LO +: WD];
                        always @(posedge clk)
                            wf[gi*PW + LO +: WD] <= nd;
                    end
                    for (gb = 0; gb < WD; gb = gb + 1) begin : g_b
                        wire m, m2;
                        lpm_mux2 c0 (.s(tg), .a(nxt[gb]), .b(cur[gb]), .o(m));
                        lpm_mux2 c1 (.s(sb), .a(bin[gb]), .b(m), .o(m2));
                        if (gg == NG && gb == 1 + NQ) begin : g_n
                            // the answers' target ~wc: the inverter in the last LUT
                            lpm_mux2n c2 (.s(sq), .a(wc), .b(m2), .o(nd[gb]));
                        end else begin : g_p
                            lpm_mux2 c2 (.s(sq), .a(rin[gb]), .b(m2), .o(nd[gb]));
                        end
                    end
                end
            end
            // the entry in view (entry tk) and its item
            wire [PW-1:0] vw;
            genvar gv;
            for (gv = 0; gv < NG; gv = gv + 1) begin : g_v
                localparam LO = gv * G;
                localparam WD = (PW - LO < G) ? PW - LO : G;
                lpm_rffor4 kt (.clk(clk), .rst(rst), .a(tka), .q(tkv[gv]));
                assign vw[LO +: WD] = tkv[gv] ? wf[PW + LO +: WD] : wf[LO +: WD];
            end
            lpm_rffor4 ktf (.clk(clk), .rst(rst), .a(tka), .q(tkv[NG]));
            wire tf = tkv[NG];
            wire vb = tf ? wb[1] : wb[0];
            wire [NT-1:0] vo = tf ? wo[NT +: NT] : wo[0 +: NT];
            wire [IW-1:0] vent;
            lpm_entry ve (.e(vw[DB-1:0]), .key(vw[DB +: KR]), .tag(vw[DB + KR +: T]), .item(vent));
            wire [IW-1:0] it = vb ? vw[IW-1:0] : vent;
            // the entry decided last cycle, registered as it is in the FIFO
            // (a request's item made after the register, so the view's
            // choice is the only LUT before it): its queue writes it now
            reg [PW-1:0] pw_r;
            reg          pb_r;
            always @(posedge clk) begin
                pw_r <= vw;
                pb_r <= vb;
            end
            wire [IW-1:0] pent;
            lpm_entry pe (.e(pw_r[DB-1:0]), .key(pw_r[DB +: KR]), .tag(pw_r[DB + KR +: T]), .item(pent));
            // the pushed item for each queue, made from a register copy of
            // the decided entry per queue (kept), so a queue's entries are
            // one short net from their copy's LUTs
            wire [NQ*IW-1:0] pitem;
            genvar gpq, gpb;
            for (gpq = 0; gpq < NQ; gpq = gpq + 1) begin : g_pq
                if (gpq == 0) begin : g_0
                    assign pitem[0 +: IW] = pb_r ? pw_r[IW-1:0] : pent;
                end else begin : g_c
                    wire [PW-1:0] pwq;
                    wire pbq;
                    lpm_rff #(.INIT(0)) kb (.clk(clk), .rst(rst), .d(vb), .q(pbq));
                    for (gpb = 0; gpb < PW; gpb = gpb + 1) begin : g_b
                        lpm_rff #(.INIT(0)) k (.clk(clk), .rst(rst), .d(vw[gpb]), .q(pwq[gpb]));
                    end
                    wire [IW-1:0] pentq;
                    lpm_entry pe (.e(pwq[DB-1:0]), .key(pwq[DB +: KR]), .tag(pwq[DB + KR +: T]), .item(pentq));
                    assign pitem[gpq*IW +: IW] = pbq ? pwq[IW-1:0] : pentq;
                end
            end
            wire [NT-1:0] rm = {drl_room[0], qroom};
            wire [NT-1:0] tq;            // target q takes the entry in view: one kept LUT each
            genvar gt;
            for (gt = 0; gt < NT; gt = gt + 1) begin : g_tq
                lpm_selv kq (.t(tf), .f0(wo[gt]), .f1(wo[NT + gt]), .v(rm[gt]), .o(tq[gt]));
            end
            // taken = |tq, folded to 4 and 2 bits for the registers that
            // take it in their own LUT (lpm_rffor4, lpm_rffsel); the folds
            // kept LUTs of tq, so that neither is made of the other
            if (NT <= 4) begin : g_tk4
                assign tka = {{(4-NT){1'b0}}, tq};
            end else if (NT <= 7) begin : g_tk7
                wire t3;
                lpm_or4 ka (.a({{(7-NT){1'b0}}, tq[NT-1:3]}), .o(t3));
                assign tka = {t3, tq[2:0]};
            end else begin : g_tkn
                assign tka = {|tq[NT-1:3], tq[2:0]};
            end
            if (NT == 2) begin : g_tk2
                assign tk2 = tq;
            end else if (NT <= 5) begin : g_tk5
                wire t1;
                lpm_or4 kb (.a({{(5-NT){1'b0}}, tq[NT-1:1]}), .o(t1));
                assign tk2 = {t1, tq[0]};
            end else begin : g_tk3
                assign tk2 = {|tq[NT-1:1], tq[0]};
            end
            reg [SB-1:0] e;
            integer dq;
            always @* begin
                e = (it[F_B] || RING == 0) ? {SB{1'b0}} : it[F_STG +: SB];
                taken = {{(SN-1){1'b0}}, |tq};
                for (dq = 0; dq < NQ; dq = dq + 1)
                    qres_n[dq*WNB +: WNB] = tq[dq];
                // the answer's data is not gated: dex_v says when it is pushed
                dex_v = tq[NQ];
                // (an answer is never a bubble: its item is the request's)
                dex_d = {vent[F_NH +: NB], vent[F_NHV], vent[F_TAG +: T]};
                for (dq = 0; dq < NQ; dq = dq + 1)
                    qpush_item[dq*IW +: IW] = pitem[dq*IW +: IW];
                dbg_wtok = {e, it[F_TAG +: TG], it[F_B]};
                dbg_act = tq[NQ] ? 2'd1 : (|tq) ? 2'd2 : 2'd0;
                dbg_stall = 2'd0;
                dbg_stall_stg = {SB{1'b0}};
                if (!(|tq)) begin
                    if (vo[NQ])
                        dbg_stall = 2'd2;
                    else if (|vo) begin
                        dbg_stall = 2'd1;
                        dbg_stall_stg = e;
                    end
                end
            end
            // fn - tk + incoming, one-hot: the master copy and one per group
            wire iv = pv[D-1][0];
            // "the push writes its stage", registered with the push (the
            // queue's head-writes flag then one LUT from registers)
            reg [NQ-1:0] pww;
            integer wq;
            always @(posedge clk)
                for (wq = 0; wq < NQ; wq = wq + 1)
                    pww[wq] <= ~rst & qres_n[wq*WNB] & vb & vw[F_B] & vw[F_WEN];
            assign qpush_w = pww;
            // the next state (tk == iv) ? fh : fhx, fhx the level moved by one
            // (up with an incoming entry); each copy takes it in its own LUT
            wire [C+2:0] fhw = {1'b0, fh, 1'b0};
            wire [C:0] fhx;
            wire [C:0] fh_d = (tk[0] == iv) ? fh : fhx;
            genvar gk, gc;
            for (gk = 0; gk <= C; gk = gk + 1) begin : g_fx
                assign fhx[gk] = iv ? fhw[gk] : fhw[gk + 2];
            end
            for (gk = 0; gk <= C; gk = gk + 1) begin : g_fc
                for (gc = 0; gc < NK; gc = gc + 1) begin : g_c
                    lpm_rffeq #(.INIT(gk == 0)) kf (.clk(clk), .rst(rst), .t(tk[0]), .v(iv), .a(fh[gk]), .b(fhx[gk]),
                                                  .q(fc[gk*NK + gc]));
                end
            end
            always @(posedge clk) begin
                if (rst) begin
                    qpush_n <= {NQ*WNB{1'b0}};
                    tk <= {SN{1'b0}};
                    fh <= {{C{1'b0}}, 1'b1};
                end else begin
                    qpush_n <= qres_n;
                    tk <= taken;
                    fh <= fh_d;
                end
            end
        end
    endgenerate

    reg [SN-1:0] nr;
    integer nk;
    always @* begin
        nr = {SN{1'b0}};
        for (nk = 0; nk < W; nk = nk + 1)
            if (acc[nk])
                nr = nr + 1'b1;
        if (bub_take)
            nr = {{(SN-1){1'b0}}, 1'b1};
    end

    // the occupancy shifted by nr - taken (a thermometer: each lane's room
    // is a register, and the bubble's DIT write one LUT of registers)
    function [C-1:0] tshift;
        input [C-1:0] x;
        input integer r;                 // entries less r
        integer z;
        begin
            for (z = 0; z < C; z = z + 1)
                tshift[z] = (z + r < 0) ? 1'b1 : (z + r < C) ? x[(z + r < 0 || z + r >= C) ? 0 : z + r] : 1'b0;
        end
    endfunction
    generate
        if (W == 1) begin : g_wt1
            // one lane: each bit takes the decision in its own LUT
            // (lpm_rffsel): (taken ? shifted by nr - 1 : by nr)
            wire [C-1:0] wta = nr[0] ? wt : tshift(wt, 1), wtb = nr[0] ? tshift(wt, -1) : wt;
            genvar gj;
            for (gj = 0; gj < C; gj = gj + 1) begin : g_j
                lpm_rffsel k (.clk(clk), .rst(rst), .t(tk2), .a(wta[gj]), .b(wtb[gj]), .q(wt[gj]));
            end
        end else begin : g_wtw
            reg [C-1:0] wt_d;
            integer ta, tn;
            always @* begin
                wt_d = wt;
                for (ta = 0; ta <= W; ta = ta + 1)
                    for (tn = 0; tn <= W; tn = tn + 1)
                        if (taken == ta[SN-1:0] && nr == tn[SN-1:0])
                            wt_d = tshift(wt, ta - tn);
            end
            reg [C-1:0] wr;
            always @(posedge clk)
                wr <= rst ? {C{1'b0}} : wt_d;
            assign wt = wr;
        end
    endgenerate

    always @(posedge clk) begin
        if (rst)
            bseq <= {BQB{1'b0}};
        else
            bseq <= bseq + {{(BQB-1){1'b0}}, bub_take};
    end
    assign busy = {tk != {SN{1'b0}}, wt[0]};
endmodule
