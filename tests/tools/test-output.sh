#!/bin/sh
# kubectl-karpenter simulate's output end to end (issue 9): -o yaml reads
# back as the same document as -o json whatever the names hold, and a total
# cost that is not a finite number is an error (exit 1), never printed as 0
# or inf.
# usage: test-output.sh TOOL SOURCE_ROOT
tool=$1 src=$2
. "$(dirname "$0")/tap.sh"
fx=$src/tests/tools/fixtures/simulate

# ------------------------------------------ names YAML does not allow raw --
cat >"$tmpd/pods.yaml" <<'YAML'
apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Pod
  metadata: {name: "\x7f", namespace: default}
  spec:
    containers: [{name: a, image: x, resources: {requests: {cpu: 100m}}}]
- apiVersion: v1
  kind: Pod
  metadata: {name: "\u0085x", namespace: "\u2028\uFEFF\x9F"}
  spec:
    containers: [{name: a, image: x, resources: {requests: {cpu: 100m}}}]
YAML
run_cmd "$tool" simulate -f "$fx/nodepool.yaml" -f "$tmpd/pods.yaml" -o yaml
check "control-character names -o yaml: exits 0" [ "$rc" -eq 0 ]
check "DEL is escaped" contains "$out" '  name: "\u007f"'
check "NEL is escaped" contains "$out" '  name: "\u0085x"'
check "LS, BOM and C1 are escaped" contains "$out" '- namespace: "\u2028\ufeff\u009f"'
printf '%s\n' "$out" >"$tmpd/doc.yaml"
run_cmd "$tool" simulate -f "$fx/nodepool.yaml" -f "$tmpd/pods.yaml" -o json
printf '%s\n' "$out" >"$tmpd/doc.json"
if python3 -c 'import yaml' 2>/dev/null; then
	check "control-character names: -o yaml reads back as -o json" python3 -c '
import json, sys, yaml
y = yaml.safe_load(open(sys.argv[1], encoding="utf-8"))
j = json.load(open(sys.argv[2], encoding="utf-8"))
assert y == j, (y["pods"], j["pods"])
assert [p["name"] for p in j["pods"]] == ["\x7f", "\x85x"], j["pods"]' "$tmpd/doc.yaml" "$tmpd/doc.json"
else
	n=$((n + 1))
	echo "ok $n - control-character names: -o yaml reads back as -o json # SKIP python3-yaml is not installed"
fi

# --------------------------------------------- a total that overflows --
# Two pods that need a node each, on the only instance type, priced 1.7e308
# $/h: the total overflows a double. (The catalogue may also refuse such a
# price; either way the command fails and prints no cost.)
cat >"$tmpd/huge.json" <<'JSON'
[{"name": "huge.large", "architecture": "amd64", "operatingSystems": ["linux"],
  "offerings": [{"capacityType": "on-demand", "zone": "us-east-1a", "price": 1.7e308}],
  "resources": {"cpu": "1", "memory": "4Gi", "pods": "110"}}]
JSON
cat >"$tmpd/two.yaml" <<'YAML'
apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Pod
  metadata: {name: a, namespace: default}
  spec:
    containers: [{name: a, image: x, resources: {requests: {cpu: 700m}}}]
- apiVersion: v1
  kind: Pod
  metadata: {name: b, namespace: default}
  spec:
    containers: [{name: a, image: x, resources: {requests: {cpu: 700m}}}]
YAML
for o in text json yaml; do
	run_cmd "$tool" simulate -f "$fx/nodepool.yaml" -f "$tmpd/two.yaml" --instance-types "$tmpd/huge.json" -o $o
	check "overflowing total -o $o: exits 1" [ "$rc" -eq 1 ]
	check "overflowing total -o $o: no cost of 0 on stdout" sh -c '! printf "%s\n" "$1" | grep -Eq "cost\"?: 0|\\\$0\.0000/h"' _ "$out"
	check "overflowing total -o $o: no inf on stdout" sh -c '! printf "%s\n" "$1" | grep -qi "inf"' _ "$out"
	check "overflowing total -o $o: nothing on stdout" [ -z "$out" ]
	check "overflowing total -o $o: names the cost or the price on stderr" \
		sh -c 'printf "%s\n" "$1" | grep -Eq "cost|price"' _ "$errout"
done
finish
