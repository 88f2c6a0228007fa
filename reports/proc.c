/* Running one lpmpipe command of a point: its standard output and error
 * into files, an optional time limit. */
#include "proc.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void redirect(const char *path, int fd)
{
    int f = open(path ? path : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0666);
    if (f < 0)
        _exit(126);
    dup2(f, fd);
    close(f);
}

int lpm_report_spawn(char *const argv[], const char *out_path, const char *err_path, double timeout_s, lpm_err *err)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        return lpm_err_set(err, -1, "fork: %s", strerror(errno)), -1;
    if (pid == 0) {
        int in = open("/dev/null", O_RDONLY);
        if (in >= 0) {
            dup2(in, 0);
            close(in);
        }
        redirect(out_path, 1);
        redirect(err_path, 2);
        execv(argv[0], argv);
        fprintf(stderr, "%s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    int st;
    double waited = 0;
    for (;;) {
        pid_t r = waitpid(pid, &st, timeout_s > 0 ? WNOHANG : 0);
        if (r == pid)
            break;
        if (r < 0 && errno != EINTR)
            return lpm_err_set(err, -1, "waitpid: %s", strerror(errno)), -1;
        if (r == 0) {
            struct timespec ts = { 0, 20 * 1000 * 1000 };
            nanosleep(&ts, NULL);
            waited += 0.02;
            if (waited > timeout_s) {
                kill(pid, SIGKILL);
                waitpid(pid, &st, 0);
                return LPM_REPORT_TIMEOUT;
            }
        }
    }
    if (WIFEXITED(st))
        return WEXITSTATUS(st);
    return 128 + WTERMSIG(st);
}

void lpm_report_tail(const char *path, char *buf, size_t n, int first_line)
{
    buf[0] = 0;
    FILE *fp = fopen(path, "rb");
    if (!fp || n < 2)
        goto out;
    if (!first_line && fseek(fp, 0, SEEK_END) == 0) {
        long end = ftell(fp);
        fseek(fp, end > (long)n - 1 ? end - (long)n + 1 : 0, SEEK_SET);
    }
    size_t got = fread(buf, 1, n - 1, fp);
    buf[got] = 0;
    if (first_line) {
        buf[strcspn(buf, "\n")] = 0;
    } else {
        while (got && buf[got - 1] == '\n')
            buf[--got] = 0;
    }
out:
    if (fp)
        fclose(fp);
}
