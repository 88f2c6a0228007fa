/* lpmpipe names build (cli/cmd_names.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_names.h"
#include "../names/ntable.h"

static const char CMD[] = "names build";

int lpm_cmd_names_build(int argc, char **argv)
{
    static const struct option lo[] = {
        { "domains", required_argument, 0, O_DOMAINS }, { "ports", required_argument, 0, O_PORTS },
        { "limit", required_argument, 0, O_LIMIT },     { "no-aggregate", no_argument, 0, O_NOAGG },
        { "skip-bad", no_argument, 0, O_SKIP },         { "output", required_argument, 0, 'o' },
        { "json", no_argument, 0, O_JSON },             { "help", no_argument, 0, 'h' },
        { 0, 0, 0, 0 } };
    lpm_ndomain_opts o = { 256, 0, 1, 0 };
    const char *dom = NULL, *outp = "-";
    int c, json = 0;
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
        case O_JSON: json = 1; break;
        case 'o': outp = optarg; break;
        case 'h':
            printf("usage: lpmpipe names build --domains FILE [--ports K] [--limit N] [--no-aggregate]\n"
                   "                           [--skip-bad] [-o TABLE] [--json]\n"
                   "Reverses each hostname into an NDN name (www.parc.com -> /com/parc/www/),\n"
                   "assigns ports 0..K-1 by the rule in docs/names.md (default K 256), aggregates\n"
                   "(a name whose nearest covering name has the same port is removed) and writes\n"
                   "sorted 'NAME PORT' lines. --limit keeps N names evenly spaced over the list.\n"
                   "--json (with -o TABLE) prints the counts as one JSON object on stdout.\n");
            return 0;
        default: return lpm_cli_usage_error(CMD);
        }
    }
    if (optind < argc || !dom) {
        lpm_cli_error(CMD, dom ? "unexpected argument '%s'" : "--domains is required",
                      optind < argc ? argv[optind] : "");
        return LPM_EINPUT;
    }
    if (json && !strcmp(outp, "-")) {
        lpm_cli_error(CMD, "--json needs -o TABLE (the table would share stdout)");
        return LPM_EINPUT;
    }
    lpm_ntable t;
    lpm_ndomain_stats st;
    lpm_err e;
    int rc = lpm_ntable_from_domains(&t, dom, &o, &st, &e);
    if (rc)
        return lpm_ncli_fail(CMD, rc, &e);
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
    if (json && !rc)
        printf("{\"lines\":%zu,\"skipped\":%zu,\"duplicates\":%zu,\"aggregated\":%zu,\"names\":%zu}\n", st.lines,
               st.skipped, st.duplicates, st.aggregated, st.names);
    lpm_ntable_free(&t);
    return rc;
}
