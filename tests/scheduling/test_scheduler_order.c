/*
 * Property tests of the scheduling simulation on random valid clusters
 * (sched_gen.c): the order of the input documents decides nothing (the
 * same placements, NodeClaims with their types and zones, cost and
 * reasons after shuffling), and new NodeClaims never take the name of a
 * Node or NodeClaim of the input.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched_gen.h"
#include "sched_harness.h"

#define N_CLUSTERS 400
#define N_BATCHES 8 /* clusters per test: N_CLUSTERS / N_BATCHES (fewer forks) */
#define N_SHUFFLES 3

typedef struct strbuf {
	char *s;
	size_t len, cap;
} strbuf;

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void sb_printf(strbuf *b, const char *fmt, ...)
{
	va_list ap, ap2;
	va_start(ap, fmt);
	va_copy(ap2, ap);
	int n = vsnprintf(NULL, 0, fmt, ap2);
	va_end(ap2);
	ck_assert_int_ge(n, 0);
	if (b->len + (size_t)n + 1 > b->cap) {
		b->cap = (b->len + (size_t)n + 1) * 2;
		b->s = realloc(b->s, b->cap);
		ck_assert_ptr_nonnull(b->s);
	}
	vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Everything the simulation decided, independent of the pods' input order:
 * the NodeClaims in creation order (whole objects, type, zone, capacity
 * type, price), the cost, then one line per pod (sorted) with its target,
 * node or NodeClaim and its reasons in order. */
static char *decisions(const kp_sched_result *r)
{
	strbuf out = { 0 };
	for (size_t i = 0; i < kp_sched_result_nodeclaim_count(r); i++) {
		const kp_sched_nodeclaim *n = kp_sched_result_nodeclaim_at(r, i);
		char *enc = NULL;
		size_t elen = 0;
		ck_assert_int_eq(kp_encode(&enc, &elen, KP_KIND_NODECLAIM, n->nodeclaim, KP_FORMAT_JSON,
					   0, NULL), KP_OK);
		sb_printf(&out, "nc %zu %s %s %s %s %.6f %zu %zu %s\n", i, n->nodepool,
			  n->instance_type ? n->instance_type : "-", n->zone ? n->zone : "-",
			  n->capacity_type ? n->capacity_type : "-", n->price, n->n_pods,
			  n->n_instance_type_options, enc);
		kp_encoded_free(enc);
	}
	sb_printf(&out, "cost %.6f\n", kp_sched_result_cost(r));
	size_t np = kp_sched_result_pod_count(r);
	char **lines = calloc(np + 1, sizeof(*lines));
	ck_assert_ptr_nonnull(lines);
	for (size_t i = 0; i < np; i++) {
		const kp_sched_placement *p = kp_sched_result_pod_at(r, i);
		strbuf l = { 0 };
		sb_printf(&l, "pod %s/%s %u %s %zu\n", p->namespace_, p->name, p->target,
			  p->node ? p->node : "-",
			  p->target == KP_SCHED_NEW_NODECLAIM ? p->nodeclaim_index : 0);
		for (size_t k = 0; k < p->n_reasons; k++) {
			const kp_sched_reason *x = p->reasons[k];
			sb_printf(&l, "  %s %s %s %s %s\n", kp_sched_reason_code_name(x->code),
				  x->nodepool ? x->nodepool : "-", x->node ? x->node : "-",
				  x->field ? x->field : "-", x->message);
		}
		lines[i] = l.s;
	}
	qsort(lines, np, sizeof(*lines), cmp_str);
	for (size_t i = 0; i < np; i++) {
		sb_printf(&out, "%s", lines[i]);
		free(lines[i]);
	}
	free(lines);
	return out.s;
}

static char *simulate(const g_cluster *gc)
{
	h_scenario sc;
	char *yaml = g_cluster_yaml(gc);
	h_load(&sc, yaml, NULL);
	free(yaml);
	h_run(&sc, NULL);
	/* new NodeClaims never take an input Node's or NodeClaim's name, nor
	 * each other's; pods on in-flight NodeClaims name input ones */
	const kp_sched_result *r = sc.result;
	size_t n = kp_sched_result_nodeclaim_count(r);
	for (size_t i = 0; i < n; i++) {
		const char *name = kp_sched_result_nodeclaim_at(r, i)->nodeclaim->metadata->name;
		for (size_t k = 0; k < gc->n_taken; k++)
			ck_assert_msg(strcmp(name, gc->taken[k]) != 0, "new NodeClaim %s exists", name);
		for (size_t k = 0; k < i; k++)
			ck_assert_str_ne(name, kp_sched_result_nodeclaim_at(r, k)->nodeclaim->metadata->name);
	}
	for (size_t i = 0; i < kp_sched_result_pod_count(r); i++) {
		const kp_sched_placement *p = kp_sched_result_pod_at(r, i);
		if (p->target != KP_SCHED_INFLIGHT && p->target != KP_SCHED_EXISTING_NODE)
			continue;
		int found = 0;
		for (size_t k = 0; k < gc->n_taken; k++)
			found |= !strcmp(p->node, gc->taken[k]);
		ck_assert_msg(found, "pod %s placed on %s, not in the input", p->name, p->node);
	}
	char *d = decisions(r);
	h_free(&sc);
	return d;
}

static void check_seed(int seed)
{
	g_cluster gc;
	g_cluster_make(&gc, (uint64_t)seed);
	char *want = simulate(&gc);
	g_rng rng = { (uint64_t)seed * 7919u + 17u };
	for (int k = 0; k < N_SHUFFLES; k++) {
		g_cluster_shuffle(&gc, &rng);
		char *got = simulate(&gc);
		if (strcmp(got, want) != 0) {
			char *yaml = g_cluster_yaml(&gc);
			fprintf(stderr, "seed %d, shuffle %d:\n--- want\n%s--- got\n%s--- input\n%s", seed, k,
				want, got, yaml);
			free(yaml);
		}
		ck_assert_msg(strcmp(got, want) == 0, "seed %d: decisions differ after shuffle %d", seed,
			      k);
		free(got);
	}
	free(want);
	g_cluster_free(&gc);
}

START_TEST(document_order_decides_nothing)
{
	for (int seed = _i * (N_CLUSTERS / N_BATCHES); seed < (_i + 1) * (N_CLUSTERS / N_BATCHES);
	     seed++)
		check_seed(seed);
}
END_TEST

START_TEST(generator_is_deterministic)
{
	g_cluster a, b;
	g_cluster_make(&a, 42);
	g_cluster_make(&b, 42);
	char *ya = g_cluster_yaml(&a), *yb = g_cluster_yaml(&b);
	ck_assert_str_eq(ya, yb);
	free(ya);
	free(yb);
	g_cluster_free(&a);
	g_cluster_free(&b);
}
END_TEST

static Suite *order_suite(void)
{
	Suite *s = suite_create("scheduler_order");
	TCase *tc = tcase_create("document_order");
	tcase_add_test(tc, generator_is_deterministic);
	tcase_add_loop_test(tc, document_order_decides_nothing, 0, N_BATCHES);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	Suite *suites[] = { order_suite() };
	return kp_test_run(suites, 1);
}
