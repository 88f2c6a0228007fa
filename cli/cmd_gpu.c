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

/* "gpu", then "gpu info" or "gpu bench". */
static const char *cmd = "gpu";

static void help(FILE *fp)
{
    fprintf(fp,
            "usage: lpmpipe gpu info [--json]\n"
            "       lpmpipe gpu bench --fib F --engine gamt|gale [--batch B] [--streams S] [--levels H]\n"
            "                         [--count N] [--seconds T] [--check N] [--rebuild-every N]\n"
            "                         [--updates U | --update-trace F] [--update-rate R]\n"
            "                         [--reps R] [--seed N] [--json] [FIB options]\n"
            "\n"
            "Runs the CUDA engines. Exit status 3 when no CUDA device is present (or the\n"
            "binary was built without nvcc); the CPU builds of both engines are always\n"
            "available as `lpmpipe lookup --engine gamt|gale`.\n"
            "\n"
            "bench options:\n"
            "  --fib F             the table (any format lpmpipe fib reads)\n"
            "  --engine E          gamt (IPv4, IPv6 first 64 bits) or gale (IPv4)\n"
            "  --batch B[,B...]    lookups per batch, 1024..33554432 (default 1048576)\n"
            "  --streams S[,S...]  CUDA streams, 1..32 (default 4); lists run every pair\n"
            "                      on one build, one JSON line each\n"
            "  --levels H          GAMT trie levels, 1..32 (default 4 for IPv4, 8 for IPv6)\n"
            "  --count N           distinct lookups (default 8 x batch x streams of the\n"
            "                      largest pair, within 2^22..2^28)\n"
            "  --seconds T         run end to end at least T s, the N lookups over and over\n"
            "                      (default 0: one pass)\n"
            "  --check N           answers compared with the reference: an even sample of N\n"
            "                      (default 0: all of them)\n"
            "  --updates U         route updates applied during the run (generated)\n"
            "  --update-trace F    route updates from a file instead (time a|w prefix nh;\n"
            "                      --mask-host-bits applies to it as to the table)\n"
            "  --update-rate R     updates per second of wall time (default 70000)\n"
            "  --rebuild-every N   GAMT: rebuild and swap copies after every N updates;\n"
            "                      GALE: upload the table again (default 0: never)\n"
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

/* Device 0's name into dev, or the reason there is none (exit 3). */
static int device(char *dev, size_t size)
{
    if (!lpm_gpu_built())
        return no_cuda();
    lpm_err err;
    if (lpm_gpu_probe(dev, size, &err)) {
        lpm_cli_error(cmd, "%s", err.msg);
        return LPM_ENODEV;
    }
    return 0;
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
            lpm_cli_error(cmd, "unexpected argument '%s'", argv[i]);
            return LPM_EINPUT;
        }
    }
    char dev[256];
    int rc = device(dev, sizeof dev);
    if (rc) {
        if (json && lpm_gpu_built())
            printf("{\"device\":null}\n");
        return rc;
    }
    if (json)
        printf("{\"device\":\"%s\"}\n", dev);
    else
        printf("CUDA device 0: %s\n", dev);
    return 0;
}

static void print_json(const lpm_gpu_bench_in *in, const lpm_gpu_bench_out *o, const char *engine)
{
    printf("{\"device\":\"%s\",\"engine\":\"%s\",\"family\":%d,\"prefixes\":%zu,\"strides\":\"%s\","
           "\"batch\":%zu,\"streams\":%u,\"count\":%zu,\"lookups\":%zu,\"seconds\":%.6f,"
           "\"e2e_lookups_per_s\":%.0f,\"kernel_lookups_per_s\":%.0f,\"copy_bound_lookups_per_s\":%.0f,"
           "\"h2d_gb_per_s\":%.3f,\"d2h_gb_per_s\":%.3f,\"latency_mean_us\":%.2f,\"latency_p99_us\":%.2f,"
           "\"latency_max_us\":%.2f,\"updates\":%zu,\"update_rate\":%.0f,\"updates_applied\":%zu,"
           "\"updates_per_s\":%.0f,\"update_host_seconds\":%.6f,\"rebuild_every\":%zu,"
           "\"bubbles\":%zu,\"rebuilds\":%zu,\"table_bytes\":%zu,\"host_answers\":%zu,"
           "\"checked\":%zu,\"mismatches\":%zu,\"stale\":%zu,\"inflight_other\":%zu}\n",
           o->device, engine, in->fib->family, in->fib->n, o->strides, in->batch, in->streams, in->n, o->lookups,
           o->seconds, o->e2e_lps, o->kernel_lps, o->copy_bound_lps, o->h2d_gbps, o->d2h_gbps, o->lat_mean_us,
           o->lat_p99_us, o->lat_max_us, in->nupd, in->update_rate, o->updates_applied, o->updates_per_s,
           o->update_seconds, in->rebuild_every, o->bubbles, o->rebuilds, o->table_bytes, o->host_answers,
           o->checked, o->mismatches, o->stale, o->inflight_other);
    fflush(stdout);
}

static void print_table(const lpm_gpu_bench_in *in, const lpm_gpu_bench_out *o, const char *engine)
{
    printf("device                 %s\n", o->device);
    printf("engine                 %s (IPv%d, %zu prefixes, strides %s)\n", engine, in->fib->family,
           in->fib->n, o->strides);
    printf("batch x streams        %zu x %u, %zu lookups (%zu distinct)\n", in->batch, in->streams, o->lookups,
           in->n);
    printf("end to end             %12.1f M lookups/s\n", o->e2e_lps / 1e6);
    printf("kernel only            %12.1f M lookups/s\n", o->kernel_lps / 1e6);
    printf("copy bound (PCIe)      %12.1f M lookups/s (H2D %.2f GB/s, D2H %.2f GB/s)\n", o->copy_bound_lps / 1e6,
           o->h2d_gbps, o->d2h_gbps);
    printf("batch latency          %12.1f us mean, %.1f us p99, %.1f us max\n", o->lat_mean_us, o->lat_p99_us,
           o->lat_max_us);
    printf("updates                %12zu applied, %.0f/s, %zu bubbles, %zu rebuilds\n", o->updates_applied,
           o->updates_per_s, o->bubbles, o->rebuilds);
    printf("checked                %12zu answers, %zu mismatches, %zu stale\n\n", o->checked, o->mismatches,
           o->stale);
}

/* Every (batch, streams) pair on one build; the first failure stops. */
static int run_points(const lpm_gpu_bench_in *base, const uint64_t *batches, size_t nbat,
                      const uint64_t *streams, size_t nst, const char *engine, int json)
{
    lpm_gpu_session *s;
    lpm_err err;
    int rc = lpm_gpu_open(&s, base->fib, base->engine, base->levels, &err);
    if (rc) {
        lpm_cli_error(cmd, "%s", err.msg);
        return rc;
    }
    for (size_t i = 0; i < nbat && !rc; i++)
        for (size_t j = 0; j < nst && !rc; j++) {
            lpm_gpu_bench_in in = *base;
            in.batch = (size_t)batches[i];
            in.streams = (unsigned)streams[j];
            /* Each point takes 8 batches per stream (at least 2^22 lookups)
             * of the address pool, so small points stay short. */
            size_t want = in.batch * in.streams * 8 > ((size_t)1 << 22) ? in.batch * in.streams * 8 : (size_t)1 << 22;
            if (base->seconds == 0 && want < in.n)
                in.n = want;
            lpm_gpu_bench_out o;
            if ((rc = lpm_gpu_run(s, &in, &o, &err))) {
                lpm_cli_error(cmd, "%s", err.msg);
                break;
            }
            if (json)
                print_json(&in, &o, engine);
            else
                print_table(&in, &o, engine);
            if (o.mismatches || o.stale) {
                lpm_cli_error(cmd, "%zu answers differ from the reference, %zu read head room", o.mismatches,
                              o.stale);
                rc = LPM_EFAIL;
            }
        }
    lpm_gpu_close(s);
    return rc;
}

typedef struct {
    const char *fib_path, *engine, *utrace;
    lpm_fib_opts fo;
    uint64_t batches[32], streams[32], count, updates, seed, check, rebuild_every;
    size_t nbat, nst;
    unsigned levels, reps;
    double rate, seconds;
    int json, kind;
} bench_opts;

/* Options into o; returns 0, an exit status, or -1 after --help. */
static int parse_bench(int argc, char **argv, bench_opts *o)
{
    enum {
        O_FIB = LPM_OPT_FIRST_FREE, O_ENGINE, O_BATCH, O_STREAMS, O_LEVELS, O_COUNT, O_UPDATES,
        O_UTRACE, O_URATE, O_REPS, O_SEED, O_JSON, O_SECONDS, O_CHECK, O_REBUILD
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
        { "seconds", required_argument, 0, O_SECONDS },
        { "check", required_argument, 0, O_CHECK },
        { "rebuild-every", required_argument, 0, O_REBUILD },
        { "help", no_argument, 0, 'h' },
        LPM_CLI_FIB_LONGOPTS,
        { 0, 0, 0, 0 },
    };
    memset(o, 0, sizeof *o);
    lpm_fib_opts_default(&o->fo);
    o->batches[0] = 1 << 20;
    o->streams[0] = 4;
    o->nbat = o->nst = 1;
    o->seed = 1;
    o->reps = 10;
    o->rate = 70000;
    int c;
    optind = 1;
    while ((c = lpm_cli_getopt(cmd, argc, argv, "h", lo)) != -1) {
        int r = lpm_cli_fib_option(cmd, c, optarg, &o->fo);
        if (r < 0)
            return LPM_EINPUT;
        if (r > 0)
            continue;
        int bad = 0;
        switch (c) {
        case O_FIB: o->fib_path = optarg; break;
        case O_ENGINE: o->engine = optarg; break;
        case O_BATCH: bad = lpm_cli_u64_list(cmd, "--batch", optarg, 1 << 10, 1 << 25, o->batches, 32, &o->nbat); break;
        case O_STREAMS:
            bad = lpm_cli_u64_list(cmd, "--streams", optarg, 1, LPM_GPU_STREAMS_MAX, o->streams, 32, &o->nst);
            break;
        case O_SECONDS: bad = lpm_cli_double(cmd, "--seconds", optarg, 0, 3600, &o->seconds); break;
        case O_CHECK: bad = lpm_cli_u64(cmd, "--check", optarg, 0, 1ULL << 28, &o->check); break;
        case O_REBUILD: bad = lpm_cli_u64(cmd, "--rebuild-every", optarg, 0, 100000000, &o->rebuild_every); break;
        case O_LEVELS: bad = lpm_cli_uint(cmd, "--levels", optarg, 1, 32, &o->levels); break;
        case O_COUNT: bad = lpm_cli_u64(cmd, "--count", optarg, 1, 1ULL << 28, &o->count); break;
        case O_UPDATES: bad = lpm_cli_u64(cmd, "--updates", optarg, 0, 100000000, &o->updates); break;
        case O_UTRACE: o->utrace = optarg; break;
        case O_URATE: bad = lpm_cli_double(cmd, "--update-rate", optarg, 0, 1e8, &o->rate); break;
        case O_REPS: bad = lpm_cli_uint(cmd, "--reps", optarg, 1, 10000, &o->reps); break;
        case O_SEED: bad = lpm_cli_u64(cmd, "--seed", optarg, 0, UINT64_MAX, &o->seed); break;
        case O_JSON: o->json = 1; break;
        case 'h': help(stdout); return -1;
        default: return lpm_cli_usage_error(cmd);
        }
        if (bad)
            return LPM_EINPUT;
    }
    if (optind < argc) {
        lpm_cli_error(cmd, "unexpected argument '%s'", argv[optind]);
        return LPM_EINPUT;
    }
    return 0;
}

/* Checks that need no device; picks the default count. */
static int check_bench(bench_opts *o)
{
    if (!o->fib_path || !o->engine) {
        lpm_cli_error(cmd, "--fib and --engine are required");
        return LPM_EINPUT;
    }
    o->kind = !strcmp(o->engine, "gamt") ? LPM_GPU_GAMT : !strcmp(o->engine, "gale") ? LPM_GPU_GALE : -1;
    if (o->kind < 0) {
        lpm_cli_error(cmd, "--engine: '%s' is not gamt or gale", o->engine);
        return LPM_EINPUT;
    }
    if (o->updates && o->utrace) {
        lpm_cli_error(cmd, "--updates and --update-trace exclude each other");
        return LPM_EINPUT;
    }
    if ((o->updates || o->utrace) && o->nbat * o->nst > 1) {
        lpm_cli_error(cmd, "updates change the table: give one --batch and one --streams with them");
        return LPM_EINPUT;
    }
    uint64_t most = 0; /* the largest batch x streams: every stream needs a batch */
    for (size_t i = 0; i < o->nbat; i++)
        for (size_t j = 0; j < o->nst; j++)
            if (o->batches[i] * o->streams[j] > most)
                most = o->batches[i] * o->streams[j];
    if (!o->count)
        o->count = most * 8 < (1u << 22) ? (1u << 22) : most * 8 > (1u << 28) ? (1u << 28) : most * 8;
    if (o->count < most) {
        lpm_cli_error(cmd, "--count %llu does not give each stream a batch (batch x streams is up to %llu)",
                      (unsigned long long)o->count, (unsigned long long)most);
        return LPM_EINPUT;
    }
    return 0;
}

/* Table, updates, lookups and the reference, then every point. */
static int load_and_run(const bench_opts *o)
{
    lpm_err err;
    lpm_fib fib;
    lpm_fib_init(&fib);
    int rc = lpm_cli_load_fib(cmd, o->fib_path, &o->fo, &fib);
    if (rc)
        return rc;
    lpm_update *upd = NULL;
    size_t nupd = 0;
    lpm_addr *addr = NULL;
    lpm_ref *ref = NULL;
    if (o->kind == LPM_GPU_GALE && fib.family != LPM_AF_INET) {
        lpm_cli_error(cmd, "engine gale is IPv4 only");
        rc = LPM_EINPUT;
        goto out;
    }
    if (o->utrace && (rc = lpm_gpu_updates_load(o->utrace, &fib, o->fo.mask_host_bits, &upd, &nupd, &err))) {
        lpm_cli_error(cmd, "%s", err.msg);
        goto out;
    }
    if (o->updates && (rc = lpm_gpu_updates_gen(&fib, (size_t)o->updates, o->seed + 1, &upd, &err))) {
        lpm_cli_error(cmd, "%s", err.msg);
        goto out;
    }
    if (o->updates)
        nupd = (size_t)o->updates;
    if (!(addr = malloc((size_t)o->count * sizeof *addr))) {
        lpm_cli_error(cmd, "out of memory for %llu lookups", (unsigned long long)o->count);
        rc = LPM_EFAIL;
        goto out;
    }
    lpm_gpu_addrs(&fib, (size_t)o->count, o->seed, addr);
    if ((rc = lpm_ref_build(&ref, &fib, &err))) {
        lpm_cli_error(cmd, "%s", err.msg);
        goto out;
    }
    lpm_gpu_bench_in in = {
        .fib = &fib, .engine = o->kind, .levels = o->levels, .addr = addr, .n = (size_t)o->count,
        .pool = (size_t)o->count,
        .reps = o->reps, .seconds = o->seconds, .check = (size_t)o->check, .upd = upd, .nupd = nupd,
        .update_rate = o->rate, .rebuild_every = (size_t)o->rebuild_every, .ref = ref,
    };
    rc = run_points(&in, o->batches, o->nbat, o->streams, o->nst, o->engine, o->json);
out:
    free(addr);
    free(upd);
    lpm_ref_free(ref);
    lpm_fib_free(&fib);
    return rc;
}

static int bench(int argc, char **argv)
{
    bench_opts o;
    int rc = parse_bench(argc, argv, &o);
    if (rc)
        return rc < 0 ? 0 : rc;
    if ((rc = check_bench(&o)))
        return rc;
    /* No device: say so before the (possibly long) table load. */
    char dev[256];
    return (rc = device(dev, sizeof dev)) ? rc : load_and_run(&o);
}

int lpm_cmd_gpu(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        help(argc < 2 ? stderr : stdout);
        return argc < 2 ? LPM_EINPUT : 0;
    }
    if (!strcmp(argv[1], "info")) {
        cmd = "gpu info";
        return info(argc - 1, argv + 1);
    }
    if (!strcmp(argv[1], "bench")) {
        cmd = "gpu bench";
        return bench(argc - 1, argv + 1);
    }
    lpm_cli_error(cmd, "unknown subcommand '%s' (info, bench)", argv[1]);
    return LPM_EINPUT;
}
