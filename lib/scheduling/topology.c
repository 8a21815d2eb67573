/*
 * Scheduling simulation: topology spread constraints, pod affinity and pod
 * anti-affinity (upstream topology.go, topologygroup.go,
 * topologynodefilter.go, topologydomaingroup.go).
 *
 * A topology group counts, per domain of one topology key, the pods its
 * selector picks. Groups are defined once per snapshot (a pod class's
 * relaxation chain names the groups each step owns) with their counts over
 * the bound pods; a simulation activates a group when a pod it schedules
 * owns it (upstream Topology.Update creates groups lazily too, and a group
 * created after some placements does not see them: countDomains reads the
 * cluster, not the simulation), then records placements into the active
 * groups.
 *
 * Deterministic choices where upstream iterates Go maps:
 * - topology spread picks, among the valid domains with the fewest pods,
 *   the smallest domain name (byte order);
 * - pod affinity bootstrapping (the first pod of a self-selecting group)
 *   picks the smallest domain name;
 * - an affinity or anti-affinity group shared by pods with different
 *   tolerations registers the NodePool domains tolerated by the first pod
 *   (input order) that has the term.
 * Hostname domains are never registered in advance: every check on the
 * kubernetes.io/hostname key sees one node domain at a time (upstream's
 * hostname special cases), for which registration makes no difference.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched_private.h"

/* ------------------------------------------------------------------ */
/* Domain groups (upstream buildDomainGroups)                          */

static int domgroup_add(struct sc_domgroups *dg, uint32_t dom, uint32_t pool)
{
	for (size_t i = 0; i < dg->n; i++)
		if (dg->dom[i] == dom && dg->pool[i] == pool)
			return KP_OK;
	if (kp__grow((void **)&dg->dom, &dg->cap_dom, dg->n + 1, sizeof(uint32_t)) != KP_OK ||
	    kp__grow((void **)&dg->pool, &dg->cap_pool, dg->n + 1, sizeof(uint32_t)) != KP_OK)
		return KP_ENOMEM;
	dg->dom[dg->n] = dom;
	dg->pool[dg->n] = pool;
	dg->n++;
	return KP_OK;
}

static int req_values_into(struct kp_cluster *c, struct sc_domgroups *dg, kp_requirement *r,
			   uint32_t pool)
{
	size_t nv = kp_requirement_value_count(r);
	for (size_t v = 0; v < nv; v++) {
		uint32_t id;
		if (kp__strtab_intern(&c->str, kp_requirement_value_at(r, v), &id) != KP_OK ||
		    domgroup_add(dg, id, pool) != KP_OK)
			return KP_ENOMEM;
	}
	return KP_OK;
}

/* The NodePool's own requirements and template labels (without the
 * nodepool label and the simulation keys, as upstream builds them here). */
static int pool_domain_reqs(struct kp_cluster *c, const sc_pool *p, kp_requirements **out)
{
	const kp_nodeclaim_template *t = p->np->spec ? p->np->spec->template_ : NULL;
	const kp_nodeclaim_spec *ts = t ? t->spec : NULL;
	kp_requirements *reqs = NULL;
	if (kp_requirements_new(&reqs, NULL) != KP_OK)
		return KP_ENOMEM;
	for (size_t i = 0; ts && i < ts->n_requirements; i++) {
		kp_node_selector_requirement sel = KP_NODE_SELECTOR_REQUIREMENT_INIT;
		if (kp_nodeclaim_requirement_view(ts->requirements[i], &sel, NULL) != KP_OK)
			continue;
		kp_requirements_add_selector(reqs, &sel, c->wk, NULL);
	}
	if (t && t->metadata && t->metadata->labels.count) {
		kp_requirements *lr = NULL;
		if (kp_requirements_from_labels(&lr, &t->metadata->labels, c->wk, NULL) == KP_OK) {
			kp_requirements_add_all(reqs, lr, NULL);
			kp_requirements_free(lr);
		}
	}
	*out = reqs;
	return KP_OK;
}

static struct sc_domgroups *domgroups_for(struct kp_cluster *c, const char *key)
{
	for (size_t i = 0; i < c->topo.n_domgroups; i++)
		if (strcmp(c->topo.domgroups[i].key, key) == 0)
			return &c->topo.domgroups[i];
	if (kp__grow((void **)&c->topo.domgroups, &c->topo.cap_domgroups, c->topo.n_domgroups + 1,
		     sizeof(*c->topo.domgroups)) != KP_OK)
		return NULL;
	struct sc_domgroups *dg = &c->topo.domgroups[c->topo.n_domgroups++];
	memset(dg, 0, sizeof(*dg));
	dg->key = key;
	for (size_t pi = 0; pi < c->n_pools; pi++) {
		const sc_pool *p = &c->pools[pi];
		/* pools upstream gets instance types for: ready, not static, not
		 * being deleted, with a catalogue */
		if ((p->unusable_code && p->unusable_code != KP_REASON_NO_INSTANCE_TYPE) || !p->cat ||
		    !p->cat->n)
			continue;
		kp_requirements *preqs = NULL;
		if (pool_domain_reqs(c, p, &preqs) != KP_OK)
			return NULL;
		kp_requirement *pr = kp_requirements_get(preqs, key);
		int rc = KP_OK;
		for (size_t i = 0; i < p->cat->n && rc == KP_OK; i++) {
			kp_requirement *ir = kp_requirements_get(p->cat->items[i].it->requirements, key);
			if (!ir && !pr)
				continue;
			kp_requirement *x = NULL;
			if (ir && pr) {
				if (kp_requirement_intersection(&x, pr, ir, NULL) != KP_OK) {
					rc = KP_ENOMEM;
					break;
				}
			} else if (kp_requirement_copy(&x, ir ? ir : pr, NULL) != KP_OK) {
				rc = KP_ENOMEM;
				break;
			}
			rc = req_values_into(c, dg, x, (uint32_t)pi);
			kp_requirement_free(x);
		}
		if (rc == KP_OK && pr && kp_requirement_operator(pr) == KP_SELECTOR_OP_IN)
			rc = req_values_into(c, dg, pr, (uint32_t)pi);
		kp_requirements_free(preqs);
		if (rc != KP_OK)
			return NULL;
	}
	return dg;
}

/* ------------------------------------------------------------------ */
/* Group definitions                                                   */

static int cmp_buf(const void *a, const void *b)
{
	const sc_buf *x = a, *y = b;
	if (x->len != y->len)
		return x->len < y->len ? -1 : 1;
	return memcmp(x->data, y->data, x->len);
}

/* A selector as a set of its match labels and expressions (upstream hashes
 * them as sets): each item encoded, sorted, duplicates dropped. */
static void key_selector(sc_buf *b, const kp_label_selector *s)
{
	if (!s) {
		kp__buf_u32(b, 0);
		return;
	}
	kp__buf_u32(b, 1);
	size_t n = s->match_labels.count + s->n_match_expressions;
	sc_buf *items = kp__calloc(n + 1, sizeof(sc_buf));
	if (!items) {
		b->failed = 1;
		return;
	}
	size_t k = 0;
	for (size_t i = 0; i < s->match_labels.count; i++, k++) {
		kp__buf_str(&items[k], "L");
		kp__buf_str(&items[k], s->match_labels.items[i].key);
		kp__buf_str(&items[k], s->match_labels.items[i].value);
	}
	for (size_t i = 0; i < s->n_match_expressions; i++, k++) {
		const kp_label_selector_requirement *e = &s->match_expressions[i];
		kp__buf_str(&items[k], "E");
		kp__buf_str(&items[k], e->key);
		kp__buf_u32(&items[k], e->op);
		for (size_t v = 0; v < e->n_values; v++)
			kp__buf_str(&items[k], e->values ? e->values[v] : NULL);
	}
	for (size_t i = 0; i < k; i++)
		if (items[i].failed)
			b->failed = 1;
	if (!b->failed)
		qsort(items, k, sizeof(sc_buf), cmp_buf);
	for (size_t i = 0; i < k; i++) {
		if (i && !cmp_buf(&items[i - 1], &items[i]))
			continue;
		kp__buf_u32(b, (uint32_t)items[i].len);
		kp__buf_put(b, (const char *)items[i].data, items[i].len);
	}
	for (size_t i = 0; i < k; i++)
		kp__buf_dispose(&items[i]);
	kp__free(items);
}

static void key_reqs(sc_buf *b, kp_requirements *r)
{
	char small[512]; /* a first try: a longer text is formatted again at full length */
	size_t n = kp_requirements_string(r, small, sizeof(small));
	if (n < sizeof(small)) {
		kp__buf_str(b, small);
		return;
	}
	char *big = kp__malloc(n + 1);
	if (!big) {
		b->failed = 1;
		return;
	}
	kp_requirements_string(r, big, n + 1);
	kp__buf_str(b, big);
	kp__free(big);
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

struct group_def {
	uint32_t type, inverse;
	const char *key;
	int32_t max_skew, min_domains;
	const uint32_t *ns;
	size_t n_ns;
	const kp_label_selector *selector;
	uint32_t taint_honor, affinity_honor;
	kp_requirements **filter_reqs;
	size_t n_filter_reqs;
	const kp_toleration *tols;
	size_t n_tols;
};

/* Register the pool domains of a new group (upstream NewTopologyGroup's
 * ForEachDomain): every domain when the taint policy is Ignore (spread
 * default), else those of pools whose taints the pod tolerates. Affinity
 * groups have no node filter, whose zero TaintPolicy is not Ignore. */
static int group_pool_domains(struct kp_cluster *c, sc_group *g)
{
	if (g->hostname)
		return KP_OK;
	struct sc_domgroups *dg = domgroups_for(c, g->key);
	if (!dg)
		return KP_ENOMEM;
	int check = !(g->type == SC_TOPO_SPREAD && !g->taint_honor);
	g->base = kp__arena_alloc(&c->arena, (dg->n + 1) * sizeof(sc_gdom));
	if (!g->base)
		return KP_ENOMEM;
	for (size_t i = 0; i < dg->n; i++) {
		const sc_pool *p = &c->pools[dg->pool[i]];
		if (check && kp_taints_tolerates(p->taints, p->n_taints, g->tols, g->n_tols, NULL) != KP_OK)
			continue;
		size_t k = 0;
		while (k < g->n_base && g->base[k].dom != dg->dom[i])
			k++;
		if (k == g->n_base) {
			g->base[k].dom = dg->dom[i];
			g->n_base++;
		}
		g->base[k].reg_pool = 1;
	}
	return KP_OK;
}

static int group_intern(struct kp_cluster *c, const struct group_def *d, uint32_t *out)
{
	sc_buf b = { 0 };
	kp__buf_u32(&b, d->inverse);
	kp__buf_u32(&b, d->type);
	kp__buf_str(&b, d->key);
	kp__buf_u32(&b, (uint32_t)d->max_skew);
	kp__buf_u32(&b, (uint32_t)d->n_ns);
	for (size_t i = 0; i < d->n_ns; i++)
		kp__buf_u32(&b, d->ns[i]);
	key_selector(&b, d->selector);
	if (d->type == SC_TOPO_SPREAD) {
		kp__buf_u32(&b, d->taint_honor);
		kp__buf_u32(&b, d->affinity_honor);
		kp__buf_u32(&b, (uint32_t)d->n_filter_reqs);
		for (size_t i = 0; i < d->n_filter_reqs; i++)
			key_reqs(&b, d->filter_reqs[i]);
		kp__buf_u32(&b, (uint32_t)d->n_tols);
		for (size_t i = 0; i < d->n_tols; i++) {
			kp__buf_str(&b, d->tols[i].key ? d->tols[i].key : "");
			kp__buf_str(&b, d->tols[i].value ? d->tols[i].value : "");
			kp__buf_u32(&b, d->tols[i].op);
			kp__buf_u32(&b, d->tols[i].effect);
		}
	}
	if (b.failed) {
		kp__buf_dispose(&b);
		return KP_ENOMEM;
	}
	int inserted = 0;
	int rc = kp__map_put(&c->topo.group_by_key, b.data, b.len, (uint32_t)c->topo.n_groups, out, &inserted);
	kp__buf_dispose(&b);
	if (rc != KP_OK)
		return rc;
	if (!inserted) {
		for (size_t i = 0; i < d->n_filter_reqs; i++)
			kp_requirements_free(d->filter_reqs[i]);
		return KP_OK;
	}
	if (kp__grow((void **)&c->topo.groups, &c->topo.cap_groups, c->topo.n_groups + 1, sizeof(*c->topo.groups)) !=
	    KP_OK)
		return KP_ENOMEM;
	sc_group *g = &c->topo.groups[c->topo.n_groups++];
	memset(g, 0, sizeof(*g));
	g->type = d->type;
	g->inverse = d->inverse;
	g->key = kp__arena_strdup(&c->arena, d->key);
	g->hostname = strcmp(d->key, KP_LABEL_HOSTNAME) == 0;
	g->key_id = UINT32_MAX;
	for (size_t k = 0; k < c->topo.n_topo_keys; k++)
		if (strcmp(c->topo.topo_keys[k], d->key) == 0)
			g->key_id = (uint32_t)k;
	if (g->key_id == UINT32_MAX) {
		if (!g->key || kp__grow((void **)&c->topo.topo_keys, &c->topo.cap_topo_keys,
					c->topo.n_topo_keys + 1, sizeof(char *)) != KP_OK)
			return KP_ENOMEM;
		g->key_id = (uint32_t)c->topo.n_topo_keys;
		c->topo.topo_keys[c->topo.n_topo_keys++] = g->key;
	}
	g->max_skew = d->max_skew;
	g->min_domains = d->min_domains;
	g->namespaces = kp__arena_alloc(&c->arena, (d->n_ns + 1) * sizeof(uint32_t));
	if (!g->key || !g->namespaces)
		return KP_ENOMEM;
	memcpy(g->namespaces, d->ns, d->n_ns * sizeof(uint32_t));
	g->n_namespaces = d->n_ns;
	g->selector = d->selector;
	g->selector_ok = d->selector && kp_label_selector_validate(d->selector, NULL) == KP_OK;
	g->taint_honor = d->taint_honor;
	g->affinity_honor = d->affinity_honor;
	g->filter_reqs = kp__arena_alloc(&c->arena, (d->n_filter_reqs + 1) * sizeof(void *));
	if (!g->filter_reqs)
		return KP_ENOMEM;
	for (size_t i = 0; i < d->n_filter_reqs; i++) {
		g->filter_reqs[i] = d->filter_reqs[i];
		if (kp__cluster_keep_reqs(c, d->filter_reqs[i]) != KP_OK)
			return KP_ENOMEM;
	}
	g->n_filter_reqs = d->n_filter_reqs;
	g->tols = d->tols;
	g->n_tols = d->n_tols;
	return group_pool_domains(c, g);
}

/* Namespaces of an affinity term (upstream buildNamespaceList): the listed
 * ones plus those whose labels match the namespace selector; with neither,
 * the pod's own. Only the snapshot's Namespace objects have labels; an
 * empty selector selects every namespace, those of the snapshot's pods
 * included. */
static int term_namespaces(struct kp_cluster *c, const sc_class *cls,
			   const kp_pod_affinity_term *t, uint32_t **out, size_t *n)
{
	const kp_label_selector *sel = t->namespace_selector;
	int all = sel && !sel->match_labels.count && !sel->n_match_expressions;
	size_t cap = t->n_namespaces + 1 + (sel ? c->n_namespaces : 0) + (all ? c->n_pods : 0);
	uint32_t *ns = kp__arena_alloc(&c->arena, cap * sizeof(uint32_t));
	if (!ns)
		return KP_ENOMEM;
	size_t k = 0;
	if (!t->n_namespaces && !t->namespace_selector) {
		ns[k++] = cls->ns;
	} else {
		for (size_t i = 0; i < t->n_namespaces; i++)
			if (kp__strtab_intern(&c->str, t->namespaces[i], &ns[k++]) != KP_OK)
				return KP_ENOMEM;
		for (size_t i = 0; sel && i < c->n_namespaces; i++) {
			const kp_object_meta *m = c->namespaces[i]->metadata;
			if (!all && !kp_label_selector_matches(sel, &m->labels))
				continue;
			if (kp__strtab_intern(&c->str, m->name, &ns[k++]) != KP_OK)
				return KP_ENOMEM;
		}
		if (all)
			for (size_t i = 0; i < c->n_pods; i++)
				if (kp__strtab_intern(&c->str, c->pods[i].ns, &ns[k++]) != KP_OK)
					return KP_ENOMEM;
	}
	qsort(ns, k, sizeof(uint32_t), cmp_u32);
	size_t u = 0;
	for (size_t i = 0; i < k; i++)
		if (!u || ns[u - 1] != ns[i])
			ns[u++] = ns[i];
	*out = ns;
	*n = u;
	return KP_OK;
}

static int add_id(uint32_t **ids, size_t *n, size_t *cap, uint32_t id)
{
	for (size_t i = 0; i < *n; i++)
		if ((*ids)[i] == id)
			return KP_OK;
	if (kp__grow((void **)ids, cap, *n + 1, sizeof(uint32_t)) != KP_OK)
		return KP_ENOMEM;
	(*ids)[(*n)++] = id;
	return KP_OK;
}

static int affinity_group(struct kp_cluster *c, const sc_class *cls, const kp_pod_affinity_term *t,
			  uint32_t type, uint32_t inverse, const kp_toleration *tols, size_t n_tols,
			  uint32_t *out)
{
	struct group_def d;
	memset(&d, 0, sizeof(d));
	d.type = type;
	d.inverse = inverse;
	d.key = t->topology_key ? t->topology_key : "";
	d.max_skew = INT32_MAX;
	d.min_domains = -1;
	d.selector = t->label_selector;
	d.tols = tols;
	d.n_tols = n_tols;
	uint32_t *ns = NULL;
	int rc = term_namespaces(c, cls, t, &ns, &d.n_ns);
	if (rc != KP_OK)
		return rc;
	d.ns = ns;
	return group_intern(c, &d, out);
}

/* The node filter's requirement sets (upstream MakeTopologyNodeFilter):
 * the node selector alone, or with each required term. */
static int filter_reqs(struct kp_cluster *c, const sc_relax *st, kp_requirements ***out, size_t *n)
{
	const kp_pod_spec *s = st->pod->spec;
	size_t cnt = st->n_req ? st->n_req : 1;
	kp_requirements **r = kp__calloc(cnt, sizeof(*r));
	if (!r)
		return KP_ENOMEM;
	for (size_t i = 0; i < cnt; i++) {
		int rc = kp_requirements_from_labels(&r[i], s ? &s->node_selector : NULL, c->wk, NULL);
		if (rc != KP_OK && kp_requirements_new(&r[i], NULL) != KP_OK) {
			for (size_t j = 0; j < i; j++)
				kp_requirements_free(r[j]);
			kp__free(r);
			return KP_ENOMEM;
		}
		if (!st->n_req)
			continue;
		const kp_node_selector_term *t = st->req_terms[i];
		for (size_t e = 0; t && e < t->n_match_expressions; e++) {
			if (!t->match_expressions[e])
				continue;
			kp_node_selector_requirement sel = *t->match_expressions[e];
			sel.struct_size = sizeof(sel);
			sel.min_values = 0;
			sel.reserved = 0;
			kp_requirements_add_selector(r[i], &sel, c->wk, NULL);
		}
	}
	*out = r;
	*n = cnt;
	return KP_OK;
}

static kp_label_selector *spread_selector(struct kp_cluster *c, const kp_pod *pod,
					  const kp_topology_spread_constraint *t)
{
	if (!t->label_selector)
		return NULL;
	const kp_labels *labels = pod->metadata ? &pod->metadata->labels : NULL;
	size_t extra = 0;
	for (size_t i = 0; i < t->n_match_label_keys; i++)
		if (t->match_label_keys[i] && kp_labels_get(labels, t->match_label_keys[i]))
			extra++;
	kp_label_selector *sel = kp__arena_alloc(&c->arena, sizeof(*sel));
	if (!sel)
		return NULL;
	*sel = *t->label_selector;
	if (!extra)
		return sel;
	size_t n = t->label_selector->n_match_expressions;
	kp_label_selector_requirement *ex = kp__arena_alloc(&c->arena, (n + extra) * sizeof(*ex));
	if (!ex)
		return NULL;
	if (n)
		memcpy(ex, t->label_selector->match_expressions, n * sizeof(*ex));
	for (size_t i = 0; i < t->n_match_label_keys; i++) {
		const char *k = t->match_label_keys[i];
		const char *v = k ? kp_labels_get(labels, k) : NULL;
		if (!v)
			continue;
		const char **vals = kp__arena_alloc(&c->arena, sizeof(char *));
		if (!vals)
			return NULL;
		vals[0] = v;
		kp_label_selector_requirement r = { k, KP_LABEL_SELECTOR_OP_IN, 0, vals, 1 };
		ex[n++] = r;
	}
	sel->match_expressions = ex;
	sel->n_match_expressions = n;
	return sel;
}

int kp__topo_variant_groups(struct kp_cluster *c, const sc_class *cls, const sc_relax *st,
			    const kp_toleration *tols, size_t n_tols, uint32_t **out, size_t *n_out)
{
	uint32_t *ids = NULL;
	size_t n = 0, cap = 0;
	int rc = KP_OK;
	for (size_t i = 0; i < st->n_tsc && rc == KP_OK; i++) {
		const kp_topology_spread_constraint *t = st->tsc[i];
		struct group_def d;
		memset(&d, 0, sizeof(d));
		d.type = SC_TOPO_SPREAD;
		d.key = t->topology_key ? t->topology_key : "";
		d.max_skew = t->max_skew;
		d.min_domains = t->has_min_domains ? t->min_domains : -1;
		d.ns = &cls->ns;
		d.n_ns = 1;
		d.selector = spread_selector(c, st->pod, t);
		if (t->label_selector && !d.selector) {
			rc = KP_ENOMEM;
			break;
		}
		d.taint_honor = t->node_taints_policy_code == KP_NODE_INCLUSION_POLICY_HONOR;
		d.affinity_honor = t->node_affinity_policy_code != KP_NODE_INCLUSION_POLICY_IGNORE;
		d.tols = tols;
		d.n_tols = n_tols;
		if ((rc = filter_reqs(c, st, &d.filter_reqs, &d.n_filter_reqs)) != KP_OK)
			break;
		uint32_t id;
		rc = group_intern(c, &d, &id);
		kp__free(d.filter_reqs);
		if (rc == KP_OK)
			rc = add_id(&ids, &n, &cap, id);
	}
	const kp_affinity *a = st->pod->spec ? st->pod->spec->affinity : NULL;
	for (int anti = 0; anti < 2 && a && rc == KP_OK; anti++) {
		const kp_pod_affinity *pa = anti ? a->pod_anti_affinity : a->pod_affinity;
		if (!pa)
			continue;
		uint32_t type = anti ? SC_TOPO_ANTI : SC_TOPO_AFFINITY;
		for (size_t i = 0; i < pa->n_required && rc == KP_OK; i++) {
			if (!pa->required[i])
				continue;
			uint32_t id;
			rc = affinity_group(c, cls, pa->required[i], type, 0, tols, n_tols, &id);
			if (rc == KP_OK)
				rc = add_id(&ids, &n, &cap, id);
		}
		const kp_weighted_pod_affinity_term **pref = anti ? st->pref_anti : st->pref_aff;
		size_t np = anti ? st->n_pref_anti : st->n_pref_aff;
		for (size_t i = 0; i < np && rc == KP_OK; i++) {
			uint32_t id;
			rc = affinity_group(c, cls, pref[i]->term, type, 0, tols, n_tols, &id);
			if (rc == KP_OK)
				rc = add_id(&ids, &n, &cap, id);
		}
	}
	if (rc != KP_OK) {
		kp__free(ids);
		return rc;
	}
	*out = NULL;
	*n_out = n;
	if (n) {
		*out = kp__arena_alloc(&c->arena, n * sizeof(uint32_t));
		if (*out)
			memcpy(*out, ids, n * sizeof(uint32_t));
	}
	kp__free(ids);
	return n && !*out ? KP_ENOMEM : KP_OK;
}

int kp__topo_inverse_groups(struct kp_cluster *c, const sc_class *cls, uint32_t **out,
			    size_t *n_out)
{
	*out = NULL;
	*n_out = 0;
	const kp_pod_spec *s = cls->rep->spec;
	const kp_pod_affinity *pa = s && s->affinity ? s->affinity->pod_anti_affinity : NULL;
	if (!pa || !pa->n_required)
		return KP_OK;
	uint32_t *ids = kp__arena_alloc(&c->arena, pa->n_required * sizeof(uint32_t));
	if (!ids)
		return KP_ENOMEM;
	size_t n = 0;
	for (size_t i = 0; i < pa->n_required; i++) {
		if (!pa->required[i])
			continue;
		uint32_t id;
		int rc = affinity_group(c, cls, pa->required[i], SC_TOPO_ANTI, 1, s->tolerations,
					s->n_tolerations, &id);
		if (rc != KP_OK)
			return rc;
		size_t k = 0;
		while (k < n && ids[k] != id)
			k++;
		if (k == n)
			ids[n++] = id;
	}
	*out = ids;
	*n_out = n;
	return KP_OK;
}

/* ------------------------------------------------------------------ */
/* The snapshot's counts                                               */

static const char *or_empty(const char *s)
{
	return s ? s : "";
}

static int value_listed(const kp_label_selector_requirement *r, const char *value)
{
	for (size_t i = 0; i < r->n_values; i++)
		if (strcmp(or_empty(r->values[i]), value) == 0)
			return 1;
	return 0;
}

/* kp_label_selector_matches on a selector validated once already
 * (sc_group::selector_ok), without validating it again for every pod. */
static int selector_matches(const kp_label_selector *sel, const kp_labels *labels)
{
	for (size_t i = 0; i < sel->match_labels.count; i++) {
		const kp_label *want = &sel->match_labels.items[i];
		const char *have = kp_labels_get(labels, or_empty(want->key));
		if (!have || strcmp(have, or_empty(want->value)) != 0)
			return 0;
	}
	for (size_t i = 0; i < sel->n_match_expressions; i++) {
		const kp_label_selector_requirement *r = &sel->match_expressions[i];
		const char *have = kp_labels_get(labels, or_empty(r->key));
		int ok;
		switch (r->op) {
		case KP_LABEL_SELECTOR_OP_IN:
			ok = have && value_listed(r, have);
			break;
		case KP_LABEL_SELECTOR_OP_NOT_IN:
			ok = !have || !value_listed(r, have);
			break;
		case KP_LABEL_SELECTOR_OP_EXISTS:
			ok = have != NULL;
			break;
		default: /* DoesNotExist; validation refused any other operator */
			ok = have == NULL;
			break;
		}
		if (!ok)
			return 0;
	}
	return 1;
}

static int selects(const sc_group *g, const sc_class *cls)
{
	if (!g->selector || !g->selector_ok)
		return 0;
	if (!bsearch(&cls->ns, g->namespaces, g->n_namespaces, sizeof(uint32_t), cmp_u32))
		return 0;
	return selector_matches(g->selector, cls->rep->metadata ? &cls->rep->metadata->labels : NULL);
}

/*
 * Which groups may select a pod, indexed by a label every pod they select
 * has: a matchLabels entry, else each value of an In expression. A pod's
 * candidates are the groups indexed under its labels plus the groups with
 * no such label (an empty selector, only NotIn, Exists, DoesNotExist);
 * selects() decides among them. Without it, every class would be tried
 * against every group: quadratic when each pod has a group of its own.
 */
struct sel_bucket {
	uint32_t *g;
	size_t n, cap;
};

struct sel_index {
	kp__map by_label;          /* "key\0value" -> bucket */
	struct sel_bucket *b;
	size_t n_b, cap_b;
	struct sel_bucket rest;    /* groups with no indexing label */
};

static void sel_index_free(struct sel_index *x)
{
	for (size_t i = 0; i < x->n_b; i++)
		kp__free(x->b[i].g);
	kp__free(x->b);
	kp__free(x->rest.g);
	kp__map_free(&x->by_label);
}

static int bucket_add(struct sel_bucket *b, uint32_t g)
{
	if (b->n && b->g[b->n - 1] == g)
		return KP_OK; /* an In expression listing a value twice */
	if (kp__grow((void **)&b->g, &b->cap, b->n + 1, sizeof(uint32_t)) != KP_OK)
		return KP_ENOMEM;
	b->g[b->n++] = g;
	return KP_OK;
}

static void label_key(sc_buf *k, const char *key, const char *value)
{
	k->len = 0;
	kp__buf_put(k, (const char *)key, strlen(key) + 1);
	kp__buf_put(k, (const char *)value, strlen(value));
}

static int sel_index_put(struct sel_index *x, sc_buf *k, const char *key, const char *value,
			 uint32_t g)
{
	label_key(k, key, value);
	uint32_t bi;
	int inserted;
	if (k->failed ||
	    kp__map_put(&x->by_label, k->data, k->len, (uint32_t)x->n_b, &bi, &inserted) != KP_OK)
		return KP_ENOMEM;
	if (inserted) {
		if (kp__grow((void **)&x->b, &x->cap_b, x->n_b + 1, sizeof(*x->b)) != KP_OK)
			return KP_ENOMEM;
		memset(&x->b[x->n_b++], 0, sizeof(*x->b));
	}
	return bucket_add(&x->b[bi], g);
}

/* Index group @p g under its indexing label(s), or in rest. */
static int sel_index_group(struct sel_index *x, sc_buf *k, const sc_group *grp, uint32_t g)
{
	const kp_label_selector *sel = grp->selector;
	if (!sel || !grp->selector_ok)
		return KP_OK; /* selects nothing */
	if (sel->match_labels.count) {
		const kp_label *l = &sel->match_labels.items[0];
		return sel_index_put(x, k, or_empty(l->key), or_empty(l->value), g);
	}
	for (size_t i = 0; i < sel->n_match_expressions; i++) {
		const kp_label_selector_requirement *r = &sel->match_expressions[i];
		if (r->op != KP_LABEL_SELECTOR_OP_IN)
			continue;
		int rc = KP_OK;
		for (size_t v = 0; v < r->n_values && rc == KP_OK; v++)
			rc = sel_index_put(x, k, or_empty(r->key), or_empty(r->values[v]), g);
		return rc; /* In with no value selects nothing: indexed nowhere */
	}
	return bucket_add(&x->rest, g);
}

static int sel_index_build(const struct kp_cluster *c, struct sel_index *x)
{
	sc_buf k = { 0 };
	int rc = KP_OK;
	for (size_t g = 0; g < c->topo.n_groups && rc == KP_OK; g++)
		rc = sel_index_group(x, &k, &c->topo.groups[g], (uint32_t)g);
	kp__buf_dispose(&k);
	return rc;
}

static int cand_add(uint32_t **v, size_t *n, size_t *cap, const struct sel_bucket *b)
{
	if (!b->n)
		return KP_OK;
	if (kp__grow((void **)v, cap, *n + b->n, sizeof(uint32_t)) != KP_OK)
		return KP_ENOMEM;
	memcpy(*v + *n, b->g, b->n * sizeof(uint32_t));
	*n += b->n;
	return KP_OK;
}

/* The groups that select the class's pods, ascending, into cls->sel_groups. */
static int class_sel_groups(struct kp_cluster *c, const struct sel_index *x, sc_class *cls,
			    sc_buf *k, uint32_t **cand, size_t *cap)
{
	size_t n = 0;
	const kp_labels *labels = cls->rep->metadata ? &cls->rep->metadata->labels : NULL;
	for (size_t i = 0; labels && labels->items && i < labels->count; i++) {
		const kp_label *l = &labels->items[i];
		uint32_t bi;
		label_key(k, or_empty(l->key), or_empty(l->value));
		if (k->failed)
			return KP_ENOMEM;
		if (kp__map_get(&x->by_label, k->data, k->len, &bi) &&
		    cand_add(cand, &n, cap, &x->b[bi]) != KP_OK)
			return KP_ENOMEM;
	}
	if (cand_add(cand, &n, cap, &x->rest) != KP_OK)
		return KP_ENOMEM;
	if (n > 1) /* *cand may still be NULL when nothing was added */
		qsort(*cand, n, sizeof(uint32_t), cmp_u32);
	size_t kept = 0;
	for (size_t i = 0; i < n; i++)
		if ((!kept || (*cand)[kept - 1] != (*cand)[i]) &&
		    selects(&c->topo.groups[(*cand)[i]], cls))
			(*cand)[kept++] = (*cand)[i];
	if (!kept)
		return KP_OK;
	cls->sel_groups = kp__arena_alloc(&c->arena, kept * sizeof(uint32_t));
	if (!cls->sel_groups)
		return KP_ENOMEM;
	memcpy(cls->sel_groups, *cand, kept * sizeof(uint32_t));
	cls->n_sel_groups = kept;
	return KP_OK;
}

/* cls->sel_groups of every class. */
static int classes_sel_groups(struct kp_cluster *c)
{
	struct sel_index x;
	memset(&x, 0, sizeof(x));
	sc_buf k = { 0 };
	uint32_t *cand = NULL;
	size_t cap = 0;
	int rc = sel_index_build(c, &x);
	for (size_t i = 0; i < c->n_classes && rc == KP_OK; i++)
		rc = class_sel_groups(c, &x, &c->classes[i], &k, &cand, &cap);
	kp__free(cand);
	kp__buf_dispose(&k);
	sel_index_free(&x);
	return rc;
}

static int class_selected_by(const sc_class *cls, uint32_t g)
{
	return cls->n_sel_groups &&
	       bsearch(&g, cls->sel_groups, cls->n_sel_groups, sizeof(uint32_t), cmp_u32) != NULL;
}

/* upstream TopologyNodeFilter.Matches */
static int filter_matches(const struct kp_cluster *c, const sc_group *g, const kp_taint *taints,
			  size_t n_taints, kp_requirements *reqs, uint32_t flags)
{
	if (g->type != SC_TOPO_SPREAD)
		return 1;
	if (g->affinity_honor && g->n_filter_reqs) {
		int any = 0;
		for (size_t i = 0; i < g->n_filter_reqs && !any; i++)
			any = kp_requirements_compatible(reqs, g->filter_reqs[i], flags, c->wk, NULL) ==
			      KP_OK;
		if (!any)
			return 0;
	}
	if (g->taint_honor && kp_taints_tolerates(taints, n_taints, g->tols, g->n_tols, NULL) != KP_OK)
		return 0;
	return 1;
}

static const kp_taint *node_raw_taints(const sc_node *n, size_t *nt)
{
	if (n->node && n->node->spec) {
		*nt = n->node->spec->n_taints;
		return n->node->spec->taints;
	}
	*nt = 0;
	return NULL;
}

static sc_gdom *base_dom(struct kp_cluster *c, sc_group *g, uint32_t dom, size_t *cap)
{
	for (size_t i = 0; i < g->n_base; i++)
		if (g->base[i].dom == dom)
			return &g->base[i];
	if (g->n_base + 1 > *cap) {
		size_t nc = *cap ? *cap * 2 : 8;
		while (nc < g->n_base + 1)
			nc *= 2;
		sc_gdom *nb = kp__arena_alloc(&c->arena, nc * sizeof(sc_gdom));
		if (!nb)
			return NULL;
		if (g->n_base)
			memcpy(nb, g->base, g->n_base * sizeof(sc_gdom));
		g->base = nb;
		*cap = nc;
	}
	sc_gdom *d = &g->base[g->n_base++];
	memset(d, 0, sizeof(*d));
	d->dom = dom;
	return d;
}

/* The domain of a bound pod's node for a group, or 0 when the node has
 * none (upstream countDomains: the node's label, or its name for hostname). */
static int node_domain(struct kp_cluster *c, const sc_node *n, const char *key, int fallback,
		       uint32_t *dom)
{
	if (!n->node)
		return 0;
	const kp_labels *l = n->node->metadata ? &n->node->metadata->labels : NULL;
	const char *v = kp_labels_get(l, key);
	if (!v && fallback)
		v = n->node->metadata && n->node->metadata->name ? n->node->metadata->name : "";
	if (!v)
		return 0;
	return kp__strtab_intern(&c->str, v, dom) == KP_OK ? 1 : -1;
}

int kp__topo_build(struct kp_cluster *c, kp_error *err)
{
	(void)err;
	size_t *caps = kp__calloc(c->topo.n_groups + 1, sizeof(size_t));
	if (!caps)
		return KP_ENOMEM;
	for (size_t g = 0; g < c->topo.n_groups; g++)
		caps[g] = c->topo.groups[g].n_base;
	/* which groups select each class */
	if (classes_sel_groups(c) != KP_OK) {
		kp__free(caps);
		return KP_ENOMEM;
	}
	for (size_t k = 0; k < c->n_classes; k++) {
		sc_class *cls = &c->classes[k];
		int owns = cls->n_inverse != 0;
		for (size_t v = 0; v < cls->n_variants; v++)
			owns |= cls->variants[v].n_groups != 0;
		cls->topo = owns || cls->n_sel_groups;
		for (size_t vi = 0; vi < cls->n_variants; vi++) {
			sc_variant *v = &cls->variants[vi];
			v->qk = kp__arena_alloc(&c->arena,
						(v->n_groups + cls->n_sel_groups + 1) * sizeof(sc_qk));
			if (!v->qk) {
				kp__free(caps);
				return KP_ENOMEM;
			}
			for (size_t j = 0; j < v->n_groups + cls->n_sel_groups; j++) {
				uint32_t gi = j < v->n_groups ? v->groups[j] : cls->sel_groups[j - v->n_groups];
				const sc_group *g = &c->topo.groups[gi];
				if (j >= v->n_groups && !g->inverse)
					continue;
				sc_qk *q = &v->qk[v->n_qk++];
				q->g = gi;
				q->self = (uint8_t)class_selected_by(cls, gi);
				q->pod_key = kp_requirements_get(v->strict, g->key) != NULL;
				q->hostname = (uint8_t)g->hostname;
				q->type = (uint8_t)g->type;
			}
		}
	}
	int rc = KP_OK;
	/* existing nodes register their domains (upstream countDomains) */
	for (size_t g = 0; g < c->topo.n_groups && rc == KP_OK; g++) {
		sc_group *grp = &c->topo.groups[g];
		if (grp->hostname || grp->inverse)
			continue;
		for (size_t i = 0; i < c->n_nodes && rc == KP_OK; i++) {
			const sc_node *n = &c->nodes[i];
			size_t nt;
			const kp_taint *t = node_raw_taints(n, &nt);
			uint32_t dom;
			int has = node_domain(c, n, grp->key, 0, &dom);
			if (has < 0)
				rc = KP_ENOMEM;
			if (has <= 0 || !filter_matches(c, grp, t, nt, n->reqs, 0))
				continue;
			sc_gdom *d = base_dom(c, grp, dom, &caps[g]);
			if (!d)
				rc = KP_ENOMEM;
			else
				d->reg_nodes++;
		}
	}
	/* bound pods count */
	for (size_t i = 0; i < c->n_pods && rc == KP_OK; i++) {
		const sc_pod *p = &c->pods[i];
		if (!(p->state & SC_POD_TOPOLOGY) || p->node < 0)
			continue;
		const sc_node *n = &c->nodes[p->node];
		const sc_class *cls = &c->classes[p->cls];
		for (size_t k = 0; k < cls->n_sel_groups && rc == KP_OK; k++) {
			sc_group *grp = &c->topo.groups[cls->sel_groups[k]];
			if (grp->inverse)
				continue;
			size_t nt;
			const kp_taint *t = node_raw_taints(n, &nt);
			uint32_t dom;
			int has = node_domain(c, n, grp->key, grp->hostname, &dom);
			if (has < 0)
				rc = KP_ENOMEM;
			if (has <= 0 || !filter_matches(c, grp, t, nt, n->reqs, 0))
				continue;
			sc_gdom *d = base_dom(c, grp, dom, &caps[cls->sel_groups[k]]);
			if (!d)
				rc = KP_ENOMEM;
			else
				d->cnt++;
		}
		/* inverse anti-affinity of running pods */
		for (size_t k = 0; k < cls->n_inverse && rc == KP_OK; k++) {
			sc_group *grp = &c->topo.groups[cls->inverse[k]];
			grp->base_owners++;
			uint32_t dom;
			int has = node_domain(c, n, grp->key, 0, &dom);
			if (has < 0)
				rc = KP_ENOMEM;
			if (has <= 0)
				continue;
			sc_gdom *d = base_dom(c, grp, dom, &caps[cls->inverse[k]]);
			if (!d)
				rc = KP_ENOMEM;
			else
				d->cnt++;
		}
	}
	kp__free(caps);
	return rc;
}

size_t kp__topo_group_count(const struct kp_cluster *c)
{
	return c->topo.n_groups;
}

void kp__topo_snapshot_free(struct kp_cluster *c)
{
	sc_topo_snapshot *t = &c->topo;
	kp__free(t->groups);
	kp__free(t->topo_keys);
	for (size_t i = 0; i < t->n_domgroups; i++) {
		kp__free(t->domgroups[i].dom);
		kp__free(t->domgroups[i].pool);
	}
	kp__free(t->domgroups);
	kp__map_free(&t->group_by_key);
	memset(t, 0, sizeof(*t));
}

/* ------------------------------------------------------------------ */
/* One simulation                                                      */

struct sim_group {
	uint8_t active;
	uint64_t version;    /* bumped by every change */
	int32_t n_positive;  /* domains with a count above zero */
	int32_t min_cache;   /* domainMinCount for pod domains Exists, at min_ver */
	uint64_t min_ver;
	sc_gdom *d;          /* present domains */
	size_t n, cap;
	kp__map idx;         /* dom -> position in d */
	int32_t owners;      /* inverse groups: owners in this simulation */
};

struct sc_topo {
	struct sim_group *g;
	sc_strtab local;     /* domains the snapshot has never seen */
	uint32_t base_n;
	uint32_t *excluded;  /* bound pods this simulation moves */
	size_t n_excluded;
};

static sc_gdom *sg_find(const struct sim_group *sg, uint32_t dom)
{
	uint32_t pos;
	return kp__map_get_u32(&sg->idx, dom, &pos) ? &sg->d[pos] : NULL;
}

static sc_gdom *sg_add(struct sim_group *sg, uint32_t dom)
{
	uint32_t pos;
	int inserted;
	if (kp__grow((void **)&sg->d, &sg->cap, sg->n + 1, sizeof(sc_gdom)) != KP_OK ||
	    kp__map_put_u32(&sg->idx, dom, (uint32_t)sg->n, &pos, &inserted) != KP_OK)
		return NULL;
	sc_gdom *d = &sg->d[pos];
	if (inserted) {
		sg->n++;
		memset(d, 0, sizeof(*d));
		d->dom = dom;
	}
	return d;
}

static uint32_t dom_of(sc_sim *s, const char *v, int create, int *ok)
{
	uint32_t id;
	*ok = 1;
	if (kp__strtab_find(&s->c->str, v, &id))
		return id;
	if (kp__strtab_find(&s->topo->local, v, &id))
		return s->topo->base_n + id;
	if (!create) {
		*ok = 0;
		return UINT32_MAX;
	}
	if (kp__strtab_intern(&s->topo->local, v, &id) != KP_OK) {
		*ok = -1;
		return UINT32_MAX;
	}
	return s->topo->base_n + id;
}

static const char *dom_str(const sc_sim *s, uint32_t id)
{
	if (id < s->topo->base_n)
		return s->c->str.strs[id];
	return s->topo->local.strs[id - s->topo->base_n];
}

/* Activate a group: the snapshot's state less what this simulation moves
 * (its pods are not counted, removed nodes do not register domains). */
static int activate(sc_sim *s, uint32_t gi)
{
	struct sim_group *sg = &s->topo->g[gi];
	if (sg->active)
		return KP_OK;
	const struct kp_cluster *c = s->c;
	const sc_group *g = &c->topo.groups[gi];
	sg->active = 1;
	sc_gdom *tmp = kp__calloc(g->n_base + 1, sizeof(sc_gdom));
	if (!tmp)
		return KP_ENOMEM;
	if (g->n_base)
		memcpy(tmp, g->base, g->n_base * sizeof(sc_gdom));
	/* moved pods */
	for (size_t e = 0; e < s->topo->n_excluded; e++) {
		const sc_pod *p = &c->pods[s->topo->excluded[e]];
		const sc_class *cls = &c->classes[p->cls];
		const sc_node *n = &c->nodes[p->node];
		uint32_t dom;
		const kp_labels *l = n->node && n->node->metadata ? &n->node->metadata->labels : NULL;
		const char *v = n->node ? kp_labels_get(l, g->key) : NULL;
		if (g->inverse) {
			int owner = 0;
			for (size_t k = 0; k < cls->n_inverse; k++)
				owner |= cls->inverse[k] == gi;
			if (!owner || !v)
				continue;
		} else {
			if (!class_selected_by(cls, gi))
				continue;
			if (!v && g->hostname && n->node)
				v = n->node->metadata && n->node->metadata->name ? n->node->metadata->name : "";
			size_t nt;
			const kp_taint *t = node_raw_taints(n, &nt);
			if (!v || !filter_matches(c, g, t, nt, n->reqs, 0))
				continue;
		}
		if (!kp__strtab_find(&c->str, v, &dom))
			continue;
		for (size_t i = 0; i < g->n_base; i++)
			if (tmp[i].dom == dom)
				tmp[i].cnt--;
	}
	/* removed nodes do not register domains */
	if (!g->hostname && !g->inverse) {
		for (size_t gk = 0; gk < s->n_gone; gk++) {
			const sc_node *n = &c->nodes[s->gone[gk]];
			const kp_labels *l = n->node && n->node->metadata ? &n->node->metadata->labels : NULL;
			const char *v = n->node ? kp_labels_get(l, g->key) : NULL;
			uint32_t dom;
			size_t nt;
			const kp_taint *t = node_raw_taints(n, &nt);
			if (!v || !kp__strtab_find(&c->str, v, &dom) ||
			    !filter_matches(c, g, t, nt, n->reqs, 0))
				continue;
			for (size_t k = 0; k < g->n_base; k++)
				if (tmp[k].dom == dom)
					tmp[k].reg_nodes--;
		}
	}
	int rc = KP_OK;
	for (size_t i = 0; i < g->n_base && rc == KP_OK; i++) {
		if (!(tmp[i].reg_pool || tmp[i].reg_nodes > 0 || tmp[i].cnt > 0))
			continue;
		sc_gdom *d = sg_add(sg, tmp[i].dom);
		if (!d)
			rc = KP_ENOMEM;
		else
			d->cnt = tmp[i].cnt > 0 ? tmp[i].cnt : 0;
		if (d && d->cnt > 0)
			sg->n_positive++;
	}
	sg->version++;
	kp__free(tmp);
	return rc;
}

int kp__topo_sim_new(sc_sim *s)
{
	const struct kp_cluster *c = s->c;
	sc_topo *t = kp__calloc(1, sizeof(*t));
	if (!t)
		return KP_ENOMEM;
	s->topo = t;
	t->base_n = (uint32_t)c->str.n;
	t->g = kp__calloc(c->topo.n_groups + 1, sizeof(*t->g));
	t->excluded = kp__calloc(s->n_act + 1, sizeof(uint32_t));
	if (!t->g || !t->excluded)
		return KP_ENOMEM;
	for (size_t g = 0; g < c->topo.n_groups; g++)
		t->g[g].owners = c->topo.groups[g].base_owners;
	/* the pods this simulation touches, in index order */
	for (size_t a = 0; a < s->n_act; a++) {
		uint32_t i = s->act[a];
		const sc_pod *p = &c->pods[i];
		if (p->node < 0 || !(p->state & SC_POD_TOPOLOGY))
			continue;
		t->excluded[t->n_excluded++] = (uint32_t)i;
		const sc_class *cls = &c->classes[p->cls];
		for (size_t k = 0; k < cls->n_inverse; k++)
			t->g[cls->inverse[k]].owners--;
	}
	/* upstream NewTopology: Update for every pod to schedule */
	for (size_t a = 0; a < s->n_act; a++) {
		uint32_t i = s->act[a];
		if (s->pods[a].role != SC_SIM_SCHEDULE)
			continue;
		const sc_class *cls = &c->classes[c->pods[i].cls];
		for (size_t k = 0; k < cls->n_inverse; k++)
			t->g[cls->inverse[k]].owners++;
		if (cls->n_variants)
			for (size_t k = 0; k < cls->variants[0].n_groups; k++)
				if (activate(s, cls->variants[0].groups[k]) != KP_OK)
					return KP_ENOMEM;
	}
	for (size_t g = 0; g < c->topo.n_groups; g++)
		if (c->topo.groups[g].inverse && t->g[g].owners > 0 && activate(s, (uint32_t)g) != KP_OK)
			return KP_ENOMEM;
	return KP_OK;
}

void kp__topo_nc_init(sc_nc_topo *t)
{
	memset(t, 0, sizeof(*t));
	t->host_dom = UINT32_MAX;
}

void kp__topo_nc_dispose(sc_nc_topo *t)
{
	kp__free(t->kdom);
	t->kdom = NULL;
}

void kp__topo_sim_free(sc_sim *s)
{
	sc_topo *t = s->topo;
	if (!t)
		return;
	for (size_t g = 0; t->g && g < s->c->topo.n_groups; g++) {
		kp__free(t->g[g].d);
		kp__map_free(&t->g[g].idx);
	}
	kp__free(t->g);
	kp__free(t->excluded);
	kp__strtab_free(&t->local);
	kp__free(t);
	s->topo = NULL;
}

int kp__topo_update(sc_sim *s, uint32_t pod, const sc_variant *v)
{
	(void)pod;
	for (size_t k = 0; k < v->n_groups; k++)
		if (activate(s, v->groups[k]) != KP_OK)
			return KP_ENOMEM;
	return KP_OK;
}

int kp__topo_register_hostname(sc_sim *s, const char *hostname)
{
	/* hostname domains never need registering (see the file comment) */
	(void)s;
	(void)hostname;
	return KP_OK;
}

/* ------------------------------------------------------------------ */
/* Choosing domains (upstream TopologyGroup.Get)                       */

static int req_has(kp_requirement *r, const char *v)
{
	return !r || kp_requirement_has(r, v);
}

static int req_is_in(kp_requirement *r)
{
	return r && kp_requirement_operator(r) == KP_SELECTOR_OP_IN;
}

static int make_req(const char *key, const char *const *values, size_t n, kp_wellknown *wk,
		    kp_requirement **out)
{
	kp_node_selector_requirement sel = KP_NODE_SELECTOR_REQUIREMENT_INIT;
	sel.key = key;
	sel.op = n ? KP_SELECTOR_OP_IN : KP_SELECTOR_OP_DOES_NOT_EXIST;
	sel.values = values;
	sel.n_values = n;
	return kp_requirement_new(out, &sel, wk, NULL);
}

static int32_t domain_min_count(sc_sim *s, const sc_group *g, const struct sim_group *sg,
				kp_requirement *pod_domains)
{
	if (g->hostname)
		return 0;
	int32_t min = INT32_MAX, supported = 0;
	for (size_t i = 0; i < sg->n; i++) {
		if (!req_has(pod_domains, dom_str(s, sg->d[i].dom)))
			continue;
		supported++;
		if (sg->d[i].cnt < min)
			min = sg->d[i].cnt;
	}
	if (g->min_domains >= 0 && supported < g->min_domains)
		min = 0;
	return min;
}

/* Is @p d a better (count, name) choice than the current best? */
static int better(sc_sim *s, int32_t cnt, uint32_t dom, int32_t best_cnt, uint32_t best_dom)
{
	if (best_dom == UINT32_MAX || cnt < best_cnt)
		return 1;
	if (cnt > best_cnt)
		return 0;
	return strcmp(dom_str(s, dom), dom_str(s, best_dom)) < 0;
}

static int next_spread(sc_sim *s, uint32_t gi, int self, kp_requirement *pod_domains,
		       kp_requirement *node_domains, kp_requirement **out)
{
	const sc_group *g = &s->c->topo.groups[gi];
	struct sim_group *sg = &s->topo->g[gi];
	if (g->hostname && node_domains && kp_requirement_value_count(node_domains) == 1 &&
	    req_is_in(node_domains)) {
		const char *host = kp_requirement_value_at(node_domains, 0);
		int ok;
		uint32_t dom = dom_of(s, host, 0, &ok);
		sc_gdom *d = ok == 1 ? sg_find(sg, dom) : NULL;
		int32_t cnt = (d ? d->cnt : 0) + self;
		if (cnt <= g->max_skew)
			return make_req(g->key, &host, 1, s->c->wk, out);
		return make_req(g->key, NULL, 0, s->c->wk, out);
	}
	int32_t min = domain_min_count(s, g, sg, pod_domains);
	uint32_t best = UINT32_MAX;
	int32_t best_cnt = INT32_MAX;
	if (req_is_in(node_domains)) {
		size_t nv = kp_requirement_value_count(node_domains);
		for (size_t v = 0; v < nv; v++) {
			int ok;
			uint32_t dom = dom_of(s, kp_requirement_value_at(node_domains, v), 0, &ok);
			sc_gdom *d = ok == 1 ? sg_find(sg, dom) : NULL;
			if (!d)
				continue;
			int64_t cnt = (int64_t)d->cnt + self;
			if (cnt - min <= g->max_skew && better(s, (int32_t)cnt, dom, best_cnt, best)) {
				best = dom;
				best_cnt = (int32_t)cnt;
			}
		}
	} else {
		for (size_t i = 0; i < sg->n; i++) {
			const char *ds = dom_str(s, sg->d[i].dom);
			if (!req_has(node_domains, ds))
				continue;
			int64_t cnt = (int64_t)sg->d[i].cnt + self;
			if (cnt - min <= g->max_skew &&
			    better(s, (int32_t)cnt, sg->d[i].dom, best_cnt, best)) {
				best = sg->d[i].dom;
				best_cnt = (int32_t)cnt;
			}
		}
	}
	if (best == UINT32_MAX)
		return make_req(g->key, NULL, 0, s->c->wk, out);
	const char *v = dom_str(s, best);
	return make_req(g->key, &v, 1, s->c->wk, out);
}

static int any_compatible_pod_domain(sc_sim *s, const struct sim_group *sg,
				     kp_requirement *pod_domains)
{
	for (size_t i = 0; i < sg->n; i++)
		if (sg->d[i].cnt > 0 && req_has(pod_domains, dom_str(s, sg->d[i].dom)))
			return 1;
	return 0;
}

static int all_empty(const struct sim_group *sg)
{
	for (size_t i = 0; i < sg->n; i++)
		if (sg->d[i].cnt > 0)
			return 0;
	return 1;
}

static int next_affinity(sc_sim *s, uint32_t gi, int self, kp_requirement *pod_domains,
			 kp_requirement *node_domains, kp_requirement **out)
{
	const sc_group *g = &s->c->topo.groups[gi];
	struct sim_group *sg = &s->topo->g[gi];
	const char *small[16];
	const char **opts = small;
	size_t n = 0, cap = 16;
	int rc;
#define PUSH(v)                                                                                    \
	do {                                                                                       \
		if (n == cap) {                                                                    \
			const char **g_ = kp__malloc(cap * 2 * sizeof(*g_));                      \
			if (!g_) {                                                                 \
				rc = KP_ENOMEM;                                                    \
				goto done;                                                         \
			}                                                                          \
			memcpy(g_, opts, n * sizeof(*g_));                                         \
			if (opts != small)                                                         \
				kp__free(opts);                                                    \
			opts = g_;                                                                 \
			cap *= 2;                                                                  \
		}                                                                                  \
		opts[n++] = (v);                                                                   \
	} while (0)
	if (g->hostname && node_domains && kp_requirement_value_count(node_domains) == 1 &&
	    req_is_in(node_domains)) {
		const char *host = kp_requirement_value_at(node_domains, 0);
		if (req_has(pod_domains, host)) {
			int ok;
			uint32_t dom = dom_of(s, host, 0, &ok);
			sc_gdom *d = ok == 1 ? sg_find(sg, dom) : NULL;
			if ((d && d->cnt > 0) ||
			    (self && (all_empty(sg) || !any_compatible_pod_domain(s, sg, pod_domains))))
				PUSH(host);
		}
		rc = make_req(g->key, opts, n, s->c->wk, out);
		goto done;
	}
	if (req_is_in(node_domains)) {
		size_t nv = kp_requirement_value_count(node_domains);
		for (size_t v = 0; v < nv; v++) {
			const char *ds = kp_requirement_value_at(node_domains, v);
			int ok;
			uint32_t dom = dom_of(s, ds, 0, &ok);
			sc_gdom *d = ok == 1 ? sg_find(sg, dom) : NULL;
			if (d && d->cnt > 0 && req_has(pod_domains, ds))
				PUSH(ds);
		}
	} else {
		for (size_t i = 0; i < sg->n; i++) {
			const char *ds = dom_str(s, sg->d[i].dom);
			if (sg->d[i].cnt > 0 && req_has(pod_domains, ds) && req_has(node_domains, ds))
				PUSH(ds);
		}
	}
	if (!n && self && (all_empty(sg) || !any_compatible_pod_domain(s, sg, pod_domains))) {
		/* bootstrap: a domain in both pod and node domains, and one in the
		 * pod domains (upstream picks each at random; here the smallest) */
		const char *both = NULL, *pod_only = NULL;
		for (size_t i = 0; i < sg->n; i++) {
			const char *ds = dom_str(s, sg->d[i].dom);
			if (!req_has(pod_domains, ds))
				continue;
			if (req_has(node_domains, ds) && (!both || strcmp(ds, both) < 0))
				both = ds;
			if (!pod_only || strcmp(ds, pod_only) < 0)
				pod_only = ds;
		}
		if (both)
			PUSH(both);
		if (pod_only && (!both || strcmp(both, pod_only) != 0))
			PUSH(pod_only);
	}
	rc = make_req(g->key, opts, n, s->c->wk, out);
done:
	if (opts != small)
		kp__free(opts);
	return rc;
#undef PUSH
}

static int next_anti(sc_sim *s, uint32_t gi, kp_requirement *pod_domains,
		     kp_requirement *node_domains, kp_requirement **out)
{
	const sc_group *g = &s->c->topo.groups[gi];
	struct sim_group *sg = &s->topo->g[gi];
	if (g->hostname && node_domains && kp_requirement_value_count(node_domains) == 1 &&
	    req_is_in(node_domains)) {
		const char *host = kp_requirement_value_at(node_domains, 0);
		int ok;
		uint32_t dom = dom_of(s, host, 0, &ok);
		sc_gdom *d = ok == 1 ? sg_find(sg, dom) : NULL;
		if (!d || d->cnt == 0)
			return make_req(g->key, &host, 1, s->c->wk, out);
		return make_req(g->key, NULL, 0, s->c->wk, out);
	}
	const char **opts = kp__malloc((sg->n + kp_requirement_value_count(node_domains) + 1) *
				       sizeof(char *));
	if (!opts)
		return KP_ENOMEM;
	size_t n = 0;
	if (req_is_in(node_domains)) {
		size_t nv = kp_requirement_value_count(node_domains);
		for (size_t v = 0; v < nv; v++) {
			const char *ds = kp_requirement_value_at(node_domains, v);
			int ok;
			uint32_t dom = dom_of(s, ds, 0, &ok);
			sc_gdom *d = ok == 1 ? sg_find(sg, dom) : NULL;
			if (d && d->cnt == 0 && req_has(pod_domains, ds))
				opts[n++] = ds;
		}
	} else {
		for (size_t i = 0; i < sg->n; i++) {
			const char *ds = dom_str(s, sg->d[i].dom);
			if (sg->d[i].cnt == 0 && req_has(node_domains, ds) && req_has(pod_domains, ds))
				opts[n++] = ds;
		}
	}
	int rc = make_req(g->key, opts, n, s->c->wk, out);
	kp__free(opts);
	return rc;
}

static const char *type_name(uint32_t t)
{
	return t == SC_TOPO_SPREAD ? "topology spread" : t == SC_TOPO_AFFINITY ? "pod affinity"
									  : "pod anti-affinity";
}

static uint32_t type_code(uint32_t t)
{
	return t == SC_TOPO_SPREAD ? KP_REASON_TOPOLOGY_SPREAD
	       : t == SC_TOPO_AFFINITY ? KP_REASON_POD_AFFINITY : KP_REASON_POD_ANTI_AFFINITY;
}

static void topo_why(sc_sim *s, sc_why *w, uint32_t gi)
{
	if (!w)
		return;
	const sc_group *g = &s->c->topo.groups[gi];
	const struct sim_group *sg = &s->topo->g[gi];
	sc_buf b = { 0 }; /* domains are input text: allocated */
	size_t shown = 0;
	for (size_t i = 0; i < sg->n && shown < 6; i++, shown++)
		kp__buf_printf(&b, "%s%s=%d", shown ? ", " : "", dom_str(s, sg->d[i].dom),
			     (int)sg->d[i].cnt);
	if (sg->n > shown)
		kp__buf_puts(&b, ", ...");
	char *counts = kp__buf_take(&b, NULL);
	if (!counts)
		shown = 0;
	if (g->type == SC_TOPO_SPREAD)
		kp__why(w, type_code(g->type), g->key,
			"unsatisfiable topology spread constraint, key=%s, maxSkew=%d (counts: %s)",
			g->key, g->max_skew, shown ? counts : "none");
	else
		kp__why(w, type_code(g->type), g->key, "unsatisfiable %s%s, key=%s (counts: %s)",
			g->inverse ? "anti-affinity of a running pod" : type_name(g->type),
			g->inverse ? "" : " term", g->key, shown ? counts : "none");
	kp__free(counts);
}

int kp__topo_add_requirements(sc_sim *s, uint32_t pod, const sc_variant *v,
			      const kp_taint *taints, size_t n_taints, kp_requirements *node_reqs,
			      uint32_t compat_flags, kp_requirements **out, sc_why *w)
{
	const struct kp_cluster *c = s->c;
	const sc_class *cls = &c->classes[c->pods[pod].cls];
	*out = NULL;
	(void)taints;
	(void)n_taints;
	if (!cls->topo)
		return KP_OK;
	kp_requirements *acc = NULL;
	int rc = KP_OK;
	/* owned groups, then inverse groups that select the pod */
	size_t total = v->n_groups + cls->n_sel_groups;
	for (size_t k = 0; k < total && rc == KP_OK; k++) {
		uint32_t gi;
		if (k < v->n_groups) {
			gi = v->groups[k];
		} else {
			gi = cls->sel_groups[k - v->n_groups];
			if (!c->topo.groups[gi].inverse || !s->topo->g[gi].active)
				continue;
		}
		const sc_group *g = &c->topo.groups[gi];
		kp_requirement *pd = kp_requirements_get(v->strict, g->key);
		kp_requirement *nd = kp_requirements_get(node_reqs, g->key);
		kp_requirement *dom = NULL;
		int self = class_selected_by(cls, gi);
		switch (g->type) {
		case SC_TOPO_SPREAD:
			rc = next_spread(s, gi, self, pd, nd, &dom);
			break;
		case SC_TOPO_AFFINITY:
			rc = next_affinity(s, gi, self, pd, nd, &dom);
			break;
		default:
			rc = next_anti(s, gi, pd, nd, &dom);
			break;
		}
		if (rc != KP_OK)
			break;
		if (kp_requirement_len(dom) == 0) {
			kp_requirement_free(dom);
			topo_why(s, w, gi);
			rc = KP_EINCOMPATIBLE;
			break;
		}
		if (!acc && kp_requirements_copy(&acc, node_reqs, NULL) != KP_OK) {
			kp_requirement_free(dom);
			rc = KP_ENOMEM;
			break;
		}
		rc = kp_requirements_add(acc, dom, NULL) == KP_OK ? KP_OK : KP_ENOMEM;
		kp_requirement_free(dom);
	}
	if (rc == KP_OK && acc) {
		kp_error e = KP_ERROR_INIT;
		if (kp_requirements_compatible(node_reqs, acc, compat_flags, c->wk, w ? &e : NULL) !=
		    KP_OK) {
			kp__why(w, KP_REASON_TOPOLOGY_SPREAD, e.field, "%s", e.message);
			rc = KP_EINCOMPATIBLE;
		}
	}
	if (rc != KP_OK) {
		kp_requirements_free(acc);
		return rc == KP_ENOMEM ? KP_ENOMEM : KP_EINCOMPATIBLE;
	}
	*out = acc;
	return KP_OK;
}

/* upstream Topology.Record */
int kp__topo_record(sc_sim *s, uint32_t pod, const sc_variant *v, const kp_taint *taints,
		    size_t n_taints, kp_requirements *reqs, uint32_t compat_flags)
{
	const struct kp_cluster *c = s->c;
	const sc_class *cls = &c->classes[c->pods[pod].cls];
	(void)v;
	if (!cls->topo)
		return KP_OK;
	for (size_t k = 0; k < cls->n_sel_groups; k++) {
		uint32_t gi = cls->sel_groups[k];
		const sc_group *g = &c->topo.groups[gi];
		struct sim_group *sg = &s->topo->g[gi];
		if (g->inverse || !sg->active)
			continue;
		if (!filter_matches(c, g, taints, n_taints, reqs, compat_flags))
			continue;
		kp_requirement *r = kp_requirements_get(reqs, g->key);
		if (!r)
			continue; /* Exists: no value to record */
		size_t nv = kp_requirement_value_count(r);
		if (g->type != SC_TOPO_ANTI && kp_requirement_len(r) != 1)
			continue;
		for (size_t i = 0; i < nv; i++) {
			int ok;
			uint32_t dom = dom_of(s, kp_requirement_value_at(r, i), 1, &ok);
			if (ok < 0)
				return KP_ENOMEM;
			sc_gdom *d = sg_add(sg, dom);
			if (!d)
				return KP_ENOMEM;
			if (!d->cnt++)
				sg->n_positive++;
			sg->version++;
		}
	}
	for (size_t k = 0; k < cls->n_inverse; k++) {
		uint32_t gi = cls->inverse[k];
		struct sim_group *sg = &s->topo->g[gi];
		if (!sg->active && activate(s, gi) != KP_OK)
			return KP_ENOMEM;
		kp_requirement *r = kp_requirements_get(reqs, c->topo.groups[gi].key);
		size_t nv = kp_requirement_value_count(r);
		for (size_t i = 0; i < nv; i++) {
			int ok;
			uint32_t dom = dom_of(s, kp_requirement_value_at(r, i), 1, &ok);
			if (ok < 0)
				return KP_ENOMEM;
			sc_gdom *d = sg_add(sg, dom);
			if (!d)
				return KP_ENOMEM;
			if (!d->cnt++)
				sg->n_positive++;
			sg->version++;
		}
	}
	return KP_OK;
}

/* The NodeClaim's single domain for a topology key: a domain id, KDOM_ANY
 * when the key is undefined, KDOM_OTHER for anything else. Cached per
 * requirement version. */
#define KDOM_ANY (UINT32_MAX - 1)
#define KDOM_OTHER (UINT32_MAX - 2)
#define KDOM_UNSET UINT32_MAX

static uint32_t nc_kdom(sc_sim *s, sc_nc *nc, const sc_group *g)
{
	const struct kp_cluster *c = s->c;
	if (!nc->topo.kdom || nc->topo.kdom_ver != nc->reqs_ver + 1) {
		if (!nc->topo.kdom && !(nc->topo.kdom = kp__malloc((c->topo.n_topo_keys + 1) * sizeof(uint32_t))))
			return KDOM_OTHER;
		for (size_t k = 0; k < c->topo.n_topo_keys; k++)
			nc->topo.kdom[k] = KDOM_UNSET;
		nc->topo.kdom_ver = nc->reqs_ver + 1;
	}
	uint32_t *slot = &nc->topo.kdom[g->key_id];
	if (*slot != KDOM_UNSET)
		return *slot;
	kp_requirement *r = kp_requirements_get(nc->reqs, g->key);
	if (!r) {
		*slot = KDOM_ANY;
	} else if (kp_requirement_operator(r) == KP_SELECTOR_OP_IN &&
		   kp_requirement_value_count(r) == 1) {
		int ok;
		uint32_t d = dom_of(s, kp_requirement_value_at(r, 0), 0, &ok);
		/* a domain no group has seen is treated as "other": let the full
		 * check decide */
		*slot = ok == 1 ? d : KDOM_OTHER;
	} else {
		*slot = KDOM_OTHER;
	}
	return *slot;
}

static int32_t min_count_any(sc_sim *s, const sc_group *g, struct sim_group *sg)
{
	if (sg->min_ver != sg->version + 1) {
		sg->min_cache = domain_min_count(s, g, sg, NULL);
		sg->min_ver = sg->version + 1;
	}
	return sg->min_cache;
}

sc_reject kp__topo_quick_reject(sc_sim *s, uint32_t pod, const sc_variant *v, sc_nc *nc)
{
	const struct kp_cluster *c = s->c;
	(void)pod;
	for (size_t k = 0; k < v->n_qk; k++) {
		const sc_qk *q = &v->qk[k];
		struct sim_group *sg = &s->topo->g[q->g];
		if (!sg->active)
			continue;
		const sc_group *g = &c->topo.groups[q->g];
		if (q->hostname) {
			if (q->type == SC_TOPO_AFFINITY || !sg->n)
				continue;
			if (nc->topo.host_dom == UINT32_MAX) {
				int ok;
				uint32_t d = dom_of(s, nc->hostname, 0, &ok);
				if (ok != 1)
					continue; /* never recorded anywhere: count 0 */
				nc->topo.host_dom = d;
			}
			const sc_gdom *d = sg_find(sg, nc->topo.host_dom);
			int32_t cnt = d ? d->cnt : 0;
			if (q->type == SC_TOPO_ANTI && cnt > 0)
				return SC_REJECT_FOREVER;
			if (q->type == SC_TOPO_SPREAD && cnt + q->self > g->max_skew)
				return SC_REJECT_FOREVER;
			continue;
		}
		/* other keys: only when the NodeClaim has one domain for the key
		 * and the pod does not restrict it (pod domains Exists) */
		if (q->pod_key)
			continue;
		uint32_t dom = nc_kdom(s, nc, g);
		if (dom == KDOM_ANY || dom == KDOM_OTHER)
			continue;
		const sc_gdom *d = sg_find(sg, dom);
		switch (q->type) {
		case SC_TOPO_ANTI:
			/* counts never drop within a simulation */
			if (!d || d->cnt > 0)
				return SC_REJECT_FOREVER;
			break;
		case SC_TOPO_AFFINITY:
			if (d && d->cnt > 0)
				break;
			/* bootstrapping may still pick it */
			if (q->self && sg->n_positive == 0)
				break;
			/* until a domain gets its first pod */
			return SC_REJECT_UNTIL_AFFINITY;
		default: {
			if (!d)
				return SC_REJECT_NOW;
			int32_t min = min_count_any(s, g, sg);
			if ((int64_t)d->cnt + q->self - min > g->max_skew)
				return SC_REJECT_NOW;
			break;
		}
		}
	}
	return SC_REJECT_UNKNOWN;
}

uint32_t kp__topo_affinity_stamp(sc_sim *s, const sc_variant *v)
{
	uint32_t stamp = 1;
	for (size_t k = 0; k < v->n_qk; k++) {
		const sc_qk *q = &v->qk[k];
		if (q->type == SC_TOPO_AFFINITY && !q->hostname && s->topo->g[q->g].active)
			stamp += (uint32_t)s->topo->g[q->g].n_positive;
	}
	return stamp;
}
