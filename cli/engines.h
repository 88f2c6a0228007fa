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

/* The engine options (cli/engine_opt.c), one parse and one set of messages
 * for every command. --engine NAME: the engine, or NULL after "--engine:
 * unknown engine 'x' (see --help)". --engines LIST|all: comma-separated
 * names into out[0..*n) (at most max); NULL: every engine that takes the
 * family; "all": the same, or with LPM_ENGINES_ALL_FAMILIES every engine
 * (the others are shown as skipped); LPM_ENGINES_FAMILY_ONLY refuses a
 * named engine of the other family. 0, or 2 after the message. */
const lpm_engine_ops *lpm_cli_engine(const char *cmd, const char *name);
enum { LPM_ENGINES_ALL_FAMILIES = 1, LPM_ENGINES_FAMILY_ONLY = 2 };
int lpm_cli_engine_list(const char *cmd, const char *list, int family, unsigned flags, const lpm_engine_ops **out,
                        size_t max, size_t *n);

#endif
