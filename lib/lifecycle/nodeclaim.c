/*
 * lib/lifecycle: nodeclaim.lifecycle (finalizer, launch, registration,
 * initialization, liveness), nodeclaim.expiration, nodeclaim.disruption
 * (Drifted) and nodeclaim.garbagecollection, as upstream
 * kubernetes-sigs/karpenter pkg/controllers/nodeclaim/... decide them.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdio.h>
#include <string.h>

#include <karpenter/disruption.h>
#include <karpenter/wellknown.h>

#include "common/map.h"
#include "lifecycle_private.h"
#include "state/state.h"

#define CTRL KP_LIFECYCLE_CONTROLLER_NODECLAIM_LIFECYCLE
#define MIN_MS 60000LL
#define LAUNCH_TIMEOUT_MS (5 * MIN_MS)
#define REGISTRATION_TIMEOUT_MS (15 * MIN_MS)
#define MSG_MAX 640

/* The NodeClaim being reconciled: a view over the input (see
 * lifecycle_private.h) plus what changed. */
typedef struct nc_work {
	const kp__lc_in *in;
	kp_lifecycle_result *r;
	kp__arena arena;
	kp_nodeclaim nc;
	kp_object_meta meta;
	kp_nodeclaim_spec spec;
	kp_nodeclaim_status status;
	int meta_changed, status_changed;
	const char *status_reason;     /* the last step that changed the status */
	const char *status_prefix, *status_arg; /* its message: prefix then arg */
	/* the Node after registration (a view), when this round patched it */
	kp_node node;
	kp_object_meta node_meta;
	kp_node_spec node_spec;
	int have_node_view;
	int deleted; /* a delete action ended the round */
	const kp_nodeclaim_status *given; /* the status as given, or NULL */
} nc_work;

static int nc_work_init(nc_work *w, kp_lifecycle_result *r, const kp__lc_in *in,
			const kp_nodeclaim *nc)
{
	memset(w, 0, sizeof(*w));
	w->in = in;
	w->r = r;
	kp__copy_sized(&w->nc, nc, sizeof(w->nc));
	kp__copy_sized(&w->meta, nc->metadata, sizeof(w->meta));
	w->nc.metadata = &w->meta;
	w->given = nc->status;
	if (nc->spec) {
		kp__copy_sized(&w->spec, nc->spec, sizeof(w->spec));
		w->nc.spec = &w->spec;
	}
	if (nc->status) {
		kp__copy_sized(&w->status, nc->status, sizeof(w->status));
	} else {
		kp_nodeclaim_status s = KP_NODECLAIM_STATUS_INIT;
		w->status = s;
	}
	w->nc.status = &w->status;
	return KP_OK;
}

static const char *nc_ns(const nc_work *w)
{
	return w->meta.namespace_;
}

static const kp_condition *nc_cond(const nc_work *w, const char *type)
{
	return kp_condition_find(w->status.conditions, w->status.n_conditions, type);
}

static int nc_cond_is(const nc_work *w, const char *type, const char *status)
{
	return kp__cond_is(w->status.conditions, w->status.n_conditions, type, status);
}

static int oom(kp_error *err)
{
	return kp__error(err, KP_ENOMEM, NULL, "out of memory");
}

static void nc_condset(const nc_work *w, kp__condset *cs)
{
	kp__condset_nodeclaim(cs, &w->meta, w->in->now_ms);
}

/* StatusConditions().Set…: the root Ready follows (operatorpkg). */
static int set_cond(nc_work *w, const char *type, const char *status, const char *reason,
		    const char *message)
{
	kp__condset cs;
	nc_condset(w, &cs);
	int rc = kp__cond_set(&w->arena, &cs, &w->status.conditions, &w->status.n_conditions, type,
			      status, reason ? reason : type, message);
	if (rc > 0)
		w->status_changed = 1;
	return rc;
}

static int set_dep(nc_work *w, const char *type, const char *status, const char *reason,
		   const char *message)
{
	return set_cond(w, type, status, reason, message);
}

/* A settled condition is set again as it is, so it observes the current
 * generation (upstream: "always set the status condition to the latest
 * generation"); the root follows. */
static int keep_at_generation(nc_work *w, const kp_condition *c, kp_error *err)
{
	kp_condition copy = *c;
	return set_cond(w, copy.type, copy.status, copy.reason ? copy.reason : "", copy.message) < 0
		       ? oom(err)
		       : KP_OK;
}

/* The status update's reason and message: prefix then arg (both outlive
 * the round: literals, the input's or the arena's strings). */
static void status_why(nc_work *w, const char *reason, const char *prefix, const char *arg)
{
	w->status_reason = reason;
	w->status_prefix = prefix;
	w->status_arg = arg;
}

static const char *status_message(nc_work *w)
{
	return kp__arena_printf(&w->arena, "%s%s", w->status_prefix ? w->status_prefix : "",
			     w->status_arg ? w->status_arg : "");
}

/* A status update no step explains (the root Ready following its
 * dependents, conditions set again at the current generation, missing
 * conditions added): the conditions that differ from the given ones, as
 * "status conditions updated: Ready=True, Registered=True (observedGeneration 3)". */
static const char *conditions_message(nc_work *w)
{
	const char *msg = "status conditions updated:";
	const char *sep = " ";
	for (size_t i = 0; msg && i < w->status.n_conditions; i++) {
		const kp_condition *c = w->status.conditions[i];
		if (!c || !c->type)
			continue;
		const kp_condition *g = w->given ? kp_condition_find(w->given->conditions,
								   w->given->n_conditions, c->type)
						 : NULL;
		int same_status = g && g->status && c->status && !strcmp(g->status, c->status);
		int same_reason = g && g->reason && c->reason && !strcmp(g->reason, c->reason);
		int same_gen = g && g->observed_generation == c->observed_generation;
		if (same_status && same_reason && same_gen)
			continue;
		msg = kp__arena_printf(&w->arena, "%s%s%s=%s", msg, sep, c->type,
				    c->status ? c->status : "");
		if (msg && !same_gen && c->observed_generation)
			msg = kp__arena_printf(&w->arena, "%s (observedGeneration %lld)", msg,
					    (long long)c->observed_generation);
		sep = ", ";
	}
	return msg;
}

static const char *const *disrupted_labels(const kp_nodeclaim *nc, const char *reason,
					   const char **buf)
{
	buf[0] = "reason";
	buf[1] = reason;
	buf[2] = "nodepool";
	buf[3] = kp__nc_label(nc, KP_LABEL_NODEPOOL);
	buf[4] = "capacity_type";
	buf[5] = kp__nc_label(nc, KP_LABEL_CAPACITY_TYPE);
	buf[6] = "consolidation_policy";
	buf[7] = "";
	buf[8] = "termination_mode";
	buf[9] = kp__termination_mode(nc);
	buf[10] = NULL;
	return buf;
}

/* Delete the NodeClaim (a disruption upstream counts). */
static int nc_delete(kp_lifecycle_result *r, const char *controller, const kp_nodeclaim *nc,
		     const char *reason, const char *message, const char *metric_reason,
		     const char *ev_type, const char *ev_reason, const char *ev_message,
		     kp_error *err)
{
	const char *labels[11];
	kp__lc_act a = { 0 };
	a.verb = KP_LIFECYCLE_VERB_DELETE;
	a.kind = KP_KIND_NODECLAIM;
	a.controller = controller;
	a.namespace_ = nc->metadata->namespace_;
	a.name = nc->metadata->name;
	a.reason = reason;
	a.message = message;
	a.ev_type = ev_type;
	a.ev_reason = ev_reason;
	a.ev_message = ev_message;
	a.metric = "karpenter_nodeclaims_disrupted_total";
	a.metric_labels = disrupted_labels(nc, metric_reason, labels);
	return kp__lc_action(r, &a, err);
}

static int nc_patch(nc_work *w, uint32_t verb, const char *reason, const char *message,
		    kp_error *err)
{
	kp__lc_act a = { 0 };
	a.verb = verb;
	a.kind = KP_KIND_NODECLAIM;
	a.controller = CTRL;
	a.namespace_ = nc_ns(w);
	a.name = w->meta.name;
	a.reason = reason;
	a.message = message;
	a.object = &w->nc;
	return kp__lc_action(w->r, &a, err);
}

/* ------------------------------------------------------------------ */
/* Launch                                                              */

static void truncate_message(char *dst, size_t size, const char *msg)
{
	size_t len = strlen(msg);
	if (len < 300)
		snprintf(dst, size, "%s", msg);
	else
		snprintf(dst, size, "%.300s...", msg);
}

static int launch_failed(nc_work *w, int rc, const kp_error *perr, kp_error *err)
{
	char msg[320];
	truncate_message(msg, sizeof(msg), perr->message[0] ? perr->message : kp_strerror(rc));
	const kp_nodeclaim *nc = &w->nc;
	if (rc == KP_EINSUFFICIENT || rc == KP_ENOTREADY) {
		int ice = rc == KP_EINSUFFICIENT;
		char *ev = kp__arena_printf(&w->arena, "NodeClaim %s event: %s", w->meta.name, msg);
		if (!ev)
			return oom(err);
		w->deleted = 1;
		return nc_delete(w->r, CTRL, nc,
				 ice ? KP__LCR_INSUFFICIENT_CAPACITY
				     : KP__LCR_NODECLASS_NOT_READY,
				 msg, ice ? "insufficient_capacity" : "nodeclass_not_ready",
				 ice ? "Warning" : NULL, ice ? "InsufficientCapacityError" : NULL,
				 ice ? ev : NULL, err);
	}
	const char *reason = rc == KP_ECREATE && perr->provider_code[0] ? perr->provider_code
									 : "LaunchFailed";
	char *r = kp__lc_strdup(&w->arena, reason);
	char *m = kp__lc_strdup(&w->arena, msg);
	if (!r || !m || set_dep(w, "Launched", KP__COND_UNKNOWN, r, m) < 0)
		return oom(err);
	status_why(w, KP__LCR_LAUNCH_FAILED, "", m);
	return kp__lc_requeue(w->r, KP_KIND_NODECLAIM, CTRL, nc_ns(w), w->meta.name, 0, err);
}

static int launch_record(nc_work *w, const kp_nodeclaim *created, kp_error *err)
{
	char *msg = kp__arena_printf(
		&w->arena, "launched nodeclaim: provider-id %s, instance-type %s, zone %s, "
		"capacity-type %s",
		created->status && created->status->provider_id ? created->status->provider_id : "",
		kp__nc_label(created, KP_LABEL_INSTANCE_TYPE),
		kp__nc_label(created, KP_LABEL_TOPOLOGY_ZONE),
		kp__nc_label(created, KP_LABEL_CAPACITY_TYPE));
	if (!msg)
		return oom(err);
	kp__lc_act a = { 0 };
	a.verb = KP_LIFECYCLE_VERB_PROVIDER_CREATE;
	a.kind = KP_KIND_NODECLAIM;
	a.controller = CTRL;
	a.namespace_ = nc_ns(w);
	a.name = w->meta.name;
	a.reason = KP__LCR_LAUNCHED;
	a.message = msg;
	int rc = kp__lc_action(w->r, &a, err);
	if (rc)
		return rc;
	status_why(w, KP__LCR_LAUNCHED, "", msg);
	return KP_OK;
}

/* PopulateNodeClaimDetails: kp_cloudprovider_create already merged labels
 * (the NodeClaim's win) and annotations (the provider's win). */
static int launch_apply(nc_work *w, const kp_nodeclaim *created)
{
	const kp_nodeclaim_status *cs = created->status;
	w->meta.labels = created->metadata->labels;
	w->meta.annotations = created->metadata->annotations;
	w->meta_changed = 1;
	if (cs) {
		w->status.provider_id = cs->provider_id;
		w->status.image_id = cs->image_id;
		w->status.capacity = cs->capacity;
		w->status.allocatable = cs->allocatable;
	}
	w->status_changed = 1;
	return set_dep(w, "Launched", KP__COND_TRUE, NULL, "") < 0 ? -1 : 0;
}

static int step_launch(nc_work *w, kp_nodeclaim **created, kp_error *err)
{
	const kp_condition *c = nc_cond(w, "Launched");
	if (c && c->status && strcmp(c->status, KP__COND_UNKNOWN) != 0)
		return keep_at_generation(w, c, err);
	if (!w->in->provider)
		return KP_OK;
	kp_error perr = KP_ERROR_INIT;
	int rc = kp_cloudprovider_create(created, w->in->provider, &w->nc, &perr);
	if (rc == KP_ENOMEM)
		return oom(err);
	if (rc != KP_OK)
		return launch_failed(w, rc, &perr, err);
	rc = launch_record(w, *created, err);
	if (rc)
		return rc;
	return launch_apply(w, *created) ? oom(err) : KP_OK;
}

/* ------------------------------------------------------------------ */
/* Registration                                                        */

static int node_view(nc_work *w, const kp_node *node)
{
	kp__copy_sized(&w->node, node, sizeof(w->node));
	if (node->metadata)
		kp__copy_sized(&w->node_meta, node->metadata, sizeof(w->node_meta));
	else {
		kp_object_meta m = KP_OBJECT_META_INIT;
		w->node_meta = m;
	}
	w->node.metadata = &w->node_meta;
	if (node->spec)
		kp__copy_sized(&w->node_spec, node->spec, sizeof(w->node_spec));
	else {
		kp_node_spec s = KP_NODE_SPEC_INIT;
		w->node_spec = s;
	}
	w->node.spec = &w->node_spec;
	w->have_node_view = 1;
	return 0;
}

static int add_owner_ref(nc_work *w)
{
	kp_object_meta *m = &w->node_meta;
	for (size_t i = 0; i < m->n_owner_references; i++) {
		const kp_owner_reference *o = m->owner_references[i];
		if (o && o->kind && strcmp(o->kind, "NodeClaim") == 0 && o->api_version &&
		    strcmp(o->api_version, "karpenter.sh/v1") == 0 &&
		    strcmp(o->uid ? o->uid : "", w->meta.uid ? w->meta.uid : "") == 0)
			return 0;
	}
	kp_owner_reference **list = kp__arena_alloc(&w->arena,
						    (m->n_owner_references + 1) * sizeof(*list));
	kp_owner_reference *o = kp__arena_alloc(&w->arena, sizeof(*o));
	if (!list || !o)
		return -1;
	o->struct_size = sizeof(*o);
	o->api_version = "karpenter.sh/v1";
	o->kind = "NodeClaim";
	o->name = w->meta.name;
	o->uid = w->meta.uid ? w->meta.uid : "";
	o->block_owner_deletion = 1;
	o->has_block_owner_deletion = 1;
	for (size_t i = 0; i < m->n_owner_references; i++)
		list[i] = m->owner_references[i];
	list[m->n_owner_references] = o;
	m->owner_references = list;
	m->n_owner_references++;
	return 1;
}

static int merge_taints(nc_work *w, const kp_taint *with, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!kp__taints_has_match(w->node_spec.taints, w->node_spec.n_taints, &with[i]) &&
		    kp__taints_append(&w->arena, &w->node_spec.taints, &w->node_spec.n_taints,
				      &with[i]) < 0)
			return -1;
	return 0;
}

/* syncNode, then the unregistered taint removed and the registered label. */
static int sync_node(nc_work *w)
{
	if (kp__add_finalizer(&w->arena, &w->node_meta, KP_FINALIZER_TERMINATION) < 0 ||
	    add_owner_ref(w) < 0)
		return -1;
	const char *dns = kp_labels_get(&w->node_meta.labels, KP_LABEL_NODE_DO_NOT_SYNC_TAINTS);
	if ((!dns || strcmp(dns, "true") != 0) && w->nc.spec &&
	    (merge_taints(w, w->spec.taints, w->spec.n_taints) < 0 ||
	     merge_taints(w, w->spec.startup_taints, w->spec.n_startup_taints) < 0))
		return -1;
	if (kp__labels_assign(&w->arena, &w->node_meta.annotations, &w->meta.annotations) < 0 ||
	    kp__labels_assign(&w->arena, &w->node_meta.labels, &w->meta.labels) < 0)
		return -1;
	const kp_taint unreg = KP_TAINT_UNREGISTERED_NO_EXECUTE;
	kp_taint *kept = kp__arena_alloc(&w->arena, (w->node_spec.n_taints + 1) * sizeof(*kept));
	if (!kept)
		return -1;
	size_t k = 0;
	for (size_t i = 0; i < w->node_spec.n_taints; i++)
		if (!kp_taint_match(&w->node_spec.taints[i], &unreg))
			kept[k++] = w->node_spec.taints[i];
	w->node_spec.taints = kept;
	w->node_spec.n_taints = k;
	return kp__labels_put(&w->arena, &w->node_meta.labels, KP_LABEL_NODE_REGISTERED, "true") < 0
		       ? -1
		       : 0;
}

static int node_patch(nc_work *w, const char *reason, const char *message, const char *metric,
		      const char *const *labels, kp_error *err)
{
	kp__lc_act a = { 0 };
	a.verb = KP_LIFECYCLE_VERB_PATCH;
	a.kind = KP_KIND_NODE;
	a.controller = CTRL;
	a.name = w->node_meta.name;
	a.reason = reason;
	a.message = message;
	a.object = &w->node;
	a.metric = metric;
	a.metric_labels = labels;
	return kp__lc_action(w->r, &a, err);
}

static int register_node(nc_work *w, const kp_node *node, kp_error *err)
{
	const kp_taint unreg = KP_TAINT_UNREGISTERED_NO_EXECUTE;
	int has_taint = node->spec && kp__taints_has_match(node->spec->taints,
							    node->spec->n_taints, &unreg);
	int labelled = node->metadata &&
		       kp_labels_get(&node->metadata->labels, KP_LABEL_NODE_REGISTERED) != NULL;
	if (!labelled && !has_taint) {
		int rc = kp__lc_event(w->r, KP_KIND_NODECLAIM, nc_ns(w), w->meta.name, "Warning",
				      "UnregisteredTaintMissing",
				      "Missing karpenter.sh/unregistered taint which prevents "
				      "registration related race conditions on Karpenter-managed nodes",
				      err);
		if (rc)
			return rc;
	}
	node_view(w, node);
	if (sync_node(w) < 0)
		return oom(err);
	char *msg = kp__arena_printf(&w->arena, "registered nodeclaim: Node %s synced (labels, "
				  "annotations, taints, owner reference, finalizer), "
				  "karpenter.sh/unregistered taint removed",
				  kp__meta_name(node->metadata));
	if (!msg)
		return oom(err);
	const char *labels[] = { "nodepool", kp__nc_label(&w->nc, KP_LABEL_NODEPOOL), "zone",
				 kp__nc_label(&w->nc, KP_LABEL_TOPOLOGY_ZONE), NULL };
	int rc = node_patch(w, KP__LCR_REGISTERED, msg, "karpenter_nodes_created_total",
			    labels, err);
	if (rc)
		return rc;
	if (set_dep(w, "Registered", KP__COND_TRUE, NULL, "") < 0)
		return oom(err);
	w->status.node_name = w->node_meta.name;
	if ((rc = kp__reg_health_outcome(w->r, w->in, &w->nc, 1, NULL, err)) != KP_OK)
		return rc;
	status_why(w, KP__LCR_REGISTERED, "registered nodeclaim with Node ",
		   w->node_meta.name);
	return KP_OK;
}

static int step_registration(nc_work *w, kp_error *err)
{
	const kp_condition *c = nc_cond(w, "Registered");
	if (c && c->status && strcmp(c->status, KP__COND_UNKNOWN) != 0)
		return keep_at_generation(w, c, err);
	const kp_node *node = NULL;
	size_t n = kp__nodes_for_provider_id(w->r, w->in, w->status.provider_id, &node);
	if (n == 0) {
		if (set_dep(w, "Registered", KP__COND_UNKNOWN, "NodeNotFound",
			    "Node not registered with cluster") < 0)
			return oom(err);
		status_why(w, KP__LCR_NOT_REGISTERED, "",
			   "Node not registered with cluster");
		return KP_OK;
	}
	if (n > 1) {
		if (set_dep(w, "Registered", KP__COND_FALSE, "MultipleNodesFound",
			    "Invariant violated, matched multiple nodes") < 0)
			return oom(err);
		status_why(w, KP__LCR_NOT_REGISTERED, "",
			   "Invariant violated, matched multiple nodes");
		return KP_OK;
	}
	return register_node(w, node, err);
}

/* ------------------------------------------------------------------ */
/* Initialization                                                      */

/* "key[=value]:Effect" (arena); NULL when out of memory. */
static const char *format_taint(kp__arena *a, const kp_taint *t)
{
	const char *eff = kp_taint_effect_name(t->effect);
	if (!t->value || !*t->value)
		return kp__arena_printf(a, "%s:%s", t->key, eff);
	return kp__arena_printf(a, "%s=%s:%s", t->key, t->value, eff);
}

static const kp_taint *startup_taint_left(const kp_node_spec *ns, const kp_nodeclaim_spec *s)
{
	for (size_t i = 0; s && i < s->n_startup_taints; i++)
		for (size_t j = 0; ns && j < ns->n_taints; j++)
			if (kp_taint_match(&s->startup_taints[i], &ns->taints[j]))
				return &ns->taints[j];
	return NULL;
}

static const kp_taint *ephemeral_taint_left(const kp_node_spec *ns)
{
	for (size_t j = 0; ns && j < ns->n_taints; j++)
		if (kp_taint_is_known_ephemeral(&ns->taints[j]))
			return &ns->taints[j];
	return NULL;
}

static const char *resource_not_registered(const kp_node *node, const kp_nodeclaim_spec *s)
{
	const kp_resource_list *req = s && s->resources ? &s->resources->requests : NULL;
	const kp_resource_list *alloc = node->status ? &node->status->allocatable : NULL;
	for (size_t i = 0; req && i < req->count; i++) {
		if (kp_quantity_sign(&req->items[i].quantity) == 0)
			continue;
		kp_quantity q;
		if (!alloc || kp_resources_get(&q, alloc, req->items[i].name, NULL) != KP_OK ||
		    kp_quantity_sign(&q) == 0)
			return req->items[i].name;
	}
	return NULL;
}

/* Why the Node is not initialized: the reason, and the message in *msg
 * (arena; NULL with a reason when out of memory). */
static const char *not_initialized(kp__arena *a, const kp_node *node,
				   const kp_nodeclaim_spec *s, const char **msg)
{
	const char *t;
	if (strcmp(kp__node_condition_status(node, "Ready"), KP__COND_TRUE) != 0) {
		*msg = "Node status is NotReady";
		return "NodeNotReady";
	}
	const kp_taint *taint = startup_taint_left(node->spec, s);
	if (taint) {
		t = format_taint(a, taint);
		*msg = t ? kp__arena_printf(a, "StartupTaint \"%s\" still exists", t) : NULL;
		return "StartupTaintsExist";
	}
	if ((taint = ephemeral_taint_left(node->spec)) != NULL) {
		t = format_taint(a, taint);
		*msg = t ? kp__arena_printf(a, "KnownEphemeralTaint \"%s\" still exists", t) : NULL;
		return "KnownEphemeralTaintsExist";
	}
	const char *res = resource_not_registered(node, s);
	if (res) {
		*msg = kp__arena_printf(a, "Resource \"%s\" was requested but not registered", res);
		return "ResourceNotRegistered";
	}
	return NULL;
}

static int step_initialization(nc_work *w, kp_error *err)
{
	const kp_condition *c = nc_cond(w, "Initialized");
	if (c && c->status && strcmp(c->status, KP__COND_UNKNOWN) != 0)
		return keep_at_generation(w, c, err);
	if (!nc_cond_is(w, "Registered", KP__COND_TRUE))
		return KP_OK;
	const kp_node *node = NULL;
	if (w->have_node_view)
		node = &w->node;
	else if (kp__nodes_for_provider_id(w->r, w->in, w->status.provider_id, &node) != 1)
		node = NULL;
	const char *reason = "NodeNotFound", *m = "Node not registered with cluster";
	if (node)
		reason = not_initialized(&w->arena, node, w->nc.spec, &m);
	if (reason) {
		if (!m || set_dep(w, "Initialized", KP__COND_UNKNOWN, reason, m) < 0)
			return oom(err);
		status_why(w, KP__LCR_NOT_INITIALIZED, "", m);
		return KP_OK;
	}
	if (!w->have_node_view)
		node_view(w, node);
	int ch = kp__labels_put(&w->arena, &w->node_meta.labels, KP_LABEL_NODE_INITIALIZED, "true");
	if (ch < 0)
		return oom(err);
	if (ch) {
		const char *msg = kp__arena_printf(&w->arena, "initialized nodeclaim: Node %s labelled "
						"karpenter.sh/initialized=true", w->node_meta.name);
		if (!msg)
			return oom(err);
		int rc = node_patch(w, KP__LCR_INITIALIZED, msg, NULL, NULL, err);
		if (rc)
			return rc;
	}
	if (set_dep(w, "Initialized", KP__COND_TRUE, NULL, "") < 0)
		return oom(err);
	status_why(w, KP__LCR_INITIALIZED, "initialized nodeclaim with Node ",
		   w->node_meta.name);
	return KP_OK;
}

/* ------------------------------------------------------------------ */
/* Liveness                                                            */

static int timeout_delete(nc_work *w, int64_t timeout_ms, const char *reason,
			  const char *metric_reason, const char *why, kp_error *err)
{
	char d[64];
	kp__fmt_duration_ms(timeout_ms, d, sizeof(d));
	const char *msg = kp__arena_printf(&w->arena, "terminating due to timeout: %s after %s (%s)",
					metric_reason, d, why);
	if (!msg)
		return oom(err);
	w->deleted = 1;
	int rc = kp__reg_health_outcome(w->r, w->in, &w->nc, 0, nc_cond(w, "Launched"), err);
	if (rc)
		return rc;
	return nc_delete(w->r, CTRL, &w->nc, reason, msg, metric_reason, NULL, NULL, NULL, err);
}

static int step_liveness(nc_work *w, int64_t *requeue_ms, kp_error *err)
{
	if (nc_cond_is(w, "Registered", KP__COND_TRUE))
		return KP_OK;
	const kp_condition *launched = nc_cond(w, "Launched");
	const int64_t now = w->in->now_ms;
	if (!launched) {
		*requeue_ms = 0;
		return KP_OK;
	}
	if (!launched->status || strcmp(launched->status, KP__COND_TRUE) != 0) {
		int64_t left = LAUNCH_TIMEOUT_MS - (now - launched->last_transition_time_ms);
		if (left > 0) {
			*requeue_ms = left;
			return KP_OK;
		}
		return timeout_delete(w, LAUNCH_TIMEOUT_MS, KP__LCR_LAUNCH_TIMEOUT,
				      "launch_timeout", launched->message && *launched->message
								? launched->message
								: "not launched",
				      err);
	}
	const kp_condition *registered = nc_cond(w, "Registered");
	if (!registered) {
		*requeue_ms = 0;
		return KP_OK;
	}
	int64_t left = REGISTRATION_TIMEOUT_MS - (now - registered->last_transition_time_ms);
	if (left > 0) {
		*requeue_ms = left;
		return KP_OK;
	}
	return timeout_delete(w, REGISTRATION_TIMEOUT_MS, KP__LCR_REGISTRATION_TIMEOUT,
			      "registration_timeout",
			      registered->message && *registered->message ? registered->message
									  : "not registered",
			      err);
}

/* ------------------------------------------------------------------ */
/* The controller                                                      */

/* StatusConditions(): the root and the dependents exist. */
static int ensure_conditions(nc_work *w)
{
	kp__condset cs;
	nc_condset(w, &cs);
	int rc = kp__cond_init(&w->arena, &cs, &w->status.conditions, &w->status.n_conditions);
	if (rc > 0)
		w->status_changed = 1;
	return rc < 0 ? -1 : 0;
}

static int run_steps(nc_work *w, kp_nodeclaim **created, int64_t *requeue_ms, kp_error *err)
{
	int rc = step_launch(w, created, err);
	if (rc || w->deleted)
		return rc;
	if ((rc = step_registration(w, err)) != KP_OK)
		return rc;
	if ((rc = step_initialization(w, err)) != KP_OK)
		return rc;
	return step_liveness(w, requeue_ms, err);
}

static int lifecycle_live(nc_work *w, kp_error *err)
{
	int rc;
	int fin = kp__add_finalizer(&w->arena, &w->meta, KP_FINALIZER_TERMINATION);
	if (fin < 0)
		return oom(err);
	if (fin && (rc = nc_patch(w, KP_LIFECYCLE_VERB_PATCH, KP__LCR_FINALIZER,
				  "added finalizer karpenter.sh/termination", err)) != KP_OK)
		return rc;
	if (ensure_conditions(w) < 0)
		return oom(err);
	kp_nodeclaim *created = NULL;
	int64_t requeue_ms = -1;
	rc = run_steps(w, &created, &requeue_ms, err);
	if (rc == KP_OK && !w->deleted && w->meta_changed)
		rc = nc_patch(w, KP_LIFECYCLE_VERB_PATCH, KP__LCR_LAUNCHED,
			      "labels and annotations resolved by the cloud provider", err);
	const char *sm = NULL;
	if (rc == KP_OK && !w->deleted && w->status_changed &&
	    !(sm = w->status_reason ? status_message(w) : conditions_message(w)))
		rc = oom(err);
	if (rc == KP_OK && !w->deleted && w->status_changed)
		rc = nc_patch(w, KP_LIFECYCLE_VERB_UPDATE_STATUS,
			      w->status_reason ? w->status_reason : KP__LCR_CONDITIONS,
			      sm, err);
	if (rc == KP_OK && !w->deleted && requeue_ms >= 0)
		rc = kp__lc_requeue(w->r, KP_KIND_NODECLAIM, CTRL, nc_ns(w), w->meta.name,
				    requeue_ms, err);
	kp_nodeclaim_free(created);
	return rc;
}

static int managed(const kp__lc_in *in, const kp_nodeclaim *nc)
{
	return kp__lc_manages(in, nc);
}

int kp__lc_nodeclaim(kp_lifecycle_result *r, const kp__lc_in *in, const kp_nodeclaim *nc,
		     kp_error *err)
{
	int rc = KP_OK;
	if (rc == KP_OK)
		rc = kp__check_object(nc, nc ? nc->metadata : NULL, "NodeClaim", err);
	if (rc || !managed(in, nc))
		return rc;
	kp__lc_mark mark = kp__lc_mark_get(r);
	if (nc->metadata->deletion_timestamp_ms) {
		rc = kp__lc_nodeclaim_finalize(r, in, nc, err);
	} else {
		nc_work w;
		nc_work_init(&w, r, in, nc);
		rc = lifecycle_live(&w, err);
		kp__arena_free(&w.arena);
	}
	if (rc)
		kp__lc_rollback(r, mark);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Expiration                                                          */

int kp__lc_nodeclaim_expiration(kp_lifecycle_result *r, const kp__lc_in *in, const kp_nodeclaim *nc,
				kp_error *err)
{
	int rc = KP_OK;
	if (rc == KP_OK)
		rc = kp__check_object(nc, nc ? nc->metadata : NULL, "NodeClaim", err);
	if (rc || !managed(in, nc) || nc->metadata->deletion_timestamp_ms || !nc->spec)
		return rc;
	const kp_api_duration *ea = &nc->spec->expire_after;
	if (!ea->parsed || ea->never)
		return KP_OK;
	/* no creationTimestamp: not stored yet; the API server would set it now */
	int64_t created = nc->metadata->creation_timestamp_ms ? nc->metadata->creation_timestamp_ms
							      : in->now_ms;
	int64_t expires = created + ea->ns / 1000000;
	if (in->now_ms < expires)
		return kp__lc_requeue(r, KP_KIND_NODECLAIM, KP_LIFECYCLE_CONTROLLER_NODECLAIM_EXPIRATION,
				      nc->metadata->namespace_, nc->metadata->name,
				      expires - in->now_ms, err);
	char d[64], msg[MSG_MAX];
	kp__fmt_duration_ms(ea->ns / 1000000, d, sizeof(d));
	snprintf(msg, sizeof(msg), "deleting expired nodeclaim: expireAfter %s elapsed since "
		 "creation", d);
	kp__lc_mark mark = kp__lc_mark_get(r);
	rc = nc_delete(r, KP_LIFECYCLE_CONTROLLER_NODECLAIM_EXPIRATION, nc,
		       KP__LCR_EXPIRED, msg, "expired", NULL, NULL, NULL, err);
	if (rc)
		kp__lc_rollback(r, mark);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Disruption conditions (Drifted)                                     */

/* The Drifted condition: lib/state's drift decision, the one disruption
 * makes (the NodePool's catalogue from the provider, when there is one). */
static int drifted_condition(nc_work *w, const kp_nodepool *np, kp_error *err)
{
	kp_instance_types *its = NULL;
	int rc = KP_OK;
	const kp_object_meta *m = w->nc.metadata;
	if (w->in->provider && m && w->in->now_ms - m->creation_timestamp_ms > 3600 * 1000)
		rc = kp_cloudprovider_get_instance_types(&its, w->in->provider, np, err);
	char *dreason = NULL, *dmsg = NULL;
	kp__drift_args a = { np, &w->nc, NULL, its, w->in->provider, w->in->now_ms, 0, NULL };
	if (rc == KP_OK)
		rc = kp__state_drift(&dreason, &dmsg, &a, err);
	kp_instance_types_free(its);
	if (rc)
		return rc;
	int ch;
	if (dreason && nc_cond_is(w, "Launched", KP__COND_TRUE)) {
		char *reason = kp__lc_strdup(&w->arena, dreason);
		char *msg = kp__lc_strdup(&w->arena, dmsg);
		ch = reason && msg ? set_cond(w, "Drifted", KP__COND_TRUE, reason, msg) : -1;
		if (ch > 0)
			status_why(w, KP__LCR_DRIFTED, "", msg);
	} else {
		ch = kp__cond_clear(&w->arena, &w->status.conditions, &w->status.n_conditions,
				    "Drifted");
		if (ch > 0) {
			w->status_changed = 1;
			status_why(w, KP__LCR_DRIFTED, "", "no longer drifted");
		}
	}
	kp__free(dreason);
	kp__free(dmsg);
	return ch < 0 ? oom(err) : KP_OK;
}

/*
 * Consolidatable, as upstream's NodeClaim disruption controller sets it:
 * True once consolidateAfter has elapsed since status.lastPodEventTime (or
 * the Initialized transition); removed while the NodeClaim is inside the
 * window (then a requeue for when it ends), not initialized, or its
 * NodePool's consolidateAfter is Never. The clock rule is
 * kp_disruption_consolidatable's, which the disruption decisions use too.
 */
static int consolidatable_condition(nc_work *w, const kp_nodepool *np, kp_error *err)
{
	/* upstream reconciles the condition only for NodePools without
	 * spec.replicas: a static NodePool's NodeClaims are never
	 * consolidated, and their condition is left as it is */
	if (np->spec && np->spec->has_replicas)
		return KP_OK;
	uint32_t state = 0;
	int64_t since_ms = 0;
	int rc = kp_disruption_consolidatable(&state, &since_ms, &w->nc, np, w->in->now_ms, err);
	if (rc)
		return rc;
	int ch;
	if (state == KP_CONSOLIDATABLE_TRUE) {
		ch = set_cond(w, "Consolidatable", KP__COND_TRUE, "Consolidatable", "");
		if (ch > 0)
			status_why(w, KP__LCR_CONSOLIDATABLE, "", "marking consolidatable");
	} else {
		ch = kp__cond_clear(&w->arena, &w->status.conditions, &w->status.n_conditions,
				    "Consolidatable");
		if (ch > 0) {
			w->status_changed = 1;
			status_why(w, KP__LCR_CONSOLIDATABLE, "",
				   "removing consolidatable status condition");
		}
	}
	if (ch < 0)
		return oom(err);
	if (state == KP_CONSOLIDATABLE_WAITING && since_ms > w->in->now_ms)
		return kp__lc_requeue(w->r, KP_KIND_NODECLAIM,
				      KP_LIFECYCLE_CONTROLLER_NODECLAIM_DISRUPTION, nc_ns(w),
				      w->meta.name, since_ms - w->in->now_ms, err);
	return KP_OK;
}

int kp__lc_nodeclaim_disruption(kp_lifecycle_result *r, const kp__lc_in *in, const kp_nodeclaim *nc,
				kp_error *err)
{
	int rc = KP_OK;
	if (rc == KP_OK)
		rc = kp__check_object(nc, nc ? nc->metadata : NULL, "NodeClaim", err);
	if (rc || !managed(in, nc) || nc->metadata->deletion_timestamp_ms)
		return rc;
	const kp_nodepool *np = kp__nodepool_named(r, in, kp__nc_label(nc, KP_LABEL_NODEPOOL));
	if (!np)
		return KP_OK;
	nc_work w;
	nc_work_init(&w, r, in, nc);
	kp__lc_mark mark = kp__lc_mark_get(r);
	rc = drifted_condition(&w, np, err);
	/* when both conditions change, the update is named for the drift (the
	 * one that disrupts the node) and its message says both */
	const char *drift_reason = NULL, *drift_msg = NULL;
	if (rc == KP_OK && w.status_changed && w.status_reason &&
	    !(drift_msg = status_message(&w)))
		rc = oom(err);
	if (drift_msg) {
		drift_reason = w.status_reason;
		status_why(&w, NULL, NULL, NULL);
	}
	if (rc == KP_OK)
		rc = consolidatable_condition(&w, np, err);
	const char *sm = NULL;
	if (rc == KP_OK && w.status_changed && !(sm = status_message(&w)))
		rc = oom(err);
	if (rc == KP_OK && drift_reason) {
		if (!w.status_reason)
			sm = drift_msg;
		else if (!(sm = kp__arena_printf(&w.arena, "%s; %s", drift_msg, sm)))
			rc = oom(err);
		w.status_reason = drift_reason;
	}
	if (rc == KP_OK && w.status_changed) {
		kp__lc_act a = { 0 };
		a.verb = KP_LIFECYCLE_VERB_UPDATE_STATUS;
		a.kind = KP_KIND_NODECLAIM;
		a.controller = KP_LIFECYCLE_CONTROLLER_NODECLAIM_DISRUPTION;
		a.namespace_ = nc_ns(&w);
		a.name = w.meta.name;
		a.reason = w.status_reason;
		a.message = sm;
		a.object = &w.nc;
		rc = kp__lc_action(r, &a, err);
	}
	if (rc)
		kp__lc_rollback(r, mark);
	kp__arena_free(&w.arena);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Garbage collection                                                  */

/* The provider IDs the provider lists (instances not deleting). */
static int listed_ids(kp__map *ids, kp_nodeclaim *const *list, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const char *pid = list[i] && list[i]->status ? list[i]->status->provider_id : NULL;
		if (pid && (!list[i]->metadata || !list[i]->metadata->deletion_timestamp_ms) &&
		    kp__map_put(ids, pid, strlen(pid), 0, NULL, NULL) != KP_OK)
			return KP_ENOMEM;
	}
	return KP_OK;
}

static int gc_one(kp_lifecycle_result *r, const kp__lc_in *in, const kp_nodeclaim *nc,
		  const kp__map *ids, kp_error *err)
{
	const kp_nodeclaim_status *s = nc->status;
	uint32_t unused;
	if (!s || !kp__cond_is(s->conditions, s->n_conditions, "Registered", KP__COND_TRUE) ||
	    nc->metadata->deletion_timestamp_ms || !managed(in, nc) ||
	    kp__map_gets(ids, s->provider_id ? s->provider_id : "", &unused))
		return KP_OK;
	const kp_node *node = NULL;
	/* upstream's NodeForNodeClaim: several Nodes for one provider ID is an
	 * error, so such a NodeClaim is collected like one without a Node */
	if (kp__nodes_for_provider_id(r, in, s->provider_id, &node) == 1 &&
	    strcmp(kp__node_condition_status(node, "Ready"), KP__COND_TRUE) == 0)
		return KP_OK;
	char *msg = kp__strdup_printf("garbage collecting nodeclaim with no cloudprovider "
				      "representation (provider-id %s)",
				      s->provider_id ? s->provider_id : "");
	if (!msg)
		return oom(err);
	int rc = nc_delete(r, KP_LIFECYCLE_CONTROLLER_NODECLAIM_GC, nc,
			   KP__LCR_GARBAGE_COLLECTED, msg, "garbage_collected", NULL, NULL,
			   NULL, err);
	kp__free(msg);
	return rc;
}

int kp__lc_garbage_collection(kp_lifecycle_result *r, const kp__lc_in *in, kp_error *err)
{
	int rc = KP_OK;
	if (rc || !in->provider)
		return rc;
	for (size_t i = 0; i < in->n_nodeclaims; i++) {
		const kp_nodeclaim *nc = in->nodeclaims[i];
		if ((rc = kp__check_object(nc, nc ? nc->metadata : NULL, "NodeClaim", err)) != KP_OK)
			return rc;
	}
	kp_nodeclaim **list = NULL;
	size_t n = 0;
	if ((rc = kp_cloudprovider_list(&list, &n, in->provider, err)) != KP_OK)
		return rc;
	kp__map ids = { 0 };
	if (listed_ids(&ids, list, n) != KP_OK)
		rc = kp__error(err, KP_ENOMEM, NULL, "out of memory");
	kp_nodeclaims_free(list, n);
	kp__lc_mark mark = kp__lc_mark_get(r);
	for (size_t i = 0; rc == KP_OK && i < in->n_nodeclaims; i++)
		rc = gc_one(r, in, in->nodeclaims[i], &ids, err);
	kp__map_free(&ids);
	if (rc)
		kp__lc_rollback(r, mark);
	return rc;
}
