/* Internal to reports/: child processes and the inputs of points. */
#ifndef LPM_REPORT_PROC_H
#define LPM_REPORT_PROC_H

#include "report.h"

#define LPM_REPORT_TIMEOUT 1000

/* argv[0] is a path. Returns the exit status, 128 + signal, LPM_REPORT_TIMEOUT,
 * or -1 (err set) when it could not be started. */
int lpm_report_spawn(char *const argv[], const char *out_path, const char *err_path, double timeout_s, lpm_err *err);
/* The end of a file (or its first line), for messages. */
void lpm_report_tail(const char *path, char *buf, size_t n, int first_line);

/* Makes sure input i of point p exists (building it under a lock when it
 * is generated): its real path, and its record entry {file, id, bytes,
 * checksum} in *info (new reference). status as lpm_report_run_point. */
int lpm_report_ensure_input(const lpm_report_env *env, const lpm_report_exp *e, const lpm_report_point *p, size_t i,
                            char *real, size_t n, json_t **info, char *why, size_t nwhy, lpm_err *err);

/* The sorted names in a folder ending in suffix (NULL: every entry); dot
 * files are left out. */
char **lpm_report_list(const char *dir, const char *suffix, size_t *n);
void lpm_report_list_free(char **v, size_t n);

#endif
