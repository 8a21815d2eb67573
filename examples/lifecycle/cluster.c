/*
 * A toy API server and cloud (see cluster.h).
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster.h"

/* ---- the cloud: instances by provider ID ---- */

struct ex_cloud {
	char *ids[EX_MAX];
	size_t n;
	unsigned seq;
	kp_instance recs[EX_MAX];
	const kp_instance *ptrs[EX_MAX];
	kp_label labels[3];
	kp_resource res[3];
};

static int cloud_find(const ex_cloud *c, const char *id)
{
	for (size_t i = 0; id && i < c->n; i++)
		if (strcmp(c->ids[i], id) == 0)
			return (int)i;
	return -1;
}

static void cloud_fill(ex_cloud *c, kp_instance *out, const char *id)
{
	out->provider_id = id;
	out->labels.items = c->labels;
	out->labels.count = 3;
	out->capacity.items = c->res;
	out->capacity.count = 3;
	out->allocatable = out->capacity;
}

static int cloud_create(void *self, const kp_nodeclaim *nc, kp_instance *out, kp_error *err)
{
	ex_cloud *c = self;
	char id[256];
	snprintf(id, sizeof(id), "example://i-%04u-%s", ++c->seq, nc->metadata->name);
	if (c->n == EX_MAX || !(c->ids[c->n] = malloc(strlen(id) + 1)))
		return kp_error_set(err, KP_EINSUFFICIENT, NULL, "the toy cloud is full");
	strcpy(c->ids[c->n], id);
	cloud_fill(c, out, c->ids[c->n++]);
	return KP_OK;
}

static int cloud_delete(void *self, const kp_nodeclaim *nc, kp_error *err)
{
	ex_cloud *c = self;
	int i = cloud_find(c, nc->status ? nc->status->provider_id : NULL);
	if (i < 0)
		return kp_error_set(err, KP_ENOTFOUND, NULL, "instance not found");
	free(c->ids[i]); /* terminating now; gone on the next call */
	c->ids[i] = c->ids[--c->n];
	return KP_OK;
}

static int cloud_get(void *self, const char *id, kp_instance *out, kp_error *err)
{
	ex_cloud *c = self;
	int i = cloud_find(c, id);
	if (i < 0)
		return kp_error_set(err, KP_ENOTFOUND, NULL, "instance not found");
	cloud_fill(c, out, c->ids[i]);
	return KP_OK;
}

static int cloud_list(void *self, const kp_instance *const **out, size_t *n, kp_error *err)
{
	(void)err;
	ex_cloud *c = self;
	for (size_t i = 0; i < c->n; i++) {
		kp_instance_init(&c->recs[i]);
		cloud_fill(c, &c->recs[i], c->ids[i]);
		c->ptrs[i] = &c->recs[i];
	}
	*out = c->n ? c->ptrs : NULL;
	*n = c->n;
	return KP_OK;
}

static int cloud_its(void *self, const kp_nodepool *np, kp_instance_types **out, kp_error *err)
{
	(void)self;
	(void)np;
	return kp_instance_types_new(out, err);
}

static int cloud_classes(void *self, const kp_group_kind **out, size_t *n, kp_error *err)
{
	static const kp_group_kind gk[] = { { EX_NODECLASS_GROUP, EX_NODECLASS_KIND } };
	(void)self;
	(void)err;
	*out = gk;
	*n = 1;
	return KP_OK;
}

static void cloud_destroy(void *self)
{
	ex_cloud *c = self;
	for (size_t i = 0; i < c->n; i++)
		free(c->ids[i]);
	free(c);
}

int ex_cluster_init(ex_cluster *c, int64_t now_ms)
{
	memset(c, 0, sizeof(*c));
	c->now_ms = now_ms;
	ex_cloud *cloud = calloc(1, sizeof(*cloud));
	if (!cloud)
		return KP_ENOMEM;
	cloud->labels[0] = (kp_label){ "karpenter.sh/capacity-type", "on-demand" };
	cloud->labels[1] = (kp_label){ "node.kubernetes.io/instance-type", "toy.large" };
	cloud->labels[2] = (kp_label){ "topology.kubernetes.io/zone", "zone-1" };
	const char *res[3][2] = { { "cpu", "2" }, { "memory", "8Gi" }, { "pods", "110" } };
	for (int i = 0; i < 3; i++) {
		cloud->res[i].name = res[i][0];
		kp_quantity_parse(&cloud->res[i].quantity, res[i][1], NULL);
	}
	kp_cloudprovider_ops ops = KP_CLOUDPROVIDER_OPS_INIT;
	ops.name = "toy";
	ops.create = cloud_create;
	ops.delete_instance = cloud_delete;
	ops.get = cloud_get;
	ops.list = cloud_list;
	ops.get_instance_types = cloud_its;
	ops.supported_node_classes = cloud_classes;
	ops.destroy = cloud_destroy;
	int rc = kp_cloudprovider_new(&c->cp, &ops, cloud, NULL);
	if (rc) {
		free(cloud);
		return rc;
	}
	c->cloud = cloud;
	return KP_OK;
}

size_t ex_cluster_instances(const ex_cluster *c)
{
	return c->cloud->n;
}

/* ---- objects ---- */

typedef struct slot {
	void **items;
	size_t *n;
} slot;

static slot slot_of(ex_cluster *c, uint32_t kind)
{
	slot s = { NULL, NULL };
	switch (kind) {
	case KP_KIND_NODECLAIM: s.items = (void **)c->ncs; s.n = &c->n_ncs; break;
	case KP_KIND_NODE: s.items = (void **)c->nodes; s.n = &c->n_nodes; break;
	case KP_KIND_POD: s.items = (void **)c->pods; s.n = &c->n_pods; break;
	case KP_KIND_PDB: s.items = (void **)c->pdbs; s.n = &c->n_pdbs; break;
	default: break;
	}
	return s;
}

void ex_cluster_free(ex_cluster *c)
{
	static const uint32_t kinds[] = { KP_KIND_NODECLAIM, KP_KIND_NODE, KP_KIND_POD, KP_KIND_PDB };
	for (size_t k = 0; k < 4; k++) {
		slot s = slot_of(c, kinds[k]);
		for (size_t i = 0; i < *s.n; i++)
			kp_object_free(kinds[k], s.items[i]);
		*s.n = 0;
	}
	kp_cloudprovider_free(c->cp);
	c->cp = NULL;
}

int ex_cluster_add(ex_cluster *c, uint32_t kind, void *object)
{
	slot s = slot_of(c, kind);
	if (!s.items || *s.n == EX_MAX) {
		kp_object_free(kind, object);
		return KP_EINVAL;
	}
	s.items[(*s.n)++] = object;
	return KP_OK;
}

int ex_cluster_add_yaml(ex_cluster *c, const char *text, kp_error *err)
{
	kp_decode_result *res = NULL;
	int rc = kp_decode(&res, text, strlen(text), NULL, err);
	for (size_t i = 0; rc == KP_OK && i < kp_decode_result_count(res); i++) {
		uint32_t kind = kp_decode_result_at(res, i)->kind;
		void *obj = NULL;
		rc = kp_decode_result_take(res, i, &obj, err);
		if (rc == KP_OK)
			rc = ex_cluster_add(c, kind, obj);
	}
	kp_decode_result_free(res);
	return rc;
}

/* The object's metadata: every kind starts with struct_size, kind,
 * api_version, metadata. */
typedef struct head {
	uint32_t struct_size, kind;
	const char *api_version;
	kp_object_meta *metadata;
} head;

static int find(ex_cluster *c, uint32_t kind, const char *ns, const char *name)
{
	slot s = slot_of(c, kind);
	for (size_t i = 0; s.items && i < *s.n; i++) {
		const kp_object_meta *m = ((head *)s.items[i])->metadata;
		if (strcmp(m->name, name) == 0 &&
		    strcmp(m->namespace_ ? m->namespace_ : "", ns ? ns : "") == 0)
			return (int)i;
	}
	return -1;
}

static void remove_at(ex_cluster *c, uint32_t kind, int i)
{
	slot s = slot_of(c, kind);
	if (kind == KP_KIND_NODE) {
		const char *node = c->nodes[i]->metadata->name;
		for (size_t p = 0; p < c->n_pods; p++)
			if (c->pods[p]->spec && c->pods[p]->spec->node_name &&
			    strcmp(c->pods[p]->spec->node_name, node) == 0)
				c->lost_pods++;
	}
	kp_object_free(kind, s.items[i]);
	s.items[i] = s.items[--(*s.n)];
}

/* Replace object i by a copy of view (which may point into the old one). */
static int replace(ex_cluster *c, uint32_t kind, int i, const void *view, kp_error *err)
{
	slot s = slot_of(c, kind);
	void *copy = NULL;
	int rc = kp_object_copy(&copy, kind, view, err);
	if (rc)
		return rc;
	kp_object_free(kind, s.items[i]);
	s.items[i] = copy;
	const kp_object_meta *m = ((head *)copy)->metadata;
	if (m->deletion_timestamp_ms && !m->n_finalizers)
		remove_at(c, kind, i); /* the last finalizer is gone */
	return KP_OK;
}

/* patch: metadata and spec from the action; updateStatus: status. */
static int apply_update(ex_cluster *c, const kp_lifecycle_action *a, int i, kp_error *err)
{
	/* a merge patch never clears a deletionTimestamp set since */
	kp_object_meta m = *((const head *)a->object)->metadata;
	int64_t deleting = ((head *)slot_of(c, a->kind).items[i])->metadata->deletion_timestamp_ms;
	if (deleting && !m.deletion_timestamp_ms)
		m.deletion_timestamp_ms = deleting;
	if (a->kind == KP_KIND_NODECLAIM) {
		kp_nodeclaim v = *c->ncs[i];
		const kp_nodeclaim *o = a->object;
		if (a->verb == KP_LIFECYCLE_VERB_PATCH) {
			v.metadata = &m;
			v.spec = o->spec;
		} else {
			v.status = o->status;
		}
		return replace(c, a->kind, i, &v, err);
	}
	if (a->kind == KP_KIND_NODE) {
		kp_node v = *c->nodes[i];
		const kp_node *o = a->object;
		if (a->verb == KP_LIFECYCLE_VERB_PATCH) {
			v.metadata = &m;
			v.spec = o->spec;
		} else {
			v.status = o->status;
		}
		return replace(c, a->kind, i, &v, err);
	}
	return replace(c, a->kind, i, a->object, err);
}

/* delete: finalizers make it a deletionTimestamp; pods go at once (the
 * toy kubelet stops them immediately). */
static int apply_delete(ex_cluster *c, const kp_lifecycle_action *a, int i, kp_error *err)
{
	slot s = slot_of(c, a->kind);
	head *h = s.items[i];
	if (a->kind == KP_KIND_POD || !h->metadata->n_finalizers) {
		remove_at(c, a->kind, i);
		return KP_OK;
	}
	if (h->metadata->deletion_timestamp_ms)
		return KP_OK;
	kp_object_meta m = *h->metadata;
	m.deletion_timestamp_ms = c->now_ms;
	if (a->kind == KP_KIND_NODECLAIM) {
		kp_nodeclaim v = *c->ncs[i];
		v.metadata = &m;
		return replace(c, a->kind, i, &v, err);
	}
	kp_node v = *c->nodes[i];
	v.metadata = &m;
	return replace(c, a->kind, i, &v, err);
}

int ex_cluster_apply(ex_cluster *c, const kp_lifecycle_result *r, kp_error *err)
{
	for (size_t k = 0; k < kp_lifecycle_result_action_count(r); k++) {
		const kp_lifecycle_action *a = kp_lifecycle_result_action_at(r, k);
		if (a->verb == KP_LIFECYCLE_VERB_PROVIDER_CREATE ||
		    a->verb == KP_LIFECYCLE_VERB_PROVIDER_DELETE)
			continue; /* the provider call was made */
		int i = find(c, a->kind, a->namespace_, a->name);
		if (i < 0)
			continue; /* already gone: a not-found the controller ignores */
		int rc = KP_OK;
		if (a->verb == KP_LIFECYCLE_VERB_PATCH || a->verb == KP_LIFECYCLE_VERB_UPDATE_STATUS)
			rc = apply_update(c, a, i, err);
		else if (a->verb == KP_LIFECYCLE_VERB_DELETE) {
			c->force_deleted += a->kind == KP_KIND_POD;
			rc = apply_delete(c, a, i, err);
		} else if (a->verb == KP_LIFECYCLE_VERB_EVICT) {
			c->evicted++;
			remove_at(c, a->kind, i);
		}
		if (rc)
			return rc;
	}
	return KP_OK;
}

int ex_cluster_reconcile(ex_cluster *c, kp_lifecycle_result **out, kp_error *err)
{
	/* the server's objects as the one cluster input every decision reads */
	kp_cluster_spec spec = KP_CLUSTER_SPEC_INIT;
	spec.now_ms = c->now_ms;
	spec.nodeclaims = (const kp_nodeclaim *const *)c->ncs;
	spec.n_nodeclaims = c->n_ncs;
	spec.nodes = (const kp_node *const *)c->nodes;
	spec.n_nodes = c->n_nodes;
	spec.pods = (const kp_pod *const *)c->pods;
	spec.n_pods = c->n_pods;
	spec.pdbs = (const kp_pdb *const *)c->pdbs;
	spec.n_pdbs = c->n_pdbs;
	kp_lifecycle_options opts = KP_LIFECYCLE_OPTIONS_INIT;
	opts.cloudprovider = c->cp;
	return kp_lifecycle_reconcile(out, &spec, &opts, err);
}
