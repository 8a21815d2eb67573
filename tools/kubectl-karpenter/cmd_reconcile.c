/*
 * kubectl-karpenter reconcile: every lifecycle controller once over a
 * cluster written as manifests, at --now, with the KWOK provider standing
 * in for the cloud; prints what they would do (lib/lifecycle).
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <karpenter/karpenter.h>
#include <karpenter/kwok.h>
#ifdef KP_HAVE_AWS
#define KP_EXPERIMENTAL_API 1
#include <karpenter/aws_instancetypes.h>
#endif

#include "common/map.h"
#include "kp_internal.h"
#include "lifecycle/grouping.h"

#include "cli.h"
#include "cluster_input.h"
#include "writer.h"

#define PROG "kubectl-karpenter reconcile"
#define INSTANCES_MAX_BYTES ((size_t)16 << 20)

static void reconcile_usage(FILE *out)
{
	fputs("Usage: kubectl-karpenter reconcile -f FILE|DIR [-f ...] [--now RFC3339]\n"
	      "         [--instance-types FILE] [--instances FILE]\n"
	      "         [--feature-gates NodeRepair=true|false] [-o text|json|yaml]\n"
	      "\n"
	      "Runs Karpenter's NodeClaim and Node lifecycle controllers once over the\n"
	      "manifests (NodePools, NodeClaims, Nodes, Pods, PDBs, KWOKNodeClasses), each\n"
	      "reacting to the input, at --now (default: the current time), with the KWOK\n"
	      "provider standing in for the cloud, and prints what they would do: launch,\n"
	      "registration, initialization, liveness timeouts, expiration, drift,\n"
	      "termination and drain, garbage collection; then when each would look again.\n"
	      "\n"
	      "Options:\n"
	      "  -f, --filename FILE    manifests to read (repeatable; \"-\" for stdin)\n"
	      "  --now TIME             the controllers' clock, RFC 3339\n"
	      "  --instance-types FILE  the KWOK instance types (upstream's JSON)\n"
	      "  --instances FILE       provider IDs of the instances that exist, one per\n"
	      "                         line (blank and # lines ignored); default: every\n"
	      "                         NodeClaim's status.providerID\n"
	      "  --feature-gates GATES  NodeRepair=true|false: node repair with the KWOK\n"
	      "                         provider's repair policies (default false)\n"
	      "  -o, --output FORMAT    text (default), json or yaml\n"
	      "\n"
	      "Exit codes: 0 success, 1 invalid input, 2 usage error.\n",
	      out);
}

/* ------------------------------------------------------------------ */
/* The instance view: KWOK launches, the given provider IDs exist      */

typedef struct view {
	kp_cloudprovider *kwok;
	char **ids;
	size_t n_ids, cap_ids;
	kp__map by_id; /* provider ID -> index in ids: no scan per ID (80,000 IDs took 10 s) */
	kp_nodeclaim **created; /* kept alive while the core copies them */
	size_t n_created;
	kp_instance *recs;
	const kp_instance **rec_ptrs;
} view;

static int view_find(const view *v, const char *id)
{
	uint32_t i;
	return kp__map_gets(&v->by_id, id, &i) ? (int)i : -1;
}

static int view_add(view *v, const char *id)
{
	if (v->n_ids >= INT32_MAX)
		return -1;
	if (v->n_ids == v->cap_ids) {
		size_t cap = v->cap_ids ? v->cap_ids * 2 : 16;
		char **ids = realloc(v->ids, cap * sizeof(*ids));
		if (!ids)
			return -1;
		v->ids = ids;
		v->cap_ids = cap;
	}
	size_t len = strlen(id);
	char *d = malloc(len + 1);
	uint32_t at;
	int inserted = 0;
	if (!d || kp__map_put(&v->by_id, id, len, (uint32_t)v->n_ids, &at, &inserted) != KP_OK) {
		free(d);
		return -1;
	}
	if (!inserted) {
		free(d);
		return 0;
	}
	memcpy(d, id, len + 1);
	v->ids[v->n_ids++] = d;
	return 0;
}

static int view_create(void *self, const kp_nodeclaim *nc, kp_instance *out, kp_error *err)
{
	view *v = self;
	kp_nodeclaim **grown = realloc(v->created, (v->n_created + 1) * sizeof(*grown));
	if (!grown)
		return kp_error_set(err, KP_ENOMEM, NULL, "out of memory");
	v->created = grown;
	kp_nodeclaim *c = NULL;
	int rc = kp_cloudprovider_create(&c, v->kwok, nc, err);
	if (rc)
		return rc;
	v->created[v->n_created++] = c;
	out->provider_id = c->status->provider_id;
	out->image_id = c->status->image_id;
	out->labels = c->metadata->labels;
	out->annotations = c->metadata->annotations;
	out->capacity = c->status->capacity;
	out->allocatable = c->status->allocatable;
	if (view_add(v, c->status->provider_id))
		return kp_error_set(err, KP_ENOMEM, NULL, "out of memory");
	return KP_OK;
}

static int view_delete(void *self, const kp_nodeclaim *nc, kp_error *err)
{
	view *v = self;
	int i = nc->status && nc->status->provider_id ? view_find(v, nc->status->provider_id) : -1;
	if (i < 0)
		return kp_error_set(err, KP_ENOTFOUND, NULL, "instance not found");
	return KP_OK; /* termination begins; the instance exists until the next round */
}

static int view_get(void *self, const char *id, kp_instance *out, kp_error *err)
{
	view *v = self;
	int i = view_find(v, id);
	if (i < 0)
		return kp_error_set(err, KP_ENOTFOUND, NULL, "instance not found");
	out->provider_id = v->ids[i];
	return KP_OK;
}

static int view_list(void *self, const kp_instance *const **out, size_t *n, kp_error *err)
{
	view *v = self;
	free(v->recs);
	free(v->rec_ptrs);
	v->recs = calloc(v->n_ids + 1, sizeof(*v->recs));
	v->rec_ptrs = calloc(v->n_ids + 1, sizeof(*v->rec_ptrs));
	if (!v->recs || !v->rec_ptrs)
		return kp_error_set(err, KP_ENOMEM, NULL, "out of memory");
	for (size_t i = 0; i < v->n_ids; i++) {
		kp_instance_init(&v->recs[i]);
		v->recs[i].provider_id = v->ids[i];
		v->rec_ptrs[i] = &v->recs[i];
	}
	*out = v->n_ids ? v->rec_ptrs : NULL;
	*n = v->n_ids;
	return KP_OK;
}

static int view_its(void *self, const kp_nodepool *np, kp_instance_types **out, kp_error *err)
{
	view *v = self;
	return kp_cloudprovider_get_instance_types(out, v->kwok, np, err);
}

static int view_classes(void *self, const kp_group_kind **out, size_t *n, kp_error *err)
{
	view *v = self;
	return kp_cloudprovider_supported_node_classes(out, n, v->kwok, err);
}

static int view_repair(void *self, const kp_repair_policy **out, size_t *n, kp_error *err)
{
	view *v = self;
	return kp_cloudprovider_repair_policies(out, n, v->kwok, err);
}

/* The provider's drift (AWS: NodeClassDrift; KWOK: never). */
static int view_drifted(void *self, const kp_nodeclaim *nc, char *reason, size_t reason_size,
			kp_error *err)
{
	view *v = self;
	return kp_cloudprovider_is_drifted(v->kwok, nc, reason, reason_size, err);
}

static void view_destroy(void *self)
{
	view *v = self;
	for (size_t i = 0; i < v->n_ids; i++)
		free(v->ids[i]);
	free(v->ids);
	kp__map_free(&v->by_id);
	for (size_t i = 0; i < v->n_created; i++)
		kp_nodeclaim_free(v->created[i]);
	free(v->created);
	free(v->recs);
	free(v->rec_ptrs);
	kp_cloudprovider_free(v->kwok);
	free(v);
}

/* Parse --instances text into the view; -1 after printing the bad line. */
static int parse_instances(view *v, const char *path, char *text, size_t len, FILE *err)
{
	size_t line = 0;
	char *p = text, *end = text + len;
	while (p < end) {
		line++;
		char *nl = memchr(p, '\n', (size_t)(end - p));
		char *e = nl ? nl : end;
		while (p < e && isspace((unsigned char)*p))
			p++;
		while (e > p && isspace((unsigned char)e[-1]))
			e--;
		if (p < e && *p != '#') {
			for (char *q = p; q < e; q++)
				if (isspace((unsigned char)*q) || !isprint((unsigned char)*q)) {
					fprintf(err, "%s: --instances %s:%zu: malformed provider ID "
						"(one provider ID per line, no spaces)\n", PROG, path,
						line);
					return -1;
				}
			*e = 0;
			if (view_add(v, p)) {
				fprintf(err, "%s: out of memory\n", PROG);
				return -1;
			}
		}
		p = nl ? nl + 1 : end;
	}
	return 0;
}

static int load_instances(view *v, const char *path, FILE *err)
{
	char *data = NULL;
	size_t len = 0;
	int rc = cli_read_file(path, INSTANCES_MAX_BYTES, "an --instances file", &data, &len, PROG,
			       err);
	if (rc != CLI_OK)
		return rc;
	char *text = malloc(len + 1);
	if (!text) {
		free(data);
		fprintf(err, "%s: out of memory\n", PROG);
		return CLI_INVALID;
	}
	if (len)
		memcpy(text, data, len);
	text[len] = 0;
	free(data);
	rc = parse_instances(v, path, text, len, err) ? CLI_USAGE : CLI_OK;
	free(text);
	return rc;
}

/* --provider aws: libkarpenter-aws's provider offline over the catalogue of
 * each EC2NodeClass. */
static int make_aws_provider(view *v, cli_cluster_input *in, int64_t now_ms, FILE *err)
{
#ifdef KP_HAVE_AWS
	kp_cluster_spec spec = KP_CLUSTER_SPEC_INIT; /* builds the catalogues once */
	spec.now_ms = now_ms; /* the Ready conditions' transition time */
	if (cli_cluster_input_spec(in, &spec, PROG, err))
		return -1;
	return cli_aws_provider_new(&v->kwok, in, PROG, err) == CLI_OK ? 0 : -1;
#else
	(void)v;
	(void)in;
	(void)now_ms;
	fprintf(err, "%s: this build has no AWS provider\n", PROG);
	return -1;
#endif
}

static int make_provider(kp_cloudprovider **out, view *v, cli_cluster_input *in, int64_t now_ms,
			 FILE *err)
{
	int aws = in->aws && in->aws->enabled;
	if (aws && make_aws_provider(v, in, now_ms, err))
		return -1;
	kp_kwok_provider_options ko = KP_KWOK_PROVIDER_OPTIONS_INIT;
	ko.instance_types = in->its;
	ko.nodeclasses = (const kp_kwok_nodeclass *const *)in->objs.kwok_nodeclasses.items;
	ko.n_nodeclasses = in->objs.kwok_nodeclasses.count;
	if (!ko.n_nodeclasses)
		ko.nodeclasses = NULL; /* none given: every node class exists and is ready */
	kp_error e = KP_ERROR_INIT;
	if (!aws && kp_kwok_provider_new(&v->kwok, &ko, &e) != KP_OK) {
		fprintf(err, "%s: %s\n", PROG, e.message);
		return -1;
	}
	kp_cloudprovider_ops ops = KP_CLOUDPROVIDER_OPS_INIT;
	ops.name = aws ? "aws" : KP_KWOK_PROVIDER_NAME;
	ops.create = view_create;
	ops.delete_instance = view_delete;
	ops.get = view_get;
	ops.list = view_list;
	ops.get_instance_types = view_its;
	ops.supported_node_classes = view_classes;
	ops.repair_policies = view_repair;
	ops.is_drifted = view_drifted;
	ops.destroy = view_destroy;
	if (kp_cloudprovider_new(out, &ops, v, &e) != KP_OK) {
		fprintf(err, "%s: %s\n", PROG, e.message);
		return -1;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* Output                                                              */

/* "Kind/ns/name" (no namespace: "Kind/name"), written as it is printed:
 * no buffer, so references of any length stay whole. */
static void put_ref(FILE *out, uint32_t kind, const char *ns, const char *name)
{
	fprintf(out, "%s/%s%s%s", kp_kind_name(kind), ns && *ns ? ns : "", ns && *ns ? "/" : "",
		name ? name : "");
}

/* The text: actions by object (@p order, @p first: kp__lc_actions_by_object),
 * the earliest requeues, the events. */
static void print_text(FILE *out, const kp_lifecycle_result *r, const kp_lifecycle_requeue **rq,
		       size_t n_rq, const char *now, const size_t *order, const unsigned char *first)
{
	size_t n = kp_lifecycle_result_action_count(r);
	fprintf(out, "Reconcile at %s: %zu action%s\n", now, n, n == 1 ? "" : "s");
	for (size_t i = 0; i < n; i++) {
		const kp_lifecycle_action *b = kp_lifecycle_result_action_at(r, order[i]);
		if (first[i]) {
			fputc('\n', out);
			put_ref(out, b->kind, b->namespace_, b->name);
			fputc('\n', out);
		}
		fprintf(out, "  %s: %s", b->controller, kp_lifecycle_verb_name(b->verb));
		if (b->has_grace_period_seconds)
			fprintf(out, " (gracePeriodSeconds %lld)", (long long)b->grace_period_seconds);
		fprintf(out, " [%s] %s\n", b->reason, b->message);
	}
	if (n_rq)
		fputs("\nLooks again:\n", out);
	for (size_t i = 0; i < n_rq; i++) {
		char after[KP__LC_AFTER_MAX];
		kp__lc_requeue_after(rq[i]->after_ms, after);
		fputs("  ", out);
		put_ref(out, rq[i]->kind, rq[i]->namespace_, rq[i]->name);
		fprintf(out, ": %s after %s\n", rq[i]->controller, after);
	}
	size_t ne = kp_lifecycle_result_event_count(r);
	if (ne)
		fputs("\nEvents:\n", out);
	for (size_t i = 0; i < ne; i++) {
		const kp_lifecycle_event *e = kp_lifecycle_result_event_at(r, i);
		fputs("  ", out);
		put_ref(out, e->kind, e->namespace_, e->name);
		fprintf(out, ": %s %s: %s\n", e->type, e->reason, e->message);
	}
}

/* The JSON/YAML document, written by the library as the result is
 * walked. CLI_OK, or CLI_INVALID after printing why (an output error is
 * left to print_result's check of the stream). */
static int write_document(FILE *out, FILE *err, const kp_lifecycle_result *r, int64_t now_ms,
			  int format)
{
	cli_writer *w = cli_writer_new(out, format == CLI_OUT_JSON ? CLI_WRITER_JSON
								  : CLI_WRITER_YAML);
	kp_error e = KP_ERROR_INIT;
	int failed = w && kp_lifecycle_result_write(w, r, now_ms, &e) != KP_OK;
	if (failed)
		cli_writer_error(&e, PROG, err);
	int rc = cli_writer_close(w, out);
	if (!failed && rc == CLI_WRITER_NOMEM)
		fprintf(err, "%s: out of memory\n", PROG);
	return failed || rc == CLI_WRITER_NOMEM ? CLI_INVALID : CLI_OK;
}

static int print_text_result(FILE *out, FILE *err, const kp_lifecycle_result *r, int64_t now_ms)
{
	char now[KP_TIME_BUF_SIZE];
	kp_time_format_rfc3339(now_ms, now, sizeof(now));
	size_t n_rq = kp_lifecycle_result_requeue_count(r);
	size_t na = kp_lifecycle_result_action_count(r);
	const kp_lifecycle_requeue **rq = calloc(n_rq + 1, sizeof(*rq));
	size_t *order = calloc(na + 1, sizeof(*order));
	unsigned char *first = calloc(na + 1, 1);
	int rc = rq && order && first && kp__lc_requeues_earliest(r, rq, &n_rq) == KP_OK &&
			 kp__lc_actions_by_object(r, order, first) == KP_OK
		 ? CLI_OK
		 : CLI_INVALID;
	if (rc == CLI_OK)
		print_text(out, r, rq, n_rq, now, order, first);
	else
		fprintf(err, "%s: out of memory\n", PROG);
	free(rq);
	free(order);
	free(first);
	return rc;
}

static int print_result(FILE *out, FILE *err, const kp_lifecycle_result *r, int format,
			int64_t now_ms)
{
	int rc = format == CLI_OUT_TEXT ? print_text_result(out, err, r, now_ms)
					: write_document(out, err, r, now_ms, format);
	if (rc == CLI_OK && (fflush(out) || ferror(out))) {
		fprintf(err, "%s: cannot write the output\n", PROG);
		rc = CLI_INVALID;
	}
	return rc;
}

/* ------------------------------------------------------------------ */
/* The command                                                         */

enum { OPT_FILE = 1, OPT_OUTPUT, OPT_INSTANCE_TYPES, OPT_INSTANCES, OPT_NOW, OPT_GATES };

static const cli_option reconcile_options[] = {
	{ "--filename", "-f", OPT_FILE },
	{ "--output", "-o", OPT_OUTPUT },
	{ "--instance-types", NULL, OPT_INSTANCE_TYPES },
	{ "--instances", NULL, OPT_INSTANCES },
	{ "--now", NULL, OPT_NOW },
	{ "--feature-gates", NULL, OPT_GATES },
	CLI_AWS_OPTION_ROWS,
};

typedef struct args {
	const char **files;
	size_t n_files;
	const char *catalogue, *instances;
	cli_aws_options aws; /* --provider aws and its options */
	int format, have_now;
	int64_t now_ms;
	uint32_t gates;
} args;

static const cli_gate reconcile_gates[] = {
	{ KP_FEATURE_GATE_NODE_REPAIR },
};

static int parse_args(int argc, char **argv, args *a, FILE *err)
{
	for (int i = 1; i < argc; i++) {
		const char *val = NULL;
		int id = cli_next_option(argc, argv, &i, reconcile_options,
					 sizeof(reconcile_options) / sizeof(reconcile_options[0]),
					 &val, PROG, err);
		if (id == 0 || (id == OPT_OUTPUT && (a->format = cli_parse_output(val, PROG, err)) < 0) ||
		    (id == OPT_NOW && cli_parse_now(val, &a->now_ms, PROG, err) < 0) ||
		    (id == OPT_GATES &&
		     cli_parse_feature_gates(val, reconcile_gates,
					     sizeof(reconcile_gates) / sizeof(reconcile_gates[0]),
					     &a->gates, PROG, err) < 0)) {
			reconcile_usage(err);
			return -1;
		}
		if ((id == OPT_INSTANCE_TYPES || id == OPT_INSTANCES) && !*val) {
			fprintf(err, "%s: %s needs a file name\n", PROG,
				id == OPT_INSTANCES ? "--instances" : "--instance-types");
			return -1;
		}
		if (id == OPT_FILE)
			a->files[a->n_files++] = val;
		a->have_now |= id == OPT_NOW;
		if (id == OPT_INSTANCE_TYPES)
			a->catalogue = val;
		if (id == OPT_INSTANCES)
			a->instances = val;
		if (id >= CLI_AWS_OPT_PROVIDER && cli_aws_take(&a->aws, id, val, PROG, err) != 1)
			return -1;
	}
	if (cli_aws_check(&a->aws, PROG, err))
		return -1;
	if (a->aws.enabled) { /* --instance-types is then describe-instance-types output */
		a->aws.types_file = a->catalogue;
		a->catalogue = NULL;
	}
	if (!a->n_files) {
		fprintf(err, "%s: no input: give -f FILE or -f DIR (or -f - for stdin)\n", PROG);
		reconcile_usage(err);
		return -1;
	}
	return 0;
}

static int instances_from_nodeclaims(view *v, const cli_cluster_input *in)
{
	for (size_t i = 0; i < in->objs.nodeclaims.count; i++) {
		const kp_nodeclaim *nc = in->objs.nodeclaims.items[i];
		if (nc->status && nc->status->provider_id && *nc->status->provider_id &&
		    view_add(v, nc->status->provider_id))
			return -1;
	}
	return 0;
}

static int run(args *a, FILE *out, FILE *err)
{
	cli_cluster_input in;
	memset(&in, 0, sizeof(in));
	kp_cloudprovider *cp = NULL;
	kp_lifecycle_result *r = NULL;
	view *v = calloc(1, sizeof(*v));
	int rc = CLI_INVALID;
	if (!v) {
		fprintf(err, "%s: out of memory\n", PROG);
		return CLI_INVALID;
	}
	if (a->instances && (rc = load_instances(v, a->instances, err)) != CLI_OK)
		goto done;
	in.read_volume_attachments = 1; /* Node termination waits for them */
	in.aws = &a->aws;
	rc = cli_cluster_input_load(&in, a->files, a->n_files, a->catalogue, PROG,
				    "nothing reconciled", err);
	if (rc != CLI_OK)
		goto done;
	rc = CLI_INVALID;
	if (!a->instances && instances_from_nodeclaims(v, &in)) {
		fprintf(err, "%s: out of memory\n", PROG);
		goto done;
	}
	if (make_provider(&cp, v, &in, a->now_ms, err))
		goto done;
	v = NULL; /* owned by cp */
	/* the cluster simulate and disrupt read: the builder's view (node
	 * class readiness from their Ready conditions; none given: not
	 * modelled, as simulate, every class counts as ready) */
	kp_cluster_spec spec = KP_CLUSTER_SPEC_INIT;
	spec.now_ms = a->now_ms;
	if (cli_cluster_input_spec(&in, &spec, PROG, err))
		goto done;
	/* the spec holds the VolumeAttachments too (the PVCs that map pods'
	 * volumes to their PVs come with it; attachments of pods that are not
	 * drained do not hold the Node); none given: none pending */
	kp_lifecycle_options lo = KP_LIFECYCLE_OPTIONS_INIT;
	lo.feature_gates = a->gates;
	lo.cloudprovider = cp;
	kp_error e = KP_ERROR_INIT;
	if (kp_lifecycle_reconcile(&r, &spec, &lo, &e)) {
		fprintf(err, "%s: %s%s%s\n", PROG, e.field, *e.field ? ": " : "", e.message);
		goto done;
	}
	rc = print_result(out, err, r, a->format, a->now_ms);
done:
	kp_lifecycle_result_free(r);
	kp_cloudprovider_free(cp);
	if (v)
		view_destroy(v);
	cli_cluster_input_free(&in);
	return rc;
}

static int reconcile_run(int argc, char **argv, FILE *out, FILE *err)
{
	args a;
	memset(&a, 0, sizeof(a));
	cli_aws_options aws_init = CLI_AWS_OPTIONS_INIT;
	a.aws = aws_init;
	a.format = CLI_OUT_TEXT;
	a.files = calloc((size_t)argc + 1, sizeof(*a.files));
	if (!a.files) {
		fprintf(err, "%s: out of memory\n", PROG);
		return CLI_INVALID;
	}
	int rc = CLI_USAGE;
	if (parse_args(argc, argv, &a, err) == 0) {
		if (!a.have_now)
			a.now_ms = cli_clock_now_ms();
		rc = run(&a, out, err);
	}
	free(a.files);
	return rc;
}

const cli_command cli_cmd_reconcile = {
	"reconcile", "Run the NodeClaim and Node lifecycle controllers once: what they would do",
	reconcile_run, reconcile_usage,
};
