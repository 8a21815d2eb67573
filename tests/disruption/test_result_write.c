/*
 * The disruption result as a document (kp_disruption_result_write): the
 * one `kubectl-karpenter disrupt -o json|yaml` prints (the README's
 * "disrupt JSON output"), from the library, on scenarios of the harness.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "disruption_harness.h"
#include "kp_test.h"

#define NOW "2025-01-02T00:00:00Z"
#define NOW_MS 1735776000000LL
#define INIT "2025-01-01T00:00:00Z"
#define WEOU "WhenEmptyOrUnderutilized"
#define STALE_HASH \
	"  annotations: {karpenter.sh/nodepool-hash: \"1\", karpenter.sh/nodepool-hash-version: v3}"

/* The document in @p format (compact JSON, or YAML); KP_OK asserted. */
static char *document(const kp_disruption_result *r, uint32_t format)
{
	kp_emitter_options o = KP_EMITTER_OPTIONS_INIT;
	o.format = format;
	o.indent = KP_EMITTER_INDENT_COMPACT;
	kp_emitter *em = NULL;
	char *text = NULL;
	kp_error e = KP_ERROR_INIT;
	ck_assert_int_eq(kp_emitter_new(&em, &o, kp_test_append, &text, &e), KP_OK);
	ck_assert_int_eq(kp_disruption_result_write(em, r, NOW_MS, &e), KP_OK);
	ck_assert_int_eq(kp_emitter_close(em, &e), KP_OK);
	return text;
}

#define HAS(doc, part) ck_assert_msg(strstr((doc), (part)) != NULL, "no %s in %s", (part), (doc))

/* An Emptiness command: every member of the command, a node, a budget and
 * the cost, in the README's order. */
START_TEST(emptiness_document)
{
	dh *h = dh_new();
	dh_nodepool(h, "default", "on-demand", WEOU, "0s", "100%");
	dh_node(h, "a", "default", "c-4x-amd64-linux", "test-zone-a", "on-demand", INIT, "", "");
	dh_node(h, "c", "default", "c-4x-amd64-linux", "test-zone-a", "on-demand", INIT, "", "");
	dh_pod(h, "default", "p", "c", "1", "");
	const kp_disruption_result *r = dh_run(h, NOW, 0, 1);
	char *doc = document(r, KP_FORMAT_JSON);
	ck_assert_str_eq(doc,
		"{\"now\":\"2025-01-02T00:00:00Z\",\"commands\":[{\"pass\":1,\"method\":\"Emptiness\","
		"\"reason\":\"Empty\",\"decision\":\"delete\",\"candidates\":[{\"nodeClaim\":\"a\","
		"\"node\":\"a\",\"nodePool\":\"default\",\"instanceType\":\"c-4x-amd64-linux\","
		"\"zone\":\"test-zone-a\",\"capacityType\":\"on-demand\",\"price\":0.108589934592}],"
		"\"replacements\":[],\"pods\":[],\"savings\":0.108589934592}],"
		"\"nodes\":[{\"nodeClaim\":\"a\",\"node\":\"a\",\"nodePool\":\"default\","
		"\"candidate\":true,\"empty\":true,\"drifted\":null,\"consolidatable\":true,"
		"\"reasons\":[{\"code\":\"NotDrifted\",\"method\":\"Drift\","
		"\"message\":\"node is not drifted\"}]},"
		"{\"nodeClaim\":\"c\",\"node\":\"c\",\"nodePool\":\"default\",\"candidate\":true,"
		"\"empty\":false,\"drifted\":null,\"consolidatable\":true,\"reasons\":["
		"{\"code\":\"NotEmpty\",\"method\":\"Emptiness\",\"message\":\"node is not empty\"},"
		"{\"code\":\"NotDrifted\",\"method\":\"Drift\",\"message\":\"node is not drifted\"},"
		"{\"code\":\"NotSelected\",\"method\":\"MultiNodeConsolidation\",\"message\":"
		"\"multi-node consolidation needs at least two candidates within the budgets\"},"
		"{\"code\":\"NotSelected\",\"method\":\"SingleNodeConsolidation\",\"message\":"
		"\"SingleNodeConsolidation would delete it, but Emptiness's command goes first in "
		"this pass\"}]}],"
		"\"budgets\":[{\"nodePool\":\"default\",\"reason\":\"Empty\",\"allowed\":2,"
		"\"disrupting\":0,\"remaining\":2},{\"nodePool\":\"default\",\"reason\":\"Drifted\","
		"\"allowed\":2,\"disrupting\":0,\"remaining\":2},{\"nodePool\":\"default\","
		"\"reason\":\"Underutilized\",\"allowed\":2,\"disrupting\":0,\"remaining\":2}],"
		"\"cost\":{\"before\":0.217179869184,\"after\":0.108589934592}}");
	free(doc);
	/* YAML: the same members, numbers as the emitter writes YAML's */
	doc = document(r, KP_FORMAT_YAML);
	HAS(doc, "now: \"2025-01-02T00:00:00Z\"\ncommands:\n- pass: 1");
	HAS(doc, "  drifted: null\n  consolidatable: true\n");
	HAS(doc, "cost:\n  before: 0.217179869184\n  after: 0.108589934592\n");
	free(doc);
	dh_free(h);
}
END_TEST

/* A Drift command: the replacement NodeClaim written from its struct with
 * the launch choice's labels, and the candidate's pod moving to it. */
START_TEST(drift_document)
{
	dh *h = dh_new();
	dh_nodepool(h, "default", "on-demand", WEOU, "Never", "100%");
	dh_node(h, "old", "default", "c-4x-amd64-linux", "test-zone-a", "on-demand", INIT, STALE_HASH, "");
	dh_pod(h, "shop", "p1", "old", "3", "");
	const kp_disruption_result *r = dh_run(h, NOW, 0, 1);
	const kp_disruption_command *c = kp_disruption_result_command_at(r, 0);
	ck_assert_ptr_nonnull(c);
	ck_assert_uint_eq(c->n_replacements, 1);
	const char *name = c->replacements[0]->nodeclaim->metadata->name;
	char *doc = document(r, KP_FORMAT_JSON);
	HAS(doc, "\"replacements\":[{\"nodeClaim\":{\"apiVersion\":\"karpenter.sh/v1\","
		 "\"kind\":\"NodeClaim\",\"metadata\":{\"name\":\"");
	HAS(doc, "\"karpenter.sh/nodepool\":\"default\"");
	char part[256];
	snprintf(part, sizeof(part), "\"pods\":[{\"namespace\":\"shop\",\"name\":\"p1\",\"from\":"
		 "\"old\",\"nodeClaim\":\"%s\",\"node\":null}]", name);
	HAS(doc, part);
	HAS(doc, "\"drifted\":{\"reason\":\"NodePoolDrifted\",\"message\":");
	free(doc);
	dh_free(h);
}
END_TEST

/* The document is one value: a member of a larger document; NULL
 * arguments are refused and write nothing. */
START_TEST(document_as_a_member)
{
	dh *h = dh_new();
	dh_nodepool(h, "default", "on-demand", WEOU, "0s", "100%");
	const kp_disruption_result *r = dh_run(h, NOW, 0, 1);
	kp_emitter_options o = KP_EMITTER_OPTIONS_INIT;
	o.indent = KP_EMITTER_INDENT_COMPACT;
	kp_emitter *em = NULL;
	char *text = NULL;
	kp_error e = KP_ERROR_INIT;
	ck_assert_int_eq(kp_emitter_new(&em, &o, kp_test_append, &text, &e), KP_OK);
	kp_emitter_begin_array(em);
	ck_assert_int_eq(kp_disruption_result_write(em, r, 0, &e), KP_OK);
	ck_assert_int_eq(kp_disruption_result_write(em, NULL, 0, &e), KP_EINVAL);
	ck_assert_str_eq(e.message, "NULL argument");
	kp_emitter_end_array(em);
	ck_assert_int_eq(kp_emitter_close(em, &e), KP_OK);
	ck_assert_str_eq(text, "[{\"now\":\"1970-01-01T00:00:00Z\",\"commands\":[],\"nodes\":[],"
			       "\"budgets\":[{\"nodePool\":\"default\",\"reason\":\"Empty\","
			       "\"allowed\":0,\"disrupting\":0,\"remaining\":0},"
			       "{\"nodePool\":\"default\",\"reason\":\"Drifted\",\"allowed\":0,"
			       "\"disrupting\":0,\"remaining\":0},{\"nodePool\":\"default\","
			       "\"reason\":\"Underutilized\",\"allowed\":0,\"disrupting\":0,"
			       "\"remaining\":0}],\"cost\":{\"before\":0,\"after\":0}}]");
	free(text);
	ck_assert_int_eq(kp_disruption_result_write(NULL, r, 0, NULL), KP_EINVAL);
	dh_free(h);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("disruption-result-write");
	TCase *tc = tcase_create("document");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, emptiness_document);
	tcase_add_test(tc, drift_document);
	tcase_add_test(tc, document_as_a_member);
	suite_add_tcase(s, tc);
	return kp_test_run(&s, 1);
}
