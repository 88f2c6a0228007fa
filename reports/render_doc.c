/* summary.md and index.html: every sweep with its command, parameters,
 * figures (files beside the page, nothing from the network) and data. */
#include "render.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MD_MAX_ROWS 80

static void cell_text(const lpm_rfig *r, size_t xi, size_t c, char *t, size_t n)
{
    json_t *v = c == (size_t)-1 ? json_array_get(r->d.xs, xi) : r->d.cell[xi * LPM_REPORT_MAX_COLS + c];
    if (v)
        lpm_report_value_text(v, t, n, 6);
    else
        snprintf(t, n, "-");
}

/* Why a sweep has no record. */
static void panel_text(const lpm_rexp *x, char *buf, size_t n)
{
    size_t k = 0;
    buf[0] = 0;
    if (x->e.absent)
        k += (size_t)snprintf(buf + k, n - k, "%s ", x->e.absent);
    if (x->missing_data && k < n)
        k += (size_t)snprintf(buf + k, n - k, "Not run here: it needs the table $LPMPIPE_DATA/%s. ", x->missing_data);
    if (x->skipped && k < n)
        k += (size_t)snprintf(buf + k, n - k, "%zu points were skipped where they were run (%s). ", x->skipped,
                              x->skip_reason);
    if (x->failed && k < n)
        k += (size_t)snprintf(buf + k, n - k, "%zu points failed (%s). ", x->failed, x->fail_reason);
    if (!buf[0])
        snprintf(buf, n, "No record yet: run `lpmpipe report run` with this definition.");
}

static void md_table(FILE *fp, const lpm_rfig *r)
{
    fprintf(fp, "| %s |", r->f->x);
    for (size_t c = 0; c < r->d.ncols; c++)
        fprintf(fp, " %s |", r->d.cols[c]);
    fputs("\n|---|", fp);
    for (size_t c = 0; c < r->d.ncols; c++)
        fputs("---:|", fp);
    fputc('\n', fp);
    size_t nx = json_array_size(r->d.xs);
    for (size_t xi = 0; xi < nx && xi < MD_MAX_ROWS; xi++) {
        char t[256];
        cell_text(r, xi, (size_t)-1, t, sizeof t);
        fprintf(fp, "| %s |", t);
        for (size_t c = 0; c < r->d.ncols; c++) {
            cell_text(r, xi, c, t, sizeof t);
            fprintf(fp, " %s |", t);
        }
        fputc('\n', fp);
    }
    if (nx > MD_MAX_ROWS)
        fprintf(fp, "\n(%zu rows more in [%s.csv](%s.csv))\n", nx - MD_MAX_ROWS, r->base, r->base);
}

static void md_exp(FILE *fp, const lpm_rexp *x)
{
    char buf[8192];
    fprintf(fp, "## %s\n\n", x->e.title);
    if (x->e.about)
        fprintf(fp, "%s\n\n", x->e.about);
    lpm_report_template_text(x->e.command, buf, sizeof buf);
    fprintf(fp, "Each point: `%s`\n\n", buf);
    for (size_t a = 0; a < x->e.naxes; a++) {
        lpm_report_params_text(&x->e, a, buf, sizeof buf);
        fprintf(fp, "- %s\n", buf);
    }
    fprintf(fp, "\nPoints recorded: %zu of %zu (definition `experiments/%s.json`).\n\n", x->s.done, x->e.npoints,
            x->e.name);
    if (!x->s.done) {
        panel_text(x, buf, sizeof buf);
        fprintf(fp, "> **No figure.** %s\n\n", buf);
        return;
    }
    for (size_t i = 0; i < x->e.nfigs; i++) {
        const lpm_rfig *r = &x->figs[i];
        fprintf(fp, "### %s\n\n", r->f->title);
        if (!r->drawn) {
            fprintf(fp, "> No record matches this figure.\n\n");
            continue;
        }
        fprintf(fp, "![%s](%s.png)\n\nData: [%s.csv](%s.csv), drawn by [%s.gp](%s.gp).\n\n", r->f->name, r->base,
                r->base, r->base, r->base, r->base);
        md_table(fp, r);
        fputc('\n', fp);
    }
}

static void md_header(FILE *fp, const lpm_rdoc *doc)
{
    fprintf(fp, "# lpmpipe report\n\nFrom the records in `%s` (lpmpipe report render). Tool version:", doc->dir);
    const char *v;
    json_t *c;
    json_object_foreach(doc->versions, v, c) fprintf(fp, " `%s` (%lld records)", v, (long long)json_integer_value(c));
    if (!json_object_size(doc->versions))
        fputs(" (no record)", fp);
    fputs(".\n\nInputs (file, checksum, bytes):\n\n", fp);
    json_object_foreach(doc->inputs, v, c) fprintf(fp, "- `%s` %lld\n", v, (long long)json_integer_value(c));
    fputc('\n', fp);
}

int lpm_report_write_md(const lpm_rdoc *doc, lpm_err *err)
{
    char path[4200];
    FILE *fp = lpm_report_fopen(doc->out, "summary.md", path, sizeof path, err);
    if (!fp)
        return LPM_EFAIL;
    md_header(fp, doc);
    for (size_t i = 0; i < doc->n; i++)
        md_exp(fp, &doc->x[i]);
    return fclose(fp) ? lpm_err_set(err, LPM_EFAIL, "%s: write error", path) : LPM_OK;
}

static void h(FILE *fp, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '<': fputs("&lt;", fp); break;
        case '>': fputs("&gt;", fp); break;
        case '&': fputs("&amp;", fp); break;
        case '"': fputs("&quot;", fp); break;
        default: fputc(*s, fp);
        }
    }
}

static const char *css =
    "body{font:15px/1.45 system-ui,sans-serif;margin:0 auto;max-width:1000px;padding:1em 1.5em;color:#222}"
    "h1{font-size:1.6em}h2{margin-top:2.2em;border-bottom:1px solid #ccc}h3{font-size:1.05em}"
    "code,pre{font:13px ui-monospace,monospace;background:#f4f4f4}pre{padding:.6em;overflow-x:auto}"
    "figure{margin:1em 0}figure img{max-width:100%;height:auto;border:1px solid #ddd}"
    "table{border-collapse:collapse;font-size:13px;margin:.5em 0}td,th{border:1px solid #ccc;padding:2px 6px;"
    "text-align:right}th:first-child,td:first-child{text-align:left}"
    ".panel{border:2px dashed #b55;background:#fff6f6;padding:1em;margin:1em 0}.meta{color:#555}";

static void html_table(FILE *fp, const lpm_rfig *r)
{
    fputs("<table><tr><th>", fp);
    h(fp, r->f->x);
    fputs("</th>", fp);
    for (size_t c = 0; c < r->d.ncols; c++) {
        fputs("<th>", fp);
        h(fp, r->d.cols[c]);
        fputs("</th>", fp);
    }
    fputs("</tr>\n", fp);
    for (size_t xi = 0; xi < json_array_size(r->d.xs); xi++) {
        char t[256];
        cell_text(r, xi, (size_t)-1, t, sizeof t);
        fputs("<tr><td>", fp);
        h(fp, t);
        fputs("</td>", fp);
        for (size_t c = 0; c < r->d.ncols; c++) {
            cell_text(r, xi, c, t, sizeof t);
            fprintf(fp, "<td>%s</td>", t);
        }
        fputs("</tr>\n", fp);
    }
    fputs("</table>\n", fp);
}

static void html_fig(FILE *fp, const lpm_rexp *x, const lpm_rfig *r)
{
    char buf[8192];
    fputs("<h3>", fp);
    h(fp, r->f->title);
    fputs("</h3>\n", fp);
    if (!r->drawn) {
        fputs("<div class=\"panel\">No record matches this figure.</div>\n", fp);
        return;
    }
    fprintf(fp, "<figure><img src=\"%s.svg\" alt=\"", r->base);
    h(fp, r->f->title);
    fprintf(fp, "\"></figure>\n<details><summary>command, parameters and data</summary>\n<p>Each point runs</p><pre>");
    lpm_report_template_text(x->e.command, buf, sizeof buf);
    h(fp, buf);
    fputs("</pre>\n<ul>", fp);
    for (size_t a = 0; a < x->e.naxes; a++) {
        lpm_report_params_text(&x->e, a, buf, sizeof buf);
        fputs("<li>", fp);
        h(fp, buf);
        fputs("</li>", fp);
    }
    fputs("</ul>\n<p>", fp);
    if (r->f->where) {
        char *w = lpm_report_dump(r->f->where);
        fputs("Points where <code>", fp);
        h(fp, w);
        fputs("</code>. ", fp);
        free(w);
    }
    fprintf(fp, "Data: <a href=\"%s.csv\">%s.csv</a>; figure: <code>gnuplot %s.gp</code> "
                "(<a href=\"%s.gp\">script</a>, <a href=\"%s.png\">PNG</a>).</p>\n",
            r->base, r->base, r->base, r->base, r->base);
    html_table(fp, r);
    fputs("</details>\n", fp);
}

static void html_exp(FILE *fp, const lpm_rexp *x)
{
    char buf[8192];
    fprintf(fp, "<section id=\"%s\"><h2>", x->e.name);
    h(fp, x->e.title);
    fputs("</h2>\n", fp);
    if (x->e.about) {
        fputs("<p>", fp);
        h(fp, x->e.about);
        fputs("</p>\n", fp);
    }
    fprintf(fp, "<p class=\"meta\">%zu of %zu points recorded", x->s.done, x->e.npoints);
    if (x->failed)
        fprintf(fp, ", %zu failed", x->failed);
    fprintf(fp, "; definition <code>experiments/%s.json</code>.</p>\n", x->e.name);
    if (!x->s.done) {
        panel_text(x, buf, sizeof buf);
        fputs("<div class=\"panel\"><strong>No figure.</strong> ", fp);
        h(fp, buf);
        fputs("</div>\n", fp);
    } else {
        for (size_t i = 0; i < x->e.nfigs; i++)
            html_fig(fp, x, &x->figs[i]);
    }
    fputs("</section>\n", fp);
}

int lpm_report_write_html(const lpm_rdoc *doc, lpm_err *err)
{
    char path[4200];
    FILE *fp = lpm_report_fopen(doc->out, "index.html", path, sizeof path, err);
    if (!fp)
        return LPM_EFAIL;
    fprintf(fp, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>lpmpipe report</title>\n"
                "<style>%s</style></head><body>\n<h1>lpmpipe report</h1>\n<p class=\"meta\">From the records in <code>",
            css);
    h(fp, doc->dir);
    fputs("</code>. Tool version:", fp);
    const char *v;
    json_t *c;
    json_object_foreach(doc->versions, v, c) {
        fputs(" <code>", fp);
        h(fp, v);
        fprintf(fp, "</code> (%lld records)", (long long)json_integer_value(c));
    }
    fputs(". Text version: <a href=\"summary.md\">summary.md</a>.</p>\n<ul>\n", fp);
    for (size_t i = 0; i < doc->n; i++) {
        fprintf(fp, "<li><a href=\"#%s\">", doc->x[i].e.name);
        h(fp, doc->x[i].e.title);
        fprintf(fp, "</a> (%zu/%zu)</li>\n", doc->x[i].s.done, doc->x[i].e.npoints);
    }
    fputs("</ul>\n", fp);
    for (size_t i = 0; i < doc->n; i++)
        html_exp(fp, &doc->x[i]);
    fputs("<h2>Inputs</h2>\n<table><tr><th>file and checksum</th><th>bytes</th></tr>\n", fp);
    json_object_foreach(doc->inputs, v, c) {
        fputs("<tr><td>", fp);
        h(fp, v);
        fprintf(fp, "</td><td>%lld</td></tr>\n", (long long)json_integer_value(c));
    }
    fputs("</table>\n</body></html>\n", fp);
    return fclose(fp) ? lpm_err_set(err, LPM_EFAIL, "%s: write error", path) : LPM_OK;
}
