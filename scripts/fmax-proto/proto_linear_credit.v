// Timing-only prototype of a LINEAR pipeline under other D = 2 rules
// (docs/rtl-fmax-history.md, "2026-12-06, last"): no dispatch window, no
// queue, no riders, results in input order through one result FIFO, and
// requests admitted against registered result credits. 7 stages, 1 lane.
// Not functionally complete and never simulated.
//
//   cycle t    a bubble (always taken, ahead of a request) or a request
//              with a credit is accepted: the DIT reads (or the bubble
//              writes it), the bubble writes its later stages' words into
//              their bubble tables (by bubble number), the key, tag and
//              the bubble's stage-0 write ride a register beside the read
//   t+1        the DIT word makes the item (one LUT), into the entry register
//   t+2        stage 0 reads at the entry's address (a register, no choice);
//              a bubble writes from registers; every lookup rides every stage
//   ...        stage s (t+2+2s): read, then word -> next address, next hop,
//              done (one LUT) into the hop register; a bubble's write for
//              stage s+1 comes from its bubble table, read at stage s by
//              bubble number, straight into the hop register
//   t+2N+1     stage N-1's result is written into the result FIFO (a block
//              RAM, written from registers), read from it into a two-entry
//              output skid as the skid has room
//   A request is accepted only while the free credits (results the FIFO
//   and skid can still take, minus those in flight) are above zero: one
//   thermometer, a LUT a bit from registers, so the pipeline never stalls
//   and needs no riders; DIT answers ride every stage like a done lookup.
//
// Measured (seeds 1-10, bare loop 235.96): RAWW 1, CLAG 1, BTZ 1, BUBR 1, FTH 1,
// RST 1, CPY 1: 218.15 MHz (0.925); the same with other netlist orders and
// parameters 0.888-0.938 (docs/rtl-fmax-history.md).
// Variants (scripts/fmax-proto/run.sh -f scripts/fmax-proto/proto_linear_credit.v -set NAME VALUE):
//   RST = 1:  synchronous reset (a register bit) on every control register
//   BUB = 0:  no bubbles at all (no DIT write, no bubble tables): what the
//             update path costs
//   DITX = 1: the DIT word registered before the item is made (one cycle more
//             latency for every request)
//   POPR = 1: a result's credit comes back a cycle after it leaves (pop
//             registered): the credit LUTs take registers only
//   RAWW = 1: the hop register holds the block RAM words as they come (the
//             stage word, the bubble table's) beside the item as it was read;
//             the next stage makes its item from them (one LUT a bit) on the
//             way into its block RAM's address: every block RAM output goes
//             straight into a flip-flop (same cycles)
//   CLAG = 1: the credits count an acceptance and a result's leaving a cycle
//             late (both registered), and req_ready is "at least three free
//             credits" of that count, so that it and every credit bit are one
//             LUT of registers (two credits of the FIFO never used)
//   BTZ = 1:  a bubble table reads at the item's bubble number only for a
//             bubble, else at a word never written (zero), so its write
//             enable bit goes to the next stage's block RAM as it is
//   BUBR = 1: the DIT's write enable a register, made a cycle before the
//             bubble is taken (the bubble port registered once more)
//   FTH = 1:  the result FIFO's pointers 5-bit LFSRs (31 entries; a step is
//             one LUT a bit, no carry chain) and each occupancy bit the fetch
//             decision's choice between two LUTs of registers (kept), so the
//             fetch is two LUTs from every register it reaches
//   RAWA = 1: (RAWW) the next address made before the register as the bare
//             loop makes it (block RAM -> one LUT -> flip-flop -> block RAM),
//             the other fields after it
//   CPY = 1:  (CLAG, FTH) a copy of the fetch decision (its own LUT) per 8
//             occupancy bits and one for the pointer, and register copies of
//             the registered acceptance and leaving per 8 credit bits (same
//             cycles)
// The small cells copy proto_linear.v's on purpose (each file is one
// place-and-route input).
(* keep_hierarchy *)
module plc_rff (input wire clk, input wire d, output reg q);
    initial q = 1'b0;
    always @(posedge clk) q <= d;
endmodule
// a block RAM, 256 x 16, separate read and write addresses, the write mask
// tied off, reading every cycle, the write enable straight on WCLKE
module plc_ram #(parameter RW = 8, WB = 16) (input wire clk, input wire wen, input wire [RW-1:0] ra,
    input wire [RW-1:0] wa, input wire [WB-1:0] wd, output wire [WB-1:0] rd);
    wire [15:0] r;
    SB_RAM40_4K #(.READ_MODE(0), .WRITE_MODE(0)) ram (.RDATA(r), .RADDR({{(11-RW){1'b0}}, ra}), .RCLK(clk),
        .RCLKE(1'b1), .RE(1'b1), .WADDR({{(11-RW){1'b0}}, wa}), .WCLK(clk), .WCLKE(wen), .WE(1'b1),
        .WDATA({{(16-WB){1'b0}}, wd}), .MASK(16'h0000));
    assign rd = r[WB-1:0];
endmodule
// a two-entry output skid whose input is registered (proto_linear.v's
// pl_rlanex, without the data-choice variant): the fetch of cycle t is xv
// and xd in t+1, shown at once, stored at the end of t+1
module plc_skid #(parameter RDW = 12) (input wire clk, input wire rst, input wire xv, input wire [RDW-1:0] xd,
    input wire ready, output wire valid, output wire [RDW-1:0] dout, output reg v0, output reg v1);
    reg [RDW-1:0] e0, e1;
    initial begin v0 = 1'b0; v1 = 1'b0; end
    assign valid = v0 | xv;
    assign dout = v0 ? e0 : xd;
    wire pop = ready & (v0 | xv);
    wire l0 = pop | ~v0;
    wire l1 = pop ? v1 : v0 & ~v1;
    wire [1:0] n = {1'b0, v0} + {1'b0, v1} + {1'b0, xv} - {1'b0, pop};
    always @(posedge clk) begin
        if (l0) e0 <= v1 ? e1 : xd;
        if (l1) e1 <= xd;
        v0 <= rst ? 1'b0 : (n != 2'd0);
        v1 <= rst ? 1'b0 : n[1];
    end
endmodule
(* keep_hierarchy *)
module plc_mux2 (input wire s, input wire a, input wire b, output wire o);
    assign o = s ? a : b;
endmodule
// the FIFO has a result and the skid room for it (one LUT)
(* keep_hierarchy *)
module plc_fetch (input wire n, input wire v0, input wire v1, input wire xv, output wire o);
    assign o = n & ~(v1 | (v0 & xv));
endmodule
// bit K of a thermometer that moves up on u & ~d and down on d & ~u
(* keep_hierarchy *)
module plc_thn #(parameter K = 0, F = 32, INIT = 0) (input wire clk, input wire rst, input wire u, input wire d,
    input wire [F-1:0] t, output reg q);
    wire up = (K == 0) ? 1'b1 : t[(K > 0) ? K - 1 : 0];
    wire dn = (K == F - 1) ? 1'b0 : t[(K < F - 1) ? K + 1 : 0];
    initial q = (INIT != 0);
    always @(posedge clk)
        q <= rst ? (INIT != 0) : (u & ~d) ? up : (d & ~u) ? dn : t[K];
endmodule

module proto_linear_credit #(parameter N = 7, AW = 7, WB = 10, RST = 0, BUB = 1, DITX = 0, POPR = 0, RAWW = 0, CLAG = 0, BTZ = 0, BUBR = 0, FTH = 0, F = 32, CPY = 0, RAWA = 0)
  (input wire clk, input wire din, output reg dout);
    // the item: ADDR, KEY, STG, TAG, NH, NHV, DN, B, V; then a bubble's write
    // for the stage it enters next: WEN, WA, WD
    localparam KW = 20, TW = 6, RDW = 12, FP = 5;
    localparam A0 = 0, K0 = AW, S0 = K0 + KW, T0 = S0 + 3, H0 = T0 + TW, HV = H0 + 5, DN = HV + 1,
               B = DN + 1, V = B + 1, WE = V + 1, WA0 = WE + 1, WD0 = WA0 + AW, IW = WD0 + WB;
    localparam BTW = 1 + AW + WB;   // a bubble table word: WEN, WA, WD
    integer k;

    // the ports: inputs shifted in, so every input is a register
    reg [255:0] sh = 0;
    always @(posedge clk) sh <= {sh[254:0], din};
    wire rst = RST ? sh[250] : 1'b0;
    wire req_valid = sh[0];
    wire [3:0] req_idx = sh[4:1];
    wire [KW-1:0] req_rest = sh[5 +: KW];
    wire [TW-1:0] req_tag = sh[25 +: TW];
    wire bub_valid = BUB ? sh[31] : 1'b0;
    wire bub_ditw = sh[32];
    wire [3:0] bub_ditidx = sh[36:33];
    wire [17:0] bub_ditword = sh[37 +: 18];
    wire [BTW-1:0] bub_w [0:N-1];
    genvar s, g;
    generate for (s = 0; s < N; s = s + 1) begin : g_bw
        assign bub_w[s] = sh[55 + s * BTW +: BTW];
    end endgenerate
    wire res_ready = sh[200];

    // ---- admission: free result credits, a thermometer (cth[k] = more than k free) ----
    wire [F-1:0] cth;
    wire rdy;
    wire pop;                               // a result leaves (res_valid & res_ready)
    wire acc = req_valid & rdy & ~bub_valid;
    wire cpop;
    generate if (POPR) begin : g_popr
        reg r = 1'b0;
        always @(posedge clk) r <= rst ? 1'b0 : pop;
        assign cpop = r;
    end else begin : g_pop
        assign cpop = pop;
    end endgenerate
    generate if (CLAG) begin : g_clag
        localparam NC = CPY ? (F + 7) / 8 + 1 : 1;
        reg [NC-1:0] ar = 0, pr = 0;
        always @(posedge clk) begin ar <= rst ? {NC{1'b0}} : {NC{acc}}; pr <= rst ? {NC{1'b0}} : {NC{pop}}; end
        for (g = 0; g < F; g = g + 1) begin : g_cth
            plc_thn #(.K(g), .F(F), .INIT(1)) t (.clk(clk), .rst(rst), .u(pr[CPY ? g / 8 : 0]), .d(ar[CPY ? g / 8 : 0]),
                .t(cth), .q(cth[g]));
        end
        plc_thn #(.K(2), .F(F), .INIT(1)) t_rdy (.clk(clk), .rst(rst), .u(pr[NC-1]), .d(ar[NC-1]), .t(cth), .q(rdy));
    end else begin : g_cnow
        for (g = 0; g < F; g = g + 1) begin : g_cth
            plc_thn #(.K(g), .F(F), .INIT(1)) t (.clk(clk), .rst(rst), .u(cpop), .d(acc), .t(cth), .q(cth[g]));
        end
        // req_ready: a copy of cth[0] with its own LUT
        plc_thn #(.K(0), .F(F), .INIT(1)) t_rdy (.clk(clk), .rst(rst), .u(cpop), .d(acc), .t(cth), .q(rdy));
    end endgenerate

    // ---- bubble numbers ----
    reg [TW-1:0] bseq = 0;
    always @(posedge clk) bseq <= rst ? {TW{1'b0}} : bseq + {{(TW-1){1'b0}}, bub_valid};

    // ---- the DIT: 16 x 18 bits (two block RAMs), read every cycle ----
    wire [17:0] dw0;
    wire [31:0] dr;
    generate if (BUB) begin : g_ditw
        wire dwe;
        if (BUBR) begin : g_r
            reg r = 1'b0;
            always @(posedge clk) r <= sh[30] & sh[31];   // next cycle's bub_valid & bub_ditw
            assign dwe = r;
        end else begin : g_l
            assign dwe = bub_valid & bub_ditw;
        end
        plc_ram #(.RW(4), .WB(16)) d0 (.clk(clk), .wen(dwe), .ra(req_idx), .wa(bub_ditidx), .wd(bub_ditword[15:0]), .rd(dr[15:0]));
        plc_ram #(.RW(4), .WB(16)) d1 (.clk(clk), .wen(dwe), .ra(req_idx), .wa(bub_ditidx), .wd({14'd0, bub_ditword[17:16]}), .rd(dr[31:16]));
    end else begin : g_dito
        plc_ram #(.RW(4), .WB(16)) d0 (.clk(clk), .wen(1'b0), .ra(req_idx), .wa(4'd0), .wd(16'd0), .rd(dr[15:0]));
        plc_ram #(.RW(4), .WB(16)) d1 (.clk(clk), .wen(1'b0), .ra(req_idx), .wa(4'd0), .wd(16'd0), .rd(dr[31:16]));
    end endgenerate
    assign dw0 = dr[17:0];
    // beside the read: valid, bubble, key, tag, the bubble's stage-0 write
    reg pv = 1'b0, pb = 1'b0;
    reg [KW-1:0] pk; reg [TW-1:0] pt; reg [BTW-1:0] pw;
    always @(posedge clk) begin
        pv <= rst ? 1'b0 : acc; pb <= rst ? 1'b0 : bub_valid;
        pk <= req_rest; pt <= bub_valid ? bseq : req_tag; pw <= bub_w[0];
    end
    // DITX: the word registered first (and the side registers with it)
    wire [17:0] dw; wire xv, xb; wire [KW-1:0] xk; wire [TW-1:0] xt; wire [BTW-1:0] xw;
    generate if (DITX) begin : g_dx
        reg [17:0] r; reg rv = 1'b0, rb = 1'b0; reg [KW-1:0] rk; reg [TW-1:0] rt; reg [BTW-1:0] rw;
        always @(posedge clk) begin r <= dw0; rv <= rst ? 1'b0 : pv; rb <= rst ? 1'b0 : pb; rk <= pk; rt <= pt; rw <= pw; end
        assign dw = r; assign xv = rv; assign xb = rb; assign xk = rk; assign xt = rt; assign xw = rw;
    end else begin : g_dn
        assign dw = dw0; assign xv = pv; assign xb = pb; assign xk = pk; assign xt = pt; assign xw = pw;
    end endgenerate
    // the entry: the DIT word's fields (first stage, address, an answer's next hop) one LUT each
    reg [IW-1:0] ent = 0;
    always @(posedge clk) begin
        ent[A0 +: AW] <= dw[9:3];
        ent[K0 +: KW] <= xk;
        ent[S0 +: 3] <= dw[2:0];
        ent[T0 +: TW] <= xt;
        ent[H0 +: 5] <= dw[15:11];
        ent[HV] <= ~xb & dw[16];
        ent[DN] <= ~xb & dw[10];
        ent[B] <= rst ? 1'b0 : xb;
        ent[V] <= rst ? 1'b0 : (xv | xb);
        ent[WE] <= rst ? 1'b0 : xb & xw[0];
        ent[WA0 +: AW] <= xw[1 +: AW];
        ent[WD0 +: WB] <= xw[1 + AW +: WB];
    end

    // ---- the stages ----
    wire [IW-1:0] hin [0:N];
    assign hin[0] = ent;
    wire fw; wire [RDW-1:0] fd;
    wire [N*IW-1:0] obs_st;
    generate for (s = 0; s < N; s = s + 1) begin : g
        wire [IW-1:0] c = hin[s];
        wire [15:0] rd16;
        plc_ram #(.RW(AW), .WB(WB)) m (.clk(clk), .wen(c[WE]), .ra(c[A0 +: AW]), .wa(c[WA0 +: AW]), .wd(c[WD0 +: WB]),
            .rd(rd16[WB-1:0]));
        wire [WB-1:0] rd = rd16[WB-1:0];
        // stage s+1's bubble table, read here by bubble number
        wire [BTW-1:0] btw;
        if (BUB && s + 1 < N) begin : g_bt
            wire [31:0] r;
            wire [TW:0] ba = (BTZ && !c[B]) ? {(TW+1){1'b1}} : {1'b0, c[T0 +: TW]};
            plc_ram #(.RW(TW+1), .WB(16)) b0 (.clk(clk), .wen(bub_valid), .ra(ba), .wa({1'b0, bseq}),
                .wd(bub_w[(s + 1 < N) ? s + 1 : 0][15:0]), .rd(r[15:0]));
            plc_ram #(.RW(TW+1), .WB(16)) b1 (.clk(clk), .wen(bub_valid), .ra(ba), .wa({1'b0, bseq}),
                .wd({{(32 - BTW){1'b0}}, bub_w[(s + 1 < N) ? s + 1 : 0][BTW-1:16]}), .rd(r[31:16]));
            assign btw = r[BTW-1:0];
        end else begin : g_nbt
            assign btw = {BTW{1'b0}};
        end
        reg [IW-1:0] cd = 0; reg drf = 1'b0;
        always @(posedge clk) begin
            cd <= c;
            drf <= rst ? 1'b0 : c[V] & ~c[B] & ~c[DN] & (c[S0 +: 3] == s);
        end
        // the next item from the held one (xc), the read flag (xr) and the words (xw, xb)
        wire [IW-1:0] xc; wire xr; wire [WB-1:0] xw; wire [BTW-1:0] xb;
        reg [IW-1:0] o;
        always @* begin
            o = xc;
            o[A0 +: AW] = xr ? {xw[AW-3:0], xc[K0 +: 2]} : xc[A0 +: AW];
            o[K0 +: KW] = xr ? {2'b00, xc[K0 + 2 +: KW - 2]} : xc[K0 +: KW];
            o[S0 +: 3] = xr ? s + 1 : xc[S0 +: 3];
            o[DN] = xc[DN] | (xr & ~xw[WB-1]);
            o[HV] = xc[HV] | (xr & xw[WB-2]);
            o[H0 +: 5] = (xr & xw[WB-2]) ? xw[WB-3 -: 5] : xc[H0 +: 5];
            o[V] = xc[V];
            o[WE] = BTZ ? xb[0] : ~rst & xc[V] & xc[B] & xb[0];
            o[WA0 +: AW] = xb[1 +: AW];
            o[WD0 +: WB] = xb[1 + AW +: WB];
        end
        if (RAWW) begin : g_raw
            // the words into flip-flops as they come; the item made after them
            reg [IW-1:0] hc = 0; reg hr = 1'b0; reg [WB-1:0] hw; reg [BTW-1:0] hb;
            reg [AW-1:0] ha;
            always @(posedge clk) begin
                hc <= cd; hr <= drf; hw <= rd; hb <= btw;
                if (rst) hc[V] <= 1'b0;
                ha <= drf ? {rd[AW-3:0], cd[K0 +: 2]} : cd[A0 +: AW];
            end
            assign xc = hc; assign xr = hr; assign xw = hw; assign xb = hb;
            assign hin[s + 1] = RAWA ? {o[IW-1:A0 + AW], ha} : o;
            assign obs_st[s*IW +: IW] = hc ^ {hw, hb};
        end else begin : g_item
            assign xc = cd; assign xr = drf; assign xw = rd; assign xb = btw;
            reg [IW-1:0] oq = 0;
            always @(posedge clk) begin
                oq <= o;
                if (rst) oq[V] <= 1'b0;
            end
            assign hin[s + 1] = oq;
            assign obs_st[s*IW +: IW] = oq;
        end
        if (s == N - 1) begin : g_res
            // the result, registered for the FIFO's write port
            reg rw = 1'b0; reg [RDW-1:0] rdat;
            always @(posedge clk) begin
                rw <= rst ? 1'b0 : xc[V] & ~xc[B];
                rdat <= {o[H0 +: 5], o[HV], xc[T0 +: TW]};
            end
            assign fw = rw; assign fd = rdat;
        end
    end endgenerate

    // ---- the result FIFO (a block RAM), fetched into the output skid ----
    reg [FP-1:0] wp = FTH ? 1 : 0, rp = FTH ? 1 : 0;
    wire [F-1:0] oth;                       // entries written and not fetched: oth[k] = more than k
    wire v0, v1, xfv;
    wire fetch;
    localparam NF = CPY ? (F + 7) / 8 + 1 : 1;
    wire [NF-1:0] fc;                       // copies of fetch: the pointer's, then per 8 occupancy bits
    generate if (FTH) begin : g_fk
        for (g = 0; g < NF; g = g + 1) begin : g_c
            plc_fetch kf (.n(oth[0]), .v0(v0), .v1(v1), .xv(xfv), .o(fc[g]));
        end
        assign fetch = fc[0];
    end else begin : g_fl
        assign fetch = oth[0] & ~(v1 | (v0 & xfv));
        assign fc = {NF{fetch}};
    end endgenerate
    reg fv = 1'b0;
    assign xfv = fv;
    generate if (FTH) begin : g_fth
        // each pointer bit a kept choice (no clock enable: a reset would make one)
        wire [FP-1:0] wn, rn;
        wire [FP-1:0] wl = {wp[3:0], wp[4] ^ wp[2]}, rl = {rp[3:0], rp[4] ^ rp[2]};
        for (g = 0; g < FP; g = g + 1) begin : g_p
            plc_mux2 mw (.s(fw), .a(wl[g]), .b(wp[g]), .o(wn[g]));
            plc_mux2 mr (.s(fetch), .a(rl[g]), .b(rp[g]), .o(rn[g]));
        end
        always @(posedge clk) begin
            wp <= rst ? 5'd1 : wn;
            rp <= rst ? 5'd1 : rn;
            fv <= rst ? 1'b0 : fetch;
        end
        for (g = 0; g < F; g = g + 1) begin : g_oth
            wire up = (g == 0) ? 1'b1 : oth[(g > 0) ? g - 1 : 0];
            wire dn = (g == F - 1) ? 1'b0 : oth[(g < F - 1) ? g + 1 : 0];
            wire a, b, n;
            plc_mux2 ma (.s(fw), .a(oth[g]), .b(dn), .o(a));   // a fetch
            plc_mux2 mb (.s(fw), .a(up), .b(oth[g]), .o(b));   // none
            plc_mux2 mn (.s(fc[CPY ? 1 + g / 8 : 0]), .a(a), .b(b), .o(n));
            reg q = 1'b0;
            always @(posedge clk) q <= rst ? 1'b0 : n;
            assign oth[g] = q;
        end
    end else begin : g_fpl
        always @(posedge clk) begin
            wp <= rst ? {FP{1'b0}} : wp + {{(FP-1){1'b0}}, fw};
            rp <= rst ? {FP{1'b0}} : rp + {{(FP-1){1'b0}}, fetch};
            fv <= rst ? 1'b0 : fetch;
        end
        for (g = 0; g < F; g = g + 1) begin : g_oth
            plc_thn #(.K(g), .F(F), .INIT(0)) t (.clk(clk), .rst(rst), .u(fw), .d(fetch), .t(oth), .q(oth[g]));
        end
    end endgenerate
    wire [15:0] fr;
    plc_ram #(.RW(FP), .WB(RDW)) fifo (.clk(clk), .wen(fw), .ra(rp), .wa(wp), .wd(fd), .rd(fr[RDW-1:0]));
    wire res_valid; wire [RDW-1:0] res_data;
    plc_skid #(.RDW(RDW)) sk (.clk(clk), .rst(rst), .xv(fv), .xd(fr[RDW-1:0]), .ready(res_ready), .valid(res_valid),
        .dout(res_data), .v0(v0), .v1(v1));
    assign pop = res_ready & res_valid;

    // ---- fold every observed register bit: 4 bits a LUT, each level registered ----
    localparam NO = N * IW + RDW + 2 + F;
    localparam N1 = (NO + 3) / 4, N2 = (N1 + 3) / 4, N3 = (N2 + 3) / 4, N4 = (N3 + 3) / 4;
    reg [RDW:0] ro;
    always @(posedge clk) ro <= {res_valid, res_data};
    wire [N1*4-1:0] x0 = {rdy, ro, cth, obs_st};
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
