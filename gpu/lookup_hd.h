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

#endif
