/*
 * audit-bench: the scale scenarios of the fuzz and hostile-input audit
 * (issue 18), run against a kubectl-karpenter binary.
 *
 *   build-bench/bench/audit-bench --tool PATH [--scenario A1-80000 ...] [--dir DIR]
 *                                 [--repeat N] [--timeout S]
 *
 * Each scenario writes its input (manifests, an --instances file) to DIR
 * (default: a new directory under /tmp, removed afterwards), runs the
 * command N times (default 1) as a child process with its output sent to
 * /dev/null, and prints the median wall time, the peak RSS of the child
 * (wait4's ru_maxrss) and the input size. Giving --tool the binary of an
 * older build measures "before": the inputs are the same bytes.
 *
 *   A1-N  reconcile --instances with N provider IDs (the de-duplication)
 *   A2-N  reconcile (text) of N registered, initialized nodes (grouping,
 *         requeue minima)
 *   A3-N  reconcile -o json of N nodes (the document; peak memory)
 *   A4-N  disrupt --apply: N Namespaces in -f, N in --apply, half of them
 *         the same names (the merge)
 *   A5-N  disrupt --passes 0 on N empty nodes under a budget of one node
 *         (about N/2 passes: quadratic by design, README "disrupt")
 *   A6-N  disrupt -o json of N nodes (the document; peak memory)
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#define _GNU_SOURCE /* wait4 */

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define NOW "2025-06-01T12:00:00Z"
#define MAX_REPEAT 99

/* ------------------------------------------------------------------ */
/* Inputs                                                              */

static void nodepool(FILE *f, const char *budget)
{
	fprintf(f,
		"apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: default}\n"
		"spec:\n  template:\n    spec:\n"
		"      nodeClassRef: {group: karpenter.kwok.sh, kind: KWOKNodeClass, name: default}\n"
		"      expireAfter: 720h\n"
		"      requirements:\n"
		"        - {key: karpenter.sh/capacity-type, operator: In, values: [on-demand]}\n"
		"  disruption:\n    consolidationPolicy: WhenEmptyOrUnderutilized\n"
		"    consolidateAfter: 0s\n    budgets: [{nodes: \"%s\"}]\n"
		"---\napiVersion: karpenter.kwok.sh/v1alpha1\nkind: KWOKNodeClass\n"
		"metadata: {name: default}\n",
		budget);
}

/* A launched, registered, initialized NodeClaim and its Node, empty. */
static void node(FILE *f, size_t i)
{
	static const char labels[] =
		"    karpenter.sh/nodepool: default\n"
		"    karpenter.sh/capacity-type: on-demand\n"
		"    karpenter.kwok.sh/kwoknodeclass: default\n"
		"    node.kubernetes.io/instance-type: c-4x-amd64-linux\n"
		"    topology.kubernetes.io/zone: test-zone-a\n"
		"    kubernetes.io/arch: amd64\n    kubernetes.io/os: linux\n";
	fprintf(f,
		"---\napiVersion: karpenter.sh/v1\nkind: NodeClaim\nmetadata:\n  name: n%06zu\n"
		"  creationTimestamp: \"2025-06-01T09:58:00Z\"\n"
		"  finalizers: [karpenter.sh/termination]\n  labels:\n%s"
		"spec:\n  nodeClassRef: {group: karpenter.kwok.sh, kind: KWOKNodeClass, name: default}\n"
		"  requirements:\n"
		"    - {key: node.kubernetes.io/instance-type, operator: In, values: [c-4x-amd64-linux]}\n"
		"status:\n  providerID: kwok://n%06zu\n  nodeName: n%06zu\n"
		"  capacity: {cpu: \"4\", memory: 8Gi, pods: \"110\"}\n"
		"  allocatable: {cpu: 3900m, memory: 8182Mi, pods: \"110\"}\n"
		"  conditions:\n"
		"    - {type: Launched, status: \"True\", reason: Launched, lastTransitionTime: \"2025-06-01T09:58:30Z\"}\n"
		"    - {type: Registered, status: \"True\", reason: Registered, lastTransitionTime: \"2025-06-01T09:59:00Z\"}\n"
		"    - {type: Initialized, status: \"True\", reason: Initialized, lastTransitionTime: \"2025-06-01T10:00:00Z\"}\n"
		"---\napiVersion: v1\nkind: Node\nmetadata:\n  name: n%06zu\n"
		"  creationTimestamp: \"2025-06-01T09:59:00Z\"\n"
		"  finalizers: [karpenter.sh/termination]\n  labels:\n%s"
		"    kubernetes.io/hostname: n%06zu\n"
		"    karpenter.sh/registered: \"true\"\n    karpenter.sh/initialized: \"true\"\n"
		"spec: {providerID: kwok://n%06zu}\n"
		"status:\n  capacity: {cpu: \"4\", memory: 8Gi, pods: \"110\"}\n"
		"  allocatable: {cpu: 3900m, memory: 8182Mi, pods: \"110\"}\n"
		"  conditions: [{type: Ready, status: \"True\", reason: KubeletReady, "
		"lastTransitionTime: \"2025-06-01T10:00:00Z\"}]\n",
		i, labels, i, i, i, labels, i, i);
}

static FILE *create(const char *dir, const char *name, char *path, size_t size)
{
	snprintf(path, size, "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	if (!f)
		fprintf(stderr, "audit-bench: %s: %s\n", path, strerror(errno));
	return f;
}

static int cluster(const char *dir, const char *name, size_t n, const char *budget, char *path,
		   size_t size)
{
	FILE *f = create(dir, name, path, size);
	if (!f)
		return -1;
	nodepool(f, budget);
	for (size_t i = 0; i < n; i++)
		node(f, i);
	return fclose(f);
}

static int namespaces(const char *dir, const char *name, size_t from, size_t n, char *path,
		      size_t size)
{
	FILE *f = create(dir, name, path, size);
	if (!f)
		return -1;
	for (size_t i = from; i < from + n; i++)
		fprintf(f, "---\napiVersion: v1\nkind: Namespace\nmetadata: {name: ns%07zu, labels: {a: b}}\n",
			i);
	return fclose(f);
}

/* ------------------------------------------------------------------ */
/* Running                                                             */

struct run {
	double s;
	long rss_kib;
	int rc;
};

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int timeout_s = 300;

static int run_tool(char *const *argv, struct run *r)
{
	double t0 = now_s();
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);
		if (null < 0 || dup2(null, 1) < 0 || dup2(null, 2) < 0)
			_exit(127);
		alarm((unsigned)timeout_s); /* SIGALRM ends a run past --timeout */
		execv(argv[0], argv);
		_exit(127);
	}
	int status = 0;
	struct rusage ru;
	if (wait4(pid, &status, 0, &ru) < 0)
		return -1;
	r->s = now_s() - t0;
	r->rss_kib = ru.ru_maxrss;
	r->rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static long file_kib(const char *path)
{
	struct stat st;
	return stat(path, &st) ? 0 : (long)(st.st_size / 1024);
}

/* ------------------------------------------------------------------ */
/* Scenarios                                                           */

typedef struct scenario {
	const char *name;
	char kind; /* 1..6: A1..A6 */
	size_t n;
} scenario;

static const scenario scenarios[] = {
	{ "A1-20000", 1, 20000 },   { "A1-80000", 1, 80000 },   { "A2-1000", 2, 1000 },
	{ "A2-4000", 2, 4000 },     { "A2-16000", 2, 16000 },   { "A3-4000", 3, 4000 },
	{ "A3-16000", 3, 16000 },   { "A4-25000", 4, 25000 },   { "A4-100000", 4, 100000 },
	{ "A5-150", 5, 150 },       { "A5-300", 5, 300 },       { "A5-600", 5, 600 },
	{ "A6-1000", 6, 1000 },     { "A6-4000", 6, 4000 },     { "A6-16000", 6, 16000 },
};

static int run_scenario(const scenario *sc, char *tool, const char *dir, int repeat)
{
	char in[1024], extra[1024];
	long in_kib = 0;
	char *argv[16];
	int argc = 0;
	int rc = 0;
	switch (sc->kind) {
	case 1: {
		rc = cluster(dir, "a1.yaml", 10, "10%", in, sizeof(in));
		FILE *f = rc ? NULL : create(dir, "a1.instances", extra, sizeof(extra));
		if (!f)
			return -1;
		for (size_t i = 0; i < sc->n; i++)
			fprintf(f, "kwok://instance-%07zu\n", i);
		if (fclose(f))
			return -1;
		in_kib = file_kib(in) + file_kib(extra);
		argv[argc++] = tool;
		argv[argc++] = "reconcile";
		argv[argc++] = "-f";
		argv[argc++] = in;
		argv[argc++] = "--instances";
		argv[argc++] = extra;
		break;
	}
	case 2:
	case 3:
	case 6:
		if (cluster(dir, "cluster.yaml", sc->n, "10%", in, sizeof(in)))
			return -1;
		in_kib = file_kib(in);
		argv[argc++] = tool;
		argv[argc++] = sc->kind == 6 ? "disrupt" : "reconcile";
		argv[argc++] = "-f";
		argv[argc++] = in;
		if (sc->kind != 2) {
			argv[argc++] = "-o";
			argv[argc++] = "json";
		}
		break;
	case 4:
		if (namespaces(dir, "base.yaml", 0, sc->n, in, sizeof(in)) ||
		    namespaces(dir, "apply.yaml", sc->n / 2, sc->n, extra, sizeof(extra)))
			return -1;
		in_kib = file_kib(in) + file_kib(extra);
		argv[argc++] = tool;
		argv[argc++] = "disrupt";
		argv[argc++] = "-f";
		argv[argc++] = in;
		argv[argc++] = "--apply";
		argv[argc++] = extra;
		break;
	case 5:
		if (cluster(dir, "empty.yaml", sc->n, "1", in, sizeof(in)))
			return -1;
		in_kib = file_kib(in);
		argv[argc++] = tool;
		argv[argc++] = "disrupt";
		argv[argc++] = "-f";
		argv[argc++] = in;
		argv[argc++] = "--passes";
		argv[argc++] = "0";
		break;
	default:
		return -1;
	}
	argv[argc++] = "--now";
	argv[argc++] = NOW;
	argv[argc] = NULL;
	double s[MAX_REPEAT];
	long rss = 0;
	int code = 0;
	for (int i = 0; i < repeat; i++) {
		struct run r;
		if (run_tool(argv, &r))
			return -1;
		s[i] = r.s;
		rss = r.rss_kib > rss ? r.rss_kib : rss;
		code = r.rc;
	}
	qsort(s, (size_t)repeat, sizeof(*s), cmp_double);
	char over[32];
	snprintf(over, sizeof(over), ">%d", timeout_s);
	if (code == 128 + SIGALRM)
		printf("%-10s %9zu %10ld %10s %10s %4s\n", sc->name, sc->n, in_kib, over, "-", "-");
	else
		printf("%-10s %9zu %10ld %10.2f %10ld %4d\n", sc->name, sc->n, in_kib, s[repeat / 2],
		       rss, code);
	fflush(stdout);
	return 0;
}

static void usage(FILE *f)
{
	fputs("usage: audit-bench --tool PATH [--scenario NAME ...] [--dir DIR] [--repeat N]\n"
	      "                   [--timeout S]\n"
	      "Runs the audit's scale scenarios (A1-A6, bench/audit_bench.c) against a\n"
	      "kubectl-karpenter binary; prints the median wall time and the peak RSS.\n",
	      f);
}

int main(int argc, char **argv)
{
	char *tool = NULL;
	const char *dir = NULL;
	const char **only = calloc((size_t)argc + 1, sizeof(*only));
	size_t n_only = 0;
	int repeat = 1;
	if (!only)
		return 1;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--tool") && i + 1 < argc)
			tool = argv[++i];
		else if (!strcmp(argv[i], "--dir") && i + 1 < argc)
			dir = argv[++i];
		else if (!strcmp(argv[i], "--scenario") && i + 1 < argc)
			only[n_only++] = argv[++i];
		else if (!strcmp(argv[i], "--repeat") && i + 1 < argc)
			repeat = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--timeout") && i + 1 < argc)
			timeout_s = atoi(argv[++i]);
		else {
			usage(stderr);
			return 2;
		}
	}
	if (!tool || repeat < 1 || repeat > MAX_REPEAT) {
		usage(stderr);
		return 2;
	}
	char tmp[] = "/tmp/audit-bench-XXXXXX";
	if (!dir && !(dir = mkdtemp(tmp))) {
		perror("audit-bench: mkdtemp");
		return 1;
	}
	printf("%-10s %9s %10s %10s %10s %4s\n", "scenario", "n", "input KiB", "wall s",
	       "peak KiB", "exit");
	int rc = 0;
	for (size_t i = 0; i < sizeof(scenarios) / sizeof(scenarios[0]); i++) {
		int want = !n_only;
		for (size_t k = 0; k < n_only; k++)
			want |= !strcmp(only[k], scenarios[i].name);
		if (want && run_scenario(&scenarios[i], tool, dir, repeat)) {
			fprintf(stderr, "audit-bench: %s failed\n", scenarios[i].name);
			rc = 1;
		}
	}
	if (dir == tmp) {
		static const char *const files[] = { "a1.yaml", "a1.instances", "cluster.yaml",
						     "base.yaml", "apply.yaml", "empty.yaml" };
		char path[1024];
		for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
			snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
			unlink(path);
		}
		rmdir(dir);
	}
	free(only);
	return rc;
}
