/* What rtl and rtl verify parse alike, in a file below both (so
 * cmd_rtl.c, which dispatches to verify, and cmd_rtl_verify.c do not call
 * each other). */
#include "cli.h"
#include "cmd.h"
#include "../rtl_gen/rtl_gen.h"

int lpm_rtl_parse_mutation(const char *s, int *out)
{
    int m = lpm_rtl_mutation_of(s);
    if (m < 0) {
        lpm_cli_error("rtl", "--mutate: unknown fault '%s' (queue-order, queue-capacity, bubble-address, swap-early)", s);
        return 2;
    }
    *out = m;
    return 0;
}
