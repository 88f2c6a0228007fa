/* Error reporting shared by every lpmpipe library: functions return a code
 * and fill a caller-owned message buffer; nothing deep inside prints. */
#ifndef LPM_ERR_H
#define LPM_ERR_H

#include <stdarg.h>
#include <stddef.h>

/* Return codes double as the CLI's exit status. */
enum {
    LPM_OK = 0,
    LPM_EFAIL = 1,   /* run-time failure: I/O, memory, a check that failed */
    LPM_EINPUT = 2,  /* bad usage or bad input */
    LPM_ENODEV = 3   /* no CUDA device */
};

typedef struct lpm_err {
    char msg[512];
} lpm_err;

/* Sets err->msg (when err is non-NULL) and returns code. */
int lpm_err_set(lpm_err *err, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* "file:line: reason" form used for every bad input line. */
int lpm_err_at(lpm_err *err, int code, const char *file, unsigned long line,
               const char *fmt, ...) __attribute__((format(printf, 5, 6)));

#endif
