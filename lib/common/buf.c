/*
 * libkarpenter private: the one growable string buffer (buf.h).
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "buf.h"


static int buf_reserve(kp__buf *b, size_t extra)
{
	if (b->failed)
		return 0;
	if (b->len + extra + 1 <= b->cap)
		return 1;
	size_t cap = b->cap;
	if (extra > SIZE_MAX / 2 - b->len ||
	    kp__grow((void **)&b->data, &cap, b->len + extra + 1, 1) != KP_OK) {
		b->failed = 1;
		return 0;
	}
	b->cap = cap;
	return 1;
}

void kp__buf_put(kp__buf *b, const char *s, size_t n)
{
	if (!buf_reserve(b, n))
		return;
	if (n)
		memcpy(b->data + b->len, s, n);
	b->len += n;
	b->data[b->len] = '\0';
}

void kp__buf_puts(kp__buf *b, const char *s)
{
	kp__buf_put(b, s, strlen(s));
}

void kp__buf_putc(kp__buf *b, char c)
{
	kp__buf_put(b, &c, 1);
}

void kp__buf_printf(kp__buf *b, const char *fmt, ...)
{
	char tmp[128];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	if (n < 0) {
		b->failed = 1;
		return;
	}
	if ((size_t)n < sizeof(tmp)) {
		kp__buf_put(b, tmp, (size_t)n);
		return;
	}
	if (!buf_reserve(b, (size_t)n))
		return;
	va_start(ap, fmt);
	vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

char *kp__buf_take(kp__buf *b, size_t *len)
{
	if (b->failed || !buf_reserve(b, 0)) {
		kp__buf_dispose(b);
		return NULL;
	}
	char *d = b->data;
	d[b->len] = '\0';
	if (len)
		*len = b->len;
	b->data = NULL;
	b->len = b->cap = 0;
	return d;
}

void kp__buf_dispose(kp__buf *b)
{
	kp__free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
	b->failed = 0;
}
