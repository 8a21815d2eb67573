/*
 * lib/lifecycle: every controller once over a snapshot.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include "lifecycle_private.h"

static int per_nodeclaim(kp_lifecycle_result *r, const kp_lifecycle_input *in,
			 const kp_nodeclaim *nc, kp_error *err)
{
	int rc = kp_lifecycle_nodeclaim(r, in, nc, err);
	if (rc == KP_OK)
		rc = kp_lifecycle_nodeclaim_expiration(r, in, nc, err);
	if (rc == KP_OK)
		rc = kp_lifecycle_nodeclaim_disruption(r, in, nc, err);
	if (rc == KP_OK)
		rc = kp_lifecycle_nodeclaim_consistency(r, in, nc, err);
	if (rc == KP_OK)
		rc = kp_lifecycle_nodeclaim_hydration(r, in, nc, err);
	if (rc)
		kp__error_prefix(err, kp__meta_name(nc ? nc->metadata : NULL));
	return rc;
}

KP_EXPORT int kp_lifecycle_reconcile(kp_lifecycle_result *r, const kp_lifecycle_input *in,
				     kp_error *err)
{
	int rc0 = kp__lc_check_input(r, in, err);
	if (rc0)
		return rc0;
	kp__lc_mark mark = kp__lc_mark_get(r);
	int rc = KP_OK;
	for (size_t i = 0; rc == KP_OK && i < in->n_nodeclaims; i++)
		rc = per_nodeclaim(r, in, in->nodeclaims[i], err);
	if (rc == KP_OK)
		rc = kp_lifecycle_garbage_collection(r, in, err);
	for (size_t i = 0; rc == KP_OK && i < in->n_nodes; i++) {
		rc = kp_lifecycle_node_termination(r, in, in->nodes[i], err);
		if (rc == KP_OK)
			rc = kp_lifecycle_node_health(r, in, in->nodes[i], err);
		if (rc == KP_OK)
			rc = kp_lifecycle_node_hydration(r, in, in->nodes[i], err);
		if (rc)
			kp__error_prefix(err, kp__meta_name(in->nodes[i] ? in->nodes[i]->metadata
									 : NULL));
	}
	for (size_t i = 0; rc == KP_OK && i < in->n_nodepools; i++) {
		rc = kp_lifecycle_nodepool_readiness(r, in, in->nodepools[i], err);
		if (rc == KP_OK)
			rc = kp_lifecycle_nodepool_hash(r, in, in->nodepools[i], err);
		if (rc == KP_OK)
			rc = kp_lifecycle_nodepool_counter(r, in, in->nodepools[i], err);
		if (rc)
			kp__error_prefix(err, kp__meta_name(in->nodepools[i] ? in->nodepools[i]->metadata
									     : NULL));
	}
	if (rc)
		kp__lc_rollback(r, mark);
	return rc;
}
