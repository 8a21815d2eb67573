/*
 * The in-flight order (simulate.c): one list per pod count, the non-empty
 * lists chained by count ascending. After every change it must equal what
 * upstream gets by sorting all the NodeClaims stably by pod count (the
 * simulation keeps that sorted array too in this test mode); after a
 * simulation, walking it must give every NodeClaim exactly once, with pod
 * counts ascending, each in the list of its own count, ranks ascending
 * inside a list and consistent links both ways. White-box, on generated
 * clusters and on one with hundreds of NodeClaims.
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

#define NONE UINT32_MAX

/* Runs the simulation and checks the order; returns the NodeClaim count. */
static size_t check_order(const kp_cluster *cluster, const char *what)
{
	kp_sched_options o = KP_SCHED_OPTIONS_INIT;
	kp_error e = KP_ERROR_INIT;
	sc_sim *s = calloc(1, sizeof(*s));
	ck_assert_ptr_nonnull(s);
	s->c = cluster;
	s->max_its = KP_SCHED_DEFAULT_MAX_INSTANCE_TYPES;
	s->verify_order = 1;
	ck_assert_msg(kp__sched_run(s, &o, &e) == KP_OK, "%s: %s", what, e.message);
	/* the lists agree with upstream's stable sort after every change */
	ck_assert_msg(s->order_mismatched == 0, "%s: %zu of %zu orders differ from the stable sort",
		      what, s->order_mismatched, s->order_checked);
	ck_assert_uint_ge(s->order_checked, s->n_ncs);
	uint8_t *seen = calloc(s->n_ncs + 1, 1);
	ck_assert_ptr_nonnull(seen);
	size_t n = 0;
	uint32_t prev_cnt = NONE;
	for (uint32_t k = s->ofirst; k != NONE; k = s->olists[k].next) {
		const struct sc_order_list *l = &s->olists[k];
		ck_assert_msg(prev_cnt == NONE || k > prev_cnt, "%s: counts %u then %u", what, prev_cnt, k);
		ck_assert_msg(l->prev == prev_cnt, "%s: count %u: back link %u, expected %u", what, k,
			      l->prev, prev_cnt);
		ck_assert_msg(l->head != NONE, "%s: count %u chained but empty", what, k);
		uint32_t before = NONE;
		for (uint32_t id = l->head; id != NONE; id = s->ncs[id]->onext) {
			const sc_nc *nc = s->ncs[id];
			ck_assert_msg(id < s->n_ncs && !seen[id], "%s: NodeClaim %u twice", what, id);
			seen[id] = 1;
			ck_assert_msg(nc->n_pods == k, "%s: NodeClaim %u has %zu pods in list %u", what, id,
				      nc->n_pods, k);
			ck_assert_uint_eq(nc->oprev, before);
			ck_assert_msg(before == NONE || s->ncs[before]->oseq < nc->oseq,
				      "%s: ranks not ascending in list %u", what, k);
			ck_assert_msg(nc->oseq >= l->front && nc->oseq < l->back,
				      "%s: rank outside the list's range", what);
			before = id;
			n++;
		}
		ck_assert_uint_eq(l->tail, before);
		prev_cnt = k;
	}
	ck_assert_msg(n == s->n_ncs, "%s: %zu NodeClaims in order, %zu open", what, n, s->n_ncs);
	free(seen);
	kp__sched_porders_free(s);
	kp__sched_sim_free(s);
	return n;
}

START_TEST(order_on_generated_clusters)
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
		total += check_order(sc.cluster, what);
		h_free(&sc);
		g_cluster_free(&gc);
	}
	ck_assert_msg(total >= 200, "only %zu NodeClaims in 200 clusters", total);
}
END_TEST

#define NODEPOOL                                                                                   \
	"apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: default}\nspec:\n"            \
	"  template:\n    spec:\n      nodeClassRef: {group: karpenter.kwok.sh, kind: "             \
	"KWOKNodeClass, name: default}\n      requirements: []\n---\n"

/* 1,200 pods of mixed sizes, a third with hostname anti-affinity: many
 * NodeClaims with many different pod counts. */
START_TEST(order_with_many_nodeclaims)
{
	enum { N = 1200 };
	static const char *cpu[] = { "100m", "250m", "500m", "1", "1500m" };
	static const char *mem[] = { "128Mi", "512Mi", "1Gi", "2Gi" };
	size_t cap = 1024 + (size_t)N * 600, len = 0;
	char *yaml = malloc(cap);
	ck_assert_ptr_nonnull(yaml);
	len += (size_t)snprintf(yaml + len, cap - len, "%s", NODEPOOL);
	for (int i = 0; i < N; i++) {
		int anti = i % 3 == 0;
		len += (size_t)snprintf(
			yaml + len, cap - len,
			"apiVersion: v1\nkind: Pod\nmetadata: {name: p%d, namespace: default, uid: p%d, "
			"labels: {app: %s}}\nspec:\n  containers:\n  - name: c\n    resources: {requests: "
			"{cpu: \"%s\", memory: \"%s\"}}\n%s---\n",
			i, i, anti ? "solo" : "any", cpu[i % 5], mem[(i / 5) % 4],
			anti ? "  affinity:\n    podAntiAffinity:\n      "
			       "requiredDuringSchedulingIgnoredDuringExecution:\n      - {topologyKey: "
			       "kubernetes.io/hostname, labelSelector: {matchLabels: {app: solo}}}\n"
			     : "");
		ck_assert_uint_lt(len, cap);
	}
	h_scenario sc;
	h_load(&sc, yaml, NULL);
	free(yaml);
	kp_error e = KP_ERROR_INIT;
	ck_assert_msg(h_build(&sc, &e) == KP_OK, "%s", e.message);
	/* every anti-affinity pod needs a NodeClaim of its own */
	ck_assert_uint_ge(check_order(sc.cluster, "mixed"), N / 3);
	h_free(&sc);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("inflight order");
	TCase *tc = tcase_create("order");
	tcase_add_test(tc, order_on_generated_clusters);
	tcase_add_test(tc, order_with_many_nodeclaims);
	tcase_set_timeout(tc, 300);
	suite_add_tcase(s, tc);
	return kp_test_run(&s, 1);
}
