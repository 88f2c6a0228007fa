/* Large flat arrays on transparent huge pages: the simulator and its
 * baseline walk read them at random, and with 4 KiB pages most reads of a
 * full table also miss the TLB (issue 11: a page walk per read). */
#ifndef LPM_HUGEMEM_H
#define LPM_HUGEMEM_H

#include <stddef.h>

/* calloc(n, size), 2 MiB aligned and advised MADV_HUGEPAGE when it is at
 * least 2 MiB (the kernel may still give small pages); free() frees it. */
void *lpm_calloc_huge(size_t n, size_t size);

/* Zero-filled pages mapped on their own (zeroed lazily by the kernel, so a
 * 64 MiB table costs nothing until touched), 2 MiB aligned and advised
 * MADV_HUGEPAGE; the CPU engines' big arrays (He et al. use large pages to
 * cut TLB misses). Freed with lpm_huge_free and the same byte count. */
void *lpm_huge_alloc(size_t bytes);
void lpm_huge_free(void *p, size_t bytes);

#endif
