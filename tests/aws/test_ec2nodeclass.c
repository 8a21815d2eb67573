/*
 * EC2NodeClass through the public provider-kind API, from outside the core:
 * libkarpenter-aws registers the kind (kp_aws_register), kp_decode decodes
 * each upstream vector's manifest with the registry, and
 * kp_registry_object_hash gives the drift hash, which must equal upstream's
 * expected value (../shared/data/hash/vectors.yaml, ec2nodeclass_vector_sets:
 * 62 vectors of aws/karpenter-provider-aws main (v6) and v1.14.1 (v5)).
 * Only public headers and the shared libraries; libyaml reads the data file.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#define KP_EXPERIMENTAL_API 1
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yaml.h>

#include <karpenter/aws_ec2nodeclass.h>
#include <karpenter/codec.h>
#include <karpenter/validation.h>

#include "kp_test.h"

#define VECTORS "hash/vectors.yaml"

/* ---- the data file (libyaml document API) ---------------------------------- */

static yaml_document_t doc;
static char *text;
static size_t text_len;

/* 0 on success (no Check asserts: also used while building the suite). */
static int try_load(void)
{
	text = kp_test_read_file(kp_test_data_path(VECTORS), &text_len);
	if (!text)
		return -1;
	yaml_parser_t p;
	if (!yaml_parser_initialize(&p))
		return -1;
	yaml_parser_set_input_string(&p, (const unsigned char *)text, text_len);
	int ok = yaml_parser_load(&p, &doc);
	if (!ok)
		fprintf(stderr, "%s: %s at line %zu\n", VECTORS, p.problem ? p.problem : "?",
			p.problem_mark.line + 1);
	yaml_parser_delete(&p);
	return ok ? 0 : -1;
}

static void load(void)
{
	ck_assert_int_eq(try_load(), 0);
}

static void unload(void)
{
	yaml_document_delete(&doc);
	free(text);
}

static yaml_node_t *get(yaml_node_t *map, const char *key)
{
	if (!map || map->type != YAML_MAPPING_NODE)
		return NULL;
	for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top;
	     p++) {
		yaml_node_t *k = yaml_document_get_node(&doc, p->key);
		if (k->type == YAML_SCALAR_NODE && !strcmp((const char *)k->data.scalar.value, key))
			return yaml_document_get_node(&doc, p->value);
	}
	return NULL;
}

static const char *str(yaml_node_t *map, const char *key)
{
	yaml_node_t *n = get(map, key);
	return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

static size_t count(yaml_node_t *seq)
{
	return seq && seq->type == YAML_SEQUENCE_NODE
		       ? (size_t)(seq->data.sequence.items.top - seq->data.sequence.items.start)
		       : 0;
}

static yaml_node_t *item(yaml_node_t *seq, size_t i)
{
	return yaml_document_get_node(&doc, seq->data.sequence.items.start[i]);
}

static uint64_t u64(const char *s)
{
	ck_assert_ptr_nonnull(s);
	return strtoull(s, NULL, 10);
}

/* The manifest of a block node as written in the file: from the start of
 * its first line to its end (a YAML document may be indented). */
static char *node_text(yaml_node_t *n)
{
	size_t start = n->start_mark.index, end = n->end_mark.index;
	while (start > 0 && text[start - 1] != '\n')
		start--;
	char *s = malloc(end - start + 1);
	ck_assert_ptr_nonnull(s);
	memcpy(s, text + start, end - start);
	s[end - start] = '\0';
	return s;
}

typedef struct vec {
	yaml_node_t *set;
	yaml_node_t *vector;
} vec;

/* Vector i across the sets, in file order; returns how many there are. */
static size_t vectors(size_t want, vec *out)
{
	yaml_node_t *sets = get(yaml_document_get_root_node(&doc), "ec2nodeclass_vector_sets");
	size_t k = 0;
	for (size_t s = 0; s < count(sets); s++) {
		yaml_node_t *list = get(item(sets, s), "vectors");
		for (size_t i = 0; i < count(list); i++, k++)
			if (out && k == want) {
				out->set = item(sets, s);
				out->vector = item(list, i);
			}
	}
	return k;
}

static uint32_t set_flags(yaml_node_t *set)
{
	const char *v = str(set, "hash_version");
	ck_assert_ptr_nonnull(v);
	if (!strcmp(v, "v6"))
		return 0;
	ck_assert_str_eq(v, "v5");
	return KP_AWS_REGISTER_V1_14;
}

/* A registry with EC2NodeClass for a set's layout and CA bundle. */
static kp_registry *registry_for(yaml_node_t *set, uint32_t *kind)
{
	kp_registry *reg = NULL;
	kp_error e;
	memset(&e, 0, sizeof(e));
	ck_assert_int_eq(kp_registry_new(&reg, &e), KP_OK);
	kp_aws_register_options o = KP_AWS_REGISTER_OPTIONS_INIT;
	o.flags = set_flags(set);
	o.ca_bundle = str(set, "ca_bundle");
	ck_assert_msg(kp_aws_register(reg, &o, kind, &e) == KP_OK, "%s", e.message);
	ck_assert_uint_ge(*kind, KP_KIND_FIRST_REGISTERED);
	return reg;
}

static kp_decode_result *decode(kp_registry *reg, yaml_node_t *object)
{
	char *manifest = node_text(object);
	kp_decode_options o = KP_DECODE_OPTIONS_INIT;
	o.registry = reg;
	kp_decode_result *r = NULL;
	kp_error e;
	memset(&e, 0, sizeof(e));
	int rc = kp_decode(&r, manifest, strlen(manifest), &o, &e);
	ck_assert_msg(rc == KP_OK, "decode: %s (%s)", e.message, e.field);
	free(manifest);
	ck_assert_uint_eq(kp_decode_result_count(r), 1);
	return r;
}

/* ---- tests ------------------------------------------------------------------ */

START_TEST(vector_count)
{
	load();
	ck_assert_uint_eq(vectors(0, NULL), 62);
	unload();
}
END_TEST

START_TEST(vector)
{
	load();
	vec v = { NULL, NULL };
	vectors((size_t)_i, &v);
	ck_assert_ptr_nonnull(v.vector);
	uint32_t kind = 0;
	kp_registry *reg = registry_for(v.set, &kind);
	kp_decode_result *r = decode(reg, get(v.vector, "object"));
	kp_registry_free(reg); /* the result holds the registry */
	const kp_decoded_object *d = kp_decode_result_at(r, 0);
	ck_assert_uint_eq(d->kind, kind);
	ck_assert_str_eq(d->kind_name, "EC2NodeClass");
	const kp_aws_ec2nodeclass *nc = d->object;
	ck_assert_ptr_nonnull(nc);
	ck_assert_uint_eq(nc->kind, kind);
	ck_assert_str_eq(nc->api_version, "karpenter.k8s.aws/v1");
	ck_assert_ptr_nonnull(nc->spec);

	uint64_t got = 0;
	kp_error e;
	memset(&e, 0, sizeof(e));
	/* the kind's hash, reached through the registry the result holds */
	kp_registry *held = NULL;
	ck_assert_int_eq(kp_registry_new(&held, NULL), KP_OK); /* an unrelated registry */
	ck_assert_int_eq(kp_registry_object_hash(held, kind, nc, NULL, &got, &e), KP_EINVAL);
	kp_registry_free(held);
	reg = registry_for(v.set, &kind);
	ck_assert_msg(kp_registry_object_hash(reg, kind, nc, NULL, &got, &e) == KP_OK, "%s: %s",
		      str(v.vector, "name"), e.message);
	ck_assert_str_eq(kp_registry_kind_hash_version(reg, kind), str(v.set, "hash_version"));
	uint64_t want = u64(str(v.vector, "expected_hash"));
	ck_assert_msg(got == want, "%s %s: got %" PRIu64 ", want %" PRIu64,
		      str(v.set, "hash_version"), str(v.vector, "name"), got, want);
	/* the same hash with kubelet.String() given explicitly */
	uint64_t again = 0;
	ck_assert_int_eq(kp_aws_ec2nodeclass_hash(nc, set_flags(v.set), str(v.set, "ca_bundle"),
						  str(v.set, "kubelet_string"), &again, NULL),
			 KP_OK);
	ck_assert(again == want);
	kp_registry_free(reg);
	kp_decode_result_free(r);
	unload();
}
END_TEST

/* inequality_checks: kubelet configurations change the v6 hash through
 * kubelet.String(); the base manifest with kubelet_a (or _b) written in it
 * hashes as upstream's hash with kubelet_string_a (or _b). */
static uint64_t hash_with_kubelet(kp_registry *reg, uint32_t kind, yaml_node_t *base,
				  yaml_node_t *kubelet)
{
	char *m = node_text(base);
	char *k = node_text(kubelet);
	/* base ends with its spec, the object's last member: add kubelet to the
	 * spec, at the indentation of spec.role */
	const char *role = strstr(m, "role:");
	ck_assert_ptr_nonnull(role);
	int indent = 0;
	while (role - indent > m && role[-indent - 1] == ' ')
		indent++;
	/* kubelet_a is a one-line block mapping ("maxPods: 110") */
	const char *line = k;
	while (*line == ' ')
		line++;
	size_t n = strlen(m) + strlen(line) + (size_t)indent + 32;
	char *manifest_text = malloc(n);
	ck_assert_ptr_nonnull(manifest_text);
	snprintf(manifest_text, n, "%s\n%*skubelet: {%s}\n", m, indent, "", line);
	kp_decode_options o = KP_DECODE_OPTIONS_INIT;
	o.registry = reg;
	void *obj = NULL;
	kp_error e = KP_ERROR_INIT;
	ck_assert_msg(kp_decode_one(&obj, kind, manifest_text, strlen(manifest_text), &o, &e) == KP_OK, "%s\n%s",
		      e.message, manifest_text);
	const kp_aws_ec2nodeclass *nc = obj;
	ck_assert_ptr_nonnull(nc->spec->kubelet_json);
	uint64_t h = 0;
	ck_assert_int_eq(kp_registry_object_hash(reg, kind, nc, NULL, &h, &e), KP_OK);
	kp_registry_object_free(reg, kind, obj);
	free(manifest_text);
	free(k);
	free(m);
	return h;
}

START_TEST(kubelet_inequality)
{
	load();
	yaml_node_t *sets = get(yaml_document_get_root_node(&doc), "ec2nodeclass_vector_sets");
	size_t checks = 0;
	for (size_t i = 0; i < count(sets); i++) {
		yaml_node_t *set = item(sets, i);
		yaml_node_t *ineq = get(set, "inequality_checks");
		if (!ineq)
			continue;
		uint32_t kind = 0, flags = set_flags(set);
		kp_registry *reg = registry_for(set, &kind);
		kp_decode_result *r = decode(reg, get(item(get(set, "vectors"), 0), "object"));
		const kp_aws_ec2nodeclass *nc = kp_decode_result_at(r, 0)->object;
		const char *ca = str(set, "ca_bundle");
		for (size_t j = 0; j < count(ineq); j++) {
			uint64_t a = 0, b = 0, none = 0;
			yaml_node_t *c = item(ineq, j);
			ck_assert_int_eq(kp_aws_ec2nodeclass_hash(nc, flags, ca,
								  str(c, "kubelet_string_a"), &a,
								  NULL), KP_OK);
			ck_assert_int_eq(kp_aws_ec2nodeclass_hash(nc, flags, ca,
								  str(c, "kubelet_string_b"), &b,
								  NULL), KP_OK);
			ck_assert_int_eq(kp_registry_object_hash(reg, kind, nc, NULL, &none, NULL),
					 KP_OK);
			ck_assert(a != b);
			ck_assert(a != none && b != none);
			ck_assert(none == u64(str(set, "static_hash")));
			yaml_node_t *base = get(item(get(set, "vectors"), 0), "object");
			ck_assert(hash_with_kubelet(reg, kind, base, get(c, "kubelet_a")) == a);
			ck_assert(hash_with_kubelet(reg, kind, base, get(c, "kubelet_b")) == b);
			checks++;
		}
		kp_decode_result_free(r);
		kp_registry_free(reg);
	}
	ck_assert_uint_eq(checks, 2);
	unload();
}
END_TEST

/* ---- the kind as a core kind ---------------------------------------------- */

static const char manifest[] =
	"apiVersion: karpenter.k8s.aws/v1\n"
	"kind: EC2NodeClass\n"
	"metadata:\n"
	"  name: default\n"
	"spec:\n"
	"  role: KarpenterNodeRole\n"
	"  amiSelectorTerms:\n"
	"  - alias: al2023@latest\n"
	"  blockDeviceMappings:\n"
	"  - deviceName: /dev/xvda\n"
	"    ebs:\n"
	"      volumeSize: 20Gi\n"
	"      encrypted: true\n";

static kp_registry *registry_main(uint32_t *kind)
{
	kp_registry *reg = NULL;
	ck_assert_int_eq(kp_registry_new(&reg, NULL), KP_OK);
	ck_assert_int_eq(kp_aws_register(reg, NULL, kind, NULL), KP_OK);
	return reg;
}

START_TEST(strict_decoding)
{
	uint32_t kind = 0;
	kp_registry *reg = registry_main(&kind);
	kp_decode_options o = KP_DECODE_OPTIONS_INIT;
	o.registry = reg;
	static const char bad[] = "apiVersion: karpenter.k8s.aws/v1\nkind: EC2NodeClass\n"
				  "metadata: {name: x}\nspec:\n  role: r\n  rolle: r\n";
	kp_decode_result *r = NULL;
	kp_error e;
	memset(&e, 0, sizeof(e));
	ck_assert_int_eq(kp_decode(&r, bad, strlen(bad), &o, &e), KP_EINVAL);
	ck_assert_ptr_null(r);
	ck_assert_str_eq(e.message, "EC2NodeClass/x: strict decoding error: unknown field "
				    "\"spec.rolle\"");
	/* without the registry the kind is skipped, as any unmodelled kind */
	ck_assert_int_eq(kp_decode(&r, bad, strlen(bad), NULL, &e), KP_OK);
	ck_assert_uint_eq(kp_decode_result_at(r, 0)->kind, KP_KIND_UNKNOWN);
	ck_assert_ptr_null(kp_decode_result_at(r, 0)->object);
	kp_decode_result_free(r);
	/* kp_decode_one asks for the registered kind by id */
	void *obj = NULL;
	ck_assert_int_eq(kp_decode_one(&obj, kind, manifest, strlen(manifest), &o, &e), KP_OK);
	const kp_aws_ec2nodeclass *nc = obj;
	ck_assert_str_eq(nc->metadata->name, "default");
	ck_assert_str_eq(nc->spec->role, "KarpenterNodeRole");
	ck_assert_uint_eq(nc->spec->n_block_device_mappings, 1);
	ck_assert_str_eq(nc->spec->block_device_mappings[0]->ebs->volume_size, "20Gi");
	ck_assert_uint_eq(nc->spec->block_device_mappings[0]->ebs->has_encrypted, 1);
	kp_registry_object_free(reg, kind, obj);
	kp_registry_free(reg);
}
END_TEST

START_TEST(encode_copy_equal)
{
	uint32_t kind = 0;
	kp_registry *reg = registry_main(&kind);
	ck_assert_str_eq(kp_registry_kind_name(reg, kind), "EC2NodeClass");
	ck_assert_str_eq(kp_registry_kind_api_version(reg, kind), "karpenter.k8s.aws/v1");
	ck_assert_uint_eq(kp_registry_lookup(reg, "karpenter.k8s.aws/v1", "EC2NodeClass"), kind);
	ck_assert_uint_eq(kp_registry_lookup(NULL, "karpenter.k8s.aws/v1", "EC2NodeClass"),
			  KP_KIND_UNKNOWN);
	ck_assert_uint_eq(kp_registry_lookup(reg, "karpenter.sh/v1", "NodePool"), KP_KIND_NODEPOOL);
	kp_decode_options o = KP_DECODE_OPTIONS_INIT;
	o.registry = reg;
	void *obj = NULL;
	ck_assert_int_eq(kp_decode_one(&obj, kind, manifest, strlen(manifest), &o, NULL), KP_OK);
	char *json = NULL;
	ck_assert_int_eq(kp_registry_encode(&json, NULL, reg, kind, obj, KP_FORMAT_JSON, 0, NULL),
			 KP_OK);
	ck_assert_str_eq(json, "{\"apiVersion\":\"karpenter.k8s.aws/v1\",\"kind\":\"EC2NodeClass\","
			       "\"metadata\":{\"name\":\"default\"},\"spec\":{\"amiSelectorTerms\":"
			       "[{\"alias\":\"al2023@latest\"}],\"role\":\"KarpenterNodeRole\","
			       "\"blockDeviceMappings\":[{\"deviceName\":\"/dev/xvda\",\"ebs\":"
			       "{\"encrypted\":true,\"volumeSize\":\"20Gi\"}}]}}");
	/* the core's kp_encode does not know the kind */
	char *none = NULL;
	kp_error e;
	memset(&e, 0, sizeof(e));
	ck_assert_int_eq(kp_encode(&none, NULL, kind, obj, KP_FORMAT_JSON, 0, &e), KP_EINVAL);
	ck_assert_str_eq(e.message, "unknown kind 65536");
	void *copy = NULL;
	ck_assert_int_eq(kp_registry_object_copy(&copy, reg, kind, obj, NULL), KP_OK);
	ck_assert_int_eq(kp_registry_object_equal(reg, kind, obj, copy), 1);
	kp_aws_ec2nodeclass *c = copy;
	c->spec->block_device_mappings[0]->root_volume = 1;
	ck_assert_int_eq(kp_registry_object_equal(reg, kind, obj, copy), 0);
	kp_registry_object_free(reg, kind, copy);
	uint64_t h1 = 0, h2 = 0;
	ck_assert_int_eq(kp_registry_object_hash(reg, kind, obj, NULL, &h1, NULL), KP_OK);
	/* 20Gi is hashed as its Quantity String(), so 20480Mi hashes the same */
	static const char m2[] =
		"apiVersion: karpenter.k8s.aws/v1\nkind: EC2NodeClass\nmetadata:\n  name: other\n"
		"spec:\n  role: KarpenterNodeRole\n  amiSelectorTerms:\n  - alias: al2023@latest\n"
		"  blockDeviceMappings:\n  - deviceName: /dev/xvda\n    ebs:\n"
		"      volumeSize: 20480Mi\n      encrypted: true\n";
	void *obj2 = NULL;
	ck_assert_int_eq(kp_decode_one(&obj2, kind, m2, strlen(m2), &o, NULL), KP_OK);
	ck_assert_int_eq(kp_registry_object_hash(reg, kind, obj2, NULL, &h2, NULL), KP_OK);
	ck_assert(h1 == h2);
	kp_registry_object_free(reg, kind, obj2);
	kp_encoded_free(json);
	kp_registry_object_free(reg, kind, obj);
	kp_registry_free(reg);
}
END_TEST

START_TEST(validate_metadata)
{
	uint32_t kind = 0;
	kp_registry *reg = registry_main(&kind);
	kp_decode_options o = KP_DECODE_OPTIONS_INIT;
	o.registry = reg;
	static const char m[] = "apiVersion: karpenter.k8s.aws/v1\nkind: EC2NodeClass\n"
				"metadata:\n  name: Not_A_Name\n  namespace: x\nspec:\n  role: r\n"
				"  amiSelectorTerms: [{alias: al2023@latest}]\n"
				"  subnetSelectorTerms: [{id: subnet-1}]\n"
				"  securityGroupSelectorTerms: [{id: sg-1}]\n";
	void *obj = NULL;
	ck_assert_int_eq(kp_decode_one(&obj, kind, m, strlen(m), &o, NULL), KP_OK);
	kp_validate_options vo = KP_VALIDATE_OPTIONS_INIT;
	vo.registry = reg;
	kp_validation *v = NULL;
	ck_assert_int_eq(kp_validate(&v, kind, obj, NULL, &vo, NULL), KP_OK);
	/* the API server's metadata checks, with the core's messages and the
	 * kind's own rule ids (the kind's inventory has no metadata rows) */
	ck_assert_uint_eq(kp_validation_count(v), 2);
	const kp_field_error *fe = kp_validation_at(v, 0);
	ck_assert_str_eq(fe->object, "EC2NodeClass/Not_A_Name");
	ck_assert_str_eq(fe->field, "metadata.name");
	ck_assert_str_eq(fe->rule, "EC2NodeClass:metadata.name:dns1123-subdomain");
	ck_assert_str_eq(fe->message,
			 "Invalid value: \"Not_A_Name\": a lowercase RFC 1123 subdomain "
			 "must consist of lower case alphanumeric characters, '-' or '.', and must "
			 "start and end with an alphanumeric character (e.g. 'example.com', regex "
			 "used for validation is "
			 "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')");
	fe = kp_validation_at(v, 1);
	ck_assert_str_eq(fe->field, "metadata.namespace");
	ck_assert_str_eq(fe->rule, "EC2NodeClass:metadata.namespace:forbidden");
	ck_assert_str_eq(fe->message, "Forbidden: not allowed on this type");
	kp_validation_free(v);
	/* without the registry the kind is unknown */
	kp_error e;
	memset(&e, 0, sizeof(e));
	ck_assert_int_eq(kp_validate(&v, kind, obj, NULL, NULL, &e), KP_EINVAL);
	ck_assert_ptr_null(v);
	kp_registry_object_free(reg, kind, obj);
	kp_registry_free(reg);
}
END_TEST

START_TEST(register_errors)
{
	kp_registry *reg = NULL;
	uint32_t kind = 0;
	kp_error e;
	memset(&e, 0, sizeof(e));
	ck_assert_int_eq(kp_registry_new(&reg, NULL), KP_OK);
	ck_assert_int_eq(kp_aws_register(reg, NULL, &kind, &e), KP_OK);
	ck_assert_int_eq(kp_aws_register(reg, NULL, &kind, &e), KP_EINVAL);
	ck_assert_str_eq(e.message, "karpenter.k8s.aws/v1 EC2NodeClass already registered");
	ck_assert_uint_eq(kind, KP_KIND_UNKNOWN);
	ck_assert_int_eq(kp_aws_register(NULL, NULL, &kind, &e), KP_EINVAL);
	kp_aws_register_options o = KP_AWS_REGISTER_OPTIONS_INIT;
	o.flags = 0x80;
	ck_assert_int_eq(kp_aws_register(reg, &o, &kind, &e), KP_EINVAL);
	kp_registry_free(reg);
}
END_TEST


/* status as upstream's status controllers write it (every member of the
 * CRD's status schema), decoded and encoded back to the same JSON; the
 * hash ignores it. */
static const char status_json[] =
	"{\"apiVersion\":\"karpenter.k8s.aws/v1\",\"kind\":\"EC2NodeClass\","
	"\"metadata\":{\"name\":\"default\"},\"spec\":{\"amiSelectorTerms\":"
	"[{\"alias\":\"al2023@latest\"}],\"role\":\"KarpenterNodeRole\"},"
	"\"status\":{\"subnets\":[{\"id\":\"subnet-0a\",\"zone\":\"us-east-1a\","
	"\"zoneID\":\"use1-az1\"},{\"id\":\"subnet-0b\",\"zone\":\"us-east-1b\"}],"
	"\"securityGroups\":[{\"id\":\"sg-01\",\"name\":\"nodes\"},{\"id\":\"sg-02\"}],"
	"\"capacityReservations\":[{\"availabilityZone\":\"us-east-1a\","
	"\"endTime\":\"2025-07-01T00:00:00Z\",\"id\":\"cr-0123\",\"instanceMatchCriteria\":"
	"\"targeted\",\"instanceType\":\"m5.large\",\"interruptible\":true,\"ownerID\":"
	"\"012345678901\",\"reservationType\":\"capacity-block\",\"state\":\"expiring\"},"
	"{\"availabilityZone\":\"us-east-1b\",\"id\":\"cr-0456\",\"instanceMatchCriteria\":"
	"\"open\",\"instanceType\":\"c5.xlarge\",\"ownerID\":\"012345678901\","
	"\"reservationType\":\"default\",\"state\":\"active\"}],"
	"\"amis\":[{\"id\":\"ami-01\",\"deprecated\":true,\"name\":\"al2023-x86\","
	"\"requirements\":[{\"key\":\"kubernetes.io/arch\",\"operator\":\"In\",\"values\":"
	"[\"amd64\"]},{\"key\":\"karpenter.k8s.aws/instance-gpu-count\",\"operator\":"
	"\"DoesNotExist\"}]},{\"id\":\"ami-02\",\"requirements\":[]}],"
	"\"instanceProfile\":\"default_123\",\"conditions\":[{\"type\":\"Ready\","
	"\"status\":\"True\",\"observedGeneration\":1,\"lastTransitionTime\":"
	"\"2025-06-01T00:00:00Z\",\"reason\":\"Ready\",\"message\":\"\"}]}}";

START_TEST(status_round_trip)
{
	uint32_t kind = 0;
	kp_registry *reg = registry_main(&kind);
	kp_decode_options o = KP_DECODE_OPTIONS_INIT;
	o.registry = reg;
	void *obj = NULL;
	kp_error e;
	memset(&e, 0, sizeof(e));
	ck_assert_int_eq(kp_decode_one(&obj, kind, status_json, strlen(status_json), &o, &e),
			 KP_OK);
	const kp_aws_ec2nodeclass *nc = obj;
	ck_assert_uint_eq(nc->struct_size, sizeof(kp_aws_ec2nodeclass));
	const kp_aws_ec2nodeclass_status *st = nc->status;
	ck_assert_ptr_nonnull(st);
	ck_assert_uint_eq(st->n_subnets, 2);
	ck_assert_str_eq(st->subnets[0]->id, "subnet-0a");
	ck_assert_str_eq(st->subnets[0]->zone, "us-east-1a");
	ck_assert_str_eq(st->subnets[0]->zone_id, "use1-az1");
	ck_assert_ptr_null(st->subnets[1]->zone_id);
	ck_assert_uint_eq(st->n_security_groups, 2);
	ck_assert_str_eq(st->security_groups[0]->name, "nodes");
	ck_assert_ptr_null(st->security_groups[1]->name);
	ck_assert_uint_eq(st->n_capacity_reservations, 2);
	const kp_aws_capacity_reservation_status *cr = st->capacity_reservations[0];
	ck_assert_str_eq(cr->id, "cr-0123");
	ck_assert_str_eq(cr->availability_zone, "us-east-1a");
	ck_assert_str_eq(cr->instance_type, "m5.large");
	ck_assert_str_eq(cr->instance_match_criteria, "targeted");
	ck_assert_str_eq(cr->owner_id, "012345678901");
	ck_assert_str_eq(cr->reservation_type, "capacity-block");
	ck_assert_str_eq(cr->state, "expiring");
	ck_assert_uint_eq(cr->interruptible, 1);
	ck_assert(cr->end_time_ms == (int64_t)1751328000000);
	ck_assert(st->capacity_reservations[1]->end_time_ms == 0);
	ck_assert_uint_eq(st->n_amis, 2);
	ck_assert_uint_eq(st->amis[0]->deprecated, 1);
	ck_assert_uint_eq(st->amis[0]->n_requirements, 2);
	ck_assert_str_eq(st->amis[0]->requirements[0]->operator_, "In");
	ck_assert_uint_eq(st->amis[0]->requirements[0]->n_values, 1);
	ck_assert_str_eq(st->amis[0]->requirements[0]->values[0], "amd64");
	ck_assert_uint_eq(st->amis[0]->requirements[1]->n_values, 0);
	ck_assert_uint_eq(st->amis[1]->n_requirements, 0);
	ck_assert_str_eq(st->instance_profile, "default_123");
	ck_assert_uint_eq(st->n_conditions, 1);
	ck_assert_str_eq(st->conditions[0]->type, "Ready");
	char *json = NULL;
	ck_assert_int_eq(kp_registry_encode(&json, NULL, reg, kind, obj, KP_FORMAT_JSON, 0, &e),
			 KP_OK);
	ck_assert_str_eq(json, status_json);
	/* status is not hashed: the same spec without it hashes the same */
	uint64_t h1 = 0, h2 = 0;
	ck_assert_int_eq(kp_registry_object_hash(reg, kind, obj, NULL, &h1, NULL), KP_OK);
	kp_aws_ec2nodeclass *m = obj;
	kp_aws_ec2nodeclass_status *keep = m->status;
	m->status = NULL;
	ck_assert_int_eq(kp_registry_object_hash(reg, kind, obj, NULL, &h2, NULL), KP_OK);
	m->status = keep;
	ck_assert(h1 == h2);
	/* a member the CRD's status does not have is refused, as any */
	static const char bad[] = "apiVersion: karpenter.k8s.aws/v1\nkind: EC2NodeClass\n"
				  "metadata: {name: x}\nspec: {role: r}\n"
				  "status: {subnets: [{id: subnet-1, zone: a, zonee: b}]}\n";
	void *b = NULL;
	ck_assert_int_eq(kp_decode_one(&b, kind, bad, strlen(bad), &o, &e), KP_EINVAL);
	ck_assert_str_eq(e.message, "EC2NodeClass/x: strict decoding error: unknown field "
				    "\"status.subnets[0].zonee\"");
	kp_encoded_free(json);
	kp_registry_object_free(reg, kind, obj);
	kp_registry_free(reg);
}
END_TEST

static Suite *ec2nodeclass_suite(void)
{
	Suite *s = suite_create("aws-ec2nodeclass");
	TCase *tc = tcase_create("vectors");
	size_t n = 0;
	if (try_load() == 0) {
		n = vectors(0, NULL);
		unload();
	}
	tcase_add_test(tc, vector_count);
	tcase_add_loop_test(tc, vector, 0, (int)n);
	tcase_add_test(tc, kubelet_inequality);
	suite_add_tcase(s, tc);
	tc = tcase_create("kind");
	tcase_add_test(tc, strict_decoding);
	tcase_add_test(tc, encode_copy_equal);
	tcase_add_test(tc, status_round_trip);
	tcase_add_test(tc, validate_metadata);
	tcase_add_test(tc, register_errors);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	kp_test_require_data(VECTORS);
	Suite *s = ec2nodeclass_suite();
	return kp_test_run(&s, 1);
}
