/*
 * disrupt-bench: disruption benchmarks (issue 12), scenarios C1-C4.
 *
 *   build-bench/bench/disrupt-bench [--scenario C1|C2|C3|C4]... [--write-c1 FILE]
 *
 * Each scenario generates a cluster as manifests (deterministic, seeded
 * splitmix64 from gen.c), decodes it with the library's codec and applies
 * the CRD defaults (untimed), then times, single-threaded on
 * CLOCK_MONOTONIC:
 *   C1  1,000 initialized nodes (KWOK types, 10-30 bound pods each, 20% of
 *       the nodes under 30% CPU utilisation): one full disruption pass
 *       (kp_disruption_run, every node explained), commands found;
 *   C2  single-node consolidation at 1,000 nodes: the per-candidate cost, the
 *       median over every node of kp_sched_simulate with that node removed
 *       on one snapshot (what SingleNodeConsolidation pays per candidate);
 *   C3  every node of a 5,000-node cluster evaluated as a single-node
 *       candidate: the total of C2's per-candidate simulation over all nodes;
 *   C4  multi-node consolidation over 100 candidates at 1,000 nodes: one pass
 *       with KP_DISRUPTION_F_NO_EXPLAIN on a cluster with no empty or
 *       drifted node (MultiNodeConsolidation runs first), nodes removed.
 * --write-c1 FILE writes C1's manifests (for the end-to-end comparison of
 * `kubectl-karpenter disrupt -o json` with `simulate -o json`).
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#define _DEFAULT_SOURCE
#define _POSIX_C_SOURCE 200809L

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <karpenter/karpenter.h>
#include <karpenter/disruption.h>
#include <karpenter/kwok.h>

#include "gen.h"

#define SEED 42

static double cpu_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

typedef struct text {
	char *s;
	size_t len, cap;
} text;

static void put(text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(text *t, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (t->len + (size_t)n + 1 > t->cap) {
		t->cap = (t->len + (size_t)n + 1) * 2;
		t->s = realloc(t->s, t->cap);
		if (!t->s) {
			fputs("out of memory\n", stderr);
			exit(1);
		}
	}
	va_start(ap, fmt);
	vsnprintf(t->s + t->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	t->len += (size_t)n;
}

static const struct { const char *name; int cpu; } types[] = {
	{ "c-4x-amd64-linux", 4 }, { "c-8x-amd64-linux", 8 }, { "m-4x-amd64-linux", 4 },
	{ "m-8x-amd64-linux", 8 }, { "c-16x-amd64-linux", 16 },
};

/* The cluster: one NodePool, n nodes of KWOK types with 10-30 pods each;
 * a fraction `under` of the nodes below 30% CPU, the others 50-90%. */
static void generate(text *t, size_t n, double under, int with_empty)
{
	bench_rng r = { SEED };
	put(t, "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: default}\nspec:\n"
	       "  template:\n    spec:\n"
	       "      nodeClassRef: {group: karpenter.kwok.sh, kind: KWOKNodeClass, name: default}\n"
	       "      requirements:\n"
	       "        - {key: karpenter.sh/capacity-type, operator: In, values: [on-demand]}\n"
	       "        - {key: kubernetes.io/os, operator: In, values: [linux]}\n"
	       "  disruption: {consolidationPolicy: WhenEmptyOrUnderutilized, consolidateAfter: 0s,\n"
	       "               budgets: [{nodes: \"10%%\"}]}\n");
	const char *zones[] = { "test-zone-a", "test-zone-b", "test-zone-c", "test-zone-d" };
	for (size_t i = 0; i < n; i++) {
		size_t k = bench_rng_below(&r, sizeof(types) / sizeof(types[0]));
		const char *it = types[k].name, *z = zones[i % 4];
		int cpu = types[k].cpu;
		char name[32];
		snprintf(name, sizeof(name), "node-%05zu", i);
		put(t, "---\napiVersion: v1\nkind: Node\nmetadata:\n  name: %s\n  labels:\n"
		       "    karpenter.sh/nodepool: default\n    karpenter.sh/capacity-type: on-demand\n"
		       "    karpenter.sh/registered: \"true\"\n    karpenter.sh/initialized: \"true\"\n"
		       "    node.kubernetes.io/instance-type: %s\n    topology.kubernetes.io/zone: %s\n"
		       "    kubernetes.io/arch: amd64\n    kubernetes.io/os: linux\n    kubernetes.io/hostname: %s\n"
		       "spec: {providerID: \"kwok://%s\"}\n"
		       "status:\n  capacity: {cpu: \"%d\", memory: %dGi, pods: \"110\"}\n"
		       "  allocatable: {cpu: %dm, memory: %dGi, pods: \"110\"}\n"
		       "  conditions: [{type: Ready, status: \"True\", lastTransitionTime: \"2025-01-01T00:00:00Z\"}]\n",
		    name, it, z, name, name, cpu, cpu * 2, cpu * 1000 - 100, cpu * 2 - 1);
		put(t, "---\napiVersion: karpenter.sh/v1\nkind: NodeClaim\nmetadata:\n  name: %s\n"
		       "  creationTimestamp: \"2025-01-01T00:00:00Z\"\n  labels:\n"
		       "    karpenter.sh/nodepool: default\n    karpenter.sh/capacity-type: on-demand\n"
		       "    node.kubernetes.io/instance-type: %s\n    topology.kubernetes.io/zone: %s\n"
		       "    kubernetes.io/arch: amd64\n    kubernetes.io/os: linux\n"
		       "spec:\n  nodeClassRef: {group: karpenter.kwok.sh, kind: KWOKNodeClass, name: default}\n"
		       "  requirements: [{key: node.kubernetes.io/instance-type, operator: In, values: [%s]}]\n"
		       "status:\n  providerID: \"kwok://%s\"\n  nodeName: %s\n  conditions:\n"
		       "    - {type: Launched, status: \"True\", reason: Launched, message: \"\", lastTransitionTime: \"2025-01-01T00:00:00Z\"}\n"
		       "    - {type: Initialized, status: \"True\", reason: Initialized, message: \"\", lastTransitionTime: \"2025-01-01T00:00:00Z\"}\n",
		    name, it, z, it, name, name);
		int is_under = (double)bench_rng_below(&r, 1000) < under * 1000;
		size_t pods = with_empty && i % 97 == 0 ? 0 : 10 + bench_rng_below(&r, 21);
		double util = is_under ? 0.05 + 0.25 * (double)bench_rng_below(&r, 1000) / 1000
				       : 0.5 + 0.4 * (double)bench_rng_below(&r, 1000) / 1000;
		int64_t per = pods ? (int64_t)(util * (cpu * 1000 - 100) / (double)pods) : 0;
		if (per < 1)
			per = 1;
		for (size_t p = 0; p < pods; p++)
			put(t, "---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: p-%05zu-%02zu\n  namespace: app\n"
			       "  labels: {app: a%zu}\n"
			       "  ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: rs, uid: u, controller: true}]\n"
			       "spec:\n  nodeName: %s\n  containers: [{name: c, image: i, resources: {requests: {cpu: %lldm, memory: 64Mi}}}]\n"
			       "status: {phase: Running}\n",
			    i, p, p % 7, name, (long long)per);
	}
}

typedef struct cluster {
	kp_decode_result *dec;
	kp_instance_types *its;
	kp_wellknown *wk;
	kp_cluster_builder *b; /* the library's builder, as kubectl-karpenter reads files */
	kp_cluster_spec spec;
} cluster;

static int load(cluster *c, const text *t, int64_t now_ms)
{
	kp_error e = KP_ERROR_INIT;
	memset(c, 0, sizeof(*c));
	if (kp_kwok_catalog_builtin(&c->its, &e) || kp_wellknown_new(&c->wk, &e) ||
	    kp_kwok_wellknown_add(c->wk, c->its, &e)) {
		fprintf(stderr, "catalogue: %s\n", e.message);
		return -1;
	}
	kp_decode_options o = KP_DECODE_OPTIONS_INIT;
	o.max_bytes = t->len + 1;
	o.max_nodes = t->len; /* a node per byte at most */
	if (kp_decode(&c->dec, t->s, t->len, &o, &e)) {
		fprintf(stderr, "decode: %s\n", e.message);
		return -1;
	}
	if (kp_cluster_builder_new(&c->b, &e) ||
	    kp_cluster_builder_set_instance_types(c->b, NULL, c->its, &e) ||
	    kp_cluster_builder_add_decoded(c->b, c->dec, "generated", 0, &e) ||
	    kp_cluster_builder_problem_count(c->b) ||
	    (kp_cluster_builder_set_wellknown(c->b, c->wk),
	     kp_cluster_builder_set_now(c->b, now_ms),
	     kp_cluster_builder_spec(&c->spec, c->b, &e))) {
		fprintf(stderr, "build: %s\n", e.message);
		return -1;
	}
	return 0;
}

static void unload(cluster *c)
{
	kp_cluster_builder_free(c->b);
	kp_decode_result_free(c->dec);
	kp_wellknown_free(c->wk);
	kp_instance_types_free(c->its);
}

#define NOW_MS 1735776000000LL /* 2025-01-02T00:00:00Z */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static int run_pass(const char *label, size_t n, double under, int with_empty, uint32_t flags)
{
	text t = { 0 };
	generate(&t, n, under, with_empty);
	cluster c;
	if (load(&c, &t, NOW_MS))
		return 1;
	kp_disruption_options o = KP_DISRUPTION_OPTIONS_INIT;
	o.flags = flags;
	kp_disruption_result *r = NULL;
	kp_error e = KP_ERROR_INIT;
	double t0 = now_s();
	int rc = kp_disruption_run(&r, &c.spec, &o, &e);
	double dt = now_s() - t0;
	if (rc) {
		fprintf(stderr, "%s: %s\n", label, e.message);
		return 1;
	}
	size_t nc = kp_disruption_result_command_count(r);
	const kp_disruption_command *cmd = nc ? kp_disruption_result_command_at(r, 0) : NULL;
	printf("| %s | %zu | %zu | %.3f | %zu | %s | %s | %zu | %.4f |\n", label, c.spec.n_nodes, c.spec.n_pods, dt,
	       nc, cmd ? kp_disruption_method_name(cmd->method) : "-",
	       cmd ? kp_disruption_decision_name(cmd->decision) : "-", cmd ? cmd->n_candidates : 0,
	       cmd ? cmd->savings : 0.0);
	kp_disruption_result_free(r);
	unload(&c);
	free(t.s);
	return 0;
}

/* C2/C3: kp_sched_simulate with each node removed, on one snapshot. */
static int per_candidate(const char *label, size_t n, size_t sample)
{
	text t = { 0 };
	generate(&t, n, 0.2, 0);
	cluster c;
	if (load(&c, &t, NOW_MS))
		return 1;
	kp_cluster *snap = NULL;
	kp_error e = KP_ERROR_INIT;
	double t0 = now_s();
	if (kp_cluster_new(&snap, &c.spec, &e)) {
		fprintf(stderr, "%s: %s\n", label, e.message);
		return 1;
	}
	double setup = now_s() - t0;
	size_t m = sample && sample < c.spec.n_nodes ? sample : c.spec.n_nodes;
	double *times = calloc(m, sizeof(*times)), *cpu = calloc(m, sizeof(*cpu));
	double total = 0, total_cpu = 0;
	size_t fits = 0;
	for (size_t i = 0; i < m; i++) {
		const kp_node *node = c.spec.nodes[i * (c.spec.n_nodes / m)];
		const char *removed[1] = { node->metadata->name };
		kp_sched_options so = KP_SCHED_OPTIONS_INIT;
		so.removed_nodes = removed;
		so.n_removed_nodes = 1;
		kp_sched_result *res = NULL;
		double s0 = now_s(), c0 = cpu_s();
		if (kp_sched_simulate(&res, snap, &so, &e)) {
			fprintf(stderr, "%s: %s\n", label, e.message);
			return 1;
		}
		cpu[i] = cpu_s() - c0;
		times[i] = now_s() - s0;
		total += times[i];
		total_cpu += cpu[i];
		fits += kp_sched_result_nodeclaim_count(res) == 0;
		kp_sched_result_free(res);
	}
	qsort(times, m, sizeof(*times), cmp_double);
	qsort(cpu, m, sizeof(*cpu), cmp_double);
	printf("| %s | %zu | %zu | %.4f | %zu | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %zu |\n", label,
	       c.spec.n_nodes, c.spec.n_pods, setup, m, times[m / 2] * 1e3, times[0] * 1e3, times[m - 1] * 1e3,
	       total, cpu[m / 2] * 1e3, total_cpu, fits);
	free(times);
	free(cpu);
	kp_cluster_free(snap);
	unload(&c);
	free(t.s);
	return 0;
}

/* C1's manifests as DIR/c1-NN.yaml, 100 nodes a file (the CLI decodes
 * at most KP_DECODE_DEFAULT_MAX_NODES YAML nodes a file). */
static int write_c1(const char *dir)
{
	text t = { 0 };
	generate(&t, 1000, 0.2, 1);
	static const char mark[] = "---\napiVersion: v1\nkind: Node\n";
	const char *start = t.s, *p = t.s;
	size_t nodes = 0, file = 0;
	for (;;) {
		const char *next = strstr(p, mark);
		if (next && (nodes++ % 100 != 0 || next == t.s)) {
			p = next + 1;
			continue;
		}
		const char *end = next ? next : t.s + t.len;
		char path[4096];
		snprintf(path, sizeof(path), "%s/c1-%02zu.yaml", dir, file++);
		FILE *f = fopen(path, "w");
		if (!f || fwrite(start, 1, (size_t)(end - start), f) != (size_t)(end - start) || fclose(f)) {
			perror(path);
			return 1;
		}
		if (!next)
			break;
		start = next;
		p = next + 1;
	}
	free(t.s);
	return 0;
}

int main(int argc, char **argv)
{
	int want[5] = { 0 }, any = 0;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--scenario") && i + 1 < argc) {
			const char *s = argv[++i];
			if (s[0] == 'C' && s[1] >= '1' && s[1] <= '4' && !s[2]) {
				want[s[1] - '0'] = any = 1;
				continue;
			}
			fprintf(stderr, "disrupt-bench: unknown scenario \"%s\"\n", s);
			return 2;
		}
		if (!strcmp(argv[i], "--write-c1") && i + 1 < argc) {
			if (write_c1(argv[++i]))
				return 1;
			return 0;
		}
		fprintf(stderr, "usage: disrupt-bench [--scenario C1|C2|C3|C4]... [--write-c1 FILE]\n");
		return 2;
	}
	if (!any)
		want[1] = want[2] = want[3] = want[4] = 1;
	int rc = 0;
	if (want[1] || want[4]) {
		puts("| scenario | nodes | pods | pass s | commands | method | decision | candidates | savings $/h |");
		puts("|---|--:|--:|--:|--:|---|---|--:|--:|");
	}
	if (want[1])
		rc |= run_pass("C1", 1000, 0.2, 1, 0);
	if (want[4])
		rc |= run_pass("C4", 1000, 0.2, 0, KP_DISRUPTION_F_NO_EXPLAIN);
	if (want[2] || want[3]) {
		puts("\n| scenario | nodes | pods | setup s | candidates | median ms | min ms | max ms | total s | median CPU ms | total CPU s | delete |");
		puts("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|");
	}
	if (want[2])
		rc |= per_candidate("C2", 1000, 0);
	if (want[3])
		rc |= per_candidate("C3", 5000, 0);
	return rc;
}
