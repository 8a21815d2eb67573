/*
 * lib/lifecycle: the status-only controllers. nodeclaim.podevents
 * (status.lastPodEventTime), nodeclaim.consistency (the NodeShape check and
 * ConsistentStateFound) and nodepool.counter (status.resources and
 * status.nodes), as upstream kubernetes-sigs/karpenter
 * pkg/controllers/nodeclaim/{podevents,consistency} and
 * pkg/controllers/nodepool/counter decide them.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdio.h>
#include <string.h>

#include <karpenter/wellknown.h>

#include "lifecycle_private.h"
#include "state/state.h"

#define POD_EVENT_DEDUPE_MS 10000
#define CONSISTENCY_SCAN_MS (10 * 60000)
#define COUNTER_REQUEUE_MS 5000

static int oom(kp_error *err)
{
	return kp__error(err, KP_ENOMEM, NULL, "out of memory");
}

static int status_update(kp_lifecycle_result *r, const char *ctrl, kp__ncv *v, const char *reason,
			 const char *msg, kp_error *err)
{
	kp__lc_act a = { 0 };
	a.verb = KP_LIFECYCLE_VERB_UPDATE_STATUS;
	a.kind = KP_KIND_NODECLAIM;
	a.controller = ctrl;
	a.namespace_ = v->meta.namespace_;
	a.name = v->meta.name;
	a.reason = reason;
	a.message = msg;
	a.object = &v->nc;
	return kp__lc_action(r, &a, err);
}

int kp__lc_pod_event(kp_lifecycle_result *r, const kp__lc_in *in, const kp_pod *pod, kp_error *err)
{
	int rc = KP_OK;
	if (rc)
		return rc;
	rc = kp__check_object(pod, pod ? pod->metadata : NULL, "Pod", err);
	if (rc || !pod->spec || !pod->spec->node_name || !*pod->spec->node_name ||
	    kp__pod_daemon(pod))
		return rc;
	const kp_node *node = kp__node_named(r, in, pod->spec->node_name);
	const kp_nodeclaim *nc = node ? kp__nodeclaim_for_node(r, in, node) : NULL;
	if (!nc || !kp__lc_manages(in, nc))
		return KP_OK;
	int64_t last = nc->status ? nc->status->last_pod_event_time_ms : 0;
	if (last && in->now_ms - last < POD_EVENT_DEDUPE_MS)
		return KP_OK;
	kp__ncv v;
	kp__ncv_init(&v, nc);
	v.status.last_pod_event_time_ms = in->now_ms;
	char *msg = kp__strdup_printf("pod %s/%s event on Node %s: lastPodEventTime moved",
				      pod->metadata->namespace_ ? pod->metadata->namespace_ : "",
				      pod->metadata->name, pod->spec->node_name);
	if (!msg)
		return oom(err);
	rc = status_update(r, KP_LIFECYCLE_CONTROLLER_NODECLAIM_PODEVENTS, &v,
			   KP__LCR_POD_EVENT, msg, err);
	kp__free(msg);
	return rc;
}

/* NodeShape: every requested resource at least 90% of the expected capacity. */
static int node_shape(kp_lifecycle_result *r, const kp_nodeclaim *nc, const kp_node *node,
		      int *issues, kp_error *err)
{
	const kp_resource_list *req = nc->spec && nc->spec->resources ? &nc->spec->resources->requests
								       : NULL;
	for (size_t i = 0; req && i < req->count; i++) {
		kp_quantity want = KP_QUANTITY_ZERO, have = KP_QUANTITY_ZERO;
		const char *name = req->items[i].name;
		if (kp_quantity_sign(&req->items[i].quantity) == 0 || !nc->status ||
		    kp_resources_get(&want, &nc->status->capacity, name, NULL) != KP_OK ||
		    kp_quantity_sign(&want) == 0)
			continue;
		if (node->status)
			kp_resources_get(&have, &node->status->capacity, name, NULL);
		double pct = kp_quantity_as_float64(&have) / kp_quantity_as_float64(&want);
		if (pct >= 0.90)
			continue;
		char w[KP_QUANTITY_STRING_MAX], h[KP_QUANTITY_STRING_MAX];
		kp_quantity_format(&want, w, sizeof(w));
		kp_quantity_format(&have, h, sizeof(h));
		char *msg = kp__strdup_printf("expected %s of resource %s, but found %s (%0.1f%% of "
					      "expected)", w, name, h, pct * 100);
		if (!msg)
			return oom(err);
		int rc = kp__lc_event(r, KP_KIND_NODECLAIM, nc->metadata->namespace_,
				      nc->metadata->name, "Warning", "FailedConsistencyCheck", msg, err);
		kp__free(msg);
		if (rc)
			return rc;
		(*issues)++;
	}
	return KP_OK;
}

/* The scan; *scanned = 0 when there is no single Node to compare. */
static int consistency(kp_lifecycle_result *r, const kp__lc_in *in,
		       const kp_nodeclaim *nc, int *scanned, kp_error *err)
{
	const kp_node *node = NULL;
	*scanned = kp__nodes_for_provider_id(r, in, nc->status->provider_id, &node) == 1;
	if (!*scanned)
		return KP_OK;
	int issues = 0;
	const kp_nodeclaim_status *s = nc->status;
	int rc = KP_OK;
	if (!nc->metadata->deletion_timestamp_ms &&
	    kp__cond_is(s->conditions, s->n_conditions, "Initialized", KP__COND_TRUE))
		rc = node_shape(r, nc, node, &issues, err);
	if (rc)
		return rc;
	kp__arena a = { 0 };
	kp__ncv v;
	kp__ncv_init(&v, nc);
	int ch = 0;
	if (issues)
		ch = kp__ncv_set(&a, &v, "ConsistentStateFound", KP__COND_FALSE,
				 "ConsistencyCheckFailed", "Consistency Check Failed", in->now_ms);
	else if (!kp__cond_is(s->conditions, s->n_conditions, "ConsistentStateFound", KP__COND_TRUE))
		ch = kp__ncv_set(&a, &v, "ConsistentStateFound", KP__COND_TRUE, "ConsistentStateFound",
				 "", in->now_ms);
	if (ch < 0)
		rc = oom(err);
	else if (ch)
		rc = status_update(r, KP_LIFECYCLE_CONTROLLER_NODECLAIM_CONSISTENCY, &v,
				   KP__LCR_CONSISTENCY,
				   issues ? "Consistency Check Failed" : "ConsistentStateFound=True", err);
	kp__arena_free(&a);
	return rc;
}

int kp__lc_nodeclaim_consistency(kp_lifecycle_result *r, const kp__lc_in *in,
				 const kp_nodeclaim *nc, kp_error *err)
{
	int rc = KP_OK;
	if (rc)
		return rc;
	rc = kp__check_object(nc, nc ? nc->metadata : NULL, "NodeClaim", err);
	if (rc || !nc->status || !nc->status->provider_id || !*nc->status->provider_id ||
	    !kp__lc_manages(in, nc))
		return rc;
	kp__lc_mark mark = kp__lc_mark_get(r);
	int scanned = 0;
	rc = consistency(r, in, nc, &scanned, err);
	if (rc == KP_OK && scanned)
		rc = kp__lc_requeue(r, KP_KIND_NODECLAIM, KP_LIFECYCLE_CONTROLLER_NODECLAIM_CONSISTENCY,
				    nc->metadata->namespace_, nc->metadata->name, CONSISTENCY_SCAN_MS,
				    err);
	if (rc)
		kp__lc_rollback(r, mark);
	return rc;
}

/* ------------------------------------------------------------------ */
/* nodepool.counter                                                    */

/* What a NodeClaim adds to its NodePool's counter (upstream's cluster
 * state: StateNode.Capacity, nothing while MarkedForDeletion); *counted 0
 * for a NodeClaim being deleted. */
static int add_capacity(const kp_lifecycle_result *r, const kp__lc_in *in,
			const kp_nodeclaim *nc, kp_resource_list *acc, int *counted, kp_error *err)
{
	const kp_node *node = NULL;
	if (!nc->status || kp__nodes_for_provider_id(r, in, nc->status->provider_id, &node) != 1)
		node = NULL;
	*counted = !kp__state_deleting(node, nc);
	if (!*counted)
		return KP_OK;
	kp_resource_list cap = KP_RESOURCE_LIST_INIT;
	int rc = kp__state_capacity(&cap, node, nc, err);
	if (rc == KP_OK)
		rc = kp_resources_add(acc, &cap, err);
	kp_resources_dispose(&cap);
	return rc;
}

static int count(const kp_lifecycle_result *r, const kp__lc_in *in, const char *pool,
		 kp_resource_list *acc, int64_t *nodes, kp_error *err)
{
	static const char *const base[] = { "cpu", "ephemeral-storage", "memory", "nodes", "pods" };
	kp_quantity zero = KP_QUANTITY_ZERO;
	for (size_t i = 0; i < 5; i++) {
		int rc = kp_resources_set(acc, base[i], &zero, err);
		if (rc)
			return rc;
	}
	*nodes = 0;
	kp__lc_iter it;
	kp__lc_iter_init(&it, r, in, KP__ITER_POOL_NODECLAIMS, pool);
	for (const kp_nodeclaim *nc; (nc = kp__lc_iter_next(&it)) != NULL;) {
		int counted = 0, rc = add_capacity(r, in, nc, acc, &counted, err);
		if (rc)
			return rc;
		*nodes += counted;
	}
	kp_quantity n;
	kp_quantity_from_scaled(&n, *nodes, 0, KP_QUANTITY_DECIMAL_SI);
	return kp_resources_set(acc, "nodes", &n, err);
}

static int same_resources(const kp_resource_list *a, const kp_resource_list *b)
{
	if (a->count != b->count)
		return 0;
	for (size_t i = 0; i < a->count; i++) {
		kp_quantity q;
		if (kp_resources_get(&q, b, a->items[i].name, NULL) != KP_OK ||
		    kp_quantity_cmp(&q, &a->items[i].quantity) != 0)
			return 0;
	}
	return 1;
}

int kp__lc_nodepool_counter(kp_lifecycle_result *r, const kp__lc_in *in, const kp_nodepool *np,
			    kp_error *err)
{
	int rc = KP_OK;
	if (rc)
		return rc;
	rc = kp__check_object(np, np ? np->metadata : NULL, "NodePool", err);
	if (rc || (in->provider && !kp_cloudprovider_manages(in->provider, np)))
		return rc;
	kp_resource_list acc = KP_RESOURCE_LIST_INIT;
	int64_t nodes = 0;
	kp__lc_mark mark = kp__lc_mark_get(r);
	rc = count(r, in, kp__meta_name(np->metadata), &acc, &nodes, err);
	const kp_nodepool_status *s = np->status;
	if (rc == KP_OK && !(s && s->has_nodes && s->nodes == nodes && same_resources(&acc, &s->resources))) {
		kp_nodepool_status st = KP_NODEPOOL_STATUS_INIT;
		if (s)
			kp__copy_sized(&st, s, sizeof(st));
		st.resources = acc;
		st.nodes = nodes;
		st.has_nodes = 1;
		kp_nodepool v;
		kp__copy_sized(&v, np, sizeof(v));
		v.status = &st;
		char msg[96]; /* two integers */
		snprintf(msg, sizeof(msg), "status.nodes %lld and status.resources from %lld NodeClaims",
			 (long long)nodes, (long long)nodes);
		kp__lc_act a = { 0 };
		a.verb = KP_LIFECYCLE_VERB_UPDATE_STATUS;
		a.kind = KP_KIND_NODEPOOL;
		a.controller = KP_LIFECYCLE_CONTROLLER_NODEPOOL_COUNTER;
		a.name = np->metadata->name;
		a.reason = KP__LCR_COUNTED;
		a.message = msg;
		a.object = &v;
		rc = kp__lc_action(r, &a, err);
	}
	kp_resources_dispose(&acc);
	if (rc)
		kp__lc_rollback(r, mark);
	return rc;
}
