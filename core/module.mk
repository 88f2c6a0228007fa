# core/: the version and git revision are compiled into core/version.o only;
# a stamp file rebuilds it when either changes (not on every make).
# (read before the Makefile's first rule: keep `all` the default goal)
.DEFAULT_GOAL := all
LPM_VERSION := $(shell cat VERSION 2>/dev/null || echo unknown)
LPM_GIT_REV := $(shell git describe --always --dirty --abbrev=12 2>/dev/null || echo unknown)
LPM_VERSION_STAMP := $(BUILD)/version.stamp

$(BUILD)/core/version.o: MODULE_CFLAGS += -DLPM_VERSION_STR='"$(LPM_VERSION)"' -DLPM_GIT_REV_STR='"$(LPM_GIT_REV)"'
$(BUILD)/core/version.o: $(LPM_VERSION_STAMP)

$(LPM_VERSION_STAMP): FORCE_VERSION
	@mkdir -p $(dir $@)
	@echo '$(LPM_VERSION) $(LPM_GIT_REV)' | cmp -s - $@ || echo '$(LPM_VERSION) $(LPM_GIT_REV)' >$@

.PHONY: FORCE_VERSION
FORCE_VERSION:
