/*
 * libkarpenter private: the growable array of pointers (ptrs.h). Only
 * kp__realloc and kp__free, so that kubectl-karpenter can compile it.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdint.h>

#include "kp_internal.h"
#include "ptrs.h"

int kp__ptrs_push(kp__ptrs *v, void *p)
{
	if (v->count == v->cap) {
		size_t cap = v->cap ? v->cap * 2 : 16;
		if (cap > SIZE_MAX / sizeof(*v->items))
			return KP_ENOMEM;
		void **items = kp__realloc(v->items, cap * sizeof(*items));
		if (!items)
			return KP_ENOMEM;
		v->items = items;
		v->cap = cap;
	}
	v->items[v->count++] = p;
	return KP_OK;
}

void kp__ptrs_dispose(kp__ptrs *v)
{
	kp__free(v->items);
	v->items = NULL;
	v->count = v->cap = 0;
}
