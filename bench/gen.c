/*
 * sched-bench: input generators and the lower bound (see gen.h and
 * bench/README.md for what each scenario is and how it follows upstream).
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include "gen.h"

#include <float.h>
#include <stdalign.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <karpenter/kwok.h>

/* ------------------------------------------------------------------ */
/* Arena                                                               */

#define BENCH_CHUNK_BYTES ((size_t)1 << 20)

struct bench_chunk {
	bench_chunk *next;
	size_t size;
	max_align_t data[];
};

static void die_oom(void)
{
	fputs("sched-bench: out of memory\n", stderr);
	exit(2);
}

void *bench_alloc(bench_arena *a, size_t size)
{
	size = (size + 15) & ~(size_t)15;
	if (!a->head || a->used + size > a->head->size) {
		size_t cap = size > BENCH_CHUNK_BYTES ? size : BENCH_CHUNK_BYTES;
		bench_chunk *c = calloc(1, sizeof(*c) + cap);
		if (!c)
			die_oom();
		c->size = cap;
		c->next = a->head;
		a->head = c;
		a->used = 0;
	}
	void *p = (unsigned char *)a->head->data + a->used;
	a->used += size;
	a->bytes += size;
	return p;
}

char *bench_strdup(bench_arena *a, const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = bench_alloc(a, n);
	memcpy(p, s, n);
	return p;
}

void bench_arena_free(bench_arena *a)
{
	bench_chunk *c = a->head;
	while (c) {
		bench_chunk *next = c->next;
		free(c);
		c = next;
	}
	a->head = NULL;
	a->used = 0;
	a->bytes = 0;
}

/* ------------------------------------------------------------------ */
/* splitmix64                                                          */

uint64_t bench_rng_next(bench_rng *r)
{
	uint64_t z = (r->state += UINT64_C(0x9e3779b97f4a7c15));
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

size_t bench_rng_below(bench_rng *r, size_t n)
{
	return (size_t)(bench_rng_next(r) % (uint64_t)n);
}

/* ------------------------------------------------------------------ */
/* Small builders                                                      */

static void fail(const char *what, const kp_error *err)
{
	fprintf(stderr, "sched-bench: %s: %s\n", what, err && err->message[0] ? err->message : "failed");
	exit(2);
}

static kp_quantity qty(const char *text)
{
	kp_quantity q;
	kp_error err = KP_ERROR_INIT;
	if (kp_quantity_parse(&q, text, &err) != KP_OK)
		fail(text, &err);
	return q;
}

static int64_t qty_milli(const kp_quantity *q)
{
	int64_t v = 0;
	if (kp_quantity_milli_value(q, &v) != KP_OK)
		fail("quantity out of range", NULL);
	return v;
}

static int64_t qty_value(const kp_quantity *q)
{
	int64_t v = 0;
	if (kp_quantity_value(q, &v) != KP_OK)
		fail("quantity out of range", NULL);
	return v;
}

/* A caller-built resource list of @p n entries (names must be sorted). */
static kp_resource_list rlist(bench_arena *a, size_t n, const char *const *names,
			      const char *const *texts)
{
	kp_resource_list l = KP_RESOURCE_LIST_INIT;
	if (n == 0)
		return l;
	kp_resource *items = bench_alloc(a, n * sizeof(*items));
	for (size_t i = 0; i < n; i++) {
		items[i].name = names[i];
		items[i].quantity = qty(texts[i]);
	}
	l.items = items;
	l.count = n;
	return l;
}

/* One "key = value" label map (shared by every pod that has it). */
static kp_labels label1(bench_arena *a, const char *key, const char *value)
{
	kp_label *l = bench_alloc(a, sizeof(*l));
	l->key = key;
	l->value = value;
	kp_labels m = { l, 1 };
	return m;
}

static kp_label_selector *selector1(bench_arena *a, const char *key, const char *value)
{
	kp_label_selector *s = bench_alloc(a, sizeof(*s));
	s->match_labels = label1(a, key, value);
	return s;
}

static kp_topology_spread_constraint **spread1(bench_arena *a, const char *topology_key,
					       kp_label_selector *selector)
{
	kp_topology_spread_constraint *c = bench_alloc(a, sizeof(*c));
	*c = (kp_topology_spread_constraint)KP_TOPOLOGY_SPREAD_CONSTRAINT_INIT;
	c->max_skew = 1;
	c->topology_key = topology_key;
	c->when_unsatisfiable = "DoNotSchedule";
	c->when_unsatisfiable_code = KP_WHEN_UNSATISFIABLE_DO_NOT_SCHEDULE;
	c->label_selector = selector;
	kp_topology_spread_constraint **v = bench_alloc(a, sizeof(*v));
	v[0] = c;
	return v;
}

/* Required pod affinity (anti = 0) or anti-affinity (anti = 1), one term. */
static kp_affinity *affinity1(bench_arena *a, int anti, const char *topology_key,
			      kp_label_selector *selector)
{
	kp_pod_affinity_term *t = bench_alloc(a, sizeof(*t));
	*t = (kp_pod_affinity_term)KP_POD_AFFINITY_TERM_INIT;
	t->label_selector = selector;
	t->topology_key = topology_key;
	kp_pod_affinity_term **terms = bench_alloc(a, sizeof(*terms));
	terms[0] = t;
	kp_pod_affinity *pa = bench_alloc(a, sizeof(*pa));
	*pa = (kp_pod_affinity)KP_POD_AFFINITY_INIT;
	pa->required = terms;
	pa->n_required = 1;
	kp_affinity *af = bench_alloc(a, sizeof(*af));
	*af = (kp_affinity)KP_AFFINITY_INIT;
	if (anti)
		af->pod_anti_affinity = pa;
	else
		af->pod_affinity = pa;
	return af;
}

static kp_nodeclaim_requirement *ncreq(bench_arena *a, const char *key, uint32_t op,
				       const char *const *values, size_t n_values)
{
	kp_nodeclaim_requirement *r = bench_alloc(a, sizeof(*r));
	*r = (kp_nodeclaim_requirement)KP_NODECLAIM_REQUIREMENT_INIT;
	r->key = key;
	r->op = op;
	r->operator_name = kp_selector_op_name(op);
	r->values = values;
	r->n_values = n_values;
	return r;
}

static kp_nodepool *nodepool(bench_arena *a, const char *name, const char *nc_group,
			     const char *nc_kind, kp_nodeclaim_requirement **reqs, size_t n_reqs,
			     kp_resource_list limits)
{
	kp_node_class_reference *ref = bench_alloc(a, sizeof(*ref));
	*ref = (kp_node_class_reference)KP_NODE_CLASS_REFERENCE_INIT;
	ref->group = nc_group;
	ref->kind = nc_kind;
	ref->name = "default";
	kp_nodeclaim_spec *ncs = bench_alloc(a, sizeof(*ncs));
	*ncs = (kp_nodeclaim_spec)KP_NODECLAIM_SPEC_INIT;
	/* present even when empty: upstream test.NodePool sets [] */
	ncs->requirements = reqs ? reqs : bench_alloc(a, sizeof(*reqs));
	ncs->n_requirements = n_reqs;
	ncs->node_class_ref = ref;
	kp_nodeclaim_template *tpl = bench_alloc(a, sizeof(*tpl));
	*tpl = (kp_nodeclaim_template)KP_NODECLAIM_TEMPLATE_INIT;
	tpl->spec = ncs;
	kp_nodepool_spec *spec = bench_alloc(a, sizeof(*spec));
	*spec = (kp_nodepool_spec)KP_NODEPOOL_SPEC_INIT;
	spec->template_ = tpl;
	spec->limits = limits;
	kp_object_meta *meta = bench_alloc(a, sizeof(*meta));
	*meta = (kp_object_meta)KP_OBJECT_META_INIT;
	meta->name = name;
	kp_nodepool *np = bench_alloc(a, sizeof(*np));
	*np = (kp_nodepool)KP_NODEPOOL_INIT;
	np->metadata = meta;
	np->spec = spec;
	return np;
}

void bench_input_free(bench_input *in)
{
	kp_requirements_free(in->np_reqs);
	kp_instance_types_free(in->its);
	kp_wellknown_free(in->wk);
	free(in->pods);
	free(in->nodes);
	free(in->reqs);
	bench_arena_free(&in->arena);
	memset(in, 0, sizeof(*in));
}

/* ------------------------------------------------------------------ */
/* P1 / S1: upstream fake.InstanceTypes(n) and the benchmark NodePool  */

static const char *const zones3[] = { "test-zone-1", "test-zone-2", "test-zone-3" };

#define BENCH_RESERVATION_LABEL "karpenter.sh/reservation-id"

static int setup_fake(bench_input *in, size_t n_types, int limits, int64_t left, kp_error *err);

int bench_setup_fake(bench_input *in, size_t n_types, int limits, kp_error *err)
{
	return setup_fake(in, n_types, limits, -1, err);
}

int bench_setup_fake_reserved(bench_input *in, size_t n_types, int limits, int64_t left,
			      kp_error *err)
{
	return setup_fake(in, n_types, limits, left < 0 ? 0 : left, err);
}

/* @p left < 0: no reserved offerings. */
static int setup_fake(bench_input *in, size_t n_types, int limits, int64_t left, kp_error *err)
{
	int rc;
	bench_arena *a = &in->arena;
	/* upstream fake's init(): v1.WellKnownLabels.Insert(size, special, integer) */
	if ((rc = kp_wellknown_new(&in->wk, err)) != KP_OK ||
	    (rc = kp_wellknown_add_label(in->wk, "size", err)) != KP_OK ||
	    (rc = kp_wellknown_add_label(in->wk, "special", err)) != KP_OK ||
	    (rc = kp_wellknown_add_label(in->wk, "integer", err)) != KP_OK)
		return rc;
	if (left >= 0 &&
	    (rc = kp_wellknown_add_label(in->wk, BENCH_RESERVATION_LABEL, err)) != KP_OK)
		return rc;
	if ((rc = kp_instance_types_new(&in->its, err)) != KP_OK)
		return rc;

	static const char *const cap_names[] = { KP_RESOURCE_CPU, KP_RESOURCE_MEMORY,
						 KP_RESOURCE_PODS };
	static const char *const kr_names[] = { KP_RESOURCE_CPU, KP_RESOURCE_MEMORY };
	static const char *const kr_texts[] = { "100m", "10Mi" };
	static const char *const arch[] = { KP_ARCH_AMD64 };
	/* sets.List(linux, windows, darwin) is sorted */
	static const char *const oses[] = { "darwin", KP_OS_LINUX, KP_OS_WINDOWS };
	static const char *const cts[] = { KP_CAPACITY_TYPE_SPOT, KP_CAPACITY_TYPE_ON_DEMAND,
					   KP_CAPACITY_TYPE_RESERVED };
	static const char *const small[] = { "small" };
	static const char *const large[] = { "large" };
	static const char *const optional[] = { "optional" };
	kp_resource_list kube_reserved = rlist(a, 2, kr_names, kr_texts);

	for (size_t i = 0; i < n_types; i++) {
		unsigned long long n = (unsigned long long)i + 1;
		char name[32], cpu[24], mem[32], pods[24];
		snprintf(name, sizeof(name), "fake-it-%zu", i);
		snprintf(cpu, sizeof(cpu), "%llu", n);
		snprintf(mem, sizeof(mem), "%lluGi", n * 2);
		snprintf(pods, sizeof(pods), "%llu", n * 10);
		const char *cap_texts[] = { cpu, mem, pods };
		kp_resource_list capacity = rlist(a, 3, cap_names, cap_texts);

		/* PriceFromResources: 0.1 per cpu + 0.1 per 1e9 bytes; pods
		 * add nothing. Every offering has the same price. */
		double mem_bytes = (double)(n * 2) * 1073741824.0;
		double price = 0.0;
		price += 0.1 * (double)n;
		price += 0.1 * mem_bytes / 1e9;

		/* spot in zones 1-2, on-demand in zones 1-3, all available; the
		 * reservation in zone 1 */
		kp_offering_spec offs[6];
		const kp_offering_spec *off_ptrs[6];
		static const struct { const char *ct, *zone; } offering_keys[5] = {
			{ KP_CAPACITY_TYPE_SPOT, "test-zone-1" },
			{ KP_CAPACITY_TYPE_SPOT, "test-zone-2" },
			{ KP_CAPACITY_TYPE_ON_DEMAND, "test-zone-1" },
			{ KP_CAPACITY_TYPE_ON_DEMAND, "test-zone-2" },
			{ KP_CAPACITY_TYPE_ON_DEMAND, "test-zone-3" },
		};
		for (size_t k = 0; k < 5; k++) {
			offs[k] = (kp_offering_spec)KP_OFFERING_SPEC_INIT;
			offs[k].available = 1;
			offs[k].capacity_type = offering_keys[k].ct;
			offs[k].zone = offering_keys[k].zone;
			offs[k].price = price;
			off_ptrs[k] = &offs[k];
		}
		char rid[40];
		snprintf(rid, sizeof(rid), "r-%s", name);
		const char *one_rid[] = { rid };
		kp_node_selector_requirement rid_req = KP_NODE_SELECTOR_REQUIREMENT_INIT;
		rid_req.key = BENCH_RESERVATION_LABEL;
		rid_req.op = KP_SELECTOR_OP_IN;
		rid_req.values = one_rid;
		rid_req.n_values = 1;
		const kp_node_selector_requirement *rid_ptr[] = { &rid_req };
		offs[5] = (kp_offering_spec)KP_OFFERING_SPEC_INIT;
		offs[5].available = 1;
		offs[5].capacity_type = KP_CAPACITY_TYPE_RESERVED;
		offs[5].zone = "test-zone-1";
		offs[5].price = price / 100000.0;
		offs[5].reservation_id = rid;
		offs[5].reservation_capacity = left;
		offs[5].requirements = rid_ptr;
		offs[5].n_requirements = 1;
		off_ptrs[5] = &offs[5];

		/* cpu > 4 and memory > 8Gi: size In [large], special In
		 * [optional]; else size In [small], special DoesNotExist */
		int is_large = n > 4 && n * 2 > 8;
		const char *one_name[] = { name }, *one_int[] = { cpu };
		struct {
			const char *key;
			uint32_t op;
			const char *const *values;
			size_t n;
		} r[] = {
			{ KP_LABEL_INSTANCE_TYPE, KP_SELECTOR_OP_IN, one_name, 1 },
			{ KP_LABEL_ARCH, KP_SELECTOR_OP_IN, arch, 1 },
			{ KP_LABEL_OS, KP_SELECTOR_OP_IN, oses, 3 },
			{ KP_LABEL_TOPOLOGY_ZONE, KP_SELECTOR_OP_IN, zones3, 3 },
			{ KP_LABEL_CAPACITY_TYPE, KP_SELECTOR_OP_IN, cts, left >= 0 ? 3 : 2 },
			{ "size", KP_SELECTOR_OP_IN, is_large ? large : small, 1 },
			{ "special", is_large ? KP_SELECTOR_OP_IN : KP_SELECTOR_OP_DOES_NOT_EXIST,
			  is_large ? optional : NULL, is_large ? 1 : 0 },
			{ "integer", KP_SELECTOR_OP_IN, one_int, 1 },
		};
		enum { NR = sizeof(r) / sizeof(r[0]) };
		kp_node_selector_requirement sels[NR];
		const kp_node_selector_requirement *sel_ptrs[NR];
		for (size_t k = 0; k < NR; k++) {
			sels[k] = (kp_node_selector_requirement)KP_NODE_SELECTOR_REQUIREMENT_INIT;
			sels[k].key = r[k].key;
			sels[k].op = r[k].op;
			sels[k].values = r[k].values;
			sels[k].n_values = r[k].n;
			sel_ptrs[k] = &sels[k];
		}

		kp_instance_type_spec spec = KP_INSTANCE_TYPE_SPEC_INIT;
		spec.name = name;
		spec.requirements = sel_ptrs;
		spec.n_requirements = NR;
		spec.capacity = &capacity;
		spec.kube_reserved = &kube_reserved;
		spec.offerings = off_ptrs;
		spec.n_offerings = left >= 0 ? 6 : 5;
		if ((rc = kp_instance_types_add(in->its, &spec, err)) != KP_OK)
			return rc;
	}

	/* upstream setupScheduler: limits cpu 10000000, memory 10000000Gi */
	static const char *const lim_names[] = { KP_RESOURCE_CPU, KP_RESOURCE_MEMORY };
	static const char *const lim_texts[] = { "10000000", "10000000Gi" };
	in->nodepool = nodepool(a, "default", "karpenter.test.sh", "TestNodeClass", NULL, 0,
				rlist(a, limits ? 2 : 0, lim_names, lim_texts));
	return kp_requirements_new(&in->np_reqs, err);
}

/* ------------------------------------------------------------------ */
/* K1: the KWOK performance suite's NodePool over the built-in types   */

/* Instance types the NodePool admits: requirements intersect, and an
 * available offering is compatible (upstream's filtering of a NodePool's
 * instance types). @p out has room for every type; returns the count. */
static size_t admitted_types(const bench_input *in, const kp_instance_type **out)
{
	size_t n = 0, m = 0;
	const kp_instance_type *const *items = kp_instance_types_items(in->its, &n);
	for (size_t i = 0; i < n; i++)
		if (kp_requirements_intersects(items[i]->requirements, in->np_reqs, NULL) == KP_OK)
			out[m++] = items[i];
	return kp_instance_types_filter_compatible(out, m, in->np_reqs, in->wk);
}

int bench_setup_kwok(bench_input *in, size_t *n_types, kp_error *err)
{
	int rc;
	bench_arena *a = &in->arena;
	if ((rc = kp_kwok_catalog_builtin(&in->its, err)) != KP_OK ||
	    (rc = kp_wellknown_new(&in->wk, err)) != KP_OK ||
	    (rc = kp_kwok_wellknown_add(in->wk, in->its, err)) != KP_OK)
		return rc;

	/* default_nodepool.yaml (os In [linux], capacity-type In [on-demand])
	 * with suite_test.go's ReplaceRequirements(instance-size Lt 32) and
	 * Limits{} */
	static const char *const linux_[] = { KP_OS_LINUX };
	static const char *const od[] = { KP_CAPACITY_TYPE_ON_DEMAND };
	static const char *const lt32[] = { "32" };
	kp_nodeclaim_requirement **reqs = bench_alloc(a, 3 * sizeof(*reqs));
	reqs[0] = ncreq(a, KP_LABEL_OS, KP_SELECTOR_OP_IN, linux_, 1);
	reqs[1] = ncreq(a, KP_LABEL_CAPACITY_TYPE, KP_SELECTOR_OP_IN, od, 1);
	reqs[2] = ncreq(a, KP_KWOK_LABEL_INSTANCE_SIZE, KP_SELECTOR_OP_LT, lt32, 1);
	kp_resource_list none = KP_RESOURCE_LIST_INIT;
	in->nodepool = nodepool(a, "default", KP_KWOK_GROUP, KP_KWOK_NODECLASS_KIND, reqs, 3, none);

	kp_node_selector_requirement sels[3];
	const kp_node_selector_requirement *sel_ptrs[3];
	for (size_t k = 0; k < 3; k++) {
		sels[k] = (kp_node_selector_requirement)KP_NODE_SELECTOR_REQUIREMENT_INIT;
		sels[k].key = reqs[k]->key;
		sels[k].op = reqs[k]->op;
		sels[k].values = reqs[k]->values;
		sels[k].n_values = reqs[k]->n_values;
		sel_ptrs[k] = &sels[k];
	}
	if ((rc = kp_requirements_from_selectors(&in->np_reqs, sel_ptrs, 3, in->wk, err)) != KP_OK)
		return rc;

	size_t total = kp_instance_types_count(in->its);
	const kp_instance_type **tmp = malloc((total ? total : 1) * sizeof(*tmp));
	if (!tmp)
		die_oom();
	*n_types = admitted_types(in, tmp);
	free(tmp);
	return KP_OK;
}

/* ------------------------------------------------------------------ */
/* Pods                                                                */

static void reserve_pods(bench_input *in, size_t extra)
{
	if (in->n_pods + extra <= in->cap_pods)
		return;
	size_t cap = in->n_pods + extra;
	kp_pod **p = realloc(in->pods, cap * sizeof(*p));
	if (!p)
		die_oom();
	in->pods = p;
	bench_request *r = realloc(in->reqs, cap * sizeof(*r));
	if (!r)
		die_oom();
	in->reqs = r;
	in->cap_pods = cap;
}

/* Everything one pending pod needs, allocated at once. */
struct pod_block {
	kp_pod pod;
	kp_object_meta meta;
	kp_pod_spec spec;
	kp_container container;
	kp_container *containers[1];
	kp_resource_requirements resources;
	kp_resource requests[2];
	char name[24];
};

static kp_pod_status *pending_status(bench_arena *a)
{
	kp_pod_status *st = bench_alloc(a, sizeof(*st));
	*st = (kp_pod_status)KP_POD_STATUS_INIT;
	st->phase = "Pending";
	st->phase_code = KP_POD_PHASE_PENDING;
	return st;
}

static void add_pod(bench_input *in, kp_pod_status *status, kp_labels labels,
		    const kp_quantity *cpu, const kp_quantity *mem,
		    kp_topology_spread_constraint **tsc, kp_affinity *affinity, int anti_hostname,
		    int zone_affinity)
{
	struct pod_block *b = bench_alloc(&in->arena, sizeof(*b));
	snprintf(b->name, sizeof(b->name), "pod-%07zu", in->n_pods);
	b->requests[0].name = KP_RESOURCE_CPU;
	b->requests[0].quantity = *cpu;
	b->requests[1].name = KP_RESOURCE_MEMORY;
	b->requests[1].quantity = *mem;
	b->resources = (kp_resource_requirements)KP_RESOURCE_REQUIREMENTS_INIT;
	b->resources.requests.items = b->requests;
	b->resources.requests.count = 2;
	b->container = (kp_container)KP_CONTAINER_INIT;
	b->container.name = "app";
	b->container.image = "registry.k8s.io/pause";
	b->container.resources = &b->resources;
	b->containers[0] = &b->container;
	b->spec = (kp_pod_spec)KP_POD_SPEC_INIT;
	b->spec.containers = b->containers;
	b->spec.n_containers = 1;
	b->spec.affinity = affinity;
	b->spec.topology_spread_constraints = tsc;
	b->spec.n_topology_spread_constraints = tsc ? 1 : 0;
	b->meta = (kp_object_meta)KP_OBJECT_META_INIT;
	b->meta.name = b->name;
	b->meta.namespace_ = "default";
	b->meta.labels = labels;
	b->pod = (kp_pod)KP_POD_INIT;
	b->pod.metadata = &b->meta;
	b->pod.spec = &b->spec;
	b->pod.status = status;

	reserve_pods(in, 1);
	bench_request *r = &in->reqs[in->n_pods];
	r->cpu_milli = qty_milli(cpu);
	r->mem_bytes = qty_value(mem);
	r->anti_hostname = (uint16_t)anti_hostname;
	r->zone_affinity = (uint16_t)zone_affinity;
	in->pods[in->n_pods++] = &b->pod;
}

enum { N_LABEL_VALUES = 7, N_CPU = 5, N_MEM = 6 };
static const char *const label_values[N_LABEL_VALUES] = { "a", "b", "c", "d", "e", "f", "g" };
static const char *const cpu_texts[N_CPU] = { "100m", "250m", "500m", "1000m", "1500m" };
static const char *const mem_texts[N_MEM] = { "100Mi", "256Mi", "512Mi", "1024Mi", "2048Mi",
					      "4096Mi" };

/* State shared by the pods of one makeDiversePods call. */
struct diverse {
	bench_input *in;
	bench_rng rng;
	kp_pod_status *status;
	kp_quantity cpu[N_CPU], mem[N_MEM];
	kp_labels my_label[N_LABEL_VALUES];      /* randomLabels() */
	kp_labels my_affinity[N_LABEL_VALUES];   /* randomAffinityLabels() */
	kp_topology_spread_constraint **spread_zone[N_LABEL_VALUES];
	kp_topology_spread_constraint **spread_host[N_LABEL_VALUES];
	kp_affinity *affinity_zone[N_LABEL_VALUES];
	kp_labels nginx;
	kp_affinity *anti_host;
};

/* randomCPU() then randomMemory(), in that order as upstream */
static void diverse_pod(struct diverse *d, kp_labels labels, kp_topology_spread_constraint **tsc,
			kp_affinity *affinity, int anti, int zone_affinity)
{
	size_t c = bench_rng_below(&d->rng, N_CPU);
	size_t m = bench_rng_below(&d->rng, N_MEM);
	add_pod(d->in, d->status, labels, &d->cpu[c], &d->mem[m], tsc, affinity, anti,
		zone_affinity);
}

static void generic_pods(struct diverse *d, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		kp_labels l = d->my_label[bench_rng_below(&d->rng, N_LABEL_VALUES)];
		diverse_pod(d, l, NULL, NULL, 0, 0);
	}
}

void bench_pods_diverse(bench_input *in, size_t count, uint64_t seed)
{
	bench_arena *a = &in->arena;
	struct diverse d;
	memset(&d, 0, sizeof(d));
	d.in = in;
	d.rng.state = seed;
	d.status = pending_status(a);
	for (size_t i = 0; i < N_CPU; i++)
		d.cpu[i] = qty(cpu_texts[i]);
	for (size_t i = 0; i < N_MEM; i++)
		d.mem[i] = qty(mem_texts[i]);
	for (size_t v = 0; v < N_LABEL_VALUES; v++) {
		d.my_label[v] = label1(a, "my-label", label_values[v]);
		/* upstream spells the key "my-affininity" */
		d.my_affinity[v] = label1(a, "my-affininity", label_values[v]);
		d.spread_zone[v] = spread1(a, KP_LABEL_TOPOLOGY_ZONE,
					   selector1(a, "my-label", label_values[v]));
		d.spread_host[v] = spread1(a, KP_LABEL_HOSTNAME,
					   selector1(a, "my-label", label_values[v]));
		d.affinity_zone[v] = affinity1(a, 0, KP_LABEL_TOPOLOGY_ZONE,
					       selector1(a, "my-affininity", label_values[v]));
	}
	d.nginx = label1(a, "app", "nginx");
	d.anti_host = affinity1(a, 1, KP_LABEL_HOSTNAME, selector1(a, "app", "nginx"));

	reserve_pods(in, count);
	size_t per = count / 5, start = in->n_pods;
	generic_pods(&d, per);
	/* makeTopologySpreadPods: the pod's labels and the constraint's
	 * selector are two independent randomLabels() draws */
	for (int k = 0; k < 2; k++)
		for (size_t i = 0; i < per; i++) {
			kp_labels l = d.my_label[bench_rng_below(&d.rng, N_LABEL_VALUES)];
			size_t sel = bench_rng_below(&d.rng, N_LABEL_VALUES);
			diverse_pod(&d, l, k == 0 ? d.spread_zone[sel] : d.spread_host[sel], NULL, 0,
				    0);
		}
	/* makePodAffinityPods(zone): self-affinity on the pod's own label */
	for (size_t i = 0; i < per; i++) {
		size_t v = bench_rng_below(&d.rng, N_LABEL_VALUES);
		diverse_pod(&d, d.my_affinity[v], NULL, d.affinity_zone[v], 0, (int)v + 1);
	}
	/* makePodAntiAffinityPods(hostname): all share app=nginx */
	for (size_t i = 0; i < per; i++)
		diverse_pod(&d, d.nginx, NULL, d.anti_host, 1, 0);
	generic_pods(&d, count - (in->n_pods - start));
}

void bench_pods_uniform(bench_input *in, size_t count, const char *app, const char *cpu,
			const char *memory, int zone_spread)
{
	bench_arena *a = &in->arena;
	kp_pod_status *status = pending_status(a);
	kp_quantity c = qty(cpu), m = qty(memory);
	kp_labels labels = label1(a, "app", app);
	kp_topology_spread_constraint **tsc =
		zone_spread ? spread1(a, KP_LABEL_TOPOLOGY_ZONE, selector1(a, "app", app)) : NULL;
	reserve_pods(in, count);
	for (size_t i = 0; i < count; i++)
		add_pod(in, status, labels, &c, &m, tsc, NULL, 0, 0);
}

/* ------------------------------------------------------------------ */
/* Existing nodes                                                      */

enum { NODE_LABELS = 7 };

struct node_block {
	kp_node node;
	kp_object_meta meta;
	kp_node_spec spec;
	kp_node_status status;
	kp_label labels[NODE_LABELS];
	char name[24];
	char provider_id[40];
};

void bench_nodes_existing(bench_input *in, size_t count, const char *cpu, const char *memory,
			  const char *pods, size_t n_zones)
{
	bench_arena *a = &in->arena;
	static const char *const names[] = { KP_RESOURCE_CPU, KP_RESOURCE_MEMORY, KP_RESOURCE_PODS };
	const char *texts[] = { cpu, memory, pods };
	kp_resource_list res = rlist(a, 3, names, texts);
	kp_condition *ready = bench_alloc(a, sizeof(*ready));
	*ready = (kp_condition)KP_CONDITION_INIT;
	ready->type = "Ready";
	ready->status = "True";
	ready->reason = "KubeletReady";
	kp_condition **conds = bench_alloc(a, sizeof(*conds));
	conds[0] = ready;
	const char **zones = bench_alloc(a, n_zones * sizeof(*zones));
	for (size_t z = 0; z < n_zones; z++) {
		char buf[32];
		snprintf(buf, sizeof(buf), "test-zone-%zu", z + 1);
		zones[z] = bench_strdup(a, buf);
	}

	kp_node **nodes = realloc(in->nodes, (in->n_nodes + count) * sizeof(*nodes));
	if (!nodes)
		die_oom();
	in->nodes = nodes;
	for (size_t i = 0; i < count; i++) {
		struct node_block *b = bench_alloc(a, sizeof(*b));
		snprintf(b->name, sizeof(b->name), "node-%05zu", in->n_nodes);
		snprintf(b->provider_id, sizeof(b->provider_id), "bench:///%s", b->name);
		/* Not owned by a NodeClaim: upstream treats such a node as
		 * registered and initialized; the labels say so as well. */
		const kp_label l[NODE_LABELS] = {
			{ KP_LABEL_ARCH, KP_ARCH_AMD64 },
			{ KP_LABEL_HOSTNAME, b->name },
			{ KP_LABEL_OS, KP_OS_LINUX },
			{ KP_LABEL_NODE_INITIALIZED, "true" },
			{ KP_LABEL_NODE_REGISTERED, "true" },
			{ KP_LABEL_INSTANCE_TYPE, "existing-4cpu-32gi" },
			{ KP_LABEL_TOPOLOGY_ZONE, zones[i % n_zones] },
		};
		memcpy(b->labels, l, sizeof(l));
		b->meta = (kp_object_meta)KP_OBJECT_META_INIT;
		b->meta.name = b->name;
		b->meta.labels.items = b->labels;
		b->meta.labels.count = NODE_LABELS;
		b->spec = (kp_node_spec)KP_NODE_SPEC_INIT;
		b->spec.provider_id = b->provider_id;
		b->status = (kp_node_status)KP_NODE_STATUS_INIT;
		b->status.capacity = res;
		b->status.allocatable = res;
		b->status.conditions = conds;
		b->status.n_conditions = 1;
		b->node = (kp_node)KP_NODE_INIT;
		b->node.metadata = &b->meta;
		b->node.spec = &b->spec;
		b->node.status = &b->status;
		in->nodes[in->n_nodes++] = &b->node;
		in->existing_cpu_milli += qty_milli(&res.items[0].quantity);
		in->existing_mem_bytes += qty_value(&res.items[1].quantity);
		in->existing_pods += qty_value(&res.items[2].quantity);
	}
}

/* ------------------------------------------------------------------ */
/* Lower bound                                                         */

struct type_cap {
	double cpu, mem, pods, price; /* cores, GiB, slots, $/h */
};

static double dmax(double a, double b)
{
	return a > b ? a : b;
}

/*
 * max yc*Dc + ym*Dm  s.t.  yc*cpu_t + ym*mem_t <= price_t for every t,
 * yc, ym >= 0. Two variables: the optimum is a vertex, so try the two axis
 * points and every pairwise intersection that is feasible. The best y is
 * then scaled down by its worst constraint ratio so that it is feasible
 * whatever the rounding, which keeps the bound valid.
 */
static double dual_bound(const struct type_cap *t, size_t n, double dc, double dm)
{
	if (n == 0 || (dc <= 0 && dm <= 0))
		return 0.0;
	double best = 0.0, byc = 0.0, bym = 0.0;
	double yc_axis = DBL_MAX, ym_axis = DBL_MAX;
	for (size_t i = 0; i < n; i++) {
		yc_axis = t[i].price / t[i].cpu < yc_axis ? t[i].price / t[i].cpu : yc_axis;
		ym_axis = t[i].price / t[i].mem < ym_axis ? t[i].price / t[i].mem : ym_axis;
	}
	if (yc_axis * dc > best) {
		best = yc_axis * dc;
		byc = yc_axis;
		bym = 0;
	}
	if (ym_axis * dm > best) {
		best = ym_axis * dm;
		byc = 0;
		bym = ym_axis;
	}
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++) {
			double det = t[i].cpu * t[j].mem - t[j].cpu * t[i].mem;
			if (det == 0.0)
				continue;
			double yc = (t[i].price * t[j].mem - t[j].price * t[i].mem) / det;
			double ym = (t[i].cpu * t[j].price - t[j].cpu * t[i].price) / det;
			if (yc < 0 || ym < 0)
				continue;
			double v = yc * dc + ym * dm;
			if (v <= best)
				continue;
			int ok = 1;
			for (size_t k = 0; k < n && ok; k++)
				ok = yc * t[k].cpu + ym * t[k].mem <= t[k].price * (1 + 1e-9);
			if (ok) {
				best = v;
				byc = yc;
				bym = ym;
			}
		}
	double worst = 1.0;
	for (size_t k = 0; k < n; k++) {
		double lhs = byc * t[k].cpu + bym * t[k].mem;
		if (lhs > t[k].price)
			worst = dmax(worst, lhs / t[k].price);
	}
	return (byc * dc + bym * dm) / worst;
}

int bench_lower_bound(bench_bound *out, const bench_input *in, kp_error *err)
{
	memset(out, 0, sizeof(*out));
	size_t total = kp_instance_types_count(in->its);
	const kp_instance_type **its = malloc((total ? total : 1) * sizeof(*its));
	struct type_cap *caps = malloc((total ? total : 1) * sizeof(*caps));
	if (!its || !caps)
		die_oom();
	size_t n = admitted_types(in, its), m = 0;
	out->n_types = n;
	for (size_t i = 0; i < n; i++) {
		const kp_offering *o = kp_instance_type_cheapest_offering(its[i], in->np_reqs, in->wk);
		kp_quantity qc, qm, qp;
		kp_resources_get(&qc, its[i]->allocatable, KP_RESOURCE_CPU, NULL);
		kp_resources_get(&qm, its[i]->allocatable, KP_RESOURCE_MEMORY, NULL);
		kp_resources_get(&qp, its[i]->allocatable, KP_RESOURCE_PODS, NULL);
		struct type_cap c = { (double)qty_milli(&qc) / 1000.0,
				      (double)qty_value(&qm) / 1073741824.0, (double)qty_value(&qp),
				      o ? o->price : DBL_MAX };
		/* every pod requests cpu and memory and takes a slot: a type
		 * without all three can host none of them */
		if (o && c.cpu > 0 && c.mem > 0 && c.pods >= 1)
			caps[m++] = c;
	}

	double dc = 0, dm = 0, dp = (double)in->n_pods;
	for (size_t i = 0; i < in->n_pods; i++) {
		dc += (double)in->reqs[i].cpu_milli / 1000.0;
		dm += (double)in->reqs[i].mem_bytes / 1073741824.0;
	}
	/* capacity of existing nodes is free: only the rest needs new nodes */
	dc = dmax(0, dc - (double)in->existing_cpu_milli / 1000.0);
	dm = dmax(0, dm - (double)in->existing_mem_bytes / 1073741824.0);
	dp = dmax(0, dp - (double)in->existing_pods);

	out->resources = dual_bound(caps, m, dc, dm);
	double per_pod = DBL_MAX;
	for (size_t i = 0; i < m; i++)
		if (caps[i].price / caps[i].pods < per_pod)
			per_pod = caps[i].price / caps[i].pods;
	out->pods = m && dp > 0 ? dp * per_pod : 0.0;
	/* Pods with hostname anti-affinity on one shared label need a node
	 * each; with no existing node, each such node costs at least the
	 * cheapest type that fits that pod alone. */
	if (in->n_nodes == 0)
		for (size_t i = 0; i < in->n_pods; i++) {
			if (!in->reqs[i].anti_hostname)
				continue;
			double cpu = (double)in->reqs[i].cpu_milli / 1000.0;
			double mem = (double)in->reqs[i].mem_bytes / 1073741824.0;
			double cheapest = DBL_MAX;
			for (size_t k = 0; k < m; k++)
				if (caps[k].cpu >= cpu && caps[k].mem >= mem && caps[k].price < cheapest)
					cheapest = caps[k].price;
			if (cheapest < DBL_MAX)
				out->anti += cheapest;
		}
	out->value = dmax(out->resources, dmax(out->pods, out->anti));
	free(its);
	free(caps);
	(void)err;
	return KP_OK;
}
