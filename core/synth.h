/* Synthetic FIBs modelled on real tables: length histogram, nesting and
 * sibling clustering (docs/synthetic.md gives the model and its figures). */
#ifndef LPM_SYNTH_H
#define LPM_SYNTH_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "fib.h"
#include "synth_profile.h"

/* Largest table lpm_synth_fib makes (the model scales its reference up to
 * this; beyond it a bigger table is not a realistic one). */
#define LPM_SYNTH_MAX_COUNT 4000000u
#define LPM_SYNTH_MAX_NEXT_HOPS 65536u

/* Fills an empty FIB with count unique prefixes of the family. next_hops
 * distinct next hops (0: a default of 32). */
int lpm_synth_fib(lpm_fib *f, int family, size_t count, uint64_t seed,
                  unsigned next_hops, lpm_err *err);

/* The real table's profile the model reproduces (tier1-2024, per family). */
void lpm_synth_reference(int family, lpm_fib_profile *p);

#endif
