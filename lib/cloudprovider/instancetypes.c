/*
 * The instance-type catalogue (upstream cloudprovider.InstanceType and
 * Offering) and the queries the scheduler runs on it.
 *
 * A catalogue is an array of individually allocated entries, so the views
 * handed out stay put while the array grows, plus an index sorted by name
 * for lookups and duplicate checks. Each entry holds the public view as its
 * first member and the storage the view points at. Entries and offerings
 * keep a pointer to their catalogue for the requirement sets every query
 * shares (the empty set, and one per capacity type), which are built once.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <float.h>
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <karpenter/cloudprovider.h>

#include "common/sized.h"
#include "kp_internal.h"
#include "cloudprovider_private.h"

/* The sizes published in 0.1: the smallest struct_size accepted. */

/* Capacity types in WorstLaunchPrice's order of precedence. */
static const char *const launch_order[] = {
	KP_CAPACITY_TYPE_RESERVED, KP_CAPACITY_TYPE_SPOT, KP_CAPACITY_TYPE_ON_DEMAND
};
#define N_LAUNCH (sizeof(launch_order) / sizeof(launch_order[0]))

struct off_entry {
	kp_offering view; /* first: a kp_offering * is a struct off_entry * */
	char *capacity_type;
	char *zone;
	char *reservation_id;
	const struct kp_instance_types *owner;
};

struct it_entry {
	kp_instance_type view; /* first: a kp_instance_type * is a struct it_entry * */
	char *name;
	kp_resource_list capacity;
	kp_resource_list overhead;
	kp_resource_list allocatable;
	kp_resource_list kube_reserved;
	kp_resource_list system_reserved;
	kp_resource_list eviction_threshold;
	kp_offering **offerings;
	size_t n_offerings;
	const struct kp_instance_types *owner;
};

struct kp_instance_types {
	atomic_uint refs;
	atomic_int frozen;
	kp_instance_type **items; /* insertion order */
	size_t n, cap;
	size_t *by_name;          /* indexes into items, sorted by name */
	size_t by_name_cap;
	kp_requirements *empty;   /* "no requirements" */
	kp_requirements *launch[N_LAUNCH]; /* capacity-type In [x], launch_order */
};

static struct it_entry *entry_of(const kp_instance_type *it)
{
	return (struct it_entry *)(uintptr_t)it;
}

static const struct off_entry *off_of(const kp_offering *of)
{
	return (const struct off_entry *)of;
}

/* ------------------------------------------------------------------ */
/* Spec initializers                                                  */

KP_EXPORT void kp_offering_spec_init(kp_offering_spec *spec)
{
	if (spec) {
		kp_offering_spec init = KP_OFFERING_SPEC_INIT;
		*spec = init;
	}
}

KP_EXPORT void kp_instance_type_spec_init(kp_instance_type_spec *spec)
{
	if (spec) {
		kp_instance_type_spec init = KP_INSTANCE_TYPE_SPEC_INIT;
		*spec = init;
	}
}

/* ------------------------------------------------------------------ */
/* Lifetime                                                           */

static void offering_free(kp_offering *of)
{
	if (!of)
		return;
	struct off_entry *e = (struct off_entry *)of;
	kp_requirements_free(e->view.requirements);
	kp__free(e->capacity_type);
	kp__free(e->zone);
	kp__free(e->reservation_id);
	kp__free(e);
}

static void entry_free(struct it_entry *e)
{
	if (!e)
		return;
	kp_requirements_free(e->view.requirements);
	kp_resources_dispose(&e->capacity);
	kp_resources_dispose(&e->overhead);
	kp_resources_dispose(&e->allocatable);
	kp_resources_dispose(&e->kube_reserved);
	kp_resources_dispose(&e->system_reserved);
	kp_resources_dispose(&e->eviction_threshold);
	for (size_t i = 0; i < e->n_offerings; i++)
		offering_free(e->offerings[i]);
	kp__free(e->offerings);
	kp__free(e->name);
	kp__free(e);
}

static void catalogue_destroy(kp_instance_types *its)
{
	for (size_t i = 0; i < its->n; i++)
		entry_free(entry_of(its->items[i]));
	kp__free(its->items);
	kp__free(its->by_name);
	kp_requirements_free(its->empty);
	for (size_t i = 0; i < N_LAUNCH; i++)
		kp_requirements_free(its->launch[i]);
	kp__free(its);
}

/* reqs = { key In [value] } */
static int single_in(kp_requirements **out, const char *key, const char *value, kp_error *err)
{
	const char *values[1] = { value };
	kp_node_selector_requirement sel = KP_NODE_SELECTOR_REQUIREMENT_INIT;
	sel.op = KP_SELECTOR_OP_IN;
	sel.key = key;
	sel.values = values;
	sel.n_values = 1;
	const kp_node_selector_requirement *sels[1] = { &sel };
	return kp_requirements_from_selectors(out, sels, 1, NULL, err);
}

KP_EXPORT int kp_instance_types_new(kp_instance_types **out, kp_error *err)
{
	if (!out)
		return kp__error(err, KP_EINVAL, NULL, "out is NULL");
	*out = NULL;
	kp_instance_types *its = kp__calloc(1, sizeof(*its));
	if (!its)
		return kp__error(err, KP_ENOMEM, NULL, "out of memory");
	atomic_init(&its->refs, 1u);
	atomic_init(&its->frozen, 0);
	int rc = kp_requirements_new(&its->empty, err);
	for (size_t i = 0; rc == KP_OK && i < N_LAUNCH; i++)
		rc = single_in(&its->launch[i], KP_LABEL_CAPACITY_TYPE, launch_order[i], err);
	if (rc) {
		catalogue_destroy(its);
		return rc;
	}
	*out = its;
	return KP_OK;
}

KP_EXPORT kp_instance_types *kp_instance_types_ref(kp_instance_types *its)
{
	if (its) {
		atomic_store_explicit(&its->frozen, 1, memory_order_relaxed);
		atomic_fetch_add_explicit(&its->refs, 1u, memory_order_relaxed);
	}
	return its;
}

void kp__instance_types_freeze(kp_instance_types *its)
{
	if (its)
		atomic_store_explicit(&its->frozen, 1, memory_order_relaxed);
}

KP_EXPORT void kp_instance_types_free(kp_instance_types *its)
{
	if (!its)
		return;
	if (atomic_fetch_sub_explicit(&its->refs, 1u, memory_order_acq_rel) == 1u)
		catalogue_destroy(its);
}

/* ------------------------------------------------------------------ */
/* Reading                                                            */

KP_EXPORT size_t kp_instance_types_count(kp_instance_types *its)
{
	return its ? its->n : 0;
}

KP_EXPORT const kp_instance_type *kp_instance_types_at(kp_instance_types *its, size_t index)
{
	return its && index < its->n ? its->items[index] : NULL;
}

KP_EXPORT const kp_instance_type *const *kp_instance_types_items(kp_instance_types *its, size_t *n)
{
	if (n)
		*n = its ? its->n : 0;
	if (!its || its->n == 0)
		return NULL;
	return (const kp_instance_type *const *)its->items;
}

/* Position of name in by_name; *found tells whether it is there. */
struct it_key {
	const kp_instance_types *its;
	const char *name;
};

static int it_cmp_at(const void *ctx, size_t i)
{
	const struct it_key *k = ctx;
	return strcmp(k->its->items[k->its->by_name[i]]->name, k->name);
}

static size_t name_lower_bound(const kp_instance_types *its, const char *name, int *found)
{
	struct it_key k = { its, name };
	return kp__sorted_find(its->n, it_cmp_at, &k, found);
}

KP_EXPORT const kp_instance_type *kp_instance_types_find(kp_instance_types *its, const char *name)
{
	if (!its || !name)
		return NULL;
	int found;
	size_t pos = name_lower_bound(its, name, &found);
	return found ? its->items[its->by_name[pos]] : NULL;
}

/* ------------------------------------------------------------------ */
/* Adding                                                             */

/* Prefix err's field with "name[i]". */
static void prefix_index(kp_error *err, const char *name, size_t i)
{
	char prefix[64]; /* "[" size_t "]": always fits */
	snprintf(prefix, sizeof(prefix), "[%zu]", i);
	kp__error_prefix(err, prefix);
	kp__error_prefix(err, name);
}

void kp__cp_prefix_list_error(kp_error *err, const char *name)
{
	/* kp_resources_copy names its input "src": "src[1].name" -> "NAME[1].name" */
	if (err && strncmp(err->field, "src", 3) == 0)
		memmove(err->field, err->field + 3, strlen(err->field + 3) + 1);
	kp__error_prefix(err, name);
}

static int copy_list(kp_resource_list *dst, const kp_resource_list *src, const char *field,
		     kp_error *err)
{
	if (!src)
		return KP_OK;
	int rc = kp_resources_copy(dst, src, err);
	if (rc)
		kp__cp_prefix_list_error(err, field);
	return rc;
}

/* upstream computeAllocatable without overrides */
static int compute_allocatable(struct it_entry *e, kp_error *err)
{
	int rc = kp_resources_add(&e->overhead, &e->kube_reserved, err);
	if (!rc)
		rc = kp_resources_add(&e->overhead, &e->system_reserved, err);
	if (!rc)
		rc = kp_resources_add(&e->overhead, &e->eviction_threshold, err);
	if (rc) {
		kp__error_prefix(err, "overhead");
		return rc;
	}
	rc = kp_resources_copy(&e->allocatable, &e->capacity, err);
	if (!rc)
		rc = kp_resources_sub(&e->allocatable, &e->overhead, err);
	for (size_t i = 0; !rc && i < e->capacity.count; i++) {
		const kp_resource *r = &e->capacity.items[i];
		if (strncmp(r->name, KP_RESOURCE_HUGEPAGES_PREFIX,
			    strlen(KP_RESOURCE_HUGEPAGES_PREFIX)) != 0)
			continue;
		kp_quantity mem = KP_QUANTITY_ZERO;
		mem.format = KP_QUANTITY_BINARY_SI;
		if (kp_resources_get(&mem, &e->allocatable, KP_RESOURCE_MEMORY, NULL) != KP_OK)
			mem.format = KP_QUANTITY_BINARY_SI;
		rc = kp_quantity_sub(&mem, &r->quantity, err);
		if (rc) {
			kp__error(err, rc, KP_RESOURCE_MEMORY,
				  "allocatable memory minus %s does not fit a quantity", r->name);
			break;
		}
		if (kp_quantity_sign(&mem) < 0)
			kp_quantity_from_scaled(&mem, 0, 0, mem.format);
		rc = kp_resources_set(&e->allocatable, KP_RESOURCE_MEMORY, &mem, err);
	}
	if (rc && rc != KP_ENOMEM)
		kp__error_prefix(err, "allocatable");
	return rc;
}

static int build_offering(kp_offering **out, const kp_instance_types *its,
			  const kp_offering_spec *spec_in, kp_error *err)
{
	kp_offering_spec spec;
	if (!spec_in)
		return kp__error(err, KP_EINVAL, NULL, "offering is NULL");
	int rc = KP__READ_SIZED(&spec, spec_in, kp_offering_spec, err);
	if (rc)
		return rc;
	if (spec.available > 1)
		return kp__error(err, KP_EINVAL, "available", "available is %u, not 0 or 1",
				 (unsigned)spec.available);
	if (!spec.capacity_type || !*spec.capacity_type)
		return kp__error(err, KP_EINVAL, "capacity_type", "capacity type is empty");
	if (!spec.zone || !*spec.zone)
		return kp__error(err, KP_EINVAL, "zone", "zone is empty");
	if (!(spec.price >= 0 && spec.price <= KP__PRICE_MAX)) /* NaN and infinities too */
		return kp__error(err, KP_EINVAL, "price",
				 "price %.10g is not a finite number from 0 to %.0f", spec.price,
				 KP__PRICE_MAX);
	if (spec.reservation_capacity < 0)
		return kp__error(err, KP_EINVAL, "reservation_capacity",
				 "reservation capacity %lld is negative",
				 (long long)spec.reservation_capacity);
	if (spec.n_requirements && !spec.requirements)
		return kp__error(err, KP_EINVAL, "requirements",
				 "%zu requirements but the array is NULL", spec.n_requirements);

	struct off_entry *e = kp__calloc(1, sizeof(*e));
	if (!e)
		return kp__error(err, KP_ENOMEM, NULL, "out of memory");
	e->owner = its;
	e->capacity_type = kp__strdup(spec.capacity_type);
	e->zone = kp__strdup(spec.zone);
	e->reservation_id = spec.reservation_id ? kp__strdup(spec.reservation_id) : NULL;
	if (!e->capacity_type || !e->zone || (spec.reservation_id && !e->reservation_id)) {
		offering_free(&e->view);
		return kp__error(err, KP_ENOMEM, NULL, "out of memory");
	}
	kp_requirements *reqs = NULL;
	rc = single_in(&reqs, KP_LABEL_CAPACITY_TYPE, spec.capacity_type, err);
	if (!rc) {
		kp_requirements *zone = NULL;
		rc = single_in(&zone, KP_LABEL_TOPOLOGY_ZONE, spec.zone, err);
		if (!rc)
			rc = kp_requirements_add_all(reqs, zone, err);
		kp_requirements_free(zone);
	}
	for (size_t i = 0; rc == KP_OK && i < spec.n_requirements; i++) {
		rc = kp_requirements_add_selector(reqs, spec.requirements[i], NULL, err);
		if (rc)
			prefix_index(err, "requirements", i);
	}
	e->view.requirements = reqs;
	if (rc) {
		offering_free(&e->view);
		return rc;
	}
	e->view.struct_size = sizeof(kp_offering);
	e->view.available = spec.available;
	e->view.capacity_type = e->capacity_type;
	e->view.zone = e->zone;
	e->view.reservation_id = e->reservation_id;
	e->view.price = spec.price;
	e->view.reservation_capacity = spec.reservation_capacity;
	*out = &e->view;
	return KP_OK;
}

static int build_entry(struct it_entry **out, const kp_instance_types *its,
		       const kp_instance_type_spec *spec, kp_error *err)
{
	struct it_entry *e = kp__calloc(1, sizeof(*e));
	if (!e)
		return kp__error(err, KP_ENOMEM, NULL, "out of memory");
	e->owner = its;
	int rc = KP_OK;
	e->name = kp__strdup(spec->name);
	if (!e->name)
		rc = kp__error(err, KP_ENOMEM, NULL, "out of memory");

	if (!rc) {
		rc = kp_requirements_from_selectors(&e->view.requirements, spec->requirements,
						    spec->n_requirements, NULL, err);
		if (rc)
			kp__error_prefix(err, "requirements");
	}
	if (!rc && !kp_requirements_has(e->view.requirements, KP_LABEL_INSTANCE_TYPE)) {
		kp_requirements *name = NULL;
		rc = single_in(&name, KP_LABEL_INSTANCE_TYPE, spec->name, err);
		if (!rc)
			rc = kp_requirements_add_all(e->view.requirements, name, err);
		kp_requirements_free(name);
	}

	if (!rc)
		rc = copy_list(&e->capacity, spec->capacity, "capacity", err);
	if (!rc)
		rc = copy_list(&e->kube_reserved, spec->kube_reserved, "kube_reserved", err);
	if (!rc)
		rc = copy_list(&e->system_reserved, spec->system_reserved, "system_reserved", err);
	if (!rc)
		rc = copy_list(&e->eviction_threshold, spec->eviction_threshold,
			       "eviction_threshold", err);
	if (!rc)
		rc = compute_allocatable(e, err);

	if (!rc && spec->n_offerings) {
		if (!spec->offerings)
			rc = kp__error(err, KP_EINVAL, "offerings",
				       "%zu offerings but the array is NULL", spec->n_offerings);
		else if (!(e->offerings = kp__calloc(spec->n_offerings, sizeof(*e->offerings))))
			rc = kp__error(err, KP_ENOMEM, NULL, "out of memory");
	}
	for (size_t i = 0; !rc && i < spec->n_offerings; i++) {
		rc = build_offering(&e->offerings[i], its, spec->offerings[i], err);
		if (rc)
			prefix_index(err, "offerings", i);
		else
			e->n_offerings++;
	}
	if (rc) {
		entry_free(e);
		return rc;
	}

	e->view.struct_size = sizeof(kp_instance_type);
	e->view.name = e->name;
	e->view.capacity = &e->capacity;
	e->view.overhead = &e->overhead;
	e->view.allocatable = &e->allocatable;
	e->view.kube_reserved = &e->kube_reserved;
	e->view.system_reserved = &e->system_reserved;
	e->view.eviction_threshold = &e->eviction_threshold;
	e->view.offerings = (const kp_offering *const *)e->offerings;
	e->view.n_offerings = e->n_offerings;
	*out = e;
	return KP_OK;
}

KP_EXPORT int kp_instance_types_add(kp_instance_types *its, const kp_instance_type_spec *spec_in,
				    kp_error *err)
{
	if (!its || !spec_in)
		return kp__error(err, KP_EINVAL, NULL, "%s is NULL", its ? "spec" : "instance types");
	if (atomic_load_explicit(&its->frozen, memory_order_relaxed))
		return kp__error(err, KP_EINVAL, NULL,
				 "instance types: the catalogue is shared and can no longer change");
	kp_instance_type_spec spec;
	int rc = KP__READ_SIZED(&spec, spec_in, kp_instance_type_spec, err);
	if (rc)
		return rc;
	if (spec.reserved)
		return kp__error(err, KP_EINVAL, "reserved", "reserved is not zero");
	if (!spec.name || !*spec.name)
		return kp__error(err, KP_EINVAL, "name", "instance type name is empty");
	if (spec.n_requirements && !spec.requirements)
		return kp__error(err, KP_EINVAL, "requirements",
				 "%zu requirements but the array is NULL", spec.n_requirements);
	int found;
	size_t pos = name_lower_bound(its, spec.name, &found);
	if (found)
		return kp__error(err, KP_EINVAL, "name", "duplicate instance type \"%s\"", spec.name);

	if (kp__grow((void **)&its->items, &its->cap, its->n + 1, sizeof(*its->items)) ||
	    kp__grow((void **)&its->by_name, &its->by_name_cap, its->n + 1, sizeof(*its->by_name)))
		return kp__error(err, KP_ENOMEM, NULL, "out of memory");

	struct it_entry *e = NULL;
	rc = build_entry(&e, its, &spec, err);
	if (rc)
		return rc;
	memmove(its->by_name + pos + 1, its->by_name + pos, (its->n - pos) * sizeof(*its->by_name));
	its->by_name[pos] = its->n;
	its->items[its->n++] = &e->view;
	return KP_OK;
}

/* ------------------------------------------------------------------ */
/* Queries                                                            */

static int compatible_with(const kp_offering *of, kp_requirements *reqs, kp_wellknown *wk)
{
	kp_requirements *r = reqs ? reqs : off_of(of)->owner->empty;
	return kp_requirements_compatible(r, of->requirements, KP_COMPAT_ALLOW_UNDEFINED_WELLKNOWN,
					  wk, NULL) == KP_OK;
}

KP_EXPORT int kp_offering_compatible(const kp_offering *offering, kp_requirements *reqs,
				     kp_wellknown *wk)
{
	return offering ? compatible_with(offering, reqs, wk) : 0;
}

KP_EXPORT const kp_offering *kp_instance_type_cheapest_offering(const kp_instance_type *it,
								kp_requirements *reqs,
								kp_wellknown *wk)
{
	return kp__cheapest_offering(it, reqs, wk, NULL, NULL);
}

const kp_offering *kp__cheapest_offering(const kp_instance_type *it, kp_requirements *reqs,
					 kp_wellknown *wk, kp__offering_usable usable, void *ctx)
{
	const kp_offering *best = NULL;
	for (size_t i = 0; it && i < it->n_offerings; i++) {
		const kp_offering *of = it->offerings[i];
		if (of->available && (!best || of->price < best->price) &&
		    (!usable || usable(of, ctx)) && compatible_with(of, reqs, wk))
			best = of;
	}
	return best;
}

KP_EXPORT double kp_instance_type_worst_launch_price(const kp_instance_type *it,
						     kp_requirements *reqs, kp_wellknown *wk)
{
	return kp__worst_launch_price(it, reqs, wk, NULL, NULL);
}

double kp__worst_launch_price(const kp_instance_type *it, kp_requirements *reqs, kp_wellknown *wk,
			      kp__offering_usable usable, void *ctx)
{
	if (!it)
		return DBL_MAX;
	const struct kp_instance_types *owner = entry_of(it)->owner;
	for (size_t c = 0; c < N_LAUNCH; c++) {
		const kp_offering *worst = NULL;
		for (size_t i = 0; i < it->n_offerings; i++) {
			const kp_offering *of = it->offerings[i];
			if (!of->available || (worst && of->price <= worst->price) ||
			    (usable && !usable(of, ctx)))
				continue;
			if (compatible_with(of, reqs, wk) &&
			    kp_requirements_compatible(owner->launch[c], of->requirements,
						       KP_COMPAT_ALLOW_UNDEFINED_WELLKNOWN, wk,
						       NULL) == KP_OK)
				worst = of;
		}
		if (worst)
			return worst->price;
	}
	return DBL_MAX;
}

static double cheapest_price(const kp_instance_type *it, kp_requirements *reqs, kp_wellknown *wk)
{
	const kp_offering *of = kp_instance_type_cheapest_offering(it, reqs, wk);
	return of ? of->price : DBL_MAX;
}

KP_EXPORT size_t kp_instance_types_filter_compatible(const kp_instance_type **its, size_t n,
						     kp_requirements *reqs, kp_wellknown *wk)
{
	size_t kept = 0;
	for (size_t i = 0; its && i < n; i++)
		if (its[i] && kp_instance_type_cheapest_offering(its[i], reqs, wk))
			its[kept++] = its[i];
	return its ? kept : 0;
}

struct price_key {
	double price;
	size_t index;
	const kp_instance_type *it;
};

static int price_key_cmp(const void *pa, const void *pb)
{
	const struct price_key *a = pa, *b = pb;
	if (a->price != b->price)
		return a->price < b->price ? -1 : 1;
	int c = strcmp(a->it->name, b->it->name);
	if (c)
		return c;
	return a->index < b->index ? -1 : a->index > b->index;
}

static int check_array(const kp_instance_type *const *its, size_t n, kp_error *err)
{
	if (n && !its)
		return kp__error(err, KP_EINVAL, NULL, "%zu instance types but the array is NULL", n);
	for (size_t i = 0; i < n; i++)
		if (!its[i])
			return kp__error(err, KP_EINVAL, NULL, "instance type [%zu] is NULL", i);
	return KP_OK;
}

KP_EXPORT int kp_instance_types_order_by_price(const kp_instance_type **its, size_t n,
					       kp_requirements *reqs, kp_wellknown *wk,
					       kp_error *err)
{
	int rc = check_array((const kp_instance_type *const *)its, n, err);
	if (rc || n < 2)
		return rc;
	struct price_key *keys = kp__calloc(n, sizeof(*keys));
	if (!keys)
		return kp__error(err, KP_ENOMEM, NULL, "out of memory");
	for (size_t i = 0; i < n; i++) {
		keys[i].price = cheapest_price(its[i], reqs, wk);
		keys[i].index = i;
		keys[i].it = its[i];
	}
	qsort(keys, n, sizeof(*keys), price_key_cmp);
	for (size_t i = 0; i < n; i++)
		its[i] = keys[i].it;
	kp__free(keys);
	return KP_OK;
}

/* Distinct values seen for one minValues key. */
struct mv_key {
	const char *key;
	int32_t min_values;
	const char **values; /* sorted, borrowed from the instance types */
	size_t n, cap;
};

static int mv_insert(struct mv_key *k, const char *v)
{
	int found;
	size_t lo = kp__strs_find(k->values, k->n, v, &found);
	if (found)
		return KP_OK;
	if (kp__grow((void **)&k->values, &k->cap, k->n + 1, sizeof(*k->values)))
		return KP_ENOMEM;
	memmove(k->values + lo + 1, k->values + lo, (k->n - lo) * sizeof(*k->values));
	k->values[lo] = v;
	k->n++;
	return KP_OK;
}

static void mv_dispose(struct mv_key *keys, size_t n)
{
	for (size_t i = 0; keys && i < n; i++)
		kp__free(keys[i].values);
	kp__free(keys);
}

static int min_values(size_t *min_needed, const kp_instance_type *const *its, size_t n,
		      kp_requirements *reqs, kp_error *err)
{
	int rc = check_array(its, n, err);
	if (rc)
		return rc;
	size_t n_keys = 0, n_reqs = kp_requirements_count(reqs);
	for (size_t i = 0; i < n_reqs; i++)
		n_keys += kp_requirement_min_values(kp_requirements_at(reqs, i)) > 0;
	if (n_keys == 0) {
		if (min_needed)
			*min_needed = 0;
		return KP_OK;
	}
	struct mv_key *keys = kp__calloc(n_keys, sizeof(*keys));
	if (!keys)
		return kp__error(err, KP_ENOMEM, NULL, "out of memory");
	for (size_t i = 0, k = 0; i < n_reqs; i++) {
		kp_requirement *r = kp_requirements_at(reqs, i);
		if (kp_requirement_min_values(r) > 0) {
			keys[k].key = kp_requirement_key(r);
			keys[k++].min_values = kp_requirement_min_values(r);
		}
	}
	size_t unmet = 0;
	for (size_t i = 0; i < n; i++) {
		unmet = 0;
		for (size_t k = 0; k < n_keys; k++) {
			kp_requirement *r = kp_requirements_get(its[i]->requirements, keys[k].key);
			size_t nv = kp_requirement_value_count(r);
			for (size_t v = 0; v < nv; v++)
				if (mv_insert(&keys[k], kp_requirement_value_at(r, v))) {
					mv_dispose(keys, n_keys);
					return kp__error(err, KP_ENOMEM, NULL, "out of memory");
				}
			unmet += keys[k].n < (size_t)keys[k].min_values;
		}
		if (unmet == 0) {
			mv_dispose(keys, n_keys);
			if (min_needed)
				*min_needed = i + 1;
			return KP_OK;
		}
	}
	if (unmet == 0) { /* no instance types */
		mv_dispose(keys, n_keys);
		if (min_needed)
			*min_needed = 0;
		return KP_OK;
	}
	/* Keys are in byte order already (requirement sets are ordered by key). */
	/* Only ever part of kp_error's message[KP_ERROR_MESSAGE_MAX], which
	 * would cut the list at the same length. */
	char list[KP_ERROR_MESSAGE_MAX];
	size_t len = 0;
	const char *first = NULL;
	list[0] = '\0';
	for (size_t k = 0; k < n_keys; k++) {
		if (keys[k].n >= (size_t)keys[k].min_values)
			continue;
		if (!first)
			first = keys[k].key;
		int w = snprintf(list + len, sizeof(list) - len, "%s%s", len ? " " : "",
				 keys[k].key);
		if (w < 0 || (size_t)w >= sizeof(list) - len) {
			len = sizeof(list) - 1;
			break;
		}
		len += (size_t)w;
	}
	rc = kp__error(err, KP_EINCOMPATIBLE, first,
		       "minValues requirement is not met for label(s) (label(s)=[%s])", list);
	mv_dispose(keys, n_keys);
	return rc;
}

KP_EXPORT int kp_instance_types_satisfies_min_values(size_t *min_needed,
						     const kp_instance_type *const *its, size_t n,
						     kp_requirements *reqs, kp_error *err)
{
	return min_values(min_needed, its, n, reqs, err);
}

KP_EXPORT int kp_instance_types_truncate(size_t *n_out, const kp_instance_type **its, size_t n,
					 kp_requirements *reqs, kp_wellknown *wk, size_t max_items,
					 uint32_t flags, kp_error *err)
{
	if (!n_out)
		return kp__error(err, KP_EINVAL, NULL, "n_out is NULL");
	if (flags & ~(uint32_t)KP_TRUNCATE_MIN_VALUES_BEST_EFFORT)
		return kp__error(err, KP_EINVAL, "flags", "unknown flags 0x%x", (unsigned)flags);
	int rc = check_array((const kp_instance_type *const *)its, n, err);
	if (rc)
		return rc;
	if (n == 0) {
		*n_out = 0;
		return KP_OK;
	}
	const kp_instance_type **sorted = kp__calloc(n, sizeof(*sorted));
	if (!sorted)
		return kp__error(err, KP_ENOMEM, NULL, "out of memory");
	memcpy(sorted, its, n * sizeof(*sorted));
	rc = kp_instance_types_order_by_price(sorted, n, reqs, wk, err);
	size_t kept = n < max_items ? n : max_items;
	if (!rc && reqs && kp_requirements_has_min_values(reqs) &&
	    !(flags & KP_TRUNCATE_MIN_VALUES_BEST_EFFORT)) {
		kp_error inner;
		memset(&inner, 0, sizeof(inner));
		rc = min_values(NULL, (const kp_instance_type *const *)sorted, kept, reqs, &inner);
		if (rc == KP_EINCOMPATIBLE)
			kp__error(err, rc, inner.field, "validating minValues, %s", inner.message);
		else if (rc)
			kp__error(err, rc, inner.field, "%s", inner.message);
	}
	if (!rc) {
		memcpy(its, sorted, n * sizeof(*sorted));
		*n_out = kept;
	}
	kp__free(sorted);
	return rc;
}
