#!/bin/sh
# kubectl-karpenter convert, end to end: upstream's example manifests convert
# and validate, the CLI contract (formats, stdin, --to, exit codes), the
# stderr report, the kubelet split and the drift preview.
# usage: test-convert.sh TOOL SHARED_DATA HAVE_AWS SOURCE_ROOT
tool=$1
data=$2
src=$4
if [ "$3" != "true" ]; then
	echo "1..0 # SKIP libkarpenter-aws is not built (EC2NodeClass conversions)"
	exit 0
fi
. "$(dirname "$0")/tap.sh"

# ---- upstream's examples: every one converts to v1 objects that validate,
# but two AWSNodeTemplates whose `aws-ids: ami-123,ami456` gives an AMI id
# the v1 CRD's pattern refuses (EC2NodeClass validation, issue 21)
if [ -d "$data/manifests/v1beta1" ]; then
	for f in "$data"/manifests/v1beta1/*.yaml "$data"/manifests/v1alpha5/*.yaml \
		 "$data"/manifests/v1alpha5/launchtemplates/*.yaml; do
		run_cmd "$tool" convert -f "$f"
		case $f in
		*/launchtemplates/al2-custom-ami.yaml | */launchtemplates/custom-family.yaml)
			name=$(sed -n 's/^  name: //p' "$f" | tail -n 1)
			want="EC2NodeClass/$name: spec.amiSelectorTerms[1].id: Invalid value: \"ami456\": spec.amiSelectorTerms[1].id in body should match 'ami-[0-9a-z]+'"
			check "$(basename "$(dirname "$f")")/$(basename "$f") converts to an invalid EC2NodeClass" \
				sh -c '[ "$1" -eq 1 ] && printf "%s\n" "$2" | grep -qxF "$3"' _ "$rc" "$errout" "$want"
			;;
		*)
			check "$(basename "$(dirname "$f")")/$(basename "$f") converts and validates" \
				[ "$rc" -eq 0 ]
			;;
		esac
		check "$(basename "$f"): nothing older than v1 is left" \
			sh -c '! printf "%s\n" "$1" | grep -q "^apiVersion: .*/v1\(beta1\|alpha[15]\)$"' \
			_ "$out"
	done
	# v1 -> v1beta1 -> v1 gives the same v1 output
	"$tool" convert -f "$data/manifests/v1beta1/general-purpose.yaml" >"$tmpd/v1.yaml" 2>/dev/null
	"$tool" convert --to v1beta1 -f "$tmpd/v1.yaml" >"$tmpd/beta.yaml" 2>/dev/null
	run_cmd "$tool" convert -f "$tmpd/beta.yaml"
	check "v1 -> v1beta1 -> v1 round trip" [ "$out" = "$(cat "$tmpd/v1.yaml")" ]
else
	echo "# SKIP examples: $data/manifests is absent (meson option shared_data)"
fi

# ---- a v1beta1 example, its report and output
cat >"$tmpd/beta.yaml" <<'EOF'
apiVersion: karpenter.sh/v1beta1
kind: NodePool
metadata:
  name: default
spec:
  disruption:
    consolidationPolicy: WhenUnderutilized
    expireAfter: 720h
  template:
    spec:
      requirements:
      - key: karpenter.sh/capacity-type
        operator: In
        values: ["on-demand"]
      kubelet:
        maxPods: 110
      nodeClassRef:
        apiVersion: karpenter.k8s.aws/v1beta1
        kind: EC2NodeClass
        name: default
---
apiVersion: karpenter.k8s.aws/v1beta1
kind: EC2NodeClass
metadata:
  name: default
spec:
  amiFamily: AL2
  role: KarpenterNodeRole-demo
  subnetSelectorTerms:
  - tags: {karpenter.sh/discovery: demo}
  securityGroupSelectorTerms:
  - tags: {karpenter.sh/discovery: demo}
EOF
run_cmd "$tool" convert -f "$tmpd/beta.yaml"
check "v1beta1: exit 0" [ "$rc" -eq 0 ]
check "v1beta1: expireAfter moved" contains "$errout" \
	"moved: NodePool/default: spec.disruption.expireAfter -> spec.template.spec.expireAfter"
check "v1beta1: policy renamed" contains "$errout" \
	"renamed: NodePool/default: spec.disruption.consolidationPolicy: WhenUnderutilized -> WhenEmptyOrUnderutilized"
check "v1beta1: kubelet moved to the class" contains "$errout" \
	"moved: NodePool/default: spec.template.spec.kubelet -> EC2NodeClass/default spec.kubelet"
check "v1beta1: alias" contains "$out" "  - alias: al2@latest"
check "v1beta1: kubelet annotation" contains "$out" \
	'compatibility.karpenter.sh/v1beta1-kubelet-conversion: "{\"maxPods\":110}"'
check "v1beta1: class kubelet" contains "$out" "  kubelet:
    maxPods: 110"
check "v1beta1: no metadataOptions default" sh -c '! printf "%s" "$1" | grep -q metadataOptions' _ "$out"

# stdin, JSON output: several objects are a v1 List, one is the object
run_cmd sh -c "\"$tool\" convert -o json -f - <\"$tmpd/beta.yaml\""
check "stdin, -o json: a List" contains "$out" '"kind": "List"'
run_cmd sh -c "printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n' | \"$tool\" convert -o json -f -"
check "-o json: one object as itself" [ "$(printf '%s' "$out" | head -2)" = '{
    "apiVersion": "v1",' ]

# --to v1beta1 undoes it
"$tool" convert -f "$tmpd/beta.yaml" >"$tmpd/v1.yaml" 2>/dev/null
run_cmd "$tool" convert --to v1beta1 -f "$tmpd/v1.yaml"
check "--to v1beta1: exit 0" [ "$rc" -eq 0 ]
check "--to v1beta1: kubelet back in the NodePool" contains "$out" "      kubelet:
        maxPods: 110"
check "--to v1beta1: amiFamily back" contains "$out" "  amiFamily: AL2"
check "--to v1beta1: class kubelet dropped" contains "$errout" \
	"dropped: EC2NodeClass/default: spec.kubelet"

# ---- the kubelet split
cat >"$tmpd/split.yaml" <<'EOF'
apiVersion: karpenter.k8s.aws/v1beta1
kind: EC2NodeClass
metadata: {name: default}
spec: {amiFamily: AL2023, role: r, subnetSelectorTerms: [{id: subnet-1}], securityGroupSelectorTerms: [{id: sg-1}]}
---
apiVersion: karpenter.sh/v1beta1
kind: NodePool
metadata: {name: a}
spec: {template: {spec: {requirements: [], kubelet: {maxPods: 10}, nodeClassRef: {name: default}}}}
---
apiVersion: karpenter.sh/v1beta1
kind: NodePool
metadata: {name: b}
spec: {template: {spec: {requirements: [], kubelet: {maxPods: 20}, nodeClassRef: {name: default}}}}
EOF
run_cmd "$tool" convert -f "$tmpd/split.yaml"
check "split: exit 0 (the copy validates)" [ "$rc" -eq 0 ]
check "split: reported" contains "$errout" \
	"split: EC2NodeClass/default-b from EC2NodeClass/default for NodePool/b (its kubelet differs)"
check "split: the copy right after the class" [ "$(printf '%s\n' "$out" | grep '^  name: ' | tr -d ' ' | tr '\n' ,)" = "name:default,name:default-b,name:a,name:b," ]

# ---- v1alpha5
cat >"$tmpd/alpha.yaml" <<'EOF'
apiVersion: karpenter.sh/v1alpha5
kind: Provisioner
metadata: {name: default}
spec:
  ttlSecondsAfterEmpty: 30
  ttlSecondsUntilExpired: 2592000
  providerRef: {name: default}
---
apiVersion: karpenter.k8s.aws/v1alpha1
kind: AWSNodeTemplate
metadata: {name: default}
spec:
  subnetSelector: {karpenter.sh/discovery: demo}
  securityGroupSelector: {karpenter.sh/discovery: demo}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  template:
    metadata:
      annotations: {karpenter.sh/do-not-evict: "true"}
EOF
run_cmd "$tool" convert -f "$tmpd/alpha.yaml"
check "v1alpha5: exit 0" [ "$rc" -eq 0 ]
check "v1alpha5: WhenEmpty" contains "$out" "    consolidationPolicy: WhenEmpty
    consolidateAfter: 30s"
check "v1alpha5: expireAfter" contains "$out" "      expireAfter: 720h0m0s"
check "v1alpha5: role placeholder" contains "$out" '  role: $KARPENTER_NODE_ROLE'
check "v1alpha5: role warning" contains "$errout" \
	'warning: EC2NodeClass/default: spec.role is $KARPENTER_NODE_ROLE'
check "v1alpha5: workload warning" contains "$errout" \
	"warning: Deployment/web: the pod template carries karpenter.sh/do-not-evict"
check "v1alpha5: the Deployment passes through" contains "$out" "kind: Deployment"
printf 'apiVersion: karpenter.k8s.aws/v1alpha1\nkind: AWSNodeTemplate\nmetadata: {name: lt}\nspec: {launchTemplate: mine}\n' >"$tmpd/lt.yaml"
run_cmd "$tool" convert -f "$tmpd/lt.yaml"
check "launchTemplate: exit 1" [ "$rc" -eq 1 ]
check "launchTemplate: why" contains "$errout" \
	"AWSNodeTemplate/lt: spec.launchTemplate: v1 has no launch templates"
check "launchTemplate: no output" [ -z "$out" ]

# ---- invalid v1 output names the object and field
printf 'apiVersion: karpenter.sh/v1beta1\nkind: NodePool\nmetadata: {name: bad}\nspec: {weight: 101, template: {spec: {requirements: [], nodeClassRef: {name: default}}}}\n' >"$tmpd/bad.yaml"
run_cmd "$tool" convert -f "$tmpd/bad.yaml"
check "invalid output: exit 1" [ "$rc" -eq 1 ]
check "invalid output: object and field" contains "$errout" "NodePool/bad: spec.weight: Invalid value: 101"

# ---- usage
run_cmd "$tool" convert --to v2 -f "$tmpd/beta.yaml"
check "--to v2: exit 2" [ "$rc" -eq 2 ]
run_cmd "$tool" convert -o wide -f "$tmpd/beta.yaml"
check "-o wide: exit 2" [ "$rc" -eq 2 ]
run_cmd "$tool" convert
check "no -f: exit 2" [ "$rc" -eq 2 ]
run_cmd "$tool" convert -f "$tmpd/missing.yaml"
check "missing file: exit 2" [ "$rc" -eq 2 ]
printf 'a: [\n' >"$tmpd/broken.yaml"
run_cmd "$tool" convert -f "$tmpd/broken.yaml"
check "broken YAML: exit 1" [ "$rc" -eq 1 ]

# ---- drift preview
cat >"$tmpd/drift.yaml" <<'EOF'
apiVersion: karpenter.sh/v1beta1
kind: NodePool
metadata: {name: default}
spec:
  template:
    spec:
      requirements:
      - {key: karpenter.sh/capacity-type, operator: In, values: [on-demand]}
      nodeClassRef: {name: default}
---
apiVersion: karpenter.sh/v1beta1
kind: NodeClaim
metadata:
  name: default-a
  labels: {karpenter.sh/nodepool: default, karpenter.sh/capacity-type: on-demand}
  annotations: {karpenter.sh/nodepool-hash: "123", karpenter.sh/nodepool-hash-version: v2}
spec:
  requirements: [{key: karpenter.sh/capacity-type, operator: In, values: [on-demand]}]
  nodeClassRef: {name: default}
status:
  conditions: [{type: Launched, status: "True", lastTransitionTime: "2024-01-01T00:00:00Z"}]
---
apiVersion: karpenter.sh/v1beta1
kind: NodeClaim
metadata:
  name: default-b
  labels: {karpenter.sh/nodepool: default, karpenter.sh/capacity-type: spot}
spec:
  requirements: [{key: karpenter.sh/capacity-type, operator: In, values: [spot]}]
  nodeClassRef: {name: default}
status:
  conditions: [{type: Launched, status: "True", lastTransitionTime: "2024-01-01T00:00:00Z"}]
---
apiVersion: karpenter.sh/v1beta1
kind: NodeClaim
metadata:
  name: orphan
spec:
  requirements: []
  nodeClassRef: {name: default}
EOF
run_cmd "$tool" convert --drift-preview -f "$tmpd/drift.yaml"
check "drift preview: exit 0" [ "$rc" -eq 0 ]
check "drift preview: a hash of the old version is not drift" contains "$errout" \
	"drift: NodeClaim/default-a: not drifted: static drift not evaluated: hash versions differ (NodePool v3, NodeClaim v2)"
check "drift preview: requirements drift" contains "$errout" \
	"drift: NodeClaim/default-b: drifted (RequirementsDrifted): "
check "drift preview: no NodePool" contains "$errout" \
	"drift: NodeClaim/orphan: unknown: the NodeClaim has no karpenter.sh/nodepool label"
check "drift preview: summary" contains "$errout" "drift preview: 1 of 3 NodeClaims would drift"
# the node class's static drift: its hash against the NodeClaim's, at the
# same hash version (upstream's areStaticFieldsDrifted)
cat >"$tmpd/classdrift.yaml" <<'EOF'
apiVersion: karpenter.k8s.aws/v1beta1
kind: EC2NodeClass
metadata: {name: default}
spec: {amiFamily: AL2023, role: r, subnetSelectorTerms: [{id: subnet-1}], securityGroupSelectorTerms: [{id: sg-1}]}
---
apiVersion: karpenter.sh/v1beta1
kind: NodePool
metadata: {name: default}
spec: {template: {spec: {requirements: [], nodeClassRef: {name: default}}}}
---
apiVersion: karpenter.sh/v1beta1
kind: NodeClaim
metadata:
  name: stale
  labels: {karpenter.sh/nodepool: default}
  annotations: {karpenter.k8s.aws/ec2nodeclass-hash: "1", karpenter.k8s.aws/ec2nodeclass-hash-version: v6}
spec: {requirements: [], nodeClassRef: {name: default}}
status:
  conditions: [{type: Launched, status: "True", lastTransitionTime: "2024-01-01T00:00:00Z"}]
---
apiVersion: karpenter.sh/v1beta1
kind: NodeClaim
metadata:
  name: older
  labels: {karpenter.sh/nodepool: default}
  annotations: {karpenter.k8s.aws/ec2nodeclass-hash: "1", karpenter.k8s.aws/ec2nodeclass-hash-version: v2}
spec: {requirements: [], nodeClassRef: {name: default}}
status:
  conditions: [{type: Launched, status: "True", lastTransitionTime: "2024-01-01T00:00:00Z"}]
EOF
run_cmd "$tool" convert --drift-preview -f "$tmpd/classdrift.yaml"
check "drift preview: node class hash" contains "$errout" \
	"drift: NodeClaim/stale: drifted (NodeClassDrift): its EC2NodeClass/default hash differs from the NodeClaim's"
check "drift preview: node class hash of another version" contains "$errout" "drift: NodeClaim/older: not drifted"
run_cmd "$tool" convert --to v1beta1 --drift-preview -f "$tmpd/drift.yaml"
check "drift preview needs --to v1: exit 2" [ "$rc" -eq 2 ]

# ---- Lists inside Lists are expanded, as every command reads them (found
# by fuzz-convert: each conversion unwrapped one level, so converting the
# output again gave other objects)
printf '{"apiVersion": "v1", "kind": "List", "items": [{"apiVersion": "v1", "kind": "List", "items": [{"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "a"}}, {"apiVersion": "v1", "kind": "List", "items": [{"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "b"}}]}]}]}\n' >"$tmpd/nested.json"
run_cmd "$tool" convert -o json -f "$tmpd/nested.json"
check "nested Lists: exit 0" [ "$rc" -eq 0 ]
check "nested Lists: one List of the two objects" sh -c '[ "$(printf "%s\n" "$1" | grep -c "\"kind\": \"List\"")" -eq 1 ] && [ "$(printf "%s\n" "$1" | grep -c "\"kind\": \"Namespace\"")" -eq 2 ]' _ "$out"

# ---- the README's examples are what the tool prints
fx=$src/tests/tools/fixtures
for f in convert-nodepool convert-provisioner; do
	readme=$(sed -n "/^\$ kubectl-karpenter convert -f tests\/tools\/fixtures\/$f.yaml\$/,/^\`\`\`\$/p" "$src/README.md" | sed '1d;$d')
	run_cmd sh -c "\"$tool\" convert -f \"$fx/$f.yaml\" 2>&1"
	check "README: convert $f" sh -c '[ -n "$1" ] && [ "$1" = "$2" ]' _ "$readme" "$out"
done
readme=$(sed -n '/^\$ kubectl-karpenter convert --drift-preview/,/^```$/p' "$src/README.md" | sed '1,2d;$d')
run_cmd sh -c "\"$tool\" convert --drift-preview -f \"$fx/convert-nodepool.yaml\" -f \"$fx/convert-nodeclaims.yaml\" 2>&1 >/dev/null | grep drift"
check "README: drift preview" sh -c '[ -n "$1" ] && [ "$1" = "$2" ]' _ "$readme" "$out"

finish
