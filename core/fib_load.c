/* lpm_fib_load: opens the input, picks the format (the table made from
 * LPM_FIB_FORMATS, or sniffing for auto) and runs its reader. */
#include <stdio.h>
#include <string.h>

#include "fib_readers.h"

/* The format table, indexed by enum lpm_fib_format: LPM_FIB_FORMATS. */
static const struct {
    const char *name;
    lpm_fib_reader read;
} formats[LPM_FMT_COUNT] = {
    [LPM_FMT_AUTO] = { "auto", NULL },
#define ROW(ID, name) [LPM_FMT_##ID] = { #name, lpm_fib_read_##name },
    LPM_FIB_FORMATS(ROW)
#undef ROW
};

const char *lpm_fib_format_name(int fmt)
{
    return fmt >= 0 && fmt < LPM_FMT_COUNT ? formats[fmt].name : "?";
}

int lpm_fib_format_parse(const char *s)
{
    for (int i = 0; i < LPM_FMT_COUNT; i++)
        if (strcmp(s, formats[i].name) == 0)
            return i;
    return -1;
}

static int is_mrt_type(unsigned t)
{
    return t == 12 || t == 13 || t == 16 || t == 17;
}

int lpm_fib_sniff(const unsigned char *b, size_t n)
{
    if (n >= 12) {
        unsigned type = (unsigned)b[4] << 8 | b[5];
        uint32_t len = (uint32_t)b[8] << 24 | (uint32_t)b[9] << 16 | (uint32_t)b[10] << 8 | b[11];
        int text = 1;
        for (size_t i = 0; i < 12; i++)
            if (b[i] < 9 || (b[i] > 13 && b[i] < 32) || b[i] > 126)
                text = 0;
        if (!text && is_mrt_type(type) && len < (1u << 24))
            return LPM_FMT_MRT;
    }
    /* First non-comment line decides between the text formats. */
    size_t i = 0;
    while (i < n) {
        size_t e = i;
        while (e < n && b[e] != '\n')
            e++;
        const char *l = (const char *)b + i;
        size_t len = e - i;
        i = e + 1;
        while (len && (*l == ' ' || *l == '\t')) {
            l++;
            len--;
        }
        if (len == 0 || *l == '#' || *l == '\r')
            continue;
        static const char *const dump_types[] = { "TABLE_DUMP|", "TABLE_DUMP2|", "BGP4MP|", "BGP4MP_ET|",
                                                  "TABLE_DUMP2_AP|", "BGP4MP_AP|", "BGP4MP_ET_AP|" };
        for (size_t t = 0; t < sizeof dump_types / sizeof dump_types[0]; t++) {
            size_t k = strlen(dump_types[t]);
            if (len > k && memcmp(l, dump_types[t], k) == 0)
                return LPM_FMT_BGPDUMP;
        }
        /* pfx2as: "net<TAB>len<TAB>label", no '/' in the first token. */
        const char *tab = memchr(l, '\t', len);
        const char *slash = memchr(l, '/', len);
        if (tab && (!slash || slash > tab)) {
            const char *d = tab + 1;
            size_t k = 0;
            while (d + k < l + len && d[k] >= '0' && d[k] <= '9')
                k++;
            if (k > 0 && d + k < l + len && d[k] == '\t')
                return LPM_FMT_PFX2AS;
        }
        return LPM_FMT_PLAIN;
    }
    return LPM_FMT_PLAIN;
}

int lpm_fib_load(lpm_fib *f, const char *path, const lpm_fib_opts *o, lpm_err *err)
{
    lpm_fib_opts def;
    if (!o) {
        lpm_fib_opts_default(&def);
        o = &def;
    }
    lpm_fib_free(f);
    lpm_fib_init(f);
    lpm_input *in;
    int rc = lpm_input_open(&in, path, err);
    if (rc)
        return rc;
    int fmt = o->format;
    if (fmt == LPM_FMT_AUTO) {
        const unsigned char *b;
        lpm_err e;
        e.msg[0] = '\0';
        size_t n = lpm_input_peek(in, &b, &e);
        if (n == 0 && e.msg[0]) {
            lpm_input_close(in);
            rc = strstr(e.msg, "memory") || strstr(e.msg, "read error") ? LPM_EFAIL : LPM_EINPUT;
            return lpm_err_set(err, rc, "%s", e.msg);
        }
        if (n == 0) {
            lpm_input_close(in);
            return lpm_err_set(err, LPM_EINPUT, "%s:0: empty file: no prefixes", path);
        }
        fmt = lpm_fib_sniff(b, n);
    }
    if (fmt > LPM_FMT_AUTO && fmt < LPM_FMT_COUNT)
        rc = formats[fmt].read(f, in, o, err);
    else
        rc = lpm_err_set(err, LPM_EINPUT, "unknown format %d", fmt);
    unsigned long lines = lpm_input_lineno(in);
    lpm_input_close(in);
    if (rc == LPM_OK)
        rc = lpm_fib_finish(f, err);
    if (rc == LPM_OK && f->n == 0) {
        if (f->records)
            rc = lpm_err_set(err, LPM_EINPUT, "%s: %lu record%s: no prefixes in table%s", path, lines, lines == 1 ? "" : "s",
                             f->skipped ? " (all records skipped)" : "");
        else
            rc = lpm_err_set(err, LPM_EINPUT, "%s:%lu: no prefixes in table%s", path, lines,
                             f->skipped ? " (all lines skipped)" : "");
    }
    if (rc) {
        lpm_fib_free(f);
        lpm_fib_init(f);
    }
    return rc;
}
