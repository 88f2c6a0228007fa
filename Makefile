# lpmpipe: one binary, one library of objects, tests mirroring the modules.
# Each folder may add to the build through its own module.mk (extra flags,
# C++/CUDA objects, libraries); the C sources of every folder are found here.

CC      ?= gcc
CXX     ?= g++
BUILD   ?= build
OPT     ?= -O2
CFLAGS  ?=
SAN     ?=
CWARN   := -Wall -Wextra -Werror
CSTD    := -std=c11 -D_DEFAULT_SOURCE -D_GNU_SOURCE
ALL_CFLAGS = $(CSTD) $(OPT) -g $(CWARN) -MMD -MP $(SAN) $(CFLAGS) $(MODULE_CFLAGS)
ALL_LDFLAGS = $(SAN) $(LDFLAGS)
LIBS    := -lz -llzma -lbz2 -lm -lpthread
CHECK_LIBS := $(shell pkg-config --libs check 2>/dev/null || echo -lcheck)

MODULES := core cli mapper sim rtl_gen models gpu cpu names reports
JOBS    ?= $(shell nproc 2>/dev/null || echo 2)
# Quiet by default; V=1 shows the full commands.
Q       := $(if $(V),,@)

# Filled in by module.mk files. An optional part (CUDA, DPDK) is chosen here
# at build time: its module.mk builds either the real file or a *_none.c
# stand-in that says "not built" (SKIP_SRCS drops the one not wanted).
SKIP_SRCS :=
EXTRA_OBJS :=
EXTRA_LIBS :=
MODULE_CFLAGS :=
LINK    := $(CC)
# CUDA (nvcc, flags, runtime, rule) for gpu/ and names/ alike.
include gpu/cuda.mk
-include $(wildcard $(addsuffix /module.mk,$(MODULES)))
# Not a module: its sources are harnesses, built by `make fuzz` and the replay test.
include fuzz/fuzz.mk

SRCS     := $(filter-out $(SKIP_SRCS),$(foreach m,$(MODULES),$(wildcard $(m)/*.c)))
OBJS     := $(SRCS:%.c=$(BUILD)/%.o)
MAIN_OBJ := $(BUILD)/cli/main.o
LIB_OBJS := $(filter-out $(MAIN_OBJ),$(OBJS)) $(EXTRA_OBJS)
BIN      := $(BUILD)/lpmpipe

TEST_SRCS   := $(wildcard tests/*/test_*.c)
TEST_BINS   := $(TEST_SRCS:%.c=$(BUILD)/%)
TEST_COMMON := $(patsubst %.c,$(BUILD)/%.o,$(wildcard tests/common/*.c))

.SECONDARY:
.PHONY: all deps demo test test-run test-asan test-cluster bench report docs-check clean unit

all: $(BIN) lpmpipe

lpmpipe: $(BIN)
	@ln -sf $(BIN) lpmpipe

$(BIN): $(OBJS) $(EXTRA_OBJS)
	@$(if $(Q),echo "  LINK $@")
	$(Q)$(LINK) $(ALL_LDFLAGS) -o $@ $^ $(LIBS) $(EXTRA_LIBS)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC   $<")
	$(Q)$(CC) $(ALL_CFLAGS) -c $< -o $@

$(BUILD)/tests/%: tests/%.c $(LIB_OBJS) $(TEST_COMMON)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  TEST $@")
	$(Q)$(LINK) $(ALL_CFLAGS) $(ALL_LDFLAGS) -Itests/common -o $@ $< $(LIB_OBJS) $(TEST_COMMON) $(CHECK_LIBS) $(LIBS) $(EXTRA_LIBS)

deps:
	@scripts/deps.sh

# The main job on built-in synthetic data (no ../shared needed).
demo: deps
	@$(MAKE) --no-print-directory -j$(JOBS) all
	@scripts/demo.sh $(BIN)

# The whole suite.
test: deps
	@$(MAKE) --no-print-directory -j$(JOBS) all unit
	@$(MAKE) --no-print-directory test-run

test-run: $(BIN) $(TEST_BINS)
	@BUILD=$(BUILD) tests/run.sh

ASAN_VARS := BUILD=build-asan OPT=-O1 \
	SAN="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all"
test-asan: deps
	@$(MAKE) --no-print-directory -j$(JOBS) $(ASAN_VARS) all unit
	@$(MAKE) --no-print-directory $(ASAN_VARS) test-run

# The experiment sweeps of reports/ (docs/cli-report.md): figures and
# build/report/html/index.html. REPORT_LONG=1 adds reports/long/.
report: deps
	@$(MAKE) --no-print-directory -j$(JOBS) all
	@scripts/report.sh $(BIN)

# The generated tables of docs/results-*.md re-run at a reduced size and
# compared with the docs (docs/cli-report.md, "Results docs").
docs-check: deps
	@$(MAKE) --no-print-directory -j$(JOBS) all
	@scripts/docs_check.sh $(BIN)

# The Slurm array of a report sweep on a one-node cluster started here.
test-cluster: deps
	@$(MAKE) --no-print-directory -j$(JOBS) all
	@BUILD=$(BUILD) TESTS=e2e/report_slurm tests/run.sh

bench: deps
	@$(MAKE) --no-print-directory -j$(JOBS) all
	@scripts/bench.sh $(BIN)

unit: $(TEST_BINS)

clean:
	rm -rf build build-asan build-fuzz lpmpipe

# Header dependencies of every object, test binary and fuzz harness (a
# changed struct must rebuild everything that lays it out).
-include $(OBJS:.o=.d) $(TEST_COMMON:.o=.d) $(TEST_BINS:=.d) $(FUZZ_HARNESS_OBJS:.o=.d)
