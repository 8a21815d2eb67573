/*
 * libkarpenter private: one hash map for the library's internal tables
 * (lib/common/map.c). Never installed.
 *
 * Open addressing with linear probing, capacity a power of two, at most
 * three quarters full. A map holds either byte-string keys (kp__map_get,
 * kp__map_put, kp__map_put_key: the map keeps its own NUL-terminated copy
 * of each key, so callers may pass a scratch buffer) or uint32_t keys
 * (kp__map_get_u32, kp__map_put_u32: stored in the slot, no copy), never
 * both. Values are uint32_t, usually an index into the caller's array.
 * Nothing is ever removed; kp__map_free releases everything.
 *
 * Lookups and inserts are deterministic (no random seed): the same keys
 * inserted in the same order give the same table. Nothing in the library
 * iterates a map, so its order decides nothing.
 *
 * A zero-initialized kp__map is an empty map.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef KP_COMMON_MAP_H
#define KP_COMMON_MAP_H

#include <stddef.h>
#include <stdint.h>

struct kp__map_slot;
struct kp__map_chunk;

typedef struct kp__map {
	struct kp__map_slot *slots;
	size_t cap, count;
	struct kp__map_chunk *keys; /* copies of byte keys (newest chunk first) */
	size_t keys_used, keys_cap;
} kp__map;

/* Byte keys. Returns 1 and sets *val when @p key (len bytes) is present, else 0. */
int kp__map_get(const kp__map *m, const void *key, size_t len, uint32_t *val);
/* kp__map_get on a NUL-terminated string (without its NUL). */
int kp__map_gets(const kp__map *m, const char *s, uint32_t *val);
/* Insert @p key with @p val_if_new unless present. Returns KP_OK or
 * KP_ENOMEM (the map is then unchanged). On KP_OK, *val (may be NULL)
 * gets the stored value (the existing one when present) and *inserted
 * (may be NULL) says which case it was. */
int kp__map_put(kp__map *m, const void *key, size_t len, uint32_t val_if_new, uint32_t *val,
		int *inserted);
/* As kp__map_put; *stored (may be NULL) gets the map's NUL-terminated copy
 * of the key, valid until kp__map_free. */
int kp__map_put_key(kp__map *m, const void *key, size_t len, uint32_t val_if_new, uint32_t *val,
		    int *inserted, const char **stored);

/* uint32_t keys: the same contract as kp__map_get / kp__map_put. */
int kp__map_get_u32(const kp__map *m, uint32_t key, uint32_t *val);
int kp__map_put_u32(kp__map *m, uint32_t key, uint32_t val_if_new, uint32_t *val, int *inserted);

/* Number of keys. */
size_t kp__map_count(const kp__map *m);
/* Release everything; the map is empty (zeroed) afterwards. NULL-safe. */
void kp__map_free(kp__map *m);

#endif /* KP_COMMON_MAP_H */
