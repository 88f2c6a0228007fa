/* The mapping kinds' names (--arch, --mapping, reports): a file of their
 * own so that the report (report.c) and the builder (map.c) both use them
 * without calling each other. */
#include "map.h"

#include <string.h>

static const char *const kind_names[] = { "?", "ring", "ring-adaptive", "level", "height", "balanced",
                                           "ring-split", "linear-split" };

const char *lpm_map_kind_name(int kind)
{
    return kind >= 1 && kind <= LPM_MAP_LINEAR_SPLIT ? kind_names[kind] : "?";
}

int lpm_map_kind_is_ring(int kind)
{
    return kind == LPM_MAP_RING || kind == LPM_MAP_RING_ADAPT || kind == LPM_MAP_RING_SPLIT;
}

int lpm_map_kind_parse(const char *arch, const char *mapping)
{
    if (!strcmp(arch, "ring")) {
        if (!mapping || !strcmp(mapping, "minmax"))
            return LPM_MAP_RING;
        if (!strcmp(mapping, "adaptive"))
            return LPM_MAP_RING_ADAPT;
        if (!strcmp(mapping, "split"))
            return LPM_MAP_RING_SPLIT;
        return -1;
    }
    if (!strcmp(arch, "linear")) {
        if (!mapping || !strcmp(mapping, "level"))
            return LPM_MAP_LEVEL;
        if (!strcmp(mapping, "height"))
            return LPM_MAP_HEIGHT;
        if (!strcmp(mapping, "balanced"))
            return LPM_MAP_BALANCED;
        if (!strcmp(mapping, "split"))
            return LPM_MAP_LINEAR_SPLIT;
    }
    return -1;
}
