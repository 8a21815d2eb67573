/*
 * A round over a few thousand NodeClaims, Nodes and pods: the results the
 * round's hash-map lookups give (kp_lifecycle_reconcile) are exact and the
 * same as the controllers called one object at a time (which scan the
 * input). No timing is asserted.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include <karpenter/karpenter.h>

#include "kp_test.h"

#define N_NC 3000  /* NodeClaims: i % 5 == 0 no Node, == 1 two Nodes, else one */
#define N_POOLS 3
#define N_DRAIN 20 /* deleting Nodes with pods to drain */
#define PODS_PER_DRAIN 50
#define NOW_MS 1704067260000LL /* 2024-01-01T00:01:00Z */

typedef struct buf {
	char *s;
	size_t len, cap;
} buf;

static void put(buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(buf *b, const char *fmt, ...)
{
	va_list ap;
	for (;;) {
		va_start(ap, fmt);
		int n = vsnprintf(b->s ? b->s + b->len : NULL, b->s ? b->cap - b->len : 0, fmt, ap);
		va_end(ap);
		ck_assert_int_ge(n, 0);
		if (b->s && b->len + (size_t)n < b->cap) {
			b->len += (size_t)n;
			return;
		}
		b->cap = (b->cap + (size_t)n + 1) * 2;
		b->s = realloc(b->s, b->cap);
		ck_assert_ptr_nonnull(b->s);
	}
}

#define COND(t) "{type: " t ", status: 'True', reason: " t ", lastTransitionTime: '2024-01-01T00:00:00Z'}"

static void nodeclaim(buf *b, size_t i, int deleting)
{
	put(b, "---\napiVersion: karpenter.sh/v1\nkind: NodeClaim\nmetadata: {name: nc-%zu, "
	       "creationTimestamp: '2024-01-01T00:00:00Z', finalizers: [karpenter.sh/termination]%s, "
	       "labels: {karpenter.sh/nodepool: pool-%zu, karpenter.test.sh/testnodeclass: default}}\n"
	       "spec: {nodeClassRef: {group: karpenter.test.sh, kind: TestNodeClass, name: default}, "
	       "requirements: []}\n"
	       "status: {providerID: 'fake://%zu', capacity: {cpu: '2', pods: '110'}, conditions: [%s]}\n",
	   i, deleting ? ", deletionTimestamp: '2024-01-01T00:00:30Z'" : "", i % N_POOLS, i,
	   deleting ? COND("Launched") ", " COND("Registered") ", " COND("Initialized")
		    : COND("Launched"));
}

static void node(buf *b, const char *name, size_t i, int deleting)
{
	put(b, "---\napiVersion: v1\nkind: Node\nmetadata: {name: %s, labels: "
	       "{karpenter.sh/nodepool: pool-%zu, karpenter.test.sh/testnodeclass: default%s}%s}\n"
	       "spec: {providerID: 'fake://%zu', taints: [%s]}\n"
	       "status: {capacity: {cpu: '2', pods: '110'}, conditions: [{type: Ready, status: 'True'}]}\n",
	   name, i % N_POOLS,
	   deleting ? ", karpenter.sh/registered: 'true', "
		      "node.kubernetes.io/exclude-from-external-load-balancers: karpenter"
		    : "",
	   deleting ? ", deletionTimestamp: '2024-01-01T00:00:30Z', finalizers: [karpenter.sh/termination]"
		    : "",
	   i, deleting ? "{key: karpenter.sh/disrupted, effect: NoSchedule}"
		       : "{key: karpenter.sh/unregistered, effect: NoExecute}");
}

/* NodeClaim i (and its Node) is being deleted */
static int is_deleting(size_t i)
{
	return i < N_DRAIN * 5 && i % 5 == 2;
}

static kp_cluster_builder *builder;
static kp_cluster_spec in; /* the builder's cluster, which every controller reads */

static void setup(void)
{
	buf b = { 0 };
	for (size_t p = 0; p < N_POOLS; p++)
		put(&b, "---\napiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: pool-%zu}\n"
			"spec: {template: {spec: {nodeClassRef: {group: karpenter.test.sh, kind: "
			"TestNodeClass, name: default}, requirements: []}}}\n", p);
	for (size_t i = 0; i < N_NC; i++) {
		int deleting = is_deleting(i);
		nodeclaim(&b, i, deleting);
		char name[32];
		snprintf(name, sizeof(name), "node-%zu", i);
		if (i % 5 != 0)
			node(&b, name, i, deleting);
		if (i % 5 == 1) {
			snprintf(name, sizeof(name), "node-%zu-dup", i);
			node(&b, name, i, 0);
		}
		for (size_t k = 0; deleting && k < PODS_PER_DRAIN; k++)
			put(&b, "---\napiVersion: v1\nkind: Pod\nmetadata: {name: p-%zu-%zu, namespace: "
				"default}\nspec: {nodeName: node-%zu, containers: [{name: c, image: x}]}\n",
			    i, k, i);
	}
	kp_error e = KP_ERROR_INIT;
	kp_decode_result *res = NULL;
	ck_assert_msg(kp_decode(&res, b.s, b.len, NULL, &e) == KP_OK, "%s", e.message);
	free(b.s);
	/* as kubectl-karpenter builds it: the builder takes the objects and
	 * gives the one cluster input (the duplicate Nodes are distinct names) */
	ck_assert_int_eq(kp_cluster_builder_new(&builder, &e), KP_OK);
	ck_assert_msg(kp_cluster_builder_add_decoded(builder, res, "scale", 0, &e) == KP_OK, "%s",
		      e.message);
	kp_decode_result_free(res);
	kp_cluster_builder_set_now(builder, NOW_MS);
	ck_assert_msg(kp_cluster_builder_spec(&in, builder, &e) == KP_OK, "%s", e.message);
	ck_assert_uint_eq(in.n_nodepools, N_POOLS);
	ck_assert_uint_eq(in.n_nodeclaims, N_NC);
}

static void teardown(void)
{
	kp_cluster_builder_free(builder);
	builder = NULL;
}

/* "controller verb kind/name reason" per action, one a line. */
static char *summary(const kp_lifecycle_result *r, size_t from, size_t to)
{
	buf b = { 0 };
	put(&b, "%s", "");
	for (size_t i = from; i < to; i++) {
		const kp_lifecycle_action *a = kp_lifecycle_result_action_at(r, i);
		put(&b, "%s %s %u/%s %s %s\n", a->controller, kp_lifecycle_verb_name(a->verb),
		    (unsigned)a->kind, a->name, a->reason, a->message);
	}
	return b.s;
}

static size_t count(const kp_lifecycle_result *r, const char *controller, uint32_t verb,
		    uint32_t kind, const char *reason)
{
	size_t n = 0;
	for (size_t i = 0; i < kp_lifecycle_result_action_count(r); i++) {
		const kp_lifecycle_action *a = kp_lifecycle_result_action_at(r, i);
		n += strcmp(a->controller, controller) == 0 && a->verb == verb && a->kind == kind &&
		     strcmp(a->reason, reason) == 0;
	}
	return n;
}

static const kp_lifecycle_action *find(const kp_lifecycle_result *r, const char *controller,
				       uint32_t kind, const char *name)
{
	for (size_t i = 0; i < kp_lifecycle_result_action_count(r); i++) {
		const kp_lifecycle_action *a = kp_lifecycle_result_action_at(r, i);
		if (strcmp(a->controller, controller) == 0 && a->kind == kind &&
		    strcmp(a->name, name) == 0)
			return a;
	}
	return NULL;
}

START_TEST(round_over_thousands)
{
	kp_lifecycle_result *r = NULL;
	kp_error e = KP_ERROR_INIT;
	ck_assert_msg(kp_lifecycle_reconcile(&r, &in, NULL, &e) == KP_OK, "%s", e.message);
	/* every action carries its code, and its reason is the code's name */
	for (size_t k = 0; k < kp_lifecycle_result_action_count(r); k++) {
		const kp_lifecycle_action *a = kp_lifecycle_result_action_at(r, k);
		ck_assert_uint_ne(a->code, 0);
		ck_assert_str_eq(kp_lifecycle_reason_name(a->code), a->reason);
	}
	const char *lc = "nodeclaim.lifecycle";
	/* 600 without a Node, 600 with two; 1800 with one, 20 of them deleting */
	ck_assert_uint_eq(count(r, lc, KP_LIFECYCLE_VERB_UPDATE_STATUS, KP_KIND_NODECLAIM,
				"NotRegistered"), 1200);
	ck_assert_uint_eq(count(r, lc, KP_LIFECYCLE_VERB_PATCH, KP_KIND_NODE, "Registered"), 1780);
	ck_assert_uint_eq(count(r, "node.termination", KP_LIFECYCLE_VERB_EVICT, KP_KIND_POD, "Evict"),
			  N_DRAIN * PODS_PER_DRAIN);
	/* a Node already tainted and labelled is not patched while it drains */
	ck_assert_uint_eq(count(r, "node.termination", KP_LIFECYCLE_VERB_PATCH, KP_KIND_NODE,
				"Draining"), 0);
	/* the NodeClaim finalizer of a deleting NodeClaim waits for its Node */
	ck_assert_uint_eq(count(r, lc, KP_LIFECYCLE_VERB_DELETE, KP_KIND_NODE, "NodeDelete"), 0);
	const kp_lifecycle_action *two = find(r, lc, KP_KIND_NODECLAIM, "nc-6");
	ck_assert_ptr_nonnull(two);
	ck_assert_str_eq(two->message, "Invariant violated, matched multiple nodes");
	for (size_t p = 0; p < N_POOLS; p++) {
		char name[16];
		snprintf(name, sizeof(name), "pool-%zu", p);
		const kp_lifecycle_action *a = find(r, "nodepool.counter", KP_KIND_NODEPOOL, name);
		ck_assert_ptr_nonnull(a);
		const kp_nodepool *got = a->object;
		/* the pool's NodeClaims but those being deleted (StateNode.MarkedForDeletion) */
		int64_t want = 0;
		for (size_t i = p; i < N_NC; i += N_POOLS)
			want += !is_deleting(i);
		ck_assert_int_eq(got->status->nodes, want);
		kp_quantity q;
		ck_assert_int_eq(kp_resources_get(&q, &got->status->resources, "cpu", NULL), KP_OK);
		ck_assert_int_eq(kp_quantity_as_float64(&q), 2 * want);
	}
	/* each controller alone (scanning the input) says the same */
	for (size_t i = 0; i < 40; i++) {
		const kp_nodeclaim *x = in.nodeclaims[i * 73 % in.n_nodeclaims];
		kp_lifecycle_result *one = NULL;
		ck_assert_int_eq(kp_lifecycle_nodeclaim(&one, &in, NULL, x, NULL), KP_OK);
		char *got = summary(one, 0, kp_lifecycle_result_action_count(one));
		buf want = { 0 };
		put(&want, "%s", "");
		for (size_t k = 0; k < kp_lifecycle_result_action_count(r); k++) {
			const kp_lifecycle_action *a = kp_lifecycle_result_action_at(r, k);
			if (strcmp(a->controller, lc) == 0 &&
			    (strcmp(a->name, x->metadata->name) == 0 ||
			     (a->kind == KP_KIND_NODE && find(one, lc, KP_KIND_NODE, a->name)))) {
				char *s = summary(r, k, k + 1);
				put(&want, "%s", s);
				free(s);
			}
		}
		ck_assert_str_eq(got, want.s);
		free(got);
		free(want.s);
		kp_lifecycle_result_free(one);
	}
	for (size_t i = 0; i < in.n_nodes; i += 97) {
		kp_lifecycle_result *one[2] = { NULL, NULL };
		ck_assert_int_eq(kp_lifecycle_node_termination(&one[0], &in, NULL, in.nodes[i], NULL),
				 KP_OK);
		ck_assert_int_eq(kp_lifecycle_node_hydration(&one[1], &in, NULL, in.nodes[i], NULL),
				 KP_OK);
		for (size_t j = 0; j < 2; j++) {
			for (size_t k = 0; k < kp_lifecycle_result_action_count(one[j]); k++) {
				const kp_lifecycle_action *a = kp_lifecycle_result_action_at(one[j], k);
				const kp_lifecycle_action *b = find(r, a->controller, a->kind, a->name);
				ck_assert_ptr_nonnull(b);
				ck_assert_str_eq(a->reason, b->reason);
			}
			kp_lifecycle_result_free(one[j]);
		}
	}
	kp_lifecycle_result_free(r);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("lifecycle_scale");
	TCase *tc = tcase_create("scale");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, round_over_thousands);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	Suite *suites[] = { suite() };
	return kp_test_run(suites, 1);
}
