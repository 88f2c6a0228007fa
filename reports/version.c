/* The tool version every record carries: the git revision the binary was
 * built from (core/version.h; `report merge` compares it between records). */
#include "report.h"

#include "../core/version.h"

const char *lpm_report_tool_version(void)
{
    return lpm_tool_revision();
}
