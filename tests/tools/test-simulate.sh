#!/bin/sh
# kubectl-karpenter simulate: the example cluster, the JSON/YAML contract
# (README "simulate JSON output"), upstream's NodePool examples, instance-type
# files, determinism and exit codes (0 all placed, 1 invalid/unplaced, 2 usage).
# usage: test-simulate.sh TOOL SOURCE_ROOT SHARED_DATA
tool=$1 src=$2 data=$3
. "$(dirname "$0")/tap.sh"
cluster=$src/examples/cluster
fx=$src/tests/tools/fixtures/simulate

# has_line TEXT LINE: TEXT has LINE as a whole line.
has_line() { printf '%s\n' "$1" | grep -qxF -- "$2"; }

# py NAME SCRIPT: one TAP line; SCRIPT reads the JSON document in $tmpd/doc.json
# as `d` and fails by raising (an assert names what was wrong).
py() {
	name=$1
	shift
	printf '%s\n' "$out" >"$tmpd/doc.json"
	check "$name" python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
$1" "$tmpd/doc.json"
}

# ---------------------------------------------------------------- usage --
run_cmd "$tool" --help
check "--help lists simulate" contains "$out" "  simulate   Simulate scheduling: which NodeClaims Karpenter would launch"
run_cmd "$tool" simulate --help
check "simulate --help exits 0" [ "$rc" -eq 0 ]
check "simulate --help prints its usage" contains "$out" "Usage: kubectl-karpenter simulate -f FILE [-f FILE ...] [--instance-types FILE]"
run_cmd "$tool" simulate
check "no -f is a usage error (exit 2)" [ "$rc" -eq 2 ]
check "no -f says so" contains "$errout" "no input: give -f FILE"
run_cmd "$tool" simulate -f
check "-f without a value exits 2" [ "$rc" -eq 2 ]
run_cmd "$tool" simulate -f "$cluster" --frobnicate
check "unknown argument exits 2" [ "$rc" -eq 2 ]
check "unknown argument is named" contains "$errout" 'unknown argument "--frobnicate"'
run_cmd "$tool" simulate -f "$cluster" -o xml
check "unsupported output format exits 2" [ "$rc" -eq 2 ]
check "unsupported output format is named" contains "$errout" 'unsupported output format "xml"'
run_cmd "$tool" simulate -f "$cluster" --max-instance-types=ten
check "a bad --max-instance-types exits 2" [ "$rc" -eq 2 ]
check "a bad --max-instance-types is named" contains "$errout" 'invalid value "ten" for --max-instance-types'
run_cmd "$tool" simulate -f "$tmpd/missing.yaml"
check "a missing file exits 2" [ "$rc" -eq 2 ]
check "a missing file is named" contains "$errout" "cannot read \"$tmpd/missing.yaml\""
mkdir "$tmpd/empty"
run_cmd "$tool" simulate -f "$tmpd/empty"
check "a directory without manifests exits 2" [ "$rc" -eq 2 ]
check "a directory without manifests says so" contains "$errout" "has no *.yaml, *.yml or *.json file"
run_cmd sh -c "\"\$1\" simulate -f - -f - </dev/null" _ "$tool"
check "stdin twice exits 2" [ "$rc" -eq 2 ]
run_cmd "$tool" simulate -f "$cluster" --instance-types "$tmpd/missing.json"
check "a missing --instance-types file exits 2" [ "$rc" -eq 2 ]

# ------------------------------------------------------ invalid input (1) --
run_cmd "$tool" simulate -f "$fx/unknown-field.yaml" -f "$fx/pods.yaml"
check "an unknown field exits 1" [ "$rc" -eq 1 ]
check "an unknown field is a strict decoding error" contains "$errout" 'NodePool/typo: strict decoding error: unknown field "spec.template.spec.requirement"'
check "invalid input prints no result" [ -z "$out" ]
run_cmd "$tool" simulate -f "$fx/nodepool.yaml" -f "$fx/nodepool.yaml" -f "$fx/pods.yaml"
check "an object given twice exits 1" [ "$rc" -eq 1 ]
check "an object given twice is named" contains "$errout" "NodePool default given twice (in $fx/nodepool.yaml and $fx/nodepool.yaml)"
# a node class being deleted: its NodePools provision nothing (upstream's
# readiness: NodeClassTerminating; reconcile says the NodePool is not Ready)
printf 'apiVersion: karpenter.kwok.sh/v1alpha1\nkind: KWOKNodeClass\nmetadata: {name: default, deletionTimestamp: "2025-01-01T00:00:00Z", finalizers: [x]}\n' >"$tmpd/deleting-class.yaml"
run_cmd "$tool" simulate -f "$fx/nodepool.yaml" -f "$fx/pods.yaml" -f "$tmpd/deleting-class.yaml"
check "a node class being deleted: exit 1 (pods unplaced)" [ "$rc" -eq 1 ]
check "a node class being deleted: named in the reasons" contains "$out" 'node class KWOKNodeClass "default" is being deleted'
# identity as the API server's and the builder's (kp_kind_namespaced): a Pod
# written without a namespace is default's
printf 'apiVersion: v1\nkind: Pod\nmetadata: {name: web}\nspec: {containers: [{name: c}]}\n' >"$tmpd/web.yaml"
printf 'apiVersion: v1\nkind: Pod\nmetadata: {name: web, namespace: default}\nspec: {containers: [{name: c}]}\n' >"$tmpd/default-web.yaml"
run_cmd "$tool" simulate -f "$fx/nodepool.yaml" -f "$tmpd/web.yaml" -f "$tmpd/default-web.yaml"
check "a Pod without a namespace and default/web are one Pod" contains "$errout" "Pod default/web given twice (in $tmpd/web.yaml and $tmpd/default-web.yaml)"
printf '[{"name": "x", "resources": {"cpu": "abc"}}]' >"$tmpd/bad-catalogue.json"
run_cmd "$tool" simulate -f "$fx/nodepool.yaml" -f "$fx/pods.yaml" --instance-types "$tmpd/bad-catalogue.json"
check "a bad --instance-types file exits 1" [ "$rc" -eq 1 ]
check "a bad --instance-types file names the field" contains "$errout" "[0].resources.cpu"

# ------------------------------------------------ everything placed (0) --
run_cmd "$tool" simulate -f "$fx/nodepool.yaml" -f "$fx/pods.yaml" -f "$fx/other-kinds.yaml"
check "all pods placed exits 0" [ "$rc" -eq 0 ]
check "other kinds are skipped on stderr" contains "$errout" "other-kinds.yaml: skipped ConfigMap/settings (v1): not a kind this command reads"
check "all pods placed: the pods line" has_line "$out" "Pods: 4 pending: 4 on new NodeClaims, 0 on existing nodes, 0 cannot be placed"
# Namespaces are read: a pod affinity namespaceSelector matches their labels.
cat >"$tmpd/ns.yaml" <<'EOF'
apiVersion: v1
kind: Namespace
metadata: {name: default, labels: {team: d}}
EOF
cat >"$tmpd/follower.yaml" <<'EOF'
apiVersion: v1
kind: Pod
metadata: {name: follower, namespace: other, labels: {app: follower}}
spec:
  affinity:
    podAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
        - topologyKey: kubernetes.io/hostname
          labelSelector: {matchLabels: {app: small}}
          namespaceSelector: {matchLabels: {team: d}}
  containers:
    - name: app
      resources:
        requests: {cpu: 100m}
EOF
run_cmd "$tool" simulate -f "$fx/nodepool.yaml" -f "$fx/pods.yaml" -f "$tmpd/ns.yaml" -f "$tmpd/follower.yaml"
check "namespaceSelector: Namespaces are not skipped" [ -z "$errout" ]
check "namespaceSelector: the follower is placed (exit 0)" [ "$rc" -eq 0 ]
run_cmd "$tool" simulate -f "$fx/nodepool.yaml" -f "$fx/pods.yaml" -f "$tmpd/follower.yaml"
check "namespaceSelector: without the Namespace nothing matches (exit 1)" [ "$rc" -eq 1 ]
run_cmd sh -c "{ cat \"\$2\"; echo ---; cat \"\$3\"; } | \"\$1\" simulate -f - -o json" _ "$tool" "$fx/nodepool.yaml" "$fx/pods.yaml"
check "stdin (-f -) works" [ "$rc" -eq 0 ]
py "stdin: every pod placed on a new NodeClaim" '
assert len(d["pods"]) == 4, d["pods"]
names = {c["nodeClaim"]["metadata"]["name"] for c in d["nodeClaims"]}
for p in d["pods"]:
    assert p["nodeClaim"] in names and p["node"] is None and p["reasons"] == [], p'

# ------------------------------------------------------ the example cluster --
run_cmd "$tool" simulate -f "$cluster"
check "example: exits 1 (a pod cannot be placed)" [ "$rc" -eq 1 ]
check "example: nothing on stderr" [ -z "$errout" ]
check "example: table header" has_line "$out" "NAME                    TYPE                CAPACITY    ZONE          NODEPOOL          PODS   \$/H"
check "example: total line" has_line "$out" "Total: 5 NodeClaims, \$0.6189/h"
check "example: pods line" has_line "$out" "Pods: 15 pending: 12 on new NodeClaims, 2 on existing nodes, 1 cannot be placed"
check "example: the unplaceable pod" has_line "$out" "ml/trainer-r2d2x: cannot be placed"
check "example: its reason for spot (the taint)" has_line "$out" "  nodepool spot: did not tolerate taint (taint=spot=true:NoSchedule)"
check "example: its reason for general-purpose" has_line "$out" "  nodepool general-purpose: no instance type has enough resources (requests pods=1, cpu=300, memory=512Gi)"
text1=$out
readme=$(sed -n '/^\$ kubectl-karpenter simulate -f examples\/cluster\/$/,/^```$/p' "$src/README.md" | sed '1d;$d')
check "example: the README shows the current output" [ "$readme" = "$out" ]
run_cmd "$tool" simulate -f "$cluster"
check "example: text is byte-identical across runs" [ "$out" = "$text1" ]

run_cmd "$tool" simulate -f "$cluster" -o json
check "example -o json: exits 1" [ "$rc" -eq 1 ]
json1=$out
py "example -o json: top-level members" '
assert list(d) == ["nodeClaims", "pods", "cost"], list(d)'
py "example -o json: NodeClaims are karpenter.sh/v1 NodeClaims with the launch labels" '
assert d["nodeClaims"]
for e in d["nodeClaims"]:
    assert set(e) == {"nodeClaim", "price"}, e.keys()
    nc = e["nodeClaim"]
    assert nc["apiVersion"] == "karpenter.sh/v1" and nc["kind"] == "NodeClaim", nc
    md = nc["metadata"]
    assert md["name"], md
    for k in ["karpenter.sh/nodepool", "node.kubernetes.io/instance-type",
              "topology.kubernetes.io/zone", "karpenter.sh/capacity-type"]:
        assert md["labels"].get(k), (md["name"], k)
    assert md["labels"]["karpenter.sh/nodepool"] in ("spot", "general-purpose", "arm64"), md
    reqs = {r["key"]: r for r in nc["spec"]["requirements"]}
    it = reqs["node.kubernetes.io/instance-type"]
    assert it["operator"] == "In" and md["labels"]["node.kubernetes.io/instance-type"] in it["values"], it
    assert nc["spec"]["resources"]["requests"]["cpu"], nc["spec"]
    assert isinstance(e["price"], float) and e["price"] > 0, e["price"]'
py "example -o json: cost is the sum of the prices" '
assert abs(d["cost"] - sum(e["price"] for e in d["nodeClaims"])) < 1e-9, d["cost"]'
py "example -o json: one entry per pending pod, with the contract members" '
assert len(d["pods"]) == 15, len(d["pods"])
for p in d["pods"]:
    assert list(p) == ["namespace", "name", "nodeClaim", "node", "reasons"], p
    assert (p["nodeClaim"] is None) or (p["node"] is None), p
    for r in p["reasons"]:
        assert list(r) == ["code", "nodePool", "node", "field", "message"], r
        assert isinstance(r["code"], str) and r["message"], r'
py "example -o json: the trainer cannot be placed, with reasons" '
p = [p for p in d["pods"] if p["name"] == "trainer-r2d2x"][0]
assert p["namespace"] == "ml" and p["nodeClaim"] is None and p["node"] is None, p
assert p["reasons"], p
assert all(r["code"] for r in p["reasons"])
others = [p for p in d["pods"] if p["name"] != "trainer-r2d2x"]
assert all(p["nodeClaim"] or p["node"] for p in others), [p for p in others if not (p["nodeClaim"] or p["node"])]'
py "example -o json: batch pods on spot, the arm64 smoke test on arm64" '
pool = {e["nodeClaim"]["metadata"]["name"]: e["nodeClaim"]["metadata"]["labels"] for e in d["nodeClaims"]}
for p in d["pods"]:
    if p["namespace"] == "batch":
        assert pool[p["nodeClaim"]]["karpenter.sh/nodepool"] == "spot", p
        assert pool[p["nodeClaim"]]["karpenter.sh/capacity-type"] == "spot", p
    if p["name"] == "arm-smoke-test-x8k2q":
        assert pool[p["nodeClaim"]]["karpenter.sh/nodepool"] == "arm64", p
    if p["namespace"] == "shop":
        assert p["node"] or pool[p["nodeClaim"]]["karpenter.sh/nodepool"] == "general-purpose", p'
py "example -o json: cache replicas on distinct nodes (anti-affinity)" '
hosts = [p["nodeClaim"] or p["node"] for p in d["pods"] if p["name"].startswith("cache-")]
assert len(hosts) == 3 and len(set(hosts)) == 3, hosts'
py "example -o json: web spread evenly over zones (maxSkew 1)" '
zone = {e["nodeClaim"]["metadata"]["name"]: e["nodeClaim"]["metadata"]["labels"]["topology.kubernetes.io/zone"] for e in d["nodeClaims"]}
zone.update({"general-purpose-7xk2p": "test-zone-a", "general-purpose-q9m4r": "test-zone-b"})
count = {"test-zone-a": 1, "test-zone-b": 1, "test-zone-c": 0, "test-zone-d": 0}
for p in d["pods"]:
    if p["name"].startswith("web-"):
        count[zone[p["nodeClaim"] or p["node"]]] += 1
assert sum(count.values()) == 8 and max(count.values()) - min(count.values()) <= 1, count'
run_cmd "$tool" simulate -f "$cluster" -o json
check "example -o json: byte-identical across runs" [ "$out" = "$json1" ]

run_cmd "$tool" simulate -f "$cluster" -o yaml
check "example -o yaml: exits 1" [ "$rc" -eq 1 ]
check "example -o yaml: starts with nodeClaims" [ "$(printf '%s\n' "$out" | head -n 2 | tr '\n' '|')" = "nodeClaims:|- nodeClaim:|" ]
if python3 -c 'import yaml' 2>/dev/null; then
	printf '%s\n' "$out" >"$tmpd/doc.yaml"
	printf '%s\n' "$json1" >"$tmpd/doc1.json"
	check "example -o yaml: the same document as -o json" python3 -c '
import json, sys, yaml
assert yaml.safe_load(open(sys.argv[1])) == json.load(open(sys.argv[2]))' "$tmpd/doc.yaml" "$tmpd/doc1.json"
else
	n=$((n + 1))
	echo "ok $n - example -o yaml: the same document as -o json # SKIP python3-yaml is not installed"
fi

run_cmd "$tool" simulate -f "$cluster" --max-instance-types 1 -o json
py "--max-instance-types 1: one instance-type option per NodeClaim" '
for e in d["nodeClaims"]:
    reqs = {r["key"]: r for r in e["nodeClaim"]["spec"]["requirements"]}
    assert len(reqs["node.kubernetes.io/instance-type"]["values"]) == 1, reqs'

# ------------------------------------------ --instance-types (upstream's file) --
cat="$data/kwok/examples/instance_types.json"
if [ -f "$cat" ]; then
	run_cmd "$tool" simulate -f "$fx/nodepool.yaml" -f "$fx/pods.yaml" --instance-types "$cat"
	check "--instance-types: exits 0" [ "$rc" -eq 0 ]
	check "--instance-types: launches the file's type in its cheapest zone" \
		sh -c 'printf "%s\n" "$1" | grep -Eq "^default-[^ ]+ +g5\.4xlarge +on-demand +us-east-1c +default +4 +1\.5250$"' _ "$out"
	check "--instance-types: total line" has_line "$out" "Total: 1 NodeClaim, \$1.5250/h"
	run_cmd "$tool" simulate -f "$fx/nodepool.yaml" -f "$fx/pods.yaml" --instance-types "$cat" -o json
	py "--instance-types -o json: price and labels from the file" '
(e,) = d["nodeClaims"]
assert e["price"] == 1.525, e["price"]
l = e["nodeClaim"]["metadata"]["labels"]
assert l["node.kubernetes.io/instance-type"] == "g5.4xlarge" and l["topology.kubernetes.io/zone"] == "us-east-1c", l
assert d["cost"] == 1.525, d["cost"]'
else
	n=$((n + 1))
	echo "ok $n - --instance-types with upstream's example file # SKIP $cat not found"
fi

# ------------------------------------- upstream's NodePool examples (shared) --
if [ -d "$data/manifests/v1" ]; then
	for f in "$data"/manifests/v1/*.yaml; do
		b=$(basename "$f")
		run_cmd "$tool" simulate -f "$f" -f "$fx/pods.yaml" -o json
		case $b in
		windows-custom-userdata.yaml)
			# Upstream's example writes nodeClassRef.group "karpenter.k8s.aws/v1",
			# which the v1 CRD's pattern '^[^/]*$' refuses.
			check "$b: refused as the API server would (exit 1)" [ "$rc" -eq 1 ]
			check "$b: names the invalid field" contains "$errout" 'spec.template.spec.nodeClassRef.group: Invalid value: "karpenter.k8s.aws/v1"'
			continue ;;
		esac
		check "$b: simulated (exit 0 or 1, not a usage error)" [ "$rc" -le 1 ]
		check "$b: EC2NodeClass skipped with a note" contains "$errout" "skipped EC2NodeClass/"
		py "$b: every pod placed or explained" '
assert len(d["pods"]) == 4, d["pods"]
for p in d["pods"]:
    assert p["nodeClaim"] or p["node"] or p["reasons"], p
for e in d["nodeClaims"]:
    assert e["nodeClaim"]["metadata"]["labels"]["karpenter.sh/nodepool"], e'
	done
else
	n=$((n + 1))
	echo "ok $n - upstream NodePool examples # SKIP $data/manifests/v1 not found"
fi
# A catalogue type with 40,000 distinct zones (issue 11): the catalogue's
# zones are indexed once, in proportion to their number (a scan per
# offering in the loader and again in the scheduler's catalogue index took
# seconds at 20,000 zones and minutes at 100,000). No timing is asserted:
# the NodeClaim lands in the first zone.
python3 - "$tmpd/zones.json" <<'PY'
import json, sys
offs = [{"Price": 0.5 + i * 1e-6, "Available": True, "Requirements": [
    {"key": "karpenter.sh/capacity-type", "operator": "In", "values": ["on-demand"]},
    {"key": "topology.kubernetes.io/zone", "operator": "In", "values": ["z%05d" % i]}]}
    for i in range(40000)]
json.dump([{"name": "c-4x-amd64-linux", "architecture": "amd64", "operatingSystems": ["linux"],
            "resources": {"cpu": "4", "memory": "8Gi", "pods": "110"}, "offerings": offs}],
          open(sys.argv[1], "w"))
PY
run_cmd "$tool" simulate -f "$fx/nodepool.yaml" -f "$fx/pods.yaml" --instance-types "$tmpd/zones.json" -o json
check "40,000 zones: exit 0" [ "$rc" -eq 0 ]
check "40,000 zones: the cheapest zone" contains "$out" '"topology.kubernetes.io/zone": "z00000"'

printf 'apiVersion: v1\nkind: Node\nspec:\n  providerID: kwok://x\n' >"$tmpd/nameless.yaml"
run_cmd "$tool" simulate -f "$tmpd/nameless.yaml"
check "a Node without a name: exit 1" [ "$rc" -eq 1 ]
check "a Node without a name: the file and object named" contains "$errout" \
	"$tmpd/nameless.yaml: Node (document 1): metadata.name: Required value: name or generateName is required"

finish
