#include "cli.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void lpm_cli_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "lpmpipe: %s: ", cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

int lpm_cli_u64(const char *cmd, const char *opt, const char *arg,
                uint64_t lo, uint64_t hi, uint64_t *out)
{
    const char *p = arg;
    if (!arg || !*arg || *p == '-' || *p == '+')
        goto bad;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(arg, &end, 10);
    /* Accept K/M/G suffixes: counts like 1M are what people type. */
    if (end != arg && *end && !end[1]) {
        unsigned long long mul = *end == 'K' || *end == 'k' ? 1000ULL
                               : *end == 'M' ? 1000000ULL : *end == 'G' ? 1000000000ULL : 0;
        if (mul && v <= UINT64_MAX / mul) {
            v *= mul;
            end++;
        }
    }
    if (errno || end == arg || *end || v < lo || v > hi)
        goto bad;
    *out = v;
    return 0;
bad:
    lpm_cli_error(cmd, "%s: '%s' is not a whole number in %llu..%llu", opt, arg ? arg : "",
                  (unsigned long long)lo, (unsigned long long)hi);
    return 2;
}

int lpm_cli_uint(const char *cmd, const char *opt, const char *arg,
                 unsigned lo, unsigned hi, unsigned *out)
{
    uint64_t v;
    int rc = lpm_cli_u64(cmd, opt, arg, lo, hi, &v);
    if (!rc)
        *out = (unsigned)v;
    return rc;
}

int lpm_cli_double(const char *cmd, const char *opt, const char *arg,
                   double lo, double hi, double *out)
{
    char *end;
    errno = 0;
    double v = arg ? strtod(arg, &end) : 0;
    if (!arg || !*arg || errno || *end || !isfinite(v) || v < lo || v > hi) {
        lpm_cli_error(cmd, "%s: '%s' is not a number in %g..%g", opt, arg ? arg : "", lo, hi);
        return 2;
    }
    *out = v;
    return 0;
}

int lpm_cli_fib_option(const char *cmd, int c, const char *arg, lpm_fib_opts *o)
{
    uint64_t v;
    switch (c) {
    case LPM_OPT_FORMAT:
        o->format = lpm_fib_format_parse(arg);
        if (o->format < 0) {
            lpm_cli_error(cmd, "--format: '%s' is not one of auto, plain, pfx2as, bgpdump, mrt", arg);
            return -1;
        }
        return 1;
    case LPM_OPT_FAMILY:
        if (strcmp(arg, "4") && strcmp(arg, "6")) {
            lpm_cli_error(cmd, "--family: '%s' is not 4 or 6", arg);
            return -1;
        }
        o->family = atoi(arg);
        return 1;
    case LPM_OPT_MASK_HOST:
        o->mask_host_bits = 1;
        return 1;
    case LPM_OPT_SKIP_BAD:
        o->skip_bad = 1;
        return 1;
    case LPM_OPT_PEER: {
        lpm_addr a;
        int fam;
        lpm_err e;
        if (lpm_addr_parse(arg, &fam, &a, &e)) {
            lpm_cli_error(cmd, "--peer: %s", e.msg);
            return -1;
        }
        o->peer_addr = arg;
        return 1;
    }
    case LPM_OPT_PEER_AS:
        if (lpm_cli_u64(cmd, "--peer-as", arg, 0, 4294967295ULL, &v))
            return -1;
        o->peer_as = (long)v;
        return 1;
    case LPM_OPT_DEFAULT_NH:
        if (!*arg || strpbrk(arg, " \t\r\n")) {
            lpm_cli_error(cmd, "--default-nh: a next hop is one non-empty token");
            return -1;
        }
        o->default_nh = arg;
        return 1;
    }
    return 0;
}

int lpm_cli_load_fib(const char *cmd, const char *path, const lpm_fib_opts *o, lpm_fib *f)
{
    lpm_err err;
    int rc = lpm_fib_load(f, path, o, &err);
    if (rc) {
        fprintf(stderr, "%s\n", err.msg);
        return rc;
    }
    if (f->peer[0])
        fprintf(stderr, "lpmpipe: %s: %s: using peer %s\n", cmd, path, f->peer);
    if (f->duplicates)
        fprintf(stderr, "lpmpipe: %s: %s: %zu duplicate prefix%s replaced by later lines\n", cmd, path,
                f->duplicates, f->duplicates == 1 ? "" : "es");
    if (f->skipped)
        fprintf(stderr, "lpmpipe: %s: %s: %zu %s%s skipped\n", cmd, path, f->skipped, f->records ? "record" : "line",
                f->skipped == 1 ? "" : "s");
    return 0;
}

int lpm_cli_usage_error(const char *cmd)
{
    fprintf(stderr, "lpmpipe: %s: see 'lpmpipe %s --help'\n", cmd, cmd);
    return 2;
}

FILE *lpm_cli_open_out(const char *cmd, const char *path)
{
    if (!path || strcmp(path, "-") == 0)
        return stdout;
    FILE *fp = fopen(path, "w");
    if (!fp)
        lpm_cli_error(cmd, "%s: cannot write: %s", path, strerror(errno));
    return fp;
}

int lpm_cli_close_out(const char *cmd, FILE *fp, const char *path)
{
    int bad = ferror(fp);
    bad |= fp == stdout ? fflush(fp) : fclose(fp);
    if (bad) {
        lpm_cli_error(cmd, "%s: write error", path ? path : "<stdout>");
        return 1;
    }
    return 0;
}
