/*
 * One cluster, three decisions: over random clusters (seeded, so a failure
 * names its seed and replays), the scheduler's snapshot (kp_cluster_new,
 * read through kp_cluster_describe), disruption (kp_disruption_run) and the
 * lifecycle round (kp_lifecycle_reconcile) must give every node the same
 * facts, because they read them from one place (lib/state):
 *  - pairing: a Node is managed in the snapshot exactly when disruption
 *    pairs it with a NodeClaim, and NodeClaims and Nodes pair by provider
 *    ID whatever their names (they differ here, in another order);
 *  - initialized and deleting: the snapshot's "not initialized" and
 *    "deleting" are disruption's NotInitialized and Deleting reasons;
 *  - drift: disruption's drift answer (and reason) is the Drifted
 *    condition the lifecycle writes, for every launched, initialized,
 *    not deleting NodeClaim: NodePool hash (the NodePool given without its
 *    hash annotation, as hand-written manifests are), requirements, and an
 *    instance type the catalogue no longer has.
 * PDBs (one that allows nothing guards some pods) are in every cluster so
 * that disruption's PDB block is among the reasons compared; the
 * lifecycle drains only deleting nodes, so PDB agreement between the two
 * is not compared here. A failure names its seed; AGREE_DEBUG=1 prints the
 * lifecycle's actions of a disagreeing round.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <karpenter/karpenter.h>
#include <karpenter/kwok.h>

#include "../disruption/disruption_harness.h"
#include "kp_test.h"

#define NOW "2025-01-02T00:00:00Z"
#define OLD "2025-01-01T00:00:00Z"   /* NodeClaims older than an hour */
#define RECENT "2025-01-01T23:30:00Z" /* younger than an hour */
#define ROUNDS 60

static uint64_t rng_state;
static unsigned rnd(unsigned n)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return (unsigned)((z ^ (z >> 31)) % n);
}

/* in the KWOK catalogue, but for the last, which it does not have */
static const char *const types[] = { "c-2x-amd64-linux", "c-4x-amd64-linux", "m-4x-amd64-linux",
				     "x-9x-amd64-linux" };

typedef struct world {
	dh *h;
	char hash[64]; /* the NodePool's hash, as the hash controller writes it */
	unsigned n;
	char text_nodepool[1024];
} world;

/* The NodePool: hash from its spec, not its (absent) annotation. One in
 * three leaves c-4x out of its requirements (requirements drift). */
static void add_nodepool(world *w)
{
	const char *not_in = rnd(3) ? "" :
		"        - {key: node.kubernetes.io/instance-type, operator: NotIn, values: [c-4x-amd64-linux]}\n";
	snprintf(w->text_nodepool, sizeof(w->text_nodepool),
		 "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: default}\nspec:\n"
		 "  template:\n    spec:\n"
		 "      nodeClassRef: {group: karpenter.kwok.sh, kind: KWOKNodeClass, name: default}\n"
		 "      requirements:\n"
		 "        - {key: karpenter.sh/capacity-type, operator: In, values: [on-demand]}\n%s"
		 "  disruption: {consolidationPolicy: WhenEmptyOrUnderutilized, consolidateAfter: 0s,"
		 " budgets: [{nodes: \"100%%\"}]}\n",
		 not_in);
	dh_add(w->h, "%s", w->text_nodepool);
	/* the hash of the NodePool as stored (defaults applied) */
	kp_decode_result *d = NULL;
	kp_error e = KP_ERROR_INIT;
	ck_assert_int_eq(kp_decode(&d, w->text_nodepool, strlen(w->text_nodepool), NULL, &e), KP_OK);
	const kp_decoded_object *o = kp_decode_result_at(d, 0);
	ck_assert_int_eq(kp_object_default(o->kind, o->object, &e), KP_OK);
	ck_assert_int_eq(kp_nodepool_hash_string(o->object, NULL, w->hash, sizeof(w->hash), &e), KP_OK);
	kp_decode_result_free(d);
}

static void add_pair(world *w, unsigned i, const unsigned *perm)
{
	const char *type = types[rnd(4)];
	const char *zone = rnd(2) ? "test-zone-a" : "test-zone-b";
	char labels[512];
	snprintf(labels, sizeof(labels),
		 "    karpenter.sh/nodepool: default\n    karpenter.sh/capacity-type: on-demand\n"
		 "    node.kubernetes.io/instance-type: %s\n    topology.kubernetes.io/zone: %s\n"
		 "    kubernetes.io/arch: amd64\n    kubernetes.io/os: linux\n",
		 type, zone);
	/* hash: current, stale, or missing (missing: no static drift) */
	unsigned h = rnd(4);
	char ann[256] = "";
	if (h < 3)
		snprintf(ann, sizeof(ann),
			 "  annotations: {karpenter.sh/nodepool-hash: \"%s\", "
			 "karpenter.sh/nodepool-hash-version: v3}\n",
			 h == 2 ? "12345" : w->hash);
	int nc_deleting = !rnd(7), node_deleting = !rnd(7), initialized = rnd(5) != 0;
	int has_node = rnd(8) != 0;
	const char *created = rnd(3) ? OLD : RECENT;
	dh_add(w->h,
	       "apiVersion: karpenter.sh/v1\nkind: NodeClaim\nmetadata:\n  name: claim-%02u\n"
	       "  creationTimestamp: \"%s\"\n%s%s  labels:\n%s"
	       "spec:\n  nodeClassRef: {group: karpenter.kwok.sh, kind: KWOKNodeClass, name: default}\n"
	       "  requirements: [{key: node.kubernetes.io/instance-type, operator: In, values: [%s]}]\n"
	       "status:\n  providerID: \"kwok://instance-%02u\"\n  nodeName: node-%02u\n  conditions:\n"
	       "    - {type: Launched, status: \"True\", reason: Launched, message: \"\", lastTransitionTime: \"%s\"}\n"
	       "    - {type: Registered, status: \"True\", reason: Registered, message: \"\", lastTransitionTime: \"%s\"}\n"
	       "    - {type: Initialized, status: \"True\", reason: Initialized, message: \"\", lastTransitionTime: \"%s\"}\n",
	       perm[i], created,
	       nc_deleting ? "  deletionTimestamp: \"2025-01-01T23:59:00Z\"\n"
			     "  finalizers: [karpenter.sh/termination]\n" : "",
	       ann, labels, type, i, i, created, created, created);
	if (!has_node)
		return;
	dh_add(w->h,
	       "apiVersion: v1\nkind: Node\nmetadata:\n  name: node-%02u\n%s  labels:\n%s"
	       "    karpenter.sh/registered: \"true\"\n%s    kubernetes.io/hostname: node-%02u\n"
	       "spec:\n  providerID: \"kwok://instance-%02u\"\n"
	       "status:\n  allocatable: {cpu: 3900m, memory: 30Gi, pods: \"110\"}\n"
	       "  capacity: {cpu: \"4\", memory: 32Gi, pods: \"110\"}\n"
	       "  conditions: [{type: Ready, status: \"True\", lastTransitionTime: \"%s\"}]\n",
	       i,
	       node_deleting ? "  deletionTimestamp: \"2025-01-01T23:59:00Z\"\n"
			       "  finalizers: [karpenter.sh/termination]\n" : "",
	       labels, initialized ? "    karpenter.sh/initialized: \"true\"\n" : "", i, i, created);
	/* pods: some guarded by the PDB that allows nothing */
	unsigned pods = rnd(3);
	for (unsigned p = 0; p < pods; p++) {
		char pod[32], node[32];
		snprintf(pod, sizeof(pod), "pod-%02u-%u", i, p);
		snprintf(node, sizeof(node), "node-%02u", i);
		dh_pod(w->h, "app", pod, node, "100m",
		       rnd(3) ? "  labels: {app: free}" : "  labels: {app: guarded}");
	}
}

static world *random_world(uint64_t seed)
{
	rng_state = seed;
	world *w = calloc(1, sizeof(*w));
	ck_assert_ptr_nonnull(w);
	w->h = dh_new();
	add_nodepool(w);
	w->n = 2 + rnd(7);
	unsigned perm[16];
	for (unsigned i = 0; i < w->n; i++)
		perm[i] = i;
	for (unsigned i = w->n; i > 1; i--) { /* NodeClaim names in another order */
		unsigned j = rnd(i), t = perm[i - 1];
		perm[i - 1] = perm[j];
		perm[j] = t;
	}
	for (unsigned i = 0; i < w->n; i++)
		add_pair(w, i, perm);
	/* an unmanaged Node, sometimes */
	if (!rnd(3))
		dh_add(w->h, "apiVersion: v1\nkind: Node\nmetadata: {name: unmanaged}\n"
			     "spec: {providerID: \"kwok://elsewhere\"}\n"
			     "status: {allocatable: {cpu: \"2\", memory: 8Gi, pods: \"110\"}}\n");
	dh_add(w->h, "apiVersion: policy/v1\nkind: PodDisruptionBudget\n"
		     "metadata: {name: guard, namespace: app}\n"
		     "spec: {maxUnavailable: 1, selector: {matchLabels: {app: guarded}}}\n"
		     "status: {disruptionsAllowed: 0}\n");
	return w;
}

static void world_free(world *w)
{
	dh_free(w->h);
	free(w);
}

/* ---- the snapshot's view: kp_cluster_describe's node lines --------------- */

typedef struct snap_node {
	char name[64];
	int managed, initialized, deleting;
} snap_node;

static size_t snapshot_nodes(const kp_cluster_spec *spec, snap_node *out, size_t cap)
{
	kp_cluster *c = NULL;
	kp_error e = KP_ERROR_INIT;
	ck_assert_msg(kp_cluster_new(&c, spec, &e) == KP_OK, "kp_cluster_new: %s", e.message);
	char *text = NULL;
	ck_assert_int_eq(kp_cluster_describe(&text, c, &e), KP_OK);
	size_t n = 0;
	const char *p = strstr(text, "nodes (in the order they are tried):\n");
	ck_assert_ptr_nonnull(p);
	p = strchr(p, '\n') + 1;
	while (!strncmp(p, "  ", 2) && n < cap) {
		const char *colon = strstr(p, ": ");
		const char *eol = strchr(p, '\n');
		ck_assert_ptr_nonnull(colon);
		ck_assert_ptr_nonnull(eol);
		snap_node *s = &out[n++];
		snprintf(s->name, sizeof(s->name), "%.*s", (int)(colon - p - 2), p + 2);
		char line[512];
		snprintf(line, sizeof(line), "%.*s", (int)(eol - colon), colon);
		s->managed = strstr(line, " managed,") != NULL;
		s->initialized = strstr(line, "not initialized") == NULL;
		s->deleting = strstr(line, ", deleting") != NULL;
		p = eol + 1;
	}
	kp_cluster_description_free(text);
	kp_cluster_free(c);
	return n;
}

/* ---- the lifecycle's view: the Drifted condition it leaves --------------- */

/* The NodeClaim's Drifted condition after the round: the status the
 * NodeClaim disruption controller writes (each controller reacts to the
 * input, so another's action carries the input's conditions), else the
 * input's; "" when none. */
static const char *lifecycle_drift(const kp_lifecycle_result *r, const kp_cluster_spec *spec,
				   const char *nodeclaim)
{
	const kp_nodeclaim *last = NULL;
	for (size_t i = 0; i < spec->n_nodeclaims; i++)
		if (!strcmp(spec->nodeclaims[i]->metadata->name, nodeclaim))
			last = spec->nodeclaims[i];
	for (size_t i = 0; i < kp_lifecycle_result_action_count(r); i++) {
		const kp_lifecycle_action *a = kp_lifecycle_result_action_at(r, i);
		if (a->kind == KP_KIND_NODECLAIM && a->object && !strcmp(a->name, nodeclaim) &&
		    a->verb == KP_LIFECYCLE_VERB_UPDATE_STATUS &&
		    !strcmp(a->controller, KP_LIFECYCLE_CONTROLLER_NODECLAIM_DISRUPTION))
			last = a->object;
	}
	const kp_condition *c = last && last->status
		? kp_condition_find(last->status->conditions, last->status->n_conditions, "Drifted")
		: NULL;
	return c && c->status && !strcmp(c->status, "True") ? (c->reason ? c->reason : "?") : "";
}

static int has(const kp_disruption_node *n, uint32_t code)
{
	for (size_t i = 0; i < n->n_reasons; i++)
		if (n->reasons[i]->code == code)
			return 1;
	return 0;
}

static void check_world(uint64_t seed)
{
	world *w = random_world(seed);
	const kp_cluster_spec *spec = dh_spec(w->h, NOW);
	snap_node snap[32];
	size_t n_snap = snapshot_nodes(spec, snap, 32);
	const kp_disruption_result *dr = dh_run(w->h, NOW, 0, 1);

	kp_error e = KP_ERROR_INIT;
	kp_cloudprovider *cp = NULL;
	kp_kwok_provider_options ko = KP_KWOK_PROVIDER_OPTIONS_INIT;
	ck_assert_int_eq(kp_kwok_provider_new(&cp, &ko, &e), KP_OK);
	/* the lifecycle reads the very spec disruption read */
	kp_lifecycle_options lo = KP_LIFECYCLE_OPTIONS_INIT;
	lo.cloudprovider = cp;
	kp_lifecycle_result *lr = NULL;
	ck_assert_msg(kp_lifecycle_reconcile(&lr, spec, &lo, &e) == KP_OK, "reconcile: %s", e.message);

	char ctx[64];
	snprintf(ctx, sizeof(ctx), "seed %llu", (unsigned long long)seed);
	for (size_t i = 0; i < n_snap; i++) {
		const snap_node *s = &snap[i];
		const kp_disruption_node *d = dh_find(dr, s->name);
		ck_assert_msg(d, "%s: %s: not explained by disruption", ctx, s->name);
		/* pairing */
		ck_assert_msg(s->managed == (d->nodeclaim != NULL), "%s: %s: managed %d, disruption's NodeClaim %s",
			      ctx, s->name, s->managed, d->nodeclaim ? d->nodeclaim : "none");
		if (!s->managed)
			continue;
		/* initialized, deleting */
		ck_assert_msg(s->initialized == !has(d, KP_BLOCK_NOT_INITIALIZED),
			      "%s: %s: initialized %d in the snapshot; disruption:\n%s", ctx, s->name,
			      s->initialized, dh_reasons(d));
		/* disruption names the first filter a node fails, as upstream's
		 * ValidateNodeDisruptable: deleting shows on initialized nodes */
		if (!s->initialized)
			continue;
		ck_assert_msg(s->deleting == has(d, KP_BLOCK_DELETING),
			      "%s: %s: deleting %d in the snapshot; disruption:\n%s", ctx, s->name,
			      s->deleting, dh_reasons(d));
		if (s->deleting)
			continue;
		/* drift */
		const char *lc = lifecycle_drift(lr, spec, d->nodeclaim);
		const char *dd = d->drifted ? d->drift_reason : "";
		if (getenv("AGREE_DEBUG") && strcmp(lc, dd))
			for (size_t k = 0; k < kp_lifecycle_result_action_count(lr); k++) {
				const kp_lifecycle_action *a = kp_lifecycle_result_action_at(lr, k);
				fprintf(stderr, "%s %s %s %s: %s\n", a->controller, kp_lifecycle_verb_name(a->verb), a->name, a->reason ? a->reason : "", a->message ? a->message : "");
			}
		ck_assert_msg(!strcmp(lc, dd), "%s: %s: lifecycle drift \"%s\", disruption \"%s\"", ctx,
			      d->nodeclaim, lc, dd);
	}
	kp_lifecycle_result_free(lr);
	kp_cloudprovider_free(cp);
	world_free(w);
}

START_TEST(decisions_agree)
{
	for (uint64_t seed = 1; seed <= ROUNDS; seed++)
		check_world(seed * 7919 + (uint64_t)_i);
}
END_TEST

/* Each fact appears in the random clusters, so the agreement is not
 * vacuous: some node is unmanaged, not initialized, deleting, drifted by
 * each rule. */
START_TEST(clusters_cover_every_fact)
{
	int unmanaged = 0, uninit = 0, deleting = 0, hash = 0, reqs = 0, itnf = 0, pdb = 0;
	for (uint64_t seed = 1; seed <= ROUNDS; seed++) {
		world *w = random_world(seed * 7919);
		const kp_disruption_result *dr = dh_run(w->h, NOW, 0, 1);
		for (size_t i = 0; i < kp_disruption_result_node_count(dr); i++) {
			const kp_disruption_node *d = kp_disruption_result_node_at(dr, i);
			unmanaged += !d->nodeclaim;
			uninit += has(d, KP_BLOCK_NOT_INITIALIZED);
			deleting += has(d, KP_BLOCK_DELETING);
			pdb += has(d, KP_BLOCK_PDB);
			if (d->drifted) {
				hash += !strcmp(d->drift_reason, "NodePoolDrifted");
				reqs += !strcmp(d->drift_reason, "RequirementsDrifted");
				itnf += !strcmp(d->drift_reason, "InstanceTypeNotFound");
			}
		}
		world_free(w);
	}
	ck_assert_msg(unmanaged && uninit && deleting && hash && reqs && itnf && pdb,
		      "unmanaged %d, not initialized %d, deleting %d, drift: hash %d, requirements %d, "
		      "instance type %d; PDB %d",
		      unmanaged, uninit, deleting, hash, reqs, itnf, pdb);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("one cluster, three decisions");
	TCase *tc = tcase_create("agreement");
	tcase_set_timeout(tc, 300);
	tcase_add_loop_test(tc, decisions_agree, 0, 2);
	tcase_add_test(tc, clusters_cover_every_fact);
	suite_add_tcase(s, tc);
	return kp_test_run(&s, 1);
}

