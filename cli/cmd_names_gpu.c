/* lpmpipe names gpu bench (cli/cmd_names.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_names.h"
#include "../names/interweave.h"
#include "../names/ngpu.h"

static const char CMD[] = "names gpu bench";

/* One JSON line per (batch, streams) pair, all on one MATA build. */
static int gpu_run_points(const lpm_ncli_eopts *o, const lpm_ntable *list, const lpm_nm_view *v, const lpm_niw *iw,
                          const uint32_t *want)
{
    int rc = 0;
    for (size_t i = 0; i < o->ngbatch && !rc; i++)
        for (size_t j = 0; j < o->ngstreams && !rc; j++) {
            lpm_ngpu_opts g = o->g;
            g.batch = (uint32_t)o->gbatch[i];
            g.streams = (uint32_t)o->gstreams[j];
            g.repeat = o->repeat;
            lpm_ngpu_result res;
            lpm_err e;
            if ((rc = lpm_names_cuda_bench(v, iw, want, &g, &res, &e)))
                return lpm_ncli_fail(CMD, rc, &e);
            printf("{\"engine\":\"mata-gpu\",\"names\":%zu,\"batch\":%u,\"streams\":%u,\"threads\":%u,"
                   "\"kernel_searches_per_s\":%.0f,\"e2e_searches_per_s\":%.0f,\"batch_latency_us\":%.1f,"
                   "\"batch_latency_p99_us\":%.1f,\"batch_latency_max_us\":%.1f,\"batches\":%llu,"
                   "\"mismatches\":%llu}\n",
                   list->n, g.batch, g.streams, g.threads, res.kernel_sps, res.e2e_sps, res.latency_us,
                   res.latency_p99_us, res.latency_max_us, (unsigned long long)res.batches,
                   (unsigned long long)res.mismatches);
            fflush(stdout);
            if (res.mismatches)
                rc = LPM_EFAIL;
        }
    return rc;
}

static int gpu_points(const lpm_ncli_eopts *o, int argc, char **argv)
{
    lpm_ntable t, list;
    int rc = lpm_ncli_load_both(CMD, o, argc, argv, &t, &list);
    if (rc)
        return rc;
    lpm_nengine en, ref;
    int have_en = 0, have_ref = 0;
    lpm_niw iw;
    memset(&iw, 0, sizeof iw);
    lpm_err e;
    uint32_t *want = malloc((list.n + 1) * sizeof *want);
    if (!want) {
        lpm_cli_error(CMD, "out of memory");
        rc = LPM_EFAIL;
    }
    if (!rc && !(rc = lpm_ncli_build_engine(CMD, &en, "mata", &t, o)))
        have_en = 1;
    if (!rc && !(rc = lpm_ncli_build_engine(CMD, &ref, "ref", &t, o)))
        have_ref = 1;
    if (!rc) {
        for (size_t i = 0; i < list.n; i++)
            want[i] = lpm_nengine_lookup(&ref, lpm_ntable_name(&list, i), list.e[i].len);
        if ((rc = lpm_niw_build(&iw, &list, &e))) {
            rc = lpm_ncli_fail(CMD, rc, &e);
        } else {
            lpm_nm_view v;
            lpm_naa_view(&en.aa, &v);
            rc = gpu_run_points(o, &list, &v, &iw, want);
        }
    }
    if (have_en)
        lpm_nengine_free(&en);
    if (have_ref)
        lpm_nengine_free(&ref);
    lpm_niw_free(&iw);
    lpm_ntable_free(&t);
    lpm_ntable_free(&list);
    free(want);
    return rc;
}

int lpm_cmd_names_gpu(int argc, char **argv)
{
    static const struct option lo[] = { LPM_NCLI_ENGINE_LONGOPTS,
                                        { "batch", required_argument, 0, O_BATCH },
                                        { "streams", required_argument, 0, O_STREAMS },
                                        { "threads", required_argument, 0, O_THREADS },
                                        { "repeat", required_argument, 0, O_REPEAT },
                                        { 0, 0, 0, 0 } };
    lpm_ncli_eopts o;
    lpm_ncli_eopts_init(&o);
    int c, r;
    if (argc < 2 || strcmp(argv[1], "bench")) {
        if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")))
            goto help;
        lpm_cli_error("names gpu", "expected 'bench' (lpmpipe names gpu --help)");
        return LPM_EINPUT;
    }
    argc--;
    argv++;
    while ((c = lpm_cli_getopt(CMD, argc, argv, "h", lo)) != -1) {
        if (c == 'h')
            goto help;
        if ((r = lpm_ncli_engine_opt(CMD, c, optarg, &o)) <= 0)
            return r < 0 ? LPM_EINPUT : lpm_cli_usage_error(CMD);
    }
    if (lpm_ncli_no_args(CMD, argc, argv))
        return LPM_EINPUT;
    if (!lpm_names_cuda_built() || lpm_names_cuda_devices() <= 0) {
        fprintf(stderr, "lpmpipe: %s: no CUDA device present%s\n", CMD,
                lpm_names_cuda_built() ? "" : " (this binary was built without CUDA)");
        return LPM_ENODEV;
    }
    if (!o.trace) {
        lpm_cli_error(CMD, "--trace is required");
        return LPM_EINPUT;
    }
    return gpu_points(&o, argc, argv);
help:
    printf("usage: lpmpipe names gpu bench --table TABLE --trace FILE [--batch N[,N...]]\n"
           "       [--streams S[,S...]] [--threads T] [--repeat R]\n"
           "Runs the CUDA MATA kernel over interweaved names (each batch split over S streams)\n"
           "and prints kernel-only and end-to-end searches/s and the batch latency (mean, p99,\n"
           "max over every batch); every answer is checked against the reference. Lists run\n"
           "every (batch, streams) pair on one build, one JSON line each. Exit 3 when no CUDA\n"
           "device is present.\n" LPM_NCLI_ENGINE_HELP);
    return 0;
}
