/*
 * Scheduling simulation: the snapshot (kp_cluster_new).
 *
 * Everything a simulation reads is compiled here once: resource names are
 * interned and quantities become int64 values (kp__res_exponent); instance types become
 * dense allocatable vectors; NodePools become NodeClaim templates with their
 * instance-type options and daemon overhead groups (upstream
 * NewNodeClaimTemplate, NewScheduler's template filter and
 * buildDaemonOverheadGroups); Nodes and launched NodeClaims become state
 * nodes (upstream state.StateNode: labels, effective taints, available
 * resources, daemon resources still to come, host ports, volumes).
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <karpenter/hash.h>

#include "common/sized.h"
#include "sched_private.h"
#include "state/state.h"
#include "schema/schema.h"

/* ------------------------------------------------------------------ */
/* Small helpers                                                       */

static int intern_res_list(struct kp_cluster *c, const kp_resource_list *l)
{
	if (!l)
		return KP_OK;
	for (size_t i = 0; i < l->count; i++) {
		uint32_t id;
		if (l->items[i].name && kp__strtab_intern(&c->res, l->items[i].name, &id) != KP_OK)
			return KP_ENOMEM;
	}
	return KP_OK;
}

/* vec[r] = list[r] in r's unit (kp__res_exponent); others untouched. */
static void res_fill(const struct kp_cluster *c, const kp_resource_list *l, int64_t *vec)
{
	if (!l)
		return;
	for (size_t i = 0; i < l->count; i++) {
		uint32_t id;
		if (l->items[i].name && kp__strtab_find(&c->res, l->items[i].name, &id))
			vec[id] = kp__res_value(l->items[i].name, &l->items[i].quantity);
	}
}

static int64_t *res_vec(struct kp_cluster *c)
{
	return kp__arena_alloc(&c->arena, c->n_res * sizeof(int64_t));
}

static const char *meta_name(const kp_object_meta *m)
{
	return m && m->name ? m->name : "";
}

static const char *label_of(const kp_labels *l, const char *key)
{
	if (!l)
		return NULL;
	for (size_t i = 0; i < l->count; i++)
		if (l->items[i].key && strcmp(l->items[i].key, key) == 0)
			return l->items[i].value ? l->items[i].value : "";
	return NULL;
}

/* ------------------------------------------------------------------ */
/* Instance type catalogues                                            */

static sc_catalog *catalog_for(struct kp_cluster *c, kp_instance_types *its)
{
	for (size_t i = 0; i < c->n_cats; i++)
		if (c->cats[i].its == its)
			return &c->cats[i];
	return NULL;
}

static int catalogs_intern(struct kp_cluster *c, const kp_cluster_spec *spec)
{
	if (!spec->instance_types)
		return KP_OK;
	c->cats = kp__arena_alloc(&c->arena, (spec->n_nodepools + 1) * sizeof(*c->cats));
	if (!c->cats)
		return KP_ENOMEM;
	for (size_t p = 0; p < spec->n_nodepools; p++) {
		kp_instance_types *its = spec->instance_types[p];
		if (!its || catalog_for(c, its))
			continue;
		sc_catalog *cat = &c->cats[c->n_cats++];
		cat->its = kp_instance_types_ref(its);
		size_t n = 0;
		const kp_instance_type *const *items = kp_instance_types_items(its, &n);
		cat->n = n;
		cat->items = kp__arena_alloc(&c->arena, (n + 1) * sizeof(*cat->items));
		if (!cat->items)
			return KP_ENOMEM;
		for (size_t i = 0; i < n; i++) {
			cat->items[i].it = items[i];
			if (intern_res_list(c, items[i]->allocatable) != KP_OK ||
			    intern_res_list(c, items[i]->capacity) != KP_OK)
				return KP_ENOMEM;
		}
	}
	return KP_OK;
}

static int catalogs_compile(struct kp_cluster *c)
{
	for (size_t k = 0; k < c->n_cats; k++) {
		sc_catalog *cat = &c->cats[k];
		for (size_t i = 0; i < cat->n; i++) {
			sc_it *it = &cat->items[i];
			if (!(it->alloc = res_vec(c)) || !(it->capacity = res_vec(c)))
				return KP_ENOMEM;
			res_fill(c, it->it->allocatable, it->alloc);
			res_fill(c, it->it->capacity, it->capacity);
			for (size_t r = 0; r < c->n_res; r++)
				if (it->alloc[r] < 0)
					it->alloc_negative = 1;
			it->min_price = DBL_MAX;
			for (size_t o = 0; o < it->it->n_offerings; o++) {
				const kp_offering *of = it->it->offerings[o];
				if (of->available && of->price < it->min_price)
					it->min_price = of->price;
			}
		}
		int rc = kp__cat_compile(c, cat);
		if (rc != KP_OK)
			return rc;
	}
	return KP_OK;
}

/* ------------------------------------------------------------------ */
/* State nodes (upstream state.StateNode)                              */

static int taint_in(const kp_taint *t, const kp_taint *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (kp_taint_match(t, &list[i]))
			return 1;
	return 0;
}

/* Capacity/allocatable of a state node (upstream Capacity, Allocatable). */
static void node_resources(struct kp_cluster *c, sc_node *n, int64_t *alloc)
{
	const kp_resource_list *ncap = n->node && n->node->status ? &n->node->status->capacity : NULL;
	const kp_resource_list *nall = n->node && n->node->status ? &n->node->status->allocatable
								: NULL;
	const kp_resource_list *ccap =
		n->nodeclaim && n->nodeclaim->status ? &n->nodeclaim->status->capacity : NULL;
	const kp_resource_list *call =
		n->nodeclaim && n->nodeclaim->status ? &n->nodeclaim->status->allocatable : NULL;
	if (!n->initialized && n->nodeclaim) {
		if (n->node) {
			res_fill(c, ncap, n->capacity);
			res_fill(c, nall, alloc);
			/* zero quantities of the node are overridden by the NodeClaim's */
			int64_t *tmp = kp__arena_alloc(&c->arena, c->n_res * sizeof(int64_t));
			if (tmp) {
				res_fill(c, ccap, tmp);
				for (size_t r = 0; r < c->n_res; r++)
					if (!n->capacity[r])
						n->capacity[r] = tmp[r];
				memset(tmp, 0, c->n_res * sizeof(int64_t));
				res_fill(c, call, tmp);
				for (size_t r = 0; r < c->n_res; r++)
					if (!alloc[r])
						alloc[r] = tmp[r];
			}
		} else {
			res_fill(c, ccap, n->capacity);
			res_fill(c, call, alloc);
		}
	} else {
		res_fill(c, ncap, n->capacity);
		res_fill(c, nall, alloc);
	}
	uint32_t nodes_id;
	if (kp__strtab_find(&c->res, KP_RESOURCE_NODES, &nodes_id))
		n->capacity[nodes_id] = 1000;
}

/* The snapshot keeps deep copies of the Nodes and NodeClaims it uses. */
static int keep_node(struct kp_cluster *c, const kp_node *node, const kp_node **out,
		     kp_error *err)
{
	kp_node *copy = NULL;
	if (kp__grow((void **)&c->owned_nodes, &c->cap_owned_nodes, c->n_owned_nodes + 1,
		     sizeof(*c->owned_nodes)) != KP_OK)
		return KP_ENOMEM;
	int rc = kp_node_copy(&copy, node, err);
	if (rc != KP_OK) {
		kp__error_prefix(err, "nodes");
		return rc;
	}
	c->owned_nodes[c->n_owned_nodes++] = copy;
	*out = copy;
	return KP_OK;
}

static int keep_nodeclaim(struct kp_cluster *c, const kp_nodeclaim *nc, const kp_nodeclaim **out,
			  kp_error *err)
{
	kp_nodeclaim *copy = NULL;
	if (kp__grow((void **)&c->owned_nodeclaims, &c->cap_owned_nodeclaims,
		     c->n_owned_nodeclaims + 1, sizeof(*c->owned_nodeclaims)) != KP_OK)
		return KP_ENOMEM;
	int rc = kp_nodeclaim_copy(&copy, nc, err);
	if (rc != KP_OK) {
		kp__error_prefix(err, "nodeclaims");
		return rc;
	}
	c->owned_nodeclaims[c->n_owned_nodeclaims++] = copy;
	*out = copy;
	return KP_OK;
}

/* Copies of the Namespace objects, whose labels pod affinity namespace
 * selectors match (topology.c). One without a name cannot be selected and
 * is left out. */
static int namespaces_keep(struct kp_cluster *c, const kp_cluster_spec *spec, kp_error *err)
{
	c->namespaces = kp__calloc(spec->n_namespaces + 1, sizeof(*c->namespaces));
	if (!c->namespaces)
		return KP_ENOMEM;
	for (size_t i = 0; i < spec->n_namespaces; i++) {
		const kp_namespace *ns = spec->namespaces[i];
		if (!ns)
			return kp__error(err, KP_EINVAL, "namespaces", "namespaces[%zu] is NULL", i);
		kp_namespace *copy = NULL;
		int rc = kp_object_copy((void **)&copy, KP_KIND_NAMESPACE, ns, err);
		if (rc != KP_OK) {
			kp__error_prefix(err, "namespaces");
			return rc;
		}
		if (!copy->metadata || !copy->metadata->name || !copy->metadata->name[0]) {
			kp_namespace_free(copy);
			continue;
		}
		c->namespaces[c->n_namespaces++] = copy;
	}
	return KP_OK;
}

static int node_cmp(const void *a, const void *b)
{
	const sc_node *x = a, *y = b;
	if (x->initialized != y->initialized)
		return x->initialized ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* A Node is a state node when it has a provider ID (or is unmanaged) and,
 * managed, its instance type label or is initialized; *pid gets the ID it
 * pairs with a NodeClaim by. */
static int node_is_state_node(const kp_node *node, const char **pid)
{
	const kp_labels *labels = node->metadata ? &node->metadata->labels : NULL;
	*pid = node->spec ? node->spec->provider_id : NULL;
	int np_label = label_of(labels, KP_LABEL_NODEPOOL) && label_of(labels, KP_LABEL_NODEPOOL)[0];
	const char *init_label = label_of(labels, KP_LABEL_NODE_INITIALIZED);
	if (!*pid || !(*pid)[0]) {
		if (np_label)
			return 0; /* upstream: a managed node needs its provider ID */
		*pid = meta_name(node->metadata);
	}
	const char *itl = label_of(labels, KP_LABEL_INSTANCE_TYPE);
	if (np_label && (!itl || !itl[0]) && !(init_label && init_label[0]))
		return 0; /* waiting for its instance type label */
	return 1;
}

/* The state nodes: Nodes (with the NodeClaim of the same provider ID,
 * paired by lib/state's rule), then NodeClaims with a provider ID and no
 * Node (upstream UpdateNodeClaim). */
static int nodes_collect(struct kp_cluster *c, const kp_cluster_spec *spec, sc_node *nodes,
			 size_t *n_out, kp_error *err)
{
	size_t n = 0;
	uint8_t *nc_used = kp__calloc(spec->n_nodeclaims + 1, 1);
	const char **pids = kp__calloc(spec->n_nodes + 1, sizeof(*pids));
	size_t *pairs = kp__calloc(spec->n_nodes + 1, sizeof(*pairs));
	int rc = nc_used && pids && pairs ? KP_OK : KP_ENOMEM;
	for (size_t i = 0; i < spec->n_nodes && rc == KP_OK; i++) {
		const kp_node *node = spec->nodes[i];
		if (!node)
			rc = kp__error(err, KP_EINVAL, "nodes", "nodes[%zu] is NULL", i);
		else if (!node_is_state_node(node, &pids[i]))
			pids[i] = NULL;
	}
	for (size_t j = 0; j < spec->n_nodeclaims && rc == KP_OK; j++)
		if (!spec->nodeclaims[j])
			rc = kp__error(err, KP_EINVAL, "nodeclaims", "nodeclaims[%zu] is NULL", j);
	if (rc == KP_OK)
		rc = kp__state_pair(pairs, nc_used, pids, spec->n_nodes, spec->nodeclaims,
				    spec->n_nodeclaims);
	for (size_t i = 0; i < spec->n_nodes && rc == KP_OK; i++) {
		if (!pids[i])
			continue;
		sc_node *sn = &nodes[n++];
		rc = keep_node(c, spec->nodes[i], &sn->node, err);
		if (rc == KP_OK && pairs[i] != KP__STATE_NONE)
			rc = keep_nodeclaim(c, spec->nodeclaims[pairs[i]], &sn->nodeclaim, err);
	}
	for (size_t j = 0; j < spec->n_nodeclaims && rc == KP_OK; j++) {
		const kp_nodeclaim *nc = spec->nodeclaims[j];
		if (nc_used[j] || !nc->status || !nc->status->provider_id ||
		    !nc->status->provider_id[0])
			continue;
		rc = keep_nodeclaim(c, nc, &nodes[n++].nodeclaim, err);
	}
	kp__free(nc_used);
	kp__free(pids);
	kp__free(pairs);
	*n_out = n;
	return rc;
}

static int label_is_true(const kp_labels *labels, const char *key)
{
	const char *v = label_of(labels, key);
	return v && strcmp(v, "true") == 0;
}

/* Flags, name, labels and NodePool of a state node; returns whether it is
 * registered. */
static int node_describe(const struct kp_cluster *c, sc_node *sn)
{
	const kp_node *node = sn->node;
	const kp_nodeclaim *nc = sn->nodeclaim;
	const kp_labels *nlabels = node && node->metadata ? &node->metadata->labels : NULL;
	sn->managed = nc != NULL;
	int registered = !sn->managed || (node && label_is_true(nlabels, KP_LABEL_NODE_REGISTERED));
	sn->initialized = kp__state_initialized(node, nc);
	sn->inflight = node == NULL;
	sn->deleting = kp__state_deleting(node, nc);
	if (!node || (nc && !registered)) {
		sn->name = meta_name(nc->metadata);
		if (nc->metadata)
			sn->labels = nc->metadata->labels;
	} else {
		sn->name = meta_name(node->metadata);
		if (nlabels)
			sn->labels = *nlabels;
	}
	const char *hn = label_of(&sn->labels, KP_LABEL_HOSTNAME);
	sn->hostname = hn && hn[0] ? hn : sn->name;
	const char *np = label_of(&sn->labels, KP_LABEL_NODEPOOL);
	sn->pool = -1;
	if (np)
		for (size_t p = 0; p < c->n_pools; p++)
			if (strcmp(c->pools[p].name, np) == 0)
				sn->pool = (int32_t)p;
	return registered;
}

/* Taints (upstream StateNode.Taints): the NodeClaim's until the Node
 * registers, without ephemeral and startup taints until it initializes,
 * plus node.kubernetes.io/unschedulable on a cordoned node. */
static int node_taints(struct kp_cluster *c, sc_node *sn, int registered)
{
	const kp_node *node = sn->node;
	const kp_nodeclaim *nc = sn->nodeclaim;
	const kp_taint *taints = NULL;
	size_t n_taints = 0;
	if ((!registered && sn->managed) || !node) {
		if (nc && nc->spec) {
			taints = nc->spec->taints;
			n_taints = nc->spec->n_taints;
		}
	} else if (node->spec) {
		taints = node->spec->taints;
		n_taints = node->spec->n_taints;
	}
	int cordoned = node && node->spec && node->spec->unschedulable;
	sn->taints = kp__arena_alloc(&c->arena, (n_taints + 1) * sizeof(kp_taint));
	if (!sn->taints)
		return KP_ENOMEM;
	for (size_t t = 0; t < n_taints; t++) {
		if (!sn->initialized && sn->managed) {
			if (kp_taint_is_known_ephemeral(&taints[t]))
				continue;
			if (nc->spec &&
			    taint_in(&taints[t], nc->spec->startup_taints, nc->spec->n_startup_taints))
				continue;
		}
		sn->taints[sn->n_taints++] = taints[t];
	}
	/* A cordoned node carries node.kubernetes.io/unschedulable:NoSchedule
	 * (set by Kubernetes' node lifecycle controller); add it when the
	 * snapshot lacks it. */
	kp_taint u = { KP_TAINT_KEY_NODE_UNSCHEDULABLE, "", KP_TAINT_EFFECT_NO_SCHEDULE, 0, 0 };
	if (!cordoned || taint_in(&u, sn->taints, sn->n_taints))
		return KP_OK;
	kp_taint *grown = kp__arena_alloc(&c->arena, (sn->n_taints + 1) * sizeof(kp_taint));
	if (!grown)
		return KP_ENOMEM;
	memcpy(grown, sn->taints, sn->n_taints * sizeof(kp_taint));
	grown[sn->n_taints++] = u;
	sn->taints = grown;
	return KP_OK;
}

/* Requirements: labels plus hostname In [hostname]. */
static int node_requirements(struct kp_cluster *c, sc_node *sn, kp_error *err)
{
	kp_requirements *reqs = NULL;
	int rc = kp_requirements_from_labels(&reqs, &sn->labels, c->wk, err);
	if (rc != KP_OK) {
		kp__error_prefix(err, "labels");
		kp__error_prefix(err, sn->name);
		return rc;
	}
	if ((rc = kp__cluster_keep_reqs(c, reqs)) != KP_OK)
		return rc;
	const char *hv[1] = { sn->hostname };
	kp_node_selector_requirement hs = KP_NODE_SELECTOR_REQUIREMENT_INIT;
	hs.key = KP_LABEL_HOSTNAME;
	hs.op = KP_SELECTOR_OP_IN;
	hs.values = hv;
	hs.n_values = 1;
	if ((rc = kp_requirements_add_selector(reqs, &hs, c->wk, err)) != KP_OK)
		return rc;
	sn->reqs = reqs;
	return KP_OK;
}

static int map_name(kp__map *m, const char *name, uint32_t val)
{
	return kp__map_put(m, name, strlen(name), val, NULL, NULL);
}

/* Pods bind to a Node by its name; a NodeClaim without a Node takes no
 * bound pod, whatever it is called (upstream cluster state maps Node
 * names to provider IDs). Names given to removed_nodes may be either.
 * New NodeClaims must not take the name of any Node or NodeClaim given. */
static int nodes_index(struct kp_cluster *c, const kp_cluster_spec *spec)
{
	const sc_node *nodes = c->nodes;
	for (size_t i = 0; i < c->n_nodes; i++) {
		const char *nn = nodes[i].node ? meta_name(nodes[i].node->metadata) : NULL;
		const char *cn = nodes[i].nodeclaim ? meta_name(nodes[i].nodeclaim->metadata) : NULL;
		if (map_name(&c->node_by_name, nodes[i].name, (uint32_t)i) != KP_OK ||
		    (nn && map_name(&c->node_by_node_name, nn, (uint32_t)i) != KP_OK) ||
		    (cn && map_name(&c->node_by_name, cn, (uint32_t)i) != KP_OK))
			return KP_ENOMEM;
	}
	for (size_t i = 0; i < spec->n_nodes; i++)
		if (map_name(&c->taken_names, meta_name(spec->nodes[i]->metadata), 0) != KP_OK)
			return KP_ENOMEM;
	for (size_t i = 0; i < spec->n_nodeclaims; i++)
		if (map_name(&c->taken_names, meta_name(spec->nodeclaims[i]->metadata), 0) != KP_OK)
			return KP_ENOMEM;
	return KP_OK;
}

static int nodes_build(struct kp_cluster *c, const kp_cluster_spec *spec, kp_error *err)
{
	size_t cap = spec->n_nodes + spec->n_nodeclaims, n = 0;
	sc_node *nodes = kp__arena_alloc(&c->arena, (cap + 1) * sizeof(*nodes));
	if (!nodes)
		return KP_ENOMEM;
	int rc = nodes_collect(c, spec, nodes, &n, err);
	for (size_t i = 0; i < n && rc == KP_OK; i++) {
		int registered = node_describe(c, &nodes[i]);
		rc = node_taints(c, &nodes[i], registered);
		if (rc == KP_OK)
			rc = node_requirements(c, &nodes[i], err);
	}
	if (rc != KP_OK)
		return rc;
	qsort(nodes, n, sizeof(*nodes), node_cmp);
	c->nodes = nodes;
	c->n_nodes = n;
	return nodes_index(c, spec);
}

static int nodes_intern(struct kp_cluster *c, const kp_cluster_spec *spec)
{
	for (size_t i = 0; i < spec->n_nodes; i++) {
		const kp_node *n = spec->nodes[i];
		if (n && n->status && (intern_res_list(c, &n->status->capacity) != KP_OK ||
				       intern_res_list(c, &n->status->allocatable) != KP_OK))
			return KP_ENOMEM;
	}
	for (size_t i = 0; i < spec->n_nodeclaims; i++) {
		const kp_nodeclaim *n = spec->nodeclaims[i];
		if (n && n->status && (intern_res_list(c, &n->status->capacity) != KP_OK ||
				       intern_res_list(c, &n->status->allocatable) != KP_OK))
			return KP_ENOMEM;
	}
	return KP_OK;
}

static int nodes_vectors(struct kp_cluster *c)
{
	for (size_t i = 0; i < c->n_nodes; i++) {
		sc_node *n = &c->nodes[i];
		if (!(n->avail = res_vec(c)) || !(n->capacity = res_vec(c)) ||
		    !(n->ds_pending = res_vec(c)))
			return KP_ENOMEM;
		node_resources(c, n, n->avail);
	}
	return KP_OK;
}

/* ------------------------------------------------------------------ */
/* NodePools (upstream NewNodeClaimTemplate and the template filter)   */

struct pool_key {
	int32_t weight;
	uint32_t index;
	const char *name;
};

static int pool_order_cmp(const void *a, const void *b)
{
	const struct pool_key *x = a, *y = b;
	if (x->weight != y->weight)
		return x->weight > y->weight ? -1 : 1;
	/* upstream OrderByWeight: equal weights by name, descending */
	int s = strcmp(x->name, y->name);
	if (s)
		return -s;
	return x->index < y->index ? -1 : x->index > y->index;
}

static const kp_nodeclass_status *find_nodeclass(const kp_cluster_spec *spec,
						 const kp_node_class_reference *ref)
{
	for (size_t i = 0; i < spec->n_nodeclasses; i++) {
		const kp_nodeclass_status *s = spec->nodeclasses[i];
		if (!s || !s->name || strcmp(s->name, ref->name ? ref->name : "") != 0)
			continue;
		if (ref->kind && s->kind && strcmp(ref->kind, s->kind) != 0)
			continue;
		if (ref->group && s->group && strcmp(ref->group, s->group) != 0)
			continue;
		return s;
	}
	return NULL;
}

/* The NodePool's Ready condition when it is there and not True (upstream's
 * provisioner skips NodePools that are not ready; none counts as ready). */
static const kp_condition *pool_ready_condition(const kp_nodepool *np)
{
	const kp_nodepool_status *st = np->status;
	const kp_condition *cd = st ? kp_condition_find(st->conditions, st->n_conditions, "Ready")
				    : NULL;
	return cd && !(cd->status && !strcmp(cd->status, "True")) ? cd : NULL;
}

/* Template requirements: the NodePool's requirements, its labels, the
 * nodepool and node class labels, and registered/initialized In [true]. */
static int pool_requirements(struct kp_cluster *c, sc_pool *p, kp_error *err)
{
	const kp_nodeclaim_template *t = p->np->spec ? p->np->spec->template_ : NULL;
	const kp_nodeclaim_spec *ts = t ? t->spec : NULL;
	kp_requirements *reqs = NULL;
	int rc = kp_requirements_new(&reqs, err);
	if (rc != KP_OK)
		return rc;
	if ((rc = kp__cluster_keep_reqs(c, reqs)) != KP_OK)
		return rc;
	p->reqs = reqs;
	for (size_t i = 0; ts && i < ts->n_requirements; i++) {
		kp_node_selector_requirement sel = KP_NODE_SELECTOR_REQUIREMENT_INIT;
		if ((rc = kp_nodeclaim_requirement_view(ts->requirements[i], &sel, err)) != KP_OK ||
		    (rc = kp_requirements_add_selector(reqs, &sel, c->wk, err)) != KP_OK) {
			char f[64]; /* a fixed path and a size_t index: fits by construction */
			snprintf(f, sizeof(f), "spec.template.spec.requirements[%zu]", i);
			kp__error_prefix(err, f);
			return rc;
		}
	}
	kp_labels labels = KP_LABELS_INIT;
	if (t && t->metadata && (rc = kp_labels_copy(&labels, &t->metadata->labels, err)) != KP_OK)
		return rc;
	rc = kp_labels_set(&labels, KP_LABEL_NODEPOOL, p->name, err);
	const kp_node_class_reference *ref = ts ? ts->node_class_ref : NULL;
	if (rc == KP_OK && ref && ref->group && ref->kind) {
		/* upstream NodeClassLabelKey: "<group>/<lowercase(kind)>", built
		 * at its full length; a key that is not a valid label key makes
		 * the NodePool unusable (pools_compile) instead of being cut */
		size_t gl = strlen(ref->group), kl = strlen(ref->kind);
		char *key = kp__arena_alloc(&c->arena, gl + kl + 2);
		if (!key) {
			rc = KP_ENOMEM;
		} else {
			memcpy(key, ref->group, gl);
			key[gl] = '/';
			for (size_t i = 0; i < kl; i++) {
				char ch = ref->kind[i];
				key[gl + 1 + i] = ch >= 'A' && ch <= 'Z' ? (char)(ch - 'A' + 'a') : ch;
			}
			key[gl + 1 + kl] = '\0';
			p->nodeclass_label_key = key;
			const char *problem = NULL;
			if (kp_label_key_problems(key, &problem, 1))
				p->nodeclass_key_problem = problem;
			else
				rc = kp_labels_set(&labels, key, ref->name ? ref->name : "", err);
		}
	}
	kp_requirements *lr = NULL;
	if (rc == KP_OK && (rc = kp_requirements_from_labels(&lr, &labels, c->wk, err)) == KP_OK) {
		rc = kp_requirements_add_all(reqs, lr, err);
		kp_requirements_free(lr);
	}
	kp_labels_dispose(&labels);
	if (rc != KP_OK)
		return rc;
	static const char *const truth[1] = { "true" };
	const char *const keys[2] = { KP_LABEL_NODE_REGISTERED, KP_LABEL_NODE_INITIALIZED };
	for (int k = 0; k < 2; k++) {
		kp_node_selector_requirement s = KP_NODE_SELECTOR_REQUIREMENT_INIT;
		s.key = keys[k];
		s.op = KP_SELECTOR_OP_IN;
		s.values = truth;
		s.n_values = 1;
		if ((rc = kp_requirements_add_selector(reqs, &s, c->wk, err)) != KP_OK)
			return rc;
	}
	return KP_OK;
}

/* Whether a daemon pod can run on nodes of this pool and instance type
 * (upstream isDaemonPodCompatible): tolerates the template's taints (with
 * PreferNoSchedule tolerated), and some required node affinity term (tried
 * in order, as relaxation would) is compatible with the template and
 * intersects the instance type. cand[] are the term requirements already
 * found compatible with the template. */
static int daemon_it_compatible(kp_requirements *const *cand, size_t n_cand,
				const kp_instance_type *it)
{
	for (size_t i = 0; i < n_cand; i++)
		if (kp_requirements_intersects(it->requirements, cand[i], NULL) == KP_OK)
			return 1;
	return 0;
}

static int pool_groups(struct kp_cluster *c, sc_pool *p)
{
	size_t nd = c->n_daemons;
	/* candidate requirement terms per daemon, compatible with the template */
	kp_requirements ***cand = kp__calloc(nd + 1, sizeof(*cand));
	size_t *n_cand = kp__calloc(nd + 1, sizeof(*n_cand));
	size_t words = (nd + 63) / 64;
	uint64_t *bits = kp__calloc(words + 1, sizeof(uint64_t));
	kp__map keymap = { 0 };
	int rc = KP_OK;
	if (!cand || !n_cand || !bits) {
		rc = KP_ENOMEM;
		goto out;
	}
	for (size_t d = 0; d < nd; d++) {
		const kp_pod *dp = c->daemons[d];
		/* taints, with PreferNoSchedule tolerated */
		size_t nt = dp->spec ? dp->spec->n_tolerations : 0;
		kp_toleration *tols = kp__calloc(nt + 1, sizeof(*tols));
		if (!tols) {
			rc = KP_ENOMEM;
			goto out;
		}
		if (nt)
			memcpy(tols, dp->spec->tolerations, nt * sizeof(*tols));
		kp_toleration pns = { "", "", KP_TOLERATION_OP_EXISTS, KP_TAINT_EFFECT_PREFER_NO_SCHEDULE, 0, 0, 0 };
		tols[nt] = pns;
		int ok = kp_taints_tolerates(p->taints, p->n_taints, tols, nt + 1, NULL) == KP_OK;
		kp__free(tols);
		if (!ok)
			continue;
		kp_requirements **terms = NULL;
		size_t n_terms = 0;
		if ((rc = kp__sched_daemon_terms(c, dp, &terms, &n_terms)) != KP_OK)
			goto out;
		cand[d] = kp__calloc(n_terms + 1, sizeof(**cand));
		if (!cand[d]) {
			for (size_t t = 0; t < n_terms; t++)
				kp_requirements_free(terms[t]);
			kp__free(terms);
			rc = KP_ENOMEM;
			goto out;
		}
		for (size_t t = 0; t < n_terms; t++) {
			if (kp_requirements_compatible(p->reqs, terms[t], SC_ALLOW, c->wk, NULL) == KP_OK)
				cand[d][n_cand[d]++] = terms[t];
			else
				kp_requirements_free(terms[t]);
		}
		kp__free(terms);
	}
	p->it_group = kp__arena_alloc(&c->arena, (p->cat->n + 1) * sizeof(uint32_t));
	p->groups = kp__arena_alloc(&c->arena, (p->n_opts + 1) * sizeof(sc_dgroup));
	if (!p->it_group || !p->groups) {
		rc = KP_ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < p->cat->n; i++)
		p->it_group[i] = UINT32_MAX;
	for (size_t o = 0; o < p->n_opts; o++) {
		uint32_t idx = p->opts[o];
		const kp_instance_type *it = p->cat->items[idx].it;
		memset(bits, 0, (words + 1) * sizeof(uint64_t));
		for (size_t d = 0; d < nd; d++)
			if (n_cand[d] && daemon_it_compatible(cand[d], n_cand[d], it))
				bits[d / 64] |= 1ull << (d % 64);
		uint32_t g;
		int inserted = 0;
		if ((rc = kp__map_put(&keymap, bits, (words + 1) * sizeof(uint64_t),
				      (uint32_t)p->n_groups, &g, &inserted)) != KP_OK)
			goto out;
		if (inserted) {
			sc_dgroup *grp = &p->groups[p->n_groups++];
			size_t np = 0, ndaemon = 0;
			for (size_t d = 0; d < nd; d++)
				if (bits[d / 64] >> (d % 64) & 1) {
					np += c->daemon_n_ports[d];
					ndaemon++;
				}
			if (ndaemon) {
				if (!(grp->overhead = res_vec(c))) {
					rc = KP_ENOMEM;
					goto out;
				}
				grp->ports = kp__arena_alloc(&c->arena, (np + 1) * sizeof(sc_port));
				if (!grp->ports) {
					rc = KP_ENOMEM;
					goto out;
				}
				for (size_t d = 0; d < nd; d++) {
					if (!(bits[d / 64] >> (d % 64) & 1))
						continue;
					for (size_t r = 0; r < c->n_res; r++)
						grp->overhead[r] = kp__sat_add(grp->overhead[r],
									       c->daemon_req[d][r]);
					for (size_t q = 0; q < c->daemon_n_ports[d]; q++)
						grp->ports[grp->n_ports++] = c->daemon_ports[d][q];
				}
			}
		}
		p->it_group[idx] = g;
	}
out:
	for (size_t d = 0; cand && d < nd; d++) {
		for (size_t t = 0; cand[d] && t < n_cand[d]; t++)
			kp_requirements_free(cand[d][t]);
		kp__free(cand[d]);
	}
	kp__free(cand);
	kp__free(n_cand);
	kp__free(bits);
	kp__map_free(&keymap);
	return rc;
}

static int pools_init(struct kp_cluster *c, const kp_cluster_spec *spec, kp_error *err)
{
	c->n_pools = spec->n_nodepools;
	c->pools = kp__arena_alloc(&c->arena, (c->n_pools + 1) * sizeof(*c->pools));
	c->pool_order = kp__arena_alloc(&c->arena, (c->n_pools + 1) * sizeof(uint32_t));
	c->owned_pools = kp__calloc(c->n_pools + 1, sizeof(*c->owned_pools));
	if (!c->pools || !c->pool_order || !c->owned_pools)
		return KP_ENOMEM;
	for (size_t i = 0; i < c->n_pools; i++) {
		const kp_nodepool *np = spec->nodepools[i];
		if (!np)
			return kp__error(err, KP_EINVAL, "nodepools", "nodepools[%zu] is NULL", i);
		kp_nodepool *copy = NULL;
		int rc = kp_nodepool_copy(&copy, np, err);
		if (rc != KP_OK) {
			kp__error_prefix(err, "nodepools");
			return rc;
		}
		c->owned_pools[c->n_owned_pools++] = copy;
		sc_pool *p = &c->pools[i];
		p->np = copy;
		p->index = (uint32_t)i;
		p->name = meta_name(copy->metadata);
		p->weight = copy->spec && copy->spec->has_weight ? copy->spec->weight : 0;
		const kp_nodeclaim_spec *ts = copy->spec && copy->spec->template_
						      ? copy->spec->template_->spec : NULL;
		if (ts) {
			p->taints = ts->taints;
			p->n_taints = ts->n_taints;
			for (size_t t = 0; t < ts->n_taints; t++)
				if (ts->taints[t].effect == KP_TAINT_EFFECT_PREFER_NO_SCHEDULE)
					p->has_prefer_no_schedule = 1;
		}
		c->pool_order[i] = (uint32_t)i;
		if (intern_res_list(c, copy->spec ? &copy->spec->limits : NULL) != KP_OK)
			return KP_ENOMEM;
	}
	uint32_t nodes_id;
	if (kp__strtab_intern(&c->res, KP_RESOURCE_NODES, &nodes_id) != KP_OK)
		return KP_ENOMEM;
	return KP_OK;
}

/* The NodePool's drift hash and template requirements; errors name
 * nodepools[i] of the caller's array. */
static int pool_hash_and_requirements(struct kp_cluster *c, sc_pool *p, size_t i, kp_error *err)
{
	char hash[KP_HASH_STRING_MAX]; /* a decimal uint64_t hash: fits by construction */
	int rc = kp_nodepool_hash_string(p->np, NULL, hash, sizeof(hash), err);
	if (rc == KP_OK) {
		p->hash = kp__arena_strdup(&c->arena, hash);
		rc = pool_requirements(c, p, err);
	}
	if (rc != KP_OK) {
		char f[64]; /* a fixed path and a size_t index: fits by construction */
		snprintf(f, sizeof(f), "nodepools[%zu]", (size_t)c->pool_spec_index[i]);
		kp__error_prefix(err, f);
	}
	return rc;
}

static int pool_limits(struct kp_cluster *c, sc_pool *p)
{
	const kp_nodepool *np = p->np;
	if (np->spec && np->spec->limits.count) {
		p->has_limits = 1;
		if (!(p->limits = res_vec(c)) || !(p->limited = kp__arena_alloc(&c->arena, c->n_res)))
			return KP_ENOMEM;
		res_fill(c, &np->spec->limits, p->limits);
		for (size_t r = 0; r < np->spec->limits.count; r++) {
			uint32_t id;
			if (kp__strtab_find(&c->res, np->spec->limits.items[r].name, &id))
				p->limited[id] = 1;
		}
	}
	return (p->usage = res_vec(c)) ? KP_OK : KP_ENOMEM;
}

static void pool_unusable(sc_pool *p, uint32_t code, const char *msg)
{
	p->unusable_code = code;
	p->unusable_msg = msg;
}

/* Whether the NodePool's node class is missing or not ready. */
static void pool_nodeclass_ready(struct kp_cluster *c, const kp_cluster_spec *spec, sc_pool *p)
{
	const kp_nodepool *np = p->np;
	const kp_nodeclaim_spec *ts = np->spec && np->spec->template_ ? np->spec->template_->spec
								    : NULL;
	const kp_node_class_reference *ref = ts ? ts->node_class_ref : NULL;
	if (!spec->nodeclasses || !ref)
		return;
	const kp_nodeclass_status *found = find_nodeclass(spec, ref), *st = found;
	kp_nodeclass_status full; /* at this library's size (a caller's may be older) */
	if (found && KP__READ_SIZED(&full, found, kp_nodeclass_status, NULL) == KP_OK)
		st = &full;
	const char *kind = ref->kind ? ref->kind : "", *name = ref->name ? ref->name : "";
	if (!st)
		pool_unusable(p, KP_REASON_NODEPOOL_NOT_READY,
			      kp__arena_printf(&c->arena, "node class %s \"%s\" not found", kind, name));
	else if (st == &full && full.terminating)
		/* upstream's readiness: NodeClassTerminating, the NodePool not
		 * Ready, so it provisions nothing (as reconcile says) */
		pool_unusable(p, KP_REASON_NODEPOOL_NOT_READY,
			      kp__arena_printf(&c->arena, "node class %s \"%s\" is being deleted", kind,
					       name));
	else if (!st->ready)
		pool_unusable(p, KP_REASON_NODEPOOL_NOT_READY,
			      kp__arena_printf(&c->arena, "node class %s \"%s\" is not ready%s%s", kind,
					       name, st->message && st->message[0] ? ": " : "",
					       st->message ? st->message : ""));
}

/* Why the NodePool does not provision, in upstream's order of checks. */
static void pool_usability(struct kp_cluster *c, const kp_cluster_spec *spec, sc_pool *p)
{
	const kp_nodepool *np = p->np;
	const kp_condition *ready = pool_ready_condition(np);
	if (np->metadata && np->metadata->deletion_timestamp_ms) {
		pool_unusable(p, KP_REASON_NODEPOOL_NOT_READY, "the NodePool is being deleted");
	} else if (p->nodeclass_key_problem) {
		char q[KP_QUOTE_EXCERPT_MAX]; /* an excerpt: bounded by construction */
		kp__quote_excerpt(q, sizeof(q), p->nodeclass_label_key,
				  strlen(p->nodeclass_label_key));
		pool_unusable(p, KP_REASON_NODEPOOL_NOT_READY,
			      kp__arena_printf(&c->arena, "the node class label key %s (nodeClassRef group/kind) is not a valid label key: %s",
					       q, p->nodeclass_key_problem));
	} else if (ready) {
		pool_unusable(p, KP_REASON_NODEPOOL_NOT_READY,
			      kp__arena_printf(&c->arena, "the NodePool is not ready (Ready=%s%s%s)",
					       ready->status,
					       ready->message && ready->message[0] ? ": " : "",
					       ready->message ? ready->message : ""));
	} else if (np->spec && np->spec->has_replicas) {
		pool_unusable(p, KP_REASON_NODEPOOL_NOT_READY,
			      "static NodePools (spec.replicas) do not provision for pending pods");
	} else {
		pool_nodeclass_ready(c, spec, p);
	}
	if (!p->unusable_code && (!p->cat || !p->cat->n))
		pool_unusable(p, KP_REASON_NO_INSTANCE_TYPE, "the NodePool has no instance types");
}

/* The template filter (upstream NewScheduler): instance types compatible
 * with the template, with an available compatible offering and an
 * allocatable that is not negative. */
static int pool_options(struct kp_cluster *c, sc_pool *p)
{
	p->opts = kp__arena_alloc(&c->arena, (p->cat->n + 1) * sizeof(uint32_t));
	if (!p->opts)
		return KP_ENOMEM;
	sc_itcompat x;
	memset(&x, 0, sizeof(x));
	if (kp__itcompat_init(&x, p->cat, p->reqs) != KP_OK) {
		kp__itcompat_dispose(&x);
		return KP_ENOMEM;
	}
	uint64_t allowed = kp__cat_allowed_pairs(p->cat, p->reqs);
	for (size_t k = 0; k < p->cat->n; k++) {
		const sc_it *it = &p->cat->items[k];
		if (it->alloc_negative || !kp__itcompat_ok(&x, k) ||
		    !kp__cat_has_offering(c, p->cat, k, allowed, p->reqs))
			continue;
		p->opts[p->n_opts++] = (uint32_t)k;
	}
	kp__itcompat_dispose(&x);
	return KP_OK;
}

/* Upstream OrderByWeight, and whether PreferNoSchedule is tolerated. */
static int pools_order(struct kp_cluster *c)
{
	struct pool_key *keys = kp__calloc(c->n_pools + 1, sizeof(*keys));
	if (!keys)
		return KP_ENOMEM;
	for (size_t i = 0; i < c->n_pools; i++) {
		keys[i].weight = c->pools[i].weight;
		keys[i].index = (uint32_t)i;
		keys[i].name = c->pools[i].name;
	}
	qsort(keys, c->n_pools, sizeof(*keys), pool_order_cmp);
	for (size_t i = 0; i < c->n_pools; i++)
		c->pool_order[i] = keys[i].index;
	kp__free(keys);
	/* upstream looks at every NodePool it schedules with, instance types or not */
	for (size_t i = 0; i < c->n_pools; i++) {
		const sc_pool *p = &c->pools[i];
		if ((!p->unusable_code || p->unusable_code == KP_REASON_NO_INSTANCE_TYPE) &&
		    p->has_prefer_no_schedule)
			c->tolerate_pns = 1;
	}
	return KP_OK;
}

static int pools_compile(struct kp_cluster *c, const kp_cluster_spec *spec, kp_error *err)
{
	for (size_t i = 0; i < c->n_pools; i++) {
		sc_pool *p = &c->pools[i];
		int rc = pool_hash_and_requirements(c, p, i, err);
		if (rc == KP_OK)
			rc = pool_limits(c, p);
		if (rc != KP_OK)
			return rc;
		p->cat = spec->instance_types ? catalog_for(c, spec->instance_types[i]) : NULL;
		pool_usability(c, spec, p);
		if (p->unusable_code)
			continue;
		if ((rc = pool_options(c, p)) != KP_OK)
			return rc;
		if (!p->n_opts) {
			pool_unusable(p, KP_REASON_NO_INSTANCE_TYPE,
				      "the NodePool's requirements filtered out all instance types");
			continue;
		}
		if ((rc = pool_groups(c, p)) != KP_OK)
			return rc;
		p->usable = 1;
	}
	return pools_order(c);
}

/* ------------------------------------------------------------------ */
/* Canonical order                                                     */

/*
 * Every object array of the spec is sorted by namespace/name, then uid
 * (objects without one last, then by position), before anything is built
 * from it: the order of the input documents then decides nothing (topology
 * groups and their domains, pools of equal weight, existing nodes, pods of
 * equal queue keys, NodeClaims). Placements are still reported in the
 * caller's order, and errors name the caller's positions.
 */
struct canon_key {
	const char *ns, *name, *uid;
	uint32_t pos;
	int null;
};

static int canon_cmp(const void *a, const void *b)
{
	const struct canon_key *x = a, *y = b;
	if (x->null != y->null)
		return x->null - y->null;
	int s = strcmp(x->ns, y->ns);
	if (!s)
		s = strcmp(x->name, y->name);
	if (!s)
		s = strcmp(x->uid, y->uid);
	if (s)
		return s;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

typedef const kp_object_meta *(*canon_meta_fn)(const void *);
#define CANON_META(type)                                                                           \
	static const kp_object_meta *canon_meta_##type(const void *o)                              \
	{                                                                                          \
		return ((const type *)o)->metadata;                                                \
	}
CANON_META(kp_nodepool)
CANON_META(kp_node)
CANON_META(kp_nodeclaim)
CANON_META(kp_pod)
CANON_META(kp_daemonset)
CANON_META(kp_pdb)
CANON_META(kp_pvc)
CANON_META(kp_pv)
CANON_META(kp_storage_class)
CANON_META(kp_csi_node)
CANON_META(kp_namespace)
#undef CANON_META

/* Sort @p n objects; *order gets the positions in sorted order (kp__free
 * it) and *sorted the sorted array (kept by the cluster). */
static int canon_sort(struct kp_cluster *c, const void *const *objs, size_t n, canon_meta_fn meta,
		      uint32_t **order, const void ***sorted)
{
	*sorted = NULL;
	if (order)
		*order = NULL;
	if (!n || !objs)
		return KP_OK;
	struct canon_key *keys = kp__calloc(n, sizeof(*keys));
	const void **out = kp__calloc(n, sizeof(*out));
	uint32_t *pos = order ? kp__calloc(n, sizeof(*pos)) : NULL;
	if (!keys || !out || (order && !pos) ||
	    kp__grow((void **)&c->canon, &c->cap_canon, c->n_canon + 1,
		     sizeof(*c->canon)) != KP_OK) {
		kp__free(keys);
		kp__free(out);
		kp__free(pos);
		return KP_ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		const kp_object_meta *m = objs[i] ? meta(objs[i]) : NULL;
		keys[i].null = objs[i] == NULL;
		keys[i].ns = m && m->namespace_ ? m->namespace_ : "";
		keys[i].name = m && m->name ? m->name : "";
		keys[i].uid = m && m->uid ? m->uid : "";
		keys[i].pos = (uint32_t)i;
	}
	qsort(keys, n, sizeof(*keys), canon_cmp);
	for (size_t i = 0; i < n; i++) {
		out[i] = objs[keys[i].pos];
		if (pos)
			pos[i] = keys[i].pos;
	}
	kp__free(keys);
	c->canon[c->n_canon++] = out;
	*sorted = out;
	if (order)
		*order = pos;
	return KP_OK;
}

/* NULL entries are reported with the caller's positions, in the order the
 * build would meet them. */
static int canon_check_nulls(const kp_cluster_spec *spec, kp_error *err)
{
#define NULLS(a, n, what)                                                                          \
	for (size_t i = 0; i < spec->n; i++)                                                       \
		if (!spec->a[i])                                                                   \
			return kp__error(err, KP_EINVAL, what, what "[%zu] is NULL", i);
	NULLS(nodepools, n_nodepools, "nodepools")
	NULLS(namespaces, n_namespaces, "namespaces")
	NULLS(pods, n_pods, "pods")
	NULLS(nodes, n_nodes, "nodes")
	NULLS(nodeclaims, n_nodeclaims, "nodeclaims")
#undef NULLS
	return KP_OK;
}

static int nodeclass_cmp(const void *a, const void *b)
{
	const kp_nodeclass_status *x = *(const kp_nodeclass_status *const *)a;
	const kp_nodeclass_status *y = *(const kp_nodeclass_status *const *)b;
	int r = strcmp(x->name ? x->name : "", y->name ? y->name : "");
	if (!r)
		r = strcmp(x->kind ? x->kind : "", y->kind ? y->kind : "");
	if (!r)
		r = strcmp(x->group ? x->group : "", y->group ? y->group : "");
	if (!r && x->ready != y->ready)
		r = x->ready < y->ready ? -1 : 1;
	if (!r)
		r = strcmp(x->message ? x->message : "", y->message ? y->message : "");
	return r;
}

static int canonical_spec(struct kp_cluster *c, kp_cluster_spec *s, kp_error *err)
{
	int rc = canon_check_nulls(s, err);
	if (rc != KP_OK)
		return rc;
	const void **sorted;
	uint32_t *order = NULL;
	/* NodePools, with their instance types */
	if ((rc = canon_sort(c, (const void *const *)s->nodepools, s->n_nodepools,
			     canon_meta_kp_nodepool, &order, &sorted)) != KP_OK)
		return rc;
	if (s->n_nodepools) {
		c->pool_spec_index = order;
		s->nodepools = (const kp_nodepool *const *)sorted;
		if (s->instance_types) {
			kp_instance_types **its = kp__calloc(s->n_nodepools, sizeof(*its));
			if (!its || kp__grow((void **)&c->canon, &c->cap_canon, c->n_canon + 1,
					     sizeof(*c->canon)) != KP_OK) {
				kp__free(its);
				return KP_ENOMEM;
			}
			for (size_t i = 0; i < s->n_nodepools; i++)
				its[i] = s->instance_types[order[i]];
			c->canon[c->n_canon++] = its;
			s->instance_types = its;
		}
	}
	/* pods, remembering the caller's order */
	if ((rc = canon_sort(c, (const void *const *)s->pods, s->n_pods, canon_meta_kp_pod, &order,
			     &sorted)) != KP_OK)
		return rc;
	if (s->n_pods) {
		c->pod_spec_index = order;
		if (!(c->pod_at_spec = kp__calloc(s->n_pods, sizeof(uint32_t))))
			return KP_ENOMEM;
		for (size_t i = 0; i < s->n_pods; i++)
			c->pod_at_spec[order[i]] = (uint32_t)i;
		s->pods = (const kp_pod *const *)sorted;
	}
#define SORT(a, n, type)                                                                           \
	if ((rc = canon_sort(c, (const void *const *)s->a, s->n, canon_meta_##type, NULL,          \
			     &sorted)) != KP_OK)                                                   \
		return rc;                                                                         \
	if (s->n)                                                                                  \
		s->a = (const type *const *)sorted;
	SORT(nodes, n_nodes, kp_node)
	SORT(nodeclaims, n_nodeclaims, kp_nodeclaim)
	SORT(daemonsets, n_daemonsets, kp_daemonset)
	SORT(pdbs, n_pdbs, kp_pdb)
	SORT(pvcs, n_pvcs, kp_pvc)
	SORT(pvs, n_pvs, kp_pv)
	SORT(storage_classes, n_storage_classes, kp_storage_class)
	SORT(csi_nodes, n_csi_nodes, kp_csi_node)
	SORT(namespaces, n_namespaces, kp_namespace)
#undef SORT
	/* node classes (checked non-NULL by kp_cluster_new): equal entries
	 * compare equal, so their order does not matter */
	if (s->n_nodeclasses) {
		const kp_nodeclass_status **ncs = kp__calloc(s->n_nodeclasses, sizeof(*ncs));
		if (!ncs || kp__grow((void **)&c->canon, &c->cap_canon, c->n_canon + 1,
				     sizeof(*c->canon)) != KP_OK) {
			kp__free(ncs);
			return KP_ENOMEM;
		}
		memcpy(ncs, s->nodeclasses, s->n_nodeclasses * sizeof(*ncs));
		qsort(ncs, s->n_nodeclasses, sizeof(*ncs), nodeclass_cmp);
		c->canon[c->n_canon++] = ncs;
		s->nodeclasses = ncs;
	}
	return KP_OK;
}

/* ------------------------------------------------------------------ */
/* kp_cluster_new / free                                               */

static int cluster_build(struct kp_cluster *c, const kp_cluster_spec *caller, kp_error *err)
{
	kp_cluster_spec canon = *caller;
	const kp_cluster_spec *spec = &canon;
	int rc = canonical_spec(c, &canon, err);
	if (rc != KP_OK)
		return rc;
	uint32_t pods_id;
	if (kp__strtab_intern(&c->res, KP_RESOURCE_PODS, &pods_id) != KP_OK)
		return KP_ENOMEM;
	if ((rc = pools_init(c, spec, err)) != KP_OK)
		return rc;
	if ((rc = namespaces_keep(c, spec, err)) != KP_OK)
		return rc;
	if ((rc = catalogs_intern(c, spec)) != KP_OK)
		return rc;
	if ((rc = nodes_intern(c, spec)) != KP_OK)
		return rc;
	if ((rc = kp__sched_pods_intern(c, spec, err)) != KP_OK)
		return rc;
	c->n_res = c->res.n;
	if ((rc = catalogs_compile(c)) != KP_OK)
		return rc;
	if ((rc = kp__resv_compile(c)) != KP_OK)
		return rc;
	if ((rc = nodes_build(c, spec, err)) != KP_OK)
		return rc;
	if ((rc = nodes_vectors(c)) != KP_OK)
		return rc;
	if ((rc = kp__sched_daemons(c, spec, err)) != KP_OK)
		return rc;
	if ((rc = pools_compile(c, spec, err)) != KP_OK)
		return rc;
	/* pool usage: capacity of active state nodes */
	for (size_t i = 0; i < c->n_nodes; i++) {
		const sc_node *n = &c->nodes[i];
		if (n->pool < 0 || n->deleting)
			continue;
		int64_t *u = c->pools[n->pool].usage;
		for (size_t r = 0; r < c->n_res; r++)
			u[r] = kp__sat_add(u[r], n->capacity[r]);
	}
	if ((rc = kp__sched_pods_bind(c, spec, err)) != KP_OK)
		return rc;
	if ((rc = kp__vol_nodes(c, spec)) != KP_OK)
		return rc;
	if ((rc = kp__topo_build(c, err)) != KP_OK)
		return rc;
	/* nothing of the caller's objects is kept */
	for (size_t i = 0; i < c->n_pods; i++)
		c->pods[i].pod = NULL;
	if (c->arena.failed)
		return KP_ENOMEM;
	return KP_OK;
}

KP_EXPORT void kp_cluster_spec_init(kp_cluster_spec *spec)
{
	if (spec) {
		kp_cluster_spec init = KP_CLUSTER_SPEC_INIT;
		*spec = init;
	}
}

KP_EXPORT void kp_nodeclass_status_init(kp_nodeclass_status *status)
{
	if (status) {
		kp_nodeclass_status init = KP_NODECLASS_STATUS_INIT;
		*status = init;
	}
}

KP_EXPORT void kp_nodeclass_status_from(kp_nodeclass_status *status, const kp_object_meta *meta,
					kp_condition *const *conds, size_t n_conds)
{
	if (!status)
		return;
	kp_nodeclass_status_init(status);
	status->name = meta && meta->name ? meta->name : "";
	status->generation = meta ? meta->generation : 0;
	status->terminating = meta && meta->deletion_timestamp_ms;
	const kp_condition *c = kp_condition_find(conds, n_conds, "Ready");
	/* no conditions at all: no status controller has run (a hand-written
	 * manifest), so the snapshot assumes ready; conditions without Ready
	 * are a controller's that has not decided: not ready, as upstream */
	status->ready = c ? c->status && !strcmp(c->status, "True") : n_conds == 0;
	status->ready_unknown = !c || !c->status || !strcmp(c->status, "Unknown");
	if (c) {
		status->message = c->message;
		status->reason = c->reason;
	}
}

/* Every object of one kind of the spec: its text and code fields agree.
 * The error names the object: "pods[3].status.phase: ...". */
static int enums_agree(uint32_t kind, const char *what, const void *const *objs, size_t n,
		       kp_error *err)
{
	const kp__kind_info *info = kp__kind_info_get(kind);
	for (size_t i = 0; i < n; i++) {
		int rc = kp__schema_enums_agree(info->type, objs[i], err);
		if (rc != KP_OK) {
			char idx[48]; /* the array's name and an index: fits */
			snprintf(idx, sizeof(idx), "%s[%zu]", what, i);
			kp__error_prefix(err, idx);
			return rc;
		}
	}
	return KP_OK;
}

int kp__sched_index_moving(struct kp_cluster *c)
{
	size_t np = 0, nd = 0;
	for (size_t i = 0; i < c->n_pods; i++)
		np += (c->pods[i].state & SC_POD_PENDING) != 0;
	for (size_t i = 0; i < c->n_nodes; i++)
		nd += c->nodes[i].deleting != 0;
	c->pending = kp__calloc(np + 1, sizeof(uint32_t));
	c->deleting = kp__calloc(nd + 1, sizeof(uint32_t));
	if (!c->pending || !c->deleting)
		return KP_ENOMEM;
	for (size_t i = 0; i < c->n_pods; i++)
		if (c->pods[i].state & SC_POD_PENDING)
			c->pending[c->n_pending++] = (uint32_t)i;
	for (size_t i = 0; i < c->n_nodes; i++)
		if (c->nodes[i].deleting)
			c->deleting[c->n_deleting++] = (uint32_t)i;
	size_t nr = c->n_res;
	c->n_blk = (c->n_nodes + SC_NODE_BLOCK - 1) / SC_NODE_BLOCK;
	c->base_rem = kp__calloc(c->n_nodes * nr + 1, sizeof(int64_t));
	c->blk_max = kp__calloc(c->n_blk * nr + 1, sizeof(int64_t));
	if (!c->base_rem || !c->blk_max)
		return KP_ENOMEM;
	for (size_t i = 0; i < c->n_nodes; i++) {
		const sc_node *n = &c->nodes[i];
		int64_t *b = &c->base_rem[i * nr], *m = &c->blk_max[(i / SC_NODE_BLOCK) * nr];
		for (size_t r = 0; r < nr; r++) {
			b[r] = n->avail[r] - n->ds_pending[r];
			if (i % SC_NODE_BLOCK == 0 || b[r] > m[r])
				m[r] = b[r];
		}
	}
	return KP_OK;
}

KP_EXPORT int kp_cluster_new(kp_cluster **out, const kp_cluster_spec *spec, kp_error *err)
{
	if (!out)
		return kp__error(err, KP_EINVAL, NULL, "out is NULL");
	*out = NULL;
	if (!spec)
		return kp__error(err, KP_EINVAL, NULL, "spec is NULL");
	kp_cluster_spec s;
	int rc = KP__READ_SIZED(&s, spec, kp_cluster_spec, err);
	if (rc != KP_OK)
		return rc;
	if (s.reserved)
		return kp__error(err, KP_EINVAL, "reserved", "kp_cluster_spec.reserved must be zero");
#define CHECK_ARRAY(a, n)                                                                          \
	if (s.n && !s.a)                                                                           \
		return kp__error(err, KP_EINVAL, #a, #a " is NULL with " #n " = %zu", s.n);
	CHECK_ARRAY(nodepools, n_nodepools)
	CHECK_ARRAY(nodeclasses, n_nodeclasses)
	CHECK_ARRAY(nodes, n_nodes)
	CHECK_ARRAY(nodeclaims, n_nodeclaims)
	CHECK_ARRAY(pods, n_pods)
	CHECK_ARRAY(daemonsets, n_daemonsets)
	CHECK_ARRAY(pdbs, n_pdbs)
	CHECK_ARRAY(pvcs, n_pvcs)
	CHECK_ARRAY(pvs, n_pvs)
	CHECK_ARRAY(storage_classes, n_storage_classes)
	CHECK_ARRAY(csi_nodes, n_csi_nodes)
	CHECK_ARRAY(namespaces, n_namespaces)
#undef CHECK_ARRAY
	for (size_t i = 0; i < s.n_nodeclasses; i++) {
		const kp_nodeclass_status *st = s.nodeclasses[i];
		if (!st)
			return kp__error(err, KP_EINVAL, "nodeclasses", "nodeclasses[%zu] is NULL", i);
		rc = KP__CHECK_SIZED(st, kp_nodeclass_status, err);
		if (rc != KP_OK) {
			kp__error_prefix(err, "nodeclasses");
			return rc;
		}
	}
	/* Objects read in place (the rest are copied, which reconciles them):
	 * text and code fields must agree (builder.h), never read two ways. */
	if ((rc = enums_agree(KP_KIND_POD, "pods", (const void *const *)s.pods, s.n_pods, err)) ||
	    (rc = enums_agree(KP_KIND_DAEMONSET, "daemonsets", (const void *const *)s.daemonsets,
			      s.n_daemonsets, err)) ||
	    (rc = enums_agree(KP_KIND_PDB, "pdbs", (const void *const *)s.pdbs, s.n_pdbs, err)) ||
	    (rc = enums_agree(KP_KIND_PVC, "pvcs", (const void *const *)s.pvcs, s.n_pvcs, err)) ||
	    (rc = enums_agree(KP_KIND_PV, "pvs", (const void *const *)s.pvs, s.n_pvs, err)) ||
	    (rc = enums_agree(KP_KIND_STORAGE_CLASS, "storage_classes",
			      (const void *const *)s.storage_classes, s.n_storage_classes, err)) ||
	    (rc = enums_agree(KP_KIND_CSI_NODE, "csi_nodes", (const void *const *)s.csi_nodes,
			      s.n_csi_nodes, err)))
		return rc;
	struct kp_cluster *c = kp__calloc(1, sizeof(*c));
	if (!c)
		return kp__error(err, KP_ENOMEM, NULL, "out of memory");
	c->wk = s.wellknown;
	c->now_ms = s.now_ms;
	kp_error local = KP_ERROR_INIT;
	rc = cluster_build(c, &s, err ? err : &local);
	if (rc == KP_OK)
		rc = kp__sched_index_moving(c);
	if (rc != KP_OK) {
		if (rc == KP_ENOMEM)
			kp__error(err, KP_ENOMEM, NULL, "out of memory");
		kp_cluster_free(c);
		return rc;
	}
	*out = c;
	return KP_OK;
}

KP_EXPORT void kp_cluster_free(kp_cluster *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->n_to_free; i++)
		kp_requirements_free(c->to_free[i]);
	kp__free(c->to_free);
	for (size_t i = 0; i < c->n_canon; i++)
		kp__free(c->canon[i]);
	kp__free(c->canon);
	kp__free(c->pool_spec_index);
	kp__free(c->pod_spec_index);
	kp__free(c->pod_at_spec);
	kp__free(c->pending);
	kp__free(c->deleting);
	kp__free(c->base_rem);
	kp__free(c->blk_max);
	for (size_t i = 0; i < c->n_cats; i++)
		kp_instance_types_free(c->cats[i].its);
	for (size_t i = 0; i < c->n_owned_pools; i++)
		kp_nodepool_free(c->owned_pools[i]);
	kp__free(c->owned_pools);
	for (size_t i = 0; i < c->n_owned_pods; i++)
		kp_pod_free(c->owned_pods[i]);
	kp__free(c->owned_pods);
	for (size_t i = 0; i < c->n_daemons; i++)
		kp_pod_free(c->daemons[i]);
	kp__free(c->daemons);
	for (size_t i = 0; i < c->n_owned_nodes; i++)
		kp_node_free(c->owned_nodes[i]);
	kp__free(c->owned_nodes);
	for (size_t i = 0; i < c->n_owned_nodeclaims; i++)
		kp_nodeclaim_free(c->owned_nodeclaims[i]);
	kp__free(c->owned_nodeclaims);
	for (size_t i = 0; i < c->n_namespaces; i++)
		kp_namespace_free(c->namespaces[i]);
	kp__free(c->namespaces);
	kp__free(c->classes);
	kp__free(c->res_fmt);
	kp__topo_snapshot_free(c);
	kp__strtab_free(&c->res);
	kp__strtab_free(&c->str);
	kp__map_free(&c->node_by_name);
	kp__map_free(&c->node_by_node_name);
	kp__map_free(&c->taken_names);
	kp__map_free(&c->pod_by_key);
	kp__arena_free(&c->arena);
	kp__free(c);
}
