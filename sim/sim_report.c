/* The metrics of a run, as JSON (schema in docs/cli-sim.md) or as an
 * aligned table. */
#include "sim_report.h"

#include <inttypes.h>

static double mean(uint64_t sum, uint64_t n)
{
    return n ? (double)sum / (double)n : 0.0;
}

void lpm_sim_report_json(FILE *fp, const lpm_sim_report *r)
{
    const lpm_sim_stats *st = r->st;
    unsigned n = r->stages, hb = r->cfg->queue + 1 < LPM_SIM_QHIST_MAX ? r->cfg->queue + 1 : LPM_SIM_QHIST_MAX;
    uint64_t wc = st->win_cycles;
    fprintf(fp, "{\"source\":\"%s\",\"stages\":%u,\"pipeline\":\"%s\",\"queue\":%u,\"issue_width\":%u,\"rob\":%u,"
                "\"burst\":%g,\"load\":%g,\"warmup\":%" PRIu64 ",\"hop_cycles\":%u,\"ports\":%u,\"lookahead\":%u,"
                "\"result_ready\":%g,\"result_fifo\":%u,\"dit_answers_via\":\"%s\",\n",
            r->source, n, r->ring ? "ring" : "linear", r->cfg->queue, r->cfg->width, r->cfg->rob, r->burst,
            r->cfg->load, r->cfg->warmup, r->cfg->hop, r->cfg->ports, r->cfg->lookahead,
            r->cfg->result_ready > 0 ? r->cfg->result_ready : 1.0, r->cfg->result_fifo,
            r->cfg->dit_queue ? "queue" : "lane");
    fprintf(fp, " \"requests\":%" PRIu64 ",\"cycles\":%" PRIu64 ",\"window\":{\"start\":%" PRIu64 ",\"end\":%" PRIu64
                ",\"cycles\":%" PRIu64 ",\"exits\":%" PRIu64 "},\n",
            st->requests, st->cycles, st->win_start, st->win_end, wc, st->win_exits);
    fprintf(fp, " \"lpc\":%.6f,\"utilisation\":%.6f,\"stage_utilisation\":[", st->lpc, st->util);
    for (unsigned i = 0; i < n; i++)
        fprintf(fp, "%s%.6f", i ? "," : "", wc ? (double)st->busy[i] / ((double)wc * r->cfg->ports) : 0.0);
    fprintf(fp, "],\n \"queues\":{\"mean\":[");
    for (unsigned i = 0; i < n; i++)
        fprintf(fp, "%s%.4f", i ? "," : "", mean(st->qsum[i], wc));
    fprintf(fp, "],\"max\":[");
    for (unsigned i = 0; i < n; i++)
        fprintf(fp, "%s%" PRIu64, i ? "," : "", st->qmax[i]);
    fprintf(fp, "],\"hist\":[");
    for (unsigned i = 0; i < n; i++) {
        fprintf(fp, "%s[", i ? "," : "");
        for (unsigned j = 0; j < hb; j++)
            fprintf(fp, "%s%" PRIu64, j ? "," : "", st->qhist[(size_t)i * hb + j]);
        fprintf(fp, "]");
    }
    fprintf(fp, "]},\n \"stalls\":{\"queue\":%" PRIu64 ",\"rob\":%" PRIu64 ",\"result\":%" PRIu64 "},\"dit_answers\":%" PRIu64 ",\n",
            st->stall_queue, st->stall_rob, st->stall_res, st->dit_answers);
    uint64_t nl = 0;
    for (unsigned i = 0; i < LPM_SIM_LAT_BUCKETS; i++)
        nl += st->lat_hist[i];
    fprintf(fp, " \"latency\":{\"min\":%" PRIu64 ",\"mean\":%.3f,\"p50\":%" PRIu64 ",\"p99\":%" PRIu64 ",\"max\":%" PRIu64 "},\n",
            nl ? st->lat_min : 0, mean(st->lat_sum, nl), lpm_sim_latency_pct(st, 50), lpm_sim_latency_pct(st, 99), st->lat_max);
    fprintf(fp, " \"reads_per_lookup\":%.4f,\"loops\":{\"mean\":%.4f,\"max\":%" PRIu64 "},\"rob_occupancy\":{\"mean\":%.3f,\"max\":%" PRIu64 "},\n",
            mean(st->visits_sum, st->requests), mean(st->loops_sum, st->requests), st->loops_max, mean(st->rob_sum, wc), st->rob_max);
    fprintf(fp, " \"bubbles\":{\"in_file\":%" PRIu64 ",\"applied\":%" PRIu64 ",\"left\":%" PRIu64
                ",\"wait_cycles\":%" PRIu64 ",\"swaps\":%" PRIu64 ",\"drain_wait_cycles\":%" PRIu64
                ",\"fence_wait_cycles\":%" PRIu64 ",\"rebuild_cycles\":%" PRIu64 ",\"rebuild_lpc\":%.6f"
                ",\"update_rate\":%g,\"clock_mhz\":%g},\n",
            r->bubbles_in_file, st->bubbles, r->bubbles_in_file - st->bubbles, st->bubble_wait, r->swaps,
            st->drain_wait, st->fence_wait, st->rebuild_cycles,
            st->rebuild_cycles ? (double)st->rebuild_outputs / (double)st->rebuild_cycles : 0.0, r->update_rate,
            r->clock_mhz);
    fprintf(fp, " \"updates\":{\"in_file\":%" PRIu64 ",\"applied\":%" PRIu64 ",\"rebuilds_in_file\":%" PRIu64 "},\n",
            r->updates_in_file, r->updates_applied, r->rebuilds_in_file);
    fprintf(fp, " \"check\":{\"against\":\"%s\",\"checked\":%" PRIu64 ",\"mismatches\":%" PRIu64 ",\"reference_checked\":%" PRIu64
                ",\"reference_mismatches\":%" PRIu64 ",\"copy_violations\":%" PRIu64 ",\"swaps_checked\":%" PRIu64
                ",\"swap_crc_mismatches\":%" PRIu64 "}}\n",
            r->check_against, r->checked, r->mismatches, r->ref_checked, r->ref_mismatches, st->copy_violations,
            r->swaps_checked, r->swap_crc_mismatches);
}

void lpm_sim_report_table(FILE *fp, const lpm_sim_report *r)
{
    const lpm_sim_stats *st = r->st;
    unsigned n = r->stages;
    uint64_t wc = st->win_cycles, nl = 0;
    for (unsigned i = 0; i < LPM_SIM_LAT_BUCKETS; i++)
        nl += st->lat_hist[i];
    fprintf(fp, "%-22s %s, %u stages, hop %u cycles, %u port%s, queue %u, issue width %u, rob %u, burst %g, load %g\n",
            "pipeline", r->ring ? "ring" : "linear", n, r->cfg->hop, r->cfg->ports, r->cfg->ports == 1 ? "" : "s",
            r->cfg->queue, r->cfg->width, r->cfg->rob, r->burst, r->cfg->load);
    if (r->cfg->result_fifo)
        fprintf(fp, "%-22s the credit rules: %u result credits, no window or queues, results in input order\n", "control",
                r->cfg->result_fifo);
    if (r->cfg->dit_queue)
        fprintf(fp, "%-22s DIT answers through queue 0 and a stage's result lane\n", "control");
    fprintf(fp, "%-22s %s\n", "traffic", r->source);
    fprintf(fp, "%-22s %" PRIu64 " lookups in %" PRIu64 " cycles\n", "run", st->requests, st->cycles);
    fprintf(fp, "%-22s cycles %" PRIu64 "-%" PRIu64 " (%" PRIu64 " cycles, %" PRIu64 " exits)\n", "steady window",
            st->win_start, wc ? st->win_end - 1 : st->win_start, wc, st->win_exits);
    fprintf(fp, "%-22s %.4f\n", "LPC", st->lpc);
    fprintf(fp, "%-22s %.4f\n", "utilisation", st->util);
    fprintf(fp, "%-22s %" PRIu64 " (queue full), %" PRIu64 " (rob full), %" PRIu64 " (result lane full)\n",
            "dispatcher stalls", st->stall_queue, st->stall_rob, st->stall_res);
    fprintf(fp, "%-22s min %" PRIu64 ", mean %.2f, p50 %" PRIu64 ", p99 %" PRIu64 ", max %" PRIu64 " cycles\n", "latency",
            nl ? st->lat_min : 0, mean(st->lat_sum, nl), lpm_sim_latency_pct(st, 50), lpm_sim_latency_pct(st, 99), st->lat_max);
    fprintf(fp, "%-22s %.3f reads, %.4f loops (max %" PRIu64 "), %" PRIu64 " answered by the DIT\n", "per lookup",
            mean(st->visits_sum, st->requests), mean(st->loops_sum, st->requests), st->loops_max, st->dit_answers);
    if (r->cfg->rob)
        fprintf(fp, "%-22s mean %.2f, max %" PRIu64 "\n", "reorder buffer", mean(st->rob_sum, wc), st->rob_max);
    if (r->have_updates) {
        fprintf(fp, "%-22s %" PRIu64 " of %" PRIu64 " simulated (%" PRIu64 " rebuilds in the file, %" PRIu64 " swaps applied)\n",
                "updates", r->updates_applied, r->updates_in_file, r->rebuilds_in_file, r->swaps);
        fprintf(fp, "%-22s %" PRIu64 " applied, %" PRIu64 " left of %" PRIu64 " in the file; %" PRIu64
                    " cycles waited (%g updates/s at %g MHz)\n", "bubbles",
                st->bubbles, r->bubbles_in_file - st->bubbles, r->bubbles_in_file, st->bubble_wait, r->update_rate,
                r->clock_mhz);
    }
    if (r->swaps || st->copy_violations)
        fprintf(fp, "%-22s %" PRIu64 " swaps (%" PRIu64 " new copies checked, %" PRIu64 " differ), %" PRIu64
                    " rule violations; bubbles waited %" PRIu64 " cycles to drain, %" PRIu64 " for fences\n",
                "rebuilds", r->swaps, r->swaps_checked, r->swap_crc_mismatches, st->copy_violations, st->drain_wait,
                st->fence_wait);
    if (st->rebuild_cycles)
        fprintf(fp, "%-22s %" PRIu64 " cycles from first bubble to swap, %.4f lookups per cycle meanwhile\n",
                "rebuild streams", st->rebuild_cycles, (double)st->rebuild_outputs / (double)st->rebuild_cycles);
    if (r->checked)
        fprintf(fp, "%-22s %" PRIu64 " checked against the %s, %" PRIu64 " mismatches\n", "check", r->checked,
                r->check_against, r->mismatches);
    else
        fprintf(fp, "%-22s off\n", "check");
    if (r->ref_checked)
        fprintf(fp, "%-22s %" PRIu64 " checked, %" PRIu64 " mismatches\n", "reference LPM", r->ref_checked, r->ref_mismatches);
    fprintf(fp, "\n%5s %8s %9s %6s\n", "stage", "util", "queue", "qmax");
    for (unsigned i = 0; i < n; i++)
        fprintf(fp, "%5u %8.4f %9.3f %6" PRIu64 "\n", i, wc ? (double)st->busy[i] / ((double)wc * r->cfg->ports) : 0.0,
                mean(st->qsum[i], wc), st->qmax[i]);
}
