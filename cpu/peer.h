/* The DPDK peer: DPDK's own LPM libraries run in this process on the same
 * table and trace, as the engine a software-router engineer would pick and
 * as a second oracle. cpu/module.mk builds cpu/dpdk/peer_dpdk.c where
 * libdpdk is installed and cpu/dpdk/peer_none.c (every call fails, saying
 * so) elsewhere; callers test lpm_peer_built() and say "not built". */
#ifndef LPM_CPU_PEER_H
#define LPM_CPU_PEER_H

#include <stddef.h>
#include <stdint.h>

#include "../core/fib.h"

typedef struct lpm_peer lpm_peer;

/* 1 when this binary has the DPDK peer, 0 when it was built without. */
int lpm_peer_built(void);

/* rte_lpm (IPv4) / rte_lpm6 (IPv6), or rte_fib (DIR-24-8) / rte_fib6 (trie). */
enum { LPM_PEER_LPM = 0, LPM_PEER_FIB = 1 };

/* Builds a peer from a finished table. The first call starts DPDK's EAL
 * (no huge pages, no shared config files, no PCI, quiet) for the rest of the process.
 * LPM_EFAIL with a reason when DPDK refuses. */
int lpm_peer_build(lpm_peer **out, int kind, const lpm_fib *fib, lpm_err *err);
/* "rte_lpm", "rte_lpm6", "rte_fib", "rte_fib6" (plus the lookup variant). */
const char *lpm_peer_name(const lpm_peer *p);
/* Converts addresses to DPDK's key format once, outside any timing. */
int lpm_peer_prepare(lpm_peer *p, const lpm_addr *a, size_t n, lpm_err *err);
/* Looks prepared keys [lo, hi) up with DPDK's bulk call (what a bench
 * times); several threads may run disjoint ranges at once. */
void lpm_peer_run(lpm_peer *p, size_t lo, size_t hi);
/* The last run's answers as next-hop indexes (LPM_NH_NONE: no route). */
void lpm_peer_results(const lpm_peer *p, uint32_t *nh);
/* Bytes of lookup tables DPDK allocated for this configuration. */
size_t lpm_peer_memory(const lpm_peer *p);
void lpm_peer_free(lpm_peer *p);

#endif
