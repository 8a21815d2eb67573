/*
 * libkarpenter disruption: the methods in upstream main's order
 * (Emptiness, Drift, MultiNodeConsolidation, SingleNodeConsolidation) and
 * their decisions through the scheduling simulation.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <karpenter/labels.h>
#include <karpenter/requirements.h>
#include <karpenter/timestamp.h>

#include "cloudprovider/cloudprovider_private.h"
#include "disruption_private.h"

#define MIN_SPOT_TO_SPOT_OPTIONS 15
#define MULTI_NODE_MAX 100

void kp__cmd_free(kp__cmd *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->cands.count; i++)
		kp__free(c->cands.items[i]);
	for (size_t i = 0; i < c->repls.count; i++)
		kp__free(c->repls.items[i]);
	for (size_t i = 0; i < c->moves.count; i++)
		kp__free(c->moves.items[i]);
	kp__free(c->cands.items);
	kp__free(c->repls.items);
	kp__free(c->moves.items);
	kp__free(c->repl_ofs.items);
	kp__free(c->dn);
	for (size_t i = 0; i < c->n_owned_ncs; i++)
		kp_nodeclaim_free(c->owned_ncs[i]);
	kp__free(c->owned_ncs);
	for (size_t i = 0; i < c->n_strs; i++)
		kp__free(c->strs[i]);
	kp__free(c->strs);
	kp__free(c);
}

char *kp__cmd_strdup(kp__cmd *c, const char *s)
{
	if (!s)
		return NULL;
	if (kp__grow((void **)&c->strs, &c->cap_strs, c->n_strs + 1, sizeof(*c->strs)))
		return NULL;
	char *d = kp__strdup(s);
	if (d)
		c->strs[c->n_strs++] = d;
	return d;
}

/* ------------------------------------------------------------------ */
/* Filters (upstream ShouldDisrupt)                                    */

static const char *pool_name(const kp__dnode *d)
{
	return d->pool_name ? d->pool_name : "";
}

static int disabled(const kp__dnode *d)
{
	const kp_disruption *x = d->np->spec ? d->np->spec->disruption : NULL;
	return !x || !x->consolidate_after.text || x->consolidate_after.never;
}

static int is_static(const kp__dnode *d)
{
	return d->np->spec && d->np->spec->has_replicas;
}

/* upstream's Emptiness, Drift and consolidation skip a static NodePool's
 * nodes (its StaticDrift method is not modelled here) */
static int why_static(kp__dstate *st, kp__dnode *d, uint32_t m)
{
	return kp__dwhy(st, d, KP_BLOCK_STATIC_NODEPOOL, m,
		       m == KP_DISRUPTION_METHOD_DRIFT
			       ? "NodePool \"%s\" is static (spec.replicas): its drifted nodes are replaced by StaticDrift, which is not modelled"
			       : "NodePool \"%s\" is static (spec.replicas): its nodes are not consolidated",
		       pool_name(d));
}

static uint32_t policy(const kp__dnode *d)
{
	const kp_disruption *x = d->np->spec ? d->np->spec->disruption : NULL;
	return x ? x->consolidation_policy_code : 0;
}

static int why_not_consolidatable(kp__dstate *st, kp__dnode *d, uint32_t m)
{
	char when[40] = "";
	if (d->cons_at_ms)
		kp_time_format_rfc3339(d->cons_at_ms, when, sizeof(when));
	if (d->cons_state == KP_CONSOLIDATABLE_WAITING)
		return kp__dwhy(st, d, KP_BLOCK_CONSOLIDATE_AFTER, m,
			       "node is not consolidatable until %s (consolidateAfter %s since its last pod event)",
			       when, d->np->spec->disruption->consolidate_after.text);
	return kp__dwhy(st, d, KP_BLOCK_NOT_INITIALIZED, m, "node isn't initialized");
}

/* The candidate filter of a class; records the reason for method m. */
static int graceful(kp__dstate *st, kp__dnode *d, uint32_t m, int *ok)
{
	*ok = d->graceful_code == 0;
	if (*ok)
		return KP_OK;
	return kp__dwhy(st, d, d->graceful_code, d->graceful_code <= KP_BLOCK_NODEPOOL_NOT_FOUND ||
						d->graceful_code == d->eventual_code ? 0 : m,
		       "%s", d->graceful_msg);
}

static int emptiness_filter(kp__dstate *st, kp__dnode *d, int *ok)
{
	int rc = graceful(st, d, KP_DISRUPTION_METHOD_EMPTINESS, ok);
	if (rc || !*ok)
		return rc;
	*ok = 0;
	uint32_t m = KP_DISRUPTION_METHOD_EMPTINESS;
	if (is_static(d))
		return why_static(st, d, m);
	if (disabled(d))
		return kp__dwhy(st, d, KP_BLOCK_CONSOLIDATION_DISABLED, m,
			       "NodePool \"%s\" has consolidation disabled", pool_name(d));
	if (!d->empty)
		return kp__dwhy(st, d, KP_BLOCK_NOT_EMPTY, m, "node is not empty");
	if (d->cons_state != KP_CONSOLIDATABLE_TRUE)
		return why_not_consolidatable(st, d, m);
	*ok = 1;
	return KP_OK;
}

static int drift_filter(kp__dstate *st, kp__dnode *d, int *ok)
{
	*ok = 0;
	if (d->eventual_code)
		return kp__dwhy(st, d, d->eventual_code,
			       d->eventual_code <= KP_BLOCK_NODEPOOL_NOT_FOUND ||
					       d->eventual_code == d->graceful_code ? 0 : KP_DISRUPTION_METHOD_DRIFT,
			       "%s", d->eventual_msg);
	if (is_static(d))
		return why_static(st, d, KP_DISRUPTION_METHOD_DRIFT);
	if (!d->drifted && d->drift_later_ms) {
		/* upstream checks the instance type only an hour after creation */
		char at[40];
		kp_time_format_rfc3339(d->drift_later_ms, at, sizeof(at));
		return kp__dwhy(st, d, KP_BLOCK_NOT_DRIFTED, KP_DISRUPTION_METHOD_DRIFT,
				"node is not drifted yet: its instance type is no longer offered, "
				"which drifts a NodeClaim once it is an hour old (at %s)", at);
	}
	if (!d->drifted)
		return kp__dwhy(st, d, KP_BLOCK_NOT_DRIFTED, KP_DISRUPTION_METHOD_DRIFT,
			       "node is not drifted");
	*ok = 1;
	return KP_OK;
}

static int consolidation_filter(kp__dstate *st, kp__dnode *d, uint32_t m, int *ok)
{
	int rc = graceful(st, d, m, ok);
	if (rc || !*ok)
		return rc;
	*ok = 0;
	if (is_static(d))
		return why_static(st, d, m);
	if (!d->it)
		return kp__dwhy(st, d, KP_BLOCK_INSTANCE_TYPE_NOT_FOUND, m, "Instance Type \"%s\" not found",
			       d->it_name ? d->it_name : "");
	if (!d->ct)
		return kp__dwhy(st, d, KP_BLOCK_INSTANCE_TYPE_NOT_FOUND, m,
			       "Node does not have label \"%s\"", KP_LABEL_CAPACITY_TYPE);
	if (!d->zone)
		return kp__dwhy(st, d, KP_BLOCK_INSTANCE_TYPE_NOT_FOUND, m,
			       "Node does not have label \"%s\"", KP_LABEL_TOPOLOGY_ZONE);
	if (disabled(d))
		return kp__dwhy(st, d, KP_BLOCK_CONSOLIDATION_DISABLED, m,
			       "NodePool \"%s\" has consolidation disabled", pool_name(d));
	if (d->empty)
		return KP_OK; /* Emptiness handles empty nodes */
	if (policy(d) == KP_CONSOLIDATION_POLICY_WHEN_EMPTY)
		return kp__dwhy(st, d, KP_BLOCK_WHEN_EMPTY, m,
			       "NodePool \"%s\" has consolidation policy WhenEmpty, but node is not empty",
			       pool_name(d));
	if (d->cons_state != KP_CONSOLIDATABLE_TRUE)
		return why_not_consolidatable(st, d, m);
	*ok = 1;
	return KP_OK;
}

static int64_t *budget_of(kp__dstate *st, const kp__dnode *d, int reason)
{
	return &st->remaining[d->pool * KP__N_REASONS + (size_t)reason];
}

static int why_budget(kp__dstate *st, kp__dnode *d, uint32_t m, int reason)
{
	const char *e = st->budget_errors[d->pool];
	if (e)
		return kp__dwhy(st, d, KP_BLOCK_BUDGET, m,
			       "NodePool \"%s\": no disruptions allowed: invalid disruption budget (%s)",
			       pool_name(d), e);
	return kp__dwhy(st, d, KP_BLOCK_BUDGET, m,
		       "NodePool \"%s\": No allowed disruptions for disruption reason %s due to blocking budget",
		       pool_name(d), kp__disruption_reasons[reason]);
}

/* ------------------------------------------------------------------ */
/* Sorting                                                             */

static double ratio(const kp__dnode *d)
{
	return d->price / d->resched_cost;
}

static int cmp_ratio(const void *a, const void *b)
{
	const kp__dnode *x = *(kp__dnode *const *)a, *y = *(kp__dnode *const *)b;
	double rx = ratio(x), ry = ratio(y);
	if (rx != ry)
		return rx > ry ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int cmp_drift(const void *a, const void *b)
{
	const kp__dnode *x = *(kp__dnode *const *)a, *y = *(kp__dnode *const *)b;
	int ex = x->n_resched == 0, ey = y->n_resched == 0;
	if (ex != ey)
		return ex ? -1 : 1;
	if (x->drift_time_ms != y->drift_time_ms)
		return x->drift_time_ms < y->drift_time_ms ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* ------------------------------------------------------------------ */
/* Simulation                                                          */

typedef struct sim {
	kp_sched_result *res;
	uint32_t code;   /* a block code when the candidates' pods do not all fit */
	char *msg;
} sim;

static void sim_free(sim *s)
{
	kp_sched_result_free(s->res);
	kp__free(s->msg);
	memset(s, 0, sizeof(*s));
}

/* A candidate's reschedulable pod: its snapshot index, and its name for
 * the command's moves. */
typedef struct podkey {
	uint32_t ix;
	const char *ns, *name;
	const kp__dnode *from;
} podkey;

static int cmp_podkey(const void *a, const void *b)
{
	const podkey *x = a, *y = b;
	return x->ix < y->ix ? -1 : x->ix > y->ix;
}

static podkey *candidate_pods(kp__dnode *const *c, size_t n, size_t *np)
{
	size_t total = 0;
	for (size_t i = 0; i < n; i++)
		total += c[i]->n_resched;
	podkey *k = kp__calloc(total + 1, sizeof(*k));
	if (!k)
		return NULL;
	size_t j = 0;
	for (size_t i = 0; i < n; i++)
		for (size_t p = 0; p < c[i]->n_resched; p++) {
			if (c[i]->resched_ix[p] == KP__SCHED_NONE)
				continue; /* not in the snapshot: never placed */
			const kp_object_meta *m = c[i]->resched[p]->metadata;
			k[j].ix = c[i]->resched_ix[p];
			k[j].ns = m && m->namespace_ && *m->namespace_ ? m->namespace_ : "default";
			k[j].name = m && m->name ? m->name : "";
			k[j++].from = c[i];
		}
	qsort(k, j, sizeof(*k), cmp_podkey);
	*np = j;
	return k;
}

/* The candidate pod placement @p i of @p res places, or NULL. */
static const podkey *find_podkey(const podkey *k, size_t n, const kp_sched_result *res, size_t i)
{
	podkey key = { kp__sched_result_pod_index(res, i), NULL, NULL, NULL };
	return bsearch(&key, k, n, sizeof(*k), cmp_podkey);
}

static char *unplaced_message(const kp_sched_placement *p)
{
	char codes[256] = "";
	kp__sbuf b = KP__SBUF(codes, sizeof(codes));
	for (size_t r = 0; r < p->n_reasons; r++) {
		const char *name = kp_sched_reason_code_name(p->reasons[r]->code);
		if (strstr(codes, name))
			continue;
		if (b.len)
			kp__sbuf_put(&b, ", ");
		kp__sbuf_put(&b, name);
	}
	kp__sbuf_end(&b);
	const char *first = p->n_reasons && p->reasons[0]->message ? p->reasons[0]->message : "";
	return kp__strdup_printf("pod %s/%s would not schedule (%s): %s", p->namespace_ ? p->namespace_ : "",
		    p->name ? p->name : "", codes, first);
}

/* Check placement @p i, of a candidate's pod; sets s->code/msg on a problem. */
static int check_placement(kp__dstate *st, sim *s, const kp_sched_result *res, size_t i)
{
	const kp_sched_placement *p = kp_sched_result_pod_at(res, i);
	if (p->target == KP_SCHED_UNPLACED) {
		s->code = KP_BLOCK_PODS_WOULD_NOT_SCHEDULE;
		s->msg = unplaced_message(p);
	} else if (p->target == KP_SCHED_INFLIGHT) {
		s->code = KP_BLOCK_UNINITIALIZED_DESTINATION;
		s->msg = kp__strdup_printf("would schedule against uninitialized nodeclaim/%s", p->node);
	} else if (p->target == KP_SCHED_EXISTING_NODE) {
		uint32_t to = kp__sched_result_node_index(res, i);
		kp__dnode *dst = to < kp__cluster_node_count(st->cluster) ? st->by_snap[to] : NULL;
		if (dst && dst->managed && !dst->initialized) {
			s->code = KP_BLOCK_UNINITIALIZED_DESTINATION;
			s->msg = kp__strdup_printf("would schedule against uninitialized nodeclaim/%s, node/%s",
				      dst->nc_name, dst->name);
		}
	}
	if (s->code && !s->msg)
		return KP_ENOMEM;
	return KP_OK;
}

static int simulate(kp__dstate *st, kp__dnode *const *c, size_t n, int consolidation, sim *s,
		    kp_error *err)
{
	memset(s, 0, sizeof(*s));
	size_t n_kept = st->n_deleting_kept;
	for (size_t i = 0; i < n; i++)
		n_kept += c[i]->n_kept;
	uint32_t *removed = kp__calloc(n + 1, sizeof(*removed));
	uint32_t *kept = kp__calloc(n_kept + 1, sizeof(*kept));
	size_t nk = 0, nr = 0;
	podkey *keys = candidate_pods(c, n, &nk);
	if (!removed || !kept || !keys) {
		kp__free(removed);
		kp__free(kept);
		kp__free(keys);
		return kp__error(err, KP_ENOMEM, NULL, "out of memory");
	}
	n_kept = 0;
	for (size_t i = 0; i < n; i++) {
		if (c[i]->snap != KP__SCHED_NONE)
			removed[nr++] = c[i]->snap;
		for (size_t k = 0; k < c[i]->n_kept; k++)
			kept[n_kept++] = c[i]->kept[k];
	}
	for (size_t k = 0; k < st->n_deleting_kept; k++)
		kept[n_kept++] = st->deleting_kept[k];
	/* upstream IsConsolidationSimulation: the candidates' pods do not move
	 * onto a node inside its consolidateAfter window (Drift does not ask) */
	kp__sched_sets sets = { removed, nr, consolidation ? st->closed : NULL,
				consolidation ? st->n_closed : 0, kept, n_kept };
	/* upstream SimulateScheduling's scheduler falls back from reserved
	 * offerings it cannot reserve (only the provisioner is strict) */
	kp_sched_options so = KP_SCHED_OPTIONS_INIT;
	so.reserved_offering_mode = KP_RESERVED_OFFERING_FALLBACK;
	int rc = kp__sched_simulate_sets(&s->res, st->cluster, &so, &sets, err);
	size_t np = kp_sched_result_pod_count(s->res);
	for (size_t i = 0; rc == KP_OK && i < np && !s->code; i++)
		if (find_podkey(keys, nk, s->res, i))
			rc = check_placement(st, s, s->res, i);
	if (rc == KP_ENOMEM)
		kp__error(err, rc, NULL, "out of memory");
	kp__free(removed);
	kp__free(kept);
	kp__free(keys);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Commands                                                            */

static kp__cmd *cmd_new(uint32_t pass, uint32_t method, int reason)
{
	kp__cmd *c = kp__calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->pub.struct_size = sizeof(c->pub);
	c->pub.pass = pass;
	c->pub.method = method;
	c->pub.reason = kp__disruption_reasons[reason];
	c->pub.decision = KP_DISRUPTION_DELETE;
	return c;
}

static int cmd_add_candidates(kp__cmd *c, kp__dnode *const *dn, size_t n)
{
	c->dn = kp__calloc(n + 1, sizeof(*c->dn));
	if (!c->dn)
		return KP_ENOMEM;
	for (size_t i = 0; i < n; i++) {
		const kp__dnode *d = dn[i];
		c->dn[c->n_dn++] = dn[i];
		kp_disruption_candidate *k = kp__calloc(1, sizeof(*k));
		if (!k || kp__ptrs_push(&c->cands, k)) {
			kp__free(k);
			return KP_ENOMEM;
		}
		k->struct_size = sizeof(*k);
		k->nodeclaim = kp__cmd_strdup(c, d->nc_name);
		k->node = kp__cmd_strdup(c, d->name);
		k->nodepool = kp__cmd_strdup(c, d->pool_name);
		k->instance_type = kp__cmd_strdup(c, d->it_name);
		k->zone = kp__cmd_strdup(c, d->zone);
		k->capacity_type = kp__cmd_strdup(c, d->ct);
		k->price = d->price;
		c->pub.savings += d->price;
		if (!k->nodeclaim || !k->node)
			return KP_ENOMEM;
	}
	c->pub.candidates = (const kp_disruption_candidate *const *)c->cands.items;
	c->pub.n_candidates = c->cands.count;
	return KP_OK;
}

static int cmd_add_moves(kp__cmd *c, const kp_sched_result *res)
{
	size_t nk = 0;
	podkey *keys = candidate_pods(c->dn, c->n_dn, &nk);
	if (!keys)
		return KP_ENOMEM;
	int rc = KP_OK;
	size_t np = kp_sched_result_pod_count(res);
	for (size_t i = 0; i < np && rc == KP_OK; i++) {
		const kp_sched_placement *p = kp_sched_result_pod_at(res, i);
		const podkey *k = find_podkey(keys, nk, res, i);
		if (!k)
			continue;
		kp_disruption_move *m = kp__calloc(1, sizeof(*m));
		if (!m || kp__ptrs_push(&c->moves, m)) {
			kp__free(m);
			rc = KP_ENOMEM;
			break;
		}
		m->struct_size = sizeof(*m);
		m->namespace_ = kp__cmd_strdup(c, k->ns);
		m->name = kp__cmd_strdup(c, k->name);
		m->from = kp__cmd_strdup(c, k->from->name);
		if (p->target == KP_SCHED_EXISTING_NODE)
			m->node = kp__cmd_strdup(c, p->node);
		else if (p->target != KP_SCHED_UNPLACED)
			m->nodeclaim = kp__cmd_strdup(c, p->node);
		if (!m->namespace_ || !m->name || !m->from)
			rc = KP_ENOMEM;
	}
	kp__free(keys);
	c->pub.moves = (const kp_disruption_move *const *)c->moves.items;
	c->pub.n_moves = c->moves.count;
	return rc;
}

/* The replacement's instance-type options and requirements. */
typedef struct repl {
	const kp_sched_nodeclaim *snc;
	kp_requirements *reqs;
	const kp_instance_type **its;
	size_t n_its;
	kp_wellknown *wk;
	size_t pool;
	kp__dstate *st; /* the pass (its used-up reservations) */
} repl;

static void repl_free(repl *r)
{
	kp_requirements_free(r->reqs);
	kp__free(KP__DMUT(r->its));
	memset(r, 0, sizeof(*r));
}

static int repl_init(kp__dstate *st, repl *r, const kp_sched_nodeclaim *snc, kp_error *err)
{
	memset(r, 0, sizeof(*r));
	r->snc = snc;
	r->st = st;
	r->wk = st->spec->wellknown;
	const kp_nodeclaim_spec *sp = snc->nodeclaim->spec;
	int rc = kp_requirements_new(&r->reqs, err);
	kp_nodeclaim_requirement *itreq = NULL;
	for (size_t i = 0; rc == KP_OK && sp && i < sp->n_requirements; i++) {
		kp_node_selector_requirement sel;
		kp_node_selector_requirement_init(&sel);
		rc = kp_nodeclaim_requirement_view(sp->requirements[i], &sel, err);
		if (rc == KP_OK)
			rc = kp_requirements_add_selector(r->reqs, &sel, r->wk, err);
		if (sp->requirements[i]->key &&
		    !strcmp(sp->requirements[i]->key, KP_LABEL_INSTANCE_TYPE))
			itreq = sp->requirements[i];
	}
	for (r->pool = 0; r->pool < st->spec->n_nodepools; r->pool++) {
		const kp_object_meta *m = st->spec->nodepools[r->pool]->metadata;
		if (m && m->name && snc->nodepool && !strcmp(m->name, snc->nodepool))
			break;
	}
	kp_instance_types *cat = r->pool < st->spec->n_nodepools && st->spec->instance_types
					 ? st->spec->instance_types[r->pool] : NULL;
	if (rc == KP_OK && itreq && cat) {
		r->its = kp__calloc(itreq->n_values + 1, sizeof(*r->its));
		if (!r->its)
			return kp__error(err, KP_ENOMEM, NULL, "out of memory");
		for (size_t v = 0; v < itreq->n_values; v++) {
			const kp_instance_type *it = kp_instance_types_find(cat, itreq->values[v]);
			if (it)
				r->its[r->n_its++] = it;
		}
		rc = kp_instance_types_order_by_price(r->its, r->n_its, r->reqs, r->wk, err);
	}
	return rc;
}

static int reqs_has(kp_requirements *reqs, const char *key, const char *value)
{
	kp_requirement *q = kp_requirements_get(reqs, key);
	return !q || kp_requirement_has(q, value);
}

static int restrict_spot(repl *r, kp_error *err)
{
	const char *v[] = { "spot" };
	kp_node_selector_requirement sel;
	kp_node_selector_requirement_init(&sel);
	sel.key = KP_LABEL_CAPACITY_TYPE;
	sel.op = KP_SELECTOR_OP_IN;
	sel.values = v;
	sel.n_values = 1;
	return kp_requirements_add_selector(r->reqs, &sel, r->wk, err);
}

/* Keep the options whose worst launch price is below max_price. */
static void filter_price(repl *r, double max_price)
{
	size_t k = 0;
	for (size_t i = 0; i < r->n_its; i++)
		if (kp__worst_launch_price(r->its[i], r->reqs, r->wk, kp__dstate_offering_usable,
					   r->st) < max_price)
			r->its[k++] = r->its[i];
	r->n_its = k;
}

/* Rewrite a requirement of the copy to the given values. */
static int set_values(kp_nodeclaim *nc, const char *key, const char *const *values, size_t n)
{
	kp_nodeclaim_spec *sp = nc->spec;
	for (size_t i = 0; sp && i < sp->n_requirements; i++) {
		kp_nodeclaim_requirement *q = sp->requirements[i];
		if (!q->key || strcmp(q->key, key))
			continue;
		char **nv = kp__calloc(n + 1, sizeof(*nv));
		if (!nv)
			return KP_ENOMEM;
		for (size_t v = 0; v < n; v++)
			if (!(nv[v] = kp__strdup(values[v]))) {
				for (size_t w = 0; w < v; w++)
					kp__free(nv[w]);
				kp__free(nv);
				return KP_ENOMEM;
			}
		for (size_t v = 0; v < q->n_values; v++)
			kp__free(KP__DMUT(q->values[v]));
		kp__free(KP__DMUT(q->values));
		q->values = (const char *const *)nv;
		q->n_values = n;
	}
	return KP_OK;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Whether the replacement may launch as @p of: an offering the pass may
 * use (kp__dstate_offering_usable), and a reserved one only when the
 * replacement holds reservations (its capacity type is reserved only), as
 * the scheduler's launch choice never takes a reservation a NodeClaim does
 * not hold. */
static int launchable(const kp_offering *of, void *ctx)
{
	const repl *r = ctx;
	if (!kp__dstate_offering_usable(of, r->st))
		return 0;
	if (!of->capacity_type || strcmp(of->capacity_type, KP_CAPACITY_TYPE_RESERVED))
		return 1;
	kp_requirement *ct = kp_requirements_get(r->reqs, KP_LABEL_CAPACITY_TYPE);
	return ct && kp_requirement_operator(ct) == KP_SELECTOR_OP_IN &&
	       kp_requirement_value_count(ct) == 1 &&
	       !strcmp(kp_requirement_value_at(ct, 0), KP_CAPACITY_TYPE_RESERVED);
}

/* The replacement as launched: the options kept, the cheapest offering. */
static int cmd_add_replacement(kp__cmd *c, repl *r, int filtered, int spot, kp_error *err)
{
	kp_disruption_replacement *x = kp__calloc(1, sizeof(*x));
	kp_nodeclaim *nc = NULL;
	if (!x || kp__ptrs_push(&c->repls, x)) {
		kp__free(x);
		return kp__error(err, KP_ENOMEM, NULL, "out of memory");
	}
	x->struct_size = sizeof(*x);
	const kp_sched_nodeclaim *snc = r->snc;
	x->nodepool = snc->nodepool;
	x->instance_type = snc->instance_type;
	x->zone = snc->zone;
	x->capacity_type = snc->capacity_type;
	x->price = snc->price;
	const kp_offering *launch_of = snc->offering;
	if (filtered) {
		double best = DBL_MAX;
		for (size_t i = 0; i < r->n_its; i++) {
			const kp_offering *o = kp__cheapest_offering(r->its[i], r->reqs, r->wk,
								     launchable, r);
			if (o && o->price < best) {
				best = o->price;
				x->instance_type = r->its[i]->name;
				x->zone = o->zone;
				x->capacity_type = o->capacity_type;
				x->price = o->price;
				launch_of = o;
			}
		}
	}
	int rc = kp_nodeclaim_copy(&nc, snc->nodeclaim, err);
	if (rc)
		return rc;
	if (kp__grow((void **)&c->owned_ncs, &(size_t){ c->n_owned_ncs }, c->n_owned_ncs + 1,
		     sizeof(*c->owned_ncs))) {
		kp_nodeclaim_free(nc);
		return kp__error(err, KP_ENOMEM, NULL, "out of memory");
	}
	c->owned_ncs[c->n_owned_ncs++] = nc;
	x->nodeclaim = nc;
	if (filtered) {
		const char **names = kp__calloc(r->n_its + 1, sizeof(*names));
		if (!names)
			return kp__error(err, KP_ENOMEM, NULL, "out of memory");
		for (size_t i = 0; i < r->n_its; i++)
			names[i] = r->its[i]->name;
		qsort(names, r->n_its, sizeof(*names), cmp_str);
		rc = set_values(nc, KP_LABEL_INSTANCE_TYPE, names, r->n_its);
		kp__free(KP__DMUT(names));
		static const char *const sv[] = { "spot" };
		if (rc == KP_OK && spot)
			rc = set_values(nc, KP_LABEL_CAPACITY_TYPE, sv, 1);
		if (rc)
			return kp__error(err, rc, NULL, "out of memory");
	}
	if ((rc = kp__sched_launch_labels(nc, x->nodepool, x->instance_type, launch_of, err)))
		return rc;
	if (kp__ptrs_push(&c->repl_ofs, KP__DMUT(launch_of)))
		return kp__error(err, KP_ENOMEM, NULL, "out of memory");
	c->pub.savings -= x->price;
	c->pub.decision = KP_DISRUPTION_REPLACE;
	c->pub.replacements = (const kp_disruption_replacement *const *)c->repls.items;
	c->pub.n_replacements = c->repls.count;
	return KP_OK;
}

/* ------------------------------------------------------------------ */
/* Consolidation (upstream computeConsolidation)                       */

typedef struct verdict {
	uint32_t code;
	char *msg;
} verdict;

static int set_verdict(verdict *v, uint32_t code, char *msg)
{
	v->code = code;
	v->msg = msg;
	return msg ? KP_OK : KP_ENOMEM;
}

/*
 * upstream RemoveInstanceTypeOptionsByPriceAndMinValues: the options whose
 * worst launch price is below max_price, which must still satisfy the
 * replacement's minValues (the price filter can leave fewer distinct values
 * than a requirement asks for); then at least one must be left. *ok 1 to
 * go on, else 0 with *v saying why.
 */
static int filter_price_min_values(repl *r, double max_price, verdict *v, int *ok, kp_error *err)
{
	*ok = 0;
	filter_price(r, max_price);
	kp_error e = KP_ERROR_INIT;
	int rc = kp_instance_types_satisfies_min_values(NULL, r->its, r->n_its, r->reqs, &e);
	if (rc == KP_EINCOMPATIBLE)
		return set_verdict(v, KP_BLOCK_NO_CHEAPER_REPLACEMENT,
				   kp__strdup_printf("Filtering by price: %s", e.message));
	if (rc)
		return kp__error(err, rc, e.field, "%s", e.message);
	if (!r->n_its)
		return set_verdict(v, KP_BLOCK_NO_CHEAPER_REPLACEMENT,
				   kp__strdup("Can't replace with a cheaper node"));
	*ok = 1;
	return KP_OK;
}

/* Spot-to-spot (upstream computeSpotToSpotConsolidation). 1 = command. */
static int spot_to_spot(kp__dstate *st, repl *r, size_t n, double price, verdict *v, int *ok,
			kp_error *err)
{
	*ok = 0;
	if (!(st->opts->feature_gates & KP_FEATURE_GATE_SPOT_TO_SPOT_CONSOLIDATION))
		return set_verdict(v, KP_BLOCK_SPOT_TO_SPOT,
				   kp__strdup("SpotToSpotConsolidation is disabled, can't replace a spot node with a spot node"));
	int rc = restrict_spot(r, err);
	if (rc)
		return rc;
	r->n_its = kp_instance_types_filter_compatible(r->its, r->n_its, r->reqs, r->wk);
	if ((rc = filter_price_min_values(r, price, v, ok, err)) || !*ok)
		return rc;
	*ok = 0;
	if (n > 1) { /* no flexibility to keep for several candidates */
		*ok = 1;
		return KP_OK;
	}
	if (r->n_its < MIN_SPOT_TO_SPOT_OPTIONS) {
		char m[200];
		snprintf(m, sizeof(m),
			 "SpotToSpotConsolidation requires %d cheaper instance type options than the current candidate to consolidate, got %zu",
			 MIN_SPOT_TO_SPOT_OPTIONS, r->n_its);
		return set_verdict(v, KP_BLOCK_SPOT_TO_SPOT, kp__strdup(m));
	}
	/* the cheapest max(15, the options minValues needs): a launch then
	 * lands on one of them and is not consolidated again at once */
	size_t keep = MIN_SPOT_TO_SPOT_OPTIONS, need = 0;
	kp_error e = KP_ERROR_INIT;
	rc = kp_instance_types_satisfies_min_values(&need, r->its, r->n_its, r->reqs, &e);
	if (rc && rc != KP_EINCOMPATIBLE)
		return kp__error(err, rc, e.field, "%s", e.message);
	if (need > keep)
		keep = need;
	if (r->n_its > keep)
		r->n_its = keep;
	*ok = 1;
	return KP_OK;
}

/* upstream filterOutSameInstanceType (multi-node replacements) */
static int filter_same_type(kp__dstate *st, repl *r, kp__dnode *const *c, size_t n, verdict *v,
			    int *ok, kp_error *err)
{
	/* the cheapest offering of each candidate whose instance type is
	 * still an option, computed once per candidate */
	double max_price = DBL_MAX;
	for (size_t k = 0; k < n; k++) {
		size_t i = 0;
		while (i < r->n_its && strcmp(c[k]->it->name, r->its[i]->name))
			i++;
		if (i == r->n_its)
			continue;
		kp_requirements *lr = NULL;
		int rc = kp_requirements_from_labels(&lr, c[k]->labels, st->spec->wellknown, err);
		if (rc)
			return rc;
		const kp_offering *o = kp_instance_type_cheapest_offering(c[k]->it, lr,
									  st->spec->wellknown);
		kp_requirements_free(lr);
		if (o && o->price < max_price)
			max_price = o->price;
	}
	return filter_price_min_values(r, max_price, v, ok, err);
}

/* One consolidation attempt: *out is a command or NULL with *v set. */
static int consolidate(kp__dstate *st, uint32_t pass, uint32_t method, kp__dnode *const *c,
		       size_t n, kp__cmd **out, verdict *v, kp_error *err)
{
	*out = NULL;
	memset(v, 0, sizeof(*v));
	sim s;
	repl r;
	memset(&r, 0, sizeof(r));
	int rc = simulate(st, c, n, 1, &s, err);
	if (rc)
		goto done;
	if (s.code) {
		v->code = s.code;
		v->msg = s.msg;
		s.msg = NULL;
		goto done;
	}
	size_t nn = kp_sched_result_nodeclaim_count(s.res);
	int filtered = 0, spot = 0;
	if (nn > 1) {
		char m[96];
		snprintf(m, sizeof(m), "Can't remove without creating %zu candidates", nn);
		rc = set_verdict(v, KP_BLOCK_MULTIPLE_REPLACEMENTS, kp__strdup(m));
		goto done;
	}
	if (nn == 1) {
		double price = 0;
		int all_spot = 1;
		for (size_t i = 0; i < n; i++) {
			price += c[i]->price;
			all_spot &= c[i]->ct && !strcmp(c[i]->ct, "spot");
		}
		if ((rc = repl_init(st, &r, kp_sched_result_nodeclaim_at(s.res, 0), err)))
			goto done;
		filtered = 1;
		if (all_spot && reqs_has(r.reqs, KP_LABEL_CAPACITY_TYPE, "spot")) {
			int ok = 0;
			rc = spot_to_spot(st, &r, n, price, v, &ok, err);
			if (rc || !ok)
				goto done;
			spot = 1;
		} else {
			int ok = 0;
			rc = filter_price_min_values(&r, price, v, &ok, err);
			if (rc || !ok)
				goto done;
			if (reqs_has(r.reqs, KP_LABEL_CAPACITY_TYPE, "spot") &&
			    reqs_has(r.reqs, KP_LABEL_CAPACITY_TYPE, "on-demand")) {
				spot = 1;
				if ((rc = restrict_spot(&r, err)))
					goto done;
			}
		}
		if (n > 1) {
			int ok = 0;
			rc = filter_same_type(st, &r, c, n, v, &ok, err);
			if (rc || !ok)
				goto done;
		}
	}
	kp__cmd *cmd = cmd_new(pass, method, KP__R_UNDERUTILIZED);
	if (!cmd || cmd_add_candidates(cmd, c, n) || cmd_add_moves(cmd, s.res)) {
		kp__cmd_free(cmd);
		rc = kp__error(err, KP_ENOMEM, NULL, "out of memory");
		goto done;
	}
	if (nn == 1 && (rc = cmd_add_replacement(cmd, &r, filtered, spot, err))) {
		kp__cmd_free(cmd);
		goto done;
	}
	*out = cmd;
done:
	repl_free(&r);
	sim_free(&s);
	if (rc == KP_ENOMEM)
		kp__error(err, rc, NULL, "out of memory");
	return rc;
}

/* ------------------------------------------------------------------ */
/* The methods                                                         */

typedef int (*filter_fn)(kp__dstate *st, kp__dnode *d, int *ok);

static int multi_filter(kp__dstate *st, kp__dnode *d, int *ok)
{
	return consolidation_filter(st, d, KP_DISRUPTION_METHOD_MULTI_NODE, ok);
}

static int single_filter(kp__dstate *st, kp__dnode *d, int *ok)
{
	return consolidation_filter(st, d, KP_DISRUPTION_METHOD_SINGLE_NODE, ok);
}

static int candidates_of(kp__dstate *st, filter_fn f, kp__dnode ***out, size_t *n)
{
	*n = 0;
	*out = kp__calloc(st->n_nodes + 1, sizeof(**out));
	if (!*out)
		return KP_ENOMEM;
	for (size_t i = 0; i < st->n_nodes; i++) {
		int ok = 0;
		int rc = f(st, &st->nodes[i], &ok);
		if (rc)
			return rc;
		if (ok)
			(*out)[(*n)++] = &st->nodes[i];
	}
	return KP_OK;
}

static int emptiness(kp__dstate *st, uint32_t pass, kp__cmd **out, kp_error *err)
{
	(void)err;
	kp__dnode **c = NULL;
	size_t n = 0;
	int rc = candidates_of(st, emptiness_filter, &c, &n);
	if (rc == KP_OK)
		qsort(c, n, sizeof(*c), cmp_ratio);
	size_t k = 0;
	for (size_t i = 0; rc == KP_OK && i < n; i++) {
		int64_t *b = budget_of(st, c[i], KP__R_EMPTY);
		if (*b <= 0) {
			rc = why_budget(st, c[i], KP_DISRUPTION_METHOD_EMPTINESS, KP__R_EMPTY);
			continue;
		}
		(*b)--;
		c[k++] = c[i];
	}
	if (rc == KP_OK && k) {
		kp__cmd *cmd = cmd_new(pass, KP_DISRUPTION_METHOD_EMPTINESS, KP__R_EMPTY);
		if (!cmd || cmd_add_candidates(cmd, c, k))
			rc = KP_ENOMEM;
		if (rc)
			kp__cmd_free(cmd);
		else
			*out = cmd;
	}
	kp__free(c);
	return rc;
}

/* Replacement strings borrowed from a simulation result are copied so the
 * command outlives it. */
static int own_strings(kp__cmd *cmd)
{
	for (size_t j = 0; cmd && j < cmd->repls.count; j++) {
		kp_disruption_replacement *x = cmd->repls.items[j];
		x->nodepool = kp__cmd_strdup(cmd, x->nodepool);
		x->instance_type = kp__cmd_strdup(cmd, x->instance_type);
		x->zone = kp__cmd_strdup(cmd, x->zone);
		x->capacity_type = kp__cmd_strdup(cmd, x->capacity_type);
		if (!x->nodepool || !x->instance_type)
			return KP_ENOMEM;
	}
	return KP_OK;
}

static int drift(kp__dstate *st, uint32_t pass, kp__cmd **out, kp_error *err)
{
	kp__dnode **c = NULL;
	size_t n = 0;
	int rc = candidates_of(st, drift_filter, &c, &n);
	if (rc == KP_OK)
		qsort(c, n, sizeof(*c), cmp_drift);
	for (size_t i = 0; rc == KP_OK && i < n; i++) {
		uint32_t m = KP_DISRUPTION_METHOD_DRIFT;
		if (*budget_of(st, c[i], KP__R_DRIFTED) <= 0) {
			rc = why_budget(st, c[i], m, KP__R_DRIFTED);
			continue;
		}
		if (*out) {
			rc = kp__dwhy(st, c[i], KP_BLOCK_OTHER_COMMAND, m,
				     "one drift command per pass: node %s goes first", (*out)->pub.candidates[0]->node);
			continue;
		}
		sim s;
		if ((rc = simulate(st, &c[i], 1, 0, &s, err)))
			break;
		if (s.code) {
			rc = kp__dwhy(st, c[i], s.code, m, "%s", s.msg);
			sim_free(&s);
			continue;
		}
		kp__cmd *cmd = cmd_new(pass, m, KP__R_DRIFTED);
		rc = !cmd || cmd_add_candidates(cmd, &c[i], 1) || cmd_add_moves(cmd, s.res) ? KP_ENOMEM : KP_OK;
		size_t nn = kp_sched_result_nodeclaim_count(s.res);
		for (size_t j = 0; rc == KP_OK && j < nn; j++) {
			repl r;
			memset(&r, 0, sizeof(r));
			r.snc = kp_sched_result_nodeclaim_at(s.res, j);
			rc = cmd_add_replacement(cmd, &r, 0, 0, err);
		}
		if (rc == KP_OK)
			rc = own_strings(cmd);
		sim_free(&s);
		if (rc)
			kp__cmd_free(cmd);
		else
			*out = cmd;
	}
	kp__free(c);
	return rc;
}

static int multi(kp__dstate *st, uint32_t pass, kp__cmd **out, kp_error *err)
{
	kp__dnode **c = NULL;
	size_t n = 0, k = 0;
	int rc = candidates_of(st, multi_filter, &c, &n);
	if (rc == KP_OK)
		qsort(c, n, sizeof(*c), cmp_ratio);
	int64_t *saved = kp__calloc(st->spec->n_nodepools * KP__N_REASONS + 1, sizeof(*saved));
	if (!saved)
		rc = KP_ENOMEM;
	else
		memcpy(saved, st->remaining, st->spec->n_nodepools * KP__N_REASONS * sizeof(*saved));
	for (size_t i = 0; rc == KP_OK && i < n; i++) {
		int64_t *b = budget_of(st, c[i], KP__R_UNDERUTILIZED);
		if (*b <= 0) {
			rc = why_budget(st, c[i], KP_DISRUPTION_METHOD_MULTI_NODE, KP__R_UNDERUTILIZED);
			continue;
		}
		(*b)--;
		c[k++] = c[i];
	}
	if (saved) /* the decrements only shape this method's batch */
		memcpy(st->remaining, saved, st->spec->n_nodepools * KP__N_REASONS * sizeof(*saved));
	kp__free(saved);
	kp__cmd *best = NULL;
	if (rc == KP_OK && k >= 2) {
		size_t lo = 1, hi = k <= MULTI_NODE_MAX ? k - 1 : MULTI_NODE_MAX;
		while (lo <= hi && rc == KP_OK) {
			size_t mid = (lo + hi) / 2;
			kp__cmd *cmd = NULL;
			verdict v;
			rc = consolidate(st, pass, KP_DISRUPTION_METHOD_MULTI_NODE, c, mid + 1, &cmd, &v, err);
			kp__free(v.msg);
			if (rc == KP_OK && cmd) {
				kp__cmd_free(best);
				best = cmd;
				lo = mid + 1;
			} else {
				kp__cmd_free(cmd);
				if (mid == 0)
					break;
				hi = mid - 1;
			}
		}
	}
	if (rc == KP_OK && best)
		rc = own_strings(best);
	/* explain the batch's candidates that the command does not take */
	for (size_t i = 0; rc == KP_OK && st->explain && i < k; i++) {
		int in = 0;
		for (size_t j = 0; best && j < best->n_dn && !in; j++)
			in = best->dn[j] == c[i];
		if (in)
			continue;
		if (k < 2)
			rc = kp__dwhy(st, c[i], KP_BLOCK_OTHER_COMMAND, KP_DISRUPTION_METHOD_MULTI_NODE,
				      "multi-node consolidation needs at least two candidates within the budgets");
		else if (!best)
			rc = kp__dwhy(st, c[i], KP_BLOCK_OTHER_COMMAND, KP_DISRUPTION_METHOD_MULTI_NODE,
				      "no batch of the first 2 to %zu candidates (by savings per disruption cost) consolidates together",
				      k <= MULTI_NODE_MAX ? k : (size_t)MULTI_NODE_MAX + 1);
		else
			rc = kp__dwhy(st, c[i], KP_BLOCK_OTHER_COMMAND, KP_DISRUPTION_METHOD_MULTI_NODE,
				      "outside the largest batch that consolidates together (its first %zu candidates)",
				      best->n_dn);
	}
	if (rc == KP_OK && best)
		*out = best;
	else
		kp__cmd_free(best);
	kp__free(c);
	return rc;
}

static int cmp_pool_then_rank(const void *a, const void *b)
{
	const kp__dnode *x = *(kp__dnode *const *)a, *y = *(kp__dnode *const *)b;
	return strcmp(x->pool_name, y->pool_name);
}

/* Round-robin across NodePools (by name), each in ratio order. */
static int interleave(kp__dnode **c, size_t n)
{
	kp__dnode **by_pool = kp__calloc(n + 1, sizeof(*by_pool));
	size_t *start = kp__calloc(n + 2, sizeof(*start));
	if (!by_pool || !start) {
		kp__free(by_pool);
		kp__free(start);
		return KP_ENOMEM;
	}
	memcpy(by_pool, c, n * sizeof(*c));
	/* stable grouping: insertion sort keeps the ratio order inside a pool */
	for (size_t i = 1; i < n; i++) {
		kp__dnode *x = by_pool[i];
		size_t j = i;
		while (j > 0 && cmp_pool_then_rank(&by_pool[j - 1], &x) > 0) {
			by_pool[j] = by_pool[j - 1];
			j--;
		}
		by_pool[j] = x;
	}
	size_t groups = 0;
	for (size_t i = 0; i < n; i++)
		if (i == 0 || strcmp(by_pool[i - 1]->pool_name, by_pool[i]->pool_name))
			start[groups++] = i;
	start[groups] = n;
	size_t k = 0;
	for (size_t round = 0; k < n; round++)
		for (size_t g = 0; g < groups; g++)
			if (start[g] + round < start[g + 1])
				c[k++] = by_pool[start[g] + round];
	kp__free(by_pool);
	kp__free(start);
	return KP_OK;
}

static int single(kp__dstate *st, uint32_t pass, kp__cmd **out, kp_error *err)
{
	kp__dnode **c = NULL;
	size_t n = 0;
	int rc = candidates_of(st, single_filter, &c, &n);
	if (rc == KP_OK) {
		qsort(c, n, sizeof(*c), cmp_ratio);
		rc = interleave(c, n);
	}
	uint32_t m = KP_DISRUPTION_METHOD_SINGLE_NODE;
	for (size_t i = 0; rc == KP_OK && i < n; i++) {
		if (*budget_of(st, c[i], KP__R_UNDERUTILIZED) <= 0) {
			rc = why_budget(st, c[i], m, KP__R_UNDERUTILIZED);
			continue;
		}
		if (*out && !st->explain)
			break;
		kp__cmd *cmd = NULL;
		verdict v;
		rc = consolidate(st, pass, m, &c[i], 1, &cmd, &v, err);
		if (rc == KP_OK && !cmd && v.code)
			rc = kp__dwhy(st, c[i], v.code, m, "%s", v.msg);
		kp__free(v.msg);
		if (rc == KP_OK && cmd && *out)
			rc = kp__dwhy(st, c[i], KP_BLOCK_OTHER_COMMAND, m,
				     "could be consolidated (%s), but node %s goes first in this pass",
				     kp_disruption_decision_name(cmd->pub.decision),
				     (*out)->pub.candidates[0]->node);
		if (rc == KP_OK && cmd && !*out) {
			rc = own_strings(cmd);
			if (rc == KP_OK) {
				*out = cmd;
				cmd = NULL;
			}
		}
		kp__cmd_free(cmd);
	}
	kp__free(c);
	return rc;
}

int kp__methods_run(kp__dstate *st, uint32_t pass, kp__cmd **out, kp_error *err)
{
	static int (*const methods[])(kp__dstate *, uint32_t, kp__cmd **, kp_error *) = {
		emptiness, drift, multi, single,
	};
	*out = NULL;
	size_t nb = st->spec->n_nodepools * KP__N_REASONS;
	int64_t *saved = kp__calloc(nb + 1, sizeof(*saved));
	if (!saved)
		return kp__error(err, KP_ENOMEM, NULL, "out of memory");
	memcpy(saved, st->remaining, nb * sizeof(*saved));
	for (size_t i = 0; i < sizeof(methods) / sizeof(methods[0]); i++) {
		kp__cmd *cmd = NULL;
		/* each method starts from the pass's budgets (upstream builds
		 * the mapping per method) */
		memcpy(st->remaining, saved, nb * sizeof(*saved));
		int rc = methods[i](st, pass, &cmd, err);
		if (rc) {
			kp__cmd_free(cmd);
			kp__cmd_free(*out);
			*out = NULL;
			if (rc == KP_ENOMEM)
				kp__error(err, rc, NULL, "out of memory");
			kp__free(saved);
			return rc;
		}
		if (cmd && !*out) {
			*out = cmd;
			continue;
		}
		/* a later method's command loses to the pass's command */
		for (size_t k = 0; cmd && k < cmd->n_dn; k++) {
			int r = kp__dwhy(st, cmd->dn[k], KP_BLOCK_OTHER_COMMAND, cmd->pub.method,
					 "%s would %s it, but %s's command goes first in this pass",
					 kp_disruption_method_name(cmd->pub.method),
					 kp_disruption_decision_name(cmd->pub.decision),
					 kp_disruption_method_name((*out)->pub.method));
			if (r) {
				kp__cmd_free(cmd);
				kp__cmd_free(*out);
				*out = NULL;
				kp__free(saved);
				return kp__error(err, r, NULL, "out of memory");
			}
		}
		kp__cmd_free(cmd);
		if (*out && !st->explain)
			break;
	}
	kp__free(saved);
	return KP_OK;
}
