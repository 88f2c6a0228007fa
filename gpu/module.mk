# gpu/: the CUDA objects when nvcc is there (gpu/cuda.mk: nvcc, flags, the
# static runtime, the rule). Without nvcc only the C parts (CPU builds of
# GAMT and GALE) are built, gpu/gpu_none.c stands in for the .cu files and
# `lpmpipe gpu` says so.
ifneq ($(strip $(NVCC)),)
EXTRA_OBJS += $(patsubst %.cu,$(BUILD)/%.o,$(wildcard gpu/*.cu))
SKIP_SRCS += gpu/gpu_none.c
endif

# A self-contained GPU package for a device machine that has none of this
# tree's build dependencies (docs/results-gpu.md says how a session runs
# it): lpmpipe and the device test built in $(GPU_BUILD) with no DPDK or
# other optional peer, the static CUDA runtime, and zlib, xz, bzip2 and
# Check linked statically, stripped into $(GPU_PACK)/ with a copy of the
# shared data the measurement reads ($(GPU_DATA)) in $(GPU_PACK)/data.
# libstdc++ and libgcc_s stay dynamic on purpose: linked statically, GCC
# 12's copies pull arc4random and _dl_find_object and so need glibc 2.36;
# dynamic, the package runs on glibc 2.34 with any libstdc++.so.6 of GCC 5
# or later (scripts/gpu-pack.sh checks and writes this in MANIFEST.txt).
GPU_PACK ?= gpu-pack
GPU_DATA ?= ../shared/data
GPU_BUILD ?= build-gpu
GPU_STATIC_VARS := BUILD=$(GPU_BUILD) LPM_NO_PEERS=1 SAN= OPT=-O2 CFLAGS= LDFLAGS= \
	LIBS="-Wl,-Bstatic -lz -llzma -lbz2 -Wl,-Bdynamic -lm -lpthread -ldl -lrt" \
	CHECK_LIBS="-Wl,-Bstatic -lcheck -lsubunit -Wl,-Bdynamic" JANSSON_LIBS="-Wl,-Bstatic -ljansson -Wl,-Bdynamic"
.PHONY: gpu-pack
gpu-pack:
	@test -n "$(NVCC)" || { echo "gpu-pack: nvcc not found: a GPU package needs CUDA" >&2; exit 2; }
	@rm -f $(GPU_BUILD)/lpmpipe $(GPU_BUILD)/tests/gpu/test_gpu_device # linked with these flags only
	@$(MAKE) --no-print-directory -j$(JOBS) $(GPU_STATIC_VARS) $(GPU_BUILD)/lpmpipe \
		$(GPU_BUILD)/tests/gpu/test_gpu_device
	@scripts/gpu-pack.sh $(GPU_BUILD) $(GPU_PACK) $(GPU_DATA)
