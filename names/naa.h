/* Aligned transition arrays built from the trie: the plain ATA (one array,
 * slot = state id + input, grows as needed) and MATA (several ATAs whose
 * lengths are primes, the state id naming its ATA, slot = (base + input)
 * mod L). Both keep the trie as their control plane: inserts and deletes go
 * to the trie first, then the changed transitions are written, a state being
 * relocated when its new transition collides (paper, section 2.5). */
#ifndef LPM_NAA_H
#define LPM_NAA_H

#include <stddef.h>
#include <stdint.h>

#include "../core/err.h"
#include "nstep.h"
#include "ntable.h"
#include "ntrie.h"

#define LPM_NAA_MAX_PRIMES 8

typedef struct lpm_naa_opts {
    int mata;                              /* 0: plain ATA, 1: MATA */
    unsigned stride;                       /* d, 1..4 */
    uint32_t primes[LPM_NAA_MAX_PRIMES];   /* MATA lengths, ascending; 0 ends */
    uint64_t max_entries;                  /* plain ATA: refuse to grow beyond */
    unsigned fanout_max;                   /* stride rule, see lpm_ntrie_build */
} lpm_naa_opts;

/* Defaults: d = 4 for MATA, 1 for ATA; primes 1048573, 4194301, 16777213;
 * at most 2^26 entries (512 MiB) for the plain ATA. */
void lpm_naa_default_opts(lpm_naa_opts *o, int mata);

typedef struct lpm_naa {
    lpm_ntrie trie;
    lpm_naa_opts o;
    lpm_nm_entry *e;
    uint64_t n, cap;
    uint8_t *used; /* one bit per slot: a state's base is taken */
    uint32_t *nf;  /* per slot: next free candidate, local to its ATA */
    uint64_t low[LPM_NM_MAX_ATAS]; /* scans start here: holes below were given up */
    uint64_t top[LPM_NM_MAX_ATAS]; /* MATA: past every narrow state's slots */
    lpm_nm_ata_desc ata[LPM_NM_MAX_ATAS];
    uint32_t nata;
    uint64_t occupied, relocations;
} lpm_naa;

int lpm_naa_build(lpm_naa *a, const lpm_ntable *sorted, const lpm_naa_opts *o, lpm_err *err);
void lpm_naa_free(lpm_naa *a);
void lpm_naa_view(const lpm_naa *a, lpm_nm_view *v);
uint32_t lpm_naa_lookup(const lpm_naa *a, const char *s, size_t len);
int lpm_naa_insert(lpm_naa *a, const char *s, size_t len, uint32_t port, lpm_err *err);
/* 1 removed, 0 absent. */
int lpm_naa_delete(lpm_naa *a, const char *s, size_t len);
/* Bytes a lookup needs: every slot of the array(s), vacant ones included. */
uint64_t lpm_naa_bytes(const lpm_naa *a);

#endif
