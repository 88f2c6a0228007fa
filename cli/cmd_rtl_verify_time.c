/* rtl verify --timing: once the two sides agree, each runs the same
 * stimulus again, timed, as scripts/bench.d/60-rtl.sh measures them: the
 * simulator as `lpmpipe sim --preload --timing --no-check` (no cycle log,
 * no answer check), the Verilated model without its cycle log. Both time
 * themselves with the process CPU clock and print cycles/s on stderr; the
 * median of LPM_VERIFY_TIMING_RUNS runs each, and so a ratio measured in
 * one run (docs/cli-rtl.md). */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "../rtl_gen/rtl_run.h"
#include "cmd_rtl_verify.h"

static const char *cmd = "rtl verify";

/* The number before " cycles/s" on the file's last line that has one. */
static double rate_in(const char *path)
{
    FILE *fp = fopen(path, "r");
    char line[1024];
    double rate = 0;
    while (fp && fgets(line, sizeof line, fp)) {
        char *e = strstr(line, " cycles/s");
        if (!e)
            continue;
        char *p = e;
        while (p > line && (p[-1] == '.' || (p[-1] >= '0' && p[-1] <= '9')))
            p--;
        if (p < e)
            rate = strtod(p, NULL);
    }
    if (fp)
        fclose(fp);
    return rate;
}

int lpm_verify_timing(const lpm_verify_opts *v, lpm_verify_run *r)
{
    double sim[LPM_VERIFY_TIMING_RUNS], model[LPM_VERIFY_TIMING_RUNS];
    char trace[4200], simerr[4200], tberr[4200];
    lpm_rtl_fmt(trace, sizeof trace, "%s/stim.trace", r->work);
    lpm_rtl_fmt(simerr, sizeof simerr, "%s/time_sim.err", r->work);
    lpm_rtl_fmt(tberr, sizeof tberr, "%s/time_tb.err", r->work);
    for (int i = 0; i < LPM_VERIFY_TIMING_RUNS; i++) {
        lpm_verify_simargs sa;
        char *a[LPM_VERIFY_SIM_ARGS];
        int n = lpm_verify_sim_argv(v, trace, &sa, a);
        a[n++] = "--preload";
        a[n++] = "--timing";
        a[n++] = "--no-check";
        a[n] = NULL;
        int s = lpm_rtl_run(a, NULL, "/dev/null", simerr);
        if (s || (sim[i] = rate_in(simerr)) <= 0) {
            lpm_cli_error(cmd, "--timing: the timed simulator run failed (exit %d) or printed no rate:", s);
            lpm_rtl_show_tail(simerr, 4);
            return 1;
        }
        if (lpm_verify_model(v, r->work, r->rtl, r->exe, "-", "time.res", "time_tb.err"))
            return 1;
        if ((model[i] = rate_in(tberr)) <= 0) {
            lpm_cli_error(cmd, "--timing: the timed model run printed no rate (%s)", tberr);
            return 1;
        }
    }
    r->timing.runs = LPM_VERIFY_TIMING_RUNS;
    r->timing.sim_cps = lpm_cli_median(sim, LPM_VERIFY_TIMING_RUNS);
    r->timing.rtl_cps = lpm_cli_median(model, LPM_VERIFY_TIMING_RUNS);
    return 0;
}
