/* The result port's ready pattern (docs/microarchitecture.md, step 1): in
 * cycle t the port is ready when lpm_sim_ready(t, thr) is 1, with
 * thr = lpm_sim_ready_threshold(F). Plain C with no includes but stdint.h:
 * the simulator includes it, and lpmpipe rtl copies this file into the
 * generated folder for the testbench, so both run the same function. */
#ifndef LPM_SIM_READY_H
#define LPM_SIM_READY_H

#include <stdint.h>

static inline uint64_t lpm_sim_ready_threshold(double f)
{
    return f <= 0.0 || f >= 1.0 ? UINT64_MAX : (uint64_t)(f * 9007199254740992.0); /* F * 2^53 */
}

static inline int lpm_sim_ready(uint64_t t, uint64_t thr)
{
    if (thr == UINT64_MAX)
        return 1;
    uint64_t z = t + 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z ^= z >> 31;
    return (z >> 11) < thr;
}

#endif
