/*
 * kubectl-karpenter disrupt: "what would Karpenter's disruption controller
 * do to this cluster, and why not the rest?" Decodes a cluster written as
 * manifests (as simulate reads it), runs libkarpenter's disruption passes
 * (Emptiness, Drift, MultiNodeConsolidation, SingleNodeConsolidation) at
 * --now and prints the commands, every node with the reasons it was not
 * disrupted, the budgets and the cost before and after.
 *
 * --apply FILE: objects in FILE replace (same kind, namespace and name) or
 * join the input first: the drift preview.
 *
 * The JSON/YAML document is a contract documented in the README
 * ("disrupt JSON output"); change it only compatibly (new members only).
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <karpenter/karpenter.h>
#include <karpenter/disruption.h>

#include "common/map.h"
#include "kp_internal.h"

#include "cli.h"
#include "cluster_input.h"
#include "writer.h"

#define PROG "kubectl-karpenter disrupt"

static void disrupt_usage(FILE *out)
{
	fputs("Usage: kubectl-karpenter disrupt -f FILE|DIR [-f ...] [--now RFC3339]\n"
	      "                                 [--instance-types FILE] [--passes N]\n"
	      "                                 [--apply FILE ...]\n"
	      "                                 [--feature-gates SpotToSpotConsolidation=true]\n"
	      "                                 [--provider kwok|aws] [AWS options, as simulate]\n"
	      "                                 [-o text|json|yaml]\n"
	      "\n"
	      "Runs Karpenter's disruption controller offline on a cluster written as\n"
	      "manifests (the same input as simulate: NodePools with their budgets,\n"
	      "NodeClaims with their conditions, Nodes, bound and pending pods, PDBs with\n"
	      "their status, DaemonSets, volumes) and prints the command of each pass\n"
	      "(Emptiness, Drift, MultiNodeConsolidation, SingleNodeConsolidation: the\n"
	      "first method with a command wins), every node with the first reason it\n"
	      "was not disrupted, and the hourly cost before and after.\n"
	      "\n"
	      "Options:\n"
	      "  -f, --filename FILE       a manifest, a directory or - for stdin (repeatable)\n"
	      "  --now TIME                the clock, RFC 3339 (default: the current time)\n"
	      "  --instance-types FILE     instance types in upstream KWOK's JSON format\n"
	      "  --passes N                passes to run, each applying the previous command\n"
	      "                            as if it completed (default 1; 0 = until nothing\n"
	      "                            more is found: up to one pass per node, a cost\n"
	      "                            that grows with the square of the node count;\n"
	      "                            N bounds it)\n"
	      "  --apply FILE              objects that replace (same kind and name) or join\n"
	      "                            the input first: which nodes drift (repeatable)\n"
	      "  --feature-gates GATES     SpotToSpotConsolidation=true|false\n"
	      "  -o, --output FORMAT       text (default), json or yaml\n"
	      "\n"
	      "Exit codes: 0 the input is valid (whether or not anything is disrupted),\n"
	      "1 invalid input, 2 usage error.\n", out);
}

/* ------------------------------------------------------------------ */
/* Result → document                                                   */

/* The JSON or YAML document (the README's contract), written by the
 * library as the result is walked; nothing when a number is not finite.
 * 0, or -1 after printing why. */
static int write_document(const kp_disruption_result *res, int64_t now_ms, int format, FILE *out,
			  FILE *err)
{
	cli_writer *w = cli_writer_new(out, format == CLI_OUT_JSON ? CLI_WRITER_JSON
								  : CLI_WRITER_YAML);
	if (!w) {
		fprintf(err, "%s: out of memory\n", PROG);
		return -1;
	}
	kp_error e = KP_ERROR_INIT;
	int failed = kp_disruption_result_write(w, res, now_ms, &e) != KP_OK;
	if (failed)
		cli_writer_error(&e, PROG, err);
	return cli_writer_finish(w, out, failed, PROG, err);
}

/* ------------------------------------------------------------------ */
/* Text                                                                */

static const char *s_or(const char *s, const char *dflt)
{
	return s && *s ? s : dflt;
}

static void print_command(FILE *out, const kp_disruption_command *c)
{
	fprintf(out, "Pass %u: %s (%s): %s %zu node%s\n", c->pass, kp_disruption_method_name(c->method),
		c->reason, kp_disruption_decision_name(c->decision), c->n_candidates,
		c->n_candidates == 1 ? "" : "s");
	for (size_t i = 0; i < c->n_candidates; i++) {
		const kp_disruption_candidate *k = c->candidates[i];
		fprintf(out, "  - %s  %s  %s  %s  nodepool %s  $%.4f/h\n", s_or(k->node, "-"),
			s_or(k->instance_type, "-"), s_or(k->zone, "-"), s_or(k->capacity_type, "-"),
			s_or(k->nodepool, "-"), k->price);
	}
	for (size_t i = 0; i < c->n_replacements; i++) {
		const kp_disruption_replacement *x = c->replacements[i];
		const char *name = x->nodeclaim && x->nodeclaim->metadata ? x->nodeclaim->metadata->name : NULL;
		fprintf(out, "  + %s  %s  %s  %s  nodepool %s  $%.4f/h\n", s_or(name, "-"),
			s_or(x->instance_type, "-"), s_or(x->zone, "-"), s_or(x->capacity_type, "-"),
			s_or(x->nodepool, "-"), x->price);
	}
	if (c->n_moves)
		fprintf(out, "  pods rescheduled: %zu\n", c->n_moves);
	fprintf(out, "  savings: $%.4f/h\n\n", c->savings);
}

/* The first reason worth showing: not the "does not apply" ones. */
static const kp_disruption_why *first_reason(const kp_disruption_node *n)
{
	for (size_t k = 0; k < n->n_reasons; k++)
		if (n->reasons[k]->code != KP_BLOCK_NOT_EMPTY && n->reasons[k]->code != KP_BLOCK_NOT_DRIFTED)
			return n->reasons[k];
	return NULL;
}

/* The command that disrupts each node: NodeClaim name -> the first
 * command whose candidates name it (a scan of every command per node was
 * quadratic with --passes). -1 when out of memory. */
static int index_commands(const kp_disruption_result *res, kp__map *by_nodeclaim)
{
	for (size_t i = 0; i < kp_disruption_result_command_count(res); i++) {
		const kp_disruption_command *c = kp_disruption_result_command_at(res, i);
		for (size_t k = 0; k < c->n_candidates; k++) {
			const char *nc = c->candidates[k]->nodeclaim;
			if (nc && (i >= UINT32_MAX ||
				   kp__map_put(by_nodeclaim, nc, strlen(nc), (uint32_t)i, NULL, NULL)))
				return -1;
		}
	}
	return 0;
}

static const kp_disruption_command *command_of(const kp_disruption_result *res,
					       const kp__map *by_nodeclaim,
					       const kp_disruption_node *n)
{
	uint32_t i;
	if (!n->nodeclaim || !kp__map_gets(by_nodeclaim, n->nodeclaim, &i))
		return NULL;
	return kp_disruption_result_command_at(res, i);
}

/* 0, or -1 when out of memory (nothing written). */
static int print_text(FILE *out, const kp_disruption_result *res)
{
	kp__map by_nodeclaim = { 0 };
	if (index_commands(res, &by_nodeclaim)) {
		kp__map_free(&by_nodeclaim);
		return -1;
	}
	size_t nc = kp_disruption_result_command_count(res);
	if (!nc)
		fputs("No disruption command.\n\n", out);
	for (size_t i = 0; i < nc; i++)
		print_command(out, kp_disruption_result_command_at(res, i));
	size_t w = strlen("NODE");
	size_t n = kp_disruption_result_node_count(res);
	for (size_t i = 0; i < n; i++) {
		const kp_disruption_node *x = kp_disruption_result_node_at(res, i);
		const char *name = s_or(x->node, s_or(x->nodeclaim, "-"));
		if (strlen(name) > w)
			w = strlen(name);
	}
	fprintf(out, "%-*s   CANDIDATE   EMPTY   DRIFTED   CONSOLIDATABLE   WHY NOT\n", (int)w, "NODE");
	for (size_t i = 0; i < n; i++) {
		const kp_disruption_node *x = kp_disruption_result_node_at(res, i);
		const kp_disruption_why *why = first_reason(x);
		const kp_disruption_command *cmd = command_of(res, &by_nodeclaim, x);
		fprintf(out, "%-*s   %-9s   %-5s   %-7s   %-14s   ", (int)w,
			s_or(x->node, s_or(x->nodeclaim, "-")), x->candidate ? "yes" : "no",
			x->empty ? "yes" : "no", x->drifted ? "yes" : "no",
			x->consolidatable ? "yes" : "no");
		if (cmd)
			fprintf(out, "(pass %u: %s, %s)\n", cmd->pass, kp_disruption_method_name(cmd->method),
				kp_disruption_decision_name(cmd->decision));
		else if (why)
			fprintf(out, "%s: %s\n", kp_disruption_block_code_name(why->code), why->message);
		else
			fputs("-\n", out);
	}
	double before, after;
	kp_disruption_result_cost(res, &before, &after);
	fprintf(out, "\nCost: $%.4f/h before, $%.4f/h after (%zu command%s)\n", before, after, nc,
		nc == 1 ? "" : "s");
	kp__map_free(&by_nodeclaim);
	return 0;
}

/* ------------------------------------------------------------------ */
/* The command                                                         */

enum { OPT_FILE = 1, OPT_OUTPUT, OPT_INSTANCE_TYPES, OPT_NOW, OPT_PASSES, OPT_APPLY, OPT_GATES };

static const cli_option disrupt_options[] = {
	{ "--filename", "-f", OPT_FILE },
	{ "--output", "-o", OPT_OUTPUT },
	{ "--instance-types", NULL, OPT_INSTANCE_TYPES },
	{ "--now", NULL, OPT_NOW },
	{ "--passes", NULL, OPT_PASSES },
	{ "--apply", NULL, OPT_APPLY },
	{ "--feature-gates", NULL, OPT_GATES },
	CLI_AWS_OPTION_ROWS,
};

typedef struct args {
	const char **files, **apply;
	size_t n_files, n_apply;
	const char *catalogue;
	cli_aws_options aws; /* --provider aws and its options */
	int format, have_now;
	int64_t now_ms;
	kp_disruption_options opts;
} args;

static const cli_gate disrupt_gates[] = {
	{ KP_FEATURE_GATE_SPOT_TO_SPOT_CONSOLIDATION },
};

static int parse_passes(const char *val, kp_disruption_options *o)
{
	char *end = NULL;
	errno = 0;
	unsigned long n = strtoul(val, &end, 10);
	if (!*val || *end || errno || val[0] == '-' || n > 100000)
		return -1;
	if (n == 0) {
		o->flags |= KP_DISRUPTION_F_CONVERGE;
		o->max_passes = 0;
	} else {
		o->flags &= ~(uint32_t)KP_DISRUPTION_F_CONVERGE;
		o->max_passes = (uint32_t)n;
	}
	return 0;
}

/* 0, or CLI_USAGE after printing why. */
static int parse_args(int argc, char **argv, args *a, FILE *err)
{
	for (int i = 1; i < argc; i++) {
		const char *val = NULL;
		int id = cli_next_option(argc, argv, &i, disrupt_options,
					 sizeof(disrupt_options) / sizeof(disrupt_options[0]), &val, PROG, err);
		switch (id) {
		case 0:
			disrupt_usage(err);
			return CLI_USAGE;
		case OPT_FILE:
			a->files[a->n_files++] = val;
			break;
		case OPT_APPLY:
			if (!*val) {
				fprintf(err, "%s: --apply needs a file name\n", PROG);
				return CLI_USAGE;
			}
			a->apply[a->n_apply++] = val;
			break;
		case OPT_OUTPUT:
			if ((a->format = cli_parse_output(val, PROG, err)) < 0)
				return CLI_USAGE;
			break;
		case OPT_INSTANCE_TYPES:
			if (!*val) {
				fprintf(err, "%s: --instance-types needs a file name\n", PROG);
				return CLI_USAGE;
			}
			a->catalogue = val;
			break;
		case OPT_NOW:
			if (cli_parse_now(val, &a->now_ms, PROG, err))
				return CLI_USAGE;
			a->have_now = 1;
			break;
		case OPT_PASSES:
			if (parse_passes(val, &a->opts)) {
				fprintf(err, "%s: invalid value \"%s\" for --passes (an integer from 0 to 100000)\n",
					PROG, val);
				return CLI_USAGE;
			}
			break;
		case OPT_GATES:
			if (cli_parse_feature_gates(val, disrupt_gates,
						    sizeof(disrupt_gates) / sizeof(disrupt_gates[0]),
						    &a->opts.feature_gates, PROG, err))
				return CLI_USAGE;
			break;
		default: /* --provider aws and its options */
			if (cli_aws_take(&a->aws, id, val, PROG, err) != 1)
				return CLI_USAGE;
			break;
		}
	}
	if (cli_aws_check(&a->aws, PROG, err))
		return CLI_USAGE;
	if (a->aws.enabled) { /* --instance-types is then describe-instance-types output */
		a->aws.types_file = a->catalogue;
		a->catalogue = NULL;
	}
	if (!a->n_files) {
		fprintf(err, "%s: no input: give -f FILE or -f DIR (or -f - for stdin)\n", PROG);
		disrupt_usage(err);
		return CLI_USAGE;
	}
	/* -f and --apply are read as two inputs: stdin in both is given twice
	 * (within one of them, reading it says so) */
	int stdin_f = 0, stdin_apply = 0;
	for (size_t i = 0; i < a->n_files; i++)
		stdin_f |= !strcmp(a->files[i], "-");
	for (size_t i = 0; i < a->n_apply; i++)
		stdin_apply |= !strcmp(a->apply[i], "-");
	if (stdin_f && stdin_apply) {
		fprintf(err, "%s: stdin (-) given twice\n", PROG);
		return CLI_USAGE;
	}
	return CLI_OK;
}

static int disrupt_run(int argc, char **argv, FILE *out, FILE *err)
{
	args a;
	memset(&a, 0, sizeof(a));
	kp_disruption_options_init(&a.opts);
	a.format = CLI_OUT_TEXT;
	cli_aws_options aws_init = CLI_AWS_OPTIONS_INIT;
	a.aws = aws_init;
	cli_cluster_input in;
	memset(&in, 0, sizeof(in));
	in.aws = &a.aws;
	kp_disruption_result *res = NULL;
	kp_error e = KP_ERROR_INIT;
	int rc = CLI_INVALID;
	a.files = calloc((size_t)argc + 1, sizeof(*a.files));
	a.apply = calloc((size_t)argc + 1, sizeof(*a.apply));
	if (!a.files || !a.apply) {
		fprintf(err, "%s: out of memory\n", PROG);
		goto done;
	}
	if ((rc = parse_args(argc, argv, &a, err)) != CLI_OK)
		goto done;
	rc = cli_cluster_input_load(&in, a.files, a.n_files, a.catalogue, PROG, "nothing disrupted", err);
	if (rc == CLI_OK && a.n_apply) /* replace by kind, namespace and name, or join */
		rc = cli_cluster_input_replace(&in, a.apply, a.n_apply, PROG, "nothing disrupted",
					       err);
	if (rc != CLI_OK)
		goto done;
	rc = CLI_INVALID;
	kp_cluster_spec spec = KP_CLUSTER_SPEC_INIT;
	if (cli_cluster_input_spec(&in, &spec, PROG, err))
		goto done;
	spec.now_ms = a.have_now ? a.now_ms : cli_clock_now_ms();
	/* --provider aws: the provider's drift (NodeClassDrift) */
	if (a.aws.enabled && cli_aws_provider_new(&a.opts.cloudprovider, &in, PROG, err))
		goto done;
	if (kp_disruption_run(&res, &spec, &a.opts, &e)) {
		fprintf(err, "%s: %s%s%s\n", PROG, e.field[0] ? e.field : "", e.field[0] ? ": " : "",
			e.message);
		goto done;
	}
	if (a.format == CLI_OUT_TEXT && print_text(out, res)) {
		fprintf(err, "%s: out of memory\n", PROG);
		goto done;
	}
	if (a.format != CLI_OUT_TEXT && write_document(res, spec.now_ms, a.format, out, err))
		goto done;
	rc = CLI_OK;
done:
	kp_disruption_result_free(res);
	kp_cloudprovider_free(a.opts.cloudprovider);
	cli_cluster_input_free(&in);
	free((void *)a.files);
	free((void *)a.apply);
	return rc;
}

const cli_command cli_cmd_disrupt = {
	"disrupt", "Disruption: what Karpenter would delete or replace, and why not the rest",
	disrupt_run, disrupt_usage,
};
