/*
 * libkarpenter: offline API conversion of Karpenter's kinds, as upstream's
 * conversion webhooks convert them (kubernetes-sigs/karpenter v1.0.x
 * pkg/apis/v1/nodepool_conversion.go and nodeclaim_conversion.go), plus the
 * kubelet migration upstream left to a manual guide.
 *
 * A converter takes a whole set of manifests (JSON or YAML streams, Lists
 * expanded), because some rules need other objects: a v1beta1 NodeClaim
 * takes expireAfter from its NodePool, and a NodePool's v1beta1 kubelet
 * moves into its node class. kp_convert_run converts every object it knows
 * to the target version (KP_CONVERT_V1 or KP_CONVERT_V1BETA1); objects
 * already at the target and kinds nobody converts pass through unchanged and
 * in order. The core converts karpenter.sh NodePool and NodeClaim; a
 * provider adds its kinds through the registry (kp_registry_add_conversion,
 * karpenter/sys/schema.h; libkarpenter-aws registers EC2NodeClass with
 * kp_aws_register).
 *
 * Why documents, not structs: the source versions (v1beta1, v1alpha5) have
 * no C structs, and conversion must keep what it does not touch exactly as
 * written (unknown kinds, key order, number text). The converter therefore
 * works on the JSON data model of each object, privately, and the public
 * API is text in, text out (STYLE rule 19: core JSON helpers take text).
 * A provider's conversion receives one object as compact JSON and emits
 * JSON, so no tree type enters the ABI.
 *
 * Output. Existing keys keep their order; keys a rule adds are appended to
 * their object (a moved field goes to the end of its new parent, a renamed
 * one keeps its place). The source version's CRD defaults are applied as
 * the API server would before the webhook sees the object, but only where
 * a rule reads them: the output carries no default the input did not have,
 * except fields a conversion writes (consolidationPolicy and
 * consolidateAfter, expireAfter at its new place, nodeClassRef group and
 * kind, the compatibility annotations). Durations keep their text, except
 * inside the kubelet compatibility annotation, which holds Go's
 * json.Marshal of the v1beta1 KubeletConfiguration byte for byte (keys in Go
 * order, maps sorted, durations as Go's Duration.String()).
 *
 * Report. Every field moved, renamed or dropped, and every object split or
 * generated, is one line of the report ("moved: NodePool/default:
 * spec.disruption.expireAfter -> spec.template.spec.expireAfter"); lines
 * starting "warning: " say what the user must check.
 *
 * Thread-safety: a kp_convert is used by one thread at a time; the
 * registry it holds is only read, so converters on several threads may
 * share one (register everything first).
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef KARPENTER_CONVERT_H
#define KARPENTER_CONVERT_H

#include <stddef.h>
#include <stdint.h>

#include <karpenter/common.h>

KP_BEGIN_DECLS

struct kp_registry;

/** Target versions of kp_convert_options::target. @since 0.1 */
enum kp_convert_target {
	KP_CONVERT_V1 = 1,     /**< karpenter.sh/v1 (and the providers' v1) */
	KP_CONVERT_V1BETA1 = 2 /**< karpenter.sh/v1beta1 (and the providers' v1beta1) */
};

/** Flags of kp_convert_options. @since 0.1 */
enum kp_convert_flags {
	/** Do not move a NodePool's kubelet into its node class (the
	 *  compatibility annotation alone, as upstream's webhook). */
	KP_CONVERT_NO_KUBELET_MIGRATION = 1u << 0
};

/** @brief Options of kp_convert_new, filled by the caller. @since 0.1 */
typedef struct kp_convert_options {
	uint32_t struct_size;         /**< sizeof(kp_convert_options) */
	uint32_t target;              /**< a kp_convert_target; 0 = KP_CONVERT_V1 */
	uint32_t flags;               /**< kp_convert_flags */
	uint32_t reserved;            /**< zero */
	struct kp_registry *registry; /**< providers' conversions (held until
	                                   kp_convert_free); NULL = core kinds only */
} kp_convert_options;

/** Static initializer for kp_convert_options: to v1, no registry. @since 0.1 */
#define KP_CONVERT_OPTIONS_INIT { sizeof(kp_convert_options), KP_CONVERT_V1, 0, 0, NULL }

/**
 * @brief Initialize options as KP_CONVERT_OPTIONS_INIT (for FFI).
 * @param[out] opts the options; NULL is a no-op
 * @since 0.1
 * Thread-safety: safe.
 */
void kp_convert_options_init(kp_convert_options *opts);

/** @brief A conversion: its inputs, then its output and report. @since 0.1 */
typedef struct kp_convert kp_convert;

/**
 * @brief A converter.
 * @param[out] out the converter; NULL on failure
 * @param[in] opts options, or NULL for KP_CONVERT_OPTIONS_INIT
 * @param[out] err optional error detail
 * @return KP_OK; KP_EINVAL (an unknown target or flag); KP_EVERSION; KP_ENOMEM
 * @since 0.1
 * Ownership: release with kp_convert_free.
 */
int kp_convert_new(kp_convert **out, const kp_convert_options *opts, kp_error *err);

/**
 * @brief Add a stream of manifests (JSON if its first non-blank byte is '{'
 * or '[', else YAML; Lists are expanded, empty documents skipped).
 * @param[in] conv the converter (before kp_convert_run)
 * @param[in] data the text (need not be NUL-terminated)
 * @param[in] len its length
 * @param[in] source a name for messages ("nodepool.yaml"), or NULL
 * @param[out] err optional error detail ("SOURCE: document 2: ...")
 * @return KP_OK; KP_EPARSE; KP_EINVAL (a document that is not an object,
 *         or already run); KP_ERANGE (input limits as kp_decode's); KP_ENOMEM
 * @since 0.1
 */
int kp_convert_add(kp_convert *conv, const char *data, size_t len, const char *source,
		   kp_error *err);

/**
 * @brief Convert everything added.
 * @return KP_OK; KP_EINVAL (an object a rule refuses: a compatibility
 *         annotation that is not JSON, a construct v1 cannot hold such as a
 *         v1alpha1 launchTemplate; err names the object and field);
 *         KP_ENOMEM; what a provider's conversion returns
 * @since 0.1
 */
int kp_convert_run(kp_convert *conv, kp_error *err);

/** @brief Number of output objects after kp_convert_run. @since 0.1 */
size_t kp_convert_object_count(const kp_convert *conv);

/**
 * @brief Output object @p index as compact JSON, borrowed from @p conv; NULL
 * when out of range or out of memory.
 * @since 0.1
 */
const char *kp_convert_object_json_at(kp_convert *conv, size_t index);

/**
 * @brief Write the output: YAML documents separated by "---", or JSON (one
 * object indented, several as a v1 List).
 * @param[out] out the text; NULL on failure
 * @param[out] out_len its length (may be NULL)
 * @param[in] conv the converter, after kp_convert_run
 * @param[in] format KP_FORMAT_YAML or KP_FORMAT_JSON (codec.h)
 * @param[out] err optional error detail
 * @return KP_OK, KP_EINVAL, KP_ENOMEM
 * @since 0.1
 * Ownership: release *out with kp_encoded_free.
 */
int kp_convert_write(char **out, size_t *out_len, const kp_convert *conv, uint32_t format,
		     kp_error *err);

/** @brief Number of report lines. @since 0.1 */
size_t kp_convert_report_count(const kp_convert *conv);

/** @brief Report line @p index (no newline), borrowed; NULL when out of range. @since 0.1 */
const char *kp_convert_report_at(const kp_convert *conv, size_t index);

/** @brief Release a converter (NULL-safe). @since 0.1 */
void kp_convert_free(kp_convert *conv);

KP_END_DECLS

#endif /* KARPENTER_CONVERT_H */
