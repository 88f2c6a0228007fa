/* Lookups and route updates for the GPU runs and the gpu tests:
 * deterministic in the seed, built from the table itself. */
#ifndef LPM_GPU_WORKLOAD_H
#define LPM_GPU_WORKLOAD_H

#include <stddef.h>
#include <stdint.h>

#include "../core/err.h"
#include "../core/fib.h"
#include "../core/trace.h"

/* n addresses: half inside a random table prefix (host bits random, as
 * GAMT's traffic), half uniform over the family's space (IPv6: 2000::/3). */
void lpm_gpu_addrs(const lpm_fib *f, size_t n, uint64_t seed, lpm_addr *out);

/* n updates against f: withdrawals of table prefixes, re-announcements
 * with another next hop, and new prefixes one or two bits below a table
 * prefix. Next hops are indexes of f->nh. *out is malloc'ed. */
int lpm_gpu_updates_gen(const lpm_fib *f, size_t n, uint64_t seed, lpm_update **out, lpm_err *err);

/* An update trace file (any format lpm_updates_load reads; the first
 * peer of a bgpdump file); mask_host: the command's --mask-host-bits. */
int lpm_gpu_updates_load(const char *path, lpm_fib *f, int mask_host, lpm_update **out, size_t *n, lpm_err *err);

#endif
