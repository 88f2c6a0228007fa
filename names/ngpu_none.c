/* The CUDA MATA engine's stand-in where nvcc was absent at build time
 * (names/module.mk builds this file or mata_kernel.cu): no devices. */
#include "ngpu.h"

int lpm_names_cuda_built(void)
{
    return 0;
}

int lpm_names_cuda_devices(void)
{
    return 0;
}

int lpm_names_cuda_bench(const lpm_nm_view *v, const lpm_niw *iw, const uint32_t *ref,
                         const lpm_ngpu_opts *o, lpm_ngpu_result *res, lpm_err *err)
{
    (void)v;
    (void)iw;
    (void)ref;
    (void)o;
    (void)res;
    return lpm_err_set(err, LPM_ENODEV, "this binary was built without CUDA");
}
