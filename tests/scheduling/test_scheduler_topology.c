/*
 * The scheduling simulation, part 3: topology spread constraints, pod
 * affinity and anti-affinity (required and preferred), the anti-affinity
 * of running pods, relaxation of preferences. Scenarios mirror upstream
 * pkg/controllers/provisioning/scheduling/topology_test.go.
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

static h_scenario sc;

static void teardown(void)
{
	h_free(&sc);
}

/* n pods named prefix-i with labels and a spec fragment (indented 2). */
static char *pods(char *buf, size_t *len, size_t cap, const char *prefix, int n,
		  const char *labels, const char *cpu, const char *spec)
{
	for (int i = 0; i < n; i++)
		*len += (size_t)snprintf(buf + *len, cap - *len,
					 "apiVersion: v1\nkind: Pod\nmetadata: {name: %s-%d, uid: %s-%d, "
					 "labels: {%s}}\nspec:\n%s  containers: [{name: c, resources: "
					 "{requests: {cpu: \"%s\"}}}]\n---\n",
					 prefix, i, prefix, i, labels, spec, cpu);
	return buf;
}

/* Number of pods per zone of the launch choice, "a=2 b=2 c=1". */
static const char *zone_counts(const h_scenario *s, const char *prefix)
{
	static char out[256];
	size_t counts[3] = { 0, 0, 0 };
	size_t np = kp_sched_result_pod_count(s->result);
	for (size_t i = 0; i < np; i++) {
		const kp_sched_placement *p = kp_sched_result_pod_at(s->result, i);
		if (strncmp(p->name, prefix, strlen(prefix)) != 0 ||
		    p->target != KP_SCHED_NEW_NODECLAIM)
			continue;
		const kp_sched_nodeclaim *n = kp_sched_result_nodeclaim_at(s->result, p->nodeclaim_index);
		counts[n->zone[strlen(n->zone) - 1] - 'a']++;
	}
	snprintf(out, sizeof(out), "a=%zu b=%zu c=%zu", counts[0], counts[1], counts[2]);
	return out;
}

#define ZONE_SPREAD(when, skew)                                                                    \
	"  topologySpreadConstraints:\n  - maxSkew: " skew "\n    topologyKey: "                    \
	"topology.kubernetes.io/zone\n    whenUnsatisfiable: " when "\n    labelSelector: "       \
	"{matchLabels: {app: web}}\n"

START_TEST(zonal_spread)
{
	char *y = malloc(1 << 16);
	size_t len = (size_t)snprintf(y, 1 << 16, "%s", NODEPOOL);
	pods(y, &len, 1 << 16, "web", 5, "app: web", "1", ZONE_SPREAD("DoNotSchedule", "1"));
	h_load(&sc, y, NULL);
	free(y);
	h_run(&sc, NULL);
	ck_assert_uint_eq(h_count(&sc, KP_SCHED_NEW_NODECLAIM), 5);
	ck_assert_str_eq(zone_counts(&sc, "web"), "a=2 b=2 c=1");
	ck_assert_uint_eq(kp_sched_result_nodeclaim_count(sc.result), 3);
	for (size_t i = 0; i < 3; i++) {
		const kp_sched_nodeclaim *n = kp_sched_result_nodeclaim_at(sc.result, i);
		char want[64];
		snprintf(want, sizeof(want), "In %s", n->zone);
		ck_assert_str_eq(h_req(n->nodeclaim, KP_LABEL_TOPOLOGY_ZONE), want);
	}
}
END_TEST

START_TEST(zonal_spread_counts_existing_pods)
{
	char *y = malloc(1 << 16);
	size_t len = (size_t)snprintf(y, 1 << 16, "%s", NODEPOOL);
	/* two running web pods in zone a */
	len += (size_t)snprintf(y + len, (1 << 16) - len,
		"apiVersion: v1\nkind: Node\nmetadata:\n  name: node-a\n  labels: {kubernetes.io/hostname: node-a, "
		"topology.kubernetes.io/zone: test-zone-a}\nspec: {providerID: kwok://a, taints: [{key: full, effect: NoSchedule}]}\n"
		"status: {allocatable: {cpu: \"4\", pods: \"10\"}}\n---\n"
		"apiVersion: v1\nkind: Pod\nmetadata: {name: run-1, uid: r1, labels: {app: web}}\nspec: {nodeName: node-a, "
		"containers: [{name: c}]}\n---\n"
		"apiVersion: v1\nkind: Pod\nmetadata: {name: run-2, uid: r2, labels: {app: web}}\nspec: {nodeName: node-a, "
		"containers: [{name: c}]}\n---\n");
	pods(y, &len, 1 << 16, "web", 4, "app: web", "1", ZONE_SPREAD("DoNotSchedule", "1"));
	h_load(&sc, y, NULL);
	free(y);
	h_run(&sc, NULL);
	ck_assert_uint_eq(h_count(&sc, KP_SCHED_NEW_NODECLAIM), 4);
	/* zone a already has 2: b and c get 2 each first */
	ck_assert_str_eq(zone_counts(&sc, "web"), "a=0 b=2 c=2");
}
END_TEST

START_TEST(hostname_spread)
{
	char *y = malloc(1 << 16);
	size_t len = (size_t)snprintf(y, 1 << 16, "%s", NODEPOOL);
	pods(y, &len, 1 << 16, "web", 4, "app: web", "100m",
	     "  topologySpreadConstraints:\n  - {maxSkew: 1, topologyKey: kubernetes.io/hostname, "
	     "whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels: {app: web}}}\n");
	h_load(&sc, y, NULL);
	free(y);
	h_run(&sc, NULL);
	ck_assert_uint_eq(kp_sched_result_nodeclaim_count(sc.result), 4);
}
END_TEST

START_TEST(min_domains)
{
	char *y = malloc(1 << 16);
	size_t len = (size_t)snprintf(y, 1 << 16, "%s", NODEPOOL);
	pods(y, &len, 1 << 16, "web", 4, "app: web", "100m",
	     "  topologySpreadConstraints:\n  - {maxSkew: 1, minDomains: 5, topologyKey: "
	     "topology.kubernetes.io/zone, whenUnsatisfiable: DoNotSchedule, labelSelector: "
	     "{matchLabels: {app: web}}}\n");
	h_load(&sc, y, NULL);
	free(y);
	h_run(&sc, NULL);
	/* fewer domains than minDomains: the global minimum counts as 0 */
	ck_assert_uint_eq(h_count(&sc, KP_SCHED_NEW_NODECLAIM), 3);
	ck_assert_str_eq(zone_counts(&sc, "web"), "a=1 b=1 c=1");
	const kp_sched_placement *p = h_pod(&sc, "web-3");
	ck_assert_uint_eq(p->target, KP_SCHED_UNPLACED);
	const kp_sched_reason *r = h_reason(p, KP_REASON_TOPOLOGY_SPREAD, "default", NULL);
	ck_assert_ptr_nonnull(r);
	ck_assert_str_eq(r->field, KP_LABEL_TOPOLOGY_ZONE);
}
END_TEST

START_TEST(zonal_anti_affinity)
{
	/* upstream's late committal: the first pod's NodeClaim may land in any
	 * zone, so anti-affinity blocks them all until it launches; one pod per
	 * batch (topology_test.go "should support pod anti-affinity with a zone
	 * topology") */
	char *y = malloc(1 << 16);
	size_t len = (size_t)snprintf(y, 1 << 16, "%s", NODEPOOL);
	pods(y, &len, 1 << 16, "web", 4, "app: web", "100m",
	     "  affinity: {podAntiAffinity: {requiredDuringSchedulingIgnoredDuringExecution: "
	     "[{topologyKey: topology.kubernetes.io/zone, labelSelector: {matchLabels: {app: web}}}]}}\n");
	h_load(&sc, y, NULL);
	free(y);
	h_run(&sc, NULL);
	ck_assert_uint_eq(h_count(&sc, KP_SCHED_NEW_NODECLAIM), 1);
	ck_assert_uint_eq(h_count(&sc, KP_SCHED_UNPLACED), 3);
	const kp_sched_nodeclaim *n = kp_sched_result_nodeclaim_at(sc.result, 0);
	ck_assert_str_eq(h_req(n->nodeclaim, KP_LABEL_TOPOLOGY_ZONE),
			 "In test-zone-a,test-zone-b,test-zone-c");
	size_t np = kp_sched_result_pod_count(sc.result);
	for (size_t i = 0; i < np; i++) {
		const kp_sched_placement *p = kp_sched_result_pod_at(sc.result, i);
		if (p->target == KP_SCHED_UNPLACED)
			ck_assert_ptr_nonnull(h_reason(p, KP_REASON_POD_ANTI_AFFINITY, "default", NULL));
	}
	/* with the zone fixed by a node selector, each pod collapses its own zone */
	h_free(&sc);
	y = malloc(1 << 16);
	len = (size_t)snprintf(y, 1 << 16, "%s", NODEPOOL);
	const char *zones[] = { "test-zone-a", "test-zone-b", "test-zone-c" };
	for (int z = 0; z < 3; z++) {
		char spec[512];
		snprintf(spec, sizeof(spec),
			 "  nodeSelector: {topology.kubernetes.io/zone: %s}\n"
			 "  affinity: {podAntiAffinity: {requiredDuringSchedulingIgnoredDuringExecution: "
			 "[{topologyKey: topology.kubernetes.io/zone, labelSelector: {matchLabels: {app: web}}}]}}\n",
			 zones[z]);
		char prefix[16];
		snprintf(prefix, sizeof(prefix), "z%d", z);
		pods(y, &len, 1 << 16, prefix, 2, "app: web", "100m", spec);
	}
	h_load(&sc, y, NULL);
	free(y);
	h_run(&sc, NULL);
	ck_assert_uint_eq(h_count(&sc, KP_SCHED_NEW_NODECLAIM), 3);
	ck_assert_uint_eq(h_count(&sc, KP_SCHED_UNPLACED), 3);
}
END_TEST

START_TEST(hostname_anti_affinity)
{
	char *y = malloc(1 << 16);
	size_t len = (size_t)snprintf(y, 1 << 16, "%s", NODEPOOL);
	pods(y, &len, 1 << 16, "web", 5, "app: web", "100m",
	     "  affinity: {podAntiAffinity: {requiredDuringSchedulingIgnoredDuringExecution: "
	     "[{topologyKey: kubernetes.io/hostname, labelSelector: {matchLabels: {app: web}}}]}}\n");
	h_load(&sc, y, NULL);
	free(y);
	h_run(&sc, NULL);
	ck_assert_uint_eq(kp_sched_result_nodeclaim_count(sc.result), 5);
}
END_TEST

START_TEST(pod_affinity_to_running_pod)
{
	char *y = malloc(1 << 16);
	size_t len = (size_t)snprintf(y, 1 << 16, "%s", NODEPOOL);
	len += (size_t)snprintf(y + len, (1 << 16) - len,
		"apiVersion: v1\nkind: Node\nmetadata:\n  name: node-b\n  labels: {kubernetes.io/hostname: node-b, "
		"topology.kubernetes.io/zone: test-zone-b}\nspec: {providerID: kwok://b}\n"
		"status: {allocatable: {cpu: \"1\", pods: \"10\"}}\n---\n"
		"apiVersion: v1\nkind: Pod\nmetadata: {name: db, uid: db, labels: {app: db}}\nspec: {nodeName: node-b, "
		"containers: [{name: c, resources: {requests: {cpu: \"1\"}}}]}\n---\n");
	pods(y, &len, 1 << 16, "web", 3, "app: web", "1",
	     "  affinity: {podAffinity: {requiredDuringSchedulingIgnoredDuringExecution: "
	     "[{topologyKey: topology.kubernetes.io/zone, labelSelector: {matchLabels: {app: db}}}]}}\n");
	pods(y, &len, 1 << 16, "lonely", 1, "app: lonely", "1",
	     "  affinity: {podAffinity: {requiredDuringSchedulingIgnoredDuringExecution: "
	     "[{topologyKey: topology.kubernetes.io/zone, labelSelector: {matchLabels: {app: nothing}}}]}}\n");
	h_load(&sc, y, NULL);
	free(y);
	h_run(&sc, NULL);
	ck_assert_str_eq(zone_counts(&sc, "web"), "a=0 b=3 c=0");
	const kp_sched_placement *l = h_pod(&sc, "lonely-0");
	ck_assert_uint_eq(l->target, KP_SCHED_UNPLACED);
	ck_assert_ptr_nonnull(h_reason(l, KP_REASON_POD_AFFINITY, "default", NULL));
}
END_TEST

START_TEST(self_affinity_bootstraps)
{
	char *y = malloc(1 << 16);
	size_t len = (size_t)snprintf(y, 1 << 16, "%s", NODEPOOL);
	pods(y, &len, 1 << 16, "web", 6, "app: web", "3",
	     "  affinity: {podAffinity: {requiredDuringSchedulingIgnoredDuringExecution: "
	     "[{topologyKey: topology.kubernetes.io/zone, labelSelector: {matchLabels: {app: web}}}]}}\n");
	h_load(&sc, y, NULL);
	free(y);
	h_run(&sc, NULL);
	/* the first pod picks a zone (the smallest name), the others follow */
	ck_assert_str_eq(zone_counts(&sc, "web"), "a=6 b=0 c=0");
}
END_TEST

START_TEST(anti_affinity_of_running_pods)
{
	char *y = malloc(1 << 16);
	size_t len = (size_t)snprintf(y, 1 << 16, "%s", NODEPOOL);
	len += (size_t)snprintf(y + len, (1 << 16) - len,
		"apiVersion: v1\nkind: Node\nmetadata:\n  name: node-a\n  labels: {kubernetes.io/hostname: node-a, "
		"topology.kubernetes.io/zone: test-zone-a}\nspec: {providerID: kwok://a}\n"
		"status: {allocatable: {cpu: \"8\", pods: \"10\"}}\n---\n"
		"apiVersion: v1\nkind: Pod\nmetadata: {name: loner, uid: loner, labels: {app: loner}}\nspec:\n  nodeName: node-a\n"
		"  affinity: {podAntiAffinity: {requiredDuringSchedulingIgnoredDuringExecution: "
		"[{topologyKey: topology.kubernetes.io/zone, labelSelector: {matchLabels: {app: web}}}]}}\n"
		"  containers: [{name: c}]\n---\n");
	pods(y, &len, 1 << 16, "web", 2, "app: web", "1", "");
	pods(y, &len, 1 << 16, "other", 1, "app: other", "1", "");
	h_load(&sc, y, NULL);
	free(y);
	h_run(&sc, NULL);
	/* node-a has room, but the running pod keeps web pods out of zone a */
	ck_assert_uint_eq(h_pod(&sc, "web-0")->target, KP_SCHED_NEW_NODECLAIM);
	ck_assert_str_eq(zone_counts(&sc, "web"), "a=0 b=2 c=0");
	ck_assert_str_eq(h_pod(&sc, "other-0")->node, "node-a");
	/* without the running pod (its node removed) they fit node... elsewhere */
}
END_TEST

START_TEST(schedule_anyway_relaxed)
{
	/* a node with room for both, no new nodes allowed (nodes: 0): the
	 * second pod only fits once its ScheduleAnyway constraint is relaxed */
	char *y = malloc(1 << 16);
	size_t len = (size_t)snprintf(y, 1 << 16, "%s",
		"apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: default}\nspec:\n  limits: {nodes: \"0\"}\n"
		"  template:\n    spec:\n      nodeClassRef: {group: karpenter.kwok.sh, kind: KWOKNodeClass, name: default}\n"
		"      requirements: []\n---\n"
		"apiVersion: v1\nkind: Node\nmetadata:\n  name: node-a\n  labels: {kubernetes.io/hostname: node-a}\n"
		"spec: {providerID: kwok://a}\nstatus: {allocatable: {cpu: \"8\", pods: \"10\"}}\n---\n");
	pods(y, &len, 1 << 16, "soft", 2, "app: soft", "1",
	     "  topologySpreadConstraints:\n  - {maxSkew: 1, topologyKey: kubernetes.io/hostname, "
	     "whenUnsatisfiable: ScheduleAnyway, labelSelector: {matchLabels: {app: soft}}}\n");
	pods(y, &len, 1 << 16, "hard", 2, "app: hard", "1",
	     "  topologySpreadConstraints:\n  - {maxSkew: 1, topologyKey: kubernetes.io/hostname, "
	     "whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels: {app: hard}}}\n");
	h_load(&sc, y, NULL);
	free(y);
	h_run(&sc, NULL);
	ck_assert_str_eq(h_pod(&sc, "soft-0")->node, "node-a");
	ck_assert_str_eq(h_pod(&sc, "soft-1")->node, "node-a");
	ck_assert_uint_eq(h_count(&sc, KP_SCHED_EXISTING_NODE), 3);
	const kp_sched_placement *p = h_pod(&sc, "hard-1");
	if (p->target != KP_SCHED_UNPLACED)
		p = h_pod(&sc, "hard-0");
	ck_assert_uint_eq(p->target, KP_SCHED_UNPLACED);
	ck_assert_ptr_nonnull(h_reason(p, KP_REASON_TOPOLOGY_SPREAD, NULL, "node-a"));
	ck_assert_ptr_nonnull(h_reason(p, KP_REASON_NODEPOOL_LIMITS, "default", NULL));
}
END_TEST

START_TEST(preferred_anti_affinity_relaxed)
{
	/* three zones, four pods that prefer to avoid each other per zone */
	char *y = malloc(1 << 16);
	size_t len = (size_t)snprintf(y, 1 << 16, "%s", NODEPOOL);
	pods(y, &len, 1 << 16, "web", 4, "app: web", "3",
	     "  affinity: {podAntiAffinity: {preferredDuringSchedulingIgnoredDuringExecution: "
	     "[{weight: 10, podAffinityTerm: {topologyKey: topology.kubernetes.io/zone, labelSelector: "
	     "{matchLabels: {app: web}}}}]}}\n");
	h_load(&sc, y, NULL);
	free(y);
	h_run(&sc, NULL);
	ck_assert_uint_eq(h_count(&sc, KP_SCHED_NEW_NODECLAIM), 4);
}
END_TEST

START_TEST(match_label_keys)
{
	char *y = malloc(1 << 16);
	size_t len = (size_t)snprintf(y, 1 << 16, "%s", NODEPOOL);
	const char *spread =
		"  topologySpreadConstraints:\n  - maxSkew: 1\n    topologyKey: topology.kubernetes.io/zone\n"
		"    whenUnsatisfiable: DoNotSchedule\n    labelSelector: {matchLabels: {app: web}}\n"
		"    matchLabelKeys: [pod-template-hash]\n";
	pods(y, &len, 1 << 16, "v1", 3, "app: web, pod-template-hash: one", "3", spread);
	pods(y, &len, 1 << 16, "v2", 3, "app: web, pod-template-hash: two", "3", spread);
	h_load(&sc, y, NULL);
	free(y);
	h_run(&sc, NULL);
	/* each revision spreads on its own */
	ck_assert_str_eq(zone_counts(&sc, "v1"), "a=1 b=1 c=1");
	ck_assert_str_eq(zone_counts(&sc, "v2"), "a=1 b=1 c=1");
}
END_TEST

START_TEST(spread_node_affinity_policy)
{
	/* pods restricted to zones a and b: with nodeAffinityPolicy Honor
	 * (default) zone c does not count, so they alternate between a and b */
	char *y = malloc(1 << 16);
	size_t len = (size_t)snprintf(y, 1 << 16, "%s", NODEPOOL);
	pods(y, &len, 1 << 16, "web", 4, "app: web", "3",
	     "  affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: "
	     "[{matchExpressions: [{key: topology.kubernetes.io/zone, operator: In, values: [test-zone-a, "
	     "test-zone-b]}]}]}}}\n" ZONE_SPREAD("DoNotSchedule", "1"));
	h_load(&sc, y, NULL);
	free(y);
	h_run(&sc, NULL);
	ck_assert_uint_eq(h_count(&sc, KP_SCHED_NEW_NODECLAIM), 4);
	ck_assert_str_eq(zone_counts(&sc, "web"), "a=2 b=2 c=0");
}
END_TEST

START_TEST(topology_deterministic_and_consolidation)
{
	char *y = malloc(1 << 18);
	size_t len = (size_t)snprintf(y, 1 << 18, "%s", NODEPOOL);
	pods(y, &len, 1 << 18, "zs", 12, "app: zs", "700m", ZONE_SPREAD("DoNotSchedule", "1"));
	pods(y, &len, 1 << 18, "hs", 6, "app: hs", "300m",
	     "  topologySpreadConstraints:\n  - {maxSkew: 1, topologyKey: kubernetes.io/hostname, "
	     "whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels: {app: hs}}}\n");
	pods(y, &len, 1 << 18, "aa", 5, "app: aa", "500m",
	     "  affinity: {podAntiAffinity: {requiredDuringSchedulingIgnoredDuringExecution: "
	     "[{topologyKey: kubernetes.io/hostname, labelSelector: {matchLabels: {app: aa}}}]}}\n");
	h_load(&sc, y, NULL);
	free(y);
	h_run(&sc, NULL);
	char *a = h_dump(sc.result);
	h_run(&sc, NULL);
	char *b = h_dump(sc.result);
	ck_assert_str_eq(a, b);
	ck_assert_uint_eq(h_count(&sc, KP_SCHED_UNPLACED), 0);
	free(a);
	free(b);
}
END_TEST

START_TEST(removed_node_pods_do_not_count)
{
	/* consolidation: node-a goes; its two web pods must be placed again
	 * and no longer count in zone a (upstream excludes the pods it
	 * schedules from the topology counts) */
	char *y = malloc(1 << 16);
	size_t len = (size_t)snprintf(y, 1 << 16, "%s", NODEPOOL);
	const char *zone[3] = { "a", "b", "c" };
	const int pods_on[3] = { 2, 1, 1 };
	for (int n = 0; n < 3; n++) {
		len += (size_t)snprintf(y + len, (1 << 16) - len,
			"apiVersion: v1\nkind: Node\nmetadata:\n  name: node-%s\n  labels: {kubernetes.io/hostname: node-%s, "
			"topology.kubernetes.io/zone: test-zone-%s}\nspec: {providerID: kwok://%s}\n"
			"status: {allocatable: {cpu: \"%d\", pods: \"10\"}}\n---\n",
			zone[n], zone[n], zone[n], zone[n], pods_on[n]);
		for (int k = 0; k < pods_on[n]; k++)
			len += (size_t)snprintf(y + len, (1 << 16) - len,
				"apiVersion: v1\nkind: Pod\nmetadata: {name: web-%s%d, uid: web-%s%d, labels: {app: web}}\n"
				"spec:\n  nodeName: node-%s\n" ZONE_SPREAD("DoNotSchedule", "1")
				"  containers: [{name: c, resources: {requests: {cpu: \"1\"}}}]\n---\n",
				zone[n], k, zone[n], k, zone[n]);
	}
	h_load(&sc, y, NULL);
	free(y);
	const char *gone[] = { "node-a" };
	kp_sched_options o = KP_SCHED_OPTIONS_INIT;
	o.removed_nodes = gone;
	o.n_removed_nodes = 1;
	h_run(&sc, &o);
	ck_assert_uint_eq(kp_sched_result_pod_count(sc.result), 2);
	ck_assert_uint_eq(h_count(&sc, KP_SCHED_NEW_NODECLAIM), 2);
	/* counts without them: a=0 b=1 c=1, so the first goes back to zone a */
	const kp_sched_placement *p0 = h_pod(&sc, "web-a0");
	ck_assert_str_eq(kp_sched_result_nodeclaim_at(sc.result, p0->nodeclaim_index)->zone, "test-zone-a");
	ck_assert_str_eq(zone_counts(&sc, "web"), "a=2 b=0 c=0");
}
END_TEST

/* Namespaces team-a and team-b as objects, and a node with room in zone
 * @p zone running pod "db" (app: db) in namespace team-a. */
static size_t namespaced_db(char *y, size_t len, const char *zone, const char *cpu)
{
	return len + (size_t)snprintf(y + len, (1 << 16) - len,
		"apiVersion: v1\nkind: Namespace\nmetadata: {name: team-a, labels: {team: a}}\n---\n"
		"apiVersion: v1\nkind: Namespace\nmetadata: {name: team-b, labels: {team: b}}\n---\n"
		"apiVersion: v1\nkind: Node\nmetadata:\n  name: node-%s\n  labels: {kubernetes.io/hostname: node-%s, "
		"topology.kubernetes.io/zone: test-zone-%s}\nspec: {providerID: kwok://%s}\n"
		"status: {allocatable: {cpu: \"%s\", pods: \"10\"}}\n---\n"
		"apiVersion: v1\nkind: Pod\nmetadata: {name: db, namespace: team-a, uid: db, labels: {app: db}}\n"
		"spec: {nodeName: node-%s, containers: [{name: c, resources: {requests: {cpu: \"1\"}}}]}\n---\n",
		zone, zone, zone, zone, cpu, zone);
}

#define NS_TERM(kind, key, nssel)                                                                  \
	"  affinity: {" kind ": {requiredDuringSchedulingIgnoredDuringExecution: [{topologyKey: " key \
	", labelSelector: {matchLabels: {app: db}}, namespaceSelector: " nssel "}]}}\n"

START_TEST(anti_affinity_namespace_selector)
{
	/* upstream buildNamespaceList: the selector picks team-a by its labels,
	 * so db (in team-a) keeps the pending pods off its zone and its node */
	char *y = malloc(1 << 16);
	size_t len = (size_t)snprintf(y, 1 << 16, "%s", NODEPOOL);
	len = namespaced_db(y, len, "a", "8");
	pods(y, &len, 1 << 16, "web", 2, "app: web", "1",
	     NS_TERM("podAntiAffinity", "topology.kubernetes.io/zone", "{matchLabels: {team: a}}"));
	pods(y, &len, 1 << 16, "host", 1, "app: host", "1",
	     NS_TERM("podAntiAffinity", "kubernetes.io/hostname",
		     "{matchExpressions: [{key: team, operator: In, values: [a]}]}"));
	h_load(&sc, y, NULL);
	free(y);
	ck_assert_uint_eq(sc.n_namespaces, 2);
	h_run(&sc, NULL);
	ck_assert_uint_eq(kp_sched_result_pod_count(sc.result), 3);
	ck_assert_uint_eq(h_count(&sc, KP_SCHED_NEW_NODECLAIM), 3);
	ck_assert_str_eq(zone_counts(&sc, "web"), "a=0 b=2 c=0");
	const kp_sched_placement *h = h_pod(&sc, "host-0");
	ck_assert_uint_eq(h->target, KP_SCHED_NEW_NODECLAIM);
	ck_assert_str_ne(h->node, "node-a");
}
END_TEST

START_TEST(anti_affinity_namespace_selector_no_match)
{
	/* the selector picks team-b, where no db pod runs: no constraint, the
	 * pods go to node-a; a namespace that is not given as an object has
	 * no labels, so a selector does not pick the pod's own "default" */
	char *y = malloc(1 << 16);
	size_t len = (size_t)snprintf(y, 1 << 16, "%s", NODEPOOL);
	len = namespaced_db(y, len, "a", "8");
	len += (size_t)snprintf(y + len, (1 << 16) - len,
		"apiVersion: v1\nkind: Pod\nmetadata: {name: db2, uid: db2, labels: {app: db}}\n"
		"spec: {nodeName: node-a, containers: [{name: c, resources: {requests: {cpu: \"1\"}}}]}\n---\n");
	pods(y, &len, 1 << 16, "web", 2, "app: web", "1",
	     NS_TERM("podAntiAffinity", "topology.kubernetes.io/zone", "{matchLabels: {team: b}}"));
	pods(y, &len, 1 << 16, "host", 1, "app: host", "1",
	     NS_TERM("podAntiAffinity", "kubernetes.io/hostname",
		     "{matchExpressions: [{key: team, operator: DoesNotExist}]}"));
	h_load(&sc, y, NULL);
	free(y);
	h_run(&sc, NULL);
	ck_assert_uint_eq(kp_sched_result_pod_count(sc.result), 3);
	ck_assert_uint_eq(h_count(&sc, KP_SCHED_NEW_NODECLAIM), 0);
	ck_assert_str_eq(h_pod(&sc, "web-0")->node, "node-a");
	ck_assert_str_eq(h_pod(&sc, "web-1")->node, "node-a");
	ck_assert_str_eq(h_pod(&sc, "host-0")->node, "node-a");
}
END_TEST

START_TEST(pod_affinity_namespace_selector)
{
	/* node-b is full; web follows db (team-a, picked by its labels) into
	 * zone b; the empty selector picks every namespace; a selector that
	 * picks only team-b finds nothing to follow */
	char *y = malloc(1 << 16);
	size_t len = (size_t)snprintf(y, 1 << 16, "%s", NODEPOOL);
	len = namespaced_db(y, len, "b", "1");
	pods(y, &len, 1 << 16, "web", 2, "app: web", "1",
	     NS_TERM("podAffinity", "topology.kubernetes.io/zone", "{matchLabels: {team: a}}"));
	pods(y, &len, 1 << 16, "any", 1, "app: any", "1",
	     NS_TERM("podAffinity", "topology.kubernetes.io/zone", "{}"));
	pods(y, &len, 1 << 16, "lonely", 1, "app: lonely", "1",
	     NS_TERM("podAffinity", "topology.kubernetes.io/zone", "{matchLabels: {team: b}}"));
	h_load(&sc, y, NULL);
	free(y);
	h_run(&sc, NULL);
	ck_assert_str_eq(zone_counts(&sc, "web"), "a=0 b=2 c=0");
	ck_assert_str_eq(zone_counts(&sc, "any"), "a=0 b=1 c=0");
	const kp_sched_placement *l = h_pod(&sc, "lonely-0");
	ck_assert_uint_eq(l->target, KP_SCHED_UNPLACED);
	ck_assert_ptr_nonnull(h_reason(l, KP_REASON_POD_AFFINITY, "default", NULL));
}
END_TEST

static Suite *topology_suite(void)
{
	Suite *s = suite_create("scheduler-topology");
	TCase *tc = tcase_create("topology");
	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_add_test(tc, zonal_spread);
	tcase_add_test(tc, zonal_spread_counts_existing_pods);
	tcase_add_test(tc, hostname_spread);
	tcase_add_test(tc, min_domains);
	tcase_add_test(tc, zonal_anti_affinity);
	tcase_add_test(tc, hostname_anti_affinity);
	tcase_add_test(tc, pod_affinity_to_running_pod);
	tcase_add_test(tc, self_affinity_bootstraps);
	tcase_add_test(tc, anti_affinity_of_running_pods);
	tcase_add_test(tc, schedule_anyway_relaxed);
	tcase_add_test(tc, preferred_anti_affinity_relaxed);
	tcase_add_test(tc, match_label_keys);
	tcase_add_test(tc, spread_node_affinity_policy);
	tcase_add_test(tc, topology_deterministic_and_consolidation);
	tcase_add_test(tc, removed_node_pods_do_not_count);
	tcase_add_test(tc, anti_affinity_namespace_selector);
	tcase_add_test(tc, anti_affinity_namespace_selector_no_match);
	tcase_add_test(tc, pod_affinity_namespace_selector);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	Suite *suites[] = { topology_suite() };
	return kp_test_run(suites, (int)(sizeof(suites) / sizeof(suites[0])));
}
