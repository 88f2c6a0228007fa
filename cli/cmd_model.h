/* What the lpmpipe model subcommands share (cli/cmd_model*.c only). */
#ifndef LPM_CLI_CMD_MODEL_H
#define LPM_CLI_CMD_MODEL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cli.h"
#include "../models/model.h"
#include "../sim/bubble_file.h"

typedef struct lpm_model_opts {
    lpm_cli_req req;         /* --trace, --gen, --count, --seed */
    const char *image, *updates, *clog, *results;
    int ignore_crc, json;
    double urate;
    lpm_model_cfg mc;
    /* model verify --cosim: the Verilated RTL beside the model */
    int cosim, rtl_mutate;   /* rtl_mutate: enum lpm_rtl_mutation */
    const char *cache, *bdir;
    /* model linecard */
    int fast, timed;         /* timed: --timed-trace (lines "SECONDS ADDRESS") */
    int rate_set, ntrace;    /* --rate-mpps given; --trace and --timed-trace given */
    double rate_mpps;
    unsigned fifo, contexts;
} lpm_model_opts;

/* The usage and options of model run, verify or linecard; the request
 * options' lines with model's defaults. */
void lpm_model_help(FILE *fp, const char *sub);
void lpm_model_req_help(FILE *fp);
/* 0, 2 after a message, or -1 for --help (the caller prints it, exit 0). */
int lpm_model_opts_parse(const char *cmd, int argc, char **argv, lpm_model_opts *o);

typedef struct lpm_model_keys {
    lpm_addr *a;
    size_t n, cap, pos;
} lpm_model_keys;
/* The requests of --trace or --gen in memory; the exit status. */
int lpm_model_keys_load(const char *cmd, const lpm_model_opts *o, const lpm_image *img, lpm_model_keys *k);
int lpm_model_keys_next(void *ctx, lpm_addr *key, lpm_err *err);

/* --image loaded and the pipeline options checked against it; without
 * --updates also a copy in *check (answers are checked against it). The
 * exit status; on failure nothing is left to free. */
int lpm_model_image_open(const char *cmd, const lpm_model_opts *o, lpm_image **img, lpm_image **check);
int lpm_model_bubbles_open(const char *cmd, const lpm_model_opts *o, const lpm_image *img, lpm_sim_bfile *bf);

typedef struct lpm_model_results {
    lpm_sim_result *a;
    size_t n, cap;
} lpm_model_results;
int lpm_model_results_grow(lpm_model_results *r, const lpm_sim_result *x);
/* a (cap elements of size bytes, n used) with room for one more: a itself,
 * or a bigger copy (cap updated), or NULL when out of memory (a intact). */
void *lpm_model_grow(void *a, size_t *cap, size_t n, size_t size);

/* model verify --cosim (cmd_model_cosim.c): the RTL generated from the
 * image (before any bubble writes it), its testbench library built (or
 * taken from the cache), the stimulus files written; then the RTL's
 * results read back. */
typedef struct lpm_model_cosim_run {
    char work[4096], rtl[4200], lib[4200], keys[4200], bubbles[4200], results[4200];
    int tmp;                 /* the work folder was made here: removed at the end */
    lpm_model_cosim co;
} lpm_model_cosim_run;
int lpm_model_cosim_prepare(const char *cmd, const lpm_model_opts *o, const lpm_image *img, const lpm_model_keys *k,
                            lpm_model_cosim_run *r);
int lpm_model_cosim_results(const char *cmd, const lpm_model_cosim_run *r, lpm_model_results *out);
void lpm_model_cosim_free(const char *cmd, lpm_model_cosim_run *r);

/* model run (cmd_model_run.c), model linecard (cmd_model_linecard.c) */
int lpm_cmd_model_run(int argc, char **argv);
int lpm_cmd_model_linecard(int argc, char **argv);

#endif
