/* Next-hop table: the tokens a file gives as next hops (addresses, AS
 * numbers, labels), interned once each. Tries and engines store the index;
 * LPM_NH_NONE means "no route". */
#ifndef LPM_NHTAB_H
#define LPM_NHTAB_H

#include <stddef.h>
#include <stdint.h>

#define LPM_NH_NONE UINT32_MAX

typedef struct lpm_nhtab {
    char **name;       /* index -> token */
    size_t n, cap;
    uint32_t *slot;    /* open-addressing hash of indexes, UINT32_MAX empty */
    size_t nslots;
} lpm_nhtab;

void lpm_nhtab_init(lpm_nhtab *t);
void lpm_nhtab_free(lpm_nhtab *t);
/* Index of token (len bytes), adding it if new; LPM_NH_NONE on no memory. */
uint32_t lpm_nhtab_intern(lpm_nhtab *t, const char *token, size_t len);
/* Index of token or LPM_NH_NONE when absent. */
uint32_t lpm_nhtab_find(const lpm_nhtab *t, const char *token, size_t len);
static inline const char *lpm_nhtab_name(const lpm_nhtab *t, uint32_t i)
{
    return i < t->n ? t->name[i] : "-";
}

#endif
