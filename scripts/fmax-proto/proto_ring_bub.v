// proto_ring_bub.v: proto.v (below, its header as it was) with the functions
// it left out, as a control built whole would have them (docs/rtl-fmax-history.md,
// "2026-12-06, last"); a copy, so that proto.v's quoted figures keep their netlist.
//   BUB = 1: bubbles, taken a cycle after the window had room for them (a rule
//            change: the acceptance a register, the window one entry larger),
//            entering the window with a bubble bit and queue 0 as their target;
//            stage s+1's bubble table read at stage s at the bubble's number
//            (anything else reads a zero word), its word straight into the hop
//            register's write fields and from there to the next block RAM's
//            write port
//   RST = 1: a synchronous reset (a register bit) on every control register
//   BLATE = 0: (BUB) a bubble taken as today's rules take it, when the window
//            has room at the start of the cycle (bub_valid & req_ready's
//            register: a LUT), not a cycle late
//   D3 = 1:  (EARLY = 0, STEP 3, LANEX 1) D = 3 under today's rules: the word
//            and the held item registered once more before the decision, the
//            decision's parts made from registers then, each lane's "full" a
//            register, each copy of the hop's valid bit its own LUTs (the DIT
//            side and the bubbles' write fields as at D = 2: timing only)
// Measured (seeds 1-10, bare loop 238.72): proto.v's best set (STEP 3, LANEX 1,
// EARLY 2, DCH 7, THL 1, FHL 1, DITR 1, RON 1, WREG 1, TKL 1, ANSQ 1) with
// BUB 1 and RST 1: 199.89 MHz (0.837); at D = 3 under today's rules (the
// same set with EARLY 0, ANSQ 0, D3 1, BLATE 0): 192.79 MHz (0.808; seeds 1-20
// 187.68, 0.786); the same with BLATE 1 (the late bubble, a rule change):
// seeds 1-20 199.12 MHz (0.834).
// Timing-only prototype: ideal2.v's datapath ring plus the D = 2 control,
// one element at a time (STEP 1: queues; 2: + window and dispatcher;
// 3: + result lanes and exits). Not functionally complete and never simulated:
// what it leaves out is listed in docs/rtl-fmax-history.md ("2026-12-02").
// Best measured (2026-12-02, helper; medians of seeds 1-10, bare loop 238.72):
// STEP 3, LANEX 1, EARLY 2, DCH 7, THL 1, FHL 1, DITR 1, RON 1, WREG 1, TKL 1:
// 202.73 MHz (0.849; EARLY 2 the only cycle-rule change); + ANSQ 1 (a second
// rule change): 212.30 (0.889). Without TKL: 179.80 (0.753). The same logic
// in another netlist order (an earlier draft of this file): 188.48 (0.790)
// and, with ANSQ, 201.10 (0.842).
// Sizes: N = 4 stages, IW = 58-bit items, AW = 6 / WB = 11 block RAM address
// and word bits, Q = 4 queue entries (DEPTH and PR: unused, kept so that old
// command lines still run). Every variant below defaults to 0.
// Variants by parameter (scripts/fmax-proto/run.sh -set NAME VALUE):
//   LANEX = 1:   a result lane takes the exit from the hop register a cycle
//                later and shows it through a 2:1 output choice (same cycles)
//   EARLY = 1:   the pass bit is "the stage before held an item D cycles ago",
//                not the block RAM word (a cycle-rule change); the prototype
//                registers it once after that stage's choice, a cycle early
//   EARLY = 2:   the same, registered twice (where D = 2 puts it), so the
//                next cycle's pass bit is a register
//   NOANS = 1:   what-if: DIT answers make no room-checked dispatch decision
//   CEREG = 1:   queue entries' clock enables registered (tried: worse)
//   QCIRC = 1:   a head register and a circular queue body (tried: worse)
//   OLDCRED = 1: the window credit (req_ready) counts a dispatch one cycle
//                later (from the registered tk, not from this cycle's taken)
//   QMUX = 1:    (with EARLY = 2) a circular queue body written only by landing
//                pushes and never shifted; the head picked inside the stage's
//                address choice by registered one-hot selects (tried: worse)
// The linear prototype's best set (proto_linear.v, same meanings; all same
// cycles, no rule change):
//   DCH = mask:  no clock enable on the entries of the queues (DCH & 1), the
//                window (DCH & 2), the result lanes (DCH & 4): each bit loads
//                through a data choice (a kept LUT packed with its flip-flop),
//                so a control register reaches an entry through one net and
//                one LUT, not a LUT and the slow clock-enable net. A queue
//                entry's bit is (p & th[i]) ? itself : next, p a pass copy per
//                8-bit group; the window's takes the DIT's word in its last
//                LUT only: bit = (tk ? f[i+1] & v : f[i] & v) ? word : (tk ? next : this)
//   THL = 1:     each register copy of a queue's held thermometer has its own
//                last LUT (the pass choice), next to it
//   FHL = 1:     each register copy of the window's one-hot fill level has
//                its own next-state logic, next to it
//   DITR = 1:    the DIT's block RAM reads every cycle (read enable tied on:
//                a write's cycle reads nothing that is used), no enable LUT
//   RON = 1:     the stages' block RAMs read every cycle too (a bubble's
//                write cycle reads a word nobody uses): no read enable LUT
//   WREG = 1:    (EARLY = 2, plain queue only) a stage's block RAM write enable
//                is a register, set a cycle early from next cycle's pass bit
//                (pn1), th_d[0] and the head's next bit 0
//   PVC = 1:     register copies of pv (the DIT read under way is a request),
//                one per window entry's 8-bit group (same cycles)
// Further (2026-12-02, helper):
//   TKL = 1:     each register copy of tk (a dispatch taken) has its own last
//                LUT, next to it: with NOANS or ANSQ (N = 4) the OR of the four
//                queues' decisions, else tlo | the answer lane's decision
//                (same cycles)
//   ANSQ = 1:    a rule change (proto_linear.v's ANSQ for the ring): a DIT
//                answer is dispatched into a queue like a lookup, already
//                done (its DIT word names that queue, not a lane), passes
//                that stage without a read and leaves by its result lane (or
//                rides on when the lane is full, as any finished lookup); no
//                dispatch-slot lane, the dispatcher has N targets. In the
//                prototype the DIT word's answer-target bit is 0, which gives
//                the same netlist as NOANS (up to ABC's mapping). An answer
//                so takes a queue entry and a slot of its stage
//   ARREG = 1:   (LANEX = 1) the DIT answers' lane's room a register, made a
//                cycle early from the lane's next flags and this cycle's
//                answer decision (same cycles)
(* keep_hierarchy *)
module rff (input wire clk, input wire rst, input wire d, output reg q);
    initial q = 1'b0;
    always @(posedge clk) q <= rst ? 1'b0 : d;
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
// a bit that holds or loads without a clock enable: (p & t) ? q : d
(* keep_hierarchy *)
module khold (input wire p, input wire t, input wire q, input wire d, output wire o);
    assign o = (p & t) ? q : d;
endmodule
(* keep_hierarchy *)
module kmux2 (input wire s, input wire a, input wire b, output wire o);
    assign o = s ? a : b;
endmodule
(* keep_hierarchy *)
module khold2 (input wire v0, input wire r, input wire q, input wire d, output wire o);
    assign o = (v0 & ~r) ? q : d;
endmodule
(* keep_hierarchy *)
module kor4 (input wire a, input wire b, input wire c, input wire d, output wire o);
    assign o = a | b | c | d;
endmodule
// the window's one-hot fill level, bit K of the next one
(* keep_hierarchy *)
module kfhn #(parameter K = 0, C = 3) (input wire tk, input wire pv, input wire [C:0] fh, output wire o);
    assign o = ((tk == pv) && fh[K]) || (!tk && pv && K > 0 && fh[(K > 0) ? K - 1 : 0]) ||
               (tk && !pv && K < C && fh[(K < C) ? K + 1 : 0]);
endmodule
(* keep_hierarchy *)
module kcew (input wire tk, input wire f, input wire v, output wire o);
    assign o = tk | (f & v);
endmodule

// s ? (p ? CB : w) : ot (a window entry's target bit: a bubble's is queue 0's)
(* keep_hierarchy *)
module kmuxb #(parameter CB = 0) (input wire s, input wire p, input wire w, input wire ot, output wire o);
    assign o = s ? (p ? (CB != 0) : w) : ot;
endmodule
// a later stage's memory with BUB: separate write port, reading every cycle
module sram2 (input wire clk, input wire wen, input wire [5:0] ra, input wire [5:0] wa,
    input wire [10:0] wd, output wire [10:0] rd);
    wire [15:0] r;
    SB_RAM40_4K #(.READ_MODE(0), .WRITE_MODE(0)) ram (.RDATA(r), .RADDR({5'd0, ra}), .RCLK(clk), .RCLKE(1'b1), .RE(1'b1),
        .WADDR({5'd0, wa}), .WCLK(clk), .WCLKE(wen), .WE(1'b1), .WDATA({5'd0, wd}), .MASK(16'h0000));
    assign rd = r[10:0];
endmodule
// a bubble table: 128 x 16
module bsram (input wire clk, input wire wen, input wire [6:0] ra, input wire [6:0] wa,
    input wire [15:0] wd, output wire [15:0] rd);
    SB_RAM40_4K #(.READ_MODE(0), .WRITE_MODE(0)) ram (.RDATA(rd), .RADDR({4'd0, ra}), .RCLK(clk), .RCLKE(1'b1), .RE(1'b1),
        .WADDR({4'd0, wa}), .WCLK(clk), .WCLKE(wen), .WE(1'b1), .WDATA(wd), .MASK(16'h0000));
endmodule
// (D3) the hop's valid bit: pn | m & (full | r & child)
(* keep_hierarchy *)
module kd3v (input wire pn, input wire m, input wire full, input wire r, input wire child, output wire o);
    assign o = pn | (m & (full | (r & child)));
endmodule
// (D3) the exit: m & ~full & ~(r & child)
(* keep_hierarchy *)
module kd3x (input wire m, input wire full, input wire r, input wire child, output wire o);
    assign o = m & ~full & ~(r & child);
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
// the DIT with DITR: 16 x 16, read enable tied on, write enable a register
module dsram (input wire clk, input wire wen, input wire [3:0] a, input wire [15:0] wd, output wire [15:0] rd);
    SB_RAM40_4K #(.READ_MODE(0), .WRITE_MODE(0)) ram (.RDATA(rd), .RADDR({7'd0, a}), .RCLK(clk), .RCLKE(1'b1), .RE(1'b1),
        .WADDR({7'd0, a}), .WCLK(clk), .WCLKE(wen), .WE(1'b1), .WDATA(wd), .MASK(16'h0000));
endmodule
// a result lane: the generated lpm_rlane (2-entry skid buffer, flags only)
module rlane #(parameter RDW = 12, DCH = 0) (input wire clk, input wire rst, input wire push, input wire [RDW-1:0] din,
    input wire ready, output wire valid, output wire [RDW-1:0] dout, output wire room);
    reg [RDW-1:0] e0, e1;
    reg v0 = 1'b0, v1 = 1'b0;
    wire pop = ready & v0;
    assign valid = v0;
    assign dout = e0;
    assign room = ~v1;
    wire l0 = pop | ~v0;
    wire l1 = pop ? v1 : v0 & ~v1;
    genvar b;
    generate if (DCH) begin : g_d
        wire [RDW-1:0] n0 = v1 ? e1 : din, d0, d1;
        for (b = 0; b < RDW; b = b + 1) begin : g_b
            khold2 h0 (.v0(v0), .r(ready), .q(e0[b]), .d(n0[b]), .o(d0[b]));
            kmux2 h1 (.s(l1), .a(din[b]), .b(e1[b]), .o(d1[b]));
        end
        always @(posedge clk) begin e0 <= d0; e1 <= d1; end
    end else begin : g_c
        always @(posedge clk) begin
            if (l0) e0 <= v1 ? e1 : din;
            if (l1) e1 <= din;
        end
    end endgenerate
    always @(posedge clk) begin
        v0 <= rst ? 1'b0 : (v1 | push | (v0 & ~pop));
        v1 <= rst ? 1'b0 : ((v1 & (~pop | push)) | (v0 & ~v1 & push & ~pop));
    end
endmodule

// a result lane whose input is registered: the exit of cycle t is the
// hop register's fields and xv (registered exit flag) in t+1; the lane shows
// it at once (dout = e0, else the pending one), stores it at the end of t+1
// (one LUT from registers), and counts it in room: the same cycle rules as
// rlane, without a block RAM bit reaching the lane's registers
// (RREG = 1: room a register, made a cycle early from xvn, next cycle's xv)
module rlanex #(parameter RDW = 12, DCH = 0, RREG = 0) (input wire clk, input wire rst, input wire xv, input wire [RDW-1:0] xd,
    input wire ready, output wire valid, output wire [RDW-1:0] dout, output wire room, input wire xvn, output wire full);
    reg [RDW-1:0] e0, e1;
    reg v0 = 1'b0, v1 = 1'b0;
    reg rmr = 1'b1;
    reg nfr = 1'b0;                  // (RREG) ~room as a register that starts at 0
    assign valid = v0 | xv;
    assign dout = v0 ? e0 : xd;
    assign room = RREG ? ~nfr : ~(v1 | (v0 & xv));
    assign full = nfr;
    wire pop = ready & (v0 | xv);
    wire l0 = pop | ~v0;
    wire l1 = pop ? v1 : v0 & ~v1;
    wire [1:0] n = {1'b0, v0} + {1'b0, v1} + {1'b0, xv} - {1'b0, pop};
    genvar b;
    generate if (DCH) begin : g_d
        wire [RDW-1:0] n0 = v1 ? e1 : xd, d0, d1;
        for (b = 0; b < RDW; b = b + 1) begin : g_b
            khold2 h0 (.v0(v0), .r(ready), .q(e0[b]), .d(n0[b]), .o(d0[b]));
            kmux2 h1 (.s(l1), .a(xd[b]), .b(e1[b]), .o(d1[b]));
        end
        always @(posedge clk) begin e0 <= d0; e1 <= d1; end
    end else begin : g_c
        always @(posedge clk) begin
            if (l0) e0 <= v1 ? e1 : xd;
            if (l1) e1 <= xd;
        end
    end endgenerate
    always @(posedge clk) begin
        v0 <= rst ? 1'b0 : (n != 2'd0);
        v1 <= rst ? 1'b0 : n[1];
        rmr <= rst ? 1'b1 : ~(n[1] | ((n != 2'd0) & xvn));
        nfr <= rst ? 1'b0 : n[1] | ((n != 2'd0) & xvn);
    end
endmodule

module proto_ring_bub #(parameter STEP = 1, N = 4, IW = 58, AW = 6, WB = 11, DEPTH = 48, Q = 4,
               OLDCRED = 0, PR = 8, CEREG = 0, QCIRC = 0, LANEX = 0, EARLY = 0, NOANS = 0, QMUX = 0,
               DCH = 0, THL = 0, FHL = 0, DITR = 0, RON = 0, WREG = 0, PVC = 0, TKL = 0, ANSQ = 0, ARREG = 0, BUB = 0, RST = 0, D3 = 0, BLATE = 1)
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
    wire rst = RST ? sh[120] : 1'b0;
    localparam B = IW - 15;           // (BUB) the item is a bubble
    wire btk;                         // (BUB) a bubble taken this cycle (a register)
    reg [5:0] bseq = 0;               // (BUB) the next bubble's number
    always @(posedge clk) bseq <= rst ? 6'd0 : bseq + {5'd0, btk};

    // ---- the DIT (as ideal2) ----
    (* ram_style = "block" *) reg [18:0] dit [0:15];
    reg [18:0] dw; reg [IW-1:0] key_d, item;
    wire [18:0] dwx;                      // DITR: the word from two SB_RAM40_4K
    always @(posedge clk) begin
        if (sh[IW-1]) dit[sh[3:0]] <= sh[22:4]; else dw <= dit[sh[3:0]];
        key_d <= (BUB && sh[100]) ? sh[IW+20:21] : sh[IW-1:0];
        item <= {1'b1, key_d[IW-2:19], DITR ? dwx : dw};
    end

    // ---- per-stage wires ----
    wire [IW-1:0] hout [0:N-1];
    wire [N-1:0] vpn, vm, vr, vch, lfull;   // (D3) a stage's decision parts, its lane's "full"
    wire [N-1:0] hwe;                     // (BUB) the hop's write for the next stage
    wire [AW-1:0] hwa [0:N-1];
    wire [WB-1:0] hwd [0:N-1];
    wire [NPC-1:0] hv [0:N-1];            // copies of hout's valid bit
    wire [N-1:0] sva, svb, sch, cvw;
    wire [N-1:0] ovw;                     // (DCH & 1 without EARLY) the hop valid bit being formed           // what a stage's next hop valid bit is made of
    wire [N-1:0] room;                    // queue credit flags (registered)
    wire [N-1:0] res;                     // pushes decided this cycle
    wire [N-1:0] pushr;                   // pushes landing (registered)
    wire [IW-1:0] pitem [0:N-1];          // the item landing (registered)
    wire [NT-1:0] lroom;                  // result lanes' room (registered)
    wire rr = sh[61];                     // res_ready (a register)
    wire [N*IW-1:0] obs_st;
    wire [NT*(RDW+1)-1:0] obs_rl;
    wire obs_ctl;

    genvar s, g, i, k2;
    generate if (DITR) begin : g_ditr
        // read enable tied on (a write's cycle reads nothing that is used),
        // write enable a register
        wire [31:0] r;
        dsram d0 (.clk(clk), .wen(sh[IW-1]), .a(sh[3:0]), .wd(sh[19:4]), .rd(r[15:0]));
        dsram d1 (.clk(clk), .wen(sh[IW-1]), .a(sh[3:0]), .wd({13'd0, sh[22:20]}), .rd(r[31:16]));
        assign dwx = r[18:0];
    end endgenerate
    // ================= request side =================
    generate if (STEP == 1) begin : g_req1
        assign btk = 1'b0;
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
        wire bv = BUB ? sh[100] : 1'b0;   // (BUB) bub_valid
        wire acc = sh[60] & rdy & ~bv;    // req_valid & req_ready
        reg btr = 1'b0;                   // (BUB) bv & rdy, made a cycle early
        wire btake = BUB ? (BLATE ? btr : bv & rdy) : 1'b0;   // BLATE 0: today's rule, a LUT of registers
        assign btk = btake;
        wire ain = acc | btake;           // an entry comes
        reg pv = 1'b0;                    // the DIT read under way is a request or a bubble
        reg pb = 1'b0;                    // ... a bubble
        always @(posedge clk) begin pv <= rst ? 1'b0 : ain; pb <= rst ? 1'b0 : btake; end
        // window FIFO: C entries of {item, target one-hot}; unfilled entries have wo = 0
        reg [IW-1:0] we [0:C-1];
        reg [NT-1:0] wo [0:C-1];
        reg [C:0] fh = 0;                 // fill level, one-hot
        // the incoming entry: straight from the DIT's block RAM (its word
        // holds the target one-hot: a DIT format change) and the key register
        wire [IW-1:0] inc = BUB ? {1'b1, key_d[IW-2:IW-14], pb, key_d[IW-16:19], DITR ? dwx : dw}
                                : {1'b1, key_d[IW-2:19], DITR ? dwx : dw};
        wire [NT-1:0] ioh = ANSQ ? {1'b0, (DITR ? dwx[17:14] : dw[17:14])} : DITR ? dwx[18:14] : dw[18:14];
        // tk: an entry was decided last cycle; copies to keep fan-out low
        localparam TKW = (C * (NG + 1) + 4) / 5;   // copies for the entries' enables (10 LUTs each)
        localparam TKV = TKW;                      // copies for the view (16 LUTs each)
        localparam NTK = TKW + (NG + 1) / 2 + 2;
        wire [NTK-1:0] tkc;
        wire taken;
        wire [NT-1:0] tq;
        wire tlo;
        for (g = 0; g < NTK; g = g + 1) begin : g_tk
            wire tkd;
            rff r (.clk(clk), .rst(rst), .d(TKL ? tkd : taken), .q(tkc[g]));
            if (TKL && (NOANS || ANSQ) && N == 4) begin : g_l4
                // each copy its own OR of the queues' decisions, next to it
                kor4 o (.a(tq[0]), .b(tq[1]), .c(tq[2]), .d(tq[3]), .o(tkd));
            end else if (TKL) begin : g_l
                kor2 o (.a(tlo), .b(tq[N]), .o(tkd));
            end
        end
        wire tk = tkc[NTK-1];
        wire [NG:0] fhc [0:C];                       // copies of fh[i], one per group
        for (i = 0; i < C; i = i + 1) begin : g_w
            for (g = 0; g <= NG; g = g + 1) begin : g_g   // group NG: the target bits
                localparam LO = g * G;
                localparam WD = (g == NG) ? NT : (IW - LO < G) ? IW - LO : G;
                wire sel, ce, pvq;
                kselinc ks (.tk(tkc[(i * (NG + 1) + g) / 5]), .f(fhc[i + 1][g]), .v(PVC ? pvq : pv), .o(sel));
                kcew kc (.tk(tkc[(i * (NG + 1) + g) / 5]), .f(fhc[i][g]), .v(PVC ? pvq : pv), .o(ce));
                if (DCH & 2) begin : g_dch
                    // no clock enable: each bit a kept LUT, the DIT's word in
                    // its last LUT only:
                    // bit = (tk ? f[i+1] & v : f[i] & v) ? word : (tk ? next : this)
                    wire [WD-1:0] nw = (g == NG) ? ioh : inc[LO +: WD];
                    wire [WD-1:0] nx = (i + 1 < C) ? ((g == NG) ? wo[(i + 1 < C) ? i + 1 : 0] : we[(i + 1 < C) ? i + 1 : 0][LO +: WD])
                                                   : ((g == NG) ? {WD{1'b0}} : we[i][LO +: WD]);
                    wire [WD-1:0] cur = (g == NG) ? wo[i] : we[i][LO +: WD];
                    wire tkg = tkc[(i * (NG + 1) + g) / 5];
                    wire pvg = PVC ? pvq : pv;
                    wire si = tkg ? (fhc[i + 1][g] & pvg) : (fhc[i][g] & pvg);
                    wire [WD-1:0] ot = tkg ? nx : cur, dd;
                    for (k2 = 0; k2 < WD; k2 = k2 + 1) begin : g_b
                        if (BUB && g == NG) begin : g_bt
                            // a bubble's target is queue 0, in the same LUT as the word's bit
                            kmuxb #(.CB(k2 == 0)) m (.s(si), .p(pb), .w(nw[k2]), .ot(ot[k2]), .o(dd[k2]));
                        end else begin : g_w
                            kmux2 m (.s(si), .a(nw[k2]), .b(ot[k2]), .o(dd[k2]));
                        end
                    end
                    if (g == NG) begin : g_o
                        always @(posedge clk) wo[i] <= dd;
                    end else begin : g_d
                        always @(posedge clk) we[i][LO +: WD] <= dd;
                    end
                end else if (g == NG) begin
                    always @(posedge clk)
                        if (ce) wo[i] <= sel ? ioh : (i + 1 < C) ? wo[(i + 1 < C) ? i + 1 : 0] : {NT{1'b0}};
                end else begin
                    always @(posedge clk)
                        if (ce) we[i][LO +: WD] <= sel ? inc[LO +: WD]
                                                       : (i + 1 < C) ? we[(i + 1 < C) ? i + 1 : 0][LO +: WD] : inc[LO +: WD];
                end
                if (PVC) begin : g_pvc
                    rff r (.clk(clk), .rst(rst), .d(ain), .q(pvq));   // a copy of pv per group
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
        for (g = 0; g < NT; g = g + 1) begin : g_tq
            if ((NOANS || ANSQ) && g == N) begin : g_z
                assign tq[g] = 1'b0;      // what-if: DIT answers take no dispatch decision
            end else begin : g_t
                assign tq[g] = (tkc[NTK - 2] ? wo[1][g] : wo[0][g]) & rm[g];
            end
        end
        assign tlo = |tq[N-1:0];
        assign taken = tlo | tq[N];
        assign res = tq[N-1:0];
        for (s = 0; s < N; s = s + 1) begin : g_p
            reg pr = 1'b0; reg [IW-1:0] pi;
            always @(posedge clk) begin pr <= rst ? 1'b0 : tq[s]; pi <= view; end
            assign pushr[s] = pr;
            assign pitem[s] = pi;
        end
        // the fill level: fn - tk + pv
        reg [C:0] fh_d;
        always @* for (k = 0; k <= C; k = k + 1)
                fh_d[k] = ((tk == pv) && fh[k]) || (!tk && pv && k > 0 && fh[(k > 0) ? k - 1 : 0]) ||
                          (tk && !pv && k < C && fh[(k < C) ? k + 1 : 0]);
        always @(posedge clk) fh <= rst ? {{C{1'b0}}, 1'b1} : fh_d;
        for (i = 0; i <= C; i = i + 1) begin : g_fhc
            for (g = 0; g <= NG; g = g + 1) begin : g_g
                wire fhl;
                rff r (.clk(clk), .rst(rst), .d(FHL ? fhl : fh_d[i]), .q(fhc[i][g]));
                if (FHL) begin : g_l
                    // each copy its own next-state logic, next to it
                    kfhn #(.K(i), .C(C)) n (.tk(tkc[(i * (NG + 1) + g) % NTK]), .pv(pv), .fh(fh), .o(fhl));
                end
            end
        end
        // window credit: + acc - (taken, or tk with OLDCRED)
        wire [C-1:0] wt_d;
        wire rdy_d;
        wire [C+1:0] wtx = {1'b0, wt, 1'b1};
        for (g = 0; g < C; g = g + 1) begin : g_wt
            wire a1 = ain ? wtx[g + 1] : wtx[g + 2];  // a dispatch counted
            wire b1 = ain ? wtx[g] : wtx[g + 1];      // none
            if (OLDCRED) begin : g_o
                assign wt_d[g] = tkc[NTK - 1] ? a1 : b1;
            end else begin : g_n
                kom m (.x(tlo), .y(tq[N]), .a(a1), .b(b1), .o(wt_d[g]));
            end
        end
        if (OLDCRED) begin : g_ro
            assign rdy_d = ~wt_d[C-1];
        end else begin : g_rn
            kom m (.x(tlo), .y(tq[N]), .a(~(ain ? wtx[C] : wtx[C + 1])), .b(~(ain ? wtx[C-1] : wtx[C])), .o(rdy_d));
        end
        always @(posedge clk) begin wt <= rst ? {C{1'b0}} : wt_d; rdy <= rst ? 1'b0 : rdy_d; btr <= rst ? 1'b0 : BUB & sh[99] & rdy; end
        // DIT answers: their result lane
        if (STEP >= 3) begin : g_dl
            wire [RDW-1:0] dd = {view[NH +: 5], view[NHV], view[TG +: 6]};
            wire vv; wire [RDW-1:0] vd;
            if (LANEX) begin : g_ax
                reg av = 1'b0; reg [RDW-1:0] ad;
                always @(posedge clk) begin av <= rst ? 1'b0 : tq[N]; ad <= dd; end
                rlanex #(.RDW(RDW), .DCH((DCH & 4) != 0), .RREG(ARREG)) rl (.clk(clk), .rst(rst), .xv(av), .xd(ad), .ready(rr), .valid(vv), .dout(vd), .room(lroom[N]),
                    .xvn(tq[N]), .full());
            end else begin : g_a
                rlane #(.RDW(RDW), .DCH((DCH & 4) != 0)) rl (.clk(clk), .rst(rst), .push(tq[N]), .din(dd), .ready(rr), .valid(vv), .dout(vd), .room(lroom[N]));
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
        // EARLY = 2: the pass bit two registers after the stage before's
        // choice, where D = 2 puts it, so next cycle's pass is a register (pn1)
        wire pn1;
        rff rpn (.clk(clk), .rst(rst), .d(cvw[(s + N - 1) % N]), .q(pn1));
        for (g = 0; g < NPC; g = g + 1) begin : g_pe
            rff r (.clk(clk), .rst(rst), .d(EARLY == 2 ? pn1 : cvw[(s + N - 1) % N]), .q(pe[g]));
        end
        wire [NPC-1:0] pc = EARLY ? pe : hv[(s + N - 1) % N];
        wire pass = pc[NPC-1];
        // ---- the queue: Q entries shifting towards the head ----
        reg [Q-1:0] th = 0, tc = 0;                // held, credits (thermometers)
        reg rm = 1'b0;
        assign room[s] = rm;
        wire [NG-1:0] thc [0:Q-1];                 // copies of th[i], one per 8-bit group
        wire [Q-1:0] th_d, tc_d;
        wire [Q-1:0] txw, tyw;                     // (THL) th_d's two candidates: with / without a pop
        wire wrq;                                  // (WREG) the write enable register
        wire [Q-1:0] ced;
        for (i = 0; i < Q; i = i + 1) begin : g_ced
            if (EARLY) begin : g_e
                // next cycle's pass (registers only with EARLY) and next th[i]
                knand2 k (.a(EARLY == 2 ? pn1 : cvw[(s + N - 1) % N]), .b(th_d[i]), .o(ced[i]));
            end else begin : g_l
                kce k (.va(sva[(s + N - 1) % N]), .vb(svb[(s + N - 1) % N]), .child(sch[(s + N - 1) % N]), .t(th_d[i]), .o(ced[i]));
            end
        end
        for (i = 0; i < Q; i = i + 1) begin : g_thc
            for (g = 0; g < NG; g = g + 1) begin : g_g
                wire thl;
                rff r (.clk(clk), .rst(rst), .d(THL ? thl : th_d[i]), .q(thc[i][g]));
                if (THL) begin : g_l
                    // each copy its own last LUT (the pass choice), next to it
                    kpmux mt (.pass(pc[NPM + (i * NG + g) % NPE]), .nz(th[0]), .x(txw[i]), .y(tyw[i]), .o(thl));
                end
            end
        end
        wire pop = ~pass & th[0];
        wire [IW-1:0] head;
        wire [IW-1:0] c0m;
        wire hbm;
        if (QMUX) begin : g_mq
            // a circular body written only by a landing push (enables from
            // registers), never shifted; the head is picked inside the stage's
            // address choice by registered one-hot selects (EARLY: the next
            // cycle's pass bit is known now)
            reg [IW-1:0] e [0:Q-1];
            reg [Q-1:0] wp = 1, rp = 1;
            wire [Q-1:0] rpn = pop ? {rp[Q-2:0], rp[Q-1]} : rp;
            wire [Q-1:0] smn = {Q{~pn1}} & rpn;
            wire [NG-1:0] wpc [0:Q-1];
            wire [NG-1:0] smc [0:Q-1];
            wire [Q-1:0] wpn = pushr[s] ? {wp[Q-2:0], wp[Q-1]} : wp;
            for (i = 0; i < Q; i = i + 1) begin : g_b
                for (g = 0; g < NG; g = g + 1) begin : g_g
                    localparam LO = g * G;
                    localparam WD = (IW - LO < G) ? IW - LO : G;
                    rff rw (.clk(clk), .rst(rst), .d(wpn[i]), .q(wpc[i][g]));
                    rff rs (.clk(clk), .rst(rst), .d(smn[i]), .q(smc[i][g]));
                    wire ce = pushr[s] & wpc[i][g];
                    always @(posedge clk)
                        if (ce) e[i][LO +: WD] <= pitem[s][LO +: WD];
                end
            end
            always @(posedge clk) begin wp <= wpn; rp <= rpn; end
            for (g = 0; g < IW; g = g + 1) begin : g_c
                wire [Q-1:0] bits;
                for (i = 0; i < Q; i = i + 1) begin : g_i
                    assign bits[i] = e[i][g] & smc[i][g / 8];
                end
                assign c0m[g] = (pc[g / 8] & hin[g]) | (|bits);
            end
            wire [Q-1:0] ebn;
            for (i = 0; i < Q; i = i + 1) begin : g_eb
                assign ebn[i] = (pushr[s] & wp[i]) ? pitem[s][0] : e[i][0];
            end
            reg hb = 1'b0;
            always @(posedge clk) hb <= |(smn & ebn);
            assign hbm = hb;
            assign head = c0m;
        end else if (!QCIRC) begin : g_sq
        reg [IW-1:0] e [0:Q-1];
        assign head = e[0];
        for (i = 0; i < Q; i = i + 1) begin : g_e
            for (g = 0; g < NG; g = g + 1) begin : g_g
                localparam LO = g * G;
                localparam WD = (IW - LO < G) ? IW - LO : G;
                wire ce;
                if (CEREG) begin : g_cr
                    rff r (.clk(clk), .rst(rst), .d(ced[i]), .q(ce));
                end else begin : g_cl
                    knand2 kn (.a(pc[NPM + (i * NG + g) % NPE]), .b(thc[i][g]), .o(ce));
                end
                if (DCH & 1) begin : g_dch
                    // no clock enable: each bit holds or loads through its own
                    // kept LUT, with its own pass copy per 8-bit group
                    wire pq;
                    if (D3) begin : g_p3
                        // (D3) this copy's own LUTs of the stage before's registers
                        wire o3;
                        kd3v k (.pn(vpn[(s + N - 1) % N]), .m(vm[(s + N - 1) % N]), .full(lfull[(s + N - 1) % N]),
                            .r(vr[(s + N - 1) % N]), .child(vch[(s + N - 1) % N]), .o(o3));
                        rff r (.clk(clk), .rst(rst), .d(o3), .q(pq));
                    end else begin : g_p2
                    rff r (.clk(clk), .rst(rst), .d(EARLY == 2 ? pn1 : EARLY ? cvw[(s + N - 1) % N] : ovw[(s + N - 1) % N]), .q(pq));
                    end
                    wire [WD-1:0] nx = (i + 1 < Q && thc[(i + 1 < Q) ? i + 1 : 0][g]) ? e[(i + 1 < Q) ? i + 1 : 0][LO +: WD] : pitem[s][LO +: WD];
                    wire [WD-1:0] dd;
                    for (k2 = 0; k2 < WD; k2 = k2 + 1) begin : g_b
                        khold h (.p(pq), .t(thc[i][g]), .q(e[i][LO + k2]), .d(nx[k2]), .o(dd[k2]));
                    end
                    always @(posedge clk) e[i][LO +: WD] <= dd;
                end else begin : g_ld
                always @(posedge clk)
                    if (ce) e[i][LO +: WD] <= (i + 1 < Q && thc[(i + 1 < Q) ? i + 1 : 0][g])
                                              ? e[(i + 1 < Q) ? i + 1 : 0][LO +: WD] : pitem[s][LO +: WD];
                end
            end
        end
        if (WREG && EARLY == 2) begin : g_wr
            // the write enable a register, made a cycle early from next
            // cycle's pass (pn1), th_d[0] and the head's next bit 0
            wire hn0 = (pass & th[0]) ? e[0][0] : (th[1] ? e[1][0] : pitem[s][0]);
            rff r (.clk(clk), .rst(rst), .d(~pn1 & th_d[0] & hn0), .q(wrq));
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
            if (THL) begin : g_tw
                assign txw[g] = tx; assign tyw[g] = ty;
            end
        end
        always @(posedge clk) begin th <= rst ? {Q{1'b0}} : th_d; tc <= rst ? {Q{1'b0}} : tc_d; rm <= rst ? 1'b1 : ~tc_d[Q-1]; end
        // ---- the stage: 2:1 choice, block RAM, decision ----
        wire [IW-1:0] c0;
        for (g = 0; g < IW; g = g + 8) begin : g_c
            localparam WD = (IW - g < 8) ? IW - g : 8;
            assign c0[g +: WD] = QMUX ? c0m[g +: WD] : pc[g / 8] ? hin[g +: WD] : head[g +: WD];
        end
        wire cv = EARLY ? (hv[(s + N - 1) % N][NPC-1] | (~pass & th[0])) : (pass | th[0]);
        assign cvw[s] = cv;
        wire [IW-1:0] c = {cv, c0[IW-2:0]};
        wire wen, ren;
        wire hb0 = QMUX ? hbm : head[0];
        kwen kw (.p(pc[NPM+NPE]), .n(th[0]), .a(hb0), .o(wen));
        kren kr (.p(pc[NPM+NPE]), .n(th[0]), .a(hb0), .o(ren));
        wire [WB-1:0] rd;
        if (BUB && s > 0) begin : g_m2
            // a later stage: the bubble's write from the hop register's fields as they are
            sram2 m (.clk(clk), .wen(hwe[s - 1]), .ra(c[AW-1:0]), .wa(hwa[(s > 0) ? s - 1 : 0]), .wd(hwd[(s > 0) ? s - 1 : 0]), .rd(rd));
        end else begin : g_m
        sram m (.clk(clk), .wen((WREG && EARLY == 2 && !QMUX && !QCIRC) ? wrq : wen), .ren(RON ? 1'b1 : ren),
                .a(c[AW-1:0]), .wd(c[AW +: WB]), .rd(rd));
        end
        reg [IW-1:0] cd; reg drf = 1'b0;
        always @(posedge clk) begin cd <= c; drf <= rst ? 1'b0 : cv & ~c[DN] & ~(BUB && c[B]); end
        // (BUB) stage s+1's bubble table, read here at the bubble's number
        // (anything else reads a word never written: zero), its word
        // straight into the hop register's write fields
        if (BUB && s + 1 < N) begin : g_bt
            // (D3) read a cycle later, from the held item's registers
            wire [6:0] ba = D3 ? (cd[B] ? {1'b0, cd[TG +: 6]} : 7'h7f) : c[B] ? {1'b0, c[TG +: 6]} : 7'h7f;
            wire [31:0] bw;
            bsram b0 (.clk(clk), .wen(btk), .ra(ba), .wa({1'b0, bseq}), .wd(sh[115:100] ^ {16{s[0]}}), .rd(bw[15:0]));
            bsram b1 (.clk(clk), .wen(btk), .ra(ba), .wa({1'b0, bseq}), .wd({14'd0, sh[117:116]}), .rd(bw[31:16]));
            reg we_r = 1'b0; reg [AW-1:0] wa_r; reg [WB-1:0] wd_r;
            always @(posedge clk) begin we_r <= rst ? 1'b0 : bw[0]; wa_r <= bw[1 +: AW]; wd_r <= bw[1 + AW +: WB]; end
            assign hwe[s] = we_r; assign hwa[s] = wa_r; assign hwd[s] = wd_r;
        end else begin : g_nbt
            assign hwe[s] = 1'b0; assign hwa[s] = {AW{1'b0}}; assign hwd[s] = {WB{1'b0}};
        end
        // (D3) D = 3 under today's rules: the block RAM word and the held item
        // registered once more, with the decision's parts made from registers
        // in that cycle, so the exit and the hop's valid bit are kept cells of
        // registers (the lane's "full" registered too)
        wire [IW-1:0] cdx; wire drfx; wire [WB-1:0] rdx; wire pnx, mx;
        if (D3) begin : g_d3
            reg [IW-1:0] c2; reg d2 = 1'b0, pn = 1'b0, m = 1'b0; reg [WB-1:0] r2;
            wire lkb = cd[V] & ~(BUB && cd[B]);
            always @(posedge clk) begin
                c2 <= cd; r2 <= rd;
                d2 <= rst ? 1'b0 : drf;
                pn <= rst ? 1'b0 : (BUB && cd[B] && cd[V] && s < N - 1) | (lkb & ~cd[DN] & ~drf);
                m <= rst ? 1'b0 : lkb & (cd[DN] | drf);
                if (rst) c2[V] <= 1'b0;
            end
            assign cdx = c2; assign drfx = d2; assign rdx = r2; assign pnx = pn; assign mx = m;
        end else begin : g_d2
            assign cdx = cd; assign drfx = drf; assign rdx = rd; assign pnx = 1'b0; assign mx = 1'b0;
        end
        assign vpn[s] = pnx; assign vm[s] = mx; assign vr[s] = drfx; assign vch[s] = rdx[WB-1];
        // t+1: the word's bits, one LUT each, into the hop register
        wire lk = cdx[V];
        wire fz = lk & cdx[DN];
        wire child = rdx[WB-1], wv = rdx[WB-2];
        wire [4:0] wnh = rdx[WB-3 -: 5];
        wire fn = fz | (drfx & ~child);
        assign sch[s] = child;
        wire out, ov;
        reg [IW-1:0] o;
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
        for (g = 0; g < NPC; g = g + 1) begin : g_hv
            if (D3) begin : g_c3
                // each copy its own LUTs, next to it
                wire o3;
                kd3v k (.pn(pnx), .m(mx), .full(lfull[s]), .r(drfx), .child(child), .o(o3));
                rff r (.clk(clk), .rst(rst), .d(o3), .q(hv[s][g]));
            end else begin : g_c2
                rff r (.clk(clk), .rst(rst), .d(ov), .q(hv[s][g]));
            end
        end
        assign hout[s] = {hv[s][NPC-1], oq[IW-2:0]};
        assign obs_st[s*IW +: IW] = hout[s];
        if (STEP >= 3) begin : g_x
            // (BUB) a bubble passes every stage but the last, where it leaves
            if (D3) begin : g_v3
                // D = 3: the valid bit from registers made in the cycle before
                // (passes whatever: pnx; may exit here: mx) and the lane's
                // registered "full"
                kd3v kv (.pn(pnx), .m(mx), .full(lfull[s]), .r(drfx), .child(child), .o(ov));
                kd3x kx (.m(mx), .full(lfull[s]), .r(drfx), .child(child), .o(out));
                assign sva[s] = 1'b0; assign svb[s] = 1'b0;
            end else begin : g_v2
            wire xa = (BUB && cdx[B]) ? lk & (s < N - 1) : lk & ~(cdx[DN] & lroom[s]), xb = drfx & lroom[s],
                 xz = lk & cdx[DN] & lroom[s] & ~(BUB && cdx[B]);
            kv3 kv (.a(xa), .b(xb), .child(child), .o(ov));
            assign sva[s] = xa; assign svb[s] = xb;
            kx3 kx (.z(xz), .b(xb), .child(child), .o(out));
            end
            wire vv; wire [RDW-1:0] vd;
            if (LANEX) begin : g_lx
                reg xv = 1'b0;
                always @(posedge clk) xv <= rst ? 1'b0 : out;
                rlanex #(.RDW(RDW), .DCH((DCH & 4) != 0), .RREG(D3)) rl (.clk(clk), .rst(rst), .xv(xv), .xd({oq[NH +: 5], oq[NHV], oq[TG +: 6]}),
                    .ready(rr), .valid(vv), .dout(vd), .room(lroom[s]), .xvn(out), .full(lfull[s]));
            end else begin : g_l
                rlane #(.RDW(RDW), .DCH((DCH & 4) != 0)) rl (.clk(clk), .rst(rst), .push(out), .din({o[NH +: 5], o[NHV], cdx[TG +: 6]}),
                    .ready(rr), .valid(vv), .dout(vd), .room(lroom[s]));
                assign lfull[s] = 1'b0;
            end
            assign obs_rl[s*(RDW+1) +: RDW+1] = {vv, vd};
        end else begin : g_nx
            assign out = fn;              // finished lookups just leave
            wire xa = lk & ~cdx[DN];
            kv3 kv (.a(xa), .b(drfx), .child(child), .o(ov));
            assign sva[s] = xa; assign svb[s] = drfx;
            assign lroom[s] = 1'b1;
            assign lfull[s] = 1'b0;
        end
        if ((DCH & 1) && !EARLY) begin : g_ovw
            assign ovw[s] = ov;
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
