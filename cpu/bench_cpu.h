/* The update-cost measurement behind `lpmpipe bench update-cost`, as a
 * library call. */
#ifndef LPM_CPU_BENCH_H
#define LPM_CPU_BENCH_H

#include <stddef.h>
#include <stdint.h>

#include "../core/engine.h"
#include "cpu.h"

/* Update cost over every prefix of length min_len..max_len in the table:
 * each is deleted and added back, one at a time (He et al.'s Table IV). */
typedef struct lpm_cpu_update_report {
    size_t prefixes;
    int counted;              /* 0: the engine has no counters (times only) */
    lpm_cpu_cost add, del;    /* totals; divide by prefixes for averages */
    double add_s, del_s;      /* seconds spent in add / del calls */
} lpm_cpu_update_report;

int lpm_cpu_update_cost(const lpm_engine_ops *e, void *state, const lpm_fib *fib,
                        unsigned min_len, unsigned max_len, lpm_cpu_update_report *r,
                        lpm_err *err);

#endif
