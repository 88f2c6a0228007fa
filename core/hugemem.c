/* lpm_calloc_huge, lpm_huge_alloc and lpm_huge_free (core/hugemem.h). */
#include "hugemem.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define HUGE_2M ((size_t)2 << 20)

void *lpm_calloc_huge(size_t n, size_t size)
{
    if (size && n > SIZE_MAX / size)
        return NULL;
    size_t b = n * size;
    if (b < HUGE_2M)
        return calloc(n ? n : 1, size ? size : 1);
    size_t r = (b + HUGE_2M - 1) / HUGE_2M * HUGE_2M;
    void *p;
    if (posix_memalign(&p, HUGE_2M, r))
        return NULL;
#ifdef MADV_HUGEPAGE
    (void)madvise(p, r, MADV_HUGEPAGE); /* advice only: small pages still work */
#endif
    memset(p, 0, b);
    return p;
}

void *lpm_huge_alloc(size_t bytes)
{
    size_t sz = (bytes + HUGE_2M - 1) & ~(HUGE_2M - 1);
    /* Huge pages need 2 MiB-aligned addresses: map 2 MiB more and trim. */
    char *m = mmap(NULL, sz + HUGE_2M, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        return NULL;
    char *p = (char *)(((uintptr_t)m + HUGE_2M - 1) & ~(uintptr_t)(HUGE_2M - 1));
    if (p > m)
        munmap(m, (size_t)(p - m));
    if (p + sz < m + sz + HUGE_2M)
        munmap(p + sz, (size_t)(m + sz + HUGE_2M - (p + sz)));
#ifdef MADV_HUGEPAGE
    madvise(p, sz, MADV_HUGEPAGE);
#endif
    return p;
}

void lpm_huge_free(void *p, size_t bytes)
{
    if (p)
        munmap(p, (bytes + HUGE_2M - 1) & ~(HUGE_2M - 1));
}
