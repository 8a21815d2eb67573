/*
 * libkarpenter: the scheduling simulation.
 *
 * "Where would these pods go, and which NodeClaims would Karpenter launch?"
 * as upstream kubernetes-sigs/karpenter pkg/controllers/provisioning/scheduling
 * decides it, as a pure function: an immutable cluster snapshot and options
 * in, a decision out, with every placement and every refusal explained.
 *
 * Two levels, so that consolidation can ask thousands of questions about one
 * cluster cheaply:
 *
 * - kp_cluster: an immutable snapshot built once from the objects (NodePools
 *   with their instance types, Nodes and their bound pods, in-flight
 *   NodeClaims, DaemonSets, PDBs, volumes, pending pods). Building it interns
 *   strings, compiles requirements, groups pods and indexes topology; it is
 *   then shared read-only (thread-safe) by every simulation.
 * - kp_sched_simulate: one simulation over a snapshot, optionally with some
 *   nodes removed and their pods to reschedule (kp_sched_options). It works on
 *   a per-simulation overlay of the snapshot, so its cost is proportional to
 *   what it changes, not to the size of the cluster.
 *
 * Determinism: the same snapshot and options give the same result, byte for
 * byte, and the order of the objects in kp_cluster_spec does not matter:
 * kp_cluster_new sorts every array by namespace/name, then uid, before
 * building anything (placements are still reported in the caller's pod
 * order). Where upstream picks at random or iterates a Go map, this library
 * decides as follows:
 * - NodePools of equal weight: by name, descending (upstream's own rule);
 * - NodeClaims opened by the simulation are tried fewest pods first, equal
 *   counts in their previous order (a stable sort, as upstream's sort.Slice
 *   behaves on short slices);
 * - preferred terms of equal weight: in the order written;
 * - topology spread: among the valid domains with the fewest pods, the
 *   smallest domain name; pod affinity with nothing to follow yet: the
 *   smallest domain name;
 * - instance types of equal price: by name; the launch choice is the
 *   cheapest available offering of the cheapest instance type, the first
 *   offering on ties;
 * - custom label values of a NodeClaim: kp_requirement_any.
 *
 * Reserved capacity (upstream's ReservationManager, feature gate
 * ReservedCapacity on by default): an offering of capacity type "reserved"
 * draws on its reservation (kp_offering::reservation_id), whose instances
 * left are the smallest reservation_capacity any offering of the snapshot
 * gives it. A NodeClaim reserves, pessimistically, every available
 * reserved offering compatible with its requirements among its instance
 * types (one instance of each reservation, whichever type is launched);
 * an exhausted reservation is not offered to later NodeClaims, and a
 * NodeClaim whose requirements narrow releases what it no longer needs.
 * A NodeClaim holding reservations is launched with
 * karpenter.sh/capacity-type In [reserved] and the reservation IDs: In on
 * the offerings' reservation-ID label, which is the key of an offering's
 * further requirement whose only value is its reservation_id (upstream's
 * provider-defined ReservationIDLabel; a provider that sets no such
 * requirement gets the capacity type only). kp_sched_options::
 * reserved_offering_mode says what happens when a pod would leave
 * reservations unused (upstream's provisioner is strict, consolidation
 * falls back).
 *
 * What this simulation does not model (yet): dynamic resource allocation
 * (ResourceClaims are ignored), the PreferencePolicy=Ignore option, and the
 * scheduler's cluster-level default topology spread constraints.
 * (consolidateAfter of the consolidation simulation is modelled:
 * kp_sched_options.exclude_nodes.)
 *
 * Pod affinity namespaces: a term selects the namespaces it lists plus
 * those whose labels match its namespaceSelector (the Namespace objects of
 * the snapshot, kp_cluster_spec.namespaces); with neither, the pod's own
 * namespace. A namespace not given as an object has no labels, so only an
 * empty selector ({}, every namespace) selects it.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef KARPENTER_SCHEDULING_H
#define KARPENTER_SCHEDULING_H

#include <karpenter/common.h>
#include <karpenter/objects.h>
#include <karpenter/nodepool.h>
#include <karpenter/nodeclaim.h>
#include <karpenter/cloudprovider.h>
#include <karpenter/wellknown.h>
#include <karpenter/emitter.h>

KP_BEGIN_DECLS

/* ------------------------------------------------------------------ */
/* The snapshot                                                        */
/* ------------------------------------------------------------------ */

/**
 * @brief Readiness of one node class (any provider's kind), as its Ready
 *        status condition says. A NodePool whose nodeClassRef names a node
 *        class that is listed as not ready, or that is missing while the
 *        list is given, is not used (KP_REASON_NODEPOOL_NOT_READY).
 * @since 0.1
 */
typedef struct kp_nodeclass_status {
	uint32_t struct_size; /**< sizeof(kp_nodeclass_status) */
	uint32_t ready;       /**< 1 if Ready is True */
	const char *group;    /**< e.g. "karpenter.kwok.sh" */
	const char *kind;     /**< e.g. "KWOKNodeClass" */
	const char *name;     /**< metadata.name */
	const char *message;  /**< the Ready condition's message, or NULL */
	/* below: @since 0.1, added while 0.1 was being written (callers without
	 * them are served: the lifecycle then reads a node class that is not
	 * ready with reason NodeClassNotReady, and never resets registration
	 * health for a node class generation). What the lifecycle's
	 * nodepool.readiness and nodepool.registrationhealth read; the
	 * snapshot reads only ready. */
	const char *reason;     /**< the Ready condition's reason, or NULL */
	int64_t generation;     /**< metadata.generation; 0 = not known */
	uint32_t terminating;   /**< 1 if metadata.deletionTimestamp is set */
	uint32_t ready_unknown; /**< 1 if its Ready condition is absent or Unknown (no status
	                             controller has decided yet: upstream's IsUnknown) */
} kp_nodeclass_status;

/** Static initializer for kp_nodeclass_status. @since 0.1 */
#define KP_NODECLASS_STATUS_INIT { sizeof(kp_nodeclass_status), 0, NULL, NULL, NULL, NULL, NULL, 0, 0, 0 }

/**
 * @brief Initialize @p status as KP_NODECLASS_STATUS_INIT does (for FFI).
 * @param[out] status the struct to fill; NULL is ignored
 * @since 0.1
 * Thread-safety: safe.
 */
void kp_nodeclass_status_init(kp_nodeclass_status *status);

/**
 * @brief Fill @p status from a node class's metadata and status conditions,
 *        by the one rule every reader uses (the builder, kubectl-karpenter,
 *        the providers): ready when its Ready condition is True or when it
 *        has no condition at all (no status controller has run; the
 *        lifecycle still reads that as ready_unknown, upstream's
 *        IsUnknown); not ready when it has conditions but no Ready (a
 *        controller that has not decided, as upstream), its message
 *        and reason, ready_unknown when Ready is absent or Unknown,
 *        generation and terminating from the metadata. group, kind and
 *        name are left to the caller (name is set from @p meta).
 * @param[out] status the status (initialized here; its strings borrow from
 *        @p meta and @p conds)
 * @param[in] meta the node class's metadata, or NULL
 * @param[in] conds its status.conditions, or NULL
 * @param[in] n_conds their number
 * @since 0.1
 * Thread-safety: safe.
 */
void kp_nodeclass_status_from(kp_nodeclass_status *status, const kp_object_meta *meta,
			      kp_condition *const *conds, size_t n_conds);

/**
 * @brief Everything a snapshot is built from. Caller-filled; borrowed for
 *        the duration of kp_cluster_new only (the snapshot copies what it
 *        keeps).
 *
 * Pods with spec.nodeName are bound to that node (they count against its
 * resources and take part in topology); pods without it are pending and are
 * what a simulation schedules. As upstream's provisioner, terminal pods
 * (Succeeded/Failed), pods bound to a node that is not in the snapshot, and
 * pending pods owned by a DaemonSet or a Node (mirror pods) or nominated to
 * a node (preempting) are ignored. Offline, a pending pod need not carry the
 * PodScheduled=False/Unschedulable condition upstream waits for.
 *
 * Nodes pair with NodeClaims by provider ID (upstream cluster state: a
 * NodeClaim without status.providerID is not launched and is ignored). A
 * NodeClaim whose Node has not registered yet is an in-flight target. A
 * node is deleting when its NodeClaim has a deletionTimestamp or an
 * InstanceTerminating condition, or when it has no NodeClaim and has a
 * deletionTimestamp: it takes no pods and its reschedulable pods are
 * scheduled again, as by the provisioner. A cordoned node (unschedulable)
 * carries node.kubernetes.io/unschedulable:NoSchedule.
 *
 * Volumes: a claim without storageClassName uses the newest StorageClass
 * annotated storageclass.kubernetes.io/is-default-class: "true" (what the
 * admission plugin would have set); an ephemeral volume whose claim
 * ("<pod>-<volume>") is not in the snapshot uses its volumeClaimTemplate.
 * @since 0.1
 */
typedef struct kp_cluster_spec {
	uint32_t struct_size;                    /**< sizeof(kp_cluster_spec) */
	uint32_t reserved;                       /**< zero */
	const kp_nodepool *const *nodepools;     /**< NodePools (defaults applied by the caller) */
	size_t n_nodepools;                      /**< number of NodePools */
	/** Instance types of each NodePool (parallel to nodepools; an entry may
	 *  repeat the same catalogue). A NULL array or entry means "none". */
	kp_instance_types *const *instance_types;
	/** Node classes and their readiness; NULL = not modelled (all ready). */
	const kp_nodeclass_status *const *nodeclasses;
	size_t n_nodeclasses;                    /**< number of node classes */
	const kp_node *const *nodes;             /**< existing Nodes */
	size_t n_nodes;                          /**< number of Nodes */
	const kp_nodeclaim *const *nodeclaims;   /**< NodeClaims, launched or in flight */
	size_t n_nodeclaims;                     /**< number of NodeClaims */
	const kp_pod *const *pods;               /**< bound and pending pods */
	size_t n_pods;                           /**< number of pods */
	const kp_daemonset *const *daemonsets;   /**< DaemonSets */
	size_t n_daemonsets;                     /**< number of DaemonSets */
	const kp_pdb *const *pdbs;               /**< PodDisruptionBudgets */
	size_t n_pdbs;                           /**< number of PDBs */
	const kp_pvc *const *pvcs;               /**< PersistentVolumeClaims */
	size_t n_pvcs;                           /**< number of PVCs */
	const kp_pv *const *pvs;                 /**< PersistentVolumes */
	size_t n_pvs;                            /**< number of PVs */
	const kp_storage_class *const *storage_classes; /**< StorageClasses */
	size_t n_storage_classes;                /**< number of StorageClasses */
	const kp_csi_node *const *csi_nodes;     /**< CSINodes */
	size_t n_csi_nodes;                      /**< number of CSINodes */
	kp_wellknown *wellknown;                 /**< well-known label rules (provider's), or NULL for the
	                                              core's; kept by reference: it must outlive the
	                                              snapshot, unmodified */
	int64_t now_ms;                          /**< the snapshot's "now" */
	/* below: beyond the first size (KP__FIRST_SIZE, VERSIONING.md): a caller
	 * whose struct_size ends at now_ms is served, with no Namespaces */
	/** Namespaces, whose labels pod affinity namespaceSelectors match
	 *  (only metadata.name and metadata.labels are read); NULL/0 = none:
	 *  every namespace then has no labels. @since 0.1 */
	const kp_namespace *const *namespaces;
	size_t n_namespaces;                     /**< number of Namespaces */
	/** VolumeAttachments (objects.h), or NULL: not modelled (the
	 *  lifecycle's Node termination then finds none pending; a non-NULL
	 *  list with 0 means none exists). The scheduler and disruption do not
	 *  read them. @since 0.1 */
	const kp_volume_attachment *const *volume_attachments;
	size_t n_volume_attachments;             /**< number of VolumeAttachments */
} kp_cluster_spec;

/** Static initializer for kp_cluster_spec. @since 0.1 */
#define KP_CLUSTER_SPEC_INIT { sizeof(kp_cluster_spec), 0, NULL, 0, NULL, NULL, 0, NULL, 0, NULL, 0, NULL, 0, NULL, 0, NULL, 0, NULL, 0, NULL, 0, NULL, 0, NULL, 0, NULL, 0, NULL, 0, NULL, 0 }

/**
 * @brief Initialize @p spec as KP_CLUSTER_SPEC_INIT does (for FFI).
 * @param[out] spec the struct to fill; NULL is ignored
 * @since 0.1
 * Thread-safety: safe.
 */
void kp_cluster_spec_init(kp_cluster_spec *spec);

/**
 * @brief An immutable cluster snapshot.
 * Thread-safety: safe to share between threads and simulations once built.
 */
typedef struct kp_cluster kp_cluster;

/**
 * @brief Build a snapshot.
 * @param[out] out the snapshot; NULL on failure
 * @param[in] spec the objects
 * @param[out] err optional error detail
 * @return KP_OK, KP_EINVAL (an object is inconsistent: the error names it
 *         and the field, e.g. "nodepools[0].spec.template.spec.requirements[1]"),
 *         KP_EVERSION (struct_size of @p spec or of a node class status),
 *         KP_ENOMEM
 * @since 0.1
 * Thread-safety: safe.
 * Ownership: caller owns *out (kp_cluster_free); nothing of @p spec is kept
 * (objects are copied) except references taken on the instance type
 * catalogues and the kp_wellknown handle, which must outlive the snapshot.
 */
int kp_cluster_new(kp_cluster **out, const kp_cluster_spec *spec, kp_error *err);

/**
 * @brief Release a snapshot (NULL-safe). Results of its simulations must be
 *        released first.
 * @param[in] cluster the snapshot, or NULL
 * @since 0.1
 * Thread-safety: needs exclusive access to @p cluster.
 */
void kp_cluster_free(kp_cluster *cluster);

/**
 * @brief What a snapshot holds, as text for people debugging a placement:
 *        the NodePools in the order they are tried and whether each can
 *        provision (and why not), the reservations of reserved offerings
 *        with the instances a simulation starts from, the existing nodes in
 *        the order they are tried (NodePool, managed, initialized, deleting,
 *        in flight, bound pods), and the pods by state with every ignored
 *        pod and why.
 *        The wording may change between versions; do not parse it.
 * @param[out] out the text (NUL-terminated); NULL on failure
 * @param[in] cluster the snapshot
 * @param[out] err optional error detail
 * @return KP_OK, KP_EINVAL (NULL argument), KP_ENOMEM
 * @since 0.1
 * Ownership: the caller owns *out (kp_cluster_description_free).
 * Thread-safety: safe.
 */
int kp_cluster_describe(char **out, const kp_cluster *cluster, kp_error *err);

/**
 * @brief Release the text of kp_cluster_describe (NULL-safe).
 * @since 0.1
 */
void kp_cluster_description_free(char *text);

/* ------------------------------------------------------------------ */
/* One simulation                                                      */
/* ------------------------------------------------------------------ */

/** kp_sched_options::min_values_policy, as upstream's --min-values-policy. */
enum kp_min_values_policy {
	KP_MIN_VALUES_STRICT = 0,      /**< a NodeClaim that cannot meet minValues is not launched */
	KP_MIN_VALUES_BEST_EFFORT = 1  /**< relax minValues to what the options allow */
};

/**
 * kp_sched_options::reserved_offering_mode: upstream's ReservedOfferingMode
 * and its ReservedCapacity feature gate.
 * @since 0.1
 */
enum kp_reserved_offering_mode {
	/** Upstream's provisioner (DisableReservedCapacityFallback): a pod that
	 *  is compatible with a reserved offering none of whose reservations is
	 *  left, or that would take a NodeClaim off all of its reservations, is
	 *  not placed there (KP_REASON_RESERVED_OFFERING); it is neither tried on
	 *  lower-weight NodePools nor relaxed (upstream defers it to a later
	 *  simulation). */
	KP_RESERVED_OFFERING_STRICT = 0,
	/** Upstream's consolidation and drift simulations: such a pod falls back
	 *  to the other offerings (on-demand, spot). */
	KP_RESERVED_OFFERING_FALLBACK = 1,
	/** Feature gate ReservedCapacity=false: reservations are not counted and
	 *  reserved offerings are used like the others. */
	KP_RESERVED_OFFERING_IGNORE = 2
};

/** Default of kp_sched_options::max_instance_types (upstream's MaxInstanceTypes). */
#define KP_SCHED_DEFAULT_MAX_INSTANCE_TYPES 600

/**
 * @brief Options of one simulation. Caller-filled, size-tagged.
 * @since 0.1
 */
typedef struct kp_sched_options {
	uint32_t struct_size;          /**< sizeof(kp_sched_options) */
	uint32_t max_instance_types;   /**< options kept per NodeClaim; 0 = KP_SCHED_DEFAULT_MAX_INSTANCE_TYPES */
	uint32_t min_values_policy;    /**< a kp_min_values_policy */
	uint32_t reserved;             /**< zero */
	/** Nodes (by name) treated as gone: their pods (except DaemonSet pods)
	 *  are scheduled again with the pending ones (consolidation's question). */
	const char *const *removed_nodes;
	size_t n_removed_nodes;        /**< number of removed nodes */
	/** Schedule only these pending pods ("namespace/name"); NULL = all. */
	const char *const *only_pods;
	size_t n_only_pods;            /**< number of entries in only_pods */
	/** Existing nodes (by name) that take no pod moved off a removed
	 *  node; pending pods and pods of deleting nodes may still land on
	 *  them. Upstream's consolidation simulation (IsConsolidationSimulation)
	 *  closes the nodes inside their consolidateAfter window this way.
	 *  Names not in the cluster are ignored. */
	const char *const *exclude_nodes;
	size_t n_exclude_nodes;        /**< number of entries in exclude_nodes */
	/** Pods ("namespace/name") of removed or deleting nodes that are not
	 *  scheduled again: they leave with their node, placed nowhere and
	 *  not reported (upstream simulates only the pods that are currently
	 *  reschedulable: no active do-not-disrupt, no fully blocking PDB).
	 *  Names not in the cluster, or of pods that would not move, are
	 *  ignored. */
	const char *const *kept_pods;
	size_t n_kept_pods;            /**< number of entries in kept_pods */
	/* below: @since 0.1, added while 0.1 was being written (callers
	 * without it are served: KP_RESERVED_OFFERING_STRICT) */
	/** A kp_reserved_offering_mode; 0 = KP_RESERVED_OFFERING_STRICT
	 *  (upstream's provisioner). */
	uint32_t reserved_offering_mode;
	uint32_t reserved_2;           /**< zero (no tail padding) */
} kp_sched_options;

/** Static initializer for kp_sched_options. @since 0.1 */
#define KP_SCHED_OPTIONS_INIT { sizeof(kp_sched_options), 0, KP_MIN_VALUES_STRICT, 0, NULL, 0, NULL, 0, NULL, 0, NULL, 0, KP_RESERVED_OFFERING_STRICT, 0 }

/**
 * @brief Initialize @p opts as KP_SCHED_OPTIONS_INIT does (for FFI).
 * @param[out] opts the struct to fill; NULL is ignored
 * @since 0.1
 * Thread-safety: safe.
 */
void kp_sched_options_init(kp_sched_options *opts);

/**
 * @brief The result of a simulation. Opaque; read with the accessors below.
 * Thread-safety: read-only accessors are safe.
 */
typedef struct kp_sched_result kp_sched_result;

/**
 * @brief Run a simulation (upstream Scheduler.Solve followed by
 *        Results.TruncateInstanceTypes).
 *
 * Pods are tried in upstream's queue order (CPU, then memory, descending;
 * then creation time; then UID), each against the existing nodes
 * (initialized first, then by name), the NodeClaims this simulation has
 * opened, then a new NodeClaim of each NodePool in weight order, relaxing
 * its preferences step by step as upstream's Preferences.Relax does; the
 * loop ends when a pass over the waiting pods places none. Resources are
 * compared in milli-units (Quantity.MilliValue, rounded up).
 * @param[out] out the result; NULL on failure
 * @param[in] cluster the snapshot (only read; may be shared by concurrent
 *            simulations)
 * @param[in] opts options, or NULL for KP_SCHED_OPTIONS_INIT
 * @param[out] err optional error detail
 * @return KP_OK (even when some pods cannot be placed: see the result),
 *         KP_EINVAL (reserved fields, an unknown policy or reserved offering
 *         mode, a removed node or
 *         an only_pods entry that is not in the snapshot, a NULL
 *         exclude_nodes or kept_pods entry, a NULL list with a count: the
 *         field names the option), KP_EVERSION, KP_ENOMEM
 * @since 0.1
 * Ownership: caller owns *out (kp_sched_result_free). The result borrows
 * strings (names, the instance types and zones of launch choices) from
 * @p cluster: free it before the cluster.
 * Thread-safety: safe; simulations on one snapshot may run concurrently.
 */
int kp_sched_simulate(kp_sched_result **out, const kp_cluster *cluster,
		      const kp_sched_options *opts, kp_error *err);

/**
 * @brief Release a result (NULL-safe).
 * @param[in] result the result, or NULL
 * @since 0.1
 * Thread-safety: needs exclusive access to @p result.
 */
void kp_sched_result_free(kp_sched_result *result);

/** Where a pod was placed (kp_sched_placement::target). */
enum kp_sched_target {
	KP_SCHED_UNPLACED = 0,       /**< could not be placed: see its reasons */
	KP_SCHED_EXISTING_NODE = 1,  /**< an existing Node */
	KP_SCHED_INFLIGHT = 2,       /**< a NodeClaim already launched or in flight */
	KP_SCHED_NEW_NODECLAIM = 3   /**< a NodeClaim this simulation creates */
};

/**
 * @brief Why a pod cannot go somewhere. Codes are stable (machine-readable);
 *        messages are for people.
 */
enum kp_sched_reason_code {
	KP_REASON_NONE = 0,
	KP_REASON_RESOURCES = 1,            /**< does not fit the node's remaining resources / any instance type */
	KP_REASON_TAINTS = 2,               /**< does not tolerate a taint */
	KP_REASON_NODE_AFFINITY = 3,        /**< node selector / required node affinity incompatible */
	KP_REASON_NODEPOOL_REQUIREMENTS = 4,/**< incompatible with the NodePool's requirements */
	KP_REASON_NO_INSTANCE_TYPE = 5,     /**< no instance type satisfies requirements and resources */
	KP_REASON_NODEPOOL_LIMITS = 6,      /**< the NodePool's limits would be exceeded */
	KP_REASON_TOPOLOGY_SPREAD = 7,      /**< a topology spread constraint cannot be met */
	KP_REASON_POD_AFFINITY = 8,         /**< required pod affinity cannot be met */
	KP_REASON_POD_ANTI_AFFINITY = 9,    /**< required pod anti-affinity (or that of a running pod) */
	KP_REASON_HOST_PORTS = 10,          /**< a host port is already in use */
	KP_REASON_VOLUMES = 11,             /**< volume topology or CSI attach limits */
	KP_REASON_MIN_VALUES = 12,          /**< minValues cannot be satisfied */
	KP_REASON_NOT_PROVISIONABLE = 13,   /**< selects kubernetes.io/hostname or an unknown karpenter.sh key */
	KP_REASON_NODEPOOL_NOT_READY = 14,  /**< its node class is missing or not ready */
	KP_REASON_NODE_NOT_SCHEDULABLE = 15,/**< the node is unschedulable, marked for deletion or not initialized */
	KP_REASON_RESERVED_OFFERING = 16    /**< a compatible reserved offering could not be reserved
	                                         (KP_RESERVED_OFFERING_STRICT; upstream's
	                                         ReservedOfferingError) @since 0.1 */
};

/**
 * @brief One reason a pod cannot be placed on one target.
 *
 * An unplaced pod gets one reason per NodePool (in weight order) and one
 * per distinct (code, field) among the existing nodes, naming the first
 * such node in scheduling order and counting the others in the message.
 * Reasons describe the simulation's final state, which is the state of the
 * pod's last attempt (the loop stops only after a pass that placed
 * nothing), with the pod's preferences fully relaxed. NodeClaims opened by
 * the simulation itself are not listed. A pod that is not provisionable
 * (upstream's provisioner would ignore it) has a single
 * KP_REASON_NOT_PROVISIONABLE reason whose field is the pod field at fault.
 * @since 0.1
 */
typedef struct kp_sched_reason {
	uint32_t struct_size;  /**< as filled by the library */
	uint32_t code;         /**< a kp_sched_reason_code */
	const char *nodepool;  /**< the NodePool considered, or NULL */
	const char *node;      /**< the existing node or NodeClaim considered, or NULL */
	const char *field;     /**< the requirement, taint, constraint or resource involved, or NULL */
	const char *message;   /**< a short human message */
} kp_sched_reason;

/**
 * @brief Where one pod went.
 * @since 0.1
 */
typedef struct kp_sched_placement {
	uint32_t struct_size;                 /**< as filled by the library */
	uint32_t target;                      /**< a kp_sched_target */
	const char *namespace_;               /**< pod namespace */
	const char *name;                     /**< pod name */
	const char *node;                     /**< node or NodeClaim name, NULL when unplaced; a
	                                           new NodeClaim is named "<nodepool>-NNNNN"
	                                           (its creation order, from 00001, skipping
	                                           numbers whose name an input Node or
	                                           NodeClaim already has) */
	size_t nodeclaim_index;               /**< index of the new NodeClaim (KP_SCHED_NEW_NODECLAIM) */
	const kp_sched_reason *const *reasons; /**< why not placed (empty when placed) */
	size_t n_reasons;                     /**< number of reasons */
} kp_sched_placement;

/**
 * @brief A NodeClaim the simulation would launch.
 * @since 0.1
 */
typedef struct kp_sched_nodeclaim {
	uint32_t struct_size;          /**< as filled by the library */
	uint32_t reserved;             /**< zero */
	const kp_nodeclaim *nodeclaim; /**< the NodeClaim as upstream's ToNodeClaim builds it:
	                                    generateName "<nodepool>-", labels (template, nodepool,
	                                    node class, resolved custom labels), annotations
	                                    (template, nodepool-hash, nodepool-hash-version,
	                                    nodeclaim-min-values-relaxed), owner reference to the
	                                    NodePool, requirements by key (the instance-type
	                                    options, the cheapest max_instance_types, and their
	                                    capacity types; values sorted, as upstream writes
	                                    them; a NodeClaim holding reservations has
	                                    capacity type In [reserved] and its reservation
	                                    IDs), resources.requests (pods plus the smallest
	                                    daemon overhead of the options), taints, startup
	                                    taints, nodeClassRef, expireAfter,
	                                    terminationGracePeriod */
	const char *nodepool;          /**< its NodePool */
	const char *instance_type;     /**< the launch choice: cheapest compatible available offering
	                                    (while reservations are counted, never one of a
	                                    reservation the NodeClaim does not hold) */
	const char *zone;              /**< the launch choice's zone */
	const char *capacity_type;     /**< the launch choice's capacity type */
	double price;                  /**< the launch choice's hourly price */
	size_t n_instance_type_options; /**< instance types left in its requirements */
	size_t n_pods;                 /**< pods placed on it */
	/* below: @since 0.1, added while 0.1 was being written */
	/** The launch choice's offering (borrowed from the snapshot's
	 *  catalogue), or NULL when there is none. A reserved one is a
	 *  reservation the NodeClaim holds: its reservation_id, and its further
	 *  requirements In one value (the reservation labels a provider puts on
	 *  the instance) are what kp_sched_result_write adds to the labels. */
	const kp_offering *offering;
} kp_sched_nodeclaim;

/**
 * @brief Number of pods the simulation considered: the pending pods (those
 *        of kp_sched_options::only_pods when given), including those that
 *        are not provisionable, and the reschedulable pods of removed and
 *        deleting nodes; reported in the order of kp_cluster_spec::pods.
 * @param[in] result the result, or NULL (0)
 * @since 0.1
 * Thread-safety: safe.
 */
size_t kp_sched_result_pod_count(const kp_sched_result *result);

/**
 * @brief Placement of the pod at @p index, or NULL.
 * @param[in] result the result
 * @param[in] index 0 .. kp_sched_result_pod_count() - 1
 * @return the placement, or NULL when out of range or @p result is NULL
 * @since 0.1
 * Ownership: borrowed from the result.
 * Thread-safety: safe.
 */
const kp_sched_placement *kp_sched_result_pod_at(const kp_sched_result *result, size_t index);

/**
 * @brief Number of new NodeClaims, in creation order; NodeClaims that
 *        truncation to max_instance_types left below their minValues under
 *        KP_MIN_VALUES_STRICT are not launched (their pods are unplaced with
 *        KP_REASON_MIN_VALUES).
 * @param[in] result the result, or NULL (0)
 * @since 0.1
 * Thread-safety: safe.
 */
size_t kp_sched_result_nodeclaim_count(const kp_sched_result *result);

/**
 * @brief The new NodeClaim at @p index, or NULL.
 * @param[in] result the result
 * @param[in] index 0 .. kp_sched_result_nodeclaim_count() - 1
 * @return the NodeClaim, or NULL when out of range or @p result is NULL
 * @since 0.1
 * Ownership: borrowed from the result.
 * Thread-safety: safe.
 */
const kp_sched_nodeclaim *kp_sched_result_nodeclaim_at(const kp_sched_result *result, size_t index);

/**
 * @brief Total hourly price of the new NodeClaims (the sum of their launch
 *        choices' prices).
 * @param[in] result the result, or NULL (0)
 * @since 0.1
 * Thread-safety: safe.
 */
double kp_sched_result_cost(const kp_sched_result *result);

/**
 * @brief Reason code name ("Resources", "Taints", "NodeAffinity",
 *        "NodePoolRequirements", "NoInstanceType", "NodePoolLimits",
 *        "TopologySpread", "PodAffinity", "PodAntiAffinity", "HostPorts",
 *        "Volumes", "MinValues", "NotProvisionable", "NodePoolNotReady",
 *        "NodeNotSchedulable", "ReservedOffering", "None"), never NULL.
 * @param[in] code a kp_sched_reason_code
 * @return static text; "Unknown" for another value
 * @since 0.1
 * Thread-safety: safe.
 */
const char *kp_sched_reason_code_name(uint32_t code);

/**
 * @brief Write @p result as one document: the one `kubectl-karpenter
 *        simulate -o json|yaml` prints, whose members the README lists
 *        (a contract: members are only ever added). `nodeClaims[]` holds
 *        each new NodeClaim (`nodeClaim`, written from its struct with the
 *        launch choice's labels, and `price`), `pods[]` each placement
 *        (`namespace`, `name`, `nodeClaim` or `node`, `reasons[]` with
 *        `code`, `nodePool`, `node`, `field`, `message`), and `cost`.
 * @param[in,out] em the emitter the document is written into (as one
 *        value: the document itself, or a member's value)
 * @param[in] result the result
 * @param[out] err optional error detail
 * @return KP_OK; KP_EINVAL (NULL argument; a price or the cost that is not
 *         a finite number: check them first to write nothing); the
 *         emitter's error
 * @since 0.1
 * Thread-safety: safe for distinct emitters.
 */
int kp_sched_result_write(kp_emitter *em, const kp_sched_result *result, kp_error *err);

KP_END_DECLS

#endif /* KARPENTER_SCHEDULING_H */
