/* NDN name tables: names normalized to "com/parc/www/" (no leading '/',
 * one trailing '/'; the empty string is the root name "/"), each with a port.
 * Loading checks every line (file:line: reason); building from a domain
 * list reverses labels, assigns ports by a fixed rule and aggregates. */
#ifndef LPM_NTABLE_H
#define LPM_NTABLE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../core/err.h"
#include "nhash.h"

#define LPM_NAME_MAX 1024     /* bytes of a normalized name */
#define LPM_NAME_COMP_MAX 255 /* bytes of one component */
#define LPM_NAME_PORT_MAX 65535u

typedef struct lpm_nent {
    uint64_t off;  /* into buf */
    uint32_t len;  /* normalized length */
    uint32_t port;
} lpm_nent;

typedef struct lpm_ntable {
    char *buf;
    size_t blen, bcap;
    lpm_nent *e;
    size_t n, cap;
} lpm_ntable;

void lpm_ntable_init(lpm_ntable *t);
void lpm_ntable_free(lpm_ntable *t);
int lpm_ntable_add(lpm_ntable *t, const char *name, size_t len, uint32_t port, lpm_err *err);
static inline const char *lpm_ntable_name(const lpm_ntable *t, size_t i)
{
    return t->buf + t->e[i].off;
}

/* Normalizes an NDN name ("/com/parc/www" or "/com/parc/www/") into out
 * (LPM_NAME_MAX + 1 bytes). Returns the normalized length, or -1 with *why
 * set (empty component, too long, byte outside printable ASCII, no leading
 * '/'). */
long lpm_name_normalize(const char *s, size_t len, char *out, const char **why);

/* Reads "NAME PORT" lines ('#' comments, blank lines skipped). A bad line
 * stops with file:line: reason (LPM_EINPUT) unless skip_bad, when it is
 * counted in *skipped. Duplicate names are bad lines. */
int lpm_ntable_load(lpm_ntable *t, const char *path, int skip_bad, size_t *skipped, lpm_err *err);
/* Writes "/name/ port" lines in table order. */
int lpm_ntable_write(const lpm_ntable *t, FILE *fp);

/* Sorts by name (bytewise) and refuses duplicates (LPM_EINPUT). */
int lpm_ntable_sort(lpm_ntable *t, lpm_err *err);

/* Options of the domain-list builder. */
typedef struct lpm_ndomain_opts {
    uint32_t ports;     /* ports 0..ports-1 */
    size_t limit;       /* 0: all; else this many names, evenly spaced over the list */
    int aggregate;      /* apply the paper's aggregation */
    int skip_bad;
} lpm_ndomain_opts;

typedef struct lpm_ndomain_stats {
    size_t lines, skipped, names, duplicates, aggregated;
} lpm_ndomain_stats;

/* The port rule (docs/names.md): FNV-1a of the site (first two components)
 * modulo ports, except that one name in four (chosen by the FNV-1a of the
 * whole name) takes a port of its own from that hash. */
uint32_t lpm_name_port_rule(const char *norm, size_t len, uint32_t ports);

/* Reverses one hostname ("www.parc.com") into a normalized name
 * ("com/parc/www/"). Returns the length or -1 with *why. */
long lpm_domain_to_name(const char *s, size_t len, char *out, const char **why);

/* Builds a sorted, aggregated table from a domain list. */
int lpm_ntable_from_domains(lpm_ntable *t, const char *path, const lpm_ndomain_opts *o,
                            lpm_ndomain_stats *st, lpm_err *err);

/* Removes every name whose nearest covering name in the table has the same
 * port (answers unchanged). The table must be sorted. Returns removed count. */
size_t lpm_ntable_aggregate(lpm_ntable *t);

#endif
