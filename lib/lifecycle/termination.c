/*
 * lib/lifecycle: the termination finalizers. nodeclaim.lifecycle's
 * finalize (termination-timestamp annotation, Nodes first, the provider's
 * delete until not found) and node.termination (disrupted taint, drain in
 * four tiers with PDBs and terminationGracePeriod, minimum drain time,
 * volumes, instance termination, finalizer), as upstream
 * kubernetes-sigs/karpenter pkg/controllers/nodeclaim/lifecycle and
 * pkg/controllers/node/termination decide them.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <karpenter/duration.h>
#include <karpenter/timestamp.h>
#include <karpenter/wellknown.h>

#include "common/sized.h"
#include "lifecycle_private.h"
#include "state/state.h"

#define NC_CTRL KP_LIFECYCLE_CONTROLLER_NODECLAIM_LIFECYCLE
#define NODE_CTRL KP_LIFECYCLE_CONTROLLER_NODE_TERMINATION
#define MIN_DRAIN_MS 5000
#define STUCK_TERMINATING_MS 60000
#define LB_EXCLUDE_LABEL "node.kubernetes.io/exclude-from-external-load-balancers"

static int oom(kp_error *err)
{
	return kp__error(err, KP_ENOMEM, NULL, "out of memory");
}

static int act_simple(kp_lifecycle_result *r, uint32_t verb, uint32_t kind, const char *ctrl,
		      const char *ns, const char *name, const char *reason, const char *message,
		      const void *object, kp_error *err)
{
	kp__lc_act a = { 0 };
	a.verb = verb;
	a.kind = kind;
	a.controller = ctrl;
	a.namespace_ = ns;
	a.name = name;
	a.reason = reason;
	a.message = message;
	a.object = object;
	return kp__lc_action(r, &a, err);
}

/* Go's time.RFC3339: seconds, "Z". */
static void format_rfc3339_s(int64_t ms, char *buf, size_t size)
{
	int64_t s = ms / 1000 * 1000;
	if (ms < 0 && ms % 1000)
		s -= 1000;
	kp_time_format_rfc3339(s, buf, size);
}

/* ------------------------------------------------------------------ */
/* NodeClaim finalizer                                                 */

static int annotate_termination_time(kp_lifecycle_result *r, kp__arena *a, kp__ncv *v,
				     const kp_nodeclaim *nc, kp_error *err)
{
	if (kp_labels_get(&nc->metadata->annotations, KP_ANNOTATION_NODECLAIM_TERMINATION_TIMESTAMP))
		return KP_OK;
	const kp_api_duration *tgp = nc->spec ? &nc->spec->termination_grace_period : NULL;
	if (!tgp || !tgp->parsed)
		return KP_OK;
	char when[KP_TIME_BUF_SIZE];
	format_rfc3339_s(nc->metadata->deletion_timestamp_ms + tgp->ns / 1000000, when,
			 sizeof(when));
	char *w = kp__lc_strdup(a, when);
	if (!w || kp__labels_put(a, &v->meta.annotations,
				 KP_ANNOTATION_NODECLAIM_TERMINATION_TIMESTAMP, w) < 0)
		return oom(err);
	const char *msg = kp__arena_printf(a, "annotated nodeclaim %s=%s (deletionTimestamp + "
					"terminationGracePeriod %s)",
					KP_ANNOTATION_NODECLAIM_TERMINATION_TIMESTAMP, when,
					tgp->text ? tgp->text : "");
	const char *ev = kp__arena_printf(a, "All pods will be deleted by %s", when);
	if (!msg || !ev)
		return oom(err);
	kp__lc_act x = { 0 };
	x.verb = KP_LIFECYCLE_VERB_PATCH;
	x.kind = KP_KIND_NODECLAIM;
	x.controller = NC_CTRL;
	x.namespace_ = v->meta.namespace_;
	x.name = v->meta.name;
	x.reason = KP__LCR_TERMINATION_GRACE;
	x.message = msg;
	x.object = &v->nc;
	x.ev_type = "Warning";
	x.ev_reason = "TerminationGracePeriodExpiring";
	x.ev_message = ev;
	return kp__lc_action(r, &x, err);
}

/* Registered NodeClaim: its Nodes go first. Returns 1 while Nodes remain. */
static int delete_nodes_first(kp_lifecycle_result *r, const kp__lc_in *in,
			      const kp_nodeclaim *nc, kp_error *err)
{
	const kp_nodeclaim_status *s = nc->status;
	if (!s || !kp__cond_is(s->conditions, s->n_conditions, "Registered", KP__COND_TRUE) ||
	    !s->provider_id || !*s->provider_id)
		return 0;
	int found = 0;
	kp__lc_iter it;
	kp__lc_iter_init(&it, r, in, KP__ITER_PID_NODES, s->provider_id);
	for (const kp_node *n; (n = kp__lc_iter_next(&it)) != NULL;) {
		if (!n->metadata)
			continue;
		found = 1;
		if (n->metadata->deletion_timestamp_ms)
			continue;
		char *msg = kp__strdup_printf("deleting Node %s before the instance of NodeClaim %s",
					      kp__meta_name(n->metadata), nc->metadata->name);
		int rc = msg ? act_simple(r, KP_LIFECYCLE_VERB_DELETE, KP_KIND_NODE, NC_CTRL, NULL,
					  n->metadata->name, KP__LCR_NODE_DELETE, msg,
					  NULL, err)
			     : oom(err);
		kp__free(msg);
		if (rc)
			return rc;
	}
	return found;
}

/* The provider's delete: KP_OK with *gone = 1 when not found (terminated),
 * 0 while terminating. */
static int provider_delete(kp_lifecycle_result *r, const kp__lc_in *in,
			   const kp_nodeclaim *nc, const char *ctrl, int *gone, kp_error *err)
{
	kp_error perr = KP_ERROR_INIT;
	int rc = kp_cloudprovider_delete(in->provider, nc, &perr);
	if (rc != KP_OK && rc != KP_ENOTFOUND) {
		if (err)
			*err = perr;
		return rc;
	}
	*gone = rc == KP_ENOTFOUND;
	char *msg = kp__strdup_printf(*gone ? "instance %s no longer exists"
					    : "terminating instance %s",
				      nc->status->provider_id);
	if (!msg)
		return oom(err);
	rc = act_simple(r, KP_LIFECYCLE_VERB_PROVIDER_DELETE, KP_KIND_NODECLAIM, ctrl,
			nc->metadata->namespace_, nc->metadata->name,
			KP__LCR_INSTANCE_TERMINATING, msg, NULL, err);
	kp__free(msg);
	return rc;
}

static int remove_nc_finalizer(kp_lifecycle_result *r, kp__arena *a, kp__ncv *v, kp_error *err)
{
	if (kp__remove_finalizer(a, &v->meta, KP_FINALIZER_TERMINATION) < 0)
		return oom(err);
	const char *labels[] = { "nodepool", kp__nc_label(&v->nc, KP_LABEL_NODEPOOL),
				 "capacity_type", kp__nc_label(&v->nc, KP_LABEL_CAPACITY_TYPE),
				 "zone", kp__nc_label(&v->nc, KP_LABEL_TOPOLOGY_ZONE), NULL };
	kp__lc_act x = { 0 };
	x.verb = KP_LIFECYCLE_VERB_PATCH;
	x.kind = KP_KIND_NODECLAIM;
	x.controller = NC_CTRL;
	x.namespace_ = v->meta.namespace_;
	x.name = v->meta.name;
	x.reason = KP__LCR_FINALIZER_REMOVED;
	x.message = "deleted nodeclaim: finalizer karpenter.sh/termination removed";
	x.object = &v->nc;
	x.metric = "karpenter_nodeclaims_terminated_total";
	x.metric_labels = labels;
	return kp__lc_action(r, &x, err);
}

static int finalize_instance(kp_lifecycle_result *r, const kp__lc_in *in, kp__arena *a,
			     kp__ncv *v, int *done, kp_error *err)
{
	*done = 1;
	if (!v->status.provider_id || !*v->status.provider_id)
		return KP_OK; /* never launched: released without the provider */
	*done = 0;
	if (!in->provider)
		return KP_OK;
	int gone = 0;
	int rc = provider_delete(r, in, &v->nc, NC_CTRL, &gone, err);
	if (rc)
		return rc;
	if (kp__ncv_set(a, v, "InstanceTerminating", KP__COND_TRUE, "InstanceTerminating", "",
		    in->now_ms) < 0)
		return oom(err);
	if (v->status_changed &&
	    (rc = act_simple(r, KP_LIFECYCLE_VERB_UPDATE_STATUS, KP_KIND_NODECLAIM, NC_CTRL,
			     v->meta.namespace_, v->meta.name, KP__LCR_INSTANCE_TERMINATING,
			     "InstanceTerminating=True", &v->nc, err)) != KP_OK)
		return rc;
	if (!gone)
		return kp__lc_requeue(r, KP_KIND_NODECLAIM, NC_CTRL, v->meta.namespace_, v->meta.name,
				      5000, err);
	*done = 1;
	return KP_OK;
}

int kp__lc_nodeclaim_finalize(kp_lifecycle_result *r, const kp__lc_in *in, const kp_nodeclaim *nc,
			      kp_error *err)
{
	if (!kp__has_finalizer(nc->metadata, KP_FINALIZER_TERMINATION))
		return KP_OK;
	kp__arena a = { 0 };
	kp__ncv v;
	kp__ncv_init(&v, nc);
	int done = 0;
	int rc = annotate_termination_time(r, &a, &v, nc, err);
	int nodes = rc ? 0 : delete_nodes_first(r, in, nc, err);
	if (nodes < 0)
		rc = nodes;
	if (rc == KP_OK && nodes == 0)
		rc = finalize_instance(r, in, &a, &v, &done, err);
	if (rc == KP_OK && nodes == 0 && done)
		rc = remove_nc_finalizer(r, &a, &v, err);
	kp__arena_free(&a);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Node termination: pods                                              */

typedef struct node_work {
	const kp__lc_in *in;
	kp_lifecycle_result *r;
	kp__arena arena;
	const kp_node *input;
	kp_node node;
	kp_object_meta meta;
	kp_node_spec spec;
	const kp_nodeclaim *nc_in;
	kp__ncv nc;
	int have_nc;
	int64_t term_ms; /* node termination time, 0 = none */
	int32_t *pdb_used; /* evictions this round per in->pdbs[i] */
	kp__pdb_index pdbs; /* in->pdbs by namespace, built at the first eviction */
	int have_pdbs;
} node_work;

/* pod rules: lib/state (state.h) */

static int64_t pod_deleting(const kp_pod *p)
{
	return p->metadata ? p->metadata->deletion_timestamp_ms : 0;
}

/* IsWaitingEviction: not terminal, drainable. */
static int waiting_eviction(const kp_pod *p, int64_t now)
{
	if (kp__pod_terminal(p) || kp__pod_tolerates_disrupted(p) || kp__pod_mirror(p))
		return 0;
	int64_t del = pod_deleting(p);
	return !(del && now - del > STUCK_TERMINATING_MS);
}

/* terminationGracePeriodSeconds; the API server defaults it to 30. */
static int64_t pod_grace_seconds(const kp_pod *p)
{
	return p->spec && p->spec->has_termination_grace_period_seconds
		       ? p->spec->termination_grace_period_seconds
		       : 30;
}

static int needs_force_delete(const kp_pod *p, int64_t term_ms, int64_t now)
{
	if (!term_ms)
		return 0;
	if (pod_deleting(p))
		return pod_deleting(p) > term_ms;
	/* any non-negative grace the API server accepts: saturated, never an
	 * int64 overflow */
	int64_t grace_s = pod_grace_seconds(p);
	if (grace_s < 0)
		grace_s = 0; /* a caller-built pod; the API server refuses it */
	int64_t grace_ms = grace_s > INT64_MAX / 2000 ? INT64_MAX / 2 : grace_s * 1000;
	/* delete once now is past term - grace (a grace longer than all of
	 * time: at once) */
	int64_t deadline = term_ms < INT64_MIN + grace_ms ? INT64_MIN : term_ms - grace_ms;
	return now > deadline;
}

static int tier_of(const kp_pod *p)
{
	const char *pc = p->spec && p->spec->priority_class_name ? p->spec->priority_class_name : "";
	int critical = strcmp(pc, "system-cluster-critical") == 0 ||
		       strcmp(pc, "system-node-critical") == 0;
	int daemon = kp__pod_daemon(p);
	return critical * 2 + daemon;
}

/* The PDB refusing an eviction of p, or NULL; *why is the refusal. */
static const kp_pdb *pdb_blocking(node_work *w, const kp_pod *p, const char **why)
{
	size_t first[2];
	if (!w->have_pdbs) {
		if (kp__pdb_index_init(&w->pdbs, w->in->pdbs, w->in->n_pdbs) != KP_OK)
			return NULL; /* out of memory: have_pdbs stays 0, the caller fails */
		w->have_pdbs = 1;
	}
	size_t n = kp__pdbs_selecting(&w->pdbs, p, first);
	if (!n)
		return NULL;
	size_t hit_i = first[0];
	const kp_pdb *hit = w->in->pdbs[hit_i];
	if (n > 1) {
		*why = "eviction does not support multiple PDBs";
		return hit;
	}
	int32_t allowed = hit->status ? hit->status->disruptions_allowed : 0;
	if (allowed - w->pdb_used[hit_i] <= 0) {
		*why = "evicting pod violates a PDB";
		return hit;
	}
	w->pdb_used[hit_i]++;
	return NULL;
}

static const char *eviction_reason(const node_work *w)
{
	if (w->have_nc) {
		const kp_condition *c = kp_condition_find(w->nc.status.conditions,
						     w->nc.status.n_conditions, "DisruptionReason");
		if (c && c->status && strcmp(c->status, KP__COND_TRUE) == 0 && c->reason)
			return c->reason;
	}
	return "Forceful Termination";
}

static int pod_action(node_work *w, const kp_pod *p, uint32_t verb, const char *reason,
		      const char *msg, int64_t grace, const char *ev_reason, const char *ev_msg,
		      kp_error *err)
{
	const char *labels[] = { "reason", eviction_reason(w), NULL };
	kp__lc_act a = { 0 };
	a.verb = verb;
	a.kind = KP_KIND_POD;
	a.controller = NODE_CTRL;
	a.namespace_ = p->metadata->namespace_;
	a.name = p->metadata->name;
	a.reason = reason;
	a.message = msg;
	a.has_grace = grace > 0;
	a.grace = grace;
	a.ev_type = "Normal";
	a.ev_reason = ev_reason;
	a.ev_message = ev_msg;
	a.metric = "karpenter_pods_drained_total";
	a.metric_labels = labels;
	return kp__lc_action(w->r, &a, err);
}

static int force_delete(node_work *w, const kp_pod *p, kp_error *err)
{
	int64_t now = w->in->now_ms;
	int64_t grace = (w->term_ms - now) / 1000;
	if (grace < 1)
		grace = 1;
	/* only numbers and a time: bounded */
	char when[KP_TIME_BUF_SIZE], msg[256], ev[512];
	format_rfc3339_s(w->term_ms, when, sizeof(when));
	long long tgps = (long long)pod_grace_seconds(p);
	snprintf(msg, sizeof(msg), "deleting pod with gracePeriodSeconds %lld: the Node's "
		 "terminationGracePeriod ends at %s", (long long)grace, when);
	snprintf(ev, sizeof(ev), "Deleting the pod to accommodate the terminationTime %s of the node. "
		 "The pod was granted %lld seconds of grace-period of its %lld "
		 "terminationGracePeriodSeconds. This bypasses the PDB of the pod and the "
		 "do-not-disrupt annotation.", when, (long long)grace, tgps);
	return pod_action(w, p, KP_LIFECYCLE_VERB_DELETE, KP__LCR_FORCE_DELETE, msg,
			  grace, "Disrupted", ev, err);
}

/* Append "; <text>" to *blocked (arena, full length). 0, or -1 out of memory. */
static int blocked_add(kp__arena *a, char **blocked, char *text)
{
	if (!text)
		return -1;
	size_t old = *blocked ? strlen(*blocked) : 0, add = strlen(text);
	char *s = kp__arena_alloc(a, old + add + 3);
	if (s) {
		if (old)
			memcpy(s, *blocked, old);
		memcpy(s + old, "; ", 2);
		memcpy(s + old + 2, text, add + 1);
		*blocked = s;
	}
	kp__free(text);
	return s ? 0 : -1;
}

/* Try to evict p; appends why it waits to *blocked (when it does). */
static int try_evict(node_work *w, const kp_pod *p, char **blocked, kp_error *err)
{
	const char *ns = kp__object_namespace(p->metadata);
	if (pod_deleting(p))
		return KP_OK; /* terminating: waits for kubelet */
	if (kp__pod_do_not_disrupt(p, w->in->now_ms))
		return blocked_add(&w->arena, blocked,
				   kp__strdup_printf("pod %s/%s has karpenter.sh/do-not-disrupt", ns,
						     p->metadata->name))
			       ? oom(err)
			       : KP_OK;
	const char *why = NULL;
	const kp_pdb *pdb = pdb_blocking(w, p, &why);
	if (!w->have_pdbs)
		return oom(err);
	if (pdb) {
		if (blocked_add(&w->arena, blocked,
				kp__strdup_printf("pod %s/%s: %s (PodDisruptionBudget %s/%s)", ns,
						  p->metadata->name, why,
						  kp__object_namespace(pdb->metadata),
						  kp__meta_name(pdb->metadata))))
			return oom(err);
		/* upstream's eviction queue on a 429: FailedDraining naming the pod */
		char *ev = kp__strdup_printf("Failed to drain node, %s (Pod=%s/%s)", why, ns,
					     p->metadata->name);
		if (!ev)
			return oom(err);
		int rc = kp__lc_event(w->r, KP_KIND_NODE, NULL, w->meta.name, "Warning",
				      "FailedDraining", ev, err);
		kp__free(ev);
		return rc;
	}
	const char *msg = kp__arena_printf(&w->arena, "evicting pod from draining Node %s",
					w->meta.name);
	const char *ev = kp__arena_printf(&w->arena, "Evicted pod: %s", eviction_reason(w));
	if (!msg || !ev)
		return oom(err);
	return pod_action(w, p, KP_LIFECYCLE_VERB_EVICT, KP__LCR_EVICT, msg, 0,
			  "Evicted", ev, err);
}

/* ------------------------------------------------------------------ */
/* Node termination: steps                                             */

static int node_patch(node_work *w, const char *reason, const char *msg, const char *metric,
		      const char *const *labels, kp_error *err)
{
	kp__lc_act a = { 0 };
	a.verb = KP_LIFECYCLE_VERB_PATCH;
	a.kind = KP_KIND_NODE;
	a.controller = NODE_CTRL;
	a.name = w->meta.name;
	a.reason = reason;
	a.message = msg;
	a.object = &w->node;
	a.metric = metric;
	a.metric_labels = labels;
	return kp__lc_action(w->r, &a, err);
}

/* Terminator.Taint: the disrupted taint and the load-balancer label. */
static int taint_node(node_work *w)
{
	const kp_taint t = KP_TAINT_DISRUPTED_NO_SCHEDULE;
	int changed = 0;
	if (!kp__taints_has_match(w->spec.taints, w->spec.n_taints, &t)) {
		kp_taint *kept = kp__arena_alloc(&w->arena, (w->spec.n_taints + 1) * sizeof(*kept));
		if (!kept)
			return -1;
		size_t k = 0;
		for (size_t i = 0; i < w->spec.n_taints; i++)
			if (strcmp(w->spec.taints[i].key, t.key) != 0)
				kept[k++] = w->spec.taints[i];
		kept[k++] = t;
		w->spec.taints = kept;
		w->spec.n_taints = k;
		changed = 1;
	}
	int rc = kp__labels_put(&w->arena, &w->meta.labels, LB_EXCLUDE_LABEL, "karpenter");
	return rc < 0 ? -1 : changed | rc;
}

typedef struct drain_state {
	size_t waiting;
	int evicting; /* a tier had pods */
	char *blocked; /* "; why" per pod that waits (arena), or NULL */
} drain_state;

static int drain_collect(node_work *w, const kp_pod **tiers[4], size_t nt[4], drain_state *d,
			 kp_error *err)
{
	kp__lc_iter it;
	kp__lc_iter_init(&it, w->r, w->in, KP__ITER_NODE_PODS, w->meta.name);
	for (const kp_pod *p; (p = kp__lc_iter_next(&it)) != NULL;) {
		if (!waiting_eviction(p, w->in->now_ms))
			continue;
		d->waiting++;
		if (needs_force_delete(p, w->term_ms, w->in->now_ms)) {
			int rc = force_delete(w, p, err);
			if (rc)
				return rc;
			continue;
		}
		int t = tier_of(p);
		tiers[t][nt[t]++] = p;
	}
	return KP_OK;
}

static int drain(node_work *w, drain_state *d, kp_error *err)
{
	const kp_pod **tiers[4];
	size_t nt[4] = { 0, 0, 0, 0 }, on = 0;
	kp__lc_iter it;
	kp__lc_iter_init(&it, w->r, w->in, KP__ITER_NODE_PODS, w->meta.name);
	while (kp__lc_iter_next(&it))
		on++;
	for (int t = 0; t < 4; t++)
		if (!(tiers[t] = kp__arena_alloc(&w->arena, (on + 1) * sizeof(void *))))
			return oom(err);
	int rc = drain_collect(w, tiers, nt, d, err);
	for (int t = 0; rc == KP_OK && t < 4; t++) {
		if (!nt[t])
			continue;
		d->evicting = 1;
		for (size_t i = 0; rc == KP_OK && i < nt[t]; i++)
			rc = try_evict(w, tiers[t][i], &d->blocked, err);
		break;
	}
	return rc;
}

static int nc_status_action(node_work *w, const char *reason, const char *msg, kp_error *err)
{
	if (!w->have_nc || !w->nc.status_changed)
		return KP_OK;
	const char *labels[] = { "nodepool", kp__nc_label(&w->nc.nc, KP_LABEL_NODEPOOL), NULL };
	int drained = kp__cond_is(w->nc.status.conditions, w->nc.status.n_conditions, "Drained",
				  KP__COND_TRUE) &&
		      !(w->nc_in->status && kp__cond_is(w->nc_in->status->conditions,
							 w->nc_in->status->n_conditions, "Drained",
							 KP__COND_TRUE));
	kp__lc_act a = { 0 };
	a.verb = KP_LIFECYCLE_VERB_UPDATE_STATUS;
	a.kind = KP_KIND_NODECLAIM;
	a.controller = NODE_CTRL;
	a.namespace_ = w->nc.meta.namespace_;
	a.name = w->nc.meta.name;
	a.reason = reason;
	a.message = msg;
	a.object = &w->nc.nc;
	a.metric = drained ? "karpenter_nodes_drained_total" : NULL;
	a.metric_labels = drained ? labels : NULL;
	w->nc.status_changed = 0;
	return kp__lc_action(w->r, &a, err);
}

/* awaitDrain; *wait = 1 when the Node must wait (requeue 1 s). */
static int await_drain(node_work *w, int tainted, int *wait, kp_error *err)
{
	int64_t now = w->in->now_ms;
	if (w->have_nc && !kp_condition_find(w->nc.status.conditions, w->nc.status.n_conditions,
					 "Drained") &&
	    kp__ncv_set(&w->arena, &w->nc, "Drained", KP__COND_UNKNOWN, "Draining", "Draining", now) < 0)
		return oom(err);
	drain_state *d = kp__arena_alloc(&w->arena, sizeof(*d));
	if (!d)
		return oom(err);
	kp__lc_mark before = kp__lc_mark_get(w->r);
	int rc = drain(w, d, err);
	if (rc)
		return rc;
	int draining = d->evicting || d->waiting;
	if (tainted) {
		/* the taint patch goes before the evictions it protects; a Node
		 * already tainted and labelled is not patched again */
		char *msg = draining ? kp__strdup_printf("draining: %zu pods are waiting to be "
							 "evicted%s", d->waiting,
							 d->blocked ? d->blocked : "")
				     : kp__strdup_printf("tainted node %s:NoSchedule",
							 KP_TAINT_KEY_DISRUPTED);
		if (!msg)
			return oom(err);
		kp__lc_mark m2 = kp__lc_mark_get(w->r);
		rc = node_patch(w, draining ? KP__LCR_DRAINING : KP__LCR_TAINTED,
				msg, NULL, NULL, err);
		kp__free(msg);
		if (rc)
			return rc;
		kp__lc_move_last_action(w->r, before.actions, m2.actions);
	}
	if (draining) {
		char ev[96]; /* a count */
		snprintf(ev, sizeof(ev), "Failed to drain node, %zu pods are waiting to be evicted",
			 d->waiting);
		*wait = 1;
		return kp__lc_event(w->r, KP_KIND_NODE, NULL, w->meta.name, "Warning", "FailedDraining",
				    ev, err);
	}
	if (w->have_nc) {
		const kp_condition *c = kp_condition_find(w->nc.status.conditions,
						     w->nc.status.n_conditions, "Drained");
		if (!c || (c->status && strcmp(c->status, KP__COND_UNKNOWN) == 0 &&
			   now - c->last_transition_time_ms < MIN_DRAIN_MS)) {
			*wait = 1;
			return KP_OK;
		}
		if (kp__ncv_set(&w->arena, &w->nc, "Drained", KP__COND_TRUE, "Drained", "", now) < 0)
			return oom(err);
	}
	return KP_OK;
}

static int await_instance(node_work *w, int *wait, kp_error *err)
{
	if (!w->have_nc)
		return KP_OK;
	if (!w->in->provider) {
		*wait = 1;
		return KP_OK;
	}
	int gone = 0;
	int rc = provider_delete(w->r, w->in, &w->nc.nc, NODE_CTRL, &gone, err);
	if (rc)
		return rc;
	if (kp__ncv_set(&w->arena, &w->nc, "InstanceTerminating", KP__COND_TRUE, "InstanceTerminating",
		    "", w->in->now_ms) < 0)
		return oom(err);
	if (!gone)
		*wait = 2;
	return KP_OK;
}

static int remove_node_finalizer(node_work *w, kp_error *err)
{
	if (kp__remove_finalizer(&w->arena, &w->meta, KP_FINALIZER_TERMINATION) < 0)
		return oom(err);
	const char *labels[] = {
		"nodepool", kp_labels_get(&w->meta.labels, KP_LABEL_NODEPOOL)
				    ? kp_labels_get(&w->meta.labels, KP_LABEL_NODEPOOL) : "",
		"zone", kp_labels_get(&w->meta.labels, KP_LABEL_TOPOLOGY_ZONE)
				? kp_labels_get(&w->meta.labels, KP_LABEL_TOPOLOGY_ZONE) : "",
		NULL };
	return node_patch(w, KP__LCR_FINALIZER_REMOVED,
			  "deleted node: finalizer karpenter.sh/termination removed",
			  "karpenter_nodes_terminated_total", labels, err);
}

/* IsManaged: a node-class label of a class the provider supports. */
static int node_managed(const kp__lc_in *in, const kp_node *node)
{
	if (!in->provider)
		return 1;
	const kp_group_kind *gk = NULL;
	size_t n = 0;
	if (kp_cloudprovider_supported_node_classes(&gk, &n, in->provider, NULL) != KP_OK)
		return 0;
	kp__arena a = { 0 };
	int hit = 0;
	for (size_t i = 0; !hit && i < n; i++) {
		const char *key = kp__nodeclass_label_key(&a, gk[i].group, gk[i].kind);
		hit = key && kp_labels_get(&node->metadata->labels, key) != NULL;
	}
	kp__arena_free(&a);
	return hit;
}

static int termination_time(node_work *w, kp_error *err)
{
	const char *v = w->have_nc ? kp_labels_get(&w->nc.meta.annotations,
						   KP_ANNOTATION_NODECLAIM_TERMINATION_TIMESTAMP)
				   : NULL;
	if (!v)
		return KP_OK;
	const char *ev = kp__arena_printf(&w->arena, "All pods will be deleted by %s", v);
	if (!ev)
		return oom(err);
	int rc = kp__lc_event(w->r, KP_KIND_NODE, NULL, w->meta.name, "Warning",
			      "TerminationGracePeriodExpiring", ev, err);
	if (rc)
		return rc;
	if (kp_time_parse_rfc3339(&w->term_ms, v, err) != KP_OK) {
		kp__error_prefix(err, "metadata.annotations[" KP_ANNOTATION_NODECLAIM_TERMINATION_TIMESTAMP
				 "]");
		return KP_EINVAL;
	}
	return KP_OK;
}

/* wait: 0 done, 1 draining, 2 instance terminating, 3 volumes attached */
static int finish(node_work *w, int wait, kp_error *err)
{
	static const char *const reasons[] = { NULL, KP__LCR_DRAINING,
					       KP__LCR_INSTANCE_TERMINATING,
					       KP__LCR_VOLUMES_DETACHED };
	static const char *const msgs[] = {
		"Drained=True, VolumesDetached=True", "Drained=Unknown (Draining)",
		"Drained=True, VolumesDetached=True, InstanceTerminating=True",
		"Drained=True, VolumesDetached=Unknown (AwaitingVolumeDetachment)"
	};
	const char *reason = reasons[wait] ? reasons[wait] : KP__LCR_VOLUMES_DETACHED;
	const char *msg = msgs[wait];
	const kp_condition *vd = w->have_nc ? kp_condition_find(w->nc.status.conditions,
							   w->nc.status.n_conditions,
							   "VolumesDetached")
					    : NULL;
	if (wait != 1 && wait != 3 && vd && vd->status && strcmp(vd->status, KP__COND_FALSE) == 0)
		msg = wait == 2 ? "Drained=True, VolumesDetached=False (TerminationGracePeriodElapsed), "
				  "InstanceTerminating=True"
				: "Drained=True, VolumesDetached=False (TerminationGracePeriodElapsed)";
	int rc = nc_status_action(w, reason, msg, err);
	if (rc)
		return rc;
	if (wait)
		return kp__lc_requeue(w->r, KP_KIND_NODE, NODE_CTRL, NULL, w->meta.name,
				      wait == 2 ? 5000 : 1000, err);
	return remove_node_finalizer(w, err);
}

/* ------------------------------------------------------------------ */
/* Volume detachment                                                   */

/* The cluster's VolumeAttachments (NULL: not modelled) and PVCs. */
static const kp_volume_attachment *const *attachments(const kp__lc_in *in, size_t *n,
						      const kp_pvc *const **pvcs, size_t *n_pvcs)
{
	*n = in->n_volume_attachments;
	*pvcs = in->pvcs;
	*n_pvcs = in->pvcs ? in->n_pvcs : 0;
	return in->volume_attachments;
}

/* The PV of a pod's volume through its PVC (a generic ephemeral volume's
 * PVC is "<pod>-<volume>"), or NULL. */
static const char *volume_pv(kp__arena *a, const kp_pod *p, const kp_volume *v,
			     const kp_pvc *const *pvcs, size_t n)
{
	const char *claim = NULL;
	if (v->persistent_volume_claim)
		claim = v->persistent_volume_claim->claim_name;
	else if (v->ephemeral && v->name) {
		size_t len = strlen(p->metadata->name) + strlen(v->name) + 2;
		char *c = kp__arena_alloc(a, len);
		if (c)
			snprintf(c, len, "%s-%s", p->metadata->name, v->name);
		claim = c;
	}
	const char *ns = kp__object_namespace(p->metadata);
	for (size_t i = 0; claim && i < n; i++) {
		const kp_pvc *c = pvcs[i];
		if (c && c->metadata && c->metadata->name && strcmp(c->metadata->name, claim) == 0 &&
		    strcmp(c->metadata->namespace_ ? c->metadata->namespace_ : "", ns) == 0)
			return c->spec ? c->spec->volume_name : NULL;
	}
	return NULL;
}

/* The PVs of the Node's pods that are not drained (filterVolumeAttachments). */
static int kept_volumes(node_work *w, const char ***pvs, size_t *n, kp_error *err)
{
	const kp_pvc *const *pvcs = NULL;
	size_t n_va = 0, n_pvcs = 0, cap = 0;
	attachments(w->in, &n_va, &pvcs, &n_pvcs);
	*pvs = NULL;
	*n = 0;
	kp__lc_iter it;
	kp__lc_iter_init(&it, w->r, w->in, KP__ITER_NODE_PODS, w->meta.name);
	for (const kp_pod *p; (p = kp__lc_iter_next(&it)) != NULL;) {
		int64_t del = pod_deleting(p);
		int drainable = !kp__pod_tolerates_disrupted(p) && !kp__pod_mirror(p) &&
				!(del && w->in->now_ms - del > STUCK_TERMINATING_MS);
		for (size_t i = 0; !drainable && p->spec && i < p->spec->n_volumes; i++) {
			const kp_volume *v = p->spec->volumes[i];
			const char *pv = v ? volume_pv(&w->arena, p, v, pvcs, n_pvcs) : NULL;
			if (!pv)
				continue;
			if (*n == cap) {
				const char **grown = kp__arena_alloc(&w->arena, (cap * 2 + 4) * sizeof(*grown));
				if (!grown)
					return oom(err);
				if (*n)
					memcpy(grown, *pvs, *n * sizeof(*grown));
				*pvs = grown;
				cap = cap * 2 + 4;
			}
			(*pvs)[(*n)++] = pv;
		}
	}
	return KP_OK;
}

static int listed_pv(const char *const *pvs, size_t n, const char *pv)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(pvs[i], pv) == 0)
			return 1;
	return 0;
}

static const char *va_name(const kp_volume_attachment *va)
{
	return va->metadata && va->metadata->name ? va->metadata->name : "";
}

/* "Awaiting deletion of bound volumeattachments (a, b and 3 other(s))" */
static char *awaiting_message(const kp_volume_attachment **va, size_t n)
{
	static const char head[] = "Awaiting deletion of bound volumeattachments (";
	/* the head, up to five names with ", ", " and <20 digits> other(s)", ")" */
	size_t len = sizeof(head) + 48;
	for (size_t i = 0; i < n && i < 5; i++)
		len += strlen(va_name(va[i])) + 2;
	char *m = kp__malloc(len);
	if (!m)
		return NULL;
	size_t at = 0;
	int w = snprintf(m, len, "%s", head);
	for (size_t i = 0; w >= 0 && (size_t)w < len - at && i < n && i < 5; i++) {
		at += (size_t)w;
		w = snprintf(m + at, len - at, "%s%s", i ? ", " : "", va_name(va[i]));
	}
	if (w >= 0 && (size_t)w < len - at && n > 5) {
		at += (size_t)w;
		w = snprintf(m + at, len - at, " and %zu other(s)", n - 5);
	}
	if (w >= 0 && (size_t)w < len - at)
		snprintf(m + at + (size_t)w, len - at - (size_t)w, ")");
	return m;
}

/* awaitVolumeDetachment; *wait = 3 while attachments remain. */
static int await_volumes(node_work *w, int *wait, kp_error *err)
{
	const kp_pvc *const *pvcs = NULL;
	size_t n = 0, n_pvcs = 0, n_pending = 0, n_kept = 0;
	const kp_volume_attachment *const *va = attachments(w->in, &n, &pvcs, &n_pvcs);
	const kp_volume_attachment **pending = NULL;
	const char **kept = NULL;
	int rc = KP_OK;
	if (va && n && (rc = kept_volumes(w, &kept, &n_kept, err)) != KP_OK)
		return rc;
	if (va && n && !(pending = kp__arena_alloc(&w->arena, n * sizeof(*pending))))
		return oom(err);
	for (size_t i = 0; va && i < n; i++) {
		const kp_volume_attachment *x = va[i];
		if (!x)
			continue;
		/* sizes checked once per call (entry.c) */
		const kp_volume_attachment_spec *sp = x->spec;
		const char *pv = sp && sp->source ? sp->source->persistent_volume_name : NULL;
		if (sp && sp->node_name && strcmp(sp->node_name, w->meta.name) == 0 && pv &&
		    !listed_pv(kept, n_kept, pv))
			pending[n_pending++] = x;
	}
	const int64_t now = w->in->now_ms;
	if (!n_pending)
		return w->have_nc && kp__ncv_set(&w->arena, &w->nc, "VolumesDetached", KP__COND_TRUE,
						 "VolumesDetached", "", now) < 0
			       ? oom(err)
			       : KP_OK;
	if (w->term_ms && now > w->term_ms)
		return w->have_nc && kp__ncv_set(&w->arena, &w->nc, "VolumesDetached",
						 KP__COND_FALSE, "TerminationGracePeriodElapsed",
						 "TerminationGracePeriodElapsed", now) < 0
			       ? oom(err)
			       : KP_OK;
	char *ev = awaiting_message(pending, n_pending);
	if (!ev)
		return oom(err);
	rc = kp__lc_event(w->r, KP_KIND_NODE, NULL, w->meta.name, "Normal", "AwaitingVolumeDetachment",
			  ev, err);
	kp__free(ev);
	if (rc == KP_OK && w->have_nc &&
	    kp__ncv_set(&w->arena, &w->nc, "VolumesDetached", KP__COND_UNKNOWN,
			"AwaitingVolumeDetachment", "AwaitingVolumeDetachment", now) < 0)
		rc = oom(err);
	*wait = 3;
	return rc;
}

static int terminate(node_work *w, kp_error *err)
{
	int rc;
	const kp_node *node = w->input;
	if (w->have_nc && !w->nc_in->metadata->deletion_timestamp_ms) {
		const char *msg = kp__arena_printf(&w->arena, "deleting NodeClaim %s of deleting Node %s",
						w->nc.meta.name, w->meta.name);
		if (!msg)
			return oom(err);
		if ((rc = act_simple(w->r, KP_LIFECYCLE_VERB_DELETE, KP_KIND_NODECLAIM, NODE_CTRL,
				     w->nc.meta.namespace_, w->nc.meta.name,
				     KP__LCR_NODE_DELETE, msg, NULL, err)) != KP_OK)
			return rc;
	}
	if (strcmp(kp__node_condition_status(node, "Ready"), KP__COND_TRUE) != 0 && w->in->provider &&
	    node->spec && node->spec->provider_id) {
		kp_nodeclaim *got = NULL;
		rc = kp_cloudprovider_get(&got, w->in->provider, node->spec->provider_id, NULL);
		kp_nodeclaim_free(got);
		if (rc == KP_ENOTFOUND)
			return remove_node_finalizer(w, err);
	}
	if ((rc = termination_time(w, err)) != KP_OK)
		return rc;
	int tainted = taint_node(w);
	if (tainted < 0)
		return oom(err);
	int wait = 0;
	if ((rc = await_drain(w, tainted, &wait, err)) != KP_OK || wait)
		return rc ? rc : finish(w, wait, err);
	if ((rc = await_volumes(w, &wait, err)) != KP_OK || wait)
		return rc ? rc : finish(w, wait, err);
	if ((rc = await_instance(w, &wait, err)) != KP_OK)
		return rc;
	return finish(w, wait, err);
}

int kp__lc_node_termination(kp_lifecycle_result *r, const kp__lc_in *in, const kp_node *node,
			    kp_error *err)
{
	int rc = KP_OK;
	if (rc)
		return rc;
	rc = kp__check_object(node, node ? node->metadata : NULL, "Node", err);
	if (rc || !node->metadata->deletion_timestamp_ms ||
	    !kp__has_finalizer(node->metadata, KP_FINALIZER_TERMINATION) || !node_managed(in, node))
		return rc;
	node_work *w = kp__calloc(1, sizeof(*w));
	if (!w)
		return oom(err);
	w->in = in;
	w->r = r;
	w->input = node;
	kp__copy_sized(&w->node, node, sizeof(w->node));
	kp__copy_sized(&w->meta, node->metadata, sizeof(w->meta));
	w->node.metadata = &w->meta;
	if (node->spec) {
		kp__copy_sized(&w->spec, node->spec, sizeof(w->spec));
	} else {
		kp_node_spec s = KP_NODE_SPEC_INIT;
		w->spec = s;
	}
	w->node.spec = &w->spec;
	w->nc_in = kp__nodeclaim_for_node(r, in, node);
	if (w->nc_in) {
		kp__ncv_init(&w->nc, w->nc_in);
		w->have_nc = 1;
	}
	kp__lc_mark mark = kp__lc_mark_get(r);
	w->pdb_used = kp__arena_alloc(&w->arena, (in->n_pdbs + 1) * sizeof(int32_t));
	rc = w->pdb_used ? terminate(w, err) : oom(err);
	if (rc)
		kp__lc_rollback(r, mark);
	kp__pdb_index_dispose(&w->pdbs);
	kp__arena_free(&w->arena);
	kp__free(w);
	return rc;
}
