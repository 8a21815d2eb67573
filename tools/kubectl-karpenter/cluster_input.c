/*
 * kubectl-karpenter: reading a cluster the way every cluster command does.
 * See cluster_input.h.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#define KP_EXPERIMENTAL_API 1 /* KWOKNodeClass is registered (karpenter/sys/kwok.h) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <karpenter/karpenter.h>
#include <karpenter/kwok.h>
#include <karpenter/sys/kwok.h>
#ifdef KP_HAVE_AWS
#include <karpenter/aws_ec2nodeclass.h>
#endif

#include "cli.h"
#include "cluster_input.h"
#include "common/map.h"


/* ------------------------------------------------------------------ */
/* Loading: the library's builder decides what a cluster holds         */

int cli_registry_new(struct kp_registry **out, uint32_t *kwok_kind, kp_error *err)
{
	kp_registry *reg = NULL;
	int rc = kp_registry_new(&reg, err);
	if (rc == KP_OK && (rc = kp_kwok_register(reg, kwok_kind, err)) != KP_OK) {
		kp_registry_free(reg);
		reg = NULL;
	}
	*out = reg;
	return rc;
}

static int load_catalogue(cli_cluster_input *in, const char *catalogue, const char *prog,
			  FILE *err)
{
	kp_error e = KP_ERROR_INIT;
	if (in->aws && in->aws->enabled) {
		/* the types are built per EC2NodeClass (cli_cluster_input_spec) */
		int rc = cli_aws_catalog_load(&in->aws_catalog, in->aws, prog, err);
		if (rc == CLI_OK && (kp_wellknown_new(&in->wk, &e) || cli_aws_wellknown(in->wk))) {
			fprintf(err, "%s: out of memory\n", prog);
			rc = CLI_INVALID;
		}
		return rc;
	}
	if (catalogue) {
		/* Read here rather than by kp_kwok_catalog_load_file, so that a
		 * catalogue that cannot be read (missing, a directory, too
		 * large) is a usage error exactly as an -f path; only a
		 * catalogue that is read and refused is invalid input. */
		char *text = NULL;
		size_t len = 0;
		/* prog is one of the commands' constant names: bounded. */
		char where[64];
		snprintf(where, sizeof(where), "%.40s: --instance-types", prog);
		int rc = cli_read_file(catalogue, KP_KWOK_CATALOG_MAX_BYTES,
				       "an instance-type catalogue", &text, &len, where, err);
		if (rc)
			return rc;
		int r = kp_kwok_catalog_parse(&in->its, text, len, catalogue, &e);
		free(text);
		if (r) {
			fprintf(err, "%s: --instance-types: %s\n", prog, e.message);
			return CLI_INVALID;
		}
	} else if (kp_kwok_catalog_builtin(&in->its, &e)) {
		fprintf(err, "%s: %s\n", prog, e.message);
		return CLI_INVALID;
	}
	if (kp_wellknown_new(&in->wk, &e) || kp_kwok_wellknown_add(in->wk, in->its, &e)) {
		fprintf(err, "%s: %s\n", prog, e.message);
		return CLI_INVALID;
	}
	return CLI_OK;
}

/* Print the problems the builder listed since @p *printed, as the API
 * server names them: "FILE: OBJECT: FIELD: MESSAGE", warnings with
 * "Warning: ", an object given twice with both files. */
static void print_problems(cli_cluster_input *in, const char *prog, FILE *err)
{
	size_t n = kp_cluster_builder_problem_count(in->builder);
	for (; in->n_printed < n; in->n_printed++) {
		const kp_builder_problem *p = kp_cluster_builder_problem_at(in->builder,
									    in->n_printed);
		switch (p->type) {
		case KP_BUILDER_PROBLEM_DUPLICATE:
			fprintf(err, "%s: %s given twice (in %s and %s)\n", prog, p->object,
				p->first_source, p->source);
			break;
		case KP_BUILDER_PROBLEM_WARNING:
			fprintf(err, "Warning: %s: %s: %s: %s\n", p->source, p->object, p->field,
				p->message);
			break;
		default:
			fprintf(err, "%s: %s: %s: %s\n", p->source, p->object, p->field,
				p->message);
			in->invalid = 1;
		}
		if (p->type == KP_BUILDER_PROBLEM_DUPLICATE)
			in->invalid = 1;
	}
}

/* Decode manifests [first, count) and give their objects to the builder
 * (@p flags: kp_builder_add_flags); a kind it does not read is reported as
 * skipped. CLI_OK, CLI_USAGE or CLI_INVALID (out of memory, printed);
 * invalid objects set in->invalid. */
static int add_files(cli_cluster_input *in, size_t first, uint32_t flags, const char *prog,
		     FILE *err)
{
	kp_error e = KP_ERROR_INIT;
	size_t count = in->manifests.count;
	kp_decode_result **d = realloc(in->decoded, (count ? count : 1) * sizeof(*d));
	if (!d) {
		fprintf(err, "%s: out of memory\n", prog);
		return CLI_INVALID;
	}
	in->decoded = d;
	for (size_t i = in->n_decoded; i < count; i++)
		in->decoded[i] = NULL;
	in->n_decoded = count;
	if (in->read_volume_attachments)
		flags |= KP_BUILDER_ADD_VOLUME_ATTACHMENTS;
	for (size_t i = first; i < count; i++) {
		const cli_manifest *m = &in->manifests.items[i];
		kp_decode_options dopts = KP_DECODE_OPTIONS_INIT;
		dopts.registry = in->registry;
		int usage = 0;
		if (cli_manifest_decode(&in->manifests, i, &dopts, &in->decoded[i], &e, &usage)) {
			fprintf(err, "%s: %s\n", usage ? prog : m->name, e.message);
			if (usage)
				return CLI_USAGE;
			in->invalid = 1;
			continue;
		}
		kp_decode_result *res = in->decoded[i];
		for (size_t k = 0; k < kp_decode_result_count(res); k++) {
			const kp_decoded_object *o = kp_decode_result_at(res, k);
			if (!kp_cluster_builder_reads(in->builder, o->kind) &&
			    !(o->kind == KP_KIND_VOLUME_ATTACHMENT && in->read_volume_attachments))
				fprintf(err, "%s: %s: skipped %s/%s (%s): not a kind this command "
					"reads\n", prog, m->name, o->kind_name, o->name, o->api_version);
		}
		if (kp_cluster_builder_add_decoded(in->builder, res, m->name, flags, &e)) {
			fprintf(err, "%s: %s\n", prog, e.message);
			return CLI_INVALID;
		}
		print_problems(in, prog, err);
	}
	return CLI_OK;
}

/* Read every path first (an unreadable one is a usage error before any
 * output), then add them; "invalid input, WHAT" after the problems. */
static int add_paths(cli_cluster_input *in, const char *const *files, size_t n_files,
		     uint32_t flags, const char *prog, const char *what, FILE *err)
{
	size_t first = in->manifests.count;
	int rc;
	for (size_t i = 0; i < n_files; i++)
		if ((rc = cli_manifests_add(&in->manifests, files[i], prog, err)) != CLI_OK)
			return rc;
	if ((rc = add_files(in, first, flags, prog, err)) != CLI_OK)
		return rc;
	if (in->invalid) {
		fprintf(err, "%s: invalid input, %s\n", prog, what);
		return CLI_INVALID;
	}
	return CLI_OK;
}

/* The objects of each kind the commands read, as the builder holds them. */
static int fill_objects(cli_cluster_input *in)
{
	struct {
		cli_view *v;
		uint32_t kind;
	} views[] = {
		{ &in->objs.nodepools, KP_KIND_NODEPOOL },
		{ &in->objs.nodeclaims, KP_KIND_NODECLAIM },
		{ &in->objs.kwok_nodeclasses, in->kwok_kind },
		{ &in->objs.nodes, KP_KIND_NODE },
		{ &in->objs.pods, KP_KIND_POD },
		{ &in->objs.daemonsets, KP_KIND_DAEMONSET },
		{ &in->objs.pdbs, KP_KIND_PDB },
		{ &in->objs.pvcs, KP_KIND_PVC },
		{ &in->objs.pvs, KP_KIND_PV },
		{ &in->objs.storage_classes, KP_KIND_STORAGE_CLASS },
		{ &in->objs.csi_nodes, KP_KIND_CSI_NODE },
		{ &in->objs.namespaces, KP_KIND_NAMESPACE },
		{ &in->objs.volume_attachments, KP_KIND_VOLUME_ATTACHMENT },
		{ &in->objs.ec2_nodeclasses, in->aws_kind },
	};
	for (size_t i = 0; i < sizeof(views) / sizeof(views[0]); i++) {
		views[i].v->items = NULL;
		views[i].v->count = 0;
		if (views[i].kind && kp_cluster_builder_objects(&views[i].v->items,
								&views[i].v->count, in->builder,
								views[i].kind))
			return -1;
	}
	return 0;
}

int cli_cluster_input_load(cli_cluster_input *in, const char *const *files, size_t n_files,
			   const char *catalogue, const char *prog, const char *what, FILE *err)
{
	int rc;
	kp_error e = KP_ERROR_INIT;
	/* Read everything first: an unreadable path is a usage error, before
	 * any output. */
	for (size_t i = 0; i < n_files; i++)
		if ((rc = cli_manifests_add(&in->manifests, files[i], prog, err)) != CLI_OK)
			return rc;
	if ((rc = load_catalogue(in, catalogue, prog, err)) != CLI_OK)
		return rc;
	if (cli_registry_new(&in->registry, &in->kwok_kind, &e)) {
		fprintf(err, "%s: %s\n", prog, e.message);
		return CLI_INVALID;
	}
#ifdef KP_HAVE_AWS
	if (in->aws && in->aws->enabled && kp_aws_register(in->registry, NULL, &in->aws_kind, &e)) {
		fprintf(err, "%s: %s\n", prog, e.message);
		return CLI_INVALID;
	}
#endif
	if (kp_cluster_builder_new(&in->builder, &e) ||
	    kp_cluster_builder_set_registry(in->builder, in->registry, &e)) {
		fprintf(err, "%s: %s\n", prog, e.message);
		return CLI_INVALID;
	}
	kp_cluster_builder_set_wellknown(in->builder, in->wk);
	/* what the API server would store: defaults, validation */
	if ((rc = add_files(in, 0, KP_BUILDER_ADD_VALIDATE, prog, err)) != CLI_OK)
		return rc;
	if (in->invalid) {
		fprintf(err, "%s: invalid input, %s\n", prog, what);
		return CLI_INVALID;
	}
	if (fill_objects(in)) {
		fprintf(err, "%s: out of memory\n", prog);
		return CLI_INVALID;
	}
	return CLI_OK;
}

int cli_cluster_input_replace(cli_cluster_input *in, const char *const *files, size_t n_files,
			      const char *prog, const char *what, FILE *err)
{
	int rc = add_paths(in, files, n_files, KP_BUILDER_ADD_VALIDATE | KP_BUILDER_ADD_REPLACE,
			   prog, what, err);
	if (rc == CLI_OK && fill_objects(in)) {
		fprintf(err, "%s: out of memory\n", prog);
		rc = CLI_INVALID;
	}
	return rc;
}

/* --provider aws: one catalogue per EC2NodeClass (built from its spec),
 * each NodePool offered its nodeClassRef's (others the catalogue of no
 * class: the core then finds their class missing). */
static int aws_catalogues(cli_cluster_input *in, int64_t now_ms, const char *prog, FILE *err)
{
	const cli_view *classes = &in->objs.ec2_nodeclasses, *pools = &in->objs.nodepools;
	size_t n = classes->count;
	if (in->aws_class_its) /* built once per input */
		return 0;
	in->aws_class_its = calloc(n + 1, sizeof(*in->aws_class_its));
	in->aws_class_names = calloc(n + 1, sizeof(*in->aws_class_names));
	if (!in->aws_class_its || !in->aws_class_names) {
		fprintf(err, "%s: out of memory\n", prog);
		return -1;
	}
	kp__map by_name = { 0 };
	int rc = 0;
	for (size_t i = 0; !rc && i < n; i++) {
		const char *name = cli_aws_nodeclass_name(classes->items[i]);
		in->aws_class_names[i] = name;
		/* Ready as upstream's status controller keeps it, for a class
		 * given with a status (one without is assumed Ready: noted) */
		rc = cli_aws_status_ready(classes->items[i], now_ms, name, prog, err);
		if (rc)
			break;
		rc = cli_aws_instance_types(&in->aws_class_its[i], in->aws_catalog, in->aws,
					    classes->items[i], name, prog, err);
		if (!rc && kp__map_put(&by_name, name, strlen(name), (uint32_t)i, NULL, NULL))
			rc = -1;
	}
	if (!rc && !in->its)
		rc = cli_aws_instance_types(&in->its, in->aws_catalog, in->aws, NULL, NULL, prog,
					    err);
	kp_error e = KP_ERROR_INIT;
	if (!rc && kp_cluster_builder_set_instance_types(in->builder, NULL, in->its, &e))
		rc = -1;
	for (size_t i = 0; !rc && i < pools->count; i++) {
		const kp_nodepool *np = pools->items[i];
		const kp_nodeclaim_template *t = np->spec ? np->spec->template_ : NULL;
		const kp_node_class_reference *ref = t && t->spec ? t->spec->node_class_ref : NULL;
		uint32_t c = 0;
		if (ref && ref->name && kp__map_gets(&by_name, ref->name, &c) &&
		    kp_cluster_builder_set_instance_types(in->builder, np->metadata->name,
							  in->aws_class_its[c], &e))
			rc = -1;
	}
	kp__map_free(&by_name);
	if (rc && e.message[0])
		fprintf(err, "%s: %s\n", prog, e.message);
	return rc;
}

int cli_cluster_input_spec(cli_cluster_input *in, kp_cluster_spec *spec, const char *prog,
			   FILE *err)
{
	kp_error e = KP_ERROR_INIT;
	if (in->aws_catalog) {
		if (aws_catalogues(in, spec->now_ms, prog, err))
			return -1;
	} else if (kp_cluster_builder_set_instance_types(in->builder, NULL, in->its, &e)) {
		fprintf(err, "%s: %s\n", prog, e.message);
		return -1;
	}
	kp_cluster_spec view;
	if (kp_cluster_builder_spec(&view, in->builder, &e)) {
		fprintf(err, "%s: %s\n", prog, e.message);
		return -1;
	}
	/* with --provider aws, node classes are always modelled: a NodePool
	 * whose EC2NodeClass is not given has none */
	static const kp_nodeclass_status *const none[1] = { NULL };
	if (in->aws_catalog && !view.nodeclasses)
		view.nodeclasses = none;
	view.now_ms = spec->now_ms;
	*spec = view;
	return fill_objects(in) ? -1 : 0;
}

void cli_cluster_input_free(cli_cluster_input *in)
{
	for (size_t i = 0; in->aws_class_its && i < in->objs.ec2_nodeclasses.count; i++)
		kp_instance_types_free(in->aws_class_its[i]);
	free(in->aws_class_its);
	free((void *)in->aws_class_names);
	cli_aws_catalog_free(in->aws_catalog);
	kp_cluster_builder_free(in->builder);
	kp_wellknown_free(in->wk);
	kp_instance_types_free(in->its);
	for (size_t i = 0; i < in->n_decoded; i++)
		kp_decode_result_free(in->decoded[i]);
	free(in->decoded);
	kp_registry_free(in->registry);
	cli_manifests_free(&in->manifests);
	memset(in, 0, sizeof(*in));
}

/* ------------------------------------------------------------------ */
/* Options                                                             */

int cli_next_option(int argc, char **argv, int *i, const cli_option *opts, size_t n_opts,
		    const char **val, const char *prog, FILE *err)
{
	const char *a = argv[*i];
	for (size_t k = 0; k < n_opts; k++) {
		size_t l = strlen(opts[k].name);
		const char *sn = opts[k].short_name;
		if (!strcmp(a, opts[k].name) || (sn && !strcmp(a, sn))) {
			if (*i + 1 >= argc) {
				fprintf(err, "%s: %s needs a value\n", prog, a);
				return 0;
			}
			*val = argv[++*i];
		} else if (!strncmp(a, opts[k].name, l) && a[l] == '=') {
			*val = a + l + 1;
		} else if (sn && !strncmp(a, sn, 2) && a[2]) {
			*val = a + 2; /* -fFILE, -ojson */
		} else {
			continue;
		}
		return opts[k].id;
	}
	fprintf(err, "%s: unknown argument \"%s\"\n", prog, a);
	return 0;
}

int cli_parse_output(const char *val, const char *prog, FILE *err)
{
	if (!strcmp(val, "text") || !strcmp(val, "wide"))
		return CLI_OUT_TEXT;
	if (!strcmp(val, "json"))
		return CLI_OUT_JSON;
	if (!strcmp(val, "yaml"))
		return CLI_OUT_YAML;
	fprintf(err, "%s: unsupported output format \"%s\" (text, json or yaml)\n", prog, val);
	return -1;
}

int cli_parse_now(const char *val, int64_t *now_ms, const char *prog, FILE *err)
{
	kp_error e = KP_ERROR_INIT;
	if (kp_time_parse_rfc3339(now_ms, val, &e)) {
		fprintf(err, "%s: --now: %s\n", prog, e.message);
		return -1;
	}
	return 0;
}

int64_t cli_clock_now_ms(void)
{
	time_t t = time(NULL);
	return t == (time_t)-1 ? 0 : (int64_t)t * 1000;
}

/* The gate named by "Name=true|false" (len bytes at p), or NULL; *on gets
 * its value. */
static const cli_gate *gate_entry(const char *p, size_t len, const cli_gate *gates,
				  size_t n_gates, int *on)
{
	const char *eq = memchr(p, '=', len);
	if (!eq)
		return NULL;
	size_t nlen = (size_t)(eq - p), vlen = len - nlen - 1;
	if (vlen == 4 && !strncmp(eq + 1, "true", 4))
		*on = 1;
	else if (vlen == 5 && !strncmp(eq + 1, "false", 5))
		*on = 0;
	else
		return NULL;
	for (size_t g = 0; g < n_gates; g++) {
		const char *name = kp_feature_gate_name(gates[g].bit);
		if (strlen(name) == nlen && !strncmp(name, p, nlen))
			return &gates[g];
	}
	return NULL;
}

int cli_parse_feature_gates(const char *val, const cli_gate *gates, size_t n_gates,
			    uint32_t *bits, const char *prog, FILE *err)
{
	uint32_t b = *bits;
	const char *p = val;
	while (*p) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		int on = 0;
		const cli_gate *g = gate_entry(p, len, gates, n_gates, &on);
		if (!g) {
			fprintf(err, "%s: --feature-gates: unknown gate \"%.*s\" (", prog, (int)len, p);
			for (size_t k = 0; k < n_gates; k++)
				fprintf(err, "%s%s=true or %s=false", k ? ", " : "",
					kp_feature_gate_name(gates[k].bit),
					kp_feature_gate_name(gates[k].bit));
			fputs(")\n", err);
			return -1;
		}
		b = on ? b | g->bit : b & ~g->bit;
		p = comma ? comma + 1 : p + len;
	}
	*bits = b;
	return 0;
}
