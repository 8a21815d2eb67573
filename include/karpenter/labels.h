/*
 * libkarpenter: label maps and Kubernetes label selectors (metav1.LabelSelector).
 *
 * Validation follows k8s.io/apimachinery: label keys are "qualified names"
 * (IsQualifiedName), label values follow IsValidLabelValue, and selectors
 * follow ValidateLabelSelector. Messages are apimachinery's own text. Where a
 * kp_error is filled, kp_error::field holds the field path and
 * kp_error::message holds what apimachinery's field.Error.ErrorBody() returns,
 * so that `field + ": " + message` is upstream's Error() string. A few
 * apimachinery messages are longer than kp_error::message; they are truncated
 * there, and the kp_label_*_problems functions return them whole.
 *
 * Strings inside the structs below may be NULL; the library reads NULL as "".
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef KARPENTER_LABELS_H
#define KARPENTER_LABELS_H

#include <karpenter/common.h>

KP_BEGIN_DECLS

/**
 * @brief One key/value pair of a label (or annotation) map.
 *
 * Plain value type with a fixed layout (it mirrors a map entry, which has
 * nothing to grow), so arrays of it are contiguous.
 * @since 0.1
 */
typedef struct kp_label {
	const char *key;   /**< label key, e.g. "topology.kubernetes.io/zone" */
	const char *value; /**< label value (may be "") */
} kp_label;

/**
 * @brief A label map: an array of distinct keys.
 *
 * Two ownership cases, as libgit2's git_strarray: a map the caller builds
 * (pointing at its own storage) is only ever read by the library; a map the
 * library fills (or that the caller starts as `{NULL, 0}` and grows with
 * kp_labels_set) owns its items and strings and is released with
 * kp_labels_dispose. Never pass a caller-built map to a function that grows
 * or disposes it.
 * @since 0.1
 */
typedef struct kp_labels {
	kp_label *items; /**< the pairs, sorted by key when library-filled */
	size_t count;    /**< number of pairs */
} kp_labels;

/** Static initializer for an empty map. */
#define KP_LABELS_INIT { NULL, 0 }

/** Longest name part of a label key (bytes). */
#define KP_LABEL_NAME_MAX_LEN 63
/** Longest label value (bytes). */
#define KP_LABEL_VALUE_MAX_LEN 63
/** Longest label key prefix (a DNS-1123 subdomain, bytes). */
#define KP_LABEL_PREFIX_MAX_LEN 253
/** Most problems kp_label_key_problems or kp_label_value_problems report. */
#define KP_LABEL_MAX_PROBLEMS 4

/**
 * @brief Value of a key in a label map.
 *
 * Works on caller-built maps too (which need not be sorted).
 *
 * @param[in] labels the map, or NULL (an empty map)
 * @param[in] key the key, or NULL (never present)
 * @return the value, borrowed from @p labels, or NULL if the key is absent.
 * @since 0.1
 * Ownership: the result is valid until @p labels changes.
 * Thread-safety: safe on a map no thread is changing.
 */
const char *kp_labels_get(const kp_labels *labels, const char *key);

/**
 * @brief Insert or replace a pair in a library-owned map.
 *
 * Copies @p key and @p value. Items stay sorted by key (byte order). Keys
 * are not validated: the same maps hold annotations.
 *
 * @param[in,out] labels a library-owned map (possibly `KP_LABELS_INIT`)
 * @param[in] key the key (not NULL)
 * @param[in] value the value, NULL meaning ""
 * @param[out] err optional error detail
 * @return KP_OK, KP_EINVAL (NULL map or key), KP_ENOMEM (map unchanged)
 * @since 0.1
 * Ownership: the map owns the copies; release with kp_labels_dispose.
 * Thread-safety: one thread at a time per map.
 */
int kp_labels_set(kp_labels *labels, const char *key, const char *value, kp_error *err);

/**
 * @brief Remove a key from a library-owned map.
 * @param[in,out] labels a library-owned map
 * @param[in] key the key
 * @param[out] err optional error detail
 * @return KP_OK (removed), KP_ENOTFOUND (absent; map unchanged),
 *         KP_EINVAL (NULL map or key)
 * @since 0.1
 * Ownership: the removed strings are freed.
 * Thread-safety: one thread at a time per map.
 */
int kp_labels_remove(kp_labels *labels, const char *key, kp_error *err);

/**
 * @brief Deep-copy any map (caller-built or not) into a new library-owned map.
 *
 * The copy is sorted by key.
 *
 * @param[out] out overwritten (not disposed first) with the copy; untouched
 *             on failure
 * @param[in] src the map to copy, or NULL (gives an empty map)
 * @param[out] err optional error detail
 * @return KP_OK, KP_EINVAL (NULL @p out, NULL items with a non-zero count,
 *         a NULL key, or a duplicate key: "Duplicate value: \"k\"" with
 *         field "[i]", the index of the later copy in @p src), KP_ENOMEM
 * @since 0.1
 * Ownership: release @p out with kp_labels_dispose.
 * Thread-safety: safe on a source no thread is changing.
 */
int kp_labels_copy(kp_labels *out, const kp_labels *src, kp_error *err);

/**
 * @brief Free a library-owned map's items and strings and reset it to empty.
 * @param[in,out] labels the map, or NULL (no-op)
 * @since 0.1
 * Thread-safety: one thread at a time per map.
 */
void kp_labels_dispose(kp_labels *labels);

/**
 * @brief Problems apimachinery's IsQualifiedName finds in a label key.
 *
 * Rules: an optional prefix (a lowercase DNS-1123 subdomain of at most 253
 * bytes) and '/', then a name of 1 to 63 bytes matching
 * `([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]`. Does not allocate.
 *
 * @param[in] key the key (NULL reads as "")
 * @param[out] problems receives up to @p cap static, NUL-terminated messages
 *             in upstream's order (e.g. "name part must be non-empty"); may
 *             be NULL when @p cap is 0
 * @param[in] cap capacity of @p problems; KP_LABEL_MAX_PROBLEMS always suffices
 * @return the number of problems (0 = valid), which may exceed @p cap.
 * @since 0.1
 * Ownership: the messages are static.
 * Thread-safety: safe.
 */
size_t kp_label_key_problems(const char *key, const char **problems, size_t cap);

/**
 * @brief Problems apimachinery's IsValidLabelValue finds in a label value.
 *
 * Rules: empty, or at most 63 bytes matching
 * `([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]`. Does not allocate.
 *
 * @param[in] value the value (NULL reads as "")
 * @param[out] problems as for kp_label_key_problems
 * @param[in] cap capacity of @p problems
 * @return the number of problems (0 = valid).
 * @since 0.1
 * Ownership: the messages are static.
 * Thread-safety: safe.
 */
size_t kp_label_value_problems(const char *value, const char **problems, size_t cap);

/**
 * @brief Validate a label key (metav1 validation.ValidateLabelName).
 * @param[in] key the key
 * @param[out] err optional error detail: field "", message
 *             `Invalid value: "<key>": <first problem>`
 * @return KP_OK or KP_EINVAL
 * @since 0.1
 * Thread-safety: safe.
 */
int kp_label_key_validate(const char *key, kp_error *err);

/**
 * @brief Validate a label value (IsValidLabelValue).
 * @param[in] value the value
 * @param[out] err optional error detail: field "", message
 *             `Invalid value: "<value>": <first problem>`
 * @return KP_OK or KP_EINVAL
 * @since 0.1
 * Thread-safety: safe.
 */
int kp_label_value_validate(const char *value, kp_error *err);

/**
 * @brief Validate every key and value of a map (metav1 validation.ValidateLabels).
 *
 * Reports the first problem in item order, with field "": upstream's path
 * names the map, not the key, so the caller adds the map's path.
 *
 * @param[in] labels the map, or NULL (valid)
 * @param[out] err optional error detail
 * @return KP_OK or KP_EINVAL
 * @since 0.1
 * Thread-safety: safe.
 */
int kp_labels_validate(const kp_labels *labels, kp_error *err);

/**
 * @brief Operators of a label selector requirement (metav1.LabelSelectorOperator).
 *
 * Zero is deliberately not an operator, so that a forgotten field is caught
 * by validation instead of meaning "In".
 */
enum kp_label_selector_op {
	KP_LABEL_SELECTOR_OP_IN = 1,            /**< "In" */
	KP_LABEL_SELECTOR_OP_NOT_IN = 2,        /**< "NotIn" */
	KP_LABEL_SELECTOR_OP_EXISTS = 3,        /**< "Exists" */
	KP_LABEL_SELECTOR_OP_DOES_NOT_EXIST = 4 /**< "DoesNotExist" */
};

/**
 * @brief One requirement of a label selector (metav1.LabelSelectorRequirement).
 *
 * Fixed layout, no struct_size: it mirrors a Kubernetes type that is frozen
 * in the stable v1 API, so it is used in contiguous arrays and embedded.
 * The member is named `op` because `operator` is a C++ keyword.
 * @since 0.1
 */
typedef struct kp_label_selector_requirement {
	const char *key;           /**< label key */
	uint32_t op;               /**< a kp_label_selector_op */
	uint32_t reserved;         /**< zero */
	const char *const *values; /**< values for In/NotIn, may be NULL if n_values is 0 */
	size_t n_values;           /**< number of values */
} kp_label_selector_requirement;

/**
 * @brief A label selector (metav1.LabelSelector), filled by the caller.
 *
 * Fixed layout for the same reason as kp_label_selector_requirement. The
 * library only reads it. A zeroed selector is empty and matches everything.
 * @since 0.1
 */
typedef struct kp_label_selector {
	kp_labels match_labels; /**< key == value requirements */
	const kp_label_selector_requirement *match_expressions; /**< contiguous array */
	size_t n_match_expressions; /**< number of match_expressions */
} kp_label_selector;

/** Static initializer for an empty selector (matches everything). */
#define KP_LABEL_SELECTOR_INIT { KP_LABELS_INIT, NULL, 0 }

/**
 * @brief Kubernetes spelling of a selector operator.
 * @param[in] op a kp_label_selector_op
 * @return "In", "NotIn", "Exists", "DoesNotExist", or "Unknown" for other
 *         values (never NULL; the convention of every `_name`, CONVENTIONS.md).
 * @since 0.1
 * Ownership: static string.
 * Thread-safety: safe.
 */
const char *kp_label_selector_op_name(uint32_t op);

/**
 * @brief Parse a selector operator's Kubernetes spelling (case-sensitive).
 * @param[in] text e.g. "NotIn"
 * @param[out] out the kp_label_selector_op; untouched on failure
 * @param[out] err optional error detail: field "", message
 *             `Invalid value: "<text>": not a valid selector operator`
 * @return KP_OK or KP_EINVAL
 * @since 0.1
 * Thread-safety: safe.
 */
int kp_label_selector_op_parse(const char *text, uint32_t *out, kp_error *err);

/**
 * @brief Whether a selector matches a label map, as Kubernetes decides it.
 *
 * Semantics of metav1.LabelSelectorAsSelector followed by Selector.Matches:
 * a NULL selector matches nothing; a selector with no labels and no
 * expressions matches everything; otherwise every requirement must hold:
 * match_labels entries and In need the key present with one of the values,
 * NotIn holds when the key is absent or its value is not listed, Exists
 * needs the key, DoesNotExist its absence. A selector that
 * kp_label_selector_validate rejects matches nothing (Kubernetes fails to
 * build it; Karpenter then uses labels.Nothing()). Does not allocate.
 *
 * @param[in] selector the selector, or NULL
 * @param[in] labels the labels, or NULL (an empty map)
 * @return 1 if it matches, 0 if not.
 * @since 0.1
 * Thread-safety: safe.
 */
int kp_label_selector_matches(const kp_label_selector *selector, const kp_labels *labels);

/**
 * @brief Validate a selector as metav1 validation.ValidateLabelSelector does.
 *
 * Checks match_labels (keys and values), then each expression: In/NotIn need
 * values ("matchExpressions[i].values", `Required value: must be specified
 * when `operator` is 'In' or 'NotIn'`), Exists/DoesNotExist take none
 * (`Forbidden: may not be specified when `operator` is 'Exists' or
 * 'DoesNotExist'`), the operator must be known ("matchExpressions[i].operator",
 * `Invalid value: <op>: not a valid selector operator`, 0 shown as ""), then
 * the key and each value ("matchExpressions[i].values[j]"). Reports the first
 * problem in that order.
 *
 * @param[in] selector the selector, or NULL (valid, as upstream)
 * @param[out] err optional error detail
 * @return KP_OK or KP_EINVAL
 * @since 0.1
 * Thread-safety: safe.
 */
int kp_label_selector_validate(const kp_label_selector *selector, kp_error *err);

KP_END_DECLS

#endif /* KARPENTER_LABELS_H */
