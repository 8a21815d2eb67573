#!/bin/sh
# Proves the ABI gate can fail: abidiff of a deliberately broken variant of a
# library against the real baseline must report an ABI change (status bit 4
# or 8) and name the broken entity.
# usage: abidiff-expect-break.sh BASELINE.abi SUPPRESSIONS LIBRARY.so EXPECTED_TEXT HEADERS_DIR1 HEADERS_DIR2
set -u
base=$1 suppr=$2 lib=$3 expect=$4 h1=$5 h2=$6
out=$(abidiff --headers-dir1 "$h1" --headers-dir2 "$h2" --no-added-syms \
	--suppressions "$suppr" "$base" "$lib" 2>&1)
rc=$?
echo "$out"
if [ $((rc & 12)) -eq 0 ]; then
	echo "FAIL: abidiff returned $rc: the broken variant was not reported"
	exit 1
fi
if ! printf '%s\n' "$out" | grep -q -- "$expect"; then
	echo "FAIL: abidiff report does not mention '$expect'"
	exit 1
fi
echo "ok: abidiff reported the break (status $rc)"
