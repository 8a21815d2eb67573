/*
 * kubectl-karpenter instance-types: the instance types a NodePool (with its
 * node class) may launch, as the provider computes them: capacity,
 * overhead, allocatable and offerings (issue 21 item 4).
 *
 * --provider kwok reads upstream KWOK's catalogue (--instance-types FILE or
 * the built-in one); --provider aws builds libkarpenter-aws's instance types
 * from DescribeInstanceTypes/-Offerings/SpotPriceHistory dumps or the
 * shipped data, with the NodePool's EC2NodeClass.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <karpenter/karpenter.h>
#include <karpenter/kwok.h>
#define KP_EXPERIMENTAL_API 1
#include <karpenter/sys/kwok.h>
#ifdef KP_HAVE_AWS
#include <karpenter/aws_ec2nodeclass.h>
#endif

#include "aws_input.h"
#include "cli.h"
#include "cluster_input.h"
#include "manifests.h"
#include "writer.h"

#define PROG "kubectl-karpenter instance-types"

static void usage(FILE *out)
{
	fputs("Usage: kubectl-karpenter instance-types [--provider kwok|aws] [-f FILE ...]\n"
	      "         [--nodepool NAME] [--region R] [--instance-types FILE]\n"
	      "         [--offerings FILE] [--spot-prices FILE] [--reserved-enis N]\n"
	      "         [--vm-memory-overhead-percent F] [-o text|json|yaml|wide]\n"
	      "\n"
	      "The instance types a NodePool (with its node class) may launch, as the provider\n"
	      "computes them: capacity, overhead (kube-reserved, system-reserved, eviction\n"
	      "threshold), allocatable and offerings (zone, capacity type, price, availability).\n"
	      "With --nodepool, only the types the NodePool's requirements admit are listed, each\n"
	      "with all its offerings, and an offering the NodePool excludes is not available.\n"
	      "\n"
	      "Options:\n"
	      "  -f, --filename FILE       manifests (NodePools, EC2NodeClasses); '-' for stdin\n"
	      "  --instance-types FILE     with --provider kwok: upstream KWOK's JSON\n",
	      out);
	fputs(cli_aws_usage, out);
	fputs("  -o, --output FORMAT       text (default), wide, json or yaml\n"
	      "\n"
	      "The shipped AWS data is read from $KARPENTER_AWS_DATA (a folder with\n"
	      "instance-types.json, instance-type-offerings.json, vpc-limits.json, bandwidth.json\n"
	      "and pricing-on-demand*.json), else from the folder set at build time.\n"
	      "Exit codes: 0 success, 1 invalid input, 2 usage error.\n",
	      out);
}

enum { OPT_FILE = 1, OPT_NODEPOOL, OPT_INSTANCE_TYPES, OPT_OUTPUT };

static const cli_option options[] = {
	{ "--filename", "-f", OPT_FILE },
	{ "--nodepool", NULL, OPT_NODEPOOL },
	{ "--instance-types", NULL, OPT_INSTANCE_TYPES },
	{ "--output", "-o", OPT_OUTPUT },
	CLI_AWS_OPTION_ROWS,
};

typedef struct state {
	cli_aws_options aws;
	int wide;
	int format;
	const char *nodepool_name;
	cli_manifests ms;
	kp_registry *registry;
	uint32_t aws_kind;
	kp_decode_result **results;
	size_t n_results;
	const kp_decoded_object *nodepool; /* the chosen one */
	const kp_decoded_object *nodeclass;
	size_t n_nodeclasses;
	const kp_decoded_object *only_nodeclass;
	kp_instance_types *its;
	kp_wellknown *wk;
	kp_requirements *reqs;
} state;

static int oom(FILE *err)
{
	fputs(PROG ": out of memory\n", err);
	return CLI_INVALID;
}

/* ------------------------------------------------------------------ */
/* Input                                                               */

static int read_manifests(state *s, FILE *err)
{
	kp_error e = KP_ERROR_INIT;
	uint32_t kwok_kind = 0;
	int rc = cli_registry_new(&s->registry, &kwok_kind, &e);
#ifdef KP_HAVE_AWS
	if (rc == KP_OK && s->aws.enabled)
		rc = kp_aws_register(s->registry, NULL, &s->aws_kind, &e);
#endif
	if (rc == KP_ENOMEM)
		return oom(err);
	if (rc) {
		fprintf(err, PROG ": %s\n", e.message);
		return CLI_INVALID;
	}
	for (size_t i = 0; i < s->ms.count; i++) {
		kp_decode_options dopts = KP_DECODE_OPTIONS_INIT;
		dopts.registry = s->registry;
		kp_decode_result *res = NULL;
		int usage_error = 0;
		rc = cli_manifest_decode(&s->ms, i, &dopts, &res, &e, &usage_error);
		if (usage_error) {
			fprintf(err, PROG ": %s\n", e.message);
			return CLI_USAGE;
		}
		if (rc == KP_ENOMEM)
			return oom(err);
		if (rc) {
			fprintf(err, PROG ": %s: %s\n", s->ms.items[i].name, e.message);
			return CLI_INVALID;
		}
		void *p = realloc(s->results, (s->n_results + 1) * sizeof(*s->results));
		if (!p) {
			kp_decode_result_free(res);
			return oom(err);
		}
		s->results = p;
		s->results[s->n_results++] = res;
		for (size_t j = 0; j < kp_decode_result_count(res); j++) {
			const kp_decoded_object *o = kp_decode_result_at(res, j);
			if (o->kind == KP_KIND_NODEPOOL) {
				rc = kp_nodepool_default(o->object, &e);
				if (rc) {
					fprintf(err, PROG ": %s: NodePool/%s: %s%s%s\n", s->ms.items[i].name,
						o->name, e.field, *e.field ? ": " : "", e.message);
					return rc == KP_ENOMEM ? oom(err) : CLI_INVALID;
				}
				if (s->nodepool_name && !strcmp(o->name, s->nodepool_name)) {
					if (s->nodepool) {
						fprintf(err, PROG ": NodePool/%s is given twice\n", o->name);
						return CLI_INVALID;
					}
					s->nodepool = o;
				}
			} else if (s->aws.enabled && s->aws_kind && o->kind == s->aws_kind) {
				s->n_nodeclasses++;
				s->only_nodeclass = o;
			}
		}
	}
	if (s->nodepool_name && !s->nodepool) {
		fprintf(err, PROG ": NodePool/%s is not in the input\n", s->nodepool_name);
		return CLI_INVALID;
	}
	return CLI_OK;
}

/* The NodePool's requirements: spec.template.spec.requirements and the
 * template's labels (upstream NodeClaimTemplate requirements). */
static int nodepool_requirements(state *s, FILE *err)
{
	const kp_nodepool *np = s->nodepool->object;
	const kp_nodeclaim_template *t = np->spec ? np->spec->template_ : NULL;
	const kp_nodeclaim_spec *spec = t ? t->spec : NULL;
	size_t n = spec ? spec->n_requirements : 0;
	kp_node_selector_requirement *sels = calloc(n ? n : 1, sizeof(*sels));
	const kp_node_selector_requirement **ptrs = calloc(n ? n : 1, sizeof(*ptrs));
	kp_error e = KP_ERROR_INIT;
	int rc = sels && ptrs ? KP_OK : KP_ENOMEM;
	for (size_t i = 0; rc == KP_OK && i < n; i++) {
		kp_node_selector_requirement init = KP_NODE_SELECTOR_REQUIREMENT_INIT;
		sels[i] = init;
		ptrs[i] = &sels[i];
		rc = kp_nodeclaim_requirement_view(spec->requirements[i], &sels[i], &e);
	}
	if (rc == KP_OK)
		rc = kp_requirements_from_selectors(&s->reqs, ptrs, n, s->wk, &e);
	free(sels);
	free(ptrs);
	if (rc == KP_OK && t && t->metadata && t->metadata->labels.count) {
		kp_requirements *lr = NULL;
		rc = kp_requirements_from_labels(&lr, &t->metadata->labels, s->wk, &e);
		if (rc == KP_OK)
			rc = kp_requirements_add_all(s->reqs, lr, &e);
		kp_requirements_free(lr);
	}
	if (rc == KP_ENOMEM)
		return oom(err);
	if (rc) {
		fprintf(err, PROG ": NodePool/%s: %s%s%s\n", s->nodepool->name, e.field,
			*e.field ? ": " : "", e.message);
		return CLI_INVALID;
	}
	return CLI_OK;
}

static int kwok_catalogue(state *s, FILE *err)
{
	kp_error e = KP_ERROR_INIT;
	int rc;
	if (s->aws.types_file) {
		char *text = NULL;
		size_t len = 0;
		if ((rc = cli_read_file(s->aws.types_file, KP_KWOK_CATALOG_MAX_BYTES,
					"an instance-type catalogue", &text, &len, PROG, err)))
			return rc;
		rc = kp_kwok_catalog_parse(&s->its, text, len, s->aws.types_file, &e);
		free(text);
	} else {
		rc = kp_kwok_catalog_builtin(&s->its, &e);
	}
	if (rc == KP_ENOMEM)
		return oom(err);
	if (rc) {
		fprintf(err, PROG ": --instance-types: %s\n", e.message);
		return CLI_INVALID;
	}
	return CLI_OK;
}

/* The EC2NodeClass the listing uses: the NodePool's nodeClassRef, else
 * the only one given; NULL for the defaults. */
static int pick_nodeclass(state *s, const kp_decoded_object **out, FILE *err)
{
	*out = NULL;
	if (!s->nodepool) {
		if (s->n_nodeclasses == 1)
			*out = s->only_nodeclass;
		return CLI_OK;
	}
	const kp_nodepool *np = s->nodepool->object;
	const kp_nodeclaim_spec *spec = np->spec && np->spec->template_ ? np->spec->template_->spec
									: NULL;
	const kp_node_class_reference *ref = spec ? spec->node_class_ref : NULL;
	for (size_t r = 0; ref && ref->name && r < s->n_results; r++)
		for (size_t j = 0; j < kp_decode_result_count(s->results[r]); j++) {
			const kp_decoded_object *d = kp_decode_result_at(s->results[r], j);
			if (d->kind == s->aws_kind && !strcmp(d->name, ref->name))
				*out = d;
		}
	if (!*out) {
		fprintf(err, PROG ": EC2NodeClass/%s (the nodeClassRef of NodePool/%s) is not in the "
			"input\n", ref && ref->name ? ref->name : "", s->nodepool->name);
		return CLI_INVALID;
	}
	return CLI_OK;
}

static int aws_catalogue(state *s, FILE *err)
{
	const kp_decoded_object *nc = NULL;
	struct kp_aws_catalog *cat = NULL;
	int rc = pick_nodeclass(s, &nc, err);
	if (rc == CLI_OK)
		rc = cli_aws_catalog_load(&cat, &s->aws, PROG, err);
	if (rc == CLI_OK)
		rc = cli_aws_instance_types(&s->its, cat, &s->aws, nc ? nc->object : NULL,
					    nc ? nc->name : NULL, PROG, err);
	cli_aws_catalog_free(cat);
	if (rc == CLI_OK && cli_aws_wellknown(s->wk))
		rc = oom(err);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Output                                                              */

static int offering_available(const state *s, const kp_offering *of)
{
	return of->available && (!s->reqs || kp_offering_compatible(of, s->reqs, s->wk));
}

static int admitted(const state *s, const kp_instance_type *it)
{
	return !s->reqs || kp_requirements_intersects(it->requirements, s->reqs, NULL) == KP_OK;
}

static void quantity_text(const kp_resource_list *l, const char *name, char *buf, size_t size)
{
	kp_quantity q;
	if (kp_resources_get(&q, l, name, NULL) != KP_OK)
		snprintf(buf, size, "-");
	else
		kp_quantity_format(&q, buf, size);
}

static void cheapest(const state *s, const kp_instance_type *it, const char *ct, char *buf,
		     size_t size)
{
	const kp_offering *best = NULL;
	for (size_t i = 0; i < it->n_offerings; i++) {
		const kp_offering *of = it->offerings[i];
		if (!strcmp(of->capacity_type, ct) && offering_available(s, of) &&
		    (!best || of->price < best->price))
			best = of;
	}
	if (best)
		snprintf(buf, size, "%.6g", best->price);
	else
		snprintf(buf, size, "-");
}

/* The zones of the available offerings, distinct, comma-separated; the
 * caller frees. */
static char *zones_text(const state *s, const kp_instance_type *it)
{
	size_t cap = 1;
	for (size_t i = 0; i < it->n_offerings; i++)
		cap += strlen(it->offerings[i]->zone) + 1;
	char *t = malloc(cap);
	if (!t)
		return NULL;
	t[0] = 0;
	size_t len = 0;
	for (size_t i = 0; i < it->n_offerings; i++) {
		const kp_offering *of = it->offerings[i];
		if (!offering_available(s, of))
			continue;
		int seen = 0;
		for (size_t j = 0; j < i && !seen; j++)
			seen = !strcmp(it->offerings[j]->zone, of->zone) &&
			       offering_available(s, it->offerings[j]);
		if (seen)
			continue;
		len += (size_t)sprintf(t + len, "%s%s", len ? "," : "", of->zone);
	}
	if (!len)
		strcpy(t, "-");
	return t;
}

static const char *single_label(const kp_instance_type *it, const char *key)
{
	kp_requirement *r = kp_requirements_get(it->requirements, key);
	if (r && kp_requirement_operator(r) == KP_SELECTOR_OP_IN && kp_requirement_len(r) == 1)
		return kp_requirement_value_at(r, 0);
	return "-";
}

static int write_text(state *s, FILE *out, FILE *err)
{
	if (s->wide)
		fprintf(out, "%-20s %-6s %-5s %-10s %-5s %-9s %-10s %-10s %-10s %-10s %s\n", "NAME",
			"ARCH", "CPU", "MEMORY", "PODS", "ALLOC-CPU", "ALLOC-MEM", "EPHEMERAL",
			"ON-DEMAND", "SPOT", "ZONES");
	else
		fprintf(out, "%-20s %-5s %-10s %-5s %-9s %-10s %-10s %-10s %s\n", "NAME", "CPU",
			"MEMORY", "PODS", "ALLOC-CPU", "ALLOC-MEM", "ON-DEMAND", "SPOT", "ZONES");
	for (size_t i = 0; i < kp_instance_types_count(s->its); i++) {
		const kp_instance_type *it = kp_instance_types_at(s->its, i);
		if (!admitted(s, it))
			continue;
		char cpu[KP_QUANTITY_STRING_MAX], mem[KP_QUANTITY_STRING_MAX],
			pods[KP_QUANTITY_STRING_MAX], acpu[KP_QUANTITY_STRING_MAX],
			amem[KP_QUANTITY_STRING_MAX], eph[KP_QUANTITY_STRING_MAX], od[32], spot[32];
		quantity_text(it->capacity, "cpu", cpu, sizeof(cpu));
		quantity_text(it->capacity, "memory", mem, sizeof(mem));
		quantity_text(it->capacity, "pods", pods, sizeof(pods));
		quantity_text(it->allocatable, "cpu", acpu, sizeof(acpu));
		quantity_text(it->allocatable, "memory", amem, sizeof(amem));
		quantity_text(it->allocatable, "ephemeral-storage", eph, sizeof(eph));
		cheapest(s, it, "on-demand", od, sizeof(od));
		cheapest(s, it, "spot", spot, sizeof(spot));
		char *zones = zones_text(s, it);
		if (!zones)
			return oom(err);
		if (s->wide)
			fprintf(out, "%-20s %-6s %-5s %-10s %-5s %-9s %-10s %-10s %-10s %-10s %s\n",
				it->name, single_label(it, "kubernetes.io/arch"), cpu, mem, pods, acpu,
				amem, eph, od, spot, zones);
		else
			fprintf(out, "%-20s %-5s %-10s %-5s %-9s %-10s %-10s %-10s %s\n", it->name,
				cpu, mem, pods, acpu, amem, od, spot, zones);
		free(zones);
	}
	return CLI_OK;
}

static void write_resources(cli_writer *w, const char *key, const kp_resource_list *l)
{
	kp_emitter_key(w, key);
	kp_emitter_begin_object(w);
	for (size_t i = 0; i < l->count; i++) {
		char q[KP_QUANTITY_STRING_MAX];
		kp_quantity_format(&l->items[i].quantity, q, sizeof(q));
		kp__emit_member_string(w, l->items[i].name, q);
	}
	kp_emitter_end_object(w);
}

static int write_doc(state *s, FILE *out, FILE *err)
{
	cli_writer *w = cli_writer_new(out, s->format == CLI_OUT_YAML ? CLI_WRITER_YAML
								       : CLI_WRITER_JSON);
	if (!w)
		return oom(err);
	kp_emitter_begin_array(w);
	for (size_t i = 0; i < kp_instance_types_count(s->its); i++) {
		const kp_instance_type *it = kp_instance_types_at(s->its, i);
		if (!admitted(s, it))
			continue;
		kp_emitter_begin_object(w);
		kp__emit_member_string(w, "name", it->name);
		kp_emitter_key(w, "labels");
		kp_emitter_begin_object(w);
		/* single-valued labels only, sorted by key */
		size_t n = kp_requirements_count(it->requirements);
		const char **keys = calloc(n ? n : 1, sizeof(*keys));
		if (!keys) {
			cli_writer_close(w, out);
			return oom(err);
		}
		size_t k = 0;
		for (size_t r = 0; r < n; r++) {
			kp_requirement *q = kp_requirements_at(it->requirements, r);
			if (kp_requirement_operator(q) == KP_SELECTOR_OP_IN && kp_requirement_len(q) == 1)
				keys[k++] = kp_requirement_key(q);
		}
		for (size_t a = 1; a < k; a++)
			for (size_t b = a; b > 0 && strcmp(keys[b - 1], keys[b]) > 0; b--) {
				const char *x = keys[b];
				keys[b] = keys[b - 1];
				keys[b - 1] = x;
			}
		for (size_t a = 0; a < k; a++)
			kp__emit_member_string(w, keys[a], single_label(it, keys[a]));
		free(keys);
		kp_emitter_end_object(w);
		write_resources(w, "capacity", it->capacity);
		kp_emitter_key(w, "overhead");
		kp_emitter_begin_object(w);
		write_resources(w, "kubeReserved", it->kube_reserved);
		write_resources(w, "systemReserved", it->system_reserved);
		write_resources(w, "evictionThreshold", it->eviction_threshold);
		kp_emitter_end_object(w);
		write_resources(w, "allocatable", it->allocatable);
		kp_emitter_key(w, "offerings");
		kp_emitter_begin_array(w);
		for (size_t o = 0; o < it->n_offerings; o++) {
			const kp_offering *of = it->offerings[o];
			kp_emitter_begin_object(w);
			kp__emit_member_string(w, "zone", of->zone);
			kp__emit_member_string(w, "capacityType", of->capacity_type);
			kp__emit_member_number(w, "price", of->price);
			kp__emit_member_bool(w, "available", offering_available(s, of));
			if (of->reservation_id)
				kp__emit_member_string(w, "reservationID", of->reservation_id);
			else {
				kp_emitter_key(w, "reservationID");
				kp_emitter_null(w);
			}
			kp_emitter_end_object(w);
		}
		kp_emitter_end_array(w);
		kp_emitter_end_object(w);
	}
	kp_emitter_end_array(w);
	return cli_writer_finish(w, out, 0, PROG, err);
}

/* ------------------------------------------------------------------ */

static void state_free(state *s)
{
	for (size_t i = 0; i < s->n_results; i++)
		kp_decode_result_free(s->results[i]);
	free(s->results);
	kp_registry_free(s->registry);
	kp_instance_types_free(s->its);
	kp_requirements_free(s->reqs);
	kp_wellknown_free(s->wk);
	cli_manifests_free(&s->ms);
}

static int parse_args(state *s, int argc, char **argv, FILE *err)
{
	for (int i = 1; i < argc; i++) {
		const char *val = NULL;
		int id = cli_next_option(argc, argv, &i, options,
					 sizeof(options) / sizeof(options[0]), &val, PROG, err);
		switch (id) {
		case 0:
			return CLI_USAGE;
		case OPT_FILE: {
			int rc = cli_manifests_add(&s->ms, val, PROG, err);
			if (rc)
				return rc;
			break;
		}
		case OPT_NODEPOOL:
			s->nodepool_name = val;
			break;
		case OPT_INSTANCE_TYPES:
			s->aws.types_file = val;
			break;
		case OPT_OUTPUT:
			s->wide = !strcmp(val, "wide");
			s->format = cli_parse_output(val, PROG, err);
			if (s->format < 0)
				return CLI_USAGE;
			break;
		default:
			/* --provider and the AWS options */
			if (cli_aws_take(&s->aws, id, val, PROG, err) != 1)
				return CLI_USAGE;
			break;
		}
	}
	return cli_aws_check(&s->aws, PROG, err);
}

static int run(int argc, char **argv, FILE *out, FILE *err)
{
	state s;
	memset(&s, 0, sizeof(s));
	cli_manifests init = CLI_MANIFESTS_INIT;
	s.ms = init;
	cli_aws_options aws_init = CLI_AWS_OPTIONS_INIT;
	s.aws = aws_init;
	s.format = CLI_OUT_TEXT;
	int rc = parse_args(&s, argc, argv, err);
	if (rc == CLI_OK && s.nodepool_name && !s.ms.count) {
		fputs(PROG ": --nodepool needs the NodePool's manifest (-f FILE)\n", err);
		rc = CLI_USAGE;
	}
	if (rc == CLI_OK)
		rc = read_manifests(&s, err);
	if (rc == CLI_OK && kp_wellknown_new(&s.wk, NULL) != KP_OK)
		rc = oom(err);
	if (rc == CLI_OK) {
		rc = s.aws.enabled ? aws_catalogue(&s, err) : kwok_catalogue(&s, err);
	}
	if (rc == CLI_OK && s.nodepool)
		rc = nodepool_requirements(&s, err);
	if (rc == CLI_OK)
		rc = s.format == CLI_OUT_TEXT ? write_text(&s, out, err) : write_doc(&s, out, err);
	state_free(&s);
	return rc;
}

const cli_command cli_cmd_instance_types = {
	"instance-types",
	"list the instance types a NodePool may launch, as the provider computes them",
	run,
	usage,
};
