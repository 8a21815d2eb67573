/*
 * libkarpenter: the internal hash map (common/map.h), one implementation
 * for the scheduling snapshot's tables (names, pod classes, topology
 * groups, interned strings), the per-simulation topology domain indexes
 * and the YAML reader's anchors, which used to carry one each.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <string.h>

#include "common/map.h"
#include "kp_internal.h"

/* A slot is empty while used is 0. Byte keys point into the key chunks;
 * a uint32_t key is kept in len (key is then NULL). */
struct kp__map_slot {
	uint64_t hash;
	const char *key;
	size_t len;
	uint32_t val;
	uint32_t used;
};

struct kp__map_chunk {
	struct kp__map_chunk *next;
	char data[];
};

#define KEY_CHUNK 4096

/* FNV-1a, 64 bit, with its high bits folded into the low ones that pick
 * the slot. */
static uint64_t hash_bytes(const void *p, size_t n)
{
	const unsigned char *s = p;
	uint64_t h = 1469598103934665603ull;
	for (size_t i = 0; i < n; i++) {
		h ^= s[i];
		h *= 1099511628211ull;
	}
	return h ^ (h >> 29);
}

/* A 32-bit integer mixer (every input bit reaches every output bit):
 * small consecutive ids spread over the table. */
static uint64_t hash_u32(uint32_t x)
{
	x ^= x >> 16;
	x *= 0x7feb352dU;
	x ^= x >> 15;
	x *= 0x846ca68bU;
	x ^= x >> 16;
	return x;
}

static int grow(kp__map *m)
{
	size_t cap = m->cap ? m->cap * 2 : 16;
	if (cap < m->cap || cap > SIZE_MAX / sizeof(struct kp__map_slot))
		return KP_ENOMEM;
	struct kp__map_slot *slots = kp__calloc(cap, sizeof(*slots));
	if (!slots)
		return KP_ENOMEM;
	for (size_t i = 0; i < m->cap; i++) {
		const struct kp__map_slot *s = &m->slots[i];
		if (!s->used)
			continue;
		size_t j = (size_t)s->hash & (cap - 1);
		while (slots[j].used)
			j = (j + 1) & (cap - 1);
		slots[j] = *s;
	}
	kp__free(m->slots);
	m->slots = slots;
	m->cap = cap;
	return KP_OK;
}

/* Room for one more key, keeping the table at most three quarters full. */
static int reserve(kp__map *m)
{
	if ((m->count + 1) * 4 > m->cap * 3)
		return grow(m);
	return KP_OK;
}

/* The slot holding the byte key, or the empty slot where it would go. */
static struct kp__map_slot *find_bytes(const kp__map *m, const void *key, size_t len, uint64_t h)
{
	size_t mask = m->cap - 1;
	for (size_t i = (size_t)h & mask;; i = (i + 1) & mask) {
		struct kp__map_slot *s = &m->slots[i];
		if (!s->used || (s->hash == h && s->len == len && memcmp(s->key, key, len) == 0))
			return s;
	}
}

static struct kp__map_slot *find_u32(const kp__map *m, uint32_t key, uint64_t h)
{
	size_t mask = m->cap - 1;
	for (size_t i = (size_t)h & mask;; i = (i + 1) & mask) {
		struct kp__map_slot *s = &m->slots[i];
		if (!s->used || s->len == key)
			return s;
	}
}

/* A NUL-terminated copy of the key in the map's chunks. */
static char *copy_key(kp__map *m, const void *key, size_t len)
{
	if (len >= SIZE_MAX - sizeof(struct kp__map_chunk))
		return NULL;
	if (!m->keys || m->keys_cap - m->keys_used < len + 1) {
		size_t cap = len + 1 > KEY_CHUNK ? len + 1 : KEY_CHUNK;
		struct kp__map_chunk *c = kp__malloc(sizeof(*c) + cap);
		if (!c)
			return NULL;
		c->next = m->keys;
		m->keys = c;
		m->keys_used = 0;
		m->keys_cap = cap;
	}
	char *copy = m->keys->data + m->keys_used;
	m->keys_used += len + 1;
	if (len)
		memcpy(copy, key, len);
	copy[len] = '\0';
	return copy;
}

int kp__map_get(const kp__map *m, const void *key, size_t len, uint32_t *val)
{
	if (!m->count)
		return 0;
	const struct kp__map_slot *s = find_bytes(m, key, len, hash_bytes(key, len));
	if (!s->used)
		return 0;
	*val = s->val;
	return 1;
}

int kp__map_gets(const kp__map *m, const char *s, uint32_t *val)
{
	return kp__map_get(m, s, strlen(s), val);
}

int kp__map_put_key(kp__map *m, const void *key, size_t len, uint32_t val_if_new, uint32_t *val,
		    int *inserted, const char **stored)
{
	if (reserve(m) != KP_OK)
		return KP_ENOMEM;
	uint64_t h = hash_bytes(key, len);
	struct kp__map_slot *s = find_bytes(m, key, len, h);
	int is_new = !s->used;
	if (is_new) {
		char *copy = copy_key(m, key, len);
		if (!copy)
			return KP_ENOMEM;
		s->hash = h;
		s->key = copy;
		s->len = len;
		s->val = val_if_new;
		s->used = 1;
		m->count++;
	}
	if (val)
		*val = s->val;
	if (inserted)
		*inserted = is_new;
	if (stored)
		*stored = s->key;
	return KP_OK;
}

int kp__map_put(kp__map *m, const void *key, size_t len, uint32_t val_if_new, uint32_t *val,
		int *inserted)
{
	return kp__map_put_key(m, key, len, val_if_new, val, inserted, NULL);
}

int kp__map_get_u32(const kp__map *m, uint32_t key, uint32_t *val)
{
	if (!m->count)
		return 0;
	const struct kp__map_slot *s = find_u32(m, key, hash_u32(key));
	if (!s->used)
		return 0;
	*val = s->val;
	return 1;
}

int kp__map_put_u32(kp__map *m, uint32_t key, uint32_t val_if_new, uint32_t *val, int *inserted)
{
	if (reserve(m) != KP_OK)
		return KP_ENOMEM;
	uint64_t h = hash_u32(key);
	struct kp__map_slot *s = find_u32(m, key, h);
	int is_new = !s->used;
	if (is_new) {
		s->hash = h;
		s->key = NULL;
		s->len = key;
		s->val = val_if_new;
		s->used = 1;
		m->count++;
	}
	if (val)
		*val = s->val;
	if (inserted)
		*inserted = is_new;
	return KP_OK;
}

size_t kp__map_count(const kp__map *m)
{
	return m->count;
}

void kp__map_free(kp__map *m)
{
	if (!m)
		return;
	struct kp__map_chunk *c = m->keys;
	while (c) {
		struct kp__map_chunk *next = c->next;
		kp__free(c);
		c = next;
	}
	kp__free(m->slots);
	memset(m, 0, sizeof(*m));
}
