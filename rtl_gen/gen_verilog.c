/* The image-specific Verilog of the hardware rules (docs/microarchitecture.md
 * section 5): lpm_item.vh (every width and field position, from the shape),
 * one module per stage (its memory and its hop pipeline), the direct index
 * table and the item it makes of an entry. The pipeline's wiring is
 * gen_pipe.c; the fixed modules are rtl_gen/lpm_ctl.v, lpm_queue.v and
 * lpm_rlane.v. Text depends only on the image's shape and the options. */
#include <stdio.h>

#include "rtl_gen_int.h"

void lpm_rtl_emit_item_vh(FILE *fp, const lpm_rtl_shape *sh)
{
    const struct { const char *k; unsigned v; } kv[] = {
        { "N", sh->n },       { "P", sh->p },       { "D", sh->d },       { "Q", sh->q },        { "W", sh->w },
        { "C", sh->c },       { "RING", sh->ring }, { "NQ", sh->nq },     { "NRL", sh->nrl },    { "L", sh->l },
        { "KB", sh->kb },     { "X", sh->x },       { "XI", sh->xi },     { "KR", sh->kr },      { "KP", sh->kp },
        { "WB", sh->wb },     { "DB", sh->db },     { "NB", sh->nb },     { "SB", sh->sb },      { "AW", sh->aw },
        { "PB", sh->pb },     { "T", sh->t },       { "BQB", sh->bqb },   { "TG", sh->tg },      { "QCB", sh->qcb },
        { "WNB", sh->wnb },   { "FNB", sh->fnb },   { "BSW", sh->bsw },   { "BW", sh->bw },      { "RDW", sh->rdw },
        { "SLW", sh->slw },   { "WTW", sh->wtw },   { "IW", sh->iw },     { "F_V", sh->f_v },    { "F_B", sh->f_b },
        { "F_DONE", sh->f_done }, { "F_WEN", sh->f_wen }, { "F_NHV", sh->f_nhv }, { "F_TAG", sh->f_tag },
        { "F_NH", sh->f_nh }, { "F_STG", sh->f_stg }, { "F_ADDR", sh->f_addr }, { "F_BP", sh->f_bp },
        { "F_KEY", sh->f_key }, { "CP", sh->cp }, { "BF", sh->bf },
        /* the image's words (mapper/image.c, lpm_word_layout_of) */
        { "WL_C", sh->wl.c }, { "WL_V", sh->wl.v }, { "WL_NH", sh->wl.nh }, { "WL_ADDR", sh->wl.addr },
        { "WL_ABITS", sh->wl.addr_bits }, { "WL_J", sh->wl.j }, { "WL_STAGE", sh->wl.stage },
        { "WL_SBITS", sh->wl.stage_bits }, { "DL_C", sh->dl.c }, { "DL_V", sh->dl.v }, { "DL_NH", sh->dl.nh },
        { "DL_ADDR", sh->dl.addr }, { "DL_STAGE", sh->dl.stage },
        { "MUT_QORDER", sh->mutate == LPM_RTL_MUT_QUEUE_ORDER },
        { "MUT_QCAP", sh->mutate == LPM_RTL_MUT_QUEUE_CAP },
    };
    fprintf(fp, "// Every width and item field position of this instance (gen_shape.c); the\n"
                "// testbenches' tb_cfg.h holds the same numbers. Included inside each module,\n"
                "// which uses some of them: unused ones are no defect here.\n"
                "/* verilator lint_off UNUSEDPARAM */\n");
    for (size_t i = 0; i < sizeof kv / sizeof kv[0]; i++)
        fprintf(fp, "localparam %s = %u;\n", kv[i].k, kv[i].v);
    if (lpm_rtl_ctl3(sh)) /* lpm_ctl3: DIT answers through queue 0 (1) or their own lane (0) */
        fprintf(fp, "localparam ANSQ = %u;\n", sh->dq);
    if (lpm_rtl_queue3(sh)) /* lpm_queue3's pass-bit copies: per entry, one a group of 8 bits; hold flag; thermometers */
        fprintf(fp, "localparam HC = %u;\n", sh->q * ((sh->iw + 7) / 8) + 2);
    if (sh->f) /* the credit rules: result credits, result FIFO address bits */
        fprintf(fp, "localparam RF = %u;\nlocalparam RFB = %u;\n", sh->f, sh->rfb);
    fprintf(fp, "/* verilator lint_on UNUSEDPARAM */\n");
}

/* The stages a word of stage s can name next, and their distinct strides. */
static unsigned distinct_strides(const lpm_image *img, const lpm_rtl_shape *sh, int any, unsigned t0, unsigned *ks)
{
    unsigned nk = 0;
    for (unsigned t = any ? 0 : t0; t < (any ? sh->n : t0 + 1); t++) {
        unsigned k = lpm_image_stage_stride(img, t), seen = 0;
        for (unsigned i = 0; i < nk; i++)
            seen |= ks[i] == k;
        if (!seen)
            ks[nk++] = k;
    }
    return nk;
}

/* The next read's address, key and bit position, for each stride the target
 * may have: {block index, the next k key bits} (a concatenation, image
 * version 2), the key shifted by k, the bit position plus k. Then one is
 * chosen by the target's stride (a constant without J). */
void lpm_rtl_emit_next(FILE *fp, const lpm_image *img, const lpm_rtl_shape *sh, const char *pf, const char *blk,
                      unsigned fab, const char *rem, const char *bp, const char *tsel, int any, unsigned t0)
{
    unsigned ks[LPM_IMAGE_MAX_STRIDE + 1];
    unsigned nk = distinct_strides(img, sh, any, t0, ks);
    for (unsigned i = 0; i < nk; i++) {
        unsigned k = ks[i], cw = fab + k;
        fprintf(fp, "    wire [%u:0] %s_c%u = {%s, %s[%u:%u]};\n", cw - 1, pf, k, blk, rem, sh->kp - 1, sh->kp - k);
        if (cw >= sh->aw)
            fprintf(fp, "    wire [%u:0] %s_a%u = %s_c%u[%u:0];\n", sh->aw - 1, pf, k, pf, k, sh->aw - 1);
        else
            fprintf(fp, "    wire [%u:0] %s_a%u = {%u'd0, %s_c%u};\n", sh->aw - 1, pf, k, sh->aw - cw, pf, k);
        if (sh->kp > k)
            fprintf(fp, "    wire [%u:0] %s_k%u = {%s[%u:0], %u'd0};\n", sh->kp - 1, pf, k, rem, sh->kp - k - 1, k);
        else
            fprintf(fp, "    wire [%u:0] %s_k%u = %u'd0;\n", sh->kp - 1, pf, k, sh->kp);
        fprintf(fp, "    wire [%u:0] %s_b%u = %s + %u'd%u;\n", sh->pb - 1, pf, k, bp, sh->pb, k);
    }
    fprintf(fp, "    reg [%u:0] %s_a;\n    reg [%u:0] %s_k;\n    reg [%u:0] %s_b;\n", sh->aw - 1, pf, sh->kp - 1, pf,
            sh->pb - 1, pf);
    if (nk == 1) {
        fprintf(fp, "    always @* begin\n        %s_a = %s_a%u;\n        %s_k = %s_k%u;\n        %s_b = %s_b%u;\n    end\n",
                pf, pf, ks[0], pf, pf, ks[0], pf, pf, ks[0]);
        return;
    }
    fprintf(fp, "    always @* begin\n        case (%s)\n", tsel);
    for (unsigned t = 0; t < sh->n; t++) {
        unsigned k = lpm_image_stage_stride(img, t);
        fprintf(fp, "        %u'd%u: begin %s_a = %s_a%u; %s_k = %s_k%u; %s_b = %s_b%u; end\n", sh->sb, t, pf, pf, k, pf,
                pf, k, pf, pf, k);
    }
    fprintf(fp, "        default: begin %s_a = %s_a%u; %s_k = %s_k%u; %s_b = %s_b%u; end\n        endcase\n    end\n", pf,
            pf, ks[0], pf, pf, ks[0], pf, pf, ks[0]);
}

/* The direct index table: 2^x entries, one read port per request lane,
 * read in the accept cycle and given out D-1 cycles later; a bubble's write
 * takes the cycle alone. */
static void emit_dit(FILE *fp, const lpm_rtl_shape *sh)
{
    unsigned entries = sh->cp << sh->x;
    fprintf(fp,
            "// The direct index table: %u entries of %u bits (dit.hex, every copy), initial stride %u.\n"
            "module lpm_dit (\n"
            "    input  wire            clk,\n"
            "    input  wire [%u:0] idx,\n"
            "    input  wire            we,\n"
            "    input  wire [%u:0] widx,\n"
            "    input  wire [%u:0] wdata,\n"
            "    output wire [%u:0] rdata\n"
            ");\n"
            "`include \"lpm_item.vh\"\n",
            entries, sh->db, sh->x, sh->w * sh->xi - 1, sh->xi - 1, sh->db - 1, sh->w * sh->db - 1);
    for (unsigned k = 0; k < sh->w; k++) {
        fprintf(fp, "    wire [%u:0] a%u = idx[%u:%u];\n", sh->xi - 1, k, k * sh->xi + sh->xi - 1, k * sh->xi);
        for (unsigned d = 2; d < sh->d; d++)
            fprintf(fp, "    reg [DB-1:0] r%u_%u;\n", k, d);
    }
    /* read every cycle: a bubble's write cycle reads a word nobody uses (the
     * bubble takes the cycle alone), so the block RAM's read enable is tied
     * on and no write enable reaches it */
    lpm_rtl_emit_mem_re(fp, "dit", entries, sh->db, sh->w, "widx", "wdata", "a%u", "r%u_1", "1'b1");
    if (sh->d > 2) {
        fprintf(fp, "    always @(posedge clk) begin\n");
        for (unsigned k = 0; k < sh->w; k++)
            for (unsigned d = 2; d < sh->d; d++)
                fprintf(fp, "        r%u_%u <= r%u_%u;\n", k, d, k, d - 1);
        fprintf(fp, "    end\n");
    }
    for (unsigned k = 0; k < sh->w; k++)
        fprintf(fp, "    assign rdata[%u:%u] = r%u_%u;\n", k * sh->db + sh->db - 1, k * sh->db, k, sh->d - 1);
    fprintf(fp, "endmodule\n\n");
}

/* lpm_entry: a request's first item from its DIT entry (docs/image-format.md
 * section 1, step 1), combinational, in the cycle the entry comes out. */
static void emit_entry(FILE *fp, const lpm_image *img, const lpm_rtl_shape *sh, int ungated)
{
    if (ungated)
        fprintf(fp,
                "\n// lpm_entry without the answer's zeroed fields (lpm_ctl3: a DIT answer's\n"
                "// stage, address and key are read by nobody), so each bit is a wire of the\n"
                "// entry and the key, or ~e[DL_C].\n"
                "module lpm_entry_u (\n");
    else
        fprintf(fp,
                "// A request's item from its direct index entry: the answer, or the entry\n"
                "// stage, the first address {block index, next key bits} and the rest of the key.\n"
                "module lpm_entry (\n");
    fprintf(fp,
            "    input  wire [%u:0] e,\n"
            "    input  wire [%u:0] key,      // the key bits after the DIT's\n"
            "    input  wire [%u:0] tag,\n"
            "    output reg  [%u:0] item\n"
            ");\n"
            "`include \"lpm_item.vh\"\n",
            sh->db - 1, sh->kr - 1, sh->t - 1, sh->iw - 1);
    if (sh->kp > sh->kr)
        fprintf(fp, "    wire [KP-1:0] rem = {key, %u'd0};\n", sh->kp - sh->kr);
    else
        fprintf(fp, "    wire [KP-1:0] rem = key;\n");
    fprintf(fp, "    wire [%u:0] st = e[%u:%u];\n", sh->sb - 1, sh->dl.stage + sh->sb - 1, sh->dl.stage);
    fprintf(fp, "    wire [%u:0] blk = e[%u:%u];\n", sh->dl.addr_bits - 1, sh->dl.addr + sh->dl.addr_bits - 1, sh->dl.addr);
    char bp[32];
    snprintf(bp, sizeof bp, "%u'd%u", sh->pb, sh->x);
    lpm_rtl_emit_next(fp, img, sh, "n", "blk", sh->dl.addr_bits, "rem", bp, "st", 1, 0);
    fprintf(fp,
            "    always @* begin\n"
            "        item = {IW{1'b0}};\n"
            "        item[F_V] = 1'b1;\n"
            "        item[F_TAG +: T] = tag;\n"
            "        item[F_NHV] = e[DL_V];\n"
            "        item[F_NH +: NB] = e[DL_NH +: NB];\n");
    if (ungated)
        fprintf(fp,
                "        item[F_DONE] = ~e[DL_C];\n"
                "        item[F_STG +: SB] = st;\n"
                "        item[F_ADDR +: AW] = n_a;\n"
                "        item[F_KEY +: KP] = n_k;\n"
                "        item[F_BP +: PB] = n_b;\n");
    else
        fprintf(fp,
                "        if (!e[DL_C]) begin\n"
                "            item[F_DONE] = 1'b1;\n"
                "        end else begin\n"
                "            item[F_STG +: SB] = st;\n"
                "            item[F_ADDR +: AW] = n_a;\n"
                "            item[F_KEY +: KP] = n_k;\n"
                "            item[F_BP +: PB] = n_b;\n"
                "        end\n");
    fprintf(fp, "    end\nendmodule\n");
}

int lpm_rtl_emit_dit(const lpm_image *img, const lpm_rtl_shape *sh, const char *dir, const char *header, lpm_err *err)
{
    FILE *fp;
    int rc = lpm_rtl_open(&fp, dir, "lpm_dit.v", header, "//", err);
    if (rc)
        return rc;
    emit_dit(fp, sh);
    emit_entry(fp, img, sh, 0);
    if (lpm_rtl_ctl3(sh))
        emit_entry(fp, img, sh, 1);
    return lpm_rtl_close(fp, dir, "lpm_dit.v", err);
}
