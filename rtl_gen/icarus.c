/* rtl verify --icarus: the second simulator. The same keys through
 * tb_icarus.v must give, byte for byte, the results the Verilated
 * testbench gave (which the comparison has already held against the
 * simulator's). Requests only: bubbles are Verilator's part. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "rtl_run.h"
#include "verify_cmp.h"

static int same_file(const char *a, const char *b, uint64_t *line)
{
    FILE *x = fopen(a, "r"), *y = fopen(b, "r");
    int same = x && y;
    char la[512], lb[512];
    *line = 0;
    while (same) {
        char *p = fgets(la, sizeof la, x), *q = fgets(lb, sizeof lb, y);
        if (!p && !q)
            break;
        (*line)++;
        if (!p || !q || strcmp(la, lb))
            same = 0;
    }
    if (x)
        fclose(x);
    if (y)
        fclose(y);
    return same;
}

int lpm_rtl_icarus(lpm_rtl_cmp *c, const char *rtl, const char *work, int bubbles, const char *simres, lpm_err *err)
{
    (void)simres;
    if (bubbles)
        return lpm_err_set(err, LPM_EINPUT, "--icarus replays requests only: leave out --updates");
    if (c->keys->n > 65536)
        return lpm_err_set(err, LPM_EINPUT, "--icarus takes at most 65536 requests (%zu given)", c->keys->n);
    if (!lpm_rtl_tool_exists("iverilog") || !lpm_rtl_tool_exists("vvp"))
        return lpm_err_set(err, LPM_EFAIL, "--icarus needs iverilog and vvp on the PATH");
    char path[4200], log[4200], out[4200], ka[4300], na[64], oa[4300];
    lpm_rtl_fmt(path, sizeof path, "%s/keys.mem", work);
    FILE *fp = fopen(path, "w");
    if (!fp)
        return lpm_err_set(err, LPM_EFAIL, "%s: cannot write", path);
    int fam = lpm_image_family(c->img);
    for (size_t i = 0; i < c->keys->n; i++) {
        const lpm_addr *k = &c->keys->a[i];
        if (fam == LPM_AF_INET)
            fprintf(fp, "%08" PRIx64 "\n", k->hi >> 32);
        else
            fprintf(fp, "%016" PRIx64 "%016" PRIx64 "\n", k->hi, k->lo);
    }
    if (fclose(fp))
        return lpm_err_set(err, LPM_EFAIL, "%s: write failed", path);
    lpm_rtl_fmt(log, sizeof log, "%s/icarus.log", work);
    char *margv[] = { "make", "--no-print-directory", "icarus", NULL };
    int rc = lpm_rtl_run(margv, rtl, log, log);
    if (rc)
        return lpm_err_set(err, LPM_EFAIL, "iverilog failed (exit %d): see %s", rc, log);
    lpm_rtl_fmt(out, sizeof out, "%s/icarus.res", work);
    lpm_rtl_fmt(ka, sizeof ka, "+keys=%s", path);
    lpm_rtl_fmt(na, sizeof na, "+n=%zu", c->keys->n);
    lpm_rtl_fmt(oa, sizeof oa, "+out=%s", out);
    char *vargv[] = { "vvp", "-n", "tb_icarus.vvp", ka, na, oa, NULL };
    rc = lpm_rtl_run(vargv, rtl, log, log);
    if (rc)
        return lpm_err_set(err, LPM_EFAIL, "vvp failed (exit %d): see %s", rc, log);
    char vres[4200];
    lpm_rtl_fmt(vres, sizeof vres, "%s/rtl.res", work);
    uint64_t line;
    if (!same_file(vres, out, &line)) {
        fprintf(stderr, "lpmpipe: rtl verify: Icarus and Verilator results differ at result line %" PRIu64 "\n", line);
        c->icarus_bad++;
    } else {
        fprintf(stderr, "lpmpipe: rtl verify: note: Icarus Verilog: %" PRIu64 " results, the same as Verilator's\n", line);
    }
    return LPM_OK;
}
