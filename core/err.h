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

/* Input text as messages quote it: printable ASCII as it is, tab, CR, LF
 * and NUL as \t \r \n \0, every other byte (a UTF-8 byte order mark, a
 * control character, non-ASCII) as \xNN, so that nothing in a message is
 * invisible. Writes into buf (NUL-terminated, "..." at the end when it had
 * to be cut; 128 bytes hold any address or number in full) and returns buf. */
const char *lpm_quote(char *buf, size_t size, const char *s, size_t len);
#define LPM_QUOTE_MAX 128

#endif
