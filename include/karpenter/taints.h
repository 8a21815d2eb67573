/*
 * libkarpenter: node taints and pod tolerations (core/v1 Taint, Toleration).
 *
 * Matching follows k8s.io/api core/v1 Toleration.ToleratesTaint with the
 * comparison operators enabled, as Karpenter calls it; whole-list checks
 * follow Karpenter's pkg/scheduling/taints.go. Validation follows Kubernetes'
 * node taint validation, with messages in the form described in labels.h
 * (field path in kp_error::field, ErrorBody() text in kp_error::message).
 *
 * kp_taint and kp_toleration have a fixed layout and no struct_size: they
 * mirror Kubernetes types frozen in the stable v1 API, so they are passed as
 * contiguous arrays and may be embedded. Their strings may be NULL, which
 * the library reads as "".
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef KARPENTER_TAINTS_H
#define KARPENTER_TAINTS_H

#include <karpenter/common.h>

KP_BEGIN_DECLS

/** Taint effects (core/v1 TaintEffect). */
enum kp_taint_effect {
	KP_TAINT_EFFECT_NONE = 0,               /**< "": invalid on a taint; on a toleration, every effect */
	KP_TAINT_EFFECT_NO_SCHEDULE = 1,        /**< "NoSchedule" */
	KP_TAINT_EFFECT_PREFER_NO_SCHEDULE = 2, /**< "PreferNoSchedule" */
	KP_TAINT_EFFECT_NO_EXECUTE = 3          /**< "NoExecute" */
};

/**
 * Toleration operators (core/v1 TolerationOperator). Equal is zero because
 * Kubernetes reads an empty operator as Equal.
 */
enum kp_toleration_op {
	KP_TOLERATION_OP_EQUAL = 0,  /**< "Equal" (or ""): values must be equal */
	KP_TOLERATION_OP_EXISTS = 1, /**< "Exists": any value */
	KP_TOLERATION_OP_LT = 2,     /**< "Lt": taint value < toleration value, as integers */
	KP_TOLERATION_OP_GT = 3      /**< "Gt": taint value > toleration value, as integers */
};

/**
 * @brief A node taint (core/v1 Taint).
 * @since 0.1
 */
typedef struct kp_taint {
	const char *key;       /**< taint key */
	const char *value;     /**< taint value, "" or NULL for none */
	uint32_t effect;       /**< a kp_taint_effect */
	uint32_t reserved;     /**< zero */
	int64_t time_added_ms; /**< Unix ms the taint was added (NoExecute only), 0 = unset */
} kp_taint;

/**
 * @brief A pod toleration (core/v1 Toleration).
 *
 * The member is named `op` because `operator` is a C++ keyword.
 * @since 0.1
 */
typedef struct kp_toleration {
	const char *key;                 /**< taint key; "" with Exists tolerates every key */
	const char *value;               /**< compared by Equal, Lt and Gt */
	uint32_t op;                     /**< a kp_toleration_op */
	uint32_t effect;                 /**< a kp_taint_effect; NONE matches every effect */
	int64_t toleration_seconds;      /**< NoExecute grace period, if has_toleration_seconds */
	uint32_t has_toleration_seconds; /**< 1 if toleration_seconds is set */
	uint32_t reserved;               /**< zero */
} kp_toleration;

/** Karpenter's taint on nodes it is disrupting (karpenter.sh/disrupted). */
#define KP_TAINT_KEY_DISRUPTED "karpenter.sh/disrupted"
/** Karpenter's taint on nodes not yet registered (karpenter.sh/unregistered). */
#define KP_TAINT_KEY_UNREGISTERED "karpenter.sh/unregistered"
/** Node is not ready. */
#define KP_TAINT_KEY_NODE_NOT_READY "node.kubernetes.io/not-ready"
/** Node is unreachable. */
#define KP_TAINT_KEY_NODE_UNREACHABLE "node.kubernetes.io/unreachable"
/** Node is cordoned. */
#define KP_TAINT_KEY_NODE_UNSCHEDULABLE "node.kubernetes.io/unschedulable"
/** Node has memory pressure. */
#define KP_TAINT_KEY_NODE_MEMORY_PRESSURE "node.kubernetes.io/memory-pressure"
/** Node has disk pressure. */
#define KP_TAINT_KEY_NODE_DISK_PRESSURE "node.kubernetes.io/disk-pressure"
/** Node network is unavailable. */
#define KP_TAINT_KEY_NODE_NETWORK_UNAVAILABLE "node.kubernetes.io/network-unavailable"
/** Node has PID pressure. */
#define KP_TAINT_KEY_NODE_PID_PRESSURE "node.kubernetes.io/pid-pressure"
/** Node is out of service (non-graceful shutdown). */
#define KP_TAINT_KEY_NODE_OUT_OF_SERVICE "node.kubernetes.io/out-of-service"
/** Node not yet initialised by the external cloud provider (value "true"). */
#define KP_TAINT_KEY_EXTERNAL_CLOUD_PROVIDER "node.cloudprovider.kubernetes.io/uninitialized"
/** Key prefix of the Node Readiness Controller's taints, all ephemeral. */
#define KP_TAINT_KEY_PREFIX_NODE_READINESS "readiness.k8s.io/"

/** Initializer for karpenter.sh/disrupted:NoSchedule (v1.DisruptedNoScheduleTaint). */
#define KP_TAINT_DISRUPTED_NO_SCHEDULE \
	{ KP_TAINT_KEY_DISRUPTED, "", KP_TAINT_EFFECT_NO_SCHEDULE, 0, 0 }
/** Initializer for karpenter.sh/unregistered:NoExecute (v1.UnregisteredNoExecuteTaint). */
#define KP_TAINT_UNREGISTERED_NO_EXECUTE \
	{ KP_TAINT_KEY_UNREGISTERED, "", KP_TAINT_EFFECT_NO_EXECUTE, 0, 0 }

/**
 * @brief Kubernetes spelling of a taint effect.
 * @param[in] effect a kp_taint_effect
 * @return "", "NoSchedule", "PreferNoSchedule", "NoExecute", or "Unknown"
 *         for other values (never NULL).
 * @since 0.1
 * Ownership: static string.
 * Thread-safety: safe.
 */
const char *kp_taint_effect_name(uint32_t effect);

/**
 * @brief Parse a taint effect's Kubernetes spelling (case-sensitive).
 * @param[in] text "NoSchedule", "PreferNoSchedule", "NoExecute", or ""
 *            (KP_TAINT_EFFECT_NONE)
 * @param[out] out the kp_taint_effect; untouched on failure
 * @param[out] err optional error detail: field "", message `Unsupported
 *             value: "<text>": supported values: "NoSchedule",
 *             "PreferNoSchedule", "NoExecute"`
 * @return KP_OK or KP_EINVAL
 * @since 0.1
 * Thread-safety: safe.
 */
int kp_taint_effect_parse(const char *text, uint32_t *out, kp_error *err);

/**
 * @brief Kubernetes spelling of a toleration operator.
 * @param[in] op a kp_toleration_op
 * @return "Equal", "Exists", "Lt", "Gt", or "Unknown" for other values
 *         (never NULL).
 * @since 0.1
 * Ownership: static string.
 * Thread-safety: safe.
 */
const char *kp_toleration_op_name(uint32_t op);

/**
 * @brief Parse a toleration operator's Kubernetes spelling (case-sensitive).
 * @param[in] text "Equal", "Exists", "Lt", "Gt", or "" (Equal)
 * @param[out] out the kp_toleration_op; untouched on failure
 * @param[out] err optional error detail: field "", message `Unsupported
 *             value: "<text>": supported values: "Equal", "Exists", "Lt", "Gt"`
 * @return KP_OK or KP_EINVAL
 * @since 0.1
 * Thread-safety: safe.
 */
int kp_toleration_op_parse(const char *text, uint32_t *out, kp_error *err);

/**
 * @brief Whether a toleration tolerates a taint (core/v1 ToleratesTaint).
 *
 * A set effect must equal the taint's; a non-empty key must equal the
 * taint's; then Equal compares values, Exists accepts any value, Lt and Gt
 * compare the values as canonical decimal int64 ("0", or an optional '-'
 * and digits without leading zeros; anything else never matches). Unknown
 * operators never match. toleration_seconds does not take part. Does not
 * allocate.
 *
 * @param[in] toleration the toleration, or NULL (tolerates nothing)
 * @param[in] taint the taint, or NULL (never tolerated)
 * @return 1 if tolerated, 0 if not.
 * @since 0.1
 * Thread-safety: safe.
 */
int kp_toleration_tolerates(const kp_toleration *toleration, const kp_taint *taint);

/**
 * @brief Whether a toleration list tolerates every taint (Karpenter's
 *        Taints.Tolerates).
 *
 * Does not allocate. With @p err NULL it stops at the first untolerated
 * taint; otherwise it names all of them, each as upstream's error with its
 * structured value: `did not tolerate taint (taint=<key>[=<value>]:<effect>)`,
 * joined with "; " as multierr does; kp_error::field is "[i]", the index of
 * the first untolerated taint.
 *
 * @param[in] taints the taints (may be NULL if @p n_taints is 0)
 * @param[in] n_taints number of taints
 * @param[in] tolerations the tolerations (may be NULL if @p n_tolerations is 0)
 * @param[in] n_tolerations number of tolerations
 * @param[out] err optional error detail
 * @return KP_OK (all tolerated, including when there are no taints),
 *         KP_EINCOMPATIBLE, KP_EINVAL (NULL array with a non-zero count)
 * @since 0.1
 * Thread-safety: safe.
 */
int kp_taints_tolerates(const kp_taint *taints, size_t n_taints,
			const kp_toleration *tolerations, size_t n_tolerations, kp_error *err);

/**
 * @brief Whether two taints are the same taint (core/v1 MatchTaint): equal
 *        key and effect; values are ignored.
 * @return 1 or 0 (0 if either is NULL).
 * @since 0.1
 * Thread-safety: safe.
 */
int kp_taint_match(const kp_taint *a, const kp_taint *b);

/**
 * @brief Karpenter's KnownEphemeralTaints: taints expected to be removed
 *        while a node initialises.
 *
 * node.kubernetes.io/not-ready:NoSchedule, node.kubernetes.io/not-ready:NoExecute,
 * node.kubernetes.io/unreachable:NoSchedule,
 * node.cloudprovider.kubernetes.io/uninitialized=true:NoSchedule and
 * karpenter.sh/unregistered:NoExecute, in that order.
 *
 * @param[out] count receives the number of taints (may be NULL)
 * @return a static array.
 * @since 0.1
 * Ownership: static; never freed.
 * Thread-safety: safe.
 */
const kp_taint *kp_taints_known_ephemeral(size_t *count);

/**
 * @brief Whether a taint is a known ephemeral one (Karpenter's
 *        IsKnownEphemeralTaint).
 *
 * True when it matches (kp_taint_match: key and effect) an entry of
 * kp_taints_known_ephemeral, or when its key starts with
 * KP_TAINT_KEY_PREFIX_NODE_READINESS.
 *
 * @param[in] taint the taint, or NULL (not ephemeral)
 * @return 1 or 0.
 * @since 0.1
 * Thread-safety: safe.
 */
int kp_taint_is_known_ephemeral(const kp_taint *taint);

/**
 * @brief Format a taint as Karpenter prints it (pretty.Taint):
 *        `key=value:Effect`, or `key:Effect` when the value is empty.
 *
 * An effect that is not a kp_taint_effect is printed as its number.
 *
 * @param[in] taint the taint
 * @param[out] buf destination
 * @param[in] size size of @p buf
 * @return KP_OK, KP_EINVAL (NULL argument), KP_ERANGE (@p buf too small; it
 *         then holds "" if size > 0)
 * @since 0.1
 * Thread-safety: safe.
 */
int kp_taint_format(const kp_taint *taint, char *buf, size_t size);

/**
 * @brief Validate one taint as Kubernetes validates node taints.
 *
 * In order: field "key" (label key rules, message as kp_label_key_validate),
 * "value" (label value rules; all problems joined with ";"), "effect"
 * (`Required value` when NONE; `Unsupported value: <n>: supported values:
 * "NoSchedule", "PreferNoSchedule", "NoExecute"` when unknown).
 *
 * @param[in] taint the taint
 * @param[out] err optional error detail (the first problem)
 * @return KP_OK or KP_EINVAL
 * @since 0.1
 * Thread-safety: safe.
 */
int kp_taint_validate(const kp_taint *taint, kp_error *err);

/**
 * @brief Validate a taint list as Kubernetes validates a node's taints.
 *
 * Each taint as kp_taint_validate (fields "[i].key" and so on), then
 * uniqueness by key and effect: field "[i]", message `Duplicate value:
 * core.Taint{Key:"k", Value:"v", Effect:"NoSchedule", TimeAdded:<nil>}:
 * taints must be unique by key and effect pair` (a set time_added_ms is
 * printed as its number of ms where upstream prints a pointer).
 *
 * @param[in] taints the taints (may be NULL if @p n_taints is 0)
 * @param[in] n_taints number of taints
 * @param[out] err optional error detail (the first problem)
 * @return KP_OK or KP_EINVAL
 * @since 0.1
 * Thread-safety: safe.
 */
int kp_taints_validate(const kp_taint *taints, size_t n_taints, kp_error *err);

KP_END_DECLS

#endif /* KARPENTER_TAINTS_H */
