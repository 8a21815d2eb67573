#!/bin/sh
# kubectl-karpenter disrupt: the JSON contract (README "disrupt JSON
# output") on examples/disruption/ at a fixed --now, byte for byte; YAML is
# the same document; --passes, --apply (drift preview), the spot-to-spot
# gate, and exit codes (0 valid input,
# 1 invalid, 2 usage).
# usage: test-disrupt.sh TOOL SOURCE_ROOT
tool=$1 src=$2
. "$(dirname "$0")/tap.sh"
ex=$src/examples/disruption
now=2025-06-01T12:00:00Z

# py NAME SCRIPT: one TAP line; SCRIPT reads the JSON document $out as `d`.
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
check "--help lists disrupt" contains "$out" "  disrupt    Disruption: what Karpenter would delete or replace, and why not the rest"
run_cmd "$tool" disrupt --help
check "disrupt --help exits 0" [ "$rc" -eq 0 ]
check "disrupt --help prints its usage" contains "$out" "Usage: kubectl-karpenter disrupt -f FILE|DIR [-f ...] [--now RFC3339]"
check "disrupt --help: --passes 0's cost and its bound (audit finding 9)" contains "$out" \
	"more is found: up to one pass per node, a cost"
run_cmd "$tool" disrupt
check "no -f is a usage error" [ "$rc" -eq 2 ]
run_cmd "$tool" disrupt -f "$ex" --now yesterday
check "a malformed --now exits 2" [ "$rc" -eq 2 ]
check "a malformed --now is named" contains "$errout" "kubectl-karpenter disrupt: --now: "
run_cmd "$tool" disrupt -f "$ex" --passes -1
check "a negative --passes exits 2" [ "$rc" -eq 2 ]
check "a bad --passes is named" contains "$errout" 'invalid value "-1" for --passes (an integer from 0 to 100000)'
run_cmd "$tool" disrupt -f "$ex" --feature-gates Foo=true
check "an unknown feature gate exits 2" [ "$rc" -eq 2 ]
check "an unknown feature gate is named with the known ones" contains "$errout" \
	'kubectl-karpenter disrupt: --feature-gates: unknown gate "Foo=true" (SpotToSpotConsolidation=true or SpotToSpotConsolidation=false)'
run_cmd "$tool" disrupt -f "$ex" --feature-gates SpotToSpotConsolidation=maybe
check "a gate value other than true or false exits 2" [ "$rc" -eq 2 ]
check "a gate value other than true or false is named" contains "$errout" 'unknown gate "SpotToSpotConsolidation=maybe"'
run_cmd "$tool" disrupt -f "$ex" --now 2025-01-02T00:00:00Z --feature-gates SpotToSpotConsolidation=true,SpotToSpotConsolidation=false
check "gates given twice: the last wins, exit 0" [ "$rc" -eq 0 ]
run_cmd "$tool" disrupt -f "$ex" --apply "$tmpd/missing.yaml"
check "a missing --apply file exits 2" [ "$rc" -eq 2 ]
run_cmd sh -c "cat '$ex/nodes.yaml' | '$tool' disrupt -f - --apply - --now $now"
check "stdin for -f and --apply: a usage error (exit 2)" [ "$rc" -eq 2 ]
check "stdin for -f and --apply: given twice" contains "$errout" "kubectl-karpenter disrupt: stdin (-) given twice"
check "stdin for -f and --apply: no output" [ -z "$out" ]
run_cmd "$tool" disrupt -f "$ex" -o xml
check "unsupported output format exits 2" [ "$rc" -eq 2 ]

# ----------------------------------------------------------- invalid (1) --
printf 'apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: x}\nspec: {bogus: 1}\n' >"$tmpd/bad.yaml"
run_cmd "$tool" disrupt -f "$tmpd/bad.yaml" --now "$now"
check "invalid input exits 1" [ "$rc" -eq 1 ]
check "invalid input says nothing was disrupted" contains "$errout" "kubectl-karpenter disrupt: invalid input, nothing disrupted"

# ------------------------------------------------------- the contract (0) --
run_cmd "$tool" disrupt -f "$ex" --now "$now" -o json
check "valid input exits 0" [ "$rc" -eq 0 ]
cat >"$tmpd/want.json" <<'JSON'
{
    "now": "2025-06-01T12:00:00Z",
    "commands": [
        {
            "pass": 1,
            "method": "Emptiness",
            "reason": "Empty",
            "decision": "delete",
            "candidates": [
                {
                    "nodeClaim": "default-empty",
                    "node": "default-empty",
                    "nodePool": "default",
                    "instanceType": "c-4x-amd64-linux",
                    "zone": "test-zone-a",
                    "capacityType": "on-demand",
                    "price": 0.108589934592
                }
            ],
            "replacements": [],
            "pods": [],
            "savings": 0.108589934592
        }
    ],
    "nodes": [
        {
            "nodeClaim": "default-batch",
            "node": "default-batch",
            "nodePool": "default",
            "candidate": false,
            "empty": false,
            "drifted": null,
            "consolidatable": true,
            "reasons": [
                {
                    "code": "DoNotDisrupt",
                    "method": null,
                    "message": "pod has \"karpenter.sh/do-not-disrupt\" annotation (Pod=batch/report-1)"
                }
            ]
        },
        {
            "nodeClaim": "default-busy",
            "node": "default-busy",
            "nodePool": "default",
            "candidate": true,
            "empty": false,
            "drifted": null,
            "consolidatable": true,
            "reasons": [
                {
                    "code": "NotEmpty",
                    "method": "Emptiness",
                    "message": "node is not empty"
                },
                {
                    "code": "NotDrifted",
                    "method": "Drift",
                    "message": "node is not drifted"
                },
                {
                    "code": "NotSelected",
                    "method": "MultiNodeConsolidation",
                    "message": "MultiNodeConsolidation would delete it, but Emptiness's command goes first in this pass"
                },
                {
                    "code": "NotSelected",
                    "method": "SingleNodeConsolidation",
                    "message": "could be consolidated (delete), but node default-idle goes first in this pass"
                }
            ]
        },
        {
            "nodeClaim": "default-db",
            "node": "default-db",
            "nodePool": "default",
            "candidate": false,
            "empty": false,
            "drifted": null,
            "consolidatable": true,
            "reasons": [
                {
                    "code": "PodDisruptionBudget",
                    "method": null,
                    "message": "pdb prevents pod evictions (PodDisruptionBudget=[shop/db], Pod=shop/db-0)"
                }
            ]
        },
        {
            "nodeClaim": "default-empty",
            "node": "default-empty",
            "nodePool": "default",
            "candidate": true,
            "empty": true,
            "drifted": null,
            "consolidatable": true,
            "reasons": [
                {
                    "code": "NotDrifted",
                    "method": "Drift",
                    "message": "node is not drifted"
                }
            ]
        },
        {
            "nodeClaim": "default-idle",
            "node": "default-idle",
            "nodePool": "default",
            "candidate": true,
            "empty": false,
            "drifted": null,
            "consolidatable": true,
            "reasons": [
                {
                    "code": "NotEmpty",
                    "method": "Emptiness",
                    "message": "node is not empty"
                },
                {
                    "code": "NotDrifted",
                    "method": "Drift",
                    "message": "node is not drifted"
                },
                {
                    "code": "NotSelected",
                    "method": "MultiNodeConsolidation",
                    "message": "MultiNodeConsolidation would delete it, but Emptiness's command goes first in this pass"
                },
                {
                    "code": "NotSelected",
                    "method": "SingleNodeConsolidation",
                    "message": "SingleNodeConsolidation would delete it, but Emptiness's command goes first in this pass"
                }
            ]
        },
        {
            "nodeClaim": "default-old",
            "node": "default-old",
            "nodePool": "default",
            "candidate": true,
            "empty": false,
            "drifted": {
                "reason": "NodePoolDrifted",
                "message": "NodePool hash 12745407319442031341 differs from the NodeClaim's 4205432312131447125 (hash version v3): a static field of spec.template changed"
            },
            "consolidatable": true,
            "reasons": [
                {
                    "code": "NotEmpty",
                    "method": "Emptiness",
                    "message": "node is not empty"
                },
                {
                    "code": "NotSelected",
                    "method": "Drift",
                    "message": "Drift would delete it, but Emptiness's command goes first in this pass"
                },
                {
                    "code": "NotSelected",
                    "method": "MultiNodeConsolidation",
                    "message": "MultiNodeConsolidation would delete it, but Emptiness's command goes first in this pass"
                },
                {
                    "code": "NotSelected",
                    "method": "SingleNodeConsolidation",
                    "message": "could be consolidated (delete), but node default-idle goes first in this pass"
                }
            ]
        }
    ],
    "budgets": [
        {
            "nodePool": "default",
            "reason": "Empty",
            "allowed": 3,
            "disrupting": 0,
            "remaining": 3
        },
        {
            "nodePool": "default",
            "reason": "Drifted",
            "allowed": 3,
            "disrupting": 0,
            "remaining": 3
        },
        {
            "nodePool": "default",
            "reason": "Underutilized",
            "allowed": 3,
            "disrupting": 0,
            "remaining": 3
        }
    ],
    "cost": {
        "before": 0.760129542144,
        "after": 0.6515396075519999
    }
}
JSON
printf '%s\n' "$out" >"$tmpd/got.json"
check "the JSON document is exactly the contract's" cmp -s "$tmpd/want.json" "$tmpd/got.json"
run_cmd "$tool" disrupt -f "$ex" --now "$now" -o json
printf '%s\n' "$out" >"$tmpd/again.json"
check "the same input and --now give the same bytes" cmp -s "$tmpd/got.json" "$tmpd/again.json"
run_cmd "$tool" disrupt -f "$ex" --now "$now" -o yaml
printf '%s\n' "$out" >"$tmpd/got.yaml"
check "YAML is the same document" python3 -c "
import json, sys, yaml
a = json.load(open(sys.argv[1])); b = yaml.safe_load(open(sys.argv[2]))
assert a == b" "$tmpd/got.json" "$tmpd/got.yaml"

# ----------------------------------------------------------------- passes --
run_cmd "$tool" disrupt -f "$ex" --now "$now" --passes 0 -o json
py "--passes 0 converges: Emptiness, Drift, then MultiNodeConsolidation" "
got = [(c['pass'], c['method'], c['decision'], [k['node'] for k in c['candidates']]) for c in d['commands']]
assert got == [(1, 'Emptiness', 'delete', ['default-empty']), (2, 'Drift', 'delete', ['default-old']),
               (3, 'MultiNodeConsolidation', 'delete', ['default-idle', 'default-busy'])], got
assert round(d['cost']['before'], 10) == 0.7601295421 and round(d['cost']['after'], 10) == 0.2171798692, d['cost']
moved = [(c['pass'], p['name'], p['from'], p['node'], p['nodeClaim']) for c in d['commands'] for p in c['pods']]
assert moved == [(2, 'worker-1', 'default-old', 'default-batch', None),
                 (3, 'web-1', 'default-idle', 'default-batch', None),
                 (3, 'api-1', 'default-busy', 'default-batch', None),
                 (3, 'api-2', 'default-busy', 'default-db', None)], moved"
run_cmd "$tool" disrupt -f "$ex" --now "$now" --passes 2 -o json
py "--passes 2 stops after two commands" "assert [c['pass'] for c in d['commands']] == [1, 2]"

# ---------------------------------------------------------- drift preview --
run_cmd "$tool" disrupt -f "$ex" --now 2025-06-02T12:00:00Z --apply "$ex/preview/upgrade.yaml" -o json
py "--apply: every NodeClaim drifts (NodePoolDrifted), drift blocked inside the weekday window" "
assert all(n['drifted'] and n['drifted']['reason'] == 'NodePoolDrifted' for n in d['nodes']), d['nodes']
b = {(x['nodePool'], x['reason']): (x['allowed'], x['disrupting'], x['remaining']) for x in d['budgets']}
assert b == {('default', 'Empty'): (3, 0, 3), ('default', 'Drifted'): (0, 0, 0), ('default', 'Underutilized'): (3, 0, 3)}, b
busy = [n for n in d['nodes'] if n['node'] == 'default-busy'][0]
assert {'code': 'Budget', 'method': 'Drift', 'message': 'NodePool \"default\": No allowed disruptions for disruption reason Drifted due to blocking budget'} in busy['reasons'], busy"
run_cmd "$tool" disrupt -f "$ex" --now 2025-06-02T18:00:00Z --apply "$ex/preview/upgrade.yaml" --passes 0 -o json
py "--apply outside the window: drift replaces them pass after pass" "
assert [c['method'] for c in d['commands']] == ['Emptiness', 'Drift', 'Drift', 'Drift'], d['commands']"

# ------------------------------------------------------------------ gates --
# A budget schedule the CRD's pattern accepts but cron rejects: the input is
# valid (a warning), and disrupt fails closed for that NodePool as upstream.
mkdir "$tmpd/badcron"
cp "$ex/nodes.yaml" "$ex/pods.yaml" "$tmpd/badcron/"
sed 's/schedule: "0 9 \* \* mon-fri"/schedule: "0 9 * * fri-mon"/' "$ex/nodepools.yaml" \
	>"$tmpd/badcron/nodepools.yaml"
run_cmd "$tool" disrupt -f "$tmpd/badcron" --now "$now" -o json
check "bad cron schedule: exit 0 (valid input)" [ "$rc" -eq 0 ]
check "bad cron schedule: a warning" contains "$errout" \
	'spec.disruption.budgets[1].schedule: Invalid value: "0 9 * * fri-mon": day-of-week field "fri-mon": range start FRI (5) is after end MON (1)'
py "bad cron schedule: fails closed (nothing allowed, no command, Budget names the schedule)" "
assert d['commands'] == [], d['commands']
assert all(b['allowed'] == 0 and b['remaining'] == 0 for b in d['budgets']), d['budgets']
empty = [n for n in d['nodes'] if n['node'] == 'default-empty'][0]
assert {'code': 'Budget', 'method': 'Emptiness', 'message': 'NodePool \"default\": no disruptions allowed: invalid disruption budget (spec.disruption.budgets[1].schedule: day-of-week field \"fri-mon\": range start FRI (5) is after end MON (1))'} in empty['reasons'], empty"
run_cmd "$tool" disrupt -f "$ex" --now "$now" --feature-gates SpotToSpotConsolidation=true -o json
check "the spot-to-spot gate is accepted" [ "$rc" -eq 0 ]

# ---------------------------------------------------------- nameless (1) --
# A Node without metadata (audit finding 1: SIGSEGV from -f and --apply).
printf 'apiVersion: v1\nkind: Node\nspec:\n  providerID: kwok://x\n' >"$tmpd/nameless.yaml"
run_cmd "$tool" disrupt -f "$tmpd/nameless.yaml" --now "$now"
check "a Node without a name: exit 1" [ "$rc" -eq 1 ]
check "a Node without a name: the file and object named" contains "$errout" \
	"$tmpd/nameless.yaml: Node (document 1): metadata.name: Required value: name or generateName is required"
run_cmd "$tool" disrupt -f "$ex" --apply "$tmpd/nameless.yaml" --now "$now"
check "--apply of a Node without a name: exit 1" [ "$rc" -eq 1 ]
check "--apply of a Node without a name: the file and object named" contains "$errout" \
	"$tmpd/nameless.yaml: Node (document 1): metadata.name: Required value: name or generateName is required"
printf -- '---\napiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: Pod, metadata: {name: p}}\n- {apiVersion: v1, kind: Pod, metadata: {namespace: x}}\n' >"$tmpd/nameless-list.yaml"
run_cmd "$tool" disrupt -f "$tmpd/nameless-list.yaml" --now "$now"
check "a nameless List item: the item named" contains "$errout" \
	"$tmpd/nameless-list.yaml: Pod (document 1: items[1]): metadata.name: Required value: name or generateName is required"

# Initialized as upstream's StateNode reads it (lib/state): the Node's
# karpenter.sh/initialized label, as the scheduler's snapshot reads it.
# Without the labels every node waits (disrupt read the NodeClaim's
# condition and decided as before; they disagreed).
mkdir "$tmpd/noinit"
cp "$src"/examples/disruption/*.yaml "$tmpd/noinit/"
grep -v "karpenter.sh/initialized" "$src/examples/disruption/nodes.yaml" >"$tmpd/noinit/nodes.yaml"
run_cmd "$tool" disrupt -f "$tmpd/noinit" --now 2025-06-01T12:00:00Z
check "initialized: without the Node label nothing is disrupted" contains "$out" "No disruption command."
check "initialized: the node says why" contains "$out" \
	"default-empty   no          yes     no        yes              NotInitialized: node isn't initialized"

# minValues after consolidation's price filter and in spot-to-spot
# (upstream consolidation_test.go; issue 22 items 7-8): a c-32x has 15
# cheaper amd64 Linux types in the built-in catalogue, an m-32x 17.
cat >"$tmpd/minvalues.yaml" <<'EOF2'
apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: default}
spec:
  template:
    spec:
      nodeClassRef: {group: karpenter.kwok.sh, kind: KWOKNodeClass, name: default}
      requirements:
        - {key: karpenter.sh/capacity-type, operator: In, values: [on-demand]}
        - {key: kubernetes.io/arch, operator: In, values: [amd64]}
        - {key: kubernetes.io/os, operator: In, values: [linux]}
        - {key: node.kubernetes.io/instance-type, operator: Exists, minValues: 16}
  disruption: {consolidationPolicy: WhenEmptyOrUnderutilized, consolidateAfter: 0s}
---
apiVersion: v1
kind: Node
metadata:
  name: big
  labels: {karpenter.sh/nodepool: default, karpenter.sh/capacity-type: on-demand, node.kubernetes.io/instance-type: c-32x-amd64-linux, topology.kubernetes.io/zone: test-zone-a, kubernetes.io/arch: amd64, kubernetes.io/os: linux, karpenter.sh/registered: "true", karpenter.sh/initialized: "true"}
spec: {providerID: kwok://big}
status:
  capacity: {cpu: "32", memory: 64Gi, pods: "512"}
  allocatable: {cpu: 31900m, memory: 63Gi, pods: "512"}
  conditions: [{type: Ready, status: "True", lastTransitionTime: "2025-06-01T10:00:00Z"}]
---
apiVersion: karpenter.sh/v1
kind: NodeClaim
metadata:
  name: big
  labels: {karpenter.sh/nodepool: default, karpenter.sh/capacity-type: on-demand, node.kubernetes.io/instance-type: c-32x-amd64-linux, topology.kubernetes.io/zone: test-zone-a, kubernetes.io/arch: amd64, kubernetes.io/os: linux}
spec:
  nodeClassRef: {group: karpenter.kwok.sh, kind: KWOKNodeClass, name: default}
  requirements: [{key: karpenter.sh/capacity-type, operator: In, values: [on-demand]}]
status:
  providerID: kwok://big
  nodeName: big
  capacity: {cpu: "32", memory: 64Gi, pods: "512"}
  allocatable: {cpu: 31900m, memory: 63Gi, pods: "512"}
  conditions:
    - {type: Launched, status: "True", reason: Launched, lastTransitionTime: "2025-06-01T10:00:00Z"}
    - {type: Registered, status: "True", reason: Registered, lastTransitionTime: "2025-06-01T10:00:00Z"}
    - {type: Initialized, status: "True", reason: Initialized, lastTransitionTime: "2025-06-01T10:00:00Z"}
    - {type: Consolidatable, status: "True", reason: Consolidatable, lastTransitionTime: "2025-06-01T10:00:00Z"}
---
apiVersion: v1
kind: Pod
metadata: {name: web-0, namespace: default, ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: web, uid: rs-uid, controller: true}]}
spec: {nodeName: big, containers: [{name: c, image: x, resources: {requests: {cpu: 100m}}}]}
status: {phase: Running}
EOF2
run_cmd "$tool" disrupt -f "$tmpd/minvalues.yaml" --now "$now" -o json
check "minValues 16, 15 cheaper types: exit 0" [ "$rc" -eq 0 ]
py "minValues 16, 15 cheaper types: no command, and why" '
assert d["commands"] == [], d["commands"]
n = [x for x in d["nodes"] if x["node"] == "big"][0]
assert any(w["message"] == "Filtering by price: minValues requirement is not met for label(s) (label(s)=[node.kubernetes.io/instance-type])" for w in n["reasons"]), n'
sed -e 's/on-demand/spot/g' -e 's/c-32x/m-32x/g' "$tmpd/minvalues.yaml" >"$tmpd/s2s.yaml"
run_cmd "$tool" disrupt -f "$tmpd/s2s.yaml" --now "$now" --feature-gates SpotToSpotConsolidation=true -o json
py "spot-to-spot, minValues 16: the replacement keeps the 16 cheapest types" '
r = d["commands"][0]["replacements"][0]["nodeClaim"]
v = [q for q in r["spec"]["requirements"] if q["key"] == "node.kubernetes.io/instance-type"][0]["values"]
assert len(v) == 16 and "c-32x-amd64-linux" in v and "s-32x-amd64-linux" not in v, v'

finish
