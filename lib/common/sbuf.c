/*
 * Fixed-buffer, snprintf-style string building for messages on hot paths:
 * never allocates, counts what would have been written.
 * SPDX-License-Identifier: Apache-2.0
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "kp_internal.h"

void kp__sbuf_putn(kp__sbuf *b, const char *s, size_t n)
{
	if (b->len + 1 < b->size) {
		size_t room = b->size - 1 - b->len;
		memcpy(b->buf + b->len, s, n < room ? n : room);
	}
	b->len += n;
}

void kp__sbuf_put(kp__sbuf *b, const char *s)
{
	kp__sbuf_putn(b, s, strlen(s));
}

void kp__sbuf_int(kp__sbuf *b, int64_t v)
{
	char tmp[24];
	int n = snprintf(tmp, sizeof(tmp), "%" PRId64, v);
	kp__sbuf_putn(b, tmp, (size_t)n);
}

size_t kp__sbuf_end(kp__sbuf *b)
{
	if (b->size)
		b->buf[b->len < b->size ? b->len : b->size - 1] = '\0';
	return b->len;
}
