/*
 * kubectl-karpenter simulate: "what would Karpenter launch for these pods?"
 * Decodes a cluster written as manifests (NodePools, node classes, Nodes,
 * NodeClaims, Pods, DaemonSets, PDBs, volumes), runs libkarpenter's
 * scheduling simulation on the KWOK provider's instance types and prints the
 * NodeClaims it would create and why any pod cannot be placed.
 *
 * The JSON/YAML document is a contract documented in the README ("simulate
 * JSON output"); change it only compatibly (new members only).
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <karpenter/karpenter.h>
#include <karpenter/scheduling.h>
#include <karpenter/validation.h>
#include <karpenter/kwok.h>

#include "cli.h"
#include "cluster_input.h"
#include "cmd_simulate.h"
#include "manifests.h"
#include "writer.h"

#define PROG "kubectl-karpenter simulate"

static void simulate_usage(FILE *out)
{
	fprintf(out, "Usage: kubectl-karpenter simulate -f FILE [-f FILE ...] [--instance-types FILE]\n"
	      "                                  [--max-instance-types N] [-o text|json|yaml]\n"
	      "                                  [--provider kwok|aws] [--region R] [--offerings FILE]\n"
	      "                                  [--spot-prices FILE] [--reserved-enis N]\n"
	      "                                  [--vm-memory-overhead-percent F]\n"
	      "\n"
	      "Runs Karpenter's scheduling simulation offline on a cluster written as\n"
	      "manifests and prints the NodeClaims it would launch, with their instance\n"
	      "type, capacity type, zone and hourly price, and the reasons each pod that\n"
	      "cannot be placed is refused, NodePool by NodePool and node by node.\n"
	      "\n"
	      "Reads NodePools (with the v1 CRD defaults applied), KWOKNodeClasses, Nodes,\n"
	      "NodeClaims, Pods (pending when spec.nodeName is empty, else bound to that\n"
	      "node), DaemonSets, PodDisruptionBudgets, PersistentVolumeClaims,\n"
	      "PersistentVolumes, StorageClasses, CSINodes and Namespaces (whose labels\n"
	      "pod affinity namespaceSelectors match); other kinds are skipped with\n"
	      "a note on stderr. A KWOKNodeClass without a Ready condition counts as ready;\n"
	      "when the input has no KWOKNodeClass at all, every NodePool's node class\n"
	      "counts as ready.\n"
	      "\n"
	      "Options:\n"
	      "  -f, --filename FILE       a manifest, a directory (its *.yaml, *.yml and\n"
	      "                            *.json files, sorted) or - for stdin (repeatable)\n"
	      "  --instance-types FILE     instance types in upstream KWOK's JSON format\n"
	      "                            (default: the built-in KWOK catalogue, 144 types);\n"
	      "                            every NodePool gets this catalogue\n"
	      "  --max-instance-types N    instance-type options kept per NodeClaim\n"
	      "                            (default 600, as upstream)\n"
	      "  -o, --output FORMAT       text (default), json or yaml; json and yaml are\n"
	      "                            the document described in the README\n"
	      "\n"
	      "With --provider aws, EC2NodeClasses are read and every NodePool gets the\n"
	      "instance types of its EC2NodeClass as libkarpenter-aws computes them (see\n"
	      "kubectl-karpenter instance-types --help); spot is priced as on-demand is,\n"
	      "the cheapest offering standing in for EC2's allocation strategy:\n"
	      "%s"
	      "\n"
	      "Output is deterministic: the same input gives the same bytes.\n"
	      "Exit codes: 0 every pod is placed, 1 invalid input or some pod cannot be\n"
	      "placed, 2 usage error (a path that cannot be read, has no manifest file or\n"
	      "is too large included).\n", cli_aws_usage);
}

/* ------------------------------------------------------------------ */
/* Result → document                                                   */
/* ------------------------------------------------------------------ */

/* The JSON or YAML document (the README's contract), written by the
 * library as the result is walked. The numbers were checked by
 * check_costs before. */
int cli_simulate_write_document(const kp_sched_result *res, int format, FILE *out, FILE *err)
{
	kp_error e = KP_ERROR_INIT;
	cli_writer *w = cli_writer_new(out, format == CLI_OUT_JSON ? CLI_WRITER_JSON
								  : CLI_WRITER_YAML);
	if (!w) {
		fprintf(err, "%s: out of memory\n", PROG);
		return -1;
	}
	int failed = kp_sched_result_write(w, res, &e) != KP_OK;
	if (failed)
		fprintf(err, "%s: %s\n", PROG, e.message);
	return cli_writer_finish(w, out, failed, PROG, err);
}

/* ------------------------------------------------------------------ */
/* Prices and the total cost: only finite numbers are written          */
/* ------------------------------------------------------------------ */

/* Before any output, in every format: a price or a total that is not a
 * finite number (a custom catalogue, or prices whose sum overflows) is an
 * error naming it, never written as 0 or "inf". */
static int check_costs(const kp_sched_result *res, FILE *err)
{
	size_t n = kp_sched_result_nodeclaim_count(res);
	for (size_t i = 0; i < n; i++) {
		const kp_sched_nodeclaim *s = kp_sched_result_nodeclaim_at(res, i);
		if (isfinite(s->price))
			continue;
		const char *name = s->nodeclaim && s->nodeclaim->metadata && s->nodeclaim->metadata->name
					   ? s->nodeclaim->metadata->name : "";
		fprintf(err, "%s: the price of NodeClaim %s (instance type %s) is not a finite number\n",
			PROG, name, s->instance_type ? s->instance_type : "");
		return -1;
	}
	if (!isfinite(kp_sched_result_cost(res))) {
		/* Every price is finite: their sum can only overflow. */
		fprintf(err, "%s: the total cost overflows: the hourly prices of the %zu NodeClaim%s add "
			     "up to more than %g $/h\n", PROG, n, n == 1 ? "" : "s", DBL_MAX);
		return -1;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* Text output                                                         */
/* ------------------------------------------------------------------ */

#define N_COLS 7

static void print_row(FILE *out, const char *const cells[N_COLS], const size_t width[N_COLS])
{
	for (int c = 0; c < N_COLS; c++) {
		if (c == N_COLS - 1)
			fprintf(out, "%s\n", cells[c]);
		else
			fprintf(out, "%-*s   ", (int)width[c], cells[c]);
	}
}

/* Reasons are grouped by what refused the pod: a node, a NodePool or
 * neither. Compared on the names themselves, never on cut text. */
static int str_eq(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static int same_target(const kp_sched_reason *a, const kp_sched_reason *b)
{
	if (a->node || b->node)
		return str_eq(a->node, b->node);
	return str_eq(a->nodepool, b->nodepool);
}

static void print_target(FILE *out, const kp_sched_reason *r)
{
	if (r->node)
		fprintf(out, "node %s", r->node);
	else if (r->nodepool)
		fprintf(out, "nodepool %s", r->nodepool);
	else
		fputs("cluster", out);
}

static const char *reason_message(const kp_sched_reason *r)
{
	return r->message && *r->message ? r->message : kp_sched_reason_code_name(r->code);
}

static void print_unplaced(FILE *out, const kp_sched_placement *p)
{
	fprintf(out, "%s/%s: cannot be placed\n", p->namespace_ ? p->namespace_ : "",
		p->name ? p->name : "");
	if (!p->n_reasons) {
		fputs("  no reason given\n", out);
		return;
	}
	/* One group per target (NodePool or node), in the order targets
	 * first appear; a group of one reason is one line. */
	for (size_t i = 0; i < p->n_reasons; i++) {
		const kp_sched_reason *ri = p->reasons[i];
		size_t k = 0, count = 0;
		while (k < i && !same_target(ri, p->reasons[k]))
			k++;
		if (k < i)
			continue; /* printed with its group */
		for (size_t j = i; j < p->n_reasons; j++)
			count += same_target(ri, p->reasons[j]);
		fputs("  ", out);
		if (count == 1) {
			if (ri->node || ri->nodepool) {
				print_target(out, ri);
				fputs(": ", out);
			}
			fprintf(out, "%s\n", reason_message(ri));
			continue;
		}
		print_target(out, ri);
		fputs(":\n", out);
		for (size_t j = i; j < p->n_reasons; j++)
			if (same_target(ri, p->reasons[j]))
				fprintf(out, "    - %s\n", reason_message(p->reasons[j]));
	}
}

static void print_text(FILE *out, const kp_sched_result *res)
{
	size_t n = kp_sched_result_nodeclaim_count(res);
	static const char *const head[N_COLS] = { "NAME", "TYPE", "CAPACITY", "ZONE", "NODEPOOL",
						  "PODS", "$/H" };
	size_t width[N_COLS];
	for (int c = 0; c < N_COLS; c++)
		width[c] = strlen(head[c]);
	/* "%.4f" of any finite double fits: sign, 309 digits, '.', 4, NUL */
	char pods[32], price[DBL_MAX_10_EXP + 16];
	for (size_t i = 0; i < n; i++) {
		const kp_sched_nodeclaim *s = kp_sched_result_nodeclaim_at(res, i);
		const char *name = s->nodeclaim && s->nodeclaim->metadata && s->nodeclaim->metadata->name
					   ? s->nodeclaim->metadata->name : "";
		snprintf(pods, sizeof(pods), "%zu", s->n_pods);
		snprintf(price, sizeof(price), "%.4f", s->price);
		const char *cells[N_COLS] = { name, s->instance_type ? s->instance_type : "",
					      s->capacity_type ? s->capacity_type : "",
					      s->zone ? s->zone : "", s->nodepool ? s->nodepool : "",
					      pods, price };
		for (int c = 0; c < N_COLS; c++)
			if (strlen(cells[c]) > width[c])
				width[c] = strlen(cells[c]);
	}
	if (n) {
		print_row(out, head, width);
		for (size_t i = 0; i < n; i++) {
			const kp_sched_nodeclaim *s = kp_sched_result_nodeclaim_at(res, i);
			const char *name = s->nodeclaim && s->nodeclaim->metadata &&
						   s->nodeclaim->metadata->name
						   ? s->nodeclaim->metadata->name : "";
			snprintf(pods, sizeof(pods), "%zu", s->n_pods);
			snprintf(price, sizeof(price), "%.4f", s->price);
			const char *cells[N_COLS] = { name, s->instance_type ? s->instance_type : "",
						      s->capacity_type ? s->capacity_type : "",
						      s->zone ? s->zone : "",
						      s->nodepool ? s->nodepool : "", pods, price };
			print_row(out, cells, width);
		}
		fputc('\n', out);
	}
	fprintf(out, "Total: %zu NodeClaim%s, $%.4f/h\n", n, n == 1 ? "" : "s",
		kp_sched_result_cost(res));

	size_t np = kp_sched_result_pod_count(res), existing = 0, fresh = 0, inflight = 0,
	       unplaced = 0;
	for (size_t i = 0; i < np; i++) {
		const kp_sched_placement *p = kp_sched_result_pod_at(res, i);
		switch (p->target) {
		case KP_SCHED_EXISTING_NODE: existing++; break;
		case KP_SCHED_INFLIGHT: inflight++; break;
		case KP_SCHED_NEW_NODECLAIM: fresh++; break;
		default: unplaced++; break;
		}
	}
	fprintf(out, "Pods: %zu pending: %zu on new NodeClaims, %zu on existing nodes, ", np, fresh,
		existing);
	if (inflight)
		fprintf(out, "%zu on in-flight NodeClaims, ", inflight);
	fprintf(out, "%zu cannot be placed\n", unplaced);
	if (unplaced) {
		fputc('\n', out);
		for (size_t i = 0; i < np; i++) {
			const kp_sched_placement *p = kp_sched_result_pod_at(res, i);
			if (p->target != KP_SCHED_EXISTING_NODE && p->target != KP_SCHED_INFLIGHT &&
			    p->target != KP_SCHED_NEW_NODECLAIM)
				print_unplaced(out, p);
		}
	}
}

/* ------------------------------------------------------------------ */
/* The command                                                         */
/* ------------------------------------------------------------------ */

typedef struct sim {
	cli_cluster_input in;
	kp_cluster *cluster;
	kp_sched_result *result;
} sim;

static void sim_free(sim *s)
{
	kp_sched_result_free(s->result);
	kp_cluster_free(s->cluster);
	cli_cluster_input_free(&s->in);
}

enum { OPT_FILE = 1, OPT_OUTPUT, OPT_INSTANCE_TYPES, OPT_MAX_INSTANCE_TYPES };

static const cli_option simulate_options[] = {
	{ "--filename", "-f", OPT_FILE },
	{ "--output", "-o", OPT_OUTPUT },
	{ "--instance-types", NULL, OPT_INSTANCE_TYPES },
	{ "--max-instance-types", NULL, OPT_MAX_INSTANCE_TYPES },
	CLI_AWS_OPTION_ROWS,
};

static int simulate_run(int argc, char **argv, FILE *out, FILE *err)
{
	sim s;
	memset(&s, 0, sizeof(s));
	const char **files = calloc((size_t)argc, sizeof(*files));
	size_t n_files = 0;
	const char *catalogue = NULL;
	cli_aws_options aws = CLI_AWS_OPTIONS_INIT;
	unsigned long max_its = 0;
	int format = CLI_OUT_TEXT, rc = CLI_USAGE;
	kp_error e = KP_ERROR_INIT;
	if (!files) {
		fprintf(err, "%s: out of memory\n", PROG);
		return CLI_INVALID;
	}

	for (int i = 1; i < argc; i++) {
		const char *val = NULL;
		int id = cli_next_option(argc, argv, &i, simulate_options,
					 sizeof(simulate_options) / sizeof(simulate_options[0]), &val,
					 PROG, err);
		switch (id) {
		case 0:
			simulate_usage(err);
			goto done;
		case OPT_FILE:
			files[n_files++] = val;
			break;
		case OPT_OUTPUT:
			if ((format = cli_parse_output(val, PROG, err)) < 0)
				goto done;
			break;
		case OPT_INSTANCE_TYPES:
			if (!*val) {
				fprintf(err, "%s: --instance-types needs a file name\n", PROG);
				goto done;
			}
			catalogue = val;
			break;
		case OPT_MAX_INSTANCE_TYPES: {
			char *end = NULL;
			errno = 0;
			unsigned long m = strtoul(val, &end, 10);
			if (!*val || *end || errno || val[0] == '-' || m == 0 || m > 100000) {
				fprintf(err, "%s: invalid value \"%s\" for --max-instance-types (an "
					     "integer from 1 to 100000)\n", PROG, val);
				goto done;
			}
			max_its = m;
			break;
		}
		default: /* --provider aws and its options */
			if (cli_aws_take(&aws, id, val, PROG, err) != 1)
				goto done;
			break;
		}
	}
	if (cli_aws_check(&aws, PROG, err))
		goto done;
	if (aws.enabled) { /* --instance-types is then describe-instance-types output */
		aws.types_file = catalogue;
		catalogue = NULL;
	}
	s.in.aws = &aws;
	if (!n_files) {
		fprintf(err, "%s: no input: give -f FILE or -f DIR (or -f - for stdin)\n", PROG);
		simulate_usage(err);
		goto done;
	}
	rc = cli_cluster_input_load(&s.in, files, n_files, catalogue, PROG, "nothing simulated",
				    err);
	if (rc != CLI_OK)
		goto done;
	rc = CLI_INVALID;
	kp_cluster_spec spec = KP_CLUSTER_SPEC_INIT;
	if (cli_cluster_input_spec(&s.in, &spec, PROG, err))
		goto done;
	spec.now_ms = 0; /* no clock: the output must not depend on when it runs */
	if (kp_cluster_new(&s.cluster, &spec, &e)) {
		fprintf(err, "%s: %s\n", PROG, e.message);
		goto done;
	}

	kp_sched_options opts = KP_SCHED_OPTIONS_INIT;
	opts.max_instance_types = (uint32_t)max_its;
	if (kp_sched_simulate(&s.result, s.cluster, &opts, &e)) {
		fprintf(err, "%s: %s\n", PROG, e.message);
		goto done;
	}

	if (check_costs(s.result, err))
		goto done;
	if (format == CLI_OUT_TEXT)
		print_text(out, s.result);
	else if (cli_simulate_write_document(s.result, format, out, err))
		goto done;
	rc = CLI_OK;
	for (size_t i = 0; i < kp_sched_result_pod_count(s.result); i++) {
		const kp_sched_placement *p = kp_sched_result_pod_at(s.result, i);
		if (p->target != KP_SCHED_EXISTING_NODE && p->target != KP_SCHED_INFLIGHT &&
		    p->target != KP_SCHED_NEW_NODECLAIM)
			rc = CLI_INVALID;
	}
done:
	sim_free(&s);
	free((void *)files);
	return rc;
}

const cli_command cli_cmd_simulate = {
	"simulate", "Simulate scheduling: which NodeClaims Karpenter would launch", simulate_run,
	simulate_usage,
};
