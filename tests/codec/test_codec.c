/*
 * Tests of the object model and its JSON/YAML codec (objects.h, nodepool.h,
 * nodeclaim.h, codec.h; lib/{document/tree,document/json,
 * document/yaml,schema/schema,schema/objects,codec/codec}.c), with
 * KWOKNodeClass registered from libkarpenter-kwok's description
 * (kp_kwok_register) as a provider kind, decoded like a core kind.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#define KP_EXPERIMENTAL_API 1
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <karpenter/codec.h>
#include <karpenter/kwok_nodeclass.h>
#include <karpenter/sys/kwok.h>
#include <karpenter/nodeclaim.h>
#include <karpenter/nodepool.h>
#include <karpenter/objects.h>

#include "kp_test.h"
#include "kp_test_strings.h"
#include "schema/schema.h"
#include "schema/registry.h"

#ifndef KP_FIXTURES
#error "KP_FIXTURES must name tests/codec/fixtures"
#endif

#define MANIFESTS "manifests/v1"

/* ---- helpers ---- */

/* The core kinds and KWOKNodeClass (set up in main, inherited by the forked
 * tests). */
static kp_registry *reg;
static uint32_t kwok_kind;

static char *read_fixture(const char *name, size_t *len)
{
	char path[1024];
	snprintf(path, sizeof(path), "%s/%s", KP_FIXTURES, name);
	char *text = kp_test_read_file(path, len);
	ck_assert_msg(text != NULL, "cannot read %s", path);
	return text;
}

static kp_decode_result *decode_ok(const char *text, size_t len, uint32_t flags)
{
	kp_decode_options o = KP_DECODE_OPTIONS_INIT;
	o.flags = flags;
	o.registry = reg;
	kp_decode_result *r = NULL;
	kp_error err = KP_ERROR_INIT;
	int rc = kp_decode(&r, text, len, &o, &err);
	ck_assert_msg(rc == KP_OK, "decode failed (%d): [%s] %s", rc, err.field, err.message);
	ck_assert_ptr_nonnull(r);
	return r;
}

static kp_decode_result *decode_str(const char *text)
{
	return decode_ok(text, strlen(text), 0);
}

static int decode_err(const char *text, uint32_t flags, kp_error *err)
{
	kp_decode_options o = KP_DECODE_OPTIONS_INIT;
	o.flags = flags;
	o.registry = reg;
	kp_decode_result *r = (kp_decode_result *)1;
	int rc = kp_decode(&r, text, strlen(text), &o, err);
	ck_assert_int_ne(rc, KP_OK);
	ck_assert_ptr_null(r);
	return rc;
}

static const void *only_object(kp_decode_result *r, uint32_t kind)
{
	ck_assert_uint_eq(kp_decode_result_count(r), 1);
	const kp_decoded_object *o = kp_decode_result_at(r, 0);
	ck_assert_uint_eq(o->kind, kind);
	ck_assert_ptr_nonnull(o->object);
	return o->object;
}

/* decode -> encode -> decode gives an equal struct, and re-encoding gives the
 * same text (the encoding is canonical), for JSON (compact and pretty) and
 * YAML. Returns the compact JSON (caller frees). */
static char *check_round_trip(uint32_t kind, const void *obj, const char *what)
{
	const kp__kind_info *info = kp__registry_kind_info(reg, kind);
	ck_assert_ptr_nonnull(info);
	char *first_json = NULL;
	const uint32_t formats[] = { KP_FORMAT_JSON, KP_FORMAT_JSON, KP_FORMAT_YAML };
	const uint32_t flags[] = { 0, KP_ENCODE_PRETTY, 0 };
	for (int f = 0; f < 3; f++) {
		kp_error err = KP_ERROR_INIT;
		char *text = NULL;
		size_t len = 0;
		int rc = kp_registry_encode(&text, &len, reg, kind, obj, formats[f], flags[f], &err);
		ck_assert_msg(rc == KP_OK, "%s: encode failed: [%s] %s", what, err.field, err.message);
		ck_assert_uint_eq(strlen(text), len);
		kp_decode_options o = KP_DECODE_OPTIONS_INIT;
		o.format = formats[f];
		o.registry = reg;
		kp_decode_result *r = NULL;
		rc = kp_decode(&r, text, len, &o, &err);
		ck_assert_msg(rc == KP_OK, "%s: re-decode failed: %s\n%s", what, err.message, text);
		const void *again = only_object(r, kind);
		ck_assert_msg(kp__schema_equal(info->type, obj, again), "%s: round trip (format %u) differs:\n%s",
			      what, formats[f], text);
		char *text2 = NULL;
		rc = kp_registry_encode(&text2, NULL, reg, kind, again, formats[f], flags[f], &err);
		ck_assert_int_eq(rc, KP_OK);
		ck_assert_msg(strcmp(text, text2) == 0, "%s: encoding is not stable:\n%s\n---\n%s", what,
			      text, text2);
		kp_encoded_free(text2);
		kp_decode_result_free(r);
		if (f == 0)
			first_json = text;
		else
			kp_encoded_free(text);
	}
	/* A deep copy is equal too, and encodes the same. */
	void *copy = NULL;
	ck_assert_int_eq(kp_registry_object_copy(&copy, reg, kind, obj, NULL), KP_OK);
	ck_assert(kp__schema_equal(info->type, obj, copy));
	char *ctext = NULL;
	ck_assert_int_eq(kp_registry_encode(&ctext, NULL, reg, kind, copy, KP_FORMAT_JSON, 0, NULL), KP_OK);
	ck_assert_str_eq(ctext, first_json);
	kp_encoded_free(ctext);
	kp_registry_object_free(reg, kind, copy);
	return first_json;
}

static const kp_label *label(const kp_labels *l, const char *key)
{
	for (size_t i = 0; i < l->count; i++)
		if (strcmp(l->items[i].key, key) == 0)
			return &l->items[i];
	return NULL;
}

static void assert_quantity(const kp_resource_list *l, const char *name, const char *canonical)
{
	for (size_t i = 0; i < l->count; i++) {
		if (strcmp(l->items[i].name, name) != 0)
			continue;
		char buf[KP_QUANTITY_STRING_MAX];
		ck_assert_int_eq(kp_quantity_format(&l->items[i].quantity, buf, sizeof(buf)), KP_OK);
		ck_assert_str_eq(buf, canonical);
		return;
	}
	ck_abort_msg("resource %s missing", name);
}

/* ---- the upstream example manifests ---- */

static int is_yaml(const char *name)
{
	size_t n = strlen(name);
	return n > 5 && strcmp(name + n - 5, ".yaml") == 0;
}

START_TEST(manifests_decode_and_round_trip)
{
	const char *dir = kp_test_data_path(MANIFESTS);
	char dirpath[1024];
	snprintf(dirpath, sizeof(dirpath), "%s", dir);
	DIR *d = opendir(dirpath);
	ck_assert_ptr_nonnull(d);
	struct dirent *de;
	int files = 0, nodepools = 0, unknown = 0;
	while ((de = readdir(d)) != NULL) {
		if (!is_yaml(de->d_name))
			continue;
		char path[1400];
		snprintf(path, sizeof(path), "%s/%s", dirpath, de->d_name);
		size_t len;
		char *text = kp_test_read_file(path, &len);
		ck_assert_ptr_nonnull(text);
		kp_decode_result *r = decode_ok(text, len, 0);
		ck_assert_uint_eq(kp_decode_result_warning_count(r), 0);
		for (size_t i = 0; i < kp_decode_result_count(r); i++) {
			const kp_decoded_object *o = kp_decode_result_at(r, i);
			if (o->kind == KP_KIND_UNKNOWN) {
				ck_assert_ptr_null(o->object);
				ck_assert_str_eq(o->kind_name, "EC2NodeClass");
				ck_assert_str_eq(o->api_version, "karpenter.k8s.aws/v1");
				ck_assert_str_ne(o->name, "");
				unknown++;
				continue;
			}
			ck_assert_uint_eq(o->kind, KP_KIND_NODEPOOL);
			const kp_nodepool *np = o->object;
			ck_assert_str_eq(np->metadata->name, o->name);
			ck_assert_ptr_nonnull(np->spec->template_->spec->node_class_ref);
			char what[1500];
			snprintf(what, sizeof(what), "%s#%zu", de->d_name, i);
			kp_encoded_free(check_round_trip(o->kind, o->object, what));
			nodepools++;
		}
		kp_decode_result_free(r);
		free(text);
		files++;
	}
	closedir(d);
	ck_assert_int_eq(files, 22);
	ck_assert_int_ge(nodepools, 22);
	ck_assert_int_ge(unknown, 22);
}
END_TEST

START_TEST(manifest_general_purpose_fields)
{
	size_t len;
	char *text = kp_test_read_file(kp_test_data_path(MANIFESTS "/general-purpose.yaml"), &len);
	ck_assert_ptr_nonnull(text);
	kp_decode_result *r = decode_ok(text, len, 0);
	ck_assert_uint_eq(kp_decode_result_count(r), 2);

	const kp_decoded_object *o = kp_decode_result_at(r, 0);
	ck_assert_uint_eq(o->kind, KP_KIND_NODEPOOL);
	ck_assert_str_eq(o->kind_name, "NodePool");
	ck_assert_str_eq(o->api_version, "karpenter.sh/v1");
	ck_assert_str_eq(o->name, "general-purpose");
	ck_assert_uint_eq(o->document, 0);
	const kp_nodepool *np = o->object;
	ck_assert_uint_eq(np->struct_size, sizeof(kp_nodepool));
	ck_assert_uint_eq(np->kind, KP_KIND_NODEPOOL);
	ck_assert_str_eq(np->api_version, "karpenter.sh/v1");
	const kp_label *desc = label(&np->metadata->annotations, "kubernetes.io/description");
	ck_assert_ptr_nonnull(desc);
	ck_assert_str_eq(desc->value, "General purpose NodePool for generic workloads");
	ck_assert_ptr_null(np->metadata->labels.items);
	ck_assert_ptr_null(np->spec->disruption);
	ck_assert_ptr_null(np->status);
	ck_assert_uint_eq(np->spec->has_weight, 0);
	ck_assert_ptr_null(np->spec->template_->metadata);

	const kp_nodeclaim_spec *s = np->spec->template_->spec;
	ck_assert_ptr_null(s->taints);
	ck_assert_ptr_null(s->expire_after.text);
	ck_assert_uint_eq(s->n_requirements, 5);
	static const struct {
		const char *key, *op;
		uint32_t code;
		const char *values[3];
		size_t n;
	} want[] = {
		{ "kubernetes.io/arch", "In", KP_SELECTOR_OP_IN, { "amd64" }, 1 },
		{ "kubernetes.io/os", "In", KP_SELECTOR_OP_IN, { "linux" }, 1 },
		{ "karpenter.sh/capacity-type", "In", KP_SELECTOR_OP_IN, { "on-demand" }, 1 },
		{ "karpenter.k8s.aws/instance-category", "In", KP_SELECTOR_OP_IN, { "c", "m", "r" }, 3 },
		{ "karpenter.k8s.aws/instance-generation", "Gt", KP_SELECTOR_OP_GT, { "2" }, 1 },
	};
	for (size_t i = 0; i < 5; i++) {
		const kp_nodeclaim_requirement *q = s->requirements[i];
		ck_assert_str_eq(q->key, want[i].key);
		ck_assert_str_eq(q->operator_name, want[i].op);
		ck_assert_uint_eq(q->op, want[i].code);
		ck_assert_uint_eq(q->n_values, want[i].n);
		for (size_t j = 0; j < want[i].n; j++)
			ck_assert_str_eq(q->values[j], want[i].values[j]);
		ck_assert_uint_eq(q->has_min_values, 0);
	}
	ck_assert_str_eq(s->node_class_ref->group, "karpenter.k8s.aws");
	ck_assert_str_eq(s->node_class_ref->kind, "EC2NodeClass");
	ck_assert_str_eq(s->node_class_ref->name, "default");

	o = kp_decode_result_at(r, 1);
	ck_assert_uint_eq(o->kind, KP_KIND_UNKNOWN);
	ck_assert_str_eq(o->kind_name, "EC2NodeClass");
	ck_assert_str_eq(o->name, "default");
	ck_assert_uint_eq(o->document, 1);
	ck_assert_ptr_null(o->object);
	kp_decode_result_free(r);
	free(text);
}
END_TEST

START_TEST(manifest_min_values_and_limits)
{
	size_t len;
	char *text = kp_test_read_file(kp_test_data_path(MANIFESTS "/min-values-multiple-keys.yaml"),
				       &len);
	ck_assert_ptr_nonnull(text);
	kp_decode_result *r = decode_ok(text, len, 0);
	const kp_nodepool *np = kp_decode_result_at(r, 0)->object;
	const kp_nodeclaim_spec *s = np->spec->template_->spec;
	ck_assert_uint_eq(s->n_requirements, 7);
	ck_assert_uint_eq(s->requirements[3]->has_min_values, 1);
	ck_assert_int_eq(s->requirements[3]->min_values, 2);
	ck_assert_str_eq(s->requirements[4]->operator_name, "Exists");
	ck_assert_ptr_null(s->requirements[4]->values);
	ck_assert_int_eq(s->requirements[4]->min_values, 5);

	/* The view for the requirements algebra. */
	kp_node_selector_requirement view = KP_NODE_SELECTOR_REQUIREMENT_INIT;
	ck_assert_int_eq(kp_nodeclaim_requirement_view(s->requirements[3], &view, NULL), KP_OK);
	ck_assert_uint_eq(view.op, KP_SELECTOR_OP_IN);
	ck_assert_str_eq(view.key, "karpenter.k8s.aws/instance-category");
	ck_assert_uint_eq(view.n_values, 3);
	ck_assert_int_eq(view.min_values, 2);
	kp_requirement *req = NULL;
	ck_assert_int_eq(kp_requirement_new(&req, &view, NULL, NULL), KP_OK);
	ck_assert_int_eq(kp_requirement_has(req, "m"), 1);
	kp_requirement_free(req);
	kp_decode_result_free(r);
	free(text);

	text = kp_test_read_file(kp_test_data_path(MANIFESTS "/100-cpu-limit.yaml"), &len);
	ck_assert_ptr_nonnull(text);
	r = decode_ok(text, len, 0);
	np = kp_decode_result_at(r, 0)->object;
	ck_assert_uint_eq(np->spec->limits.count, 1);
	assert_quantity(&np->spec->limits, "cpu", "100");
	kp_decode_result_free(r);
	free(text);
}
END_TEST

/* ---- fixtures: every kind, every field ---- */

static const char *const fixtures[] = {
	"pod.yaml", "node.yaml", "daemonset.yaml", "pdb.yaml", "storage.yaml",
	"nodeclaim.yaml", "kwok-nodeclass.yaml", "nodepool-full.yaml", "nodepool-small.yaml",
	"nodepool-small.json", "list.yaml", "namespace.yaml", "volumeattachment.yaml",
};
#define N_FIXTURES (sizeof(fixtures) / sizeof(fixtures[0]))

START_TEST(fixtures_round_trip)
{
	size_t len;
	char *text = read_fixture(fixtures[_i], &len);
	kp_decode_result *r = decode_ok(text, len, 0);
	ck_assert_uint_gt(kp_decode_result_count(r), 0);
	ck_assert_uint_eq(kp_decode_result_warning_count(r), 0);
	for (size_t i = 0; i < kp_decode_result_count(r); i++) {
		const kp_decoded_object *o = kp_decode_result_at(r, i);
		if (o->kind == KP_KIND_UNKNOWN)
			continue;
		char what[128];
		snprintf(what, sizeof(what), "%s#%zu", fixtures[_i], i);
		kp_encoded_free(check_round_trip(o->kind, o->object, what));
	}
	kp_decode_result_free(r);
	free(text);
}
END_TEST

/* Field coverage: every field of every type reachable from the modelled
 * kinds is present in at least one fixture object. */
#define MAX_TYPES 128
static const kp__type *cov_types[MAX_TYPES];
static unsigned char cov_seen[MAX_TYPES][64];
static size_t cov_n;

static size_t cov_index(const kp__type *t)
{
	for (size_t i = 0; i < cov_n; i++)
		if (cov_types[i] == t)
			return i;
	ck_assert_uint_lt(cov_n, MAX_TYPES);
	ck_assert_uint_le(t->n_fields, 64);
	cov_types[cov_n] = t;
	return cov_n++;
}

static void cov_register(const kp__type *t)
{
	size_t before = cov_n;
	size_t i = cov_index(t);
	if (i < before)
		return;
	for (size_t f = 0; f < t->n_fields; f++)
		if (t->fields[f].elem)
			cov_register(t->fields[f].elem);
}

static void cov_walk(const kp__type *t, const void *s);

static void cov_field(const kp__type *t, size_t ti, size_t fi, const void *s)
{
	const kp__field *f = &t->fields[fi];
	const char *base = s;
	int present = 0;
	switch (f->kind) {
	case KP__FK_STRING:
	case KP__FK_API_VERSION:
	case KP__FK_ENUM:
	case KP__FK_JSON:
		present = *(const char *const *)(const void *)(base + f->off) != NULL;
		break;
	case KP__FK_CODE:
	case KP__FK_BOOL:
	case KP__FK_KIND:
	case KP__FK_INT32:
		present = *(const uint32_t *)(const void *)(base + f->off) != 0;
		break;
	case KP__FK_OPT_BOOL:
	case KP__FK_OPT_INT32:
	case KP__FK_OPT_INT64:
		present = *(const uint32_t *)(const void *)(base + f->aux) != 0;
		break;
	case KP__FK_INT64:
	case KP__FK_TIME:
		present = *(const int64_t *)(const void *)(base + f->off) != 0;
		break;
	case KP__FK_DURATION:
	case KP__FK_NILLABLE_DURATION:
		present = ((const kp_api_duration *)(const void *)(base + f->off))->text != NULL;
		break;
	case KP__FK_INT_OR_STRING:
		present = ((const kp_int_or_string *)(const void *)(base + f->off))->type != 0;
		break;
	case KP__FK_STRINGS:
	case KP__FK_MAP:
	case KP__FK_RESOURCES:
	case KP__FK_STRUCT:
		present = *(const void *const *)(const void *)(base + f->off) != NULL;
		break;
	case KP__FK_LIST: {
		const void *const *items = *(const void *const *const *)(const void *)(base + f->off);
		size_t n = *(const size_t *)(const void *)(base + f->aux);
		present = items && n > 0;
		for (size_t i = 0; items && i < n; i++)
			cov_walk(f->elem, items[i]);
		break;
	}
	case KP__FK_VALUES: {
		const char *items = *(const char *const *)(const void *)(base + f->off);
		size_t n = *(const size_t *)(const void *)(base + f->aux);
		present = items && n > 0;
		for (size_t i = 0; items && i < n; i++)
			cov_walk(f->elem, items + i * f->elem->size);
		break;
	}
	case KP__FK_TAG:
		present = *(const uint32_t *)(const void *)(base + t->tag_off) == f->tag;
		break;
	case KP__FK_IGNORED:
		present = 1;
		break;
	}
	if (f->kind == KP__FK_STRUCT && present)
		cov_walk(f->elem, *(const void *const *)(const void *)(base + f->off));
	if (present)
		cov_seen[ti][fi] = 1;
}

static void cov_walk(const kp__type *t, const void *s)
{
	size_t ti = cov_index(t);
	for (size_t f = 0; f < t->n_fields; f++)
		cov_field(t, ti, f, s);
}

START_TEST(fixtures_cover_every_field)
{
	const uint32_t kinds[] = { KP_KIND_NODEPOOL, KP_KIND_NODECLAIM, kwok_kind,
				   KP_KIND_POD, KP_KIND_NODE, KP_KIND_DAEMONSET, KP_KIND_PDB,
				   KP_KIND_PVC, KP_KIND_PV, KP_KIND_STORAGE_CLASS,
				   KP_KIND_CSI_NODE, KP_KIND_NAMESPACE, KP_KIND_VOLUME_ATTACHMENT };
	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++)
		cov_register(kp__registry_kind_info(reg, kinds[k])->type);
	size_t seen_kinds[16] = { 0 };
	for (size_t i = 0; i < N_FIXTURES; i++) {
		size_t len;
		char *text = read_fixture(fixtures[i], &len);
		kp_decode_result *r = decode_ok(text, len, 0);
		for (size_t j = 0; j < kp_decode_result_count(r); j++) {
			const kp_decoded_object *o = kp_decode_result_at(r, j);
			if (o->kind == KP_KIND_UNKNOWN)
				continue;
			seen_kinds[o->kind == kwok_kind ? 3 : o->kind]++;
			cov_walk(kp__registry_kind_info(reg, o->kind)->type, o->object);
		}
		kp_decode_result_free(r);
		free(text);
	}
	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++)
		ck_assert_msg(seen_kinds[kinds[k] == kwok_kind ? 3 : kinds[k]] > 0, "no fixture of kind %s",
			      kp_registry_kind_name(reg, kinds[k]));
	int missing = 0;
	for (size_t t = 0; t < cov_n; t++)
		for (size_t f = 0; f < cov_types[t]->n_fields; f++)
			if (!cov_seen[t][f]) {
				fprintf(stderr, "# not covered: %s.%s\n", cov_types[t]->go,
					cov_types[t]->fields[f].json);
				missing++;
			}
	ck_assert_msg(missing == 0, "%d fields not covered by fixtures", missing);
	ck_assert_uint_ge(cov_n, 60);
}
END_TEST

START_TEST(fixture_pod_fields)
{
	size_t len;
	char *text = read_fixture("pod.yaml", &len);
	kp_decode_result *r = decode_ok(text, len, 0);
	const kp_pod *pod = only_object(r, KP_KIND_POD);
	const kp_object_meta *m = pod->metadata;
	ck_assert_str_eq(m->namespace_, "shop");
	ck_assert_int_eq(m->generation, 3);
	ck_assert_int_eq(m->creation_timestamp_ms, 1704164645000LL);
	ck_assert_int_eq(m->deletion_timestamp_ms, 1704165245250LL);
	ck_assert_uint_eq(m->n_owner_references, 1);
	ck_assert_uint_eq(m->owner_references[0]->has_controller, 1);
	ck_assert_uint_eq(m->owner_references[0]->controller, 1);
	ck_assert_uint_eq(m->owner_references[0]->has_block_owner_deletion, 1);
	ck_assert_uint_eq(m->owner_references[0]->block_owner_deletion, 0);
	/* labels are sorted by key */
	ck_assert_str_eq(m->labels.items[0].key, "app");
	ck_assert_str_eq(m->labels.items[1].key, "app.kubernetes.io/name");

	const kp_pod_spec *s = pod->spec;
	ck_assert_uint_eq(s->n_volumes, 15);
	ck_assert_uint_eq(s->volumes[0]->source, KP_VOLUME_SOURCE_PERSISTENT_VOLUME_CLAIM);
	ck_assert_str_eq(s->volumes[0]->persistent_volume_claim->claim_name, "data-web-0");
	ck_assert_uint_eq(s->volumes[1]->source, KP_VOLUME_SOURCE_EPHEMERAL);
	ck_assert_str_eq(s->volumes[1]->ephemeral->volume_claim_template->spec->storage_class_name,
			 "gp3");
	ck_assert_uint_eq(s->volumes[2]->source, KP_VOLUME_SOURCE_CSI);
	ck_assert_str_eq(s->volumes[2]->csi->driver, "secrets-store.csi.k8s.io");
	ck_assert_uint_eq(s->volumes[3]->source, KP_VOLUME_SOURCE_EMPTY_DIR);
	ck_assert_uint_eq(s->volumes[14]->source, KP_VOLUME_SOURCE_OTHER);
	ck_assert_str_eq(s->init_containers[1]->restart_policy, "Always");
	ck_assert_uint_eq(s->containers[0]->n_ports, 2);
	ck_assert_int_eq(s->containers[0]->ports[0]->host_port, 80);
	ck_assert_str_eq(s->containers[0]->ports[1]->protocol, "UDP");
	assert_quantity(&s->containers[0]->resources->requests, "nvidia.com/gpu", "1");
	assert_quantity(&s->containers[0]->resources->requests, "cpu", "250m");
	ck_assert_uint_eq(s->has_priority, 1);
	ck_assert_int_eq(s->priority, 1000);
	ck_assert_int_eq(s->termination_grace_period_seconds, 60);
	const kp_node_selector_term *term = s->affinity->node_affinity->required->terms[0];
	ck_assert_uint_eq(term->match_expressions[1]->op, KP_SELECTOR_OP_GT);
	ck_assert_uint_eq(term->match_fields[0]->op, KP_SELECTOR_OP_NOT_IN);
	ck_assert_uint_eq(term->match_expressions[0]->struct_size, sizeof(kp_node_selector_requirement));
	const kp_pod_affinity_term *pat = s->affinity->pod_affinity->required[0];
	ck_assert_uint_eq(pat->label_selector->n_match_expressions, 2);
	ck_assert_uint_eq(pat->label_selector->match_expressions[1].op, KP_LABEL_SELECTOR_OP_EXISTS);
	ck_assert_str_eq(pat->mismatch_label_keys[0], "tenant");
	ck_assert_uint_eq(s->n_tolerations, 5);
	ck_assert_uint_eq(s->tolerations[1].op, KP_TOLERATION_OP_EXISTS);
	ck_assert_ptr_null(s->tolerations[1].key);
	ck_assert_uint_eq(s->tolerations[2].has_toleration_seconds, 1);
	ck_assert_int_eq(s->tolerations[2].toleration_seconds, 300);
	ck_assert_uint_eq(s->tolerations[3].op, KP_TOLERATION_OP_GT);
	ck_assert_uint_eq(s->tolerations[3].effect, KP_TAINT_EFFECT_PREFER_NO_SCHEDULE);
	const kp_topology_spread_constraint *tsc = s->topology_spread_constraints[0];
	ck_assert_int_eq(tsc->max_skew, 1);
	ck_assert_uint_eq(tsc->when_unsatisfiable_code, KP_WHEN_UNSATISFIABLE_DO_NOT_SCHEDULE);
	ck_assert_uint_eq(tsc->has_min_domains, 1);
	ck_assert_int_eq(tsc->min_domains, 3);
	ck_assert_uint_eq(tsc->node_affinity_policy_code, KP_NODE_INCLUSION_POLICY_HONOR);
	ck_assert_uint_eq(tsc->node_taints_policy_code, KP_NODE_INCLUSION_POLICY_IGNORE);
	ck_assert_uint_eq(s->topology_spread_constraints[1]->when_unsatisfiable_code,
			  KP_WHEN_UNSATISFIABLE_SCHEDULE_ANYWAY);
	ck_assert_ptr_null(s->topology_spread_constraints[1]->label_selector);
	ck_assert_uint_eq(pod->status->phase_code, KP_POD_PHASE_RUNNING);
	ck_assert_int_eq(pod->status->conditions[0]->last_probe_time_ms, 0);
	ck_assert_str_eq(pod->status->conditions[1]->reason, "Infeasible");
	assert_quantity(&pod->status->container_statuses[0]->allocated_resources, "memory", "512Mi");
	kp_decode_result_free(r);
	free(text);
}
END_TEST

/* Decode one object of @p kind from JSON text and encode it back as JSON. */
static char *reencode(const char *text, uint32_t kind)
{
	kp_decode_result *r = decode_str(text);
	const void *o = only_object(r, kind);
	char *out = NULL;
	kp_error e = KP_ERROR_INIT;
	ck_assert_msg(kp_encode(&out, NULL, kind, o, KP_FORMAT_JSON, 0, &e) == KP_OK, "encode: %s",
		      e.message);
	size_t n = strlen(out);
	char *copy = malloc(n + 1);
	ck_assert_ptr_nonnull(copy);
	memcpy(copy, out, n + 1);
	kp_encoded_free(out);
	kp_decode_result_free(r);
	return copy;
}

/* Every KP_VOLUME_SOURCE_OTHER source reads back as itself, with its
 * content, and two round trips are a fixed point (audit finding 5: each was
 * encoded as "gitRepo":{}). */
START_TEST(other_volume_sources_round_trip)
{
	static const char *const pod_sources[][2] = {
		{ "iscsi", "{\"targetPortal\": \"10.0.0.1:3260\", \"iqn\": \"iqn.2001-04.com.example:x\", "
			   "\"lun\": 0, \"fsType\": \"ext4\", \"readOnly\": true}" },
		{ "rbd", "{\"monitors\": [\"10.0.0.2:6789\"], \"image\": \"foo\", \"pool\": \"kube\"}" },
		{ "gitRepo", "{\"repository\": \"https://example.com/r.git\", \"revision\": \"abc\"}" },
		{ "glusterfs", "{\"endpoints\": \"gluster\", \"path\": \"vol\"}" },
		{ "cephfs", "{\"monitors\": [\"m1\", \"m2\"], \"user\": \"admin\"}" },
		{ "fc", "{\"targetWWNs\": [\"500a0982991b8dc5\"], \"lun\": 2}" },
		{ "flexVolume", "{\"driver\": \"kubernetes.io/lvm\", \"options\": {\"b\": \"2\", \"a\": \"1\"}}" },
		{ "storageos", "{}" },
	};
	for (size_t i = 0; i < sizeof(pod_sources) / sizeof(pod_sources[0]); i++) {
		char pod[1024];
		snprintf(pod, sizeof(pod),
			 "{\"apiVersion\": \"v1\", \"kind\": \"Pod\", \"metadata\": {\"name\": \"p\"}, "
			 "\"spec\": {\"volumes\": [{\"name\": \"v\", \"%s\": %s}], "
			 "\"containers\": [{\"name\": \"c\"}]}}",
			 pod_sources[i][0], pod_sources[i][1]);
		kp_decode_result *r = decode_str(pod);
		const kp_pod *p = only_object(r, KP_KIND_POD);
		ck_assert_uint_eq(p->spec->volumes[0]->source, KP_VOLUME_SOURCE_OTHER);
		char key[64];
		snprintf(key, sizeof(key), "{\"%s\":", pod_sources[i][0]);
		ck_assert_msg(!strncmp(p->spec->volumes[0]->other_source, key, strlen(key)), "%s",
			      p->spec->volumes[0]->other_source);
		kp_decode_result_free(r);
		char *once = reencode(pod, KP_KIND_POD);
		char want[96];
		snprintf(want, sizeof(want), "\"volumes\":[{\"name\":\"v\",\"%s\":", pod_sources[i][0]);
		ck_assert_msg(strstr(once, want) != NULL, "%s: %s", pod_sources[i][0], once);
		char *twice = reencode(once, KP_KIND_POD);
		char *thrice = reencode(twice, KP_KIND_POD);
		ck_assert_str_eq(once, twice);
		ck_assert_str_eq(twice, thrice);
		free(once);
		free(twice);
		free(thrice);
	}
	/* the content is kept: iscsi's fields, flexVolume's options sorted */
	char *iscsi = reencode("{\"apiVersion\": \"v1\", \"kind\": \"Pod\", \"metadata\": {\"name\": \"p\"}, "
			       "\"spec\": {\"volumes\": [{\"name\": \"v\", \"iscsi\": {\"lun\": 3, "
			       "\"iqn\": \"q\"}}], \"containers\": [{\"name\": \"c\"}]}}",
			       KP_KIND_POD);
	ck_assert_msg(strstr(iscsi, "\"iscsi\":{\"iqn\":\"q\",\"lun\":3}") != NULL, "%s", iscsi);
	free(iscsi);
	/* two sources (refused by the API server): the last one's tag wins and
	 * an OTHER source before it is dropped, so the volume reads back alike */
	char *two = reencode("{\"apiVersion\": \"v1\", \"kind\": \"Pod\", \"metadata\": {\"name\": \"p\"}, "
			     "\"spec\": {\"volumes\": [{\"name\": \"v\", \"iscsi\": {\"lun\": 3}, "
			     "\"hostPath\": {\"path\": \"/x\"}}], \"containers\": [{\"name\": \"c\"}]}}",
			     KP_KIND_POD);
	ck_assert_msg(strstr(two, "\"volumes\":[{\"name\":\"v\",\"hostPath\":{}}]") != NULL, "%s", two);
	char *two_again = reencode(two, KP_KIND_POD);
	ck_assert_str_eq(two, two_again);
	free(two);
	free(two_again);
	/* a PersistentVolume's rbd and local sources */
	static const char *const pv_sources[] = {
		"\"rbd\": {\"monitors\": [\"m\"], \"image\": \"i\"}",
		"\"local\": {\"path\": \"/mnt/disks/ssd1\"}",
		"\"iscsi\": {\"targetPortal\": \"t\", \"iqn\": \"q\", \"lun\": 1}",
	};
	static const char *const pv_want[] = {
		"\"rbd\":{\"image\":\"i\",\"monitors\":[\"m\"]}",
		"\"local\":{\"path\":\"/mnt/disks/ssd1\"}",
		"\"iscsi\":{\"iqn\":\"q\",\"lun\":1,\"targetPortal\":\"t\"}",
	};
	for (size_t i = 0; i < sizeof(pv_sources) / sizeof(pv_sources[0]); i++) {
		char pv[512];
		snprintf(pv, sizeof(pv),
			 "{\"apiVersion\": \"v1\", \"kind\": \"PersistentVolume\", \"metadata\": "
			 "{\"name\": \"pv\"}, \"spec\": {\"capacity\": {\"storage\": \"1Gi\"}, %s}}",
			 pv_sources[i]);
		char *once = reencode(pv, KP_KIND_PV);
		ck_assert_msg(strstr(once, pv_want[i]) != NULL, "%s", once);
		char *twice = reencode(once, KP_KIND_PV);
		ck_assert_str_eq(once, twice);
		free(once);
		free(twice);
	}
}
END_TEST

START_TEST(fixture_storage_and_pdb_fields)
{
	size_t len;
	char *text = read_fixture("storage.yaml", &len);
	kp_decode_result *r = decode_ok(text, len, 0);
	ck_assert_uint_eq(kp_decode_result_count(r), 10);
	const kp_pvc *pvc = kp_decode_result_at(r, 0)->object;
	ck_assert_str_eq(pvc->spec->storage_class_name, ""); /* present, empty: no class */
	ck_assert_uint_eq(pvc->status->phase_code, KP_VOLUME_PHASE_BOUND);
	const kp_pv *pv = kp_decode_result_at(r, 1)->object;
	ck_assert_uint_eq(pv->spec->source, KP_VOLUME_SOURCE_CSI);
	ck_assert_str_eq(pv->spec->csi->volume_handle, "vol-0123456789");
	ck_assert_str_eq(pv->spec->claim_ref->namespace_, "shop");
	ck_assert_str_eq(pv->spec->node_affinity->required->terms[0]->match_expressions[0]->key,
			 "topology.ebs.csi.aws.com/zone");
	const kp_pv *local = kp_decode_result_at(r, 2)->object;
	ck_assert_uint_eq(local->spec->source, KP_VOLUME_SOURCE_OTHER);
	ck_assert_uint_eq(((const kp_pv *)kp_decode_result_at(r, 3)->object)->spec->source,
			  KP_VOLUME_SOURCE_HOST_PATH);
	ck_assert_uint_eq(((const kp_pv *)kp_decode_result_at(r, 7)->object)->spec->source,
			  KP_VOLUME_SOURCE_NFS);
	const kp_storage_class *sc = kp_decode_result_at(r, 8)->object;
	ck_assert_str_eq(sc->provisioner, "ebs.csi.aws.com");
	ck_assert_uint_eq(sc->volume_binding_mode_code, KP_VOLUME_BINDING_MODE_WAIT_FOR_FIRST_CONSUMER);
	ck_assert_uint_eq(sc->has_allow_volume_expansion, 1);
	ck_assert_uint_eq(sc->allowed_topologies[0]->match_label_expressions[0]->n_values, 2);
	const kp_csi_node *cn = kp_decode_result_at(r, 9)->object;
	ck_assert_uint_eq(cn->spec->n_drivers, 2);
	ck_assert_uint_eq(cn->spec->drivers[0]->allocatable->has_count, 1);
	ck_assert_int_eq(cn->spec->drivers[0]->allocatable->count, 25);
	ck_assert_uint_eq(cn->spec->drivers[1]->allocatable->has_count, 0);
	kp_decode_result_free(r);
	free(text);

	text = read_fixture("pdb.yaml", &len);
	r = decode_ok(text, len, 0);
	const kp_pdb *a = kp_decode_result_at(r, 0)->object;
	ck_assert_uint_eq(a->spec->min_available.type, KP_INT_OR_STRING_INT);
	ck_assert_int_eq(a->spec->min_available.int_value, 2);
	ck_assert_uint_eq(a->spec->max_unavailable.type, KP_INT_OR_STRING_UNSET);
	ck_assert_int_eq(a->status->disruptions_allowed, 1);
	ck_assert_int_eq(a->status->expected_pods, 3);
	ck_assert_uint_eq(a->spec->unhealthy_pod_eviction_policy_code,
			  KP_UNHEALTHY_POD_EVICTION_POLICY_ALWAYS_ALLOW);
	const kp_pdb *b = kp_decode_result_at(r, 1)->object;
	ck_assert_uint_eq(b->spec->max_unavailable.type, KP_INT_OR_STRING_STRING);
	ck_assert_str_eq(b->spec->max_unavailable.str_value, "25%");
	kp_decode_result_free(r);
	free(text);

	/* VolumeAttachment: every field; inlineVolumeSpec kept as compact
	 * JSON with sorted keys. */
	text = read_fixture("volumeattachment.yaml", &len);
	r = decode_ok(text, len, 0);
	ck_assert_uint_eq(kp_decode_result_count(r), 2);
	ck_assert_uint_eq(kp_decode_result_at(r, 0)->kind, KP_KIND_VOLUME_ATTACHMENT);
	const kp_volume_attachment *va = kp_decode_result_at(r, 0)->object;
	ck_assert_uint_eq(va->kind, KP_KIND_VOLUME_ATTACHMENT);
	ck_assert_str_eq(va->metadata->name, "csi-0123456789abcdef");
	ck_assert_str_eq(va->spec->attacher, "ebs.csi.aws.com");
	ck_assert_str_eq(va->spec->node_name, "ip-10-0-1-2.us-west-2.compute.internal");
	ck_assert_str_eq(va->spec->source->persistent_volume_name, "pvc-0123");
	ck_assert_ptr_null(va->spec->source->inline_volume_spec);
	ck_assert_uint_eq(va->status->attached, 1);
	ck_assert_uint_eq(va->status->attachment_metadata.count, 1);
	ck_assert_str_eq(va->status->attachment_metadata.items[0].key, "devicePath");
	ck_assert_str_eq(va->status->attachment_metadata.items[0].value, "/dev/xvdaa");
	ck_assert_ptr_null(va->status->attach_error);
	ck_assert_int_eq(va->status->detach_error->time_ms, 1704164645000LL);
	ck_assert_str_eq(va->status->detach_error->message, "volume is still in use");
	const kp_volume_attachment *inl = kp_decode_result_at(r, 1)->object;
	ck_assert_ptr_null(inl->spec->source->persistent_volume_name);
	ck_assert_str_eq(inl->spec->source->inline_volume_spec,
			 "{\"accessModes\":[\"ReadWriteOnce\"],\"csi\":{\"driver\":\"ebs.csi.aws.com\","
			 "\"volumeHandle\":\"vol-0abc\"}}");
	ck_assert_uint_eq(inl->status->attached, 0);
	ck_assert_str_eq(inl->status->attach_error->message, "rpc error");
	kp_volume_attachment *copy = NULL;
	ck_assert_int_eq(kp_object_copy((void **)&copy, KP_KIND_VOLUME_ATTACHMENT, inl, NULL), KP_OK);
	ck_assert_str_eq(copy->spec->source->inline_volume_spec, inl->spec->source->inline_volume_spec);
	kp_volume_attachment_free(copy);
	kp_decode_result_free(r);
	free(text);

	/* Namespace: metadata only; spec and status are not modelled and
	 * decode without a warning, as unknown fields of core kinds do. */
	static const char ns_yaml[] = "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: team-a\n"
				      "  labels:\n    team: a\nspec:\n  finalizers: [kubernetes]\n"
				      "status:\n  phase: Active\n";
	r = decode_ok(ns_yaml, sizeof(ns_yaml) - 1, 0);
	ck_assert_uint_eq(kp_decode_result_count(r), 1);
	ck_assert_uint_eq(kp_decode_result_warning_count(r), 0);
	ck_assert_uint_eq(kp_decode_result_at(r, 0)->kind, KP_KIND_NAMESPACE);
	const kp_namespace *ns = kp_decode_result_at(r, 0)->object;
	ck_assert_str_eq(ns->metadata->name, "team-a");
	ck_assert_uint_eq(ns->metadata->labels.count, 1);
	kp_decode_result_free(r);
}
END_TEST

START_TEST(fixture_karpenter_fields)
{
	size_t len;
	char *text = read_fixture("nodepool-full.yaml", &len);
	kp_decode_result *r = decode_ok(text, len, 0);
	const kp_nodepool *np = only_object(r, KP_KIND_NODEPOOL);
	const kp_nodepool_spec *s = np->spec;
	ck_assert_uint_eq(s->has_weight, 1);
	ck_assert_int_eq(s->weight, 50);
	ck_assert_uint_eq(s->has_replicas, 1);
	ck_assert_int_eq(s->replicas, 3);
	assert_quantity(&s->limits, "memory", "1000Gi");
	ck_assert_uint_eq(s->disruption->consolidation_policy_code,
			  KP_CONSOLIDATION_POLICY_WHEN_EMPTY_OR_UNDERUTILIZED);
	ck_assert_str_eq(s->disruption->consolidate_after.text, "1m");
	ck_assert_int_eq(s->disruption->consolidate_after.ns, 60000000000LL);
	ck_assert_uint_eq(s->disruption->consolidate_after.parsed, 1);
	ck_assert_uint_eq(s->disruption->n_budgets, 2);
	ck_assert_str_eq(s->disruption->budgets[0]->nodes, "10%");
	ck_assert_ptr_null(s->disruption->budgets[0]->schedule);
	ck_assert_str_eq(s->disruption->budgets[1]->schedule, "0 9 * * mon-fri");
	ck_assert_int_eq(s->disruption->budgets[1]->duration.ns, 8LL * 3600 * 1000000000LL);
	ck_assert_str_eq(s->disruption->budgets[1]->reasons[1], "Underutilized");
	const kp_nodeclaim_spec *t = s->template_->spec;
	ck_assert_str_eq(t->expire_after.text, "Never");
	ck_assert_int_eq(t->expire_after.never, 1);
	ck_assert_uint_eq(t->expire_after.parsed, 1);
	ck_assert_int_eq(t->termination_grace_period.ns, 24LL * 3600 * 1000000000LL);
	ck_assert_uint_eq(t->taints[0].effect, KP_TAINT_EFFECT_NO_SCHEDULE);
	ck_assert_int_eq(t->taints[0].time_added_ms, 1719792000000LL);
	ck_assert_uint_eq(t->startup_taints[0].effect, KP_TAINT_EFFECT_NO_EXECUTE);
	ck_assert_ptr_null(t->resources);
	ck_assert_str_eq(label(&s->template_->metadata->labels, "billing")->value, "team-a");
	ck_assert_uint_eq(np->status->has_nodes, 1);
	ck_assert_int_eq(np->status->nodes, 3);
	ck_assert_int_eq(np->status->node_class_observed_generation, 2);
	ck_assert_str_eq(np->status->conditions[0]->type, "Ready");
	kp_decode_result_free(r);
	free(text);

	text = read_fixture("nodeclaim.yaml", &len);
	r = decode_ok(text, len, 0);
	const kp_nodeclaim *nc = only_object(r, KP_KIND_NODECLAIM);
	assert_quantity(&nc->spec->resources->requests, "memory", "3Gi");
	ck_assert_uint_eq(nc->spec->requirements[1]->op, KP_SELECTOR_OP_GTE);
	ck_assert_str_eq(nc->status->provider_id, "aws:///us-west-2a/i-0123456789abcdef0");
	ck_assert_uint_eq(nc->status->n_conditions, 2);
	ck_assert_int_eq(nc->status->conditions[0]->observed_generation, 1);
	ck_assert_int_eq(nc->status->last_pod_event_time_ms, 1717203600000LL);
	kp_decode_result_free(r);
	free(text);

	text = read_fixture("kwok-nodeclass.yaml", &len);
	r = decode_ok(text, len, 0);
	const kp_kwok_nodeclass *kw = only_object(r, kwok_kind);
	ck_assert_int_eq(kw->spec->node_registration_delay.ns, 30000000000LL);
	ck_assert_str_eq(kw->status->conditions[0]->status, "True");
	kp_decode_result_free(r);
	free(text);
}
END_TEST

/* ---- streams: multi-document, List, JSON vs YAML ---- */

START_TEST(stream_list_and_documents)
{
	size_t len;
	char *text = read_fixture("list.yaml", &len);
	kp_decode_result *r = decode_ok(text, len, 0);
	ck_assert_uint_eq(kp_decode_result_count(r), 3);
	const kp_decoded_object *cm = kp_decode_result_at(r, 0);
	ck_assert_uint_eq(cm->kind, KP_KIND_UNKNOWN);
	ck_assert_str_eq(cm->kind_name, "ConfigMap");
	ck_assert_str_eq(cm->name, "settings");
	ck_assert_str_eq(cm->namespace_, "kube-system");
	ck_assert_uint_eq(cm->in_list, 1);
	ck_assert_uint_eq(cm->item, 0);
	const kp_decoded_object *p = kp_decode_result_at(r, 1);
	ck_assert_uint_eq(p->kind, KP_KIND_POD);
	ck_assert_uint_eq(p->item, 1);
	ck_assert_uint_eq(p->document, 0);
	const kp_decoded_object *q = kp_decode_result_at(r, 2);
	ck_assert_uint_eq(q->kind, KP_KIND_POD);
	ck_assert_str_eq(q->name, "second");
	ck_assert_uint_eq(q->document, 2); /* the empty document still counts */

	/* take moves the object out */
	void *taken = NULL;
	ck_assert_int_eq(kp_decode_result_take(r, 1, &taken, NULL), KP_OK);
	ck_assert_ptr_nonnull(taken);
	ck_assert_ptr_null(kp_decode_result_at(r, 1)->object);
	kp_error err = KP_ERROR_INIT;
	void *again = (void *)1;
	ck_assert_int_eq(kp_decode_result_take(r, 1, &again, &err), KP_ENOTFOUND);
	ck_assert_ptr_null(again);
	ck_assert_int_eq(kp_decode_result_take(r, 0, &again, NULL), KP_ENOTFOUND);
	ck_assert_int_eq(kp_decode_result_take(r, 9, &again, NULL), KP_EINVAL);
	ck_assert_ptr_null(kp_decode_result_at(r, 9));
	kp_decode_result_free(r);
	ck_assert_str_eq(((kp_pod *)taken)->spec->containers[0]->image, "busybox");
	kp_pod_free(taken);
	free(text);

	/* A JSON stream of two values is two documents. */
	r = decode_str("{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"a\"}}\n"
		       "{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"b\"}}");
	ck_assert_uint_eq(kp_decode_result_count(r), 2);
	ck_assert_str_eq(kp_decode_result_at(r, 1)->name, "b");
	ck_assert_uint_eq(kp_decode_result_at(r, 1)->document, 1);
	kp_decode_result_free(r);

	/* Empty input and comment-only input give empty results. */
	r = decode_str("");
	ck_assert_uint_eq(kp_decode_result_count(r), 0);
	kp_decode_result_free(r);
	r = decode_str("# nothing\n---\n---\n");
	ck_assert_uint_eq(kp_decode_result_count(r), 0);
	kp_decode_result_free(r);
}
END_TEST

#define POD_JSON(name) "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"" name "\"}}"

/* The name of object i, "-" for a non-list object. */
static void assert_list_items(kp_decode_result *r, size_t n, const char *const *names,
			      size_t document)
{
	ck_assert_uint_eq(kp_decode_result_count(r), n);
	for (size_t i = 0; i < n; i++) {
		const kp_decoded_object *o = kp_decode_result_at(r, i);
		ck_assert_str_eq(o->name, names[i]);
		ck_assert_uint_eq(o->in_list, 1);
		ck_assert_uint_eq(o->item, i);
		ck_assert_uint_eq(o->document, document);
	}
}

/*
 * A JSON List is decoded item by item as it is parsed (kp_decode holds one
 * item's tree at a time); what it reads must be what the whole tree says,
 * whatever the order of its members, and errors must be the same.
 */
START_TEST(json_lists_stream_as_the_tree_reads_them)
{
	static const char *const ab[] = { "a", "b" };
	/* kubectl's order: "items" before "kind" */
	kp_decode_result *r = decode_str("{\"apiVersion\":\"v1\",\"items\":[" POD_JSON("a") ","
					 POD_JSON("b") "],\"kind\":\"List\",\"metadata\":{}}");
	assert_list_items(r, 2, ab, 0);
	ck_assert_uint_eq(kp_decode_result_at(r, 1)->kind, KP_KIND_POD);
	kp_decode_result_free(r);
	/* a second value is the next document */
	r = decode_str("{\"kind\":\"PodList\",\"apiVersion\":\"v1\",\"items\":[]}\n"
		       "{\"kind\":\"List\",\"apiVersion\":\"v1\",\"items\":[" POD_JSON("a") ","
		       POD_JSON("b") "]}");
	assert_list_items(r, 2, ab, 1);
	kp_decode_result_free(r);
	/* an escaped kind is still a List (read through the tree) */
	r = decode_str("{\"kind\":\"Li\\u0073t\",\"apiVersion\":\"v1\",\"items\":[" POD_JSON("a") ","
		       POD_JSON("b") "]}");
	assert_list_items(r, 2, ab, 0);
	kp_decode_result_free(r);
	/* with "items" twice the last one counts, as in the tree */
	static const char *const b[] = { "b" };
	r = decode_str("{\"kind\":\"List\",\"apiVersion\":\"v1\",\"items\":[" POD_JSON("a")
		       "],\"items\":[" POD_JSON("b") "]}");
	assert_list_items(r, 1, b, 0);
	kp_decode_result_free(r);
	/* a List inside an item */
	r = decode_str("{\"kind\":\"List\",\"apiVersion\":\"v1\",\"items\":[{\"kind\":\"List\","
		       "\"apiVersion\":\"v1\",\"items\":[" POD_JSON("a") "," POD_JSON("b") "]}]}");
	assert_list_items(r, 2, ab, 0);
	kp_decode_result_free(r);
	/* "items" in an object that is not a List is just a field */
	r = decode_str("{\"kind\":\"Thing\",\"apiVersion\":\"example.com/v1\",\"items\":[1,2],"
		       "\"metadata\":{\"name\":\"t\"}}");
	ck_assert_uint_eq(kp_decode_result_count(r), 1);
	ck_assert_str_eq(kp_decode_result_at(r, 0)->kind_name, "Thing");
	ck_assert_str_eq(kp_decode_result_at(r, 0)->name, "t");
	ck_assert_uint_eq(kp_decode_result_at(r, 0)->in_list, 0);
	kp_decode_result_free(r);

	kp_error err = KP_ERROR_INIT;
	/* an item's error names the item */
	ck_assert_int_eq(decode_err("{\"apiVersion\":\"v1\",\"items\":[" POD_JSON("a") ",3],"
				    "\"kind\":\"List\"}", 0, &err),
			 KP_EINVAL);
	ck_assert_str_eq(err.message, "document 1: items[1]: expected an object, got number");
	/* a syntax error anywhere wins over an item's error, as when the
	 * whole stream is parsed before anything is decoded */
	err = (kp_error)KP_ERROR_INIT;
	ck_assert_int_eq(decode_err("{\"apiVersion\":\"v1\",\"items\":[3," POD_JSON("a") "],"
				    "\"kind\":\"List\"}\n{\"kind\": tru}", 0, &err),
			 KP_EPARSE);
	ck_assert_str_eq(err.message, "line 2: invalid character 't' in literal");
	err = (kp_error)KP_ERROR_INIT;
	ck_assert_int_eq(decode_err("{\"apiVersion\":\"v1\",\"items\":[3,{\"a\":", 0, &err),
			 KP_EPARSE);
	ck_assert_str_eq(err.message,
			 "line 1: unexpected end of JSON input (looking for beginning of value)");
	/* and so in a YAML stream decoded document by document */
	err = (kp_error)KP_ERROR_INIT;
	ck_assert_int_eq(decode_err("apiVersion: v1\nkind: Pod\nspec: {containers: {name: c}}\n"
				    "---\napiVersion: v1\nkind: Pod\n---\n[unclosed\n",
				    0, &err),
			 KP_EPARSE);
	ck_assert_ptr_nonnull(strstr(err.message, "document 3: line 9, column 1: "));
	/* without one, the first decode error is the one reported */
	err = (kp_error)KP_ERROR_INIT;
	ck_assert_int_eq(decode_err("apiVersion: v1\nkind: Pod\nspec: {containers: {name: c}}\n"
				    "---\napiVersion: v1\nkind: Pod\nspec: {containers: 3}\n",
				    0, &err),
			 KP_EINVAL);
	ck_assert_str_eq(err.message, "document 1: spec.containers: expected array, got object");
}
END_TEST

/*
 * A YAML document's top-level "items" sequence is decoded element by
 * element while it is parsed, before the document's end tells whether it
 * is a List (kubectl writes "items" before "kind"): what kp_decode returns
 * must be what the whole tree says either way.
 */
START_TEST(yaml_lists_stream_as_the_tree_reads_them)
{
	static const char *const ab[] = { "a", "b" };
	static const char *const aa[] = { "a", "a" };
	static const char *const b[] = { "b" };
#define POD_YAML(name) "- {apiVersion: v1, kind: Pod, metadata: {name: " name "}}\n"
	kp_decode_result *r = decode_str("apiVersion: v1\nitems:\n" POD_YAML("a") POD_YAML("b")
					 "kind: List\nmetadata: {}\n");
	assert_list_items(r, 2, ab, 0);
	kp_decode_result_free(r);
	/* after another document, and in flow style */
	r = decode_str("---\n---\n{apiVersion: v1, items: [{apiVersion: v1, kind: Pod, metadata: "
		       "{name: a}}, {apiVersion: v1, kind: Pod, metadata: {name: b}}], kind: PodList}\n");
	assert_list_items(r, 2, ab, 1);
	kp_decode_result_free(r);
	/* an anchor in one item and an alias to it in the next (and later) */
	r = decode_str("apiVersion: v1\nitems:\n- &p {apiVersion: v1, kind: Pod, metadata: {name: a}}\n"
		       "- *p\nkind: List\nmetadata: {labels: *p}\n");
	assert_list_items(r, 2, aa, 0);
	kp_decode_result_free(r);
	/* the last "items" counts */
	r = decode_str("apiVersion: v1\nitems:\n" POD_YAML("a") "kind: List\nitems:\n" POD_YAML("b"));
	assert_list_items(r, 1, b, 0);
	kp_decode_result_free(r);
	/* not a List: the items were never objects to read */
	r = decode_str("apiVersion: example.com/v1\nitems: [3, {kind: 4}]\nkind: Thing\n"
		       "metadata: {name: t}\n");
	ck_assert_uint_eq(kp_decode_result_count(r), 1);
	ck_assert_str_eq(kp_decode_result_at(r, 0)->kind_name, "Thing");
	ck_assert_uint_eq(kp_decode_result_at(r, 0)->in_list, 0);
	kp_decode_result_free(r);
	/* "items" turned into a mapping by a later key: not a List */
	r = decode_str("apiVersion: v1\nitems:\n" POD_YAML("a") "kind: List\nitems: {}\n");
	ck_assert_uint_eq(kp_decode_result_count(r), 1);
	ck_assert_str_eq(kp_decode_result_at(r, 0)->kind_name, "List");
	ck_assert_uint_eq(kp_decode_result_at(r, 0)->in_list, 0);
	kp_decode_result_free(r);
	/* lenient warnings of items that do not count are gone with them */
	r = decode_ok("apiVersion: v1\nitems:\n- {apiVersion: karpenter.sh/v1, kind: NodePool, "
		      "metadata: {name: n}, spec: {bogus: 1}}\nkind: Thing\n",
		      strlen("apiVersion: v1\nitems:\n- {apiVersion: karpenter.sh/v1, kind: NodePool, "
			     "metadata: {name: n}, spec: {bogus: 1}}\nkind: Thing\n"),
		      KP_DECODE_LENIENT);
	ck_assert_uint_eq(kp_decode_result_count(r), 1);
	ck_assert_uint_eq(kp_decode_result_warning_count(r), 0);
	kp_decode_result_free(r);

	kp_error err = KP_ERROR_INIT;
	/* an item's error counts once the document is known to be a List */
	ck_assert_int_eq(decode_err("apiVersion: v1\nitems:\n" POD_YAML("a") "- 3\n" POD_YAML("b")
				    "kind: List\n", 0, &err),
			 KP_EINVAL);
	ck_assert_str_eq(err.message, "document 1: items[1]: expected an object, got number");
	/* and the List's own kind and apiVersion are checked first */
	err = (kp_error)KP_ERROR_INIT;
	ck_assert_int_eq(decode_err("items:\n- 3\nkind: List\n", 0, &err), KP_EINVAL);
	ck_assert_str_eq(err.message, "document 1: apiVersion not set");
	/* a Karpenter kind reads a top-level "items" as an unknown field */
	err = (kp_error)KP_ERROR_INIT;
	ck_assert_int_eq(decode_err("apiVersion: karpenter.sh/v1\nitems: [1]\nkind: NodePool\n"
				    "metadata: {name: np}\n", 0, &err),
			 KP_EINVAL);
	ck_assert_str_eq(err.message, "NodePool/np: strict decoding error: unknown field \"items\"");
#undef POD_YAML
}
END_TEST

START_TEST(json_and_yaml_equal)
{
	size_t ylen, jlen;
	char *y = read_fixture("nodepool-small.yaml", &ylen);
	char *j = read_fixture("nodepool-small.json", &jlen);
	kp_decode_result *ry = decode_ok(y, ylen, 0);
	kp_decode_result *rj = decode_ok(j, jlen, 0);
	const kp_nodepool *a = only_object(ry, KP_KIND_NODEPOOL);
	const kp_nodepool *b = only_object(rj, KP_KIND_NODEPOOL);
	ck_assert(kp__schema_equal(&kp__type_nodepool, a, b));
	char *ja = NULL, *jb = NULL;
	ck_assert_int_eq(kp_encode(&ja, NULL, KP_KIND_NODEPOOL, a, KP_FORMAT_JSON, 0, NULL), KP_OK);
	ck_assert_int_eq(kp_encode(&jb, NULL, KP_KIND_NODEPOOL, b, KP_FORMAT_JSON, 0, NULL), KP_OK);
	ck_assert_str_eq(ja, jb);
	/* presence: labels {} and taints [] are present and empty */
	ck_assert_ptr_nonnull(a->spec->template_->metadata->labels.items);
	ck_assert_uint_eq(a->spec->template_->metadata->labels.count, 0);
	ck_assert_ptr_nonnull(a->spec->template_->spec->taints);
	ck_assert_uint_eq(a->spec->template_->spec->n_taints, 0);
	ck_assert_ptr_null(a->spec->template_->spec->startup_taints);
	ck_assert_ptr_nonnull(strstr(ja, "\"labels\":{}"));
	ck_assert_ptr_nonnull(strstr(ja, "\"taints\":[]"));
	ck_assert_ptr_null(strstr(ja, "startupTaints"));
	/* numbers as quantities */
	assert_quantity(&a->spec->limits, "cpu", "100");
	assert_quantity(&a->spec->limits, "memory", "512Gi");
	ck_assert_int_eq(a->spec->disruption->consolidate_after.never, 1);
	kp_encoded_free(ja);
	kp_encoded_free(jb);
	kp_decode_result_free(ry);
	kp_decode_result_free(rj);
	free(y);
	free(j);
}
END_TEST

START_TEST(encode_exact_text)
{
	kp_decode_result *r = decode_str(
		"apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata:\n  name: np\n"
		"spec:\n  weight: 5\n  template:\n    spec:\n      nodeClassRef: {name: d, kind: K, group: g}\n"
		"      requirements:\n      - {key: k, operator: In, values: [\"true\", \"a b\", \"1.5\"]}\n");
	const kp_nodepool *np = only_object(r, KP_KIND_NODEPOOL);
	char *json = NULL, *yaml = NULL;
	ck_assert_int_eq(kp_encode(&json, NULL, KP_KIND_NODEPOOL, np, KP_FORMAT_JSON, 0, NULL), KP_OK);
	ck_assert_str_eq(json,
			 "{\"apiVersion\":\"karpenter.sh/v1\",\"kind\":\"NodePool\",\"metadata\":{\"name\":\"np\"},"
			 "\"spec\":{\"template\":{\"spec\":{\"requirements\":[{\"key\":\"k\",\"operator\":\"In\","
			 "\"values\":[\"true\",\"a b\",\"1.5\"]}],\"nodeClassRef\":{\"kind\":\"K\",\"name\":\"d\","
			 "\"group\":\"g\"}}},\"weight\":5}}");
	ck_assert_int_eq(kp_encode(&yaml, NULL, KP_KIND_NODEPOOL, np, KP_FORMAT_YAML, 0, NULL), KP_OK);
	ck_assert_str_eq(yaml, "apiVersion: karpenter.sh/v1\n"
			       "kind: NodePool\n"
			       "metadata:\n"
			       "  name: np\n"
			       "spec:\n"
			       "  template:\n"
			       "    spec:\n"
			       "      requirements:\n"
			       "      - key: k\n"
			       "        operator: In\n"
			       "        values:\n"
			       "        - \"true\"\n"
			       "        - a b\n"
			       "        - \"1.5\"\n"
			       "      nodeClassRef:\n"
			       "        kind: K\n"
			       "        name: d\n"
			       "        group: g\n"
			       "  weight: 5\n");
	kp_encoded_free(json);
	kp_encoded_free(yaml);
	kp_decode_result_free(r);
}
END_TEST

/* ---- kp_encode writes any string so that it reads back ---- */

/* Encode a caller-built Pod whose strings are random (bytes, valid UTF-8
 * with every character YAML escapes, strings a YAML reader would type,
 * long keys) as JSON, pretty JSON and YAML; decoding gives every string
 * back, invalid UTF-8 bytes as U+FFFD (Go's encoding/json rule). */
#define RT_LABELS 5
START_TEST(encode_random_strings_read_back)
{
	kp_ts_rng rng = { 0x9E3779B97F4A7C15ull };
	for (int iter = 0; iter < 150; iter++) {
		char *own[64];
		size_t n_own = 0;
#define RND() (own[n_own++] = kp_ts_random_string(&rng))
		kp_label labels[RT_LABELS], annotations[RT_LABELS];
		char *want_lk[RT_LABELS], *want_ak[RT_LABELS];
		size_t nl = 0, na = 0;
		for (int k = 0; k < RT_LABELS; k++) {
			/* keys must stay distinct once sanitized */
			char *key = RND(), *want = kp_ts_sanitize(key);
			int dup = 0;
			for (size_t j = 0; j < nl; j++)
				dup |= strcmp(want_lk[j], want) == 0;
			if (dup) {
				free(want);
			} else {
				labels[nl].key = key;
				labels[nl].value = RND();
				want_lk[nl++] = want;
			}
			key = RND();
			want = kp_ts_sanitize(key);
			dup = 0;
			for (size_t j = 0; j < na; j++)
				dup |= strcmp(want_ak[j], want) == 0;
			if (dup) {
				free(want);
			} else {
				annotations[na].key = key;
				annotations[na].value = RND();
				want_ak[na++] = want;
			}
		}
		const char *fin[3] = { RND(), RND(), RND() };
		kp_object_meta meta = KP_OBJECT_META_INIT;
		meta.name = RND();
		meta.namespace_ = RND();
		meta.generate_name = RND();
		meta.uid = RND();
		meta.labels.items = labels;
		meta.labels.count = nl;
		meta.annotations.items = annotations;
		meta.annotations.count = na;
		meta.finalizers = fin;
		meta.n_finalizers = 3;
		kp_pod pod = KP_POD_INIT;
		pod.metadata = &meta;
#undef RND
		const uint32_t formats[] = { KP_FORMAT_JSON, KP_FORMAT_JSON, KP_FORMAT_YAML };
		const uint32_t flags[] = { 0, KP_ENCODE_PRETTY, 0 };
		for (int f = 0; f < 3; f++) {
			char *text = NULL;
			size_t len = 0;
			kp_error err = KP_ERROR_INIT;
			ck_assert_int_eq(kp_encode(&text, &len, KP_KIND_POD, &pod, formats[f], flags[f], &err),
					 KP_OK);
			kp_decode_options o = KP_DECODE_OPTIONS_INIT;
			o.format = formats[f];
			kp_decode_result *r = NULL;
			int rc = kp_decode(&r, text, len, &o, &err);
			ck_assert_msg(rc == KP_OK, "iteration %d format %d: %s\n%s", iter, f, err.message, text);
			const kp_pod *back = only_object(r, KP_KIND_POD);
			const kp_object_meta *m = back->metadata;
			ck_assert_ptr_nonnull(m);
			const char *const sent[] = { meta.name, meta.namespace_, meta.generate_name, meta.uid,
						     fin[0], fin[1], fin[2] };
			const char *const got[] = { m->name, m->namespace_, m->generate_name, m->uid,
						    m->n_finalizers > 0 ? m->finalizers[0] : NULL,
						    m->n_finalizers > 1 ? m->finalizers[1] : NULL,
						    m->n_finalizers > 2 ? m->finalizers[2] : NULL };
			for (size_t k = 0; k < sizeof(sent) / sizeof(sent[0]); k++) {
				char *want = kp_ts_sanitize(sent[k]);
				ck_assert_msg(got[k] && strcmp(got[k], want) == 0,
					      "iteration %d format %d string %zu differs:\n%s", iter, f, k, text);
				free(want);
			}
			ck_assert_uint_eq(m->labels.count, nl);
			ck_assert_uint_eq(m->annotations.count, na);
			for (size_t k = 0; k < nl; k++) {
				const kp_label *l = label(&m->labels, want_lk[k]);
				ck_assert_msg(l != NULL, "iteration %d format %d: label key %zu lost:\n%s", iter, f,
					      k, text);
				char *want = kp_ts_sanitize(labels[k].value);
				ck_assert_str_eq(l->value, want);
				free(want);
			}
			for (size_t k = 0; k < na; k++) {
				const kp_label *l = label(&m->annotations, want_ak[k]);
				ck_assert_msg(l != NULL, "iteration %d format %d: annotation key %zu lost:\n%s", iter,
					      f, k, text);
				char *want = kp_ts_sanitize(annotations[k].value);
				ck_assert_str_eq(l->value, want);
				free(want);
			}
			kp_decode_result_free(r);
			kp_encoded_free(text);
		}
		for (size_t k = 0; k < nl; k++)
			free(want_lk[k]);
		for (size_t k = 0; k < na; k++)
			free(want_ak[k]);
		for (size_t k = 0; k < n_own; k++)
			free(own[k]);
	}
}
END_TEST

/* The exact text for the characters the issue named, and a key too long for
 * a YAML simple key. */
START_TEST(encode_escapes_exact_text)
{
	char long_key[1201];
	memset(long_key, 'k', sizeof(long_key) - 1);
	long_key[sizeof(long_key) - 1] = '\0';
	kp_label lbl[] = { { "a", "\x7f" }, { "b", "\xc2\x85x" }, { "c", "\xc2\x80\xc2\x9f" },
			   { "d", "\xe2\x80\xa8\xe2\x80\xa9" }, { "e", "\xef\xbb\xbf\xef\xbf\xbe\xef\xbf\xbf" },
			   { "f", "x\xffy\xe2\x80" }, { long_key, "v" } };
	kp_object_meta meta = KP_OBJECT_META_INIT;
	meta.name = "p";
	meta.labels.items = lbl;
	meta.labels.count = sizeof(lbl) / sizeof(lbl[0]);
	kp_pod pod = KP_POD_INIT;
	pod.metadata = &meta;
	char *json = NULL, *yaml = NULL;
	ck_assert_int_eq(kp_encode(&json, NULL, KP_KIND_POD, &pod, KP_FORMAT_JSON, 0, NULL), KP_OK);
	ck_assert_int_eq(kp_encode(&yaml, NULL, KP_KIND_POD, &pod, KP_FORMAT_YAML, 0, NULL), KP_OK);
	char *want = malloc(4096);
	snprintf(want, 4096,
		 "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\",\"labels\":{"
		 "\"a\":\"\x7f\",\"b\":\"\xc2\x85x\",\"c\":\"\xc2\x80\xc2\x9f\",\"d\":\"\\u2028\\u2029\","
		 "\"e\":\"\xef\xbb\xbf\xef\xbf\xbe\xef\xbf\xbf\",\"f\":\"x\\ufffdy\\ufffd\\ufffd\","
		 "\"%s\":\"v\"}}}", long_key);
	ck_assert_str_eq(json, want);
	snprintf(want, 4096,
		 "apiVersion: v1\n"
		 "kind: Pod\n"
		 "metadata:\n"
		 "  name: p\n"
		 "  labels:\n"
		 "    a: \"\\u007f\"\n"
		 "    b: \"\\u0085x\"\n"
		 "    c: \"\\u0080\\u009f\"\n"
		 "    d: \"\\u2028\\u2029\"\n"
		 "    e: \"\\ufeff\\ufffe\\uffff\"\n"
		 "    f: \"x\\ufffdy\\ufffd\\ufffd\"\n"
		 "    ? %s\n"
		 "    : v\n", long_key);
	ck_assert_str_eq(yaml, want);
	free(want);
	kp_encoded_free(json);
	kp_encoded_free(yaml);
}
END_TEST

/* ---- unknown fields, type errors, duplicates ---- */

static const char unknown_doc[] =
	"apiVersion: karpenter.sh/v1\n"
	"kind: NodePool\n"
	"metadata:\n"
	"  name: default\n"
	"spec:\n"
	"  template:\n"
	"    spec:\n"
	"      requirement:\n"
	"      - key: a\n"
	"        operator: Exists\n"
	"      nodeClassRef: {group: g, kind: K, name: nc, color: red}\n";

START_TEST(strict_unknown_fields)
{
	kp_error err = KP_ERROR_INIT;
	ck_assert_int_eq(decode_err(unknown_doc, 0, &err), KP_EINVAL);
	ck_assert_str_eq(err.field, "spec.template.spec.requirement");
	ck_assert_str_eq(err.message, "NodePool/default: strict decoding error: unknown field "
				      "\"spec.template.spec.requirement\", unknown field "
				      "\"spec.template.spec.nodeClassRef.color\"");
	/* metadata is checked too, and so are NodeClaims and KWOKNodeClasses */
	ck_assert_int_eq(decode_err("apiVersion: karpenter.sh/v1\nkind: NodeClaim\nmetadata:\n"
				    "  name: x\n  lables: {a: b}\n",
				    0, &err),
			 KP_EINVAL);
	ck_assert_str_eq(err.message,
			 "NodeClaim/x: strict decoding error: unknown field \"metadata.lables\"");
	ck_assert_int_eq(decode_err("apiVersion: karpenter.kwok.sh/v1alpha1\nkind: KWOKNodeClass\n"
				    "spec: {delay: 1s}\n",
				    0, &err),
			 KP_EINVAL);
	ck_assert_str_eq(err.message,
			 "document 1: strict decoding error: unknown field \"spec.delay\"");
	/* template metadata only has labels and annotations */
	ck_assert_int_eq(decode_err("apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: p}\n"
				    "spec: {template: {metadata: {name: x}}}\n",
				    0, &err),
			 KP_EINVAL);
	ck_assert_str_eq(err.field, "spec.template.metadata.name");
	/* managedFields and selfLink are known ObjectMeta fields */
	kp_decode_result *r = decode_str("apiVersion: karpenter.sh/v1\nkind: NodePool\n"
					 "metadata: {name: p, managedFields: [{manager: x}], selfLink: /x}\n");
	kp_decode_result_free(r);
}
END_TEST

START_TEST(lenient_unknown_fields)
{
	kp_decode_result *r = decode_ok(unknown_doc, strlen(unknown_doc), KP_DECODE_LENIENT);
	ck_assert_uint_eq(kp_decode_result_warning_count(r), 2);
	ck_assert_str_eq(kp_decode_result_warning_at(r, 0),
			 "NodePool/default: unknown field \"spec.template.spec.requirement\"");
	ck_assert_str_eq(kp_decode_result_warning_at(r, 1),
			 "NodePool/default: unknown field \"spec.template.spec.nodeClassRef.color\"");
	ck_assert_ptr_null(kp_decode_result_warning_at(r, 2));
	const kp_nodepool *np = only_object(r, KP_KIND_NODEPOOL);
	ck_assert_ptr_null(np->spec->template_->spec->requirements);
	ck_assert_str_eq(np->spec->template_->spec->node_class_ref->name, "nc");
	kp_decode_result_free(r);
}
END_TEST

START_TEST(core_kinds_ignore_unknown_fields)
{
	kp_decode_result *r = decode_str("apiVersion: v1\nkind: Pod\nmetadata: {name: p, foo: 1}\n"
					 "spec:\n  dnsPolicy: ClusterFirst\n  containers:\n"
					 "  - {name: c, env: [{name: A, value: b}]}\n");
	ck_assert_uint_eq(kp_decode_result_warning_count(r), 0);
	const kp_pod *p = only_object(r, KP_KIND_POD);
	ck_assert_str_eq(p->spec->containers[0]->name, "c");
	kp_decode_result_free(r);
}
END_TEST

static const struct {
	const char *doc;
	int rc;
	const char *field;
	const char *message;
} type_errors[] = {
	{ "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: default}\nspec: {weight: \"10\"}\n",
	  KP_EINVAL, "spec.weight", "NodePool/default: spec.weight: "
	  "Invalid value: \"string\": spec.weight in body must be of type integer: \"string\"" },
	{ "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: default}\nspec: {weight: 1.5}\n",
	  KP_EINVAL, "spec.weight", "NodePool/default: spec.weight: "
	  "Invalid value: \"number\": spec.weight in body must be of type integer: \"number\"" },
	{ "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: d}\nspec: {weight: 3000000000}\n",
	  KP_ERANGE, "spec.weight",
	  "NodePool/d: spec.weight: number 3000000000 is out of range (-2147483648 to 2147483647)" },
	{ "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: d}\n"
	  "spec: {template: {spec: {taints: [{key: k, value: true, effect: NoSchedule}]}}}\n",
	  KP_EINVAL, "spec.template.spec.taints[0].value",
	  "NodePool/d: spec.template.spec.taints[0].value: "
	  "Invalid value: \"boolean\": spec.template.spec.taints[0].value in body must be of type string: \"boolean\"" },
	{ "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: d}\n"
	  "spec: {template: {spec: {taints: [{key: k, effect: Sometimes}]}}}\n",
	  KP_EINVAL, "spec.template.spec.taints[0].effect",
	  "NodePool/d: spec.template.spec.taints[0].effect: Unsupported value: \"Sometimes\": supported "
	  "values: \"NoSchedule\", \"PreferNoSchedule\", \"NoExecute\"" },
	{ "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: d}\nspec: {template: []}\n",
	  KP_EINVAL, "spec.template", "NodePool/d: spec.template: "
	  "Invalid value: \"array\": spec.template in body must be of type object: \"array\"" },
	{ "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: d}\nspec: {limits: {cpu: lots}}\n",
	  KP_EPARSE, "spec.limits[cpu]",
	  "NodePool/d: spec.limits[cpu]: Invalid value: \"lots\": spec.limits.cpu in body should match "
	  "'^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|"
	  "(\\.[0-9]+))))?$'" },
	{ "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: d}\n"
	  "spec: {template: {metadata: {labels: {enabled: yes}}}}\n",
	  KP_EINVAL, "spec.template.metadata.labels[enabled]",
	  "NodePool/d: spec.template.metadata.labels[enabled]: "
	  "Invalid value: \"boolean\": spec.template.metadata.labels.enabled in body must be of type string: \"boolean\"" },
	{ "apiVersion: v1\nkind: Pod\nmetadata: {name: p, creationTimestamp: yesterday}\n",
	  KP_EPARSE, "metadata.creationTimestamp",
	  "Pod/p: metadata.creationTimestamp: invalid time \"yesterday\": expected RFC 3339, e.g. "
	  "\"2024-01-01T00:00:00Z\"" },
	{ "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {tolerations: [{operator: Maybe}]}\n",
	  KP_EINVAL, "spec.tolerations[0].operator",
	  "Pod/p: spec.tolerations[0].operator: Unsupported value: \"Maybe\": supported values: "
	  "\"Equal\", \"Exists\", \"Lt\", \"Gt\"" },
	{ "apiVersion: v1\nkind: Pod\nspec: {containers: {name: c}}\n", KP_EINVAL, "spec.containers",
	  "document 1: spec.containers: expected array, got object" },
	{ "apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: b}\n"
	  "spec: {minAvailable: [1]}\n",
	  KP_EINVAL, "spec.minAvailable",
	  "PodDisruptionBudget/b: spec.minAvailable: expected integer or string, got array" },
	{ "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: d}\n"
	  "spec: {template: {spec: {expireAfter: 5}}}\n",
	  KP_EINVAL, "spec.template.spec.expireAfter",
	  "NodePool/d: spec.template.spec.expireAfter: "
	  "Invalid value: \"integer\": spec.template.spec.expireAfter in body must be of type string: \"integer\"" },
	{ "kind: NodePool\nmetadata: {name: d}\n", KP_EINVAL, "apiVersion",
	  "document 1: apiVersion not set" },
	{ "apiVersion: v1\n", KP_EINVAL, "kind", "document 1: kind not set" },
	{ "---\n- a\n- b\n", KP_EINVAL, "", "document 1: expected an object, got array" },
	{ "apiVersion: v1\nkind: List\nitems: [{apiVersion: v1, kind: Pod}, 3]\n", KP_EINVAL, "",
	  "document 1: items[1]: expected an object, got number" },
	{ "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: d}\nspec: {weight: 1, weight: 2}\n",
	  KP_EINVAL, "spec.weight", "NodePool/d: duplicate field \"spec.weight\"" },
	{ "apiVersion: v1\nkind: Node\nmetadata: {name: node1, labels: {a: x, a: y}}\n", KP_EINVAL,
	  "metadata.labels[a]", "Node/node1: duplicate field \"metadata.labels[a]\"" },
};

START_TEST(type_error_paths)
{
	kp_error err = KP_ERROR_INIT;
	int rc = decode_err(type_errors[_i].doc, 0, &err);
	ck_assert_int_eq(rc, type_errors[_i].rc);
	ck_assert_int_eq(err.code, type_errors[_i].rc);
	ck_assert_str_eq(err.field, type_errors[_i].field);
	ck_assert_str_eq(err.message, type_errors[_i].message);
}
END_TEST

START_TEST(lenient_warnings_are_capped)
{
	kp__buf b = { 0 };
	kp__buf_puts(&b, "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: d}\nspec:\n");
	for (int i = 0; i < 1500; i++)
		kp__buf_printf(&b, "  extra%d: 1\n", i);
	kp_decode_result *r = decode_ok(b.data, b.len, KP_DECODE_LENIENT);
	ck_assert_uint_eq(kp_decode_result_warning_count(r), KP_DECODE_MAX_WARNINGS);
	ck_assert_str_eq(kp_decode_result_warning_at(r, 0), "NodePool/d: unknown field \"spec.extra0\"");
	ck_assert_str_eq(kp_decode_result_warning_at(r, KP_DECODE_MAX_WARNINGS - 1),
			 "501 more warnings not shown");
	kp_decode_result_free(r);
	/* strict: the message is cut, the first field is named */
	kp_error err = KP_ERROR_INIT;
	ck_assert_int_eq(decode_err(b.data, 0, &err), KP_EINVAL);
	ck_assert_str_eq(err.field, "spec.extra0");
	ck_assert_uint_eq(strlen(err.message), KP_ERROR_MESSAGE_MAX - 1);
	kp__buf_dispose(&b);
}
END_TEST

START_TEST(lenient_duplicates_last_wins)
{
	const char *doc = "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: d}\n"
			  "spec: {weight: 1, limits: {cpu: 1, cpu: 2}, weight: 2}\n";
	kp_decode_result *r = decode_ok(doc, strlen(doc), KP_DECODE_LENIENT);
	ck_assert_uint_eq(kp_decode_result_warning_count(r), 2);
	ck_assert_str_eq(kp_decode_result_warning_at(r, 0), "NodePool/d: duplicate field \"spec.weight\"");
	ck_assert_str_eq(kp_decode_result_warning_at(r, 1),
			 "NodePool/d: duplicate field \"spec.limits[cpu]\"");
	const kp_nodepool *np = only_object(r, KP_KIND_NODEPOOL);
	ck_assert_int_eq(np->spec->weight, 2);
	ck_assert_uint_eq(np->spec->limits.count, 1);
	assert_quantity(&np->spec->limits, "cpu", "2");
	kp_decode_result_free(r);
}
END_TEST

START_TEST(unsupported_values_survive)
{
	/* Enum strings of the object model are kept as written for validation. */
	kp_decode_result *r = decode_str(
		"apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: d}\n"
		"spec:\n  disruption: {consolidationPolicy: Sometimes, consolidateAfter: 30d}\n"
		"  template:\n    spec:\n      requirements: [{key: k, operator: Near, minValues: 0}]\n"
		"      terminationGracePeriod: Never\n");
	const kp_nodepool *np = only_object(r, KP_KIND_NODEPOOL);
	ck_assert_str_eq(np->spec->disruption->consolidation_policy, "Sometimes");
	ck_assert_uint_eq(np->spec->disruption->consolidation_policy_code, 0);
	ck_assert_str_eq(np->spec->disruption->consolidate_after.text, "30d");
	ck_assert_uint_eq(np->spec->disruption->consolidate_after.parsed, 0);
	const kp_nodeclaim_requirement *q = np->spec->template_->spec->requirements[0];
	ck_assert_str_eq(q->operator_name, "Near");
	ck_assert_uint_eq(q->op, 0);
	ck_assert_uint_eq(q->has_min_values, 1);
	ck_assert_int_eq(q->min_values, 0);
	/* Never is only a NillableDuration value */
	ck_assert_uint_eq(np->spec->template_->spec->termination_grace_period.parsed, 0);
	kp_node_selector_requirement view = KP_NODE_SELECTOR_REQUIREMENT_INIT;
	kp_error err = KP_ERROR_INIT;
	ck_assert_int_eq(kp_nodeclaim_requirement_view(q, &view, &err), KP_EINVAL);
	ck_assert_str_eq(err.field, "operator");
	ck_assert_str_eq(err.message, "Unsupported value: \"Near\": supported values: \"In\", \"NotIn\", "
				      "\"Exists\", \"DoesNotExist\", \"Gt\", \"Lt\", \"Gte\", \"Lte\"");
	kp_encoded_free(check_round_trip(KP_KIND_NODEPOOL, np, "unsupported values"));
	kp_decode_result_free(r);
}
END_TEST

/* ---- YAML typing ---- */

START_TEST(yaml_scalar_typing)
{
	/* Plain scalars take JSON types as sigs.k8s.io/yaml gives them; quoted
	 * ones stay strings. Checked through annotations (strings only). */
	static const struct {
		const char *yaml;
		const char *got; /* NULL: accepted string value, else the type error */
		const char *value;
	} cases[] = {
		{ "'true'", NULL, "true" },   { "\"yes\"", NULL, "yes" }, { "true", "boolean", NULL },
		{ "yes", "boolean", NULL },   { "On", "boolean", NULL },  { "n", "boolean", NULL },
		{ "NO", "boolean", NULL },    { "123", "number", NULL },  { "0x1F", "number", NULL },
		{ "1_000", "number", NULL },  { "1e3", "number", NULL },  { ".5", "number", NULL },
		{ "-1.5", "number", NULL },   { "2024-01-01", NULL, "2024-01-01" },
		{ "1.2.3", NULL, "1.2.3" },   { "0x", NULL, "0x" },        { "!!str 12", NULL, "12" },
		{ "|-\n      two\n      lines", NULL, "two\nlines" },            { "nope", NULL, "nope" },
		{ "'it''s'", NULL, "it's" },  { "\"a\\tb\"", NULL, "a\tb" }, { "v1.2", NULL, "v1.2" },
		{ "+", NULL, "+" },           { "~", "null-skip", NULL },   { "Yes please", NULL, "Yes please" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char doc[256];
		snprintf(doc, sizeof(doc),
			 "apiVersion: v1\nkind: Node\nmetadata:\n  name: node1\n  annotations:\n    k: %s\n",
			 cases[i].yaml);
		kp_decode_options o = KP_DECODE_OPTIONS_INIT;
		kp_decode_result *r = NULL;
		kp_error err = KP_ERROR_INIT;
		int rc = kp_decode(&r, doc, strlen(doc), &o, &err);
		if (cases[i].value || (cases[i].got && strcmp(cases[i].got, "null-skip") == 0)) {
			ck_assert_msg(rc == KP_OK, "%s: %s", cases[i].yaml, err.message);
			const kp_node *n = only_object(r, KP_KIND_NODE);
			const char *v = n->metadata->annotations.items[0].value;
			ck_assert_str_eq(v, cases[i].value ? cases[i].value : "");
			kp_decode_result_free(r);
		} else {
			ck_assert_msg(rc == KP_EINVAL, "%s: rc %d", cases[i].yaml, rc);
			char want[128];
			snprintf(want, sizeof(want), "Node/node1: metadata.annotations[k]: expected string, got %s",
				 cases[i].got);
			ck_assert_str_eq(err.message, want);
		}
	}
}
END_TEST

START_TEST(yaml_numbers_as_go_json)
{
	/* Integers in any YAML 1.1 base, floats as Go's encoding/json writes them. */
	static const struct {
		const char *yaml, *canonical;
	} cases[] = {
		{ "0x10", "16" },   { "010", "8" },  { "0o17", "15" },     { "0b101", "5" },
		{ "1_000", "1k" },  { "1.0", "1" },  { "1e3", "1k" },      { "2.5", "2500m" },
		{ "+7", "7" },      { "-0", "0" },   { "0.000001", "1u" }, { "1e21", "1e21" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char doc[256];
		snprintf(doc, sizeof(doc), "apiVersion: v1\nkind: Node\nstatus: {capacity: {x: %s}}\n",
			 cases[i].yaml);
		kp_decode_result *r = decode_str(doc);
		const kp_node *n = only_object(r, KP_KIND_NODE);
		assert_quantity(&n->status->capacity, "x", cases[i].canonical);
		kp_decode_result_free(r);
	}
	kp_error err = KP_ERROR_INIT;
	ck_assert_int_eq(decode_err("apiVersion: v1\nkind: Node\nstatus: {capacity: {x: .inf}}\n", 0, &err),
			 KP_EPARSE);
	ck_assert_str_eq(err.message, "document 1: line 3: json: unsupported value: .inf");
	/* int64 values keep every digit */
	kp_decode_result *r = decode_str("apiVersion: v1\nkind: Node\nmetadata: {generation: 9007199254740993}\n");
	ck_assert_int_eq(((const kp_node *)only_object(r, KP_KIND_NODE))->metadata->generation,
			 9007199254740993LL);
	kp_decode_result_free(r);
	r = decode_str("{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"generation\":-9223372036854775808}}");
	ck_assert_int_eq(((const kp_node *)only_object(r, KP_KIND_NODE))->metadata->generation, INT64_MIN);
	kp_decode_result_free(r);
}
END_TEST

START_TEST(yaml_anchors_and_merge_keys)
{
	kp_decode_result *r = decode_str(
		"apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  labels: &l {app: web, tier: fe}\n"
		"  annotations:\n    <<: *l\n    tier: be\n"
		"spec:\n  containers:\n  - &c {name: a, image: i}\n  - *c\n");
	const kp_pod *p = only_object(r, KP_KIND_POD);
	ck_assert_uint_eq(p->metadata->labels.count, 2);
	ck_assert_uint_eq(p->metadata->annotations.count, 2);
	ck_assert_str_eq(label(&p->metadata->annotations, "tier")->value, "be");
	ck_assert_str_eq(label(&p->metadata->annotations, "app")->value, "web");
	ck_assert_uint_eq(p->spec->n_containers, 2);
	ck_assert_str_eq(p->spec->containers[1]->name, "a");
	kp_decode_result_free(r);

	/* an anchored key, then aliased as a value */
	r = decode_str("apiVersion: v1\nkind: Node\nmetadata:\n  labels:\n    &k zone: a\n    other: *k\n");
	const kp_node *n = only_object(r, KP_KIND_NODE);
	ck_assert_str_eq(label(&n->metadata->labels, "other")->value, "zone");
	kp_decode_result_free(r);

	/* of several merged maps the earlier wins; written keys win over all */
	r = decode_str("apiVersion: v1\nkind: Node\nx: &a {p: a1, q: a2}\ny: &b {p: b1, r: b3}\n"
		       "metadata:\n  labels:\n    <<: [*a, *b]\n    q: own\n");
	n = only_object(r, KP_KIND_NODE);
	ck_assert_uint_eq(n->metadata->labels.count, 3);
	ck_assert_str_eq(label(&n->metadata->labels, "p")->value, "a1");
	ck_assert_str_eq(label(&n->metadata->labels, "q")->value, "own");
	ck_assert_str_eq(label(&n->metadata->labels, "r")->value, "b3");
	kp_decode_result_free(r);

	kp_error err = KP_ERROR_INIT;
	ck_assert_int_eq(decode_err("a: *nope\n", 0, &err), KP_EPARSE);
	ck_assert_ptr_nonnull(strstr(err.message, "nope"));
}
END_TEST

START_TEST(billion_laughs)
{
	const char *doc =
		"a: &a [lol,lol,lol,lol,lol,lol,lol,lol,lol]\n"
		"b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\n"
		"c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\n"
		"d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\n"
		"e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\n"
		"f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]\n"
		"g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]\n"
		"h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]\n"
		"i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]\n";
	kp_error err = KP_ERROR_INIT;
	ck_assert_int_eq(decode_err(doc, 0, &err), KP_ERANGE);
	/* The nodes alive at once are the first limit reached: 200,000 plus
	 * one per 16 bytes read (195 by line 6). */
	ck_assert_str_eq(err.message, "document 1: line 6: the document holds more than 200012 values "
				      "at once after alias expansion (at most 200000 plus one for "
				      "every 16 bytes of it)");
	/* With a lower max_nodes, that one: max_nodes beyond the bytes read
	 * so far (at line 5, 158 bytes into the document). */
	kp_decode_options lo = KP_DECODE_OPTIONS_INIT;
	lo.max_nodes = 10000;
	kp_decode_result *lr = NULL;
	ck_assert_int_eq(kp_decode(&lr, doc, strlen(doc), &lo, &err), KP_ERANGE);
	ck_assert_ptr_null(lr);
	ck_assert_str_eq(err.message, "document 1: line 5: the document has more than 10158 nodes "
				      "after alias expansion (at most 10000 more than its size in "
				      "bytes)");
	/* A long string aliased many times hits the text budget. */
	kp__buf b = { 0 };
	kp__buf_puts(&b, "s: &s \"");
	for (int i = 0; i < 100000; i++)
		kp__buf_puts(&b, "0123456789");
	kp__buf_puts(&b, "\"\nl: [");
	for (int i = 0; i < 2000; i++)
		kp__buf_puts(&b, "*s,");
	kp__buf_puts(&b, "*s]\n");
	kp_decode_options o = KP_DECODE_OPTIONS_INIT;
	o.max_bytes = 4 << 20; /* text budget: 8 MiB */
	kp_decode_result *r = NULL;
	ck_assert_int_eq(kp_decode(&r, b.data, b.len, &o, &err), KP_ERANGE);
	ck_assert_ptr_null(r);
	ck_assert_str_eq(err.message, "document 1: line 2: the input has more than 8388608 bytes of "
				      "string and number text after alias expansion");
	kp__buf_dispose(&b);
}
END_TEST

/* ---- malformed, deep and huge input ---- */

START_TEST(deep_nesting)
{
	size_t n = 10000;
	char *s = malloc(2 * n + 1);
	memset(s, '[', n);
	memset(s + n, ']', n);
	s[2 * n] = '\0';
	const uint32_t formats[] = { KP_FORMAT_JSON, KP_FORMAT_YAML };
	for (int f = 0; f < 2; f++) {
		kp_decode_options o = KP_DECODE_OPTIONS_INIT;
		o.format = formats[f];
		kp_decode_result *r = NULL;
		kp_error err = KP_ERROR_INIT;
		ck_assert_int_eq(kp_decode(&r, s, 2 * n, &o, &err), KP_ERANGE);
		ck_assert_ptr_nonnull(strstr(err.message, "nests deeper than 100 levels"));
	}
	free(s);
	/* block sequences: "- - - - ... x" */
	s = malloc(2 * n + 2);
	for (size_t i = 0; i < n; i++) {
		s[2 * i] = '-';
		s[2 * i + 1] = ' ';
	}
	s[2 * n] = 'x';
	s[2 * n + 1] = '\0';
	kp_error err = KP_ERROR_INIT;
	kp_decode_result *r = NULL;
	ck_assert_int_eq(kp_decode(&r, s, strlen(s), NULL, &err), KP_ERANGE);
	free(s);
	/* objects nested in JSON, and a raised limit */
	kp__buf b = { 0 };
	for (int i = 0; i < 150; i++)
		kp__buf_puts(&b, "{\"a\":");
	kp__buf_puts(&b, "1");
	for (int i = 0; i < 150; i++)
		kp__buf_puts(&b, "}");
	ck_assert_int_eq(kp_decode(&r, b.data, b.len, NULL, &err), KP_ERANGE);
	kp_decode_options o = KP_DECODE_OPTIONS_INIT;
	o.max_depth = 200;
	ck_assert_int_eq(kp_decode(&r, b.data, b.len, &o, &err), KP_EINVAL); /* no kind */
	ck_assert_str_eq(err.message, "document 1: kind not set");
	o.max_depth = KP_DECODE_MAX_DEPTH_LIMIT + 1;
	ck_assert_int_eq(kp_decode(&r, b.data, b.len, &o, &err), KP_EINVAL);
	ck_assert_str_eq(err.field, "max_depth");
	kp__buf_dispose(&b);
}
END_TEST

START_TEST(size_and_node_limits)
{
	size_t big = KP_DECODE_DEFAULT_MAX_BYTES + 1;
	char *s = malloc(big);
	memset(s, ' ', big);
	kp_error err = KP_ERROR_INIT;
	kp_decode_result *r = NULL;
	ck_assert_int_eq(kp_decode(&r, s, big, NULL, &err), KP_ERANGE);
	ck_assert_ptr_nonnull(strstr(err.message, "more than the limit of 67108864"));
	free(s);

	kp_decode_options o = KP_DECODE_OPTIONS_INIT;
	o.max_bytes = 16;
	ck_assert_int_eq(kp_decode(&r, "apiVersion: v1\nkind: Pod\n", 25, &o, &err), KP_ERANGE);

	/* The node limit bounds what an input creates beyond its own size:
	 * 5,001 numbers in a flow sequence are 5,002 nodes from 10,002 bytes,
	 * read whatever max_nodes (the top-level array is then refused as a
	 * document). */
	kp__buf b = { 0 };
	kp__buf_puts(&b, "[");
	for (int i = 0; i < 5000; i++)
		kp__buf_puts(&b, "1,");
	kp__buf_puts(&b, "1]");
	o = (kp_decode_options)KP_DECODE_OPTIONS_INIT;
	o.max_nodes = 1000;
	const uint32_t formats[] = { KP_FORMAT_JSON, KP_FORMAT_YAML };
	for (int f = 0; f < 2; f++) {
		o.format = formats[f];
		ck_assert_int_eq(kp_decode(&r, b.data, b.len, &o, &err), KP_EINVAL);
		ck_assert_str_eq(err.message, "document 1: expected an object, got array");
	}
	/* An alias that copies the sequence twice creates 10,002 more nodes:
	 * refused at the second alias, with the 10,021 bytes read by then. */
	kp__buf_dispose(&b);
	kp__buf_puts(&b, "x: &x [");
	for (int i = 0; i < 5000; i++)
		kp__buf_puts(&b, "1,");
	kp__buf_puts(&b, "1]\ny: *x\nz: *x\n");
	o.format = KP_FORMAT_YAML;
	ck_assert_int_eq(kp_decode(&r, b.data, b.len, &o, &err), KP_ERANGE);
	ck_assert_str_eq(err.message, "document 1: line 3: the document has more than 11021 nodes "
				      "after alias expansion (at most 1000 more than its size in bytes)");
	kp__buf_dispose(&b);
}
END_TEST

/* The node limit is per document, beyond each document's own size, so a
 * long stream of small documents reads (1,100 empty documents with a limit
 * of 1,000 nodes; 1,048,600 empty documents were once refused), and one
 * document cannot borrow another's allowance: the document whose aliases
 * cross the limit is named. */
/* The message of the live-node limit, whose count depends on where the
 * parse stopped: "<prefix>more than N values at once (...)" with N between
 * the base and the base plus one per 16 bytes of the input. */
static void assert_live_limit(const char *msg, const char *prefix, size_t len)
{
	static const char tail[] = " values at once (at most 200000 plus one for every 16 bytes of it)";
	ck_assert_msg(strncmp(msg, prefix, strlen(prefix)) == 0, "%s", msg);
	size_t n = strtoul(msg + strlen(prefix), NULL, 10);
	ck_assert_uint_ge(n, 200000);
	ck_assert_uint_le(n, 200000 + len / 16);
	ck_assert_msg(strlen(msg) > sizeof(tail) &&
			      strcmp(msg + strlen(msg) - (sizeof(tail) - 1), tail) == 0,
		      "%s", msg);
}

/*
 * Memory stays a small multiple of the input: a document may hold at once
 * 200,000 nodes plus one per 16 bytes of it (a node costs about 100
 * bytes), so a 600 KB flow sequence of 300,000 numbers is refused, while a
 * List of any number of items reads, each item's tree being freed once it
 * is decoded (750,000 nodes from 6.75 MB here: more than that limit).
 */
/* kp_condition_find: the first condition of the type, as operatorpkg's
 * ConditionSet.Get; NULL entries and conditions without a type skipped. */
START_TEST(condition_find)
{
	kp_condition a = KP_CONDITION_INIT, b = KP_CONDITION_INIT, c = KP_CONDITION_INIT;
	a.type = "Launched";
	b.type = "Ready";
	b.status = "False";
	c.type = "Ready";
	c.status = "True";
	kp_condition notype = KP_CONDITION_INIT;
	kp_condition *const conds[] = { NULL, &notype, &a, &b, &c };
	ck_assert_ptr_eq(kp_condition_find(conds, 5, "Ready"), &b);
	ck_assert_ptr_eq(kp_condition_find(conds, 5, "Launched"), &a);
	ck_assert_ptr_null(kp_condition_find(conds, 5, "Drifted"));
	ck_assert_ptr_null(kp_condition_find(conds, 3, "Ready"));
	ck_assert_ptr_null(kp_condition_find(NULL, 0, "Ready"));
	ck_assert_ptr_null(kp_condition_find(conds, 5, NULL));
}
END_TEST

START_TEST(live_nodes_are_bounded_by_the_document)
{
	/* A NodePool is read whole (strict decoding names unknown fields),
	 * and so is a member read before the kind is known: both hold their
	 * values at once. */
	const char *json_heads[] = { "{\"apiVersion\":\"karpenter.sh/v1\",\"kind\":\"NodePool\",\"data\":[",
				     "{\"data\":[" };
	const char *json_tails[] = { "1]}", "1],\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\"}" };
	kp__buf b = { 0 };
	kp_error err = KP_ERROR_INIT;
	kp_decode_result *r = NULL;
	for (int h = 0; h < 2; h++) {
		kp__buf_puts(&b, json_heads[h]);
		for (int i = 0; i < 300000; i++)
			kp__buf_puts(&b, "1,");
		kp__buf_puts(&b, json_tails[h]);
		err = (kp_error)KP_ERROR_INIT;
		ck_assert_int_eq(kp_decode(&r, b.data, b.len, NULL, &err), KP_ERANGE);
		assert_live_limit(err.message, "line 1: document 1 holds more than ", b.len);
		kp__buf_dispose(&b);
	}
	kp__buf_puts(&b, "apiVersion: karpenter.sh/v1\nkind: NodePool\ndata: [");
	for (int i = 0; i < 300000; i++)
		kp__buf_puts(&b, "1,");
	kp__buf_puts(&b, "1]\n");
	err = (kp_error)KP_ERROR_INIT;
	ck_assert_int_eq(kp_decode(&r, b.data, b.len, NULL, &err), KP_ERANGE);
	assert_live_limit(err.message, "document 1: line 3: the document holds more than ", b.len);
	kp__buf_dispose(&b);
	/* A member no decision reads of a kind read in part (a ConfigMap
	 * here, of which only the name is kept) is checked and skipped, never
	 * held: it reads whatever its size (the same in YAML). */
	const char *skip_heads[] = { "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"data\":[",
				     "apiVersion: v1\nkind: ConfigMap\ndata: [" };
	const char *skip_tails[] = { "1],\"metadata\":{\"name\":\"big\"}}",
				     "1]\nmetadata: {name: big}\n" };
	for (int f = 0; f < 2; f++) {
		kp__buf_puts(&b, skip_heads[f]);
		for (int i = 0; i < 300000; i++)
			kp__buf_puts(&b, "1,");
		kp__buf_puts(&b, skip_tails[f]);
		r = decode_ok(b.data, b.len, 0);
		ck_assert_uint_eq(kp_decode_result_count(r), 1);
		ck_assert_str_eq(kp_decode_result_at(r, 0)->name, "big");
		kp_decode_result_free(r);
		kp__buf_dispose(&b);
	}

	const char *heads[] = { "{\"apiVersion\":\"v1\",\"kind\":\"List\",\"items\":[",
				"apiVersion: v1\nkind: List\nitems:\n" };
	const char *items[] = { "{\"kind\":\"C\",\"apiVersion\":\"v\"},", "- {kind: C, apiVersion: v}\n" };
	for (int f = 0; f < 2; f++) {
		kp__buf_puts(&b, heads[f]);
		for (int i = 0; i < 250000; i++)
			kp__buf_puts(&b, items[f]);
		if (f == 0)
			kp__buf_puts(&b, "{\"kind\":\"C\",\"apiVersion\":\"v\",\"metadata\":{\"name\":\"last\"}}]}");
		else
			kp__buf_puts(&b, "- {kind: C, apiVersion: v, metadata: {name: last}}\n");
		r = decode_ok(b.data, b.len, 0);
		ck_assert_uint_eq(kp_decode_result_count(r), 250001);
		ck_assert_str_eq(kp_decode_result_at(r, 250000)->name, "last");
		ck_assert_uint_eq(kp_decode_result_at(r, 250000)->item, 250000);
		kp_decode_result_free(r);
		kp__buf_dispose(&b);
	}
}
END_TEST

START_TEST(empty_documents_node_limit)
{
	kp__buf b = { 0 };
	for (int i = 0; i < 1100; i++)
		kp__buf_puts(&b, "---\n");
	kp_decode_options o = KP_DECODE_OPTIONS_INIT;
	o.max_nodes = 1000;
	kp_decode_result *r = NULL;
	kp_error err = KP_ERROR_INIT;
	ck_assert_int_eq(kp_decode(&r, b.data, b.len, &o, &err), KP_OK);
	ck_assert_uint_eq(kp_decode_result_count(r), 0);
	kp_decode_result_free(r);
	r = NULL;
	kp__buf_dispose(&b);
	/* 990 small documents, then one with a 400-item sequence (808 bytes)
	 * copied four times: the fourth copy (2,009 nodes) crosses 1,000 more
	 * than the 827 bytes of the document read by then. */
	for (int i = 0; i < 990; i++)
		kp__buf_puts(&b, "---\na: 1\n");
	kp__buf_puts(&b, "---\nx: &x [");
	for (int i = 0; i < 399; i++)
		kp__buf_puts(&b, "1,");
	kp__buf_puts(&b, "1]\ny: [*x,*x,*x,*x]\n");
	ck_assert_int_eq(kp_decode(&r, b.data, b.len, &o, &err), KP_ERANGE);
	ck_assert_ptr_null(r);
	ck_assert_str_eq(err.message, "document 991: line 1983: the document has more than 1827 nodes "
				      "after alias expansion (at most 1000 more than its size in bytes)");
	kp__buf_dispose(&b);
}
END_TEST

/* The whole input may not exceed the limit beyond its size either: many
 * documents that each stay within their own allowance cannot add up to an
 * unbounded tree (each document below creates about 700 nodes from 74
 * bytes). */
START_TEST(expanding_documents_add_up)
{
	kp__buf b = { 0 };
	for (int i = 0; i < 4; i++)
		kp__buf_puts(&b, "---\na: &a [1,1,1,1,1,1,1,1,1,1]\nb: &b [*a,*a,*a,*a,*a,*a]\n"
				 "c: [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]\n");
	kp_decode_options o = KP_DECODE_OPTIONS_INIT;
	o.max_nodes = 1000;
	kp_decode_result *r = NULL;
	kp_error err = KP_ERROR_INIT;
	ck_assert_int_eq(kp_decode(&r, b.data, b.len, &o, &err), KP_ERANGE);
	ck_assert_ptr_null(r);
	char want[200];
	snprintf(want, sizeof(want),
		 "the input has more than %zu nodes after alias expansion (at most 1000 more than "
		 "its size in bytes)", (size_t)1000 + b.len);
	ck_assert_msg(strstr(err.message, want) && !strncmp(err.message, "document 2: ", 12),
		      "%s", err.message);
	/* one such document alone reads */
	ck_assert_int_eq(kp_decode(&r, b.data, b.len / 4, &o, &err), KP_EINVAL);
	ck_assert_str_eq(err.message, "document 1: kind not set");
	kp__buf_dispose(&b);
}
END_TEST

/* A cluster dump as one YAML stream: 25,000 Pod documents (about 1.6
 * million nodes in all, more than the default node limit, which once
 * applied to the whole stream) read, each its own object. */
START_TEST(yaml_stream_of_25000_documents)
{
	kp__buf b = { 0 };
	for (int i = 0; i < 25000; i++) {
		char doc[1024];
		snprintf(doc, sizeof(doc),
			 "---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: pod-%05d\n"
			 "  namespace: default\n  labels: {app: web, tier: front, shard: \"%d\"}\n"
			 "spec:\n  containers:\n  - name: app\n    image: nginx\n"
			 "    resources:\n      requests: {cpu: 100m, memory: 128Mi}\n"
			 "      limits: {cpu: 200m, memory: 256Mi}\n"
			 "  tolerations:\n  - {key: k, operator: Exists, effect: NoSchedule}\n"
			 "  nodeSelector: {kubernetes.io/os: linux}\n",
			 i, i % 10);
		kp__buf_puts(&b, doc);
	}
	kp_decode_result *r = NULL;
	kp_error err = KP_ERROR_INIT;
	ck_assert_msg(kp_decode(&r, b.data, b.len, NULL, &err) == KP_OK, "%s", err.message);
	ck_assert_uint_eq(kp_decode_result_count(r), 25000);
	const kp_decoded_object *last = kp_decode_result_at(r, 24999);
	ck_assert_uint_eq(last->kind, KP_KIND_POD);
	ck_assert_str_eq(last->name, "pod-24999");
	const kp_pod *pod = last->object;
	ck_assert_uint_eq(pod->spec->n_containers, 1);
	kp_decode_result_free(r);
	kp__buf_dispose(&b);
}
END_TEST

/* The text budget names itself too, with or without aliases: numbers
 * written in Go's spelling can outgrow the input ("1e20" is 21 bytes). */
START_TEST(text_limit_message)
{
	kp_decode_options o = KP_DECODE_OPTIONS_INIT;
	o.max_bytes = 64; /* text budget: 128 bytes */
	const char *doc = "[1e20, 1e20, 1e20, 1e20, 1e20, 1e20, 1e20]";
	kp_decode_result *r = NULL;
	kp_error err = KP_ERROR_INIT;
	ck_assert_int_eq(kp_decode(&r, doc, strlen(doc), &o, &err), KP_ERANGE);
	ck_assert_str_eq(err.message, "document 1: line 1: the input has more than 128 bytes of string "
				      "and number text");
}
END_TEST

START_TEST(malformed_input)
{
	static const struct {
		uint32_t format;
		const char *text;
		const char *message;
	} cases[] = {
		{ KP_FORMAT_JSON, "{\"a\": }", "line 1: invalid character '}' looking for beginning of value" },
		{ KP_FORMAT_JSON, "{\"a\": 1", "line 1: unexpected end of JSON input (after object key:value pair)" },
		{ KP_FORMAT_JSON, "{\"a\":\n\"b\\q\"}", "line 2: invalid character 'q' in string escape code" },
		{ KP_FORMAT_JSON, "{\"a\": 01}", "line 1: invalid character '1' after object key:value pair" },
		{ KP_FORMAT_JSON, "{\"a\": \"\\u0000\"}",
		  "line 1: NUL character (\\u0000) in string is not supported" },
		{ KP_FORMAT_JSON, "{\"a\": \"\xff\"}", "line 1: invalid UTF-8 in string" },
		{ KP_FORMAT_JSON, "[1,]", "line 1: invalid character ']' looking for beginning of value" },
		{ KP_FORMAT_YAML, "a: [1, 2\n", "document 1: line 2, column 1: did not find expected ',' or ']' "
						"while parsing a flow sequence" },
		{ KP_FORMAT_YAML, "a: b: c\n", "document 1: line 1, column 5: mapping values are not allowed in "
					       "this context" },
		{ KP_FORMAT_YAML, "a:\n\t- b\n", NULL },
		{ KP_FORMAT_YAML, "? [a]\n: b\n", "document 1: line 1: unsupported map key of type array" },
		{ KP_FORMAT_YAML, "~: b\n", "document 1: line 1: unsupported map key of type null" },
		{ KP_FORMAT_YAML, "a: !!int abc\n", "document 1: line 1: cannot decode `abc` as a !!int" },
		{ KP_FORMAT_YAML, "a: !!binary aGk=\n", "document 1: line 1: binary data (!!binary) is not supported" },
		{ KP_FORMAT_YAML, "a: \"\xff\"\n", NULL },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		kp_decode_options o = KP_DECODE_OPTIONS_INIT;
		o.format = cases[i].format;
		kp_decode_result *r = NULL;
		kp_error err = KP_ERROR_INIT;
		int rc = kp_decode(&r, cases[i].text, strlen(cases[i].text), &o, &err);
		ck_assert_msg(rc == KP_EPARSE, "case %zu: rc %d (%s)", i, rc, err.message);
		ck_assert_ptr_null(r);
		if (cases[i].message)
			ck_assert_str_eq(err.message, cases[i].message);
	}
}
END_TEST

START_TEST(truncated_input_never_crashes)
{
	const char *names[] = { "nodepool-small.json", "pod.yaml", "nodepool-full.yaml" };
	for (size_t k = 0; k < 3; k++) {
		size_t len;
		char *text = read_fixture(names[k], &len);
		int json = strstr(names[k], ".json") != NULL;
		size_t last = len;
		while (last > 0 && (text[last - 1] == '\n' || text[last - 1] == ' '))
			last--;
		for (size_t cut = 0; cut < len; cut += json ? 1 : 3) {
			kp_decode_options o = KP_DECODE_OPTIONS_INIT;
			o.format = json ? KP_FORMAT_JSON : KP_FORMAT_YAML;
			kp_decode_result *r = NULL;
			kp_error err = KP_ERROR_INIT;
			char *prefix = malloc(cut + 1);
			memcpy(prefix, text, cut);
			prefix[cut] = '\0';
			int rc = kp_decode(&r, prefix, cut, &o, &err);
			if (json && cut > 0 && cut < last)
				ck_assert_msg(rc != KP_OK, "JSON prefix %zu accepted", cut);
			if (rc == KP_OK)
				kp_decode_result_free(r);
			else
				ck_assert_ptr_null(r);
			/* lenient mode too */
			o.flags = KP_DECODE_LENIENT;
			rc = kp_decode(&r, prefix, cut, &o, &err);
			if (rc == KP_OK)
				kp_decode_result_free(r);
			free(prefix);
		}
		free(text);
	}
}
END_TEST

START_TEST(mutated_input_never_crashes)
{
	/* Flip bytes of a fixture at many positions: any outcome but a crash. */
	size_t len;
	char *text = read_fixture("pod.yaml", &len);
	static const char subst[] = { ':', '-', '[', '{', '"', '&', '*', '\t', '\n', '0', '!', '|' };
	for (size_t pos = 0; pos < len; pos += 5) {
		char *m = malloc(len);
		memcpy(m, text, len);
		m[pos] = subst[pos % sizeof(subst)];
		kp_decode_result *r = NULL;
		if (kp_decode(&r, m, len, NULL, NULL) == KP_OK) {
			for (size_t i = 0; i < kp_decode_result_count(r); i++) {
				const kp_decoded_object *o = kp_decode_result_at(r, i);
				char *out = NULL;
				if (o->object && kp_encode(&out, NULL, o->kind, o->object, KP_FORMAT_YAML, 0,
							   NULL) == KP_OK)
					kp_encoded_free(out);
			}
			kp_decode_result_free(r);
		}
		free(m);
	}
	free(text);
}
END_TEST

/* ---- caller-built objects ---- */

/* kp_decode_one: exactly one object of the kind asked for. */
START_TEST(decode_one)
{
	static const char np[] = "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: a}\n"
				 "spec: {template: {spec: {nodeClassRef: {group: g, kind: K, name: c}, "
				 "requirements: []}}}\n";
	static const char two[] = "---\napiVersion: v1\nkind: Pod\nmetadata: {name: web, namespace: d}\n"
				  "---\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: x}\n";
	kp_error e = KP_ERROR_INIT;
	void *obj = NULL;
	ck_assert_int_eq(kp_decode_one(&obj, KP_KIND_NODEPOOL, np, strlen(np), NULL, &e), KP_OK);
	kp_nodepool *pool = obj;
	ck_assert_str_eq(pool->metadata->name, "a");
	ck_assert_uint_eq(pool->kind, KP_KIND_NODEPOOL);
	kp_nodepool_free(pool);

	obj = (void *)1;
	ck_assert_int_eq(kp_decode_one(&obj, KP_KIND_POD, two, strlen(two), NULL, &e), KP_EINVAL);
	ck_assert_ptr_null(obj);
	ck_assert_str_eq(e.message, "expected one Pod, found 2 objects");
	static const char pod[] = "apiVersion: v1\nkind: Pod\nmetadata: {name: web, namespace: d}\n";
	ck_assert_int_eq(kp_decode_one(&obj, KP_KIND_NODEPOOL, pod, strlen(pod), NULL, &e), KP_EINVAL);
	ck_assert_str_eq(e.message, "expected a NodePool, found v1 Pod d/web");
	ck_assert_str_eq(e.field, "kind");
	ck_assert_int_eq(kp_decode_one(&obj, KP_KIND_POD, "", 0, NULL, &e), KP_EINVAL);
	ck_assert_str_eq(e.message, "expected one Pod, found 0 objects");
	ck_assert_int_eq(kp_decode_one(&obj, 999, np, strlen(np), NULL, &e), KP_EINVAL);
	ck_assert_int_eq(kp_decode_one(&obj, KP_KIND_NODEPOOL, "{", 1, NULL, &e), KP_EPARSE);
	ck_assert_ptr_null(obj);
}
END_TEST

START_TEST(caller_built_objects)
{
	const char *values[] = { "amd64" };
	kp_nodeclaim_requirement req = KP_NODECLAIM_REQUIREMENT_INIT;
	req.key = "kubernetes.io/arch";
	req.op = KP_SELECTOR_OP_IN; /* code only: encoded by name */
	req.values = values;
	req.n_values = 1;
	kp_nodeclaim_requirement *reqs[] = { &req };
	kp_node_class_reference ref = KP_NODE_CLASS_REFERENCE_INIT;
	ref.group = "karpenter.kwok.sh";
	ref.kind = "KWOKNodeClass";
	ref.name = "default";
	kp_taint taints[] = { { "a", NULL, KP_TAINT_EFFECT_NO_SCHEDULE, 0, 0 } };
	kp_nodeclaim_spec spec = KP_NODECLAIM_SPEC_INIT;
	spec.requirements = reqs;
	spec.n_requirements = 1;
	spec.node_class_ref = &ref;
	spec.taints = taints;
	spec.n_taints = 1;
	spec.expire_after.parsed = 1;
	spec.expire_after.ns = 720LL * 3600 * 1000000000LL;
	kp_label lbl[] = { { "team", "a" } };
	kp_template_metadata tm = KP_TEMPLATE_METADATA_INIT;
	tm.labels.items = lbl;
	tm.labels.count = 1;
	kp_nodeclaim_template tmpl = KP_NODECLAIM_TEMPLATE_INIT;
	tmpl.metadata = &tm;
	tmpl.spec = &spec;
	kp_nodepool_spec nps = KP_NODEPOOL_SPEC_INIT;
	nps.template_ = &tmpl;
	kp_object_meta meta = KP_OBJECT_META_INIT;
	meta.name = "built";
	kp_nodepool np = KP_NODEPOOL_INIT;
	np.metadata = &meta;
	np.spec = &nps;

	char *json = NULL;
	kp_error err = KP_ERROR_INIT;
	ck_assert_int_eq(kp_encode(&json, NULL, KP_KIND_NODEPOOL, &np, KP_FORMAT_JSON, 0, &err), KP_OK);
	ck_assert_str_eq(json,
			 "{\"apiVersion\":\"karpenter.sh/v1\",\"kind\":\"NodePool\",\"metadata\":{\"name\":"
			 "\"built\"},\"spec\":{\"template\":{\"metadata\":{\"labels\":{\"team\":\"a\"}},\"spec\":"
			 "{\"taints\":[{\"key\":\"a\",\"effect\":\"NoSchedule\"}],\"requirements\":[{\"key\":"
			 "\"kubernetes.io/arch\",\"operator\":\"In\",\"values\":[\"amd64\"]}],\"nodeClassRef\":"
			 "{\"kind\":\"KWOKNodeClass\",\"name\":\"default\",\"group\":\"karpenter.kwok.sh\"},"
			 "\"expireAfter\":\"720h0m0s\"}}}}");
	kp_encoded_free(json);

	kp_nodepool *copy = NULL;
	ck_assert_int_eq(kp_nodepool_copy(&copy, &np, &err), KP_OK);
	/* The copy names the operator its code gives (builder.h's text/code
	 * rule); with that, it equals the original. */
	ck_assert_str_eq(copy->spec->template_->spec->requirements[0]->operator_name, "In");
	ck_assert(!kp__schema_equal(&kp__type_nodepool, &np, copy));
	req.operator_name = "In";
	ck_assert(kp__schema_equal(&kp__type_nodepool, &np, copy));
	req.operator_name = NULL;
	ck_assert_ptr_ne(copy->spec->template_->spec->requirements[0]->key, req.key);
	kp_nodepool_free(copy);

	/* Invalid caller input is reported, not crashed on. */
	spec.n_startup_taints = 2; /* NULL items */
	ck_assert_int_eq(kp_encode(&json, NULL, KP_KIND_NODEPOOL, &np, KP_FORMAT_YAML, 0, &err), KP_EINVAL);
	ck_assert_str_eq(err.field, "spec.template.spec.startupTaints");
	ck_assert_int_eq(kp_nodepool_copy(&copy, &np, &err), KP_EINVAL);
	ck_assert_ptr_null(copy);
	spec.n_startup_taints = 0;
	taints[0].effect = 42;
	ck_assert_int_eq(kp_encode(&json, NULL, KP_KIND_NODEPOOL, &np, KP_FORMAT_JSON, 0, &err), KP_EINVAL);
	ck_assert_str_eq(err.field, "spec.template.spec.taints[0].effect");
	taints[0].effect = KP_TAINT_EFFECT_NO_SCHEDULE;
	ref.struct_size = 4;
	ck_assert_int_eq(kp_encode(&json, NULL, KP_KIND_NODEPOOL, &np, KP_FORMAT_JSON, 0, &err),
			 KP_EVERSION);
	ref.struct_size = sizeof(ref);

	/* argument checks */
	ck_assert_int_eq(kp_encode(NULL, NULL, KP_KIND_NODEPOOL, &np, KP_FORMAT_JSON, 0, NULL), KP_EINVAL);
	ck_assert_int_eq(kp_encode(&json, NULL, 99, &np, KP_FORMAT_JSON, 0, NULL), KP_EINVAL);
	ck_assert_int_eq(kp_encode(&json, NULL, KP_KIND_NODEPOOL, &np, 7, 0, NULL), KP_EINVAL);
	ck_assert_int_eq(kp_object_copy(NULL, KP_KIND_POD, &np, NULL), KP_EINVAL);
	kp_nodepool_free(NULL);
	kp_object_free(KP_KIND_POD, NULL);
	kp_decode_result_free(NULL);
}
END_TEST

START_TEST(kinds_and_options)
{
	ck_assert_str_eq(kp_kind_name(KP_KIND_PDB), "PodDisruptionBudget");
	ck_assert_str_eq(kp_kind_name(0), "");
	ck_assert_str_eq(kp_kind_name(1000), "");
	ck_assert_str_eq(kp_kind_api_version(KP_KIND_CSI_NODE), "storage.k8s.io/v1");
	ck_assert_str_eq(kp_kind_name(KP_KIND_NAMESPACE), "Namespace");
	ck_assert_uint_eq(kp_kind_lookup("v1", "Namespace"), KP_KIND_NAMESPACE);
	ck_assert_str_eq(kp_kind_name(KP_KIND_VOLUME_ATTACHMENT), "VolumeAttachment");
	ck_assert_str_eq(kp_kind_api_version(KP_KIND_VOLUME_ATTACHMENT), "storage.k8s.io/v1");
	ck_assert_uint_eq(kp_kind_lookup("storage.k8s.io/v1", "VolumeAttachment"),
			  KP_KIND_VOLUME_ATTACHMENT);
	ck_assert_uint_eq(kp_kind_lookup("storage.k8s.io/v1beta1", "VolumeAttachment"),
			  KP_KIND_UNKNOWN);
	ck_assert_str_eq(kp_registry_kind_api_version(reg, kwok_kind), "karpenter.kwok.sh/v1alpha1");
	ck_assert_str_eq(kp_kind_api_version(3), ""); /* KWOKNodeClass's old number, reserved */
	ck_assert_uint_eq(kp_kind_lookup("karpenter.kwok.sh/v1alpha1", "KWOKNodeClass"),
			  KP_KIND_UNKNOWN);
	ck_assert_uint_eq(kp_kind_lookup("karpenter.sh/v1", "NodeClaim"), KP_KIND_NODECLAIM);
	ck_assert_uint_eq(kp_kind_lookup("karpenter.sh/v1beta1", "NodePool"), KP_KIND_UNKNOWN);
	ck_assert_uint_eq(kp_kind_lookup(NULL, "Pod"), KP_KIND_UNKNOWN);

	kp_decode_options o;
	memset(&o, 0xff, sizeof(o));
	kp_decode_options_init(&o);
	ck_assert_uint_eq(o.struct_size, sizeof(o));
	ck_assert_uint_eq(o.flags, 0);
	kp_decode_options_init(NULL);
	kp_decode_result *r = NULL;
	kp_error err = KP_ERROR_INIT;
	o.flags = 0x80;
	ck_assert_int_eq(kp_decode(&r, "", 0, &o, &err), KP_EINVAL);
	o.flags = 0;
	o.format = 9;
	ck_assert_int_eq(kp_decode(&r, "", 0, &o, &err), KP_EINVAL);
	o.format = 0;
	o.struct_size = 3;
	ck_assert_int_eq(kp_decode(&r, "", 0, &o, &err), KP_EVERSION);
	ck_assert_int_eq(kp_decode(NULL, "", 0, NULL, &err), KP_EINVAL);
	ck_assert_int_eq(kp_decode(&r, NULL, 3, NULL, &err), KP_EINVAL);
	ck_assert_uint_eq(kp_decode_result_count(NULL), 0);
	ck_assert_uint_eq(kp_decode_result_warning_count(NULL), 0);
}
END_TEST

START_TEST(time_rfc3339)
{
	static const struct {
		const char *text;
		int64_t ms;
		const char *canonical;
	} ok[] = {
		{ "1970-01-01T00:00:01Z", 1000, "1970-01-01T00:00:01Z" },
		{ "2024-02-29T23:59:59.5Z", 1709251199500LL, "2024-02-29T23:59:59.5Z" },
		{ "2024-01-01T02:00:00+02:00", 1704067200000LL, "2024-01-01T00:00:00Z" },
		{ "2023-12-31T19:00:00-05:00", 1704067200000LL, "2024-01-01T00:00:00Z" },
		{ "1969-12-31T23:59:59.999Z", -1, "1969-12-31T23:59:59.999Z" },
		{ "2024-01-01T00:00:00.123456789Z", 1704067200123LL, "2024-01-01T00:00:00.123Z" },
	};
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		int64_t ms = 0;
		ck_assert_int_eq(kp__time_parse_rfc3339(ok[i].text, &ms), KP_OK);
		ck_assert_int_eq(ms, ok[i].ms);
		char buf[48];
		kp__time_format_rfc3339(ms, buf, sizeof(buf));
		ck_assert_str_eq(buf, ok[i].canonical);
	}
	static const char *const bad[] = { "2023-02-29T00:00:00Z", "2024-01-01", "2024-01-01T24:00:00Z",
					   "2024-01-01T00:00:00", "2024-01-01T00:00:00.Z",
					   "2024-01-01T00:00:00+0200", "2024-13-01T00:00:00Z",
					   "2024-01-01 00:00:00Z", "2024-01-01T00:00:60Z" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int64_t ms = 0;
		ck_assert_msg(kp__time_parse_rfc3339(bad[i], &ms) == KP_EPARSE, "%s accepted", bad[i]);
	}
}
END_TEST

/* ---- allocation failures ---- */

START_TEST(allocation_failures)
{
	kp_test_alloc_install();
	const char *name = _i == 0 ? "nodepool-full.yaml" : "pod.yaml";
	size_t len;
	char *text = read_fixture(name, &len);

	/* How many allocations a full decode + encode + copy needs. */
	kp_decode_result *r = decode_ok(text, len, 0);
	const kp_decoded_object *o = kp_decode_result_at(r, 0);
	char *out = NULL;
	ck_assert_int_eq(kp_encode(&out, NULL, o->kind, o->object, KP_FORMAT_YAML, 0, NULL), KP_OK);
	kp_encoded_free(out);
	void *copy = NULL;
	ck_assert_int_eq(kp_object_copy(&copy, o->kind, o->object, NULL), KP_OK);
	kp_object_free(o->kind, copy);
	long total = kp_test_alloc_count();
	ck_assert_int_gt(total, 100);

	int failures = 0;
	for (long n = 0; n < total; n++) {
		kp_test_alloc_fail_at(n);
		kp_decode_result *r2 = NULL;
		kp_error err = KP_ERROR_INIT;
		int rc = kp_decode(&r2, text, len, NULL, &err);
		if (rc != KP_OK) {
			ck_assert_int_eq(rc, KP_ENOMEM);
			ck_assert_ptr_null(r2);
			failures++;
		} else {
			kp_decode_result_free(r2);
		}
		kp_test_alloc_fail_at(n);
		rc = kp_encode(&out, NULL, o->kind, o->object, KP_FORMAT_JSON, 0, &err);
		if (rc == KP_OK)
			kp_encoded_free(out);
		else
			ck_assert_int_eq(rc, KP_ENOMEM);
		kp_test_alloc_fail_at(n);
		rc = kp_object_copy(&copy, o->kind, o->object, &err);
		if (rc == KP_OK)
			kp_object_free(o->kind, copy);
		else
			ck_assert_int_eq(rc, KP_ENOMEM);
	}
	ck_assert_int_gt(failures, 0);
	kp_test_alloc_fail_at(-1);
	kp_decode_result_free(r);
	free(text);
	kp_test_alloc_uninstall();
}
END_TEST

static Suite *codec_suite(void)
{
	Suite *s = suite_create("codec");
	TCase *tc = tcase_create("manifests");
	tcase_add_test(tc, manifests_decode_and_round_trip);
	tcase_add_test(tc, manifest_general_purpose_fields);
	tcase_add_test(tc, manifest_min_values_and_limits);
	suite_add_tcase(s, tc);

	tc = tcase_create("fixtures");
	tcase_add_loop_test(tc, fixtures_round_trip, 0, (int)N_FIXTURES);
	tcase_add_test(tc, fixtures_cover_every_field);
	tcase_add_test(tc, fixture_pod_fields);
	tcase_add_test(tc, fixture_storage_and_pdb_fields);
	tcase_add_test(tc, other_volume_sources_round_trip);
	tcase_add_test(tc, fixture_karpenter_fields);
	suite_add_tcase(s, tc);

	tc = tcase_create("streams");
	tcase_add_test(tc, stream_list_and_documents);
	tcase_add_test(tc, json_lists_stream_as_the_tree_reads_them);
	tcase_add_test(tc, yaml_lists_stream_as_the_tree_reads_them);
	tcase_add_test(tc, json_and_yaml_equal);
	tcase_add_test(tc, encode_exact_text);
	tcase_add_test(tc, encode_random_strings_read_back);
	tcase_add_test(tc, encode_escapes_exact_text);
	suite_add_tcase(s, tc);

	tc = tcase_create("errors");
	tcase_add_test(tc, strict_unknown_fields);
	tcase_add_test(tc, lenient_unknown_fields);
	tcase_add_test(tc, core_kinds_ignore_unknown_fields);
	tcase_add_loop_test(tc, type_error_paths, 0, (int)(sizeof(type_errors) / sizeof(type_errors[0])));
	tcase_add_test(tc, lenient_warnings_are_capped);
	tcase_add_test(tc, lenient_duplicates_last_wins);
	tcase_add_test(tc, unsupported_values_survive);
	suite_add_tcase(s, tc);

	tc = tcase_create("yaml");
	tcase_add_test(tc, yaml_scalar_typing);
	tcase_add_test(tc, yaml_numbers_as_go_json);
	tcase_add_test(tc, yaml_anchors_and_merge_keys);
	tcase_add_test(tc, billion_laughs);
	suite_add_tcase(s, tc);

	tc = tcase_create("limits");
	tcase_add_test(tc, deep_nesting);
	tcase_add_test(tc, size_and_node_limits);
	tcase_add_test(tc, live_nodes_are_bounded_by_the_document);
	tcase_add_test(tc, empty_documents_node_limit);
	tcase_add_test(tc, expanding_documents_add_up);
	tcase_add_test(tc, yaml_stream_of_25000_documents);
	tcase_add_test(tc, text_limit_message);
	tcase_add_test(tc, malformed_input);
	tcase_add_test(tc, truncated_input_never_crashes);
	tcase_add_test(tc, mutated_input_never_crashes);
	suite_add_tcase(s, tc);

	tc = tcase_create("objects");
	tcase_add_test(tc, caller_built_objects);
	tcase_add_test(tc, decode_one);
	tcase_add_test(tc, condition_find);
	tcase_add_test(tc, kinds_and_options);
	tcase_add_test(tc, time_rfc3339);
	tcase_add_loop_test(tc, allocation_failures, 0, 2);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	kp_test_require_data(MANIFESTS "/general-purpose.yaml");
	if (kp_registry_new(&reg, NULL) || kp_kwok_register(reg, &kwok_kind, NULL))
		return 99;
	Suite *suites[] = { codec_suite() };
	int rc = kp_test_run(suites, 1);
	kp_registry_free(reg);
	return rc;
}
