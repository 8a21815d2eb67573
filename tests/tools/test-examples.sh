#!/bin/sh
# The examples in examples/ run and print what they promise.
# usage: test-examples.sh DOWNSTREAM_EXE
exe=$1
. "$(dirname "$0")/tap.sh"

run_cmd "$exe" 250m 1.5 2
check "downstream example exits 0" [ "$rc" -eq 0 ]
check "downstream example sums quantities" contains "$out" "total cpu: 3750m"
check "downstream example prints the SONAME" contains "$out" "(libkarpenter.so.0."

run_cmd "$exe" 250m 2x
check "downstream example rejects a bad quantity (exit 1)" [ "$rc" -eq 1 ]
check "downstream example names the bad argument" contains "$errout" "argument 2:"
finish
