/* One figure: its CSV, a gnuplot script beside it, and the SVG and PNG that
 * gnuplot draws from them (so anyone can redraw it: `gnuplot BASE.gp`). */
#include "render.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

/* A gnuplot single-quoted string. */
static void gq(FILE *fp, const char *s)
{
    fputc('\'', fp);
    for (; s && *s; s++) {
        if (*s == '\'')
            fputc('\'', fp);
        fputc(*s, fp);
    }
    fputc('\'', fp);
}

static void plot_cmd(FILE *fp, const lpm_rfig *r)
{
    const lpm_report_figure *f = r->f;
    int bars = f->style && !strcmp(f->style, "bars");
    int cat = bars || !strcmp(f->xscale, "category") || !r->d.numeric_x;
    fputs("plot ", fp);
    for (size_t c = 0; c < r->d.ncols; c++) {
        if (c)
            fputs(", \\\n     ", fp);
        if (c == 0) {
            fputc('\'', fp);
            fputs(r->base, fp);
            fputs(".dat' ", fp);
        } else {
            fputs("'' ", fp);
        }
        if (bars)
            fprintf(fp, "using %zu%s title columnhead(%zu)", c + 2, c == 0 ? ":xtic(1)" : "", c + 2);
        else if (cat)
            fprintf(fp, "using 0:%zu%s with linespoints pointsize 0.8 title columnhead(%zu)", c + 2,
                    c == 0 ? ":xtic(1)" : "", c + 2);
        else
            fprintf(fp, "using 1:%zu with linespoints pointsize 0.8 title columnhead(%zu)", c + 2, c + 2);
    }
    fputc('\n', fp);
}

static void write_gp(FILE *fp, const lpm_rexp *x, const lpm_rfig *r)
{
    const lpm_report_figure *f = r->f;
    fprintf(fp, "# %s / %s, drawn by lpmpipe report render from %s.dat (%s.csv with tabs)\n", x->e.name, f->name,
            r->base, r->base);
    fputs("# redraw: gnuplot ", fp);
    fprintf(fp, "%s.gp (in this folder)\n", r->base);
    size_t longest = 0;
    for (size_t c = 0; c < r->d.ncols; c++)
        longest = strlen(r->d.cols[c]) > longest ? strlen(r->d.cols[c]) : longest;
    fputs("set datafile separator tab\nset encoding utf8\nset grid\n", fp);
    fputs(longest > 24 ? "set key below noenhanced\n" : "set key outside right top noenhanced\n", fp);
    fputs("set title ", fp);
    gq(fp, f->title);
    fputs(" noenhanced\nset xlabel ", fp);
    gq(fp, f->xlabel ? f->xlabel : f->x);
    fputs(" noenhanced\nset ylabel ", fp);
    gq(fp, f->ylabel ? f->ylabel : f->ny == 1 ? f->y[0] : "");
    fputs(" noenhanced\n", fp);
    if (!strcmp(f->xscale, "log") && r->d.numeric_x)
        fputs("set logscale x 2\n", fp);
    if (!strcmp(f->yscale, "log"))
        fputs("set logscale y\n", fp);
    if (f->style && !strcmp(f->style, "bars"))
        fputs("set style data histograms\nset style histogram clustered gap 1\n"
              "set style fill solid 0.85 border -1\nset yrange [0:*]\nset xtics rotate by -25 noenhanced\n",
              fp);
    else if (!strcmp(f->xscale, "category") || !r->d.numeric_x)
        fputs("set xtics noenhanced\nset offsets 0.3, 0.3, 0, 0\n", fp);
    fprintf(fp, "set terminal svg size 900,520 font 'Helvetica,12' background rgb 'white'\nset output '%s.svg'\n",
            r->base);
    plot_cmd(fp, r);
    fprintf(fp, "set terminal pngcairo size 900,520 font 'sans,10' background rgb 'white'\nset output '%s.png'\n"
                "replot\nunset output\n",
            r->base);
}

static int nonempty(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && st.st_size > 0;
}

int lpm_report_plot(const char *out, lpm_rexp *x, lpm_rfig *r, char *note, size_t nnote, lpm_err *err)
{
    char path[4200], log[4200];
    for (int tsv = 0; tsv < 2; tsv++) {
        snprintf(path, sizeof path, "%s/%s.%s", out, r->base, tsv ? "dat" : "csv");
        FILE *fp = fopen(path, "w");
        if (!fp)
            return lpm_err_set(err, LPM_EFAIL, "%s: cannot write", path);
        int rc = lpm_report_figdata_csv(&r->d, r->f, fp, tsv);
        if (fclose(fp) || rc)
            return lpm_err_set(err, LPM_EFAIL, "%s: write error", path);
    }
    snprintf(path, sizeof path, "%s/%s.gp", out, r->base);
    FILE *fp = fopen(path, "w");
    if (!fp)
        return lpm_err_set(err, LPM_EFAIL, "%s: cannot write", path);
    write_gp(fp, x, r);
    if (fclose(fp))
        return lpm_err_set(err, LPM_EFAIL, "%s: write error", path);
    snprintf(log, sizeof log, "%s/%s.log", out, r->base);
    char gp[300];
    snprintf(gp, sizeof gp, "%s.gp", r->base);
    char *const argv[] = { "/bin/sh", "-c", "cd \"$1\" && exec gnuplot \"$2\"", "sh", (char *)out, gp, NULL };
    int st = lpm_report_spawn(argv, log, log, 120, err);
    snprintf(path, sizeof path, "%s/%s.svg", out, r->base);
    int ok = st == 0 && nonempty(path);
    snprintf(path, sizeof path, "%s/%s.png", out, r->base);
    ok = ok && nonempty(path);
    if (!ok) {
        char tail[300];
        lpm_report_tail(log, tail, sizeof tail, 0);
        return lpm_err_set(err, LPM_EFAIL, "gnuplot %s/%s.gp: exit %d: %s%s", out, r->base, st, tail,
                           st == 127 ? " (scripts/deps.sh installs gnuplot-nox)" : "");
    }
    if (r->d.clashes) {
        size_t k = strlen(note);
        snprintf(note + k, nnote - k, "report render: note: %s/%s: %zu rows fell on a point already drawn "
                 "(add a \"where\" to the figure)\n", x->e.name, r->f->name, r->d.clashes);
    }
    r->drawn = 1;
    return LPM_OK;
}
