/*
 * libkarpenter private: the cluster as upstream's cluster state
 * (sigs.k8s.io/karpenter pkg/controllers/state, StateNode) sees it. The
 * facts every decision needs about the cluster live here once, so that
 * scheduling, disruption and lifecycle cannot answer one question in three
 * ways (../shared/reviews/structure-review-2.md, issue 19).
 *
 * Pod rules (upstream pkg/utils/pod): ownership, terminal, terminating,
 * reschedulable and do-not-disrupt, each written once (pods.c).
 *
 * PodDisruptionBudgets (pdbs.c): which select a pod, and which never allow
 * an eviction.
 *
 * A state node's flags (nodes.c): initialized and deleting.
 *
 * Drift (drift.c): one decision for the lifecycle's Drifted condition and
 * for disruption.
 *
 * Pairing Nodes with NodeClaims (pairing.c). Upstream keys its state nodes by
 * provider ID, so a Node and the NodeClaim whose status.providerID equals
 * the Node's spec.providerID are one state node. Upstream keeps one
 * NodeClaim per provider ID, whichever its informer delivered last; a
 * decision that must not depend on event order needs a rule instead, and
 * this is it: Nodes in input order each take the first NodeClaim, in
 * input order, with their provider ID that no earlier Node took. A
 * NodeClaim no Node takes is a state node of its own (launched, not yet
 * registered, or a duplicate). Linear in the objects: one hash map.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef KP_STATE_STATE_H
#define KP_STATE_STATE_H

#include <stddef.h>
#include <stdint.h>

#include <karpenter/cloudprovider.h>
#include <karpenter/nodeclaim.h>
#include <karpenter/nodepool.h>
#include <karpenter/objects.h>
#include <karpenter/wellknown.h>

#include "kp_internal.h"

/* No NodeClaim: an entry of kp__state_pair's @p pairs. */
#define KP__STATE_NONE ((size_t)-1)

/*
 * Pair @p n_nodes Nodes, whose provider IDs are @p node_pids (NULL or ""
 * for a Node that pairs with nothing), with the NodeClaims @p ncs (NULL
 * entries and NodeClaims without status.providerID pair with nothing), by
 * the rule above. pairs[i] gets the index in @p ncs of Node i's NodeClaim,
 * or KP__STATE_NONE; nc_paired (may be NULL; n_ncs entries) gets 1 for
 * every NodeClaim a Node took. KP_OK or KP_ENOMEM (outputs then undefined).
 */
int kp__state_pair(size_t *pairs, uint8_t *nc_paired, const char *const *node_pids, size_t n_nodes,
		   const kp_nodeclaim *const *ncs, size_t n_ncs);

/* The pod has an owner reference of this apiVersion and kind. */
int kp__pod_owned_by(const kp_pod *p, const char *api_version, const char *kind);
/* Phase Succeeded or Failed (IsTerminal). */
int kp__pod_terminal(const kp_pod *p);
/* Has a deletionTimestamp (IsTerminating). */
int kp__pod_terminating(const kp_pod *p);
/* Neither terminal nor terminating (IsActive). */
int kp__pod_active(const kp_pod *p);
/* Tolerates karpenter.sh/disrupted:NoSchedule (ToleratesDisruptedNoScheduleTaint). */
int kp__pod_tolerates_disrupted(const kp_pod *p);
/* Owned by a DaemonSet (IsOwnedByDaemonSet) / a mirror pod, owned by its
 * Node (IsOwnedByNode). */
int kp__pod_daemon(const kp_pod *p);
int kp__pod_mirror(const kp_pod *p);
/* IsReschedulable: active, or a StatefulSet's pod on its way out (it comes
 * back with the same name), and neither a DaemonSet's nor a mirror pod. */
int kp__pod_reschedulable(const kp_pod *p);
/* IsDoNotDisruptActive at @p now_ms: karpenter.sh/do-not-disrupt "true",
 * or a positive Go duration not yet elapsed since the pod started (no
 * start time, or a start in the future: active); anything else is not. */
int kp__pod_do_not_disrupt(const kp_pod *p, int64_t now_ms);

/* The namespace an object is in: an empty one is "default", as kubectl and
 * the API server give a namespaced object written without one. */
const char *kp__object_namespace(const kp_object_meta *m);
/* PDB b selects pod p: the same namespace, and its selector matches the
 * pod's labels (policy/v1: a null selector selects nothing, an empty one
 * every pod of the namespace). */
int kp__pdb_selects(const kp_pdb *b, const kp_pod *p);
/* The PDBs of a cluster by namespace, so that each pod is checked against
 * its own namespace's PDBs only (pods plus PDBs, not their product). */
typedef struct kp__pdb_index {
	const kp_pdb *const *pdbs;
	struct kp__pdb_entry *by_ns; /* (namespace, index), sorted */
	size_t n;
} kp__pdb_index;
/* Index @p pdbs (borrowed; they must outlive the index). KP_OK or
 * KP_ENOMEM. */
int kp__pdb_index_init(kp__pdb_index *ix, const kp_pdb *const *pdbs, size_t n_pdbs);
void kp__pdb_index_dispose(kp__pdb_index *ix);
/* How many PDBs select @p p; the indexes (into the indexed array) of the
 * first two in first[] (pdb.Limits: more than one refuses every eviction). */
size_t kp__pdbs_selecting(const kp__pdb_index *ix, const kp_pod *p, size_t first[2]);
/* A PDB that never allows an eviction, whatever its status
 * (pdb.Limits.isFullyBlocked): maxUnavailable 0 or "0%", minAvailable
 * "100%". */
int kp__pdb_never_allows(const kp_pdb *b);

/* StateNode.Initialized: a Node Karpenter manages (it has a NodeClaim) is
 * initialized once the Node carries karpenter.sh/initialized=true (the
 * NodeClaim's Initialized condition is what the lifecycle sets before it
 * writes that label); any other Node is. */
int kp__state_initialized(const kp_node *node, const kp_nodeclaim *nc);
/* StateNode.Deleted: a managed node by its NodeClaim's deletionTimestamp
 * or its InstanceTerminating condition (a Node's own deletionTimestamp
 * does not count while its NodeClaim lives); any other Node by its own
 * deletionTimestamp. */
int kp__state_deleting(const kp_node *node, const kp_nodeclaim *nc);
/* StateNode.Capacity without the "nodes" member: an uninitialized managed
 * node's capacity is its Node's with every missing or zero quantity taken
 * from its NodeClaim (only the NodeClaim's before the Node exists); any
 * other node's is its Node's. *out (KP_RESOURCE_LIST_INIT, caller
 * disposes) gets the list. KP_OK or KP_ENOMEM. */
int kp__state_capacity(kp_resource_list *out, const kp_node *node, const kp_nodeclaim *nc,
		       kp_error *err);

/* What drift reads: the NodePool (defaulted) and its NodeClaim; label
 * rules (NULL: the core's); the NodePool's catalogue (NULL: instance types
 * are not checked); the cloud provider (NULL: not asked); the time;
 * KP_DRIFT_IGNORE_LAUNCHED or 0. */
typedef struct kp__drift_args {
	const kp_nodepool *nodepool;
	const kp_nodeclaim *nodeclaim;
	kp_wellknown *wk;
	kp_instance_types *instance_types;
	kp_cloudprovider *provider;
	int64_t now_ms;
	uint32_t drift_flags;
	/* optional output: when the instance type is not offered but the
	 * NodeClaim is not yet an hour old, the first time it drifts for it
	 * (else left alone), so that callers can say why it is not drifted */
	int64_t *later_ms;
} kp__drift_args;

/*
 * Upstream's isDrifted, in its order: static drift (the NodePool's hash
 * from its spec, see drift.c), requirements, the instance type no longer
 * offered in the NodeClaim's zone and capacity type (an hour after
 * creation), then the cloud provider's drift. *reason and *message are
 * allocated (kp__free) when drifted, both NULL when not. KP_OK, or the
 * error of the hash or of the provider, or KP_ENOMEM.
 */
int kp__state_drift(char **reason, char **message, const kp__drift_args *a, kp_error *err);

#endif
