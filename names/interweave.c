#include "interweave.h"

#include <stdlib.h>
#include <string.h>

int lpm_niw_build(lpm_niw *iw, const lpm_ntable *list, lpm_err *err)
{
    memset(iw, 0, sizeof *iw);
    size_t n = list->n, ng = (n + 31) / 32;
    iw->n = n;
    iw->ngroups = ng;
    iw->grp = malloc((ng + 1) * sizeof *iw->grp);
    iw->len = malloc((n ? n : 1) * sizeof *iw->len);
    if (!iw->grp || !iw->len)
        goto oom;
    size_t nw = 0;
    for (size_t g = 0; g < ng; g++) {
        uint32_t rows = 0;
        for (size_t i = g * 32; i < n && i < g * 32 + 32; i++) {
            uint32_t r = (list->e[i].len + 3) / 4;
            if (r > rows)
                rows = r;
        }
        iw->grp[g] = nw;
        nw += (size_t)rows * 32;
    }
    iw->grp[ng] = nw;
    iw->nw = nw;
    iw->w = calloc(nw ? nw : 1, sizeof *iw->w);
    if (!iw->w)
        goto oom;
    for (size_t i = 0; i < n; i++) {
        uint32_t *g = iw->w + iw->grp[i / 32];
        unsigned lane = (unsigned)(i % 32);
        const unsigned char *s = (const unsigned char *)lpm_ntable_name(list, i);
        iw->len[i] = list->e[i].len;
        for (uint32_t k = 0; k < list->e[i].len; k++)
            g[(k >> 2) * 32 + lane] |= (uint32_t)s[k] << (8 * (k & 3));
    }
    return 0;
oom:
    lpm_niw_free(iw);
    return lpm_err_set(err, LPM_EFAIL, "out of memory");
}

void lpm_niw_free(lpm_niw *iw)
{
    free(iw->w);
    free(iw->grp);
    free(iw->len);
    memset(iw, 0, sizeof *iw);
}

size_t lpm_niw_get(const lpm_niw *iw, size_t i, char *out)
{
    const uint32_t *g = iw->w + iw->grp[i / 32];
    for (uint32_t k = 0; k < iw->len[i]; k++)
        out[k] = (char)lpm_nm_iw_char(g, (unsigned)(i % 32), k);
    out[iw->len[i]] = 0;
    return iw->len[i];
}

void lpm_niw_lookup(const lpm_niw *iw, const lpm_nm_view *v, uint32_t *out)
{
    for (size_t i = 0; i < iw->n; i++)
        out[i] = lpm_nm_lookup_iw(v, iw->w + iw->grp[i / 32], (unsigned)(i % 32), iw->len[i]);
}
