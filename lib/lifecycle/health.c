/*
 * lib/lifecycle: node.health (node repair, behind the NodeRepair feature
 * gate): a Node whose condition matches one of the provider's repair
 * policies for longer than the policy tolerates has its NodeClaim deleted
 * at once (termination-timestamp annotation = now), unless more than 20%
 * of the NodePool's Nodes (of the cluster's, for a NodeClaim without a
 * NodePool) are unhealthy; as upstream kubernetes-sigs/karpenter
 * pkg/controllers/node/health.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdio.h>
#include <string.h>

#include <karpenter/timestamp.h>
#include <karpenter/wellknown.h>

#include "lifecycle_private.h"

#define CTRL KP_LIFECYCLE_CONTROLLER_NODE_HEALTH
#define BLOCKED_REQUEUE_MS (5 * 60000)

static const kp_condition *node_cond(const kp_node *node, const char *type)
{
	const kp_node_status *s = node->status;
	return s ? kp_condition_find(s->conditions, s->n_conditions, type) : NULL;
}

static int matches(const kp_condition *c, const kp_repair_policy *p)
{
	return c && c->status && p->condition_status && strcmp(c->status, p->condition_status) == 0;
}

/* The unhealthy condition that ends soonest, and its termination time. */
static const kp_condition *unhealthy(const kp_node *node, const kp_repair_policy *pol, size_t n,
				     int64_t *when_ms)
{
	const kp_condition *hit = NULL;
	for (size_t i = 0; i < n; i++) {
		const kp_condition *c = node_cond(node, pol[i].condition_type);
		if (!matches(c, &pol[i]))
			continue;
		int64_t lt = c->last_transition_time_ms, tol = pol[i].toleration_ms;
		int64_t t = tol > 0 && lt > INT64_MAX - tol ? INT64_MAX : lt + tol; /* saturated */
		if (!hit || t < *when_ms) {
			hit = c;
			*when_ms = t;
		}
	}
	return hit;
}

static int node_unhealthy(const kp_node *node, const kp_repair_policy *pol, size_t n)
{
	for (size_t j = 0; j < n; j++)
		if (matches(node_cond(node, pol[j].condition_type), &pol[j]))
			return 1;
	return 0;
}

/* More than 20% (rounded up) of the Nodes (of the NodePool when pool is
 * not NULL) are unhealthy? */
static int too_many_unhealthy(const kp_lifecycle_result *r, const kp__lc_in *in,
			      const char *pool, const kp_repair_policy *pol, size_t n)
{
	size_t total = 0, bad = 0;
	if (pool) {
		kp__lc_iter it;
		kp__lc_iter_init(&it, r, in, KP__ITER_POOL_NODES, pool);
		for (const kp_node *node; (node = kp__lc_iter_next(&it)) != NULL; total++)
			bad += (size_t)node_unhealthy(node, pol, n);
	} else {
		for (size_t i = 0; i < in->n_nodes; i++) {
			if (!in->nodes[i] || !in->nodes[i]->metadata)
				continue;
			total++;
			bad += (size_t)node_unhealthy(in->nodes[i], pol, n);
		}
	}
	size_t threshold = (total * 20 + 99) / 100;
	return bad > threshold;
}

static int annotate_now(kp_lifecycle_result *r, const kp__lc_in *in,
			const kp_nodeclaim *nc, kp_error *err)
{
	const char *v = kp_labels_get(&nc->metadata->annotations,
				      KP_ANNOTATION_NODECLAIM_TERMINATION_TIMESTAMP);
	int64_t t = 0;
	if (v && kp_time_parse_rfc3339(&t, v, NULL) == KP_OK && t < in->now_ms)
		return KP_OK;
	char now[KP_TIME_BUF_SIZE], msg[256]; /* a constant key and a time */
	kp_time_format_rfc3339(in->now_ms / 1000 * 1000, now, sizeof(now));
	kp__arena a = { 0 };
	kp__ncv view;
	kp__ncv_init(&view, nc);
	if (kp__labels_put(&a, &view.meta.annotations, KP_ANNOTATION_NODECLAIM_TERMINATION_TIMESTAMP,
			   now) < 0) {
		kp__arena_free(&a);
		return kp__error(err, KP_ENOMEM, NULL, "out of memory");
	}
	snprintf(msg, sizeof(msg), "annotated nodeclaim %s=%s: an unhealthy Node is repaired "
		 "without waiting for its pods", KP_ANNOTATION_NODECLAIM_TERMINATION_TIMESTAMP, now);
	kp__lc_act x = { 0 };
	x.verb = KP_LIFECYCLE_VERB_PATCH;
	x.kind = KP_KIND_NODECLAIM;
	x.controller = CTRL;
	x.namespace_ = nc->metadata->namespace_;
	x.name = nc->metadata->name;
	x.reason = KP__LCR_TERMINATION_GRACE;
	x.message = msg;
	x.object = &view.nc;
	int rc = kp__lc_action(r, &x, err);
	kp__arena_free(&a);
	return rc;
}

static int repair(kp_lifecycle_result *r, const kp__lc_in *in, const kp_node *node,
		  const kp_nodeclaim *nc, const kp_condition *c, kp_error *err)
{
	int rc = annotate_now(r, in, nc, err);
	if (rc || nc->metadata->deletion_timestamp_ms)
		return rc;
	char *msg = kp__strdup_printf("deleting unhealthy node: condition %s is %s", c->type,
				      c->status);
	if (!msg)
		return kp__error(err, KP_ENOMEM, NULL, "out of memory");
	const char *np = kp_labels_get(&node->metadata->labels, KP_LABEL_NODEPOOL);
	const char *ct = kp_labels_get(&node->metadata->labels, KP_LABEL_CAPACITY_TYPE);
	const char *labels[] = { "reason", "unhealthy", "nodepool", np ? np : "", "capacity_type",
				 ct ? ct : "", "consolidation_policy", "", "termination_mode",
				 kp__termination_mode(nc), NULL };
	kp__lc_act x = { 0 };
	x.verb = KP_LIFECYCLE_VERB_DELETE;
	x.kind = KP_KIND_NODECLAIM;
	x.controller = CTRL;
	x.namespace_ = nc->metadata->namespace_;
	x.name = nc->metadata->name;
	x.reason = KP__LCR_UNHEALTHY;
	x.message = msg;
	x.metric = "karpenter_nodeclaims_disrupted_total";
	x.metric_labels = labels;
	rc = kp__lc_action(r, &x, err);
	kp__free(msg);
	return rc;
}

static int health(kp_lifecycle_result *r, const kp__lc_in *in, const kp_node *node,
		  kp_error *err)
{
	const kp_nodeclaim *nc = kp__nodeclaim_for_node(r, in, node);
	const kp_repair_policy *pol = NULL;
	size_t n = 0;
	if (!nc || kp_cloudprovider_repair_policies(&pol, &n, in->provider, NULL) != KP_OK)
		return KP_OK;
	int64_t when = 0;
	const kp_condition *c = unhealthy(node, pol, n, &when);
	if (!c)
		return KP_OK;
	if (in->now_ms < when)
		return kp__lc_requeue(r, KP_KIND_NODE, CTRL, NULL, node->metadata->name,
				      when - in->now_ms, err);
	const char *pool = kp__nc_label(nc, KP_LABEL_NODEPOOL);
	if (too_many_unhealthy(r, in, *pool ? pool : NULL, pol, n)) {
		int rc = kp__lc_event(r, KP_KIND_NODE, NULL, node->metadata->name, "Warning",
				      "NodeRepairBlocked",
				      *pool ? "more than 20% nodes are unhealthy in the nodepool"
					    : "more then 20% nodes are unhealthy in the cluster",
				      err);
		return rc ? rc
			  : kp__lc_requeue(r, KP_KIND_NODE, CTRL, NULL, node->metadata->name,
					   BLOCKED_REQUEUE_MS, err);
	}
	return repair(r, in, node, nc, c, err);
}

int kp__lc_node_health(kp_lifecycle_result *r, const kp__lc_in *in, const kp_node *node,
		       kp_error *err)
{
	int rc = KP_OK;
	if (rc)
		return rc;
	rc = kp__check_object(node, node ? node->metadata : NULL, "Node", err);
	if (rc || !(in->feature_gates & KP_FEATURE_GATE_NODE_REPAIR) || !in->provider)
		return rc;
	kp__lc_mark mark = kp__lc_mark_get(r);
	rc = health(r, in, node, err);
	if (rc)
		kp__lc_rollback(r, mark);
	return rc;
}
