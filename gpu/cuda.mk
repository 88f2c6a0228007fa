# CUDA for every folder that has .cu files (gpu/, names/): one nvcc, one
# architecture, one runtime link and one compile rule, included by the
# Makefile before the folders' module.mk. nvcc is looked for on PATH, then
# in /usr/local/cuda; `make NVCC=` builds without CUDA. Each folder's
# module.mk names its .cu objects and drops its *_none.c stand-in when
# NVCC is set.
NVCC ?= $(or $(shell command -v nvcc 2>/dev/null),$(wildcard /usr/local/cuda/bin/nvcc))
ifneq ($(strip $(NVCC)),)
CUDA_HOME ?= $(patsubst %/bin/nvcc,%,$(NVCC))
# One architecture (H100/H200) plus PTX for newer ones keeps CI compile time low.
NVCC_ARCH ?= -gencode arch=compute_90,code=[sm_90,compute_90]
NVCC_FLAGS ?= -O2 -std=c++17 $(NVCC_ARCH) -Xcompiler -Wall,-Wextra,-Werror -Werror all-warnings
# The static runtime, so the binary starts on machines with no GPU driver.
EXTRA_LIBS += -L$(CUDA_HOME)/lib64 -lcudart_static -ldl -lrt -lpthread -lstdc++
CUDA_DIRS := gpu names

# A pattern rule, so it never becomes the Makefile's default goal.
$(BUILD)/%.o: %.cu $(wildcard $(addsuffix /*.h,$(CUDA_DIRS)) core/*.h)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  NVCC $<")
	$(Q)$(NVCC) $(NVCC_FLAGS) -c $< -o $@
endif
