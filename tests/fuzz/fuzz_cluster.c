/*
 * The cluster input of the libFuzzer targets (fuzz_cluster.h).
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include "fuzz_cluster.h"

#include <stdlib.h>
#include <string.h>

#include <karpenter/sys/kwok.h>
#include <karpenter/validation.h>

kp_instance_types *fuzz_catalogue;
kp_wellknown *fuzz_wellknown;
kp_registry *fuzz_registry;
uint32_t fuzz_kwok_kind;

static void setup(void)
{
	if (fuzz_catalogue)
		return;
	if (kp_kwok_catalog_builtin(&fuzz_catalogue, NULL) || kp_wellknown_new(&fuzz_wellknown, NULL) ||
	    kp_kwok_wellknown_add(fuzz_wellknown, fuzz_catalogue, NULL) ||
	    kp_registry_new(&fuzz_registry, NULL) ||
	    kp_kwok_register(fuzz_registry, &fuzz_kwok_kind, NULL))
		__builtin_trap(); /* not input-dependent: the harness is broken */
}

static int list_of(uint32_t kind)
{
	if (kind == fuzz_kwok_kind)
		return L_NODECLASS;
	switch (kind) {
	case KP_KIND_NODEPOOL: return L_NODEPOOL;
	case KP_KIND_NODECLAIM: return L_NODECLAIM;
	case KP_KIND_POD: return L_POD;
	case KP_KIND_NODE: return L_NODE;
	case KP_KIND_DAEMONSET: return L_DAEMONSET;
	case KP_KIND_PDB: return L_PDB;
	case KP_KIND_PVC: return L_PVC;
	case KP_KIND_PV: return L_PV;
	case KP_KIND_STORAGE_CLASS: return L_SC;
	case KP_KIND_CSI_NODE: return L_CSI;
	case KP_KIND_NAMESPACE: return L_NS;
	case KP_KIND_VOLUME_ATTACHMENT: return L_VA;
	default: return -1;
	}
}

/* Defaults, then validation: 1 when the API server would store it. */
static int admitted(uint32_t kind, void *object)
{
	if (kind != KP_KIND_NODEPOOL && kind != KP_KIND_NODECLAIM && kind != fuzz_kwok_kind)
		return 1;
	kp_validate_options vo = KP_VALIDATE_OPTIONS_INIT;
	vo.wellknown = fuzz_wellknown;
	vo.registry = fuzz_registry;
	kp_validation *v = NULL;
	int ok = kp_registry_object_default(fuzz_registry, kind, object, NULL) == KP_OK &&
		 kp_validate(&v, kind, object, NULL, &vo, NULL) == KP_OK && kp_validation_count(v) == 0;
	kp_validation_free(v);
	return ok;
}

int fuzz_cluster_load(fuzz_cluster *c, const uint8_t *data, size_t size)
{
	setup();
	memset(c, 0, sizeof(*c));
	kp_decode_options opts = KP_DECODE_OPTIONS_INIT;
	opts.max_bytes = 1 << 20;
	opts.max_nodes = 1 << 16;
	opts.registry = fuzz_registry;
	kp_error err = KP_ERROR_INIT;
	if (kp_decode(&c->res, (const char *)data, size, &opts, &err) != KP_OK) {
		FUZZ_REQUIRE(err.message[0] != '\0');
		return -1;
	}
	size_t n = kp_decode_result_count(c->res);
	c->store = calloc(n ? n : 1, sizeof(*c->store));
	if (!c->store)
		goto fail;
	size_t counts[L_COUNT] = { 0 };
	/* Count per kind, then lay the lists out in one array. */
	for (size_t i = 0; i < n; i++) {
		const kp_decoded_object *o = kp_decode_result_at(c->res, i);
		int k = o && o->object ? list_of(o->kind) : -1;
		if (k >= 0)
			counts[k]++;
	}
	size_t off = 0;
	for (int k = 0; k < L_COUNT; k++) {
		c->l[k].items = c->store + off;
		off += counts[k];
	}
	for (size_t i = 0; i < n; i++) {
		const kp_decoded_object *o = kp_decode_result_at(c->res, i);
		int k = o && o->object ? list_of(o->kind) : -1;
		if (k < 0)
			continue;
		if (!admitted(o->kind, o->object))
			goto fail; /* the CLI works on nothing the API server refuses */
		c->l[k].items[c->l[k].n++] = o->object;
	}
	return 0;
fail:
	fuzz_cluster_free(c);
	return -1;
}

/* Every modelled kind starts with struct_size, kind, api_version, metadata. */
typedef struct obj_head {
	uint32_t struct_size, kind;
	const char *api_version;
	const kp_object_meta *metadata;
} obj_head;

static const char *obj_name(const void *o)
{
	const obj_head *h = o;
	return h->metadata && h->metadata->name ? h->metadata->name : "";
}

static const char *obj_ns(int list, const void *o)
{
	const obj_head *h = o;
	if (list != L_POD && list != L_DAEMONSET && list != L_PDB && list != L_PVC)
		return "";
	return h->metadata && h->metadata->namespace_ && *h->metadata->namespace_
		       ? h->metadata->namespace_
		       : "default";
}

int fuzz_cluster_apply(fuzz_cluster *c, const fuzz_cluster *add)
{
	size_t total = 0;
	for (int k = 0; k < L_COUNT; k++)
		total += c->l[k].n + add->l[k].n;
	const void **store = calloc(total ? total : 1, sizeof(*store));
	if (!store)
		return -1;
	size_t off = 0;
	for (int k = 0; k < L_COUNT; k++) {
		const void **items = store + off;
		size_t n = c->l[k].n;
		memcpy(items, c->l[k].items, n * sizeof(*items));
		for (size_t i = 0; i < add->l[k].n; i++) {
			const void *a = add->l[k].items[i];
			size_t j = 0;
			for (; j < c->l[k].n; j++)
				if (!strcmp(obj_name(items[j]), obj_name(a)) &&
				    !strcmp(obj_ns(k, items[j]), obj_ns(k, a)))
					break;
			if (j < c->l[k].n)
				items[j] = a;
			else
				items[n++] = a;
		}
		c->l[k].items = items;
		c->l[k].n = n;
		off += n;
	}
	free(c->store);
	c->store = store;
	return 0;
}

int fuzz_cluster_spec(fuzz_cluster *c, kp_cluster_spec *spec, int64_t now_ms)
{
	size_t n_classes = c->l[L_NODECLASS].n;
	free(c->classes);
	free(c->class_ptrs);
	free(c->its);
	c->classes = calloc(n_classes ? n_classes : 1, sizeof(*c->classes));
	c->class_ptrs = calloc(n_classes ? n_classes : 1, sizeof(*c->class_ptrs));
	c->its = calloc(c->l[L_NODEPOOL].n ? c->l[L_NODEPOOL].n : 1, sizeof(*c->its));
	if (!c->classes || !c->class_ptrs || !c->its)
		return -1;
	/* The Ready condition of each KWOKNodeClass, as the CLI reads it. */
	for (size_t i = 0; i < n_classes; i++) {
		const kp_kwok_nodeclass *nc = c->l[L_NODECLASS].items[i];
		/* as kubectl-karpenter reads it */
		kp_nodeclass_status_from(&c->classes[i], nc->metadata,
					 nc->status ? nc->status->conditions : NULL,
					 nc->status ? nc->status->n_conditions : 0);
		c->classes[i].group = KP_KWOK_GROUP;
		c->classes[i].kind = KP_KWOK_NODECLASS_KIND;
		c->class_ptrs[i] = &c->classes[i];
	}
	for (size_t i = 0; i < c->l[L_NODEPOOL].n; i++)
		c->its[i] = fuzz_catalogue;

	kp_cluster_spec init = KP_CLUSTER_SPEC_INIT;
	*spec = init;
	fuzz_list *l = c->l;
	spec->nodepools = (const kp_nodepool *const *)l[L_NODEPOOL].items;
	spec->n_nodepools = l[L_NODEPOOL].n;
	spec->instance_types = c->its;
	spec->nodeclasses = n_classes ? c->class_ptrs : NULL;
	spec->n_nodeclasses = n_classes;
	spec->nodes = (const kp_node *const *)l[L_NODE].items;
	spec->n_nodes = l[L_NODE].n;
	spec->nodeclaims = (const kp_nodeclaim *const *)l[L_NODECLAIM].items;
	spec->n_nodeclaims = l[L_NODECLAIM].n;
	spec->pods = (const kp_pod *const *)l[L_POD].items;
	spec->n_pods = l[L_POD].n;
	spec->daemonsets = (const kp_daemonset *const *)l[L_DAEMONSET].items;
	spec->n_daemonsets = l[L_DAEMONSET].n;
	spec->pdbs = (const kp_pdb *const *)l[L_PDB].items;
	spec->n_pdbs = l[L_PDB].n;
	spec->pvcs = (const kp_pvc *const *)l[L_PVC].items;
	spec->n_pvcs = l[L_PVC].n;
	spec->pvs = (const kp_pv *const *)l[L_PV].items;
	spec->n_pvs = l[L_PV].n;
	spec->storage_classes = (const kp_storage_class *const *)l[L_SC].items;
	spec->n_storage_classes = l[L_SC].n;
	spec->csi_nodes = (const kp_csi_node *const *)l[L_CSI].items;
	spec->n_csi_nodes = l[L_CSI].n;
	spec->namespaces = (const kp_namespace *const *)l[L_NS].items;
	spec->n_namespaces = l[L_NS].n;
	spec->wellknown = fuzz_wellknown;
	spec->now_ms = now_ms;
	return 0;
}

void fuzz_cluster_free(fuzz_cluster *c)
{
	free(c->its);
	free(c->class_ptrs);
	free(c->classes);
	free(c->store);
	kp_decode_result_free(c->res);
	memset(c, 0, sizeof(*c));
}

void fuzz_touch(const char *s)
{
	if (s)
		(void)strlen(s);
}
