/* One module per stage (docs/microarchitecture.md section 5): the choice of
 * what each lane holds (passing item, else the queue's head), the stage
 * memory on the rising edge (a bubble writes, everything else reads), the
 * hop pipeline of D registers per lane, and the decision in the hop's last
 * cycle: next address, finish into the result lane, or ride on. */
#include <stdio.h>

#include "rtl_gen_int.h"

typedef struct stage_ctx {
    FILE *fp;
    const lpm_image *img;
    const lpm_rtl_shape *sh;
    unsigned s, depth, ib, nxt;
    int has_q, has_bt, has_rl, jump;
    int feeds_q; /* the next stage has a queue: copies of lane 0's hop valid bit go to it */
    int bt_early; /* its bubble table is read a cycle before the select (s >= 1) */
    int gives_bt_ra; /* the next stage reads its bubble table early, by this stage's decision's bubble number */
} stage_ctx;

static void emit_ports(const stage_ctx *c)
{
    FILE *fp = c->fp;
    const lpm_rtl_shape *sh = c->sh;
    fprintf(fp,
            "// Stage %u: %u words of %u bits (stage_%02u.hex), stride %u, %u lane%s, %u cycles a hop.\n"
            "module lpm_stage_%02u (\n"
            "    input  wire clk,\n"
            "    input  wire rst,\n"
            "    input  wire [%u:0] hin,\n",
            c->s, c->depth, sh->wb, c->s, lpm_image_stage_stride(c->img, c->s), sh->p, sh->p > 1 ? "s" : "", sh->d, c->s,
            sh->p * sh->iw - 1);
    if (c->has_q)
        fprintf(fp,
                "    input  wire [%u:0] qhead,\n"
                "    input  wire qnz,\n"
                "%s"
                "%s"
                "    output wire [1:0] pop_n,\n"
                "    output wire [%u:0] dbg_pop,\n",
                sh->p * sh->iw - 1, c->s == 0 ? "    input  wire qhw,\n" : "", sh->p > 1 ? "    input  wire qn2,\n" : "",
                sh->p - 1);
    if (c->has_bt)
        fprintf(fp,
                "    input  wire bt_we,\n"
                "    input  wire [%u:0] bt_idx,\n"
                "    input  wire [%u:0] bt_data,\n",
                sh->bqb - 1, sh->bsw - 1);
    if (c->bt_early)
        fprintf(fp, "    input  wire [%u:0] bt_ra,   // the bubble number of the item the stage before decides now\n",
                sh->bqb - 1);
    if (c->gives_bt_ra)
        fprintf(fp, "    output wire [%u:0] bt_rn,   // the bubble number of the item this stage decides now\n", sh->bqb - 1);
    if (c->has_rl)
        fprintf(fp,
                "    input  wire [%u:0] rl_room,\n"
                "    output wire [%u:0] ex_v,\n"
                "    output wire [%u:0] ex_f,   // ex_v = (ex_f | ex_r & ~ex_c) & rl_room: for the lane's room\n"
                "    output wire [%u:0] ex_r,\n"
                "    output wire [%u:0] ex_c,\n"
                "    output wire [%u:0] ex_d,\n",
                sh->p - 1, sh->p - 1, sh->p - 1, sh->p - 1, sh->p - 1, sh->p * sh->rdw - 1);
    if (c->feeds_q)
        fprintf(fp,
                "    output wire [%s] hvc,   // copies of hout's lane 0 valid bit: the next stage's queue's pass\n"
                "    output wire [Q-1:0] hvb,   // (ring) an entry's copy is hvc | hvb & hvw (hvw: the word's child bit)\n"
                "    output wire [Q-1:0] hvw,\n", lpm_rtl_queue3(sh) ? "HC-1:0" : "Q+1:0");
    fprintf(fp,
            "    output reg  [%u:0] hout,\n"
            "    output wire [%u:0] busy,   // the lanes' items held and in the hop register (lpm_top's busy)\n"
            "    output wire [%u:0] dbg_slot\n"
            ");\n"
            "`include \"lpm_item.vh\"\n",
            sh->p * sh->iw - 1, sh->p * sh->d - 1, sh->p * sh->slw - 1);
}

/* Step 2: a passing item takes its lane; idle lanes take the queue's head
 * entries in lane order; a bubble at the head needs every lane idle. */
static void emit_select(const stage_ctx *c)
{
    FILE *fp = c->fp;
    const lpm_rtl_shape *sh = c->sh;
    for (unsigned p = 0; p < sh->p; p++) {
        fprintf(fp, "    wire [IW-1:0] h%u = hin[%u:%u];\n    reg [IW-1:0] c%u;\n", p, p * sh->iw + sh->iw - 1, p * sh->iw, p);
        if (c->has_q)
            fprintf(fp, "    wire pass%u = h%u[F_V];\n", p, p);
    }
    if (!c->has_q) {
        for (unsigned p = 0; p < sh->p; p++)
            fprintf(fp, "    always @* c%u = h%u;\n", p, p);
        return;
    }
    for (unsigned p = 0; p < sh->p; p++)
        fprintf(fp, "    wire [IW-1:0] q%u = qhead[%u:%u];\n", p, p * sh->iw + sh->iw - 1, p * sh->iw);
    if (sh->p == 1) {
        fprintf(fp,
                "    wire take0 = ~pass0 & qnz;\n"
                "    always @* begin\n"
                "        c0 = pass0 ? h0 : q0;\n"
                "        c0[F_V] = pass0 | take0;\n"
                "    end\n"
                "    assign pop_n = {1'b0, take0};\n"
                "    assign dbg_pop = take0;\n");
        return;
    }
    fprintf(fp,
            "    wire qn1 = qnz;\n"
            "    wire hb0 = q0[F_B], hb1 = q1[F_B];\n"
            "    wire take0 = ~pass0 & qn1 & (~hb0 | ~pass1);      // a bubble needs both lanes\n"
            "    wire l1h = ~pass1 & pass0 & qn1 & ~hb0;            // lane 1 takes the head\n"
            "    wire l1s = ~pass1 & take0 & ~hb0 & qn2 & ~hb1;     // lane 1 takes the second entry\n"
            "    wire l1b = take0 & hb0;                            // the bubble takes lane 1 too\n"
            "    always @* begin\n"
            "        c0 = pass0 ? h0 : q0;\n"
            "        c0[F_V] = pass0 | take0;\n"
            "        c1 = pass1 ? h1 : (l1s ? q1 : q0);\n"
            "        c1[F_V] = pass1 | l1h | l1s | l1b;\n"
            "    end\n"
            "    assign pop_n = {1'b0, take0} + {1'b0, l1h | l1s};\n"
            "    assign dbg_pop = {l1h | l1s, take0};\n");
}

/* The memory: one write port (lane 0: a bubble holds every lane), one read
 * port per lane, both on the rising edge, the reads every cycle. */
static void emit_memory(const stage_ctx *c)
{
    FILE *fp = c->fp;
    const lpm_rtl_shape *sh = c->sh;
    /* one LUT from registers: a bubble enters at stage 0 through queue 0 and
     * leaves after stage N-1, so stage 0's comes from its queue head (the
     * item passing into stage 0 is never a bubble) and every other stage's
     * from its hop register (its queue, if any, never holds one) */
    /* stage 0's we is its own LUT (lpm_wen, a hierarchy of its own in
     * lpm_queue.v); every other stage's is a register: the hop register's
     * F_WEN holds valid & bubble & writes (emit_decide folds them in). The
     * memory reads every cycle: a bubble's write cycle reads a word nobody
     * uses (a bubble holds every lane), so no enable reaches the read */
    if (c->has_q && c->s == 0)
        fprintf(fp,
                "    wire we;   // qhw: the queue's head is a bubble that writes (a register)\n"
                "    lpm_wen u_we (.n0(pass0), .n1(%s), .a(qhw), .o(we));\n",
                sh->p > 1 ? "pass1" : "1'b0");
    else
        fprintf(fp, "    wire we = h0[F_WEN];   // valid, a bubble, and it writes here (a register)\n");
    fprintf(fp, "    wire [WB-1:0] wd = c0[F_KEY +: WB];\n");
    for (unsigned p = 0; p < sh->p; p++)
        fprintf(fp, "    wire [%u:0] a%u = c%u[F_ADDR +: %u];\n", c->ib - 1, p, p, c->ib);
    char base[32];
    snprintf(base, sizeof base, "stage_%02u", c->s);
    lpm_rtl_emit_mem_re(fp, base, c->depth, sh->wb, sh->p, "a0", "wd", "a%u", "rd%u", "1'b1");
}

/* "key used up" of an item's bit-position field: with a power-of-two key
 * length, high bits of the count (no comparator carry chain on the exit's path) */
static void emit_key_used_up(FILE *fp, const lpm_rtl_shape *sh, const char *item)
{
    unsigned lg = 0;
    while ((1u << lg) < sh->kb)
        lg++;
    if ((1u << lg) == sh->kb && lg < sh->pb)
        fprintf(fp, "|%s[F_BP + %u +: %u]", item, lg, sh->pb - lg);
    else
        fprintf(fp, "%s[F_BP +: PB] >= %u'd%u", item, sh->pb, sh->kb);
}

/* Per lane: what it holds (rf: a lookup that reads here), D-1 registers to
 * the hop's last cycle, where the decision is made. */
static void emit_hold(const stage_ctx *c, unsigned p)
{
    FILE *fp = c->fp;
    const lpm_rtl_shape *sh = c->sh;
    fprintf(fp,
            "    wire rf%u = c%u[F_V] & ~c%u[F_B] & ~c%u[F_DONE] & (c%u[F_STG +: SB] == %u'd%u);\n"
            "    assign dbg_slot[%u:%u] = {c%u[F_TAG +: TG], rf%u | we, c%u[F_B], c%u[F_V]};\n",
            p, p, p, p, p, sh->sb, c->s, p * sh->slw + sh->slw - 1, p * sh->slw, p, p, p, p);
    /* a ring lookup that finishes here whatever the word (done, or its key
     * used up by this read): registered with the item, so the exit is one
     * LUT of the word's child bit and registers (emit_decide) */
    int fz = sh->ring && c->has_rl;
    int late_cb = lpm_rtl_late_bits(sh);
    int fd = fz && p == 0 && c->feeds_q && !lpm_rtl_whole_pass(sh);   /* whole copies need no parts (emit_decide) */
    if (fz && !late_cb) {
        char ci[16];
        snprintf(ci, sizeof ci, "c%u", p);
        fprintf(fp, "    wire cfz%u = c%u[F_V] & ~c%u[F_B] & (c%u[F_DONE] | (rf%u & (", p, p, p, p, p);
        emit_key_used_up(fp, sh, ci);
        fprintf(fp, ")));\n");
    }
    /* the control bits that ride with the item, D - 1 registers each:
     * rf (reads here), fz, fd (the ring's exit parts, emit_decide); hz, hy
     * (lpm_queue3's ring: the hop's valid bit in parts, emit_decide) */
    int hq = fz && p == 0 && c->feeds_q && lpm_rtl_hop_parts(sh);
    struct {
        const char *name, *alias, *note;
        int on;
        char d1[96];
    } cb[5] = { { "rf", "drf", NULL, 1, "" }, { "fz", "fz", "finished, whatever the word", fz, "" },
                { "fd", "fd", "finished, or read here (lane 0's valid copies)", fd, "" },
                { "hz", "hz", "goes on whatever the word: a bubble that rides on, a lookup neither finished nor read here", hq, "" },
                { "hy", "hy", "a lookup read here, not finished whatever the word", hq, "" } };
    enum { NCB = sizeof cb / sizeof cb[0] };
    /* D >= 3: the bits are made from the first hold register (m_1) into
     * the second, a cycle after the select, so that the queue head's
     * address choice (c) reaches only the block RAM and m_1, not the
     * control bits' LUTs too (D = 2 has no such cycle; not under the
     * credit rules, whose measured D >= 3 netlist stays) */
    unsigned cb0 = late_cb ? 2 : 1;
    if (late_cb) {
        char mi[16];
        snprintf(mi, sizeof mi, "m%u_1", p);
        fprintf(fp, "    reg [IW-1:0] m%u_1;\n", p);
        fprintf(fp, "    wire mrf%u = %s[F_V] & ~%s[F_B] & ~%s[F_DONE] & (%s[F_STG +: SB] == %u'd%u);\n", p, mi, mi, mi,
                mi, sh->sb, c->s);
        if (fz) {
            fprintf(fp, "    wire mfz%u = %s[F_V] & ~%s[F_B] & (%s[F_DONE] | (mrf%u & (", p, mi, mi, mi, p);
            emit_key_used_up(fp, sh, mi);
            fprintf(fp, ")));\n");
        }
        snprintf(cb[0].d1, sizeof cb[0].d1, "mrf%u", p);
        snprintf(cb[1].d1, sizeof cb[1].d1, "mfz%u", p);
        snprintf(cb[2].d1, sizeof cb[2].d1, "mfz%u | mrf%u", p, p);
        snprintf(cb[3].d1, sizeof cb[3].d1, "%s[F_V] & (%s[F_B] ? 1'b%u : ~mfz%u & ~mrf%u)", mi, mi, c->s + 1 < sh->n, p, p);
        snprintf(cb[4].d1, sizeof cb[4].d1, "%s[F_V] & ~%s[F_B] & ~mfz%u & mrf%u", mi, mi, p, p);
    } else {
        snprintf(cb[0].d1, sizeof cb[0].d1, "rf%u", p);
        snprintf(cb[1].d1, sizeof cb[1].d1, "cfz%u", p);
        snprintf(cb[2].d1, sizeof cb[2].d1, "cfz%u | rf%u", p, p);
    }
    for (unsigned d = 1; d < sh->d; d++) {
        if (d > 1 || !late_cb)
            fprintf(fp, "    reg [IW-1:0] m%u_%u;\n", p, d);
        for (unsigned k = 0; k < NCB; k++)
            if (cb[k].on && d >= cb0)
                fprintf(fp, "    reg %s%u_%u;\n", cb[k].name, p, d);
    }
    for (unsigned d = 2; d < sh->d; d++)
        fprintf(fp, "    reg [WB-1:0] w%u_%u;\n", p, d);
    fprintf(fp, "    always @(posedge clk) begin\n        m%u_1 <= c%u;\n", p, p);
    for (unsigned k = 0; k < NCB; k++)
        if (cb[k].on)
            fprintf(fp, "        %s%u_%u <= %s;\n", cb[k].name, p, cb0, cb[k].d1);
    if (c->bt_early)
        fprintf(fp,
                "        if (c%u[F_B]) begin   // the bubble's write for the next stage, read a cycle ago\n"
                "            m%u_1[F_WEN] <= bte[0];\n"
                "            m%u_1[F_ADDR +: AW] <= bta;\n"
                "            m%u_1[F_KEY +: WB] <= bte[1 + AW +: WB];\n"
                "        end\n",
                p, p, p, p);
    for (unsigned d = 2; d < sh->d; d++) {
        fprintf(fp, "        m%u_%u <= m%u_%u;\n", p, d, p, d - 1);
        for (unsigned k = 0; k < NCB; k++)
            if (cb[k].on && d > cb0)
                fprintf(fp, "        %s%u_%u <= %s%u_%u;\n", cb[k].name, p, d, cb[k].name, p, d - 1);
        if (d == 2)
            fprintf(fp, "        w%u_2 <= rd%u;\n", p, p);
        else
            fprintf(fp, "        w%u_%u <= w%u_%u;\n", p, d, p, d - 1);
    }
    fprintf(fp, "        if (rst) begin\n");
    for (unsigned d = 1; d < sh->d; d++) {
        fprintf(fp, "            m%u_%u[F_V] <= 1'b0;\n", p, d);
        for (unsigned k = 0; k < NCB; k++)
            if (cb[k].on && d >= cb0)
                fprintf(fp, "            %s%u_%u <= 1'b0;\n", cb[k].name, p, d);
    }
    fprintf(fp, "        end\n    end\n");
    fprintf(fp, "    wire [IW-1:0] dm%u = m%u_%u;\n", p, p, sh->d - 1);
    for (unsigned k = 0; k < NCB; k++)
        if (cb[k].on)
            fprintf(fp, "    wire %s%u = %s%u_%u;%s%s\n", cb[k].alias, p, cb[k].name, p, sh->d - 1, cb[k].note ? "   // " : "",
                    cb[k].note ? cb[k].note : "");
    if (sh->d == 2)
        fprintf(fp, "    wire [WB-1:0] dw%u = rd%u;\n", p, p);
    else
        fprintf(fp, "    wire [WB-1:0] dw%u = w%u_%u;\n", p, p, sh->d - 1);
}

/* The next stage's bubble writes, by bubble number. Stored the cycle after
 * the bubble was accepted (registered here, beside the block RAM, so the
 * write enable is a register), D + 1 cycles before any read of it at the
 * least, so a read that meets a write is never used (no_rw_check). Stage 0
 * reads in the select cycle, like its memory, by its queue head's bubble
 * number (its bubbles come from its queue: a register, not the select's
 * choice), and the word rides to the decision (D - 2 registers); a later
 * stage, whose bubbles only come from the hop register, reads a cycle
 * earlier, by the bubble number of the item the stage before decides, and
 * folds the write into the held item in the select cycle (emit_hold): the
 * decision's block RAM word then passes one LUT to the hop register. */
static void emit_bubble_table(const stage_ctx *c)
{
    FILE *fp = c->fp;
    const lpm_rtl_shape *sh = c->sh;
    fprintf(fp,
            "    // the writes of the bubbles in flight for stage %u, by bubble number\n"
            "    (* no_rw_check *) reg [BSW-1:0] bt [0:%u];\n"
            "    reg [BSW-1:0] btr_1;\n"
            "    wire bt_we_1;\n"
            "    lpm_rff #(.INIT(0)) k_btwe (.clk(clk), .rst(rst), .d(bt_we), .q(bt_we_1)); // kept: not merged with the ctl's copy\n"
            "    reg [BQB-1:0] bt_idx_1;\n"
            "    reg [BSW-1:0] bt_data_1;\n",
            c->s + 1, (1u << sh->bqb) - 1);
    unsigned ride = c->bt_early ? 1 : sh->d - 1;
    for (unsigned d = 2; d <= ride; d++)
        fprintf(fp, "    reg [BSW-1:0] btr_%u;\n", d);
    fprintf(fp,
            "    always @(posedge clk) begin\n"
            "        bt_idx_1 <= bt_idx;\n"
            "        bt_data_1 <= bt_data;\n"
            "        if (bt_we_1)\n"
            "            bt[bt_idx_1] <= bt_data_1;\n"
            "        btr_1 <= bt[%s];\n",
            c->bt_early ? "bt_ra" : c->has_q ? "q0[F_TAG +: BQB]" : "c0[F_TAG +: BQB]");
    for (unsigned d = 2; d <= ride; d++)
        fprintf(fp, "        btr_%u <= btr_%u;\n", d, d - 1);
    fprintf(fp, "    end\n    wire [BSW-1:0] btr = btr_%u;\n", ride);
    /* the bubble's write for the next stage (lane 0's read: a bubble holds every lane) */
    fprintf(fp, "    wire [BSW-1:0] bte = btr;\n");
    if (sh->mutate == LPM_RTL_MUT_BUBBLE_ADDR)
        fprintf(fp, "    wire [AW-1:0] bta = bte[1 +: AW] + 1'b1; // planted fault: bubble-address\n");
    else
        fprintf(fp, "    wire [AW-1:0] bta = bte[1 +: AW];\n");
}

/* The decision (docs/image-format.md 1.2) and the hop register. */
static void emit_decide(const stage_ctx *c, unsigned p)
{
    FILE *fp = c->fp;
    const lpm_rtl_shape *sh = c->sh;
    unsigned fab = sh->wl.addr_bits;
    fprintf(fp,
            "    wire [%u:0] blk%u = dw%u[WL_ADDR +: %u];\n"
            "    wire [KP-1:0] rk%u = dm%u[F_KEY +: KP];\n"
            "    wire [PB-1:0] bp%u = dm%u[F_BP +: PB];\n",
            fab - 1, p, p, fab, p, p, p, p);
    if (c->jump) {
        unsigned sbits = sh->wl.stage_bits;
        fprintf(fp, "    wire wj%u = dw%u[WL_J];\n", p, p);
        if (sbits >= sh->sb)
            fprintf(fp, "    wire [%u:0] wjs%u = dw%u[WL_STAGE +: %u];\n", sh->sb - 1, p, p, sh->sb);
        else
            fprintf(fp, "    wire [%u:0] wjs%u = {%u'd0, dw%u[WL_STAGE +: %u]};\n", sh->sb - 1, p, sh->sb - sbits, p,
                    sbits);
        fprintf(fp, "    wire [%u:0] tt%u = wj%u ? wjs%u : %u'd%u;\n", sh->sb - 1, p, p, p, sh->sb, c->nxt);
    } else {
        fprintf(fp, "    wire [%u:0] tt%u = %u'd%u;\n", sh->sb - 1, p, sh->sb, c->nxt);
    }
    char pf[16], blk[16], rem[16], bp[16], tsel[16];
    snprintf(pf, sizeof pf, "x%u", p);
    snprintf(blk, sizeof blk, "blk%u", p);
    snprintf(rem, sizeof rem, "rk%u", p);
    snprintf(bp, sizeof bp, "bp%u", p);
    snprintf(tsel, sizeof tsel, "tt%u", p);
    lpm_rtl_emit_next(fp, c->img, sh, pf, blk, fab, rem, bp, tsel, c->jump, c->nxt);
    char dm[16];
    snprintf(dm, sizeof dm, "dm%u", p);
    fprintf(fp, "    wire ku%u = ", p);
    emit_key_used_up(fp, sh, dm);
    fprintf(fp, ";   // key used up\n");
    /* The next hop's fields are written whether or not the lookup finishes
     * (a finished item's address, key and stage are read by nobody): the
     * word's child bit then reaches only F_DONE and the exit, one LUT from
     * the block RAM. */
    /* the next hop's bits each one kept LUT of drf, the word's valid bit and
     * next hop bit, and the held one: the word passes one LUT to hout */
    fprintf(fp,
            "    wire [NB-1:0] nh%u;\n"
            "    genvar gvn%u;\n"
            "    generate\n"
            "        for (gvn%u = 0; gvn%u < NB; gvn%u = gvn%u + 1) begin : g_nh%u\n"
            "            lpm_mux2a k (.s(drf%u), .v(dw%u[WL_V]), .a(dw%u[WL_NH + gvn%u]), .b(dm%u[F_NH + gvn%u]),\n"
            "                .o(nh%u[gvn%u]));\n"
            "        end\n"
            "    endgenerate\n",
            p, p, p, p, p, p, p, p, p, p, p, p, p, p, p);
    fprintf(fp,
            "    wire fin%u = ~dw%u[WL_C] | ku%u;\n"
            "    reg [IW-1:0] it%u;\n"
            "    always @* begin\n"
            "        it%u = dm%u;\n"
            "        it%u[F_NH +: NB] = nh%u;\n"
            "        if (drf%u) begin\n"
            "            if (dw%u[WL_V])\n"
            "                it%u[F_NHV] = 1'b1;\n"
            "            it%u[F_DONE] = fin%u;\n"
            "            it%u[F_STG +: SB] = tt%u;\n"
            "            it%u[F_ADDR +: AW] = x%u_a;\n"
            "            it%u[F_KEY +: KP] = x%u_k;\n"
            "            it%u[F_BP +: PB] = x%u_b;\n"
            "        end\n"
            "    end\n",
            p, p, p, p, p, p, p, p, p, p, p, p, p, p, p, p, p, p, p, p, p);
    /* a lookup finishes here: ring when done, linear at the last stage */
    if (c->has_rl)
        fprintf(fp, "    wire lk%u = dm%u[F_V] & ~dm%u[F_B];\n", p, p, p);
    unsigned on = c->s + 1 < sh->n;   /* a bubble rides on past this stage */
    if (c->has_rl && sh->ring) {
        /* = lk & it[F_DONE] & room; the word's child bit passes one kept
         * LUT to the lane and one to the hop's valid bit, whose other
         * inputs are registers or LUTs of registers */
        fprintf(fp,
                "    wire out%u;   // exits into its result lane; else rides on\n"
                "    lpm_exit k_ex%u (.f(fz%u), .r(drf%u), .c(dw%u[WL_C]), .m(rl_room[%u]), .o(out%u));\n"
                "    assign ex_f[%u] = fz%u;\n"
                "    assign ex_r[%u] = drf%u;\n"
                "    assign ex_c[%u] = dw%u[WL_C];\n",
                p, p, p, p, p, p, p, p, p, p, p, p, p);
        if (lpm_rtl_hop_parts(sh) && p == 0 && c->feeds_q)
            /* hz | hy & c | lk & ~room: the lane's room in the last LUT
             * only, and no LUT shared with the lane's own room logic */
            fprintf(fp,
                    "    wire hu%u;   // the hop's valid bit but for the lane's room\n"
                    "    lpm_hopu k_hu%u (.z(hz%u), .y(hy%u), .c(dw%u[WL_C]), .o(hu%u));\n"
                    "    wire hv%u;   // the hop's valid bit: lk & ~out, or a bubble's\n"
                    "    lpm_hopw k_hv%u (.u(hu%u), .l(lk%u), .m(rl_room[%u]), .o(hv%u));\n",
                    p, p, p, p, p, p, p, p, p, p, p, p);
        else
            fprintf(fp,
                    "    wire hg%u = (lk%u & ~(rl_room[%u] & fz%u)) | (dm%u[F_V] & dm%u[F_B] & 1'b%u);\n"
                    "    wire hh%u = rl_room[%u] & drf%u;\n"
                    "    wire hv%u;   // the hop's valid bit: lk & ~out, or a bubble's\n"
                    "    lpm_hopv k_hv%u (.g(hg%u), .h(hh%u), .c(dw%u[WL_C]), .o(hv%u));\n",
                    p, p, p, p, p, p, on, p, p, p, p, p, p, p, p, p);
    } else if (c->has_rl) {
        fprintf(fp,
                "    wire out%u = lk%u & rl_room[%u];   // every lookup finishes at the last stage, if its lane has room\n"
                "    assign ex_f[%u] = lk%u;\n"
                "    assign ex_r[%u] = 1'b0;\n"
                "    assign ex_c[%u] = 1'b1;\n"
                "    wire hv%u = (lk%u & ~out%u) | (dm%u[F_V] & dm%u[F_B] & 1'b%u);\n",
                p, p, p, p, p, p, p, p, p, p, p, p, on);
    } else {
        fprintf(fp,
                "    wire hv%u = dm%u[F_V];   // nothing finishes before the last stage of a linear pipeline\n",
                p, p);
    }
    if (c->has_rl)
        fprintf(fp,
                "    assign ex_v[%u] = out%u;\n"
                "    assign ex_d[%u:%u] = {it%u[F_NH +: NB], it%u[F_NHV], it%u[F_TAG +: T]};\n",
                p, p, p * sh->rdw + sh->rdw - 1, p * sh->rdw, p, p, p);
    int bt_here = c->has_bt && !c->bt_early;
    /* A bubble's address (bta) is a fifth input of the address bits: the
     * choice among registers first, then one kept LUT takes the word's
     * address bits (drf excludes a bubble), so they pass one LUT. */
    if (bt_here)
        fprintf(fp,
                "    wire [AW-1:0] hq%u = dm%u[F_B] ? bta : dm%u[F_ADDR +: AW];\n"
                "    wire [AW-1:0] ha%u;\n"
                "    genvar gva%u;\n"
                "    generate\n"
                "        for (gva%u = 0; gva%u < AW; gva%u = gva%u + 1) begin : g_ha%u\n"
                "            lpm_mux2 k (.s(drf%u), .a(x%u_a[gva%u]), .b(hq%u[gva%u]), .o(ha%u[gva%u]));\n"
                "        end\n"
                "    endgenerate\n",
                p, p, p, p, p, p, p, p, p, p, p, p, p, p, p, p, p);
    fprintf(fp,
            "    reg [IW-1:0] hn%u;\n"
            "    always @* begin\n"
            "        hn%u = it%u;\n"
            "        hn%u[F_V] = hv%u;\n"
            "        if (dm%u[F_B]) begin\n",
            p, p, p, p, p, p);
    if (bt_here)
        fprintf(fp,
                "            hn%u[F_WEN] = bte[0];\n"
                "            hn%u[F_KEY +: WB] = bte[1 + AW +: WB];\n",
                p, p);
    /* F_WEN = valid & bubble & writes: the next stage's write enable is
     * this register (of registers: a bubble's valid bit is not the word's) */
    fprintf(fp, "        end\n");
    if (bt_here)
        fprintf(fp, "        hn%u[F_ADDR +: AW] = ha%u;\n", p, p);
    fprintf(fp,
            "        hn%u[F_WEN] = hn%u[F_WEN] & dm%u[F_V] & dm%u[F_B] & 1'b%u;\n"
            "    end\n"
            "    always @(posedge clk) begin\n"
            "        hout[%u:%u] <= hn%u;\n"
            "        if (rst) begin\n"
            "            hout[%u] <= 1'b0;\n"
            "            hout[%u] <= 1'b0;\n"
            "        end\n"
            "    end\n",
            p, p, p, p, on, p * sh->iw + sh->iw - 1, p * sh->iw, p, p * sh->iw + sh->f_v, p * sh->iw + sh->f_wen);
    /* the next stage's queue pops on ~pass & nz: its entries' enables take
     * a copy each (kept registers beside hout), not one net to all */
    if (c->gives_bt_ra && p == 0)
        fprintf(fp, "    assign bt_rn = dm0[F_TAG +: BQB];\n");
    if (c->feeds_q && p == 0 && !lpm_rtl_whole_pass(sh))
        fprintf(fp, "    localparam K_ON = %u;   // a bubble rides on past this stage\n", on);
    if (c->feeds_q && p == 0)
        fprintf(fp,
                "    genvar gvc;\n"
                "    generate\n"
                "        for (gvc = 0; gvc < %s; gvc = gvc + 1) begin : g_hvc\n"
                "%s"
                "        end\n"
                "    endgenerate\n",
                lpm_rtl_queue3(sh) ? "HC" : "Q + 2",
                lpm_rtl_hop_parts(sh) && sh->ring ? /* its own last LUT of the room each (emit_decide's parts) */
                "            wire hvd;\n"
                "            lpm_hopw kv (.u(hu0), .l(lk0), .m(rl_room[0]), .o(hvd));\n"
                "            lpm_rff #(.INIT(0)) k (.clk(clk), .rst(rst), .d(hvd), .q(hvc[gvc]));\n"
                : lpm_rtl_whole_pass(sh) ? /* the word a register here: each copy whole, its own LUT (hvb, hvw 0) */
                "            wire hvd;\n"
                "            lpm_hopv kv (.g(hg0), .h(hh0), .c(dw0[WL_C]), .o(hvd));\n"
                "            lpm_rff #(.INIT(0)) k (.clk(clk), .rst(rst), .d(hvd), .q(hvc[gvc]));\n"
                : sh->ring ? /* no copy of the word's exit LUT: its parts, each a register of registers or of the word */
                "            if (gvc < Q) begin : g_e\n"
                "                lpm_rffp0 #(.K(K_ON)) k (.clk(clk), .rst(rst), .v(dm0[F_V]), .b(dm0[F_B]), .m(rl_room[0]), .f(fd0),\n"
                "                    .q(hvc[gvc]));\n"
                "                lpm_rffp1 kb (.clk(clk), .rst(rst), .r(drf0), .m(rl_room[0]), .f(fz0), .q(hvb[gvc]));\n"
                "                lpm_rff #(.INIT(0)) kw (.clk(clk), .rst(rst), .d(dw0[WL_C]), .q(hvw[gvc]));\n"
                "            end else begin : g_f\n"
                "                wire hvd;\n"
                "                lpm_hopv kv (.g(hg0), .h(hh0), .c(dw0[WL_C]), .o(hvd));\n"
                "                lpm_rff #(.INIT(0)) k (.clk(clk), .rst(rst), .d(hvd), .q(hvc[gvc]));\n"
                "            end\n"
                : /* the linear pipeline's last stage: v & (b ? K : ~room), its own LUT */
                "            lpm_rffp0 #(.K(K_ON)) k (.clk(clk), .rst(rst), .v(dm0[F_V]), .b(dm0[F_B]), .m(rl_room[0]), .f(1'b1),\n"
                "                .q(hvc[gvc]));\n");
    if (c->feeds_q && p == 0 && (!sh->ring || lpm_rtl_whole_pass(sh)))
        fprintf(fp, "    assign hvb = {Q{1'b0}};\n    assign hvw = {Q{1'b0}};\n");
}

static void emit_stage(FILE *fp, const lpm_image *img, const lpm_rtl_shape *sh, unsigned s)
{
    stage_ctx c = { fp, img, sh, s, sh->cp * lpm_image_stage_depth(img, s), 1, 0, 0, 0, 0, 0, 0, 0, 0 };
    while ((1ULL << c.ib) < c.depth)
        c.ib++;
    c.nxt = s + 1 < sh->n ? s + 1 : 0;
    c.has_q = lpm_rtl_stage_has_q(sh, s);
    c.has_bt = s + 1 < sh->n;
    c.has_rl = sh->ring || s + 1 == sh->n;
    c.jump = sh->wl.j_bits != 0;
    /* copies of the valid bit: the linear pipeline's last stage only, whose
     * rider's valid bit is registers only (the lane's room, the lookup's
     * valid bit), while a ring stage's depends on the word's child bit,
     * which would then reach every copy's flip-flop through a net of its own */
    c.feeds_q = lpm_rtl_stage_feeds_q(sh, s);
    c.bt_early = lpm_rtl_stage_bt_early(sh, s);
    c.gives_bt_ra = lpm_rtl_stage_gives_bt_ra(sh, s);
    emit_ports(&c);
    emit_select(&c);
    emit_memory(&c);
    if (c.has_bt)
        emit_bubble_table(&c);
    for (unsigned p = 0; p < sh->p; p++)
        emit_hold(&c, p);
    for (unsigned p = 0; p < sh->p; p++)
        emit_decide(&c, p);
    /* a bubble is out of the pipeline once it has held the last stage (the
     * simulator's count of items in flight); one flag a register or two */
    fprintf(fp, "    assign busy = {");
    for (unsigned p = sh->p; p-- > 0;) {
        fprintf(fp, "%shout[%u]", p + 1 < sh->p ? ", " : "", p * sh->iw + sh->f_v);
        for (unsigned d = sh->d; --d >= 1;)
            if (s + 1 == sh->n)
                fprintf(fp, ", m%u_%u[F_V] & ~m%u_%u[F_B]", p, d, p, d);
            else
                fprintf(fp, ", m%u_%u[F_V]", p, d);
    }
    fprintf(fp, "};\nendmodule\n");
}

int lpm_rtl_emit_stages(const lpm_image *img, const lpm_rtl_shape *sh, const char *dir, const char *header,
                        lpm_err *err)
{
    char name[64];
    FILE *fp;
    int rc;
    for (unsigned s = 0; s < sh->n; s++) {
        snprintf(name, sizeof name, "lpm_stage_%02u.v", s);
        if ((rc = lpm_rtl_open(&fp, dir, name, header, "//", err)))
            return rc;
        emit_stage(fp, img, sh, s);
        if ((rc = lpm_rtl_close(fp, dir, name, err)))
            return rc;
    }
    return LPM_OK;
}
