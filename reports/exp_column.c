/* Finding a column of a definition by name, below the definition's reader
 * (exp_load.c) and its figures (exp_figs.c), which both ask. */
#include "report.h"

#include <string.h>

int lpm_report_column(const lpm_report_exp *e, const char *name, char *kind)
{
    for (size_t i = 0; i < e->naxes; i++)
        if (!strcmp(e->axes[i].name, name))
            return *kind = 'p', (int)i;
    for (size_t i = 0; i < e->nkeep; i++)
        if (!strcmp(e->keep[i].name, name))
            return *kind = 'k', (int)i;
    for (size_t i = 0; i < e->nrow_keep; i++)
        if (!strcmp(e->row_keep[i].name, name))
            return *kind = 'r', (int)i;
    return -1;
}
