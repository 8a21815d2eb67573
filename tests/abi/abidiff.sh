#!/bin/sh
# Compare a built library with its ABI baseline in abi/.
# usage: abidiff.sh BASELINE.abi SUPPRESSIONS LIBRARY.so HEADERS_DIR...
# Any non-zero abidiff status fails: bit 4 = ABI change, bit 8 = incompatible.
# After an intended change, regenerate the baseline (meson compile abi-dump)
# in the same commit, with a CHANGELOG entry (VERSIONING.md).
set -u
base=$1 suppr=$2 lib=$3
shift 3
hdrs=""
for d in "$@"; do hdrs="$hdrs --headers-dir1 $d --headers-dir2 $d"; done
# shellcheck disable=SC2086
abidiff $hdrs --no-added-syms --suppressions "$suppr" "$base" "$lib"
rc=$?
if [ $rc -ne 0 ]; then
	echo "FAIL: abidiff status $rc for $(basename "$lib") against $(basename "$base")"
	exit 1
fi
echo "ok: $(basename "$lib") matches $(basename "$base")"
