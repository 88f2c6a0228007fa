/* model verify --cosim: what the co-simulation needs from outside the
 * SystemC kernel. The RTL folder is generated from the image as lpmpipe rtl
 * does, its testbench (rtl_gen/tb.cpp) is built as a shared library and
 * cached by content like rtl verify's, and the keys and bubbles are written
 * in the testbench's formats from the same requests and bubble file the
 * model reads (models/cosim.cpp steps the library). */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cmd_model.h"
#include "../rtl_gen/rtl_gen.h"
#include "../rtl_gen/rtl_run.h"
#include "../rtl_gen/tb_build.h"

int lpm_model_cosim_prepare(const char *cmd, const lpm_model_opts *o, const lpm_image *img, const lpm_model_keys *k,
                            lpm_model_cosim_run *r)
{
    memset(r, 0, sizeof *r);
    if (!lpm_rtl_tool_exists("verilator")) {
        lpm_cli_error(cmd, "--cosim needs verilator on the PATH (scripts/deps.sh installs it)");
        return 1;
    }
    lpm_rtl_opts ro = { .queue = o->mc.queue, .width = o->mc.width, .rob = 0, .hop = o->mc.hop, .ports = o->mc.ports,
                       .fifo = o->mc.result_fifo, .dit_queue = o->mc.dit_queue, .mutate = o->rtl_mutate };
    lpm_rtl_shape sh;
    lpm_err err;
    int rc = lpm_rtl_shape_of(img, &ro, &sh, &err);
    if (rc) {
        lpm_cli_error(cmd, "--cosim: %s", err.msg);
        return rc;
    }
    if ((rc = lpm_rtl_work_dir(o->bdir, "lpmpipe-cosim", r->work, sizeof r->work, &r->tmp, &err))) {
        lpm_cli_error(cmd, "%s", err.msg);
        return 1;
    }
    char *rtl = r->rtl, cache[4200];
    lpm_rtl_fmt(r->rtl, sizeof r->rtl, "%s/rtl", r->work);
    lpm_rtl_cache_dir(o->cache, cache, sizeof cache);
    uint64_t nb = 0;
    double cpu = o->urate > 0 ? o->mc.clock_mhz * 1e6 / o->urate : 0.0;
    if ((rc = lpm_rtl_generate(img, o->image, &ro, rtl, &err)) ||
        (rc = lpm_rtl_write_keys(r->work, lpm_image_family(img), k->a, k->n, &err)) ||
        (rc = lpm_rtl_write_bubbles(o->updates, img, o->ignore_crc, cpu, r->work, &nb, NULL, &err))) {
        lpm_cli_error(cmd, "%s", err.msg);
        return rc;
    }
    if ((rc = lpm_rtl_tb_build(rtl, cache[0] ? cache : NULL, LPM_RTL_TB_LIB, r->lib, sizeof r->lib, &err))) {
        lpm_cli_error(cmd, "%s", err.msg);
        char log[4300];
        lpm_rtl_fmt(log, sizeof log, "%s/build.log", rtl);
        lpm_rtl_show_tail(log, 12);
        return rc;
    }
    lpm_rtl_fmt(r->keys, sizeof r->keys, "%s/keys.hex", r->work);
    lpm_rtl_fmt(r->bubbles, sizeof r->bubbles, "%s/bubbles.txt", r->work);
    lpm_rtl_fmt(r->results, sizeof r->results, "%s/rtl.res", r->work);
    r->co.lib = r->lib;
    r->co.dir = r->rtl;
    r->co.keys = r->keys;
    r->co.bubbles = r->bubbles;
    r->co.results = r->results;
    r->co.load = o->mc.load;
    r->co.ready = o->mc.result_ready;
    return 0;
}

/* The testbench's results: "id nhv nh dit_cycle exit_cycle out_cycle". */
int lpm_model_cosim_results(const char *cmd, const lpm_model_cosim_run *r, lpm_model_results *out)
{
    FILE *fp = fopen(r->results, "r");
    if (!fp) {
        lpm_cli_error(cmd, "%s: %s", r->results, strerror(errno));
        return 1;
    }
    uint64_t id, nh, dit, ex, o;
    unsigned nhv;
    int rc = 0;
    while (fscanf(fp, "%" SCNu64 " %u %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64, &id, &nhv, &nh, &dit, &ex, &o) == 6) {
        lpm_sim_result x = { 0 };
        x.id = id;
        x.nh = nhv ? (uint32_t)nh : LPM_NH_NONE;
        x.dit_cycle = dit;
        x.exit_cycle = ex;
        x.out_cycle = o;
        if (lpm_model_results_grow(out, &x)) {
            lpm_cli_error(cmd, "out of memory");
            rc = 1;
            break;
        }
    }
    if (!rc && !feof(fp)) {
        lpm_cli_error(cmd, "%s: not a results line after %zu results", r->results, out->n);
        rc = 1;
    }
    fclose(fp);
    return rc;
}

void lpm_model_cosim_free(const char *cmd, lpm_model_cosim_run *r)
{
    if (!r->tmp)
        return;
    if (getenv("LPMPIPE_RTL_KEEP")) {
        lpm_cli_note(cmd, "work folder kept: %s", r->work);
        return;
    }
    char *argv[] = { "rm", "-rf", r->work, NULL };
    lpm_rtl_run(argv, NULL, NULL, NULL);
}
