/*
 * libkarpenter private: the snapshot by index, for lib/disruption. A pass
 * looks its nodes and pods up once (by name, by identity), then every
 * simulation of the pass names them by snapshot index: no per-pod
 * "namespace/name" key is built or hashed per simulation. The public
 * kp_sched_options keep names.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef KP_SCHED_INDEX_H
#define KP_SCHED_INDEX_H

#include <stddef.h>
#include <stdint.h>

#include <karpenter/scheduling.h>

#define KP__SCHED_NONE UINT32_MAX

/* The snapshot's nodes (a Node, or a NodeClaim without one). */
size_t kp__cluster_node_count(const kp_cluster *c);
/* The snapshot node named @p name (a Node's or NodeClaim's), or
 * KP__SCHED_NONE. */
uint32_t kp__cluster_node_index(const kp_cluster *c, const char *name);
/* The snapshot pod with this namespace (NULL or "": "default") and name,
 * or KP__SCHED_NONE. */
uint32_t kp__cluster_pod_index(const kp_cluster *c, const char *ns, const char *name);

/* What kp_sched_options says by name, by snapshot index instead (added to
 * whatever the options name): nodes removed, nodes closed to moved pods,
 * pods kept where they are. */
typedef struct kp__sched_sets {
	const uint32_t *removed;
	size_t n_removed;
	const uint32_t *closed;
	size_t n_closed;
	const uint32_t *kept;
	size_t n_kept;
} kp__sched_sets;

int kp__sched_simulate_sets(kp_sched_result **out, const kp_cluster *c,
			    const kp_sched_options *opts, const kp__sched_sets *sets,
			    kp_error *err);

/* Placement @p i's pod as a snapshot index, and the snapshot node it was
 * placed on (KP__SCHED_NONE: a new NodeClaim, or unplaced). */
uint32_t kp__sched_result_pod_index(const kp_sched_result *r, size_t i);
uint32_t kp__sched_result_node_index(const kp_sched_result *r, size_t i);

/* The snapshot's reservations (its reserved offerings' reservation IDs, in
 * the snapshot's order), the label key each ID is written under (NULL:
 * none) and the instances each has left before any simulation. Disruption
 * overrides what is left between passes, as upstream's provider counts a
 * launch into a reservation and a termination out of one. */
size_t kp__cluster_reservation_count(const kp_cluster *c);
const char *kp__cluster_reservation_id(const kp_cluster *c, size_t r);
const char *kp__cluster_reservation_key(const kp_cluster *c, size_t r);
int64_t kp__cluster_reservation_left(const kp_cluster *c, size_t r);
void kp__cluster_reservation_set_left(kp_cluster *c, size_t r, int64_t left);

/* The labels a NodeClaim is launched with (what the provider's Create puts
 * on it): karpenter.sh/nodepool, the instance type, and @p of's zone,
 * capacity type and own single-valued requirements (a reservation's ID and
 * kind). One rule for simulate's document and disruption's replacements.
 * @p of may be NULL (only the NodePool and type are set). */
int kp__sched_launch_labels(kp_nodeclaim *nc, const char *nodepool, const char *instance_type,
			    const kp_offering *of, kp_error *err);

#endif
