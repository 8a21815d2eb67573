/*
 * libkarpenter: binary search over sorted arrays (kp_internal.h), one
 * implementation for the label maps, resource lists, requirement sets,
 * well-known label rules and instance-type catalogues that used to carry
 * one each.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <string.h>

#include "kp_internal.h"

size_t kp__sorted_find(size_t n, int (*cmp_at)(const void *ctx, size_t i), const void *ctx,
		       int *found)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = cmp_at(ctx, mid);
		if (c == 0) {
			if (found)
				*found = 1;
			return mid;
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (found)
		*found = 0;
	return lo;
}

struct strs_key {
	const char *const *items;
	const char *key;
};

static int strs_cmp_at(const void *ctx, size_t i)
{
	const struct strs_key *k = ctx;
	return strcmp(k->items[i], k->key);
}

size_t kp__strs_find(const char *const *items, size_t n, const char *key, int *found)
{
	struct strs_key k = { items, key };
	return kp__sorted_find(n, strs_cmp_at, &k, found);
}
