#!/bin/sh
# examples/custom-provider registers a third-party provider, launches a
# NodeClaim through the core and deletes it until the provider reports it gone.
# usage: test-custom-provider.sh EXE
exe=$1
. "$(dirname "$0")/tap.sh"

has_line() { printf '%s\n' "$out" | grep -qxF -- "$1"; }

run_cmd "$exe"
check "custom provider example exits 0" [ "$rc" -eq 0 ]
check "custom provider example writes nothing to stderr" [ -z "$errout" ]
check "registers the provider" contains "$out" "provider: acme (libkarpenter "
check "the catalogue has 4 instance types" has_line "instance types: 4"
check "allocatable is capacity minus overhead" \
	has_line "  acme.small: allocatable cpu 1900m, memory 3484Mi; cheapest spot in acme-1b at 0.0150/h"
check "unavailable offerings are skipped" \
	has_line "  acme.medium: allocatable cpu 3900m, memory 15772Mi; cheapest spot in acme-1a at 0.0600/h"
check "manages its node class" has_line "manages default-x7k2p: yes"
check "launches the cheapest type that fits" \
	has_line "launched default-x7k2p: acme:///acme-1a/i-0000001 (acme.medium, spot, acme-1a)"
check "the launched NodeClaim keeps its labels and gets allocatable" \
	has_line "  nodepool default, allocatable cpu 3900m, memory 15772Mi"
check "list sees the instance" has_line "instances: 1"
check "first delete starts termination" has_line "delete #1: termination in progress"
check "second delete reports KP_ENOTFOUND" has_line "delete #2: instance gone (instance terminated)"
check "get after delete is not found" has_line "get after delete: not found"
check "typed launch failure passes through" \
	has_line "launch 4 GPUs: insufficient capacity: no Acme instance type satisfies the requirements and requests"
finish
