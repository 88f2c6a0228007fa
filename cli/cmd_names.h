/* The names subcommands (cli/cmd_names_SUB.c, one file each; cmd_names.c
 * dispatches) and what they share (cli/cmd_names_opts.c): the option codes,
 * the engine options of lookup, bench and gpu bench, table and name loading.
 * Every helper takes the command path it prints in ("names lookup"). */
#ifndef LPM_CMD_NAMES_H
#define LPM_CMD_NAMES_H

#include <stdint.h>

#include "cli.h"
#include "../names/naa.h"
#include "../names/ngpu.h"
#include "../names/nengine.h"
#include "../names/ntable.h"

int lpm_cmd_names_build(int argc, char **argv);
int lpm_cmd_names_stats(int argc, char **argv);
int lpm_cmd_names_trace(int argc, char **argv);
int lpm_cmd_names_lookup(int argc, char **argv);
int lpm_cmd_names_bench(int argc, char **argv);
int lpm_cmd_names_gpu(int argc, char **argv);
int lpm_cmd_names_gen(int argc, char **argv);

enum {
    O_TABLE = LPM_OPT_FIRST_FREE, O_DOMAINS, O_PORTS, O_LIMIT, O_NOAGG, O_SKIP, O_JSON, O_STRUCT,
    O_STRIDE, O_PRIMES, O_KIND, O_COUNT, O_SEED, O_PATHS, O_RANK, O_ZIPF, O_ENGINE, O_VERIFY,
    O_TRACE, O_UPDATES, O_REPEAT, O_BATCH, O_STREAMS, O_THREADS, O_ASTRIDE, O_MSTRIDE, O_MAXENT
};

/* Thread CPU time in seconds (the machine is shared). */
double lpm_ncli_now(void);
/* Prints e (the library's message) for cmd; returns rc. */
int lpm_ncli_fail(const char *cmd, int rc, const lpm_err *e);
/* "--primes a,b,c": ascending primes in 97..2^24 into o->primes. */
int lpm_ncli_parse_primes(const char *cmd, const char *arg, lpm_naa_opts *o);
/* Refuses leftover arguments of a subcommand that takes none. */
int lpm_ncli_no_args(const char *cmd, int argc, char **argv);
/* --table (required), counting skipped lines on stderr. */
int lpm_ncli_load_table(const char *cmd, const char *path, int skip_bad, lpm_ntable *t);

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
} lpm_ncli_eopts;

#define LPM_NCLI_ENGINE_LONGOPTS                                                                        \
    { "table", required_argument, 0, O_TABLE }, { "trace", required_argument, 0, O_TRACE },    \
    { "skip-bad", no_argument, 0, O_SKIP }, { "verify", no_argument, 0, O_VERIFY },            \
    { "engine", required_argument, 0, O_ENGINE }, { "stride", required_argument, 0, O_STRIDE }, \
    { "ata-stride", required_argument, 0, O_ASTRIDE },                                         \
    { "mata-stride", required_argument, 0, O_MSTRIDE },                                        \
    { "primes", required_argument, 0, O_PRIMES }, { "max-entries", required_argument, 0, O_MAXENT }, \
    { "help", no_argument, 0, 'h' }

#define LPM_NCLI_ENGINE_HELP                                                                            \
    "  --stride D          d for ata and mata (1..4; defaults: ata 1, mata 4)\n"               \
    "  --ata-stride D, --mata-stride D   the same for one of them\n"                           \
    "  --primes P1,P2,...  MATA lengths (ascending primes; default 1048573,4194301,16777213)\n" \
    "  --max-entries N     plain ATA size limit (default 67108864 entries)\n"                  \
    "  --skip-bad          skip bad table or name lines (counted) instead of stopping\n"

void lpm_ncli_eopts_init(lpm_ncli_eopts *o);
/* Returns 1 when c was an engine option (handled), 0 when not, -1 on a bad
 * value (message printed). */
int lpm_ncli_engine_opt(const char *cmd, int c, const char *arg, lpm_ncli_eopts *o);
int lpm_ncli_build_engine(const char *cmd, lpm_nengine *en, const char *name, const lpm_ntable *t,
                          const lpm_ncli_eopts *o);
/* The names to look up: --trace, the command line, or standard input. */
int lpm_ncli_load_names(const char *cmd, const lpm_ncli_eopts *o, int argc, char **argv, lpm_ntable *list);
/* --table into t, then the names into list (t freed if that fails). */
int lpm_ncli_load_both(const char *cmd, const lpm_ncli_eopts *o, int argc, char **argv, lpm_ntable *t,
                       lpm_ntable *list);

#endif
