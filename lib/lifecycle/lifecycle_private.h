/*
 * lib/lifecycle private helpers: the result's append functions, a scratch
 * arena for the working copies the controllers change, status conditions
 * as upstream's operatorpkg sets them, and small object queries.
 *
 * A controller never changes its input: it builds a shallow "view" of the
 * object (its own top struct, metadata, spec and status structs pointing
 * at the input's members) and replaces only the members it changes with
 * arrays from the arena. An action's `object` is kp_object_copy of the
 * view, so the result owns deep copies and the arena is freed at the end.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef KP_LIFECYCLE_PRIVATE_H
#define KP_LIFECYCLE_PRIVATE_H

#include <karpenter/lifecycle.h>

#include "kp_internal.h"
#include "common/arena.h"

/* ---- scratch arena ---- */
/* Work memory: the library's arena (common/arena.h). kp__lc_strdup copies
 * NULL as "" (the lifecycle writes no NULL text into an object). */
char *kp__lc_strdup(kp__arena *a, const char *s);

/* ---- appending to a result ---- */
/* The reason codes' names (kp_lifecycle_reason_name; result.c binds each
 * to its code), as string constants for the controllers' tables. */
#define KP__LCR_FINALIZER "Finalizer"
#define KP__LCR_LAUNCHED "Launched"
#define KP__LCR_LAUNCH_FAILED "LaunchFailed"
#define KP__LCR_INSUFFICIENT_CAPACITY "InsufficientCapacity"
#define KP__LCR_NODECLASS_NOT_READY "NodeClassNotReady"
#define KP__LCR_NOT_REGISTERED "NotRegistered"
#define KP__LCR_REGISTERED "Registered"
#define KP__LCR_NOT_INITIALIZED "NotInitialized"
#define KP__LCR_INITIALIZED "Initialized"
#define KP__LCR_LAUNCH_TIMEOUT "LaunchTimeout"
#define KP__LCR_REGISTRATION_TIMEOUT "RegistrationTimeout"
#define KP__LCR_EXPIRED "Expired"
#define KP__LCR_DRIFTED "Drifted"
#define KP__LCR_CONSOLIDATABLE "Consolidatable"
#define KP__LCR_TERMINATION_GRACE "TerminationGracePeriod"
#define KP__LCR_NODE_DELETE "NodeDelete"
#define KP__LCR_INSTANCE_TERMINATING "InstanceTerminating"
#define KP__LCR_FINALIZER_REMOVED "FinalizerRemoved"
#define KP__LCR_TAINTED "Tainted"
#define KP__LCR_DRAINING "Draining"
#define KP__LCR_EVICT "Evict"
#define KP__LCR_FORCE_DELETE "ForceDelete"
#define KP__LCR_DRAINED "Drained"
#define KP__LCR_VOLUMES_DETACHED "VolumesDetached"
#define KP__LCR_GARBAGE_COLLECTED "GarbageCollected"
#define KP__LCR_UNHEALTHY "Unhealthy"
#define KP__LCR_POD_EVENT "PodEvent"
#define KP__LCR_CONSISTENCY "ConsistencyCheck"
#define KP__LCR_NODEPOOL_READY "NodePoolReady"
#define KP__LCR_HYDRATED "Hydrated"
#define KP__LCR_HASHED "Hashed"
#define KP__LCR_COUNTED "Counted"
#define KP__LCR_CONDITIONS "ConditionsUpdated"
#define KP__LCR_REGISTRATION_HEALTH "NodeRegistrationHealthy"

typedef struct kp__lc_act {
	uint32_t verb, kind;
	const char *controller, *namespace_, *name, *reason, *message;
	const void *object; /* copied with kp_object_copy(kind), or NULL */
	int has_grace;
	int64_t grace;
	const char *ev_type, *ev_reason, *ev_message; /* event, or ev_reason NULL */
	const char *metric;
	const char *const *metric_labels; /* key, value, ..., NULL */
} kp__lc_act;

int kp__lc_action(kp_lifecycle_result *r, const kp__lc_act *a, kp_error *err);
int kp__lc_event(kp_lifecycle_result *r, uint32_t kind, const char *ns, const char *name,
		 const char *type, const char *reason, const char *message, kp_error *err);
int kp__lc_requeue(kp_lifecycle_result *r, uint32_t kind, const char *controller, const char *ns,
		   const char *name, int64_t after_ms, kp_error *err);
/* Checkpoint and rollback (a failed controller leaves the result as it was). */
typedef struct kp__lc_mark {
	size_t actions, events, requeues;
} kp__lc_mark;
kp__lc_mark kp__lc_mark_get(const kp_lifecycle_result *r);
void kp__lc_rollback(kp_lifecycle_result *r, kp__lc_mark m);
/* Move the action at index from to index to (to <= from), shifting the rest. */
void kp__lc_move_last_action(kp_lifecycle_result *r, size_t to, size_t from);

/* ---- conditions ---- */
#define KP__COND_TRUE "True"
#define KP__COND_FALSE "False"
#define KP__COND_UNKNOWN "Unknown"
/* (a condition by type: kp_condition_find, objects.h) */
int kp__cond_is(kp_condition *const *conds, size_t n, const char *type, const char *status);
#define KP__COND_ROOT "Ready"
/*
 * A kind's condition set as operatorpkg's status.ConditionSet keeps it: the
 * root "Ready" and its dependents (NodeClaim: Launched, Registered,
 * Initialized; NodePool: ValidationSucceeded, NodeClassReady).
 */
typedef struct kp__condset {
	const char *const *deps;
	size_t n_deps;
	int64_t generation; /* metadata.generation: every set condition observes it */
	int64_t created_ms; /* creationTimestamp (now when absent) */
	int64_t now_ms;
	int deleting; /* deletionTimestamp set: a change bumps every observedGeneration */
} kp__condset;
void kp__condset_nodeclaim(kp__condset *cs, const kp_object_meta *m, int64_t now_ms);
void kp__condset_nodepool(kp__condset *cs, const kp_object_meta *m, int64_t now_ms);
/* For(): the root then each dependent set Unknown AwaitingReconciliation
 * when absent. 1 if changed, 0 if not, -1 when out of memory. */
int kp__cond_init(kp__arena *a, const kp__condset *cs, kp_condition ***conds, size_t *n);
/*
 * Set a condition as operatorpkg's ConditionSet.Set does, after For():
 * unchanged when status, reason and message are the same at the current
 * generation; the lastTransitionTime moves only with the status (a new root
 * or dependent takes the creationTimestamp, any other new one now); the
 * list is ordered by lastTransitionTime with the root last; then the root
 * is recomputed from the dependents (ReconcilingDependents,
 * UnhealthyDependents or True). Returns 1 if changed, 0 if not, -1 when
 * out of memory. The array is replaced by an arena copy.
 */
int kp__cond_set(kp__arena *a, const kp__condset *cs, kp_condition ***conds, size_t *n,
		 const char *type, const char *status, const char *reason, const char *message);
/* Remove a condition; 1 if removed, 0 if absent, -1 when out of memory. */
int kp__cond_clear(kp__arena *a, kp_condition ***conds, size_t *n, const char *type);

/* ---- strings, labels, taints, finalizers on views ---- */
int kp__has_finalizer(const kp_object_meta *m, const char *f);
/* 1 added, 0 present, -1 out of memory */
int kp__add_finalizer(kp__arena *a, kp_object_meta *m, const char *f);
/* 1 removed, 0 absent, -1 out of memory */
int kp__remove_finalizer(kp__arena *a, kp_object_meta *m, const char *f);
/* Set key=value in a view's map (arena copy). 1 changed, 0 same, -1 OOM. */
int kp__labels_put(kp__arena *a, kp_labels *l, const char *key, const char *value);
/* lo.Assign(dst, src): every pair of src into dst. 1 changed, 0 same, -1 OOM. */
int kp__labels_assign(kp__arena *a, kp_labels *dst, const kp_labels *src);
/* Taint list helpers on a view (contiguous kp_taint arrays). */
int kp__taints_has_match(const kp_taint *t, size_t n, const kp_taint *want);
int kp__taints_append(kp__arena *a, kp_taint **t, size_t *n, const kp_taint *add);

/*
 * What the controllers read in one call: the caller's kp_cluster_spec and
 * kp_lifecycle_options, read once with their sizes (entry.c), as arrays.
 */
typedef struct kp__lc_in {
	uint32_t feature_gates;                /* kp_feature_gate bits */
	int64_t now_ms;                        /* the cluster's now_ms */
	const kp_nodepool *const *nodepools;
	size_t n_nodepools;
	const kp_nodeclaim *const *nodeclaims;
	size_t n_nodeclaims;
	const kp_node *const *nodes;
	size_t n_nodes;
	const kp_pod *const *pods;
	size_t n_pods;
	const kp_pdb *const *pdbs;
	size_t n_pdbs;
	kp_cloudprovider *provider;            /* kp_lifecycle_options::cloudprovider */
	const kp_nodeclass_status *const *nodeclasses; /* NULL: not modelled */
	size_t n_nodeclasses;
	const kp_volume_attachment *const *volume_attachments; /* NULL: not modelled */
	size_t n_volume_attachments;
	const kp_pvc *const *pvcs;
	size_t n_pvcs;
} kp__lc_in;

/* A new, empty result (the public entry points make one per call). */
int kp__lc_result_new(kp_lifecycle_result **out);

/* The controllers on an input (entry.c wraps each as kp_lifecycle_*):
 * each appends to @p r, and on failure leaves it as it was. */
int kp__lc_nodeclaim(kp_lifecycle_result *r, const kp__lc_in *in, const kp_nodeclaim *nc,
		     kp_error *err);
int kp__lc_nodeclaim_expiration(kp_lifecycle_result *r, const kp__lc_in *in,
				const kp_nodeclaim *nc, kp_error *err);
int kp__lc_nodeclaim_disruption(kp_lifecycle_result *r, const kp__lc_in *in,
				const kp_nodeclaim *nc, kp_error *err);
int kp__lc_garbage_collection(kp_lifecycle_result *r, const kp__lc_in *in, kp_error *err);
int kp__lc_node_termination(kp_lifecycle_result *r, const kp__lc_in *in, const kp_node *node,
			    kp_error *err);
int kp__lc_pod_event(kp_lifecycle_result *r, const kp__lc_in *in, const kp_pod *pod,
		     kp_error *err);
int kp__lc_nodeclaim_consistency(kp_lifecycle_result *r, const kp__lc_in *in,
				 const kp_nodeclaim *nc, kp_error *err);
int kp__lc_nodepool_counter(kp_lifecycle_result *r, const kp__lc_in *in, const kp_nodepool *np,
			    kp_error *err);
int kp__lc_node_health(kp_lifecycle_result *r, const kp__lc_in *in, const kp_node *node,
		       kp_error *err);
int kp__lc_nodepool_readiness(kp_lifecycle_result *r, const kp__lc_in *in,
			      const kp_nodepool *np, kp_error *err);
int kp__lc_nodepool_registration_health(kp_lifecycle_result *r, const kp__lc_in *in,
					const kp_nodepool *np, kp_error *err);
int kp__lc_nodeclaim_hydration(kp_lifecycle_result *r, const kp__lc_in *in,
			       const kp_nodeclaim *nc, kp_error *err);
int kp__lc_node_hydration(kp_lifecycle_result *r, const kp__lc_in *in, const kp_node *node,
			  kp_error *err);
int kp__lc_nodepool_hash(kp_lifecycle_result *r, const kp__lc_in *in, const kp_nodepool *np,
			 kp_error *err);
int kp__lc_reconcile(kp_lifecycle_result *r, const kp__lc_in *in, kp_error *err);

/* ---- queries ---- */
const char *kp__meta_name(const kp_object_meta *m);
const char *kp__nc_label(const kp_nodeclaim *nc, const char *key);
const char *kp__node_condition_status(const kp_node *node, const char *type);
/*
 * Lookups (index.c). With the result of a kp_lifecycle_reconcile round on
 * the same input they use the round's hash maps; otherwise they scan.
 */
typedef struct kp__lc_index kp__lc_index;
int kp__lc_index_build(kp__lc_index **out, const kp__lc_in *in, kp_error *err);
void kp__lc_index_free(kp__lc_index *x);
/* The index attached to a result (NULL: none); set by kp_lifecycle_reconcile. */
const kp__lc_index *kp__lc_result_index(const kp_lifecycle_result *r);
void kp__lc_result_set_index(kp_lifecycle_result *r, const kp__lc_index *x);
/* the Nodes with this providerID: their number, the first in *out */
size_t kp__nodes_for_provider_id(const kp_lifecycle_result *r, const kp__lc_in *in,
				 const char *provider_id, const kp_node **out);
/* The NodeClaim whose status.providerID is the Node's (NULL: none, or several). */
const kp_nodeclaim *kp__nodeclaim_for_node(const kp_lifecycle_result *r,
					   const kp__lc_in *in, const kp_node *node);
const kp_node *kp__node_named(const kp_lifecycle_result *r, const kp__lc_in *in,
			      const char *name);
const kp_nodepool *kp__nodepool_named(const kp_lifecycle_result *r, const kp__lc_in *in,
				      const char *name);
/* Objects by a key, in input order: the NodeClaims or Nodes labelled
 * karpenter.sh/nodepool=key, the Nodes with spec.providerID key, the pods
 * (with metadata) bound to the Node named key. */
enum { KP__ITER_POOL_NODECLAIMS, KP__ITER_POOL_NODES, KP__ITER_PID_NODES, KP__ITER_NODE_PODS };
typedef struct kp__lc_iter {
	const kp__lc_in *in;
	const char *key;
	const uint32_t *next;
	uint32_t i;
	int kind, indexed;
} kp__lc_iter;
void kp__lc_iter_init(kp__lc_iter *it, const kp_lifecycle_result *r,
		      const kp__lc_in *in, int kind, const char *key);
const void *kp__lc_iter_next(kp__lc_iter *it);
/* The NodePool's node class among in->nodeclasses by its nodeClassRef:
 * *found 1 and *out a copy at this library's size (members the caller's
 * struct_size lacks are zero), or *found 0. KP_OK, or KP_EVERSION for a
 * node class with a bad struct_size. */
int kp__nodeclass_of(const kp__lc_in *in, const kp_nodepool *np, kp_nodeclass_status *out,
		     int *found, kp_error *err);
/* IsManaged: no provider, or the provider manages the NodeClaim's class. */
int kp__lc_manages(const kp__lc_in *in, const kp_nodeclaim *nc);
/* v1.NodeClassLabelKey "<group>/<lowercased kind>" at full length (arena);
 * NULL without a kind or out of memory. */
char *kp__nodeclass_label_key(kp__arena *a, const char *group, const char *kind);
/* "graceful", "eventual" or "forceful" (upstream DisruptionTerminationMode) */
const char *kp__termination_mode(const kp_nodeclaim *nc);
/* Format a Go duration for messages. */
void kp__fmt_duration_ms(int64_t ms, char *buf, size_t size);
/* Validate the common head (struct_size, metadata with a name). */
int kp__check_object(const void *obj, const kp_object_meta *meta, const char *what, kp_error *err);

/* ---- views ---- */
/* memcpy of a size-tagged struct into ours (a smaller caller struct reads
 * as zero-extended); struct_size becomes ours. */
void kp__copy_sized(void *dst, const void *src, size_t ours);
/* A NodeClaim view whose metadata and status may change. */
typedef struct kp__ncv {
	kp_nodeclaim nc;
	kp_object_meta meta;
	kp_nodeclaim_status status;
	int status_changed;
} kp__ncv;
void kp__ncv_init(kp__ncv *v, const kp_nodeclaim *nc);
/* kp__cond_set on the view's status; marks status_changed */
int kp__ncv_set(kp__arena *a, kp__ncv *v, const char *type, const char *status,
		const char *reason, const char *message, int64_t now_ms);

/* ---- NodePool registration health (registration.c) ---- */
typedef struct kp__reg_health kp__reg_health;
int kp__reg_health_new(kp__reg_health **out);
void kp__reg_health_free(kp__reg_health *h);
/* The round's trackers attached to a result (NULL: a single call). */
kp__reg_health *kp__lc_result_health(const kp_lifecycle_result *r);
void kp__lc_result_set_health(kp_lifecycle_result *r, kp__reg_health *h);
/* One NodeClaim's turn starts (begin) or is dropped (undo). */
void kp__reg_health_begin(kp__reg_health *h);
void kp__reg_health_undo(kp__reg_health *h);
/* A registration (success 1) or a launch/registration timeout (0) of the
 * NodeClaim (the view): NodeRegistrationHealthy on its NodePool, an
 * updateStatus of the NodePool when it changes. launched: the NodeClaim's
 * Launched condition (the reason of a launch failure). */
int kp__reg_health_outcome(kp_lifecycle_result *r, const kp__lc_in *in,
			   const kp_nodeclaim *nc, int success, const kp_condition *launched,
			   kp_error *err);

/* ---- the controllers' internals ---- */
int kp__lc_nodeclaim_finalize(kp_lifecycle_result *r, const kp__lc_in *in,
			      const kp_nodeclaim *nc, kp_error *err);

#endif /* KP_LIFECYCLE_PRIVATE_H */
