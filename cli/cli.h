/* Helpers every subcommand shares: strict option parsing ("absurd options"
 * get a clear message and exit 2), FIB loading with the common options, and
 * the subcommand entry points. Subcommands print; libraries do not. */
#ifndef LPM_CLI_H
#define LPM_CLI_H

#include <getopt.h>
#include <stdint.h>
#include <stdio.h>

#include "../core/fib.h"

/* Every "lpmpipe CMD" entry point: returns the exit status. */
typedef int (*lpm_cmd_fn)(int argc, char **argv);

/* lpmpipe --version [--json] (cli/version.c); argv[0] is "--version". */
int lpm_cli_version(int argc, char **argv);

/* The one error style (docs/cli.md): "lpmpipe: CMD: message" on stderr,
 * CMD the subcommand path as typed ("fib stats", "names lookup"). A library
 * message (lpm_err) is passed as "%s"; it carries file:line itself. */
void lpm_cli_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* "lpmpipe: CMD: note: message": what the user may like to know (the peer
 * chosen, duplicates replaced, a file kept); --quiet silences it. */
void lpm_cli_note(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* main.c takes --quiet / -q (anywhere before "--") off the command line;
 * a command with chatter of its own (progress) asks lpm_cli_quiet(). */
void lpm_cli_set_quiet(int on);
int lpm_cli_quiet(void);

/* getopt_long with our message for an unknown option or a missing value
 * ("lpmpipe: CMD: '--x' is not an option of this command ...") instead of
 * getopt's; returns what getopt_long returns. */
int lpm_cli_getopt(const char *cmd, int argc, char **argv, const char *shortopts, const struct option *lo);

/* Strict number parsing for option values: whole string, in [lo, hi].
 * On failure prints "lpmpipe: CMD: --opt: 'x' is not ... in lo..hi" and
 * returns LPM_EINPUT. */
int lpm_cli_u64(const char *cmd, const char *opt, const char *arg,
                uint64_t lo, uint64_t hi, uint64_t *out);
int lpm_cli_uint(const char *cmd, const char *opt, const char *arg,
                 unsigned lo, unsigned hi, unsigned *out);
/* A comma-separated list of such numbers ("1024,4096"), at most max of
 * them, into out[0..*n). */
int lpm_cli_u64_list(const char *cmd, const char *opt, const char *arg, uint64_t lo, uint64_t hi,
                     uint64_t *out, size_t max, size_t *n);
int lpm_cli_double(const char *cmd, const char *opt, const char *arg,
                   double lo, double hi, double *out);

/* The median of v[0..n) (n > 0; the mean of the middle two when n is
 * even); sorts v in place. The benches' "median of R runs". */
double lpm_cli_median(double *v, size_t n);

/* A trace kind (core/trace.h) named by option opt ("--gen", "--kind");
 * -1 after "OPT: unknown kind 'x' (uniform, random-match, table, zipf)". */
int lpm_cli_trace_kind(const char *cmd, const char *opt, const char *arg);

/* --dit-answers lane|queue (docs/microarchitecture.md: where a lookup the
 * DIT answers leaves): *queue = 0 or 1; 2 after an error message. */
int lpm_cli_dit_answers(const char *cmd, const char *arg, int *queue);

/* Common FIB-input options. Subcommands add LPM_CLI_FIB_LONGOPTS to their
 * option table and pass unknown codes to lpm_cli_fib_option first. */
enum {
    LPM_OPT_FORMAT = 0x1000,
    LPM_OPT_FAMILY,
    LPM_OPT_MASK_HOST,
    LPM_OPT_SKIP_BAD,
    LPM_OPT_PEER,
    LPM_OPT_PEER_AS,
    LPM_OPT_DEFAULT_NH,
    LPM_OPT_FIRST_FREE = 0x1100 /* subcommands number their own from here */
};
#define LPM_CLI_FIB_LONGOPTS                                           \
    { "format", required_argument, 0, LPM_OPT_FORMAT },                \
    { "family", required_argument, 0, LPM_OPT_FAMILY },                \
    { "mask-host-bits", no_argument, 0, LPM_OPT_MASK_HOST },           \
    { "skip-bad", no_argument, 0, LPM_OPT_SKIP_BAD },                  \
    { "peer", required_argument, 0, LPM_OPT_PEER },                    \
    { "peer-as", required_argument, 0, LPM_OPT_PEER_AS },              \
    { "default-nh", required_argument, 0, LPM_OPT_DEFAULT_NH }
#define LPM_CLI_FIB_HELP                                                                  \
    "FIB options (how the table is read; usage lines say [FIB options]):\n"              \
    "  --format F          auto (default)" LPM_FIB_FORMAT_NAMES "\n"                        \
    "  --family 4|6        keep only this family (others are counted as skipped)\n"       \
    "  --mask-host-bits    clear host bits instead of refusing the line\n"                \
    "  --skip-bad          skip bad lines (their count is printed) instead of stopping\n" \
    "  --peer ADDR         multi-peer RIB: use this peer's routes\n"                      \
    "  --peer-as N         multi-peer RIB: use this AS's routes\n"                        \
    "  --default-nh TOKEN  next hop for lines that give none (default: a label\n"         \
    "                      hashed from the prefix, see docs/formats.md)\n"

/* Returns 1 when c was a FIB option (handled), 0 when not, -1 on a bad
 * value (message printed). */
int lpm_cli_fib_option(const char *cmd, int c, const char *arg, lpm_fib_opts *o);

/* The request options (docs/cli.md, "Options every command that makes
 * lookups takes"): --trace FILE, --gen KIND (--kind KIND is the same
 * option, the older spelling), --count N, --seed S. A command sets its
 * defaults with lpm_cli_req_init, adds LPM_CLI_REQ_LONGOPTS (or
 * LPM_CLI_GEN_LONGOPTS, without --trace) to its option table, hands codes
 * to lpm_cli_req_option, checks the kind with lpm_cli_req_kind where it
 * wants the message, and prints lpm_cli_req_help in its --help. */
enum { LPM_OPT_TRACE = 0x1080, LPM_OPT_GEN, LPM_OPT_KIND, LPM_OPT_COUNT, LPM_OPT_SEED };
#define LPM_CLI_GEN_LONGOPTS                                           \
    { "gen", required_argument, 0, LPM_OPT_GEN },                      \
    { "kind", required_argument, 0, LPM_OPT_KIND },                    \
    { "count", required_argument, 0, LPM_OPT_COUNT },                  \
    { "seed", required_argument, 0, LPM_OPT_SEED }
#define LPM_CLI_REQ_LONGOPTS                                           \
    { "trace", required_argument, 0, LPM_OPT_TRACE }, LPM_CLI_GEN_LONGOPTS

typedef struct lpm_cli_req {
    const char *trace;     /* --trace FILE; NULL: none */
    const char *gen;       /* --gen / --kind as given; NULL: none */
    const char *gen_opt;   /* the spelling given ("--gen" or "--kind"), for messages */
    int kind;              /* the kind (a list: the first); the default until checked; -1: none */
    uint64_t count, seed;
    int gen_set;           /* --gen, --count or --seed given */
    /* the command's own settings (lpm_cli_req_init; flags may be set after) */
    uint64_t count_def, count_max;
    int kind_def;          /* -1: no default (--trace or --gen is needed) */
    int list;              /* --gen takes K[,K...] (bench cpu) */
    int no_trace;          /* the command writes traces, reads none (trace gen) */
    unsigned help_width;   /* the help's option column (0: 19, as most commands') */
} lpm_cli_req;
/* count 0: --count must be given (the command checks). */
void lpm_cli_req_init(lpm_cli_req *r, int kind, uint64_t count, uint64_t count_max);
/* 1 when c was a request option (handled), 0 when not, -1 on a bad value
 * (message printed). */
int lpm_cli_req_option(const char *cmd, int c, const char *arg, lpm_cli_req *r);
/* The kind(s) --gen named, checked (each of a list); r->kind set. 0, or -1
 * after "--gen: unknown kind 'x' (uniform, ...)" (the spelling given). */
int lpm_cli_req_kind(const char *cmd, lpm_cli_req *r);
/* The options' help lines, with this command's defaults. */
void lpm_cli_req_help(FILE *fp, const lpm_cli_req *r);

/* Loads a FIB and reports on stderr what the user must know (duplicates
 * replaced, lines skipped, peer chosen). Returns the exit status. */
int lpm_cli_load_fib(const char *cmd, const char *path, const lpm_fib_opts *o, lpm_fib *f);

/* The table an image carries (its route section) as a FIB, for the trace
 * generators and reference checks of commands that take an image. */
struct lpm_image;
int lpm_cli_image_fib(const struct lpm_image *img, lpm_fib *f, lpm_err *err);

/* Returns LPM_EINPUT after bad usage; prints a pointer to --help only
 * when no message said what was wrong. */
int lpm_cli_usage_error(const char *cmd);

/* Opens an output path ("-" = stdout). Prints and returns NULL on failure,
 * with *rc (may be NULL) set: 2 for a directory, 1 for a write failure. */
FILE *lpm_cli_open_out(const char *cmd, const char *path, int *rc);
int lpm_cli_close_out(const char *cmd, FILE *fp, const char *path);

#endif
