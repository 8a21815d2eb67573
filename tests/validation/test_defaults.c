/*
 * CRD defaults (validation.h: kp_object_default and the typed calls; KWOKNodeClass's
 * through its registration, kp_registry_object_default): each
 * case decodes an object, applies the defaults and compares the YAML the
 * codec writes with the expected text, which lists exactly the CRDs'
 * `default:` values (karpenter.sh_nodepools.yaml, karpenter.sh_nodeclaims.yaml,
 * karpenter.kwok.sh_kwoknodeclasses.yaml), applied as structural defaulting
 * applies them: only to absent fields of present objects.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#define KP_EXPERIMENTAL_API 1
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <karpenter/karpenter.h>
#include <karpenter/sys/kwok.h>

#include "kp_test.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

#define NP_HEAD "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata:\n  name: test\n"
#define NC_HEAD "apiVersion: karpenter.sh/v1\nkind: NodeClaim\nmetadata:\n  name: test\n"
#define KW_HEAD "apiVersion: karpenter.kwok.sh/v1alpha1\nkind: KWOKNodeClass\nmetadata:\n  name: test\n"
#define REF_YAML "      nodeClassRef:\n        kind: K\n        name: default\n        group: g.sh\n"

typedef struct dcase {
	const char *name;
	const char *in;   /* YAML (any style) */
	const char *want; /* the codec's YAML after defaulting; NULL = unchanged */
} dcase;

static const dcase cases[] = {
	{ "a minimal NodePool gets every default",
	  NP_HEAD "spec: {template: {spec: {nodeClassRef: {group: g.sh, kind: K, name: default}, "
		  "requirements: []}}}\nstatus: {}\n",
	  NP_HEAD "spec:\n  template:\n    spec:\n      requirements: []\n" REF_YAML
		  "      expireAfter: 720h\n"
		  "  disruption:\n    consolidateAfter: 0s\n    consolidationPolicy: WhenEmptyOrUnderutilized\n"
		  "    budgets:\n    - nodes: \"10%\"\n"
		  "status:\n  nodes: 0\n" },
	{ "a present disruption gets its own defaults",
	  NP_HEAD "spec: {disruption: {consolidateAfter: Never}, template: {spec: {}}}\n",
	  NP_HEAD "spec:\n  template:\n    spec:\n      expireAfter: 720h\n"
		  "  disruption:\n    consolidateAfter: Never\n"
		  "    consolidationPolicy: WhenEmptyOrUnderutilized\n    budgets:\n    - nodes: \"10%\"\n" },
	{ "present-but-empty budgets stay empty",
	  NP_HEAD "spec: {disruption: {budgets: [], consolidationPolicy: Balanced}, template: {}}\n",
	  NP_HEAD "spec:\n  template: {}\n  disruption:\n    consolidateAfter: 0s\n"
		  "    consolidationPolicy: Balanced\n    budgets: []\n" },
	{ "each budget without nodes gets 10%",
	  NP_HEAD "spec: {disruption: {consolidateAfter: 30s, consolidationPolicy: WhenEmpty, budgets: "
		  "[{schedule: \"@daily\", duration: 10m}, {nodes: \"3\"}, {reasons: [Empty]}]}}\n",
	  NP_HEAD "spec:\n  disruption:\n    consolidateAfter: 30s\n    consolidationPolicy: WhenEmpty\n"
		  "    budgets:\n    - nodes: \"10%\"\n      schedule: \"@daily\"\n      duration: 10m\n"
		  "    - nodes: \"3\"\n    - reasons:\n      - Empty\n      nodes: \"10%\"\n" },
	{ "set values are kept",
	  NP_HEAD "spec:\n  template:\n    spec:\n      expireAfter: Never\n"
		  "  disruption:\n    consolidateAfter: 1h\n    consolidationPolicy: WhenEmpty\n"
		  "    budgets:\n    - nodes: \"0\"\nstatus:\n  nodes: 3\n",
	  NULL },
	{ "no spec: nothing to default", NP_HEAD, NULL },
	{ "a template without spec gets no expireAfter",
	  NP_HEAD "spec: {template: {metadata: {labels: {a: b}}}, disruption: {consolidateAfter: 0s, "
		  "consolidationPolicy: WhenEmpty, budgets: []}}\n",
	  NULL },
	{ "a NodeClaim gets expireAfter",
	  NC_HEAD "spec: {nodeClassRef: {group: g.sh, kind: K, name: default}, requirements: [], "
		  "terminationGracePeriod: 1h}\n",
	  NC_HEAD "spec:\n  requirements: []\n  nodeClassRef:\n    kind: K\n    name: default\n"
		  "    group: g.sh\n  terminationGracePeriod: 1h\n  expireAfter: 720h\n" },
	{ "a NodeClaim's expireAfter is kept", NC_HEAD "spec:\n  expireAfter: Never\n", NULL },
	{ "a NodeClaim without spec", NC_HEAD, NULL },
	{ "a KWOKNodeClass gets the Ready status",
	  KW_HEAD "spec: {nodeRegistrationDelay: 1s}\n",
	  KW_HEAD "spec:\n  nodeRegistrationDelay: 1s\nstatus:\n  conditions:\n  - type: Ready\n"
		  "    status: \"True\"\n    lastTransitionTime: \"2024-01-01T01:01:01Z\"\n"
		  "    reason: Ready\n    message: \"\"\n" },
	{ "a KWOKNodeClass's present status is kept", KW_HEAD "status: {}\n", NULL },
};

/* The core kinds and KWOKNodeClass, registered from libkarpenter-kwok's
 * description (set up in main, inherited by the forked tests). */
static kp_registry *reg;
static uint32_t kwok_kind;

static void *decode(const char *text, uint32_t *kind)
{
	kp_decode_result *r = NULL;
	kp_error e = KP_ERROR_INIT;
	kp_decode_options o = KP_DECODE_OPTIONS_INIT;
	o.registry = reg;
	ck_assert_msg(kp_decode(&r, text, strlen(text), &o, &e) == KP_OK, "%s", e.message);
	ck_assert_uint_eq(kp_decode_result_count(r), 1);
	void *obj = NULL;
	*kind = kp_decode_result_at(r, 0)->kind;
	ck_assert_int_eq(kp_decode_result_take(r, 0, &obj, NULL), KP_OK);
	kp_decode_result_free(r);
	return obj;
}

static char *encode(uint32_t kind, const void *obj)
{
	char *out = NULL;
	kp_error e = KP_ERROR_INIT;
	ck_assert_msg(kp_registry_encode(&out, NULL, reg, kind, obj, KP_FORMAT_YAML, 0, &e) == KP_OK,
		      "%s",
		      e.message);
	return out;
}

START_TEST(test_case)
{
	const dcase *c = &cases[_i];
	uint32_t kind;
	void *obj = decode(c->in, &kind);
	char *before = encode(kind, obj);
	ck_assert_int_eq(kp_registry_object_default(reg, kind, obj, NULL), KP_OK);
	char *after = encode(kind, obj);
	ck_assert_msg(strcmp(after, c->want ? c->want : before) == 0, "%s:\nwant:\n%s\ngot:\n%s",
		      c->name, c->want ? c->want : before, after);
	/* idempotent */
	ck_assert_int_eq(kp_registry_object_default(reg, kind, obj, NULL), KP_OK);
	char *again = encode(kind, obj);
	ck_assert_str_eq(again, after);
	/* the defaulted object decodes back to itself */
	uint32_t k2;
	void *back = decode(after, &k2);
	char *round = encode(k2, back);
	ck_assert_str_eq(round, after);
	kp_encoded_free(before);
	kp_encoded_free(after);
	kp_encoded_free(again);
	kp_encoded_free(round);
	kp_registry_object_free(reg, kind, obj);
	kp_registry_object_free(reg, k2, back);
}
END_TEST

/* The defaulted durations carry their values, as decoding would parse them. */
START_TEST(test_values)
{
	uint32_t kind;
	kp_nodepool *np = decode(NP_HEAD "spec: {template: {spec: {}}}\n", &kind);
	ck_assert_int_eq(kp_nodepool_default(np, NULL), KP_OK);
	const kp_api_duration *d = &np->spec->template_->spec->expire_after;
	ck_assert_str_eq(d->text, "720h");
	ck_assert_uint_eq(d->parsed, 1);
	ck_assert_int_eq(d->never, 0);
	ck_assert_int_eq(d->ns, INT64_C(720) * 3600 * 1000000000);
	const kp_disruption *dis = np->spec->disruption;
	ck_assert_uint_eq(dis->struct_size, sizeof(kp_disruption));
	ck_assert_str_eq(dis->consolidate_after.text, "0s");
	ck_assert_uint_eq(dis->consolidate_after.parsed, 1);
	ck_assert_int_eq(dis->consolidate_after.ns, 0);
	ck_assert_uint_eq(dis->consolidation_policy_code,
			  KP_CONSOLIDATION_POLICY_WHEN_EMPTY_OR_UNDERUTILIZED);
	ck_assert_uint_eq(dis->n_budgets, 1);
	ck_assert_uint_eq(dis->budgets[0]->struct_size, sizeof(kp_budget));
	ck_assert_str_eq(dis->budgets[0]->nodes, "10%");
	ck_assert_ptr_null(dis->budgets[0]->schedule);
	kp_nodepool_free(np);

	kp_kwok_nodeclass *kw = decode(KW_HEAD, &kind);
	ck_assert_uint_eq(kind, kwok_kind);
	ck_assert_int_eq(kp_registry_object_default(reg, kind, kw, NULL), KP_OK);
	ck_assert_uint_eq(kw->status->n_conditions, 1);
	ck_assert_int_eq(kw->status->conditions[0]->last_transition_time_ms, INT64_C(1704070861000));
	kp_registry_object_free(reg, kind, kw);
}
END_TEST

/* Validation after defaulting sees what the API server sees. */
START_TEST(test_validate_after_defaults)
{
	uint32_t kind;
	void *np = decode(NP_HEAD "spec: {disruption: {budgets: [{reasons: [Empty]}]}, template: {spec: "
				  "{nodeClassRef: {group: g.sh, kind: K, name: default}, requirements: []}}}\n",
			  &kind);
	kp_validation *v = NULL;
	ck_assert_int_eq(kp_validate(&v, kind, np, NULL, NULL, NULL), KP_OK);
	ck_assert_uint_eq(kp_validation_count(v), 2);
	ck_assert_str_eq(kp_validation_at(v, 0)->field, "spec.disruption.budgets[0].nodes");
	ck_assert_str_eq(kp_validation_at(v, 0)->message, "Required value");
	kp_validation_free(v);
	ck_assert_int_eq(kp_object_default(kind, np, NULL), KP_OK);
	ck_assert_int_eq(kp_validate(&v, kind, np, NULL, NULL, NULL), KP_OK);
	ck_assert_uint_eq(kp_validation_count(v), 0);
	kp_validation_free(v);
	kp_object_free(kind, np);
}
END_TEST

START_TEST(test_errors)
{
	kp_error e = KP_ERROR_INIT;
	ck_assert_int_eq(kp_nodepool_default(NULL, &e), KP_EINVAL);
	ck_assert_int_eq(kp_nodeclaim_default(NULL, &e), KP_EINVAL);
	ck_assert_int_eq(kp_registry_object_default(reg, kwok_kind, NULL, &e), KP_EINVAL);
	ck_assert_int_eq(kp_registry_object_default(NULL, kwok_kind, &e, &e), KP_EINVAL);
	ck_assert_str_eq(e.message, "unknown kind 65536");
	ck_assert_int_eq(kp_object_default(KP_KIND_NODEPOOL, NULL, &e), KP_EINVAL);
	uint32_t kind;
	void *np = decode(NP_HEAD, &kind);
	ck_assert_int_eq(kp_object_default(KP_KIND_UNKNOWN, np, &e), KP_EINVAL);
	ck_assert_int_eq(kp_object_default(999, np, &e), KP_EINVAL);
	/* core kinds have no CRD defaults */
	kp_pod pod = KP_POD_INIT;
	ck_assert_int_eq(kp_object_default(KP_KIND_POD, &pod, &e), KP_OK);
	/* a struct_size this library cannot write */
	((kp_nodepool *)np)->struct_size = 8;
	ck_assert_int_eq(kp_nodepool_default(np, &e), KP_EVERSION);
	((kp_nodepool *)np)->struct_size = sizeof(kp_nodepool);
	kp_object_free(kind, np);
}
END_TEST

/* An allocation failure leaves the object unchanged. */
START_TEST(test_out_of_memory)
{
	kp_test_alloc_install();
	for (size_t i = 0; i < N(cases); i++) {
		uint32_t kind;
		void *obj = decode(cases[i].in, &kind);
		char *before = encode(kind, obj);
		for (long k = 0;; k++) {
			kp_test_alloc_fail_at(k);
			int rc = kp_registry_object_default(reg, kind, obj, NULL);
			kp_test_alloc_fail_at(-1);
			char *now = encode(kind, obj);
			if (rc == KP_OK) {
				kp_encoded_free(now);
				break;
			}
			ck_assert_int_eq(rc, KP_ENOMEM);
			ck_assert_msg(strcmp(now, before) == 0, "%s: changed by a failed call", cases[i].name);
			kp_encoded_free(now);
		}
		kp_encoded_free(before);
		kp_registry_object_free(reg, kind, obj);
	}
}
END_TEST

static Suite *defaults_suite(void)
{
	Suite *s = suite_create("defaults");
	TCase *tc = tcase_create("defaults");
	tcase_add_loop_test(tc, test_case, 0, (int)N(cases));
	tcase_add_test(tc, test_values);
	tcase_add_test(tc, test_validate_after_defaults);
	tcase_add_test(tc, test_errors);
	tcase_add_test(tc, test_out_of_memory);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	if (kp_registry_new(&reg, NULL) || kp_kwok_register(reg, &kwok_kind, NULL))
		return 99;
	Suite *s = defaults_suite();
	int rc = kp_test_run(&s, 1);
	kp_registry_free(reg);
	return rc;
}
