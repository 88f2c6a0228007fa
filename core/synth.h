/* Synthetic FIBs modelled on real tables: length histogram, nesting and
 * sibling clustering (docs/synthetic.md gives the model and its figures). */
#ifndef LPM_SYNTH_H
#define LPM_SYNTH_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "fib.h"

/* Fills an empty FIB with count unique prefixes of the family. next_hops
 * distinct next hops (0: a default of 32). */
int lpm_synth_fib(lpm_fib *f, int family, size_t count, uint64_t seed,
                  unsigned next_hops, lpm_err *err);

#endif
