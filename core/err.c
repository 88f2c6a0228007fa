#include "err.h"

#include <stdio.h>
#include <string.h>

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

const char *lpm_quote(char *buf, size_t size, const char *s, size_t len)
{
    size_t o = 0;
    if (!size)
        return buf;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        char t[5];
        if (c >= 32 && c < 127)
            t[0] = (char)c, t[1] = '\0';
        else if (c == '\t' || c == '\r' || c == '\n' || c == 0)
            t[0] = '\\', t[1] = c == '\t' ? 't' : c == '\r' ? 'r' : c == '\n' ? 'n' : '0', t[2] = '\0';
        else
            snprintf(t, sizeof t, "\\x%02X", c);
        size_t k = strlen(t);
        if (o + k + (i + 1 < len ? 4 : 1) > size) { /* room for "..." (unless last) and the NUL */
            if (o + 4 <= size)
                memcpy(buf + o, "...", 3), o += 3;
            break;
        }
        memcpy(buf + o, t, k);
        o += k;
    }
    buf[o] = '\0';
    return buf;
}
