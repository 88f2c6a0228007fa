/* lpmpipe gpu: `info` (the CUDA device, or that there is none) and `bench`
 * (GAMT or GALE on the GPU: throughput end to end and kernel-only, latency,
 * updates, every answer checked against the reference). A build without
 * nvcc (gpu/gpu_none.c) says so. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cmd.h"
#include "../core/ref_lpm.h"
#include "../gpu/gpu_api.h"
#include "../gpu/workload.h"

static const char *cmd = "gpu";

static void help(FILE *fp)
{
    fprintf(fp,
            "usage: lpmpipe gpu info [--json]\n"
            "       lpmpipe gpu bench --fib F --engine gamt|gale [options] [--json]\n"
            "\n"
            "Runs the CUDA engines. Exit status 3 when no CUDA device is present (or the\n"
            "binary was built without nvcc); the CPU builds of both engines are always\n"
            "available as `lpmpipe lookup --engine gamt|gale`.\n"
            "\n"
            "bench options:\n"
            "  --fib F             the table (any format lpmpipe fib reads)\n"
            "  --engine E          gamt (IPv4, IPv6 first 64 bits) or gale (IPv4)\n"
            "  --batch B           lookups per batch, 1024..33554432 (default 1048576)\n"
            "  --streams S         CUDA streams, 1..32 (default 4)\n"
            "  --levels H          GAMT trie levels, 1..32 (default 4 for IPv4, 8 for IPv6)\n"
            "  --count N           lookups in all (default 8 batches, at least 2^22)\n"
            "  --updates U         route updates applied during the run (generated)\n"
            "  --update-trace F    route updates from a file instead (time a|w prefix nh)\n"
            "  --update-rate R     updates per second of wall time (default 70000)\n"
            "  --reps R            kernel-only repetitions (default 10)\n"
            "  --seed N            workload seed (default 1)\n"
            "  --json              one JSON object (schema in docs/cli-gpu.md)\n"
            LPM_CLI_FIB_HELP);
}

static int no_cuda(void)
{
    lpm_cli_error(cmd, "this binary was built without CUDA (nvcc was not found at build time): "
                       "no CUDA device can be used; `lpmpipe lookup --engine gamt|gale` runs the CPU builds");
    return LPM_ENODEV;
}

static int info(int argc, char **argv)
{
    int json = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--json"))
            json = 1;
        else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            help(stdout);
            return 0;
        } else {
            lpm_cli_error(cmd, "info: unexpected argument '%s'", argv[i]);
            return LPM_EINPUT;
        }
    }
    if (!lpm_gpu_built())
        return no_cuda();
    char dev[256];
    lpm_err err;
    if (lpm_gpu_probe(dev, sizeof dev, &err)) {
        lpm_cli_error(cmd, "%s", err.msg);
        if (json)
            printf("{\"device\":null}\n");
        return LPM_ENODEV;
    }
    if (json)
        printf("{\"device\":\"%s\"}\n", dev);
    else
        printf("CUDA device 0: %s\n", dev);
    return 0;
}

static void print_json(const lpm_gpu_bench_in *in, const lpm_gpu_bench_out *o, const char *engine,
                       double rate)
{
    printf("{\"device\":\"%s\",\"engine\":\"%s\",\"family\":%d,\"prefixes\":%zu,\"strides\":\"%s\","
           "\"batch\":%zu,\"streams\":%u,\"lookups\":%zu,\"seconds\":%.6f,"
           "\"e2e_lookups_per_s\":%.0f,\"kernel_lookups_per_s\":%.0f,\"copy_bound_lookups_per_s\":%.0f,"
           "\"h2d_gb_per_s\":%.3f,\"latency_mean_us\":%.2f,\"latency_p99_us\":%.2f,"
           "\"updates\":%zu,\"update_rate\":%.0f,\"updates_applied\":%zu,\"updates_per_s\":%.0f,"
           "\"bubbles\":%zu,\"rebuilds\":%zu,\"table_bytes\":%zu,"
           "\"checked\":%zu,\"mismatches\":%zu,\"inflight_other\":%zu}\n",
           o->device, engine, in->fib->family, in->fib->n, o->strides, in->batch, in->streams, in->n,
           o->seconds, o->e2e_lps, o->kernel_lps, o->copy_bound_lps, o->h2d_gbps, o->lat_mean_us,
           o->lat_p99_us, in->nupd, rate, o->updates_applied, o->updates_per_s, o->bubbles, o->rebuilds,
           o->table_bytes, o->checked, o->mismatches, o->inflight_other);
}

static void print_table(const lpm_gpu_bench_in *in, const lpm_gpu_bench_out *o, const char *engine)
{
    printf("device                 %s\n", o->device);
    printf("engine                 %s (IPv%d, %zu prefixes, strides %s)\n", engine, in->fib->family,
           in->fib->n, o->strides);
    printf("batch x streams        %zu x %u, %zu lookups\n", in->batch, in->streams, in->n);
    printf("end to end             %12.1f M lookups/s\n", o->e2e_lps / 1e6);
    printf("kernel only            %12.1f M lookups/s\n", o->kernel_lps / 1e6);
    printf("copy bound (H2D)       %12.1f M lookups/s (%.2f GB/s)\n", o->copy_bound_lps / 1e6, o->h2d_gbps);
    printf("batch latency          %12.1f us mean, %.1f us p99\n", o->lat_mean_us, o->lat_p99_us);
    printf("updates                %12zu applied, %.0f/s, %zu bubbles, %zu rebuilds\n", o->updates_applied,
           o->updates_per_s, o->bubbles, o->rebuilds);
    printf("checked                %12zu answers, %zu mismatches\n", o->checked, o->mismatches);
}

static int bench(int argc, char **argv)
{
    enum {
        O_FIB = LPM_OPT_FIRST_FREE, O_ENGINE, O_BATCH, O_STREAMS, O_LEVELS, O_COUNT, O_UPDATES,
        O_UTRACE, O_URATE, O_REPS, O_SEED, O_JSON
    };
    static const struct option lo[] = {
        { "fib", required_argument, 0, O_FIB },
        { "engine", required_argument, 0, O_ENGINE },
        { "batch", required_argument, 0, O_BATCH },
        { "streams", required_argument, 0, O_STREAMS },
        { "levels", required_argument, 0, O_LEVELS },
        { "count", required_argument, 0, O_COUNT },
        { "updates", required_argument, 0, O_UPDATES },
        { "update-trace", required_argument, 0, O_UTRACE },
        { "update-rate", required_argument, 0, O_URATE },
        { "reps", required_argument, 0, O_REPS },
        { "seed", required_argument, 0, O_SEED },
        { "json", no_argument, 0, O_JSON },
        { "help", no_argument, 0, 'h' },
        LPM_CLI_FIB_LONGOPTS,
        { 0, 0, 0, 0 },
    };
    lpm_fib_opts fo;
    lpm_fib_opts_default(&fo);
    const char *fib_path = NULL, *engine = NULL, *utrace = NULL;
    uint64_t batch = 1 << 20, count = 0, updates = 0, seed = 1;
    unsigned streams = 4, levels = 0, reps = 10;
    double rate = 70000;
    int json = 0, c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
        int r = lpm_cli_fib_option(cmd, c, optarg, &fo);
        if (r < 0)
            return LPM_EINPUT;
        if (r > 0)
            continue;
        int bad = 0;
        switch (c) {
        case O_FIB: fib_path = optarg; break;
        case O_ENGINE: engine = optarg; break;
        case O_BATCH: bad = lpm_cli_u64(cmd, "--batch", optarg, 1 << 10, 1 << 25, &batch); break;
        case O_STREAMS: bad = lpm_cli_uint(cmd, "--streams", optarg, 1, 32, &streams); break;
        case O_LEVELS: bad = lpm_cli_uint(cmd, "--levels", optarg, 1, 32, &levels); break;
        case O_COUNT: bad = lpm_cli_u64(cmd, "--count", optarg, 1, 1ULL << 28, &count); break;
        case O_UPDATES: bad = lpm_cli_u64(cmd, "--updates", optarg, 0, 100000000, &updates); break;
        case O_UTRACE: utrace = optarg; break;
        case O_URATE: bad = lpm_cli_double(cmd, "--update-rate", optarg, 0, 1e8, &rate); break;
        case O_REPS: bad = lpm_cli_uint(cmd, "--reps", optarg, 1, 10000, &reps); break;
        case O_SEED: bad = lpm_cli_u64(cmd, "--seed", optarg, 0, UINT64_MAX, &seed); break;
        case O_JSON: json = 1; break;
        case 'h': help(stdout); return 0;
        default: return lpm_cli_usage_error(cmd);
        }
        if (bad)
            return LPM_EINPUT;
    }
    if (optind < argc) {
        lpm_cli_error(cmd, "bench: unexpected argument '%s'", argv[optind]);
        return LPM_EINPUT;
    }
    if (!fib_path || !engine) {
        lpm_cli_error(cmd, "bench: --fib and --engine are required");
        return LPM_EINPUT;
    }
    int kind = !strcmp(engine, "gamt") ? LPM_GPU_GAMT : !strcmp(engine, "gale") ? LPM_GPU_GALE : -1;
    if (kind < 0) {
        lpm_cli_error(cmd, "--engine: '%s' is not gamt or gale", engine);
        return LPM_EINPUT;
    }
    if (updates && utrace) {
        lpm_cli_error(cmd, "--updates and --update-trace exclude each other");
        return LPM_EINPUT;
    }
    /* No device: say so before the (possibly long) table load. */
    if (!lpm_gpu_built())
        return no_cuda();
    char dev[256];
    lpm_err err;
    if (lpm_gpu_probe(dev, sizeof dev, &err)) {
        lpm_cli_error(cmd, "%s", err.msg);
        return LPM_ENODEV;
    }
    lpm_fib fib;
    lpm_fib_init(&fib);
    int rc = lpm_cli_load_fib(cmd, fib_path, &fo, &fib);
    if (rc)
        return rc;
    lpm_update *upd = NULL;
    size_t nupd = 0;
    lpm_addr *addr = NULL;
    lpm_ref *ref = NULL;
    if (kind == LPM_GPU_GALE && fib.family != LPM_AF_INET) {
        lpm_cli_error(cmd, "engine gale is IPv4 only");
        rc = LPM_EINPUT;
        goto out;
    }
    if (utrace && (rc = lpm_gpu_updates_load(utrace, &fib, &upd, &nupd, &err))) {
        lpm_cli_error(cmd, "%s", err.msg);
        goto out;
    }
    if (updates && (rc = lpm_gpu_updates_gen(&fib, (size_t)updates, seed + 1, &upd, &err))) {
        lpm_cli_error(cmd, "%s", err.msg);
        goto out;
    }
    if (updates)
        nupd = (size_t)updates;
    if (!count)
        count = batch * 8 > (1u << 22) ? batch * 8 : (1u << 22);
    if (!(addr = malloc((size_t)count * sizeof *addr))) {
        lpm_cli_error(cmd, "out of memory for %llu lookups", (unsigned long long)count);
        rc = LPM_EFAIL;
        goto out;
    }
    lpm_gpu_addrs(&fib, (size_t)count, seed, addr);
    if ((rc = lpm_ref_build(&ref, &fib, &err))) {
        lpm_cli_error(cmd, "%s", err.msg);
        goto out;
    }
    lpm_gpu_bench_in in = {
        .fib = &fib, .engine = kind, .levels = levels, .addr = addr, .n = (size_t)count,
        .batch = (size_t)batch, .streams = streams, .reps = reps, .upd = upd, .nupd = nupd,
        .update_rate = rate, .ref = ref,
    };
    lpm_gpu_bench_out o;
    if ((rc = lpm_gpu_bench(&in, &o, &err))) {
        lpm_cli_error(cmd, "%s", err.msg);
        goto out;
    }
    if (json)
        print_json(&in, &o, engine, rate);
    else
        print_table(&in, &o, engine);
    if (o.mismatches) {
        lpm_cli_error(cmd, "%zu answers differ from the reference", o.mismatches);
        rc = LPM_EFAIL;
    }
out:
    free(addr);
    free(upd);
    lpm_ref_free(ref);
    lpm_fib_free(&fib);
    return rc;
}

int lpm_cmd_gpu(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        help(argc < 2 ? stderr : stdout);
        return argc < 2 ? LPM_EINPUT : 0;
    }
    if (!strcmp(argv[1], "info"))
        return info(argc - 1, argv + 1);
    if (!strcmp(argv[1], "bench"))
        return bench(argc - 1, argv + 1);
    lpm_cli_error(cmd, "unknown subcommand '%s' (info, bench)", argv[1]);
    return LPM_EINPUT;
}
