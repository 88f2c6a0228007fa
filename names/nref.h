/* The reference name LPM (the oracle for every name test): a hash table of
 * the table's names; a lookup probes the name's component prefixes from the
 * longest to the shortest. Obvious on purpose. */
#ifndef LPM_NREF_H
#define LPM_NREF_H

#include <stddef.h>
#include <stdint.h>

#include "../core/err.h"
#include "ntable.h"

typedef struct lpm_nref lpm_nref;

int lpm_nref_build(lpm_nref **r, const lpm_ntable *t, lpm_err *err);
void lpm_nref_free(lpm_nref *r);
/* Port of the longest table name that is a component prefix of the
 * normalized name s, or LPM_NM_NONE (0xFFFFFFFF). */
uint32_t lpm_nref_lookup(const lpm_nref *r, const char *s, size_t len);
/* The matching table name's length (-1 for none), for mismatch messages. */
long lpm_nref_match_len(const lpm_nref *r, const char *s, size_t len);
/* Inserts or replaces (returns 0), or LPM_EFAIL when out of memory. */
int lpm_nref_insert(lpm_nref *r, const char *s, size_t len, uint32_t port, lpm_err *err);
/* Returns 1 when removed, 0 when absent. */
int lpm_nref_delete(lpm_nref *r, const char *s, size_t len);
/* Exact port of s, or NONE. */
uint32_t lpm_nref_get(const lpm_nref *r, const char *s, size_t len);
size_t lpm_nref_count(const lpm_nref *r);
size_t lpm_nref_mem(const lpm_nref *r);

#endif
