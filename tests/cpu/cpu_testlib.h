/* Helpers of the CPU engine tests: random clustered tables, addresses at
 * and around prefix edges, and the check of an engine (single and batch
 * lookups) against the reference. */
#ifndef LPM_CPU_TESTLIB_H
#define LPM_CPU_TESTLIB_H

#include "testutil.h"
#include "../../core/rng.h"
#include "../../cpu/cpu.h"

/* The CPU engines under test: every engine of the registry (cli/engines.c)
 * that counts its update cost (a `cost` hook in its ops), in
 * registry order; a new engine is tested here once it is registered. */
const lpm_engine_ops *const *ct_engine_list(void);
size_t ct_engine_count(void);
#define ct_engines (ct_engine_list())
#define ct_nengines (ct_engine_count())

int ct_supports(const lpm_engine_ops *e, int family);

/* A random table of n prefixes that nest and cluster like real ones. */
void ct_random_table(lpm_fib *f, int family, size_t n, uint64_t seed);
/* A random prefix near the table's (for adds). */
lpm_prefix ct_random_prefix(lpm_rng *r, int family);

/* Fills out[0..5]: first and last address of p, the ones just outside,
 * and two random ones inside. */
void ct_edges(const lpm_prefix *p, lpm_rng *r, lpm_addr *out);

/* Checks n addresses, one by one and as a batch. */
void ct_check(const lpm_engine_ops *e, const void *st, const lpm_ref *ref,
              const lpm_fib *fib, const lpm_addr *a, size_t n);

/* n addresses: edges of random table prefixes, inside them, uniform. */
void ct_mixed_addrs(const lpm_fib *f, lpm_rng *r, lpm_addr *a, size_t n);



#endif
