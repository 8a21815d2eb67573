/*
 * libkarpenter: the one UTF-8 decoder (kp_internal.h), shared by the
 * document writers, Go-style quoting and the RE2 matcher.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stddef.h>
#include <stdint.h>

#include "kp_internal.h"

size_t kp__utf8_char(const char *str, size_t len, uint32_t *cp)
{
	const unsigned char *s = (const unsigned char *)str;
	unsigned c = s[0];
	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	size_t need;
	uint32_t min, v;
	if ((c & 0xE0) == 0xC0) {
		need = 1;
		min = 0x80;
		v = c & 0x1F;
	} else if ((c & 0xF0) == 0xE0) {
		need = 2;
		min = 0x800;
		v = c & 0x0F;
	} else if ((c & 0xF8) == 0xF0) {
		need = 3;
		min = 0x10000;
		v = c & 0x07;
	} else {
		return 0;
	}
	if (len <= need)
		return 0;
	for (size_t k = 1; k <= need; k++) {
		if ((s[k] & 0xC0) != 0x80)
			return 0;
		v = (v << 6) | (s[k] & 0x3F);
	}
	if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF))
		return 0;
	*cp = v;
	return need + 1;
}
