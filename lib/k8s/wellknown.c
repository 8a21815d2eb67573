/*
 * Well-known labels, restricted label domains and label normalization
 * (upstream pkg/apis/v1/labels.go), as a rule set instead of package globals.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <string.h>

#include <karpenter/wellknown.h>

#include "kp_internal.h"

/*
 * Every list is kept sorted (byte order) so lookups are binary searches and
 * the lists print in the order upstream's sets.List gives.
 */
struct strvec {
	const char **items;
	size_t count;
	size_t cap;
};

struct alias {
	const char *key;  /* value aliases only: the normalized key they apply to */
	const char *from;
	const char *to;
};

struct aliasvec {
	struct alias *items;
	size_t count;
	size_t cap;
};

struct kp_wellknown {
	struct strvec labels;
	struct strvec domains;
	struct aliasvec key_aliases;   /* sorted by from */
	struct aliasvec value_aliases; /* sorted by (key, from) */
};

/* The core rule set, used when a caller passes NULL. Never written. */
static const char *core_labels[] = {
	KP_LABEL_CAPACITY_TYPE,
	KP_LABEL_NODEPOOL,
	KP_LABEL_ARCH,
	KP_LABEL_OS,
	KP_LABEL_INSTANCE_TYPE,
	KP_LABEL_WINDOWS_BUILD,
	KP_LABEL_TOPOLOGY_REGION,
	KP_LABEL_TOPOLOGY_ZONE,
};

static const char *core_domains[] = { KP_GROUP };

static struct alias core_key_aliases[] = {
	{ NULL, KP_LABEL_ARCH_BETA, KP_LABEL_ARCH },
	{ NULL, KP_LABEL_INSTANCE_TYPE_BETA, KP_LABEL_INSTANCE_TYPE },
	{ NULL, KP_LABEL_OS_BETA, KP_LABEL_OS },
	{ NULL, KP_LABEL_FAILURE_DOMAIN_BETA_REGION, KP_LABEL_TOPOLOGY_REGION },
	{ NULL, KP_LABEL_FAILURE_DOMAIN_BETA_ZONE, KP_LABEL_TOPOLOGY_ZONE },
};

#define N_ELEM(a) (sizeof(a) / sizeof((a)[0]))

static const struct kp_wellknown core_rules = {
	{ core_labels, N_ELEM(core_labels), 0 },
	{ core_domains, N_ELEM(core_domains), 0 },
	{ core_key_aliases, N_ELEM(core_key_aliases), 0 },
	{ NULL, 0, 0 },
};

static const struct kp_wellknown *rules(const kp_wellknown *wk)
{
	return wk ? wk : &core_rules;
}

/* Index of s in v, or the insertion point with *found = 0. */
static size_t strvec_find(const struct strvec *v, const char *s, int *found)
{
	return kp__strs_find(v->items, v->count, s, found);
}

static int alias_cmp(const struct alias *a, const char *key, const char *from)
{
	if (key) {
		int c = strcmp(a->key, key);
		if (c)
			return c;
	}
	return strcmp(a->from, from);
}

struct alias_key {
	const struct aliasvec *v;
	const char *key, *from;
};

static int alias_cmp_at(const void *ctx, size_t i)
{
	const struct alias_key *k = ctx;
	return alias_cmp(&k->v->items[i], k->key, k->from);
}

static size_t aliasvec_find(const struct aliasvec *v, const char *key, const char *from,
			    int *found)
{
	struct alias_key k = { v, key, from };
	return kp__sorted_find(v->count, alias_cmp_at, &k, found);
}

static int strvec_insert(struct strvec *v, const char *s)
{
	int found;
	size_t at = strvec_find(v, s, &found);
	if (found)
		return KP_OK;
	if (kp__grow((void **)&v->items, &v->cap, v->count + 1, sizeof(*v->items)) != KP_OK)
		return KP_ENOMEM;
	char *copy = kp__strdup(s);
	if (!copy)
		return KP_ENOMEM;
	memmove(v->items + at + 1, v->items + at, (v->count - at) * sizeof(*v->items));
	v->items[at] = copy;
	v->count++;
	return KP_OK;
}

static void strvec_dispose(struct strvec *v)
{
	for (size_t i = 0; i < v->count; i++)
		kp__free((void *)(uintptr_t)v->items[i]);
	kp__free(v->items);
}

static void alias_dispose(struct alias *a)
{
	kp__free((void *)(uintptr_t)a->key);
	kp__free((void *)(uintptr_t)a->from);
	kp__free((void *)(uintptr_t)a->to);
}

static void aliasvec_dispose(struct aliasvec *v)
{
	for (size_t i = 0; i < v->count; i++)
		alias_dispose(&v->items[i]);
	kp__free(v->items);
}

/* Insert or replace; key is NULL for key aliases. */
static int aliasvec_put(struct aliasvec *v, const char *key, const char *from, const char *to)
{
	struct alias a = { NULL, NULL, NULL };
	if ((key && !(a.key = kp__strdup(key))) || !(a.from = kp__strdup(from)) ||
	    !(a.to = kp__strdup(to))) {
		alias_dispose(&a);
		return KP_ENOMEM;
	}
	int found;
	size_t at = aliasvec_find(v, key, from, &found);
	if (found) {
		alias_dispose(&v->items[at]);
		v->items[at] = a;
		return KP_OK;
	}
	if (kp__grow((void **)&v->items, &v->cap, v->count + 1, sizeof(*v->items)) != KP_OK) {
		alias_dispose(&a);
		return KP_ENOMEM;
	}
	memmove(v->items + at + 1, v->items + at, (v->count - at) * sizeof(*v->items));
	v->items[at] = a;
	v->count++;
	return KP_OK;
}

KP_EXPORT int kp_wellknown_new(kp_wellknown **out, kp_error *err)
{
	if (!out)
		return kp__error(err, KP_EINVAL, NULL, "out is NULL");
	*out = NULL;
	kp_wellknown *wk = kp__calloc(1, sizeof(*wk));
	if (!wk)
		return kp__error(err, KP_ENOMEM, NULL, "out of memory");
	int rc = KP_OK;
	for (size_t i = 0; rc == KP_OK && i < N_ELEM(core_labels); i++)
		rc = strvec_insert(&wk->labels, core_labels[i]);
	for (size_t i = 0; rc == KP_OK && i < N_ELEM(core_domains); i++)
		rc = strvec_insert(&wk->domains, core_domains[i]);
	for (size_t i = 0; rc == KP_OK && i < N_ELEM(core_key_aliases); i++)
		rc = aliasvec_put(&wk->key_aliases, NULL, core_key_aliases[i].from,
				  core_key_aliases[i].to);
	if (rc != KP_OK) {
		kp_wellknown_free(wk);
		return kp__error(err, rc, NULL, "out of memory");
	}
	*out = wk;
	return KP_OK;
}

KP_EXPORT void kp_wellknown_free(kp_wellknown *wk)
{
	if (!wk)
		return;
	strvec_dispose(&wk->labels);
	strvec_dispose(&wk->domains);
	aliasvec_dispose(&wk->key_aliases);
	aliasvec_dispose(&wk->value_aliases);
	kp__free(wk);
}

static int check_nonempty(const char *s, const char *field, kp_error *err)
{
	if (!s)
		return kp__error(err, KP_EINVAL, field, "%s is NULL", field);
	if (!*s)
		return kp__error(err, KP_EINVAL, field, "%s is empty", field);
	return KP_OK;
}

KP_EXPORT int kp_wellknown_add_label(kp_wellknown *wk, const char *key, kp_error *err)
{
	if (!wk)
		return kp__error(err, KP_EINVAL, NULL, "rule set is NULL");
	int rc = check_nonempty(key, "key", err);
	if (rc != KP_OK)
		return rc;
	if (strvec_insert(&wk->labels, key) != KP_OK)
		return kp__error(err, KP_ENOMEM, NULL, "out of memory");
	return KP_OK;
}

KP_EXPORT int kp_wellknown_add_restricted_domain(kp_wellknown *wk, const char *domain,
						 kp_error *err)
{
	if (!wk)
		return kp__error(err, KP_EINVAL, NULL, "rule set is NULL");
	int rc = check_nonempty(domain, "domain", err);
	if (rc != KP_OK)
		return rc;
	if (strvec_insert(&wk->domains, domain) != KP_OK)
		return kp__error(err, KP_ENOMEM, NULL, "out of memory");
	return KP_OK;
}

KP_EXPORT int kp_wellknown_add_key_alias(kp_wellknown *wk, const char *alias, const char *key,
					 kp_error *err)
{
	if (!wk)
		return kp__error(err, KP_EINVAL, NULL, "rule set is NULL");
	int rc = check_nonempty(alias, "alias", err);
	if (rc == KP_OK)
		rc = check_nonempty(key, "key", err);
	if (rc != KP_OK)
		return rc;
	/* Normalization is applied once, so a self-alias would be a silent no-op. */
	if (strcmp(alias, key) == 0)
		return kp__error(err, KP_EINVAL, "alias", "label %s cannot be an alias of itself", key);
	if (aliasvec_put(&wk->key_aliases, NULL, alias, key) != KP_OK)
		return kp__error(err, KP_ENOMEM, NULL, "out of memory");
	return KP_OK;
}

KP_EXPORT int kp_wellknown_add_value_alias(kp_wellknown *wk, const char *key, const char *alias,
					   const char *value, kp_error *err)
{
	if (!wk)
		return kp__error(err, KP_EINVAL, NULL, "rule set is NULL");
	int rc = check_nonempty(key, "key", err);
	if (rc != KP_OK)
		return rc;
	if (!alias)
		return kp__error(err, KP_EINVAL, "alias", "alias is NULL");
	if (!value)
		return kp__error(err, KP_EINVAL, "value", "value is NULL");
	if (aliasvec_put(&wk->value_aliases, key, alias, value) != KP_OK)
		return kp__error(err, KP_ENOMEM, NULL, "out of memory");
	return KP_OK;
}

KP_EXPORT int kp_wellknown_has(kp_wellknown *wk, const char *key)
{
	if (!key)
		return 0;
	int found;
	strvec_find(&rules(wk)->labels, key, &found);
	return found;
}

KP_EXPORT size_t kp_wellknown_count(kp_wellknown *wk)
{
	return rules(wk)->labels.count;
}

KP_EXPORT const char *kp_wellknown_at(kp_wellknown *wk, size_t index)
{
	const struct kp_wellknown *r = rules(wk);
	return index < r->labels.count ? r->labels.items[index] : NULL;
}

KP_EXPORT const char *kp_wellknown_normalize_key(kp_wellknown *wk, const char *key)
{
	if (!key)
		return NULL;
	const struct aliasvec *v = &rules(wk)->key_aliases;
	int found;
	size_t at = aliasvec_find(v, NULL, key, &found);
	return found ? v->items[at].to : key;
}

KP_EXPORT const char *kp_wellknown_normalize_value(kp_wellknown *wk, const char *key,
						   const char *value)
{
	const struct aliasvec *v = &rules(wk)->value_aliases;
	if (v->count == 0 || !key || !value)
		return value;
	int found;
	size_t at = aliasvec_find(v, key, value, &found);
	return found ? v->items[at].to : value;
}

KP_EXPORT size_t kp_wellknown_label_domain(const char *key, const char **domain)
{
	const char *slash = key ? strchr(key, '/') : NULL;
	if (domain)
		*domain = slash ? key : "";
	return slash ? (size_t)(slash - key) : 0;
}

KP_EXPORT int kp_wellknown_is_restricted_label(const char *key)
{
	return key && strcmp(key, KP_LABEL_HOSTNAME) == 0;
}

/* domain equals d, or ends with "." d */
static int in_domain(const char *domain, size_t len, const char *d)
{
	size_t dl = strlen(d);
	if (len == dl)
		return memcmp(domain, d, dl) == 0;
	return len > dl && domain[len - dl - 1] == '.' && memcmp(domain + len - dl, d, dl) == 0;
}

static int is_restricted(const struct kp_wellknown *r, const char *key)
{
	int found;
	strvec_find(&r->labels, key, &found);
	if (found)
		return 0;
	const char *domain;
	size_t len = kp_wellknown_label_domain(key, &domain);
	for (size_t i = 0; i < r->domains.count; i++)
		if (in_domain(domain, len, r->domains.items[i]))
			return 1;
	return kp_wellknown_is_restricted_label(key);
}

/* Go's fmt of a []string: "[a b c]" */
static void sb_list(kp__sbuf *b, const struct strvec *v)
{
	kp__sbuf_put(b, "[");
	for (size_t i = 0; i < v->count; i++) {
		if (i)
			kp__sbuf_put(b, " ");
		kp__sbuf_put(b, v->items[i]);
	}
	kp__sbuf_put(b, "]");
}

static size_t restricted_message(const struct kp_wellknown *r, const char *key, char *buf,
				 size_t size)
{
	kp__sbuf b = KP__SBUF(buf, size);
	kp__sbuf_put(&b, "using label ");
	kp__sbuf_put(&b, key ? key : "");
	kp__sbuf_put(&b, " is not allowed as it might interfere with the internal provisioning logic; "
		   "specify a well known label: ");
	sb_list(&b, &r->labels);
	kp__sbuf_put(&b, ", or a custom label that does not use a restricted domain: ");
	sb_list(&b, &r->domains);
	return kp__sbuf_end(&b);
}

KP_EXPORT size_t kp_wellknown_restricted_message(kp_wellknown *wk, const char *key, char *buf,
						 size_t size)
{
	return restricted_message(rules(wk), key, buf, size);
}

KP_EXPORT int kp_wellknown_check_restricted(kp_wellknown *wk, const char *key, kp_error *err)
{
	if (!key)
		return kp__error(err, KP_EINVAL, "key", "key is NULL");
	const struct kp_wellknown *r = rules(wk);
	if (!is_restricted(r, key))
		return KP_OK;
	if (err) {
		char msg[KP_ERROR_MESSAGE_MAX];
		restricted_message(r, key, msg, sizeof(msg));
		kp__error(err, KP_EINVAL, "key", "%s", msg);
	}
	return KP_EINVAL;
}
