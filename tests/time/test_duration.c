/*
 * Go durations: time.ParseDuration / Duration.String (Go's own time package
 * test tables) and Karpenter's NillableDuration (pkg/apis/v1/duration.go).
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdint.h>
#include <string.h>

#include <karpenter/karpenter.h>

#include "kp_test.h"

#define NS INT64_C(1)
#define US (1000 * NS)
#define MS (1000 * US)
#define SEC (1000 * MS)
#define MIN (60 * SEC)
#define HOUR (60 * MIN)

#define UNITS " (valid units are ns, us, \xc2\xb5s, ms, s, m, h)"

/* ------------------------------------------------------------ parse, valid */

static const struct {
	const char *in;
	int64_t want;
} parse_ok[] = {
	/* Go's parseDurationTests */
	{ "0", 0 },
	{ "5s", 5 * SEC },
	{ "30s", 30 * SEC },
	{ "1478s", 1478 * SEC },
	{ "-5s", -5 * SEC },
	{ "+5s", 5 * SEC },
	{ "-0", 0 },
	{ "+0", 0 },
	{ "5.0s", 5 * SEC },
	{ "5.6s", 5 * SEC + 600 * MS },
	{ "5.s", 5 * SEC },
	{ ".5s", 500 * MS },
	{ "1.0s", 1 * SEC },
	{ "1.00s", 1 * SEC },
	{ "1.004s", 1 * SEC + 4 * MS },
	{ "1.0040s", 1 * SEC + 4 * MS },
	{ "100.00100s", 100 * SEC + 1 * MS },
	{ "10ns", 10 * NS },
	{ "11us", 11 * US },
	{ "12\xc2\xb5s", 12 * US }, /* U+00B5 micro sign */
	{ "12\xce\xbcs", 12 * US }, /* U+03BC Greek mu */
	{ "13ms", 13 * MS },
	{ "14s", 14 * SEC },
	{ "15m", 15 * MIN },
	{ "16h", 16 * HOUR },
	{ "3h30m", 3 * HOUR + 30 * MIN },
	{ "10.5s4m", 4 * MIN + 10 * SEC + 500 * MS },
	{ "-2m3.4s", -(2 * MIN + 3 * SEC + 400 * MS) },
	{ "1h2m3s4ms5us6ns", 1 * HOUR + 2 * MIN + 3 * SEC + 4 * MS + 5 * US + 6 * NS },
	{ "39h9m14.425s", 39 * HOUR + 9 * MIN + 14 * SEC + 425 * MS },
	{ "52763797000ns", 52763797000 * NS },
	{ "0.3333333333333333333h", 20 * MIN },
	{ "9007199254740993ns", (INT64_C(1) << 53) + 1 },
	{ "9223372036854775807ns", INT64_MAX },
	{ "9223372036854775.807us", INT64_MAX },
	{ "9223372036s854ms775us807ns", INT64_MAX },
	{ "-9223372036854775808ns", INT64_MIN },
	{ "-9223372036854775.808us", INT64_MIN },
	{ "-9223372036s854ms775us808ns", INT64_MIN },
	{ "-2562047h47m16.854775808s", INT64_MIN },
	{ "0.100000000000000000000h", 6 * MIN },
	{ "0.830103483285477580700h", 49 * MIN + 48 * SEC + 372539827 * NS },
	/* Karpenter-style values */
	{ "720h", 720 * HOUR },
	{ "1h30m", HOUR + 30 * MIN },
	{ "1.5h", HOUR + 30 * MIN },
	{ "300ms", 300 * MS },
	{ "-1h", -HOUR },
	{ "720h0m0s", 720 * HOUR },
	{ "00010s", 10 * SEC },
	{ "1h1h", 2 * HOUR },
};

START_TEST(parse_valid)
{
	int64_t got = 12345;
	kp_error err = KP_ERROR_INIT;
	ck_assert_msg(kp_duration_parse_ns(&got, parse_ok[_i].in, &err) == KP_OK, "%s: %s",
		      parse_ok[_i].in, err.message);
	ck_assert_msg(got == parse_ok[_i].want, "%s: got %lld want %lld", parse_ok[_i].in,
		      (long long)got, (long long)parse_ok[_i].want);
	ck_assert_int_eq(err.code, 0); /* untouched on success */
}
END_TEST

/* ---------------------------------------------------------- parse, invalid */

static const struct {
	const char *in;
	int code;
	const char *message;
} parse_bad[] = {
	/* Go's invalid inputs */
	{ "", KP_EPARSE, "invalid duration \"\": empty string" },
	{ "3", KP_EPARSE, "invalid duration \"3\": missing unit after \"3\"" UNITS },
	{ "-", KP_EPARSE, "invalid duration \"-\": no number after the sign" },
	{ "+", KP_EPARSE, "invalid duration \"+\": no number after the sign" },
	{ "s", KP_EPARSE, "invalid duration \"s\": expected a number at \"s\"" },
	{ ".", KP_EPARSE, "invalid duration \".\": no digits in number \".\"" },
	{ "-.", KP_EPARSE, "invalid duration \"-.\": no digits in number \".\"" },
	{ ".s", KP_EPARSE, "invalid duration \".s\": no digits in number \".\"" },
	{ "+.s", KP_EPARSE, "invalid duration \"+.s\": no digits in number \".\"" },
	{ "1d", KP_EPARSE, "invalid duration \"1d\": unknown unit \"d\"" UNITS },
	{ "\x85\x85", KP_EPARSE,
	  "invalid duration \"\\x85\\x85\": expected a number at \"\\x85\\x85\"" },
	{ "\xff" "ff", KP_EPARSE, "invalid duration \"\\xffff\": expected a number at \"\\xffff\"" },
	{ "hello \xff" "ff world", KP_EPARSE,
	  "invalid duration \"hello \\xffff world\": expected a number at \"hello \\xffff world\"" },
	{ "\xef\xbf\xbd", KP_EPARSE,
	  "invalid duration \"\\xef\\xbf\\xbd\": expected a number at \"\\xef\\xbf\\xbd\"" },
	{ "9223372036854775810ns", KP_ERANGE,
	  "invalid duration \"9223372036854775810ns\": out of range (durations are int64 "
	  "nanoseconds, about +/-292 years)" },
	{ "9223372036854775808ns", KP_ERANGE,
	  "invalid duration \"9223372036854775808ns\": out of range (durations are int64 "
	  "nanoseconds, about +/-292 years)" },
	{ "-9223372036854775809ns", KP_ERANGE,
	  "invalid duration \"-9223372036854775809ns\": out of range (durations are int64 "
	  "nanoseconds, about +/-292 years)" },
	{ "9223372036854775.808us", KP_ERANGE,
	  "invalid duration \"9223372036854775.808us\": out of range (durations are int64 "
	  "nanoseconds, about +/-292 years)" },
	{ "2562048h", KP_ERANGE,
	  "invalid duration \"2562048h\": out of range (durations are int64 nanoseconds, "
	  "about +/-292 years)" },
	{ "5000000h5000000h", KP_ERANGE,
	  "invalid duration \"5000000h5000000h\": out of range (durations are int64 "
	  "nanoseconds, about +/-292 years)" },
	/* more shapes */
	{ "1x", KP_EPARSE, "invalid duration \"1x\": unknown unit \"x\"" UNITS },
	{ "1H", KP_EPARSE, "invalid duration \"1H\": unknown unit \"H\"" UNITS },
	{ "1h 30m", KP_EPARSE, "invalid duration \"1h 30m\": unknown unit \"h \"" UNITS },
	{ " 1h", KP_EPARSE, "invalid duration \" 1h\": expected a number at \" 1h\"" },
	{ "1h-5m", KP_EPARSE, "invalid duration \"1h-5m\": unknown unit \"h-\"" UNITS },
	{ "1h30", KP_EPARSE, "invalid duration \"1h30\": missing unit after \"30\"" UNITS },
	{ "1.5.5h", KP_EPARSE, "invalid duration \"1.5.5h\": missing unit after \"1.5\"" UNITS },
	{ "00", KP_EPARSE, "invalid duration \"00\": missing unit after \"00\"" UNITS },
	{ "--1h", KP_EPARSE, "invalid duration \"--1h\": expected a number at \"-1h\"" },
	{ "Never", KP_EPARSE, "invalid duration \"Never\": expected a number at \"Never\"" },
	{ "1\"h", KP_EPARSE, "invalid duration \"1\\\"h\": unknown unit \"\\\"h\"" UNITS },
};

START_TEST(parse_invalid)
{
	int64_t got = 12345;
	kp_error err = KP_ERROR_INIT;
	ck_assert_int_eq(kp_duration_parse_ns(&got, parse_bad[_i].in, &err), parse_bad[_i].code);
	ck_assert_int_eq(err.code, parse_bad[_i].code);
	ck_assert_str_eq(err.message, parse_bad[_i].message);
	ck_assert_str_eq(err.field, "");
	ck_assert(got == 12345); /* untouched on failure */
	/* err is optional */
	ck_assert_int_eq(kp_duration_parse_ns(&got, parse_bad[_i].in, NULL), parse_bad[_i].code);
}
END_TEST

START_TEST(parse_long_input_is_cut_in_message)
{
	char in[200];
	memset(in, '7', sizeof(in) - 2);
	in[sizeof(in) - 2] = 'd';
	in[sizeof(in) - 1] = '\0';
	int64_t got;
	kp_error err = KP_ERROR_INIT;
	ck_assert_int_eq(kp_duration_parse_ns(&got, in, &err), KP_EPARSE);
	ck_assert_str_eq(err.message,
			 "invalid duration \"777777777777777777777777777777777777777777777777\"...: "
			 "unknown unit \"d\"" UNITS);
}
END_TEST

START_TEST(parse_null_arguments)
{
	int64_t got;
	kp_error err = KP_ERROR_INIT;
	ck_assert_int_eq(kp_duration_parse_ns(NULL, "1h", &err), KP_EINVAL);
	ck_assert_str_eq(err.message, "kp_duration_parse_ns: out_ns is NULL");
	ck_assert_int_eq(kp_duration_parse_ns(&got, NULL, &err), KP_EINVAL);
	ck_assert_str_eq(err.message, "kp_duration_parse_ns: text is NULL");
}
END_TEST

/* ------------------------------------------------------------------ format */

static const struct {
	int64_t in;
	const char *want;
} format_tab[] = {
	/* Go's durationTests */
	{ 0, "0s" },
	{ 1 * NS, "1ns" },
	{ 1100 * NS, "1.1\xc2\xb5s" },
	{ 2200 * US, "2.2ms" },
	{ 3300 * MS, "3.3s" },
	{ 4 * MIN + 5 * SEC, "4m5s" },
	{ 4 * MIN + 5001 * MS, "4m5.001s" },
	{ 5 * HOUR + 6 * MIN + 7001 * MS, "5h6m7.001s" },
	{ 8 * MIN + 1 * NS, "8m0.000000001s" },
	{ INT64_MAX, "2562047h47m16.854775807s" },
	{ INT64_MIN, "-2562047h47m16.854775808s" },
	/* Karpenter-style values */
	{ 720 * HOUR, "720h0m0s" },
	{ HOUR + 30 * MIN, "1h30m0s" },
	{ 1500 * MS, "1.5s" },
	{ 300 * MS, "300ms" },
	{ -HOUR, "-1h0m0s" },
	{ 15 * MIN, "15m0s" },
	{ 999 * NS, "999ns" },
	{ 1 * US, "1\xc2\xb5s" },
	{ 999999999 * NS, "999.999999ms" },
	{ -1 * NS, "-1ns" },
	{ 60 * SEC + 500 * MS, "1m0.5s" },
	{ 15 * MIN + 50 * NS, "15m0.00000005s" },
};

START_TEST(format_values)
{
	char buf[KP_DURATION_STRING_MAX];
	ck_assert_int_eq(kp_duration_format_ns(format_tab[_i].in, buf, sizeof(buf)), KP_OK);
	ck_assert_str_eq(buf, format_tab[_i].want);
	/* and it parses back to the same value */
	int64_t back;
	ck_assert_int_eq(kp_duration_parse_ns(&back, buf, NULL), KP_OK);
	ck_assert(back == format_tab[_i].in);
	/* an exactly sized buffer is enough, one byte less is not */
	size_t n = strlen(format_tab[_i].want);
	char small[KP_DURATION_STRING_MAX];
	ck_assert_int_eq(kp_duration_format_ns(format_tab[_i].in, small, n + 1), KP_OK);
	ck_assert_str_eq(small, format_tab[_i].want);
	memset(small, 'x', sizeof(small));
	ck_assert_int_eq(kp_duration_format_ns(format_tab[_i].in, small, n), KP_ERANGE);
	ck_assert_str_eq(small, "");
}
END_TEST

START_TEST(format_edge_arguments)
{
	ck_assert_int_eq(kp_duration_format_ns(HOUR, NULL, 10), KP_EINVAL);
	char c = 'x';
	ck_assert_int_eq(kp_duration_format_ns(HOUR, &c, 0), KP_ERANGE);
	ck_assert_int_eq(c, 'x'); /* size 0: nothing written */
	ck_assert_int_eq((int)strlen("-2562047h47m16.854775808s") + 1 <= KP_DURATION_STRING_MAX, 1);
}
END_TEST

/* Parse-format round trip for every parse_ok row: format(parse(x)) parses to the same. */
START_TEST(round_trip)
{
	int64_t v, back;
	char buf[KP_DURATION_STRING_MAX];
	ck_assert_int_eq(kp_duration_parse_ns(&v, parse_ok[_i].in, NULL), KP_OK);
	ck_assert_int_eq(kp_duration_format_ns(v, buf, sizeof(buf)), KP_OK);
	ck_assert_int_eq(kp_duration_parse_ns(&back, buf, NULL), KP_OK);
	ck_assert(back == v);
}
END_TEST

/* --------------------------------------------------------------- nillable */

static const struct {
	const char *in;
	int code;
	int64_t ns;
	int32_t never;
	const char *marshal; /* upstream MarshalJSON without Raw, unquoted */
} nillable_tab[] = {
	{ "Never", KP_OK, 0, 1, "Never" },
	{ "720h", KP_OK, 720 * HOUR, 0, "720h0m0s" },
	{ "0s", KP_OK, 0, 0, "0s" },
	{ "0", KP_OK, 0, 0, "0s" },
	{ "30s", KP_OK, 30 * SEC, 0, "30s" },
	{ "-1h", KP_OK, -HOUR, 0, "-1h0m0s" },
	{ "never", KP_EPARSE, 0, 0, NULL },
	{ "NEVER", KP_EPARSE, 0, 0, NULL },
	{ " Never", KP_EPARSE, 0, 0, NULL },
	{ "Never ", KP_EPARSE, 0, 0, NULL },
	{ "", KP_EPARSE, 0, 0, NULL },
	{ "1d", KP_EPARSE, 0, 0, NULL },
	{ "9223372036854775808ns", KP_ERANGE, 0, 0, NULL },
};

START_TEST(nillable)
{
	int64_t ns = 777;
	int32_t never = 7;
	kp_error err = KP_ERROR_INIT;
	int rc = kp_duration_parse_nillable_ns(&ns, &never, nillable_tab[_i].in, &err);
	ck_assert_int_eq(rc, nillable_tab[_i].code);
	if (rc != KP_OK) {
		ck_assert(ns == 777 && never == 7);
		/* same detail as the plain parser */
		kp_error err2 = KP_ERROR_INIT;
		int64_t x;
		ck_assert_int_eq(kp_duration_parse_ns(&x, nillable_tab[_i].in, &err2), rc);
		ck_assert_str_eq(err.message, err2.message);
		return;
	}
	ck_assert(ns == nillable_tab[_i].ns);
	ck_assert_int_eq(never, nillable_tab[_i].never);
	char buf[KP_DURATION_STRING_MAX];
	ck_assert_int_eq(kp_duration_format_nillable_ns(ns, never, buf, sizeof(buf)), KP_OK);
	ck_assert_str_eq(buf, nillable_tab[_i].marshal);
}
END_TEST

START_TEST(nillable_format_and_arguments)
{
	char buf[KP_DURATION_STRING_MAX];
	/* never wins over the value */
	ck_assert_int_eq(kp_duration_format_nillable_ns(5 * SEC, 1, buf, sizeof(buf)), KP_OK);
	ck_assert_str_eq(buf, KP_DURATION_NEVER);
	ck_assert_int_eq(kp_duration_format_nillable_ns(5 * SEC, 0, buf, sizeof(buf)), KP_OK);
	ck_assert_str_eq(buf, "5s");
	ck_assert_int_eq(kp_duration_format_nillable_ns(0, 1, buf, 5), KP_ERANGE);
	ck_assert_str_eq(buf, "");
	ck_assert_int_eq(kp_duration_format_nillable_ns(0, 1, buf, 6), KP_OK);
	ck_assert_str_eq(buf, "Never");
	ck_assert_int_eq(kp_duration_format_nillable_ns(0, 1, NULL, 6), KP_EINVAL);

	int64_t ns;
	int32_t never;
	kp_error err = KP_ERROR_INIT;
	ck_assert_int_eq(kp_duration_parse_nillable_ns(NULL, &never, "1h", &err), KP_EINVAL);
	ck_assert_str_eq(err.message, "kp_duration_parse_nillable_ns: out_ns is NULL");
	ck_assert_int_eq(kp_duration_parse_nillable_ns(&ns, NULL, "1h", &err), KP_EINVAL);
	ck_assert_str_eq(err.message, "kp_duration_parse_nillable_ns: out_never is NULL");
	ck_assert_int_eq(kp_duration_parse_nillable_ns(&ns, &never, NULL, &err), KP_EINVAL);
	ck_assert_str_eq(err.message, "kp_duration_parse_nillable_ns: text is NULL");
}
END_TEST

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

int main(void)
{
	Suite *s = suite_create("duration");
	TCase *tc = tcase_create("parse");
	tcase_add_loop_test(tc, parse_valid, 0, N(parse_ok));
	tcase_add_loop_test(tc, parse_invalid, 0, N(parse_bad));
	tcase_add_test(tc, parse_long_input_is_cut_in_message);
	tcase_add_test(tc, parse_null_arguments);
	suite_add_tcase(s, tc);

	tc = tcase_create("format");
	tcase_add_loop_test(tc, format_values, 0, N(format_tab));
	tcase_add_test(tc, format_edge_arguments);
	tcase_add_loop_test(tc, round_trip, 0, N(parse_ok));
	suite_add_tcase(s, tc);

	tc = tcase_create("nillable");
	tcase_add_loop_test(tc, nillable, 0, N(nillable_tab));
	tcase_add_test(tc, nillable_format_and_arguments);
	suite_add_tcase(s, tc);
	return kp_test_run(&s, 1);
}
