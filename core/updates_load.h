/* Update-trace reader with the chosen peer returned (lpm_updates_load in
 * trace.h is this without peer_out), so the CLI can name it. */
#ifndef LPM_UPDATES_LOAD_H
#define LPM_UPDATES_LOAD_H

#include "trace.h"

/* peer_out (may be NULL) receives "ADDR AS N" of the peer whose bgpdump
 * lines were read, "" for a "time a|w prefix" trace. mask_host clears host
 * bits of update prefixes instead of refusing the line (the table readers'
 * --mask-host-bits; lpm_updates_load refuses them). */
int lpm_updates_load_ex(const char *path, lpm_fib *fib, const char *peer_addr, int mask_host,
                        lpm_update **out, size_t *n, char *peer_out, size_t peer_size, lpm_err *err);

/* The same, stopping after the first max update records (0: all): A and W
 * lines of the chosen peer, or plain a|w lines; comments, blank lines,
 * STATE lines and other peers' lines do not count. The rest of the file is
 * not read, so this gives what a copy of the file cut after its max-th
 * update gives (lpmpipe update --max-updates). */
int lpm_updates_load_max(const char *path, lpm_fib *fib, const char *peer_addr, int mask_host, size_t max,
                         lpm_update **out, size_t *n, char *peer_out, size_t peer_size, lpm_err *err);

#endif
