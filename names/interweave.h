/* The paper's interweaved input layout (section 4.3): names are cut into
 * 4-byte slices; each group of 32 names (one warp) is stored row by row,
 * row r holding slice r of each of the 32 names, so a warp's 32 reads of a
 * row fall into one 128-byte block. Short names and missing lanes are zero.
 * The CPU build runs the kernel's body (lpm_nm_lookup_iw) over this layout. */
#ifndef LPM_INTERWEAVE_H
#define LPM_INTERWEAVE_H

#include <stddef.h>
#include <stdint.h>

#include "../core/err.h"
#include "nstep.h"
#include "ntable.h"

typedef struct lpm_niw {
    uint32_t *w;       /* all groups, back to back */
    size_t nw;
    uint64_t *grp;     /* word offset of each group; grp[ngroups] = nw */
    uint32_t *len;     /* length of each name */
    size_t n, ngroups;
} lpm_niw;

/* Interweaves the names of list (ports ignored), in list order. */
int lpm_niw_build(lpm_niw *iw, const lpm_ntable *list, lpm_err *err);
void lpm_niw_free(lpm_niw *iw);
/* Reads name i back (out: LPM_NAME_MAX + 1 bytes); returns its length. */
size_t lpm_niw_get(const lpm_niw *iw, size_t i, char *out);
/* Looks every name up as the kernel does, one lane at a time. */
void lpm_niw_lookup(const lpm_niw *iw, const lpm_nm_view *v, uint32_t *out);

#endif
