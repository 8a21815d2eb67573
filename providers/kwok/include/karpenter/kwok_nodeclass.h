/*
 * libkarpenter-kwok: karpenter.kwok.sh/v1alpha1 KWOKNodeClass (upstream
 * kwok/apis/v1alpha1), the node class of the KWOK provider.
 *
 * The kind is registered on a core registry by kp_kwok_register
 * (karpenter/sys/kwok.h, experimental as the provider-kind API it uses).
 * With the registry in kp_decode_options and kp_validate_options, kp_decode,
 * kp_validate and kp_registry_object_default (the CRD's defaults: a Ready
 * status) treat it as they treat a core kind. The conventions of objects.h
 * apply.
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
	uint32_t kind;                    /**< the id kp_kwok_register returned */
	const char *api_version;          /**< apiVersion as written; NULL = "karpenter.kwok.sh/v1alpha1" */
	kp_object_meta *metadata;         /**< metadata */
	kp_kwok_nodeclass_spec *spec;     /**< spec */
	kp_kwok_nodeclass_status *status; /**< status */
} kp_kwok_nodeclass;

/** Static initializer for kp_kwok_nodeclass (set kind to the registered id). @since 0.1 */
#define KP_KWOK_NODECLASS_INIT { sizeof(kp_kwok_nodeclass), 0, NULL, NULL, NULL, NULL }

KP_END_DECLS

#endif /* KARPENTER_KWOK_NODECLASS_H */
