/* Helpers of the reports/ unit tests: a scratch folder and files in it. */
#ifndef LPM_RTEST_H
#define LPM_RTEST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../reports/report.h"
#include "testutil.h"

/* A fresh folder under /tmp; removed by rt_done. */
static inline void rt_dir(char *buf, size_t n)
{
    snprintf(buf, n, "/tmp/lpm-rtest.XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(buf));
}

static inline void rt_write(const char *dir, const char *name, const char *text)
{
    char path[8600];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *fp = fopen(path, "w");
    ck_assert_ptr_nonnull(fp);
    fputs(text, fp);
    ck_assert_int_eq(fclose(fp), 0);
}

static inline char *rt_read(const char *path)
{
    char *buf;
    size_t len;
    if (lpm_report_read_file(path, &buf, &len))
        return NULL;
    return buf;
}

static inline void rt_done(const char *dir)
{
    ck_assert_int_eq(lpm_report_rmtree(dir), 0);
}

#endif
