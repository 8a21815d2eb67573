#!/bin/sh
# An experimental header must refuse to compile without KP_EXPERIMENTAL_API
# (STYLE rule 17), with its own #error, not by accident.
# usage: check-fenced.sh SOURCE.c COMPILER [COMPILER ARGS...] -- [-I...]...
set -u
src=$1
shift
cc=""
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
	cc="$cc $1"
	shift
done
[ $# -gt 0 ] && shift
# shellcheck disable=SC2086
out=$($cc -fsyntax-only "$@" "$src" 2>&1)
if [ $? -eq 0 ]; then
	echo "FAIL: $src compiles without KP_EXPERIMENTAL_API"
	exit 1
fi
if ! printf '%s\n' "$out" | grep -q 'define KP_EXPERIMENTAL_API'; then
	echo "FAIL: $src fails for another reason:"
	printf '%s\n' "$out"
	exit 1
fi
echo "ok: $src is fenced"
