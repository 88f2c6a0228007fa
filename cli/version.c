/* lpmpipe --version: the version, the git revision, and which optional
 * parts this binary has: the stand-ins the Makefile picks answer
 * lpm_*_built() (docs/architecture.md; SystemC: lpm_model_built()), and
 * Verilator is looked for on the PATH (rtl verify runs it; nothing of it
 * is linked). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/version.h"
#include "../cpu/peer.h"
#include "../gpu/gpu_api.h"
#include "../models/model.h"
#include "../names/ngpu.h"
#include "cli.h"


/* "Verilator 5.006 2023-01-22" from `verilator --version`, or "" when it
 * is not on the PATH. */
static void verilator_version(char *buf, size_t size)
{
    buf[0] = '\0';
    FILE *p = popen("verilator --version 2>/dev/null", "r");
    if (!p)
        return;
    if (!fgets(buf, (int)size, p))
        buf[0] = '\0';
    buf[strcspn(buf, "\r\n")] = '\0';
    if (pclose(p) != 0)
        buf[0] = '\0';
}

static void json_str(const char *s)
{
    putchar('"');
    for (; *s; s++)
        if (*s == '"' || *s == '\\')
            printf("\\%c", *s);
        else if ((unsigned char)*s >= 0x20)
            putchar(*s);
    putchar('"');
}

int lpm_cli_version(int argc, char **argv)
{
    int json = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--json")) {
            json = 1;
            continue;
        }
        lpm_cli_error("--version", "unexpected argument '%s' (usage: lpmpipe --version [--json])", argv[i]);
        return 2;
    }
    int cuda = lpm_gpu_built(), names_cuda = lpm_names_cuda_built();
    int dpdk = lpm_peer_built(), systemc = lpm_model_built();
    char ver[256];
    verilator_version(ver, sizeof ver);
    if (json) {
        printf("{\"version\":");
        json_str(lpm_version());
        printf(",\"git\":");
        json_str(lpm_git_revision());
        printf(",\"parts\":{\"cuda\":%s,\"cuda_names\":%s,\"dpdk_peer\":%s,\"systemc\":%s,\"verilator\":",
               cuda ? "true" : "false", names_cuda ? "true" : "false", dpdk ? "true" : "false",
               systemc ? "true" : "false");
        if (ver[0])
            json_str(ver);
        else
            printf("null");
        printf("}}\n");
        return fflush(stdout) ? 1 : 0;
    }
    printf("lpmpipe %s (git %s)\n", lpm_version(), lpm_git_revision());
    printf("built:  CUDA engines     %s\n", cuda ? (names_cuda ? "yes: GAMT, GALE and the MATA name kernel (lpmpipe gpu info lists devices)"
                                                               : "yes: GAMT and GALE (lpmpipe gpu info lists devices)")
                                                : "no: nvcc was not found at build time (the CPU builds of GAMT and GALE are in)");
    printf("        DPDK peer        %s\n", dpdk ? "yes: rte_lpm, rte_lpm6, rte_fib, rte_fib6 (lpmpipe bench cpu --peer dpdk)"
                                                 : "no: libdpdk was not installed at build time (scripts/deps.sh --peers, rebuild)");
    printf("        SystemC models   %s\n", systemc ? "yes" : "no: models/ is not part of this build");
    if (ver[0])
        printf("run:    Verilator        %s on the PATH (lpmpipe rtl verify builds its models with it)\n", ver);
    else
        printf("run:    Verilator        not on the PATH: lpmpipe rtl verify cannot run (scripts/deps.sh installs it)\n");
    return fflush(stdout) ? 1 : 0;
}
