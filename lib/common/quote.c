/*
 * Quoting user text inside messages, the way Go prints it, so that messages
 * match upstream's byte for byte where upstream quotes.
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdint.h>
#include <string.h>

#include "kp_internal.h"

/*
 * Writes s as strconv.Quote does (exactly for ASCII; valid UTF-8 is copied
 * except C1 controls), truncating between escapes so that the output is
 * always a prefix of the full quotation. Returns the length written.
 */
size_t kp__go_quote(char *dst, size_t size, const char *s)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	size_t n = 0;

	if (size < 2) {
		if (size)
			dst[0] = '\0';
		return 0;
	}
	dst[n++] = '"';
	while (*p) {
		char esc[8];
		size_t elen = 0, adv = 1;
		unsigned c = *p;
		uint32_t cp;
		const char *simple = NULL;

		switch (c) {
		case '"': simple = "\\\""; break;
		case '\\': simple = "\\\\"; break;
		case '\a': simple = "\\a"; break;
		case '\b': simple = "\\b"; break;
		case '\f': simple = "\\f"; break;
		case '\n': simple = "\\n"; break;
		case '\r': simple = "\\r"; break;
		case '\t': simple = "\\t"; break;
		case '\v': simple = "\\v"; break;
		default: break;
		}
		if (simple) {
			elen = strlen(simple);
			memcpy(esc, simple, elen);
		} else if (c < 0x20 || c == 0x7f) {
			memcpy(esc, "\\x", 2);
			esc[2] = hex[c >> 4];
			esc[3] = hex[c & 15];
			elen = 4;
		} else if (c < 0x80) {
			esc[0] = (char)c;
			elen = 1;
		} else if ((adv = kp__utf8_char((const char *)p, 4, &cp)) == 0) {
			adv = 1;
			memcpy(esc, "\\x", 2);
			esc[2] = hex[c >> 4];
			esc[3] = hex[c & 15];
			elen = 4;
		} else if (cp < 0xa0) {
			memcpy(esc, "\\u00", 4);
			esc[4] = hex[cp >> 4];
			esc[5] = hex[cp & 15];
			elen = 6;
		} else {
			memcpy(esc, p, adv);
			elen = adv;
		}
		if (n + elen + 2 > size) {
			dst[n] = '\0';
			return n;
		}
		memcpy(dst + n, esc, elen);
		n += elen;
		p += adv;
	}
	dst[n++] = '"';
	dst[n] = '\0';
	return n;
}

size_t kp__quote_excerpt(char *dst, size_t size, const char *s, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	size_t n = 0;
	if (size < KP_QUOTE_EXCERPT_MAX) {
		if (size)
			dst[0] = '\0';
		return 0;
	}
	dst[n++] = '"';
	for (size_t i = 0; i < len && i < KP_QUOTE_EXCERPT_INPUT; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c < 0x20 || c >= 0x80) {
			dst[n++] = '\\';
			dst[n++] = 'x';
			dst[n++] = hex[c >> 4];
			dst[n++] = hex[c & 0xf];
		} else {
			if (c == '"' || c == '\\')
				dst[n++] = '\\';
			dst[n++] = (char)c;
		}
	}
	dst[n++] = '"';
	if (len > KP_QUOTE_EXCERPT_INPUT) {
		memcpy(dst + n, "...", 3);
		n += 3;
	}
	dst[n] = '\0';
	return n;
}
