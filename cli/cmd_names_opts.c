/* What the names subcommands share (cli/cmd_names.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd_names.h"
#include "../names/ntrace.h"

double lpm_ncli_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts); /* CPU time: the machine is shared */
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int lpm_ncli_fail(const char *cmd, int rc, const lpm_err *e)
{
    lpm_cli_error(cmd, "%s", e->msg);
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

int lpm_ncli_parse_primes(const char *cmd, const char *arg, lpm_naa_opts *o)
{
    char buf[256];
    if (strlen(arg) >= sizeof buf)
        goto bad;
    strcpy(buf, arg);
    memset(o->primes, 0, sizeof o->primes);
    unsigned k = 0;
    for (char *save, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        unsigned v;
        if (k == LPM_NAA_MAX_PRIMES || lpm_cli_uint(cmd, "--primes", t, 97, 1u << 24, &v))
            goto bad;
        if (!is_prime(v) || (k && v <= o->primes[k - 1]))
            goto bad;
        o->primes[k++] = v;
    }
    if (k)
        return 0;
bad:
    lpm_cli_error(cmd, "--primes: '%s' is not a list of up to 8 ascending primes in 97..16777216", arg);
    return LPM_EINPUT;
}

int lpm_ncli_no_args(const char *cmd, int argc, char **argv)
{
    if (optind >= argc)
        return 0;
    lpm_cli_error(cmd, "unexpected argument '%s'", argv[optind]);
    return LPM_EINPUT;
}

int lpm_ncli_load_table(const char *cmd, const char *path, int skip_bad, lpm_ntable *t)
{
    lpm_err e;
    size_t skipped = 0;
    if (!path) {
        lpm_cli_error(cmd, "--table is required");
        return LPM_EINPUT;
    }
    int rc = lpm_ntable_load(t, path, skip_bad, &skipped, &e);
    if (rc)
        return lpm_ncli_fail(cmd, rc, &e);
    if (skipped)
        fprintf(stderr, "lpmpipe: %s: %s: %zu bad line%s skipped\n", cmd, path, skipped, skipped == 1 ? "" : "s");
    return 0;
}


int lpm_ncli_engine_opt(const char *cmd, int c, const char *arg, lpm_ncli_eopts *o)
{
    switch (c) {
    case O_TABLE: o->table = arg; return 1;
    case O_TRACE: o->trace = arg; return 1;
    case O_SKIP: o->skip = 1; return 1;
    case O_VERIFY: o->verify = 1; return 1;
    case O_ENGINE:
        if (strlen(arg) >= sizeof o->engines) {
            lpm_cli_error(cmd, "--engine: list too long");
            return -1;
        }
        strcpy(o->engines, arg);
        return 1;
    case O_STRIDE:
    case O_ASTRIDE:
    case O_MSTRIDE: {
        unsigned d;
        if (lpm_cli_uint(cmd, c == O_STRIDE ? "--stride" : c == O_ASTRIDE ? "--ata-stride" : "--mata-stride",
                         arg, 1, 4, &d))
            return -1;
        if (c != O_MSTRIDE)
            o->ao.stride = d;
        if (c != O_ASTRIDE)
            o->mo.stride = d;
        return 1;
    }
    case O_PRIMES: return lpm_ncli_parse_primes(cmd, arg, &o->mo) ? -1 : 1;
    case O_MAXENT:
        return lpm_cli_u64(cmd, "--max-entries", arg, 1024, 1ULL << 32, &o->ao.max_entries) ? -1 : 1;
    case O_UPDATES: return lpm_cli_u64(cmd, "--updates", arg, 0, 1ULL << 26, &o->updates) ? -1 : 1;
    case O_SEED: return lpm_cli_u64(cmd, "--seed", arg, 0, UINT64_MAX, &o->seed) ? -1 : 1;
    case O_REPEAT: return lpm_cli_uint(cmd, "--repeat", arg, 1, 100, &o->repeat) ? -1 : 1;
    case O_BATCH:
        return lpm_cli_u64_list(cmd, "--batch", arg, 32, 1u << 26, o->gbatch, 32, &o->ngbatch) ? -1 : 1;
    case O_STREAMS:
        return lpm_cli_u64_list(cmd, "--streams", arg, 1, 512, o->gstreams, 32, &o->ngstreams) ? -1 : 1;
    case O_THREADS: return lpm_cli_uint(cmd, "--threads", arg, 32, 1024, &o->g.threads) ? -1 : 1;
    }
    return 0;
}

void lpm_ncli_eopts_init(lpm_ncli_eopts *o)
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

int lpm_ncli_build_engine(const char *cmd, lpm_nengine *en, const char *name, const lpm_ntable *t,
                          const lpm_ncli_eopts *o)
{
    int k = lpm_nengine_kind(name);
    if (k < 0) {
        lpm_cli_error(cmd, "--engine: '%s' is not ref, trie, ata or mata", name);
        return LPM_EINPUT;
    }
    lpm_err e;
    int rc = lpm_nengine_build(en, (lpm_ne_kind)k, t, k == LPM_NE_MATA ? &o->mo : &o->ao, &e);
    return rc ? lpm_ncli_fail(cmd, rc, &e) : 0;
}

int lpm_ncli_load_names(const char *cmd, const lpm_ncli_eopts *o, int argc, char **argv, lpm_ntable *list)
{
    lpm_err e;
    size_t skipped = 0;
    int rc;
    if (o->trace || optind == argc || (optind + 1 == argc && !strcmp(argv[optind], "-"))) {
        const char *p = o->trace ? o->trace : "-";
        if (o->trace && optind < argc) {
            lpm_cli_error(cmd, "names come from --trace or the command line, not both");
            return LPM_EINPUT;
        }
        if ((rc = lpm_nlist_load(list, p, o->skip, &skipped, &e)))
            return lpm_ncli_fail(cmd, rc, &e);
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
                lpm_cli_error(cmd, "'%s': %s", argv[i], why);
                lpm_ntable_free(list);
                return LPM_EINPUT;
            }
            if ((rc = lpm_ntable_add(list, norm, (size_t)nl, 0, &e)))
                return lpm_ncli_fail(cmd, rc, &e);
        }
    }
    if (skipped)
        fprintf(stderr, "lpmpipe: %s: %zu bad name%s skipped\n", cmd, skipped, skipped == 1 ? "" : "s");
    return 0;
}

int lpm_ncli_load_both(const char *cmd, const lpm_ncli_eopts *o, int argc, char **argv, lpm_ntable *t,
                       lpm_ntable *list)
{
    int rc = lpm_ncli_load_table(cmd, o->table, o->skip, t);
    if (rc)
        return rc;
    if ((rc = lpm_ncli_load_names(cmd, o, argc, argv, list)))
        lpm_ntable_free(t);
    return rc;
}
