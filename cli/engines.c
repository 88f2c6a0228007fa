/* The engine registry. Engines are weak references: a folder that is not
 * built leaves its engines out. Add a new engine's symbol here once. */
#include <string.h>

#include "../core/engine.h"

#define WEAK __attribute__((weak))
extern const lpm_engine_ops lpm_engine_ref WEAK;
extern const lpm_engine_ops lpm_engine_unibit WEAK;
extern const lpm_engine_ops lpm_engine_multibit WEAK;
extern const lpm_engine_ops lpm_engine_dir24_8 WEAK;
extern const lpm_engine_ops lpm_engine_tree_bitmap_13 WEAK;
extern const lpm_engine_ops lpm_engine_tree_bitmap_11 WEAK;
extern const lpm_engine_ops lpm_engine_hybrid WEAK;
extern const lpm_engine_ops lpm_engine_poptrie WEAK;
extern const lpm_engine_ops lpm_engine_gamt WEAK;
extern const lpm_engine_ops lpm_engine_gale WEAK;

static const lpm_engine_ops *const all[] = {
    &lpm_engine_ref, &lpm_engine_unibit, &lpm_engine_multibit,
    &lpm_engine_dir24_8, &lpm_engine_tree_bitmap_13, &lpm_engine_tree_bitmap_11,
    &lpm_engine_hybrid, &lpm_engine_poptrie, &lpm_engine_gamt, &lpm_engine_gale,
};

size_t lpm_engine_count(void)
{
    size_t n = 0;
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        n += all[i] != NULL;
    return n;
}

const lpm_engine_ops *lpm_engine_at(size_t k)
{
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        if (all[i] && k-- == 0)
            return all[i];
    return NULL;
}

const lpm_engine_ops *lpm_engine_find(const char *name)
{
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        if (all[i] && strcmp(all[i]->name, name) == 0)
            return all[i];
    return NULL;
}
