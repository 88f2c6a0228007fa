# fuzz/: libFuzzer harnesses for every reader of outside bytes (fuzz/README.md).
#
# `make fuzz FUZZ_SECONDS=N` builds them with clang into build-fuzz/ (the
# libraries with -fsanitize=fuzzer-no-link,address,undefined, one binary per
# harness), makes seed corpora from the shared tables, the MRT examples and
# generated images and bubble files, and runs each harness N seconds
# (FUZZ_RUNS=M stops a harness after M executions instead, whichever comes
# first). The ordinary build links the same harness functions into
# tests/fuzz/test_fuzz_replay, which replays fuzz/regress/ in `make test`.
# (read before the Makefile's first rule: keep `all` the default goal)
.DEFAULT_GOAL := all

FUZZ_NAMES   := fib_text fib_mrt input trace updates image bubbles names_table names_query
FUZZ_SECONDS ?= 20
FUZZ_RUNS    ?= 0
FUZZ_JOBS    ?= 1
FUZZ_BUILD   ?= build-fuzz
FUZZ_CC      ?= clang
FUZZ_SAN     := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer

FUZZ_HARNESS_SRCS := $(filter-out fuzz/entry.c,$(wildcard fuzz/*.c))
FUZZ_HARNESS_OBJS := $(FUZZ_HARNESS_SRCS:%.c=$(BUILD)/%.o)
# The libraries the readers live in (the command drivers come along in
# the archive but are only linked where a harness calls them).
FUZZ_LIB_SRCS := $(filter-out cli/main.c,$(foreach m,core cli mapper sim names,$(wildcard $(m)/*.c)))
FUZZ_LIB      := $(BUILD)/fuzz/liblpm.a
FUZZ_BINS     := $(FUZZ_NAMES:%=$(BUILD)/fuzz/fuzz_%)

# The replay test (gcc, plain and ASan builds) links every harness function.
$(BUILD)/tests/fuzz/test_fuzz_replay: $(FUZZ_HARNESS_OBJS)
$(BUILD)/tests/fuzz/test_fuzz_replay: EXTRA_LIBS += $(FUZZ_HARNESS_OBJS)

$(FUZZ_LIB): $(FUZZ_LIB_SRCS:%.c=$(BUILD)/%.o)
	@mkdir -p $(dir $@)
	@rm -f $@
	$(Q)ar rcs $@ $^

$(BUILD)/fuzz/entry_%.o: fuzz/entry.c fuzz/fuzz.h
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) -DLPM_FUZZ_NAME=lpm_fuzz_$* -c $< -o $@

$(FUZZ_BINS): $(BUILD)/fuzz/fuzz_%: $(BUILD)/fuzz/entry_%.o $(FUZZ_HARNESS_OBJS) $(FUZZ_LIB)
	@$(if $(Q),echo "  FUZZ $@")
	$(Q)$(CC) $(OPT) -g $(FUZZ_SAN) -fsanitize=fuzzer -o $@ $^ $(LIBS)

.PHONY: fuzz fuzz-bins
fuzz-bins: $(FUZZ_BINS)

# The harness binaries (clang) and lpmpipe (the ordinary build, for the seeds).
fuzz:
	@scripts/deps.sh --fuzz
	@$(MAKE) -s --no-print-directory -j$(JOBS) all
	@$(MAKE) -s --no-print-directory -j$(JOBS) BUILD=$(FUZZ_BUILD) CC=$(FUZZ_CC) OPT=-O1 CWARN="-Wall -Wextra" \
		SAN="$(FUZZ_SAN) -fsanitize=fuzzer-no-link" fuzz-bins
	@FUZZ_JOBS=$(FUZZ_JOBS) fuzz/run.sh $(FUZZ_BUILD) $(BIN) $(FUZZ_SECONDS) $(FUZZ_RUNS) $(FUZZ_NAMES)
