/* lpmpipe names: NDN name tables and the name lookup engines. This file
 * dispatches; each subcommand is cli/cmd_names_SUB.c (cli/cmd_names.h). */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cmd.h"
#include "cmd_names.h"

static const char CMD[] = "names";

int lpm_cmd_names(int argc, char **argv)
{
    static const struct {
        const char *name;
        int (*fn)(int, char **);
        const char *what;
    } subs[] = {
        { "build", lpm_cmd_names_build, "name table from a domain list (reverse, ports, aggregate)" },
        { "stats", lpm_cmd_names_stats, "table figures; --structures: STT, ATA, MATA memory and build time" },
        { "trace", lpm_cmd_names_trace, "average or heavy name traces" },
        { "lookup", lpm_cmd_names_lookup, "look names up with ref, trie, ata or mata" },
        { "bench", lpm_cmd_names_bench, "lookups/s, memory, insert and delete rates, all checked" },
        { "gpu", lpm_cmd_names_gpu, "gpu bench: the CUDA MATA kernel (exit 3 without a device)" },
        { "gen", lpm_cmd_names_gen, "synthetic hostnames (no real data needed)" },
    };
    if (argc >= 2) {
        for (size_t i = 0; i < sizeof subs / sizeof subs[0]; i++)
            if (!strcmp(argv[1], subs[i].name)) {
                optind = 1;
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
