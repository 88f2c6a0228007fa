#include "verify_cmp.h"
int lpm_rtl_icarus(lpm_rtl_cmp *c, const char *rtl, const char *work, int bubbles, const char *simres, lpm_err *err)
{ (void)c; (void)rtl; (void)work; (void)bubbles; (void)simres; return lpm_err_set(err, LPM_EFAIL, "icarus: not yet"); }
