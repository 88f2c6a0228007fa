/* sim's checks on every answer (cli/cmd_sim_check.h). */
#include <inttypes.h>
#include <stdlib.h>

#include "cmd_sim_check.h"
#include "../core/prefix.h"
#include "../mapper/image.h"

static const char *nh_name(const lpm_sim_check *c, uint32_t nh, char *buf, size_t n)
{
    if (nh == LPM_NH_NONE)
        return "-";
    if (c->synthetic || !c->nh) {
        snprintf(buf, n, "%" PRIu32, nh);
        return buf;
    }
    if (nh >= c->nh->n) { /* a next hop an update brought: the image has no name for it */
        snprintf(buf, n, "#%" PRIu32, nh);
        return buf;
    }
    return lpm_nhtab_name(c->nh, nh);
}

static void addr_text(const lpm_sim_check *c, const lpm_addr *a, char *buf, size_t n)
{
    if (c->synthetic)
        snprintf(buf, n, "e%" PRIu64 "r%" PRIu64, a->hi, a->lo);
    else
        lpm_addr_format(a, c->family, buf, n);
}

static void mismatch(lpm_sim_check *c, const lpm_sim_result *r, const char *who, uint32_t want)
{
    if (c->mismatches + c->ref_mismatches > 10)
        return;
    char a[LPM_ADDR_STRLEN], b1[16], b2[16];
    addr_text(c, &r->key, a, sizeof a);
    fprintf(stderr, "lpmpipe: sim: mismatch: request %" PRIu64 " %s: pipeline says %s, %s says %s (exit cycle %" PRIu64 ")\n",
            r->id, a, nh_name(c, r->nh, b1, sizeof b1), who, nh_name(c, want, b2, sizeof b2), r->exit_cycle);
}

uint32_t lpm_sim_check_dit_hook(void *ctx, uint64_t id, const lpm_addr *key)
{
    lpm_sim_check *c = ctx;
    (void)id;
    return lpm_image_lookup(c->sh_lastin ? c->sh_lastin : c->sh_exit, key);
}

/* When nothing entering later can reach the lookup (its exit; its DIT read
 * under the credit rules, where it keeps its place behind every bubble that
 * entered before it), the table with every update whose first bubble has
 * entered: the lookup's "after". */
uint32_t lpm_sim_check_exit_hook(void *ctx, uint64_t id, const lpm_addr *key)
{
    lpm_sim_check *c = ctx;
    (void)id;
    return lpm_image_lookup(c->sh_enter, key);
}

/* "Before" is the table with every update whose last bubble has left the
 * pipeline when the lookup reads the DIT (in order: whose last bubble has
 * entered); "after" the table with every update whose first bubble has
 * entered by the time nothing more can reach it. A lookup must answer as
 * one of the two. */
/* A rebuild's bubbles go one by one: their writes land in the inactive
 * copy, which neither table's lookups read, until the swap makes it live
 * (in "after" as it enters, in "before" as it leaves). */
static void rebuild_bubble(lpm_sim_check *c, const lpm_sim_bubble *b, int leaving)
{
    lpm_image *t = leaving ? c->sh_exit : c->sh_enter, *u = leaving ? NULL : c->sh_lastin;
    for (unsigned j = 0; j < b->nw; j++) {
        lpm_image_write(t, b->w[j].stage, b->w[j].addr, b->w[j].word);
        if (u)
            lpm_image_write(u, b->w[j].stage, b->w[j].addr, b->w[j].word);
    }
    if (!(b->flags & LPM_SIM_B_SWAP))
        return;
    lpm_image_swap(t, b->copy);
    if (u)
        lpm_image_swap(u, b->copy);
    if (!leaving && b->copy_crc) {
        c->crc_checked++;
        if (lpm_image_copy_crc(c->img, b->copy) != b->copy_crc && !c->crc_bad++)
            c->crc_update = b->update;
    }
}

/* The writes of the next update in flight (after *fu, from *fw on) into t. */
static void apply_next_update(lpm_sim_check *c, lpm_image *t, size_t *fu, size_t *fw)
{
    if (*fu >= c->fu_n)
        return;
    size_t end = c->fu_end[(*fu)++];
    for (; *fw < end; (*fw)++)
        lpm_image_write(t, c->fw[*fw].stage, c->fw[*fw].addr, c->fw[*fw].word);
}

void lpm_sim_check_bubble_hook(void *ctx, const lpm_sim_bubble *b, int leaving)
{
    lpm_sim_check *c = ctx;
    if (b->flags & (LPM_SIM_B_SHADOW | LPM_SIM_B_SWAP)) {
        rebuild_bubble(c, b, leaving);
        return;
    }
    if (!leaving && b->first) {
        const lpm_sim_bfile *bf = c->bf;
        if (c->fw_head == c->fw_n)
            c->fw_head = c->fw_lhead = c->fw_n = 0;
        if (c->fw_n + bf->nuw > c->fw_cap) {
            size_t cap = (c->fw_n + bf->nuw) * 2;
            lpm_sim_write *p = realloc(c->fw, cap * sizeof *p);
            if (!p) {
                c->oom = 1;
                return;
            }
            c->fw = p;
            c->fw_cap = cap;
        }
        if (c->fu_head == c->fu_n)
            c->fu_head = c->fu_lhead = c->fu_n = 0;
        if (c->fu_n == c->fu_cap) {
            size_t cap = c->fu_cap ? c->fu_cap * 2 : 16;
            size_t *p = realloc(c->fu_end, cap * sizeof *p);
            if (!p) {
                c->oom = 1;
                return;
            }
            c->fu_end = p;
            c->fu_cap = cap;
        }
        for (size_t j = 0; j < bf->nuw; j++) {
            c->fw[c->fw_n++] = bf->uw[j];
            lpm_image_write(c->sh_enter, bf->uw[j].stage, bf->uw[j].addr, bf->uw[j].word);
        }
        c->fu_end[c->fu_n++] = c->fw_n;
    }
    if (!leaving && b->last && c->sh_lastin)
        apply_next_update(c, c->sh_lastin, &c->fu_lhead, &c->fw_lhead);
    if (leaving && b->last)
        apply_next_update(c, c->sh_exit, &c->fu_head, &c->fw_head);
}

int lpm_sim_check_sink(void *ctx, const lpm_sim_result *r, lpm_err *err)
{
    lpm_sim_check *c = ctx;
    (void)err;
    if (c->count && r->id <= c->last_id)
        c->ordered = 0;
    c->count++;
    c->id_sum += r->id;
    c->last_id = r->id;
    if (c->check && !c->synthetic) {
        c->checked++;
        if (c->sh_enter) {
            /* Updates in flight: right before (the table as it was when the
             * lookup read the DIT) or right after (as it was at its exit). */
            uint32_t before = r->tag, after = r->tag_exit;
            if (r->nh != before && r->nh != after) {
                c->mismatches++;
                mismatch(c, r, "the interpreter (before and after the concurrent update)", after);
            }
        } else {
            uint32_t want = lpm_image_lookup(c->img, &r->key);
            if (want != r->nh) {
                c->mismatches++;
                mismatch(c, r, "the image interpreter", want);
            }
        }
    }
    if (c->ref) {
        c->ref_checked++;
        uint32_t want = lpm_ref_lookup(c->ref, &r->key, NULL);
        if (want != r->nh) {
            c->ref_mismatches++;
            mismatch(c, r, "the reference LPM", want);
        }
    }
    if (c->results) {
        char a[LPM_ADDR_STRLEN], b[16];
        addr_text(c, &r->key, a, sizeof a);
        fprintf(c->results, "%" PRIu64 ",%s,%s,%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n", r->id, a,
                nh_name(c, r->nh, b, sizeof b), r->dit_cycle, r->exit_cycle, r->out_cycle);
    }
    return 0;
}
