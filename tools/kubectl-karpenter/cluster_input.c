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


/* ------------------------------------------------------------------ */
/* Objects by kind, and duplicates                                     */

struct cli_seen {
	uint32_t kind;
	const char *kind_name, *ns, *name, *file;
	size_t seq; /* input order, so that messages name the files in order */
};

static void objects_free(cli_objects *o)
{
	kp__ptrs *all[] = { &o->nodepools, &o->nodeclaims, &o->kwok_nodeclasses, &o->nodes,
			      &o->pods,      &o->daemonsets, &o->pdbs,             &o->pvcs,
			      &o->pvs,       &o->storage_classes, &o->csi_nodes,   &o->namespaces,
			      &o->volume_attachments, &o->ec2_nodeclasses };
	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		kp__ptrs_dispose(all[i]);
	free(o->seen);
	o->seen = NULL;
	o->n_seen = o->cap_seen = 0;
}

/* Kinds in the order of enum kp_kind; registered kinds (KWOKNodeClass)
 * keep the place KWOKNodeClass's old number 3 gave it, among themselves in
 * id order (a total order, as qsort needs). */
static uint64_t kind_order(uint32_t kind)
{
	return kind >= KP_KIND_FIRST_REGISTERED ? ((uint64_t)3 << 32) | kind : (uint64_t)kind << 32;
}

static int cmp_seen(const void *a, const void *b)
{
	const struct cli_seen *x = a, *y = b;
	if (x->kind != y->kind)
		return kind_order(x->kind) < kind_order(y->kind) ? -1 : 1;
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
	const struct cli_seen *x = a, *y = b;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int add_seen(cli_objects *o, uint32_t kind, const kp_decoded_object *d, const char *file)
{
	if (o->n_seen == o->cap_seen) {
		size_t cap = o->cap_seen ? o->cap_seen * 2 : 64;
		struct cli_seen *s = realloc(o->seen, cap * sizeof(*s));
		if (!s)
			return -1;
		o->seen = s;
		o->cap_seen = cap;
	}
	/* an object's identity, as the builder's (kp_kind_namespaced) */
	const char *ns = kp_kind_namespaced(kind) ? (d->namespace_ && *d->namespace_ ? d->namespace_ : "default")
						  : "";
	o->seen[o->n_seen] = (struct cli_seen){ kind, d->kind_name ? d->kind_name : "", ns,
						d->name ? d->name : "", file, o->n_seen };
	o->n_seen++;
	return 0;
}

static int check_duplicates(cli_objects *o, const char *prog, FILE *err)
{
	int dup = 0;
	if (o->n_seen < 2)
		return 0;
	qsort(o->seen, o->n_seen, sizeof(*o->seen), cmp_seen_seq);
	for (size_t i = 1; i < o->n_seen; i++) {
		if (cmp_seen(&o->seen[i - 1], &o->seen[i]))
			continue;
		const struct cli_seen *a = &o->seen[i - 1];
		fprintf(err, "%s: %s %s%s%s given twice (in %s and %s)\n", prog, a->kind_name,
			a->ns, *a->ns ? "/" : "", a->name, a->file, o->seen[i].file);
		dup = 1;
	}
	return dup;
}

/* The vector a decoded object of @p kind goes to, or NULL for a kind the
 * command does not read. */
static kp__ptrs *vector_of(cli_cluster_input *in, uint32_t kind)
{
	cli_objects *o = &in->objs;
	if (kind == in->kwok_kind)
		return &o->kwok_nodeclasses;
	if (in->aws_kind && kind == in->aws_kind)
		return &o->ec2_nodeclasses;
	if (kind == KP_KIND_VOLUME_ATTACHMENT)
		return in->read_volume_attachments ? &o->volume_attachments : NULL;
	switch (kind) {
	case KP_KIND_NODEPOOL: return &o->nodepools;
	case KP_KIND_NODECLAIM: return &o->nodeclaims;
	case KP_KIND_POD: return &o->pods;
	case KP_KIND_NODE: return &o->nodes;
	case KP_KIND_DAEMONSET: return &o->daemonsets;
	case KP_KIND_PDB: return &o->pdbs;
	case KP_KIND_PVC: return &o->pvcs;
	case KP_KIND_PV: return &o->pvs;
	case KP_KIND_STORAGE_CLASS: return &o->storage_classes;
	case KP_KIND_CSI_NODE: return &o->csi_nodes;
	case KP_KIND_NAMESPACE: return &o->namespaces;
	default: return NULL;
	}
}

/* What the API server would store: defaults applied, and nothing it would
 * refuse. -1 on a failure to check (printed); *invalid set on field errors. */
static int default_and_validate(const kp_decoded_object *d, const char *fname,
				const kp_validate_options *vo, const char *prog, FILE *err,
				int *invalid)
{
	kp_error e = KP_ERROR_INIT;
	if (kp_registry_object_default(vo->registry, d->kind, d->object, &e)) {
		fprintf(err, "%s: %s: %s/%s: %s\n", prog, fname, d->kind_name, d->name, e.message);
		return -1;
	}
	kp_validation *val = NULL;
	if (kp_validate(&val, d->kind, d->object, NULL, vo, &e)) {
		fprintf(err, "%s: %s: %s/%s: %s\n", prog, fname, d->kind_name, d->name, e.message);
		return -1;
	}
	for (size_t j = 0; j < kp_validation_count(val); j++) {
		const kp_field_error *fe = kp_validation_at(val, j);
		fprintf(err, "%s: %s: %s: %s\n", fname, fe->object, fe->field, fe->message);
		*invalid = 1;
	}
	for (size_t j = 0; j < kp_validation_warning_count(val); j++) {
		const kp_field_error *w = kp_validation_warning_at(val, j);
		fprintf(err, "Warning: %s: %s: %s: %s\n", fname, w->object, w->field, w->message);
	}
	kp_validation_free(val);
	return 0;
}

static int collect(cli_cluster_input *in, size_t file, const kp_validate_options *vo,
		   const char *prog, FILE *err, int *invalid)
{
	kp_decode_result *res = in->decoded[file];
	const char *fname = in->manifests.items[file].name;
	cli_objects *o = &in->objs;
	for (size_t i = 0; i < kp_decode_result_count(res); i++) {
		const kp_decoded_object *d = kp_decode_result_at(res, i);
		kp__ptrs *v = vector_of(in, d->kind);
		if (!v) {
			fprintf(err, "%s: %s: skipped %s/%s (%s): not a kind this command reads\n",
				prog, fname, d->kind_name, d->name, d->api_version);
			continue;
		}
		if (!d->name || !*d->name) {
			/* the API server stores no object without a name */
			fprintf(err, "%s: %s (document %zu", fname, d->kind_name, d->document + 1);
			if (d->in_list)
				fprintf(err, ": items[%zu]", d->item);
			fputs("): metadata.name: Required value: name or generateName is required\n",
			      err);
			*invalid = 1;
			continue;
		}
		if ((d->kind == KP_KIND_NODEPOOL || d->kind == KP_KIND_NODECLAIM ||
		     d->kind == in->kwok_kind) &&
		    default_and_validate(d, fname, vo, prog, err, invalid))
			return -1;
		if (kp__ptrs_push(v, d->object) || add_seen(o, d->kind, d, fname)) {
			fprintf(err, "%s: out of memory\n", prog);
			return -1;
		}
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* Loading                                                             */

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

	in->decoded = calloc(in->manifests.count ? in->manifests.count : 1, sizeof(*in->decoded));
	if (!in->decoded) {
		fprintf(err, "%s: out of memory\n", prog);
		return CLI_INVALID;
	}
	in->n_decoded = in->manifests.count;
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
	kp_validate_options vo = KP_VALIDATE_OPTIONS_INIT;
	vo.wellknown = in->wk;
	vo.registry = in->registry;
	int invalid = 0;
	for (size_t i = 0; i < in->manifests.count; i++) {
		const cli_manifest *m = &in->manifests.items[i];
		kp_decode_options dopts = KP_DECODE_OPTIONS_INIT;
		dopts.registry = in->registry;
		int usage = 0;
		if (cli_manifest_decode(&in->manifests, i, &dopts, &in->decoded[i], &e, &usage)) {
			fprintf(err, "%s: %s\n", usage ? prog : m->name, e.message);
			if (usage)
				return CLI_USAGE;
			invalid = 1;
			continue;
		}
		if (collect(in, i, &vo, prog, err, &invalid))
			return CLI_INVALID;
	}
	if (check_duplicates(&in->objs, prog, err))
		invalid = 1;
	if (invalid) {
		fprintf(err, "%s: invalid input, %s\n", prog, what);
		return CLI_INVALID;
	}
	return CLI_OK;
}

/* The Ready condition of a KWOKNodeClass as a kp_nodeclass_status. */
static void nodeclass_status(kp_nodeclass_status *st, const kp_kwok_nodeclass *nc)
{
	kp_nodeclass_status_from(st, nc->metadata, nc->status ? nc->status->conditions : NULL,
				 nc->status ? nc->status->n_conditions : 0);
	st->group = KP_KWOK_GROUP;
	st->kind = KP_KWOK_NODECLASS_KIND; /* the kind registered by kp_kwok_register */
}

static void fill_objects(cli_cluster_input *in, kp_cluster_spec *spec);

/* --provider aws: one catalogue per EC2NodeClass (built from its spec),
 * each NodePool offered its nodeClassRef's, every EC2NodeClass ready (a
 * manifest has no status the status controller wrote). */
static int aws_spec(cli_cluster_input *in, kp_cluster_spec *spec, const char *prog, FILE *err)
{
	cli_objects *o = &in->objs;
	size_t n = o->ec2_nodeclasses.count, n_np = o->nodepools.count;
	if (in->aws_class_its) /* built once per input */
		goto done;
	free(in->classes);
	free(in->pool_its);
	in->classes = calloc(n + 1, sizeof(*in->classes) + sizeof(*in->class_ptrs));
	in->aws_class_its = calloc(n + 1, sizeof(*in->aws_class_its));
	in->aws_class_names = calloc(n + 1, sizeof(*in->aws_class_names));
	in->pool_its = calloc(n_np + 1, sizeof(*in->pool_its));
	if (!in->classes || !in->aws_class_its || !in->aws_class_names || !in->pool_its) {
		fprintf(err, "%s: out of memory\n", prog);
		return -1;
	}
	in->class_ptrs = (const kp_nodeclass_status **)(void *)(in->classes + n + 1);
	for (size_t i = 0; i < n; i++) {
		const char *name = cli_aws_nodeclass_name(o->ec2_nodeclasses.items[i]);
		kp_nodeclass_status init = KP_NODECLASS_STATUS_INIT;
		in->classes[i] = init;
		in->classes[i].group = "karpenter.k8s.aws";
		in->classes[i].kind = "EC2NodeClass";
		in->classes[i].name = name;
		in->classes[i].ready = 1;
		in->class_ptrs[i] = &in->classes[i];
		in->aws_class_names[i] = name;
		if (cli_aws_instance_types(&in->aws_class_its[i], in->aws_catalog, in->aws,
					   o->ec2_nodeclasses.items[i], name, prog, err))
			return -1;
	}
	if (!in->its && cli_aws_instance_types(&in->its, in->aws_catalog, in->aws, NULL, NULL, prog,
					       err))
		return -1;
	for (size_t i = 0; i < n_np; i++) {
		const kp_nodepool *np = o->nodepools.items[i];
		const kp_nodeclaim_template *t = np->spec ? np->spec->template_ : NULL;
		const kp_node_class_reference *ref = t && t->spec ? t->spec->node_class_ref : NULL;
		in->pool_its[i] = in->its; /* a missing class: the core finds no ready class */
		for (size_t c = 0; ref && ref->name && c < n; c++)
			if (!strcmp(in->aws_class_names[c], ref->name))
				in->pool_its[i] = in->aws_class_its[c];
	}
done:
	spec->instance_types = in->pool_its;
	spec->nodeclasses = in->class_ptrs;
	spec->n_nodeclasses = n;
	fill_objects(in, spec);
	return 0;
}

int cli_cluster_input_spec(cli_cluster_input *in, kp_cluster_spec *spec, const char *prog,
			   FILE *err)
{
	cli_objects *o = &in->objs;
	if (in->aws_catalog)
		return aws_spec(in, spec, prog, err);
	size_t n_classes = o->kwok_nodeclasses.count;
	free(in->classes);
	free(in->pool_its);
	in->classes = NULL;
	in->class_ptrs = NULL;
	in->pool_its = NULL;
	if (n_classes) {
		in->classes = calloc(n_classes, sizeof(*in->classes) + sizeof(*in->class_ptrs));
		if (!in->classes)
			goto oom;
		in->class_ptrs = (const kp_nodeclass_status **)(void *)(in->classes + n_classes);
		for (size_t i = 0; i < n_classes; i++) {
			nodeclass_status(&in->classes[i], o->kwok_nodeclasses.items[i]);
			in->class_ptrs[i] = &in->classes[i];
		}
	}
	if (o->nodepools.count) {
		in->pool_its = calloc(o->nodepools.count, sizeof(*in->pool_its));
		if (!in->pool_its)
			goto oom;
		for (size_t i = 0; i < o->nodepools.count; i++)
			in->pool_its[i] = in->its;
	}
	spec->instance_types = in->pool_its;
	spec->nodeclasses = in->class_ptrs;
	spec->n_nodeclasses = n_classes;
	fill_objects(in, spec);
	return 0;
oom:
	fprintf(err, "%s: out of memory\n", prog);
	return -1;
}

/* The objects every provider passes as they are. */
static void fill_objects(cli_cluster_input *in, kp_cluster_spec *spec)
{
	cli_objects *o = &in->objs;
	spec->nodepools = (const kp_nodepool *const *)o->nodepools.items;
	spec->n_nodepools = o->nodepools.count;
	spec->nodes = (const kp_node *const *)o->nodes.items;
	spec->n_nodes = o->nodes.count;
	spec->nodeclaims = (const kp_nodeclaim *const *)o->nodeclaims.items;
	spec->n_nodeclaims = o->nodeclaims.count;
	spec->pods = (const kp_pod *const *)o->pods.items;
	spec->n_pods = o->pods.count;
	spec->daemonsets = (const kp_daemonset *const *)o->daemonsets.items;
	spec->n_daemonsets = o->daemonsets.count;
	spec->pdbs = (const kp_pdb *const *)o->pdbs.items;
	spec->n_pdbs = o->pdbs.count;
	spec->pvcs = (const kp_pvc *const *)o->pvcs.items;
	spec->n_pvcs = o->pvcs.count;
	spec->pvs = (const kp_pv *const *)o->pvs.items;
	spec->n_pvs = o->pvs.count;
	spec->storage_classes = (const kp_storage_class *const *)o->storage_classes.items;
	spec->n_storage_classes = o->storage_classes.count;
	spec->csi_nodes = (const kp_csi_node *const *)o->csi_nodes.items;
	spec->n_csi_nodes = o->csi_nodes.count;
	spec->namespaces = (const kp_namespace *const *)o->namespaces.items;
	spec->n_namespaces = o->namespaces.count;
	spec->wellknown = in->wk;
}

void cli_cluster_input_free(cli_cluster_input *in)
{
	for (size_t i = 0; in->aws_class_its && i < in->objs.ec2_nodeclasses.count; i++)
		kp_instance_types_free(in->aws_class_its[i]);
	free(in->aws_class_its);
	free((void *)in->aws_class_names);
	cli_aws_catalog_free(in->aws_catalog);
	free(in->pool_its);
	free(in->classes);
	kp_wellknown_free(in->wk);
	kp_instance_types_free(in->its);
	objects_free(&in->objs);
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
	for (size_t g = 0; g < n_gates; g++)
		if (strlen(gates[g].name) == nlen && !strncmp(gates[g].name, p, nlen))
			return &gates[g];
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
				fprintf(err, "%s%s=true or %s=false", k ? ", " : "", gates[k].name,
					gates[k].name);
			fputs(")\n", err);
			return -1;
		}
		b = on ? b | g->bit : b & ~g->bit;
		p = comma ? comma + 1 : p + len;
	}
	*bits = b;
	return 0;
}
