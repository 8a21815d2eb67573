/*
 * A state node's flags (state.h; upstream StateNode.Initialized and
 * StateNode.Deleted), for the snapshot and disruption alike.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <string.h>

#include <karpenter/labels.h>
#include <karpenter/resources.h>
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

int kp__state_capacity(kp_resource_list *out, const kp_node *node, const kp_nodeclaim *nc,
		       kp_error *err)
{
	const kp_resource_list *ncap = node && node->status ? &node->status->capacity : NULL;
	const kp_resource_list *ccap = nc && nc->status ? &nc->status->capacity : NULL;
	int rc = ncap ? kp_resources_copy(out, ncap, err) : KP_OK;
	if (rc || !ccap || kp__state_initialized(node, nc))
		return rc;
	for (size_t i = 0; i < ccap->count; i++) {
		kp_quantity q = KP_QUANTITY_ZERO;
		kp_resources_get(&q, out, ccap->items[i].name, NULL);
		if (kp_quantity_sign(&q) == 0 &&
		    (rc = kp_resources_set(out, ccap->items[i].name, &ccap->items[i].quantity, err)))
			return rc;
	}
	return KP_OK;
}
