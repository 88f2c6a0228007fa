/* libFuzzer's entry point for one harness: built once per harness with
 * -DLPM_FUZZ_NAME=lpm_fuzz_NAME (fuzz/fuzz.mk). */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return LPM_FUZZ_NAME(data, size);
}
