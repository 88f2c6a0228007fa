/* The generated files' open and close (rtl_gen_int.h), below gen.c and the
 * emitters that write them (so gen.c and gen_*.c do not call each other). */
#include <errno.h>
#include <string.h>

#include "rtl_gen_int.h"

int lpm_rtl_open(FILE **fp, const char *dir, const char *name, const char *header, const char *cm, lpm_err *err)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    *fp = fopen(path, "w");
    if (!*fp)
        return lpm_err_set(err, LPM_EFAIL, "%s: %s", path, strerror(errno));
    if (header && cm) {
        const char *p = header;
        while (*p) {
            const char *e = strchr(p, '\n');
            size_t n = e ? (size_t)(e - p) : strlen(p);
            fprintf(*fp, "%s %.*s\n", cm, (int)n, p);
            p += n + (e ? 1 : 0);
        }
    }
    return LPM_OK;
}

int lpm_rtl_close(FILE *fp, const char *dir, const char *name, lpm_err *err)
{
    int bad = ferror(fp);
    if (fclose(fp) || bad)
        return lpm_err_set(err, LPM_EFAIL, "%s/%s: write failed", dir, name);
    return LPM_OK;
}
