/*
 * Reserved capacity end to end: libkarpenter-aws builds instance types with
 * a capacity reservation of the EC2NodeClass (its reserved offering carries
 * karpenter.k8s.aws/capacity-reservation-id, upstream AWS's
 * cloudprovider.ReservationIDLabel), and the core's scheduler counts it as upstream's ReservationManager does: two pods that
 * each need a whole m5.large and a reservation with one instance left give
 * one reserved NodeClaim and, under the provisioner's strict mode, one pod
 * deferred; under consolidation's fallback, an on-demand NodeClaim.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#define KP_EXPERIMENTAL_API 1

#include <stdlib.h>
#include <string.h>

#include <karpenter/aws_instancetypes.h>

#include "kp_test.h"
#include "sched_harness.h"

#define RID "karpenter.k8s.aws/capacity-reservation-id"

static const char *const files[][2] = {
	{ "aws/instance-types.json", "types" },
	{ "aws/instance-type-offerings.json", "offerings" },
	{ "aws/vpc-limits.json", "limits" },
	{ "aws/bandwidth.json", "bandwidth" },
	{ "aws/pricing-on-demand.json", "prices" },
};

static kp_instance_types *aws_types(int64_t left)
{
	int (*load[])(kp_aws_catalog *, const char *, size_t, const char *, kp_error *) = {
		kp_aws_catalog_load_instance_types, kp_aws_catalog_load_offerings,
		kp_aws_catalog_load_vpc_limits, kp_aws_catalog_load_bandwidth,
		kp_aws_catalog_load_on_demand_prices,
	};
	kp_aws_catalog *cat = NULL;
	ck_assert_int_eq(kp_aws_catalog_new(&cat, NULL), KP_OK);
	for (size_t i = 0; i < 5; i++) {
		size_t len = 0;
		char *text = kp_test_read_file(kp_test_data_path(files[i][0]), &len);
		ck_assert_ptr_nonnull(text);
		kp_error err = KP_ERROR_INIT;
		ck_assert_msg(load[i](cat, text, len, files[i][0], &err) == KP_OK, "%s", err.message);
		free(text);
	}
	kp_aws_capacity_reservation cr = KP_AWS_CAPACITY_RESERVATION_INIT;
	cr.id = "cr-m5-large-1a";
	cr.instance_type = "m5.large";
	cr.availability_zone = "test-zone-1a";
	cr.available_instance_count = left;
	const kp_aws_capacity_reservation *crs[] = { &cr };
	kp_aws_instance_type_options o = KP_AWS_INSTANCE_TYPE_OPTIONS_INIT;
	o.capacity_reservations = crs;
	o.n_capacity_reservations = 1;
	kp_instance_types *its = NULL;
	kp_error err = KP_ERROR_INIT;
	ck_assert_msg(kp_aws_instance_types_build(&its, cat, &o, &err) == KP_OK, "%s", err.message);
	kp_aws_catalog_free(cat);
	return its;
}

/* Two pods of 1500m, each on an m5.large of its own (2 vCPU). */
#define CLUSTER                                                                                    \
	"apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: default, uid: np}\nspec:\n" \
	"  template:\n    spec:\n      nodeClassRef: {group: karpenter.k8s.aws, kind: "            \
	"EC2NodeClass, name: default}\n      requirements: []\n---\n"                            \
	POD("p1") POD("p2")
#define POD(name)                                                                                  \
	"apiVersion: v1\nkind: Pod\nmetadata: {name: " name ", namespace: default, uid: " name     \
	"}\nspec:\n  nodeSelector: {node.kubernetes.io/instance-type: m5.large}\n  containers:\n"  \
	"  - name: c\n    resources: {requests: {cpu: 1500m}}\n---\n"

static h_scenario sc;

static void load(int64_t left)
{
	h_load(&sc, CLUSTER, aws_types(left));
	ck_assert_int_eq(kp_wellknown_new(&sc.wk, NULL), KP_OK);
	ck_assert_int_eq(kp_aws_wellknown_add(sc.wk, NULL), KP_OK);
}

static void teardown(void)
{
	kp_wellknown *wk = sc.wk;
	h_free(&sc);
	kp_wellknown_free(wk);
}

static void run(uint32_t mode)
{
	kp_sched_options o = KP_SCHED_OPTIONS_INIT;
	o.reserved_offering_mode = mode;
	h_run(&sc, &o);
}

START_TEST(one_instance_left_strict)
{
	load(1);
	run(KP_RESERVED_OFFERING_STRICT);
	ck_assert_uint_eq(kp_sched_result_nodeclaim_count(sc.result), 1);
	const kp_sched_nodeclaim *n = kp_sched_result_nodeclaim_at(sc.result, 0);
	ck_assert_str_eq(n->instance_type, "m5.large");
	ck_assert_str_eq(n->capacity_type, "reserved");
	ck_assert_str_eq(n->zone, "test-zone-1a");
	/* AWS prices a reservation at the on-demand price / 10,000,000 */
	ck_assert_double_eq_tol(n->price, 0.096 / 10000000.0, 1e-15);
	ck_assert_str_eq(h_req(n->nodeclaim, "karpenter.sh/capacity-type"), "In reserved");
	ck_assert_str_eq(h_req(n->nodeclaim, RID), "In cr-m5-large-1a");
	ck_assert_ptr_nonnull(h_pod_nc(&sc, "p1"));
	const kp_sched_placement *p2 = h_pod(&sc, "p2");
	ck_assert_uint_eq(p2->target, KP_SCHED_UNPLACED);
	const kp_sched_reason *r = h_reason(p2, KP_REASON_RESERVED_OFFERING, "default", NULL);
	ck_assert_ptr_nonnull(r);
	ck_assert_str_eq(r->message, "one or more instance types with compatible reserved "
				     "offerings are available, but could not be reserved");
}
END_TEST

static int append(void *ctx, const char *data, size_t len)
{
	char **s = ctx;
	size_t have = *s ? strlen(*s) : 0;
	char *n = realloc(*s, have + len + 1);
	if (!n)
		return -1;
	memcpy(n + have, data, len);
	n[have + len] = '\0';
	*s = n;
	return 0;
}

/* simulate's document (kp_sched_result_write): the NodeClaim launched into
 * the reservation is labelled with it, as AWS's Create labels the instance */
START_TEST(document_labels_the_reservation)
{
	load(1);
	run(KP_RESERVED_OFFERING_STRICT);
	const kp_sched_nodeclaim *n = kp_sched_result_nodeclaim_at(sc.result, 0);
	ck_assert_ptr_nonnull(n->offering);
	ck_assert_str_eq(n->offering->reservation_id, "cr-m5-large-1a");
	char *text = NULL;
	kp_emitter_options o = KP_EMITTER_OPTIONS_INIT;
	o.indent = KP_EMITTER_INDENT_COMPACT;
	kp_emitter *em = NULL;
	kp_error e = KP_ERROR_INIT;
	ck_assert_int_eq(kp_emitter_new(&em, &o, append, &text, &e), KP_OK);
	ck_assert_int_eq(kp_sched_result_write(em, sc.result, &e), KP_OK);
	ck_assert_int_eq(kp_emitter_close(em, &e), KP_OK);
	ck_assert_ptr_nonnull(text);
	ck_assert_msg(strstr(text, "\"labels\":{\"karpenter.k8s.aws/capacity-reservation-id\":"
				   "\"cr-m5-large-1a\",\"karpenter.k8s.aws/capacity-reservation-interruptible\":"
				   "\"false\",\"karpenter.k8s.aws/capacity-reservation-type\":\"default\",") != NULL,
		      "%s", text);
	ck_assert_msg(strstr(text, "\"karpenter.sh/capacity-type\":\"reserved\",\"karpenter.sh/nodepool\":"
				   "\"default\",") != NULL,
		      "%s", text);
	free(text);
}
END_TEST

START_TEST(one_instance_left_fallback)
{
	load(1);
	run(KP_RESERVED_OFFERING_FALLBACK);
	ck_assert_uint_eq(kp_sched_result_nodeclaim_count(sc.result), 2);
	const kp_sched_nodeclaim *a = h_pod_nc(&sc, "p1"), *b = h_pod_nc(&sc, "p2");
	ck_assert_str_eq(a->capacity_type, "reserved");
	ck_assert_str_eq(h_req(a->nodeclaim, RID), "In cr-m5-large-1a");
	/* not into the reservation a holds (offline spot is priced as
	 * on-demand: the first of equal offerings) */
	ck_assert_str_eq(b->capacity_type, "on-demand");
	ck_assert_ptr_null(b->offering->reservation_id);
	ck_assert_str_eq(h_req(b->nodeclaim, "karpenter.sh/capacity-type"),
			 "In on-demand,reserved,spot");
	ck_assert_ptr_null(h_req(b->nodeclaim, RID));
}
END_TEST

START_TEST(two_instances_left)
{
	load(2);
	run(KP_RESERVED_OFFERING_STRICT);
	ck_assert_uint_eq(kp_sched_result_nodeclaim_count(sc.result), 2);
	for (size_t i = 0; i < 2; i++) {
		const kp_sched_nodeclaim *n = kp_sched_result_nodeclaim_at(sc.result, i);
		ck_assert_str_eq(n->capacity_type, "reserved");
		ck_assert_str_eq(h_req(n->nodeclaim, RID), "In cr-m5-large-1a");
	}
}
END_TEST

int main(void)
{
	for (size_t i = 0; i < 5; i++)
		kp_test_require_data(files[i][0]);
	Suite *s = suite_create("aws_reserved_sched");
	TCase *tc = tcase_create("reserved");
	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_add_test(tc, one_instance_left_strict);
	tcase_add_test(tc, document_labels_the_reservation);
	tcase_add_test(tc, one_instance_left_fallback);
	tcase_add_test(tc, two_instances_left);
	suite_add_tcase(s, tc);
	Suite *suites[] = { s };
	return kp_test_run(suites, 1);
}
