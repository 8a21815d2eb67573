/*
 * Which topology groups select each pod class (kp__topo_build) comes from
 * an index of the groups by the labels they select, with each selector
 * validated once. Property: the index gives exactly the groups a
 * brute-force scan with kp_label_selector_matches gives (namespace and
 * selector), on random clusters and on one where every pod has a pod
 * affinity group of its own (the quadratic case of issue 11). White-box.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <karpenter/karpenter.h>

#include "kp_test.h"
#include "sched_gen.h"
#include "sched_harness.h"
#include "scheduling/sched_private.h"

static int has_ns(const sc_group *g, uint32_t ns)
{
	for (size_t i = 0; i < g->n_namespaces; i++)
		if (g->namespaces[i] == ns)
			return 1;
	return 0;
}

/* Compare every class's sel_groups with a scan of every group; returns
 * how many (class, group) selections there are. */
static size_t check_against_scan(const struct kp_cluster *c, const char *what)
{
	size_t total = 0;
	for (size_t k = 0; k < c->n_classes; k++) {
		const sc_class *cls = &c->classes[k];
		const kp_labels *labels = cls->rep->metadata ? &cls->rep->metadata->labels : NULL;
		size_t n = 0;
		for (size_t g = 0; g < c->topo.n_groups; g++) {
			const sc_group *grp = &c->topo.groups[g];
			if (!grp->selector || !has_ns(grp, cls->ns) ||
			    !kp_label_selector_matches(grp->selector, labels))
				continue;
			ck_assert_msg(n < cls->n_sel_groups && cls->sel_groups[n] == g,
				      "%s: class %zu: group %zu selects it but is not listed", what, k, g);
			n++;
		}
		ck_assert_msg(n == cls->n_sel_groups, "%s: class %zu: %zu groups listed, %zu select it",
			      what, k, cls->n_sel_groups, n);
		total += n;
	}
	return total;
}

START_TEST(index_matches_scan_on_random_clusters)
{
	size_t total = 0;
	for (uint64_t seed = 1; seed <= 200; seed++) {
		g_cluster gc;
		g_cluster_make(&gc, seed);
		char *yaml = g_cluster_yaml(&gc);
		h_scenario sc;
		h_load(&sc, yaml, NULL);
		free(yaml);
		kp_error e = KP_ERROR_INIT;
		ck_assert_msg(h_build(&sc, &e) == KP_OK, "seed %llu: %s", (unsigned long long)seed,
			      e.message);
		char what[32];
		snprintf(what, sizeof(what), "seed %llu", (unsigned long long)seed);
		total += check_against_scan(sc.cluster, what);
		h_free(&sc);
		g_cluster_free(&gc);
	}
	ck_assert_msg(total >= 200, "only %zu selections in 200 clusters", total);
}
END_TEST

#define NODEPOOL                                                                                   \
	"apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: default}\nspec:\n"            \
	"  template:\n    spec:\n      nodeClassRef: {group: karpenter.kwok.sh, kind: "             \
	"KWOKNodeClass, name: default}\n      requirements: []\n---\n"

/* N pods, each with a pod affinity term of its own (app=pod-i, by
 * matchLabels, by an In expression, or by an In listing its value twice),
 * plus groups the index cannot key: NotIn, Exists, an empty selector, and
 * an invalid selector (selects nothing), and one in another namespace. */
START_TEST(one_affinity_group_per_pod)
{
	enum { N = 3000 };
	size_t cap = 2048 + (size_t)N * 600, len = 0;
	char *yaml = malloc(cap);
	ck_assert_ptr_nonnull(yaml);
	len += (size_t)snprintf(yaml + len, cap - len, "%s", NODEPOOL);
	for (int i = 0; i < N; i++) {
		const char *ns = i == 7 ? "other" : "default";
		char sel[160];
		switch (i % 7) {
		case 0:
			snprintf(sel, sizeof(sel), "{matchLabels: {app: pod-%d}}", i);
			break;
		case 1:
			snprintf(sel, sizeof(sel),
				 "{matchExpressions: [{key: app, operator: In, values: [pod-%d, pod-%d]}]}",
				 i, i);
			break;
		case 2:
			snprintf(sel, sizeof(sel),
				 "{matchExpressions: [{key: app, operator: In, values: [pod-%d, pod-%d]}]}",
				 i, i + 1);
			break;
		case 3:
			snprintf(sel, sizeof(sel),
				 "{matchExpressions: [{key: tier, operator: NotIn, values: [db]}]}");
			break;
		case 4:
			snprintf(sel, sizeof(sel), "{matchExpressions: [{key: tier, operator: Exists}]}");
			break;
		case 5:
			snprintf(sel, sizeof(sel), "{}");
			break;
		default:
			/* invalid (Exists takes no values), but it would match
			 * its pod if it were not validated */
			snprintf(sel, sizeof(sel),
				 "{matchLabels: {app: pod-%d}, matchExpressions: [{key: tier, "
				 "operator: Exists, values: [web]}]}",
				 i);
			break;
		}
		len += (size_t)snprintf(
			yaml + len, cap - len,
			"apiVersion: v1\nkind: Pod\nmetadata: {name: pod-%d, namespace: %s, uid: pod-%d, "
			"labels: {app: pod-%d, tier: %s}}\nspec:\n  containers:\n  - name: c\n"
			"    resources: {requests: {cpu: \"10m\", memory: \"16Mi\"}}\n"
			"  affinity:\n    podAffinity:\n      requiredDuringSchedulingIgnoredDuringExecution:\n"
			"      - {topologyKey: topology.kubernetes.io/zone, labelSelector: %s}\n---\n",
			i, ns, i, i, i % 2 ? "web" : "db", sel);
		ck_assert_uint_lt(len, cap);
	}
	h_scenario sc;
	h_load(&sc, yaml, NULL);
	free(yaml);
	kp_error e = KP_ERROR_INIT;
	ck_assert_msg(h_build(&sc, &e) == KP_OK, "%s", e.message);
	const struct kp_cluster *c = sc.cluster;
	ck_assert_uint_eq(c->n_classes, N);
	size_t total = check_against_scan(c, "per-pod groups");
	/* every group with a selector that passes validation selects its own pod
	 * at least; the broad ones select about half the pods or all of them */
	ck_assert_uint_gt(total, (size_t)N);
	size_t invalid = 0;
	for (size_t g = 0; g < c->topo.n_groups; g++)
		invalid += !c->topo.groups[g].selector_ok;
	ck_assert_uint_gt(invalid, 0);
	h_free(&sc);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("topology selectors");
	TCase *tc = tcase_create("index");
	tcase_add_test(tc, index_matches_scan_on_random_clusters);
	tcase_add_test(tc, one_affinity_group_per_pod);
	tcase_set_timeout(tc, 300);
	suite_add_tcase(s, tc);
	return kp_test_run(&s, 1);
}
