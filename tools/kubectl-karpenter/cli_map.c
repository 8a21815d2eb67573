/*
 * kubectl-karpenter: the library's hash map (lib/common/map.c, compiled
 * into the command code as the tests compile it) allocating through the
 * library's allocator (kp_malloc and friends), for the commands' tables
 * (provider IDs, objects by name) that a scan would make quadratic.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stddef.h>

#include <karpenter/karpenter.h>

#include "kp_internal.h"

void *kp__malloc(size_t size)
{
	return kp_malloc(size ? size : 1);
}

void *kp__calloc(size_t n, size_t size)
{
	return kp_calloc(n ? n : 1, size ? size : 1);
}

void *kp__realloc(void *ptr, size_t size)
{
	return kp_realloc(ptr, size ? size : 1);
}

void kp__free(void *ptr)
{
	kp_free(ptr);
}
