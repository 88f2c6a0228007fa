/* Lookup traces: the whole-file reader (lpm_trace_load: lookup --trace,
 * bench) and the streaming one the simulator uses (sim --trace), for the
 * family byte 0 names (bit 0: IPv4 or IPv6). */
#include "fuzz.h"

#include <stdlib.h>

#include "../core/trace.h"
#include "../sim/sim_source.h"

int lpm_fuzz_trace(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    int family = data[0] & 1 ? 6 : 4;
    const char *path = lpm_fuzz_path(data + 1, size - 1);
    lpm_addr *a;
    size_t n;
    int fam;
    lpm_err err;
    if (lpm_trace_load(path, &a, &n, &fam, &err) == LPM_OK)
        free(a);
    lpm_sim_file_src fs = { 0 };
    if (lpm_sim_file_src_open(&fs, path, family, &err) == LPM_OK) {
        lpm_addr k;
        while (lpm_sim_file_next(&fs, &k, &err) == 1)
            ;
    }
    lpm_sim_file_src_close(&fs);
    return 0;
}
