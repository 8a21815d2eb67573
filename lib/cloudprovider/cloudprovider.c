/*
 * Provider registration and the kp_cloudprovider_* wrappers: argument and
 * contract checks around a provider's vtable, and NodeClaims built from the
 * kp_instance records providers return (upstream pkg/cloudprovider/types.go
 * and nodeclaim/lifecycle's PopulateNodeClaimDetails).
 *
 * NodeClaims are never assembled field by field here: the wrappers describe
 * the wanted object with caller-style structs on the stack, pointing at the
 * input NodeClaim and the provider's record, and let kp_nodeclaim_copy build
 * the library-owned result in one step.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <karpenter/cloudprovider.h>

#include "common/sized.h"
#include "kp_internal.h"
#include "cloudprovider_private.h"

/* The sizes published in 0.1: the smallest struct_size accepted. */

/* Whether a caller's size-tagged struct has member m. */
#define HAS(p, type, m) ((p) && (p)->struct_size >= offsetof(type, m) + sizeof(((type *)0)->m))

struct kp_cloudprovider {
	kp_cloudprovider_ops ops; /* normalized: slots beyond the provider's size are NULL */
	void *self;
	char *name;
};

/* ------------------------------------------------------------------ */
/* Initializers                                                       */

KP_EXPORT void kp_instance_init(kp_instance *inst)
{
	if (inst) {
		kp_instance init = KP_INSTANCE_INIT;
		*inst = init;
	}
}

KP_EXPORT void kp_cloudprovider_ops_init(kp_cloudprovider_ops *ops)
{
	if (ops) {
		kp_cloudprovider_ops init = KP_CLOUDPROVIDER_OPS_INIT;
		*ops = init;
	}
}

/* ------------------------------------------------------------------ */
/* Registration                                                       */

static const struct required_slot {
	const char *name;
	size_t offset;
} required_slots[] = {
	{ "create", offsetof(kp_cloudprovider_ops, create) },
	{ "delete_instance", offsetof(kp_cloudprovider_ops, delete_instance) },
	{ "get", offsetof(kp_cloudprovider_ops, get) },
	{ "list", offsetof(kp_cloudprovider_ops, list) },
	{ "get_instance_types", offsetof(kp_cloudprovider_ops, get_instance_types) },
};

KP_EXPORT int kp_cloudprovider_new(kp_cloudprovider **out, const kp_cloudprovider_ops *ops,
				   void *self, kp_error *err)
{
	if (!out)
		return kp__error(err, KP_EINVAL, NULL, "out is NULL");
	*out = NULL;
	if (!ops)
		return kp__error(err, KP_EINVAL, NULL, "kp_cloudprovider_ops is NULL");
	/* The first two members are the same in every ABI generation. */
	uint32_t abi_major;
	memcpy(&abi_major, (const char *)ops + offsetof(kp_cloudprovider_ops, abi_major),
	       sizeof(abi_major));
	if (abi_major != KP_ABI_MAJOR)
		return kp__error(err, KP_EVERSION, "abi_major",
				 "kp_cloudprovider_ops.abi_major is %u, but this libkarpenter has "
				 "ABI %u: rebuild the provider against it",
				 (unsigned)abi_major, (unsigned)KP_ABI_MAJOR);
	kp_cloudprovider_ops o;
	int rc = KP__READ_SIZED(&o, ops, kp_cloudprovider_ops, err);
	if (rc)
		return rc;
	if (o.flags & ~(uint32_t)KP_PROVIDER_F_THREADSAFE)
		return kp__error(err, KP_EINVAL, "flags", "kp_cloudprovider_ops.flags has unknown bits 0x%x",
				 (unsigned)(o.flags & ~(uint32_t)KP_PROVIDER_F_THREADSAFE));
	if (o.reserved)
		return kp__error(err, KP_EINVAL, "reserved", "kp_cloudprovider_ops.reserved is not zero");
	if (!o.name || !*o.name)
		return kp__error(err, KP_EINVAL, "name", "kp_cloudprovider_ops.name is empty");
	for (size_t i = 0; i < sizeof(required_slots) / sizeof(required_slots[0]); i++) {
		void (*slot)(void);
		memcpy(&slot, (const char *)&o + required_slots[i].offset, sizeof(slot));
		if (!slot)
			return kp__error(err, KP_EINVAL, required_slots[i].name,
					 "provider \"%s\": required method %s is NULL", o.name,
					 required_slots[i].name);
	}
	kp_cloudprovider *cp = kp__calloc(1, sizeof(*cp));
	char *name = kp__strdup(o.name);
	if (!cp || !name) {
		kp__free(cp);
		kp__free(name);
		return kp__error(err, KP_ENOMEM, NULL, "out of memory");
	}
	cp->ops = o;
	cp->ops.name = name;
	cp->name = name;
	cp->self = self;
	*out = cp;
	return KP_OK;
}

KP_EXPORT void kp_cloudprovider_free(kp_cloudprovider *cp)
{
	if (!cp)
		return;
	if (cp->ops.destroy)
		cp->ops.destroy(cp->self);
	kp__free(cp->name);
	kp__free(cp);
}

KP_EXPORT const char *kp_cloudprovider_name(kp_cloudprovider *cp)
{
	return cp ? cp->name : "";
}

/* ------------------------------------------------------------------ */
/* Provider results                                                   */

static void terminate(char *s, size_t size)
{
	s[size - 1] = '\0';
}

/*
 * Hand a provider's failure to the caller: its code, message and provider
 * code unchanged (made safe), or a contract violation for a positive code.
 */
static int provider_failed(kp_cloudprovider *cp, const char *method, int rc, kp_error *perr,
			   kp_error *err)
{
	if (rc > 0)
		return kp__error(err, KP_EINVAL, NULL,
				 "provider \"%s\": %s returned %d, which is not a kp_status", cp->name,
				 method, rc);
	if (!err)
		return rc;
	terminate(perr->field, sizeof(perr->field));
	terminate(perr->message, sizeof(perr->message));
	terminate(perr->provider_code, sizeof(perr->provider_code));
	if (!perr->message[0]) {
		char code[KP_ERROR_PROVIDER_CODE_MAX];
		memcpy(code, perr->provider_code, sizeof(code));
		kp__error(err, rc, perr->field, "provider \"%s\": %s: %s", cp->name, method,
			  kp_strerror(rc));
		memcpy(err->provider_code, code, sizeof(code));
		return rc;
	}
	*err = *perr;
	err->code = rc;
	err->reserved = 0;
	return rc;
}

/* Check an instance record and read it into a local of our size. */
static int read_instance(kp_instance *dst, const kp_instance *src, kp_cloudprovider *cp,
			 const char *method, kp_error *err)
{
	if (!src)
		return kp__error(err, KP_EINVAL, NULL, "provider \"%s\": %s returned a NULL instance",
				 cp->name, method);
	int rc = KP__READ_SIZED(dst, src, kp_instance, err);
	if (rc)
		return rc;
	if (!dst->provider_id || !*dst->provider_id)
		return kp__error(err, KP_EINVAL, "provider_id",
				 "provider \"%s\": %s returned an instance without a provider ID",
				 cp->name, method);
	return KP_OK;
}

/* Library-owned, validated, sorted copies of an instance's maps and lists. */
struct instance_copy {
	kp_labels labels;
	kp_labels annotations;
	kp_resource_list capacity;
	kp_resource_list allocatable;
};

static void instance_copy_dispose(struct instance_copy *c)
{
	kp_labels_dispose(&c->labels);
	kp_labels_dispose(&c->annotations);
	kp_resources_dispose(&c->capacity);
	kp_resources_dispose(&c->allocatable);
}

static int instance_copy_init(struct instance_copy *c, const kp_instance *inst, kp_error *err)
{
	memset(c, 0, sizeof(*c));
	const char *field = "labels";
	int rc = kp_labels_copy(&c->labels, &inst->labels, err);
	if (!rc) {
		field = "annotations";
		rc = kp_labels_copy(&c->annotations, &inst->annotations, err);
	}
	if (!rc) {
		field = "capacity";
		rc = kp_resources_copy(&c->capacity, &inst->capacity, err);
	}
	if (!rc) {
		field = "allocatable";
		rc = kp_resources_copy(&c->allocatable, &inst->allocatable, err);
	}
	if (rc) {
		kp__cp_prefix_list_error(err, field);
		instance_copy_dispose(c);
	}
	return rc;
}

/* The NodeClaim view of an instance (get, list). */
static int nodeclaim_from_instance(kp_nodeclaim **out, const kp_instance *inst, kp_error *err)
{
	struct instance_copy c;
	int rc = instance_copy_init(&c, inst, err);
	if (rc)
		return rc;
	kp_object_meta meta = KP_OBJECT_META_INIT;
	meta.name = inst->nodeclaim_name;
	meta.labels = c.labels;
	meta.annotations = c.annotations;
	meta.creation_timestamp_ms = inst->created_ms;
	meta.deletion_timestamp_ms = inst->deletion_ms;
	kp_nodeclaim_status status = KP_NODECLAIM_STATUS_INIT;
	status.provider_id = inst->provider_id;
	status.image_id = inst->image_id;
	status.capacity = c.capacity;
	status.allocatable = c.allocatable;
	kp_nodeclaim nc = KP_NODECLAIM_INIT;
	nc.metadata = &meta;
	nc.status = &status;
	rc = kp_nodeclaim_copy(out, &nc, err);
	instance_copy_dispose(&c);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Create, delete, get, list                                          */

/* dst = base, then every pair of over (over wins). */
static int merge_labels(kp_labels *dst, const kp_labels *base, const kp_labels *over,
			kp_error *err)
{
	kp_labels m = KP_LABELS_INIT;
	int rc = kp_labels_copy(&m, base, err);
	for (size_t i = 0; !rc && i < over->count; i++)
		rc = kp_labels_set(&m, over->items[i].key, over->items[i].value, err);
	if (rc) {
		kp_labels_dispose(&m);
		return rc;
	}
	*dst = m;
	return KP_OK;
}

KP_EXPORT int kp_cloudprovider_create(kp_nodeclaim **out, kp_cloudprovider *cp,
				      const kp_nodeclaim *nodeclaim, kp_error *err)
{
	if (!out)
		return kp__error(err, KP_EINVAL, NULL, "out is NULL");
	*out = NULL;
	if (!cp || !nodeclaim)
		return kp__error(err, KP_EINVAL, NULL, "%s is NULL", cp ? "nodeclaim" : "cloudprovider");
	kp_nodeclaim nc;
	kp_object_meta meta = KP_OBJECT_META_INIT;
	kp_nodeclaim_status status = KP_NODECLAIM_STATUS_INIT;
	int rc = KP__READ_SIZED(&nc, nodeclaim, kp_nodeclaim, err);
	if (!rc && nc.metadata)
		rc = KP__READ_SIZED(&meta, nc.metadata, kp_object_meta, err);
	if (!rc && nc.status)
		rc = KP__READ_SIZED(&status, nc.status, kp_nodeclaim_status, err);
	if (rc)
		return rc;
	if ((meta.labels.count && !meta.labels.items) ||
	    (meta.annotations.count && !meta.annotations.items))
		return kp__error(err, KP_EINVAL, "metadata", "a label map has items NULL but a count");

	kp_instance inst = KP_INSTANCE_INIT;
	kp_error perr;
	memset(&perr, 0, sizeof(perr));
	rc = cp->ops.create(cp->self, nodeclaim, &inst, &perr);
	if (rc)
		return provider_failed(cp, "create", rc, &perr, err);
	kp_instance got;
	rc = read_instance(&got, &inst, cp, "create", err);
	struct instance_copy c;
	if (!rc)
		rc = instance_copy_init(&c, &got, err);
	if (rc)
		return rc;

	/* PopulateNodeClaimDetails: user labels win, provider annotations win. */
	kp_labels labels = KP_LABELS_INIT, annotations = KP_LABELS_INIT;
	if (c.labels.count) {
		rc = merge_labels(&labels, &c.labels, &meta.labels, err);
		if (!rc)
			meta.labels = labels;
	}
	if (!rc && c.annotations.count) {
		rc = merge_labels(&annotations, &meta.annotations, &c.annotations, err);
		if (!rc)
			meta.annotations = annotations;
	}
	if (!rc) {
		status.provider_id = got.provider_id;
		status.image_id = got.image_id;
		status.capacity = c.capacity;
		status.allocatable = c.allocatable;
		nc.metadata = &meta;
		nc.status = &status;
		rc = kp_nodeclaim_copy(out, &nc, err);
	}
	kp_labels_dispose(&labels);
	kp_labels_dispose(&annotations);
	instance_copy_dispose(&c);
	return rc;
}

KP_EXPORT int kp_cloudprovider_delete(kp_cloudprovider *cp, const kp_nodeclaim *nodeclaim,
				      kp_error *err)
{
	if (!cp || !nodeclaim)
		return kp__error(err, KP_EINVAL, NULL, "%s is NULL", cp ? "nodeclaim" : "cloudprovider");
	int rc = KP__CHECK_SIZED(nodeclaim, kp_nodeclaim, err);
	if (rc)
		return rc;
	kp_error perr;
	memset(&perr, 0, sizeof(perr));
	rc = cp->ops.delete_instance(cp->self, nodeclaim, &perr);
	return rc ? provider_failed(cp, "delete_instance", rc, &perr, err) : KP_OK;
}

KP_EXPORT int kp_cloudprovider_get(kp_nodeclaim **out, kp_cloudprovider *cp,
				   const char *provider_id, kp_error *err)
{
	if (!out)
		return kp__error(err, KP_EINVAL, NULL, "out is NULL");
	*out = NULL;
	if (!cp)
		return kp__error(err, KP_EINVAL, NULL, "cloudprovider is NULL");
	if (!provider_id || !*provider_id)
		return kp__error(err, KP_EINVAL, "provider_id", "provider ID is empty");
	kp_instance inst = KP_INSTANCE_INIT;
	kp_error perr;
	memset(&perr, 0, sizeof(perr));
	int rc = cp->ops.get(cp->self, provider_id, &inst, &perr);
	if (rc)
		return provider_failed(cp, "get", rc, &perr, err);
	kp_instance got;
	rc = read_instance(&got, &inst, cp, "get", err);
	if (rc)
		return rc;
	return nodeclaim_from_instance(out, &got, err);
}

KP_EXPORT void kp_nodeclaims_free(kp_nodeclaim **nodeclaims, size_t n)
{
	if (!nodeclaims)
		return;
	for (size_t i = 0; i < n; i++)
		kp_nodeclaim_free(nodeclaims[i]);
	kp__free(nodeclaims);
}

static int by_provider_id(const void *pa, const void *pb)
{
	const kp_nodeclaim *a = *(const kp_nodeclaim *const *)pa;
	const kp_nodeclaim *b = *(const kp_nodeclaim *const *)pb;
	return strcmp(a->status->provider_id, b->status->provider_id);
}

KP_EXPORT int kp_cloudprovider_list(kp_nodeclaim ***out, size_t *n, kp_cloudprovider *cp,
				    kp_error *err)
{
	if (!out || !n)
		return kp__error(err, KP_EINVAL, NULL, "%s is NULL", out ? "n" : "out");
	*out = NULL;
	*n = 0;
	if (!cp)
		return kp__error(err, KP_EINVAL, NULL, "cloudprovider is NULL");
	const kp_instance *const *recs = NULL;
	size_t count = 0;
	kp_error perr;
	memset(&perr, 0, sizeof(perr));
	int rc = cp->ops.list(cp->self, &recs, &count, &perr);
	if (rc)
		return provider_failed(cp, "list", rc, &perr, err);
	if (count == 0)
		return KP_OK;
	if (!recs)
		return kp__error(err, KP_EINVAL, NULL,
				 "provider \"%s\": list returned %zu instances but no array", cp->name,
				 count);
	kp_nodeclaim **ncs = kp__calloc(count, sizeof(*ncs));
	if (!ncs)
		return kp__error(err, KP_ENOMEM, NULL, "out of memory");
	size_t built = 0;
	for (; built < count; built++) {
		kp_instance got;
		rc = read_instance(&got, recs[built], cp, "list", err);
		if (!rc)
			rc = nodeclaim_from_instance(&ncs[built], &got, err);
		if (rc) {
			char prefix[32];
			snprintf(prefix, sizeof(prefix), "[%zu]", built);
			kp__error_prefix(err, prefix);
			break;
		}
	}
	if (!rc) {
		qsort(ncs, count, sizeof(*ncs), by_provider_id);
		for (size_t i = 1; i < count; i++)
			if (strcmp(ncs[i - 1]->status->provider_id, ncs[i]->status->provider_id) == 0) {
				rc = kp__error(err, KP_EINVAL, "provider_id",
					       "provider \"%s\": list returned provider ID \"%s\" twice",
					       cp->name, ncs[i]->status->provider_id);
				break;
			}
	}
	if (rc) {
		kp_nodeclaims_free(ncs, built);
		return rc;
	}
	*out = ncs;
	*n = count;
	return KP_OK;
}

/* ------------------------------------------------------------------ */
/* Instance types, drift, repair, node classes                        */

KP_EXPORT int kp_cloudprovider_get_instance_types(kp_instance_types **out, kp_cloudprovider *cp,
						  const kp_nodepool *nodepool, kp_error *err)
{
	if (!out)
		return kp__error(err, KP_EINVAL, NULL, "out is NULL");
	*out = NULL;
	if (!cp)
		return kp__error(err, KP_EINVAL, NULL, "cloudprovider is NULL");
	kp_instance_types *its = NULL;
	kp_error perr;
	memset(&perr, 0, sizeof(perr));
	int rc = cp->ops.get_instance_types(cp->self, nodepool, &its, &perr);
	if (rc) {
		kp_instance_types_free(its);
		return provider_failed(cp, "get_instance_types", rc, &perr, err);
	}
	if (!its)
		return kp__error(err, KP_EINVAL, NULL,
				 "provider \"%s\": get_instance_types returned no catalogue", cp->name);
	kp__instance_types_freeze(its);
	*out = its;
	return KP_OK;
}

KP_EXPORT int kp_cloudprovider_is_drifted(kp_cloudprovider *cp, const kp_nodeclaim *nodeclaim,
					  char *reason, size_t reason_size, kp_error *err)
{
	if (!reason || reason_size == 0)
		return kp__error(err, KP_EINVAL, "reason", "reason buffer is NULL or empty");
	reason[0] = '\0';
	if (!cp || !nodeclaim)
		return kp__error(err, KP_EINVAL, NULL, "%s is NULL", cp ? "nodeclaim" : "cloudprovider");
	if (!cp->ops.is_drifted)
		return KP_OK;
	kp_error perr;
	memset(&perr, 0, sizeof(perr));
	int rc = cp->ops.is_drifted(cp->self, nodeclaim, reason, reason_size, &perr);
	if (rc) {
		reason[0] = '\0';
		return provider_failed(cp, "is_drifted", rc, &perr, err);
	}
	reason[reason_size - 1] = '\0';
	return KP_OK;
}

/* Call a slot returning an array of static records. */
static int static_records(kp_cloudprovider *cp, const char *method, int rc, const void *recs,
			  size_t count, kp_error *perr, kp_error *err)
{
	if (rc)
		return provider_failed(cp, method, rc, perr, err);
	if (count && !recs)
		return kp__error(err, KP_EINVAL, NULL,
				 "provider \"%s\": %s returned %zu records but no array", cp->name,
				 method, count);
	return KP_OK;
}

KP_EXPORT int kp_cloudprovider_repair_policies(const kp_repair_policy **out, size_t *n,
					       kp_cloudprovider *cp, kp_error *err)
{
	if (!out || !n)
		return kp__error(err, KP_EINVAL, NULL, "%s is NULL", out ? "n" : "out");
	*out = NULL;
	*n = 0;
	if (!cp)
		return kp__error(err, KP_EINVAL, NULL, "cloudprovider is NULL");
	if (!cp->ops.repair_policies)
		return KP_OK;
	const kp_repair_policy *recs = NULL;
	size_t count = 0;
	kp_error perr;
	memset(&perr, 0, sizeof(perr));
	int rc = cp->ops.repair_policies(cp->self, &recs, &count, &perr);
	rc = static_records(cp, "repair_policies", rc, recs, count, &perr, err);
	if (rc)
		return rc;
	*out = count ? recs : NULL;
	*n = count;
	return KP_OK;
}

KP_EXPORT int kp_cloudprovider_supported_node_classes(const kp_group_kind **out, size_t *n,
						      kp_cloudprovider *cp, kp_error *err)
{
	if (!out || !n)
		return kp__error(err, KP_EINVAL, NULL, "%s is NULL", out ? "n" : "out");
	*out = NULL;
	*n = 0;
	if (!cp)
		return kp__error(err, KP_EINVAL, NULL, "cloudprovider is NULL");
	if (!cp->ops.supported_node_classes)
		return kp__error(err, KP_ENOTSUP, NULL,
				 "provider \"%s\" does not implement supported_node_classes", cp->name);
	const kp_group_kind *recs = NULL;
	size_t count = 0;
	kp_error perr;
	memset(&perr, 0, sizeof(perr));
	int rc = cp->ops.supported_node_classes(cp->self, &recs, &count, &perr);
	rc = static_records(cp, "supported_node_classes", rc, recs, count, &perr, err);
	if (rc)
		return rc;
	*out = count ? recs : NULL;
	*n = count;
	return KP_OK;
}

static int str_eq(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "") == 0;
}

static int manages_ref(kp_cloudprovider *cp, const kp_node_class_reference *ref)
{
	if (!cp || !HAS(ref, kp_node_class_reference, kind))
		return 0;
	const kp_group_kind *classes;
	size_t n;
	if (kp_cloudprovider_supported_node_classes(&classes, &n, cp, NULL) != KP_OK)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (str_eq(classes[i].group, ref->group) && str_eq(classes[i].kind, ref->kind))
			return 1;
	return 0;
}

static const kp_node_class_reference *spec_ref(const kp_nodeclaim_spec *spec)
{
	return HAS(spec, kp_nodeclaim_spec, node_class_ref) ? spec->node_class_ref : NULL;
}

KP_EXPORT int kp_cloudprovider_manages(kp_cloudprovider *cp, const kp_nodepool *nodepool)
{
	if (!HAS(nodepool, kp_nodepool, spec))
		return 0;
	const kp_nodepool_spec *spec = nodepool->spec;
	if (!HAS(spec, kp_nodepool_spec, template_))
		return 0;
	const kp_nodeclaim_template *tmpl = spec->template_;
	if (!HAS(tmpl, kp_nodeclaim_template, spec))
		return 0;
	return manages_ref(cp, spec_ref(tmpl->spec));
}

KP_EXPORT int kp_cloudprovider_manages_nodeclaim(kp_cloudprovider *cp,
						 const kp_nodeclaim *nodeclaim)
{
	if (!HAS(nodeclaim, kp_nodeclaim, spec))
		return 0;
	return manages_ref(cp, spec_ref(nodeclaim->spec));
}
