/*
 * lib/lifecycle: the result (actions, events, requeues), the scratch
 * arena and the view helpers the controllers share.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <karpenter/duration.h>

#include "common/sized.h"
#include "lifecycle_private.h"

struct kp_lifecycle_result {
	kp_lifecycle_action **actions;
	size_t n_actions, cap_actions;
	kp_lifecycle_event **events;
	size_t n_events, cap_events;
	kp_lifecycle_requeue **requeues;
	size_t n_requeues, cap_requeues;
	const kp__lc_index *index; /* the round's lookups (kp_lifecycle_reconcile), or NULL */
	kp__reg_health *health;    /* the round's registration outcomes, or NULL */
};

kp__reg_health *kp__lc_result_health(const kp_lifecycle_result *r)
{
	return r->health;
}

void kp__lc_result_set_health(kp_lifecycle_result *r, kp__reg_health *h)
{
	r->health = h;
}

const kp__lc_index *kp__lc_result_index(const kp_lifecycle_result *r)
{
	return r->index;
}

void kp__lc_result_set_index(kp_lifecycle_result *r, const kp__lc_index *x)
{
	r->index = x;
}

/* ------------------------------------------------------------------ */
/* Arena                                                               */

char *kp__lc_strdup(kp__arena *a, const char *s)
{
	return kp__arena_strdup(a, s ? s : "");
}

/* ------------------------------------------------------------------ */
/* Result                                                              */

KP_EXPORT const char *kp_lifecycle_verb_name(uint32_t verb)
{
	static const char *const names[] = { "Unknown", "patch", "updateStatus", "create", "delete",
					     "evict", "providerCreate", "providerDelete" };
	return verb < sizeof(names) / sizeof(names[0]) ? names[verb] : "Unknown";
}

/* Each reason code with its name: the one place they are bound. */
static const char *const reason_names[] = {
	[0] = "Unknown",
	[KP_LIFECYCLE_REASON_FINALIZER] = KP__LCR_FINALIZER,
	[KP_LIFECYCLE_REASON_LAUNCHED] = KP__LCR_LAUNCHED,
	[KP_LIFECYCLE_REASON_LAUNCH_FAILED] = KP__LCR_LAUNCH_FAILED,
	[KP_LIFECYCLE_REASON_INSUFFICIENT_CAPACITY] = KP__LCR_INSUFFICIENT_CAPACITY,
	[KP_LIFECYCLE_REASON_NODECLASS_NOT_READY] = KP__LCR_NODECLASS_NOT_READY,
	[KP_LIFECYCLE_REASON_NOT_REGISTERED] = KP__LCR_NOT_REGISTERED,
	[KP_LIFECYCLE_REASON_REGISTERED] = KP__LCR_REGISTERED,
	[KP_LIFECYCLE_REASON_NOT_INITIALIZED] = KP__LCR_NOT_INITIALIZED,
	[KP_LIFECYCLE_REASON_INITIALIZED] = KP__LCR_INITIALIZED,
	[KP_LIFECYCLE_REASON_LAUNCH_TIMEOUT] = KP__LCR_LAUNCH_TIMEOUT,
	[KP_LIFECYCLE_REASON_REGISTRATION_TIMEOUT] = KP__LCR_REGISTRATION_TIMEOUT,
	[KP_LIFECYCLE_REASON_EXPIRED] = KP__LCR_EXPIRED,
	[KP_LIFECYCLE_REASON_DRIFTED] = KP__LCR_DRIFTED,
	[KP_LIFECYCLE_REASON_CONSOLIDATABLE] = KP__LCR_CONSOLIDATABLE,
	[KP_LIFECYCLE_REASON_TERMINATION_GRACE] = KP__LCR_TERMINATION_GRACE,
	[KP_LIFECYCLE_REASON_NODE_DELETE] = KP__LCR_NODE_DELETE,
	[KP_LIFECYCLE_REASON_INSTANCE_TERMINATING] = KP__LCR_INSTANCE_TERMINATING,
	[KP_LIFECYCLE_REASON_FINALIZER_REMOVED] = KP__LCR_FINALIZER_REMOVED,
	[KP_LIFECYCLE_REASON_TAINTED] = KP__LCR_TAINTED,
	[KP_LIFECYCLE_REASON_DRAINING] = KP__LCR_DRAINING,
	[KP_LIFECYCLE_REASON_EVICT] = KP__LCR_EVICT,
	[KP_LIFECYCLE_REASON_FORCE_DELETE] = KP__LCR_FORCE_DELETE,
	[KP_LIFECYCLE_REASON_DRAINED] = KP__LCR_DRAINED,
	[KP_LIFECYCLE_REASON_VOLUMES_DETACHED] = KP__LCR_VOLUMES_DETACHED,
	[KP_LIFECYCLE_REASON_GARBAGE_COLLECTED] = KP__LCR_GARBAGE_COLLECTED,
	[KP_LIFECYCLE_REASON_UNHEALTHY] = KP__LCR_UNHEALTHY,
	[KP_LIFECYCLE_REASON_POD_EVENT] = KP__LCR_POD_EVENT,
	[KP_LIFECYCLE_REASON_CONSISTENCY] = KP__LCR_CONSISTENCY,
	[KP_LIFECYCLE_REASON_NODEPOOL_READY] = KP__LCR_NODEPOOL_READY,
	[KP_LIFECYCLE_REASON_HYDRATED] = KP__LCR_HYDRATED,
	[KP_LIFECYCLE_REASON_HASHED] = KP__LCR_HASHED,
	[KP_LIFECYCLE_REASON_COUNTED] = KP__LCR_COUNTED,
	[KP_LIFECYCLE_REASON_CONDITIONS] = KP__LCR_CONDITIONS,
	[KP_LIFECYCLE_REASON_REGISTRATION_HEALTH] = KP__LCR_REGISTRATION_HEALTH,
};
#define N_REASONS (sizeof(reason_names) / sizeof(reason_names[0]))

KP_EXPORT const char *kp_lifecycle_reason_name(uint32_t code)
{
	return code < N_REASONS && reason_names[code] ? reason_names[code] : "Unknown";
}

/* The code of an action's reason (0 for a name that is not a code). */
static uint32_t reason_code(const char *name)
{
	for (uint32_t c = 1; name && c < N_REASONS; c++)
		if (reason_names[c] && !strcmp(reason_names[c], name))
			return c;
	return 0;
}

KP_EXPORT void kp_lifecycle_options_init(kp_lifecycle_options *opts)
{
	if (opts) {
		kp_lifecycle_options init = KP_LIFECYCLE_OPTIONS_INIT;
		*opts = init;
	}
}

int kp__lc_result_new(kp_lifecycle_result **out)
{
	*out = kp__calloc(1, sizeof(kp_lifecycle_result));
	return *out ? KP_OK : KP_ENOMEM;
}

static void action_free(kp_lifecycle_action *a)
{
	if (!a)
		return;
	kp__free((void *)(uintptr_t)a->controller);
	kp__free((void *)(uintptr_t)a->namespace_);
	kp__free((void *)(uintptr_t)a->name);
	kp__free((void *)(uintptr_t)a->reason);
	kp__free((void *)(uintptr_t)a->message);
	kp__free((void *)(uintptr_t)a->event_type);
	kp__free((void *)(uintptr_t)a->event_reason);
	kp__free((void *)(uintptr_t)a->event_message);
	kp__free((void *)(uintptr_t)a->metric);
	kp_labels_dispose(&a->metric_labels);
	if (a->object)
		kp_object_free(a->kind, (void *)(uintptr_t)a->object);
	kp__free(a);
}

static void event_free(kp_lifecycle_event *e)
{
	if (!e)
		return;
	kp__free((void *)(uintptr_t)e->namespace_);
	kp__free((void *)(uintptr_t)e->name);
	kp__free((void *)(uintptr_t)e->type);
	kp__free((void *)(uintptr_t)e->reason);
	kp__free((void *)(uintptr_t)e->message);
	kp__free(e);
}

static void requeue_free(kp_lifecycle_requeue *q)
{
	if (!q)
		return;
	kp__free((void *)(uintptr_t)q->controller);
	kp__free((void *)(uintptr_t)q->namespace_);
	kp__free((void *)(uintptr_t)q->name);
	kp__free(q);
}

kp__lc_mark kp__lc_mark_get(const kp_lifecycle_result *r)
{
	kp__lc_mark m = { r->n_actions, r->n_events, r->n_requeues };
	return m;
}

void kp__lc_rollback(kp_lifecycle_result *r, kp__lc_mark m)
{
	while (r->n_actions > m.actions)
		action_free(r->actions[--r->n_actions]);
	while (r->n_events > m.events)
		event_free(r->events[--r->n_events]);
	while (r->n_requeues > m.requeues)
		requeue_free(r->requeues[--r->n_requeues]);
}

void kp__lc_move_last_action(kp_lifecycle_result *r, size_t to, size_t from)
{
	if (from >= r->n_actions || to >= from)
		return;
	kp_lifecycle_action *x = r->actions[from];
	memmove(&r->actions[to + 1], &r->actions[to], (from - to) * sizeof(*r->actions));
	r->actions[to] = x;
}

KP_EXPORT void kp_lifecycle_result_free(kp_lifecycle_result *r)
{
	if (!r)
		return;
	kp__lc_mark zero = { 0, 0, 0 };
	kp__lc_rollback(r, zero);
	kp__free(r->actions);
	kp__free(r->events);
	kp__free(r->requeues);
	kp__free(r);
}

KP_EXPORT size_t kp_lifecycle_result_action_count(const kp_lifecycle_result *r)
{
	return r ? r->n_actions : 0;
}

KP_EXPORT const kp_lifecycle_action *kp_lifecycle_result_action_at(const kp_lifecycle_result *r,
								size_t i)
{
	return r && i < r->n_actions ? r->actions[i] : NULL;
}

KP_EXPORT size_t kp_lifecycle_result_event_count(const kp_lifecycle_result *r)
{
	return r ? r->n_events : 0;
}

KP_EXPORT const kp_lifecycle_event *kp_lifecycle_result_event_at(const kp_lifecycle_result *r,
							      size_t i)
{
	return r && i < r->n_events ? r->events[i] : NULL;
}

KP_EXPORT size_t kp_lifecycle_result_requeue_count(const kp_lifecycle_result *r)
{
	return r ? r->n_requeues : 0;
}

KP_EXPORT const kp_lifecycle_requeue *kp_lifecycle_result_requeue_at(const kp_lifecycle_result *r,
								  size_t i)
{
	return r && i < r->n_requeues ? r->requeues[i] : NULL;
}

/* strdup that tells NULL input (stays NULL) from out of memory */
static int dup_opt(const char **dst, const char *s)
{
	*dst = NULL;
	if (!s)
		return 0;
	*dst = kp__strdup(s);
	return *dst ? 0 : -1;
}

static int fill_action(kp_lifecycle_action *x, const kp__lc_act *a, kp_error *err)
{
	x->struct_size = sizeof(*x);
	x->verb = a->verb;
	x->kind = a->kind;
	x->has_grace_period_seconds = a->has_grace ? 1 : 0;
	x->grace_period_seconds = a->grace;
	x->code = reason_code(a->reason);
	if (dup_opt(&x->controller, a->controller) || dup_opt(&x->namespace_, a->namespace_) ||
	    dup_opt(&x->name, a->name) || dup_opt(&x->reason, a->reason) ||
	    dup_opt(&x->message, a->message ? a->message : "") ||
	    dup_opt(&x->event_type, a->ev_reason ? a->ev_type : NULL) ||
	    dup_opt(&x->event_reason, a->ev_reason) ||
	    dup_opt(&x->event_message, a->ev_reason ? a->ev_message : NULL) ||
	    dup_opt(&x->metric, a->metric))
		return kp__error(err, KP_ENOMEM, NULL, "out of memory");
	for (const char *const *l = a->metric_labels; l && l[0]; l += 2) {
		int rc = kp_labels_set(&x->metric_labels, l[0], l[1] ? l[1] : "", err);
		if (rc)
			return rc;
	}
	if (a->object) {
		void *copy = NULL;
		int rc = kp_object_copy(&copy, a->kind, a->object, err);
		if (rc)
			return rc;
		x->object = copy;
	}
	return KP_OK;
}

int kp__lc_action(kp_lifecycle_result *r, const kp__lc_act *a, kp_error *err)
{
	if (kp__grow((void **)&r->actions, &r->cap_actions, r->n_actions + 1, sizeof(void *)))
		return kp__error(err, KP_ENOMEM, NULL, "out of memory");
	kp_lifecycle_action *x = kp__calloc(1, sizeof(*x));
	if (!x)
		return kp__error(err, KP_ENOMEM, NULL, "out of memory");
	int rc = fill_action(x, a, err);
	if (rc) {
		action_free(x);
		return rc;
	}
	r->actions[r->n_actions++] = x;
	if (a->ev_reason)
		return kp__lc_event(r, a->kind, a->namespace_, a->name, a->ev_type, a->ev_reason,
				    a->ev_message, err);
	return KP_OK;
}

int kp__lc_event(kp_lifecycle_result *r, uint32_t kind, const char *ns, const char *name,
		 const char *type, const char *reason, const char *message, kp_error *err)
{
	if (kp__grow((void **)&r->events, &r->cap_events, r->n_events + 1, sizeof(void *)))
		return kp__error(err, KP_ENOMEM, NULL, "out of memory");
	kp_lifecycle_event *e = kp__calloc(1, sizeof(*e));
	if (!e)
		return kp__error(err, KP_ENOMEM, NULL, "out of memory");
	e->struct_size = sizeof(*e);
	e->kind = kind;
	if (dup_opt(&e->namespace_, ns) || dup_opt(&e->name, name) ||
	    dup_opt(&e->type, type ? type : "Normal") || dup_opt(&e->reason, reason) ||
	    dup_opt(&e->message, message ? message : "")) {
		event_free(e);
		return kp__error(err, KP_ENOMEM, NULL, "out of memory");
	}
	r->events[r->n_events++] = e;
	return KP_OK;
}

int kp__lc_requeue(kp_lifecycle_result *r, uint32_t kind, const char *controller, const char *ns,
		   const char *name, int64_t after_ms, kp_error *err)
{
	if (kp__grow((void **)&r->requeues, &r->cap_requeues, r->n_requeues + 1, sizeof(void *)))
		return kp__error(err, KP_ENOMEM, NULL, "out of memory");
	kp_lifecycle_requeue *q = kp__calloc(1, sizeof(*q));
	if (!q)
		return kp__error(err, KP_ENOMEM, NULL, "out of memory");
	q->struct_size = sizeof(*q);
	q->kind = kind;
	q->after_ms = after_ms < 0 ? 0 : after_ms;
	if (dup_opt(&q->controller, controller) || dup_opt(&q->namespace_, ns) ||
	    dup_opt(&q->name, name)) {
		requeue_free(q);
		return kp__error(err, KP_ENOMEM, NULL, "out of memory");
	}
	r->requeues[r->n_requeues++] = q;
	return KP_OK;
}

/* ------------------------------------------------------------------ */
/* Conditions                                                          */

int kp__cond_is(kp_condition *const *conds, size_t n, const char *type, const char *status)
{
	const kp_condition *c = kp_condition_find(conds, n, type);
	return c && c->status && strcmp(c->status, status) == 0;
}

static int str_eq(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "") == 0;
}

static const char *const nodeclaim_deps[] = { "Launched", "Registered", "Initialized" };
static const char *const nodepool_deps[] = { "ValidationSucceeded", "NodeClassReady" };

static void condset_fill(kp__condset *cs, const kp_object_meta *m, int64_t now_ms)
{
	cs->generation = m ? m->generation : 0;
	/* no creationTimestamp: not stored yet, the API server would set it now */
	cs->created_ms = m && m->creation_timestamp_ms ? m->creation_timestamp_ms : now_ms;
	cs->deleting = m && m->deletion_timestamp_ms != 0;
	cs->now_ms = now_ms;
}

void kp__condset_nodeclaim(kp__condset *cs, const kp_object_meta *m, int64_t now_ms)
{
	cs->deps = nodeclaim_deps;
	cs->n_deps = sizeof(nodeclaim_deps) / sizeof(nodeclaim_deps[0]);
	condset_fill(cs, m, now_ms);
}

void kp__condset_nodepool(kp__condset *cs, const kp_object_meta *m, int64_t now_ms)
{
	cs->deps = nodepool_deps;
	cs->n_deps = sizeof(nodepool_deps) / sizeof(nodepool_deps[0]);
	condset_fill(cs, m, now_ms);
}

static int is_dep(const kp__condset *cs, const char *type)
{
	for (size_t i = 0; i < cs->n_deps; i++)
		if (strcmp(cs->deps[i], type) == 0)
			return 1;
	return 0;
}

static int is_root(const kp_condition *c)
{
	return c->type && strcmp(c->type, KP__COND_ROOT) == 0;
}

/* operatorpkg's order: the root last, the others by lastTransitionTime
 * (stable: equal times keep their order). */
static int cond_before(const kp_condition *x, const kp_condition *y)
{
	if (is_root(x) || is_root(y))
		return is_root(y);
	return x->last_transition_time_ms < y->last_transition_time_ms;
}

static void cond_sort(kp_condition **list, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		kp_condition *x = list[i];
		size_t j = i;
		for (; j > 0 && cond_before(x, list[j - 1]); j--)
			list[j] = list[j - 1];
		list[j] = x;
	}
}

static int set_one(kp__arena *a, const kp__condset *cs, kp_condition ***conds, size_t *n,
		   const char *type, const char *status, const char *reason, const char *message);

/* recomputeRootCondition: Ready True when every dependent is True at the
 * object's generation; else Unknown ReconcilingDependents, or False
 * UnhealthyDependents when one is False at the generation, with the
 * unhealthy dependents as "Type=Status, ..." (latest transition first). */
static int recompute_root(kp__arena *a, const kp__condset *cs, kp_condition ***conds,
			  size_t *n)
{
	kp_condition **bad = kp__arena_alloc(a, (*n ? *n : 1) * sizeof(*bad));
	if (!bad)
		return -1;
	size_t nb = 0, len = 1;
	int any_false = 0;
	for (size_t i = 0; i < *n; i++) {
		kp_condition *c = (*conds)[i];
		if (!c || !c->type || !is_dep(cs, c->type))
			continue;
		int f = str_eq(c->status, KP__COND_FALSE);
		/* healthy only when True at the current generation (IsTrue) */
		if (str_eq(c->status, KP__COND_TRUE) && c->observed_generation == cs->generation)
			continue;
		any_false |= f && c->observed_generation == cs->generation;
		size_t j = nb++;
		for (; j > 0 && bad[j - 1]->last_transition_time_ms < c->last_transition_time_ms; j--)
			bad[j] = bad[j - 1];
		bad[j] = c;
		len += strlen(c->type) + strlen(c->status ? c->status : "") + 3;
	}
	if (!nb)
		return set_one(a, cs, conds, n, KP__COND_ROOT, KP__COND_TRUE, KP__COND_ROOT, "");
	char *msg = kp__arena_alloc(a, len);
	if (!msg)
		return -1;
	size_t at = 0;
	for (size_t i = 0; i < nb; i++)
		at += (size_t)snprintf(msg + at, len - at, "%s%s=%s", i ? ", " : "", bad[i]->type,
				       bad[i]->status ? bad[i]->status : "");
	return set_one(a, cs, conds, n, KP__COND_ROOT, any_false ? KP__COND_FALSE : KP__COND_UNKNOWN,
		       any_false ? "UnhealthyDependents" : "ReconcilingDependents", msg);
}

static int set_one(kp__arena *a, const kp__condset *cs, kp_condition ***conds, size_t *n,
		   const char *type, const char *status, const char *reason, const char *message)
{
	const kp_condition *old = kp_condition_find(*conds, *n, type);
	if (old && str_eq(old->status, status) && str_eq(old->reason, reason) &&
	    str_eq(old->message, message) && old->observed_generation == cs->generation)
		return 0;
	kp_condition **list = kp__arena_alloc(a, (*n + 1) * sizeof(*list));
	kp_condition *c = kp__arena_alloc(a, sizeof(*c));
	if (!list || !c)
		return -1;
	c->struct_size = sizeof(*c);
	c->type = type;
	c->status = status;
	c->reason = reason ? reason : "";
	c->message = message ? message : "";
	c->observed_generation = cs->generation;
	/* the transition time moves only with the status; a root or dependent
	 * condition seen for the first time transitioned at creation */
	if (old)
		c->last_transition_time_ms = str_eq(old->status, status) ? old->last_transition_time_ms
									  : cs->now_ms;
	else
		c->last_transition_time_ms = strcmp(type, KP__COND_ROOT) == 0 || is_dep(cs, type)
						     ? cs->created_ms
						     : cs->now_ms;
	size_t m = 0;
	for (size_t i = 0; i < *n; i++) {
		kp_condition *x = (*conds)[i];
		if (!x || x == old)
			continue;
		if (cs->deleting && x->observed_generation != cs->generation) {
			/* deleting: every condition observes the current generation */
			kp_condition *y = kp__arena_alloc(a, sizeof(*y));
			if (!y)
				return -1;
			kp__copy_sized(y, x, sizeof(*y));
			y->observed_generation = cs->generation;
			x = y;
		}
		list[m++] = x;
	}
	list[m++] = c;
	cond_sort(list, m);
	*conds = list;
	*n = m;
	if (strcmp(type, KP__COND_ROOT) != 0 && recompute_root(a, cs, conds, n) < 0)
		return -1;
	return 1;
}

int kp__cond_init(kp__arena *a, const kp__condset *cs, kp_condition ***conds, size_t *n)
{
	int changed = 0;
	for (size_t i = 0; i <= cs->n_deps; i++) {
		const char *t = i ? cs->deps[i - 1] : KP__COND_ROOT;
		if (kp_condition_find(*conds, *n, t))
			continue;
		int rc = set_one(a, cs, conds, n, t, KP__COND_UNKNOWN, "AwaitingReconciliation",
				 "object is awaiting reconciliation");
		if (rc < 0)
			return -1;
		changed |= rc;
	}
	return changed;
}

int kp__cond_set(kp__arena *a, const kp__condset *cs, kp_condition ***conds, size_t *n,
		 const char *type, const char *status, const char *reason, const char *message)
{
	int init = kp__cond_init(a, cs, conds, n);
	if (init < 0)
		return -1;
	int rc = set_one(a, cs, conds, n, type, status, reason, message);
	return rc < 0 ? -1 : (rc || init);
}

int kp__cond_clear(kp__arena *a, kp_condition ***conds, size_t *n, const char *type)
{
	const kp_condition *old = kp_condition_find(*conds, *n, type);
	if (!old)
		return 0;
	kp_condition **list = kp__arena_alloc(a, (*n ? *n : 1) * sizeof(*list));
	if (!list)
		return -1;
	size_t m = 0;
	for (size_t i = 0; i < *n; i++)
		if ((*conds)[i] != old)
			list[m++] = (*conds)[i];
	*conds = list;
	*n = m;
	return 1;
}

/* ------------------------------------------------------------------ */
/* Finalizers, labels, taints                                          */

int kp__has_finalizer(const kp_object_meta *m, const char *f)
{
	for (size_t i = 0; m && i < m->n_finalizers; i++)
		if (m->finalizers[i] && strcmp(m->finalizers[i], f) == 0)
			return 1;
	return 0;
}

int kp__add_finalizer(kp__arena *a, kp_object_meta *m, const char *f)
{
	if (kp__has_finalizer(m, f))
		return 0;
	const char **list = kp__arena_alloc(a, (m->n_finalizers + 1) * sizeof(*list));
	if (!list)
		return -1;
	for (size_t i = 0; i < m->n_finalizers; i++)
		list[i] = m->finalizers[i];
	list[m->n_finalizers] = f;
	m->finalizers = list;
	m->n_finalizers++;
	return 1;
}

int kp__remove_finalizer(kp__arena *a, kp_object_meta *m, const char *f)
{
	if (!kp__has_finalizer(m, f))
		return 0;
	const char **list = kp__arena_alloc(a, m->n_finalizers * sizeof(*list));
	if (!list)
		return -1;
	size_t k = 0;
	for (size_t i = 0; i < m->n_finalizers; i++)
		if (!m->finalizers[i] || strcmp(m->finalizers[i], f) != 0)
			list[k++] = m->finalizers[i];
	m->finalizers = list;
	m->n_finalizers = k;
	return 1;
}

int kp__labels_put(kp__arena *a, kp_labels *l, const char *key, const char *value)
{
	const char *cur = kp_labels_get(l, key);
	if (cur && str_eq(cur, value))
		return 0;
	kp_label *items = kp__arena_alloc(a, (l->count + 1) * sizeof(*items));
	if (!items)
		return -1;
	size_t k = 0;
	int placed = 0;
	for (size_t i = 0; i < l->count; i++) {
		int c = strcmp(l->items[i].key, key);
		if (c == 0)
			continue;
		if (!placed && c > 0) {
			items[k].key = key;
			items[k++].value = value ? value : "";
			placed = 1;
		}
		items[k++] = l->items[i];
	}
	if (!placed) {
		items[k].key = key;
		items[k++].value = value ? value : "";
	}
	l->items = items;
	l->count = k;
	return 1;
}

int kp__labels_assign(kp__arena *a, kp_labels *dst, const kp_labels *src)
{
	int changed = 0;
	for (size_t i = 0; src && i < src->count; i++) {
		int rc = kp__labels_put(a, dst, src->items[i].key, src->items[i].value);
		if (rc < 0)
			return -1;
		changed |= rc;
	}
	return changed;
}

int kp__taints_has_match(const kp_taint *t, size_t n, const kp_taint *want)
{
	for (size_t i = 0; i < n; i++)
		if (kp_taint_match(&t[i], want))
			return 1;
	return 0;
}

int kp__taints_append(kp__arena *a, kp_taint **t, size_t *n, const kp_taint *add)
{
	kp_taint *list = kp__arena_alloc(a, (*n + 1) * sizeof(*list));
	if (!list)
		return -1;
	if (*n)
		memcpy(list, *t, *n * sizeof(*list));
	list[*n] = *add;
	*t = list;
	(*n)++;
	return 1;
}

/* ------------------------------------------------------------------ */
/* NodeClaim views                                                     */

void kp__copy_sized(void *dst, const void *src, size_t ours)
{
	/* an object struct shorter than ours (an older caller's) reads its
	 * missing tail as zero; the view never holds stack garbage */
	uint32_t size = *(const uint32_t *)src;
	memset(dst, 0, ours);
	memcpy(dst, src, size < ours ? size : ours);
	*(uint32_t *)dst = (uint32_t)ours;
}



void kp__ncv_init(kp__ncv *v, const kp_nodeclaim *nc)
{
	kp__copy_sized(&v->nc, nc, sizeof(v->nc));
	kp__copy_sized(&v->meta, nc->metadata, sizeof(v->meta));
	v->nc.metadata = &v->meta;
	if (nc->status) {
		kp__copy_sized(&v->status, nc->status, sizeof(v->status));
	} else {
		kp_nodeclaim_status s = KP_NODECLAIM_STATUS_INIT;
		v->status = s;
	}
	v->nc.status = &v->status;
	v->status_changed = 0;
}

int kp__ncv_set(kp__arena *a, kp__ncv *v, const char *type, const char *status, const char *reason,
		   const char *message, int64_t now_ms)
{
	kp__condset cs;
	kp__condset_nodeclaim(&cs, &v->meta, now_ms);
	int rc = kp__cond_set(a, &cs, &v->status.conditions, &v->status.n_conditions, type, status,
			      reason, message);
	if (rc > 0)
		v->status_changed = 1;
	return rc;
}

/* ------------------------------------------------------------------ */
/* Queries                                                             */

const char *kp__meta_name(const kp_object_meta *m)
{
	return m && m->name ? m->name : "";
}

const char *kp__nc_label(const kp_nodeclaim *nc, const char *key)
{
	const char *v = nc && nc->metadata ? kp_labels_get(&nc->metadata->labels, key) : NULL;
	return v ? v : "";
}

const char *kp__node_condition_status(const kp_node *node, const char *type)
{
	const kp_node_status *s = node ? node->status : NULL;
	const kp_condition *c = s ? kp_condition_find(s->conditions, s->n_conditions, type) : NULL;
	return c && c->status ? c->status : "";
}

const char *kp__termination_mode(const kp_nodeclaim *nc)
{
	const kp_api_duration *d = nc && nc->spec ? &nc->spec->termination_grace_period : NULL;
	if (!d || !d->parsed)
		return "graceful";
	return d->ns <= 0 ? "forceful" : "eventual";
}

void kp__fmt_duration_ms(int64_t ms, char *buf, size_t size)
{
	/* saturated as Go's time.Duration arithmetic (time.Until, Sub) */
	int64_t ns = ms > INT64_MAX / 1000000   ? INT64_MAX
		     : ms < INT64_MIN / 1000000 ? INT64_MIN
						: ms * 1000000;
	if (kp_duration_format_ns(ns, buf, size) != KP_OK && size)
		snprintf(buf, size, "%lldms", (long long)ms);
}

int kp__check_object(const void *obj, const kp_object_meta *meta, const char *what, kp_error *err)
{
	if (!obj)
		return kp__error(err, KP_EINVAL, NULL, "%s is NULL", what);
	if (!meta || !meta->name || !*meta->name)
		return kp__error(err, KP_EINVAL, "metadata.name", "%s has no name", what);
	return KP_OK;
}
