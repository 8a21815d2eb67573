/*
 * The scheduling simulation, part 2: existing nodes and in-flight
 * NodeClaims (upstream ExistingNode, state.StateNode), removed and deleting
 * nodes (consolidation's question), daemon resources still to come, host
 * ports of bound pods, NodePool limits used by existing nodes.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched_harness.h"

#define NODEPOOL(name)                                                                             \
	"apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: " name "}\nspec:\n"           \
	"  template:\n    spec:\n      nodeClassRef: {group: karpenter.kwok.sh, kind: "             \
	"KWOKNodeClass, name: default}\n      requirements: []\n---\n"

#define POD(name, cpu)                                                                             \
	"apiVersion: v1\nkind: Pod\nmetadata: {name: " name ", uid: " name "}\nspec:\n"             \
	"  containers: [{name: c, resources: {requests: {cpu: \"" cpu "\"}}}]\n---\n"

#define BOUND(name, node, cpu)                                                                     \
	"apiVersion: v1\nkind: Pod\nmetadata: {name: " name ", uid: " name "}\nspec:\n  nodeName: " \
	node "\n  containers: [{name: c, resources: {requests: {cpu: \"" cpu "\"}}}]\n"           \
	"status: {phase: Running}\n---\n"

/* An unmanaged node (no NodeClaim) with 4 cpu. */
#define NODE(name, zone, extra_labels)                                                             \
	"apiVersion: v1\nkind: Node\nmetadata:\n  name: " name "\n  labels: {kubernetes.io/hostname: " \
	name ", topology.kubernetes.io/zone: " zone ", kubernetes.io/arch: amd64" extra_labels "}\n" \
	"spec: {providerID: \"kwok://" name "\"}\nstatus:\n  capacity: {cpu: \"4\", memory: 8Gi, "   \
	"pods: \"20\"}\n  allocatable: {cpu: \"4\", memory: 8Gi, pods: \"20\"}\n---\n"

/* A managed node and its NodeClaim (registered; initialized when init = "true"). */
#define MANAGED(name, init, nc_extra)                                                              \
	"apiVersion: v1\nkind: Node\nmetadata:\n  name: " name "\n  labels: {kubernetes.io/hostname: " \
	name ", topology.kubernetes.io/zone: test-zone-a, karpenter.sh/nodepool: default, "        \
	"karpenter.sh/registered: \"true\", karpenter.sh/initialized: \"" init "\", "              \
	"node.kubernetes.io/instance-type: medium}\nspec: {providerID: \"kwok://" name "\"}\n"     \
	"status:\n  capacity: {cpu: \"4\", memory: 8Gi, pods: \"20\"}\n  allocatable: {cpu: \"4\", "  \
	"memory: 8Gi, pods: \"20\"}\n---\napiVersion: karpenter.sh/v1\nkind: NodeClaim\nmetadata:\n" \
	"  name: nc-" name "\n" nc_extra "  labels: {karpenter.sh/nodepool: default}\nspec:\n"      \
	"  nodeClassRef: {group: karpenter.kwok.sh, kind: KWOKNodeClass, name: default}\n"           \
	"  requirements: []\nstatus:\n  providerID: \"kwok://" name "\"\n  capacity: {cpu: \"4\", "  \
	"memory: 8Gi, pods: \"20\"}\n  allocatable: {cpu: \"4\", memory: 8Gi, pods: \"20\"}\n---\n"

static h_scenario sc;

static void teardown(void)
{
	h_free(&sc);
}

START_TEST(existing_node_first)
{
	h_load(&sc, NODEPOOL("default") NODE("node-a", "test-zone-a", "") POD("p", "1"), NULL);
	h_run(&sc, NULL);
	const kp_sched_placement *p = h_pod(&sc, "p");
	ck_assert_uint_eq(p->target, KP_SCHED_EXISTING_NODE);
	ck_assert_str_eq(p->node, "node-a");
	ck_assert_uint_eq(kp_sched_result_nodeclaim_count(sc.result), 0);
}
END_TEST

START_TEST(existing_node_full)
{
	h_load(&sc, NODEPOOL("default") NODE("node-a", "test-zone-a", "") BOUND("busy", "node-a", "3")
		       POD("p", "2") POD("huge", "100"), NULL);
	h_run(&sc, NULL);
	ck_assert_uint_eq(kp_sched_result_pod_count(sc.result), 2); /* bound pods are not reported */
	ck_assert_uint_eq(h_pod(&sc, "p")->target, KP_SCHED_NEW_NODECLAIM);
	const kp_sched_placement *h = h_pod(&sc, "huge");
	const kp_sched_reason *r = h_reason(h, KP_REASON_RESOURCES, NULL, "node-a");
	ck_assert_ptr_nonnull(r);
	ck_assert_ptr_null(r->nodepool);
	ck_assert_str_eq(r->field, "cpu");
	ck_assert_str_eq(r->message, "exceeds node resources: cpu requests 100, 1 remains");
	ck_assert_ptr_nonnull(h_reason(h, KP_REASON_RESOURCES, "default", NULL));
}
END_TEST

START_TEST(initialized_first_then_name)
{
	h_load(&sc, NODEPOOL("default") MANAGED("node-a", "false", "") MANAGED("node-b", "true", "")
		       POD("p", "1"), NULL);
	h_run(&sc, NULL);
	ck_assert_str_eq(h_pod(&sc, "p")->node, "node-b");
	h_free(&sc);
	h_load(&sc, NODEPOOL("default") MANAGED("node-b", "true", "") MANAGED("node-a", "true", "")
		       POD("p", "1"), NULL);
	h_run(&sc, NULL);
	ck_assert_str_eq(h_pod(&sc, "p")->node, "node-a");
}
END_TEST

START_TEST(node_taints)
{
	h_load(&sc, NODEPOOL("default")
		"apiVersion: v1\nkind: Node\nmetadata:\n  name: tainted\n  labels: {kubernetes.io/hostname: tainted}\n"
		"spec:\n  providerID: kwok://tainted\n  taints: [{key: team, value: red, effect: NoSchedule}]\n"
		"status: {allocatable: {cpu: \"4\", memory: 8Gi, pods: \"20\"}}\n---\n"
		"apiVersion: v1\nkind: Node\nmetadata:\n  name: cordoned\n  labels: {kubernetes.io/hostname: cordoned}\n"
		"spec: {providerID: kwok://cordoned, unschedulable: true}\n"
		"status: {allocatable: {cpu: \"4\", memory: 8Gi, pods: \"20\"}}\n---\n"
		POD("huge", "100") POD("p", "1"), NULL);
	h_run(&sc, NULL);
	ck_assert_uint_eq(h_pod(&sc, "p")->target, KP_SCHED_NEW_NODECLAIM);
	const kp_sched_placement *h = h_pod(&sc, "huge");
	const kp_sched_reason *r = h_reason(h, KP_REASON_TAINTS, NULL, "tainted");
	ck_assert_ptr_nonnull(r);
	ck_assert_str_eq(r->field, "team=red:NoSchedule");
	r = h_reason(h, KP_REASON_NODE_NOT_SCHEDULABLE, NULL, "cordoned");
	ck_assert_ptr_nonnull(r);
	ck_assert_str_eq(r->field, "node.kubernetes.io/unschedulable:NoSchedule");
}
END_TEST

START_TEST(ephemeral_taints_of_uninitialized_nodes)
{
	/* upstream: a managed node that is not initialized is expected to lose
	 * its ephemeral and startup taints */
	h_load(&sc, NODEPOOL("default")
		"apiVersion: v1\nkind: Node\nmetadata:\n  name: young\n  labels: {kubernetes.io/hostname: young, "
		"karpenter.sh/nodepool: default, karpenter.sh/registered: \"true\", node.kubernetes.io/instance-type: medium}\n"
		"spec:\n  providerID: kwok://young\n  taints:\n  - {key: node.kubernetes.io/not-ready, effect: NoExecute}\n"
		"  - {key: example.com/startup, effect: NoSchedule}\n"
		"status: {allocatable: {cpu: \"4\", memory: 8Gi, pods: \"20\"}}\n---\n"
		"apiVersion: karpenter.sh/v1\nkind: NodeClaim\nmetadata: {name: nc-young}\nspec:\n"
		"  nodeClassRef: {group: karpenter.kwok.sh, kind: KWOKNodeClass, name: default}\n  requirements: []\n"
		"  startupTaints: [{key: example.com/startup, effect: NoSchedule}]\n"
		"status: {providerID: kwok://young, allocatable: {cpu: \"4\", memory: 8Gi, pods: \"20\"}}\n---\n"
		POD("p", "1"), NULL);
	h_run(&sc, NULL);
	ck_assert_str_eq(h_pod(&sc, "p")->node, "young");
	ck_assert_uint_eq(h_pod(&sc, "p")->target, KP_SCHED_EXISTING_NODE);
}
END_TEST

START_TEST(inflight_nodeclaim)
{
	h_load(&sc, NODEPOOL("default")
		"apiVersion: karpenter.sh/v1\nkind: NodeClaim\nmetadata:\n  name: default-abcde\n"
		"  labels: {karpenter.sh/nodepool: default, node.kubernetes.io/instance-type: medium, "
		"topology.kubernetes.io/zone: test-zone-b}\nspec:\n"
		"  nodeClassRef: {group: karpenter.kwok.sh, kind: KWOKNodeClass, name: default}\n  requirements: []\n"
		"status: {providerID: kwok://x, capacity: {cpu: \"4\", memory: 8Gi, pods: \"20\"}, "
		"allocatable: {cpu: \"4\", memory: 8Gi, pods: \"20\"}}\n---\n"
		"apiVersion: karpenter.sh/v1\nkind: NodeClaim\nmetadata: {name: not-launched}\nspec:\n"
		"  nodeClassRef: {group: karpenter.kwok.sh, kind: KWOKNodeClass, name: default}\n  requirements: []\n---\n"
		POD("p", "3") POD("q", "3"), NULL);
	h_run(&sc, NULL);
	/* the first (queue order: equal, by uid) goes to the in-flight NodeClaim */
	const kp_sched_placement *p = h_pod(&sc, "p");
	ck_assert_uint_eq(p->target, KP_SCHED_INFLIGHT);
	ck_assert_str_eq(p->node, "default-abcde");
	ck_assert_uint_eq(h_pod(&sc, "q")->target, KP_SCHED_NEW_NODECLAIM);
}
END_TEST

#define DS(name, cpu)                                                                              \
	"apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: " name ", namespace: kube-system}\n"  \
	"spec:\n  selector: {matchLabels: {app: " name "}}\n  template:\n    metadata: {labels: {app: " \
	name "}}\n    spec:\n      containers: [{name: c, resources: {requests: {cpu: \"" cpu     \
	"\"}}}]\n---\n"

START_TEST(daemon_resources_still_to_come)
{
	/* the DaemonSet's pod has not started on node-a: its cpu is reserved */
	h_load(&sc, NODEPOOL("default") NODE("node-a", "test-zone-a", "") DS("agent", "1")
		       POD("p", "3500m"), NULL);
	h_run(&sc, NULL);
	ck_assert_uint_eq(h_pod(&sc, "p")->target, KP_SCHED_NEW_NODECLAIM);
	h_free(&sc);
	h_load(&sc, NODEPOOL("default") NODE("node-a", "test-zone-a", "") DS("agent", "1")
		       POD("p", "3"), NULL);
	h_run(&sc, NULL);
	ck_assert_str_eq(h_pod(&sc, "p")->node, "node-a");
	/* once it runs, its requests count as bound ones, not twice */
	h_free(&sc);
	h_load(&sc, NODEPOOL("default") NODE("node-a", "test-zone-a", "") DS("agent", "1")
		       "apiVersion: v1\nkind: Pod\nmetadata:\n  name: agent-x\n  namespace: kube-system\n  uid: agent-x\n"
		       "  ownerReferences: [{apiVersion: apps/v1, kind: DaemonSet, name: agent, uid: ds}]\n"
		       "spec:\n  nodeName: node-a\n  containers: [{name: c, resources: {requests: {cpu: \"1\"}}}]\n---\n"
		       POD("p", "3"), NULL);
	h_run(&sc, NULL);
	ck_assert_str_eq(h_pod(&sc, "p")->node, "node-a");
}
END_TEST

START_TEST(removed_nodes)
{
	h_load(&sc, NODEPOOL("default") NODE("node-a", "test-zone-a", "") NODE("node-b", "test-zone-b", "")
		       BOUND("web", "node-a", "2")
		       "apiVersion: v1\nkind: Pod\nmetadata:\n  name: agent\n  uid: agent\n"
		       "  ownerReferences: [{apiVersion: apps/v1, kind: DaemonSet, name: agent, uid: ds}]\n"
		       "spec:\n  nodeName: node-a\n  containers: [{name: c, resources: {requests: {cpu: \"1\"}}}]\n---\n"
		       "apiVersion: v1\nkind: Pod\nmetadata: {name: done, uid: done}\nspec:\n  nodeName: node-a\n"
		       "  containers: [{name: c}]\nstatus: {phase: Succeeded}\n---\n", NULL);
	h_run(&sc, NULL);
	ck_assert_uint_eq(kp_sched_result_pod_count(sc.result), 0);
	const char *gone[] = { "node-a" };
	kp_sched_options o = KP_SCHED_OPTIONS_INIT;
	o.removed_nodes = gone;
	o.n_removed_nodes = 1;
	h_run(&sc, &o);
	/* only the reschedulable pod moves: not the DaemonSet's, not the finished one */
	ck_assert_uint_eq(kp_sched_result_pod_count(sc.result), 1);
	const kp_sched_placement *p = h_pod(&sc, "web");
	ck_assert_uint_eq(p->target, KP_SCHED_EXISTING_NODE);
	ck_assert_str_eq(p->node, "node-b");
	/* both gone: a new NodeClaim */
	const char *both[] = { "node-a", "node-b" };
	o.removed_nodes = both;
	o.n_removed_nodes = 2;
	h_run(&sc, &o);
	ck_assert_uint_eq(h_pod(&sc, "web")->target, KP_SCHED_NEW_NODECLAIM);
	/* the snapshot is not changed by simulations */
	h_run(&sc, NULL);
	ck_assert_uint_eq(kp_sched_result_pod_count(sc.result), 0);
}
END_TEST

/* exclude_nodes closes a node to the pods of removed nodes only (upstream's
 * consolidation simulation and a node inside its consolidateAfter window):
 * pending pods and pods of deleting nodes still land there. */
START_TEST(exclude_nodes_closes_to_moved_pods)
{
	h_load(&sc, NODEPOOL("default")
		MANAGED("node-a", "true", "")
		MANAGED("node-b", "true", "")
		MANAGED("node-c", "true", "  deletionTimestamp: \"2024-01-01T00:00:00Z\"\n  finalizers: [karpenter.sh/termination]\n")
		BOUND("web", "node-a", "1") BOUND("db", "node-c", "1") POD("p", "1"), NULL);
	const char *gone[] = { "node-a" };
	const char *closed[] = { "node-b", "no-such-node" };
	kp_sched_options o = KP_SCHED_OPTIONS_INIT;
	o.removed_nodes = gone;
	o.n_removed_nodes = 1;
	h_run(&sc, &o);
	ck_assert_str_eq(h_pod(&sc, "web")->node, "node-b");
	o.exclude_nodes = closed;
	o.n_exclude_nodes = 2;
	h_run(&sc, &o);
	ck_assert_uint_eq(h_pod(&sc, "web")->target, KP_SCHED_NEW_NODECLAIM);
	ck_assert_uint_eq(h_pod(&sc, "p")->target, KP_SCHED_EXISTING_NODE);
	ck_assert_str_eq(h_pod(&sc, "p")->node, "node-b");
	ck_assert_uint_eq(h_pod(&sc, "db")->target, KP_SCHED_EXISTING_NODE);
	ck_assert_str_eq(h_pod(&sc, "db")->node, "node-b");
	/* a NULL entry and a NULL list are refused, naming the option */
	const char *bad[] = { NULL };
	kp_sched_result *r = NULL;
	kp_error err = KP_ERROR_INIT;
	o.exclude_nodes = bad;
	o.n_exclude_nodes = 1;
	ck_assert_int_eq(kp_sched_simulate(&r, sc.cluster, &o, &err), KP_EINVAL);
	ck_assert_ptr_null(r);
	ck_assert_str_eq(err.field, "exclude_nodes");
	ck_assert_str_eq(err.message, "exclude_nodes[0] is NULL");
	o.exclude_nodes = NULL;
	ck_assert_int_eq(kp_sched_simulate(&r, sc.cluster, &o, &err), KP_EINVAL);
	ck_assert_str_eq(err.message, "exclude_nodes is NULL");
}
END_TEST

/* kept_pods leave with their removed or deleting node: not scheduled, not
 * reported; pending pods cannot be kept. */
START_TEST(kept_pods_are_not_scheduled)
{
	h_load(&sc, NODEPOOL("default")
		MANAGED("node-a", "true", "")
		MANAGED("node-b", "true", "")
		MANAGED("node-c", "true", "  deletionTimestamp: \"2024-01-01T00:00:00Z\"\n  finalizers: [karpenter.sh/termination]\n")
		BOUND("web", "node-a", "1") BOUND("blocked", "node-a", "1") BOUND("db", "node-c", "1")
		POD("p", "1"), NULL);
	const char *gone[] = { "node-a" };
	const char *kept[] = { "default/blocked", "default/db", "default/p", "default/nothing" };
	kp_sched_options o = KP_SCHED_OPTIONS_INIT;
	o.removed_nodes = gone;
	o.n_removed_nodes = 1;
	h_run(&sc, &o);
	ck_assert_uint_eq(kp_sched_result_pod_count(sc.result), 4);
	o.kept_pods = kept;
	o.n_kept_pods = 4;
	h_run(&sc, &o);
	ck_assert_uint_eq(kp_sched_result_pod_count(sc.result), 2);
	ck_assert_ptr_null(h_pod(&sc, "blocked"));
	ck_assert_ptr_null(h_pod(&sc, "db"));
	ck_assert_str_eq(h_pod(&sc, "web")->node, "node-b");
	ck_assert_str_eq(h_pod(&sc, "p")->node, "node-b");
	kp_sched_result *r = NULL;
	kp_error err = KP_ERROR_INIT;
	o.kept_pods = NULL;
	ck_assert_int_eq(kp_sched_simulate(&r, sc.cluster, &o, &err), KP_EINVAL);
	ck_assert_str_eq(err.field, "kept_pods");
	ck_assert_str_eq(err.message, "kept_pods is NULL");
}
END_TEST

/* The existing-node scan passes over blocks of nodes that cannot hold a
 * pod's requests; the pod still lands on the first node that fits, in
 * order, across blocks and after placements fill a node. */
START_TEST(first_fit_across_node_blocks)
{
	size_t cap = 200000, len = 0;
	char *y = malloc(cap);
	ck_assert_ptr_nonnull(y);
	len += (size_t)snprintf(y + len, cap - len, "%s", NODEPOOL("default"));
	for (int i = 0; i < 150; i++) {
		char name[32];
		snprintf(name, sizeof(name), "node-%03d", i);
		len += (size_t)snprintf(y + len, cap - len,
			"apiVersion: v1\nkind: Node\nmetadata:\n  name: %s\n  labels: {kubernetes.io/hostname: %s, "
			"topology.kubernetes.io/zone: test-zone-a, kubernetes.io/arch: amd64}\n"
			"spec: {providerID: \"kwok://%s\"}\nstatus:\n  capacity: {cpu: \"4\", memory: 8Gi, pods: \"20\"}\n"
			"  allocatable: {cpu: \"4\", memory: 8Gi, pods: \"20\"}\n---\n", name, name, name);
		/* the first 130 nodes keep 500m; node-070 keeps 2 */
		const char *used = i >= 130 ? NULL : i == 70 ? "2" : "3500m";
		if (used)
			len += (size_t)snprintf(y + len, cap - len,
				"apiVersion: v1\nkind: Pod\nmetadata: {name: b-%03d, uid: b-%03d}\nspec:\n  nodeName: %s\n"
				"  containers: [{name: c, resources: {requests: {cpu: \"%s\"}}}]\nstatus: {phase: Running}\n---\n",
				i, i, name, used);
	}
	len += (size_t)snprintf(y + len, cap - len, "%s%s%s%s", POD("small", "400m"), POD("big-1", "1500m"),
				POD("big-2", "1500m"), POD("huge", "3"));
	ck_assert_uint_lt(len, cap - 1);
	h_load(&sc, y, NULL);
	free(y);
	h_run(&sc, NULL);
	/* queue order: huge, big-1, big-2, small */
	ck_assert_str_eq(h_pod(&sc, "huge")->node, "node-130");
	ck_assert_str_eq(h_pod(&sc, "big-1")->node, "node-070");
	ck_assert_str_eq(h_pod(&sc, "big-2")->node, "node-131");
	ck_assert_str_eq(h_pod(&sc, "small")->node, "node-000");
}
END_TEST

START_TEST(deleting_nodes)
{
	h_load(&sc, NODEPOOL("default")
		MANAGED("node-a", "true", "  deletionTimestamp: \"2024-01-01T00:00:00Z\"\n  finalizers: [karpenter.sh/termination]\n")
		MANAGED("node-b", "true", "")
		BOUND("web", "node-a", "1")
		"apiVersion: v1\nkind: Pod\nmetadata:\n  name: dying\n  uid: dying\n  deletionTimestamp: \"2024-01-01T00:00:00Z\"\n"
		"spec:\n  nodeName: node-a\n  containers: [{name: c}]\n---\n"
		POD("p", "1"), NULL);
	h_run(&sc, NULL);
	/* pods of a deleting node move, as upstream's provisioner does */
	ck_assert_uint_eq(kp_sched_result_pod_count(sc.result), 2);
	ck_assert_str_eq(h_pod(&sc, "web")->node, "node-b");
	ck_assert_str_eq(h_pod(&sc, "p")->node, "node-b");
}
END_TEST

#define PORT_POD(n, node)                                                                          \
	"apiVersion: v1\nkind: Pod\nmetadata: {name: " n ", uid: " n "}\nspec:\n" node               \
	"  containers:\n  - name: c\n    ports: [{containerPort: 80, hostPort: 8080, protocol: TCP}]\n---\n"

START_TEST(host_ports_of_bound_pods)
{
	h_load(&sc, NODEPOOL("default") NODE("node-a", "test-zone-a", "")
		       PORT_POD("running", "  nodeName: node-a\n") PORT_POD("p", ""), NULL);
	h_run(&sc, NULL);
	ck_assert_uint_eq(h_pod(&sc, "p")->target, KP_SCHED_NEW_NODECLAIM);
}
END_TEST

START_TEST(limits_count_existing_nodes)
{
	const char *pool =
		"apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: default}\nspec:\n  limits: {cpu: \"5\"}\n"
		"  template:\n    spec:\n      nodeClassRef: {group: karpenter.kwok.sh, kind: KWOKNodeClass, name: default}\n"
		"      requirements: []\n---\n";
	char yaml[8192];
	snprintf(yaml, sizeof(yaml), "%s%s%s%s", pool, MANAGED("node-a", "true", ""),
		 BOUND("busy", "node-a", "4"), POD("p", "1"));
	h_load(&sc, yaml, NULL);
	h_run(&sc, NULL);
	const kp_sched_placement *p = h_pod(&sc, "p");
	ck_assert_uint_eq(p->target, KP_SCHED_UNPLACED);
	ck_assert_ptr_nonnull(h_reason(p, KP_REASON_NODEPOOL_LIMITS, "default", NULL));
	/* without node-a its capacity is free again: "busy" moves to a new
	 * NodeClaim (medium or arm-medium, 4 cpu), which upstream counts
	 * pessimistically as its largest option: 1 cpu is left, too little */
	const char *gone[] = { "node-a" };
	kp_sched_options o = KP_SCHED_OPTIONS_INIT;
	o.removed_nodes = gone;
	o.n_removed_nodes = 1;
	h_run(&sc, &o);
	ck_assert_uint_eq(h_pod(&sc, "busy")->target, KP_SCHED_NEW_NODECLAIM);
	ck_assert_str_eq(h_req(h_pod_nc(&sc, "busy")->nodeclaim, KP_LABEL_INSTANCE_TYPE),
			 "In arm-medium,medium");
	ck_assert_ptr_nonnull(h_reason(h_pod(&sc, "p"), KP_REASON_NODEPOOL_LIMITS, "default", NULL));
	ck_assert_uint_eq(kp_sched_result_nodeclaim_count(sc.result), 1);
}
END_TEST

START_TEST(node_affinity_to_existing)
{
	h_load(&sc, NODEPOOL("default") NODE("node-a", "test-zone-a", ", team: blue")
		       "apiVersion: v1\nkind: Pod\nmetadata: {name: blue, uid: blue}\nspec:\n"
		       "  nodeSelector: {team: blue}\n  containers: [{name: c}]\n---\n"
		       "apiVersion: v1\nkind: Pod\nmetadata: {name: zone-b, uid: zb}\nspec:\n"
		       "  nodeSelector: {topology.kubernetes.io/zone: test-zone-b}\n  containers: [{name: c}]\n---\n",
		NULL);
	h_run(&sc, NULL);
	ck_assert_str_eq(h_pod(&sc, "blue")->node, "node-a");
	ck_assert_uint_eq(h_pod(&sc, "zone-b")->target, KP_SCHED_NEW_NODECLAIM);
	ck_assert_str_eq(h_pod_nc(&sc, "zone-b")->zone, "test-zone-b");
}
END_TEST

/* Consolidation asks many questions of one snapshot, possibly from several
 * threads: results must not depend on what ran before or beside them. */
struct job {
	const kp_cluster *cluster;
	const char *removed;
	char *dump;
};

static void *run_job(void *arg)
{
	struct job *j = arg;
	kp_sched_options o = KP_SCHED_OPTIONS_INIT;
	const char *gone[1] = { j->removed };
	if (j->removed) {
		o.removed_nodes = gone;
		o.n_removed_nodes = 1;
	}
	kp_sched_result *r = NULL;
	if (kp_sched_simulate(&r, j->cluster, &o, NULL) == KP_OK) {
		j->dump = h_dump(r);
		kp_sched_result_free(r);
	}
	return NULL;
}

START_TEST(simulations_are_independent)
{
	char *y = malloc(1 << 16);
	size_t len = (size_t)snprintf(y, 1 << 16, "%s", NODEPOOL("default"));
	const char *names[] = { "node-a", "node-b", "node-c", "node-d" };
	for (int n = 0; n < 4; n++) {
		len += (size_t)snprintf(y + len, (1 << 16) - len,
			"apiVersion: v1\nkind: Node\nmetadata:\n  name: %s\n  labels: {kubernetes.io/hostname: %s, "
			"topology.kubernetes.io/zone: test-zone-%c}\nspec: {providerID: kwok://%s}\n"
			"status: {allocatable: {cpu: \"4\", memory: 8Gi, pods: \"20\"}}\n---\n",
			names[n], names[n], 'a' + n % 3, names[n]);
		for (int p = 0; p < 3; p++)
			len += (size_t)snprintf(y + len, (1 << 16) - len,
				"apiVersion: v1\nkind: Pod\nmetadata: {name: %s-p%d, uid: %s-p%d, labels: {app: web}}\n"
				"spec:\n  nodeName: %s\n  topologySpreadConstraints: [{maxSkew: 1, topologyKey: "
				"topology.kubernetes.io/zone, whenUnsatisfiable: DoNotSchedule, labelSelector: "
				"{matchLabels: {app: web}}}]\n  containers: [{name: c, resources: {requests: {cpu: \"1\"}}}]\n---\n",
				names[n], p, names[n], p, names[n]);
	}
	h_load(&sc, y, NULL);
	free(y);
	kp_error err = KP_ERROR_INIT;
	ck_assert_int_eq(h_build(&sc, &err), KP_OK);
	/* sequential answers */
	struct job seq[5], par[5];
	for (int i = 0; i < 5; i++) {
		seq[i].cluster = sc.cluster;
		seq[i].removed = i < 4 ? names[i] : NULL;
		seq[i].dump = NULL;
		par[i] = seq[i];
	}
	for (int i = 0; i < 5; i++)
		run_job(&seq[i]);
	/* the same in reverse order, then concurrently */
	for (int i = 4; i >= 0; i--) {
		struct job again = seq[i];
		again.dump = NULL;
		run_job(&again);
		ck_assert_ptr_nonnull(again.dump);
		ck_assert_str_eq(again.dump, seq[i].dump);
		free(again.dump);
	}
	pthread_t th[5];
	for (int i = 0; i < 5; i++)
		ck_assert_int_eq(pthread_create(&th[i], NULL, run_job, &par[i]), 0);
	for (int i = 0; i < 5; i++)
		pthread_join(th[i], NULL);
	for (int i = 0; i < 5; i++) {
		ck_assert_ptr_nonnull(par[i].dump);
		ck_assert_str_eq(par[i].dump, seq[i].dump);
		free(par[i].dump);
		free(seq[i].dump);
	}
}
END_TEST

START_TEST(init_functions)
{
	kp_sched_options o;
	memset(&o, 0xff, sizeof(o));
	kp_sched_options_init(&o);
	kp_sched_options want = KP_SCHED_OPTIONS_INIT;
	ck_assert_mem_eq(&o, &want, sizeof(o));
	kp_cluster_spec s;
	memset(&s, 0xff, sizeof(s));
	kp_cluster_spec_init(&s);
	ck_assert_uint_eq(s.struct_size, sizeof(s));
	ck_assert_ptr_null(s.pods);
	ck_assert_uint_eq(s.n_pods, 0);
	kp_nodeclass_status st;
	kp_nodeclass_status_init(&st);
	ck_assert_uint_eq(st.struct_size, sizeof(st));
	ck_assert_uint_eq(st.ready, 0);
	kp_sched_options_init(NULL);
	kp_cluster_spec_init(NULL);
	kp_nodeclass_status_init(NULL);
}
END_TEST

START_TEST(snapshot_keeps_nothing_of_the_inputs)
{
	/* kp_cluster_spec is borrowed for kp_cluster_new only: free every
	 * input object (and the caller's catalogue reference), then simulate */
	h_load(&sc, NODEPOOL("default") MANAGED("node-b", "true", "")
		       "apiVersion: karpenter.sh/v1\nkind: NodeClaim\nmetadata:\n  name: inflight\n"
		       "  labels: {karpenter.sh/nodepool: default}\nspec:\n"
		       "  nodeClassRef: {group: karpenter.kwok.sh, kind: KWOKNodeClass, name: default}\n"
		       "  requirements: []\n  taints: [{key: t, value: v, effect: NoSchedule}]\n"
		       "status: {providerID: kwok://x, allocatable: {cpu: \"4\", pods: \"20\"}}\n---\n"
		       NODE("node-a", "test-zone-a", ", team: blue") DS("agent", "100m")
		       BOUND("web", "node-a", "3") POD("p", "2") POD("huge", "100"), NULL);
	kp_error err = KP_ERROR_INIT;
	ck_assert_int_eq(h_build(&sc, &err), KP_OK);
	kp_cluster_builder_free(sc.builder);
	sc.builder = NULL;
	free(sc.pods);
	sc.pods = NULL;
	sc.n_pods = 0;
	kp_instance_types_free(sc.its);
	sc.its = NULL;
	const char *gone[] = { "node-a" };
	kp_sched_options o = KP_SCHED_OPTIONS_INIT;
	o.removed_nodes = gone;
	o.n_removed_nodes = 1;
	h_run(&sc, &o);
	char *d = h_dump(sc.result);
	ck_assert_ptr_nonnull(strstr(d, "pod default/huge 0"));
	ck_assert_ptr_nonnull(strstr(d, "pod default/web"));
	free(d);
	/* the result borrows from the cluster only */
	h_run(&sc, NULL);
	ck_assert_uint_eq(kp_sched_result_pod_count(sc.result), 2);
	ck_assert_ptr_nonnull(h_reason(h_pod(&sc, "huge"), KP_REASON_TAINTS, NULL, "inflight"));
}
END_TEST

static Suite *nodes_suite(void)
{
	Suite *s = suite_create("scheduler-nodes");
	TCase *tc = tcase_create("existing");
	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_add_test(tc, existing_node_first);
	tcase_add_test(tc, existing_node_full);
	tcase_add_test(tc, initialized_first_then_name);
	tcase_add_test(tc, node_taints);
	tcase_add_test(tc, ephemeral_taints_of_uninitialized_nodes);
	tcase_add_test(tc, inflight_nodeclaim);
	tcase_add_test(tc, daemon_resources_still_to_come);
	tcase_add_test(tc, removed_nodes);
	tcase_add_test(tc, deleting_nodes);
	tcase_add_test(tc, first_fit_across_node_blocks);
	tcase_add_test(tc, exclude_nodes_closes_to_moved_pods);
	tcase_add_test(tc, kept_pods_are_not_scheduled);
	tcase_add_test(tc, host_ports_of_bound_pods);
	tcase_add_test(tc, limits_count_existing_nodes);
	tcase_add_test(tc, node_affinity_to_existing);
	tcase_add_test(tc, simulations_are_independent);
	tcase_add_test(tc, init_functions);
	tcase_add_test(tc, snapshot_keeps_nothing_of_the_inputs);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	Suite *suites[] = { nodes_suite() };
	return kp_test_run(suites, (int)(sizeof(suites) / sizeof(suites[0])));
}
