#include "cycle_log.h"

#include <stdio.h>
#include <string.h>

#define PREFIX "# lpmpipe sim cycle log v"
#define ANSWERS_QUEUE " answers=queue" /* DIT answers through queue 0: written only when set */

int lpm_sim_log_header(char *buf, size_t n, const lpm_sim_log_hdr *h)
{
    int k = snprintf(buf, n, PREFIX "%d: stages=%u %s queue=%u width=%u rob=%u lookahead=%u hop=%u ports=%u",
                     LPM_SIM_LOG_VERSION, h->stages, h->ring ? "ring" : "linear", h->queue, h->width, h->rob,
                     h->lookahead, h->hop, h->ports);
    if (h->fifo && k >= 0 && (size_t)k < n)
        k += snprintf(buf + k, n - (size_t)k, " fifo=%u", h->fifo);
    if (h->dit_queue && k >= 0 && (size_t)k < n)
        k += snprintf(buf + k, n - (size_t)k, ANSWERS_QUEUE);
    return k;
}

int lpm_sim_log_header_parse(const char *line, lpm_sim_log_hdr *h, lpm_err *err)
{
    unsigned ver = 0;
    int used = 0;
    if (strncmp(line, PREFIX, strlen(PREFIX)) || sscanf(line + strlen(PREFIX), "%u:%n", &ver, &used) != 1 || !used)
        return lpm_err_set(err, LPM_EINPUT, "not a cycle log header: '%.60s'", line);
    if (ver != LPM_SIM_LOG_VERSION)
        return lpm_err_set(err, LPM_EINPUT, "cycle log version %u: this lpmpipe reads version %d (rules v%d)", ver,
                           LPM_SIM_LOG_VERSION, LPM_SIM_LOG_VERSION);
    char kind[8] = "";
    int end = 0;
    const char *p = line + strlen(PREFIX) + used;
    int got = sscanf(p, " stages=%u %7s queue=%u width=%u rob=%u lookahead=%u hop=%u ports=%u%n", &h->stages, kind,
                     &h->queue, &h->width, &h->rob, &h->lookahead, &h->hop, &h->ports, &end);
    h->fifo = 0;
    if (got == 8 && !strncmp(p + end, " fifo=", 6)) {
        int more = 0;
        if (sscanf(p + end, " fifo=%u%n", &h->fifo, &more) != 1 || !h->fifo)
            got = 0;
        end += more;
    }
    h->dit_queue = 0;
    if (got == 8 && !strncmp(p + end, ANSWERS_QUEUE, strlen(ANSWERS_QUEUE))) {
        h->dit_queue = 1;
        end += (int)strlen(ANSWERS_QUEUE);
    }
    if (got != 8 || (strcmp(kind, "ring") && strcmp(kind, "linear")) || (p[end] && strcmp(p + end, "\n")))
        return lpm_err_set(err, LPM_EINPUT, "malformed cycle log header: '%.100s'", line);
    h->ring = !strcmp(kind, "ring");
    return LPM_OK;
}

char *lpm_sim_log_line(FILE *fp, char **buf, size_t *cap)
{
    ssize_t n = getline(buf, cap, fp);
    if (n < 0)
        return NULL;
    if (n && (*buf)[n - 1] == '\n')
        (*buf)[n - 1] = '\0';
    return *buf;
}
