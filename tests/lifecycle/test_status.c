/*
 * Status controllers: nodeclaim.disruption (Drifted, Consolidatable), nodeclaim.podevents,
 * nodeclaim.consistency and nodepool.counter, after upstream
 * pkg/controllers/nodeclaim/{disruption,podevents,consistency} and
 * pkg/controllers/nodepool/counter suite tests.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include <karpenter/hash.h>

#include "kp_test.h"
#include "lc_harness.h"

#define T0 "2024-01-01T00:00:00Z"
#define FIN ", finalizers: [karpenter.sh/termination]"
#define LAUNCHED "{type: Launched, status: 'True', reason: Launched, lastTransitionTime: '" T0 "'}"
#define REGISTERED "{type: Registered, status: 'True', reason: Registered, lastTransitionTime: '" T0 "'}"
#define INITIALIZED "{type: Initialized, status: 'True', reason: Initialized, lastTransitionTime: '" T0 "'}"
#define STATUS "providerID: 'fake://nc-1', nodeName: node-1, capacity: {cpu: '4', memory: 16Gi, " \
	"pods: '110'}, conditions: [" LAUNCHED ", " REGISTERED ", " INITIALIZED "]"

static lc_world w;

static void setup(void)
{
	lc_world_init(&w, LC_T0 + 60000);
}

static void teardown(void)
{
	lc_world_free(&w);
}

static void node(const char *capacity)
{
	char yaml[1024];
	snprintf(yaml, sizeof(yaml),
		 "apiVersion: v1\nkind: Node\nmetadata: {name: node-1, labels: "
		 "{karpenter.test.sh/testnodeclass: default}}\nspec: {providerID: 'fake://nc-1'}\n"
		 "status: {capacity: {%s}, conditions: [{type: Ready, status: 'True'}]}\n",
		 capacity);
	lc_add(&w, yaml);
}

static kp_lifecycle_result **fresh(void)
{
	return lc_fresh(&w);
}

START_TEST(drifted_when_nodepool_hash_differs)
{
	lc_add(&w, "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: default, "
		   "annotations: {karpenter.sh/nodepool-hash: '111', karpenter.sh/nodepool-hash-version: v3}}\n"
		   "spec: {template: {spec: {nodeClassRef: {group: karpenter.test.sh, kind: TestNodeClass, "
		   "name: default}, requirements: []}}}\n");
	kp_nodeclaim *nc = lc_add(&w, lc_nodeclaim_yaml("nc-1", FIN ", annotations: "
				  "{karpenter.sh/nodepool-hash: '222', karpenter.sh/nodepool-hash-version: v3}",
				  NULL, STATUS));
	ck_assert_int_eq(kp_lifecycle_nodeclaim_disruption(fresh(), &w.spec, &w.opts, nc, NULL), KP_OK);
	ck_assert_str_eq(lc_summary(&w), "updateStatus NodeClaim/nc-1 Drifted\n");
	const kp_condition *c = lc_nc_cond(lc_action(&w, 0), "Drifted");
	ck_assert_str_eq(c->status, "True");
	ck_assert_str_eq(c->reason, "NodePoolDrifted");
	ck_assert_str_eq(lc_action(&w, 0)->controller, "nodeclaim.disruption");
	/* the stored NodePool's consolidateAfter (0s) makes it Consolidatable
	 * in the same update, which is named for the drift and says both */
	ck_assert_str_eq(lc_nc_cond(lc_action(&w, 0), "Consolidatable")->status, "True");
	ck_assert_str_eq(lc_action(&w, 0)->message,
			 "NodePool hash 15987417032968393143 differs from the NodeClaim's 222 (hash "
			 "version v3): a static field of spec.template changed; marking consolidatable");
}
END_TEST

/* Not drifted: the NodeClaim carries the hash of the NodePool's spec. The
 * NodePool's own annotation ('111', stale) is not read: drift hashes the
 * spec as the hash controller would write it, as disruption does (lib/state;
 * the lifecycle read the annotation, and disagreed with `disrupt`). */
START_TEST(drifted_cleared_when_not_drifted)
{
	kp_nodepool *np = lc_add(&w, "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: default, "
		   "annotations: {karpenter.sh/nodepool-hash: '111', karpenter.sh/nodepool-hash-version: v3}}\n"
		   "spec: {template: {spec: {nodeClassRef: {group: karpenter.test.sh, kind: TestNodeClass, "
		   "name: default}, requirements: []}}}\n");
	uint64_t h = 0;
	ck_assert_int_eq(kp_nodepool_hash(np, &h, NULL), KP_OK);
	char ann[160];
	snprintf(ann, sizeof(ann), FIN ", annotations: {karpenter.sh/nodepool-hash: '%llu', "
		 "karpenter.sh/nodepool-hash-version: v3}", (unsigned long long)h);
	kp_nodeclaim *nc = lc_add(&w, lc_nodeclaim_yaml("nc-1", ann, NULL,
				  "providerID: 'fake://nc-1', conditions: [" LAUNCHED ", "
				  "{type: Drifted, status: 'True', reason: NodePoolDrifted}]"));
	ck_assert_int_eq(kp_lifecycle_nodeclaim_disruption(fresh(), &w.spec, &w.opts, nc, NULL), KP_OK);
	ck_assert_str_eq(lc_summary(&w), "updateStatus NodeClaim/nc-1 Drifted\n");
	ck_assert_str_eq(lc_action(&w, 0)->message, "no longer drifted");
	ck_assert_str_eq(lc_nc_conds(lc_action(&w, 0)), "Launched=True/Launched");
}
END_TEST

/* The same NodeClaim with the NodePool's stale annotation ('111') is
 * drifted: the spec's hash differs from it. */
START_TEST(drift_reads_the_spec_not_a_stale_annotation)
{
	lc_add(&w, "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: default, "
		   "annotations: {karpenter.sh/nodepool-hash: '111', karpenter.sh/nodepool-hash-version: v3}}\n"
		   "spec: {template: {spec: {nodeClassRef: {group: karpenter.test.sh, kind: TestNodeClass, "
		   "name: default}, requirements: []}}}\n");
	kp_nodeclaim *nc = lc_add(&w, lc_nodeclaim_yaml("nc-1", FIN ", annotations: "
				  "{karpenter.sh/nodepool-hash: '111', karpenter.sh/nodepool-hash-version: v3}",
				  NULL, STATUS));
	ck_assert_int_eq(kp_lifecycle_nodeclaim_disruption(fresh(), &w.spec, &w.opts, nc, NULL), KP_OK);
	const kp_condition *c = lc_nc_cond(lc_action(&w, 0), "Drifted");
	ck_assert_ptr_nonnull(c);
	ck_assert_str_eq(c->status, "True");
	ck_assert_str_eq(c->reason, "NodePoolDrifted");
}
END_TEST

/* nodeclaim.disruption's Consolidatable (upstream consolidation_test.go):
 * the clock runs from status.lastPodEventTime, else from the Initialized
 * transition; now is T0 + 60 s. */
static kp_nodeclaim *consolidation_case(const char *consolidate_after, const char *status)
{
	char np[512];
	snprintf(np, sizeof(np),
		 "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: default}\n"
		 "spec: {disruption: {consolidateAfter: '%s'}, template: {spec: {nodeClassRef: "
		 "{group: karpenter.test.sh, kind: TestNodeClass, name: default}, requirements: []}}}\n",
		 consolidate_after);
	lc_add(&w, np);
	return lc_add(&w, lc_nodeclaim_yaml("nc-1", FIN, NULL, status));
}

START_TEST(consolidatable_after_initialized)
{
	/* no pod event: 60 s since Initialized, consolidateAfter 30s */
	kp_nodeclaim *nc = consolidation_case("30s", STATUS);
	ck_assert_int_eq(kp_lifecycle_nodeclaim_disruption(fresh(), &w.spec, &w.opts, nc, NULL), KP_OK);
	ck_assert_str_eq(lc_summary(&w), "updateStatus NodeClaim/nc-1 Consolidatable\n");
	const kp_condition *c = lc_nc_cond(lc_action(&w, 0), "Consolidatable");
	ck_assert_str_eq(c->status, "True");
	ck_assert_str_eq(lc_action(&w, 0)->message, "marking consolidatable");
	ck_assert_uint_eq(kp_lifecycle_result_requeue_count(w.r), 0);
}
END_TEST

/* upstream nodeclaim/disruption suite "should not set consolidatable
 * condition for Static Nodepool": the condition is only reconciled for
 * NodePools without spec.replicas. */
START_TEST(static_nodepool_never_consolidatable)
{
	lc_add(&w, "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: default}\n"
		   "spec: {replicas: 1, disruption: {consolidateAfter: '30s'}, template: {spec: "
		   "{nodeClassRef: {group: karpenter.test.sh, kind: TestNodeClass, name: default}, "
		   "requirements: []}}}\n");
	kp_nodeclaim *nc = lc_add(&w, lc_nodeclaim_yaml("nc-1", FIN, NULL, STATUS));
	ck_assert_int_eq(kp_lifecycle_nodeclaim_disruption(fresh(), &w.spec, &w.opts, nc, NULL), KP_OK);
	ck_assert_str_eq(lc_summary(&w), "");
	ck_assert_uint_eq(kp_lifecycle_result_requeue_count(w.r), 0);
}
END_TEST

START_TEST(consolidatable_waits_for_last_pod_event)
{
	/* a pod event 20 s ago, consolidateAfter 30s: not yet, look again in 10 s */
	kp_nodeclaim *nc = consolidation_case("30s", STATUS ", lastPodEventTime: '2024-01-01T00:00:40Z'");
	ck_assert_int_eq(kp_lifecycle_nodeclaim_disruption(fresh(), &w.spec, &w.opts, nc, NULL), KP_OK);
	ck_assert_str_eq(lc_summary(&w), "");
	ck_assert_uint_eq(kp_lifecycle_result_requeue_count(w.r), 1);
	const kp_lifecycle_requeue *q = kp_lifecycle_result_requeue_at(w.r, 0);
	ck_assert_str_eq(q->controller, "nodeclaim.disruption");
	ck_assert_int_eq(q->after_ms, 10000);
}
END_TEST

START_TEST(consolidatable_removed_inside_window)
{
	/* the condition from an earlier reconcile goes when a pod event restarts the clock */
	kp_nodeclaim *nc = consolidation_case("30s",
		"providerID: 'fake://nc-1', nodeName: node-1, lastPodEventTime: '2024-01-01T00:00:50Z', "
		"conditions: [" LAUNCHED ", " REGISTERED ", " INITIALIZED ", "
		"{type: Consolidatable, status: 'True', reason: Consolidatable, lastTransitionTime: '" T0 "'}]");
	ck_assert_int_eq(kp_lifecycle_nodeclaim_disruption(fresh(), &w.spec, &w.opts, nc, NULL), KP_OK);
	ck_assert_str_eq(lc_summary(&w), "updateStatus NodeClaim/nc-1 Consolidatable\n");
	ck_assert_str_eq(lc_action(&w, 0)->message, "removing consolidatable status condition");
	ck_assert_str_eq(lc_nc_conds(lc_action(&w, 0)),
			 "Launched=True/Launched Registered=True/Registered Initialized=True/Initialized");
	ck_assert_int_eq(kp_lifecycle_result_requeue_at(w.r, 0)->after_ms, 20000);
}
END_TEST

START_TEST(consolidatable_never_and_not_initialized)
{
	kp_nodeclaim *nc = consolidation_case("Never", STATUS);
	ck_assert_int_eq(kp_lifecycle_nodeclaim_disruption(fresh(), &w.spec, &w.opts, nc, NULL), KP_OK);
	ck_assert_str_eq(lc_summary(&w), "");
	ck_assert_uint_eq(kp_lifecycle_result_requeue_count(w.r), 0);
}
END_TEST

START_TEST(consolidatable_not_initialized)
{
	kp_nodeclaim *nc = consolidation_case("0s", "providerID: 'fake://nc-1', conditions: [" LAUNCHED "]");
	ck_assert_int_eq(kp_lifecycle_nodeclaim_disruption(fresh(), &w.spec, &w.opts, nc, NULL), KP_OK);
	ck_assert_str_eq(lc_summary(&w), "");
}
END_TEST

START_TEST(pod_event_moves_last_pod_event_time)
{
	lc_add(&w, lc_nodeclaim_yaml("nc-1", FIN, NULL, STATUS));
	node("cpu: '4'");
	kp_pod *pod = lc_add(&w, "apiVersion: v1\nkind: Pod\nmetadata: {name: web, namespace: default}\n"
				 "spec: {nodeName: node-1, containers: [{name: c, image: x}]}\n");
	ck_assert_int_eq(kp_lifecycle_pod_event(fresh(), &w.spec, &w.opts, pod, NULL), KP_OK);
	ck_assert_str_eq(lc_summary(&w), "updateStatus NodeClaim/nc-1 PodEvent\n");
	const kp_nodeclaim *nc = lc_action(&w, 0)->object;
	ck_assert_int_eq(nc->status->last_pod_event_time_ms, LC_T0 + 60000);
	ck_assert_str_eq(lc_action(&w, 0)->controller, "nodeclaim.podevents");
}
END_TEST

START_TEST(pod_event_deduped_within_10s_and_daemonset_ignored)
{
	lc_add(&w, lc_nodeclaim_yaml("nc-1", FIN, NULL, STATUS ", lastPodEventTime: '2024-01-01T00:00:55Z'"));
	node("cpu: '4'");
	kp_pod *pod = lc_add(&w, "apiVersion: v1\nkind: Pod\nmetadata: {name: web, namespace: default}\n"
				 "spec: {nodeName: node-1, containers: [{name: c, image: x}]}\n");
	ck_assert_int_eq(kp_lifecycle_pod_event(fresh(), &w.spec, &w.opts, pod, NULL), KP_OK);
	ck_assert_uint_eq(kp_lifecycle_result_action_count(w.r), 0);
	w.spec.now_ms = LC_T0 + 65000;
	ck_assert_int_eq(kp_lifecycle_pod_event(fresh(), &w.spec, &w.opts, pod, NULL), KP_OK);
	ck_assert_uint_eq(kp_lifecycle_result_action_count(w.r), 1);
	kp_pod *ds = lc_add(&w, "apiVersion: v1\nkind: Pod\nmetadata: {name: ds, namespace: default, "
				"ownerReferences: [{apiVersion: apps/v1, kind: DaemonSet, name: d, uid: x1}]}\n"
				"spec: {nodeName: node-1, containers: [{name: c, image: x}]}\n");
	ck_assert_int_eq(kp_lifecycle_pod_event(fresh(), &w.spec, &w.opts, ds, NULL), KP_OK);
	ck_assert_uint_eq(kp_lifecycle_result_action_count(w.r), 0);
}
END_TEST

START_TEST(consistency_node_shape)
{
	kp_nodeclaim *nc = lc_add(&w, lc_nodeclaim_yaml("nc-1", FIN, ", resources: {requests: "
				  "{cpu: '1', memory: 1Gi}}", STATUS));
	node("cpu: '4', memory: 8Gi");
	ck_assert_int_eq(kp_lifecycle_nodeclaim_consistency(fresh(), &w.spec, &w.opts, nc, NULL), KP_OK);
	ck_assert_str_eq(lc_summary(&w), "updateStatus NodeClaim/nc-1 ConsistencyCheck\n");
	const kp_condition *c = lc_nc_cond(lc_action(&w, 0), "ConsistentStateFound");
	ck_assert_str_eq(c->status, "False");
	ck_assert_str_eq(c->reason, "ConsistencyCheckFailed");
	ck_assert_str_eq(c->message, "Consistency Check Failed");
	ck_assert_uint_eq(kp_lifecycle_result_event_count(w.r), 1);
	const kp_lifecycle_event *e = kp_lifecycle_result_event_at(w.r, 0);
	ck_assert_str_eq(e->reason, "FailedConsistencyCheck");
	ck_assert_str_eq(e->message, "expected 16Gi of resource memory, but found 8Gi (50.0% of expected)");
	ck_assert_int_eq(kp_lifecycle_result_requeue_at(w.r, 0)->after_ms, 10 * LC_MIN);
}
END_TEST

START_TEST(consistency_ok)
{
	kp_nodeclaim *nc = lc_add(&w, lc_nodeclaim_yaml("nc-1", FIN, ", resources: {requests: "
				  "{cpu: '1'}}", STATUS));
	node("cpu: 3700m");
	ck_assert_int_eq(kp_lifecycle_nodeclaim_consistency(fresh(), &w.spec, &w.opts, nc, NULL), KP_OK);
	ck_assert_str_eq(lc_nc_cond(lc_action(&w, 0), "ConsistentStateFound")->status, "True");
	ck_assert_uint_eq(kp_lifecycle_result_event_count(w.r), 0);
}
END_TEST

START_TEST(counter_sums_nodeclaims)
{
	kp_nodepool *np = lc_add(&w, "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: default}\n"
				 "spec: {template: {spec: {nodeClassRef: {group: karpenter.test.sh, kind: "
				 "TestNodeClass, name: default}, requirements: []}}}\n");
	lc_add(&w, lc_nodeclaim_yaml("nc-1", FIN, NULL, STATUS));
	lc_add(&w, lc_nodeclaim_yaml("nc-2", FIN, NULL, "capacity: {cpu: '2', memory: 4Gi, pods: '10'}"));
	node("cpu: '8', memory: 32Gi, pods: '110'");
	ck_assert_int_eq(kp_lifecycle_nodepool_counter(fresh(), &w.spec, &w.opts, np, NULL), KP_OK);
	ck_assert_str_eq(lc_summary(&w), "updateStatus NodePool/default Counted\n");
	const kp_nodepool *got = lc_action(&w, 0)->object;
	ck_assert_int_eq(got->status->nodes, 2);
	char buf[64];
	const char *want[][2] = { { "cpu", "10" }, { "ephemeral-storage", "0" }, { "memory", "36Gi" },
				  { "nodes", "2" }, { "pods", "120" } };
	ck_assert_uint_eq(got->status->resources.count, 5);
	for (size_t i = 0; i < 5; i++) {
		kp_quantity q;
		ck_assert_int_eq(kp_resources_get(&q, &got->status->resources, want[i][0], NULL), KP_OK);
		kp_quantity_format(&q, buf, sizeof(buf));
		ck_assert_str_eq(buf, want[i][1]);
	}
}
END_TEST

/* status.resources of the NodePool in the counter's action as
 * "name=quantity ..." in list order. */
static const char *counted(void)
{
	static char buf[512];
	const kp_lifecycle_action *a = lc_last(&w, KP_LIFECYCLE_VERB_UPDATE_STATUS, "nodepool.counter");
	ck_assert_ptr_nonnull(a);
	const kp_nodepool *np = a->object;
	size_t at = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < np->status->resources.count; i++) {
		char q[64];
		kp_quantity_format(&np->status->resources.items[i].quantity, q, sizeof(q));
		at += (size_t)snprintf(buf + at, sizeof(buf) - at, "%s%s=%s", i ? " " : "",
				       np->status->resources.items[i].name, q);
	}
	ck_assert_int_eq(np->status->has_nodes, 1);
	return buf;
}

#define COUNTER_POOL "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: default}\n" \
	"spec: {template: {spec: {nodeClassRef: {group: karpenter.test.sh, kind: TestNodeClass, " \
	"name: default}, requirements: []}}}\n"

/* upstream counter suite "should decrease the counter when an existing node
 * is deleted" and StateNode.MarkedForDeletion: a NodeClaim being deleted
 * (deletionTimestamp, or InstanceTerminating=True) adds nothing. */
START_TEST(counter_leaves_out_deleting_nodeclaims)
{
	kp_nodepool *np = lc_add(&w, COUNTER_POOL);
	lc_add(&w, lc_nodeclaim_yaml("nc-1", FIN ", deletionTimestamp: '" T0 "'", NULL,
				     "providerID: 'fake://nc-1', capacity: {cpu: 100m, memory: 1Gi, pods: '256'}"));
	lc_add(&w, lc_nodeclaim_yaml("nc-2", FIN, NULL,
				     "providerID: 'fake://nc-2', capacity: {cpu: 500m, memory: 5Gi, pods: '1000'}"));
	lc_add(&w, lc_nodeclaim_yaml("nc-3", FIN, NULL,
				     "providerID: 'fake://nc-3', capacity: {cpu: '2', memory: 8Gi, pods: '10'}, "
				     "conditions: [{type: InstanceTerminating, status: 'True', reason: "
				     "InstanceTerminating, lastTransitionTime: '" T0 "'}]"));
	node("cpu: 100m, memory: 1Gi, pods: '256'");
	ck_assert_int_eq(kp_lifecycle_nodepool_counter(fresh(), &w.spec, &w.opts, np, NULL), KP_OK);
	ck_assert_str_eq(counted(), "cpu=500m ephemeral-storage=0 memory=5Gi nodes=1 pods=1k");
	ck_assert_int_eq(((const kp_nodepool *)lc_action(&w, 0)->object)->status->nodes, 1);
}
END_TEST

static void node_labelled(const char *capacity, const char *labels)
{
	char yaml[1024];
	snprintf(yaml, sizeof(yaml),
		 "apiVersion: v1\nkind: Node\nmetadata: {name: node-1, labels: "
		 "{karpenter.test.sh/testnodeclass: default%s}}\nspec: {providerID: 'fake://nc-1'}\n"
		 "status: {capacity: {%s}, conditions: [{type: Ready, status: 'True'}]}\n",
		 labels, capacity);
	lc_add(&w, yaml);
}

/* upstream counter suite "should set the counter from the nodeClaim and then
 * to the node when it initializes" and StateNode.Capacity: before the Node
 * is initialized its zero (or missing) quantities come from the NodeClaim;
 * once initialized the Node's own count, zeros included. */
START_TEST(counter_fills_uninitialized_node_from_nodeclaim)
{
	kp_nodepool *np = lc_add(&w, COUNTER_POOL);
	lc_add(&w, lc_nodeclaim_yaml("nc-1", FIN, NULL,
				     "providerID: 'fake://nc-1', capacity: {cpu: 100m, memory: 1Gi, "
				     "pods: '256', ephemeral-storage: 20Gi}"));
	node_labelled("cpu: '1', memory: '0', pods: '512', ephemeral-storage: '0'",
		      ", karpenter.sh/registered: 'true'");
	ck_assert_int_eq(kp_lifecycle_nodepool_counter(fresh(), &w.spec, &w.opts, np, NULL), KP_OK);
	ck_assert_str_eq(counted(), "cpu=1 ephemeral-storage=20Gi memory=1Gi nodes=1 pods=512");
	lc_world_free(&w);
	setup();
	np = lc_add(&w, COUNTER_POOL);
	lc_add(&w, lc_nodeclaim_yaml("nc-1", FIN, NULL,
				     "providerID: 'fake://nc-1', capacity: {cpu: 100m, memory: 1Gi, "
				     "pods: '256', ephemeral-storage: 20Gi}"));
	node_labelled("cpu: '1', memory: 2Gi, pods: '512', ephemeral-storage: '0'",
		      ", karpenter.sh/registered: 'true', karpenter.sh/initialized: 'true'");
	ck_assert_int_eq(kp_lifecycle_nodepool_counter(fresh(), &w.spec, &w.opts, np, NULL), KP_OK);
	ck_assert_str_eq(counted(), "cpu=1 ephemeral-storage=0 memory=2Gi nodes=1 pods=512");
}
END_TEST

static void sick_node(const char *name, const char *pid, const char *since)
{
	char yaml[1024];
	snprintf(yaml, sizeof(yaml),
		 "apiVersion: v1\nkind: Node\nmetadata: {name: %s, labels: "
		 "{karpenter.test.sh/testnodeclass: default, karpenter.sh/nodepool: default}}\n"
		 "spec: {providerID: '%s'}\n"
		 "status: {conditions: [{type: Ready, status: '%s', lastTransitionTime: '%s'}]}\n",
		 name, pid, since ? "False" : "True", since ? since : T0);
	lc_add(&w, yaml);
}

START_TEST(repair_off_by_default)
{
	lc_add(&w, lc_nodeclaim_yaml("nc-1", FIN, NULL, STATUS));
	sick_node("node-1", "fake://nc-1", T0);
	w.spec.now_ms = LC_T0 + 11 * LC_MIN;
	ck_assert_int_eq(kp_lifecycle_node_health(fresh(), &w.spec, &w.opts, w.node[0], NULL), KP_OK);
	ck_assert_uint_eq(kp_lifecycle_result_action_count(w.r), 0);
	ck_assert_uint_eq(kp_lifecycle_result_requeue_count(w.r), 0);
}
END_TEST

START_TEST(repair_waits_for_toleration)
{
	w.opts.feature_gates = KP_FEATURE_GATE_NODE_REPAIR;
	lc_add(&w, lc_nodeclaim_yaml("nc-1", FIN, NULL, STATUS));
	sick_node("node-1", "fake://nc-1", T0);
	w.spec.now_ms = LC_T0 + 4 * LC_MIN;
	ck_assert_int_eq(kp_lifecycle_node_health(fresh(), &w.spec, &w.opts, w.node[0], NULL), KP_OK);
	ck_assert_uint_eq(kp_lifecycle_result_action_count(w.r), 0);
	ck_assert_int_eq(kp_lifecycle_result_requeue_at(w.r, 0)->after_ms, 6 * LC_MIN);
}
END_TEST

START_TEST(repair_deletes_unhealthy)
{
	w.opts.feature_gates = KP_FEATURE_GATE_NODE_REPAIR;
	lc_add(&w, lc_nodeclaim_yaml("nc-1", FIN, NULL, STATUS));
	sick_node("node-1", "fake://nc-1", T0);
	w.spec.now_ms = LC_T0 + 11 * LC_MIN;
	ck_assert_int_eq(kp_lifecycle_node_health(fresh(), &w.spec, &w.opts, w.node[0], NULL), KP_OK);
	ck_assert_str_eq(lc_summary(&w), "patch NodeClaim/nc-1 TerminationGracePeriod\n"
					 "delete NodeClaim/nc-1 Unhealthy\n");
	const kp_nodeclaim *nc = lc_action(&w, 0)->object;
	ck_assert_str_eq(kp_labels_get(&nc->metadata->annotations,
				       "karpenter.sh/nodeclaim-termination-timestamp"),
			 "2024-01-01T00:11:00Z");
	const kp_lifecycle_action *d = lc_action(&w, 1);
	ck_assert_str_eq(d->message, "deleting unhealthy node: condition Ready is False");
	ck_assert_str_eq(kp_labels_get(&d->metric_labels, "reason"), "unhealthy");
}
END_TEST

START_TEST(repair_blocked_above_20_percent)
{
	w.opts.feature_gates = KP_FEATURE_GATE_NODE_REPAIR;
	lc_add(&w, lc_nodeclaim_yaml("nc-1", FIN, NULL, STATUS));
	sick_node("node-1", "fake://nc-1", T0);
	sick_node("node-2", "fake://nc-2", T0);
	sick_node("node-3", "fake://nc-3", NULL);
	w.spec.now_ms = LC_T0 + 11 * LC_MIN;
	ck_assert_int_eq(kp_lifecycle_node_health(fresh(), &w.spec, &w.opts, w.node[0], NULL), KP_OK);
	ck_assert_uint_eq(kp_lifecycle_result_action_count(w.r), 0);
	ck_assert_str_eq(kp_lifecycle_result_event_at(w.r, 0)->reason, "NodeRepairBlocked");
	ck_assert_str_eq(kp_lifecycle_result_event_at(w.r, 0)->message,
			 "more than 20% nodes are unhealthy in the nodepool");
	ck_assert_int_eq(kp_lifecycle_result_requeue_at(w.r, 0)->after_ms, 5 * LC_MIN);
}
END_TEST

#define NODEPOOL "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: default}\n" \
	"spec: {template: {spec: {nodeClassRef: {group: karpenter.test.sh, kind: TestNodeClass, " \
	"name: default}, requirements: []}}}\n"

START_TEST(nodepool_ready_with_ready_class)
{
	kp_nodepool *np = lc_add(&w, NODEPOOL);
	kp_nodeclass_status cls = KP_NODECLASS_STATUS_INIT;
	cls.ready = 1;
	cls.group = "karpenter.test.sh";
	cls.kind = "TestNodeClass";
	cls.name = "default";
	const kp_nodeclass_status *classes[] = { &cls };
	w.spec.nodeclasses = classes;
	w.spec.n_nodeclasses = 1;
	ck_assert_int_eq(kp_lifecycle_nodepool_readiness(fresh(), &w.spec, &w.opts, np, NULL), KP_OK);
	ck_assert_str_eq(lc_summary(&w), "updateStatus NodePool/default NodePoolReady\n");
	/* operatorpkg: the root last, Ready=True once every dependent is */
	ck_assert_str_eq(lc_np_conds(lc_action(&w, 0)),
			 "NodeClassReady=True/NodeClassReady ValidationSucceeded=True/ValidationSucceeded "
			 "Ready=True/Ready");
	cls.ready = 0;
	cls.message = "subnets not found";
	ck_assert_int_eq(kp_lifecycle_nodepool_readiness(fresh(), &w.spec, &w.opts, np, NULL), KP_OK);
	const kp_nodepool *got = lc_action(&w, 0)->object;
	ck_assert_str_eq(lc_np_conds(lc_action(&w, 0)),
			 "NodeClassReady=False/NodeClassNotReady "
			 "ValidationSucceeded=True/ValidationSucceeded Ready=False/UnhealthyDependents");
	ck_assert_str_eq(got->status->conditions[0]->message, "subnets not found");
	ck_assert_str_eq(got->status->conditions[2]->message, "NodeClassReady=False");
	ck_assert_str_eq(lc_action(&w, 0)->message, "Ready=False: NodeClassReady=False");
	cls.name = "other";
	ck_assert_int_eq(kp_lifecycle_nodepool_readiness(fresh(), &w.spec, &w.opts, np, NULL), KP_OK);
	got = lc_action(&w, 0)->object;
	ck_assert_str_eq(got->status->conditions[0]->reason, "NodeClassNotFound");
	ck_assert_str_eq(got->status->conditions[0]->message, "NodeClass not found on cluster");
}
END_TEST

/* upstream readiness suite: "should have status condition on nodePool as not
 * ready if nodeClass is not ready" (the node class's own Ready reason and
 * message), "... if nodeClass does not have status conditions"
 * (NodeClassReadinessUnknown) and "should mark NodeClassReady status
 * condition on nodePool as NotReady if nodeClass is terminating". */
START_TEST(nodepool_readiness_from_node_class)
{
	kp_nodepool *np = lc_add(&w, NODEPOOL);
	kp_nodeclass_status cls = KP_NODECLASS_STATUS_INIT;
	cls.group = "karpenter.test.sh";
	cls.kind = "TestNodeClass";
	cls.name = "default";
	cls.reason = "SubnetsNotFound";
	cls.message = "no subnets found";
	const kp_nodeclass_status *classes[] = { &cls };
	w.spec.nodeclasses = classes;
	w.spec.n_nodeclasses = 1;
	ck_assert_int_eq(kp_lifecycle_nodepool_readiness(fresh(), &w.spec, &w.opts, np, NULL), KP_OK);
	const kp_nodepool *got = lc_action(&w, 0)->object;
	ck_assert_str_eq(lc_np_conds(lc_action(&w, 0)),
			 "NodeClassReady=False/SubnetsNotFound "
			 "ValidationSucceeded=True/ValidationSucceeded Ready=False/UnhealthyDependents");
	ck_assert_str_eq(got->status->conditions[0]->message, "no subnets found");
	/* no conditions at all: its readiness is unknown, the NodePool not Ready */
	cls.ready_unknown = 1;
	cls.reason = cls.message = NULL;
	ck_assert_int_eq(kp_lifecycle_nodepool_readiness(fresh(), &w.spec, &w.opts, np, NULL), KP_OK);
	got = lc_action(&w, 0)->object;
	ck_assert_str_eq(lc_np_conds(lc_action(&w, 0)),
			 "NodeClassReady=False/NodeClassReadinessUnknown "
			 "ValidationSucceeded=True/ValidationSucceeded Ready=False/UnhealthyDependents");
	ck_assert_str_eq(got->status->conditions[0]->message, "Node Class Readiness Unknown");
	/* being deleted, even while Ready */
	cls.ready_unknown = 0;
	cls.ready = 1;
	cls.terminating = 1;
	ck_assert_int_eq(kp_lifecycle_nodepool_readiness(fresh(), &w.spec, &w.opts, np, NULL), KP_OK);
	got = lc_action(&w, 0)->object;
	ck_assert_str_eq(lc_np_conds(lc_action(&w, 0)),
			 "NodeClassReady=False/NodeClassTerminating "
			 "ValidationSucceeded=True/ValidationSucceeded Ready=False/UnhealthyDependents");
	ck_assert_str_eq(got->status->conditions[0]->message, "NodeClass is Terminating");
	ck_assert_str_eq(lc_action(&w, 0)->message, "Ready=False: NodeClassReady=False");
	/* a caller's struct of the first size: a class not ready reads as before */
	kp_nodeclass_status old = KP_NODECLASS_STATUS_INIT;
	old.struct_size = (uint32_t)(offsetof(kp_nodeclass_status, message) + sizeof(old.message));
	old.group = "karpenter.test.sh";
	old.kind = "TestNodeClass";
	old.name = "default";
	old.terminating = 1; /* beyond its struct_size: not read */
	classes[0] = &old;
	ck_assert_int_eq(kp_lifecycle_nodepool_readiness(fresh(), &w.spec, &w.opts, np, NULL), KP_OK);
	ck_assert_str_eq(lc_np_conds(lc_action(&w, 0)),
			 "NodeClassReady=False/NodeClassNotReady "
			 "ValidationSucceeded=True/ValidationSucceeded Ready=False/UnhealthyDependents");
}
END_TEST

/* kp_nodeclass_status_from, the one rule every reader uses: a class with no
 * conditions (a hand-written manifest) is assumed ready but its readiness
 * unknown; conditions without Ready (a controller that has not decided)
 * are not ready, as upstream's NodePool readiness makes them. */
START_TEST(nodeclass_status_from_conditions)
{
	kp_object_meta meta = KP_OBJECT_META_INIT;
	meta.name = "default";
	meta.generation = 3;
	kp_condition validated = KP_CONDITION_INIT, ready = KP_CONDITION_INIT;
	validated.type = "ValidationSucceeded";
	validated.status = "True";
	ready.type = "Ready";
	ready.status = "False";
	ready.reason = "SubnetsNotFound";
	ready.message = "no subnets";
	kp_condition *conds[] = { &validated, &ready };
	kp_nodeclass_status st;
	kp_nodeclass_status_from(&st, &meta, NULL, 0);
	ck_assert_str_eq(st.name, "default");
	ck_assert_int_eq(st.generation, 3);
	ck_assert_uint_eq(st.ready, 1);
	ck_assert_uint_eq(st.ready_unknown, 1);
	kp_nodeclass_status_from(&st, &meta, conds, 1);
	ck_assert_uint_eq(st.ready, 0);
	ck_assert_uint_eq(st.ready_unknown, 1);
	ck_assert_ptr_null(st.reason);
	kp_nodeclass_status_from(&st, &meta, conds, 2);
	ck_assert_uint_eq(st.ready, 0);
	ck_assert_uint_eq(st.ready_unknown, 0);
	ck_assert_str_eq(st.reason, "SubnetsNotFound");
	ck_assert_str_eq(st.message, "no subnets");
	ready.status = "True";
	kp_nodeclass_status_from(&st, &meta, conds, 2);
	ck_assert_uint_eq(st.ready, 1);
	ck_assert_uint_eq(st.ready_unknown, 0);
	ready.status = "Unknown";
	kp_nodeclass_status_from(&st, &meta, conds, 2);
	ck_assert_uint_eq(st.ready, 0);
	ck_assert_uint_eq(st.ready_unknown, 1);
}
END_TEST

/* The round reads the cluster the scheduler and disruption read, built by
 * the builder from manifests (kp_cluster_builder_spec), as it reads the
 * same objects set in a kp_cluster_spec by hand: one cluster input. */
START_TEST(round_reads_the_builders_cluster)
{
	/* the NodePool as the API server stores it, so the builder's CRD
	 * defaults add nothing the hand-made spec lacks */
	static const char stored[] =
		"apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: default}\n"
		"spec: {template: {spec: {nodeClassRef: {group: karpenter.test.sh, kind: TestNodeClass, "
		"name: default}, requirements: [], expireAfter: 720h}}, disruption: {consolidateAfter: 0s, "
		"consolidationPolicy: WhenEmptyOrUnderutilized, budgets: [{nodes: '10%'}]}}\n";
	lc_add(&w, stored);
	lc_add(&w, lc_nodeclaim_yaml("nc-1", FIN, "", STATUS));
	node("cpu: '4', memory: 16Gi, pods: '110'");
	lc_instance(&w, "fake://nc-1");
	lc_reconcile(&w);
	const char *summary = lc_summary(&w);
	char *by_hand = malloc(strlen(summary) + 1);
	ck_assert_ptr_nonnull(by_hand);
	memcpy(by_hand, summary, strlen(summary) + 1);
	ck_assert_uint_gt(kp_lifecycle_result_action_count(w.r), 0);

	kp_cluster_builder *b = NULL;
	kp_error e = KP_ERROR_INIT;
	ck_assert_int_eq(kp_cluster_builder_new(&b, &e), KP_OK);
	char manifests[4096];
	snprintf(manifests, sizeof(manifests),
		 "%s---\n%s---\napiVersion: v1\nkind: Node\nmetadata: {name: node-1, labels: "
		 "{karpenter.test.sh/testnodeclass: default}}\nspec: {providerID: 'fake://nc-1'}\n"
		 "status: {capacity: {cpu: '4', memory: 16Gi, pods: '110'}, conditions: [{type: "
		 "Ready, status: 'True'}]}\n",
		 stored, lc_nodeclaim_yaml("nc-1", FIN, "", STATUS));
	ck_assert_msg(kp_cluster_builder_add_manifests(b, manifests, strlen(manifests), NULL, &e) ==
			      KP_OK, "%s", e.message);
	kp_cluster_builder_set_now(b, w.spec.now_ms);
	kp_cluster_spec spec;
	ck_assert_msg(kp_cluster_builder_spec(&spec, b, &e) == KP_OK, "%s", e.message);
	ck_assert_int_eq(kp_lifecycle_reconcile(fresh(), &spec, &w.opts, &e), KP_OK);
	ck_assert_str_eq(lc_summary(&w), by_hand);
	free(by_hand);
	kp_cluster_builder_free(b);
}
END_TEST

START_TEST(nodepool_validation_failed)
{
	kp_nodepool *np = lc_add(&w, "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: default}\n"
				 "spec: {template: {spec: {nodeClassRef: {group: karpenter.test.sh, kind: "
				 "TestNodeClass, name: default}, requirements: [{key: karpenter.sh/nodepool, "
				 "operator: In, values: [x]}]}}}\n");
	ck_assert_int_eq(kp_lifecycle_nodepool_readiness(fresh(), &w.spec, &w.opts, np, NULL), KP_OK);
	const kp_nodepool *got = lc_action(&w, 0)->object;
	/* no node class modelled: NodeClassReady stays as For() made it */
	ck_assert_str_eq(lc_np_conds(lc_action(&w, 0)),
			 "NodeClassReady=Unknown/AwaitingReconciliation "
			 "ValidationSucceeded=False/NodePoolValidationFailed "
			 "Ready=False/UnhealthyDependents");
	ck_assert_str_eq(got->status->conditions[2]->message,
			 "NodeClassReady=Unknown, ValidationSucceeded=False");
	const kp_condition *v = got->status->conditions[1];
	ck_assert_str_eq(v->type, "ValidationSucceeded");
	ck_assert_str_eq(v->status, "False");
	ck_assert_str_eq(v->reason, "NodePoolValidationFailed");
	ck_assert_msg(strstr(v->message, "spec.template.spec.requirements[0].key: ") == v->message,
		      "%s", v->message);
}
END_TEST

START_TEST(hydration_labels_nodeclaim_and_node)
{
	kp_nodeclaim *nc = lc_add(&w, "apiVersion: karpenter.sh/v1\nkind: NodeClaim\n"
				      "metadata: {name: nc-1}\nspec: {nodeClassRef: {group: karpenter.test.sh, "
				      "kind: TestNodeClass, name: blue}, requirements: []}\n"
				      "status: {providerID: 'fake://nc-1'}\n");
	kp_node *n = lc_add(&w, "apiVersion: v1\nkind: Node\nmetadata: {name: node-1}\n"
				"spec: {providerID: 'fake://nc-1'}\n");
	ck_assert_int_eq(kp_lifecycle_nodeclaim_hydration(fresh(), &w.spec, &w.opts, nc, NULL), KP_OK);
	ck_assert_str_eq(lc_summary(&w), "patch NodeClaim/nc-1 Hydrated\n");
	ck_assert_str_eq(lc_action(&w, 0)->message, "labelled karpenter.test.sh/testnodeclass=blue");
	ck_assert_str_eq(lc_action(&w, 0)->controller, "nodeclaim.hydration");
	ck_assert_int_eq(kp_lifecycle_node_hydration(fresh(), &w.spec, &w.opts, n, NULL), KP_OK);
	ck_assert_str_eq(lc_summary(&w), "patch Node/node-1 Hydrated\n");
	const kp_node *got = lc_action(&w, 0)->object;
	ck_assert_str_eq(kp_labels_get(&got->metadata->labels, "karpenter.test.sh/testnodeclass"),
			 "blue");
}
END_TEST

START_TEST(hash_annotates_nodepool_and_upgrades_nodeclaims)
{
	kp_nodepool *np = lc_add(&w, "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: default, "
				 "annotations: {karpenter.sh/nodepool-hash-version: v2}}\n"
				 "spec: {template: {spec: {nodeClassRef: {group: karpenter.test.sh, kind: "
				 "TestNodeClass, name: default}, requirements: []}}}\n");
	lc_add(&w, lc_nodeclaim_yaml("nc-1", ", annotations: {karpenter.sh/nodepool-hash-version: v2, "
				     "karpenter.sh/nodepool-hash: '1'}", NULL, NULL));
	ck_assert_int_eq(kp_lifecycle_nodepool_hash(fresh(), &w.spec, &w.opts, np, NULL), KP_OK);
	ck_assert_str_eq(lc_summary(&w), "patch NodeClaim/nc-1 Hashed\n"
					 "patch NodePool/default Hashed\n");
	char hash[KP_HASH_STRING_MAX];
	ck_assert_int_eq(kp_nodepool_hash_string(np, NULL, hash, sizeof(hash), NULL), KP_OK);
	const kp_nodeclaim *nc = lc_action(&w, 0)->object;
	ck_assert_str_eq(kp_labels_get(&nc->metadata->annotations, "karpenter.sh/nodepool-hash"), hash);
	ck_assert_str_eq(kp_labels_get(&nc->metadata->annotations, "karpenter.sh/nodepool-hash-version"),
			 "v3");
	const kp_nodepool *got = lc_action(&w, 1)->object;
	ck_assert_str_eq(kp_labels_get(&got->metadata->annotations, "karpenter.sh/nodepool-hash"), hash);
}
END_TEST

static Suite *status_suite(void)
{
	Suite *s = suite_create("status");
	TCase *tc = tcase_create("status");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, drifted_when_nodepool_hash_differs);
	tcase_add_test(tc, drifted_cleared_when_not_drifted);
	tcase_add_test(tc, drift_reads_the_spec_not_a_stale_annotation);
	tcase_add_test(tc, consolidatable_after_initialized);
	tcase_add_test(tc, static_nodepool_never_consolidatable);
	tcase_add_test(tc, consolidatable_waits_for_last_pod_event);
	tcase_add_test(tc, consolidatable_removed_inside_window);
	tcase_add_test(tc, consolidatable_never_and_not_initialized);
	tcase_add_test(tc, consolidatable_not_initialized);
	tcase_add_test(tc, pod_event_moves_last_pod_event_time);
	tcase_add_test(tc, pod_event_deduped_within_10s_and_daemonset_ignored);
	tcase_add_test(tc, consistency_node_shape);
	tcase_add_test(tc, consistency_ok);
	tcase_add_test(tc, counter_sums_nodeclaims);
	tcase_add_test(tc, counter_leaves_out_deleting_nodeclaims);
	tcase_add_test(tc, counter_fills_uninitialized_node_from_nodeclaim);
	tcase_add_test(tc, repair_off_by_default);
	tcase_add_test(tc, hash_annotates_nodepool_and_upgrades_nodeclaims);
	tcase_add_test(tc, hydration_labels_nodeclaim_and_node);
	tcase_add_test(tc, nodepool_ready_with_ready_class);
	tcase_add_test(tc, nodepool_validation_failed);
	tcase_add_test(tc, nodepool_readiness_from_node_class);
	tcase_add_test(tc, nodeclass_status_from_conditions);
	tcase_add_test(tc, round_reads_the_builders_cluster);
	tcase_add_test(tc, repair_waits_for_toleration);
	tcase_add_test(tc, repair_deletes_unhealthy);
	tcase_add_test(tc, repair_blocked_above_20_percent);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	Suite *suites[] = { status_suite() };
	return kp_test_run(suites, 1);
}
