/*
 * The scheduling simulation on the KWOK provider's built-in catalogue (the
 * offline default), with a scenario fixture (scenarios/kwok-shop.yaml):
 * placements, NodeClaim shapes, launch choices and reasons asserted.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <karpenter/kwok.h>

#include "sched_harness.h"

static h_scenario sc;

static void setup(void)
{
	kp_instance_types *its = NULL;
	kp_error err = KP_ERROR_INIT;
	ck_assert_int_eq(kp_kwok_catalog_builtin(&its, &err), KP_OK);
	h_load_file(&sc, "kwok-shop.yaml", its);
	ck_assert_int_eq(kp_wellknown_new(&sc.wk, &err), KP_OK);
	ck_assert_int_eq(kp_kwok_wellknown_add(sc.wk, its, &err), KP_OK);
}

static void teardown(void)
{
	kp_wellknown *wk = sc.wk;
	h_free(&sc);
	kp_wellknown_free(wk);
}

START_TEST(shop)
{
	h_run(&sc, NULL);
	ck_assert_uint_eq(kp_sched_result_pod_count(sc.result), 7);
	/* the existing node takes what fits first: the largest pod first in
	 * queue order is batch-1 (3 cpu, does not fit 2), then a cache pod */
	const kp_sched_placement *c1 = h_pod(&sc, "shop/cache-1");
	const kp_sched_placement *c2 = h_pod(&sc, "shop/cache-2");
	ck_assert_uint_eq(c1->target, KP_SCHED_EXISTING_NODE);
	ck_assert_str_eq(c1->node, "existing-1");
	/* anti-affinity keeps the second cache pod off that node */
	ck_assert_uint_eq(c2->target, KP_SCHED_NEW_NODECLAIM);
	/* batch goes to the tainted spot pool */
	const kp_sched_nodeclaim *b = h_pod_nc(&sc, "jobs/batch-1");
	ck_assert_ptr_nonnull(b);
	ck_assert_str_eq(b->nodepool, "spot");
	ck_assert_str_eq(b->capacity_type, "spot");
	ck_assert_uint_eq(b->nodeclaim->spec->n_taints, 1);
	/* web pods spread over zones; general is on-demand amd64 */
	const char *zones[3];
	for (int i = 0; i < 3; i++) {
		char name[32];
		snprintf(name, sizeof(name), "shop/web-%d", i + 1);
		const kp_sched_placement *p = h_pod(&sc, name);
		ck_assert_msg(p->target != KP_SCHED_UNPLACED, "%s", name);
		if (p->target == KP_SCHED_EXISTING_NODE) {
			zones[i] = "test-zone-a";
		} else {
			const kp_sched_nodeclaim *n = kp_sched_result_nodeclaim_at(sc.result, p->nodeclaim_index);
			ck_assert_str_eq(n->nodepool, "general");
			ck_assert_str_eq(n->capacity_type, "on-demand");
			ck_assert_str_eq(h_label(n->nodeclaim, "team"), "shop");
			char want[64];
			snprintf(want, sizeof(want), "In %s", n->zone);
			ck_assert_str_eq(h_req(n->nodeclaim, KP_LABEL_TOPOLOGY_ZONE), want);
			zones[i] = n->zone;
		}
	}
	ck_assert_str_ne(zones[0], zones[1]);
	ck_assert_str_ne(zones[1], zones[2]);
	ck_assert_str_ne(zones[0], zones[2]);
	/* every new NodeClaim launches its cheapest option */
	for (size_t i = 0; i < kp_sched_result_nodeclaim_count(sc.result); i++) {
		const kp_sched_nodeclaim *n = kp_sched_result_nodeclaim_at(sc.result, i);
		ck_assert_ptr_nonnull(n->instance_type);
		ck_assert(n->price > 0);
		ck_assert_str_eq(h_annotation(n->nodeclaim, KP_ANNOTATION_NODEPOOL_HASH_VERSION), "v3");
		ck_assert_str_eq(h_req(n->nodeclaim, KP_LABEL_OS), "In linux");
	}
	/* the huge pod: one reason per NodePool and one for the node */
	const kp_sched_placement *h = h_pod(&sc, "jobs/huge");
	ck_assert_uint_eq(h->target, KP_SCHED_UNPLACED);
	ck_assert_ptr_nonnull(h_reason(h, KP_REASON_RESOURCES, NULL, "existing-1"));
	ck_assert_ptr_nonnull(h_reason(h, KP_REASON_RESOURCES, "general", NULL));
	ck_assert_ptr_nonnull(h_reason(h, KP_REASON_TAINTS, "spot", NULL));
	ck_assert_uint_eq(h->n_reasons, 3);
	/* the pools' reasons come in weight order: general (10), then spot */
	size_t gi = SIZE_MAX, si = SIZE_MAX;
	for (size_t i = 0; i < h->n_reasons; i++) {
		if (h->reasons[i]->nodepool && !strcmp(h->reasons[i]->nodepool, "general"))
			gi = i;
		if (h->reasons[i]->nodepool && !strcmp(h->reasons[i]->nodepool, "spot"))
			si = i;
	}
	ck_assert_uint_lt(gi, si);
}
END_TEST

START_TEST(kwok_labels_are_well_known)
{
	/* a pod may select the KWOK instance labels: they are well-known with
	 * the provider's rules, undefined on the template but allowed */
	h_run(&sc, NULL);
	kp_cluster_free(sc.cluster);
	sc.cluster = NULL;
	kp_decode_result *extra = NULL;
	const char *yaml =
		"apiVersion: v1\nkind: Pod\nmetadata: {name: family, namespace: shop, uid: family}\nspec:\n"
		"  nodeSelector: {karpenter.kwok.sh/instance-family: m}\n"
		"  containers: [{name: c, resources: {requests: {cpu: 100m}}}]\n";
	ck_assert_int_eq(kp_decode(&extra, yaml, strlen(yaml), NULL, NULL), KP_OK);
	sc.pods[sc.n_pods++] = kp_decode_result_at(extra, 0)->object;
	h_run(&sc, NULL);
	const kp_sched_nodeclaim *n = h_pod_nc(&sc, "shop/family");
	if (!n) {
		/* it may share a NodeClaim opened for another pod: then that
		 * NodeClaim is an m family one */
		const kp_sched_placement *p = h_pod(&sc, "shop/family");
		ck_assert_uint_ne(p->target, KP_SCHED_UNPLACED);
	} else {
		ck_assert_str_eq(h_req(n->nodeclaim, "karpenter.kwok.sh/instance-family"), "In m");
		ck_assert_uint_eq(n->instance_type[0], 'm');
	}
	sc.n_pods--;
	kp_sched_result_free(sc.result);
	sc.result = NULL;
	kp_decode_result_free(extra);
}
END_TEST

static Suite *kwok_suite(void)
{
	Suite *s = suite_create("scheduler-kwok");
	TCase *tc = tcase_create("kwok");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, shop);
	tcase_add_test(tc, kwok_labels_are_well_known);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	Suite *suites[] = { kwok_suite() };
	return kp_test_run(suites, (int)(sizeof(suites) / sizeof(suites[0])));
}
