/*
 * cli-bench: kubectl-karpenter simulate end to end, stage by stage.
 *
 *   build-bench/bench/cli-bench -f FILE|DIR [-f ...] [--instance-types FILE]
 *                               [-o json|yaml] [--repeat N] [--cpu]
 *
 * A user runs `kubectl karpenter simulate -f cluster.json -o json`, not the
 * solver alone; this times every stage of that command through the
 * command's own code (tools/kubectl-karpenter: cluster_input.c and
 * cmd_simulate.c's writer): read + decode + defaults/validation, building
 * the snapshot (kp_cluster_new), the solve (kp_sched_simulate) and writing
 * the document to a stream that counts its bytes and keeps none. Each run is a child process, so its peak RSS
 * (getrusage ru_maxrss) is its own; the table gives medians. Inputs come
 * from ../shared/bench/gen_p1.py (bench/README.md, "End to end").
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#define _GNU_SOURCE /* fopencookie */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <karpenter/karpenter.h>

#include "cli.h"
#include "cluster_input.h"
#include "cmd_simulate.h"

#define PROG "cli-bench"
#define MAX_RUNS 99

enum { DECODE, BUILD, SOLVE, ENCODE, N_STAGES };
static const char *const stage_names[N_STAGES] = { "decode", "build", "solve", "encode" };

struct run {
	int ok;
	double s[N_STAGES];
	long rss_kib;
	size_t in_bytes, out_bytes, pods, nodeclaims;
	double cost;
};

/* Wall time by default; --cpu: the process's CPU time (user + system),
 * which a loaded machine inflates less than wall time. */
static clockid_t bench_clock = CLOCK_MONOTONIC;

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(bench_clock, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
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

/* A stream that counts what is written to it and keeps nothing. */
static ssize_t count_write(void *cookie, const char *buf, size_t n)
{
	(void)buf;
	*(size_t *)cookie += n;
	return (ssize_t)n;
}

/* One run of the command's stages, in this process. */
static void run_once(const char *const *files, size_t n_files, const char *catalogue, int format,
		     struct run *r)
{
	cli_cluster_input in;
	memset(&in, 0, sizeof(in));
	kp_cluster *cluster = NULL;
	kp_sched_result *res = NULL;
	kp_error e = KP_ERROR_INIT;
	size_t written = 0;
	cookie_io_functions_t io = { NULL, count_write, NULL, NULL };
	FILE *null = fopencookie(&written, "w", io);
	memset(r, 0, sizeof(*r));
	if (!null)
		return;

	double t0 = now_s();
	if (cli_cluster_input_load(&in, files, n_files, catalogue, PROG, "nothing simulated",
				   stderr) != CLI_OK)
		goto done;
	double t1 = now_s();
	kp_cluster_spec spec = KP_CLUSTER_SPEC_INIT;
	if (cli_cluster_input_spec(&in, &spec, PROG, stderr))
		goto done;
	if (kp_cluster_new(&cluster, &spec, &e)) {
		fprintf(stderr, "%s: %s\n", PROG, e.message);
		goto done;
	}
	double t2 = now_s();
	kp_sched_options opts = KP_SCHED_OPTIONS_INIT;
	if (kp_sched_simulate(&res, cluster, &opts, &e)) {
		fprintf(stderr, "%s: %s\n", PROG, e.message);
		goto done;
	}
	double t3 = now_s();
	if (cli_simulate_write_document(res, format, null, stderr))
		goto done;
	fflush(null);
	double t4 = now_s();
	r->s[DECODE] = t1 - t0;
	r->s[BUILD] = t2 - t1;
	r->s[SOLVE] = t3 - t2;
	r->s[ENCODE] = t4 - t3;
	r->in_bytes = in.manifests.read;
	r->out_bytes = written;
	r->pods = kp_sched_result_pod_count(res);
	r->nodeclaims = kp_sched_result_nodeclaim_count(res);
	r->cost = kp_sched_result_cost(res);
	r->ok = 1;
done:
	fclose(null);
	kp_sched_result_free(res);
	kp_cluster_free(cluster);
	cli_cluster_input_free(&in);
}

/* One run in a child process; 0 when it succeeded. */
static int run_child(const char *const *files, size_t n_files, const char *catalogue, int format,
		     struct run *r)
{
	int fd[2];
	if (pipe(fd))
		return -1;
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		close(fd[0]);
		run_once(files, n_files, catalogue, format, r);
		struct rusage ru;
		getrusage(RUSAGE_SELF, &ru);
		r->rss_kib = ru.ru_maxrss;
		ssize_t w = write(fd[1], r, sizeof(*r));
		_exit(w == (ssize_t)sizeof(*r) ? 0 : 1);
	}
	close(fd[1]);
	ssize_t got = read(fd[0], r, sizeof(*r));
	close(fd[0]);
	int status = 0;
	waitpid(pid, &status, 0);
	return got == (ssize_t)sizeof(*r) && r->ok && WIFEXITED(status) && !WEXITSTATUS(status)
		       ? 0
		       : -1;
}

static void usage(FILE *f)
{
	fputs("usage: cli-bench -f FILE|DIR [-f ...] [--instance-types FILE] [-o json|yaml]\n"
	      "                 [--repeat N] [--cpu]\n"
	      "Times kubectl-karpenter simulate's stages (decode, build, solve, encode) through\n"
	      "the command's own code; medians of N runs (default 5), each in its own process.\n"
	      "--cpu: CPU time (user + system) of each stage instead of wall time.\n",
	      f);
}

int main(int argc, char **argv)
{
	const char **files = calloc((size_t)argc, sizeof(*files));
	size_t n_files = 0;
	const char *catalogue = NULL;
	int format = CLI_OUT_JSON, repeat = 5;
	if (!files)
		return 1;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if ((!strcmp(a, "-f") || !strcmp(a, "--filename")) && i + 1 < argc) {
			files[n_files++] = argv[++i];
		} else if (!strcmp(a, "--instance-types") && i + 1 < argc) {
			catalogue = argv[++i];
		} else if ((!strcmp(a, "-o") || !strcmp(a, "--output")) && i + 1 < argc) {
			const char *o = argv[++i];
			if (strcmp(o, "json") && strcmp(o, "yaml")) {
				usage(stderr);
				return 2;
			}
			format = !strcmp(o, "json") ? CLI_OUT_JSON : CLI_OUT_YAML;
		} else if (!strcmp(a, "--cpu")) {
			bench_clock = CLOCK_PROCESS_CPUTIME_ID;
		} else if ((!strcmp(a, "-r") || !strcmp(a, "--repeat")) && i + 1 < argc) {
			repeat = atoi(argv[++i]);
			if (repeat < 1 || repeat > MAX_RUNS) {
				fprintf(stderr, "%s: --repeat must be 1..%d\n", PROG, MAX_RUNS);
				return 2;
			}
		} else {
			usage(!strcmp(a, "-h") || !strcmp(a, "--help") ? stdout : stderr);
			return !strcmp(a, "-h") || !strcmp(a, "--help") ? 0 : 2;
		}
	}
	if (!n_files) {
		usage(stderr);
		return 2;
	}
	static struct run runs[MAX_RUNS];
	double col[N_STAGES + 1][MAX_RUNS], rss[MAX_RUNS];
	for (int k = 0; k < repeat; k++) {
		if (run_child(files, n_files, catalogue, format, &runs[k])) {
			fprintf(stderr, "%s: run %d failed\n", PROG, k + 1);
			return 1;
		}
		double total = 0;
		for (int s = 0; s < N_STAGES; s++) {
			col[s][k] = runs[k].s[s];
			total += runs[k].s[s];
		}
		col[N_STAGES][k] = total;
		rss[k] = (double)runs[k].rss_kib;
	}
	const struct run *r = &runs[0];
	double med[N_STAGES + 1];
	for (int s = 0; s <= N_STAGES; s++)
		med[s] = median(col[s], repeat);
	double in_mb = (double)r->in_bytes / 1e6, out_mb = (double)r->out_bytes / 1e6;
	printf("input %.1f MB, %zu pods -> %zu NodeClaims, cost %.3f $/h; output %s %.1f MB\n",
	       in_mb, r->pods, r->nodeclaims, r->cost, format == CLI_OUT_JSON ? "json" : "yaml",
	       out_mb);
	printf("| stage | median %s s | MB/s |\n|---|--:|--:|\n",
	       bench_clock == CLOCK_MONOTONIC ? "wall" : "CPU");
	for (int s = 0; s < N_STAGES; s++) {
		double mbs = s == DECODE ? in_mb / med[s] : s == ENCODE ? out_mb / med[s] : 0;
		if (mbs > 0)
			printf("| %s | %.3f | %.0f |\n", stage_names[s], med[s], mbs);
		else
			printf("| %s | %.3f | |\n", stage_names[s], med[s]);
	}
	printf("| total | %.3f | |\n", med[N_STAGES]);
	printf("peak RSS %.1f MiB (median of %d runs), %.1fx the input\n",
	       median(rss, repeat) / 1024.0, repeat, median(rss, repeat) * 1024.0 / (double)r->in_bytes);
	free((void *)files);
	return 0;
}
