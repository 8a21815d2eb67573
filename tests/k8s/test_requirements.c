/*
 * Karpenter's requirements algebra: the outcomes of upstream
 * pkg/scheduling/requirement_test.go and requirements_test.go as C tables,
 * plus the C API's own contracts (ownership, errors, no allocation).
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <karpenter/requirements.h>

#include "kp_test.h"

/* ------------------------------------------------------------------ */
/* fixtures: upstream's named requirements on one key                  */

enum {
	EX, DNE, IN_A, IN_B, IN_AB, NOTIN_A, IN_1, IN_9, IN_19, NOTIN_12, GT_1, GT_9, LT_1, LT_9,
	N_OPERANDS
};
/* The same operand built with minValues ("...OperatorWithFlexibility"). */
#define M(x) ((x) + N_OPERANDS)

static const struct operand {
	uint32_t op;
	const char *values[2];
	size_t n_values;
	int32_t min_values; /* used by M(x) only */
	const char *name;
} operands[N_OPERANDS] = {
	[EX] = { KP_SELECTOR_OP_EXISTS, { NULL }, 0, 1, "exists" },
	[DNE] = { KP_SELECTOR_OP_DOES_NOT_EXIST, { NULL }, 0, 1, "doesNotExist" },
	[IN_A] = { KP_SELECTOR_OP_IN, { "A" }, 1, 1, "inA" },
	[IN_B] = { KP_SELECTOR_OP_IN, { "B" }, 1, 1, "inB" },
	[IN_AB] = { KP_SELECTOR_OP_IN, { "A", "B" }, 2, 2, "inAB" },
	[NOTIN_A] = { KP_SELECTOR_OP_NOT_IN, { "A" }, 1, 1, "notInA" },
	[IN_1] = { KP_SELECTOR_OP_IN, { "1" }, 1, 1, "in1" },
	[IN_9] = { KP_SELECTOR_OP_IN, { "9" }, 1, 1, "in9" },
	[IN_19] = { KP_SELECTOR_OP_IN, { "1", "9" }, 2, 2, "in19" },
	[NOTIN_12] = { KP_SELECTOR_OP_NOT_IN, { "1", "2" }, 2, 2, "notIn12" },
	[GT_1] = { KP_SELECTOR_OP_GT, { "1" }, 1, 1, "greaterThan1" },
	[GT_9] = { KP_SELECTOR_OP_GT, { "9" }, 1, 1, "greaterThan9" },
	[LT_1] = { KP_SELECTOR_OP_LT, { "1" }, 1, 1, "lessThan1" },
	[LT_9] = { KP_SELECTOR_OP_LT, { "9" }, 1, 1, "lessThan9" },
};

static kp_node_selector_requirement selector(const char *key, uint32_t op,
					     const char *const *values, size_t n, int32_t min_values)
{
	kp_node_selector_requirement s = KP_NODE_SELECTOR_REQUIREMENT_INIT;
	s.key = key;
	s.op = op;
	s.values = values;
	s.n_values = n;
	s.min_values = min_values;
	return s;
}

static kp_requirement *make(const char *key, uint32_t op, const char *const *values, size_t n,
			    int32_t min_values)
{
	kp_node_selector_requirement s = selector(key, op, values, n, min_values);
	kp_requirement *r = NULL;
	kp_error err = KP_ERROR_INIT;
	ck_assert_msg(kp_requirement_new(&r, &s, NULL, &err) == KP_OK, "%s", err.message);
	return r;
}

static kp_requirement *make_operand(const char *key, int idx)
{
	const struct operand *o = &operands[idx % N_OPERANDS];
	return make(key, o->op, o->values, o->n_values, idx >= N_OPERANDS ? o->min_values : 0);
}

static kp_requirement *make1(const char *key, uint32_t op, const char *value)
{
	return make(key, op, &value, value ? 1 : 0, 0);
}

static const char *str(kp_requirement *r)
{
	static char buf[512];
	size_t n = kp_requirement_string(r, buf, sizeof(buf));
	ck_assert_uint_lt(n, sizeof(buf));
	ck_assert_uint_eq(n, strlen(buf));
	return buf;
}

static kp_requirements *set_of(kp_requirement *r)
{
	kp_requirements *s;
	ck_assert_int_eq(kp_requirements_new(&s, NULL), KP_OK);
	if (r) {
		ck_assert_int_eq(kp_requirements_add(s, r, NULL), KP_OK);
		kp_requirement_free(r);
	}
	return s;
}

/* ------------------------------------------------------------------ */
/* Intersection: upstream's three operator-by-operator tables          */

static const struct {
	int left;
	int right;
	const char *expected; /* upstream String() of the expected requirement */
} intersections[] = {
	/* neither side has minValues */
	{ EX, EX, "key Exists" },
	{ EX, DNE, "key DoesNotExist" },
	{ EX, IN_A, "key In [A]" },
	{ EX, IN_B, "key In [B]" },
	{ EX, IN_AB, "key In [A B]" },
	{ EX, NOTIN_A, "key NotIn [A]" },
	{ EX, IN_1, "key In [1]" },
	{ EX, IN_9, "key In [9]" },
	{ EX, IN_19, "key In [1 9]" },
	{ EX, NOTIN_12, "key NotIn [1 2]" },
	{ EX, GT_1, "key Exists >=2" },
	{ EX, GT_9, "key Exists >=10" },
	{ EX, LT_1, "key Exists <=0" },
	{ EX, LT_9, "key Exists <=8" },
	{ DNE, EX, "key DoesNotExist" },
	{ DNE, DNE, "key DoesNotExist" },
	{ DNE, IN_A, "key DoesNotExist" },
	{ DNE, IN_B, "key DoesNotExist" },
	{ DNE, IN_AB, "key DoesNotExist" },
	{ DNE, NOTIN_A, "key DoesNotExist" },
	{ DNE, IN_1, "key DoesNotExist" },
	{ DNE, IN_9, "key DoesNotExist" },
	{ DNE, IN_19, "key DoesNotExist" },
	{ DNE, NOTIN_12, "key DoesNotExist" },
	{ DNE, GT_1, "key DoesNotExist" },
	{ DNE, GT_9, "key DoesNotExist" },
	{ DNE, LT_1, "key DoesNotExist" },
	{ DNE, LT_9, "key DoesNotExist" },
	{ IN_A, EX, "key In [A]" },
	{ IN_A, DNE, "key DoesNotExist" },
	{ IN_A, IN_A, "key In [A]" },
	{ IN_A, IN_B, "key DoesNotExist" },
	{ IN_A, IN_AB, "key In [A]" },
	{ IN_A, NOTIN_A, "key DoesNotExist" },
	{ IN_A, IN_1, "key DoesNotExist" },
	{ IN_A, IN_9, "key DoesNotExist" },
	{ IN_A, IN_19, "key DoesNotExist" },
	{ IN_A, NOTIN_12, "key In [A]" },
	{ IN_A, GT_1, "key DoesNotExist" },
	{ IN_A, GT_9, "key DoesNotExist" },
	{ IN_A, LT_1, "key DoesNotExist" },
	{ IN_A, LT_9, "key DoesNotExist" },
	{ IN_B, EX, "key In [B]" },
	{ IN_B, DNE, "key DoesNotExist" },
	{ IN_B, IN_A, "key DoesNotExist" },
	{ IN_B, IN_B, "key In [B]" },
	{ IN_B, IN_AB, "key In [B]" },
	{ IN_B, NOTIN_A, "key In [B]" },
	{ IN_B, IN_1, "key DoesNotExist" },
	{ IN_B, IN_9, "key DoesNotExist" },
	{ IN_B, IN_19, "key DoesNotExist" },
	{ IN_B, NOTIN_12, "key In [B]" },
	{ IN_B, GT_1, "key DoesNotExist" },
	{ IN_B, GT_9, "key DoesNotExist" },
	{ IN_B, LT_1, "key DoesNotExist" },
	{ IN_B, LT_9, "key DoesNotExist" },
	{ IN_AB, EX, "key In [A B]" },
	{ IN_AB, DNE, "key DoesNotExist" },
	{ IN_AB, IN_A, "key In [A]" },
	{ IN_AB, IN_B, "key In [B]" },
	{ IN_AB, IN_AB, "key In [A B]" },
	{ IN_AB, NOTIN_A, "key In [B]" },
	{ IN_AB, IN_1, "key DoesNotExist" },
	{ IN_AB, IN_9, "key DoesNotExist" },
	{ IN_AB, IN_19, "key DoesNotExist" },
	{ IN_AB, NOTIN_12, "key In [A B]" },
	{ IN_AB, GT_1, "key DoesNotExist" },
	{ IN_AB, GT_9, "key DoesNotExist" },
	{ IN_AB, LT_1, "key DoesNotExist" },
	{ IN_AB, LT_9, "key DoesNotExist" },
	{ NOTIN_A, EX, "key NotIn [A]" },
	{ NOTIN_A, DNE, "key DoesNotExist" },
	{ NOTIN_A, IN_A, "key DoesNotExist" },
	{ NOTIN_A, IN_B, "key In [B]" },
	{ NOTIN_A, IN_AB, "key In [B]" },
	{ NOTIN_A, NOTIN_A, "key NotIn [A]" },
	{ NOTIN_A, IN_1, "key In [1]" },
	{ NOTIN_A, IN_9, "key In [9]" },
	{ NOTIN_A, IN_19, "key In [1 9]" },
	{ NOTIN_A, NOTIN_12, "key NotIn [1 2 A]" },
	{ NOTIN_A, GT_1, "key Exists >=2" },
	{ NOTIN_A, GT_9, "key Exists >=10" },
	{ NOTIN_A, LT_1, "key Exists <=0" },
	{ NOTIN_A, LT_9, "key Exists <=8" },
	{ IN_1, EX, "key In [1]" },
	{ IN_1, DNE, "key DoesNotExist" },
	{ IN_1, IN_A, "key DoesNotExist" },
	{ IN_1, IN_B, "key DoesNotExist" },
	{ IN_1, IN_AB, "key DoesNotExist" },
	{ IN_1, NOTIN_A, "key In [1]" },
	{ IN_1, IN_1, "key In [1]" },
	{ IN_1, IN_9, "key DoesNotExist" },
	{ IN_1, IN_19, "key In [1]" },
	{ IN_1, NOTIN_12, "key DoesNotExist" },
	{ IN_1, GT_1, "key DoesNotExist" },
	{ IN_1, GT_9, "key DoesNotExist" },
	{ IN_1, LT_1, "key DoesNotExist" },
	{ IN_1, LT_9, "key In [1]" },
	{ IN_9, EX, "key In [9]" },
	{ IN_9, DNE, "key DoesNotExist" },
	{ IN_9, IN_A, "key DoesNotExist" },
	{ IN_9, IN_B, "key DoesNotExist" },
	{ IN_9, IN_AB, "key DoesNotExist" },
	{ IN_9, NOTIN_A, "key In [9]" },
	{ IN_9, IN_1, "key DoesNotExist" },
	{ IN_9, IN_9, "key In [9]" },
	{ IN_9, IN_19, "key In [9]" },
	{ IN_9, NOTIN_12, "key In [9]" },
	{ IN_9, GT_1, "key In [9]" },
	{ IN_9, GT_9, "key DoesNotExist" },
	{ IN_9, LT_1, "key DoesNotExist" },
	{ IN_9, LT_9, "key DoesNotExist" },
	{ IN_19, EX, "key In [1 9]" },
	{ IN_19, DNE, "key DoesNotExist" },
	{ IN_19, IN_A, "key DoesNotExist" },
	{ IN_19, IN_B, "key DoesNotExist" },
	{ IN_19, IN_AB, "key DoesNotExist" },
	{ IN_19, NOTIN_A, "key In [1 9]" },
	{ IN_19, IN_1, "key In [1]" },
	{ IN_19, IN_9, "key In [9]" },
	{ IN_19, IN_19, "key In [1 9]" },
	{ IN_19, NOTIN_12, "key In [9]" },
	{ IN_19, GT_1, "key In [9]" },
	{ IN_19, GT_9, "key DoesNotExist" },
	{ IN_19, LT_1, "key DoesNotExist" },
	{ IN_19, LT_9, "key In [1]" },
	{ NOTIN_12, EX, "key NotIn [1 2]" },
	{ NOTIN_12, DNE, "key DoesNotExist" },
	{ NOTIN_12, IN_A, "key In [A]" },
	{ NOTIN_12, IN_B, "key In [B]" },
	{ NOTIN_12, IN_AB, "key In [A B]" },
	{ NOTIN_12, NOTIN_A, "key NotIn [1 2 A]" },
	{ NOTIN_12, IN_1, "key DoesNotExist" },
	{ NOTIN_12, IN_9, "key In [9]" },
	{ NOTIN_12, IN_19, "key In [9]" },
	{ NOTIN_12, NOTIN_12, "key NotIn [1 2]" },
	{ NOTIN_12, GT_1, "key NotIn [2] >=2" },
	{ NOTIN_12, GT_9, "key Exists >=10" },
	{ NOTIN_12, LT_1, "key Exists <=0" },
	{ NOTIN_12, LT_9, "key NotIn [1 2] <=8" },
	{ GT_1, EX, "key Exists >=2" },
	{ GT_1, DNE, "key DoesNotExist" },
	{ GT_1, IN_A, "key DoesNotExist" },
	{ GT_1, IN_B, "key DoesNotExist" },
	{ GT_1, IN_AB, "key DoesNotExist" },
	{ GT_1, NOTIN_A, "key Exists >=2" },
	{ GT_1, IN_1, "key DoesNotExist" },
	{ GT_1, IN_9, "key In [9]" },
	{ GT_1, IN_19, "key In [9]" },
	{ GT_1, NOTIN_12, "key NotIn [2] >=2" },
	{ GT_1, GT_1, "key Exists >=2" },
	{ GT_1, GT_9, "key Exists >=10" },
	{ GT_1, LT_1, "key DoesNotExist" },
	{ GT_1, LT_9, "key Exists >=2 <=8" },
	{ GT_9, EX, "key Exists >=10" },
	{ GT_9, DNE, "key DoesNotExist" },
	{ GT_9, IN_A, "key DoesNotExist" },
	{ GT_9, IN_B, "key DoesNotExist" },
	{ GT_9, IN_AB, "key DoesNotExist" },
	{ GT_9, NOTIN_A, "key Exists >=10" },
	{ GT_9, IN_1, "key DoesNotExist" },
	{ GT_9, IN_9, "key DoesNotExist" },
	{ GT_9, IN_19, "key DoesNotExist" },
	{ GT_9, NOTIN_12, "key Exists >=10" },
	{ GT_9, GT_1, "key Exists >=10" },
	{ GT_9, GT_9, "key Exists >=10" },
	{ GT_9, LT_1, "key DoesNotExist" },
	{ GT_9, LT_9, "key DoesNotExist" },
	{ LT_1, EX, "key Exists <=0" },
	{ LT_1, DNE, "key DoesNotExist" },
	{ LT_1, IN_A, "key DoesNotExist" },
	{ LT_1, IN_B, "key DoesNotExist" },
	{ LT_1, IN_AB, "key DoesNotExist" },
	{ LT_1, NOTIN_A, "key Exists <=0" },
	{ LT_1, IN_1, "key DoesNotExist" },
	{ LT_1, IN_9, "key DoesNotExist" },
	{ LT_1, IN_19, "key DoesNotExist" },
	{ LT_1, NOTIN_12, "key Exists <=0" },
	{ LT_1, GT_1, "key DoesNotExist" },
	{ LT_1, GT_9, "key DoesNotExist" },
	{ LT_1, LT_1, "key Exists <=0" },
	{ LT_1, LT_9, "key Exists <=0" },
	{ LT_9, EX, "key Exists <=8" },
	{ LT_9, DNE, "key DoesNotExist" },
	{ LT_9, IN_A, "key DoesNotExist" },
	{ LT_9, IN_B, "key DoesNotExist" },
	{ LT_9, IN_AB, "key DoesNotExist" },
	{ LT_9, NOTIN_A, "key Exists <=8" },
	{ LT_9, IN_1, "key In [1]" },
	{ LT_9, IN_9, "key DoesNotExist" },
	{ LT_9, IN_19, "key In [1]" },
	{ LT_9, NOTIN_12, "key NotIn [1 2] <=8" },
	{ LT_9, GT_1, "key Exists >=2 <=8" },
	{ LT_9, GT_9, "key DoesNotExist" },
	{ LT_9, LT_1, "key Exists <=0" },
	{ LT_9, LT_9, "key Exists <=8" },
	/* the left side has minValues */
	{ M(EX), EX, "key Exists minValues 1" },
	{ M(EX), DNE, "key DoesNotExist minValues 1" },
	{ M(EX), IN_A, "key In [A] minValues 1" },
	{ M(EX), IN_B, "key In [B] minValues 1" },
	{ M(EX), IN_AB, "key In [A B] minValues 1" },
	{ M(EX), NOTIN_A, "key NotIn [A] minValues 1" },
	{ M(EX), IN_1, "key In [1] minValues 1" },
	{ M(EX), IN_9, "key In [9] minValues 1" },
	{ M(EX), IN_19, "key In [1 9] minValues 1" },
	{ M(EX), NOTIN_12, "key NotIn [1 2] minValues 1" },
	{ M(EX), GT_1, "key Exists >=2 minValues 1" },
	{ M(EX), GT_9, "key Exists >=10 minValues 1" },
	{ M(EX), LT_1, "key Exists <=0 minValues 1" },
	{ M(EX), LT_9, "key Exists <=8 minValues 1" },
	{ M(EX), EX, "key Exists minValues 1" },
	{ M(DNE), EX, "key DoesNotExist minValues 1" },
	{ M(DNE), DNE, "key DoesNotExist minValues 1" },
	{ M(DNE), IN_A, "key DoesNotExist minValues 1" },
	{ M(DNE), IN_B, "key DoesNotExist minValues 1" },
	{ M(DNE), IN_AB, "key DoesNotExist minValues 1" },
	{ M(DNE), NOTIN_A, "key DoesNotExist minValues 1" },
	{ M(DNE), IN_1, "key DoesNotExist minValues 1" },
	{ M(DNE), IN_9, "key DoesNotExist minValues 1" },
	{ M(DNE), IN_19, "key DoesNotExist minValues 1" },
	{ M(DNE), NOTIN_12, "key DoesNotExist minValues 1" },
	{ M(DNE), GT_1, "key DoesNotExist minValues 1" },
	{ M(DNE), GT_9, "key DoesNotExist minValues 1" },
	{ M(DNE), LT_1, "key DoesNotExist minValues 1" },
	{ M(DNE), LT_9, "key DoesNotExist minValues 1" },
	{ M(IN_A), EX, "key In [A] minValues 1" },
	{ M(IN_A), DNE, "key DoesNotExist minValues 1" },
	{ M(IN_A), IN_A, "key In [A] minValues 1" },
	{ M(IN_A), IN_B, "key DoesNotExist minValues 1" },
	{ M(IN_A), IN_AB, "key In [A] minValues 1" },
	{ M(IN_A), NOTIN_A, "key DoesNotExist minValues 1" },
	{ M(IN_A), IN_1, "key DoesNotExist minValues 1" },
	{ M(IN_A), IN_9, "key DoesNotExist minValues 1" },
	{ M(IN_A), IN_19, "key DoesNotExist minValues 1" },
	{ M(IN_A), NOTIN_12, "key In [A] minValues 1" },
	{ M(IN_A), GT_1, "key DoesNotExist minValues 1" },
	{ M(IN_A), GT_9, "key DoesNotExist minValues 1" },
	{ M(IN_A), LT_1, "key DoesNotExist minValues 1" },
	{ M(IN_A), LT_9, "key DoesNotExist minValues 1" },
	{ M(IN_B), EX, "key In [B] minValues 1" },
	{ M(IN_B), DNE, "key DoesNotExist minValues 1" },
	{ M(IN_B), IN_A, "key DoesNotExist minValues 1" },
	{ M(IN_B), IN_B, "key In [B] minValues 1" },
	{ M(IN_B), IN_AB, "key In [B] minValues 1" },
	{ M(IN_B), NOTIN_A, "key In [B] minValues 1" },
	{ M(IN_B), IN_1, "key DoesNotExist minValues 1" },
	{ M(IN_B), IN_9, "key DoesNotExist minValues 1" },
	{ M(IN_B), IN_19, "key DoesNotExist minValues 1" },
	{ M(IN_B), NOTIN_12, "key In [B] minValues 1" },
	{ M(IN_B), GT_1, "key DoesNotExist minValues 1" },
	{ M(IN_B), GT_9, "key DoesNotExist minValues 1" },
	{ M(IN_B), LT_1, "key DoesNotExist minValues 1" },
	{ M(IN_B), LT_9, "key DoesNotExist minValues 1" },
	{ M(IN_AB), EX, "key In [A B] minValues 2" },
	{ M(IN_AB), DNE, "key DoesNotExist minValues 2" },
	{ M(IN_AB), IN_A, "key In [A] minValues 2" },
	{ M(IN_AB), IN_B, "key In [B] minValues 2" },
	{ M(IN_AB), IN_AB, "key In [A B] minValues 2" },
	{ M(IN_AB), NOTIN_A, "key In [B] minValues 2" },
	{ M(IN_AB), IN_1, "key DoesNotExist minValues 2" },
	{ M(IN_AB), IN_9, "key DoesNotExist minValues 2" },
	{ M(IN_AB), IN_19, "key DoesNotExist minValues 2" },
	{ M(IN_AB), NOTIN_12, "key In [A B] minValues 2" },
	{ M(IN_AB), GT_1, "key DoesNotExist minValues 2" },
	{ M(IN_AB), GT_9, "key DoesNotExist minValues 2" },
	{ M(IN_AB), LT_1, "key DoesNotExist minValues 2" },
	{ M(IN_AB), LT_9, "key DoesNotExist minValues 2" },
	{ M(NOTIN_A), EX, "key NotIn [A] minValues 1" },
	{ M(NOTIN_A), DNE, "key DoesNotExist minValues 1" },
	{ M(NOTIN_A), IN_A, "key DoesNotExist minValues 1" },
	{ M(NOTIN_A), IN_B, "key In [B] minValues 1" },
	{ M(NOTIN_A), IN_AB, "key In [B] minValues 1" },
	{ M(NOTIN_A), NOTIN_A, "key NotIn [A] minValues 1" },
	{ M(NOTIN_A), IN_1, "key In [1] minValues 1" },
	{ M(NOTIN_A), IN_9, "key In [9] minValues 1" },
	{ M(NOTIN_A), IN_19, "key In [1 9] minValues 1" },
	{ M(NOTIN_A), NOTIN_12, "key NotIn [1 2 A] minValues 1" },
	{ M(NOTIN_A), GT_1, "key Exists >=2 minValues 1" },
	{ M(NOTIN_A), GT_9, "key Exists >=10 minValues 1" },
	{ M(NOTIN_A), LT_1, "key Exists <=0 minValues 1" },
	{ M(NOTIN_A), LT_9, "key Exists <=8 minValues 1" },
	{ M(IN_1), EX, "key In [1] minValues 1" },
	{ M(IN_1), DNE, "key DoesNotExist minValues 1" },
	{ M(IN_1), IN_A, "key DoesNotExist minValues 1" },
	{ M(IN_1), IN_B, "key DoesNotExist minValues 1" },
	{ M(IN_1), IN_AB, "key DoesNotExist minValues 1" },
	{ M(IN_1), NOTIN_A, "key In [1] minValues 1" },
	{ M(IN_1), IN_1, "key In [1] minValues 1" },
	{ M(IN_1), IN_9, "key DoesNotExist minValues 1" },
	{ M(IN_1), IN_19, "key In [1] minValues 1" },
	{ M(IN_1), NOTIN_12, "key DoesNotExist minValues 1" },
	{ M(IN_1), GT_1, "key DoesNotExist minValues 1" },
	{ M(IN_1), GT_9, "key DoesNotExist minValues 1" },
	{ M(IN_1), LT_1, "key DoesNotExist minValues 1" },
	{ M(IN_1), LT_9, "key In [1] minValues 1" },
	{ M(IN_9), EX, "key In [9] minValues 1" },
	{ M(IN_9), DNE, "key DoesNotExist minValues 1" },
	{ M(IN_9), IN_A, "key DoesNotExist minValues 1" },
	{ M(IN_9), IN_B, "key DoesNotExist minValues 1" },
	{ M(IN_9), IN_AB, "key DoesNotExist minValues 1" },
	{ M(IN_9), NOTIN_A, "key In [9] minValues 1" },
	{ M(IN_9), IN_1, "key DoesNotExist minValues 1" },
	{ M(IN_9), IN_9, "key In [9] minValues 1" },
	{ M(IN_9), IN_19, "key In [9] minValues 1" },
	{ M(IN_9), NOTIN_12, "key In [9] minValues 1" },
	{ M(IN_9), GT_1, "key In [9] minValues 1" },
	{ M(IN_9), GT_9, "key DoesNotExist minValues 1" },
	{ M(IN_9), LT_1, "key DoesNotExist minValues 1" },
	{ M(IN_9), LT_9, "key DoesNotExist minValues 1" },
	{ M(IN_19), EX, "key In [1 9] minValues 2" },
	{ M(IN_19), DNE, "key DoesNotExist minValues 2" },
	{ M(IN_19), IN_A, "key DoesNotExist minValues 2" },
	{ M(IN_19), IN_B, "key DoesNotExist minValues 2" },
	{ M(IN_19), IN_AB, "key DoesNotExist minValues 2" },
	{ M(IN_19), NOTIN_A, "key In [1 9] minValues 2" },
	{ M(IN_19), IN_1, "key In [1] minValues 2" },
	{ M(IN_19), IN_9, "key In [9] minValues 2" },
	{ M(IN_19), IN_19, "key In [1 9] minValues 2" },
	{ M(IN_19), NOTIN_12, "key In [9] minValues 2" },
	{ M(IN_19), GT_1, "key In [9] minValues 2" },
	{ M(IN_19), GT_9, "key DoesNotExist minValues 2" },
	{ M(IN_19), LT_1, "key DoesNotExist minValues 2" },
	{ M(IN_19), LT_9, "key In [1] minValues 2" },
	{ M(NOTIN_12), EX, "key NotIn [1 2] minValues 2" },
	{ M(NOTIN_12), DNE, "key DoesNotExist minValues 2" },
	{ M(NOTIN_12), IN_A, "key In [A] minValues 2" },
	{ M(NOTIN_12), IN_B, "key In [B] minValues 2" },
	{ M(NOTIN_12), IN_AB, "key In [A B] minValues 2" },
	{ M(NOTIN_12), NOTIN_A, "key NotIn [1 2 A] minValues 2" },
	{ M(NOTIN_12), IN_1, "key DoesNotExist minValues 2" },
	{ M(NOTIN_12), IN_9, "key In [9] minValues 2" },
	{ M(NOTIN_12), IN_19, "key In [9] minValues 2" },
	{ M(NOTIN_12), NOTIN_12, "key NotIn [1 2] minValues 2" },
	{ M(NOTIN_12), GT_1, "key NotIn [2] >=2 minValues 2" },
	{ M(NOTIN_12), GT_9, "key Exists >=10 minValues 2" },
	{ M(NOTIN_12), LT_1, "key Exists <=0 minValues 2" },
	{ M(NOTIN_12), LT_9, "key NotIn [1 2] <=8 minValues 2" },
	{ M(GT_1), EX, "key Exists >=2 minValues 1" },
	{ M(GT_1), DNE, "key DoesNotExist minValues 1" },
	{ M(GT_1), IN_A, "key DoesNotExist minValues 1" },
	{ M(GT_1), IN_B, "key DoesNotExist minValues 1" },
	{ M(GT_1), IN_AB, "key DoesNotExist minValues 1" },
	{ M(GT_1), NOTIN_A, "key Exists >=2 minValues 1" },
	{ M(GT_1), IN_1, "key DoesNotExist minValues 1" },
	{ M(GT_1), IN_9, "key In [9] minValues 1" },
	{ M(GT_1), IN_19, "key In [9] minValues 1" },
	{ M(GT_1), NOTIN_12, "key NotIn [2] >=2 minValues 1" },
	{ M(GT_1), GT_1, "key Exists >=2 minValues 1" },
	{ M(GT_1), GT_9, "key Exists >=10 minValues 1" },
	{ M(GT_1), LT_1, "key DoesNotExist minValues 1" },
	{ M(GT_1), LT_9, "key Exists >=2 <=8 minValues 1" },
	{ M(GT_9), EX, "key Exists >=10 minValues 1" },
	{ M(GT_9), DNE, "key DoesNotExist minValues 1" },
	{ M(GT_9), IN_A, "key DoesNotExist minValues 1" },
	{ M(GT_9), IN_B, "key DoesNotExist minValues 1" },
	{ M(GT_9), IN_AB, "key DoesNotExist minValues 1" },
	{ M(GT_9), NOTIN_A, "key Exists >=10 minValues 1" },
	{ M(GT_9), IN_1, "key DoesNotExist minValues 1" },
	{ M(GT_9), IN_9, "key DoesNotExist minValues 1" },
	{ M(GT_9), IN_19, "key DoesNotExist minValues 1" },
	{ M(GT_9), NOTIN_12, "key Exists >=10 minValues 1" },
	{ M(GT_9), GT_1, "key Exists >=10 minValues 1" },
	{ M(GT_9), GT_9, "key Exists >=10 minValues 1" },
	{ M(GT_9), LT_1, "key DoesNotExist minValues 1" },
	{ M(GT_9), LT_9, "key DoesNotExist minValues 1" },
	{ M(LT_1), EX, "key Exists <=0 minValues 1" },
	{ M(LT_1), DNE, "key DoesNotExist minValues 1" },
	{ M(LT_1), IN_A, "key DoesNotExist minValues 1" },
	{ M(LT_1), IN_B, "key DoesNotExist minValues 1" },
	{ M(LT_1), IN_AB, "key DoesNotExist minValues 1" },
	{ M(LT_1), NOTIN_A, "key Exists <=0 minValues 1" },
	{ M(LT_1), IN_1, "key DoesNotExist minValues 1" },
	{ M(LT_1), IN_9, "key DoesNotExist minValues 1" },
	{ M(LT_1), IN_19, "key DoesNotExist minValues 1" },
	{ M(LT_1), NOTIN_12, "key Exists <=0 minValues 1" },
	{ M(LT_1), GT_1, "key DoesNotExist minValues 1" },
	{ M(LT_1), GT_9, "key DoesNotExist minValues 1" },
	{ M(LT_1), LT_1, "key Exists <=0 minValues 1" },
	{ M(LT_1), LT_9, "key Exists <=0 minValues 1" },
	{ M(LT_9), EX, "key Exists <=8 minValues 1" },
	{ M(LT_9), DNE, "key DoesNotExist minValues 1" },
	{ M(LT_9), IN_A, "key DoesNotExist minValues 1" },
	{ M(LT_9), IN_B, "key DoesNotExist minValues 1" },
	{ M(LT_9), IN_AB, "key DoesNotExist minValues 1" },
	{ M(LT_9), NOTIN_A, "key Exists <=8 minValues 1" },
	{ M(LT_9), IN_1, "key In [1] minValues 1" },
	{ M(LT_9), IN_9, "key DoesNotExist minValues 1" },
	{ M(LT_9), IN_19, "key In [1] minValues 1" },
	{ M(LT_9), NOTIN_12, "key NotIn [1 2] <=8 minValues 1" },
	{ M(LT_9), GT_1, "key Exists >=2 <=8 minValues 1" },
	{ M(LT_9), GT_9, "key DoesNotExist minValues 1" },
	{ M(LT_9), LT_1, "key Exists <=0 minValues 1" },
	{ M(LT_9), LT_9, "key Exists <=8 minValues 1" },
	/* both sides have minValues */
	{ M(EX), M(EX), "key Exists minValues 1" },
	{ M(EX), M(DNE), "key DoesNotExist minValues 1" },
	{ M(EX), M(IN_A), "key In [A] minValues 1" },
	{ M(EX), M(IN_B), "key In [B] minValues 1" },
	{ M(EX), M(IN_AB), "key In [A B] minValues 2" },
	{ M(EX), M(NOTIN_A), "key NotIn [A] minValues 1" },
	{ M(EX), M(IN_1), "key In [1] minValues 1" },
	{ M(EX), M(IN_9), "key In [9] minValues 1" },
	{ M(EX), M(IN_19), "key In [1 9] minValues 2" },
	{ M(EX), M(NOTIN_12), "key NotIn [1 2] minValues 2" },
	{ M(EX), M(GT_1), "key Exists >=2 minValues 1" },
	{ M(EX), M(GT_9), "key Exists >=10 minValues 1" },
	{ M(EX), M(LT_1), "key Exists <=0 minValues 1" },
	{ M(EX), M(LT_9), "key Exists <=8 minValues 1" },
	{ M(EX), M(EX), "key Exists minValues 1" },
	{ M(DNE), M(EX), "key DoesNotExist minValues 1" },
	{ M(DNE), M(DNE), "key DoesNotExist minValues 1" },
	{ M(DNE), M(IN_A), "key DoesNotExist minValues 1" },
	{ M(DNE), M(IN_B), "key DoesNotExist minValues 1" },
	{ M(DNE), M(IN_AB), "key DoesNotExist minValues 2" },
	{ M(DNE), M(NOTIN_A), "key DoesNotExist minValues 1" },
	{ M(DNE), M(IN_1), "key DoesNotExist minValues 1" },
	{ M(DNE), M(IN_9), "key DoesNotExist minValues 1" },
	{ M(DNE), M(IN_19), "key DoesNotExist minValues 2" },
	{ M(DNE), M(NOTIN_12), "key DoesNotExist minValues 2" },
	{ M(DNE), M(GT_1), "key DoesNotExist minValues 1" },
	{ M(DNE), M(GT_9), "key DoesNotExist minValues 1" },
	{ M(DNE), M(LT_1), "key DoesNotExist minValues 1" },
	{ M(DNE), M(LT_9), "key DoesNotExist minValues 1" },
	{ M(IN_A), M(EX), "key In [A] minValues 1" },
	{ M(IN_A), M(DNE), "key DoesNotExist minValues 1" },
	{ M(IN_A), M(IN_A), "key In [A] minValues 1" },
	{ M(IN_A), M(IN_B), "key DoesNotExist minValues 1" },
	{ M(IN_A), M(IN_AB), "key In [A] minValues 2" },
	{ M(IN_A), M(NOTIN_A), "key DoesNotExist minValues 1" },
	{ M(IN_A), M(IN_1), "key DoesNotExist minValues 1" },
	{ M(IN_A), M(IN_9), "key DoesNotExist minValues 1" },
	{ M(IN_A), M(IN_19), "key DoesNotExist minValues 2" },
	{ M(IN_A), M(NOTIN_12), "key In [A] minValues 2" },
	{ M(IN_A), M(GT_1), "key DoesNotExist minValues 1" },
	{ M(IN_A), M(GT_9), "key DoesNotExist minValues 1" },
	{ M(IN_A), M(LT_1), "key DoesNotExist minValues 1" },
	{ M(IN_A), M(LT_9), "key DoesNotExist minValues 1" },
	{ M(IN_B), M(EX), "key In [B] minValues 1" },
	{ M(IN_B), M(DNE), "key DoesNotExist minValues 1" },
	{ M(IN_B), M(IN_A), "key DoesNotExist minValues 1" },
	{ M(IN_B), M(IN_B), "key In [B] minValues 1" },
	{ M(IN_B), M(IN_AB), "key In [B] minValues 2" },
	{ M(IN_B), M(NOTIN_A), "key In [B] minValues 1" },
	{ M(IN_B), M(IN_1), "key DoesNotExist minValues 1" },
	{ M(IN_B), M(IN_9), "key DoesNotExist minValues 1" },
	{ M(IN_B), M(IN_19), "key DoesNotExist minValues 2" },
	{ M(IN_B), M(NOTIN_12), "key In [B] minValues 2" },
	{ M(IN_B), M(GT_1), "key DoesNotExist minValues 1" },
	{ M(IN_B), M(GT_9), "key DoesNotExist minValues 1" },
	{ M(IN_B), M(LT_1), "key DoesNotExist minValues 1" },
	{ M(IN_B), M(LT_9), "key DoesNotExist minValues 1" },
	{ M(IN_AB), M(EX), "key In [A B] minValues 2" },
	{ M(IN_AB), M(DNE), "key DoesNotExist minValues 2" },
	{ M(IN_AB), M(IN_A), "key In [A] minValues 2" },
	{ M(IN_AB), M(IN_B), "key In [B] minValues 2" },
	{ M(IN_AB), M(IN_AB), "key In [A B] minValues 2" },
	{ M(IN_AB), M(NOTIN_A), "key In [B] minValues 2" },
	{ M(IN_AB), M(IN_1), "key DoesNotExist minValues 2" },
	{ M(IN_AB), M(IN_9), "key DoesNotExist minValues 2" },
	{ M(IN_AB), M(IN_19), "key DoesNotExist minValues 2" },
	{ M(IN_AB), M(NOTIN_12), "key In [A B] minValues 2" },
	{ M(IN_AB), M(GT_1), "key DoesNotExist minValues 2" },
	{ M(IN_AB), M(GT_9), "key DoesNotExist minValues 2" },
	{ M(IN_AB), M(LT_1), "key DoesNotExist minValues 2" },
	{ M(IN_AB), M(LT_9), "key DoesNotExist minValues 2" },
	{ M(NOTIN_A), M(EX), "key NotIn [A] minValues 1" },
	{ M(NOTIN_A), M(DNE), "key DoesNotExist minValues 1" },
	{ M(NOTIN_A), M(IN_A), "key DoesNotExist minValues 1" },
	{ M(NOTIN_A), M(IN_B), "key In [B] minValues 1" },
	{ M(NOTIN_A), M(IN_AB), "key In [B] minValues 2" },
	{ M(NOTIN_A), M(NOTIN_A), "key NotIn [A] minValues 1" },
	{ M(NOTIN_A), M(IN_1), "key In [1] minValues 1" },
	{ M(NOTIN_A), M(IN_9), "key In [9] minValues 1" },
	{ M(NOTIN_A), M(IN_19), "key In [1 9] minValues 2" },
	{ M(NOTIN_A), M(NOTIN_12), "key NotIn [1 2 A] minValues 2" },
	{ M(NOTIN_A), M(GT_1), "key Exists >=2 minValues 1" },
	{ M(NOTIN_A), M(GT_9), "key Exists >=10 minValues 1" },
	{ M(NOTIN_A), M(LT_1), "key Exists <=0 minValues 1" },
	{ M(NOTIN_A), M(LT_9), "key Exists <=8 minValues 1" },
	{ M(IN_1), M(EX), "key In [1] minValues 1" },
	{ M(IN_1), M(DNE), "key DoesNotExist minValues 1" },
	{ M(IN_1), M(IN_A), "key DoesNotExist minValues 1" },
	{ M(IN_1), M(IN_B), "key DoesNotExist minValues 1" },
	{ M(IN_1), M(IN_AB), "key DoesNotExist minValues 2" },
	{ M(IN_1), M(NOTIN_A), "key In [1] minValues 1" },
	{ M(IN_1), M(IN_1), "key In [1] minValues 1" },
	{ M(IN_1), M(IN_9), "key DoesNotExist minValues 1" },
	{ M(IN_1), M(IN_19), "key In [1] minValues 2" },
	{ M(IN_1), M(NOTIN_12), "key DoesNotExist minValues 2" },
	{ M(IN_1), M(GT_1), "key DoesNotExist minValues 1" },
	{ M(IN_1), M(GT_9), "key DoesNotExist minValues 1" },
	{ M(IN_1), M(LT_1), "key DoesNotExist minValues 1" },
	{ M(IN_1), M(LT_9), "key In [1] minValues 1" },
	{ M(IN_9), M(EX), "key In [9] minValues 1" },
	{ M(IN_9), M(DNE), "key DoesNotExist minValues 1" },
	{ M(IN_9), M(IN_A), "key DoesNotExist minValues 1" },
	{ M(IN_9), M(IN_B), "key DoesNotExist minValues 1" },
	{ M(IN_9), M(IN_AB), "key DoesNotExist minValues 2" },
	{ M(IN_9), M(NOTIN_A), "key In [9] minValues 1" },
	{ M(IN_9), M(IN_1), "key DoesNotExist minValues 1" },
	{ M(IN_9), M(IN_9), "key In [9] minValues 1" },
	{ M(IN_9), M(IN_19), "key In [9] minValues 2" },
	{ M(IN_9), M(NOTIN_12), "key In [9] minValues 2" },
	{ M(IN_9), M(GT_1), "key In [9] minValues 1" },
	{ M(IN_9), M(GT_9), "key DoesNotExist minValues 1" },
	{ M(IN_9), M(LT_1), "key DoesNotExist minValues 1" },
	{ M(IN_9), M(LT_9), "key DoesNotExist minValues 1" },
	{ M(IN_19), M(EX), "key In [1 9] minValues 2" },
	{ M(IN_19), M(DNE), "key DoesNotExist minValues 2" },
	{ M(IN_19), M(IN_A), "key DoesNotExist minValues 2" },
	{ M(IN_19), M(IN_B), "key DoesNotExist minValues 2" },
	{ M(IN_19), M(IN_AB), "key DoesNotExist minValues 2" },
	{ M(IN_19), M(NOTIN_A), "key In [1 9] minValues 2" },
	{ M(IN_19), M(IN_1), "key In [1] minValues 2" },
	{ M(IN_19), M(IN_9), "key In [9] minValues 2" },
	{ M(IN_19), M(IN_19), "key In [1 9] minValues 2" },
	{ M(IN_19), M(NOTIN_12), "key In [9] minValues 2" },
	{ M(IN_19), M(GT_1), "key In [9] minValues 2" },
	{ M(IN_19), M(GT_9), "key DoesNotExist minValues 2" },
	{ M(IN_19), M(LT_1), "key DoesNotExist minValues 2" },
	{ M(IN_19), M(LT_9), "key In [1] minValues 2" },
	{ M(NOTIN_12), M(EX), "key NotIn [1 2] minValues 2" },
	{ M(NOTIN_12), M(DNE), "key DoesNotExist minValues 2" },
	{ M(NOTIN_12), M(IN_A), "key In [A] minValues 2" },
	{ M(NOTIN_12), M(IN_B), "key In [B] minValues 2" },
	{ M(NOTIN_12), M(IN_AB), "key In [A B] minValues 2" },
	{ M(NOTIN_12), M(NOTIN_A), "key NotIn [1 2 A] minValues 2" },
	{ M(NOTIN_12), M(IN_1), "key DoesNotExist minValues 2" },
	{ M(NOTIN_12), M(IN_9), "key In [9] minValues 2" },
	{ M(NOTIN_12), M(IN_19), "key In [9] minValues 2" },
	{ M(NOTIN_12), M(NOTIN_12), "key NotIn [1 2] minValues 2" },
	{ M(NOTIN_12), M(GT_1), "key NotIn [2] >=2 minValues 2" },
	{ M(NOTIN_12), M(GT_9), "key Exists >=10 minValues 2" },
	{ M(NOTIN_12), M(LT_1), "key Exists <=0 minValues 2" },
	{ M(NOTIN_12), M(LT_9), "key NotIn [1 2] <=8 minValues 2" },
	{ M(GT_1), M(EX), "key Exists >=2 minValues 1" },
	{ M(GT_1), M(DNE), "key DoesNotExist minValues 1" },
	{ M(GT_1), M(IN_A), "key DoesNotExist minValues 1" },
	{ M(GT_1), M(IN_B), "key DoesNotExist minValues 1" },
	{ M(GT_1), M(IN_AB), "key DoesNotExist minValues 2" },
	{ M(GT_1), M(NOTIN_A), "key Exists >=2 minValues 1" },
	{ M(GT_1), M(IN_1), "key DoesNotExist minValues 1" },
	{ M(GT_1), M(IN_9), "key In [9] minValues 1" },
	{ M(GT_1), M(IN_19), "key In [9] minValues 2" },
	{ M(GT_1), M(NOTIN_12), "key NotIn [2] >=2 minValues 2" },
	{ M(GT_1), M(GT_1), "key Exists >=2 minValues 1" },
	{ M(GT_1), M(GT_9), "key Exists >=10 minValues 1" },
	{ M(GT_1), M(LT_1), "key DoesNotExist minValues 1" },
	{ M(GT_1), M(LT_9), "key Exists >=2 <=8 minValues 1" },
	{ M(GT_9), M(EX), "key Exists >=10 minValues 1" },
	{ M(GT_9), M(DNE), "key DoesNotExist minValues 1" },
	{ M(GT_9), M(IN_A), "key DoesNotExist minValues 1" },
	{ M(GT_9), M(IN_B), "key DoesNotExist minValues 1" },
	{ M(GT_9), M(IN_AB), "key DoesNotExist minValues 2" },
	{ M(GT_9), M(NOTIN_A), "key Exists >=10 minValues 1" },
	{ M(GT_9), M(IN_1), "key DoesNotExist minValues 1" },
	{ M(GT_9), M(IN_9), "key DoesNotExist minValues 1" },
	{ M(GT_9), M(IN_19), "key DoesNotExist minValues 2" },
	{ M(GT_9), M(NOTIN_12), "key Exists >=10 minValues 2" },
	{ M(GT_9), M(GT_1), "key Exists >=10 minValues 1" },
	{ M(GT_9), M(GT_9), "key Exists >=10 minValues 1" },
	{ M(GT_9), M(LT_1), "key DoesNotExist minValues 1" },
	{ M(GT_9), M(LT_9), "key DoesNotExist minValues 1" },
	{ M(LT_1), M(EX), "key Exists <=0 minValues 1" },
	{ M(LT_1), M(DNE), "key DoesNotExist minValues 1" },
	{ M(LT_1), M(IN_A), "key DoesNotExist minValues 1" },
	{ M(LT_1), M(IN_B), "key DoesNotExist minValues 1" },
	{ M(LT_1), M(IN_AB), "key DoesNotExist minValues 2" },
	{ M(LT_1), M(NOTIN_A), "key Exists <=0 minValues 1" },
	{ M(LT_1), M(IN_1), "key DoesNotExist minValues 1" },
	{ M(LT_1), M(IN_9), "key DoesNotExist minValues 1" },
	{ M(LT_1), M(IN_19), "key DoesNotExist minValues 2" },
	{ M(LT_1), M(NOTIN_12), "key Exists <=0 minValues 2" },
	{ M(LT_1), M(GT_1), "key DoesNotExist minValues 1" },
	{ M(LT_1), M(GT_9), "key DoesNotExist minValues 1" },
	{ M(LT_1), M(LT_1), "key Exists <=0 minValues 1" },
	{ M(LT_1), M(LT_9), "key Exists <=0 minValues 1" },
	{ M(LT_9), M(EX), "key Exists <=8 minValues 1" },
	{ M(LT_9), M(DNE), "key DoesNotExist minValues 1" },
	{ M(LT_9), M(IN_A), "key DoesNotExist minValues 1" },
	{ M(LT_9), M(IN_B), "key DoesNotExist minValues 1" },
	{ M(LT_9), M(IN_AB), "key DoesNotExist minValues 2" },
	{ M(LT_9), M(NOTIN_A), "key Exists <=8 minValues 1" },
	{ M(LT_9), M(IN_1), "key In [1] minValues 1" },
	{ M(LT_9), M(IN_9), "key DoesNotExist minValues 1" },
	{ M(LT_9), M(IN_19), "key In [1] minValues 2" },
	{ M(LT_9), M(NOTIN_12), "key NotIn [1 2] <=8 minValues 2" },
	{ M(LT_9), M(GT_1), "key Exists >=2 <=8 minValues 1" },
	{ M(LT_9), M(GT_9), "key DoesNotExist minValues 1" },
	{ M(LT_9), M(LT_1), "key Exists <=0 minValues 1" },
	{ M(LT_9), M(LT_9), "key Exists <=8 minValues 1" },
};

START_TEST(intersection_matrix)
{
	kp_requirement *l = make_operand("key", intersections[_i].left);
	kp_requirement *r = make_operand("key", intersections[_i].right);
	kp_requirement *x = NULL;
	ck_assert_int_eq(kp_requirement_intersection(&x, l, r, NULL), KP_OK);
	ck_assert_str_eq(str(x), intersections[_i].expected);
	/*
	 * HasIntersection agrees with Intersection: they meet unless the
	 * intersection is empty (DoesNotExist).
	 */
	int meets = kp_requirement_operator(x) != KP_SELECTOR_OP_DOES_NOT_EXIST;
	ck_assert_int_eq(kp_requirement_intersects(l, r), meets);
	ck_assert_int_eq(kp_requirement_intersects(r, l), meets);
	kp_requirement_free(x);
	kp_requirement_free(l);
	kp_requirement_free(r);
}
END_TEST

START_TEST(intersection_shares_equal_inputs)
{
	/* Exists ∩ X is X: no new block is made. */
	kp_requirement *ex = make_operand("key", EX), *in = make_operand("key", IN_AB), *x;
	ck_assert_int_eq(kp_requirement_intersection(&x, ex, in, NULL), KP_OK);
	ck_assert_ptr_eq(x, in);
	kp_requirement_free(x);
	ck_assert_int_eq(kp_requirement_intersection(&x, in, ex, NULL), KP_OK);
	ck_assert_ptr_eq(x, in);
	kp_requirement_free(in); /* x keeps it alive */
	ck_assert_str_eq(str(x), "key In [A B]");
	kp_requirement_free(x);
	kp_requirement_free(ex);
}
END_TEST

START_TEST(intersection_rejects_bad_input)
{
	kp_requirement *a = make_operand("a", EX), *b = make_operand("b", EX), *x = a;
	kp_error err = KP_ERROR_INIT;
	ck_assert_int_eq(kp_requirement_intersection(&x, a, b, &err), KP_EINVAL);
	ck_assert_ptr_null(x);
	ck_assert_str_eq(err.field, "key");
	ck_assert_str_eq(err.message, "cannot intersect requirements on different keys a and b");
	ck_assert_int_eq(kp_requirement_intersection(&x, a, NULL, &err), KP_EINVAL);
	ck_assert_int_eq(kp_requirement_intersects(a, NULL), 0);
	kp_requirement_free(a);
	kp_requirement_free(b);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Has, Operator, Len, String, Any                                     */

/* Has(value) for the values A, B, 1, 2, 9, per operand. */
static const char *const has_table[N_OPERANDS] = {
	[EX] = "11111",      [DNE] = "00000",     [IN_A] = "10000",   [IN_B] = "01000",
	[IN_AB] = "11000",   [NOTIN_A] = "01111", [IN_1] = "00100",   [IN_9] = "00001",
	[IN_19] = "00101",   [NOTIN_12] = "11001", [GT_1] = "00011",  [GT_9] = "00000",
	[LT_1] = "00000",    [LT_9] = "00110",
};

START_TEST(has_table_matches)
{
	static const char *const probes[] = { "A", "B", "1", "2", "9" };
	kp_requirement *r = make_operand("key", _i);
	for (int v = 0; v < 5; v++)
		ck_assert_msg(kp_requirement_has(r, probes[v]) == (has_table[_i][v] == '1'),
			      "%s.Has(%s)", operands[_i].name, probes[v]);
	ck_assert_int_eq(kp_requirement_has(r, NULL), 0);
	kp_requirement_free(r);
}
END_TEST

static const struct {
	uint32_t op;
	int64_t len;
	const char *string;
	const char *any; /* deterministic Any() */
} shapes[N_OPERANDS] = {
	[EX] = { KP_SELECTOR_OP_EXISTS, INT64_MAX, "key Exists", "0" },
	[DNE] = { KP_SELECTOR_OP_DOES_NOT_EXIST, 0, "key DoesNotExist", "" },
	[IN_A] = { KP_SELECTOR_OP_IN, 1, "key In [A]", "A" },
	[IN_B] = { KP_SELECTOR_OP_IN, 1, "key In [B]", "B" },
	[IN_AB] = { KP_SELECTOR_OP_IN, 2, "key In [A B]", "A" },
	[NOTIN_A] = { KP_SELECTOR_OP_NOT_IN, INT64_MAX - 1, "key NotIn [A]", "0" },
	[IN_1] = { KP_SELECTOR_OP_IN, 1, "key In [1]", "1" },
	[IN_9] = { KP_SELECTOR_OP_IN, 1, "key In [9]", "9" },
	[IN_19] = { KP_SELECTOR_OP_IN, 2, "key In [1 9]", "1" },
	[NOTIN_12] = { KP_SELECTOR_OP_NOT_IN, INT64_MAX - 2, "key NotIn [1 2]", "0" },
	[GT_1] = { KP_SELECTOR_OP_EXISTS, INT64_MAX, "key Exists >=2", "2" },
	[GT_9] = { KP_SELECTOR_OP_EXISTS, INT64_MAX, "key Exists >=10", "10" },
	[LT_1] = { KP_SELECTOR_OP_EXISTS, INT64_MAX, "key Exists <=0", "0" },
	[LT_9] = { KP_SELECTOR_OP_EXISTS, INT64_MAX, "key Exists <=8", "0" },
};

START_TEST(operator_len_string_any)
{
	kp_requirement *r = make_operand("key", _i);
	ck_assert_uint_eq(kp_requirement_operator(r), shapes[_i].op);
	ck_assert_int_eq(kp_requirement_len(r), shapes[_i].len);
	ck_assert_str_eq(str(r), shapes[_i].string);
	char any[32];
	size_t n = kp_requirement_any(r, any, sizeof(any));
	ck_assert_str_eq(any, shapes[_i].any);
	ck_assert_uint_eq(n, strlen(shapes[_i].any));
	/* Whatever Any() picks, the requirement allows it. */
	if (n)
		ck_assert_int_eq(kp_requirement_has(r, any), 1);
	ck_assert_int_eq(kp_requirement_min_values(r), 0);
	kp_requirement_free(r);

	/* minValues only adds a suffix. */
	r = make_operand("key", M(_i));
	char expected[64];
	snprintf(expected, sizeof(expected), "%s minValues %d", shapes[_i].string,
		 (int)operands[_i].min_values);
	ck_assert_str_eq(str(r), expected);
	ck_assert_int_eq(kp_requirement_min_values(r), operands[_i].min_values);
	kp_requirement_free(r);
}
END_TEST

START_TEST(string_of_combined_bounds)
{
	kp_requirement *gt1 = make_operand("key", GT_1), *lt9 = make_operand("key", LT_9);
	kp_requirement *gt9 = make_operand("key", GT_9), *lt1 = make_operand("key", LT_1), *x;
	ck_assert_int_eq(kp_requirement_intersection(&x, gt1, lt9, NULL), KP_OK);
	ck_assert_str_eq(str(x), "key Exists >=2 <=8");
	kp_requirement_free(x);
	ck_assert_int_eq(kp_requirement_intersection(&x, gt9, lt1, NULL), KP_OK);
	ck_assert_str_eq(str(x), "key DoesNotExist");
	kp_requirement_free(x);
	kp_requirement_free(gt1);
	kp_requirement_free(lt9);
	kp_requirement_free(gt9);
	kp_requirement_free(lt1);
}
END_TEST

START_TEST(string_truncates_values_and_buffer)
{
	static const char *const v[] = { "g", "f", "e", "d", "c", "b", "a" };
	kp_requirement *r = make("key", KP_SELECTOR_OP_IN, v, 7, 3);
	ck_assert_str_eq(str(r), "key In [a b c d e and 2 others] minValues 3");
	char small[8];
	size_t n = kp_requirement_string(r, small, sizeof(small));
	ck_assert_uint_eq(n, strlen("key In [a b c d e and 2 others] minValues 3"));
	ck_assert_str_eq(small, "key In ");
	ck_assert_uint_eq(kp_requirement_string(r, NULL, 0), n);
	kp_requirement_free(r);
}
END_TEST

START_TEST(any_skips_excluded_integers)
{
	static const char *const zero_one[] = { "0", "1" };
	static const char *const two_three[] = { "2", "3" };
	static const char *const minus5[] = { "-5" };
	char any[32];
	kp_requirement *r = make("key", KP_SELECTOR_OP_NOT_IN, zero_one, 2, 0);
	ck_assert_uint_eq(kp_requirement_any(r, any, sizeof(any)), 1);
	ck_assert_str_eq(any, "2");
	kp_requirement_free(r);

	/* Gte 2, Lte 3, NotIn [2 3]: every integer in range is excluded. */
	kp_requirement *a = make1("key", KP_SELECTOR_OP_GTE, "2"), *b = make1("key", KP_SELECTOR_OP_LTE, "3");
	kp_requirement *c = make("key", KP_SELECTOR_OP_NOT_IN, two_three, 2, 0), *ab, *abc;
	ck_assert_int_eq(kp_requirement_intersection(&ab, a, b, NULL), KP_OK);
	ck_assert_int_eq(kp_requirement_intersection(&abc, ab, c, NULL), KP_OK);
	ck_assert_str_eq(str(abc), "key NotIn [2 3] >=2 <=3");
	ck_assert_uint_eq(kp_requirement_any(abc, any, sizeof(any)), 0);
	ck_assert_str_eq(any, "");
	kp_requirement_free(abc);
	ck_assert_int_eq(kp_requirement_any(ab, any, sizeof(any)), 1);
	ck_assert_str_eq(any, "2");
	kp_requirement_free(ab);

	/* Only negative integers allowed: count down from the upper bound. */
	kp_requirement *neg = make1("key", KP_SELECTOR_OP_LTE, "-5");
	kp_requirement *not5 = make("key", KP_SELECTOR_OP_NOT_IN, minus5, 1, 0), *x;
	ck_assert_uint_eq(kp_requirement_any(neg, any, sizeof(any)), 2);
	ck_assert_str_eq(any, "-5");
	ck_assert_int_eq(kp_requirement_intersection(&x, neg, not5, NULL), KP_OK);
	kp_requirement_any(x, any, sizeof(any));
	ck_assert_str_eq(any, "-6");
	kp_requirement_free(x);
	kp_requirement_free(neg);
	kp_requirement_free(not5);
	kp_requirement_free(a);
	kp_requirement_free(b);
	kp_requirement_free(c);
	ck_assert_uint_eq(kp_requirement_any(NULL, any, sizeof(any)), 0);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Gte/Lte and integer parsing                                         */

START_TEST(gte_lte_operators)
{
	kp_requirement *gte2 = make1("key", KP_SELECTOR_OP_GTE, "2");
	kp_requirement *lte8 = make1("key", KP_SELECTOR_OP_LTE, "8");
	kp_requirement *gt1 = make1("key", KP_SELECTOR_OP_GT, "1");
	kp_requirement *lt9 = make1("key", KP_SELECTOR_OP_LT, "9");
	static const char *const probes[] = { "-1", "0", "1", "2", "3", "5", "8", "9", "10", "100" };
	for (size_t i = 0; i < sizeof(probes) / sizeof(probes[0]); i++) {
		int64_t v = strtoll(probes[i], NULL, 10);
		ck_assert_int_eq(kp_requirement_has(gte2, probes[i]), v >= 2);
		ck_assert_int_eq(kp_requirement_has(lte8, probes[i]), v <= 8);
		/* Gt N is Gte N+1, Lt N is Lte N-1. */
		ck_assert_int_eq(kp_requirement_has(gt1, probes[i]), v >= 2);
		ck_assert_int_eq(kp_requirement_has(lt9, probes[i]), v <= 8);
	}
	char text[64];
	snprintf(text, sizeof(text), "%s", str(gte2));
	ck_assert_str_eq(text, str(gt1));
	ck_assert_str_eq(text, "key Exists >=2");
	int64_t b = 0;
	ck_assert_int_eq(kp_requirement_gte(gt1, &b), 1);
	ck_assert_int_eq(b, 2);
	ck_assert_int_eq(kp_requirement_lte(gt1, &b), 0);
	ck_assert_int_eq(kp_requirement_lte(lt9, &b), 1);
	ck_assert_int_eq(b, 8);

	kp_requirement *x;
	ck_assert_int_eq(kp_requirement_intersection(&x, gte2, lte8, NULL), KP_OK);
	ck_assert_int_eq(kp_requirement_has(x, "2"), 1);
	ck_assert_int_eq(kp_requirement_has(x, "5"), 1);
	ck_assert_int_eq(kp_requirement_has(x, "8"), 1);
	ck_assert_int_eq(kp_requirement_has(x, "1"), 0);
	ck_assert_int_eq(kp_requirement_has(x, "9"), 0);
	kp_requirement_free(x);
	kp_requirement_free(gte2);
	kp_requirement_free(lte8);
	kp_requirement_free(gt1);
	kp_requirement_free(lt9);
}
END_TEST

/* Upstream "should collapse/keep ..." cases: the tighter bound survives. */
static const struct {
	uint32_t op_a;
	const char *a;
	uint32_t op_b;
	const char *b;
	uint32_t want_op;
	const char *want;
} collapse[] = {
	{ KP_SELECTOR_OP_GT, "4", KP_SELECTOR_OP_GTE, "5", KP_SELECTOR_OP_GTE, "5" },
	{ KP_SELECTOR_OP_GT, "5", KP_SELECTOR_OP_GTE, "5", KP_SELECTOR_OP_GTE, "6" },
	{ KP_SELECTOR_OP_GT, "3", KP_SELECTOR_OP_GTE, "6", KP_SELECTOR_OP_GTE, "6" },
	{ KP_SELECTOR_OP_LT, "5", KP_SELECTOR_OP_LTE, "5", KP_SELECTOR_OP_LTE, "4" },
	{ KP_SELECTOR_OP_LT, "9", KP_SELECTOR_OP_LTE, "5", KP_SELECTOR_OP_LTE, "5" },
};

START_TEST(bounds_collapse)
{
	kp_requirement *a = make1("key", collapse[_i].op_a, collapse[_i].a);
	kp_requirement *b = make1("key", collapse[_i].op_b, collapse[_i].b), *x;
	ck_assert_int_eq(kp_requirement_intersection(&x, a, b, NULL), KP_OK);
	ck_assert_uint_eq(kp_requirement_selector_count(x), 1);
	kp_node_selector_requirement out = KP_NODE_SELECTOR_REQUIREMENT_INIT;
	ck_assert_int_eq(kp_requirement_selector(x, 0, &out, NULL), KP_OK);
	ck_assert_uint_eq(out.op, collapse[_i].want_op);
	ck_assert_uint_eq(out.n_values, 1);
	ck_assert_str_eq(out.values[0], collapse[_i].want);
	ck_assert_int_eq(kp_requirement_has(x, collapse[_i].want), 1);
	kp_requirement_free(x);
	kp_requirement_free(a);
	kp_requirement_free(b);
}
END_TEST

START_TEST(gte_lte_zero_and_extremes)
{
	kp_requirement *gte0 = make1("key", KP_SELECTOR_OP_GTE, "0");
	kp_requirement *lte0 = make1("key", KP_SELECTOR_OP_LTE, "0");
	ck_assert_int_eq(kp_requirement_has(gte0, "0"), 1);
	ck_assert_int_eq(kp_requirement_has(gte0, "-1"), 0);
	ck_assert_int_eq(kp_requirement_has(lte0, "0"), 1);
	ck_assert_int_eq(kp_requirement_has(lte0, "1"), 0);
	kp_requirement_free(gte0);
	kp_requirement_free(lte0);

	/* Gt MaxInt matches nothing and drops minValues, as upstream. */
	const char *max = "9223372036854775807";
	kp_requirement *r = make("key", KP_SELECTOR_OP_GT, &max, 1, 3);
	ck_assert_uint_eq(kp_requirement_operator(r), KP_SELECTOR_OP_DOES_NOT_EXIST);
	ck_assert_int_eq(kp_requirement_len(r), 0);
	ck_assert_str_eq(str(r), "key DoesNotExist");
	kp_requirement_free(r);
	/* Lt MinInt matches nothing too (upstream's int wraps around). */
	r = make1("key", KP_SELECTOR_OP_LT, "-9223372036854775808");
	ck_assert_uint_eq(kp_requirement_operator(r), KP_SELECTOR_OP_DOES_NOT_EXIST);
	kp_requirement_free(r);
	r = make1("key", KP_SELECTOR_OP_GTE, max);
	ck_assert_int_eq(kp_requirement_has(r, max), 1);
	char any[32];
	kp_requirement_any(r, any, sizeof(any));
	ck_assert_str_eq(any, max);
	kp_requirement_free(r);
}
END_TEST

/* Values are compared as strconv.Atoi parses them. */
static const struct {
	const char *value;
	int has; /* in Gte -5 */
} atoi_probes[] = {
	{ "5", 1 }, { "+5", 1 }, { "05", 1 }, { "-0", 1 }, { "-5", 1 }, { "-6", 0 },
	{ "", 0 }, { "+", 0 }, { "-", 0 }, { "5a", 0 }, { " 5", 0 }, { "5 ", 0 }, { "1_000", 0 },
	{ "0x10", 0 }, { "9223372036854775807", 1 }, { "9223372036854775808", 0 },
	{ "-9223372036854775808", 0 }, { "-9223372036854775809", 0 },
};

START_TEST(bounds_parse_like_atoi)
{
	kp_requirement *r = make1("key", KP_SELECTOR_OP_GTE, "-5");
	ck_assert_msg(kp_requirement_has(r, atoi_probes[_i].value) == atoi_probes[_i].has,
		      "Has(\"%s\")", atoi_probes[_i].value);
	kp_requirement_free(r);
}
END_TEST

/* ------------------------------------------------------------------ */
/* NodeSelectorRequirement conversion                                  */

static const struct {
	uint32_t op;
	const char *values; /* space-separated */
} selectors[N_OPERANDS] = {
	[EX] = { KP_SELECTOR_OP_EXISTS, "" },
	[DNE] = { KP_SELECTOR_OP_DOES_NOT_EXIST, "" },
	[IN_A] = { KP_SELECTOR_OP_IN, "A" },
	[IN_B] = { KP_SELECTOR_OP_IN, "B" },
	[IN_AB] = { KP_SELECTOR_OP_IN, "A B" },
	[NOTIN_A] = { KP_SELECTOR_OP_NOT_IN, "A" },
	[IN_1] = { KP_SELECTOR_OP_IN, "1" },
	[IN_9] = { KP_SELECTOR_OP_IN, "9" },
	[IN_19] = { KP_SELECTOR_OP_IN, "1 9" },
	[NOTIN_12] = { KP_SELECTOR_OP_NOT_IN, "1 2" },
	[GT_1] = { KP_SELECTOR_OP_GTE, "2" },
	[GT_9] = { KP_SELECTOR_OP_GTE, "10" },
	[LT_1] = { KP_SELECTOR_OP_LTE, "0" },
	[LT_9] = { KP_SELECTOR_OP_LTE, "8" },
};

static void check_selector(const kp_node_selector_requirement *s, const char *key, uint32_t op,
			   const char *values, int32_t min_values)
{
	ck_assert_str_eq(s->key, key);
	ck_assert_uint_eq(s->op, op);
	ck_assert_int_eq(s->min_values, min_values);
	char joined[64] = "";
	for (size_t i = 0; i < s->n_values; i++) {
		if (i)
			strcat(joined, " ");
		strcat(joined, s->values[i]);
	}
	ck_assert_str_eq(joined, values);
}

START_TEST(selector_conversion)
{
	int idx = _i;
	kp_requirement *r = make_operand("key", idx);
	kp_node_selector_requirement out = KP_NODE_SELECTOR_REQUIREMENT_INIT;
	ck_assert_uint_eq(kp_requirement_selector_count(r), 1);
	ck_assert_int_eq(kp_requirement_selector(r, 0, &out, NULL), KP_OK);
	check_selector(&out, "key", selectors[idx % N_OPERANDS].op, selectors[idx % N_OPERANDS].values,
		       idx >= N_OPERANDS ? operands[idx % N_OPERANDS].min_values : 0);
	kp_error err = KP_ERROR_INIT;
	ck_assert_int_eq(kp_requirement_selector(r, 1, &out, &err), KP_EINVAL);
	ck_assert_str_eq(err.field, "index");
	kp_requirement_free(r);
}
END_TEST

START_TEST(selector_conversion_of_both_bounds)
{
	kp_requirements *reqs = set_of(make1("cpu", KP_SELECTOR_OP_GTE, "8"));
	kp_requirement *lte = make1("cpu", KP_SELECTOR_OP_LTE, "8");
	ck_assert_int_eq(kp_requirements_add(reqs, lte, NULL), KP_OK);
	kp_requirement_free(lte);
	kp_requirement *r = kp_requirements_get(reqs, "cpu");
	ck_assert_uint_eq(kp_requirement_selector_count(r), 2);
	kp_node_selector_requirement out = KP_NODE_SELECTOR_REQUIREMENT_INIT;
	ck_assert_int_eq(kp_requirement_selector(r, 0, &out, NULL), KP_OK);
	check_selector(&out, "cpu", KP_SELECTOR_OP_GTE, "8", 0);
	ck_assert_int_eq(kp_requirement_selector(r, 1, &out, NULL), KP_OK);
	check_selector(&out, "cpu", KP_SELECTOR_OP_LTE, "8", 0);
	kp_requirements_free(reqs);

	/* A bound wins over excluded values, as upstream (lossy). */
	kp_requirement *n12 = make_operand("key", NOTIN_12), *gt1 = make_operand("key", GT_1), *x;
	ck_assert_int_eq(kp_requirement_intersection(&x, n12, gt1, NULL), KP_OK);
	ck_assert_str_eq(str(x), "key NotIn [2] >=2");
	ck_assert_int_eq(kp_requirement_selector(x, 0, &out, NULL), KP_OK);
	check_selector(&out, "key", KP_SELECTOR_OP_GTE, "2", 0);
	kp_requirement_free(x);
	kp_requirement_free(n12);
	kp_requirement_free(gt1);

	kp_node_selector_requirement bad = KP_NODE_SELECTOR_REQUIREMENT_INIT;
	bad.struct_size = 4;
	kp_error err = KP_ERROR_INIT;
	r = make_operand("key", EX);
	ck_assert_int_eq(kp_requirement_selector(r, 0, &bad, &err), KP_EVERSION);
	kp_requirement_free(r);
}
END_TEST

/* ------------------------------------------------------------------ */
/* construction                                                        */

START_TEST(values_are_sorted_and_unique)
{
	static const char *const v[] = { "b", "a", "c", "a", "b" };
	kp_requirement *r = make("key", KP_SELECTOR_OP_IN, v, 5, 0);
	ck_assert_uint_eq(kp_requirement_value_count(r), 3);
	ck_assert_str_eq(kp_requirement_value_at(r, 0), "a");
	ck_assert_str_eq(kp_requirement_value_at(r, 1), "b");
	ck_assert_str_eq(kp_requirement_value_at(r, 2), "c");
	ck_assert_ptr_null(kp_requirement_value_at(r, 3));
	ck_assert_int_eq(kp_requirement_len(r), 3);
	/* The requirement owns copies. */
	ck_assert_ptr_ne(kp_requirement_value_at(r, 0), v[1]);
	kp_requirement_free(r);

	/* Exists and DoesNotExist ignore values, as upstream. */
	r = make("key", KP_SELECTOR_OP_EXISTS, v, 5, 0);
	ck_assert_str_eq(str(r), "key Exists");
	kp_requirement_free(r);
	/* In without values allows nothing. */
	r = make("key", KP_SELECTOR_OP_IN, NULL, 0, 0);
	ck_assert_str_eq(str(r), "key DoesNotExist");
	kp_requirement_free(r);
}
END_TEST

START_TEST(many_values)
{
	/* More values than fit the stack buffers of the implementation. */
	enum { N = 300 };
	static char text[N][8];
	const char *v[N], *w[N];
	for (int i = 0; i < N; i++) {
		snprintf(text[i], sizeof(text[i]), "v%03d", i);
		v[i] = text[N - 1 - i];
		w[i] = text[i];
	}
	kp_requirement *a = make("key", KP_SELECTOR_OP_IN, v, N, 0);
	kp_requirement *b = make("key", KP_SELECTOR_OP_NOT_IN, w + 100, N - 100, 0), *x;
	ck_assert_int_eq(kp_requirement_intersection(&x, a, b, NULL), KP_OK);
	ck_assert_uint_eq(kp_requirement_value_count(x), 100);
	ck_assert_str_eq(kp_requirement_value_at(x, 0), "v000");
	ck_assert_str_eq(kp_requirement_value_at(x, 99), "v099");
	ck_assert_str_eq(str(x), "key In [v000 v001 v002 v003 v004 and 95 others]");
	kp_requirement_free(x);
	kp_requirement_free(a);
	kp_requirement_free(b);
}
END_TEST

static const struct {
	uint32_t op;
	const char *key;
	const char *values[2];
	size_t n_values;
	int32_t min_values;
	int rc;
	const char *field;
	const char *message;
} bad_selectors[] = {
	{ 0, "key", { NULL }, 0, 0, KP_EINVAL, "operator", "key key has an unsupported operator 0" },
	{ 9, "key", { NULL }, 0, 0, KP_EINVAL, "operator", "key key has an unsupported operator 9" },
	{ KP_SELECTOR_OP_IN, NULL, { NULL }, 0, 0, KP_EINVAL, "key", "key is NULL" },
	{ KP_SELECTOR_OP_IN, "key", { "a", NULL }, 2, 0, KP_EINVAL, "values[1]",
	  "key key has a NULL value" },
	{ KP_SELECTOR_OP_IN, "key", { "a" }, 1, -1, KP_EINVAL, "min_values",
	  "key key has a negative minValues -1" },
	{ KP_SELECTOR_OP_GT, "key", { NULL }, 0, 0, KP_EINVAL, "values",
	  "key key with operator Gt must have a single integer value, got 0 values" },
	{ KP_SELECTOR_OP_LTE, "key", { "1", "2" }, 2, 0, KP_EINVAL, "values",
	  "key key with operator Lte must have a single integer value, got 2 values" },
	{ KP_SELECTOR_OP_LT, "key", { "ten" }, 1, 0, KP_EPARSE, "values[0]",
	  "key key with operator Lt must have a single integer value, not \"ten\"" },
	{ KP_SELECTOR_OP_GTE, "key", { "99999999999999999999" }, 1, 0, KP_EPARSE, "values[0]",
	  "key key with operator Gte must have a single integer value, not \"99999999999999999999\"" },
};

START_TEST(construction_errors)
{
	kp_node_selector_requirement s =
		selector(bad_selectors[_i].key, bad_selectors[_i].op, bad_selectors[_i].values,
			 bad_selectors[_i].n_values, bad_selectors[_i].min_values);
	kp_requirement *r = (kp_requirement *)(void *)&s; /* must be reset to NULL */
	kp_error err = KP_ERROR_INIT;
	ck_assert_int_eq(kp_requirement_new(&r, &s, NULL, &err), bad_selectors[_i].rc);
	ck_assert_ptr_null(r);
	ck_assert_int_eq(err.code, bad_selectors[_i].rc);
	ck_assert_str_eq(err.field, bad_selectors[_i].field);
	ck_assert_str_eq(err.message, bad_selectors[_i].message);
}
END_TEST

START_TEST(construction_checks_struct)
{
	kp_requirement *r = NULL;
	kp_error err = KP_ERROR_INIT;
	ck_assert_int_eq(kp_requirement_new(&r, NULL, NULL, &err), KP_EINVAL);
	ck_assert_int_eq(kp_requirement_new(NULL, NULL, NULL, &err), KP_EINVAL);
	kp_node_selector_requirement s = selector("key", KP_SELECTOR_OP_EXISTS, NULL, 0, 0);
	s.struct_size = 8;
	ck_assert_int_eq(kp_requirement_new(&r, &s, NULL, &err), KP_EVERSION);
	ck_assert_ptr_null(r);
	kp_node_selector_requirement z;
	memset(&z, 0xff, sizeof(z));
	kp_node_selector_requirement_init(&z);
	ck_assert_uint_eq(z.struct_size, sizeof(z));
	ck_assert_uint_eq(z.op, 0);
	ck_assert_ptr_null(z.key);
	ck_assert_uint_eq(z.n_values, 0);
	kp_node_selector_requirement_init(NULL);
}
END_TEST

START_TEST(operator_names)
{
	static const char *const names[] = { "In", "NotIn", "Exists", "DoesNotExist",
					     "Gt", "Lt", "Gte", "Lte" };
	for (uint32_t op = KP_SELECTOR_OP_IN; op <= KP_SELECTOR_OP_LTE; op++) {
		ck_assert_str_eq(kp_selector_op_name(op), names[op - 1]);
		uint32_t parsed = 0;
		ck_assert_int_eq(kp_selector_op_parse(names[op - 1], &parsed, NULL), KP_OK);
		ck_assert_uint_eq(parsed, op);
	}
	ck_assert_str_eq(kp_selector_op_name(0), "Unknown");
	ck_assert_str_eq(kp_selector_op_name(99), "Unknown");
	uint32_t op = 42;
	kp_error err = KP_ERROR_INIT;
	ck_assert_int_eq(kp_selector_op_parse("in", &op, &err), KP_EINVAL);
	ck_assert_uint_eq(op, 42);
	ck_assert_str_eq(err.field, "operator");
	ck_assert_str_eq(err.message,
			 "unsupported operator in not in [DoesNotExist Exists Gt Gte In Lt Lte NotIn]");
}
END_TEST

/* ------------------------------------------------------------------ */
/* requirement sets                                                    */

static const char *const beta_keys[] = {
	KP_LABEL_FAILURE_DOMAIN_BETA_ZONE, KP_LABEL_FAILURE_DOMAIN_BETA_REGION, KP_LABEL_ARCH_BETA,
	KP_LABEL_OS_BETA, KP_LABEL_INSTANCE_TYPE_BETA,
};
static const char *const ga_keys_sorted[] = {
	KP_LABEL_ARCH, KP_LABEL_OS, KP_LABEL_INSTANCE_TYPE, KP_LABEL_TOPOLOGY_REGION,
	KP_LABEL_TOPOLOGY_ZONE,
};

static void check_normalized(kp_requirements *reqs)
{
	ck_assert_uint_eq(kp_requirements_count(reqs), 5);
	for (size_t i = 0; i < 5; i++) {
		kp_requirement *r = kp_requirements_at(reqs, i);
		ck_assert_str_eq(kp_requirement_key(r), ga_keys_sorted[i]);
		ck_assert_int_eq(kp_requirement_has(r, "test"), 1);
		ck_assert_int_eq(kp_requirements_has(reqs, beta_keys[i]), 0);
	}
	ck_assert_ptr_null(kp_requirements_at(reqs, 5));
}

START_TEST(sets_normalize_labels)
{
	kp_label items[5];
	for (int i = 0; i < 5; i++)
		items[i] = (kp_label){ beta_keys[i], "test" };
	kp_labels labels = { items, 5 };
	kp_requirements *reqs;
	ck_assert_int_eq(kp_requirements_from_labels(&reqs, &labels, NULL, NULL), KP_OK);
	check_normalized(reqs);
	kp_requirements_free(reqs);

	static const char *const test[] = { "test" };
	kp_node_selector_requirement sels[5];
	const kp_node_selector_requirement *ptrs[5];
	for (int i = 0; i < 5; i++) {
		sels[i] = selector(beta_keys[i], KP_SELECTOR_OP_IN, test, 1, 0);
		ptrs[i] = &sels[i];
	}
	ck_assert_int_eq(kp_requirements_from_selectors(&reqs, ptrs, 5, NULL, NULL), KP_OK);
	check_normalized(reqs);
	ck_assert_int_eq(kp_requirement_has(kp_requirements_get(reqs, KP_LABEL_TOPOLOGY_ZONE), "test"), 1);
	kp_requirements_free(reqs);
}
END_TEST

START_TEST(sets_intersect_same_key)
{
	/* A beta and a GA label for one key intersect. */
	kp_label items[] = { { KP_LABEL_TOPOLOGY_ZONE, "a" }, { KP_LABEL_FAILURE_DOMAIN_BETA_ZONE, "b" },
			     { "team", "x" } };
	kp_labels labels = { items, 3 };
	kp_requirements *reqs;
	ck_assert_int_eq(kp_requirements_from_labels(&reqs, &labels, NULL, NULL), KP_OK);
	ck_assert_uint_eq(kp_requirements_count(reqs), 2);
	ck_assert_str_eq(str(kp_requirements_get(reqs, KP_LABEL_TOPOLOGY_ZONE)),
			 "topology.kubernetes.io/zone DoesNotExist");
	ck_assert_str_eq(str(kp_requirements_get(reqs, "team")), "team In [x]");
	ck_assert_ptr_null(kp_requirements_get(reqs, "absent"));
	ck_assert_int_eq(kp_requirements_has_min_values(reqs), 0);

	/* A copy shares requirements but not membership. */
	kp_requirements *copy;
	ck_assert_int_eq(kp_requirements_copy(&copy, reqs, NULL), KP_OK);
	ck_assert_ptr_eq(kp_requirements_at(copy, 0), kp_requirements_at(reqs, 0));
	static const char *const xy[] = { "x", "y" };
	kp_node_selector_requirement s = selector("team", KP_SELECTOR_OP_IN, xy, 2, 2);
	ck_assert_int_eq(kp_requirements_add_selector(copy, &s, NULL, NULL), KP_OK);
	s = selector("tier", KP_SELECTOR_OP_EXISTS, NULL, 0, 0);
	ck_assert_int_eq(kp_requirements_add_selector(copy, &s, NULL, NULL), KP_OK);
	ck_assert_str_eq(str(kp_requirements_get(copy, "team")), "team In [x] minValues 2");
	ck_assert_int_eq(kp_requirements_has_min_values(copy), 1);
	ck_assert_uint_eq(kp_requirements_count(copy), 3);
	ck_assert_str_eq(str(kp_requirements_get(reqs, "team")), "team In [x]");
	ck_assert_uint_eq(kp_requirements_count(reqs), 2);

	/* add_all intersects key by key. */
	ck_assert_int_eq(kp_requirements_add_all(reqs, copy, NULL), KP_OK);
	ck_assert_uint_eq(kp_requirements_count(reqs), 3);
	ck_assert_str_eq(str(kp_requirements_get(reqs, "team")), "team In [x] minValues 2");
	ck_assert_int_eq(kp_requirements_add_all(reqs, reqs, NULL), KP_OK);
	ck_assert_uint_eq(kp_requirements_count(reqs), 3);
	kp_requirements_free(copy);

	/* A borrowed requirement outlives its set once copied. */
	kp_requirement *kept;
	ck_assert_int_eq(kp_requirement_copy(&kept, kp_requirements_get(reqs, "tier"), NULL), KP_OK);
	kp_requirements_free(reqs);
	ck_assert_str_eq(str(kept), "tier Exists");
	kp_requirement_free(kept);
}
END_TEST

START_TEST(sets_report_bad_input)
{
	kp_error err = KP_ERROR_INIT;
	kp_requirements *reqs = (kp_requirements *)(void *)&err; /* must be reset to NULL */
	kp_label items[] = { { "a", "1" }, { "b", NULL } };
	kp_labels labels = { items, 2 };
	ck_assert_int_eq(kp_requirements_from_labels(&reqs, &labels, NULL, &err), KP_EINVAL);
	ck_assert_ptr_null(reqs);
	ck_assert_str_eq(err.field, "items[1].value");
	ck_assert_str_eq(err.message, "label value is NULL");

	static const char *const none[] = { "x" };
	kp_node_selector_requirement ok = selector("a", KP_SELECTOR_OP_IN, none, 1, 0);
	kp_node_selector_requirement bad = selector("b", KP_SELECTOR_OP_GT, none, 1, 0);
	const kp_node_selector_requirement *sels[] = { &ok, &bad };
	ck_assert_int_eq(kp_requirements_from_selectors(&reqs, sels, 2, NULL, &err), KP_EPARSE);
	ck_assert_ptr_null(reqs);
	ck_assert_str_eq(err.field, "[1].values[0]");
	ck_assert_int_eq(kp_requirements_from_selectors(&reqs, NULL, 1, NULL, &err), KP_EINVAL);
	ck_assert_int_eq(kp_requirements_add(NULL, NULL, &err), KP_EINVAL);
	ck_assert_uint_eq(kp_requirements_count(NULL), 0);
	kp_requirements_free(NULL);
	kp_requirement_free(NULL);
}
END_TEST

START_TEST(provider_normalization)
{
	kp_wellknown *wk;
	ck_assert_int_eq(kp_wellknown_new(&wk, NULL), KP_OK);
	ck_assert_int_eq(kp_wellknown_add_key_alias(wk, "topology.disk.csi.example.com/zone",
						    KP_LABEL_TOPOLOGY_ZONE, NULL), KP_OK);
	ck_assert_int_eq(kp_wellknown_add_value_alias(wk, KP_LABEL_TOPOLOGY_ZONE, "", "0", NULL), KP_OK);
	static const char *const v[] = { "", "1" };
	kp_node_selector_requirement s =
		selector("topology.disk.csi.example.com/zone", KP_SELECTOR_OP_IN, v, 2, 0);
	kp_requirement *r;
	ck_assert_int_eq(kp_requirement_new(&r, &s, wk, NULL), KP_OK);
	ck_assert_str_eq(str(r), "topology.kubernetes.io/zone In [0 1]");
	kp_requirement_free(r);
	/* Without the provider's rules nothing is translated. */
	ck_assert_int_eq(kp_requirement_new(&r, &s, NULL, NULL), KP_OK);
	ck_assert_str_eq(str(r), "topology.disk.csi.example.com/zone In [ 1]");
	kp_requirement_free(r);
	kp_wellknown_free(wk);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Compatible: upstream's two 15x15 tables on a well-known key          */

enum { UNCONSTRAINED = N_OPERANDS }; /* the empty set, first row and column */

static kp_requirements *compat_operand(int idx)
{
	return set_of(idx == UNCONSTRAINED ? NULL : make_operand(KP_LABEL_TOPOLOGY_ZONE, idx));
}

/* Row and column order of the tables below. */
static const int compat_order[15] = { UNCONSTRAINED, EX, DNE, IN_A, IN_B, IN_AB, NOTIN_A,
				      IN_1, IN_9, IN_19, NOTIN_12, GT_1, GT_9, LT_1, LT_9 };

/* '+': rows.Compatible(column) succeeds. */
static const char *const compat_allow_undefined[15] = {
	"+++++++++++++++", "++-++++++++++++", "+-+---+---+----", "++-+-+----+----",
	"++--+++---+----", "++-++++---+----", "+++-+++++++++++", "++----++-+----+",
	"++----+-++++---", "++----++++++--+", "+++++++-+++++++", "++----+-+++++-+",
	"++----+---+++--", "++----+---+--++", "++----++-+++-++",
};
static const char *const compat_strict[15] = {
	"+-+---+---+----", "++-++++++++++++", "+-+---+---+----", "++-+-+----+----",
	"++--+++---+----", "++-++++---+----", "+++-+++++++++++", "++----++-+----+",
	"++----+-++++---", "++----++++++--+", "+++++++-+++++++", "++----+-+++++-+",
	"++----+---+++--", "++----+---+--++", "++----++-+++-++",
};

static void check_compat(int row, int col, uint32_t flags, char want)
{
	kp_requirements *a = compat_operand(compat_order[row]);
	kp_requirements *b = compat_operand(compat_order[col]);
	kp_error err = KP_ERROR_INIT;
	int rc = kp_requirements_compatible(a, b, flags, NULL, &err);
	ck_assert_msg(rc == (want == '+' ? KP_OK : KP_EINCOMPATIBLE), "row %d col %d: %s", row, col,
		      err.message);
	/* Without err the answer is the same. */
	ck_assert_int_eq(kp_requirements_compatible(a, b, flags, NULL, NULL), rc);
	kp_requirements_free(a);
	kp_requirements_free(b);
}

START_TEST(compatible_allow_undefined_wellknown)
{
	for (int col = 0; col < 15; col++)
		check_compat(_i, col, KP_COMPAT_ALLOW_UNDEFINED_WELLKNOWN,
			     compat_allow_undefined[_i][col]);
}
END_TEST

START_TEST(compatible_strict)
{
	for (int col = 0; col < 15; col++)
		check_compat(_i, col, 0, compat_strict[_i][col]);
}
END_TEST

/* Upstream's "Error Messages" tables: an undefined key with a typo hint. */
static const struct {
	const char *key;
	const char *message;
} typo_hints[] = {
	{ "zone", "label \"zone\" does not have known values (typo of \"topology.kubernetes.io/zone\"?)" },
	{ "region", "label \"region\" does not have known values (typo of \"topology.kubernetes.io/region\"?)" },
	{ "nodepool", "label \"nodepool\" does not have known values (typo of \"karpenter.sh/nodepool\"?)" },
	{ "instance-type", "label \"instance-type\" does not have known values (typo of \"node.kubernetes.io/instance-type\"?)" },
	{ "arch", "label \"arch\" does not have known values (typo of \"kubernetes.io/arch\"?)" },
	{ "capacity-type", "label \"capacity-type\" does not have known values (typo of \"karpenter.sh/capacity-type\"?)" },
	{ "topology.kubernetesio/zone", "label \"topology.kubernetesio/zone\" does not have known values (typo of \"topology.kubernetes.io/zone\"?)" },
	{ "node.io/zone", "label \"node.io/zone\" does not have known values (typo of \"topology.kubernetes.io/zone\"?)" },
	{ "topology.kubernetes.io/regio", "label \"topology.kubernetes.io/regio\" does not have known values (typo of \"topology.kubernetes.io/region\"?)" },
	{ "node.kubernetes.io/region", "label \"node.kubernetes.io/region\" does not have known values (typo of \"topology.kubernetes.io/region\"?)" },
	{ "karpenter/nodepool", "label \"karpenter/nodepool\" does not have known values (typo of \"karpenter.sh/nodepool\"?)" },
};

START_TEST(compatible_typo_hints)
{
	kp_requirements *none = set_of(NULL);
	kp_requirements *req = set_of(make(typo_hints[_i].key, KP_SELECTOR_OP_EXISTS, NULL, 0, 0));
	kp_error err = KP_ERROR_INIT;
	ck_assert_int_eq(kp_requirements_compatible(none, req, KP_COMPAT_ALLOW_UNDEFINED_WELLKNOWN,
						    NULL, &err), KP_EINCOMPATIBLE);
	ck_assert_int_eq(err.code, KP_EINCOMPATIBLE);
	ck_assert_str_eq(err.message, typo_hints[_i].message);
	kp_requirements_free(none);
	kp_requirements_free(req);
}
END_TEST

START_TEST(compatible_messages)
{
	kp_requirements *none = set_of(NULL);
	kp_requirements *dep = set_of(make("deployment", KP_SELECTOR_OP_EXISTS, NULL, 0, 0));
	kp_error err = KP_ERROR_INIT;
	ck_assert_int_eq(kp_requirements_compatible(none, dep, 0, NULL, &err), KP_EINCOMPATIBLE);
	ck_assert_str_eq(err.message, "label \"deployment\" does not have known values");

	/* Keys of the receiving set are hint candidates too. */
	kp_requirements *team = set_of(make1("example.com/team", KP_SELECTOR_OP_IN, "a"));
	kp_requirements *typo = set_of(make1("team", KP_SELECTOR_OP_IN, "a"));
	ck_assert_int_eq(kp_requirements_compatible(team, typo, 0, NULL, &err), KP_EINCOMPATIBLE);
	ck_assert_str_eq(err.message,
			 "label \"team\" does not have known values (typo of \"example.com/team\"?)");

	/* Go's %q escapes. */
	kp_requirements *odd = set_of(make1("a\"b\\c\td\x01", KP_SELECTOR_OP_IN, "a"));
	ck_assert_int_eq(kp_requirements_compatible(none, odd, 0, NULL, &err), KP_EINCOMPATIBLE);
	ck_assert_str_eq(err.message, "label \"a\\\"b\\\\c\\td\\x01\" does not have known values");

	/* Intersects reports every conflicting key in key order. */
	kp_requirements *a = set_of(make1(KP_LABEL_TOPOLOGY_ZONE, KP_SELECTOR_OP_IN, "A"));
	kp_requirement *arch = make1(KP_LABEL_ARCH, KP_SELECTOR_OP_IN, KP_ARCH_AMD64);
	ck_assert_int_eq(kp_requirements_add(a, arch, NULL), KP_OK);
	kp_requirement_free(arch);
	kp_requirements *b = set_of(make1(KP_LABEL_TOPOLOGY_ZONE, KP_SELECTOR_OP_IN, "B"));
	arch = make1(KP_LABEL_ARCH, KP_SELECTOR_OP_IN, KP_ARCH_ARM64);
	ck_assert_int_eq(kp_requirements_add(b, arch, NULL), KP_OK);
	kp_requirement_free(arch);
	ck_assert_int_eq(kp_requirements_compatible(a, b, 0, NULL, &err), KP_EINCOMPATIBLE);
	ck_assert_str_eq(err.message,
			 "key kubernetes.io/arch, kubernetes.io/arch In [arm64] not in kubernetes.io/arch In [amd64]; "
			 "key topology.kubernetes.io/zone, topology.kubernetes.io/zone In [B] not in "
			 "topology.kubernetes.io/zone In [A]");
	ck_assert_int_eq(kp_requirements_intersects(a, b, &err), KP_EINCOMPATIBLE);
	ck_assert_int_eq(kp_requirements_intersects(a, b, NULL), KP_EINCOMPATIBLE);
	ck_assert_int_eq(kp_requirements_intersects(a, a, NULL), KP_OK);

	ck_assert_int_eq(kp_requirements_compatible(a, b, 0x80, NULL, &err), KP_EINVAL);
	ck_assert_str_eq(err.field, "flags");
	ck_assert_int_eq(kp_requirements_compatible(a, NULL, 0, NULL, &err), KP_EINVAL);

	kp_requirements_free(none);
	kp_requirements_free(dep);
	kp_requirements_free(team);
	kp_requirements_free(typo);
	kp_requirements_free(odd);
	kp_requirements_free(a);
	kp_requirements_free(b);
}
END_TEST

START_TEST(compatible_negative_operators_never_conflict)
{
	/* NotIn [1] >=10 and NotIn [2] <=5 share nothing but are both NotIn. */
	kp_requirement *n1 = make1("k", KP_SELECTOR_OP_NOT_IN, "1"), *g = make1("k", KP_SELECTOR_OP_GTE, "10");
	kp_requirement *n2 = make1("k", KP_SELECTOR_OP_NOT_IN, "2"), *l = make1("k", KP_SELECTOR_OP_LTE, "5");
	kp_requirements *a = set_of(n1), *b = set_of(n2);
	ck_assert_int_eq(kp_requirements_add(a, g, NULL), KP_OK);
	ck_assert_int_eq(kp_requirements_add(b, l, NULL), KP_OK);
	ck_assert_str_eq(str(kp_requirements_get(a, "k")), "k Exists >=10");
	ck_assert_int_eq(kp_requirements_intersects(a, b, NULL), KP_EINCOMPATIBLE);
	kp_requirement_free(g);
	kp_requirement_free(l);
	kp_requirements_free(a);
	kp_requirements_free(b);

	/* With the excluded values kept in range, both stay NotIn. */
	kp_requirement *n12 = make1("k", KP_SELECTOR_OP_NOT_IN, "12"), *n3 = make1("k", KP_SELECTOR_OP_NOT_IN, "3");
	g = make1("k", KP_SELECTOR_OP_GTE, "10");
	l = make1("k", KP_SELECTOR_OP_LTE, "5");
	a = set_of(n12);
	b = set_of(n3);
	ck_assert_int_eq(kp_requirements_add(a, g, NULL), KP_OK);
	ck_assert_int_eq(kp_requirements_add(b, l, NULL), KP_OK);
	ck_assert_str_eq(str(kp_requirements_get(a, "k")), "k NotIn [12] >=10");
	ck_assert_str_eq(str(kp_requirements_get(b, "k")), "k NotIn [3] <=5");
	ck_assert_int_eq(kp_requirement_intersects(kp_requirements_get(a, "k"), kp_requirements_get(b, "k")), 0);
	ck_assert_int_eq(kp_requirements_intersects(a, b, NULL), KP_OK);
	kp_requirement_free(g);
	kp_requirement_free(l);
	kp_requirements_free(a);
	kp_requirements_free(b);
}
END_TEST

START_TEST(compatible_provider_wellknown)
{
	kp_wellknown *wk;
	ck_assert_int_eq(kp_wellknown_new(&wk, NULL), KP_OK);
	ck_assert_int_eq(kp_wellknown_add_label(wk, "karpenter.k8s.aws/instance-family", NULL), KP_OK);
	kp_requirements *none = set_of(NULL);
	kp_requirements *fam = set_of(make1("karpenter.k8s.aws/instance-family", KP_SELECTOR_OP_IN, "m5"));
	ck_assert_int_eq(kp_requirements_compatible(none, fam, KP_COMPAT_ALLOW_UNDEFINED_WELLKNOWN, wk, NULL),
			 KP_OK);
	kp_error err = KP_ERROR_INIT;
	ck_assert_int_eq(kp_requirements_compatible(none, fam, KP_COMPAT_ALLOW_UNDEFINED_WELLKNOWN, NULL, &err),
			 KP_EINCOMPATIBLE);
	ck_assert_str_eq(err.message,
			 "label \"karpenter.k8s.aws/instance-family\" does not have known values");
	/* The provider's labels are hint candidates too. */
	kp_requirements *typo = set_of(make1("instance-family", KP_SELECTOR_OP_IN, "m5"));
	ck_assert_int_eq(kp_requirements_compatible(none, typo, KP_COMPAT_ALLOW_UNDEFINED_WELLKNOWN, wk, &err),
			 KP_EINCOMPATIBLE);
	ck_assert_str_eq(err.message, "label \"instance-family\" does not have known values "
				      "(typo of \"karpenter.k8s.aws/instance-family\"?)");
	kp_requirements_free(none);
	kp_requirements_free(fam);
	kp_requirements_free(typo);
	kp_wellknown_free(wk);
}
END_TEST

/* Upstream "Stringify Requirements". */
START_TEST(set_string)
{
	static const char *const keys[N_OPERANDS] = {
		"exists", "doesNotExist", "inA", "inB", "inAB", "notInA", "in1", "in9", "in19",
		"notIn12", "greaterThan1", "greaterThan9", "lessThan1", "lessThan9",
	};
	kp_requirements *reqs = set_of(NULL);
	for (int i = 0; i < N_OPERANDS; i++) {
		kp_requirement *r = make_operand(keys[i], i);
		ck_assert_int_eq(kp_requirements_add(reqs, r, NULL), KP_OK);
		kp_requirement_free(r);
	}
	kp_requirement *host = make1(KP_LABEL_HOSTNAME, KP_SELECTOR_OP_IN, "node-1");
	ck_assert_int_eq(kp_requirements_add(reqs, host, NULL), KP_OK);
	kp_requirement_free(host);
	static const char expected[] =
		"doesNotExist DoesNotExist, exists Exists, greaterThan1 Exists >=2, greaterThan9 Exists >=10, "
		"in1 In [1], in19 In [1 9], in9 In [9], inA In [A], inAB In [A B], inB In [B], "
		"lessThan1 Exists <=0, lessThan9 Exists <=8, notIn12 NotIn [1 2], notInA NotIn [A]";
	char buf[512];
	ck_assert_uint_eq(kp_requirements_string(reqs, buf, sizeof(buf)), strlen(expected));
	ck_assert_str_eq(buf, expected);
	ck_assert_uint_eq(kp_requirements_count(reqs), 15);
	kp_requirements_free(reqs);
}
END_TEST

/* ------------------------------------------------------------------ */
/* the hot queries never allocate                                      */

START_TEST(queries_do_not_allocate)
{
	kp_test_alloc_install();
	kp_requirements *a = set_of(make_operand(KP_LABEL_TOPOLOGY_ZONE, IN_AB));
	kp_requirements *b = set_of(make_operand(KP_LABEL_TOPOLOGY_ZONE, NOTIN_A));
	kp_requirements *c = set_of(make_operand("custom", IN_A));
	kp_requirement *ra = kp_requirements_get(a, KP_LABEL_TOPOLOGY_ZONE);
	kp_requirement *rb = kp_requirements_get(b, KP_LABEL_TOPOLOGY_ZONE);
	kp_error err = KP_ERROR_INIT;
	char buf[128];
	long before = kp_test_alloc_count();
	for (int i = 0; i < 1000; i++) {
		ck_assert_int_eq(kp_requirements_compatible(a, b, KP_COMPAT_ALLOW_UNDEFINED_WELLKNOWN, NULL, NULL), KP_OK);
		ck_assert_int_eq(kp_requirements_compatible(a, c, 0, NULL, &err), KP_EINCOMPATIBLE);
		ck_assert_int_eq(kp_requirements_intersects(b, a, &err), KP_OK);
		ck_assert_int_eq(kp_requirement_intersects(ra, rb), 1);
		ck_assert_int_eq(kp_requirement_has(ra, "B"), 1);
		kp_requirement_any(rb, buf, sizeof(buf));
		kp_requirements_string(a, buf, sizeof(buf));
	}
	ck_assert_int_eq(kp_test_alloc_count(), before);
	kp_requirements_free(a);
	kp_requirements_free(b);
	kp_requirements_free(c);
	kp_test_alloc_uninstall();
}
END_TEST

#define N_ELEM(a) ((int)(sizeof(a) / sizeof((a)[0])))

int main(void)
{
	Suite *s = suite_create("requirements");
	TCase *tc = tcase_create("requirement");
	tcase_add_loop_test(tc, intersection_matrix, 0, N_ELEM(intersections));
	tcase_add_test(tc, intersection_shares_equal_inputs);
	tcase_add_test(tc, intersection_rejects_bad_input);
	tcase_add_loop_test(tc, has_table_matches, 0, N_OPERANDS);
	tcase_add_loop_test(tc, operator_len_string_any, 0, N_OPERANDS);
	tcase_add_test(tc, string_of_combined_bounds);
	tcase_add_test(tc, string_truncates_values_and_buffer);
	tcase_add_test(tc, any_skips_excluded_integers);
	tcase_add_test(tc, gte_lte_operators);
	tcase_add_loop_test(tc, bounds_collapse, 0, N_ELEM(collapse));
	tcase_add_test(tc, gte_lte_zero_and_extremes);
	tcase_add_loop_test(tc, bounds_parse_like_atoi, 0, N_ELEM(atoi_probes));
	tcase_add_loop_test(tc, selector_conversion, 0, 2 * N_OPERANDS);
	tcase_add_test(tc, selector_conversion_of_both_bounds);
	tcase_add_test(tc, values_are_sorted_and_unique);
	tcase_add_test(tc, many_values);
	tcase_add_loop_test(tc, construction_errors, 0, N_ELEM(bad_selectors));
	tcase_add_test(tc, construction_checks_struct);
	tcase_add_test(tc, operator_names);
	suite_add_tcase(s, tc);

	tc = tcase_create("requirements");
	tcase_add_test(tc, sets_normalize_labels);
	tcase_add_test(tc, sets_intersect_same_key);
	tcase_add_test(tc, sets_report_bad_input);
	tcase_add_test(tc, provider_normalization);
	tcase_add_loop_test(tc, compatible_allow_undefined_wellknown, 0, 15);
	tcase_add_loop_test(tc, compatible_strict, 0, 15);
	tcase_add_loop_test(tc, compatible_typo_hints, 0, N_ELEM(typo_hints));
	tcase_add_test(tc, compatible_messages);
	tcase_add_test(tc, compatible_negative_operators_never_conflict);
	tcase_add_test(tc, compatible_provider_wellknown);
	tcase_add_test(tc, set_string);
	tcase_add_test(tc, queries_do_not_allocate);
	suite_add_tcase(s, tc);
	return kp_test_run(&s, 1);
}
