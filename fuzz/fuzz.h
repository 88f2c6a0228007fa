/* Shared by the libFuzzer harnesses (fuzz/README.md). Each harness is one
 * function `int lpm_fuzz_NAME(const uint8_t *data, size_t size)`. The fuzz
 * build (clang) links one binary per harness with fuzz/entry.c, which makes
 * that function libFuzzer's entry point; the ordinary build (gcc) links all
 * of them into tests/fuzz/test_fuzz_replay, which runs every kept crash
 * through them (so `make test` and `make test-asan` replay the regressions).
 *
 * The readers take paths, as the CLI calls them: the bytes are put in a
 * memfd and read through /proc/self/fd/N (no files left behind, no disk). */
#ifndef LPM_FUZZ_H
#define LPM_FUZZ_H

#include <stddef.h>
#include <stdint.h>

/* Replaces the memfd's content with data and returns a path that reads it
 * from the start ("/proc/self/fd/N"). Aborts when the memfd cannot be made
 * (a harness that cannot feed its reader must not report "no crash"). */
const char *lpm_fuzz_path(const uint8_t *data, size_t size);
/* A second, independent memfd (for a harness that needs two inputs). */
const char *lpm_fuzz_path2(const uint8_t *data, size_t size);

/* Every harness, by name (the replay test and the fuzz driver use these
 * names for fuzz/regress/NAME/ and the corpus directories). */
int lpm_fuzz_fib_text(const uint8_t *data, size_t size);
int lpm_fuzz_fib_mrt(const uint8_t *data, size_t size);
int lpm_fuzz_input(const uint8_t *data, size_t size);
int lpm_fuzz_trace(const uint8_t *data, size_t size);
int lpm_fuzz_updates(const uint8_t *data, size_t size);
int lpm_fuzz_image(const uint8_t *data, size_t size);
int lpm_fuzz_bubbles(const uint8_t *data, size_t size);
int lpm_fuzz_names_table(const uint8_t *data, size_t size);
int lpm_fuzz_names_query(const uint8_t *data, size_t size);

#endif
