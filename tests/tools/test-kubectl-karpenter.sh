#!/bin/sh
# kubectl-karpenter: commands, output and exit codes (0 ok, 1 invalid, 2 usage).
# usage: test-kubectl-karpenter.sh TOOL CORE_VER CORE_SONAME KWOK_VER KWOK_SONAME AWS_VER|none AWS_SONAME|none
tool=$1 core=$2 core_so=$3 kwok=$4 kwok_so=$5 aws=$6 aws_so=$7
. "$(dirname "$0")/tap.sh"

run_cmd "$tool"
check "no command is a usage error (exit 2)" [ "$rc" -eq 2 ]
check "no command prints usage on stderr" contains "$errout" "Usage: kubectl-karpenter COMMAND"

run_cmd "$tool" --help
check "--help exits 0" [ "$rc" -eq 0 ]
check "--help lists version" contains "$out" "  version    Print library versions and SONAMEs"
check "--help documents exit codes" contains "$out" "Exit codes: 0 success, 1 invalid input or a failed decision, 2 usage error"
check "--help: an unreadable path is a usage error" contains "$out" "(an unreadable path or one without a manifest included)."

run_cmd "$tool" frobnicate
check "unknown command exits 2" [ "$rc" -eq 2 ]
check "unknown command is named" contains "$errout" 'unknown command "frobnicate"'

run_cmd "$tool" version
check "version exits 0" [ "$rc" -eq 0 ]
check "version names the tool" contains "$out" "kubectl-karpenter $core"
check "version shows the core and its SONAME" contains "$out" "libkarpenter       $core    $core_so"
check "version shows the kwok provider" contains "$out" "libkarpenter-kwok  $kwok    $kwok_so"
if [ "$aws" != none ]; then
	check "version shows the aws provider" contains "$out" "libkarpenter-aws   $aws    $aws_so"
fi

run_cmd "$tool" version -o json
check "version -o json exits 0" [ "$rc" -eq 0 ]
check "version -o json is JSON" sh -c 'printf "%s" "$1" | python3 -m json.tool >/dev/null' _ "$out"
check "version -o json has the core" contains "$out" "{\"name\":\"libkarpenter\",\"version\":\"$core\",\"soname\":\"$core_so\"}"

run_cmd "$tool" version -o yaml
check "unsupported output format exits 2" [ "$rc" -eq 2 ]
check "unsupported output format is named" contains "$errout" 'unsupported output format "yaml"'

run_cmd "$tool" version --help
check "version --help exits 0" [ "$rc" -eq 0 ]
check "version --help prints its usage" contains "$out" "Usage: kubectl-karpenter version [-o text|json]"
finish
