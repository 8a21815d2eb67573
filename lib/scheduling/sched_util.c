/*
 * Scheduling simulation: small containers (arena, string table on the
 * shared map of common/map.h,
 * key buffer) and messages.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "sched_private.h"

/* ------------------------------------------------------------------ */
/* Arena                                                               */

struct sc_arena_chunk {
	sc_arena_chunk *next;
	size_t cap;
	max_align_t data[];
};

#define ARENA_CHUNK (64u * 1024u)

void *kp__arena_alloc(sc_arena *a, size_t size)
{
	size = (size + 15u) & ~(size_t)15u;
	if (!size)
		size = 16;
	if (!a->head || a->used + size > a->cap) {
		size_t cap = size > ARENA_CHUNK / 4 ? size : ARENA_CHUNK;
		sc_arena_chunk *c = kp__malloc(sizeof(*c) + cap);
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

char *kp__arena_strdup(sc_arena *a, const char *s)
{
	if (!s)
		return NULL;
	size_t n = strlen(s) + 1;
	char *p = kp__arena_alloc(a, n);
	if (p)
		memcpy(p, s, n);
	return p;
}

char *kp__arena_printf(sc_arena *a, const char *fmt, ...)
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

void kp__arena_free(sc_arena *a)
{
	sc_arena_chunk *c = a->head;
	while (c) {
		sc_arena_chunk *n = c->next;
		kp__free(c);
		c = n;
	}
	a->head = NULL;
	a->used = a->cap = 0;
}

/* ------------------------------------------------------------------ */
/* String table                                                        */

int kp__strtab_intern(sc_strtab *t, const char *s, uint32_t *id)
{
	if (!s)
		s = "";
	uint32_t v;
	if (kp__map_gets(&t->map, s, &v)) {
		*id = v;
		return KP_OK;
	}
	if (kp__grow((void **)&t->strs, &t->cap, t->n + 1, sizeof(*t->strs)) != KP_OK)
		return KP_ENOMEM;
	const char *stored = NULL;
	if (kp__map_put_key(&t->map, s, strlen(s), (uint32_t)t->n, &v, NULL, &stored) != KP_OK)
		return KP_ENOMEM;
	t->strs[t->n++] = stored;
	*id = v;
	return KP_OK;
}

int kp__strtab_find(const sc_strtab *t, const char *s, uint32_t *id)
{
	if (!s)
		s = "";
	return kp__map_get(&t->map, s, strlen(s), id);
}

void kp__strtab_free(sc_strtab *t)
{
	kp__map_free(&t->map);
	kp__free(t->strs);
	memset(t, 0, sizeof(*t));
}

/* ------------------------------------------------------------------ */
/* Key buffer                                                          */

void kp__buf_bytes(sc_buf *b, const void *p, size_t n)
{
	if (b->failed)
		return;
	if (b->len + n > b->cap) {
		size_t cap = b->cap ? b->cap : 256;
		while (cap < b->len + n)
			cap *= 2;
		char *d = kp__realloc(b->data, cap);
		if (!d) {
			b->failed = 1;
			return;
		}
		b->data = d;
		b->cap = cap;
	}
	if (n)
		memcpy(b->data + b->len, p, n);
	b->len += n;
}

void kp__buf_u32(sc_buf *b, uint32_t v)
{
	kp__buf_bytes(b, &v, sizeof(v));
}

void kp__buf_i64(sc_buf *b, int64_t v)
{
	kp__buf_bytes(b, &v, sizeof(v));
}

void kp__buf_str(sc_buf *b, const char *s)
{
	if (!s) {
		kp__buf_u32(b, UINT32_MAX);
		return;
	}
	size_t n = strlen(s);
	kp__buf_u32(b, (uint32_t)n);
	kp__buf_bytes(b, s, n);
}

void kp__buf_free(sc_buf *b)
{
	kp__free(b->data);
	memset(b, 0, sizeof(*b));
}

void kp__buf_cat(sc_buf *b, const char *s)
{
	kp__buf_bytes(b, s, strlen(s));
}

static void buf_vcatf(sc_buf *b, const char *fmt, va_list ap)
{
	va_list ap2;
	va_copy(ap2, ap);
	int n = vsnprintf(NULL, 0, fmt, ap2);
	va_end(ap2);
	if (n < 0) {
		b->failed = 1;
		return;
	}
	/* room for the text and vsnprintf's NUL, which is not counted */
	if (b->failed)
		return;
	size_t need = b->len + (size_t)n + 1;
	if (need > b->cap) {
		char *d = kp__realloc(b->data, need);
		if (!d) {
			b->failed = 1;
			return;
		}
		b->data = d;
		b->cap = need;
	}
	vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
	b->len += (size_t)n;
}

void kp__buf_catf(sc_buf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	buf_vcatf(b, fmt, ap);
	va_end(ap);
}

char *kp__buf_cstr(sc_buf *b)
{
	kp__buf_bytes(b, "", 1);
	if (b->failed) {
		kp__buf_free(b);
		return NULL;
	}
	char *s = b->data;
	memset(b, 0, sizeof(*b));
	return s;
}

/* ------------------------------------------------------------------ */
/* Reasons                                                             */

void kp__why(sc_why *w, uint32_t code, const char *field, const char *fmt, ...)
{
	if (!w)
		return;
	/* the arguments may point into the texts being replaced */
	char *old_field = w->field, *old_msg = w->msg;
	w->code = code;
	w->field = field && field[0] ? kp__strdup(field) : NULL;
	sc_buf b = { 0 };
	va_list ap;
	va_start(ap, fmt);
	buf_vcatf(&b, fmt, ap);
	va_end(ap);
	w->msg = kp__buf_cstr(&b);
	kp__free(old_field);
	kp__free(old_msg);
}

void kp__why_dispose(sc_why *w)
{
	if (!w)
		return;
	kp__free(w->field);
	kp__free(w->msg);
	memset(w, 0, sizeof(*w));
}

int kp__res_exponent(const char *name)
{
	if (!strcmp(name, KP_RESOURCE_MEMORY) || !strcmp(name, KP_RESOURCE_EPHEMERAL_STORAGE) ||
	    !strcmp(name, KP_RESOURCE_STORAGE) ||
	    !strncmp(name, KP_RESOURCE_HUGEPAGES_PREFIX, strlen(KP_RESOURCE_HUGEPAGES_PREFIX)))
		return 0;
	return -3;
}

int64_t kp__res_value(const char *name, const kp_quantity *q)
{
	int64_t v;
	if (kp_quantity_scaled_value(q, kp__res_exponent(name), &v) != KP_OK)
		return kp_quantity_sign(q) < 0 ? INT64_MIN : INT64_MAX;
	return v;
}

/* Requirement sets the snapshot owns (pool, node and pod-class sets), freed
 * with it. Here, beside the arena, so that the files that build the
 * snapshot (cluster, podclass, topology, volumes) only call downward. */
int kp__cluster_keep_reqs(struct kp_cluster *c, kp_requirements *r)
{
	if (!r)
		return KP_OK;
	if (kp__grow((void **)&c->to_free, &c->cap_to_free, c->n_to_free + 1, sizeof(void *)) !=
	    KP_OK) {
		kp_requirements_free(r);
		return KP_ENOMEM;
	}
	c->to_free[c->n_to_free++] = r;
	return KP_OK;
}
