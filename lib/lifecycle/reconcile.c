/*
 * lib/lifecycle: every controller once over a snapshot.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdio.h>

#include "lifecycle_private.h"

/*
 * One object's controllers failing on that object's own input (KP_EINVAL:
 * e.g. an unparsable termination-timestamp annotation, which the API
 * server accepts) stop that object only, as controller-runtime retries only
 * the failing object: its actions of this round are dropped, a Warning
 * event ReconcileError (this project's, upstream only logs) says why, and
 * it is looked at again at once (with the controller's backoff). Any other
 * failure (out of memory, a provider error) stops the whole round.
 */
static int isolate(kp_lifecycle_result *r, kp__lc_mark mark, int rc, uint32_t kind,
		   const char *controller, const kp_object_meta *m, kp_error *err)
{
	if (rc != KP_EINVAL || !m || !m->name)
		return rc;
	kp__lc_rollback(r, mark);
	char msg[KP_ERROR_MESSAGE_MAX];
	snprintf(msg, sizeof(msg), "%s", err && err->message[0] ? err->message : "invalid input");
	const char *ns = m->namespace_ && *m->namespace_ ? m->namespace_ : NULL;
	rc = kp__lc_event(r, kind, ns, m->name, "Warning", "ReconcileError", msg, err);
	if (rc == KP_OK)
		rc = kp__lc_requeue(r, kind, controller, ns, m->name, 0, err);
	return rc;
}

/* An error's location in the cluster the round reads, as the scheduler's
 * and disruption's: the array and index ("nodeclaims[3]"), then the path
 * within the object ("nodeclaims[3].metadata.annotations[...]"). */
static void at(kp_error *err, const char *array, size_t i)
{
	char p[48]; /* a constant array name and an index: bounded */
	snprintf(p, sizeof(p), "%s[%zu]", array, i);
	kp__error_prefix(err, p);
}

static int per_nodeclaim(kp_lifecycle_result *r, const kp__lc_in *in, size_t i,
			 const kp_nodeclaim *nc, kp_error *err)
{
	int rc = kp__lc_nodeclaim(r, in, nc, err);
	if (rc == KP_OK)
		rc = kp__lc_nodeclaim_expiration(r, in, nc, err);
	if (rc == KP_OK)
		rc = kp__lc_nodeclaim_disruption(r, in, nc, err);
	if (rc == KP_OK)
		rc = kp__lc_nodeclaim_consistency(r, in, nc, err);
	if (rc == KP_OK)
		rc = kp__lc_nodeclaim_hydration(r, in, nc, err);
	if (rc)
		at(err, "nodeclaims", i);
	return rc;
}

static int run_round(kp_lifecycle_result *r, const kp__lc_in *in, kp_error *err);

/* The round looks objects up through one index (hash maps over the input)
 * and accumulates the NodePools' registration outcomes: both attached to
 * the call's own result while the round runs (entry.c makes a new result
 * per call), so no round state outlives the call. Linear in the objects. */
int kp__lc_reconcile(kp_lifecycle_result *r, const kp__lc_in *in, kp_error *err)
{
	kp__reg_health *h = NULL;
	kp__lc_index *x = NULL;
	int rc = kp__lc_index_build(&x, in, err);
	if (rc != KP_OK)
		return rc;
	if (kp__reg_health_new(&h) != KP_OK) {
		kp__lc_index_free(x);
		return kp__error(err, KP_ENOMEM, NULL, "out of memory");
	}
	kp__lc_result_set_index(r, x);
	kp__lc_result_set_health(r, h);
	rc = run_round(r, in, err);
	kp__lc_result_set_index(r, NULL);
	kp__lc_result_set_health(r, NULL);
	kp__reg_health_free(h);
	kp__lc_index_free(x);
	return rc;
}

static int run_round(kp_lifecycle_result *r, const kp__lc_in *in, kp_error *err)
{
	kp__lc_mark mark = kp__lc_mark_get(r);
	int rc = KP_OK;
	/* A NodePool's registration health is reset for a new generation
	 * before the NodeClaims report their registrations, as upstream's
	 * controllers order it: the other way round, a reset built from the
	 * input would undo a registration of the same round. */
	for (size_t i = 0; rc == KP_OK && i < in->n_nodepools; i++) {
		rc = kp__lc_nodepool_registration_health(r, in, in->nodepools[i], err);
		if (rc)
			at(err, "nodepools", i);
	}
	for (size_t i = 0; rc == KP_OK && i < in->n_nodeclaims; i++) {
		kp__lc_mark m = kp__lc_mark_get(r);
		const kp_nodeclaim *nc = in->nodeclaims[i];
		kp__reg_health_begin(kp__lc_result_health(r));
		int one = per_nodeclaim(r, in, i, nc, err);
		if (one == KP_EINVAL) /* its outcome is dropped with its actions */
			kp__reg_health_undo(kp__lc_result_health(r));
		rc = isolate(r, m, one, KP_KIND_NODECLAIM, KP_LIFECYCLE_CONTROLLER_NODECLAIM_LIFECYCLE,
			     nc ? nc->metadata : NULL, err);
	}
	if (rc == KP_OK)
		rc = kp__lc_garbage_collection(r, in, err);
	for (size_t i = 0; rc == KP_OK && i < in->n_nodes; i++) {
		kp__lc_mark m = kp__lc_mark_get(r);
		rc = isolate(r, m, kp__lc_node_termination(r, in, in->nodes[i], err),
			     KP_KIND_NODE, KP_LIFECYCLE_CONTROLLER_NODE_TERMINATION,
			     in->nodes[i] ? in->nodes[i]->metadata : NULL, err);
		if (rc == KP_OK)
			rc = kp__lc_node_health(r, in, in->nodes[i], err);
		if (rc == KP_OK)
			rc = kp__lc_node_hydration(r, in, in->nodes[i], err);
		if (rc)
			at(err, "nodes", i);
	}
	for (size_t i = 0; rc == KP_OK && i < in->n_nodepools; i++) {
		rc = kp__lc_nodepool_readiness(r, in, in->nodepools[i], err);
		if (rc == KP_OK)
			rc = kp__lc_nodepool_hash(r, in, in->nodepools[i], err);
		if (rc == KP_OK)
			rc = kp__lc_nodepool_counter(r, in, in->nodepools[i], err);
		if (rc)
			at(err, "nodepools", i);
	}
	if (rc)
		kp__lc_rollback(r, mark);
	return rc;
}
