/* The simulator's walker over a pipeline image (mapper/image.h). */
#ifndef LPM_SIM_WALK_IMAGE_H
#define LPM_SIM_WALK_IMAGE_H

#include "sim.h"

void lpm_sim_image_walker(lpm_image *img, lpm_sim_walker *w);
/* Entry class for burst grouping: entry stage, or -1 for DIT answers. */
int lpm_sim_image_entry(void *img, const lpm_addr *key);
#endif
