/*
 * nodeclaim.lifecycle and nodeclaim.expiration scenarios, after upstream
 * pkg/controllers/nodeclaim/lifecycle/{launch,registration,initialization,
 * liveness}_test.go and pkg/controllers/nodeclaim/expiration/suite_test.go.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdio.h>
#include <string.h>

#include <check.h>

#include "kp_test.h"
#include "lc_harness.h"

#define T0 "2024-01-01T00:00:00Z"
#define FIN ", finalizers: [karpenter.sh/termination]"
#define LAUNCHED "{type: Launched, status: 'True', reason: Launched, lastTransitionTime: '" T0 "'}"
#define REGISTERED "{type: Registered, status: 'True', reason: Registered, lastTransitionTime: '" T0 "'}"
#define PID "providerID: 'fake://nc-1'"

static lc_world w;

static void setup(void)
{
	lc_world_init(&w, LC_T0 + 60000);
}

static void teardown(void)
{
	lc_world_free(&w);
}

static const char *node_yaml(const char *name, const char *pid, const char *labels,
			     const char *taints, const char *ready)
{
	static char buf[4096];
	snprintf(buf, sizeof(buf),
		 "apiVersion: v1\nkind: Node\n"
		 "metadata: {name: %s, labels: {karpenter.test.sh/testnodeclass: default%s}}\n"
		 "spec: {providerID: '%s', taints: [%s]}\n"
		 "status: {conditions: [{type: Ready, status: '%s'}], "
		 "allocatable: {cpu: '2', memory: 8Gi, pods: '110'}}\n",
		 name, labels ? labels : "", pid, taints ? taints : "", ready ? ready : "True");
	return buf;
}

#define UNREG "{key: karpenter.sh/unregistered, effect: NoExecute}"

/* ---- launch ---- */

START_TEST(launch_adds_finalizer_then_launches)
{
	lc_add(&w, lc_nodeclaim_yaml("nc-1", NULL, NULL, NULL));
	lc_reconcile(&w);
	ck_assert_str_eq(lc_summary(&w),
			 "patch NodeClaim/nc-1 Finalizer\n"
			 "providerCreate NodeClaim/nc-1 Launched\n"
			 "patch NodeClaim/nc-1 Launched\n"
			 "updateStatus NodeClaim/nc-1 NotRegistered\n");
	const kp_lifecycle_action *fin = lc_action(&w, 0);
	const kp_nodeclaim *nc = fin->object;
	ck_assert_uint_eq(nc->metadata->n_finalizers, 1);
	ck_assert_str_eq(nc->metadata->finalizers[0], "karpenter.sh/termination");
	ck_assert_str_eq(lc_action(&w, 1)->message,
			 "launched nodeclaim: provider-id fake://nc-1, instance-type m-2x, zone zone-a, "
			 "capacity-type on-demand");
	const kp_lifecycle_action *st = lc_action(&w, 3);
	nc = st->object;
	ck_assert_str_eq(nc->status->provider_id, "fake://nc-1");
	ck_assert_str_eq(kp_labels_get(&nc->metadata->labels, "node.kubernetes.io/instance-type"),
			 "m-2x");
	/* the NodeClaim's own labels win */
	ck_assert_str_eq(kp_labels_get(&nc->metadata->labels, "karpenter.sh/nodepool"), "default");
	/* operatorpkg: ordered by lastTransitionTime, the root last; the
	 * dependents initialized at the creationTimestamp */
	ck_assert_str_eq(lc_nc_conds(st), "Initialized=Unknown/AwaitingReconciliation "
			 "Registered=Unknown/NodeNotFound Launched=True/Launched "
			 "Ready=Unknown/ReconcilingDependents");
	ck_assert_str_eq(lc_nc_cond(st, "Ready")->message,
			 "Initialized=Unknown, Registered=Unknown");
	ck_assert_str_eq(st->message, "Node not registered with cluster");
	ck_assert_int_eq(lc_nc_cond(st, "Launched")->last_transition_time_ms, LC_T0 + 60000);
	ck_assert_int_eq(lc_nc_cond(st, "Registered")->last_transition_time_ms, LC_T0);
	ck_assert_int_eq(lc_nc_cond(st, "Ready")->last_transition_time_ms, LC_T0);
	/* liveness: the registration timeout from the Registered transition
	 * (the creationTimestamp); then expiration at the stored NodeClaim's
	 * expireAfter (the CRD's default, 720h, from creation) */
	ck_assert_uint_eq(kp_lifecycle_result_requeue_count(w.r), 2);
	ck_assert_int_eq(kp_lifecycle_result_requeue_at(w.r, 0)->after_ms, 14 * LC_MIN);
	ck_assert_str_eq(kp_lifecycle_result_requeue_at(w.r, 1)->controller, "nodeclaim.expiration");
	ck_assert_int_eq(kp_lifecycle_result_requeue_at(w.r, 1)->after_ms, 720 * 60 * LC_MIN - LC_MIN);
	ck_assert_int_eq(w.cloud->create_calls, 1);
}
END_TEST

START_TEST(launch_insufficient_capacity_deletes)
{
	w.cloud->create_rc = KP_EINSUFFICIENT;
	snprintf(w.cloud->create_msg, sizeof(w.cloud->create_msg), "all offerings unavailable");
	lc_add(&w, lc_nodeclaim_yaml("nc-1", FIN, NULL, NULL));
	lc_reconcile(&w);
	ck_assert_str_eq(lc_summary(&w), "delete NodeClaim/nc-1 InsufficientCapacity\n");
	const kp_lifecycle_action *a = lc_action(&w, 0);
	ck_assert_str_eq(a->message, "all offerings unavailable");
	ck_assert_str_eq(a->event_reason, "InsufficientCapacityError");
	ck_assert_str_eq(a->event_type, "Warning");
	ck_assert_str_eq(a->event_message, "NodeClaim nc-1 event: all offerings unavailable");
	ck_assert_str_eq(a->metric, "karpenter_nodeclaims_disrupted_total");
	ck_assert_str_eq(kp_labels_get(&a->metric_labels, "reason"), "insufficient_capacity");
	ck_assert_str_eq(kp_labels_get(&a->metric_labels, "nodepool"), "default");
	ck_assert_str_eq(kp_labels_get(&a->metric_labels, "termination_mode"), "graceful");
	ck_assert_uint_eq(kp_lifecycle_result_event_count(w.r), 1);
}
END_TEST

START_TEST(launch_nodeclass_not_ready_deletes)
{
	w.cloud->create_rc = KP_ENOTREADY;
	snprintf(w.cloud->create_msg, sizeof(w.cloud->create_msg), "nodeclass not ready");
	lc_add(&w, lc_nodeclaim_yaml("nc-1", FIN, NULL, NULL));
	lc_reconcile(&w);
	ck_assert_str_eq(lc_summary(&w), "delete NodeClaim/nc-1 NodeClassNotReady\n");
	ck_assert_ptr_null(lc_action(&w, 0)->event_reason);
	ck_assert_str_eq(kp_labels_get(&lc_action(&w, 0)->metric_labels, "reason"),
			 "nodeclass_not_ready");
}
END_TEST

START_TEST(launch_create_error_sets_launched_unknown)
{
	w.cloud->create_rc = KP_ECREATE;
	snprintf(w.cloud->create_code, sizeof(w.cloud->create_code), "SubnetNotFound");
	snprintf(w.cloud->create_msg, sizeof(w.cloud->create_msg), "no subnet");
	lc_add(&w, lc_nodeclaim_yaml("nc-1", FIN, NULL, NULL));
	lc_reconcile(&w);
	ck_assert_str_eq(lc_summary(&w), "updateStatus NodeClaim/nc-1 NotRegistered\n");
	const kp_condition *c = lc_nc_cond(lc_action(&w, 0), "Launched");
	ck_assert_str_eq(c->status, "Unknown");
	ck_assert_str_eq(c->reason, "SubnetNotFound");
	ck_assert_str_eq(c->message, "no subnet");
}
END_TEST

START_TEST(launch_generic_error_reason_launch_failed)
{
	w.cloud->create_rc = KP_EINVAL;
	snprintf(w.cloud->create_msg, sizeof(w.cloud->create_msg), "boom");
	lc_add(&w, lc_nodeclaim_yaml("nc-1", FIN, NULL, NULL));
	lc_reconcile(&w);
	const kp_condition *c = lc_nc_cond(lc_action(&w, 0), "Launched");
	ck_assert_str_eq(c->reason, "LaunchFailed");
	ck_assert_str_eq(c->message, "boom");
}
END_TEST

START_TEST(launched_not_launched_again)
{
	lc_add(&w, lc_nodeclaim_yaml("nc-1", FIN, NULL, PID ", conditions: [" LAUNCHED "]"));
	lc_reconcile(&w);
	ck_assert_int_eq(w.cloud->create_calls, 0);
}
END_TEST

/* ---- registration ---- */

START_TEST(registration_syncs_node_and_removes_unregistered_taint)
{
	lc_add(&w, lc_nodeclaim_yaml("nc-1", FIN ", annotations: {a: b}",
				     ", taints: [{key: team, value: x, effect: NoSchedule}], "
				     "startupTaints: [{key: boot, effect: NoSchedule}]",
				     PID ", conditions: [" LAUNCHED "]"));
	lc_add(&w, node_yaml("node-1", "fake://nc-1", NULL, UNREG, "False"));
	lc_reconcile(&w);
	/* nodeclaim.consistency finds the Node too: ConsistentStateFound */
	ck_assert_str_eq(lc_summary(&w), "patch Node/node-1 Registered\n"
					 "updateStatus NodeClaim/nc-1 NotInitialized\n"
					 "updateStatus NodeClaim/nc-1 ConsistencyCheck\n");
	const kp_lifecycle_action *np = lc_action(&w, 0);
	const kp_node *n = np->object;
	ck_assert_uint_eq(n->spec->n_taints, 2);
	ck_assert_str_eq(n->spec->taints[0].key, "team");
	ck_assert_str_eq(n->spec->taints[1].key, "boot");
	ck_assert_str_eq(kp_labels_get(&n->metadata->labels, "karpenter.sh/registered"), "true");
	ck_assert_str_eq(kp_labels_get(&n->metadata->labels, "karpenter.sh/nodepool"), "default");
	ck_assert_str_eq(kp_labels_get(&n->metadata->annotations, "a"), "b");
	ck_assert_uint_eq(n->metadata->n_finalizers, 1);
	ck_assert_uint_eq(n->metadata->n_owner_references, 1);
	ck_assert_str_eq(n->metadata->owner_references[0]->kind, "NodeClaim");
	ck_assert_str_eq(n->metadata->owner_references[0]->uid, "uid-nc-1");
	ck_assert_str_eq(np->metric, "karpenter_nodes_created_total");
	ck_assert_uint_eq(kp_lifecycle_result_event_count(w.r), 0);
	const kp_lifecycle_action *st = lc_action(&w, 1);
	ck_assert_str_eq(((const kp_nodeclaim *)st->object)->status->node_name, "node-1");
	ck_assert_str_eq(lc_nc_cond(st, "Registered")->status, "True");
	ck_assert_str_eq(lc_nc_cond(st, "Initialized")->reason, "NodeNotReady");
	ck_assert_str_eq(st->message, "Node status is NotReady");
}
END_TEST

/* A NodeClaim already Registered (and Initialized) keeps its conditions,
 * set again at the current generation (upstream registration.go: "always
 * set the status condition to the latest generation"); the status update
 * says what changed, never [NotRegistered] with an empty message (audit
 * finding 8). */
START_TEST(registered_nodeclaim_conditions_at_generation)
{
	lc_add(&w, lc_nodeclaim_yaml("nc-1", FIN ", generation: 3", NULL,
				     PID ", nodeName: node-1, conditions: [" LAUNCHED ", "
				     "{type: Registered, status: 'True', reason: Registered, "
				     "lastTransitionTime: '" T0 "'}, "
				     "{type: Initialized, status: 'True', reason: Initialized, "
				     "lastTransitionTime: '" T0 "'}, "
				     "{type: Ready, status: 'True', reason: Ready, lastTransitionTime: '" T0 "'}]"));
	lc_add(&w, node_yaml("node-1", "fake://nc-1", ", karpenter.sh/registered: 'true', "
				   "karpenter.sh/initialized: 'true'", NULL, "True"));
	lc_reconcile(&w);
	const kp_lifecycle_action *a = lc_last(&w, KP_LIFECYCLE_VERB_UPDATE_STATUS, "nodeclaim.lifecycle");
	ck_assert_ptr_nonnull(a);
	ck_assert_uint_eq(a->code, KP_LIFECYCLE_REASON_CONDITIONS);
	ck_assert_str_eq(a->reason, "ConditionsUpdated");
	ck_assert_str_eq(a->message, "status conditions updated: Launched=True (observedGeneration 3), "
				     "Registered=True (observedGeneration 3), Initialized=True "
				     "(observedGeneration 3), Ready=True (observedGeneration 3)");
	ck_assert_str_eq(lc_nc_cond(a, "Registered")->status, "True");
	ck_assert_int_eq(lc_nc_cond(a, "Registered")->observed_generation, 3);
	for (size_t i = 0; i < kp_lifecycle_result_action_count(w.r); i++) {
		const kp_lifecycle_action *x = kp_lifecycle_result_action_at(w.r, i);
		ck_assert_uint_ne(x->code, KP_LIFECYCLE_REASON_NOT_REGISTERED);
		ck_assert_str_ne(x->message, "");
	}
}
END_TEST

START_TEST(registration_missing_taint_event)
{
	lc_add(&w, lc_nodeclaim_yaml("nc-1", FIN, NULL, PID ", conditions: [" LAUNCHED "]"));
	lc_add(&w, node_yaml("node-1", "fake://nc-1", NULL, NULL, "False"));
	lc_reconcile(&w);
	ck_assert_uint_eq(kp_lifecycle_result_event_count(w.r), 1);
	const kp_lifecycle_event *e = kp_lifecycle_result_event_at(w.r, 0);
	ck_assert_str_eq(e->reason, "UnregisteredTaintMissing");
	ck_assert_str_eq(e->message, "Missing karpenter.sh/unregistered taint which prevents "
				     "registration related race conditions on Karpenter-managed nodes");
}
END_TEST

START_TEST(registration_do_not_sync_taints)
{
	lc_add(&w, lc_nodeclaim_yaml("nc-1", FIN, ", taints: [{key: team, effect: NoSchedule}]",
				     PID ", conditions: [" LAUNCHED "]"));
	lc_add(&w, node_yaml("node-1", "fake://nc-1", ", karpenter.sh/do-not-sync-taints: 'true'",
			     UNREG, "False"));
	lc_reconcile(&w);
	const kp_node *n = lc_action(&w, 0)->object;
	ck_assert_uint_eq(n->spec->n_taints, 0);
}
END_TEST

START_TEST(registration_multiple_nodes)
{
	lc_add(&w, lc_nodeclaim_yaml("nc-1", FIN, NULL, PID ", conditions: [" LAUNCHED "]"));
	lc_add(&w, node_yaml("node-1", "fake://nc-1", NULL, UNREG, "True"));
	lc_add(&w, node_yaml("node-2", "fake://nc-1", NULL, UNREG, "True"));
	lc_reconcile(&w);
	ck_assert_str_eq(lc_summary(&w), "updateStatus NodeClaim/nc-1 NotRegistered\n");
	const kp_condition *c = lc_nc_cond(lc_action(&w, 0), "Registered");
	ck_assert_str_eq(c->status, "False");
	ck_assert_str_eq(c->reason, "MultipleNodesFound");
	ck_assert_str_eq(c->message, "Invariant violated, matched multiple nodes");
	ck_assert_str_eq(lc_nc_cond(lc_action(&w, 0), "Ready")->status, "False");
}
END_TEST

/* ---- initialization ---- */

#define CONSISTENT "{type: ConsistentStateFound, status: 'True', reason: ConsistentStateFound}"
#define REG_STATUS PID ", nodeName: node-1, conditions: [" LAUNCHED ", " REGISTERED ", " CONSISTENT "]"

static const char *init_reason(const char *node_labels, const char *taints, const char *ready,
			       const char *spec_extra)
{
	lc_add(&w, lc_nodeclaim_yaml("nc-1", FIN, spec_extra, REG_STATUS));
	lc_add(&w, node_yaml("node-1", "fake://nc-1", node_labels, taints, ready));
	lc_instance(&w, "fake://nc-1");
	lc_reconcile(&w);
	const kp_lifecycle_action *st = lc_last(&w, KP_LIFECYCLE_VERB_UPDATE_STATUS,
						 "nodeclaim.lifecycle");
	ck_assert_ptr_nonnull(st);
	static char buf[512];
	const kp_condition *c = lc_nc_cond(st, "Initialized");
	snprintf(buf, sizeof(buf), "%s/%s: %s", c->status, c->reason, c->message);
	return buf;
}

START_TEST(init_startup_taint)
{
	ck_assert_str_eq(init_reason(NULL, "{key: boot, value: 'on', effect: NoSchedule}", "True",
				     ", startupTaints: [{key: boot, value: 'on', effect: NoSchedule}]"),
			 "Unknown/StartupTaintsExist: StartupTaint \"boot=on:NoSchedule\" still exists");
	ck_assert_str_eq(lc_action(&w, 0)->reason, "NotInitialized");
}
END_TEST

START_TEST(init_not_ready)
{
	ck_assert_str_eq(init_reason(NULL, NULL, "Unknown", NULL),
			 "Unknown/NodeNotReady: Node status is NotReady");
}
END_TEST

START_TEST(init_ephemeral_taint)
{
	ck_assert_str_eq(init_reason(NULL, "{key: node.kubernetes.io/not-ready, effect: NoSchedule}",
				     "True", NULL),
			 "Unknown/KnownEphemeralTaintsExist: KnownEphemeralTaint "
			 "\"node.kubernetes.io/not-ready:NoSchedule\" still exists");
}
END_TEST

START_TEST(init_resource_not_registered)
{
	ck_assert_str_eq(init_reason(NULL, NULL, "True",
				     ", resources: {requests: {example.com/gpu: '1'}}"),
			 "Unknown/ResourceNotRegistered: Resource \"example.com/gpu\" was requested "
			 "but not registered");
}
END_TEST

START_TEST(init_done)
{
	ck_assert_str_eq(init_reason(NULL, NULL, "True", NULL), "True/Initialized: ");
	ck_assert_str_eq(lc_summary(&w), "patch Node/node-1 Initialized\n"
					 "updateStatus NodeClaim/nc-1 Initialized\n");
	const kp_node *n = lc_action(&w, 0)->object;
	ck_assert_str_eq(kp_labels_get(&n->metadata->labels, "karpenter.sh/initialized"), "true");
	ck_assert_str_eq(lc_nc_cond(lc_action(&w, 1), "Ready")->status, "True");
	/* registered: liveness has nothing to wait for; expiration waits for
	 * the default expireAfter; consistency rescans */
	ck_assert_uint_eq(kp_lifecycle_result_requeue_count(w.r), 2);
	ck_assert_str_eq(kp_lifecycle_result_requeue_at(w.r, 0)->controller, "nodeclaim.expiration");
	ck_assert_str_eq(kp_lifecycle_result_requeue_at(w.r, 1)->controller, "nodeclaim.consistency");
}
END_TEST

/* ---- liveness ---- */

START_TEST(liveness_launch_timeout)
{
	w.spec.now_ms = LC_T0 + 5 * LC_MIN + 1000;
	lc_add(&w, lc_nodeclaim_yaml("nc-1", FIN, NULL,
				     "conditions: [{type: Launched, status: Unknown, reason: LaunchFailed, "
				     "message: boom, lastTransitionTime: '" T0 "'}]"));
	w.cloud->create_rc = KP_EINVAL;
	snprintf(w.cloud->create_msg, sizeof(w.cloud->create_msg), "boom");
	lc_reconcile(&w);
	ck_assert_str_eq(lc_summary(&w), "delete NodeClaim/nc-1 LaunchTimeout\n");
	ck_assert_str_eq(lc_action(&w, 0)->message,
			 "terminating due to timeout: launch_timeout after 5m0s (boom)");
	ck_assert_str_eq(kp_labels_get(&lc_action(&w, 0)->metric_labels, "reason"),
			 "launch_timeout");
}
END_TEST

/* A launch that fails again with another message keeps the Launched
 * condition's transition time (operatorpkg moves it only with the status),
 * so the launch timeout still counts from the first failure: a provider
 * whose messages carry request IDs cannot restart it. */
START_TEST(launch_error_keeps_transition_time)
{
	w.spec.now_ms = LC_T0 + 4 * LC_MIN;
	lc_add(&w, lc_nodeclaim_yaml("nc-1", FIN, NULL,
				     "conditions: [{type: Launched, status: Unknown, reason: LaunchFailed, "
				     "message: \"request 1: boom\", lastTransitionTime: '" T0 "'}]"));
	w.cloud->create_rc = KP_EINVAL;
	snprintf(w.cloud->create_msg, sizeof(w.cloud->create_msg), "request 2: boom");
	lc_reconcile(&w);
	const kp_condition *c = lc_nc_cond(lc_action(&w, 0), "Launched");
	ck_assert_str_eq(c->message, "request 2: boom");
	ck_assert_int_eq(c->last_transition_time_ms, LC_T0);
}
END_TEST

START_TEST(liveness_launch_requeue)
{
	w.spec.now_ms = LC_T0 + 4 * LC_MIN;
	w.cloud->create_rc = KP_EINVAL;
	lc_add(&w, lc_nodeclaim_yaml("nc-1", FIN, NULL,
				     "conditions: [{type: Launched, status: Unknown, reason: LaunchFailed, "
				     "lastTransitionTime: '" T0 "'}]"));
	lc_reconcile(&w);
	/* the launch error requeues at once; liveness at the timeout;
	 * expiration at the default expireAfter */
	ck_assert_uint_eq(kp_lifecycle_result_requeue_count(w.r), 3);
	ck_assert_int_eq(kp_lifecycle_result_requeue_at(w.r, 0)->after_ms, 0);
}
END_TEST

START_TEST(liveness_registration_timeout)
{
	w.spec.now_ms = LC_T0 + 15 * LC_MIN;
	lc_add(&w, lc_nodeclaim_yaml("nc-1", FIN, NULL,
				     PID ", conditions: [" LAUNCHED ", {type: Registered, status: Unknown, "
				     "reason: NodeNotFound, message: Node not registered with cluster, "
				     "lastTransitionTime: '" T0 "'}]"));
	lc_reconcile(&w);
	ck_assert_str_eq(lc_summary(&w), "delete NodeClaim/nc-1 RegistrationTimeout\n");
	ck_assert_str_eq(lc_action(&w, 0)->message,
			 "terminating due to timeout: registration_timeout after 15m0s "
			 "(Node not registered with cluster)");
}
END_TEST

START_TEST(liveness_registration_requeue)
{
	w.spec.now_ms = LC_T0 + 10 * LC_MIN;
	lc_add(&w, lc_nodeclaim_yaml("nc-1", FIN, NULL,
				     PID ", conditions: [" LAUNCHED ", {type: Registered, status: Unknown, "
				     "reason: NodeNotFound, message: Node not registered with cluster, "
				     "lastTransitionTime: '" T0 "'}]"));
	lc_reconcile(&w);
	ck_assert_uint_eq(kp_lifecycle_result_action_count(w.r), 1); /* Initialized/Ready appear */
	/* no Node: consistency has nothing to scan; expiration waits for the
	 * default expireAfter */
	ck_assert_uint_eq(kp_lifecycle_result_requeue_count(w.r), 2);
	ck_assert_str_eq(kp_lifecycle_result_requeue_at(w.r, 0)->controller, "nodeclaim.lifecycle");
	ck_assert_int_eq(kp_lifecycle_result_requeue_at(w.r, 0)->after_ms, 5 * LC_MIN);
}
END_TEST

/* ---- expiration ---- */

START_TEST(expiration_deletes_after_expire_after)
{
	w.spec.now_ms = LC_T0 + 61 * LC_MIN;
	lc_add(&w, lc_nodeclaim_yaml("nc-1", FIN, ", expireAfter: 1h",
				     REG_STATUS));
	lc_add(&w, node_yaml("node-1", "fake://nc-1", ", karpenter.sh/initialized: 'true'", NULL,
			     "True"));
	lc_reconcile(&w);
	const char *s = lc_summary(&w);
	ck_assert_msg(strstr(s, "delete NodeClaim/nc-1 Expired\n") != NULL, "%s", s);
	size_t n = kp_lifecycle_result_action_count(w.r);
	const kp_lifecycle_action *a = NULL;
	for (size_t i = 0; i < n; i++)
		if (strcmp(lc_action(&w, i)->reason, "Expired") == 0)
			a = lc_action(&w, i);
	ck_assert_str_eq(a->controller, "nodeclaim.expiration");
	ck_assert_str_eq(a->message, "deleting expired nodeclaim: expireAfter 1h0m0s elapsed since "
				     "creation");
	ck_assert_str_eq(kp_labels_get(&a->metric_labels, "reason"), "expired");
}
END_TEST

START_TEST(expiration_requeues_before)
{
	w.spec.now_ms = LC_T0 + 30 * LC_MIN;
	kp_nodeclaim *nc = lc_add(&w, lc_nodeclaim_yaml("nc-1", FIN, ", expireAfter: 1h", NULL));
	kp_lifecycle_result *r = NULL;
	ck_assert_int_eq(kp_lifecycle_nodeclaim_expiration(&r, &w.spec, &w.opts, nc, NULL), KP_OK);
	ck_assert_uint_eq(kp_lifecycle_result_action_count(r), 0);
	ck_assert_uint_eq(kp_lifecycle_result_requeue_count(r), 1);
	ck_assert_int_eq(kp_lifecycle_result_requeue_at(r, 0)->after_ms, 30 * LC_MIN);
	ck_assert_str_eq(kp_lifecycle_result_requeue_at(r, 0)->controller, "nodeclaim.expiration");
	kp_lifecycle_result_free(r);
}
END_TEST

START_TEST(expiration_never)
{
	w.spec.now_ms = LC_T0 + 1000 * LC_MIN;
	kp_nodeclaim *nc = lc_add(&w, lc_nodeclaim_yaml("nc-1", FIN, ", expireAfter: Never", NULL));
	kp_lifecycle_result *r = NULL;
	ck_assert_int_eq(kp_lifecycle_nodeclaim_expiration(&r, &w.spec, &w.opts, nc, NULL), KP_OK);
	ck_assert_uint_eq(kp_lifecycle_result_action_count(r), 0);
	ck_assert_uint_eq(kp_lifecycle_result_requeue_count(r), 0);
	kp_lifecycle_result_free(r);
}
END_TEST

START_TEST(gc_registered_without_instance)
{
	lc_add(&w, lc_nodeclaim_yaml("nc-1", FIN, NULL, REG_STATUS));
	lc_add(&w, node_yaml("node-1", "fake://nc-1", ", karpenter.sh/initialized: 'true'", NULL,
			     "Unknown"));
	lc_reconcile(&w);
	ck_assert_str_eq(lc_summary(&w), "updateStatus NodeClaim/nc-1 NotInitialized\n"
					 "delete NodeClaim/nc-1 GarbageCollected\n");
	const kp_lifecycle_action *a = lc_action(&w, 1);
	ck_assert_str_eq(a->controller, "nodeclaim.garbagecollection");
	ck_assert_str_eq(a->message, "garbage collecting nodeclaim with no cloudprovider "
				     "representation (provider-id fake://nc-1)");
	ck_assert_str_eq(kp_labels_get(&a->metric_labels, "reason"), "garbage_collected");
}
END_TEST

/* A provider ID of any length is named whole (no fixed buffer). */
START_TEST(gc_long_provider_id_whole)
{
	char pid[1100], status[1400];
	memcpy(pid, "fake://", 7);
	memset(pid + 7, 'x', 1000);
	pid[1007] = '\0';
	snprintf(status, sizeof(status), "providerID: '%s', conditions: [" LAUNCHED ", " REGISTERED
		 "]", pid);
	static char yaml[4096];
	snprintf(yaml, sizeof(yaml), "%s", lc_nodeclaim_yaml("nc-1", FIN, NULL, status));
	lc_add(&w, yaml);
	lc_reconcile(&w);
	const kp_lifecycle_action *a = lc_last(&w, KP_LIFECYCLE_VERB_DELETE, NULL);
	ck_assert_ptr_nonnull(a);
	char want[1200];
	snprintf(want, sizeof(want), "garbage collecting nodeclaim with no cloudprovider "
		 "representation (provider-id %s)", pid);
	ck_assert_str_eq(a->message, want);
}
END_TEST

START_TEST(gc_keeps_ready_node)
{
	lc_add(&w, lc_nodeclaim_yaml("nc-1", FIN, NULL,
				     PID ", nodeName: node-1, conditions: [" LAUNCHED ", " REGISTERED ", "
				     CONSISTENT ", {type: Initialized, status: 'True', reason: Initialized}]"));
	lc_add(&w, node_yaml("node-1", "fake://nc-1", ", karpenter.sh/initialized: 'true'", NULL,
			     "True"));
	lc_reconcile(&w);
	ck_assert_msg(strstr(lc_summary(&w), "GarbageCollected") == NULL, "%s", lc_summary(&w));
}
END_TEST

START_TEST(unmanaged_nodeclaim_ignored)
{
	lc_add(&w, "apiVersion: karpenter.sh/v1\nkind: NodeClaim\nmetadata: {name: other}\n"
		   "spec: {nodeClassRef: {group: other.sh, kind: Other, name: x}, requirements: []}\n");
	lc_reconcile(&w);
	ck_assert_uint_eq(kp_lifecycle_result_action_count(w.r), 0);
}
END_TEST

START_TEST(api_errors)
{
	kp_lifecycle_result *r = NULL;
	kp_error e = KP_ERROR_INIT;
	ck_assert_int_eq(kp_lifecycle_nodeclaim(NULL, &w.spec, &w.opts, NULL, &e), KP_EINVAL);
	ck_assert_str_eq(e.message, "NULL argument");
	ck_assert_int_eq(kp_lifecycle_nodeclaim(&r, &w.spec, &w.opts, NULL, &e), KP_EINVAL);
	ck_assert_str_eq(e.message, "NodeClaim is NULL");
	ck_assert_ptr_null(r); /* no result on failure */
	kp_nodeclaim nc = KP_NODECLAIM_INIT;
	kp_object_meta m = KP_OBJECT_META_INIT;
	nc.metadata = &m;
	ck_assert_int_eq(kp_lifecycle_nodeclaim(&r, &w.spec, &w.opts, &nc, &e), KP_EINVAL);
	ck_assert_str_eq(e.field, "metadata.name");
	ck_assert_ptr_null(r);
	ck_assert_uint_eq(kp_lifecycle_result_action_count(r), 0);
	ck_assert_ptr_null(kp_lifecycle_result_action_at(r, 0));
	ck_assert_str_eq(kp_lifecycle_verb_name(KP_LIFECYCLE_VERB_PROVIDER_DELETE), "providerDelete");
	ck_assert_str_eq(kp_lifecycle_verb_name(0), "Unknown");
	ck_assert_str_eq(kp_lifecycle_verb_name(99), "Unknown");
	ck_assert_str_eq(kp_lifecycle_reason_name(KP_LIFECYCLE_REASON_FINALIZER), "Finalizer");
	ck_assert_str_eq(kp_lifecycle_reason_name(KP_LIFECYCLE_REASON_REGISTRATION_HEALTH),
			 "NodeRegistrationHealthy");
	ck_assert_str_eq(kp_lifecycle_reason_name(0), "Unknown");
	ck_assert_str_eq(kp_lifecycle_reason_name(KP_LIFECYCLE_REASON_REGISTRATION_HEALTH + 1),
			 "Unknown");
	/* sizes are checked, the options' and the cluster's */
	kp_lifecycle_options small = w.opts;
	small.struct_size = 8;
	ck_assert_int_eq(kp_lifecycle_reconcile(&r, &w.spec, &small, &e), KP_EVERSION);
	kp_cluster_spec tiny = w.spec;
	tiny.struct_size = 8;
	ck_assert_int_eq(kp_lifecycle_reconcile(&r, &tiny, &w.opts, &e), KP_EVERSION);
	/* unknown gates are refused, as kp_disruption_run refuses them */
	kp_lifecycle_options gates = w.opts;
	gates.feature_gates = 1u << 30;
	ck_assert_int_eq(kp_lifecycle_reconcile(&r, &w.spec, &gates, &e), KP_EINVAL);
	ck_assert_str_eq(e.field, "feature_gates");
	ck_assert_int_eq(kp_lifecycle_node_termination(&r, NULL, NULL, NULL, &e), KP_EINVAL);
	ck_assert_ptr_null(r);
	/* NULL options: the defaults */
	ck_assert_int_eq(kp_lifecycle_reconcile(&r, &w.spec, NULL, &e), KP_OK);
	ck_assert_ptr_nonnull(r);
	kp_lifecycle_result_free(r);
}
END_TEST

static Suite *lifecycle_suite(void)
{
	Suite *s = suite_create("nodeclaim.lifecycle");
	TCase *tc = tcase_create("launch");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, launch_adds_finalizer_then_launches);
	tcase_add_test(tc, launch_insufficient_capacity_deletes);
	tcase_add_test(tc, launch_nodeclass_not_ready_deletes);
	tcase_add_test(tc, launch_create_error_sets_launched_unknown);
	tcase_add_test(tc, launch_error_keeps_transition_time);
	tcase_add_test(tc, launch_generic_error_reason_launch_failed);
	tcase_add_test(tc, launched_not_launched_again);
	suite_add_tcase(s, tc);
	tc = tcase_create("registration");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, registration_syncs_node_and_removes_unregistered_taint);
	tcase_add_test(tc, registration_missing_taint_event);
	tcase_add_test(tc, registered_nodeclaim_conditions_at_generation);
	tcase_add_test(tc, registration_do_not_sync_taints);
	tcase_add_test(tc, registration_multiple_nodes);
	suite_add_tcase(s, tc);
	tc = tcase_create("initialization");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, init_startup_taint);
	tcase_add_test(tc, init_not_ready);
	tcase_add_test(tc, init_ephemeral_taint);
	tcase_add_test(tc, init_resource_not_registered);
	tcase_add_test(tc, init_done);
	suite_add_tcase(s, tc);
	tc = tcase_create("liveness");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, liveness_launch_timeout);
	tcase_add_test(tc, liveness_launch_requeue);
	tcase_add_test(tc, liveness_registration_timeout);
	tcase_add_test(tc, liveness_registration_requeue);
	suite_add_tcase(s, tc);
	tc = tcase_create("expiration");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, expiration_deletes_after_expire_after);
	tcase_add_test(tc, expiration_requeues_before);
	tcase_add_test(tc, expiration_never);
	tcase_add_test(tc, unmanaged_nodeclaim_ignored);
	tcase_add_test(tc, gc_registered_without_instance);
	tcase_add_test(tc, gc_keeps_ready_node);
	tcase_add_test(tc, gc_long_provider_id_whole);
	tcase_add_test(tc, api_errors);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	Suite *suites[] = { lifecycle_suite() };
	return kp_test_run(suites, 1);
}
