/*
 * libkarpenter disruption: passes (upstream's controller loop), applying a
 * command between passes, and the result with its accessors.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <karpenter/labels.h>
#include <karpenter/requirements.h>

#include "common/sized.h"
#include "common/map.h"
#include "disruption_private.h"

struct kp_disruption_result {
	kp__ptrs cmds;  /* kp__cmd * */
	kp_disruption_node *nodes;
	const kp_disruption_node **node_ptrs;
	size_t n_nodes;
	kp_disruption_budget_status *budgets;
	size_t n_budgets;
	kp__ptrs strs;  /* owned strings */
	kp__ptrs whys;  /* owned kp_disruption_why * */
	double before, after;
};

static const char *keep(kp_disruption_result *r, const char *s, int *oom)
{
	if (!s)
		return NULL;
	char *d = kp__strdup(s);
	if (!d || kp__ptrs_push(&r->strs, d)) {
		kp__free(d);
		*oom = 1;
		return NULL;
	}
	return d;
}

KP_EXPORT void kp_disruption_result_free(kp_disruption_result *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->cmds.count; i++)
		kp__cmd_free(r->cmds.items[i]);
	kp__free(r->cmds.items);
	for (size_t i = 0; i < r->strs.count; i++)
		kp__free(r->strs.items[i]);
	kp__free(r->strs.items);
	for (size_t i = 0; i < r->whys.count; i++) {
		kp_disruption_why *w = r->whys.items[i];
		kp__free(KP__DMUT(w->message));
		kp__free(w);
	}
	kp__free(r->whys.items);
	for (size_t i = 0; i < r->n_nodes; i++)
		kp__free(KP__DMUT(r->nodes[i].reasons));
	kp__free(r->nodes);
	kp__free(KP__DMUT(r->node_ptrs));
	kp__free(r->budgets);
	kp__free(r);
}

/* The explanation of the first pass, moved into the result. */
static int explain_nodes(kp_disruption_result *r, kp__dstate *st)
{
	int oom = 0;
	r->nodes = kp__calloc(st->n_nodes + 1, sizeof(*r->nodes));
	if (!r->nodes)
		return KP_ENOMEM;
	for (size_t i = 0; i < st->n_nodes && !oom; i++) {
		kp__dnode *d = &st->nodes[i];
		kp_disruption_node *x = &r->nodes[r->n_nodes++];
		x->struct_size = sizeof(*x);
		x->nodeclaim = keep(r, d->nc_name, &oom);
		x->node = keep(r, d->node_name, &oom);
		x->nodepool = keep(r, d->pool_name, &oom);
		x->candidate = d->managed && (!d->graceful_code || !d->eventual_code);
		x->empty = d->empty;
		x->drifted = d->drifted;
		x->drift_reason = keep(r, d->drift_reason, &oom);
		x->drift_message = keep(r, d->drift_msg, &oom);
		x->consolidatable = d->cons_state == KP_CONSOLIDATABLE_TRUE;
		x->consolidatable_at_ms = d->cons_state == KP_CONSOLIDATABLE_TRUE ||
						  d->cons_state == KP_CONSOLIDATABLE_WAITING
					  ? d->cons_at_ms : 0;
		/* steal the reasons */
		const kp_disruption_why **reasons = kp__calloc(d->why.count + 1, sizeof(*reasons));
		if (!reasons)
			return KP_ENOMEM;
		x->reasons = reasons;
		for (size_t k = 0; k < d->why.count; k++) {
			if (kp__ptrs_push(&r->whys, d->why.items[k]))
				return KP_ENOMEM;
			reasons[x->n_reasons++] = d->why.items[k];
			d->why.items[k] = NULL; /* owned by the result now */
		}
	}
	r->node_ptrs = kp__calloc(r->n_nodes + 1, sizeof(*r->node_ptrs));
	if (oom || !r->node_ptrs)
		return KP_ENOMEM;
	for (size_t i = 0; i < r->n_nodes; i++)
		r->node_ptrs[i] = &r->nodes[i];
	size_t nb = st->spec->n_nodepools * KP__N_REASONS;
	r->budgets = kp__calloc(nb + 1, sizeof(*r->budgets));
	if (!r->budgets)
		return KP_ENOMEM;
	/* NodePools by name */
	size_t *order = kp__calloc(st->spec->n_nodepools + 1, sizeof(*order));
	if (!order)
		return KP_ENOMEM;
	for (size_t p = 0; p < st->spec->n_nodepools; p++) {
		size_t j = p;
		while (j > 0 && strcmp(st->budgets[order[j - 1] * KP__N_REASONS].nodepool,
				       st->budgets[p * KP__N_REASONS].nodepool) > 0) {
			order[j] = order[j - 1];
			j--;
		}
		order[j] = p;
	}
	for (size_t p = 0; p < st->spec->n_nodepools; p++)
		for (int k = 0; k < KP__N_REASONS; k++) {
			kp_disruption_budget_status *b = &r->budgets[r->n_budgets++];
			*b = st->budgets[order[p] * KP__N_REASONS + (size_t)k];
			b->nodepool = keep(r, b->nodepool, &oom);
			b->error = keep(r, b->error, &oom);
		}
	kp__free(order);
	return oom ? KP_ENOMEM : KP_OK;
}

static int budgets_only(kp_disruption_result *r, kp__dstate *st)
{
	size_t n = st->n_nodes;
	st->n_nodes = 0; /* explain no node, keep the budgets */
	int rc = explain_nodes(r, st);
	st->n_nodes = n;
	return rc;
}

static double cluster_cost(const kp__dstate *st)
{
	double c = 0;
	for (size_t i = 0; i < st->n_nodes; i++)
		if (st->nodes[i].managed && !st->nodes[i].deleting)
			c += st->nodes[i].price;
	return c;
}

/* ------------------------------------------------------------------ */
/* Applying a command between passes                                   */

typedef struct work {
	kp_cluster_spec spec;
	kp__ptrs nodes, ncs, pods;
	kp__ptrs own_nodes, own_ncs, own_pods;
	/* reservations whose instances left changed in an earlier pass: ID ->
	 * index in resv_left (the map owns the IDs) */
	kp__map resv;
	int64_t *resv_left;
	size_t n_resv, cap_resv;
} work;

static void work_free(work *w)
{
	for (size_t i = 0; i < w->own_nodes.count; i++)
		kp_node_free(w->own_nodes.items[i]);
	for (size_t i = 0; i < w->own_ncs.count; i++)
		kp_nodeclaim_free(w->own_ncs.items[i]);
	for (size_t i = 0; i < w->own_pods.count; i++)
		kp_pod_free(w->own_pods.items[i]);
	kp__ptrs *all[] = { &w->nodes, &w->ncs, &w->pods, &w->own_nodes, &w->own_ncs, &w->own_pods };
	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		kp__free(all[i]->items);
	kp__map_free(&w->resv);
	kp__free(w->resv_left);
}

static int work_sync(work *w)
{
	w->spec.nodes = (const kp_node *const *)w->nodes.items;
	w->spec.n_nodes = w->nodes.count;
	w->spec.nodeclaims = (const kp_nodeclaim *const *)w->ncs.items;
	w->spec.n_nodeclaims = w->ncs.count;
	w->spec.pods = (const kp_pod *const *)w->pods.items;
	w->spec.n_pods = w->pods.count;
	return KP_OK;
}

static int work_init(work *w, const kp_cluster_spec *spec)
{
	memset(w, 0, sizeof(*w));
	w->spec = *spec; /* read with its size by kp_disruption_run */
	for (size_t i = 0; i < spec->n_nodes; i++)
		if (kp__ptrs_push(&w->nodes, KP__DMUT(spec->nodes[i])))
			return KP_ENOMEM;
	for (size_t i = 0; i < spec->n_nodeclaims; i++)
		if (kp__ptrs_push(&w->ncs, KP__DMUT(spec->nodeclaims[i])))
			return KP_ENOMEM;
	for (size_t i = 0; i < spec->n_pods; i++)
		if (kp__ptrs_push(&w->pods, KP__DMUT(spec->pods[i])))
			return KP_ENOMEM;
	return work_sync(w);
}

static void drop(kp__ptrs *v, const void *p)
{
	size_t k = 0;
	for (size_t i = 0; i < v->count; i++)
		if (v->items[i] != p)
			v->items[k++] = v->items[i];
	v->count = k;
}

/* The replacement's status once launched, registered and initialized at
 * now, with its provider ID and node name: built as structs and copied by
 * the library (no text in between). */
static int launched_status(work *w, kp_nodeclaim *nc, const char *name, const char *pid,
			   kp_error *err)
{
	static const char *const types[] = { "Launched", "Registered", "Initialized" };
	kp_condition conds[3], *ptrs[3];
	for (size_t i = 0; i < 3; i++) {
		kp_condition c = KP_CONDITION_INIT;
		c.type = types[i];
		c.status = "True";
		c.reason = types[i];
		c.message = "";
		c.last_transition_time_ms = w->spec.now_ms;
		conds[i] = c;
		ptrs[i] = &conds[i];
	}
	kp_nodeclaim_status st = KP_NODECLAIM_STATUS_INIT;
	st.provider_id = pid;
	st.node_name = name;
	st.conditions = ptrs;
	st.n_conditions = 3;
	kp_nodeclaim view = *nc;
	view.status = &st;
	kp_nodeclaim *copy = NULL;
	int rc = kp_nodeclaim_copy(&copy, &view, err);
	if (rc)
		return rc;
	kp_nodeclaim_status *old = nc->status;
	nc->status = copy->status;
	copy->status = old;
	kp_nodeclaim_free(copy);
	return KP_OK;
}

/* The replacement's Node: registered and initialized, Ready, with the
 * NodeClaim's labels and the instance type's capacity and allocatable. */
static int launched_node(work *w, const kp_nodeclaim *nc, const kp_instance_type *it,
			 const char *name, const char *pid, kp_node **out, kp_error *err)
{
	kp_object_meta meta = KP_OBJECT_META_INIT;
	meta.name = name;
	kp_node_spec spec = KP_NODE_SPEC_INIT;
	spec.provider_id = pid;
	kp_condition ready = KP_CONDITION_INIT, *ready_ptr = &ready;
	ready.type = "Ready";
	ready.status = "True";
	ready.last_transition_time_ms = w->spec.now_ms;
	kp_node_status st = KP_NODE_STATUS_INIT;
	if (it && it->capacity)
		st.capacity = *it->capacity;
	if (it && it->allocatable)
		st.allocatable = *it->allocatable;
	st.conditions = &ready_ptr;
	st.n_conditions = 1;
	kp_node view = KP_NODE_INIT;
	view.metadata = &meta;
	view.spec = &spec;
	view.status = &st;
	kp_node *node = NULL;
	int rc = kp_object_copy((void **)&node, KP_KIND_NODE, &view, err);
	if (rc)
		return rc;
	kp_labels *l = &node->metadata->labels;
	rc = kp_labels_set(l, KP_LABEL_HOSTNAME, name, err);
	const kp_labels *ncl = nc->metadata ? &nc->metadata->labels : NULL;
	for (size_t i = 0; rc == KP_OK && ncl && i < ncl->count; i++)
		if (strcmp(ncl->items[i].key, KP_LABEL_HOSTNAME))
			rc = kp_labels_set(l, ncl->items[i].key, ncl->items[i].value, err);
	if (rc == KP_OK)
		rc = kp_labels_set(l, KP_LABEL_NODE_REGISTERED, "true", err);
	if (rc == KP_OK)
		rc = kp_labels_set(l, KP_LABEL_NODE_INITIALIZED, "true", err);
	if (rc) {
		kp_node_free(node);
		return rc;
	}
	*out = node;
	return KP_OK;
}

/* The replacement launched, registered and initialized at now. */
static int launch(work *w, const kp_disruption_replacement *x, const kp_instance_type *it,
		  kp_error *err)
{
	kp_nodeclaim *nc = NULL;
	int rc = kp_nodeclaim_copy(&nc, x->nodeclaim, err);
	if (rc)
		return rc;
	if (kp__ptrs_push(&w->own_ncs, nc)) {
		kp_nodeclaim_free(nc);
		return KP_ENOMEM;
	}
	/* the labels the provider's Create puts on it: the instance type's
	 * single-valued requirements (arch, os, family ...) */
	size_t nr = it ? kp_requirements_count(it->requirements) : 0;
	for (size_t i = 0; i < nr && nc->metadata; i++) {
		kp_requirement *q = kp_requirements_at(it->requirements, i);
		if (kp_requirement_operator(q) != KP_SELECTOR_OP_IN || kp_requirement_value_count(q) != 1 ||
		    kp_labels_get(&nc->metadata->labels, kp_requirement_key(q)))
			continue;
		rc = kp_labels_set(&nc->metadata->labels, kp_requirement_key(q), kp_requirement_value_at(q, 0),
				   err);
		if (rc)
			return rc;
	}
	const char *name = nc->metadata && nc->metadata->name ? nc->metadata->name : "replacement";
	char *pid = kp__strdup_printf("disrupt://%s", name);
	if (!pid)
		return kp__error(err, KP_ENOMEM, NULL, "out of memory");
	kp_node *node = NULL;
	rc = launched_status(w, nc, name, pid, err);
	if (rc == KP_OK)
		rc = launched_node(w, nc, it, name, pid, &node, err);
	kp__free(pid);
	if (rc)
		return rc;
	if (kp__ptrs_push(&w->own_nodes, node)) {
		kp_node_free(node);
		return KP_ENOMEM;
	}
	if (kp__ptrs_push(&w->ncs, nc) || kp__ptrs_push(&w->nodes, node))
		return KP_ENOMEM;
	return KP_OK;
}

/* The pods of the work cluster by "namespace/name" (the first of a key). */
static int pod_index(const work *w, kp__map *m)
{
	for (size_t i = 0; i < w->pods.count; i++) {
		const kp_pod *p = w->pods.items[i];
		const kp_object_meta *pm = p ? p->metadata : NULL;
		if (!pm || !pm->name)
			continue;
		char *k = kp__strdup_printf("%s/%s", pm->namespace_ && *pm->namespace_ ? pm->namespace_
										 : "default",
					    pm->name);
		int rc = k ? kp__map_put(m, k, strlen(k), (uint32_t)i, NULL, NULL) : KP_ENOMEM;
		kp__free(k);
		if (rc)
			return rc;
	}
	return KP_OK;
}

static int move_pod(work *w, const kp__map *idx, const kp_disruption_move *m, kp_error *err)
{
	const char *to = m->node ? m->node : m->nodeclaim;
	char *key = kp__strdup_printf("%s/%s", m->namespace_, m->name);
	if (!key)
		return KP_ENOMEM;
	uint32_t at;
	int found = kp__map_gets(idx, key, &at);
	kp__free(key);
	if (!found)
		return KP_OK;
	kp_pod *p = w->pods.items[at];
	if (!to) {
		w->pods.items[at] = NULL;
		return KP_OK;
	}
	kp_pod *c = NULL;
	int rc = kp_pod_copy(&c, p, err);
	if (rc)
		return rc;
	if (kp__ptrs_push(&w->own_pods, c)) {
		kp_pod_free(c);
		return KP_ENOMEM;
	}
	char *nn = kp__strdup(to);
	if (!nn || !c->spec) {
		kp__free(nn);
		return KP_ENOMEM;
	}
	kp__free(KP__DMUT(c->spec->node_name));
	c->spec->node_name = nn;
	w->pods.items[at] = c;
	return KP_OK;
}

/*
 * Reservations across passes. A pass's snapshot counts the instances each
 * reservation has left from the catalogue, as the provider reported them
 * before the run. Between passes, what an applied command launched into a
 * reservation takes one instance (never below zero) and a reserved
 * candidate it removed gives its reservation one back, as upstream AWS's
 * capacity reservation provider counts a launch (MarkLaunched) and a
 * termination (MarkTerminated); the next pass's snapshot starts from those
 * counts (resv_restore).
 */
static int resv_slot(work *w, const kp_cluster *c, size_t r, size_t *slot)
{
	const char *id = kp__cluster_reservation_id(c, r);
	uint32_t at;
	int inserted = 0;
	if (kp__map_put(&w->resv, id, strlen(id), (uint32_t)w->n_resv, &at, &inserted))
		return KP_ENOMEM;
	if (inserted) {
		if (kp__grow((void **)&w->resv_left, &w->cap_resv, w->n_resv + 1,
			     sizeof(*w->resv_left)))
			return KP_ENOMEM; /* the map's entry is never read past n_resv */
		w->resv_left[w->n_resv++] = kp__cluster_reservation_left(c, r);
	}
	*slot = at;
	return KP_OK;
}

static int resv_count(work *w, const kp__dstate *st, const kp__cmd *cmd)
{
	const kp_cluster *c = st->cluster;
	size_t n = c ? kp__cluster_reservation_count(c) : 0;
	if (!n)
		return KP_OK;
	kp__map ids = { 0 };
	int rc = KP_OK;
	for (size_t r = 0; r < n && rc == KP_OK; r++) {
		const char *id = kp__cluster_reservation_id(c, r);
		if (kp__map_put(&ids, id, strlen(id), (uint32_t)r, NULL, NULL))
			rc = KP_ENOMEM;
	}
	size_t slot;
	uint32_t r;
	for (size_t i = 0; rc == KP_OK && i < cmd->repl_ofs.count; i++) {
		const kp_offering *of = cmd->repl_ofs.items[i];
		if (!of || !of->capacity_type || strcmp(of->capacity_type, KP_CAPACITY_TYPE_RESERVED) ||
		    !kp__map_gets(&ids, of->reservation_id ? of->reservation_id : "", &r))
			continue;
		if ((rc = resv_slot(w, c, r, &slot)) == KP_OK && w->resv_left[slot] > 0)
			w->resv_left[slot]--;
	}
	/* a candidate's reservation: the value, on it, of a reservation label
	 * key (a provider uses one: the distinct keys, once) that names one */
	kp__map keys = { 0 };
	const char **key_list = rc == KP_OK ? kp__calloc(n, sizeof(*key_list)) : NULL;
	size_t n_keys = 0;
	if (rc == KP_OK && !key_list)
		rc = KP_ENOMEM;
	for (size_t k = 0; rc == KP_OK && k < n; k++) {
		const char *key = kp__cluster_reservation_key(c, k);
		int inserted = 0;
		if (key && kp__map_put(&keys, key, strlen(key), 0, NULL, &inserted))
			rc = KP_ENOMEM;
		else if (key && inserted)
			key_list[n_keys++] = key;
	}
	for (size_t i = 0; rc == KP_OK && i < cmd->n_dn; i++) {
		const kp__dnode *d = cmd->dn[i];
		if (!d->labels || !d->ct || strcmp(d->ct, KP_CAPACITY_TYPE_RESERVED))
			continue;
		for (size_t k = 0; rc == KP_OK && k < n_keys; k++) {
			const char *v = kp_labels_get(d->labels, key_list[k]);
			if (!v || !kp__map_gets(&ids, v, &r))
				continue;
			if ((rc = resv_slot(w, c, r, &slot)) == KP_OK)
				w->resv_left[slot]++;
			break;
		}
	}
	kp__free(KP__DMUT(key_list));
	kp__map_free(&keys);
	kp__map_free(&ids);
	return rc;
}

static void resv_restore(const work *w, kp_cluster *c)
{
	size_t n = w->n_resv ? kp__cluster_reservation_count(c) : 0;
	for (size_t r = 0; r < n; r++) {
		uint32_t slot;
		if (kp__map_gets(&w->resv, kp__cluster_reservation_id(c, r), &slot) &&
		    slot < w->n_resv)
			kp__cluster_reservation_set_left(c, r, w->resv_left[slot]);
	}
}

static int apply(work *w, kp__dstate *st, const kp__cmd *cmd, kp_error *err)
{
	int rc = resv_count(w, st, cmd);
	for (size_t i = 0; rc == KP_OK && i < cmd->n_dn; i++) {
		drop(&w->nodes, cmd->dn[i]->node);
		drop(&w->ncs, cmd->dn[i]->nc);
	}
	for (size_t i = 0; rc == KP_OK && i < cmd->pub.n_replacements; i++) {
		const kp_disruption_replacement *x = cmd->pub.replacements[i];
		const kp_instance_type *it = NULL;
		for (size_t p = 0; p < st->spec->n_nodepools && !it; p++) {
			const kp_object_meta *m = st->spec->nodepools[p]->metadata;
			if (m && m->name && x->nodepool && !strcmp(m->name, x->nodepool) &&
			    st->spec->instance_types && st->spec->instance_types[p])
				it = kp_instance_types_find(st->spec->instance_types[p], x->instance_type);
		}
		rc = launch(w, x, it, err);
	}
	kp__map idx = { 0 };
	if (rc == KP_OK && cmd->pub.n_moves)
		rc = pod_index(w, &idx);
	for (size_t i = 0; rc == KP_OK && i < cmd->pub.n_moves; i++)
		rc = move_pod(w, &idx, cmd->pub.moves[i], err);
	kp__map_free(&idx);
	/* pods left on the removed nodes (DaemonSet pods ...) go with them */
	for (size_t i = 0; rc == KP_OK && i < cmd->n_dn; i++)
		for (size_t p = 0; p < cmd->dn[i]->n_pods; p++)
			drop(&w->pods, cmd->dn[i]->pods[p]);
	drop(&w->pods, NULL);
	work_sync(w);
	return rc;
}

/* ------------------------------------------------------------------ */
/* The loop                                                            */

static int check_opts(const kp_disruption_options *o, kp_error *err)
{
	if (o->feature_gates & ~KP_FEATURE_GATES_ALL)
		return kp__error(err, KP_EINVAL, "feature_gates", "unknown feature gates 0x%x",
				 o->feature_gates & ~KP_FEATURE_GATES_ALL);
	if (o->flags & ~(uint32_t)(KP_DISRUPTION_F_CONVERGE | KP_DISRUPTION_F_NO_EXPLAIN))
		return kp__error(err, KP_EINVAL, "flags", "unknown flags 0x%x", o->flags);
	return KP_OK;
}

/* The API server stores no object without a name, and the passes key
 * nodes, NodeClaims and NodePools by it (a nameless Node would have no
 * name to sort or report by). */
static int check_named(const void *const *objs, size_t n, const char *field, const char *kind,
		       kp_error *err)
{
	for (size_t i = 0; i < n; i++) {
		/* every modelled kind starts with struct_size, kind, apiVersion, metadata */
		const struct {
			uint32_t struct_size, kind;
			const char *api_version;
			const kp_object_meta *metadata;
		} *h = objs[i];
		if (h && (!h->metadata || !h->metadata->name || !*h->metadata->name)) {
			char path[64]; /* a constant name and an index: bounded */
			snprintf(path, sizeof(path), "%s[%zu].metadata.name", field, i);
			return kp__error(err, KP_EINVAL, path, "%s has no name", kind);
		}
	}
	return KP_OK;
}

static int check_names(const kp_cluster_spec *s, kp_error *err)
{
	int rc = check_named((const void *const *)s->nodepools, s->n_nodepools, "nodepools",
			     "NodePool", err);
	if (rc == KP_OK)
		rc = check_named((const void *const *)s->nodeclaims, s->n_nodeclaims, "nodeclaims",
				 "NodeClaim", err);
	if (rc == KP_OK)
		rc = check_named((const void *const *)s->nodes, s->n_nodes, "nodes", "Node", err);
	return rc;
}

KP_EXPORT int kp_disruption_run(kp_disruption_result **out, const kp_cluster_spec *spec,
				const kp_disruption_options *opts, kp_error *err)
{
	if (!out || !spec)
		return kp__error(err, KP_EINVAL, NULL, "NULL argument");
	*out = NULL;
	/* Callers' structs read with their recorded size (lib/common/sized.h):
	 * an older, shorter struct is served with a zero tail. */
	kp_disruption_options o = KP_DISRUPTION_OPTIONS_INIT;
	if (opts) {
		int rc = KP__READ_SIZED(&o, opts, kp_disruption_options, err);
		if (rc == KP_OK)
			rc = check_opts(&o, err);
		if (rc)
			return rc;
	}
	kp_cluster_spec cs;
	int src = KP__READ_SIZED(&cs, spec, kp_cluster_spec, err);
	if (src == KP_OK)
		src = check_names(&cs, err);
	if (src)
		return src;
	spec = &cs;
	kp_disruption_result *r = kp__calloc(1, sizeof(*r));
	work w;
	int rc = r ? work_init(&w, spec) : KP_ENOMEM;
	size_t limit = o.max_passes ? o.max_passes : 1;
	if (o.flags & KP_DISRUPTION_F_CONVERGE) {
		size_t bound = spec->n_nodes + spec->n_nodeclaims + 1;
		limit = o.max_passes && o.max_passes < bound ? o.max_passes : bound;
	}
	for (size_t pass = 1; rc == KP_OK && pass <= limit; pass++) {
		kp__dstate st;
		uint32_t explain = pass == 1 && !(o.flags & KP_DISRUPTION_F_NO_EXPLAIN);
		rc = kp__dstate_build(&st, &w.spec, &o, explain, err);
		if (rc == KP_OK && st.cluster) {
			resv_restore(&w, st.cluster);
			if (kp__dstate_reservations(&st))
				rc = KP_ENOMEM;
		}
		kp__cmd *cmd = NULL;
		if (rc == KP_OK)
			rc = kp__methods_run(&st, (uint32_t)pass, &cmd, err);
		if (rc == KP_OK && pass == 1) {
			if (explain)
				rc = explain_nodes(r, &st);
			else
				rc = budgets_only(r, &st);
			r->before = cluster_cost(&st);
		}
		if (rc == KP_OK)
			r->after = cluster_cost(&st);
		if (rc && cmd) {
			kp__cmd_free(cmd);
			cmd = NULL;
		}
		if (rc == KP_OK && cmd) {
			rc = kp__ptrs_push(&r->cmds, cmd);
			if (rc)
				kp__cmd_free(cmd);
			else if (pass < limit)
				rc = apply(&w, &st, cmd, err);
			if (rc == KP_OK) {
				for (size_t i = 0; i < cmd->n_dn; i++)
					r->after -= cmd->dn[i]->price;
				for (size_t i = 0; i < cmd->pub.n_replacements; i++)
					r->after += cmd->pub.replacements[i]->price;
			}
			/* the candidates' state is gone with the pass */
			if (rc == KP_OK) {
				kp__free(cmd->dn);
				cmd->dn = NULL;
				cmd->n_dn = 0;
			}
		}
		kp__dstate_free(&st); /* whatever the build got to */
		if (!cmd)
			break;
	}
	if (r)
		work_free(&w);
	if (rc) {
		if (rc == KP_ENOMEM)
			kp__error(err, rc, NULL, "out of memory");
		kp_disruption_result_free(r);
		return rc;
	}
	*out = r;
	return KP_OK;
}

/* ------------------------------------------------------------------ */
/* Accessors                                                           */

KP_EXPORT size_t kp_disruption_result_command_count(const kp_disruption_result *r)
{
	return r ? r->cmds.count : 0;
}

KP_EXPORT const kp_disruption_command *kp_disruption_result_command_at(const kp_disruption_result *r,
								    size_t i)
{
	return r && i < r->cmds.count ? &((const kp__cmd *)r->cmds.items[i])->pub : NULL;
}

KP_EXPORT size_t kp_disruption_result_node_count(const kp_disruption_result *r)
{
	return r ? r->n_nodes : 0;
}

KP_EXPORT const kp_disruption_node *kp_disruption_result_node_at(const kp_disruption_result *r,
							      size_t i)
{
	return r && i < r->n_nodes ? &r->nodes[i] : NULL;
}

KP_EXPORT size_t kp_disruption_result_budget_count(const kp_disruption_result *r)
{
	return r ? r->n_budgets : 0;
}

KP_EXPORT const kp_disruption_budget_status *
kp_disruption_result_budget_at(const kp_disruption_result *r, size_t i)
{
	return r && i < r->n_budgets ? &r->budgets[i] : NULL;
}

KP_EXPORT void kp_disruption_result_cost(const kp_disruption_result *r, double *before,
					 double *after)
{
	if (before)
		*before = r ? r->before : 0;
	if (after)
		*after = r ? r->after : 0;
}
