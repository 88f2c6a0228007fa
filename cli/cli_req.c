/* The request options every command that makes lookups shares (cli.h):
 * parsed, checked and described once. */
#include <inttypes.h>
#include <string.h>

#include "cli.h"
#include "../core/trace.h"

void lpm_cli_req_init(lpm_cli_req *r, int kind, uint64_t count, uint64_t count_max)
{
    memset(r, 0, sizeof *r);
    r->kind = r->kind_def = kind;
    r->count = r->count_def = count;
    r->count_max = count_max;
    r->seed = 1;
    r->gen_opt = "--gen";
}

int lpm_cli_req_option(const char *cmd, int c, const char *arg, lpm_cli_req *r)
{
    switch (c) {
    case LPM_OPT_TRACE:
        if (r->no_trace)
            return 0;
        r->trace = arg;
        return 1;
    case LPM_OPT_GEN:
    case LPM_OPT_KIND:
        r->gen = arg;
        r->gen_opt = c == LPM_OPT_GEN ? "--gen" : "--kind";
        r->gen_set = 1;
        return 1;
    case LPM_OPT_COUNT:
        r->gen_set = 1;
        return lpm_cli_u64(cmd, "--count", arg, 1, r->count_max, &r->count) ? -1 : 1;
    case LPM_OPT_SEED:
        r->gen_set = 1;
        return lpm_cli_u64(cmd, "--seed", arg, 0, UINT64_MAX, &r->seed) ? -1 : 1;
    default:
        return 0;
    }
}

int lpm_cli_req_kind(const char *cmd, lpm_cli_req *r)
{
    if (!r->gen)
        return 0;
    if (!r->list)
        return (r->kind = lpm_cli_trace_kind(cmd, r->gen_opt, r->gen)) < 0 ? -1 : 0;
    char kb[256];
    if (strlen(r->gen) >= sizeof kb) {
        lpm_cli_error(cmd, "%s: list too long", r->gen_opt);
        return -1;
    }
    snprintf(kb, sizeof kb, "%s", r->gen);
    int first = -1;
    for (char *sv = NULL, *k = strtok_r(kb, ",", &sv); k; k = strtok_r(NULL, ",", &sv)) {
        int kind = lpm_cli_trace_kind(cmd, r->gen_opt, k);
        if (kind < 0)
            return -1;
        if (first < 0)
            first = kind;
    }
    r->kind = first;
    return 0;
}

/* 100000 -> "100K": the suffixes --count takes (powers of 1000). */
static const char *count_text(uint64_t v, char *buf, size_t n)
{
    const char *suf = "";
    if (v >= 1000000000 && v % 1000000000 == 0)
        v /= 1000000000, suf = "G";
    else if (v >= 1000000 && v % 1000000 == 0)
        v /= 1000000, suf = "M";
    else if (v >= 1000 && v % 1000 == 0)
        v /= 1000, suf = "K";
    snprintf(buf, n, "%" PRIu64 "%s", v, suf);
    return buf;
}

void lpm_cli_req_help(FILE *fp, const lpm_cli_req *r)
{
    char def[64] = "", range[48] = "", cd[24];
    int w = r->help_width ? (int)r->help_width : 19; /* the option column, as the command's own lines */
    if (r->kind_def >= 0)
        snprintf(def, sizeof def, " (default %s)", lpm_trace_kind_name(r->kind_def));
    if (r->count_max < 1000000000000ULL) /* a bound worth saying (the others: memory) */
        snprintf(range, sizeof range, ", 1..%s", count_text(r->count_max, cd, sizeof cd));
    if (!r->no_trace)
        fprintf(fp, "  %-*s the requests' addresses, one per line (docs/synthetic.md)\n", w, "--trace FILE");
    fprintf(fp, "  %-*s generate them from the table: uniform, random-match, table,\n"
                "  %-*s zipf%s; --kind is the same option\n",
            w, r->list ? "--gen K[,K...]" : "--gen KIND", w, "", def);
    if (r->list)
        fprintf(fp, "  %-*s (a comma list: each kind in turn)\n", w, "");
    if (r->count_def)
        fprintf(fp, "  %-*s requests to generate%s (default %s)\n", w, "--count N", range,
                count_text(r->count_def, cd, sizeof cd));
    else
        fprintf(fp, "  %-*s requests to generate%s (required)\n", w, "--count N", range);
    fprintf(fp, "  %-*s generator seed (default 1); same inputs and seed, same requests\n", w, "--seed S");
}
