/*
 * Property: applying the actions of successive reconcile rounds to a fleet
 * of NodeClaims driven through launch -> registration -> initialization ->
 * deletion never loses a pod that was not evicted or force-deleted, and
 * always ends with every instance deleted and every finalizer removed.
 *
 * The fleet lives in examples/lifecycle/cluster.c's toy API server and
 * cloud; a seeded generator picks the fleet size, the pods (plain,
 * DaemonSet, critical, do-not-disrupt, with grace periods), PDBs that
 * refuse evictions some rounds, terminationGracePeriods and when each
 * NodeClaim is deleted.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "cluster.h"
#include "kp_test.h"

#define T0 1735689600000LL
#define STEP_MS 5000
#define ROUNDS 600

static uint64_t rng;

static unsigned rnd(unsigned n)
{
	rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
	return (unsigned)((rng >> 33) % n);
}

typedef struct fleet_nc {
	char name[32];
	int registered_node, pods_bound, deleted;
	int delete_round;
} fleet_nc;

static void add(ex_cluster *c, const char *yaml)
{
	kp_error e = KP_ERROR_INIT;
	ck_assert_msg(ex_cluster_add_yaml(c, yaml, &e) == KP_OK, "%s", e.message);
}

static const kp_nodeclaim *nc_named(const ex_cluster *c, const char *name)
{
	for (size_t i = 0; i < c->n_ncs; i++)
		if (strcmp(c->ncs[i]->metadata->name, name) == 0)
			return c->ncs[i];
	return NULL;
}

static int nc_initialized(const kp_nodeclaim *nc)
{
	for (size_t i = 0; nc->status && i < nc->status->n_conditions; i++)
		if (strcmp(nc->status->conditions[i]->type, "Initialized") == 0)
			return strcmp(nc->status->conditions[i]->status, "True") == 0;
	return 0;
}

static kp_node *node_named(ex_cluster *c, const char *name)
{
	for (size_t i = 0; i < c->n_nodes; i++)
		if (strcmp(c->nodes[i]->metadata->name, name) == 0)
			return c->nodes[i];
	return NULL;
}

static void register_node(ex_cluster *c, fleet_nc *f, const kp_nodeclaim *nc)
{
	char yaml[1024];
	snprintf(yaml, sizeof(yaml),
		 "apiVersion: v1\nkind: Node\nmetadata: {name: %s-node, labels: {" EX_NODECLASS_LABEL
		 ": default}}\nspec: {providerID: '%s', taints: [{key: karpenter.sh/unregistered, "
		 "effect: NoExecute}]}\nstatus: {conditions: [{type: Ready, status: 'True'}]}\n",
		 f->name, nc->status->provider_id);
	add(c, yaml);
	f->registered_node = 1;
}

static size_t bind_pods(ex_cluster *c, fleet_nc *f)
{
	unsigned n = rnd(5);
	for (unsigned i = 0; i < n; i++) {
		static const char *const meta[] = {
			"",
			", ownerReferences: [{apiVersion: apps/v1, kind: DaemonSet, name: ds, uid: d}]",
			", annotations: {karpenter.sh/do-not-disrupt: 'true'}",
			", labels: {app: web}",
		};
		static const char *const spec[] = { "", ", priorityClassName: system-node-critical",
						    ", terminationGracePeriodSeconds: 30" };
		char yaml[1024];
		snprintf(yaml, sizeof(yaml),
			 "apiVersion: v1\nkind: Pod\nmetadata: {name: %s-p%u, namespace: default%s}\n"
			 "spec: {nodeName: %s-node, containers: [{name: c, image: x}]%s}\n"
			 "status: {phase: Running}\n",
			 f->name, i, meta[rnd(4)], f->name, spec[rnd(3)]);
		add(c, yaml);
	}
	f->pods_bound = 1;
	return n;
}

static void delete_nodeclaim(ex_cluster *c, fleet_nc *f)
{
	for (size_t i = 0; i < c->n_ncs; i++) {
		kp_nodeclaim *nc = c->ncs[i];
		if (strcmp(nc->metadata->name, f->name) != 0)
			continue;
		kp_object_meta m = *nc->metadata;
		m.deletion_timestamp_ms = c->now_ms;
		kp_nodeclaim v = *nc;
		v.metadata = &m;
		kp_nodeclaim *copy = NULL;
		ck_assert_int_eq(kp_nodeclaim_copy(&copy, &v, NULL), KP_OK);
		kp_nodeclaim_free(nc);
		c->ncs[i] = copy;
	}
	f->deleted = 1;
}

/* The PDB allows a disruption in some rounds only. */
static void pdb_round(ex_cluster *c)
{
	c->pdbs[0]->status->disruptions_allowed = (int32_t)rnd(2);
}

static size_t world(ex_cluster *c, fleet_nc *fleet, size_t n, int round)
{
	size_t created = 0;
	for (size_t i = 0; i < n; i++) {
		fleet_nc *f = &fleet[i];
		const kp_nodeclaim *nc = nc_named(c, f->name);
		if (!nc)
			continue;
		if (!f->registered_node && nc->status && nc->status->provider_id)
			register_node(c, f, nc);
		char node[64];
		size_t len = strlen(f->name);
		memcpy(node, f->name, len);
		memcpy(node + len, "-node", 6);

		if (!f->pods_bound && node_named(c, node) && nc_initialized(nc))
			created += bind_pods(c, f);
		if (!f->deleted && (round >= f->delete_round && f->pods_bound))
			delete_nodeclaim(c, f);
	}
	pdb_round(c);
	return created;
}

static int stuck_node_ok(const ex_cluster *c, const kp_node *node)
{
	int dnd = 0;
	for (size_t i = 0; i < c->n_pods; i++)
		if (strcmp(c->pods[i]->spec->node_name, node->metadata->name) == 0 &&
		    kp_labels_get(&c->pods[i]->metadata->annotations, "karpenter.sh/do-not-disrupt"))
			dnd = 1;
	for (size_t i = 0; i < c->n_ncs; i++)
		if (strcmp(c->ncs[i]->status->provider_id, node->spec->provider_id) == 0 &&
		    c->ncs[i]->spec->termination_grace_period.parsed)
			return 0;
	return dnd;
}

START_TEST(fleet_never_loses_pods)
{
	rng = 0x9e3779b97f4a7c15ULL * (uint64_t)(_i + 1);
	ex_cluster c;
	ck_assert_int_eq(ex_cluster_init(&c, T0), KP_OK);
	add(&c, "apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: web, "
		"namespace: default}\nspec: {maxUnavailable: 1, selector: {matchLabels: {app: web}}}\n"
		"status: {disruptionsAllowed: 1}\n");
	fleet_nc fleet[8];
	size_t n = 1 + rnd(6), pods = 0;
	for (size_t i = 0; i < n; i++) {
		memset(&fleet[i], 0, sizeof(fleet[i]));
		snprintf(fleet[i].name, sizeof(fleet[i].name), "nc-%zu", i);
		fleet[i].delete_round = 3 + (int)rnd(20);
		char yaml[1024];
		snprintf(yaml, sizeof(yaml),
			 "apiVersion: karpenter.sh/v1\nkind: NodeClaim\nmetadata: {name: %s, uid: u-%s, "
			 "creationTimestamp: '2025-01-01T00:00:00Z'}\nspec: {nodeClassRef: {group: "
			 EX_NODECLASS_GROUP ", kind: " EX_NODECLASS_KIND ", name: default}, "
			 "requirements: []%s}\n",
			 fleet[i].name, fleet[i].name, rnd(2) ? ", terminationGracePeriod: 2m" : "");
		add(&c, yaml);
	}
	int round = 0;
	for (; round < ROUNDS && (c.n_ncs || c.n_nodes); round++) {
		kp_lifecycle_result *r = NULL;
		kp_error e = KP_ERROR_INIT;
		ck_assert_msg(ex_cluster_reconcile(&c, &r, &e) == KP_OK, "%s", e.message);
		ck_assert_msg(ex_cluster_apply(&c, r, &e) == KP_OK, "%s", e.message);
		kp_lifecycle_result_free(r);
		ck_assert_uint_eq(c.lost_pods, 0);
		pods += world(&c, fleet, n, round);
		c.now_ms += STEP_MS;
	}
	/* do-not-disrupt pods without a terminationGracePeriod block a drain
	 * forever (as upstream); the kubelet stops them once the round limit
	 * is near, as an operator would */
	ck_assert_msg(round < ROUNDS || c.n_pods > 0, "stuck without a blocking pod");
	ck_assert_uint_eq(c.lost_pods, 0);
	if (round == ROUNDS) {
		/* stuck only behind a do-not-disrupt pod, on a NodeClaim without
		 * a terminationGracePeriod to bound it */
		for (size_t i = 0; i < c.n_nodes; i++)
			ck_assert_msg(stuck_node_ok(&c, c.nodes[i]), "node %s stuck",
				      c.nodes[i]->metadata->name);
	} else {
		ck_assert_uint_eq(c.n_ncs, 0);
		ck_assert_uint_eq(c.n_nodes, 0);
		ck_assert_uint_eq(ex_cluster_instances(&c), 0);
		ck_assert_uint_eq(c.evicted + c.force_deleted, pods);
		ck_assert_uint_eq(c.n_pods, 0);
	}
	ex_cluster_free(&c);
}
END_TEST

static Suite *property_suite(void)
{
	Suite *s = suite_create("lifecycle property");
	TCase *tc = tcase_create("fleet");
	tcase_add_loop_test(tc, fleet_never_loses_pods, 0, 64);
	tcase_set_timeout(tc, 120);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	Suite *suites[] = { property_suite() };
	return kp_test_run(suites, 1);
}
