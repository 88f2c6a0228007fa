/* CK(call) for the .cu files of gpu/ and names/: a failed CUDA call
 * returns its text through `err` (an lpm_err * in scope) as LPM_EFAIL. */
#ifndef LPM_CUDA_CHECK_H
#define LPM_CUDA_CHECK_H

#include <cuda_runtime.h>

extern "C" {
#include "../core/err.h"
}

#define CK(call)                                                                              \
    do {                                                                                      \
        cudaError_t e_ = (call);                                                              \
        if (e_ != cudaSuccess)                                                                \
            return lpm_err_set(err, LPM_EFAIL, "CUDA: %s: %s", #call, cudaGetErrorString(e_)); \
    } while (0)

#endif
