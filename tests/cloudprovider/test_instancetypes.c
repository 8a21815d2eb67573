/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The instance-type catalogue (include/karpenter/cloudprovider.h): building,
 * allocatable (upstream computeAllocatable), lookups, and the scheduler's
 * queries (Cheapest, WorstLaunchPrice, Compatible, OrderByPrice,
 * SatisfiesMinValues, Truncate), with cases taken from upstream's
 * pkg/cloudprovider/types.go documentation and fake provider.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <karpenter/cloudprovider.h>

#include "kp_test.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* ---- helpers ---- */

/* A resource list from "name=quantity" pairs (library-owned). */
static kp_resource_list rl(const char *const *pairs, size_t n)
{
	kp_resource_list l = KP_RESOURCE_LIST_INIT;
	for (size_t i = 0; i < n; i++) {
		char name[64];
		const char *eq = strchr(pairs[i], '=');
		ck_assert_ptr_nonnull(eq);
		snprintf(name, sizeof(name), "%.*s", (int)(eq - pairs[i]), pairs[i]);
		kp_quantity q;
		ck_assert_int_eq(kp_quantity_parse(&q, eq + 1, NULL), KP_OK);
		ck_assert_int_eq(kp_resources_set(&l, name, &q, NULL), KP_OK);
	}
	return l;
}
#define RL(...) rl((const char *const[]){ __VA_ARGS__ }, N(((const char *const[]){ __VA_ARGS__ })))

/* "name=quantity,..." of a list, in name order. */
static const char *fmt_list(const kp_resource_list *l)
{
	static char buf[1024];
	size_t len = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < l->count; i++) {
		char q[KP_QUANTITY_STRING_MAX];
		kp_quantity_format(&l->items[i].quantity, q, sizeof(q));
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s=%s", i ? "," : "",
					l->items[i].name, q);
	}
	return buf;
}

static kp_offering_spec offering(const char *ct, const char *zone, double price, int available)
{
	kp_offering_spec o = KP_OFFERING_SPEC_INIT;
	o.capacity_type = ct;
	o.zone = zone;
	o.price = price;
	o.available = (uint32_t)available;
	return o;
}

/* Add a type with the given offerings and an "family" label requirement. */
static void add_type(kp_instance_types *its, const char *name, const char *family,
		     const kp_offering_spec *offs, size_t n_offs)
{
	const kp_offering_spec *ptrs[8];
	ck_assert_uint_le(n_offs, N(ptrs));
	for (size_t i = 0; i < n_offs; i++)
		ptrs[i] = &offs[i];
	const char *fam[1] = { family };
	kp_node_selector_requirement r = KP_NODE_SELECTOR_REQUIREMENT_INIT;
	r.op = KP_SELECTOR_OP_IN;
	r.key = "example.com/family";
	r.values = fam;
	r.n_values = 1;
	const kp_node_selector_requirement *reqs[1] = { &r };
	kp_resource_list cap = RL("cpu=2", "memory=4Gi");
	kp_instance_type_spec spec = KP_INSTANCE_TYPE_SPEC_INIT;
	spec.name = name;
	spec.requirements = family ? reqs : NULL;
	spec.n_requirements = family ? 1 : 0;
	spec.capacity = &cap;
	spec.offerings = ptrs;
	spec.n_offerings = n_offs;
	kp_error err = KP_ERROR_INIT;
	ck_assert_msg(kp_instance_types_add(its, &spec, &err) == KP_OK, "%s", err.message);
	kp_resources_dispose(&cap);
}

static kp_requirements *reqs_in(const char *key, const char *const *values, size_t n,
				int32_t min_values)
{
	kp_node_selector_requirement r = KP_NODE_SELECTOR_REQUIREMENT_INIT;
	r.op = KP_SELECTOR_OP_IN;
	r.key = key;
	r.values = values;
	r.n_values = n;
	r.min_values = min_values;
	const kp_node_selector_requirement *sels[1] = { &r };
	kp_requirements *out = NULL;
	ck_assert_int_eq(kp_requirements_from_selectors(&out, sels, 1, NULL, NULL), KP_OK);
	return out;
}

static void add_in(kp_requirements *reqs, const char *key, const char *const *values, size_t n,
		   int32_t min_values)
{
	kp_requirements *more = reqs_in(key, values, n, min_values);
	ck_assert_int_eq(kp_requirements_add_all(reqs, more, NULL), KP_OK);
	kp_requirements_free(more);
}

/* ---- building and lookups ---- */

START_TEST(build_and_find)
{
	kp_instance_types *its = NULL;
	ck_assert_int_eq(kp_instance_types_new(&its, NULL), KP_OK);
	kp_offering_spec offs[] = { offering("spot", "zone-a", 0.5, 1),
				    offering("on-demand", "zone-b", 1.0, 0) };
	add_type(its, "m.large", "m", offs, 2);
	add_type(its, "c.large", "c", offs, 1);
	add_type(its, "a.large", NULL, offs, 0);
	ck_assert_uint_eq(kp_instance_types_count(its), 3);
	ck_assert_str_eq(kp_instance_types_at(its, 0)->name, "m.large");
	ck_assert_str_eq(kp_instance_types_at(its, 2)->name, "a.large");
	ck_assert_ptr_null(kp_instance_types_at(its, 3));
	ck_assert_ptr_eq(kp_instance_types_find(its, "c.large"), kp_instance_types_at(its, 1));
	ck_assert_ptr_null(kp_instance_types_find(its, "c.xlarge"));
	ck_assert_ptr_null(kp_instance_types_find(its, NULL));
	size_t n = 0;
	const kp_instance_type *const *items = kp_instance_types_items(its, &n);
	ck_assert_uint_eq(n, 3);
	ck_assert_ptr_eq(items[1], kp_instance_types_at(its, 1));

	const kp_instance_type *it = kp_instance_types_at(its, 0);
	ck_assert_uint_eq(it->struct_size, sizeof(kp_instance_type));
	ck_assert_uint_eq(it->n_offerings, 2);
	const kp_offering *of = it->offerings[1];
	ck_assert_uint_eq(of->struct_size, sizeof(kp_offering));
	ck_assert_str_eq(of->capacity_type, "on-demand");
	ck_assert_str_eq(of->zone, "zone-b");
	ck_assert_ptr_null(of->reservation_id);
	ck_assert_uint_eq(of->available, 0);
	char buf[256];
	kp_requirements_string(of->requirements, buf, sizeof(buf));
	ck_assert_str_eq(buf, "karpenter.sh/capacity-type In [on-demand], "
			      "topology.kubernetes.io/zone In [zone-b]");
	/* The instance-type requirement is added when the provider leaves it out. */
	kp_requirements_string(it->requirements, buf, sizeof(buf));
	ck_assert_str_eq(buf, "example.com/family In [m], node.kubernetes.io/instance-type In [m.large]");
	/* Empty overhead lists, allocatable = capacity. */
	ck_assert_uint_eq(it->kube_reserved->count, 0);
	ck_assert_str_eq(fmt_list(it->allocatable), "cpu=2,memory=4Gi");
	kp_instance_types_free(its);
	kp_instance_types_free(NULL);
	ck_assert_uint_eq(kp_instance_types_count(NULL), 0);
	ck_assert_ptr_null(kp_instance_types_items(NULL, &n));
	ck_assert_uint_eq(n, 0);
}
END_TEST

START_TEST(instance_type_requirement_kept)
{
	/* A provider's own instance-type requirement (beta key, normalized) is kept. */
	const char *names[] = { "x", "y" };
	kp_node_selector_requirement r = KP_NODE_SELECTOR_REQUIREMENT_INIT;
	r.op = KP_SELECTOR_OP_IN;
	r.key = "beta.kubernetes.io/instance-type";
	r.values = names;
	r.n_values = 2;
	const kp_node_selector_requirement *reqs[1] = { &r };
	kp_instance_type_spec spec = KP_INSTANCE_TYPE_SPEC_INIT;
	spec.name = "x";
	spec.requirements = reqs;
	spec.n_requirements = 1;
	kp_instance_types *its = NULL;
	ck_assert_int_eq(kp_instance_types_new(&its, NULL), KP_OK);
	ck_assert_int_eq(kp_instance_types_add(its, &spec, NULL), KP_OK);
	char buf[128];
	kp_requirements_string(kp_instance_types_at(its, 0)->requirements, buf, sizeof(buf));
	ck_assert_str_eq(buf, "node.kubernetes.io/instance-type In [x y]");
	kp_instance_types_free(its);
}
END_TEST

START_TEST(refcount_and_freeze)
{
	kp_instance_types *its = NULL;
	ck_assert_int_eq(kp_instance_types_new(&its, NULL), KP_OK);
	kp_offering_spec offs[] = { offering("spot", "z", 1, 1) };
	add_type(its, "a", NULL, offs, 1);
	const kp_instance_type *a = kp_instance_types_at(its, 0);
	ck_assert_ptr_eq(kp_instance_types_ref(its), its);
	ck_assert_ptr_null(kp_instance_types_ref(NULL));
	/* Frozen: a holder sees nothing change. */
	kp_instance_type_spec spec = KP_INSTANCE_TYPE_SPEC_INIT;
	spec.name = "b";
	kp_error err = KP_ERROR_INIT;
	ck_assert_int_eq(kp_instance_types_add(its, &spec, &err), KP_EINVAL);
	ck_assert_str_eq(err.message, "instance types: the catalogue is shared and can no longer change");
	kp_instance_types_free(its);
	/* One reference left: views are still valid. */
	ck_assert_str_eq(a->name, "a");
	ck_assert_ptr_eq(kp_instance_types_find(its, "a"), a);
	kp_instance_types_free(its);
}
END_TEST

/* ---- validation ---- */

static const kp_node_selector_requirement bad_op = { sizeof(kp_node_selector_requirement), 0,
						     "example.com/x", NULL, 0, 0, 0 };

static const struct bad_case {
	const char *what;
	int code;
	const char *field;
	const char *message;
} bad_cases[] = {
	{ "empty name", KP_EINVAL, "name", "instance type name is empty" },
	{ "duplicate", KP_EINVAL, "name", "duplicate instance type \"dup\"" },
	{ "no zone", KP_EINVAL, "offerings[1].zone", "zone is empty" },
	{ "no capacity type", KP_EINVAL, "offerings[0].capacity_type", "capacity type is empty" },
	{ "negative price", KP_EINVAL, "offerings[0].price",
	  "price -1 is not a finite number from 0 to 1000000" },
	{ "NaN price", KP_EINVAL, "offerings[0].price",
	  "price nan is not a finite number from 0 to 1000000" },
	{ "infinite price", KP_EINVAL, "offerings[1].price",
	  "price inf is not a finite number from 0 to 1000000" },
	{ "price 1.7e308", KP_EINVAL, "offerings[1].price",
	  "price 1.7e+308 is not a finite number from 0 to 1000000" },
	{ "price just over 1e6", KP_EINVAL, "offerings[0].price",
	  "price 1000000.5 is not a finite number from 0 to 1000000" },
	{ "available 2", KP_EINVAL, "offerings[0].available", "available is 2, not 0 or 1" },
	{ "negative reservation", KP_EINVAL, "offerings[0].reservation_capacity",
	  "reservation capacity -3 is negative" },
	{ "NULL offering", KP_EINVAL, "offerings[0]", "offering is NULL" },
	{ "offering struct_size", KP_EVERSION, "offerings[0].struct_size", NULL },
	{ "spec struct_size", KP_EVERSION, "struct_size", NULL },
	{ "reserved", KP_EINVAL, "reserved", "reserved is not zero" },
	{ "bad requirement", KP_EINVAL, "requirements[0].operator", NULL },
	{ "bad offering requirement", KP_EINVAL, "offerings[0].requirements[0].operator", NULL },
	{ "duplicate capacity", KP_EINVAL, "capacity[1].name", NULL },
	{ "allocatable overflow", KP_ERANGE, "allocatable.cpu",
	  "difference of resource \"cpu\" does not fit in a quantity" },
	{ "hugepages overflow", KP_ERANGE, "allocatable.memory",
	  "allocatable memory minus hugepages-2Mi does not fit a quantity" },
};

START_TEST(add_rejects)
{
	const struct bad_case *c = &bad_cases[_i];
	kp_instance_types *its = NULL;
	ck_assert_int_eq(kp_instance_types_new(&its, NULL), KP_OK);
	kp_offering_spec ok = offering("spot", "z", 1, 1);
	add_type(its, "dup", NULL, &ok, 1);

	kp_offering_spec o0 = offering("spot", "z", 1, 1), o1 = offering("spot", "z", 1, 1);
	const kp_offering_spec *offs[2] = { &o0, &o1 };
	const kp_node_selector_requirement *bad[1] = { &bad_op };
	kp_resource_list cap = RL("cpu=1");
	kp_resource dup_items[2] = { cap.items[0], cap.items[0] };
	kp_resource_list dup_cap = { dup_items, 2 };
	kp_instance_type_spec spec = KP_INSTANCE_TYPE_SPEC_INIT;
	spec.name = "new";
	spec.capacity = &cap;
	spec.offerings = offs;
	spec.n_offerings = 2;
	const char *w = c->what;
	if (!strcmp(w, "empty name"))
		spec.name = "";
	else if (!strcmp(w, "duplicate"))
		spec.name = "dup";
	else if (!strcmp(w, "no zone"))
		o1.zone = NULL;
	else if (!strcmp(w, "no capacity type"))
		o0.capacity_type = "";
	else if (!strcmp(w, "negative price"))
		o0.price = -1;
	else if (!strcmp(w, "NaN price"))
		o0.price = NAN;
	else if (!strcmp(w, "infinite price"))
		o1.price = INFINITY;
	else if (!strcmp(w, "price 1.7e308"))
		o1.price = 1.7e308;
	else if (!strcmp(w, "price just over 1e6"))
		o0.price = 1000000.5;
	else if (!strcmp(w, "available 2"))
		o0.available = 2;
	else if (!strcmp(w, "negative reservation"))
		o0.reservation_capacity = -3;
	else if (!strcmp(w, "NULL offering"))
		offs[0] = NULL;
	else if (!strcmp(w, "offering struct_size"))
		o0.struct_size = 8;
	else if (!strcmp(w, "spec struct_size"))
		spec.struct_size = 8;
	else if (!strcmp(w, "reserved"))
		spec.reserved = 1;
	else if (!strcmp(w, "bad requirement")) {
		spec.requirements = bad;
		spec.n_requirements = 1;
	} else if (!strcmp(w, "bad offering requirement")) {
		o0.requirements = bad;
		o0.n_requirements = 1;
	} else if (!strcmp(w, "duplicate capacity"))
		spec.capacity = &dup_cap;
	kp_resource_list big = RL("cpu=100000000000000000000000000000000000000",
				  "hugepages-2Mi=-1m", "memory=100000000000000000000000000000000000000");
	kp_resource_list minus = RL("cpu=-1m");
	if (!strcmp(w, "allocatable overflow")) {
		spec.capacity = &big;
		spec.kube_reserved = &minus;
	} else if (!strcmp(w, "hugepages overflow"))
		spec.capacity = &big;

	kp_error err = KP_ERROR_INIT;
	ck_assert_int_eq(kp_instance_types_add(its, &spec, &err), c->code);
	ck_assert_int_eq(err.code, c->code);
	ck_assert_str_eq(err.field, c->field);
	if (c->message)
		ck_assert_str_eq(err.message, c->message);
	/* Unchanged on failure. */
	ck_assert_uint_eq(kp_instance_types_count(its), 1);
	ck_assert_ptr_null(kp_instance_types_find(its, "new"));
	kp_resources_dispose(&cap);
	kp_resources_dispose(&big);
	kp_resources_dispose(&minus);
	kp_instance_types_free(its);
}
END_TEST

/* The bounds themselves are prices: 0 (free) and 1e6 $/h. */
START_TEST(price_bounds_accepted)
{
	kp_instance_types *its = NULL;
	ck_assert_int_eq(kp_instance_types_new(&its, NULL), KP_OK);
	kp_offering_spec offs[2] = { offering("spot", "z", 0, 1), offering("on-demand", "z", 1e6, 1) };
	add_type(its, "bounds", NULL, offs, 2);
	const kp_instance_type *it = kp_instance_types_find(its, "bounds");
	ck_assert_ptr_nonnull(it);
	ck_assert_uint_eq(it->n_offerings, 2);
	ck_assert_double_eq(it->offerings[0]->price, 0);
	ck_assert_double_eq(it->offerings[1]->price, 1e6);
	/* WorstLaunchPrice takes spot before on-demand. */
	ck_assert_double_eq(kp_instance_type_worst_launch_price(it, NULL, NULL), 0);
	kp_instance_types_free(its);
}
END_TEST

START_TEST(add_null_arguments)
{
	kp_instance_types *its = NULL;
	kp_error err = KP_ERROR_INIT;
	ck_assert_int_eq(kp_instance_types_new(NULL, &err), KP_EINVAL);
	ck_assert_int_eq(kp_instance_types_new(&its, NULL), KP_OK);
	ck_assert_int_eq(kp_instance_types_add(its, NULL, &err), KP_EINVAL);
	ck_assert_str_eq(err.message, "spec is NULL");
	kp_instance_type_spec spec;
	kp_instance_type_spec_init(&spec);
	spec.name = "x";
	ck_assert_int_eq(kp_instance_types_add(NULL, &spec, &err), KP_EINVAL);
	ck_assert_int_eq(kp_instance_types_add(its, &spec, NULL), KP_OK);
	kp_instance_types_free(its);
	kp_offering_spec_init(NULL);
	kp_instance_type_spec_init(NULL);
}
END_TEST

/* ---- allocatable ---- */

static const struct alloc_case {
	const char *name;
	const char *capacity[6];
	const char *kube[3];
	const char *system[3];
	const char *eviction[3];
	const char *overhead;
	const char *allocatable;
} alloc_cases[] = {
	{ "plain",
	  { "cpu=4", "memory=16Gi", "pods=110", "ephemeral-storage=20Gi" },
	  { "cpu=100m", "memory=1Gi", "ephemeral-storage=1Gi" },
	  { "cpu=100m", "memory=100Mi" },
	  { "memory=100Mi", "ephemeral-storage=2Gi" },
	  "cpu=200m,ephemeral-storage=3Gi,memory=1224Mi",
	  "cpu=3800m,ephemeral-storage=17Gi,memory=15160Mi,pods=110" },
	{ "hugepages",
	  { "cpu=4", "memory=16Gi", "hugepages-2Mi=1Gi", "hugepages-1Gi=2Gi" },
	  { "memory=1Gi" },
	  { "memory=100Mi" },
	  { "memory=100Mi" },
	  "memory=1224Mi",
	  "cpu=4,hugepages-1Gi=2Gi,hugepages-2Mi=1Gi,memory=12088Mi" },
	{ "hugepages clamp at zero",
	  { "memory=1Gi", "hugepages-1Gi=2Gi" },
	  { "memory=100Mi" },
	  { NULL },
	  { NULL },
	  "memory=100Mi",
	  "hugepages-1Gi=2Gi,memory=0" },
	{ "hugepages without memory",
	  { "cpu=1", "hugepages-2Mi=512Mi" },
	  { NULL },
	  { NULL },
	  { NULL },
	  "",
	  "cpu=1,hugepages-2Mi=512Mi,memory=0" },
	{ "overhead beyond capacity goes negative, overhead-only names are dropped",
	  { "cpu=100m" },
	  { "cpu=200m", "nvidia.com/gpu=1" },
	  { NULL },
	  { NULL },
	  "cpu=200m,nvidia.com/gpu=1",
	  "cpu=-100m" },
};

static size_t count_pairs(const char *const *p, size_t max)
{
	size_t n = 0;
	while (n < max && p[n])
		n++;
	return n;
}

START_TEST(allocatable)
{
	const struct alloc_case *c = &alloc_cases[_i];
	kp_resource_list cap = rl(c->capacity, count_pairs(c->capacity, N(c->capacity)));
	kp_resource_list kube = rl(c->kube, count_pairs(c->kube, N(c->kube)));
	kp_resource_list sys = rl(c->system, count_pairs(c->system, N(c->system)));
	kp_resource_list ev = rl(c->eviction, count_pairs(c->eviction, N(c->eviction)));
	kp_instance_type_spec spec = KP_INSTANCE_TYPE_SPEC_INIT;
	spec.name = "t";
	spec.capacity = &cap;
	spec.kube_reserved = &kube;
	spec.system_reserved = &sys;
	spec.eviction_threshold = &ev;
	kp_instance_types *its = NULL;
	ck_assert_int_eq(kp_instance_types_new(&its, NULL), KP_OK);
	kp_error err = KP_ERROR_INIT;
	ck_assert_msg(kp_instance_types_add(its, &spec, &err) == KP_OK, "%s: %s", c->name,
		      err.message);
	const kp_instance_type *it = kp_instance_types_at(its, 0);
	ck_assert_str_eq(fmt_list(it->overhead), c->overhead);
	ck_assert_str_eq(fmt_list(it->allocatable), c->allocatable);
	ck_assert_uint_eq(it->capacity->count, cap.count);
	ck_assert_uint_eq(it->kube_reserved->count, kube.count);
	kp_instance_types_free(its);
	kp_resources_dispose(&cap);
	kp_resources_dispose(&kube);
	kp_resources_dispose(&sys);
	kp_resources_dispose(&ev);
}
END_TEST

/* ---- offerings ---- */

START_TEST(cheapest_offering)
{
	kp_instance_types *its = NULL;
	ck_assert_int_eq(kp_instance_types_new(&its, NULL), KP_OK);
	kp_offering_spec offs[] = {
		offering("on-demand", "zone-a", 1.0, 1),
		offering("spot", "zone-a", 0.2, 0),    /* cheapest, but not available */
		offering("spot", "zone-b", 0.4, 1),    /* tie: the first one wins */
		offering("spot", "zone-c", 0.4, 1),
		offering("on-demand", "zone-c", 0.9, 1),
	};
	add_type(its, "t", NULL, offs, N(offs));
	const kp_instance_type *it = kp_instance_types_at(its, 0);
	const kp_offering *of = kp_instance_type_cheapest_offering(it, NULL, NULL);
	ck_assert_ptr_eq(of, it->offerings[2]);

	const char *zc[] = { "zone-c" };
	kp_requirements *reqs = reqs_in(KP_LABEL_TOPOLOGY_ZONE, zc, 1, 0);
	ck_assert_ptr_eq(kp_instance_type_cheapest_offering(it, reqs, NULL), it->offerings[3]);
	const char *od[] = { "on-demand" };
	add_in(reqs, KP_LABEL_CAPACITY_TYPE, od, 1, 0);
	ck_assert_ptr_eq(kp_instance_type_cheapest_offering(it, reqs, NULL), it->offerings[4]);
	const char *res[] = { "reserved" };
	kp_requirements *reserved = reqs_in(KP_LABEL_CAPACITY_TYPE, res, 1, 0);
	ck_assert_ptr_null(kp_instance_type_cheapest_offering(it, reserved, NULL));
	ck_assert_ptr_null(kp_instance_type_cheapest_offering(NULL, NULL, NULL));

	ck_assert_int_eq(kp_offering_compatible(it->offerings[1], NULL, NULL), 1);
	ck_assert_int_eq(kp_offering_compatible(it->offerings[1], reqs, NULL), 0);
	ck_assert_int_eq(kp_offering_compatible(it->offerings[4], reqs, NULL), 1);
	ck_assert_int_eq(kp_offering_compatible(NULL, reqs, NULL), 0);
	kp_requirements_free(reqs);
	kp_requirements_free(reserved);
	kp_instance_types_free(its);
}
END_TEST

START_TEST(offering_custom_requirement)
{
	/* A further requirement on a key that is not well-known: only
	 * requirements that define the key are compatible, unless the
	 * provider's wellknown set lists it (upstream ReservationIDLabel). */
	const char *rid[] = { "cr-123" };
	kp_node_selector_requirement r = KP_NODE_SELECTOR_REQUIREMENT_INIT;
	r.op = KP_SELECTOR_OP_IN;
	r.key = "example.com/reservation-id";
	r.values = rid;
	r.n_values = 1;
	const kp_node_selector_requirement *further[1] = { &r };
	kp_offering_spec o = offering("reserved", "zone-a", 0.1, 1);
	o.reservation_id = "cr-123";
	o.reservation_capacity = 2;
	o.requirements = further;
	o.n_requirements = 1;
	kp_instance_types *its = NULL;
	ck_assert_int_eq(kp_instance_types_new(&its, NULL), KP_OK);
	add_type(its, "t", NULL, &o, 1);
	const kp_offering *of = kp_instance_types_at(its, 0)->offerings[0];
	ck_assert_str_eq(of->reservation_id, "cr-123");
	ck_assert_int_eq(of->reservation_capacity, 2);
	char buf[256];
	kp_requirements_string(of->requirements, buf, sizeof(buf));
	ck_assert_str_eq(buf, "example.com/reservation-id In [cr-123], karpenter.sh/capacity-type In "
			      "[reserved], topology.kubernetes.io/zone In [zone-a]");
	ck_assert_int_eq(kp_offering_compatible(of, NULL, NULL), 0);
	kp_requirements *reqs = reqs_in("example.com/reservation-id", rid, 1, 0);
	ck_assert_int_eq(kp_offering_compatible(of, reqs, NULL), 1);
	kp_wellknown *wk = NULL;
	ck_assert_int_eq(kp_wellknown_new(&wk, NULL), KP_OK);
	ck_assert_int_eq(kp_wellknown_add_label(wk, "example.com/reservation-id", NULL), KP_OK);
	ck_assert_int_eq(kp_offering_compatible(of, NULL, wk), 1);
	kp_wellknown_free(wk);
	kp_requirements_free(reqs);
	kp_instance_types_free(its);
}
END_TEST

START_TEST(worst_launch_price)
{
	kp_instance_types *its = NULL;
	ck_assert_int_eq(kp_instance_types_new(&its, NULL), KP_OK);
	kp_offering_spec a[] = {
		offering("on-demand", "zone-a", 3.0, 1), offering("spot", "zone-a", 1.0, 1),
		offering("spot", "zone-b", 1.5, 1), offering("reserved", "zone-a", 0.5, 0),
	};
	kp_offering_spec b[] = {
		offering("on-demand", "zone-a", 3.0, 1), offering("reserved", "zone-b", 0.7, 1),
		offering("reserved", "zone-a", 0.5, 1),
	};
	kp_offering_spec c[] = { offering("spot", "zone-a", 1.0, 0) };
	add_type(its, "a", NULL, a, N(a));
	add_type(its, "b", NULL, b, N(b));
	add_type(its, "c", NULL, c, N(c));
	/* Unavailable reserved is skipped: spot's most expensive. */
	ck_assert_double_eq(kp_instance_type_worst_launch_price(kp_instance_types_at(its, 0), NULL,
								NULL), 1.5);
	/* Reserved first. */
	ck_assert_double_eq(kp_instance_type_worst_launch_price(kp_instance_types_at(its, 1), NULL,
								NULL), 0.7);
	const char *za[] = { "zone-a" };
	kp_requirements *reqs = reqs_in(KP_LABEL_TOPOLOGY_ZONE, za, 1, 0);
	ck_assert_double_eq(kp_instance_type_worst_launch_price(kp_instance_types_at(its, 0), reqs,
								NULL), 1.0);
	ck_assert_double_eq(kp_instance_type_worst_launch_price(kp_instance_types_at(its, 1), reqs,
								NULL), 0.5);
	ck_assert(kp_instance_type_worst_launch_price(kp_instance_types_at(its, 2), NULL, NULL) ==
		  DBL_MAX);
	ck_assert(kp_instance_type_worst_launch_price(NULL, NULL, NULL) == DBL_MAX);
	kp_requirements_free(reqs);
	kp_instance_types_free(its);
}
END_TEST

/* ---- arrays: Compatible, OrderByPrice ---- */

static kp_instance_types *priced_catalogue(void)
{
	kp_instance_types *its = NULL;
	ck_assert_int_eq(kp_instance_types_new(&its, NULL), KP_OK);
	kp_offering_spec d[] = { offering("spot", "zone-a", 3.0, 1) };
	kp_offering_spec c[] = { offering("spot", "zone-a", 1.0, 1), offering("spot", "zone-b", 9, 1) };
	kp_offering_spec b[] = { offering("spot", "zone-b", 0.5, 1), offering("spot", "zone-a", 2, 1) };
	kp_offering_spec a[] = { offering("spot", "zone-a", 1.0, 1) };
	kp_offering_spec e[] = { offering("spot", "zone-a", 0.1, 0) };
	add_type(its, "d", "m", d, N(d));
	add_type(its, "c", "c", c, N(c));
	add_type(its, "b", "m", b, N(b));
	add_type(its, "e", "c", e, N(e)); /* no available offering */
	add_type(its, "a", "m", a, N(a));
	return its;
}

static const char *names_of(const kp_instance_type *const *its, size_t n)
{
	static char buf[256];
	size_t len = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < n; i++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s", i ? " " : "",
					its[i]->name);
	return buf;
}

START_TEST(order_by_price)
{
	kp_instance_types *its = priced_catalogue();
	size_t n;
	const kp_instance_type *const *items = kp_instance_types_items(its, &n);
	const kp_instance_type *arr[8];
	memcpy(arr, items, n * sizeof(*arr));
	ck_assert_int_eq(kp_instance_types_order_by_price(arr, n, NULL, NULL, NULL), KP_OK);
	/* b 0.5; a and c tie at 1.0 (name order); d 3.0; e has none. */
	ck_assert_str_eq(names_of(arr, n), "b a c d e");

	const char *za[] = { "zone-a" };
	kp_requirements *reqs = reqs_in(KP_LABEL_TOPOLOGY_ZONE, za, 1, 0);
	memcpy(arr, items, n * sizeof(*arr));
	ck_assert_int_eq(kp_instance_types_order_by_price(arr, n, reqs, NULL, NULL), KP_OK);
	ck_assert_str_eq(names_of(arr, n), "a c b d e");

	memcpy(arr, items, n * sizeof(*arr));
	ck_assert_uint_eq(kp_instance_types_filter_compatible(arr, n, reqs, NULL), 4);
	ck_assert_str_eq(names_of(arr, 4), "d c b a");
	const char *zb[] = { "zone-b" };
	kp_requirements *rb = reqs_in(KP_LABEL_TOPOLOGY_ZONE, zb, 1, 0);
	memcpy(arr, items, n * sizeof(*arr));
	ck_assert_uint_eq(kp_instance_types_filter_compatible(arr, n, rb, NULL), 2);
	ck_assert_str_eq(names_of(arr, 2), "c b");
	ck_assert_uint_eq(kp_instance_types_filter_compatible(NULL, 3, rb, NULL), 0);

	kp_error err = KP_ERROR_INIT;
	ck_assert_int_eq(kp_instance_types_order_by_price(NULL, 2, NULL, NULL, &err), KP_EINVAL);
	ck_assert_str_eq(err.message, "2 instance types but the array is NULL");
	memcpy(arr, items, n * sizeof(*arr));
	arr[1] = NULL;
	ck_assert_int_eq(kp_instance_types_order_by_price(arr, n, NULL, NULL, &err), KP_EINVAL);
	ck_assert_str_eq(err.message, "instance type [1] is NULL");
	ck_assert_int_eq(kp_instance_types_order_by_price(NULL, 0, NULL, NULL, &err), KP_OK);
	kp_requirements_free(reqs);
	kp_requirements_free(rb);
	kp_instance_types_free(its);
}
END_TEST

/* ---- minValues and Truncate (upstream SatisfiesMinValues' example) ---- */

static kp_instance_types *family_catalogue(const char *const *names, const char *const *families,
					   const double *prices, size_t n)
{
	kp_instance_types *its = NULL;
	ck_assert_int_eq(kp_instance_types_new(&its, NULL), KP_OK);
	for (size_t i = 0; i < n; i++) {
		kp_offering_spec o = offering("on-demand", "zone-a", prices[i], 1);
		add_type(its, names[i], families[i], &o, 1);
	}
	return its;
}

static kp_requirements *min_values_reqs(int32_t min_types, int32_t min_families)
{
	const char *types[] = { "c4.large", "c4.xlarge", "c5.large", "c5.xlarge", "m4.large",
				"m4.xlarge", "m4.2xlarge", "c5.2xlarge" };
	const char *families[] = { "c4", "c5", "m4" };
	kp_requirements *reqs = reqs_in(KP_LABEL_INSTANCE_TYPE, types, N(types), min_types);
	add_in(reqs, "example.com/family", families, N(families), min_families);
	return reqs;
}

START_TEST(satisfies_min_values_passes)
{
	const char *names[] = { "c4.large", "c5.xlarge", "m4.2xlarge", "c4.xlarge" };
	const char *fams[] = { "c4", "c5", "m4", "c4" };
	const double prices[] = { 1, 2, 3, 4 };
	kp_instance_types *its = family_catalogue(names, fams, prices, 4);
	size_t n;
	const kp_instance_type *const *items = kp_instance_types_items(its, &n);
	kp_requirements *reqs = min_values_reqs(3, 3);
	size_t need = 99;
	ck_assert_int_eq(kp_instance_types_satisfies_min_values(&need, items, n, reqs, NULL), KP_OK);
	ck_assert_uint_eq(need, 3);
	/* Without minValues: 0. */
	kp_requirements *plain = min_values_reqs(0, 0);
	ck_assert_int_eq(kp_instance_types_satisfies_min_values(&need, items, n, plain, NULL), KP_OK);
	ck_assert_uint_eq(need, 0);
	ck_assert_int_eq(kp_instance_types_satisfies_min_values(&need, items, n, NULL, NULL), KP_OK);
	ck_assert_uint_eq(need, 0);
	/* No instance types: nothing is unmet (as upstream). */
	need = 99;
	ck_assert_int_eq(kp_instance_types_satisfies_min_values(&need, NULL, 0, reqs, NULL), KP_OK);
	ck_assert_uint_eq(need, 0);
	kp_requirements_free(plain);
	kp_requirements_free(reqs);
	kp_instance_types_free(its);
}
END_TEST

START_TEST(satisfies_min_values_fails)
{
	const char *names[] = { "c4.large", "c4.xlarge", "c5.2xlarge" };
	const char *fams[] = { "c4", "c4", "c5" };
	const double prices[] = { 1, 2, 3 };
	kp_instance_types *its = family_catalogue(names, fams, prices, 3);
	size_t n;
	const kp_instance_type *const *items = kp_instance_types_items(its, &n);
	kp_requirements *reqs = min_values_reqs(3, 3);
	size_t need = 99;
	kp_error err = KP_ERROR_INIT;
	ck_assert_int_eq(kp_instance_types_satisfies_min_values(&need, items, n, reqs, &err),
			 KP_EINCOMPATIBLE);
	ck_assert_uint_eq(need, 99);
	ck_assert_str_eq(err.message,
			 "minValues requirement is not met for label(s) (label(s)=[example.com/family])");
	ck_assert_str_eq(err.field, "example.com/family");
	kp_requirements *both = min_values_reqs(4, 3);
	ck_assert_int_eq(kp_instance_types_satisfies_min_values(&need, items, n, both, &err),
			 KP_EINCOMPATIBLE);
	ck_assert_str_eq(err.message, "minValues requirement is not met for label(s) "
				      "(label(s)=[example.com/family node.kubernetes.io/instance-type])");
	kp_requirements_free(both);
	kp_requirements_free(reqs);
	kp_instance_types_free(its);
}
END_TEST

START_TEST(truncate)
{
	/* Cheapest first: c4.large 1, c4.xlarge 2, c5.large 3, m4.large 4. */
	const char *names[] = { "m4.large", "c5.large", "c4.xlarge", "c4.large" };
	const char *fams[] = { "m4", "c5", "c4", "c4" };
	const double prices[] = { 4, 3, 2, 1 };
	kp_instance_types *its = family_catalogue(names, fams, prices, 4);
	size_t n;
	const kp_instance_type *const *items = kp_instance_types_items(its, &n);
	const kp_instance_type *arr[4];
	memcpy(arr, items, sizeof(arr));
	size_t kept = 99;
	ck_assert_int_eq(kp_instance_types_truncate(&kept, arr, n, NULL, NULL, 3, 0, NULL), KP_OK);
	ck_assert_uint_eq(kept, 3);
	ck_assert_str_eq(names_of(arr, n), "c4.large c4.xlarge c5.large m4.large");

	/* Families minValues 3: the 3 cheapest have only c4 and c5. */
	kp_requirements *reqs = min_values_reqs(0, 3);
	memcpy(arr, items, sizeof(arr));
	kp_error err = KP_ERROR_INIT;
	kept = 99;
	ck_assert_int_eq(kp_instance_types_truncate(&kept, arr, n, reqs, NULL, 3, 0, &err),
			 KP_EINCOMPATIBLE);
	ck_assert_str_eq(err.message, "validating minValues, minValues requirement is not met for "
				      "label(s) (label(s)=[example.com/family])");
	ck_assert_uint_eq(kept, 99);
	ck_assert_str_eq(names_of(arr, n), "m4.large c5.large c4.xlarge c4.large"); /* untouched */
	/* BestEffort truncates anyway. */
	ck_assert_int_eq(kp_instance_types_truncate(&kept, arr, n, reqs, NULL, 3,
						    KP_TRUNCATE_MIN_VALUES_BEST_EFFORT, &err), KP_OK);
	ck_assert_uint_eq(kept, 3);
	/* Room for all four: fine. */
	memcpy(arr, items, sizeof(arr));
	ck_assert_int_eq(kp_instance_types_truncate(&kept, arr, n, reqs, NULL, 10, 0, &err), KP_OK);
	ck_assert_uint_eq(kept, 4);
	ck_assert_int_eq(kp_instance_types_truncate(&kept, arr, n, reqs, NULL, 10, 2, &err),
			 KP_EINVAL);
	ck_assert_str_eq(err.message, "unknown flags 0x2");
	ck_assert_int_eq(kp_instance_types_truncate(NULL, arr, n, reqs, NULL, 10, 0, &err), KP_EINVAL);
	ck_assert_int_eq(kp_instance_types_truncate(&kept, NULL, 0, reqs, NULL, 10, 0, &err), KP_OK);
	ck_assert_uint_eq(kept, 0);
	kp_requirements_free(reqs);
	kp_instance_types_free(its);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("instancetypes");
	TCase *tc = tcase_create("catalogue");
	tcase_add_test(tc, build_and_find);
	tcase_add_test(tc, instance_type_requirement_kept);
	tcase_add_test(tc, refcount_and_freeze);
	tcase_add_loop_test(tc, add_rejects, 0, (int)N(bad_cases));
	tcase_add_test(tc, price_bounds_accepted);
	tcase_add_test(tc, add_null_arguments);
	suite_add_tcase(s, tc);

	tc = tcase_create("allocatable");
	tcase_add_loop_test(tc, allocatable, 0, (int)N(alloc_cases));
	suite_add_tcase(s, tc);

	tc = tcase_create("offerings");
	tcase_add_test(tc, cheapest_offering);
	tcase_add_test(tc, offering_custom_requirement);
	tcase_add_test(tc, worst_launch_price);
	suite_add_tcase(s, tc);

	tc = tcase_create("arrays");
	tcase_add_test(tc, order_by_price);
	tcase_add_test(tc, satisfies_min_values_passes);
	tcase_add_test(tc, satisfies_min_values_fails);
	tcase_add_test(tc, truncate);
	suite_add_tcase(s, tc);
	return kp_test_run(&s, 1);
}
