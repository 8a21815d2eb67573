/*
 * Scheduling simulation: the end of a simulation (upstream
 * FinalizeScheduling, Results.TruncateInstanceTypes, NodeClaimTemplate
 * ToNodeClaim), the reasons of unplaced pods, and the result accessors.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <karpenter/hash.h>

#include "sched_private.h"

struct kp_sched_result {
	sc_arena arena;
	kp_sched_placement *pl;
	uint32_t *pl_pod, *pl_node; /* per placement: snapshot pod, node placed on (sched_index.h) */
	size_t n_pl;
	kp_sched_nodeclaim *ncs;
	size_t n_ncs;
	double cost;
};

/* ------------------------------------------------------------------ */
/* Finalize                                                            */

struct price_key {
	uint32_t idx;
	double price;
	const char *name;
	size_t pos;
};

static int price_cmp(const void *a, const void *b)
{
	const struct price_key *x = a, *y = b;
	if (x->price != y->price)
		return x->price < y->price ? -1 : 1;
	int s = strcmp(x->name, y->name);
	if (s)
		return s;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/* Instance types of a catalogue ordered by the price of their cheapest
 * available offering in the allowed (zone, capacity type) pairs, ties by
 * name then catalogue position; computed once per pair set (catalogues
 * with standard offerings only). */
struct sc_price_order {
	const sc_catalog *cat;
	uint64_t allowed;
	uint32_t *order;     /* catalogue indices */
	double *price;       /* per catalogue index */
	int32_t *cheapest;   /* per catalogue index: offering or -1 */
};

static const struct sc_price_order *price_order(sc_sim *s, const sc_catalog *cat, uint64_t allowed)
{
	for (size_t i = 0; i < s->n_porders; i++)
		if (s->porders[i].cat == cat && s->porders[i].allowed == allowed)
			return &s->porders[i];
	if (kp__grow((void **)&s->porders, &s->cap_porders, s->n_porders + 1,
		     sizeof(*s->porders)) != KP_OK)
		return NULL;
	struct sc_price_order *po = &s->porders[s->n_porders];
	memset(po, 0, sizeof(*po));
	po->cat = cat;
	po->allowed = allowed;
	po->order = kp__malloc((cat->n + 1) * sizeof(uint32_t));
	po->price = kp__malloc((cat->n + 1) * sizeof(double));
	po->cheapest = kp__malloc((cat->n + 1) * sizeof(int32_t));
	struct price_key *keys = kp__calloc(cat->n + 1, sizeof(*keys));
	if (!po->order || !po->price || !po->cheapest || !keys) {
		kp__free(po->order);
		kp__free(po->price);
		kp__free(po->cheapest);
		kp__free(keys);
		return NULL;
	}
	for (size_t i = 0; i < cat->n; i++) {
		const kp_instance_type *it = cat->items[i].it;
		int o = kp__cat_cheapest(s->c, cat, i, allowed, NULL);
		po->cheapest[i] = o;
		po->price[i] = o >= 0 ? it->offerings[o]->price : DBL_MAX;
		keys[i].idx = (uint32_t)i;
		keys[i].price = po->price[i];
		keys[i].name = it->name;
		keys[i].pos = i;
	}
	qsort(keys, cat->n, sizeof(*keys), price_cmp);
	for (size_t i = 0; i < cat->n; i++)
		po->order[i] = keys[i].idx;
	kp__free(keys);
	s->n_porders++;
	return po;
}

void kp__sched_porders_free(sc_sim *s)
{
	for (size_t i = 0; i < s->n_porders; i++) {
		kp__free(s->porders[i].order);
		kp__free(s->porders[i].price);
		kp__free(s->porders[i].cheapest);
	}
	kp__free(s->porders);
	s->porders = NULL;
	s->n_porders = 0;
}

/* Remove one key from a set (a copy without it). */
static int without_key(kp_requirements **set, const char *key)
{
	if (!kp_requirements_has(*set, key))
		return KP_OK;
	kp_requirements *n = NULL;
	if (kp_requirements_new(&n, NULL) != KP_OK)
		return KP_ENOMEM;
	size_t cnt = kp_requirements_count(*set);
	for (size_t i = 0; i < cnt; i++) {
		kp_requirement *r = kp_requirements_at(*set, i);
		if (strcmp(kp_requirement_key(r), key) == 0)
			continue;
		if (kp_requirements_add(n, r, NULL) != KP_OK) {
			kp_requirements_free(n);
			return KP_ENOMEM;
		}
	}
	kp_requirements_free(*set);
	*set = n;
	return KP_OK;
}

/* Minimum daemon overhead over the groups that still have an instance
 * type (upstream addDaemonRequests; a group without daemons counts as no
 * overhead, and a resource missing from a group as zero). */
static void min_overhead(const struct kp_cluster *c, const sc_pool *p, const sc_nc *nc,
			 int64_t *out)
{
	int first = 1;
	for (size_t g = 0; g < p->n_groups; g++) {
		int has = 0;
		for (size_t i = 0; i < nc->n_its && !has; i++)
			has = p->it_group[nc->its[i]] == g;
		if (!has)
			continue;
		const int64_t *o = p->groups[g].overhead;
		for (size_t r = 0; r < c->n_res; r++) {
			int64_t v = o ? o[r] : 0;
			if (first || v < out[r])
				out[r] = v;
		}
		first = 0;
	}
	if (first)
		memset(out, 0, c->n_res * sizeof(int64_t));
}

int kp__sched_finalize(sc_sim *s)
{
	const struct kp_cluster *c = s->c;
	for (size_t k = 0; k < s->n_ncs; k++) {
		sc_nc *nc = s->ncs[k];
		const sc_pool *p = &c->pools[nc->pool];
		if (without_key(&nc->reqs, KP_LABEL_HOSTNAME) != KP_OK)
			return KP_ENOMEM;
		/* reserved offerings held: capacity type reserved (replacing the
		 * requirement) and the reservation IDs (upstream FinalizeScheduling) */
		if (nc->n_resv && (without_key(&nc->reqs, KP_LABEL_CAPACITY_TYPE) != KP_OK ||
				   kp__resv_finalize(c, nc, nc->reqs) != KP_OK))
			return KP_ENOMEM;
		int64_t *ovh = kp__calloc(c->n_res + 1, sizeof(int64_t));
		if (!ovh)
			return KP_ENOMEM;
		min_overhead(c, p, nc, ovh);
		for (size_t r = 0; r < c->n_res; r++)
			nc->requests[r] = kp__sat_add(nc->requests[r], ovh[r]);
		kp__free(ovh);
		/* order by price, truncate */
		uint64_t allowed = kp__cat_allowed_pairs(p->cat, nc->reqs);
		if (p->cat->all_std && p->cat->pairs_ok) {
			const struct sc_price_order *po = price_order(s, p->cat, allowed);
			uint8_t *in = kp__calloc(p->cat->n + 1, 1);
			if (!po || !in) {
				kp__free(in);
				return KP_ENOMEM;
			}
			for (size_t i = 0; i < nc->n_its; i++)
				in[nc->its[i]] = 1;
			size_t keep = nc->n_its < s->max_its ? nc->n_its : s->max_its;
			nc->final_its = kp__calloc(keep + 1, sizeof(uint32_t));
			if (!nc->final_its) {
				kp__free(in);
				return KP_ENOMEM;
			}
			for (size_t i = 0; i < p->cat->n && nc->n_opts_final < keep; i++)
				if (in[po->order[i]])
					nc->final_its[nc->n_opts_final++] = po->order[i];
			kp__free(in);
			goto min_values;
		}
		struct price_key *keys = kp__calloc(nc->n_its + 1, sizeof(*keys));
		if (!keys)
			return KP_ENOMEM;
		for (size_t i = 0; i < nc->n_its; i++) {
			const kp_instance_type *it = p->cat->items[nc->its[i]].it;
			int o = kp__cat_cheapest(c, p->cat, nc->its[i], allowed, nc->reqs);
			keys[i].idx = nc->its[i];
			keys[i].price = o >= 0 ? it->offerings[o]->price : DBL_MAX;
			keys[i].name = it->name;
			keys[i].pos = i;
		}
		qsort(keys, nc->n_its, sizeof(*keys), price_cmp);
		size_t keep = nc->n_its < s->max_its ? nc->n_its : s->max_its;
		nc->final_its = kp__calloc(keep + 1, sizeof(uint32_t));
		if (!nc->final_its) {
			kp__free(keys);
			return KP_ENOMEM;
		}
		for (size_t i = 0; i < keep; i++)
			nc->final_its[i] = keys[i].idx;
		nc->n_opts_final = keep;
		kp__free(keys);
min_values:
		if (!s->min_values_best_effort && kp_requirements_has_min_values(nc->reqs)) {
			const kp_instance_type **ptrs = kp__calloc(nc->n_opts_final + 1, sizeof(*ptrs));
			if (!ptrs)
				return KP_ENOMEM;
			size_t nf = nc->n_opts_final;
			for (size_t i = 0; i < nf; i++)
				ptrs[i] = p->cat->items[nc->final_its[i]].it;
			int rc = kp_instance_types_satisfies_min_values(NULL, ptrs, nf, nc->reqs, NULL);
			kp__free(ptrs);
			if (rc == KP_ENOMEM)
				return rc;
			if (rc != KP_OK)
				nc->dropped = 1;
		}
	}
	return KP_OK;
}

/* ------------------------------------------------------------------ */
/* NodeClaim objects (upstream ToNodeClaim)                            */

static int put_label(kp_labels *l, const char *k, const char *v)
{
	return kp_labels_set(l, k, v ? v : "", NULL);
}

static int is_simulation_key(const char *key)
{
	return strcmp(key, KP_LABEL_NODE_REGISTERED) == 0 ||
	       strcmp(key, KP_LABEL_NODE_INITIALIZED) == 0;
}

static int cmp_sel(const void *a, const void *b)
{
	const kp_nodeclaim_requirement *x = *(const kp_nodeclaim_requirement *const *)a;
	const kp_nodeclaim_requirement *y = *(const kp_nodeclaim_requirement *const *)b;
	int k = strcmp(x->key, y->key);
	if (k)
		return k;
	return x->op < y->op ? -1 : x->op > y->op; /* Gte before Lte */
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static kp_nodeclaim_requirement *sel_new(sc_arena *a, const char *key, uint32_t op,
					 const char *const *values, size_t n, int32_t min_values)
{
	kp_nodeclaim_requirement *r = kp__arena_alloc(a, sizeof(*r));
	if (!r)
		return NULL;
	r->struct_size = sizeof(*r);
	r->op = op;
	r->key = key;
	r->operator_name = kp_selector_op_name(op);
	r->values = values;
	r->n_values = n;
	if (min_values) {
		r->has_min_values = 1;
		r->min_values = min_values;
	}
	return r;
}

/* A selector whose strings belong to a requirement of the simulation:
 * copied, since the result outlives the simulation. */
static kp_nodeclaim_requirement *sel_copy(sc_arena *a, const kp_node_selector_requirement *sel)
{
	const char **vals = kp__arena_alloc(a, (sel->n_values + 1) * sizeof(char *));
	const char *key = kp__arena_strdup(a, sel->key);
	if (!vals || !key)
		return NULL;
	for (size_t i = 0; i < sel->n_values; i++)
		if (!(vals[i] = kp__arena_strdup(a, sel->values[i])))
			return NULL;
	return sel_new(a, key, sel->op, vals, sel->n_values, sel->min_values);
}

/*
 * The NodeClaim's requirements (upstream ToNodeClaim): its requirements
 * without the simulation keys, plus "instance-type In [options]" and
 * "capacity-type In [capacity types of their compatible offerings]". The
 * options and capacity types are compatible with the requirements, so
 * intersecting them with the existing keys gives them back, with the
 * existing minValues.
 */
static int build_requirements(const struct kp_cluster *c, const sc_pool *p, const sc_nc *nc,
			      sc_arena *a, kp_nodeclaim_requirement ***out, size_t *n_out)
{
	kp_requirements *reqs = nc->reqs;
	size_t nr = kp_requirements_count(reqs);
	kp_nodeclaim_requirement **sels = kp__arena_alloc(a, (2 * nr + 3) * sizeof(*sels));
	if (!sels)
		return KP_ENOMEM;
	size_t k = 0;
	kp_requirement *it_req = NULL, *ct_req = NULL;
	for (size_t i = 0; i < nr; i++) {
		kp_requirement *r = kp_requirements_at(reqs, i);
		const char *key = kp_requirement_key(r);
		if (is_simulation_key(key))
			continue;
		if (strcmp(key, KP_LABEL_INSTANCE_TYPE) == 0) {
			it_req = r;
			continue;
		}
		if (strcmp(key, KP_LABEL_CAPACITY_TYPE) == 0) {
			ct_req = r;
			continue;
		}
		size_t cnt = kp_requirement_selector_count(r);
		for (size_t j = 0; j < cnt; j++) {
			kp_node_selector_requirement sel = KP_NODE_SELECTOR_REQUIREMENT_INIT;
			if (kp_requirement_selector(r, j, &sel, NULL) != KP_OK ||
			    !(sels[k++] = sel_copy(a, &sel)))
				return KP_ENOMEM;
		}
	}
	/* instance types, in name order, as upstream writes a set */
	const char **names = kp__arena_alloc(a, (nc->n_opts_final + 1) * sizeof(char *));
	uint8_t *in = kp__calloc(p->cat->n + 1, 1);
	if (!names || !in) {
		kp__free(in);
		return KP_ENOMEM;
	}
	for (size_t i = 0; i < nc->n_opts_final; i++)
		in[nc->final_its[i]] = 1;
	size_t nn = 0;
	for (size_t i = 0; i < p->cat->n; i++)
		if (in[p->cat->by_name[i]])
			names[nn++] = p->cat->items[p->cat->by_name[i]].it->name;
	kp__free(in);
	if (!(sels[k++] = sel_new(a, KP_LABEL_INSTANCE_TYPE, KP_SELECTOR_OP_IN, names, nn,
				  it_req ? kp_requirement_min_values(it_req) : 0)))
		return KP_ENOMEM;
	/* capacity types of the options' compatible offerings */
	uint64_t allowed = kp__cat_allowed_pairs(p->cat, reqs);
	const char **cts = kp__arena_alloc(a, 16 * sizeof(char *));
	size_t n_cts = 0;
	if (!cts)
		return KP_ENOMEM;
	uint64_t pairs = 0;
	for (size_t i = 0; i < nc->n_opts_final; i++) {
		uint32_t idx = nc->final_its[i];
		const kp_instance_type *it = p->cat->items[idx].it;
		uint64_t m = p->cat->std_mask[idx] & allowed;
		if (!(m & ~pairs) && !p->cat->nonstd[idx])
			continue;
		pairs |= m;
		for (size_t o = 0; o < it->n_offerings; o++) {
			const kp_offering *of = it->offerings[o];
			if (!kp__cat_offering_ok(c, p->cat, idx, o, allowed, reqs))
				continue;
			size_t q = 0;
			while (q < n_cts && strcmp(cts[q], of->capacity_type) != 0)
				q++;
			if (q == n_cts && n_cts < 16)
				cts[n_cts++] = of->capacity_type;
		}
	}
	if (n_cts) {
		qsort(cts, n_cts, sizeof(*cts), cmp_str);
		if (!(sels[k++] = sel_new(a, KP_LABEL_CAPACITY_TYPE, KP_SELECTOR_OP_IN, cts, n_cts,
					  ct_req ? kp_requirement_min_values(ct_req) : 0)))
			return KP_ENOMEM;
	} else if (ct_req) {
		kp_node_selector_requirement sel = KP_NODE_SELECTOR_REQUIREMENT_INIT;
		if (kp_requirement_selector(ct_req, 0, &sel, NULL) != KP_OK ||
		    !(sels[k++] = sel_copy(a, &sel)))
			return KP_ENOMEM;
	}
	qsort(sels, k, sizeof(*sels), cmp_sel);
	*out = sels;
	*n_out = k;
	return KP_OK;
}

/* A library-filled label map copied into the arena. */
static int labels_to_arena(sc_arena *a, const kp_labels *src, kp_labels *dst)
{
	dst->count = src->count;
	dst->items = kp__arena_alloc(a, (src->count + 1) * sizeof(kp_label));
	if (!dst->items)
		return KP_ENOMEM;
	for (size_t i = 0; i < src->count; i++) {
		dst->items[i].key = kp__arena_strdup(a, src->items[i].key);
		dst->items[i].value = kp__arena_strdup(a, src->items[i].value);
		if (!dst->items[i].key || !dst->items[i].value)
			return KP_ENOMEM;
	}
	return KP_OK;
}

/* Build the NodeClaim in the result's arena (strings borrowed from the
 * snapshot), as upstream's ToNodeClaim. */
/* The name of the next new NodeClaim of @p pool: "<pool>-NNNNN" with the
 * next number (counted over all pools, from 1) whose name no Node or
 * NodeClaim of the input and no earlier new NodeClaim has (upstream's
 * generateName never collides). */
static const char *next_name(const struct kp_cluster *c, const sc_pool *pool, size_t *seq,
			     kp__map *generated, sc_arena *a)
{
	for (;;) {
		char *name = kp__arena_printf(a, "%s-%05zu", pool->name, ++*seq);
		if (!name)
			return NULL;
		uint32_t v;
		if (kp__map_gets(&c->taken_names, name, &v) || kp__map_gets(generated, name, &v))
			continue;
		if (kp__map_put(generated, name, strlen(name), 0, NULL, NULL) != KP_OK)
			return NULL;
		return name;
	}
}

static int materialize(sc_sim *s, const sc_nc *nc, size_t *seq, kp__map *generated, sc_arena *a,
		       const kp_nodeclaim **out, const char **name_out)
{
	const struct kp_cluster *c = s->c;
	const sc_pool *p = &c->pools[nc->pool];
	const kp_nodepool *np = p->np;
	const kp_nodeclaim_template *t = np->spec ? np->spec->template_ : NULL;
	const kp_nodeclaim_spec *ts = t ? t->spec : NULL;
	int rc = KP_ENOMEM;
	kp_labels labels = KP_LABELS_INIT, annotations = KP_LABELS_INIT;
	kp_nodeclaim_requirement **sels = NULL;
	size_t n_sels = 0;
	if (build_requirements(c, p, nc, a, &sels, &n_sels) != KP_OK)
		return KP_ENOMEM;
	if (t && t->metadata) {
		if (kp_labels_copy(&labels, &t->metadata->labels, NULL) != KP_OK ||
		    kp_labels_copy(&annotations, &t->metadata->annotations, NULL) != KP_OK)
			goto done;
	}
	if (put_label(&annotations, KP_ANNOTATION_NODEPOOL_HASH, p->hash) != KP_OK ||
	    put_label(&annotations, KP_ANNOTATION_NODEPOOL_HASH_VERSION, KP_NODEPOOL_HASH_VERSION) !=
		    KP_OK ||
	    put_label(&annotations, KP_ANNOTATION_NODECLAIM_MIN_VALUES_RELAXED,
		      nc->min_values_relaxed ? "true" : "false") != KP_OK)
		goto done;
	if (put_label(&labels, KP_LABEL_NODEPOOL, p->name) != KP_OK)
		goto done;
	if (p->nodeclass_label_key &&
	    put_label(&labels, p->nodeclass_label_key,
		      ts && ts->node_class_ref ? ts->node_class_ref->name : "") != KP_OK)
		goto done;
	/* concrete values of custom labels (upstream resolveCustomLabelsFromRequirements) */
	size_t nr = kp_requirements_count(nc->reqs);
	for (size_t i = 0; i < nr; i++) {
		kp_requirement *r = kp_requirements_at(nc->reqs, i);
		const char *key = kp_requirement_key(r);
		if (kp_wellknown_has(c->wk, key) || kp_wellknown_is_restricted_label(key) ||
		    is_simulation_key(key))
			continue;
		char small[256]; /* a first try: a longer value is fetched again at full length */
		char *val = small;
		size_t len = kp_requirement_any(r, small, sizeof(small));
		if (!len)
			continue;
		if (len >= sizeof(small)) {
			if (!(val = kp__malloc(len + 1)))
				goto done;
			kp_requirement_any(r, val, len + 1);
		}
		int prc = put_label(&labels, key, val);
		if (val != small)
			kp__free(val);
		if (prc != KP_OK)
			goto done;
	}
	kp_object_meta *meta = kp__arena_alloc(a, sizeof(*meta));
	kp_owner_reference *owner = kp__arena_alloc(a, sizeof(*owner));
	kp_owner_reference **owners = kp__arena_alloc(a, sizeof(*owners));
	kp_nodeclaim_resources *res = kp__arena_alloc(a, sizeof(*res));
	kp_nodeclaim_spec *spec = kp__arena_alloc(a, sizeof(*spec));
	kp_nodeclaim *obj = kp__arena_alloc(a, sizeof(*obj));
	if (!meta || !owner || !owners || !res || !spec || !obj)
		goto done;
	kp_owner_reference oinit = KP_OWNER_REFERENCE_INIT;
	*owner = oinit;
	owner->api_version = "karpenter.sh/v1";
	owner->kind = "NodePool";
	owner->name = p->name;
	owner->uid = np->metadata ? np->metadata->uid : NULL;
	owner->has_block_owner_deletion = 1;
	owner->block_owner_deletion = 1;
	owners[0] = owner;
	kp_object_meta minit = KP_OBJECT_META_INIT;
	*meta = minit;
	meta->name = next_name(c, p, seq, generated, a);
	meta->generate_name = kp__arena_printf(a, "%s-", p->name);
	if (!meta->name || !meta->generate_name || labels_to_arena(a, &labels, &meta->labels) ||
	    labels_to_arena(a, &annotations, &meta->annotations))
		goto done;
	meta->owner_references = owners;
	meta->n_owner_references = 1;
	/* requests with the formats the pods used, in name order */
	kp_nodeclaim_resources rinit = KP_NODECLAIM_RESOURCES_INIT;
	*res = rinit;
	size_t n_req = 0;
	for (size_t r = 0; r < c->n_res; r++)
		n_req += nc->requests[r] != 0;
	res->requests.items = kp__arena_alloc(a, (n_req + 1) * sizeof(kp_resource));
	if (!res->requests.items)
		goto done;
	for (size_t r = 0; r < c->n_res; r++) {
		if (!nc->requests[r])
			continue;
		uint32_t fmt = r < c->cap_res_fmt && c->res_fmt[r] != UINT32_MAX
				       ? c->res_fmt[r] : KP_QUANTITY_DECIMAL_SI;
		kp_resource *e = &res->requests.items[res->requests.count++];
		e->name = c->res.strs[r];
		if (r == SC_RES_PODS)
			kp_quantity_from_scaled(&e->quantity, nc->requests[r] / 1000, 0,
						KP_QUANTITY_DECIMAL_SI);
		else
			kp_quantity_from_scaled(&e->quantity, nc->requests[r],
						kp__res_exponent(c->res.strs[r]), fmt);
	}
	/* sorted by name, as a library-filled list */
	for (size_t i = 1; i < res->requests.count; i++) {
		kp_resource x = res->requests.items[i];
		size_t j = i;
		while (j > 0 && strcmp(res->requests.items[j - 1].name, x.name) > 0) {
			res->requests.items[j] = res->requests.items[j - 1];
			j--;
		}
		res->requests.items[j] = x;
	}
	kp_nodeclaim_spec sinit = KP_NODECLAIM_SPEC_INIT;
	*spec = sinit;
	if (ts) {
		spec->taints = ts->taints;
		spec->n_taints = ts->n_taints;
		spec->startup_taints = ts->startup_taints;
		spec->n_startup_taints = ts->n_startup_taints;
		spec->node_class_ref = ts->node_class_ref;
		spec->termination_grace_period = ts->termination_grace_period;
		spec->expire_after = ts->expire_after;
	}
	spec->requirements = sels;
	spec->n_requirements = n_sels;
	spec->resources = res;
	kp_nodeclaim oi = KP_NODECLAIM_INIT;
	*obj = oi;
	obj->metadata = meta;
	obj->spec = spec;
	*out = obj;
	*name_out = meta->name;
	rc = KP_OK;
done:
	kp_labels_dispose(&labels);
	kp_labels_dispose(&annotations);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Reasons                                                             */

struct reasons {
	kp_sched_reason **items;
	size_t n, cap;
};

static int add_reason(kp_sched_result *res, struct reasons *rs, uint32_t code, const char *pool,
		      const char *node, const char *field, const char *msg)
{
	kp_sched_reason *r = kp__arena_alloc(&res->arena, sizeof(*r));
	if (!r || kp__grow((void **)&rs->items, &rs->cap, rs->n + 1, sizeof(*rs->items)) != KP_OK)
		return KP_ENOMEM;
	r->struct_size = sizeof(*r);
	r->code = code;
	r->nodepool = pool;
	r->node = node;
	r->field = field && field[0] ? kp__arena_strdup(&res->arena, field) : NULL;
	r->message = kp__arena_strdup(&res->arena, msg ? msg : "");
	rs->items[rs->n++] = r;
	return KP_OK;
}

/* Why a pod cannot go anywhere, against the final state of the simulation
 * (which is the state of its last attempt: the loop stops only after a
 * full pass that placed nothing). Its most relaxed variant is used. */
static int diagnose(sc_sim *s, kp_sched_result *res, uint32_t pod, struct reasons *rs)
{
	const struct kp_cluster *c = s->c;
	const sc_pod *p = &c->pods[pod];
	const sc_class *cls = &c->classes[p->cls];
	if ((p->state & SC_POD_PENDING) && cls->bad)
		return add_reason(res, rs, KP_REASON_NOT_PROVISIONABLE, NULL, NULL, cls->bad_field,
				  cls->bad);
	if (!cls->n_variants)
		return add_reason(res, rs, KP_REASON_NOT_PROVISIONABLE, NULL, NULL, NULL,
				  "the pod's scheduling constraints cannot be evaluated");
	const sc_variant *v = &cls->variants[cls->n_variants - 1];
	if (kp__topo_update(s, pod, v) != KP_OK)
		return KP_ENOMEM;
	/* existing nodes, grouped by (code, field) */
	sc_why w = { 0 };
	struct group {
		uint32_t code;
		char *field; /* taken from w */
		char *msg;
		const char *node;
		size_t count;
	} *groups = NULL;
	size_t n_groups = 0, cap_groups = 0;
	int rc = KP_OK;
	for (size_t i = 0; i < c->n_nodes && rc == KP_OK; i++) {
		if (s->nodes[i].fate != SC_NODE_KEPT || kp__sched_node_closed(s, (uint32_t)i, pod))
			continue;
		kp_requirements *reqs = NULL;
		kp__why_dispose(&w);
		int r = kp__sched_nc_fits_existing(s, (uint32_t)i, pod, v, &w, &reqs);
		kp_requirements_free(reqs);
		if (r == KP_ENOMEM) {
			rc = r;
			break;
		}
		if (r == KP_OK)
			continue;
		size_t g = 0;
		const char *wf = w.field ? w.field : "";
		while (g < n_groups &&
		       !(groups[g].code == w.code && !strcmp(groups[g].field ? groups[g].field : "", wf)))
			g++;
		if (g == n_groups) {
			if (kp__grow((void **)&groups, &cap_groups, n_groups + 1, sizeof(*groups)) !=
			    KP_OK) {
				rc = KP_ENOMEM;
				break;
			}
			groups[g].code = w.code;
			groups[g].field = w.field;
			groups[g].msg = w.msg;
			w.field = w.msg = NULL;
			groups[g].node = c->nodes[i].name;
			groups[g].count = 0;
			n_groups++;
		}
		groups[g].count++;
	}
	for (size_t g = 0; g < n_groups && rc == KP_OK; g++) {
		const char *gm = groups[g].msg ? groups[g].msg : "";
		char *msg = NULL;
		if (groups[g].count > 1) {
			sc_buf b = { 0 };
			kp__buf_printf(&b, "%s (and %zu other node%s)", gm, groups[g].count - 1,
				     groups[g].count > 2 ? "s" : "");
			if (!(msg = kp__buf_take(&b, NULL))) {
				rc = KP_ENOMEM;
				break;
			}
		}
		rc = add_reason(res, rs, groups[g].code, NULL, groups[g].node, groups[g].field,
				msg ? msg : gm);
		kp__free(msg);
	}
	for (size_t g = 0; g < n_groups; g++) {
		kp__free(groups[g].field);
		kp__free(groups[g].msg);
	}
	kp__free(groups);
	/* NodePools in weight order */
	for (size_t k = 0; k < c->n_pools && rc == KP_OK; k++) {
		uint32_t pool = c->pool_order[k];
		kp__why_dispose(&w);
		int r = kp__sched_nc_try_pool(s, pool, pod, v, &w);
		if (r == KP_ENOMEM) {
			rc = r;
			break;
		}
		if (r == KP_OK)
			continue;
		rc = add_reason(res, rs, w.code ? w.code : KP_REASON_NONE, c->pools[pool].name, NULL,
				w.field, w.msg);
	}
	kp__why_dispose(&w);
	if (rc == KP_OK && !rs->n)
		rc = add_reason(res, rs, KP_REASON_NO_INSTANCE_TYPE, NULL, NULL, NULL,
				c->n_pools ? "no NodePool can launch capacity for the pod"
					   : "no NodePools and no node can take the pod");
	return rc;
}

/* ------------------------------------------------------------------ */
/* Result                                                              */

struct spec_slot {
	uint32_t pos, slot;
};

static int cmp_spec(const void *a, const void *b)
{
	const struct spec_slot *x = a, *y = b;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

int kp__sched_result_build(sc_sim *s, kp_sched_result **out, kp_error *err)
{
	(void)err;
	const struct kp_cluster *c = s->c;
	kp_sched_result *res = kp__calloc(1, sizeof(*res));
	if (!res)
		return KP_ENOMEM;
	int rc = KP_ENOMEM;
	size_t n_pl = s->n_act;
	res->pl = kp__arena_alloc(&res->arena, (n_pl + 1) * sizeof(*res->pl));
	res->pl_pod = kp__arena_alloc(&res->arena, (n_pl + 1) * sizeof(uint32_t));
	res->pl_node = kp__arena_alloc(&res->arena, (n_pl + 1) * sizeof(uint32_t));
	res->ncs = kp__arena_alloc(&res->arena, (s->n_ncs + 1) * sizeof(*res->ncs));
	int32_t *new_index = kp__calloc(s->n_ncs + 1, sizeof(int32_t));
	const char **nc_names = kp__calloc(s->n_ncs + 1, sizeof(*nc_names));
	struct spec_slot *by_spec = NULL;
	if (!res->pl || !res->pl_pod || !res->pl_node || !res->ncs || !new_index || !nc_names)
		goto fail;
	/* NodeClaims, in creation order, those dropped by minValues left out */
	size_t seq = 0;
	kp__map generated = { 0 };
	for (size_t k = 0; k < s->n_ncs; k++) {
		sc_nc *nc = s->ncs[k];
		new_index[k] = -1;
		if (nc->dropped)
			continue;
		const char *name = NULL;
		const kp_nodeclaim *obj = NULL;
		kp_requirements *reqs = nc->reqs;
		int r = materialize(s, nc, &seq, &generated, &res->arena, &obj, &name);
		if (r != KP_OK) {
			kp__map_free(&generated);
			goto fail;
		}
		kp_sched_nodeclaim *snc = &res->ncs[res->n_ncs];
		snc->struct_size = sizeof(*snc);
		snc->nodeclaim = obj;
		snc->nodepool = c->pools[nc->pool].name;
		snc->n_instance_type_options = nc->n_opts_final;
		snc->n_pods = nc->n_pods;
		/* launch choice: the cheapest available compatible offering over the
		 * options in price order; ties keep the first */
		const sc_pool *p = &c->pools[nc->pool];
		const kp_offering *best = NULL;
		const kp_instance_type *best_it = NULL;
		uint64_t allowed = kp__cat_allowed_pairs(p->cat, reqs);
		int counted = s->resv_rem && p->cat->resv_first && !kp__resv_held_by_id(c, nc);
		if (counted)
			best = kp__resv_launch_choice(s, nc, reqs, &best_it);
		for (size_t i = 0; !counted && i < nc->n_opts_final; i++) {
			const kp_instance_type *it = p->cat->items[nc->final_its[i]].it;
			int o = kp__cat_cheapest(c, p->cat, nc->final_its[i], allowed, reqs);
			const kp_offering *of = o >= 0 ? it->offerings[o] : NULL;
			if (of && (!best || of->price < best->price)) {
				best = of;
				best_it = it;
			}
			/* the options are in price order: the first one with an
			 * offering is the cheapest */
			if (best)
				break;
		}
		if (best) {
			snc->instance_type = best_it->name;
			snc->zone = best->zone;
			snc->capacity_type = best->capacity_type;
			snc->price = best->price;
			snc->offering = best;
			res->cost += best->price;
		}
		nc_names[k] = name;
		new_index[k] = (int32_t)res->n_ncs;
		res->n_ncs++;
	}
	kp__map_free(&generated);
	/* placements in the order of the caller's pods (the touched pods'
	 * slots sorted by their position there) */
	if (!(by_spec = kp__calloc(s->n_act + 1, sizeof(*by_spec))))
		goto fail;
	for (size_t a = 0; a < s->n_act; a++) {
		by_spec[a].pos = c->pod_spec_index[s->act[a]];
		by_spec[a].slot = (uint32_t)a;
	}
	qsort(by_spec, s->n_act, sizeof(*by_spec), cmp_spec);
	for (size_t k = 0; k < s->n_act; k++) {
		size_t i = s->act[by_spec[k].slot];
		const sc_pod_sim *ps = &s->pods[by_spec[k].slot];
		const sc_pod *p = &c->pods[i];
		res->pl_pod[res->n_pl] = (uint32_t)i;
		res->pl_node[res->n_pl] = ps->placed_node >= 0 ? (uint32_t)ps->placed_node : KP__SCHED_NONE;
		kp_sched_placement *pl = &res->pl[res->n_pl++];
		pl->struct_size = sizeof(*pl);
		pl->namespace_ = p->ns;
		pl->name = p->name;
		struct reasons rs = { 0 };
		if (ps->placed_node >= 0) {
			const sc_node *n = &c->nodes[ps->placed_node];
			pl->target = n->inflight ? KP_SCHED_INFLIGHT : KP_SCHED_EXISTING_NODE;
			pl->node = n->name;
		} else if (ps->placed_nc >= 0 && new_index[ps->placed_nc] >= 0) {
			pl->target = KP_SCHED_NEW_NODECLAIM;
			pl->nodeclaim_index = (size_t)new_index[ps->placed_nc];
			pl->node = nc_names[ps->placed_nc];
		} else if (ps->placed_nc >= 0) {
			const sc_nc *nc = s->ncs[ps->placed_nc];
			pl->target = KP_SCHED_UNPLACED;
			if (add_reason(res, &rs, KP_REASON_MIN_VALUES, c->pools[nc->pool].name, NULL,
				       NULL,
				       "pod didn't schedule because NodePool couldn't meet minValues "
				       "requirements once its instance types were truncated") != KP_OK)
				goto fail_rs;
		} else {
			pl->target = KP_SCHED_UNPLACED;
			if (diagnose(s, res, (uint32_t)i, &rs) != KP_OK)
				goto fail_rs;
		}
		if (rs.n) {
			kp_sched_reason **arr = kp__arena_alloc(&res->arena, rs.n * sizeof(*arr));
			if (!arr)
				goto fail_rs;
			memcpy(arr, rs.items, rs.n * sizeof(*arr));
			pl->reasons = (const kp_sched_reason *const *)arr;
			pl->n_reasons = rs.n;
		}
		kp__free(rs.items);
		continue;
fail_rs:
		kp__free(rs.items);
		goto fail;
	}
	if (res->arena.failed)
		goto fail;
	kp__free(new_index);
	kp__free(nc_names);
	kp__free(by_spec);
	*out = res;
	return KP_OK;
fail:
	kp__free(new_index);
	kp__free(nc_names);
	kp__free(by_spec);
	kp_sched_result_free(res);
	return rc;
}

KP_EXPORT void kp_sched_result_free(kp_sched_result *res)
{
	if (!res)
		return;
	kp__arena_free(&res->arena);
	kp__free(res);
}

uint32_t kp__sched_result_pod_index(const kp_sched_result *r, size_t i)
{
	return r && i < r->n_pl ? r->pl_pod[i] : KP__SCHED_NONE;
}

uint32_t kp__sched_result_node_index(const kp_sched_result *r, size_t i)
{
	return r && i < r->n_pl ? r->pl_node[i] : KP__SCHED_NONE;
}

KP_EXPORT size_t kp_sched_result_pod_count(const kp_sched_result *res)
{
	return res ? res->n_pl : 0;
}

KP_EXPORT const kp_sched_placement *kp_sched_result_pod_at(const kp_sched_result *res, size_t i)
{
	return res && i < res->n_pl ? &res->pl[i] : NULL;
}

KP_EXPORT size_t kp_sched_result_nodeclaim_count(const kp_sched_result *res)
{
	return res ? res->n_ncs : 0;
}

KP_EXPORT const kp_sched_nodeclaim *kp_sched_result_nodeclaim_at(const kp_sched_result *res,
							      size_t i)
{
	return res && i < res->n_ncs ? &res->ncs[i] : NULL;
}

KP_EXPORT double kp_sched_result_cost(const kp_sched_result *res)
{
	return res ? res->cost : 0.0;
}

KP_EXPORT const char *kp_sched_reason_code_name(uint32_t code)
{
	static const char *const names[] = {
		[KP_REASON_NONE] = "None",
		[KP_REASON_RESOURCES] = "Resources",
		[KP_REASON_TAINTS] = "Taints",
		[KP_REASON_NODE_AFFINITY] = "NodeAffinity",
		[KP_REASON_NODEPOOL_REQUIREMENTS] = "NodePoolRequirements",
		[KP_REASON_NO_INSTANCE_TYPE] = "NoInstanceType",
		[KP_REASON_NODEPOOL_LIMITS] = "NodePoolLimits",
		[KP_REASON_TOPOLOGY_SPREAD] = "TopologySpread",
		[KP_REASON_POD_AFFINITY] = "PodAffinity",
		[KP_REASON_POD_ANTI_AFFINITY] = "PodAntiAffinity",
		[KP_REASON_HOST_PORTS] = "HostPorts",
		[KP_REASON_VOLUMES] = "Volumes",
		[KP_REASON_MIN_VALUES] = "MinValues",
		[KP_REASON_NOT_PROVISIONABLE] = "NotProvisionable",
		[KP_REASON_NODEPOOL_NOT_READY] = "NodePoolNotReady",
		[KP_REASON_NODE_NOT_SCHEDULABLE] = "NodeNotSchedulable",
		[KP_REASON_RESERVED_OFFERING] = "ReservedOffering",
	};
	if (code < sizeof(names) / sizeof(names[0]) && names[code])
		return names[code];
	return "Unknown";
}
