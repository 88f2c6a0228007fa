#!/usr/bin/env bash
# docs/architecture.md's structure rules (issue 16) on this tree and its
# objects: no include or call cycle between files, core/ on its own, no
# library reaching the command layer, no weak symbols. Then the check must
# catch each fault planted in a small tree of its own.
set -u
cd "${LPMPIPE_ROOT:-.}"
BUILD=${LPMPIPE_BUILD:-build}
W=$(mktemp -d /tmp/lpmpipe-structure.XXXXXX)
trap 'rm -rf "$W"' EXIT
fail=0
if [ -d "$BUILD/core" ]; then
  python3 scripts/structure_check.py --build "$BUILD" >"$W/out.txt" 2>&1 || fail=1
else
  echo "SKIP: no objects in $BUILD: the call checks need a build (include checks only)"
  python3 scripts/structure_check.py >"$W/out.txt" 2>&1 || fail=1
fi
cat "$W/out.txt"
[ $fail -eq 0 ] || echo "FAIL: the tree breaks the structure rules (lines FAULT: above)"
grep -qE "structure: [0-9]{3,} files" "$W/out.txt" || { echo "FAIL: the check saw too few files"; fail=1; }

# Negative: a tree with one fault of each kind.
T=$W/tree
mkdir -p "$T/core" "$T/mapper" "$T/cli"
printf '#include "b.h"\nint a(void);\n' >"$T/mapper/a.h"
printf '#include "a.h"\nint a(void) { return 1; }\n' >"$T/mapper/a.c"
printf '#include "a.h"\nint b(void);\n' >"$T/mapper/b.h"
printf '#include "b.h"\nint b(void) { return a(); }\n' >"$T/mapper/b.c"
printf '#include "../mapper/a.h"\nint c(void) { return a(); }\n' >"$T/core/c.c"
printf 'int cmd(void);\n' >"$T/cli/cmd.h"
printf '#include "../cli/cmd.h"\nint __attribute__((weak)) d(void) { return cmd(); }\n' >"$T/mapper/d.c"
python3 scripts/structure_check.py --root "$T" >"$W/neg.txt" 2>&1
rc=$?
for want in "include cycle between files: mapper/a.h <-> mapper/b.h" \
            "include cycle between modules: mapper/a <-> mapper/b" \
            "core/c.c: core includes mapper/a.h" \
            "mapper/d.c: library folder mapper/ includes the command layer" \
            "mapper/d.c:2: weak symbol"; do
  grep -qF -- "$want" "$W/neg.txt" || { echo "FAIL: a planted fault was not caught: $want"; fail=1; }
done
[ $rc -eq 1 ] || { echo "FAIL: planted faults: exit $rc, not 1"; cat "$W/neg.txt"; fail=1; }
# Calls seen in objects only (no include between the files).
U=$W/calls
mkdir -p "$U/core" "$U/mapper" "$U/b/core" "$U/b/mapper"
printf 'int y(void);\nint x(int n) { return n ? y() : 0; }\n' >"$U/mapper/x.c"
printf 'int x(int);\nint y(void) { return x(0); }\n' >"$U/mapper/y.c"
printf 'int y(void);\nint z(void) { return y(); }\n' >"$U/core/z.c"
for f in mapper/x mapper/y core/z; do ${CC:-cc} -c "$U/$f.c" -o "$U/b/$f.o" || fail=1; done
python3 scripts/structure_check.py --root "$U" --build "$U/b" >>"$W/neg.txt" 2>&1
[ $? -eq 1 ] || { echo "FAIL: planted call faults: not exit 1"; fail=1; }
for want in "call cycle between files: mapper/x <-> mapper/y" "core/z.o: core calls y of mapper/y"; do
  grep -qF -- "$want" "$W/neg.txt" || { echo "FAIL: a planted fault was not caught: $want"; fail=1; }
done
[ $fail -eq 0 ] && echo "ok: the planted faults are caught ($(grep -c '^FAULT' "$W/neg.txt") faults, exit 1)"
exit $fail
