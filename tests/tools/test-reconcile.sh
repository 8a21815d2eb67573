#!/bin/sh
# kubectl-karpenter reconcile: the README contract, end to end.
# usage: test-reconcile.sh TOOL SOURCE_ROOT
tool=$1 root=$2
. "$(dirname "$0")/tap.sh"
ex="$root/examples/lifecycle"
now=2025-01-01T12:00:00Z

run_cmd "$tool" reconcile -f "$ex" --now "$now" -o json
check "example: exit 0" [ "$rc" -eq 0 ]
printf '%s\n' "$out" >"$tmpd/got.json"
check "example: exact JSON (tests/tools/fixtures/reconcile-lifecycle.json)" \
	cmp -s "$tmpd/got.json" "$(dirname "$0")/fixtures/reconcile-lifecycle.json"

run_cmd "$tool" reconcile -f "$ex" --now "$now"
check "text: exit 0" [ "$rc" -eq 0 ]
check "text: header" contains "$out" "Reconcile at 2025-01-01T12:00:00Z: 7 actions"
check "text: consolidatable (initialized, consolidateAfter elapsed)" contains "$out" \
	"  nodeclaim.disruption: updateStatus [Consolidatable] marking consolidatable"
check "text: waiting for registration" contains "$out" \
	"  nodeclaim.lifecycle: updateStatus [NotRegistered] Node not registered with cluster"
check "text: startup taint" contains "$out" \
	'  nodeclaim.lifecycle: updateStatus [NotInitialized] StartupTaint "example.com/agent-not-ready:NoExecute" still exists'
check "text: expired" contains "$out" \
	"  nodeclaim.expiration: delete [Expired] deleting expired nodeclaim: expireAfter 720h0m0s elapsed since creation"
check "text: the PDB blocking the drain is named" contains "$out" \
	"  node.termination: patch [Draining] draining: 2 pods are waiting to be evicted; pod default/web-1: evicting pod violates a PDB (PodDisruptionBudget default/web)"
check "text: looks again" contains "$out" "  NodeClaim/default-waiting: nodeclaim.lifecycle after 13m0s"
# One drift decision (lib/state): on examples/disruption, reconcile marks
# default-old Drifted as disrupt reports it drifted (they disagreed: the
# lifecycle read the NodePool's annotation, disruption hashed its spec).
run_cmd "$tool" reconcile -f "$root/examples/disruption" --now 2025-06-01T10:01:00Z
check "drift: reconcile marks default-old Drifted, as disrupt decides" contains "$out" \
	"NodeClaim/default-old
  nodeclaim.lifecycle: patch [Finalizer] added finalizer karpenter.sh/termination
  nodeclaim.lifecycle: updateStatus [ConditionsUpdated] status conditions updated: Ready=Unknown
  nodeclaim.disruption: updateStatus [Drifted] NodePool hash 12745407319442031341 differs from the NodeClaim's 4205432312131447125 (hash version v3): a static field of spec.template changed"
run_cmd "$tool" disrupt -f "$root/examples/disruption" --now 2025-06-01T10:01:00Z
check "drift: disrupt agrees (default-old drifted, deleted by Drift)" contains "$out" \
	"default-old     yes         no      yes       no               (pass 1: Drift, delete)"

# Instance-type drift, in both (upstream drift tests "should detect stale
# instance type drift if the instance type doesn't exist"): default-db's
# NodeClaim names a type the catalogue lacks and is two hours old.
mkdir "$tmpd/itd"
cp "$root"/examples/disruption/*.yaml "$tmpd/itd/"
awk '/^kind: NodeClaim/ { nc = 1 } /^---/ { nc = 0; db = 0 } nc && /^  name: default-db$/ { db = 1 }
	db && /node.kubernetes.io\/instance-type:/ { sub(/instance-type: .*/, "instance-type: z-99x-gone") } { print }' \
	"$root/examples/disruption/nodes.yaml" >"$tmpd/itd/nodes.yaml"
run_cmd "$tool" reconcile -f "$tmpd/itd" --now 2025-06-01T12:00:00Z -o yaml
check "instance-type drift: reconcile sets Drifted InstanceTypeNotFound" contains "$out" \
	"message: instance type z-99x-gone is no longer offered in test-zone-a as on-demand"
run_cmd "$tool" disrupt -f "$tmpd/itd" --now 2025-06-01T12:00:00Z
check "instance-type drift: disrupt agrees" contains "$out" "default-db      no          no      yes"

# A PDB written without a namespace is in "default", as kubectl applies it:
# Node termination reads it as disruption does (lib/state; they disagreed).
mkdir "$tmpd/nons"
cp "$ex"/*.yaml "$tmpd/nons/"
awk '/^kind: PodDisruptionBudget/ { pdb = 1 } /^---/ { pdb = 0 } !(pdb && /^  namespace: default$/)' \
	"$ex/draining.yaml" >"$tmpd/nons/draining.yaml"
run_cmd "$tool" reconcile -f "$tmpd/nons" --now "$now"
check "a PDB without a namespace selects the default namespace's pods" contains "$out" \
	"pod default/web-1: evicting pod violates a PDB (PodDisruptionBudget default/web)"
check "text: events" contains "$out" \
	"  Node/default-draining: Warning FailedDraining: Failed to drain node, 2 pods are waiting to be evicted"

run_cmd "$tool" reconcile -f "$ex" --now "$now" -o yaml
check "yaml: exit 0" [ "$rc" -eq 0 ]
check "yaml: now" contains "$out" "now: \"2025-01-01T12:00:00Z\""

# --instances: exactly these exist; the registered NodeClaims whose
# instance is gone and whose Node is not Ready are garbage collected.
cat >"$tmpd/instances.txt" <<'EOF2'
# only two instances exist

kwok://default-starting
  kwok://default-draining
EOF2
cat >"$tmpd/notready.yaml" <<'EOF2'
apiVersion: karpenter.sh/v1
kind: NodeClaim
metadata:
  name: gone
  finalizers: [karpenter.sh/termination]
  labels: {karpenter.sh/nodepool: default}
spec:
  nodeClassRef: {group: karpenter.kwok.sh, kind: KWOKNodeClass, name: default}
  requirements: []
status:
  providerID: kwok://gone
  conditions:
    - {type: Launched, status: "True", reason: Launched, message: "", lastTransitionTime: "2025-01-01T11:00:00Z"}
    - {type: Registered, status: "True", reason: Registered, message: "", lastTransitionTime: "2025-01-01T11:00:00Z"}
    - {type: Initialized, status: "True", reason: Initialized, message: "", lastTransitionTime: "2025-01-01T11:00:00Z"}
    - {type: Ready, status: "True", reason: Ready, message: "", lastTransitionTime: "2025-01-01T11:00:00Z"}
EOF2
run_cmd "$tool" reconcile -f "$tmpd/notready.yaml" --now "$now" --instances "$tmpd/instances.txt" -o json
check "--instances: exit 0" [ "$rc" -eq 0 ]
check "--instances: garbage collected" contains "$out" '"reason": "GarbageCollected"'
check "--instances: upstream's message" contains "$out" \
	'"message": "garbage collecting nodeclaim with no cloudprovider representation (provider-id kwok://gone)"'
run_cmd "$tool" reconcile -f "$tmpd/notready.yaml" --now "$now" -o json
check "without --instances the NodeClaim's instance exists" [ "$rc" -eq 0 ] && ! contains "$out" GarbageCollected

# A launch through KWOK: finalizer first, then the provider's create.
cat >"$tmpd/new.yaml" <<'EOF2'
apiVersion: karpenter.sh/v1
kind: NodeClaim
metadata: {name: fresh, labels: {karpenter.sh/nodepool: default}}
spec:
  nodeClassRef: {group: karpenter.kwok.sh, kind: KWOKNodeClass, name: default}
  requirements:
    - {key: node.kubernetes.io/instance-type, operator: In, values: [c-2x-amd64-linux]}
    - {key: karpenter.sh/capacity-type, operator: In, values: [on-demand]}
EOF2
run_cmd "$tool" reconcile -f "$tmpd/new.yaml" --now "$now"
check "launch: exit 0" [ "$rc" -eq 0 ]
check "launch: finalizer, then create, then labels, then status" [ "$(printf '%s\n' "$out" | grep -c '^  nodeclaim.lifecycle')" -eq 4 ]
check "launch: the finalizer first" [ "$(printf '%s\n' "$out" | grep '^  nodeclaim.lifecycle' | head -n 1)" = "  nodeclaim.lifecycle: patch [Finalizer] added finalizer karpenter.sh/termination" ]
check "launch: through KWOK" contains "$out" "providerCreate [Launched] launched nodeclaim: provider-id kwok://kwok-fresh-0, instance-type c-2x-amd64-linux"

# NodePool readiness and registration health from the KWOKNodeClass
# (upstream readiness and registrationhealth suites, issue 22 items 5-6).
cat >"$tmpd/class.yaml" <<'EOF2'
apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: default, uid: np-uid, generation: 1}
spec:
  template:
    spec:
      nodeClassRef: {group: karpenter.kwok.sh, kind: KWOKNodeClass, name: default}
      requirements: []
status:
  nodeClassObservedGeneration: 1
  conditions:
    - {type: NodeRegistrationHealthy, status: "False", reason: unhealthy, message: unhealthy, observedGeneration: 1, lastTransitionTime: "2025-01-01T00:00:00Z"}
---
apiVersion: karpenter.sh/v1
kind: NodeClaim
metadata:
  name: leaving
  deletionTimestamp: "2025-01-01T11:00:00Z"
  finalizers: [karpenter.sh/termination]
  labels: {karpenter.sh/nodepool: default}
spec:
  nodeClassRef: {group: karpenter.kwok.sh, kind: KWOKNodeClass, name: default}
  requirements: []
status:
  capacity: {cpu: "2"}
---
apiVersion: karpenter.kwok.sh/v1alpha1
kind: KWOKNodeClass
metadata: {name: default, generation: 2}
status:
  conditions:
    - {type: Ready, status: "False", reason: SubnetsNotFound, message: "no subnets", lastTransitionTime: "2025-01-01T00:00:00Z"}
EOF2
run_cmd "$tool" reconcile -f "$tmpd/class.yaml" --now "$now" -o json
check "node class not ready: exit 0" [ "$rc" -eq 0 ]
check "node class not ready: NodeClassReady=False with its own reason" contains "$out" '"reason": "SubnetsNotFound"'
check "node class not ready: the NodePool is not Ready" contains "$out" '"message": "Ready=False: NodeClassReady=False"'
check "node class generation 2: registration health reset" contains "$out" \
	'"message": "NodeRegistrationHealthy=Unknown: the node class changed"'
check "node class generation 2: recorded" contains "$out" '"nodeClassObservedGeneration": 2'
check "counter: a deleting NodeClaim is not counted" contains "$out" \
	'"message": "status.nodes 0 and status.resources from 0 NodeClaims"'
# (a KWOKNodeClass without status gets the CRD's default, Ready=True)
sed -e '/^status:$/,$d' "$tmpd/class.yaml" >"$tmpd/noconds.yaml"
printf '%s\n' '---' 'apiVersion: karpenter.kwok.sh/v1alpha1' 'kind: KWOKNodeClass' \
	'metadata: {name: default, generation: 1}' 'status: {conditions: []}' >>"$tmpd/noconds.yaml"
run_cmd "$tool" reconcile -f "$tmpd/noconds.yaml" --now "$now" -o json
check "node class without conditions: NodeClassReadinessUnknown" contains "$out" \
	'"reason": "NodeClassReadinessUnknown"'
check "node class without conditions: the NodePool is not Ready" contains "$out" \
	'"message": "Ready=False: NodeClassReady=False"'
# Ready=Unknown, or other conditions without Ready: unknown too (upstream's
# Get(Ready).IsUnknown())
sed -e 's/status: "False", reason: SubnetsNotFound, message: "no subnets"/status: "Unknown", reason: AwaitingReconciliation, message: "waiting"/' \
	"$tmpd/class.yaml" >"$tmpd/unknown.yaml"
run_cmd "$tool" reconcile -f "$tmpd/unknown.yaml" --now "$now" -o json
check "node class Ready=Unknown: NodeClassReadinessUnknown" contains "$out" \
	'"reason": "NodeClassReadinessUnknown"'
sed -e 's/type: Ready, status: "False", reason: SubnetsNotFound/type: SubnetsReady, status: "True", reason: SubnetsReady/' \
	"$tmpd/class.yaml" >"$tmpd/noready.yaml"
run_cmd "$tool" reconcile -f "$tmpd/noready.yaml" --now "$now" -o json
check "node class without a Ready condition: NodeClassReadinessUnknown" contains "$out" \
	'"reason": "NodeClassReadinessUnknown"'
sed -e 's/^metadata: {name: default, generation: 2}$/metadata: {name: default, generation: 1, deletionTimestamp: "2025-01-01T11:00:00Z", finalizers: [x]}/' \
	-e 's/status: "False", reason: SubnetsNotFound/status: "True", reason: Ready/' \
	"$tmpd/class.yaml" >"$tmpd/terminating.yaml"
run_cmd "$tool" reconcile -f "$tmpd/terminating.yaml" --now "$now" -o json
check "node class being deleted: NodeClassTerminating" contains "$out" '"reason": "NodeClassTerminating"'
check "node class generation observed: no reset" [ "$rc" -eq 0 ] && ! contains "$out" 'the node class changed'

# The counter takes an uninitialized Node's zero quantities from its
# NodeClaim (upstream StateNode.Capacity; issue 22 item 4).
cat >"$tmpd/capacity.yaml" <<'EOF2'
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
  name: joining
  creationTimestamp: "2025-01-01T11:50:00Z"
  finalizers: [karpenter.sh/termination]
  labels: {karpenter.sh/nodepool: default, node.kubernetes.io/instance-type: c-2x-amd64-linux}
spec:
  nodeClassRef: {group: karpenter.kwok.sh, kind: KWOKNodeClass, name: default}
  requirements: []
status:
  providerID: kwok://joining
  capacity: {cpu: "2", memory: 4Gi, pods: "32", ephemeral-storage: 20Gi}
---
apiVersion: v1
kind: Node
metadata:
  name: joining
  labels: {karpenter.sh/nodepool: default}
spec: {providerID: kwok://joining}
status:
  capacity: {cpu: "2", memory: 4Gi, pods: "32", ephemeral-storage: "0"}
EOF2
run_cmd "$tool" reconcile -f "$tmpd/capacity.yaml" --now "$now" -o json
check "counter: an uninitialized Node's 0 ephemeral-storage comes from its NodeClaim" \
	contains "$out" '"ephemeral-storage": "20Gi"'

# usage errors (2) and invalid input (1)
printf 'kwok://a\nkwok://b c\n' >"$tmpd/bad.txt"
run_cmd "$tool" reconcile -f "$ex" --instances "$tmpd/bad.txt"
check "malformed --instances: exit 2" [ "$rc" -eq 2 ]
check "malformed --instances: the line number" contains "$errout" "bad.txt:2: malformed provider ID"
run_cmd "$tool" reconcile -f "$ex" --instances "$tmpd/missing.txt"
check "missing --instances file: exit 2" [ "$rc" -eq 2 ]
run_cmd "$tool" reconcile -f "$ex" --now yesterday
check "malformed --now: exit 2" [ "$rc" -eq 2 ]
run_cmd "$tool" reconcile -f "$ex" --feature-gates Drift=true
check "unknown feature gate: exit 2" [ "$rc" -eq 2 ]
check "unknown feature gate: named" contains "$errout" 'unknown gate "Drift=true"'
# node repair: a Node NotReady for 11 minutes (KWOK tolerates 10)
cat >"$tmpd/sick.yaml" <<'EOF2'
apiVersion: karpenter.sh/v1
kind: NodeClaim
metadata:
  name: sick
  creationTimestamp: "2025-01-01T11:00:00Z"
  finalizers: [karpenter.sh/termination]
  labels: {karpenter.sh/nodepool: default}
spec:
  nodeClassRef: {group: karpenter.kwok.sh, kind: KWOKNodeClass, name: default}
  requirements: []
status:
  providerID: kwok://sick
  nodeName: sick
  conditions:
    - {type: Launched, status: "True", reason: Launched, message: "", lastTransitionTime: "2025-01-01T11:00:00Z"}
    - {type: Registered, status: "True", reason: Registered, message: "", lastTransitionTime: "2025-01-01T11:00:00Z"}
    - {type: Initialized, status: "True", reason: Initialized, message: "", lastTransitionTime: "2025-01-01T11:00:00Z"}
    - {type: ConsistentStateFound, status: "True", reason: ConsistentStateFound, message: "", lastTransitionTime: "2025-01-01T11:00:00Z"}
    - {type: Ready, status: "True", reason: Ready, message: "", lastTransitionTime: "2025-01-01T11:00:00Z"}
---
apiVersion: v1
kind: Node
metadata:
  name: sick
  labels: {karpenter.sh/nodepool: default, karpenter.kwok.sh/kwoknodeclass: default, karpenter.sh/initialized: "true", karpenter.sh/registered: "true"}
spec: {providerID: kwok://sick}
status:
  conditions:
    - {type: Ready, status: "False", reason: KubeletNotReady, lastTransitionTime: "2025-01-01T11:49:00Z"}
EOF2
run_cmd "$tool" reconcile -f "$tmpd/sick.yaml" --now "$now"
check "node repair is off by default" [ "$rc" -eq 0 ] && ! contains "$out" "Unhealthy"
run_cmd "$tool" reconcile -f "$tmpd/sick.yaml" --now "$now" --feature-gates NodeRepair=true
check "NodeRepair=true: exit 0" [ "$rc" -eq 0 ]
check "NodeRepair=true: the NodeClaim of the unhealthy Node is deleted" contains "$out" \
	"  node.health: delete [Unhealthy] deleting unhealthy node: condition Ready is False"
# VolumeAttachments: a deleting Node whose drain is done (a pod tolerating
# the disrupted taint is not drained) waits for the attachment of a drained
# pod's PV (csi-data), not for that of the pod still there (csi-logs,
# through its PVC), and stops waiting once the terminationGracePeriod has
# passed.
cat >"$tmpd/vol-node.yaml" <<'EOF2'
apiVersion: karpenter.sh/v1
kind: NodeClaim
metadata:
  name: vol-node
  labels: {karpenter.sh/nodepool: default, karpenter.kwok.sh/kwoknodeclass: default}
  annotations: {karpenter.sh/nodeclaim-termination-timestamp: "2025-01-01T12:55:00Z"}
  deletionTimestamp: "2025-01-01T11:55:00Z"
  finalizers: [karpenter.sh/termination]
spec:
  nodeClassRef: {group: karpenter.kwok.sh, kind: KWOKNodeClass, name: default}
  terminationGracePeriod: 1h
  requirements: []
status:
  providerID: kwok://vol-node
  nodeName: vol-node
  conditions:
    - {type: Launched, status: "True", reason: Launched, message: "", lastTransitionTime: "2025-01-01T10:00:00Z"}
    - {type: Registered, status: "True", reason: Registered, message: "", lastTransitionTime: "2025-01-01T10:00:00Z"}
    - {type: Initialized, status: "True", reason: Initialized, message: "", lastTransitionTime: "2025-01-01T10:00:00Z"}
    - {type: Drained, status: "True", reason: Drained, message: "", lastTransitionTime: "2025-01-01T11:58:00Z"}
    - {type: Ready, status: "True", reason: Ready, message: "", lastTransitionTime: "2025-01-01T10:00:00Z"}
---
apiVersion: v1
kind: Node
metadata:
  name: vol-node
  labels:
    karpenter.sh/nodepool: default
    karpenter.sh/registered: "true"
    karpenter.kwok.sh/kwoknodeclass: default
    node.kubernetes.io/exclude-from-external-load-balancers: karpenter
  finalizers: [karpenter.sh/termination]
  deletionTimestamp: "2025-01-01T11:55:05Z"
spec:
  providerID: kwok://vol-node
  taints: [{key: karpenter.sh/disrupted, effect: NoSchedule}]
status:
  conditions:
    - {type: Ready, status: "True", reason: KubeletReady, lastTransitionTime: "2025-01-01T10:00:00Z"}
---
# not drained: it tolerates the disrupted taint, so its volume's attachment
# does not hold the Node
apiVersion: v1
kind: Pod
metadata: {name: keeper, namespace: default}
spec:
  nodeName: vol-node
  tolerations: [{key: karpenter.sh/disrupted, operator: Exists}]
  containers: [{name: c, image: busybox}]
  volumes: [{name: logs, persistentVolumeClaim: {claimName: logs}}]
status: {phase: Running}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: logs, namespace: default}
spec: {volumeName: pv-logs}
EOF2
cat >"$tmpd/vol-attachments.yaml" <<'EOF2'
# the volume of a pod that was drained (evicted): still attached
apiVersion: storage.k8s.io/v1
kind: VolumeAttachment
metadata: {name: csi-data}
spec:
  attacher: ebs.csi.aws.com
  nodeName: vol-node
  source: {persistentVolumeName: pv-data}
status: {attached: true}
---
apiVersion: storage.k8s.io/v1
kind: VolumeAttachment
metadata: {name: csi-logs}
spec:
  attacher: ebs.csi.aws.com
  nodeName: vol-node
  source: {persistentVolumeName: pv-logs}
status: {attached: true}
EOF2
run_cmd "$tool" reconcile -f "$tmpd/vol-node.yaml" -f "$tmpd/vol-attachments.yaml" --now "$now"
check "volumes: exit 0" [ "$rc" -eq 0 ]
check "volumes: the Node waits" contains "$out" \
	"  node.termination: updateStatus [VolumesDetached] Drained=True, VolumesDetached=Unknown (AwaitingVolumeDetachment)"
check "volumes: upstream's event names the drained pod's attachment only" contains "$out" \
	"  Node/vol-node: Normal AwaitingVolumeDetachment: Awaiting deletion of bound volumeattachments (csi-data)"
check "volumes: looks again after 1s" contains "$out" "  Node/vol-node: node.termination after 1s"
check "volumes: the instance is not terminated while waiting" eval '! contains "$out" providerDelete'
run_cmd "$tool" reconcile -f "$tmpd/vol-node.yaml" -f "$tmpd/vol-attachments.yaml" --now "$now" -o json
printf '%s\n' "$out" >"$tmpd/vol.json"
check "volumes json: VolumesDetached Unknown AwaitingVolumeDetachment" sh -c \
	"tr -d ' \n' <'$tmpd/vol.json' | grep -qF '\"type\":\"VolumesDetached\",\"status\":\"Unknown\",\"lastTransitionTime\":\"2025-01-01T12:00:00Z\",\"reason\":\"AwaitingVolumeDetachment\"'"
check "volumes json: upstream's event" contains "$out" \
	'"message": "Awaiting deletion of bound volumeattachments (csi-data)"'
run_cmd "$tool" reconcile -f "$tmpd/vol-node.yaml" --now "$now"
check "volumes: without attachments the instance is terminated" contains "$out" \
	"  node.termination: providerDelete [InstanceTerminating] terminating instance kwok://vol-node"
sed -n '/^---$/,$p' "$tmpd/vol-attachments.yaml" >"$tmpd/vol-logs-only.yaml" # csi-logs only
run_cmd "$tool" reconcile -f "$tmpd/vol-node.yaml" -f "$tmpd/vol-logs-only.yaml" --now "$now"
check "volumes: the attachment of a pod that is not drained is ignored" contains "$out" \
	"  node.termination: providerDelete [InstanceTerminating] terminating instance kwok://vol-node"
run_cmd "$tool" reconcile -f "$tmpd/vol-node.yaml" -f "$tmpd/vol-attachments.yaml" --now 2025-01-01T13:00:00Z
check "volumes: past the grace period, no more waiting" contains "$out" \
	"  node.termination: updateStatus [InstanceTerminating] Drained=True, VolumesDetached=False (TerminationGracePeriodElapsed), InstanceTerminating=True"
check "volumes: past the grace period, the instance is terminated" contains "$out" \
	"  node.termination: providerDelete [InstanceTerminating] terminating instance kwok://vol-node"
run_cmd "$tool" validate -f "$tmpd/vol-attachments.yaml"
check "validate: VolumeAttachment is skipped, not a Karpenter kind" contains "$out" \
	"VolumeAttachment/csi-data: skipped: storage.k8s.io/v1 VolumeAttachment is not a Karpenter kind"
run_cmd "$tool" simulate -f "$tmpd/vol-attachments.yaml" -f "$ex/nodepool.yaml"
check "simulate: VolumeAttachment is not a kind it reads" contains "$errout" \
	"skipped VolumeAttachment/csi-logs (storage.k8s.io/v1): not a kind this command reads"
run_cmd "$tool" reconcile
check "no -f: exit 2" [ "$rc" -eq 2 ]
run_cmd "$tool" reconcile -f "$ex" -o wide2
check "bad -o: exit 2" [ "$rc" -eq 2 ]
printf 'apiVersion: karpenter.sh/v1\nkind: NodeClaim\nmetadata: {name: x}\nspec: {bogus: 1}\n' >"$tmpd/invalid.yaml"
run_cmd "$tool" reconcile -f "$tmpd/invalid.yaml" --now "$now"
check "invalid NodeClaim: exit 1" [ "$rc" -eq 1 ]
check "invalid NodeClaim: nothing reconciled" contains "$errout" "nothing reconciled"
printf 'apiVersion: v1\nkind: Node\nspec:\n  providerID: kwok://x\n' >"$tmpd/nameless.yaml"
run_cmd "$tool" reconcile -f "$tmpd/nameless.yaml" --now "$now"
check "a Node without a name: exit 1" [ "$rc" -eq 1 ]
check "a Node without a name: the file and object named" contains "$errout" \
	"$tmpd/nameless.yaml: Node (document 1): metadata.name: Required value: name or generateName is required"

# A --now long before the objects' times: delays beyond Go's time.Duration
# saturate as time.Until does (audit finding 2: a signed overflow, a
# wrapped delay printed).
run_cmd "$tool" reconcile -f "$ex" --now 0001-01-01T00:00:00Z
check "--now in year 1: exit 0" [ "$rc" -eq 0 ]
check "--now in year 1: the delay saturates" contains "$out" \
	"  NodeClaim/default-waiting: nodeclaim.lifecycle after 2562047h47m16.854775807s"
run_cmd "$tool" reconcile -f "$ex" --now 0001-01-01T00:00:00Z -o json
check "--now in year 1, JSON: the delay saturates" contains "$out" '"after": "2562047h47m16.854775807s"'

# Two Pods whose names differ after 1,100 bytes: two headings, each name
# whole (audit finding 4: references were cut at 1,023 bytes, so both
# Pods' actions were printed under one heading).
mkdir "$tmpd/long"
cp "$ex"/*.yaml "$tmpd/long/"
long=$(printf '%01100d' 0 | tr 0 p)
for i in 1 2; do
	printf -- '---\napiVersion: v1\nkind: Pod\nmetadata: {name: %s-%s, namespace: default}\nspec: {nodeName: default-draining, containers: [{name: c, image: x}]}\nstatus: {phase: Running}\n' \
		"$long" "$i" >>"$tmpd/long/draining.yaml"
done
run_cmd "$tool" reconcile -f "$tmpd/long" --now "$now"
check "long Pod names: exit 0" [ "$rc" -eq 0 ]
has_line() { printf '%s\n' "$1" | grep -qxF -- "$2"; }
check "long Pod names: the first Pod's heading, whole" has_line "$out" "Pod/default/$long-1"
check "long Pod names: the second Pod's heading, whole" has_line "$out" "Pod/default/$long-2"

finish
