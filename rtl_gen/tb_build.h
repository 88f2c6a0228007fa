/* The Verilator testbench (tb.cpp) built for a generated folder, and the
 * stimulus files it reads: shared by rtl verify (an executable) and model
 * verify --cosim (the same testbench as a shared library). */
#ifndef LPM_RTL_TB_BUILD_H
#define LPM_RTL_TB_BUILD_H

#include <stddef.h>
#include <stdint.h>

#include "../core/prefix.h"
#include "../core/err.h"
#include "../mapper/image.h"

enum lpm_rtl_tb_kind {
    LPM_RTL_TB_EXE,   /* obj_dir/Vlpm_tb_top (make tb) */
    LPM_RTL_TB_VCD,   /* obj_dir_vcd/Vlpm_tb_top, can write a VCD (make tb TRACE=--trace) */
    LPM_RTL_TB_LIB    /* obj_dir_so/libVlpm_tb.so (make cosim): lpm_tb_open/step/close */
};

/* Builds the testbench of the folder rtl, or takes it from cache (NULL:
 * none) when the same Verilog and testbench were built before (the
 * memories are loaded at run time, so images of one shape share a build).
 * The path of what was built in out. On a failed build: LPM_EFAIL and the
 * log is rtl/build.log (lpm_rtl_show_tail prints its end). */
int lpm_rtl_tb_build(const char *rtl, const char *cache, enum lpm_rtl_tb_kind kind, char *out, size_t out_size,
                     lpm_err *err);
/* The last lines of a file on stderr, indented. */
void lpm_rtl_show_tail(const char *path, int lines);

/* The work folder: dir (created when missing), or NULL for a new
 * temporary one named PREFIX.XXXXXX under $TMPDIR (*tmp set to 1); its
 * absolute path in out. The cache folder likewise (created), or "" for
 * none (cache NULL or empty). */
int lpm_rtl_work_dir(const char *dir, const char *prefix, char *out, size_t out_size, int *tmp, lpm_err *err);
void lpm_rtl_cache_dir(const char *cache, char *out, size_t out_size);

/* dir/keys.hex: the count, then one key per line in hex (the testbench's format). */
int lpm_rtl_write_keys(const char *dir, int family, const lpm_addr *keys, size_t n, lpm_err *err);
/* dir/bubbles.txt: the bubbles of the file updates (NULL: none) as the
 * simulator's bubble reader gives them, ready cycles included (cpu: clock
 * cycles per update, 0 for a backlog); their count in *nb. */
typedef struct lpm_rtl_bubs {
    uint64_t in_file, updates_in_file, applied, updates_applied;
    uint64_t *uord; /* per bubble handed over: the position of its update */
    size_t n, cap;
} lpm_rtl_bubs;
/* The copy rules (shadow rebuilds) go as one more token, F:0:FLAGS. bc
 * (NULL: not wanted) gets the file's counts and each bubble's update. */
int lpm_rtl_write_bubbles(const char *updates, const lpm_image *img, int ignore_crc, double cpu, const char *dir,
                          uint64_t *nb, lpm_rtl_bubs *bc, lpm_err *err);

#endif
