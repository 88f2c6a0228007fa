/* Placeholder until the synthetic generator lands (replaced wholesale). */
#include "synth.h"

int lpm_synth_fib(lpm_fib *f, int family, size_t count, uint64_t seed, unsigned next_hops, lpm_err *err)
{
    (void)f; (void)family; (void)count; (void)seed; (void)next_hops;
    return lpm_err_set(err, LPM_EFAIL, "synthetic tables not implemented yet");
}
