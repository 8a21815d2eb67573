#!/bin/sh
# EC2NodeClass status through the commands (--provider aws): readiness as
# upstream's status controller derives it from the dependents
# (kp_aws_ec2nodeclass_status_ready), status.subnets' zones and
# status.capacityReservations in the instance types, and the offline rule
# for a class given without any status (assumed Ready, with a note).
# usage: test-aws-status.sh TOOL SHARED_DATA
tool=$1 data=$2
. "$(dirname "$0")/tap.sh"

if [ ! -f "$data/aws/instance-types.json" ]; then
	echo "1..0 # SKIP $data/aws/instance-types.json (the shipped AWS catalogue) is missing"
	exit 0
fi
export KARPENTER_AWS_DATA="$data/aws"

# class FILE STATUS-LINES CAPACITY-TYPES: an EC2NodeClass "c" at generation
# 2, a NodePool of m5.large, one pod of 1 CPU.
class() {
	cat >"$1" <<EOF
apiVersion: karpenter.k8s.aws/v1
kind: EC2NodeClass
metadata: {name: c, generation: 2}
spec:
  role: role-1
  amiSelectorTerms: [{alias: al2023@latest}]
  subnetSelectorTerms: [{id: subnet-0123456789abcdef0}]
  securityGroupSelectorTerms: [{id: sg-0123456789abcdef0}]
$2
---
apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: default}
spec:
  template:
    spec:
      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: c}
      requirements:
      - {key: node.kubernetes.io/instance-type, operator: In, values: [m5.large]}
      - {key: karpenter.sh/capacity-type, operator: In, values: [$3]}
---
apiVersion: v1
kind: Pod
metadata: {name: web, namespace: default}
spec:
  containers: [{name: c, image: x, resources: {requests: {cpu: "1"}}}]
EOF
}
cond() { printf '  - {type: %s, status: "%s", reason: %s, message: "%s", observedGeneration: 2, lastTransitionTime: "2025-06-01T00:00:00Z"}\n' "$1" "$2" "$3" "$4"; }
ready_conds() {
	echo "  conditions:"
	cond AMIsReady True AMIsReady ""
	cond InstanceProfileReady True InstanceProfileReady ""
	cond Ready True Ready ""
	cond SecurityGroupsReady True SecurityGroupsReady ""
	cond SubnetsReady "$1" "$2" "$3"
	cond ValidationSucceeded True ValidationSucceeded ""
}
subnets='status:
  subnets: [{id: subnet-0b, zone: test-zone-1b, zoneID: tstz1-1b}]'

# Ready, subnets in test-zone-1b only: launched there (the catalogue's
# m5.large is offered in four zones).
class "$tmpd/ready.yaml" "$subnets
$(ready_conds True SubnetsReady '')" on-demand
run_cmd "$tool" simulate --provider aws -f "$tmpd/ready.yaml"
check "ready class: exit 0" [ "$rc" -eq 0 ]
check "ready class: no note" [ -z "$errout" ]
check "ready class: launched in status.subnets' zone" [ "$out" = "NAME            TYPE       CAPACITY    ZONE           NODEPOOL   PODS   \$/H
default-00001   m5.large   on-demand   test-zone-1b   default    1      0.0960

Total: 1 NodeClaim, \$0.0960/h
Pods: 1 pending: 1 on new NodeClaims, 0 on existing nodes, 0 cannot be placed" ]
run_cmd "$tool" instance-types --provider aws -f "$tmpd/ready.yaml" --nodepool default
check "instance-types: status.subnets' zone only" [ "$out" = "NAME                 CPU   MEMORY     PODS  ALLOC-CPU ALLOC-MEM  ON-DEMAND  SPOT       ZONES
m5.large             2     7577Mi     29    1930m     6903Mi     0.096      -          test-zone-1b" ]

# SubnetsReady False at the current generation: Ready False, not placed,
# even though the written Ready says True.
class "$tmpd/false.yaml" "$subnets
$(ready_conds False SubnetsNotFound 'SubnetSelector did not match any Subnets')" on-demand
run_cmd "$tool" simulate --provider aws -f "$tmpd/false.yaml"
check "SubnetsReady=False: exit 1 (a pod cannot be placed)" [ "$rc" -eq 1 ]
check "SubnetsReady=False: the NodePool's class is not ready, naming the dependent" contains "$out" \
	'  nodepool default: node class EC2NodeClass "c" is not ready: SubnetsReady=False'
run_cmd "$tool" reconcile --provider aws -f "$tmpd/false.yaml" --now 2025-06-01T12:00:00Z
check "SubnetsReady=False: reconcile's NodePool is not ready" contains "$out" \
	"  nodepool.readiness: updateStatus [NodePoolReady] Ready=False: NodeClassReady=False"

# A status without conditions: every dependent awaits reconciliation, Ready
# Unknown: not ready (upstream's NodeClassReadinessUnknown).
class "$tmpd/nocond.yaml" "$subnets" on-demand
run_cmd "$tool" simulate --provider aws -f "$tmpd/nocond.yaml"
check "status without conditions: exit 1" [ "$rc" -eq 1 ]
check "status without conditions: Ready Unknown from the dependents" contains "$out" \
	'  nodepool default: node class EC2NodeClass "c" is not ready: AMIsReady=Unknown, SubnetsReady=Unknown, SecurityGroupsReady=Unknown, InstanceProfileReady=Unknown, ValidationSucceeded=Unknown'

# No status at all: assumed Ready, with notes; every offering zone.
class "$tmpd/none.yaml" "" on-demand
run_cmd "$tool" simulate --provider aws -f "$tmpd/none.yaml"
check "no status: exit 0" [ "$rc" -eq 0 ]
check "no status: the notes" [ "$errout" = "Note: EC2NodeClass/c has no status: assumed Ready, as a cluster's status controller would make it
Note: EC2NodeClass/c: without status.subnets, a type's zones are every zone that offers it" ]
check "no status: launched in the cheapest offering zone" contains "$out" \
	"default-00001   m5.large   on-demand   test-zone-1a   default    1      0.0960"

# status.capacityReservations: a reserved offering in its zone, chosen
# first (upstream's getCapacityType), with the reservation's ID.
class "$tmpd/cr.yaml" "$subnets
  capacityReservations:
  - {availabilityZone: test-zone-1b, id: cr-m5large1b, instanceMatchCriteria: targeted, instanceType: m5.large, ownerID: \"012345678901\", reservationType: default, state: active}
$(ready_conds True SubnetsReady '')" "on-demand, reserved"
run_cmd "$tool" simulate --provider aws -f "$tmpd/cr.yaml"
check "capacity reservation: exit 0" [ "$rc" -eq 0 ]
check "capacity reservation: launched as reserved in its zone" contains "$out" \
	"default-00001   m5.large   reserved   test-zone-1b   default    1      0.0000"
run_cmd "$tool" instance-types --provider aws -f "$tmpd/cr.yaml" --nodepool default -o json
printf '%s\n' "$out" >"$tmpd/it.json"
check "capacity reservation: its offering" python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
got = [o for o in d[0]['offerings'] if o['capacityType'] == 'reserved']
assert got == [{'zone': 'test-zone-1b', 'capacityType': 'reserved', 'price': 9.6e-09, 'available': True, 'reservationID': 'cr-m5large1b'}], got
" "$tmpd/it.json"

# One instance per reservation offline (the status has no count): a second
# pod that needs a whole m5.large of its own is deferred in strict mode, as
# upstream's provisioner defers it, with upstream's message; the reserved
# NodeClaim carries the reservation's labels and requirements.
sed 's/cpu: "1"}/cpu: "1500m"}/' "$tmpd/cr.yaml" >"$tmpd/cr2.yaml"
cat >>"$tmpd/cr2.yaml" <<EOF
---
apiVersion: v1
kind: Pod
metadata: {name: web2, namespace: default}
spec:
  containers: [{name: c, image: x, resources: {requests: {cpu: "1500m"}}}]
EOF
run_cmd "$tool" simulate --provider aws -f "$tmpd/cr2.yaml"
check "reservation exhausted: exit 1 (a pod deferred)" [ "$rc" -eq 1 ]
check "reservation exhausted: one reserved NodeClaim, one deferred pod" [ "$out" = "NAME            TYPE       CAPACITY   ZONE           NODEPOOL   PODS   \$/H
default-00001   m5.large   reserved   test-zone-1b   default    1      0.0000

Total: 1 NodeClaim, \$0.0000/h
Pods: 2 pending: 1 on new NodeClaims, 0 on existing nodes, 1 cannot be placed

default/web2: cannot be placed
  nodepool default: one or more instance types with compatible reserved offerings are available, but could not be reserved" ]
run_cmd "$tool" simulate --provider aws -f "$tmpd/cr2.yaml" -o json
printf '%s\n' "$out" >"$tmpd/sim.json"
check "reservation exhausted: the NodeClaim's reservation labels and requirements, the pod's reason" python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
nc = d['nodeClaims'][0]['nodeClaim']
labels = nc['metadata']['labels']
want = {'karpenter.sh/capacity-type': 'reserved', 'karpenter.k8s.aws/capacity-reservation-id': 'cr-m5large1b',
        'karpenter.k8s.aws/capacity-reservation-type': 'default',
        'karpenter.k8s.aws/capacity-reservation-interruptible': 'false',
        'topology.kubernetes.io/zone': 'test-zone-1b'}
assert {k: labels.get(k) for k in want} == want, labels
reqs = {r['key']: r['values'] for r in nc['spec']['requirements']}
assert reqs['karpenter.sh/capacity-type'] == ['reserved'], reqs
assert reqs['karpenter.k8s.aws/capacity-reservation-id'] == ['cr-m5large1b'], reqs
web2 = [p for p in d['pods'] if p['name'] == 'web2'][0]
assert [r['code'] for r in web2['reasons']] == ['ReservedOffering'], web2
" "$tmpd/sim.json"

finish
