/*
 * Drive one NodeClaim through its whole life with libkarpenter's lifecycle
 * controllers (include/karpenter/lifecycle.h) and nothing else: launch,
 * registration (the unregistered taint), initialization (a startup taint
 * the node agent removes), deletion, drain (a PDB lets one pod go per
 * round), instance termination and the finalizers' removal.
 *
 * The program is the controller: each round it gives the controllers the
 * objects and the time, prints the actions and applies them to a toy API
 * server (cluster.c); a toy kubelet registers the Node and removes the
 * startup taint. Uses the public core API only.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster.h"

#define T0 1735689600000LL /* 2025-01-01T00:00:00Z */
#define STEP_MS 5000

static const char *nodeclaim_yaml =
	"apiVersion: karpenter.sh/v1\n"
	"kind: NodeClaim\n"
	"metadata: {name: demo, uid: 0d1e2f3a-0000-4000-8000-000000000001,\n"
	"  creationTimestamp: '2025-01-01T00:00:00Z',\n"
	"  labels: {karpenter.sh/nodepool: default, " EX_NODECLASS_LABEL ": default}}\n"
	"spec:\n"
	"  nodeClassRef: {group: example.com, kind: ExampleNodeClass, name: default}\n"
	"  terminationGracePeriod: 10m\n"
	"  startupTaints: [{key: example.com/agent-not-ready, effect: NoExecute}]\n"
	"  requirements: [{key: karpenter.sh/capacity-type, operator: In, values: [on-demand]}]\n";

static const char *pdb_yaml =
	"apiVersion: policy/v1\nkind: PodDisruptionBudget\n"
	"metadata: {name: web, namespace: default}\n"
	"spec: {maxUnavailable: 1, selector: {matchLabels: {app: web}}}\n"
	"status: {disruptionsAllowed: 1}\n";

static kp_nodeclaim *the_nodeclaim(ex_cluster *c)
{
	return c->n_ncs ? c->ncs[0] : NULL;
}

static int condition_true(const kp_nodeclaim *nc, const char *type)
{
	for (size_t i = 0; nc && nc->status && i < nc->status->n_conditions; i++)
		if (strcmp(nc->status->conditions[i]->type, type) == 0)
			return strcmp(nc->status->conditions[i]->status, "True") == 0;
	return 0;
}

/* The toy kubelet registers a Node for a launched instance. */
static int kubelet_register(ex_cluster *c, const kp_nodeclaim *nc, kp_error *err)
{
	char yaml[2048];
	snprintf(yaml, sizeof(yaml),
		 "apiVersion: v1\nkind: Node\n"
		 "metadata: {name: demo-node, labels: {" EX_NODECLASS_LABEL ": default}}\n"
		 "spec:\n  providerID: '%s'\n  taints: [{key: karpenter.sh/unregistered, effect: "
		 "NoExecute}, {key: example.com/agent-not-ready, effect: NoExecute}]\n"
		 "status: {conditions: [{type: Ready, status: 'True'}], allocatable: {cpu: '2', "
		 "memory: 8Gi, pods: '110'}}\n",
		 nc->status->provider_id);
	printf("         kubelet          registers Node demo-node\n");
	return ex_cluster_add_yaml(c, yaml, err);
}

/* The node agent is up: it removes its startup taint. */
static int agent_ready(ex_cluster *c, kp_error *err)
{
	kp_node *n = c->nodes[0];
	kp_node_spec spec = *n->spec;
	kp_taint kept[16];
	size_t k = 0;
	for (size_t i = 0; i < spec.n_taints && k < 16; i++)
		if (strcmp(spec.taints[i].key, "example.com/agent-not-ready") != 0)
			kept[k++] = spec.taints[i];
	if (k == spec.n_taints)
		return KP_OK;
	spec.taints = k ? kept : NULL;
	spec.n_taints = k;
	kp_node v = *n;
	v.spec = &spec;
	kp_node *copy = NULL;
	int rc = kp_node_copy(&copy, &v, err);
	if (rc)
		return rc;
	kp_node_free(c->nodes[0]);
	c->nodes[0] = copy;
	printf("         node agent       removes example.com/agent-not-ready\n");
	return KP_OK;
}

static int schedule_pods(ex_cluster *c, kp_error *err)
{
	for (int i = 1; i <= 3; i++) {
		char yaml[512];
		snprintf(yaml, sizeof(yaml),
			 "apiVersion: v1\nkind: Pod\nmetadata: {name: web-%d, namespace: default, "
			 "labels: {app: web}}\nspec: {nodeName: demo-node, containers: [{name: web, "
			 "image: nginx}]}\nstatus: {phase: Running}\n", i);
		int rc = ex_cluster_add_yaml(c, yaml, err);
		if (rc)
			return rc;
	}
	printf("         scheduler        binds web-1, web-2, web-3 to demo-node\n");
	return KP_OK;
}

static int user_deletes(ex_cluster *c, kp_error *err)
{
	kp_nodeclaim *nc = the_nodeclaim(c);
	kp_object_meta m = *nc->metadata;
	m.deletion_timestamp_ms = c->now_ms;
	kp_nodeclaim v = *nc;
	v.metadata = &m;
	kp_nodeclaim *copy = NULL;
	int rc = kp_nodeclaim_copy(&copy, &v, err);
	if (rc)
		return rc;
	kp_nodeclaim_free(c->ncs[0]);
	c->ncs[0] = copy;
	printf("         user             deletes NodeClaim demo\n");
	return KP_OK;
}

/* What the world does between two rounds. */
static int world(ex_cluster *c, int *deleted, kp_error *err)
{
	kp_nodeclaim *nc = the_nodeclaim(c);
	if (nc && nc->status && nc->status->provider_id && !c->n_nodes && !*deleted)
		return kubelet_register(c, nc, err);
	if (c->n_nodes && c->nodes[0]->metadata->labels.count &&
	    kp_labels_get(&c->nodes[0]->metadata->labels, "karpenter.sh/registered")) {
		int rc = agent_ready(c, err);
		if (rc)
			return rc;
	}
	if (nc && condition_true(nc, "Initialized") && !c->n_pods && !*deleted)
		return schedule_pods(c, err);
	if (nc && c->n_pods == 3 && !*deleted) {
		*deleted = 1;
		return user_deletes(c, err);
	}
	return KP_OK;
}

static void print_actions(const ex_cluster *c, const kp_lifecycle_result *r)
{
	for (size_t i = 0; i < kp_lifecycle_result_action_count(r); i++) {
		const kp_lifecycle_action *a = kp_lifecycle_result_action_at(r, i);
		printf("+%4llds  %-16s %-14s %s/%s [%s] %s\n", (long long)((c->now_ms - T0) / 1000),
		       a->controller, kp_lifecycle_verb_name(a->verb), kp_kind_name(a->kind), a->name,
		       a->reason, a->message);
	}
}

int main(void)
{
	ex_cluster c;
	kp_error err = KP_ERROR_INIT;
	int deleted = 0, rc = ex_cluster_init(&c, T0);
	if (rc == KP_OK)
		rc = ex_cluster_add_yaml(&c, nodeclaim_yaml, &err);
	if (rc == KP_OK)
		rc = ex_cluster_add_yaml(&c, pdb_yaml, &err);
	for (int round = 0; rc == KP_OK && round < 100; round++) {
		if (deleted && !c.n_ncs && !c.n_nodes)
			break;
		kp_lifecycle_result *r = NULL;
		rc = ex_cluster_reconcile(&c, &r, &err);
		if (rc == KP_OK) {
			print_actions(&c, r);
			rc = ex_cluster_apply(&c, r, &err);
		}
		kp_lifecycle_result_free(r);
		if (rc == KP_OK)
			rc = world(&c, &deleted, &err);
		c.now_ms += STEP_MS;
	}
	if (rc != KP_OK) {
		fprintf(stderr, "embed: %s\n", err.message);
		ex_cluster_free(&c);
		return 1;
	}
	printf("done: NodeClaim and Node gone, %zu instances left, %zu pods evicted, %zu pods "
	       "lost\n", ex_cluster_instances(&c), c.evicted, c.lost_pods);
	int ok = !c.n_ncs && !c.n_nodes && ex_cluster_instances(&c) == 0 && c.lost_pods == 0;
	ex_cluster_free(&c);
	return ok ? 0 : 1;
}
