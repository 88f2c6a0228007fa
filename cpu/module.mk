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
ifneq ($(shell pkg-config --exists libdpdk 2>/dev/null && echo yes),)
CPU_DPDK_OBJ := $(BUILD)/cpu/dpdk/peer_dpdk.o
EXTRA_OBJS += $(CPU_DPDK_OBJ)
EXTRA_LIBS += $(shell pkg-config --libs libdpdk)
$(CPU_DPDK_OBJ): MODULE_CFLAGS += $(shell pkg-config --cflags libdpdk)
else
EXTRA_OBJS += $(BUILD)/cpu/dpdk/peer_none.o
$(info cpu: libdpdk not found: the DPDK peer is left out (scripts/deps.sh --peers installs it))
endif
