/* The reference LPM: the oracle every test in the project is judged by.
 * Deliberately simple: one hash table of exact prefixes per length, probed
 * from the longest present length down. */
#ifndef LPM_REF_LPM_H
#define LPM_REF_LPM_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "fib.h"
#include "prefix.h"

typedef struct lpm_ref lpm_ref;

lpm_ref *lpm_ref_new(int family);
void lpm_ref_free(lpm_ref *r);
/* Builds from a finished FIB (next hops are the FIB's indexes). */
int lpm_ref_build(lpm_ref **out, const lpm_fib *f, lpm_err *err);

/* Adds or replaces; returns LPM_OK, or LPM_EFAIL on no memory. */
int lpm_ref_add(lpm_ref *r, const lpm_prefix *p, uint32_t nh);
/* Removes; returns 1 if the prefix was present, 0 if not. */
int lpm_ref_del(lpm_ref *r, const lpm_prefix *p);
/* Exact-match query: the next hop of prefix p, or LPM_NH_NONE. */
uint32_t lpm_ref_get(const lpm_ref *r, const lpm_prefix *p);

/* Longest match of a: next hop or LPM_NH_NONE; *len (if non-NULL) gets the
 * matched length or -1. */
uint32_t lpm_ref_lookup(const lpm_ref *r, const lpm_addr *a, int *len);

/* n lookups at once (answers as lpm_ref_lookup gives them). */
void lpm_ref_lookup_batch(const lpm_ref *r, const lpm_addr *a, uint32_t *nh, size_t n);

size_t lpm_ref_count(const lpm_ref *r);
size_t lpm_ref_memory(const lpm_ref *r);

#endif
