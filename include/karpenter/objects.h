/*
 * libkarpenter: the Kubernetes object model.
 *
 * Plain C structs for the objects Karpenter reads: ObjectMeta, metav1
 * Condition and the subset of core/v1, apps/v1, policy/v1 and storage.k8s.io/v1
 * that scheduling, disruption and the lifecycle controllers use (Pod, Node,
 * DaemonSet, PodDisruptionBudget, PersistentVolumeClaim, PersistentVolume,
 * StorageClass, CSINode, Namespace, VolumeAttachment). Karpenter's own kinds are in nodepool.h,
 * nodeclaim.h and kwok_nodeclass.h; decoding and encoding in codec.h.
 *
 * Conventions (they hold for every object header):
 *
 * - Size-tagged structs. Every object and every sub-struct that may grow
 *   starts with `uint32_t struct_size` and has an `_INIT` macro. Such a
 *   struct is reached through a pointer, never embedded: a struct inside a
 *   struct is a pointer member, where NULL means "absent" (which also models
 *   Go's optional pointers); lists of such structs are pointer arrays
 *   (`T **items; size_t n_items`). The library fills struct_size of what it
 *   builds. Once a struct has grown in a later release, a caller-built
 *   struct with the smaller struct_size of an older header is read as if
 *   its missing tail were zero; in 0.1 every struct is at its first size,
 *   and a smaller struct_size is refused with KP_EVERSION.
 * - Fixed-layout value types (kp_label, kp_taint, kp_toleration,
 *   kp_resource, kp_label_selector_requirement, kp_int_or_string,
 *   kp_api_duration) and strings are held in contiguous arrays or inline.
 * - Presence. A NULL string, struct pointer or list pointer is absent; ""
 *   is a present empty string. A list or map whose pointer is non-NULL with
 *   a count of zero is present and empty (Go's empty non-nil slice or map;
 *   `labels: {}` and no labels hash differently upstream). Decoding keeps
 *   this distinction and encoding writes present-but-empty lists as [] or {}.
 *   JSON null reads as absent.
 * - Optional scalars (Go's *int32, *int64, *bool) have a `has_x` flag
 *   beside the value; plain Go scalars are 0 when absent.
 * - Timestamps are int64 Unix milliseconds (0 = unset); sub-millisecond
 *   digits are dropped.
 * - Durations are kp_api_duration: the text as written plus its parsed
 *   value (duration.h).
 * - Enum-valued strings (operators, phases, policies) are kept as the text
 *   the user wrote, so that an unsupported value survives decoding for
 *   validation to report; where useful a parsed uint32 code sits beside it
 *   (0 when absent or not a known value). Fixed value types from other
 *   headers hold only the parsed code (kp_taint::effect, kp_toleration::op,
 *   kp_label_selector_requirement::op); decoding rejects an unknown value
 *   there with the API server's "Unsupported value" message.
 * - Ownership. An object built by the library (a decode result, a copy) owns
 *   everything it points to and is released by its kp_<kind>_free (or
 *   kp_object_free). An object built by the caller is only ever read by the
 *   library; never pass one to a _free function.
 * - Top-level kinds share a common head: struct_size, kind (a kp_kind),
 *   api_version, metadata.
 *
 * Only the fields listed are modelled; decoding ignores other fields of
 * core kinds (see codec.h for Karpenter kinds).
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef KARPENTER_OBJECTS_H
#define KARPENTER_OBJECTS_H

#include <karpenter/common.h>
#include <karpenter/labels.h>
#include <karpenter/quantity.h>
#include <karpenter/resources.h>
#include <karpenter/taints.h>
#include <karpenter/requirements.h>

KP_BEGIN_DECLS

/**
 * @brief The kinds the library models. Values are never renumbered.
 * @since 0.1
 */
enum kp_kind {
	KP_KIND_UNKNOWN = 0,         /**< not modelled (decode reports it as skipped) */
	KP_KIND_NODEPOOL = 1,        /**< karpenter.sh/v1 NodePool (nodepool.h) */
	KP_KIND_NODECLAIM = 2,       /**< karpenter.sh/v1 NodeClaim (nodeclaim.h) */
	/* 3 is reserved: KWOKNodeClass, now registered by libkarpenter-kwok
	 * (kp_kwok_register) on a kp_registry (karpenter/sys/schema.h) */
	KP_KIND_POD = 4,             /**< v1 Pod */
	KP_KIND_NODE = 5,            /**< v1 Node */
	KP_KIND_DAEMONSET = 6,       /**< apps/v1 DaemonSet */
	KP_KIND_PDB = 7,             /**< policy/v1 PodDisruptionBudget */
	KP_KIND_PVC = 8,             /**< v1 PersistentVolumeClaim */
	KP_KIND_PV = 9,              /**< v1 PersistentVolume */
	KP_KIND_STORAGE_CLASS = 10,  /**< storage.k8s.io/v1 StorageClass */
	KP_KIND_CSI_NODE = 11,       /**< storage.k8s.io/v1 CSINode */
	KP_KIND_NAMESPACE = 12,      /**< v1 Namespace (metadata only) */
	KP_KIND_VOLUME_ATTACHMENT = 13 /**< storage.k8s.io/v1 VolumeAttachment */
};

/**
 * @brief Kind name of a kp_kind ("NodePool", "Pod", ...).
 * @param[in] kind a kp_kind value
 * @return static text; "" for KP_KIND_UNKNOWN or an unknown value, never NULL
 * @since 0.1
 * Thread-safety: safe.
 */
const char *kp_kind_name(uint32_t kind);

/**
 * @brief The apiVersion the library reads and writes for a kind
 *        ("karpenter.sh/v1", "v1", "apps/v1", ...).
 * @param[in] kind a kp_kind value
 * @return static text; "" for an unknown value, never NULL
 * @since 0.1
 * Thread-safety: safe.
 */
const char *kp_kind_api_version(uint32_t kind);

/**
 * @brief Whether objects of a kind live in a namespace (Pod, DaemonSet,
 *        PodDisruptionBudget, PersistentVolumeClaim) or are cluster-scoped
 *        (Karpenter's kinds, Node, PersistentVolume, StorageClass, CSINode,
 *        Namespace, VolumeAttachment, and every kind a provider registers:
 *        node classes are cluster-scoped).
 * An object is identified by kind, namespace and name: a namespaced object
 * written without a namespace is in "default" (as kubectl and the API
 * server place it), and a namespace written on a cluster-scoped one is not
 * part of its identity. The builder and kubectl-karpenter apply this rule.
 * @param[in] kind a kp_kind value or a registered kind's id
 * @return 1 for a namespaced kind, 0 otherwise
 * @since 0.1
 * Thread-safety: safe.
 */
int kp_kind_namespaced(uint32_t kind);

/**
 * @brief The kp_kind of an apiVersion/kind pair, as decoding classifies it.
 * @param[in] api_version e.g. "karpenter.sh/v1" (NULL reads as "")
 * @param[in] kind e.g. "NodePool" (NULL reads as "")
 * @return a kp_kind; KP_KIND_UNKNOWN for other kinds or other versions
 *         (e.g. karpenter.sh/v1beta1 NodePool)
 * @since 0.1
 * Thread-safety: safe.
 */
uint32_t kp_kind_lookup(const char *api_version, const char *kind);

/* ------------------------------------------------------------------------ */
/* Value types                                                              */

/** kp_int_or_string::type values. @since 0.1 */
enum kp_int_or_string_type {
	KP_INT_OR_STRING_UNSET = 0,  /**< absent */
	KP_INT_OR_STRING_INT = 1,    /**< int_value is set */
	KP_INT_OR_STRING_STRING = 2  /**< str_value is set (e.g. "50%") */
};

/**
 * @brief intstr.IntOrString (PDB minAvailable/maxUnavailable). Fixed layout.
 * @since 0.1
 */
typedef struct kp_int_or_string {
	uint32_t type;          /**< a kp_int_or_string_type */
	int32_t int_value;      /**< the integer, when type is INT */
	const char *str_value;  /**< the string, when type is STRING */
} kp_int_or_string;

/**
 * @brief A duration field of an API object: its text and its value.
 *
 * Fixed layout. States: absent (text NULL, parsed 0); parsed (parsed 1:
 * ns, or never for "Never" in a NillableDuration field); not a duration
 * (text set, parsed 0: kept for validation to report). A caller building an
 * object may leave text NULL and set parsed, ns and never; encoding then
 * writes kp_duration_format_nillable_ns of the value.
 * @since 0.1
 */
typedef struct kp_api_duration {
	const char *text;  /**< as written ("720h", "1h30m", "Never"); NULL when absent */
	int64_t ns;        /**< the duration in nanoseconds when parsed (0 for Never) */
	int32_t never;     /**< 1 for "Never" (NillableDuration fields only) */
	uint32_t parsed;   /**< 1 when ns/never hold the value */
} kp_api_duration;

/* ------------------------------------------------------------------------ */
/* metav1                                                                   */

/**
 * @brief metav1.OwnerReference.
 * @since 0.1
 */
typedef struct kp_owner_reference {
	uint32_t struct_size;              /**< sizeof(kp_owner_reference) */
	uint32_t controller;               /**< controller, when has_controller */
	uint32_t has_controller;           /**< 1 if controller is set */
	uint32_t block_owner_deletion;     /**< blockOwnerDeletion, when has_ */
	uint32_t has_block_owner_deletion; /**< 1 if blockOwnerDeletion is set */
	uint32_t reserved;                 /**< zero */
	const char *api_version;           /**< apiVersion */
	const char *kind;                  /**< kind */
	const char *name;                  /**< name */
	const char *uid;                   /**< uid */
} kp_owner_reference;

/** Static initializer for kp_owner_reference. @since 0.1 */
#define KP_OWNER_REFERENCE_INIT { sizeof(kp_owner_reference), 0, 0, 0, 0, 0, NULL, NULL, NULL, NULL }

/**
 * @brief metav1.ObjectMeta (the fields Karpenter reads).
 *
 * Decoding also accepts, without keeping them, the other ObjectMeta fields
 * (selfLink, managedFields).
 * @since 0.1
 */
typedef struct kp_object_meta {
	uint32_t struct_size;                       /**< sizeof(kp_object_meta) */
	uint32_t has_deletion_grace_period_seconds; /**< 1 if deletion_grace_period_seconds is set */
	const char *name;                           /**< name */
	const char *generate_name;                  /**< generateName */
	const char *namespace_;                     /**< namespace (C++ keyword, hence the underscore) */
	const char *uid;                            /**< uid */
	const char *resource_version;               /**< resourceVersion */
	int64_t generation;                         /**< generation, 0 when absent */
	int64_t creation_timestamp_ms;              /**< creationTimestamp, 0 when absent */
	int64_t deletion_timestamp_ms;              /**< deletionTimestamp, 0 when absent */
	int64_t deletion_grace_period_seconds;      /**< deletionGracePeriodSeconds */
	kp_labels labels;                           /**< labels */
	kp_labels annotations;                      /**< annotations */
	kp_owner_reference **owner_references;      /**< ownerReferences */
	size_t n_owner_references;                  /**< number of owner references */
	const char *const *finalizers;              /**< finalizers */
	size_t n_finalizers;                        /**< number of finalizers */
} kp_object_meta;

/** Static initializer for kp_object_meta. @since 0.1 */
#define KP_OBJECT_META_INIT { sizeof(kp_object_meta), 0, NULL, NULL, NULL, NULL, NULL, 0, 0, 0, 0, \
	KP_LABELS_INIT, KP_LABELS_INIT, NULL, 0, NULL, 0 }

/**
 * @brief A status condition: metav1.Condition (Karpenter's status.Condition),
 *        also used for NodeCondition and PodCondition.
 *
 * Each kind decodes the fields its Kubernetes type has: metav1.Condition
 * has observedGeneration; NodeCondition has lastHeartbeatTime; PodCondition
 * has lastProbeTime and observedGeneration.
 * @since 0.1
 */
typedef struct kp_condition {
	uint32_t struct_size;            /**< sizeof(kp_condition) */
	uint32_t reserved;               /**< zero */
	const char *type;                /**< type, e.g. "Ready" */
	const char *status;              /**< "True", "False" or "Unknown" as written */
	const char *reason;              /**< reason */
	const char *message;             /**< message */
	int64_t observed_generation;     /**< observedGeneration, 0 when absent */
	int64_t last_transition_time_ms; /**< lastTransitionTime, 0 when absent */
	int64_t last_heartbeat_time_ms;  /**< lastHeartbeatTime (NodeCondition) */
	int64_t last_probe_time_ms;      /**< lastProbeTime (PodCondition) */
} kp_condition;

/** Static initializer for kp_condition. @since 0.1 */
#define KP_CONDITION_INIT { sizeof(kp_condition), 0, NULL, NULL, NULL, NULL, 0, 0, 0, 0 }

/**
 * @brief The condition of a type in a status's conditions, as operatorpkg's
 *        ConditionSet.Get finds it: the first with that type.
 *
 * @param[in] conditions the conditions (NULL entries are skipped); may be
 *            NULL when @p n is 0
 * @param[in] n their number
 * @param[in] type the condition type, e.g. "Ready"
 * @return the condition, borrowed from @p conditions; NULL when none has
 *         the type (or @p type is NULL)
 * @since 0.1
 * Thread-safety: safe.
 */
const kp_condition *kp_condition_find(kp_condition *const *conditions, size_t n,
				      const char *type);

/* ------------------------------------------------------------------------ */
/* core/v1: shared pieces                                                   */

/**
 * @brief corev1.ResourceRequirements (requests and limits; claims are not
 *        modelled).
 * @since 0.1
 */
typedef struct kp_resource_requirements {
	uint32_t struct_size;      /**< sizeof(kp_resource_requirements) */
	uint32_t reserved;         /**< zero */
	kp_resource_list limits;   /**< limits */
	kp_resource_list requests; /**< requests */
} kp_resource_requirements;

/** Static initializer for kp_resource_requirements. @since 0.1 */
#define KP_RESOURCE_REQUIREMENTS_INIT { sizeof(kp_resource_requirements), 0, \
	KP_RESOURCE_LIST_INIT, KP_RESOURCE_LIST_INIT }

/**
 * @brief corev1.NodeSelectorTerm: ANDed requirements on labels and fields.
 *
 * The requirements use requirements.h's kp_node_selector_requirement (op
 * parsed; min_values is not part of this Kubernetes type and stays 0).
 * @since 0.1
 */
typedef struct kp_node_selector_term {
	uint32_t struct_size;                            /**< sizeof(kp_node_selector_term) */
	uint32_t reserved;                               /**< zero */
	kp_node_selector_requirement **match_expressions; /**< matchExpressions (labels) */
	size_t n_match_expressions;                      /**< number of matchExpressions */
	kp_node_selector_requirement **match_fields;      /**< matchFields (metadata.name) */
	size_t n_match_fields;                           /**< number of matchFields */
} kp_node_selector_term;

/** Static initializer for kp_node_selector_term. @since 0.1 */
#define KP_NODE_SELECTOR_TERM_INIT { sizeof(kp_node_selector_term), 0, NULL, 0, NULL, 0 }

/**
 * @brief corev1.NodeSelector: ORed terms.
 * @since 0.1
 */
typedef struct kp_node_selector {
	uint32_t struct_size;                  /**< sizeof(kp_node_selector) */
	uint32_t reserved;                     /**< zero */
	kp_node_selector_term **terms;         /**< nodeSelectorTerms */
	size_t n_terms;                        /**< number of terms */
} kp_node_selector;

/** Static initializer for kp_node_selector. @since 0.1 */
#define KP_NODE_SELECTOR_INIT { sizeof(kp_node_selector), 0, NULL, 0 }

/* ------------------------------------------------------------------------ */
/* Pod                                                                      */

/**
 * @brief corev1.ContainerPort.
 * @since 0.1
 */
typedef struct kp_container_port {
	uint32_t struct_size;    /**< sizeof(kp_container_port) */
	int32_t container_port;  /**< containerPort */
	int32_t host_port;       /**< hostPort, 0 when absent */
	uint32_t reserved;       /**< zero */
	const char *name;        /**< name */
	const char *protocol;    /**< protocol as written ("TCP", "UDP", "SCTP"); NULL = TCP */
	const char *host_ip;     /**< hostIP */
} kp_container_port;

/** Static initializer for kp_container_port. @since 0.1 */
#define KP_CONTAINER_PORT_INIT { sizeof(kp_container_port), 0, 0, 0, NULL, NULL, NULL }

/**
 * @brief corev1.Container (the fields scheduling reads).
 *
 * An init container with restart_policy "Always" is a sidecar (KEP-753).
 * @since 0.1
 */
typedef struct kp_container {
	uint32_t struct_size;                /**< sizeof(kp_container) */
	uint32_t reserved;                   /**< zero */
	const char *name;                    /**< name */
	const char *image;                   /**< image */
	const char *restart_policy;          /**< restartPolicy ("Always" marks a sidecar) */
	kp_resource_requirements *resources; /**< resources */
	kp_container_port **ports;           /**< ports */
	size_t n_ports;                      /**< number of ports */
} kp_container;

/** Static initializer for kp_container. @since 0.1 */
#define KP_CONTAINER_INIT { sizeof(kp_container), 0, NULL, NULL, NULL, NULL, NULL, 0 }

/**
 * @brief corev1.PreferredSchedulingTerm.
 * @since 0.1
 */
typedef struct kp_preferred_scheduling_term {
	uint32_t struct_size;              /**< sizeof(kp_preferred_scheduling_term) */
	int32_t weight;                    /**< weight (1-100) */
	kp_node_selector_term *preference; /**< preference */
} kp_preferred_scheduling_term;

/** Static initializer for kp_preferred_scheduling_term. @since 0.1 */
#define KP_PREFERRED_SCHEDULING_TERM_INIT { sizeof(kp_preferred_scheduling_term), 0, NULL }

/**
 * @brief corev1.NodeAffinity.
 * @since 0.1
 */
typedef struct kp_node_affinity {
	uint32_t struct_size;                     /**< sizeof(kp_node_affinity) */
	uint32_t reserved;                        /**< zero */
	kp_node_selector *required;               /**< requiredDuringSchedulingIgnoredDuringExecution */
	kp_preferred_scheduling_term **preferred; /**< preferredDuringSchedulingIgnoredDuringExecution */
	size_t n_preferred;                       /**< number of preferred terms */
} kp_node_affinity;

/** Static initializer for kp_node_affinity. @since 0.1 */
#define KP_NODE_AFFINITY_INIT { sizeof(kp_node_affinity), 0, NULL, NULL, 0 }

/**
 * @brief corev1.PodAffinityTerm.
 *
 * A NULL label_selector matches no pods; an empty one matches all.
 * @since 0.1
 */
typedef struct kp_pod_affinity_term {
	uint32_t struct_size;                  /**< sizeof(kp_pod_affinity_term) */
	uint32_t reserved;                     /**< zero */
	kp_label_selector *label_selector;     /**< labelSelector */
	const char *const *namespaces;         /**< namespaces */
	size_t n_namespaces;                   /**< number of namespaces */
	kp_label_selector *namespace_selector; /**< namespaceSelector */
	const char *topology_key;              /**< topologyKey */
	const char *const *match_label_keys;   /**< matchLabelKeys */
	size_t n_match_label_keys;             /**< number of matchLabelKeys */
	const char *const *mismatch_label_keys; /**< mismatchLabelKeys */
	size_t n_mismatch_label_keys;          /**< number of mismatchLabelKeys */
} kp_pod_affinity_term;

/** Static initializer for kp_pod_affinity_term. @since 0.1 */
#define KP_POD_AFFINITY_TERM_INIT { sizeof(kp_pod_affinity_term), 0, NULL, NULL, 0, NULL, NULL, \
	NULL, 0, NULL, 0 }

/**
 * @brief corev1.WeightedPodAffinityTerm.
 * @since 0.1
 */
typedef struct kp_weighted_pod_affinity_term {
	uint32_t struct_size;       /**< sizeof(kp_weighted_pod_affinity_term) */
	int32_t weight;             /**< weight (1-100) */
	kp_pod_affinity_term *term; /**< podAffinityTerm */
} kp_weighted_pod_affinity_term;

/** Static initializer for kp_weighted_pod_affinity_term. @since 0.1 */
#define KP_WEIGHTED_POD_AFFINITY_TERM_INIT { sizeof(kp_weighted_pod_affinity_term), 0, NULL }

/**
 * @brief corev1.PodAffinity or corev1.PodAntiAffinity (same shape).
 * @since 0.1
 */
typedef struct kp_pod_affinity {
	uint32_t struct_size;                      /**< sizeof(kp_pod_affinity) */
	uint32_t reserved;                         /**< zero */
	kp_pod_affinity_term **required;           /**< requiredDuringSchedulingIgnoredDuringExecution */
	size_t n_required;                         /**< number of required terms */
	kp_weighted_pod_affinity_term **preferred; /**< preferredDuringSchedulingIgnoredDuringExecution */
	size_t n_preferred;                        /**< number of preferred terms */
} kp_pod_affinity;

/** Static initializer for kp_pod_affinity. @since 0.1 */
#define KP_POD_AFFINITY_INIT { sizeof(kp_pod_affinity), 0, NULL, 0, NULL, 0 }

/**
 * @brief corev1.Affinity.
 * @since 0.1
 */
typedef struct kp_affinity {
	uint32_t struct_size;               /**< sizeof(kp_affinity) */
	uint32_t reserved;                  /**< zero */
	kp_node_affinity *node_affinity;    /**< nodeAffinity */
	kp_pod_affinity *pod_affinity;      /**< podAffinity */
	kp_pod_affinity *pod_anti_affinity; /**< podAntiAffinity */
} kp_affinity;

/** Static initializer for kp_affinity. @since 0.1 */
#define KP_AFFINITY_INIT { sizeof(kp_affinity), 0, NULL, NULL, NULL }

/** corev1.UnsatisfiableConstraintAction. @since 0.1 */
enum kp_when_unsatisfiable {
	KP_WHEN_UNSATISFIABLE_UNSET = 0,           /**< absent or not a known value */
	KP_WHEN_UNSATISFIABLE_DO_NOT_SCHEDULE = 1, /**< "DoNotSchedule" */
	KP_WHEN_UNSATISFIABLE_SCHEDULE_ANYWAY = 2  /**< "ScheduleAnyway" */
};

/** corev1.NodeInclusionPolicy. @since 0.1 */
enum kp_node_inclusion_policy {
	KP_NODE_INCLUSION_POLICY_UNSET = 0,  /**< absent or not a known value */
	KP_NODE_INCLUSION_POLICY_HONOR = 1,  /**< "Honor" */
	KP_NODE_INCLUSION_POLICY_IGNORE = 2  /**< "Ignore" */
};

/**
 * @brief corev1.TopologySpreadConstraint.
 * @since 0.1
 */
typedef struct kp_topology_spread_constraint {
	uint32_t struct_size;                /**< sizeof(kp_topology_spread_constraint) */
	int32_t max_skew;                    /**< maxSkew */
	uint32_t when_unsatisfiable_code;    /**< a kp_when_unsatisfiable */
	uint32_t has_min_domains;            /**< 1 if min_domains is set */
	int32_t min_domains;                 /**< minDomains */
	uint32_t node_affinity_policy_code;  /**< a kp_node_inclusion_policy */
	uint32_t node_taints_policy_code;    /**< a kp_node_inclusion_policy */
	uint32_t reserved;                   /**< zero */
	const char *topology_key;            /**< topologyKey */
	const char *when_unsatisfiable;      /**< whenUnsatisfiable as written */
	kp_label_selector *label_selector;   /**< labelSelector */
	const char *node_affinity_policy;    /**< nodeAffinityPolicy as written */
	const char *node_taints_policy;      /**< nodeTaintsPolicy as written */
	const char *const *match_label_keys; /**< matchLabelKeys */
	size_t n_match_label_keys;           /**< number of matchLabelKeys */
} kp_topology_spread_constraint;

/** Static initializer for kp_topology_spread_constraint. @since 0.1 */
#define KP_TOPOLOGY_SPREAD_CONSTRAINT_INIT { sizeof(kp_topology_spread_constraint), 0, 0, 0, 0, 0, \
	0, 0, NULL, NULL, NULL, NULL, NULL, NULL, 0 }

/** Which volume source a kp_volume holds. @since 0.1 */
enum kp_volume_source {
	KP_VOLUME_SOURCE_NONE = 0,                    /**< none given */
	KP_VOLUME_SOURCE_PERSISTENT_VOLUME_CLAIM = 1, /**< persistentVolumeClaim */
	KP_VOLUME_SOURCE_EPHEMERAL = 2,               /**< ephemeral */
	KP_VOLUME_SOURCE_CSI = 3,                     /**< csi (inline CSI volume) */
	KP_VOLUME_SOURCE_EMPTY_DIR = 4,               /**< emptyDir */
	KP_VOLUME_SOURCE_HOST_PATH = 5,               /**< hostPath */
	KP_VOLUME_SOURCE_CONFIG_MAP = 6,              /**< configMap */
	KP_VOLUME_SOURCE_SECRET = 7,                  /**< secret */
	KP_VOLUME_SOURCE_PROJECTED = 8,               /**< projected */
	KP_VOLUME_SOURCE_DOWNWARD_API = 9,            /**< downwardAPI */
	KP_VOLUME_SOURCE_NFS = 10,                    /**< nfs */
	KP_VOLUME_SOURCE_AWS_ELASTIC_BLOCK_STORE = 11, /**< awsElasticBlockStore */
	KP_VOLUME_SOURCE_GCE_PERSISTENT_DISK = 12,    /**< gcePersistentDisk */
	KP_VOLUME_SOURCE_AZURE_DISK = 13,             /**< azureDisk */
	KP_VOLUME_SOURCE_IMAGE = 14,                  /**< image */
	KP_VOLUME_SOURCE_OTHER = 15                   /**< another in-tree source (kept as a tag) */
};

/**
 * @brief corev1.PersistentVolumeClaimVolumeSource.
 * @since 0.1
 */
typedef struct kp_pvc_volume_source {
	uint32_t struct_size;   /**< sizeof(kp_pvc_volume_source) */
	uint32_t read_only;     /**< readOnly */
	const char *claim_name; /**< claimName */
} kp_pvc_volume_source;

/** Static initializer for kp_pvc_volume_source. @since 0.1 */
#define KP_PVC_VOLUME_SOURCE_INIT { sizeof(kp_pvc_volume_source), 0, NULL }

struct kp_pvc_spec;

/**
 * @brief corev1.PersistentVolumeClaimTemplate of an ephemeral volume.
 * @since 0.1
 */
typedef struct kp_pvc_template {
	uint32_t struct_size;       /**< sizeof(kp_pvc_template) */
	uint32_t reserved;          /**< zero */
	kp_object_meta *metadata;   /**< metadata */
	struct kp_pvc_spec *spec;   /**< spec */
} kp_pvc_template;

/** Static initializer for kp_pvc_template. @since 0.1 */
#define KP_PVC_TEMPLATE_INIT { sizeof(kp_pvc_template), 0, NULL, NULL }

/**
 * @brief corev1.EphemeralVolumeSource.
 * @since 0.1
 */
typedef struct kp_ephemeral_volume_source {
	uint32_t struct_size;                 /**< sizeof(kp_ephemeral_volume_source) */
	uint32_t reserved;                    /**< zero */
	kp_pvc_template *volume_claim_template; /**< volumeClaimTemplate */
} kp_ephemeral_volume_source;

/** Static initializer for kp_ephemeral_volume_source. @since 0.1 */
#define KP_EPHEMERAL_VOLUME_SOURCE_INIT { sizeof(kp_ephemeral_volume_source), 0, NULL }

/**
 * @brief corev1.CSIVolumeSource (inline CSI volume) and the CSI part of a
 *        PersistentVolume (driver and volumeHandle).
 * @since 0.1
 */
typedef struct kp_csi_volume_source {
	uint32_t struct_size;      /**< sizeof(kp_csi_volume_source) */
	uint32_t read_only;        /**< readOnly */
	const char *driver;        /**< driver */
	const char *volume_handle; /**< volumeHandle (PersistentVolume only) */
	const char *fs_type;       /**< fsType */
} kp_csi_volume_source;

/** Static initializer for kp_csi_volume_source. @since 0.1 */
#define KP_CSI_VOLUME_SOURCE_INIT { sizeof(kp_csi_volume_source), 0, NULL, NULL, NULL }

/**
 * @brief corev1.Volume: its name and its source.
 *
 * persistentVolumeClaim, ephemeral and csi are modelled; every other source
 * is recorded only in @ref source (encoding writes it back as an empty
 * object, e.g. `emptyDir: {}`; KP_VOLUME_SOURCE_OTHER, which stands for
 * several rarely used in-tree sources, is kept as written in
 * @ref other_source and written back from it under its own key).
 * @since 0.1
 */
typedef struct kp_volume {
	uint32_t struct_size;                          /**< sizeof(kp_volume) */
	uint32_t source;                               /**< a kp_volume_source */
	const char *name;                              /**< name */
	kp_pvc_volume_source *persistent_volume_claim; /**< persistentVolumeClaim */
	kp_ephemeral_volume_source *ephemeral;         /**< ephemeral */
	kp_csi_volume_source *csi;                     /**< csi */
	/** a KP_VOLUME_SOURCE_OTHER source (iscsi, rbd, ...) as written: a JSON
	 *  object of its one member, e.g. {"iscsi":{"lun":0,...}} (compact, keys
	 *  sorted), so that it is encoded back under its own key; NULL when
	 *  unknown (then no source is encoded) @since 0.1 */
	const char *other_source;
} kp_volume;

/** Static initializer for kp_volume. @since 0.1 */
#define KP_VOLUME_INIT { sizeof(kp_volume), 0, NULL, NULL, NULL, NULL, NULL }

/**
 * @brief corev1.PodSpec (the fields scheduling and disruption read).
 * @since 0.1
 */
typedef struct kp_pod_spec {
	uint32_t struct_size;                        /**< sizeof(kp_pod_spec) */
	uint32_t has_priority;                       /**< 1 if priority is set */
	int32_t priority;                            /**< priority */
	uint32_t has_termination_grace_period_seconds; /**< 1 if termination_grace_period_seconds is set */
	int64_t termination_grace_period_seconds;    /**< terminationGracePeriodSeconds */
	const char *node_name;                       /**< nodeName */
	const char *scheduler_name;                  /**< schedulerName */
	const char *priority_class_name;             /**< priorityClassName */
	const char *preemption_policy;               /**< preemptionPolicy */
	const char *restart_policy;                  /**< restartPolicy */
	const char *service_account_name;            /**< serviceAccountName */
	kp_labels node_selector;                     /**< nodeSelector */
	kp_affinity *affinity;                       /**< affinity */
	kp_toleration *tolerations;                  /**< tolerations */
	size_t n_tolerations;                        /**< number of tolerations */
	kp_topology_spread_constraint **topology_spread_constraints; /**< topologySpreadConstraints */
	size_t n_topology_spread_constraints;        /**< number of constraints */
	kp_container **init_containers;              /**< initContainers, in order */
	size_t n_init_containers;                    /**< number of init containers */
	kp_container **containers;                   /**< containers */
	size_t n_containers;                         /**< number of containers */
	kp_resource_list overhead;                   /**< overhead */
	kp_resource_requirements *resources;         /**< resources (pod-level, KEP-2837) */
	kp_volume **volumes;                         /**< volumes */
	size_t n_volumes;                            /**< number of volumes */
} kp_pod_spec;

/** Static initializer for kp_pod_spec. @since 0.1 */
#define KP_POD_SPEC_INIT { sizeof(kp_pod_spec), 0, 0, 0, 0, NULL, NULL, NULL, NULL, NULL, NULL, \
	KP_LABELS_INIT, NULL, NULL, 0, NULL, 0, NULL, 0, NULL, 0, KP_RESOURCE_LIST_INIT, NULL, NULL, 0 }

/** corev1.PodPhase. @since 0.1 */
enum kp_pod_phase {
	KP_POD_PHASE_UNSET = 0,     /**< absent or not a known value */
	KP_POD_PHASE_PENDING = 1,   /**< "Pending" */
	KP_POD_PHASE_RUNNING = 2,   /**< "Running" */
	KP_POD_PHASE_SUCCEEDED = 3, /**< "Succeeded" */
	KP_POD_PHASE_FAILED = 4,    /**< "Failed" */
	KP_POD_PHASE_UNKNOWN = 5    /**< "Unknown" */
};

/**
 * @brief corev1.ContainerStatus (the resource fields of in-place resize).
 * @since 0.1
 */
typedef struct kp_container_status {
	uint32_t struct_size;                /**< sizeof(kp_container_status) */
	uint32_t reserved;                   /**< zero */
	const char *name;                    /**< name */
	kp_resource_list allocated_resources; /**< allocatedResources */
	kp_resource_requirements *resources; /**< resources (actuated) */
} kp_container_status;

/** Static initializer for kp_container_status. @since 0.1 */
#define KP_CONTAINER_STATUS_INIT { sizeof(kp_container_status), 0, NULL, KP_RESOURCE_LIST_INIT, NULL }

/**
 * @brief corev1.PodStatus (the fields Karpenter reads).
 * @since 0.1
 */
typedef struct kp_pod_status {
	uint32_t struct_size;                    /**< sizeof(kp_pod_status) */
	uint32_t phase_code;                     /**< a kp_pod_phase */
	const char *phase;                       /**< phase as written */
	const char *reason;                      /**< reason (e.g. "Evicted") */
	const char *nominated_node_name;         /**< nominatedNodeName */
	int64_t start_time_ms;                   /**< startTime, 0 when absent */
	kp_condition **conditions;               /**< conditions (PodCondition) */
	size_t n_conditions;                     /**< number of conditions */
	kp_container_status **init_container_statuses; /**< initContainerStatuses */
	size_t n_init_container_statuses;        /**< number of init container statuses */
	kp_container_status **container_statuses; /**< containerStatuses */
	size_t n_container_statuses;             /**< number of container statuses */
} kp_pod_status;

/** Static initializer for kp_pod_status. @since 0.1 */
#define KP_POD_STATUS_INIT { sizeof(kp_pod_status), 0, NULL, NULL, NULL, 0, NULL, 0, NULL, 0, NULL, 0 }

/**
 * @brief v1 Pod.
 * @since 0.1
 */
typedef struct kp_pod {
	uint32_t struct_size;     /**< sizeof(kp_pod) */
	uint32_t kind;            /**< KP_KIND_POD */
	const char *api_version;  /**< apiVersion as written; NULL = "v1" */
	kp_object_meta *metadata; /**< metadata (owner references included) */
	kp_pod_spec *spec;        /**< spec */
	kp_pod_status *status;    /**< status */
} kp_pod;

/** Static initializer for kp_pod. @since 0.1 */
#define KP_POD_INIT { sizeof(kp_pod), KP_KIND_POD, NULL, NULL, NULL, NULL }

/* ------------------------------------------------------------------------ */
/* Node                                                                     */

/**
 * @brief corev1.NodeSpec.
 * @since 0.1
 */
typedef struct kp_node_spec {
	uint32_t struct_size;    /**< sizeof(kp_node_spec) */
	uint32_t unschedulable;  /**< unschedulable (cordoned) */
	const char *provider_id; /**< providerID */
	kp_taint *taints;        /**< taints */
	size_t n_taints;         /**< number of taints */
} kp_node_spec;

/** Static initializer for kp_node_spec. @since 0.1 */
#define KP_NODE_SPEC_INIT { sizeof(kp_node_spec), 0, NULL, NULL, 0 }

/**
 * @brief corev1.NodeStatus (capacity, allocatable, conditions).
 * @since 0.1
 */
typedef struct kp_node_status {
	uint32_t struct_size;         /**< sizeof(kp_node_status) */
	uint32_t reserved;            /**< zero */
	kp_resource_list capacity;    /**< capacity */
	kp_resource_list allocatable; /**< allocatable */
	kp_condition **conditions;    /**< conditions (NodeCondition) */
	size_t n_conditions;          /**< number of conditions */
} kp_node_status;

/** Static initializer for kp_node_status. @since 0.1 */
#define KP_NODE_STATUS_INIT { sizeof(kp_node_status), 0, KP_RESOURCE_LIST_INIT, \
	KP_RESOURCE_LIST_INIT, NULL, 0 }

/**
 * @brief v1 Node.
 * @since 0.1
 */
typedef struct kp_node {
	uint32_t struct_size;     /**< sizeof(kp_node) */
	uint32_t kind;            /**< KP_KIND_NODE */
	const char *api_version;  /**< apiVersion as written; NULL = "v1" */
	kp_object_meta *metadata; /**< metadata (labels) */
	kp_node_spec *spec;       /**< spec */
	kp_node_status *status;   /**< status */
} kp_node;

/** Static initializer for kp_node. @since 0.1 */
#define KP_NODE_INIT { sizeof(kp_node), KP_KIND_NODE, NULL, NULL, NULL, NULL }

/* ------------------------------------------------------------------------ */
/* DaemonSet                                                                */

/**
 * @brief corev1.PodTemplateSpec.
 * @since 0.1
 */
typedef struct kp_pod_template {
	uint32_t struct_size;     /**< sizeof(kp_pod_template) */
	uint32_t reserved;        /**< zero */
	kp_object_meta *metadata; /**< metadata */
	kp_pod_spec *spec;        /**< spec */
} kp_pod_template;

/** Static initializer for kp_pod_template. @since 0.1 */
#define KP_POD_TEMPLATE_INIT { sizeof(kp_pod_template), 0, NULL, NULL }

/**
 * @brief appsv1.DaemonSetSpec (selector and pod template).
 * @since 0.1
 */
typedef struct kp_daemonset_spec {
	uint32_t struct_size;        /**< sizeof(kp_daemonset_spec) */
	uint32_t reserved;           /**< zero */
	kp_label_selector *selector; /**< selector */
	kp_pod_template *template_;  /**< template (C++ keyword, hence the underscore) */
} kp_daemonset_spec;

/** Static initializer for kp_daemonset_spec. @since 0.1 */
#define KP_DAEMONSET_SPEC_INIT { sizeof(kp_daemonset_spec), 0, NULL, NULL }

/**
 * @brief apps/v1 DaemonSet.
 * @since 0.1
 */
typedef struct kp_daemonset {
	uint32_t struct_size;     /**< sizeof(kp_daemonset) */
	uint32_t kind;            /**< KP_KIND_DAEMONSET */
	const char *api_version;  /**< apiVersion as written; NULL = "apps/v1" */
	kp_object_meta *metadata; /**< metadata */
	kp_daemonset_spec *spec;  /**< spec */
} kp_daemonset;

/** Static initializer for kp_daemonset. @since 0.1 */
#define KP_DAEMONSET_INIT { sizeof(kp_daemonset), KP_KIND_DAEMONSET, NULL, NULL, NULL }

/* ------------------------------------------------------------------------ */
/* PodDisruptionBudget                                                      */

/** policyv1.UnhealthyPodEvictionPolicyType. @since 0.1 */
enum kp_unhealthy_pod_eviction_policy {
	KP_UNHEALTHY_POD_EVICTION_POLICY_UNSET = 0,           /**< absent or unknown */
	KP_UNHEALTHY_POD_EVICTION_POLICY_IF_HEALTHY_BUDGET = 1, /**< "IfHealthyBudget" */
	KP_UNHEALTHY_POD_EVICTION_POLICY_ALWAYS_ALLOW = 2     /**< "AlwaysAllow" */
};

/**
 * @brief policyv1.PodDisruptionBudgetSpec.
 * @since 0.1
 */
typedef struct kp_pdb_spec {
	uint32_t struct_size;                 /**< sizeof(kp_pdb_spec) */
	uint32_t unhealthy_pod_eviction_policy_code; /**< a kp_unhealthy_pod_eviction_policy */
	kp_int_or_string min_available;       /**< minAvailable */
	kp_int_or_string max_unavailable;     /**< maxUnavailable */
	kp_label_selector *selector;          /**< selector (NULL selects nothing) */
	const char *unhealthy_pod_eviction_policy; /**< unhealthyPodEvictionPolicy as written */
} kp_pdb_spec;

/** Static initializer for kp_pdb_spec. @since 0.1 */
#define KP_PDB_SPEC_INIT { sizeof(kp_pdb_spec), 0, { 0, 0, NULL }, { 0, 0, NULL }, NULL, NULL }

/**
 * @brief policyv1.PodDisruptionBudgetStatus.
 * @since 0.1
 */
typedef struct kp_pdb_status {
	uint32_t struct_size;        /**< sizeof(kp_pdb_status) */
	int32_t disruptions_allowed; /**< disruptionsAllowed */
	int32_t current_healthy;     /**< currentHealthy */
	int32_t desired_healthy;     /**< desiredHealthy */
	int32_t expected_pods;       /**< expectedPods */
	uint32_t reserved;           /**< zero */
	int64_t observed_generation; /**< observedGeneration */
	kp_condition **conditions;   /**< conditions */
	size_t n_conditions;         /**< number of conditions */
} kp_pdb_status;

/** Static initializer for kp_pdb_status. @since 0.1 */
#define KP_PDB_STATUS_INIT { sizeof(kp_pdb_status), 0, 0, 0, 0, 0, 0, NULL, 0 }

/**
 * @brief policy/v1 PodDisruptionBudget.
 * @since 0.1
 */
typedef struct kp_pdb {
	uint32_t struct_size;     /**< sizeof(kp_pdb) */
	uint32_t kind;            /**< KP_KIND_PDB */
	const char *api_version;  /**< apiVersion as written; NULL = "policy/v1" */
	kp_object_meta *metadata; /**< metadata */
	kp_pdb_spec *spec;        /**< spec */
	kp_pdb_status *status;    /**< status */
} kp_pdb;

/** Static initializer for kp_pdb. @since 0.1 */
#define KP_PDB_INIT { sizeof(kp_pdb), KP_KIND_PDB, NULL, NULL, NULL, NULL }

/* ------------------------------------------------------------------------ */
/* PersistentVolumeClaim, PersistentVolume                                   */

/**
 * @brief corev1.PersistentVolumeClaimSpec.
 *
 * A NULL storage_class_name means the default class; "" means no class.
 * @since 0.1
 */
typedef struct kp_pvc_spec {
	uint32_t struct_size;                /**< sizeof(kp_pvc_spec) */
	uint32_t reserved;                   /**< zero */
	const char *storage_class_name;      /**< storageClassName */
	const char *volume_name;             /**< volumeName */
	const char *volume_mode;             /**< volumeMode */
	const char *const *access_modes;     /**< accessModes */
	size_t n_access_modes;               /**< number of access modes */
	kp_resource_requirements *resources; /**< resources (requests) */
	kp_label_selector *selector;         /**< selector */
} kp_pvc_spec;

/** Static initializer for kp_pvc_spec. @since 0.1 */
#define KP_PVC_SPEC_INIT { sizeof(kp_pvc_spec), 0, NULL, NULL, NULL, NULL, 0, NULL, NULL }

/** corev1.PersistentVolumeClaimPhase / PersistentVolumePhase. @since 0.1 */
enum kp_volume_phase {
	KP_VOLUME_PHASE_UNSET = 0,     /**< absent or not a known value */
	KP_VOLUME_PHASE_PENDING = 1,   /**< "Pending" */
	KP_VOLUME_PHASE_BOUND = 2,     /**< "Bound" */
	KP_VOLUME_PHASE_LOST = 3,      /**< "Lost" (claims) */
	KP_VOLUME_PHASE_AVAILABLE = 4, /**< "Available" (volumes) */
	KP_VOLUME_PHASE_RELEASED = 5,  /**< "Released" (volumes) */
	KP_VOLUME_PHASE_FAILED = 6     /**< "Failed" (volumes) */
};

/**
 * @brief corev1.PersistentVolumeClaimStatus.
 * @since 0.1
 */
typedef struct kp_pvc_status {
	uint32_t struct_size;            /**< sizeof(kp_pvc_status) */
	uint32_t phase_code;             /**< a kp_volume_phase */
	const char *phase;               /**< phase as written */
	const char *const *access_modes; /**< accessModes */
	size_t n_access_modes;           /**< number of access modes */
	kp_resource_list capacity;       /**< capacity */
} kp_pvc_status;

/** Static initializer for kp_pvc_status. @since 0.1 */
#define KP_PVC_STATUS_INIT { sizeof(kp_pvc_status), 0, NULL, NULL, 0, KP_RESOURCE_LIST_INIT }

/**
 * @brief v1 PersistentVolumeClaim.
 * @since 0.1
 */
typedef struct kp_pvc {
	uint32_t struct_size;     /**< sizeof(kp_pvc) */
	uint32_t kind;            /**< KP_KIND_PVC */
	const char *api_version;  /**< apiVersion as written; NULL = "v1" */
	kp_object_meta *metadata; /**< metadata */
	kp_pvc_spec *spec;        /**< spec */
	kp_pvc_status *status;    /**< status */
} kp_pvc;

/** Static initializer for kp_pvc. @since 0.1 */
#define KP_PVC_INIT { sizeof(kp_pvc), KP_KIND_PVC, NULL, NULL, NULL, NULL }

/**
 * @brief corev1.ObjectReference (a PersistentVolume's claimRef).
 * @since 0.1
 */
typedef struct kp_object_reference {
	uint32_t struct_size;         /**< sizeof(kp_object_reference) */
	uint32_t reserved;            /**< zero */
	const char *api_version;      /**< apiVersion */
	const char *kind;             /**< kind */
	const char *namespace_;       /**< namespace */
	const char *name;             /**< name */
	const char *uid;              /**< uid */
	const char *resource_version; /**< resourceVersion */
} kp_object_reference;

/** Static initializer for kp_object_reference. @since 0.1 */
#define KP_OBJECT_REFERENCE_INIT { sizeof(kp_object_reference), 0, NULL, NULL, NULL, NULL, NULL, NULL }

/**
 * @brief corev1.VolumeNodeAffinity.
 * @since 0.1
 */
typedef struct kp_volume_node_affinity {
	uint32_t struct_size;       /**< sizeof(kp_volume_node_affinity) */
	uint32_t reserved;          /**< zero */
	kp_node_selector *required; /**< required */
} kp_volume_node_affinity;

/** Static initializer for kp_volume_node_affinity. @since 0.1 */
#define KP_VOLUME_NODE_AFFINITY_INIT { sizeof(kp_volume_node_affinity), 0, NULL }

/**
 * @brief corev1.PersistentVolumeSpec (the fields volume topology reads).
 *
 * Only the csi source is modelled; other sources are recorded in
 * @ref source (a kp_volume_source).
 * @since 0.1
 */
typedef struct kp_pv_spec {
	uint32_t struct_size;                   /**< sizeof(kp_pv_spec) */
	uint32_t source;                        /**< a kp_volume_source */
	const char *storage_class_name;         /**< storageClassName */
	const char *persistent_volume_reclaim_policy; /**< persistentVolumeReclaimPolicy */
	const char *volume_mode;                /**< volumeMode */
	kp_resource_list capacity;              /**< capacity */
	const char *const *access_modes;        /**< accessModes */
	size_t n_access_modes;                  /**< number of access modes */
	kp_object_reference *claim_ref;         /**< claimRef */
	kp_volume_node_affinity *node_affinity; /**< nodeAffinity */
	kp_csi_volume_source *csi;              /**< csi */
	/** a KP_VOLUME_SOURCE_OTHER source as written (as kp_volume::other_source)
	 *  @since 0.1 */
	const char *other_source;
} kp_pv_spec;

/** Static initializer for kp_pv_spec. @since 0.1 */
#define KP_PV_SPEC_INIT { sizeof(kp_pv_spec), 0, NULL, NULL, NULL, KP_RESOURCE_LIST_INIT, NULL, 0, \
	NULL, NULL, NULL, NULL }

/**
 * @brief corev1.PersistentVolumeStatus.
 * @since 0.1
 */
typedef struct kp_pv_status {
	uint32_t struct_size; /**< sizeof(kp_pv_status) */
	uint32_t phase_code;  /**< a kp_volume_phase */
	const char *phase;    /**< phase as written */
} kp_pv_status;

/** Static initializer for kp_pv_status. @since 0.1 */
#define KP_PV_STATUS_INIT { sizeof(kp_pv_status), 0, NULL }

/**
 * @brief v1 PersistentVolume.
 * @since 0.1
 */
typedef struct kp_pv {
	uint32_t struct_size;     /**< sizeof(kp_pv) */
	uint32_t kind;            /**< KP_KIND_PV */
	const char *api_version;  /**< apiVersion as written; NULL = "v1" */
	kp_object_meta *metadata; /**< metadata */
	kp_pv_spec *spec;         /**< spec */
	kp_pv_status *status;     /**< status */
} kp_pv;

/** Static initializer for kp_pv. @since 0.1 */
#define KP_PV_INIT { sizeof(kp_pv), KP_KIND_PV, NULL, NULL, NULL, NULL }

/* ------------------------------------------------------------------------ */
/* StorageClass, CSINode                                                    */

/**
 * @brief corev1.TopologySelectorLabelRequirement.
 * @since 0.1
 */
typedef struct kp_topology_selector_requirement {
	uint32_t struct_size;      /**< sizeof(kp_topology_selector_requirement) */
	uint32_t reserved;         /**< zero */
	const char *key;           /**< key */
	const char *const *values; /**< values */
	size_t n_values;           /**< number of values */
} kp_topology_selector_requirement;

/** Static initializer for kp_topology_selector_requirement. @since 0.1 */
#define KP_TOPOLOGY_SELECTOR_REQUIREMENT_INIT { sizeof(kp_topology_selector_requirement), 0, NULL, \
	NULL, 0 }

/**
 * @brief corev1.TopologySelectorTerm.
 * @since 0.1
 */
typedef struct kp_topology_selector_term {
	uint32_t struct_size;                                /**< sizeof(kp_topology_selector_term) */
	uint32_t reserved;                                   /**< zero */
	kp_topology_selector_requirement **match_label_expressions; /**< matchLabelExpressions */
	size_t n_match_label_expressions;                    /**< number of requirements */
} kp_topology_selector_term;

/** Static initializer for kp_topology_selector_term. @since 0.1 */
#define KP_TOPOLOGY_SELECTOR_TERM_INIT { sizeof(kp_topology_selector_term), 0, NULL, 0 }

/** storagev1.VolumeBindingMode. @since 0.1 */
enum kp_volume_binding_mode {
	KP_VOLUME_BINDING_MODE_UNSET = 0,                   /**< absent or unknown */
	KP_VOLUME_BINDING_MODE_IMMEDIATE = 1,               /**< "Immediate" */
	KP_VOLUME_BINDING_MODE_WAIT_FOR_FIRST_CONSUMER = 2  /**< "WaitForFirstConsumer" */
};

/**
 * @brief storage.k8s.io/v1 StorageClass.
 * @since 0.1
 */
typedef struct kp_storage_class {
	uint32_t struct_size;                 /**< sizeof(kp_storage_class) */
	uint32_t kind;                        /**< KP_KIND_STORAGE_CLASS */
	const char *api_version;              /**< apiVersion as written; NULL = "storage.k8s.io/v1" */
	kp_object_meta *metadata;             /**< metadata */
	uint32_t volume_binding_mode_code;    /**< a kp_volume_binding_mode */
	uint32_t has_allow_volume_expansion;  /**< 1 if allow_volume_expansion is set */
	uint32_t allow_volume_expansion;      /**< allowVolumeExpansion */
	uint32_t reserved;                    /**< zero */
	const char *provisioner;              /**< provisioner (CSI driver name) */
	kp_labels parameters;                 /**< parameters */
	const char *reclaim_policy;           /**< reclaimPolicy */
	const char *volume_binding_mode;      /**< volumeBindingMode as written */
	kp_topology_selector_term **allowed_topologies; /**< allowedTopologies */
	size_t n_allowed_topologies;          /**< number of terms */
} kp_storage_class;

/** Static initializer for kp_storage_class. @since 0.1 */
#define KP_STORAGE_CLASS_INIT { sizeof(kp_storage_class), KP_KIND_STORAGE_CLASS, NULL, NULL, 0, 0, 0, \
	0, NULL, KP_LABELS_INIT, NULL, NULL, NULL, 0 }

/**
 * @brief storagev1.VolumeNodeResources.
 * @since 0.1
 */
typedef struct kp_volume_node_resources {
	uint32_t struct_size; /**< sizeof(kp_volume_node_resources) */
	uint32_t has_count;   /**< 1 if count is set (unset = unlimited) */
	int32_t count;        /**< count: most volumes of this driver on the node */
	uint32_t reserved;    /**< zero */
} kp_volume_node_resources;

/** Static initializer for kp_volume_node_resources. @since 0.1 */
#define KP_VOLUME_NODE_RESOURCES_INIT { sizeof(kp_volume_node_resources), 0, 0, 0 }

/**
 * @brief storagev1.CSINodeDriver.
 * @since 0.1
 */
typedef struct kp_csi_node_driver {
	uint32_t struct_size;                  /**< sizeof(kp_csi_node_driver) */
	uint32_t reserved;                     /**< zero */
	const char *name;                      /**< name */
	const char *node_id;                   /**< nodeID */
	kp_volume_node_resources *allocatable; /**< allocatable */
	const char *const *topology_keys;      /**< topologyKeys */
	size_t n_topology_keys;                /**< number of topology keys */
} kp_csi_node_driver;

/** Static initializer for kp_csi_node_driver. @since 0.1 */
#define KP_CSI_NODE_DRIVER_INIT { sizeof(kp_csi_node_driver), 0, NULL, NULL, NULL, NULL, 0 }

/**
 * @brief storagev1.CSINodeSpec.
 * @since 0.1
 */
typedef struct kp_csi_node_spec {
	uint32_t struct_size;          /**< sizeof(kp_csi_node_spec) */
	uint32_t reserved;             /**< zero */
	kp_csi_node_driver **drivers;  /**< drivers */
	size_t n_drivers;              /**< number of drivers */
} kp_csi_node_spec;

/** Static initializer for kp_csi_node_spec. @since 0.1 */
#define KP_CSI_NODE_SPEC_INIT { sizeof(kp_csi_node_spec), 0, NULL, 0 }

/**
 * @brief storage.k8s.io/v1 CSINode.
 * @since 0.1
 */
typedef struct kp_csi_node {
	uint32_t struct_size;     /**< sizeof(kp_csi_node) */
	uint32_t kind;            /**< KP_KIND_CSI_NODE */
	const char *api_version;  /**< apiVersion as written; NULL = "storage.k8s.io/v1" */
	kp_object_meta *metadata; /**< metadata */
	kp_csi_node_spec *spec;   /**< spec */
} kp_csi_node;

/** Static initializer for kp_csi_node. @since 0.1 */
#define KP_CSI_NODE_INIT { sizeof(kp_csi_node), KP_KIND_CSI_NODE, NULL, NULL, NULL }

/**
 * @brief v1 Namespace. Only its metadata is modelled (name and labels are
 *        what scheduling reads, for pod affinity namespaceSelector); spec
 *        and status are ignored on decode.
 * @since 0.1
 */
typedef struct kp_namespace {
	uint32_t struct_size;     /**< sizeof(kp_namespace) */
	uint32_t kind;            /**< KP_KIND_NAMESPACE */
	const char *api_version;  /**< apiVersion as written; NULL = "v1" */
	kp_object_meta *metadata; /**< metadata */
} kp_namespace;

/** Static initializer for kp_namespace. @since 0.1 */
#define KP_NAMESPACE_INIT { sizeof(kp_namespace), KP_KIND_NAMESPACE, NULL, NULL }

/**
 * @brief storagev1.VolumeAttachmentSource: the volume to attach, either a
 *        PersistentVolume by name or an inline (migrated in-tree) volume.
 * @since 0.1
 */
typedef struct kp_volume_attachment_source {
	uint32_t struct_size;               /**< sizeof(kp_volume_attachment_source) */
	uint32_t reserved;                  /**< zero */
	const char *persistent_volume_name; /**< persistentVolumeName, or NULL */
	/** inlineVolumeSpec (a v1 PersistentVolumeSpec) as compact JSON text
	 *  with sorted keys, or NULL; kept whole, not decoded. */
	const char *inline_volume_spec;
} kp_volume_attachment_source;

/** Static initializer for kp_volume_attachment_source. @since 0.1 */
#define KP_VOLUME_ATTACHMENT_SOURCE_INIT { sizeof(kp_volume_attachment_source), 0, NULL, NULL }

/**
 * @brief storagev1.VolumeAttachmentSpec.
 * @since 0.1
 */
typedef struct kp_volume_attachment_spec {
	uint32_t struct_size;                /**< sizeof(kp_volume_attachment_spec) */
	uint32_t reserved;                   /**< zero */
	const char *attacher;                /**< attacher (the CSI driver name) */
	kp_volume_attachment_source *source; /**< source */
	const char *node_name;               /**< nodeName: the Node the volume is attached to */
} kp_volume_attachment_spec;

/** Static initializer for kp_volume_attachment_spec. @since 0.1 */
#define KP_VOLUME_ATTACHMENT_SPEC_INIT { sizeof(kp_volume_attachment_spec), 0, NULL, NULL, NULL }

/**
 * @brief storagev1.VolumeError: the last error of an attach or detach.
 * @since 0.1
 */
typedef struct kp_volume_error {
	uint32_t struct_size; /**< sizeof(kp_volume_error) */
	uint32_t reserved;    /**< zero */
	int64_t time_ms;      /**< time (Unix ms); 0 = unset */
	const char *message;  /**< message */
} kp_volume_error;

/** Static initializer for kp_volume_error. @since 0.1 */
#define KP_VOLUME_ERROR_INIT { sizeof(kp_volume_error), 0, 0, NULL }

/**
 * @brief storagev1.VolumeAttachmentStatus.
 * @since 0.1
 */
typedef struct kp_volume_attachment_status {
	uint32_t struct_size;          /**< sizeof(kp_volume_attachment_status) */
	uint32_t attached;             /**< attached: 1 once the volume is attached */
	kp_labels attachment_metadata; /**< attachmentMetadata */
	kp_volume_error *attach_error; /**< attachError, or NULL */
	kp_volume_error *detach_error; /**< detachError, or NULL */
} kp_volume_attachment_status;

/** Static initializer for kp_volume_attachment_status. @since 0.1 */
#define KP_VOLUME_ATTACHMENT_STATUS_INIT { sizeof(kp_volume_attachment_status), 0, KP_LABELS_INIT, \
	NULL, NULL }

/**
 * @brief storage.k8s.io/v1 VolumeAttachment: a volume attached (or being
 *        attached) to a Node. Node termination waits for those of the
 *        Node's drained pods (lifecycle.h).
 * @since 0.1
 */
typedef struct kp_volume_attachment {
	uint32_t struct_size;                /**< sizeof(kp_volume_attachment) */
	uint32_t kind;                       /**< KP_KIND_VOLUME_ATTACHMENT */
	const char *api_version;             /**< apiVersion as written; NULL = "storage.k8s.io/v1" */
	kp_object_meta *metadata;            /**< metadata */
	kp_volume_attachment_spec *spec;     /**< spec */
	kp_volume_attachment_status *status; /**< status, or NULL */
} kp_volume_attachment;

/** Static initializer for kp_volume_attachment. @since 0.1 */
#define KP_VOLUME_ATTACHMENT_INIT { sizeof(kp_volume_attachment), KP_KIND_VOLUME_ATTACHMENT, NULL, \
	NULL, NULL, NULL }

/* ------------------------------------------------------------------------ */
/* Copy and free                                                            */

/**
 * @brief Deep-copy an object of any modelled kind.
 *
 * @p object must point to the struct of @p kind (kp_nodepool for
 * KP_KIND_NODEPOOL, ...). The copy has this library's struct sizes.
 * @param[out] out the copy; NULL on failure
 * @param[in] kind a kp_kind other than KP_KIND_UNKNOWN
 * @param[in] object the object (library- or caller-built)
 * @param[out] err optional error detail
 * @return KP_OK, KP_EINVAL (NULL argument, unknown kind, or a list with
 *         NULL items and a non-zero count), KP_EVERSION (a struct_size this
 *         library cannot read), KP_ENOMEM
 * @since 0.1
 * Ownership: the caller owns *out and releases it with kp_object_free.
 * Thread-safety: safe.
 */
int kp_object_copy(void **out, uint32_t kind, const void *object, kp_error *err);

/**
 * @brief Free a library-built object of any modelled kind.
 * @param[in] kind the object's kp_kind
 * @param[in] object the object, or NULL (no-op)
 * @since 0.1
 * Ownership: only for objects the library built (decode results taken with
 * kp_decode_result_take, copies).
 * Thread-safety: needs exclusive access to @p object.
 */
void kp_object_free(uint32_t kind, void *object);

/**
 * @brief Free a library-built Pod (as kp_object_free).
 * @param[in] pod the object, or NULL (no-op)
 * @since 0.1
 * Ownership: only for objects the library built.
 * Thread-safety: needs exclusive access to the object.
 */
void kp_pod_free(kp_pod *pod);

/**
 * @brief Free a library-built Node (as kp_object_free).
 * @param[in] node the object, or NULL (no-op)
 * @since 0.1
 * Ownership: only for objects the library built.
 * Thread-safety: needs exclusive access to the object.
 */
void kp_node_free(kp_node *node);

/**
 * @brief Free a library-built DaemonSet (as kp_object_free).
 * @param[in] ds the object, or NULL (no-op)
 * @since 0.1
 * Ownership: only for objects the library built.
 * Thread-safety: needs exclusive access to the object.
 */
void kp_daemonset_free(kp_daemonset *ds);

/**
 * @brief Free a library-built PodDisruptionBudget (as kp_object_free).
 * @param[in] pdb the object, or NULL (no-op)
 * @since 0.1
 * Ownership: only for objects the library built.
 * Thread-safety: needs exclusive access to the object.
 */
void kp_pdb_free(kp_pdb *pdb);

/**
 * @brief Free a library-built PersistentVolumeClaim (as kp_object_free).
 * @param[in] pvc the object, or NULL (no-op)
 * @since 0.1
 * Ownership: only for objects the library built.
 * Thread-safety: needs exclusive access to the object.
 */
void kp_pvc_free(kp_pvc *pvc);

/**
 * @brief Free a library-built PersistentVolume (as kp_object_free).
 * @param[in] pv the object, or NULL (no-op)
 * @since 0.1
 * Ownership: only for objects the library built.
 * Thread-safety: needs exclusive access to the object.
 */
void kp_pv_free(kp_pv *pv);

/**
 * @brief Free a library-built StorageClass (as kp_object_free).
 * @param[in] sc the object, or NULL (no-op)
 * @since 0.1
 * Ownership: only for objects the library built.
 * Thread-safety: needs exclusive access to the object.
 */
void kp_storage_class_free(kp_storage_class *sc);

/**
 * @brief Free a library-built CSINode (as kp_object_free).
 * @param[in] csi_node the object, or NULL (no-op)
 * @since 0.1
 * Ownership: only for objects the library built.
 * Thread-safety: needs exclusive access to the object.
 */
void kp_csi_node_free(kp_csi_node *csi_node);

/**
 * @brief Free a library-built Namespace (as kp_object_free).
 * @param[in] ns the object, or NULL (no-op)
 * @since 0.1
 * Ownership: only for objects the library built.
 * Thread-safety: needs exclusive access to the object.
 */
void kp_namespace_free(kp_namespace *ns);

/**
 * @brief Free a library-built VolumeAttachment (as kp_object_free).
 * @param[in] va the object, or NULL (no-op)
 * @since 0.1
 * Ownership: only for objects the library built.
 * Thread-safety: needs exclusive access to the object.
 */
void kp_volume_attachment_free(kp_volume_attachment *va);

/**
 * @brief Deep-copy a Pod (as kp_object_copy with KP_KIND_POD).
 * @param[out] out the copy; NULL on failure
 * @param[in] pod the pod
 * @param[out] err optional error detail
 * @return as kp_object_copy
 * @since 0.1
 * Ownership: release *out with kp_pod_free.
 * Thread-safety: safe.
 */
int kp_pod_copy(kp_pod **out, const kp_pod *pod, kp_error *err);

/**
 * @brief Deep-copy a Node (as kp_object_copy with KP_KIND_NODE).
 * @param[out] out the copy; NULL on failure
 * @param[in] node the node
 * @param[out] err optional error detail
 * @return as kp_object_copy
 * @since 0.1
 * Ownership: release *out with kp_node_free.
 * Thread-safety: safe.
 */
int kp_node_copy(kp_node **out, const kp_node *node, kp_error *err);

KP_END_DECLS

#endif /* KARPENTER_OBJECTS_H */
