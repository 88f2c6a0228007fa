/* rtl synth's third design: the generated pipeline's datapath alone, with no
 * control. It has the design's block RAMs (the DIT and every stage memory of
 * every lane, each of its own depth) and the paths the D >= 2 rules give a
 * lookup: the key registered into the DIT, the DIT's item broadcast to the
 * stages' heads, a stage memory's address one 2:1 choice (selected by the
 * passing item's registered valid bit) from registers, the word one LUT from
 * the next item register, D - 2 more registers in a longer hop, the ring's
 * wrap (and the linear pipeline's re-entry). What it leaves out is exactly
 * the control: queues, the dispatcher, credits, result lanes and their
 * back-pressure, the bubble table. Its Fmax beside the design's says how much
 * of the gap to the bare loop the datapath itself costs on the device. */
#include <stdio.h>

#include "rtl_run.h"
#include "synth.h"

/* NAME (FROM bits) as an expression of TO bits: cut, or zero-extended. */
static const char *fit(char *buf, size_t n, const char *name, unsigned from, unsigned to)
{
    if (from >= to)
        snprintf(buf, n, "%s[%u:0]", name, to - 1);
    else
        snprintf(buf, n, "{%u'd0, %s}", to - from, name);
    return buf;
}

/* Lane l of stage i: the choice, the memory, the hop's registers. */
static void write_stage(FILE *fp, const lpm_synth_shape *s, unsigned i, unsigned l)
{
    unsigned iw = s->iw, wb = s->wb, prev = (i + s->n - 1) % s->n, ab = lpm_synth_addr_bits(s->depth[i]);
    /* a ring stage takes its queue's head when no item passes; a linear
     * pipeline has its queue at stage 0 only. Each head is its own register,
     * one LUT from the broadcast item (as a queue entry is from its input). */
    int head = s->ring || i == 0;
    fprintf(fp, "    // stage %u, lane %u: %u words of %u bits\n", i, l, s->depth[i], wb);
    fprintf(fp, "    wire [%u:0] h%u_%u = o%u_%u;\n    wire p%u_%u = h%u_%u[%u];\n", iw - 1, l, i, l, prev, l, i, l, i,
            iw - 1);
    if (head)
        fprintf(fp,
                "    reg [%u:0] q%u_%u;\n    always @(posedge clk) q%u_%u <= item ^ {%u{sh[%u]}};\n"
                "    wire [%u:0] c%u_%u = p%u_%u ? h%u_%u : q%u_%u;\n",
                iw - 1, l, i, l, i, iw, (l * s->n + i) % iw, iw - 1, l, i, l, i, l, i, l, i);
    else
        fprintf(fp, "    wire [%u:0] c%u_%u = h%u_%u;\n", iw - 1, l, i, l, i);
    if (!l) {
        /* the write is lane 0's, into every lane's copy (a bubble holds every lane) */
        fprintf(fp, "    wire we%u = ", i);
        if (head) {
            for (unsigned k = 0; k < s->p; k++)
                fprintf(fp, "~p%u_%u & ", k, i);
            fprintf(fp, "q0_%u[%u];\n", i, iw - 2);
        } else {
            fprintf(fp, "p0_%u & h0_%u[%u];\n", i, i, iw - 2);
        }
    }
    char nm[48], ex[128], wd[128];
    snprintf(nm, sizeof nm, "c0_%u", i);
    fit(wd, sizeof wd, nm, iw, wb);
    for (unsigned k = 1; k < s->d; k++)
        fprintf(fp, "    reg [%u:0] r%u_%u_%u;\n    reg [%u:0] c%u_%u_%u;\n", wb - 1, l, i, k, iw - 1, l, i, k);
    fprintf(fp,
            "    (* ram_style = \"block\" *) reg [%u:0] m%u_%u [0:%u];\n"
            "    always @(posedge clk) begin\n"
            "        if (we%u)\n            m%u_%u[c0_%u[%u:0]] <= %s;\n"
            "        else\n            r%u_%u_1 <= m%u_%u[c%u_%u[%u:0]];\n"
            "        c%u_%u_1 <= c%u_%u;\n",
            wb - 1, l, i, s->depth[i] - 1, i, l, i, i, ab - 1, wd, l, i, l, i, l, i, ab - 1, l,
            i, l, i);
    unsigned d = 1;
    for (; d + 1 < s->d; d++)
        fprintf(fp, "        r%u_%u_%u <= r%u_%u_%u;\n        c%u_%u_%u <= c%u_%u_%u;\n", l, i, d + 1, l, i, d, l, i,
                d + 1, l, i, d);
    snprintf(nm, sizeof nm, "r%u_%u_%u", l, i, d);
    fprintf(fp, "        o%u_%u <= {c%u_%u_%u[%u] ^ %s[%u], c%u_%u_%u[%u:0] ^ %s};\n    end\n", l, i, l, i, d, iw - 1, nm,
            wb - 1, l, i, d, iw - 2, fit(ex, sizeof ex, nm, wb, iw - 1));
}

int lpm_synth_write_datapath(const char *dir, const lpm_synth_shape *s, lpm_err *err)
{
    char path[4200];
    lpm_rtl_fmt(path, sizeof path, "%s/datapath_only.v", dir);
    FILE *fp = fopen(path, "w");
    if (!fp)
        return lpm_err_set(err, LPM_EFAIL, "%s: cannot write", path);
    unsigned iw = s->iw, xa = s->x ? s->x : 1;
    char ws[64], wi[64];
    fprintf(fp,
            "// Written by lpmpipe rtl synth: the datapath of the design in this folder alone\n"
            "// (%s, %u stages, %u lane%s, %u cycles a hop, %u-bit items): its block RAMs and the\n"
            "// paths the rules give a lookup, with no queue, dispatcher, credit or result lane.\n"
            "module datapath_only (input wire clk, input wire din, output reg dout);\n"
            "    reg [%u:0] sh;\n    always @(posedge clk) sh <= {sh[%u:0], din};\n"
            "    // the DIT: the key registered, its word and the key make the item\n"
            "    (* ram_style = \"block\" *) reg [%u:0] dit [0:%u];\n"
            "    reg [%u:0] dw;\n    reg [%u:0] kd, item;\n"
            "    always @(posedge clk) begin\n"
            "        if (sh[%u])\n            dit[sh[%u:0]] <= %s;\n"
            "        else\n            dw <= dit[sh[%u:0]];\n"
            "        kd <= sh;\n        item <= kd ^ %s;\n    end\n",
            s->ring ? "ring" : "linear", s->n, s->p, s->p > 1 ? "s" : "", s->d, iw, iw - 1, iw - 2, s->db - 1,
            (1u << xa) - 1, s->db - 1, iw - 1, iw - 1, xa - 1, fit(ws, sizeof ws, "sh", iw, s->db), xa - 1,
            fit(wi, sizeof wi, "dw", s->db, iw));
    for (unsigned l = 0; l < s->p; l++)
        for (unsigned i = 0; i < s->n; i++)
            fprintf(fp, "    reg [%u:0] o%u_%u;\n", iw - 1, l, i);
    for (unsigned i = 0; i < s->n; i++)
        for (unsigned l = 0; l < s->p; l++)
            write_stage(fp, s, i, l);
    /* every item register reaches the pin (a ring's lookups exit anywhere, a
     * linear one's at its last stage), so none of its bits is optimised away */
    unsigned first = s->ring ? 0 : s->n - 1, n = s->p * (s->n - first) * iw;
    fprintf(fp, "    wire [%u:0] f0 = {", n - 1);
    for (unsigned l = 0; l < s->p; l++)
        for (unsigned i = first; i < s->n; i++)
            fprintf(fp, "%so%u_%u", l || i > first ? ", " : "", l, i);
    fprintf(fp, "};\n");
    lpm_synth_write_fold(fp, n);
    return fclose(fp) ? lpm_err_set(err, LPM_EFAIL, "%s: write failed", path) : LPM_OK;
}
