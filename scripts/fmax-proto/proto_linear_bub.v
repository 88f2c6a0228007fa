// proto_linear_bub.v: proto_linear.v (below, its header as it was) with the
// functions it left out, as proto_ring_bub.v adds them to proto.v (BUB = 1,
// RST = 1; docs/rtl-fmax-history.md, "2026-12-06, last"); a copy, so that
// proto_linear.v's quoted figures keep their netlist. Measured (seeds 1-10,
// bare loop 235.96): proto_linear.v's best set (STEP 3, LANEX 2, DCH 7, THL 1,
// FHL 1, DITR 1, RON 1, WREG 1) with BUB 1 and RST 1: 204.11 MHz (0.865).
//   D3 = 1: D = 3 under today's rules: the block RAM word and the held item
//           registered once more before the decision, the DIT word once more
//           before the window, the bubble tables read a cycle later from the
//           held item's registers (timing only)
// Timing-only prototype of the LINEAR pipeline's D = 2 control, built from
// the datapath up like proto.v (the ring's): 7 stages, 1 lane, 59-bit items,
// queue 0 only (Q = 4, first-word-fall-through), a 2:1 choice at stage 0
// only (the rider from stage N-1, else queue 0's head), stages 1..N-1 take
// the hop register directly, riders from stage N-1 back to stage 0, the
// result lane at stage N-1, the DIT answers' dispatch-slot lane.
//   STEP 1: the datapath and queue 0 (pushes from the input shift register,
//           room-checked on queue 0's registered credits; the rider from
//           stage N-1 stands in as "valid & a register bit")
//   STEP 2: + the window and dispatcher (registered credits, one-hot fill)
//   STEP 3: + the result lanes (stage N-1's and the DIT answers') and the
//           riders as the rules have them (a lookup at N-1 exits when its
//           lane held at most one result at the start of the cycle, else it
//           rides to stage 0)
// Not functionally complete and never simulated: what it leaves out is the
// list of docs/rtl-fmax-history.md ("2026-12-02") (the stage-field compare
// only with STG = 1).
// Best set measured (2026-12-02, seeds 1-5 median 220.99 MHz, 0.937 of the
// bare loop's 235.96; seeds 1-10 also 220.99): STEP 3, LANEX 2, DCH 7,
// THL 1, FHL 1, DITR 1, RON 1, WREG 1 (no cycle-rule change).
// The linear rules already give what EARLY is to the ring: no lookup
// finishes before stage N-1, and one at N-1 is always done, so no hop valid
// bit (and so neither stage 0's pass bit nor queue 0's pop) depends on a
// block RAM word; only the next-hop data into the result lane does.
// Variants by parameter (scripts/fmax-proto/run.sh -f scripts/fmax-proto/proto_linear.v -set NAME VALUE):
//   LANEX = 1:   a result lane takes the exit from the hop register a cycle
//                later and shows it through a 2:1 output choice (same cycles);
//                LANEX = 2: stage N-1's lane only (the DIT answers' lane as
//                the generated one, its room a register)
//   DITR = 1:    the DIT's block RAM reads every cycle (read enable tied on:
//                a write's cycle reads nothing that is used), no enable LUT
//   RON = 1:     the stages' block RAMs read every cycle too (a bubble's
//                write cycle reads a word nobody uses): no read enable LUT
//   WREG = 1:    stages 1..N-1 take a bubble's write enable from a register
//                set during the hop (valid & writes), not through a LUT
//   FHL = 1:     each register copy of the window's one-hot fill level has
//                its own next-state logic (2 LUTs), next to it (same cycles)
//   THL = 1:     each register copy of queue 0's held thermometer has its own
//                last LUT (the pass choice), next to it (same cycles)
//   CEREG = 1:   queue 0's entries' clock enables registered, made a cycle
//                early from the rider's next valid bit (registers only here)
//   NOANS = 1:   what-if: DIT answers make no room-checked dispatch decision
//   ANSQ = 1:    a rule change: a DIT answer is pushed into queue 0 like a
//                lookup (already done) and rides to stage N-1's result lane;
//                no dispatch-slot lane, the dispatcher has one target
//   OLDCRED = 1: the window credit (req_ready) counts a dispatch one cycle
//                later (from the registered tk, not from this cycle's taken)
//   RQREG = 1:   stage N-1's exit / ride decision kept as one LUT per copy
//                (each copy of the rider's valid bit made by its own LUT)
//   PVC = 1:     register copies of "the DIT read under way is a request"
//                (pv), one per window entry's 8-bit group, for the entries'
//                enables and selects (same cycles)
//   STG = 1:     the stage-field compare in: a lookup reads at stage s only
//                if its stage field (3 bits) is s (a linear lookup rides the
//                stages before its first), into the registered read flag
//   DCH = mask:  no clock enable on the entries of queue 0 (DCH & 1), the
//                window (DCH & 2), the result lanes (DCH & 4): each bit
//                loads through a data choice (a kept LUT packed with its
//                flip-flop), so a control register reaches an entry through
//                one net and one LUT, not a LUT and the slow clock-enable
//                net (same cycles; about a LUT more a bit). The window's
//                choice takes the DIT's block RAM word in its last LUT only:
//                bit = (tk ? f[i+1] & v : f[i] & v) ? word : (tk ? next : this)
// The small cells below copy proto.v's (pl_ names) on purpose: each file is
// one place-and-route input, and its quoted figures hold for its netlist as
// it is (moving a module moves nextpnr's placement by as much as a step).
(* keep_hierarchy *)
module pl_rff (input wire clk, input wire rst, input wire d, output reg q);
    initial q = 1'b0;
    always @(posedge clk) q <= rst ? 1'b0 : d;
endmodule
(* keep_hierarchy *)
module pl_nand2 (input wire a, input wire b, output wire o);
    assign o = ~(a & b);
endmodule
(* keep_hierarchy *)
module pl_wen (input wire p, input wire n, input wire a, output wire o);
    assign o = ~p & n & a;
endmodule
(* keep_hierarchy *)
module pl_ren (input wire p, input wire n, input wire a, output wire o);
    assign o = p | ~n | ~a;
endmodule
(* keep_hierarchy *)
module pl_and2 (input wire a, input wire b, output wire o);
    assign o = a & b;
endmodule
(* keep_hierarchy *)
module pl_pmux (input wire pass, input wire nz, input wire x, input wire y, output wire o);
    assign o = (~pass & nz) ? x : y;
endmodule
(* keep_hierarchy *)
module pl_om (input wire x, input wire y, input wire a, input wire b, output wire o);
    assign o = (x | y) ? a : b;
endmodule
(* keep_hierarchy *)
module pl_selinc (input wire tk, input wire f, input wire v, output wire o);
    assign o = ~tk | (f & v);
endmodule
(* keep_hierarchy *)
module pl_cew (input wire tk, input wire f, input wire v, output wire o);
    assign o = tk | (f & v);
endmodule
// the window's one-hot fill level, bit K of the next one
(* keep_hierarchy *)
module pl_fhn #(parameter K = 0, C = 3) (input wire tk, input wire pv, input wire [C:0] fh, output wire o);
    assign o = ((tk == pv) && fh[K]) || (!tk && pv && K > 0 && fh[(K > 0) ? K - 1 : 0]) ||
               (tk && !pv && K < C && fh[(K < C) ? K + 1 : 0]);
endmodule
// a bit that holds or loads without a clock enable
(* keep_hierarchy *)
module pl_hold (input wire p, input wire t, input wire q, input wire d, output wire o);
    assign o = (p & t) ? q : d;
endmodule
(* keep_hierarchy *)
module pl_mux2 (input wire s, input wire a, input wire b, output wire o);
    assign o = s ? a : b;
endmodule
(* keep_hierarchy *)
module pl_hold2 (input wire v0, input wire r, input wire q, input wire d, output wire o);
    assign o = (v0 & ~r) ? q : d;
endmodule
// stage N-1's lookup rides on (o = 1) or exits (x = 1): lk & ~room, lk & room,
// room from the lane's flags (rlane: ~v1; rlanex: ~(v1 | v0 & xv))
(* keep_hierarchy *)
module pl_ride (input wire lk, input wire v1, input wire v0, input wire xv, output wire o);
    assign o = lk & (v1 | (v0 & xv));
endmodule
(* keep_hierarchy *)
module pl_exit (input wire lk, input wire v1, input wire v0, input wire xv, output wire o);
    assign o = lk & ~(v1 | (v0 & xv));
endmodule

// s ? (p ? CB : w) : ot (a window entry's target bit: a bubble's is queue 0's)
(* keep_hierarchy *)
module pl_muxb #(parameter CB = 0) (input wire s, input wire p, input wire w, input wire ot, output wire o);
    assign o = s ? (p ? (CB != 0) : w) : ot;
endmodule
// (BUB) a later stage's memory: separate write port, reading every cycle
module pl_sram2 #(parameter AW = 7, WB = 10) (input wire clk, input wire wen, input wire [AW-1:0] ra,
    input wire [AW-1:0] wa, input wire [WB-1:0] wd, output wire [WB-1:0] rd);
    wire [15:0] r;
    SB_RAM40_4K #(.READ_MODE(0), .WRITE_MODE(0)) ram (.RDATA(r), .RADDR({{(11-AW){1'b0}}, ra}), .RCLK(clk),
        .RCLKE(1'b1), .RE(1'b1), .WADDR({{(11-AW){1'b0}}, wa}), .WCLK(clk), .WCLKE(wen), .WE(1'b1),
        .WDATA({{(16-WB){1'b0}}, wd}), .MASK(16'h0000));
    assign rd = r[WB-1:0];
endmodule
// (BUB) a bubble table: 128 x 16
module pl_bsram (input wire clk, input wire wen, input wire [6:0] ra, input wire [6:0] wa,
    input wire [15:0] wd, output wire [15:0] rd);
    SB_RAM40_4K #(.READ_MODE(0), .WRITE_MODE(0)) ram (.RDATA(rd), .RADDR({4'd0, ra}), .RCLK(clk), .RCLKE(1'b1), .RE(1'b1),
        .WADDR({4'd0, wa}), .WCLK(clk), .WCLKE(wen), .WE(1'b1), .WDATA(wd), .MASK(16'h0000));
endmodule
// a stage memory: one SB_RAM40_4K, 256 x 16 (the design's 112 x 10 fits),
// write mask tied off, write and read enables each one kept LUT
module pl_sram #(parameter AW = 7, WB = 10) (input wire clk, input wire wen, input wire ren,
    input wire [AW-1:0] a, input wire [WB-1:0] wd, output wire [WB-1:0] rd);
    wire [15:0] r;
    SB_RAM40_4K #(.READ_MODE(0), .WRITE_MODE(0)) ram (.RDATA(r), .RADDR({{(11-AW){1'b0}}, a}), .RCLK(clk),
        .RCLKE(ren), .RE(1'b1), .WADDR({{(11-AW){1'b0}}, a}), .WCLK(clk), .WCLKE(wen), .WE(1'b1),
        .WDATA({{(16-WB){1'b0}}, wd}), .MASK(16'h0000));
    assign rd = r[WB-1:0];
endmodule
// a result lane: the generated lpm_rlane (2-entry skid buffer, flags only);
// v1 and v0 exported for the exit decision (room = ~v1)
module pl_rlane #(parameter RDW = 12, DCH = 0) (input wire clk, input wire rst, input wire push, input wire [RDW-1:0] din,
    input wire ready, output wire valid, output wire [RDW-1:0] dout, output reg v0, output reg v1);
    reg [RDW-1:0] e0, e1;
    initial begin v0 = 1'b0; v1 = 1'b0; end
    wire pop = ready & v0;
    assign valid = v0;
    assign dout = e0;
    wire l0 = pop | ~v0;
    wire l1 = pop ? v1 : v0 & ~v1;
    genvar b;
    generate if (DCH) begin : g_d
        wire [RDW-1:0] n0 = v1 ? e1 : din, d0, d1;
        for (b = 0; b < RDW; b = b + 1) begin : g_b
            pl_hold2 h0 (.v0(v0), .r(ready), .q(e0[b]), .d(n0[b]), .o(d0[b]));
            pl_mux2 h1 (.s(l1), .a(din[b]), .b(e1[b]), .o(d1[b]));
        end
        always @(posedge clk) begin e0 <= d0; e1 <= d1; end
    end else begin : g_c
        always @(posedge clk) begin
            if (l0) e0 <= v1 ? e1 : din;
            if (l1) e1 <= din;
        end
    end endgenerate
    always @(posedge clk) begin
        v0 <= rst ? 1'b0 : v1 | push | (v0 & ~pop);
        v1 <= rst ? 1'b0 : (v1 & (~pop | push)) | (v0 & ~v1 & push & ~pop);
    end
endmodule
// a result lane whose input is registered (proto.v's rlanex): the exit of
// cycle t is xd and xv in t+1, shown at once, stored at the end of t+1
module pl_rlanex #(parameter RDW = 12, DCH = 0) (input wire clk, input wire rst, input wire xv, input wire [RDW-1:0] xd,
    input wire ready, output wire valid, output wire [RDW-1:0] dout, output reg v0, output reg v1);
    reg [RDW-1:0] e0, e1;
    initial begin v0 = 1'b0; v1 = 1'b0; end
    assign valid = v0 | xv;
    assign dout = v0 ? e0 : xd;
    wire pop = ready & (v0 | xv);
    wire l0 = pop | ~v0;
    wire l1 = pop ? v1 : v0 & ~v1;
    wire [1:0] n = {1'b0, v0} + {1'b0, v1} + {1'b0, xv} - {1'b0, pop};
    genvar b;
    generate if (DCH) begin : g_d
        wire [RDW-1:0] n0 = v1 ? e1 : xd, d0, d1;
        for (b = 0; b < RDW; b = b + 1) begin : g_b
            pl_hold2 h0 (.v0(v0), .r(ready), .q(e0[b]), .d(n0[b]), .o(d0[b]));
            pl_mux2 h1 (.s(l1), .a(xd[b]), .b(e1[b]), .o(d1[b]));
        end
        always @(posedge clk) begin e0 <= d0; e1 <= d1; end
    end else begin : g_c
        always @(posedge clk) begin
            if (l0) e0 <= v1 ? e1 : xd;
            if (l1) e1 <= xd;
        end
    end endgenerate
    always @(posedge clk) begin
        v0 <= rst ? 1'b0 : n != 2'd0;
        v1 <= rst ? 1'b0 : n[1];
    end
endmodule

module proto_linear_bub #(parameter STEP = 1, N = 7, IW = 59, AW = 7, WB = 10, Q = 4,
                      LANEX = 0, CEREG = 0, NOANS = 0, ANSQ = 0, OLDCRED = 0, RQREG = 0, PVC = 0, DCH = 0, STG = 0, THL = 0, DITR = 0, RON = 0, FHL = 0, WREG = 0, BUB = 0, RST = 0, D3 = 0)
  (input wire clk, input wire din, output reg dout);
    localparam V = IW - 1, DN = IW - 2, NHV = IW - 3, NH = IW - 8, TG = IW - 14;
    localparam NT = ANSQ ? 1 : 2;   // dispatch targets: queue 0, the DIT answers' lane
    localparam C = 3;               // window entries (S + W*D = 1 + 2)
    localparam RDW = 12;
    localparam G = 8;               // bits per enable LUT
    localparam NG = (IW + G - 1) / G;
    localparam NPM = NG;            // pass copies for stage 0's 2:1 choice (8 bits each)
    localparam NPE = 4;             // for queue 0's entries' enables
    localparam NPC = NPM + NPE + 2; // + write/read enables + thermometers
    integer k;

    reg [127:0] sh = 0;
    always @(posedge clk) sh <= {sh[126:0], din};
    wire rst = RST ? sh[120] : 1'b0;
    localparam B = IW - 15;           // (BUB) the item is a bubble
    wire btk;                         // (BUB) a bubble taken this cycle (a register)
    reg [5:0] bseq = 0;               // (BUB) the next bubble's number
    always @(posedge clk) bseq <= rst ? 6'd0 : bseq + {5'd0, btk};

    // ---- the DIT (as proto.v) ----
    wire [18:0] dw; reg [IW-1:0] key_d;
    always @(posedge clk) key_d <= (BUB && sh[100]) ? sh[IW+20:21] : sh[IW-1:0];
    generate if (DITR) begin : g_ditr
        // two SB_RAM40_4K instances, the read enable tied on, the write
        // enable a register (no read-during-write bypass logic)
        wire [31:0] r;
        pl_sram #(.AW(4), .WB(16)) d0 (.clk(clk), .wen(sh[IW-1]), .ren(1'b1), .a(sh[3:0]), .wd(sh[19:4]), .rd(r[15:0]));
        pl_sram #(.AW(4), .WB(16)) d1 (.clk(clk), .wen(sh[IW-1]), .ren(1'b1), .a(sh[3:0]), .wd({13'd0, sh[22:20]}), .rd(r[31:16]));
        if (D3) begin : g_dq
            reg [18:0] q;
            always @(posedge clk) q <= r[18:0];   // (D3) the DIT word registered before the window
            assign dw = q;
        end else begin : g_dn
            assign dw = r[18:0];
        end
    end else begin : g_dit
        (* ram_style = "block" *) reg [18:0] dit [0:15];
        reg [18:0] dwr;
        always @(posedge clk)
            if (sh[IW-1]) dit[sh[3:0]] <= sh[22:4]; else dwr <= dit[sh[3:0]];
        assign dw = dwr;
    end endgenerate

    wire [IW-1:0] hout [0:N-1];     // hop registers (stage s -> s+1; N-1 -> 0: riders)
    wire [N-1:0] hwe;               // (BUB) the hop's write for the next stage
    wire [AW-1:0] hwa [0:N-1];
    wire [WB-1:0] hwd [0:N-1];
    wire [NPC-1:0] pc;              // copies of stage 0's pass bit (the rider's valid bit)
    wire ovr;                       // stage N-1's rider valid bit, being formed
    wire [N-1:0] wrn;               // a stage's item: valid and a bubble that writes (for WREG)
    wire room;                      // queue 0's credit flag (registered)
    wire res;                       // a push decided this cycle
    wire pushr;                     // the push landing (registered)
    wire [IW-1:0] pitem;            // the item landing (registered)
    wire lv1, lv0, lxv;             // stage N-1's result lane's flags
    wire aroom;                     // the DIT answers' lane's room (registered)
    wire rr = sh[61];               // res_ready (a register)
    wire [N*IW-1:0] obs_st;
    wire [2*(RDW+1)-1:0] obs_rl;
    wire obs_ctl;

    genvar s, g, i, k2;
    // ================= request side =================
    generate if (STEP == 1) begin : g_req1
        assign btk = 1'b0;
        reg pr = 1'b0; reg [IW-1:0] pi;
        assign res = sh[62] & room;
        always @(posedge clk) begin pr <= res; pi <= {1'b1, key_d[IW-2:19], dw}; end
        assign pushr = pr;
        assign pitem = pi;
        assign obs_ctl = 1'b0;
        assign aroom = 1'b1;
        assign obs_rl[RDW+1 +: RDW+1] = 0;
    end else begin : g_disp
        reg [C-1:0] wt = 0;
        reg rdy = 1'b0;
        wire bv = BUB ? sh[100] : 1'b0;   // (BUB) bub_valid
        wire acc = sh[60] & rdy & ~bv;    // req_valid & req_ready
        reg btr = 1'b0;                   // (BUB) a bubble taken: bv & last cycle's room (the window one entry larger)
        wire btake = BUB ? btr : 1'b0;
        assign btk = btake;
        wire ain = acc | btake;
        reg pv = 1'b0;                    // the DIT read under way is a request or a bubble
        reg pb = 1'b0;                    // ... a bubble
        always @(posedge clk) begin pv <= rst ? 1'b0 : ain; pb <= rst ? 1'b0 : btake; end
        reg [IW-1:0] we [0:C-1];
        reg [NT-1:0] wo [0:C-1];
        wire [IW-1:0] inc = BUB ? {1'b1, key_d[IW-2:IW-14], pb, key_d[IW-16:19], dw} : {1'b1, key_d[IW-2:19], dw};
        wire [NT-1:0] ioh = dw[18 -: NT];
        localparam TKW = (C * (NG + 1) + 4) / 5;
        localparam TKV = TKW;
        localparam NTK = TKW + (NG + 1) / 2 + 2;
        wire [NTK-1:0] tkc;
        wire taken;
        for (g = 0; g < NTK; g = g + 1) begin : g_tk
            pl_rff r (.clk(clk), .rst(rst), .d(taken), .q(tkc[g]));
        end
        wire tk = tkc[NTK-1];
        wire [NG:0] fhc [0:C];
        for (i = 0; i < C; i = i + 1) begin : g_w
            for (g = 0; g <= NG; g = g + 1) begin : g_g
                localparam LO = g * G;
                localparam WD = (g == NG) ? NT : (IW - LO < G) ? IW - LO : G;
                wire sel, ce, pvg;
                if (PVC) begin : g_pvc
                    pl_rff r (.clk(clk), .rst(rst), .d(ain), .q(pvg));
                end else begin : g_pv
                    assign pvg = pv;
                end
                pl_selinc ks (.tk(tkc[(i * (NG + 1) + g) / 5]), .f(fhc[i + 1][g]), .v(pvg), .o(sel));
                pl_cew kc (.tk(tkc[(i * (NG + 1) + g) / 5]), .f(fhc[i][g]), .v(pvg), .o(ce));
                if (DCH & 2) begin : g_dch
                    // tk ? (f[i+1] & v ? inc : next) : (f[i] & v ? inc : this)
                    wire [WD-1:0] nw = (g == NG) ? ioh : inc[LO +: WD];
                    wire [WD-1:0] nx = (i + 1 < C) ? ((g == NG) ? wo[(i + 1 < C) ? i + 1 : 0] : we[(i + 1 < C) ? i + 1 : 0][LO +: WD])
                                                   : ((g == NG) ? {WD{1'b0}} : we[i][LO +: WD]);
                    wire [WD-1:0] cur = (g == NG) ? wo[i] : we[i][LO +: WD];
                    wire tkg = tkc[(i * (NG + 1) + g) / 5];
                    wire si = tkg ? (fhc[i + 1][g] & pvg) : (fhc[i][g] & pvg);
                    wire [WD-1:0] ot = tkg ? nx : cur, dd;
                    for (k2 = 0; k2 < WD; k2 = k2 + 1) begin : g_b
                        if (BUB && g == NG) begin : g_bt
                            // a bubble's target is queue 0, in the same LUT as the word's bit
                            pl_muxb #(.CB(k2 == 0)) m (.s(si), .p(pb), .w(nw[k2]), .ot(ot[k2]), .o(dd[k2]));
                        end else begin : g_w
                            pl_mux2 m (.s(si), .a(nw[k2]), .b(ot[k2]), .o(dd[k2]));
                        end
                    end
                    if (g == NG) begin : g_o
                        always @(posedge clk) wo[i] <= dd;
                    end else begin : g_d
                        always @(posedge clk) we[i][LO +: WD] <= dd;
                    end
                end else if (g == NG) begin : g_o
                    always @(posedge clk)
                        if (ce) wo[i] <= sel ? ioh : (i + 1 < C) ? wo[(i + 1 < C) ? i + 1 : 0] : {NT{1'b0}};
                end else begin : g_d
                    always @(posedge clk)
                        if (ce) we[i][LO +: WD] <= sel ? inc[LO +: WD]
                                                       : (i + 1 < C) ? we[(i + 1 < C) ? i + 1 : 0][LO +: WD] : inc[LO +: WD];
                end
            end
        end
        initial begin wo[0] = 0; wo[1] = 0; wo[2] = 0; end
        wire [IW-1:0] view;
        for (g = 0; g < NG; g = g + 1) begin : g_v
            localparam LO = g * G;
            localparam WD = (IW - LO < G) ? IW - LO : G;
            assign view[LO +: WD] = tkc[TKV + g / 2] ? we[1][LO +: WD] : we[0][LO +: WD];
        end
        wire [NT-1:0] rm;
        wire [NT-1:0] tq;
        assign rm[0] = room;
        if (NT > 1) begin : g_rm1
            assign rm[NT-1] = aroom;
        end
        for (g = 0; g < NT; g = g + 1) begin : g_tq
            if (NOANS && g == 1) begin : g_z
                assign tq[g] = 1'b0;
            end else begin : g_t
                assign tq[g] = (tkc[NTK - 2] ? wo[1][g] : wo[0][g]) & rm[g];
            end
        end
        wire tlo = tq[0];
        wire tan = (NT > 1) ? tq[NT-1] : 1'b0;
        assign taken = tlo | tan;
        assign res = tq[0];
        reg pr = 1'b0; reg [IW-1:0] pi;
        always @(posedge clk) begin pr <= rst ? 1'b0 : tq[0]; pi <= view; end
        assign pushr = pr;
        assign pitem = pi;
        reg [C:0] fh = 1;
        reg [C:0] fh_d;
        always @* for (k = 0; k <= C; k = k + 1)
                fh_d[k] = ((tk == pv) && fh[k]) || (!tk && pv && k > 0 && fh[(k > 0) ? k - 1 : 0]) ||
                          (tk && !pv && k < C && fh[(k < C) ? k + 1 : 0]);
        always @(posedge clk) fh <= rst ? {{C{1'b0}}, 1'b1} : fh_d;
        for (i = 0; i <= C; i = i + 1) begin : g_fhc
            for (g = 0; g <= NG; g = g + 1) begin : g_g
                if (FHL) begin : g_l
                    wire dl;
                    pl_fhn #(.K(i), .C(C)) n (.tk(tkc[(i * (NG + 1) + g) % NTK]), .pv(pv), .fh(fh), .o(dl));
                    pl_rff r (.clk(clk), .rst(rst), .d(dl), .q(fhc[i][g]));
                end else begin : g_r
                    pl_rff r (.clk(clk), .rst(rst), .d(fh_d[i]), .q(fhc[i][g]));
                end
            end
        end
        wire [C-1:0] wt_d;
        wire rdy_d;
        wire [C+1:0] wtx = {1'b0, wt, 1'b1};
        for (g = 0; g < C; g = g + 1) begin : g_wt
            wire a1 = ain ? wtx[g + 1] : wtx[g + 2];
            wire b1 = ain ? wtx[g] : wtx[g + 1];
            if (OLDCRED) begin : g_o
                assign wt_d[g] = tkc[NTK - 1] ? a1 : b1;
            end else begin : g_n
                pl_om m (.x(tlo), .y(tan), .a(a1), .b(b1), .o(wt_d[g]));
            end
        end
        if (OLDCRED) begin : g_ro
            assign rdy_d = ~wt_d[C-1];
        end else begin : g_rn
            pl_om m (.x(tlo), .y(tan), .a(~(ain ? wtx[C] : wtx[C + 1])), .b(~(ain ? wtx[C-1] : wtx[C])), .o(rdy_d));
        end
        always @(posedge clk) begin wt <= rst ? {C{1'b0}} : wt_d; rdy <= rst ? 1'b0 : rdy_d; btr <= rst ? 1'b0 : BUB & sh[99] & rdy; end
        if (STEP >= 3 && !ANSQ) begin : g_dl
            wire [RDW-1:0] dd = {view[NH +: 5], view[NHV], view[TG +: 6]};
            wire vv, a0, a1; wire [RDW-1:0] vd;
            if (LANEX == 1) begin : g_ax
                reg av = 1'b0; reg [RDW-1:0] ad;
                always @(posedge clk) begin av <= rst ? 1'b0 : tq[NT-1]; ad <= dd; end
                pl_rlanex #(.RDW(RDW), .DCH((DCH & 4) != 0)) rl (.clk(clk), .rst(rst), .xv(av), .xd(ad), .ready(rr), .valid(vv), .dout(vd), .v0(a0), .v1(a1));
                assign aroom = ~(a1 | (a0 & av));
            end else begin : g_a
                pl_rlane #(.RDW(RDW), .DCH((DCH & 4) != 0)) rl (.clk(clk), .rst(rst), .push(tq[NT-1]), .din(dd), .ready(rr), .valid(vv), .dout(vd), .v0(a0), .v1(a1));
                assign aroom = ~a1;
            end
            assign obs_rl[RDW+1 +: RDW+1] = {vv, vd};
        end else begin : g_ndl
            assign aroom = 1'b1;
            assign obs_rl[RDW+1 +: RDW+1] = 0;
        end
        assign obs_ctl = rdy ^ fh[C];
    end endgenerate

    // ================= queue 0 =================
    wire pass = pc[NPC-1];
    reg [Q-1:0] th = 0, tc = 0;                // held, credits (thermometers)
    reg rmr = 1'b0;
    assign room = rmr;
    wire [NG-1:0] thc [0:Q-1];                 // copies of th[i], one per 8-bit group
    wire [Q-1:0] th_d, tc_d;
    wire [Q-1:0] txw, tyw;                     // th_d's two candidates (with / without a pop)
    wire pop = ~pass & th[0];
    reg [IW-1:0] e [0:Q-1];
    wire [IW-1:0] head = e[0];
    generate
        for (i = 0; i < Q; i = i + 1) begin : g_thc
            for (g = 0; g < NG; g = g + 1) begin : g_g
                if (THL) begin : g_l
                    wire dl;
                    pl_pmux mt (.pass(pc[NPM + (i * NG + g) % NPE]), .nz(th[0]), .x(txw[i]), .y(tyw[i]), .o(dl));
                    pl_rff r (.clk(clk), .rst(rst), .d(dl), .q(thc[i][g]));
                end else begin : g_r
                    pl_rff r (.clk(clk), .rst(rst), .d(th_d[i]), .q(thc[i][g]));
                end
            end
        end
        for (i = 0; i < Q; i = i + 1) begin : g_e
            wire ced;
            if (CEREG) begin : g_ced
                // next cycle's pass is the rider valid bit being formed now
                pl_nand2 k (.a(ovr), .b(th_d[i]), .o(ced));
            end
            for (g = 0; g < NG; g = g + 1) begin : g_g
                localparam LO = g * G;
                localparam WD = (IW - LO < G) ? IW - LO : G;
                wire ce;
                if (DCH & 1) begin : g_dch
                    wire pq;
                    pl_rff r (.clk(clk), .rst(rst), .d(ovr), .q(pq));
                    wire [WD-1:0] nx = (i + 1 < Q && thc[(i + 1 < Q) ? i + 1 : 0][g]) ? e[(i + 1 < Q) ? i + 1 : 0][LO +: WD] : pitem[LO +: WD];
                    wire [WD-1:0] dd;
                    for (k2 = 0; k2 < WD; k2 = k2 + 1) begin : g_b
                        pl_hold h (.p(pq), .t(thc[i][g]), .q(e[i][LO + k2]), .d(nx[k2]), .o(dd[k2]));
                    end
                    always @(posedge clk) e[i][LO +: WD] <= dd;
                    assign ce = 1'b0;
                end else if (CEREG) begin : g_cr
                    pl_rff r (.clk(clk), .rst(rst), .d(ced), .q(ce));
                end else begin : g_cl
                    pl_nand2 kn (.a(pc[NPM + (i * NG + g) % NPE]), .b(thc[i][g]), .o(ce));
                end
                if (!(DCH & 1)) begin : g_ld
                always @(posedge clk)
                    if (ce) e[i][LO +: WD] <= (i + 1 < Q && thc[(i + 1 < Q) ? i + 1 : 0][g])
                                              ? e[(i + 1 < Q) ? i + 1 : 0][LO +: WD] : pitem[LO +: WD];
                end
            end
        end
        wire [Q+1:0] thx = {1'b0, th, 1'b1}, tcx = {1'b0, tc, 1'b1};
        for (g = 0; g < Q; g = g + 1) begin : g_t
            wire tx = pushr ? thx[g + 1] : thx[g + 2];   // with a pop
            wire ty = pushr ? thx[g] : thx[g + 1];       // without
            assign txw[g] = tx; assign tyw[g] = ty;
            wire cu, cv;
            pl_pmux mt (.pass(pc[NPC-2]), .nz(th[0]), .x(tx), .y(ty), .o(th_d[g]));
            pl_pmux mu (.pass(pc[NPC-2]), .nz(th[0]), .x(tcx[g + 1]), .y(tcx[g]), .o(cu));
            pl_pmux mv (.pass(pc[NPC-2]), .nz(th[0]), .x(tcx[g + 2]), .y(tcx[g + 1]), .o(cv));
            assign tc_d[g] = res ? cu : cv;
        end
    endgenerate
    always @(posedge clk) begin th <= rst ? {Q{1'b0}} : th_d; tc <= rst ? {Q{1'b0}} : tc_d; rmr <= rst ? 1'b1 : ~tc_d[Q-1]; end

    // ================= the stages =================
    generate for (s = 0; s < N; s = s + 1) begin : g
        wire [IW-1:0] c;
        wire cvl;                                  // the stage holds an item
        wire wen, ren;
        if (s == 0) begin : g_c0
            wire [IW-1:0] hin = hout[N-1];
            wire [IW-1:0] c0;
            for (g = 0; g < IW; g = g + 8) begin : g_c
                localparam WD = (IW - g < 8) ? IW - g : 8;
                assign c0[g +: WD] = pc[g / 8] ? hin[g +: WD] : head[g +: WD];
            end
            assign cvl = pass | th[0];
            assign c = {cvl, c0[IW-2:0]};
            pl_wen kw (.p(pc[NPM+NPE]), .n(th[0]), .a(head[0]), .o(wen));
            if (RON) begin : g_ron
                assign ren = 1'b1;
            end else begin : g_ren
                pl_ren kr (.p(pc[NPM+NPE]), .n(th[0]), .a(head[0]), .o(ren));
            end
        end else begin : g_cs
            // the hop register straight into the block RAM; a bubble's write
            // enable one LUT from it
            assign c = hout[s - 1];
            assign cvl = c[V];
            if (WREG) begin : g_wr
                // set by stage s-1 from its own registers: valid & writes
                pl_rff r (.clk(clk), .rst(rst), .d(wrn[s - 1]), .q(wen));
            end else begin : g_wl
                pl_and2 kw (.a(c[V]), .b(c[0]), .o(wen));
            end
            if (RON) begin : g_ron
                assign ren = 1'b1;
            end else begin : g_ren
                pl_nand2 kr (.a(c[V]), .b(c[0]), .o(ren));
            end
        end
        wire [WB-1:0] rd;
        if (BUB && s > 0) begin : g_m2
            // a later stage: the bubble's write from the hop's write fields as they are
            pl_sram2 #(.AW(AW), .WB(WB)) m (.clk(clk), .wen(hwe[s - 1]), .ra(c[AW-1:0]), .wa(hwa[(s > 0) ? s - 1 : 0]),
                .wd(hwd[(s > 0) ? s - 1 : 0]), .rd(rd));
        end else begin : g_m
            pl_sram #(.AW(AW), .WB(WB)) m (.clk(clk), .wen(wen), .ren(ren), .a(c[AW-1:0]), .wd(c[AW +: WB]), .rd(rd));
        end
        reg [IW-1:0] cd; reg drf = 1'b0;
        reg lkr = 1'b0;                            // (BUB) a lookup (not a bubble) holds the stage
        assign wrn[s] = cd[V] & cd[0];
        always @(posedge clk) begin
            cd <= c;
            if (rst) cd[V] <= 1'b0;
            drf <= rst ? 1'b0 : cvl & ~c[DN] & ~(BUB && c[B]) & (!STG || c[AW + 3 +: 3] == s);
            lkr <= rst ? 1'b0 : c[V] & ~(BUB && c[B]);
        end
        // (BUB) stage s+1's bubble table, read here at the bubble's number
        // (anything else reads a word never written: zero), its word
        // straight into the hop's write fields
        if (BUB && s + 1 < N) begin : g_bt
            // (D3) read a cycle later, from the held item's registers
            wire [6:0] ba = D3 ? (cd[B] ? {1'b0, cd[TG +: 6]} : 7'h7f) : c[B] ? {1'b0, c[TG +: 6]} : 7'h7f;
            wire [31:0] bw;
            pl_bsram b0 (.clk(clk), .wen(btk), .ra(ba), .wa({1'b0, bseq}), .wd(sh[115:100] ^ {16{s[0]}}), .rd(bw[15:0]));
            pl_bsram b1 (.clk(clk), .wen(btk), .ra(ba), .wa({1'b0, bseq}), .wd({14'd0, sh[117:116]}), .rd(bw[31:16]));
            reg we_r = 1'b0; reg [AW-1:0] wa_r; reg [WB-1:0] wd_r;
            always @(posedge clk) begin we_r <= rst ? 1'b0 : bw[0]; wa_r <= bw[1 +: AW]; wd_r <= bw[1 + AW +: WB]; end
            assign hwe[s] = we_r; assign hwa[s] = wa_r; assign hwd[s] = wd_r;
        end else begin : g_nbt
            assign hwe[s] = 1'b0; assign hwa[s] = {AW{1'b0}}; assign hwd[s] = {WB{1'b0}};
        end
        // (D3) D = 3: the block RAM word and the held item registered once
        // more before the decision
        wire [IW-1:0] cdx; wire drfx, lkx; wire [WB-1:0] rdx;
        if (D3) begin : g_d3
            reg [IW-1:0] c2; reg d2 = 1'b0, l2 = 1'b0; reg [WB-1:0] r2;
            always @(posedge clk) begin
                c2 <= cd; r2 <= rd;
                d2 <= rst ? 1'b0 : drf; l2 <= rst ? 1'b0 : lkr;
                if (rst) c2[V] <= 1'b0;
            end
            assign cdx = c2; assign drfx = d2; assign rdx = r2; assign lkx = l2;
        end else begin : g_d2
            assign cdx = cd; assign drfx = drf; assign rdx = rd; assign lkx = lkr;
        end
        // t+1: the word's bits, one LUT each, into the hop register
        wire lk = (BUB && s == N - 1) ? lkx : cdx[V];
        wire child = rdx[WB-1], wv = rdx[WB-2];
        wire [4:0] wnh = rdx[WB-3 -: 5];
        wire fn = (lk & cdx[DN]) | (drfx & ~child);
        reg [IW-1:0] o;
        wire ov;
        always @* begin
            o = cdx;
            o[AW-1:2] = rdx[AW-3:0];
            o[V] = ov;
            o[DN] = fn;
            o[NHV] = cdx[NHV] | (drfx & wv);
            o[NH +: 5] = (drfx & wv) ? wnh : cdx[NH +: 5];
        end
        reg [IW-1:0] oq;
        always @(posedge clk) oq <= o;
        assign obs_st[s*IW +: IW] = hout[s];
        if (s < N - 1) begin : g_pass
            // linear: every lookup rides on to N-1; the valid bit is a register's
            assign ov = lk;
            assign hout[s] = oq;
        end else begin : g_last
            // stage N-1: ride (back to stage 0) or exit; no block RAM bit in either
            wire out;
            wire xv0 = LANEX ? lxv : 1'b0;
            if (STEP >= 3) begin : g_x
                pl_ride kr (.lk(lk), .v1(lv1), .v0(lv0), .xv(xv0), .o(ov));
                pl_exit kx (.lk(lk), .v1(lv1), .v0(lv0), .xv(xv0), .o(out));
            end else begin : g_nx
                // stand-in: the lane's room is an input register bit
                assign ov = lk & sh[63];
                assign out = 1'b0;
            end
            assign ovr = ov;
            for (g = 0; g < NPC; g = g + 1) begin : g_hv
                if (RQREG && STEP >= 3) begin : g_l
                    wire ovg;
                    pl_ride kr (.lk(lk), .v1(lv1), .v0(lv0), .xv(xv0), .o(ovg));
                    pl_rff r (.clk(clk), .rst(rst), .d(ovg), .q(pc[g]));
                end else begin : g_r
                    pl_rff r (.clk(clk), .rst(rst), .d(ov), .q(pc[g]));
                end
            end
            assign hout[s] = {pc[NPC-1], oq[IW-2:0]};
            if (STEP >= 3) begin : g_rl
                wire vv; wire [RDW-1:0] vd;
                if (LANEX) begin : g_lx
                    reg xv = 1'b0;
                    always @(posedge clk) xv <= rst ? 1'b0 : out;
                    assign lxv = xv;
                    pl_rlanex #(.RDW(RDW), .DCH((DCH & 4) != 0)) rl (.clk(clk), .rst(rst), .xv(xv), .xd({oq[NH +: 5], oq[NHV], oq[TG +: 6]}),
                        .ready(rr), .valid(vv), .dout(vd), .v0(lv0), .v1(lv1));
                end else begin : g_l
                    assign lxv = 1'b0;
                    pl_rlane #(.RDW(RDW), .DCH((DCH & 4) != 0)) rl (.clk(clk), .rst(rst), .push(out), .din({o[NH +: 5], o[NHV], cdx[TG +: 6]}),
                        .ready(rr), .valid(vv), .dout(vd), .v0(lv0), .v1(lv1));
                end
                assign obs_rl[0 +: RDW+1] = {vv, vd};
            end else begin : g_nrl
                assign lv0 = 1'b0; assign lv1 = 1'b0; assign lxv = 1'b0;
                assign obs_rl[0 +: RDW+1] = 0;
            end
        end
    end endgenerate

    // ---- fold every observed register bit: 4 bits a LUT, each level registered ----
    localparam NO = N * IW + 2 * (RDW + 1) + 1;
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
