/* lpmpipe names trace (cli/cmd_names.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_names.h"
#include "../names/ntrace.h"

static const char CMD[] = "names trace";

int lpm_cmd_names_trace(int argc, char **argv)
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
    if (lpm_ncli_no_args(CMD, argc, argv))
        return LPM_EINPUT;
    lpm_ntable t;
    int rc = lpm_ncli_load_table(CMD, tp, skip, &t);
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
        return lpm_ncli_fail(CMD, rc, &e);
    return rc2 ? LPM_EFAIL : 0;
}
