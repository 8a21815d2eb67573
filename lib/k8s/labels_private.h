/*
 * libkarpenter private: label-key checks other modules need without building
 * the key into a buffer first.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef KP_K8S_LABELS_PRIVATE_H
#define KP_K8S_LABELS_PRIVATE_H

#include <stddef.h>

/*
 * The problems of the label key prefix "/" name (apimachinery's
 * IsQualifiedName, the messages of kp_label_key_problems) without building
 * it: prefix[0..prefix_len) and name[0..name_len) need no NUL and may be of
 * any length. The answer for a name is the answer for its lowercase (so
 * for upstream's NodeClaim label key of a nodeClassRef, group "/"
 * strings.ToLower(kind), pass the kind as written): letter case never
 * changes whether a byte is allowed, and lowercasing keeps a valid name's
 * length. A '/' inside either part is the "a valid label key ..." problem,
 * as the built key would have two slashes. Fills up to cap problems (static
 * strings) and returns how many there are: 0 = valid.
 */
size_t kp__label_key_parts_problems(const char *prefix, size_t prefix_len, const char *name,
				    size_t name_len, const char **problems, size_t cap);

#endif /* KP_K8S_LABELS_PRIVATE_H */
