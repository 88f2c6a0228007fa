/* One interface over the name structures, for the CLI, tests and benches:
 * ref (the oracle), trie (character trie, d = 1), ata, mata. */
#ifndef LPM_NENGINE_H
#define LPM_NENGINE_H

#include <stddef.h>
#include <stdint.h>

#include "../core/err.h"
#include "naa.h"
#include "nref.h"
#include "ntrie.h"

typedef enum { LPM_NE_REF, LPM_NE_TRIE, LPM_NE_ATA, LPM_NE_MATA } lpm_ne_kind;

typedef struct lpm_nengine {
    lpm_ne_kind kind;
    lpm_nref *ref;
    lpm_ntrie trie;
    lpm_naa aa;
} lpm_nengine;

/* "ref", "trie", "ata", "mata" -> kind; -1 when unknown. */
int lpm_nengine_kind(const char *name);
const char *lpm_nengine_name(lpm_ne_kind k);
/* aa_opts: for ata/mata (NULL: defaults). The table must be sorted. */
int lpm_nengine_build(lpm_nengine *e, lpm_ne_kind k, const lpm_ntable *sorted,
                      const lpm_naa_opts *aa_opts, lpm_err *err);
void lpm_nengine_free(lpm_nengine *e);
uint32_t lpm_nengine_lookup(const lpm_nengine *e, const char *s, size_t len);
int lpm_nengine_insert(lpm_nengine *e, const char *s, size_t len, uint32_t port, lpm_err *err);
int lpm_nengine_delete(lpm_nengine *e, const char *s, size_t len);
/* Lookup memory in bytes (what the paper compares). */
uint64_t lpm_nengine_bytes(const lpm_nengine *e);

#endif
