/*
 * Validators (karpenter/sys/schema.h, kp_registry_add_validator): rules one
 * library adds to a kind another library owns. A validator on NodePool (a
 * core kind) and two on KWOKNodeClass (registered by libkarpenter-kwok):
 * the owner's problems come first, then the validators' in order of
 * registration; the sink's inventory-driven checks find the validator's own
 * rows; kp_registry_rule_count/_at list them after the kind's; bad
 * validators are refused and nothing is kept.
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

#define NP_YAML(keys)                                                                  \
	"apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: np}\n"           \
	"spec: {template: {spec: {nodeClassRef: {group: g.sh, kind: K, name: d}, "     \
	"requirements: [" keys "]}}}\n"
#define REQ(k) "{key: " k ", operator: Exists}"

/* The rows the test validators add (NodePool's requirement keys hold
 * x-kubernetes-validations[0..8] of the core CRD; 40 is free). */
static const kp_crd_rule np_rules[] = {
	{ KP_RULE_SOURCE_CEL, 0, "spec.template.spec.requirements[*].key",
	  "x-kubernetes-validations[40]", "!self.startsWith(\"forbidden.test/\")",
	  "label domain \"forbidden.test\" is restricted" },
	{ KP_RULE_SOURCE_OPENAPI, 0, "spec.template.spec.requirements[*].key", "minLength", "3",
	  "" },
};

static int destroyed;
static char order[64];

static void note(const char *what)
{
	strncat(order, what, sizeof(order) - strlen(order) - 1);
}

/* NodePool: each requirement key must not be in forbidden.test and (a
 * second, OpenAPI row) at least 3 bytes long. */
static int np_validate(void *self, const void *object, const void *old, kp_validation_sink *sink,
		       kp_error *err)
{
	(void)old;
	(void)err;
	ck_assert_ptr_eq(self, &destroyed);
	note("np;");
	const kp_nodepool *np = object;
	const kp_nodeclaim_spec *s = np->spec->template_->spec;
	int rc = kp_validation_sink_push(sink, "spec");
	rc = rc ? rc : kp_validation_sink_push(sink, "template");
	rc = rc ? rc : kp_validation_sink_push(sink, "spec");
	rc = rc ? rc : kp_validation_sink_push(sink, "requirements");
	for (size_t i = 0; rc == KP_OK && i < s->n_requirements; i++) {
		const char *key = s->requirements[i]->key;
		rc = kp_validation_sink_push_index(sink, i);
		rc = rc ? rc : kp_validation_sink_push(sink, "key");
		rc = rc ? rc : kp_validation_sink_string(sink, key);
		int bad = !strncmp(key, "forbidden.test/", 15);
		rc = rc ? rc : kp_validation_sink_cel(sink, 40, bad ? KP_CEL_FALSE : KP_CEL_TRUE,
						      "string", key, NULL);
		kp_validation_sink_pop(sink);
		kp_validation_sink_pop(sink);
	}
	return rc; /* the sink pops what is left */
}

static void np_destroy(void *self)
{
	*(int *)self += 1;
}

static const kp_crd_rule kw_rules_a[] = {
	{ KP_RULE_SOURCE_CEL, 0, "spec", "x-kubernetes-validations[0]", "has(self.x)",
	  "first validator" },
};
static const kp_crd_rule kw_rules_b[] = {
	{ KP_RULE_SOURCE_CEL, 0, "spec", "x-kubernetes-validations[1]", "has(self.y)",
	  "second validator" },
};

static int kw_validate(void *self, const void *object, const void *old, kp_validation_sink *sink,
		       kp_error *err)
{
	(void)object;
	(void)old;
	(void)err;
	const char *which = self;
	note(which);
	int rc = kp_validation_sink_push(sink, "spec");
	return rc ? rc
		  : kp_validation_sink_cel(sink, which[0] == 'a' ? 0 : 1, KP_CEL_FALSE, "object",
					   NULL, NULL);
}

static kp_registry *reg;
static uint32_t kwok_kind;

static void setup(void)
{
	destroyed = 0;
	order[0] = '\0';
	ck_assert_int_eq(kp_registry_new(&reg, NULL), KP_OK);
	ck_assert_int_eq(kp_kwok_register(reg, &kwok_kind, NULL), KP_OK);
}

static void teardown(void)
{
	kp_registry_free(reg);
	reg = NULL;
}

static void *decode(const char *yaml, uint32_t *kind)
{
	kp_decode_result *r = NULL;
	kp_decode_options d = KP_DECODE_OPTIONS_INIT;
	d.registry = reg;
	kp_error e = KP_ERROR_INIT;
	ck_assert_msg(kp_decode(&r, yaml, strlen(yaml), &d, &e) == KP_OK, "%s", e.message);
	void *obj = NULL;
	*kind = kp_decode_result_at(r, 0)->kind;
	ck_assert_int_eq(kp_decode_result_take(r, 0, &obj, &e), KP_OK);
	kp_decode_result_free(r);
	return obj;
}

/* kp_validate's problems as "field: message [rule]" lines. */
static char *problems(const char *yaml)
{
	uint32_t kind;
	void *obj = decode(yaml, &kind);
	kp_validate_options o = KP_VALIDATE_OPTIONS_INIT;
	o.registry = reg;
	kp_validation *v = NULL;
	kp_error e = KP_ERROR_INIT;
	ck_assert_msg(kp_validate(&v, kind, obj, NULL, &o, &e) == KP_OK, "%s", e.message);
	size_t cap = 4096, len = 0;
	char *out = calloc(1, cap);
	for (size_t i = 0; i < kp_validation_count(v); i++) {
		const kp_field_error *fe = kp_validation_at(v, i);
		len += (size_t)snprintf(out + len, cap - len, "%s: %s [%s]\n", fe->field,
					fe->message, fe->rule);
		ck_assert_uint_lt(len, cap);
	}
	kp_validation_free(v);
	kp_registry_object_free(reg, kind, obj);
	return out;
}

static void add_np_validator(void)
{
	kp_validator_ops ops = KP_VALIDATOR_OPS_INIT;
	ops.name = "test";
	ops.rules = np_rules;
	ops.n_rules = N(np_rules);
	ops.validate = np_validate;
	ops.destroy = np_destroy;
	kp_error e = KP_ERROR_INIT;
	ck_assert_msg(kp_registry_add_validator(reg, KP_KIND_NODEPOOL, &ops, &destroyed, &e) ==
			      KP_OK,
		      "%s", e.message);
}

START_TEST(test_core_kind)
{
	size_t before = kp_registry_rule_count(reg, KP_KIND_NODEPOOL);
	char *p = problems(NP_YAML(REQ("forbidden.test/a")));
	ck_assert_str_eq(p, ""); /* no validator yet */
	free(p);
	add_np_validator();
	ck_assert_uint_eq(kp_registry_rule_count(reg, KP_KIND_NODEPOOL), before + 2);
	const kp_validation_rule *r = kp_registry_rule_at(reg, KP_KIND_NODEPOOL, before);
	ck_assert_str_eq(r->id, "NodePool:spec.template.spec.requirements[*].key:"
				"x-kubernetes-validations[40]");
	ck_assert_uint_eq(r->kind, KP_KIND_NODEPOOL);
	ck_assert_str_eq(r->message, "label domain \"forbidden.test\" is restricted");
	ck_assert_str_eq(kp_registry_rule_at(reg, KP_KIND_NODEPOOL, before + 1)->keyword,
			 "minLength");
	ck_assert_ptr_null(kp_registry_rule_at(reg, KP_KIND_NODEPOOL, before + 2));
	/* another registry does not see it */
	ck_assert_uint_eq(kp_registry_rule_count(NULL, KP_KIND_NODEPOOL), before);

	/* the validator's CEL rule, the core's rules holding */
	p = problems(NP_YAML(REQ("ok.test/a") ", " REQ("forbidden.test/b")));
	ck_assert_str_eq(
		p, "spec.template.spec.requirements[1].key: Invalid value: \"forbidden.test/b\": "
		   "label domain \"forbidden.test\" is restricted "
		   "[NodePool:spec.template.spec.requirements[*].key:x-kubernetes-validations[40]]\n");
	free(p);
	/* an OpenAPI problem, the core's (enum) or the validator's
	 * (minLength), stops CEL evaluation, the validator's too, as the API
	 * server does; the core's runtime check still runs */
	p = problems(NP_YAML(REQ("forbidden.test/b") ", {key: ab, operator: Foo}"));
	ck_assert_str_eq(
		p,
		"spec.template.spec.requirements[1].operator: Unsupported value: \"Foo\": supported "
		"values: \"In\", \"NotIn\", \"Exists\", \"DoesNotExist\", \"Gt\", \"Lt\", \"Gte\", "
		"\"Lte\" [NodePool:spec.template.spec.requirements[*].operator:enum]\n"
		"spec.template.spec.requirements[1].key: Invalid value: \"ab\": "
		"spec.template.spec.requirements[1].key in body should be at least 3 chars long "
		"[NodePool:spec.template.spec.requirements[*].key:minLength]\n"
		"<nil>: Invalid value: null: some validation rules were not checked because the "
		"object was invalid; correct the existing errors to complete validation "
		"[NodePool:*:x-kubernetes-validations-skipped]\n"
		"spec.template.spec.requirements[1]: invalid value: key ab has an unsupported "
		"operator Foo not in [In NotIn Exists DoesNotExist Gt Lt Gte Lte] in requirements, "
		"restricted [NodePool:spec.template.spec.requirements[*]:runtime-requirement]\n");
	free(p);
	ck_assert_str_eq(order, "np;np;");
	p = problems(NP_YAML(REQ("ok.test/a")));
	ck_assert_str_eq(p, "");
	free(p);
	teardown();
	ck_assert_int_eq(destroyed, 1);
}
END_TEST

START_TEST(test_registration_order)
{
	kp_validator_ops a = KP_VALIDATOR_OPS_INIT, b = KP_VALIDATOR_OPS_INIT;
	a.rules = kw_rules_a;
	a.n_rules = 1;
	a.validate = kw_validate;
	b.rules = kw_rules_b;
	b.n_rules = 1;
	b.validate = kw_validate;
	ck_assert_int_eq(kp_registry_add_validator(reg, kwok_kind, &b, (void *)"b;", NULL), KP_OK);
	ck_assert_int_eq(kp_registry_add_validator(reg, kwok_kind, &a, (void *)"a;", NULL), KP_OK);
	char *p = problems("apiVersion: karpenter.kwok.sh/v1alpha1\nkind: KWOKNodeClass\n"
			   "metadata: {name: k}\nspec: {nodeRegistrationDelay: 5x}\n");
	ck_assert_str_eq(
		p, "spec.nodeRegistrationDelay: Invalid value: \"5x\": spec.nodeRegistrationDelay in "
		   "body should match '^([0-9]+(s|m|h))+$' "
		   "[KWOKNodeClass:spec.nodeRegistrationDelay:pattern]\n"
		   "spec: Invalid value: second validator "
		   "[KWOKNodeClass:spec:x-kubernetes-validations[1]]\n"
		   "spec: Invalid value: first validator "
		   "[KWOKNodeClass:spec:x-kubernetes-validations[0]]\n");
	free(p);
	ck_assert_str_eq(order, "b;a;");
	size_t n = kp_registry_rule_count(reg, kwok_kind);
	ck_assert_str_eq(kp_registry_rule_at(reg, kwok_kind, n - 2)->message, "second validator");
	ck_assert_str_eq(kp_registry_rule_at(reg, kwok_kind, n - 1)->message, "first validator");
}
END_TEST

START_TEST(test_refused)
{
	kp_validator_ops ops = KP_VALIDATOR_OPS_INIT;
	kp_error e = KP_ERROR_INIT;
	size_t before = kp_registry_rule_count(reg, KP_KIND_NODEPOOL);
	/* no validate slot */
	ck_assert_int_eq(kp_registry_add_validator(reg, KP_KIND_NODEPOOL, &ops, NULL, &e), KP_EINVAL);
	ck_assert_str_eq(e.message, "kp_validator_ops: validate is NULL");
	ops.validate = np_validate;
	/* a kind without validation */
	ck_assert_int_eq(kp_registry_add_validator(reg, KP_KIND_POD, &ops, NULL, &e), KP_EINVAL);
	ck_assert_str_eq(e.message, "kp_registry_add_validator: kind 4 has no validation");
	ck_assert_int_eq(kp_registry_add_validator(reg, kwok_kind + 1, &ops, NULL, &e), KP_EINVAL);
	/* a row the kind already has */
	static const kp_crd_rule dup[] = { { KP_RULE_SOURCE_OPENAPI, 0,
					     "spec.template.spec.requirements[*].operator", "enum",
					     "\"X\"", "" } };
	ops.rules = dup;
	ops.n_rules = 1;
	ck_assert_int_eq(kp_registry_add_validator(reg, KP_KIND_NODEPOOL, &ops, NULL, &e), KP_EINVAL);
	ck_assert_str_eq(e.message, "NodePool: rule 0: spec.template.spec.requirements[*].operator "
				    "enum is already a rule of the kind");
	/* another ABI generation, unknown flags, a NULL table with a count */
	ops.rules = NULL;
	ops.abi_major = KP_ABI_MAJOR + 1;
	ck_assert_int_eq(kp_registry_add_validator(reg, KP_KIND_NODEPOOL, &ops, NULL, &e),
			 KP_EVERSION);
	ops.abi_major = KP_ABI_MAJOR;
	ops.flags = 1;
	ck_assert_int_eq(kp_registry_add_validator(reg, KP_KIND_NODEPOOL, &ops, NULL, &e), KP_EINVAL);
	ops.flags = 0;
	ck_assert_int_eq(kp_registry_add_validator(reg, KP_KIND_NODEPOOL, &ops, NULL, &e), KP_EINVAL);
	ck_assert_int_eq(kp_registry_add_validator(NULL, KP_KIND_NODEPOOL, &ops, NULL, &e),
			 KP_EINVAL);
	ck_assert_uint_eq(kp_registry_rule_count(reg, KP_KIND_NODEPOOL), before);
	char *p = problems(NP_YAML(REQ("forbidden.test/a")));
	ck_assert_str_eq(p, ""); /* nothing was kept */
	free(p);
}
END_TEST

/* A validator whose walk names a row it did not register: an internal
 * error of kp_validate, not a silent pass. */
static int stray_validate(void *self, const void *object, const void *old,
			  kp_validation_sink *sink, kp_error *err)
{
	(void)self;
	(void)object;
	(void)old;
	(void)err;
	int rc = kp_validation_sink_push(sink, "spec");
	ck_assert_int_eq(rc, KP_OK);
	ck_assert_int_eq(kp_validation_sink_cel(sink, 7, KP_CEL_FALSE, "object", NULL, NULL),
			 KP_EINVAL);
	ck_assert_int_eq(kp_validation_sink_cel(sink, 0, 3, "object", NULL, NULL), KP_EINVAL);
	return KP_OK;
}

START_TEST(test_missing_row)
{
	kp_validator_ops ops = KP_VALIDATOR_OPS_INIT;
	ops.validate = stray_validate;
	ck_assert_int_eq(kp_registry_add_validator(reg, KP_KIND_NODEPOOL, &ops, NULL, NULL), KP_OK);
	uint32_t kind;
	void *obj = decode(NP_YAML(REQ("a")), &kind);
	kp_validate_options o = KP_VALIDATE_OPTIONS_INIT;
	o.registry = reg;
	kp_validation *v = NULL;
	kp_error e = KP_ERROR_INIT;
	ck_assert_int_eq(kp_validate(&v, kind, obj, NULL, &o, &e), KP_EINVAL);
	ck_assert_ptr_null(v);
	ck_assert_msg(!strncmp(e.message, "internal error: validation rule missing", 39), "%s",
		      e.message);
	kp_registry_object_free(reg, kind, obj);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("validators");
	TCase *tc = tcase_create("validators");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_core_kind);
	tcase_add_test(tc, test_registration_order);
	tcase_add_test(tc, test_refused);
	tcase_add_test(tc, test_missing_row);
	suite_add_tcase(s, tc);
	return kp_test_run(&s, 1);
}
