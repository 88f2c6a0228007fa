// lpm_ctl3: the control of lpm_ctl.v for one request lane (W = 1) at
// D >= 3 (docs/microarchitecture.md, steps 3 and 4; the cycles are
// lpm_ctl's, only the hardware differs). lpm_pipe instantiates it in place
// of lpm_ctl there; lpm_ctl.v stays the D = 2 control as measured
// (docs/results-rtl.md: Yosys names cells by source line, so an edit there
// moves the D = 2 netlist) and keeps the small kept cells both use.
//
// What differs from lpm_ctl's one-lane window: an entry holds the item
// itself, made before the window from registers (at D >= 3 the DIT word
// is a register when it comes: lpm_entry's LUT and the bubble's choice are
// one LUT a bit), so every entry bit is two kept LUTs from registers (the
// shift, then "the incoming item lands here"), the view is the item, and a
// push is a register copy of the view straight into the queue (no
// lpm_entry between the push register and the queue's entries).
// s ? a : ~b (the incoming done bit: the bubble's, or ~the word's continue bit)
(* keep_hierarchy *)
module lpm_mux2i (input wire s, input wire a, input wire b, output wire o);
    assign o = s ? a : ~b;
endmodule
// the incoming entry's target bit for queue Q: a bubble's is queue 0; a
// request's is its word's stage when the word continues (ANY: any stage),
// queue 0 when it does not and DQ (ANSQ: DIT answers through queue 0)
(* keep_hierarchy *)
module lpm_tgt #(parameter Q = 0, ANY = 0, SB = 2, DQ = 0) (input wire isb, input wire c, input wire [SB-1:0] st,
    output wire o);
    assign o = (Q == 0 && (isb | (DQ != 0 && ~c))) | ~isb & c & (ANY != 0 || st == Q[SB-1:0]);
endmodule
// z | y & c: a ring stage's hop valid bit but for its lane's room (hz, hy
// registers, c the word's child bit)
(* keep_hierarchy *)
module lpm_hopu (input wire z, input wire y, input wire c, output wire o);
    assign o = z | y & c;
endmodule
// u | l & ~m: the hop's valid bit (l: a lookup, m: its lane's room), one LUT
// after the room
(* keep_hierarchy *)
module lpm_hopw (input wire u, input wire l, input wire m, output wire o);
    assign o = u | l & ~m;
endmodule
// ~a & ~b
(* keep_hierarchy *)
module lpm_nor2 (input wire a, input wire b, output wire o);
    assign o = ~a & ~b;
endmodule

module lpm_ctl3 (
    input  wire               clk,
    input  wire               rst,
    input  wire [W-1:0]       req_valid,
    output wire [W-1:0]       req_ready,
    input  wire [W*T-1:0]     req_tag,
    input  wire [W*KR-1:0]    req_rest,   // each request's key bits after the DIT's
    input  wire               bub_valid,
    input  wire               bub_ok,     // the copy rules let this bubble in (1 here: lpm_pipe's late bubble)
    output wire               bub_ready,
    input  wire [BW-1:0]      bub_data,
    output wire               dit_we,
    output wire [XI-1:0]      dit_widx,
    output wire [DB-1:0]      dit_wdata,
    output wire               bt_we,
    output wire [BQB-1:0]     bt_idx,
    output wire [W*KR-1:0]    ent_key,
    output wire [W*T-1:0]     ent_tag,
    /* verilator lint_off UNUSEDSIGNAL */ // lpm_entry_u's item (below) is used instead
    input  wire [W*IW-1:0]    ent_item,
    /* verilator lint_on UNUSEDSIGNAL */
    input  wire [W*DB-1:0]    dit_word,
    input  wire [NQ*W-1:0]    qroom,      // queue q takes one more (registered)
    output reg  [NQ*WNB-1:0]  qres_n,     // pushes decided this cycle (the queues' credits)
    output wire [NQ*W*IW-1:0] qpush_item, // last cycle's pushes, landing now
    output reg  [NQ*WNB-1:0]  qpush_n,
    output wire [NQ-1:0]      qpush_w,    // last cycle's push is a bubble that writes its stage
    /* verilator lint_off UNUSEDSIGNAL */ // ANSQ: no DIT answers' lane
    input  wire [W-1:0]       drl_room,
    /* verilator lint_on UNUSEDSIGNAL */
    output reg  [W-1:0]       dex_v,
    output reg  [W*RDW-1:0]   dex_d,
    output wire [1:0]         busy,       // flags: an entry decided last cycle, the window holds one
    output reg  [W*2-1:0]     dbg_act,
    output reg  [W*WTW-1:0]   dbg_wtok,
    output reg  [1:0]         dbg_stall,
    output reg  [SB-1:0]      dbg_stall_stg
);
`include "lpm_item.vh"

    // ---- the ports: credits from the registered occupancy ----
    wire [C-1:0] wt;                     // window entries, the DIT pipeline included: wt[j] = more than j
    reg [BQB-1:0] bseq;                  // the next bubble's number
    wire room = ~wt[C-1];
    assign req_ready = room & ~(bub_valid & bub_ok);
    wire acc = req_valid[0] & req_ready[0];
    assign bub_ready = room & bub_ok;
    wire bub_take = bub_valid & room & bub_ok;
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
    reg            pv   [1:D-1];
    reg            pbub [1:D-1];
    reg [KR-1:0]   pkey [1:D-1];
    reg [T-1:0]    ptag [1:D-1];
    reg [IW-1:0]   pbit [1:D-1];
    integer d;
    always @(posedge clk) begin
        pv[1] <= bub_take | acc;
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
                pv[d] <= 1'b0;
    end
    assign ent_key = pkey[D-1];
    assign ent_tag = ptag[D-1];

    // ---- the incoming entry: the bubble's item or the request's, and its
    // target one-hot (queue q, or NQ: the DIT answers' result lane; a
    // bubble's is queue 0; with ANSQ a DIT answer's too, and no lane), each bit one kept LUT of registers (so that
    // synthesis shares no part of one between bits, which made them three
    // LUTs deep); the request's item is lpm_entry's without the answer's
    // zeroed fields (lpm_entry_u: wires of the word and the key) ----
    localparam NT = NQ + (ANSQ != 0 ? 0 : 1);
    wire isb = pbub[D-1];
    wire iv = pv[D-1];
    /* verilator lint_off UNUSEDSIGNAL */ // its done bit: lpm_mux2i takes the word's
    wire [IW-1:0] uitem;
    /* verilator lint_on UNUSEDSIGNAL */
    lpm_entry_u eu (.e(dit_word[DB-1:0]), .key(pkey[D-1]), .tag(ptag[D-1]), .item(uitem));
    wire wc = dit_word[DL_C];            // the word continues (lpm_entry: done = ~wc)
    wire [IW-1:0] inc;
    wire [NT-1:0] ino;
    genvar gq, gn;
    generate
        for (gn = 0; gn < IW; gn = gn + 1) begin : g_in
            if (gn == F_DONE) begin : g_d
                lpm_mux2i k (.s(isb), .a(pbit[D-1][gn]), .b(wc), .o(inc[gn]));
            end else begin : g_o
                lpm_mux2 k (.s(isb), .a(pbit[D-1][gn]), .b(uitem[gn]), .o(inc[gn]));
            end
        end
        for (gq = 0; gq < NQ; gq = gq + 1) begin : g_ix
            lpm_tgt #(.Q(gq), .ANY(RING == 0), .SB(SB), .DQ(ANSQ)) k (.isb(isb), .c(wc), .st(dit_word[DL_STAGE +: SB]),
                .o(ino[gq]));
        end
        if (ANSQ == 0) begin : g_ans
            lpm_nor2 k_ans (.a(isb), .b(wc), .o(ino[NQ]));
        end
    endgenerate

    // ---- the window FIFO ----
    // No entry has a clock enable: each bit loads through two kept LUTs
    // (lpm_mux2): m = tk ? the entry behind : this one (the FIFO shifts by
    // last cycle's decisions), bit = sq ? the incoming bit : m, where sq
    // (the incoming entry lands here: tk ? fh[i+1] : fh[i], and its valid
    // bit) is one LUT per group of G bits (lpm_selv). tk, fh and the
    // incoming valid bit have a register copy per group (lpm_rff), so no
    // control net reaches more than a group's LUTs.
    localparam G = 8;                    // bits a copy of tk and fh serves
    localparam NG = (IW + G - 1) / G;    // data groups; group NG holds the targets
    localparam NK = NG + 1;
    reg [C*IW-1:0] wf;                   // entry i = wf[i*IW +: IW]
    reg [C*NT-1:0] wo;                   // entry i's target, one-hot (0: no entry) = wo[i*NT +: NT]
    reg [C:0]      fh;                   // one-hot of the fill level
    reg            tk;                   // an entry was decided last cycle, still at the front
    wire [(C+1)*4-1:0] tkas;             // the decisions folded to 4 bits, for entry i (i = C: the view); taken = |tkas[i] = |tk2
    wire [1:0] tk2;
    wire [C*NK-1:0]     tkc;             // copies of tk: entry i's group g
    wire [NK-1:0]       tkv;             // copies of tk: the view's group g
    wire [(C+1)*NK-1:0] fc;              // copies of fh[k]: fc[k*NK + g]
    wire [C-1:0] ivc;                    // copies of iv, one per entry (made beside the pipeline)
    genvar gi, gg, gb;
    generate
        for (gi = 0; gi < C; gi = gi + 1) begin : g_e
            localparam NX = (gi + 1 < C) ? gi + 1 : gi;   // the entry behind (the last: itself)
            lpm_rff #(.INIT(0)) kiv (.clk(clk), .rst(rst), .d(pv[D-2 >= 1 ? D-2 : 1]), .q(ivc[gi]));
            for (gg = 0; gg < NK; gg = gg + 1) begin : g_g
                localparam LO = gg * G;
                localparam WD = (gg == NG) ? NT : (IW - LO < G) ? IW - LO : G;
                wire tg = tkc[gi*NK + gg];
                wire sq;
                lpm_rffor4 kt (.clk(clk), .rst(rst), .a(tkas[gi*4 +: 4]), .q(tkc[gi*NK + gg]));
                lpm_selv kq (.t(tg), .f0(fc[gi*NK + gg]), .f1(fc[(gi + 1)*NK + gg]), .v(ivc[gi]), .o(sq));
                wire [WD-1:0] cur, nxt, in, nd;
                if (gg == NG) begin : g_flags
                    assign cur = wo[gi*NT +: NT];
                    assign nxt = (gi + 1 < C) ? wo[NX*NT +: NT] : {NT{1'b0}};
                    assign in = ino;
                    always @(posedge clk)
                        wo[gi*NT +: NT] <= rst ? {NT{1'b0}} : nd;
                end else begin : g_data
                    assign cur = wf[gi*IW + LO +: WD];
                    assign nxt = wf[NX*IW + LO +: WD];
                    assign in = inc[LO +: WD];
                    always @(posedge clk)
                        wf[gi*IW + LO +: WD] <= nd;
                end
                for (gb = 0; gb < WD; gb = gb + 1) begin : g_b
                    wire m;
                    lpm_mux2 c0 (.s(tg), .a(nxt[gb]), .b(cur[gb]), .o(m));
                    lpm_mux2 c1 (.s(sq), .a(in[gb]), .b(m), .o(nd[gb]));
                end
            end
        end
    endgenerate

    // the entry in view (entry tk): its item
    wire [IW-1:0] vw;
    genvar gv;
    generate
        for (gv = 0; gv < NG; gv = gv + 1) begin : g_v
            localparam LO = gv * G;
            localparam WD = (IW - LO < G) ? IW - LO : G;
            lpm_rffor4 kt (.clk(clk), .rst(rst), .a(tkas[C*4 +: 4]), .q(tkv[gv]));
            assign vw[LO +: WD] = tkv[gv] ? wf[IW + LO +: WD] : wf[LO +: WD];
        end
    endgenerate
    lpm_rffor4 ktf (.clk(clk), .rst(rst), .a(tkas[C*4 +: 4]), .q(tkv[NG]));
    wire tf = tkv[NG];
    wire [NT-1:0] vo = tf ? wo[NT +: NT] : wo[0 +: NT];

    // the entry decided last cycle: a register copy of the view per queue
    // (kept), so a queue's entries are one short net from their copy
    genvar gpq, gpb;
    generate
        for (gpq = 0; gpq < NQ; gpq = gpq + 1) begin : g_pq
            for (gpb = 0; gpb < IW; gpb = gpb + 1) begin : g_b
                lpm_rff #(.INIT(0)) k (.clk(clk), .rst(rst), .d(vw[gpb]), .q(qpush_item[gpq*IW + gpb]));
            end
        end
    endgenerate

    wire [NT-1:0] rm;
    generate
        if (ANSQ != 0) begin : g_rq
            assign rm = qroom;
        end else begin : g_rl
            assign rm = {drl_room[0], qroom};
        end
    endgenerate
    wire [NT-1:0] tq;            // target q takes the entry in view: one kept LUT each
    genvar gt;
    generate
        for (gt = 0; gt < NT; gt = gt + 1) begin : g_tq
            lpm_selv kq (.t(tf), .f0(wo[gt]), .f1(wo[NT + gt]), .v(rm[gt]), .o(tq[gt]));
        end
        // taken = |tq, folded to 4 and 2 bits for the registers that
        // take it in their own LUT (lpm_rffor4, lpm_rffsel); the folds
        // kept LUTs of tq, so that neither is made of the other; the fold
        // to 4 once per entry and once for the view, so that each drives a
        // group of copies beside it, not every copy across the window
        for (gt = 0; gt <= C; gt = gt + 1) begin : g_tka
            if (NT <= 4) begin : g_tk4
                assign tkas[gt*4 +: 4] = {{(4-NT){1'b0}}, tq};
            end else if (NT <= 7) begin : g_tk7
                wire t3;
                lpm_or4 ka (.a({{(7-NT){1'b0}}, tq[NT-1:3]}), .o(t3));
                assign tkas[gt*4 +: 4] = {t3, tq[2:0]};
            end else begin : g_tkn
                assign tkas[gt*4 +: 4] = {|tq[NT-1:3], tq[2:0]};
            end
        end
        if (NT == 1) begin : g_tk1
            assign tk2 = {1'b0, tq};
        end else if (NT == 2) begin : g_tk2
            assign tk2 = tq;
        end else if (NT <= 5) begin : g_tk5
            wire t1;
            lpm_or4 kb (.a({{(5-NT){1'b0}}, tq[NT-1:1]}), .o(t1));
            assign tk2 = {t1, tq[0]};
        end else begin : g_tk3
            assign tk2 = {|tq[NT-1:1], tq[0]};
        end
    endgenerate
    reg [SB-1:0] e;
    integer dq;
    wire dx = ANSQ == 0 && tq[NT-1];     // a DIT answer leaves by its lane
    wire dv = ANSQ == 0 && vo[NT-1];     // the view is one
    always @* begin
        e = (vw[F_B] || RING == 0 || (ANSQ != 0 && vw[F_DONE])) ? {SB{1'b0}} : vw[F_STG +: SB];
        for (dq = 0; dq < NQ; dq = dq + 1)
            qres_n[dq*WNB +: WNB] = tq[dq];
        // the answer's data is not gated: dex_v says when it is pushed
        dex_v = dx;
        dex_d = (ANSQ != 0) ? {RDW{1'b0}} : {vw[F_NH +: NB], vw[F_NHV], vw[F_TAG +: T]};
        dbg_wtok = {e, vw[F_TAG +: TG], vw[F_B]};
        dbg_act = dx ? 2'd1 : (|tq) ? 2'd2 : 2'd0;
        dbg_stall = 2'd0;
        dbg_stall_stg = {SB{1'b0}};
        if (!(|tq)) begin
            if (dv)
                dbg_stall = 2'd2;
            else if (|vo) begin
                dbg_stall = 2'd1;
                dbg_stall_stg = e;
            end
        end
    end
    // "the push writes its stage", registered with the push (the queue's
    // head-writes flag then one LUT from registers)
    reg [NQ-1:0] pww;
    integer wq;
    always @(posedge clk)
        for (wq = 0; wq < NQ; wq = wq + 1)
            pww[wq] <= ~rst & qres_n[wq*WNB] & vw[F_B] & vw[F_WEN];
    assign qpush_w = pww;
    // the next fill level (tk == iv) ? fh : fhx, fhx the level moved by one
    // (up with an incoming entry); each copy takes it in its own LUT
    wire [C+2:0] fhw = {1'b0, fh, 1'b0};
    wire [C:0] fhx;
    wire [C:0] fh_d = (tk == iv) ? fh : fhx;
    genvar gk, gc;
    generate
        for (gk = 0; gk <= C; gk = gk + 1) begin : g_fx
            assign fhx[gk] = iv ? fhw[gk] : fhw[gk + 2];
        end
        for (gk = 0; gk <= C; gk = gk + 1) begin : g_fc
            for (gc = 0; gc < NK; gc = gc + 1) begin : g_c
                lpm_rffeq #(.INIT(gk == 0)) kf (.clk(clk), .rst(rst), .t(tk), .v(iv), .a(fh[gk]), .b(fhx[gk]),
                                              .q(fc[gk*NK + gc]));
            end
        end
    endgenerate
    always @(posedge clk) begin
        if (rst) begin
            qpush_n <= {NQ*WNB{1'b0}};
            tk <= 1'b0;
            fh <= {{C{1'b0}}, 1'b1};
        end else begin
            qpush_n <= qres_n;
            tk <= |tq;
            fh <= fh_d;
        end
    end

    // the occupancy moved by the entry that came in minus the one decided
    // (a thermometer: the room is a register, the bubble's DIT write one
    // LUT of registers); each bit takes the decision in its own LUT
    // (lpm_rffsel): taken ? moved by in - 1 : by in
    wire ain = acc | bub_take;
    wire [C+1:0] wtx = {1'b0, wt, 1'b1};
    genvar gj;
    generate
        for (gj = 0; gj < C; gj = gj + 1) begin : g_wt
            wire a1 = ain ? wtx[gj + 1] : wtx[gj + 2];
            wire b1 = ain ? wtx[gj] : wtx[gj + 1];
            lpm_rffsel k (.clk(clk), .rst(rst), .t(tk2), .a(a1), .b(b1), .q(wt[gj]));
        end
    endgenerate

    always @(posedge clk) begin
        if (rst)
            bseq <= {BQB{1'b0}};
        else
            bseq <= bseq + {{(BQB-1){1'b0}}, bub_take};
    end
    assign busy = {tk, wt[0]};
endmodule

// lpm_queue3: lpm_queue's one-lane queue (P = 1, W = 1) with the same
// cycles, built for the one-lane control at D >= 3: no entry has a clock
// enable (a LUT-to-clock-enable net costs 1.6-2.2 ns even between
// neighbouring tiles, a LUT input does not). Each entry bit is two kept
// LUTs: m = th[i+1] ? the entry behind : the push, then (pass & held) ?
// itself : m (lpm_hold), where pass is a register copy of the stage's pass
// bit per group of G bits (passc[i*NG + g], made beside the stage before:
// HC copies a queue) and held a register copy of th[i] per group with its
// own last LUT (lpm_rffpm). The thermometers, hw and the credits are
// lpm_queue's.
module lpm_queue3 (
    input  wire              clk,
    input  wire              rst,
    input  wire [HC-1:0]     passc,               // entry i's group g: passc[i*NG + g]; hw: HC-2; thermometers: HC-1
    /* verilator lint_off UNUSEDSIGNAL */         // whole copies here (lpm_queue's ring parts are 0)
    input  wire [Q-1:0]      passb,
    input  wire [Q-1:0]      passw,
    input  wire [1:0]        pop_n,               // the queue's own ~pass & nz
    /* verilator lint_on UNUSEDSIGNAL */
    input  wire [IW-1:0]     push_item,
    input  wire              push_n,
    input  wire              push_w,              // that push is a bubble that writes the stage (a register)
    input  wire              res_n,
    output wire [IW-1:0]     head,
    output reg               nz,
    output reg               n2,
    output wire              room,
    output reg               hw,
    output reg  [QCB-1:0]    cnt_next
);
`include "lpm_item.vh"
    localparam integer QL = Q + MUT_QCAP;         // the credit's limit (Q, or one more: a planted fault)
    localparam TH = (QL + 1 > 4) ? QL + 1 : 4;    // thermometer bits: th[j] = (entries > j)
    localparam G = 8;                             // bits a copy of pass and of th[i] serves
    localparam NG = (IW + G - 1) / G;
    reg [TH-1:0] th;                              // entries held
    reg [TH-1:0] tc;                              // credits: pushes decided - pops
    wire [TH-1:0] th_d, tc_d;
    wire pt = passc[HC-1];                        // the thermometers' copy

    integer tj;
    always @* begin
        cnt_next = {QCB{1'b0}};
        for (tj = 0; tj < TH; tj = tj + 1)
            if (tc_d[tj])
                cnt_next = cnt_next + 1'b1;
    end

    reg [Q*IW-1:0] ef;                            // entry i = ef[i*IW +: IW]; entry 0 the oldest
    wire [Q-1:0] txw, tyw;                        // th_d[i]'s candidates for the entries' copies: with a pop, without
    assign head = ef[0 +: IW];
    genvar gi, gg, gb, gz;
    generate
        for (gi = 0; gi < Q; gi = gi + 1) begin : g_e
            for (gg = 0; gg < NG; gg = gg + 1) begin : g_g
                localparam LO = gg * G;
                localparam WD = (IW - LO < G) ? IW - LO : G;
                wire thg;
                lpm_rffpm kth (.clk(clk), .rst(rst), .pass(pt), .nz(th[0]), .x(txw[gi]), .y(tyw[gi]), .q(thg));
                for (gb = 0; gb < WD; gb = gb + 1) begin : g_b
                    wire m, nd;
                    if (gi + 1 < Q) begin : g_m
                        lpm_mux2 c0 (.s(th[gi + 1]), .a(ef[(gi + 1 < Q ? gi + 1 : 0)*IW + LO + gb]), .b(push_item[LO + gb]),
                                     .o(m));
                    end else begin : g_p
                        assign m = push_item[LO + gb];
                    end
                    lpm_hold c1 (.p(passc[gi*NG + gg]), .t(thg), .q(ef[gi*IW + LO + gb]), .d(m), .o(nd));
                    always @(posedge clk)
                        ef[gi*IW + LO + gb] <= nd;
                end
            end
        end
    endgenerate
    // hw: the head writes its stage, held through its own LUT
    wire hwn = (Q > 1 && th[1]) ? ef[((Q > 1) ? IW : 0) + F_B] & ef[((Q > 1) ? IW : 0) + F_WEN] : push_w;
    wire hwd;
    lpm_hold kh (.p(passc[HC-2]), .t(th[0]), .q(hw), .d(hwn), .o(hwd));
    always @(posedge clk)
        hw <= rst ? 1'b0 : hwd;
    // th and tc shifted by (push or credit) - pop; th[-1] = 1, th[TH] = 0
    wire [TH+1:0] thx = {1'b0, th, 1'b1}, tcx = {1'b0, tc, 1'b1};
    generate
        for (gz = 0; gz < TH; gz = gz + 1) begin : g_t
            wire tx = push_n ? thx[gz + 1] : thx[gz + 2];       // with a pop
            wire ty = push_n ? thx[gz] : thx[gz + 1];           // without
            if (gz < Q) begin : g_c
                assign txw[gz] = tx;
                assign tyw[gz] = ty;
            end
            wire cu, cv;
            lpm_pmux mt (.pass(pt), .nz(th[0]), .x(tx), .y(ty), .o(th_d[gz]));
            lpm_pmux mu (.pass(pt), .nz(th[0]), .x(tcx[gz + 1]), .y(tcx[gz]), .o(cu));      // a push decided
            lpm_pmux mv (.pass(pt), .nz(th[0]), .x(tcx[gz + 2]), .y(tcx[gz + 1]), .o(cv));  // none
            assign tc_d[gz] = res_n ? cu : cv;
            if (gz == QL - 1) begin : g_room
                lpm_rffmux #(.INIT(1), .INV(1)) kr (.clk(clk), .rst(rst), .s(res_n), .a(cu), .b(cv), .q(room));
            end
        end
    endgenerate

    always @(posedge clk) begin
        if (rst) begin
            th <= {TH{1'b0}};
            tc <= {TH{1'b0}};
            nz <= 1'b0;
            n2 <= 1'b0;
        end else begin
            th <= th_d;
            tc <= tc_d;
            nz <= th_d[0];
            n2 <= th_d[1];
        end
    end
endmodule
