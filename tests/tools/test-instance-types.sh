#!/bin/sh
# kubectl-karpenter instance-types: the AWS provider's instance types on the
# shipped data (upstream's fake DescribeInstanceTypes set) and every example
# manifest of ../shared/data/manifests/v1; the KWOK catalogue.
# usage: test-instance-types.sh TOOL SHARED_DATA
tool=$1
data=$2
. "$(dirname "$0")/tap.sh"

if [ ! -f "$data/aws/instance-types.json" ] || [ ! -d "$data/manifests/v1" ]; then
	echo "1..0 # SKIP $data/aws/instance-types.json or $data/manifests/v1 is missing"
	exit 0
fi
export KARPENTER_AWS_DATA="$data/aws"
json_get() { python3 -c "import json,sys; d=json.load(sys.stdin); t=[x for x in d if x['name']==sys.argv[1]][0]; print(eval(sys.argv[2]))" "$@"; }

run_cmd "$tool" --help
check "--help lists instance-types" contains "$out" "  instance-types list the instance types a NodePool may launch"

run_cmd "$tool" instance-types --provider aws
check "aws exits 0" [ "$rc" -eq 0 ]
check "aws text header" contains "$out" "NAME                 CPU   MEMORY     PODS  ALLOC-CPU ALLOC-MEM  ON-DEMAND  SPOT       ZONES"
check "aws m5.xlarge row" contains "$out" "m5.xlarge            4     15155Mi    58    3920m     14162Mi    0.192      0.192      test-zone-1a,test-zone-1b"
check "aws t4g.small: 2048Mi - 64Mi CMA - 7.5%" contains "$out" "t4g.small            2     1835Mi     11    1930m     1359Mi     -          -          -"

run_cmd "$tool" instance-types --provider aws -o json
check "aws -o json exits 0" [ "$rc" -eq 0 ]
v=$(printf '%s' "$out" | json_get m5.xlarge "t['overhead']['kubeReserved']")
check "m5.xlarge kube-reserved (upstream: 80m, 893Mi, 1Gi)" [ "$v" = "{'cpu': '80m', 'ephemeral-storage': '1Gi', 'memory': '893Mi'}" ]
v=$(printf '%s' "$out" | json_get m5.xlarge "t['overhead']['evictionThreshold']")
check "m5.xlarge eviction threshold: 100Mi and 10% of 20Gi" [ "$v" = "{'ephemeral-storage': '2147483648', 'memory': '100Mi'}" ]
v=$(printf '%s' "$out" | json_get m5.xlarge "[(o['zone'], o['capacityType'], o['price'], o['available'], o['reservationID']) for o in t['offerings']][:2]")
check "m5.xlarge offerings" [ "$v" = "[('test-zone-1a', 'on-demand', 0.192, True, None), ('test-zone-1a', 'spot', 0.192, True, None)]" ]
v=$(printf '%s' "$out" | json_get m5.metal "t['labels']['karpenter.k8s.aws/instance-hypervisor']")
check "metal: hypervisor label present and empty" [ "$v" = "" ]
v=$(printf '%s' "$out" | json_get g4dn.8xlarge "(t['capacity']['nvidia.com/gpu'], t['labels']['karpenter.k8s.aws/instance-gpu-name'])")
check "g4dn.8xlarge GPU" [ "$v" = "('1', 't4')" ]
v=$(printf '%s' "$out" | json_get t3.large "'karpenter.sh/capacity-type' in t['labels']")
check "labels hold single-valued labels only" [ "$v" = "False" ]

run_cmd "$tool" instance-types --provider aws --reserved-enis 1 -o json
v=$(printf '%s' "$out" | json_get t3.large "(t['capacity']['pods'], t['overhead']['kubeReserved']['memory'])")
check "--reserved-enis 1: (3-1)*(12-1)+2 pods, kube-reserved still 640Mi" [ "$v" = "('24', '640Mi')" ]
run_cmd "$tool" instance-types --provider aws --reserved-enis 1000000 -o json
v=$(printf '%s' "$out" | json_get t3.large "(t['capacity']['pods'], t['overhead']['kubeReserved']['memory'])")
check "--reserved-enis 1000000: pods reach 0" [ "$v" = "('0', '640Mi')" ]
run_cmd "$tool" instance-types --provider aws --vm-memory-overhead-percent 0 -o json
v=$(printf '%s' "$out" | json_get t3.large "t['capacity']['memory']")
check "--vm-memory-overhead-percent 0" [ "$v" = "8Gi" ]
run_cmd "$tool" instance-types --provider aws --region eu-west-1 -o json
v=$(printf '%s' "$out" | json_get m5.large "(t['labels']['topology.kubernetes.io/region'], t['offerings'][0]['price'])")
check "--region without a table: us-east-1's prices" [ "$v" = "('eu-west-1', 0.096)" ]

cat >"$tmpd/spot.json" <<'EOF'
{"SpotPriceHistory": [
 {"AvailabilityZone": "test-zone-1a", "InstanceType": "m5.large", "ProductDescription": "Linux/UNIX",
  "SpotPrice": "0.031", "Timestamp": "2024-01-01T00:00:00+00:00"}]}
EOF
run_cmd "$tool" instance-types --provider aws --spot-prices "$tmpd/spot.json"
check "--spot-prices: zonal spot price" contains "$out" "m5.large             2     7577Mi     29    1930m     6903Mi     0.096      0.031 "
check "--spot-prices: types without a record have no spot price" contains "$out" "m5.xlarge            4     15155Mi    58    3920m     14162Mi    0.192      -  "

# Every example manifest: each NodePool's types with its EC2NodeClass.
m="$data/manifests/v1"
for f in "$m"/*.yaml; do
	for np in $(awk '/^kind: NodePool/{p=1} p && /^  name:/{print $2; p=0}' "$f"); do
		run_cmd "$tool" instance-types --provider aws -f "$f" --nodepool "$np" -o json
		check "$(basename "$f") NodePool/$np exits 0 with JSON" sh -c '[ "$1" -eq 0 ] && printf "%s" "$2" | python3 -m json.tool >/dev/null' _ "$rc" "$out"
	done
done
run_cmd "$tool" instance-types --provider aws -f "$m/general-purpose.yaml" --nodepool general-purpose
check "general-purpose: on-demand m family, generation > 2" [ "$(printf '%s\n' "$out" | awk 'NR>1{print $1"/"$7"/"$8}' | tr '\n' ' ')" = "m5.large/0.096/- m5.metal/4.608/- m5.xlarge/0.192/- m6idn.32xlarge/10.1837/- m7i-flex.large/0.09576/- " ]
check "note on stderr: no status.subnets" contains "$errout" "EC2NodeClass/default: without status.subnets"
run_cmd "$tool" instance-types --provider aws -f "$m/instance-store-ephemeral-storage.yaml" --nodepool default -o json
v=$(printf '%s' "$out" | json_get m6idn.32xlarge "(t['capacity']['ephemeral-storage'], t['overhead']['evictionThreshold']['ephemeral-storage'])")
check "RAID0 instance store: 7600G, nodefs 10%" [ "$v" = "('7600G', '760e9')" ]
run_cmd "$tool" instance-types --provider aws -f "$m/windows-2022.yaml" --nodepool windows2022 -o json
v=$(printf '%s' "$out" | json_get m5.large "(t['capacity']['pods'], t['capacity']['vpc.amazonaws.com/PrivateIPv4Address'], t['labels']['node.kubernetes.io/windows-build'])")
check "Windows 2022: 110 pods, PrivateIPv4Address, build" [ "$v" = "('110', '9', '10.0.20348')" ]

printf '{"InstanceTypes": [{"InstanceType": "x.large", "SupportedVirtualizationTypes": ["hvm"], "ProcessorInfo": {"SupportedArchitectures": ["x86_64"]}}]}' >"$tmpd/bad.json"
# simulate, disrupt and reconcile --provider aws: a handful of pods on every
# example NodePool.
cat >"$tmpd/pods.yaml" <<'EOF'
apiVersion: v1
kind: List
items:
- {apiVersion: v1, kind: Pod, metadata: {name: p1, namespace: default}, spec: {containers: [{name: c, image: i, resources: {requests: {cpu: "1", memory: 1Gi}}}]}}
- {apiVersion: v1, kind: Pod, metadata: {name: p2, namespace: default}, spec: {containers: [{name: c, image: i, resources: {requests: {cpu: "1", memory: 1Gi}}}]}}
- {apiVersion: v1, kind: Pod, metadata: {name: p3, namespace: default}, spec: {containers: [{name: c, image: i, resources: {requests: {cpu: 500m, memory: 512Mi}}}]}}
EOF
for f in "$m"/*.yaml; do
	b=$(basename "$f")
	run_cmd "$tool" simulate --provider aws -f "$f" -f "$tmpd/pods.yaml" -o json
	case $b in
	min-values-*)
		# minValues the 17 shipped types cannot meet: nothing launched
		check "simulate --provider aws $b: no NodeClaim (minValues unmet)" sh -c '[ "$1" -eq 1 ] && printf "%s" "$2" | python3 -c "import json,sys; d=json.load(sys.stdin); sys.exit(len(d[\"nodeClaims\"]) != 0)"' _ "$rc" "$out" ;;
	windows-custom-userdata.yaml)
		# upstream's example sets nodeClassRef.group to "karpenter.k8s.aws/v1", which the CRD refuses
		check "simulate --provider aws $b: refused as the CRD refuses it" sh -c '[ "$1" -eq 1 ] && printf "%s" "$2" | grep -q "nodeClassRef.group in body should match"' _ "$rc" "$errout" ;;
	*)
		check "simulate --provider aws $b: every pod placed" sh -c '[ "$1" -eq 0 ] && printf "%s" "$2" | python3 -m json.tool >/dev/null' _ "$rc" "$out" ;;
	esac
done
run_cmd "$tool" simulate --provider aws -f "$m/general-purpose.yaml" -f "$tmpd/pods.yaml"
check "simulate --provider aws: 2.5 CPU on one m5.xlarge (an m5.large allocates 1930m)" contains "$out" "general-purpose-00001   m5.xlarge   on-demand   test-zone-1a   general-purpose   3      0.1920"
run_cmd "$tool" simulate --provider aws -f "$m/spot.yaml" -f "$tmpd/pods.yaml"
check "simulate --provider aws: spot priced as on-demand" contains "$out" "spot-00001   m5.xlarge   spot       test-zone-1a   spot       3      0.1920"
run_cmd "$tool" simulate --provider aws -f "$m/instance-store-ephemeral-storage.yaml" -f "$tmpd/pods.yaml"
check "simulate --provider aws: the RAID0 NodePool launches m6idn.32xlarge" contains "$out" "m6idn.32xlarge"
run_cmd "$tool" disrupt --provider aws -f "$m/general-purpose.yaml" -f "$tmpd/pods.yaml" --now 2024-01-01T00:00:00Z
check "disrupt --provider aws runs" [ "$rc" -eq 0 ]
run_cmd "$tool" disrupt --provider aws --instance-types "$tmpd/bad.json" -f "$m/general-purpose.yaml"
check "disrupt --provider aws reads describe-instance-types output" sh -c '[ "$1" -eq 1 ] && printf "%s" "$2" | grep -q "InstanceTypes\[0\].VCpuInfo.DefaultVCpus: missing or not a count"' _ "$rc" "$errout"
# The cluster input is the library's builder: an EC2NodeClass is validated
# as the API server would (it was read unchecked), and --apply replaces or
# joins it like any other kind (it was never merged).
sed 's/^  role: .*$//' "$m/general-purpose.yaml" >"$tmpd/norole.yaml"
run_cmd "$tool" simulate --provider aws -f "$tmpd/norole.yaml" -f "$tmpd/pods.yaml"
check "simulate --provider aws: an EC2NodeClass the CRD refuses is invalid input" [ "$rc" -eq 1 ]
check "simulate --provider aws: the EC2NodeClass rule named" contains "$errout" \
	"$tmpd/norole.yaml: EC2NodeClass/default: spec: Invalid value: must specify exactly one of ['role', 'instanceProfile']"
run_cmd "$tool" disrupt --provider aws -f "$m/general-purpose.yaml" --apply "$tmpd/norole.yaml" --now 2024-01-01T00:00:00Z
check "disrupt --provider aws --apply: the applied EC2NodeClass is validated" sh -c '[ "$1" -eq 1 ] && printf "%s" "$2" | grep -q "norole.yaml: EC2NodeClass/default: spec: Invalid value"' _ "$rc" "$errout"
run_cmd "$tool" disrupt --region us-west-2 -f "$m/general-purpose.yaml"
check "disrupt: AWS options need --provider aws" [ "$rc" -eq 2 ]
run_cmd "$tool" reconcile --region us-west-2 -f "$m/general-purpose.yaml"
check "reconcile: AWS options need --provider aws" [ "$rc" -eq 2 ]
cat >"$tmpd/nodeclaim.yaml" <<'EOF'
apiVersion: karpenter.sh/v1
kind: NodeClaim
metadata:
  name: general-purpose-abcde
  labels: {karpenter.sh/nodepool: general-purpose}
  creationTimestamp: "2024-01-01T00:00:00Z"
spec:
  nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}
  requirements:
  - {key: node.kubernetes.io/instance-type, operator: In, values: [m5.large, m5.xlarge]}
  - {key: karpenter.sh/capacity-type, operator: In, values: [on-demand]}
  resources: {requests: {cpu: "1"}}
EOF
run_cmd "$tool" reconcile --provider aws -f "$m/general-purpose.yaml" -f "$tmpd/nodeclaim.yaml" --now 2024-01-01T00:00:10Z
check "reconcile --provider aws launches on the AWS provider" contains "$out" "providerCreate [Launched] launched nodeclaim: provider-id aws:///test-zone-1a/i-00000000000000000, instance-type m5.large, zone test-zone-1a, capacity-type on-demand"
run_cmd "$tool" simulate --region us-west-2 -f "$m/general-purpose.yaml"
check "simulate: AWS options need --provider aws" [ "$rc" -eq 2 ]

cat >"$tmpd/kubelet.yaml" <<'EOF'
apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: np}
spec:
  template:
    spec:
      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: nc}
      requirements:
      - {key: node.kubernetes.io/instance-type, operator: In, values: [m5.xlarge]}
      - {key: topology.kubernetes.io/zone, operator: In, values: [test-zone-1b]}
---
apiVersion: karpenter.k8s.aws/v1
kind: EC2NodeClass
metadata: {name: nc}
spec:
  amiSelectorTerms: [{alias: bottlerocket@latest}]
  role: r
  subnetSelectorTerms: [{tags: {a: b}}]
  securityGroupSelectorTerms: [{tags: {a: b}}]
  kubelet:
    maxPods: 20
    kubeReserved: {cpu: 200m}
    systemReserved: {memory: 1Gi}
    evictionHard: {memory.available: 5%}
  blockDeviceMappings:
  - deviceName: /dev/xvdb
    ebs: {volumeSize: 80Gi}
EOF
run_cmd "$tool" instance-types --provider aws -f "$tmpd/kubelet.yaml" --nodepool np -o json
v=$(printf '%s' "$out" | json_get m5.xlarge "(t['capacity']['pods'], t['capacity']['ephemeral-storage'], t['overhead']['kubeReserved'], t['overhead']['systemReserved'], t['overhead']['evictionThreshold']['memory'], [(o['zone'], o['capacityType']) for o in t['offerings'] if o['available']])")
check "EC2NodeClass kubelet, Bottlerocket, xvdb size, zone requirement" [ "$v" = "('20', '80Gi', {'cpu': '200m', 'ephemeral-storage': '1Gi', 'memory': '475Mi'}, {'memory': '1Gi'}, '794558464', [('test-zone-1b', 'on-demand'), ('test-zone-1b', 'spot')])" ]
run_cmd "$tool" instance-types
check "kwok by default" sh -c '[ "$1" -eq 0 ] && printf "%s\n" "$2" | grep -q "^c-1x-amd64-linux "' _ "$rc" "$out"
run_cmd "$tool" instance-types -f "$(dirname "$0")/fixtures/simulate/nodepool.yaml" --nodepool default
check "kwok --nodepool: only the types the NodePool admits (amd64, linux)" sh -c '[ "$1" -eq 0 ] && [ "$(printf "%s\n" "$2" | awk "NR>1" | grep -vc -- "-amd64-linux ")" -eq 0 ] && [ "$(printf "%s\n" "$2" | awk "NR>1" | wc -l)" -eq 36 ]' _ "$rc" "$out"
run_cmd "$tool" instance-types --provider gce
check "unknown provider is a usage error" [ "$rc" -eq 2 ]
run_cmd "$tool" instance-types --reserved-enis 1
check "aws options need --provider aws" [ "$rc" -eq 2 ]
run_cmd "$tool" instance-types --provider aws -f "$m/spot.yaml" --nodepool nope
check "unknown NodePool exits 1" sh -c '[ "$1" -eq 1 ] && [ "$2" = "kubectl-karpenter instance-types: NodePool/nope is not in the input" ]' _ "$rc" "$errout"
run_cmd "$tool" instance-types --provider aws --instance-types "$tmpd/bad.json"
check "invalid DescribeInstanceTypes output exits 1 naming the field" sh -c '[ "$1" -eq 1 ] && [ "$2" = "kubectl-karpenter instance-types: $3: InstanceTypes[0].VCpuInfo.DefaultVCpus: missing or not a count" ]' _ "$rc" "$errout" "$tmpd/bad.json"
finish
