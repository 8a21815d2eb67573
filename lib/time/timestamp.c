/*
 * metav1.Time: RFC 3339 timestamps <-> Unix milliseconds.
 *
 * The decoder reads every metav1.Time field through here, and the CLI reads
 * its --now clock the same way, so that a time a user types and a time in a
 * manifest mean the same instant. Days are converted with Howard Hinnant's
 * civil-calendar algorithms (proleptic Gregorian, any int64 year range the
 * millisecond count allows).
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdio.h>
#include <string.h>

#include <karpenter/timestamp.h>

#include "kp_internal.h"
#include "time/timestamp_private.h"

int64_t kp__days_from_civil(int64_t y, unsigned m, unsigned d)
{
	y -= m <= 2;
	const int64_t era = (y >= 0 ? y : y - 399) / 400;
	const unsigned yoe = (unsigned)(y - era * 400);
	const unsigned doy = (153 * (m + (m > 2 ? (unsigned)-3 : 9)) + 2) / 5 + d - 1;
	const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + (int64_t)doe - 719468;
}

void kp__civil_from_days(int64_t z, int64_t *y, unsigned *m, unsigned *d)
{
	z += 719468;
	const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
	const unsigned doe = (unsigned)(z - era * 146097);
	const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	const unsigned mp = (5 * doy + 2) / 153;
	*d = doy - (153 * mp + 2) / 5 + 1;
	*m = mp < 10 ? mp + 3 : mp - 9;
	*y = (int64_t)yoe + era * 400 + (*m <= 2);
}

static int digits(const char *s, int n, int *out)
{
	int v = 0;
	for (int i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return 0;
		v = v * 10 + (s[i] - '0');
	}
	*out = v;
	return 1;
}

int kp__time_parse_rfc3339(const char *s, int64_t *out_ms)
{
	int Y, M, D, h, mi, sec;
	size_t len = strlen(s);
	if (len < 20 || !digits(s, 4, &Y) || s[4] != '-' || !digits(s + 5, 2, &M) || s[7] != '-' ||
	    !digits(s + 8, 2, &D) || s[10] != 'T' || !digits(s + 11, 2, &h) || s[13] != ':' ||
	    !digits(s + 14, 2, &mi) || s[16] != ':' || !digits(s + 17, 2, &sec))
		return KP_EPARSE;
	static const int mdays[] = { 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	if (M < 1 || M > 12 || D < 1 || D > mdays[M - 1] || h > 23 || mi > 59 || sec > 59)
		return KP_EPARSE;
	int leap = (Y % 4 == 0 && Y % 100 != 0) || Y % 400 == 0;
	if (M == 2 && D == 29 && !leap)
		return KP_EPARSE;
	const char *p = s + 19;
	int64_t ms = 0;
	if (*p == '.') {
		p++;
		int nd = 0;
		while (*p >= '0' && *p <= '9') {
			if (nd < 3)
				ms = ms * 10 + (*p - '0');
			nd++;
			p++;
		}
		if (nd == 0)
			return KP_EPARSE;
		for (int i = nd; i < 3; i++)
			ms *= 10;
	}
	int64_t offset_s = 0;
	if (*p == 'Z') {
		p++;
	} else if (*p == '+' || *p == '-') {
		int oh, om;
		if (!digits(p + 1, 2, &oh) || p[3] != ':' || !digits(p + 4, 2, &om) || oh > 23 || om > 59)
			return KP_EPARSE;
		offset_s = (int64_t)(oh * 3600 + om * 60) * (*p == '-' ? -1 : 1);
		p += 6;
	} else {
		return KP_EPARSE;
	}
	if (*p != '\0')
		return KP_EPARSE;
	int64_t days = kp__days_from_civil(Y, (unsigned)M, (unsigned)D);
	int64_t secs = days * 86400 + h * 3600 + mi * 60 + sec - offset_s;
	*out_ms = secs * 1000 + ms;
	return KP_OK;
}

void kp__time_format_rfc3339(int64_t ms, char *buf, size_t size)
{
	int64_t secs = ms / 1000, frac = ms % 1000;
	if (frac < 0) {
		frac += 1000;
		secs--;
	}
	int64_t days = secs / 86400, rem = secs % 86400;
	if (rem < 0) {
		rem += 86400;
		days--;
	}
	int64_t y;
	unsigned m, d;
	kp__civil_from_days(days, &y, &m, &d);
	int hh = (int)(rem / 3600), mm = (int)(rem / 60 % 60), ss = (int)(rem % 60);
	if (frac == 0) {
		snprintf(buf, size, "%04lld-%02u-%02uT%02d:%02d:%02dZ", (long long)y, m, d, hh, mm, ss);
	} else {
		char f[4];
		snprintf(f, sizeof(f), "%03d", (int)frac);
		for (int i = 2; i > 0 && f[i] == '0'; i--)
			f[i] = '\0';
		snprintf(buf, size, "%04lld-%02u-%02uT%02d:%02d:%02d.%sZ", (long long)y, m, d, hh, mm,
			 ss, f);
	}
}


KP_EXPORT int kp_time_parse_rfc3339(int64_t *out_ms, const char *text, kp_error *err)
{
	int64_t ms = 0;
	if (!out_ms || !text)
		return kp__error(err, KP_EINVAL, NULL, "kp_time_parse_rfc3339: NULL argument");
	if (kp__time_parse_rfc3339(text, &ms) != KP_OK)
		return kp__error(err, KP_EPARSE, NULL,
				 "invalid time \"%.64s%s\": not an RFC 3339 date-time such as "
				 "2024-01-02T15:04:05Z",
				 text, strlen(text) > 64 ? "..." : "");
	*out_ms = ms;
	return KP_OK;
}

KP_EXPORT int kp_time_format_rfc3339(int64_t ms, char *buf, size_t size)
{
	char tmp[KP_TIME_BUF_SIZE];
	kp__time_format_rfc3339(ms, tmp, sizeof(tmp));
	if (!buf || size == 0)
		return KP_EINVAL;
	size_t n = strlen(tmp);
	if (n >= size)
		return KP_ERANGE; /* buf untouched (STYLE: outputs only on success) */
	memcpy(buf, tmp, n + 1);
	return KP_OK;
}
