/*
 * libkarpenter: the edits the converter makes on heap document trees, and
 * its report and failure bookkeeping.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdarg.h>
#include <string.h>

#include "convert/convert_private.h"

static int oom(kp__cv *c)
{
	return kp__cv_fail(c, KP_ENOMEM, NULL, "out of memory");
}

int kp__cv_fail(kp__cv *c, int code, const char *field, const char *fmt, ...)
{
	if (c->rc)
		return c->rc;
	c->rc = code;
	if (c->err) {
		va_list ap;
		va_start(ap, fmt);
		char *msg = kp__strdup_vprintf(fmt, ap);
		va_end(ap);
		kp__error(c->err, code, field, "%s", msg ? msg : "out of memory");
		kp__free(msg);
	}
	return code;
}

void kp__cv_report(kp__cv *c, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *line = kp__strdup_vprintf(fmt, ap);
	va_end(ap);
	if (!line) {
		oom(c);
		return;
	}
	if (c->n_report == c->cap_report) {
		size_t cap = c->cap_report ? c->cap_report * 2 : 16;
		char **grown = kp__realloc(c->report, cap * sizeof(*grown));
		if (!grown) {
			kp__free(line);
			oom(c);
			return;
		}
		c->report = grown;
		c->cap_report = cap;
	}
	c->report[c->n_report++] = line;
}

kp__node *kp__cv_path(const kp__node *root, const char *dotted)
{
	const kp__node *cur = root;
	kp__node *found = NULL;
	while (cur && *dotted) {
		size_t len = strcspn(dotted, ".");
		if (cur->type != KP__N_OBJECT)
			return NULL;
		found = NULL;
		for (size_t i = cur->n; i-- > 0;) {
			if (strlen(cur->keys[i]) == len && !memcmp(cur->keys[i], dotted, len)) {
				found = cur->items[i];
				break;
			}
		}
		cur = found;
		dotted += len;
		if (*dotted == '.')
			dotted++;
	}
	return found;
}

const char *kp__cv_str(const kp__node *obj, const char *key)
{
	const kp__node *v = kp__node_get(obj, key);
	return v && v->type == KP__N_STRING ? v->text : NULL;
}

kp__node *kp__cv_new(kp__cv *c, uint32_t type)
{
	kp__node *n = kp__node_new(NULL, type, 0, NULL);
	if (!n)
		oom(c);
	return n;
}

kp__node *kp__cv_new_str(kp__cv *c, const char *s)
{
	kp__node *n = kp__node_new_string(NULL, s, strlen(s), 0, NULL);
	if (!n)
		oom(c);
	return n;
}

static size_t index_of(const kp__node *obj, const char *key)
{
	if (!obj || obj->type != KP__N_OBJECT)
		return (size_t)-1;
	for (size_t i = obj->n; i-- > 0;)
		if (!strcmp(obj->keys[i], key))
			return i;
	return (size_t)-1;
}

void kp__cv_set(kp__cv *c, kp__node *obj, const char *key, kp__node *val)
{
	if (!val)
		return;
	if (!obj || obj->type != KP__N_OBJECT) {
		kp__node_free(val);
		return;
	}
	size_t i = index_of(obj, key);
	if (i != (size_t)-1) {
		kp__node_free(obj->items[i]);
		obj->items[i] = val;
		return;
	}
	char *k = kp__strdup(key);
	if (!k) {
		kp__node_free(val);
		oom(c);
		return;
	}
	if (kp__node_add(obj, k, val) != KP_OK)
		oom(c);
}

void kp__cv_set_str(kp__cv *c, kp__node *obj, const char *key, const char *s)
{
	kp__cv_set(c, obj, key, kp__cv_new_str(c, s));
}

void kp__cv_set_before(kp__cv *c, kp__node *obj, const char *key, kp__node *val,
		       const char *before)
{
	if (!val || !obj || obj->type != KP__N_OBJECT || index_of(obj, key) != (size_t)-1) {
		kp__cv_set(c, obj, key, val);
		return;
	}
	size_t at = index_of(obj, before);
	kp__cv_set(c, obj, key, val);
	if (at == (size_t)-1 || c->rc || obj->n == 0)
		return;
	/* Rotate the appended member into place. */
	size_t last = obj->n - 1;
	char *k = obj->keys[last];
	kp__node *v = obj->items[last];
	memmove(obj->keys + at + 1, obj->keys + at, (last - at) * sizeof(*obj->keys));
	memmove(obj->items + at + 1, obj->items + at, (last - at) * sizeof(*obj->items));
	obj->keys[at] = k;
	obj->items[at] = v;
}

kp__node *kp__cv_take(kp__node *obj, const char *key)
{
	size_t i = index_of(obj, key);
	if (i == (size_t)-1)
		return NULL;
	kp__node *v = obj->items[i];
	char *k = obj->keys[i]; /* may be the caller's key: freed last */
	memmove(obj->keys + i, obj->keys + i + 1, (obj->n - i - 1) * sizeof(*obj->keys));
	memmove(obj->items + i, obj->items + i + 1, (obj->n - i - 1) * sizeof(*obj->items));
	obj->n--;
	/* Earlier duplicates of the key (the last one wins) go too. */
	kp__node_free(kp__cv_take(obj, k));
	kp__free(k);
	return v;
}

int kp__cv_del(kp__node *obj, const char *key)
{
	kp__node *v = kp__cv_take(obj, key);
	if (!v)
		return 0;
	kp__node_free(v);
	return 1;
}

int kp__cv_rename(kp__cv *c, kp__node *obj, const char *from, const char *to)
{
	size_t i = index_of(obj, from);
	if (i == (size_t)-1)
		return 0;
	char *k = kp__strdup(to);
	if (!k) {
		oom(c);
		return 0;
	}
	kp__node_free(kp__cv_take(obj, to));
	i = index_of(obj, from);
	kp__free(obj->keys[i]);
	obj->keys[i] = k;
	return 1;
}

kp__node *kp__cv_obj(kp__cv *c, kp__node *obj, const char *key)
{
	if (!obj || obj->type != KP__N_OBJECT)
		return NULL;
	kp__node *v = kp__node_get(obj, key);
	if (v)
		return v->type == KP__N_OBJECT ? v : NULL;
	v = kp__cv_new(c, KP__N_OBJECT);
	kp__cv_set(c, obj, key, v);
	return c->rc ? NULL : v;
}

kp__node *kp__cv_copy(kp__cv *c, const kp__node *n)
{
	kp__node *copy = kp__node_copy(NULL, n, NULL);
	if (!copy)
		oom(c);
	return copy;
}

int kp__cv_empty(const kp__node *n)
{
	return !n || n->type == KP__N_NULL ||
	       ((n->type == KP__N_ARRAY || n->type == KP__N_OBJECT) && n->n == 0);
}

char *kp__cv_json(kp__cv *c, const kp__node *n)
{
	kp__buf b = { NULL, 0, 0, 0 };
	kp__json_write(&b, n, 0);
	char *s = kp__buf_take(&b, NULL);
	if (!s)
		oom(c);
	return s;
}

kp__node *kp__cv_parse(kp__cv *c, const char *json, int *bad)
{
	*bad = 0;
	size_t len = strlen(json);
	kp__budget b;
	memset(&b, 0, sizeof(b));
	b.max_nodes = (size_t)1 << 20;
	b.max_text = len * 2 + 64;
	b.max_depth = 100;
	kp__node *docs = NULL;
	kp_error e = KP_ERROR_INIT;
	int rc = kp__json_parse(&docs, json, len, &b, &e);
	kp__node *out = NULL;
	if (rc == KP_ENOMEM)
		oom(c);
	else if (rc || !docs || docs->n != 1)
		*bad = 1;
	else
		out = kp__cv_copy(c, docs->items[0]);
	kp__node_free(docs);
	return out;
}

const char *kp__cv_kind(const kp__node *o)
{
	const char *k = kp__cv_str(o, "kind");
	return k ? k : "";
}

const char *kp__cv_name(const kp__node *o)
{
	const char *n = kp__cv_str(kp__node_get(o, "metadata"), "name");
	return n ? n : "";
}

static int count_duplicate(void *ctx, const char *key)
{
	(void)key;
	(*(size_t *)ctx)++;
	return KP_OK;
}

size_t kp__cv_dedupe(kp__cv *c, kp__node *n)
{
	size_t dups = 0;
	if (n->type == KP__N_OBJECT && kp__node_dedupe(n, count_duplicate, &dups) != KP_OK) {
		kp__cv_fail(c, KP_ENOMEM, NULL, "out of memory");
		return dups;
	}
	if (n->type == KP__N_OBJECT || n->type == KP__N_ARRAY)
		for (size_t i = 0; i < n->n; i++)
			dups += kp__cv_dedupe(c, n->items[i]);
	return dups;
}

void kp__cv_prune_nulls(kp__node *n)
{
	if (n->type != KP__N_OBJECT && n->type != KP__N_ARRAY)
		return;
	size_t w = 0;
	for (size_t i = 0; i < n->n; i++) {
		if (n->type == KP__N_OBJECT && n->items[i]->type == KP__N_NULL) {
			kp__free(n->keys[i]);
			kp__node_free(n->items[i]);
			continue;
		}
		kp__cv_prune_nulls(n->items[i]);
		if (n->type == KP__N_OBJECT)
			n->keys[w] = n->keys[i];
		n->items[w++] = n->items[i];
	}
	n->n = w;
}

void kp__cv_keep(kp__node *obj, const char *const *keep, size_t n_keep)
{
	size_t w = 0;
	for (size_t i = 0; i < obj->n; i++) {
		int kept = 0;
		for (size_t k = 0; k < n_keep && !kept; k++)
			kept = !strcmp(obj->keys[i], keep[k]);
		if (!kept) {
			kp__free(obj->keys[i]);
			kp__node_free(obj->items[i]);
			continue;
		}
		obj->keys[w] = obj->keys[i];
		obj->items[w++] = obj->items[i];
	}
	obj->n = w;
}

const char *kp__cv_expire_of(const kp__cv *c, const char *name)
{
	uint32_t i = 0;
	return kp__map_gets(&c->np_index, name, &i) ? c->np_expire[i] : NULL;
}

void kp__cv_drop_severity(kp__cv *c, const kp__node *o)
{
	kp__node *conds = kp__cv_path(o, "status.conditions");
	for (size_t i = 0; conds && conds->type == KP__N_ARRAY && i < conds->n; i++)
		if (kp__cv_del(conds->items[i], "severity"))
			kp__cv_report(c, "dropped: %s/%s: status.conditions[%zu].severity",
				      kp__cv_kind(o), kp__cv_name(o), i);
}
