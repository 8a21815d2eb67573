/*
 * "Acme Cloud": a cloud provider with a static catalogue of four instance
 * types and an in-memory list of launched instances. It uses only
 * libkarpenter's public API: it describes its instance types with
 * kp_instance_type_spec and its instances with kp_instance, and lets the
 * core build and own everything else.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "acme.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define MAX_INSTANCES 16

/* ---- the static catalogue ---- */

struct acme_offering {
	const char *capacity_type;
	const char *zone;
	double price;
	int available;
};

struct acme_type {
	const char *name;
	const char *family;
	const char *cpu;
	const char *memory;
	const char *gpu; /* NULL: none */
	struct acme_offering offerings[3];
};

static const struct acme_type catalogue[] = {
	{ "acme.small", "general", "2", "4Gi", NULL,
	  { { "spot", "acme-1a", 0.0180, 1 }, { "spot", "acme-1b", 0.0150, 1 },
	    { "on-demand", "acme-1a", 0.0500, 1 } } },
	{ "acme.medium", "general", "4", "16Gi", NULL,
	  { { "spot", "acme-1a", 0.0600, 1 }, { "spot", "acme-1b", 0.0550, 0 },
	    { "on-demand", "acme-1a", 0.1900, 1 } } },
	{ "acme.large", "compute", "8", "16Gi", NULL,
	  { { "spot", "acme-1a", 0.0900, 1 }, { "on-demand", "acme-1a", 0.3400, 1 },
	    { "on-demand", "acme-1b", 0.3400, 1 } } },
	{ "acme.gpu", "accelerated", "8", "64Gi", "1",
	  { { "on-demand", "acme-1a", 1.2000, 1 }, { "on-demand", "acme-1b", 1.2000, 0 },
	    { NULL, NULL, 0, 0 } } },
};

/* ---- provider state ---- */

struct acme_instance {
	char provider_id[64];
	char nodeclaim[64];
	const kp_instance_type *type;
	const kp_offering *offering;
	const char *family;
	int64_t created_ms;
	int64_t deletion_ms;        /* 0 while running */
	kp_label labels[6];
	kp_instance record;
};

struct acme {
	kp_instance_types *its;
	kp_wellknown *wk;          /* core labels + ACME_LABEL_FAMILY */
	struct acme_instance *instances[MAX_INSTANCES];
	size_t n;
	unsigned next_id;
	const kp_instance *list_view[MAX_INSTANCES];
};

static int fail(kp_error *err, int code, const char *message)
{
	if (err) {
		memset(err, 0, sizeof(*err));
		err->code = code;
		snprintf(err->message, sizeof(err->message), "%s", message);
	}
	return code;
}

static int parse(kp_resource *r, const char *name, const char *text)
{
	r->name = name;
	return kp_quantity_parse(&r->quantity, text, NULL);
}

static int add_type(kp_instance_types *its, const struct acme_type *t, kp_error *err)
{
	/* Capacity and overhead (kube reserved, eviction threshold). */
	kp_resource cap[4], kube[2], evict[1];
	size_t n_cap = 0;
	int rc = parse(&cap[n_cap++], "cpu", t->cpu);
	rc = rc ? rc : parse(&cap[n_cap++], "memory", t->memory);
	rc = rc ? rc : parse(&cap[n_cap++], "pods", "110");
	if (!rc && t->gpu)
		rc = parse(&cap[n_cap++], "nvidia.com/gpu", t->gpu);
	rc = rc ? rc : parse(&kube[0], "cpu", "100m");
	rc = rc ? rc : parse(&kube[1], "memory", "512Mi");
	rc = rc ? rc : parse(&evict[0], "memory", "100Mi");
	if (rc)
		return fail(err, rc, "bad quantity in the Acme catalogue");
	kp_resource_list capacity = { cap, n_cap }, kube_reserved = { kube, 2 }, eviction = { evict, 1 };

	/* Offerings; the zones and capacity types they use become requirements. */
	kp_offering_spec offs[3];
	const kp_offering_spec *off_ptrs[3];
	const char *zones[3], *cts[3];
	size_t n_offs = 0, n_zones = 0, n_cts = 0;
	for (size_t i = 0; i < N(t->offerings) && t->offerings[i].zone; i++) {
		const struct acme_offering *o = &t->offerings[i];
		kp_offering_spec s = KP_OFFERING_SPEC_INIT;
		s.capacity_type = o->capacity_type;
		s.zone = o->zone;
		s.price = o->price;
		s.available = o->available ? 1 : 0;
		offs[n_offs] = s;
		off_ptrs[n_offs] = &offs[n_offs];
		n_offs++;
		size_t j;
		for (j = 0; j < n_zones && strcmp(zones[j], o->zone); j++)
			;
		if (j == n_zones)
			zones[n_zones++] = o->zone;
		for (j = 0; j < n_cts && strcmp(cts[j], o->capacity_type); j++)
			;
		if (j == n_cts)
			cts[n_cts++] = o->capacity_type;
	}
	const char *arch[] = { KP_ARCH_AMD64 }, *os[] = { KP_OS_LINUX }, *family[] = { t->family };
	kp_node_selector_requirement reqs[5];
	const struct {
		const char *key;
		const char *const *values;
		size_t n;
	} defs[5] = {
		{ KP_LABEL_ARCH, arch, 1 },
		{ KP_LABEL_OS, os, 1 },
		{ KP_LABEL_TOPOLOGY_ZONE, zones, n_zones },
		{ KP_LABEL_CAPACITY_TYPE, cts, n_cts },
		{ ACME_LABEL_FAMILY, family, 1 },
	};
	const kp_node_selector_requirement *req_ptrs[5];
	for (size_t i = 0; i < 5; i++) {
		kp_node_selector_requirement r = KP_NODE_SELECTOR_REQUIREMENT_INIT;
		r.op = KP_SELECTOR_OP_IN;
		r.key = defs[i].key;
		r.values = defs[i].values;
		r.n_values = defs[i].n;
		reqs[i] = r;
		req_ptrs[i] = &reqs[i];
	}

	kp_instance_type_spec spec = KP_INSTANCE_TYPE_SPEC_INIT;
	spec.name = t->name; /* the core adds node.kubernetes.io/instance-type In [name] */
	spec.requirements = req_ptrs;
	spec.n_requirements = 5;
	spec.capacity = &capacity;
	spec.kube_reserved = &kube_reserved;
	spec.eviction_threshold = &eviction;
	spec.offerings = off_ptrs;
	spec.n_offerings = n_offs;
	return kp_instance_types_add(its, &spec, err);
}

static const char *family_of(const char *type)
{
	for (size_t i = 0; i < N(catalogue); i++)
		if (strcmp(catalogue[i].name, type) == 0)
			return catalogue[i].family;
	return "";
}

static void describe(struct acme_instance *in, kp_instance *out)
{
	out->provider_id = in->provider_id;
	out->image_id = "acme-linux-2024.1";
	out->nodeclaim_name = in->nodeclaim;
	out->labels.items = in->labels;
	out->labels.count = N(in->labels);
	out->capacity = *in->type->capacity;       /* borrowed from the catalogue */
	out->allocatable = *in->type->allocatable;
	out->created_ms = in->created_ms;
	out->deletion_ms = in->deletion_ms;
}

/* ---- the vtable ---- */

/* The NodeClaim's requirements as a requirement set. */
static int nodeclaim_requirements(kp_requirements **out, const kp_nodeclaim *nc, kp_error *err)
{
	size_t n = nc->spec ? nc->spec->n_requirements : 0;
	kp_node_selector_requirement views[32];
	const kp_node_selector_requirement *ptrs[32];
	if (n > N(views))
		return fail(err, KP_EINVAL, "too many requirements");
	for (size_t i = 0; i < n; i++) {
		kp_node_selector_requirement v = KP_NODE_SELECTOR_REQUIREMENT_INIT;
		views[i] = v;
		int rc = kp_nodeclaim_requirement_view(nc->spec->requirements[i], &views[i], err);
		if (rc)
			return rc;
		ptrs[i] = &views[i];
	}
	return kp_requirements_from_selectors(out, ptrs, n, NULL, err);
}

static int acme_create(void *self, const kp_nodeclaim *nc, kp_instance *out, kp_error *err)
{
	struct acme *a = self;
	if (a->n == MAX_INSTANCES)
		return fail(err, KP_EINSUFFICIENT, "Acme account limit reached");
	kp_requirements *reqs = NULL;
	int rc = nodeclaim_requirements(&reqs, nc, err);
	if (rc)
		return rc;
	static const kp_resource_list no_requests = KP_RESOURCE_LIST_INIT;
	const kp_resource_list *requests =
		nc->spec && nc->spec->resources ? &nc->spec->resources->requests : &no_requests;

	/* Instance types the requirements allow, that fit the requests and
	 * have an available offering; then the cheapest of them. */
	size_t n = 0;
	const kp_instance_type *const *items = kp_instance_types_items(a->its, &n);
	const kp_instance_type *candidates[N(catalogue)];
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (kp_requirements_compatible(reqs, items[i]->requirements,
					       KP_COMPAT_ALLOW_UNDEFINED_WELLKNOWN, a->wk, NULL) == KP_OK &&
		    kp_resources_fits(requests, items[i]->allocatable, NULL) == KP_OK)
			candidates[k++] = items[i];
	k = kp_instance_types_filter_compatible(candidates, k, reqs, a->wk);
	rc = kp_instance_types_order_by_price(candidates, k, reqs, a->wk, err);
	if (!rc && k == 0)
		rc = fail(err, KP_EINSUFFICIENT,
			  "no Acme instance type satisfies the requirements and requests");
	if (rc) {
		kp_requirements_free(reqs);
		return rc;
	}
	const kp_instance_type *it = candidates[0];
	const kp_offering *of = kp_instance_type_cheapest_offering(it, reqs, a->wk);
	kp_requirements_free(reqs);

	struct acme_instance *in = calloc(1, sizeof(*in));
	if (!in)
		return fail(err, KP_ENOMEM, "out of memory");
	snprintf(in->provider_id, sizeof(in->provider_id), "acme:///%s/i-%07u", of->zone,
		 ++a->next_id);
	snprintf(in->nodeclaim, sizeof(in->nodeclaim), "%s",
		 nc->metadata && nc->metadata->name ? nc->metadata->name : "");
	in->type = it;
	in->offering = of;
	in->family = family_of(it->name);
	in->created_ms = (int64_t)time(NULL) * 1000;
	const kp_label labels[6] = {
		{ KP_LABEL_INSTANCE_TYPE, it->name },  { KP_LABEL_TOPOLOGY_ZONE, of->zone },
		{ KP_LABEL_CAPACITY_TYPE, of->capacity_type }, { KP_LABEL_ARCH, KP_ARCH_AMD64 },
		{ KP_LABEL_OS, KP_OS_LINUX },          { ACME_LABEL_FAMILY, in->family },
	};
	memcpy(in->labels, labels, sizeof(labels));
	a->instances[a->n++] = in;
	describe(in, out);
	return KP_OK;
}

static struct acme_instance *find(struct acme *a, const char *provider_id, size_t *index)
{
	for (size_t i = 0; provider_id && i < a->n; i++)
		if (strcmp(a->instances[i]->provider_id, provider_id) == 0) {
			if (index)
				*index = i;
			return a->instances[i];
		}
	return NULL;
}

/* Termination takes two calls: the first starts it, the second finds it gone. */
static int acme_delete(void *self, const kp_nodeclaim *nc, kp_error *err)
{
	struct acme *a = self;
	size_t i;
	struct acme_instance *in = find(a, nc->status ? nc->status->provider_id : NULL, &i);
	if (!in)
		return fail(err, KP_ENOTFOUND, "instance not found");
	if (!in->deletion_ms) {
		in->deletion_ms = (int64_t)time(NULL) * 1000;
		return KP_OK;
	}
	free(in);
	a->instances[i] = a->instances[--a->n];
	return fail(err, KP_ENOTFOUND, "instance terminated");
}

static int acme_get(void *self, const char *provider_id, kp_instance *out, kp_error *err)
{
	struct acme_instance *in = find(self, provider_id, NULL);
	if (!in)
		return fail(err, KP_ENOTFOUND, "instance not found");
	describe(in, out);
	return KP_OK;
}

static int acme_list(void *self, const kp_instance *const **out, size_t *n, kp_error *err)
{
	struct acme *a = self;
	(void)err;
	for (size_t i = 0; i < a->n; i++) {
		kp_instance_init(&a->instances[i]->record);
		describe(a->instances[i], &a->instances[i]->record);
		a->list_view[i] = &a->instances[i]->record;
	}
	*out = a->list_view;
	*n = a->n;
	return KP_OK;
}

static int acme_instance_types(void *self, const kp_nodepool *nodepool, kp_instance_types **out,
			       kp_error *err)
{
	struct acme *a = self;
	(void)nodepool;
	(void)err;
	*out = kp_instance_types_ref(a->its); /* one catalogue for every NodePool */
	return KP_OK;
}

static const kp_repair_policy acme_policies[] = {
	{ "Ready", "False", 10 * 60 * 1000 },
	{ "Ready", "Unknown", 10 * 60 * 1000 },
};

static int acme_repair_policies(void *self, const kp_repair_policy **out, size_t *n,
				kp_error *err)
{
	(void)self;
	(void)err;
	*out = acme_policies;
	*n = N(acme_policies);
	return KP_OK;
}

static const kp_group_kind acme_classes[] = { { ACME_NODECLASS_GROUP, ACME_NODECLASS_KIND } };

static int acme_node_classes(void *self, const kp_group_kind **out, size_t *n, kp_error *err)
{
	(void)self;
	(void)err;
	*out = acme_classes;
	*n = N(acme_classes);
	return KP_OK;
}

static void acme_destroy(void *self)
{
	struct acme *a = self;
	if (!a)
		return;
	for (size_t i = 0; i < a->n; i++)
		free(a->instances[i]);
	kp_instance_types_free(a->its);
	kp_wellknown_free(a->wk);
	free(a);
}

static const kp_cloudprovider_ops acme_ops = {
	.struct_size = sizeof(kp_cloudprovider_ops),
	.abi_major = KP_ABI_MAJOR, /* the headers this provider was built with */
	.name = "acme",
	.create = acme_create,
	.delete_instance = acme_delete,
	.get = acme_get,
	.list = acme_list,
	.get_instance_types = acme_instance_types,
	.repair_policies = acme_repair_policies,
	.supported_node_classes = acme_node_classes,
	.destroy = acme_destroy,
	/* is_drifted left NULL: Acme never reports provider drift. */
};

int acme_provider_new(kp_cloudprovider **out, kp_error *err)
{
	*out = NULL;
	struct acme *a = calloc(1, sizeof(*a));
	if (!a)
		return fail(err, KP_ENOMEM, "out of memory");
	int rc = kp_instance_types_new(&a->its, err);
	for (size_t i = 0; rc == KP_OK && i < N(catalogue); i++)
		rc = add_type(a->its, &catalogue[i], err);
	if (rc == KP_OK)
		rc = kp_wellknown_new(&a->wk, err);
	if (rc == KP_OK)
		rc = kp_wellknown_add_label(a->wk, ACME_LABEL_FAMILY, err);
	if (rc == KP_OK)
		rc = kp_cloudprovider_new(out, &acme_ops, a, err);
	if (rc != KP_OK)
		acme_destroy(a); /* still ours when registration fails */
	return rc;
}
