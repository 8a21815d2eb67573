/*
 * Allocation through the caller-installed hooks (kp_set_allocator).
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/sized.h"
#include "kp_internal.h"

static void *default_malloc(void *ctx, size_t size)
{
	(void)ctx;
	return malloc(size);
}

static void *default_realloc(void *ctx, void *ptr, size_t size)
{
	(void)ctx;
	return realloc(ptr, size);
}

static void default_free(void *ctx, void *ptr)
{
	(void)ctx;
	free(ptr);
}

static kp_allocator kp_alloc = { sizeof(kp_allocator), 0, NULL, default_malloc, default_realloc,
				 default_free };

KP_EXPORT int kp_set_allocator(const kp_allocator *allocator, kp_error *err)
{
	if (allocator == NULL) {
		kp_allocator def = { sizeof(kp_allocator), 0, NULL, default_malloc,
				     default_realloc, default_free };
		kp_alloc = def;
		return KP_OK;
	}
	kp_allocator a;
	int rc = KP__READ_SIZED(&a, allocator, kp_allocator, err);
	if (rc != KP_OK)
		return rc;
	if (!a.malloc_fn || !a.realloc_fn || !a.free_fn)
		return kp__error(err, KP_EINVAL, a.malloc_fn ? (a.realloc_fn ? "free_fn" : "realloc_fn") : "malloc_fn",
				 "every allocator hook must be set");
	kp_alloc = a;
	return KP_OK;
}

void *kp__malloc(size_t size)
{
	return kp_alloc.malloc_fn(kp_alloc.ctx, size ? size : 1);
}

void *kp__calloc(size_t n, size_t size)
{
	if (size && n > SIZE_MAX / size)
		return NULL;
	void *p = kp__malloc(n * size);
	if (p)
		memset(p, 0, n * size);
	return p;
}

void *kp__realloc(void *ptr, size_t size)
{
	return kp_alloc.realloc_fn(kp_alloc.ctx, ptr, size ? size : 1);
}

void kp__free(void *ptr)
{
	if (ptr)
		kp_alloc.free_fn(kp_alloc.ctx, ptr);
}

char *kp__strndup(const char *s, size_t n)
{
	char *d = kp__malloc(n + 1);
	if (!d)
		return NULL;
	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

char *kp__strdup(const char *s)
{
	return s ? kp__strndup(s, strlen(s)) : NULL;
}

int kp__grow(void **items, size_t *cap, size_t need, size_t elem_size)
{
	if (need <= *cap)
		return KP_OK;
	size_t ncap = *cap ? *cap : 4;
	while (ncap < need) {
		if (ncap > SIZE_MAX / 2)
			return KP_ENOMEM;
		ncap *= 2;
	}
	if (elem_size && ncap > SIZE_MAX / elem_size)
		return KP_ENOMEM;
	void *p = kp__realloc(*items, ncap * elem_size);
	if (!p)
		return KP_ENOMEM;
	*items = p;
	*cap = ncap;
	return KP_OK;
}

/* The hooks for provider libraries, which see only the public API
 * (libgit2's git_odb_backend_data_alloc, sqlite3_malloc). */
KP_EXPORT void *kp_malloc(size_t size)
{
	return kp__malloc(size);
}

KP_EXPORT void *kp_calloc(size_t n, size_t size)
{
	return kp__calloc(n, size);
}

KP_EXPORT void *kp_realloc(void *ptr, size_t size)
{
	return kp__realloc(ptr, size);
}

KP_EXPORT void kp_free(void *ptr)
{
	kp__free(ptr);
}

char *kp__strdup_vprintf(const char *fmt, va_list ap)
{
	va_list ap2;
	va_copy(ap2, ap);
	int n = vsnprintf(NULL, 0, fmt, ap2);
	va_end(ap2);
	char *s = n < 0 ? NULL : kp__malloc((size_t)n + 1);
	if (s)
		vsnprintf(s, (size_t)n + 1, fmt, ap);
	return s;
}

char *kp__strdup_printf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = kp__strdup_vprintf(fmt, ap);
	va_end(ap);
	return s;
}
