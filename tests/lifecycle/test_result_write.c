/*
 * The lifecycle result as a document (kp_lifecycle_result_write): the one
 * `kubectl-karpenter reconcile -o json|yaml` prints, with its requeues one
 * per object and controller at the earliest, and the grouping reconcile's
 * text uses (lib/lifecycle/grouping.c). White-box: results are built with
 * the lifecycle's own append functions, so each case holds exactly the
 * actions, events and requeues it names.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "kp_test.h"
#include "lifecycle/grouping.h"
#include "lifecycle/lifecycle_private.h"

#define NOW 1735732800000LL /* 2025-01-01T12:00:00Z */

/* The document in @p format (compact JSON or YAML); KP_OK asserted. */
static char *document(const kp_lifecycle_result *r, uint32_t format)
{
	kp_emitter_options o = KP_EMITTER_OPTIONS_INIT;
	o.format = format;
	o.indent = KP_EMITTER_INDENT_COMPACT;
	kp_emitter *em = NULL;
	char *text = NULL;
	kp_error e = KP_ERROR_INIT;
	ck_assert_int_eq(kp_emitter_new(&em, &o, kp_test_append, &text, &e), KP_OK);
	ck_assert_int_eq(kp_lifecycle_result_write(em, r, NOW, &e), KP_OK);
	ck_assert_int_eq(kp_emitter_close(em, &e), KP_OK);
	return text;
}

static void requeue(kp_lifecycle_result *r, uint32_t kind, const char *controller, const char *ns,
		    const char *name, int64_t after_ms)
{
	ck_assert_int_eq(kp__lc_requeue(r, kind, controller, ns, name, after_ms, NULL), KP_OK);
}

static void action(kp_lifecycle_result *r, uint32_t kind, const char *ns, const char *name,
		   const char *reason)
{
	kp__lc_act a = { KP_LIFECYCLE_VERB_PATCH, kind, "c", ns, name, reason, "m", NULL, 0, 0,
			 NULL, NULL, NULL, NULL, NULL };
	ck_assert_int_eq(kp__lc_action(r, &a, NULL), KP_OK);
}

/* One requeue per object and controller, the earliest, the first of equal
 * ones, in the order of each one's first requeue; the kind is part of the
 * object, and no namespace is the empty one. */
START_TEST(requeues_earliest_per_object_and_controller)
{
	kp_lifecycle_result *r = NULL;
	ck_assert_int_eq(kp__lc_result_new(&r), KP_OK);
	requeue(r, KP_KIND_NODECLAIM, "nodeclaim.lifecycle", NULL, "a", 60000);   /* 0 */
	requeue(r, KP_KIND_NODECLAIM, "nodeclaim.disruption", NULL, "a", 1000);  /* 1 */
	requeue(r, KP_KIND_NODE, "node.termination", NULL, "a", 5000);           /* 2 */
	requeue(r, KP_KIND_NODECLAIM, "nodeclaim.lifecycle", "", "a", 30000);    /* 3 */
	requeue(r, KP_KIND_NODECLAIM, "nodeclaim.lifecycle", NULL, "a", 30000);  /* 4 */
	requeue(r, KP_KIND_POD, "node.termination", "shop", "a", 0);             /* 5 */
	requeue(r, KP_KIND_NODE, "node.termination", NULL, "a", 9000);           /* 6 */
	requeue(r, KP_KIND_POD, "node.termination", "shop", "a", 0);             /* 7 */
	const kp_lifecycle_requeue *out[8];
	size_t n = 0;
	ck_assert_int_eq(kp__lc_requeues_earliest(r, out, &n), KP_OK);
	ck_assert_uint_eq(n, 4);
	ck_assert_ptr_eq(out[0], kp_lifecycle_result_requeue_at(r, 3));
	ck_assert_ptr_eq(out[1], kp_lifecycle_result_requeue_at(r, 1));
	ck_assert_ptr_eq(out[2], kp_lifecycle_result_requeue_at(r, 2));
	ck_assert_ptr_eq(out[3], kp_lifecycle_result_requeue_at(r, 5));
	char *doc = document(r, KP_FORMAT_JSON);
	ck_assert_str_eq(doc,
		"{\"now\":\"2025-01-01T12:00:00Z\",\"actions\":[],\"requeue\":["
		"{\"kind\":\"NodeClaim\",\"namespace\":\"\",\"name\":\"a\","
		"\"controller\":\"nodeclaim.lifecycle\",\"after\":\"30s\"},"
		"{\"kind\":\"NodeClaim\",\"namespace\":\"\",\"name\":\"a\","
		"\"controller\":\"nodeclaim.disruption\",\"after\":\"1s\"},"
		"{\"kind\":\"Node\",\"namespace\":\"\",\"name\":\"a\","
		"\"controller\":\"node.termination\",\"after\":\"5s\"},"
		"{\"kind\":\"Pod\",\"namespace\":\"shop\",\"name\":\"a\","
		"\"controller\":\"node.termination\",\"after\":\"0s\"}],\"events\":[]}");
	free(doc);
	kp_lifecycle_result_free(r);
}
END_TEST

/* Every member of an action, an event and a requeue, in the README's
 * order; a delay beyond time.Duration's range saturates as Go's does. */
START_TEST(document_members)
{
	kp_lifecycle_result *r = NULL;
	ck_assert_int_eq(kp__lc_result_new(&r), KP_OK);
	static const char *const labels[] = { "nodepool", "default", "reason", "expired", NULL };
	kp__lc_act a = { KP_LIFECYCLE_VERB_DELETE, KP_KIND_NODECLAIM,
			 KP_LIFECYCLE_CONTROLLER_NODECLAIM_EXPIRATION, NULL, "nc \"1\"",
			 "Expired", "deleting expired nodeclaim", NULL, 1, 30,
			 "Normal", "Disrupted", "expired", "karpenter_nodeclaims_disrupted_total", labels };
	ck_assert_int_eq(kp__lc_action(r, &a, NULL), KP_OK);
	requeue(r, KP_KIND_NODECLAIM, "nodeclaim.expiration", NULL, "nc \"1\"", INT64_MAX);
	char *doc = document(r, KP_FORMAT_JSON);
	ck_assert_str_eq(doc,
		"{\"now\":\"2025-01-01T12:00:00Z\",\"actions\":[{\"controller\":\"nodeclaim.expiration\","
		"\"verb\":\"delete\",\"kind\":\"NodeClaim\",\"namespace\":\"\",\"name\":\"nc \\\"1\\\"\","
		"\"reason\":\"Expired\",\"message\":\"deleting expired nodeclaim\","
		"\"gracePeriodSeconds\":30,\"metric\":{\"name\":\"karpenter_nodeclaims_disrupted_total\","
		"\"labels\":{\"nodepool\":\"default\",\"reason\":\"expired\"}}}],"
		"\"requeue\":[{\"kind\":\"NodeClaim\",\"namespace\":\"\",\"name\":\"nc \\\"1\\\"\","
		"\"controller\":\"nodeclaim.expiration\",\"after\":\"2562047h47m16.854775807s\"}],"
		"\"events\":[{\"kind\":\"NodeClaim\",\"namespace\":\"\",\"name\":\"nc \\\"1\\\"\","
		"\"type\":\"Normal\",\"reason\":\"Disrupted\",\"message\":\"expired\"}]}");
	free(doc);
	doc = document(r, KP_FORMAT_YAML);
	ck_assert_ptr_nonnull(strstr(doc, "now: \"2025-01-01T12:00:00Z\"\nactions:\n- controller: "
					  "nodeclaim.expiration\n  verb: delete\n"));
	ck_assert_ptr_nonnull(strstr(doc, "  gracePeriodSeconds: 30\n  metric:\n"));
	free(doc);
	kp_lifecycle_result_free(r);
}
END_TEST

/* The document is one value: a member of a larger document. */
START_TEST(document_as_a_member)
{
	kp_lifecycle_result *r = NULL;
	ck_assert_int_eq(kp__lc_result_new(&r), KP_OK);
	kp_emitter_options o = KP_EMITTER_OPTIONS_INIT;
	o.indent = KP_EMITTER_INDENT_COMPACT;
	kp_emitter *em = NULL;
	char *text = NULL;
	kp_error e = KP_ERROR_INIT;
	ck_assert_int_eq(kp_emitter_new(&em, &o, kp_test_append, &text, &e), KP_OK);
	kp_emitter_begin_object(em);
	kp_emitter_key(em, "round");
	ck_assert_int_eq(kp_lifecycle_result_write(em, r, 0, &e), KP_OK);
	kp_emitter_end_object(em);
	ck_assert_int_eq(kp_emitter_close(em, &e), KP_OK);
	ck_assert_str_eq(text, "{\"round\":{\"now\":\"1970-01-01T00:00:00Z\",\"actions\":[],"
			       "\"requeue\":[],\"events\":[]}}");
	free(text);
	text = NULL;
	ck_assert_int_eq(kp_lifecycle_result_write(NULL, r, 0, &e), KP_EINVAL);
	ck_assert_str_eq(e.message, "NULL argument");
	ck_assert_int_eq(kp_emitter_new(&em, &o, kp_test_append, &text, NULL), KP_OK);
	ck_assert_int_eq(kp_lifecycle_result_write(em, NULL, 0, NULL), KP_EINVAL);
	kp_emitter_close(em, NULL);
	free(text);
	kp_lifecycle_result_free(r);
}
END_TEST

/* Reconcile's text: actions grouped by object (kind, namespace, name),
 * objects in the order of their first action, each object's actions in
 * the result's order, with where each object starts. */
START_TEST(actions_by_object)
{
	kp_lifecycle_result *r = NULL;
	ck_assert_int_eq(kp__lc_result_new(&r), KP_OK);
	action(r, KP_KIND_NODECLAIM, NULL, "b", "0");
	action(r, KP_KIND_NODE, NULL, "b", "1");
	action(r, KP_KIND_NODECLAIM, "", "a", "2");
	action(r, KP_KIND_NODECLAIM, "", "b", "3");
	action(r, KP_KIND_POD, "x", "b", "4");
	action(r, KP_KIND_NODE, NULL, "b", "5");
	action(r, KP_KIND_NODECLAIM, NULL, "a", "6");
	size_t order[7];
	unsigned char first[7];
	ck_assert_int_eq(kp__lc_actions_by_object(r, order, first), KP_OK);
	static const size_t want[] = { 0, 3, 1, 5, 2, 6, 4 };
	static const unsigned char want_first[] = { 1, 0, 1, 0, 1, 0, 1 };
	for (size_t i = 0; i < 7; i++) {
		ck_assert_uint_eq(order[i], want[i]);
		ck_assert_uint_eq(first[i], want_first[i]);
	}
	kp_lifecycle_result_free(r);
	ck_assert_int_eq(kp__lc_result_new(&r), KP_OK);
	ck_assert_int_eq(kp__lc_actions_by_object(r, order, NULL), KP_OK); /* none */
	kp_lifecycle_result_free(r);
}
END_TEST

/* Out of memory at any allocation: KP_ENOMEM with a message, never a crash. */
START_TEST(out_of_memory)
{
	kp_lifecycle_result *r = NULL;
	ck_assert_int_eq(kp__lc_result_new(&r), KP_OK);
	requeue(r, KP_KIND_NODECLAIM, "nodeclaim.lifecycle", NULL, "a", 1000);
	requeue(r, KP_KIND_NODECLAIM, "nodeclaim.lifecycle", NULL, "a", 10);
	requeue(r, KP_KIND_NODE, "node.termination", NULL, "a", 10);
	action(r, KP_KIND_NODECLAIM, NULL, "a", "0");
	kp_emitter_options o = KP_EMITTER_OPTIONS_INIT;
	o.indent = KP_EMITTER_INDENT_COMPACT;
	kp_test_alloc_install();
	long n = 0;
	for (;; n++) {
		char *text = NULL;
		kp_emitter *em = NULL;
		kp_error e = KP_ERROR_INIT;
		kp_test_alloc_fail_at(n);
		int rc = kp_emitter_new(&em, &o, kp_test_append, &text, &e);
		if (rc == KP_OK)
			rc = kp_lifecycle_result_write(em, r, NOW, &e);
		int closed = em ? kp_emitter_close(em, NULL) : KP_ENOMEM;
		free(text);
		if (rc == KP_OK && closed == KP_OK)
			break;
		ck_assert_int_eq(rc == KP_OK ? closed : rc, KP_ENOMEM);
		ck_assert(rc == KP_OK || e.message[0] != '\0');
	}
	kp_test_alloc_fail_at(-1);
	kp_test_alloc_uninstall();
	ck_assert_int_ge(n, 3); /* the emitter, the requeue list, the groups */
	kp_lifecycle_result_free(r);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("lifecycle-result-write");
	TCase *tc = tcase_create("document");
	tcase_add_test(tc, requeues_earliest_per_object_and_controller);
	tcase_add_test(tc, document_members);
	tcase_add_test(tc, document_as_a_member);
	tcase_add_test(tc, actions_by_object);
	tcase_add_test(tc, out_of_memory);
	suite_add_tcase(s, tc);
	return kp_test_run(&s, 1);
}
