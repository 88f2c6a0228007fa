/* lpmpipe names lookup (cli/cmd_names.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_names.h"

static const char CMD[] = "names lookup";

int lpm_cmd_names_lookup(int argc, char **argv)
{
    static const struct option lo[] = { LPM_NCLI_ENGINE_LONGOPTS, { 0, 0, 0, 0 } };
    lpm_ncli_eopts o;
    lpm_ncli_eopts_init(&o);
    int c, r;
    while ((c = lpm_cli_getopt(CMD, argc, argv, "h", lo)) != -1) {
        if (c == 'h') {
            printf("usage: lpmpipe names lookup --table TABLE [--engine ref|trie|ata|mata] [--verify]\n"
                   "       [--trace FILE] [NAME... | -]\n"
                   "Prints '/normalized/name/ port' per name ('-': no match), in input order.\n"
                   "--verify compares every answer with the reference (exit 1 on a mismatch).\n"
                   LPM_NCLI_ENGINE_HELP);
            return 0;
        }
        if ((r = lpm_ncli_engine_opt(CMD, c, optarg, &o)) <= 0)
            return r < 0 ? LPM_EINPUT : lpm_cli_usage_error(CMD);
    }
    lpm_ntable t, list;
    int rc = lpm_ncli_load_both(CMD, &o, argc, argv, &t, &list);
    if (rc)
        return rc;
    lpm_nengine en, ref;
    if ((rc = lpm_ncli_build_engine(CMD, &en, o.engines, &t, &o)))
        goto out;
    if (o.verify && (rc = lpm_ncli_build_engine(CMD, &ref, "ref", &t, &o))) {
        lpm_nengine_free(&en);
        goto out;
    }
    size_t bad = 0;
    for (size_t i = 0; i < list.n; i++) {
        const char *s = lpm_ntable_name(&list, i);
        uint32_t p = lpm_nengine_lookup(&en, s, list.e[i].len);
        if (p == LPM_NM_NONE)
            printf("/%s -\n", s);
        else
            printf("/%s %u\n", s, p);
        if (o.verify) {
            uint32_t q = lpm_nengine_lookup(&ref, s, list.e[i].len);
            if (q != p && bad++ < 10)
                fprintf(stderr, "lpmpipe: %s: mismatch: /%s: %s gives %d, reference %d\n", CMD, s,
                        o.engines, p == LPM_NM_NONE ? -1 : (int)p, q == LPM_NM_NONE ? -1 : (int)q);
        }
    }
    if (o.verify) {
        lpm_cli_error(CMD, "%zu lookups, %zu mismatches", list.n, bad);
        lpm_nengine_free(&ref);
        rc = bad ? LPM_EFAIL : 0;
    }
    lpm_nengine_free(&en);
out:
    lpm_ntable_free(&t);
    lpm_ntable_free(&list);
    return rc;
}
