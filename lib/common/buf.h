/*
 * libkarpenter private: the one growable string buffer, with printf. Text
 * is kept NUL-terminated; an allocation failure is sticky (failed) and
 * checked once, at kp__buf_take.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef KP_COMMON_BUF_H
#define KP_COMMON_BUF_H

#include <stddef.h>

#include "kp_internal.h"

/* Zero-initialize ({0}) before use. */
typedef struct kp__buf {
	char *data;
	size_t len;
	size_t cap;
	int failed; /* an allocation failed; data is then unusable */
} kp__buf;

void kp__buf_put(kp__buf *b, const char *s, size_t n);
void kp__buf_puts(kp__buf *b, const char *s);
void kp__buf_putc(kp__buf *b, char c);
void kp__buf_printf(kp__buf *b, const char *fmt, ...) KP_PRINTF(2, 3);
/* Take the NUL-terminated text (NULL if failed); the buffer is reset. */
char *kp__buf_take(kp__buf *b, size_t *len);
void kp__buf_dispose(kp__buf *b);

#endif
