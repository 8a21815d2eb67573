/*
 * metav1.Time through the public API: kp_time_parse_rfc3339 and
 * kp_time_format_rfc3339 (the decoder's own converter; its field-level
 * cases are in tests/codec).
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <karpenter/karpenter.h>

#include "kp_test.h"

static const struct {
	const char *in;
	int64_t ms;
	const char *out; /* as formatted back */
} ok[] = {
	{ "1970-01-01T00:00:00Z", 0, "1970-01-01T00:00:00Z" },
	{ "2024-01-02T15:04:05Z", INT64_C(1704207845000), "2024-01-02T15:04:05Z" },
	{ "2024-01-02T15:04:05.25+02:00", INT64_C(1704200645250), "2024-01-02T13:04:05.25Z" },
	{ "2024-02-29T23:59:59.999999999-00:30", INT64_C(1709252999999),
	  "2024-03-01T00:29:59.999Z" },
	{ "1969-12-31T23:59:59.5Z", -500, "1969-12-31T23:59:59.5Z" },
};

START_TEST(parse_and_format)
{
	int64_t ms = 42;
	char buf[KP_TIME_BUF_SIZE];
	kp_error err = KP_ERROR_INIT;
	ck_assert_int_eq(kp_time_parse_rfc3339(&ms, ok[_i].in, &err), KP_OK);
	ck_assert_int_eq(ms, ok[_i].ms);
	ck_assert_int_eq(kp_time_format_rfc3339(ms, buf, sizeof(buf)), KP_OK);
	ck_assert_str_eq(buf, ok[_i].out);
}
END_TEST

static const char *const bad[] = {
	"", "2024-01-02", "2024-01-02T15:04:05", "2023-02-29T00:00:00Z", "2024-13-01T00:00:00Z",
	"2024-01-02 15:04:05Z", "2024-01-02T15:04:05.Z", "2024-01-02T24:00:00Z",
	"2024-01-02T15:04:05Zjunk", "now",
};

START_TEST(parse_refuses)
{
	int64_t ms = 42;
	kp_error err = KP_ERROR_INIT;
	ck_assert_int_eq(kp_time_parse_rfc3339(&ms, bad[_i], &err), KP_EPARSE);
	ck_assert_int_eq(ms, 42);
	char want[200];
	snprintf(want, sizeof(want),
		 "invalid time \"%s\": not an RFC 3339 date-time such as 2024-01-02T15:04:05Z",
		 bad[_i]);
	ck_assert_str_eq(err.message, want);
}
END_TEST

START_TEST(edges)
{
	int64_t ms = 0;
	kp_error err = KP_ERROR_INIT;
	char small[20], buf[KP_TIME_BUF_SIZE];
	ck_assert_int_eq(kp_time_parse_rfc3339(NULL, "2024-01-02T15:04:05Z", &err), KP_EINVAL);
	ck_assert_int_eq(kp_time_parse_rfc3339(&ms, NULL, &err), KP_EINVAL);
	ck_assert_int_eq(kp_time_format_rfc3339(0, NULL, 10), KP_EINVAL);
	ck_assert_int_eq(kp_time_format_rfc3339(0, small, 0), KP_EINVAL);
	/* "2024-01-02T15:04:05Z" is 20 characters: 21 bytes needed */
	strcpy(small, "untouched");
	ck_assert_int_eq(kp_time_format_rfc3339(INT64_C(1704207845000), small, 20), KP_ERANGE);
	ck_assert_str_eq(small, "untouched");
	/* the extremes fit the documented size */
	ck_assert_int_eq(kp_time_format_rfc3339(INT64_MIN, buf, sizeof(buf)), KP_OK);
	ck_assert_int_eq(kp_time_format_rfc3339(INT64_MAX, buf, sizeof(buf)), KP_OK);
	/* a long text is cut in the message, never overflows it */
	char longtext[5000];
	memset(longtext, '9', sizeof(longtext) - 1);
	longtext[sizeof(longtext) - 1] = '\0';
	ck_assert_int_eq(kp_time_parse_rfc3339(&ms, longtext, &err), KP_EPARSE);
	ck_assert_ptr_nonnull(strstr(err.message, "...\": not an RFC 3339"));
}
END_TEST

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

int main(void)
{
	Suite *s = suite_create("timestamp");
	TCase *tc = tcase_create("rfc3339");
	tcase_add_loop_test(tc, parse_and_format, 0, N(ok));
	tcase_add_loop_test(tc, parse_refuses, 0, N(bad));
	tcase_add_test(tc, edges);
	suite_add_tcase(s, tc);
	return kp_test_run(&s, 1);
}
