/* Reading update traces for the mapper (see upd_read.c). */
#ifndef LPM_UPD_READ_H
#define LPM_UPD_READ_H

#include "../core/fib.h"
#include "../core/trace.h"

/* Next hops are interned into fib->nh; fib->family must be set. */
int lpm_map_updates_read(const char *path, lpm_fib *fib, const char *peer, lpm_update **out, size_t *n,
                         lpm_err *err);

#endif
