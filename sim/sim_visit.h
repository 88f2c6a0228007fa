/* lpm_visit, one lookup's walk state, belongs to the mapper's image.h. Until
 * the mapper is merged the simulator builds against an identical copy. */
#ifndef LPM_SIM_VISIT_H
#define LPM_SIM_VISIT_H

#include <stdint.h>

#include "../core/prefix.h"

#if __has_include("../mapper/image.h")
#include "../mapper/image.h"
#define LPM_SIM_HAVE_IMAGE 1
#else
#define LPM_SIM_HAVE_IMAGE 0
typedef struct lpm_visit {
    lpm_addr key;
    unsigned stage;     /* stage to read next */
    uint32_t addr;      /* word address in that stage */
    unsigned bitpos;    /* next key bit to consume */
    uint32_t best_nh;   /* best next hop so far (LPM_NH_NONE) */
    unsigned visits;    /* stage reads made so far */
    unsigned loops;     /* times the walk wrapped past stage N-1 to 0 */
    int done;           /* 1: best_nh is the answer */
} lpm_visit;
#endif

#endif
