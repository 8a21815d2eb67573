/*
 * NodeRegistrationHealthy on NodePools, after upstream
 * pkg/controllers/nodeclaim/lifecycle (registration and liveness:
 * updateNodePoolRegistrationHealth), pkg/state/nodepoolhealth and
 * pkg/controllers/nodepool/registrationhealth and their suite tests: the
 * last four registration outcomes, two failures make the NodePool
 * unhealthy; a snapshot starts from the condition as upstream does after a
 * restart; a round adds its outcomes in input order.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdio.h>
#include <string.h>

#include <check.h>

#include "kp_test.h"
#include "lc_harness.h"

#define T0 "2024-01-01T00:00:00Z"
#define OWNED ", finalizers: [karpenter.sh/termination], ownerReferences: [{apiVersion: " \
	"karpenter.sh/v1, kind: NodePool, name: default, uid: np-uid}]"
#define LAUNCHED "{type: Launched, status: 'True', reason: Launched, lastTransitionTime: '" T0 "'}"
#define UNREG "{key: karpenter.sh/unregistered, effect: NoExecute}"

static lc_world w;

static void setup(void)
{
	lc_world_init(&w, LC_T0 + 20 * LC_MIN);
}

static void teardown(void)
{
	lc_world_free(&w);
}

/* A NodePool whose NodeRegistrationHealthy is health ("" for none). */
static kp_nodepool *nodepool(const char *health, const char *meta_extra)
{
	char yaml[2048], cond[256] = "";
	if (*health)
		snprintf(cond, sizeof(cond), "{type: NodeRegistrationHealthy, status: '%s', reason: x, "
			 "lastTransitionTime: '" T0 "'}", health);
	snprintf(yaml, sizeof(yaml),
		 "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: default, uid: np-uid%s}\n"
		 "spec: {template: {spec: {nodeClassRef: {group: karpenter.test.sh, kind: TestNodeClass, "
		 "name: default}, requirements: []}}}\nstatus: {conditions: [%s]}\n",
		 meta_extra ? meta_extra : "", cond);
	return lc_add(&w, yaml);
}

/* A NodeClaim launched at T0 whose Node never registered: past 15 m. */
static void timed_out(const char *name, const char *meta)
{
	char status[256];
	snprintf(status, sizeof(status), "providerID: 'fake://%s', conditions: [" LAUNCHED "]", name);
	lc_add(&w, lc_nodeclaim_yaml(name, meta, NULL, status));
}

/* The NodePool status updates nodeclaim.lifecycle listed: their number
 * and the last. */
static size_t health_updates(const kp_lifecycle_action **last)
{
	size_t n = 0;
	*last = NULL;
	for (size_t i = 0; i < kp_lifecycle_result_action_count(w.r); i++) {
		const kp_lifecycle_action *a = lc_action(&w, i);
		if (a->kind == KP_KIND_NODEPOOL && strcmp(a->controller, "nodeclaim.lifecycle") == 0) {
			ck_assert_uint_eq(a->verb, KP_LIFECYCLE_VERB_UPDATE_STATUS);
			ck_assert_str_eq(a->reason, "NodeRegistrationHealthy");
			n++;
			*last = a;
		}
	}
	return n;
}

static const kp_condition *health_cond(const kp_lifecycle_action *a)
{
	const kp_nodepool *np = a->object;
	for (size_t i = 0; i < np->status->n_conditions; i++)
		if (strcmp(np->status->conditions[i]->type, "NodeRegistrationHealthy") == 0)
			return np->status->conditions[i];
	ck_abort_msg("no NodeRegistrationHealthy");
	return NULL;
}

START_TEST(registration_sets_healthy)
{
	nodepool("", NULL);
	lc_add(&w, lc_nodeclaim_yaml("nc-1", OWNED, NULL,
				     "providerID: 'fake://nc-1', conditions: [" LAUNCHED "]"));
	lc_add(&w, "apiVersion: v1\nkind: Node\nmetadata: {name: node-1}\n"
		   "spec: {providerID: 'fake://nc-1', taints: [" UNREG "]}\n");
	lc_instance(&w, "fake://nc-1");
	lc_reconcile(&w);
	const kp_lifecycle_action *a = NULL;
	ck_assert_uint_eq(health_updates(&a), 1);
	ck_assert_str_eq(a->name, "default");
	ck_assert_str_eq(a->message, "NodeRegistrationHealthy=True");
	const kp_condition *c = health_cond(a);
	ck_assert_str_eq(c->status, "True");
	ck_assert_str_eq(c->reason, "NodeRegistrationHealthy");
	ck_assert_int_eq(c->last_transition_time_ms, LC_T0 + 20 * LC_MIN);
	/* after the Node's patch, before the NodeClaim's status */
	ck_assert_str_eq(lc_action(&w, 0)->reason, "Registered");
	ck_assert_ptr_eq(lc_action(&w, 1), a);
	ck_assert_str_eq(lc_action(&w, 2)->name, "nc-1");
	ck_assert_uint_eq(lc_action(&w, 2)->verb, KP_LIFECYCLE_VERB_UPDATE_STATUS);
	ck_assert_str_eq(lc_nc_cond(lc_action(&w, 2), "Registered")->status, "True");
}
END_TEST

/* A NodePool whose condition is reset for its new generation and a
 * registration in the same round: the reset comes first, so the
 * registration's True is the update applied last. */
START_TEST(reset_then_registration_in_one_round)
{
	kp_nodeclass_status cls = KP_NODECLASS_STATUS_INIT;
	cls.ready = 1;
	cls.group = "karpenter.test.sh";
	cls.kind = "TestNodeClass";
	cls.name = "default";
	const kp_nodeclass_status *classes[] = { &cls };
	w.spec.nodeclasses = classes;
	w.spec.n_nodeclasses = 1;
	nodepool("False", ", generation: 2");
	lc_add(&w, lc_nodeclaim_yaml("nc-1", OWNED, NULL,
				     "providerID: 'fake://nc-1', conditions: [" LAUNCHED "]"));
	lc_add(&w, "apiVersion: v1\nkind: Node\nmetadata: {name: node-1}\n"
		   "spec: {providerID: 'fake://nc-1', taints: [" UNREG "]}\n");
	lc_instance(&w, "fake://nc-1");
	lc_reconcile(&w);
	const kp_lifecycle_action *first = NULL, *last = NULL;
	size_t n = 0;
	for (size_t i = 0; i < kp_lifecycle_result_action_count(w.r); i++) {
		const kp_lifecycle_action *a = lc_action(&w, i);
		if (a->kind == KP_KIND_NODEPOOL && a->verb == KP_LIFECYCLE_VERB_UPDATE_STATUS &&
		    strcmp(a->reason, "NodeRegistrationHealthy") == 0) {
			if (!first)
				first = a;
			last = a;
			n++;
		}
	}
	ck_assert_uint_eq(n, 2);
	ck_assert_str_eq(first->controller, "nodepool.registrationhealth");
	ck_assert_str_eq(health_cond(first)->status, "Unknown");
	ck_assert_str_eq(last->controller, "nodeclaim.lifecycle");
	ck_assert_str_eq(health_cond(last)->status, "True");
	w.spec.nodeclasses = NULL;
	w.spec.n_nodeclasses = 0;
}
END_TEST

START_TEST(not_owned_not_counted)
{
	nodepool("", NULL);
	lc_add(&w, lc_nodeclaim_yaml("nc-1", ", finalizers: [karpenter.sh/termination]", NULL,
				     "providerID: 'fake://nc-1', conditions: [" LAUNCHED "]"));
	lc_add(&w, "apiVersion: v1\nkind: Node\nmetadata: {name: node-1}\n"
		   "spec: {providerID: 'fake://nc-1', taints: [" UNREG "]}\n");
	lc_reconcile(&w);
	const kp_lifecycle_action *a = NULL;
	ck_assert_uint_eq(health_updates(&a), 0);
}
END_TEST

/* One timeout is one failure of four: still healthy (nothing set). */
START_TEST(one_timeout_not_enough)
{
	nodepool("", NULL);
	timed_out("nc-1", OWNED);
	lc_reconcile(&w);
	ck_assert_str_eq(lc_action(&w, 0)->reason, "RegistrationTimeout");
	const kp_lifecycle_action *a = NULL;
	ck_assert_uint_eq(health_updates(&a), 0);
}
END_TEST

/* Two timeouts in one round: the second makes it False, set once. */
START_TEST(two_timeouts_unhealthy)
{
	nodepool("", NULL);
	timed_out("nc-1", OWNED);
	timed_out("nc-2", OWNED);
	timed_out("nc-3", OWNED);
	lc_reconcile(&w);
	const kp_lifecycle_action *a = NULL;
	ck_assert_uint_eq(health_updates(&a), 1);
	ck_assert_str_eq(a->message,
			 "NodeRegistrationHealthy=False (RegistrationFailed): Failed to register node");
	const kp_condition *c = health_cond(a);
	ck_assert_str_eq(c->status, "False");
	ck_assert_str_eq(c->reason, "RegistrationFailed");
	ck_assert_str_eq(c->message, "Failed to register node");
	/* the NodePool's status update goes before nc-2's delete */
	ck_assert_str_eq(lc_summary(&w), "delete NodeClaim/nc-1 RegistrationTimeout\n"
					 "updateStatus NodePool/default NodeRegistrationHealthy\n"
					 "delete NodeClaim/nc-2 RegistrationTimeout\n"
					 "delete NodeClaim/nc-3 RegistrationTimeout\n"
					 "updateStatus NodePool/default NodePoolReady\n"
					 "patch NodeClaim/nc-1 Hashed\n"
					 "patch NodeClaim/nc-2 Hashed\n"
					 "patch NodeClaim/nc-3 Hashed\n"
					 "patch NodePool/default Hashed\n"
					 "updateStatus NodePool/default Counted\n");
}
END_TEST

/* True in the snapshot counts as one success: two more failures needed. */
START_TEST(healthy_needs_two_failures)
{
	nodepool("True", NULL);
	timed_out("nc-1", OWNED);
	lc_reconcile(&w);
	const kp_lifecycle_action *a = NULL;
	ck_assert_uint_eq(health_updates(&a), 0);
	timed_out("nc-2", OWNED);
	lc_reconcile(&w);
	ck_assert_uint_eq(health_updates(&a), 1);
	ck_assert_str_eq(health_cond(a)->status, "False");
	ck_assert_str_eq(a->name, "default");
	/* each call alone sees one outcome: no change */
	ck_assert_int_eq(kp_lifecycle_nodeclaim(lc_fresh(&w), &w.spec, &w.opts, w.spec.nodeclaims[1], NULL), KP_OK);
	ck_assert_uint_eq(health_updates(&a), 0);
}
END_TEST

/* A launch that never succeeded: the Launched condition says why. */
START_TEST(launch_timeout_reason)
{
	nodepool("False", NULL);
	w.cloud->create_rc = KP_ECREATE;
	snprintf(w.cloud->create_code, sizeof(w.cloud->create_code), "QuotaExceeded");
	snprintf(w.cloud->create_msg, sizeof(w.cloud->create_msg), "quota exceeded");
	lc_add(&w, lc_nodeclaim_yaml("nc-1", OWNED, NULL,
				     "conditions: [{type: Launched, status: Unknown, reason: QuotaExceeded, "
				     "message: quota exceeded, lastTransitionTime: '" T0 "'}]"));
	lc_reconcile(&w);
	const kp_lifecycle_action *a = NULL;
	/* already False: left alone */
	ck_assert_uint_eq(health_updates(&a), 0);
	ck_assert_str_eq(lc_action(&w, 0)->reason, "LaunchTimeout");
	lc_world_free(&w);
	lc_world_init(&w, LC_T0 + 20 * LC_MIN);
	w.cloud->create_rc = KP_ECREATE;
	snprintf(w.cloud->create_code, sizeof(w.cloud->create_code), "QuotaExceeded");
	snprintf(w.cloud->create_msg, sizeof(w.cloud->create_msg), "quota exceeded");
	nodepool("", NULL);
	for (int i = 1; i <= 2; i++) {
		char name[8];
		snprintf(name, sizeof(name), "nc-%d", i);
		lc_add(&w, lc_nodeclaim_yaml(name, OWNED, NULL,
					     "conditions: [{type: Launched, status: Unknown, reason: "
					     "QuotaExceeded, message: quota exceeded, lastTransitionTime: '" T0
					     "'}]"));
	}
	lc_reconcile(&w);
	ck_assert_uint_eq(health_updates(&a), 1);
	ck_assert_str_eq(health_cond(a)->reason, "QuotaExceeded");
	ck_assert_str_eq(health_cond(a)->message, "quota exceeded");
}
END_TEST

/* False in the snapshot counts as two failures: one success is not enough. */
START_TEST(unhealthy_needs_successes)
{
	nodepool("False", NULL);
	lc_add(&w, lc_nodeclaim_yaml("nc-1", OWNED, NULL,
				     "providerID: 'fake://nc-1', conditions: [" LAUNCHED "]"));
	lc_add(&w, "apiVersion: v1\nkind: Node\nmetadata: {name: node-1}\n"
		   "spec: {providerID: 'fake://nc-1', taints: [" UNREG "]}\n");
	lc_add(&w, lc_nodeclaim_yaml("nc-2", OWNED, NULL,
				     "providerID: 'fake://nc-2', conditions: [" LAUNCHED "]"));
	lc_add(&w, "apiVersion: v1\nkind: Node\nmetadata: {name: node-2}\n"
		   "spec: {providerID: 'fake://nc-2', taints: [" UNREG "]}\n");
	lc_add(&w, lc_nodeclaim_yaml("nc-3", OWNED, NULL,
				     "providerID: 'fake://nc-3', conditions: [" LAUNCHED "]"));
	lc_add(&w, "apiVersion: v1\nkind: Node\nmetadata: {name: node-3}\n"
		   "spec: {providerID: 'fake://nc-3', taints: [" UNREG "]}\n");
	lc_reconcile(&w);
	const kp_lifecycle_action *a = NULL;
	/* [F F S] unhealthy, [F F S S] unhealthy, [F S S S] healthy: at nc-3 */
	ck_assert_uint_eq(health_updates(&a), 1);
	ck_assert_str_eq(health_cond(a)->status, "True");
	size_t at = 0;
	while (lc_action(&w, at) != a)
		at++;
	ck_assert_str_eq(lc_action(&w, at - 1)->name, "node-3");
}
END_TEST

/* nodepool.registrationhealth: Unknown when absent or for another generation. */
START_TEST(nodepool_controller_resets)
{
	kp_nodeclass_status cls = KP_NODECLASS_STATUS_INIT;
	cls.ready = 1;
	cls.group = "karpenter.test.sh";
	cls.kind = "TestNodeClass";
	cls.name = "default";
	const kp_nodeclass_status *classes[] = { &cls };
	kp_nodepool *np = nodepool("", NULL);
	/* no node classes modelled: nothing */
	ck_assert_int_eq(kp_lifecycle_nodepool_registration_health(lc_fresh(&w), &w.spec, &w.opts,
								   np, NULL), KP_OK);
	ck_assert_uint_eq(kp_lifecycle_result_action_count(w.r), 0);
	w.spec.nodeclasses = classes;
	w.spec.n_nodeclasses = 1;
	ck_assert_int_eq(kp_lifecycle_nodepool_registration_health(lc_fresh(&w), &w.spec, &w.opts,
								   np, NULL), KP_OK);
	ck_assert_str_eq(lc_summary(&w), "updateStatus NodePool/default NodeRegistrationHealthy\n");
	const kp_lifecycle_action *a = lc_action(&w, 0);
	ck_assert_str_eq(a->controller, "nodepool.registrationhealth");
	ck_assert_str_eq(a->message, "NodeRegistrationHealthy=Unknown: not yet tracked");
	ck_assert_str_eq(health_cond(a)->status, "Unknown");
	ck_assert_str_eq(health_cond(a)->reason, "AwaitingReconciliation");
	/* a condition at the generation stays */
	lc_world_free(&w);
	lc_world_init(&w, LC_T0 + 20 * LC_MIN);
	w.spec.nodeclasses = classes;
	w.spec.n_nodeclasses = 1;
	np = nodepool("True", NULL);
	ck_assert_int_eq(kp_lifecycle_nodepool_registration_health(lc_fresh(&w), &w.spec, &w.opts, np, NULL), KP_OK);
	ck_assert_uint_eq(kp_lifecycle_result_action_count(w.r), 0);
	/* the NodePool changed (generation 2, the condition observed 0) */
	lc_world_free(&w);
	lc_world_init(&w, LC_T0 + 20 * LC_MIN);
	w.spec.nodeclasses = classes;
	w.spec.n_nodeclasses = 1;
	np = nodepool("True", ", generation: 2");
	ck_assert_int_eq(kp_lifecycle_nodepool_registration_health(lc_fresh(&w), &w.spec, &w.opts, np, NULL), KP_OK);
	a = lc_action(&w, 0);
	ck_assert_str_eq(a->message, "NodeRegistrationHealthy=Unknown: the NodePool changed");
	ck_assert_str_eq(health_cond(a)->status, "Unknown");
	ck_assert_int_eq(health_cond(a)->observed_generation, 2);
	ck_assert_int_eq(health_cond(a)->last_transition_time_ms, LC_T0 + 20 * LC_MIN);
}
END_TEST

/* upstream registrationhealth suite "should set NodeRegistrationHealthy status
 * condition on nodePool as Unknown and reset the NodeRegistrationHealthBuffer
 * if the nodeClass observed generation doesn't match with that on nodePool",
 * and "should not set ... Unknown if it is already set to false". */
START_TEST(node_class_generation_resets)
{
	kp_nodeclass_status cls = KP_NODECLASS_STATUS_INIT;
	cls.ready = 1;
	cls.group = "karpenter.test.sh";
	cls.kind = "TestNodeClass";
	cls.name = "default";
	cls.generation = 2;
	const kp_nodeclass_status *classes[] = { &cls };
	w.spec.nodeclasses = classes;
	w.spec.n_nodeclasses = 1;
	kp_nodepool *np = lc_add(&w,
		"apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: default, uid: np-uid, "
		"generation: 1}\nspec: {template: {spec: {nodeClassRef: {group: karpenter.test.sh, "
		"kind: TestNodeClass, name: default}, requirements: []}}}\nstatus: "
		"{nodeClassObservedGeneration: 1, conditions: [{type: NodeRegistrationHealthy, "
		"status: 'False', reason: unhealthy, message: unhealthy, observedGeneration: 1, "
		"lastTransitionTime: '" T0 "'}]}\n");
	ck_assert_int_eq(kp_lifecycle_nodepool_registration_health(lc_fresh(&w), &w.spec, &w.opts, np, NULL), KP_OK);
	ck_assert_str_eq(lc_summary(&w), "updateStatus NodePool/default NodeRegistrationHealthy\n");
	const kp_lifecycle_action *a = lc_action(&w, 0);
	ck_assert_str_eq(a->message, "NodeRegistrationHealthy=Unknown: the node class changed");
	ck_assert_str_eq(health_cond(a)->status, "Unknown");
	ck_assert_str_eq(health_cond(a)->reason, "AwaitingReconciliation");
	ck_assert_int_eq(((const kp_nodepool *)a->object)->status->node_class_observed_generation, 2);
	/* the generation observed: the False condition stays */
	cls.generation = 1;
	ck_assert_int_eq(kp_lifecycle_nodepool_registration_health(lc_fresh(&w), &w.spec, &w.opts, np, NULL), KP_OK);
	ck_assert_uint_eq(kp_lifecycle_result_action_count(w.r), 0);
	/* a generation not known (0) is never compared */
	cls.generation = 0;
	ck_assert_int_eq(kp_lifecycle_nodepool_registration_health(lc_fresh(&w), &w.spec, &w.opts,
								   np, NULL), KP_OK);
	ck_assert_uint_eq(kp_lifecycle_result_action_count(w.r), 0);
	/* in a round: the reset is what the NodePool's status carries */
	cls.generation = 3;
	lc_reconcile(&w);
	a = lc_last(&w, KP_LIFECYCLE_VERB_UPDATE_STATUS, "nodepool.registrationhealth");
	ck_assert_ptr_nonnull(a);
	ck_assert_str_eq(health_cond(a)->status, "Unknown");
	ck_assert_int_eq(((const kp_nodepool *)a->object)->status->node_class_observed_generation, 3);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("registration_health");
	TCase *tc = tcase_create("registration_health");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, registration_sets_healthy);
	tcase_add_test(tc, reset_then_registration_in_one_round);
	tcase_add_test(tc, not_owned_not_counted);
	tcase_add_test(tc, one_timeout_not_enough);
	tcase_add_test(tc, two_timeouts_unhealthy);
	tcase_add_test(tc, healthy_needs_two_failures);
	tcase_add_test(tc, launch_timeout_reason);
	tcase_add_test(tc, unhealthy_needs_successes);
	tcase_add_test(tc, nodepool_controller_resets);
	tcase_add_test(tc, node_class_generation_resets);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	Suite *suites[] = { suite() };
	return kp_test_run(suites, 1);
}
