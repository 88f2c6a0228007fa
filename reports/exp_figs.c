/* The "figures" of a definition: which columns go on which axis, checked
 * against the parameters and kept fields when the definition is read. */
#include "report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fig_err(lpm_err *err, const lpm_report_exp *e, size_t i, const char *key, const char *why)
{
    return lpm_err_set(err, LPM_EINPUT, "%s: figures[%zu].%s: %s", e->file, i, key, why);
}

static int col_ok(const lpm_report_exp *e, const char *name)
{
    char kind;
    return name && lpm_report_column(e, name, &kind) >= 0;
}

static int label_of_axis(const lpm_report_exp *e, int a, const json_t *v)
{
    size_t i;
    json_t *w;
    json_array_foreach(e->axes[a].values, i, w) {
        json_t *l = json_is_object(w) ? json_object_get(w, "label") : w;
        if (json_equal(l, v) || (json_is_number(l) && json_is_number(v) && json_number_value(l) == json_number_value(v)))
            return 1;
    }
    return 0;
}

static int load_where(const lpm_report_exp *e, size_t i, json_t *w, lpm_err *err)
{
    if (!json_is_object(w))
        return fig_err(err, e, i, "where", "must be an object: column -> value");
    const char *k;
    json_t *v;
    json_object_foreach(w, k, v) {
        char kind, key[120];
        int c = lpm_report_column(e, k, &kind);
        snprintf(key, sizeof key, "where.%s", k);
        if (c < 0)
            return fig_err(err, e, i, key, "names no parameter and no kept column");
        if (!json_is_string(v) && !json_is_number(v))
            return fig_err(err, e, i, key, "a value is a string or a number");
        if (kind == 'p' && !label_of_axis(e, c, v))
            return fig_err(err, e, i, key, "not one of the parameter's values");
    }
    return LPM_OK;
}

static int load_y(const lpm_report_exp *e, size_t i, json_t *y, lpm_report_figure *f, lpm_err *err)
{
    if (json_is_string(y)) {
        f->y[f->ny++] = json_string_value(y);
    } else if (json_is_array(y) && json_array_size(y) > 0 && json_array_size(y) <= 8) {
        size_t j;
        json_t *v;
        json_array_foreach(y, j, v) {
            if (!json_is_string(v))
                return fig_err(err, e, i, "y", "a column name or a list of up to 8");
            f->y[f->ny++] = json_string_value(v);
        }
    } else {
        return fig_err(err, e, i, "y", "required: a column name or a list of up to 8");
    }
    for (size_t j = 0; j < f->ny; j++)
        if (!col_ok(e, f->y[j]))
            return fig_err(err, e, i, "y", "names no parameter and no kept column");
    return LPM_OK;
}

static const char *str_or_null(json_t *o, const char *key, int *bad)
{
    json_t *v = json_object_get(o, key);
    if (v && !json_is_string(v))
        *bad = 1;
    return v ? json_string_value(v) : NULL;
}

static int load_one(lpm_report_exp *e, size_t i, json_t *o, lpm_report_figure *f, lpm_err *err)
{
    static const char *const known[] = { "name", "title", "x", "y", "series", "where", "xlabel", "ylabel",
                                         "style", "xscale", "yscale", NULL };
    if (!json_is_object(o))
        return lpm_err_set(err, LPM_EINPUT, "%s: figures[%zu]: must be an object", e->file, i);
    const char *k;
    json_t *v;
    json_object_foreach(o, k, v) {
        size_t j;
        for (j = 0; known[j] && strcmp(known[j], k); j++)
            ;
        if (!known[j])
            return fig_err(err, e, i, k, "unknown key (known: name, title, x, y, series, where, xlabel, ylabel, style, xscale, yscale)");
    }
    int badstr = 0;
    f->name = str_or_null(o, "name", &badstr);
    f->title = str_or_null(o, "title", &badstr);
    f->x = str_or_null(o, "x", &badstr);
    f->series = str_or_null(o, "series", &badstr);
    f->xlabel = str_or_null(o, "xlabel", &badstr);
    f->ylabel = str_or_null(o, "ylabel", &badstr);
    f->style = str_or_null(o, "style", &badstr);
    if (badstr)
        return fig_err(err, e, i, "name", "name, title, x, series, xlabel, ylabel and style are strings");
    if (!f->name || !*f->name || strspn(f->name, "abcdefghijklmnopqrstuvwxyz0123456789-_") != strlen(f->name))
        return fig_err(err, e, i, "name", "required: lower-case letters, digits, '-' and '_' (it names the files)");
    for (size_t j = 0; j < i; j++)
        if (!strcmp(e->figs[j].name, f->name))
            return fig_err(err, e, i, "name", "two figures of the same name");
    if (!col_ok(e, f->x))
        return fig_err(err, e, i, "x", "required: a parameter or kept column");
    if (f->series && !col_ok(e, f->series))
        return fig_err(err, e, i, "series", "names no parameter and no kept column");
    if (f->style && strcmp(f->style, "lines") && strcmp(f->style, "bars"))
        return fig_err(err, e, i, "style", "\"lines\" (default) or \"bars\"");
    f->xscale = str_or_null(o, "xscale", &badstr);
    f->yscale = str_or_null(o, "yscale", &badstr);
    if (badstr || (f->xscale && strcmp(f->xscale, "linear") && strcmp(f->xscale, "log") && strcmp(f->xscale, "category")))
        return fig_err(err, e, i, "xscale", "\"linear\" (default), \"log\" or \"category\" (values evenly spaced)");
    if (f->yscale && strcmp(f->yscale, "linear") && strcmp(f->yscale, "log"))
        return fig_err(err, e, i, "yscale", "\"linear\" (default) or \"log\"");
    if (!f->xscale)
        f->xscale = f->style && !strcmp(f->style, "bars") ? "category" : "linear";
    if (!f->yscale)
        f->yscale = "linear";
    if (!f->title)
        f->title = f->name;
    f->where = json_object_get(o, "where");
    int rc = load_y(e, i, json_object_get(o, "y"), f, err);
    if (!rc && f->where)
        rc = load_where(e, i, f->where, err);
    return rc;
}

int lpm_report_load_figures(lpm_report_exp *e, lpm_err *err)
{
    json_t *figs = json_object_get(e->root, "figures");
    if (!figs)
        return LPM_OK;
    if (!json_is_array(figs))
        return lpm_err_set(err, LPM_EINPUT, "%s: figures: must be a list of objects", e->file);
    e->figs = calloc(json_array_size(figs) + 1, sizeof *e->figs);
    size_t i;
    json_t *o;
    json_array_foreach(figs, i, o) {
        int rc = load_one(e, i, o, &e->figs[i], err);
        if (rc)
            return rc;
        e->nfigs++;
    }
    return LPM_OK;
}
