/* lpm_calloc_huge (core/hugemem.h). */
#include "hugemem.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

void *lpm_calloc_huge(size_t n, size_t size)
{
    const size_t huge = (size_t)2 << 20;
    if (size && n > SIZE_MAX / size)
        return NULL;
    size_t b = n * size;
    if (b < huge)
        return calloc(n ? n : 1, size ? size : 1);
    size_t r = (b + huge - 1) / huge * huge;
    void *p;
    if (posix_memalign(&p, huge, r))
        return NULL;
#ifdef MADV_HUGEPAGE
    (void)madvise(p, r, MADV_HUGEPAGE); /* advice only: small pages still work */
#endif
    memset(p, 0, b);
    return p;
}
