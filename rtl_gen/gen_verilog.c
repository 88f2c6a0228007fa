/* The image-specific Verilog: one module per stage (its memory, loaded by
 * $readmemh, and the stage read of docs/image-format.md section 1, step 2),
 * the direct index table (step 1), and the top module that wires them to
 * lpm_core. Text only depends on the image's shape and the options. */
#include <stdio.h>

#include "rtl_gen_int.h"

/* stride_of(t): the stride of stage t, a case over the stages. */
static void emit_stride_fn(FILE *fp, const lpm_image *img, const lpm_rtl_shape *sh)
{
    fprintf(fp, "    function [3:0] stride_of;\n        input [%u:0] t;\n        begin\n            case (t)\n",
            sh->sb - 1);
    for (unsigned s = 0; s < sh->n; s++)
        fprintf(fp, "                %u'd%u: stride_of = 4'd%u;\n", sh->sb, s, lpm_image_stage_stride(img, s));
    fprintf(fp, "                default: stride_of = 4'd0;\n            endcase\n        end\n    endfunction\n");
}

/* bits(key, p, k): k key bits from bit p, MSB first (bits past the key read 0). */
static void emit_bits_fn(FILE *fp, const lpm_rtl_shape *sh)
{
    fprintf(fp,
            "    function [7:0] key_bits;\n"
            "        input [%u:0] kv;\n"
            "        input [%u:0] p;\n"
            "        input [3:0] k;\n"
            "        reg [%u:0] sh;\n"
            "        begin\n"
            "            sh = {kv, 8'd0} << p;\n"
            "            key_bits = sh[%u:%u] >> (4'd8 - k);\n"
            "        end\n"
            "    endfunction\n",
            sh->kb - 1, sh->pb - 1, sh->kb + 7, sh->kb + 7, sh->kb);
}

static void emit_stage(FILE *fp, const lpm_image *img, const lpm_rtl_shape *sh, unsigned s)
{
    unsigned depth = lpm_image_stage_depth(img, s);
    unsigned ib = 1;
    while ((1ULL << ib) < depth)
        ib++;
    unsigned last = s + 1 == sh->n;
    unsigned next = last ? 0 : s + 1; /* ring: wraps to 0; linear: no next stage */
    fprintf(fp,
            "// Stage %u: %u words of %u bits (stage_%02u.hex), stride %u. One item per cycle:\n"
            "// a lookup whose next read is here reads one word (docs/image-format.md 1.2);\n"
            "// a bubble writes its word for this stage. The memory is one port, read\n"
            "// and written on the falling clock edge (block RAM with the clock inverted).\n"
            "module lpm_stage_%02u (\n"
            "    input  wire clk,\n"
            "    input  wire [%u:0] cur,\n"
            "    input  wire we,\n"
            "    input  wire [%u:0] waddr,\n"
            "    input  wire [%u:0] wdata,\n"
            "    output reg  [%u:0] item,\n"
            "    output wire pass,\n"
            "    output wire exit,\n"
            "    output wire read\n"
            ");\n",
            s, depth, sh->wb, s, lpm_image_stage_stride(img, s), s, sh->iw - 1, sh->ab - 1, sh->wb - 1, sh->iw - 1);
    fprintf(fp,
            "    reg [%u:0] mem [0:%u];\n"
            "    initial $readmemh(\"stage_%02u.hex\", mem);\n"
            "    reg [%u:0] rdata;\n"
            "    wire [%u:0] a = we ? waddr : cur[%u:%u];\n"
            "    wire [%u:0] ai = a[%u:0]; // the memory's own index width (depth %u)\n"
            "    always @(negedge clk) begin\n"
            "        if (we)\n"
            "            mem[ai] <= wdata;\n"
            "        rdata <= mem[ai];\n"
            "    end\n",
            sh->wb - 1, depth - 1, s, sh->wb - 1, sh->ab - 1, sh->o_addr + sh->ab - 1, sh->o_addr, ib - 1, ib - 1,
            depth);
    emit_stride_fn(fp, img, sh);
    emit_bits_fn(fp, sh);
    fprintf(fp,
            "    wire v = cur[0], b = cur[1], done = cur[2];\n"
            "    wire [%u:0] bp = cur[%u:%u];\n"
            "    wire rd = v & ~b & ~done & (cur[%u:%u] == %u'd%u);\n"
            "    wire wc = rdata[0], wv = rdata[1];\n"
            "    wire [%u:0] wnh = rdata[%u:%u];\n"
            "    wire [%u:0] wad = rdata[%u:%u]; // the child's block index (image version 2)\n",
            sh->pb - 1, sh->o_bp + sh->pb - 1, sh->o_bp, sh->o_stg + sh->sb - 1, sh->o_stg, sh->sb, s,
            sh->nb - 1, 2 + sh->nb - 1, 2, sh->fab - 1, 2 + sh->nb + sh->fab - 1, 2 + sh->nb);
    unsigned jp = 2 + sh->nb + sh->fab;
    if (sh->stage_bits) {
        /* J names any stage: widen or cut the image's stage field to SB bits */
        fprintf(fp, "    wire wj = rdata[%u];\n", jp);
        if (sh->stage_bits >= sh->sb)
            fprintf(fp, "    wire [%u:0] wjs = rdata[%u:%u];\n", sh->sb - 1, jp + sh->sb, jp + 1);
        else
            fprintf(fp, "    wire [%u:0] wjs = {%u'd0, rdata[%u:%u]};\n", sh->sb - 1, sh->sb - sh->stage_bits,
                    jp + sh->stage_bits, jp + 1);
        fprintf(fp, "    wire [%u:0] t = wj ? wjs : %u'd%u;\n", sh->sb - 1, sh->sb, next);
    } else {
        fprintf(fp, "    wire [%u:0] t = %u'd%u;\n", sh->sb - 1, sh->sb, next);
    }
    fprintf(fp,
            "    wire [3:0] k = stride_of(t);\n"
            "    wire [7:0] kbits = key_bits(cur[%u:%u], bp, k);\n"
            "    wire [%u:0] sum = ({%u'd0, wad} << k) | {%u'd0, kbits};\n"
            "    wire fin = ~wc | (bp >= %u'd%u);\n",
            sh->o_key + sh->kb - 1, sh->o_key, sh->ab + 7, sh->ab + 8 - sh->fab, sh->ab, sh->pb, sh->kb);
    fprintf(fp,
            "    always @* begin\n"
            "        item = cur;\n"
            "        if (rd) begin\n"
            "            if (wv) begin\n"
            "                item[3] = 1'b1;\n"
            "                item[%u:%u] = wnh;\n"
            "            end\n"
            "            if (fin) begin\n"
            "                item[2] = 1'b1;\n"
            "            end else begin\n"
            "                item[%u:%u] = t;\n"
            "                item[%u:%u] = sum[%u:0];\n"
            "                item[%u:%u] = bp + {4'd0, k};\n"
            "            end\n"
            "        end\n"
            "    end\n",
            sh->o_nh + sh->nb - 1, sh->o_nh, sh->o_stg + sh->sb - 1, sh->o_stg, sh->o_addr + sh->ab - 1, sh->o_addr,
            sh->ab - 1, sh->o_bp + sh->pb - 1, sh->o_bp);
    if (sh->ring)
        fprintf(fp,
                "    // ring: a lookup leaves as soon as it is done; a bubble leaves after stage N-1\n"
                "    assign exit = v & ~b & item[2];\n"
                "    assign pass = v & (b ? 1'b%u : ~item[2]);\n",
                last ? 0 : 1);
    else
        fprintf(fp,
                "    // linear: every item rides to the last stage and leaves there\n"
                "    assign exit = v & ~b & 1'b%u;\n"
                "    assign pass = v & 1'b%u;\n",
                last, !last);
    fprintf(fp, "    assign read = rd | (v & b & we);\nendmodule\n");
    (void)last;
}

static void emit_dit(FILE *fp, const lpm_image *img, const lpm_rtl_shape *sh)
{
    unsigned x = sh->x, entries = 1u << x;
    fprintf(fp,
            "// The direct index table: %u entries of %u bits (dit.hex), initial stride %u.\n"
            "// One read per request lane on the falling edge, bubble writes on the same\n"
            "// edge; a request sees the writes of bubbles that entered the window before\n"
            "// it in the same cycle (forwarded).\n"
            "module lpm_dit (\n"
            "    input  wire clk,\n"
            "    input  wire [%u:0] key,\n"
            "    input  wire [%u:0] we,\n"
            "    input  wire [%u:0] widx,\n"
            "    input  wire [%u:0] wdata,\n"
            "    output reg  [%u:0] item\n"
            ");\n"
            "    reg [%u:0] mem [0:%u];\n"
            "    initial $readmemh(\"dit.hex\", mem);\n",
            entries, sh->db, x, sh->w * sh->kb - 1, sh->w - 1, sh->w * sh->xi - 1, sh->w * sh->db - 1,
            sh->w * sh->iw - 1, sh->db - 1, entries - 1);
    emit_stride_fn(fp, img, sh);
    emit_bits_fn(fp, sh);
    fprintf(fp, "    reg [%u:0] rdata [0:%u];\n    integer i, j;\n", sh->db - 1, sh->w - 1);
    fprintf(fp, "    reg [%u:0] idx [0:%u];\n", sh->xi - 1, sh->w - 1);
    fprintf(fp, "    always @* begin\n        for (i = 0; i < %u; i = i + 1)\n", sh->w);
    if (x)
        fprintf(fp, "            idx[i] = key[i*%u + %u -: %u];\n", sh->kb, sh->kb - 1, x);
    else
        fprintf(fp, "            idx[i] = 1'b0;\n");
    fprintf(fp, "    end\n");
    fprintf(fp,
            "    always @(negedge clk) begin\n"
            "        for (i = 0; i < %u; i = i + 1) begin\n"
            "            rdata[i] <= mem[idx[i]];\n"
            "            for (j = 0; j < i; j = j + 1)\n"
            "                if (we[j] && widx[j*%u +: %u] == idx[i])\n"
            "                    rdata[i] <= wdata[j*%u +: %u];\n"
            "        end\n"
            "        for (j = 0; j < %u; j = j + 1)\n"
            "            if (we[j])\n"
            "                mem[widx[j*%u +: %u]] <= wdata[j*%u +: %u];\n"
            "    end\n",
            sh->w, sh->xi, sh->xi, sh->db, sh->db, sh->w, sh->xi, sh->xi, sh->db, sh->db);
    fprintf(fp,
            "    reg [%u:0] e;\n"
            "    reg [%u:0] st;\n"
            "    reg [3:0] k;\n"
            "    reg [%u:0] sum;\n"
            "    reg [%u:0] it;\n"
            "    always @* begin\n"
            "        item = %u'd0;\n"
            "        for (i = 0; i < %u; i = i + 1) begin\n"
            "            e = rdata[i];\n"
            "            it = %u'd0;\n"
            "            st = e[%u:%u];\n"
            "            k = stride_of(st);\n"
            "            sum = ({%u'd0, e[%u:%u]} << k) | {%u'd0, key_bits(key[i*%u +: %u], %u'd%u, k)};\n"
            "            if (e[1]) begin\n"
            "                it[3] = 1'b1;\n"
            "                it[%u:%u] = e[%u:2];\n"
            "            end\n"
            "            if (!e[0]) begin\n"
            "                it[2] = 1'b1;\n"
            "            end else begin\n"
            "                it[%u:%u] = st;\n"
            "                it[%u:%u] = sum[%u:0];\n"
            "                it[%u:%u] = %u'd%u + {4'd0, k};\n"
            "            end\n"
            "            item[i*%u +: %u] = it;\n"
            "        end\n"
            "    end\n"
            "endmodule\n",
            sh->db - 1, sh->sb - 1, sh->ab + 7, sh->iw - 1, sh->w * sh->iw, sh->w, sh->iw,
            2 + sh->nb + sh->fab + sh->sb - 1, 2 + sh->nb + sh->fab,
            sh->ab + 8 - sh->fab, 2 + sh->nb + sh->fab - 1, 2 + sh->nb, sh->ab, sh->kb, sh->kb, sh->pb, x,
            sh->o_nh + sh->nb - 1, sh->o_nh, 2 + sh->nb - 1,
            sh->o_stg + sh->sb - 1, sh->o_stg, sh->o_addr + sh->ab - 1, sh->o_addr, sh->ab - 1,
            sh->o_bp + sh->pb - 1, sh->o_bp, sh->pb, x, sh->iw, sh->iw);
}

static void emit_top(FILE *fp, const lpm_rtl_shape *sh, int mutate)
{
    unsigned n = sh->n, w = sh->w, l = sh->l;
    fprintf(fp,
            "// The pipeline: lpm_core (dispatch, queues, window, reorder buffer), the\n"
            "// direct index table and %u stages. Ports and latency: README.md.\n"
            "module lpm_top (\n"
            "    input  wire clk,\n"
            "    input  wire rst,\n"
            "    input  wire [%u:0] req_valid,\n"
            "    output wire [%u:0] req_ready,\n"
            "    input  wire [%u:0] req_id,\n"
            "    input  wire [%u:0] req_key,\n"
            "    input  wire [%u:0] bub_valid,\n"
            "    output wire [%u:0] bub_ready,\n"
            "    input  wire [%u:0] bub_data,\n"
            "    output wire [%u:0] res_valid,\n"
            "    output wire [%u:0] res_id,\n"
            "    output wire [%u:0] res_nhv,\n"
            "    output wire [%u:0] res_nh,\n"
            "    output wire busy,\n",
            n, w - 1, w - 1, w * sh->id - 1, w * sh->kb - 1, w - 1, w - 1, w * sh->bw - 1, l - 1, l * sh->id - 1,
            l - 1, l * sh->nb - 1);
    fprintf(fp,
            "    // for the testbench's cycle log\n"
            "    output wire [%u:0] dbg_cur,\n"
            "    output wire [%u:0] dbg_read,\n"
            "    output wire [%u:0] dbg_pop,\n"
            "    output wire [%u:0] dbg_qn,\n"
            "    output wire [%u:0] dbg_win,\n"
            "    output wire [%u:0] dbg_win_n,\n"
            "    output wire [%u:0] dbg_act,\n"
            "    output wire [1:0] dbg_stall,\n"
            "    output wire [%u:0] dbg_stall_stg,\n"
            "    output wire [%u:0] dbg_exit,\n"
            "    output wire [%u:0] dbg_exit_tag\n"
            ");\n",
            n * sh->iw - 1, n - 1, n - 1, n * sh->qcb - 1, w * sh->iw - 1, sh->wcb - 1, 2 * w - 1, sh->sb - 1,
            n + w - 1, (n + w) * sh->id - 1);
    fprintf(fp,
            "    wire [%u:0] dit_item;\n"
            "    wire [%u:0] dit_we;\n"
            "    wire [%u:0] dit_widx;\n"
            "    wire [%u:0] dit_wdata;\n"
            "    wire [%u:0] st_we, st_pass, st_exit;\n"
            "    wire [%u:0] st_waddr;\n"
            "    wire [%u:0] st_wdata;\n"
            "    wire [%u:0] st_item;\n",
            w * sh->iw - 1, w - 1, w * sh->xi - 1, w * sh->db - 1, n - 1, n * sh->ab - 1, n * sh->wb - 1,
            n * sh->iw - 1);
    fprintf(fp,
            "    lpm_core #(.N(%u), .RING(%u), .Q(%u), .W(%u), .R(%u), .KB(%u), .ID(%u), .SB(%u), .AB(%u),\n"
            "               .NB(%u), .PB(%u), .WB(%u), .XI(%u), .DB(%u), .BQB(%u), .MUT(%d)) core (\n"
            "        .clk(clk), .rst(rst),\n"
            "        .req_valid(req_valid), .req_ready(req_ready), .req_id(req_id), .req_key(req_key),\n"
            "        .bub_valid(bub_valid), .bub_ready(bub_ready), .bub_data(bub_data),\n"
            "        .res_valid(res_valid), .res_id(res_id), .res_nhv(res_nhv), .res_nh(res_nh), .busy(busy),\n"
            "        .dit_item(dit_item), .dit_we(dit_we), .dit_widx(dit_widx), .dit_wdata(dit_wdata),\n"
            "        .cur(dbg_cur), .st_we(st_we), .st_waddr(st_waddr), .st_wdata(st_wdata),\n"
            "        .st_item(st_item), .st_pass(st_pass), .st_exit(st_exit),\n"
            "        .dbg_pop(dbg_pop), .dbg_qn(dbg_qn), .dbg_win(dbg_win), .dbg_win_n(dbg_win_n),\n"
            "        .dbg_act(dbg_act), .dbg_stall(dbg_stall), .dbg_stall_stg(dbg_stall_stg),\n"
            "        .dbg_exit(dbg_exit), .dbg_exit_tag(dbg_exit_tag));\n",
            n, sh->ring, sh->q, w, sh->r, sh->kb, sh->id, sh->sb, sh->ab, sh->nb, sh->pb, sh->wb, sh->xi, sh->db,
            sh->bqb, mutate);
    fprintf(fp,
            "    lpm_dit dit (.clk(clk), .key(req_key), .we(dit_we), .widx(dit_widx), .wdata(dit_wdata),\n"
            "                 .item(dit_item));\n");
    for (unsigned s = 0; s < n; s++)
        fprintf(fp,
                "    lpm_stage_%02u s%02u (.clk(clk), .cur(dbg_cur[%u:%u]), .we(st_we[%u]),\n"
                "        .waddr(st_waddr[%u:%u]), .wdata(st_wdata[%u:%u]), .item(st_item[%u:%u]),\n"
                "        .pass(st_pass[%u]), .exit(st_exit[%u]), .read(dbg_read[%u]));\n",
                s, s, (s + 1) * sh->iw - 1, s * sh->iw, s, (s + 1) * sh->ab - 1, s * sh->ab,
                (s + 1) * sh->wb - 1, s * sh->wb, (s + 1) * sh->iw - 1, s * sh->iw, s, s, s);
    fprintf(fp, "endmodule\n");
}

int lpm_rtl_emit_verilog(const lpm_image *img, const lpm_rtl_shape *sh, const lpm_rtl_opts *o,
                         const char *dir, const char *header, lpm_err *err)
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
    if ((rc = lpm_rtl_open(&fp, dir, "lpm_dit.v", header, "//", err)))
        return rc;
    emit_dit(fp, img, sh);
    if ((rc = lpm_rtl_close(fp, dir, "lpm_dit.v", err)))
        return rc;
    if ((rc = lpm_rtl_open(&fp, dir, "lpm_top.v", header, "//", err)))
        return rc;
    emit_top(fp, sh, o->mutate);
    if ((rc = lpm_rtl_close(fp, dir, "lpm_top.v", err)))
        return rc;
    if ((rc = lpm_rtl_open(&fp, dir, "lpm_core.v", header, "//", err)))
        return rc;
    fputs(lpm_rtl_lpm_core_v, fp);
    return lpm_rtl_close(fp, dir, "lpm_core.v", err);
}
