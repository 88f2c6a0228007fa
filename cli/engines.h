/* The engine registry (cli/engines.c): every lookup engine the binary has,
 * by name, in one list. Commands and tests choose engines here; libraries
 * never do (core/engine.h is only the interface). */
#ifndef LPM_CLI_ENGINES_H
#define LPM_CLI_ENGINES_H

#include <stddef.h>

#include "../core/engine.h"

const lpm_engine_ops *lpm_engine_find(const char *name);
size_t lpm_engine_count(void);
const lpm_engine_ops *lpm_engine_at(size_t i);

#endif
