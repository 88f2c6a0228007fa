/* The engine options every command that runs engines shares (engines.h):
 * --engine NAME and --engines LIST|all against the registry, with one set
 * of messages. */
#include <string.h>

#include "cli.h"
#include "engines.h"

const lpm_engine_ops *lpm_cli_engine(const char *cmd, const char *name)
{
    const lpm_engine_ops *e = lpm_engine_find(name);
    if (!e)
        lpm_cli_error(cmd, "--engine: unknown engine '%s' (see --help)", name);
    return e;
}

int lpm_cli_engine_list(const char *cmd, const char *list, int family, unsigned flags, const lpm_engine_ops **out,
                        size_t max, size_t *n)
{
    int fam = family == LPM_AF_INET ? LPM_ENGINE_V4 : LPM_ENGINE_V6;
    int all = list && !strcmp(list, "all");
    *n = 0;
    if (!list || all) {
        for (size_t i = 0; i < lpm_engine_count() && *n < max; i++)
            if ((lpm_engine_at(i)->families & fam) || (all && (flags & LPM_ENGINES_ALL_FAMILIES)))
                out[(*n)++] = lpm_engine_at(i);
        return 0;
    }
    char buf[1024];
    if (strlen(list) >= sizeof buf) {
        lpm_cli_error(cmd, "--engines: list too long");
        return 2;
    }
    strcpy(buf, list);
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        const lpm_engine_ops *e = lpm_engine_find(t);
        if (!e) {
            lpm_cli_error(cmd, "--engines: unknown engine '%s' (lpmpipe lookup --help lists them)", t);
            return 2;
        }
        if ((flags & LPM_ENGINES_FAMILY_ONLY) && !(e->families & fam)) {
            lpm_cli_error(cmd, "--engines: %s does not support IPv%d", t, family);
            return 2;
        }
        if (*n == max) {
            lpm_cli_error(cmd, "--engines: more than %zu engines", max);
            return 2;
        }
        out[(*n)++] = e;
    }
    if (!*n) {
        lpm_cli_error(cmd, "--engines: empty list");
        return 2;
    }
    return 0;
}
