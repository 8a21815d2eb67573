/*
 * libkarpenter: karpenter.sh/v1 NodePool (upstream pkg/apis/v1/nodepool.go,
 * nodepool_status.go).
 *
 * The conventions of objects.h apply. Nothing here applies CRD defaults:
 * an absent expireAfter stays absent (the API server would default it to
 * 720h).
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef KARPENTER_NODEPOOL_H
#define KARPENTER_NODEPOOL_H

#include <karpenter/common.h>
#include <karpenter/objects.h>
#include <karpenter/nodeclaim.h>

KP_BEGIN_DECLS

/**
 * @brief The metadata of a NodeClaim template (Karpenter's own ObjectMeta:
 *        labels and annotations only).
 * @since 0.1
 */
typedef struct kp_template_metadata {
	uint32_t struct_size;  /**< sizeof(kp_template_metadata) */
	uint32_t reserved;     /**< zero */
	kp_labels labels;      /**< labels */
	kp_labels annotations; /**< annotations */
} kp_template_metadata;

/** Static initializer for kp_template_metadata. @since 0.1 */
#define KP_TEMPLATE_METADATA_INIT { sizeof(kp_template_metadata), 0, KP_LABELS_INIT, KP_LABELS_INIT }

/**
 * @brief NodeClaimTemplate: what a NodePool stamps on its NodeClaims.
 * @since 0.1
 */
typedef struct kp_nodeclaim_template {
	uint32_t struct_size;           /**< sizeof(kp_nodeclaim_template) */
	uint32_t reserved;              /**< zero */
	kp_template_metadata *metadata; /**< metadata */
	kp_nodeclaim_spec *spec;        /**< spec (NodeClaimTemplateSpec: resources is NULL) */
} kp_nodeclaim_template;

/** Static initializer for kp_nodeclaim_template. @since 0.1 */
#define KP_NODECLAIM_TEMPLATE_INIT { sizeof(kp_nodeclaim_template), 0, NULL, NULL }

/**
 * @brief A disruption budget.
 * @since 0.1
 */
typedef struct kp_budget {
	uint32_t struct_size;       /**< sizeof(kp_budget) */
	uint32_t reserved;          /**< zero */
	const char *nodes;          /**< nodes: "10%" or "5" as written */
	const char *schedule;       /**< schedule (cron), NULL when absent */
	kp_api_duration duration;   /**< duration (metav1.Duration) */
	const char *const *reasons; /**< reasons as written ("Underutilized", "Empty", "Drifted") */
	size_t n_reasons;           /**< number of reasons */
} kp_budget;

/** Static initializer for kp_budget. @since 0.1 */
#define KP_BUDGET_INIT { sizeof(kp_budget), 0, NULL, NULL, { NULL, 0, 0, 0 }, NULL, 0 }

/** ConsolidationPolicy. @since 0.1 */
enum kp_consolidation_policy {
	KP_CONSOLIDATION_POLICY_UNSET = 0,                        /**< absent or not a known value */
	KP_CONSOLIDATION_POLICY_WHEN_EMPTY = 1,                   /**< "WhenEmpty" */
	KP_CONSOLIDATION_POLICY_WHEN_EMPTY_OR_UNDERUTILIZED = 2,  /**< "WhenEmptyOrUnderutilized" */
	KP_CONSOLIDATION_POLICY_BALANCED = 3                      /**< "Balanced" */
};

/**
 * @brief Disruption settings of a NodePool.
 * @since 0.1
 */
typedef struct kp_disruption {
	uint32_t struct_size;             /**< sizeof(kp_disruption) */
	uint32_t consolidation_policy_code; /**< a kp_consolidation_policy */
	const char *consolidation_policy; /**< consolidationPolicy as written */
	kp_api_duration consolidate_after; /**< consolidateAfter (NillableDuration: may be Never) */
	kp_budget **budgets;              /**< budgets */
	size_t n_budgets;                 /**< number of budgets */
} kp_disruption;

/** Static initializer for kp_disruption. @since 0.1 */
#define KP_DISRUPTION_INIT { sizeof(kp_disruption), 0, NULL, { NULL, 0, 0, 0 }, NULL, 0 }

/**
 * @brief NodePoolSpec.
 * @since 0.1
 */
typedef struct kp_nodepool_spec {
	uint32_t struct_size;              /**< sizeof(kp_nodepool_spec) */
	uint32_t has_weight;               /**< 1 if weight is set */
	int32_t weight;                    /**< weight */
	uint32_t has_replicas;             /**< 1 if replicas is set */
	int64_t replicas;                  /**< replicas (static NodePools, alpha) */
	kp_nodeclaim_template *template_;  /**< template (C++ keyword, hence the underscore) */
	kp_disruption *disruption;         /**< disruption */
	kp_resource_list limits;           /**< limits */
} kp_nodepool_spec;

/** Static initializer for kp_nodepool_spec. @since 0.1 */
#define KP_NODEPOOL_SPEC_INIT { sizeof(kp_nodepool_spec), 0, 0, 0, 0, NULL, NULL, KP_RESOURCE_LIST_INIT }

/**
 * @brief NodePoolStatus.
 * @since 0.1
 */
typedef struct kp_nodepool_status {
	uint32_t struct_size;                   /**< sizeof(kp_nodepool_status) */
	uint32_t has_nodes;                     /**< 1 if nodes is set */
	int64_t nodes;                          /**< nodes */
	int64_t node_class_observed_generation; /**< nodeClassObservedGeneration */
	kp_resource_list resources;             /**< resources */
	kp_condition **conditions;              /**< conditions */
	size_t n_conditions;                    /**< number of conditions */
} kp_nodepool_status;

/** Static initializer for kp_nodepool_status. @since 0.1 */
#define KP_NODEPOOL_STATUS_INIT { sizeof(kp_nodepool_status), 0, 0, 0, KP_RESOURCE_LIST_INIT, NULL, 0 }

/**
 * @brief karpenter.sh/v1 NodePool.
 * @since 0.1
 */
typedef struct kp_nodepool {
	uint32_t struct_size;       /**< sizeof(kp_nodepool) */
	uint32_t kind;              /**< KP_KIND_NODEPOOL */
	const char *api_version;    /**< apiVersion as written; NULL = "karpenter.sh/v1" */
	kp_object_meta *metadata;   /**< metadata */
	kp_nodepool_spec *spec;     /**< spec */
	kp_nodepool_status *status; /**< status */
} kp_nodepool;

/** Static initializer for kp_nodepool. @since 0.1 */
#define KP_NODEPOOL_INIT { sizeof(kp_nodepool), KP_KIND_NODEPOOL, NULL, NULL, NULL, NULL }

/**
 * @brief Free a library-built NodePool.
 * @param[in] nodepool the object, or NULL (no-op)
 * @since 0.1
 * Ownership: only for objects the library built.
 * Thread-safety: needs exclusive access to @p nodepool.
 */
void kp_nodepool_free(kp_nodepool *nodepool);

/**
 * @brief Deep-copy a NodePool (as kp_object_copy with KP_KIND_NODEPOOL).
 * @param[out] out the copy; NULL on failure
 * @param[in] nodepool the object
 * @param[out] err optional error detail
 * @return as kp_object_copy
 * @since 0.1
 * Ownership: release *out with kp_nodepool_free.
 * Thread-safety: safe.
 */
int kp_nodepool_copy(kp_nodepool **out, const kp_nodepool *nodepool, kp_error *err);

KP_END_DECLS

#endif /* KARPENTER_NODEPOOL_H */
