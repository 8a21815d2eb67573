/*
 * The lifecycle's public entry points: each reads the caller's cluster and
 * options once with their sizes, makes a new result and runs its controller
 * (or the round) on it. Round state (kp_lifecycle_reconcile's lookups and
 * registration outcomes) lives in that call's own result while it runs and
 * never reaches the caller's next call.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdio.h>
#include <string.h>

#include "lifecycle_private.h"
#include "common/sized.h"

typedef struct call {
	kp__lc_in in;
	kp_lifecycle_result *result;
} call;

/* @p vas: the call reads the VolumeAttachments (Node termination). */
static int begin(call *c, kp_lifecycle_result **out, const kp_cluster_spec *cluster,
		 const kp_lifecycle_options *opts, int vas, kp_error *err)
{
	c->result = NULL;
	if (out)
		*out = NULL;
	if (!out || !cluster)
		return kp__error(err, KP_EINVAL, NULL, "NULL argument");
	kp_cluster_spec spec;
	int rc = KP__READ_SIZED(&spec, cluster, kp_cluster_spec, err);
	if (rc)
		return rc;
	kp_lifecycle_options o = KP_LIFECYCLE_OPTIONS_INIT;
	if (opts && (rc = KP__READ_SIZED(&o, opts, kp_lifecycle_options, err)) != KP_OK)
		return rc;
	if (o.feature_gates & ~KP_FEATURE_GATES_ALL)
		return kp__error(err, KP_EINVAL, "feature_gates", "unknown feature gates 0x%x",
				 o.feature_gates & ~KP_FEATURE_GATES_ALL);
	kp__lc_in *in = &c->in;
	memset(in, 0, sizeof(*in));
	in->feature_gates = o.feature_gates;
	in->provider = o.cloudprovider;
	in->now_ms = spec.now_ms;
	in->nodepools = spec.nodepools;
	in->n_nodepools = spec.n_nodepools;
	in->nodeclaims = spec.nodeclaims;
	in->n_nodeclaims = spec.n_nodeclaims;
	in->nodes = spec.nodes;
	in->n_nodes = spec.n_nodes;
	in->pods = spec.pods;
	in->n_pods = spec.n_pods;
	in->pdbs = spec.pdbs;
	in->n_pdbs = spec.n_pdbs;
	in->pvcs = spec.pvcs;
	in->n_pvcs = spec.n_pvcs;
	in->nodeclasses = spec.nodeclasses;
	in->n_nodeclasses = spec.n_nodeclasses;
	in->volume_attachments = spec.volume_attachments;
	in->n_volume_attachments = spec.n_volume_attachments;
	/* the VolumeAttachments are read in place: their sizes are checked
	 * once per call that reads them, here, and an error names the one in
	 * the cluster */
	for (size_t i = 0; vas && in->volume_attachments && i < in->n_volume_attachments; i++) {
		const kp_volume_attachment *x = in->volume_attachments[i];
		kp_error se = KP_ERROR_INIT;
		if (x && ((rc = KP__CHECK_SIZED(x, kp_volume_attachment, &se)) != KP_OK ||
			  (x->spec && (rc = KP__CHECK_SIZED(x->spec, kp_volume_attachment_spec, &se)) !=
					      KP_OK) ||
			  (x->spec && x->spec->source &&
			   (rc = KP__CHECK_SIZED(x->spec->source, kp_volume_attachment_source, &se)) !=
				   KP_OK))) {
			char path[48]; /* a constant name and an index: bounded */
			snprintf(path, sizeof(path), "volume_attachments[%zu]", i);
			return kp__error(err, rc, path, "%s: %s", path, se.message);
		}
	}
	if (kp__lc_result_new(&c->result))
		return kp__error(err, KP_ENOMEM, NULL, "out of memory");
	return KP_OK;
}

static int end(call *c, kp_lifecycle_result **out, int rc)
{
	if (rc) {
		kp_lifecycle_result_free(c->result);
		return rc;
	}
	*out = c->result;
	return KP_OK;
}

KP_EXPORT int kp_lifecycle_nodeclaim(kp_lifecycle_result **out,
		const kp_cluster_spec *cluster, const kp_lifecycle_options *opts, const kp_nodeclaim *nodeclaim,
		kp_error *err)
{
	call c;
	int rc = begin(&c, out, cluster, opts, 0, err);
	if (rc == KP_OK)
		rc = kp__lc_nodeclaim(c.result, &c.in, nodeclaim, err);
	return end(&c, out, rc);
}

KP_EXPORT int kp_lifecycle_nodeclaim_expiration(kp_lifecycle_result **out,
		const kp_cluster_spec *cluster, const kp_lifecycle_options *opts, const kp_nodeclaim *nodeclaim,
		kp_error *err)
{
	call c;
	int rc = begin(&c, out, cluster, opts, 0, err);
	if (rc == KP_OK)
		rc = kp__lc_nodeclaim_expiration(c.result, &c.in, nodeclaim, err);
	return end(&c, out, rc);
}

KP_EXPORT int kp_lifecycle_nodeclaim_disruption(kp_lifecycle_result **out,
		const kp_cluster_spec *cluster, const kp_lifecycle_options *opts, const kp_nodeclaim *nodeclaim,
		kp_error *err)
{
	call c;
	int rc = begin(&c, out, cluster, opts, 0, err);
	if (rc == KP_OK)
		rc = kp__lc_nodeclaim_disruption(c.result, &c.in, nodeclaim, err);
	return end(&c, out, rc);
}

KP_EXPORT int kp_lifecycle_garbage_collection(kp_lifecycle_result **out,
		const kp_cluster_spec *cluster, const kp_lifecycle_options *opts,
		kp_error *err)
{
	call c;
	int rc = begin(&c, out, cluster, opts, 0, err);
	if (rc == KP_OK)
		rc = kp__lc_garbage_collection(c.result, &c.in, err);
	return end(&c, out, rc);
}

KP_EXPORT int kp_lifecycle_node_termination(kp_lifecycle_result **out,
		const kp_cluster_spec *cluster, const kp_lifecycle_options *opts, const kp_node *node,
		kp_error *err)
{
	call c;
	int rc = begin(&c, out, cluster, opts, 1, err);
	if (rc == KP_OK)
		rc = kp__lc_node_termination(c.result, &c.in, node, err);
	return end(&c, out, rc);
}

KP_EXPORT int kp_lifecycle_pod_event(kp_lifecycle_result **out,
		const kp_cluster_spec *cluster, const kp_lifecycle_options *opts, const kp_pod *pod,
		kp_error *err)
{
	call c;
	int rc = begin(&c, out, cluster, opts, 0, err);
	if (rc == KP_OK)
		rc = kp__lc_pod_event(c.result, &c.in, pod, err);
	return end(&c, out, rc);
}

KP_EXPORT int kp_lifecycle_nodeclaim_consistency(kp_lifecycle_result **out,
		const kp_cluster_spec *cluster, const kp_lifecycle_options *opts, const kp_nodeclaim *nodeclaim,
		kp_error *err)
{
	call c;
	int rc = begin(&c, out, cluster, opts, 0, err);
	if (rc == KP_OK)
		rc = kp__lc_nodeclaim_consistency(c.result, &c.in, nodeclaim, err);
	return end(&c, out, rc);
}

KP_EXPORT int kp_lifecycle_nodepool_counter(kp_lifecycle_result **out,
		const kp_cluster_spec *cluster, const kp_lifecycle_options *opts, const kp_nodepool *nodepool,
		kp_error *err)
{
	call c;
	int rc = begin(&c, out, cluster, opts, 0, err);
	if (rc == KP_OK)
		rc = kp__lc_nodepool_counter(c.result, &c.in, nodepool, err);
	return end(&c, out, rc);
}

KP_EXPORT int kp_lifecycle_node_health(kp_lifecycle_result **out,
		const kp_cluster_spec *cluster, const kp_lifecycle_options *opts, const kp_node *node,
		kp_error *err)
{
	call c;
	int rc = begin(&c, out, cluster, opts, 0, err);
	if (rc == KP_OK)
		rc = kp__lc_node_health(c.result, &c.in, node, err);
	return end(&c, out, rc);
}

KP_EXPORT int kp_lifecycle_nodepool_readiness(kp_lifecycle_result **out,
		const kp_cluster_spec *cluster, const kp_lifecycle_options *opts, const kp_nodepool *nodepool,
		kp_error *err)
{
	call c;
	int rc = begin(&c, out, cluster, opts, 0, err);
	if (rc == KP_OK)
		rc = kp__lc_nodepool_readiness(c.result, &c.in, nodepool, err);
	return end(&c, out, rc);
}

KP_EXPORT int kp_lifecycle_nodepool_registration_health(kp_lifecycle_result **out,
		const kp_cluster_spec *cluster, const kp_lifecycle_options *opts, const kp_nodepool *nodepool,
		kp_error *err)
{
	call c;
	int rc = begin(&c, out, cluster, opts, 0, err);
	if (rc == KP_OK)
		rc = kp__lc_nodepool_registration_health(c.result, &c.in, nodepool, err);
	return end(&c, out, rc);
}

KP_EXPORT int kp_lifecycle_nodeclaim_hydration(kp_lifecycle_result **out,
		const kp_cluster_spec *cluster, const kp_lifecycle_options *opts, const kp_nodeclaim *nodeclaim,
		kp_error *err)
{
	call c;
	int rc = begin(&c, out, cluster, opts, 0, err);
	if (rc == KP_OK)
		rc = kp__lc_nodeclaim_hydration(c.result, &c.in, nodeclaim, err);
	return end(&c, out, rc);
}

KP_EXPORT int kp_lifecycle_node_hydration(kp_lifecycle_result **out,
		const kp_cluster_spec *cluster, const kp_lifecycle_options *opts, const kp_node *node,
		kp_error *err)
{
	call c;
	int rc = begin(&c, out, cluster, opts, 0, err);
	if (rc == KP_OK)
		rc = kp__lc_node_hydration(c.result, &c.in, node, err);
	return end(&c, out, rc);
}

KP_EXPORT int kp_lifecycle_nodepool_hash(kp_lifecycle_result **out,
		const kp_cluster_spec *cluster, const kp_lifecycle_options *opts, const kp_nodepool *nodepool,
		kp_error *err)
{
	call c;
	int rc = begin(&c, out, cluster, opts, 0, err);
	if (rc == KP_OK)
		rc = kp__lc_nodepool_hash(c.result, &c.in, nodepool, err);
	return end(&c, out, rc);
}

KP_EXPORT int kp_lifecycle_reconcile(kp_lifecycle_result **out,
		const kp_cluster_spec *cluster, const kp_lifecycle_options *opts,
		kp_error *err)
{
	call c;
	int rc = begin(&c, out, cluster, opts, 1, err);
	if (rc == KP_OK)
		rc = kp__lc_reconcile(c.result, &c.in, err);
	return end(&c, out, rc);
}
