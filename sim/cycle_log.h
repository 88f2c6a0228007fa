/* The cycle log's header line (docs/microarchitecture.md section 7), written
 * and parsed here only: the simulator writes it, the RTL generator puts the
 * same text into the testbench (tb_cfg.h), and rtl verify parses both. */
#ifndef LPM_SIM_CYCLE_LOG_H
#define LPM_SIM_CYCLE_LOG_H

#include <stddef.h>
#include <stdio.h>

#include "../core/err.h"

#define LPM_SIM_LOG_VERSION 2

typedef struct lpm_sim_log_hdr {
    unsigned stages;
    int ring;
    unsigned queue, width, rob, lookahead, hop, ports;
    unsigned fifo; /* result credits of the linear credit rules (0: none; written only when set) */
    int dit_queue; /* DIT answers through queue 0 (written only when set: " answers=queue") */
} lpm_sim_log_hdr;

/* The header line without its newline; returns its length (snprintf's). */
int lpm_sim_log_header(char *buf, size_t n, const lpm_sim_log_hdr *h);

/* Parses a header line (trailing newline allowed). LPM_EINPUT with the
 * reason when it is not a version-2 header. */
int lpm_sim_log_header_parse(const char *line, lpm_sim_log_hdr *h, lpm_err *err);
/* The next line of a cycle log without its newline (in *buf, grown as
 * needed); NULL at the end. For the checkers that compare two logs. */
char *lpm_sim_log_line(FILE *fp, char **buf, size_t *cap);

#endif
