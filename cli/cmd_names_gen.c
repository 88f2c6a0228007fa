/* lpmpipe names gen (cli/cmd_names.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_names.h"
#include "../names/ntrace.h"

static const char CMD[] = "names gen";

int lpm_cmd_names_gen(int argc, char **argv)
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
    if (lpm_ncli_no_args(CMD, argc, argv))
        return LPM_EINPUT;
    int rc = LPM_EFAIL;
    FILE *fp = lpm_cli_open_out(CMD, outp, &rc);
    if (!fp)
        return rc;
    rc = lpm_ndomains_gen(count, seed, fp);
    return lpm_cli_close_out(CMD, fp, outp) || rc ? LPM_EFAIL : 0;
}
