/* lpmpipe names stats (cli/cmd_names.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_names.h"
#include "../names/naa.h"
#include "../names/ntrie.h"

static const char CMD[] = "names stats";

typedef struct nstats_args {
    const char *tp;
    int json, structs, skip;
    lpm_naa_opts ao, mo;
} nstats_args;

/* The table's figures. */
typedef struct nstats {
    size_t comps, bytes, maxlen, hist[9], ports;
} nstats;

/* --structures: the character trie, the ATA and the MATA built. */
typedef struct nstructs {
    uint64_t states, stt, trie, ata, mata;
    double ta, tm;
    uint32_t natas;
    uint64_t aocc, mocc;
} nstructs;

/* -1 after --help, 0 to go on, else the exit status. */
static int parse_args(int argc, char **argv, nstats_args *a)
{
    static const struct option lo[] = {
        { "table", required_argument, 0, O_TABLE },   { "json", no_argument, 0, O_JSON },
        { "structures", no_argument, 0, O_STRUCT },   { "ata-stride", required_argument, 0, O_ASTRIDE },
        { "mata-stride", required_argument, 0, O_MSTRIDE }, { "primes", required_argument, 0, O_PRIMES },
        { "skip-bad", no_argument, 0, O_SKIP },       { "help", no_argument, 0, 'h' }, { 0, 0, 0, 0 } };
    memset(a, 0, sizeof *a);
    lpm_naa_default_opts(&a->ao, 0);
    lpm_naa_default_opts(&a->mo, 1);
    int c;
    while ((c = lpm_cli_getopt(CMD, argc, argv, "h", lo)) != -1) {
        switch (c) {
        case O_TABLE: a->tp = optarg; break;
        case O_JSON: a->json = 1; break;
        case O_STRUCT: a->structs = 1; break;
        case O_SKIP: a->skip = 1; break;
        case O_ASTRIDE:
            if (lpm_cli_uint(CMD, "--ata-stride", optarg, 1, 4, &a->ao.stride))
                return LPM_EINPUT;
            break;
        case O_MSTRIDE:
            if (lpm_cli_uint(CMD, "--mata-stride", optarg, 1, 4, &a->mo.stride))
                return LPM_EINPUT;
            break;
        case O_PRIMES:
            if (lpm_ncli_parse_primes(CMD, optarg, &a->mo))
                return LPM_EINPUT;
            break;
        case 'h':
            printf("usage: lpmpipe names stats --table TABLE [--json] [--structures]\n"
                   "       [--ata-stride D] [--mata-stride D] [--primes P1,P2,...] [--skip-bad]\n"
                   "Names, components and lengths; with --structures also builds the character\n"
                   "trie (its 2-D state transition table size), the ATA and MATA and reports\n"
                   "their memory and construction time (schema in docs/cli-names.md).\n");
            return -1;
        default: return lpm_cli_usage_error(CMD);
        }
    }
    return lpm_ncli_no_args(CMD, argc, argv) ? LPM_EINPUT : 0;
}

static void count(const lpm_ntable *t, nstats *st)
{
    memset(st, 0, sizeof *st);
    uint8_t *seen = calloc(LPM_NAME_PORT_MAX + 1, 1);
    for (size_t i = 0; i < t->n; i++) {
        size_t k = 0;
        for (uint32_t j = 0; j < t->e[i].len; j++)
            k += lpm_ntable_name(t, i)[j] == '/';
        st->comps += k;
        st->hist[k < 8 ? k : 8]++;
        st->bytes += t->e[i].len + 1;
        if (t->e[i].len + 1 > st->maxlen)
            st->maxlen = t->e[i].len + 1;
        if (seen && !seen[t->e[i].port]) {
            seen[t->e[i].port] = 1;
            st->ports++;
        }
    }
    free(seen);
}

static int build_structs(const lpm_ntable *t, const nstats_args *a, nstructs *s, lpm_err *e)
{
    lpm_ntrie tr;
    int rc = lpm_ntrie_build(&tr, t, 1, 0, e);
    if (rc)
        return rc;
    s->states = tr.live;
    s->stt = lpm_ntrie_stt_bytes(&tr);
    s->trie = lpm_ntrie_mem(&tr);
    lpm_ntrie_free(&tr);
    lpm_naa aa;
    double t0 = lpm_ncli_now();
    if ((rc = lpm_naa_build(&aa, t, &a->ao, e)))
        return rc;
    s->ta = lpm_ncli_now() - t0;
    s->ata = lpm_naa_bytes(&aa);
    s->aocc = aa.occupied;
    lpm_naa_free(&aa);
    t0 = lpm_ncli_now();
    if ((rc = lpm_naa_build(&aa, t, &a->mo, e)))
        return rc;
    s->tm = lpm_ncli_now() - t0;
    s->mata = lpm_naa_bytes(&aa);
    s->natas = aa.nata;
    s->mocc = aa.occupied;
    lpm_naa_free(&aa);
    return 0;
}

static void print_json(const lpm_ntable *t, const nstats_args *a, const nstats *st, const nstructs *s)
{
    double n = t->n ? (double)t->n : 1;
    printf("{\"names\":%zu,\"ports\":%zu,\"avg_components\":%.3f,\"avg_length\":%.3f,\"max_length\":%zu,"
           "\"components\":[%zu,%zu,%zu,%zu,%zu,%zu,%zu,%zu,%zu]",
           t->n, st->ports, (double)st->comps / n, (double)st->bytes / n, st->maxlen, st->hist[0], st->hist[1],
           st->hist[2], st->hist[3], st->hist[4], st->hist[5], st->hist[6], st->hist[7], st->hist[8]);
    if (a->structs)
        printf(",\"trie_states\":%llu,\"stt_bytes\":%llu,\"trie_bytes\":%llu,"
               "\"ata_stride\":%u,\"ata_bytes\":%llu,\"ata_used\":%llu,\"ata_build_s\":%.3f,"
               "\"mata_stride\":%u,\"mata_bytes\":%llu,\"mata_used\":%llu,\"mata_atas\":%u,\"mata_build_s\":%.3f,"
               "\"stt_over_ata\":%.1f,\"stt_over_mata\":%.1f",
               (unsigned long long)s->states, (unsigned long long)s->stt, (unsigned long long)s->trie,
               a->ao.stride, (unsigned long long)s->ata, (unsigned long long)s->aocc, s->ta, a->mo.stride,
               (unsigned long long)s->mata, (unsigned long long)s->mocc, s->natas, s->tm,
               s->ata ? (double)s->stt / (double)s->ata : 0, s->mata ? (double)s->stt / (double)s->mata : 0);
    printf("}\n");
}

static void print_text(const lpm_ntable *t, const nstats_args *a, const nstats *st, const nstructs *s)
{
    double n = t->n ? (double)t->n : 1;
    printf("names            %zu\nports            %zu\navg components   %.2f\navg length       %.2f\nmax length       %zu\n",
           t->n, st->ports, (double)st->comps / n, (double)st->bytes / n, st->maxlen);
    printf("components       1:%zu 2:%zu 3:%zu 4:%zu 5:%zu 6:%zu 7:%zu 8+:%zu\n", st->hist[1], st->hist[2],
           st->hist[3], st->hist[4], st->hist[5], st->hist[6], st->hist[7], st->hist[8]);
    if (!a->structs)
        return;
    printf("trie states      %llu (d=1)\nSTT              %.1f MiB (states x 256 x 4 B)\n",
           (unsigned long long)s->states, (double)s->stt / 1048576);
    printf("ATA  (d=%u)       %.1f MiB, %llu of its slots used, built in %.2f s (STT/ATA %.1fx)\n",
           a->ao.stride, (double)s->ata / 1048576, (unsigned long long)s->aocc, s->ta,
           s->ata ? (double)s->stt / (double)s->ata : 0);
    printf("MATA (d=%u)       %.1f MiB in %u ATAs, %llu slots used, built in %.2f s (STT/MATA %.1fx)\n",
           a->mo.stride, (double)s->mata / 1048576, s->natas, (unsigned long long)s->mocc, s->tm,
           s->mata ? (double)s->stt / (double)s->mata : 0);
}

int lpm_cmd_names_stats(int argc, char **argv)
{
    nstats_args a;
    int rc = parse_args(argc, argv, &a);
    if (rc)
        return rc < 0 ? 0 : rc;
    lpm_ntable t;
    if ((rc = lpm_ncli_load_table(CMD, a.tp, a.skip, &t)))
        return rc;
    nstats st;
    count(&t, &st);
    nstructs s = { 0 };
    lpm_err e;
    if (a.structs && (rc = build_structs(&t, &a, &s, &e))) {
        lpm_ntable_free(&t);
        return lpm_ncli_fail(CMD, rc, &e);
    }
    if (a.json)
        print_json(&t, &a, &st, &s);
    else
        print_text(&t, &a, &st, &s);
    lpm_ntable_free(&t);
    return 0;
}
