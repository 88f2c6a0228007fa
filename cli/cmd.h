/* Every command driver's entry point (cli/cmd_*.c): "lpmpipe CMD ..." and
 * the subcommands one command hands on to another file. Each returns the
 * exit status. Only the command layer (cli/cmd_*.c, cli/main.c) includes
 * this; see docs/architecture.md for how to add a command. */
#ifndef LPM_CLI_CMD_H
#define LPM_CLI_CMD_H

/* lpmpipe COMMAND (cli/main.c's table). */
int lpm_cmd_fib(int argc, char **argv);
int lpm_cmd_trace(int argc, char **argv);
int lpm_cmd_lookup(int argc, char **argv);
int lpm_cmd_map(int argc, char **argv);
int lpm_cmd_image(int argc, char **argv);
int lpm_cmd_update(int argc, char **argv);
int lpm_cmd_sim(int argc, char **argv);
int lpm_cmd_rtl(int argc, char **argv);
int lpm_cmd_gpu(int argc, char **argv);
int lpm_cmd_bench(int argc, char **argv);
int lpm_cmd_names(int argc, char **argv);
int lpm_cmd_model(int argc, char **argv);
int lpm_cmd_report(int argc, char **argv);

/* Parts of a command that live in their own file. */
int lpm_fib_tries_report(int argc, char **argv);   /* fib tries (cmd_fib_tries.c) */
int lpm_cmd_lookup_image(int argc, char **argv);   /* lookup --image (cmd_lookup_image.c) */
int lpm_cmd_bench_cpu(int argc, char **argv);      /* bench's CPU engines (cmd_bench_cpu.c) */
int lpm_rtl_cmd_verify(int argc, char **argv);     /* rtl verify (cmd_rtl_verify.c) */
int lpm_rtl_cmd_synth(int argc, char **argv);      /* rtl synth (cmd_rtl_synth.c) */
int lpm_cmd_model_verify(int argc, char **argv);   /* model verify (cmd_model_verify.c) */
/* --mutate's argument; 0, or 2 after printing the error (cmd_rtl_opts.c). */
int lpm_rtl_parse_mutation(const char *s, int *out);

#endif
