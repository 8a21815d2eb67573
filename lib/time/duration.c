/*
 * Go durations (time.ParseDuration / Duration.String) and Karpenter's
 * NillableDuration (pkg/apis/v1/duration.go).
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <string.h>

#include <karpenter/duration.h>

#include "kp_internal.h"

#define NS_PER_US UINT64_C(1000)
#define NS_PER_MS UINT64_C(1000000)
#define NS_PER_S UINT64_C(1000000000)
#define NS_PER_M (UINT64_C(60) * NS_PER_S)
#define NS_PER_H (UINT64_C(60) * NS_PER_M)
#define TWO_63 (UINT64_C(1) << 63)

#define UNIT_LIST "valid units are ns, us, \xc2\xb5s, ms, s, m, h"

/* "invalid duration <text>: <before>[<quoted part>]<after>" */
static int fail(kp_error *err, int code, const char *text, const char *before,
		const char *part, size_t part_len, const char *after)
{
	if (!err)
		return code;
	char qin[KP_QUOTE_EXCERPT_MAX], qpart[KP_QUOTE_EXCERPT_MAX] = "";
	kp__quote_excerpt(qin, sizeof(qin), text, strlen(text));
	if (part)
		kp__quote_excerpt(qpart, sizeof(qpart), part, part_len);
	return kp__error(err, code, NULL, "invalid duration %s: %s%s%s", qin, before, qpart,
			 after);
}

static uint64_t unit_ns(const char *u, size_t n)
{
	static const struct {
		const char *name;
		uint64_t ns;
	} units[] = {
		{ "ns", 1 },
		{ "us", NS_PER_US },
		{ "\xc2\xb5s", NS_PER_US }, /* U+00B5 micro sign */
		{ "\xce\xbcs", NS_PER_US }, /* U+03BC Greek small letter mu */
		{ "ms", NS_PER_MS },
		{ "s", NS_PER_S },
		{ "m", NS_PER_M },
		{ "h", NS_PER_H },
	};
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (strlen(units[i].name) == n && memcmp(units[i].name, u, n) == 0)
			return units[i].ns;
	return 0;
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

KP_EXPORT int kp_duration_parse_ns(int64_t *out_ns, const char *text, kp_error *err)
{
	if (!out_ns || !text)
		return kp__error(err, KP_EINVAL, NULL, "kp_duration_parse_ns: %s is NULL",
				 !out_ns ? "out_ns" : "text");

	const char *s = text;
	int neg = 0;
	if (*s == '-' || *s == '+') {
		neg = *s == '-';
		s++;
	}
	if (strcmp(s, "0") == 0) {
		*out_ns = 0;
		return KP_OK;
	}
	if (*s == '\0') {
		if (s == text)
			return fail(err, KP_EPARSE, text, "empty string", NULL, 0, "");
		return fail(err, KP_EPARSE, text, "no number after the sign", NULL, 0, "");
	}

	uint64_t total = 0;
	while (*s) {
		const char *term = s;
		if (!(*s == '.' || is_digit(*s)))
			return fail(err, KP_EPARSE, text, "expected a number at ", s, strlen(s), "");

		/* integer part: [0-9]*, overflow past 2^63 is an error */
		uint64_t v = 0;
		int overflow = 0;
		const char *p = s;
		for (; is_digit(*p); p++) {
			if (v > TWO_63 / 10)
				overflow = 1;
			else {
				v = v * 10 + (uint64_t)(*p - '0');
				if (v > TWO_63)
					overflow = 1;
			}
		}
		int pre = p != s;

		/* fraction: digits beyond what fits in 63 bits add no precision */
		uint64_t f = 0;
		double scale = 1;
		int post = 0;
		if (*p == '.') {
			p++;
			const char *fs = p;
			int f_full = 0;
			for (; is_digit(*p); p++) {
				if (f_full)
					continue;
				if (f > (TWO_63 - 1) / 10) {
					f_full = 1;
					continue;
				}
				uint64_t y = f * 10 + (uint64_t)(*p - '0');
				if (y > TWO_63) {
					f_full = 1;
					continue;
				}
				f = y;
				scale *= 10;
			}
			post = p != fs;
		}
		if (!pre && !post)
			return fail(err, KP_EPARSE, text, "no digits in number ", term,
				    (size_t)(p - term), "");

		/* unit: everything up to the next '.' or digit */
		const char *u = p;
		while (*p && *p != '.' && !is_digit(*p))
			p++;
		if (p == u)
			return fail(err, KP_EPARSE, text, "missing unit after ", term,
				    (size_t)(p - term), " (" UNIT_LIST ")");
		uint64_t unit = unit_ns(u, (size_t)(p - u));
		if (!unit)
			return fail(err, KP_EPARSE, text, "unknown unit ", u, (size_t)(p - u),
				    " (" UNIT_LIST ")");
		if (overflow || v > TWO_63 / unit)
			goto range;
		v *= unit;
		if (f > 0) {
			/* as Go: a double is nanosecond accurate for fractions of hours */
			v += (uint64_t)((double)f * ((double)unit / scale));
			if (v > TWO_63)
				goto range;
		}
		total += v;
		if (total > TWO_63)
			goto range;
		s = p;
	}
	if (neg) {
		*out_ns = total == TWO_63 ? INT64_MIN : -(int64_t)total;
		return KP_OK;
	}
	if (total > TWO_63 - 1)
		goto range;
	*out_ns = (int64_t)total;
	return KP_OK;

range:
	return fail(err, KP_ERANGE, text, "out of range (durations are int64 nanoseconds, about +/-292 years)",
		    NULL, 0, "");
}

/* Write the fraction v / 10^prec backwards before *w, without trailing zeros. */
static uint64_t put_frac(char *buf, size_t *w, uint64_t v, int prec)
{
	int print = 0;
	for (int i = 0; i < prec; i++) {
		unsigned digit = (unsigned)(v % 10);
		print = print || digit != 0;
		if (print)
			buf[--*w] = (char)('0' + digit);
		v /= 10;
	}
	if (print)
		buf[--*w] = '.';
	return v;
}

static void put_int(char *buf, size_t *w, uint64_t v)
{
	do {
		buf[--*w] = (char)('0' + v % 10);
		v /= 10;
	} while (v > 0);
}

static int emit(const char *s, size_t n, char *buf, size_t size)
{
	if (!buf)
		return KP_EINVAL;
	if (n + 1 > size) {
		if (size > 0)
			buf[0] = '\0';
		return KP_ERANGE;
	}
	memcpy(buf, s, n);
	buf[n] = '\0';
	return KP_OK;
}

KP_EXPORT int kp_duration_format_ns(int64_t ns, char *buf, size_t size)
{
	char tmp[KP_DURATION_STRING_MAX];
	size_t w = sizeof(tmp);
	int neg = ns < 0;
	uint64_t u = neg ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;

	if (u < NS_PER_S) {
		/* below one second: ns, µs or ms with a fraction, e.g. "1.2ms" */
		int prec;
		tmp[--w] = 's';
		if (u == 0) {
			tmp[--w] = '0';
			return emit(tmp + w, sizeof(tmp) - w, buf, size);
		} else if (u < NS_PER_US) {
			prec = 0;
			tmp[--w] = 'n';
		} else if (u < NS_PER_MS) {
			prec = 3;
			tmp[--w] = '\xb5'; /* U+00B5 in UTF-8 */
			tmp[--w] = '\xc2';
		} else {
			prec = 6;
			tmp[--w] = 'm';
		}
		u = put_frac(tmp, &w, u, prec);
		put_int(tmp, &w, u);
	} else {
		tmp[--w] = 's';
		u = put_frac(tmp, &w, u, 9);
		put_int(tmp, &w, u % 60); /* seconds */
		u /= 60;
		if (u > 0) {
			tmp[--w] = 'm';
			put_int(tmp, &w, u % 60);
			u /= 60;
			if (u > 0) { /* stop at hours: days vary in length */
				tmp[--w] = 'h';
				put_int(tmp, &w, u);
			}
		}
	}
	if (neg)
		tmp[--w] = '-';
	return emit(tmp + w, sizeof(tmp) - w, buf, size);
}

KP_EXPORT int kp_duration_parse_nillable_ns(int64_t *out_ns, int32_t *out_never, const char *text,
					    kp_error *err)
{
	if (!out_ns || !out_never || !text)
		return kp__error(err, KP_EINVAL, NULL, "kp_duration_parse_nillable_ns: %s is NULL",
				 !out_ns ? "out_ns" : !out_never ? "out_never" : "text");
	if (strcmp(text, KP_DURATION_NEVER) == 0) {
		*out_ns = 0;
		*out_never = 1;
		return KP_OK;
	}
	int64_t ns;
	int rc = kp_duration_parse_ns(&ns, text, err);
	if (rc != KP_OK)
		return rc;
	*out_ns = ns;
	*out_never = 0;
	return KP_OK;
}

KP_EXPORT int kp_duration_format_nillable_ns(int64_t ns, int32_t never, char *buf, size_t size)
{
	if (never)
		return emit(KP_DURATION_NEVER, strlen(KP_DURATION_NEVER), buf, size);
	return kp_duration_format_ns(ns, buf, size);
}
