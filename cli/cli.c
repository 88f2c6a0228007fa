#include "cli.h"

#include "../core/input.h"
#include "../core/trace.h"
#include "../mapper/image.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* The command line's own state (one process, one command): --quiet, and
 * whether an error was printed already (so that a "see --help" hint is not
 * added to a message that said what was wrong). */
static int quiet, errors_printed;

void lpm_cli_set_quiet(int on)
{
    quiet = on;
}

int lpm_cli_quiet(void)
{
    return quiet;
}

static void vline(const char *cmd, const char *tag, const char *fmt, va_list ap)
{
    fprintf(stderr, "lpmpipe: %s: %s", cmd, tag);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}

void lpm_cli_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vline(cmd, "", fmt, ap);
    va_end(ap);
    errors_printed++;
}

void lpm_cli_note(const char *cmd, const char *fmt, ...)
{
    if (quiet)
        return;
    va_list ap;
    va_start(ap, fmt);
    vline(cmd, "note: ", fmt, ap);
    va_end(ap);
}

int lpm_cli_getopt(const char *cmd, int argc, char **argv, const char *shortopts, const struct option *lo)
{
    opterr = 0;
    const char *so = shortopts[0] == ':' ? shortopts + 1 : shortopts;
    int c = getopt_long(argc, argv, so, lo, NULL);
    if (c != '?')
        return c;
    const char *arg = optind - 1 < argc ? argv[optind - 1] : "";
    if (optopt && optopt < 256 && strchr(so, optopt))
        lpm_cli_error(cmd, "option '-%c' needs a value (lpmpipe %s --help)", optopt, cmd);
    else if (optopt && optopt < 256)
        lpm_cli_error(cmd, "'-%c' is not an option of this command (lpmpipe %s --help lists them)", optopt, cmd);
    else if (optopt)
        lpm_cli_error(cmd, "option '%s' needs a value (lpmpipe %s --help)", arg, cmd);
    else
        lpm_cli_error(cmd, "'%s' is not an option of this command (lpmpipe %s --help lists them)", arg, cmd);
    return '?';
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

int lpm_cli_trace_kind(const char *cmd, const char *opt, const char *arg)
{
    int k = lpm_trace_kind_parse(arg);
    if (k < 0)
        lpm_cli_error(cmd, "%s: unknown kind '%s' (%s)", opt, arg, LPM_TRACE_KIND_NAMES + 2);
    return k;
}

int lpm_cli_dit_answers(const char *cmd, const char *arg, int *queue)
{
    if (!strcmp(arg, "lane") || !strcmp(arg, "queue")) {
        *queue = !strcmp(arg, "queue");
        return 0;
    }
    lpm_cli_error(cmd, "--dit-answers: '%s' is not lane or queue", arg);
    return 2;
}

int lpm_cli_fib_option(const char *cmd, int c, const char *arg, lpm_fib_opts *o)
{
    uint64_t v;
    switch (c) {
    case LPM_OPT_FORMAT:
        o->format = lpm_fib_format_parse(arg);
        if (o->format < 0) {
            lpm_cli_error(cmd, "--format: '%s' is not one of auto" LPM_FIB_FORMAT_NAMES, arg);
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
        lpm_cli_error(cmd, "%s", err.msg);
        return rc;
    }
    if (f->peer[0])
        lpm_cli_note(cmd, "%s: using peer %s", path, f->peer);
    if (f->duplicates)
        lpm_cli_note(cmd, "%s: %zu duplicate prefix%s replaced by later lines", path, f->duplicates,
                     f->duplicates == 1 ? "" : "es");
    if (f->skipped)
        fprintf(stderr, "lpmpipe: %s: %s: %zu %s%s skipped\n", cmd, path, f->skipped, f->records ? "record" : "line",
                f->skipped == 1 ? "" : "s");
    return 0;
}

int lpm_cli_usage_error(const char *cmd)
{
    if (!errors_printed)
        lpm_cli_error(cmd, "bad usage (lpmpipe %s --help)", cmd);
    return 2;
}

FILE *lpm_cli_open_out(const char *cmd, const char *path, int *rc)
{
    FILE *fp;
    lpm_err err;
    int r = lpm_output_open(&fp, path ? path : "-", "w", &err);
    if (r) {
        lpm_cli_error(cmd, "%s", err.msg);
        if (rc)
            *rc = r;
        return NULL;
    }
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

int lpm_cli_u64_list(const char *cmd, const char *opt, const char *arg, uint64_t lo, uint64_t hi,
                     uint64_t *out, size_t max, size_t *n)
{
    char buf[512];
    if (!arg || strlen(arg) >= sizeof buf) {
        lpm_cli_error(cmd, "%s: the list is too long", opt);
        return LPM_EINPUT;
    }
    strcpy(buf, arg);
    *n = 0;
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        if (*n == max) {
            lpm_cli_error(cmd, "%s: more than %zu values", opt, max);
            return LPM_EINPUT;
        }
        if (lpm_cli_u64(cmd, opt, t, lo, hi, &out[(*n)++]))
            return LPM_EINPUT;
    }
    if (*n == 0 || arg[0] == ',' || arg[strlen(arg) - 1] == ',' || strstr(arg, ",,")) {
        lpm_cli_error(cmd, "%s: '%s' is not a comma-separated list of numbers", opt, arg);
        return LPM_EINPUT;
    }
    return 0;
}

/* The image's route section as a FIB (for the generators and --verify). */
int lpm_cli_image_fib(const lpm_image *img, lpm_fib *f, lpm_err *err)
{
    lpm_fib_init(f);
    const lpm_nhtab *nh = lpm_image_nhtab(img);
    for (size_t i = 0; i < nh->n; i++)
        if (lpm_nhtab_intern(&f->nh, nh->name[i], strlen(nh->name[i])) != i)
            return lpm_err_set(err, LPM_EFAIL, "out of memory");
    const lpm_route *r = lpm_image_routes(img);
    for (size_t i = 0; i < lpm_image_route_count(img); i++) {
        int rc = lpm_fib_add(f, &r[i].pfx, r[i].nh, err);
        if (rc)
            return rc;
    }
    if (!f->family)
        f->family = lpm_image_family(img);
    return lpm_fib_finish(f, err);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double lpm_cli_median(double *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}
