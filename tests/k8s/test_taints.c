/* SPDX-License-Identifier: Apache-2.0 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <karpenter/labels.h>
#include <karpenter/taints.h>

#include "kp_internal.h"
#include "kp_test.h"

#define NS KP_TAINT_EFFECT_NO_SCHEDULE
#define PNS KP_TAINT_EFFECT_PREFER_NO_SCHEDULE
#define NE KP_TAINT_EFFECT_NO_EXECUTE
#define ANY KP_TAINT_EFFECT_NONE
#define EQUAL KP_TOLERATION_OP_EQUAL
#define EXISTS KP_TOLERATION_OP_EXISTS
#define LT KP_TOLERATION_OP_LT
#define GT KP_TOLERATION_OP_GT

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* kp_error keeps the first 255 bytes of what ErrorBody() returns. */
static void assert_message(const kp_error *err, const char *full)
{
	char want[KP_ERROR_MESSAGE_MAX];
	snprintf(want, sizeof(want), "%s", full);
	ck_assert_str_eq(err->message, want);
}

/* ---- names ---- */

static const struct effect_case {
	const char *text;
	uint32_t effect;
} effect_cases[] = {
	{ "", KP_TAINT_EFFECT_NONE },
	{ "NoSchedule", KP_TAINT_EFFECT_NO_SCHEDULE },
	{ "PreferNoSchedule", KP_TAINT_EFFECT_PREFER_NO_SCHEDULE },
	{ "NoExecute", KP_TAINT_EFFECT_NO_EXECUTE },
};

START_TEST(effect_names)
{
	const struct effect_case *c = &effect_cases[_i];
	uint32_t e = 99;
	ck_assert_str_eq(kp_taint_effect_name(c->effect), c->text);
	ck_assert_int_eq(kp_taint_effect_parse(c->text, &e, NULL), KP_OK);
	ck_assert_uint_eq(e, c->effect);
}
END_TEST

START_TEST(effect_unknown)
{
	kp_error err = KP_ERROR_INIT;
	uint32_t e = 99;
	ck_assert_str_eq(kp_taint_effect_name(4), "Unknown");
	ck_assert_int_eq(kp_taint_effect_parse("noschedule", &e, &err), KP_EINVAL);
	ck_assert_str_eq(err.field, "");
	ck_assert_str_eq(err.message, "Unsupported value: \"noschedule\": supported values: "
				      "\"NoSchedule\", \"PreferNoSchedule\", \"NoExecute\"");
	ck_assert_int_eq(kp_taint_effect_parse("NoScheduleNoAdmit", &e, NULL), KP_EINVAL);
	ck_assert_uint_eq(e, 99);
	ck_assert_int_eq(kp_taint_effect_parse(NULL, &e, &err), KP_EINVAL);
	ck_assert_str_eq(err.message, "text is NULL");
	ck_assert_int_eq(kp_taint_effect_parse("NoExecute", NULL, &err), KP_EINVAL);
	ck_assert_str_eq(err.message, "out is NULL");
}
END_TEST

static const struct op_case {
	const char *text;
	uint32_t op;
	const char *name;
} op_cases[] = {
	{ "Equal", KP_TOLERATION_OP_EQUAL, "Equal" },
	{ "", KP_TOLERATION_OP_EQUAL, "Equal" },
	{ "Exists", KP_TOLERATION_OP_EXISTS, "Exists" },
	{ "Lt", KP_TOLERATION_OP_LT, "Lt" },
	{ "Gt", KP_TOLERATION_OP_GT, "Gt" },
};

START_TEST(op_names)
{
	const struct op_case *c = &op_cases[_i];
	uint32_t op = 99;
	ck_assert_str_eq(kp_toleration_op_name(c->op), c->name);
	ck_assert_int_eq(kp_toleration_op_parse(c->text, &op, NULL), KP_OK);
	ck_assert_uint_eq(op, c->op);
}
END_TEST

START_TEST(op_unknown)
{
	kp_error err = KP_ERROR_INIT;
	uint32_t op = 99;
	ck_assert_str_eq(kp_toleration_op_name(4), "Unknown");
	ck_assert_int_eq(kp_toleration_op_parse("exists", &op, &err), KP_EINVAL);
	ck_assert_str_eq(err.message, "Unsupported value: \"exists\": supported values: "
				      "\"Equal\", \"Exists\", \"Lt\", \"Gt\"");
	ck_assert_uint_eq(op, 99);
	ck_assert_int_eq(kp_toleration_op_parse(NULL, &op, &err), KP_EINVAL);
	ck_assert_str_eq(err.message, "text is NULL");
}
END_TEST

/* ---- ToleratesTaint ---- */

static const struct tol_case {
	const char *name;
	kp_toleration tol;
	kp_taint taint;
	int want;
} tol_cases[] = {
	/* k8s.io/api core/v1 toleration_test.go TestTolerationToleratesTaint */
	{ "same key and effect, Exists, taint without value",
	  { "foo", NULL, EXISTS, NS, 0, 0, 0 }, { "foo", NULL, NS, 0, 0 }, 1 },
	{ "same key and effect, Exists, taint with value",
	  { "foo", NULL, EXISTS, NS, 0, 0, 0 }, { "foo", "bar", NS, 0, 0 }, 1 },
	{ "empty key, Exists, same effect",
	  { "", NULL, EXISTS, NS, 0, 0, 0 }, { "foo", "bar", NS, 0, 0 }, 1 },
	{ "same key, effect and value, Equal",
	  { "foo", "bar", EQUAL, NS, 0, 0, 0 }, { "foo", "bar", NS, 0, 0 }, 1 },
	{ "same key and effect, different values, Equal",
	  { "foo", "value1", EQUAL, NS, 0, 0, 0 }, { "foo", "value2", NS, 0, 0 }, 0 },
	{ "same key and value, different effects, Equal",
	  { "foo", "bar", EQUAL, NS, 0, 0, 0 }, { "foo", "bar", NE, 0, 0 }, 0 },
	{ "Gt, taint value below",
	  { "node.kubernetes.io/sla", "950", GT, NS, 0, 0, 0 }, { "node.kubernetes.io/sla", "800", NS, 0, 0 }, 0 },
	{ "Gt, taint value above",
	  { "node.kubernetes.io/sla", "750", GT, NS, 0, 0, 0 }, { "node.kubernetes.io/sla", "950", NS, 0, 0 }, 1 },
	{ "Lt, taint value above",
	  { "node.kubernetes.io/sla", "800", LT, NS, 0, 0, 0 }, { "node.kubernetes.io/sla", "950", NS, 0, 0 }, 0 },
	{ "Lt, taint value below",
	  { "node.kubernetes.io/sla", "950", LT, NS, 0, 0, 0 }, { "node.kubernetes.io/sla", "800", NS, 0, 0 }, 1 },
	{ "Gt, equal values",
	  { "node.kubernetes.io/sla", "950", GT, NS, 0, 0, 0 }, { "node.kubernetes.io/sla", "950", NS, 0, 0 }, 0 },
	{ "Gt, non-numeric taint value",
	  { "node.kubernetes.io/sla", "950", GT, NS, 0, 0, 0 }, { "node.kubernetes.io/sla", "high", NS, 0, 0 }, 0 },
	{ "Gt, negative values, taint below",
	  { "test-key", "-100", GT, NS, 0, 0, 0 }, { "test-key", "-200", NS, 0, 0 }, 0 },
	{ "Gt, large int64 threshold",
	  { "test-key", "9223372036854775806", GT, NS, 0, 0, 0 }, { "test-key", "100", NS, 0, 0 }, 0 },
	/* the documented rules, one by one */
	{ "empty key and effect, Exists: tolerates everything",
	  { "", NULL, EXISTS, ANY, 0, 0, 0 }, { "any/key", "v", NE, 0, 0 }, 1 },
	{ "NULL key and effect, Exists: tolerates everything",
	  { NULL, NULL, EXISTS, ANY, 0, 0, 0 }, { "k", NULL, PNS, 0, 0 }, 1 },
	{ "empty effect matches NoExecute",
	  { "k", "v", EQUAL, ANY, 0, 0, 0 }, { "k", "v", NE, 0, 0 }, 1 },
	{ "empty effect matches PreferNoSchedule",
	  { "k", NULL, EXISTS, ANY, 0, 0, 0 }, { "k", "v", PNS, 0, 0 }, 1 },
	{ "key differs",
	  { "k1", NULL, EXISTS, ANY, 0, 0, 0 }, { "k2", NULL, NS, 0, 0 }, 0 },
	{ "Exists ignores a toleration value",
	  { "k", "ignored", EXISTS, NS, 0, 0, 0 }, { "k", "v", NS, 0, 0 }, 1 },
	{ "Equal, both values empty",
	  { "k", "", EQUAL, NS, 0, 0, 0 }, { "k", NULL, NS, 0, 0 }, 1 },
	{ "Equal, toleration value set, taint value empty",
	  { "k", "v", EQUAL, NS, 0, 0, 0 }, { "k", "", NS, 0, 0 }, 0 },
	{ "Equal is case-sensitive",
	  { "k", "V", EQUAL, NS, 0, 0, 0 }, { "k", "v", NS, 0, 0 }, 0 },
	{ "empty key with Equal compares values of any key",
	  { "", "v", EQUAL, ANY, 0, 0, 0 }, { "other", "v", NS, 0, 0 }, 1 },
	{ "empty key with Equal, value differs",
	  { "", "", EQUAL, ANY, 0, 0, 0 }, { "other", "v", NS, 0, 0 }, 0 },
	{ "tolerationSeconds does not affect matching",
	  { "k", NULL, EXISTS, NE, 0, 1, 0 }, { "k", NULL, NE, 0, 0 }, 1 },
	{ "tolerationSeconds does not make a mismatch match",
	  { "k", NULL, EXISTS, NE, 300, 1, 0 }, { "k", NULL, NS, 0, 0 }, 0 },
	{ "unknown operator never matches",
	  { "k", "v", 9, ANY, 0, 0, 0 }, { "k", "v", NS, 0, 0 }, 0 },
	{ "taint without effect, toleration with one",
	  { "k", NULL, EXISTS, NS, 0, 0, 0 }, { "k", NULL, ANY, 0, 0 }, 0 },
	{ "time_added does not affect matching",
	  { "k", NULL, EXISTS, NE, 0, 0, 0 }, { "k", NULL, NE, 0, 1700000000000 }, 1 },
	{ "karpenter.sh/disrupted:NoSchedule, Exists on the key",
	  { KP_TAINT_KEY_DISRUPTED, NULL, EXISTS, ANY, 0, 0, 0 }, KP_TAINT_DISRUPTED_NO_SCHEDULE, 1 },
	{ "karpenter.sh/disrupted:NoSchedule, NoExecute toleration",
	  { KP_TAINT_KEY_DISRUPTED, NULL, EXISTS, NE, 0, 0, 0 }, KP_TAINT_DISRUPTED_NO_SCHEDULE, 0 },
};

START_TEST(tolerates_table)
{
	const struct tol_case *c = &tol_cases[_i];
	ck_assert_msg(kp_toleration_tolerates(&c->tol, &c->taint) == c->want, "%s: expected %d",
		      c->name, c->want);
}
END_TEST

START_TEST(tolerates_null)
{
	kp_toleration tol = { NULL, NULL, EXISTS, ANY, 0, 0, 0 };
	kp_taint taint = { "k", NULL, NS, 0, 0 };
	ck_assert_int_eq(kp_toleration_tolerates(&tol, &taint), 1);
	ck_assert_int_eq(kp_toleration_tolerates(NULL, &taint), 0);
	ck_assert_int_eq(kp_toleration_tolerates(&tol, NULL), 0);
}
END_TEST

/* Exists with a matching key: rows toleration effect, columns taint effect. */
START_TEST(effect_matrix)
{
	static const int want[4][4] = {
		/* taint:  none NS PNS NE */
		/* none */ { 1, 1, 1, 1 },
		/* NS   */ { 0, 1, 0, 0 },
		/* PNS  */ { 0, 0, 1, 0 },
		/* NE   */ { 0, 0, 0, 1 },
	};
	for (uint32_t te = 0; te < 4; te++)
		for (uint32_t xe = 0; xe < 4; xe++) {
			kp_toleration tol = { "k", NULL, EXISTS, te, 0, 0, 0 };
			kp_taint taint = { "k", "v", xe, 0, 0 };
			ck_assert_msg(kp_toleration_tolerates(&tol, &taint) == want[te][xe],
				      "toleration effect %u, taint effect %u", te, xe);
		}
}
END_TEST

/* Each operator against the same key and effect: value pairs and results. */
static const struct op_value_case {
	uint32_t op;
	const char *tol_value;
	const char *taint_value;
	int want;
} op_value_cases[] = {
	{ EQUAL, "a", "a", 1 },
	{ EQUAL, "a", "b", 0 },
	{ EQUAL, "", "", 1 },
	{ EQUAL, "100", "0100", 0 },
	{ EXISTS, "", "anything", 1 },
	{ EXISTS, "x", "", 1 },
	/* core/v1 toleration_test.go TestCompareNumericValues */
	{ GT, "100", "200", 1 },
	{ GT, "200", "100", 0 },
	{ GT, "100", "100", 0 },
	{ GT, "-100", "-50", 1 },
	{ GT, "-50", "-100", 0 },
	{ GT, "0", "1", 1 },
	{ GT, "9223372036854775806", "9223372036854775807", 1 },
	{ LT, "200", "100", 1 },
	{ LT, "100", "200", 0 },
	{ LT, "100", "100", 0 },
	{ LT, "-50", "-100", 1 },
	{ LT, "-100", "-50", 0 },
	{ LT, "0", "-1", 1 },
	{ GT, "abc", "100", 0 },
	{ GT, "", "100", 0 },
	{ GT, "0100", "200", 0 },
	{ GT, "+100", "200", 0 },
	{ GT, "100.5", "200", 0 },
	{ GT, "-", "100", 0 },
	{ GT, "100", "xyz", 0 },
	{ GT, "100", "", 0 },
	{ GT, "100", "0200", 0 },
	{ LT, "100", "+200", 0 },
	{ LT, "100", " 200 ", 0 },
	{ GT, "0", "0", 0 },
	{ LT, "0", "0", 0 },
	{ GT, "0", "9223372036854775807", 1 },
	{ LT, "0", "-9223372036854775808", 1 },
	/* beyond upstream's table: int64 range and canonical form */
	{ GT, "0", "9223372036854775808", 0 },
	{ LT, "0", "-9223372036854775809", 0 },
	{ LT, "-9223372036854775807", "-9223372036854775808", 1 },
	{ GT, "-1", "-0", 0 },
	{ LT, "1", "-0", 0 },
	{ LT, "10", "9", 1 },
	{ GT, "9", "10", 1 },
	{ GT, "-1", "0", 1 },
};

START_TEST(op_value_table)
{
	const struct op_value_case *c = &op_value_cases[_i];
	kp_toleration tol = { "k", c->tol_value, c->op, NS, 0, 0, 0 };
	kp_taint taint = { "k", c->taint_value, NS, 0, 0 };
	ck_assert_msg(kp_toleration_tolerates(&tol, &taint) == c->want,
		      "%s %s taint %s: expected %d", kp_toleration_op_name(c->op), c->tol_value,
		      c->taint_value, c->want);
}
END_TEST

/* ---- Taints.Tolerates ---- */

START_TEST(taints_tolerates)
{
	kp_error err = KP_ERROR_INIT;
	const kp_taint taints[] = {
		{ "dedicated", "gpu", NS, 0, 0 },
		{ "spot", NULL, PNS, 0, 0 },
		KP_TAINT_DISRUPTED_NO_SCHEDULE,
	};
	const kp_toleration tols[] = {
		{ "other", NULL, EXISTS, ANY, 0, 0, 0 },
		{ "dedicated", "gpu", EQUAL, NS, 0, 0, 0 },
		{ "spot", NULL, EXISTS, ANY, 0, 0, 0 },
		{ KP_TAINT_KEY_DISRUPTED, NULL, EXISTS, NS, 0, 0, 0 },
	};
	const kp_toleration everything = { NULL, NULL, EXISTS, ANY, 0, 0, 0 };

	ck_assert_int_eq(kp_taints_tolerates(NULL, 0, NULL, 0, &err), KP_OK);
	ck_assert_int_eq(kp_taints_tolerates(NULL, 0, tols, 4, &err), KP_OK);
	ck_assert_int_eq(kp_taints_tolerates(taints, 3, tols, 4, &err), KP_OK);
	ck_assert_int_eq(kp_taints_tolerates(taints, 3, &everything, 1, &err), KP_OK);
	ck_assert_int_eq(err.code, 0);

	/* PreferNoSchedule taints must be tolerated too */
	ck_assert_int_eq(kp_taints_tolerates(taints, 3, tols, 2, &err), KP_EINCOMPATIBLE);
	ck_assert_int_eq(err.code, KP_EINCOMPATIBLE);
	ck_assert_str_eq(err.field, "[1]");
	ck_assert_str_eq(err.message, "did not tolerate taint (taint=spot:PreferNoSchedule); "
				      "did not tolerate taint (taint=karpenter.sh/disrupted:NoSchedule)");

	ck_assert_int_eq(kp_taints_tolerates(taints, 3, NULL, 0, &err), KP_EINCOMPATIBLE);
	ck_assert_str_eq(err.field, "[0]");
	ck_assert_str_eq(err.message, "did not tolerate taint (taint=dedicated=gpu:NoSchedule); "
				      "did not tolerate taint (taint=spot:PreferNoSchedule); "
				      "did not tolerate taint (taint=karpenter.sh/disrupted:NoSchedule)");
	ck_assert_int_eq(kp_taints_tolerates(taints, 3, tols, 2, NULL), KP_EINCOMPATIBLE);

	ck_assert_int_eq(kp_taints_tolerates(NULL, 2, tols, 1, &err), KP_EINVAL);
	ck_assert_str_eq(err.message, "taints is NULL but its count is 2");
	ck_assert_int_eq(kp_taints_tolerates(taints, 1, NULL, 3, &err), KP_EINVAL);
	ck_assert_str_eq(err.message, "tolerations is NULL but its count is 3");
}
END_TEST

START_TEST(taints_tolerates_truncates)
{
	/* many untolerated taints: the message is cut, never overflowed */
	kp_taint taints[20];
	for (int i = 0; i < 20; i++)
		taints[i] = (kp_taint){ "example.com/some-long-taint-key", "v", NE, 0, 0 };
	kp_error err = KP_ERROR_INIT;
	ck_assert_int_eq(kp_taints_tolerates(taints, 20, NULL, 0, &err), KP_EINCOMPATIBLE);
	ck_assert_uint_eq(strlen(err.message), KP_ERROR_MESSAGE_MAX - 1);
	ck_assert_int_eq(strncmp(err.message,
				 "did not tolerate taint (taint=example.com/some-long-taint-key=v:NoExecute); "
				 "did not tolerate taint (taint=example.com/some-long-taint-key=v:NoExecute); ",
				 152), 0);
}
END_TEST

/* ---- matching, ephemeral taints ---- */

START_TEST(taint_match)
{
	kp_taint a = { "k", "v1", NS, 0, 0 }, b = { "k", "v2", NS, 0, 5 }, c = { "k", "v1", NE, 0, 0 },
		 d = { "j", "v1", NS, 0, 0 }, e = { NULL, NULL, NS, 0, 0 }, f = { "", "", NS, 0, 0 };
	ck_assert_int_eq(kp_taint_match(&a, &b), 1);
	ck_assert_int_eq(kp_taint_match(&a, &c), 0);
	ck_assert_int_eq(kp_taint_match(&a, &d), 0);
	ck_assert_int_eq(kp_taint_match(&e, &f), 1);
	ck_assert_int_eq(kp_taint_match(&a, NULL), 0);
	ck_assert_int_eq(kp_taint_match(NULL, &a), 0);
}
END_TEST

START_TEST(known_ephemeral_list)
{
	size_t n = 0;
	const kp_taint *t = kp_taints_known_ephemeral(&n);
	ck_assert_uint_eq(n, 5);
	ck_assert_ptr_eq(kp_taints_known_ephemeral(NULL), t);
	const struct { const char *key, *value; uint32_t effect; } want[] = {
		{ "node.kubernetes.io/not-ready", "", NS },
		{ "node.kubernetes.io/not-ready", "", NE },
		{ "node.kubernetes.io/unreachable", "", NS },
		{ "node.cloudprovider.kubernetes.io/uninitialized", "true", NS },
		{ "karpenter.sh/unregistered", "", NE },
	};
	for (size_t i = 0; i < n; i++) {
		ck_assert_str_eq(t[i].key, want[i].key);
		ck_assert_str_eq(t[i].value, want[i].value);
		ck_assert_uint_eq(t[i].effect, want[i].effect);
		ck_assert_int_eq(t[i].time_added_ms, 0);
		ck_assert_int_eq(kp_taint_is_known_ephemeral(&t[i]), 1);
	}
}
END_TEST

static const struct ephemeral_case {
	const char *name;
	kp_taint taint;
	int want;
} ephemeral_cases[] = {
	/* pkg/scheduling/taints_test.go */
	{ "exact entry", { "node.kubernetes.io/not-ready", NULL, NS, 0, 0 }, 1 },
	{ "readiness prefix", { "readiness.k8s.io/my-rule", NULL, NS, 0, 0 }, 1 },
	{ "readiness prefix, any effect", { "readiness.k8s.io/another", NULL, NE, 0, 0 }, 1 },
	{ "unrelated", { "example.com/some-taint", NULL, NS, 0, 0 }, 0 },
	{ "prefix in the middle", { "foo/readiness.k8s.io/bar", NULL, NS, 0, 0 }, 0 },
	/* MatchTaint compares key and effect only */
	{ "uninitialized, other value", { "node.cloudprovider.kubernetes.io/uninitialized", "false", NS, 0, 0 }, 1 },
	{ "not-ready with a value", { "node.kubernetes.io/not-ready", "x", NE, 0, 0 }, 1 },
	{ "not-ready, PreferNoSchedule", { "node.kubernetes.io/not-ready", NULL, PNS, 0, 0 }, 0 },
	{ "unreachable, NoExecute", { "node.kubernetes.io/unreachable", NULL, NE, 0, 0 }, 0 },
	{ "unregistered, NoSchedule", { "karpenter.sh/unregistered", NULL, NS, 0, 0 }, 0 },
	{ "disrupted", KP_TAINT_DISRUPTED_NO_SCHEDULE, 0 },
	{ "unregistered macro", KP_TAINT_UNREGISTERED_NO_EXECUTE, 1 },
	{ "prefix without slash", { "readiness.k8s.io", NULL, NS, 0, 0 }, 0 },
	{ "prefix alone", { "readiness.k8s.io/", NULL, NS, 0, 0 }, 1 },
	{ "NULL key", { NULL, NULL, NS, 0, 0 }, 0 },
};

START_TEST(ephemeral_table)
{
	const struct ephemeral_case *c = &ephemeral_cases[_i];
	ck_assert_msg(kp_taint_is_known_ephemeral(&c->taint) == c->want, "%s: expected %d", c->name,
		      c->want);
}
END_TEST

START_TEST(ephemeral_null)
{
	ck_assert_int_eq(kp_taint_is_known_ephemeral(NULL), 0);
}
END_TEST

/* ---- format ---- */

START_TEST(format)
{
	char buf[64];
	kp_taint t = { "k", "v", NS, 0, 0 };
	ck_assert_int_eq(kp_taint_format(&t, buf, sizeof(buf)), KP_OK);
	ck_assert_str_eq(buf, "k=v:NoSchedule");
	t.value = NULL;
	t.effect = NE;
	ck_assert_int_eq(kp_taint_format(&t, buf, sizeof(buf)), KP_OK);
	ck_assert_str_eq(buf, "k:NoExecute");
	t.effect = ANY;
	ck_assert_int_eq(kp_taint_format(&t, buf, sizeof(buf)), KP_OK);
	ck_assert_str_eq(buf, "k:");
	t.effect = 9;
	ck_assert_int_eq(kp_taint_format(&t, buf, sizeof(buf)), KP_OK);
	ck_assert_str_eq(buf, "k:9");
	t.effect = PNS;
	ck_assert_int_eq(kp_taint_format(&t, buf, 19), KP_OK);
	ck_assert_str_eq(buf, "k:PreferNoSchedule");
	ck_assert_int_eq(kp_taint_format(&t, buf, 18), KP_ERANGE);
	ck_assert_str_eq(buf, "");
	ck_assert_int_eq(kp_taint_format(&t, buf, 0), KP_ERANGE);
	ck_assert_int_eq(kp_taint_format(NULL, buf, 8), KP_EINVAL);
	ck_assert_int_eq(kp_taint_format(&t, NULL, 8), KP_EINVAL);
}
END_TEST

/* ---- validation ---- */

#define A10 "aaaaaaaaaa"
#define A64 A10 A10 A10 A10 A10 A10 "aaaa"
#define VALUE_FORMAT                                                                    \
	"a valid label must be an empty string or consist of alphanumeric characters, "   \
	"'-', '_' or '.', and must start and end with an alphanumeric character (e.g. "   \
	"'MyValue',  or 'my_value',  or '12345', regex used for validation is "           \
	"'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"
#define NAME_FORMAT                                                                     \
	"name part must consist of alphanumeric characters, '-', '_' or '.', and must "   \
	"start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  "  \
	"or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"
#define SUPPORTED "supported values: \"NoSchedule\", \"PreferNoSchedule\", \"NoExecute\""

static const struct validate_case {
	kp_taint taint;
	const char *field;
	const char *message;
} validate_cases[] = {
	{ { "k", "v", NS, 0, 0 }, NULL, NULL },
	{ { "example.com/dedicated", NULL, NE, 0, 1700000000000 }, NULL, NULL },
	{ KP_TAINT_DISRUPTED_NO_SCHEDULE, NULL, NULL },
	{ { "", "v", NS, 0, 0 }, "key", "Invalid value: \"\": name part must be non-empty" },
	{ { NULL, "v", NS, 0, 0 }, "key", "Invalid value: \"\": name part must be non-empty" },
	{ { "a b", "v", NS, 0, 0 }, "key", "Invalid value: \"a b\": " NAME_FORMAT },
	{ { "k", A64, NS, 0, 0 }, "value",
	  "Invalid value: \"" A64 "\": must be no more than 63 bytes" },
	{ { "k", "-v", NS, 0, 0 }, "value", "Invalid value: \"-v\": " VALUE_FORMAT },
	{ { "k", A64 "-", NS, 0, 0 }, "value",
	  "Invalid value: \"" A64 "-\": must be no more than 63 bytes;" VALUE_FORMAT },
	{ { "k", "v", ANY, 0, 0 }, "effect", "Required value" },
	{ { "k", "v", 4, 0, 0 }, "effect", "Unsupported value: 4: " SUPPORTED },
	/* key is reported before value and effect */
	{ { "-k", "-v", 7, 0, 0 }, "key", "Invalid value: \"-k\": " NAME_FORMAT },
	{ { "k", "-v", 7, 0, 0 }, "value", "Invalid value: \"-v\": " VALUE_FORMAT },
};

START_TEST(validate_table)
{
	const struct validate_case *c = &validate_cases[_i];
	kp_error err = KP_ERROR_INIT;
	int want = c->field ? KP_EINVAL : KP_OK;
	ck_assert_int_eq(kp_taint_validate(&c->taint, &err), want);
	ck_assert_int_eq(kp_taint_validate(&c->taint, NULL), want);
	ck_assert_int_eq(kp_taints_validate(&c->taint, 1, NULL), want);
	if (!c->field) {
		ck_assert_int_eq(err.code, 0);
		return;
	}
	ck_assert_int_eq(err.code, KP_EINVAL);
	ck_assert_str_eq(err.field, c->field);
	assert_message(&err, c->message);

	/* in a list the path gains the index */
	kp_taint list[2] = { { "ok", NULL, NS, 0, 0 }, c->taint };
	char field[64];
	snprintf(field, sizeof(field), "[1].%s", c->field);
	ck_assert_int_eq(kp_taints_validate(list, 2, &err), KP_EINVAL);
	ck_assert_str_eq(err.field, field);
	assert_message(&err, c->message);
}
END_TEST

START_TEST(validate_list)
{
	kp_error err = KP_ERROR_INIT;
	const kp_taint ok[] = {
		{ "a", "x", NS, 0, 0 },
		{ "a", "x", NE, 0, 0 },
		{ "b", "x", NS, 0, 0 },
	};
	const kp_taint dup[] = {
		{ "a", "x", NS, 0, 0 },
		{ "b", NULL, NE, 0, 0 },
		{ "a", "y", NS, 0, 0 },
	};
	const kp_taint dup_time[] = {
		{ "b", NULL, NE, 0, 0 },
		{ "b", "z", NE, 0, 1700000000123 },
	};
	const kp_taint dup_then_invalid[] = {
		{ "a", NULL, NS, 0, 0 },
		{ "a", NULL, NS, 0, 0 },
		{ "c", NULL, ANY, 0, 0 },
	};

	ck_assert_int_eq(kp_taints_validate(NULL, 0, &err), KP_OK);
	ck_assert_int_eq(kp_taints_validate(ok, 3, &err), KP_OK);
	ck_assert_int_eq(err.code, 0);

	ck_assert_int_eq(kp_taints_validate(dup, 3, &err), KP_EINVAL);
	ck_assert_str_eq(err.field, "[2]");
	ck_assert_str_eq(err.message, "Duplicate value: core.Taint{Key:\"a\", Value:\"y\", "
				      "Effect:\"NoSchedule\", TimeAdded:<nil>}: taints must be unique "
				      "by key and effect pair");
	ck_assert_int_eq(kp_taints_validate(dup, 3, NULL), KP_EINVAL);

	ck_assert_int_eq(kp_taints_validate(dup_time, 2, &err), KP_EINVAL);
	ck_assert_str_eq(err.field, "[1]");
	ck_assert_str_eq(err.message, "Duplicate value: core.Taint{Key:\"b\", Value:\"z\", "
				      "Effect:\"NoExecute\", TimeAdded:1700000000123}: taints must be "
				      "unique by key and effect pair");

	ck_assert_int_eq(kp_taints_validate(dup_then_invalid, 3, &err), KP_EINVAL);
	ck_assert_str_eq(err.field, "[1]");

	ck_assert_int_eq(kp_taints_validate(NULL, 2, &err), KP_EINVAL);
	ck_assert_str_eq(err.message, "taints is NULL but n_taints is 2");
	ck_assert_int_eq(kp_taint_validate(NULL, &err), KP_EINVAL);
	ck_assert_str_eq(err.message, "taint is NULL");
}
END_TEST

/* ---- no allocation on the matching paths ---- */

START_TEST(matching_does_not_allocate)
{
	kp_test_alloc_install();
	const kp_taint taints[] = { { "k", "5", NS, 0, 0 }, KP_TAINT_DISRUPTED_NO_SCHEDULE };
	const kp_toleration tols[] = { { "k", "9", LT, ANY, 0, 0, 0 } };
	kp_error err = KP_ERROR_INIT;
	ck_assert_int_eq(kp_toleration_tolerates(&tols[0], &taints[0]), 1);
	ck_assert_int_eq(kp_taints_tolerates(taints, 1, tols, 1, &err), KP_OK);
	ck_assert_int_eq(kp_taints_tolerates(taints, 2, tols, 1, &err), KP_EINCOMPATIBLE);
	ck_assert_int_eq(kp_taint_is_known_ephemeral(&taints[1]), 0);
	ck_assert_int_eq(kp_taints_validate(taints, 2, &err), KP_OK);
	ck_assert_int_eq(kp_test_alloc_count(), 0);
	kp_test_alloc_uninstall();
}
END_TEST

int main(void)
{
	Suite *s = suite_create("taints");
	TCase *tc = tcase_create("names");
	tcase_add_loop_test(tc, effect_names, 0, N(effect_cases));
	tcase_add_test(tc, effect_unknown);
	tcase_add_loop_test(tc, op_names, 0, N(op_cases));
	tcase_add_test(tc, op_unknown);
	suite_add_tcase(s, tc);

	tc = tcase_create("tolerations");
	tcase_add_loop_test(tc, tolerates_table, 0, N(tol_cases));
	tcase_add_test(tc, tolerates_null);
	tcase_add_test(tc, effect_matrix);
	tcase_add_loop_test(tc, op_value_table, 0, N(op_value_cases));
	tcase_add_test(tc, taints_tolerates);
	tcase_add_test(tc, taints_tolerates_truncates);
	tcase_add_test(tc, matching_does_not_allocate);
	suite_add_tcase(s, tc);

	tc = tcase_create("taints");
	tcase_add_test(tc, taint_match);
	tcase_add_test(tc, known_ephemeral_list);
	tcase_add_loop_test(tc, ephemeral_table, 0, N(ephemeral_cases));
	tcase_add_test(tc, ephemeral_null);
	tcase_add_test(tc, format);
	tcase_add_loop_test(tc, validate_table, 0, N(validate_cases));
	tcase_add_test(tc, validate_list);
	suite_add_tcase(s, tc);
	return kp_test_run(&s, 1);
}
