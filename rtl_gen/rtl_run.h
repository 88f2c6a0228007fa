/* Child processes, file hashing and copying for rtl verify and rtl synth. */
#ifndef LPM_RTL_RUN_H
#define LPM_RTL_RUN_H

#include <stddef.h>
#include <stdint.h>

/* Runs argv[0] (PATH search) in cwd (NULL: here), stdout/stderr into the
 * files (NULL: inherited). Returns the exit status, 128+signal, or -1. */
int lpm_rtl_run(char *const argv[], const char *cwd, const char *out, const char *errf);
int lpm_rtl_tool_exists(const char *name);
/* Folds the file into *h (FNV-1a), leaving out the generated header. */
int lpm_rtl_hash_file(const char *path, uint64_t *h);
int lpm_rtl_mkdirs(const char *dir);
/* Copies an executable, atomically (rename). */
int lpm_rtl_copy(const char *from, const char *to);

#endif

/* snprintf for paths: a too-long path is cut, and the open that follows fails. */
void lpm_rtl_fmt(char *buf, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
