/*
 * libkarpenter: karpenter.sh/v1 NodeClaim (upstream pkg/apis/v1/nodeclaim.go,
 * nodeclaim_status.go).
 *
 * The conventions of objects.h apply: size-tagged structs reached through
 * pointers (NULL = absent), pointer arrays of growable structs, contiguous
 * arrays of value types, enum strings kept as written.
 *
 * kp_nodeclaim_spec is also the spec of a NodePool's template
 * (NodeClaimTemplateSpec, which is the same without resources).
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef KARPENTER_NODECLAIM_H
#define KARPENTER_NODECLAIM_H

#include <karpenter/common.h>
#include <karpenter/objects.h>
#include <karpenter/requirements.h>

KP_BEGIN_DECLS

/**
 * @brief NodeClassReference: the provider node class a NodeClaim uses.
 * @since 0.1
 */
typedef struct kp_node_class_reference {
	uint32_t struct_size; /**< sizeof(kp_node_class_reference) */
	uint32_t reserved;    /**< zero */
	const char *group;    /**< group, e.g. "karpenter.k8s.aws" */
	const char *kind;     /**< kind, e.g. "EC2NodeClass" */
	const char *name;     /**< name */
} kp_node_class_reference;

/** Static initializer for kp_node_class_reference. @since 0.1 */
#define KP_NODE_CLASS_REFERENCE_INIT { sizeof(kp_node_class_reference), 0, NULL, NULL, NULL }

/**
 * @brief NodeSelectorRequirementWithMinValues, as written in a NodePool or
 *        NodeClaim.
 *
 * Unlike requirements.h's kp_node_selector_requirement (the algebra's
 * input), this keeps the operator text as written (an unsupported operator
 * survives decoding, with op 0) and tells an absent minValues from any
 * written value, so that validation can report both. Use
 * kp_nodeclaim_requirement_view to feed it to the requirements algebra.
 * @since 0.1
 */
typedef struct kp_nodeclaim_requirement {
	uint32_t struct_size;      /**< sizeof(kp_nodeclaim_requirement) */
	uint32_t op;               /**< the kp_selector_op of operator_name, 0 if absent or unknown */
	const char *key;           /**< key */
	const char *operator_name; /**< operator as written ("In", "Gt", ...) */
	const char *const *values; /**< values */
	size_t n_values;           /**< number of values */
	uint32_t has_min_values;   /**< 1 if minValues is set */
	uint32_t reserved;         /**< zero */
	int64_t min_values;        /**< minValues (Go int) */
} kp_nodeclaim_requirement;

/** Static initializer for kp_nodeclaim_requirement. @since 0.1 */
#define KP_NODECLAIM_REQUIREMENT_INIT { sizeof(kp_nodeclaim_requirement), 0, NULL, NULL, NULL, 0, \
	0, 0, 0 }

/**
 * @brief Describe a requirement as a kp_node_selector_requirement for the
 *        requirements algebra (kp_requirement_new), without copying.
 *
 * @param[in] req the requirement
 * @param[in,out] out caller-initialized (KP_NODE_SELECTOR_REQUIREMENT_INIT);
 *                on success its op, key, values and min_values are set
 * @param[out] err optional error detail: field "operator" with
 *             `Unsupported value: "<op>": supported values: "In", "NotIn",
 *             "Exists", "DoesNotExist", "Gt", "Lt", "Gte", "Lte"`, or field
 *             "minValues" when it does not fit an int32
 * @return KP_OK, KP_EINVAL (NULL argument, unknown operator, minValues out
 *         of range), KP_EVERSION (a struct_size this library cannot read)
 * @since 0.1
 * Ownership: @p out borrows the key and the values from @p req.
 * Thread-safety: safe.
 */
int kp_nodeclaim_requirement_view(const kp_nodeclaim_requirement *req,
				  kp_node_selector_requirement *out, kp_error *err);

/**
 * @brief NodeClaim ResourceRequirements (requests only).
 * @since 0.1
 */
typedef struct kp_nodeclaim_resources {
	uint32_t struct_size;      /**< sizeof(kp_nodeclaim_resources) */
	uint32_t reserved;         /**< zero */
	kp_resource_list requests; /**< requests */
} kp_nodeclaim_resources;

/** Static initializer for kp_nodeclaim_resources. @since 0.1 */
#define KP_NODECLAIM_RESOURCES_INIT { sizeof(kp_nodeclaim_resources), 0, KP_RESOURCE_LIST_INIT }

/**
 * @brief NodeClaimSpec, and NodeClaimTemplateSpec (resources always NULL).
 * @since 0.1
 */
typedef struct kp_nodeclaim_spec {
	uint32_t struct_size;                    /**< sizeof(kp_nodeclaim_spec) */
	uint32_t reserved;                       /**< zero */
	kp_taint *taints;                        /**< taints */
	size_t n_taints;                         /**< number of taints */
	kp_taint *startup_taints;                /**< startupTaints */
	size_t n_startup_taints;                 /**< number of startup taints */
	kp_nodeclaim_requirement **requirements; /**< requirements */
	size_t n_requirements;                   /**< number of requirements */
	kp_nodeclaim_resources *resources;       /**< resources (NodeClaim only) */
	kp_node_class_reference *node_class_ref; /**< nodeClassRef */
	kp_api_duration termination_grace_period; /**< terminationGracePeriod (metav1.Duration) */
	kp_api_duration expire_after;            /**< expireAfter (NillableDuration: may be Never) */
} kp_nodeclaim_spec;

/** Static initializer for kp_nodeclaim_spec. @since 0.1 */
#define KP_NODECLAIM_SPEC_INIT { sizeof(kp_nodeclaim_spec), 0, NULL, 0, NULL, 0, NULL, 0, NULL, NULL, \
	{ NULL, 0, 0, 0 }, { NULL, 0, 0, 0 } }

/**
 * @brief NodeClaimStatus.
 * @since 0.1
 */
typedef struct kp_nodeclaim_status {
	uint32_t struct_size;          /**< sizeof(kp_nodeclaim_status) */
	uint32_t reserved;             /**< zero */
	const char *node_name;         /**< nodeName */
	const char *provider_id;       /**< providerID */
	const char *image_id;          /**< imageID */
	kp_resource_list capacity;     /**< capacity */
	kp_resource_list allocatable;  /**< allocatable */
	kp_condition **conditions;     /**< conditions */
	size_t n_conditions;           /**< number of conditions */
	int64_t last_pod_event_time_ms; /**< lastPodEventTime, 0 when absent */
} kp_nodeclaim_status;

/** Static initializer for kp_nodeclaim_status. @since 0.1 */
#define KP_NODECLAIM_STATUS_INIT { sizeof(kp_nodeclaim_status), 0, NULL, NULL, NULL, \
	KP_RESOURCE_LIST_INIT, KP_RESOURCE_LIST_INIT, NULL, 0, 0 }

/**
 * @brief karpenter.sh/v1 NodeClaim.
 * @since 0.1
 */
typedef struct kp_nodeclaim {
	uint32_t struct_size;        /**< sizeof(kp_nodeclaim) */
	uint32_t kind;               /**< KP_KIND_NODECLAIM */
	const char *api_version;     /**< apiVersion as written; NULL = "karpenter.sh/v1" */
	kp_object_meta *metadata;    /**< metadata */
	kp_nodeclaim_spec *spec;     /**< spec */
	kp_nodeclaim_status *status; /**< status */
} kp_nodeclaim;

/** Static initializer for kp_nodeclaim. @since 0.1 */
#define KP_NODECLAIM_INIT { sizeof(kp_nodeclaim), KP_KIND_NODECLAIM, NULL, NULL, NULL, NULL }

/**
 * @brief Free a library-built NodeClaim.
 * @param[in] nodeclaim the object, or NULL (no-op)
 * @since 0.1
 * Ownership: only for objects the library built.
 * Thread-safety: needs exclusive access to @p nodeclaim.
 */
void kp_nodeclaim_free(kp_nodeclaim *nodeclaim);

/**
 * @brief Deep-copy a NodeClaim (as kp_object_copy with KP_KIND_NODECLAIM).
 * @param[out] out the copy; NULL on failure
 * @param[in] nodeclaim the object
 * @param[out] err optional error detail
 * @return as kp_object_copy
 * @since 0.1
 * Ownership: release *out with kp_nodeclaim_free.
 * Thread-safety: safe.
 */
int kp_nodeclaim_copy(kp_nodeclaim **out, const kp_nodeclaim *nodeclaim, kp_error *err);

KP_END_DECLS

#endif /* KARPENTER_NODECLAIM_H */
