/*
 * libkarpenter: kp_cluster_describe, what a compiled snapshot holds, for
 * people debugging a placement: the NodePools in the order they are tried
 * and whether each can provision, the reservations of reserved offerings
 * and their instances left, the existing nodes in the order they are
 * tried with their state, and the pods by state with every ignored pod and
 * why.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <string.h>

#include "sched_private.h"

static const char *ignored_why(uint32_t why)
{
	switch (why) {
	case SC_IGNORED_TERMINAL: return "terminal (Succeeded or Failed)";
	case SC_IGNORED_UNKNOWN_NODE: return "bound to a node that is not in the snapshot";
	case SC_IGNORED_DAEMON: return "a DaemonSet's pod (counted as daemon overhead)";
	case SC_IGNORED_MIRROR: return "a static pod's mirror";
	case SC_IGNORED_PREEMPTING: return "nominated to a node (preempting)";
	default: return "not considered";
	}
}

static void describe_pools(sc_buf *b, const struct kp_cluster *c)
{
	kp__buf_printf(b, "nodepools (in the order they are tried):\n");
	for (size_t k = 0; k < c->n_pools; k++) {
		const sc_pool *p = &c->pools[c->pool_order[k]];
		kp__buf_printf(b, "  %s: weight %d, ", p->name, (int)p->weight);
		if (p->usable)
			kp__buf_printf(b, "usable, %zu instance types\n", p->n_opts);
		else
			kp__buf_printf(b, "not usable: %s: %s\n", kp_sched_reason_code_name(p->unusable_code),
				     p->unusable_msg ? p->unusable_msg : "");
	}
}

/* The reservations of the reserved offerings, with the instances a
 * simulation starts from (none listed when there are none). */
static void describe_reservations(sc_buf *b, const struct kp_cluster *c)
{
	if (!c->n_resv)
		return;
	kp__buf_printf(b, "reservations (instances left):\n");
	for (size_t r = 0; r < c->n_resv; r++)
		kp__buf_printf(b, "  %s: %lld%s%s\n", c->resv_ids[r][0] ? c->resv_ids[r] : "(no ID)",
			       (long long)c->resv_cap[r], c->resv_keys[r] ? ", label " : "",
			       c->resv_keys[r] ? c->resv_keys[r] : "");
}

static void describe_nodes(sc_buf *b, const struct kp_cluster *c)
{
	kp__buf_printf(b, "nodes (in the order they are tried):\n");
	for (size_t i = 0; i < c->n_nodes; i++) {
		const sc_node *n = &c->nodes[i];
		kp__buf_printf(b, "  %s: ", n->name);
		if (n->pool >= 0)
			kp__buf_printf(b, "NodePool %s, ", c->pools[n->pool].name);
		kp__buf_printf(b, "%s, %s%s%s, %zu bound pods\n", n->managed ? "managed" : "unmanaged",
			     n->initialized ? "initialized" : "not initialized",
			     n->deleting ? ", deleting" : "", n->inflight ? ", in flight" : "",
			     n->n_pods);
	}
}

static void describe_pods(sc_buf *b, const struct kp_cluster *c)
{
	size_t pending = 0, bound = 0, resched = 0, daemon = 0, ignored = 0;
	for (size_t i = 0; i < c->n_pods; i++) {
		uint32_t st = c->pods[i].state;
		pending += (st & SC_POD_PENDING) != 0;
		bound += (st & SC_POD_BOUND) != 0;
		resched += (st & SC_POD_RESCHEDULABLE) != 0;
		daemon += (st & SC_POD_DAEMON) != 0;
		ignored += (st & SC_POD_IGNORED) != 0;
	}
	kp__buf_printf(b, "pods: %zu pending, %zu bound (%zu reschedulable), %zu of DaemonSets, "
			"%zu ignored\n", pending, bound, resched, daemon, ignored);
	/* In the caller's order, as results are. */
	for (size_t k = 0; k < c->n_pods; k++) {
		const sc_pod *p = &c->pods[c->pod_at_spec[k]];
		if (p->state & SC_POD_IGNORED)
			kp__buf_printf(b, "  ignored %s/%s: %s\n", p->ns, p->name, ignored_why(p->ignored_why));
	}
}

KP_EXPORT int kp_cluster_describe(char **out, const kp_cluster *cluster, kp_error *err)
{
	if (out)
		*out = NULL;
	if (!out || !cluster)
		return kp__error(err, KP_EINVAL, NULL, "NULL argument");
	sc_buf b = { 0 };
	kp__buf_printf(&b, "snapshot: %zu NodePools, %zu nodes, %zu pods in %zu classes, "
			 "%zu topology groups\n", cluster->n_pools, cluster->n_nodes, cluster->n_pods,
		     cluster->n_classes, kp__topo_group_count(cluster));
	describe_pools(&b, cluster);
	describe_reservations(&b, cluster);
	describe_nodes(&b, cluster);
	describe_pods(&b, cluster);
	*out = kp__buf_take(&b, NULL);
	return *out ? KP_OK : kp__error(err, KP_ENOMEM, NULL, "out of memory");
}

KP_EXPORT void kp_cluster_description_free(char *text)
{
	kp__free(text);
}
