/* lpm_visit, one lookup's walk state, belongs to the mapper's image.h. */
#ifndef LPM_SIM_VISIT_H
#define LPM_SIM_VISIT_H

#include "../mapper/image.h"

#endif
