/*
 * kubectl-karpenter hash: the drift hash Karpenter's hash controller writes
 * on each NodePool, and whether the NodeClaims given with it are drifted.
 * SPDX-License-Identifier: Apache-2.0
 */
#define KP_EXPERIMENTAL_API 1 /* KWOKNodeClass is registered (karpenter/sys/kwok.h) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <karpenter/karpenter.h>
#include <karpenter/sys/schema.h>

#include "cli.h"
#include "cluster_input.h"
#include "manifests.h"

#define PROG "kubectl-karpenter hash"

static void hash_usage(FILE *out)
{
	fputs("Usage: kubectl-karpenter hash -f FILE [-f FILE ...] [-o text|json]\n"
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
	      "Drift decided by the cloud provider (node class changes) is not evaluated.\n"
	      "\n"
	      "A taint's timeAdded is hashed as by a controller whose time zone is UTC.\n"
	      "\n"
	      "Options:\n"
	      "  -f, --filename FILE  manifests to read (repeatable; \"-\" for stdin)\n"
	      "  -o, --output FORMAT  text (default) or json\n"
	      "\n"
	      "Exit codes: 0 success, 1 invalid input (a file that cannot be decoded, a\n"
	      "NodePool that cannot be hashed, no NodePool at all), 2 usage error (a\n"
	      "path that cannot be read, has no manifest file or is too large included).\n",
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

typedef struct state {
	kp_decode_result **results;
	size_t n_results;
	np_row *nps;
	size_t n_nps;
	const kp_decoded_object **ncs;
	size_t n_ncs;
	nc_row *rows;
	kp_registry *registry; /* the kinds decoded: the core's and KWOKNodeClass */
} state;

static void state_free(state *s)
{
	for (size_t i = 0; i < s->n_results; i++)
		kp_decode_result_free(s->results[i]);
	free(s->results);
	kp_registry_free(s->registry);
	free(s->nps);
	free(s->ncs);
	if (s->rows)
		for (size_t i = 0; i < s->n_ncs; i++)
			free(s->rows[i].message);
	free(s->rows);
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
	for (size_t i = 0; name && i < s->n_nps; i++)
		if (!strcmp(s->nps[i].name, name))
			return &s->nps[i];
	return NULL;
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

/* Decode one file and collect its NodePools (defaulted and hashed) and
 * NodeClaims. */
static int read_manifest(state *s, cli_manifests *ms, size_t at, FILE *err)
{
	const cli_manifest *m = &ms->items[at];
	kp_decode_result *res = NULL;
	kp_error e = KP_ERROR_INIT;
	uint32_t kwok_kind = 0;
	int rc = s->registry ? KP_OK : cli_registry_new(&s->registry, &kwok_kind, &e);
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
			if (find_nodepool(s, o->name)) {
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
	fprintf(out, "%-*s   %-*s   %s\n", (int)w1, "NAME", (int)w2, "HASH", "HASH-VERSION");
	for (size_t i = 0; i < s->n_nps; i++)
		fprintf(out, "%-*s   %-*s   %s\n", (int)w1, s->nps[i].name, (int)w2, s->nps[i].hash,
			KP_NODEPOOL_HASH_VERSION);
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
	if (!s.n_nps) {
		fprintf(err, PROG ": no %s NodePool in the input\n",
			kp_kind_api_version(KP_KIND_NODEPOOL));
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
	"hash", "Print NodePool drift hashes and NodeClaim drift", hash_run, hash_usage,
};
