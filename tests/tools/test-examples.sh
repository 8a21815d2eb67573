#!/bin/sh
# The examples in examples/ run and print what they promise.
# usage: test-examples.sh DOWNSTREAM_EXE BUILDER_EXE KUBECTL_KARPENTER BUILDER_YAML LIFECYCLE_EXE
exe=$1 builder=$2 kk=$3 builder_yaml=$4 lifecycle=$5
. "$(dirname "$0")/tap.sh"

run_cmd "$exe" 250m 1.5 2
check "downstream example exits 0" [ "$rc" -eq 0 ]
check "downstream example sums quantities" contains "$out" "total cpu: 3750m"
check "downstream example prints the SONAME" contains "$out" "(libkarpenter.so.0."

run_cmd "$exe" 250m 2x
check "downstream example rejects a bad quantity (exit 1)" [ "$rc" -eq 1 ]
check "downstream example names the bad argument" contains "$errout" "argument 2:"
# examples/builder: a cluster built in code decides as the same cluster
# written as manifests (tests/tools/fixtures/builder-example.yaml).
run_cmd "$builder"
check "builder example exits 0" [ "$rc" -eq 0 ]
check "builder example launches one spot c-48x NodeClaim for all 11 pods" \
	contains "$out" "nodeclaim default-00001: spot c-48x-amd64-linux in test-zone-a, 11 pods"
check "builder example places the manifest pod" contains "$out" "pod shop/big -> default-00001"
check "builder example places every pod" [ "$(echo "$out" | grep -c '^pod .* -> default-00001$')" -eq 11 ]
run_cmd "$kk" simulate -f "$builder_yaml"
check "the same cluster as manifests: same NodeClaim" \
	contains "$out" "default-00001   c-48x-amd64-linux   spot       test-zone-a   default    11"
# examples/lifecycle: one NodeClaim through its whole life with lifecycle.h
run_cmd "$lifecycle"
check "lifecycle example exits 0" [ "$rc" -eq 0 ]
check "lifecycle example: finalizer first" [ "$(echo "$out" | head -n 1)" = \
	"+   0s  nodeclaim.lifecycle patch          NodeClaim/demo [Finalizer] added finalizer karpenter.sh/termination" ]
check "lifecycle example: registered with the unregistered taint removed" contains "$out" \
	"karpenter.sh/unregistered taint removed"
check "lifecycle example: waits for the startup taint" contains "$out" \
	'[NotInitialized] StartupTaint "example.com/agent-not-ready:NoExecute" still exists'
check "lifecycle example: the PDB holds web-2 back" contains "$out" \
	"pod default/web-2: evicting pod violates a PDB (PodDisruptionBudget default/web)"
check "lifecycle example: instance terminated, finalizers removed, no pod lost" \
	[ "$(echo "$out" | tail -n 1)" = "done: NodeClaim and Node gone, 0 instances left, 3 pods evicted, 0 pods lost" ]
finish
