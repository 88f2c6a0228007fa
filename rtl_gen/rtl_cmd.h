/* The rtl subcommands, each in its own file. */
#ifndef LPM_RTL_CMD_H
#define LPM_RTL_CMD_H

#include "rtl_gen.h"

int lpm_rtl_cmd_verify(int argc, char **argv);
int lpm_rtl_cmd_synth(int argc, char **argv);
/* --mutate's argument; 0, or 2 after printing the error. */
int lpm_rtl_parse_mutation(const char *s, int *out);

#endif
