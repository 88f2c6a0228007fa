/* Defaults of the `multibit` engine (engines take no options; `lpmpipe
 * bench --strides` and `lpmpipe fib tries` choose others). */
#ifndef LPM_ENGINE_TRIES_H
#define LPM_ENGINE_TRIES_H

#include <stddef.h>

#include "engine.h"
#include "err.h"
#include "fib.h"
#include "trie_multibit.h"
#include "trie_unibit.h"

/* IPv4: fixed 16-8-8 (three dependent reads at most; the 256 KiB first
 * level stays in cache). IPv6: Srinivasan-Varghese optimal strides over all
 * 128 bits with this many levels. */
#define LPM_MB_DEFAULT_V4 16, 8, 8
#define LPM_MB_DEFAULT_V4_TEXT "16-8-8"
#define LPM_MB_DEFAULT_V6_LEVELS 12

/* The engine's strides for the table in t. */
int lpm_multibit_default_strides(const lpm_unibit *t, lpm_strides *st, lpm_err *err);

extern const lpm_engine_ops lpm_engine_unibit, lpm_engine_multibit;

/* A state for lpm_engine_multibit's ops built with strides from a spec
 * (lpm_strides_spec; NULL: the defaults), and the strides it uses. */
int lpm_engine_multibit_build_spec(void **state, const lpm_fib *fib, const char *spec, lpm_err *err);
void lpm_engine_multibit_describe(const void *state, char *buf, size_t size);

#endif
