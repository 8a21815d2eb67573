#!/bin/sh
# kubectl-karpenter hash: NodePool drift hashes and NodeClaim drift, end to end.
# usage: test-hash.sh TOOL
tool=$1
. "$(dirname "$0")/tap.sh"

# H3 of ../shared/data/hash/nodepool-vectors.yaml once expireAfter is
# defaulted to 720h; "never-expire" is H2.
cat >"$tmpd/nodepools.yaml" <<'EOF'
apiVersion: karpenter.sh/v1
kind: NodePool
metadata:
  name: default
spec:
  template:
    metadata:
      labels: {team: a}
    spec:
      nodeClassRef: {group: karpenter.kwok.sh, kind: KWOKNodeClass, name: default}
      requirements:
      - {key: karpenter.sh/capacity-type, operator: In, values: [on-demand]}
---
apiVersion: karpenter.sh/v1
kind: NodePool
metadata:
  name: never-expire
spec:
  template:
    spec:
      nodeClassRef: {group: karpenter.kwok.sh, kind: KWOKNodeClass, name: default}
      expireAfter: Never
      requirements: []
EOF

launched='status: {conditions: [{type: Launched, status: "True", reason: Launched, message: "", lastTransitionTime: "2024-01-01T00:00:00Z"}]}'
spec='spec: {nodeClassRef: {group: karpenter.kwok.sh, kind: KWOKNodeClass, name: default}, requirements: []}'
cat >"$tmpd/nodeclaims.yaml" <<EOF
apiVersion: v1
kind: List
items:
- apiVersion: karpenter.sh/v1
  kind: NodeClaim
  metadata:
    name: current
    labels: {karpenter.sh/nodepool: default, karpenter.sh/capacity-type: on-demand, team: a}
    annotations: {karpenter.sh/nodepool-hash: "10172464548043488983", karpenter.sh/nodepool-hash-version: v3}
  $spec
  $launched
- apiVersion: karpenter.sh/v1
  kind: NodeClaim
  metadata:
    name: stale
    labels: {karpenter.sh/nodepool: default, karpenter.sh/capacity-type: on-demand}
    annotations: {karpenter.sh/nodepool-hash: "12745407319442031341", karpenter.sh/nodepool-hash-version: v3}
  $spec
  $launched
- apiVersion: karpenter.sh/v1
  kind: NodeClaim
  metadata:
    name: spot
    labels: {karpenter.sh/nodepool: default, karpenter.sh/capacity-type: spot}
    annotations: {karpenter.sh/nodepool-hash: "10172464548043488983", karpenter.sh/nodepool-hash-version: v3}
  $spec
  $launched
- apiVersion: karpenter.sh/v1
  kind: NodeClaim
  metadata:
    name: old-version
    labels: {karpenter.sh/nodepool: default, karpenter.sh/capacity-type: on-demand}
    annotations: {karpenter.sh/nodepool-hash: "1", karpenter.sh/nodepool-hash-version: v2}
  $spec
  $launched
- apiVersion: karpenter.sh/v1
  kind: NodeClaim
  metadata:
    name: launching
    labels: {karpenter.sh/nodepool: default}
    annotations: {karpenter.sh/nodepool-hash: "1", karpenter.sh/nodepool-hash-version: v3}
  $spec
- apiVersion: karpenter.sh/v1
  kind: NodeClaim
  metadata:
    name: orphan
    labels: {karpenter.sh/nodepool: gone}
  $spec
EOF

run_cmd "$tool" --help
check "--help lists hash" contains "$out" "  hash       Print NodePool and EC2NodeClass drift hashes and NodeClaim drift"

run_cmd "$tool" hash -f "$tmpd/nodepools.yaml" -f "$tmpd/nodeclaims.yaml"
check "hash exits 0" [ "$rc" -eq 0 ]
check "hash prints nothing on stderr" [ -z "$errout" ]
expected=$(cat <<'EOF'
NAME           HASH                   HASH-VERSION
default        10172464548043488983   v3
never-expire   7428780003907761376    v3

NODECLAIM     NODEPOOL   DRIFTED   REASON                MESSAGE
current       default    false     <none>                not drifted: static fields match (hash 10172464548043488983, version v3); the NodeClaim's labels are compatible with the NodePool's requirements
stale         default    true      NodePoolDrifted       NodePool hash 10172464548043488983 differs from the NodeClaim's 12745407319442031341 (hash version v3): a static field of spec.template changed
spot          default    true      RequirementsDrifted   the NodeClaim's labels are not compatible with the NodePool's requirements: key karpenter.sh/capacity-type, karpenter.sh/capacity-type In [on-demand] not in karpenter.sh/capacity-type In [spot]
old-version   default    false     <none>                not drifted: static drift not evaluated: hash versions differ (NodePool v3, NodeClaim v2); the NodeClaim's labels are compatible with the NodePool's requirements
launching     default    false     <none>                not evaluated: the NodeClaim is not launched (no Launched condition)
orphan        gone       unknown   <none>                NodePool "gone" is not in the input
EOF
)
check "hash text output" [ "$out" = "$expected" ]

run_cmd "$tool" hash -f "$tmpd/nodepools.yaml" -f "$tmpd/nodeclaims.yaml" -o json
check "hash -o json exits 0" [ "$rc" -eq 0 ]
expected='{"nodePools":[{"name":"default","hash":"10172464548043488983","hashVersion":"v3"},{"name":"never-expire","hash":"7428780003907761376","hashVersion":"v3"}],"ec2NodeClasses":[],"nodeClaims":[{"name":"current","nodePool":"default","drifted":false,"reason":"","message":"not drifted: static fields match (hash 10172464548043488983, version v3); the NodeClaim'"'"'s labels are compatible with the NodePool'"'"'s requirements"},{"name":"stale","nodePool":"default","drifted":true,"reason":"NodePoolDrifted","message":"NodePool hash 10172464548043488983 differs from the NodeClaim'"'"'s 12745407319442031341 (hash version v3): a static field of spec.template changed"},{"name":"spot","nodePool":"default","drifted":true,"reason":"RequirementsDrifted","message":"the NodeClaim'"'"'s labels are not compatible with the NodePool'"'"'s requirements: key karpenter.sh/capacity-type, karpenter.sh/capacity-type In [on-demand] not in karpenter.sh/capacity-type In [spot]"},{"name":"old-version","nodePool":"default","drifted":false,"reason":"","message":"not drifted: static drift not evaluated: hash versions differ (NodePool v3, NodeClaim v2); the NodeClaim'"'"'s labels are compatible with the NodePool'"'"'s requirements"},{"name":"launching","nodePool":"default","drifted":false,"reason":"","message":"not evaluated: the NodeClaim is not launched (no Launched condition)"},{"name":"orphan","nodePool":"gone","drifted":null,"reason":"","message":"NodePool \"gone\" is not in the input"}]}'
check "hash -o json output" [ "$out" = "$expected" ]
check "hash -o json is JSON" sh -c 'printf "%s" "$1" | python3 -m json.tool >/dev/null' _ "$out"

# stdin, a v1beta1 NodePool skipped with a warning, NodePools only.
run_cmd sh -c 'printf "apiVersion: karpenter.sh/v1beta1\nkind: NodePool\nmetadata: {name: old}\n" | "$1" hash -f - -f "$2"' _ "$tool" "$tmpd/nodepools.yaml"
check "stdin exits 0" [ "$rc" -eq 0 ]
expected=$(cat <<'EOF'
NAME           HASH                   HASH-VERSION
default        10172464548043488983   v3
never-expire   7428780003907761376    v3
EOF
)
check "NodePools only: no NodeClaim table" [ "$out" = "$expected" ]
check "other apiVersions are skipped with a warning" [ "$errout" = "Warning: <stdin>: NodePool/old skipped: apiVersion karpenter.sh/v1beta1 is not karpenter.sh/v1" ]

# A taint's timeAdded (N26 of the vectors, with expireAfter given).
cat >"$tmpd/timed.json" <<'EOF'
{"apiVersion":"karpenter.sh/v1","kind":"NodePool","metadata":{"name":"timed"},"spec":{"template":{"spec":{"nodeClassRef":{"group":"karpenter.kwok.sh","kind":"KWOKNodeClass","name":"default"},"taints":[{"key":"example.com/maintenance","value":"true","effect":"NoSchedule","timeAdded":"2024-01-01T05:30:00+05:30"}],"expireAfter":"720h","requirements":[]}}}}
EOF
run_cmd "$tool" hash -o json -f "$tmpd/timed.json"
check "timeAdded hashed as by a UTC controller" [ "$out" = '{"nodePools":[{"name":"timed","hash":"4117961424074159745","hashVersion":"v3"}],"ec2NodeClasses":[],"nodeClaims":[]}' ]

# Invalid input: exit 1.
run_cmd sh -c 'printf "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: bad}\nspec: {template: {spec: {expireAfter: 30d}}}\n" | "$1" hash -f -' _ "$tool"
check "unhashable NodePool exits 1" [ "$rc" -eq 1 ]
check "unhashable NodePool is explained" [ "$errout" = 'kubectl-karpenter hash: <stdin>: NodePool/bad: spec.template.spec.expireAfter: not a duration: "30d"' ]
check "nothing on stdout after an error" [ -z "$out" ]

run_cmd sh -c 'printf "kind: [" | "$1" hash -f -' _ "$tool"
check "undecodable input exits 1" [ "$rc" -eq 1 ]
check "undecodable input names the file" contains "$errout" "kubectl-karpenter hash: <stdin>: document 1: line "

run_cmd "$tool" hash -f "$tmpd/nodeclaims.yaml"
check "no NodePool exits 1" [ "$rc" -eq 1 ]
# (", or karpenter.k8s.aws/v1 EC2NodeClass" in a build with libkarpenter-aws)
check "no NodePool is explained" contains "$errout" "kubectl-karpenter hash: no karpenter.sh/v1 NodePool"

printf -- '---\n' >"$tmpd/sep"
cat "$tmpd/nodepools.yaml" "$tmpd/sep" "$tmpd/nodepools.yaml" >"$tmpd/twice.yaml"
run_cmd "$tool" hash -f "$tmpd/twice.yaml"
check "a NodePool given twice exits 1" [ "$rc" -eq 1 ]
check "a NodePool given twice is named" contains "$errout" "NodePool/default is given twice"

# Usage errors: exit 2.
run_cmd "$tool" hash
check "no -f exits 2" [ "$rc" -eq 2 ]
check "no -f is explained" contains "$errout" "no input: give -f FILE (or -f - for stdin)"
run_cmd "$tool" hash -f "$tmpd/nodepools.yaml" -o yaml
check "unsupported output format exits 2" [ "$rc" -eq 2 ]
check "unsupported output format is named" contains "$errout" 'unsupported output format "yaml"'
run_cmd "$tool" hash -f "$tmpd/nodepools.yaml" --bogus
check "unknown argument exits 2" [ "$rc" -eq 2 ]
check "unknown argument is named" contains "$errout" 'unknown argument "--bogus"'
run_cmd "$tool" hash -f "$tmpd/missing.yaml"
check "unreadable file exits 2" [ "$rc" -eq 2 ]
check "unreadable file is named" contains "$errout" "missing.yaml"
run_cmd "$tool" hash --help
check "hash --help exits 0" [ "$rc" -eq 0 ]
check "hash --help prints its usage" contains "$out" "Usage: kubectl-karpenter hash -f FILE [-f FILE ...] [-o text|json]"
finish
