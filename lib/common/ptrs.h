/*
 * libkarpenter private: the one growable array of pointers (ptrs.c).
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef KP_COMMON_PTRS_H
#define KP_COMMON_PTRS_H

#include <stddef.h>

/* Zero-initialize ({0}) before use. The pointers are borrowed. */
typedef struct kp__ptrs {
	void **items;
	size_t count, cap;
} kp__ptrs;

/* Append @p p; KP_OK, or KP_ENOMEM (nothing changed). */
int kp__ptrs_push(kp__ptrs *v, void *p);
/* Free the array (not what it points at); the vector is empty again. */
void kp__ptrs_dispose(kp__ptrs *v);

#endif
