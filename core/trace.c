/* Placeholder until the trace generators land (replaced wholesale). */
#include "trace.h"

#include <string.h>

void lpm_trace_opts_default(lpm_trace_opts *o)
{
    memset(o, 0, sizeof *o);
    o->kind = LPM_TRACE_RANDOM_MATCH;
    o->zipf_s = 1.0;
}

int lpm_trace_gen(const lpm_fib *f, const lpm_trace_opts *o, lpm_addr *out, lpm_err *err)
{
    (void)f; (void)o; (void)out;
    return lpm_err_set(err, LPM_EFAIL, "trace generation not implemented yet");
}
