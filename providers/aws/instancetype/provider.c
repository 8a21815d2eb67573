/*
 * libkarpenter-aws: the AWS cloud provider offline (no EC2 calls): create
 * chooses what upstream's instance provider would ask CreateFleet for
 * (pkg/providers/instance: the launch filters and the spot-offering
 * filter, then the capacity type by reserved > spot > on-demand) and takes the cheapest offering of it, the
 * stand-in for EC2's allocation strategy; instances live in a table.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../aws_private.h"
#include "instancetype.h"

struct aws_instance {
	kp_instance view;
	char *provider_id;
	char *nodeclaim_name;
};

struct aws_provider {
	char **class_names;
	kp_instance_types **class_its;
	/* each class's drift hash in decimal, as its hash controller writes
	 * it, or NULL (not given, or being deleted: never drifts) */
	char **class_hashes;
	const char *hash_version; /* "v6" or "v5" (static) */
	size_t n_classes;
	kp_instance_types *default_its;
	kp_wellknown *wk;
	uint64_t next_sequence;
	struct aws_instance **items; /* in launch order */
	size_t n_items;
	const kp_instance **list_view;
};

static const kp_repair_policy repair_policy_table[] = {
	{ "Ready", "False", 30 * 60 * 1000 },
	{ "Ready", "Unknown", 30 * 60 * 1000 },
	{ "AcceleratedHardwareReady", "False", 10 * 60 * 1000 },
	{ "StorageReady", "False", 30 * 60 * 1000 },
	{ "NetworkingReady", "False", 30 * 60 * 1000 },
	{ "KernelReady", "False", 30 * 60 * 1000 },
	{ "ContainerRuntimeReady", "False", 30 * 60 * 1000 },
};

static const kp_group_kind aws_node_classes[] = {
	{ "karpenter.k8s.aws", "EC2NodeClass" },
};

static void aws_instance_free(struct aws_instance *in)
{
	if (!in)
		return;
	kp_prov__instance_dispose(&in->view);
	free(in->provider_id);
	free(in->nodeclaim_name);
	free(in);
}

static size_t class_index(const struct aws_provider *p, const char *class_name)
{
	for (size_t i = 0; class_name && i < p->n_classes; i++)
		if (!strcmp(p->class_names[i], class_name))
			return i;
	return p->n_classes;
}

static kp_instance_types *catalogue_for(struct aws_provider *p, const char *class_name)
{
	size_t i = class_index(p, class_name);
	return i < p->n_classes ? p->class_its[i] : p->default_its;
}

static int copy_out(kp_instance *out, const struct aws_instance *in, kp_error *err)
{
	if (out->struct_size < sizeof(kp_instance))
		return kp_aws__error(err, KP_EVERSION, NULL, "aws: kp_instance struct_size %" PRIu32
				     " is smaller than %zu", out->struct_size, sizeof(kp_instance));
	uint32_t size = out->struct_size;
	memcpy(out, &in->view, sizeof(kp_instance));
	out->struct_size = size;
	return KP_OK;
}

/* The NodeClaim's requirements as a set; @p ct_only, when set, narrows the
 * capacity type to it (upstream getCapacityType's probe). */
static int claim_requirements(struct aws_provider *p, const kp_nodeclaim_spec *spec,
			      const char *ct_only, kp_requirements **out, kp_error *err)
{
	size_t n = spec->n_requirements;
	kp_node_selector_requirement *sels = calloc(n + 1, sizeof(*sels));
	const kp_node_selector_requirement **ptrs = calloc(n + 1, sizeof(*ptrs));
	int rc = sels && ptrs ? KP_OK : kp_aws__error(err, KP_ENOMEM, NULL, "out of memory");
	size_t k = 0;
	for (size_t i = 0; rc == KP_OK && i < n; i++) {
		kp_node_selector_requirement init = KP_NODE_SELECTOR_REQUIREMENT_INIT;
		sels[k] = init;
		if (!spec->requirements[i])
			continue;
		rc = kp_nodeclaim_requirement_view(spec->requirements[i], &sels[k], err);
		if (rc == KP_OK && !(ct_only && !strcmp(sels[k].key, "karpenter.sh/capacity-type"))) {
			ptrs[k] = &sels[k];
			k++;
		}
	}
	if (rc == KP_OK)
		rc = kp_requirements_from_selectors(out, ptrs, k, p->wk, err);
	if (rc == KP_OK && ct_only) {
		kp_node_selector_requirement ct = KP_NODE_SELECTOR_REQUIREMENT_INIT;
		ct.key = "karpenter.sh/capacity-type";
		ct.op = KP_SELECTOR_OP_IN;
		ct.values = &ct_only;
		ct.n_values = 1;
		rc = kp_requirements_add_selector(*out, &ct, p->wk, err);
		if (rc) {
			kp_requirements_free(*out);
			*out = NULL;
		}
	}
	free(sels);
	free(ptrs);
	return rc;
}

/* Upstream getCapacityType: reserved, then spot, when the NodeClaim allows
 * it and a type has an available compatible offering of it. */
/* An offering create may take: available, compatible, and for spot not
 * dearer than @p spot_cap (upstream's spot-offering filter). */
static int usable(const kp_offering *of, kp_requirements *reqs, kp_wellknown *wk, double spot_cap)
{
	return of->available && !(strcmp(of->capacity_type, "spot") == 0 && of->price > spot_cap) &&
	       kp_offering_compatible(of, reqs, wk);
}

/* Upstream's spot-offering filter: for a NodeClaim that allows both spot
 * and on-demand (and has no minValues), spot offerings dearer than the
 * cheapest available compatible on-demand one are dropped. The cap, or
 * +inf when the filter does not apply. */
static double spot_cap(struct aws_provider *p, kp_requirements *reqs, const kp_instance_type **its,
		       size_t n)
{
	kp_requirement *ct = kp_requirements_get(reqs, "karpenter.sh/capacity-type");
	if (kp_requirements_has_min_values(reqs) ||
	    (ct && (!kp_requirement_has(ct, "on-demand") || !kp_requirement_has(ct, "spot"))))
		return HUGE_VAL;
	double cheapest_od = HUGE_VAL;
	int has_spot = 0;
	for (size_t i = 0; i < n; i++)
		for (size_t o = 0; o < its[i]->n_offerings; o++) {
			const kp_offering *of = its[i]->offerings[o];
			if (!of->available || !kp_offering_compatible(of, reqs, p->wk))
				continue;
			if (!strcmp(of->capacity_type, "on-demand") && of->price < cheapest_od)
				cheapest_od = of->price;
			has_spot |= !strcmp(of->capacity_type, "spot");
		}
	return has_spot ? cheapest_od : HUGE_VAL;
}

static const char *capacity_type(struct aws_provider *p, const kp_nodeclaim_spec *spec,
				 kp_requirements *reqs, const kp_instance_type **its, size_t n,
				 double cap, kp_error *err, int *rc)
{
	static const char *const order[] = { "reserved", "spot" };
	kp_requirement *ct = kp_requirements_get(reqs, "karpenter.sh/capacity-type");
	for (size_t c = 0; c < 2; c++) {
		if (ct && !kp_requirement_has(ct, order[c]))
			continue;
		kp_requirements *narrow = NULL;
		if ((*rc = claim_requirements(p, spec, order[c], &narrow, err)))
			return NULL;
		int found = 0;
		for (size_t i = 0; i < n && !found; i++)
			for (size_t o = 0; o < its[i]->n_offerings && !found; o++)
				found = usable(its[i]->offerings[o], narrow, p->wk, cap);
		kp_requirements_free(narrow);
		if (found)
			return order[c];
	}
	return "on-demand";
}

static int set_single_labels(kp_labels *labels, kp_requirements *reqs, kp_error *err)
{
	int rc = KP_OK;
	for (size_t i = 0; rc == KP_OK && i < kp_requirements_count(reqs); i++) {
		kp_requirement *r = kp_requirements_at(reqs, i);
		if (kp_requirement_operator(r) == KP_SELECTOR_OP_IN && kp_requirement_len(r) == 1)
			rc = kp_labels_set(labels, kp_requirement_key(r), kp_requirement_value_at(r, 0), err);
	}
	return rc;
}

static int aws_create(void *self, const kp_nodeclaim *nc, kp_instance *out, kp_error *err)
{
	struct aws_provider *p = self;
	if (!nc || !out || !nc->metadata || !nc->metadata->name || !nc->spec)
		return kp_aws__error(err, KP_EINVAL, NULL, "aws create: needs a NodeClaim with a name "
				     "and a spec");
	const kp_nodeclaim_spec *spec = nc->spec;
	const kp_node_class_reference *ref = spec->node_class_ref;
	kp_instance_types *cat = catalogue_for(p, ref ? ref->name : NULL);
	if (!cat)
		return kp_aws__error(err, KP_EINSUFFICIENT, NULL, "resolving node class, "
				     "ec2nodeclasses.karpenter.k8s.aws \"%s\" not found",
				     ref && ref->name ? ref->name : "");
	kp_requirements *reqs = NULL;
	int rc = claim_requirements(p, spec, NULL, &reqs, err);
	if (rc)
		return rc;
	/* the NodeClaim's instance types, then upstream's launch filters */
	size_t n_all = 0;
	const kp_instance_type *const *all = kp_instance_types_items(cat, &n_all);
	const kp_instance_type **its = calloc(n_all + 1, sizeof(*its));
	if (!its) {
		kp_requirements_free(reqs);
		return kp_aws__error(err, KP_ENOMEM, NULL, "out of memory");
	}
	kp_requirement *itr = kp_requirements_get(reqs, "node.kubernetes.io/instance-type");
	size_t n = 0;
	for (size_t i = 0; i < n_all; i++)
		if (!itr || kp_requirement_has(itr, all[i]->name))
			its[n++] = all[i];
	const kp_resource_list *requests = spec->resources ? &spec->resources->requests : NULL;
	n = kp_aws_launch_filter(its, n, reqs, requests, p->wk);
	const kp_instance_type *best_it = NULL;
	const kp_offering *best = NULL;
	double cap = spot_cap(p, reqs, its, n);
	const char *ct = n ? capacity_type(p, spec, reqs, its, n, cap, err, &rc) : NULL;
	for (size_t i = 0; rc == KP_OK && i < n; i++) {
		const kp_instance_type *it = its[i];
		for (size_t o = 0; o < it->n_offerings; o++) {
			const kp_offering *of = it->offerings[o];
			if (strcmp(of->capacity_type, ct) != 0 || (best && of->price >= best->price) ||
			    !usable(of, reqs, p->wk, cap))
				continue;
			best = of;
			best_it = it;
		}
	}
	free(its);
	if (rc == KP_OK && !best)
		rc = kp_aws__error(err, KP_EINSUFFICIENT, NULL, "all requested instance types were "
				   "unavailable during launch");
	struct aws_instance *in = NULL;
	if (rc == KP_OK && !(in = calloc(1, sizeof(*in))))
		rc = kp_aws__error(err, KP_ENOMEM, NULL, "out of memory");
	if (rc) {
		kp_requirements_free(reqs);
		return rc;
	}
	kp_instance init = KP_INSTANCE_INIT;
	in->view = init;
	size_t idlen = strlen("aws:///") + strlen(best->zone) + strlen("/i-") + 17 + 1;
	in->provider_id = malloc(idlen);
	in->nodeclaim_name = kp_aws__strdup(nc->metadata->name);
	if (!in->provider_id || !in->nodeclaim_name) {
		rc = kp_aws__error(err, KP_ENOMEM, NULL, "out of memory");
		goto fail;
	}
	/* EC2's shape, "aws:///<zone>/i-<17 hex digits>", numbered in launch order */
	snprintf(in->provider_id, idlen, "aws:///%s/i-%017" PRIx64, best->zone, p->next_sequence);
	in->view.provider_id = in->provider_id;
	in->view.nodeclaim_name = in->nodeclaim_name;
	const kp_labels *own = &nc->metadata->labels;
	for (size_t i = 0; rc == KP_OK && i < own->count; i++)
		rc = kp_labels_set(&in->view.labels, own->items[i].key, own->items[i].value, err);
	if (rc == KP_OK)
		rc = set_single_labels(&in->view.labels, reqs, err);
	if (rc == KP_OK)
		rc = set_single_labels(&in->view.labels, best_it->requirements, err);
	if (rc == KP_OK)
		rc = set_single_labels(&in->view.labels, best->requirements, err);
	if (rc == KP_OK)
		rc = kp_resources_copy(&in->view.capacity, best_it->capacity, err);
	if (rc == KP_OK)
		rc = kp_resources_copy(&in->view.allocatable, best_it->allocatable, err);
	if (rc)
		goto fail;
	struct aws_instance **v = realloc(p->items, (p->n_items + 1) * sizeof(*v));
	if (!v) {
		rc = kp_aws__error(err, KP_ENOMEM, NULL, "out of memory");
		goto fail;
	}
	p->items = v;
	p->items[p->n_items++] = in;
	p->next_sequence++;
	kp_requirements_free(reqs);
	return copy_out(out, in, err);
fail:
	kp_requirements_free(reqs);
	aws_instance_free(in);
	return rc;
}

static size_t find_instance(const struct aws_provider *p, const char *provider_id,
			    const char *nodeclaim_name)
{
	for (size_t i = 0; i < p->n_items; i++)
		if (provider_id ? !strcmp(p->items[i]->provider_id, provider_id)
				: !strcmp(p->items[i]->nodeclaim_name, nodeclaim_name))
			return i;
	return p->n_items;
}

static int aws_delete(void *self, const kp_nodeclaim *nc, kp_error *err)
{
	struct aws_provider *p = self;
	if (!nc || !nc->metadata)
		return kp_aws__error(err, KP_EINVAL, NULL, "aws delete: the NodeClaim is NULL");
	const char *pid = nc->status && nc->status->provider_id && *nc->status->provider_id
		? nc->status->provider_id : NULL;
	size_t at = find_instance(p, pid, nc->metadata->name ? nc->metadata->name : "");
	if (at < p->n_items) {
		aws_instance_free(p->items[at]);
		memmove(&p->items[at], &p->items[at + 1], (p->n_items - at - 1) * sizeof(*p->items));
		p->n_items--;
	}
	return kp_aws__error(err, KP_ENOTFOUND, NULL, "instance terminated");
}

static int aws_get(void *self, const char *provider_id, kp_instance *out, kp_error *err)
{
	struct aws_provider *p = self;
	size_t at = provider_id ? find_instance(p, provider_id, NULL) : p->n_items;
	if (at == p->n_items)
		return kp_aws__error(err, KP_ENOTFOUND, NULL, "instance not found");
	return copy_out(out, p->items[at], err);
}

static int aws_list(void *self, const kp_instance *const **out, size_t *n, kp_error *err)
{
	struct aws_provider *p = self;
	const kp_instance **v = realloc(p->list_view, (p->n_items + 1) * sizeof(*v));
	if (!v)
		return kp_aws__error(err, KP_ENOMEM, NULL, "out of memory");
	p->list_view = v;
	for (size_t i = 0; i < p->n_items; i++)
		v[i] = &p->items[i]->view;
	*out = p->n_items ? v : NULL;
	*n = p->n_items;
	return KP_OK;
}

static int aws_get_instance_types(void *self, const kp_nodepool *nodepool,
				  kp_instance_types **out, kp_error *err)
{
	struct aws_provider *p = self;
	const kp_nodeclaim_template *t = nodepool && nodepool->spec ? nodepool->spec->template_ : NULL;
	const kp_node_class_reference *ref = t && t->spec ? t->spec->node_class_ref : NULL;
	kp_instance_types *cat = catalogue_for(p, ref ? ref->name : NULL);
	if (!cat)
		return kp_aws__error(err, KP_ENOTFOUND, NULL, "ec2nodeclasses.karpenter.k8s.aws \"%s\" "
				     "not found", ref && ref->name ? ref->name : "");
	*out = kp_instance_types_ref(cat);
	return KP_OK;
}

/* Upstream IsDrifted's first check, the only one offline: static drift. */
static int aws_is_drifted(void *self, const kp_nodeclaim *nc, char *reason, size_t reason_size,
			  kp_error *err)
{
	struct aws_provider *p = self;
	if (!nc || !reason || !reason_size)
		return kp_aws__error(err, KP_EINVAL, NULL, "aws is_drifted: NULL argument");
	*reason = '\0';
	const kp_node_class_reference *ref = nc->spec ? nc->spec->node_class_ref : NULL;
	if (!nc->metadata || !kp_labels_get(&nc->metadata->labels, "karpenter.sh/nodepool") ||
	    !ref || !ref->name)
		return KP_OK;
	size_t i = class_index(p, ref->name);
	if (i == p->n_classes || !p->class_hashes || !p->class_hashes[i])
		return KP_OK;
	kp_aws_static_drift d = KP_AWS_STATIC_DRIFT_INIT;
	int rc = kp_aws_nodeclaim_static_drift(&d, nc, p->class_hashes[i], p->hash_version, err);
	if (rc == KP_OK)
		snprintf(reason, reason_size, "%s", d.reason);
	return rc;
}

static int aws_repair_policies(void *self, const kp_repair_policy **out, size_t *n, kp_error *err)
{
	(void)self;
	(void)err;
	*out = repair_policy_table;
	*n = sizeof(repair_policy_table) / sizeof(repair_policy_table[0]);
	return KP_OK;
}

static int aws_supported_node_classes(void *self, const kp_group_kind **out, size_t *n,
				      kp_error *err)
{
	(void)self;
	(void)err;
	*out = aws_node_classes;
	*n = 1;
	return KP_OK;
}

static void aws_destroy(void *self)
{
	struct aws_provider *p = self;
	if (!p)
		return;
	for (size_t i = 0; i < p->n_classes; i++) {
		free(p->class_names[i]);
		kp_instance_types_free(p->class_its[i]);
		if (p->class_hashes)
			free(p->class_hashes[i]);
	}
	free(p->class_names);
	free(p->class_hashes);
	free(p->class_its);
	kp_instance_types_free(p->default_its);
	kp_wellknown_free(p->wk);
	for (size_t i = 0; i < p->n_items; i++)
		aws_instance_free(p->items[i]);
	free(p->items);
	free(p->list_view);
	free(p);
}

/* Class @p i's drift hash, as its hash controller would write it; none
 * for a class not given or being deleted (upstream resolves such a class as
 * not found: no drift). */
static int class_hash(struct aws_provider *p, size_t i, const kp_aws_ec2nodeclass *nc,
		      const kp_aws_register_options *ho, kp_error *err)
{
	p->hash_version = (ho->flags & KP_AWS_REGISTER_V1_14) ? "v5" : "v6";
	if (!nc || (nc->metadata && nc->metadata->deletion_timestamp_ms))
		return KP_OK;
	uint64_t h = 0;
	int rc = kp_aws_ec2nodeclass_hash(nc, ho->flags, ho->ca_bundle, NULL, &h, err);
	if (rc)
		return rc;
	char text[24];
	snprintf(text, sizeof(text), "%" PRIu64, h);
	p->class_hashes[i] = kp_aws__strdup(text);
	return p->class_hashes[i] ? KP_OK : KP_ENOMEM;
}

KP_EXPORT void kp_aws_provider_options_init(kp_aws_provider_options *options)
{
	if (options) {
		kp_aws_provider_options init = KP_AWS_PROVIDER_OPTIONS_INIT;
		*options = init;
	}
}

KP_EXPORT int kp_aws_provider_new(kp_cloudprovider **out, const kp_aws_provider_options *options,
				  kp_error *err)
{
	if (!out)
		return kp_aws__error(err, KP_EINVAL, NULL, "kp_aws_provider_new: out is NULL");
	*out = NULL;
	kp_aws_provider_options opts = KP_AWS_PROVIDER_OPTIONS_INIT;
	const kp_aws_provider_options *o = &opts;
	/* the first layout ended at sequence_start; later fields read as zero */
	size_t first = offsetof(kp_aws_provider_options, nodeclasses);
	if (options && (options->struct_size != sizeof(opts) && options->struct_size != first))
		return kp_aws__error(err, KP_EVERSION, "struct_size", "kp_aws_provider_options."
				     "struct_size is %" PRIu32 ", this library has %zu",
				     options->struct_size, sizeof(opts));
	if (options)
		memcpy(&opts, options, options->struct_size);
	kp_aws_register_options hash_opts = KP_AWS_REGISTER_OPTIONS_INIT;
	if (o->hash_options) {
		if (o->hash_options->struct_size != sizeof(hash_opts))
			return kp_aws__error(err, KP_EVERSION, "hash_options.struct_size",
					     "kp_aws_register_options.struct_size is %" PRIu32
					     ", this library has %zu", o->hash_options->struct_size,
					     sizeof(hash_opts));
		hash_opts = *o->hash_options;
	}
	if (o->n_nodeclasses && (!o->nodeclass_names || !o->instance_types))
		return kp_aws__error(err, KP_EINVAL, "nodeclass_names", "kp_aws_provider_new: "
				     "n_nodeclasses without names or catalogues");
	struct aws_provider *p = calloc(1, sizeof(*p));
	int rc = p ? KP_OK : KP_ENOMEM;
	if (rc == KP_OK && o->n_nodeclasses) {
		p->class_names = calloc(o->n_nodeclasses, sizeof(*p->class_names));
		p->class_its = calloc(o->n_nodeclasses, sizeof(*p->class_its));
		p->class_hashes = calloc(o->n_nodeclasses, sizeof(*p->class_hashes));
		rc = p->class_names && p->class_its && p->class_hashes ? KP_OK : KP_ENOMEM;
	}
	for (size_t i = 0; rc == KP_OK && i < o->n_nodeclasses; i++) {
		if (!o->nodeclass_names[i] || !o->instance_types[i]) {
			aws_destroy(p);
			return kp_aws__error(err, KP_EINVAL, "nodeclass_names", "kp_aws_provider_new: "
					     "node class %zu has no name or no catalogue", i);
		}
		p->class_names[i] = kp_aws__strdup(o->nodeclass_names[i]);
		if (!p->class_names[i]) {
			rc = KP_ENOMEM;
			break;
		}
		p->class_its[i] = kp_instance_types_ref(o->instance_types[i]);
		p->n_classes++;
		rc = class_hash(p, i, o->nodeclasses ? o->nodeclasses[i] : NULL, &hash_opts, err);
		if (rc && rc != KP_ENOMEM) {
			aws_destroy(p);
			return rc;
		}
	}
	if (rc == KP_OK)
		p->default_its = kp_instance_types_ref(o->default_instance_types);
	if (rc == KP_OK)
		rc = kp_wellknown_new(&p->wk, err);
	if (rc == KP_OK)
		rc = kp_aws_wellknown_add(p->wk, err);
	if (rc) {
		aws_destroy(p);
		return rc == KP_ENOMEM ? kp_aws__error(err, KP_ENOMEM, NULL, "out of memory") : rc;
	}
	p->next_sequence = o->sequence_start;
	kp_cloudprovider_ops ops = KP_CLOUDPROVIDER_OPS_INIT;
	ops.name = "aws";
	ops.create = aws_create;
	ops.delete_instance = aws_delete;
	ops.get = aws_get;
	ops.list = aws_list;
	ops.get_instance_types = aws_get_instance_types;
	ops.is_drifted = aws_is_drifted;
	ops.repair_policies = aws_repair_policies;
	ops.supported_node_classes = aws_supported_node_classes;
	ops.destroy = aws_destroy;
	rc = kp_cloudprovider_new(out, &ops, p, err);
	if (rc)
		aws_destroy(p);
	return rc;
}
