# models/: the SystemC models (C++17 on libsystemc-dev), built when SystemC
# is installed (pkg-config systemc); otherwise models/model_none.c stands in
# and `lpmpipe model` says so. The C++ stays behind models/model.h.
# LPM_NO_PEERS=1 (the self-contained GPU package, gpu/module.mk) leaves
# them out too: libsystemc is not on the device machines.
ifeq ($(LPM_NO_PEERS),)
MODELS_HAVE_SYSTEMC := $(shell pkg-config --exists systemc 2>/dev/null && echo yes)
endif
ifneq ($(MODELS_HAVE_SYSTEMC),)
MODELS_CXXFLAGS := -std=c++17 -DSC_CPLUSPLUS=201703L -DSC_INCLUDE_DYNAMIC_PROCESSES $(OPT) -g -Wall -Wextra -Werror -MMD -MP $(SAN) \
	$(shell pkg-config --cflags systemc)
MODELS_OBJS := $(patsubst %.cpp,$(BUILD)/%.o,$(wildcard models/*.cpp))
EXTRA_OBJS += $(MODELS_OBJS)
SKIP_SRCS += models/model_none.c
EXTRA_LIBS += $(shell pkg-config --libs systemc) -lstdc++
# A pattern rule, so it never becomes the Makefile's default goal.
$(BUILD)/models/%.o: models/%.cpp
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CXX  $<")
	$(Q)$(CXX) $(MODELS_CXXFLAGS) -c $< -o $@
-include $(MODELS_OBJS:.o=.d)
else ifeq ($(LPM_NO_PEERS),)
$(info models: SystemC not found: the SystemC models are left out (scripts/deps.sh installs libsystemc-dev))
endif
