/*
 * libkarpenter-aws: an EC2NodeClass's readiness as upstream's status
 * controller derives it (providers/aws/status.c): the root Ready condition
 * from the dependents of StatusConditions() with operatorpkg's reasons and
 * messages, and the core's kp_nodeclass_status view of it.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#define KP_EXPERIMENTAL_API 1
#include <stdio.h>
#include <string.h>

#include <karpenter/aws_ec2nodeclass.h>
#include <karpenter/codec.h>

#include "kp_test.h"

#define NOW ((int64_t)1748779200000) /* 2025-06-01T12:00:00Z */

static kp_registry *reg;
static uint32_t kind;

static void setup(void)
{
	ck_assert_int_eq(kp_registry_new(&reg, NULL), KP_OK);
	ck_assert_int_eq(kp_aws_register(reg, NULL, &kind, NULL), KP_OK);
}

static void teardown(void)
{
	kp_registry_free(reg);
}

/* An EC2NodeClass at generation 2 whose status has @p conditions (YAML
 * flow items, "" for none; NULL: no status at all). */
static kp_aws_ec2nodeclass *decode(const char *conditions)
{
	char text[4096];
	snprintf(text, sizeof(text),
		 "apiVersion: karpenter.k8s.aws/v1\nkind: EC2NodeClass\n"
		 "metadata: {name: c, generation: 2}\n"
		 "spec: {role: r, amiSelectorTerms: [{alias: al2023@latest}]}\n%s%s%s",
		 conditions ? "status:\n  instanceProfile: p\n" : "",
		 conditions && *conditions ? "  conditions:\n" : "", conditions ? conditions : "");
	kp_decode_options o = KP_DECODE_OPTIONS_INIT;
	o.registry = reg;
	void *obj = NULL;
	kp_error e = KP_ERROR_INIT;
	ck_assert_msg(kp_decode_one(&obj, kind, text, strlen(text), &o, &e) == KP_OK, "%s",
		      e.message);
	return obj;
}

#define COND(type, status, gen) \
	"  - {type: " type ", status: \"" status "\", reason: R, message: \"\", " \
	"observedGeneration: " #gen ", lastTransitionTime: \"2025-06-01T00:00:00Z\"}\n"
#define ALL_TRUE \
	COND("AMIsReady", "True", 2) COND("InstanceProfileReady", "True", 2) \
	COND("SecurityGroupsReady", "True", 2) COND("SubnetsReady", "True", 2) \
	COND("ValidationSucceeded", "True", 2)

static const kp_condition *cond(const kp_aws_ec2nodeclass *nc, const char *type)
{
	for (size_t i = 0; nc->status && i < nc->status->n_conditions; i++)
		if (!strcmp(nc->status->conditions[i]->type, type))
			return nc->status->conditions[i];
	return NULL;
}

static void expect_ready(const kp_aws_ec2nodeclass *nc, const char *status, const char *reason,
			 const char *message, int64_t ltt)
{
	const kp_condition *r = cond(nc, "Ready");
	ck_assert_ptr_nonnull(r);
	ck_assert_str_eq(r->status, status);
	ck_assert_str_eq(r->reason, reason);
	ck_assert_str_eq(r->message, message);
	ck_assert(r->observed_generation == 2);
	ck_assert(r->last_transition_time_ms == ltt);
}

START_TEST(every_dependent_true_is_ready)
{
	kp_aws_ec2nodeclass *nc = decode(ALL_TRUE);
	ck_assert_int_eq(kp_aws_ec2nodeclass_status_ready(nc, 0, NOW, NULL), KP_OK);
	expect_ready(nc, "True", "Ready", "", NOW);
	/* sorted by type, as upstream stores them */
	ck_assert_uint_eq(nc->status->n_conditions, 6);
	ck_assert_str_eq(nc->status->conditions[2]->type, "Ready");
	kp_nodeclass_status st = KP_NODECLASS_STATUS_INIT;
	ck_assert_int_eq(kp_aws_ec2nodeclass_nodeclass_status(&st, nc, NULL), KP_OK);
	ck_assert_uint_eq(st.ready, 1);
	ck_assert_uint_eq(st.ready_unknown, 0);
	ck_assert_str_eq(st.group, "karpenter.k8s.aws");
	ck_assert_str_eq(st.kind, "EC2NodeClass");
	ck_assert_str_eq(st.name, "c");
	ck_assert(st.generation == 2);
	/* a Ready already right keeps its transition time */
	ck_assert_int_eq(kp_aws_ec2nodeclass_status_ready(nc, 0, NOW + 1000, NULL), KP_OK);
	expect_ready(nc, "True", "Ready", "", NOW);
	kp_registry_object_free(reg, kind, nc);
}
END_TEST

START_TEST(a_false_dependent_is_not_ready)
{
	kp_aws_ec2nodeclass *nc = decode(
		COND("AMIsReady", "True", 2) COND("InstanceProfileReady", "True", 2)
		COND("Ready", "True", 2) COND("SecurityGroupsReady", "True", 2)
		"  - {type: SubnetsReady, status: \"False\", reason: SubnetsNotFound, message: "
		"\"SubnetSelector did not match any Subnets\", observedGeneration: 2, "
		"lastTransitionTime: \"2025-06-01T06:00:00Z\"}\n"
		"  - {type: ValidationSucceeded, status: \"Unknown\", reason: R, message: \"\", "
		"observedGeneration: 2, lastTransitionTime: \"2025-06-01T03:00:00Z\"}\n");
	ck_assert_int_eq(kp_aws_ec2nodeclass_status_ready(nc, 0, NOW, NULL), KP_OK);
	/* newest transition first */
	expect_ready(nc, "False", "UnhealthyDependents",
		     "SubnetsReady=False, ValidationSucceeded=Unknown", NOW);
	kp_nodeclass_status st = KP_NODECLASS_STATUS_INIT;
	ck_assert_int_eq(kp_aws_ec2nodeclass_nodeclass_status(&st, nc, NULL), KP_OK);
	ck_assert_uint_eq(st.ready, 0);
	ck_assert_uint_eq(st.ready_unknown, 0);
	ck_assert_str_eq(st.reason, "UnhealthyDependents");
	ck_assert_str_eq(st.message, "SubnetsReady=False, ValidationSucceeded=Unknown");
	kp_registry_object_free(reg, kind, nc);
}
END_TEST

START_TEST(an_old_generation_is_reconciling)
{
	/* False, but observed at generation 1: the root stays Unknown */
	kp_aws_ec2nodeclass *nc = decode(
		COND("AMIsReady", "False", 1) COND("InstanceProfileReady", "True", 2)
		COND("SecurityGroupsReady", "True", 2) COND("SubnetsReady", "True", 1)
		COND("ValidationSucceeded", "True", 2));
	ck_assert_int_eq(kp_aws_ec2nodeclass_status_ready(nc, 0, NOW, NULL), KP_OK);
	expect_ready(nc, "Unknown", "ReconcilingDependents", "AMIsReady=False, SubnetsReady=True",
		     NOW);
	kp_nodeclass_status st = KP_NODECLASS_STATUS_INIT;
	ck_assert_int_eq(kp_aws_ec2nodeclass_nodeclass_status(&st, nc, NULL), KP_OK);
	ck_assert_uint_eq(st.ready, 0);
	ck_assert_uint_eq(st.ready_unknown, 1);
	kp_registry_object_free(reg, kind, nc);
}
END_TEST

START_TEST(missing_dependents_await_reconciliation)
{
	/* a status without conditions: every dependent Unknown, in
	 * StatusConditions()'s order, then Ready */
	kp_aws_ec2nodeclass *nc = decode("");
	ck_assert_int_eq(kp_aws_ec2nodeclass_status_ready(nc, 0, NOW, NULL), KP_OK);
	expect_ready(nc, "Unknown", "ReconcilingDependents",
		     "AMIsReady=Unknown, SubnetsReady=Unknown, SecurityGroupsReady=Unknown, "
		     "InstanceProfileReady=Unknown, ValidationSucceeded=Unknown", NOW);
	const kp_condition *c = cond(nc, "SubnetsReady");
	ck_assert_str_eq(c->status, "Unknown");
	ck_assert_str_eq(c->reason, "AwaitingReconciliation");
	ck_assert_str_eq(c->message, "object is awaiting reconciliation");
	ck_assert(c->last_transition_time_ms == NOW);
	ck_assert_ptr_null(cond(nc, "CapacityReservationsReady"));
	kp_registry_object_free(reg, kind, nc);
	/* with capacity reservations enabled, CapacityReservationsReady too */
	nc = decode(ALL_TRUE);
	ck_assert_int_eq(kp_aws_ec2nodeclass_status_ready(nc, KP_AWS_STATUS_CAPACITY_RESERVATIONS,
							  NOW, NULL), KP_OK);
	expect_ready(nc, "Unknown", "ReconcilingDependents", "CapacityReservationsReady=Unknown",
		     NOW);
	kp_registry_object_free(reg, kind, nc);
	/* no status at all: one is made, as For() makes it */
	nc = decode(NULL);
	ck_assert_ptr_null(nc->status);
	ck_assert_int_eq(kp_aws_ec2nodeclass_status_ready(nc, 0, NOW, NULL), KP_OK);
	ck_assert_ptr_nonnull(nc->status);
	ck_assert_uint_eq(nc->status->n_conditions, 6);
	expect_ready(nc, "Unknown", "ReconcilingDependents",
		     "AMIsReady=Unknown, SubnetsReady=Unknown, SecurityGroupsReady=Unknown, "
		     "InstanceProfileReady=Unknown, ValidationSucceeded=Unknown", NOW);
	/* what it wrote encodes and reads back */
	char *json = NULL;
	ck_assert_int_eq(kp_registry_encode(&json, NULL, reg, kind, nc, KP_FORMAT_JSON, 0, NULL),
			 KP_OK);
	void *back = NULL;
	kp_decode_options o = KP_DECODE_OPTIONS_INIT;
	o.registry = reg;
	ck_assert_int_eq(kp_decode_one(&back, kind, json, strlen(json), &o, NULL), KP_OK);
	ck_assert_int_eq(kp_registry_object_equal(reg, kind, nc, back), 1);
	kp_registry_object_free(reg, kind, back);
	kp_encoded_free(json);
	kp_registry_object_free(reg, kind, nc);
}
END_TEST

START_TEST(without_status_the_core_rule)
{
	/* no status: kp_nodeclass_status_from's rule (no conditions) */
	kp_aws_ec2nodeclass *nc = decode(NULL);
	kp_nodeclass_status st = KP_NODECLASS_STATUS_INIT;
	ck_assert_int_eq(kp_aws_ec2nodeclass_nodeclass_status(&st, nc, NULL), KP_OK);
	kp_nodeclass_status want = KP_NODECLASS_STATUS_INIT;
	kp_nodeclass_status_from(&want, nc->metadata, NULL, 0);
	ck_assert_uint_eq(st.ready, want.ready);
	ck_assert_uint_eq(st.ready_unknown, want.ready_unknown);
	kp_error e = KP_ERROR_INIT;
	ck_assert_int_eq(kp_aws_ec2nodeclass_status_ready(nc, 0x80, NOW, &e), KP_EINVAL);
	ck_assert_str_eq(e.message, "unknown flags");
	ck_assert_int_eq(kp_aws_ec2nodeclass_status_ready(NULL, 0, NOW, &e), KP_EINVAL);
	ck_assert_int_eq(kp_aws_ec2nodeclass_nodeclass_status(NULL, nc, &e), KP_EINVAL);
	kp_registry_object_free(reg, kind, nc);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("aws-ec2nodeclass-status");
	TCase *tc = tcase_create("ready");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, every_dependent_true_is_ready);
	tcase_add_test(tc, a_false_dependent_is_not_ready);
	tcase_add_test(tc, an_old_generation_is_reconciling);
	tcase_add_test(tc, missing_dependents_await_reconciliation);
	tcase_add_test(tc, without_status_the_core_rule);
	suite_add_tcase(s, tc);
	return kp_test_run(&s, 1);
}
