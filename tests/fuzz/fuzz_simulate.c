/*
 * libFuzzer target: a manifest stream all the way to the scheduler, as
 * `kubectl-karpenter simulate` takes it. The input is decoded (the decoder's
 * limits lowered so that the fuzzer explores them quickly); NodePools,
 * NodeClaims and KWOKNodeClasses get the CRD defaults and must validate, as
 * the CLI requires; then a cluster is built on the built-in KWOK catalogue
 * (every NodePool gets it; KWOKNodeClasses give the node-class readiness)
 * and simulated; everything is freed. Any input must give a result or an
 * error: never a crash, a leak, undefined behaviour or unbounded memory.
 *
 * Built with -Dfuzz=true and clang (see .ci/run).
 * SPDX-License-Identifier: Apache-2.0
 */
#define KP_EXPERIMENTAL_API 1 /* KWOKNodeClass through a registry */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <karpenter/karpenter.h>
#include <karpenter/kwok.h>
#include <karpenter/sys/kwok.h>
#include <karpenter/scheduling.h>
#include <karpenter/validation.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Built once: the catalogue and the well-known labels are read-only inputs. */
static kp_instance_types *catalogue;
static kp_wellknown *wellknown;
static kp_registry *registry; /* the core kinds and KWOKNodeClass */
static uint32_t kwok_kind;

static int setup(void)
{
	if (catalogue)
		return 0;
	if (kp_kwok_catalog_builtin(&catalogue, NULL) || kp_wellknown_new(&wellknown, NULL) ||
	    kp_kwok_wellknown_add(wellknown, catalogue, NULL) || kp_registry_new(&registry, NULL) ||
	    kp_kwok_register(registry, &kwok_kind, NULL))
		__builtin_trap(); /* not input-dependent: the harness is broken */
	return 0;
}

/* Objects of one kind, borrowed from the decode result. */
typedef struct list {
	const void **items;
	size_t n;
} list;

enum { L_NODEPOOL, L_NODECLAIM, L_NODECLASS, L_POD, L_NODE, L_DAEMONSET, L_PDB, L_PVC, L_PV,
       L_SC, L_CSI, L_NS, L_COUNT };

static int list_of(uint32_t kind)
{
	if (kind == kwok_kind)
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
	default: return -1;
	}
}

/* Defaults, then validation: 1 when the API server would store it. */
static int admitted(uint32_t kind, void *object, const kp_validate_options *vo)
{
	if (kind != KP_KIND_NODEPOOL && kind != KP_KIND_NODECLAIM && kind != kwok_kind)
		return 1;
	kp_validation *v = NULL;
	int ok = kp_registry_object_default(registry, kind, object, NULL) == KP_OK &&
		 kp_validate(&v, kind, object, NULL, vo, NULL) == KP_OK && kp_validation_count(v) == 0;
	kp_validation_free(v);
	return ok;
}

static void simulate(list *l)
{
	size_t n_classes = l[L_NODECLASS].n;
	kp_nodeclass_status *classes = calloc(n_classes ? n_classes : 1, sizeof(*classes));
	const kp_nodeclass_status **class_ptrs =
		calloc(n_classes ? n_classes : 1, sizeof(*class_ptrs));
	kp_instance_types **its = calloc(l[L_NODEPOOL].n ? l[L_NODEPOOL].n : 1, sizeof(*its));
	if (!classes || !class_ptrs || !its)
		goto done;
	for (size_t i = 0; i < n_classes; i++) {
		const kp_kwok_nodeclass *nc = l[L_NODECLASS].items[i];
		kp_nodeclass_status init = KP_NODECLASS_STATUS_INIT;
		classes[i] = init;
		classes[i].group = KP_KWOK_GROUP;
		classes[i].kind = KP_KWOK_NODECLASS_KIND;
		classes[i].name = nc->metadata && nc->metadata->name ? nc->metadata->name : "";
		classes[i].ready = 1;
		if (nc->status)
			for (size_t j = 0; j < nc->status->n_conditions; j++) {
				const kp_condition *c = nc->status->conditions[j];
				if (c && c->type && !strcmp(c->type, "Ready")) {
					classes[i].ready = c->status && !strcmp(c->status, "True");
					classes[i].message = c->message;
				}
			}
		class_ptrs[i] = &classes[i];
	}
	for (size_t i = 0; i < l[L_NODEPOOL].n; i++)
		its[i] = catalogue;

	kp_cluster_spec spec = KP_CLUSTER_SPEC_INIT;
	spec.nodepools = (const kp_nodepool *const *)l[L_NODEPOOL].items;
	spec.n_nodepools = l[L_NODEPOOL].n;
	spec.instance_types = its;
	spec.nodeclasses = class_ptrs;
	spec.n_nodeclasses = n_classes;
	spec.nodes = (const kp_node *const *)l[L_NODE].items;
	spec.n_nodes = l[L_NODE].n;
	spec.nodeclaims = (const kp_nodeclaim *const *)l[L_NODECLAIM].items;
	spec.n_nodeclaims = l[L_NODECLAIM].n;
	spec.pods = (const kp_pod *const *)l[L_POD].items;
	spec.n_pods = l[L_POD].n;
	spec.daemonsets = (const kp_daemonset *const *)l[L_DAEMONSET].items;
	spec.n_daemonsets = l[L_DAEMONSET].n;
	spec.pdbs = (const kp_pdb *const *)l[L_PDB].items;
	spec.n_pdbs = l[L_PDB].n;
	spec.pvcs = (const kp_pvc *const *)l[L_PVC].items;
	spec.n_pvcs = l[L_PVC].n;
	spec.pvs = (const kp_pv *const *)l[L_PV].items;
	spec.n_pvs = l[L_PV].n;
	spec.storage_classes = (const kp_storage_class *const *)l[L_SC].items;
	spec.n_storage_classes = l[L_SC].n;
	spec.csi_nodes = (const kp_csi_node *const *)l[L_CSI].items;
	spec.n_csi_nodes = l[L_CSI].n;
	spec.namespaces = (const kp_namespace *const *)l[L_NS].items;
	spec.n_namespaces = l[L_NS].n;
	spec.wellknown = wellknown;
	spec.now_ms = 0;

	kp_cluster *cluster = NULL;
	kp_error err = KP_ERROR_INIT;
	if (kp_cluster_new(&cluster, &spec, &err) == KP_OK) {
		kp_sched_options opts = KP_SCHED_OPTIONS_INIT;
		kp_sched_result *res = NULL;
		if (kp_sched_simulate(&res, cluster, &opts, &err) == KP_OK) {
			/* Read every result, as the CLI prints them. */
			for (size_t i = 0; i < kp_sched_result_nodeclaim_count(res); i++) {
				const kp_sched_nodeclaim *s = kp_sched_result_nodeclaim(res, i);
				char *text = NULL;
				size_t len = 0;
				if (s && s->nodeclaim &&
				    kp_encode(&text, &len, KP_KIND_NODECLAIM, s->nodeclaim,
					      KP_FORMAT_JSON, 0, NULL) == KP_OK)
					(void)len;
				kp_encoded_free(text);
			}
			for (size_t i = 0; i < kp_sched_result_pod_count(res); i++) {
				const kp_sched_placement *p = kp_sched_result_pod(res, i);
				for (size_t j = 0; p && j < p->n_reasons; j++)
					(void)kp_sched_reason_code_name(p->reasons[j]->code);
			}
		} else if (err.message[0] == '\0') {
			__builtin_trap(); /* every failure must say why */
		}
		kp_sched_result_free(res);
	} else if (err.message[0] == '\0') {
		__builtin_trap();
	}
	kp_cluster_free(cluster);
done:
	free(its);
	free(class_ptrs);
	free(classes);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	setup();
	kp_decode_options opts = KP_DECODE_OPTIONS_INIT;
	opts.max_bytes = 1 << 20;
	opts.max_nodes = 1 << 16;
	opts.registry = registry;
	kp_decode_result *res = NULL;
	if (kp_decode(&res, (const char *)data, size, &opts, NULL) != KP_OK)
		return 0;
	size_t n = kp_decode_result_count(res);
	list l[L_COUNT];
	memset(l, 0, sizeof(l));
	const void **store = calloc(n ? n : 1, sizeof(*store));
	size_t counts[L_COUNT] = { 0 };
	int ok = store != NULL;
	kp_validate_options vo = KP_VALIDATE_OPTIONS_INIT;
	vo.wellknown = wellknown;
	vo.registry = registry;
	/* Count per kind, then lay the lists out in one array. */
	for (size_t i = 0; ok && i < n; i++) {
		const kp_decoded_object *o = kp_decode_result_at(res, i);
		int k = o && o->object ? list_of(o->kind) : -1;
		if (k >= 0)
			counts[k]++;
	}
	size_t off = 0;
	for (int k = 0; ok && k < L_COUNT; k++) {
		l[k].items = store + off;
		off += counts[k];
	}
	for (size_t i = 0; ok && i < n; i++) {
		const kp_decoded_object *o = kp_decode_result_at(res, i);
		int k = o && o->object ? list_of(o->kind) : -1;
		if (k < 0)
			continue;
		if (!admitted(o->kind, o->object, &vo))
			ok = 0; /* the CLI simulates nothing on input the API server refuses */
		else
			l[k].items[l[k].n++] = o->object;
	}
	if (ok)
		simulate(l);
	free(store);
	kp_decode_result_free(res);
	return 0;
}
