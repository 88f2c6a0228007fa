/* Lookup traces (addresses) and update traces (announce/withdraw). */
#ifndef LPM_TRACE_H
#define LPM_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "fib.h"
#include "prefix.h"

enum lpm_trace_kind {
    LPM_TRACE_UNIFORM,       /* uniform over the address space */
    LPM_TRACE_RANDOM_MATCH,  /* He et al.: leaf-pushed path, random completion */
    LPM_TRACE_TABLE,         /* GAMT: addresses inside table prefixes */
    LPM_TRACE_ZIPF           /* table addresses drawn with Zipf popularity */
};

typedef struct lpm_trace_opts {
    int kind;          /* enum lpm_trace_kind */
    size_t count;
    uint64_t seed;
    double burst;      /* mean run length of repeated addresses; 0/1: none */
    double zipf_s;     /* Zipf exponent (default 1.0) */
} lpm_trace_opts;

void lpm_trace_opts_default(lpm_trace_opts *o);
int lpm_trace_kind_parse(const char *s); /* -1 if unknown */
const char *lpm_trace_kind_name(int kind);

/* Generates addresses into a caller array of o->count entries. The FIB must
 * be non-empty for every kind but uniform (which needs only f->family). */
int lpm_trace_gen(const lpm_fib *f, const lpm_trace_opts *o, lpm_addr *out, lpm_err *err);

/* Reads a file of addresses, one per line ('#' comments and blank lines
 * allowed). *family is set from the first address; mixing is an error. */
int lpm_trace_load(const char *path, lpm_addr **out, size_t *n, int *family, lpm_err *err);
int lpm_trace_write(const char *path, const lpm_addr *a, size_t n, int family, lpm_err *err);

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

/* Generates n updates against the table: withdraw_share of them withdraw
 * a present prefix, the rest announce (new prefixes near existing ones, or
 * next-hop changes). Deterministic in seed. */
int lpm_updates_gen(lpm_fib *fib, size_t n, double withdraw_share, uint64_t seed,
                    lpm_update **out, lpm_err *err);

#endif
