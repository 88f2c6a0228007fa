/* The prefix table: what every reader produces and every structure builds
 * from. One family per table. After lpm_fib_finish the routes are unique
 * (last one wins) and sorted by (address, length). */
#ifndef LPM_FIB_H
#define LPM_FIB_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "nhtab.h"
#include "prefix.h"

typedef struct lpm_route {
    lpm_prefix pfx;
    uint32_t nh;     /* index into the table's nhtab */
} lpm_route;

typedef struct lpm_fib {
    int family;          /* 0 until the first route fixes it */
    lpm_route *routes;
    size_t n, cap;
    lpm_nhtab nh;
    size_t duplicates;   /* routes replaced by a later line (set by finish) */
    size_t skipped;      /* bad lines skipped under --skip-bad, or other family */
    int records;         /* 1: read from MRT, so skipped and positions count records, not lines */
    char peer[96];       /* the peer chosen from a multi-peer RIB, "" if none */
} lpm_fib;

/* The FIB formats, one line each: X(ID, name) gives the value LPM_FMT_ID,
 * the --format name and the reader lpm_fib_read_name (core/fib_readers.h
 * declares it from this list). lpm_fib_load's dispatch, the --format parser,
 * its error message and its help line are all made from this list; a new
 * format is its reader and one line here (docs/architecture.md). */
#define LPM_FIB_FORMATS(X)                                 \
    X(PLAIN, plain)       /* prefix/len [nexthop] */       \
    X(PFX2AS, pfx2as)     /* net<TAB>len<TAB>label (CAIDA) */ \
    X(BGPDUMP, bgpdump)   /* bgpdump -m text */            \
    X(MRT, mrt)           /* binary MRT */

/* Input formats; AUTO (0) sniffs the content. */
#define LPM_FIB_FORMAT_ENUM_(ID, name) LPM_FMT_##ID,
enum lpm_fib_format {
    LPM_FMT_AUTO = 0,
    LPM_FIB_FORMATS(LPM_FIB_FORMAT_ENUM_)
    LPM_FMT_COUNT
};

/* ", plain, pfx2as, bgpdump, mrt": the names after "auto", as one string
 * literal for help and error texts. */
#define LPM_FIB_FORMAT_COMMA_NAME_(ID, name) ", " #name
#define LPM_FIB_FORMAT_NAMES LPM_FIB_FORMATS(LPM_FIB_FORMAT_COMMA_NAME_)

typedef struct lpm_fib_opts {
    int format;          /* enum lpm_fib_format */
    int family;          /* 0: whatever the file holds (mixed is an error); 4 or 6: keep only that family */
    int mask_host_bits;  /* clear host bits instead of refusing the line */
    int skip_bad;        /* skip bad lines (counted in fib->skipped) */
    const char *peer_addr; /* multi-peer RIBs: select this peer ... */
    long peer_as;        /* ... or this AS (-1: not set) */
    const char *default_nh; /* next hop for lines without one (NULL: "0") */
} lpm_fib_opts;

void lpm_fib_opts_default(lpm_fib_opts *o);

void lpm_fib_init(lpm_fib *f);
void lpm_fib_free(lpm_fib *f);

/* Appends a route; nh is an index of f->nh. Sets f->family on first use and
 * refuses another family. Call lpm_fib_finish after the last add. */
int lpm_fib_add(lpm_fib *f, const lpm_prefix *p, uint32_t nh, lpm_err *err);
/* Convenience: interns the next-hop token first. */
int lpm_fib_add_tok(lpm_fib *f, const lpm_prefix *p, const char *nh, size_t nhlen, lpm_err *err);

/* Sorts, drops duplicates (the later line wins), counts them. */
int lpm_fib_finish(lpm_fib *f, lpm_err *err);

/* Reads a FIB from path ("-" = stdin; .gz/.xz/.bz2 by content). On error
 * f is left empty and err holds "file:line: reason". */
int lpm_fib_load(lpm_fib *f, const char *path, const lpm_fib_opts *o, lpm_err *err);

/* Writes "prefix/len nexthop" lines, the plain format. */
int lpm_fib_write_plain(const lpm_fib *f, const char *path, lpm_err *err);

/* Name of a format for messages, and its parser for --format. */
const char *lpm_fib_format_name(int fmt);
int lpm_fib_format_parse(const char *s);

#endif
