/*
 * The scheduling simulation on hostile or unusual inputs (issue 9):
 * node class label keys of any length, NodePool readiness, generated
 * NodeClaim names that avoid the input's names.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched_harness.h"


static h_scenario sc;

static void teardown(void)
{
	h_free(&sc);
}

/* ------------------------------------------------------------------ */
/* nodeClassRef group lengths                                          */

/* A DNS subdomain of exactly @p len bytes: labels of up to 60 'g's. */
static char *subdomain(size_t len)
{
	char *s = malloc(len + 1);
	ck_assert_ptr_nonnull(s);
	for (size_t i = 0; i < len; i++)
		s[i] = (i % 61 == 60 && i + 1 < len) ? '.' : 'g';
	s[len] = '\0';
	return s;
}

static char *pool_with_group(const char *group)
{
	const char *head = "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: np, uid: np}\n"
			   "spec:\n  template:\n    spec:\n      nodeClassRef: {group: \"";
	const char *tail = "\", kind: KWOKNodeClass, name: default}\n      requirements: []\n---\n"
			   H_POD("p1", "1", "1Gi");
	size_t n = strlen(head) + strlen(group) + strlen(tail) + 1;
	char *y = malloc(n);
	ck_assert_ptr_nonnull(y);
	snprintf(y, n, "%s%s%s", head, group, tail);
	return y;
}

static const size_t group_lengths[] = { 241, 242, 253, 254, 255, 70000 };

START_TEST(nodeclass_group_length)
{
	size_t len = group_lengths[_i];
	char *group = subdomain(len);
	char *yaml = pool_with_group(group);
	h_load(&sc, yaml, NULL);
	h_run(&sc, NULL);
	const kp_sched_placement *p = h_pod(&sc, "p1");
	ck_assert_ptr_nonnull(p);
	if (len <= 253) {
		/* the full key "<group>/kwoknodeclass", never cut */
		ck_assert_uint_eq(p->target, KP_SCHED_NEW_NODECLAIM);
		const kp_sched_nodeclaim *n = h_pod_nc(&sc, "p1");
		ck_assert_ptr_nonnull(n);
		size_t kl = len + strlen("/kwoknodeclass") + 1;
		char *key = malloc(kl);
		ck_assert_ptr_nonnull(key);
		snprintf(key, kl, "%s/kwoknodeclass", group);
		ck_assert_str_eq(h_label(n->nodeclaim, key), "default");
		const kp_labels *l = &n->nodeclaim->metadata->labels;
		for (size_t i = 0; i < l->count; i++)
			if (!strncmp(l->items[i].key, group, len))
				ck_assert_str_eq(l->items[i].key, key);
		free(key);
	} else {
		/* the prefix is over 253 bytes: the NodePool is not usable */
		ck_assert_uint_eq(p->target, KP_SCHED_UNPLACED);
		ck_assert_uint_eq(kp_sched_result_nodeclaim_count(sc.result), 0);
		ck_assert_uint_eq(p->n_reasons, 1);
		const kp_sched_reason *r = h_reason(p, KP_REASON_NODEPOOL_NOT_READY, "np", NULL);
		ck_assert_ptr_nonnull(r);
		ck_assert_ptr_null(r->field);
		char want[512];
		snprintf(want, sizeof(want),
			 "the node class label key \"%.48s\"... (nodeClassRef group/kind) is not a "
			 "valid label key: prefix part must be no more than 253 bytes",
			 group);
		ck_assert_str_eq(r->message, want);
	}
	free(yaml);
	free(group);
}
END_TEST

START_TEST(nodeclass_key_not_a_label_key)
{
	/* a group with '/' or upper case, a kind over 63 bytes: the derived
	 * key is no label key */
	static const struct {
		const char *group, *kind, *problem;
	} cases[] = {
		{ "karpenter.kwok.sh/x", "KWOKNodeClass",
		  "a valid label key must consist of alphanumeric characters, '-', '_' or '.', and "
		  "must start and end with an alphanumeric character (e.g. 'MyName',  or "
		  "'my.name',  or '123-abc', regex used for validation is "
		  "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain "
		  "prefix and '/' (e.g. 'example.com/MyName')" },
		{ "Karpenter.kwok.sh", "KWOKNodeClass", NULL },
		{ "karpenter.kwok.sh",
		  "K1234567890123456789012345678901234567890123456789012345678901234", NULL },
	};
	char yaml[1024];
	snprintf(yaml, sizeof(yaml),
		 "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: np, uid: np}\n"
		 "spec:\n  template:\n    spec:\n      nodeClassRef: {group: \"%s\", kind: "
		 "\"%s\", name: default}\n      requirements: []\n---\n" H_POD("p1", "1", "1Gi"),
		 cases[_i].group, cases[_i].kind);
	h_load(&sc, yaml, NULL);
	h_run(&sc, NULL);
	const kp_sched_placement *p = h_pod(&sc, "p1");
	ck_assert_uint_eq(p->target, KP_SCHED_UNPLACED);
	const kp_sched_reason *r = h_reason(p, KP_REASON_NODEPOOL_NOT_READY, "np", NULL);
	ck_assert_ptr_nonnull(r);
	ck_assert_ptr_nonnull(strstr(r->message, "is not a valid label key: "));
	if (cases[_i].problem)
		ck_assert_str_eq(strstr(r->message, ": ") + 2, cases[_i].problem);
}
END_TEST

/* ------------------------------------------------------------------ */
/* NodePool readiness                                                  */

#define READY_POOL(name, w, status, msg)                                                           \
	"apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: " name ", uid: " name "}\n"  \
	"spec:\n  weight: " #w "\n  template:\n    spec:\n      nodeClassRef: {group: "            \
	"karpenter.kwok.sh, kind: KWOKNodeClass, name: default}\n      requirements: []\n"        \
	"status:\n  conditions:\n  - {type: Ready, status: \"" status "\", reason: R, message: \""  \
	msg "\", lastTransitionTime: \"2024-01-01T00:00:00Z\"}\n---\n"

START_TEST(nodepool_not_ready_is_skipped)
{
	static const char *const statuses[] = { "False", "Unknown" };
	char yaml[4096];
	snprintf(yaml, sizeof(yaml),
		 "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: heavy, uid: heavy}\n"
		 "spec:\n  weight: 50\n  template:\n    spec:\n      nodeClassRef: {group: "
		 "karpenter.kwok.sh, kind: KWOKNodeClass, name: default}\n      requirements: []\n"
		 "status:\n  conditions:\n  - {type: Ready, status: \"%s\", reason: NodeClassNotReady, "
		 "message: \"NodeClassReady=False\", lastTransitionTime: \"2024-01-01T00:00:00Z\"}\n---\n"
		 "%s" H_POD("p1", "1", "1Gi"),
		 statuses[_i], READY_POOL("light", 1, "True", ""));
	h_load(&sc, yaml, NULL);
	h_run(&sc, NULL);
	const kp_sched_nodeclaim *n = h_pod_nc(&sc, "p1");
	ck_assert_ptr_nonnull(n);
	ck_assert_str_eq(n->nodepool, "light");
	ck_assert_uint_eq(kp_sched_result_nodeclaim_count(sc.result), 1);
}
END_TEST

START_TEST(nodepool_not_ready_reason)
{
	h_load(&sc, READY_POOL("np", 1, "False", "NodeClassReady=False") H_POD("p1", "1", "1Gi"), NULL);
	h_run(&sc, NULL);
	const kp_sched_placement *p = h_pod(&sc, "p1");
	ck_assert_uint_eq(p->target, KP_SCHED_UNPLACED);
	ck_assert_uint_eq(p->n_reasons, 1);
	const kp_sched_reason *r = h_reason(p, KP_REASON_NODEPOOL_NOT_READY, "np", NULL);
	ck_assert_ptr_nonnull(r);
	ck_assert_str_eq(r->message, "the NodePool is not ready (Ready=False: NodeClassReady=False)");
	h_free(&sc);
	h_load(&sc, READY_POOL("np", 1, "Unknown", "") H_POD("p1", "1", "1Gi"), NULL);
	h_run(&sc, NULL);
	p = h_pod(&sc, "p1");
	r = h_reason(p, KP_REASON_NODEPOOL_NOT_READY, "np", NULL);
	ck_assert_ptr_nonnull(r);
	ck_assert_str_eq(r->message, "the NodePool is not ready (Ready=Unknown)");
}
END_TEST

START_TEST(nodepool_ready_or_without_condition_is_used)
{
	/* Ready True, or no Ready condition (other conditions only), is ready */
	h_load(&sc,
	       READY_POOL("np", 1, "True", "")
	       "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: other, uid: other}\n"
	       "spec:\n  weight: 2\n  template:\n    spec:\n      nodeClassRef: {group: "
	       "karpenter.kwok.sh, kind: KWOKNodeClass, name: default}\n      requirements: []\n"
	       "status:\n  conditions:\n  - {type: ValidationSucceeded, status: \"False\", reason: R, "
	       "message: \"\", lastTransitionTime: \"2024-01-01T00:00:00Z\"}\n---\n"
	       H_POD("p1", "1", "1Gi"), NULL);
	h_run(&sc, NULL);
	const kp_sched_nodeclaim *n = h_pod_nc(&sc, "p1");
	ck_assert_ptr_nonnull(n);
	ck_assert_str_eq(n->nodepool, "other");
}
END_TEST


/* ------------------------------------------------------------------ */
/* Texts at full length                                                */

START_TEST(long_taint_in_reason)
{
	/* a valid taint of 140 bytes as text: the reason's field holds all of it */
	h_load(&sc,
	       "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: np, uid: np}\n"
	       "spec:\n  template:\n    spec:\n      nodeClassRef: {group: karpenter.kwok.sh, "
	       "kind: KWOKNodeClass, name: default}\n      requirements: []\n      taints:\n"
	       "      - {key: example.com/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa, "
	       "value: bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb, effect: NoSchedule}\n"
	       "---\n" H_POD("p1", "1", "1Gi"), NULL);
	h_run(&sc, NULL);
	const kp_sched_placement *p = h_pod(&sc, "p1");
	ck_assert_uint_eq(p->target, KP_SCHED_UNPLACED);
	const kp_sched_reason *r = h_reason(p, KP_REASON_TAINTS, "np", NULL);
	ck_assert_ptr_nonnull(r);
	ck_assert_str_eq(r->field,
			 "example.com/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa="
			 "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb:NoSchedule");
}
END_TEST

START_TEST(long_ephemeral_claim_name)
{
	/* the claim of ephemeral volume "scratch" of a pod with a 250-byte name
	 * is "<pod>-scratch"; a claim named like its first 255 bytes is another one */
	char pod[251], yaml[8192];
	memset(pod, 'e', 250);
	pod[250] = '\0';
	snprintf(yaml, sizeof(yaml),
		 "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: np, uid: np}\n"
		 "spec:\n  template:\n    spec:\n      nodeClassRef: {group: karpenter.kwok.sh, "
		 "kind: KWOKNodeClass, name: default}\n      requirements: []\n---\n"
		 "apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {name: zone-c}\n"
		 "provisioner: ebs.csi.aws.com\nvolumeBindingMode: WaitForFirstConsumer\n"
		 "allowedTopologies:\n- matchLabelExpressions: [{key: topology.kubernetes.io/zone, "
		 "values: [test-zone-c]}]\n---\n"
		 "apiVersion: v1\nkind: PersistentVolume\nmetadata: {name: pv-b}\nspec:\n"
		 "  csi: {driver: ebs.csi.aws.com, volumeHandle: vol-1}\n  nodeAffinity:\n    required:\n"
		 "      nodeSelectorTerms:\n      - matchExpressions: [{key: topology.kubernetes.io/zone, "
		 "operator: In, values: [test-zone-b]}]\n---\n"
		 "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: %s-scra\n"
		 "  namespace: default\n  annotations: {pv.kubernetes.io/bind-completed: \"yes\"}\n"
		 "spec: {volumeName: pv-b}\nstatus: {phase: Bound}\n---\n"
		 "apiVersion: v1\nkind: Pod\nmetadata: {name: %s, uid: eph}\nspec:\n"
		 "  containers: [{name: c}]\n  volumes:\n  - name: scratch\n    ephemeral:\n"
		 "      volumeClaimTemplate: {spec: {storageClassName: zone-c, accessModes: "
		 "[ReadWriteOnce]}}\n---\n",
		 pod, pod);
	h_load(&sc, yaml, NULL);
	h_run(&sc, NULL);
	char name[300];
	snprintf(name, sizeof(name), "default/%s", pod);
	const kp_sched_nodeclaim *n = h_pod_nc(&sc, name);
	ck_assert_ptr_nonnull(n);
	ck_assert_str_eq(n->zone, "test-zone-c");
}
END_TEST


/* ------------------------------------------------------------------ */
/* Generated NodeClaim names                                           */

#define SIMPLE_POOL(name)                                                                          \
	"apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: " name ", uid: " name "}\n"  \
	"spec:\n  template:\n    spec:\n      nodeClassRef: {group: karpenter.kwok.sh, kind: "     \
	"KWOKNodeClass, name: default}\n      requirements: []\n---\n"

/* An in-flight NodeClaim (launched, no Node) of pool default with @p cpu. */
#define INFLIGHT(name, cpu)                                                                        \
	"apiVersion: karpenter.sh/v1\nkind: NodeClaim\nmetadata:\n  name: " name "\n"               \
	"  labels: {karpenter.sh/nodepool: default, node.kubernetes.io/instance-type: small, "      \
	"topology.kubernetes.io/zone: test-zone-a}\nspec:\n  nodeClassRef: {group: "               \
	"karpenter.kwok.sh, kind: KWOKNodeClass, name: default}\n  requirements: []\n"              \
	"status: {providerID: \"kwok://" name "\", capacity: {cpu: \"" cpu "\", memory: 8Gi, "      \
	"pods: \"20\"}, allocatable: {cpu: \"" cpu "\", memory: 8Gi, pods: \"20\"}}\n---\n"

/* An unmanaged Node, tainted so that nothing pending lands on it. */
#define TAINTED_NODE(name)                                                                         \
	"apiVersion: v1\nkind: Node\nmetadata:\n  name: " name "\n  labels: {kubernetes.io/hostname: " \
	name "}\nspec:\n  providerID: \"kwok://" name "\"\n  taints: [{key: x, effect: NoSchedule}]\n" \
	"status: {allocatable: {cpu: \"4\", memory: 8Gi, pods: \"20\"}}\n---\n"

/* A NodeClaim not launched yet (no provider ID): not a state node. */
#define UNLAUNCHED(name)                                                                           \
	"apiVersion: karpenter.sh/v1\nkind: NodeClaim\nmetadata: {name: " name "}\nspec:\n"         \
	"  nodeClassRef: {group: karpenter.kwok.sh, kind: KWOKNodeClass, name: default}\n"         \
	"  requirements: []\n---\n"

START_TEST(generated_names_skip_input_names)
{
	/* default-00001 is a Node, default-00002 an in-flight NodeClaim (too
	 * small), default-00004 a NodeClaim not launched: the new ones take
	 * 00003, 00005 and, in pool other, other-00006 */
	h_load(&sc,
	       SIMPLE_POOL("default") TAINTED_NODE("default-00001") INFLIGHT("default-00002", "100m")
	       UNLAUNCHED("default-00004") H_POD("p1", "9", "1Gi") H_POD("p2", "9", "1Gi"), NULL);
	h_run(&sc, NULL);
	ck_assert_uint_eq(kp_sched_result_nodeclaim_count(sc.result), 2);
	ck_assert_str_eq(kp_sched_result_nodeclaim_at(sc.result, 0)->nodeclaim->metadata->name,
			 "default-00003");
	ck_assert_str_eq(kp_sched_result_nodeclaim_at(sc.result, 1)->nodeclaim->metadata->name,
			 "default-00005");
	ck_assert_str_eq(kp_sched_result_nodeclaim_at(sc.result, 1)->nodeclaim->metadata->generate_name,
			 "default-");
	/* a pod names the NodeClaim it goes to */
	const kp_sched_placement *p = h_pod(&sc, "p1");
	ck_assert_uint_eq(p->target, KP_SCHED_NEW_NODECLAIM);
	ck_assert_str_eq(p->node,
			 kp_sched_result_nodeclaim_at(sc.result, p->nodeclaim_index)->nodeclaim->metadata->name);
}
END_TEST

START_TEST(generated_names_without_conflict_unchanged)
{
	h_load(&sc, SIMPLE_POOL("default") TAINTED_NODE("node-a") INFLIGHT("default-abcde", "100m")
		       H_POD("p1", "9", "1Gi") H_POD("p2", "9", "1Gi"), NULL);
	h_run(&sc, NULL);
	ck_assert_uint_eq(kp_sched_result_nodeclaim_count(sc.result), 2);
	ck_assert_str_eq(kp_sched_result_nodeclaim_at(sc.result, 0)->nodeclaim->metadata->name,
			 "default-00001");
	ck_assert_str_eq(kp_sched_result_nodeclaim_at(sc.result, 1)->nodeclaim->metadata->name,
			 "default-00002");
}
END_TEST

START_TEST(pods_bind_to_nodes_not_nodeclaims)
{
	/* a running pod whose spec.nodeName is an in-flight NodeClaim's name is
	 * on no Node (upstream maps Node names only): it takes nothing of the
	 * NodeClaim, which then has room for the pending pod */
	h_load(&sc,
	       SIMPLE_POOL("default") INFLIGHT("default-abcde", "2")
	       "apiVersion: v1\nkind: Pod\nmetadata: {name: running, namespace: default, uid: running}\n"
	       "spec:\n  nodeName: default-abcde\n  containers: [{name: c, resources: {requests: "
	       "{cpu: \"2\"}}}]\nstatus: {phase: Running}\n---\n"
	       H_POD("p1", "1", "1Gi"), NULL);
	h_run(&sc, NULL);
	const kp_sched_placement *p = h_pod(&sc, "p1");
	ck_assert_uint_eq(p->target, KP_SCHED_INFLIGHT);
	ck_assert_str_eq(p->node, "default-abcde");
	ck_assert_uint_eq(kp_sched_result_nodeclaim_count(sc.result), 0);
}
END_TEST

START_TEST(pods_bind_to_unregistered_node_by_its_name)
{
	/* a Node not registered yet goes by its NodeClaim's name, but pods
	 * bound to the Node's name count on it */
	const char *yaml =
		SIMPLE_POOL("default")
		"apiVersion: v1\nkind: Node\nmetadata:\n  name: node-x\n  labels: {kubernetes.io/hostname: "
		"node-x, karpenter.sh/nodepool: default, node.kubernetes.io/instance-type: small, "
		"topology.kubernetes.io/zone: test-zone-a}\nspec: {providerID: \"kwok://claim-x\"}\n"
		"status: {allocatable: {cpu: \"2\", memory: 8Gi, pods: \"20\"}}\n---\n"
		INFLIGHT("claim-x", "2")
		"apiVersion: v1\nkind: Pod\nmetadata: {name: running, namespace: default, uid: running}\n"
		"spec:\n  nodeName: node-x\n  containers: [{name: c, resources: {requests: "
		"{cpu: \"2\"}}}]\nstatus: {phase: Running}\n---\n"
		H_POD("p1", "1", "1Gi");
	h_load(&sc, yaml, NULL);
	h_run(&sc, NULL);
	/* the running pod fills the node: p1 needs a new NodeClaim */
	const kp_sched_placement *p = h_pod(&sc, "p1");
	ck_assert_uint_eq(p->target, KP_SCHED_NEW_NODECLAIM);
	ck_assert_uint_eq(kp_sched_result_nodeclaim_count(sc.result), 1);
}
END_TEST

Suite *robust_suite(void);
Suite *robust_suite(void)
{
	Suite *s = suite_create("scheduler_robust");
	TCase *tc = tcase_create("nodeclass_label_key");
	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_add_loop_test(tc, nodeclass_group_length, 0,
			    (int)(sizeof(group_lengths) / sizeof(group_lengths[0])));
	tcase_add_loop_test(tc, nodeclass_key_not_a_label_key, 0, 3);
	suite_add_tcase(s, tc);
	tc = tcase_create("nodepool_ready");
	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_add_loop_test(tc, nodepool_not_ready_is_skipped, 0, 2);
	tcase_add_test(tc, nodepool_not_ready_reason);
	tcase_add_test(tc, nodepool_ready_or_without_condition_is_used);
	suite_add_tcase(s, tc);
	tc = tcase_create("generated_names");
	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_add_test(tc, generated_names_skip_input_names);
	tcase_add_test(tc, generated_names_without_conflict_unchanged);
	tcase_add_test(tc, pods_bind_to_nodes_not_nodeclaims);
	tcase_add_test(tc, pods_bind_to_unregistered_node_by_its_name);
	suite_add_tcase(s, tc);
	tc = tcase_create("full_length_texts");
	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_add_test(tc, long_taint_in_reason);
	tcase_add_test(tc, long_ephemeral_claim_name);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	Suite *suites[] = { robust_suite() };
	return kp_test_run(suites, 1);
}
