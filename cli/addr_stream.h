/* What every "addr nexthop" command shares: reading the addresses (command
 * line, a file, or standard input) and printing one answer, checked against
 * the reference when asked. */
#ifndef LPM_CLI_ADDR_STREAM_H
#define LPM_CLI_ADDR_STREAM_H

#include "../core/nhtab.h"
#include "../core/prefix.h"
#include "../core/ref_lpm.h"

/* Called once per address, in input order; a non-zero return stops the
 * stream and becomes its status. */
typedef int (*lpm_cli_addr_fn)(void *ctx, const lpm_addr *a);

/* Addresses come from the file trace when it is set, else from
 * argv[first..argc-1], else (no address, or a lone "-") from standard
 * input, one per line ('#' comments, blank lines skipped). A malformed
 * address or one of another family than `family` stops the stream with
 * "file:line: reason" on stderr and status 2. */
int lpm_cli_addresses(int family, const char *what, const char *trace,
                      int argc, char **argv, int first, lpm_cli_addr_fn fn, void *ctx);

/* Prints "addr nexthop" ('-' = no match) unless quiet. With ref, compares the answer by
 * next-hop token with the reference (whose tokens are in ref_nh) and
 * reports a mismatch on stderr with both answers and the prefix that
 * should have matched; returns 1 on a mismatch, else 0. */
int lpm_cli_answer(const char *engine, const lpm_addr *a, int family, const char *got,
                   const lpm_ref *ref, const lpm_nhtab *ref_nh, int quiet);

#endif
