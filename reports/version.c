/* The tool version every record carries: the git revision the binary was
 * built from (generated into $(BUILD)/gen/lpm_version.h by reports/module.mk). */
#include "report.h"

#include "lpm_version.h"

const char *lpm_report_tool_version(void)
{
    return "lpmpipe " LPM_GIT_VERSION;
}
