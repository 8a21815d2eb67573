/*
 * kubectl-karpenter convert: Karpenter manifests from one API version to
 * another, offline (karpenter/convert.h), with the v1 output validated as
 * `validate` would and, on request, a preview of the drift the upgrade
 * would cause to the NodeClaims given.
 * SPDX-License-Identifier: Apache-2.0
 */
#define KP_EXPERIMENTAL_API 1 /* provider kinds and conversions (karpenter/sys/schema.h) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <karpenter/karpenter.h>
#include <karpenter/sys/schema.h>
#ifdef KP_HAVE_AWS
#include <karpenter/aws_ec2nodeclass.h>
#endif

#include "cli.h"
#include "common/map.h"
#include "cluster_input.h"
#include "manifests.h"

#define PROG "kubectl-karpenter convert"

static void convert_usage(FILE *out)
{
	fputs("Usage: kubectl-karpenter convert -f FILE [-f FILE ...] [--to v1|v1beta1]\n"
	      "                                 [-o yaml|json] [--drift-preview]\n"
	      "\n"
	      "Converts Karpenter objects (karpenter.sh NodePool and NodeClaim,\n"
	      "karpenter.k8s.aws EC2NodeClass) between v1beta1 and v1 exactly as upstream's\n"
	      "conversion webhooks do, with their compatibility annotations, and moves each\n"
	      "NodePool's v1beta1 kubelet into its EC2NodeClass (a NodePool whose kubelet\n"
	      "differs from the first one sharing its class gets a copy of the class named\n"
	      "CLASS-NODEPOOL). Objects already at the target version and other kinds pass\n"
	      "through unchanged and in order. The files are YAML or JSON (\"-\" reads stdin,\n"
	      "a directory its *.yaml, *.yml and *.json files, sorted); Lists are expanded.\n"
	      "\n"
	      "Writes the converted objects on stdout (YAML documents, or with -o json one\n"
	      "object or a v1 List) and on stderr one line per field moved, renamed or\n"
	      "dropped and per object split or generated (\"moved: KIND/NAME: from -> to\"),\n"
	      "and \"warning:\" lines for what needs a hand. v1 output is validated as\n"
	      "`validate` would; a problem is reported as \"KIND/NAME: field: message\".\n"
	      "\n"
	      "Options:\n"
	      "  -f, --filename PATH  manifests to convert (repeatable; \"-\" for stdin)\n"
	      "  --to VERSION         v1 (default) or v1beta1\n"
	      "  -o, --output FORMAT  yaml (default) or json\n"
	      "  --drift-preview      for each NodeClaim given, print on stderr whether the\n"
	      "                       converted NodePool (and EC2NodeClass) would drift it\n"
	      "                       and why (\"drift: NodeClaim/NAME: ...\"), by the rules\n"
	      "                       of `hash` and `disrupt --apply`\n"
	      "\n"
	      "Exit codes: 0 success, 1 invalid input (a file that cannot be read as\n"
	      "manifests, an object a conversion refuses, v1 output that does not\n"
	      "validate), 2 usage error (a path that cannot be read included).\n", out);
}

typedef struct args {
	const char **paths;
	size_t n_paths;
	uint32_t target;
	uint32_t format;
	int drift_preview;
} args;

static int parse_args(int argc, char **argv, args *a, FILE *err)
{
	for (int i = 1; i < argc; i++) {
		const char *s = argv[i], *val = NULL, *opt = s;
		if (!strcmp(s, "-f") || !strcmp(s, "--filename") || !strcmp(s, "--to") ||
		    !strcmp(s, "-o") || !strcmp(s, "--output")) {
			if (i + 1 >= argc) {
				fprintf(err, PROG ": %s needs a value\n", s);
				return CLI_USAGE;
			}
			val = argv[++i];
		} else if (!strncmp(s, "--filename=", 11) || !strncmp(s, "--output=", 9) ||
			   !strncmp(s, "--to=", 5)) {
			val = strchr(s, '=') + 1;
		} else if ((!strncmp(s, "-f", 2) || !strncmp(s, "-o", 2)) && s[2]) {
			val = s + 2;
		} else if (!strcmp(s, "--drift-preview")) {
			a->drift_preview = 1;
			continue;
		} else {
			fprintf(err, PROG ": unknown argument \"%s\"\n", s);
			return CLI_USAGE;
		}
		if (opt[1] == 'f' || !strncmp(opt, "--filename", 10)) {
			a->paths[a->n_paths++] = val;
		} else if (!strncmp(opt, "--to", 4)) {
			if (!strcmp(val, "v1")) {
				a->target = KP_CONVERT_V1;
			} else if (!strcmp(val, "v1beta1")) {
				a->target = KP_CONVERT_V1BETA1;
			} else {
				fprintf(err, PROG ": invalid value \"%s\" for --to (v1 or v1beta1)\n",
					val);
				return CLI_USAGE;
			}
		} else if (!strcmp(val, "yaml")) {
			a->format = KP_FORMAT_YAML;
		} else if (!strcmp(val, "json")) {
			a->format = KP_FORMAT_JSON;
		} else {
			fprintf(err, PROG ": invalid value \"%s\" for -o (yaml or json)\n", val);
			return CLI_USAGE;
		}
	}
	if (!a->n_paths) {
		fprintf(err, PROG ": no input: give -f FILE (or -f - for stdin)\n");
		return CLI_USAGE;
	}
	if (a->drift_preview && a->target != KP_CONVERT_V1) {
		fprintf(err, PROG ": --drift-preview needs --to v1\n");
		return CLI_USAGE;
	}
	return CLI_OK;
}

static int registry_new(kp_registry **out, FILE *err)
{
	kp_error e = KP_ERROR_INIT;
	uint32_t kwok_kind = 0;
	int rc = cli_registry_new(out, &kwok_kind, &e);
#ifdef KP_HAVE_AWS
	if (rc == KP_OK)
		rc = kp_aws_register(*out, NULL, NULL, &e);
#endif
	if (rc)
		fprintf(err, PROG ": %s\n", e.message);
	return rc ? CLI_INVALID : CLI_OK;
}

/* Whether a decoded object is one `validate` validates. */
static int validated_kind(const kp_decoded_object *o)
{
	return o->kind == KP_KIND_NODEPOOL || o->kind == KP_KIND_NODECLAIM ||
	       o->kind >= KP_KIND_FIRST_REGISTERED;
}

/* Validate the v1 output as `validate` does: every problem on err. */
static int validate_output(kp_decode_result *res, kp_registry *reg, FILE *err)
{
	kp_validate_options vo = KP_VALIDATE_OPTIONS_INIT;
	vo.registry = reg;
	int invalid = 0;
	for (size_t i = 0; i < kp_decode_result_count(res); i++) {
		const kp_decoded_object *o = kp_decode_result_at(res, i);
		if (!validated_kind(o))
			continue;
		kp_error e = KP_ERROR_INIT;
		kp_validation *v = NULL;
		int rc = kp_registry_object_default(reg, o->kind, o->object, &e);
		if (!rc)
			rc = kp_validate(&v, o->kind, o->object, NULL, &vo, &e);
		if (rc) {
			fprintf(err, PROG ": %s/%s: %s\n", o->kind_name, o->name, e.message);
			return CLI_INVALID;
		}
		for (size_t j = 0; j < kp_validation_count(v); j++) {
			const kp_field_error *fe = kp_validation_at(v, j);
			fprintf(err, "%s: %s: %s\n", fe->object, fe->field, fe->message);
			invalid = 1;
		}
		kp_validation_free(v);
	}
	return invalid ? CLI_INVALID : CLI_OK;
}

/* ---- drift preview ------------------------------------------------------- */

/* The preview's lookups: NodePools and EC2NodeClasses of the input by
 * name (indexes into the decode result), built once. */
typedef struct preview_index {
	kp__map nodepools, classes;
} preview_index;

static int index_build(preview_index *ix, const kp_decode_result *res)
{
	memset(ix, 0, sizeof(*ix));
	for (size_t i = 0; i < kp_decode_result_count(res) && i < UINT32_MAX; i++) {
		const kp_decoded_object *o = kp_decode_result_at(res, i);
		kp__map *m = o->kind == KP_KIND_NODEPOOL ? &ix->nodepools
			     : o->kind >= KP_KIND_FIRST_REGISTERED &&
				       !strcmp(o->kind_name, "EC2NodeClass") ? &ix->classes : NULL;
		/* the first of a name wins, as the scan it replaces did */
		if (m && o->name && kp__map_put(m, o->name, strlen(o->name), (uint32_t)i, NULL, NULL))
			return -1;
	}
	return 0;
}

static const kp_decoded_object *index_get(const kp__map *m, const kp_decode_result *res,
					  const char *name)
{
	uint32_t at = 0;
	return name && kp__map_gets(m, name, &at) ? kp_decode_result_at(res, at) : NULL;
}

/* The EC2NodeClass's static drift (the AWS provider's first drift check,
 * kp_aws_nodeclaim_static_drift): the NodeClaim's hash annotation against
 * the class's hash, at the same hash version. Other node classes have no
 * provider static drift (KWOK's never drifts). */
static int class_drift(kp_registry *reg, const preview_index *ix, const kp_decode_result *res,
		       const kp_nodeclaim *nc, FILE *err, int *drifted)
{
	*drifted = 0;
#ifdef KP_HAVE_AWS
	const kp_node_class_reference *ref = nc->spec ? nc->spec->node_class_ref : NULL;
	if (!ref || !ref->kind || !ref->name || strcmp(ref->kind, "EC2NodeClass"))
		return CLI_OK;
	const kp_decoded_object *o = index_get(&ix->classes, res, ref->name);
	if (!o)
		return CLI_OK;
	uint64_t h = 0;
	char hash[KP_HASH_STRING_MAX];
	kp_aws_static_drift d = KP_AWS_STATIC_DRIFT_INIT;
	kp_error e = KP_ERROR_INIT;
	int rc = kp_registry_object_hash(reg, o->kind, o->object, NULL, &h, &e);
	snprintf(hash, sizeof(hash), "%llu", (unsigned long long)h);
	if (rc == KP_OK)
		rc = kp_aws_nodeclaim_static_drift(&d, nc, hash,
						   kp_registry_kind_hash_version(reg, o->kind), &e);
	if (rc) {
		fprintf(err, PROG ": %s/%s: %s\n", o->kind_name, o->name, e.message);
		return CLI_INVALID;
	}
	*drifted = d.state == KP_AWS_STATIC_DRIFT_DRIFTED;
#else
	(void)reg;
	(void)ix;
	(void)res;
	(void)nc;
	(void)err;
#endif
	return CLI_OK;
}

static int drift_preview(kp_decode_result *res, kp_registry *reg, FILE *err)
{
	size_t n_claims = 0, n_drifted = 0;
	kp_drift_options opts = KP_DRIFT_OPTIONS_INIT;
	opts.flags = KP_DRIFT_HASH_FROM_SPEC;
	preview_index ix;
	int rc = CLI_OK;
	if (index_build(&ix, res)) {
		fprintf(err, PROG ": out of memory\n");
		rc = CLI_INVALID;
	}
	for (size_t i = 0; rc == CLI_OK && i < kp_decode_result_count(res); i++) {
		const kp_decoded_object *o = kp_decode_result_at(res, i);
		if (o->kind != KP_KIND_NODECLAIM)
			continue;
		const kp_nodeclaim *nc = o->object;
		n_claims++;
		const char *np_name = nc->metadata ? kp_labels_get(&nc->metadata->labels,
								    "karpenter.sh/nodepool") : NULL;
		const kp_decoded_object *p = index_get(&ix.nodepools, res, np_name);
		const kp_nodepool *np = p ? p->object : NULL;
		if (!np) {
			fprintf(err, "drift: NodeClaim/%s: unknown: %s\n", o->name,
				np_name ? "its NodePool is not among the inputs"
					: "the NodeClaim has no karpenter.sh/nodepool label");
			continue;
		}
		kp_drift *d = NULL;
		kp_error e = KP_ERROR_INIT;
		if (kp_drift_check(&d, np, nc, &opts, &e)) {
			fprintf(err, PROG ": NodeClaim/%s: NodePool/%s: %s%s%s\n", o->name, np_name,
				e.field, *e.field ? ": " : "", e.message);
			rc = CLI_INVALID;
			break;
		}
		int class_drifted = 0;
		if (d->reason_code == KP_DRIFT_NONE &&
		    class_drift(reg, &ix, res, nc, err, &class_drifted)) {
			kp_drift_free(d);
			rc = CLI_INVALID;
			break;
		}
		if (d->reason_code != KP_DRIFT_NONE) {
			fprintf(err, "drift: NodeClaim/%s: drifted (%s): %s\n", o->name, d->reason,
				d->message);
			n_drifted++;
		} else if (class_drifted) {
			fprintf(err, "drift: NodeClaim/%s: drifted (NodeClassDrift): its %s/%s hash "
				     "differs from the NodeClaim's\n", o->name,
				nc->spec->node_class_ref->kind, nc->spec->node_class_ref->name);
			n_drifted++;
		} else {
			fprintf(err, "drift: NodeClaim/%s: %s\n", o->name, d->message);
		}
		kp_drift_free(d);
	}
	kp__map_free(&ix.nodepools);
	kp__map_free(&ix.classes);
	if (rc == CLI_OK)
		fprintf(err, "drift preview: %zu of %zu NodeClaim%s would drift\n", n_drifted,
			n_claims, n_claims == 1 ? "" : "s");
	return rc;
}

/* ---- the command --------------------------------------------------------- */

static int convert_run(int argc, char **argv, FILE *out, FILE *err)
{
	args a = { NULL, 0, KP_CONVERT_V1, KP_FORMAT_YAML, 0 };
	cli_manifests inputs = CLI_MANIFESTS_INIT;
	kp_registry *reg = NULL;
	kp_convert *conv = NULL;
	kp_decode_result *res = NULL;
	char *text = NULL, *json = NULL;
	size_t len = 0, json_len = 0;
	kp_error e = KP_ERROR_INIT;
	int rc;
	a.paths = calloc((size_t)argc, sizeof(*a.paths));
	if (!a.paths) {
		fprintf(err, PROG ": out of memory\n");
		return CLI_INVALID;
	}
	if ((rc = parse_args(argc, argv, &a, err)) != CLI_OK) {
		convert_usage(err);
		goto done;
	}
	for (size_t i = 0; i < a.n_paths; i++)
		if ((rc = cli_manifests_add(&inputs, a.paths[i], PROG, err)) != CLI_OK)
			goto done;
	if ((rc = registry_new(&reg, err)) != CLI_OK)
		goto done;
	kp_convert_options co = KP_CONVERT_OPTIONS_INIT;
	co.target = a.target;
	co.registry = reg;
	rc = CLI_INVALID;
	if (kp_convert_new(&conv, &co, &e))
		goto fail;
	for (size_t i = 0; i < inputs.count; i++) {
		/* conversion keeps every document as written (key order, number
		 * text, unknown fields), so each input is read whole */
		const cli_manifest *in = &inputs.items[i];
		char *data = NULL;
		size_t n = 0;
		rc = cli_read_file(in->is_stdin ? "/dev/stdin" : in->name, cli_limits.max_file,
				   "a manifest file", &data, &n, PROG, err);
		if (rc != CLI_OK)
			goto done;
		rc = CLI_INVALID;
		int r = kp_convert_add(conv, data, n, in->name, &e);
		free(data);
		if (r)
			goto fail;
	}
	if (kp_convert_run(conv, &e))
		goto fail;
	if (kp_convert_write(&json, &json_len, conv, KP_FORMAT_JSON, &e) ||
	    (a.format == KP_FORMAT_YAML && kp_convert_write(&text, &len, conv, KP_FORMAT_YAML, &e)))
		goto fail;
	if (a.target == KP_CONVERT_V1) {
		/* v1 output is validated as `validate` would */
		kp_decode_options dopts = KP_DECODE_OPTIONS_INIT;
		dopts.registry = reg;
		dopts.format = KP_FORMAT_JSON;
		if (kp_decode(&res, json, json_len, &dopts, &e)) {
			fprintf(err, PROG ": the v1 output does not decode: %s\n", e.message);
			goto done;
		}
		if ((rc = validate_output(res, reg, err)) != CLI_OK)
			goto done;
	}
	if (a.format == KP_FORMAT_YAML)
		fwrite(text, 1, len, out);
	else
		fwrite(json, 1, json_len, out);
	fflush(out);
	/* the report after the output, as a terminal shows them */
	for (size_t i = 0; i < kp_convert_report_count(conv); i++)
		fprintf(err, "%s\n", kp_convert_report_at(conv, i));
	rc = a.drift_preview ? drift_preview(res, reg, err) : CLI_OK;
	goto done;
fail:
	if (e.code == KP_ENOMEM)
		fprintf(err, PROG ": out of memory\n");
	else
		fprintf(err, PROG ": %s\n", e.message);
	rc = CLI_INVALID;
done:
	kp_encoded_free(text);
	kp_encoded_free(json);
	kp_decode_result_free(res);
	kp_convert_free(conv);
	kp_registry_free(reg);
	cli_manifests_free(&inputs);
	free(a.paths);
	return rc;
}

const cli_command cli_cmd_convert = {
	"convert", "Convert Karpenter manifests between API versions offline", convert_run,
	convert_usage,
};
