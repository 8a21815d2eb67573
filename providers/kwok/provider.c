/*
 * libkarpenter-kwok: the provider (upstream kwok/cloudprovider/cloudprovider.go).
 *
 * Upstream creates a Node object per launch and answers Get and List from
 * the API server; here an in-memory table of instances, sorted by provider
 * ID, plays the API server's part. Everything random upstream (node name
 * suffixes, the offering among equally cheap ones, the KWOK partition) is
 * deterministic here; kwok.h documents each choice.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <karpenter/version.h>

#include "kwok_private.h"

/* A node class the caller declared. */
struct nodeclass {
	char *name;
	int not_ready;  /* Ready condition is False */
	char *message;  /* its message */
};

/* One launched instance; view's pointers point into the record. */
struct instance {
	kp_instance view;
	char *provider_id;
	char *nodeclaim_name;
	uint64_t sequence;
};

struct provider {
	kp_instance_types *its;
	kp_wellknown *wk;
	int model_nodeclasses; /* 0: every node class exists and is ready */
	struct nodeclass *ncs;
	size_t n_ncs;
	uint64_t next_sequence;
	struct instance **items; /* sorted by provider_id */
	size_t n_items, cap_items;
	const kp_instance **list_view;
	size_t cap_list;
};

static const kp_repair_policy repair_policies[] = {
	{ "Ready", "False", 10 * 60 * 1000 },
	{ "Ready", "Unknown", 10 * 60 * 1000 },
};

static const kp_group_kind node_classes[] = {
	{ KP_KWOK_GROUP, KP_KWOK_NODECLASS_KIND },
};

/* ------------------------------------------------------------------ */
/* Instance table                                                      */

static void instance_free(struct instance *in)
{
	if (!in)
		return;
	kp_prov__instance_dispose(&in->view);
	free(in->provider_id);
	free(in->nodeclaim_name);
	free(in);
}

/* Index of @p provider_id, or where it would go (*found 0). */
static size_t table_find(const struct provider *p, const char *provider_id, int *found)
{
	size_t lo = 0, hi = p->n_items;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(p->items[mid]->provider_id, provider_id);
		if (c == 0) {
			*found = 1;
			return mid;
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	*found = 0;
	return lo;
}

static int table_insert(struct provider *p, struct instance *in)
{
	int found;
	size_t at = table_find(p, in->provider_id, &found);
	if (found)
		return KP_EINVAL; /* cannot happen: sequences are unique */
	if (p->n_items == p->cap_items) {
		size_t cap = p->cap_items ? p->cap_items * 2 : 16;
		struct instance **items = realloc(p->items, cap * sizeof(*items));
		if (!items)
			return KP_ENOMEM;
		p->items = items;
		p->cap_items = cap;
	}
	memmove(&p->items[at + 1], &p->items[at], (p->n_items - at) * sizeof(*p->items));
	p->items[at] = in;
	p->n_items++;
	return KP_OK;
}

static void table_remove(struct provider *p, size_t at)
{
	instance_free(p->items[at]);
	memmove(&p->items[at], &p->items[at + 1], (p->n_items - at - 1) * sizeof(*p->items));
	p->n_items--;
}

/*
 * Copy a record into the caller's kp_instance (which the core initializes
 * with KP_INSTANCE_INIT); a smaller struct_size than this provider's
 * kp_instance cannot hold the description.
 */
static int fill_out(kp_instance *out, const struct instance *in, kp_error *err)
{
	if (out->struct_size < sizeof(kp_instance))
		return kp_kwok__error(err, KP_EVERSION, NULL,
				      "kwok: kp_instance struct_size %" PRIu32 " is smaller than %zu",
				      out->struct_size, sizeof(kp_instance));
	uint32_t size = out->struct_size;
	memcpy(out, &in->view, sizeof(kp_instance));
	out->struct_size = size;
	return KP_OK;
}

/* ------------------------------------------------------------------ */
/* Create                                                              */

static int is_in(const kp_nodeclaim_requirement *r)
{
	if (r->op)
		return r->op == KP_SELECTOR_OP_IN;
	return r->operator_name && strcmp(r->operator_name, "In") == 0;
}

/* The NodeClaim's requirements as a set (upstream
 * NewNodeSelectorRequirementsWithMinValues). */
static int nodeclaim_requirements(struct provider *p, const kp_nodeclaim_spec *spec,
				  kp_requirements **out, kp_error *err)
{
	size_t n = spec->n_requirements;
	kp_node_selector_requirement *sels = calloc(n ? n : 1, sizeof(*sels));
	const kp_node_selector_requirement **ptrs = calloc(n ? n : 1, sizeof(*ptrs));
	int rc = KP_OK;
	if (!sels || !ptrs)
		rc = kp_kwok__error(err, KP_ENOMEM, NULL, "kwok: out of memory");
	for (size_t i = 0; rc == KP_OK && i < n; i++) {
		kp_node_selector_requirement s = KP_NODE_SELECTOR_REQUIREMENT_INIT;
		sels[i] = s;
		ptrs[i] = &sels[i];
		if (!spec->requirements[i]) {
			rc = kp_kwok__error(err, KP_EINVAL, "spec.requirements",
					    "kwok: spec.requirements[%zu] is NULL", i);
			break;
		}
		rc = kp_nodeclaim_requirement_view(spec->requirements[i], &sels[i], err);
		if (rc != KP_OK && err) {
			/* Prefix the field with "spec.requirements[i]." (truncating). */
			char prefix[48]; /* a constant and a size_t: always fits */
			size_t pl = (size_t)snprintf(prefix, sizeof(prefix), "spec.requirements[%zu].", i);
			size_t fl = strlen(err->field);
			if (pl + fl > sizeof(err->field) - 1)
				fl = sizeof(err->field) - 1 - pl;
			memmove(err->field + pl, err->field, fl);
			memcpy(err->field, prefix, pl);
			err->field[pl + fl] = '\0';
		}
	}
	if (rc == KP_OK)
		rc = kp_requirements_from_selectors(out, ptrs, n, p->wk, err);
	free(sels);
	free(ptrs);
	return rc;
}

/* Upstream toNode's choice: the cheapest available offering compatible with
 * the NodeClaim's requirements over the listed instance types. */
static int choose(struct provider *p, const kp_nodeclaim_spec *spec,
		  const kp_instance_type **out_it, const kp_offering **out_off, kp_error *err)
{
	const kp_nodeclaim_requirement *itr = NULL;
	for (size_t i = 0; i < spec->n_requirements; i++) {
		const kp_nodeclaim_requirement *r = spec->requirements[i];
		if (r && r->key && strcmp(r->key, KP_LABEL_INSTANCE_TYPE) == 0) {
			itr = r;
			break;
		}
	}
	if (!itr)
		return kp_kwok__error(err, KP_EINVAL, "spec.requirements",
				      "translating nodeclaim to node, instance type requirement "
				      "not found");
	if (itr->n_values && !itr->values)
		return kp_kwok__error(err, KP_EINVAL, "spec.requirements",
				      "translating nodeclaim to node, instance type values are NULL");
	if (!is_in(itr))
		return kp_kwok__error(err, KP_EINVAL, "spec.requirements",
				      "translating nodeclaim to node, the instance type "
				      "requirement must use the In operator");

	kp_requirements *reqs = NULL;
	int rc = nodeclaim_requirements(p, spec, &reqs, err);
	if (rc != KP_OK)
		return rc;
	const kp_instance_type *best_it = NULL;
	const kp_offering *best = NULL;
	for (size_t v = 0; v < itr->n_values; v++) {
		const char *name = itr->values[v] ? itr->values[v] : "";
		const kp_instance_type *it = kp_instance_types_find(p->its, name);
		if (!it) {
			rc = kp_kwok__error(err, KP_EINVAL, "spec.requirements",
					    "translating nodeclaim to node, instance type not "
					    "found (instance-type=%s)", name);
			break;
		}
		/* Ties: the first offering of a type (kp_instance_type_cheapest_offering)
		 * and the first type in the requirement's order (strict <). */
		const kp_offering *off = kp_instance_type_cheapest_offering(it, reqs, p->wk);
		if (off && (!best || off->price < best->price)) {
			best = off;
			best_it = it;
		}
	}
	kp_requirements_free(reqs);
	if (rc != KP_OK)
		return rc;
	if (!best)
		return kp_kwok__error(err, KP_EINSUFFICIENT, NULL,
				      "no available offering of %zu instance type(s) is compatible "
				      "with the nodeclaim's requirements", itr->n_values);
	*out_it = best_it;
	*out_off = best;
	return KP_OK;
}

/* Upstream resolveNodeClassFromNodeClaim and the readiness check. */
static int check_nodeclass(struct provider *p, const kp_nodeclaim_spec *spec, kp_error *err)
{
	if (!p->model_nodeclasses)
		return KP_OK;
	const kp_node_class_reference *ref = spec->node_class_ref;
	if (!ref || !ref->name)
		return kp_kwok__error(err, KP_EINVAL, "spec.nodeClassRef",
				      "resolving node class from nodeclaim, spec.nodeClassRef.name "
				      "is required");
	for (size_t i = 0; i < p->n_ncs; i++) {
		const struct nodeclass *nc = &p->ncs[i];
		if (strcmp(nc->name, ref->name) != 0)
			continue;
		if (!nc->not_ready)
			return KP_OK;
		if (nc->message && nc->message[0])
			return kp_kwok__error(err, KP_ENOTREADY, NULL, "%s", nc->message);
		return kp_kwok__error(err, KP_ENOTREADY, NULL, "%s \"%s\" is not ready",
				      KP_KWOK_NODECLASS_KIND, nc->name);
	}
	return kp_kwok__error(err, KP_EINSUFFICIENT, NULL,
			      "resolving node class from nodeclaim, kwoknodeclasses." KP_KWOK_GROUP
			      " \"%s\" not found", ref->name);
}

/* Upstream addInstanceLabels: single-valued In requirements of a set. */
static int set_requirement_labels(kp_labels *labels, kp_requirements *reqs, kp_error *err)
{
	size_t n = kp_requirements_count(reqs);
	int rc = KP_OK;
	for (size_t i = 0; rc == KP_OK && i < n; i++) {
		kp_requirement *r = kp_requirements_at(reqs, i);
		if (kp_requirement_len(r) == 1 && kp_requirement_operator(r) == KP_SELECTOR_OP_IN)
			rc = kp_labels_set(labels, kp_requirement_key(r), kp_requirement_value_at(r, 0),
					   err);
	}
	return rc;
}

static int build_labels(kp_labels *labels, const kp_nodeclaim *nc, const kp_instance_type *it,
			const kp_offering *off, kp_error *err)
{
	const kp_labels *own = &nc->metadata->labels;
	int rc = KP_OK;
	for (size_t i = 0; rc == KP_OK && own->items && i < own->count; i++)
		if (own->items[i].key)
			rc = kp_labels_set(labels, own->items[i].key, own->items[i].value, err);
	const kp_nodeclaim_spec *spec = nc->spec;
	for (size_t i = 0; rc == KP_OK && i < spec->n_requirements; i++) {
		const kp_nodeclaim_requirement *r = spec->requirements[i];
		if (r && r->key && r->values && r->n_values == 1 && is_in(r))
			rc = kp_labels_set(labels, r->key, r->values[0], err);
	}
	if (rc == KP_OK)
		rc = kp_labels_set(labels, KP_LABEL_INSTANCE_TYPE, it->name, err);
	if (rc == KP_OK)
		rc = set_requirement_labels(labels, it->requirements, err);
	if (rc == KP_OK)
		rc = set_requirement_labels(labels, off->requirements, err);
	/* Fits by construction: the core refuses a price above 1e6
	 * (kp_instance_types_add), so "%f" writes at most "1000000.000000". */
	char price[64];
	snprintf(price, sizeof(price), "%f", off->price);
	if (rc == KP_OK)
		rc = kp_labels_set(labels, KP_KWOK_LABEL_NODE_VIEWER_PRICE, price, err);
	if (rc == KP_OK)
		rc = kp_labels_set(labels, KP_KWOK_LABEL_PARTITION, KP_KWOK_PARTITION, err);
	if (rc == KP_OK)
		rc = kp_labels_set(labels, KP_LABEL_HOSTNAME, nc->metadata->name, err);
	if (rc == KP_OK)
		rc = kp_labels_set(labels, KP_KWOK_LABEL_NODE, KP_KWOK_LABEL_NODE_VALUE, err);
	return rc;
}

static int kwok_create(void *self, const kp_nodeclaim *nc, kp_instance *out, kp_error *err)
{
	struct provider *p = self;
	if (!nc || !out)
		return kp_kwok__error(err, KP_EINVAL, NULL, "kwok create: %s is NULL",
				      nc ? "out" : "nodeclaim");
	if (!nc->metadata || !nc->metadata->name || !nc->metadata->name[0])
		return kp_kwok__error(err, KP_EINVAL, "metadata.name",
				      "kwok create: the nodeclaim has no name");
	if (!nc->spec)
		return kp_kwok__error(err, KP_EINVAL, "spec", "kwok create: the nodeclaim has no spec");
	if (nc->spec->n_requirements && !nc->spec->requirements)
		return kp_kwok__error(err, KP_EINVAL, "spec.requirements",
				      "kwok create: requirements is NULL");

	/* Upstream order: toNode (the choice) first, then the node class. */
	const kp_instance_type *it = NULL;
	const kp_offering *off = NULL;
	int rc = choose(p, nc->spec, &it, &off, err);
	if (rc == KP_OK)
		rc = check_nodeclass(p, nc->spec, err);
	if (rc != KP_OK)
		return rc;

	struct instance *in = calloc(1, sizeof(*in));
	if (!in)
		return kp_kwok__error(err, KP_ENOMEM, NULL, "kwok create: out of memory");
	kp_instance init = KP_INSTANCE_INIT;
	in->view = init;
	in->sequence = p->next_sequence;
	const char *ncname = nc->metadata->name;
	size_t len = strlen("kwok-") + strlen(ncname) + 1 + 20 + 1;
	size_t plen = strlen(KP_KWOK_PROVIDER_ID_PREFIX);
	in->provider_id = malloc(plen + len);
	in->nodeclaim_name = kp_kwok__strdup(ncname);
	if (!in->provider_id || !in->nodeclaim_name) {
		rc = kp_kwok__error(err, KP_ENOMEM, NULL, "kwok create: out of memory");
		goto fail;
	}
	snprintf(in->provider_id, plen + len, "%skwok-%s-%" PRIu64, KP_KWOK_PROVIDER_ID_PREFIX,
		 ncname, in->sequence);
	in->view.provider_id = in->provider_id;
	in->view.nodeclaim_name = in->nodeclaim_name;

	rc = build_labels(&in->view.labels, nc, it, off, err);
	/* Upstream addKwokAnnotation: the node (and NodeClaim) annotation. */
	if (rc == KP_OK)
		rc = kp_labels_set(&in->view.annotations, KP_KWOK_LABEL_NODE,
				   KP_KWOK_LABEL_NODE_VALUE, err);
	/* Upstream: capacity = the NodeClaim's requests; allocatable = those
	 * requests with the instance type's allocatable assigned over them. */
	static const kp_resource_list none = KP_RESOURCE_LIST_INIT;
	const kp_resource_list *requests = nc->spec->resources ? &nc->spec->resources->requests : &none;
	if (rc == KP_OK)
		rc = kp_resources_copy(&in->view.capacity, requests, err);
	if (rc == KP_OK)
		rc = kp_resources_copy(&in->view.allocatable, requests, err);
	for (size_t i = 0; rc == KP_OK && i < it->allocatable->count; i++)
		rc = kp_resources_set(&in->view.allocatable, it->allocatable->items[i].name,
				      &it->allocatable->items[i].quantity, err);
	if (rc != KP_OK)
		goto fail;
	rc = table_insert(p, in);
	if (rc != KP_OK) {
		kp_kwok__error(err, rc, NULL, "kwok create: out of memory");
		goto fail;
	}
	p->next_sequence++;
	return fill_out(out, in, err);
fail:
	instance_free(in);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Delete, get, list                                                   */

static int kwok_delete(void *self, const kp_nodeclaim *nc, kp_error *err)
{
	struct provider *p = self;
	if (!nc)
		return kp_kwok__error(err, KP_EINVAL, NULL, "kwok delete: nodeclaim is NULL");
	const char *pid = nc->status ? nc->status->provider_id : NULL;
	if (pid && pid[0]) {
		int found;
		size_t at = table_find(p, pid, &found);
		if (!found)
			return kp_kwok__error(err, KP_ENOTFOUND, NULL,
					      "deleting node, instance \"%s\" not found", pid);
		table_remove(p, at);
		return kp_kwok__error(err, KP_ENOTFOUND, NULL, "instance terminated");
	}
	/* No provider ID yet: the first instance launched for this NodeClaim. */
	const char *name = nc->metadata ? nc->metadata->name : NULL;
	size_t best = p->n_items;
	for (size_t i = 0; name && i < p->n_items; i++)
		if (strcmp(p->items[i]->nodeclaim_name, name) == 0 &&
		    (best == p->n_items || p->items[i]->sequence < p->items[best]->sequence))
			best = i;
	if (best == p->n_items)
		return kp_kwok__error(err, KP_ENOTFOUND, NULL,
				      "deleting node, no instance was launched for nodeclaim \"%s\"",
				      name ? name : "");
	table_remove(p, best);
	return kp_kwok__error(err, KP_ENOTFOUND, NULL, "instance terminated");
}

static int kwok_get(void *self, const char *provider_id, kp_instance *out, kp_error *err)
{
	struct provider *p = self;
	if (!provider_id || !out)
		return kp_kwok__error(err, KP_EINVAL, NULL, "kwok get: %s is NULL",
				      out ? "provider_id" : "out");
	/* Upstream strips the prefix and looks the node name up, so a bare
	 * node name finds the instance too. */
	size_t plen = strlen(KP_KWOK_PROVIDER_ID_PREFIX);
	const char *node = strncmp(provider_id, KP_KWOK_PROVIDER_ID_PREFIX, plen) == 0
				   ? provider_id + plen
				   : provider_id;
	int found;
	size_t at = table_find(p, provider_id, &found);
	if (!found && node == provider_id) {
		size_t n = plen + strlen(node) + 1;
		char *full = malloc(n);
		if (!full)
			return kp_kwok__error(err, KP_ENOMEM, NULL, "kwok get: out of memory");
		snprintf(full, n, "%s%s", KP_KWOK_PROVIDER_ID_PREFIX, node);
		at = table_find(p, full, &found);
		free(full);
	}
	if (!found)
		return kp_kwok__error(err, KP_ENOTFOUND, NULL,
				      "finding node, nodes \"%s\" not found", node);
	return fill_out(out, p->items[at], err);
}

static int kwok_list(void *self, const kp_instance *const **out, size_t *n, kp_error *err)
{
	struct provider *p = self;
	if (!out || !n)
		return kp_kwok__error(err, KP_EINVAL, NULL, "kwok list: %s is NULL",
				      out ? "n" : "out");
	if (p->n_items > p->cap_list) {
		const kp_instance **v = realloc(p->list_view, p->n_items * sizeof(*v));
		if (!v)
			return kp_kwok__error(err, KP_ENOMEM, NULL, "kwok list: out of memory");
		p->list_view = v;
		p->cap_list = p->n_items;
	}
	for (size_t i = 0; i < p->n_items; i++)
		p->list_view[i] = &p->items[i]->view;
	*out = p->list_view;
	*n = p->n_items;
	return KP_OK;
}

/* ------------------------------------------------------------------ */
/* The rest of the contract                                            */

static int kwok_get_instance_types(void *self, const kp_nodepool *nodepool,
				   kp_instance_types **out, kp_error *err)
{
	struct provider *p = self;
	if (!out)
		return kp_kwok__error(err, KP_EINVAL, NULL, "kwok get_instance_types: out is NULL");
	*out = kp_instance_types_ref(p->its);
	return KP_OK;
}

static int kwok_is_drifted(void *self, const kp_nodeclaim *nodeclaim, char *reason,
			   size_t reason_size, kp_error *err)
{
	if (reason && reason_size)
		reason[0] = '\0';
	return KP_OK;
}

static int kwok_repair_policies(void *self, const kp_repair_policy **out, size_t *n,
				kp_error *err)
{
	if (!out || !n)
		return kp_kwok__error(err, KP_EINVAL, NULL, "kwok repair_policies: %s is NULL",
				      out ? "n" : "out");
	*out = repair_policies;
	*n = sizeof(repair_policies) / sizeof(repair_policies[0]);
	return KP_OK;
}

static int kwok_supported_node_classes(void *self, const kp_group_kind **out, size_t *n,
				       kp_error *err)
{
	if (!out || !n)
		return kp_kwok__error(err, KP_EINVAL, NULL,
				      "kwok supported_node_classes: %s is NULL", out ? "n" : "out");
	*out = node_classes;
	*n = 1;
	return KP_OK;
}

static void kwok_destroy(void *self)
{
	struct provider *p = self;
	if (!p)
		return;
	for (size_t i = 0; i < p->n_items; i++)
		instance_free(p->items[i]);
	free(p->items);
	free(p->list_view);
	for (size_t i = 0; i < p->n_ncs; i++) {
		free(p->ncs[i].name);
		free(p->ncs[i].message);
	}
	free(p->ncs);
	kp_wellknown_free(p->wk);
	kp_instance_types_free(p->its);
	free(p);
}

static const kp_cloudprovider_ops kwok_ops = {
	sizeof(kp_cloudprovider_ops),
	KP_ABI_MAJOR,
	0, /* one thread at a time */
	0,
	KP_KWOK_PROVIDER_NAME,
	kwok_create,
	kwok_delete,
	kwok_get,
	kwok_list,
	kwok_get_instance_types,
	kwok_is_drifted,
	kwok_repair_policies,
	kwok_supported_node_classes,
	kwok_destroy,
};

/* ------------------------------------------------------------------ */
/* Construction                                                        */

KP_EXPORT void kp_kwok_provider_options_init(kp_kwok_provider_options *options)
{
	if (options) {
		kp_kwok_provider_options init = KP_KWOK_PROVIDER_OPTIONS_INIT;
		*options = init;
	}
}

/* Options from an older caller read as zero-extended; a newer caller's
 * unknown tail must be zero. */
static int read_options(kp_kwok_provider_options *o, const kp_kwok_provider_options *in,
			kp_error *err)
{
	kp_kwok_provider_options_init(o);
	if (!in)
		return KP_OK;
	if (in->struct_size < sizeof(kp_kwok_provider_options)) {
		return kp_kwok__error(err, KP_EVERSION, "struct_size",
				      "kwok provider options: struct_size %" PRIu32
				      " is smaller than the first published size %zu",
				      in->struct_size, sizeof(kp_kwok_provider_options));
	}
	const unsigned char *tail = (const unsigned char *)in + sizeof(*o);
	for (size_t i = sizeof(*o); i < in->struct_size; i++, tail++)
		if (*tail)
			return kp_kwok__error(err, KP_EVERSION, "struct_size",
					      "kwok provider options: struct_size %" PRIu32
					      " has non-zero fields unknown to this library (%zu bytes)",
					      in->struct_size, sizeof(*o));
	memcpy(o, in, sizeof(*o));
	o->struct_size = sizeof(*o);
	if (o->reserved)
		return kp_kwok__error(err, KP_EINVAL, "reserved",
				      "kwok provider options: reserved must be zero");
	return KP_OK;
}

static int copy_nodeclasses(struct provider *p, const kp_kwok_provider_options *o, kp_error *err)
{
	if (!o->nodeclasses)
		return KP_OK;
	p->model_nodeclasses = 1;
	if (!o->n_nodeclasses)
		return KP_OK;
	p->ncs = calloc(o->n_nodeclasses, sizeof(*p->ncs));
	if (!p->ncs)
		return kp_kwok__error(err, KP_ENOMEM, NULL, "kwok provider: out of memory");
	for (size_t i = 0; i < o->n_nodeclasses; i++) {
		const kp_kwok_nodeclass *nc = o->nodeclasses[i];
		char field[64];
		snprintf(field, sizeof(field), "nodeclasses[%zu]", i);
		if (!nc)
			return kp_kwok__error(err, KP_EINVAL, field, "kwok provider: %s is NULL",
					      field);
		if (nc->struct_size < sizeof(kp_kwok_nodeclass))
			return kp_kwok__error(err, KP_EVERSION, field,
					      "kwok provider: %s: struct_size %" PRIu32
					      " is too small", field, nc->struct_size);
		if (!nc->metadata || !nc->metadata->name)
			return kp_kwok__error(err, KP_EINVAL, field,
					      "kwok provider: %s has no metadata.name", field);
		struct nodeclass *dst = &p->ncs[p->n_ncs++];
		dst->name = kp_kwok__strdup(nc->metadata->name);
		if (!dst->name)
			return kp_kwok__error(err, KP_ENOMEM, NULL, "kwok provider: out of memory");
		/* Upstream: StatusConditions().Get(Ready).IsFalse(). */
		const kp_kwok_nodeclass_status *st = nc->status;
		const kp_condition *c =
			st ? kp_condition_find(st->conditions, st->n_conditions, "Ready") : NULL;
		if (c && c->status && strcmp(c->status, "False") == 0) {
			dst->not_ready = 1;
			dst->message = kp_kwok__strdup(c->message ? c->message : "");
			if (!dst->message)
				return kp_kwok__error(err, KP_ENOMEM, NULL, "kwok provider: out of memory");
		}
	}
	return KP_OK;
}

KP_EXPORT int kp_kwok_provider_new(kp_cloudprovider **out, const kp_kwok_provider_options *options,
				   kp_error *err)
{
	if (!out)
		return kp_kwok__error(err, KP_EINVAL, NULL, "kwok provider: out is NULL");
	kp_kwok_provider_options o;
	int rc = read_options(&o, options, err);
	if (rc != KP_OK)
		return rc;
	struct provider *p = calloc(1, sizeof(*p));
	if (!p)
		return kp_kwok__error(err, KP_ENOMEM, NULL, "kwok provider: out of memory");
	p->next_sequence = o.sequence_start;
	if (o.instance_types)
		p->its = kp_instance_types_ref(o.instance_types);
	else
		rc = kp_kwok_catalog_builtin(&p->its, err);
	if (rc == KP_OK)
		rc = kp_wellknown_new(&p->wk, err);
	if (rc == KP_OK)
		rc = kp_kwok_wellknown_add(p->wk, p->its, err);
	if (rc == KP_OK)
		rc = copy_nodeclasses(p, &o, err);
	if (rc != KP_OK) {
		kwok_destroy(p);
		return rc;
	}
	kp_cloudprovider *cp = NULL;
	rc = kp_cloudprovider_new(&cp, &kwok_ops, p, err);
	if (rc != KP_OK) {
		kwok_destroy(p); /* still ours on failure */
		return rc;
	}
	*out = cp;
	return KP_OK;
}
