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

#include "common/arena.h"
#include "common/map.h"
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
	void *object;       /* library-owned */
	const char *source; /* kp_cluster_builder_add_decoded's source (arena), or NULL */
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
	kp__map its_by_pool; /* NodePool name -> index in its */
	kp_instance_types *default_its;
	kp_wellknown *wellknown;
	int64_t now_ms;
	kp_registry *registry; /* held; provider kinds (node classes), or NULL */
	/* identity ("kind ns\0name") -> the first held object of it, for
	 * replace and "given twice" as objects are added */
	kp__map ids;
	kp__arena arena;       /* sources and problems' text */
	kp_builder_problem *problems;
	size_t n_problems, cap_problems, n_errors;
	/* the view (kp_cluster_builder_spec, _objects): rebuilt when dirty */
	int dirty;
	const void **view;            /* held objects grouped by kind, in added order */
	uint32_t *view_kinds;         /* the kind of each view entry */
	kp_instance_types **view_its; /* per NodePool of the view */
	kp_nodeclass_status *view_classes;
	const kp_nodeclass_status **view_class_ptrs;
	size_t view_cap;
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

static void identity_key(kp__buf *key, const held *h)
{
	kp__buf_printf(key, "%u %s", (unsigned)h->kind, namespace_of(h));
	kp__buf_putc(key, '\0');
	kp__buf_puts(key, name_of(h));
}

/* The core kinds the snapshot reads (not VolumeAttachment: only the
 * lifecycle's Node termination reads it, when added with
 * KP_BUILDER_ADD_VOLUME_ATTACHMENTS), and the kinds
 * registered on the builder's registry: node classes (KWOKNodeClass,
 * EC2NodeClass); one without status conditions reads as never decided. */
static int readable_kind(const kp_cluster_builder *b, uint32_t kind)
{
	if (kind >= KP_KIND_FIRST_REGISTERED)
		return b->registry && kp__registry_kind(b->registry, kind) != NULL;
	/* 3 is reserved (KWOKNodeClass before it was registered, objects.h) */
	return kind >= KP_KIND_NODEPOOL && kind <= KP_KIND_NAMESPACE && kind != 3;
}

KP_EXPORT int kp_cluster_builder_reads(const kp_cluster_builder *b, uint32_t kind)
{
	return b && readable_kind(b, kind);
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
	kp__map_free(&b->its_by_pool);
	kp_instance_types_free(b->default_its);
	kp__map_free(&b->ids);
	kp__arena_free(&b->arena);
	kp__free(b->problems);
	kp__free(b->view);
	kp__free(b->view_kinds);
	kp__free(b->view_its);
	kp__free(b->view_classes);
	kp__free(b->view_class_ptrs);
	kp__free(b);
}

/* "kind ns\0name": an object's identity as the API server's (namespace by
 * kp_kind_namespaced), into @p key (reset first). */
static void identity_key(kp__buf *key, const held *h);

/* The identity map: index of the first held object of @p h's identity,
 * inserted as @p index when new (*found 0). KP_OK or KP_ENOMEM. */
static int identify(kp_cluster_builder *b, const held *h, uint32_t index, uint32_t *first,
		    int *found)
{
	kp__buf key = { NULL, 0, 0, 0 };
	identity_key(&key, h);
	int inserted = 0, rc = key.failed ? KP_ENOMEM
					  : kp__map_put(&b->ids, key.data, key.len, index, first,
							&inserted);
	kp__buf_dispose(&key);
	*found = !inserted;
	return rc;
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
	held h = { kind, obj, NULL };
	uint32_t first = 0;
	int found = 0;
	if (rc == KP_OK && b->n_objs >= UINT32_MAX)
		rc = kp__error(err, KP_ERANGE, NULL, "too many objects");
	if (rc == KP_OK && identify(b, &h, (uint32_t)b->n_objs, &first, &found) != KP_OK)
		rc = kp__error(err, KP_ENOMEM, NULL, "out of memory");
	if (rc != KP_OK) {
		kp_registry_object_free(b->registry, kind, obj);
		return rc;
	}
	/* a second object of one identity is kept here and refused when the
	 * cluster is built ("given twice"), as it always was */
	b->objs[b->n_objs++] = h;
	b->dirty = 1;
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
		/* the identity map never forgets: rebuild it over what stays */
		kp__map_free(&b->ids);
		for (size_t i = 0; i < b->n_objs; i++) {
			uint32_t at = 0;
			int found = 0;
			if (identify(b, &b->objs[i], (uint32_t)i, &at, &found) != KP_OK)
				return kp__error(err, KP_ENOMEM, NULL, "out of memory");
		}
		return rc;
	}
	if (n_skipped)
		*n_skipped = skipped;
	return KP_OK;
}

/* ---- objects with their source: kp_cluster_builder_add_decoded ---- */

/* List a problem; its strings are copied into the builder's arena. */
static int problem(kp_cluster_builder *b, uint32_t type, const char *source, const char *object,
		   const char *field, const char *message, const char *first_source)
{
	if (b->n_problems == b->cap_problems &&
	    kp__grow((void **)&b->problems, &b->cap_problems, b->n_problems + 1,
		     sizeof(*b->problems)))
		return KP_ENOMEM;
	kp_builder_problem *p = &b->problems[b->n_problems];
	memset(p, 0, sizeof(*p));
	p->struct_size = sizeof(*p);
	p->type = type;
	p->source = source ? source : "";
	p->object = kp__arena_strdup(&b->arena, object ? object : "");
	p->field = kp__arena_strdup(&b->arena, field ? field : "");
	p->message = kp__arena_strdup(&b->arena, message ? message : "");
	p->first_source = first_source ? first_source : "";
	if (!p->object || !p->field || !p->message)
		return KP_ENOMEM;
	b->n_problems++;
	if (type != KP_BUILDER_PROBLEM_WARNING)
		b->n_errors++;
	return KP_OK;
}

/* A decoded object as validation names it: "NodePool/default", or a
 * nameless one by its place, "Node (document 2: items[0])". */
static char *object_label(kp__arena *a, const kp_decoded_object *d)
{
	if (d->name && *d->name)
		return kp__arena_printf(a, "%s/%s", d->kind_name, d->name);
	if (d->in_list)
		return kp__arena_printf(a, "%s (document %zu: items[%zu])", d->kind_name,
					d->document + 1, d->item);
	return kp__arena_printf(a, "%s (document %zu)", d->kind_name, d->document + 1);
}

/* The API server's checks of one taken object (defaults, then validation
 * with @p validate): 1 when it may be added, 0 when problems were listed
 * (nothing added), -1 out of memory. */
static int admissible(kp_cluster_builder *b, const held *h, const kp_decoded_object *d,
		      const char *source, int validate)
{
	kp__arena *a = &b->arena;
	const char *label = object_label(a, d);
	if (!label)
		return -1;
	if (!d->name || !*d->name) /* the API server stores no object without one */
		return problem(b, KP_BUILDER_PROBLEM_INVALID, source, label, "metadata.name",
			       "Required value: name or generateName is required", NULL) ? -1 : 0;
	if (h->kind != KP_KIND_NODEPOOL && h->kind != KP_KIND_NODECLAIM &&
	    h->kind < KP_KIND_FIRST_REGISTERED)
		return 1;
	kp_error e = KP_ERROR_INIT;
	int rc = kp_registry_object_default(b->registry, h->kind, h->object, &e);
	if (rc == KP_ENOMEM)
		return -1;
	if (rc)
		return problem(b, KP_BUILDER_PROBLEM_INVALID, source, label, e.field, e.message,
			       NULL) ? -1 : 0;
	if (!validate)
		return 1;
	kp_validate_options vo = KP_VALIDATE_OPTIONS_INIT;
	vo.wellknown = b->wellknown;
	vo.registry = b->registry;
	kp_validation *val = NULL;
	rc = kp_validate(&val, h->kind, h->object, NULL, &vo, &e);
	if (rc)
		return rc == KP_ENOMEM ? -1
				       : problem(b, KP_BUILDER_PROBLEM_INVALID, source, label, e.field,
						 e.message, NULL) ? -1 : 0;
	int ok = 1;
	for (size_t j = 0; ok >= 0 && j < kp_validation_count(val); j++) {
		const kp_field_error *fe = kp_validation_at(val, j);
		ok = problem(b, KP_BUILDER_PROBLEM_INVALID, source, fe->object, fe->field,
			     fe->message, NULL) ? -1 : 0;
	}
	for (size_t j = 0; ok >= 0 && j < kp_validation_warning_count(val); j++) {
		const kp_field_error *w = kp_validation_warning_at(val, j);
		if (problem(b, KP_BUILDER_PROBLEM_WARNING, source, w->object, w->field, w->message,
			    NULL))
			ok = -1;
	}
	kp_validation_free(val);
	return ok;
}

/* Hold a taken, admitted object: a new identity is appended; a known one
 * replaces the held object (KP_BUILDER_ADD_REPLACE) or is listed as given
 * twice. The object is the builder's either way (freed when not kept). */
static int hold(kp_cluster_builder *b, held h, uint32_t flags)
{
	if (b->n_objs >= UINT32_MAX ||
	    (b->n_objs == b->cap_objs &&
	     kp__grow((void **)&b->objs, &b->cap_objs, b->n_objs + 1, sizeof(*b->objs)))) {
		kp_registry_object_free(b->registry, h.kind, h.object);
		return KP_ENOMEM;
	}
	uint32_t first = 0;
	int found = 0;
	if (identify(b, &h, (uint32_t)b->n_objs, &first, &found) != KP_OK) {
		kp_registry_object_free(b->registry, h.kind, h.object);
		return KP_ENOMEM;
	}
	b->dirty = 1;
	if (!found) {
		b->objs[b->n_objs++] = h;
		return KP_OK;
	}
	held *old = &b->objs[first];
	if (flags & KP_BUILDER_ADD_REPLACE) {
		kp_registry_object_free(b->registry, old->kind, old->object);
		*old = h;
		return KP_OK;
	}
	const char *ns = namespace_of(&h);
	char *who = kp__arena_printf(&b->arena, "%s %s%s%s",
				     kp_registry_kind_name(b->registry, h.kind), ns, *ns ? "/" : "",
				     name_of(&h));
	int rc = who ? problem(b, KP_BUILDER_PROBLEM_DUPLICATE, h.source, who, "", "given twice",
			       old->source)
		     : KP_ENOMEM;
	kp_registry_object_free(b->registry, h.kind, h.object);
	return rc;
}

KP_EXPORT int kp_cluster_builder_add_decoded(kp_cluster_builder *b, kp_decode_result *res,
					     const char *source, uint32_t flags, kp_error *err)
{
	if (!b || !res)
		return kp__error(err, KP_EINVAL, NULL, "NULL argument");
	if (flags & ~(uint32_t)(KP_BUILDER_ADD_REPLACE | KP_BUILDER_ADD_VALIDATE |
				KP_BUILDER_ADD_VOLUME_ATTACHMENTS))
		return kp__error(err, KP_EINVAL, "flags", "unknown flags 0x%x", (unsigned)flags);
	const char *src = kp__arena_strdup(&b->arena, source ? source : "");
	if (!src)
		return kp__error(err, KP_ENOMEM, NULL, "out of memory");
	for (size_t i = 0; i < kp_decode_result_count(res); i++) {
		const kp_decoded_object *d = kp_decode_result_at(res, i);
		if (!d->object || !(readable_kind(b, d->kind) ||
				    (d->kind == KP_KIND_VOLUME_ATTACHMENT &&
				     (flags & KP_BUILDER_ADD_VOLUME_ATTACHMENTS))))
			continue;
		held h = { d->kind, d->object, src };
		int ok = admissible(b, &h, d, src, (flags & KP_BUILDER_ADD_VALIDATE) != 0);
		if (ok < 0)
			return kp__error(err, KP_ENOMEM, NULL, "out of memory");
		if (!ok)
			continue; /* listed; the object stays in the result */
		void *obj = NULL;
		int rc = kp_decode_result_take(res, i, &obj, err);
		if (rc != KP_OK)
			return rc;
		if (hold(b, h, flags) != KP_OK)
			return kp__error(err, KP_ENOMEM, NULL, "out of memory");
	}
	return KP_OK;
}

KP_EXPORT size_t kp_cluster_builder_problem_count(const kp_cluster_builder *b)
{
	return b ? b->n_problems : 0;
}

KP_EXPORT const kp_builder_problem *kp_cluster_builder_problem_at(const kp_cluster_builder *b,
								   size_t index)
{
	return b && index < b->n_problems ? &b->problems[index] : NULL;
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
	uint32_t at = 0;
	if (kp__map_gets(&b->its_by_pool, nodepool, &at)) {
		kp_instance_types_free(b->its[at].its);
		b->its[at].its = kp_instance_types_ref(its);
		return KP_OK;
	}
	char *name = kp__strdup(nodepool);
	if (!name || b->n_its >= UINT32_MAX ||
	    kp__grow((void **)&b->its, &b->cap_its, b->n_its + 1, sizeof(*b->its)) ||
	    kp__map_put(&b->its_by_pool, name, strlen(name), (uint32_t)b->n_its, NULL, NULL)) {
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

/* A node class's readiness by the one rule (kp_nodeclass_status_from): no
 * conditions (none written yet, or a kind without them) count as ready.
 * group is the apiVersion's group. */
static void class_status(const kp_cluster_builder *b, kp_nodeclass_status *st, uint32_t kind,
			 const void *obj)
{
	kp_condition *const *conds = NULL;
	size_t n = 0;
	kp__registry_conditions(b->registry, kind, obj, &conds, &n);
	kp_nodeclass_status_from(st, meta_of(kind, obj), conds, n);
	const kp__reg_kind *k = kp__registry_kind(b->registry, kind);
	st->group = k->group;
	st->kind = k->name;
}

static kp_instance_types *its_for(const kp_cluster_builder *b, const kp_nodepool *np)
{
	const char *name = np->metadata && np->metadata->name ? np->metadata->name : "";
	uint32_t at = 0;
	if (kp__map_gets(&b->its_by_pool, name, &at))
		return b->its[at].its;
	return b->default_its;
}

/* ---- the view: kp_cluster_builder_spec and _objects --------------- */

typedef struct view_key {
	uint32_t kind;
	size_t index;
} view_key;

/* By kind, then in the order added: the view's order. */
static int cmp_view(const void *pa, const void *pb)
{
	const view_key *a = pa, *b = pb;
	if (a->kind != b->kind)
		return a->kind < b->kind ? -1 : 1;
	return a->index < b->index ? -1 : a->index > b->index;
}

/* The first object given twice (its identity held before it), or NULL. */
static const held *first_duplicate(kp_cluster_builder *b, int *oom)
{
	*oom = 0;
	if (kp__map_count(&b->ids) == b->n_objs)
		return NULL;
	for (size_t i = 0; i < b->n_objs; i++) {
		uint32_t first = 0;
		int found = 0;
		if (identify(b, &b->objs[i], (uint32_t)i, &first, &found) != KP_OK) {
			*oom = 1;
			return NULL;
		}
		if (first != i)
			return &b->objs[i];
	}
	return NULL;
}

/* Group the held objects by kind (stable): view[] and view_kinds[]. */
static int view_update(kp_cluster_builder *b)
{
	if (!b->dirty && b->view)
		return KP_OK;
	size_t n = b->n_objs, cap = n ? n : 1;
	if (cap > b->view_cap) {
		const void **v = kp__calloc(cap, sizeof(*v));
		uint32_t *k = kp__calloc(cap, sizeof(*k));
		kp_instance_types **its = kp__calloc(cap, sizeof(*its));
		kp_nodeclass_status *cl = kp__calloc(cap, sizeof(*cl));
		const kp_nodeclass_status **cp = kp__calloc(cap, sizeof(*cp));
		if (!v || !k || !its || !cl || !cp) {
			kp__free(v);
			kp__free(k);
			kp__free(its);
			kp__free(cl);
			kp__free(cp);
			return KP_ENOMEM;
		}
		kp__free(b->view);
		kp__free(b->view_kinds);
		kp__free(b->view_its);
		kp__free(b->view_classes);
		kp__free(b->view_class_ptrs);
		b->view = v, b->view_kinds = k, b->view_its = its;
		b->view_classes = cl, b->view_class_ptrs = cp;
		b->view_cap = cap;
	}
	view_key *order = kp__calloc(cap, sizeof(*order));
	if (!order)
		return KP_ENOMEM;
	for (size_t i = 0; i < n; i++)
		order[i] = (view_key){ b->objs[i].kind, i };
	qsort(order, n, sizeof(*order), cmp_view);
	for (size_t i = 0; i < n; i++) {
		b->view[i] = b->objs[order[i].index].object;
		b->view_kinds[i] = order[i].kind;
	}
	kp__free(order);
	b->dirty = 0;
	return KP_OK;
}

/* The view's range of one kind: [*start, *start + *count). */
static void view_range(const kp_cluster_builder *b, uint32_t kind, size_t *start, size_t *count)
{
	size_t lo = 0, hi = b->n_objs;
	while (lo < hi) { /* the first entry of kind >= @p kind */
		size_t mid = lo + (hi - lo) / 2;
		if (b->view_kinds[mid] < kind)
			lo = mid + 1;
		else
			hi = mid;
	}
	size_t end = lo;
	while (end < b->n_objs && b->view_kinds[end] == kind)
		end++;
	*start = lo;
	*count = end - lo;
}

KP_EXPORT int kp_cluster_builder_objects(const void *const **out, size_t *n, kp_cluster_builder *b,
					 uint32_t kind)
{
	if (out)
		*out = NULL;
	if (n)
		*n = 0;
	if (!b || !out || !n)
		return KP_EINVAL;
	if (view_update(b) != KP_OK)
		return KP_ENOMEM;
	size_t start = 0, count = 0;
	view_range(b, kind, &start, &count);
	*out = count ? b->view + start : NULL;
	*n = count;
	return KP_OK;
}

/* Refuse a snapshot of what holds problems or an object given twice. */
static int check_admitted(kp_cluster_builder *b, kp_error *err)
{
	if (b->n_errors)
		return kp__error(err, KP_EINVAL, NULL, "the input has %zu problem%s "
				 "(kp_cluster_builder_problem_at)", b->n_errors,
				 b->n_errors == 1 ? "" : "s");
	int oom = 0;
	const held *h = first_duplicate(b, &oom);
	if (oom)
		return kp__error(err, KP_ENOMEM, NULL, "out of memory");
	if (h)
		return kp__error(err, KP_EINVAL, "metadata.name", "%s %s%s%s given twice",
				 kp_registry_kind_name(b->registry, h->kind), namespace_of(h),
				 *namespace_of(h) ? "/" : "", name_of(h));
	return KP_OK;
}

KP_EXPORT int kp_cluster_builder_spec(kp_cluster_spec *out, kp_cluster_builder *b, kp_error *err)
{
	if (!b || !out)
		return kp__error(err, KP_EINVAL, NULL, "NULL argument");
	int rc = check_admitted(b, err);
	if (rc != KP_OK)
		return rc;
	if (view_update(b) != KP_OK)
		return kp__error(err, KP_ENOMEM, NULL, "out of memory");
	kp_cluster_spec spec = KP_CLUSTER_SPEC_INIT;
	size_t at = 0, n = 0;
#define KP__VIEW(kind, field, type)                                                   \
	do {                                                                          \
		view_range(b, kind, &at, &n);                                         \
		spec.field = n ? (const type *const *)(b->view + at) : NULL;          \
		spec.n_##field = n;                                                   \
	} while (0)
	KP__VIEW(KP_KIND_NODEPOOL, nodepools, kp_nodepool);
	KP__VIEW(KP_KIND_NODECLAIM, nodeclaims, kp_nodeclaim);
	KP__VIEW(KP_KIND_POD, pods, kp_pod);
	KP__VIEW(KP_KIND_NODE, nodes, kp_node);
	KP__VIEW(KP_KIND_DAEMONSET, daemonsets, kp_daemonset);
	KP__VIEW(KP_KIND_PDB, pdbs, kp_pdb);
	KP__VIEW(KP_KIND_PVC, pvcs, kp_pvc);
	KP__VIEW(KP_KIND_PV, pvs, kp_pv);
	KP__VIEW(KP_KIND_STORAGE_CLASS, storage_classes, kp_storage_class);
	KP__VIEW(KP_KIND_CSI_NODE, csi_nodes, kp_csi_node);
	KP__VIEW(KP_KIND_NAMESPACE, namespaces, kp_namespace);
	KP__VIEW(KP_KIND_VOLUME_ATTACHMENT, volume_attachments, kp_volume_attachment);
#undef KP__VIEW
	for (size_t i = 0; i < spec.n_nodepools; i++)
		b->view_its[i] = its_for(b, spec.nodepools[i]);
	spec.instance_types = spec.n_nodepools ? b->view_its : NULL;
	/* registered kinds (node classes) sort after every core kind */
	view_range(b, KP_KIND_VOLUME_ATTACHMENT, &at, &n);
	size_t first_class = at + n, n_classes = 0;
	for (size_t i = first_class; i < b->n_objs; i++) {
		class_status(b, &b->view_classes[n_classes], b->view_kinds[i], b->view[i]);
		b->view_class_ptrs[n_classes] = &b->view_classes[n_classes];
		n_classes++;
	}
	spec.nodeclasses = n_classes ? b->view_class_ptrs : NULL;
	spec.n_nodeclasses = n_classes;
	spec.wellknown = b->wellknown;
	spec.now_ms = b->now_ms;
	*out = spec;
	return KP_OK;
}

KP_EXPORT int kp_cluster_builder_build(kp_cluster **out, const kp_cluster_builder *b,
				       kp_error *err)
{
	if (!b || !out)
		return kp__error(err, KP_EINVAL, NULL, "NULL argument");
	*out = NULL;
	if (b->n_errors)
		return kp__error(err, KP_EINVAL, NULL, "the input has %zu problem%s "
				 "(kp_cluster_builder_problem_at)", b->n_errors,
				 b->n_errors == 1 ? "" : "s");
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
		class_status(b, &classes[i], sorted[first_class + i]->kind,
			     sorted[first_class + i]->object);
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
