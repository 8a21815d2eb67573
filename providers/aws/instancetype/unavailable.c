/*
 * libkarpenter-aws: the unavailable-offerings cache (upstream
 * pkg/cache/unavailableofferings.go): offerings that failed with an
 * insufficient-capacity error stay unavailable for three minutes. The
 * caller gives the time; entries expire by comparison, never by a clock.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdlib.h>
#include <string.h>

#include "../aws_private.h"
#include "instancetype.h"

struct entry {
	char *key;          /* "<capacity-type>:<instance-type>:<zone>", upstream's key */
	int64_t expires_ms;
};

struct kp_aws_unavailable_offerings {
	struct entry *offerings; /* sorted by key */
	size_t n, cap;
	struct entry *capacity_types; /* few: linear */
	size_t n_ct;
};

static char *make_key(const char *ct, const char *type, const char *zone)
{
	size_t a = strlen(ct), b = strlen(type), c = strlen(zone);
	char *k = malloc(a + b + c + 3);
	if (!k)
		return NULL;
	memcpy(k, ct, a);
	k[a] = ':';
	memcpy(k + a + 1, type, b);
	k[a + 1 + b] = ':';
	memcpy(k + a + b + 2, zone, c + 1);
	return k;
}

/* strcmp(key, concatenation of parts), without building it. */
static int cmp_parts(const char *key, const char *const *parts, size_t n)
{
	const unsigned char *k = (const unsigned char *)key;
	for (size_t i = 0; i < n; i++) {
		for (const unsigned char *p = (const unsigned char *)parts[i]; *p; p++, k++) {
			if (*k != *p)
				return *k < *p ? -1 : 1;
		}
	}
	return *k ? 1 : 0;
}

/* Index of @p key, or of where it would go (*found = 0). */
static size_t find(const struct entry *v, size_t n, const char *key, int *found)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(v[mid].key, key);
		if (c == 0) {
			*found = 1;
			return mid;
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	*found = 0;
	return lo;
}

KP_EXPORT int kp_aws_unavailable_offerings_new(kp_aws_unavailable_offerings **out, kp_error *err)
{
	if (!out)
		return kp_aws__error(err, KP_EINVAL, NULL, "kp_aws_unavailable_offerings_new: out is NULL");
	*out = calloc(1, sizeof(**out));
	return *out ? KP_OK : kp_aws__error(err, KP_ENOMEM, NULL, "out of memory");
}

KP_EXPORT void kp_aws_unavailable_offerings_free(kp_aws_unavailable_offerings *cache)
{
	if (!cache)
		return;
	for (size_t i = 0; i < cache->n; i++)
		free(cache->offerings[i].key);
	for (size_t i = 0; i < cache->n_ct; i++)
		free(cache->capacity_types[i].key);
	free(cache->offerings);
	free(cache->capacity_types);
	free(cache);
}

static int nonempty(const char *s)
{
	return s && *s;
}

KP_EXPORT int kp_aws_unavailable_offerings_mark(kp_aws_unavailable_offerings *cache,
						const char *instance_type, const char *zone,
						const char *capacity_type, int64_t now_ms,
						kp_error *err)
{
	if (!cache || !nonempty(instance_type) || !nonempty(zone) || !nonempty(capacity_type))
		return kp_aws__error(err, KP_EINVAL, NULL, "kp_aws_unavailable_offerings_mark: needs a "
				     "cache, an instance type, a zone and a capacity type");
	if (now_ms > INT64_MAX - KP_AWS_UNAVAILABLE_OFFERINGS_TTL_MS)
		return kp_aws__error(err, KP_EINVAL, "now_ms", "now_ms is out of range");
	char *key = make_key(capacity_type, instance_type, zone);
	if (!key)
		return kp_aws__error(err, KP_ENOMEM, NULL, "out of memory");
	int found;
	size_t i = find(cache->offerings, cache->n, key, &found);
	if (found) {
		free(key);
		cache->offerings[i].expires_ms = now_ms + KP_AWS_UNAVAILABLE_OFFERINGS_TTL_MS;
		return KP_OK;
	}
	if (cache->n == cache->cap) {
		size_t cap = cache->cap ? cache->cap * 2 : 16;
		struct entry *v = realloc(cache->offerings, cap * sizeof(*v));
		if (!v) {
			free(key);
			return kp_aws__error(err, KP_ENOMEM, NULL, "out of memory");
		}
		cache->offerings = v;
		cache->cap = cap;
	}
	memmove(&cache->offerings[i + 1], &cache->offerings[i], (cache->n - i) * sizeof(struct entry));
	cache->offerings[i].key = key;
	cache->offerings[i].expires_ms = now_ms + KP_AWS_UNAVAILABLE_OFFERINGS_TTL_MS;
	cache->n++;
	return KP_OK;
}

KP_EXPORT int kp_aws_unavailable_offerings_mark_capacity_type(kp_aws_unavailable_offerings *cache,
							      const char *capacity_type,
							      int64_t now_ms, kp_error *err)
{
	if (!cache || !nonempty(capacity_type))
		return kp_aws__error(err, KP_EINVAL, NULL, "kp_aws_unavailable_offerings_mark_capacity_"
				     "type: needs a cache and a capacity type");
	if (now_ms > INT64_MAX - KP_AWS_UNAVAILABLE_OFFERINGS_TTL_MS)
		return kp_aws__error(err, KP_EINVAL, "now_ms", "now_ms is out of range");
	for (size_t i = 0; i < cache->n_ct; i++) {
		if (strcmp(cache->capacity_types[i].key, capacity_type) == 0) {
			cache->capacity_types[i].expires_ms = now_ms + KP_AWS_UNAVAILABLE_OFFERINGS_TTL_MS;
			return KP_OK;
		}
	}
	struct entry *v = realloc(cache->capacity_types, (cache->n_ct + 1) * sizeof(*v));
	if (!v)
		return kp_aws__error(err, KP_ENOMEM, NULL, "out of memory");
	cache->capacity_types = v;
	if (!(v[cache->n_ct].key = kp_aws__strdup(capacity_type)))
		return kp_aws__error(err, KP_ENOMEM, NULL, "out of memory");
	v[cache->n_ct++].expires_ms = now_ms + KP_AWS_UNAVAILABLE_OFFERINGS_TTL_MS;
	return KP_OK;
}

KP_EXPORT int kp_aws_unavailable_offerings_is_unavailable(const kp_aws_unavailable_offerings *cache,
							  const char *instance_type,
							  const char *zone,
							  const char *capacity_type, int64_t now_ms)
{
	if (!cache || !instance_type || !zone || !capacity_type)
		return 0;
	for (size_t i = 0; i < cache->n_ct; i++)
		if (strcmp(cache->capacity_types[i].key, capacity_type) == 0 &&
		    now_ms < cache->capacity_types[i].expires_ms)
			return 1;
	/* Binary search against the three parts, without building the key. */
	const char *parts[5] = { capacity_type, ":", instance_type, ":", zone };
	size_t lo = 0, hi = cache->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = cmp_parts(cache->offerings[mid].key, parts, 5);
		if (c == 0)
			return now_ms < cache->offerings[mid].expires_ms;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}
