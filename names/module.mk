# names: the CUDA MATA kernel when nvcc is there (gpu/cuda.mk: nvcc, flags,
# the static runtime, the rule). The C build never needs it:
# names/ngpu_none.c stands in for it without nvcc.
ifneq ($(strip $(NVCC)),)
EXTRA_OBJS += $(patsubst %.cu,$(BUILD)/%.o,$(wildcard names/*.cu))
SKIP_SRCS += names/ngpu_none.c
endif
