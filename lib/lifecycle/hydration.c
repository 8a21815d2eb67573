/*
 * lib/lifecycle: nodeclaim.hydration and node.hydration: the node class
 * label (group/lowercased kind = the nodeClassRef's name) on the NodeClaim
 * and on its Node, as upstream kubernetes-sigs/karpenter
 * pkg/controllers/{nodeclaim,node}/hydration.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "lifecycle_private.h"

#define KEY_MAX 512

/* v1.NodeClassLabelKey: "<group>/<lowercased kind>"; 0 without a ref. */
static int nodeclass_label(const kp_nodeclaim *nc, char *key, size_t size, const char **value)
{
	const kp_node_class_reference *ref = nc->spec ? nc->spec->node_class_ref : NULL;
	if (!ref || !ref->kind || !ref->name)
		return 0;
	int len = snprintf(key, size, "%s/%s", ref->group ? ref->group : "", ref->kind);
	if (len < 0 || (size_t)len >= size)
		return 0;
	for (size_t i = strlen(ref->group ? ref->group : "") + 1; key[i]; i++)
		key[i] = (char)tolower((unsigned char)key[i]);
	*value = ref->name;
	return 1;
}

static int managed(const kp_lifecycle_input *in, const kp_nodeclaim *nc)
{
	return !in->provider || kp_cloudprovider_manages_nodeclaim(in->provider, nc);
}

KP_EXPORT int kp_lifecycle_nodeclaim_hydration(kp_lifecycle_result *r,
					       const kp_lifecycle_input *in,
					       const kp_nodeclaim *nc, kp_error *err)
{
	int rc = kp__lc_check_input(r, in, err);
	if (rc == KP_OK)
		rc = kp__check_object(nc, nc ? nc->metadata : NULL, "NodeClaim", err);
	char key[KEY_MAX];
	const char *value = NULL;
	if (rc || !managed(in, nc) || !nodeclass_label(nc, key, sizeof(key), &value))
		return rc;
	kp__lc_arena a = { 0 };
	kp__ncv v;
	kp__ncv_init(&v, nc);
	int ch = kp__labels_put(&a, &v.meta.labels, key, value);
	if (ch < 0)
		rc = kp__error(err, KP_ENOMEM, NULL, "out of memory");
	if (ch > 0) {
		char msg[KEY_MAX + 64];
		snprintf(msg, sizeof(msg), "labelled %s=%s", key, value);
		kp__lc_act x = { 0 };
		x.verb = KP_LIFECYCLE_VERB_PATCH;
		x.kind = KP_KIND_NODECLAIM;
		x.controller = KP_LIFECYCLE_CONTROLLER_NODECLAIM_HYDRATION;
		x.namespace_ = nc->metadata->namespace_;
		x.name = nc->metadata->name;
		x.reason = KP_LIFECYCLE_REASON_HYDRATED;
		x.message = msg;
		x.object = &v.nc;
		rc = kp__lc_action(r, &x, err);
	}
	kp__lc_arena_free(&a);
	return rc;
}

static const kp_nodeclaim *nodeclaim_for(const kp_lifecycle_input *in, const kp_node *node)
{
	const char *pid = node->spec ? node->spec->provider_id : NULL;
	const kp_nodeclaim *hit = NULL;
	for (size_t i = 0; pid && *pid && i < in->n_nodeclaims; i++) {
		const kp_nodeclaim *nc = in->nodeclaims[i];
		if (nc && nc->metadata && nc->status && nc->status->provider_id &&
		    strcmp(nc->status->provider_id, pid) == 0) {
			if (hit)
				return NULL;
			hit = nc;
		}
	}
	return hit;
}

KP_EXPORT int kp_lifecycle_node_hydration(kp_lifecycle_result *r, const kp_lifecycle_input *in,
					  const kp_node *node, kp_error *err)
{
	int rc = kp__lc_check_input(r, in, err);
	if (rc == KP_OK)
		rc = kp__check_object(node, node ? node->metadata : NULL, "Node", err);
	if (rc)
		return rc;
	const kp_nodeclaim *nc = nodeclaim_for(in, node);
	char key[KEY_MAX];
	const char *value = NULL;
	if (!nc || !managed(in, nc) || !nodeclass_label(nc, key, sizeof(key), &value))
		return KP_OK;
	kp__lc_arena a = { 0 };
	kp_node v;
	kp_object_meta m;
	kp__copy_sized(&v, node, sizeof(v));
	kp__copy_sized(&m, node->metadata, sizeof(m));
	v.metadata = &m;
	int ch = kp__labels_put(&a, &m.labels, key, value);
	if (ch < 0)
		rc = kp__error(err, KP_ENOMEM, NULL, "out of memory");
	if (ch > 0) {
		char msg[KEY_MAX + 64];
		snprintf(msg, sizeof(msg), "labelled %s=%s", key, value);
		kp__lc_act x = { 0 };
		x.verb = KP_LIFECYCLE_VERB_PATCH;
		x.kind = KP_KIND_NODE;
		x.controller = KP_LIFECYCLE_CONTROLLER_NODE_HYDRATION;
		x.name = node->metadata->name;
		x.reason = KP_LIFECYCLE_REASON_HYDRATED;
		x.message = msg;
		x.object = &v;
		rc = kp__lc_action(r, &x, err);
	}
	kp__lc_arena_free(&a);
	return rc;
}
