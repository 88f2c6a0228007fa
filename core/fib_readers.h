/* Internal: the per-format FIB readers behind lpm_fib_load. Each reads
 * the whole input into f (not finished) or returns an error with
 * "file:line: reason"; lpm_fib_load empties f on error. */
#ifndef LPM_FIB_READERS_H
#define LPM_FIB_READERS_H

#include "fib.h"
#include "input.h"

int lpm_fib_read_plain(lpm_fib *f, lpm_input *in, const lpm_fib_opts *o, lpm_err *err);
int lpm_fib_read_pfx2as(lpm_fib *f, lpm_input *in, const lpm_fib_opts *o, lpm_err *err);
int lpm_fib_read_bgpdump(lpm_fib *f, lpm_input *in, const lpm_fib_opts *o, lpm_err *err);
int lpm_fib_read_mrt(lpm_fib *f, lpm_input *in, const lpm_fib_opts *o, lpm_err *err);

/* Guesses the format from the first bytes of the decompressed stream. */
int lpm_fib_sniff(const unsigned char *buf, size_t n);

/* Shared by readers: adds p with next-hop token (NULL: synthesized as the
 * docs say), honouring o->family (other family: counted as skipped) and
 * the mixed-family rule. Returns LPM_OK or an error already located at
 * file:line. */
int lpm_fib_reader_add(lpm_fib *f, lpm_input *in, const lpm_fib_opts *o,
                       const lpm_prefix *p, const char *nh, size_t nhlen, lpm_err *err);

/* A bad line: returns LPM_EINPUT with "file:line: why", or LPM_OK (and
 * counts it) under --skip-bad. */
int lpm_fib_reader_bad(lpm_fib *f, lpm_input *in, const lpm_fib_opts *o,
                       const char *why, lpm_err *err);

#endif
