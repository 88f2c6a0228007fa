/* report run --emit: the job list and a script that runs it elsewhere,
 * with the same per-point command as a local run (`lpmpipe report point -o
 * . experiments/NAME.json KEY`, run in the result folder):
 *  - parallel: GNU parallel over the machines of an ssh login file; every
 *    machine needs lpmpipe and the tables at the same paths (or $LPMPIPE,
 *    $LPMPIPE_DATA), the records come back with --return;
 *  - slurm: an sbatch --array script for a cluster whose nodes share the
 *    result folder. */
#include "proc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Single-quoted for sh. */
static void shq(FILE *fp, const char *s)
{
    fputc('\'', fp);
    for (; *s; s++) {
        if (*s == '\'')
            fputs("'\\''", fp);
        else
            fputc(*s, fp);
    }
    fputc('\'', fp);
}

static int write_jobs(const char *dir, const char *const *lines, size_t n, lpm_err *err)
{
    char path[4200];
    size_t cap = 4096, len = 0;
    char *all = malloc(cap);
    for (size_t i = 0; i < n; i++) {
        size_t l = strlen(lines[i]);
        while (len + l + 2 > cap) {
            cap *= 2;
            all = realloc(all, cap);
            if (!all)
                abort();
        }
        memcpy(all + len, lines[i], l);
        len += l;
        all[len++] = '\n';
    }
    snprintf(path, sizeof path, "%s/jobs.txt", dir);
    int rc = lpm_report_write_atomic(path, all, len, err);
    free(all);
    return rc;
}

static void env_lines(FILE *fp, const lpm_report_run_opts *o, const char *absdir)
{
    fputs("LPMPIPE=${LPMPIPE:-", fp);
    shq(fp, o->env.bin);
    fputs("}\nLPMPIPE_DATA=${LPMPIPE_DATA:-", fp);
    shq(fp, o->env.data_dir ? o->env.data_dir : "");
    fputs("}\nexport LPMPIPE LPMPIPE_DATA\ncd ", fp);
    shq(fp, absdir);
    fputs("\n", fp);
}

static int emit_parallel(const lpm_report_run_opts *o, const char *absdir, size_t n, lpm_err *err)
{
    char path[4200];
    FILE *fp = lpm_report_fopen(o->env.dir, "run-parallel.sh", path, sizeof path, err);
    if (!fp)
        return LPM_EFAIL;
    fprintf(fp, "#!/bin/sh\n"
                "# %zu points of this report over the machines of an ssh login file (GNU\n"
                "# parallel's --sshloginfile; a line ':' is this machine). Each machine needs\n"
                "# lpmpipe at $LPMPIPE and the tables at $LPMPIPE_DATA; the result folder is\n"
                "# made at the same path there, and every record comes back here.\n"
                "#   sh run-parallel.sh SSHLOGINFILE [JOBS_PER_MACHINE]\n"
                "# then: lpmpipe report merge . -o MERGED (or render this folder).\n"
                "set -eu\n",
            n);
    env_lines(fp, o, absdir);
    fputs("logins=${1:?usage: sh run-parallel.sh SSHLOGINFILE [JOBS]}\n"
          "case $logins in /*) ;; *) logins=\"$OLDPWD/$logins\" ;; esac\n"
          "jobs=${2:-100%}\n"
          "exec parallel --will-cite --sshloginfile \"$logins\" --jobs \"$jobs\" --colsep '\\t' --line-buffer \\\n"
          "  --env LPMPIPE_DATA --workdir . --basefile experiments \\\n"
          "  --return 'records/{1/.}/{2}.json' --halt never -a jobs.txt \\\n"
          "  -q \"$LPMPIPE\" report point -o . --data \"$LPMPIPE_DATA\" '{1}' '{2}'\n",
          fp);
    if (fclose(fp))
        return lpm_err_set(err, LPM_EFAIL, "%s: write error", path);
    chmod(path, 0755);
    printf("wrote %s/jobs.txt (%zu points) and %s\n"
           "run it:  sh %s SSHLOGINFILE   (then lpmpipe report merge / render)\n",
           o->env.dir, n, path, path);
    return LPM_OK;
}

static int emit_slurm(const lpm_report_run_opts *o, const char *absdir, size_t n, lpm_err *err)
{
    char path[4200];
    size_t per = n > 1000 ? (n + 999) / 1000 : 1, tasks = n ? (n + per - 1) / per : 0;
    FILE *fp = lpm_report_fopen(o->env.dir, "run-slurm.sbatch", path, sizeof path, err);
    if (!fp)
        return LPM_EFAIL;
    fprintf(fp, "#!/bin/bash\n"
                "#SBATCH --job-name=lpmpipe-report\n"
                "#SBATCH --array=1-%zu\n"
                "#SBATCH --ntasks=1\n"
                "#SBATCH --cpus-per-task=1\n"
                "#SBATCH --chdir=%s\n"
                "#SBATCH --output=slurm/%%A_%%a.out\n"
                "# %zu points of this report, %zu per array task, on nodes that share this\n"
                "# folder. Submit with: mkdir -p slurm && sbatch run-slurm.sbatch\n"
                "# then: lpmpipe report merge . -o MERGED (or render this folder).\n"
                "set -euo pipefail\n",
            tasks ? tasks : 1, absdir, n, per);
    env_lines(fp, o, absdir);
    fprintf(fp, "per=%zu\n"
                "first=$(( (SLURM_ARRAY_TASK_ID - 1) * per + 1 ))\n"
                "last=$(( first + per - 1 ))\n"
                "rc=0\n"
                "while IFS=$'\\t' read -r exp key; do\n"
                "  \"$LPMPIPE\" report point -o . --data \"$LPMPIPE_DATA\" \"$exp\" \"$key\" || rc=1\n"
                "done < <(sed -n \"${first},${last}p\" jobs.txt)\n"
                "exit $rc\n",
            per);
    if (fclose(fp))
        return lpm_err_set(err, LPM_EFAIL, "%s: write error", path);
    snprintf(path, sizeof path, "%s/slurm", o->env.dir);
    int rc = lpm_report_mkdirs(path, err);
    printf("wrote %s/jobs.txt (%zu points) and %s/run-slurm.sbatch\n"
           "run it:  (cd %s && sbatch run-slurm.sbatch)\n",
           o->env.dir, n, o->env.dir, o->env.dir);
    return rc;
}

int lpm_report_emit(const lpm_report_run_opts *o, lpm_report_exp *exps, size_t nexps,
                    const char *const *pending_lines, size_t npending, lpm_err *err)
{
    (void)exps;
    (void)nexps;
    char absdir[4096];
    if (!realpath(o->env.dir, absdir))
        return lpm_err_set(err, LPM_EFAIL, "%s: cannot resolve", o->env.dir);
    int rc = write_jobs(o->env.dir, pending_lines, npending, err);
    if (rc)
        return rc;
    if (!strcmp(o->emit, "parallel"))
        return emit_parallel(o, absdir, npending, err);
    if (!strcmp(o->emit, "slurm"))
        return emit_slurm(o, absdir, npending, err);
    return lpm_err_set(err, LPM_EINPUT, "--emit: '%s' is not parallel or slurm", o->emit);
}
