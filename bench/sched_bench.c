/*
 * sched-bench: scheduling-simulation benchmarks (issue 6).
 *
 *   build-bench/bench/sched-bench [--scenario NAME]... [--repeat N]
 *                                 [--budget SECONDS] [--no-fork] [--list]
 *
 * Each scenario builds its inputs (untimed), then R times: kp_cluster_new
 * (setup) and kp_sched_simulate (solve) on the new snapshot, each timed on
 * CLOCK_MONOTONIC; the table reports the medians. Each scenario runs in its
 * own child process so that its peak RSS (getrusage ru_maxrss) is its own.
 * See bench/README.md for the scenarios, the lower bound and how to read
 * the table.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#define _DEFAULT_SOURCE
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <karpenter/karpenter.h>
#include <karpenter/scheduling.h>
#include <karpenter/kwok.h>

#include "gen.h"

#ifndef BENCH_BUILDTYPE
#define BENCH_BUILDTYPE "unknown"
#endif
#ifndef BENCH_COMPILER
#define BENCH_COMPILER "unknown"
#endif

#define BENCH_SEED 42
#define K1_LOWER_BOUND 74.073 /* configuration-LP bound, given by the issue */
#define K1_OPTIMUM 74.093     /* integer optimum, given by the issue */
#define MAX_SCENARIOS 64
#define MAX_RUNS 1000

enum kind {
	KIND_DIVERSE = 1,  /* P1-<n>: makeDiversePods over fake.InstanceTypes(400) */
	KIND_KWOK = 2,     /* K1 */
	KIND_NODES = 3,    /* S1-nodes: 1,000 existing nodes, 10,000 small pods */
	KIND_NODES_SPREAD = 4, /* the same with zone topology spread */
	KIND_DIVERSE_NOLIMIT = 5, /* S1-<n>: P1's inputs, NodePool without limits */
	KIND_RESERVED = 6  /* R1-<n>: P1's inputs, every type also reserved (10
	                      instances), reserved_offering_mode fallback */
};

#define R1_INSTANCES_LEFT 10

struct scenario {
	char name[32];
	int kind;
	size_t pods;
};

/* What a child reports to the parent (through a pipe). */
struct outcome {
	int ok;
	int deterministic;     /* every run gave the same cost and NodeClaim count */
	int runs;
	size_t pods, n_types, n_nodes, nodeclaims, unplaced;
	size_t violations;     /* constraint violations found in the first result */
	char violation[160];   /* the first one */
	char unplaced_why[400]; /* the first unplaced pod and its first reason */
	double cost, bound, bound_resources, bound_pods, bound_anti;
	int bound_given;
	double setup_s, solve_s, solve_min_s, solve_max_s, solve_cpu_ratio;
	long rss_in_kib, rss_peak_kib;
	char error[KP_ERROR_MESSAGE_MAX + KP_ERROR_FIELD_MAX + 128];
};

static double now_s(clockid_t clk)
{
	struct timespec ts;
	clock_gettime(clk, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static long maxrss_kib(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_maxrss; /* Linux: KiB */
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void set_error(struct outcome *o, const char *what, int rc, const kp_error *err)
{
	o->ok = 0;
	snprintf(o->error, sizeof(o->error), "%s: %s%s%s%s%s%s", what, kp_strerror(rc),
		 err && err->message[0] ? ": " : "", err ? err->message : "",
		 err && err->field[0] ? " (field " : "", err ? err->field : "",
		 err && err->field[0] ? ")" : "");
}

/* Target of a placement as an index: new NodeClaims first, then existing
 * nodes ("node-NNNNN"); SIZE_MAX when unplaced or unknown. */
static size_t target_index(const kp_sched_placement *p, size_t n_nc, size_t n_nodes)
{
	if (p->target == KP_SCHED_NEW_NODECLAIM)
		return p->nodeclaim_index < n_nc ? p->nodeclaim_index : SIZE_MAX;
	if (p->target == KP_SCHED_EXISTING_NODE && p->node && strncmp(p->node, "node-", 5) == 0) {
		size_t i = (size_t)strtoull(p->node + 5, NULL, 10);
		return i < n_nodes ? n_nc + i : SIZE_MAX;
	}
	return SIZE_MAX;
}

static const char *target_zone(const kp_sched_result *r, const bench_input *in, size_t t,
			       size_t n_nc)
{
	if (t < n_nc) {
		const kp_sched_nodeclaim *nc = kp_sched_result_nodeclaim_at(r, t);
		return nc ? nc->zone : NULL;
	}
	const kp_node *node = in->nodes[t - n_nc];
	return kp_labels_get(&node->metadata->labels, KP_LABEL_TOPOLOGY_ZONE);
}

static void violation(struct outcome *o, const char *pod, const char *what, const char *where)
{
	if (o->violations++ == 0)
		snprintf(o->violation, sizeof(o->violation), "%s: %s %s", pod, what,
			 where ? where : "(none)");
}

/*
 * Check the constraints that have a simple closed form on the final
 * placement: hostname anti-affinity (one such pod per node), zone
 * self-affinity (one zone per group) and, when every pod carries the same
 * zone spread (S1-nodes-spread), a final zone skew of at most 1.
 */
static void check_result(struct outcome *o, const kp_sched_result *r, const bench_input *in,
			 int zone_spread_all)
{
	size_t n_nc = kp_sched_result_nodeclaim_count(r), n = kp_sched_result_pod_count(r);
	size_t n_t = n_nc + in->n_nodes;
	unsigned char *anti = calloc(n_t ? n_t : 1, 1);
	const char *group_zone[8] = { NULL };
	size_t zone_count[3] = { 0, 0, 0 };
	if (!anti) {
		violation(o, "-", "out of memory while checking", "");
		return;
	}
	for (size_t i = 0; i < n; i++) {
		const kp_sched_placement *p = kp_sched_result_pod_at(r, i);
		if (p && p->target == KP_SCHED_UNPLACED && !o->unplaced_why[0]) {
			const kp_sched_reason *why = p->n_reasons ? p->reasons[0] : NULL;
			snprintf(o->unplaced_why, sizeof(o->unplaced_why), "%s: %s: %s (%zu reasons)",
				 p->name ? p->name : "?",
				 why ? kp_sched_reason_code_name(why->code) : "no reason",
				 why && why->message ? why->message : "", p->n_reasons);
		}
		if (!p || !p->name || strncmp(p->name, "pod-", 4) != 0)
			continue;
		size_t pi = (size_t)strtoull(p->name + 4, NULL, 10);
		size_t t = target_index(p, n_nc, in->n_nodes);
		if (pi >= in->n_pods || t == SIZE_MAX)
			continue;
		const bench_request *rq = &in->reqs[pi];
		if (rq->anti_hostname && anti[t]++)
			violation(o, p->name, "hostname anti-affinity: shares", p->node);
		const char *zone = target_zone(r, in, t, n_nc);
		if (rq->zone_affinity && rq->zone_affinity < 8) {
			const char **gz = &group_zone[rq->zone_affinity];
			if (!*gz)
				*gz = zone;
			else if (!zone || strcmp(*gz, zone) != 0)
				violation(o, p->name, "zone self-affinity: group split, also in",
					  zone);
		}
		if (zone_spread_all && zone && strncmp(zone, "test-zone-", 10) == 0 &&
		    zone[10] >= '1' && zone[10] <= '3' && !zone[11])
			zone_count[zone[10] - '1']++;
	}
	if (zone_spread_all) {
		size_t lo = zone_count[0], hi = zone_count[0];
		for (int z = 1; z < 3; z++) {
			lo = zone_count[z] < lo ? zone_count[z] : lo;
			hi = zone_count[z] > hi ? zone_count[z] : hi;
		}
		if (hi - lo > 1) {
			char buf[64];
			snprintf(buf, sizeof(buf), "%zu/%zu/%zu", zone_count[0], zone_count[1],
				 zone_count[2]);
			violation(o, "all pods", "zone spread skew > 1:", buf);
		}
	}
	free(anti);
}

static int build_input(bench_input *in, const struct scenario *sc, struct outcome *o)
{
	kp_error err = KP_ERROR_INIT;
	int rc;
	switch (sc->kind) {
	case KIND_DIVERSE:
	case KIND_DIVERSE_NOLIMIT:
		rc = bench_setup_fake(in, 400, sc->kind == KIND_DIVERSE, &err);
		if (rc == KP_OK)
			bench_pods_diverse(in, sc->pods, BENCH_SEED);
		break;
	case KIND_RESERVED:
		rc = bench_setup_fake_reserved(in, 400, 1, R1_INSTANCES_LEFT, &err);
		if (rc == KP_OK)
			bench_pods_diverse(in, sc->pods, BENCH_SEED);
		break;
	case KIND_KWOK:
		rc = bench_setup_kwok(in, &o->n_types, &err);
		if (rc == KP_OK) {
			bench_pods_uniform(in, 500, "small-resource-app", "900m", "3100Mi", 0);
			bench_pods_uniform(in, 500, "large-resource-app", "3500m", "28Gi", 0);
		}
		break;
	case KIND_NODES:
	case KIND_NODES_SPREAD:
		rc = bench_setup_fake(in, 400, 1, &err);
		if (rc == KP_OK) {
			bench_nodes_existing(in, 1000, "4", "32Gi", "110", 3);
			bench_pods_uniform(in, sc->pods, "s1", "100m", "500Mi",
					   sc->kind == KIND_NODES_SPREAD);
		}
		break;
	default:
		rc = KP_EINVAL;
	}
	if (rc != KP_OK)
		set_error(o, "building the inputs", rc, &err);
	return rc;
}

static void run_scenario(const struct scenario *sc, int repeat, double budget_s,
			 struct outcome *o)
{
	memset(o, 0, sizeof(*o));
	o->ok = 1;
	o->deterministic = 1;
	bench_input in;
	memset(&in, 0, sizeof(in));
	if (build_input(&in, sc, o) != KP_OK) {
		bench_input_free(&in);
		return;
	}
	o->pods = in.n_pods;
	o->n_nodes = in.n_nodes;

	bench_bound lb;
	kp_error err = KP_ERROR_INIT;
	bench_lower_bound(&lb, &in, &err);
	if (sc->kind != KIND_KWOK)
		o->n_types = lb.n_types;
	o->bound_resources = lb.resources;
	o->bound_pods = lb.pods;
	o->bound_anti = lb.anti;
	if (sc->kind == KIND_KWOK) {
		o->bound = K1_LOWER_BOUND;
		o->bound_given = 1;
	} else {
		o->bound = lb.value;
	}
	o->rss_in_kib = maxrss_kib();

	const kp_nodepool *nps[1] = { in.nodepool };
	kp_instance_types *its[1] = { in.its };
	kp_cluster_spec spec = KP_CLUSTER_SPEC_INIT;
	spec.nodepools = nps;
	spec.n_nodepools = 1;
	spec.instance_types = its;
	spec.nodes = (const kp_node *const *)in.nodes;
	spec.n_nodes = in.n_nodes;
	spec.pods = (const kp_pod *const *)in.pods;
	spec.n_pods = in.n_pods;
	spec.wellknown = in.wk;
	spec.now_ms = INT64_C(1767225600000); /* 2026-01-01T00:00:00Z */
	kp_sched_options opts = KP_SCHED_OPTIONS_INIT;
	if (sc->kind == KIND_RESERVED)
		opts.reserved_offering_mode = KP_RESERVED_OFFERING_FALLBACK;

	static double setup[MAX_RUNS], solve[MAX_RUNS];
	double cpu_total = 0, wall_total = 0, started = now_s(CLOCK_MONOTONIC);
	int runs = 0;
	while (runs < repeat && runs < MAX_RUNS) {
		kp_cluster *cluster = NULL;
		kp_sched_result *result = NULL;
		double t0 = now_s(CLOCK_MONOTONIC);
		int rc = kp_cluster_new(&cluster, &spec, &err);
		double t1 = now_s(CLOCK_MONOTONIC);
		if (rc != KP_OK) {
			set_error(o, "kp_cluster_new", rc, &err);
			break;
		}
		double c1 = now_s(CLOCK_PROCESS_CPUTIME_ID);
		double t2 = now_s(CLOCK_MONOTONIC);
		rc = kp_sched_simulate(&result, cluster, &opts, &err);
		double t3 = now_s(CLOCK_MONOTONIC);
		double c2 = now_s(CLOCK_PROCESS_CPUTIME_ID);
		if (rc != KP_OK) {
			set_error(o, "kp_sched_simulate", rc, &err);
			kp_cluster_free(cluster);
			break;
		}
		setup[runs] = t1 - t0;
		solve[runs] = t3 - t2;
		cpu_total += c2 - c1;
		wall_total += t3 - t2;

		size_t n = kp_sched_result_pod_count(result), unplaced = 0;
		for (size_t i = 0; i < n; i++) {
			const kp_sched_placement *p = kp_sched_result_pod_at(result, i);
			if (!p || p->target == KP_SCHED_UNPLACED)
				unplaced++;
		}
		size_t nc = kp_sched_result_nodeclaim_count(result);
		double cost = kp_sched_result_cost(result);
		if (runs == 0) {
			check_result(o, result, &in, sc->kind == KIND_NODES_SPREAD);
			o->nodeclaims = nc;
			o->unplaced = unplaced;
			o->cost = cost;
		} else if (nc != o->nodeclaims || unplaced != o->unplaced || cost != o->cost) {
			o->deterministic = 0;
		}
		kp_sched_result_free(result);
		kp_cluster_free(cluster);
		runs++;
		if (now_s(CLOCK_MONOTONIC) - started > budget_s)
			break;
	}
	o->runs = runs;
	if (runs > 0) {
		double lo = solve[0], hi = solve[0];
		for (int i = 1; i < runs; i++) {
			lo = solve[i] < lo ? solve[i] : lo;
			hi = solve[i] > hi ? solve[i] : hi;
		}
		o->solve_min_s = lo;
		o->solve_max_s = hi;
		o->setup_s = median(setup, runs);
		o->solve_s = median(solve, runs);
		o->solve_cpu_ratio = wall_total > 0 ? cpu_total / wall_total : 0;
	}
	bench_input_free(&in);
	o->rss_peak_kib = maxrss_kib();
}

/* Run in a child so that ru_maxrss is the scenario's own. */
static void run_forked(const struct scenario *sc, int repeat, double budget_s,
		       struct outcome *o)
{
	int fd[2];
	fflush(stdout);
	if (pipe(fd) != 0) {
		perror("sched-bench: pipe");
		exit(2);
	}
	pid_t pid = fork();
	if (pid < 0) {
		perror("sched-bench: fork");
		exit(2);
	}
	if (pid == 0) {
		close(fd[0]);
		struct outcome co;
		run_scenario(sc, repeat, budget_s, &co);
		const char *p = (const char *)&co;
		size_t left = sizeof(co);
		while (left > 0) {
			ssize_t w = write(fd[1], p, left);
			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0)
				_exit(3);
			p += w;
			left -= (size_t)w;
		}
		_exit(0);
	}
	close(fd[1]);
	memset(o, 0, sizeof(*o));
	char *p = (char *)o;
	size_t got = 0;
	while (got < sizeof(*o)) {
		ssize_t r = read(fd[0], p + got, sizeof(*o) - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	close(fd[0]);
	int status = 0;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (got != sizeof(*o)) {
		memset(o, 0, sizeof(*o));
		if (WIFSIGNALED(status))
			snprintf(o->error, sizeof(o->error), "child killed by signal %d",
				 WTERMSIG(status));
		else
			snprintf(o->error, sizeof(o->error), "child exited with status %d",
				 WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	}
}

static void print_header(int repeat, double budget_s)
{
	printf("# sched-bench: libkarpenter %s, libkarpenter-kwok %s; build %s, %s\n",
	       kp_version_string(), kp_kwok_version_string(), BENCH_BUILDTYPE, BENCH_COMPILER);
	printf("# setup = kp_cluster_new, solve = kp_sched_simulate: medians of up to %d runs "
	       "(at most %.0f s per scenario); peak RSS = ru_maxrss of the scenario's process\n\n",
	       repeat, budget_s);
	printf("| scenario | pods | types | nodes | runs | setup s | solve s | solve min-max s "
	       "| pods/s | NodeClaims | unplaced | violations | cost $/h | lower bound $/h | cost/LB "
	       "| RSS inputs MiB | peak RSS MiB |\n");
	printf("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n");
}

static void print_row(const struct scenario *sc, const struct outcome *o)
{
	if (!o->ok || o->runs == 0) {
		printf("| %s | %zu | %zu | %zu | %d | error: %s ||||||||||||\n", sc->name, o->pods,
		       o->n_types, o->n_nodes, o->runs, o->error[0] ? o->error : "no run");
		return;
	}
	char ratio[32];
	if (o->bound > 0)
		snprintf(ratio, sizeof(ratio), "%.4f", o->cost / o->bound);
	else
		snprintf(ratio, sizeof(ratio), "%s", o->cost == 0 ? "- (0/0)" : "- (LB 0)");
	printf("| %s | %zu | %zu | %zu | %d | %.4f | %.4f | %.4f-%.4f | %.0f | %zu | %zu | %zu | %.3f "
	       "| %.3f%s | %s | %.1f | %.1f |\n",
	       sc->name, o->pods, o->n_types, o->n_nodes, o->runs, o->setup_s, o->solve_s,
	       o->solve_min_s, o->solve_max_s, o->solve_s > 0 ? (double)o->pods / o->solve_s : 0,
	       o->nodeclaims, o->unplaced, o->violations, o->cost, o->bound,
	       o->bound_given ? " (given)" : "",
	       ratio, (double)o->rss_in_kib / 1024.0, (double)o->rss_peak_kib / 1024.0);
}

static void print_notes(const struct scenario *sc, const struct outcome *o)
{
	if (!o->ok || o->runs == 0)
		return;
	printf("#   %s: bound terms (cpu,memory) LP %.3f, pods %.3f, anti-affinity %.3f; "
	       "solve CPU/wall %.2f%s\n",
	       sc->name, o->bound_resources, o->bound_pods, o->bound_anti, o->solve_cpu_ratio,
	       o->deterministic ? "" : "; NOT DETERMINISTIC across runs");
	if (o->unplaced)
		printf("#   %s: %zu unplaced; first: %s\n", sc->name, o->unplaced, o->unplaced_why);
	if (o->violations)
		printf("#   %s: %zu constraint violation(s); first: %s\n", sc->name, o->violations,
		       o->violation);
	if (sc->kind == KIND_KWOK)
		printf("#   %s: given bounds: LP %.3f, integer optimum %.3f; cost/optimum %.4f\n",
		       sc->name, K1_LOWER_BOUND, K1_OPTIMUM, o->cost / K1_OPTIMUM);
}

static int parse_scenario(const char *name, struct scenario *out)
{
	memset(out, 0, sizeof(*out));
	snprintf(out->name, sizeof(out->name), "%s", name);
	char *end = NULL;
	if (strcmp(name, "K1") == 0) {
		out->kind = KIND_KWOK;
		out->pods = 1000;
	} else if (strcmp(name, "S1-nodes") == 0) {
		out->kind = KIND_NODES;
		out->pods = 10000;
	} else if (strcmp(name, "S1-nodes-spread") == 0) {
		out->kind = KIND_NODES_SPREAD;
		out->pods = 10000;
	} else if (strlen(name) > 3 &&
		   (memcmp(name, "P1-", 3) == 0 || memcmp(name, "S1-", 3) == 0 ||
		    memcmp(name, "R1-", 3) == 0)) {
		errno = 0;
		unsigned long long n = strtoull(name + 3, &end, 10);
		if (errno || *end || n == 0 || n > 10000000)
			return -1;
		out->kind = name[0] == 'P' ? KIND_DIVERSE
			    : name[0] == 'R' ? KIND_RESERVED : KIND_DIVERSE_NOLIMIT;
		out->pods = (size_t)n;
	} else {
		return -1;
	}
	return 0;
}

static const char *const default_p1[] = { "P1-1000", "P1-5000", "P1-10000", "P1-20000" };
static const char *const default_k1[] = { "K1" };
static const char *const default_s1[] = { "S1-50000", "S1-100000", "S1-nodes",
					  "S1-nodes-spread" };

static int add_group(struct scenario *list, int *n, const char *const *names, size_t count)
{
	for (size_t i = 0; i < count; i++) {
		if (*n >= MAX_SCENARIOS || parse_scenario(names[i], &list[*n]) != 0)
			return -1;
		(*n)++;
	}
	return 0;
}

static void usage(FILE *f)
{
	fputs("usage: sched-bench [--scenario NAME]... [--repeat N] [--budget SECONDS]\n"
	      "                   [--no-fork] [--list]\n"
	      "  NAME: P1 | K1 | S1 | all (groups), or P1-<pods> (upstream's NodePool\n"
	      "        limits), S1-<pods> (no limits), R1-<pods> (P1 with every type\n"
	      "        also reserved), K1, S1-nodes, S1-nodes-spread;\n"
	      "        default: all\n"
	      "  --repeat N     runs per scenario, median reported (default 5)\n"
	      "  --budget S     stop repeating once a scenario has run S seconds (default 300)\n"
	      "  --no-fork      run scenarios in this process (for gdb/valgrind; peak RSS is\n"
	      "                 then cumulative)\n",
	      f);
}

int main(int argc, char **argv)
{
	static struct scenario list[MAX_SCENARIOS];
	int n = 0, repeat = 5, forked = 1, list_only = 0;
	double budget_s = 300;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if ((strcmp(a, "--scenario") == 0 || strcmp(a, "-s") == 0) && i + 1 < argc) {
			const char *s = argv[++i];
			int rc;
			if (strcmp(s, "P1") == 0)
				rc = add_group(list, &n, default_p1, 4);
			else if (strcmp(s, "S1") == 0)
				rc = add_group(list, &n, default_s1, 4);
			else if (strcmp(s, "all") == 0)
				rc = add_group(list, &n, default_p1, 4) ||
				     add_group(list, &n, default_k1, 1) ||
				     add_group(list, &n, default_s1, 4);
			else
				rc = add_group(list, &n, &s, 1);
			if (rc != 0) {
				fprintf(stderr, "sched-bench: unknown scenario \"%s\"\n", s);
				usage(stderr);
				return 2;
			}
		} else if ((strcmp(a, "--repeat") == 0 || strcmp(a, "-r") == 0) && i + 1 < argc) {
			repeat = atoi(argv[++i]);
			if (repeat < 1 || repeat > MAX_RUNS) {
				fprintf(stderr, "sched-bench: --repeat must be 1..%d\n", MAX_RUNS);
				return 2;
			}
		} else if (strcmp(a, "--budget") == 0 && i + 1 < argc) {
			budget_s = atof(argv[++i]);
			if (!(budget_s > 0)) {
				fprintf(stderr, "sched-bench: --budget must be > 0\n");
				return 2;
			}
		} else if (strcmp(a, "--no-fork") == 0) {
			forked = 0;
		} else if (strcmp(a, "--list") == 0) {
			list_only = 1;
		} else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			usage(stdout);
			return 0;
		} else {
			usage(stderr);
			return 2;
		}
	}
	if (n == 0 && (add_group(list, &n, default_p1, 4) || add_group(list, &n, default_k1, 1) ||
		       add_group(list, &n, default_s1, 4)))
		return 2;
	if (list_only) {
		for (int i = 0; i < n; i++)
			printf("%s\t%zu pods\n", list[i].name, list[i].pods);
		return 0;
	}

	print_header(repeat, budget_s);
	static struct outcome results[MAX_SCENARIOS];
	int failed = 0;
	for (int i = 0; i < n; i++) {
		if (forked)
			run_forked(&list[i], repeat, budget_s, &results[i]);
		else
			run_scenario(&list[i], repeat, budget_s, &results[i]);
		print_row(&list[i], &results[i]);
		fflush(stdout);
		failed |= !results[i].ok || results[i].runs == 0;
	}
	printf("\n");
	for (int i = 0; i < n; i++)
		print_notes(&list[i], &results[i]);
	return failed ? 1 : 0;
}
