/*
 * lib/lifecycle private: a result's actions and requeues per object, as
 * the document and the text output present them (grouping.c). Written
 * against the public accessors only, so kubectl-karpenter compiles
 * grouping.c into its commands for its text output, as it compiles
 * lib/common/map.c: one rule for the document (kp_lifecycle_result_write)
 * and the text.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef KP_LIFECYCLE_GROUPING_H
#define KP_LIFECYCLE_GROUPING_H

#include <stddef.h>

#include <karpenter/duration.h>
#include <karpenter/lifecycle.h>

/*
 * The requeues of @p r, one per object (kind, namespace, name; NULL as "")
 * and controller: the earliest of its requeues (the first of equal ones),
 * in the order of each one's first requeue. @p out has room for
 * kp_lifecycle_result_requeue_count(r) entries; *n gets how many are
 * filled. Linear. KP_OK or KP_ENOMEM.
 */
int kp__lc_requeues_earliest(const kp_lifecycle_result *r, const kp_lifecycle_requeue **out,
			     size_t *n);

/*
 * The actions of @p r grouped by object (kind, namespace, name), objects
 * in the order of their first action, each object's actions in the
 * result's order: @p order (room for kp_lifecycle_result_action_count(r))
 * gets the action indices so, and @p first (as much room; may be NULL)
 * 1 where an object's first action is, else 0. Linear. KP_OK or
 * KP_ENOMEM.
 */
int kp__lc_actions_by_object(const kp_lifecycle_result *r, size_t *order, unsigned char *first);

/* Room for a requeue's delay as text. */
#define KP__LC_AFTER_MAX KP_DURATION_STRING_MAX

/* A requeue's delay as Go prints a time.Duration ("1h0m0s"); a delay
 * beyond its range (a clock centuries before the objects' times)
 * saturates, as time.Until does upstream. */
void kp__lc_requeue_after(int64_t after_ms, char buf[KP__LC_AFTER_MAX]);

#endif
