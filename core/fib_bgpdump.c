/* `bgpdump -m` text: TABLE_DUMP / TABLE_DUMP2 RIB entries (B), BGP4MP and
 * BGP4MP_ET announcements (A) and withdrawals (W); STATE lines ignored. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fib_readers.h"
#include "fib_rib.h"

#define MAXF 20

static int is_digits(const char *s, size_t n)
{
    if (n == 0)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (s[i] < '0' || s[i] > '9')
            return 0;
    return 1;
}

/* "123" or "123.456". */
static int is_time(const char *s)
{
    const char *dot = strchr(s, '.');
    if (!dot)
        return is_digits(s, strlen(s));
    return is_digits(s, (size_t)(dot - s)) && is_digits(dot + 1, strlen(dot + 1));
}

static int bad(char *why, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int bad(char *why, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, size, fmt, ap);
    va_end(ap);
    return -1;
}

int lpm_bgpdump_parse_line(char *s, size_t len, int mask_host, lpm_bgpdump_line *out,
                           char *why, size_t whysize)
{
    char q[LPM_QUOTE_MAX];
#define Q(x) lpm_quote(q, sizeof q, (x), strlen(x))
    memset(out, 0, sizeof *out);
    if (len && s[len - 1] == '\r')
        s[--len] = '\0';
    char *f[MAXF];
    int n = 0;
    f[n++] = s;
    for (size_t i = 0; i < len; i++)
        if (s[i] == '|') {
            s[i] = '\0';
            if (n == MAXF)
                return bad(why, whysize, "too many '|' fields for a bgpdump -m line");
            f[n++] = s + i + 1;
        }
    const char *type = f[0];
    int rib = !strcmp(type, "TABLE_DUMP") || !strcmp(type, "TABLE_DUMP2");
    int msg = !strcmp(type, "BGP4MP") || !strcmp(type, "BGP4MP_ET");
    int ap = !strcmp(type, "TABLE_DUMP2_AP") || !strcmp(type, "BGP4MP_AP") || !strcmp(type, "BGP4MP_ET_AP");
    if (!rib && !msg && !ap)
        return bad(why, whysize, "unknown bgpdump record type '%s'", Q(type));
    if (n < 3)
        return bad(why, whysize, "%s line with %d field%s (need at least 6)", type, n, n == 1 ? "" : "s");
    if (!is_time(f[1]))
        return bad(why, whysize, "bad timestamp '%s'", Q(f[1]));
    out->time = strtod(f[1], NULL);
    const char *op = f[2];
    if (!strcmp(op, "STATE")) {
        if (!msg && !ap)
            return bad(why, whysize, "STATE line in a %s dump", type);
        if (n != 7)
            return bad(why, whysize, "STATE line with %d fields (need 7)", n);
        out->kind = 'S';
        return 0;
    }
    int kind = op[0] && !op[1] ? op[0] : 0;
    if (kind != 'A' && kind != 'W' && kind != 'B')
        return bad(why, whysize, "unknown entry type '%s' (expected B, A, W or STATE)", Q(op));
    if (rib && kind != 'B')
        return bad(why, whysize, "'%s' entry in a %s line (RIB dumps hold B entries)", op, type);
    if (msg && kind == 'B')
        return bad(why, whysize, "'B' entry in a %s line (messages hold A and W)", type);
    if (ap) {
        /* RFC 8050 add-path: several paths per prefix; not read (counted). */
        out->kind = 0;
        return 0;
    }
    int need = kind == 'W' ? 6 : 9;
    if (n < need)
        return bad(why, whysize, "%s line with %d fields (need %s)", op, n,
                   kind == 'W' ? "6: type|time|W|peer|as|prefix" : "at least 9, up to the next hop");
    if (kind == 'W' && (n > 7 || (n == 7 && *f[6])))
        return bad(why, whysize, "W line with more than 6 fields");
    lpm_err e;
    if (lpm_addr_parse(f[3], &out->peer_family, &out->peer, &e))
        return bad(why, whysize, "peer address: %s", e.msg);
    size_t al = strlen(f[4]);
    if (!is_digits(f[4], al) || al > 10 || strtoull(f[4], NULL, 10) > 4294967295ULL)
        return bad(why, whysize, "bad peer AS '%s'", Q(f[4]));
    out->peer_as = (uint32_t)strtoul(f[4], NULL, 10);
    if (lpm_prefix_parse(f[5], 0, mask_host, &out->pfx, &e))
        return bad(why, whysize, "%s", e.msg);
    if (kind != 'W') {
        out->nh = f[8];
        out->nhlen = strlen(f[8]);
        if (out->nhlen == 0)
            return bad(why, whysize, "empty next-hop field");
        if (strpbrk(f[8], " \t"))
            return bad(why, whysize, "next hop '%s' is not one token", Q(f[8]));
        /* bgpdump prints INADDR_NONE when a route has no next hop. */
        if (!strcmp(f[8], "255.255.255.255")) {
            out->nh = NULL;
            out->nhlen = 0;
        }
    }
    out->kind = kind;
    return 0;
}

int lpm_fib_read_bgpdump(lpm_fib *f, lpm_input *in, const lpm_fib_opts *o, lpm_err *err)
{
    lpm_rib rib;
    int rc = lpm_rib_init(&rib, o, err);
    if (rc) {
        lpm_rib_free(&rib);
        return rc;
    }
    char *line;
    size_t len;
    int r;
    char why[sizeof(lpm_err)];
    while ((r = lpm_input_getline(in, &line, &len, err)) == 1) {
        size_t i = 0;
        while (i < len && (line[i] == ' ' || line[i] == '\t'))
            i++;
        if (i == len || line[i] == '#' || (line[i] == '\r' && i + 1 == len))
            continue;
        lpm_bgpdump_line bl;
        if (!lpm_fib_text_check(line, len, "a text table", why, sizeof why))
            ;
        else if (lpm_bgpdump_parse_line(line, len, o->mask_host_bits, &bl, why, sizeof why) == 0) {
            if (bl.kind == 'S')
                continue;
            if (bl.kind == 0) {
                rib.skipped++;
                continue;
            }
            uint32_t peer = lpm_rib_peer_id(&rib, &bl.peer, bl.peer_family, bl.peer_as);
            if (peer == UINT32_MAX)
                rc = lpm_err_set(err, LPM_EFAIL, "out of memory");
            else
                rc = lpm_rib_add(&rib, peer, &bl.pfx, bl.nh, bl.nhlen, bl.kind == 'W',
                                 lpm_input_lineno(in), err);
            if (rc)
                break;
            continue;
        }
        if ((rc = lpm_fib_reader_bad(f, in, o, why, err)))
            break;
    }
    if (!rc && r < 0)
        rc = strstr(err->msg, "memory") ? LPM_EFAIL : LPM_EINPUT;
    if (!rc)
        rc = lpm_rib_finish(&rib, f, lpm_input_name(in), lpm_input_lineno(in), err);
    lpm_rib_free(&rib);
    return rc;
}
