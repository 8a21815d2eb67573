/*
 * lib/lifecycle: nodepool.readiness (NodeClassReady from the node class),
 * nodepool.validation (ValidationSucceeded from the runtime checks) and the
 * NodePool's root condition Ready over those two, as upstream
 * kubernetes-sigs/karpenter pkg/controllers/nodepool/{readiness,validation}.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdio.h>
#include <string.h>

#include <karpenter/hash.h>
#include <karpenter/scheduling.h>
#include <karpenter/wellknown.h>
#include <karpenter/validation.h>

#include "lifecycle_private.h"


typedef struct np_view {
	kp_nodepool np;
	kp_nodepool_status status;
	kp__arena arena;
	int changed;
} np_view;

static void np_view_init(np_view *v, const kp_nodepool *np)
{
	memset(v, 0, sizeof(*v));
	kp__copy_sized(&v->np, np, sizeof(v->np));
	if (np->status) {
		kp__copy_sized(&v->status, np->status, sizeof(v->status));
	} else {
		kp_nodepool_status s = KP_NODEPOOL_STATUS_INIT;
		v->status = s;
	}
	v->np.status = &v->status;
}

static int set(np_view *v, const char *type, const char *status, const char *reason,
	       const char *message, int64_t now)
{
	kp__condset cs;
	kp__condset_nodepool(&cs, v->np.metadata, now);
	int rc = kp__cond_set(&v->arena, &cs, &v->status.conditions, &v->status.n_conditions, type,
			      status, reason, message);
	if (rc > 0)
		v->changed = 1;
	return rc;
}

/* StatusConditions(): the root and the dependents exist. */
static int init_conditions(np_view *v, int64_t now)
{
	kp__condset cs;
	kp__condset_nodepool(&cs, v->np.metadata, now);
	int rc = kp__cond_init(&v->arena, &cs, &v->status.conditions, &v->status.n_conditions);
	if (rc > 0)
		v->changed = 1;
	return rc;
}

static int emit(kp_lifecycle_result *r, np_view *v, const char *ctrl, const char *reason,
		const char *msg, kp_error *err)
{
	if (!v->changed)
		return KP_OK;
	kp__lc_act a = { 0 };
	a.verb = KP_LIFECYCLE_VERB_UPDATE_STATUS;
	a.kind = KP_KIND_NODEPOOL;
	a.controller = ctrl;
	a.name = v->np.metadata->name;
	a.reason = reason;
	a.message = msg;
	a.object = &v->np;
	return kp__lc_action(r, &a, err);
}

/* NodeClassReady from the node class (upstream readiness controller): not
 * found, being deleted, its Ready condition absent or Unknown, or its Ready
 * condition's status, reason and message. */
static int node_class_ready(np_view *v, const kp_nodeclass_status *c, int64_t now)
{
	if (!c)
		return set(v, "NodeClassReady", KP__COND_FALSE, "NodeClassNotFound",
			   "NodeClass not found on cluster", now);
	if (c->terminating)
		return set(v, "NodeClassReady", KP__COND_FALSE, "NodeClassTerminating",
			   "NodeClass is Terminating", now);
	if (c->ready_unknown)
		return set(v, "NodeClassReady", KP__COND_FALSE, "NodeClassReadinessUnknown",
			   "Node Class Readiness Unknown", now);
	if (c->ready)
		return set(v, "NodeClassReady", KP__COND_TRUE, "NodeClassReady", "", now);
	return set(v, "NodeClassReady", KP__COND_FALSE,
		   c->reason && *c->reason ? c->reason : "NodeClassNotReady",
		   c->message ? c->message : "", now);
}

static int check(kp_lifecycle_result *r, const kp__lc_in *in, const kp_nodepool *np,
		 kp_error *err)
{
	if (in->provider && !kp_cloudprovider_manages(in->provider, np))
		return KP_OK;
	np_view v;
	np_view_init(&v, np);
	int rc = KP_OK, ch = 0, found = 0;
	kp_nodeclass_status c;
	if (in->nodeclasses && (rc = kp__nodeclass_of(in, np, &c, &found, err)) != KP_OK)
		return rc;
	if (in->nodeclasses)
		ch = node_class_ready(&v, found ? &c : NULL, in->now_ms);
	kp_validation *val = NULL;
	if (ch >= 0 && (rc = kp_validate(&val, KP_KIND_NODEPOOL, np, NULL, NULL, err)) == KP_OK) {
		const kp_field_error *fe = kp_validation_count(val) ? kp_validation_at(val, 0) : NULL;
		char *m = fe ? kp__arena_printf(&v.arena, "%s: %s", fe->field, fe->message)
			     : kp__lc_strdup(&v.arena, "");
		ch = !m ? -1
		     : fe ? set(&v, "ValidationSucceeded", KP__COND_FALSE, "NodePoolValidationFailed", m,
				in->now_ms)
			  : set(&v, "ValidationSucceeded", KP__COND_TRUE, "ValidationSucceeded", "",
				in->now_ms);
	}
	kp_validation_free(val);
	if (rc == KP_OK && (ch < 0 || init_conditions(&v, in->now_ms) < 0))
		rc = kp__error(err, KP_ENOMEM, NULL, "out of memory");
	if (rc == KP_OK) {
		const kp_condition *ready = kp_condition_find(v.status.conditions, v.status.n_conditions,
							 "Ready");
		const char *msg = kp__arena_printf(&v.arena, "Ready=%s%s%s", ready->status,
						ready->message && *ready->message ? ": " : "",
						ready->message ? ready->message : "");
		rc = msg ? emit(r, &v, KP_LIFECYCLE_CONTROLLER_NODEPOOL_READINESS,
				KP__LCR_NODEPOOL_READY, msg, err)
			 : kp__error(err, KP_ENOMEM, NULL, "out of memory");
	}
	kp__arena_free(&v.arena);
	return rc;
}

int kp__lc_nodepool_readiness(kp_lifecycle_result *r, const kp__lc_in *in, const kp_nodepool *np,
			      kp_error *err)
{
	int rc = KP_OK;
	if (rc)
		return rc;
	rc = kp__check_object(np, np ? np->metadata : NULL, "NodePool", err);
	if (rc)
		return rc;
	kp__lc_mark mark = kp__lc_mark_get(r);
	rc = check(r, in, np, err);
	if (rc)
		kp__lc_rollback(r, mark);
	return rc;
}

/* ------------------------------------------------------------------ */
/* nodepool.hash                                                       */

static int patch_annotations(kp_lifecycle_result *r, uint32_t kind, const void *obj,
			     const kp_object_meta *meta, const kp_labels *add, const char *msg,
			     kp_error *err)
{
	kp__arena a = { 0 };
	kp_object_meta m;
	kp__copy_sized(&m, meta, sizeof(m));
	int ch = kp__labels_assign(&a, &m.annotations, add), rc = KP_OK;
	if (ch < 0)
		rc = kp__error(err, KP_ENOMEM, NULL, "out of memory");
	if (ch > 0) {
		/* every kind starts struct_size, kind, api_version, metadata */
		union {
			kp_nodepool np;
			kp_nodeclaim nc;
		} v;
		if (kind == KP_KIND_NODEPOOL) {
			kp__copy_sized(&v.np, obj, sizeof(v.np));
			v.np.metadata = &m;
		} else {
			kp__copy_sized(&v.nc, obj, sizeof(v.nc));
			v.nc.metadata = &m;
		}
		kp__lc_act x = { 0 };
		x.verb = KP_LIFECYCLE_VERB_PATCH;
		x.kind = kind;
		x.controller = KP_LIFECYCLE_CONTROLLER_NODEPOOL_HASH;
		x.namespace_ = meta->namespace_;
		x.name = meta->name;
		x.reason = KP__LCR_HASHED;
		x.message = msg;
		x.object = &v;
		rc = kp__lc_action(r, &x, err);
	}
	kp__arena_free(&a);
	return rc;
}

/* A new hash version: the NodePool's NodeClaims get the new version (and,
 * unless drifted, the new hash). */
static int upgrade_nodeclaims(kp_lifecycle_result *r, const kp__lc_in *in,
			      const kp_nodepool *np, kp_error *err)
{
	kp__lc_iter it;
	kp__lc_iter_init(&it, r, in, KP__ITER_POOL_NODECLAIMS, kp__meta_name(np->metadata));
	for (const kp_nodeclaim *nc; (nc = kp__lc_iter_next(&it)) != NULL;) {
		if (!nc->metadata || !kp__lc_manages(in, nc))
			continue;
		kp_labels add = KP_LABELS_INIT;
		int rc = kp_nodeclaim_hash_annotations(&add, np, nc, NULL, err);
		if (rc == KP_OK)
			rc = patch_annotations(r, KP_KIND_NODECLAIM, nc, nc->metadata, &add,
					       "nodepool hash version upgraded", err);
		kp_labels_dispose(&add);
		if (rc)
			return rc;
	}
	return KP_OK;
}

static int hash_nodepool(kp_lifecycle_result *r, const kp__lc_in *in,
			 const kp_nodepool *np, kp_error *err)
{
	const char *ver = kp_labels_get(&np->metadata->annotations, KP_ANNOTATION_NODEPOOL_HASH_VERSION);
	int rc = KP_OK;
	if ((!ver || strcmp(ver, KP_NODEPOOL_HASH_VERSION) != 0) &&
	    (rc = upgrade_nodeclaims(r, in, np, err)) != KP_OK)
		return rc;
	kp_labels add = KP_LABELS_INIT;
	rc = kp_nodepool_hash_annotations(&add, np, NULL, err);
	if (rc == KP_OK) {
		char msg[256];
		snprintf(msg, sizeof(msg), "%s=%s, %s=%s", KP_ANNOTATION_NODEPOOL_HASH,
			 kp_labels_get(&add, KP_ANNOTATION_NODEPOOL_HASH),
			 KP_ANNOTATION_NODEPOOL_HASH_VERSION,
			 kp_labels_get(&add, KP_ANNOTATION_NODEPOOL_HASH_VERSION));
		rc = patch_annotations(r, KP_KIND_NODEPOOL, np, np->metadata, &add, msg, err);
	}
	kp_labels_dispose(&add);
	return rc;
}

int kp__lc_nodepool_hash(kp_lifecycle_result *r, const kp__lc_in *in, const kp_nodepool *np,
			 kp_error *err)
{
	int rc = KP_OK;
	if (rc == KP_OK)
		rc = kp__check_object(np, np ? np->metadata : NULL, "NodePool", err);
	if (rc || (in->provider && !kp_cloudprovider_manages(in->provider, np)))
		return rc;
	kp__lc_mark mark = kp__lc_mark_get(r);
	rc = hash_nodepool(r, in, np, err);
	if (rc)
		kp__lc_rollback(r, mark);
	return rc;
}
