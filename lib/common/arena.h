/*
 * libkarpenter private: the one arena (arena.c). Allocations live until
 * the arena is freed, all at once: the scheduler's per-simulation state
 * and the lifecycle's per-object work use it instead of freeing each
 * piece.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef KP_COMMON_ARENA_H
#define KP_COMMON_ARENA_H

#include <stddef.h>

#include "kp_internal.h"

typedef struct kp__arena_chunk kp__arena_chunk;
/* Zero-initialize ({0}) before use. */
typedef struct kp__arena {
	kp__arena_chunk *head;
	size_t used, cap;
	int failed; /* an allocation failed: callers may check once at the end */
} kp__arena;

void *kp__arena_alloc(kp__arena *a, size_t size);     /* zeroed, 16-aligned; NULL when out of memory */
char *kp__arena_strdup(kp__arena *a, const char *s); /* NULL stays NULL */
/* printf into the arena at full length; NULL when out of memory. */
char *kp__arena_printf(kp__arena *a, const char *fmt, ...) KP_PRINTF(2, 3);
void kp__arena_free(kp__arena *a); /* everything at once; the arena is empty again */

#endif
