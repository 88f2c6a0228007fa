/* lpmpipe model linecard: the TLM-2.0 line-card example (docs/models.md). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cmd.h"
#include "cmd_model.h"
#include "../core/input.h"

static const char *cmd = "model linecard";

static void help(FILE *fp)
{
    fprintf(fp,
            "usage: lpmpipe model linecard --image IMG (--trace F | --gen KIND [--count N] [--seed S] |\n"
            "                  --timed-trace F)\n"
            "                  [--engine cycle|fast] [--rate-mpps R] [--clock-mhz F] [--fifo N]\n"
            "                  [--contexts K] [--queue Q] [--issue-width W] [--rob R] [--hop-cycles D]\n"
            "                  [--ports P] [--updates BUBBLES [--ignore-image-crc] --update-rate U] [--json]\n"
            "\n"
            "A line card in SystemC/TLM-2.0: packets arrive at a fixed rate into an input\n"
            "FIFO (a full FIFO drops them); K lookup contexts send each packet's lookup to\n"
            "the engine's tlm_utils::simple_target_socket (b_transport); update bubbles go\n"
            "in through the same socket as write transactions. Reports lookups/s, drops,\n"
            "latency p50/p99/max in ns (arrival to answer) and the lookups per clock the\n"
            "engine must sustain. Without --updates every answer is checked.\n"
            "\n"
            "  --engine cycle|fast cycle: the cycle-accurate model answers each lookup (its\n"
            "                      latency at the current load); fast: loosely timed, the image\n"
            "                      interpreter answers with a latency calibrated from cycle\n"
            "                      runs of this pipeline and these requests (default cycle)\n"
            "  --rate-mpps R       offered packets per second, in millions (default 148.8:\n"
            "                      100 GbE with minimum-size frames); 0: back to back, each\n"
            "                      context sends its next lookup when the last is answered,\n"
            "                      loosely timed with a quantum keeper (the engine's own pace)\n"
            "  --clock-mhz F       the engine's clock (default 200)\n"
            "  --timed-trace F     packets at a trace's own timing: one per line, 'SECONDS\n"
            "                      ADDRESS' (arrival, non-decreasing; the first arrives at 0)\n"
            "  --fifo N            input FIFO entries (default 64)\n"
            "  --contexts K        lookups in flight at once (default 64)\n");
    lpm_model_req_help(fp); /* the packets' addresses */
    fprintf(fp,
            "  --queue Q --issue-width W --rob R --hop-cycles D --ports P   the pipeline\n"
            "  --updates BUBBLES   bubble file (lpmpipe update --bubbles)\n"
            "  --ignore-image-crc  apply a bubble file made for another image\n"
            "  --update-rate U     updates per second (needed with --updates)\n"
            "  --json              the report as one JSON object\n");
}

/* --timed-trace F: one packet per line, "SECONDS ADDRESS" (its arrival;
 * non-decreasing), blank lines and '#' comments skipped. */
static int timed_line(lpm_input *in, char *line, size_t len, int fam, lpm_model_keys *k, double **times, lpm_err *err)
{
    const char *f = lpm_input_name(in);
    unsigned long ln = lpm_input_lineno(in);
    char q[96];
    while (len && (line[len - 1] == '\r' || line[len - 1] == ' ' || line[len - 1] == '\t'))
        line[--len] = '\0';
    char *p = line;
    while (*p == ' ' || *p == '\t')
        p++;
    if (!*p || *p == '#')
        return 0;
    if (strlen(line) != len)
        return lpm_err_at(err, LPM_EINPUT, f, ln, "a NUL byte in the line");
    char *end;
    double t = strtod(p, &end);
    if (end == p || (*end != ' ' && *end != '\t') || !(t >= 0 && t < 1e9))
        return lpm_err_at(err, LPM_EINPUT, f, ln, "not 'SECONDS ADDRESS' (time 0..1e9 s): %s",
                          lpm_quote(q, sizeof q, line, len));
    if (k->n && t < (*times)[k->n - 1])
        return lpm_err_at(err, LPM_EINPUT, f, ln, "time %.9g is before the line above's", t);
    while (*end == ' ' || *end == '\t')
        end++;
    int fm = fam;
    lpm_addr a;
    lpm_err e;
    if (lpm_addr_parse(end, &fm, &a, &e))
        return lpm_err_at(err, LPM_EINPUT, f, ln, "%s", e.msg);
    size_t cap = k->cap;
    lpm_addr *na = lpm_model_grow(k->a, &k->cap, k->n, sizeof *na);
    if (na)
        k->a = na;
    double *nt = na ? lpm_model_grow(*times, &cap, k->n, sizeof *nt) : NULL;
    if (!nt)
        return lpm_err_set(err, LPM_EFAIL, "out of memory");
    *times = nt;
    k->a[k->n] = a;
    (*times)[k->n++] = t;
    return 0;
}

static int read_timed(const lpm_model_opts *o, const lpm_image *img, lpm_model_keys *k, double **times)
{
    lpm_err err;
    lpm_input *in = NULL;
    int rc = lpm_input_open(&in, o->req.trace, &err), got = 0;
    char *line;
    size_t len;
    while (!rc && (got = lpm_input_getline(in, &line, &len, &err)) == 1)
        rc = timed_line(in, line, len, lpm_image_family(img), k, times, &err);
    if (!rc && got < 0)
        rc = LPM_EINPUT;
    if (!rc && !k->n)
        rc = lpm_err_set(&err, LPM_EINPUT, "%s: no packets", o->req.trace);
    if (rc)
        lpm_cli_error(cmd, "%s", err.msg);
    lpm_input_close(in);
    return rc;
}

/* The bubble file, grouped by update, in memory (the update source sends
 * each update's bubbles in turn). */
typedef struct upd_set {
    lpm_sim_bubble *b;
    size_t n, cap;
    lpm_linecard_update *u;
    size_t nu;
} upd_set;

static int read_updates(const lpm_model_opts *o, const lpm_image *img, upd_set *s)
{
    lpm_sim_bfile bf = { 0 };
    lpm_err err;
    int rc = lpm_model_bubbles_open(cmd, o, img, &bf), got = 0;
    if (rc)
        return rc;
    for (;;) {
        lpm_sim_bubble *p = lpm_model_grow(s->b, &s->cap, s->n, sizeof *p);
        if (!p) {
            rc = lpm_err_set(&err, LPM_EFAIL, "out of memory");
            break;
        }
        s->b = p;
        if ((got = lpm_sim_bfile_next(&bf, &s->b[s->n], &err)) != 1)
            break;
        s->n++;
    }
    if (!rc && got < 0)
        rc = LPM_EINPUT;
    lpm_sim_bfile_close(&bf);
    if (!rc && s->n && !(s->u = calloc(s->n, sizeof *s->u)))
        rc = lpm_err_set(&err, LPM_EFAIL, "out of memory");
    for (size_t i = 0; !rc && i < s->n; i++) {
        if (!s->nu || s->b[i].first || s->b[i].update != s->b[i - 1].update)
            s->u[s->nu++].b = &s->b[i];
        s->u[s->nu - 1].n++;
    }
    if (rc)
        lpm_cli_error(cmd, "%s", err.msg);
    return rc;
}

static void report(const lpm_model_opts *o, const lpm_linecard_report *r, const lpm_model_calib *cal)
{
    const lpm_model_cfg *m = &o->mc;
    if (o->json) {
        printf("{\"engine\":\"%s\",\"timed\":%s,\"rate_mpps\":%.6g,\"clock_mhz\":%.6g,\"fifo\":%u,\"contexts\":%u,\"hop_cycles\":%u,"
               "\"ports\":%u,\"queue\":%u,\"issue_width\":%u,\"rob\":%u,\"offered\":%" PRIu64 ",\"answered\":%" PRIu64
               ",\"dropped\":%" PRIu64 ",\"updates\":%" PRIu64 ",\"bubbles\":%" PRIu64 ",\"lookups_per_s\":%.0f,"
               "\"latency_ns\":{\"p50\":%.1f,\"p99\":%.1f,\"max\":%.1f},\"need_lookups_per_clock\":%.4f,"
               "\"peak_lookups_per_clock\":%.4f,"
               "\"sim_seconds\":%.9f,\"cpu_seconds\":%.4f,\"host_lookups_per_s\":%.0f,\"checked\":%" PRIu64
               ",\"mismatches\":%" PRIu64,
               o->fast ? "fast" : "cycle", o->timed ? "true" : "false", o->timed ? 0.0 : o->rate_mpps, m->clock_mhz, o->fifo, o->contexts, m->hop, m->ports, m->queue,
               m->width, m->rob, r->offered, r->answered, r->dropped, r->updates, r->bubbles, r->lookups_per_s,
               r->lat_p50_ns, r->lat_p99_ns, r->lat_max_ns, r->need_per_clock, r->peak_per_clock, r->sim_seconds, r->cpu_seconds,
               r->cpu_seconds > 0 ? (double)r->answered / r->cpu_seconds : 0.0, r->checked, r->mismatches);
        if (cal)
            printf(",\"calibration\":{\"lpc_max\":%.4f,\"points\":%u}", cal->lpc_max, cal->n);
        printf("}\n");
        return;
    }
    if (o->timed)
        printf("line card: %" PRIu64 " packets at the times of %s into a %u-entry FIFO, %u lookups in flight; engine %s\n"
               "  (D %u, P %u, Q %u, W %u, R %u at %.6g MHz): the engine must sustain %.3f lookups per clock\n"
               "  (the trace's mean rate; %.3f at its peak over 1 us)\n",
               r->offered, o->req.trace, o->fifo, o->contexts, o->fast ? "fast (loosely timed)" : "cycle-accurate", m->hop,
               m->ports, m->queue, m->width, m->rob, m->clock_mhz, r->need_per_clock, r->peak_per_clock);
    else if (o->rate_mpps > 0)
        printf("line card: %" PRIu64 " packets at %.6g Mpps into a %u-entry FIFO, %u lookups in flight; engine %s\n"
               "  (D %u, P %u, Q %u, W %u, R %u at %.6g MHz): the engine must sustain %.3f lookups per clock\n",
               r->offered, o->rate_mpps, o->fifo, o->contexts, o->fast ? "fast (loosely timed)" : "cycle-accurate",
               m->hop, m->ports, m->queue, m->width, m->rob, m->clock_mhz, r->need_per_clock);
    else
        printf("line card: %" PRIu64 " lookups back to back from %u contexts (quantum 1 us); engine %s\n"
               "  (D %u, P %u, Q %u, W %u, R %u at %.6g MHz): it sustained %.3f lookups per clock\n",
               r->offered, o->contexts, o->fast ? "fast (loosely timed)" : "cycle-accurate", m->hop, m->ports, m->queue,
               m->width, m->rob, m->clock_mhz, r->need_per_clock);
    if (cal)
        printf("  calibration: saturated LPC %.3f, %u load points from cycle runs\n", cal->lpc_max, cal->n);
    printf("answered     %" PRIu64 " (%.2f M lookups/s over %.3f us simulated)\n", r->answered, r->lookups_per_s / 1e6,
           r->sim_seconds * 1e6);
    printf("dropped      %" PRIu64 " (input FIFO full)\n", r->dropped);
    printf("updates      %" PRIu64 " (%" PRIu64 " bubbles through the engine)\n", r->updates, r->bubbles);
    printf("latency ns   p50 %.1f  p99 %.1f  max %.1f (arrival to answer)\n", r->lat_p50_ns, r->lat_p99_ns, r->lat_max_ns);
    printf("checked      %" PRIu64 " answers, %" PRIu64 " mismatches\n", r->checked, r->mismatches);
    printf("host         %.3f s CPU, %.0f lookups/s\n", r->cpu_seconds,
           r->cpu_seconds > 0 ? (double)r->answered / r->cpu_seconds : 0.0);
}

int lpm_cmd_model_linecard(int argc, char **argv)
{
    lpm_model_opts o;
    int rc = lpm_model_opts_parse(cmd, argc, argv, &o);
    if (rc < 0)
        help(stdout);
    if (rc)
        return rc < 0 ? 0 : rc;
    if (o.updates && !(o.urate > 0)) {
        lpm_cli_error(cmd, "--updates needs --update-rate U (updates per second)");
        return 2;
    }
    lpm_err err;
    lpm_image *img = NULL, *check = NULL;
    lpm_model_keys k = { 0 };
    upd_set us = { 0 };
    lpm_model_calib cal;
    double *times = NULL;
    if ((rc = lpm_model_image_open(cmd, &o, &img, &check)))
        return rc;
    if ((rc = o.timed ? read_timed(&o, img, &k, &times) : lpm_model_keys_load(cmd, &o, img, &k)) || (o.updates && (rc = read_updates(&o, img, &us))))
        goto out;
    if (o.fast && (rc = lpm_model_calibrate(img, &o.mc, k.a, k.n < 20000 ? k.n : 20000, &cal, &err))) {
        lpm_cli_error(cmd, "calibration: %s", err.msg);
        goto out;
    }
    lpm_linecard_cfg lc = { o.mc, o.fast, o.fast ? &cal : NULL, o.timed ? 0.0 : o.rate_mpps * 1e6, times, o.fifo,
                            o.contexts, o.urate };
    lpm_linecard_report r;
    if ((rc = lpm_linecard_run(img, &lc, k.a, k.n, us.u, us.nu, check, &r, &err))) {
        lpm_cli_error(cmd, "%s", err.msg);
        goto out;
    }
    report(&o, &r, o.fast ? &cal : NULL);
    if (r.mismatches || r.answered + r.dropped != r.offered) {
        lpm_cli_error(cmd, "%" PRIu64 " wrong answers, %" PRIu64 " of %" PRIu64 " packets unaccounted for", r.mismatches,
                      r.offered - r.answered - r.dropped, r.offered);
        rc = 1;
    }
out:
    if (fflush(stdout) && !rc)
        rc = 1;
    free(k.a);
    free(times);
    free(us.b);
    free(us.u);
    lpm_image_free(check);
    lpm_image_free(img);
    return rc;
}
