# cpu/: the CPU lookup engines and the optional DPDK peer.

# The CPU tests share a helper object (random tables, edge addresses).
CPU_TESTLIB := $(BUILD)/tests/cpu/cpu_testlib.o
$(CPU_TESTLIB): MODULE_CFLAGS += -Itests/common
CPU_TEST_BINS := $(patsubst %.c,$(BUILD)/%,$(wildcard tests/cpu/test_*.c))
$(CPU_TEST_BINS): $(CPU_TESTLIB)
$(BUILD)/tests/cpu/test_%: EXTRA_LIBS += $(CPU_TESTLIB)
