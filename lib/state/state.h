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

#include <karpenter/objects.h>
#include <karpenter/nodeclaim.h>

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

#endif
