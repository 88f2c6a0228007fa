/* Internal to reports/: records of a sweep as rows, and one figure's data. */
#ifndef LPM_REPORT_TABLE_H
#define LPM_REPORT_TABLE_H

#include <stdio.h>

#include "proc.h"

#define LPM_REPORT_MAX_COLS 64

typedef struct lpm_report_sweep {
    json_t *records; /* the records found, in grid order */
    json_t *rows;    /* flat rows: column -> value, one per element of "rows" */
    json_t *recrows; /* one row per record: parameters and kept fields */
    size_t done;
} lpm_report_sweep;

int lpm_report_sweep_load(const char *dir, const lpm_report_exp *e, lpm_report_sweep *s, lpm_err *err);
void lpm_report_sweep_free(lpm_report_sweep *s);

typedef struct lpm_report_figdata {
    json_t *xs;                       /* x values, sorted when numeric */
    char *cols[LPM_REPORT_MAX_COLS];  /* "burst=16", "lpc", "latency_p99, dispatch=..." */
    size_t ncols;
    json_t **cell;                    /* [x * LPM_REPORT_MAX_COLS + col], borrowed or NULL */
    int numeric_x;
    size_t clashes;                   /* rows that fell on a cell already filled */
} lpm_report_figdata;

/* The rows a figure reads: per record, unless it names a "rows" column. */
int lpm_report_figdata_build(const lpm_report_exp *e, const lpm_report_sweep *s, const lpm_report_figure *f,
                             lpm_report_figdata *d);
void lpm_report_figdata_free(lpm_report_figdata *d);
/* The figure's data: CSV for people, TSV (tsv = 1) for gnuplot. */
int lpm_report_figdata_csv(const lpm_report_figdata *d, const lpm_report_figure *f, FILE *fp, int tsv);

#endif
