/*
 * The topology quick reject (kp__topo_quick_reject) is a second, partial
 * copy of the topology rules, used to skip the full check in the in-flight
 * scan, with promises ("fails forever", "fails until an affinity domain
 * gets a pod") that the scan memoises. Property: over random clusters,
 * every quick rejection is confirmed by the full check at that moment
 * (white-box: the simulation runs with verify_quick). The clusters come
 * from the document-shuffle test's generator (sched_gen.c).
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdio.h>
#include <stdlib.h>

#include <karpenter/karpenter.h>

#include "kp_test.h"
#include "sched_gen.h"
#include "sched_harness.h"
#include "scheduling/sched_private.h"

#define N_CLUSTERS 400

START_TEST(quick_rejections_are_confirmed)
{
	size_t checked = 0, contradicted = 0;
	for (uint64_t seed = 1; seed <= N_CLUSTERS; seed++) {
		g_cluster gc;
		g_cluster_make(&gc, seed);
		char *yaml = g_cluster_yaml(&gc);
		h_scenario sc;
		h_load(&sc, yaml, NULL);
		free(yaml);
		kp_error e = KP_ERROR_INIT;
		ck_assert_msg(h_build(&sc, &e) == KP_OK, "seed %llu: %s", (unsigned long long)seed,
			      e.message);
		size_t c = 0, x = 0;
		ck_assert_int_eq(kp__sched_simulate_verify(sc.cluster, &c, &x, &e), KP_OK);
		ck_assert_msg(x == 0, "seed %llu: %zu of %zu quick rejections contradicted by the full check",
			      (unsigned long long)seed, x, c);
		checked += c;
		contradicted += x;
		h_free(&sc);
		g_cluster_free(&gc);
	}
	/* The property is not vacuous: the generator's topology makes the
	 * quick check reject often. */
	ck_assert_msg(checked >= 250, "only %zu quick rejections in %d clusters", checked, N_CLUSTERS);
	ck_assert_uint_eq(contradicted, 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("topology quick reject");
	TCase *tc = tcase_create("property");
	tcase_add_test(tc, quick_rejections_are_confirmed);
	tcase_set_timeout(tc, 120);
	suite_add_tcase(s, tc);
	return kp_test_run(&s, 1);
}
