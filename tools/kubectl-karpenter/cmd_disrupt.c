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
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include <karpenter/karpenter.h>
#include <karpenter/disruption.h>

#include "cli.h"
#include "cluster_input.h"
#include "output.h"

#define PROG "kubectl-karpenter disrupt"

static void disrupt_usage(FILE *out)
{
	fputs("Usage: kubectl-karpenter disrupt -f FILE|DIR [-f ...] [--now RFC3339]\n"
	      "                                 [--instance-types FILE] [--passes N]\n"
	      "                                 [--apply FILE ...]\n"
	      "                                 [--feature-gates SpotToSpotConsolidation=true]\n"
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
	      "                            more is found)\n"
	      "  --apply FILE              objects that replace (same kind and name) or join\n"
	      "                            the input first: which nodes drift (repeatable)\n"
	      "  --feature-gates GATES     SpotToSpotConsolidation=true|false\n"
	      "  -o, --output FORMAT       text (default), json or yaml\n"
	      "\n"
	      "Exit codes: 0 the input is valid (whether or not anything is disrupted),\n"
	      "1 invalid input, 2 usage error.\n", out);
}

/* ------------------------------------------------------------------ */
/* --apply: replace or join by kind and name                           */

static const char *obj_ns(uint32_t kind, const void *o)
{
	const kp_object_meta *m = NULL;
	switch (kind) {
	case KP_KIND_POD: m = ((const kp_pod *)o)->metadata; break;
	case KP_KIND_DAEMONSET: m = ((const kp_daemonset *)o)->metadata; break;
	case KP_KIND_PDB: m = ((const kp_pdb *)o)->metadata; break;
	case KP_KIND_PVC: m = ((const kp_pvc *)o)->metadata; break;
	default: return "";
	}
	return m && m->namespace_ && *m->namespace_ ? m->namespace_ : "default";
}

/* Every modelled kind starts with struct_size, kind, api_version, metadata. */
typedef struct obj_head {
	uint32_t struct_size, kind;
	const char *api_version;
	kp_object_meta *metadata;
} obj_head;

static const char *obj_name(const void *o)
{
	const obj_head *h = o;
	return h->metadata && h->metadata->name ? h->metadata->name : "";
}

static int merge_vec(cli_ptrvec *base, const cli_ptrvec *add, uint32_t kind)
{
	for (size_t i = 0; i < add->count; i++) {
		const void *a = add->items[i];
		size_t j = 0;
		for (; j < base->count; j++)
			if (!strcmp(obj_name(base->items[j]), obj_name(a)) &&
			    !strcmp(obj_ns(kind, base->items[j]), obj_ns(kind, a)))
				break;
		if (j < base->count)
			base->items[j] = a;
		else if (cli_ptrvec_push(base, a))
			return -1;
	}
	return 0;
}

/* @p kwok_kind: KWOKNodeClass's id in the registries (cluster-scoped). */
static int merge(cli_objects *b, const cli_objects *a, uint32_t kwok_kind)
{
	struct {
		cli_ptrvec *base;
		const cli_ptrvec *add;
		uint32_t kind;
	} v[] = {
		{ &b->nodepools, &a->nodepools, KP_KIND_NODEPOOL },
		{ &b->nodeclaims, &a->nodeclaims, KP_KIND_NODECLAIM },
		{ &b->kwok_nodeclasses, &a->kwok_nodeclasses, kwok_kind },
		{ &b->nodes, &a->nodes, KP_KIND_NODE },
		{ &b->pods, &a->pods, KP_KIND_POD },
		{ &b->daemonsets, &a->daemonsets, KP_KIND_DAEMONSET },
		{ &b->pdbs, &a->pdbs, KP_KIND_PDB },
		{ &b->pvcs, &a->pvcs, KP_KIND_PVC },
		{ &b->pvs, &a->pvs, KP_KIND_PV },
		{ &b->storage_classes, &a->storage_classes, KP_KIND_STORAGE_CLASS },
		{ &b->csi_nodes, &a->csi_nodes, KP_KIND_CSI_NODE },
		{ &b->namespaces, &a->namespaces, KP_KIND_NAMESPACE },
	};
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		if (merge_vec(v[i].base, v[i].add, v[i].kind))
			return -1;
	return 0;
}

/* ------------------------------------------------------------------ */
/* Result → document                                                   */

static cJSON *str_or_null(const char *s)
{
	return s ? cJSON_CreateString(s) : cJSON_CreateNull();
}

static cJSON *nodeclaim_json(const kp_nodeclaim *nc, kp_error *e)
{
	char *txt = NULL;
	size_t len = 0;
	if (kp_encode(&txt, &len, KP_KIND_NODECLAIM, nc, KP_FORMAT_JSON, 0, e))
		return NULL;
	cJSON *j = cJSON_ParseWithLength(txt, len);
	kp_encoded_free(txt);
	if (!j)
		snprintf(e->message, sizeof(e->message), "cannot read back an encoded NodeClaim");
	return j;
}

static int add_candidates(cJSON *cmd, const kp_disruption_command *c)
{
	cJSON *a = cJSON_AddArrayToObject(cmd, "candidates");
	if (!a)
		return -1;
	for (size_t i = 0; i < c->n_candidates; i++) {
		const kp_disruption_candidate *k = c->candidates[i];
		cJSON *o = cJSON_CreateObject();
		if (!o)
			return -1;
		cJSON_AddItemToArray(a, o);
		cJSON_AddItemToObject(o, "nodeClaim", str_or_null(k->nodeclaim));
		cJSON_AddItemToObject(o, "node", str_or_null(k->node));
		cJSON_AddItemToObject(o, "nodePool", str_or_null(k->nodepool));
		cJSON_AddItemToObject(o, "instanceType", str_or_null(k->instance_type));
		cJSON_AddItemToObject(o, "zone", str_or_null(k->zone));
		cJSON_AddItemToObject(o, "capacityType", str_or_null(k->capacity_type));
		if (!cJSON_AddNumberToObject(o, "price", k->price))
			return -1;
	}
	return 0;
}

static int add_replacements(cJSON *cmd, const kp_disruption_command *c, kp_error *e)
{
	cJSON *a = cJSON_AddArrayToObject(cmd, "replacements");
	if (!a)
		return -1;
	for (size_t i = 0; i < c->n_replacements; i++) {
		const kp_disruption_replacement *x = c->replacements[i];
		cJSON *o = cJSON_CreateObject();
		if (!o)
			return -1;
		cJSON_AddItemToArray(a, o);
		cJSON *nc = nodeclaim_json(x->nodeclaim, e);
		if (!nc)
			return -2;
		cJSON_AddItemToObject(o, "nodeClaim", nc);
		if (!cJSON_AddNumberToObject(o, "price", x->price))
			return -1;
	}
	return 0;
}

static int add_moves(cJSON *cmd, const kp_disruption_command *c)
{
	cJSON *a = cJSON_AddArrayToObject(cmd, "pods");
	if (!a)
		return -1;
	for (size_t i = 0; i < c->n_moves; i++) {
		const kp_disruption_move *m = c->moves[i];
		cJSON *o = cJSON_CreateObject();
		if (!o)
			return -1;
		cJSON_AddItemToArray(a, o);
		cJSON_AddItemToObject(o, "namespace", str_or_null(m->namespace_));
		cJSON_AddItemToObject(o, "name", str_or_null(m->name));
		cJSON_AddItemToObject(o, "from", str_or_null(m->from));
		cJSON_AddItemToObject(o, "nodeClaim", str_or_null(m->nodeclaim));
		cJSON_AddItemToObject(o, "node", str_or_null(m->node));
	}
	return 0;
}

static int add_commands(cJSON *doc, const kp_disruption_result *res, kp_error *e)
{
	cJSON *a = cJSON_AddArrayToObject(doc, "commands");
	if (!a)
		return -1;
	for (size_t i = 0; i < kp_disruption_result_command_count(res); i++) {
		const kp_disruption_command *c = kp_disruption_result_command(res, i);
		cJSON *o = cJSON_CreateObject();
		if (!o)
			return -1;
		cJSON_AddItemToArray(a, o);
		cJSON_AddNumberToObject(o, "pass", c->pass);
		cJSON_AddStringToObject(o, "method", kp_disruption_method_name(c->method));
		cJSON_AddStringToObject(o, "reason", c->reason);
		cJSON_AddStringToObject(o, "decision", kp_disruption_decision_name(c->decision));
		int r = add_candidates(o, c);
		if (!r)
			r = add_replacements(o, c, e);
		if (!r)
			r = add_moves(o, c);
		if (r)
			return r;
		if (!cJSON_AddNumberToObject(o, "savings", c->savings))
			return -1;
	}
	return 0;
}

static int add_nodes(cJSON *doc, const kp_disruption_result *res)
{
	cJSON *a = cJSON_AddArrayToObject(doc, "nodes");
	if (!a)
		return -1;
	for (size_t i = 0; i < kp_disruption_result_node_count(res); i++) {
		const kp_disruption_node *n = kp_disruption_result_node(res, i);
		cJSON *o = cJSON_CreateObject();
		if (!o)
			return -1;
		cJSON_AddItemToArray(a, o);
		cJSON_AddItemToObject(o, "nodeClaim", str_or_null(n->nodeclaim));
		cJSON_AddItemToObject(o, "node", str_or_null(n->node));
		cJSON_AddItemToObject(o, "nodePool", str_or_null(n->nodepool));
		cJSON_AddBoolToObject(o, "candidate", n->candidate);
		cJSON_AddBoolToObject(o, "empty", n->empty);
		if (n->drifted) {
			cJSON *d = cJSON_AddObjectToObject(o, "drifted");
			if (!d)
				return -1;
			cJSON_AddItemToObject(d, "reason", str_or_null(n->drift_reason));
			cJSON_AddItemToObject(d, "message", str_or_null(n->drift_message));
		} else {
			cJSON_AddNullToObject(o, "drifted");
		}
		cJSON_AddBoolToObject(o, "consolidatable", n->consolidatable);
		cJSON *rs = cJSON_AddArrayToObject(o, "reasons");
		if (!rs)
			return -1;
		for (size_t k = 0; k < n->n_reasons; k++) {
			const kp_disruption_why *w = n->reasons[k];
			cJSON *r = cJSON_CreateObject();
			if (!r)
				return -1;
			cJSON_AddItemToArray(rs, r);
			cJSON_AddStringToObject(r, "code", kp_disruption_block_code_name(w->code));
			cJSON_AddItemToObject(r, "method", w->method ? cJSON_CreateString(kp_disruption_method_name(w->method))
								       : cJSON_CreateNull());
			cJSON_AddItemToObject(r, "message", str_or_null(w->message));
		}
	}
	return 0;
}

static int add_budgets(cJSON *doc, const kp_disruption_result *res)
{
	cJSON *a = cJSON_AddArrayToObject(doc, "budgets");
	if (!a)
		return -1;
	for (size_t i = 0; i < kp_disruption_result_budget_count(res); i++) {
		const kp_disruption_budget_status *b = kp_disruption_result_budget(res, i);
		cJSON *o = cJSON_CreateObject();
		if (!o)
			return -1;
		cJSON_AddItemToArray(a, o);
		cJSON_AddItemToObject(o, "nodePool", str_or_null(b->nodepool));
		cJSON_AddItemToObject(o, "reason", str_or_null(b->reason));
		if (b->limited)
			cJSON_AddNumberToObject(o, "allowed", (double)b->allowed);
		else
			cJSON_AddNullToObject(o, "allowed");
		cJSON_AddNumberToObject(o, "disrupting", (double)b->disrupting);
		cJSON_AddNumberToObject(o, "remaining", b->limited ? (double)b->remaining
							   : (double)KP_DISRUPTION_UNLIMITED);
	}
	return 0;
}

static cJSON *result_document(const kp_disruption_result *res, int64_t now_ms, kp_error *e)
{
	char now[40];
	kp_time_format_rfc3339(now_ms, now, sizeof(now));
	cJSON *doc = cJSON_CreateObject();
	if (!doc || !cJSON_AddStringToObject(doc, "now", now))
		goto oom;
	int r = add_commands(doc, res, e);
	if (r == -2) {
		cJSON_Delete(doc);
		return NULL;
	}
	if (r || add_nodes(doc, res) || add_budgets(doc, res))
		goto oom;
	double before, after;
	kp_disruption_result_cost(res, &before, &after);
	cJSON *cost = cJSON_AddObjectToObject(doc, "cost");
	if (!cost || !cJSON_AddNumberToObject(cost, "before", before) ||
	    !cJSON_AddNumberToObject(cost, "after", after))
		goto oom;
	return doc;
oom:
	cJSON_Delete(doc);
	snprintf(e->message, sizeof(e->message), "out of memory");
	return NULL;
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

/* The command that disrupts this node, if any. */
static const kp_disruption_command *command_of(const kp_disruption_result *res,
					       const kp_disruption_node *n)
{
	for (size_t i = 0; i < kp_disruption_result_command_count(res); i++) {
		const kp_disruption_command *c = kp_disruption_result_command(res, i);
		for (size_t k = 0; k < c->n_candidates; k++)
			if (n->nodeclaim && c->candidates[k]->nodeclaim &&
			    !strcmp(n->nodeclaim, c->candidates[k]->nodeclaim))
				return c;
	}
	return NULL;
}

static void print_text(FILE *out, const kp_disruption_result *res)
{
	size_t nc = kp_disruption_result_command_count(res);
	if (!nc)
		fputs("No disruption command.\n\n", out);
	for (size_t i = 0; i < nc; i++)
		print_command(out, kp_disruption_result_command(res, i));
	size_t w = strlen("NODE");
	size_t n = kp_disruption_result_node_count(res);
	for (size_t i = 0; i < n; i++) {
		const kp_disruption_node *x = kp_disruption_result_node(res, i);
		const char *name = s_or(x->node, s_or(x->nodeclaim, "-"));
		if (strlen(name) > w)
			w = strlen(name);
	}
	fprintf(out, "%-*s   CANDIDATE   EMPTY   DRIFTED   CONSOLIDATABLE   WHY NOT\n", (int)w, "NODE");
	for (size_t i = 0; i < n; i++) {
		const kp_disruption_node *x = kp_disruption_result_node(res, i);
		const kp_disruption_why *why = first_reason(x);
		const kp_disruption_command *cmd = command_of(res, x);
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
};

typedef struct args {
	const char **files, **apply;
	size_t n_files, n_apply;
	const char *catalogue;
	int format, have_now;
	int64_t now_ms;
	kp_disruption_options opts;
} args;

static const cli_gate disrupt_gates[] = {
	{ "SpotToSpotConsolidation", KP_DISRUPTION_F_SPOT_TO_SPOT },
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
						    &a->opts.flags, PROG, err))
				return CLI_USAGE;
			break;
		}
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

static int write_document(const kp_disruption_result *res, int64_t now_ms, int format, FILE *out,
			  FILE *err)
{
	kp_error e = KP_ERROR_INIT;
	cJSON *doc = result_document(res, now_ms, &e);
	if (!doc) {
		fprintf(err, "%s: %s\n", PROG, e.message);
		return -1;
	}
	char *bad = NULL;
	int r = format == CLI_OUT_JSON ? cli_output_json(out, doc, &bad)
				       : cli_output_yaml(out, doc, &bad);
	cJSON_Delete(doc);
	if (r) {
		if (r == CLI_OUTPUT_NONFINITE)
			fprintf(err, "%s: cannot write %s: not a finite number\n", PROG, bad ? bad : "a number");
		else
			fprintf(err, "%s: out of memory\n", PROG);
		free(bad);
		return -1;
	}
	return 0;
}

static int disrupt_run(int argc, char **argv, FILE *out, FILE *err)
{
	args a;
	memset(&a, 0, sizeof(a));
	kp_disruption_options_init(&a.opts);
	a.format = CLI_OUT_TEXT;
	cli_cluster_input in, ap;
	memset(&in, 0, sizeof(in));
	memset(&ap, 0, sizeof(ap));
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
	if (rc == CLI_OK && a.n_apply)
		rc = cli_cluster_input_load(&ap, a.apply, a.n_apply, a.catalogue, PROG,
					    "nothing disrupted", err);
	if (rc != CLI_OK)
		goto done;
	rc = CLI_INVALID;
	if (a.n_apply && merge(&in.objs, &ap.objs, in.kwok_kind)) {
		fprintf(err, "%s: out of memory\n", PROG);
		goto done;
	}
	kp_cluster_spec spec = KP_CLUSTER_SPEC_INIT;
	if (cli_cluster_input_spec(&in, &spec, PROG, err))
		goto done;
	spec.now_ms = a.have_now ? a.now_ms : cli_clock_now_ms();
	if (kp_disruption_run(&res, &spec, &a.opts, &e)) {
		fprintf(err, "%s: %s%s%s\n", PROG, e.field[0] ? e.field : "", e.field[0] ? ": " : "",
			e.message);
		goto done;
	}
	if (a.format == CLI_OUT_TEXT)
		print_text(out, res);
	else if (write_document(res, spec.now_ms, a.format, out, err))
		goto done;
	rc = CLI_OK;
done:
	kp_disruption_result_free(res);
	cli_cluster_input_free(&ap);
	cli_cluster_input_free(&in);
	free((void *)a.files);
	free((void *)a.apply);
	return rc;
}

const cli_command cli_cmd_disrupt = {
	"disrupt", "Disruption: what Karpenter would delete or replace, and why not the rest",
	disrupt_run, disrupt_usage,
};
