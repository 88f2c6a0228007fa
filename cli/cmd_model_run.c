/* lpmpipe model run: the cycle-accurate SystemC model writes the cycle log
 * and results file that lpmpipe sim writes, its answers checked against
 * the image interpreter (without --updates). */
#include <inttypes.h>
#include <stdlib.h>

#include "cli.h"
#include "cmd_model.h"

/* model run's sink: the results file line lpmpipe sim writes, and the
 * answer against the image interpreter. */
typedef struct run_sink {
    FILE *fp;
    const lpm_image *check;   /* NULL: not checked (bubbles change the answers) */
    const lpm_image *img;
    uint64_t checked, bad;
} run_sink;

static int run_emit(void *ctx, const lpm_sim_result *r, lpm_err *err)
{
    run_sink *s = ctx;
    (void)err;
    if (s->check) {
        s->checked++;
        uint32_t want = lpm_image_lookup(s->check, &r->key);
        if (want != r->nh && s->bad++ < 3)
            fprintf(stderr, "lpmpipe: model run: request %" PRIu64 ": the model says %" PRIu32 ", the interpreter %" PRIu32 "\n",
                    r->id, r->nh, want);
    }
    if (s->fp) {
        char a[LPM_ADDR_STRLEN], nh[32];
        lpm_addr_format(&r->key, lpm_image_family(s->img), a, sizeof a);
        const lpm_nhtab *t = lpm_image_nhtab(s->img);
        if (r->nh == LPM_NH_NONE)
            snprintf(nh, sizeof nh, "-");
        else if (r->nh < t->n)
            snprintf(nh, sizeof nh, "%s", lpm_nhtab_name(t, r->nh));
        else
            snprintf(nh, sizeof nh, "#%" PRIu32, r->nh);
        fprintf(s->fp, "%" PRIu64 ",%s,%s,%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n", r->id, a, nh, r->dit_cycle, r->exit_cycle,
                r->out_cycle);
    }
    return 0;
}

int lpm_cmd_model_run(int argc, char **argv)
{
    const char *cmd = "model run";
    lpm_model_opts o;
    int rc = lpm_model_opts_parse(cmd, argc, argv, &o);
    if (rc < 0)
        lpm_model_help(stdout, "run");
    if (rc)
        return rc < 0 ? 0 : rc;
    lpm_err err;
    lpm_image *img = NULL, *check = NULL;
    lpm_model_keys k = { 0 };
    lpm_sim_bfile bf = { 0 };
    run_sink rs = { 0 };
    FILE *clog = NULL;
    if ((rc = lpm_model_image_open(cmd, &o, &img, &check)))
        return rc;
    if ((rc = lpm_model_keys_load(cmd, &o, img, &k)) || (o.updates && (rc = lpm_model_bubbles_open(cmd, &o, img, &bf))))
        goto out;
    if ((o.clog && !(clog = lpm_cli_open_out(cmd, o.clog, &rc))) ||
        (o.results && !(rs.fp = lpm_cli_open_out(cmd, o.results, &rc))))
        goto out;
    if (rs.fp)
        fprintf(rs.fp, "id,addr,nh,dit_cycle,exit_cycle,out_cycle\n");
    rs.check = check;
    rs.img = img;
    o.mc.cycle_log = clog;
    lpm_model_io io = { lpm_model_keys_next, &k, o.updates ? lpm_sim_bfile_next : NULL, &bf, run_emit, &rs };
    lpm_model_stats st;
    if ((rc = lpm_model_run(img, &o.mc, &io, &st, &err))) {
        lpm_cli_error(cmd, "%s", err.msg);
        goto out;
    }
    double cps = st.seconds > 0 ? (double)st.cycles / st.seconds : 0.0;
    if (o.json)
        printf("{\"model\":\"systemc-cycle\",\"lookups\":%" PRIu64 ",\"cycles\":%" PRIu64 ",\"bubbles\":%" PRIu64
               ",\"lpc\":%.4f,\"seconds\":%.4f,\"cycles_per_s\":%.0f,\"checked\":%" PRIu64 ",\"mismatches\":%" PRIu64 "}\n",
               st.lookups, st.cycles, st.bubbles, st.cycles ? (double)st.lookups / (double)st.cycles : 0.0, st.seconds, cps,
               rs.checked, rs.bad);
    else
        printf("%" PRIu64 " lookups, %" PRIu64 " cycles, %" PRIu64 " bubbles; %.3f s CPU, %.0f cycles/s; %" PRIu64
               " answers checked, %" PRIu64 " mismatches\n",
               st.lookups, st.cycles, st.bubbles, st.seconds, cps, rs.checked, rs.bad);
    if (st.lookups != k.n) {
        lpm_cli_error(cmd, "internal error: %" PRIu64 " results for %zu requests", st.lookups, k.n);
        rc = 1;
    } else if (rs.bad) {
        rc = 1;
    }
out:
    if (clog && lpm_cli_close_out(cmd, clog, o.clog) && !rc)
        rc = 1;
    if (rs.fp && lpm_cli_close_out(cmd, rs.fp, o.results) && !rc)
        rc = 1;
    lpm_sim_bfile_close(&bf);
    free(k.a);
    lpm_image_free(check);
    lpm_image_free(img);
    return rc;
}
