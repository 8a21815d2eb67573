/*
 * lib/lifecycle: nodeclaim.hydration and node.hydration: the node class
 * label (group/lowercased kind = the nodeClassRef's name) on the NodeClaim
 * and on its Node, as upstream kubernetes-sigs/karpenter
 * pkg/controllers/{nodeclaim,node}/hydration.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <string.h>

#include "lifecycle_private.h"

/* v1.NodeClassLabelKey of the NodeClaim's class in *key (arena) and the
 * class name in *value: 1, 0 without a ref, -1 out of memory. */
static int nodeclass_label(kp__arena *a, const kp_nodeclaim *nc, const char **key,
			   const char **value)
{
	const kp_node_class_reference *ref = nc->spec ? nc->spec->node_class_ref : NULL;
	if (!ref || !ref->kind || !ref->name)
		return 0;
	*key = kp__nodeclass_label_key(a, ref->group, ref->kind);
	*value = ref->name;
	return *key ? 1 : -1;
}

/* Label the object (meta is the view's) and list the patch when it changed. */
static int label_object(kp_lifecycle_result *r, kp__arena *a, const kp_nodeclaim *nc,
			kp_object_meta *meta, const void *object, uint32_t kind,
			const char *controller, kp_error *err)
{
	const char *key = NULL, *value = NULL;
	int ch = nodeclass_label(a, nc, &key, &value);
	if (ch > 0)
		ch = kp__labels_put(a, &meta->labels, key, value);
	if (ch <= 0)
		return ch < 0 ? kp__error(err, KP_ENOMEM, NULL, "out of memory") : KP_OK;
	char *msg = kp__strdup_printf("labelled %s=%s", key, value);
	if (!msg)
		return kp__error(err, KP_ENOMEM, NULL, "out of memory");
	kp__lc_act x = { 0 };
	x.verb = KP_LIFECYCLE_VERB_PATCH;
	x.kind = kind;
	x.controller = controller;
	x.namespace_ = kind == KP_KIND_NODECLAIM ? meta->namespace_ : NULL;
	x.name = meta->name;
	x.reason = KP__LCR_HYDRATED;
	x.message = msg;
	x.object = object;
	int rc = kp__lc_action(r, &x, err);
	kp__free(msg);
	return rc;
}

int kp__lc_nodeclaim_hydration(kp_lifecycle_result *r, const kp__lc_in *in, const kp_nodeclaim *nc,
			       kp_error *err)
{
	int rc = KP_OK;
	if (rc == KP_OK)
		rc = kp__check_object(nc, nc ? nc->metadata : NULL, "NodeClaim", err);
	if (rc || !kp__lc_manages(in, nc))
		return rc;
	kp__arena a = { 0 };
	kp__ncv v;
	kp__ncv_init(&v, nc);
	rc = label_object(r, &a, nc, &v.meta, &v.nc, KP_KIND_NODECLAIM,
			  KP_LIFECYCLE_CONTROLLER_NODECLAIM_HYDRATION, err);
	kp__arena_free(&a);
	return rc;
}

int kp__lc_node_hydration(kp_lifecycle_result *r, const kp__lc_in *in, const kp_node *node,
			  kp_error *err)
{
	int rc = KP_OK;
	if (rc == KP_OK)
		rc = kp__check_object(node, node ? node->metadata : NULL, "Node", err);
	if (rc)
		return rc;
	const kp_nodeclaim *nc = kp__nodeclaim_for_node(r, in, node);
	if (!nc || !kp__lc_manages(in, nc))
		return KP_OK;
	kp__arena a = { 0 };
	kp_node v;
	kp_object_meta m;
	kp__copy_sized(&v, node, sizeof(v));
	kp__copy_sized(&m, node->metadata, sizeof(m));
	v.metadata = &m;
	rc = label_object(r, &a, nc, &m, &v, KP_KIND_NODE, KP_LIFECYCLE_CONTROLLER_NODE_HYDRATION,
			  err);
	kp__arena_free(&a);
	return rc;
}
