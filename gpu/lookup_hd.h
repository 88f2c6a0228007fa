/* The one qualifier for lookup code shared by the CUDA kernels and the CPU
 * builds: __host__ __device__ under nvcc, plain static inline under gcc. */
#ifndef LPM_GPU_LOOKUP_HD_H
#define LPM_GPU_LOOKUP_HD_H

#include <stddef.h>
#include <stdint.h>

#ifdef __CUDACC__
#define LPM_HD static __host__ __device__ __forceinline__
#else
#define LPM_HD static inline
#endif

/* Reads one word of a lookup table that update kernels write while
 * lookups run. On the device: a relaxed load at device scope
 * (ld.relaxed.gpu), coherent in L2, so a lookup that follows a freshly
 * written pointer reads the child's new words, never a stale line of its
 * SM's L1 or of the non-coherent read-only path (ld.global.nc) that a
 * `const __restrict__` table invites. On the host: a plain load. */
LPM_HD uint32_t lpm_ld_table(const uint32_t *p)
{
#ifdef __CUDA_ARCH__
    uint32_t v;
    asm volatile("ld.relaxed.gpu.u32 %0, [%1];" : "=r"(v) : "l"(p));
    return v;
#else
    return *p;
#endif
}

#endif
