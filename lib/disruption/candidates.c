/*
 * libkarpenter disruption: the cluster as upstream's cluster state sees it
 * (Nodes paired with their NodeClaims by provider ID, their pods), the
 * candidate filters of both disruption classes with upstream's messages,
 * emptiness, eviction costs, drift and the budgets of the pass.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <karpenter/duration.h>
#include <karpenter/hash.h>
#include <karpenter/labels.h>
#include <karpenter/taints.h>

#include "disruption_private.h"
#include "state/state.h"

int kp__dwhy(kp__dstate *st, kp__dnode *n, uint32_t code, uint32_t method, const char *f, ...)
{
	if (!st->explain)
		return KP_OK;
	for (size_t i = 0; i < n->why.count; i++) {
		const kp_disruption_why *w = n->why.items[i];
		if (w->code == code && w->method == method)
			return KP_OK; /* one reason per code and method */
	}
	kp_disruption_why *w = kp__calloc(1, sizeof(*w));
	if (!w)
		return KP_ENOMEM;
	w->struct_size = sizeof(*w);
	w->code = code;
	w->method = method;
	va_list ap;
	va_start(ap, f);
	char *m = kp__strdup_vprintf(f, ap);
	va_end(ap);
	w->message = m;
	if (!m || kp__ptrs_push(&n->why, w)) {
		kp__free(m);
		kp__free(w);
		return KP_ENOMEM;
	}
	return KP_OK;
}

/* ------------------------------------------------------------------ */
/* Small object helpers                                                */

static const char *meta_name(const kp_object_meta *m)
{
	return m && m->name ? m->name : "";
}

static const char *annotation(const kp_object_meta *m, const char *key)
{
	return m ? kp_labels_get(&m->annotations, key) : NULL;
}

/* pod rules: lib/state (state.h) */

static int pod_evictable(const kp_pod *p, int64_t now_ms)
{
	return kp__pod_active(p) && !kp__pod_tolerates_disrupted(p) && !kp__pod_mirror(p) &&
	       !kp__pod_do_not_disrupt(p, now_ms);
}

static int pod_not_ready(const kp_pod *p)
{
	/* podutil.IsPodReady reads the first Ready condition */
	const kp_condition *c =
		p->status ? kp_condition_find(p->status->conditions, p->status->n_conditions, "Ready")
			  : NULL;
	return c && c->status && !strcmp(c->status, "False");
}

/* upstream disruptionutils.EvictionCost */
static double eviction_cost(const kp_pod *p)
{
	double cost = 1.0;
	const char *dc = annotation(p->metadata, "controller.kubernetes.io/pod-deletion-cost");
	if (dc && *dc) {
		char *end = NULL;
		double v = strtod(dc, &end);
		if (end && !*end && isfinite(v))
			cost += v / 134217728.0; /* 2^27 */
	}
	if (p->spec && p->spec->has_priority)
		cost += (double)p->spec->priority / 33554432.0; /* 2^25 */
	return cost < -10.0 ? -10.0 : cost > 10.0 ? 10.0 : cost;
}

/* ------------------------------------------------------------------ */
/* Pairing                                                             */

static int cmp_pod_node(const void *a, const void *b)
{
	const kp_pod *x = *(const kp_pod *const *)a, *y = *(const kp_pod *const *)b;
	return strcmp(x->spec->node_name, y->spec->node_name);
}

static const kp_nodepool *find_pool(const kp_cluster_spec *s, const char *name, size_t *idx)
{
	for (size_t i = 0; name && i < s->n_nodepools; i++) {
		if (s->nodepools[i] && !strcmp(meta_name(s->nodepools[i]->metadata), name)) {
			*idx = i;
			return s->nodepools[i];
		}
	}
	return NULL;
}

static int node_ready(const kp_node *n)
{
	const kp_condition *c = n && n->status ? kp_condition_find(n->status->conditions,
								   n->status->n_conditions, "Ready")
					       : NULL;
	return c && c->status && !strcmp(c->status, "True");
}

static int cond_is_true(const kp_nodeclaim *nc, const char *type)
{
	const kp_condition *c = kp__nc_condition(nc, type);
	return c && c->status && !strcmp(c->status, "True");
}

static void resolve_type(kp__dstate *st, kp__dnode *d)
{
	const kp_labels *l = d->labels;
	d->it_name = l ? kp_labels_get(l, KP_LABEL_INSTANCE_TYPE) : NULL;
	d->zone = l ? kp_labels_get(l, KP_LABEL_TOPOLOGY_ZONE) : NULL;
	d->ct = l ? kp_labels_get(l, KP_LABEL_CAPACITY_TYPE) : NULL;
	d->pool_name = l ? kp_labels_get(l, KP_LABEL_NODEPOOL) : NULL;
	if (!d->pool_name && d->nc && d->nc->metadata)
		d->pool_name = kp_labels_get(&d->nc->metadata->labels, KP_LABEL_NODEPOOL);
	d->np = find_pool(st->spec, d->pool_name, &d->pool);
	if (!d->np || !st->spec->instance_types || !st->spec->instance_types[d->pool] || !d->it_name)
		return;
	d->it = kp_instance_types_find(st->spec->instance_types[d->pool], d->it_name);
	if (!d->it)
		return;
	for (size_t i = 0; i < d->it->n_offerings; i++) {
		const kp_offering *o = d->it->offerings[i];
		if (o->zone && o->capacity_type && d->zone && d->ct && !strcmp(o->zone, d->zone) &&
		    !strcmp(o->capacity_type, d->ct)) {
			d->price = isnan(o->price) ? 0 : o->price;
			break;
		}
	}
}

static int pair_nodes(kp__dstate *st)
{
	const kp_cluster_spec *s = st->spec;
	st->nodes = kp__calloc(s->n_nodes + s->n_nodeclaims + 1, sizeof(*st->nodes));
	if (!st->nodes)
		return KP_ENOMEM;
	/* lib/state's pairing, as the snapshot's */
	const char **pids = kp__calloc(s->n_nodes + 1, sizeof(*pids));
	size_t *nc_of = kp__calloc(s->n_nodes + 1, sizeof(*nc_of));
	size_t *node_of = kp__calloc(s->n_nodeclaims + 1, sizeof(*node_of));
	int rc = pids && nc_of && node_of ? KP_OK : KP_ENOMEM;
	for (size_t j = 0; rc == KP_OK && j < s->n_nodes; j++) {
		const kp_node *n = s->nodes[j];
		pids[j] = n && n->spec ? n->spec->provider_id : NULL;
	}
	if (rc == KP_OK)
		rc = kp__state_pair(nc_of, NULL, pids, s->n_nodes, s->nodeclaims, s->n_nodeclaims);
	for (size_t i = 0; rc == KP_OK && i < s->n_nodeclaims; i++)
		node_of[i] = KP__STATE_NONE;
	for (size_t j = 0; rc == KP_OK && j < s->n_nodes; j++)
		if (nc_of[j] != KP__STATE_NONE)
			node_of[nc_of[j]] = j;
	for (size_t i = 0; rc == KP_OK && i < s->n_nodeclaims; i++) {
		const kp_nodeclaim *nc = s->nodeclaims[i];
		if (!nc)
			continue;
		kp__dnode *d = &st->nodes[st->n_nodes++];
		d->nc = nc;
		d->nc_name = meta_name(nc->metadata);
		if (node_of[i] != KP__STATE_NONE)
			d->node = s->nodes[node_of[i]];
	}
	for (size_t j = 0; rc == KP_OK && j < s->n_nodes; j++)
		if (nc_of[j] == KP__STATE_NONE && s->nodes[j])
			st->nodes[st->n_nodes++].node = s->nodes[j];
	kp__free(pids);
	kp__free(nc_of);
	kp__free(node_of);
	if (rc != KP_OK)
		return rc;
	for (size_t i = 0; i < st->n_nodes; i++) {
		kp__dnode *d = &st->nodes[i];
		d->node_name = d->node ? meta_name(d->node->metadata) : NULL;
		d->name = d->node_name ? d->node_name
			  : d->nc->status && d->nc->status->node_name ? d->nc->status->node_name
								       : d->nc_name;
		d->labels = d->node && d->node->metadata ? &d->node->metadata->labels
			    : d->nc->metadata ? &d->nc->metadata->labels : NULL;
		d->managed = d->nc != NULL;
		/* upstream StateNode.Initialized and Deleted (lib/state), as the
		 * snapshot reads them */
		d->initialized = d->nc && kp__state_initialized(d->node, d->nc);
		d->terminating = d->nc && cond_is_true(d->nc, "InstanceTerminating");
		d->deleting = kp__state_deleting(d->node, d->nc);
		d->ready = node_ready(d->node);
		resolve_type(st, d);
	}
	return KP_OK;
}

static int cmp_dnode(const void *a, const void *b)
{
	const kp__dnode *x = a, *y = b;
	return strcmp(x->name, y->name);
}

static int assign_pods(kp__dstate *st)
{
	const kp_cluster_spec *s = st->spec;
	const kp_pod **bound = kp__calloc(s->n_pods + 1, sizeof(*bound));
	size_t nb = 0;
	if (!bound)
		return KP_ENOMEM;
	for (size_t i = 0; i < s->n_pods; i++)
		if (s->pods[i] && s->pods[i]->spec && s->pods[i]->spec->node_name &&
		    *s->pods[i]->spec->node_name)
			bound[nb++] = s->pods[i];
	qsort(bound, nb, sizeof(*bound), cmp_pod_node);
	int rc = KP_OK;
	for (size_t i = 0; i < st->n_nodes && rc == KP_OK; i++) {
		kp__dnode *d = &st->nodes[i];
		if (!d->node)
			continue;
		size_t lo = 0, hi = nb;
		while (lo < hi) {
			size_t mid = (lo + hi) / 2;
			if (strcmp(bound[mid]->spec->node_name, d->node_name) < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		size_t end = lo;
		while (end < nb && !strcmp(bound[end]->spec->node_name, d->node_name))
			end++;
		d->n_pods = end - lo;
		d->pods = kp__calloc(d->n_pods + 1, sizeof(*d->pods));
		d->resched = kp__calloc(d->n_pods + 1, sizeof(*d->resched));
		if (!d->pods || !d->resched) {
			rc = KP_ENOMEM;
			break;
		}
		d->resched_cost = 1.0;
		for (size_t k = lo; k < end; k++) {
			const kp_pod *p = bound[k];
			d->pods[k - lo] = p;
			d->disruption_cost += eviction_cost(p);
			if (kp__pod_reschedulable(p)) {
				d->resched[d->n_resched++] = p;
				double c = eviction_cost(p);
				d->resched_cost += c > 0 ? c : 0;
			}
		}
	}
	kp__free(bound);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Candidate filters                                                   */

/* upstream ValidateNodeDisruptable: 0 or a code with *msg */
static uint32_t node_block(const kp__dnode *d, char **msg)
{
	if (!d->nc) {
		*msg = kp__strdup_printf("node isn't managed by karpenter");
		return KP_BLOCK_UNMANAGED;
	}
	if (!d->node) {
		*msg = kp__strdup_printf("nodeclaim does not have an associated node");
		return KP_BLOCK_NOT_INITIALIZED;
	}
	if (!d->initialized) {
		*msg = kp__strdup_printf("node isn't initialized");
		return KP_BLOCK_NOT_INITIALIZED;
	}
	if (d->deleting) {
		*msg = kp__strdup_printf("node is deleting or marked for deletion");
		return KP_BLOCK_DELETING;
	}
	const char *dnd = annotation(d->node->metadata, KP_ANNOTATION_DO_NOT_DISRUPT);
	if (dnd && !strcmp(dnd, "true")) {
		*msg = kp__strdup_printf("disruption is blocked through the \"%s\" annotation",
			   KP_ANNOTATION_DO_NOT_DISRUPT);
		return KP_BLOCK_DO_NOT_DISRUPT;
	}
	if (!d->pool_name) {
		*msg = kp__strdup_printf("node doesn't have required label (label=%s)", KP_LABEL_NODEPOOL);
		return KP_BLOCK_NODEPOOL_NOT_FOUND;
	}
	if (!d->np) {
		*msg = kp__strdup_printf("NodePool not found (NodePool=%s)", d->pool_name);
		return KP_BLOCK_NODEPOOL_NOT_FOUND;
	}
	return KP_BLOCK_NONE;
}

/* The PDB that selects an evictable pod, or NULL with *n the count (an
 * unhealthy pod a PDB lets go with AlwaysAllow counts as selected by none). */
static const kp_pdb *pdb_of(const kp__dstate *st, const kp_pod *p, size_t *n, size_t first[2])
{
	const kp_cluster_spec *s = st->spec;
	*n = 0;
	if (!pod_evictable(p, st->now_ms))
		return NULL;
	*n = kp__pdbs_selecting(&st->pdbs, p, first);
	if (*n != 1)
		return NULL;
	const kp_pdb *b = s->pdbs[first[0]];
	int always = b->spec && b->spec->unhealthy_pod_eviction_policy &&
		     !strcmp(b->spec->unhealthy_pod_eviction_policy, "AlwaysAllow");
	if (always && pod_not_ready(p)) {
		*n = 0;
		return NULL;
	}
	return b;
}

/* The PDBs that select a pod (upstream pdb.Limits.isEvictable). */
static uint32_t pdb_block(kp__dstate *st, const kp_pod *p, char **msg)
{
	size_t n, first[2];
	const kp_pdb *b = pdb_of(st, p, &n, first);
	if (n > 1) {
		const kp_pdb *m0 = st->spec->pdbs[first[0]], *m1 = st->spec->pdbs[first[1]];
		*msg = kp__strdup_printf("eviction does not support multiple PDBs (PodDisruptionBudget(s)=[%s/%s %s/%s%s], Pod=%s/%s)",
			   kp__object_namespace(m0->metadata), meta_name(m0->metadata),
			   kp__object_namespace(m1->metadata), meta_name(m1->metadata),
			   n > 2 ? " ..." : "", kp__object_namespace(p->metadata), meta_name(p->metadata));
		return KP_BLOCK_PDB;
	}
	/* a PDB the controller has not written status to yet allows nothing
	 * (upstream reads the zero value) */
	if (b && (!b->status || b->status->disruptions_allowed <= 0)) {
		*msg = kp__strdup_printf("pdb prevents pod evictions (PodDisruptionBudget=[%s/%s], Pod=%s/%s)",
			   kp__object_namespace(b->metadata), meta_name(b->metadata), kp__object_namespace(p->metadata),
			   meta_name(p->metadata));
		return KP_BLOCK_PDB;
	}
	return KP_BLOCK_NONE;
}

/* upstream pdb.Limits.isFullyBlocked: a PDB that never allows an eviction,
 * or several PDBs. */
static int pdb_fully_blocks(const kp__dstate *st, const kp_pod *p)
{
	size_t n, first[2];
	const kp_pdb *b = pdb_of(st, p, &n, first);
	return n > 1 || (b && kp__pdb_never_allows(b));
}

/* The snapshot's indices of the pass's nodes and pods, once: every
 * simulation of the pass names them by index (sched_index.h). */
static int snapshot_indices(kp__dstate *st)
{
	const kp_cluster *c = st->cluster;
	size_t nn = kp__cluster_node_count(c);
	st->by_snap = kp__calloc(nn + 1, sizeof(*st->by_snap));
	if (!st->by_snap)
		return KP_ENOMEM;
	for (size_t i = 0; i < st->n_nodes; i++) {
		kp__dnode *d = &st->nodes[i];
		d->snap = kp__cluster_node_index(c, d->name);
		if (d->snap < nn)
			st->by_snap[d->snap] = d;
		if (d->n_resched && !(d->resched_ix = kp__calloc(d->n_resched, sizeof(uint32_t))))
			return KP_ENOMEM;
		for (size_t k = 0; k < d->n_resched; k++) {
			const kp_object_meta *m = d->resched[k]->metadata;
			d->resched_ix[k] = kp__cluster_pod_index(c, m ? m->namespace_ : NULL,
								 meta_name(m));
		}
	}
	return KP_OK;
}

/* upstream IsCurrentlyReschedulable, for a reschedulable pod: the pods it
 * fails are left out of every scheduling simulation (SimulateScheduling). */
static int kept_pods(kp__dstate *st, kp__dnode *d)
{
	for (size_t i = 0; i < d->n_resched; i++) {
		const kp_pod *p = d->resched[i];
		if (!(kp__pod_active(p) && kp__pod_do_not_disrupt(p, st->now_ms)) && !pdb_fully_blocks(st, p))
			continue;
		if (!d->kept && !(d->kept = kp__calloc(d->n_resched + 1, sizeof(*d->kept))))
			return KP_ENOMEM;
		if (d->resched_ix[i] != KP__SCHED_NONE)
			d->kept[d->n_kept++] = d->resched_ix[i];
	}
	return KP_OK;
}

/* The indices every simulation of the pass passes on. */
static int sim_lists(kp__dstate *st)
{
	size_t nd = 0;
	for (size_t i = 0; i < st->n_nodes; i++)
		if (st->nodes[i].deleting)
			nd += st->nodes[i].n_kept;
	st->closed = kp__calloc(st->n_nodes + 1, sizeof(*st->closed));
	st->deleting_kept = kp__calloc(nd + 1, sizeof(*st->deleting_kept));
	if (!st->closed || !st->deleting_kept)
		return KP_ENOMEM;
	for (size_t i = 0; i < st->n_nodes; i++) {
		const kp__dnode *d = &st->nodes[i];
		/* upstream IsUnderConsolidateAfter */
		if (d->nc && d->np && d->cons_state == KP_CONSOLIDATABLE_WAITING && !d->deleting &&
		    d->snap != KP__SCHED_NONE)
			st->closed[st->n_closed++] = d->snap;
		for (size_t k = 0; d->deleting && k < d->n_kept; k++)
			st->deleting_kept[st->n_deleting_kept++] = d->kept[k];
	}
	return KP_OK;
}

/* upstream ValidatePodsDisruptable: do-not-disrupt pods first, then PDBs */
static uint32_t pods_block(kp__dstate *st, const kp__dnode *d, char **msg)
{
	for (size_t i = 0; i < d->n_pods; i++) {
		const kp_pod *p = d->pods[i];
		if (kp__pod_active(p) && kp__pod_do_not_disrupt(p, st->now_ms)) {
			*msg = kp__strdup_printf("pod has \"%s\" annotation (Pod=%s/%s)", KP_ANNOTATION_DO_NOT_DISRUPT,
				   kp__object_namespace(p->metadata), meta_name(p->metadata));
			return KP_BLOCK_DO_NOT_DISRUPT;
		}
	}
	for (size_t i = 0; i < d->n_pods; i++) {
		uint32_t c = pdb_block(st, d->pods[i], msg);
		if (c)
			return c;
	}
	return KP_BLOCK_NONE;
}

static int filter_node(kp__dstate *st, kp__dnode *d)
{
	char *msg = NULL;
	uint32_t code = node_block(d, &msg);
	if (code) {
		if (!msg)
			return KP_ENOMEM;
		d->graceful_code = d->eventual_code = code;
		d->graceful_msg = msg;
		d->eventual_msg = kp__strdup(msg);
		return d->eventual_msg ? KP_OK : KP_ENOMEM;
	}
	code = pods_block(st, d, &msg);
	if (!code)
		return KP_OK;
	if (!msg)
		return KP_ENOMEM;
	d->graceful_code = code;
	d->graceful_msg = msg;
	/* eventual class: a NodeClaim with terminationGracePeriod ignores pod blocks */
	if (d->nc->spec && d->nc->spec->termination_grace_period.text)
		return KP_OK;
	d->eventual_code = code;
	d->eventual_msg = kp__strdup(msg);
	return d->eventual_msg ? KP_OK : KP_ENOMEM;
}

/* ------------------------------------------------------------------ */
/* Drift                                                               */

static int drift_of(kp__dstate *st, kp__dnode *d, kp_error *err)
{
	const kp_condition *c = kp__nc_condition(d->nc, "Drifted");
	if (c && c->status && !strcmp(c->status, "True")) {
		d->drifted = 1;
		d->drift_time_ms = c->last_transition_time_ms;
		d->drift_reason = kp__strdup(c->reason ? c->reason : "Drifted");
		d->drift_msg = kp__strdup(c->message && *c->message ? c->message
						: "the input's Drifted condition is True");
		return d->drift_reason && d->drift_msg ? KP_OK : KP_ENOMEM;
	}
	d->drift_time_ms = st->now_ms;
	kp__drift_args a = { d->np, d->nc, st->spec->wellknown,
			     st->spec->instance_types ? st->spec->instance_types[d->pool] : NULL,
			     st->opts->cloudprovider, st->now_ms, 0, &d->drift_later_ms };
	int rc = kp__state_drift(&d->drift_reason, &d->drift_msg, &a, err);
	if (rc == KP_OK && d->drift_reason)
		d->drifted = 1;
	return rc;
}

/* ------------------------------------------------------------------ */
/* Budgets of the pass                                                 */

static int build_budgets(kp__dstate *st)
{
	const kp_cluster_spec *s = st->spec;
	size_t np = s->n_nodepools;
	int64_t *num = kp__calloc(np + 1, sizeof(*num)), *dis = kp__calloc(np + 1, sizeof(*dis));
	st->remaining = kp__calloc(np * KP__N_REASONS + 1, sizeof(*st->remaining));
	st->budgets = kp__calloc(np * KP__N_REASONS + 1, sizeof(*st->budgets));
	st->budget_errors = kp__calloc(np + 1, sizeof(*st->budget_errors));
	if (!num || !dis || !st->remaining || !st->budgets || !st->budget_errors) {
		kp__free(num);
		kp__free(dis);
		return KP_ENOMEM;
	}
	for (size_t i = 0; i < st->n_nodes; i++) {
		const kp__dnode *d = &st->nodes[i];
		if (!d->managed || !d->initialized || d->terminating || !d->np)
			continue;
		num[d->pool]++;
		if (!d->ready || d->deleting)
			dis[d->pool]++;
	}
	int rc = KP_OK;
	for (size_t p = 0; p < np && rc == KP_OK; p++) {
		for (int r = 0; r < KP__N_REASONS; r++) {
			kp_disruption_budget_status *b = &st->budgets[p * KP__N_REASONS + r];
			int64_t allowed = 0;
			kp_error e = KP_ERROR_INIT;
			int br = kp_disruption_budget_allowed(&allowed, s->nodepools[p],
							      kp__disruption_reasons[r], num[p],
							      st->now_ms, &e);
			if (br == KP_EINVAL) {
				rc = br;
				break;
			}
			if (br && !st->budget_errors[p]) {
				st->budget_errors[p] = kp__strdup_printf("%s: %s", e.field, e.message);
				if (!st->budget_errors[p]) {
					rc = KP_ENOMEM;
					break;
				}
			}
			b->struct_size = sizeof(*b);
			b->nodepool = meta_name(s->nodepools[p]->metadata);
			b->reason = kp__disruption_reasons[r];
			b->limited = allowed != KP_DISRUPTION_UNLIMITED;
			b->allowed = allowed;
			b->disrupting = dis[p];
			b->remaining = allowed - dis[p] > 0 ? allowed - dis[p] : 0;
			b->error = st->budget_errors[p];
			st->remaining[p * KP__N_REASONS + r] = b->remaining;
		}
	}
	kp__free(num);
	kp__free(dis);
	return rc;
}

/* ------------------------------------------------------------------ */
/* The pass's state                                                    */

static int node_info(kp__dstate *st, kp__dnode *d, kp_error *err)
{
	int rc = filter_node(st, d);
	if (rc == KP_OK)
		rc = kept_pods(st, d);
	if (rc)
		return rc;
	d->empty = d->resched_cost <= 1.0;
	if (d->nc && d->np) {
		int64_t at = 0;
		rc = kp_disruption_consolidatable(&d->cons_state, &at, d->nc, d->np, st->now_ms, err);
		if (rc)
			return rc;
		d->cons_at_ms = at;
		if (d->nc->status && d->node && cond_is_true(d->nc, "Launched"))
			rc = drift_of(st, d, err);
	}
	return rc;
}

int kp__dstate_build(kp__dstate *st, const kp_cluster_spec *spec,
		     const kp_disruption_options *opts, uint32_t explain, kp_error *err)
{
	memset(st, 0, sizeof(*st));
	st->spec = spec;
	st->opts = opts;
	st->now_ms = spec->now_ms;
	st->explain = explain;
	int rc = kp__pdb_index_init(&st->pdbs, spec->pdbs, spec->n_pdbs);
	if (rc == KP_OK)
		rc = kp_cluster_new(&st->cluster, spec, err);
	if (rc == KP_OK)
		rc = pair_nodes(st);
	if (rc == KP_OK)
		qsort(st->nodes, st->n_nodes, sizeof(*st->nodes), cmp_dnode);
	if (rc == KP_OK)
		rc = assign_pods(st);
	if (rc == KP_OK)
		rc = snapshot_indices(st);
	for (size_t i = 0; rc == KP_OK && i < st->n_nodes; i++)
		rc = node_info(st, &st->nodes[i], err);
	if (rc == KP_OK)
		rc = build_budgets(st);
	if (rc == KP_OK)
		rc = sim_lists(st);
	if (rc == KP_ENOMEM)
		kp__error(err, rc, NULL, "out of memory");
	return rc;
}

int kp__dstate_reservations(kp__dstate *st)
{
	size_t n = st->cluster ? kp__cluster_reservation_count(st->cluster) : 0;
	for (size_t r = 0; r < n; r++) {
		const char *id = kp__cluster_reservation_id(st->cluster, r);
		if (kp__cluster_reservation_left(st->cluster, r) == 0 &&
		    kp__map_put(&st->resv_out, id, strlen(id), 0, NULL, NULL))
			return KP_ENOMEM;
	}
	return KP_OK;
}

int kp__dstate_offering_usable(const kp_offering *of, void *ctx)
{
	const kp__dstate *st = ctx;
	uint32_t v;
	return !of->capacity_type || strcmp(of->capacity_type, KP_CAPACITY_TYPE_RESERVED) ||
	       !kp__map_gets(&st->resv_out, of->reservation_id ? of->reservation_id : "", &v);
}

void kp__dstate_free(kp__dstate *st)
{
	kp__map_free(&st->resv_out);
	kp__pdb_index_dispose(&st->pdbs);
	for (size_t i = 0; i < st->n_nodes; i++) {
		kp__dnode *d = &st->nodes[i];
		kp__free(KP__DMUT(d->pods));
		kp__free(KP__DMUT(d->resched));
		kp__free(d->kept);
		kp__free(d->resched_ix);
		kp__free(d->graceful_msg);
		kp__free(d->eventual_msg);
		kp__free(d->drift_reason);
		kp__free(d->drift_msg);
		for (size_t k = 0; k < d->why.count; k++) {
			kp_disruption_why *w = d->why.items[k];
			if (!w)
				continue; /* moved into a result */
			kp__free(KP__DMUT(w->message));
			kp__free(w);
		}
		kp__free(d->why.items);
	}
	kp__free(st->nodes);
	kp__free(st->closed);
	kp__free(st->deleting_kept);
	kp__free(st->by_snap);
	kp__free(st->remaining);
	kp__free(st->budgets);
	for (size_t p = 0; st->budget_errors && p < st->spec->n_nodepools; p++)
		kp__free(st->budget_errors[p]);
	kp__free(st->budget_errors);
	kp_cluster_free(st->cluster);
	memset(st, 0, sizeof(*st));
}
