# names: the CUDA MATA kernel, built when nvcc is present (one arch). The C
# build never needs it: names/ngpu_none.c stands in for it without nvcc.
NAMES_NVCC ?= $(or $(shell command -v nvcc 2>/dev/null),$(wildcard /usr/local/cuda/bin/nvcc))
NAMES_CUDA_ARCH ?= sm_90
ifneq ($(NAMES_NVCC),)
EXTRA_OBJS += $(BUILD)/names/mata_kernel.o
SKIP_SRCS += names/ngpu_none.c
CUDA_LINK ?= -L/usr/local/cuda/lib64 -lcudart_static -ldl -lrt -lpthread -lstdc++
EXTRA_LIBS += $(if $(filter -lcudart_static,$(EXTRA_LIBS)),,$(CUDA_LINK))
# A pattern rule, so that it never becomes make's default goal.
$(BUILD)/names/%.o: names/%.cu names/nstep.h names/ngpu.h names/interweave.h names/ntable.h core/err.h gpu/cuda_check.h
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  NVCC $<")
	$(Q)$(NAMES_NVCC) -arch=$(NAMES_CUDA_ARCH) -O2 -std=c++17 -Xcompiler -Wall,-Wextra,-Werror -c $< -o $@
endif
