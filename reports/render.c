#include "proc.h"
int lpm_report_render(const char *dir, const char *out, char *note, size_t nnote, lpm_err *err)
{
    (void)dir; (void)out; (void)note; (void)nnote;
    return lpm_err_set(err, LPM_EFAIL, "not yet");
}
