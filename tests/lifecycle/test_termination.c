/*
 * Termination scenarios, after upstream
 * pkg/controllers/nodeclaim/lifecycle/termination_test.go and
 * pkg/controllers/node/termination/suite_test.go: the NodeClaim finalizer
 * (termination-timestamp annotation, Nodes first, instance termination),
 * the Node finalizer (disrupted taint, drain tiers, PDBs, do-not-disrupt,
 * terminationGracePeriod force-deletes, minimum drain time).
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "kp_test.h"
#include "lc_harness.h"

#define T0 "2024-01-01T00:00:00Z"
#define FIN ", finalizers: [karpenter.sh/termination]"
#define DEL ", deletionTimestamp: '" T0 "'"
#define LAUNCHED "{type: Launched, status: 'True', reason: Launched, lastTransitionTime: '" T0 "'}"
#define REGISTERED "{type: Registered, status: 'True', reason: Registered, lastTransitionTime: '" T0 "'}"
#define REG_STATUS "providerID: 'fake://nc-1', nodeName: node-1, conditions: [" LAUNCHED ", " \
	REGISTERED ", {type: ConsistentStateFound, status: 'True', reason: ConsistentStateFound}]"

static lc_world w;

static void setup(void)
{
	lc_world_init(&w, LC_T0 + 10000);
}

static void teardown(void)
{
	lc_world_free(&w);
}

static const char *node_labels_extra = "";

static const char *node_yaml(const char *meta_extra, const char *taints)
{
	static char buf[2048];
	snprintf(buf, sizeof(buf),
		 "apiVersion: v1\nkind: Node\n"
		 "metadata: {name: node-1, labels: {karpenter.test.sh/testnodeclass: default, "
		 "karpenter.sh/nodepool: default%s}%s}\n"
		 "spec: {providerID: 'fake://nc-1', taints: [%s]}\n"
		 "status: {conditions: [{type: Ready, status: 'True'}]}\n",
		 node_labels_extra, meta_extra ? meta_extra : "", taints ? taints : "");
	return buf;
}

static const char *pod_yaml(const char *name, const char *meta_extra, const char *spec_extra)
{
	static char buf[2048];
	snprintf(buf, sizeof(buf),
		 "apiVersion: v1\nkind: Pod\n"
		 "metadata: {name: %s, namespace: default%s}\n"
		 "spec: {nodeName: node-1, containers: [{name: c, image: x}]%s}\n"
		 "status: {phase: Running}\n",
		 name, meta_extra ? meta_extra : "", spec_extra ? spec_extra : "");
	return buf;
}

#define DS_OWNER ", ownerReferences: [{apiVersion: apps/v1, kind: DaemonSet, name: ds, uid: u}]"
#define DISRUPTED "{key: karpenter.sh/disrupted, effect: NoSchedule}"

/* ---- NodeClaim finalizer ---- */

START_TEST(nodeclaim_annotates_termination_time)
{
	lc_add(&w, lc_nodeclaim_yaml("nc-1", FIN DEL, ", terminationGracePeriod: 1h", REG_STATUS));
	lc_add(&w, node_yaml(NULL, NULL));
	lc_instance(&w, "fake://nc-1");
	lc_reconcile(&w);
	ck_assert_str_eq(lc_summary(&w), "patch NodeClaim/nc-1 TerminationGracePeriod\n"
					 "delete Node/node-1 NodeDelete\n");
	const kp_lifecycle_action *a = lc_action(&w, 0);
	const kp_nodeclaim *nc = a->object;
	ck_assert_str_eq(kp_labels_get(&nc->metadata->annotations,
				       "karpenter.sh/nodeclaim-termination-timestamp"),
			 "2024-01-01T01:00:00Z");
	ck_assert_str_eq(a->event_reason, "TerminationGracePeriodExpiring");
	ck_assert_str_eq(a->event_message, "All pods will be deleted by 2024-01-01T01:00:00Z");
	ck_assert_str_eq(lc_action(&w, 1)->message,
			 "deleting Node node-1 before the instance of NodeClaim nc-1");
	ck_assert_int_eq(w.cloud->delete_calls, 0);
}
END_TEST

START_TEST(nodeclaim_terminates_instance_then_removes_finalizer)
{
	lc_add(&w, lc_nodeclaim_yaml("nc-1", FIN DEL, NULL, REG_STATUS));
	lc_instance(&w, "fake://nc-1");
	lc_reconcile(&w);
	ck_assert_str_eq(lc_summary(&w), "providerDelete NodeClaim/nc-1 InstanceTerminating\n"
					 "updateStatus NodeClaim/nc-1 InstanceTerminating\n");
	ck_assert_str_eq(lc_action(&w, 0)->message, "terminating instance fake://nc-1");
	ck_assert_str_eq(lc_nc_cond(lc_action(&w, 1), "InstanceTerminating")->status, "True");
	ck_assert_int_eq(kp_lifecycle_result_requeue_at(w.r, 0)->after_ms, 5000);
	/* next round: the instance is gone */
	lc_reconcile(&w);
	ck_assert_str_eq(lc_summary(&w), "providerDelete NodeClaim/nc-1 InstanceTerminating\n"
					 "updateStatus NodeClaim/nc-1 InstanceTerminating\n"
					 "patch NodeClaim/nc-1 FinalizerRemoved\n");
	const kp_lifecycle_action *a = lc_action(&w, 2);
	ck_assert_uint_eq(((const kp_nodeclaim *)a->object)->metadata->n_finalizers, 0);
	ck_assert_str_eq(a->metric, "karpenter_nodeclaims_terminated_total");
}
END_TEST

START_TEST(nodeclaim_unlaunched_released_without_provider)
{
	lc_add(&w, lc_nodeclaim_yaml("nc-1", FIN DEL, NULL, NULL));
	lc_reconcile(&w);
	ck_assert_str_eq(lc_summary(&w), "patch NodeClaim/nc-1 FinalizerRemoved\n");
	ck_assert_int_eq(w.cloud->delete_calls, 0);
}
END_TEST

/* ---- Node termination ---- */

START_TEST(node_deletes_nodeclaim_taints_and_drains_in_tiers)
{
	lc_add(&w, lc_nodeclaim_yaml("nc-1", FIN, NULL, REG_STATUS));
	lc_add(&w, node_yaml(FIN DEL, NULL));
	lc_add(&w, pod_yaml("critical-ds", DS_OWNER, ", priorityClassName: system-node-critical"));
	lc_add(&w, pod_yaml("critical", NULL, ", priorityClassName: system-cluster-critical"));
	lc_add(&w, pod_yaml("ds", DS_OWNER, NULL));
	lc_add(&w, pod_yaml("app-1", NULL, NULL));
	lc_add(&w, pod_yaml("app-2", NULL, NULL));
	lc_add(&w, pod_yaml("tolerant", NULL,
			    ", tolerations: [{key: karpenter.sh/disrupted, operator: Exists}]"));
	lc_add(&w, pod_yaml("mirror", ", ownerReferences: [{apiVersion: v1, kind: Node, name: node-1, "
			    "uid: node-uid}]", NULL));
	kp_pod *done = lc_add(&w, pod_yaml("done", NULL, NULL));
	done->status->phase_code = KP_POD_PHASE_SUCCEEDED;
	lc_instance(&w, "fake://nc-1");
	ck_assert_int_eq(kp_lifecycle_node_termination(lc_fresh(&w), &w.spec, &w.opts, w.node[0], NULL),
			 KP_OK);
	ck_assert_str_eq(lc_summary(&w), "delete NodeClaim/nc-1 NodeDelete\n"
					 "patch Node/node-1 Draining\n"
					 "evict Pod/app-1 Evict\n"
					 "evict Pod/app-2 Evict\n"
					 "updateStatus NodeClaim/nc-1 Draining\n");
	const kp_lifecycle_action *np = lc_action(&w, 1);
	ck_assert_str_eq(np->message, "draining: 5 pods are waiting to be evicted");
	const kp_node *n = np->object;
	ck_assert_uint_eq(n->spec->n_taints, 1);
	ck_assert_str_eq(n->spec->taints[0].key, "karpenter.sh/disrupted");
	ck_assert_str_eq(kp_labels_get(&n->metadata->labels,
				       "node.kubernetes.io/exclude-from-external-load-balancers"),
			 "karpenter");
	const kp_lifecycle_action *ev = lc_action(&w, 2);
	ck_assert_str_eq(ev->event_reason, "Evicted");
	ck_assert_str_eq(ev->event_message, "Evicted pod: Forceful Termination");
	ck_assert_str_eq(ev->metric, "karpenter_pods_drained_total");
	ck_assert_str_eq(lc_nc_cond(lc_action(&w, 4), "Drained")->reason, "Draining");
	ck_assert_int_eq(kp_lifecycle_result_requeue_at(w.r, 0)->after_ms, 1000);
	const kp_lifecycle_event *fe =
		kp_lifecycle_result_event_at(w.r, kp_lifecycle_result_event_count(w.r) - 1);
	ck_assert_str_eq(fe->reason, "FailedDraining");
	ck_assert_str_eq(fe->message, "Failed to drain node, 5 pods are waiting to be evicted");
}
END_TEST

static void run_node(void)
{
	kp_error e = KP_ERROR_INIT;
	ck_assert_msg(kp_lifecycle_node_termination(lc_fresh(&w), &w.spec, &w.opts, w.node[0], &e) ==
			      KP_OK, "%s", e.message);
}

/* web-1 and web-2 under a PDB that allows one disruption */
static void web_pods_and_pdb(void)
{
	lc_add(&w, pod_yaml("web-1", ", labels: {app: web}", NULL));
	lc_add(&w, pod_yaml("web-2", ", labels: {app: web}", NULL));
	lc_add(&w, "apiVersion: policy/v1\nkind: PodDisruptionBudget\n"
		   "metadata: {name: web, namespace: default}\n"
		   "spec: {minAvailable: 1, selector: {matchLabels: {app: web}}}\n"
		   "status: {disruptionsAllowed: 1}\n");
}

START_TEST(node_pdb_blocks_eviction)
{
	lc_add(&w, lc_nodeclaim_yaml("nc-1", FIN DEL, NULL, REG_STATUS));
	lc_add(&w, node_yaml(FIN DEL, DISRUPTED));
	web_pods_and_pdb();
	lc_instance(&w, "fake://nc-1");
	run_node();
	ck_assert_str_eq(lc_summary(&w), "patch Node/node-1 Draining\n"
					 "evict Pod/web-1 Evict\n"
					 "updateStatus NodeClaim/nc-1 Draining\n");
	ck_assert_str_eq(lc_action(&w, 0)->message,
			 "draining: 2 pods are waiting to be evicted; pod default/web-2: evicting pod "
			 "violates a PDB (PodDisruptionBudget default/web)");
	/* upstream's eviction queue records the refusal on the Node */
	ck_assert_uint_eq(kp_lifecycle_result_event_count(w.r), 3);
	ck_assert_str_eq(kp_lifecycle_result_event_at(w.r, 0)->reason, "Evicted");
	const kp_lifecycle_event *e = kp_lifecycle_result_event_at(w.r, 1);
	ck_assert_str_eq(e->reason, "FailedDraining");
	ck_assert_str_eq(e->type, "Warning");
	ck_assert_str_eq(e->name, "node-1");
	ck_assert_str_eq(e->message,
			 "Failed to drain node, evicting pod violates a PDB (Pod=default/web-2)");
	ck_assert_str_eq(kp_lifecycle_result_event_at(w.r, 2)->message,
			 "Failed to drain node, 2 pods are waiting to be evicted");
}
END_TEST

/* A Node already tainted and labelled is not patched in a later draining
 * round: only the evictions and the events (upstream patches the Node only
 * when it changes). */
START_TEST(node_draining_again_not_patched)
{
	lc_add(&w, lc_nodeclaim_yaml("nc-1", FIN DEL, NULL,
				     "providerID: 'fake://nc-1', nodeName: node-1, conditions: ["
				     LAUNCHED ", " REGISTERED ", {type: Drained, status: Unknown, "
				     "reason: Draining, message: Draining, lastTransitionTime: '" T0 "'}]"));
	node_labels_extra = ", node.kubernetes.io/exclude-from-external-load-balancers: karpenter";
	lc_add(&w, node_yaml(FIN DEL, DISRUPTED));
	web_pods_and_pdb();
	lc_instance(&w, "fake://nc-1");
	run_node();
	ck_assert_str_eq(lc_summary(&w), "evict Pod/web-1 Evict\n");
	ck_assert_uint_eq(kp_lifecycle_result_event_count(w.r), 3);
	ck_assert_str_eq(kp_lifecycle_result_event_at(w.r, 1)->message,
			 "Failed to drain node, evicting pod violates a PDB (Pod=default/web-2)");
	ck_assert_int_eq(kp_lifecycle_result_requeue_at(w.r, 0)->after_ms, 1000);
	/* the same through the whole round */
	lc_reconcile(&w);
	for (size_t i = 0; i < kp_lifecycle_result_action_count(w.r); i++)
		ck_assert_msg(lc_action(&w, i)->kind != KP_KIND_NODE, "%s", lc_summary(&w));
	node_labels_extra = "";
}
END_TEST

START_TEST(node_do_not_disrupt_not_evicted)
{
	lc_add(&w, lc_nodeclaim_yaml("nc-1", FIN DEL, NULL, REG_STATUS));
	lc_add(&w, node_yaml(FIN DEL, DISRUPTED));
	lc_add(&w, pod_yaml("keep", ", annotations: {karpenter.sh/do-not-disrupt: 'true'}", NULL));
	lc_instance(&w, "fake://nc-1");
	run_node();
	ck_assert_str_eq(lc_summary(&w), "patch Node/node-1 Draining\n"
					 "updateStatus NodeClaim/nc-1 Draining\n");
	ck_assert_str_eq(lc_action(&w, 0)->message, "draining: 1 pods are waiting to be evicted; "
						    "pod default/keep has karpenter.sh/do-not-disrupt");
}
END_TEST

START_TEST(node_force_deletes_past_grace_period)
{
	/* the NodeClaim's terminationGracePeriod ends at T0 + 60 s; the pod
	 * needs 300 s, so it is deleted now with the 50 s that remain */
	lc_add(&w, lc_nodeclaim_yaml("nc-1", FIN DEL ", annotations: "
				     "{karpenter.sh/nodeclaim-termination-timestamp: '2024-01-01T00:01:00Z'}",
				     NULL, REG_STATUS));
	lc_add(&w, node_yaml(FIN DEL, DISRUPTED));
	lc_add(&w, pod_yaml("slow", ", annotations: {karpenter.sh/do-not-disrupt: 'true'}",
			    ", terminationGracePeriodSeconds: 300"));
	lc_instance(&w, "fake://nc-1");
	run_node();
	ck_assert_str_eq(lc_summary(&w), "patch Node/node-1 Draining\n"
					 "delete Pod/slow ForceDelete\n"
					 "updateStatus NodeClaim/nc-1 Draining\n");
	const kp_lifecycle_action *a = lc_action(&w, 1);
	ck_assert_uint_eq(a->has_grace_period_seconds, 1);
	ck_assert_int_eq(a->grace_period_seconds, 50);
	ck_assert_str_eq(a->event_reason, "Disrupted");
	ck_assert_str_eq(a->event_message,
			 "Deleting the pod to accommodate the terminationTime 2024-01-01T00:01:00Z of "
			 "the node. The pod was granted 50 seconds of grace-period of its 300 "
			 "terminationGracePeriodSeconds. This bypasses the PDB of the pod and the "
			 "do-not-disrupt annotation.");
	ck_assert_str_eq(kp_lifecycle_result_event_at(w.r, 0)->reason, "TerminationGracePeriodExpiring");
}
END_TEST

/* The Draining message names every pod that waits, at full length. */
START_TEST(node_draining_message_full_length)
{
	lc_add(&w, lc_nodeclaim_yaml("nc-1", FIN DEL, NULL, REG_STATUS));
	lc_add(&w, node_yaml(FIN DEL, DISRUPTED));
	char name[128];
	for (int i = 0; i < 12; i++) {
		snprintf(name, sizeof(name), "keep-%02d-%s", i,
			 "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa");
		lc_add(&w, pod_yaml(name, ", annotations: {karpenter.sh/do-not-disrupt: 'true'}", NULL));
	}
	lc_instance(&w, "fake://nc-1");
	run_node();
	const char *m = lc_action(&w, 0)->message;
	ck_assert_uint_gt(strlen(m), 1000);
	const char *tail = "; pod default/keep-11-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa "
			   "has karpenter.sh/do-not-disrupt";
	ck_assert_str_eq(m + strlen(m) - strlen(tail), tail);
	ck_assert_ptr_eq(strstr(m, "draining: 12 pods are waiting to be evicted; pod default/keep-00-"), m);
}
END_TEST

/* ---- volume detachment (awaitVolumeDetachment) ---- */

#define DRAINED_STATUS "providerID: 'fake://nc-1', nodeName: node-1, conditions: [" LAUNCHED ", " \
	REGISTERED ", {type: Drained, status: 'True', reason: Drained, lastTransitionTime: '" T0 "'}]"

static kp_volume_attachment vas[8];
static kp_volume_attachment_spec va_specs[8];
static kp_volume_attachment_source va_sources[8];
static kp_object_meta va_metas[8];
static const kp_volume_attachment *va_ptrs[8];

/* A caller-built VolumeAttachment; pv NULL: an inline volume (no
 * persistentVolumeName). */
static void attach(size_t i, const char *name, const char *node, const char *pv)
{
	kp_volume_attachment v = KP_VOLUME_ATTACHMENT_INIT;
	kp_volume_attachment_spec sp = KP_VOLUME_ATTACHMENT_SPEC_INIT;
	kp_volume_attachment_source src = KP_VOLUME_ATTACHMENT_SOURCE_INIT;
	kp_object_meta m = KP_OBJECT_META_INIT;
	m.name = name;
	src.persistent_volume_name = pv;
	if (!pv)
		src.inline_volume_spec = "{\"csi\":{\"driver\":\"ebs.csi.aws.com\"}}";
	sp.attacher = "ebs.csi.aws.com";
	sp.node_name = node;
	va_sources[i] = src;
	sp.source = &va_sources[i];
	va_specs[i] = sp;
	va_metas[i] = m;
	v.metadata = &va_metas[i];
	v.spec = &va_specs[i];
	vas[i] = v;
	va_ptrs[i] = &vas[i];
	w.spec.volume_attachments = va_ptrs;
	w.spec.n_volume_attachments = i + 1;
}

static void drained_node(const char *nc_meta)
{
	lc_add(&w, lc_nodeclaim_yaml("nc-1", nc_meta, NULL, DRAINED_STATUS));
	node_labels_extra = ", node.kubernetes.io/exclude-from-external-load-balancers: karpenter";
	lc_add(&w, node_yaml(FIN DEL, DISRUPTED));
	node_labels_extra = "";
	lc_instance(&w, "fake://nc-1");
}

START_TEST(node_waits_for_volume_attachments)
{
	drained_node(FIN DEL);
	attach(0, "va-1", "node-1", "pv-1");
	attach(1, "va-other-node", "node-2", "pv-2");
	attach(2, "va-inline", "node-1", NULL);
	run_node();
	ck_assert_str_eq(lc_summary(&w), "updateStatus NodeClaim/nc-1 VolumesDetached\n");
	const kp_lifecycle_action *a = lc_action(&w, 0);
	ck_assert_str_eq(a->message, "Drained=True, VolumesDetached=Unknown (AwaitingVolumeDetachment)");
	const kp_condition *c = lc_nc_cond(a, "VolumesDetached");
	ck_assert_str_eq(c->status, "Unknown");
	ck_assert_str_eq(c->reason, "AwaitingVolumeDetachment");
	ck_assert_str_eq(c->message, "AwaitingVolumeDetachment");
	ck_assert_uint_eq(kp_lifecycle_result_event_count(w.r), 1);
	const kp_lifecycle_event *e = kp_lifecycle_result_event_at(w.r, 0);
	ck_assert_str_eq(e->type, "Normal");
	ck_assert_str_eq(e->reason, "AwaitingVolumeDetachment");
	ck_assert_str_eq(e->name, "node-1");
	ck_assert_str_eq(e->message, "Awaiting deletion of bound volumeattachments (va-1)");
	ck_assert_int_eq(kp_lifecycle_result_requeue_at(w.r, 0)->after_ms, 1000);
	ck_assert_int_eq(w.cloud->delete_calls, 0);
	/* detached: the instance is terminated */
	w.spec.n_volume_attachments = 0;
	run_node();
	ck_assert_str_eq(lc_summary(&w), "providerDelete NodeClaim/nc-1 InstanceTerminating\n"
					 "updateStatus NodeClaim/nc-1 InstanceTerminating\n");
	ck_assert_str_eq(lc_nc_cond(lc_action(&w, 1), "VolumesDetached")->status, "True");
}
END_TEST

/* Decoded VolumeAttachments (storage.k8s.io/v1) drive the wait: one of a
 * drained pod's PV holds the Node; an inline volume and one on another Node
 * do not; status (attached, errors) does not matter, only existence. */
START_TEST(node_waits_for_decoded_volume_attachments)
{
	drained_node(FIN DEL);
	lc_add(&w, "apiVersion: storage.k8s.io/v1\nkind: VolumeAttachment\nmetadata: {name: csi-1}\n"
		   "spec: {attacher: ebs.csi.aws.com, nodeName: node-1, source: "
		   "{persistentVolumeName: pv-1}}\nstatus: {attached: false, detachError: "
		   "{time: '2024-01-01T00:00:00Z', message: busy}}\n");
	lc_add(&w, "apiVersion: storage.k8s.io/v1\nkind: VolumeAttachment\nmetadata: {name: csi-inline}\n"
		   "spec: {attacher: ebs.csi.aws.com, nodeName: node-1, source: "
		   "{inlineVolumeSpec: {csi: {driver: ebs.csi.aws.com, volumeHandle: vol-1}}}}\n");
	lc_add(&w, "apiVersion: storage.k8s.io/v1\nkind: VolumeAttachment\nmetadata: {name: csi-2}\n"
		   "spec: {attacher: ebs.csi.aws.com, nodeName: node-2, source: "
		   "{persistentVolumeName: pv-2}}\n");
	run_node();
	ck_assert_str_eq(lc_summary(&w), "updateStatus NodeClaim/nc-1 VolumesDetached\n");
	ck_assert_uint_eq(kp_lifecycle_result_event_count(w.r), 1);
	ck_assert_str_eq(kp_lifecycle_result_event_at(w.r, 0)->message,
			 "Awaiting deletion of bound volumeattachments (csi-1)");
	ck_assert_int_eq(kp_lifecycle_result_requeue_at(w.r, 0)->after_ms, 1000);
	/* one without a nodeName holds nothing */
	kp_volume_attachment_spec *sp = w.spec.volume_attachments[0]->spec;
	const char *node = sp->node_name;
	sp->node_name = NULL;
	run_node();
	sp->node_name = node; /* freed with the object */
	ck_assert_str_eq(lc_summary(&w), "providerDelete NodeClaim/nc-1 InstanceTerminating\n"
					 "updateStatus NodeClaim/nc-1 InstanceTerminating\n");
}
END_TEST

/* Attachments of pods that are not drained do not hold the Node: a pod
 * tolerating the disrupted taint, through its PVC and a generic ephemeral
 * volume ("<pod>-<volume>"). */
START_TEST(node_volumes_of_undrained_pods_ignored)
{
	drained_node(FIN DEL);
	lc_add(&w, pod_yaml("tolerant", NULL,
			    ", tolerations: [{key: karpenter.sh/disrupted, operator: Exists}], "
			    "volumes: [{name: data, persistentVolumeClaim: {claimName: data-0}}, "
			    "{name: scratch, ephemeral: {volumeClaimTemplate: {spec: {}}}}]"));
	lc_add(&w, "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: data-0, "
		   "namespace: default}\nspec: {volumeName: pv-1}\n");
	lc_add(&w, "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: tolerant-scratch, "
		   "namespace: default}\nspec: {volumeName: pv-2}\n");
	attach(0, "va-1", "node-1", "pv-1");
	attach(1, "va-2", "node-1", "pv-2");
	run_node();
	ck_assert_str_eq(lc_summary(&w), "providerDelete NodeClaim/nc-1 InstanceTerminating\n"
					 "updateStatus NodeClaim/nc-1 InstanceTerminating\n");
	/* the same PV through a drained pod's claim waits */
	attach(2, "va-3", "node-1", "pv-3");
	run_node();
	ck_assert_str_eq(kp_lifecycle_result_event_at(w.r, 0)->message,
			 "Awaiting deletion of bound volumeattachments (va-3)");
}
END_TEST

/* Past the terminationGracePeriod: VolumesDetached False, no more waiting. */
START_TEST(node_volumes_grace_period_elapsed)
{
	drained_node(FIN DEL ", annotations: {karpenter.sh/nodeclaim-termination-timestamp: "
		     "'2024-01-01T00:00:05Z'}");
	attach(0, "va-1", "node-1", "pv-1");
	run_node();
	ck_assert_str_eq(lc_summary(&w), "providerDelete NodeClaim/nc-1 InstanceTerminating\n"
					 "updateStatus NodeClaim/nc-1 InstanceTerminating\n");
	const kp_lifecycle_action *a = lc_action(&w, 1);
	const kp_condition *c = lc_nc_cond(a, "VolumesDetached");
	ck_assert_str_eq(c->status, "False");
	ck_assert_str_eq(c->reason, "TerminationGracePeriodElapsed");
	ck_assert_str_eq(a->message, "Drained=True, VolumesDetached=False "
				     "(TerminationGracePeriodElapsed), InstanceTerminating=True");
}
END_TEST

START_TEST(node_volumes_message_lists_five)
{
	static const char *names[] = { "va-a", "va-b", "va-c", "va-d", "va-e", "va-f", "va-g" };
	drained_node(FIN DEL);
	for (size_t i = 0; i < 7; i++)
		attach(i, names[i], "node-1", "pv");
	run_node();
	ck_assert_str_eq(kp_lifecycle_result_event_at(w.r, 0)->message,
			 "Awaiting deletion of bound volumeattachments (va-a, va-b, va-c, va-d, va-e "
			 "and 2 other(s))");
	/* an attachment struct of an older, smaller layout is refused */
	vas[3].struct_size = 8;
	kp_error e = KP_ERROR_INIT;
	ck_assert_int_eq(kp_lifecycle_node_termination(lc_fresh(&w), &w.spec, &w.opts, w.node[0], &e),
			 KP_EVERSION);
	ck_assert_str_eq(e.message, "volume_attachments[3]: kp_volume_attachment.struct_size is 8, smaller than any published size (40)");
	ck_assert_uint_eq(kp_lifecycle_result_action_count(w.r), 0);
	/* through the round, the location starts at the object in the cluster,
	 * as the scheduler's and disruption's do */
	e = (kp_error)KP_ERROR_INIT;
	ck_assert_int_eq(kp_lifecycle_reconcile(lc_fresh(&w), &w.spec, &w.opts, &e), KP_EVERSION);
	ck_assert_ptr_null(w.r);
	ck_assert_str_eq(e.field, "volume_attachments[3]");
}
END_TEST

/* The count of attachments beyond five has as many digits as it takes
 * (the message is sized for it: 100,005 others here). */
START_TEST(node_volumes_message_many)
{
	drained_node(FIN DEL);
	attach(0, "a", "node-1", "pv");
	size_t n = 100010;
	const kp_volume_attachment **many = calloc(n, sizeof(*many));
	ck_assert_ptr_nonnull(many);
	for (size_t i = 0; i < n; i++)
		many[i] = &vas[0];
	w.spec.volume_attachments = many;
	w.spec.n_volume_attachments = n;
	run_node();
	ck_assert_str_eq(kp_lifecycle_result_event_at(w.r, 0)->message,
			 "Awaiting deletion of bound volumeattachments (a, a, a, a, a and 100005 "
			 "other(s))");
	w.spec.volume_attachments = NULL;
	w.spec.n_volume_attachments = 0;
	free(many);
}
END_TEST

/* A termination-timestamp annotation that is not a time (the API server
 * stores any text) stops that Node's termination only: the round goes on
 * for every other object, and the Node is named in a Warning event and
 * looked at again (kp_lifecycle_reconcile; upstream returns the error for
 * that object only). */
START_TEST(node_bad_termination_timestamp_isolated)
{
	lc_add(&w, lc_nodeclaim_yaml("nc-1", FIN DEL ", annotations: "
				     "{karpenter.sh/nodeclaim-termination-timestamp: 'soon'}",
				     NULL, REG_STATUS));
	lc_add(&w, node_yaml(FIN DEL, DISRUPTED));
	lc_add(&w, lc_nodeclaim_yaml("nc-2", FIN, NULL, NULL)); /* to be launched */
	lc_instance(&w, "fake://nc-1");
	lc_reconcile(&w);
	ck_assert_ptr_null(strstr(lc_summary(&w), "Node/node-1"));
	ck_assert_ptr_nonnull(strstr(lc_summary(&w), "NodeClaim/nc-2"));
	size_t ne = kp_lifecycle_result_event_count(w.r);
	const kp_lifecycle_event *ev = NULL;
	for (size_t i = 0; i < ne; i++)
		if (!strcmp(kp_lifecycle_result_event_at(w.r, i)->reason, "ReconcileError"))
			ev = kp_lifecycle_result_event_at(w.r, i);
	ck_assert_ptr_nonnull(ev);
	ck_assert_str_eq(ev->name, "node-1");
	ck_assert_ptr_nonnull(strstr(ev->message, "invalid time \"soon\""));
}
END_TEST

START_TEST(node_min_drain_time_then_instance_then_finalizer)
{
	lc_add(&w, lc_nodeclaim_yaml("nc-1", FIN DEL, NULL,
				     "providerID: 'fake://nc-1', nodeName: node-1, conditions: [" LAUNCHED
				     ", " REGISTERED ", {type: Drained, status: Unknown, reason: Draining, "
				     "message: Draining, lastTransitionTime: '2024-01-01T00:00:08Z'}]"));
	node_labels_extra = ", node.kubernetes.io/exclude-from-external-load-balancers: karpenter";
	lc_add(&w, node_yaml(FIN DEL, DISRUPTED));
	lc_instance(&w, "fake://nc-1");
	run_node(); /* 2 s after Drained=Unknown: wait for the minimum drain time */
	ck_assert_str_eq(lc_summary(&w), "");
	ck_assert_int_eq(kp_lifecycle_result_requeue_at(w.r, 0)->after_ms, 1000);
	w.spec.now_ms = LC_T0 + 14000;
	run_node();
	ck_assert_str_eq(lc_summary(&w), "providerDelete NodeClaim/nc-1 InstanceTerminating\n"
					 "updateStatus NodeClaim/nc-1 InstanceTerminating\n");
	const kp_lifecycle_action *st = lc_action(&w, 1);
	/* StatusConditions() adds the missing dependent Initialized at the
	 * creationTimestamp; the order is by transition time, the root last */
	ck_assert_str_eq(lc_nc_conds(st), "Launched=True/Launched Registered=True/Registered "
			 "Initialized=Unknown/AwaitingReconciliation Drained=True/Drained "
			 "VolumesDetached=True/VolumesDetached InstanceTerminating=True/InstanceTerminating "
			 "Ready=Unknown/ReconcilingDependents");
	ck_assert_str_eq(lc_nc_cond(st, "Ready")->message, "Initialized=Unknown");
	ck_assert_int_eq(lc_nc_cond(st, "Initialized")->last_transition_time_ms, LC_T0);
	ck_assert_int_eq(lc_nc_cond(st, "Drained")->last_transition_time_ms, LC_T0 + 14000);
	ck_assert_str_eq(st->metric, "karpenter_nodes_drained_total");
	ck_assert_int_eq(kp_lifecycle_result_requeue_at(w.r, 0)->after_ms, 5000);
	run_node(); /* the instance is gone */
	ck_assert_str_eq(lc_summary(&w), "providerDelete NodeClaim/nc-1 InstanceTerminating\n"
					 "updateStatus NodeClaim/nc-1 VolumesDetached\n"
					 "patch Node/node-1 FinalizerRemoved\n");
	const kp_node *n = lc_action(&w, 2)->object;
	ck_assert_uint_eq(n->metadata->n_finalizers, 0);
	ck_assert_str_eq(lc_action(&w, 2)->metric, "karpenter_nodes_terminated_total");
}
END_TEST

START_TEST(node_not_ready_without_instance_released)
{
	lc_add(&w, "apiVersion: v1\nkind: Node\nmetadata: {name: node-1, labels: "
		   "{karpenter.test.sh/testnodeclass: default}" FIN DEL "}\n"
		   "spec: {providerID: 'fake://gone'}\nstatus: {conditions: [{type: Ready, status: "
		   "'False'}]}\n");
	run_node();
	ck_assert_str_eq(lc_summary(&w), "patch Node/node-1 FinalizerRemoved\n");
}
END_TEST

START_TEST(node_not_deleting_untouched)
{
	lc_add(&w, node_yaml(FIN, NULL));
	run_node();
	ck_assert_uint_eq(kp_lifecycle_result_action_count(w.r), 0);
	ck_assert_uint_eq(kp_lifecycle_result_requeue_count(w.r), 0);
}
END_TEST

static Suite *termination_suite(void)
{
	Suite *s = suite_create("termination");
	TCase *tc = tcase_create("nodeclaim");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, nodeclaim_annotates_termination_time);
	tcase_add_test(tc, nodeclaim_terminates_instance_then_removes_finalizer);
	tcase_add_test(tc, nodeclaim_unlaunched_released_without_provider);
	suite_add_tcase(s, tc);
	tc = tcase_create("node");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, node_deletes_nodeclaim_taints_and_drains_in_tiers);
	tcase_add_test(tc, node_pdb_blocks_eviction);
	tcase_add_test(tc, node_draining_again_not_patched);
	tcase_add_test(tc, node_draining_message_full_length);
	tcase_add_test(tc, node_waits_for_volume_attachments);
	tcase_add_test(tc, node_waits_for_decoded_volume_attachments);
	tcase_add_test(tc, node_volumes_of_undrained_pods_ignored);
	tcase_add_test(tc, node_volumes_grace_period_elapsed);
	tcase_add_test(tc, node_volumes_message_lists_five);
	tcase_add_test(tc, node_volumes_message_many);
	tcase_add_test(tc, node_do_not_disrupt_not_evicted);
	tcase_add_test(tc, node_force_deletes_past_grace_period);
	tcase_add_test(tc, node_bad_termination_timestamp_isolated);
	tcase_add_test(tc, node_min_drain_time_then_instance_then_finalizer);
	tcase_add_test(tc, node_not_ready_without_instance_released);
	tcase_add_test(tc, node_not_deleting_untouched);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	Suite *suites[] = { termination_suite() };
	return kp_test_run(suites, 1);
}
