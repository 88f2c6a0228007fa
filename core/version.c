#include "version.h"

#ifndef LPM_VERSION_STR
#define LPM_VERSION_STR "unknown"
#endif
#ifndef LPM_GIT_REV_STR
#define LPM_GIT_REV_STR "unknown"
#endif

const char *lpm_version(void)
{
    return LPM_VERSION_STR;
}

const char *lpm_git_revision(void)
{
    return LPM_GIT_REV_STR;
}

const char *lpm_tool_revision(void)
{
    return "lpmpipe " LPM_GIT_REV_STR;
}
