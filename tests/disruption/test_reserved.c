/*
 * Reserved capacity in consolidation: upstream pkg/controllers/disruption
 * consolidation_test.go "Reserved Capacity". The simulation falls back from
 * reservations it cannot take (upstream's SimulateScheduling is not strict),
 * a replacement holding reservations is launched as reserved with the
 * reservation IDs in its requirements, and a candidate on a reserved
 * offering is priced by that offering.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdio.h>
#include <string.h>

#include "disruption_harness.h"
#include "kp_test.h"
#include "sched_harness.h"

#define NOW "2025-01-02T00:00:00Z"
#define INIT "2025-01-01T00:00:00Z"
#define WEOU "WhenEmptyOrUnderutilized"
#define RID "karpenter.sh/reservation-id"

/* c-4x (4 cpu, 0.4 $/h) reserved as r-c-4x; c-2x (2 cpu, 0.2 $/h)
 * reserved as r-c-2x when @p small_reserved. Ten instances left each. */
static kp_instance_types *catalog(int small_reserved)
{
	kp_instance_types *its = NULL;
	ck_assert_int_eq(kp_instance_types_new(&its, NULL), KP_OK);
	h_resv big[] = { { "r-c-4x", 10, 1 } }, small[] = { { "r-c-2x", 10, 1 } };
	h_add_type(its, "c-4x-amd64-linux", "4", "16Gi", 0.4, RID, big, 1);
	h_add_type(its, "c-2x-amd64-linux", "2", "8Gi", 0.2, RID, small, small_reserved ? 1 : 0);
	return its;
}

static const kp_disruption_command *only_command(const kp_disruption_result *r)
{
	ck_assert_uint_eq(kp_disruption_result_command_count(r), 1);
	return kp_disruption_result_command_at(r, 0);
}

/* "can consolidate into reserved capacity for the same instance pool",
 * from on-demand and from spot */
static void into_reserved(const char *from, double from_price)
{
	dh *h = dh_new();
	dh_set_catalog(h, catalog(0), RID);
	dh_nodepool(h, "default", "on-demand, spot, reserved", WEOU, "0s", "100%");
	dh_node(h, "n1", "default", "c-4x-amd64-linux", "test-zone-1", from, INIT, "", "");
	dh_pod(h, "shop", "p1", "n1", "3", "");
	const kp_disruption_result *r = dh_run(h, NOW, 0, 1);
	const kp_disruption_command *c = only_command(r);
	ck_assert_uint_eq(c->method, KP_DISRUPTION_METHOD_SINGLE_NODE);
	ck_assert_uint_eq(c->decision, KP_DISRUPTION_REPLACE);
	ck_assert_uint_eq(c->n_candidates, 1);
	ck_assert_str_eq(c->candidates[0]->node, "n1");
	ck_assert_uint_eq(c->n_replacements, 1);
	const kp_disruption_replacement *x = c->replacements[0];
	ck_assert_str_eq(x->instance_type, "c-4x-amd64-linux");
	ck_assert_str_eq(x->capacity_type, "reserved");
	ck_assert_str_eq(x->zone, "test-zone-1");
	ck_assert_double_eq_tol(x->price, 0.4 / 100000.0, 1e-12);
	ck_assert_str_eq(h_req(x->nodeclaim, KP_LABEL_CAPACITY_TYPE), "In reserved");
	ck_assert_str_eq(h_req(x->nodeclaim, RID), "In r-c-4x");
	ck_assert_str_eq(h_req(x->nodeclaim, KP_LABEL_INSTANCE_TYPE), "In c-4x-amd64-linux");
	ck_assert_double_eq_tol(c->savings, from_price - 0.4 / 100000.0, 1e-9);
	dh_free(h);
}

START_TEST(consolidates_on_demand_into_reserved)
{
	into_reserved("on-demand", 0.4);
}
END_TEST

START_TEST(consolidates_spot_into_reserved)
{
	/* not spot-to-spot: the replacement is reserved only */
	into_reserved("spot", 0.4 * 0.7);
}
END_TEST

START_TEST(consolidates_reserved_into_cheaper_reserved)
{
	/* "can consolidate from one reserved offering to another": the
	 * candidate is priced by its reserved offering (4e-6); the replacement
	 * holds both reservations it could launch into, and only c-2x's is
	 * cheaper */
	dh *h = dh_new();
	dh_set_catalog(h, catalog(1), RID);
	dh_nodepool(h, "default", "on-demand, spot, reserved", WEOU, "0s", "100%");
	dh_node(h, "n1", "default", "c-4x-amd64-linux", "test-zone-1", "reserved", INIT,
		"    " RID ": r-c-4x", "    " RID ": r-c-4x");
	dh_pod(h, "shop", "p1", "n1", "1", "");
	const kp_disruption_result *r = dh_run(h, NOW, 0, 1);
	const kp_disruption_command *c = only_command(r);
	ck_assert_uint_eq(c->decision, KP_DISRUPTION_REPLACE);
	ck_assert_uint_eq(c->n_replacements, 1);
	const kp_disruption_replacement *x = c->replacements[0];
	ck_assert_str_eq(x->instance_type, "c-2x-amd64-linux");
	ck_assert_str_eq(x->capacity_type, "reserved");
	ck_assert_str_eq(h_req(x->nodeclaim, KP_LABEL_CAPACITY_TYPE), "In reserved");
	ck_assert_str_eq(h_req(x->nodeclaim, RID), "In r-c-2x,r-c-4x");
	ck_assert_str_eq(h_req(x->nodeclaim, KP_LABEL_INSTANCE_TYPE), "In c-2x-amd64-linux");
	ck_assert_double_eq_tol(c->savings, 0.4 / 100000.0 - 0.2 / 100000.0, 1e-12);
	dh_free(h);
}
END_TEST

START_TEST(exhausted_reservation_falls_back_in_consolidation)
{
	/* no instance left in r-c-4x: the simulation is not strict, so the
	 * replacement is on-demand or spot, and the on-demand candidate is
	 * replaced by the cheaper spot offering as without reservations */
	kp_instance_types *its = NULL;
	ck_assert_int_eq(kp_instance_types_new(&its, NULL), KP_OK);
	h_resv big[] = { { "r-c-4x", 0, 1 } };
	h_add_type(its, "c-4x-amd64-linux", "4", "16Gi", 0.4, RID, big, 1);
	dh *h = dh_new();
	dh_set_catalog(h, its, RID);
	dh_nodepool(h, "default", "on-demand, spot, reserved", WEOU, "0s", "100%");
	dh_node(h, "n1", "default", "c-4x-amd64-linux", "test-zone-1", "on-demand", INIT, "", "");
	dh_pod(h, "shop", "p1", "n1", "3", "");
	const kp_disruption_result *r = dh_run(h, NOW, 0, 1);
	const kp_disruption_command *c = only_command(r);
	ck_assert_uint_eq(c->decision, KP_DISRUPTION_REPLACE);
	const kp_disruption_replacement *x = c->replacements[0];
	ck_assert_str_eq(x->capacity_type, "spot");
	ck_assert_ptr_null(h_req(x->nodeclaim, RID));
	dh_free(h);
}
END_TEST

/* Passes count what earlier passes did to a reservation, as upstream AWS's
 * capacity reservation provider counts a launch (MarkLaunched) and a
 * termination (MarkTerminated), and a reservation with nothing left is no
 * launch option (the provider reports it unavailable): one instance left
 * in r-c-4x takes the first replacement only; the second, a pass later, is
 * spot. */
START_TEST(passes_count_a_launch_into_a_reservation)
{
	kp_instance_types *its = NULL;
	ck_assert_int_eq(kp_instance_types_new(&its, NULL), KP_OK);
	h_resv big[] = { { "r-c-4x", 1, 1 } };
	h_add_type(its, "c-4x-amd64-linux", "4", "16Gi", 0.4, RID, big, 1);
	dh *h = dh_new();
	dh_set_catalog(h, its, RID);
	dh_nodepool(h, "default", "on-demand, spot, reserved", WEOU, "0s", "100%");
	dh_node(h, "n1", "default", "c-4x-amd64-linux", "test-zone-1", "on-demand", INIT, "", "");
	dh_node(h, "n2", "default", "c-4x-amd64-linux", "test-zone-1", "on-demand", INIT, "", "");
	dh_pod(h, "shop", "p1", "n1", "3", "");
	dh_pod(h, "shop", "p2", "n2", "3", "");
	const kp_disruption_result *r = dh_run(h, NOW, 0, 2);
	ck_assert_uint_eq(kp_disruption_result_command_count(r), 2);
	const kp_disruption_command *first = kp_disruption_result_command_at(r, 0);
	const kp_disruption_command *second = kp_disruption_result_command_at(r, 1);
	ck_assert_uint_eq(first->n_replacements, 1);
	ck_assert_str_eq(first->replacements[0]->capacity_type, "reserved");
	ck_assert_str_eq(h_req(first->replacements[0]->nodeclaim, RID), "In r-c-4x");
	/* the launch labels carry the reservation, as the provider's Create */
	const kp_labels *l = &first->replacements[0]->nodeclaim->metadata->labels;
	ck_assert_str_eq(kp_labels_get(l, RID), "r-c-4x");
	ck_assert_uint_eq(second->n_replacements, 1);
	ck_assert_str_ne(second->candidates[0]->node, first->candidates[0]->node);
	ck_assert_str_eq(second->replacements[0]->capacity_type, "spot");
	ck_assert_ptr_null(h_req(second->replacements[0]->nodeclaim, RID));
	dh_free(h);
}
END_TEST

/* A reserved candidate removed in one pass gives its reservation's
 * instance back for the next: r-c-4x has one instance left for the two
 * on-demand nodes n2 and n3 (no spot allowed). n2 takes it; n1, in r-c-4x,
 * is deleted (its pod fits beside n2's on the replacement), which gives
 * r-c-4x one instance again, for n3. Without the count, n3 could not be
 * replaced more cheaply (on-demand for on-demand). */
START_TEST(passes_count_a_termination_out_of_a_reservation)
{
	kp_instance_types *its = NULL;
	ck_assert_int_eq(kp_instance_types_new(&its, NULL), KP_OK);
	h_resv big[] = { { "r-c-4x", 1, 1 } }, small[] = { { "r-c-2x", 1, 1 } };
	h_add_type(its, "c-4x-amd64-linux", "4", "16Gi", 0.4, RID, big, 1);
	h_add_type(its, "c-2x-amd64-linux", "2", "8Gi", 0.2, RID, small, 1);
	dh *h = dh_new();
	dh_set_catalog(h, its, RID);
	dh_nodepool(h, "default", "on-demand, reserved", WEOU, "0s", "100%");
	dh_node(h, "n1", "default", "c-4x-amd64-linux", "test-zone-1", "reserved", INIT,
		"    " RID ": r-c-4x", "    " RID ": r-c-4x");
	dh_node(h, "n2", "default", "c-4x-amd64-linux", "test-zone-1", "on-demand", INIT, "", "");
	dh_node(h, "n3", "default", "c-4x-amd64-linux", "test-zone-1", "on-demand", INIT, "", "");
	dh_pod(h, "shop", "p1", "n1", "1", "");
	dh_pod(h, "shop", "p2", "n2", "3", "");
	dh_pod(h, "shop", "p3", "n3", "3", "");
	const kp_disruption_result *r = dh_run(h, NOW, 0, 4);
	ck_assert_uint_eq(kp_disruption_result_command_count(r), 3);
	const kp_disruption_command *c0 = kp_disruption_result_command_at(r, 0);
	const kp_disruption_command *c1 = kp_disruption_result_command_at(r, 1);
	const kp_disruption_command *c2 = kp_disruption_result_command_at(r, 2);
	ck_assert_str_eq(c0->candidates[0]->node, "n2");
	ck_assert_uint_eq(c0->n_replacements, 1);
	ck_assert_str_eq(c0->replacements[0]->capacity_type, "reserved");
	ck_assert_str_eq(h_req(c0->replacements[0]->nodeclaim, RID), "In r-c-4x");
	ck_assert_str_eq(c1->candidates[0]->node, "n1");
	ck_assert_uint_eq(c1->decision, KP_DISRUPTION_DELETE);
	ck_assert_str_eq(c2->candidates[0]->node, "n3");
	ck_assert_uint_eq(c2->n_replacements, 1);
	ck_assert_str_eq(c2->replacements[0]->capacity_type, "reserved");
	ck_assert_str_eq(h_req(c2->replacements[0]->nodeclaim, RID), "In r-c-4x");
	ck_assert_double_eq_tol(c2->savings, 0.4 - 0.4 / 100000.0, 1e-9);
	dh_free(h);
}
END_TEST

static Suite *reserved_suite(void)
{
	Suite *s = suite_create("disruption_reserved");
	TCase *tc = tcase_create("reserved");
	tcase_add_test(tc, consolidates_on_demand_into_reserved);
	tcase_add_test(tc, consolidates_spot_into_reserved);
	tcase_add_test(tc, consolidates_reserved_into_cheaper_reserved);
	tcase_add_test(tc, exhausted_reservation_falls_back_in_consolidation);
	tcase_add_test(tc, passes_count_a_launch_into_a_reservation);
	tcase_add_test(tc, passes_count_a_termination_out_of_a_reservation);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	Suite *suites[] = { reserved_suite() };
	return kp_test_run(suites, (int)(sizeof(suites) / sizeof(suites[0])));
}
