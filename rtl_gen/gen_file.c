/* The generated files' open and close (rtl_gen_int.h), below gen.c and the
 * emitters that write them (so gen.c and gen_*.c do not call each other). */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "rtl_gen_int.h"

int lpm_rtl_open(FILE **fp, const char *dir, const char *name, const char *header, const char *cm, lpm_err *err)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    *fp = fopen(path, "w");
    if (!*fp)
        return lpm_err_set(err, LPM_EFAIL, "%s: %s", path, strerror(errno));
    if (header && cm) {
        const char *p = header;
        while (*p) {
            const char *e = strchr(p, '\n');
            size_t n = e ? (size_t)(e - p) : strlen(p);
            fprintf(*fp, "%s %.*s\n", cm, (int)n, p);
            p += n + (e ? 1 : 0);
        }
    }
    return LPM_OK;
}

int lpm_rtl_close(FILE *fp, const char *dir, const char *name, lpm_err *err)
{
    int bad = ferror(fp);
    if (fclose(fp) || bad)
        return lpm_err_set(err, LPM_EFAIL, "%s/%s: write failed", dir, name);
    return LPM_OK;
}

int lpm_rtl_write_text(const char *dir, const char *name, const char *header, const char *cm, const char *text,
                       lpm_err *err)
{
    FILE *fp;
    int rc = lpm_rtl_open(&fp, dir, name, header, cm, err);
    if (rc)
        return rc;
    fputs(text, fp);
    return lpm_rtl_close(fp, dir, name, err);
}

int lpm_rtl_write_ice40_lib(const char *dir, const char *header, lpm_err *err)
{
    int rc = lpm_rtl_write_text(dir, "lpm_ice40_brams.txt", header, "#", lpm_rtl_lpm_ice40_brams_txt, err);
    return rc ? rc : lpm_rtl_write_text(dir, "lpm_ice40_brams_map.v", header, "//", lpm_rtl_lpm_ice40_brams_map_v, err);
}

void lpm_rtl_emit_mem_re(FILE *fp, const char *base, uint64_t depth, unsigned width, unsigned nrd, const char *waddr,
                         const char *wdata, const char *raddr, const char *rdata, const char *re)
{
    char rc[64];
    if (re && !strcmp(re, "1'b1"))
        snprintf(rc, sizeof rc, "/* every cycle */");
    else if (re)
        snprintf(rc, sizeof rc, "if (%s)", re);
    else
        snprintf(rc, sizeof rc, "if (!we)");
    unsigned parts[LPM_FPGA_MAX_PARTS];
    unsigned np = lpm_fpga_split(depth, width, parts);
    char a[32], r[32];
    for (unsigned p = 0; p < nrd; p++) {
        snprintf(r, sizeof r, rdata, p);
        fprintf(fp, "    wire [%u:0] %s;\n", width - 1, r);
    }
    for (unsigned k = 0, lo = 0; k < np; lo += parts[k++]) {
        unsigned hi = lo + parts[k] - 1;
        /* re = ~we, or a read whose word is not used when it meets a write:
         * no_rw_check tells Yosys so (no read-during-write bypass) */
        const char *attr = re ? "(* no_rw_check *) " : "";
        if (np == 1)
            fprintf(fp, "    %sreg [%u:0] mem0 [0:%" PRIu64 "];\n    initial $readmemh(\"%s.hex\", mem0);\n", attr, hi,
                    depth - 1, base);
        else
            fprintf(fp, "    %sreg [%u:0] mem%u [0:%" PRIu64 "];\n    initial $readmemh(\"%s_part_%u.hex\", mem%u);\n",
                    attr, parts[k] - 1, k, depth - 1, base, k, k);
        for (unsigned p = 0; p < nrd; p++) {
            snprintf(r, sizeof r, rdata, p);
            fprintf(fp, "    reg [%u:0] %s_%u;\n    assign %s[%u:%u] = %s_%u;\n", parts[k] - 1, r, k, r, hi, lo, r, k);
        }
        snprintf(a, sizeof a, raddr, 0u);
        snprintf(r, sizeof r, rdata, 0u);
        fprintf(fp,
                "    always @(posedge clk) begin\n        if (we)\n            mem%u[%s] <= %s[%u:%u];\n"
                "        %s\n            %s_%u <= mem%u[%s];\n    end\n",
                k, waddr, wdata, hi, lo, re ? rc : "else", r, k, k, a);
        for (unsigned p = 1; p < nrd; p++) {
            snprintf(a, sizeof a, raddr, p);
            snprintf(r, sizeof r, rdata, p);
            fprintf(fp, "    always @(posedge clk)\n        %s\n            %s_%u <= mem%u[%s];\n", rc, r, k, k, a);
        }
    }
}
