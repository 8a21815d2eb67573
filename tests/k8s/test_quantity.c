/*
 * Tests for kp_quantity (resource.Quantity), driven by the vectors that
 * apimachinery's own quantity tests assert
 * (shared/data/quantity/apimachinery-quantity-vectors.json), plus edge cases
 * of the C API: overflow, NULL arguments, buffer sizes, allocation.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <karpenter/karpenter.h>

#include "kp_test.h"

#define VECTORS "quantity/apimachinery-quantity-vectors.json"

__extension__ typedef __int128 i128;
__extension__ typedef unsigned __int128 u128;

/* 2^127 - 1, the largest mantissa magnitude */
#define I128_MAX ((i128)((((u128)1) << 127) - 1))

/* Unknown format value: upstream's Format("") and "invalidFormatDefaultsToExponent". */
#define FORMAT_UNKNOWN 7u

static cJSON *vectors;

static const cJSON *section(const char *name)
{
	const cJSON *s = cJSON_GetObjectItemCaseSensitive(vectors, name);
	ck_assert_msg(cJSON_IsArray(s), "vector section %s missing", name);
	return s;
}

static const cJSON *row(const char *name, int i)
{
	const cJSON *r = cJSON_GetArrayItem(section(name), i);
	ck_assert_ptr_nonnull(r);
	return r;
}

static const char *str(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	return cJSON_IsString(v) ? v->valuestring : NULL;
}

static const cJSON *item(const cJSON *o, const char *key)
{
	return cJSON_GetObjectItemCaseSensitive(o, key);
}

static int64_t int_str(const cJSON *o, const char *key)
{
	const char *s = str(o, key);
	ck_assert_msg(s != NULL, "missing %s", key);
	return strtoll(s, NULL, 10);
}

static uint32_t format_of(const char *name)
{
	if (!strcmp(name, "DecimalSI"))
		return KP_QUANTITY_DECIMAL_SI;
	if (!strcmp(name, "BinarySI"))
		return KP_QUANTITY_BINARY_SI;
	if (!strcmp(name, "DecimalExponent"))
		return KP_QUANTITY_DECIMAL_EXPONENT;
	return FORMAT_UNKNOWN;
}

static i128 i128_of(const char *s)
{
	int neg = *s == '-';
	s += neg || *s == '+';
	i128 v = 0;
	for (; *s; s++)
		v = v * 10 + (*s - '0');
	return neg ? -v : v;
}

static kp_quantity make(i128 m, int32_t exponent, uint32_t format)
{
	kp_quantity q;
	q.mantissa_lo = (uint64_t)m;
	q.mantissa_hi = (int64_t)(m >> 64);
	q.exponent = exponent;
	q.format = format;
	return q;
}

/* A vector quantity object: {format, unscaled, exponent}. */
static kp_quantity from_obj(const cJSON *o)
{
	ck_assert_ptr_nonnull(o);
	return make(i128_of(str(o, "unscaled")), (int32_t)item(o, "exponent")->valueint,
		    format_of(str(o, "format")));
}

static kp_quantity parse_ok(const char *text)
{
	kp_quantity q;
	kp_error err = KP_ERROR_INIT;
	int rc = kp_quantity_parse(&q, text, &err);
	ck_assert_msg(rc == KP_OK, "parse(\"%s\") = %d: %s", text, rc, err.message);
	return q;
}

static const char *fmt(const kp_quantity *q)
{
	static char buf[KP_QUANTITY_STRING_MAX];
	ck_assert_int_eq(kp_quantity_format(q, buf, sizeof(buf)), KP_OK);
	return buf;
}

/*
 * Upstream's String() returns the parsed text verbatim when its int64 fast
 * path judged the text canonical (quantity.go: scale a multiple of 3, no
 * "000" ending, no leading 0). A plain value type cannot keep the text, so
 * kp_quantity_format computes CanonicalizeBytes' form instead, which is what
 * upstream prints for the same value once the cache is cleared. These are the
 * vector inputs where the two differ, with CanonicalizeBytes' result.
 */
static const struct {
	const char *input, *canonical;
} echoed[] = {
	{ "1E-3", "1e-3" },
	{ "1E6", "1e6" },
	{ "1E12", "1e12" },
	{ "1E18", "1e18" },
	{ "100.035k", "100035" },
	{ "10.035M", "10035k" },
	{ "7.123456M", "7123456" },
	{ "6.987654321G", "6987654321" },
	{ "5.444T", "5444G" },
	{ "1.", "1" },
	{ "1.G", "1G" },
};

/* What kp_quantity_format must print for text whose upstream String() is `upstream`. */
static const char *expected_string(const char *input, const char *upstream)
{
	static char buf[KP_QUANTITY_STRING_MAX];
	int neg = input[0] == '-' && upstream[0] == '-';
	const char *in = input + (input[0] == '-' || input[0] == '+');
	if (strcmp(upstream + neg, in) != 0)
		return upstream;
	for (size_t i = 0; i < sizeof(echoed) / sizeof(echoed[0]); i++) {
		if (!strcmp(echoed[i].input, in)) {
			snprintf(buf, sizeof(buf), "%s%s", neg ? "-" : "", echoed[i].canonical);
			return buf;
		}
	}
	return upstream; /* echoed text that is canonical anyway */
}

/* Every entry of echoed[] is a vector input upstream echoes and we do not. */
START_TEST(echo_table_is_needed)
{
	const size_t n = sizeof(echoed) / sizeof(echoed[0]);
	for (size_t i = 0; i < n; i++) {
		int found = 0;
		const cJSON *r;
		cJSON_ArrayForEach(r, section("summary"))
			found |= !strcmp(str(r, "input"), echoed[i].input) &&
				 !strcmp(str(r, "canonical"), echoed[i].input);
		ck_assert_msg(found, "%s is not an echoed vector input", echoed[i].input);
		kp_quantity q = parse_ok(echoed[i].input);
		ck_assert_str_ne(fmt(&q), echoed[i].input);
	}
}
END_TEST

/*
 * Independent oracle for Value()/MilliValue() from a plain decimal string:
 * the value in units of 10^-shift, rounded away from zero; -1 when it does not
 * fit int64.
 */
static int oracle_scaled(const char *exact, int shift, int64_t *out)
{
	int neg = *exact == '-';
	exact += neg;
	const char *dot = strchr(exact, '.');
	const char *frac = dot ? dot + 1 : "";
	i128 v = 0;
	const i128 big = (i128)1 << 100;
	for (const char *p = exact; *p && p != dot; p++) {
		v = v * 10 + (*p - '0');
		if (v > big)
			return -1;
	}
	size_t nfrac = strlen(frac);
	for (int i = 0; i < shift; i++)
		v = v * 10 + ((size_t)i < nfrac ? frac[i] - '0' : 0);
	for (size_t i = (size_t)shift; i < nfrac; i++) {
		if (frac[i] != '0') {
			v += 1;
			break;
		}
	}
	if (v > (i128)INT64_MAX + neg)
		return -1;
	*out = (int64_t)(neg ? -v : v);
	return 0;
}

/* Assert kp_quantity_scaled_value(q, scale) against upstream's recorded value or the oracle. */
static void check_scaled(const kp_quantity *q, int32_t scale, const cJSON *upstream, const char *exact,
			 const char *what)
{
	int64_t got = 12345, want;
	int rc = kp_quantity_scaled_value(q, scale, &got);
	if (cJSON_IsString(upstream)) {
		want = strtoll(upstream->valuestring, NULL, 10);
		ck_assert_msg(rc == KP_OK && got == want, "%s: scaled(%d) = %d/%lld, upstream %lld", what,
			      scale, rc, (long long)got, (long long)want);
	} else if (oracle_scaled(exact, -scale, &want) == 0) {
		ck_assert_msg(rc == KP_OK && got == want, "%s: scaled(%d) = %d/%lld, exact %s", what, scale,
			      rc, (long long)got, exact);
	} else {
		ck_assert_msg(rc == KP_ERANGE && got == 12345, "%s: scaled(%d) should be KP_ERANGE", what,
			      scale);
	}
}

/* ---- vector sections -------------------------------------------------- */

/* summary: input -> canonical string, format, MilliValue, Value (every parse table). */
START_TEST(summary_rows)
{
	const cJSON *r = row("summary", _i);
	const char *input = str(r, "input");
	kp_quantity q = parse_ok(input);
	const char *canonical = str(r, "canonical");
	if (cJSON_IsTrue(item(r, "canonical_asserted")))
		ck_assert_str_eq(fmt(&q), canonical);
	else
		ck_assert_str_eq(fmt(&q), expected_string(input, canonical));
	if (str(r, "format"))
		ck_assert_uint_eq(q.format, format_of(str(r, "format")));
	/* the exact decimal value, parsed on its own, is the same number */
	kp_quantity exact = parse_ok(str(r, "exact"));
	ck_assert_int_eq(kp_quantity_cmp(&q, &exact), 0);
	check_scaled(&q, -3, item(r, "milli_value"), str(r, "exact"), input);
	check_scaled(&q, 0, item(r, "value"), str(r, "exact"), input);
	/* the canonical string parses back to the same value */
	kp_quantity back = parse_ok(fmt(&q));
	ck_assert_int_eq(kp_quantity_cmp(&q, &back), 0);
}
END_TEST

START_TEST(parse_invalid_rows)
{
	const char *input = cJSON_GetArrayItem(section("parse_invalid"), _i)->valuestring;
	kp_quantity q = KP_QUANTITY_ZERO, before;
	q.exponent = 77;
	before = q;
	kp_error err = KP_ERROR_INIT;
	ck_assert_int_eq(kp_quantity_parse(&q, input, &err), KP_EPARSE);
	ck_assert_int_eq(err.code, KP_EPARSE);
	ck_assert_mem_eq(&q, &before, sizeof(q));
	char quoted[64];
	snprintf(quoted, sizeof(quoted), "invalid quantity \"%s\": ", input);
	ck_assert_msg(strncmp(err.message, quoted, strlen(quoted)) == 0, "message: %s", err.message);
}
END_TEST

/*
 * Inputs whose negation upstream turns into a wrong Value/MilliValue: it
 * holds them as inf.Dec, and scaledValue() truncates and adds one for
 * negatives, or reads the low 64 bits of a big integer. We round away from
 * zero for both signs (the int64 path's rule), so -x gives -(value of x).
 */
enum { QUIRK_MILLI = 1, QUIRK_VALUE = 2 };
static const struct {
	const char *input;
	int which;
} dec_negation_quirk[] = {
	{ "100Ti", QUIRK_MILLI | QUIRK_VALUE },
	{ "3.001n", QUIRK_MILLI | QUIRK_VALUE },
	{ "1.1E-9", QUIRK_MILLI | QUIRK_VALUE },
	{ "0.0000000001", QUIRK_MILLI | QUIRK_VALUE },
	{ "0.0000000005", QUIRK_MILLI | QUIRK_VALUE },
	{ "0.00000000050", QUIRK_MILLI | QUIRK_VALUE },
	{ "0.5e-9", QUIRK_MILLI | QUIRK_VALUE },
	{ "0.9n", QUIRK_MILLI | QUIRK_VALUE },
	{ "0.00000012345", QUIRK_MILLI | QUIRK_VALUE },
	{ "0.00000012354", QUIRK_MILLI | QUIRK_VALUE },
	{ "100.035Ki", QUIRK_VALUE },
	{ "0.05Gi", QUIRK_VALUE },
	{ "0.025Ti", QUIRK_MILLI | QUIRK_VALUE },
	{ "0.000000000001Ki", QUIRK_MILLI | QUIRK_VALUE },
};

static int is_quirk(const char *input, int which)
{
	for (size_t i = 0; i < sizeof(dec_negation_quirk) / sizeof(dec_negation_quirk[0]); i++)
		if (!strcmp(dec_negation_quirk[i].input, input))
			return (dec_negation_quirk[i].which & which) != 0;
	return 0;
}

/* parse: the value and format upstream asserts, for x, -x and +x. */
START_TEST(parse_rows)
{
	const cJSON *r = row("parse", _i);
	const char *input = str(r, "input");
	const kp_quantity want = from_obj(item(r, "expect"));
	char signed_in[128];

	kp_quantity q = parse_ok(input);
	ck_assert_int_eq(kp_quantity_cmp(&q, &want), 0);
	ck_assert_uint_eq(q.format, want.format);

	snprintf(signed_in, sizeof(signed_in), "+%s", input);
	kp_quantity plus = parse_ok(signed_in);
	ck_assert_mem_eq(&plus, &q, sizeof(q));

	snprintf(signed_in, sizeof(signed_in), "-%s", input);
	kp_quantity minus = parse_ok(signed_in), neg_want = want;
	kp_quantity_neg(&neg_want);
	ck_assert_int_eq(kp_quantity_cmp(&minus, &neg_want), 0);
	ck_assert_uint_eq(minus.format, want.format);

	const cJSON *d = item(r, "derived"), *dn = item(r, "derived_negated_input");
	ck_assert_str_eq(fmt(&q), expected_string(input, str(d, "canonical")));
	ck_assert_str_eq(fmt(&minus), expected_string(signed_in, str(dn, "canonical")));

	static const char *const keys[] = { "milli_value", "value" };
	static const int32_t scales[] = { -3, 0 };
	for (int k = 0; k < 2; k++) {
		const cJSON *up = item(d, keys[k]), *upn = item(dn, keys[k]);
		check_scaled(&q, scales[k], up, str(d, "exact"), input);
		if (!cJSON_IsString(up) || !cJSON_IsString(upn))
			continue;
		int64_t pos = strtoll(up->valuestring, NULL, 10), got = 0;
		ck_assert_int_eq(kp_quantity_scaled_value(&minus, scales[k], &got), KP_OK);
		ck_assert_int_eq(got, -pos);
		/* upstream agrees exactly except on the documented inf.Dec rows */
		int agrees = strtoll(upn->valuestring, NULL, 10) == -pos;
		ck_assert_msg(agrees != is_quirk(input, k ? QUIRK_VALUE : QUIRK_MILLI),
			      "%s: upstream -x %s is %s", input, keys[k], upn->valuestring);
	}
}
END_TEST

START_TEST(parse_emit_rows)
{
	const cJSON *r = row("parse_emit", _i);
	const char *input = str(r, "input");
	kp_quantity q = parse_ok(input);
	ck_assert_str_eq(fmt(&q), str(r, "canonical"));
	kp_quantity_neg(&q);
	ck_assert_str_eq(fmt(&q), str(r, "negated_input_canonical"));
	char neg_in[64];
	snprintf(neg_in, sizeof(neg_in), "-%s", input);
	kp_quantity n = parse_ok(neg_in);
	ck_assert_str_eq(fmt(&n), str(r, "negated_input_canonical"));
	kp_quantity_neg(&q);
	const cJSON *d = item(r, "derived");
	check_scaled(&q, -3, item(d, "milli_value"), str(d, "exact"), input);
	check_scaled(&q, 0, item(d, "value"), str(d, "exact"), input);
}
END_TEST

START_TEST(parse_large_rows)
{
	const cJSON *r = row("parse_large", _i);
	kp_quantity q = parse_ok(str(r, "input"));
	ck_assert_str_eq(fmt(&q), str(r, "canonical"));
	kp_quantity exact = parse_ok(str(r, "exact"));
	ck_assert_int_eq(kp_quantity_cmp(&q, &exact), 0);
	/* AsInt64 succeeds only for exact int64 integers; Value() then agrees */
	if (cJSON_IsString(item(r, "as_int64"))) {
		int64_t v = 0;
		ck_assert_int_eq(kp_quantity_value(&q, &v), KP_OK);
		ck_assert_int_eq(v, int_str(r, "as_int64"));
	}
}
END_TEST

START_TEST(to_string_rows)
{
	const cJSON *r = row("to_string", _i);
	kp_quantity q = from_obj(item(r, "quantity"));
	ck_assert_str_eq(fmt(&q), str(r, "canonical"));
	if (str(r, "negated_canonical")) {
		kp_quantity_neg(&q);
		ck_assert_str_eq(fmt(&q), str(r, "negated_canonical"));
		kp_quantity_neg(&q);
	}
	if (str(r, "alternate_input")) {
		kp_quantity alt = parse_ok(str(r, "alternate_input"));
		ck_assert_int_eq(kp_quantity_cmp(&alt, &q), 0);
		/* same value; the text decides the format ("1024Mi" BinarySI, "0.5" DecimalSI) */
		alt.format = q.format;
		ck_assert_str_eq(fmt(&alt), str(r, "canonical"));
	}
}
END_TEST

static void check_arith(const char *name, int i, int subtract)
{
	const cJSON *r = row(name, i);
	kp_quantity acc = from_obj(item(r, "a"));
	const kp_quantity x = from_obj(item(r, "b"));
	const kp_quantity want = from_obj(item(r, "expect"));
	kp_error err = KP_ERROR_INIT;
	int rc = subtract ? kp_quantity_sub(&acc, &x, &err) : kp_quantity_add(&acc, &x, &err);
	ck_assert_int_eq(rc, KP_OK);
	ck_assert_int_eq(kp_quantity_cmp(&acc, &want), 0);
	ck_assert_uint_eq(acc.format, want.format);
	ck_assert_str_eq(fmt(&acc), str(r, "result_canonical"));
}

START_TEST(add_rows)
{
	check_arith("add", _i, 0);
}
END_TEST

START_TEST(sub_rows)
{
	check_arith("sub", _i, 1);
}
END_TEST

START_TEST(neg_rows)
{
	const cJSON *r = row("neg", _i);
	kp_quantity q = from_obj(item(r, "a"));
	const kp_quantity want = from_obj(item(r, "expect"));
	kp_quantity_neg(&q);
	ck_assert_int_eq(kp_quantity_cmp(&q, &want), 0);
	ck_assert_uint_eq(q.format, want.format);
}
END_TEST

START_TEST(neg_string_rows)
{
	const cJSON *r = row("neg_string", _i);
	kp_quantity q = from_obj(item(r, "a"));
	kp_quantity_neg(&q);
	ck_assert_str_eq(fmt(&q), str(r, "negated_canonical"));
}
END_TEST

START_TEST(cmp_int64_and_dec_rows)
{
	const cJSON *r = row("cmp_int64_and_dec", _i);
	const kp_quantity a = from_obj(item(r, "a")), b = from_obj(item(r, "b"));
	const int want = item(r, "cmp")->valueint;
	ck_assert_int_eq(kp_quantity_cmp(&a, &b), want);
	ck_assert_int_eq(kp_quantity_cmp(&b, &a), -want);
}
END_TEST

START_TEST(cmp_parsed_rows)
{
	const cJSON *r = row("cmp_parsed", _i);
	const kp_quantity x = parse_ok(str(r, "x")), y = parse_ok(str(r, "y"));
	ck_assert_int_eq(kp_quantity_cmp(&x, &y), item(r, "cmp")->valueint);
}
END_TEST

START_TEST(new_scaled_quantity_rows)
{
	const cJSON *r = row("new_scaled_quantity", _i);
	kp_quantity q;
	ck_assert_int_eq(kp_quantity_from_scaled(&q, item(r, "value")->valueint,
						 item(r, "scale")->valueint, KP_QUANTITY_DECIMAL_SI), KP_OK);
	ck_assert_str_eq(fmt(&q), str(r, "canonical"));
}
END_TEST

/* NewQuantity (exponent 0) and NewMilliQuantity (exponent -3). */
static void check_new(const cJSON *r, int32_t exponent, const char *value_key)
{
	const int64_t value = (int64_t)item(r, value_key)->valuedouble;
	const uint32_t format = format_of(str(r, "format"));
	kp_quantity q;
	if (format == FORMAT_UNKNOWN) {
		/* our constructor refuses unknown formats; a struct holding one prints as DecimalExponent */
		ck_assert_int_eq(kp_quantity_from_scaled(&q, value, exponent, format), KP_EINVAL);
		q = make(value, exponent, format);
	} else {
		ck_assert_int_eq(kp_quantity_from_scaled(&q, value, exponent, format), KP_OK);
	}
	ck_assert_str_eq(fmt(&q), str(r, "canonical"));
	int64_t got = 0;
	ck_assert_int_eq(kp_quantity_scaled_value(&q, exponent, &got), KP_OK);
	ck_assert_int_eq(got, value);
}

START_TEST(new_quantity_rows)
{
	check_new(row("new_quantity", _i), 0, "value");
}
END_TEST

START_TEST(new_milli_quantity_rows)
{
	const cJSON *r = row("new_milli_quantity", _i);
	check_new(r, -3, "milli_value");
	/* "exact" rows: the string parses back to the same milli-value */
	if (cJSON_IsTrue(item(r, "round_trips"))) {
		kp_quantity back = parse_ok(str(r, "canonical"));
		int64_t got = 0;
		ck_assert_int_eq(kp_quantity_milli_value(&back, &got), KP_OK);
		ck_assert_int_eq(got, (int64_t)item(r, "milli_value")->valuedouble);
	}
}
END_TEST

START_TEST(scaled_value_rows)
{
	const cJSON *r = row("scaled_value", _i);
	kp_quantity q;
	ck_assert_int_eq(kp_quantity_from_scaled(&q, item(r, "value")->valueint,
						 item(r, "from_scale")->valueint, KP_QUANTITY_DECIMAL_SI), KP_OK);
	int64_t got = 0;
	ck_assert_int_eq(kp_quantity_scaled_value(&q, item(r, "to_scale")->valueint, &got), KP_OK);
	ck_assert_int_eq(got, (int64_t)item(r, "expected")->valuedouble);
}
END_TEST

static double expect_double(const cJSON *v)
{
	if (cJSON_IsString(v))
		return !strcmp(v->valuestring, "-Inf") ? -INFINITY : INFINITY;
	return v->valuedouble;
}

/* AsApproximateFloat64 must agree bit for bit. */
START_TEST(as_approximate_float64_rows)
{
	const cJSON *r = row("as_approximate_float64", _i);
	const kp_quantity q = from_obj(item(r, "quantity"));
	double got = kp_quantity_as_float64(&q), want = expect_double(item(r, "expect"));
	ck_assert_msg(got == want, "%.17g != %.17g", got, want);
}
END_TEST

START_TEST(parsed_as_approximate_float64_rows)
{
	const cJSON *r = row("parsed_as_approximate_float64", _i);
	const kp_quantity q = parse_ok(str(r, "input"));
	double got = kp_quantity_as_float64(&q), want = expect_double(item(r, "expect"));
	ck_assert_msg(got == want, "%.17g != %.17g", got, want);
}
END_TEST

/* AsFloat64Slow is the correctly rounded value; ours is at most two ulps off it. */
START_TEST(as_float64_slow_rows)
{
	const cJSON *r = row("as_float64_slow", _i);
	const kp_quantity q = from_obj(item(r, "quantity"));
	double got = kp_quantity_as_float64(&q), want = expect_double(item(r, "expect"));
	if (isinf(want)) {
		ck_assert(got == want);
		return;
	}
	double lo = nextafter(nextafter(want, -INFINITY), -INFINITY);
	double hi = nextafter(nextafter(want, INFINITY), INFINITY);
	ck_assert_msg(got >= lo && got <= hi, "%.17g far from %.17g", got, want);
}
END_TEST

/*
 * UnmarshalJSON strips the quotes and surrounding blanks before
 * ParseQuantity; that belongs to the JSON layer, so here the test trims and
 * the parser must reject the untrimmed text.
 */
START_TEST(json_unmarshal_whitespace_rows)
{
	const cJSON *r = row("json_unmarshal_whitespace", _i);
	char text[64];
	snprintf(text, sizeof(text), "%s", str(r, "json"));
	char *s = text, *e = text + strlen(text);
	if (e - s >= 2 && s[0] == '"' && e[-1] == '"') {
		s++;
		*--e = '\0';
	}
	int padded = *s == ' ' || (e > s && e[-1] == ' ');
	kp_quantity q;
	if (padded)
		ck_assert_int_eq(kp_quantity_parse(&q, s, NULL), KP_EPARSE);
	while (*s == ' ')
		s++;
	while (e > s && e[-1] == ' ')
		*--e = '\0';
	q = parse_ok(s);
	ck_assert_str_eq(fmt(&q), str(r, "canonical"));
}
END_TEST

/* parseQuantityString's split: the sign and whether any digit is non-zero. */
START_TEST(parse_quantity_string_rows)
{
	const cJSON *r = row("parse_quantity_string", _i);
	const kp_quantity q = parse_ok(str(r, "input"));
	int nonzero = strspn(str(r, "num"), "0") != strlen(str(r, "num")) ||
		      strspn(str(r, "denom"), "0") != strlen(str(r, "denom"));
	int want = nonzero ? (cJSON_IsTrue(item(r, "positive")) ? 1 : -1) : 0;
	ck_assert_int_eq(kp_quantity_sign(&q), want);
}
END_TEST

/* ---- hand-written cases ----------------------------------------------- */

static const struct {
	const char *in, *out;
	uint32_t format;
} edge_parse[] = {
	/* upstream's scanner accepts an empty number: all of these are zero */
	{ ".", "0", KP_QUANTITY_DECIMAL_SI },
	{ "-", "0", KP_QUANTITY_DECIMAL_SI },
	{ "+", "0", KP_QUANTITY_DECIMAL_SI },
	{ "Ki", "0", KP_QUANTITY_BINARY_SI },
	{ "m", "0", KP_QUANTITY_DECIMAL_SI },
	{ "-0.0Gi", "0", KP_QUANTITY_BINARY_SI },
	{ ".5", "500m", KP_QUANTITY_DECIMAL_SI },
	{ "-.5e3", "-500", KP_QUANTITY_DECIMAL_EXPONENT },
	{ "1e+3", "1e3", KP_QUANTITY_DECIMAL_EXPONENT },
	{ "1e003", "1e3", KP_QUANTITY_DECIMAL_EXPONENT },
	{ "1.5Gi", "1536Mi", KP_QUANTITY_BINARY_SI },
	{ "1.1Ki", "1126400m", KP_QUANTITY_BINARY_SI },
	{ "0.5Ki", "512", KP_QUANTITY_BINARY_SI },
	{ "1023", "1023", KP_QUANTITY_DECIMAL_SI },
	{ "-7Ei", "-7Ei", KP_QUANTITY_BINARY_SI },
	{ "-8Ei", "-9223372036854775807", KP_QUANTITY_BINARY_SI },
	{ "99999999999999999999999999999999999999999999Ki", "9223372036854775807", KP_QUANTITY_BINARY_SI },
	{ "8589934591.99999999999999999999999999999999999999Gi", "9223372036854775807", KP_QUANTITY_BINARY_SI },
	{ "0.00000000000000000000000000000000000000001Ei", "1n", KP_QUANTITY_DECIMAL_SI },
	{ "0.000000000000000001Ei", "1152921505n", KP_QUANTITY_BINARY_SI },
	/* long digit strings: trailing zeros go to the exponent, sub-nano digits round up */
	{ "1000000000000000000000000000000000000000000000000", "1e48", KP_QUANTITY_DECIMAL_SI },
	{ "100000000000000000000000000000000000000000000000.0000000000", "100e45", KP_QUANTITY_DECIMAL_SI },
	{ "0.00000000000000000000000000000000000000000000000001", "1n", KP_QUANTITY_DECIMAL_SI },
	{ "-0.00000000000000000000000000000000000000000000000001", "-1n", KP_QUANTITY_DECIMAL_SI },
	{ "1e-2147483648", "1e-9", KP_QUANTITY_DECIMAL_EXPONENT },
	{ "0e2147483647", "0", KP_QUANTITY_DECIMAL_EXPONENT },
	{ "10e2147483647", "100e2147483646", KP_QUANTITY_DECIMAL_EXPONENT },
	{ "170141183460469231731687303715884105727", "170141183460469231731687303715884105727",
	  KP_QUANTITY_DECIMAL_SI },
	{ "-170141183460469231731687303715884105727", "-170141183460469231731687303715884105727",
	  KP_QUANTITY_DECIMAL_SI },
	{ "170141183460469231.731687303715884105727", "170141183460469231731687304n", KP_QUANTITY_DECIMAL_SI },
};

START_TEST(edge_parse_rows)
{
	kp_quantity q = parse_ok(edge_parse[_i].in);
	ck_assert_str_eq(fmt(&q), edge_parse[_i].out);
	ck_assert_uint_eq(q.format, edge_parse[_i].format);
}
END_TEST

START_TEST(parse_errors_name_the_input)
{
	kp_error err = KP_ERROR_INIT;
	kp_quantity q;
	ck_assert_int_eq(kp_quantity_parse(&q, "1.1.M", &err), KP_EPARSE);
	ck_assert_str_eq(err.message, "invalid quantity \"1.1.M\": quantities must match the regular "
				      "expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
	ck_assert_str_eq(err.field, "");
	ck_assert_int_eq(kp_quantity_parse(&q, "0.1mi", &err), KP_EPARSE);
	ck_assert_str_eq(err.message, "invalid quantity \"0.1mi\": unable to parse quantity's suffix");
	/* the Dec path needs a digit: upstream ErrNumeric */
	ck_assert_int_eq(kp_quantity_parse(&q, "e-10", &err), KP_EPARSE);
	ck_assert_str_eq(err.message, "invalid quantity \"e-10\": unable to parse numeric part of quantity");
	/* ParseInt overflow in the exponent is a suffix error, as upstream */
	ck_assert_int_eq(kp_quantity_parse(&q, "1e9223372036854775808", &err), KP_EPARSE);
	ck_assert_str_eq(err.message,
			 "invalid quantity \"1e9223372036854775808\": unable to parse quantity's suffix");
	/* int32 overflow, which upstream wraps, is a range error */
	ck_assert_int_eq(kp_quantity_parse(&q, "1e2147483648", &err), KP_ERANGE);
	ck_assert_str_eq(err.message, "quantity \"1e2147483648\" is out of range: exponent does not fit int32");
	ck_assert_int_eq(kp_quantity_parse(&q, "1e-2147483649", NULL), KP_ERANGE);
	/* unprintable bytes are escaped, long text is cut */
	ck_assert_int_eq(kp_quantity_parse(&q, "1\x01\"\\", &err), KP_EPARSE);
	ck_assert_str_eq(err.message, "invalid quantity \"1\\x01\\\"\\\\\": quantities must match the regular "
				      "expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
	ck_assert_int_eq(kp_quantity_parse(&q, "123456789012345678901234567890123456789012345678901234567890xyz",
					   &err), KP_EPARSE);
	ck_assert_str_eq(err.message, "invalid quantity \"123456789012345678901234567890123456789012345678\"...: "
				      "quantities must match the regular expression "
				      "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
}
END_TEST

START_TEST(parse_out_of_range)
{
	kp_error err = KP_ERROR_INIT;
	kp_quantity q = KP_QUANTITY_ZERO;
	/* 2^127 needs 129 signed bits */
	ck_assert_int_eq(kp_quantity_parse(&q, "170141183460469231731687303715884105728", &err), KP_ERANGE);
	ck_assert_str_eq(err.message, "quantity \"170141183460469231731687303715884105728\" is out of range: "
				      "needs more than a 128-bit mantissa");
	ck_assert_int_eq(err.code, KP_ERANGE);
	ck_assert_int_eq(kp_quantity_sign(&q), 0); /* untouched */
	/* 40 significant digits; 39 fit while below 2^127 */
	ck_assert_int_eq(kp_quantity_parse(&q, "1234567890123456789012345678901234567891", NULL), KP_ERANGE);
	ck_assert_int_eq(kp_quantity_parse(&q, "-123456789012345678901234567890123456789e-9", NULL), KP_OK);
	ck_assert_str_eq(fmt(&q), "-123456789012345678901234567890123456789e-9");
	/* fine at whole units, but nano precision with a rounding bit needs more than 128 bits */
	ck_assert_int_eq(kp_quantity_parse(&q, "1000000000000000000000000000000.0000000001", NULL), KP_ERANGE);
	kp_quantity ok = parse_ok("1000000000000000000000000000000.0000000000");
	ck_assert_str_eq(fmt(&ok), "1e30");
	ok = parse_ok("100000000000000000000000000000.0000000001");
	ck_assert_str_eq(fmt(&ok), "100000000000000000000000000000000000001n");
}
END_TEST

START_TEST(parse_length_bound)
{
	char text[KP_QUANTITY_TEXT_MAX + 2];
	/* exactly the limit: "0." then zeros then 1 */
	memset(text, '0', KP_QUANTITY_TEXT_MAX);
	text[1] = '.';
	text[KP_QUANTITY_TEXT_MAX - 1] = '1';
	text[KP_QUANTITY_TEXT_MAX] = '\0';
	kp_quantity q = parse_ok(text);
	ck_assert_str_eq(fmt(&q), "1n");
	/* one byte more is refused without reading further */
	memset(text, '1', KP_QUANTITY_TEXT_MAX + 1);
	text[KP_QUANTITY_TEXT_MAX + 1] = '\0';
	kp_error err = KP_ERROR_INIT;
	ck_assert_int_eq(kp_quantity_parse(&q, text, &err), KP_EPARSE);
	ck_assert(strstr(err.message, ": longer than 256 bytes") != NULL);
}
END_TEST

START_TEST(null_arguments)
{
	kp_error err = KP_ERROR_INIT;
	kp_quantity q = KP_QUANTITY_ZERO, x = KP_QUANTITY_ZERO;
	char buf[KP_QUANTITY_STRING_MAX];
	int64_t v = 0;
	ck_assert_int_eq(kp_quantity_parse(NULL, "1", &err), KP_EINVAL);
	ck_assert_str_eq(err.message, "quantity parse: out is NULL");
	ck_assert_int_eq(kp_quantity_parse(&q, NULL, &err), KP_EINVAL);
	ck_assert_str_eq(err.message, "quantity parse: text is NULL");
	ck_assert_int_eq(kp_quantity_format(NULL, buf, sizeof(buf)), KP_EINVAL);
	ck_assert_int_eq(kp_quantity_format(&q, NULL, 10), KP_EINVAL);
	ck_assert_int_eq(kp_quantity_add(NULL, &x, &err), KP_EINVAL);
	ck_assert_str_eq(err.message, "quantity add: acc is NULL");
	ck_assert_int_eq(kp_quantity_sub(&q, NULL, &err), KP_EINVAL);
	ck_assert_str_eq(err.message, "quantity sub: x is NULL");
	ck_assert_int_eq(kp_quantity_value(NULL, &v), KP_EINVAL);
	ck_assert_int_eq(kp_quantity_milli_value(&q, NULL), KP_EINVAL);
	ck_assert_int_eq(kp_quantity_scaled_value(NULL, 0, &v), KP_EINVAL);
	ck_assert_int_eq(kp_quantity_from_scaled(NULL, 1, 0, KP_QUANTITY_DECIMAL_SI), KP_EINVAL);
	ck_assert_int_eq(kp_quantity_from_scaled(&q, 1, 0, 3), KP_EINVAL);
	/* queries treat NULL as zero */
	kp_quantity one = parse_ok("1");
	ck_assert_int_eq(kp_quantity_cmp(NULL, &one), -1);
	ck_assert_int_eq(kp_quantity_cmp(&one, NULL), 1);
	ck_assert_int_eq(kp_quantity_cmp(NULL, NULL), 0);
	ck_assert_int_eq(kp_quantity_sign(NULL), 0);
	ck_assert(kp_quantity_as_float64(NULL) == 0.0);
	kp_quantity_neg(NULL);
}
END_TEST

START_TEST(format_buffer_sizes)
{
	kp_quantity q = parse_ok("-1536Mi");
	char buf[8];
	memset(buf, 'x', sizeof(buf));
	ck_assert_int_eq(kp_quantity_format(&q, buf, 7), KP_ERANGE);
	ck_assert_str_eq(buf, "");
	ck_assert_int_eq(kp_quantity_format(&q, buf, 0), KP_ERANGE);
	ck_assert_int_eq(kp_quantity_format(&q, buf, 8), KP_OK);
	ck_assert_str_eq(buf, "-1536Mi");
	/* the longest strings fit KP_QUANTITY_STRING_MAX */
	char big[KP_QUANTITY_STRING_MAX];
	kp_quantity m = make(-I128_MAX, INT32_MIN, KP_QUANTITY_DECIMAL_EXPONENT);
	ck_assert_int_eq(kp_quantity_format(&m, big, sizeof(big)), KP_OK);
	ck_assert_str_eq(big, "-1701411834604692317316873037158841057270e-2147483649");
	m = make(I128_MAX, INT32_MAX, KP_QUANTITY_DECIMAL_SI);
	ck_assert_int_eq(kp_quantity_format(&m, big, sizeof(big)), KP_OK);
	ck_assert_str_eq(big, "1701411834604692317316873037158841057270e2147483646");
}
END_TEST

/* Values upstream prints without a suffix (wrongly) come out exact. */
START_TEST(format_beyond_suffixes)
{
	kp_quantity q;
	ck_assert_int_eq(kp_quantity_from_scaled(&q, 1, 21, KP_QUANTITY_DECIMAL_SI), KP_OK);
	ck_assert_str_eq(fmt(&q), "1e21");
	ck_assert_int_eq(kp_quantity_from_scaled(&q, -15, -12, KP_QUANTITY_DECIMAL_SI), KP_OK);
	ck_assert_str_eq(fmt(&q), "-15e-12");
	ck_assert_int_eq(kp_quantity_from_scaled(&q, 1, 30, KP_QUANTITY_BINARY_SI), KP_OK);
	ck_assert_str_eq(fmt(&q), "931322574615478515625Gi");
	q = make((i128)1 << 70, 0, KP_QUANTITY_BINARY_SI);
	ck_assert_str_eq(fmt(&q), "1024Ei");
	q = make(-((i128)3 << 100), 0, KP_QUANTITY_BINARY_SI);
	ck_assert_str_eq(fmt(&q), "-3298534883328Ei");
	/* BinarySI with a fraction, or below 1024, is DecimalSI */
	ck_assert_int_eq(kp_quantity_from_scaled(&q, 10241, -1, KP_QUANTITY_BINARY_SI), KP_OK);
	ck_assert_str_eq(fmt(&q), "1024100m");
	ck_assert_int_eq(kp_quantity_from_scaled(&q, -1023, 0, KP_QUANTITY_BINARY_SI), KP_OK);
	ck_assert_str_eq(fmt(&q), "-1023");
	ck_assert_int_eq(kp_quantity_from_scaled(&q, -1024, 0, KP_QUANTITY_BINARY_SI), KP_OK);
	ck_assert_str_eq(fmt(&q), "-1Ki");
	/* a BinarySI integer beyond 128 bits falls back to decimal notation */
	ck_assert_int_eq(kp_quantity_from_scaled(&q, 2, 40, KP_QUANTITY_BINARY_SI), KP_OK);
	ck_assert_str_eq(fmt(&q), "20e39");
	q = make(5, 0, FORMAT_UNKNOWN);
	ck_assert_str_eq(fmt(&q), "5");
	q = make(5000, -1, FORMAT_UNKNOWN);
	ck_assert_str_eq(fmt(&q), "500");
}
END_TEST

/* Values in ascending order; entries in the same group are equal. */
static const struct {
	const char *text;
	int group;
} ordered[] = {
	{ "-170141183460469231731687303715884105727", 0 },
	{ "-1e30", 1 }, { "-1000000000000000000000000000000", 1 },
	{ "-8Ei", 2 }, { "-9223372036854775807", 2 },
	{ "-1.5", 3 }, { "-1500m", 3 }, { "-1500000000n", 3 },
	{ "-1", 4 },
	{ "-1n", 5 }, { "-0.0000000001", 5 },
	{ "0", 6 }, { "0m", 6 }, { "-0Ki", 6 }, { "0e99", 6 },
	{ "1n", 7 }, { "0.9n", 7 },
	{ "999999n", 8 },
	{ "1m", 9 }, { "1000u", 9 }, { "0.001", 9 },
	{ "1", 10 }, { "1000m", 10 }, { "1e0", 10 }, { "0.001k", 10 },
	{ "1023", 11 },
	{ "1Ki", 12 }, { "1024", 12 }, { "1.024k", 12 }, { "1024000000000n", 12 },
	{ "1.5Gi", 13 }, { "1536Mi", 13 },
	{ "2Gi", 14 },
	{ "9223372036854775807", 15 }, { "9Ei", 15 },
	{ "9223372036854775808", 16 },
	{ "1e30", 17 }, { "1000000000000000000000000000000", 17 },
	{ "1e2147483647", 18 },
};

START_TEST(cmp_is_a_total_order)
{
	const size_t n = sizeof(ordered) / sizeof(ordered[0]);
	kp_quantity q[sizeof(ordered) / sizeof(ordered[0])];
	for (size_t i = 0; i < n; i++)
		q[i] = parse_ok(ordered[i].text);
	for (size_t i = 0; i < n; i++) {
		for (size_t j = 0; j < n; j++) {
			int want = (ordered[i].group > ordered[j].group) - (ordered[i].group < ordered[j].group);
			ck_assert_msg(kp_quantity_cmp(&q[i], &q[j]) == want, "cmp(%s, %s) != %d", ordered[i].text,
				      ordered[j].text, want);
		}
		int sign = (ordered[i].group > 6) - (ordered[i].group < 6);
		ck_assert_int_eq(kp_quantity_sign(&q[i]), sign);
	}
}
END_TEST

START_TEST(add_sub_exact_and_bounded)
{
	kp_error err = KP_ERROR_INIT;
	/* format: the receiver's, or the operand's when the receiver is zero */
	kp_quantity acc = KP_QUANTITY_ZERO, x = parse_ok("1Gi");
	ck_assert_int_eq(kp_quantity_add(&acc, &x, &err), KP_OK);
	ck_assert_uint_eq(acc.format, KP_QUANTITY_BINARY_SI);
	ck_assert_str_eq(fmt(&acc), "1Gi");
	kp_quantity m = parse_ok("512M");
	ck_assert_int_eq(kp_quantity_add(&acc, &m, &err), KP_OK);
	ck_assert_str_eq(fmt(&acc), "1548576Ki");
	acc = (kp_quantity)KP_QUANTITY_ZERO;
	ck_assert_int_eq(kp_quantity_sub(&acc, &x, &err), KP_OK);
	ck_assert_uint_eq(acc.format, KP_QUANTITY_BINARY_SI);
	ck_assert_str_eq(fmt(&acc), "-1Gi");
	/* an addend of zero changes nothing */
	kp_quantity z = parse_ok("0");
	kp_quantity before = acc;
	ck_assert_int_eq(kp_quantity_add(&acc, &z, &err), KP_OK);
	ck_assert_mem_eq(&acc, &before, sizeof(acc));
	/* aliasing */
	acc = parse_ok("250m");
	ck_assert_int_eq(kp_quantity_add(&acc, &acc, &err), KP_OK);
	ck_assert_str_eq(fmt(&acc), "500m");
	ck_assert_int_eq(kp_quantity_sub(&acc, &acc, &err), KP_OK);
	ck_assert_int_eq(kp_quantity_sign(&acc), 0);

	/* exponents far apart: exact */
	acc = parse_ok("1e50");
	x = parse_ok("1e49");
	ck_assert_int_eq(kp_quantity_add(&acc, &x, &err), KP_OK);
	ck_assert_str_eq(fmt(&acc), "110e48");
	x = parse_ok("-11e49");
	ck_assert_int_eq(kp_quantity_add(&acc, &x, &err), KP_OK);
	ck_assert_int_eq(kp_quantity_sign(&acc), 0);
	/* near 2^127: fits once trailing zeros move to the exponent */
	acc = parse_ok("170141183460469231731687303715884105720");
	x = parse_ok("10");
	ck_assert_int_eq(kp_quantity_add(&acc, &x, &err), KP_OK);
	ck_assert_str_eq(fmt(&acc), "170141183460469231731687303715884105730");
	acc = parse_ok("9e37");
	x = parse_ok("1.7e38");
	ck_assert_int_eq(kp_quantity_add(&acc, &x, &err), KP_OK);
	ck_assert_str_eq(fmt(&acc), "260e36");
	/* opposite signs whose aligned operand exceeds 128 bits but whose sum does not */
	acc = parse_ok("3e38");
	x = parse_ok("-170141183460469231731687303715884105727");
	ck_assert_int_eq(kp_quantity_add(&acc, &x, &err), KP_OK);
	ck_assert_str_eq(fmt(&acc), "129858816539530768268312696284115894273");

	/* does not fit: error, accumulator untouched */
	acc = parse_ok("170141183460469231731687303715884105727");
	x = parse_ok("1");
	before = acc;
	ck_assert_int_eq(kp_quantity_add(&acc, &x, &err), KP_ERANGE);
	ck_assert_str_eq(err.message, "quantity add: result needs more than a 128-bit mantissa");
	ck_assert_mem_eq(&acc, &before, sizeof(acc));
	acc = parse_ok("-170141183460469231731687303715884105727");
	ck_assert_int_eq(kp_quantity_sub(&acc, &x, &err), KP_ERANGE);
	ck_assert_str_eq(err.message, "quantity sub: result needs more than a 128-bit mantissa");
	acc = parse_ok("1e100");
	x = parse_ok("1n");
	ck_assert_int_eq(kp_quantity_add(&acc, &x, &err), KP_ERANGE);
	/* a receiver of zero taking an invalid -2^127 operand */
	acc = (kp_quantity)KP_QUANTITY_ZERO;
	x = make(-I128_MAX - 1, 0, KP_QUANTITY_DECIMAL_SI);
	ck_assert_int_eq(kp_quantity_add(&acc, &x, NULL), KP_ERANGE);
	ck_assert_int_eq(kp_quantity_sign(&acc), 0);
}
END_TEST

START_TEST(scaled_value_bounds)
{
	int64_t v = 7;
	kp_quantity q = parse_ok("9223372036854775807");
	ck_assert_int_eq(kp_quantity_value(&q, &v), KP_OK);
	ck_assert_int_eq(v, INT64_MAX);
	ck_assert_int_eq(kp_quantity_milli_value(&q, &v), KP_ERANGE);
	ck_assert_int_eq(v, INT64_MAX);
	q = parse_ok("-9223372036854775808");
	ck_assert_int_eq(kp_quantity_value(&q, &v), KP_OK);
	ck_assert_int_eq(v, INT64_MIN);
	q = parse_ok("9223372036854775808");
	ck_assert_int_eq(kp_quantity_value(&q, &v), KP_ERANGE);
	q = parse_ok("9223372036854775.807");
	ck_assert_int_eq(kp_quantity_milli_value(&q, &v), KP_OK);
	ck_assert_int_eq(v, INT64_MAX);
	q = parse_ok("9223372036854775.8071");
	ck_assert_int_eq(kp_quantity_milli_value(&q, &v), KP_ERANGE);
	q = parse_ok("-9223372036854775.8071");
	ck_assert_int_eq(kp_quantity_milli_value(&q, &v), KP_OK);
	ck_assert_int_eq(v, INT64_MIN);
	q = parse_ok("-9223372036854775.8081");
	ck_assert_int_eq(kp_quantity_milli_value(&q, &v), KP_ERANGE);
	q = parse_ok("-9223372036854775.808");
	ck_assert_int_eq(kp_quantity_milli_value(&q, &v), KP_OK);
	ck_assert_int_eq(v, INT64_MIN);
	/* away from zero, both signs (int64Amount's rule) */
	q = parse_ok("1.2");
	ck_assert_int_eq(kp_quantity_value(&q, &v), KP_OK);
	ck_assert_int_eq(v, 2);
	q = parse_ok("-1.2");
	ck_assert_int_eq(kp_quantity_value(&q, &v), KP_OK);
	ck_assert_int_eq(v, -2);
	q = parse_ok("-500m");
	ck_assert_int_eq(kp_quantity_value(&q, &v), KP_OK);
	ck_assert_int_eq(v, -1);
	q = parse_ok("1n");
	ck_assert_int_eq(kp_quantity_scaled_value(&q, INT32_MAX, &v), KP_OK);
	ck_assert_int_eq(v, 1);
	ck_assert_int_eq(kp_quantity_scaled_value(&q, -9, &v), KP_OK);
	ck_assert_int_eq(v, 1);
	ck_assert_int_eq(kp_quantity_scaled_value(&q, -12, &v), KP_OK);
	ck_assert_int_eq(v, 1000);
	q = parse_ok("1e2147483647");
	ck_assert_int_eq(kp_quantity_scaled_value(&q, INT32_MIN, &v), KP_ERANGE);
	q = make(I128_MAX, -19, KP_QUANTITY_DECIMAL_SI);
	ck_assert_int_eq(kp_quantity_value(&q, &v), KP_ERANGE);
	ck_assert_int_eq(kp_quantity_scaled_value(&q, 1, &v), KP_OK);
	ck_assert_int_eq(v, 1701411834604692318LL);
}
END_TEST

START_TEST(neg_keeps_format_and_round_trips)
{
	kp_quantity q = parse_ok("1.5Gi");
	kp_quantity_neg(&q);
	ck_assert_uint_eq(q.format, KP_QUANTITY_BINARY_SI);
	ck_assert_str_eq(fmt(&q), "-1536Mi");
	kp_quantity_neg(&q);
	ck_assert_str_eq(fmt(&q), "1536Mi");
	kp_quantity z = KP_QUANTITY_ZERO;
	kp_quantity_neg(&z);
	ck_assert_str_eq(fmt(&z), "0");
	ck_assert_int_eq(kp_quantity_sign(&z), 0);
	/* the full 128-bit range negates exactly */
	q = parse_ok("-170141183460469231731687303715884105727");
	kp_quantity_neg(&q);
	ck_assert_str_eq(fmt(&q), "170141183460469231731687303715884105727");
}
END_TEST

START_TEST(float_mirrors_upstream_representation)
{
	/* parsed as upstream's inf.Dec (nano units) vs. its int64 path (digits as written) */
	kp_quantity q = parse_ok("1.1Ki");
	ck_assert(kp_quantity_as_float64(&q) == 1126.4);
	q = parse_ok("0.1");
	ck_assert(kp_quantity_as_float64(&q) == 1.0 * 0.1);
	q = parse_ok("-3e400");
	ck_assert(isinf(kp_quantity_as_float64(&q)) && kp_quantity_as_float64(&q) < 0);
	q = parse_ok("1e-400");
	ck_assert(kp_quantity_as_float64(&q) == 1e-9);
	q = make(1, -400, KP_QUANTITY_DECIMAL_SI);
	ck_assert(kp_quantity_as_float64(&q) == 0.0);
	q = make(I128_MAX, 0, KP_QUANTITY_DECIMAL_SI);
	ck_assert(kp_quantity_as_float64(&q) == 0x1p127);
}
END_TEST

/* The whole module must run without allocating. */
START_TEST(no_allocation)
{
	kp_test_alloc_install();
	kp_error err = KP_ERROR_INIT;
	kp_quantity q, x;
	char buf[KP_QUANTITY_STRING_MAX];
	int64_t v;
	kp_quantity_parse(&q, "1.5Gi", &err);
	kp_quantity_parse(&x, "123456789012345678901234567890.123456789012345", &err);
	kp_quantity_parse(&x, "bogus", &err);
	kp_quantity_parse(&x, "-0.000000000000000000001Ei", &err);
	kp_quantity_add(&q, &x, &err);
	kp_quantity_sub(&q, &x, &err);
	kp_quantity_cmp(&q, &x);
	kp_quantity_format(&q, buf, sizeof(buf));
	kp_quantity_value(&q, &v);
	kp_quantity_as_float64(&q);
	ck_assert_int_eq(kp_test_alloc_count(), 0);
	kp_test_alloc_uninstall();
}
END_TEST

/* ---- runner ----------------------------------------------------------- */

static int count(const char *name)
{
	return cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(vectors, name));
}

static void add_section(Suite *s, const char *name, const TTest *t)
{
	TCase *tc = tcase_create(name);
	tcase_add_loop_test(tc, t, 0, count(name));
	suite_add_tcase(s, tc);
}

int main(void)
{
	kp_test_require_data(VECTORS);
	vectors = kp_test_load_json(VECTORS);
	if (!vectors) {
		printf("Bail out! cannot parse %s\n", kp_test_data_path(VECTORS));
		return EXIT_FAILURE;
	}

	/*
	 * Sections without a counterpart in this API, on purpose:
	 * mul and round_up (Quantity.Mul/RoundUp: not part of kp_quantity),
	 * and as_float64_slow is only used as a bound on kp_quantity_as_float64.
	 */
	Suite *up = suite_create("quantity-upstream");
	add_section(up, "summary", summary_rows);
	add_section(up, "parse_invalid", parse_invalid_rows);
	add_section(up, "parse", parse_rows);
	add_section(up, "parse_emit", parse_emit_rows);
	add_section(up, "parse_large", parse_large_rows);
	add_section(up, "to_string", to_string_rows);
	add_section(up, "add", add_rows);
	add_section(up, "sub", sub_rows);
	add_section(up, "neg", neg_rows);
	add_section(up, "neg_string", neg_string_rows);
	add_section(up, "cmp_int64_and_dec", cmp_int64_and_dec_rows);
	add_section(up, "cmp_parsed", cmp_parsed_rows);
	add_section(up, "new_scaled_quantity", new_scaled_quantity_rows);
	add_section(up, "new_quantity", new_quantity_rows);
	add_section(up, "new_milli_quantity", new_milli_quantity_rows);
	add_section(up, "scaled_value", scaled_value_rows);
	add_section(up, "as_approximate_float64", as_approximate_float64_rows);
	add_section(up, "parsed_as_approximate_float64", parsed_as_approximate_float64_rows);
	add_section(up, "as_float64_slow", as_float64_slow_rows);
	add_section(up, "json_unmarshal_whitespace", json_unmarshal_whitespace_rows);
	add_section(up, "parse_quantity_string", parse_quantity_string_rows);
	TCase *echo = tcase_create("echo");
	tcase_add_test(echo, echo_table_is_needed);
	suite_add_tcase(up, echo);

	Suite *api = suite_create("quantity-api");
	TCase *tc = tcase_create("parse");
	tcase_add_loop_test(tc, edge_parse_rows, 0, (int)(sizeof(edge_parse) / sizeof(edge_parse[0])));
	tcase_add_test(tc, parse_errors_name_the_input);
	tcase_add_test(tc, parse_out_of_range);
	tcase_add_test(tc, parse_length_bound);
	suite_add_tcase(api, tc);
	tc = tcase_create("format");
	tcase_add_test(tc, format_buffer_sizes);
	tcase_add_test(tc, format_beyond_suffixes);
	suite_add_tcase(api, tc);
	tc = tcase_create("arithmetic");
	tcase_add_test(tc, cmp_is_a_total_order);
	tcase_add_test(tc, add_sub_exact_and_bounded);
	tcase_add_test(tc, scaled_value_bounds);
	tcase_add_test(tc, neg_keeps_format_and_round_trips);
	tcase_add_test(tc, float_mirrors_upstream_representation);
	suite_add_tcase(api, tc);
	tc = tcase_create("contract");
	tcase_add_test(tc, null_arguments);
	tcase_add_test(tc, no_allocation);
	suite_add_tcase(api, tc);

	Suite *suites[] = { up, api };
	int rc = kp_test_run(suites, 2);
	cJSON_Delete(vectors);
	return rc;
}
