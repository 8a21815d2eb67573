/*
 * Status conditions as upstream's operatorpkg status.ConditionSet keeps
 * them (awslabs/operatorpkg status/condition_set.go and its tests): the
 * root Ready over the dependents (ReconcilingDependents,
 * UnhealthyDependents, observedGeneration), lastTransitionTime of new
 * conditions (creationTimestamp for the root and dependents, now for any
 * other), the order (by transition time, the root last) and the
 * observedGeneration bump while deleting; seen through the controllers.
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
#define COND(type, status, time, gen)                                                        \
	"{type: " type ", status: '" status "', reason: " type ", lastTransitionTime: '" time \
	"', observedGeneration: " gen "}"
#define ALL_TRUE(gen)                                                                \
	"providerID: 'fake://nc-1', nodeName: node-1, capacity: {cpu: '4'}, conditions: [" \
	COND("Launched", "True", "2024-01-01T00:00:10Z", gen) ", "                         \
	COND("Registered", "True", "2024-01-01T00:00:20Z", gen) ", "                       \
	COND("Initialized", "True", "2024-01-01T00:00:30Z", gen) ", "                      \
	COND("Ready", "True", "2024-01-01T00:00:30Z", gen) "]"

static lc_world w;

static void setup(void)
{
	lc_world_init(&w, LC_T0 + 60000);
}

static void teardown(void)
{
	lc_world_free(&w);
}

static kp_lifecycle_result **fresh(void)
{
	return lc_fresh(&w);
}

static void node(void)
{
	lc_add(&w, "apiVersion: v1\nkind: Node\nmetadata: {name: node-1}\n"
		   "spec: {providerID: 'fake://nc-1'}\n"
		   "status: {capacity: {cpu: '4'}, conditions: [{type: Ready, status: 'True'}]}\n");
}

/* A new condition that is neither the root nor a dependent transitions
 * now; the others keep theirs; Ready stays True (every dependent True at
 * the generation); the order is by transition time, the root last. */
START_TEST(other_condition_now_root_last)
{
	kp_nodeclaim *nc = lc_add(&w, lc_nodeclaim_yaml("nc-1", FIN ", generation: 1", NULL,
							ALL_TRUE("1")));
	node();
	ck_assert_int_eq(kp_lifecycle_nodeclaim_consistency(fresh(), &w.spec, &w.opts, nc, NULL), KP_OK);
	const kp_lifecycle_action *a = lc_action(&w, 0);
	ck_assert_str_eq(lc_nc_conds(a), "Launched=True/Launched Registered=True/Registered "
			 "Initialized=True/Initialized ConsistentStateFound=True/ConsistentStateFound "
			 "Ready=True/Ready");
	ck_assert_int_eq(lc_nc_cond(a, "ConsistentStateFound")->last_transition_time_ms,
			 LC_T0 + 60000);
	ck_assert_int_eq(lc_nc_cond(a, "ConsistentStateFound")->observed_generation, 1);
	ck_assert_int_eq(lc_nc_cond(a, "Ready")->last_transition_time_ms, LC_T0 + 30000);
}
END_TEST

/* Dependents True at an older generation are unhealthy: Ready Unknown
 * ReconcilingDependents, latest transition first (a controller that sets
 * none of them, here the consistency check). */
START_TEST(stale_generation_reconciling_dependents)
{
	kp_nodeclaim *nc = lc_add(&w, lc_nodeclaim_yaml("nc-1", FIN ", generation: 2", NULL,
							ALL_TRUE("1")));
	node();
	ck_assert_int_eq(kp_lifecycle_nodeclaim_consistency(fresh(), &w.spec, &w.opts, nc, NULL), KP_OK);
	const kp_lifecycle_action *a = lc_action(&w, 0);
	const kp_condition *ready = lc_nc_cond(a, "Ready");
	ck_assert_str_eq(ready->status, "Unknown");
	ck_assert_str_eq(ready->reason, "ReconcilingDependents");
	ck_assert_str_eq(ready->message, "Initialized=True, Registered=True, Launched=True");
	ck_assert_int_eq(ready->last_transition_time_ms, LC_T0 + 60000);
	ck_assert_int_eq(ready->observed_generation, 2);
	ck_assert_int_eq(lc_nc_cond(a, "Launched")->observed_generation, 1);
}
END_TEST

/* A dependent False at the generation makes Ready False
 * UnhealthyDependents; the Unknown ones are listed with it. */
START_TEST(false_dependent_unhealthy_dependents)
{
	lc_add(&w, lc_nodeclaim_yaml("nc-1", FIN, NULL,
				     "providerID: 'fake://nc-1', conditions: ["
				     COND("Launched", "True", "2024-01-01T00:00:10Z", "0") "]"));
	lc_add(&w, "apiVersion: v1\nkind: Node\nmetadata: {name: node-1}\n"
		   "spec: {providerID: 'fake://nc-1'}\n");
	lc_add(&w, "apiVersion: v1\nkind: Node\nmetadata: {name: node-2}\n"
		   "spec: {providerID: 'fake://nc-1'}\n");
	lc_reconcile(&w);
	const kp_lifecycle_action *a = lc_action(&w, 0);
	ck_assert_str_eq(lc_summary(&w), "updateStatus NodeClaim/nc-1 NotRegistered\n"
			 "patch Node/node-1 Hydrated\npatch Node/node-2 Hydrated\n");
	ck_assert_str_eq(lc_nc_conds(a), "Initialized=Unknown/AwaitingReconciliation "
			 "Launched=True/Launched Registered=False/MultipleNodesFound "
			 "Ready=False/UnhealthyDependents");
	const kp_condition *ready = lc_nc_cond(a, "Ready");
	ck_assert_str_eq(ready->message, "Registered=False, Initialized=Unknown");
	ck_assert_int_eq(ready->last_transition_time_ms, LC_T0 + 60000);
	/* the dependents For() added transitioned at the creationTimestamp */
	ck_assert_int_eq(lc_nc_cond(a, "Initialized")->last_transition_time_ms, LC_T0);
	ck_assert_int_eq(lc_nc_cond(a, "Registered")->last_transition_time_ms, LC_T0 + 60000);
}
END_TEST

/* A NodeClaim with no conditions: For() adds the root then the
 * dependents, all at the creationTimestamp, Ready Unknown
 * ReconcilingDependents over all three. */
START_TEST(for_initializes_at_creation)
{
	w.cloud->create_rc = KP_ECREATE;
	snprintf(w.cloud->create_code, sizeof(w.cloud->create_code), "QuotaExceeded");
	snprintf(w.cloud->create_msg, sizeof(w.cloud->create_msg), "quota exceeded");
	lc_add(&w, lc_nodeclaim_yaml("nc-1", FIN, NULL, NULL));
	lc_reconcile(&w);
	ck_assert_str_eq(lc_summary(&w), "updateStatus NodeClaim/nc-1 NotRegistered\n");
	const kp_lifecycle_action *a = lc_action(&w, 0);
	/* every step runs (upstream: launch, registration, initialization,
	 * liveness): registration finds no Node */
	ck_assert_str_eq(lc_nc_conds(a), "Initialized=Unknown/AwaitingReconciliation "
			 "Launched=Unknown/QuotaExceeded Registered=Unknown/NodeNotFound "
			 "Ready=Unknown/ReconcilingDependents");
	ck_assert_str_eq(lc_nc_cond(a, "Ready")->message,
			 "Initialized=Unknown, Launched=Unknown, Registered=Unknown");
	for (size_t i = 0; i < 4; i++)
		ck_assert_int_eq(((const kp_nodeclaim *)a->object)->status->conditions[i]
					 ->last_transition_time_ms, LC_T0);
	/* the launch timeout counts from the creationTimestamp */
	ck_assert_int_eq(kp_lifecycle_result_requeue_at(w.r, 0)->after_ms, 0);
	w.spec.now_ms = LC_T0 + 5 * LC_MIN;
	lc_reconcile(&w);
	ck_assert_str_eq(lc_summary(&w), "delete NodeClaim/nc-1 LaunchTimeout\n");
}
END_TEST

/* Every dependent True again: Ready True with reason Ready and the
 * transition now. */
START_TEST(all_true_root_true)
{
	lc_add(&w, lc_nodeclaim_yaml("nc-1", FIN, NULL,
				     "providerID: 'fake://nc-1', nodeName: node-1, conditions: ["
				     COND("Launched", "True", "2024-01-01T00:00:10Z", "0") ", "
				     COND("Registered", "True", "2024-01-01T00:00:20Z", "0") ", "
				     "{type: Initialized, status: Unknown, reason: NodeNotReady, "
				     "lastTransitionTime: '" T0 "'}, {type: Ready, status: Unknown, "
				     "reason: ReconcilingDependents, message: Initialized=Unknown, "
				     "lastTransitionTime: '" T0 "'}]"));
	lc_add(&w, "apiVersion: v1\nkind: Node\nmetadata: {name: node-1, labels: "
		   "{karpenter.sh/registered: 'true'}}\nspec: {providerID: 'fake://nc-1'}\n"
		   "status: {conditions: [{type: Ready, status: 'True'}]}\n");
	lc_instance(&w, "fake://nc-1");
	lc_reconcile(&w);
	const kp_lifecycle_action *a = lc_last(&w, KP_LIFECYCLE_VERB_UPDATE_STATUS,
					       "nodeclaim.lifecycle");
	ck_assert_ptr_nonnull(a);
	ck_assert_str_eq(lc_nc_conds(a), "Launched=True/Launched Registered=True/Registered "
			 "Initialized=True/Initialized Ready=True/Ready");
	ck_assert_str_eq(lc_nc_cond(a, "Ready")->message, "");
	ck_assert_int_eq(lc_nc_cond(a, "Ready")->last_transition_time_ms, LC_T0 + 60000);
	ck_assert_int_eq(lc_nc_cond(a, "Initialized")->last_transition_time_ms, LC_T0 + 60000);
}
END_TEST

/* nodeclaim.lifecycle sets each settled dependent again at the current
 * generation (their transitions kept): Ready passes through Unknown while
 * the others still observe the old one, so it ends True transitioned now. */
START_TEST(lifecycle_moves_dependents_to_generation)
{
	lc_add(&w, lc_nodeclaim_yaml("nc-1", FIN ", generation: 2", NULL, ALL_TRUE("1")));
	node();
	lc_instance(&w, "fake://nc-1");
	lc_reconcile(&w);
	const kp_lifecycle_action *a = lc_last(&w, KP_LIFECYCLE_VERB_UPDATE_STATUS,
					       "nodeclaim.lifecycle");
	ck_assert_ptr_nonnull(a);
	ck_assert_str_eq(lc_nc_conds(a), "Launched=True/Launched Registered=True/Registered "
			 "Initialized=True/Initialized Ready=True/Ready");
	const kp_nodeclaim *nc = a->object;
	for (size_t i = 0; i < nc->status->n_conditions; i++)
		ck_assert_int_eq(nc->status->conditions[i]->observed_generation, 2);
	ck_assert_int_eq(lc_nc_cond(a, "Launched")->last_transition_time_ms, LC_T0 + 10000);
	ck_assert_int_eq(lc_nc_cond(a, "Ready")->last_transition_time_ms, LC_T0 + 60000);
}
END_TEST

/* Deleting: a change bumps every condition's observedGeneration. */
START_TEST(deleting_bumps_observed_generation)
{
	lc_add(&w, lc_nodeclaim_yaml("nc-1", FIN ", generation: 3, deletionTimestamp: '" T0 "'",
				     NULL, ALL_TRUE("1")));
	lc_instance(&w, "fake://nc-1");
	lc_reconcile(&w);
	const kp_lifecycle_action *a = lc_last(&w, KP_LIFECYCLE_VERB_UPDATE_STATUS, NULL);
	ck_assert_ptr_nonnull(a);
	const kp_nodeclaim *nc = a->object;
	for (size_t i = 0; i < nc->status->n_conditions; i++)
		ck_assert_int_eq(nc->status->conditions[i]->observed_generation, 3);
	ck_assert_str_eq(lc_nc_cond(a, "InstanceTerminating")->status, "True");
	/* bumped before the root is recomputed: Ready stays True */
	ck_assert_str_eq(lc_nc_cond(a, "Ready")->status, "True");
	ck_assert_int_eq(lc_nc_cond(a, "Ready")->last_transition_time_ms, LC_T0 + 30000);
}
END_TEST

/* NodePool: NodeClassReady and ValidationSucceeded are the dependents. */
START_TEST(nodepool_reconciling_then_ready)
{
	kp_nodepool *np = lc_add(&w, "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: "
				 "{name: default, creationTimestamp: '" T0 "'}\n"
				 "spec: {template: {spec: {nodeClassRef: {group: karpenter.test.sh, kind: "
				 "TestNodeClass, name: default}, requirements: []}}}\n");
	ck_assert_int_eq(kp_lifecycle_nodepool_readiness(fresh(), &w.spec, &w.opts, np, NULL), KP_OK);
	const kp_lifecycle_action *a = lc_action(&w, 0);
	ck_assert_str_eq(lc_np_conds(a), "NodeClassReady=Unknown/AwaitingReconciliation "
			 "ValidationSucceeded=True/ValidationSucceeded "
			 "Ready=Unknown/ReconcilingDependents");
	const kp_nodepool *got = a->object;
	ck_assert_str_eq(got->status->conditions[2]->message, "NodeClassReady=Unknown");
	ck_assert_int_eq(got->status->conditions[0]->last_transition_time_ms, LC_T0);
	ck_assert_int_eq(got->status->conditions[1]->last_transition_time_ms, LC_T0 + 60000);
	ck_assert_str_eq(a->message, "Ready=Unknown: NodeClassReady=Unknown");
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("conditions");
	TCase *tc = tcase_create("conditions");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, other_condition_now_root_last);
	tcase_add_test(tc, stale_generation_reconciling_dependents);
	tcase_add_test(tc, false_dependent_unhealthy_dependents);
	tcase_add_test(tc, for_initializes_at_creation);
	tcase_add_test(tc, all_true_root_true);
	tcase_add_test(tc, deleting_bumps_observed_generation);
	tcase_add_test(tc, lifecycle_moves_dependents_to_generation);
	tcase_add_test(tc, nodepool_reconciling_then_ready);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	Suite *suites[] = { suite() };
	return kp_test_run(suites, 1);
}
