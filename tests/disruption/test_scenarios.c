/*
 * Disruption scenarios mirroring upstream kubernetes-sigs/karpenter
 * pkg/controllers/disruption suite_test.go, emptiness_test.go,
 * drift_test.go and consolidation_test.go: a manifest, its expected command
 * (method, decision, candidates, replacements) and the reasons of the
 * nodes that are not disrupted, with upstream's messages.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "disruption_harness.h"
#include "kp_test.h"

#define NOW "2025-01-02T00:00:00Z"
#define INIT "2025-01-01T00:00:00Z"
#define WEOU "WhenEmptyOrUnderutilized"

static const kp_disruption_command *only_command(const kp_disruption_result *r)
{
	ck_assert_uint_eq(kp_disruption_result_command_count(r), 1);
	return kp_disruption_result_command_at(r, 0);
}

static void assert_reason(const kp_disruption_result *r, const char *node, uint32_t code,
			  uint32_t method, const char *message)
{
	const kp_disruption_node *n = dh_find(r, node);
	ck_assert_ptr_nonnull(n);
	const kp_disruption_why *w = dh_reason(n, code, method);
	ck_assert_msg(w != NULL, "%s has no %s/%s reason; it has:\n%s", node,
		      kp_disruption_block_code_name(code), kp_disruption_method_name(method), dh_reasons(n));
	ck_assert_str_eq(w->message, message);
}

/* ---------------------------------------------------------------- emptiness */

START_TEST(emptiness_deletes_all_empty_within_budget)
{
	dh *h = dh_new();
	dh_nodepool(h, "default", "on-demand", WEOU, "0s", "100%");
	dh_node(h, "a", "default", "c-4x-amd64-linux", "test-zone-a", "on-demand", INIT, "", "");
	dh_node(h, "b", "default", "c-2x-amd64-linux", "test-zone-a", "on-demand", INIT, "", "");
	dh_node(h, "c", "default", "c-4x-amd64-linux", "test-zone-a", "on-demand", INIT, "", "");
	dh_pod(h, "default", "p", "c", "1", "");
	const kp_disruption_result *r = dh_run(h, NOW, 0, 1);
	const kp_disruption_command *c = only_command(r);
	ck_assert_uint_eq(c->method, KP_DISRUPTION_METHOD_EMPTINESS);
	ck_assert_str_eq(c->reason, "Empty");
	ck_assert_uint_eq(c->decision, KP_DISRUPTION_DELETE);
	ck_assert_uint_eq(c->n_candidates, 2);
	/* savings ratio order: the dearer c-4x first */
	ck_assert_str_eq(c->candidates[0]->node, "a");
	ck_assert_str_eq(c->candidates[1]->node, "b");
	ck_assert_uint_eq(c->n_replacements, 0);
	ck_assert(dh_find(r, "a")->empty);
	ck_assert(!dh_find(r, "c")->empty);
	dh_free(h);
}
END_TEST

START_TEST(emptiness_respects_budget)
{
	dh *h = dh_new();
	dh_nodepool(h, "default", "on-demand", WEOU, "0s", "1");
	dh_node(h, "a", "default", "c-4x-amd64-linux", "test-zone-a", "on-demand", INIT, "", "");
	dh_node(h, "b", "default", "c-2x-amd64-linux", "test-zone-a", "on-demand", INIT, "", "");
	const kp_disruption_result *r = dh_run(h, NOW, 0, 1);
	const kp_disruption_command *c = only_command(r);
	ck_assert_uint_eq(c->n_candidates, 1);
	ck_assert_str_eq(c->candidates[0]->node, "a");
	assert_reason(r, "b", KP_BLOCK_BUDGET, KP_DISRUPTION_METHOD_EMPTINESS,
		      "NodePool \"default\": No allowed disruptions for disruption reason Empty due to blocking budget");
	const kp_disruption_budget_status *b = kp_disruption_result_budget_at(r, 0);
	ck_assert_str_eq(b->nodepool, "default");
	ck_assert_str_eq(b->reason, "Empty");
	ck_assert_int_eq(b->allowed, 1);
	ck_assert_int_eq(b->remaining, 1);
	dh_free(h);
}
END_TEST

START_TEST(emptiness_blocked_by_zero_budget)
{
	dh *h = dh_new();
	dh_nodepool(h, "default", "on-demand", WEOU, "0s", "0");
	dh_node(h, "a", "default", "c-4x-amd64-linux", "test-zone-a", "on-demand", INIT, "", "");
	const kp_disruption_result *r = dh_run(h, NOW, 0, 1);
	ck_assert_uint_eq(kp_disruption_result_command_count(r), 0);
	assert_reason(r, "a", KP_BLOCK_BUDGET, KP_DISRUPTION_METHOD_EMPTINESS,
		      "NodePool \"default\": No allowed disruptions for disruption reason Empty due to blocking budget");
	dh_free(h);
}
END_TEST

START_TEST(emptiness_waits_for_consolidate_after)
{
	dh *h = dh_new();
	dh_nodepool(h, "default", "on-demand", WEOU, "48h", "100%");
	dh_node(h, "a", "default", "c-4x-amd64-linux", "test-zone-a", "on-demand", INIT, "", "");
	const kp_disruption_result *r = dh_run(h, NOW, 0, 1);
	ck_assert_uint_eq(kp_disruption_result_command_count(r), 0);
	ck_assert(!dh_find(r, "a")->consolidatable);
	assert_reason(r, "a", KP_BLOCK_CONSOLIDATE_AFTER, KP_DISRUPTION_METHOD_EMPTINESS,
		      "node is not consolidatable until 2025-01-03T00:00:00Z (consolidateAfter 48h since its last pod event)");
	dh_free(h);
}
END_TEST

START_TEST(emptiness_consolidation_disabled)
{
	dh *h = dh_new();
	dh_nodepool(h, "default", "on-demand", WEOU, "Never", "100%");
	dh_node(h, "a", "default", "c-4x-amd64-linux", "test-zone-a", "on-demand", INIT, "", "");
	const kp_disruption_result *r = dh_run(h, NOW, 0, 1);
	ck_assert_uint_eq(kp_disruption_result_command_count(r), 0);
	assert_reason(r, "a", KP_BLOCK_CONSOLIDATION_DISABLED, KP_DISRUPTION_METHOD_EMPTINESS,
		      "NodePool \"default\" has consolidation disabled");
	dh_free(h);
}
END_TEST

START_TEST(daemonset_pods_keep_a_node_empty)
{
	dh *h = dh_new();
	dh_nodepool(h, "default", "on-demand", WEOU, "0s", "100%");
	dh_node(h, "a", "default", "c-4x-amd64-linux", "test-zone-a", "on-demand", INIT, "", "");
	dh_add(h, "apiVersion: v1\nkind: Pod\nmetadata:\n  name: ds-a\n  namespace: kube-system\n"
		  "  ownerReferences: [{apiVersion: apps/v1, kind: DaemonSet, name: ds, uid: u, controller: true}]\n"
		  "spec:\n  nodeName: a\n  containers: [{name: c, image: i, resources: {requests: {cpu: 100m}}}]\n"
		  "status: {phase: Running}\n");
	const kp_disruption_result *r = dh_run(h, NOW, 0, 1);
	ck_assert(dh_find(r, "a")->empty);
	ck_assert_uint_eq(only_command(r)->method, KP_DISRUPTION_METHOD_EMPTINESS);
	dh_free(h);
}
END_TEST

/* ------------------------------------------------------------- candidates */

START_TEST(candidate_filters)
{
	dh *h = dh_new();
	dh_nodepool(h, "default", "on-demand", WEOU, "0s", "100%");
	dh_node(h, "dnd", "default", "c-4x-amd64-linux", "test-zone-a", "on-demand", INIT, "",
		"  annotations: {karpenter.sh/do-not-disrupt: \"true\"}");
	dh_node(h, "pod-dnd", "default", "c-4x-amd64-linux", "test-zone-a", "on-demand", INIT, "", "");
	dh_pod(h, "shop", "keep", "pod-dnd", "1", "  annotations: {karpenter.sh/do-not-disrupt: \"true\"}");
	dh_node(h, "pdb", "default", "c-4x-amd64-linux", "test-zone-a", "on-demand", INIT, "", "");
	dh_pod(h, "shop", "db-0", "pdb", "1", "  labels: {app: db}");
	dh_add(h, "apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: db, namespace: shop}\n"
		  "spec: {maxUnavailable: 0, selector: {matchLabels: {app: db}}}\nstatus: {disruptionsAllowed: 0}\n");
	/* a PDB whose status is not written yet allows nothing, as upstream's
	 * zero value */
	dh_node(h, "pdb-new", "default", "c-4x-amd64-linux", "test-zone-a", "on-demand", INIT, "", "");
	dh_pod(h, "cache", "c-0", "pdb-new", "1", "  labels: {app: cache}");
	dh_add(h, "apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: cache, namespace: cache}\n"
		  "spec: {minAvailable: 1, selector: {matchLabels: {app: cache}}}\n");
	dh_node(h, "orphan", "missing", "c-4x-amd64-linux", "test-zone-a", "on-demand", INIT, "", "");
	dh_add(h, "apiVersion: v1\nkind: Node\nmetadata: {name: unmanaged}\nspec: {providerID: \"x://u\"}\n");
	const kp_disruption_result *r = dh_run(h, NOW, 0, 1);
	assert_reason(r, "dnd", KP_BLOCK_DO_NOT_DISRUPT, 0,
		      "disruption is blocked through the \"karpenter.sh/do-not-disrupt\" annotation");
	assert_reason(r, "pod-dnd", KP_BLOCK_DO_NOT_DISRUPT, 0,
		      "pod has \"karpenter.sh/do-not-disrupt\" annotation (Pod=shop/keep)");
	assert_reason(r, "pdb", KP_BLOCK_PDB, 0,
		      "pdb prevents pod evictions (PodDisruptionBudget=[shop/db], Pod=shop/db-0)");
	assert_reason(r, "pdb-new", KP_BLOCK_PDB, 0,
		      "pdb prevents pod evictions (PodDisruptionBudget=[cache/cache], Pod=cache/c-0)");
	assert_reason(r, "orphan", KP_BLOCK_NODEPOOL_NOT_FOUND, 0, "NodePool not found (NodePool=missing)");
	assert_reason(r, "unmanaged", KP_BLOCK_UNMANAGED, 0, "node isn't managed by karpenter");
	ck_assert(!dh_find(r, "dnd")->candidate);
	ck_assert(!dh_find(r, "unmanaged")->candidate);
	ck_assert_uint_eq(kp_disruption_result_command_count(r), 0);
	dh_free(h);
}
END_TEST

START_TEST(pdb_always_allow_and_multiple)
{
	dh *h = dh_new();
	dh_nodepool(h, "default", "on-demand", WEOU, "0s", "100%");
	dh_node(h, "sick", "default", "c-4x-amd64-linux", "test-zone-a", "on-demand", INIT, "", "");
	dh_add(h, "apiVersion: v1\nkind: Pod\nmetadata:\n  name: db-1\n  namespace: shop\n  labels: {app: db}\n"
		  "  ownerReferences: [{apiVersion: apps/v1, kind: StatefulSet, name: db, uid: u, controller: true}]\n"
		  "spec:\n  nodeName: sick\n  containers: [{name: c, image: i, resources: {requests: {cpu: 1}}}]\n"
		  "status: {phase: Running, conditions: [{type: Ready, status: \"False\"}]}\n");
	dh_add(h, "apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: db, namespace: shop}\n"
		  "spec: {maxUnavailable: 0, unhealthyPodEvictionPolicy: AlwaysAllow, selector: {matchLabels: {app: db}}}\n"
		  "status: {disruptionsAllowed: 0}\n");
	dh_node(h, "two", "default", "c-4x-amd64-linux", "test-zone-a", "on-demand", INIT, "", "");
	dh_pod(h, "web", "w-0", "two", "1", "  labels: {app: web}");
	dh_add(h, "apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: a, namespace: web}\n"
		  "spec: {maxUnavailable: 1, selector: {matchLabels: {app: web}}}\nstatus: {disruptionsAllowed: 1}\n");
	dh_add(h, "apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: b, namespace: web}\n"
		  "spec: {maxUnavailable: 1, selector: {}}\nstatus: {disruptionsAllowed: 1}\n");
	const kp_disruption_result *r = dh_run(h, NOW, 0, 1);
	ck_assert(dh_find(r, "sick")->candidate);
	ck_assert_ptr_null(dh_reason(dh_find(r, "sick"), KP_BLOCK_PDB, 0));
	assert_reason(r, "two", KP_BLOCK_PDB, 0,
		      "eviction does not support multiple PDBs (PodDisruptionBudget(s)=[web/a web/b], Pod=web/w-0)");
	dh_free(h);
}
END_TEST

START_TEST(do_not_disrupt_duration)
{
	dh *h = dh_new();
	dh_nodepool(h, "default", "on-demand", WEOU, "0s", "100%");
	dh_node(h, "a", "default", "c-4x-amd64-linux", "test-zone-a", "on-demand", INIT, "", "");
	/* started 2025-01-01T00:00:00Z: 1h elapsed at NOW, 48h not */
	dh_pod(h, "shop", "short", "a", "1", "  annotations: {karpenter.sh/do-not-disrupt: 1h}");
	dh_node(h, "b", "default", "c-4x-amd64-linux", "test-zone-a", "on-demand", INIT, "", "");
	dh_pod(h, "shop", "long", "b", "1", "  annotations: {karpenter.sh/do-not-disrupt: 48h}");
	const kp_disruption_result *r = dh_run(h, NOW, 0, 1);
	ck_assert(dh_find(r, "a")->candidate);
	assert_reason(r, "b", KP_BLOCK_DO_NOT_DISRUPT, 0,
		      "pod has \"karpenter.sh/do-not-disrupt\" annotation (Pod=shop/long)");
	dh_free(h);
}
END_TEST

/* ------------------------------------------------------------------- drift */

#define STALE_HASH "  annotations: {karpenter.sh/nodepool-hash: \"1\", karpenter.sh/nodepool-hash-version: v3}"

START_TEST(drift_replaces_one_node)
{
	dh *h = dh_new();
	dh_nodepool(h, "default", "on-demand", WEOU, "Never", "100%");
	dh_node(h, "old", "default", "c-4x-amd64-linux", "test-zone-a", "on-demand", INIT, STALE_HASH, "");
	dh_node(h, "old2", "default", "c-4x-amd64-linux", "test-zone-a", "on-demand", INIT, STALE_HASH, "");
	dh_pod(h, "shop", "p1", "old", "3", "");
	dh_pod(h, "shop", "p2", "old2", "3", "");
	const kp_disruption_result *r = dh_run(h, NOW, 0, 1);
	const kp_disruption_command *c = only_command(r);
	ck_assert_uint_eq(c->method, KP_DISRUPTION_METHOD_DRIFT);
	ck_assert_str_eq(c->reason, "Drifted");
	ck_assert_uint_eq(c->decision, KP_DISRUPTION_REPLACE);
	ck_assert_uint_eq(c->n_candidates, 1);
	ck_assert_str_eq(c->candidates[0]->node, "old");
	ck_assert_uint_eq(c->n_replacements, 1);
	ck_assert_str_eq(c->replacements[0]->nodepool, "default");
	ck_assert_uint_eq(c->n_moves, 1);
	ck_assert_str_eq(c->moves[0]->name, "p1");
	ck_assert_str_eq(c->moves[0]->nodeclaim, c->replacements[0]->nodeclaim->metadata->name);
	const kp_disruption_node *n = dh_find(r, "old");
	ck_assert(n->drifted);
	ck_assert_str_eq(n->drift_reason, "NodePoolDrifted");
	assert_reason(r, "old2", KP_BLOCK_OTHER_COMMAND, KP_DISRUPTION_METHOD_DRIFT,
		      "one drift command per pass: node old goes first");
	dh_free(h);
}
END_TEST

START_TEST(drift_empty_first_and_condition_counts)
{
	dh *h = dh_new();
	dh_nodepool(h, "default", "on-demand", WEOU, "Never", "100%");
	dh_node(h, "busy", "default", "c-4x-amd64-linux", "test-zone-a", "on-demand", INIT, STALE_HASH, "");
	dh_pod(h, "shop", "p1", "busy", "3", "");
	/* a Drifted condition already in the input counts, and is older */
	dh_node_ex(h, "cond", "default", "c-4x-amd64-linux", "test-zone-a", "on-demand", INIT, "", "", "",
		   "    - {type: Drifted, status: \"True\", reason: InstanceTypeNotFound, message: gone, "
		   "lastTransitionTime: \"2025-01-01T06:00:00Z\"}");
	dh_pod(h, "shop", "p2", "cond", "3", "");
	dh_node(h, "fresh", "default", "c-4x-amd64-linux", "test-zone-a", "on-demand", INIT, "", "");
	const kp_disruption_result *r = dh_run(h, NOW, 0, 1);
	const kp_disruption_command *c = only_command(r);
	ck_assert_str_eq(c->candidates[0]->node, "cond");
	const kp_disruption_node *n = dh_find(r, "cond");
	ck_assert(n->drifted);
	ck_assert_str_eq(n->drift_reason, "InstanceTypeNotFound");
	ck_assert_str_eq(n->drift_message, "gone");
	assert_reason(r, "fresh", KP_BLOCK_NOT_DRIFTED, KP_DISRUPTION_METHOD_DRIFT, "node is not drifted");
	dh_free(h);

	h = dh_new();
	dh_nodepool(h, "default", "on-demand", WEOU, "Never", "100%");
	dh_node(h, "busy", "default", "c-4x-amd64-linux", "test-zone-a", "on-demand", INIT, STALE_HASH, "");
	dh_pod(h, "shop", "p1", "busy", "3", "");
	dh_node(h, "idle", "default", "c-4x-amd64-linux", "test-zone-a", "on-demand", INIT, STALE_HASH, "");
	r = dh_run(h, NOW, 0, 1);
	c = only_command(r);
	ck_assert_str_eq(c->candidates[0]->node, "idle"); /* empty drifted nodes first */
	ck_assert_uint_eq(c->decision, KP_DISRUPTION_DELETE);
	dh_free(h);
}
END_TEST

/* Upstream checks a NodeClaim's instance type only an hour after its
 * creation: before that the node is not drifted, and the reason says when
 * it will be (issue 19 item 2); after it, InstanceTypeNotFound. */
START_TEST(instance_type_drift_waits_an_hour_and_says_so)
{
	dh *h = dh_new();
	dh_nodepool(h, "default", "on-demand", WEOU, "Never", "100%");
	/* x-9x-amd64-linux is not in the KWOK catalogue */
	dh_node(h, "young", "default", "x-9x-amd64-linux", "test-zone-a", "on-demand",
		"2025-01-01T23:30:00Z", "", "");
	dh_node(h, "old", "default", "x-9x-amd64-linux", "test-zone-a", "on-demand",
		"2025-01-01T22:00:00Z", "", "");
	dh_pod(h, "shop", "p1", "old", "1", "");
	const kp_disruption_result *r = dh_run(h, "2025-01-02T00:00:00Z", 0, 1);
	assert_reason(r, "young", KP_BLOCK_NOT_DRIFTED, KP_DISRUPTION_METHOD_DRIFT,
		      "node is not drifted yet: its instance type is no longer offered, which "
		      "drifts a NodeClaim once it is an hour old (at 2025-01-02T00:30:00.001Z)");
	const kp_disruption_node *n = dh_find(r, "old");
	ck_assert(n->drifted);
	ck_assert_str_eq(n->drift_reason, "InstanceTypeNotFound");
	dh_free(h);
}
END_TEST

START_TEST(drift_ignores_pod_blocks_with_termination_grace_period)
{
	dh *h = dh_new();
	dh_nodepool(h, "default", "on-demand", WEOU, "Never", "100%");
	dh_node_ex(h, "tgp", "default", "c-4x-amd64-linux", "test-zone-a", "on-demand", INIT, STALE_HASH, "",
		   "  terminationGracePeriod: 1h", "");
	dh_pod(h, "shop", "keep", "tgp", "1", "  annotations: {karpenter.sh/do-not-disrupt: \"true\"}");
	dh_node(h, "plain", "default", "c-4x-amd64-linux", "test-zone-a", "on-demand", INIT, STALE_HASH, "");
	dh_pod(h, "shop", "keep2", "plain", "1", "  annotations: {karpenter.sh/do-not-disrupt: \"true\"}");
	const kp_disruption_result *r = dh_run(h, NOW, 0, 1);
	const kp_disruption_command *c = only_command(r);
	ck_assert_uint_eq(c->method, KP_DISRUPTION_METHOD_DRIFT);
	ck_assert_str_eq(c->candidates[0]->node, "tgp");
	ck_assert(dh_find(r, "tgp")->candidate);
	/* graceful methods are still blocked by the pod */
	assert_reason(r, "tgp", KP_BLOCK_DO_NOT_DISRUPT, KP_DISRUPTION_METHOD_EMPTINESS,
		      "pod has \"karpenter.sh/do-not-disrupt\" annotation (Pod=shop/keep)");
	/* without terminationGracePeriod the pod blocks drift too */
	assert_reason(r, "plain", KP_BLOCK_DO_NOT_DISRUPT, 0,
		      "pod has \"karpenter.sh/do-not-disrupt\" annotation (Pod=shop/keep2)");
	ck_assert(!dh_find(r, "plain")->candidate);
	dh_free(h);
}
END_TEST

/* upstream SimulateScheduling simulates only the currently reschedulable
 * pods (pdb.Limits.IsCurrentlyReschedulable): a drifted NodeClaim with
 * terminationGracePeriod is a candidate despite its blocking pods, and the
 * replacement is sized without them (an active do-not-disrupt, a fully
 * blocking PDB); a PDB at zero disruptions that is not fully blocking does
 * not keep its pod. */
START_TEST(drift_with_termination_grace_period_leaves_blocked_pods)
{
	dh *h = dh_new();
	dh_nodepool(h, "default", "on-demand", WEOU, "Never", "100%");
	dh_node_ex(h, "tgp", "default", "c-16x-amd64-linux", "test-zone-a", "on-demand", INIT, STALE_HASH, "",
		   "  terminationGracePeriod: 1h", "");
	dh_pod(h, "shop", "web", "tgp", "1", "");
	dh_pod(h, "shop", "dnd", "tgp", "4", "  annotations: {karpenter.sh/do-not-disrupt: \"true\"}");
	dh_pod(h, "shop", "db", "tgp", "4", "  labels: {app: db}");
	dh_pod(h, "shop", "cache", "tgp", "1", "  labels: {app: cache}");
	dh_add(h, "apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: db, namespace: shop}\n"
		  "spec: {maxUnavailable: 0, selector: {matchLabels: {app: db}}}\nstatus: {disruptionsAllowed: 0}\n");
	dh_add(h, "apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: cache, namespace: shop}\n"
		  "spec: {maxUnavailable: 1, selector: {matchLabels: {app: cache}}}\nstatus: {disruptionsAllowed: 0}\n");
	const kp_disruption_result *r = dh_run(h, NOW, 0, 1);
	const kp_disruption_command *c = only_command(r);
	ck_assert_uint_eq(c->method, KP_DISRUPTION_METHOD_DRIFT);
	ck_assert_uint_eq(c->decision, KP_DISRUPTION_REPLACE);
	ck_assert_str_eq(c->candidates[0]->node, "tgp");
	ck_assert_uint_eq(c->n_moves, 2);
	ck_assert_str_eq(c->moves[0]->name, "web");
	ck_assert_str_eq(c->moves[1]->name, "cache");
	ck_assert_ptr_nonnull(c->moves[0]->nodeclaim);
	ck_assert_ptr_nonnull(c->moves[1]->nodeclaim);
	ck_assert_uint_eq(c->n_replacements, 1);
	/* 2 cpu of pods: with the blocked ones it would need 10 */
	ck_assert_str_eq(c->replacements[0]->instance_type, "c-4x-amd64-linux");
	/* graceful methods still name the first blocking pod */
	assert_reason(r, "tgp", KP_BLOCK_DO_NOT_DISRUPT, KP_DISRUPTION_METHOD_EMPTINESS,
		      "pod has \"karpenter.sh/do-not-disrupt\" annotation (Pod=shop/dnd)");
	dh_free(h);
}
END_TEST

/* upstream's Emptiness, Drift and consolidation skip the nodes of a static
 * NodePool (spec.replicas); the explanation says so, method by method. */
START_TEST(static_nodepool_nodes_are_explained)
{
	dh *h = dh_new();
	dh_add(h, "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: fixed}\nspec:\n"
		  "  replicas: 2\n  template:\n    spec:\n"
		  "      nodeClassRef: {group: karpenter.kwok.sh, kind: KWOKNodeClass, name: default}\n"
		  "      requirements: [{key: karpenter.sh/capacity-type, operator: In, values: [on-demand]}]\n"
		  "  disruption:\n    consolidationPolicy: WhenEmptyOrUnderutilized\n    consolidateAfter: 0s\n"
		  "    budgets: [{nodes: \"100%%\"}]\n");
	dh_node(h, "empty", "fixed", "c-4x-amd64-linux", "test-zone-a", "on-demand", INIT, STALE_HASH, "");
	const kp_disruption_result *r = dh_run(h, NOW, 0, 1);
	ck_assert_uint_eq(kp_disruption_result_command_count(r), 0);
	ck_assert(dh_find(r, "empty")->candidate);
	ck_assert(dh_find(r, "empty")->empty);
	assert_reason(r, "empty", KP_BLOCK_STATIC_NODEPOOL, KP_DISRUPTION_METHOD_EMPTINESS,
		      "NodePool \"fixed\" is static (spec.replicas): its nodes are not consolidated");
	assert_reason(r, "empty", KP_BLOCK_STATIC_NODEPOOL, KP_DISRUPTION_METHOD_DRIFT,
		      "NodePool \"fixed\" is static (spec.replicas): its drifted nodes are replaced by StaticDrift, which is not modelled");
	assert_reason(r, "empty", KP_BLOCK_STATIC_NODEPOOL, KP_DISRUPTION_METHOD_SINGLE_NODE,
		      "NodePool \"fixed\" is static (spec.replicas): its nodes are not consolidated");
	ck_assert_str_eq(kp_disruption_block_code_name(KP_BLOCK_STATIC_NODEPOOL), "StaticNodePool");
	dh_free(h);
}
END_TEST

/* A NodeClaim pairs with the first Node (input order) that carries its
 * provider ID; a second Node with the same ID stays unmanaged. */
#define DUP_NODE(name, pid)                                                                        \
	"apiVersion: v1\nkind: Node\nmetadata:\n  name: " name "\n  labels: {kubernetes.io/hostname: " \
	name "}\nspec: {providerID: \"" pid "\"}\nstatus:\n  allocatable: {cpu: \"4\", memory: 8Gi, "  \
	"pods: \"110\"}\n  conditions: [{type: Ready, status: \"True\"}]\n"

START_TEST(nodeclaim_pairs_with_first_node_of_its_provider_id)
{
	dh *h = dh_new();
	dh_nodepool(h, "default", "on-demand", WEOU, "0s", "100%");
	dh_node(h, "a", "default", "c-4x-amd64-linux", "test-zone-a", "on-demand", INIT, "", "");
	dh_add(h, DUP_NODE("a-dup", "kwok://a"));
	dh_add(h, DUP_NODE("b-first", "kwok://b"));
	dh_node(h, "b", "default", "c-4x-amd64-linux", "test-zone-a", "on-demand", INIT, "", "");
	const kp_disruption_result *r = dh_run(h, NOW, 0, 1);
	ck_assert_str_eq(dh_find(r, "a")->nodeclaim, "a");
	ck_assert_str_eq(dh_find(r, "b-first")->nodeclaim, "b");
	assert_reason(r, "a-dup", KP_BLOCK_UNMANAGED, 0, "node isn't managed by karpenter");
	ck_assert_ptr_null(dh_find(r, "b")->nodeclaim);
	assert_reason(r, "b", KP_BLOCK_UNMANAGED, 0, "node isn't managed by karpenter");
	dh_free(h);
}
END_TEST

/* ---------------------------------------------------------- consolidation */

/* upstream consolidation_test.go "should not consolidate pods onto a
 * destination node that is under its consolidateAfter window": the
 * consolidation simulation skips that node, so the pod needs a new
 * NodeClaim (here a cheaper replacement); Drift does not skip it. */
#define FRESH "2025-01-01T23:30:00Z"

START_TEST(consolidation_skips_destination_inside_consolidate_after)
{
	dh *h = dh_new();
	dh_nodepool(h, "default", "on-demand", WEOU, "1h", "100%");
	dh_node(h, "src", "default", "c-4x-amd64-linux", "test-zone-a", "on-demand", INIT, "", "");
	dh_pod(h, "shop", "p1", "src", "1", "");
	dh_node(h, "fresh", "default", "c-8x-amd64-linux", "test-zone-a", "on-demand", FRESH, "", "");
	dh_pod(h, "shop", "p2", "fresh", "1", "");
	const kp_disruption_result *r = dh_run(h, NOW, 0, 1);
	const kp_disruption_command *c = only_command(r);
	ck_assert_uint_eq(c->method, KP_DISRUPTION_METHOD_SINGLE_NODE);
	ck_assert_uint_eq(c->decision, KP_DISRUPTION_REPLACE);
	ck_assert_str_eq(c->candidates[0]->node, "src");
	ck_assert_uint_eq(c->n_replacements, 1);
	ck_assert_uint_eq(c->n_moves, 1);
	ck_assert_str_eq(c->moves[0]->name, "p1");
	ck_assert_ptr_null(c->moves[0]->node);
	ck_assert_ptr_nonnull(c->moves[0]->nodeclaim);
	assert_reason(r, "fresh", KP_BLOCK_CONSOLIDATE_AFTER, KP_DISRUPTION_METHOD_SINGLE_NODE,
		      "node is not consolidatable until 2025-01-02T00:30:00Z (consolidateAfter 1h since its last pod event)");
	/* once the window has passed both are candidates and nodes: the
	 * dearer fresh goes first and its pod moves to src */
	r = dh_run(h, "2025-01-02T00:31:00Z", 0, 1);
	c = only_command(r);
	ck_assert_uint_eq(c->method, KP_DISRUPTION_METHOD_SINGLE_NODE);
	ck_assert_uint_eq(c->decision, KP_DISRUPTION_DELETE);
	ck_assert_str_eq(c->candidates[0]->node, "fresh");
	ck_assert_uint_eq(c->n_moves, 1);
	ck_assert_str_eq(c->moves[0]->name, "p2");
	ck_assert_str_eq(c->moves[0]->node, "src");
	dh_free(h);
}
END_TEST

/* upstream "should consolidate pods onto a destination node with
 * consolidateAfter set to Never": Never is never inside a window. */
START_TEST(consolidation_uses_destination_with_never)
{
	dh *h = dh_new();
	dh_nodepool(h, "default", "on-demand", WEOU, "1h", "100%");
	dh_nodepool(h, "keep", "on-demand", WEOU, "Never", "100%");
	dh_node(h, "src", "default", "c-4x-amd64-linux", "test-zone-a", "on-demand", INIT, "", "");
	dh_pod(h, "shop", "p1", "src", "1", "");
	dh_node(h, "dst", "keep", "c-8x-amd64-linux", "test-zone-a", "on-demand", FRESH, "", "");
	dh_pod(h, "shop", "p2", "dst", "1", "");
	const kp_disruption_result *r = dh_run(h, NOW, 0, 1);
	const kp_disruption_command *c = only_command(r);
	ck_assert_uint_eq(c->decision, KP_DISRUPTION_DELETE);
	ck_assert_str_eq(c->candidates[0]->node, "src");
	ck_assert_uint_eq(c->n_moves, 1);
	ck_assert_str_eq(c->moves[0]->node, "dst");
	dh_free(h);
}
END_TEST

/* upstream SimulateScheduling also leaves out the pods of deleting nodes
 * that are not currently reschedulable (deletingNodes.CurrentlyReschedulablePods):
 * a do-not-disrupt pod on a deleting node takes no room from the
 * candidate's pods. */
START_TEST(deleting_node_blocked_pods_take_no_room)
{
	dh *h = dh_new();
	dh_nodepool(h, "default", "on-demand", WEOU, "0s", "100%");
	dh_nodepool(h, "keep", "on-demand", WEOU, "Never", "100%");
	dh_node(h, "dying", "keep", "c-4x-amd64-linux", "test-zone-a", "on-demand", INIT,
		"  deletionTimestamp: \"2025-01-01T12:00:00Z\"\n  finalizers: [karpenter.sh/termination]", "");
	dh_pod(h, "shop", "dnd", "dying", "3", "  annotations: {karpenter.sh/do-not-disrupt: \"true\"}");
	dh_node(h, "dst", "keep", "c-4x-amd64-linux", "test-zone-a", "on-demand", INIT, "", "");
	dh_pod(h, "shop", "filler", "dst", "500m", "");
	dh_node(h, "src", "default", "c-4x-amd64-linux", "test-zone-a", "on-demand", INIT, "", "");
	dh_pod(h, "shop", "p1", "src", "2", "");
	const kp_disruption_result *r = dh_run(h, NOW, 0, 1);
	const kp_disruption_command *c = only_command(r);
	ck_assert_uint_eq(c->method, KP_DISRUPTION_METHOD_SINGLE_NODE);
	ck_assert_uint_eq(c->decision, KP_DISRUPTION_DELETE);
	ck_assert_str_eq(c->candidates[0]->node, "src");
	ck_assert_uint_eq(c->n_moves, 1);
	ck_assert_str_eq(c->moves[0]->name, "p1");
	ck_assert_str_eq(c->moves[0]->node, "dst");
	dh_free(h);
}
END_TEST

START_TEST(single_node_replace_with_cheaper)
{
	dh *h = dh_new();
	dh_nodepool(h, "default", "on-demand", WEOU, "0s", "100%");
	dh_node(h, "big", "default", "c-16x-amd64-linux", "test-zone-a", "on-demand", INIT, "", "");
	dh_pod(h, "shop", "p1", "big", "500m", "");
	const kp_disruption_result *r = dh_run(h, NOW, 0, 1);
	const kp_disruption_command *c = only_command(r);
	ck_assert_uint_eq(c->method, KP_DISRUPTION_METHOD_SINGLE_NODE);
	ck_assert_str_eq(c->reason, "Underutilized");
	ck_assert_uint_eq(c->decision, KP_DISRUPTION_REPLACE);
	ck_assert_uint_eq(c->n_replacements, 1);
	ck_assert_str_eq(c->replacements[0]->capacity_type, "on-demand");
	ck_assert(c->replacements[0]->price < c->candidates[0]->price);
	ck_assert(c->savings > 0);
	ck_assert_double_eq_tol(c->savings, c->candidates[0]->price - c->replacements[0]->price, 1e-12);
	dh_free(h);
}
END_TEST

START_TEST(single_node_delete_when_pods_fit)
{
	dh *h = dh_new();
	dh_nodepool(h, "default", "on-demand", WEOU, "0s", "1");
	dh_node(h, "a", "default", "c-4x-amd64-linux", "test-zone-a", "on-demand", INIT, "", "");
	dh_node(h, "b", "default", "c-8x-amd64-linux", "test-zone-a", "on-demand", INIT, "", "");
	dh_pod(h, "shop", "p1", "a", "1", "");
	dh_pod(h, "shop", "p2", "b", "1", "");
	const kp_disruption_result *r = dh_run(h, NOW, 0, 1);
	const kp_disruption_command *c = only_command(r);
	/* one candidate under budget 1: multi-node needs two, single-node
	 * takes the better savings ratio (b, the dearer) and moves p2 to a */
	ck_assert_uint_eq(c->method, KP_DISRUPTION_METHOD_SINGLE_NODE);
	ck_assert_uint_eq(c->decision, KP_DISRUPTION_DELETE);
	ck_assert_str_eq(c->candidates[0]->node, "b");
	ck_assert_uint_eq(c->n_moves, 1);
	ck_assert_str_eq(c->moves[0]->node, "a");
	ck_assert_str_eq(c->moves[0]->from, "b");
	dh_free(h);
}
END_TEST

START_TEST(multi_node_deletes_batch)
{
	dh *h = dh_new();
	dh_nodepool(h, "default", "on-demand", WEOU, "0s", "100%");
	dh_node(h, "a", "default", "c-8x-amd64-linux", "test-zone-a", "on-demand", INIT, "", "");
	dh_node(h, "b", "default", "c-4x-amd64-linux", "test-zone-a", "on-demand", INIT, "", "");
	dh_node(h, "c", "default", "c-4x-amd64-linux", "test-zone-a", "on-demand", INIT, "", "");
	dh_pod(h, "shop", "p1", "a", "1", "");
	dh_pod(h, "shop", "p2", "b", "1", "");
	dh_pod(h, "shop", "p3", "c", "1", "");
	const kp_disruption_result *r = dh_run(h, NOW, 0, 1);
	const kp_disruption_command *c = only_command(r);
	ck_assert_uint_eq(c->method, KP_DISRUPTION_METHOD_MULTI_NODE);
	ck_assert_uint_eq(c->n_candidates, 2);
	ck_assert_uint_eq(c->decision, KP_DISRUPTION_DELETE);
	ck_assert_str_eq(c->candidates[0]->node, "a");
	const char *left = strcmp(c->candidates[1]->node, "b") ? "b" : "c";
	assert_reason(r, left, KP_BLOCK_OTHER_COMMAND, KP_DISRUPTION_METHOD_MULTI_NODE,
		      "outside the largest batch that consolidates together (its first 2 candidates)");
	dh_free(h);
}
END_TEST

START_TEST(when_empty_policy)
{
	dh *h = dh_new();
	dh_nodepool(h, "default", "on-demand", "WhenEmpty", "0s", "100%");
	dh_node(h, "big", "default", "c-16x-amd64-linux", "test-zone-a", "on-demand", INIT, "", "");
	dh_pod(h, "shop", "p1", "big", "500m", "");
	const kp_disruption_result *r = dh_run(h, NOW, 0, 1);
	ck_assert_uint_eq(kp_disruption_result_command_count(r), 0);
	assert_reason(r, "big", KP_BLOCK_WHEN_EMPTY, KP_DISRUPTION_METHOD_SINGLE_NODE,
		      "NodePool \"default\" has consolidation policy WhenEmpty, but node is not empty");
	dh_free(h);
}
END_TEST

START_TEST(spot_to_spot_gate)
{
	dh *h = dh_new();
	dh_nodepool(h, "default", "spot", WEOU, "0s", "100%");
	dh_node(h, "big", "default", "c-16x-amd64-linux", "test-zone-a", "spot", INIT, "", "");
	dh_pod(h, "shop", "p1", "big", "500m", "");
	const kp_disruption_result *r = dh_run(h, NOW, 0, 1);
	ck_assert_uint_eq(kp_disruption_result_command_count(r), 0);
	assert_reason(r, "big", KP_BLOCK_SPOT_TO_SPOT, KP_DISRUPTION_METHOD_SINGLE_NODE,
		      "SpotToSpotConsolidation is disabled, can't replace a spot node with a spot node");
	dh_free(h);

	/* gate on: a c-2x spot node has fewer than 15 cheaper options */
	h = dh_new();
	dh_nodepool(h, "default", "spot", WEOU, "0s", "100%");
	dh_node(h, "small", "default", "c-2x-amd64-linux", "test-zone-a", "spot", INIT, "", "");
	dh_pod(h, "shop", "p1", "small", "100m", "");
	r = dh_run(h, NOW, DH_SPOT_TO_SPOT, 1);
	const kp_disruption_node *n = dh_find(r, "small");
	const kp_disruption_why *w = dh_reason(n, KP_BLOCK_SPOT_TO_SPOT, KP_DISRUPTION_METHOD_SINGLE_NODE);
	ck_assert_msg(w != NULL, "%s", dh_reasons(n));
	ck_assert_ptr_nonnull(strstr(w->message,
		"SpotToSpotConsolidation requires 15 cheaper instance type options than the current candidate to consolidate, got "));
	dh_free(h);
}
END_TEST

/* A NodePool of one capacity type on amd64 Linux whose instance types
 * must span min_values distinct types. In the KWOK built-in catalogue the
 * 36 amd64 Linux types by price start c-1x, s-1x, m-1x, c-2x, ... m-16x,
 * c-32x, s-32x, m-32x: c-32x has 15 cheaper, m-32x 17. */
static void min_values_pool(dh *h, const char *ct, int min_values)
{
	char req[128];
	snprintf(req, sizeof(req),
		 "        - {key: node.kubernetes.io/instance-type, operator: Exists, minValues: %d}\n",
		 min_values);
	dh_nodepool_ex(h, "default", ct, WEOU, "0s", "100%", req);
}

/* The values of a replacement NodeClaim's requirement KEY. */
static const kp_nodeclaim_requirement *repl_req(const kp_disruption_command *c, const char *key)
{
	ck_assert_uint_eq(c->n_replacements, 1);
	const kp_nodeclaim_spec *sp = c->replacements[0]->nodeclaim->spec;
	for (size_t i = 0; i < sp->n_requirements; i++)
		if (!strcmp(sp->requirements[i]->key, key))
			return sp->requirements[i];
	ck_abort_msg("no %s requirement", key);
	return NULL;
}

/* upstream consolidation_test.go "Consolidation should fail if filterByPrice
 * breaks the minimum requirement from the NodePools" (on-demand and spot
 * candidates): minValues 16 with only 15 cheaper types gives no replace
 * command, and the candidate says why. */
START_TEST(min_values_rechecked_after_price_filter)
{
	static const char *const cts[] = { "on-demand", "spot" };
	for (size_t i = 0; i < 2; i++) {
		dh *h = dh_new();
		min_values_pool(h, cts[i], 16);
		dh_node(h, "big", "default", "c-32x-amd64-linux", "test-zone-a", cts[i], INIT, "", "");
		dh_pod(h, "shop", "p1", "big", "100m", "");
		const kp_disruption_result *r = dh_run(h, NOW, DH_SPOT_TO_SPOT, 1);
		ck_assert_uint_eq(kp_disruption_result_command_count(r), 0);
		assert_reason(r, "big", KP_BLOCK_NO_CHEAPER_REPLACEMENT, KP_DISRUPTION_METHOD_SINGLE_NODE,
			      "Filtering by price: minValues requirement is not met for label(s) "
			      "(label(s)=[node.kubernetes.io/instance-type])");
		dh_free(h);
	}
	/* minValues 15: the 15 cheaper types do (on-demand: all of them kept) */
	dh *h = dh_new();
	min_values_pool(h, "on-demand", 15);
	dh_node(h, "big", "default", "c-32x-amd64-linux", "test-zone-a", "on-demand", INIT, "", "");
	dh_pod(h, "shop", "p1", "big", "100m", "");
	const kp_disruption_command *c = only_command(dh_run(h, NOW, 0, 1));
	ck_assert_uint_eq(c->decision, KP_DISRUPTION_REPLACE);
	const kp_nodeclaim_requirement *q = repl_req(c, "node.kubernetes.io/instance-type");
	ck_assert_uint_eq(q->n_values, 15);
	ck_assert_int_eq(q->min_values, 15);
	dh_free(h);
}
END_TEST

/* upstream consolidation_test.go "spot to spot consolidation should consider
 * the max of default and minimum number of instanceTypeOptions from
 * minValues in requirement for truncation if minimum number of
 * instanceTypeOptions from minValues in requirement is greater than 15":
 * minValues 16 and 17 cheaper spot types, the launch list is the cheapest
 * 16 (15 without minValues). */
START_TEST(spot_to_spot_keeps_min_values_options)
{
	dh *h = dh_new();
	min_values_pool(h, "spot", 16);
	dh_node(h, "big", "default", "m-32x-amd64-linux", "test-zone-a", "spot", INIT, "", "");
	dh_pod(h, "shop", "p1", "big", "100m", "");
	const kp_disruption_command *c = only_command(dh_run(h, NOW, DH_SPOT_TO_SPOT, 1));
	ck_assert_uint_eq(c->decision, KP_DISRUPTION_REPLACE);
	const kp_nodeclaim_requirement *q = repl_req(c, "node.kubernetes.io/instance-type");
	ck_assert_uint_eq(q->n_values, 16);
	/* the cheapest 16: up to c-32x; s-32x (the 17th) and m-32x left out */
	int has_c32 = 0;
	for (size_t i = 0; i < q->n_values; i++) {
		ck_assert_str_ne(q->values[i], "m-32x-amd64-linux");
		ck_assert_str_ne(q->values[i], "s-32x-amd64-linux");
		has_c32 |= !strcmp(q->values[i], "c-32x-amd64-linux");
	}
	ck_assert(has_c32);
	ck_assert_str_eq(c->replacements[0]->capacity_type, "spot");
	dh_free(h);
	/* without minValues: the default 15 */
	h = dh_new();
	dh_nodepool(h, "default", "spot", WEOU, "0s", "100%");
	dh_node(h, "big", "default", "m-32x-amd64-linux", "test-zone-a", "spot", INIT, "", "");
	dh_pod(h, "shop", "p1", "big", "100m", "");
	c = only_command(dh_run(h, NOW, DH_SPOT_TO_SPOT, 1));
	ck_assert_uint_eq(repl_req(c, "node.kubernetes.io/instance-type")->n_values, 15);
	dh_free(h);
}
END_TEST

START_TEST(pods_would_not_schedule)
{
	dh *h = dh_new();
	dh_nodepool(h, "default", "on-demand", WEOU, "0s", "100%");
	/* a host port on both nodes: the pod of a cannot move to b, and no
	 * instance type is cheaper than c-1x */
	dh_node(h, "a", "default", "c-1x-amd64-linux", "test-zone-a", "on-demand", INIT, "", "");
	dh_pod(h, "shop", "p1", "a", "800m", "");
	const kp_disruption_result *r = dh_run(h, NOW, 0, 1);
	ck_assert_uint_eq(kp_disruption_result_command_count(r), 0);
	const kp_disruption_node *n = dh_find(r, "a");
	ck_assert_msg(dh_reason(n, KP_BLOCK_NO_CHEAPER_REPLACEMENT, KP_DISRUPTION_METHOD_SINGLE_NODE) != NULL,
		      "%s", dh_reasons(n));
	assert_reason(r, "a", KP_BLOCK_NO_CHEAPER_REPLACEMENT, KP_DISRUPTION_METHOD_SINGLE_NODE,
		      "Can't replace with a cheaper node");
	dh_free(h);
}
END_TEST

START_TEST(bad_budget_schedule_fails_closed)
{
	dh *h = dh_new();
	dh_add(h, "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: default}\nspec:\n"
		  "  template:\n    spec:\n"
		  "      nodeClassRef: {group: karpenter.kwok.sh, kind: KWOKNodeClass, name: default}\n"
		  "      requirements: [{key: karpenter.sh/capacity-type, operator: In, values: [on-demand]}]\n"
		  "  disruption:\n    consolidateAfter: 0s\n"
		  "    budgets: [{nodes: \"100%%\"}, {nodes: \"1\", schedule: \"0 0 * * tue-mon\", duration: 1h}]\n");
	dh_node(h, "a", "default", "c-4x-amd64-linux", "test-zone-a", "on-demand", INIT, "", "");
	const kp_disruption_result *r = dh_run(h, NOW, 0, 1);
	ck_assert_uint_eq(kp_disruption_result_command_count(r), 0);
	for (size_t i = 0; i < 3; i++) {
		const kp_disruption_budget_status *b = kp_disruption_result_budget_at(r, i);
		ck_assert_int_eq(b->allowed, 0);
		ck_assert(b->limited);
		ck_assert_ptr_nonnull(b->error);
		ck_assert_ptr_nonnull(strstr(b->error, "spec.disruption.budgets[1].schedule"));
	}
	const kp_disruption_why *w = dh_reason(dh_find(r, "a"), KP_BLOCK_BUDGET, KP_DISRUPTION_METHOD_EMPTINESS);
	ck_assert_ptr_nonnull(w);
	ck_assert_ptr_nonnull(strstr(w->message, "NodePool \"default\": no disruptions allowed: invalid disruption budget (spec.disruption.budgets[1].schedule"));
	dh_free(h);
}
END_TEST

START_TEST(disrupting_nodes_consume_budget)
{
	dh *h = dh_new();
	dh_nodepool(h, "default", "on-demand", WEOU, "0s", "2");
	dh_node(h, "a", "default", "c-4x-amd64-linux", "test-zone-a", "on-demand", INIT, "", "");
	dh_node(h, "b", "default", "c-4x-amd64-linux", "test-zone-a", "on-demand", INIT,
		"  deletionTimestamp: \"2025-01-01T12:00:00Z\"\n  finalizers: [karpenter.sh/termination]", "");
	dh_node(h, "c", "default", "c-4x-amd64-linux", "test-zone-a", "on-demand", INIT, "", "");
	const kp_disruption_result *r = dh_run(h, NOW, 0, 1);
	const kp_disruption_budget_status *b = kp_disruption_result_budget_at(r, 0);
	ck_assert_int_eq(b->allowed, 2);
	ck_assert_int_eq(b->disrupting, 1);
	ck_assert_int_eq(b->remaining, 1);
	ck_assert_uint_eq(only_command(r)->n_candidates, 1);
	assert_reason(r, "b", KP_BLOCK_DELETING, 0, "node is deleting or marked for deletion");
	dh_free(h);
}
END_TEST

START_TEST(passes_converge)
{
	dh *h = dh_new();
	dh_nodepool(h, "default", "on-demand", WEOU, "0s", "1");
	dh_node(h, "a", "default", "c-4x-amd64-linux", "test-zone-a", "on-demand", INIT, "", "");
	dh_node(h, "b", "default", "c-4x-amd64-linux", "test-zone-a", "on-demand", INIT, "", "");
	dh_node(h, "c", "default", "c-4x-amd64-linux", "test-zone-a", "on-demand", INIT, "", "");
	dh_pod(h, "shop", "p1", "c", "1", "");
	const kp_disruption_result *r = dh_run(h, NOW, KP_DISRUPTION_F_CONVERGE, 0);
	/* budget 1: one empty node per pass, then c (1 CPU on a c-4x) is
	 * replaced by a c-2x launched at NOW, then nothing */
	for (size_t i = 0; getenv("DH_DEBUG") && i < kp_disruption_result_command_count(r); i++) {
		const kp_disruption_command *x = kp_disruption_result_command_at(r, i);
		fprintf(stderr, "pass %u %s %s %s %s->%s %f\n", x->pass, kp_disruption_method_name(x->method),
			kp_disruption_decision_name(x->decision), x->candidates[0]->node, x->candidates[0]->instance_type,
			x->n_replacements ? x->replacements[0]->instance_type : "-", x->savings);
	}
	ck_assert_uint_eq(kp_disruption_result_command_count(r), 3);
	ck_assert_uint_eq(kp_disruption_result_command_at(r, 0)->method, KP_DISRUPTION_METHOD_EMPTINESS);
	ck_assert_uint_eq(kp_disruption_result_command_at(r, 1)->pass, 2);
	const kp_disruption_command *c3 = kp_disruption_result_command_at(r, 2);
	ck_assert_uint_eq(c3->pass, 3);
	ck_assert_uint_eq(c3->method, KP_DISRUPTION_METHOD_SINGLE_NODE);
	ck_assert_str_eq(c3->replacements[0]->instance_type, "c-2x-amd64-linux");
	double before, after;
	kp_disruption_result_cost(r, &before, &after);
	ck_assert_double_eq_tol(after, c3->replacements[0]->price, 1e-9);
	ck_assert_double_eq_tol(before, 3 * c3->candidates[0]->price, 1e-9);
	dh_free(h);
}
END_TEST

/* Replacement NodeClaims and Nodes carry the NodePool's template labels
 * whatever characters they hold: a '"' and a '\\' in a label value (which
 * the library does not ask callers to validate first) made a second pass
 * fail with an internal parse error, or were read as a JSON escape. */
START_TEST(replacement_labels_any_characters)
{
	dh *h = dh_new();
	dh_add(h,
	       "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: default}\nspec:\n"
	       "  template:\n    metadata:\n      labels: {team: 'q\"u\\o\\n'}\n    spec:\n"
	       "      nodeClassRef: {group: karpenter.kwok.sh, kind: KWOKNodeClass, name: default}\n"
	       "      requirements:\n"
	       "        - {key: karpenter.sh/capacity-type, operator: In, values: [on-demand]}\n"
	       "        - {key: kubernetes.io/arch, operator: In, values: [amd64]}\n"
	       "        - {key: kubernetes.io/os, operator: In, values: [linux]}\n"
	       "  disruption:\n    consolidationPolicy: %s\n    consolidateAfter: 0s\n"
	       "    budgets: [{nodes: \"1\"}]\n", WEOU);
	dh_node(h, "a", "default", "c-4x-amd64-linux", "test-zone-a", "on-demand", INIT, "", "");
	dh_node(h, "c", "default", "c-4x-amd64-linux", "test-zone-a", "on-demand", INIT, "", "");
	dh_pod(h, "shop", "p1", "c", "1", "");
	kp_error e = KP_ERROR_INIT;
	ck_assert_msg(dh_run_rc(h, NOW, KP_DISRUPTION_F_CONVERGE, 0, &e) == KP_OK, "%s", e.message);
	const kp_disruption_result *r = dh_run(h, NOW, KP_DISRUPTION_F_CONVERGE, 0);
	size_t n = kp_disruption_result_command_count(r);
	ck_assert_uint_ge(n, 2);
	const kp_disruption_command *last = kp_disruption_result_command_at(r, n - 1);
	ck_assert_uint_eq(last->n_replacements, 1);
	const kp_nodeclaim *x = last->replacements[0]->nodeclaim;
	ck_assert_str_eq(kp_labels_get(&x->metadata->labels, "team"), "q\"u\\o\\n");
	dh_free(h);
}
END_TEST

/* A Node or NodeClaim without a name (none the API server would store) is
 * refused, naming the object, rather than crashing the pairing (audit
 * finding 1: a Node document without metadata). */
/* kp_disruption_run refuses what the API server never stores, in a spec
 * filled by hand (the builder refuses it earlier, as a problem). */
START_TEST(nameless_objects_are_refused)
{
	dh *h = dh_new();
	dh_nodepool(h, "default", "on-demand", WEOU, "0s", "100%");
	dh_node(h, "a", "default", "c-4x-amd64-linux", "test-zone-a", "on-demand", INIT, "", "");
	kp_cluster_spec spec = *dh_spec(h, NOW);
	kp_object_meta meta = KP_OBJECT_META_INIT; /* no name */
	kp_node node = KP_NODE_INIT;
	node.metadata = &meta;
	const kp_node *nodes[] = { spec.nodes[0], &node };
	spec.nodes = nodes;
	spec.n_nodes = 2;
	kp_disruption_result *r = NULL;
	kp_error e = KP_ERROR_INIT;
	ck_assert_int_eq(kp_disruption_run(&r, &spec, NULL, &e), KP_EINVAL);
	ck_assert_ptr_null(r);
	ck_assert_str_eq(e.field, "nodes[1].metadata.name");
	ck_assert_str_eq(e.message, "Node has no name");

	kp_nodeclaim nc = KP_NODECLAIM_INIT;
	nc.metadata = &meta;
	const kp_nodeclaim *ncs[] = { &nc };
	spec = *dh_spec(h, NOW);
	spec.nodeclaims = ncs;
	spec.n_nodeclaims = 1;
	ck_assert_int_eq(kp_disruption_run(&r, &spec, NULL, &e), KP_EINVAL);
	ck_assert_str_eq(e.field, "nodeclaims[0].metadata.name");
	ck_assert_str_eq(e.message, "NodeClaim has no name");
	dh_free(h);
}
END_TEST

/* Every allocation of a run with passes fails in turn: KP_ENOMEM (never a
 * crash, a partial result or, under ASan, a leak), then KP_OK once none
 * fails. */
START_TEST(out_of_memory_sweep)
{
	dh *h = dh_new();
	dh_nodepool(h, "default", "on-demand", WEOU, "0s", "100%");
	dh_node(h, "a", "default", "c-4x-amd64-linux", "test-zone-a", "on-demand", INIT, "", "");
	dh_node(h, "old", "default", "c-4x-amd64-linux", "test-zone-a", "on-demand", INIT, STALE_HASH, "");
	dh_node(h, "big", "default", "c-16x-amd64-linux", "test-zone-b", "on-demand", INIT, "", "");
	dh_pod(h, "shop", "p1", "old", "1", "");
	dh_pod(h, "shop", "p2", "big", "500m", "");
	kp_error e = KP_ERROR_INIT;
	ck_assert_int_eq(dh_run_rc(h, NOW, KP_DISRUPTION_F_CONVERGE, 0, &e), KP_OK);
	size_t want = kp_disruption_result_command_count(dh_run(h, NOW, KP_DISRUPTION_F_CONVERGE, 0));
	ck_assert_uint_ge(want, 3);
	kp_test_alloc_install();
	long n = 0;
	for (;; n++) {
		kp_test_alloc_fail_at(n);
		int rc = dh_run_rc(h, NOW, KP_DISRUPTION_F_CONVERGE, 0, &e);
		if (rc == KP_OK)
			break;
		ck_assert_msg(rc == KP_ENOMEM, "allocation %ld: %s (%s)", n, kp_strerror(rc), e.message);
		ck_assert_ptr_null(kp_disruption_result_command_at(NULL, 0));
	}
	kp_test_alloc_fail_at(-1);
	kp_test_alloc_uninstall();
	ck_assert_int_gt(n, 100);
	ck_assert_int_eq(dh_run_rc(h, NOW, KP_DISRUPTION_F_CONVERGE, 0, &e), KP_OK);
	dh_free(h);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("disruption-scenarios");
	TCase *tc = tcase_create("scenarios");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, emptiness_deletes_all_empty_within_budget);
	tcase_add_test(tc, instance_type_drift_waits_an_hour_and_says_so);
	tcase_add_test(tc, emptiness_respects_budget);
	tcase_add_test(tc, emptiness_blocked_by_zero_budget);
	tcase_add_test(tc, emptiness_waits_for_consolidate_after);
	tcase_add_test(tc, emptiness_consolidation_disabled);
	tcase_add_test(tc, daemonset_pods_keep_a_node_empty);
	tcase_add_test(tc, candidate_filters);
	tcase_add_test(tc, pdb_always_allow_and_multiple);
	tcase_add_test(tc, do_not_disrupt_duration);
	tcase_add_test(tc, drift_replaces_one_node);
	tcase_add_test(tc, drift_empty_first_and_condition_counts);
	tcase_add_test(tc, drift_ignores_pod_blocks_with_termination_grace_period);
	tcase_add_test(tc, drift_with_termination_grace_period_leaves_blocked_pods);
	tcase_add_test(tc, consolidation_skips_destination_inside_consolidate_after);
	tcase_add_test(tc, consolidation_uses_destination_with_never);
	tcase_add_test(tc, deleting_node_blocked_pods_take_no_room);
	tcase_add_test(tc, static_nodepool_nodes_are_explained);
	tcase_add_test(tc, nodeclaim_pairs_with_first_node_of_its_provider_id);
	tcase_add_test(tc, single_node_replace_with_cheaper);
	tcase_add_test(tc, single_node_delete_when_pods_fit);
	tcase_add_test(tc, multi_node_deletes_batch);
	tcase_add_test(tc, when_empty_policy);
	tcase_add_test(tc, spot_to_spot_gate);
	tcase_add_test(tc, min_values_rechecked_after_price_filter);
	tcase_add_test(tc, spot_to_spot_keeps_min_values_options);
	tcase_add_test(tc, pods_would_not_schedule);
	tcase_add_test(tc, bad_budget_schedule_fails_closed);
	tcase_add_test(tc, disrupting_nodes_consume_budget);
	tcase_add_test(tc, passes_converge);
	tcase_add_test(tc, replacement_labels_any_characters);
	tcase_add_test(tc, nameless_objects_are_refused);
	suite_add_tcase(s, tc);
	/* one full run per allocation: slow under sanitizers and a loaded machine */
	TCase *oom = tcase_create("out-of-memory");
	tcase_set_timeout(oom, 900);
	tcase_add_test(oom, out_of_memory_sweep);
	suite_add_tcase(s, oom);
	return kp_test_run(&s, 1);
}
