# reports/: the experiment layer. Definitions are read with jansson; the
# tool version is the git revision, regenerated when it changes (so records
# name the binary that made them).
.DEFAULT_GOAL := all
EXTRA_LIBS += -ljansson
LPM_GIT_VERSION := $(shell git describe --always --dirty --abbrev=12 2>/dev/null || echo unknown)
.PHONY: lpm-version-force
$(BUILD)/gen/lpm_version.h: lpm-version-force
	@mkdir -p $(dir $@)
	@echo '#define LPM_GIT_VERSION "$(LPM_GIT_VERSION)"' >$@.tmp; \
	 if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@; fi
$(BUILD)/reports/version.o: $(BUILD)/gen/lpm_version.h
$(BUILD)/reports/version.o: MODULE_CFLAGS += -I$(BUILD)/gen
