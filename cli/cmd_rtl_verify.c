/* lpmpipe rtl verify: the generated Verilog against the simulator, cycle by
 * cycle. One stimulus (keys, bubbles with ready cycles) goes to both: the
 * simulator (lpmpipe sim, a child process, so that its own checks run
 * unchanged, and its request source the only one) writes the golden cycle
 * log and results; the Verilated model
 * (tb.cpp, built by Verilator's make, cached by content) writes its own;
 * this file compares them and checks every answer against the reference. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "cmd.h"
#include "../sim/bubble_file.h"
#include "../rtl_gen/rtl_gen.h"
#include "../rtl_gen/rtl_run.h"
#include "../rtl_gen/verify_cmp.h"

static const char *cmd = "rtl verify";

static void help(FILE *fp)
{
    fprintf(fp,
            "usage: lpmpipe rtl verify --image IMG (--trace F | --gen KIND [--count N] [--seed S])\n"
            "                          [--queue Q] [--issue-width W] [--rob R] [--hop-cycles D]\n"
            "                          [--ports P] [--updates U [--ignore-image-crc] [--update-rate R]\n"
            "                          [--clock-mhz F]] [--mutate M] [--vcd FILE] [--icarus]\n"
            "                          [--build-dir DIR] [--cache DIR] [--json]\n"
            "\n"
            "Builds the Verilated model of the generated pipeline, drives it with the\n"
            "stimulus lpmpipe sim gets, and compares every cycle: the cycle log and the\n"
            "result stream (id, next hop, exit cycle) must be identical, and every answer\n"
            "must equal the reference LPM. Prints 'N lookups, M cycles, K mismatches'.\n"
            "\n"
            "  --trace F / --gen KIND  the requests (as lpmpipe sim; --gen: uniform,\n"
            "                          random-match, table, zipf over the image's table)\n"
            "  --count N, --seed S     for --gen (default 10000, 1)\n"
            "  --queue Q --issue-width W --rob R   as lpmpipe sim (default 16, 1, 0)\n"
            "  --hop-cycles D --ports P   the cycle rules (docs/microarchitecture.md); the\n"
            "                          generated RTL implements 1 and 1 only (the default\n"
            "                          here), other values are refused\n"
            "  --updates U             bubble file (lpmpipe update --bubbles), checked\n"
            "                          against the image first\n"
            "  --ignore-image-crc      apply a bubble file made for another image\n"
            "  --update-rate R         updates per second (default: all at once)\n"
            "  --clock-mhz F           clock for the rate (default 200)\n"
            "  --mutate M              generate with a planted fault (queue-beats-pass):\n"
            "                          verify must then fail\n"
            "  --vcd FILE              waveform of the Verilated run (a separate build)\n"
            "  --icarus                also run the Icarus Verilog testbench, compare results\n"
            "  --build-dir DIR         work folder (default: a temporary one, removed)\n"
            "  --cache DIR             reuse Verilator builds of the same Verilog (default:\n"
            "                          $LPMPIPE_RTL_CACHE when set)\n"
            "  --json                  the summary as one JSON object\n");
}

/* The requests as the simulator saw them: its results file names every
 * id with its address (in output order), so --trace and --gen (and any
 * source the simulator grows) reach the testbench unchanged. Writes
 * keys.hex for the testbench and stim.trace (input order). */
static int read_stimulus(const char *simres, int fam, const char *dir, lpm_rtl_keys *keys, lpm_err *err)
{
    FILE *fp = fopen(simres, "r");
    if (!fp)
        return lpm_err_set(err, LPM_EFAIL, "%s: %s", simres, strerror(errno));
    char *line = NULL;
    size_t cap = 0;
    uint64_t ln = 0;
    int rc = LPM_OK;
    while (getline(&line, &cap, fp) > 0) {
        if (ln++ == 0)
            continue; /* header */
        char *c1 = strchr(line, ','), *c2 = c1 ? strchr(c1 + 1, ',') : NULL;
        if (!c1 || !c2) {
            rc = lpm_err_at(err, LPM_EFAIL, simres, (unsigned long)ln, "not a results line");
            break;
        }
        *c2 = '\0';
        uint64_t id = strtoull(line, NULL, 10);
        int f = fam;
        lpm_addr a;
        if (lpm_addr_parse(c1 + 1, &f, &a, err)) {
            rc = LPM_EFAIL;
            break;
        }
        if (id >= keys->cap) {
            size_t ncap = keys->cap ? keys->cap : 4096;
            while (ncap <= id)
                ncap *= 2;
            lpm_addr *p = realloc(keys->a, ncap * sizeof *p);
            if (!p) {
                rc = lpm_err_set(err, LPM_EFAIL, "out of memory");
                break;
            }
            memset(p + keys->cap, 0, (ncap - keys->cap) * sizeof *p);
            keys->a = p;
            keys->cap = ncap;
        }
        keys->a[id] = a;
        if (id + 1 > keys->n)
            keys->n = id + 1;
    }
    free(line);
    fclose(fp);
    if (rc)
        return rc;
    char path[4200];
    lpm_rtl_fmt(path, sizeof path, "%s/keys.hex", dir);
    FILE *kf = fopen(path, "w");
    lpm_rtl_fmt(path, sizeof path, "%s/stim.trace", dir);
    FILE *tf = fopen(path, "w");
    if (!kf || !tf) {
        if (kf)
            fclose(kf);
        if (tf)
            fclose(tf);
        return lpm_err_set(err, LPM_EFAIL, "%s: %s", dir, strerror(errno));
    }
    fprintf(kf, "%zu\n", keys->n);
    char txt[LPM_ADDR_STRLEN];
    for (size_t i = 0; i < keys->n; i++) {
        const lpm_addr *k = &keys->a[i];
        if (fam == LPM_AF_INET)
            fprintf(kf, "%08" PRIx64 "\n", k->hi >> 32);
        else
            fprintf(kf, "%016" PRIx64 "%016" PRIx64 "\n", k->hi, k->lo);
        lpm_addr_format(k, fam, txt, sizeof txt);
        fprintf(tf, "%s\n", txt);
    }
    int bad = ferror(kf) | ferror(tf);
    bad |= fclose(kf) | fclose(tf);
    return bad ? lpm_err_set(err, LPM_EFAIL, "%s: write failed", dir) : LPM_OK;
}

/* The bubble file's counts, and per bubble handed to the testbench the
 * position of its update (for updates.applied). */
typedef struct bub_count {
    uint64_t in_file, updates_in_file, applied, updates_applied;
    uint64_t *uord;
    size_t n, cap;
} bub_count;

/* Bubbles the RTL let in: the win:bK events of its cycle log (every one
 * leaves the pipeline before the testbench stops). */
static uint64_t rtl_bubbles_in(const char *log)
{
    FILE *fp = fopen(log, "r");
    if (!fp)
        return 0;
    uint64_t n = 0;
    char *line = NULL;
    size_t cap = 0;
    while (getline(&line, &cap, fp) > 0)
        for (const char *p = line; (p = strstr(p, " win:b")); p += 6)
            n++;
    free(line);
    fclose(fp);
    return n;
}

static void bub_count_finish(bub_count *bc, uint64_t applied)
{
    bc->applied = applied;
    if (applied < bc->n)
        bc->updates_applied = bc->uord[applied] - 1;
}

/* The bubbles as the simulator's bubble reader gives them, ready cycles included. */
static int write_bubbles(const char *updates, const lpm_image *img, int ignore_crc, double cpu, const char *dir,
                         uint64_t *nb, bub_count *bc, lpm_err *err)
{
    char path[4200];
    lpm_rtl_fmt(path, sizeof path, "%s/bubbles.txt", dir);
    FILE *fp = fopen(path, "w");
    if (!fp)
        return lpm_err_set(err, LPM_EFAIL, "%s: %s", path, strerror(errno));
    int rc = 0;
    *nb = 0;
    if (updates) {
        lpm_sim_bfile bf = { 0 };
        if ((rc = lpm_sim_bfile_open(&bf, updates, img, cpu, ignore_crc, err))) {
            fclose(fp);
            return rc;
        }
        lpm_sim_bubble *b = malloc(sizeof *b);
        if (!b) {
            lpm_sim_bfile_close(&bf);
            fclose(fp);
            return lpm_err_set(err, LPM_EFAIL, "out of memory");
        }
        int got;
        while ((got = lpm_sim_bfile_next(&bf, b, err)) == 1) {
            fprintf(fp, "%" PRIu64 " %u", b->ready, b->nw);
            for (unsigned j = 0; j < b->nw; j++) {
                if (b->w[j].stage == LPM_SIM_DIT)
                    fprintf(fp, " D");
                else
                    fprintf(fp, " %u", b->w[j].stage);
                fprintf(fp, ":%" PRIx32 ":%" PRIx64, b->w[j].addr, b->w[j].word);
            }
            fputc('\n', fp);
            if (bc->n == bc->cap) {
                size_t cap = bc->cap ? bc->cap * 2 : 1024;
                uint64_t *p = realloc(bc->uord, cap * sizeof *p);
                if (!p) {
                    got = -1;
                    lpm_err_set(err, LPM_EFAIL, "out of memory");
                    break;
                }
                bc->uord = p;
                bc->cap = cap;
            }
            bc->uord[bc->n++] = b->uord;
            (*nb)++;
        }
        if (got == 0 && (rc = lpm_sim_bfile_finish(&bf, *nb, err)) == 0) {
            bc->in_file = bf.in_file_bubbles;
            bc->updates_in_file = bc->updates_applied = bf.in_file_updates;
        }
        if (got < 0)
            rc = LPM_EINPUT;
        free(b);
        lpm_sim_bfile_close(&bf);
    }
    if (fclose(fp) && !rc)
        rc = lpm_err_set(err, LPM_EFAIL, "%s: write failed", path);
    return rc;
}

static int dir_exists(const char *d)
{
    struct stat st;
    return stat(d, &st) == 0 && S_ISDIR(st.st_mode);
}

static int file_exists(const char *f)
{
    return access(f, X_OK) == 0;
}

static void show_tail(const char *path, int lines)
{
    FILE *fp = fopen(path, "r");
    if (!fp)
        return;
    char buf[1024];
    char ring[16][1024];
    int n = 0;
    while (fgets(buf, sizeof buf, fp))
        lpm_rtl_fmt(ring[n++ % 16], sizeof ring[0], "%s", buf);
    fclose(fp);
    int start = n > lines ? n - lines : 0;
    for (int i = start; i < n; i++)
        fprintf(stderr, "  %s", ring[i % 16]);
}

/* The Verilated testbench: from the cache when the same Verilog was built
 * before, else built in rtl/ (and put into the cache). */
static int build_model(const char *rtl, const char *cache, int trace, char *exe, size_t exe_size, lpm_err *err)
{
    uint64_t h = 1469598103934665603ULL;
    char path[4200];
    static const char *fixed[] = { "lpm_top.v", "lpm_core.v", "lpm_dit.v", "tb.cpp", "tb_cfg.h", "Makefile" };
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++) {
        lpm_rtl_fmt(path, sizeof path, "%s/%s", rtl, fixed[i]);
        if (lpm_rtl_hash_file(path, &h))
            return lpm_err_set(err, LPM_EFAIL, "%s: cannot read", path);
    }
    for (unsigned s = 0;; s++) {
        lpm_rtl_fmt(path, sizeof path, "%s/lpm_stage_%02u.v", rtl, s);
        if (access(path, R_OK))
            break;
        lpm_rtl_hash_file(path, &h);
    }
    h ^= (uint64_t)trace;
    char cached[4200];
    if (cache) {
        lpm_rtl_fmt(cached, sizeof cached, "%s/%016" PRIx64 "/Vlpm_top", cache, h);
        if (file_exists(cached)) {
            lpm_rtl_fmt(exe, exe_size, "%s", cached);
            return LPM_OK;
        }
    }
    char log[4200], jobs[] = "JOBS=2";
    lpm_rtl_fmt(log, sizeof log, "%s/build.log", rtl);
    char *argv[] = { "make", "--no-print-directory", "tb", jobs, trace ? "TRACE=--trace" : NULL, NULL };
    int rc = lpm_rtl_run(argv, rtl, log, log);
    if (rc) {
        fprintf(stderr, "lpmpipe: %s: Verilator build failed (exit %d), the end of %s:\n", cmd, rc, log);
        show_tail(log, 12);
        return lpm_err_set(err, LPM_EFAIL, "the Verilated model did not build");
    }
    lpm_rtl_fmt(exe, exe_size, "%s/%s/Vlpm_top", rtl, trace ? "obj_dir_vcd" : "obj_dir");
    if (cache) {
        char d[4200];
        lpm_rtl_fmt(d, sizeof d, "%s/%016" PRIx64, cache, h);
        if (lpm_rtl_mkdirs(d) == 0 && lpm_rtl_copy(exe, cached) == 0)
            lpm_rtl_fmt(exe, exe_size, "%s", cached);
    }
    return LPM_OK;
}

static int rm_rf(const char *dir)
{
    char *argv[] = { "rm", "-rf", (char *)dir, NULL };
    return lpm_rtl_run(argv, NULL, NULL, NULL);
}

int lpm_rtl_cmd_verify(int argc, char **argv)
{
    enum {
        O_IMAGE = LPM_OPT_FIRST_FREE, O_TRACE, O_GEN, O_COUNT, O_SEED, O_QUEUE, O_WIDTH, O_ROB, O_UPD, O_URATE,
        O_CLOCK, O_MUT, O_VCD, O_ICARUS, O_BDIR, O_CACHE, O_JSON, O_HOP, O_PORTS, O_ICRC
    };
    static const struct option lo[] = {
        { "image", required_argument, 0, O_IMAGE },      { "trace", required_argument, 0, O_TRACE },
        { "gen", required_argument, 0, O_GEN },          { "count", required_argument, 0, O_COUNT },
        { "seed", required_argument, 0, O_SEED },        { "queue", required_argument, 0, O_QUEUE },
        { "issue-width", required_argument, 0, O_WIDTH }, { "rob", required_argument, 0, O_ROB },
        { "updates", required_argument, 0, O_UPD },      { "update-rate", required_argument, 0, O_URATE },
        { "clock-mhz", required_argument, 0, O_CLOCK },  { "mutate", required_argument, 0, O_MUT },
        { "vcd", required_argument, 0, O_VCD },          { "icarus", no_argument, 0, O_ICARUS },
        { "build-dir", required_argument, 0, O_BDIR },   { "cache", required_argument, 0, O_CACHE },
        { "json", no_argument, 0, O_JSON },              { "help", no_argument, 0, 'h' },
        { "hop-cycles", required_argument, 0, O_HOP },   { "ports", required_argument, 0, O_PORTS },
        { "ignore-image-crc", no_argument, 0, O_ICRC },
        { 0, 0, 0, 0 },
    };
    lpm_rtl_opts o = { .queue = 16, .width = 1, .hop = LPM_RTL_HOP, .ports = LPM_RTL_PORTS };
    const char *image = NULL, *trace = NULL, *gen = NULL, *updates = NULL, *vcd = NULL, *bdir = NULL;
    const char *cache = getenv("LPMPIPE_RTL_CACHE");
    uint64_t count = 10000, seed = 1;
    double urate = 0, clock_mhz = 200;
    int icarus = 0, json = 0, ignore_crc = 0, c;
    optind = 1;
    while ((c = lpm_cli_getopt(cmd, argc, argv, "h", lo)) != -1) {
        switch (c) {
        case O_IMAGE: image = optarg; break;
        case O_TRACE: trace = optarg; break;
        case O_GEN: gen = optarg; break;
        case O_COUNT: if (lpm_cli_u64(cmd, "--count", optarg, 1, 100000000, &count)) return 2; break;
        case O_SEED: if (lpm_cli_u64(cmd, "--seed", optarg, 0, UINT64_MAX, &seed)) return 2; break;
        case O_QUEUE: if (lpm_cli_uint(cmd, "--queue", optarg, 0, 4096, &o.queue)) return 2; break;
        case O_WIDTH: if (lpm_cli_uint(cmd, "--issue-width", optarg, 1, 16, &o.width)) return 2; break;
        case O_ROB: if (lpm_cli_uint(cmd, "--rob", optarg, 0, 65536, &o.rob)) return 2; break;
        case O_UPD: updates = optarg; break;
        case O_URATE: if (lpm_cli_double(cmd, "--update-rate", optarg, 0.0, 1e12, &urate)) return 2; break;
        case O_CLOCK: if (lpm_cli_double(cmd, "--clock-mhz", optarg, 1e-3, 1e6, &clock_mhz)) return 2; break;
        case O_MUT: if (lpm_rtl_parse_mutation(optarg, &o.mutate)) return 2; break;
        case O_VCD: vcd = optarg; break;
        case O_ICARUS: icarus = 1; break;
        case O_BDIR: bdir = optarg; break;
        case O_CACHE: cache = optarg; break;
        case O_JSON: json = 1; break;
        case O_HOP: if (lpm_cli_uint(cmd, "--hop-cycles", optarg, 1, 16, &o.hop)) return 2; break;
        case O_PORTS: if (lpm_cli_uint(cmd, "--ports", optarg, 1, 2, &o.ports)) return 2; break;
        case O_ICRC: ignore_crc = 1; break;
        case 'h': help(stdout); return 0;
        default: return lpm_cli_usage_error(cmd);
        }
    }
    if (optind < argc) {
        lpm_cli_error(cmd, "unexpected argument '%s'", argv[optind]);
        return 2;
    }
    if (!image || !!trace + !!gen != 1) {
        lpm_cli_error(cmd, "needs --image IMG and exactly one of --trace and --gen (see rtl verify --help)");
        return 2;
    }
    if ((urate > 0 || ignore_crc) && !updates) {
        lpm_cli_error(cmd, "%s needs --updates", ignore_crc ? "--ignore-image-crc" : "--update-rate");
        return 2;
    }
    if (updates && !strcmp(updates, "-")) {
        lpm_cli_error(cmd, "--updates: the simulator and the testbench both read the bubble file: give a file, not '-'");
        return 2;
    }
    static const char *const kinds[] = { "uniform", "random-match", "table", "zipf" };
    int known = !gen;
    for (int i = 0; gen && i < 4; i++)
        known |= !strcmp(gen, kinds[i]);
    if (!known) {
        lpm_cli_error(cmd, "--gen: unknown kind '%s' (uniform, random-match, table, zipf)", gen);
        return 2;
    }
    if (o.rob && o.rob < o.width) {
        lpm_cli_error(cmd, "--rob %u: must be 0 or at least the issue width %u", o.rob, o.width);
        return 2;
    }
    if (o.hop != LPM_RTL_HOP || o.ports != LPM_RTL_PORTS) {
        /* comparing against the simulator at rules the RTL does not implement would only report mismatches */
        lpm_cli_error(cmd, "--hop-cycles %u --ports %u: the generated RTL implements the one-cycle rules only "
                           "(--hop-cycles %u --ports %u); the v2 RTL is not written yet",
                      o.hop, o.ports, LPM_RTL_HOP, LPM_RTL_PORTS);
        return 2;
    }
    if (!lpm_rtl_tool_exists("verilator")) {
        lpm_cli_error(cmd, "needs verilator on the PATH (scripts/deps.sh installs it)");
        return 1;
    }

    lpm_err err;
    lpm_image *img = NULL;
    int rc = lpm_image_load(&img, image, &err);
    if (rc) {
        lpm_cli_error(cmd, "%s", err.msg);
        return rc;
    }
    lpm_rtl_shape sh;
    if ((rc = lpm_rtl_shape_of(img, &o, &sh, &err))) {
        lpm_cli_error(cmd, "%s", err.msg);
        lpm_image_free(img);
        return rc;
    }
    char work[4096], rtl[4200], simlog[4200], simres[4200], rtllog[4200], rtlres[4200];
    int tmp = 0;
    if (bdir) {
        lpm_rtl_fmt(work, sizeof work, "%s", bdir);
        if (lpm_rtl_mkdirs(work)) {
            lpm_cli_error(cmd, "%s: %s", work, strerror(errno));
            lpm_image_free(img);
            return 1;
        }
    } else {
        const char *t = getenv("TMPDIR");
        lpm_rtl_fmt(work, sizeof work, "%s/lpmpipe-rtl.XXXXXX", t && *t ? t : "/tmp");
        if (!mkdtemp(work)) {
            lpm_cli_error(cmd, "%s: %s", work, strerror(errno));
            lpm_image_free(img);
            return 1;
        }
        tmp = 1;
    }
    char *abs = realpath(work, NULL);
    if (abs) {
        lpm_rtl_fmt(work, sizeof work, "%s", abs);
        free(abs);
    }
    char cache_abs[4096];
    if (cache && *cache) {
        char *ca = lpm_rtl_mkdirs(cache) == 0 ? realpath(cache, NULL) : NULL;
        if (ca) {
            lpm_rtl_fmt(cache_abs, sizeof cache_abs, "%s", ca);
            free(ca);
            cache = cache_abs;
        } else {
            cache = NULL;
        }
    } else {
        cache = NULL;
    }
    lpm_rtl_fmt(rtl, sizeof rtl, "%s/rtl", work);
    lpm_rtl_keys keys = { 0 };
    lpm_rtl_cmp cmp = { 0 };
    uint64_t nbub = 0;
    bub_count bc = { 0 };
    double cpu = urate > 0 ? clock_mhz * 1e6 / urate : 0.0;
    if ((rc = lpm_rtl_generate(img, image, &o, rtl, &err)) ||
        (rc = write_bubbles(updates, img, ignore_crc, cpu, work, &nbub, &bc, &err))) {
        if (err.msg[0])
            lpm_cli_error(cmd, "%s", err.msg);
        goto out;
    }

    /* the golden reference: lpmpipe sim on the same stimulus */
    lpm_rtl_fmt(simlog, sizeof simlog, "%s/sim.log", work);
    lpm_rtl_fmt(simres, sizeof simres, "%s/sim.csv", work);
    {
        char q[16], wd[16], rb[16], hop[16], ports[16], ur[64], ck[64], cnt[32], sd[32], out[4200], errf[4200];
        lpm_rtl_fmt(hop, sizeof hop, "%u", o.hop);
        lpm_rtl_fmt(ports, sizeof ports, "%u", o.ports);
        lpm_rtl_fmt(q, sizeof q, "%u", o.queue);
        lpm_rtl_fmt(wd, sizeof wd, "%u", o.width);
        lpm_rtl_fmt(rb, sizeof rb, "%u", o.rob);
        lpm_rtl_fmt(ur, sizeof ur, "%.17g", urate);
        lpm_rtl_fmt(ck, sizeof ck, "%.17g", clock_mhz);
        lpm_rtl_fmt(cnt, sizeof cnt, "%" PRIu64, count);
        lpm_rtl_fmt(sd, sizeof sd, "%" PRIu64, seed);
        lpm_rtl_fmt(out, sizeof out, "%s/sim.json", work);
        lpm_rtl_fmt(errf, sizeof errf, "%s/sim.err", work);
        char *sargv[40];
        int n = 0;
        sargv[n++] = "/proc/self/exe";
        sargv[n++] = "sim";
        sargv[n++] = "--image";
        sargv[n++] = (char *)image;
        if (trace) {
            sargv[n++] = "--trace";
            sargv[n++] = (char *)trace;
        } else {
            sargv[n++] = "--gen";
            sargv[n++] = (char *)gen;
            sargv[n++] = "--count";
            sargv[n++] = cnt;
            sargv[n++] = "--seed";
            sargv[n++] = sd;
        }
        sargv[n++] = "--queue";
        sargv[n++] = q;
        sargv[n++] = "--issue-width";
        sargv[n++] = wd;
        sargv[n++] = "--rob";
        sargv[n++] = rb;
        sargv[n++] = "--hop-cycles";
        sargv[n++] = hop;
        sargv[n++] = "--ports";
        sargv[n++] = ports;
        sargv[n++] = "--json";
        sargv[n++] = "--cycle-log";
        sargv[n++] = simlog;
        sargv[n++] = "--results";
        sargv[n++] = simres;
        if (updates) {
            sargv[n++] = "--updates";
            sargv[n++] = (char *)updates;
            if (ignore_crc)
                sargv[n++] = "--ignore-image-crc";
            sargv[n++] = "--clock-mhz";
            sargv[n++] = ck;
            if (urate > 0) {
                sargv[n++] = "--update-rate";
                sargv[n++] = ur;
            }
        } else {
            sargv[n++] = "--verify";
        }
        sargv[n] = NULL;
        int s = lpm_rtl_run(sargv, NULL, out, errf);
        if (s) {
            /* The simulator's own messages, in this command's name: for a bad
             * trace or bubble file they are the input error the user made. */
            FILE *ef = fopen(errf, "r");
            char line[1024];
            int shown = 0;
            while (ef && fgets(line, sizeof line, ef) && shown < 8) {
                line[strcspn(line, "\n")] = '\0';
                const char *m = strncmp(line, "lpmpipe: sim: ", 14) ? line : line + 14;
                lpm_cli_error(cmd, "%s%s", shown++ ? "" : "the simulator: ", m);
            }
            if (ef)
                fclose(ef);
            if (!shown)
                lpm_cli_error(cmd, "the simulator failed (exit %d) without a message", s);
            rc = s == LPM_EINPUT ? LPM_EINPUT : LPM_EFAIL;
            goto out;
        }
    }

    if ((rc = read_stimulus(simres, lpm_image_family(img), work, &keys, &err))) {
        lpm_cli_error(cmd, "%s", err.msg);
        goto out;
    }

    /* the Verilated model on the same stimulus */
    char exe[4200];
    if ((rc = build_model(rtl, cache, vcd != NULL, exe, sizeof exe, &err))) {
        lpm_cli_error(cmd, "%s", err.msg);
        goto out;
    }
    {
        /* where the model is, for scripts that time it (scripts/bench.d/60-rtl.sh) */
        char mp[4200];
        lpm_rtl_fmt(mp, sizeof mp, "%s/model.path", work);
        FILE *mf = fopen(mp, "w");
        if (mf) {
            fprintf(mf, "%s\n", exe);
            fclose(mf);
        }
    }
    lpm_rtl_fmt(rtllog, sizeof rtllog, "%s/rtl.log", work);
    lpm_rtl_fmt(rtlres, sizeof rtlres, "%s/rtl.res", work);
    {
        char k[4200], b[4200], errf[4200], vcdabs[4200];
        lpm_rtl_fmt(k, sizeof k, "%s/keys.hex", work);
        lpm_rtl_fmt(b, sizeof b, "%s/bubbles.txt", work);
        lpm_rtl_fmt(errf, sizeof errf, "%s/tb.err", work);
        if (vcd && vcd[0] != '/') {
            char cwd[2048];
            if (!getcwd(cwd, sizeof cwd))
                cwd[0] = '\0';
            lpm_rtl_fmt(vcdabs, sizeof vcdabs, "%s/%s", cwd, vcd);
        } else if (vcd) {
            lpm_rtl_fmt(vcdabs, sizeof vcdabs, "%s", vcd);
        }
        char *targv[] = { exe, k, b, rtllog, rtlres, vcd ? vcdabs : NULL, NULL };
        int s = lpm_rtl_run(targv, rtl, NULL, errf);
        if (s) {
            lpm_cli_error(cmd, "the Verilated testbench failed (exit %d):", s);
            show_tail(errf, 8);
            rc = 1;
            goto out;
        }
        cmp.tb_note_path = errf;
    }

    /* the comparison */
    cmp.img = img;
    cmp.keys = &keys;
    cmp.check_ref = updates == NULL;
    if ((rc = lpm_rtl_compare(&cmp, simlog, rtllog, simres, rtlres, &err))) {
        lpm_cli_error(cmd, "%s", err.msg);
        goto out;
    }
    if (icarus && (rc = lpm_rtl_icarus(&cmp, rtl, work, updates != NULL, simres, &err))) {
        lpm_cli_error(cmd, "%s", err.msg);
        goto out;
    }
    bub_count_finish(&bc, updates ? rtl_bubbles_in(rtllog) : 0);
    if (json)
        printf("{\"lookups\":%zu,\"cycles\":%" PRIu64 ",\"bubbles\":{\"in_file\":%" PRIu64 ",\"applied\":%" PRIu64
               ",\"left\":%" PRIu64 "},\"updates\":{\"in_file\":%" PRIu64 ",\"applied\":%" PRIu64 "},"
               "\"cycle_mismatches\":%" PRIu64
               ",\"result_mismatches\":%" PRIu64 ",\"reference_checked\":%" PRIu64 ",\"reference_mismatches\":%" PRIu64
               ",\"icarus\":%s,\"mismatches\":%" PRIu64 "}\n",
               keys.n, cmp.cycles, bc.in_file, bc.applied, bc.in_file - bc.applied, bc.updates_in_file,
               bc.updates_applied, cmp.cycle_bad, cmp.result_bad, cmp.ref_checked, cmp.ref_bad,
               icarus ? (cmp.icarus_bad ? "\"differs\"" : "\"same\"") : "null", lpm_rtl_cmp_total(&cmp));
    else
        printf("%zu lookups, %" PRIu64 " cycles, %" PRIu64 " mismatches\n", keys.n, cmp.cycles,
               lpm_rtl_cmp_total(&cmp));
    if (updates && !json)
        printf("updates: %" PRIu64 " of %" PRIu64 " simulated; bubbles: %" PRIu64 " applied, %" PRIu64
               " left of %" PRIu64 " in the file\n",
               bc.updates_applied, bc.updates_in_file, bc.applied, bc.in_file - bc.applied, bc.in_file);
    if (updates && bc.in_file > bc.applied)
        lpm_cli_error(cmd, "note: the lookups ended before the updates: %" PRIu64 " of %" PRIu64
                           " bubbles were not simulated", bc.in_file - bc.applied, bc.in_file);
    if (lpm_rtl_cmp_total(&cmp)) {
        if (cmp.first_cycle != UINT64_MAX)
            lpm_cli_error(cmd, "RTL and simulator differ, first at cycle %" PRIu64, cmp.first_cycle);
        else
            lpm_cli_error(cmd, "RTL and simulator differ");
        rc = 1;
    }
out:
    free(keys.a);
    free(bc.uord);
    lpm_image_free(img);
    if (tmp && !getenv("LPMPIPE_RTL_KEEP"))
        rm_rf(work);
    else if (tmp)
        lpm_cli_note(cmd, "work folder kept: %s", work);
    (void)dir_exists;
    return rc;
}
