// Timing-only prototype: ideal2.v's datapath ring plus the D = 2 control,
// one element at a time (STEP 1: queues; 2: + window and dispatcher;
// 3: + result lanes and exits). Not functionally complete and never simulated:
// what it leaves out is listed in docs/rtl-fmax-history.md ("2026-12-02").
// Variants by parameter (scripts/fmax-proto/run.sh -set NAME VALUE):
//   LANEX = 1:   a result lane takes the exit from the hop register a cycle
//                later and shows it through a 2:1 output choice (same cycles)
//   EARLY = 1:   the pass bit is "the stage before held an item D cycles ago",
//                not the block RAM word (a cycle-rule change)
//   NOANS = 1:   what-if: DIT answers make no room-checked dispatch decision
//   CEREG = 1:   queue entries' clock enables registered (tried: worse)
//   QCIRC = 1:   a head register and a circular queue body (tried: worse)
//   OLDCRED = 1: the window credit (req_ready) counts a dispatch one cycle
//                later (from the registered tk, not from this cycle's taken)
(* keep_hierarchy *)
module rff (input wire clk, input wire d, output reg q);
    initial q = 1'b0;
    always @(posedge clk) q <= d;
endmodule
(* keep_hierarchy *)
module knand2 (input wire a, input wire b, output wire o);
    assign o = ~(a & b);
endmodule
(* keep_hierarchy *)
module kwen (input wire p, input wire n, input wire a, output wire o);
    assign o = ~p & n & a;
endmodule
(* keep_hierarchy *)
module kren (input wire p, input wire n, input wire a, output wire o);
    assign o = p | ~n | ~a;
endmodule
// the hop valid bit, one LUT from the block RAM's child bit
(* keep_hierarchy *)
module kv1 (input wire lk, input wire dn, input wire drf, input wire child, output wire o);
    assign o = lk & ~(dn | (drf & ~child));
endmodule
(* keep_hierarchy *)
module kv3 (input wire a, input wire b, input wire child, output wire o);
    assign o = a & ~(b & ~child);
endmodule
(* keep_hierarchy *)
module kx3 (input wire z, input wire b, input wire child, output wire o);
    assign o = z | (b & ~child);
endmodule
// (~pass & nz) ? x : y, one LUT (the generated lpm_pmux)
(* keep_hierarchy *)
module kpmux (input wire pass, input wire nz, input wire x, input wire y, output wire o);
    assign o = (~pass & nz) ? x : y;
endmodule
// next cycle's "entry i loads": ~(next pass & next th[i]), the next pass being
// va & ~(vb & ~child) (the hop valid bit the stage before is forming now)
(* keep_hierarchy *)
module kce (input wire va, input wire vb, input wire child, input wire t, output wire o);
    assign o = ~(va & ~(vb & ~child) & t);
endmodule
// (x | y) ? a : b, one LUT (a decision's last step, no clock enable)
(* keep_hierarchy *)
module kom (input wire x, input wire y, input wire a, input wire b, output wire o);
    assign o = (x | y) ? a : b;
endmodule
(* keep_hierarchy *)
module kor2 (input wire a, input wire b, output wire o);
    assign o = a | b;
endmodule
(* keep_hierarchy *)
module kselinc (input wire tk, input wire f, input wire v, output wire o);
    assign o = ~tk | (f & v);
endmodule
(* keep_hierarchy *)
module kcew (input wire tk, input wire f, input wire v, output wire o);
    assign o = tk | (f & v);
endmodule

// a stage memory: one SB_RAM40_4K, 256 x 16, the write mask tied off, so
// the write and read enables are each one kept LUT (no mask inverter)
module sram (input wire clk, input wire wen, input wire ren, input wire [5:0] a,
    input wire [10:0] wd, output wire [10:0] rd);
    wire [15:0] r;
    SB_RAM40_4K #(.READ_MODE(0), .WRITE_MODE(0)) ram (.RDATA(r), .RADDR({5'd0, a}), .RCLK(clk), .RCLKE(ren), .RE(1'b1),
        .WADDR({5'd0, a}), .WCLK(clk), .WCLKE(wen), .WE(1'b1), .WDATA({5'd0, wd}), .MASK(16'h0000));
    assign rd = r[10:0];
endmodule
// a result lane: the generated lpm_rlane (2-entry skid buffer, flags only)
module rlane #(parameter RDW = 12) (input wire clk, input wire push, input wire [RDW-1:0] din,
    input wire ready, output wire valid, output wire [RDW-1:0] dout, output wire room);
    reg [RDW-1:0] e0, e1;
    reg v0 = 1'b0, v1 = 1'b0;
    wire pop = ready & v0;
    assign valid = v0;
    assign dout = e0;
    assign room = ~v1;
    wire l0 = pop | ~v0;
    wire l1 = pop ? v1 : v0 & ~v1;
    always @(posedge clk) begin
        if (l0) e0 <= v1 ? e1 : din;
        if (l1) e1 <= din;
        v0 <= v1 | push | (v0 & ~pop);
        v1 <= (v1 & (~pop | push)) | (v0 & ~v1 & push & ~pop);
    end
endmodule

// a result lane whose input is registered: the exit of cycle t is the
// hop register's fields and xv (registered exit flag) in t+1; the lane shows
// it at once (dout = e0, else the pending one), stores it at the end of t+1
// (one LUT from registers), and counts it in room: the same cycle rules as
// rlane, without a block RAM bit reaching the lane's registers
module rlanex #(parameter RDW = 12) (input wire clk, input wire xv, input wire [RDW-1:0] xd,
    input wire ready, output wire valid, output wire [RDW-1:0] dout, output wire room);
    reg [RDW-1:0] e0, e1;
    reg v0 = 1'b0, v1 = 1'b0;
    assign valid = v0 | xv;
    assign dout = v0 ? e0 : xd;
    assign room = ~(v1 | (v0 & xv));
    wire pop = ready & (v0 | xv);
    wire l0 = pop | ~v0;
    wire l1 = pop ? v1 : v0 & ~v1;
    wire [1:0] n = {1'b0, v0} + {1'b0, v1} + {1'b0, xv} - {1'b0, pop};
    always @(posedge clk) begin
        if (l0) e0 <= v1 ? e1 : xd;
        if (l1) e1 <= xd;
        v0 <= n != 2'd0;
        v1 <= n[1];
    end
endmodule

module proto #(parameter STEP = 1, N = 4, IW = 58, AW = 6, WB = 11, DEPTH = 48, Q = 4,
               OLDCRED = 0, PR = 8, CEREG = 0, QCIRC = 0, LANEX = 0, EARLY = 0, NOANS = 0)
  (input wire clk, input wire din, output reg dout);
    // item fields
    localparam V = IW - 1, DN = IW - 2, NHV = IW - 3, NH = IW - 8, TG = IW - 14;
    localparam NT = N + 1;         // dispatch targets: N queues, the DIT answers' lane
    localparam C = 3;              // window entries (S + W*D = 1 + 2)
    localparam RDW = 12;
    localparam G = 8;              // bits per enable LUT
    localparam NG = (IW + G - 1) / G;
    localparam NPM = (IW + 7) / 8;       // pass copies for the 2:1 choice (8 bits each)
    localparam NPE = 4;                  // for the queue entries' enables (16 LUTs each)
    localparam NPC = NPM + NPE + 2;      // + write/read enables + thermometers
    integer k;

    reg [127:0] sh = 0;
    always @(posedge clk) sh <= {sh[126:0], din};

    // ---- the DIT (as ideal2) ----
    (* ram_style = "block" *) reg [18:0] dit [0:15];
    reg [18:0] dw; reg [IW-1:0] key_d, item;
    always @(posedge clk) begin
        if (sh[IW-1]) dit[sh[3:0]] <= sh[22:4]; else dw <= dit[sh[3:0]];
        key_d <= sh[IW-1:0];
        item <= {1'b1, key_d[IW-2:19], dw};
    end

    // ---- per-stage wires ----
    wire [IW-1:0] hout [0:N-1];
    wire [NPC-1:0] hv [0:N-1];            // copies of hout's valid bit
    wire [N-1:0] sva, svb, sch, cvw;           // what a stage's next hop valid bit is made of
    wire [N-1:0] room;                    // queue credit flags (registered)
    wire [N-1:0] res;                     // pushes decided this cycle
    wire [N-1:0] pushr;                   // pushes landing (registered)
    wire [IW-1:0] pitem [0:N-1];          // the item landing (registered)
    wire [NT-1:0] lroom;                  // result lanes' room (registered)
    wire rr = sh[61];                     // res_ready (a register)
    wire [N*IW-1:0] obs_st;
    wire [NT*(RDW+1)-1:0] obs_rl;
    wire obs_ctl;

    genvar s, g, i;
    // ================= request side =================
    generate if (STEP == 1) begin : g_req1
        for (s = 0; s < N; s = s + 1) begin : g_r
            reg pr = 1'b0; reg [IW-1:0] pi;
            assign res[s] = sh[62 + s] & room[s];
            always @(posedge clk) begin pr <= res[s]; pi <= item ^ {IW{s[0]}}; end
            assign pushr[s] = pr;
            assign pitem[s] = pi;
        end
        assign obs_ctl = 1'b0;
        assign lroom[N] = 1'b1;
    end else begin : g_disp
        // window credit: thermometer wt[j] = (entries + DIT reads in flight) > j
        reg [C-1:0] wt = 0;
        reg rdy = 1'b0;                  // (prototype: power-up values 0, no reset)
        wire acc = sh[60] & rdy;          // req_valid & req_ready
        reg pv = 1'b0;                    // the DIT read under way is a request
        always @(posedge clk) pv <= acc;
        // window FIFO: C entries of {item, target one-hot}; unfilled entries have wo = 0
        reg [IW-1:0] we [0:C-1];
        reg [NT-1:0] wo [0:C-1];
        reg [C:0] fh = 0;                 // fill level, one-hot
        // the incoming entry: straight from the DIT's block RAM (its word
        // holds the target one-hot: a DIT format change) and the key register
        wire [IW-1:0] inc = {1'b1, key_d[IW-2:19], dw};
        wire [NT-1:0] ioh = dw[18:14];
        // tk: an entry was decided last cycle; copies to keep fan-out low
        localparam TKW = (C * (NG + 1) + 4) / 5;   // copies for the entries' enables (10 LUTs each)
        localparam TKV = TKW;                      // copies for the view (16 LUTs each)
        localparam NTK = TKW + (NG + 1) / 2 + 2;
        wire [NTK-1:0] tkc;
        wire taken;
        for (g = 0; g < NTK; g = g + 1) begin : g_tk
            rff r (.clk(clk), .d(taken), .q(tkc[g]));
        end
        wire tk = tkc[NTK-1];
        for (i = 0; i < C; i = i + 1) begin : g_w
            for (g = 0; g <= NG; g = g + 1) begin : g_g   // group NG: the target bits
                localparam LO = g * G;
                localparam WD = (g == NG) ? NT : (IW - LO < G) ? IW - LO : G;
                wire sel, ce;
                kselinc ks (.tk(tkc[(i * (NG + 1) + g) / 5]), .f(fhc[i + 1][g]), .v(pv), .o(sel));
                kcew kc (.tk(tkc[(i * (NG + 1) + g) / 5]), .f(fhc[i][g]), .v(pv), .o(ce));
                if (g == NG) begin
                    always @(posedge clk)
                        if (ce) wo[i] <= sel ? ioh : (i + 1 < C) ? wo[(i + 1 < C) ? i + 1 : 0] : {NT{1'b0}};
                end else begin
                    always @(posedge clk)
                        if (ce) we[i][LO +: WD] <= sel ? inc[LO +: WD]
                                                       : (i + 1 < C) ? we[(i + 1 < C) ? i + 1 : 0][LO +: WD] : inc[LO +: WD];
                end
            end
        end
        initial begin wo[0] = 0; wo[1] = 0; wo[2] = 0; end
        // the entry in view: entry tk (each 8-bit group selected by its own tk copy)
        wire [IW-1:0] view;
        for (g = 0; g < NG; g = g + 1) begin : g_v
            localparam LO = g * G;
            localparam WD = (IW - LO < G) ? IW - LO : G;
            assign view[LO +: WD] = tkc[TKV + g / 2] ? we[1][LO +: WD] : we[0][LO +: WD];
        end
        // the decision: target q takes the entry in view on one LUT of registers
        wire [NT-1:0] rm = {lroom[N], room};
        wire [NT-1:0] tq;
        for (g = 0; g < NT; g = g + 1) begin : g_tq
            if (NOANS && g == N) begin : g_z
                assign tq[g] = 1'b0;      // what-if: DIT answers take no dispatch decision
            end else begin : g_t
                assign tq[g] = (tkc[NTK - 2] ? wo[1][g] : wo[0][g]) & rm[g];
            end
        end
        wire tlo = |tq[N-1:0];
        assign taken = tlo | tq[N];
        assign res = tq[N-1:0];
        for (s = 0; s < N; s = s + 1) begin : g_p
            reg pr = 1'b0; reg [IW-1:0] pi;
            always @(posedge clk) begin pr <= tq[s]; pi <= view; end
            assign pushr[s] = pr;
            assign pitem[s] = pi;
        end
        // the fill level: fn - tk + pv
        reg [C:0] fh_d;
        always @* for (k = 0; k <= C; k = k + 1)
                fh_d[k] = ((tk == pv) && fh[k]) || (!tk && pv && k > 0 && fh[(k > 0) ? k - 1 : 0]) ||
                          (tk && !pv && k < C && fh[(k < C) ? k + 1 : 0]);
        always @(posedge clk) fh <= fh_d;
        wire [NG:0] fhc [0:C];                       // copies of fh[i], one per group
        for (i = 0; i <= C; i = i + 1) begin : g_fhc
            for (g = 0; g <= NG; g = g + 1) begin : g_g
                rff r (.clk(clk), .d(fh_d[i]), .q(fhc[i][g]));
            end
        end
        // window credit: + acc - (taken, or tk with OLDCRED)
        wire [C-1:0] wt_d;
        wire rdy_d;
        wire [C+1:0] wtx = {1'b0, wt, 1'b1};
        for (g = 0; g < C; g = g + 1) begin : g_wt
            wire a1 = acc ? wtx[g + 1] : wtx[g + 2];  // a dispatch counted
            wire b1 = acc ? wtx[g] : wtx[g + 1];      // none
            if (OLDCRED) begin : g_o
                assign wt_d[g] = tkc[NTK - 1] ? a1 : b1;
            end else begin : g_n
                kom m (.x(tlo), .y(tq[N]), .a(a1), .b(b1), .o(wt_d[g]));
            end
        end
        if (OLDCRED) begin : g_ro
            assign rdy_d = ~wt_d[C-1];
        end else begin : g_rn
            kom m (.x(tlo), .y(tq[N]), .a(~(acc ? wtx[C] : wtx[C + 1])), .b(~(acc ? wtx[C-1] : wtx[C])), .o(rdy_d));
        end
        always @(posedge clk) begin wt <= wt_d; rdy <= rdy_d; end
        // DIT answers: their result lane
        if (STEP >= 3) begin : g_dl
            wire [RDW-1:0] dd = {view[NH +: 5], view[NHV], view[TG +: 6]};
            wire vv; wire [RDW-1:0] vd;
            if (LANEX) begin : g_ax
                reg av = 1'b0; reg [RDW-1:0] ad;
                always @(posedge clk) begin av <= tq[N]; ad <= dd; end
                rlanex #(.RDW(RDW)) rl (.clk(clk), .xv(av), .xd(ad), .ready(rr), .valid(vv), .dout(vd), .room(lroom[N]));
            end else begin : g_a
                rlane #(.RDW(RDW)) rl (.clk(clk), .push(tq[N]), .din(dd), .ready(rr), .valid(vv), .dout(vd), .room(lroom[N]));
            end
            assign obs_rl[N*(RDW+1) +: RDW+1] = {vv, vd};
        end else begin : g_ndl
            assign lroom[N] = 1'b1;
        end
        assign obs_ctl = rdy ^ fh[C];
    end endgenerate

    // ================= queues and stages =================
    generate for (s = 0; s < N; s = s + 1) begin : g
        wire [IW-1:0] hin = hout[(s + N - 1) % N];
        // copies of the pass bit: the hop's valid bit, or with EARLY the
        // registered "the stage before held an item D cycles ago" (no block
        // RAM bit: a lookup that finished there still closes this stage's
        // lane to the queue for that cycle: a rule change)
        wire [NPC-1:0] pe;
        for (g = 0; g < NPC; g = g + 1) begin : g_pe
            rff r (.clk(clk), .d(cvw[(s + N - 1) % N]), .q(pe[g]));
        end
        wire [NPC-1:0] pc = EARLY ? pe : hv[(s + N - 1) % N];
        wire pass = pc[NPC-1];
        // ---- the queue: Q entries shifting towards the head ----
        reg [Q-1:0] th = 0, tc = 0;                // held, credits (thermometers)
        reg rm = 1'b0;
        assign room[s] = rm;
        wire [NG-1:0] thc [0:Q-1];                 // copies of th[i], one per 8-bit group
        wire [Q-1:0] th_d, tc_d;
        wire [Q-1:0] ced;
        for (i = 0; i < Q; i = i + 1) begin : g_ced
            if (EARLY) begin : g_e
                // next cycle's pass (registers only with EARLY) and next th[i]
                knand2 k (.a(cvw[(s + N - 1) % N]), .b(th_d[i]), .o(ced[i]));
            end else begin : g_l
                kce k (.va(sva[(s + N - 1) % N]), .vb(svb[(s + N - 1) % N]), .child(sch[(s + N - 1) % N]), .t(th_d[i]), .o(ced[i]));
            end
        end
        for (i = 0; i < Q; i = i + 1) begin : g_thc
            for (g = 0; g < NG; g = g + 1) begin : g_g
                rff r (.clk(clk), .d(th_d[i]), .q(thc[i][g]));
            end
        end
        wire pop = ~pass & th[0];
        wire [IW-1:0] head;
        if (!QCIRC) begin : g_sq
        reg [IW-1:0] e [0:Q-1];
        assign head = e[0];
        for (i = 0; i < Q; i = i + 1) begin : g_e
            for (g = 0; g < NG; g = g + 1) begin : g_g
                localparam LO = g * G;
                localparam WD = (IW - LO < G) ? IW - LO : G;
                wire ce;
                if (CEREG) begin : g_cr
                    rff r (.clk(clk), .d(ced[i]), .q(ce));
                end else begin : g_cl
                    knand2 kn (.a(pc[NPM + (i * NG + g) % NPE]), .b(thc[i][g]), .o(ce));
                end
                always @(posedge clk)
                    if (ce) e[i][LO +: WD] <= (i + 1 < Q && thc[(i + 1 < Q) ? i + 1 : 0][g])
                                              ? e[(i + 1 < Q) ? i + 1 : 0][LO +: WD] : pitem[s][LO +: WD];
            end
        end
        end else begin : g_cq
            // head register + a circular body of Q-1 entries: the body is
            // written at its tail on a landing push (enable from registers
            // only) and never shifts; only the head depends on pass, through
            // one LUT into its D input (no clock enable)
            reg [IW-1:0] hd;
            assign head = hd;
            reg [IW-1:0] b [0:Q-2];
            reg [Q-2:0] wp = 0, rp = 0;            // one-hot
            for (i = 0; i < Q - 1; i = i + 1) begin : g_b
                for (g = 0; g < NG; g = g + 1) begin : g_g
                    localparam LO = g * G;
                    localparam WD = (IW - LO < G) ? IW - LO : G;
                    always @(posedge clk)
                        if (pushr[s] & wp[i]) b[i][LO +: WD] <= pitem[s][LO +: WD];
                end
            end
            wire [IW-1:0] bo = rp[0] ? b[0] : rp[1] ? b[1] : b[Q-2];
            wire [IW-1:0] xa = th[1] ? bo : pitem[s];    // the head after a pop
            wire [IW-1:0] xb = th[0] ? hd : pitem[s];    // without
            wire [IW-1:0] hdd;
            for (g = 0; g < IW; g = g + 1) begin : g_h
                kpmux m (.pass(pc[NPM + (g / 8) % NPE]), .nz(thc[0][g / 8]), .x(xa[g]), .y(xb[g]), .o(hdd[g]));
            end
            always @(posedge clk) hd <= hdd;
            wire hp = ~th[0] | (pop & ~th[1]);          // a landing push goes to the head
            always @(posedge clk) begin
                if (pushr[s] & ~hp) wp <= {wp[Q-3:0], wp[Q-2]};
                if (pop & th[1]) rp <= {rp[Q-3:0], rp[Q-2]};
            end
        end
        wire [Q+1:0] thx = {1'b0, th, 1'b1}, tcx = {1'b0, tc, 1'b1};
        for (g = 0; g < Q; g = g + 1) begin : g_t
            wire tx = pushr[s] ? thx[g + 1] : thx[g + 2];   // with a pop
            wire ty = pushr[s] ? thx[g] : thx[g + 1];       // without
            wire cu, cv;
            kpmux mt (.pass(pass), .nz(th[0]), .x(tx), .y(ty), .o(th_d[g]));
            kpmux mu (.pass(pass), .nz(th[0]), .x(tcx[g + 1]), .y(tcx[g]), .o(cu));
            kpmux mv (.pass(pass), .nz(th[0]), .x(tcx[g + 2]), .y(tcx[g + 1]), .o(cv));
            assign tc_d[g] = res[s] ? cu : cv;
        end
        always @(posedge clk) begin th <= th_d; tc <= tc_d; rm <= ~tc_d[Q-1]; end
        // ---- the stage: 2:1 choice, block RAM, decision ----
        wire [IW-1:0] c0;
        for (g = 0; g < IW; g = g + 8) begin : g_c
            localparam WD = (IW - g < 8) ? IW - g : 8;
            assign c0[g +: WD] = pc[g / 8] ? hin[g +: WD] : head[g +: WD];
        end
        wire cv = EARLY ? (hv[(s + N - 1) % N][NPC-1] | (~pass & th[0])) : (pass | th[0]);
        assign cvw[s] = cv;
        wire [IW-1:0] c = {cv, c0[IW-2:0]};
        wire wen, ren;
        kwen kw (.p(pc[NPM+NPE]), .n(th[0]), .a(head[0]), .o(wen));
        kren kr (.p(pc[NPM+NPE]), .n(th[0]), .a(head[0]), .o(ren));
        wire [WB-1:0] rd;
        sram m (.clk(clk), .wen(wen), .ren(ren), .a(c[AW-1:0]), .wd(c[AW +: WB]), .rd(rd));
        reg [IW-1:0] cd; reg drf = 1'b0;
        always @(posedge clk) begin cd <= c; drf <= cv & ~c[DN]; end
        // t+1: the word's bits, one LUT each, into the hop register
        wire lk = cd[V];
        wire fz = lk & cd[DN];
        wire child = rd[WB-1], wv = rd[WB-2];
        wire [4:0] wnh = rd[WB-3 -: 5];
        wire fn = fz | (drf & ~child);
        assign sch[s] = child;
        wire out, ov;
        reg [IW-1:0] o;
        always @* begin
            o = cd;
            o[AW-1:2] = rd[AW-3:0];
            o[V] = ov;
            o[DN] = fn;
            o[NHV] = cd[NHV] | (drf & wv);
            o[NH +: 5] = (drf & wv) ? wnh : cd[NH +: 5];
        end
        reg [IW-1:0] oq;
        always @(posedge clk) oq <= o;
        for (g = 0; g < NPC; g = g + 1) begin : g_hv
            rff r (.clk(clk), .d(ov), .q(hv[s][g]));
        end
        assign hout[s] = {hv[s][NPC-1], oq[IW-2:0]};
        assign obs_st[s*IW +: IW] = hout[s];
        if (STEP >= 3) begin : g_x
            wire xa = lk & ~(cd[DN] & lroom[s]), xb = drf & lroom[s], xz = lk & cd[DN] & lroom[s];
            kv3 kv (.a(xa), .b(xb), .child(child), .o(ov));
            assign sva[s] = xa; assign svb[s] = xb;
            kx3 kx (.z(xz), .b(xb), .child(child), .o(out));
            wire vv; wire [RDW-1:0] vd;
            if (LANEX) begin : g_lx
                reg xv = 1'b0;
                always @(posedge clk) xv <= out;
                rlanex #(.RDW(RDW)) rl (.clk(clk), .xv(xv), .xd({oq[NH +: 5], oq[NHV], oq[TG +: 6]}),
                    .ready(rr), .valid(vv), .dout(vd), .room(lroom[s]));
            end else begin : g_l
                rlane #(.RDW(RDW)) rl (.clk(clk), .push(out), .din({o[NH +: 5], o[NHV], cd[TG +: 6]}),
                    .ready(rr), .valid(vv), .dout(vd), .room(lroom[s]));
            end
            assign obs_rl[s*(RDW+1) +: RDW+1] = {vv, vd};
        end else begin : g_nx
            assign out = fn;              // finished lookups just leave
            wire xa = lk & ~cd[DN];
            kv3 kv (.a(xa), .b(drf), .child(child), .o(ov));
            assign sva[s] = xa; assign svb[s] = drf;
            assign lroom[s] = 1'b1;
        end
    end endgenerate
    generate if (STEP < 3) begin : g_norl
        assign obs_rl = 0;
    end endgenerate

    // ---- fold every observed register bit: 4 bits a LUT, each level registered ----
    localparam NO = N * IW + NT * (RDW + 1) + 1;
    localparam N1 = (NO + 3) / 4, N2 = (N1 + 3) / 4, N3 = (N2 + 3) / 4, N4 = (N3 + 3) / 4;
    wire [N1*4-1:0] x0 = {obs_ctl, obs_rl, obs_st};
    reg [N1-1:0] f1; reg [N2-1:0] f2; reg [N3-1:0] f3; reg [N4-1:0] f4;
    wire [N2*4-1:0] x1 = f1; wire [N3*4-1:0] x2 = f2; wire [N4*4-1:0] x3 = f3;
    always @(posedge clk) begin
        for (k = 0; k < N1; k = k + 1) f1[k] <= ^x0[k*4 +: 4];
        for (k = 0; k < N2; k = k + 1) f2[k] <= ^x1[k*4 +: 4];
        for (k = 0; k < N3; k = k + 1) f3[k] <= ^x2[k*4 +: 4];
        for (k = 0; k < N4; k = k + 1) f4[k] <= ^x3[k*4 +: 4];
        dout <= ^f4;
    end
endmodule
