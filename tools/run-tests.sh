#!/bin/sh
# Builds everything and runs every test suite (unit, abi, tools).
# Installs the build dependencies with apt-get when they are missing.
# usage: tools/run-tests.sh [BUILD_DIR] [extra meson setup options...]
set -eu
cd "$(dirname "$0")/.."
sh tools/install-deps.sh
build=${1:-build}
[ $# -gt 0 ] && shift
if [ -f "$build/build.ninja" ]; then
	meson setup --reconfigure "$build" "$@" >/dev/null
else
	meson setup "$build" "$@" >/dev/null
fi
meson compile -C "$build"
status=0
# Sanitizer builds run several times slower: .ci/run raises the per-test
# timeouts with KP_TEST_TIMEOUT_MULTIPLIER.
meson test -C "$build" --print-errorlogs --num-processes 2 \
	--timeout-multiplier "${KP_TEST_TIMEOUT_MULTIPLIER:-1}" || status=$?
python3 tools/test-summary.py "$build/meson-logs/testlog.json"
exit $status
