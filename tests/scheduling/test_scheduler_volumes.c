/*
 * The scheduling simulation, part 4: volumes. Zonal topology of bound
 * PersistentVolumes and of StorageClass allowed topologies, claim
 * validation, CSI attach limits of existing nodes (upstream
 * volumetopology.go, volumeusage.go; suite_test.go "VolumeUsage" and the
 * volume topology scenarios).
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched_harness.h"

#define NODEPOOL                                                                                   \
	"apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: default}\nspec:\n"            \
	"  template:\n    spec:\n      nodeClassRef: {group: karpenter.kwok.sh, kind: "             \
	"KWOKNodeClass, name: default}\n      requirements: []\n---\n"

#define POD_PVC(name, claim)                                                                       \
	"apiVersion: v1\nkind: Pod\nmetadata: {name: " name ", uid: " name "}\nspec:\n"             \
	"  containers: [{name: c, resources: {requests: {cpu: \"1\"}}}]\n"                          \
	"  volumes: [{name: data, persistentVolumeClaim: {claimName: " claim "}}]\n---\n"

#define SC(name, mode, extra)                                                                      \
	"apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {name: " name extra "}\n"     \
	"provisioner: ebs.csi.aws.com\nvolumeBindingMode: " mode "\n"

#define PVC(name, sc)                                                                              \
	"apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: " name ", namespace: default}\n" \
	"spec: {storageClassName: " sc ", accessModes: [ReadWriteOnce]}\n---\n"

#define BOUND_PVC(name, pv)                                                                        \
	"apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: " name "\n  namespace: default\n" \
	"  annotations: {pv.kubernetes.io/bind-completed: \"yes\"}\nspec: {volumeName: " pv "}\n"  \
	"status: {phase: Bound}\n---\n"

#define PV(name, zone)                                                                             \
	"apiVersion: v1\nkind: PersistentVolume\nmetadata: {name: " name "}\nspec:\n"               \
	"  csi: {driver: ebs.csi.aws.com, volumeHandle: vol-1}\n  nodeAffinity:\n    required:\n"    \
	"      nodeSelectorTerms:\n      - matchExpressions: [{key: topology.kubernetes.io/zone, "    \
	"operator: In, values: [" zone "]}]\n---\n"

static h_scenario sc;

static void teardown(void)
{
	h_free(&sc);
}

START_TEST(bound_volume_zone)
{
	h_load(&sc, NODEPOOL PV("pv-b", "test-zone-b") BOUND_PVC("data-b", "pv-b")
		       POD_PVC("p", "data-b"), NULL);
	h_run(&sc, NULL);
	const kp_sched_nodeclaim *n = h_pod_nc(&sc, "p");
	ck_assert_ptr_nonnull(n);
	ck_assert_str_eq(n->zone, "test-zone-b");
	ck_assert_str_eq(h_req(n->nodeclaim, KP_LABEL_TOPOLOGY_ZONE), "In test-zone-b");
}
END_TEST

START_TEST(storage_class_allowed_topologies)
{
	h_load(&sc, NODEPOOL
		SC("zonal", "WaitForFirstConsumer", "") "allowedTopologies:\n"
		"- matchLabelExpressions: [{key: topology.kubernetes.io/zone, values: [test-zone-c]}]\n"
		"- matchLabelExpressions: [{key: topology.kubernetes.io/zone, values: [test-zone-a]}]\n---\n"
		PVC("data", "zonal") POD_PVC("p", "data"), NULL);
	h_run(&sc, NULL);
	/* alternatives are tried in order: the first term works */
	ck_assert_str_eq(h_pod_nc(&sc, "p")->zone, "test-zone-c");
	/* a pod restricted to zone a takes the second term */
	h_free(&sc);
	h_load(&sc, NODEPOOL
		SC("zonal", "WaitForFirstConsumer", "") "allowedTopologies:\n"
		"- matchLabelExpressions: [{key: topology.kubernetes.io/zone, values: [test-zone-c]}]\n"
		"- matchLabelExpressions: [{key: topology.kubernetes.io/zone, values: [test-zone-a]}]\n---\n"
		PVC("data", "zonal")
		"apiVersion: v1\nkind: Pod\nmetadata: {name: p, uid: p}\nspec:\n"
		"  nodeSelector: {topology.kubernetes.io/zone: test-zone-a}\n"
		"  containers: [{name: c}]\n  volumes: [{name: data, persistentVolumeClaim: {claimName: data}}]\n---\n",
		NULL);
	h_run(&sc, NULL);
	ck_assert_str_eq(h_pod_nc(&sc, "p")->zone, "test-zone-a");
}
END_TEST

START_TEST(incompatible_volume_zone)
{
	h_load(&sc, NODEPOOL PV("pv-b", "test-zone-b") BOUND_PVC("data-b", "pv-b")
		"apiVersion: v1\nkind: Pod\nmetadata: {name: p, uid: p}\nspec:\n"
		"  nodeSelector: {topology.kubernetes.io/zone: test-zone-a}\n"
		"  containers: [{name: c}]\n  volumes: [{name: data, persistentVolumeClaim: {claimName: data-b}}]\n---\n",
		NULL);
	h_run(&sc, NULL);
	const kp_sched_placement *p = h_pod(&sc, "p");
	ck_assert_uint_eq(p->target, KP_SCHED_UNPLACED);
	ck_assert_ptr_nonnull(h_reason(p, KP_REASON_VOLUMES, "default", NULL));
}
END_TEST

START_TEST(claim_validation)
{
	h_load(&sc, NODEPOOL SC("fast", "Immediate", "") "---\n" PVC("unbound-immediate", "fast")
		"apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: lost, namespace: default}\n"
		"spec: {storageClassName: fast}\nstatus: {phase: Lost}\n---\n"
		"apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: no-annotation, namespace: default}\n"
		"spec: {volumeName: pv-a}\n---\n" PV("pv-a", "test-zone-a")
		POD_PVC("missing", "nothing") POD_PVC("immediate", "unbound-immediate")
		POD_PVC("lost", "lost") POD_PVC("unannotated", "no-annotation")
		"apiVersion: v1\nkind: Pod\nmetadata: {name: fine, uid: fine}\nspec:\n"
		"  containers: [{name: c}]\n  volumes: [{name: tmp, emptyDir: {}}]\n---\n", NULL);
	h_run(&sc, NULL);
	const char *bad[] = { "missing", "immediate", "lost", "unannotated" };
	for (size_t i = 0; i < 4; i++) {
		const kp_sched_placement *p = h_pod(&sc, bad[i]);
		ck_assert_msg(p->target == KP_SCHED_UNPLACED, "%s", bad[i]);
		ck_assert_uint_eq(p->n_reasons, 1);
		ck_assert_uint_eq(p->reasons[0]->code, KP_REASON_NOT_PROVISIONABLE);
		ck_assert_str_eq(p->reasons[0]->field, "spec.volumes[0]");
	}
	ck_assert_ptr_nonnull(strstr(h_pod(&sc, "missing")->reasons[0]->message, "not found"));
	ck_assert_ptr_nonnull(strstr(h_pod(&sc, "immediate")->reasons[0]->message,
				     "immediate volume binding mode must be bound"));
	ck_assert_ptr_nonnull(strstr(h_pod(&sc, "lost")->reasons[0]->message, "non-existent"));
	ck_assert_ptr_nonnull(strstr(h_pod(&sc, "unannotated")->reasons[0]->message,
				     "pv.kubernetes.io/bind-completed"));
	ck_assert_uint_eq(h_pod(&sc, "fine")->target, KP_SCHED_NEW_NODECLAIM);
}
END_TEST

START_TEST(default_storage_class_and_ephemeral)
{
	h_load(&sc, NODEPOOL
		SC("old-default", "WaitForFirstConsumer",
		   ", creationTimestamp: \"2024-01-01T00:00:00Z\", annotations: "
		   "{storageclass.kubernetes.io/is-default-class: \"true\"}") "allowedTopologies:\n"
		"- matchLabelExpressions: [{key: topology.kubernetes.io/zone, values: [test-zone-a]}]\n---\n"
		SC("new-default", "WaitForFirstConsumer",
		   ", creationTimestamp: \"2024-06-01T00:00:00Z\", annotations: "
		   "{storageclass.kubernetes.io/is-default-class: \"true\"}") "allowedTopologies:\n"
		"- matchLabelExpressions: [{key: topology.kubernetes.io/zone, values: [test-zone-b]}]\n---\n"
		SC("zone-c", "WaitForFirstConsumer", "") "allowedTopologies:\n"
		"- matchLabelExpressions: [{key: topology.kubernetes.io/zone, values: [test-zone-c]}]\n---\n"
		"apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: data, namespace: default}\n"
		"spec: {accessModes: [ReadWriteOnce]}\n---\n"
		POD_PVC("defaulted", "data")
		"apiVersion: v1\nkind: Pod\nmetadata: {name: eph, uid: eph}\nspec:\n"
		"  containers: [{name: c}]\n  volumes:\n  - name: scratch\n    ephemeral:\n"
		"      volumeClaimTemplate: {spec: {storageClassName: zone-c, accessModes: [ReadWriteOnce]}}\n---\n",
		NULL);
	h_run(&sc, NULL);
	/* a claim without a class gets the newest default class */
	ck_assert_str_eq(h_pod_nc(&sc, "defaulted")->zone, "test-zone-b");
	/* an ephemeral volume's claim comes from its template */
	ck_assert_str_eq(h_pod_nc(&sc, "eph")->zone, "test-zone-c");
}
END_TEST

#define NODE_CSI(limit)                                                                            \
	"apiVersion: v1\nkind: Node\nmetadata:\n  name: node-a\n  labels: {kubernetes.io/hostname: node-a, " \
	"topology.kubernetes.io/zone: test-zone-a}\nspec: {providerID: kwok://a}\n"               \
	"status: {allocatable: {cpu: \"8\", pods: \"20\"}}\n---\n"                                     \
	"apiVersion: storage.k8s.io/v1\nkind: CSINode\nmetadata: {name: node-a}\nspec:\n"         \
	"  drivers: [{name: ebs.csi.aws.com, nodeID: i-1, allocatable: {count: " limit "}}]\n---\n"

START_TEST(csi_attach_limits)
{
	h_load(&sc, NODEPOOL NODE_CSI("1") SC("gp3", "WaitForFirstConsumer", "") "---\n"
		PVC("one", "gp3") PVC("two", "gp3")
		"apiVersion: v1\nkind: Pod\nmetadata: {name: running, uid: running}\nspec:\n  nodeName: node-a\n"
		"  containers: [{name: c}]\n  volumes: [{name: data, persistentVolumeClaim: {claimName: one}}]\n---\n"
		POD_PVC("same-claim", "one") POD_PVC("other-claim", "two"), NULL);
	h_run(&sc, NULL);
	/* the same claim is one volume: it fits the limit of 1 */
	ck_assert_str_eq(h_pod(&sc, "same-claim")->node, "node-a");
	const kp_sched_placement *p = h_pod(&sc, "other-claim");
	ck_assert_uint_eq(p->target, KP_SCHED_NEW_NODECLAIM);
	/* with a limit of 2 both fit */
	h_free(&sc);
	h_load(&sc, NODEPOOL NODE_CSI("2") SC("gp3", "WaitForFirstConsumer", "") "---\n"
		PVC("one", "gp3") PVC("two", "gp3")
		"apiVersion: v1\nkind: Pod\nmetadata: {name: running, uid: running}\nspec:\n  nodeName: node-a\n"
		"  containers: [{name: c}]\n  volumes: [{name: data, persistentVolumeClaim: {claimName: one}}]\n---\n"
		POD_PVC("other-claim", "two"), NULL);
	h_run(&sc, NULL);
	ck_assert_str_eq(h_pod(&sc, "other-claim")->node, "node-a");
}
END_TEST

START_TEST(csi_limit_reason)
{
	h_load(&sc, NODE_CSI("0") SC("gp3", "WaitForFirstConsumer", "") "---\n" PVC("one", "gp3")
		POD_PVC("p", "one"), NULL);
	h_run(&sc, NULL);
	const kp_sched_placement *p = h_pod(&sc, "p");
	ck_assert_uint_eq(p->target, KP_SCHED_UNPLACED);
	const kp_sched_reason *r = h_reason(p, KP_REASON_VOLUMES, NULL, "node-a");
	ck_assert_ptr_nonnull(r);
	ck_assert_str_eq(r->field, "ebs.csi.aws.com");
}
END_TEST

static Suite *volumes_suite(void)
{
	Suite *s = suite_create("scheduler-volumes");
	TCase *tc = tcase_create("volumes");
	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_add_test(tc, bound_volume_zone);
	tcase_add_test(tc, storage_class_allowed_topologies);
	tcase_add_test(tc, incompatible_volume_zone);
	tcase_add_test(tc, claim_validation);
	tcase_add_test(tc, default_storage_class_and_ephemeral);
	tcase_add_test(tc, csi_attach_limits);
	tcase_add_test(tc, csi_limit_reason);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	Suite *suites[] = { volumes_suite() };
	return kp_test_run(suites, (int)(sizeof(suites) / sizeof(suites[0])));
}
