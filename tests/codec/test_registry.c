/*
 * The provider-kind registry (karpenter/sys/schema.h) through the public API
 * only, as a provider uses it: descriptions checked and read with their
 * record sizes, kinds registered, decoded, encoded, copied, defaulted,
 * validated and hashed, and the registry's lifetime.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#define KP_EXPERIMENTAL_API 1
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <karpenter/codec.h>
#include <karpenter/sys/schema.h>
#include <karpenter/validation.h>

#include "kp_test.h"

/* ---- a toy kind: Widget ----------------------------------------------------- */

typedef struct widget_spec {
	uint32_t struct_size;
	uint32_t color; /* CODE */
	const char *label;
	int64_t size;
	kp_api_duration ttl;
	kp_duration_map grace;
	const char *extra;
} widget_spec;

typedef struct widget {
	uint32_t struct_size;
	uint32_t kind;
	const char *api_version;
	kp_object_meta *metadata;
	widget_spec *spec;
} widget;

static const kp_enum_value colors[] = { { "Red", 1 }, { "Blue", 2 } };

#define S widget_spec
static const kp_schema_field spec_f[] = {
	{ KP_FIELD_CODE, 0, "color", "Color", offsetof(S, color), 0, NULL, colors, 2, 0, 0 },
	{ KP_FIELD_STRING, 0, "label", "Label", offsetof(S, label), 0, NULL, NULL, 0, 0, 0 },
	{ KP_FIELD_INT64, 0, "size", "Size", offsetof(S, size), 0, NULL, NULL, 0, 0, 0 },
	{ KP_FIELD_DURATION, 0, "ttl", "TTL", offsetof(S, ttl), 0, NULL, NULL, 0, 0, 0 },
	{ KP_FIELD_DURATION_MAP, 0, "grace", "Grace", offsetof(S, grace), 0, NULL, NULL, 0, 0, 0 },
	{ KP_FIELD_JSON, KP_FIELD_F_HASH_IGNORE, "extra", "Extra", offsetof(S, extra), 0, NULL, NULL,
	  0, 0, 0 },
};
static const kp_schema_type spec_t = { sizeof(kp_schema_type), sizeof(kp_schema_field),
				       "WidgetSpec", sizeof(S), 0, 0, 1, 0, spec_f, 6 };
#undef S

#define S widget
static const kp_schema_field widget_f[] = {
	{ KP_FIELD_API_VERSION, 0, "apiVersion", "APIVersion", offsetof(S, api_version), 0, NULL,
	  NULL, 0, 0, 0 },
	{ KP_FIELD_KIND, 0, "kind", "Kind", offsetof(S, kind), 0, NULL, NULL, 0, 0, 0 },
	{ KP_FIELD_STRUCT, 0, "metadata", "ObjectMeta", offsetof(S, metadata), 0, NULL, NULL, 0,
	  KP_CORE_TYPE_OBJECT_META, 0 },
	{ KP_FIELD_STRUCT, 0, "spec", "Spec", offsetof(S, spec), 0, &spec_t, NULL, 0, 0, 0 },
};
static const kp_schema_type widget_t = { sizeof(kp_schema_type), sizeof(kp_schema_field),
					 "Widget", sizeof(S), 0, 0, 1, 0, widget_f, 4 };
#undef S

static int destroyed;

static void destroy(void *self)
{
	destroyed++;
	free(self);
}

static int defaults(void *self, void *object, kp_error *err)
{
	(void)self;
	(void)err;
	widget *w = object;
	if (w->spec && !w->spec->size)
		w->spec->size = 7;
	return KP_OK;
}

static int validate(void *self, const void *object, const void *old, kp_validation_sink *sink,
		    kp_error *err)
{
	(void)self;
	(void)old;
	(void)err;
	const widget *w = object;
	if (w->spec && w->spec->size > 10)
		return kp_validation_sink_add(sink, "spec.size", "Invalid value: too big");
	return KP_OK;
}

static kp_registry *widget_registry(uint32_t *kind)
{
	kp_registry *reg = NULL;
	ck_assert_int_eq(kp_registry_new(&reg, NULL), KP_OK);
	kp_kind_spec spec = KP_KIND_SPEC_INIT;
	spec.flags = KP_KIND_F_CRD;
	spec.group = "example.com";
	spec.version = "v1";
	spec.kind = "Widget";
	spec.type = &widget_t;
	spec.hash_root = "spec";
	spec.hash_version = "v1";
	kp_kind_ops ops = KP_KIND_OPS_INIT;
	ops.apply_defaults = defaults;
	ops.validate = validate;
	ops.destroy = destroy;
	kp_error e = KP_ERROR_INIT;
	ck_assert_msg(kp_registry_add_kind(reg, &spec, &ops, malloc(1), kind, &e) == KP_OK, "%s",
		      e.message);
	return reg;
}

static const char manifest[] = "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\n"
			       "spec: {color: Blue, label: x, ttl: 1m}\n";

START_TEST(kind_end_to_end)
{
	uint32_t kind = 0;
	destroyed = 0;
	kp_registry *reg = widget_registry(&kind);
	ck_assert_uint_eq(kind, KP_KIND_FIRST_REGISTERED);
	ck_assert_uint_eq(kp_registry_lookup(reg, "example.com/v1", "Widget"), kind);
	ck_assert_str_eq(kp_registry_kind_hash_version(reg, kind), "v1");
	ck_assert_str_eq(kp_registry_kind_hash_version(reg, KP_KIND_NODEPOOL), "");
	kp_decode_options o = KP_DECODE_OPTIONS_INIT;
	o.registry = reg;
	kp_decode_result *r = NULL;
	kp_error e = KP_ERROR_INIT;
	ck_assert_int_eq(kp_decode(&r, manifest, strlen(manifest), &o, &e), KP_OK);
	/* the result holds the registry: freeing ours destroys nothing yet */
	kp_registry_free(reg);
	ck_assert_int_eq(destroyed, 0);
	widget *w = NULL;
	ck_assert_int_eq(kp_decode_result_take(r, 0, (void **)&w, &e), KP_OK);
	ck_assert_uint_eq(w->kind, kind);
	ck_assert_uint_eq(w->spec->color, 2);
	ck_assert_int_eq(w->spec->ttl.ns, 60000000000LL);
	kp_decode_result_free(r);
	ck_assert_int_eq(destroyed, 1);
	/* a new registry gives the kind the same id: ids are per registry */
	reg = widget_registry(&kind);
	ck_assert_int_eq(kp_registry_object_default(reg, kind, w, &e), KP_OK);
	ck_assert_int_eq(w->spec->size, 7);
	char *json = NULL;
	ck_assert_int_eq(kp_registry_encode(&json, NULL, reg, kind, w, KP_FORMAT_JSON, 0, &e), KP_OK);
	ck_assert_str_eq(json, "{\"apiVersion\":\"example.com/v1\",\"kind\":\"Widget\",\"metadata\":"
			       "{\"name\":\"w\"},\"spec\":{\"color\":\"Blue\",\"label\":\"x\","
			       "\"size\":7,\"ttl\":\"1m\"}}");
	kp_encoded_free(json);
	/* the default hash is the hash of the hash_root member */
	kp_schema *s = NULL;
	ck_assert_int_eq(kp_schema_compile(&s, &spec_t, &e), KP_OK);
	uint64_t a = 0, b = 1;
	ck_assert_int_eq(kp_registry_object_hash(reg, kind, w, NULL, &a, &e), KP_OK);
	ck_assert_int_eq(kp_schema_hash(s, w->spec, NULL, &b, &e), KP_OK);
	ck_assert(a == b);
	kp_schema_free(s);
	/* validation: metadata, then the kind's callback through the sink */
	w->spec->size = 11;
	kp_validate_options vo = KP_VALIDATE_OPTIONS_INIT;
	vo.registry = reg;
	kp_validation *v = NULL;
	ck_assert_int_eq(kp_validate(&v, kind, w, NULL, &vo, &e), KP_OK);
	ck_assert_uint_eq(kp_validation_count(v), 1);
	ck_assert_str_eq(kp_validation_at(v, 0)->object, "Widget/w");
	ck_assert_str_eq(kp_validation_at(v, 0)->field, "spec.size");
	ck_assert_str_eq(kp_validation_at(v, 0)->message, "Invalid value: too big");
	ck_assert_uint_eq(kp_validation_at(v, 0)->source, KP_RULE_SOURCE_RUNTIME);
	kp_validation_free(v);
	kp_registry_object_free(reg, kind, w);
	kp_registry_free(reg);
	ck_assert_int_eq(destroyed, 2);
}
END_TEST

/* map[string]metav1.Duration: keys sorted, values parsed, encoded as
 * written, copied, compared and hashed as a Go map (order-free). */
START_TEST(duration_maps)
{
	uint32_t kind = 0;
	kp_registry *reg = widget_registry(&kind);
	kp_decode_options o = KP_DECODE_OPTIONS_INIT;
	o.registry = reg;
	static const char a[] = "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\n"
				"spec: {grace: {memory.available: 1m30s, nodefs.available: 2h}}\n";
	static const char b[] = "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\n"
				"spec: {grace: {nodefs.available: 120m, memory.available: 90s}}\n";
	static const char c[] = "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\n"
				"spec: {grace: {memory.available: 1m31s, nodefs.available: 2h}}\n";
	widget *wa = NULL, *wb = NULL, *wc = NULL;
	kp_error e = KP_ERROR_INIT;
	ck_assert_int_eq(kp_decode_one((void **)&wa, kind, a, strlen(a), &o, &e), KP_OK);
	ck_assert_int_eq(kp_decode_one((void **)&wb, kind, b, strlen(b), &o, &e), KP_OK);
	ck_assert_int_eq(kp_decode_one((void **)&wc, kind, c, strlen(c), &o, &e), KP_OK);
	const kp_duration_map *m = &wb->spec->grace;
	ck_assert_uint_eq(m->n, 2);
	ck_assert_str_eq(m->keys[0], "memory.available");
	ck_assert_str_eq(m->values[0].text, "90s");
	ck_assert_int_eq(m->values[0].ns, 90000000000LL);
	ck_assert_str_eq(m->keys[1], "nodefs.available");
	ck_assert_int_eq(m->values[1].ns, 7200000000000LL);
	char *json = NULL;
	ck_assert_int_eq(kp_registry_encode(&json, NULL, reg, kind, wb, KP_FORMAT_JSON, 0, &e), KP_OK);
	ck_assert_str_eq(json, "{\"apiVersion\":\"example.com/v1\",\"kind\":\"Widget\",\"metadata\":"
			       "{\"name\":\"w\"},\"spec\":{\"grace\":{\"memory.available\":\"90s\","
			       "\"nodefs.available\":\"120m\"}}}");
	kp_encoded_free(json);
	/* the same durations written differently hash the same; another value does not */
	uint64_t ha = 0, hb = 0, hc = 0;
	ck_assert_msg(kp_registry_object_hash(reg, kind, wa, NULL, &ha, &e) == KP_OK, "%s", e.message);
	ck_assert_int_eq(kp_registry_object_hash(reg, kind, wb, NULL, &hb, &e), KP_OK);
	ck_assert_int_eq(kp_registry_object_hash(reg, kind, wc, NULL, &hc, &e), KP_OK);
	ck_assert(ha == hb);
	ck_assert(ha != hc);
	/* but they are not equal objects (the text differs), while a copy is */
	ck_assert_int_eq(kp_registry_object_equal(reg, kind, wa, wb), 0);
	void *copy = NULL;
	ck_assert_int_eq(kp_registry_object_copy(&copy, reg, kind, wb, &e), KP_OK);
	ck_assert_int_eq(kp_registry_object_equal(reg, kind, wb, copy), 1);
	kp_registry_object_free(reg, kind, copy);
	/* a value that is not a duration is kept for validation, and not hashed */
	static const char bad[] = "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\n"
				  "spec: {grace: {memory.available: soon}}\n";
	widget *wd = NULL;
	ck_assert_int_eq(kp_decode_one((void **)&wd, kind, bad, strlen(bad), &o, &e), KP_OK);
	ck_assert_int_eq(kp_registry_object_hash(reg, kind, wd, NULL, &ha, &e), KP_EINVAL);
	ck_assert_str_eq(e.message, "not a duration: \"soon\"");
	ck_assert_str_eq(e.field, "grace");
	static const char notmap[] = "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\n"
				     "spec: {grace: [1s]}\n";
	void *none = NULL;
	ck_assert_int_eq(kp_decode_one(&none, kind, notmap, strlen(notmap), &o, &e), KP_EINVAL);
	kp_registry_object_free(reg, kind, wd);
	kp_registry_object_free(reg, kind, wa);
	kp_registry_object_free(reg, kind, wb);
	kp_registry_object_free(reg, kind, wc);
	kp_registry_free(reg);
}
END_TEST

/* Raw JSON values: kept as Go's json.Marshal writes them (compact, keys
 * sorted at every level, the last duplicate), encoded back as JSON. */
START_TEST(json_values)
{
	uint32_t kind = 0;
	kp_registry *reg = widget_registry(&kind);
	kp_decode_options o = KP_DECODE_OPTIONS_INIT;
	o.registry = reg;
	static const char m[] = "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\n"
				"spec:\n  extra:\n    zeta: [1, {b: true, a: null}]\n    alpha: \"x\\\"y\"\n"
				"    mid: {k: 1, k: 2}\n";
	widget *w = NULL;
	kp_error e = KP_ERROR_INIT;
	ck_assert_msg(kp_decode_one((void **)&w, kind, m, strlen(m), &o, &e) == KP_OK, "%s",
		      e.message);
	ck_assert_str_eq(w->spec->extra,
			 "{\"alpha\":\"x\\\"y\",\"mid\":{\"k\":2},\"zeta\":[1,{\"a\":null,\"b\":true}]}");
	char *json = NULL;
	ck_assert_int_eq(kp_registry_encode(&json, NULL, reg, kind, w, KP_FORMAT_JSON, 0, &e), KP_OK);
	ck_assert_str_eq(json, "{\"apiVersion\":\"example.com/v1\",\"kind\":\"Widget\",\"metadata\":"
			       "{\"name\":\"w\"},\"spec\":{\"extra\":{\"alpha\":\"x\\\"y\",\"mid\":"
			       "{\"k\":2},\"zeta\":[1,{\"a\":null,\"b\":true}]}}}");
	/* decoding the encoding gives the same text */
	widget *again = NULL;
	ck_assert_int_eq(kp_decode_one((void **)&again, kind, json, strlen(json), &o, &e), KP_OK);
	ck_assert_int_eq(kp_registry_object_equal(reg, kind, w, again), 1);
	kp_encoded_free(json);
	kp_registry_object_free(reg, kind, again);
	kp_registry_object_free(reg, kind, w);
	kp_registry_free(reg);
}
END_TEST

START_TEST(strict_decoding_messages)
{
	uint32_t kind = 0;
	kp_registry *reg = widget_registry(&kind);
	kp_decode_options o = KP_DECODE_OPTIONS_INIT;
	o.registry = reg;
	void *obj = NULL;
	kp_error e = KP_ERROR_INIT;
	static const char bad_color[] = "apiVersion: example.com/v1\nkind: Widget\n"
					"metadata: {name: w}\nspec: {color: Green}\n";
	ck_assert_int_eq(kp_decode_one(&obj, kind, bad_color, strlen(bad_color), &o, &e), KP_EINVAL);
	ck_assert_str_eq(e.message, "Widget/w: spec.color: Unsupported value: \"Green\": supported "
				    "values: \"Red\", \"Blue\"");
	static const char unknown[] = "apiVersion: example.com/v1\nkind: Widget\n"
				      "metadata: {name: w}\nspec: {colour: Red}\n";
	ck_assert_int_eq(kp_decode_one(&obj, kind, unknown, strlen(unknown), &o, &e), KP_EINVAL);
	ck_assert_str_eq(e.message, "Widget/w: strict decoding error: unknown field \"spec.colour\"");
	ck_assert_ptr_null(obj);
	kp_registry_free(reg);
}
END_TEST

/* ---- descriptions are checked ---------------------------------------------- */

static int compile_one(const kp_schema_field *f, size_t n, size_t field_size, kp_error *e)
{
	kp_schema_type t = { sizeof(kp_schema_type), (uint32_t)field_size, "T", sizeof(widget_spec),
			     0, 0, 1, 0, f, n };
	kp_schema *s = NULL;
	int rc = kp_schema_compile(&s, &t, e);
	if (rc == KP_OK)
		ck_assert_ptr_nonnull(s);
	else
		ck_assert_ptr_null(s);
	kp_schema_free(s);
	return rc;
}

START_TEST(bad_descriptions)
{
	kp_error e = KP_ERROR_INIT;
	kp_schema_field f = { KP_FIELD_STRING, 0, "a", "A", 8, 0, NULL, NULL, 0, 0, 0 };
	ck_assert_int_eq(compile_one(&f, 1, sizeof(f), &e), KP_OK);
	f.kind = 99;
	ck_assert_int_eq(compile_one(&f, 1, sizeof(f), &e), KP_ENOTSUP);
	ck_assert_str_eq(e.message, "T.a: unknown field kind");
	f.kind = KP_FIELD_STRING;
	f.offset = sizeof(widget_spec) - 4;
	ck_assert_int_eq(compile_one(&f, 1, sizeof(f), &e), KP_EINVAL);
	ck_assert_str_eq(e.message, "T.a: offset beyond the C struct");
	f.offset = 0;
	ck_assert_int_eq(compile_one(&f, 1, sizeof(f), &e), KP_EINVAL);
	ck_assert_str_eq(e.message, "T.a: offset overlaps struct_size");
	f.offset = 8;
	f.flags = 1u << 9;
	ck_assert_int_eq(compile_one(&f, 1, sizeof(f), &e), KP_ENOTSUP);
	ck_assert_str_eq(e.message, "T.a: unknown field flags");
	f.flags = 0;
	/* a list's count left at aux_offset 0 would overwrite struct_size */
	f.kind = KP_FIELD_STRINGS;
	ck_assert_int_eq(compile_one(&f, 1, sizeof(f), &e), KP_EINVAL);
	ck_assert_str_eq(e.message, "T.a: aux_offset overlaps struct_size");
	f.aux_offset = 16;
	ck_assert_int_eq(compile_one(&f, 1, sizeof(f), &e), KP_OK);
	f.aux_offset = 0;
	f.kind = KP_FIELD_STRING;
	f.kind = KP_FIELD_STRUCT;
	ck_assert_int_eq(compile_one(&f, 1, sizeof(f), &e), KP_EINVAL);
	ck_assert_str_eq(e.message, "T.a: a STRUCT, LIST or VALUES field needs an element type");
	f.core_type = 77;
	ck_assert_int_eq(compile_one(&f, 1, sizeof(f), &e), KP_ENOTSUP);
	f.kind = KP_FIELD_CODE;
	ck_assert_int_eq(compile_one(&f, 1, sizeof(f), &e), KP_EINVAL);
	ck_assert_str_eq(e.message, "T.a: an ENUM or CODE field needs values");
	kp_schema_field two[2] = { { KP_FIELD_STRING, 0, "a", "A", 8, 0, NULL, NULL, 0, 0, 0 },
				   { KP_FIELD_INT64, 0, "a", "B", 16, 0, NULL, NULL, 0, 0, 0 } };
	ck_assert_int_eq(compile_one(two, 2, sizeof(two[0]), &e), KP_EINVAL);
	ck_assert_str_eq(e.message, "T.a: duplicate JSON name");
	two[1].json = NULL;
	ck_assert_int_eq(compile_one(two, 2, sizeof(two[0]), &e), KP_EINVAL);
	ck_assert_str_eq(e.message, "T[1]: a field needs a JSON name and a Go name");
	ck_assert_int_eq(kp_schema_compile(NULL, &spec_t, &e), KP_EINVAL);
}
END_TEST

/* Field records are read with the provider's record size (libbpf's
 * rec_size): a longer record with zero tail is read, one whose unknown
 * tail is not zero is refused, a shorter one than the first size too. */
START_TEST(record_sizes)
{
	struct longer {
		kp_schema_field f;
		uint64_t tail;
	} recs[2] = { { { KP_FIELD_STRING, 0, "a", "A", 8, 0, NULL, NULL, 0, 0, 0 }, 0 },
		      { { KP_FIELD_INT64, 0, "b", "B", 16, 0, NULL, NULL, 0, 0, 0 }, 0 } };
	kp_error e = KP_ERROR_INIT;
	ck_assert_int_eq(compile_one(&recs[0].f, 2, sizeof(recs[0]), &e), KP_OK);
	recs[1].tail = 1;
	ck_assert_int_eq(compile_one(&recs[0].f, 2, sizeof(recs[0]), &e), KP_EVERSION);
	ck_assert_str_eq(e.message, "kp_schema_field: record has unknown non-zero bytes from offset "
				    "72 (built against a newer library)");
	ck_assert_int_eq(compile_one(&recs[0].f, 2, 8, &e), KP_EVERSION);
	ck_assert_str_eq(e.message, "kp_schema_field: record size 8 is below the smallest known (72)");
	/* the type record itself is size-tagged */
	kp_schema_type t = spec_t;
	t.struct_size = 8;
	kp_schema *s = NULL;
	ck_assert_int_eq(kp_schema_compile(&s, &t, &e), KP_EVERSION);
	ck_assert_ptr_null(s);
}
END_TEST

START_TEST(registration_errors)
{
	kp_registry *reg = NULL;
	kp_error e = KP_ERROR_INIT;
	ck_assert_int_eq(kp_registry_new(&reg, &e), KP_OK);
	kp_kind_spec spec = KP_KIND_SPEC_INIT;
	spec.group = "example.com";
	spec.version = "v1";
	spec.kind = "Spec";
	spec.type = &spec_t; /* no object head */
	uint32_t kind = 5;
	ck_assert_int_eq(kp_registry_add_kind(reg, &spec, NULL, NULL, &kind, &e), KP_EINVAL);
	ck_assert_str_eq(e.message, "WidgetSpec: a kind's type starts with the object head "
				    "(apiVersion at offset 8)");
	ck_assert_uint_eq(kind, KP_KIND_UNKNOWN);
	spec.type = &widget_t;
	spec.kind = "NodePool";
	spec.group = "karpenter.sh";
	ck_assert_int_eq(kp_registry_add_kind(reg, &spec, NULL, NULL, &kind, &e), KP_EINVAL);
	ck_assert_str_eq(e.message, "karpenter.sh/v1 NodePool already registered");
	spec.kind = "Widget";
	spec.hash_root = "metadata.name";
	ck_assert_int_eq(kp_registry_add_kind(reg, &spec, NULL, NULL, &kind, &e), KP_EINVAL);
	spec.hash_root = NULL;
	kp_kind_ops ops = KP_KIND_OPS_INIT;
	ops.abi_major = KP_ABI_MAJOR + 1;
	ops.destroy = destroy;
	destroyed = 0;
	ck_assert_int_eq(kp_registry_add_kind(reg, &spec, &ops, NULL, &kind, &e), KP_EVERSION);
	ck_assert_int_eq(destroyed, 0); /* self stays the caller's on failure */
	ck_assert_int_eq(kp_registry_add_kind(reg, &spec, NULL, NULL, &kind, &e), KP_OK);
	/* without a hash_root or hash slot a kind has no drift hash */
	widget w = { sizeof(widget), kind, NULL, NULL, NULL };
	uint64_t h = 0;
	ck_assert_int_eq(kp_registry_object_hash(reg, kind, &w, NULL, &h, &e), KP_ENOTSUP);
	ck_assert_str_eq(e.message, "Widget has no drift hash");
	ck_assert_int_eq(kp_registry_object_hash(reg, KP_KIND_NODEPOOL, &w, NULL, &h, &e), KP_ENOTSUP);
	ck_assert_int_eq(kp_registry_object_hash(reg, kind + 1, &w, NULL, &h, &e), KP_EINVAL);
	ck_assert_str_eq(kp_registry_kind_name(reg, kind + 1), "");
	ck_assert_str_eq(kp_registry_kind_name(NULL, KP_KIND_POD), "Pod");
	kp_registry_free(reg);
	kp_registry_free(NULL);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("registry");
	TCase *tc = tcase_create("registry");
	tcase_add_test(tc, kind_end_to_end);
	tcase_add_test(tc, strict_decoding_messages);
	tcase_add_test(tc, duration_maps);
	tcase_add_test(tc, json_values);
	tcase_add_test(tc, bad_descriptions);
	tcase_add_test(tc, record_sizes);
	tcase_add_test(tc, registration_errors);
	suite_add_tcase(s, tc);
	return kp_test_run(&s, 1);
}
