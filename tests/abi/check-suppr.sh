#!/bin/sh
# The committed suppression file must list exactly the size-tagged structs of
# the current headers (abi/size-tagged.py): a new size-tagged struct gets its
# tail-growth allowance, and nothing else does.
# usage: check-suppr.sh SIZE_TAGGED_PY SUPPRESSIONS HEADERS_DIR...
set -eu
gen=$1 suppr=$2
shift 2
files=""
for d in "$@"; do files="$files $d/*.h"; done
# shellcheck disable=SC2086
if ! python3 "$gen" $files | diff -u "$suppr" -; then
	echo "FAIL: $(basename "$suppr") is stale: run 'meson compile -C build abi-dump' (VERSIONING.md)"
	exit 1
fi
echo "ok: $(basename "$suppr") lists the size-tagged structs of the headers"
