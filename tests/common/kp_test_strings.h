/*
 * Random strings for the writers' read-back properties (tests/codec/
 * test_codec.c for kp_encode, tests/tools/test_output.c for
 * kubectl-karpenter's writers), and the expected read-back of a string:
 * Go's encoding/json rule, each byte that does not start a well-formed
 * UTF-8 sequence becomes U+FFFD.
 *
 * Header-only (static functions) so that each test program takes it without
 * a build change; include it once per program.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef KP_TEST_STRINGS_H
#define KP_TEST_STRINGS_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* xorshift64*: deterministic, seeded by the test. */
typedef struct kp_ts_rng {
	uint64_t s;
} kp_ts_rng;

static uint32_t kp_ts_next(kp_ts_rng *r)
{
	r->s ^= r->s >> 12;
	r->s ^= r->s << 25;
	r->s ^= r->s >> 27;
	return (uint32_t)((r->s * 2685821657736338717ull) >> 32);
}

static size_t kp_ts_put_utf8(char *o, uint32_t cp)
{
	if (cp < 0x80) {
		o[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		o[0] = (char)(0xC0 | (cp >> 6));
		o[1] = (char)(0x80 | (cp & 0x3F));
		return 2;
	}
	if (cp < 0x10000) {
		o[0] = (char)(0xE0 | (cp >> 12));
		o[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
		o[2] = (char)(0x80 | (cp & 0x3F));
		return 3;
	}
	o[0] = (char)(0xF0 | (cp >> 18));
	o[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
	o[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
	o[3] = (char)(0x80 | (cp & 0x3F));
	return 4;
}

/* Strings a writer must quote, or must not, to read back the same. */
static const char *const kp_ts_tricky[] = {
	"", " ", "  ", "\t", "yes", "Yes", "NO", "on", "Off", "y", "N", "true", "False", "null",
	"Null", "~", "1e3", "1E3", "1e+3", "1.5", "1.", ".5", "+1", "-1", "0x1F", "0o17", "0b101",
	"017", "1_000", "1:20", "190:20:30", "2024-01-01", "2001-12-14t21:59:43.10-05:00",
	".inf", "-.Inf", ".NaN", "nan", "inf", "- a", "-", "--", "---", "--- x", "...", "... x",
	"? x", "?", ": ", ":", "a:", "a: b", "a:b", "#", "a #b", "a#b", " a", "a ", "a\tb", "<<",
	"=", "'a'", "\"a\"", "[a]", "{a: b}", "a,b", "*a", "&a", "!a", "!!str", "%a", "@a", "`a",
	"|", ">", "1100m", "8Gi", "720h", "12", "0", "-0", "a\nb", "a\r\nb", "\\", "\\n", "%",
	"\x7f", "\xc2\x85x", "\xe2\x80\xa8", "\xe2\x80\xa9", "\xef\xbb\xbf", "\xef\xbf\xbe",
	"\xef\xbf\xbf", "\xef\xbf\xbd", "\xc2\x80", "\xc2\x9f", "\xc2\xa0", "\xff", "\xc0\x80",
	"\xed\xa0\x80", "\xe2\x80", "\xf4\x90\x80\x80", "\x01", "\x1b[31m",
};

/* Code points chosen often: those YAML does not allow raw or reads as
 * breaks, and the edges of the ranges it allows. */
static const uint32_t kp_ts_points[] = {
	0x01, 0x08, 0x09, 0x0A, 0x0D, 0x1F, 0x20, 0x22, 0x23, 0x27, 0x2D, 0x3A, 0x5C, 0x7E,
	0x7F, 0x80, 0x85, 0x9F, 0xA0, 0xFF, 0x2028, 0x2029, 0xD7FF, 0xE000, 0xFEFF, 0xFFFD,
	0xFFFE, 0xFFFF, 0x10000, 0x1F600, 0x10FFFF,
};

/* A random NUL-terminated string (malloc'ed): random bytes, random valid
 * UTF-8, a tricky string, or a few of these joined; sometimes longer than a
 * YAML simple key may be. */
static char *kp_ts_random_string(kp_ts_rng *r)
{
	size_t cap = 4096, n = 0;
	char *s = malloc(cap + 8);
	if (!s)
		return NULL;
	int pieces = 1 + (int)(kp_ts_next(r) % 3);
	if (kp_ts_next(r) % 40 == 0)
		pieces = 60; /* long */
	for (int p = 0; p < pieces && n < cap - 64; p++) {
		uint32_t kind = kp_ts_next(r) % 4;
		size_t len = kp_ts_next(r) % 12;
		if (kind == 0) { /* random bytes, never NUL */
			for (size_t i = 0; i < len && n < cap - 64; i++)
				s[n++] = (char)(1 + kp_ts_next(r) % 255);
		} else if (kind == 1) { /* valid UTF-8 */
			for (size_t i = 0; i < len && n < cap - 64; i++) {
				uint32_t cp;
				uint32_t k = kp_ts_next(r) % 4;
				if (k == 0)
					cp = kp_ts_points[kp_ts_next(r) %
							  (sizeof(kp_ts_points) / sizeof(kp_ts_points[0]))];
				else if (k == 1)
					cp = 0x20 + kp_ts_next(r) % 0x5F;
				else if (k == 2)
					cp = 1 + kp_ts_next(r) % 0x2FF;
				else
					cp = 1 + kp_ts_next(r) % 0x10FFFF;
				if (cp >= 0xD800 && cp <= 0xDFFF)
					cp = 0xFFFD;
				n += kp_ts_put_utf8(s + n, cp);
			}
		} else { /* tricky */
			const char *t = kp_ts_tricky[kp_ts_next(r) %
						     (sizeof(kp_ts_tricky) / sizeof(kp_ts_tricky[0]))];
			size_t tl = strlen(t);
			if (tl < cap - 64 - n) {
				memcpy(s + n, t, tl);
				n += tl;
			}
		}
	}
	s[n] = '\0';
	return s;
}

/* What a string reads back as: each byte that does not start a well-formed
 * UTF-8 sequence (Unicode's Table 3-7) is U+FFFD. malloc'ed. */
static char *kp_ts_sanitize(const char *in)
{
	const unsigned char *s = (const unsigned char *)in;
	size_t len = strlen(in);
	char *o = malloc(3 * len + 1);
	size_t n = 0;
	if (!o)
		return NULL;
	for (size_t i = 0; i < len;) {
		unsigned c = s[i];
		size_t w = 0;
		if (c < 0x80)
			w = 1;
		else if (c >= 0xC2 && c <= 0xDF)
			w = (s[i + 1] & 0xC0) == 0x80 ? 2 : 0;
		else if (c >= 0xE0 && c <= 0xEF) {
			unsigned lo = c == 0xE0 ? 0xA0 : 0x80, hi = c == 0xED ? 0x9F : 0xBF;
			w = s[i + 1] >= lo && s[i + 1] <= hi && (s[i + 2] & 0xC0) == 0x80 ? 3 : 0;
		} else if (c >= 0xF0 && c <= 0xF4) {
			unsigned lo = c == 0xF0 ? 0x90 : 0x80, hi = c == 0xF4 ? 0x8F : 0xBF;
			w = s[i + 1] >= lo && s[i + 1] <= hi && (s[i + 2] & 0xC0) == 0x80 &&
					    (s[i + 3] & 0xC0) == 0x80
				    ? 4
				    : 0;
		}
		if (w) {
			memcpy(o + n, s + i, w);
			n += w;
			i += w;
		} else {
			memcpy(o + n, "\xef\xbf\xbd", 3);
			n += 3;
			i++;
		}
	}
	o[n] = '\0';
	return o;
}

#endif
