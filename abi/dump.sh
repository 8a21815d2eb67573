#!/bin/sh
# Rewrite ABI baselines: dump.sh OUT.abi LIBRARY.so HEADERS_DIR HEADERS_DIR [OUT LIB H H]...
# Keeps locations (relative) in the dump: a baseline without them makes
# abidiff's header filtering hide real changes (../shared/STYLE.md).
set -eu
while [ $# -ge 4 ]; do
	abidw --no-corpus-path --no-comp-dir-path --drop-private-types \
		--headers-dir "$3" --headers-dir "$4" --out-file "$1" "$2"
	echo "wrote $1"
	shift 4
done
