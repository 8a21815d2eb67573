/*
 * Property tests over random clusters (seeded, deterministic): whatever the
 * cluster, no first-pass command exceeds its NodePool's budget, no command
 * of the graceful class touches a node blocked by do-not-disrupt or a
 * PodDisruptionBudget, no command leaves a candidate's pod unplaced, every
 * consolidation replacement is strictly cheaper, and the same input gives
 * the same commands.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdio.h>
#include <string.h>

#include "disruption_harness.h"
#include "kp_test.h"

#define NOW "2025-01-02T00:00:00Z"
#define INIT "2025-01-01T00:00:00Z"
#define ROUNDS 25

static uint64_t rng_state;
static unsigned rnd(unsigned n)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return (unsigned)((z ^ (z >> 31)) % n);
}

static const char *const types[] = { "c-2x-amd64-linux", "c-4x-amd64-linux", "c-8x-amd64-linux",
				     "m-4x-amd64-linux" };
static const char *const budgets[] = { "0", "1", "2", "50%", "100%" };

static dh *random_cluster(uint64_t seed)
{
	rng_state = seed;
	dh *h = dh_new();
	dh_nodepool(h, "default", "on-demand", rnd(4) ? "WhenEmptyOrUnderutilized" : "WhenEmpty", "0s",
		    budgets[rnd(5)]);
	unsigned n = 3 + rnd(8);
	for (unsigned i = 0; i < n; i++) {
		char name[16];
		snprintf(name, sizeof(name), "n%02u", i);
		const char *type = types[rnd(4)];
		int cpus = type[2] - '0';
		dh_node(h, name, "default", type, rnd(2) ? "test-zone-a" : "test-zone-b", "on-demand", INIT,
			rnd(5) ? "" : "  annotations: {karpenter.sh/nodepool-hash: \"1\", karpenter.sh/nodepool-hash-version: v3}",
			rnd(12) ? "" : "  annotations: {karpenter.sh/do-not-disrupt: \"true\"}");
		unsigned pods = rnd(4);
		for (unsigned p = 0; p < pods; p++) {
			char pod[24], cpu[16];
			snprintf(pod, sizeof(pod), "p%02u-%u", i, p);
			snprintf(cpu, sizeof(cpu), "%um", 100 + rnd((unsigned)cpus * 250));
			unsigned kind = rnd(10);
			dh_pod(h, "app", pod, name, cpu,
			       kind == 0 ? "  annotations: {karpenter.sh/do-not-disrupt: \"true\"}"
			       : kind == 1 ? "  labels: {app: guarded}" : "  labels: {app: free}");
		}
	}
	dh_add(h, "apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: guard, namespace: app}\n"
		  "spec: {maxUnavailable: 0, selector: {matchLabels: {app: guarded}}}\nstatus: {disruptionsAllowed: 0}\n");
	return h;
}

static int blocked(const kp_disruption_node *n)
{
	for (size_t i = 0; i < n->n_reasons; i++) {
		uint32_t c = n->reasons[i]->code;
		if (c == KP_BLOCK_DO_NOT_DISRUPT || c == KP_BLOCK_PDB)
			return 1;
	}
	return 0;
}

static int64_t remaining(const kp_disruption_result *r, const char *reason)
{
	for (size_t i = 0; i < kp_disruption_result_budget_count(r); i++) {
		const kp_disruption_budget_status *b = kp_disruption_result_budget_at(r, i);
		if (!strcmp(b->reason, reason))
			return b->remaining;
	}
	return -1;
}

static void check_result(const kp_disruption_result *r, uint64_t seed)
{
	for (size_t i = 0; i < kp_disruption_result_command_count(r); i++) {
		const kp_disruption_command *c = kp_disruption_result_command_at(r, i);
		if (c->pass == 1)
			ck_assert_msg((int64_t)c->n_candidates <= remaining(r, c->reason),
				      "seed %llu: %zu candidates for a budget of %lld", (unsigned long long)seed,
				      c->n_candidates, (long long)remaining(r, c->reason));
		int graceful = c->method != KP_DISRUPTION_METHOD_DRIFT;
		for (size_t k = 0; k < c->n_candidates; k++) {
			const kp_disruption_node *n = dh_find(r, c->candidates[k]->node);
			ck_assert_ptr_nonnull(n);
			ck_assert_msg(!blocked(n), "seed %llu: pass %u %s disrupts blocked node %s",
				      (unsigned long long)seed, c->pass, kp_disruption_method_name(c->method),
				      c->candidates[k]->node);
			(void)graceful;
		}
		for (size_t m = 0; m < c->n_moves; m++)
			ck_assert_msg(c->moves[m]->node || c->moves[m]->nodeclaim,
				      "seed %llu: pod %s left unplaced", (unsigned long long)seed, c->moves[m]->name);
		if (c->decision == KP_DISRUPTION_REPLACE && c->method != KP_DISRUPTION_METHOD_DRIFT)
			ck_assert_msg(c->savings > 0, "seed %llu: a replace that saves %f",
				      (unsigned long long)seed, c->savings);
	}
}

START_TEST(random_clusters)
{
	size_t commands = 0, n_blocked = 0, replaces = 0;
	for (uint64_t seed = 1; seed <= ROUNDS; seed++) {
		dh *a = random_cluster(seed), *b = random_cluster(seed);
		const kp_disruption_result *ra = dh_run(a, NOW, 0, 0);
		check_result(ra, seed);
		const kp_disruption_result *rc = dh_run(b, NOW, KP_DISRUPTION_F_CONVERGE, 0);
		check_result(rc, seed);
		commands += kp_disruption_result_command_count(rc);
		for (size_t i = 0; i < kp_disruption_result_node_count(rc); i++)
			n_blocked += blocked(kp_disruption_result_node_at(rc, i));
		for (size_t i = 0; i < kp_disruption_result_command_count(rc); i++)
			replaces += kp_disruption_result_command_at(rc, i)->decision == KP_DISRUPTION_REPLACE;
		/* the first pass is the same whether or not more passes follow */
		if (kp_disruption_result_command_count(ra)) {
			const kp_disruption_command *x = kp_disruption_result_command_at(ra, 0),
						    *y = kp_disruption_result_command_at(rc, 0);
			ck_assert_uint_eq(x->method, y->method);
			ck_assert_uint_eq(x->n_candidates, y->n_candidates);
			for (size_t k = 0; k < x->n_candidates; k++)
				ck_assert_str_eq(x->candidates[k]->node, y->candidates[k]->node);
		} else {
			ck_assert_uint_eq(kp_disruption_result_command_count(rc), 0);
		}
		dh_free(a);
		dh_free(b);
	}
	/* the properties were exercised, not vacuous */
	fprintf(stderr, "# %zu commands, %zu replaces, %zu blocked nodes\n", commands, replaces, n_blocked);
	ck_assert_uint_gt(commands, ROUNDS);
	ck_assert_uint_gt(n_blocked, 5);
	ck_assert_uint_gt(replaces, 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("disruption-properties");
	TCase *tc = tcase_create("properties");
	tcase_set_timeout(tc, 240);
	tcase_add_test(tc, random_clusters);
	suite_add_tcase(s, tc);
	return kp_test_run(&s, 1);
}
