/*
 * libkarpenter: karpenter.kwok.sh/v1alpha1 KWOKNodeClass (upstream
 * kwok/apis/v1alpha1), the node class of the KWOK provider.
 *
 * It lives in the core because NodePools that reference it are validated
 * and decoded by the core. The conventions of objects.h apply.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef KARPENTER_KWOK_NODECLASS_H
#define KARPENTER_KWOK_NODECLASS_H

#include <karpenter/common.h>
#include <karpenter/objects.h>

KP_BEGIN_DECLS

/**
 * @brief KWOKNodeClassSpec.
 * @since 0.1
 */
typedef struct kp_kwok_nodeclass_spec {
	uint32_t struct_size;                    /**< sizeof(kp_kwok_nodeclass_spec) */
	uint32_t reserved;                       /**< zero */
	kp_api_duration node_registration_delay; /**< nodeRegistrationDelay (metav1.Duration) */
} kp_kwok_nodeclass_spec;

/** Static initializer for kp_kwok_nodeclass_spec. @since 0.1 */
#define KP_KWOK_NODECLASS_SPEC_INIT { sizeof(kp_kwok_nodeclass_spec), 0, { NULL, 0, 0, 0 } }

/**
 * @brief KWOKNodeClassStatus.
 * @since 0.1
 */
typedef struct kp_kwok_nodeclass_status {
	uint32_t struct_size;      /**< sizeof(kp_kwok_nodeclass_status) */
	uint32_t reserved;         /**< zero */
	kp_condition **conditions; /**< conditions */
	size_t n_conditions;       /**< number of conditions */
} kp_kwok_nodeclass_status;

/** Static initializer for kp_kwok_nodeclass_status. @since 0.1 */
#define KP_KWOK_NODECLASS_STATUS_INIT { sizeof(kp_kwok_nodeclass_status), 0, NULL, 0 }

/**
 * @brief karpenter.kwok.sh/v1alpha1 KWOKNodeClass.
 * @since 0.1
 */
typedef struct kp_kwok_nodeclass {
	uint32_t struct_size;             /**< sizeof(kp_kwok_nodeclass) */
	uint32_t kind;                    /**< KP_KIND_KWOK_NODECLASS */
	const char *api_version;          /**< apiVersion as written; NULL = "karpenter.kwok.sh/v1alpha1" */
	kp_object_meta *metadata;         /**< metadata */
	kp_kwok_nodeclass_spec *spec;     /**< spec */
	kp_kwok_nodeclass_status *status; /**< status */
} kp_kwok_nodeclass;

/** Static initializer for kp_kwok_nodeclass. @since 0.1 */
#define KP_KWOK_NODECLASS_INIT { sizeof(kp_kwok_nodeclass), KP_KIND_KWOK_NODECLASS, NULL, NULL, NULL, \
	NULL }

/**
 * @brief Free a library-built KWOKNodeClass.
 * @param[in] nodeclass the object, or NULL (no-op)
 * @since 0.1
 * Ownership: only for objects the library built.
 * Thread-safety: needs exclusive access to @p nodeclass.
 */
void kp_kwok_nodeclass_free(kp_kwok_nodeclass *nodeclass);

KP_END_DECLS

#endif /* KARPENTER_KWOK_NODECLASS_H */
