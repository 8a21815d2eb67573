#!/bin/sh
# kubectl-karpenter validate: output lines and exit codes (0 valid, 1 invalid, 2 usage)
# over the upstream v1 example manifests and this repository's fixtures.
# usage: test-validate.sh TOOL SHARED_DATA_DIR FIXTURES_DIR HAVE_AWS
tool=$1 data=$2 fx=$3 aws=$4
. "$(dirname "$0")/tap.sh"

skip() {
	n=$((n + 1))
	echo "ok $n - $1 # SKIP $2"
}
# same NAME EXPECTED_FILE: stdout equals the file exactly
same() {
	printf '%s\n' "$out" >"$tmpd/got"
	check "$1" cmp -s "$2" "$tmpd/got"
	cmp -s "$2" "$tmpd/got" || diff "$2" "$tmpd/got" | sed 's/^/# /'
}

# Without libkarpenter-aws, EC2NodeClasses are skipped with this reason.
AWS_SKIP="is validated by the AWS provider, not in this build"

# ---------------------------------------------------------------- usage
run_cmd "$tool" validate
check "no -f is a usage error (exit 2)" [ "$rc" -eq 2 ]
check "no -f says what is missing" contains "$errout" "kubectl-karpenter validate: no input: give -f FILE (or -f - for stdin)"
check "no -f prints the usage" contains "$errout" "Usage: kubectl-karpenter validate -f FILE"

run_cmd "$tool" validate --frobnicate -f "$fx/cli-mixed.yaml"
check "unknown flag exits 2" [ "$rc" -eq 2 ]
check "unknown flag is named" contains "$errout" 'unknown argument "--frobnicate"'
check "unknown flag prints nothing on stdout" [ -z "$out" ]

run_cmd "$tool" validate -f
check "-f without a file exits 2" [ "$rc" -eq 2 ]
check "-f without a file is explained" contains "$errout" "-f needs a file name"

run_cmd "$tool" validate -f "$fx/cli-mixed.yaml" -f "$tmpd/missing.yaml"
check "unreadable file exits 2" [ "$rc" -eq 2 ]
check "unreadable file is named" contains "$errout" "kubectl-karpenter validate: cannot read \"$tmpd/missing.yaml\": No such file or directory"
check "unreadable file: nothing validated" [ -z "$out" ]

# Inputs are bounded: one byte over --max-file-size is refused before it
# is decoded (a sparse file, so the test writes nothing real).
truncate -s $((64 * 1024 * 1024 + 1)) "$tmpd/huge.yaml"
run_cmd "$tool" validate -f "$tmpd/huge.yaml" --max-file-size=64Mi
check "oversized file exits 2" [ "$rc" -eq 2 ]
check "oversized file is named with the limit" contains "$errout" "kubectl-karpenter validate: \"$tmpd/huge.yaml\" is larger than 64 MiB, the most a manifest may be; raise it with --max-file-size"
rm -f "$tmpd/huge.yaml"

run_cmd "$tool" validate --strict=maybe -f "$fx/cli-mixed.yaml"
check "bad --strict value exits 2" [ "$rc" -eq 2 ]
check "bad --strict value is named" contains "$errout" 'invalid value "maybe" for --strict (true or false)'

run_cmd "$tool" validate --help
check "validate --help exits 0" [ "$rc" -eq 0 ]
check "validate --help documents --strict" contains "$out" "--strict=false       drop unknown fields with a warning"

run_cmd "$tool" --help
check "the command list has validate" contains "$out" "  validate   Validate NodePools, NodeClaims and node classes offline"

# ------------------------------------------------------- upstream manifests
if [ -d "$data/manifests/v1" ]; then
	set --
	for f in "$data"/manifests/v1/*.yaml; do set -- "$@" -f "$f"; done
	run_cmd "$tool" validate "$@"
	check "v1 manifests: exit 1 (one is invalid)" [ "$rc" -eq 1 ]
	cat >"$tmpd/want" <<'EOF'
NodePool/windows2022: spec.template.spec.nodeClassRef.group: Invalid value: "karpenter.k8s.aws/v1": spec.template.spec.nodeClassRef.group in body should match '^[^/]*$'
EOF
	printf '%s\n' "$out" | grep -v "^EC2NodeClass/[a-z0-9-]*: skipped: karpenter.k8s.aws/v1 EC2NodeClass $AWS_SKIP\$" >"$tmpd/got"
	check "v1 manifests: the only problem is windows-custom-userdata's group" cmp -s "$tmpd/want" "$tmpd/got"
	if [ "$aws" = true ]; then
		check "v1 manifests: every EC2NodeClass validated (AWS build)" [ "$errout" = "kubectl-karpenter validate: 45 objects in 22 files: 44 valid, 1 invalid (1 problem), 0 skipped" ]
	else
		check "v1 manifests: 22 EC2NodeClasses skipped" [ "$(printf '%s\n' "$out" | grep -c ": skipped: karpenter.k8s.aws/v1 EC2NodeClass $AWS_SKIP\$")" -eq 22 ]
		check "v1 manifests: summary" [ "$errout" = "kubectl-karpenter validate: 45 objects in 22 files: 22 valid, 1 invalid (1 problem), 22 skipped" ]
	fi

	bad=0
	for f in "$data"/manifests/v1/*.yaml; do
		case "$f" in */windows-custom-userdata.yaml) continue ;; esac
		"$tool" validate -f "$f" >"$tmpd/one" 2>&1 || { bad=$((bad + 1)); echo "# $f"; sed 's/^/#   /' "$tmpd/one"; }
	done
	run_cmd true
	check "every other v1 manifest alone: exit 0" [ "$bad" -eq 0 ]

	run_cmd sh -c '"$1" validate -f - <"$2"' _ "$tool" "$data/manifests/v1/windows-custom-userdata.yaml"
	check "stdin (-f -): exit 1" [ "$rc" -eq 1 ]
	if [ "$aws" = true ]; then
		cat >"$tmpd/want" <<EOF
NodePool/windows2022: spec.template.spec.nodeClassRef.group: Invalid value: "karpenter.k8s.aws/v1": spec.template.spec.nodeClassRef.group in body should match '^[^/]*\$'
EOF
		same "stdin (-f -): exact output" "$tmpd/want"
		check "stdin (-f -): summary" [ "$errout" = "kubectl-karpenter validate: 2 objects in 1 file: 1 valid, 1 invalid (1 problem), 0 skipped" ]
	else
		cat >"$tmpd/want" <<EOF
NodePool/windows2022: spec.template.spec.nodeClassRef.group: Invalid value: "karpenter.k8s.aws/v1": spec.template.spec.nodeClassRef.group in body should match '^[^/]*\$'
EC2NodeClass/windows2022: skipped: karpenter.k8s.aws/v1 EC2NodeClass $AWS_SKIP
EOF
		same "stdin (-f -): exact output" "$tmpd/want"
		check "stdin (-f -): summary" [ "$errout" = "kubectl-karpenter validate: 2 objects in 1 file: 0 valid, 1 invalid (1 problem), 1 skipped" ]
	fi

	run_cmd "$tool" validate -f "$data/manifests/v1/general-purpose.yaml"
	check "a valid manifest: exit 0" [ "$rc" -eq 0 ]
	if [ "$aws" = true ]; then
		check "a valid manifest: no output" [ -z "$out" ]
		check "a valid manifest: summary" [ "$errout" = "kubectl-karpenter validate: 2 objects in 1 file: 2 valid, 0 invalid (0 problems), 0 skipped" ]
	else
		check "a valid manifest: only the skip line" [ "$out" = "EC2NodeClass/default: skipped: karpenter.k8s.aws/v1 EC2NodeClass $AWS_SKIP" ]
		check "a valid manifest: summary" [ "$errout" = "kubectl-karpenter validate: 2 objects in 1 file: 1 valid, 0 invalid (0 problems), 1 skipped" ]
	fi
else
	for t in "v1 manifests" "every other v1 manifest alone" "stdin (-f -)" "a valid manifest"; do
		skip "$t" "upstream data $data/manifests/v1 is missing (set -Dshared_data=DIR)"
	done
fi

# --------------------------------------------------------------- fixtures
run_cmd "$tool" validate -f "$fx/nodepool-valid.yaml" -f "$fx/nodepool-static-valid.yaml" \
	-f "$fx/nodeclaim-valid.yaml" -f "$fx/kwok-nodeclass-valid.yaml"
check "valid fixtures: exit 0" [ "$rc" -eq 0 ]
check "valid fixtures: no output" [ -z "$out" ]
check "valid fixtures: summary" [ "$errout" = "kubectl-karpenter validate: 4 objects in 4 files: 4 valid, 0 invalid (0 problems), 0 skipped" ]

run_cmd "$tool" validate -f "$fx/cli-invalid-nodepool.yaml"
check "invalid NodePool: exit 1" [ "$rc" -eq 1 ]
cat >"$tmpd/want" <<'EOF'
NodePool/invalid: spec.disruption.consolidateAfter: Invalid value: "1hr": spec.disruption.consolidateAfter in body should match '^(([0-9]+(s|m|h))+|Never)$'
NodePool/invalid: spec.weight: Invalid value: 101: spec.weight in body should be less than or equal to 100
NodePool/invalid: spec.disruption.budgets: Invalid value: 'schedule' must be set with 'duration'
NodePool/invalid: spec.template.metadata.labels: Invalid value: label domain "karpenter.sh" is restricted
NodePool/invalid: spec.template.spec.requirements: Invalid value: "array": type conversion error from 'string' to 'int' evaluating rule: requirements operator 'Gt', 'Lt', 'Gte', or 'Lte' must have a single positive integer value
NodePool/invalid: spec.template.metadata.labels: invalid key name "karpenter.sh/team" in labels, using label karpenter.sh/team is not allowed as it might interfere with the internal provisioning logic; specify a well known label: [karpenter.sh/capacity-type karpenter.sh/nodepool kubernetes.io/arch kubernetes.io/os node.kubernetes.io/instance-type node.kubernetes.io/windows-build topology.kubernetes.io/region topology.kubernetes.io/zone], or a custom label that does not use a restricted domain: [karpenter.sh]
NodePool/invalid: spec.template.spec.requirements[1]: invalid value: key node.kubernetes.io/instance-type with operator Gt must have a single positive integer value in requirements, restricted
EOF
same "invalid NodePool: every problem, in the API server's order, then runtime checks" "$tmpd/want"
# a schedule the CRD's pattern accepts and cron refuses is stored by the API
# server (disrupt fails closed for that NodePool): a warning, not a problem
check "invalid NodePool: the cron schedule is a warning" [ "$errout" = 'Warning: NodePool/invalid: spec.disruption.budgets[0].schedule: Invalid value: "0 9 * * sat-sun": day-of-week field "sat-sun": range start SAT (6) is after end SUN (0)
kubectl-karpenter validate: 1 object in 1 file: 0 valid, 1 invalid (7 problems), 0 skipped' ]

run_cmd "$tool" validate --runtime=false -f "$fx/cli-invalid-nodepool.yaml"
check "--runtime=false: exit 1" [ "$rc" -eq 1 ]
head -n 5 "$tmpd/want" >"$tmpd/want5"
same "--runtime=false: only the API server's problems" "$tmpd/want5"

run_cmd "$tool" validate -f "$fx/cli-mixed.yaml"
check "mixed List: exit 1" [ "$rc" -eq 1 ]
if [ "$aws" = true ]; then
	cat >"$tmpd/want" <<EOF
EC2NodeClass/default: spec.amiSelectorTerms: Required value
EC2NodeClass/default: spec.securityGroupSelectorTerms: Required value
EC2NodeClass/default: spec.subnetSelectorTerms: Required value
EC2NodeClass/default: <nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation
ConfigMap/settings: skipped: v1 ConfigMap is not a Karpenter kind
NodeOverlay/overlay: skipped: karpenter.sh/v1alpha1 NodeOverlay is not validated by this build
NodePool/old: apiVersion: Invalid value: "karpenter.sh/v1beta1": the v1 CRDs serve karpenter.sh/v1 only (no matches for kind "NodePool" in version "karpenter.sh/v1beta1")
EOF
	same "mixed List: the EC2NodeClass's problems, skipped kinds and an unserved version" "$tmpd/want"
	check "mixed List: summary" [ "$errout" = "kubectl-karpenter validate: 6 objects in 1 file: 2 valid, 2 invalid (5 problems), 2 skipped" ]
else
	cat >"$tmpd/want" <<EOF
EC2NodeClass/default: skipped: karpenter.k8s.aws/v1 EC2NodeClass $AWS_SKIP
ConfigMap/settings: skipped: v1 ConfigMap is not a Karpenter kind
NodeOverlay/overlay: skipped: karpenter.sh/v1alpha1 NodeOverlay is not validated by this build
NodePool/old: apiVersion: Invalid value: "karpenter.sh/v1beta1": the v1 CRDs serve karpenter.sh/v1 only (no matches for kind "NodePool" in version "karpenter.sh/v1beta1")
EOF
	same "mixed List: skipped kinds and an unserved version" "$tmpd/want"
	check "mixed List: summary" [ "$errout" = "kubectl-karpenter validate: 6 objects in 1 file: 2 valid, 1 invalid (1 problem), 3 skipped" ]
fi

# ------------------------------------------------------ EC2NodeClass (AWS)
if [ "$aws" = true ]; then
	cat >"$tmpd/aws.yaml" <<'EOF'
apiVersion: karpenter.k8s.aws/v1
kind: EC2NodeClass
metadata: {name: bad}
spec:
  role: r
  instanceProfile: p
  amiFamily: AL2
  amiSelectorTerms: [{alias: al2023@latest}]
  subnetSelectorTerms: [{id: subnet-1, tags: {a: b}}]
  securityGroupSelectorTerms: [{id: sg-1}]
  tags: {karpenter.sh/nodepool: x}
---
apiVersion: karpenter.k8s.aws/v1beta1
kind: EC2NodeClass
metadata: {name: old}
spec: {}
---
apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: aws}
spec:
  template:
    metadata: {labels: {karpenter.k8s.aws/team: a}}
    spec:
      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: bad}
      requirements:
      - {key: karpenter.k8s.aws/instance-family, operator: In, values: [m5]}
      - {key: karpenter.k8s.aws/instance-pods, operator: Exists}
EOF
	run_cmd "$tool" validate -f "$tmpd/aws.yaml"
	check "EC2NodeClass: exit 1" [ "$rc" -eq 1 ]
	cat >"$tmpd/want" <<'EOF'
EC2NodeClass/bad: spec: Invalid value: must specify exactly one of ['role', 'instanceProfile']
EC2NodeClass/bad: spec: Invalid value: if set, amiFamily must be 'AL2023' or 'Custom' when using an AL2023 alias
EC2NodeClass/bad: spec.subnetSelectorTerms: Invalid value: 'id' is mutually exclusive, cannot be set with a combination of other fields in a subnet selector term
EC2NodeClass/bad: spec.tags: Invalid value: tag contains a restricted tag matching karpenter.sh/nodepool
EC2NodeClass/old: apiVersion: Invalid value: "karpenter.k8s.aws/v1beta1": the CRD serves karpenter.k8s.aws/v1 only (no matches for kind "EC2NodeClass" in version "karpenter.k8s.aws/v1beta1")
NodePool/aws: spec.template.metadata.labels: Invalid value: label domain "karpenter.k8s.aws" is restricted
NodePool/aws: spec.template.spec.requirements[1].key: Invalid value: "karpenter.k8s.aws/instance-pods": label domain "karpenter.k8s.aws" is restricted
EOF
	same "EC2NodeClass and the AWS NodePool rules: exact output" "$tmpd/want"
	check "EC2NodeClass: summary" [ "$errout" = "kubectl-karpenter validate: 3 objects in 1 file: 0 valid, 3 invalid (7 problems), 0 skipped" ]
	# the AWS rules apply only to NodePools of the karpenter.k8s.aws group
	sed -n '/^kind: NodePool/,$p' "$tmpd/aws.yaml" | sed 's/group: karpenter.k8s.aws,/group: example.com,/' >"$tmpd/body.yaml"
	{ echo "apiVersion: karpenter.sh/v1"; cat "$tmpd/body.yaml"; } >"$tmpd/other.yaml"
	run_cmd "$tool" validate -f "$tmpd/other.yaml"
	check "another group's NodePool: the AWS rules do not apply" sh -c '[ "$1" -eq 0 ] && [ -z "$2" ]' _ "$rc" "$out"
fi

run_cmd "$tool" validate -f "$fx/cli-nodeclaim.json"
check "JSON NodeClaim: exit 1" [ "$rc" -eq 1 ]
cat >"$tmpd/want" <<'EOF'
NodeClaim/json: spec.expireAfter: Invalid value: "30d": spec.expireAfter in body should match '^(([0-9]+(s|m|h))+|Never)$'
NodeClaim/json: spec.nodeClassRef.name: Invalid value: "": name may not be empty
NodeClaim/json: spec.requirements[0].key: Invalid value: "kubernetes.io/hostname": label "kubernetes.io/hostname" is restricted
EOF
same "JSON NodeClaim: exact output" "$tmpd/want"

run_cmd "$tool" validate -f "$fx/cli-unknown-field.yaml"
check "unknown field, strict: exit 1" [ "$rc" -eq 1 ]
check "unknown field, strict: the decode error names the file and the field" [ "$out" = "$fx/cli-unknown-field.yaml: NodePool/typo: strict decoding error: unknown field \"spec.template.spec.requirement\"" ]
check "unknown field, strict: summary" [ "$errout" = "kubectl-karpenter validate: 0 objects in 1 file: 0 valid, 0 invalid (0 problems), 0 skipped; 1 file could not be decoded" ]

run_cmd "$tool" validate --strict=false -f "$fx/cli-unknown-field.yaml"
check "unknown field, --strict=false: exit 1" [ "$rc" -eq 1 ]
cat >"$tmpd/want" <<'EOF'
NodePool/typo: spec.template.spec.requirements: Required value
NodePool/typo: <nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation
EOF
same "unknown field, --strict=false: the field is dropped, then missed" "$tmpd/want"
check "unknown field, --strict=false: warning on stderr" contains "$errout" 'Warning: NodePool/typo: unknown field "spec.template.spec.requirement"'

run_cmd "$tool" validate -f "$fx/cli-broken.yaml" -f "$fx/nodeclaim-valid.yaml"
check "syntax error: exit 1" [ "$rc" -eq 1 ]
check "syntax error: names the file, document, line and column" [ "$out" = "$fx/cli-broken.yaml: document 1: line 4, column 5: did not find expected ',' or '}' while parsing a flow mapping" ]
check "syntax error: the other file is still validated" [ "$errout" = "kubectl-karpenter validate: 1 object in 2 files: 1 valid, 0 invalid (0 problems), 0 skipped; 1 file could not be decoded" ]

run_cmd "$tool" validate --filename="$fx/kwok-nodeclass-valid.yaml" "-f$fx/nodeclaim-valid.yaml" --strict=true --runtime=true
check "--filename= and -fFILE forms: exit 0" [ "$rc" -eq 0 ]
check "--filename= and -fFILE forms: summary" [ "$errout" = "kubectl-karpenter validate: 2 objects in 2 files: 2 valid, 0 invalid (0 problems), 0 skipped" ]
# ------------------------------------------- the API server's decode messages
# A value of the wrong JSON type, a time that is not a date-time and a
# quantity that fails the CRD's pattern are worded as kube-apiserver words
# them (kube-openapi), after the object and field path.
np_head='apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: t}
spec:'
printf '%s\n%s\n' "$np_head" '  template: {spec: {nodeClassRef: {group: karpenter.kwok.sh, kind: KWOKNodeClass, name: 5}, requirements: []}}' >"$tmpd/type.yaml"
run_cmd "$tool" validate -f "$tmpd/type.yaml"
check "type error: exit 1" [ "$rc" -eq 1 ]
check "type error: must be of type string" [ "$out" = "$tmpd/type.yaml: NodePool/t: spec.template.spec.nodeClassRef.name: Invalid value: \"integer\": spec.template.spec.nodeClassRef.name in body must be of type string: \"integer\"" ]

printf '%s\n%s\n' "$np_head" '  template: {spec: {nodeClassRef: {group: karpenter.kwok.sh, kind: KWOKNodeClass, name: c}, requirements: [], taints: [{key: a, effect: NoSchedule, timeAdded: "2024-13-01T00:00:00Z"}]}}' >"$tmpd/time.yaml"
run_cmd "$tool" validate -f "$tmpd/time.yaml"
check "invalid time: exit 1" [ "$rc" -eq 1 ]
check "invalid time: must be of type date-time" [ "$out" = "$tmpd/time.yaml: NodePool/t: spec.template.spec.taints[0].timeAdded: Invalid value: \"2024-13-01T00:00:00Z\": spec.template.spec.taints[0].timeAdded in body must be of type date-time: \"2024-13-01T00:00:00Z\"" ]

printf '%s\n%s\n%s\n' "$np_head" '  limits: {cpu: 2x}' '  template: {spec: {nodeClassRef: {group: karpenter.kwok.sh, kind: KWOKNodeClass, name: c}, requirements: []}}' >"$tmpd/quantity.yaml"
run_cmd "$tool" validate -f "$tmpd/quantity.yaml"
check "quantity pattern: exit 1" [ "$rc" -eq 1 ]
if [ -f "$data/crds/karpenter.sh_nodepools.yaml" ]; then
	# the CRD's own pattern, read from the CRD
	pat=$(grep -m1 -F 'pattern: ^(\+|-)?(([0-9]+' "$data/crds/karpenter.sh_nodepools.yaml" | sed 's/^ *pattern: //')
	check "quantity pattern: the CRD has one" [ -n "$pat" ]
	check "quantity pattern: quotes the CRD's pattern" [ "$out" = "$tmpd/quantity.yaml: NodePool/t: spec.limits[cpu]: Invalid value: \"2x\": spec.limits.cpu in body should match '$pat'" ]
else
	skip "quantity pattern: quotes the CRD's pattern" "upstream data $data/crds is missing (set -Dshared_data=DIR)"
fi

# ----------------------------------- nodeClassRef label key: valid, with a warning
# group/lowercase(kind) is the NodeClaim label key; the CRD does not bound
# the group's length, so the API server accepts a 300-byte group.
group=$(printf 'a%.0s' $(seq 1 300))
printf '%s\n%s\n' "$np_head" "  template: {spec: {nodeClassRef: {group: $group, kind: KWOKNodeClass, name: c}, requirements: []}}" >"$tmpd/labelkey.yaml"
run_cmd "$tool" validate -f "$tmpd/labelkey.yaml"
check "invalid NodeClaim label key: still valid (exit 0)" [ "$rc" -eq 0 ]
check "invalid NodeClaim label key: no problem on stdout" [ -z "$out" ]
check "invalid NodeClaim label key: warning" contains "$errout" "Warning: NodePool/t: spec.template.spec.nodeClassRef: NodeClaim label key \"$(printf 'a%.0s' $(seq 1 48))\"... (group \"/\" lowercase(kind), 300 + 1 + 13 bytes) is not a valid label key: prefix part must be no more than 253 bytes; no NodeClaim can be launched from this NodePool"
check "invalid NodeClaim label key: summary" contains "$errout" "kubectl-karpenter validate: 1 object in 1 file: 1 valid, 0 invalid (0 problems), 0 skipped"
run_cmd "$tool" validate --runtime=false -f "$tmpd/labelkey.yaml"
check "invalid NodeClaim label key, --runtime=false: exit 0" [ "$rc" -eq 0 ]
check "invalid NodeClaim label key, --runtime=false: no warning" sh -c '! printf "%s\n" "$1" | grep -q "^Warning:"' _ "$errout"
finish
