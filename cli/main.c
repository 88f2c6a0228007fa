/* lpmpipe: one binary; every subcommand's driver is a cli/cmd_*.c file
 * (docs/architecture.md). A command is one line of this table; a NULL
 * entry is a command not written yet: --help leaves it out, calling it
 * says it is not built. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cmd.h"

static const struct {
    const char *name;
    lpm_cmd_fn fn;
    const char *summary;
} cmds[] = {
    { "fib", lpm_cmd_fib, "read, convert, describe and generate forwarding tables" },
    { "trace", lpm_cmd_trace, "generate lookup traces and update traces" },
    { "lookup", lpm_cmd_lookup, "look addresses up with any engine or a pipeline image" },
    { "map", lpm_cmd_map, "map a table's trie onto pipeline stages (writes an image)" },
    { "image", lpm_cmd_image, "dump a pipeline image or write its $readmemh files" },
    { "update", lpm_cmd_update, "compile route updates into write bubbles" },
    { "sim", lpm_cmd_sim, "cycle-level simulation of ring and linear pipelines" },
    { "rtl", lpm_cmd_rtl, "generate Verilog, verify it against the simulator, synthesize" },
    { "gpu", lpm_cmd_gpu, "CUDA lookup engines (GAMT, GALE)" },
    { "bench", lpm_cmd_bench, "lookup engines side by side: speed, memory, updates" },
    { "model", lpm_cmd_model, "SystemC models: cycle-accurate model, TLM-2.0 line card" },
    { "names", lpm_cmd_names, "NDN name tables and name lookup engines" },
    { "report", lpm_cmd_report, "experiment sweeps: run, merge, render figures and HTML (reports/)" },
};

/* Only what this binary can do: commands left out of the build are not listed. */
static void usage(FILE *fp)
{
    fprintf(fp, "usage: lpmpipe COMMAND [options]   (lpmpipe COMMAND --help describes each)\n"
                "       lpmpipe --version [--json]  (version, git revision, optional parts built)\n"
                "       lpmpipe --help\n\ncommands:\n");
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
        if (cmds[i].fn)
            fprintf(fp, "  %-8s %s\n", cmds[i].name, cmds[i].summary);
    fprintf(fp, "\nexit status: 0 ok, 1 failure, 2 bad usage or input, 3 no CUDA device\n");
}

/* --quiet (or -q) anywhere before "--" silences notes for every command;
 * the rest of argv closes up (argv[argc] stays NULL). */
static int take_quiet(int argc, char **argv)
{
    int n = 0, i = 0;
    for (; i < argc && strcmp(argv[i], "--"); i++) {
        if (i && (!strcmp(argv[i], "--quiet") || !strcmp(argv[i], "-q")))
            lpm_cli_set_quiet(1);
        else
            argv[n++] = argv[i];
    }
    for (; i < argc; i++)
        argv[n++] = argv[i];
    argv[n] = NULL;
    return n;
}

int main(int argc, char **argv)
{
    argc = take_quiet(argc, argv);
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V") || !strcmp(argv[1], "version"))
        return lpm_cli_version(argc - 1, argv + 1);
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        if (strcmp(argv[1], cmds[i].name))
            continue;
        if (!cmds[i].fn) {
            fprintf(stderr, "lpmpipe: %s: not built into this binary (lpmpipe --version lists what is)\n", cmds[i].name);
            return 2;
        }
        return cmds[i].fn(argc - 1, argv + 1);
    }
    fprintf(stderr, "lpmpipe: unknown command '%s' (lpmpipe --help lists the commands)\n", argv[1]);
    return 2;
}
