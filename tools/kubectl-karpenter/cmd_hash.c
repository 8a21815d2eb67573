/*
 * kubectl-karpenter hash: the drift hash Karpenter's hash controllers write
 * on each NodePool and (in a build with libkarpenter-aws) EC2NodeClass, and
 * whether the NodeClaims given with them are drifted.
 * SPDX-License-Identifier: Apache-2.0
 */
#define KP_EXPERIMENTAL_API 1 /* KWOKNodeClass is registered (karpenter/sys/kwok.h) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <karpenter/karpenter.h>
#include <karpenter/sys/schema.h>
#ifdef KP_HAVE_AWS
#include <karpenter/aws_ec2nodeclass.h>
#endif

#include "cli.h"
#include "cluster_input.h"
#include "manifests.h"
#include "common/map.h"

#define PROG "kubectl-karpenter hash"

static void hash_usage(FILE *out)
{
	fputs("Usage: kubectl-karpenter hash -f FILE [-f FILE ...] [-o text|json]\n"
	      "                              [--ca-bundle TEXT]\n"
	      "\n"
	      "For each karpenter.sh/v1 NodePool in the files (YAML or JSON; \"-\" reads\n"
	      "stdin, a directory its *.yaml, *.yml and *.json files), prints the drift hash\n"
	      "and hash version Karpenter's hash controller writes on it\n"
	      "(karpenter.sh/nodepool-hash, karpenter.sh/nodepool-hash-version), computed\n"
	      "after the v1 CRD defaults are applied, as the API server stores the object.\n"
	      "\n"
	      "For each NodeClaim given alongside its NodePool (label karpenter.sh/nodepool),\n"
	      "prints whether Karpenter would mark it Drifted and why: NodePoolDrifted when\n"
	      "its karpenter.sh/nodepool-hash differs from the NodePool's at the same hash\n"
	      "version, RequirementsDrifted when its labels no longer satisfy the NodePool's\n"
	      "requirements. A NodeClaim that is not Launched is not evaluated, as upstream.\n"
	      "\n"
	      "For each karpenter.k8s.aws/v1 EC2NodeClass, prints the hash and hash version\n"
	      "its hash controller writes (karpenter.k8s.aws/ec2nodeclass-hash,\n"
	      "karpenter.k8s.aws/ec2nodeclass-hash-version). A NodeClaim not drifted by its\n"
	      "NodePool whose nodeClassRef names an EC2NodeClass of the input is\n"
	      "NodeClassDrift when its karpenter.k8s.aws/ec2nodeclass-hash differs from the\n"
	      "class's at the same hash version, as the AWS provider decides. Drift the\n"
	      "provider reads from the instance (AMI, subnet, security group, capacity\n"
	      "reservation) is not evaluated. The same hash and rule give `disrupt` and\n"
	      "`reconcile --provider aws` their NodeClassDrift.\n"
	      "\n"
	      "A taint's timeAdded is hashed as by a controller whose time zone is UTC.\n"
	      "\n"
	      "Options:\n"
	      "  -f, --filename FILE  manifests to read (repeatable; \"-\" for stdin)\n"
	      "  -o, --output FORMAT  text (default) or json\n"
	      "  --ca-bundle TEXT     the cluster CA bundle upstream's EC2NodeClass hash\n"
	      "                       covers (EC2NodeClass.Hash(caBundle)); default none\n"
	      "\n"
	      "Exit codes: 0 success, 1 invalid input (a file that cannot be decoded, a\n"
	      "NodePool or EC2NodeClass that cannot be hashed, neither at all), 2 usage\n"
	      "error (a path that cannot be read, has no manifest file or is too large\n"
	      "included).\n",
	      out);
}

/* One row of the NodeClaim table. */
typedef struct nc_row {
	const char *name;
	const char *nodepool; /* label value, or NULL */
	int drifted;          /* 1, 0, or -1 (unknown) */
	const char *reason;   /* "" when not drifted */
	char *message;
} nc_row;

typedef struct np_row {
	const char *name;
	const kp_nodepool *np;
	char hash[KP_HASH_STRING_MAX]; /* a uint64_t in decimal: always fits */
} np_row;

/* One EC2NodeClass. */
typedef struct class_row {
	const char *name;
	const void *nc;
	char hash[KP_HASH_STRING_MAX];
} class_row;

typedef struct state {
	kp_decode_result **results;
	size_t n_results;
	np_row *nps;
	size_t n_nps;
	class_row *classes;
	size_t n_classes;
	uint32_t aws_kind; /* EC2NodeClass's id, 0 without libkarpenter-aws */
	const char *ca_bundle; /* --ca-bundle, or NULL */
	const kp_decoded_object **ncs;
	size_t n_ncs;
	nc_row *rows;
	kp_registry *registry; /* the kinds decoded: the core's, KWOKNodeClass, EC2NodeClass */
	kp__map np_index;      /* NodePool name -> index in nps */
	kp__map class_index;   /* EC2NodeClass name -> index in classes */
} state;

static void state_free(state *s)
{
	for (size_t i = 0; i < s->n_results; i++)
		kp_decode_result_free(s->results[i]);
	free(s->results);
	kp_registry_free(s->registry);
	free(s->nps);
	free(s->classes);
	free(s->ncs);
	if (s->rows)
		for (size_t i = 0; i < s->n_ncs; i++)
			free(s->rows[i].message);
	free(s->rows);
	kp__map_free(&s->np_index);
	kp__map_free(&s->class_index);
}

static int oom(FILE *err)
{
	fprintf(err, PROG ": out of memory\n");
	return CLI_INVALID;
}

static void *grow(void *p, size_t n, size_t size)
{
	return realloc(p, (n + 1) * size);
}

static const char *labelled_nodepool(const kp_nodeclaim *nc)
{
	return nc->metadata ? kp_labels_get(&nc->metadata->labels, KP_LABEL_NODEPOOL) : NULL;
}

static const np_row *find_nodepool(const state *s, const char *name)
{
	uint32_t at = 0;
	return name && kp__map_gets(&s->np_index, name, &at) ? &s->nps[at] : NULL;
}

static char *xstrdup(const char *t)
{
	size_t n = strlen(t) + 1;
	char *c = malloc(n);
	if (c)
		memcpy(c, t, n);
	return c;
}

/* "NodePool \"NAME\" is not in the input", allocated to the name's length
 * (a label value of any length). */
static char *not_in_input(const char *name)
{
	static const char head[] = "NodePool \"", tail[] = "\" is not in the input";
	size_t n = strlen(name);
	char *m = malloc(sizeof(head) - 1 + n + sizeof(tail));
	if (m) {
		memcpy(m, head, sizeof(head) - 1);
		memcpy(m + sizeof(head) - 1, name, n);
		memcpy(m + sizeof(head) - 1 + n, tail, sizeof(tail));
	}
	return m;
}


/* An EC2NodeClass, defaulted and hashed as its hash controller hashes it. */
static int add_class(state *s, const char *file, const kp_decoded_object *o, FILE *err)
{
	int inserted = 0;
	if (s->n_classes >= UINT32_MAX ||
	    kp__map_put(&s->class_index, o->name, strlen(o->name), (uint32_t)s->n_classes, NULL,
			&inserted))
		return oom(err);
	if (!inserted) {
		fprintf(err, PROG ": %s: EC2NodeClass/%s is given twice\n", file, o->name);
		return CLI_INVALID;
	}
	kp_error e = KP_ERROR_INIT;
	class_row row = { o->name, o->object, "" };
	uint64_t h = 0;
	int rc = kp_registry_object_default(s->registry, o->kind, o->object, &e);
	if (!rc)
		rc = kp_registry_object_hash(s->registry, o->kind, o->object, NULL, &h, &e);
	if (rc == KP_ENOMEM)
		return oom(err);
	if (rc) {
		fprintf(err, PROG ": %s: EC2NodeClass/%s: %s%s%s\n", file, o->name, e.field,
			*e.field ? ": " : "", e.message);
		return CLI_INVALID;
	}
	snprintf(row.hash, sizeof(row.hash), "%llu", (unsigned long long)h);
	void *p = grow(s->classes, s->n_classes, sizeof(*s->classes));
	if (!p)
		return oom(err);
	s->classes = p;
	s->classes[s->n_classes++] = row;
	return CLI_OK;
}

/* Decode one file and collect its NodePools (defaulted and hashed),
 * EC2NodeClasses (the same) and NodeClaims. */
static int read_manifest(state *s, cli_manifests *ms, size_t at, FILE *err)
{
	const cli_manifest *m = &ms->items[at];
	kp_decode_result *res = NULL;
	kp_error e = KP_ERROR_INIT;
	uint32_t kwok_kind = 0;
	int rc = KP_OK;
	if (!s->registry) {
		rc = cli_registry_new(&s->registry, &kwok_kind, &e);
#ifdef KP_HAVE_AWS
		kp_aws_register_options ao = KP_AWS_REGISTER_OPTIONS_INIT;
		ao.ca_bundle = s->ca_bundle;
		if (rc == KP_OK)
			rc = kp_aws_register(s->registry, &ao, &s->aws_kind, &e);
#endif
	}
	kp_decode_options dopts = KP_DECODE_OPTIONS_INIT;
	dopts.registry = s->registry;
	int usage = 0;
	if (rc == KP_OK)
		rc = cli_manifest_decode(ms, at, &dopts, &res, &e, &usage);
	if (usage) {
		fprintf(err, PROG ": %s\n", e.message);
		return CLI_USAGE;
	}
	if (rc == KP_ENOMEM)
		return oom(err);
	if (rc) {
		fprintf(err, PROG ": %s: %s\n", m->name, e.message);
		return CLI_INVALID;
	}
	void *p = grow(s->results, s->n_results, sizeof(*s->results));
	if (!p) {
		kp_decode_result_free(res);
		return oom(err);
	}
	s->results = p;
	s->results[s->n_results++] = res;
	for (size_t i = 0; i < kp_decode_result_count(res); i++) {
		const kp_decoded_object *o = kp_decode_result_at(res, i);
		if (o->kind == KP_KIND_NODEPOOL) {
			int inserted = 0;
			if (s->n_nps >= UINT32_MAX ||
			    kp__map_put(&s->np_index, o->name, strlen(o->name), (uint32_t)s->n_nps,
					NULL, &inserted))
				return oom(err);
			if (!inserted) {
				fprintf(err, PROG ": %s: NodePool/%s is given twice\n", m->name, o->name);
				return CLI_INVALID;
			}
			rc = kp_nodepool_default(o->object, &e);
			np_row row = { o->name, o->object, "" };
			if (!rc)
				rc = kp_nodepool_hash_string(o->object, NULL, row.hash, sizeof(row.hash),
							     &e);
			if (rc == KP_ENOMEM)
				return oom(err);
			if (rc) {
				fprintf(err, PROG ": %s: NodePool/%s: %s%s%s\n", m->name, o->name, e.field,
					*e.field ? ": " : "", e.message);
				return CLI_INVALID;
			}
			p = grow(s->nps, s->n_nps, sizeof(*s->nps));
			if (!p)
				return oom(err);
			s->nps = p;
			s->nps[s->n_nps++] = row;
		} else if (s->aws_kind && o->kind == s->aws_kind) {
			if ((rc = add_class(s, m->name, o, err)) != CLI_OK)
				return rc;
		} else if (o->kind == KP_KIND_NODECLAIM) {
			p = grow(s->ncs, s->n_ncs, sizeof(*s->ncs));
			if (!p)
				return oom(err);
			s->ncs = p;
			s->ncs[s->n_ncs++] = o;
		} else if (o->kind_name && (!strcmp(o->kind_name, "NodePool") ||
					    !strcmp(o->kind_name, "NodeClaim"))) {
			fprintf(err, "Warning: %s: %s/%s skipped: apiVersion %s is not %s\n", m->name,
				o->kind_name, o->name, o->api_version,
				kp_kind_api_version(KP_KIND_NODEPOOL));
		}
	}
	return CLI_OK;
}

static int launched(const kp_nodeclaim *nc)
{
	const kp_condition *c = nc->status ? kp_condition_find(nc->status->conditions,
							       nc->status->n_conditions,
							       "Launched") : NULL;
	return c && c->status && !strcmp(c->status, "True");
}

#ifdef KP_HAVE_AWS
static const class_row *find_class(const state *s, const char *name)
{
	uint32_t at = 0;
	return name && kp__map_gets(&s->class_index, name, &at) ? &s->classes[at] : NULL;
}

/* The row's message becomes the parts (input-derived text of any length),
 * after its current text and "; " when @p keep is set. */
static int set_message(nc_row *r, int keep, const char *const *parts, size_t n_parts)
{
	const char *head = keep && r->message ? r->message : "";
	const char *sep = *head ? "; " : "";
	size_t n = strlen(head) + strlen(sep) + 1;
	for (size_t i = 0; i < n_parts; i++)
		n += strlen(parts[i]);
	char *m = malloc(n);
	if (!m)
		return KP_ENOMEM;
	size_t len = (size_t)snprintf(m, n, "%s%s", head, sep);
	for (size_t i = 0; i < n_parts; i++) {
		size_t k = strlen(parts[i]);
		memcpy(m + len, parts[i], k + 1);
		len += k;
	}
	free(r->message);
	r->message = m;
	return KP_OK;
}

/* A NodeClaim the NodePool does not drift: the AWS provider's static drift
 * of its EC2NodeClass (NodeClassDrift, kp_aws_nodeclaim_static_drift). */
static int class_drift(state *s, const kp_nodeclaim *nc, nc_row *r, FILE *err)
{
	const kp_node_class_reference *ref = nc->spec ? nc->spec->node_class_ref : NULL;
	if (!s->aws_kind || !ref || !ref->group || strcmp(ref->group, "karpenter.k8s.aws") ||
	    !ref->kind || strcmp(ref->kind, "EC2NodeClass") || !ref->name)
		return CLI_OK;
	const class_row *c = find_class(s, ref->name);
	const char *version = kp_registry_kind_hash_version(s->registry, s->aws_kind);
	int rc;
	if (!c) {
		r->drifted = -1;
		const char *parts[] = { "EC2NodeClass \"", ref->name, "\" is not in the input" };
		rc = set_message(r, 1, parts, 3);
		return rc ? oom(err) : CLI_OK;
	}
	kp_aws_static_drift d = KP_AWS_STATIC_DRIFT_INIT;
	kp_error e = KP_ERROR_INIT;
	if (kp_aws_nodeclaim_static_drift(&d, nc, c->hash, version, &e)) {
		fprintf(err, PROG ": NodeClaim/%s: %s\n", r->name, e.message);
		return CLI_INVALID;
	}
	if (d.state == KP_AWS_STATIC_DRIFT_DRIFTED) {
		r->drifted = 1;
		r->reason = d.reason;
		const char *parts[] = { "EC2NodeClass hash ", c->hash, " differs from the NodeClaim's ",
					d.nodeclaim_hash, " (hash version ", version, ")" };
		rc = set_message(r, 0, parts, 7);
	} else if (d.state == KP_AWS_STATIC_DRIFT_MATCH) {
		const char *parts[] = { "EC2NodeClass static fields match (hash ", c->hash,
					", version ", version, ")" };
		rc = set_message(r, 1, parts, 5);
	} else if (!d.nodeclaim_hash || !d.nodeclaim_hash_version) {
		const char *parts[] = { "EC2NodeClass static drift not evaluated: the NodeClaim has "
					"no ", !d.nodeclaim_hash ? KP_AWS_ANNOTATION_EC2NODECLASS_HASH
					: KP_AWS_ANNOTATION_EC2NODECLASS_HASH_VERSION, " annotation" };
		rc = set_message(r, 1, parts, 3);
	} else {
		const char *parts[] = { "EC2NodeClass static drift not evaluated: hash versions "
					"differ (EC2NodeClass ", version, ", NodeClaim ",
					d.nodeclaim_hash_version, ")" };
		rc = set_message(r, 1, parts, 5);
	}
	return rc ? oom(err) : CLI_OK;
}
#else
static int class_drift(state *s, const kp_nodeclaim *nc, nc_row *r, FILE *err)
{
	(void)s;
	(void)nc;
	(void)r;
	(void)err;
	return CLI_OK;
}
#endif

static int evaluate(state *s, FILE *err)
{
	s->rows = calloc(s->n_ncs ? s->n_ncs : 1, sizeof(*s->rows));
	if (!s->rows)
		return oom(err);
	kp_drift_options opts = KP_DRIFT_OPTIONS_INIT;
	opts.flags = KP_DRIFT_HASH_FROM_SPEC;
	for (size_t i = 0; i < s->n_ncs; i++) {
		const kp_nodeclaim *nc = s->ncs[i]->object;
		nc_row *r = &s->rows[i];
		r->name = s->ncs[i]->name;
		r->nodepool = labelled_nodepool(nc);
		r->reason = "";
		r->drifted = -1;
		const np_row *np = find_nodepool(s, r->nodepool);
		if (!r->nodepool) {
			r->message = xstrdup("the NodeClaim has no karpenter.sh/nodepool label");
		} else if (!np) {
			r->message = not_in_input(r->nodepool);
		} else {
			kp_drift *d = NULL;
			kp_error e = KP_ERROR_INIT;
			int rc = kp_drift_check(&d, np->np, nc, &opts, &e);
			if (rc == KP_ENOMEM)
				return oom(err);
			if (rc) {
				fprintf(err, PROG ": NodeClaim/%s: NodePool/%s: %s%s%s\n", r->name,
					np->name, e.field, *e.field ? ": " : "", e.message);
				return CLI_INVALID;
			}
			r->drifted = d->reason_code != KP_DRIFT_NONE;
			r->reason = d->reason; /* static text */
			r->message = xstrdup(d->message);
			kp_drift_free(d);
			if (r->message && !r->drifted && launched(nc) &&
			    (rc = class_drift(s, nc, r, err)) != CLI_OK)
				return rc;
		}
		if (!r->message)
			return oom(err);
	}
	return CLI_OK;
}

static size_t width(size_t w, const char *s)
{
	size_t n = strlen(s);
	return n > w ? n : w;
}

static const char *or_none(const char *s)
{
	return s && *s ? s : "<none>";
}

static const char *drifted_text(int d)
{
	return d < 0 ? "unknown" : d ? "true" : "false";
}

static void print_text(const state *s, FILE *out)
{
	size_t w1 = strlen("NAME"), w2 = strlen("HASH");
	for (size_t i = 0; i < s->n_nps; i++) {
		w1 = width(w1, s->nps[i].name);
		w2 = width(w2, s->nps[i].hash);
	}
	if (s->n_nps)
		fprintf(out, "%-*s   %-*s   %s\n", (int)w1, "NAME", (int)w2, "HASH",
			"HASH-VERSION");
	for (size_t i = 0; i < s->n_nps; i++)
		fprintf(out, "%-*s   %-*s   %s\n", (int)w1, s->nps[i].name, (int)w2, s->nps[i].hash,
			KP_NODEPOOL_HASH_VERSION);
	if (s->n_classes) {
		const char *version = kp_registry_kind_hash_version(s->registry, s->aws_kind);
		w1 = strlen("EC2NODECLASS"), w2 = strlen("HASH");
		for (size_t i = 0; i < s->n_classes; i++) {
			w1 = width(w1, s->classes[i].name);
			w2 = width(w2, s->classes[i].hash);
		}
		fprintf(out, "%s%-*s   %-*s   %s\n", s->n_nps ? "\n" : "", (int)w1, "EC2NODECLASS",
			(int)w2, "HASH", "HASH-VERSION");
		for (size_t i = 0; i < s->n_classes; i++)
			fprintf(out, "%-*s   %-*s   %s\n", (int)w1, s->classes[i].name, (int)w2,
				s->classes[i].hash, version);
	}
	if (!s->n_ncs)
		return;
	size_t c1 = strlen("NODECLAIM"), c2 = strlen("NODEPOOL"), c3 = strlen("DRIFTED"),
	       c4 = strlen("REASON");
	for (size_t i = 0; i < s->n_ncs; i++) {
		c1 = width(c1, s->rows[i].name);
		c2 = width(c2, or_none(s->rows[i].nodepool));
		c3 = width(c3, drifted_text(s->rows[i].drifted));
		c4 = width(c4, or_none(s->rows[i].reason));
	}
	fprintf(out, "\n%-*s   %-*s   %-*s   %-*s   %s\n", (int)c1, "NODECLAIM", (int)c2, "NODEPOOL",
		(int)c3, "DRIFTED", (int)c4, "REASON", "MESSAGE");
	for (size_t i = 0; i < s->n_ncs; i++) {
		const nc_row *r = &s->rows[i];
		fprintf(out, "%-*s   %-*s   %-*s   %-*s   %s\n", (int)c1, r->name, (int)c2,
			or_none(r->nodepool), (int)c3, drifted_text(r->drifted), (int)c4,
			or_none(r->reason), r->message);
	}
}

static void json_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(out, "\\%c", *p);
		else if (*p < 0x20)
			fprintf(out, "\\u%04x", *p);
		else
			fputc(*p, out);
	}
	fputc('"', out);
}

static void print_json(const state *s, FILE *out)
{
	fputs("{\"nodePools\":[", out);
	for (size_t i = 0; i < s->n_nps; i++) {
		fputs(i ? ",{\"name\":" : "{\"name\":", out);
		json_string(out, s->nps[i].name);
		fprintf(out, ",\"hash\":\"%s\",\"hashVersion\":\"%s\"}", s->nps[i].hash,
			KP_NODEPOOL_HASH_VERSION);
	}
	fputs("],\"ec2NodeClasses\":[", out);
	for (size_t i = 0; i < s->n_classes; i++) {
		fputs(i ? ",{\"name\":" : "{\"name\":", out);
		json_string(out, s->classes[i].name);
		fprintf(out, ",\"hash\":\"%s\",\"hashVersion\":", s->classes[i].hash);
		json_string(out, kp_registry_kind_hash_version(s->registry, s->aws_kind));
		fputc('}', out);
	}
	fputs("],\"nodeClaims\":[", out);
	for (size_t i = 0; i < s->n_ncs; i++) {
		const nc_row *r = &s->rows[i];
		fputs(i ? ",{\"name\":" : "{\"name\":", out);
		json_string(out, r->name);
		fputs(",\"nodePool\":", out);
		if (r->nodepool)
			json_string(out, r->nodepool);
		else
			fputs("null", out);
		fprintf(out, ",\"drifted\":%s,\"reason\":", r->drifted < 0 ? "null"
							     : r->drifted ? "true" : "false");
		json_string(out, r->reason);
		fputs(",\"message\":", out);
		json_string(out, r->message);
		fputc('}', out);
	}
	fputs("]}\n", out);
}

static int hash_run(int argc, char **argv, FILE *out, FILE *err)
{
	cli_manifests m = CLI_MANIFESTS_INIT;
	state s;
	memset(&s, 0, sizeof(s));
	int json = 0, rc = CLI_USAGE;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *file = NULL, *fmt = NULL;
		if (!strcmp(a, "-f") || !strcmp(a, "--filename")) {
			if (i + 1 >= argc) {
				fprintf(err, PROG ": %s needs a file name\n", a);
				hash_usage(err);
				goto done;
			}
			file = argv[++i];
		} else if (!strncmp(a, "--filename=", 11)) {
			file = a + 11;
		} else if (!strncmp(a, "-f", 2) && a[2]) {
			file = a + 2;
		} else if (!strcmp(a, "-o") || !strcmp(a, "--output")) {
			if (i + 1 >= argc) {
				fprintf(err, PROG ": %s needs a format\n", a);
				hash_usage(err);
				goto done;
			}
			fmt = argv[++i];
		} else if (!strcmp(a, "--ca-bundle")) {
			if (i + 1 >= argc) {
				fprintf(err, PROG ": %s needs a value\n", a);
				hash_usage(err);
				goto done;
			}
			s.ca_bundle = argv[++i];
		} else if (!strncmp(a, "--ca-bundle=", 12)) {
			s.ca_bundle = a + 12;
		} else if (!strncmp(a, "--output=", 9)) {
			fmt = a + 9;
		} else if (!strncmp(a, "-o", 2) && a[2]) {
			fmt = a + 2;
		} else {
			fprintf(err, PROG ": unknown argument \"%s\"\n", a);
			hash_usage(err);
			goto done;
		}
		if (fmt) {
			if (!strcmp(fmt, "json")) {
				json = 1;
			} else if (!strcmp(fmt, "text")) {
				json = 0;
			} else {
				fprintf(err, PROG ": unsupported output format \"%s\"\n", fmt);
				goto done;
			}
		}
		if (file) {
			if (!*file) {
				fprintf(err, PROG ": empty file name\n");
				goto done;
			}
			rc = cli_manifests_add(&m, file, PROG, err);
			if (rc)
				goto done;
			rc = CLI_USAGE;
		}
	}
	if (!m.count) {
		fprintf(err, PROG ": no input: give -f FILE (or -f - for stdin)\n");
		hash_usage(err);
		goto done;
	}
	for (size_t i = 0; i < m.count; i++) {
		rc = read_manifest(&s, &m, i, err);
		if (rc)
			goto done;
	}
	if (!s.n_nps && !s.n_classes) {
		fprintf(err, PROG ": no %s NodePool%s in the input\n",
			kp_kind_api_version(KP_KIND_NODEPOOL),
			s.aws_kind ? " or karpenter.k8s.aws/v1 EC2NodeClass" : "");
		rc = CLI_INVALID;
		goto done;
	}
	rc = evaluate(&s, err);
	if (rc)
		goto done;
	if (json)
		print_json(&s, out);
	else
		print_text(&s, out);
	rc = CLI_OK;
done:
	state_free(&s);
	cli_manifests_free(&m);
	return rc;
}

const cli_command cli_cmd_hash = {
	"hash", "Print NodePool and EC2NodeClass drift hashes and NodeClaim drift", hash_run,
	hash_usage,
};
