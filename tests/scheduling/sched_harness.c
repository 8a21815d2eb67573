/* SPDX-License-Identifier: Apache-2.0 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched_harness.h"

#ifndef KP_SCENARIO_DIR
#define KP_SCENARIO_DIR "."
#endif

static size_t split(char *s, const char **out, size_t cap)
{
	size_t n = 0;
	for (char *t = strtok(s, " "); t && n < cap; t = strtok(NULL, " "))
		out[n++] = t;
	return n;
}

static void set_res(kp_resource_list *l, const char *name, const char *text)
{
	kp_quantity q;
	kp_error err = KP_ERROR_INIT;
	ck_assert_msg(kp_quantity_parse(&q, text, &err) == KP_OK, "%s: %s", text, err.message);
	ck_assert_int_eq(kp_resources_set(l, name, &q, &err), KP_OK);
}

kp_instance_types *h_catalog(const h_it *types)
{
	kp_instance_types *its = NULL;
	kp_error err = KP_ERROR_INIT;
	ck_assert_int_eq(kp_instance_types_new(&its, &err), KP_OK);
	for (const h_it *t = types; t->name; t++) {
		char zbuf[256], cbuf[128];
		snprintf(zbuf, sizeof(zbuf), "%s", t->zones ? t->zones : "test-zone-a test-zone-b test-zone-c");
		snprintf(cbuf, sizeof(cbuf), "%s", t->capacity_types ? t->capacity_types : "on-demand spot");
		const char *zones[8], *cts[4];
		size_t nz = split(zbuf, zones, 8), nct = split(cbuf, cts, 4);
		kp_resource_list cap = KP_RESOURCE_LIST_INIT;
		set_res(&cap, "cpu", t->cpu);
		set_res(&cap, "memory", t->memory);
		set_res(&cap, "pods", t->pods);
		if (t->extra) {
			char e[128];
			snprintf(e, sizeof(e), "%s", t->extra);
			char *eq = strchr(e, '=');
			ck_assert_ptr_nonnull(eq);
			*eq = '\0';
			set_res(&cap, e, eq + 1);
		}
		const char *arch = t->arch ? t->arch : "amd64";
		const char *os = "linux";
		kp_node_selector_requirement r[4];
		const kp_node_selector_requirement *rp[4];
		for (int i = 0; i < 4; i++) {
			kp_node_selector_requirement init = KP_NODE_SELECTOR_REQUIREMENT_INIT;
			r[i] = init;
			r[i].op = KP_SELECTOR_OP_IN;
			rp[i] = &r[i];
		}
		r[0].key = KP_LABEL_ARCH;
		r[0].values = &arch;
		r[0].n_values = 1;
		r[1].key = KP_LABEL_OS;
		r[1].values = &os;
		r[1].n_values = 1;
		r[2].key = KP_LABEL_TOPOLOGY_ZONE;
		r[2].values = zones;
		r[2].n_values = nz;
		r[3].key = KP_LABEL_CAPACITY_TYPE;
		r[3].values = cts;
		r[3].n_values = nct;
		kp_offering_spec offs[32];
		const kp_offering_spec *op[32];
		size_t no = 0;
		for (size_t z = 0; z < nz; z++)
			for (size_t c = 0; c < nct; c++) {
				kp_offering_spec o = KP_OFFERING_SPEC_INIT;
				o.capacity_type = cts[c];
				o.zone = zones[z];
				o.price = strcmp(cts[c], "spot") == 0 ? t->price * 0.7 : t->price;
				char key[128];
				snprintf(key, sizeof(key), "%s/%s", zones[z], cts[c]);
				o.available = !(t->unavailable && strcmp(t->unavailable, key) == 0);
				offs[no] = o;
				op[no] = &offs[no];
				no++;
			}
		kp_instance_type_spec spec = KP_INSTANCE_TYPE_SPEC_INIT;
		spec.name = t->name;
		spec.requirements = rp;
		spec.n_requirements = 4;
		spec.capacity = &cap;
		spec.offerings = op;
		spec.n_offerings = no;
		ck_assert_msg(kp_instance_types_add(its, &spec, &err) == KP_OK, "%s: %s", t->name,
			      err.message);
		kp_resources_dispose(&cap);
	}
	return its;
}

void h_add_type(kp_instance_types *its, const char *name, const char *cpu, const char *mem,
		double price, const char *rid_key, const h_resv *rs, size_t n_rs)
{
	const char *zones[] = { "test-zone-1", "test-zone-2", "test-zone-3" };
	const char *cts[] = { "on-demand", "spot", "reserved" };
	const char *arch = "amd64", *os = "linux", *name1[] = { name };
	ck_assert_uint_le(n_rs, 8);
	kp_node_selector_requirement r[5];
	const kp_node_selector_requirement *rp[5];
	for (int i = 0; i < 5; i++) {
		kp_node_selector_requirement init = KP_NODE_SELECTOR_REQUIREMENT_INIT;
		r[i] = init;
		r[i].op = KP_SELECTOR_OP_IN;
		rp[i] = &r[i];
	}
	r[0].key = KP_LABEL_ARCH, r[0].values = &arch, r[0].n_values = 1;
	r[1].key = KP_LABEL_OS, r[1].values = &os, r[1].n_values = 1;
	r[2].key = KP_LABEL_TOPOLOGY_ZONE, r[2].values = zones, r[2].n_values = 3;
	r[3].key = KP_LABEL_CAPACITY_TYPE, r[3].values = cts, r[3].n_values = n_rs ? 3 : 2;
	r[4].key = KP_LABEL_INSTANCE_TYPE, r[4].values = name1, r[4].n_values = 1;
	kp_offering_spec offs[16];
	const kp_offering_spec *op[16];
	kp_node_selector_requirement idreq[8];
	const kp_node_selector_requirement *idp[8];
	size_t no = 0;
	for (size_t z = 0; z < 3; z++)
		for (size_t c = 0; c < 2; c++) {
			kp_offering_spec o = KP_OFFERING_SPEC_INIT;
			o.available = 1;
			o.capacity_type = cts[c];
			o.zone = zones[z];
			o.price = c ? price * 0.7 : price;
			offs[no] = o;
			op[no] = &offs[no];
			no++;
		}
	for (size_t i = 0; i < n_rs; i++) {
		kp_node_selector_requirement init = KP_NODE_SELECTOR_REQUIREMENT_INIT;
		idreq[i] = init;
		idreq[i].key = rid_key;
		idreq[i].op = KP_SELECTOR_OP_IN;
		idreq[i].values = &rs[i].id;
		idreq[i].n_values = 1;
		idp[i] = &idreq[i];
		kp_offering_spec o = KP_OFFERING_SPEC_INIT;
		o.available = rs[i].available;
		o.capacity_type = "reserved";
		o.zone = "test-zone-1";
		o.price = price / 100000.0;
		o.reservation_id = rs[i].id;
		o.reservation_capacity = rs[i].capacity;
		o.requirements = &idp[i];
		o.n_requirements = 1;
		offs[no] = o;
		op[no] = &offs[no];
		no++;
	}
	kp_resource_list cap = KP_RESOURCE_LIST_INIT;
	set_res(&cap, "cpu", cpu);
	set_res(&cap, "memory", mem);
	set_res(&cap, "pods", "110");
	kp_instance_type_spec spec = KP_INSTANCE_TYPE_SPEC_INIT;
	spec.name = name;
	spec.requirements = rp;
	spec.n_requirements = 5;
	spec.capacity = &cap;
	spec.offerings = op;
	spec.n_offerings = no;
	kp_error err = KP_ERROR_INIT;
	ck_assert_msg(kp_instance_types_add(its, &spec, &err) == KP_OK, "%s: %s: %s", name,
		      err.field, err.message);
	kp_resources_dispose(&cap);
}

kp_instance_types *h_catalog_default(void)
{
	static const h_it types[] = {
		{ "small", "2", "4Gi", "10", NULL, NULL, NULL, 0.1, NULL, NULL },
		{ "medium", "4", "8Gi", "20", NULL, NULL, NULL, 0.2, NULL, NULL },
		{ "large", "8", "16Gi", "40", NULL, NULL, NULL, 0.4, NULL, NULL },
		{ "xlarge", "16", "32Gi", "80", NULL, NULL, NULL, 0.8, NULL, NULL },
		{ "arm-medium", "4", "8Gi", "20", "arm64", NULL, NULL, 0.15, NULL, NULL },
		{ "gpu", "8", "32Gi", "20", NULL, NULL, NULL, 2.0, "nvidia.com/gpu=2", NULL },
		{ NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0, NULL, NULL },
	};
	return h_catalog(types);
}

/* Copy a builder view's array into a scenario's fixed one. */
#define H_TAKE(dst, n_dst, src, n_src)                                                      \
	do {                                                                               \
		ck_assert_uint_le((n_src), sizeof(dst) / sizeof((dst)[0]));                \
		for (size_t i_ = 0; i_ < (n_src); i_++)                                    \
			(dst)[i_] = (src)[i_];                                             \
		(n_dst) = (n_src);                                                         \
	} while (0)

void h_load(h_scenario *sc, const char *yaml, kp_instance_types *its)
{
	memset(sc, 0, sizeof(*sc));
	kp_error err = KP_ERROR_INIT;
	kp_decode_result *decoded = NULL;
	ck_assert_msg(kp_decode(&decoded, yaml, strlen(yaml), NULL, &err) == KP_OK,
		      "decode: %s: %s", err.field, err.message);
	/* the builder takes the objects of the kinds the snapshot reads (no
	 * routing by kind here), with the CRD defaults the API server applies */
	ck_assert_int_eq(kp_cluster_builder_new(&sc->builder, &err), KP_OK);
	ck_assert_msg(kp_cluster_builder_add_decoded(sc->builder, decoded, "scenario", 0, &err) ==
			      KP_OK, "builder: %s: %s", err.field, err.message);
	kp_decode_result_free(decoded);
	kp_cluster_spec spec;
	ck_assert_msg(kp_cluster_builder_spec(&spec, sc->builder, &err) == KP_OK, "builder: %s",
		      err.message);
	H_TAKE(sc->nodepools, sc->n_nodepools, spec.nodepools, spec.n_nodepools);
	H_TAKE(sc->nodes, sc->n_nodes, spec.nodes, spec.n_nodes);
	H_TAKE(sc->nodeclaims, sc->n_nodeclaims, spec.nodeclaims, spec.n_nodeclaims);
	H_TAKE(sc->daemonsets, sc->n_daemonsets, spec.daemonsets, spec.n_daemonsets);
	H_TAKE(sc->pvcs, sc->n_pvcs, spec.pvcs, spec.n_pvcs);
	H_TAKE(sc->pvs, sc->n_pvs, spec.pvs, spec.n_pvs);
	H_TAKE(sc->scs, sc->n_scs, spec.storage_classes, spec.n_storage_classes);
	H_TAKE(sc->csi_nodes, sc->n_csi_nodes, spec.csi_nodes, spec.n_csi_nodes);
	H_TAKE(sc->namespaces, sc->n_namespaces, spec.namespaces, spec.n_namespaces);
	sc->cap_pods = spec.n_pods + 64; /* room for a test that appends pods */
	sc->pods = malloc(sc->cap_pods * sizeof(*sc->pods));
	ck_assert_ptr_nonnull(sc->pods);
	for (size_t i = 0; i < spec.n_pods; i++)
		sc->pods[i] = spec.pods[i];
	sc->n_pods = spec.n_pods;
	sc->its = its ? its : h_catalog_default();
	for (size_t i = 0; i < sc->n_nodepools; i++)
		sc->per_pool[i] = sc->its;
}

void h_load_file(h_scenario *sc, const char *name, kp_instance_types *its)
{
	char path[1024];
	snprintf(path, sizeof(path), "%s/%s", KP_SCENARIO_DIR, name);
	size_t len = 0;
	char *text = kp_test_read_file(path, &len);
	ck_assert_msg(text != NULL, "cannot read %s", path);
	h_load(sc, text, its);
	free(text);
}

int h_build(h_scenario *sc, kp_error *err)
{
	kp_cluster_spec spec = KP_CLUSTER_SPEC_INIT;
	spec.nodepools = sc->nodepools;
	spec.n_nodepools = sc->n_nodepools;
	spec.instance_types = sc->per_pool;
	if (sc->n_classes) {
		spec.nodeclasses = (const kp_nodeclass_status *const *)sc->classes;
		spec.n_nodeclasses = sc->n_classes;
	}
	spec.nodes = sc->nodes;
	spec.n_nodes = sc->n_nodes;
	spec.nodeclaims = sc->nodeclaims;
	spec.n_nodeclaims = sc->n_nodeclaims;
	spec.pods = sc->pods;
	spec.n_pods = sc->n_pods;
	spec.daemonsets = sc->daemonsets;
	spec.n_daemonsets = sc->n_daemonsets;
	spec.pvcs = sc->pvcs;
	spec.n_pvcs = sc->n_pvcs;
	spec.pvs = sc->pvs;
	spec.n_pvs = sc->n_pvs;
	spec.storage_classes = sc->scs;
	spec.n_storage_classes = sc->n_scs;
	spec.csi_nodes = sc->csi_nodes;
	spec.n_csi_nodes = sc->n_csi_nodes;
	spec.namespaces = sc->namespaces;
	spec.n_namespaces = sc->n_namespaces;
	spec.wellknown = sc->wk;
	return kp_cluster_new(&sc->cluster, &spec, err);
}

void h_run(h_scenario *sc, const kp_sched_options *opts)
{
	kp_error err = KP_ERROR_INIT;
	if (!sc->cluster)
		ck_assert_msg(h_build(sc, &err) == KP_OK, "cluster: %s: %s", err.field, err.message);
	kp_sched_result_free(sc->result);
	sc->result = NULL;
	ck_assert_msg(kp_sched_simulate(&sc->result, sc->cluster, opts, &err) == KP_OK,
		      "simulate: %s: %s", err.field, err.message);
}

void h_free(h_scenario *sc)
{
	kp_sched_result_free(sc->result);
	kp_cluster_free(sc->cluster);
	kp_instance_types_free(sc->its);
	kp_cluster_builder_free(sc->builder);
	free(sc->pods);
	memset(sc, 0, sizeof(*sc));
}

const kp_sched_placement *h_pod(const h_scenario *sc, const char *name)
{
	char ns[128] = "default";
	const char *n = name;
	const char *slash = strchr(name, '/');
	if (slash) {
		snprintf(ns, sizeof(ns), "%.*s", (int)(slash - name), name);
		n = slash + 1;
	}
	size_t cnt = kp_sched_result_pod_count(sc->result);
	for (size_t i = 0; i < cnt; i++) {
		const kp_sched_placement *p = kp_sched_result_pod_at(sc->result, i);
		if (strcmp(p->name, n) == 0 && strcmp(p->namespace_, ns) == 0)
			return p;
	}
	return NULL;
}

size_t h_count(const h_scenario *sc, uint32_t target)
{
	size_t n = 0, cnt = kp_sched_result_pod_count(sc->result);
	for (size_t i = 0; i < cnt; i++)
		n += kp_sched_result_pod_at(sc->result, i)->target == target;
	return n;
}

const kp_sched_nodeclaim *h_pod_nc(const h_scenario *sc, const char *name)
{
	const kp_sched_placement *p = h_pod(sc, name);
	if (!p || p->target != KP_SCHED_NEW_NODECLAIM)
		return NULL;
	return kp_sched_result_nodeclaim_at(sc->result, p->nodeclaim_index);
}

const char *h_label(const kp_nodeclaim *nc, const char *key)
{
	return nc && nc->metadata ? kp_labels_get(&nc->metadata->labels, key) : NULL;
}

const char *h_annotation(const kp_nodeclaim *nc, const char *key)
{
	return nc && nc->metadata ? kp_labels_get(&nc->metadata->annotations, key) : NULL;
}

const char *h_req(const kp_nodeclaim *nc, const char *key)
{
	static char buf[4096];
	if (!nc || !nc->spec)
		return NULL;
	for (size_t i = 0; i < nc->spec->n_requirements; i++) {
		const kp_nodeclaim_requirement *r = nc->spec->requirements[i];
		if (strcmp(r->key, key) != 0)
			continue;
		size_t len = (size_t)snprintf(buf, sizeof(buf), "%s", r->operator_name);
		for (size_t v = 0; v < r->n_values && len < sizeof(buf); v++)
			len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s", v ? "," : " ",
						r->values[v]);
		if (r->has_min_values && len < sizeof(buf))
			snprintf(buf + len, sizeof(buf) - len, " minValues=%lld",
				 (long long)r->min_values);
		return buf;
	}
	return NULL;
}

const char *h_request(const kp_nodeclaim *nc, const char *name)
{
	static char buf[KP_QUANTITY_STRING_MAX];
	if (!nc || !nc->spec || !nc->spec->resources)
		return NULL;
	kp_quantity q;
	if (kp_resources_get(&q, &nc->spec->resources->requests, name, NULL) != KP_OK)
		return NULL;
	kp_quantity_format(&q, buf, sizeof(buf));
	return buf;
}

const kp_sched_reason *h_reason(const kp_sched_placement *p, uint32_t code, const char *pool,
				const char *node)
{
	if (!p)
		return NULL;
	for (size_t i = 0; i < p->n_reasons; i++) {
		const kp_sched_reason *r = p->reasons[i];
		if (r->code != code)
			continue;
		if (pool && (!r->nodepool || strcmp(r->nodepool, pool) != 0))
			continue;
		if (node && (!r->node || strcmp(r->node, node) != 0))
			continue;
		return r;
	}
	return NULL;
}

char *h_dump(const kp_sched_result *r)
{
	size_t cap = 1 << 16, len = 0;
	char *out = malloc(cap);
	ck_assert_ptr_nonnull(out);
	out[0] = '\0';
#define APPEND(...)                                                                                \
	do {                                                                                       \
		int k_ = snprintf(NULL, 0, __VA_ARGS__);                                           \
		while (len + (size_t)k_ + 1 > cap) {                                               \
			cap *= 2;                                                                  \
			out = realloc(out, cap);                                                   \
			ck_assert_ptr_nonnull(out);                                                \
		}                                                                                  \
		snprintf(out + len, cap - len, __VA_ARGS__);                                       \
		len += (size_t)k_;                                                                 \
	} while (0)
	for (size_t i = 0; i < kp_sched_result_nodeclaim_count(r); i++) {
		const kp_sched_nodeclaim *n = kp_sched_result_nodeclaim_at(r, i);
		char *enc = NULL;
		size_t elen = 0;
		ck_assert_int_eq(kp_encode(&enc, &elen, KP_KIND_NODECLAIM, n->nodeclaim, KP_FORMAT_JSON, 0,
					   NULL), KP_OK);
		APPEND("nc %zu %s %s %s %s %.6f %zu %zu %s\n", i, n->nodepool, n->instance_type,
		       n->zone, n->capacity_type, n->price, n->n_pods, n->n_instance_type_options, enc);
		kp_encoded_free(enc);
	}
	for (size_t i = 0; i < kp_sched_result_pod_count(r); i++) {
		const kp_sched_placement *p = kp_sched_result_pod_at(r, i);
		APPEND("pod %s/%s %u %s %zu\n", p->namespace_, p->name, p->target,
		       p->node ? p->node : "-", p->nodeclaim_index);
		for (size_t k = 0; k < p->n_reasons; k++) {
			const kp_sched_reason *x = p->reasons[k];
			APPEND("  %s %s %s %s %s\n", kp_sched_reason_code_name(x->code),
			       x->nodepool ? x->nodepool : "-", x->node ? x->node : "-",
			       x->field ? x->field : "-", x->message);
		}
	}
	APPEND("cost %.6f\n", kp_sched_result_cost(r));
#undef APPEND
	return out;
}
