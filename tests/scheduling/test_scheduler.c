/*
 * The scheduling simulation, part 1: pod collection and the queue, existing
 * nodes, NodeClaims from NodePools (templates, instance-type filtering,
 * daemon overhead, limits, minValues, launch choice), reasons. Scenarios
 * mirror upstream pkg/controllers/provisioning/scheduling/suite_test.go.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched_harness.h"

#define NODEPOOL(name)                                                                             \
	"apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: " name ", uid: uid-" name   \
	"}\nspec:\n  template:\n    spec:\n      nodeClassRef: {group: karpenter.kwok.sh, kind: "   \
	"KWOKNodeClass, name: default}\n      requirements: []\n---\n"


static h_scenario sc;

static void teardown(void)
{
	h_free(&sc);
}

/* ------------------------------------------------------------------ */
/* Basics                                                              */

START_TEST(single_pod_new_nodeclaim)
{
	h_load(&sc, NODEPOOL("default") H_POD("p1", "1", "1Gi"), NULL);
	h_run(&sc, NULL);
	ck_assert_uint_eq(kp_sched_result_pod_count(sc.result), 1);
	ck_assert_uint_eq(kp_sched_result_nodeclaim_count(sc.result), 1);
	const kp_sched_placement *p = h_pod(&sc, "p1");
	ck_assert_ptr_nonnull(p);
	ck_assert_uint_eq(p->target, KP_SCHED_NEW_NODECLAIM);
	ck_assert_uint_eq(p->n_reasons, 0);
	const kp_sched_nodeclaim *n = kp_sched_result_nodeclaim_at(sc.result, 0);
	ck_assert_str_eq(p->node, n->nodeclaim->metadata->name);
	ck_assert_str_eq(n->nodeclaim->metadata->name, "default-00001");
	ck_assert_str_eq(n->nodeclaim->metadata->generate_name, "default-");
	ck_assert_str_eq(n->nodepool, "default");
	/* cheapest: small spot (0.07) */
	ck_assert_str_eq(n->instance_type, "small");
	ck_assert_str_eq(n->capacity_type, "spot");
	ck_assert_str_eq(n->zone, "test-zone-a");
	ck_assert_double_eq_tol(n->price, 0.07, 1e-9);
	ck_assert_double_eq_tol(kp_sched_result_cost(sc.result), 0.07, 1e-9);
	ck_assert_uint_eq(n->n_pods, 1);
	/* every type fits: 6 options; values are sorted, as upstream writes them */
	ck_assert_uint_eq(n->n_instance_type_options, 6);
	ck_assert_str_eq(h_req(n->nodeclaim, KP_LABEL_INSTANCE_TYPE),
			 "In arm-medium,gpu,large,medium,small,xlarge");
	ck_assert_str_eq(h_req(n->nodeclaim, KP_LABEL_CAPACITY_TYPE), "In on-demand,spot");
	ck_assert_str_eq(h_req(n->nodeclaim, KP_LABEL_NODEPOOL), "In default");
	ck_assert_ptr_null(h_req(n->nodeclaim, KP_LABEL_HOSTNAME));
	ck_assert_ptr_null(h_req(n->nodeclaim, KP_LABEL_NODE_REGISTERED));
	ck_assert_ptr_null(h_req(n->nodeclaim, KP_LABEL_NODE_INITIALIZED));
	ck_assert_str_eq(h_label(n->nodeclaim, KP_LABEL_NODEPOOL), "default");
	ck_assert_str_eq(h_label(n->nodeclaim, "karpenter.kwok.sh/kwoknodeclass"), "default");
	ck_assert_str_eq(h_annotation(n->nodeclaim, KP_ANNOTATION_NODEPOOL_HASH_VERSION), "v3");
	ck_assert_ptr_nonnull(h_annotation(n->nodeclaim, KP_ANNOTATION_NODEPOOL_HASH));
	ck_assert_str_eq(h_annotation(n->nodeclaim, KP_ANNOTATION_NODECLAIM_MIN_VALUES_RELAXED),
			 "false");
	ck_assert_str_eq(h_request(n->nodeclaim, "cpu"), "1");
	ck_assert_str_eq(h_request(n->nodeclaim, "memory"), "1Gi");
	ck_assert_str_eq(h_request(n->nodeclaim, "pods"), "1");
	ck_assert_uint_eq(n->nodeclaim->metadata->n_owner_references, 1);
	ck_assert_str_eq(n->nodeclaim->metadata->owner_references[0]->kind, "NodePool");
	ck_assert_str_eq(n->nodeclaim->metadata->owner_references[0]->uid, "uid-default");
	ck_assert_ptr_nonnull(n->nodeclaim->spec->node_class_ref);
	ck_assert_str_eq(n->nodeclaim->spec->node_class_ref->name, "default");
}
END_TEST

START_TEST(hash_annotation_matches_nodepool_hash)
{
	h_load(&sc, NODEPOOL("default") H_POD("p1", "1", "1Gi"), NULL);
	h_run(&sc, NULL);
	char want[KP_HASH_STRING_MAX];
	ck_assert_int_eq(kp_nodepool_hash_string(sc.nodepools[0], NULL, want, sizeof(want), NULL),
			 KP_OK);
	const kp_sched_nodeclaim *n = kp_sched_result_nodeclaim_at(sc.result, 0);
	ck_assert_str_eq(h_annotation(n->nodeclaim, KP_ANNOTATION_NODEPOOL_HASH), want);
}
END_TEST

START_TEST(binpacks_pods)
{
	/* 3 x 1 cpu fit a medium (4 cpu); upstream prefers packing into in-flight NodeClaims */
	h_load(&sc, NODEPOOL("default") H_POD("a", "1", "1Gi") H_POD("b", "1", "1Gi")
		       H_POD("c", "1", "1Gi"), NULL);
	h_run(&sc, NULL);
	ck_assert_uint_eq(kp_sched_result_nodeclaim_count(sc.result), 1);
	const kp_sched_nodeclaim *n = kp_sched_result_nodeclaim_at(sc.result, 0);
	ck_assert_uint_eq(n->n_pods, 3);
	ck_assert_str_eq(h_request(n->nodeclaim, "cpu"), "3");
	ck_assert_str_eq(h_request(n->nodeclaim, "pods"), "3");
	/* small (2 cpu) no longer fits */
	ck_assert_str_eq(h_req(n->nodeclaim, KP_LABEL_INSTANCE_TYPE),
			 "In arm-medium,gpu,large,medium,xlarge");
	ck_assert_str_eq(n->instance_type, "arm-medium");
}
END_TEST

START_TEST(new_node_when_full)
{
	/* 20 pods of 3 cpu: xlarge (16 cpu) takes 5 each */
	char *yaml = malloc(1 << 16);
	size_t len = (size_t)snprintf(yaml, 1 << 16, "%s", NODEPOOL("default"));
	for (int i = 0; i < 20; i++)
		len += (size_t)snprintf(yaml + len, (1 << 16) - len,
					"apiVersion: v1\nkind: Pod\nmetadata: {name: p%02d, uid: u%02d}\n"
					"spec:\n  containers:\n  - name: c\n    resources: {requests: "
					"{cpu: \"3\"}}\n---\n", i, i);
	h_load(&sc, yaml, NULL);
	free(yaml);
	h_run(&sc, NULL);
	ck_assert_uint_eq(h_count(&sc, KP_SCHED_NEW_NODECLAIM), 20);
	ck_assert_uint_eq(kp_sched_result_nodeclaim_count(sc.result), 4);
	for (size_t i = 0; i < 4; i++) {
		const kp_sched_nodeclaim *n = kp_sched_result_nodeclaim_at(sc.result, i);
		ck_assert_uint_eq(n->n_pods, 5);
		ck_assert_str_eq(n->instance_type, "xlarge");
	}
}
END_TEST

START_TEST(too_big_for_any_instance_type)
{
	h_load(&sc, NODEPOOL("default") H_POD("huge", "100", "1Gi"), NULL);
	h_run(&sc, NULL);
	ck_assert_uint_eq(kp_sched_result_nodeclaim_count(sc.result), 0);
	const kp_sched_placement *p = h_pod(&sc, "huge");
	ck_assert_uint_eq(p->target, KP_SCHED_UNPLACED);
	ck_assert_ptr_null(p->node);
	const kp_sched_reason *r = h_reason(p, KP_REASON_RESOURCES, "default", NULL);
	ck_assert_ptr_nonnull(r);
	ck_assert_ptr_nonnull(strstr(r->message, "no instance type has enough resources"));
	ck_assert_ptr_nonnull(strstr(r->message, "cpu=100"));
}
END_TEST

START_TEST(deterministic)
{
	char *yaml = malloc(1 << 17);
	size_t len = (size_t)snprintf(yaml, 1 << 17, "%s%s", NODEPOOL("default"), NODEPOOL("other"));
	for (int i = 0; i < 60; i++)
		len += (size_t)snprintf(yaml + len, (1 << 17) - len,
					"apiVersion: v1\nkind: Pod\nmetadata: {name: p%02d, uid: u%02d}\n"
					"spec:\n  containers:\n  - name: c\n    resources: {requests: "
					"{cpu: \"%dm\", memory: %dMi}}\n---\n", i, i,
					100 + (i * 37) % 1500, 128 + (i * 91) % 2048);
	h_load(&sc, yaml, NULL);
	free(yaml);
	h_run(&sc, NULL);
	char *a = h_dump(sc.result);
	h_run(&sc, NULL);
	char *b = h_dump(sc.result);
	ck_assert_str_eq(a, b);
	/* a second snapshot of the same input gives the same bytes */
	kp_cluster_free(sc.cluster);
	sc.cluster = NULL;
	h_run(&sc, NULL);
	char *c = h_dump(sc.result);
	ck_assert_str_eq(a, c);
	free(a);
	free(b);
	free(c);
}
END_TEST


/* ------------------------------------------------------------------ */
/* Pod collection and the queue                                        */

START_TEST(ignored_pods_are_not_reported)
{
	h_load(&sc, NODEPOOL("default")
		"apiVersion: v1\nkind: Pod\nmetadata: {name: done, uid: done}\nspec: {containers: [{name: c}]}\n"
		"status: {phase: Succeeded}\n---\n"
		"apiVersion: v1\nkind: Pod\nmetadata: {name: failed, uid: failed}\nspec: {containers: [{name: c}]}\n"
		"status: {phase: Failed}\n---\n"
		"apiVersion: v1\nkind: Pod\nmetadata:\n  name: ds-pod\n  uid: ds\n  ownerReferences:\n"
		"  - {apiVersion: apps/v1, kind: DaemonSet, name: ds, uid: x}\nspec: {containers: [{name: c}]}\n---\n"
		"apiVersion: v1\nkind: Pod\nmetadata:\n  name: mirror\n  uid: mirror\n  ownerReferences:\n"
		"  - {apiVersion: v1, kind: Node, name: node-x, uid: yy}\nspec: {containers: [{name: c}]}\n---\n"
		"apiVersion: v1\nkind: Pod\nmetadata: {name: preempting, uid: pre}\nspec: {containers: [{name: c}]}\n"
		"status: {nominatedNodeName: somewhere}\n---\n"
		H_POD("real", "1", "1Gi"), NULL);
	h_run(&sc, NULL);
	ck_assert_uint_eq(kp_sched_result_pod_count(sc.result), 1);
	ck_assert_ptr_nonnull(h_pod(&sc, "real"));
	ck_assert_uint_eq(h_pod(&sc, "real")->target, KP_SCHED_NEW_NODECLAIM);
}
END_TEST

START_TEST(not_provisionable)
{
	h_load(&sc, NODEPOOL("default")
		"apiVersion: v1\nkind: Pod\nmetadata: {name: hostname, uid: h}\nspec:\n"
		"  nodeSelector: {kubernetes.io/hostname: node-a}\n  containers: [{name: c}]\n---\n"
		"apiVersion: v1\nkind: Pod\nmetadata: {name: restricted, uid: r}\nspec:\n"
		"  nodeSelector: {karpenter.sh/custom: x}\n  containers: [{name: c}]\n---\n"
		"apiVersion: v1\nkind: Pod\nmetadata: {name: not-karpenter, uid: nk}\nspec:\n"
		"  affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: "
		"{nodeSelectorTerms: [{matchExpressions: [{key: karpenter.sh/nodepool, operator: "
		"DoesNotExist}]}]}}}\n  containers: [{name: c}]\n---\n"
		"apiVersion: v1\nkind: Pod\nmetadata: {name: fields, uid: f}\nspec:\n"
		"  affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: "
		"{nodeSelectorTerms: [{matchFields: [{key: metadata.name, operator: In, values: [a]}]}]}}}\n"
		"  containers: [{name: c}]\n---\n"
		"apiVersion: v1\nkind: Pod\nmetadata: {name: kubernetes-domain, uid: kd}\nspec:\n"
		"  nodeSelector: {node.kubernetes.io/instance-type: small}\n  containers: [{name: c}]\n---\n",
		NULL);
	h_run(&sc, NULL);
	ck_assert_uint_eq(kp_sched_result_pod_count(sc.result), 5);
	const char *bad[] = { "hostname", "restricted", "not-karpenter", "fields" };
	for (size_t i = 0; i < 4; i++) {
		const kp_sched_placement *p = h_pod(&sc, bad[i]);
		ck_assert_msg(p && p->target == KP_SCHED_UNPLACED, "%s", bad[i]);
		ck_assert_uint_eq(p->n_reasons, 1);
		ck_assert_uint_eq(p->reasons[0]->code, KP_REASON_NOT_PROVISIONABLE);
		ck_assert_ptr_null(p->reasons[0]->nodepool);
	}
	const kp_sched_placement *h = h_pod(&sc, "hostname");
	ck_assert_str_eq(h->reasons[0]->field, "spec.nodeSelector[kubernetes.io/hostname]");
	ck_assert_ptr_nonnull(strstr(h->reasons[0]->message, "using label kubernetes.io/hostname is not allowed"));
	ck_assert_str_eq(h_pod(&sc, "not-karpenter")->reasons[0]->message,
			 "configured to not run on a Karpenter provisioned node");
	ck_assert_str_eq(h_pod(&sc, "fields")->reasons[0]->message,
			 "node selector term with matchFields is not supported");
	/* the kubernetes.io domain is not restricted */
	const kp_sched_placement *k = h_pod(&sc, "kubernetes-domain");
	ck_assert_uint_eq(k->target, KP_SCHED_NEW_NODECLAIM);
	ck_assert_str_eq(h_pod_nc(&sc, "kubernetes-domain")->instance_type, "small");
	ck_assert_uint_eq(kp_sched_result_nodeclaim_count(sc.result), 1);
}
END_TEST

START_TEST(queue_order_creation_time)
{
	/* equal requests that cannot share a node: the older pod is scheduled
	 * first and gets the first NodeClaim (upstream byCPUAndMemoryDescending) */
	h_load(&sc, NODEPOOL("default")
		"apiVersion: v1\nkind: Pod\nmetadata: {name: young, uid: a, creationTimestamp: "
		"\"2024-01-01T00:00:10Z\"}\nspec: {containers: [{name: c, resources: {requests: {cpu: \"9\"}}}]}\n---\n"
		"apiVersion: v1\nkind: Pod\nmetadata: {name: old, uid: b, creationTimestamp: "
		"\"2024-01-01T00:00:00Z\"}\nspec: {containers: [{name: c, resources: {requests: {cpu: \"9\"}}}]}\n---\n"
		"apiVersion: v1\nkind: Pod\nmetadata: {name: big, uid: c, creationTimestamp: "
		"\"2024-01-01T00:00:20Z\"}\nspec: {containers: [{name: c, resources: {requests: {cpu: \"10\"}}}]}\n---\n",
		NULL);
	h_run(&sc, NULL);
	ck_assert_uint_eq(kp_sched_result_nodeclaim_count(sc.result), 3);
	ck_assert_uint_eq(h_pod(&sc, "big")->nodeclaim_index, 0);
	ck_assert_uint_eq(h_pod(&sc, "old")->nodeclaim_index, 1);
	ck_assert_uint_eq(h_pod(&sc, "young")->nodeclaim_index, 2);
	/* results are reported in input order */
	ck_assert_str_eq(kp_sched_result_pod_at(sc.result, 0)->name, "young");
	ck_assert_str_eq(kp_sched_result_pod_at(sc.result, 2)->name, "big");
}
END_TEST

START_TEST(only_pods)
{
	h_load(&sc, NODEPOOL("default") H_POD("a", "1", "1Gi") H_POD("b", "1", "1Gi"), NULL);
	const char *only[] = { "default/b" };
	kp_sched_options o = KP_SCHED_OPTIONS_INIT;
	o.only_pods = only;
	o.n_only_pods = 1;
	h_run(&sc, &o);
	ck_assert_uint_eq(kp_sched_result_pod_count(sc.result), 1);
	ck_assert_str_eq(kp_sched_result_pod_at(sc.result, 0)->name, "b");
	const char *missing[] = { "default/zzz" };
	o.only_pods = missing;
	kp_sched_result *r = NULL;
	kp_error err = KP_ERROR_INIT;
	ck_assert_int_eq(kp_sched_simulate(&r, sc.cluster, &o, &err), KP_EINVAL);
	ck_assert_ptr_null(r);
	ck_assert_str_eq(err.field, "only_pods");
}
END_TEST

START_TEST(options_checked)
{
	h_load(&sc, NODEPOOL("default") H_POD("a", "1", "1Gi"), NULL);
	kp_error err = KP_ERROR_INIT;
	ck_assert_int_eq(h_build(&sc, &err), KP_OK);
	kp_sched_result *r = NULL;
	kp_sched_options o = KP_SCHED_OPTIONS_INIT;
	o.reserved = 1;
	ck_assert_int_eq(kp_sched_simulate(&r, sc.cluster, &o, &err), KP_EINVAL);
	o.reserved = 0;
	o.min_values_policy = 7;
	ck_assert_int_eq(kp_sched_simulate(&r, sc.cluster, &o, &err), KP_EINVAL);
	o.min_values_policy = 0;
	o.struct_size = 4;
	ck_assert_int_eq(kp_sched_simulate(&r, sc.cluster, &o, &err), KP_EVERSION);
	ck_assert_ptr_null(r);
	ck_assert_int_eq(kp_sched_simulate(NULL, sc.cluster, NULL, &err), KP_EINVAL);
	ck_assert_int_eq(kp_sched_simulate(&r, NULL, NULL, &err), KP_EINVAL);
	const char *gone[] = { "no-such-node" };
	kp_sched_options o2 = KP_SCHED_OPTIONS_INIT;
	o2.removed_nodes = gone;
	o2.n_removed_nodes = 1;
	ck_assert_int_eq(kp_sched_simulate(&r, sc.cluster, &o2, &err), KP_EINVAL);
	ck_assert_str_eq(err.field, "removed_nodes");
	/* NULL options are the defaults */
	ck_assert_int_eq(kp_sched_simulate(&r, sc.cluster, NULL, &err), KP_OK);
	kp_sched_result_free(r);
	kp_sched_result_free(NULL);
	kp_cluster_free(NULL);
	ck_assert_uint_eq(kp_sched_result_pod_count(NULL), 0);
	ck_assert_ptr_null(kp_sched_result_pod_at(NULL, 0));
	ck_assert_str_eq(kp_sched_reason_code_name(KP_REASON_TAINTS), "Taints");
	ck_assert_str_eq(kp_sched_reason_code_name(999), "Unknown");
	kp_cluster *c = NULL;
	ck_assert_int_eq(kp_cluster_new(&c, NULL, &err), KP_EINVAL);
	kp_cluster_spec spec = KP_CLUSTER_SPEC_INIT;
	spec.n_pods = 3;
	ck_assert_int_eq(kp_cluster_new(&c, &spec, &err), KP_EINVAL);
	ck_assert_ptr_null(c);
	/* an empty cluster is fine */
	kp_cluster_spec empty = KP_CLUSTER_SPEC_INIT;
	ck_assert_int_eq(kp_cluster_new(&c, &empty, &err), KP_OK);
	ck_assert_int_eq(kp_sched_simulate(&r, c, NULL, &err), KP_OK);
	ck_assert_uint_eq(kp_sched_result_pod_count(r), 0);
	kp_sched_result_free(r);
	kp_cluster_free(c);
}
END_TEST

/* ------------------------------------------------------------------ */
/* NodePools                                                           */

#define POOL_W(name, w)                                                                            \
	"apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: " name "}\nspec:\n  weight: " \
	#w "\n  template:\n    spec:\n      nodeClassRef: {group: karpenter.kwok.sh, kind: "        \
	"KWOKNodeClass, name: default}\n      requirements: []\n---\n"

START_TEST(weight_order)
{
	h_load(&sc, POOL_W("low", 10) POOL_W("high", 50) H_POD("p", "1", "1Gi"), NULL);
	h_run(&sc, NULL);
	ck_assert_str_eq(h_pod_nc(&sc, "p")->nodepool, "high");
}
END_TEST

START_TEST(equal_weights_by_name_descending)
{
	h_load(&sc, NODEPOOL("alpha") NODEPOOL("beta") H_POD("p", "1", "1Gi"), NULL);
	h_run(&sc, NULL);
	ck_assert_str_eq(h_pod_nc(&sc, "p")->nodepool, "beta");
}
END_TEST

START_TEST(select_nodepool)
{
	h_load(&sc, NODEPOOL("alpha") NODEPOOL("beta")
		"apiVersion: v1\nkind: Pod\nmetadata: {name: p, uid: p}\nspec:\n"
		"  nodeSelector: {karpenter.sh/nodepool: alpha}\n  containers: [{name: c}]\n---\n", NULL);
	h_run(&sc, NULL);
	const kp_sched_nodeclaim *n = h_pod_nc(&sc, "p");
	ck_assert_str_eq(n->nodepool, "alpha");
	ck_assert_str_eq(h_label(n->nodeclaim, KP_LABEL_NODEPOOL), "alpha");
}
END_TEST

#define ARM_POOL                                                                                   \
	"apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: arm}\nspec:\n  template:\n"   \
	"    metadata: {labels: {team: blue}}\n    spec:\n      nodeClassRef: {group: "            \
	"karpenter.kwok.sh, kind: KWOKNodeClass, name: default}\n      requirements:\n      - {key: " \
	"kubernetes.io/arch, operator: In, values: [arm64]}\n---\n"

START_TEST(nodepool_requirements)
{
	h_load(&sc, ARM_POOL H_POD("p", "1", "1Gi")
		"apiVersion: v1\nkind: Pod\nmetadata: {name: amd, uid: amd}\nspec:\n"
		"  nodeSelector: {kubernetes.io/arch: amd64}\n  containers: [{name: c}]\n---\n"
		"apiVersion: v1\nkind: Pod\nmetadata: {name: team, uid: team}\nspec:\n"
		"  nodeSelector: {team: blue}\n  containers: [{name: c}]\n---\n"
		"apiVersion: v1\nkind: Pod\nmetadata: {name: red, uid: red}\nspec:\n"
		"  nodeSelector: {team: red}\n  containers: [{name: c}]\n---\n"
		"apiVersion: v1\nkind: Pod\nmetadata: {name: unknown-key, uid: uk}\nspec:\n"
		"  nodeSelector: {example.com/other: x}\n  containers: [{name: c}]\n---\n", NULL);
	h_run(&sc, NULL);
	const kp_sched_nodeclaim *n = h_pod_nc(&sc, "p");
	ck_assert_str_eq(n->instance_type, "arm-medium");
	ck_assert_str_eq(h_req(n->nodeclaim, KP_LABEL_INSTANCE_TYPE), "In arm-medium");
	ck_assert_str_eq(h_req(n->nodeclaim, KP_LABEL_ARCH), "In arm64");
	ck_assert_str_eq(h_label(n->nodeclaim, "team"), "blue");
	ck_assert_uint_eq(h_pod(&sc, "team")->target, KP_SCHED_NEW_NODECLAIM);
	const kp_sched_placement *amd = h_pod(&sc, "amd");
	ck_assert_uint_eq(amd->target, KP_SCHED_UNPLACED);
	const kp_sched_reason *r = h_reason(amd, KP_REASON_NODEPOOL_REQUIREMENTS, "arm", NULL);
	ck_assert_ptr_nonnull(r);
	ck_assert_ptr_nonnull(strstr(r->message, "incompatible requirements"));
	ck_assert_ptr_nonnull(strstr(r->message, "kubernetes.io/arch"));
	ck_assert_uint_eq(h_pod(&sc, "red")->target, KP_SCHED_UNPLACED);
	ck_assert_ptr_nonnull(h_reason(h_pod(&sc, "red"), KP_REASON_NODEPOOL_REQUIREMENTS, "arm", NULL));
	const kp_sched_placement *uk = h_pod(&sc, "unknown-key");
	r = h_reason(uk, KP_REASON_NODEPOOL_REQUIREMENTS, "arm", NULL);
	ck_assert_ptr_nonnull(r);
	ck_assert_ptr_nonnull(strstr(r->message, "label \"example.com/other\" does not have known values"));
}
END_TEST

#define TAINTED_POOL(effect)                                                                       \
	"apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: tainted}\nspec:\n  template:\n" \
	"    spec:\n      nodeClassRef: {group: karpenter.kwok.sh, kind: KWOKNodeClass, name: "      \
	"default}\n      requirements: []\n      taints: [{key: dedicated, value: gpu, effect: "    \
	effect "}]\n---\n"

START_TEST(nodepool_taints)
{
	h_load(&sc, TAINTED_POOL("NoSchedule") H_POD("plain", "1", "1Gi")
		"apiVersion: v1\nkind: Pod\nmetadata: {name: tolerant, uid: t}\nspec:\n"
		"  tolerations: [{key: dedicated, operator: Equal, value: gpu, effect: NoSchedule}]\n"
		"  containers: [{name: c}]\n---\n", NULL);
	h_run(&sc, NULL);
	ck_assert_uint_eq(h_pod(&sc, "tolerant")->target, KP_SCHED_NEW_NODECLAIM);
	const kp_sched_placement *p = h_pod(&sc, "plain");
	ck_assert_uint_eq(p->target, KP_SCHED_UNPLACED);
	const kp_sched_reason *r = h_reason(p, KP_REASON_TAINTS, "tainted", NULL);
	ck_assert_ptr_nonnull(r);
	ck_assert_str_eq(r->field, "dedicated=gpu:NoSchedule");
	ck_assert_ptr_nonnull(strstr(r->message, "did not tolerate taint"));
	const kp_sched_nodeclaim *n = h_pod_nc(&sc, "tolerant");
	ck_assert_uint_eq(n->nodeclaim->spec->n_taints, 1);
	ck_assert_str_eq(n->nodeclaim->spec->taints[0].key, "dedicated");
}
END_TEST

START_TEST(prefer_no_schedule_relaxed)
{
	/* upstream tolerates PreferNoSchedule taints only as the last relaxation */
	h_load(&sc, TAINTED_POOL("PreferNoSchedule") H_POD("plain", "1", "1Gi"), NULL);
	h_run(&sc, NULL);
	ck_assert_uint_eq(h_pod(&sc, "plain")->target, KP_SCHED_NEW_NODECLAIM);
}
END_TEST

START_TEST(required_terms_in_turn)
{
	h_load(&sc, NODEPOOL("default")
		"apiVersion: v1\nkind: Pod\nmetadata: {name: p, uid: p}\nspec:\n  affinity:\n    nodeAffinity:\n"
		"      requiredDuringSchedulingIgnoredDuringExecution:\n        nodeSelectorTerms:\n"
		"        - matchExpressions: [{key: topology.kubernetes.io/zone, operator: In, values: [mars]}]\n"
		"        - matchExpressions: [{key: topology.kubernetes.io/zone, operator: In, values: [test-zone-b]}]\n"
		"  containers: [{name: c}]\n---\n"
		"apiVersion: v1\nkind: Pod\nmetadata: {name: last, uid: last}\nspec:\n  affinity:\n    nodeAffinity:\n"
		"      requiredDuringSchedulingIgnoredDuringExecution:\n        nodeSelectorTerms:\n"
		"        - matchExpressions: [{key: topology.kubernetes.io/zone, operator: In, values: [test-zone-c]}]\n"
		"        - matchExpressions: [{key: topology.kubernetes.io/zone, operator: In, values: [mars]}]\n"
		"  containers: [{name: c, resources: {requests: {cpu: \"15\"}}}]\n---\n"
		"apiVersion: v1\nkind: Pod\nmetadata: {name: never, uid: never}\nspec:\n  affinity:\n    nodeAffinity:\n"
		"      requiredDuringSchedulingIgnoredDuringExecution:\n        nodeSelectorTerms:\n"
		"        - matchExpressions: [{key: topology.kubernetes.io/zone, operator: In, values: [venus]}]\n"
		"        - matchExpressions: [{key: topology.kubernetes.io/zone, operator: In, values: [mars]}]\n"
		"  containers: [{name: c}]\n---\n", NULL);
	h_run(&sc, NULL);
	const kp_sched_nodeclaim *n = h_pod_nc(&sc, "p");
	ck_assert_ptr_nonnull(n);
	ck_assert_str_eq(n->zone, "test-zone-b");
	ck_assert_str_eq(h_req(n->nodeclaim, KP_LABEL_TOPOLOGY_ZONE), "In test-zone-b");
	/* the first term is used when it works */
	ck_assert_str_eq(h_pod_nc(&sc, "last")->zone, "test-zone-c");
	/* the final term is never relaxed */
	const kp_sched_placement *nv = h_pod(&sc, "never");
	ck_assert_uint_eq(nv->target, KP_SCHED_UNPLACED);
	/* zone is well-known: the template does not define it, the instance
	 * types decide (upstream: no instance type met the requirements) */
	const kp_sched_reason *r = h_reason(nv, KP_REASON_NO_INSTANCE_TYPE, "default", NULL);
	ck_assert_ptr_nonnull(r);
	ck_assert_ptr_nonnull(strstr(r->message, "no instance type met the scheduling requirements"));
}
END_TEST

START_TEST(preferred_node_affinity)
{
	h_load(&sc, NODEPOOL("default")
		"apiVersion: v1\nkind: Pod\nmetadata: {name: c-zone, uid: c}\nspec:\n  affinity:\n    nodeAffinity:\n"
		"      preferredDuringSchedulingIgnoredDuringExecution:\n"
		"      - weight: 1\n        preference: {matchExpressions: [{key: topology.kubernetes.io/zone, operator: In, values: [test-zone-b]}]}\n"
		"      - weight: 50\n        preference: {matchExpressions: [{key: topology.kubernetes.io/zone, operator: In, values: [test-zone-c]}]}\n"
		"  containers: [{name: c, resources: {requests: {cpu: \"15\"}}}]\n---\n"
		"apiVersion: v1\nkind: Pod\nmetadata: {name: impossible, uid: i}\nspec:\n  affinity:\n    nodeAffinity:\n"
		"      preferredDuringSchedulingIgnoredDuringExecution:\n"
		"      - weight: 10\n        preference: {matchExpressions: [{key: topology.kubernetes.io/zone, operator: In, values: [mars]}]}\n"
		"  containers: [{name: c, resources: {requests: {cpu: \"15\"}}}]\n---\n", NULL);
	h_run(&sc, NULL);
	ck_assert_str_eq(h_pod_nc(&sc, "c-zone")->zone, "test-zone-c");
	const kp_sched_nodeclaim *n = h_pod_nc(&sc, "impossible");
	ck_assert_ptr_nonnull(n);
	ck_assert_ptr_null(h_req(n->nodeclaim, KP_LABEL_TOPOLOGY_ZONE));
}
END_TEST

START_TEST(limits)
{
	/* upstream subtracts the largest remaining instance type's capacity
	 * when it opens a NodeClaim: after the first one (large or gpu, 8 cpu)
	 * 1 cpu of the limit of 9 is left, below every instance type */
	h_load(&sc,
		"apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: limited}\nspec:\n  limits: {cpu: \"9\"}\n"
		"  template:\n    spec:\n      nodeClassRef: {group: karpenter.kwok.sh, kind: KWOKNodeClass, name: default}\n"
		"      requirements: []\n---\n"
		"apiVersion: v1\nkind: Pod\nmetadata: {name: a, uid: a}\nspec: {containers: [{name: c, resources: {requests: {cpu: \"5\"}}}]}\n---\n"
		"apiVersion: v1\nkind: Pod\nmetadata: {name: b, uid: b}\nspec: {containers: [{name: c, resources: {requests: {cpu: \"5\"}}}]}\n---\n",
		NULL);
	h_run(&sc, NULL);
	ck_assert_uint_eq(kp_sched_result_nodeclaim_count(sc.result), 1);
	ck_assert_str_eq(h_req(h_pod_nc(&sc, "a")->nodeclaim, KP_LABEL_INSTANCE_TYPE), "In gpu,large");
	const kp_sched_placement *b = h_pod(&sc, "b");
	ck_assert_uint_eq(b->target, KP_SCHED_UNPLACED);
	const kp_sched_reason *r = h_reason(b, KP_REASON_NODEPOOL_LIMITS, "limited", NULL);
	ck_assert_ptr_nonnull(r);
	ck_assert_ptr_nonnull(strstr(r->message, "exceed limits"));
	/* instance types above the limit are never used */
	h_free(&sc);
	h_load(&sc,
		"apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: limited}\nspec:\n  limits: {cpu: \"4\"}\n"
		"  template:\n    spec:\n      nodeClassRef: {group: karpenter.kwok.sh, kind: KWOKNodeClass, name: default}\n"
		"      requirements: []\n---\n" H_POD("a", "1", "1Gi") H_POD("big", "6", "1Gi"), NULL);
	h_run(&sc, NULL);
	ck_assert_str_eq(h_req(h_pod_nc(&sc, "a")->nodeclaim, KP_LABEL_INSTANCE_TYPE),
			 "In arm-medium,medium,small");
	/* "big" was tried first (queue order) and failed on resources; its
	 * last attempt came after "a" used up the limit, so that is the reason
	 * reported (the state of its last attempt, as upstream's last error) */
	ck_assert_ptr_nonnull(h_reason(h_pod(&sc, "big"), KP_REASON_NODEPOOL_LIMITS, "limited", NULL));
}
END_TEST

START_TEST(limits_beyond_milli_range)
{
	/* 10000000Gi is ~1.07e19 thousandths of a byte, beyond int64: memory is
	 * kept in whole bytes, so the limit and the pool's usage stay exact and
	 * exactly 4Gi (one "small") remain */
	h_load(&sc,
		"apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: limited}\nspec:\n"
		"  limits: {memory: 10000000Gi}\n"
		"  template:\n    spec:\n      nodeClassRef: {group: karpenter.kwok.sh, kind: KWOKNodeClass, name: default}\n"
		"      requirements: []\n---\n"
		"apiVersion: v1\nkind: Node\nmetadata:\n  name: huge\n  labels: {kubernetes.io/hostname: huge, "
		"karpenter.sh/nodepool: limited, karpenter.sh/registered: \"true\", karpenter.sh/initialized: \"true\"}\n"
		"spec: {providerID: \"kwok://huge\", taints: [{key: full, effect: NoSchedule}]}\n"
		"status:\n  capacity: {cpu: \"4\", memory: 9999996Gi, pods: \"20\"}\n"
		"  allocatable: {cpu: \"4\", memory: 9999996Gi, pods: \"20\"}\n---\n"
		H_POD("a", "1", "1Gi"), NULL);
	h_run(&sc, NULL);
	ck_assert_uint_eq(h_pod(&sc, "a")->target, KP_SCHED_NEW_NODECLAIM);
	ck_assert_str_eq(h_req(h_pod_nc(&sc, "a")->nodeclaim, KP_LABEL_INSTANCE_TYPE), "In small");
}
END_TEST

#define DAEMONSET(name, cpu, extra)                                                                \
	"apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: " name ", namespace: kube-system}\n"  \
	"spec:\n  selector: {matchLabels: {app: " name "}}\n  template:\n    metadata: {labels: {app: " \
	name "}}\n    spec:\n" extra "      containers: [{name: c, resources: {requests: {cpu: \""  \
	cpu "\"}}}]\n---\n"

START_TEST(daemon_overhead)
{
	h_load(&sc, NODEPOOL("default") DAEMONSET("logger", "1", "")
		DAEMONSET("arm-only", "500m", "      nodeSelector: {kubernetes.io/arch: arm64}\n")
		DAEMONSET("tainted-away", "2", "      nodeSelector: {example.com/never: x}\n")
		H_POD("p", "2", "1Gi"), NULL);
	h_run(&sc, NULL);
	const kp_sched_nodeclaim *n = h_pod_nc(&sc, "p");
	/* small (2 cpu) cannot hold 2 + 1; medium holds 3, arm-medium 3.5 */
	ck_assert_str_eq(h_req(n->nodeclaim, KP_LABEL_INSTANCE_TYPE),
			 "In arm-medium,gpu,large,medium,xlarge");
	/* requests: the pod plus the smallest daemon overhead over the options */
	ck_assert_str_eq(h_request(n->nodeclaim, "cpu"), "3");
	ck_assert_str_eq(h_request(n->nodeclaim, "pods"), "2");
	ck_assert_str_eq(n->instance_type, "arm-medium");
}
END_TEST

START_TEST(min_values)
{
	const char *yaml =
		"apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: mv}\nspec:\n  template:\n    spec:\n"
		"      nodeClassRef: {group: karpenter.kwok.sh, kind: KWOKNodeClass, name: default}\n"
		"      requirements:\n      - {key: node.kubernetes.io/instance-type, operator: In, values: [small, medium, large], minValues: 3}\n---\n"
		H_POD("p", "3", "1Gi");
	h_load(&sc, yaml, NULL);
	h_run(&sc, NULL);
	const kp_sched_placement *p = h_pod(&sc, "p");
	ck_assert_uint_eq(p->target, KP_SCHED_UNPLACED);
	const kp_sched_reason *r = h_reason(p, KP_REASON_MIN_VALUES, "mv", NULL);
	ck_assert_ptr_nonnull(r);
	ck_assert_str_eq(r->field, KP_LABEL_INSTANCE_TYPE);
	kp_sched_options o = KP_SCHED_OPTIONS_INIT;
	o.min_values_policy = KP_MIN_VALUES_BEST_EFFORT;
	h_run(&sc, &o);
	const kp_sched_nodeclaim *n = h_pod_nc(&sc, "p");
	ck_assert_ptr_nonnull(n);
	ck_assert_str_eq(h_req(n->nodeclaim, KP_LABEL_INSTANCE_TYPE), "In large,medium minValues=2");
	ck_assert_str_eq(h_annotation(n->nodeclaim, KP_ANNOTATION_NODECLAIM_MIN_VALUES_RELAXED), "true");
	/* a pod that fits all three keeps minValues 3 */
	h_free(&sc);
	h_load(&sc,
		"apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: mv}\nspec:\n  template:\n    spec:\n"
		"      nodeClassRef: {group: karpenter.kwok.sh, kind: KWOKNodeClass, name: default}\n"
		"      requirements:\n      - {key: node.kubernetes.io/instance-type, operator: In, values: [small, medium, large], minValues: 3}\n---\n"
		H_POD("p", "1", "1Gi"), NULL);
	h_run(&sc, NULL);
	n = h_pod_nc(&sc, "p");
	ck_assert_str_eq(h_req(n->nodeclaim, KP_LABEL_INSTANCE_TYPE), "In large,medium,small minValues=3");
	ck_assert_str_eq(h_annotation(n->nodeclaim, KP_ANNOTATION_NODECLAIM_MIN_VALUES_RELAXED), "false");
	/* truncation below minValues drops the NodeClaim under Strict */
	kp_sched_options t = KP_SCHED_OPTIONS_INIT;
	t.max_instance_types = 2;
	h_run(&sc, &t);
	ck_assert_uint_eq(kp_sched_result_nodeclaim_count(sc.result), 0);
	ck_assert_ptr_nonnull(h_reason(h_pod(&sc, "p"), KP_REASON_MIN_VALUES, "mv", NULL));
	t.min_values_policy = KP_MIN_VALUES_BEST_EFFORT;
	h_run(&sc, &t);
	ck_assert_uint_eq(kp_sched_result_nodeclaim_count(sc.result), 1);
	ck_assert_uint_eq(kp_sched_result_nodeclaim_at(sc.result, 0)->n_instance_type_options, 2);
}
END_TEST

START_TEST(max_instance_types)
{
	h_load(&sc, NODEPOOL("default") H_POD("p", "1", "1Gi"), NULL);
	kp_sched_options o = KP_SCHED_OPTIONS_INIT;
	o.max_instance_types = 3;
	h_run(&sc, &o);
	const kp_sched_nodeclaim *n = h_pod_nc(&sc, "p");
	ck_assert_uint_eq(n->n_instance_type_options, 3);
	/* the three cheapest */
	ck_assert_str_eq(h_req(n->nodeclaim, KP_LABEL_INSTANCE_TYPE), "In arm-medium,medium,small");
}
END_TEST

START_TEST(nodeclass_readiness)
{
	h_load(&sc, NODEPOOL("default") H_POD("p", "1", "1Gi"), NULL);
	kp_nodeclass_status st = KP_NODECLASS_STATUS_INIT;
	st.group = "karpenter.kwok.sh";
	st.kind = "KWOKNodeClass";
	st.name = "default";
	st.ready = 0;
	st.message = "subnets not found";
	sc.classes[0] = &st;
	sc.n_classes = 1;
	h_run(&sc, NULL);
	const kp_sched_placement *p = h_pod(&sc, "p");
	ck_assert_uint_eq(p->target, KP_SCHED_UNPLACED);
	const kp_sched_reason *r = h_reason(p, KP_REASON_NODEPOOL_NOT_READY, "default", NULL);
	ck_assert_ptr_nonnull(r);
	ck_assert_str_eq(r->message, "node class KWOKNodeClass \"default\" is not ready: subnets not found");
	kp_cluster_free(sc.cluster);
	sc.cluster = NULL;
	st.ready = 1;
	h_run(&sc, NULL);
	ck_assert_uint_eq(h_pod(&sc, "p")->target, KP_SCHED_NEW_NODECLAIM);
	kp_cluster_free(sc.cluster);
	sc.cluster = NULL;
	st.name = "other";
	h_run(&sc, NULL);
	r = h_reason(h_pod(&sc, "p"), KP_REASON_NODEPOOL_NOT_READY, "default", NULL);
	ck_assert_ptr_nonnull(r);
	ck_assert_str_eq(r->message, "node class KWOKNodeClass \"default\" not found");
}
END_TEST

START_TEST(no_instance_types)
{
	h_load(&sc, NODEPOOL("default") H_POD("p", "1", "1Gi"), NULL);
	sc.per_pool[0] = NULL;
	h_run(&sc, NULL);
	const kp_sched_reason *r = h_reason(h_pod(&sc, "p"), KP_REASON_NO_INSTANCE_TYPE, "default", NULL);
	ck_assert_ptr_nonnull(r);
}
END_TEST

START_TEST(extended_resources)
{
	h_load(&sc, NODEPOOL("default")
		"apiVersion: v1\nkind: Pod\nmetadata: {name: gpu, uid: g}\nspec: {containers: [{name: c, resources: "
		"{limits: {nvidia.com/gpu: \"1\"}}}]}\n---\n", NULL);
	h_run(&sc, NULL);
	const kp_sched_nodeclaim *n = h_pod_nc(&sc, "gpu");
	ck_assert_str_eq(n->instance_type, "gpu");
	ck_assert_str_eq(h_request(n->nodeclaim, "nvidia.com/gpu"), "1");
}
END_TEST

START_TEST(host_ports_on_new_nodeclaims)
{
#define PORT_POD(n)                                                                                \
	"apiVersion: v1\nkind: Pod\nmetadata: {name: " n ", uid: " n "}\nspec:\n  containers:\n"       \
	"  - name: c\n    ports: [{containerPort: 80, hostPort: 8080}]\n---\n"
	h_load(&sc, NODEPOOL("default") PORT_POD("a") PORT_POD("b"), NULL);
	h_run(&sc, NULL);
	ck_assert_uint_eq(kp_sched_result_nodeclaim_count(sc.result), 2);
}
END_TEST

static Suite *basics_suite(void)
{
	Suite *s = suite_create("scheduler-basics");
	TCase *tc = tcase_create("basics");
	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_add_test(tc, single_pod_new_nodeclaim);
	tcase_add_test(tc, hash_annotation_matches_nodepool_hash);
	tcase_add_test(tc, binpacks_pods);
	tcase_add_test(tc, new_node_when_full);
	tcase_add_test(tc, too_big_for_any_instance_type);
	tcase_add_test(tc, deterministic);
	suite_add_tcase(s, tc);
	return s;
}

static Suite *collection_suite(void)
{
	Suite *s = suite_create("scheduler-pods");
	TCase *tc = tcase_create("collection");
	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_add_test(tc, ignored_pods_are_not_reported);
	tcase_add_test(tc, not_provisionable);
	tcase_add_test(tc, queue_order_creation_time);
	tcase_add_test(tc, only_pods);
	tcase_add_test(tc, options_checked);
	suite_add_tcase(s, tc);
	return s;
}

static Suite *nodepool_suite(void)
{
	Suite *s = suite_create("scheduler-nodepools");
	TCase *tc = tcase_create("nodepools");
	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_add_test(tc, weight_order);
	tcase_add_test(tc, equal_weights_by_name_descending);
	tcase_add_test(tc, select_nodepool);
	tcase_add_test(tc, nodepool_requirements);
	tcase_add_test(tc, nodepool_taints);
	tcase_add_test(tc, prefer_no_schedule_relaxed);
	tcase_add_test(tc, required_terms_in_turn);
	tcase_add_test(tc, preferred_node_affinity);
	tcase_add_test(tc, limits);
	tcase_add_test(tc, limits_beyond_milli_range);
	tcase_add_test(tc, daemon_overhead);
	tcase_add_test(tc, min_values);
	tcase_add_test(tc, max_instance_types);
	tcase_add_test(tc, nodeclass_readiness);
	tcase_add_test(tc, no_instance_types);
	tcase_add_test(tc, extended_resources);
	tcase_add_test(tc, host_ports_on_new_nodeclaims);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	Suite *suites[] = { basics_suite(), collection_suite(), nodepool_suite() };
	return kp_test_run(suites, (int)(sizeof(suites) / sizeof(suites[0])));
}
