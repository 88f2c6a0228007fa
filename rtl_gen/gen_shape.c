/* The widths every generated module and the testbench agree on: the item
 * layout of rtl_gen/lpm_core.v, computed once from the image and options. */
#include "rtl_gen.h"

static unsigned clog2(unsigned long long v)
{
    unsigned b = 0;
    while ((1ULL << b) < v)
        b++;
    return b;
}

const char *lpm_rtl_mutation_name(int m)
{
    return m == LPM_RTL_MUT_QUEUE_BEATS_PASS ? "queue-beats-pass" : "none";
}

int lpm_rtl_shape_of(const lpm_image *img, const lpm_rtl_opts *o, lpm_rtl_shape *sh, lpm_err *err)
{
    lpm_word_fmt f;
    lpm_image_word_fmt(img, &f);
    sh->n = lpm_image_stages(img);
    sh->ring = lpm_image_is_ring(img) ? 1 : 0;
    unsigned hop = o->hop ? o->hop : 1, ports = o->ports ? o->ports : 1;
    if (hop != LPM_RTL_HOP || ports != LPM_RTL_PORTS)
        return lpm_err_set(err, LPM_EINPUT,
                           "--hop-cycles %u --ports %u: the generated RTL implements the one-cycle rules only "
                           "(--hop-cycles %u --ports %u); the v2 RTL (hop cycles 2 or more, two ports) is not written yet",
                           hop, ports, LPM_RTL_HOP, LPM_RTL_PORTS);
    if (o->width < 1 || o->width > 16)
        return lpm_err_set(err, LPM_EINPUT, "issue width %u: the generator takes 1..16", o->width);
    if (!sh->ring && o->width != 1)
        return lpm_err_set(err, LPM_EINPUT, "a linear pipeline has one entry: issue width must be 1");
    if (o->queue > 4096)
        return lpm_err_set(err, LPM_EINPUT, "queue depth %u: the generator takes 0..4096", o->queue);
    if (o->rob > 65536)
        return lpm_err_set(err, LPM_EINPUT, "reorder buffer %u: the generator takes 0..65536", o->rob);
    if (lpm_image_copies(img) != 1)
        return lpm_err_set(err, LPM_EINPUT, "the image has a shadow copy (map --shadow): the generated RTL does not "
                                            "implement the copy select and the swap yet (docs/cli-rtl.md)");
    if (o->mutate == LPM_RTL_MUT_QUEUE_BEATS_PASS && o->queue == 0)
        return lpm_err_set(err, LPM_EINPUT, "--mutate queue-beats-pass needs queues (--queue 1 or more)");
    sh->q = o->queue;
    sh->w = o->width;
    sh->r = o->rob;
    sh->kb = lpm_image_key_bits(img);
    sh->id = 32;
    sh->sb = sh->n > 1 ? clog2(sh->n) : 1;
    sh->ab = f.addr_bits;
    sh->nb = f.nh_bits;
    sh->pb = 8;
    sh->wb = lpm_image_word_bits(img);
    sh->x = lpm_image_initial_stride(img);
    sh->xi = sh->x ? sh->x : 1;
    sh->db = lpm_image_dit_bits(img);
    sh->stage_bits = f.stage_bits;
    /* bubbles in flight: the window, queue 0 and the stages */
    sh->bqb = clog2(sh->w + sh->q + sh->n + 1);
    if (sh->bqb < 1)
        sh->bqb = 1;
    sh->o_tag = 4;
    sh->o_nh = sh->o_tag + sh->id;
    sh->o_stg = sh->o_nh + sh->nb;
    sh->o_addr = sh->o_stg + sh->sb;
    sh->o_bp = sh->o_addr + sh->ab;
    sh->o_key = sh->o_bp + sh->pb;
    sh->iw = sh->o_key + sh->kb;
    sh->bsw = 1 + sh->ab + sh->wb;
    sh->bw = sh->n * sh->bsw + 1 + sh->xi + sh->db;
    sh->l = sh->r ? sh->w : sh->n + sh->w;
    sh->qcb = clog2(sh->q + 1) ? clog2(sh->q + 1) : 1;
    sh->wcb = clog2(sh->w + 1);
    return LPM_OK;
}
