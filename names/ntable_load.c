/* lpm_ntable_load: a "NAME PORT" file, every line checked; duplicates are
 * found with the reference's hash set (nref.h), so this file sits above
 * both ntable.c and nref.c. */
#include <stdlib.h>
#include <string.h>

#include "../core/input.h"
#include "nref.h"
#include "nstep.h"
#include "ntable.h"

int lpm_ntable_load(lpm_ntable *t, const char *path, int skip_bad, size_t *skipped, lpm_err *err)
{
    lpm_input *in;
    int rc = lpm_input_open(&in, path, err);
    if (rc)
        return rc;
    lpm_ntable_init(t);
    lpm_nref *seen = NULL; /* name -> line, to name duplicates by line */
    lpm_ntable none;
    lpm_ntable_init(&none);
    if ((rc = lpm_nref_build(&seen, &none, err))) {
        lpm_input_close(in);
        return rc;
    }
    char norm[LPM_NAME_MAX + 1], q[LPM_QUOTE_MAX];
    char *line;
    size_t len, nskip = 0;
    unsigned long first = 0;
    while ((rc = lpm_input_getline(in, &line, &len, err)) == 1) {
        const char *why = NULL;
        if (len && line[len - 1] == '\r')
            len--;
        if (memchr(line, 0, len)) {
            why = "NUL byte in line";
            goto bad;
        }
        size_t i = 0;
        while (i < len && (line[i] == ' ' || line[i] == '\t'))
            i++;
        if (i == len || line[i] == '#')
            continue;
        size_t ns = i;
        while (i < len && line[i] != ' ' && line[i] != '\t')
            i++;
        size_t ne = i;
        while (i < len && (line[i] == ' ' || line[i] == '\t'))
            i++;
        size_t ps = i;
        while (i < len && line[i] != ' ' && line[i] != '\t')
            i++;
        size_t pe = i;
        while (i < len && (line[i] == ' ' || line[i] == '\t'))
            i++;
        if (ps == pe) {
            why = "missing port (expected 'NAME PORT')";
            goto bad;
        }
        if (i < len) {
            why = "trailing text after the port";
            goto bad;
        }
        long nl = lpm_name_normalize(line + ns, ne - ns, norm, &why);
        if (nl < 0)
            goto bad;
        uint32_t port = 0;
        for (size_t k = ps; k < pe; k++) {
            if (line[k] < '0' || line[k] > '9' || port > LPM_NAME_PORT_MAX) {
                why = "port is not a whole number in 0..65535";
                goto bad;
            }
            port = port * 10 + (uint32_t)(line[k] - '0');
        }
        if (port > LPM_NAME_PORT_MAX || pe - ps > 5) {
            why = "port is not a whole number in 0..65535";
            goto bad;
        }
        first = lpm_nref_get(seen, norm, (size_t)nl);
        if (first != LPM_NM_NONE) {
            if (skip_bad) {
                nskip++;
                continue;
            }
            rc = lpm_err_at(err, LPM_EINPUT, lpm_input_name(in), lpm_input_lineno(in),
                            "duplicate name (first at line %lu)", first);
            goto out;
        }
        if ((rc = lpm_nref_insert(seen, norm, (size_t)nl, (uint32_t)lpm_input_lineno(in), err)) ||
            (rc = lpm_ntable_add(t, norm, (size_t)nl, port, err)))
            goto out;
        continue;
    bad:
        if (skip_bad) {
            nskip++;
            continue;
        }
        rc = lpm_err_at(err, LPM_EINPUT, lpm_input_name(in), lpm_input_lineno(in), "%s: '%s'", why,
                        lpm_quote(q, sizeof q, line, len));
        goto out;
    }
    if (rc < 0) {
        rc = LPM_EINPUT;
        goto out;
    }
    rc = 0;
    if (skipped)
        *skipped = nskip;
    if (t->n == 0)
        rc = lpm_err_at(err, LPM_EINPUT, lpm_input_name(in), lpm_input_lineno(in), "no names in the table%s",
                        nskip ? " (all lines skipped)" : "");
    else if (lpm_ntable_sort(t, err)) /* no duplicates left: only sorts */
        rc = LPM_EFAIL;
out:
    lpm_nref_free(seen);
    lpm_input_close(in);
    if (rc)
        lpm_ntable_free(t);
    return rc;
}
