/*
 * libkarpenter: the construction layer (builder.h).
 *
 * Constructors build a caller-style object graph on the stack, pointing at
 * the caller's strings, and deep-copy it with kp_object_copy: the copy is
 * library-owned, so the kind's _free releases it and the CRD defaults may
 * be applied to it. The cluster builder keeps library-owned copies of what
 * it is given and assembles a kp_cluster_spec from them at build time.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <karpenter/builder.h>
#include <karpenter/codec.h>
#include <karpenter/quantity.h>
#include <karpenter/requirements.h>
#include <karpenter/validation.h>

#include "kp_internal.h"
#include "schema/registry.h"
#include "state/state.h"

/* ------------------------------------------------------------------ */
/* Constructors                                                        */
/* ------------------------------------------------------------------ */

KP_EXPORT int kp_pod_new(kp_pod **out, const char *namespace_, const char *name, const char *cpu,
			 const char *memory, kp_error *err)
{
	if (!out || !name || !*name)
		return kp__error(err, KP_EINVAL, out ? "metadata.name" : NULL,
				 out ? "a pod needs a name" : "out is NULL");
	*out = NULL;
	kp_resource req[2];
	size_t n_req = 0;
	const char *amounts[2] = { cpu, memory };
	const char *names[2] = { KP_RESOURCE_CPU, KP_RESOURCE_MEMORY };
	for (int i = 0; i < 2; i++) {
		if (!amounts[i] || !*amounts[i])
			continue;
		req[n_req].name = names[i];
		int rc = kp_quantity_parse(&req[n_req].quantity, amounts[i], err);
		if (rc != KP_OK) {
			kp__error_prefix(err, i ? "spec.containers[0].resources.requests.memory"
						: "spec.containers[0].resources.requests.cpu");
			return rc;
		}
		n_req++;
	}
	kp_resource_requirements rr = KP_RESOURCE_REQUIREMENTS_INIT;
	rr.requests.items = n_req ? req : NULL;
	rr.requests.count = n_req;
	kp_container c = KP_CONTAINER_INIT;
	c.name = "main";
	c.resources = &rr;
	kp_container *containers[1] = { &c };
	kp_pod_spec spec = KP_POD_SPEC_INIT;
	spec.containers = containers;
	spec.n_containers = 1;
	kp_pod_status status = KP_POD_STATUS_INIT;
	status.phase = "Pending";
	status.phase_code = KP_POD_PHASE_PENDING;
	kp_object_meta meta = KP_OBJECT_META_INIT;
	meta.name = name;
	meta.namespace_ = namespace_ && *namespace_ ? namespace_ : "default";
	kp_pod pod = KP_POD_INIT;
	pod.metadata = &meta;
	pod.spec = &spec;
	pod.status = &status;
	return kp_pod_copy(out, &pod, err);
}

KP_EXPORT int kp_nodepool_new(kp_nodepool **out, const char *name, const char *group,
			      const char *kind, const char *node_class, kp_error *err)
{
	if (!out || !name || !group || !kind || !node_class)
		return kp__error(err, KP_EINVAL, NULL, "NULL argument");
	*out = NULL;
	kp_node_class_reference ref = KP_NODE_CLASS_REFERENCE_INIT;
	ref.group = group;
	ref.kind = kind;
	ref.name = node_class;
	kp_nodeclaim_spec spec = KP_NODECLAIM_SPEC_INIT;
	spec.node_class_ref = &ref;
	kp_nodeclaim_template tmpl = KP_NODECLAIM_TEMPLATE_INIT;
	tmpl.spec = &spec;
	kp_nodepool_spec npspec = KP_NODEPOOL_SPEC_INIT;
	npspec.template_ = &tmpl;
	kp_object_meta meta = KP_OBJECT_META_INIT;
	meta.name = name;
	kp_nodepool np = KP_NODEPOOL_INIT;
	np.metadata = &meta;
	np.spec = &npspec;
	kp_nodepool *copy = NULL;
	int rc = kp_nodepool_copy(&copy, &np, err);
	if (rc == KP_OK && (rc = kp_nodepool_default(copy, err)) != KP_OK) {
		kp_nodepool_free(copy);
		copy = NULL;
	}
	*out = copy;
	return rc;
}

KP_EXPORT int kp_nodepool_add_requirement(kp_nodepool *nodepool, const char *key, const char *op,
					  const char *const *values, size_t n_values, kp_error *err)
{
	if (!nodepool || !key || !op || (n_values && !values))
		return kp__error(err, KP_EINVAL, NULL, "NULL argument");
	if (!nodepool->spec || !nodepool->spec->template_ || !nodepool->spec->template_->spec)
		return kp__error(err, KP_EINVAL, "spec.template.spec", "the NodePool has no template spec");
	uint32_t code = 0;
	int rc = kp_selector_op_parse(op, &code, err);
	if (rc != KP_OK)
		return rc;
	/* A shallow view of the NodePool with one more requirement, deep-copied
	 * by the engine; the copy's contents then replace the NodePool's. */
	kp_nodeclaim_spec spec = *nodepool->spec->template_->spec;
	size_t n = spec.n_requirements;
	kp_nodeclaim_requirement **reqs = kp__calloc(n + 1, sizeof(*reqs));
	if (!reqs)
		return kp__error(err, KP_ENOMEM, NULL, "out of memory");
	for (size_t i = 0; i < n; i++)
		reqs[i] = spec.requirements[i];
	kp_nodeclaim_requirement r = KP_NODECLAIM_REQUIREMENT_INIT;
	r.key = key;
	r.operator_name = op;
	r.op = code;
	r.values = values;
	r.n_values = n_values;
	reqs[n] = &r;
	spec.requirements = reqs;
	spec.n_requirements = n + 1;
	kp_nodeclaim_template tmpl = *nodepool->spec->template_;
	tmpl.spec = &spec;
	kp_nodepool_spec npspec = *nodepool->spec;
	npspec.template_ = &tmpl;
	kp_nodepool view = *nodepool;
	view.spec = &npspec;
	kp_nodepool *copy = NULL;
	rc = kp_nodepool_copy(&copy, &view, err);
	kp__free(reqs);
	if (rc != KP_OK)
		return rc;
	kp_nodepool old = *nodepool;
	*nodepool = *copy;
	*copy = old;
	kp_nodepool_free(copy); /* the old contents, in the copy's allocation */
	return KP_OK;
}

/* ------------------------------------------------------------------ */
/* The cluster builder                                                 */
/* ------------------------------------------------------------------ */

typedef struct held {
	uint32_t kind;
	void *object; /* library-owned */
} held;

typedef struct pool_its {
	char *nodepool;
	kp_instance_types *its;
} pool_its;

struct kp_cluster_builder {
	held *objs;
	size_t n_objs, cap_objs;
	pool_its *its;
	size_t n_its, cap_its;
	kp_instance_types *default_its;
	kp_wellknown *wellknown;
	int64_t now_ms;
	kp_registry *registry; /* held; provider kinds (node classes), or NULL */
};

static const kp_object_meta *meta_of(uint32_t kind, const void *o)
{
	switch (kind) {
	case KP_KIND_NODEPOOL: return ((const kp_nodepool *)o)->metadata;
	case KP_KIND_NODECLAIM: return ((const kp_nodeclaim *)o)->metadata;
	case KP_KIND_POD: return ((const kp_pod *)o)->metadata;
	case KP_KIND_NODE: return ((const kp_node *)o)->metadata;
	case KP_KIND_DAEMONSET: return ((const kp_daemonset *)o)->metadata;
	case KP_KIND_PDB: return ((const kp_pdb *)o)->metadata;
	case KP_KIND_PVC: return ((const kp_pvc *)o)->metadata;
	case KP_KIND_PV: return ((const kp_pv *)o)->metadata;
	case KP_KIND_STORAGE_CLASS: return ((const kp_storage_class *)o)->metadata;
	case KP_KIND_CSI_NODE: return ((const kp_csi_node *)o)->metadata;
	case KP_KIND_NAMESPACE: return ((const kp_namespace *)o)->metadata;
	case KP_KIND_VOLUME_ATTACHMENT: return ((const kp_volume_attachment *)o)->metadata;
	default:
		/* registered kinds share the object head (checked at registration) */
		return kind >= KP_KIND_FIRST_REGISTERED ? ((const kp_nodepool *)o)->metadata : NULL;
	}
}

static const char *name_of(const held *h)
{
	const kp_object_meta *m = meta_of(h->kind, h->object);
	return m && m->name ? m->name : "";
}

/* The namespace in the object's identity (kp_kind_namespaced): "default"
 * for a namespaced object written without one, "" for a cluster-scoped
 * kind, whatever it carries. */
static const char *namespace_of(const held *h)
{
	if (!kp_kind_namespaced(h->kind))
		return "";
	return kp__object_namespace(meta_of(h->kind, h->object));
}

/* The core kinds the snapshot reads (not VolumeAttachment: only Node
 * termination reads it, through kp_lifecycle_input), and the registered
 * kinds whose status has conditions: node classes (KWOKNodeClass). */
static int readable_kind(const kp_cluster_builder *b, uint32_t kind)
{
	if (kind >= KP_KIND_FIRST_REGISTERED)
		return kp__registry_conditions(b->registry, kind, NULL, NULL, NULL);
	/* 3 is reserved (KWOKNodeClass before it was registered, objects.h) */
	return kind >= KP_KIND_NODEPOOL && kind <= KP_KIND_NAMESPACE && kind != 3;
}

KP_EXPORT int kp_cluster_builder_new(kp_cluster_builder **out, kp_error *err)
{
	if (!out)
		return kp__error(err, KP_EINVAL, NULL, "out is NULL");
	*out = kp__calloc(1, sizeof(**out));
	return *out ? KP_OK : kp__error(err, KP_ENOMEM, NULL, "out of memory");
}

KP_EXPORT void kp_cluster_builder_free(kp_cluster_builder *b)
{
	if (!b)
		return;
	for (size_t i = 0; i < b->n_objs; i++)
		kp_registry_object_free(b->registry, b->objs[i].kind, b->objs[i].object);
	kp__free(b->objs);
	kp_registry_free(b->registry);
	for (size_t i = 0; i < b->n_its; i++) {
		kp__free(b->its[i].nodepool);
		kp_instance_types_free(b->its[i].its);
	}
	kp__free(b->its);
	kp_instance_types_free(b->default_its);
	kp__free(b);
}

/* Take ownership of a library-owned object: defaults for the Karpenter
 * kinds, then keep it. On failure the object is freed. */
static int keep(kp_cluster_builder *b, uint32_t kind, void *obj, kp_error *err)
{
	int rc = KP_OK;
	const kp_object_meta *m = meta_of(kind, obj);
	if (!m || !m->name || !*m->name)
		rc = kp__error(err, KP_EINVAL, "metadata.name", "%s without a name",
			       kp_registry_kind_name(b->registry, kind));
	else if (kind == KP_KIND_NODEPOOL || kind == KP_KIND_NODECLAIM ||
		 kind >= KP_KIND_FIRST_REGISTERED)
		rc = kp_registry_object_default(b->registry, kind, obj, err);
	if (rc == KP_OK && b->n_objs == b->cap_objs)
		rc = kp__grow((void **)&b->objs, &b->cap_objs, b->n_objs + 1, sizeof(*b->objs)) ?
			     kp__error(err, KP_ENOMEM, NULL, "out of memory") : KP_OK;
	if (rc != KP_OK) {
		kp_registry_object_free(b->registry, kind, obj);
		return rc;
	}
	b->objs[b->n_objs].kind = kind;
	b->objs[b->n_objs].object = obj;
	b->n_objs++;
	return KP_OK;
}

KP_EXPORT int kp_cluster_builder_add(kp_cluster_builder *b, uint32_t kind, const void *object,
				     kp_error *err)
{
	if (!b || !object)
		return kp__error(err, KP_EINVAL, NULL, "NULL argument");
	if (!readable_kind(b, kind))
		return kp__error(err, KP_EINVAL, "kind", "kind %u is not one the snapshot reads", kind);
	void *copy = NULL;
	int rc = kp_registry_object_copy(&copy, b->registry, kind, object, err);
	if (rc != KP_OK)
		return rc;
	return keep(b, kind, copy, err);
}

KP_EXPORT int kp_cluster_builder_add_nodepool(kp_cluster_builder *b, const kp_nodepool *np,
					      kp_error *err)
{
	return kp_cluster_builder_add(b, KP_KIND_NODEPOOL, np, err);
}

KP_EXPORT int kp_cluster_builder_add_node(kp_cluster_builder *b, const kp_node *node,
					  kp_error *err)
{
	return kp_cluster_builder_add(b, KP_KIND_NODE, node, err);
}

KP_EXPORT int kp_cluster_builder_add_nodeclaim(kp_cluster_builder *b, const kp_nodeclaim *nc,
					       kp_error *err)
{
	return kp_cluster_builder_add(b, KP_KIND_NODECLAIM, nc, err);
}

KP_EXPORT int kp_cluster_builder_add_pod(kp_cluster_builder *b, const kp_pod *pod, kp_error *err)
{
	return kp_cluster_builder_add(b, KP_KIND_POD, pod, err);
}

/* "NodePool/default: " before the message about a decoded object (the
 * message is cut to kp_error's size, as every message is). */
static void prefix_object(kp_error *err, const kp_decoded_object *d)
{
	if (!err)
		return;
	char old[sizeof(err->message)];
	memcpy(old, err->message, sizeof(old));
	/* a nameless object is named by its place: "Node (document 2: items[0]): " */
	char where[80]; /* two numbers: bounded */
	if (d->name && *d->name)
		snprintf(where, sizeof(where), "/");
	else if (d->in_list)
		snprintf(where, sizeof(where), " (document %zu: items[%zu])", d->document + 1, d->item);
	else
		snprintf(where, sizeof(where), " (document %zu)", d->document + 1);
	const char *parts[5] = { d->kind_name, where, d->name ? d->name : "", ": ", old };
	size_t cap = sizeof(err->message) - 1, len = 0;
	for (int i = 0; i < 5; i++) {
		size_t l = strlen(parts[i]);
		if (l > cap - len)
			l = cap - len;
		memcpy(err->message + len, parts[i], l);
		len += l;
	}
	err->message[len] = '\0';
}

KP_EXPORT int kp_cluster_builder_add_manifests(kp_cluster_builder *b, const char *text,
					       size_t len, size_t *n_skipped, kp_error *err)
{
	if (!b || (!text && len))
		return kp__error(err, KP_EINVAL, NULL, "NULL argument");
	kp_decode_result *res = NULL;
	kp_decode_options o = KP_DECODE_OPTIONS_INIT;
	o.registry = b->registry;
	int rc = kp_decode(&res, text ? text : "", len, &o, err);
	if (rc != KP_OK)
		return rc;
	size_t first = b->n_objs, skipped = 0;
	for (size_t i = 0; rc == KP_OK && i < kp_decode_result_count(res); i++) {
		const kp_decoded_object *d = kp_decode_result_at(res, i);
		if (!readable_kind(b, d->kind)) {
			skipped++;
			continue;
		}
		uint32_t kind = d->kind;
		void *obj = NULL;
		if ((rc = kp_decode_result_take(res, i, &obj, err)) == KP_OK &&
		    (rc = keep(b, kind, obj, err)) != KP_OK)
			prefix_object(err, d);
	}
	kp_decode_result_free(res);
	if (rc != KP_OK) { /* all or nothing */
		while (b->n_objs > first) {
			b->n_objs--;
			kp_registry_object_free(b->registry, b->objs[b->n_objs].kind,
						b->objs[b->n_objs].object);
		}
		return rc;
	}
	if (n_skipped)
		*n_skipped = skipped;
	return KP_OK;
}

KP_EXPORT int kp_cluster_builder_set_instance_types(kp_cluster_builder *b, const char *nodepool,
						    kp_instance_types *its, kp_error *err)
{
	if (!b || !its)
		return kp__error(err, KP_EINVAL, NULL, "NULL argument");
	if (!nodepool) {
		kp_instance_types_free(b->default_its);
		b->default_its = kp_instance_types_ref(its);
		return KP_OK;
	}
	for (size_t i = 0; i < b->n_its; i++) {
		if (!strcmp(b->its[i].nodepool, nodepool)) {
			kp_instance_types_free(b->its[i].its);
			b->its[i].its = kp_instance_types_ref(its);
			return KP_OK;
		}
	}
	char *name = kp__strdup(nodepool);
	if (!name || kp__grow((void **)&b->its, &b->cap_its, b->n_its + 1, sizeof(*b->its))) {
		kp__free(name);
		return kp__error(err, KP_ENOMEM, NULL, "out of memory");
	}
	b->its[b->n_its].nodepool = name;
	b->its[b->n_its].its = kp_instance_types_ref(its);
	b->n_its++;
	return KP_OK;
}

KP_EXPORT void kp_cluster_builder_set_wellknown(kp_cluster_builder *b, kp_wellknown *wk)
{
	if (b)
		b->wellknown = wk;
}

KP_EXPORT int kp_cluster_builder_set_registry(kp_cluster_builder *b, kp_registry *registry,
					      kp_error *err)
{
	if (!b)
		return kp__error(err, KP_EINVAL, NULL, "NULL argument");
	if (b->n_objs)
		return kp__error(err, KP_EINVAL, "registry",
				 "the registry is set before any object is added");
	kp_registry_free(b->registry);
	b->registry = kp__registry_ref(registry);
	return KP_OK;
}

KP_EXPORT void kp_cluster_builder_set_now(kp_cluster_builder *b, int64_t now_ms)
{
	if (b)
		b->now_ms = now_ms;
}

/* Canonical order: kind, namespace, name. */
static int cmp_held(const void *pa, const void *pb)
{
	const held *a = *(const held *const *)pa, *b = *(const held *const *)pb;
	if (a->kind != b->kind)
		return a->kind < b->kind ? -1 : 1;
	int c = strcmp(namespace_of(a), namespace_of(b));
	return c ? c : strcmp(name_of(a), name_of(b));
}

/* A node class's readiness: its Ready condition; none counts as ready (the
 * status controller has not run yet). group is the apiVersion's group. */
static void class_status(const kp_cluster_builder *b, kp_nodeclass_status *st, const held *h)
{
	kp_condition *const *conds = NULL;
	size_t n = 0;
	kp__registry_conditions(b->registry, h->kind, h->object, &conds, &n);
	kp_nodeclass_status_from(st, meta_of(h->kind, h->object), conds, n);
	const kp__reg_kind *k = kp__registry_kind(b->registry, h->kind);
	st->group = k->group;
	st->kind = k->name;
}

static kp_instance_types *its_for(const kp_cluster_builder *b, const kp_nodepool *np)
{
	const char *name = np->metadata && np->metadata->name ? np->metadata->name : "";
	for (size_t i = 0; i < b->n_its; i++)
		if (!strcmp(b->its[i].nodepool, name))
			return b->its[i].its;
	return b->default_its;
}

KP_EXPORT int kp_cluster_builder_build(const kp_cluster_builder *b, kp_cluster **out,
				       kp_error *err)
{
	if (!b || !out)
		return kp__error(err, KP_EINVAL, NULL, "NULL argument");
	*out = NULL;
	size_t n = b->n_objs;
	/* One block: the sorted pointers, then the per-pool catalogues and
	 * the node class statuses with their pointers. */
	const held **sorted = kp__calloc(n ? n : 1, sizeof(*sorted));
	kp_instance_types **its = kp__calloc(n ? n : 1, sizeof(*its));
	kp_nodeclass_status *classes = kp__calloc(n ? n : 1, sizeof(*classes));
	const kp_nodeclass_status **class_ptrs = kp__calloc(n ? n : 1, sizeof(*class_ptrs));
	const void **ptrs = kp__calloc(n ? n : 1, sizeof(*ptrs));
	int rc = KP_OK;
	if (!sorted || !its || !classes || !class_ptrs || !ptrs) {
		rc = kp__error(err, KP_ENOMEM, NULL, "out of memory");
		goto done;
	}
	for (size_t i = 0; i < n; i++)
		sorted[i] = &b->objs[i];
	qsort(sorted, n, sizeof(*sorted), cmp_held);
	for (size_t i = 1; i < n; i++) {
		if (!cmp_held(&sorted[i - 1], &sorted[i])) {
			const held *h = sorted[i];
			rc = kp__error(err, KP_EINVAL, "metadata.name", "%s %s%s%s given twice",
				       kp_registry_kind_name(b->registry, h->kind), namespace_of(h), *namespace_of(h) ? "/" : "",
				       name_of(h));
			goto done;
		}
	}

	/* Objects of one kind are contiguous in sorted order. */
	size_t start[KP_KIND_NAMESPACE + 2] = { 0 };
	size_t first_class = n; /* registered kinds sort after every core kind */
	for (size_t i = 0; i < n; i++) {
		ptrs[i] = sorted[i]->object;
		if (sorted[i]->kind >= KP_KIND_FIRST_REGISTERED) {
			if (first_class == n)
				first_class = i;
		} else {
			start[sorted[i]->kind + 1] = i + 1;
		}
	}
	for (uint32_t k = 1; k <= KP_KIND_NAMESPACE + 1; k++)
		if (start[k] < start[k - 1])
			start[k] = start[k - 1];
	kp_cluster_spec spec = KP_CLUSTER_SPEC_INIT;
	spec.nodepools = (const kp_nodepool *const *)(ptrs + start[KP_KIND_NODEPOOL]);
	spec.n_nodepools = start[KP_KIND_NODEPOOL + 1] - start[KP_KIND_NODEPOOL];
	for (size_t i = 0; i < spec.n_nodepools; i++)
		its[i] = its_for(b, spec.nodepools[i]);
	spec.instance_types = its;
	size_t n_classes = n - first_class;
	for (size_t i = 0; i < n_classes; i++) {
		class_status(b, &classes[i], sorted[first_class + i]);
		class_ptrs[i] = &classes[i];
	}
	spec.nodeclasses = n_classes ? class_ptrs : NULL;
	spec.n_nodeclasses = n_classes;
	spec.nodeclaims = (const kp_nodeclaim *const *)(ptrs + start[KP_KIND_NODECLAIM]);
	spec.n_nodeclaims = start[KP_KIND_NODECLAIM + 1] - start[KP_KIND_NODECLAIM];
	spec.pods = (const kp_pod *const *)(ptrs + start[KP_KIND_POD]);
	spec.n_pods = start[KP_KIND_POD + 1] - start[KP_KIND_POD];
	spec.nodes = (const kp_node *const *)(ptrs + start[KP_KIND_NODE]);
	spec.n_nodes = start[KP_KIND_NODE + 1] - start[KP_KIND_NODE];
	spec.daemonsets = (const kp_daemonset *const *)(ptrs + start[KP_KIND_DAEMONSET]);
	spec.n_daemonsets = start[KP_KIND_DAEMONSET + 1] - start[KP_KIND_DAEMONSET];
	spec.pdbs = (const kp_pdb *const *)(ptrs + start[KP_KIND_PDB]);
	spec.n_pdbs = start[KP_KIND_PDB + 1] - start[KP_KIND_PDB];
	spec.pvcs = (const kp_pvc *const *)(ptrs + start[KP_KIND_PVC]);
	spec.n_pvcs = start[KP_KIND_PVC + 1] - start[KP_KIND_PVC];
	spec.pvs = (const kp_pv *const *)(ptrs + start[KP_KIND_PV]);
	spec.n_pvs = start[KP_KIND_PV + 1] - start[KP_KIND_PV];
	spec.storage_classes = (const kp_storage_class *const *)(ptrs + start[KP_KIND_STORAGE_CLASS]);
	spec.n_storage_classes = start[KP_KIND_STORAGE_CLASS + 1] - start[KP_KIND_STORAGE_CLASS];
	spec.csi_nodes = (const kp_csi_node *const *)(ptrs + start[KP_KIND_CSI_NODE]);
	spec.n_csi_nodes = start[KP_KIND_CSI_NODE + 1] - start[KP_KIND_CSI_NODE];
	spec.namespaces = (const kp_namespace *const *)(ptrs + start[KP_KIND_NAMESPACE]);
	spec.n_namespaces = start[KP_KIND_NAMESPACE + 1] - start[KP_KIND_NAMESPACE];
	spec.wellknown = b->wellknown;
	spec.now_ms = b->now_ms;
	rc = kp_cluster_new(out, &spec, err);
done:
	kp__free(ptrs);
	kp__free(class_ptrs);
	kp__free(classes);
	kp__free(its);
	kp__free(sorted);
	return rc;
}
