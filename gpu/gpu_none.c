/* The CUDA side's stand-in where nvcc was absent at build time (gpu/module.mk
 * builds this file or the .cu files): lpm_gpu_built() is 0, every call fails. */
#include "gpu_api.h"

int lpm_gpu_built(void)
{
    return 0;
}

int lpm_gpu_probe(char *buf, size_t size, lpm_err *err)
{
    if (size)
        buf[0] = 0;
    return lpm_err_set(err, LPM_ENODEV, "this binary was built without CUDA");
}

int lpm_gpu_bench(const lpm_gpu_bench_in *in, lpm_gpu_bench_out *out, lpm_err *err)
{
    (void)in;
    (void)out;
    return lpm_err_set(err, LPM_ENODEV, "this binary was built without CUDA");
}

int lpm_gpu_open(lpm_gpu_session **s, const lpm_fib *f, int engine, unsigned levels, lpm_err *err)
{
    (void)f;
    (void)engine;
    (void)levels;
    *s = NULL;
    return lpm_err_set(err, LPM_ENODEV, "this binary was built without CUDA");
}

int lpm_gpu_run(lpm_gpu_session *s, const lpm_gpu_bench_in *in, lpm_gpu_bench_out *out, lpm_err *err)
{
    (void)s;
    (void)in;
    (void)out;
    return lpm_err_set(err, LPM_ENODEV, "this binary was built without CUDA");
}

void lpm_gpu_close(lpm_gpu_session *s)
{
    (void)s;
}
