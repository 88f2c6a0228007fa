#include "fib_readers.h"
int lpm_fib_read_mrt(lpm_fib *f, lpm_input *in, const lpm_fib_opts *o, lpm_err *err)
{
    (void)f; (void)o;
    return lpm_err_at(err, LPM_EINPUT, lpm_input_name(in), 1, "MRT format not supported yet");
}
