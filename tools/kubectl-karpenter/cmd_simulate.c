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

#include <cjson/cJSON.h>

#include <karpenter/karpenter.h>
#include <karpenter/scheduling.h>
#include <karpenter/validation.h>
#include <karpenter/kwok.h>

#include "cli.h"
#include "manifests.h"
#include "output.h"

#define PROG "kubectl-karpenter simulate"

static void simulate_usage(FILE *out)
{
	fputs("Usage: kubectl-karpenter simulate -f FILE [-f FILE ...] [--instance-types FILE]\n"
	      "                                  [--max-instance-types N] [-o text|json|yaml]\n"
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
	      "Output is deterministic: the same input gives the same bytes.\n"
	      "Exit codes: 0 every pod is placed, 1 invalid input or some pod cannot be\n"
	      "placed, 2 usage error (a path that cannot be read, has no manifest file or\n"
	      "is too large included).\n", out);
}

/* ------------------------------------------------------------------ */
/* Growable pointer arrays                                             */
/* ------------------------------------------------------------------ */

typedef struct ptrvec {
	const void **items;
	size_t count, cap;
} ptrvec;

static int vec_push(ptrvec *v, const void *p)
{
	if (v->count == v->cap) {
		size_t cap = v->cap ? v->cap * 2 : 16;
		const void **items = realloc((void *)v->items, cap * sizeof(*items));
		if (!items)
			return -1;
		v->items = items;
		v->cap = cap;
	}
	v->items[v->count++] = p;
	return 0;
}

static void vec_free(ptrvec *v)
{
	free((void *)v->items);
	v->items = NULL;
	v->count = v->cap = 0;
}

/* ------------------------------------------------------------------ */
/* Inputs                                                              */
/* ------------------------------------------------------------------ */

typedef struct objects {
	ptrvec nodepools, nodeclaims, kwok_nodeclasses, nodes, pods, daemonsets, pdbs, pvcs, pvs,
		storage_classes, csi_nodes, namespaces;
	/* for duplicate detection */
	struct seen {
		uint32_t kind;
		const char *ns, *name, *file;
		size_t seq; /* input order, so that messages name the files in order */
	} *seen;
	size_t n_seen, cap_seen;
} objects;

static void objects_free(objects *o)
{
	ptrvec *all[] = { &o->nodepools, &o->nodeclaims, &o->kwok_nodeclasses, &o->nodes, &o->pods,
			  &o->daemonsets, &o->pdbs, &o->pvcs, &o->pvs, &o->storage_classes,
			  &o->csi_nodes, &o->namespaces };
	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		vec_free(all[i]);
	free(o->seen);
}

static int cmp_seen(const void *a, const void *b)
{
	const struct seen *x = a, *y = b;
	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	int c = strcmp(x->ns, y->ns);
	if (c)
		return c;
	return strcmp(x->name, y->name);
}

static int cmp_seen_seq(const void *a, const void *b)
{
	int c = cmp_seen(a, b);
	if (c)
		return c;
	const struct seen *x = a, *y = b;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Karpenter kinds are cluster-scoped, as are Node, PV, StorageClass,
 * CSINode and Namespace; a namespace written on them is ignored by the API server. */
static int namespaced(uint32_t kind)
{
	return kind == KP_KIND_POD || kind == KP_KIND_DAEMONSET || kind == KP_KIND_PDB ||
	       kind == KP_KIND_PVC;
}

static int add_seen(objects *o, uint32_t kind, const kp_decoded_object *d, const char *file)
{
	if (o->n_seen == o->cap_seen) {
		size_t cap = o->cap_seen ? o->cap_seen * 2 : 64;
		struct seen *s = realloc(o->seen, cap * sizeof(*s));
		if (!s)
			return -1;
		o->seen = s;
		o->cap_seen = cap;
	}
	const char *ns = namespaced(kind) ? (d->namespace_ && *d->namespace_ ? d->namespace_ : "default")
					  : "";
	o->seen[o->n_seen] = (struct seen){ kind, ns, d->name ? d->name : "", file, o->n_seen };
	o->n_seen++;
	return 0;
}

/* The Ready condition of a KWOKNodeClass as a kp_nodeclass_status. */
static void nodeclass_status(kp_nodeclass_status *st, const kp_kwok_nodeclass *nc)
{
	kp_nodeclass_status init = KP_NODECLASS_STATUS_INIT;
	*st = init;
	st->group = KP_KWOK_GROUP;
	st->kind = KP_KWOK_NODECLASS_KIND;
	st->name = nc->metadata && nc->metadata->name ? nc->metadata->name : "";
	st->ready = 1; /* no Ready condition: the status controller has not run yet */
	if (nc->status) {
		for (size_t i = 0; i < nc->status->n_conditions; i++) {
			const kp_condition *c = nc->status->conditions[i];
			if (!c || !c->type || strcmp(c->type, "Ready") != 0)
				continue;
			st->ready = c->status && !strcmp(c->status, "True");
			st->message = c->message;
		}
	}
}

/* ------------------------------------------------------------------ */
/* Result → document                                                   */
/* ------------------------------------------------------------------ */

static cJSON *str_or_null(const char *s)
{
	return s ? cJSON_CreateString(s) : cJSON_CreateNull();
}

/* The NodeClaim as launched: the simulation's NodeClaim with the launch
 * choice's labels (what the provider's Create puts on it). */
static cJSON *launched_nodeclaim(const kp_sched_nodeclaim *snc, kp_error *e)
{
	kp_nodeclaim *nc = NULL;
	char *txt = NULL;
	size_t len = 0;
	cJSON *j = NULL;
	if (kp_nodeclaim_copy(&nc, snc->nodeclaim, e))
		return NULL;
	if (!nc->metadata) {
		snprintf(e->message, sizeof(e->message), "the simulation's NodeClaim has no metadata");
		goto done;
	}
	struct {
		const char *key, *value;
	} labels[] = {
		{ KP_LABEL_NODEPOOL, snc->nodepool },
		{ KP_LABEL_INSTANCE_TYPE, snc->instance_type },
		{ KP_LABEL_TOPOLOGY_ZONE, snc->zone },
		{ KP_LABEL_CAPACITY_TYPE, snc->capacity_type },
	};
	for (size_t i = 0; i < sizeof(labels) / sizeof(labels[0]); i++)
		if (labels[i].value && kp_labels_set(&nc->metadata->labels, labels[i].key,
						     labels[i].value, e))
			goto done;
	if (kp_encode(&txt, &len, KP_KIND_NODECLAIM, nc, KP_FORMAT_JSON, 0, e))
		goto done;
	j = cJSON_ParseWithLength(txt, len);
	if (!j)
		snprintf(e->message, sizeof(e->message), "cannot read back an encoded NodeClaim");
done:
	kp_encoded_free(txt);
	kp_nodeclaim_free(nc);
	return j;
}

static cJSON *result_document(const kp_sched_result *res, kp_error *e)
{
	cJSON *doc = cJSON_CreateObject();
	cJSON *ncs = cJSON_AddArrayToObject(doc, "nodeClaims");
	cJSON *pods = cJSON_AddArrayToObject(doc, "pods");
	if (!doc || !ncs || !pods)
		goto oom;
	size_t n = kp_sched_result_nodeclaim_count(res);
	for (size_t i = 0; i < n; i++) {
		const kp_sched_nodeclaim *snc = kp_sched_result_nodeclaim(res, i);
		cJSON *entry = cJSON_CreateObject();
		if (!entry)
			goto oom;
		cJSON_AddItemToArray(ncs, entry);
		cJSON *nc = launched_nodeclaim(snc, e);
		if (!nc) {
			cJSON_Delete(doc);
			return NULL;
		}
		cJSON_AddItemToObject(entry, "nodeClaim", nc);
		if (!cJSON_AddNumberToObject(entry, "price", snc->price))
			goto oom;
	}
	size_t np = kp_sched_result_pod_count(res);
	for (size_t i = 0; i < np; i++) {
		const kp_sched_placement *p = kp_sched_result_pod(res, i);
		cJSON *entry = cJSON_CreateObject();
		if (!entry)
			goto oom;
		cJSON_AddItemToArray(pods, entry);
		int on_claim = p->target == KP_SCHED_NEW_NODECLAIM || p->target == KP_SCHED_INFLIGHT;
		int on_node = p->target == KP_SCHED_EXISTING_NODE;
		cJSON_AddItemToObject(entry, "namespace", str_or_null(p->namespace_));
		cJSON_AddItemToObject(entry, "name", str_or_null(p->name));
		cJSON_AddItemToObject(entry, "nodeClaim", str_or_null(on_claim ? p->node : NULL));
		cJSON_AddItemToObject(entry, "node", str_or_null(on_node ? p->node : NULL));
		cJSON *reasons = cJSON_AddArrayToObject(entry, "reasons");
		if (!reasons)
			goto oom;
		for (size_t r = 0; r < p->n_reasons; r++) {
			const kp_sched_reason *why = p->reasons[r];
			cJSON *jr = cJSON_CreateObject();
			if (!jr)
				goto oom;
			cJSON_AddItemToArray(reasons, jr);
			cJSON_AddItemToObject(jr, "code",
					      cJSON_CreateString(kp_sched_reason_code_name(why->code)));
			cJSON_AddItemToObject(jr, "nodePool", str_or_null(why->nodepool));
			cJSON_AddItemToObject(jr, "node", str_or_null(why->node));
			cJSON_AddItemToObject(jr, "field", str_or_null(why->field));
			cJSON_AddItemToObject(jr, "message", str_or_null(why->message));
		}
	}
	if (!cJSON_AddNumberToObject(doc, "cost", kp_sched_result_cost(res)))
		goto oom;
	return doc;
oom:
	cJSON_Delete(doc);
	snprintf(e->message, sizeof(e->message), "out of memory");
	return NULL;
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
		const kp_sched_nodeclaim *s = kp_sched_result_nodeclaim(res, i);
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
		const kp_sched_nodeclaim *s = kp_sched_result_nodeclaim(res, i);
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
			const kp_sched_nodeclaim *s = kp_sched_result_nodeclaim(res, i);
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
		const kp_sched_placement *p = kp_sched_result_pod(res, i);
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
			const kp_sched_placement *p = kp_sched_result_pod(res, i);
			if (p->target != KP_SCHED_EXISTING_NODE && p->target != KP_SCHED_INFLIGHT &&
			    p->target != KP_SCHED_NEW_NODECLAIM)
				print_unplaced(out, p);
		}
	}
}

/* ------------------------------------------------------------------ */
/* The command                                                         */
/* ------------------------------------------------------------------ */

enum { OUT_TEXT, OUT_JSON, OUT_YAML };

typedef struct sim {
	cli_manifests manifests;
	kp_decode_result **decoded;
	size_t n_decoded;
	objects objs;
	kp_instance_types *its;
	kp_wellknown *wk;
	kp_nodeclass_status *classes;
	kp_cluster *cluster;
	kp_sched_result *result;
	cJSON *doc;
} sim;

static void sim_free(sim *s)
{
	cJSON_Delete(s->doc);
	kp_sched_result_free(s->result);
	kp_cluster_free(s->cluster);
	free(s->classes);
	kp_wellknown_free(s->wk);
	kp_instance_types_free(s->its);
	objects_free(&s->objs);
	for (size_t i = 0; i < s->n_decoded; i++)
		kp_decode_result_free(s->decoded[i]);
	free(s->decoded);
	cli_manifests_free(&s->manifests);
}

static int collect(sim *s, size_t file, const kp_validate_options *vo, FILE *err, int *invalid)
{
	kp_decode_result *res = s->decoded[file];
	const char *fname = s->manifests.items[file].name;
	objects *o = &s->objs;
	kp_error e = KP_ERROR_INIT;
	for (size_t i = 0; i < kp_decode_result_count(res); i++) {
		const kp_decoded_object *d = kp_decode_result_at(res, i);
		ptrvec *v = NULL;
		switch (d->kind) {
		case KP_KIND_NODEPOOL: v = &o->nodepools; break;
		case KP_KIND_NODECLAIM: v = &o->nodeclaims; break;
		case KP_KIND_KWOK_NODECLASS: v = &o->kwok_nodeclasses; break;
		case KP_KIND_POD: v = &o->pods; break;
		case KP_KIND_NODE: v = &o->nodes; break;
		case KP_KIND_DAEMONSET: v = &o->daemonsets; break;
		case KP_KIND_PDB: v = &o->pdbs; break;
		case KP_KIND_PVC: v = &o->pvcs; break;
		case KP_KIND_PV: v = &o->pvs; break;
		case KP_KIND_STORAGE_CLASS: v = &o->storage_classes; break;
		case KP_KIND_CSI_NODE: v = &o->csi_nodes; break;
		case KP_KIND_NAMESPACE: v = &o->namespaces; break;
		default:
			fprintf(err, "%s: %s: skipped %s/%s (%s): not a kind the simulation reads\n",
				PROG, fname, d->kind_name, d->name, d->api_version);
			continue;
		}
		if (d->kind == KP_KIND_NODEPOOL || d->kind == KP_KIND_NODECLAIM ||
		    d->kind == KP_KIND_KWOK_NODECLASS) {
			/* What the API server would store: defaults applied, and
			 * nothing it would refuse. */
			if (kp_object_default(d->kind, d->object, &e)) {
				fprintf(err, "%s: %s: %s/%s: %s\n", PROG, fname, d->kind_name, d->name,
					e.message);
				return -1;
			}
			kp_validation *val = NULL;
			if (kp_validate(&val, d->kind, d->object, NULL, vo, &e)) {
				fprintf(err, "%s: %s: %s/%s: %s\n", PROG, fname, d->kind_name, d->name,
					e.message);
				return -1;
			}
			for (size_t j = 0; j < kp_validation_count(val); j++) {
				const kp_field_error *fe = kp_validation_at(val, j);
				fprintf(err, "%s: %s: %s: %s\n", fname, fe->object, fe->field, fe->message);
				*invalid = 1;
			}
			for (size_t j = 0; j < kp_validation_warning_count(val); j++) {
				const kp_field_error *w = kp_validation_warning_at(val, j);
				fprintf(err, "Warning: %s: %s: %s: %s\n", fname, w->object, w->field,
					w->message);
			}
			kp_validation_free(val);
		}
		if (vec_push(v, d->object) || add_seen(o, d->kind, d, fname)) {
			fprintf(err, "%s: out of memory\n", PROG);
			return -1;
		}
	}
	return 0;
}

static int check_duplicates(objects *o, FILE *err)
{
	int dup = 0;
	if (o->n_seen < 2)
		return 0;
	qsort(o->seen, o->n_seen, sizeof(*o->seen), cmp_seen_seq);
	for (size_t i = 1; i < o->n_seen; i++) {
		if (cmp_seen(&o->seen[i - 1], &o->seen[i]))
			continue;
		const struct seen *a = &o->seen[i - 1];
		fprintf(err, "%s: %s %s%s%s given twice (in %s and %s)\n", PROG, kp_kind_name(a->kind),
			a->ns, *a->ns ? "/" : "", a->name, a->file, o->seen[i].file);
		dup = 1;
	}
	return dup;
}

static int parse_output(const char *fmt, int *out)
{
	if (!strcmp(fmt, "text") || !strcmp(fmt, "wide"))
		*out = OUT_TEXT;
	else if (!strcmp(fmt, "json"))
		*out = OUT_JSON;
	else if (!strcmp(fmt, "yaml"))
		*out = OUT_YAML;
	else
		return -1;
	return 0;
}

static int simulate_run(int argc, char **argv, FILE *out, FILE *err)
{
	sim s;
	memset(&s, 0, sizeof(s));
	const char **files = calloc((size_t)argc, sizeof(*files));
	size_t n_files = 0;
	const char *catalogue = NULL;
	unsigned long max_its = 0;
	int format = OUT_TEXT, rc = CLI_USAGE;
	kp_error e = KP_ERROR_INIT;
	if (!files) {
		fprintf(err, "%s: out of memory\n", PROG);
		return CLI_INVALID;
	}

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *val = NULL, *opt = NULL;
		int kind = 0; /* 1 file, 2 output, 3 instance types, 4 max */
		static const struct {
			const char *name, *short_name;
			int kind;
		} options[] = {
			{ "--filename", "-f", 1 },
			{ "--output", "-o", 2 },
			{ "--instance-types", NULL, 3 },
			{ "--max-instance-types", NULL, 4 },
		};
		for (size_t k = 0; k < sizeof(options) / sizeof(options[0]) && !kind; k++) {
			size_t l = strlen(options[k].name);
			const char *sn = options[k].short_name;
			if (!strcmp(a, options[k].name) || (sn && !strcmp(a, sn))) {
				if (i + 1 >= argc) {
					fprintf(err, "%s: %s needs a value\n", PROG, a);
					simulate_usage(err);
					goto done;
				}
				val = argv[++i];
			} else if (!strncmp(a, options[k].name, l) && a[l] == '=') {
				val = a + l + 1;
			} else if (sn && !strncmp(a, sn, 2) && a[2]) {
				val = a + 2; /* -fFILE, -ojson */
			} else {
				continue;
			}
			opt = options[k].name;
			kind = options[k].kind;
		}
		if (!kind) {
			fprintf(err, "%s: unknown argument \"%s\"\n", PROG, a);
			simulate_usage(err);
			goto done;
		}
		switch (kind) {
		case 1:
			files[n_files++] = val;
			break;
		case 2:
			if (parse_output(val, &format)) {
				fprintf(err, "%s: unsupported output format \"%s\" (text, json or yaml)\n",
					PROG, val);
				goto done;
			}
			break;
		case 3:
			if (!*val) {
				fprintf(err, "%s: %s needs a file name\n", PROG, opt);
				goto done;
			}
			catalogue = val;
			break;
		case 4: {
			char *end = NULL;
			errno = 0;
			unsigned long m = strtoul(val, &end, 10);
			if (!*val || *end || errno || val[0] == '-' || m == 0 || m > 100000) {
				fprintf(err, "%s: invalid value \"%s\" for %s (an integer from 1 to "
					     "100000)\n", PROG, val, opt);
				goto done;
			}
			max_its = m;
			break;
		}
		}
	}
	if (!n_files) {
		fprintf(err, "%s: no input: give -f FILE or -f DIR (or -f - for stdin)\n", PROG);
		simulate_usage(err);
		goto done;
	}
	/* Read everything first: an unreadable path is a usage error, before
	 * any output. */
	for (size_t i = 0; i < n_files; i++)
		if ((rc = cli_manifests_add(&s.manifests, files[i], PROG, err)) != CLI_OK)
			goto done;

	if (catalogue) {
		/* Read here rather than by kp_kwok_catalog_load_file, so that a
		 * catalogue that cannot be read (missing, a directory, too
		 * large) is a usage error exactly as an -f path; only a
		 * catalogue that is read and refused is invalid input. */
		char *text = NULL;
		size_t len = 0;
		rc = cli_read_file(catalogue, KP_KWOK_CATALOG_MAX_BYTES,
				   "an instance-type catalogue", &text, &len,
				   PROG ": --instance-types", err);
		if (rc)
			goto done;
		rc = CLI_INVALID;
		int r = kp_kwok_catalog_parse(&s.its, text, len, catalogue, &e);
		free(text);
		if (r) {
			fprintf(err, "%s: --instance-types: %s\n", PROG, e.message);
			goto done;
		}
	}
	rc = CLI_INVALID;
	if (!catalogue && kp_kwok_catalog_builtin(&s.its, &e)) {
		fprintf(err, "%s: %s\n", PROG, e.message);
		goto done;
	}
	if (kp_wellknown_new(&s.wk, &e) || kp_kwok_wellknown_add(s.wk, s.its, &e)) {
		fprintf(err, "%s: %s\n", PROG, e.message);
		goto done;
	}

	s.decoded = calloc(s.manifests.count ? s.manifests.count : 1, sizeof(*s.decoded));
	if (!s.decoded) {
		fprintf(err, "%s: out of memory\n", PROG);
		goto done;
	}
	s.n_decoded = s.manifests.count;
	kp_validate_options vo = KP_VALIDATE_OPTIONS_INIT;
	vo.wellknown = s.wk;
	int invalid = 0;
	for (size_t i = 0; i < s.manifests.count; i++) {
		const cli_manifest *m = &s.manifests.items[i];
		kp_decode_options dopts = KP_DECODE_OPTIONS_INIT;
		if (kp_decode(&s.decoded[i], m->data, m->len, &dopts, &e)) {
			fprintf(err, "%s: %s\n", m->name, e.message);
			invalid = 1;
			continue;
		}
		if (collect(&s, i, &vo, err, &invalid))
			goto done;
	}
	if (check_duplicates(&s.objs, err))
		invalid = 1;
	if (invalid) {
		fprintf(err, "%s: invalid input, nothing simulated\n", PROG);
		goto done;
	}

	objects *o = &s.objs;
	size_t n_classes = o->kwok_nodeclasses.count;
	const kp_nodeclass_status **class_ptrs = NULL;
	if (n_classes) {
		s.classes = calloc(n_classes, sizeof(*s.classes) + sizeof(*class_ptrs));
		if (!s.classes) {
			fprintf(err, "%s: out of memory\n", PROG);
			goto done;
		}
		class_ptrs = (const kp_nodeclass_status **)(void *)(s.classes + n_classes);
		for (size_t i = 0; i < n_classes; i++) {
			nodeclass_status(&s.classes[i], o->kwok_nodeclasses.items[i]);
			class_ptrs[i] = &s.classes[i];
		}
	}
	kp_instance_types **its = NULL;
	if (o->nodepools.count) {
		its = calloc(o->nodepools.count, sizeof(*its));
		if (!its) {
			fprintf(err, "%s: out of memory\n", PROG);
			goto done;
		}
		for (size_t i = 0; i < o->nodepools.count; i++)
			its[i] = s.its;
	}

	kp_cluster_spec spec = KP_CLUSTER_SPEC_INIT;
	spec.nodepools = (const kp_nodepool *const *)o->nodepools.items;
	spec.n_nodepools = o->nodepools.count;
	spec.instance_types = its;
	spec.nodeclasses = class_ptrs;
	spec.n_nodeclasses = n_classes;
	spec.nodes = (const kp_node *const *)o->nodes.items;
	spec.n_nodes = o->nodes.count;
	spec.nodeclaims = (const kp_nodeclaim *const *)o->nodeclaims.items;
	spec.n_nodeclaims = o->nodeclaims.count;
	spec.pods = (const kp_pod *const *)o->pods.items;
	spec.n_pods = o->pods.count;
	spec.daemonsets = (const kp_daemonset *const *)o->daemonsets.items;
	spec.n_daemonsets = o->daemonsets.count;
	spec.pdbs = (const kp_pdb *const *)o->pdbs.items;
	spec.n_pdbs = o->pdbs.count;
	spec.pvcs = (const kp_pvc *const *)o->pvcs.items;
	spec.n_pvcs = o->pvcs.count;
	spec.pvs = (const kp_pv *const *)o->pvs.items;
	spec.n_pvs = o->pvs.count;
	spec.storage_classes = (const kp_storage_class *const *)o->storage_classes.items;
	spec.n_storage_classes = o->storage_classes.count;
	spec.csi_nodes = (const kp_csi_node *const *)o->csi_nodes.items;
	spec.n_csi_nodes = o->csi_nodes.count;
	spec.namespaces = (const kp_namespace *const *)o->namespaces.items;
	spec.n_namespaces = o->namespaces.count;
	spec.wellknown = s.wk;
	spec.now_ms = 0; /* no clock: the output must not depend on when it runs */
	int r = kp_cluster_new(&s.cluster, &spec, &e);
	free(its);
	if (r) {
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
	if (format == OUT_TEXT) {
		print_text(out, s.result);
	} else {
		s.doc = result_document(s.result, &e);
		if (!s.doc) {
			fprintf(err, "%s: %s\n", PROG, e.message);
			goto done;
		}
		char *bad = NULL;
		r = format == OUT_JSON ? cli_output_json(out, s.doc, &bad)
				       : cli_output_yaml(out, s.doc, &bad);
		if (r) {
			if (r == CLI_OUTPUT_NONFINITE)
				fprintf(err, "%s: cannot write %s: not a finite number\n", PROG,
					bad ? bad : "a number");
			else
				fprintf(err, "%s: out of memory\n", PROG);
			free(bad);
			goto done;
		}
	}
	rc = CLI_OK;
	for (size_t i = 0; i < kp_sched_result_pod_count(s.result); i++) {
		const kp_sched_placement *p = kp_sched_result_pod(s.result, i);
		if (p->target != KP_SCHED_EXISTING_NODE && p->target != KP_SCHED_INFLIGHT &&
		    p->target != KP_SCHED_NEW_NODECLAIM)
			rc = CLI_INVALID;
	}
done:
	sim_free(&s);
	free(files);
	return rc;
}

const cli_command cli_cmd_simulate = {
	"simulate", "Simulate scheduling: which NodeClaims Karpenter would launch", simulate_run,
	simulate_usage,
};
