/* Shared by the Check unit tests: where the real data is, visible SKIP
 * lines, tables and traces, and the one comparison every test makes: an
 * answer against the reference LPM. */
#ifndef LPM_TESTUTIL_H
#define LPM_TESTUTIL_H

#include <check.h>
#include <stddef.h>
#include <stdint.h>

#include "../../cli/engines.h"
#include "../../core/engine.h"
#include "../../core/fib.h"
#include "../../core/ref_lpm.h"

/* ../shared/data (from $LPMPIPE_DATA, set by tests/run.sh), or NULL. */
const char *tu_data_dir(void);
/* Full path of a file in the data dir into buf, or NULL (and a SKIP line
 * naming it) when the folder or file is absent. */
const char *tu_data_file(const char *name, char *buf, size_t size);
/* Prints "SKIP: why" so tests/run.sh counts it as skipped, never passed. */
void tu_skip(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The real tables every table-wide test iterates over: name, family, and
 * the prefix count the data README gives. */
typedef struct {
    const char *file;
    int family;
    size_t prefixes;
} tu_table;
extern const tu_table tu_tables[];
extern const size_t tu_ntables;

/* Loads a FIB or fails the test with the reader's message. */
void tu_load(lpm_fib *f, const char *path);
/* A small synthetic table (deterministic). */
void tu_synth(lpm_fib *f, int family, size_t n, uint64_t seed);

/* A small random table with nested prefixes of every length (a default
 * route first), for either family: for tests that must run without the
 * real data. Deterministic in seed. */
void tu_random_table(lpm_fib *f, int family, size_t n, uint64_t seed);

/* Compares one answer with the reference; on mismatch fails the test with
 * the address, both answers and the prefix that should have matched. */
void tu_check_answer(const lpm_ref *ref, const lpm_fib *fib, const lpm_addr *a,
                     uint32_t got, const char *who);

/* Builds the engine, looks up n addresses of the given trace kind
 * (enum lpm_trace_kind) and checks each against the reference. */
void tu_engine_agrees(const lpm_engine_ops *e, const lpm_fib *fib, int kind,
                      size_t n, uint64_t seed);

/* Runs a suite; returns the exit status for main. */
int tu_run(Suite *s);

#endif
