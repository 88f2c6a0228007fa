/* The DPDK peer: DPDK's own LPM libraries run in this process on the same
 * table and trace, as the engine a software-router engineer would pick and
 * as a second oracle. cpu/module.mk builds cpu/dpdk/peer_dpdk.c where
 * libdpdk is installed and cpu/dpdk/peer_none.c (every call fails, saying
 * so) elsewhere; callers test lpm_peer_built() and say "not built".
 *
 * A peer is one DPDK table (built once: rte_lpm's build of a full IPv4
 * table takes minutes) with several lookup paths, each named after the
 * call it makes (docs/cpu-engines.md lists them and why each is called
 * the way it is). */
#ifndef LPM_CPU_PEER_H
#define LPM_CPU_PEER_H

#include <stddef.h>
#include <stdint.h>

#include "../core/fib.h"

typedef struct lpm_peer lpm_peer;

/* 1 when this binary has the DPDK peer, 0 when it was built without. */
int lpm_peer_built(void);

/* rte_lpm (IPv4) / rte_lpm6 (IPv6), or rte_fib (DIR-24-8) / rte_fib6 (trie);
 * or'ed with LPM_PEER_SPARE, the tables get twice the tbl8 groups the
 * table needs, so a stream of updates does not run them out. */
enum { LPM_PEER_LPM = 0, LPM_PEER_FIB = 1, LPM_PEER_SPARE = 0x100 };

/* Builds a peer from a finished table. The first call starts DPDK's EAL
 * (no huge pages, no shared config files, no PCI, quiet) for the rest of
 * the process and raises DPDK's SIMD limit to 512 bits, so the AVX-512
 * lookups can be chosen. LPM_EFAIL with a reason when DPDK refuses. */
int lpm_peer_build(lpm_peer **out, int kind, const lpm_fib *fib, lpm_err *err);
/* The library: "rte_lpm", "rte_lpm6", "rte_fib", "rte_fib6". */
const char *lpm_peer_name(const lpm_peer *p);
/* The lookup paths of this peer (0..n-1), named after their calls. */
unsigned lpm_peer_paths(const lpm_peer *p);
const char *lpm_peer_path_name(const lpm_peer *p, unsigned path);
/* NULL when the path runs on this machine, else why it does not. */
const char *lpm_peer_path_unavailable(const lpm_peer *p, unsigned path);
/* Converts addresses to DPDK's key format once, outside any timing. */
int lpm_peer_prepare(lpm_peer *p, const lpm_addr *a, size_t n, lpm_err *err);
/* Chooses the path the next runs take (before any thread starts). */
void lpm_peer_use(lpm_peer *p, unsigned path);
/* Looks prepared keys [lo, hi) up through the chosen path (what a bench
 * times); several threads may run disjoint ranges at once. */
void lpm_peer_run(lpm_peer *p, size_t lo, size_t hi);
/* The last run's answers as next-hop indexes (LPM_NH_NONE: no route). */
void lpm_peer_results(const lpm_peer *p, uint32_t *nh);
/* Bytes of lookup tables DPDK allocated for this configuration. */
size_t lpm_peer_memory(const lpm_peer *p);
/* Incremental updates through rte_fib_add/rte_fib_delete (and the _6
 * forms, and rte_lpm's): add replaces; deleting an absent prefix is a
 * no-op. LPM_EFAIL with DPDK's reason otherwise. */
int lpm_peer_add(lpm_peer *p, const lpm_prefix *pfx, uint32_t nh, lpm_err *err);
int lpm_peer_del(lpm_peer *p, const lpm_prefix *pfx, lpm_err *err);
void lpm_peer_free(lpm_peer *p);

#endif
