/*
 * Label maps, label key/value validation and label selectors, with the rules
 * and messages of k8s.io/apimachinery (pkg/api/validate/content/kube.go,
 * pkg/apis/meta/v1/validation, pkg/apis/meta/v1/helpers.go, pkg/labels).
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <karpenter/labels.h>

#include "kp_internal.h"
#include "labels_private.h"

/*
 * apimachinery builds these with RegexError(); the doubled spaces before "or"
 * are part of its output, and so part of the messages users compare against.
 */
#define LABEL_NAME_RE "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]"
#define LABEL_NAME_MSG                                                                  \
	"must consist of alphanumeric characters, '-', '_' or '.', and must start and " \
	"end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or "        \
	"'123-abc', regex used for validation is '" LABEL_NAME_RE "')"
#define DNS1123_LABEL_RE "[a-z0-9]([-a-z0-9]*[a-z0-9])?"
#define DNS1123_SUBDOMAIN_MSG                                                         \
	"a lowercase RFC 1123 subdomain must consist of lower case alphanumeric "     \
	"characters, '-' or '.', and must start and end with an alphanumeric "        \
	"character (e.g. 'example.com', regex used for validation is '"               \
	DNS1123_LABEL_RE "(\\." DNS1123_LABEL_RE ")*')"

static const char msg_key_parts[] =
	"a valid label key " LABEL_NAME_MSG
	" with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')";
static const char msg_prefix_empty[] = "prefix part must be non-empty";
static const char msg_prefix_long[] = "prefix part must be no more than 253 bytes";
static const char msg_prefix_format[] = "prefix part " DNS1123_SUBDOMAIN_MSG;
static const char msg_name_empty[] = "name part must be non-empty";
static const char msg_name_long[] = "name part must be no more than 63 bytes";
static const char msg_name_format[] = "name part " LABEL_NAME_MSG;
static const char msg_value_long[] = "must be no more than 63 bytes";
static const char msg_value_format[] =
	"a valid label must be an empty string or consist of alphanumeric characters, "
	"'-', '_' or '.', and must start and end with an alphanumeric character (e.g. "
	"'MyValue',  or 'my_value',  or '12345', regex used for validation is '("
	LABEL_NAME_RE ")?')";

static inline const char *str(const char *s)
{
	return s ? s : "";
}

/* Library-owned maps own their strings even though kp_label holds const pointers. */
static void free_str(const char *s)
{
	kp__free((void *)(uintptr_t)s);
}

/* ---- key and value syntax ------------------------------------------------- */

static inline int is_alnum(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

static inline int is_lower_alnum(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

/* ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9] */
static int is_label_name(const char *s, size_t n)
{
	if (n == 0 || !is_alnum((unsigned char)s[0]) || !is_alnum((unsigned char)s[n - 1]))
		return 0;
	for (size_t i = 1; i + 1 < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (!is_alnum(c) && c != '-' && c != '_' && c != '.')
			return 0;
	}
	return 1;
}

/* Dot-separated labels, each [a-z0-9]([-a-z0-9]*[a-z0-9])? */
static int is_dns1123_subdomain(const char *s, size_t n)
{
	size_t start = 0;
	for (size_t i = 0; i <= n; i++) {
		if (i == n || s[i] == '.') {
			if (i == start || !is_lower_alnum((unsigned char)s[start]) ||
			    !is_lower_alnum((unsigned char)s[i - 1]))
				return 0;
			start = i + 1;
		} else if (!is_lower_alnum((unsigned char)s[i]) && s[i] != '-') {
			return 0;
		}
	}
	return 1;
}

static size_t report(const char *const *found, size_t n, const char **problems, size_t cap)
{
	for (size_t i = 0; i < n && i < cap && problems; i++)
		problems[i] = found[i];
	return n;
}

/* The name part of a key; is_label_name does not depend on letter case. */
static void name_problems(const char *name, size_t nlen, const char **found, size_t *n)
{
	if (nlen == 0)
		found[(*n)++] = msg_name_empty;
	else if (nlen > KP_LABEL_NAME_MAX_LEN)
		found[(*n)++] = msg_name_long;
	if (!is_label_name(name, nlen))
		found[(*n)++] = msg_name_format;
}

static void prefix_problems(const char *prefix, size_t plen, const char **found, size_t *n)
{
	if (plen == 0) {
		found[(*n)++] = msg_prefix_empty;
		return;
	}
	if (plen > KP_LABEL_PREFIX_MAX_LEN)
		found[(*n)++] = msg_prefix_long;
	if (!is_dns1123_subdomain(prefix, plen))
		found[(*n)++] = msg_prefix_format;
}

size_t kp__label_key_parts_problems(const char *prefix, size_t prefix_len, const char *name,
				    size_t name_len, const char **problems, size_t cap)
{
	const char *found[KP_LABEL_MAX_PROBLEMS];
	size_t n = 0;
	prefix = str(prefix);
	name = str(name);
	if (memchr(prefix, '/', prefix_len) || memchr(name, '/', name_len)) {
		found[n++] = msg_key_parts;
		return report(found, n, problems, cap);
	}
	prefix_problems(prefix, prefix_len, found, &n);
	name_problems(name, name_len, found, &n);
	return report(found, n, problems, cap);
}

KP_EXPORT size_t kp_label_key_problems(const char *key, const char **problems, size_t cap)
{
	const char *found[KP_LABEL_MAX_PROBLEMS];
	size_t n = 0;
	const char *name = str(key);
	const char *slash = strchr(name, '/');

	if (slash) {
		if (strchr(slash + 1, '/')) {
			found[n++] = msg_key_parts;
			return report(found, n, problems, cap);
		}
		prefix_problems(name, (size_t)(slash - name), found, &n);
		name = slash + 1;
	}
	name_problems(name, strlen(name), found, &n);
	return report(found, n, problems, cap);
}

KP_EXPORT size_t kp_label_value_problems(const char *value, const char **problems, size_t cap)
{
	const char *found[2];
	size_t n = 0;
	size_t len = strlen(str(value));

	if (len > KP_LABEL_VALUE_MAX_LEN)
		found[n++] = msg_value_long;
	if (len > 0 && !is_label_name(value, len))
		found[n++] = msg_value_format;
	return report(found, n, problems, cap);
}

/* field.Invalid(path, value, detail).ErrorBody(), with the field left to callers. */
static int invalid_value(kp_error *err, const char *value, const char *detail)
{
	if (!err)
		return KP_EINVAL;
	char quoted[KP_ERROR_MESSAGE_MAX];
	kp__go_quote(quoted, sizeof(quoted), value);
	return kp__error(err, KP_EINVAL, NULL, "Invalid value: %s: %s", quoted, detail);
}

KP_EXPORT int kp_label_key_validate(const char *key, kp_error *err)
{
	const char *problem;
	if (kp_label_key_problems(key, &problem, 1) == 0)
		return KP_OK;
	return invalid_value(err, key, problem);
}

KP_EXPORT int kp_label_value_validate(const char *value, kp_error *err)
{
	const char *problem;
	if (kp_label_value_problems(value, &problem, 1) == 0)
		return KP_OK;
	return invalid_value(err, value, problem);
}

KP_EXPORT int kp_labels_validate(const kp_labels *labels, kp_error *err)
{
	if (!labels || labels->count == 0)
		return KP_OK;
	if (!labels->items)
		return kp__error(err, KP_EINVAL, NULL, "items is NULL but count is %zu",
				 labels->count);
	for (size_t i = 0; i < labels->count; i++) {
		int rc = kp_label_key_validate(labels->items[i].key, err);
		if (rc == KP_OK)
			rc = kp_label_value_validate(labels->items[i].value, err);
		if (rc != KP_OK)
			return rc;
	}
	return KP_OK;
}

/* ---- label maps ----------------------------------------------------------- */

static const char *lookup(const kp_labels *labels, const char *key)
{
	if (!labels || !labels->items || !key)
		return NULL;
	for (size_t i = 0; i < labels->count; i++)
		if (strcmp(str(labels->items[i].key), key) == 0)
			return str(labels->items[i].value);
	return NULL;
}

KP_EXPORT const char *kp_labels_get(const kp_labels *labels, const char *key)
{
	return lookup(labels, key);
}

/* Position of key in a sorted map, or where it would be inserted. */
struct label_key {
	const kp_labels *labels;
	const char *key;
};

static int label_cmp_at(const void *ctx, size_t i)
{
	const struct label_key *k = ctx;
	return strcmp(k->labels->items[i].key, k->key);
}

static size_t lower_bound(const kp_labels *labels, const char *key, int *found)
{
	struct label_key k = { labels, key };
	return kp__sorted_find(labels->count, label_cmp_at, &k, found);
}

KP_EXPORT int kp_labels_set(kp_labels *labels, const char *key, const char *value, kp_error *err)
{
	if (!labels || !key)
		return kp__error(err, KP_EINVAL, NULL, "%s is NULL", labels ? "key" : "labels");
	if (labels->count && !labels->items)
		return kp__error(err, KP_EINVAL, NULL, "items is NULL but count is %zu",
				 labels->count);

	int found;
	size_t pos = lower_bound(labels, key, &found);
	char *v = kp__strdup(str(value));
	if (!v)
		return kp__error(err, KP_ENOMEM, NULL, "out of memory copying a label value");
	if (found) {
		free_str(labels->items[pos].value);
		labels->items[pos].value = v;
		return KP_OK;
	}

	char *k = kp__strdup(key);
	kp_label *items = NULL;
	/* Growing by one keeps any kp__malloc'd array valid as a library-owned map. */
	if (k && labels->count < SIZE_MAX / sizeof(kp_label) - 1)
		items = kp__realloc(labels->items, (labels->count + 1) * sizeof(kp_label));
	if (!items) {
		kp__free(k);
		kp__free(v);
		return kp__error(err, KP_ENOMEM, NULL, "out of memory adding a label");
	}
	memmove(items + pos + 1, items + pos, (labels->count - pos) * sizeof(kp_label));
	items[pos].key = k;
	items[pos].value = v;
	labels->items = items;
	labels->count++;
	return KP_OK;
}

KP_EXPORT int kp_labels_remove(kp_labels *labels, const char *key, kp_error *err)
{
	if (!labels || !key)
		return kp__error(err, KP_EINVAL, NULL, "%s is NULL", labels ? "key" : "labels");
	for (size_t i = 0; labels->items && i < labels->count; i++) {
		if (strcmp(str(labels->items[i].key), key) != 0)
			continue;
		free_str(labels->items[i].key);
		free_str(labels->items[i].value);
		memmove(labels->items + i, labels->items + i + 1,
			(labels->count - i - 1) * sizeof(kp_label));
		if (--labels->count == 0) {
			kp__free(labels->items);
			labels->items = NULL;
		}
		return KP_OK;
	}
	return KP_ENOTFOUND;
}

KP_EXPORT void kp_labels_dispose(kp_labels *labels)
{
	if (!labels)
		return;
	for (size_t i = 0; labels->items && i < labels->count; i++) {
		free_str(labels->items[i].key);
		free_str(labels->items[i].value);
	}
	kp__free(labels->items);
	labels->items = NULL;
	labels->count = 0;
}

static int cmp_label(const void *a, const void *b)
{
	return strcmp(((const kp_label *)a)->key, ((const kp_label *)b)->key);
}

/* Index in src of the second occurrence of key (src has at least two). */
static size_t second_occurrence(const kp_labels *src, const char *key)
{
	size_t seen = 0, i = 0;
	for (; i < src->count; i++)
		if (strcmp(src->items[i].key, key) == 0 && seen++ == 1)
			break;
	return i;
}

KP_EXPORT int kp_labels_copy(kp_labels *out, const kp_labels *src, kp_error *err)
{
	if (!out)
		return kp__error(err, KP_EINVAL, NULL, "out is NULL");
	size_t n = src ? src->count : 0;
	if (n == 0) {
		out->items = NULL;
		out->count = 0;
		return KP_OK;
	}
	if (!src->items)
		return kp__error(err, KP_EINVAL, NULL, "items is NULL but count is %zu", n);
	for (size_t i = 0; i < n; i++)
		if (!src->items[i].key) {
			kp__error(err, KP_EINVAL, "key", "key is NULL");
			char idx[32];
			snprintf(idx, sizeof(idx), "[%zu]", i);
			kp__error_prefix(err, idx);
			return KP_EINVAL;
		}

	kp_labels copy = { kp__calloc(n, sizeof(kp_label)), 0 };
	if (!copy.items)
		return kp__error(err, KP_ENOMEM, NULL, "out of memory copying labels");
	for (; copy.count < n; copy.count++) {
		kp_label *dst = &copy.items[copy.count];
		dst->key = kp__strdup(src->items[copy.count].key);
		dst->value = kp__strdup(str(src->items[copy.count].value));
		if (!dst->key || !dst->value) {
			copy.count++; /* dispose the partly copied pair too */
			kp_labels_dispose(&copy);
			return kp__error(err, KP_ENOMEM, NULL, "out of memory copying labels");
		}
	}
	qsort(copy.items, n, sizeof(kp_label), cmp_label);
	for (size_t i = 1; i < n; i++) {
		if (strcmp(copy.items[i - 1].key, copy.items[i].key) != 0)
			continue;
		if (err) {
			char quoted[KP_ERROR_MESSAGE_MAX], idx[32];
			kp__go_quote(quoted, sizeof(quoted), copy.items[i].key);
			snprintf(idx, sizeof(idx), "[%zu]", second_occurrence(src, copy.items[i].key));
			kp__error(err, KP_EINVAL, idx, "Duplicate value: %s", quoted);
		}
		kp_labels_dispose(&copy);
		return KP_EINVAL;
	}
	*out = copy;
	return KP_OK;
}

/* ---- selectors ------------------------------------------------------------ */

static const char *const selector_op_names[] = {
	[KP_LABEL_SELECTOR_OP_IN] = "In",
	[KP_LABEL_SELECTOR_OP_NOT_IN] = "NotIn",
	[KP_LABEL_SELECTOR_OP_EXISTS] = "Exists",
	[KP_LABEL_SELECTOR_OP_DOES_NOT_EXIST] = "DoesNotExist",
};
#define N_SELECTOR_OPS (sizeof(selector_op_names) / sizeof(selector_op_names[0]))

KP_EXPORT const char *kp_label_selector_op_name(uint32_t op)
{
	return op < N_SELECTOR_OPS && selector_op_names[op] ? selector_op_names[op] : "Unknown";
}

KP_EXPORT int kp_label_selector_op_parse(const char *text, uint32_t *out, kp_error *err)
{
	if (!text || !out)
		return kp__error(err, KP_EINVAL, NULL, "%s is NULL", text ? "out" : "text");
	for (uint32_t op = KP_LABEL_SELECTOR_OP_IN; op < N_SELECTOR_OPS; op++)
		if (strcmp(text, selector_op_names[op]) == 0) {
			*out = op;
			return KP_OK;
		}
	return invalid_value(err, text, "not a valid selector operator");
}

/* One requirement, checked as ValidateLabelSelectorRequirement orders it. */
static int check_requirement(const kp_label_selector_requirement *r, kp_error *err)
{
	size_t n = r->n_values;
	if (n && !r->values)
		return kp__error(err, KP_EINVAL, "values", "values is NULL but n_values is %zu", n);
	switch (r->op) {
	case KP_LABEL_SELECTOR_OP_IN:
	case KP_LABEL_SELECTOR_OP_NOT_IN:
		if (n == 0)
			return kp__error(err, KP_EINVAL, "values",
					 "Required value: must be specified when `operator` is 'In' or 'NotIn'");
		break;
	case KP_LABEL_SELECTOR_OP_EXISTS:
	case KP_LABEL_SELECTOR_OP_DOES_NOT_EXIST:
		if (n)
			return kp__error(err, KP_EINVAL, "values",
					 "Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'");
		break;
	default:
		/* 0 stands for Go's empty operator string. */
		if (r->op == 0)
			return kp__error(err, KP_EINVAL, "operator",
					 "Invalid value: \"\": not a valid selector operator");
		return kp__error(err, KP_EINVAL, "operator",
				 "Invalid value: %u: not a valid selector operator", (unsigned)r->op);
	}
	if (kp_label_key_validate(r->key, err) != KP_OK) {
		kp__error_prefix(err, "key");
		return KP_EINVAL;
	}
	for (size_t j = 0; j < n; j++) {
		if (kp_label_value_validate(r->values[j], err) == KP_OK)
			continue;
		if (err) {
			char path[40];
			snprintf(path, sizeof(path), "values[%zu]", j);
			kp__error_prefix(err, path);
		}
		return KP_EINVAL;
	}
	return KP_OK;
}

static int check_selector(const kp_label_selector *sel, kp_error *err)
{
	if (kp_labels_validate(&sel->match_labels, err) != KP_OK) {
		kp__error_prefix(err, "matchLabels");
		return KP_EINVAL;
	}
	if (sel->n_match_expressions && !sel->match_expressions)
		return kp__error(err, KP_EINVAL, "matchExpressions",
				 "match_expressions is NULL but n_match_expressions is %zu",
				 sel->n_match_expressions);
	for (size_t i = 0; i < sel->n_match_expressions; i++) {
		if (check_requirement(&sel->match_expressions[i], err) == KP_OK)
			continue;
		if (err) {
			char path[48];
			snprintf(path, sizeof(path), "matchExpressions[%zu]", i);
			kp__error_prefix(err, path);
		}
		return KP_EINVAL;
	}
	return KP_OK;
}

KP_EXPORT int kp_label_selector_validate(const kp_label_selector *selector, kp_error *err)
{
	return selector ? check_selector(selector, err) : KP_OK;
}

static int has_value(const kp_label_selector_requirement *r, const char *value)
{
	for (size_t i = 0; i < r->n_values; i++)
		if (strcmp(str(r->values[i]), value) == 0)
			return 1;
	return 0;
}

KP_EXPORT int kp_label_selector_matches(const kp_label_selector *selector, const kp_labels *labels)
{
	if (!selector)
		return 0;
	if (selector->match_labels.count == 0 && selector->n_match_expressions == 0)
		return 1;
	if (check_selector(selector, NULL) != KP_OK)
		return 0;

	for (size_t i = 0; i < selector->match_labels.count; i++) {
		const kp_label *want = &selector->match_labels.items[i];
		const char *have = lookup(labels, str(want->key));
		if (!have || strcmp(have, str(want->value)) != 0)
			return 0;
	}
	for (size_t i = 0; i < selector->n_match_expressions; i++) {
		const kp_label_selector_requirement *r = &selector->match_expressions[i];
		const char *have = lookup(labels, str(r->key));
		switch (r->op) {
		case KP_LABEL_SELECTOR_OP_IN:
			if (!have || !has_value(r, have))
				return 0;
			break;
		case KP_LABEL_SELECTOR_OP_NOT_IN:
			if (have && has_value(r, have))
				return 0;
			break;
		case KP_LABEL_SELECTOR_OP_EXISTS:
			if (!have)
				return 0;
			break;
		default: /* DoesNotExist; other operators were rejected above */
			if (have)
				return 0;
			break;
		}
	}
	return 1;
}
