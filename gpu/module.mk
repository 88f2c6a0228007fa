# gpu/: the CUDA objects when nvcc is there (PATH or /usr/local/cuda), with
# the static CUDA runtime so the binary starts on machines with no GPU
# driver. Without nvcc only the C parts (CPU builds of GAMT and GALE) are
# built, gpu/gpu_none.c stands in for gpu_cuda.cu and `lpmpipe gpu` says so.
NVCC ?= $(or $(shell command -v nvcc 2>/dev/null),$(wildcard /usr/local/cuda/bin/nvcc))
ifneq ($(strip $(NVCC)),)
CUDA_HOME ?= $(patsubst %/bin/nvcc,%,$(NVCC))
# One architecture (H100/H200) plus PTX for newer ones keeps CI compile time low.
NVCC_ARCH ?= -gencode arch=compute_90,code=[sm_90,compute_90]
NVCC_FLAGS ?= -O2 -std=c++17 $(NVCC_ARCH) -Xcompiler -Wall,-Wextra,-Werror -Werror all-warnings
EXTRA_OBJS += $(BUILD)/gpu/gpu_cuda.o
SKIP_SRCS += gpu/gpu_none.c
EXTRA_LIBS += -L$(CUDA_HOME)/lib64 -lcudart_static -ldl -lrt -lstdc++

# A pattern rule, so it never becomes the Makefile's default goal.
$(BUILD)/gpu/%.o: gpu/%.cu $(wildcard gpu/*.h core/*.h)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  NVCC $<")
	$(Q)$(NVCC) $(NVCC_FLAGS) -c $< -o $@
endif
