/* lpmpipe model: the SystemC models (docs/models.md); the dispatch only.
 * `model run` runs the cycle-accurate model and writes the cycle log and
 * results file that `lpmpipe sim` writes (cmd_model_run.c); `model verify`
 * runs the C simulator and the model on one stimulus and compares them
 * cycle by cycle (cmd_model_verify.c); `model linecard` is the TLM-2.0
 * line-card example (cmd_model_linecard.c). What they share is in
 * cmd_model_opts.c. */
#include <string.h>

#include "cli.h"
#include "cmd.h"
#include "cmd_model.h"

static void help(FILE *fp)
{
    fprintf(fp, "usage: lpmpipe model run ...       the cycle-accurate SystemC model\n"
                "       lpmpipe model verify ...    the model against the C simulator, cycle by cycle\n"
                "       lpmpipe model linecard ...  a TLM-2.0 line card around the lookup engine\n"
                "\n"
                "SystemC models of the pipeline (docs/models.md). lpmpipe model SUB --help\n"
                "describes each.%s\n",
                lpm_model_built() ? "" : "\nThis binary was built without SystemC: scripts/deps.sh installs libsystemc-dev.");
}

int lpm_cmd_model(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        help(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    int (*fn)(int, char **) = NULL;
    if (!strcmp(argv[1], "run"))
        fn = lpm_cmd_model_run;
    else if (!strcmp(argv[1], "verify"))
        fn = lpm_cmd_model_verify;
    else if (!strcmp(argv[1], "linecard"))
        fn = lpm_cmd_model_linecard;
    if (!fn) {
        lpm_cli_error("model", "unknown subcommand '%s' (run, verify, linecard)", argv[1]);
        return 2;
    }
    if (!lpm_model_built()) {
        for (int i = 2; i < argc; i++)
            if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
                return fn(argc - 1, argv + 1);
        lpm_cli_error("model", "this binary was built without SystemC (scripts/deps.sh installs libsystemc-dev)");
        return 3;
    }
    return fn(argc - 1, argv + 1);
}

