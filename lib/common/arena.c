/*
 * libkarpenter private: the one arena (arena.h): 64 KiB chunks, a block
 * larger than a quarter chunk on its own.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "arena.h"

/* ------------------------------------------------------------------ */
/* Arena                                                               */

struct kp__arena_chunk {
	kp__arena_chunk *next;
	size_t cap;
	max_align_t data[];
};

#define ARENA_CHUNK (64u * 1024u)

void *kp__arena_alloc(kp__arena *a, size_t size)
{
	size = (size + 15u) & ~(size_t)15u;
	if (!size)
		size = 16;
	if (!a->head || a->used + size > a->cap) {
		size_t cap = size > ARENA_CHUNK / 4 ? size : ARENA_CHUNK;
		kp__arena_chunk *c = kp__malloc(sizeof(*c) + cap);
		if (!c) {
			a->failed = 1;
			return NULL;
		}
		c->cap = cap;
		if (size > ARENA_CHUNK / 4 && a->head) {
			/* a big block: keep the current chunk for small ones */
			c->next = a->head->next;
			a->head->next = c;
			memset(c->data, 0, size);
			return c->data;
		}
		c->next = a->head;
		a->head = c;
		a->used = 0;
		a->cap = cap;
	}
	char *p = (char *)a->head->data + a->used;
	a->used += size;
	memset(p, 0, size);
	return p;
}

char *kp__arena_strdup(kp__arena *a, const char *s)
{
	if (!s)
		return NULL;
	size_t n = strlen(s) + 1;
	char *p = kp__arena_alloc(a, n);
	if (p)
		memcpy(p, s, n);
	return p;
}

char *kp__arena_printf(kp__arena *a, const char *fmt, ...)
{
	char small[256]; /* a first try only: longer texts are formatted again at full length */
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(small, sizeof(small), fmt, ap);
	va_end(ap);
	if (n < 0)
		return NULL;
	char *p = kp__arena_alloc(a, (size_t)n + 1);
	if (!p)
		return NULL;
	if ((size_t)n < sizeof(small)) {
		memcpy(p, small, (size_t)n + 1);
	} else {
		va_start(ap, fmt);
		vsnprintf(p, (size_t)n + 1, fmt, ap);
		va_end(ap);
	}
	return p;
}

void kp__arena_free(kp__arena *a)
{
	kp__arena_chunk *c = a->head;
	while (c) {
		kp__arena_chunk *n = c->next;
		kp__free(c);
		c = n;
	}
	a->head = NULL;
	a->used = a->cap = 0;
}
