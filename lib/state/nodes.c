/*
 * A state node's flags (state.h; upstream StateNode.Initialized and
 * StateNode.Deleted), for the snapshot and disruption alike.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <string.h>

#include <karpenter/labels.h>
#include <karpenter/wellknown.h>

#include "state.h"

int kp__state_initialized(const kp_node *node, const kp_nodeclaim *nc)
{
	if (!nc)
		return 1; /* a Node Karpenter does not manage */
	const char *v = node && node->metadata
				? kp_labels_get(&node->metadata->labels, KP_LABEL_NODE_INITIALIZED)
				: NULL;
	return v && strcmp(v, "true") == 0;
}

int kp__state_deleting(const kp_node *node, const kp_nodeclaim *nc)
{
	if (nc) {
		if (nc->metadata && nc->metadata->deletion_timestamp_ms)
			return 1;
		const kp_condition *t =
			nc->status ? kp_condition_find(nc->status->conditions, nc->status->n_conditions,
						       "InstanceTerminating")
				   : NULL;
		return t && t->status && strcmp(t->status, "True") == 0;
	}
	return node && node->metadata && node->metadata->deletion_timestamp_ms;
}
