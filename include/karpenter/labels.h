/*
 * libkarpenter: label maps and Kubernetes label selectors (metav1.LabelSelector).
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

KP_END_DECLS

#endif /* KARPENTER_LABELS_H */
