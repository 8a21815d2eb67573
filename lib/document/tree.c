/*
 * The document tree shared by the JSON and YAML codecs (see tree.h).
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tree.h"

const char *kp__node_type_name(uint32_t type)
{
	switch (type) {
	case KP__N_NULL: return "null";
	case KP__N_BOOL: return "boolean";
	case KP__N_NUMBER: return "number";
	case KP__N_STRING: return "string";
	case KP__N_ARRAY: return "array";
	case KP__N_OBJECT: return "object";
	default: return "unknown";
	}
}

/* ------------------------------------------------------------------ */
/* The arena of a parse                                                */

/* Chunks are 256 KiB: a 12.8 MB cluster dump takes about 230 of them
 * instead of about 3 million small allocations. */
#define ARENA_CHUNK ((size_t)256 << 10)

typedef struct arena_chunk {
	struct arena_chunk *next;
	size_t cap; /* bytes after the header (also keeps the data 16-aligned) */
} arena_chunk;

struct kp__tree_arena {
	arena_chunk *head;
	char *pos;   /* free space of the head chunk */
	size_t left;
};

/* The root and its arena, allocated together (kp__node_new_root). */
typedef struct arena_root {
	kp__tree_arena arena;
	kp__node root;
} arena_root;

/* size bytes, 8-aligned, not zeroed; NULL when out of memory. */
static void *arena_alloc(kp__tree_arena *a, size_t size)
{
	if (size > SIZE_MAX - 7 - sizeof(arena_chunk))
		return NULL;
	size = (size + 7) & ~(size_t)7;
	if (size <= a->left) {
		void *p = a->pos;
		a->pos += size;
		a->left -= size;
		return p;
	}
	/* A large block gets a chunk of its own, linked behind the head so
	 * that the head's free space stays in use. */
	int own = size > ARENA_CHUNK / 4;
	size_t cap = own ? size : ARENA_CHUNK;
	arena_chunk *c = kp__malloc(sizeof(*c) + cap);
	if (!c)
		return NULL;
	c->cap = cap;
	char *data = (char *)(c + 1);
	if (own && a->head) {
		c->next = a->head->next;
		a->head->next = c;
		return data;
	}
	c->next = a->head;
	a->head = c;
	a->pos = data + size;
	a->left = cap - size;
	return data;
}

kp__node *kp__node_new_root(kp__budget *b)
{
	arena_root *r = kp__calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	r->root.type = KP__N_ARRAY;
	r->root.root = 1;
	r->root.arena = &r->arena;
	b->arena = &r->arena;
	return &r->root;
}

char *kp__node_strndup(kp__budget *b, const char *s, size_t n)
{
	if (!b || !b->arena)
		return kp__strndup(s, n);
	if (n == SIZE_MAX)
		return NULL;
	char *d = arena_alloc(b->arena, n + 1);
	if (d) {
		memcpy(d, s, n);
		d[n] = '\0';
	}
	return d;
}

static void chunks_free(arena_chunk *c)
{
	for (arena_chunk *next; c; c = next) {
		next = c->next;
		kp__free(c);
	}
}

static void arena_release(kp__node *root)
{
	arena_root *r = (arena_root *)(void *)((char *)root - offsetof(arena_root, root));
	chunks_free(r->arena.head);
	kp__free(r);
}

kp__tree_arena *kp__tree_arena_new(void)
{
	return kp__calloc(1, sizeof(kp__tree_arena));
}

void kp__tree_arena_reset(kp__tree_arena *a)
{
	if (!a)
		return;
	/* Keep one regular chunk: the next document reuses memory that is
	 * already mapped and warm in the cache instead of faulting in new
	 * pages, which is most of what a tree costs. */
	arena_chunk *keep = NULL;
	for (arena_chunk *c = a->head, *next; c; c = next) {
		next = c->next;
		if (!keep && c->cap == ARENA_CHUNK) {
			keep = c;
			continue;
		}
		kp__free(c);
	}
	a->head = keep;
	if (keep) {
		keep->next = NULL;
		a->pos = (char *)(keep + 1);
		a->left = keep->cap;
	} else {
		a->pos = NULL;
		a->left = 0;
	}
}

void kp__tree_arena_free(kp__tree_arena *a)
{
	if (!a)
		return;
	chunks_free(a->head);
	kp__free(a);
}

/* ------------------------------------------------------------------ */
/* Nodes                                                               */

kp__node *kp__node_new(kp__budget *b, uint32_t type, uint32_t line, int *over)
{
	if (b) {
		if (b->nodes >= b->max_nodes) {
			if (over)
				*over = KP__OVER_NODES;
			return NULL;
		}
		if (b->max_live && b->live >= b->max_live) {
			if (over)
				*over = KP__OVER_LIVE;
			return NULL;
		}
		b->nodes++;
		b->live++;
	}
	kp__node *n;
	if (b && b->arena) {
		n = arena_alloc(b->arena, sizeof(*n));
		if (!n)
			return NULL;
		memset(n, 0, sizeof(*n));
		n->arena = b->arena;
	} else {
		n = kp__calloc(1, sizeof(*n));
		if (!n)
			return NULL;
	}
	n->type = type;
	n->line = line;
	return n;
}

int kp__budget_text(kp__budget *b, size_t len, int *over)
{
	if (!b)
		return 1;
	if (len > b->max_text - b->text) {
		if (over)
			*over = KP__OVER_TEXT;
		return 0;
	}
	b->text += len;
	return 1;
}

kp__node *kp__node_new_string(kp__budget *b, const char *s, size_t len, uint32_t line, int *over)
{
	if (!kp__budget_text(b, len, over))
		return NULL;
	kp__node *n = kp__node_new(b, KP__N_STRING, line, over);
	if (!n)
		return NULL;
	n->text = kp__node_strndup(b, s, len);
	if (!n->text) {
		kp__node_free(n);
		return NULL;
	}
	n->len = len;
	return n;
}

/* Free a key or text of @p owner: only what is on the heap. */
static void free_owned(const kp__node *owner, char *s)
{
	if (!owner->arena)
		kp__free(s);
}

void kp__node_free(kp__node *n)
{
	if (!n)
		return;
	if (n->root) {
		arena_release(n);
		return;
	}
	if (n->arena)
		return; /* released with its root */
	for (size_t i = 0; i < n->n; i++) {
		kp__node_free(n->items[i]);
		if (n->keys)
			kp__free(n->keys[i]);
	}
	kp__free(n->items);
	kp__free(n->keys);
	kp__free(n->text);
	kp__free(n);
}

kp__node *kp__node_copy(kp__budget *b, const kp__node *n, int *over)
{
	kp__node *c = kp__node_new(b, n->type, n->line, over);
	if (!c)
		return NULL;
	c->boolean = n->boolean;
	if (n->text) {
		if (!kp__budget_text(b, n->len, over))
			goto fail;
		c->text = kp__node_strndup(b, n->text, n->len);
		if (!c->text)
			goto fail;
		c->len = n->len;
	}
	for (size_t i = 0; i < n->n; i++) {
		kp__node *child = kp__node_copy(b, n->items[i], over);
		if (!child)
			goto fail;
		if (n->type == KP__N_OBJECT) {
			char *key = kp__node_strndup(b, n->keys[i], strlen(n->keys[i]));
			if (!key) {
				kp__node_free(child);
				goto fail;
			}
			if (kp__node_add(c, key, child) != KP_OK)
				goto fail;
		} else if (kp__node_append(c, child) != KP_OK) {
			goto fail;
		}
	}
	return c;
fail:
	kp__node_free(c);
	return NULL;
}

/* Grow an arena node's arrays: new ones from the arena, the old ones left
 * (at most as much again as the final arrays). */
static int arena_reserve(kp__node *n, int with_keys)
{
	size_t cap = n->cap ? n->cap * 2 : 4;
	if (cap > SIZE_MAX / sizeof(void *))
		return KP_ENOMEM;
	kp__node **items = arena_alloc(n->arena, cap * sizeof(*items));
	char **keys = with_keys ? arena_alloc(n->arena, cap * sizeof(*keys)) : NULL;
	if (!items || (with_keys && !keys))
		return KP_ENOMEM;
	if (n->n) {
		memcpy(items, n->items, n->n * sizeof(*items));
		if (with_keys)
			memcpy(keys, n->keys, n->n * sizeof(*keys));
	}
	n->items = items;
	if (with_keys)
		n->keys = keys;
	n->cap = cap;
	return KP_OK;
}

static int node_reserve(kp__node *n, int with_keys)
{
	if (n->n < n->cap)
		return KP_OK;
	if (n->arena)
		return arena_reserve(n, with_keys);
	size_t cap = n->cap;
	if (kp__grow((void **)&n->items, &cap, n->n + 1, sizeof(*n->items)) != KP_OK)
		return KP_ENOMEM;
	if (with_keys) {
		size_t kcap = n->cap;
		if (kp__grow((void **)&n->keys, &kcap, cap, sizeof(*n->keys)) != KP_OK)
			return KP_ENOMEM;
	}
	n->cap = cap;
	return KP_OK;
}

int kp__node_append(kp__node *arr, kp__node *child)
{
	if (node_reserve(arr, 0) != KP_OK) {
		kp__node_free(child);
		return KP_ENOMEM;
	}
	arr->items[arr->n++] = child;
	return KP_OK;
}

int kp__node_add(kp__node *obj, char *key, kp__node *child)
{
	if (node_reserve(obj, 1) != KP_OK) {
		free_owned(obj, key);
		kp__node_free(child);
		return KP_ENOMEM;
	}
	obj->keys[obj->n] = key;
	obj->items[obj->n++] = child;
	return KP_OK;
}

kp__node *kp__node_get(const kp__node *obj, const char *key)
{
	if (!obj || obj->type != KP__N_OBJECT)
		return NULL;
	for (size_t i = obj->n; i-- > 0;)
		if (strcmp(obj->keys[i], key) == 0)
			return obj->items[i];
	return NULL;
}

void kp__node_remove(kp__node *obj, size_t i)
{
	kp__node_free(obj->items[i]);
	free_owned(obj, obj->keys[i]);
	memmove(obj->items + i, obj->items + i + 1, (obj->n - i - 1) * sizeof(*obj->items));
	memmove(obj->keys + i, obj->keys + i + 1, (obj->n - i - 1) * sizeof(*obj->keys));
	obj->n--;
}

struct key_ref {
	const char *key;
	size_t index;
};

static int key_ref_cmp(const void *a, const void *b)
{
	const struct key_ref *x = a, *y = b;
	int c = strcmp(x->key, y->key);
	if (c)
		return c;
	return x->index < y->index ? -1 : x->index > y->index;
}

size_t kp__node_find_duplicate(const kp__node *obj)
{
	if (obj->n < 2)
		return (size_t)-1;
	if (obj->n <= 8) {
		for (size_t i = 1; i < obj->n; i++)
			for (size_t j = 0; j < i; j++)
				if (strcmp(obj->keys[i], obj->keys[j]) == 0)
					return i;
		return (size_t)-1;
	}
	struct key_ref *refs = kp__calloc(obj->n, sizeof(*refs));
	if (!refs) {
		/* Out of memory: fall back to the quadratic scan. */
		for (size_t i = 1; i < obj->n; i++)
			for (size_t j = 0; j < i; j++)
				if (strcmp(obj->keys[i], obj->keys[j]) == 0)
					return i;
		return (size_t)-1;
	}
	for (size_t i = 0; i < obj->n; i++) {
		refs[i].key = obj->keys[i];
		refs[i].index = i;
	}
	qsort(refs, obj->n, sizeof(*refs), key_ref_cmp);
	size_t found = (size_t)-1;
	for (size_t i = 1; i < obj->n; i++)
		if (strcmp(refs[i].key, refs[i - 1].key) == 0 &&
		    (found == (size_t)-1 || refs[i].index < found))
			found = refs[i].index;
	kp__free(refs);
	return found;
}

int kp__node_dedupe(kp__node *obj, int (*fn)(void *ctx, const char *key), void *ctx)
{
	if (obj->n < 2)
		return KP_OK;
	struct key_ref *refs = kp__calloc(obj->n, sizeof(*refs));
	unsigned char *drop = kp__calloc(obj->n, 1);
	if (!refs || !drop) {
		kp__free(refs);
		kp__free(drop);
		return KP_ENOMEM;
	}
	for (size_t i = 0; i < obj->n; i++) {
		refs[i].key = obj->keys[i];
		refs[i].index = i;
	}
	qsort(refs, obj->n, sizeof(*refs), key_ref_cmp);
	int rc = KP_OK;
	for (size_t i = 0; i + 1 < obj->n; i++) {
		if (strcmp(refs[i].key, refs[i + 1].key) != 0)
			continue;
		/* refs[i] is an earlier occurrence (index order within a run). */
		if (fn && (i == 0 || strcmp(refs[i - 1].key, refs[i].key) != 0)) {
			rc = fn(ctx, refs[i].key);
			if (rc)
				break;
		}
		drop[refs[i].index] = 1;
	}
	kp__free(refs);
	if (rc == KP_OK) {
		size_t w = 0;
		for (size_t i = 0; i < obj->n; i++) {
			if (drop[i]) {
				kp__node_free(obj->items[i]);
				free_owned(obj, obj->keys[i]);
				continue;
			}
			obj->items[w] = obj->items[i];
			obj->keys[w] = obj->keys[i];
			w++;
		}
		obj->n = w;
	}
	kp__free(drop);
	return rc;
}

int kp__utf8_valid(const char *str, size_t len)
{
	size_t i = 0;
	while (i < len) {
		uint32_t cp;
		size_t n = kp__utf8_char(str + i, len - i, &cp);
		if (n == 0 || cp == 0)
			return 0;
		i += n;
	}
	return 1;
}

