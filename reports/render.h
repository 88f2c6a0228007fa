/* Internal to reports/: what render knows about each sweep, shared by the
 * gnuplot, Markdown and HTML writers. */
#ifndef LPM_REPORT_RENDER_H
#define LPM_REPORT_RENDER_H

#include "table.h"

typedef struct lpm_rfig {
    const lpm_report_figure *f;
    lpm_report_figdata d;
    char base[200]; /* OUT/base.{csv,gp,svg,png} */
    int drawn;
} lpm_rfig;

typedef struct lpm_rexp {
    lpm_report_exp e;
    lpm_report_sweep s;
    lpm_rfig *figs;
    json_t *keys; /* the keys of the grid */
    size_t failed, skipped;
    char fail_reason[600], skip_reason[600];
    const char *missing_data; /* a table this sweep needs, when none of it ran */
} lpm_rexp;

typedef struct lpm_rdoc {
    const char *dir, *out;
    lpm_rexp *x;
    size_t n;
    json_t *versions; /* tool version -> records */
    json_t *inputs;   /* "name file" -> checksum */
} lpm_rdoc;

int lpm_report_plot(const char *out, lpm_rexp *x, lpm_rfig *r, char *note, size_t nnote, lpm_err *err);
int lpm_report_write_md(const lpm_rdoc *doc, lpm_err *err);
int lpm_report_write_html(const lpm_rdoc *doc, lpm_err *err);
/* "lpmpipe sim --queue {queue} ..." */
void lpm_report_template_text(const json_t *cmd, char *buf, size_t n);
/* "queue: 0, 1, 2" per parameter, one line each, into buf. */
void lpm_report_params_text(const lpm_report_exp *e, size_t a, char *buf, size_t n);

#endif
