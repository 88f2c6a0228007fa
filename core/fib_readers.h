/* Internal: the per-format FIB readers behind lpm_fib_load. Each reads
 * the whole input into f (not finished) or returns an error with
 * "file:line: reason"; lpm_fib_load empties f on error. */
#ifndef LPM_FIB_READERS_H
#define LPM_FIB_READERS_H

#include "fib.h"
#include "input.h"

/* int lpm_fib_read_NAME(lpm_fib *, lpm_input *, const lpm_fib_opts *,
 * lpm_err *) for every line of LPM_FIB_FORMATS (core/fib.h). */
typedef int (*lpm_fib_reader)(lpm_fib *f, lpm_input *in, const lpm_fib_opts *o, lpm_err *err);
#define LPM_FIB_READER_DECL_(ID, name) \
    int lpm_fib_read_##name(lpm_fib *f, lpm_input *in, const lpm_fib_opts *o, lpm_err *err);
LPM_FIB_FORMATS(LPM_FIB_READER_DECL_)
#undef LPM_FIB_READER_DECL_

/* Guesses the format from the first bytes of the decompressed stream. */
int lpm_fib_sniff(const unsigned char *buf, size_t n);

/* Shared by readers (core/fib_reader_util.c): adds p with next-hop token (NULL: synthesized as the
 * docs say), honouring o->family (other family: counted as skipped) and
 * the mixed-family rule. Returns LPM_OK or an error already located at
 * file:line. */
int lpm_fib_reader_add(lpm_fib *f, lpm_input *in, const lpm_fib_opts *o,
                       const lpm_prefix *p, const char *nh, size_t nhlen, lpm_err *err);

/* The next hop of a route that gives none: --default-nh, or a label
 * hashed from the prefix (written into lab). Sets *len. */
const char *lpm_fib_missing_nh(const lpm_fib_opts *o, const lpm_prefix *p, char lab[16], size_t *len);

/* 1 when a line holds only text (no control byte but tab and a final CR);
 * else 0 with "binary data in WHAT: byte '\0' at column N" in why. */
int lpm_fib_text_check(const char *s, size_t len, const char *what, char *why, size_t size);

/* A bad line: returns LPM_EINPUT with "file:line: why", or LPM_OK (and
 * counts it) under --skip-bad. */
int lpm_fib_reader_bad(lpm_fib *f, lpm_input *in, const lpm_fib_opts *o,
                       const char *why, lpm_err *err);

/* One `bgpdump -m` line, parsed in place (the line is modified). kind:
 * 'B', 'A', 'W', 'S' (STATE, nothing else set) or 0 (an RFC 8050
 * add-path line, not read). Returns 0, or -1 with a reason in why. */
typedef struct lpm_bgpdump_line {
    int kind;
    double time;
    lpm_addr peer;
    int peer_family;
    uint32_t peer_as;
    lpm_prefix pfx;
    const char *nh;   /* A and B: the next-hop field */
    size_t nhlen;
} lpm_bgpdump_line;
int lpm_bgpdump_parse_line(char *s, size_t len, int mask_host, lpm_bgpdump_line *out,
                           char *why, size_t whysize);

#endif
