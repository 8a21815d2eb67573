/*
 * Resource lists and pod effective requests/limits.
 *
 * Library-owned lists are sorted by name and carry no capacity field: their
 * capacity is implied by the count (the next power of two, at least 4), and
 * every growth goes through list_reserve, which keeps that true. Their names
 * are owned, except the well-known ones, which point at a static table so
 * the common lists ("cpu", "memory", "pods") cost no string allocation.
 *
 * The pod aggregation works on scratch lists that borrow names from the
 * inputs and live on the stack for typical sizes; only the final result is
 * copied into the caller's list, reusing its storage and names.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <karpenter/resources.h>

#include "common/sized.h"
#include "kp_internal.h"

/* Entries of x handled on the stack before falling back to the heap. */
#define SMALL_N 16

/* ---------------------------------------------------------------- names */

static const char *const interned[] = {
	KP_RESOURCE_CPU, KP_RESOURCE_MEMORY, KP_RESOURCE_PODS, KP_RESOURCE_EPHEMERAL_STORAGE,
	KP_RESOURCE_STORAGE, KP_RESOURCE_HUGEPAGES_2MI, KP_RESOURCE_HUGEPAGES_1GI, KP_RESOURCE_NODES,
};
#define N_INTERNED (sizeof(interned) / sizeof(interned[0]))

/* A name the list may own: the static copy of a well-known name, or a dup. */
static const char *own_name(const char *name)
{
	for (size_t i = 0; i < N_INTERNED; i++)
		if (strcmp(name, interned[i]) == 0)
			return interned[i];
	return kp__strdup(name);
}

static void release_name(const char *name)
{
	if (!name)
		return;
	for (size_t i = 0; i < N_INTERNED; i++)
		if (name == interned[i])
			return;
	kp__free((void *)(uintptr_t)name);
}

static int is_pod_level_resource(const char *name)
{
	return strcmp(name, KP_RESOURCE_CPU) == 0 || strcmp(name, KP_RESOURCE_MEMORY) == 0 ||
	       strncmp(name, KP_RESOURCE_HUGEPAGES_PREFIX, sizeof(KP_RESOURCE_HUGEPAGES_PREFIX) - 1) == 0;
}

static int nomem(kp_error *err)
{
	return kp__error(err, KP_ENOMEM, NULL, "out of memory");
}

static int overflow(kp_error *err, const char *name, const char *what)
{
	return kp__error(err, KP_ERANGE, name, "%s of resource \"%s\" does not fit in a quantity",
			 what, name);
}

/* ----------------------------------------------------------- validation */

/*
 * Names present, non-empty and distinct. *sorted tells whether the items are
 * strictly increasing, which also proves distinctness in one pass; unsorted
 * (caller-built) lists get the quadratic check, fine for their sizes.
 */
static int check_list(const kp_resource_list *l, const char *what, int *sorted, kp_error *err)
{
	if (!l)
		return kp__error(err, KP_EINVAL, what, "%s is NULL", what);
	if (l->count && !l->items)
		return kp__error(err, KP_EINVAL, what, "%s has %zu items but no array", what,
				 l->count);
	char field[KP_ERROR_FIELD_MAX];
	int s = 1;
	for (size_t i = 0; i < l->count; i++) {
		const char *name = l->items[i].name;
		if (!name || !*name) {
			snprintf(field, sizeof(field), "%s[%zu].name", what, i);
			return kp__error(err, KP_EINVAL, field, "resource name is %s",
					 name ? "empty" : "NULL");
		}
		if (s && i && strcmp(l->items[i - 1].name, name) >= 0)
			s = 0;
	}
	if (!s)
		for (size_t i = 1; i < l->count; i++)
			for (size_t j = 0; j < i; j++)
				if (strcmp(l->items[j].name, l->items[i].name) == 0) {
					snprintf(field, sizeof(field), "%s[%zu].name", what, i);
					return kp__error(err, KP_EINVAL, field,
							 "duplicate resource name \"%s\"",
							 l->items[i].name);
				}
	if (sorted)
		*sorted = s;
	return KP_OK;
}

/* A list the library may grow must be one it built: sorted by name. */
static int check_owned(const kp_resource_list *l, const char *what, kp_error *err)
{
	int sorted;
	int rc = check_list(l, what, &sorted, err);
	if (rc == KP_OK && !sorted)
		rc = kp__error(err, KP_EINVAL, what,
			       "%s is not sorted by name, so it is not a library-owned list", what);
	return rc;
}

/* -------------------------------------------------------------- lookups */

/* Lower bound of name in sorted items; *found tells whether it is there. */
struct resource_key {
	const kp_resource *items;
	const char *name;
};

static int resource_cmp_at(const void *ctx, size_t i)
{
	const struct resource_key *k = ctx;
	return strcmp(k->items[i].name, k->name);
}

static size_t lower_bound(const kp_resource *items, size_t n, const char *name, int *found)
{
	struct resource_key k = { items, name };
	return kp__sorted_find(n, resource_cmp_at, &k, found);
}

static const kp_resource *lookup(const kp_resource *items, size_t n, int sorted, const char *name)
{
	if (sorted) {
		int found;
		size_t i = lower_bound(items, n, name, &found);
		return found ? &items[i] : NULL;
	}
	for (size_t i = 0; i < n; i++)
		if (strcmp(items[i].name, name) == 0)
			return &items[i];
	return NULL;
}

/* ----------------------------------------------------- owned list growth */

static size_t implied_cap(size_t count)
{
	if (!count)
		return 0;
	size_t cap = 4;
	while (cap < count)
		cap *= 2;
	return cap;
}

static int list_reserve(kp_resource_list *l, size_t need)
{
	size_t cap = implied_cap(l->count);
	if (need <= cap)
		return KP_OK;
	void *p = l->items;
	int rc = kp__grow(&p, &cap, need, sizeof(kp_resource));
	if (rc == KP_OK)
		l->items = p;
	return rc;
}

/* Insert at pos; capacity must already be reserved. */
static void list_insert(kp_resource_list *l, size_t pos, const char *name, const kp_quantity *q)
{
	memmove(&l->items[pos + 1], &l->items[pos], (l->count - pos) * sizeof(kp_resource));
	l->items[pos].name = name;
	l->items[pos].quantity = *q;
	l->count++;
}

/*
 * Replace the contents of owned list out with n sorted, distinct items whose
 * names are borrowed (and must not point into out->items). Names out already
 * holds are kept, so a recycled list reaches a steady state without
 * allocating. out is unchanged on failure.
 */
static int list_assign(kp_resource_list *out, const kp_resource *items, size_t n, kp_error *err)
{
	struct slot {
		const char *name;
		int kept; /* carried over from out, so not ours to free on failure */
	} small[SMALL_N], *names = small;
	if (n > SMALL_N && !(names = kp__calloc(n, sizeof(*names))))
		return nomem(err);
	int rc = list_reserve(out, n);
	size_t done = 0;
	for (size_t j = 0; rc == KP_OK && done < n; done++) {
		const char *want = items[done].name;
		while (j < out->count && strcmp(out->items[j].name, want) < 0)
			j++;
		names[done].kept = j < out->count && strcmp(out->items[j].name, want) == 0;
		names[done].name = names[done].kept ? out->items[j++].name : own_name(want);
		if (!names[done].name)
			rc = KP_ENOMEM;
	}
	if (rc != KP_OK) {
		for (size_t i = 0; i < done; i++)
			if (!names[i].kept)
				release_name(names[i].name);
		if (names != small)
			kp__free(names);
		return nomem(err);
	}
	/* release the old names that were not carried over */
	for (size_t j = 0, i = 0; j < out->count; j++) {
		while (i < n && strcmp(items[i].name, out->items[j].name) < 0)
			i++;
		if (!(i < n && names[i].name == out->items[j].name))
			release_name(out->items[j].name);
	}
	for (size_t i = 0; i < n; i++) {
		out->items[i].name = names[i].name;
		out->items[i].quantity = items[i].quantity;
	}
	out->count = n;
	if (names != small)
		kp__free(names);
	return KP_OK;
}

/* --------------------------------------------------------- public: lists */

KP_EXPORT void kp_resources_dispose(kp_resource_list *list)
{
	if (!list)
		return;
	for (size_t i = 0; list->items && i < list->count; i++)
		release_name(list->items[i].name);
	kp__free(list->items);
	list->items = NULL;
	list->count = 0;
}

KP_EXPORT int kp_resources_get(kp_quantity *out, const kp_resource_list *list, const char *name,
			       kp_error *err)
{
	if (!out)
		return kp__error(err, KP_EINVAL, "out", "out is NULL");
	if (!name)
		return kp__error(err, KP_EINVAL, "name", "name is NULL");
	int sorted;
	int rc = check_list(list, "list", &sorted, err);
	if (rc != KP_OK)
		return rc;
	const kp_resource *r = lookup(list->items, list->count, sorted, name);
	if (!r) {
		kp_quantity zero = KP_QUANTITY_ZERO;
		*out = zero;
		return kp__error(err, KP_ENOTFOUND, name, "resource \"%s\" not found", name);
	}
	*out = r->quantity;
	return KP_OK;
}

KP_EXPORT int kp_resources_set(kp_resource_list *list, const char *name,
			       const kp_quantity *quantity, kp_error *err)
{
	if (!name || !*name)
		return kp__error(err, KP_EINVAL, "name", "resource name is %s",
				 name ? "empty" : "NULL");
	if (!quantity)
		return kp__error(err, KP_EINVAL, "quantity", "quantity is NULL");
	int rc = check_owned(list, "list", err);
	if (rc != KP_OK)
		return rc;
	int found;
	size_t pos = lower_bound(list->items, list->count, name, &found);
	if (found) {
		list->items[pos].quantity = *quantity;
		return KP_OK;
	}
	if (list_reserve(list, list->count + 1) != KP_OK)
		return nomem(err);
	const char *owned = own_name(name);
	if (!owned)
		return nomem(err);
	list_insert(list, pos, owned, quantity);
	return KP_OK;
}

static int cmp_resource(const void *a, const void *b)
{
	return strcmp(((const kp_resource *)a)->name, ((const kp_resource *)b)->name);
}

KP_EXPORT int kp_resources_copy(kp_resource_list *out, const kp_resource_list *src, kp_error *err)
{
	int sorted;
	int rc = check_list(src, "src", &sorted, err);
	if (rc == KP_OK)
		rc = check_owned(out, "out", err);
	if (rc != KP_OK)
		return rc;
	kp_resource small[SMALL_N];
	kp_resource *tmp = small;
	if (src->count > SMALL_N && !(tmp = kp__calloc(src->count, sizeof(*tmp))))
		return nomem(err);
	if (src->count)
		memcpy(tmp, src->items, src->count * sizeof(*tmp));
	if (!sorted)
		qsort(tmp, src->count, sizeof(*tmp), cmp_resource);
	rc = list_assign(out, tmp, src->count, err);
	if (tmp != small)
		kp__free(tmp);
	return rc;
}

enum merge_op { OP_ADD, OP_SUB, OP_MAX };

/*
 * acc = acc (op) x. Every result is computed and every allocation made before
 * acc is touched, so a failure leaves it as it was. insert_missing selects
 * whether names only in x join acc (as 0 op x, or x itself for max).
 */
static int merge_into(kp_resource_list *acc, const kp_resource_list *x, enum merge_op op,
		      int insert_missing, kp_error *err)
{
	int rc = check_owned(acc, "acc", err);
	if (rc == KP_OK)
		rc = check_list(x, "x", NULL, err);
	if (rc != KP_OK || x->count == 0)
		return rc;

	struct pending {
		kp_quantity q;
		size_t pos;       /* index in acc when present */
		const char *name; /* owned copy for a new entry, until committed */
		int state;        /* 0 skip, 1 present, 2 new */
	} small[SMALL_N], *p = small;
	if (x->count > SMALL_N && !(p = kp__calloc(x->count, sizeof(*p))))
		return nomem(err);

	for (size_t i = 0; i < x->count; i++)
		p[i].name = NULL;
	size_t n_new = 0;
	for (size_t i = 0; i < x->count && rc == KP_OK; i++) {
		const kp_resource *xi = &x->items[i];
		int found;
		p[i].pos = lower_bound(acc->items, acc->count, xi->name, &found);
		p[i].state = found ? 1 : insert_missing ? 2 : 0;
		if (p[i].state == 0)
			continue;
		if (p[i].state == 2) {
			n_new++;
			if (op != OP_SUB) {
				p[i].q = xi->quantity;
				continue;
			}
			/* 0 - x; a zero receiver takes x's format (Quantity.Sub) */
			kp_quantity zero = KP_QUANTITY_ZERO;
			p[i].q = zero;
		} else {
			p[i].q = acc->items[p[i].pos].quantity;
		}
		switch (op) {
		case OP_ADD:
			if (kp_quantity_add(&p[i].q, &xi->quantity, NULL) != KP_OK)
				rc = overflow(err, xi->name, "sum");
			break;
		case OP_SUB:
			if (kp_quantity_sub(&p[i].q, &xi->quantity, NULL) != KP_OK)
				rc = overflow(err, xi->name, "difference");
			break;
		case OP_MAX:
			if (kp_quantity_cmp(&xi->quantity, &p[i].q) > 0)
				p[i].q = xi->quantity;
			break;
		}
	}
	if (rc == KP_OK && n_new) {
		if (list_reserve(acc, acc->count + n_new) != KP_OK)
			rc = nomem(err);
		for (size_t i = 0; i < x->count && rc == KP_OK; i++)
			if (p[i].state == 2 && !(p[i].name = own_name(x->items[i].name)))
				rc = nomem(err);
	}
	if (rc == KP_OK) {
		/* values first: inserting shifts the positions found above */
		for (size_t i = 0; i < x->count; i++)
			if (p[i].state == 1)
				acc->items[p[i].pos].quantity = p[i].q;
		for (size_t i = 0; i < x->count; i++) {
			if (p[i].state != 2)
				continue;
			int found;
			size_t pos = lower_bound(acc->items, acc->count, p[i].name, &found);
			list_insert(acc, pos, p[i].name, &p[i].q);
			p[i].name = NULL;
		}
	}
	for (size_t i = 0; i < x->count; i++)
		release_name(p[i].name);
	if (p != small)
		kp__free(p);
	return rc;
}

KP_EXPORT int kp_resources_add(kp_resource_list *acc, const kp_resource_list *x, kp_error *err)
{
	return merge_into(acc, x, OP_ADD, 1, err);
}

KP_EXPORT int kp_resources_sub(kp_resource_list *acc, const kp_resource_list *x, kp_error *err)
{
	return merge_into(acc, x, OP_SUB, 0, err);
}

KP_EXPORT int kp_resources_sub_all(kp_resource_list *acc, const kp_resource_list *x,
				   kp_error *err)
{
	return merge_into(acc, x, OP_SUB, 1, err);
}

KP_EXPORT int kp_resources_max(kp_resource_list *acc, const kp_resource_list *x, kp_error *err)
{
	return merge_into(acc, x, OP_MAX, 1, err);
}

KP_EXPORT int kp_resources_min(kp_resource_list *acc, const kp_resource_list *x, kp_error *err)
{
	int x_sorted;
	int rc = check_owned(acc, "acc", err);
	if (rc == KP_OK)
		rc = check_list(x, "x", &x_sorted, err);
	if (rc != KP_OK)
		return rc;
	size_t kept = 0;
	for (size_t i = 0; i < acc->count; i++) {
		kp_resource r = acc->items[i];
		const kp_resource *xr = lookup(x->items, x->count, x_sorted, r.name);
		if (!xr) {
			release_name(r.name);
			continue;
		}
		if (kp_quantity_cmp(&xr->quantity, &r.quantity) < 0)
			r.quantity = xr->quantity;
		acc->items[kept++] = r;
	}
	acc->count = kept;
	return KP_OK;
}

KP_EXPORT int kp_resources_fits(const kp_resource_list *candidate, const kp_resource_list *total,
				kp_error *err)
{
	int total_sorted;
	int rc = check_list(candidate, "candidate", NULL, err);
	if (rc == KP_OK)
		rc = check_list(total, "total", &total_sorted, err);
	if (rc != KP_OK)
		return rc;
	char a[KP_QUANTITY_STRING_MAX], b[KP_QUANTITY_STRING_MAX];
	for (size_t i = 0; i < total->count; i++) {
		const kp_resource *t = &total->items[i];
		if (kp_quantity_sign(&t->quantity) >= 0)
			continue;
		if (!err)
			return KP_EINSUFFICIENT;
		kp_quantity_format(&t->quantity, a, sizeof(a));
		return kp__error(err, KP_EINSUFFICIENT, t->name,
				 "total %s is negative (%s), nothing fits", t->name, a);
	}
	kp_quantity zero = KP_QUANTITY_ZERO;
	for (size_t i = 0; i < candidate->count; i++) {
		const kp_resource *c = &candidate->items[i];
		const kp_resource *t = lookup(total->items, total->count, total_sorted, c->name);
		const kp_quantity *avail = t ? &t->quantity : &zero;
		if (kp_quantity_cmp(&c->quantity, avail) <= 0)
			continue;
		if (!err)
			return KP_EINSUFFICIENT;
		kp_quantity_format(&c->quantity, a, sizeof(a));
		kp_quantity_format(avail, b, sizeof(b));
		return kp__error(err, KP_EINSUFFICIENT, c->name,
				 "requested %s %s exceeds available %s", c->name, a, b);
	}
	return KP_OK;
}

KP_EXPORT int kp_resources_is_zero(const kp_resource_list *list)
{
	if (!list || !list->items)
		return 1;
	for (size_t i = 0; i < list->count; i++)
		if (kp_quantity_sign(&list->items[i].quantity) != 0)
			return 0;
	return 1;
}

/* ------------------------------------------------------- scratch lists */

/*
 * Sorted scratch list with borrowed names, inline storage for the usual
 * handful of resources. Never copied by value (items may point at buf).
 */
typedef struct work {
	kp_resource *items;
	size_t count;
	size_t cap;
	kp_resource buf[SMALL_N];
} work;

static void work_init(work *w)
{
	w->items = w->buf;
	w->count = 0;
	w->cap = SMALL_N;
}

static void work_fini(work *w)
{
	if (w->items != w->buf)
		kp__free(w->items);
}

static int work_reserve(work *w, size_t need, kp_error *err)
{
	if (need <= w->cap)
		return KP_OK;
	size_t cap = w->cap * 2;
	while (cap < need)
		cap *= 2;
	kp_resource *p = kp__calloc(cap, sizeof(*p));
	if (!p)
		return nomem(err);
	memcpy(p, w->items, w->count * sizeof(*p));
	work_fini(w);
	w->items = p;
	w->cap = cap;
	return KP_OK;
}

static int work_insert(work *w, size_t pos, const char *name, const kp_quantity *q, kp_error *err)
{
	int rc = work_reserve(w, w->count + 1, err);
	if (rc != KP_OK)
		return rc;
	memmove(&w->items[pos + 1], &w->items[pos], (w->count - pos) * sizeof(kp_resource));
	w->items[pos].name = name;
	w->items[pos].quantity = *q;
	w->count++;
	return KP_OK;
}

/* addResourceList: sum, adding missing names */
static int work_add(work *w, const kp_resource *items, size_t n, kp_error *err)
{
	for (size_t i = 0; i < n; i++) {
		int found;
		size_t pos = lower_bound(w->items, w->count, items[i].name, &found);
		int rc;
		if (!found)
			rc = work_insert(w, pos, items[i].name, &items[i].quantity, err);
		else if (kp_quantity_add(&w->items[pos].quantity, &items[i].quantity, NULL) != KP_OK)
			rc = overflow(err, items[i].name, "sum");
		else
			rc = KP_OK;
		if (rc != KP_OK)
			return rc;
	}
	return KP_OK;
}

/* maxResourceList: a strictly larger value (or a missing name) wins */
static int work_max(work *w, const kp_resource *items, size_t n, kp_error *err)
{
	for (size_t i = 0; i < n; i++) {
		int found;
		size_t pos = lower_bound(w->items, w->count, items[i].name, &found);
		if (!found) {
			int rc = work_insert(w, pos, items[i].name, &items[i].quantity, err);
			if (rc != KP_OK)
				return rc;
		} else if (kp_quantity_cmp(&items[i].quantity, &w->items[pos].quantity) > 0) {
			w->items[pos].quantity = items[i].quantity;
		}
	}
	return KP_OK;
}

/* Set name to q, adding it if missing. */
static int work_set(work *w, const char *name, const kp_quantity *q, kp_error *err)
{
	int found;
	size_t pos = lower_bound(w->items, w->count, name, &found);
	if (!found)
		return work_insert(w, pos, name, q, err);
	w->items[pos].quantity = *q;
	return KP_OK;
}

static int work_copy(work *dst, const work *src, kp_error *err)
{
	dst->count = 0;
	int rc = work_reserve(dst, src->count, err);
	if (rc != KP_OK)
		return rc;
	memcpy(dst->items, src->items, src->count * sizeof(kp_resource));
	dst->count = src->count;
	return KP_OK;
}

/* --------------------------------------------------------- pod inputs */

static int check_flag(uint32_t v, const char *field, kp_error *err)
{
	if (v > 1)
		return kp__error(err, KP_EINVAL, field, "%s must be 0 or 1, got %u", field,
				 (unsigned)v);
	return KP_OK;
}

static int check_optional_list(const kp_resource_list *l, const char *what, kp_error *err)
{
	return l ? check_list(l, what, NULL, err) : KP_OK;
}

static int check_container(const kp_container_resources *c, const char *where, kp_error *err)
{
	if (!c)
		return kp__error(err, KP_EINVAL, where, "%s is NULL", where);
	int rc = KP__CHECK_SIZED(c, kp_container_resources, err);
	if (rc == KP_OK)
		rc = check_flag(c->restartable, "restartable", err);
	if (rc == KP_OK)
		rc = check_optional_list(c->requests, "requests", err);
	if (rc == KP_OK)
		rc = check_optional_list(c->limits, "limits", err);
	if (rc == KP_OK)
		rc = check_optional_list(c->allocated, "allocated", err);
	if (rc == KP_OK)
		rc = check_optional_list(c->status_requests, "status_requests", err);
	if (rc != KP_OK)
		kp__error_prefix(err, where);
	return rc;
}

static int check_containers(const kp_container_resources *const *cs, size_t n, const char *what,
			    kp_error *err)
{
	if (n && !cs)
		return kp__error(err, KP_EINVAL, what, "%s is NULL but its count is %zu", what, n);
	char where[64];
	for (size_t i = 0; i < n; i++) {
		snprintf(where, sizeof(where), "%s[%zu]", what, i);
		int rc = check_container(cs[i], where, err);
		if (rc != KP_OK)
			return rc;
	}
	return KP_OK;
}

static int check_pod(const kp_pod_resources *pod, kp_error *err)
{
	int rc = KP__CHECK_SIZED(pod, kp_pod_resources, err);
	if (rc == KP_OK)
		rc = check_flag(pod->resize_infeasible, "resize_infeasible", err);
	if (rc == KP_OK)
		rc = check_containers(pod->containers, pod->n_containers, "containers", err);
	if (rc == KP_OK)
		rc = check_containers(pod->init_containers, pod->n_init_containers,
				      "init_containers", err);
	if (rc == KP_OK)
		rc = check_optional_list(pod->overhead, "overhead", err);
	if (rc == KP_OK)
		rc = check_optional_list(pod->pod_requests, "pod_requests", err);
	if (rc == KP_OK)
		rc = check_optional_list(pod->pod_limits, "pod_limits", err);
	return rc;
}

/* ------------------------------------------------------ pod aggregation */

/* Which per-container list an aggregation reads (component-helpers' getters). */
enum source { SRC_SPEC, SRC_ALLOCATED, SRC_ACTUATED, SRC_LIMITS };

typedef struct scratch {
	work tmp;      /* one container's defaulted requests */
	work sidecars; /* running sum of restartable init containers */
	work init_max; /* largest init-time use */
	work combined; /* one regular init container plus the sidecars before it */
	work allocated, actuated;
} scratch;

static void scratch_init(scratch *s)
{
	work_init(&s->tmp);
	work_init(&s->sidecars);
	work_init(&s->init_max);
	work_init(&s->combined);
	work_init(&s->allocated);
	work_init(&s->actuated);
}

static void scratch_fini(scratch *s)
{
	work_fini(&s->tmp);
	work_fini(&s->sidecars);
	work_fini(&s->init_max);
	work_fini(&s->combined);
	work_fini(&s->allocated);
	work_fini(&s->actuated);
}

typedef struct span {
	const kp_resource *items;
	size_t n;
} span;

static span span_of(const kp_resource_list *l)
{
	span s = { l ? l->items : NULL, l ? l->count : 0 };
	return s;
}

/* Spec requests with the API server's limit-to-request defaulting applied. */
static int spec_requests(const kp_container_resources *c, work *tmp, span *out, kp_error *err)
{
	if (!c->limits || c->limits->count == 0) {
		*out = span_of(c->requests);
		return KP_OK;
	}
	tmp->count = 0;
	span req = span_of(c->requests);
	int rc = work_add(tmp, req.items, req.n, err);
	for (size_t i = 0; rc == KP_OK && i < c->limits->count; i++) {
		const kp_resource *l = &c->limits->items[i];
		int found;
		size_t pos = lower_bound(tmp->items, tmp->count, l->name, &found);
		if (!found)
			rc = work_insert(tmp, pos, l->name, &l->quantity, err);
	}
	out->items = tmp->items;
	out->n = tmp->count;
	return rc;
}

static int container_source(const kp_container_resources *c, enum source src, int infeasible,
			    work *tmp, span *out, kp_error *err)
{
	if (src == SRC_LIMITS) {
		*out = span_of(c->limits);
		return KP_OK;
	}
	/* actuated: status, else allocated; allocated: allocated; both else spec */
	if (src == SRC_ACTUATED && c->status_requests) {
		*out = span_of(c->status_requests);
		return KP_OK;
	}
	if (src != SRC_SPEC && (c->allocated || infeasible)) {
		/* an infeasible resize leaves spec out */
		*out = span_of(c->allocated);
		return KP_OK;
	}
	return spec_requests(c, tmp, out, err);
}

/*
 * Containers summed; then init containers in order, each one's use being its
 * own resources plus the sidecars started before it, while every sidecar
 * also joins the long-running sum (KEP-753); the result is the per-resource
 * max of the sum and the largest init-time use.
 */
static int aggregate(const kp_pod_resources *pod, enum source src, work *result, scratch *s,
		     kp_error *err)
{
	int infeasible = (int)pod->resize_infeasible;
	span sp;
	int rc = KP_OK;
	result->count = 0;
	for (size_t i = 0; rc == KP_OK && i < pod->n_containers; i++) {
		rc = container_source(pod->containers[i], src, infeasible, &s->tmp, &sp, err);
		if (rc == KP_OK)
			rc = work_add(result, sp.items, sp.n, err);
	}
	s->sidecars.count = 0;
	s->init_max.count = 0;
	for (size_t i = 0; rc == KP_OK && i < pod->n_init_containers; i++) {
		const kp_container_resources *c = pod->init_containers[i];
		rc = container_source(c, src, infeasible, &s->tmp, &sp, err);
		if (rc != KP_OK)
			break;
		if (c->restartable) {
			rc = work_add(result, sp.items, sp.n, err);
			if (rc == KP_OK)
				rc = work_add(&s->sidecars, sp.items, sp.n, err);
			if (rc == KP_OK)
				rc = work_max(&s->init_max, s->sidecars.items, s->sidecars.count, err);
		} else if (s->sidecars.count == 0) {
			rc = work_max(&s->init_max, sp.items, sp.n, err);
		} else {
			s->combined.count = 0;
			rc = work_add(&s->combined, sp.items, sp.n, err);
			if (rc == KP_OK)
				rc = work_add(&s->combined, s->sidecars.items, s->sidecars.count, err);
			if (rc == KP_OK)
				rc = work_max(&s->init_max, s->combined.items, s->combined.count, err);
		}
	}
	if (rc == KP_OK)
		rc = work_max(result, s->init_max.items, s->init_max.count, err);
	return rc;
}

static int has_status(const kp_container_resources *const *cs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (cs[i]->allocated || cs[i]->status_requests)
			return 1;
	return 0;
}

/* Pod-level values replace the aggregate for the resources they may set. */
static int apply_pod_level(work *result, const kp_resource_list *pod_level, kp_error *err)
{
	span sp = span_of(pod_level);
	for (size_t i = 0; i < sp.n; i++) {
		if (!is_pod_level_resource(sp.items[i].name))
			continue;
		int rc = work_set(result, sp.items[i].name, &sp.items[i].quantity, err);
		if (rc != KP_OK)
			return rc;
	}
	return KP_OK;
}

static int pod_requests(const kp_pod_resources *pod, work *result, scratch *s, kp_error *err)
{
	int rc;
	if (!pod->resize_infeasible && !has_status(pod->containers, pod->n_containers) &&
	    !has_status(pod->init_containers, pod->n_init_containers)) {
		rc = aggregate(pod, SRC_SPEC, result, s, err);
	} else {
		/* max(spec, actuated, allocated), spec left out when infeasible */
		rc = aggregate(pod, SRC_ACTUATED, &s->actuated, s, err);
		if (rc == KP_OK)
			rc = aggregate(pod, SRC_ALLOCATED, &s->allocated, s, err);
		if (rc == KP_OK && !pod->resize_infeasible) {
			rc = aggregate(pod, SRC_SPEC, result, s, err);
			if (rc == KP_OK)
				rc = work_max(result, s->actuated.items, s->actuated.count, err);
		} else if (rc == KP_OK) {
			rc = work_copy(result, &s->actuated, err);
		}
		if (rc == KP_OK)
			rc = work_max(result, s->allocated.items, s->allocated.count, err);
	}
	if (rc == KP_OK)
		rc = apply_pod_level(result, pod->pod_requests, err);
	if (rc == KP_OK && pod->overhead)
		rc = work_add(result, pod->overhead->items, pod->overhead->count, err);
	return rc;
}

static int pod_limits(const kp_pod_resources *pod, work *result, scratch *s, kp_error *err)
{
	int rc = aggregate(pod, SRC_LIMITS, result, s, err);
	if (rc == KP_OK)
		rc = apply_pod_level(result, pod->pod_limits, err);
	/* overhead only raises limits that exist and are non-zero */
	span oh = span_of(pod->overhead);
	for (size_t i = 0; rc == KP_OK && i < oh.n; i++) {
		int found;
		size_t pos = lower_bound(result->items, result->count, oh.items[i].name, &found);
		if (found && kp_quantity_sign(&result->items[pos].quantity) != 0 &&
		    kp_quantity_add(&result->items[pos].quantity, &oh.items[i].quantity, NULL) != KP_OK)
			rc = overflow(err, oh.items[i].name, "sum");
	}
	return rc;
}

typedef int (*pod_fn)(const kp_pod_resources *, work *, scratch *, kp_error *);

static int one_pod(kp_resource_list *out, const kp_pod_resources *pod, pod_fn fn, kp_error *err)
{
	int rc = check_owned(out, "out", err);
	if (rc == KP_OK)
		rc = check_pod(pod, err);
	if (rc != KP_OK)
		return rc;
	scratch s;
	work result;
	scratch_init(&s);
	work_init(&result);
	rc = fn(pod, &result, &s, err);
	if (rc == KP_OK)
		rc = list_assign(out, result.items, result.count, err);
	work_fini(&result);
	scratch_fini(&s);
	return rc;
}

static int many_pods(kp_resource_list *out, const kp_pod_resources *const *pods, size_t n,
		     pod_fn fn, kp_error *err)
{
	int rc = check_owned(out, "out", err);
	if (rc != KP_OK)
		return rc;
	if (n && !pods)
		return kp__error(err, KP_EINVAL, "pods", "pods is NULL but n_pods is %zu", n);
	char where[32];
	for (size_t i = 0; i < n; i++) {
		rc = check_pod(pods[i], err);
		if (rc != KP_OK) {
			snprintf(where, sizeof(where), "pods[%zu]", i);
			kp__error_prefix(err, where);
			return rc;
		}
	}
	scratch s;
	work total, one;
	scratch_init(&s);
	work_init(&total);
	work_init(&one);
	for (size_t i = 0; rc == KP_OK && i < n; i++) {
		rc = fn(pods[i], &one, &s, err);
		if (rc == KP_OK)
			rc = work_add(&total, one.items, one.count, err);
	}
	if (rc == KP_OK) {
		/* n < INT64_MAX: the pods array itself holds n pointers */
		kp_quantity count;
		kp_quantity_from_scaled(&count, (int64_t)n, 0, KP_QUANTITY_DECIMAL_EXPONENT);
		rc = work_set(&total, KP_RESOURCE_PODS, &count, err);
	}
	if (rc == KP_OK)
		rc = list_assign(out, total.items, total.count, err);
	work_fini(&one);
	work_fini(&total);
	scratch_fini(&s);
	return rc;
}

/* ------------------------------------------------------- public: pods */

KP_EXPORT void kp_container_resources_init(kp_container_resources *c)
{
	if (c) {
		kp_container_resources init = KP_CONTAINER_RESOURCES_INIT;
		*c = init;
	}
}

KP_EXPORT void kp_pod_resources_init(kp_pod_resources *p)
{
	if (p) {
		kp_pod_resources init = KP_POD_RESOURCES_INIT;
		*p = init;
	}
}

KP_EXPORT int kp_resources_pod_requests(kp_resource_list *out, const kp_pod_resources *pod,
					kp_error *err)
{
	return one_pod(out, pod, pod_requests, err);
}

KP_EXPORT int kp_resources_pod_limits(kp_resource_list *out, const kp_pod_resources *pod,
				      kp_error *err)
{
	return one_pod(out, pod, pod_limits, err);
}

KP_EXPORT int kp_resources_requests_for_pods(kp_resource_list *out,
					     const kp_pod_resources *const *pods, size_t n_pods,
					     kp_error *err)
{
	return many_pods(out, pods, n_pods, pod_requests, err);
}

KP_EXPORT int kp_resources_limits_for_pods(kp_resource_list *out,
					   const kp_pod_resources *const *pods, size_t n_pods,
					   kp_error *err)
{
	return many_pods(out, pods, n_pods, pod_limits, err);
}
