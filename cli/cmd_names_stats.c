/* lpmpipe names stats (cli/cmd_names.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_names.h"
#include "../names/naa.h"
#include "../names/ntrie.h"

static const char CMD[] = "names stats";

int lpm_cmd_names_stats(int argc, char **argv)
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
            if (lpm_ncli_parse_primes(CMD, optarg, &mo))
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
    if (lpm_ncli_no_args(CMD, argc, argv))
        return LPM_EINPUT;
    lpm_ntable t;
    int rc = lpm_ncli_load_table(CMD, tp, skip, &t);
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
        double t0 = lpm_ncli_now();
        if ((rc = lpm_naa_build(&a, &t, &ao, &e)))
            goto efail;
        s.ta = lpm_ncli_now() - t0;
        s.ata = lpm_naa_bytes(&a);
        s.aocc = a.occupied;
        lpm_naa_free(&a);
        t0 = lpm_ncli_now();
        if ((rc = lpm_naa_build(&a, &t, &mo, &e)))
            goto efail;
        s.tm = lpm_ncli_now() - t0;
        s.mata = lpm_naa_bytes(&a);
        s.natas = a.nata;
        s.mocc = a.occupied;
        lpm_naa_free(&a);
        goto ok;
    efail:
        lpm_ntable_free(&t);
        return lpm_ncli_fail(CMD, rc, &e);
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
