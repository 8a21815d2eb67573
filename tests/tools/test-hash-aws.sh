#!/bin/sh
# EC2NodeClass static drift end to end (upstream aws/karpenter-provider-aws
# pkg/cloudprovider/drift.go, areStaticFieldsDrifted): `hash` prints each
# EC2NodeClass's hash and hash version and NodeClassDrift for NodeClaims;
# `convert --drift-preview`, `disrupt --provider aws` and `reconcile
# --provider aws` decide the same through kp_aws_nodeclaim_static_drift.
# usage: test-hash-aws.sh TOOL SHARED_DATA
tool=$1 data=$2
. "$(dirname "$0")/tap.sh"

# The "Base EC2NodeClass" vector of ../shared/data/hash/vectors.yaml
# (ec2nodeclass_hash_test.go, main): hash 11148166120438674859 with the CA
# bundle "test-ca-bundle"; selector terms (hash:"ignore") and amiFamily
# Custom (what AMIFamily() resolves to without it) added so that it
# validates. "11774429238106843388" is the UserData vector's hash: a
# NodeClaim launched before userData changed.
base=11148166120438674859 userdata=11774429238106843388
cat >"$tmpd/class.yaml" <<'EOF'
apiVersion: karpenter.k8s.aws/v1
kind: EC2NodeClass
metadata:
  name: base
spec:
  role: role-1
  amiFamily: Custom
  amiSelectorTerms: [{id: ami-0123456789abcdef0}]
  subnetSelectorTerms: [{id: subnet-0123456789abcdef0}]
  securityGroupSelectorTerms: [{id: sg-0123456789abcdef0}]
  tags: {keyTag-1: valueTag-1, keyTag-2: valueTag-2}
  context: fake-context
  detailedMonitoring: false
  associatePublicIPAddress: false
  metadataOptions: {httpEndpoint: disabled, httpProtocolIPv6: disabled, httpPutResponseHopLimit: 1, httpTokens: optional}
  blockDeviceMappings:
  - deviceName: map-device-1
    rootVolume: false
    ebs: {deleteOnTermination: false, encrypted: false, iops: 0, kmsKeyID: fakeKMSKeyID, snapshotID: fakeSnapshot, throughput: 0, volumeSize: 2G, volumeType: standard}
  - deviceName: map-device-2
  userData: userdata-test-1
---
apiVersion: karpenter.sh/v1
kind: NodePool
metadata:
  name: default
spec:
  template:
    spec:
      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: base}
      requirements:
      - {key: karpenter.sh/capacity-type, operator: In, values: [on-demand]}
EOF
if [ -f "$data/hash/vectors.yaml" ]; then
	check "the vector's hash is in ../shared/data/hash/vectors.yaml" \
		grep -q "expected_hash: '$base'" "$data/hash/vectors.yaml"
	check "the UserData vector's hash is in ../shared/data/hash/vectors.yaml" \
		grep -q "expected_hash: '$userdata'" "$data/hash/vectors.yaml"
else
	echo "ok 1 # SKIP ../shared/data/hash/vectors.yaml is absent ($data)"
	echo "ok 2 # SKIP ../shared/data/hash/vectors.yaml is absent ($data)"
	n=2
fi

# Node NAME EC2NODECLASS-ANNOTATIONS: a Node and its launched NodeClaim of
# NodePool default (whose hash they carry), an m5.large in test-zone-1a.
node() {
	cat <<EOF
---
apiVersion: v1
kind: Node
metadata:
  name: $1
  creationTimestamp: "2025-06-01T09:59:00Z"
  labels: {karpenter.sh/nodepool: default, karpenter.sh/capacity-type: on-demand, node.kubernetes.io/instance-type: m5.large, topology.kubernetes.io/zone: test-zone-1a, kubernetes.io/arch: amd64, kubernetes.io/os: linux, kubernetes.io/hostname: $1, karpenter.sh/registered: "true", karpenter.sh/initialized: "true"}
spec: {providerID: "aws:///test-zone-1a/i-$1"}
status:
  capacity: {cpu: "2", memory: 8Gi, pods: "29"}
  allocatable: {cpu: 1930m, memory: 7Gi, pods: "29"}
  conditions: [{type: Ready, status: "True", reason: KubeletReady, message: ready, lastTransitionTime: "2025-06-01T10:00:00Z"}]
EOF
	claim "$@"
}
claim() {
	cat <<EOF
---
apiVersion: karpenter.sh/v1
kind: NodeClaim
metadata:
  name: $1
  creationTimestamp: "2025-06-01T09:58:00Z"
  labels: {karpenter.sh/nodepool: default, karpenter.sh/capacity-type: on-demand, node.kubernetes.io/instance-type: m5.large, topology.kubernetes.io/zone: test-zone-1a, kubernetes.io/arch: amd64, kubernetes.io/os: linux}
  annotations: {karpenter.sh/nodepool-hash: "9933134828841875297", karpenter.sh/nodepool-hash-version: v3$2}
spec:
  nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: base}
  requirements: [{key: karpenter.sh/capacity-type, operator: In, values: [on-demand]}]
status:
  providerID: "aws:///test-zone-1a/i-$1"
  nodeName: $1
  conditions:
  - {type: Launched, status: "True", reason: Launched, message: "", lastTransitionTime: "2025-06-01T09:58:30Z"}
  - {type: Registered, status: "True", reason: Registered, message: "", lastTransitionTime: "2025-06-01T09:59:00Z"}
  - {type: Initialized, status: "True", reason: Initialized, message: "", lastTransitionTime: "2025-06-01T10:00:00Z"}
EOF
}
hv() { printf ', karpenter.k8s.aws/ec2nodeclass-hash: "%s", karpenter.k8s.aws/ec2nodeclass-hash-version: %s' "$1" "$2"; }
# claims MATCHING-HASH: the four cases
claims() {
	claim drifted "$(hv $userdata v6)"
	claim matching "$(hv "$1" v6)"
	claim no-annotation ', karpenter.k8s.aws/ec2nodeclass-hash-version: v6'
	claim other-version "$(hv $userdata v5)"
}
claims $base >"$tmpd/claims.yaml"

# ---------------------------------------------------------------- hash --
run_cmd "$tool" hash -f "$tmpd/class.yaml" -f "$tmpd/claims.yaml" --ca-bundle test-ca-bundle
check "hash exits 0" [ "$rc" -eq 0 ]
check "hash prints nothing on stderr" [ -z "$errout" ]
expected=$(cat <<'EOF'
NAME      HASH                  HASH-VERSION
default   9933134828841875297   v3

EC2NODECLASS   HASH                   HASH-VERSION
base           11148166120438674859   v6

NODECLAIM       NODEPOOL   DRIFTED   REASON           MESSAGE
drifted         default    true      NodeClassDrift   EC2NodeClass hash 11148166120438674859 differs from the NodeClaim's 11774429238106843388 (hash version v6)
matching        default    false     <none>           not drifted: static fields match (hash 9933134828841875297, version v3); the NodeClaim's labels are compatible with the NodePool's requirements; EC2NodeClass static fields match (hash 11148166120438674859, version v6)
no-annotation   default    false     <none>           not drifted: static fields match (hash 9933134828841875297, version v3); the NodeClaim's labels are compatible with the NodePool's requirements; EC2NodeClass static drift not evaluated: the NodeClaim has no karpenter.k8s.aws/ec2nodeclass-hash annotation
other-version   default    false     <none>           not drifted: static fields match (hash 9933134828841875297, version v3); the NodeClaim's labels are compatible with the NodePool's requirements; EC2NodeClass static drift not evaluated: hash versions differ (EC2NodeClass v6, NodeClaim v5)
EOF
)
check "hash text: the vector's hash, NodeClassDrift and the three non-drifts" [ "$out" = "$expected" ]

run_cmd "$tool" hash -f "$tmpd/class.yaml" -f "$tmpd/claims.yaml" --ca-bundle test-ca-bundle -o json
check "hash -o json exits 0" [ "$rc" -eq 0 ]
check "hash -o json: ec2NodeClasses" contains "$out" \
	'"ec2NodeClasses":[{"name":"base","hash":"11148166120438674859","hashVersion":"v6"}]'
check "hash -o json: NodeClassDrift" contains "$out" \
	'{"name":"drifted","nodePool":"default","drifted":true,"reason":"NodeClassDrift","message":"EC2NodeClass hash 11148166120438674859 differs from the NodeClaim'"'"'s 11774429238106843388 (hash version v6)"}'
check "hash -o json: other version not drifted" contains "$out" \
	'{"name":"other-version","nodePool":"default","drifted":false,"reason":"",'
check "hash -o json is JSON" sh -c 'printf "%s" "$1" | python3 -m json.tool >/dev/null' _ "$out"

# Without --ca-bundle (what disrupt and reconcile hash with) the hash
# covers "" instead.
nobundle=3586199404471678909
run_cmd "$tool" hash -f "$tmpd/class.yaml" -o json
check "hash without a CA bundle" [ "$out" = '{"nodePools":[{"name":"default","hash":"9933134828841875297","hashVersion":"v3"}],"ec2NodeClasses":[{"name":"base","hash":"'$nobundle'","hashVersion":"v6"}],"nodeClaims":[]}' ]

# An EC2NodeClass alone is enough input; a missing one is named.
run_cmd sh -c 'sed -n "1,/^---/p" "$1" | sed "\$d" | "$2" hash -f -' _ "$tmpd/class.yaml" "$tool"
check "EC2NodeClass only exits 0" [ "$rc" -eq 0 ]
check "EC2NodeClass only: its table alone" [ "$out" = "EC2NODECLASS   HASH                  HASH-VERSION
base           $nobundle   v6" ]
run_cmd sh -c 'sed -n "/^---/,\$p" "$1" | "$2" hash -f - -f "$3"' _ "$tmpd/class.yaml" "$tool" "$tmpd/claims.yaml"
check "a NodeClaim whose EC2NodeClass is missing: unknown" contains "$out" \
	"drifted         default    unknown   <none>   not drifted: static fields match (hash 9933134828841875297, version v3); the NodeClaim's labels are compatible with the NodePool's requirements; EC2NodeClass \"base\" is not in the input"

# ------------------------------------------------------- convert preview --
claims $nobundle >"$tmpd/claims-nobundle.yaml"
run_cmd "$tool" convert --drift-preview -f "$tmpd/class.yaml" -f "$tmpd/claims-nobundle.yaml"
check "convert --drift-preview exits 0" [ "$rc" -eq 0 ]
check "convert --drift-preview: NodeClassDrift" contains "$errout" \
	"drift: NodeClaim/drifted: drifted (NodeClassDrift): its EC2NodeClass/base hash differs from the NodeClaim's"
check "convert --drift-preview: only that one" contains "$errout" "drift preview: 1 of 4 NodeClaims would drift"

# ------------------------------------------------------ disrupt, reconcile --
if [ ! -f "$data/aws/instance-types.json" ]; then
	echo "# SKIP disrupt and reconcile: $data/aws/instance-types.json (the shipped AWS catalogue) is missing"
	finish
	exit $?
fi
export KARPENTER_AWS_DATA="$data/aws"
{ node drifted "$(hv $userdata v6)"; node matching "$(hv $nobundle v6)"
  node other-version "$(hv $userdata v5)"; } >"$tmpd/nodes.yaml"
run_cmd "$tool" disrupt --provider aws -f "$tmpd/class.yaml" -f "$tmpd/nodes.yaml" --now 2025-06-01T12:00:00Z -o json
check "disrupt --provider aws exits 0" [ "$rc" -eq 0 ]
printf '%s\n' "$out" >"$tmpd/disrupt.json"
check "disrupt --provider aws: NodeClassDrift from the provider, the others not drifted" python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
got = {n['nodeClaim']: n['drifted'] for n in d['nodes']}
assert got == {'drifted': {'reason': 'NodeClassDrift', 'message': 'the cloud provider reports drift: NodeClassDrift'},
               'matching': None, 'other-version': None}, got" "$tmpd/disrupt.json"

run_cmd "$tool" reconcile --provider aws -f "$tmpd/class.yaml" -f "$tmpd/nodes.yaml" --now 2025-06-01T10:01:00Z -o json
check "reconcile --provider aws exits 0" [ "$rc" -eq 0 ]
printf '%s\n' "$out" >"$tmpd/reconcile.json"
check "reconcile --provider aws: Drifted NodeClassDrift on that NodeClaim only" python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
got = {}
for a in d['actions']:
    if a['controller'] == 'nodeclaim.disruption':
        got[a['name']] = [(c['reason'], c['message']) for c in a['object']['status']['conditions'] if c['type'] == 'Drifted']
assert got == {'drifted': [('NodeClassDrift', 'the cloud provider reports drift: NodeClassDrift')],
               'matching': [], 'other-version': []}, got" "$tmpd/reconcile.json"

finish
