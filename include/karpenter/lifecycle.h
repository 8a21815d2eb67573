/*
 * libkarpenter: the NodeClaim and Node lifecycle as pure reconcile steps.
 *
 * One function per upstream controller (kubernetes-sigs/karpenter
 * pkg/controllers/nodeclaim/{lifecycle,expiration,disruption,
 * garbagecollection}, pkg/controllers/node/termination). Each reads a
 * kp_cluster_spec at its now_ms (the same cluster input the scheduler and
 * disruption read, e.g. kp_cluster_builder_spec) and returns a new
 * kp_lifecycle_result with what the controller would do: the actions to apply
 * to the API server (patch an object to a given result, update its status,
 * create, delete, evict a pod) and to the cloud provider (create, delete),
 * the events upstream records, and when the controller would look again.
 * Nothing here reads a clock or does I/O: the only outside calls go to the
 * cloud provider the caller passes in (kp_lifecycle_options::cloudprovider), and
 * those are listed as actions too. The caller applies the actions.
 *
 * Every action carries a stable reason code (kp_lifecycle_reason),
 * upstream's message, the event upstream records with it (if any) and the
 * upstream v1 metric it would move, with its labels.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef KARPENTER_LIFECYCLE_H
#define KARPENTER_LIFECYCLE_H

#include <karpenter/common.h>
#include <karpenter/labels.h>
#include <karpenter/objects.h>
#include <karpenter/nodeclaim.h>
#include <karpenter/nodepool.h>
#include <karpenter/cloudprovider.h>
#include <karpenter/scheduling.h>

KP_BEGIN_DECLS

/** @name Controller names (upstream's Name()) @{ */
/** NodeClaim launch, registration, initialization, liveness, finalizer. @since 0.1 */
#define KP_LIFECYCLE_CONTROLLER_NODECLAIM_LIFECYCLE "nodeclaim.lifecycle"
/** Forceful expiration. @since 0.1 */
#define KP_LIFECYCLE_CONTROLLER_NODECLAIM_EXPIRATION "nodeclaim.expiration"
/** Drifted and Consolidatable conditions. @since 0.1 */
#define KP_LIFECYCLE_CONTROLLER_NODECLAIM_DISRUPTION "nodeclaim.disruption"
/** Garbage collection of NodeClaims whose instance is gone. @since 0.1 */
#define KP_LIFECYCLE_CONTROLLER_NODECLAIM_GC "nodeclaim.garbagecollection"
/** Node finalizer: taint, drain, volumes, instance termination. @since 0.1 */
#define KP_LIFECYCLE_CONTROLLER_NODE_TERMINATION "node.termination"
/** status.lastPodEventTime on pod events. @since 0.1 */
#define KP_LIFECYCLE_CONTROLLER_NODECLAIM_PODEVENTS "nodeclaim.podevents"
/** The Node's shape against the NodeClaim (ConsistentStateFound). @since 0.1 */
#define KP_LIFECYCLE_CONTROLLER_NODECLAIM_CONSISTENCY "nodeclaim.consistency"
/** The node class label on NodeClaims. @since 0.1 */
#define KP_LIFECYCLE_CONTROLLER_NODECLAIM_HYDRATION "nodeclaim.hydration"
/** The node class label on Nodes. @since 0.1 */
#define KP_LIFECYCLE_CONTROLLER_NODE_HYDRATION "node.hydration"
/** Node repair (NodeRepair feature gate). @since 0.1 */
#define KP_LIFECYCLE_CONTROLLER_NODE_HEALTH "node.health"
/** NodePool NodeClassReady, ValidationSucceeded and Ready. @since 0.1 */
#define KP_LIFECYCLE_CONTROLLER_NODEPOOL_READINESS "nodepool.readiness"
/** The NodePool's drift hash annotations (and NodeClaims' on a version change). @since 0.1 */
#define KP_LIFECYCLE_CONTROLLER_NODEPOOL_HASH "nodepool.hash"
/** NodePool status.resources and status.nodes. @since 0.1 */
#define KP_LIFECYCLE_CONTROLLER_NODEPOOL_COUNTER "nodepool.counter"
/** The NodePool's NodeRegistrationHealthy reset to Unknown when it changed. @since 0.1 */
#define KP_LIFECYCLE_CONTROLLER_NODEPOOL_REGISTRATION_HEALTH "nodepool.registrationhealth"
/** @} */

/**
 * Stable reason codes of actions (kp_lifecycle_action::code; its `reason`
 * is the code's name, kp_lifecycle_reason_name). Values are never
 * renumbered; new ones are appended.
 * @since 0.1
 */
enum kp_lifecycle_reason {
	KP_LIFECYCLE_REASON_FINALIZER = 1, /**< "Finalizer": finalizer added */
	KP_LIFECYCLE_REASON_LAUNCHED = 2, /**< "Launched": instance launched */
	KP_LIFECYCLE_REASON_LAUNCH_FAILED = 3, /**< "LaunchFailed": provider create failed */
	KP_LIFECYCLE_REASON_INSUFFICIENT_CAPACITY = 4, /**< "InsufficientCapacity": deleted: no capacity */
	KP_LIFECYCLE_REASON_NODECLASS_NOT_READY = 5, /**< "NodeClassNotReady": deleted: class not ready */
	KP_LIFECYCLE_REASON_NOT_REGISTERED = 6, /**< "NotRegistered": waiting for the Node */
	KP_LIFECYCLE_REASON_REGISTERED = 7, /**< "Registered": Node registered */
	KP_LIFECYCLE_REASON_NOT_INITIALIZED = 8, /**< "NotInitialized": waiting for initialization */
	KP_LIFECYCLE_REASON_INITIALIZED = 9, /**< "Initialized": Node initialized */
	KP_LIFECYCLE_REASON_LAUNCH_TIMEOUT = 10, /**< "LaunchTimeout": deleted after 5 m */
	KP_LIFECYCLE_REASON_REGISTRATION_TIMEOUT = 11, /**< "RegistrationTimeout": deleted after 15 m */
	KP_LIFECYCLE_REASON_EXPIRED = 12, /**< "Expired": past expireAfter */
	KP_LIFECYCLE_REASON_DRIFTED = 13, /**< "Drifted": Drifted condition */
	KP_LIFECYCLE_REASON_CONSOLIDATABLE = 14, /**< "Consolidatable": Consolidatable condition */
	KP_LIFECYCLE_REASON_TERMINATION_GRACE = 15, /**< "TerminationGracePeriod": termination-timestamp annotation */
	KP_LIFECYCLE_REASON_NODE_DELETE = 16, /**< "NodeDelete": Nodes deleted first */
	KP_LIFECYCLE_REASON_INSTANCE_TERMINATING = 17, /**< "InstanceTerminating": provider delete */
	KP_LIFECYCLE_REASON_FINALIZER_REMOVED = 18, /**< "FinalizerRemoved": finalizer removed */
	KP_LIFECYCLE_REASON_TAINTED = 19, /**< "Tainted": disrupted taint added */
	KP_LIFECYCLE_REASON_DRAINING = 20, /**< "Draining": drain in progress */
	KP_LIFECYCLE_REASON_EVICT = 21, /**< "Evict": a pod evicted */
	KP_LIFECYCLE_REASON_FORCE_DELETE = 22, /**< "ForceDelete": a pod force-deleted */
	KP_LIFECYCLE_REASON_DRAINED = 23, /**< "Drained": Drained condition True */
	KP_LIFECYCLE_REASON_VOLUMES_DETACHED = 24, /**< "VolumesDetached": VolumesDetached True */
	KP_LIFECYCLE_REASON_GARBAGE_COLLECTED = 25, /**< "GarbageCollected": instance gone */
	KP_LIFECYCLE_REASON_UNHEALTHY = 26, /**< "Unhealthy": node repair */
	KP_LIFECYCLE_REASON_POD_EVENT = 27, /**< "PodEvent": lastPodEventTime moved */
	KP_LIFECYCLE_REASON_CONSISTENCY = 28, /**< "ConsistencyCheck": ConsistentStateFound set */
	KP_LIFECYCLE_REASON_NODEPOOL_READY = 29, /**< "NodePoolReady": NodePool conditions */
	KP_LIFECYCLE_REASON_HYDRATED = 30, /**< "Hydrated": node class label */
	KP_LIFECYCLE_REASON_HASHED = 31, /**< "Hashed": hash annotations */
	KP_LIFECYCLE_REASON_COUNTED = 32, /**< "Counted": NodePool counters */
	KP_LIFECYCLE_REASON_CONDITIONS = 33, /**< "ConditionsUpdated": status conditions brought up to date, no step changed them otherwise (the root Ready following its dependents, observedGeneration) */
	KP_LIFECYCLE_REASON_REGISTRATION_HEALTH = 34 /**< "NodeRegistrationHealthy": NodePool NodeRegistrationHealthy set */
};

/**
 * @brief Upstream-style name of a reason code ("Finalizer", "Launched",
 *        ..., "NodeRegistrationHealthy"), as `reconcile`'s document writes
 *        it in `actions[].reason`.
 * @param[in] code a kp_lifecycle_reason
 * @return static text; "Unknown" for any other value
 * @since 0.1
 * Thread-safety: safe.
 */
const char *kp_lifecycle_reason_name(uint32_t code);

/** kp_lifecycle_action::verb. Values are never renumbered. @since 0.1 */
enum kp_lifecycle_verb {
	KP_LIFECYCLE_VERB_PATCH = 1,           /**< patch metadata/spec to `object` */
	KP_LIFECYCLE_VERB_UPDATE_STATUS = 2,   /**< patch status to `object` */
	KP_LIFECYCLE_VERB_CREATE = 3,          /**< create `object` */
	KP_LIFECYCLE_VERB_DELETE = 4,          /**< delete (optionally with a grace period) */
	KP_LIFECYCLE_VERB_EVICT = 5,           /**< create the pod's eviction subresource */
	KP_LIFECYCLE_VERB_PROVIDER_CREATE = 6, /**< the cloud provider's create (made) */
	KP_LIFECYCLE_VERB_PROVIDER_DELETE = 7  /**< the cloud provider's delete (made) */
};

/**
 * @brief JSON name of a verb ("patch", "updateStatus", "create", "delete",
 *        "evict", "providerCreate", "providerDelete").
 * @param[in] verb a kp_lifecycle_verb
 * @return static text; "Unknown" for an unknown value (as every decision
 *         header's _name function)
 * @since 0.1
 * Thread-safety: safe.
 */
const char *kp_lifecycle_verb_name(uint32_t verb);

/**
 * @brief The lifecycle controllers' optional settings. The cluster they
 *        read, and its clock (kp_cluster_spec::now_ms), is a parameter of
 *        its own, as for kp_disruption_run.
 *
 * Caller-filled, size-tagged.
 * @since 0.1
 */
typedef struct kp_lifecycle_options {
	uint32_t struct_size;    /**< sizeof(kp_lifecycle_options) */
	/** kp_feature_gate bits (common.h); the lifecycle reads
	 *  KP_FEATURE_GATE_NODE_REPAIR (off by default, as upstream) */
	uint32_t feature_gates;
	/** The cloud provider the controllers call (create, delete, get, list),
	 *  or NULL: launch, instance termination and garbage collection then
	 *  need it and are skipped (nothing listed for them). */
	kp_cloudprovider *cloudprovider;
} kp_lifecycle_options;

/** Static initializer for kp_lifecycle_options. @since 0.1 */
#define KP_LIFECYCLE_OPTIONS_INIT { sizeof(kp_lifecycle_options), 0, NULL }

/**
 * @brief Initialize @p opts as KP_LIFECYCLE_OPTIONS_INIT (for FFI).
 * @param[out] opts the options (NULL: no-op)
 * @since 0.1
 */
void kp_lifecycle_options_init(kp_lifecycle_options *opts);

/**
 * @brief One thing a controller would do. Library-made: read members only
 *        up to struct_size.
 * @since 0.1
 */
typedef struct kp_lifecycle_action {
	uint32_t struct_size;             /**< sizeof(kp_lifecycle_action) as the library knows it */
	uint32_t verb;                    /**< a kp_lifecycle_verb */
	uint32_t kind;                    /**< kp_kind of the object acted on */
	uint32_t has_grace_period_seconds; /**< 1 for a delete with gracePeriodSeconds */
	int64_t grace_period_seconds;     /**< the delete's grace period (at least 1) */
	const char *controller;           /**< KP_LIFECYCLE_CONTROLLER_* */
	const char *namespace_;           /**< the object's namespace, or NULL */
	const char *name;                 /**< the object's name */
	const char *reason;               /**< the code's name (kp_lifecycle_reason_name(code)) */
	const char *message;              /**< why, in upstream's words where upstream has them */
	/** The whole object after a patch, status update or create (the kind's
	 *  struct, e.g. kp_nodeclaim for KP_KIND_NODECLAIM); NULL otherwise. */
	const void *object;
	const char *event_type;           /**< "Normal"/"Warning" of the event upstream records, or NULL */
	const char *event_reason;         /**< upstream's event reason, or NULL */
	const char *event_message;        /**< upstream's event message, or NULL */
	const char *metric;               /**< upstream metric moved (e.g. "karpenter_nodeclaims_disrupted_total"), or NULL */
	kp_labels metric_labels;          /**< its labels (sorted), empty when no metric */
	uint32_t code;                    /**< a kp_lifecycle_reason: why */
	uint32_t reserved;                /**< zero */
} kp_lifecycle_action;

/**
 * @brief An event upstream would record. Library-made.
 * @since 0.1
 */
typedef struct kp_lifecycle_event {
	uint32_t struct_size;   /**< sizeof(kp_lifecycle_event) as the library knows it */
	uint32_t kind;          /**< kp_kind of the involved object */
	const char *namespace_; /**< its namespace, or NULL */
	const char *name;       /**< its name */
	const char *type;       /**< "Normal" or "Warning" */
	const char *reason;     /**< upstream's event reason */
	const char *message;    /**< upstream's event message */
} kp_lifecycle_event;

/**
 * @brief When a controller would reconcile an object again. Library-made.
 * @since 0.1
 */
typedef struct kp_lifecycle_requeue {
	uint32_t struct_size;   /**< sizeof(kp_lifecycle_requeue) as the library knows it */
	uint32_t kind;          /**< kp_kind of the object */
	const char *controller; /**< KP_LIFECYCLE_CONTROLLER_* */
	const char *namespace_; /**< its namespace, or NULL */
	const char *name;       /**< its name */
	int64_t after_ms;       /**< delay (0: at once, with the controller's backoff) */
} kp_lifecycle_requeue;

/** Opaque list of actions, events and requeues: each controller call
 *  makes a new one (release with kp_lifecycle_result_free). @since 0.1 */
typedef struct kp_lifecycle_result kp_lifecycle_result;

/**
 * @brief Free a result and every object its actions hold.
 * @param[in] result the result, or NULL (no-op)
 * @since 0.1
 */
void kp_lifecycle_result_free(kp_lifecycle_result *result);

/**
 * @brief Number of actions.
 * @param[in] result the result (NULL: 0)
 * @return the count
 * @since 0.1
 */
size_t kp_lifecycle_result_action_count(const kp_lifecycle_result *result);

/**
 * @brief The action at @p index, in the order a controller would apply them.
 * @param[in] result the result
 * @param[in] index below kp_lifecycle_result_action_count
 * @return the action (borrowed from @p result), or NULL out of range
 * @since 0.1
 */
const kp_lifecycle_action *kp_lifecycle_result_action_at(const kp_lifecycle_result *result,
						      size_t index);

/**
 * @brief Number of events.
 * @param[in] result the result (NULL: 0)
 * @return the count
 * @since 0.1
 */
size_t kp_lifecycle_result_event_count(const kp_lifecycle_result *result);

/**
 * @brief The event at @p index.
 * @param[in] result the result
 * @param[in] index below kp_lifecycle_result_event_count
 * @return the event (borrowed from @p result), or NULL out of range
 * @since 0.1
 */
const kp_lifecycle_event *kp_lifecycle_result_event_at(const kp_lifecycle_result *result,
						    size_t index);

/**
 * @brief Number of requeues.
 * @param[in] result the result (NULL: 0)
 * @return the count
 * @since 0.1
 */
size_t kp_lifecycle_result_requeue_count(const kp_lifecycle_result *result);

/**
 * @brief The requeue at @p index.
 * @param[in] result the result
 * @param[in] index below kp_lifecycle_result_requeue_count
 * @return the requeue (borrowed from @p result), or NULL out of range
 * @since 0.1
 */
const kp_lifecycle_requeue *kp_lifecycle_result_requeue_at(const kp_lifecycle_result *result,
							size_t index);

/**
 * @brief Write @p result as one document: the one `kubectl-karpenter
 *        reconcile -o json|yaml` prints (members are only ever added).
 *        `now` (RFC 3339); `actions[]` in the result's order (`controller`,
 *        `verb`, `kind`, `namespace` ("" when none), `name`, `reason`,
 *        `message`, then `gracePeriodSeconds`, `metric` {`name`, `labels`}
 *        and `object` (written from its struct) when the action has them);
 *        `requeue[]`, one per object and controller, the earliest of its
 *        requeues (the first of equal ones) in the order of each one's
 *        first requeue (`kind`, `namespace`, `name`, `controller`, `after`
 *        as Go prints a time.Duration, saturating); `events[]` (`kind`,
 *        `namespace`, `name`, `type`, `reason`, `message`). Linear in the
 *        result.
 * @param[in,out] em the emitter the document is written into (as one
 *        value: the document itself, or a member's value)
 * @param[in] result the result
 * @param[in] now_ms the controllers' clock (kp_cluster_spec::now_ms),
 *        written as `now`
 * @param[out] err optional error detail (an object that cannot be written
 *        is named by its path, e.g. field "actions[3].object")
 * @return KP_OK; KP_EINVAL (NULL argument); KP_ENOMEM; the error of an
 *         action's object; the emitter's error
 * @since 0.1
 * Thread-safety: safe for distinct emitters.
 */
int kp_lifecycle_result_write(kp_emitter *em, const kp_lifecycle_result *result, int64_t now_ms,
			      kp_error *err);

/*
 * The controllers. Each returns what it would do as a new result in *out
 * (release with kp_lifecycle_result_free); on failure *out is NULL. Round
 * state (kp_lifecycle_reconcile's lookups and registration outcomes) lives
 * in the call, never in a result. They return KP_OK, KP_EINVAL (NULL
 * argument, an object without
 * metadata or name, an unparsable termination-timestamp annotation),
 * KP_EVERSION (struct_size), KP_ENOMEM, or a provider's error other than
 * the expected ones (KP_ENOTFOUND, KP_EINSUFFICIENT, KP_ENOTREADY,
 * KP_ECREATE are outcomes, not failures). Thread-safety: safe on inputs no
 * thread changes; the provider is called as kp_cloudprovider documents.
 */

/**
 * @brief nodeclaim.lifecycle for one NodeClaim: the termination finalizer,
 *        launch through the provider, registration with the unregistered
 *        taint, initialization, liveness (launch 5 m, registration 15 m,
 *        both from the condition's lastTransitionTime); for a deleting
 *        NodeClaim the finalizer (termination-timestamp annotation, Nodes
 *        deleted first, provider delete until not found, finalizer
 *        removed).
 *
 * Status conditions follow operatorpkg's ConditionSet: missing root
 * (Ready) and dependents (Launched, Registered, Initialized) are added
 * Unknown "AwaitingReconciliation" with the creationTimestamp as their
 * lastTransitionTime; a lastTransitionTime moves only with the status; the
 * list is ordered by lastTransitionTime with Ready last; Ready is True when
 * every dependent is True at metadata.generation, else Unknown
 * "ReconcilingDependents" or (a dependent False at the generation) False
 * "UnhealthyDependents", its message the unhealthy dependents as
 * "Type=Status, ..." latest transition first.
 *
 * A registration and a launch or registration timeout of a NodeClaim
 * owned by its NodePool (an ownerReference of kind NodePool with its uid)
 * also decide the NodePool's NodeRegistrationHealthy (an updateStatus of
 * the NodePool when it changes): True once registrations are healthy,
 * False ("RegistrationFailed", or the Launched condition's reason and
 * message when the launch failed) when two of the last four outcomes
 * failed. Upstream keeps those outcomes in memory; a snapshot does not
 * show them, so a call starts from the condition alone as upstream does
 * after a restart (True: one success, False: two failures, otherwise none)
 * and kp_lifecycle_reconcile adds the round's outcomes in input order.
 * @param[out] out a new result; NULL on failure
 * @param[in] cluster the snapshot and its now_ms
 * @param[in] opts options, or NULL for KP_LIFECYCLE_OPTIONS_INIT
 * @param[in] nodeclaim the NodeClaim (need not be one of cluster->nodeclaims)
 * @param[out] err optional error detail
 * @return see above
 * @since 0.1
 */
int kp_lifecycle_nodeclaim(kp_lifecycle_result **out, const kp_cluster_spec *cluster,
		const kp_lifecycle_options *opts, const kp_nodeclaim *nodeclaim, kp_error *err);

/**
 * @brief nodeclaim.expiration: delete a NodeClaim past creation +
 *        spec.expireAfter (no budgets, no PDB checks), else requeue at that
 *        time; nothing for "Never" or a deleting NodeClaim.
 * @param[out] out a new result; NULL on failure
 * @param[in] cluster the snapshot and its now_ms
 * @param[in] opts options, or NULL for KP_LIFECYCLE_OPTIONS_INIT
 * @param[in] nodeclaim the NodeClaim
 * @param[out] err optional error detail
 * @return see above
 * @since 0.1
 */
int kp_lifecycle_nodeclaim_expiration(kp_lifecycle_result **out, const kp_cluster_spec *cluster,
		const kp_lifecycle_options *opts, const kp_nodeclaim *nodeclaim, kp_error *err);

/**
 * @brief nodeclaim.disruption: the Drifted condition (the drift decision
 *        disruption makes: the NodePool's hash from its spec as the hash
 *        controller writes it, its requirements, the instance type no
 *        longer offered by opts->cloudprovider's catalogue an hour after creation,
 *        the provider's drift; cleared when not drifted or not launched)
 *        and the Consolidatable condition (consolidateAfter elapsed since
 *        the last pod event or initialization). NodePools must be as the
 *        API server stores them (defaulted, kp_nodepool_default).
 * @param[out] out a new result; NULL on failure
 * @param[in] cluster the snapshot and its now_ms
 * @param[in] opts options, or NULL for KP_LIFECYCLE_OPTIONS_INIT
 * @param[in] nodeclaim the NodeClaim
 * @param[out] err optional error detail
 * @return see above
 * @since 0.1
 */
int kp_lifecycle_nodeclaim_disruption(kp_lifecycle_result **out, const kp_cluster_spec *cluster,
		const kp_lifecycle_options *opts, const kp_nodeclaim *nodeclaim, kp_error *err);

/**
 * @brief nodeclaim.garbagecollection: delete registered NodeClaims that are
 *        not deleting, whose provider ID the provider no longer lists and
 *        whose Node (if any) is not Ready. Needs opts->cloudprovider (nothing
 *        happens without one).
 * @param[out] out a new result; NULL on failure
 * @param[in] cluster the snapshot and its now_ms
 * @param[in] opts options, or NULL for KP_LIFECYCLE_OPTIONS_INIT
 * @param[out] err optional error detail
 * @return see above
 * @since 0.1
 */
int kp_lifecycle_garbage_collection(kp_lifecycle_result **out, const kp_cluster_spec *cluster,
		const kp_lifecycle_options *opts, kp_error *err);

/**
 * @brief node.termination for one deleting Node with the termination
 *        finalizer: delete its NodeClaim, the karpenter.sh/disrupted
 *        NoSchedule taint and the exclude-from-external-load-balancers
 *        label, drain in upstream's four tiers (evictions; force-deletes
 *        past the terminationGracePeriod with the remaining seconds; pods a
 *        PDB protects are named in the Draining message), the minimum drain
 *        time, the wait for the Node's VolumeAttachments (VolumesDetached
 *        Unknown "AwaitingVolumeDetachment" with an AwaitingVolumeDetachment
 *        event, requeue 1 s; those whose PV only pods that are not drained
 *        use, through their PVCs, do not count: pods tolerating the
 *        disrupted taint, static pods, pods stuck terminating; False
 *        "TerminationGracePeriodElapsed" and no more waiting once the
 *        NodeClaim's terminationGracePeriod has elapsed; True when none is
 *        pending or cluster->volume_attachments is NULL), then the provider's
 *        delete and the finalizer's removal.
 * @param[out] out a new result; NULL on failure
 * @param[in] cluster the snapshot and its now_ms
 * @param[in] opts options, or NULL for KP_LIFECYCLE_OPTIONS_INIT
 * @param[in] node the Node
 * @param[out] err optional error detail
 * @return see above
 * @since 0.1
 */
int kp_lifecycle_node_termination(kp_lifecycle_result **out, const kp_cluster_spec *cluster,
		const kp_lifecycle_options *opts, const kp_node *node, kp_error *err);

/**
 * @brief nodeclaim.podevents for one pod event (a pod bound to a Node was
 *        scheduled, became terminal or began terminating): move the Node's
 *        NodeClaim's status.lastPodEventTime to now, at most every 10 s;
 *        DaemonSet pods do not count. Event-driven: kp_lifecycle_reconcile
 *        does not call it (a snapshot has no events).
 * @param[out] out a new result; NULL on failure
 * @param[in] cluster the snapshot and its now_ms
 * @param[in] opts options, or NULL for KP_LIFECYCLE_OPTIONS_INIT
 * @param[in] pod the pod the event is about
 * @param[out] err optional error detail
 * @return see above
 * @since 0.1
 */
int kp_lifecycle_pod_event(kp_lifecycle_result **out, const kp_cluster_spec *cluster,
		const kp_lifecycle_options *opts, const kp_pod *pod, kp_error *err);

/**
 * @brief nodeclaim.consistency: for an initialized NodeClaim that is not
 *        deleting, every requested resource's Node capacity must be at
 *        least 90% of the NodeClaim's status.capacity (a
 *        FailedConsistencyCheck event per issue); sets ConsistentStateFound
 *        and requeues in 10 m (nothing without a single Node).
 * @param[out] out a new result; NULL on failure
 * @param[in] cluster the snapshot and its now_ms
 * @param[in] opts options, or NULL for KP_LIFECYCLE_OPTIONS_INIT
 * @param[in] nodeclaim the NodeClaim
 * @param[out] err optional error detail
 * @return see above
 * @since 0.1
 */
int kp_lifecycle_nodeclaim_consistency(kp_lifecycle_result **out, const kp_cluster_spec *cluster,
		const kp_lifecycle_options *opts, const kp_nodeclaim *nodeclaim, kp_error *err);

/**
 * @brief nodepool.counter: status.resources (cpu, ephemeral-storage,
 *        memory, nodes, pods, then every other resource) summed over the
 *        NodePool's NodeClaims (the Node's capacity once registered, else
 *        the NodeClaim's) and status.nodes.
 * @param[out] out a new result; NULL on failure
 * @param[in] cluster the snapshot and its now_ms
 * @param[in] opts options, or NULL for KP_LIFECYCLE_OPTIONS_INIT
 * @param[in] nodepool the NodePool
 * @param[out] err optional error detail
 * @return see above
 * @since 0.1
 */
int kp_lifecycle_nodepool_counter(kp_lifecycle_result **out, const kp_cluster_spec *cluster,
		const kp_lifecycle_options *opts, const kp_nodepool *nodepool, kp_error *err);

/**
 * @brief node.health (only with KP_FEATURE_GATE_NODE_REPAIR, off by
 *        default as upstream): a Node whose condition matches one of the
 *        provider's repair policies (kp_cloudprovider_repair_policies) for
 *        longer than the policy's toleration has its NodeClaim annotated
 *        with termination-timestamp now and deleted, unless more than 20%
 *        (rounded up) of its NodePool's Nodes are unhealthy
 *        (NodeRepairBlocked event, requeue in 5 m); before that, requeue at
 *        the policy's deadline. Needs opts->cloudprovider.
 * @param[out] out a new result; NULL on failure
 * @param[in] cluster the snapshot and its now_ms
 * @param[in] opts options, or NULL for KP_LIFECYCLE_OPTIONS_INIT
 * @param[in] node the Node
 * @param[out] err optional error detail
 * @return see above
 * @since 0.1
 */
int kp_lifecycle_node_health(kp_lifecycle_result **out, const kp_cluster_spec *cluster,
		const kp_lifecycle_options *opts, const kp_node *node, kp_error *err);

/**
 * @brief nodepool.readiness and nodepool.validation with the root
 *        condition: NodeClassReady from cluster->nodeclasses (False
 *        NodeClassNotFound "NodeClass not found on cluster"; False
 *        NodeClassTerminating "NodeClass is Terminating" when the class
 *        is being deleted; False NodeClassReadinessUnknown "Node Class
 *        Readiness Unknown" when it has no conditions; True when Ready;
 *        else False with the class's Ready reason and message, reason
 *        NodeClassNotReady when it gives none; untouched when
 *        cluster->nodeclasses is NULL), ValidationSucceeded from
 *        kp_validate (False NodePoolValidationFailed "field: message" of
 *        the first problem, or True), then Ready over both (operatorpkg's
 *        rule).
 * @param[out] out a new result; NULL on failure
 * @param[in] cluster the snapshot and its now_ms
 * @param[in] opts options, or NULL for KP_LIFECYCLE_OPTIONS_INIT
 * @param[in] nodepool the NodePool
 * @param[out] err optional error detail
 * @return see above
 * @since 0.1
 */
int kp_lifecycle_nodepool_readiness(kp_lifecycle_result **out, const kp_cluster_spec *cluster,
		const kp_lifecycle_options *opts, const kp_nodepool *nodepool, kp_error *err);

/**
 * @brief nodepool.registrationhealth: NodeRegistrationHealthy set Unknown
 *        ("AwaitingReconciliation") when the NodePool has none or it does
 *        not observe metadata.generation, for a NodePool whose node class
 *        is in cluster->nodeclasses (nothing when cluster->nodeclasses is NULL or
 *        the class is absent, as upstream ignores such NodePools), and
 *        when the node class's generation (kp_nodeclass_status::generation,
 *        when not 0) differs from status.nodeClassObservedGeneration; the
 *        update then records that generation there.
 * @param[out] out a new result; NULL on failure
 * @param[in] cluster the snapshot and its now_ms
 * @param[in] opts options, or NULL for KP_LIFECYCLE_OPTIONS_INIT
 * @param[in] nodepool the NodePool
 * @param[out] err optional error detail
 * @return see above
 * @since 0.1
 */
int kp_lifecycle_nodepool_registration_health(kp_lifecycle_result **out,
		const kp_cluster_spec *cluster, const kp_lifecycle_options *opts,
		const kp_nodepool *nodepool, kp_error *err);

/**
 * @brief nodeclaim.hydration: the node class label
 *        ("<group>/<lowercased kind>" = nodeClassRef.name, upstream
 *        NodeClassLabelKey) on the NodeClaim.
 * @param[out] out a new result; NULL on failure
 * @param[in] cluster the snapshot and its now_ms
 * @param[in] opts options, or NULL for KP_LIFECYCLE_OPTIONS_INIT
 * @param[in] nodeclaim the NodeClaim
 * @param[out] err optional error detail
 * @return see above
 * @since 0.1
 */
int kp_lifecycle_nodeclaim_hydration(kp_lifecycle_result **out, const kp_cluster_spec *cluster,
		const kp_lifecycle_options *opts, const kp_nodeclaim *nodeclaim, kp_error *err);

/**
 * @brief node.hydration: the same label on the NodeClaim's Node.
 * @param[out] out a new result; NULL on failure
 * @param[in] cluster the snapshot and its now_ms
 * @param[in] opts options, or NULL for KP_LIFECYCLE_OPTIONS_INIT
 * @param[in] node the Node
 * @param[out] err optional error detail
 * @return see above
 * @since 0.1
 */
int kp_lifecycle_node_hydration(kp_lifecycle_result **out, const kp_cluster_spec *cluster,
		const kp_lifecycle_options *opts, const kp_node *node, kp_error *err);

/**
 * @brief nodepool.hash: when the NodePool's hash-version annotation is not
 *        KP_NODEPOOL_HASH_VERSION, patch its NodeClaims as
 *        kp_nodeclaim_hash_annotations says; then patch the NodePool's
 *        karpenter.sh/nodepool-hash and -hash-version annotations when
 *        they differ (kp_nodepool_hash_annotations, default options).
 * @param[out] out a new result; NULL on failure
 * @param[in] cluster the snapshot and its now_ms
 * @param[in] opts options, or NULL for KP_LIFECYCLE_OPTIONS_INIT
 * @param[in] nodepool the NodePool
 * @param[out] err optional error detail
 * @return see above
 * @since 0.1
 */
int kp_lifecycle_nodepool_hash(kp_lifecycle_result **out, const kp_cluster_spec *cluster,
		const kp_lifecycle_options *opts, const kp_nodepool *nodepool, kp_error *err);

/**
 * @brief Every controller once over the whole snapshot, each reacting to
 *        the input (not to the others' actions): first each NodePool's
 *        registration-health reset on a new generation; then per NodeClaim
 *        (input order) lifecycle, expiration, disruption, consistency, hydration;
 *        garbage collection; per Node (input order) termination, node
 *        repair when its gate is on, hydration; per NodePool (input order)
 *        readiness and validation, registration health, the hash, then
 *        the counter. The round looks objects up in hash maps, so it is
 *        linear in the objects; the NodePools' registration outcomes
 *        accumulate over the round (see kp_lifecycle_nodeclaim).
 * @param[out] out a new result; NULL on failure
 * @param[in] cluster the snapshot and its now_ms
 * @param[in] opts options, or NULL for KP_LIFECYCLE_OPTIONS_INIT
 * @param[out] err optional error detail
 * @return see above
 * @since 0.1
 */
int kp_lifecycle_reconcile(kp_lifecycle_result **out, const kp_cluster_spec *cluster,
		const kp_lifecycle_options *opts, kp_error *err);

KP_END_DECLS

#endif /* KARPENTER_LIFECYCLE_H */
