/* The engine registry: one line per engine, in the order --help and
 * `bench` list them. Adding an engine: its file, one line here, its test
 * and its doc (docs/architecture.md). */
#include <string.h>

#include "engines.h"

/* One line per engine, its lpm_engine_ops object. */
#define ENGINES(X)                 \
    X(lpm_engine_ref)              \
    X(lpm_engine_unibit)           \
    X(lpm_engine_multibit)         \
    X(lpm_engine_dir24_8)          \
    X(lpm_engine_tree_bitmap_13)   \
    X(lpm_engine_tree_bitmap_11)   \
    X(lpm_engine_hybrid)           \
    X(lpm_engine_poptrie)          \
    X(lpm_engine_gamt)             \
    X(lpm_engine_gale)

#define DECLARE(e) extern const lpm_engine_ops e;
#define ADDRESS(e) &e,
ENGINES(DECLARE)
static const lpm_engine_ops *const all[] = { ENGINES(ADDRESS) };

size_t lpm_engine_count(void)
{
    return sizeof all / sizeof all[0];
}

const lpm_engine_ops *lpm_engine_at(size_t k)
{
    return k < lpm_engine_count() ? all[k] : NULL;
}

const lpm_engine_ops *lpm_engine_find(const char *name)
{
    for (size_t i = 0; i < lpm_engine_count(); i++)
        if (strcmp(all[i]->name, name) == 0)
            return all[i];
    return NULL;
}
