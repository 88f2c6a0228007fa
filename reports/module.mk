# reports/: the experiment layer. Definitions are read with jansson; the
# tool version is core/version.h's git revision (so records name the binary
# that made them).
.DEFAULT_GOAL := all
JANSSON_LIBS ?= -ljansson
EXTRA_LIBS += $(JANSSON_LIBS)
