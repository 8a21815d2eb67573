/* SPDX-License-Identifier: Apache-2.0 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched_gen.h"

uint64_t g_rng_next(g_rng *r)
{
	uint64_t z = (r->state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

size_t g_rng_below(g_rng *r, size_t n)
{
	return n ? (size_t)(g_rng_next(r) % n) : 0;
}

static void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n);
	if (!q) {
		fprintf(stderr, "sched_gen: out of memory\n");
		abort();
	}
	return q;
}

static char *vfmt(const char *fmt, va_list ap)
{
	va_list ap2;
	va_copy(ap2, ap);
	int n = vsnprintf(NULL, 0, fmt, ap2);
	va_end(ap2);
	char *s = xrealloc(NULL, (size_t)n + 1);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	return s;
}

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void add_doc(g_cluster *gc, const char *fmt, ...)
{
	if (gc->n_docs == gc->cap_docs) {
		gc->cap_docs = gc->cap_docs ? gc->cap_docs * 2 : 32;
		gc->docs = xrealloc(gc->docs, gc->cap_docs * sizeof(*gc->docs));
	}
	va_list ap;
	va_start(ap, fmt);
	gc->docs[gc->n_docs++] = vfmt(fmt, ap);
	va_end(ap);
}

static void add_taken(g_cluster *gc, const char *name)
{
	if (gc->n_taken == gc->cap_taken) {
		gc->cap_taken = gc->cap_taken ? gc->cap_taken * 2 : 16;
		gc->taken = xrealloc(gc->taken, gc->cap_taken * sizeof(*gc->taken));
	}
	size_t n = strlen(name) + 1;
	gc->taken[gc->n_taken] = xrealloc(NULL, n);
	memcpy(gc->taken[gc->n_taken++], name, n);
}

static const char *const zones[] = { "test-zone-a", "test-zone-b", "test-zone-c" };
static const char *const apps[] = { "web", "db", "cache" };
static const char *const cpus[] = { "100m", "500m", "1", "1", "2", "3" };
static const char *const mems[] = { "128Mi", "512Mi", "1Gi", "1Gi", "2Gi" };
static const char *const namespaces[] = { "default", "shop" };

#define NODECLASS "nodeClassRef: {group: karpenter.kwok.sh, kind: KWOKNodeClass, name: default}"

/* A pod's affinity block (or ""), into buf. */
static void pod_constraints(g_rng *r, const char *app, char *buf, size_t size)
{
	size_t len = 0;
	buf[0] = '\0';
	size_t kind = g_rng_below(r, 8);
	const char *key = g_rng_below(r, 2) ? "kubernetes.io/hostname" : "topology.kubernetes.io/zone";
	const char *other = apps[g_rng_below(r, 3)];
	if (kind == 0 || kind == 1)
		len += (size_t)snprintf(buf + len, size - len,
					"  affinity:\n    podAntiAffinity:\n"
					"      requiredDuringSchedulingIgnoredDuringExecution:\n"
					"      - labelSelector: {matchLabels: {app: %s}}\n"
					"        topologyKey: %s\n",
					kind == 0 ? app : other, key);
	else if (kind == 2)
		len += (size_t)snprintf(buf + len, size - len,
					"  affinity:\n    podAffinity:\n"
					"      requiredDuringSchedulingIgnoredDuringExecution:\n"
					"      - labelSelector: {matchLabels: {app: %s}}\n"
					"        topologyKey: topology.kubernetes.io/zone\n",
					app);
	else if (kind == 3)
		len += (size_t)snprintf(buf + len, size - len,
					"  affinity:\n    podAntiAffinity:\n"
					"      preferredDuringSchedulingIgnoredDuringExecution:\n"
					"      - weight: 10\n        podAffinityTerm:\n"
					"          labelSelector: {matchLabels: {app: %s}}\n"
					"          topologyKey: kubernetes.io/hostname\n",
					app);
	if (kind == 4 || kind == 5 || (kind == 0 && g_rng_below(r, 2)))
		len += (size_t)snprintf(buf + len, size - len,
					"  topologySpreadConstraints:\n"
					"  - {maxSkew: %d, topologyKey: %s, whenUnsatisfiable: %s, "
					"labelSelector: {matchLabels: {app: %s}}}\n",
					1 + (int)g_rng_below(r, 2),
					g_rng_below(r, 3) ? "topology.kubernetes.io/zone" : "kubernetes.io/hostname",
					g_rng_below(r, 4) ? "DoNotSchedule" : "ScheduleAnyway", app);
	if (g_rng_below(r, 4) == 0)
		len += (size_t)snprintf(buf + len, size - len,
					"  tolerations: [{key: dedicated, operator: Exists}]\n");
	if (g_rng_below(r, 6) == 0)
		snprintf(buf + len, size - len, "  nodeSelector: {topology.kubernetes.io/zone: %s}\n",
			 zones[g_rng_below(r, 3)]);
}

void g_cluster_make(g_cluster *gc, uint64_t seed)
{
	memset(gc, 0, sizeof(*gc));
	g_rng r = { seed * 0x2545f4914f6cdd1dull + 1 };
	char extra[2048];
	/* NodePools */
	size_t n_pools = 1 + g_rng_below(&r, 3);
	for (size_t i = 0; i < n_pools; i++) {
		size_t len = 0;
		extra[0] = '\0';
		if (g_rng_below(&r, 3) == 0)
			len += (size_t)snprintf(extra + len, sizeof(extra) - len,
						"      taints: [{key: dedicated, value: p%zu, effect: NoSchedule}]\n", i);
		if (g_rng_below(&r, 3) == 0)
			len += (size_t)snprintf(extra + len, sizeof(extra) - len,
						"      requirements: [{key: topology.kubernetes.io/zone, operator: In, "
						"values: [%s, %s]}]\n", zones[i % 3], zones[(i + 1) % 3]);
		else if (g_rng_below(&r, 3) == 0)
			len += (size_t)snprintf(extra + len, sizeof(extra) - len,
						"      requirements: [{key: karpenter.sh/capacity-type, operator: In, "
						"values: [on-demand]}]\n");
		else
			len += (size_t)snprintf(extra + len, sizeof(extra) - len, "      requirements: []\n");
		add_doc(gc,
			"apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: pool-%zu, uid: pool-%zu}\n"
			"spec:\n  weight: %d\n  template:\n    spec:\n      " NODECLASS "\n%s%s",
			i, i, g_rng_below(&r, 3) ? 10 : 20, extra,
			g_rng_below(&r, 5) == 0 ? "  limits: {cpu: \"24\"}\n" : "");
	}
	/* existing nodes: unmanaged, or managed with their NodeClaim */
	size_t n_nodes = g_rng_below(&r, 4);
	char name[64];
	for (size_t i = 0; i < n_nodes; i++) {
		const char *zone = zones[g_rng_below(&r, 3)];
		int cpu = 2 + 2 * (int)g_rng_below(&r, 3);
		int managed = (int)g_rng_below(&r, 2);
		size_t pool = g_rng_below(&r, n_pools);
		snprintf(name, sizeof(name), "node-%zu", i);
		add_taken(gc, name);
		if (!managed) {
			add_doc(gc,
				"apiVersion: v1\nkind: Node\nmetadata:\n  name: %s\n  uid: n%zu\n"
				"  labels: {kubernetes.io/hostname: %s, topology.kubernetes.io/zone: %s, "
				"kubernetes.io/arch: amd64, kubernetes.io/os: linux}\n"
				"spec: {providerID: \"kwok://%s\"}\nstatus:\n  capacity: {cpu: \"%d\", "
				"memory: 16Gi, pods: \"30\"}\n  allocatable: {cpu: \"%d\", memory: 16Gi, "
				"pods: \"30\"}\n",
				name, i, name, zone, name, cpu, cpu);
			continue;
		}
		add_doc(gc,
			"apiVersion: v1\nkind: Node\nmetadata:\n  name: %s\n  uid: n%zu\n"
			"  labels: {kubernetes.io/hostname: %s, topology.kubernetes.io/zone: %s, "
			"kubernetes.io/arch: amd64, kubernetes.io/os: linux, karpenter.sh/nodepool: pool-%zu, "
			"karpenter.sh/registered: \"true\", karpenter.sh/initialized: \"true\", "
			"karpenter.sh/capacity-type: on-demand, node.kubernetes.io/instance-type: medium}\n"
			"spec: {providerID: \"kwok://%s\"}\nstatus:\n  capacity: {cpu: \"%d\", "
			"memory: 16Gi, pods: \"30\"}\n  allocatable: {cpu: \"%d\", memory: 16Gi, pods: \"30\"}\n",
			name, i, name, zone, pool, name, cpu, cpu);
		char ncname[64];
		snprintf(ncname, sizeof(ncname), "pool-%zu-m%zu", pool, i);
		add_taken(gc, ncname);
		add_doc(gc,
			"apiVersion: karpenter.sh/v1\nkind: NodeClaim\nmetadata:\n  name: %s\n  uid: c%zu\n"
			"  labels: {karpenter.sh/nodepool: pool-%zu}\nspec:\n  " NODECLASS "\n"
			"  requirements: []\nstatus:\n  providerID: \"kwok://%s\"\n  capacity: {cpu: \"%d\", "
			"memory: 16Gi, pods: \"30\"}\n  allocatable: {cpu: \"%d\", memory: 16Gi, pods: \"30\"}\n",
			ncname, i, pool, name, cpu, cpu);
	}
	/* in-flight NodeClaims: some with the names new ones would get */
	size_t n_inflight = g_rng_below(&r, 3);
	for (size_t i = 0; i < n_inflight; i++) {
		size_t pool = g_rng_below(&r, n_pools);
		if (g_rng_below(&r, 2))
			snprintf(name, sizeof(name), "pool-%zu-%05zu", pool, 1 + g_rng_below(&r, 4));
		else
			snprintf(name, sizeof(name), "pool-%zu-f%zu", pool, i);
		int dup = 0;
		for (size_t k = 0; k < gc->n_taken; k++)
			dup |= !strcmp(gc->taken[k], name);
		if (dup)
			continue;
		add_taken(gc, name);
		add_doc(gc,
			"apiVersion: karpenter.sh/v1\nkind: NodeClaim\nmetadata:\n  name: %s\n  uid: f%zu\n"
			"  labels: {karpenter.sh/nodepool: pool-%zu, node.kubernetes.io/instance-type: medium, "
			"karpenter.sh/capacity-type: on-demand, topology.kubernetes.io/zone: %s}\nspec:\n  "
			NODECLASS "\n  requirements: []\nstatus: {providerID: \"kwok://%s\", capacity: {cpu: "
			"\"4\", memory: 8Gi, pods: \"20\"}, allocatable: {cpu: \"4\", memory: 8Gi, pods: "
			"\"20\"}}\n",
			name, i, pool, zones[g_rng_below(&r, 3)], name);
	}
	/* running pods on the nodes, sharing anti-affinity groups */
	size_t n_running = n_nodes ? g_rng_below(&r, 6) : 0;
	for (size_t i = 0; i < n_running; i++) {
		const char *app = apps[g_rng_below(&r, 3)];
		extra[0] = '\0';
		if (g_rng_below(&r, 2))
			snprintf(extra, sizeof(extra),
				 "  affinity:\n    podAntiAffinity:\n"
				 "      requiredDuringSchedulingIgnoredDuringExecution:\n"
				 "      - labelSelector: {matchLabels: {app: %s}}\n        topologyKey: %s\n",
				 g_rng_below(&r, 2) ? app : "web",
				 g_rng_below(&r, 2) ? "topology.kubernetes.io/zone" : "kubernetes.io/hostname");
		add_doc(gc,
			"apiVersion: v1\nkind: Pod\nmetadata:\n  name: run-%zu\n  namespace: %s\n  uid: r%zu\n"
			"  labels: {app: %s}\n  creationTimestamp: \"2024-01-01T00:00:00Z\"\nspec:\n"
			"  nodeName: node-%zu\n  containers: [{name: c, resources: {requests: {cpu: %s, "
			"memory: %s}}}]\n%sstatus: {phase: Running}\n",
			i, namespaces[g_rng_below(&r, 2)], i, app, g_rng_below(&r, n_nodes), "100m", "128Mi",
			extra);
	}
	/* pending pods: few distinct requests, one creation time (equal queue keys) */
	size_t n_pending = 1 + g_rng_below(&r, 14);
	for (size_t i = 0; i < n_pending; i++) {
		const char *app = apps[g_rng_below(&r, 3)];
		pod_constraints(&r, app, extra, sizeof(extra));
		add_doc(gc,
			"apiVersion: v1\nkind: Pod\nmetadata:\n  name: pod-%zu\n  namespace: %s\n  uid: u%zu\n"
			"  labels: {app: %s}\n  creationTimestamp: \"2024-01-01T00:00:00Z\"\nspec:\n"
			"  containers: [{name: c, resources: {requests: {cpu: \"%s\", memory: %s}}}]\n%s",
			i, namespaces[g_rng_below(&r, 2)], i, app, cpus[g_rng_below(&r, 6)],
			mems[g_rng_below(&r, 5)], extra);
	}
}

void g_cluster_shuffle(g_cluster *gc, g_rng *rng)
{
	for (size_t i = gc->n_docs; i > 1; i--) {
		size_t j = g_rng_below(rng, i);
		char *t = gc->docs[i - 1];
		gc->docs[i - 1] = gc->docs[j];
		gc->docs[j] = t;
	}
}

char *g_cluster_yaml(const g_cluster *gc)
{
	size_t n = 1;
	for (size_t i = 0; i < gc->n_docs; i++)
		n += strlen(gc->docs[i]) + 5;
	char *s = xrealloc(NULL, n);
	size_t len = 0;
	for (size_t i = 0; i < gc->n_docs; i++)
		len += (size_t)snprintf(s + len, n - len, "%s---\n", gc->docs[i]);
	s[len] = '\0';
	return s;
}

void g_cluster_free(g_cluster *gc)
{
	for (size_t i = 0; i < gc->n_docs; i++)
		free(gc->docs[i]);
	free(gc->docs);
	for (size_t i = 0; i < gc->n_taken; i++)
		free(gc->taken[i]);
	free(gc->taken);
	memset(gc, 0, sizeof(*gc));
}
