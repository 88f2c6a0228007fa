# cpu/: the CPU lookup engines and the optional DPDK peer.

# This file is read before the Makefile's first rule: keep `all` the default.
.DEFAULT_GOAL := all

# The CPU tests share a helper object (random tables, edge addresses).
CPU_TESTLIB := $(BUILD)/tests/cpu/cpu_testlib.o
$(CPU_TESTLIB): MODULE_CFLAGS += -Itests/common
CPU_TEST_BINS := $(patsubst %.c,$(BUILD)/%,$(wildcard tests/cpu/test_*.c))
$(CPU_TEST_BINS): $(CPU_TESTLIB)
$(BUILD)/tests/cpu/test_%: EXTRA_LIBS += $(CPU_TESTLIB)

# The DPDK peer (cpu/dpdk/peer_dpdk.c) only where libdpdk is installed;
# without it cpu/dpdk/peer_none.c stands in and the bench says so.
# LPM_NO_PEERS=1 (the self-contained GPU package, gpu/module.mk) leaves it
# out even where libdpdk is installed.
ifeq ($(LPM_NO_PEERS),)
CPU_HAVE_DPDK := $(shell pkg-config --exists libdpdk 2>/dev/null && echo yes)
endif
ifneq ($(CPU_HAVE_DPDK),)
CPU_DPDK_OBJ := $(BUILD)/cpu/dpdk/peer_dpdk.o
EXTRA_OBJS += $(CPU_DPDK_OBJ)
EXTRA_LIBS += $(shell pkg-config --libs libdpdk)
# DPDK's bulk and x4 lookups are inline functions compiled here: build them
# for this CPU, as a DPDK application built on its machine is (DPDK's own
# default is -march=native; the .pc file's -march=corei7 would hold them
# back).
$(CPU_DPDK_OBJ): MODULE_CFLAGS += $(shell pkg-config --cflags libdpdk) \
	$(shell $(CC) -march=native -E -x c /dev/null >/dev/null 2>&1 && echo -march=native)
else
EXTRA_OBJS += $(BUILD)/cpu/dpdk/peer_none.o
$(info cpu: libdpdk not found: the DPDK peer is left out (scripts/deps.sh --peers installs it))
endif
