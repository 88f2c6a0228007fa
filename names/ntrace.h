/* Name traces as the paper makes them (section 5.4): the average workload
 * draws names from the table, the heavy workload from its longest 10%; a
 * directory path from a real URL list (or a synthetic one) is appended.
 * Draws are uniform or Zipf-weighted over a ranking (a ranked domain list
 * puts its names first). Also: reading name lists, and a tiny synthetic
 * domain-list generator so the demo runs without ../shared/data. */
#ifndef LPM_NTRACE_H
#define LPM_NTRACE_H

#include <stdint.h>
#include <stdio.h>

#include "../core/err.h"
#include "ntable.h"

typedef struct lpm_ntrace_opts {
    int heavy;
    size_t count;
    uint64_t seed;
    double zipf;       /* 0: uniform */
    const char *paths; /* URL list, or NULL for synthetic paths */
    const char *rank;  /* ranked domain list, or NULL */
} lpm_ntrace_opts;

/* Writes count names, one a line ("/com/parc/www/dir/page.html"). */
int lpm_ntrace_gen(const lpm_ntable *tab, const lpm_ntrace_opts *o, FILE *out, lpm_err *err);

/* Reads names, one a line ('#' comments and blank lines skipped), into a
 * list (ports 0, order and duplicates kept). Bad names: file:line: reason,
 * unless skip_bad (then counted). */
int lpm_nlist_load(lpm_ntable *list, const char *path, int skip_bad, size_t *skipped,
                   lpm_err *err);

/* Writes count synthetic hostnames (a few TLDs, sites with subdomains),
 * deterministic for a seed. */
int lpm_ndomains_gen(size_t count, uint64_t seed, FILE *out);

#endif
