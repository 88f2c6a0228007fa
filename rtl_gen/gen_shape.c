/* The widths every generated module and the testbenches agree on: the item
 * layout of lpm_item.vh and tb_cfg.h, computed once from the image and the
 * options. Fields are only as wide as this configuration needs. */
#include <string.h>

#include "rtl_gen.h"

static unsigned clog2(unsigned long long v)
{
    unsigned b = 0;
    while ((1ULL << b) < v)
        b++;
    return b;
}

static unsigned at_least1(unsigned v)
{
    return v ? v : 1;
}

static const char *const mut_names[LPM_RTL_MUT_COUNT] = { "none", "queue-order", "queue-capacity", "bubble-address", "swap-early",
                                                                  "busy-early" };

const char *lpm_rtl_mutation_name(int m)
{
    return m >= 0 && m < LPM_RTL_MUT_COUNT ? mut_names[m] : "?";
}

int lpm_rtl_mutation_of(const char *name)
{
    for (int m = 0; m < LPM_RTL_MUT_COUNT; m++)
        if (!strcmp(name, mut_names[m]))
            return m;
    return -1;
}

static int check_opts(const lpm_image *img, const lpm_rtl_opts *o, unsigned hop, unsigned ports, lpm_err *err)
{
    if (hop < 2 || hop > 16)
        return lpm_err_set(err, LPM_EINPUT,
                           "--hop-cycles %u: the generated RTL implements the hardware rules, 2..16 (the one-cycle "
                           "rules, --hop-cycles 1, are the simulator's model of the papers only)",
                           hop);
    if (ports < 1 || ports > 2)
        return lpm_err_set(err, LPM_EINPUT, "--ports %u: 1 or 2", ports);
    if (o->width < 1 || o->width > 16)
        return lpm_err_set(err, LPM_EINPUT, "issue width %u: the generator takes 1..16", o->width);
    if (!lpm_image_is_ring(img) && o->width > ports)
        return lpm_err_set(err, LPM_EINPUT, "a linear pipeline has one entry stage: issue width %u must be at most the ports (%u)",
                           o->width, ports);
    if (o->queue < 1 || o->queue > 4096)
        return lpm_err_set(err, LPM_EINPUT, "queue depth %u: the hardware rules need 1..4096", o->queue);
    if (o->rob)
        return lpm_err_set(err, LPM_EINPUT,
                           "--rob %u: the generated RTL has no reorder buffer (results leave through result lanes); use --rob 0",
                           o->rob);
    if (o->fifo) {
        if (lpm_image_is_ring(img))
            return lpm_err_set(err, LPM_EINPUT, "--result-fifo %u: the credit rules are for a linear pipeline, not a ring", o->fifo);
        if (o->fifo < 4 || o->fifo > 4096)
            return lpm_err_set(err, LPM_EINPUT, "--result-fifo %u: must be 4..4096 credits", o->fifo);
        if (ports != 1 || o->width != 1)
            return lpm_err_set(err, LPM_EINPUT, "--result-fifo %u: the credit rules take one port and issue width 1", o->fifo);
        if (o->mutate == LPM_RTL_MUT_QUEUE_ORDER || o->mutate == LPM_RTL_MUT_QUEUE_CAP)
            return lpm_err_set(err, LPM_EINPUT, "--mutate %s: the credit rules build no queue", lpm_rtl_mutation_name(o->mutate));
    }
    if (o->dit_queue && (o->fifo || o->width != 1 || hop < 3))
        return lpm_err_set(err, LPM_EINPUT, "--dit-answers queue: the generated RTL has it in the one-lane control at hop "
                                            "cycles 3 or more (--issue-width 1, --hop-cycles 3..16, no --result-fifo)");
    if (o->mutate < 0 || o->mutate >= LPM_RTL_MUT_COUNT)
        return lpm_err_set(err, LPM_EINPUT, "unknown planted fault %d", o->mutate);
    if (o->mutate == LPM_RTL_MUT_BUBBLE_ADDR && lpm_image_stages(img) < 2)
        return lpm_err_set(err, LPM_EINPUT, "--mutate bubble-address needs two stages or more");
    if (o->mutate == LPM_RTL_MUT_SWAP_EARLY && lpm_image_copies(img) < 2)
        return lpm_err_set(err, LPM_EINPUT, "--mutate swap-early needs an image with a shadow copy (map --shadow)");
    if (lpm_image_stages(img) > 255)
        return lpm_err_set(err, LPM_EINPUT, "%u stages: the generator takes at most 255", lpm_image_stages(img));
    return LPM_OK;
}

int lpm_rtl_shape_of(const lpm_image *img, const lpm_rtl_opts *o, lpm_rtl_shape *sh, lpm_err *err)
{
    unsigned hop = o->hop ? o->hop : 2, ports = o->ports ? o->ports : 1;
    int rc = check_opts(img, o, hop, ports, err);
    if (rc)
        return rc;
    memset(sh, 0, sizeof *sh);
    lpm_word_fmt f;
    lpm_image_word_fmt(img, &f);
    lpm_word_layout_of(&f, 0, &sh->wl);
    lpm_word_layout_of(&f, 1, &sh->dl);
    sh->n = lpm_image_stages(img);
    sh->ring = lpm_image_is_ring(img) ? 1 : 0;
    sh->p = ports;
    sh->d = hop;
    sh->q = o->queue;
    sh->w = o->width;
    sh->mutate = o->mutate;
    sh->dq = o->dit_queue ? 1 : 0;
    sh->c = sh->w * (sh->d + 1);
    sh->nq = sh->ring ? sh->n : 1;
    sh->nrl = sh->ring ? sh->n * sh->p : sh->p;
    sh->l = sh->nrl + sh->w;
    sh->kb = lpm_image_key_bits(img);
    sh->x = lpm_image_initial_stride(img);
    sh->cp = lpm_image_copies(img);
    sh->act = lpm_image_active(img);
    /* a shadow copy: the DIT index is {active copy, key bits}, the stage
     * memories hold both copies (absolute addresses) */
    sh->xi = at_least1(sh->x + (sh->cp > 1));
    sh->kr = sh->kb - sh->x;
    sh->wb = lpm_image_word_bits(img);
    sh->db = lpm_image_dit_bits(img);
    sh->kp = sh->kr > sh->wb ? sh->kr : sh->wb; /* the remaining key, or a bubble's word */
    sh->nb = f.nh_bits;
    sh->sb = at_least1(clog2(sh->n));
    sh->aw = 1;
    for (unsigned s = 0; s < sh->n; s++) {
        unsigned b = clog2((unsigned long long)sh->cp * lpm_image_stage_depth(img, s));
        if (b > sh->aw)
            sh->aw = b;
    }
    sh->pb = clog2(sh->kb + LPM_IMAGE_MAX_STRIDE + 1);
    /* Lookups in flight: the window, the queues, D items per stage lane, two
     * per result lane; the testbench hands out tags no two of which are in
     * flight at once. Bubbles: the window, queue 0, D per stage. */
    unsigned long long live = sh->c + (unsigned long long)sh->nq * sh->q + (unsigned long long)sh->n * sh->p * sh->d +
                              2ULL * sh->l;
    sh->t = at_least1(clog2(live));
    sh->bqb = at_least1(clog2(sh->c + (unsigned long long)sh->q + (unsigned long long)sh->n * sh->d));
    sh->tg = sh->t > sh->bqb ? sh->t : sh->bqb;
    sh->qcb = at_least1(clog2(sh->q + 1));
    sh->wnb = at_least1(clog2(sh->w + 1));
    sh->fnb = at_least1(clog2(sh->c + 1));
    sh->bsw = 1 + sh->aw + sh->wb;
    sh->bf = sh->n * sh->bsw + 1 + sh->xi + sh->db;
    sh->bw = sh->bf + (sh->cp > 1 ? 4 : 0); /* flags: fence, drain, swap, the swap's copy */
    if (o->fifo) {
        /* the credit rules: no window, one result port; at most F - 1
         * lookups between acceptance and output; a bubble at most every
         * other cycle, D per stage and D + 2 before stage 0 */
        sh->f = o->fifo;
        sh->rfb = at_least1(clog2(sh->f));
        sh->nrl = 1;
        sh->l = 1;
        sh->t = at_least1(clog2(sh->f));
        sh->bqb = at_least1(clog2((unsigned long long)sh->n * sh->d + 2ULL * sh->d + 4));
        sh->tg = sh->t > sh->bqb ? sh->t : sh->bqb;
    }
    sh->rdw = sh->t + 1 + sh->nb;
    sh->slw = 3 + sh->tg;
    sh->wtw = 1 + sh->tg + sh->sb;
    /* the item: flags, then the fields (docs/cli-rtl.md) */
    sh->f_v = 0;
    sh->f_b = 1;
    sh->f_done = 2;
    sh->f_wen = 3;
    sh->f_nhv = 4;
    sh->f_tag = 5;
    sh->f_nh = sh->f_tag + sh->tg;
    sh->f_stg = sh->f_nh + sh->nb;
    sh->f_addr = sh->f_stg + sh->sb;
    sh->f_bp = sh->f_addr + sh->aw;
    sh->f_key = sh->f_bp + sh->pb;
    sh->iw = sh->f_key + sh->kp;
    return LPM_OK;
}
