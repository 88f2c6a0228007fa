/* Lookup traces (addresses) and update traces (announce/withdraw). */
#ifndef LPM_TRACE_H
#define LPM_TRACE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "err.h"
#include "fib.h"
#include "prefix.h"

/* The trace kinds, one line each, X(ID, name): the enum, the names
 * (lpm_trace_kind_name/parse) and the list the commands' errors print. */
#define LPM_TRACE_KINDS(X)                                                             \
    X(UNIFORM, "uniform")           /* uniform over the address space */               \
    X(RANDOM_MATCH, "random-match") /* He et al.: leaf-pushed path, random completion */ \
    X(TABLE, "table")               /* GAMT: addresses inside table prefixes */        \
    X(ZIPF, "zipf")                 /* table addresses drawn with Zipf popularity */

#define LPM_TRACE_KIND_ENUM(id, name) LPM_TRACE_##id,
enum lpm_trace_kind { LPM_TRACE_KINDS(LPM_TRACE_KIND_ENUM) };
#undef LPM_TRACE_KIND_ENUM
/* ", uniform, random-match, table, zipf" (+ 2 drops the leading ", "). */
#define LPM_TRACE_KIND_TEXT(id, name) ", " name
#define LPM_TRACE_KIND_NAMES LPM_TRACE_KINDS(LPM_TRACE_KIND_TEXT)

typedef struct lpm_trace_opts {
    int kind;          /* enum lpm_trace_kind */
    size_t count;
    uint64_t seed;
    double burst;      /* mean run length of repeated addresses; 0/1: none */
    double zipf_s;     /* Zipf exponent (default 1.0) */
} lpm_trace_opts;

/* Limits: a trace of more than 1G addresses, bursts longer than 1M on
 * average or a Zipf exponent above 10 are refused as absurd. */
#define LPM_TRACE_MAX_COUNT (1u << 30)
#define LPM_TRACE_MAX_BURST 1000000u
#define LPM_TRACE_MAX_ZIPF_S 10.0
/* zipf draws from min(count, this) flows. */
#define LPM_TRACE_ZIPF_FLOWS ((size_t)1 << 20)

void lpm_trace_opts_default(lpm_trace_opts *o);
int lpm_trace_kind_parse(const char *s); /* -1 if unknown */
const char *lpm_trace_kind_name(int kind);

/* Streaming form (what lpm_trace_gen does in one call): the same seed gives
 * the same addresses however the output is split into chunks. */
typedef struct lpm_tracegen lpm_tracegen;
int lpm_tracegen_new(lpm_tracegen **g, const lpm_fib *f, const lpm_trace_opts *o, lpm_err *err);
void lpm_tracegen_next(lpm_tracegen *g, lpm_addr *out, size_t n);
void lpm_tracegen_free(lpm_tracegen *g);

/* Generates addresses into a caller array of o->count entries. The FIB must
 * be non-empty for every kind but uniform (which needs only f->family). */
int lpm_trace_gen(const lpm_fib *f, const lpm_trace_opts *o, lpm_addr *out, lpm_err *err);

/* The Random Match set of He et al.: for every prefix that keeps a leaf in
 * the leaf-pushed trie, its longest leaf-pushed path, as a prefix (in
 * address order). *out is malloc'ed; a table of n routes gives at most n. */
int lpm_trace_random_match_set(const lpm_fib *f, lpm_prefix **out, size_t *n, lpm_err *err);

/* Reads a file of addresses, one per line ('#' comments and blank lines
 * allowed). *family is set from the first address; mixing is an error. */
int lpm_trace_load(const char *path, lpm_addr **out, size_t *n, int *family, lpm_err *err);
int lpm_trace_write(const char *path, const lpm_addr *a, size_t n, int family, lpm_err *err);
/* Appends n lines to an open stream (the caller flushes and closes). */
int lpm_trace_write_fp(FILE *fp, const lpm_addr *a, size_t n, int family, lpm_err *err);

/* Update traces. */
typedef struct lpm_update {
    double time;      /* seconds, from the file (0 when absent) */
    char op;          /* 'a' announce, 'w' withdraw */
    lpm_prefix pfx;
    uint32_t nh;      /* index into the FIB's nhtab (LPM_NH_NONE for 'w') */
} lpm_update;

/* Reads "time a|w prefix [nexthop]" lines or bgpdump -m A/W lines (one
 * peer: peer_addr, or the first peer seen, named on stderr by the CLI).
 * Next hops are interned into fib->nh so indexes match the table. Lines of
 * another family than the FIB's are an error. */
int lpm_updates_load(const char *path, lpm_fib *fib, const char *peer_addr,
                     lpm_update **out, size_t *n, lpm_err *err);
int lpm_updates_write(const char *path, const lpm_fib *fib, const lpm_update *u, size_t n, lpm_err *err);

#define LPM_UPDATES_MAX_COUNT (1u << 26)

/* Generates n updates against the table: withdraw_share of them withdraw
 * a present prefix, the rest announce (new prefixes near existing ones, or
 * next-hop changes). Deterministic in seed. */
int lpm_updates_gen(lpm_fib *fib, size_t n, double withdraw_share, uint64_t seed,
                    lpm_update **out, lpm_err *err);

#endif
