/*
 * The scheduling simulation and reserved capacity: upstream
 * pkg/controllers/provisioning/scheduling suite_test.go "Reserved Instance
 * Types" (ReservationManager, reserved offerings of NodeClaims, strict and
 * fallback modes), on hand-built catalogues whose reserved offerings carry
 * the reservation ID label as upstream's fake provider does.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched_harness.h"

#define RID "karpenter.sh/reservation-id"

#define NODEPOOL_W(name, weight)                                                                   \
	"apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: " name ", uid: uid-" name   \
	"}\nspec:\n  weight: " weight "\n  template:\n    spec:\n      nodeClassRef: {group: "       \
	"karpenter.kwok.sh, kind: KWOKNodeClass, name: default}\n      requirements: []\n---\n"
#define NODEPOOL(name) NODEPOOL_W(name, "1")

/* A pod with a cpu request, app: test, anti-affinity to app: test on the
 * hostname, and node selector terms (YAML flow text, may be empty). */
#define ANTI_POD(name, cpu, selector)                                                              \
	"apiVersion: v1\nkind: Pod\nmetadata: {name: " name ", namespace: default, uid: " name     \
	", labels: {app: test}}\nspec:\n  nodeSelector: {" selector "}\n  affinity: {podAntiAffinity: " \
	"{requiredDuringSchedulingIgnoredDuringExecution: [{topologyKey: kubernetes.io/hostname, "   \
	"labelSelector: {matchLabels: {app: test}}}]}}\n  containers:\n  - name: c\n    resources: " \
	"{requests: {cpu: \"" cpu "\"}}\n---\n"

static h_scenario sc;

static void teardown(void)
{
	/* the snapshot goes first: it holds the label rules and catalogues */
	kp_wellknown *wk = sc.wk;
	kp_instance_types *extra[16] = { NULL };
	size_t n_extra = 0;
	for (size_t i = 0; i < 16; i++)
		if (sc.per_pool[i] && sc.per_pool[i] != sc.its)
			extra[n_extra++] = sc.per_pool[i]; /* one per NodePool in these tests */
	h_free(&sc);
	for (size_t i = 0; i < n_extra; i++)
		kp_instance_types_free(extra[i]);
	kp_wellknown_free(wk);
}

/*
 * The suite's catalogue: large (6 cpu, no reservation), medium (3 cpu) and
 * small (2 cpu), medium and small with one reserved instance each
 * ("r-medium-instance-type", "r-small-instance-type"), plus @p extra on
 * small.
 */
static kp_instance_types *suite_catalog(const h_resv *extra, size_t n_extra)
{
	kp_instance_types *its = NULL;
	ck_assert_int_eq(kp_instance_types_new(&its, NULL), KP_OK);
	h_resv medium[] = { { "r-medium-instance-type", 1, 1 } };
	h_resv small[4] = { { "r-small-instance-type", 1, 1 } };
	for (size_t i = 0; i < n_extra && i < 3; i++)
		small[1 + i] = extra[i];
	h_add_type(its, "large-instance-type", "6", "6Gi", 0.6, RID, NULL, 0);
	h_add_type(its, "medium-instance-type", "3", "3Gi", 0.3, RID, medium, 1);
	h_add_type(its, "small-instance-type", "2", "2Gi", 0.2, RID, small, 1 + n_extra);
	return its;
}

/* A catalogue of one type, "small-instance-type", reserved as @p id with
 * @p left instances, the offering available or not. */
static kp_instance_types *small_catalog(const char *id, int64_t left, uint32_t available)
{
	kp_instance_types *its = NULL;
	ck_assert_int_eq(kp_instance_types_new(&its, NULL), KP_OK);
	h_resv r[] = { { id, left, available } };
	h_add_type(its, "small-instance-type", "2", "2Gi", 0.2, RID, r, 1);
	return its;
}

/* Load @p yaml on @p its (every NodePool), with the reservation ID label
 * well known (as upstream's fake provider registers it). */
static void load(const char *yaml, kp_instance_types *its)
{
	h_load(&sc, yaml, its); /* takes @p its over */
	ck_assert_int_eq(kp_wellknown_new(&sc.wk, NULL), KP_OK);
	ck_assert_int_eq(kp_wellknown_add_label(sc.wk, RID, NULL), KP_OK);
}

static void run(uint32_t mode)
{
	kp_sched_options o = KP_SCHED_OPTIONS_INIT;
	o.reserved_offering_mode = mode;
	h_run(&sc, &o);
}

#define SMALL_POD(name) ANTI_POD(name, "100m", "node.kubernetes.io/instance-type: small-instance-type")

/* Four small pods apart from each other; small has r-small-instance-type
 * (1 left) and r-small-instance-type-2 (2 left). */
static void load_two_small_reservations(void)
{
	h_resv extra[] = { { "r-small-instance-type-2", 2, 1 } };
	load(NODEPOOL("default") SMALL_POD("p1") SMALL_POD("p2") SMALL_POD("p3") SMALL_POD("p4"),
	     suite_catalog(extra, 1));
}

static const char *const COULD_NOT_RESERVE =
	"one or more instance types with compatible reserved offerings are available, but could "
	"not be reserved";

/* ------------------------------------------------------------------ */
/* Strict (upstream's provisioner)                                     */

START_TEST(strict_no_fallback_while_reserved_offerings_are_compatible)
{
	/* "shouldn't fallback to on-demand or spot when compatible reserved
	 * offerings are available": 1800m fits small and medium, two do not
	 * fit medium; the first NodeClaim reserves both reservations (it may
	 * launch either type), so the other pods wait for a later simulation */
	load(NODEPOOL("default") H_POD("p1", "1800m", "0") H_POD("p2", "1800m", "0")
		     H_POD("p3", "1800m", "0"), suite_catalog(NULL, 0));
	run(KP_RESERVED_OFFERING_STRICT);
	ck_assert_uint_eq(kp_sched_result_nodeclaim_count(sc.result), 1);
	ck_assert_uint_eq(h_count(&sc, KP_SCHED_NEW_NODECLAIM), 1);
	ck_assert_uint_eq(h_count(&sc, KP_SCHED_UNPLACED), 2);
	const kp_sched_nodeclaim *n = kp_sched_result_nodeclaim_at(sc.result, 0);
	ck_assert_str_eq(h_pod_nc(&sc, "p1")->nodeclaim->metadata->name,
			 n->nodeclaim->metadata->name);
	ck_assert_str_eq(n->instance_type, "small-instance-type");
	ck_assert_str_eq(n->capacity_type, "reserved");
	ck_assert_str_eq(n->zone, "test-zone-1");
	ck_assert_double_eq_tol(n->price, 0.2 / 100000.0, 1e-12);
	ck_assert_str_eq(h_req(n->nodeclaim, KP_LABEL_CAPACITY_TYPE), "In reserved");
	ck_assert_str_eq(h_req(n->nodeclaim, RID),
			 "In r-medium-instance-type,r-small-instance-type");
	/* upstream keeps the large type among the options (no reserved
	 * offering: ordered last by price) */
	ck_assert_str_eq(h_req(n->nodeclaim, KP_LABEL_INSTANCE_TYPE),
			 "In large-instance-type,medium-instance-type,small-instance-type");
	ck_assert_ptr_null(h_label(n->nodeclaim, RID));
	for (int i = 2; i <= 3; i++) {
		char name[4];
		snprintf(name, sizeof(name), "p%d", i);
		const kp_sched_placement *p = h_pod(&sc, name);
		ck_assert_uint_eq(p->target, KP_SCHED_UNPLACED);
		const kp_sched_reason *r = h_reason(p, KP_REASON_RESERVED_OFFERING, "default", NULL);
		ck_assert_ptr_nonnull(r);
		ck_assert_str_eq(r->message, COULD_NOT_RESERVE);
		ck_assert_str_eq(r->field, KP_LABEL_CAPACITY_TYPE);
		ck_assert_str_eq(kp_sched_reason_code_name(r->code), "ReservedOffering");
	}
}
END_TEST

START_TEST(strict_exhausted_reservations_fall_back)
{
	/* the suite's third loop: both reservations launched, their offerings
	 * unavailable with no capacity left: on-demand or spot again */
	kp_instance_types *its = NULL;
	ck_assert_int_eq(kp_instance_types_new(&its, NULL), KP_OK);
	h_resv medium[] = { { "r-medium-instance-type", 0, 0 } };
	h_resv small[] = { { "r-small-instance-type", 0, 0 } };
	h_add_type(its, "large-instance-type", "6", "6Gi", 0.6, RID, NULL, 0);
	h_add_type(its, "medium-instance-type", "3", "3Gi", 0.3, RID, medium, 1);
	h_add_type(its, "small-instance-type", "2", "2Gi", 0.2, RID, small, 1);
	load(NODEPOOL("default") H_POD("p3", "1800m", "0"), its);
	run(KP_RESERVED_OFFERING_STRICT);
	ck_assert_uint_eq(h_count(&sc, KP_SCHED_NEW_NODECLAIM), 1);
	const kp_sched_nodeclaim *n = kp_sched_result_nodeclaim_at(sc.result, 0);
	ck_assert_str_eq(n->instance_type, "small-instance-type");
	ck_assert_str_eq(n->capacity_type, "spot");
	ck_assert_str_eq(h_req(n->nodeclaim, KP_LABEL_CAPACITY_TYPE), "In on-demand,spot");
	ck_assert_ptr_null(h_req(n->nodeclaim, RID));
}
END_TEST

START_TEST(strict_available_but_empty_reservation_blocks)
{
	/* an available reserved offering whose reservation has no instance
	 * left is compatible but cannot be reserved: strict refuses */
	load(NODEPOOL("default") H_POD("p1", "1", "0"), small_catalog("r-small-instance-type", 0, 1));
	run(KP_RESERVED_OFFERING_STRICT);
	ck_assert_uint_eq(h_count(&sc, KP_SCHED_UNPLACED), 1);
	ck_assert_ptr_nonnull(h_reason(h_pod(&sc, "p1"), KP_REASON_RESERVED_OFFERING, "default",
				       NULL));
	run(KP_RESERVED_OFFERING_FALLBACK);
	ck_assert_uint_eq(h_count(&sc, KP_SCHED_NEW_NODECLAIM), 1);
	ck_assert_str_eq(kp_sched_result_nodeclaim_at(sc.result, 0)->capacity_type, "spot");
}
END_TEST

START_TEST(strict_shared_reservation_across_nodepools)
{
	/* "should correctly track reservations shared across nodepools" */
	load(NODEPOOL("np-1") NODEPOOL("np-2")
		     ANTI_POD("p1", "100m", "node.kubernetes.io/instance-type: small-instance-type, "
					    "karpenter.sh/nodepool: np-1")
		     ANTI_POD("p2", "100m", "node.kubernetes.io/instance-type: small-instance-type, "
					    "karpenter.sh/nodepool: np-2"),
	     suite_catalog(NULL, 0));
	run(KP_RESERVED_OFFERING_STRICT);
	ck_assert_uint_eq(kp_sched_result_nodeclaim_count(sc.result), 1);
	const kp_sched_nodeclaim *n = h_pod_nc(&sc, "p1");
	ck_assert_ptr_nonnull(n);
	ck_assert_str_eq(n->nodepool, "np-1");
	ck_assert_str_eq(n->capacity_type, "reserved");
	ck_assert_str_eq(h_req(n->nodeclaim, RID), "In r-small-instance-type");
	const kp_sched_placement *p2 = h_pod(&sc, "p2");
	ck_assert_uint_eq(p2->target, KP_SCHED_UNPLACED);
	const kp_sched_reason *r = h_reason(p2, KP_REASON_RESERVED_OFFERING, "np-2", NULL);
	ck_assert_ptr_nonnull(r);
	ck_assert_str_eq(r->message, COULD_NOT_RESERVE);
	/* fallback: the second NodePool launches on-demand or spot, not
	 * into the reservation the first holds; its requirements still list
	 * the capacity types of its compatible available offerings, as
	 * upstream's ToNodeClaim writes them */
	run(KP_RESERVED_OFFERING_FALLBACK);
	ck_assert_uint_eq(kp_sched_result_nodeclaim_count(sc.result), 2);
	n = h_pod_nc(&sc, "p2");
	ck_assert_str_eq(n->nodepool, "np-2");
	ck_assert_str_eq(n->capacity_type, "spot");
	ck_assert_str_eq(h_req(n->nodeclaim, KP_LABEL_CAPACITY_TYPE), "In on-demand,reserved,spot");
	ck_assert_ptr_null(h_req(n->nodeclaim, RID));
	ck_assert_str_eq(h_pod_nc(&sc, "p1")->capacity_type, "reserved");
}
END_TEST

START_TEST(strict_distinct_reservations_per_nodepool)
{
	/* "should correctly track reservations for multiple nodepools with
	 * distinct reservations for the same instance pool" */
	load(NODEPOOL("np-1") NODEPOOL("np-2")
		     ANTI_POD("p1", "100m", "node.kubernetes.io/instance-type: small-instance-type, "
					    "karpenter.sh/nodepool: np-1")
		     ANTI_POD("p2", "100m", "node.kubernetes.io/instance-type: small-instance-type, "
					    "karpenter.sh/nodepool: np-2"),
	     suite_catalog(NULL, 0));
	sc.per_pool[1] = small_catalog("r-distinct", 1, 1);
	run(KP_RESERVED_OFFERING_STRICT);
	ck_assert_uint_eq(kp_sched_result_nodeclaim_count(sc.result), 2);
	const kp_sched_nodeclaim *a = h_pod_nc(&sc, "p1"), *b = h_pod_nc(&sc, "p2");
	ck_assert_str_eq(a->capacity_type, "reserved");
	ck_assert_str_eq(b->capacity_type, "reserved");
	ck_assert_str_eq(h_req(a->nodeclaim, RID), "In r-small-instance-type");
	ck_assert_str_eq(h_req(b->nodeclaim, RID), "In r-distinct");
}
END_TEST

START_TEST(strict_multiple_reservations_same_pool)
{
	/* "should correctly track multiple reservations for the same instance
	 * pool": small has r-small-instance-type (1) and -2 (2); the first
	 * NodeClaim reserves both, the second the one left, the others wait */
	load_two_small_reservations();
	run(KP_RESERVED_OFFERING_STRICT);
	ck_assert_uint_eq(kp_sched_result_nodeclaim_count(sc.result), 2);
	ck_assert_uint_eq(h_count(&sc, KP_SCHED_UNPLACED), 2);
	const kp_sched_nodeclaim *a = kp_sched_result_nodeclaim_at(sc.result, 0);
	const kp_sched_nodeclaim *b = kp_sched_result_nodeclaim_at(sc.result, 1);
	ck_assert_str_eq(h_req(a->nodeclaim, RID),
			 "In r-small-instance-type,r-small-instance-type-2");
	ck_assert_str_eq(h_req(b->nodeclaim, RID), "In r-small-instance-type-2");
	ck_assert_str_eq(a->capacity_type, "reserved");
	ck_assert_str_eq(b->capacity_type, "reserved");
	ck_assert_str_eq(b->instance_type, "small-instance-type");
}
END_TEST

START_TEST(strict_no_fallback_to_lower_weight_nodepool)
{
	/* "shouldn't fallback to a lower weight NodePool if a reserved
	 * offering is available" */
	load(NODEPOOL_W("np-primary", "100") NODEPOOL_W("np-fallback", "50")
		     ANTI_POD("p1", "100m", "node.kubernetes.io/instance-type: small-instance-type")
		     ANTI_POD("p2", "100m", "node.kubernetes.io/instance-type: small-instance-type"),
	     suite_catalog(NULL, 0));
	sc.per_pool[1] = small_catalog("r-fallback", 1, 1);
	run(KP_RESERVED_OFFERING_STRICT);
	ck_assert_uint_eq(kp_sched_result_nodeclaim_count(sc.result), 1);
	const kp_sched_nodeclaim *n = kp_sched_result_nodeclaim_at(sc.result, 0);
	ck_assert_str_eq(n->nodepool, "np-primary");
	ck_assert_str_eq(h_req(n->nodeclaim, RID), "In r-small-instance-type");
	const kp_sched_placement *p = h_pod(&sc, "p2");
	ck_assert_uint_eq(p->target, KP_SCHED_UNPLACED);
	ck_assert_ptr_nonnull(h_reason(p, KP_REASON_RESERVED_OFFERING, "np-primary", NULL));
	/* fallback mode: the primary NodePool launches on-demand or spot */
	run(KP_RESERVED_OFFERING_FALLBACK);
	ck_assert_uint_eq(kp_sched_result_nodeclaim_count(sc.result), 2);
	n = h_pod_nc(&sc, "p2");
	ck_assert_str_eq(n->nodepool, "np-primary");
	ck_assert_str_eq(n->capacity_type, "spot");
}
END_TEST

START_TEST(strict_does_not_relax_preferences)
{
	/* "shouldn't relax preferences when a pod fails to schedule due to a
	 * reserved offering error": p1 takes np-1's reservation; p2 prefers
	 * np-1 (a weight 1 affinity, tried as required first): relaxed, it
	 * would go to np-2's own reservation; not relaxed, it waits */
	load(NODEPOOL("np-1") NODEPOOL("np-2")
		     "apiVersion: v1\nkind: Pod\nmetadata: {name: p1, namespace: default, uid: p1}\n"
		     "spec:\n  nodeSelector: {node.kubernetes.io/instance-type: small-instance-type, "
		     "karpenter.sh/nodepool: np-1}\n  containers:\n  - name: c\n    resources: "
		     "{requests: {cpu: \"2\"}}\n---\n"
		     "apiVersion: v1\nkind: Pod\nmetadata: {name: p2, namespace: default, uid: p2}\n"
		     "spec:\n  nodeSelector: {node.kubernetes.io/instance-type: small-instance-type}\n"
		     "  affinity: {nodeAffinity: {preferredDuringSchedulingIgnoredDuringExecution: "
		     "[{weight: 1, preference: {matchExpressions: [{key: karpenter.sh/nodepool, "
		     "operator: In, values: [np-1]}]}}]}}\n  containers:\n  - name: c\n    resources: "
		     "{requests: {cpu: \"200m\"}}\n---\n",
	     suite_catalog(NULL, 0));
	sc.per_pool[1] = small_catalog("r-distinct", 1, 1);
	run(KP_RESERVED_OFFERING_STRICT);
	ck_assert_uint_eq(h_pod(&sc, "p1")->target, KP_SCHED_NEW_NODECLAIM);
	const kp_sched_placement *p2 = h_pod(&sc, "p2");
	ck_assert_uint_eq(p2->target, KP_SCHED_UNPLACED);
	ck_assert_ptr_nonnull(h_reason(p2, KP_REASON_RESERVED_OFFERING, "np-1", NULL));
	ck_assert_uint_eq(kp_sched_result_nodeclaim_count(sc.result), 1);
	/* with the gate off the relaxed pod takes np-2 */
	run(KP_RESERVED_OFFERING_IGNORE);
	ck_assert_uint_eq(kp_sched_result_nodeclaim_count(sc.result), 2);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Fallback (consolidation) and the feature gate                       */

START_TEST(fallback_releases_reservations_when_requirements_narrow)
{
	/* the first pod reserves small and medium; the second narrows the
	 * NodeClaim to large (no reservation): it falls back and releases
	 * both, so nothing is reserved in the end */
	load(NODEPOOL("default") H_POD("p1", "1800m", "0") H_POD("p2", "1800m", "0")
		     H_POD("p3", "1800m", "0"), suite_catalog(NULL, 0));
	run(KP_RESERVED_OFFERING_FALLBACK);
	ck_assert_uint_eq(kp_sched_result_nodeclaim_count(sc.result), 1);
	const kp_sched_nodeclaim *n = kp_sched_result_nodeclaim_at(sc.result, 0);
	ck_assert_uint_eq(n->n_pods, 3);
	ck_assert_str_eq(n->instance_type, "large-instance-type");
	ck_assert_str_eq(n->capacity_type, "spot");
	ck_assert_str_eq(h_req(n->nodeclaim, KP_LABEL_CAPACITY_TYPE), "In on-demand,spot");
	ck_assert_ptr_null(h_req(n->nodeclaim, RID));
}
END_TEST

START_TEST(fallback_released_reservation_serves_the_next_nodeclaim)
{
	/* a reservation released by one NodeClaim is reserved by a later one:
	 * big (1800m) pods narrow the first NodeClaim to large; the small pod
	 * with anti-affinity then gets the small reservation */
	load(NODEPOOL("default") H_POD("a1", "1800m", "0") H_POD("a2", "1800m", "0")
		     ANTI_POD("q1", "100m", "node.kubernetes.io/instance-type: small-instance-type")
		     ANTI_POD("q2", "100m", "node.kubernetes.io/instance-type: small-instance-type"),
	     suite_catalog(NULL, 0));
	run(KP_RESERVED_OFFERING_FALLBACK);
	const kp_sched_nodeclaim *a = h_pod_nc(&sc, "a1");
	ck_assert_ptr_eq(a, h_pod_nc(&sc, "a2"));
	ck_assert_ptr_null(h_req(a->nodeclaim, RID));
	const kp_sched_nodeclaim *q1 = h_pod_nc(&sc, "q1"), *q2 = h_pod_nc(&sc, "q2");
	ck_assert_ptr_nonnull(q1);
	ck_assert_ptr_nonnull(q2);
	ck_assert_ptr_ne(q1, q2);
	/* exactly one of them holds the single small reservation */
	int reserved = !strcmp(q1->capacity_type, "reserved") + !strcmp(q2->capacity_type, "reserved");
	ck_assert_int_eq(reserved, 1);
	const kp_sched_nodeclaim *r = !strcmp(q1->capacity_type, "reserved") ? q1 : q2;
	ck_assert_str_eq(h_req(r->nodeclaim, RID), "In r-small-instance-type");
}
END_TEST

START_TEST(ignore_mode_uses_reserved_offerings_like_others)
{
	/* ReservedCapacity=false: no counting, no reservation requirement;
	 * every NodeClaim launches the cheapest offering, the reserved one */
	load_two_small_reservations();
	run(KP_RESERVED_OFFERING_IGNORE);
	ck_assert_uint_eq(kp_sched_result_nodeclaim_count(sc.result), 4);
	for (size_t i = 0; i < 4; i++) {
		const kp_sched_nodeclaim *n = kp_sched_result_nodeclaim_at(sc.result, i);
		ck_assert_str_eq(n->capacity_type, "reserved");
		ck_assert_str_eq(h_req(n->nodeclaim, KP_LABEL_CAPACITY_TYPE),
				 "In on-demand,reserved,spot");
		ck_assert_ptr_null(h_req(n->nodeclaim, RID));
	}
}
END_TEST

START_TEST(smallest_capacity_wins_across_catalogues)
{
	/* two NodePools see the same reservation with different counts:
	 * upstream keeps the smallest (here 1), so one NodeClaim holds it */
	load(NODEPOOL("np-1") NODEPOOL("np-2")
		     ANTI_POD("p1", "100m", "node.kubernetes.io/instance-type: small-instance-type")
		     ANTI_POD("p2", "100m", "node.kubernetes.io/instance-type: small-instance-type"),
	     suite_catalog(NULL, 0));
	sc.per_pool[1] = small_catalog("r-small-instance-type", 3, 1);
	run(KP_RESERVED_OFFERING_STRICT);
	ck_assert_uint_eq(kp_sched_result_nodeclaim_count(sc.result), 1);
	ck_assert_uint_eq(h_count(&sc, KP_SCHED_UNPLACED), 1);
}
END_TEST

START_TEST(pod_selecting_a_reservation)
{
	/* pods selecting one reservation ID: only that reserved offering is
	 * compatible (the offerings' ID requirement is checked against the
	 * pod's, not just their zone and capacity type), so p1's NodeClaim
	 * leaves r-small-instance-type to p2's */
	load(NODEPOOL("default")
		     "apiVersion: v1\nkind: Pod\nmetadata: {name: p1, namespace: default, uid: p1}\n"
		     "spec:\n  nodeSelector: {" RID ": r-medium-instance-type}\n  containers:\n"
		     "  - name: c\n    resources: {requests: {cpu: \"1\"}}\n---\n"
		     "apiVersion: v1\nkind: Pod\nmetadata: {name: p2, namespace: default, uid: p2}\n"
		     "spec:\n  nodeSelector: {" RID ": r-small-instance-type}\n  containers:\n"
		     "  - name: c\n    resources: {requests: {cpu: \"1\"}}\n---\n",
	     suite_catalog(NULL, 0));
	run(KP_RESERVED_OFFERING_STRICT);
	ck_assert_uint_eq(kp_sched_result_nodeclaim_count(sc.result), 2);
	const kp_sched_nodeclaim *m = h_pod_nc(&sc, "p2");
	ck_assert_ptr_nonnull(m);
	ck_assert_str_eq(m->instance_type, "small-instance-type");
	ck_assert_str_eq(m->capacity_type, "reserved");
	ck_assert_str_eq(h_req(m->nodeclaim, RID), "In r-small-instance-type");
	const kp_sched_nodeclaim *n = h_pod_nc(&sc, "p1");
	ck_assert_str_eq(n->instance_type, "medium-instance-type");
	ck_assert_str_eq(n->capacity_type, "reserved");
	ck_assert_str_eq(h_req(n->nodeclaim, RID), "In r-medium-instance-type");
	ck_assert_str_eq(h_req(n->nodeclaim, KP_LABEL_CAPACITY_TYPE), "In reserved");
}
END_TEST

START_TEST(describe_lists_reservations)
{
	h_resv extra[] = { { "r-small-instance-type-2", 2, 1 } };
	load(NODEPOOL("default") H_POD("p1", "1", "0"), suite_catalog(extra, 1));
	kp_error err = KP_ERROR_INIT;
	ck_assert_int_eq(h_build(&sc, &err), KP_OK);
	char *text = NULL;
	ck_assert_int_eq(kp_cluster_describe(&text, sc.cluster, &err), KP_OK);
	ck_assert_msg(strstr(text, "reservations (instances left):\n"
				   "  r-medium-instance-type: 1, label " RID "\n"
				   "  r-small-instance-type: 1, label " RID "\n"
				   "  r-small-instance-type-2: 2, label " RID "\n") != NULL,
		      "%s", text);
	kp_cluster_description_free(text);
}
END_TEST

START_TEST(rejects_unknown_mode)
{
	load(NODEPOOL("default") H_POD("p1", "1", "0"), suite_catalog(NULL, 0));
	kp_error err = KP_ERROR_INIT;
	ck_assert_int_eq(h_build(&sc, &err), KP_OK);
	kp_sched_options o = KP_SCHED_OPTIONS_INIT;
	o.reserved_offering_mode = 3;
	ck_assert_int_eq(kp_sched_simulate(&sc.result, sc.cluster, &o, &err), KP_EINVAL);
	ck_assert_str_eq(err.field, "reserved_offering_mode");
	ck_assert_str_eq(err.message, "unknown reserved_offering_mode 3");
	ck_assert_ptr_null(sc.result);
}
END_TEST

static Suite *reserved_suite(void)
{
	Suite *s = suite_create("scheduler_reserved");
	TCase *tc = tcase_create("reserved");
	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_add_test(tc, strict_no_fallback_while_reserved_offerings_are_compatible);
	tcase_add_test(tc, strict_exhausted_reservations_fall_back);
	tcase_add_test(tc, strict_available_but_empty_reservation_blocks);
	tcase_add_test(tc, strict_shared_reservation_across_nodepools);
	tcase_add_test(tc, strict_distinct_reservations_per_nodepool);
	tcase_add_test(tc, strict_multiple_reservations_same_pool);
	tcase_add_test(tc, strict_no_fallback_to_lower_weight_nodepool);
	tcase_add_test(tc, strict_does_not_relax_preferences);
	tcase_add_test(tc, fallback_releases_reservations_when_requirements_narrow);
	tcase_add_test(tc, fallback_released_reservation_serves_the_next_nodeclaim);
	tcase_add_test(tc, ignore_mode_uses_reserved_offerings_like_others);
	tcase_add_test(tc, smallest_capacity_wins_across_catalogues);
	tcase_add_test(tc, pod_selecting_a_reservation);
	tcase_add_test(tc, describe_lists_reservations);
	tcase_add_test(tc, rejects_unknown_mode);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	Suite *suites[] = { reserved_suite() };
	return kp_test_run(suites, (int)(sizeof(suites) / sizeof(suites[0])));
}
