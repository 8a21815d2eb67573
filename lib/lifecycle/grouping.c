/*
 * lib/lifecycle: a result's actions and requeues per object (grouping.h).
 * Items are grouped through the library's hash map, groups numbered in
 * the order of their first item: linear in the result.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdint.h>
#include <string.h>

#include "kp_internal.h"
#include "common/map.h"
#include "grouping.h"

/* What identifies an item's group: the object, and for a requeue its
 * controller. */
typedef struct group_of {
	uint32_t kind;
	const char *parts[3]; /* namespace, name, controller or NULL (not part of it) */
	size_t n_parts;
} group_of;

typedef group_of (*group_fn)(const kp_lifecycle_result *r, size_t i);

static group_of requeue_group(const kp_lifecycle_result *r, size_t i)
{
	const kp_lifecycle_requeue *q = kp_lifecycle_result_requeue_at(r, i);
	return (group_of){ q->kind, { q->namespace_, q->name, q->controller }, 3 };
}

static group_of action_group(const kp_lifecycle_result *r, size_t i)
{
	const kp_lifecycle_action *a = kp_lifecycle_result_action_at(r, i);
	return (group_of){ a->kind, { a->namespace_, a->name, NULL }, 2 };
}

/* The group's key: the kind's 4 bytes, then each part ended by a NUL (NULL
 * as ""); its length. @p key NULL: only the length. */
static size_t group_key(char *key, const group_of *g)
{
	size_t len = sizeof(g->kind);
	if (key)
		memcpy(key, &g->kind, sizeof(g->kind));
	for (size_t i = 0; i < g->n_parts; i++) {
		const char *p = g->parts[i] ? g->parts[i] : "";
		size_t n = strlen(p) + 1;
		if (key)
			memcpy(key + len, p, n);
		len += n;
	}
	return len;
}

/* group[i] gets item i's group, groups numbered from 0 in the order of
 * their first item; *n_groups their number. KP_OK or KP_ENOMEM. */
static int group_items(const kp_lifecycle_result *r, size_t n, group_fn of, uint32_t *group,
		       size_t *n_groups)
{
	size_t longest = 0;
	for (size_t i = 0; i < n; i++) {
		group_of g = of(r, i);
		size_t len = group_key(NULL, &g);
		longest = len > longest ? len : longest;
	}
	kp__map groups = { 0 };
	char *key = kp__malloc(longest + 1);
	int rc = key && n < UINT32_MAX ? KP_OK : KP_ENOMEM;
	size_t m = 0;
	for (size_t i = 0; rc == KP_OK && i < n; i++) {
		group_of g = of(r, i);
		int inserted;
		rc = kp__map_put(&groups, key, group_key(key, &g), (uint32_t)m, &group[i], &inserted);
		m += rc == KP_OK && inserted;
	}
	kp__map_free(&groups);
	kp__free(key);
	*n_groups = m;
	return rc;
}

int kp__lc_requeues_earliest(const kp_lifecycle_result *r, const kp_lifecycle_requeue **out,
			     size_t *n)
{
	size_t count = kp_lifecycle_result_requeue_count(r), m = 0;
	uint32_t *group = kp__calloc(count + 1, sizeof(*group));
	int rc = group ? group_items(r, count, requeue_group, group, &m) : KP_ENOMEM;
	for (size_t g = 0; rc == KP_OK && g < m; g++)
		out[g] = NULL;
	for (size_t i = 0; rc == KP_OK && i < count; i++) {
		const kp_lifecycle_requeue *q = kp_lifecycle_result_requeue_at(r, i);
		if (!out[group[i]] || q->after_ms < out[group[i]]->after_ms)
			out[group[i]] = q;
	}
	kp__free(group);
	*n = rc == KP_OK ? m : 0;
	return rc;
}

int kp__lc_actions_by_object(const kp_lifecycle_result *r, size_t *order, unsigned char *first)
{
	size_t n = kp_lifecycle_result_action_count(r), m = 0;
	uint32_t *group = kp__calloc(n + 1, sizeof(*group));
	size_t *start = kp__calloc(n + 1, sizeof(*start)); /* per group: its first slot in order */
	int rc = group && start ? group_items(r, n, action_group, group, &m) : KP_ENOMEM;
	if (rc == KP_OK) {
		/* a stable counting sort by group */
		for (size_t i = 0; i < n; i++)
			start[group[i]]++;
		for (size_t g = 0, at = 0; g < m; g++) {
			size_t c = start[g];
			start[g] = at;
			for (size_t k = 0; first && k < c; k++)
				first[at + k] = k == 0;
			at += c;
		}
		for (size_t i = 0; i < n; i++)
			order[start[group[i]]++] = i;
	}
	kp__free(group);
	kp__free(start);
	return rc;
}

void kp__lc_requeue_after(int64_t after_ms, char buf[KP__LC_AFTER_MAX])
{
	int64_t ns = after_ms > INT64_MAX / 1000000   ? INT64_MAX
		     : after_ms < INT64_MIN / 1000000 ? INT64_MIN
						      : after_ms * 1000000;
	kp_duration_format_ns(ns, buf, KP__LC_AFTER_MAX); /* the size always suffices */
}
