/*
 * lib/lifecycle: the NodePool's NodeRegistrationHealthy condition, as
 * upstream kubernetes-sigs/karpenter decides it in
 * pkg/controllers/nodeclaim/lifecycle (registration.go and liveness.go:
 * updateNodePoolRegistrationHealth), pkg/state/nodepoolhealth (the
 * outcome buffer) and pkg/controllers/nodepool/registrationhealth.
 *
 * Upstream keeps, per NodePool, the last four registration outcomes in
 * memory (a success when a NodeClaim registers, a failure when one hits
 * the launch or registration timeout); two failures among them make the
 * NodePool unhealthy. A snapshot has no such history: each round starts
 * where upstream starts after a restart, with the buffer rebuilt from the
 * condition itself (True: one success; False: two failures; otherwise
 * empty), then counts the outcomes of the round's NodeClaims in input
 * order. A single call of kp_lifecycle_nodeclaim sees only its own
 * outcome.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <string.h>

#include <karpenter/wellknown.h>

#include "common/map.h"
#include "lifecycle_private.h"

#define COND "NodeRegistrationHealthy"
#define BUFFER_SIZE 4
#define UNHEALTHY_AT 2 /* failures: ThresholdFalse 0.5 of BufferSize */

enum { STATUS_UNKNOWN, STATUS_HEALTHY, STATUS_UNHEALTHY };

typedef struct tracker {
	const kp_nodepool *input;
	kp_nodepool np; /* the NodePool as this round has set it */
	kp_nodepool_status status;
	unsigned char outcomes[BUFFER_SIZE]; /* 1 success, 0 failure; oldest first */
	size_t n;
} tracker;

struct kp__reg_health {
	kp__arena arena; /* trackers (stable addresses) and condition lists */
	kp__map by_name;
	tracker **t;
	size_t n, cap;
	tracker *undo_at; /* the tracker the current NodeClaim changed, and before */
	tracker undo;
};

static void insert(tracker *t, int success)
{
	if (t->n == BUFFER_SIZE) {
		memmove(t->outcomes, t->outcomes + 1, BUFFER_SIZE - 1);
		t->n--;
	}
	t->outcomes[t->n++] = (unsigned char)success;
}

static int status_of(const tracker *t)
{
	if (!t->n)
		return STATUS_UNKNOWN;
	size_t failures = 0;
	for (size_t i = 0; i < t->n; i++)
		failures += !t->outcomes[i];
	return failures >= UNHEALTHY_AT ? STATUS_UNHEALTHY : STATUS_HEALTHY;
}

static int cond_is(const tracker *t, const char *status)
{
	return kp__cond_is(t->status.conditions, t->status.n_conditions, COND, status);
}

int kp__reg_health_new(kp__reg_health **out)
{
	*out = kp__calloc(1, sizeof(**out));
	return *out ? KP_OK : KP_ENOMEM;
}

void kp__reg_health_free(kp__reg_health *h)
{
	if (!h)
		return;
	kp__arena_free(&h->arena);
	kp__map_free(&h->by_name);
	kp__free(h->t);
	kp__free(h);
}

void kp__reg_health_begin(kp__reg_health *h)
{
	if (h)
		h->undo_at = NULL;
}

void kp__reg_health_undo(kp__reg_health *h)
{
	if (h && h->undo_at) {
		*h->undo_at = h->undo;
		h->undo_at->np.status = &h->undo_at->status;
		h->undo_at = NULL;
	}
}

/* The NodePool's tracker, made on first use (upstream's pre-hydration). */
static tracker *tracker_of(kp__reg_health *h, const kp_nodepool *np)
{
	const char *name = np->metadata->name;
	uint32_t at = 0;
	int inserted = 0;
	if (kp__map_put(&h->by_name, name, strlen(name), (uint32_t)h->n, &at, &inserted) != KP_OK)
		return NULL;
	if (!inserted)
		return at < h->n ? h->t[at] : NULL;
	tracker *t = kp__arena_alloc(&h->arena, sizeof(*t));
	if (!t || kp__grow((void **)&h->t, &h->cap, h->n + 1, sizeof(*h->t)) != KP_OK)
		return NULL; /* the map names a tracker never read: the round fails */
	t->input = np;
	kp__copy_sized(&t->np, np, sizeof(t->np));
	if (np->status) {
		kp__copy_sized(&t->status, np->status, sizeof(t->status));
	} else {
		kp_nodepool_status s = KP_NODEPOOL_STATUS_INIT;
		t->status = s;
	}
	t->np.status = &t->status;
	if (cond_is(t, KP__COND_TRUE))
		insert(t, 1);
	else if (cond_is(t, KP__COND_FALSE))
		for (int i = 0; i < UNHEALTHY_AT; i++)
			insert(t, 0);
	h->t[h->n++] = t;
	return t;
}

/* updateNodePoolRegistrationHealth applies to a NodeClaim its NodePool owns. */
static int owned_by(const kp_nodeclaim *nc, const kp_nodepool *np)
{
	const kp_object_meta *m = nc->metadata;
	const char *uid = np->metadata->uid ? np->metadata->uid : "";
	for (size_t i = 0; i < m->n_owner_references; i++) {
		const kp_owner_reference *o = m->owner_references[i];
		if (o && o->kind && strcmp(o->kind, "NodePool") == 0 &&
		    strcmp(o->uid ? o->uid : "", uid) == 0)
			return 1;
	}
	return 0;
}

static int emit(kp_lifecycle_result *r, tracker *t, const char *msg, kp_error *err)
{
	kp__lc_act a = { 0 };
	a.verb = KP_LIFECYCLE_VERB_UPDATE_STATUS;
	a.kind = KP_KIND_NODEPOOL;
	a.controller = KP_LIFECYCLE_CONTROLLER_NODECLAIM_LIFECYCLE;
	a.name = t->np.metadata->name;
	a.reason = KP__LCR_REGISTRATION_HEALTH;
	a.message = msg;
	a.object = &t->np;
	return kp__lc_action(r, &a, err);
}

static int set(kp__reg_health *h, tracker *t, const char *status, const char *reason,
	       const char *message, int64_t now_ms)
{
	kp__condset cs;
	kp__condset_nodepool(&cs, t->np.metadata, now_ms);
	return kp__cond_set(&h->arena, &cs, &t->status.conditions, &t->status.n_conditions, COND,
			    status, reason, message);
}

/* The decision of one outcome against the tracker (a dry run first). */
static int decide(kp_lifecycle_result *r, kp__reg_health *h, tracker *t, int success,
		  const kp_condition *launched, int64_t now_ms, kp_error *err)
{
	tracker dry = *t;
	insert(&dry, success);
	int st = status_of(&dry), ch = 0;
	char *msg = NULL;
	if (success && st == STATUS_HEALTHY) {
		ch = set(h, t, KP__COND_TRUE, COND, "", now_ms);
		msg = ch > 0 ? kp__strdup_printf("%s=True", COND) : NULL;
	} else if (!success && st == STATUS_UNHEALTHY && !cond_is(t, KP__COND_FALSE)) {
		/* registered-but-timed-out and launch failures say why differently */
		int up = launched && launched->status && strcmp(launched->status, KP__COND_TRUE) == 0;
		const char *reason = up ? "RegistrationFailed" : launched ? launched->reason : "";
		const char *message = up ? "Failed to register node" : launched ? launched->message : "";
		char *rs = kp__lc_strdup(&h->arena, reason ? reason : "");
		char *ms = kp__lc_strdup(&h->arena, message ? message : "");
		ch = rs && ms ? set(h, t, KP__COND_FALSE, rs, ms, now_ms) : -1;
		msg = ch > 0 ? kp__strdup_printf("%s=False (%s): %s", COND, rs, ms) : NULL;
	}
	int rc = ch < 0 || (ch > 0 && !msg) ? kp__error(err, KP_ENOMEM, NULL, "out of memory")
	       : ch > 0			    ? emit(r, t, msg, err)
					    : KP_OK;
	kp__free(msg);
	if (rc == KP_OK)
		insert(t, success);
	return rc;
}

int kp__reg_health_outcome(kp_lifecycle_result *r, const kp__lc_in *in,
			   const kp_nodeclaim *nc, int success, const kp_condition *launched,
			   kp_error *err)
{
	const kp_nodepool *np = kp__nodepool_named(r, in, kp__nc_label(nc, KP_LABEL_NODEPOOL));
	if (!np || !np->metadata || !np->metadata->name || !owned_by(nc, np))
		return KP_OK;
	kp__reg_health *h = kp__lc_result_health(r), *local = NULL;
	if (!h) {
		if (kp__reg_health_new(&local) != KP_OK)
			return kp__error(err, KP_ENOMEM, NULL, "out of memory");
		h = local;
	}
	tracker *t = tracker_of(h, np);
	int rc;
	if (!t) {
		rc = kp__error(err, KP_ENOMEM, NULL, "out of memory");
	} else {
		if (!h->undo_at) {
			h->undo = *t;
			h->undo_at = t;
		}
		rc = decide(r, h, t, success, launched, in->now_ms, err);
	}
	kp__reg_health_free(local);
	return rc;
}

/* ------------------------------------------------------------------ */
/* nodepool.registrationhealth                                         */

int kp__lc_nodepool_registration_health(kp_lifecycle_result *r, const kp__lc_in *in,
					const kp_nodepool *np, kp_error *err)
{
	int rc = KP_OK;
	if (rc == KP_OK)
		rc = kp__check_object(np, np ? np->metadata : NULL, "NodePool", err);
	if (rc || !in->nodeclasses || (in->provider && !kp_cloudprovider_manages(in->provider, np)))
		return rc;
	kp_nodeclass_status cls;
	int found = 0;
	if ((rc = kp__nodeclass_of(in, np, &cls, &found, err)) != KP_OK || !found)
		return rc;
	const kp_nodepool_status *s = np->status;
	const kp_condition *c = s ? kp_condition_find(s->conditions, s->n_conditions, COND) : NULL;
	/* a node class generation of 0 is not known: never compared */
	int class_changed = cls.generation &&
			    (s ? s->node_class_observed_generation : 0) != cls.generation;
	if (c && c->observed_generation == np->metadata->generation && !class_changed)
		return KP_OK;
	/* The round's tracker of this NodePool (kp_lifecycle_reconcile), reset:
	 * a NodeClaim of the same round then reports into the new
	 * generation's empty buffer, as upstream's controllers do after the
	 * reset. Called on its own, a tracker for this call only. */
	kp__reg_health *h = kp__lc_result_health(r), *local = NULL;
	if (!h && kp__reg_health_new(&local) != KP_OK)
		return kp__error(err, KP_ENOMEM, NULL, "out of memory");
	if (!h)
		h = local;
	tracker *t = tracker_of(h, np);
	int ch = -1;
	if (t) {
		t->n = 0; /* the new generation's buffer starts empty */
		ch = set(h, t, KP__COND_UNKNOWN, "AwaitingReconciliation",
			 "object is awaiting reconciliation", in->now_ms);
		if (ch >= 0 && cls.generation &&
		    t->status.node_class_observed_generation != cls.generation) {
			t->status.node_class_observed_generation = cls.generation;
			ch = 1;
		}
	}
	if (ch < 0) {
		rc = kp__error(err, KP_ENOMEM, NULL, "out of memory");
	} else if (ch > 0) {
		kp__lc_act a = { 0 };
		a.verb = KP_LIFECYCLE_VERB_UPDATE_STATUS;
		a.kind = KP_KIND_NODEPOOL;
		a.controller = KP_LIFECYCLE_CONTROLLER_NODEPOOL_REGISTRATION_HEALTH;
		a.name = np->metadata->name;
		a.reason = KP__LCR_REGISTRATION_HEALTH;
		a.message = !c		? "NodeRegistrationHealthy=Unknown: not yet tracked"
			    : class_changed ? "NodeRegistrationHealthy=Unknown: the node class changed"
					    : "NodeRegistrationHealthy=Unknown: the NodePool changed";
		a.object = &t->np;
		rc = kp__lc_action(r, &a, err); /* copies the object */
	}
	kp__reg_health_free(local);
	return rc;
}
