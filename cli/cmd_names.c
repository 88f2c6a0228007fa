/* lpmpipe names: NDN name tables and the name lookup engines. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "cmd.h"
#include "../core/rng.h"
#include "../names/interweave.h"
#include "../names/naa.h"
#include "../names/nengine.h"
#include "../names/ngpu.h"
#include "../names/nref.h"
#include "../names/ntable.h"
#include "../names/ntrace.h"

/* "names", then "names SUB" once the subcommand is known (messages name it). */
static const char *CMD = "names";
static char cmd_buf[32];

enum {
    O_TABLE = LPM_OPT_FIRST_FREE, O_DOMAINS, O_PORTS, O_LIMIT, O_NOAGG, O_SKIP, O_JSON, O_STRUCT,
    O_STRIDE, O_PRIMES, O_KIND, O_COUNT, O_SEED, O_PATHS, O_RANK, O_ZIPF, O_ENGINE, O_VERIFY,
    O_TRACE, O_UPDATES, O_REPEAT, O_BATCH, O_STREAMS, O_THREADS, O_ASTRIDE, O_MSTRIDE, O_MAXENT
};

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts); /* CPU time: the machine is shared */
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int fail(int rc, const lpm_err *e)
{
    lpm_cli_error(CMD, "%s", e->msg);
    return rc;
}

static int is_prime(uint32_t p)
{
    if (p < 2)
        return 0;
    for (uint32_t d = 2; (uint64_t)d * d <= p; d++)
        if (p % d == 0)
            return 0;
    return 1;
}

/* "--primes a,b,c": ascending primes in 97..2^24. */
static int parse_primes(const char *arg, lpm_naa_opts *o)
{
    char buf[256];
    if (strlen(arg) >= sizeof buf)
        goto bad;
    strcpy(buf, arg);
    memset(o->primes, 0, sizeof o->primes);
    unsigned k = 0;
    for (char *save, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        unsigned v;
        if (k == LPM_NAA_MAX_PRIMES || lpm_cli_uint(CMD, "--primes", t, 97, 1u << 24, &v))
            goto bad;
        if (!is_prime(v) || (k && v <= o->primes[k - 1]))
            goto bad;
        o->primes[k++] = v;
    }
    if (k)
        return 0;
bad:
    lpm_cli_error(CMD, "--primes: '%s' is not a list of up to 8 ascending primes in 97..16777216", arg);
    return LPM_EINPUT;
}

/* Refuses leftover arguments of a subcommand that takes none. */
static int no_args(int argc, char **argv, const char *sub)
{
    if (optind >= argc)
        return 0;
    (void)sub;
    lpm_cli_error(CMD, "unexpected argument '%s'", argv[optind]);
    return LPM_EINPUT;
}

static int load_table(const char *path, int skip_bad, lpm_ntable *t)
{
    lpm_err e;
    size_t skipped = 0;
    if (!path) {
        lpm_cli_error(CMD, "--table is required");
        return LPM_EINPUT;
    }
    int rc = lpm_ntable_load(t, path, skip_bad, &skipped, &e);
    if (rc)
        return fail(rc, &e);
    if (skipped)
        fprintf(stderr, "lpmpipe: %s: %s: %zu bad line%s skipped\n", CMD, path, skipped, skipped == 1 ? "" : "s");
    return 0;
}

/* ---- names build ---- */
static int cmd_build(int argc, char **argv)
{
    static const struct option lo[] = {
        { "domains", required_argument, 0, O_DOMAINS }, { "ports", required_argument, 0, O_PORTS },
        { "limit", required_argument, 0, O_LIMIT },     { "no-aggregate", no_argument, 0, O_NOAGG },
        { "skip-bad", no_argument, 0, O_SKIP },         { "output", required_argument, 0, 'o' },
        { "help", no_argument, 0, 'h' },                { 0, 0, 0, 0 } };
    lpm_ndomain_opts o = { 256, 0, 1, 0 };
    const char *dom = NULL, *outp = "-";
    int c;
    uint64_t v;
    while ((c = lpm_cli_getopt(CMD, argc, argv, "o:h", lo)) != -1) {
        switch (c) {
        case O_DOMAINS: dom = optarg; break;
        case O_PORTS:
            if (lpm_cli_u64(CMD, "--ports", optarg, 1, LPM_NAME_PORT_MAX + 1ULL, &v))
                return LPM_EINPUT;
            o.ports = (uint32_t)v;
            break;
        case O_LIMIT:
            if (lpm_cli_u64(CMD, "--limit", optarg, 1, 1ULL << 32, &v))
                return LPM_EINPUT;
            o.limit = v;
            break;
        case O_NOAGG: o.aggregate = 0; break;
        case O_SKIP: o.skip_bad = 1; break;
        case 'o': outp = optarg; break;
        case 'h':
            printf("usage: lpmpipe names build --domains FILE [--ports K] [--limit N] [--no-aggregate]\n"
                   "                           [--skip-bad] [-o TABLE]\n"
                   "Reverses each hostname into an NDN name (www.parc.com -> /com/parc/www/),\n"
                   "assigns ports 0..K-1 by the rule in docs/names.md (default K 256), aggregates\n"
                   "(a name whose nearest covering name has the same port is removed) and writes\n"
                   "sorted 'NAME PORT' lines. --limit keeps N names evenly spaced over the list.\n");
            return 0;
        default: return lpm_cli_usage_error(CMD);
        }
    }
    if (optind < argc || !dom) {
        lpm_cli_error(CMD, dom ? "unexpected argument '%s'" : "--domains is required",
                      optind < argc ? argv[optind] : "");
        return LPM_EINPUT;
    }
    lpm_ntable t;
    lpm_ndomain_stats st;
    lpm_err e;
    int rc = lpm_ntable_from_domains(&t, dom, &o, &st, &e);
    if (rc)
        return fail(rc, &e);
    int orc = LPM_EFAIL;
    FILE *fp = lpm_cli_open_out(CMD, outp, &orc);
    if (!fp) {
        lpm_ntable_free(&t);
        return orc;
    }
    rc = lpm_ntable_write(&t, fp);
    rc = lpm_cli_close_out(CMD, fp, outp) || rc ? LPM_EFAIL : 0;
    if (st.skipped)
        fprintf(stderr, "lpmpipe: %s: %s: %zu bad line%s skipped\n", CMD, dom, st.skipped, st.skipped == 1 ? "" : "s");
    lpm_cli_note(CMD, "%zu lines, %zu duplicates, %zu aggregated away, %zu names", st.lines, st.duplicates,
                 st.aggregated, st.names);
    lpm_ntable_free(&t);
    return rc;
}

/* ---- names stats ---- */
static int cmd_stats(int argc, char **argv)
{
    static const struct option lo[] = {
        { "table", required_argument, 0, O_TABLE },   { "json", no_argument, 0, O_JSON },
        { "structures", no_argument, 0, O_STRUCT },   { "ata-stride", required_argument, 0, O_ASTRIDE },
        { "mata-stride", required_argument, 0, O_MSTRIDE }, { "primes", required_argument, 0, O_PRIMES },
        { "skip-bad", no_argument, 0, O_SKIP },       { "help", no_argument, 0, 'h' }, { 0, 0, 0, 0 } };
    const char *tp = NULL;
    int json = 0, structs = 0, skip = 0, c;
    lpm_naa_opts ao, mo;
    lpm_naa_default_opts(&ao, 0);
    lpm_naa_default_opts(&mo, 1);
    while ((c = lpm_cli_getopt(CMD, argc, argv, "h", lo)) != -1) {
        switch (c) {
        case O_TABLE: tp = optarg; break;
        case O_JSON: json = 1; break;
        case O_STRUCT: structs = 1; break;
        case O_SKIP: skip = 1; break;
        case O_ASTRIDE:
            if (lpm_cli_uint(CMD, "--ata-stride", optarg, 1, 4, &ao.stride))
                return LPM_EINPUT;
            break;
        case O_MSTRIDE:
            if (lpm_cli_uint(CMD, "--mata-stride", optarg, 1, 4, &mo.stride))
                return LPM_EINPUT;
            break;
        case O_PRIMES:
            if (parse_primes(optarg, &mo))
                return LPM_EINPUT;
            break;
        case 'h':
            printf("usage: lpmpipe names stats --table TABLE [--json] [--structures]\n"
                   "       [--ata-stride D] [--mata-stride D] [--primes P1,P2,...] [--skip-bad]\n"
                   "Names, components and lengths; with --structures also builds the character\n"
                   "trie (its 2-D state transition table size), the ATA and MATA and reports\n"
                   "their memory and construction time (schema in docs/cli-names.md).\n");
            return 0;
        default: return lpm_cli_usage_error(CMD);
        }
    }
    if (no_args(argc, argv, "stats"))
        return LPM_EINPUT;
    lpm_ntable t;
    int rc = load_table(tp, skip, &t);
    if (rc)
        return rc;
    size_t comps = 0, bytes = 0, maxlen = 0, hist[9] = { 0 };
    uint8_t *seen = calloc(LPM_NAME_PORT_MAX + 1, 1);
    size_t ports = 0;
    for (size_t i = 0; i < t.n; i++) {
        size_t k = 0;
        for (uint32_t j = 0; j < t.e[i].len; j++)
            k += lpm_ntable_name(&t, i)[j] == '/';
        comps += k;
        hist[k < 8 ? k : 8]++;
        bytes += t.e[i].len + 1;
        if (t.e[i].len + 1 > maxlen)
            maxlen = t.e[i].len + 1;
        if (seen && !seen[t.e[i].port]) {
            seen[t.e[i].port] = 1;
            ports++;
        }
    }
    free(seen);
    double n = t.n ? (double)t.n : 1;
    struct { uint64_t states, stt, trie, ata, mata; double ta, tm; uint32_t natas; uint64_t aocc, mocc; } s = { 0 };
    if (structs) {
        lpm_err e;
        lpm_ntrie tr;
        if ((rc = lpm_ntrie_build(&tr, &t, 1, 0, &e)))
            goto efail;
        s.states = tr.live;
        s.stt = lpm_ntrie_stt_bytes(&tr);
        s.trie = lpm_ntrie_mem(&tr);
        lpm_ntrie_free(&tr);
        lpm_naa a;
        double t0 = now();
        if ((rc = lpm_naa_build(&a, &t, &ao, &e)))
            goto efail;
        s.ta = now() - t0;
        s.ata = lpm_naa_bytes(&a);
        s.aocc = a.occupied;
        lpm_naa_free(&a);
        t0 = now();
        if ((rc = lpm_naa_build(&a, &t, &mo, &e)))
            goto efail;
        s.tm = now() - t0;
        s.mata = lpm_naa_bytes(&a);
        s.natas = a.nata;
        s.mocc = a.occupied;
        lpm_naa_free(&a);
        goto ok;
    efail:
        lpm_ntable_free(&t);
        return fail(rc, &e);
    }
ok:
    if (json) {
        printf("{\"names\":%zu,\"ports\":%zu,\"avg_components\":%.3f,\"avg_length\":%.3f,\"max_length\":%zu,"
               "\"components\":[%zu,%zu,%zu,%zu,%zu,%zu,%zu,%zu,%zu]",
               t.n, ports, (double)comps / n, (double)bytes / n, maxlen, hist[0], hist[1], hist[2],
               hist[3], hist[4], hist[5], hist[6], hist[7], hist[8]);
        if (structs)
            printf(",\"trie_states\":%llu,\"stt_bytes\":%llu,\"trie_bytes\":%llu,"
                   "\"ata_stride\":%u,\"ata_bytes\":%llu,\"ata_used\":%llu,\"ata_build_s\":%.3f,"
                   "\"mata_stride\":%u,\"mata_bytes\":%llu,\"mata_used\":%llu,\"mata_atas\":%u,\"mata_build_s\":%.3f,"
                   "\"stt_over_ata\":%.1f,\"stt_over_mata\":%.1f",
                   (unsigned long long)s.states, (unsigned long long)s.stt, (unsigned long long)s.trie,
                   ao.stride, (unsigned long long)s.ata, (unsigned long long)s.aocc, s.ta, mo.stride,
                   (unsigned long long)s.mata, (unsigned long long)s.mocc, s.natas, s.tm,
                   s.ata ? (double)s.stt / (double)s.ata : 0, s.mata ? (double)s.stt / (double)s.mata : 0);
        printf("}\n");
    } else {
        printf("names            %zu\nports            %zu\navg components   %.2f\navg length       %.2f\nmax length       %zu\n",
               t.n, ports, (double)comps / n, (double)bytes / n, maxlen);
        printf("components       1:%zu 2:%zu 3:%zu 4:%zu 5:%zu 6:%zu 7:%zu 8+:%zu\n", hist[1], hist[2],
               hist[3], hist[4], hist[5], hist[6], hist[7], hist[8]);
        if (structs) {
            printf("trie states      %llu (d=1)\nSTT              %.1f MiB (states x 256 x 4 B)\n",
                   (unsigned long long)s.states, (double)s.stt / 1048576);
            printf("ATA  (d=%u)       %.1f MiB, %llu of its slots used, built in %.2f s (STT/ATA %.1fx)\n",
                   ao.stride, (double)s.ata / 1048576, (unsigned long long)s.aocc, s.ta,
                   s.ata ? (double)s.stt / (double)s.ata : 0);
            printf("MATA (d=%u)       %.1f MiB in %u ATAs, %llu slots used, built in %.2f s (STT/MATA %.1fx)\n",
                   mo.stride, (double)s.mata / 1048576, s.natas, (unsigned long long)s.mocc, s.tm,
                   s.mata ? (double)s.stt / (double)s.mata : 0);
        }
    }
    lpm_ntable_free(&t);
    return 0;
}

/* ---- names trace ---- */
static int cmd_trace(int argc, char **argv)
{
    static const struct option lo[] = {
        { "table", required_argument, 0, O_TABLE }, { "kind", required_argument, 0, O_KIND },
        { "count", required_argument, 0, O_COUNT }, { "seed", required_argument, 0, O_SEED },
        { "paths", required_argument, 0, O_PATHS }, { "rank", required_argument, 0, O_RANK },
        { "zipf", required_argument, 0, O_ZIPF },   { "output", required_argument, 0, 'o' },
        { "skip-bad", no_argument, 0, O_SKIP },     { "help", no_argument, 0, 'h' }, { 0, 0, 0, 0 } };
    lpm_ntrace_opts o = { 0, 100000, 1, 0, NULL, NULL };
    const char *tp = NULL, *outp = "-";
    int c, skip = 0;
    uint64_t v;
    while ((c = lpm_cli_getopt(CMD, argc, argv, "o:h", lo)) != -1) {
        switch (c) {
        case O_TABLE: tp = optarg; break;
        case O_KIND:
            if (!strcmp(optarg, "average"))
                o.heavy = 0;
            else if (!strcmp(optarg, "heavy"))
                o.heavy = 1;
            else {
                lpm_cli_error(CMD, "--kind: '%s' is not average or heavy", optarg);
                return LPM_EINPUT;
            }
            break;
        case O_COUNT:
            if (lpm_cli_u64(CMD, "--count", optarg, 1, 1ULL << 32, &v))
                return LPM_EINPUT;
            o.count = v;
            break;
        case O_SEED:
            if (lpm_cli_u64(CMD, "--seed", optarg, 0, UINT64_MAX, &o.seed))
                return LPM_EINPUT;
            break;
        case O_PATHS: o.paths = optarg; break;
        case O_RANK: o.rank = optarg; break;
        case O_ZIPF:
            if (lpm_cli_double(CMD, "--zipf", optarg, 0, 10, &o.zipf))
                return LPM_EINPUT;
            break;
        case O_SKIP: skip = 1; break;
        case 'o': outp = optarg; break;
        case 'h':
            printf("usage: lpmpipe names trace --table TABLE [--kind average|heavy] [--count N]\n"
                   "       [--seed S] [--paths URLFILE] [--rank DOMAINFILE] [--zipf S] [-o FILE]\n"
                   "average: names drawn from the table; heavy: from its longest 10%%. A path from\n"
                   "URLFILE (synthetic without it) is appended. --zipf S weights the i-th name of\n"
                   "the ranking by 1/i^S (0: uniform); --rank puts a ranked domain list's names first.\n");
            return 0;
        default: return lpm_cli_usage_error(CMD);
        }
    }
    if (no_args(argc, argv, "trace"))
        return LPM_EINPUT;
    lpm_ntable t;
    int rc = load_table(tp, skip, &t);
    if (rc)
        return rc;
    int orc = LPM_EFAIL;
    FILE *fp = lpm_cli_open_out(CMD, outp, &orc);
    if (!fp) {
        lpm_ntable_free(&t);
        return orc;
    }
    lpm_err e;
    rc = lpm_ntrace_gen(&t, &o, fp, &e);
    int rc2 = lpm_cli_close_out(CMD, fp, outp);
    lpm_ntable_free(&t);
    if (rc)
        return fail(rc, &e);
    return rc2 ? LPM_EFAIL : 0;
}

/* Options shared by lookup, bench and gpu. */
typedef struct {
    const char *table, *trace;
    int skip, verify;
    char engines[64];
    lpm_naa_opts ao, mo;
    uint64_t updates, seed;
    unsigned repeat;
    lpm_ngpu_opts g;
    uint64_t gbatch[32], gstreams[32]; /* gpu bench: every pair is one run */
    size_t ngbatch, ngstreams;
} eopts;

static int engine_opt(int c, const char *arg, eopts *o)
{
    switch (c) {
    case O_TABLE: o->table = arg; return 1;
    case O_TRACE: o->trace = arg; return 1;
    case O_SKIP: o->skip = 1; return 1;
    case O_VERIFY: o->verify = 1; return 1;
    case O_ENGINE:
        if (strlen(arg) >= sizeof o->engines) {
            lpm_cli_error(CMD, "--engine: list too long");
            return -1;
        }
        strcpy(o->engines, arg);
        return 1;
    case O_STRIDE:
    case O_ASTRIDE:
    case O_MSTRIDE: {
        unsigned d;
        if (lpm_cli_uint(CMD, c == O_STRIDE ? "--stride" : c == O_ASTRIDE ? "--ata-stride" : "--mata-stride",
                         arg, 1, 4, &d))
            return -1;
        if (c != O_MSTRIDE)
            o->ao.stride = d;
        if (c != O_ASTRIDE)
            o->mo.stride = d;
        return 1;
    }
    case O_PRIMES: return parse_primes(arg, &o->mo) ? -1 : 1;
    case O_MAXENT:
        return lpm_cli_u64(CMD, "--max-entries", arg, 1024, 1ULL << 32, &o->ao.max_entries) ? -1 : 1;
    case O_UPDATES: return lpm_cli_u64(CMD, "--updates", arg, 0, 1ULL << 26, &o->updates) ? -1 : 1;
    case O_SEED: return lpm_cli_u64(CMD, "--seed", arg, 0, UINT64_MAX, &o->seed) ? -1 : 1;
    case O_REPEAT: return lpm_cli_uint(CMD, "--repeat", arg, 1, 100, &o->repeat) ? -1 : 1;
    case O_BATCH:
        return lpm_cli_u64_list(CMD, "--batch", arg, 32, 1u << 26, o->gbatch, 32, &o->ngbatch) ? -1 : 1;
    case O_STREAMS:
        return lpm_cli_u64_list(CMD, "--streams", arg, 1, 512, o->gstreams, 32, &o->ngstreams) ? -1 : 1;
    case O_THREADS: return lpm_cli_uint(CMD, "--threads", arg, 32, 1024, &o->g.threads) ? -1 : 1;
    }
    return 0;
}

#define ENGINE_LONGOPTS                                                                        \
    { "table", required_argument, 0, O_TABLE }, { "trace", required_argument, 0, O_TRACE },    \
    { "skip-bad", no_argument, 0, O_SKIP }, { "verify", no_argument, 0, O_VERIFY },            \
    { "engine", required_argument, 0, O_ENGINE }, { "stride", required_argument, 0, O_STRIDE }, \
    { "ata-stride", required_argument, 0, O_ASTRIDE },                                         \
    { "mata-stride", required_argument, 0, O_MSTRIDE },                                        \
    { "primes", required_argument, 0, O_PRIMES }, { "max-entries", required_argument, 0, O_MAXENT }, \
    { "help", no_argument, 0, 'h' }

#define ENGINE_HELP                                                                            \
    "  --stride D          d for ata and mata (1..4; defaults: ata 1, mata 4)\n"               \
    "  --ata-stride D, --mata-stride D   the same for one of them\n"                           \
    "  --primes P1,P2,...  MATA lengths (ascending primes; default 1048573,4194301,16777213)\n" \
    "  --max-entries N     plain ATA size limit (default 67108864 entries)\n"                  \
    "  --skip-bad          skip bad table or name lines (counted) instead of stopping\n"

static void eopts_init(eopts *o)
{
    memset(o, 0, sizeof *o);
    strcpy(o->engines, "mata");
    lpm_naa_default_opts(&o->ao, 0);
    lpm_naa_default_opts(&o->mo, 1);
    o->seed = 1;
    o->repeat = 3;
    o->g = (lpm_ngpu_opts){ 1u << 20, 8, 256, 3 };
    o->gbatch[0] = 1u << 20;
    o->gstreams[0] = 8;
    o->ngbatch = o->ngstreams = 1;
}

static int build_engine(lpm_nengine *en, const char *name, const lpm_ntable *t, const eopts *o)
{
    int k = lpm_nengine_kind(name);
    if (k < 0) {
        lpm_cli_error(CMD, "--engine: '%s' is not ref, trie, ata or mata", name);
        return LPM_EINPUT;
    }
    lpm_err e;
    int rc = lpm_nengine_build(en, (lpm_ne_kind)k, t, k == LPM_NE_MATA ? &o->mo : &o->ao, &e);
    return rc ? fail(rc, &e) : 0;
}

static int load_names(const eopts *o, int argc, char **argv, lpm_ntable *list)
{
    lpm_err e;
    size_t skipped = 0;
    int rc;
    if (o->trace || optind == argc || (optind + 1 == argc && !strcmp(argv[optind], "-"))) {
        const char *p = o->trace ? o->trace : "-";
        if (o->trace && optind < argc) {
            lpm_cli_error(CMD, "names come from --trace or the command line, not both");
            return LPM_EINPUT;
        }
        if ((rc = lpm_nlist_load(list, p, o->skip, &skipped, &e)))
            return fail(rc, &e);
    } else {
        char norm[LPM_NAME_MAX + 1];
        lpm_ntable_init(list);
        for (int i = optind; i < argc; i++) {
            const char *why;
            long nl = lpm_name_normalize(argv[i], strlen(argv[i]), norm, &why);
            if (nl < 0) {
                if (o->skip) {
                    skipped++;
                    continue;
                }
                lpm_cli_error(CMD, "'%s': %s", argv[i], why);
                lpm_ntable_free(list);
                return LPM_EINPUT;
            }
            if ((rc = lpm_ntable_add(list, norm, (size_t)nl, 0, &e)))
                return fail(rc, &e);
        }
    }
    if (skipped)
        fprintf(stderr, "lpmpipe: %s: %zu bad name%s skipped\n", CMD, skipped, skipped == 1 ? "" : "s");
    return 0;
}

/* ---- names lookup ---- */
static int cmd_lookup(int argc, char **argv)
{
    static const struct option lo[] = { ENGINE_LONGOPTS, { 0, 0, 0, 0 } };
    eopts o;
    eopts_init(&o);
    int c, r;
    while ((c = lpm_cli_getopt(CMD, argc, argv, "h", lo)) != -1) {
        if (c == 'h') {
            printf("usage: lpmpipe names lookup --table TABLE [--engine ref|trie|ata|mata] [--verify]\n"
                   "       [--trace FILE] [NAME... | -]\n"
                   "Prints '/normalized/name/ port' per name ('-': no match), in input order.\n"
                   "--verify compares every answer with the reference (exit 1 on a mismatch).\n"
                   ENGINE_HELP);
            return 0;
        }
        if ((r = engine_opt(c, optarg, &o)) <= 0)
            return r < 0 ? LPM_EINPUT : lpm_cli_usage_error(CMD);
    }
    lpm_ntable t, list;
    int rc = load_table(o.table, o.skip, &t);
    if (rc)
        return rc;
    if ((rc = load_names(&o, argc, argv, &list))) {
        lpm_ntable_free(&t);
        return rc;
    }
    lpm_nengine en, ref;
    if ((rc = build_engine(&en, o.engines, &t, &o)))
        goto out;
    if (o.verify && (rc = build_engine(&ref, "ref", &t, &o))) {
        lpm_nengine_free(&en);
        goto out;
    }
    size_t bad = 0;
    for (size_t i = 0; i < list.n; i++) {
        const char *s = lpm_ntable_name(&list, i);
        uint32_t p = lpm_nengine_lookup(&en, s, list.e[i].len);
        if (p == LPM_NM_NONE)
            printf("/%s -\n", s);
        else
            printf("/%s %u\n", s, p);
        if (o.verify) {
            uint32_t q = lpm_nengine_lookup(&ref, s, list.e[i].len);
            if (q != p && bad++ < 10)
                fprintf(stderr, "lpmpipe: %s: mismatch: /%s: %s gives %d, reference %d\n", CMD, s,
                        o.engines, p == LPM_NM_NONE ? -1 : (int)p, q == LPM_NM_NONE ? -1 : (int)q);
        }
    }
    if (o.verify) {
        lpm_cli_error(CMD, "%zu lookups, %zu mismatches", list.n, bad);
        lpm_nengine_free(&ref);
        rc = bad ? LPM_EFAIL : 0;
    }
    lpm_nengine_free(&en);
out:
    lpm_ntable_free(&t);
    lpm_ntable_free(&list);
    return rc;
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, unsigned n)
{
    qsort(v, n, sizeof *v, cmp_d);
    return v[n / 2];
}

static size_t count_mismatches(const lpm_nengine *en, const lpm_ntable *list, const uint32_t *want)
{
    size_t bad = 0;
    for (size_t i = 0; i < list->n; i++)
        bad += lpm_nengine_lookup(en, lpm_ntable_name(list, i), list->e[i].len) != want[i];
    return bad;
}

/* ---- names bench ---- */
static int cmd_bench(int argc, char **argv)
{
    static const struct option lo[] = { ENGINE_LONGOPTS,
                                        { "updates", required_argument, 0, O_UPDATES },
                                        { "seed", required_argument, 0, O_SEED },
                                        { "repeat", required_argument, 0, O_REPEAT },
                                        { 0, 0, 0, 0 } };
    eopts o;
    eopts_init(&o);
    strcpy(o.engines, "ref,trie,ata,mata");
    int c, r;
    while ((c = lpm_cli_getopt(CMD, argc, argv, "h", lo)) != -1) {
        if (c == 'h') {
            printf("usage: lpmpipe names bench --table TABLE --trace FILE [--engine E1,E2,...]\n"
                   "       [--updates N] [--seed S] [--repeat R]\n"
                   "One JSON line per engine: build time, lookup memory, lookups/s (median of R\n"
                   "runs), then N deletions and N re-insertions of random table names with their\n"
                   "rates; every answer, before and after the updates, is checked against the\n"
                   "reference (mismatches counted; exit 1 when any). mata adds the interweaved\n"
                   "lookup (the GPU kernel's body on the CPU).\n" ENGINE_HELP);
            return 0;
        }
        if ((r = engine_opt(c, optarg, &o)) <= 0)
            return r < 0 ? LPM_EINPUT : lpm_cli_usage_error(CMD);
    }
    if (!o.trace) {
        lpm_cli_error(CMD, "--trace is required");
        return LPM_EINPUT;
    }
    lpm_ntable t, list;
    int rc = load_table(o.table, o.skip, &t);
    if (rc)
        return rc;
    if ((rc = load_names(&o, argc, argv, &list))) {
        lpm_ntable_free(&t);
        return rc;
    }
    lpm_nengine ref;
    uint32_t *want = malloc((list.n + 1) * sizeof *want), *want2 = malloc((list.n + 1) * sizeof *want2);
    size_t nu = o.updates < t.n ? o.updates : t.n, *upd = malloc((nu + 1) * sizeof *upd);
    if (!want || !want2 || !upd || (rc = build_engine(&ref, "ref", &t, &o))) {
        rc = rc ? rc : LPM_EFAIL;
        goto out;
    }
    for (size_t i = 0; i < list.n; i++)
        want[i] = lpm_nengine_lookup(&ref, lpm_ntable_name(&list, i), list.e[i].len);
    /* The update set: nu distinct table names (partial Fisher-Yates). */
    {
        size_t *perm = malloc((t.n + 1) * sizeof *perm);
        if (!perm) {
            rc = LPM_EFAIL;
            lpm_nengine_free(&ref);
            goto out;
        }
        for (size_t i = 0; i < t.n; i++)
            perm[i] = i;
        lpm_rng rg;
        lpm_rng_seed(&rg, o.seed);
        for (size_t i = 0; i < nu; i++) {
            size_t j = i + lpm_rng_below(&rg, t.n - i), x = perm[i];
            perm[i] = perm[j];
            perm[j] = x;
            upd[i] = perm[i];
        }
        free(perm);
    }
    for (size_t i = 0; i < nu; i++)
        lpm_nengine_delete(&ref, lpm_ntable_name(&t, upd[i]), t.e[upd[i]].len);
    for (size_t i = 0; i < list.n; i++)
        want2[i] = lpm_nengine_lookup(&ref, lpm_ntable_name(&list, i), list.e[i].len);
    lpm_nengine_free(&ref);
    size_t total_bad = 0;
    char *save, *eng;
    for (eng = strtok_r(o.engines, ",", &save); eng; eng = strtok_r(NULL, ",", &save)) {
        lpm_nengine en;
        double t0 = now();
        if ((rc = build_engine(&en, eng, &t, &o)))
            goto out;
        double tb = now() - t0, runs[100];
        uint64_t sink = 0;
        for (unsigned k = 0; k < o.repeat; k++) {
            t0 = now();
            for (size_t i = 0; i < list.n; i++)
                sink += lpm_nengine_lookup(&en, lpm_ntable_name(&list, i), list.e[i].len);
            runs[k] = (double)list.n / (now() - t0);
        }
        double lps = median(runs, o.repeat), iwps = 0;
        size_t bad = count_mismatches(&en, &list, want), badu = 0, bad2 = 0;
        if (en.kind == LPM_NE_MATA) {
            lpm_niw iw;
            lpm_err e;
            uint32_t *out = malloc((list.n + 1) * sizeof *out);
            if (out && !lpm_niw_build(&iw, &list, &e)) {
                lpm_nm_view v;
                lpm_naa_view(&en.aa, &v);
                for (unsigned k = 0; k < o.repeat; k++) {
                    t0 = now();
                    lpm_niw_lookup(&iw, &v, out);
                    runs[k] = (double)list.n / (now() - t0);
                }
                iwps = median(runs, o.repeat);
                for (size_t i = 0; i < list.n; i++)
                    bad += out[i] != want[i];
                lpm_niw_free(&iw);
            }
            free(out);
        }
        /* Deletions, then the same names inserted back. */
        double td = 0, ti = 0;
        int urc = 0;
        lpm_err e;
        t0 = now();
        for (size_t i = 0; i < nu; i++)
            lpm_nengine_delete(&en, lpm_ntable_name(&t, upd[i]), t.e[upd[i]].len);
        td = now() - t0;
        if (nu)
            badu = count_mismatches(&en, &list, want2);
        t0 = now();
        for (size_t i = 0; i < nu && !urc; i++)
            urc = lpm_nengine_insert(&en, lpm_ntable_name(&t, upd[i]), t.e[upd[i]].len, t.e[upd[i]].port, &e);
        ti = now() - t0;
        if (urc)
            lpm_cli_error(CMD, "%s: %s", eng, e.msg);
        if (nu)
            bad2 = count_mismatches(&en, &list, want);
        printf("{\"engine\":\"%s\",\"stride\":%u,\"names\":%zu,\"build_s\":%.3f,\"bytes\":%llu,"
               "\"lookups\":%zu,\"lookups_per_s\":%.0f,\"mismatches\":%zu",
               eng, en.kind == LPM_NE_MATA ? o.mo.stride : en.kind == LPM_NE_ATA ? o.ao.stride : 1, t.n, tb,
               (unsigned long long)lpm_nengine_bytes(&en), list.n, lps, bad);
        if (en.kind == LPM_NE_MATA)
            printf(",\"atas\":%u,\"interweaved_lookups_per_s\":%.0f", en.aa.nata, iwps);
        if (nu)
            printf(",\"updates\":%zu,\"deletes_per_s\":%.0f,\"inserts_per_s\":%.0f,\"relocations\":%llu,"
                   "\"mismatches_after_deletes\":%zu,\"mismatches_after_inserts\":%zu",
                   nu, td > 0 ? (double)nu / td : 0, ti > 0 ? (double)nu / ti : 0,
                   (unsigned long long)(en.kind >= LPM_NE_ATA ? en.aa.relocations : 0), badu, bad2);
        printf(",\"checksum\":%llu}\n", (unsigned long long)(sink & 0xFFFF));
        fflush(stdout);
        total_bad += bad + badu + bad2 + (urc != 0);
        lpm_nengine_free(&en);
    }
    rc = total_bad ? LPM_EFAIL : 0;
out:
    free(want);
    free(want2);
    free(upd);
    lpm_ntable_free(&t);
    lpm_ntable_free(&list);
    return rc;
}

/* ---- names gpu bench ---- */
/* One JSON line per (batch, streams) pair, all on one MATA build. */
static int gpu_run_points(const eopts *o, const lpm_ntable *list, const lpm_nm_view *v, const lpm_niw *iw,
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
                return fail(rc, &e);
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

static int gpu_points(const eopts *o, int argc, char **argv)
{
    lpm_ntable t, list;
    int rc = load_table(o->table, o->skip, &t);
    if (rc)
        return rc;
    if ((rc = load_names(o, argc, argv, &list))) {
        lpm_ntable_free(&t);
        return rc;
    }
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
    if (!rc && !(rc = build_engine(&en, "mata", &t, o)))
        have_en = 1;
    if (!rc && !(rc = build_engine(&ref, "ref", &t, o)))
        have_ref = 1;
    if (!rc) {
        for (size_t i = 0; i < list.n; i++)
            want[i] = lpm_nengine_lookup(&ref, lpm_ntable_name(&list, i), list.e[i].len);
        if ((rc = lpm_niw_build(&iw, &list, &e))) {
            rc = fail(rc, &e);
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

static int cmd_gpu(int argc, char **argv)
{
    static const struct option lo[] = { ENGINE_LONGOPTS,
                                        { "batch", required_argument, 0, O_BATCH },
                                        { "streams", required_argument, 0, O_STREAMS },
                                        { "threads", required_argument, 0, O_THREADS },
                                        { "repeat", required_argument, 0, O_REPEAT },
                                        { 0, 0, 0, 0 } };
    eopts o;
    eopts_init(&o);
    int c, r;
    if (argc < 2 || strcmp(argv[1], "bench")) {
        if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")))
            goto help;
        lpm_cli_error(CMD, "expected 'bench' (lpmpipe names gpu --help)");
        return LPM_EINPUT;
    }
    argc--;
    argv++;
    CMD = "names gpu bench";
    while ((c = lpm_cli_getopt(CMD, argc, argv, "h", lo)) != -1) {
        if (c == 'h')
            goto help;
        if ((r = engine_opt(c, optarg, &o)) <= 0)
            return r < 0 ? LPM_EINPUT : lpm_cli_usage_error(CMD);
    }
    if (no_args(argc, argv, "gpu"))
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
           "device is present.\n" ENGINE_HELP);
    return 0;
}

/* ---- names gen ---- */
static int cmd_gen(int argc, char **argv)
{
    static const struct option lo[] = { { "count", required_argument, 0, O_COUNT },
                                        { "seed", required_argument, 0, O_SEED },
                                        { "output", required_argument, 0, 'o' },
                                        { "help", no_argument, 0, 'h' }, { 0, 0, 0, 0 } };
    uint64_t count = 10000, seed = 1;
    const char *outp = "-";
    int c;
    while ((c = lpm_cli_getopt(CMD, argc, argv, "o:h", lo)) != -1) {
        switch (c) {
        case O_COUNT:
            if (lpm_cli_u64(CMD, "--count", optarg, 1, 1ULL << 28, &count))
                return LPM_EINPUT;
            break;
        case O_SEED:
            if (lpm_cli_u64(CMD, "--seed", optarg, 0, UINT64_MAX, &seed))
                return LPM_EINPUT;
            break;
        case 'o': outp = optarg; break;
        case 'h':
            printf("usage: lpmpipe names gen [--count N] [--seed S] [-o FILE]\n"
                   "Writes N synthetic hostnames (input for 'names build' without real data).\n");
            return 0;
        default: return lpm_cli_usage_error(CMD);
        }
    }
    if (no_args(argc, argv, "gen"))
        return LPM_EINPUT;
    int rc = LPM_EFAIL;
    FILE *fp = lpm_cli_open_out(CMD, outp, &rc);
    if (!fp)
        return rc;
    rc = lpm_ndomains_gen(count, seed, fp);
    return lpm_cli_close_out(CMD, fp, outp) || rc ? LPM_EFAIL : 0;
}

int lpm_cmd_names(int argc, char **argv)
{
    static const struct {
        const char *name;
        int (*fn)(int, char **);
        const char *what;
    } subs[] = {
        { "build", cmd_build, "name table from a domain list (reverse, ports, aggregate)" },
        { "stats", cmd_stats, "table figures; --structures: STT, ATA, MATA memory and build time" },
        { "trace", cmd_trace, "average or heavy name traces" },
        { "lookup", cmd_lookup, "look names up with ref, trie, ata or mata" },
        { "bench", cmd_bench, "lookups/s, memory, insert and delete rates, all checked" },
        { "gpu", cmd_gpu, "gpu bench: the CUDA MATA kernel (exit 3 without a device)" },
        { "gen", cmd_gen, "synthetic hostnames (no real data needed)" },
    };
    if (argc >= 2) {
        for (size_t i = 0; i < sizeof subs / sizeof subs[0]; i++)
            if (!strcmp(argv[1], subs[i].name)) {
                optind = 1;
                snprintf(cmd_buf, sizeof cmd_buf, "names %s", subs[i].name);
                CMD = cmd_buf;
                return subs[i].fn(argc - 1, argv + 1);
            }
    }
    int help = argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"));
    FILE *fp = help ? stdout : stderr;
    if (argc >= 2 && !help)
        lpm_cli_error(CMD, "unknown subcommand '%s'", argv[1]);
    fprintf(fp, "usage: lpmpipe names SUBCOMMAND [options]   (each takes --help)\n\n");
    for (size_t i = 0; i < sizeof subs / sizeof subs[0]; i++)
        fprintf(fp, "  %-7s %s\n", subs[i].name, subs[i].what);
    return help ? 0 : LPM_EINPUT;
}
