#!/bin/sh
# Builds everything and runs the main job: kubectl-karpenter simulate on the
# example cluster (examples/cluster/), on the embedded KWOK default.
# Installs the build dependencies with apt-get when missing.
# usage: tools/run-example.sh [BUILD_DIR]
set -eu
cd "$(dirname "$0")/.."
sh tools/install-deps.sh
build=${1:-build}
if [ -f "$build/build.ninja" ]; then
	meson setup --reconfigure "$build" >/dev/null
else
	meson setup "$build" >/dev/null
fi
meson compile -C "$build" >/dev/null
tool="$build/tools/kubectl-karpenter/kubectl-karpenter"
set -x
"$tool" version
"$build/examples/example-downstream" 250m 1.5 2
# The main job: what Karpenter would launch for the example cluster, on the
# embedded KWOK instance types. Exit code 1 is expected: the example has one
# pod no instance type can hold (ml/trainer-r2d2x asks for 300 cpu).
"$tool" simulate -f examples/cluster/ || [ $? -eq 1 ]
