#!/bin/sh
# Rewrite ABI baselines and their suppressions (the size-tagged structs that
# may grow at the end, computed from the headers by size-tagged.py):
# dump.sh OUT.abi LIBRARY.so HEADERS_DIR HEADERS_DIR [OUT LIB H H]...
# Keeps locations (relative) in the dump: a baseline without them makes
# abidiff's header filtering hide real changes (../shared/STYLE.md).
set -eu
while [ $# -ge 4 ]; do
	abidw --no-corpus-path --no-comp-dir-path --drop-private-types \
		--headers-dir "$3" --headers-dir "$4" --out-file "$1" "$2"
	python3 "$(dirname "$0")/size-tagged.py" "$3"/*.h "$4"/*.h > "${1%.abi}.suppr"
	echo "wrote $1 and ${1%.abi}.suppr"
	shift 4
done
