/* Inside rtl_gen: file helpers and the emitters of each generated file. */
#ifndef LPM_RTL_GEN_INT_H
#define LPM_RTL_GEN_INT_H

#include <stdio.h>

#include "rtl_gen.h"

/* Opens DIR/NAME for writing and writes the header, each line behind the
 * comment marker cm ("//", "#"; NULL: no header). */
int lpm_rtl_open(FILE **fp, const char *dir, const char *name, const char *header, const char *cm, lpm_err *err);
int lpm_rtl_close(FILE *fp, const char *dir, const char *name, lpm_err *err);

int lpm_rtl_emit_verilog(const lpm_image *img, const lpm_rtl_shape *sh, const lpm_rtl_opts *o,
                         const char *dir, const char *header, lpm_err *err);
int lpm_rtl_emit_support(const lpm_image *img, const lpm_rtl_shape *sh, const lpm_rtl_opts *o,
                         const char *dir, const char *header, lpm_err *err);

#endif
