/* Byte and line input over a file or stdin, decompressing .gz, .xz and .bz2
 * transparently (detected by magic bytes, not by name). */
#ifndef LPM_INPUT_H
#define LPM_INPUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "err.h"

typedef struct lpm_input lpm_input;

/* path "-" reads standard input. A directory or a path that cannot be
 * opened is LPM_EINPUT ("path: is a directory, not a file", "path: cannot
 * open: REASON"). */
int lpm_input_open(lpm_input **in, const char *path, lpm_err *err);
/* Reads an open stream, which it owns from now on (closed by
 * lpm_input_close, also on failure); name is what messages call it. */
int lpm_input_open_stream(lpm_input **in, FILE *fp, const char *name, lpm_err *err);
void lpm_input_close(lpm_input *in);

/* Reads up to n bytes; returns bytes read (0 at end), or -1 on error. */
long lpm_input_read(lpm_input *in, void *buf, size_t n, lpm_err *err);

/* Next line without its '\n' (a trailing '\r' is kept: readers decide).
 * Returns 1 with *line and *len set, 0 at end of input, -1 on error. The buffer
 * is owned by in and valid until the next call. A NUL byte inside a line is
 * kept in *len so readers can refuse binary junk. */
int lpm_input_getline(lpm_input *in, char **line, size_t *len, lpm_err *err);

/* Peeks the first bytes of the decompressed stream without consuming them. */
size_t lpm_input_peek(lpm_input *in, const unsigned char **buf, lpm_err *err);

/* The name used in messages ("<stdin>" for "-"), and the 1-based number of
 * the last line returned by getline. */
const char *lpm_input_name(const lpm_input *in);
unsigned long lpm_input_lineno(const lpm_input *in);
/* Binary readers number records instead of lines: after set_records the
 * input layer's own messages say "file: offset N: record R" (R = lineno + 1,
 * N = lpm_input_offset) instead of "file:LINE". */
void lpm_input_set_lineno(lpm_input *in, unsigned long n);
void lpm_input_set_records(lpm_input *in);
/* Decompressed bytes read so far (getline counts each line's '\n'). */
uint64_t lpm_input_offset(const lpm_input *in);

/* Opens an output file ("-": standard output) the same way for every
 * writer: a directory is LPM_EINPUT ("path: is a directory, not a file"),
 * another failure LPM_EFAIL ("path: cannot write: REASON"). */
int lpm_output_open(FILE **fp, const char *path, const char *mode, lpm_err *err);

#endif
