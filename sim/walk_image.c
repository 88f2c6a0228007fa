#include "walk_image.h"

static void img_dispatch(void *ctx, const lpm_addr *key, lpm_visit *v)
{
    lpm_image_dispatch(ctx, key, v);
}

static void img_visit(void *ctx, lpm_visit *v)
{
    lpm_image_visit(ctx, v);
}

static void img_write(void *ctx, unsigned stage, uint32_t addr, uint64_t word)
{
    if (stage == LPM_SIM_SWAP)
        lpm_image_swap(ctx, addr);
    else
        lpm_image_write(ctx, stage, addr, word);
}

void lpm_sim_image_walker(lpm_image *img, lpm_sim_walker *w)
{
    w->ctx = img;
    w->stages = lpm_image_stages(img);
    w->ring = lpm_image_is_ring(img);
    w->dispatch = img_dispatch;
    w->visit = img_visit;
    w->write = img_write;
    w->active = lpm_image_active(img);
}

int lpm_sim_image_entry(void *img, const lpm_addr *key)
{
    lpm_visit v;
    lpm_image_dispatch(img, key, &v);
    return v.done ? -1 : (int)v.stage;
}
