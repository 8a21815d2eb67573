#!/bin/sh
# kubectl-karpenter: text from the input of any length (300 and 70,000
# characters) is printed whole, never cut to a fixed-size buffer.
# usage: test-long-values.sh TOOL
tool=$1
. "$(dirname "$0")/tap.sh"

run_of() { printf "%$2s" '' | tr ' ' "$1"; }
# want TEXT: the line expected (kept in a file: a 70,000-character value
# twice is too long for one argument of grep); has_want: stdout has it.
want() { printf '%s\n' "$1" >"$tmpd/want"; }
has_want() { grep -qxF -f "$tmpd/want" "$tmpd/out"; }

for len in 300 70000; do
	# validate: an apiVersion the v1 CRDs do not serve, a kind that is not
	# Karpenter's.
	av="karpenter.sh/v$(run_of x "$len")"
	kind="K$(run_of k "$len")"
	printf 'apiVersion: %s\nkind: NodePool\nmetadata: {name: a}\n---\napiVersion: example.com/v1\nkind: %s\nmetadata: {name: b}\n' \
		"$av" "$kind" >"$tmpd/long.yaml"
	run_cmd "$tool" validate -f "$tmpd/long.yaml"
	check "validate, $len-character apiVersion: exit 1" [ "$rc" -eq 1 ]
	want "NodePool/a: apiVersion: Invalid value: \"$av\": the v1 CRDs serve karpenter.sh/v1 only (no matches for kind \"NodePool\" in version \"$av\")"
	check "validate, $len-character apiVersion: named whole, twice" has_want
	want "$kind/b: skipped: example.com/v1 $kind is not a Karpenter kind"
	check "validate, $len-character kind: named whole" has_want

	# hash: a NodeClaim whose NodePool label is not in the input.
	pool="p$(run_of p "$len")"
	cat >"$tmpd/hash.yaml" <<EOF
apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: default}
spec:
  template:
    spec:
      nodeClassRef: {group: karpenter.kwok.sh, kind: KWOKNodeClass, name: default}
      requirements: []
---
apiVersion: karpenter.sh/v1
kind: NodeClaim
metadata:
  name: orphan
  labels: {karpenter.sh/nodepool: $pool}
spec: {nodeClassRef: {group: karpenter.kwok.sh, kind: KWOKNodeClass, name: default}, requirements: []}
EOF
	run_cmd "$tool" hash -f "$tmpd/hash.yaml" -o json
	check "hash, $len-character NodePool label: exit 0" [ "$rc" -eq 0 ]
	want "{\"nodePools\":[{\"name\":\"default\",\"hash\":\"12745407319442031341\",\"hashVersion\":\"v3\"}],\"ec2NodeClasses\":[],\"nodeClaims\":[{\"name\":\"orphan\",\"nodePool\":\"$pool\",\"drifted\":null,\"reason\":\"\",\"message\":\"NodePool \\\"$pool\\\" is not in the input\"}]}"
	check "hash, $len-character NodePool label: the message names it whole" has_want
	run_cmd "$tool" hash -f "$tmpd/hash.yaml"
	want "orphan      $pool   unknown   <none>   NodePool \"$pool\" is not in the input"
	check "hash text, $len-character NodePool label: the message names it whole" has_want

	# simulate: two Nodes whose names differ only in their last character
	# refuse a pod for different reasons (a is cordoned, b is too small):
	# two targets, each named whole.
	node="n$(run_of n "$len")"
	: >"$tmpd/sim.yaml"
	for x in a b; do
		printf 'apiVersion: v1\nkind: Node\nmetadata: {name: %s%s}\nspec: {unschedulable: %s}\nstatus: {allocatable: {cpu: "4", memory: 8Gi, pods: "10"}}\n---\n' \
			"$node" "$x" "$([ $x = a ] && echo true || echo false)" >>"$tmpd/sim.yaml"
	done
	printf 'apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: d}\nspec: {containers: [{name: m, resources: {requests: {cpu: "8"}}}]}\n' >>"$tmpd/sim.yaml"
	run_cmd "$tool" simulate -f "$tmpd/sim.yaml"
	check "simulate, $len-character node names: exit 1 (not placed)" [ "$rc" -eq 1 ]
	want "  node ${node}a: did not tolerate taint (taint=node.kubernetes.io/unschedulable:NoSchedule)"
	check "simulate, $len-character node names: the cordoned node named whole" has_want
	check "simulate, $len-character node names: two groups, not one" \
		[ "$(grep -cF -e "  node ${node}a: " -e "  node ${node}b: " "$tmpd/out")" -eq 2 ]
done
finish
