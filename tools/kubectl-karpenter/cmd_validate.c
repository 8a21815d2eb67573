/*
 * kubectl-karpenter validate: decode manifests, apply the CRD defaults and
 * validate every NodePool, NodeClaim, KWOKNodeClass and (in a build with
 * libkarpenter-aws) EC2NodeClass as the API server and Karpenter's
 * controllers would, with no cluster. The AWS build's extra NodePool and
 * NodeClaim rules apply to those whose nodeClassRef.group is
 * karpenter.k8s.aws.
 * SPDX-License-Identifier: Apache-2.0
 */
#define KP_EXPERIMENTAL_API 1 /* KWOKNodeClass is registered (karpenter/sys/kwok.h) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <karpenter/karpenter.h>
#include <karpenter/kwok.h>
#include <karpenter/sys/schema.h>
#ifdef KP_HAVE_AWS
#include <karpenter/aws_ec2nodeclass.h>
#endif

#include "cli.h"
#include "cluster_input.h"
#include "manifests.h"

static void validate_usage(FILE *out)
{
	fputs("Usage: kubectl-karpenter validate -f FILE [-f FILE ...] [--strict=false]\n"
	      "                                  [--runtime=false]\n"
	      "\n"
	      "Decodes every object in the files (YAML or JSON; \"-\" reads stdin, a\n"
	      "directory stands for its *.yaml, *.yml and *.json files, sorted),\n"
	      "applies the v1 CRDs' defaults and validates each NodePool, NodeClaim,\n"
	      "KWOKNodeClass and EC2NodeClass as kube-apiserver would for the v1 CRDs\n"
	      "(OpenAPI schema and x-kubernetes-validations rules; NodePools and NodeClaims\n"
	      "of the karpenter.k8s.aws group also by the AWS build's rules on\n"
	      "karpenter.k8s.aws label keys), then as Karpenter's controllers would\n"
	      "(NodePool label, taint and requirement checks, budget schedules).\n"
	      "\n"
	      "Prints one line per problem, \"KIND/NAME: field.path: message\", one line per\n"
	      "object of a kind this build does not validate (\"KIND/NAME: skipped: why\"),\n"
	      "and a summary on stderr.\n"
	      "\n"
	      "Options:\n"
	      "  -f, --filename PATH  a manifest or directory to validate (repeatable;\n"
	      "                       \"-\" for stdin)\n"
	      "  --strict=false       drop unknown fields with a warning instead of failing\n"
	      "                       (as kubectl --validate=warn); default --strict=true\n"
	      "  --runtime=false      only what the API server checks: skip the checks\n"
	      "                       Karpenter's controllers make after admission\n"
	      "\n"
	      "Exit codes: 0 every object is valid (skipped ones included), 1 a problem was\n"
	      "found or a file could not be decoded, 2 usage error (a path that cannot be\n"
	      "read, has no manifest file or is too large included).\n", out);
}

static int parse_bool(const char *v, int *out)
{
	if (!strcmp(v, "true") || !strcmp(v, "1")) {
		*out = 1;
		return 0;
	}
	if (!strcmp(v, "false") || !strcmp(v, "0")) {
		*out = 0;
		return 0;
	}
	return -1;
}

/*
 * An object this command does not validate: print why on @p out (written
 * straight to the stream, so an apiVersion or kind of any length is shown
 * whole) and return 1; *invalid is set when the object cannot be served by
 * the v1 CRDs at all. 0 for an object to validate.
 */
static int print_skipped(const kp_decoded_object *o, const kp_registry *reg, uint32_t kwok_kind,
			 uint32_t aws_kind, FILE *out, int *invalid)
{
	const char *av = o->api_version ? o->api_version : "";
	const char *kind = o->kind_name ? o->kind_name : "";
	*invalid = 0;
	if (o->kind == KP_KIND_NODEPOOL || o->kind == KP_KIND_NODECLAIM || o->kind == kwok_kind ||
	    (aws_kind && o->kind == aws_kind))
		return 0;
	size_t glen = strcspn(av, "/");
	fprintf(out, "%s/%s: ", o->kind_name, o->name);
	if (aws_kind && glen == strlen("karpenter.k8s.aws") &&
	    !strncmp(av, "karpenter.k8s.aws", glen) && !strcmp(kind, "EC2NodeClass")) {
		*invalid = 1;
		fprintf(out,
			"apiVersion: Invalid value: \"%s\": the CRD serves %s only (no matches for "
			"kind \"%s\" in version \"%s\")\n", av,
			kp_registry_kind_api_version(reg, aws_kind), kind, av);
	} else if (!aws_kind && !strncmp(av, "karpenter.k8s.aws/", 18)) {
		fprintf(out, "skipped: %s %s is validated by the AWS provider, not in this build\n",
			av, kind);
	} else if (glen == strlen("karpenter.sh") && !strncmp(av, "karpenter.sh", glen) &&
		   (!strcmp(kind, "NodePool") || !strcmp(kind, "NodeClaim"))) {
		*invalid = 1;
		fprintf(out,
			"apiVersion: Invalid value: \"%s\": the v1 CRDs serve %s only (no matches for "
			"kind \"%s\" in version \"%s\")\n", av, kp_kind_api_version(KP_KIND_NODEPOOL),
			kind, av);
	} else if (glen == strlen(KP_KWOK_GROUP) && !strncmp(av, KP_KWOK_GROUP, glen) &&
		   !strcmp(kind, KP_KWOK_NODECLASS_KIND)) {
		*invalid = 1;
		fprintf(out,
			"apiVersion: Invalid value: \"%s\": the CRD serves %s only (no matches for "
			"kind \"%s\" in version \"%s\")\n", av,
			kp_registry_kind_api_version(reg, kwok_kind), kind, av);
	} else if ((glen == strlen("karpenter.sh") && !strncmp(av, "karpenter.sh", glen)) ||
		   !strncmp(av, "karpenter.k8s.aws/", 18)) {
		fprintf(out, "skipped: %s %s is not validated by this build\n", av, kind);
	} else {
		fprintf(out, "skipped: %s %s is not a Karpenter kind\n", av, kind);
	}
	return 1;
}

typedef struct tally {
	size_t objects, valid, invalid, skipped, problems, undecoded;
} tally;

/* KP_OK; KP_ENOMEM (exit 1) or KP_EIO (an input that cannot be read or
 * passed a limit: exit 2) after saying so. */
static int validate_input(cli_manifests *inputs, size_t at, uint32_t decode_flags,
			  const kp_validate_options *vo, uint32_t kwok_kind, uint32_t aws_kind,
			  FILE *out, FILE *err, tally *t)
{
	const cli_manifest *in = &inputs->items[at];
	kp_decode_options dopts = KP_DECODE_OPTIONS_INIT;
	dopts.flags = decode_flags;
	dopts.registry = vo->registry;
	kp_decode_result *res = NULL;
	kp_error e = KP_ERROR_INIT;
	int usage = 0;
	int rc = cli_manifest_decode(inputs, at, &dopts, &res, &e, &usage);
	if (usage) {
		fflush(out);
		fprintf(err, "kubectl-karpenter validate: %s\n", e.message);
		return KP_EIO;
	}
	if (rc == KP_ENOMEM) {
		fprintf(err, "kubectl-karpenter validate: out of memory\n");
		return rc;
	}
	if (rc) {
		fprintf(out, "%s: %s\n", in->name, e.message);
		t->undecoded++;
		return KP_OK;
	}
	for (size_t i = 0; i < kp_decode_result_warning_count(res); i++)
		fprintf(err, "Warning: %s\n", kp_decode_result_warning_at(res, i));
	for (size_t i = 0; i < kp_decode_result_count(res); i++) {
		const kp_decoded_object *o = kp_decode_result_at(res, i);
		int bad = 0;
		t->objects++;
		if (print_skipped(o, vo->registry, kwok_kind, aws_kind, out, &bad)) {
			if (bad) {
				t->invalid++;
				t->problems++;
			} else {
				t->skipped++;
			}
			continue;
		}
		rc = kp_registry_object_default(vo->registry, o->kind, o->object, &e);
		kp_validation *v = NULL;
		if (!rc)
			rc = kp_validate(&v, o->kind, o->object, NULL, vo, &e);
		if (rc) {
			fprintf(err, "kubectl-karpenter validate: %s/%s: %s\n", o->kind_name, o->name,
				e.message);
			kp_decode_result_free(res);
			return rc;
		}
		size_t n = kp_validation_count(v);
		for (size_t j = 0; j < n; j++) {
			const kp_field_error *fe = kp_validation_at(v, j);
			fprintf(out, "%s: %s: %s\n", fe->object, fe->field, fe->message);
		}
		for (size_t j = 0; j < kp_validation_warning_count(v); j++) {
			const kp_field_error *w = kp_validation_warning_at(v, j);
			fprintf(err, "Warning: %s: %s: %s\n", w->object, w->field, w->message);
		}
		if (n) {
			t->invalid++;
			t->problems += n;
		} else {
			t->valid++;
		}
		kp_validation_free(v);
	}
	kp_decode_result_free(res);
	return KP_OK;
}

static int validate_run(int argc, char **argv, FILE *out, FILE *err)
{
	static const char prog[] = "kubectl-karpenter validate";
	const char **paths = calloc((size_t)argc, sizeof(*paths));
	size_t n_paths = 0;
	cli_manifests inputs = CLI_MANIFESTS_INIT;
	int strict = 1, runtime = 1, rc = CLI_USAGE;
	kp_registry *reg = NULL;
	if (!paths) {
		fprintf(err, "%s: out of memory\n", prog);
		return CLI_INVALID;
	}
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *file = NULL;
		if (!strcmp(a, "-f") || !strcmp(a, "--filename")) {
			if (i + 1 >= argc) {
				fprintf(err, "%s: %s needs a file name\n", prog, a);
				validate_usage(err);
				goto done;
			}
			file = argv[++i];
		} else if (!strncmp(a, "--filename=", 11)) {
			file = a + 11;
		} else if (!strncmp(a, "-f", 2)) {
			file = a + 2;
		} else if (!strcmp(a, "--strict")) {
			strict = 1;
		} else if (!strncmp(a, "--strict=", 9)) {
			if (parse_bool(a + 9, &strict)) {
				fprintf(err, "%s: invalid value \"%s\" for --strict (true or false)\n",
					prog, a + 9);
				goto done;
			}
		} else if (!strcmp(a, "--runtime")) {
			runtime = 1;
		} else if (!strncmp(a, "--runtime=", 10)) {
			if (parse_bool(a + 10, &runtime)) {
				fprintf(err, "%s: invalid value \"%s\" for --runtime (true or false)\n",
					prog, a + 10);
				goto done;
			}
		} else {
			fprintf(err, "%s: unknown argument \"%s\"\n", prog, a);
			validate_usage(err);
			goto done;
		}
		if (file)
			paths[n_paths++] = file;
	}
	if (!n_paths) {
		fprintf(err, "%s: no input: give -f FILE (or -f - for stdin)\n", prog);
		validate_usage(err);
		goto done;
	}
	/* Check every path first: an unreadable file is a usage error, before
	 * any output. */
	for (size_t i = 0; i < n_paths; i++)
		if ((rc = cli_manifests_add(&inputs, paths[i], prog, err)) != CLI_OK)
			goto done;

	kp_validate_options vo = KP_VALIDATE_OPTIONS_INIT;
	if (!runtime)
		vo.flags |= KP_VALIDATE_NO_RUNTIME;
	uint32_t kwok_kind = 0, aws_kind = 0;
	kp_error re = KP_ERROR_INIT;
	int reg_rc = cli_registry_new(&reg, &kwok_kind, &re);
#ifdef KP_HAVE_AWS
	if (reg_rc == KP_OK)
		reg_rc = kp_aws_register(reg, NULL, &aws_kind, &re);
#endif
	if (reg_rc) {
		fprintf(err, "%s: %s\n", prog, re.message);
		rc = CLI_INVALID;
		goto done;
	}
	vo.registry = reg;
	tally t = { 0, 0, 0, 0, 0, 0 };
	for (size_t i = 0; i < inputs.count; i++) {
		int vrc = validate_input(&inputs, i, strict ? 0 : KP_DECODE_LENIENT, &vo, kwok_kind,
					 aws_kind, out, err, &t);
		if (vrc) {
			rc = vrc == KP_EIO ? CLI_USAGE : CLI_INVALID;
			goto done;
		}
	}
	fflush(out);
	fprintf(err, "%s: %zu object%s in %zu file%s: %zu valid, %zu invalid (%zu problem%s), "
		     "%zu skipped",
		prog, t.objects, t.objects == 1 ? "" : "s", inputs.count,
		inputs.count == 1 ? "" : "s", t.valid, t.invalid, t.problems,
		t.problems == 1 ? "" : "s", t.skipped);
	if (t.undecoded)
		fprintf(err, "; %zu file%s could not be decoded", t.undecoded,
			t.undecoded == 1 ? "" : "s");
	fputc('\n', err);
	rc = t.invalid || t.undecoded ? CLI_INVALID : CLI_OK;
done:
	kp_registry_free(reg);
	cli_manifests_free(&inputs);
	free(paths);
	return rc;
}

const cli_command cli_cmd_validate = {
	"validate", "Validate NodePools, NodeClaims and node classes offline", validate_run,
	validate_usage,
};
