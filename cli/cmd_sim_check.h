/* sim's checks on every answer: the sink the simulator hands each result
 * to (image interpreter, reference LPM, --results lines) and, with
 * --updates, the hooks that keep the tables before and after the updates
 * in flight (cli/cmd_sim_check.c). cli/cmd_sim.c owns the run. */
#ifndef LPM_CMD_SIM_CHECK_H
#define LPM_CMD_SIM_CHECK_H

#include <stdint.h>
#include <stdio.h>

#include "../core/ref_lpm.h"
#include "../sim/bubble_file.h"
#include "../sim/sim.h"

typedef struct lpm_sim_check {
    lpm_image *img;        /* the live image (bubbles write it) */
    lpm_image *sh_enter;   /* every bubble that entered the window applied */
    lpm_image *sh_exit;    /* every bubble that left the last stage applied */
    lpm_image *sh_lastin;  /* in order (linear credit rules): every update whose
                              last bubble entered applied; NULL otherwise */
    lpm_ref *ref;
    const lpm_nhtab *nh;
    int family, check, synthetic;
    FILE *results;
    uint64_t checked, mismatches, ref_checked, ref_mismatches;
    uint64_t count, id_sum, last_id;
    int ordered;
    /* Updates in flight, judged whole: the writes of every update whose
     * first bubble entered and whose last bubble has not left, in order. */
    const lpm_sim_bfile *bf;
    lpm_sim_write *fw;        /* concatenated writes */
    size_t fw_n, fw_cap, fw_head;
    size_t *fu_end;           /* per update in flight: end offset in fw */
    size_t fu_n, fu_cap, fu_head;
    size_t fw_lhead, fu_lhead;  /* sh_lastin's place in fw and fu_end (ahead of sh_exit's) */
    int oom;
    /* rebuilds: the live copy's CRC at each swap against its R line */
    uint64_t crc_bad, crc_checked;
    uint64_t crc_update;
} lpm_sim_check;

/* lpm_sim_sink_fn, lpm_sim_dit_hook and lpm_sim_bubble_hook for the
 * simulator; ctx is an lpm_sim_check. */
int lpm_sim_check_sink(void *ctx, const lpm_sim_result *r, lpm_err *err);
uint32_t lpm_sim_check_dit_hook(void *ctx, uint64_t id, const lpm_addr *key);
uint32_t lpm_sim_check_exit_hook(void *ctx, uint64_t id, const lpm_addr *key);
void lpm_sim_check_bubble_hook(void *ctx, const lpm_sim_bubble *b, int leaving);

#endif
