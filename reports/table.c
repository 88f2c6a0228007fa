/* From records to figure data: every record of a sweep, in the order of
 * its grid, flattened into rows (parameters, kept fields and, with "rows",
 * one row per element), then one figure's cells: x values down, a column
 * per series and y field. */
#include "table.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static json_t *load_record(const char *dir, const char *exp, const char *key)
{
    char path[4200], *buf;
    size_t len;
    lpm_report_record_path(dir, exp, key, path, sizeof path);
    if (lpm_report_read_file(path, &buf, &len))
        return NULL;
    json_t *r = json_loadb(buf, len, 0, NULL);
    free(buf);
    json_t *k = json_object_get(r, "key");
    if (!k || !json_is_string(k) || strcmp(json_string_value(k), key)) {
        json_decref(r);
        return NULL;
    }
    return r;
}

int lpm_report_sweep_load(const char *dir, const lpm_report_exp *e, lpm_report_sweep *s, lpm_err *err)
{
    memset(s, 0, sizeof *s);
    s->rows = json_array();
    s->recrows = json_array();
    s->records = json_array();
    for (size_t i = 0; i < e->npoints; i++) {
        lpm_report_point p;
        int rc = lpm_report_point_at(e, i, &p, err);
        if (rc)
            return rc;
        json_t *r = load_record(dir, e->name, p.key);
        if (!r)
            continue;
        s->done++;
        json_t *base = json_object();
        for (size_t a = 0; a < e->naxes; a++)
            json_object_set(base, e->axes[a].name, lpm_report_label(e, &p, a));
        json_object_update(base, json_object_get(r, "metrics"));
        json_array_append_new(s->recrows, json_copy(base));
        json_t *rows = json_object_get(r, "rows");
        if (json_is_array(rows) && e->rows_path) {
            size_t j;
            json_t *el;
            json_array_foreach(rows, j, el) {
                json_t *row = json_copy(base);
                json_object_update(row, el);
                json_array_append_new(s->rows, row);
            }
            json_decref(base);
        } else {
            json_array_append_new(s->rows, base);
        }
        json_array_append_new(s->records, r);
    }
    return LPM_OK;
}

void lpm_report_sweep_free(lpm_report_sweep *s)
{
    json_decref(s->rows);
    json_decref(s->recrows);
    json_decref(s->records);
    memset(s, 0, sizeof *s);
}

static int same_value(const json_t *a, const json_t *b)
{
    if (json_is_number(a) && json_is_number(b))
        return json_number_value(a) == json_number_value(b);
    return json_equal(a, b);
}

static int row_passes(const json_t *row, const json_t *where)
{
    const char *k;
    json_t *v;
    json_object_foreach((json_t *)where, k, v) {
        json_t *have = json_object_get(row, k);
        if (!have || !same_value(have, v))
            return 0;
    }
    return 1;
}

static size_t find_or_add_x(lpm_report_figdata *d, json_t *x)
{
    size_t i;
    json_t *v;
    json_array_foreach(d->xs, i, v) if (same_value(v, x)) return i;
    json_array_append(d->xs, x);
    return json_array_size(d->xs) - 1;
}

static size_t find_or_add_col(lpm_report_figdata *d, const char *label)
{
    for (size_t i = 0; i < d->ncols; i++)
        if (!strcmp(d->cols[i], label))
            return i;
    if (d->ncols == LPM_REPORT_MAX_COLS)
        return LPM_REPORT_MAX_COLS;
    d->cols[d->ncols] = strdup(label);
    return d->ncols++;
}

/* Sorts x (and the cells with it) when every x is a number. */
static void sort_numeric(lpm_report_figdata *d)
{
    size_t nx = json_array_size(d->xs), i;
    json_t *v;
    d->numeric_x = nx > 0;
    json_array_foreach(d->xs, i, v) if (!json_is_number(v)) d->numeric_x = 0;
    if (!d->numeric_x)
        return;
    for (size_t a = 1; a < nx; a++) /* insertion sort: figures have few x values */
        for (size_t b = a; b > 0; b--) {
            json_t *p = json_array_get(d->xs, b - 1), *q = json_array_get(d->xs, b);
            if (json_number_value(p) <= json_number_value(q))
                break;
            json_incref(p);
            json_array_set(d->xs, b - 1, q);
            json_array_set_new(d->xs, b, p);
            for (size_t c = 0; c < LPM_REPORT_MAX_COLS; c++) {
                json_t *t = d->cell[(b - 1) * LPM_REPORT_MAX_COLS + c];
                d->cell[(b - 1) * LPM_REPORT_MAX_COLS + c] = d->cell[b * LPM_REPORT_MAX_COLS + c];
                d->cell[b * LPM_REPORT_MAX_COLS + c] = t;
            }
        }
}

static int names_row_column(const lpm_report_exp *e, const lpm_report_figure *f)
{
    char kind;
    int any = lpm_report_column(e, f->x, &kind) >= 0 && kind == 'r';
    any |= f->series && lpm_report_column(e, f->series, &kind) >= 0 && kind == 'r';
    for (size_t j = 0; j < f->ny; j++)
        any |= lpm_report_column(e, f->y[j], &kind) >= 0 && kind == 'r';
    const char *k;
    json_t *v;
    json_object_foreach(f->where, k, v) any |= lpm_report_column(e, k, &kind) >= 0 && kind == 'r';
    return any;
}

int lpm_report_figdata_build(const lpm_report_exp *e, const lpm_report_sweep *s, const lpm_report_figure *f,
                             lpm_report_figdata *d)
{
    memset(d, 0, sizeof *d);
    d->xs = json_array();
    size_t cap = 64, i;
    d->cell = calloc(cap * LPM_REPORT_MAX_COLS, sizeof *d->cell);
    json_t *row, *rows = names_row_column(e, f) ? s->rows : s->recrows;
    json_array_foreach(rows, i, row) {
        json_t *x = json_object_get(row, f->x);
        if (!x || (f->where && !row_passes(row, f->where)))
            continue;
        size_t xi = find_or_add_x(d, x);
        if (xi >= cap) {
            d->cell = realloc(d->cell, 2 * cap * LPM_REPORT_MAX_COLS * sizeof *d->cell);
            if (!d->cell)
                abort();
            memset(d->cell + cap * LPM_REPORT_MAX_COLS, 0, cap * LPM_REPORT_MAX_COLS * sizeof *d->cell);
            cap *= 2;
        }
        char sv[256] = "";
        if (f->series)
            lpm_report_value_text(json_object_get(row, f->series), sv, sizeof sv, 6);
        for (size_t j = 0; j < f->ny; j++) {
            char label[600];
            if (f->series && f->ny > 1)
                snprintf(label, sizeof label, "%s (%s=%s)", f->y[j], f->series, sv);
            else if (f->series)
                snprintf(label, sizeof label, "%s=%s", f->series, sv);
            else
                snprintf(label, sizeof label, "%s", f->y[j]);
            json_t *y = json_object_get(row, f->y[j]);
            if (!y || !json_is_number(y))
                continue;
            size_t c = find_or_add_col(d, label);
            if (c == LPM_REPORT_MAX_COLS)
                continue;
            json_t **cell = &d->cell[xi * LPM_REPORT_MAX_COLS + c];
            if (*cell)
                d->clashes++;
            else
                *cell = y;
        }
    }
    sort_numeric(d);
    return LPM_OK;
}

void lpm_report_figdata_free(lpm_report_figdata *d)
{
    for (size_t i = 0; i < d->ncols; i++)
        free(d->cols[i]);
    free(d->cell);
    json_decref(d->xs);
    memset(d, 0, sizeof *d);
}

/* CSV field: quoted when it holds a comma, a quote or a newline. */
static void csv_field(FILE *fp, const char *s)
{
    if (!strpbrk(s, ",\"\n")) {
        fputs(s, fp);
        return;
    }
    fputc('"', fp);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', fp);
        fputc(*s, fp);
    }
    fputc('"', fp);
}

/* TSV field for gnuplot (whose CSV reader does not take quoted commas). */
static void tsv_field(FILE *fp, const char *s)
{
    for (; *s; s++)
        fputc(*s == '\t' || *s == '\n' ? ' ' : *s, fp);
}

int lpm_report_figdata_csv(const lpm_report_figdata *d, const lpm_report_figure *f, FILE *fp, int tsv)
{
    void (*field)(FILE *, const char *) = tsv ? tsv_field : csv_field;
    char sep = tsv ? '\t' : ',';
    field(fp, f->x);
    for (size_t c = 0; c < d->ncols; c++) {
        fputc(sep, fp);
        field(fp, d->cols[c]);
    }
    fputc('\n', fp);
    for (size_t xi = 0; xi < json_array_size(d->xs); xi++) {
        char t[256];
        lpm_report_value_text(json_array_get(d->xs, xi), t, sizeof t, 15);
        field(fp, t);
        for (size_t c = 0; c < d->ncols; c++) {
            json_t *v = d->cell[xi * LPM_REPORT_MAX_COLS + c];
            fputc(sep, fp);
            if (v && json_is_number(v) && isfinite(json_number_value(v))) {
                lpm_report_value_text(v, t, sizeof t, 15);
                fputs(t, fp);
            }
        }
        fputc('\n', fp);
    }
    return ferror(fp) ? LPM_EFAIL : LPM_OK;
}
