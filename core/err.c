#include "err.h"

#include <stdio.h>

int lpm_err_set(lpm_err *err, int code, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
    }
    return code;
}

int lpm_err_at(lpm_err *err, int code, const char *file, unsigned long line,
               const char *fmt, ...)
{
    if (err) {
        int n = snprintf(err->msg, sizeof err->msg, "%s:%lu: ", file, line);
        if (n < 0 || (size_t)n >= sizeof err->msg)
            n = 0;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg + n, sizeof err->msg - (size_t)n, fmt, ap);
        va_end(ap);
    }
    return code;
}
