#!/bin/sh
# Exported symbols of a shared library must equal the names its linker
# version script lists (the libdrm/libinput idea): nothing exported by
# accident, nothing listed that is not defined.
# usage: check-symbols.sh LIBRARY.so VERSION.map
set -eu
lib=$1 map=$2
tmp=${TMPDIR:-/tmp}/kp-symbols.$$
trap 'rm -f "$tmp".*' EXIT
nm -D --defined-only "$lib" | awk '$2 ~ /^[TDBRVW]$/ { sub(/@.*/, "", $3); print $3 }' \
	| grep -v '^KARPENTER' | sort -u > "$tmp.exported"
sed -e 's,/\*.*\*/,,g' "$map" | grep -oE '^[[:space:]]*[A-Za-z_][A-Za-z0-9_]*;' \
	| tr -d ' \t;' | sort -u > "$tmp.listed"
if ! diff -u "$tmp.listed" "$tmp.exported"; then
	echo "FAIL: exports of $(basename "$lib") differ from $(basename "$map") (- listed only, + exported only)"
	exit 1
fi
bad=$(grep -v '^kp_' "$tmp.exported" || true)
if [ -n "$bad" ]; then
	echo "FAIL: unprefixed exported symbols: $bad"
	exit 1
fi
echo "ok: $(wc -l < "$tmp.exported") symbols exported by $(basename "$lib") match $(basename "$map")"
