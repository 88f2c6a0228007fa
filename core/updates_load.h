/* Update-trace reader with the chosen peer returned (lpm_updates_load in
 * trace.h is this without peer_out), so the CLI can name it. */
#ifndef LPM_UPDATES_LOAD_H
#define LPM_UPDATES_LOAD_H

#include "trace.h"

/* peer_out (may be NULL) receives "ADDR AS N" of the peer whose bgpdump
 * lines were read, "" for a "time a|w prefix" trace. */
int lpm_updates_load_ex(const char *path, lpm_fib *fib, const char *peer_addr,
                        lpm_update **out, size_t *n, char *peer_out, size_t peer_size, lpm_err *err);

#endif
