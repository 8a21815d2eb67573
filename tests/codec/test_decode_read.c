/*
 * Tests of kp_decode_read (codec.h): an input read piece by piece decodes
 * exactly as kp_decode decodes the same bytes, whatever sizes the reads
 * return (the JSON window is refilled between units and a unit cut by its
 * end is parsed again), including every error; readers that fail; the
 * input limit; and the members no decision reads, which both entry points
 * skip without building them.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#define KP_EXPERIMENTAL_API 1
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <karpenter/codec.h>
#include <karpenter/objects.h>

#include "kp_test.h"
#include "document/tree.h"

#ifndef KP_FIXTURES
#error "KP_FIXTURES must name tests/codec/fixtures"
#endif

/* ---- a reader over a string, in pieces of a fixed size ---- */

typedef struct piece_reader {
	const char *s;
	size_t len, at, piece;
	int fail_at; /* fail (KP_EIO) on this read, counting from 1; 0 never */
	int reads;
	int overflow; /* claim one byte more than the buffer holds */
} piece_reader;

static int read_pieces(void *ctx, char *buf, size_t cap, size_t *n_read, kp_error *err)
{
	piece_reader *r = ctx;
	if (++r->reads == r->fail_at) {
		snprintf(err->message, sizeof(err->message), "disk on fire");
		return KP_EIO;
	}
	size_t n = r->len - r->at;
	if (n > r->piece)
		n = r->piece;
	if (n > cap)
		n = cap;
	memcpy(buf, r->s + r->at, n);
	r->at += n;
	*n_read = r->overflow ? cap + 1 : n;
	return KP_OK;
}

/* One line per decoded object and its encoding, or the error: what two
 * decodes must agree on. */
static char *describe(int rc, kp_decode_result *r, const kp_error *err)
{
	kp__buf b = { 0 };
	if (rc) {
		kp__buf_printf(&b, "error %d [%s] %s\n", rc, err->field, err->message);
		return kp__buf_take(&b, NULL);
	}
	for (size_t i = 0; i < kp_decode_result_count(r); i++) {
		const kp_decoded_object *o = kp_decode_result_at(r, i);
		kp__buf_printf(&b, "%zu.%zu%s %s %s %s/%s\n", o->document, o->item,
			       o->in_list ? " (list)" : "", o->api_version, o->kind_name, o->namespace_,
			       o->name);
		if (o->object) {
			char *text = NULL;
			kp_error e = KP_ERROR_INIT;
			ck_assert_int_eq(kp_encode(&text, NULL, o->kind, o->object, KP_FORMAT_JSON, 0, &e),
					 KP_OK);
			kp__buf_puts(&b, text);
			kp__buf_putc(&b, '\n');
			kp_encoded_free(text);
		}
	}
	for (size_t i = 0; i < kp_decode_result_warning_count(r); i++)
		kp__buf_printf(&b, "warning %s\n", kp_decode_result_warning_at(r, i));
	return kp__buf_take(&b, NULL);
}

static char *decode_whole(const char *s, size_t len, uint32_t flags)
{
	kp_decode_options o = KP_DECODE_OPTIONS_INIT;
	o.flags = flags;
	kp_decode_result *r = NULL;
	kp_error err = KP_ERROR_INIT;
	int rc = kp_decode(&r, s, len, &o, &err);
	char *d = describe(rc, r, &err);
	kp_decode_result_free(r);
	return d;
}

static char *decode_pieces(const char *s, size_t len, size_t piece, uint32_t flags)
{
	kp_decode_options o = KP_DECODE_OPTIONS_INIT;
	o.flags = flags;
	piece_reader pr = { s, len, 0, piece, 0, 0, 0 };
	kp_decode_result *r = NULL;
	kp_error err = KP_ERROR_INIT;
	int rc = kp_decode_read(&r, read_pieces, &pr, &o, &err);
	ck_assert(rc != KP_OK || r != NULL);
	ck_assert(rc == KP_OK || r == NULL);
	char *d = describe(rc, r, &err);
	kp_decode_result_free(r);
	return d;
}

/* Reads of every size, with JSON windows from 2 bytes (a window then ends
 * inside every kind of token) to the default. */
static void assert_same_in_pieces(const char *what, const char *s, size_t len, uint32_t flags)
{
	static const size_t pieces[] = { 1, 2, 3, 7, 64, 4093, 1 << 20 };
	static const size_t windows[] = { 2, 5, 16, 100, 1 << 20 };
	char *want = decode_whole(s, len, flags);
	for (size_t w = 0; w < sizeof(windows) / sizeof(windows[0]); w++) {
		kp__json_window = windows[w];
		for (size_t i = 0; i < sizeof(pieces) / sizeof(pieces[0]); i++) {
			char *got = decode_pieces(s, len, pieces[i], flags);
			ck_assert_msg(strcmp(want, got) == 0,
				      "%s, window %zu, reads of %zu bytes:\n%s\n--- whole:\n%s", what,
				      windows[w], pieces[i], got, want);
			free(got);
		}
	}
	kp__json_window = (size_t)1 << 20;
	free(want);
}

/* A kubectl-style List: four-space indentation, sorted members ("items"
 * before "kind"), CRLF, a BOM, escapes, fields no decision reads. */
static const char kubectl_list[] =
	"\xEF\xBB\xBF{\r\n"
	"    \"apiVersion\": \"v1\",\r\n"
	"    \"items\": [\r\n"
	"        {\r\n"
	"            \"apiVersion\": \"v1\",\r\n"
	"            \"kind\": \"Pod\",\r\n"
	"            \"metadata\": {\r\n"
	"                \"creationTimestamp\": \"2025-06-01T11:00:00Z\",\r\n"
	"                \"labels\": {\"app\": \"web\\/front\", \"tier\": \"caf\\u00e9 \\ud83d\\ude00\"},\r\n"
	"                \"managedFields\": [{\"apiVersion\": \"v1\", \"fieldsType\": \"FieldsV1\", "
	"\"fieldsV1\": {\"f:metadata\": {\"f:labels\": {}}}, \"manager\": \"kubectl\", "
	"\"operation\": \"Update\", \"time\": \"2025-06-01T11:00:00Z\"}],\r\n"
	"                \"name\": \"web-1\",\r\n"
	"                \"namespace\": \"shop\"\r\n"
	"            },\r\n"
	"            \"spec\": {\r\n"
	"                \"containers\": [{\"image\": \"nginx:1.27\", \"name\": \"web\", "
	"\"resources\": {\"requests\": {\"cpu\": \"250m\", \"memory\": \"64Mi\"}}, "
	"\"terminationMessagePath\": \"/dev/termination-log\"}],\r\n"
	"                \"nodeName\": \"node-1\"\r\n"
	"            },\r\n"
	"            \"status\": {\"containerStatuses\": [{\"name\": \"web\", \"ready\": true, "
	"\"restartCount\": 0}], \"phase\": \"Running\", \"qosClass\": \"Burstable\"}\r\n"
	"        },\r\n"
	"        {\r\n"
	"            \"apiVersion\": \"v1\",\r\n"
	"            \"data\": {\"big\": \"a long value\", \"n\": [1, 2.5e3, -0, true, false, null]},\r\n"
	"            \"kind\": \"ConfigMap\",\r\n"
	"            \"metadata\": {\"name\": \"settings\", \"namespace\": \"shop\"}\r\n"
	"        },\r\n"
	"        {\r\n"
	"            \"apiVersion\": \"karpenter.sh/v1\",\r\n"
	"            \"kind\": \"NodePool\",\r\n"
	"            \"metadata\": {\"name\": \"default\"},\r\n"
	"            \"spec\": {\"template\": {\"spec\": {\"nodeClassRef\": {\"group\": "
	"\"karpenter.kwok.sh\", \"kind\": \"KWOKNodeClass\", \"name\": \"default\"}, "
	"\"requirements\": []}}}\r\n"
	"        },\r\n"
	"        {\"apiVersion\": \"v1\", \"items\": [{\"apiVersion\": \"v1\", \"kind\": \"Node\", "
	"\"metadata\": {\"name\": \"node-1\"}, \"status\": {\"images\": [{\"names\": [\"x\"], "
	"\"sizeBytes\": 1}], \"capacity\": {\"cpu\": \"4\"}}}], \"kind\": \"List\"}\r\n"
	"    ],\r\n"
	"    \"kind\": \"List\",\r\n"
	"    \"metadata\": {\r\n"
	"        \"resourceVersion\": \"\"\r\n"
	"    }\r\n"
	"}\r\n"
	"{\"apiVersion\": \"v1\", \"kind\": \"Namespace\", \"metadata\": {\"name\": \"shop\"}}\n"
	"  [] \"a string document\" 17 null\n";

static const char kubectl_yaml[] =
	"apiVersion: v1\n"
	"items:\n"
	"- apiVersion: v1\n"
	"  kind: Pod\n"
	"  metadata:\n"
	"    managedFields:\n"
	"    - &m {manager: kubectl, x: \"y\"}\n"
	"    name: web-1\n"
	"    namespace: shop\n"
	"  spec:\n"
	"    containers:\n"
	"    - {image: nginx, name: web}\n"
	"    nodeSelector: *m\n"
	"  status: {containerStatuses: [{name: web, ready: true}], phase: Running}\n"
	"- apiVersion: v1\n"
	"  kind: ConfigMap\n"
	"  metadata: {name: settings}\n"
	"  data: {a: 1, b: [1, 2, 3]}\n"
	"kind: List\n"
	"metadata:\n"
	"  resourceVersion: \"\"\n"
	"---\n"
	"apiVersion: karpenter.sh/v1\n"
	"kind: NodePool\n"
	"metadata: {name: default}\n"
	"spec: {template: {spec: {nodeClassRef: {group: karpenter.kwok.sh, kind: KWOKNodeClass, "
	"name: default}, requirements: []}}}\n";

START_TEST(pieces_decode_as_the_whole)
{
	assert_same_in_pieces("kubectl JSON List", kubectl_list, sizeof(kubectl_list) - 1, 0);
	assert_same_in_pieces("kubectl JSON List, lenient", kubectl_list, sizeof(kubectl_list) - 1,
			      KP_DECODE_LENIENT);
	assert_same_in_pieces("kubectl YAML", kubectl_yaml, sizeof(kubectl_yaml) - 1, 0);
	/* null documents (skipped) cut by a window, between objects */
	static const char nulls[] = "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":"
				    "\"b\"}}null\nnull null{\"apiVersion\":\"v1\",\"kind\":\"Namespace\","
				    "\"metadata\":{\"name\":\"a\",\"x\":[true,false,null,1e5]}}null";
	assert_same_in_pieces("null documents", nulls, sizeof(nulls) - 1, 0);
	static const char *const fixtures[] = { "pod.yaml", "node.yaml", "list.yaml",
						"nodepool-small.json", "nodepool-full.yaml",
						"nodeclaim.yaml", "storage.yaml", "pdb.yaml" };
	for (size_t i = 0; i < sizeof(fixtures) / sizeof(fixtures[0]); i++) {
		char path[1024];
		snprintf(path, sizeof(path), "%s/%s", KP_FIXTURES, fixtures[i]);
		size_t len = 0;
		char *text = kp_test_read_file(path, &len);
		ck_assert_msg(text != NULL, "cannot read %s", path);
		assert_same_in_pieces(fixtures[i], text, len, 0);
		free(text);
	}
}
END_TEST

/* Every prefix of the input (a truncated file or pipe) and every input
 * with one byte changed gives the same result or error both ways. */
START_TEST(truncated_and_mutated_inputs_agree)
{
	size_t n = sizeof(kubectl_list) - 1;
	char *copy = malloc(n);
	ck_assert_ptr_nonnull(copy);
	for (size_t cut = 0; cut < n; cut += 3) {
		char what[64];
		snprintf(what, sizeof(what), "cut at %zu", cut);
		char *want = decode_whole(kubectl_list, cut, 0);
		kp__json_window = 2 + cut % 13;
		char *got = decode_pieces(kubectl_list, cut, 5, 0);
		ck_assert_msg(strcmp(want, got) == 0, "%s:\n%s\n--- whole:\n%s", what, got, want);
		free(want);
		free(got);
	}
	static const char bytes[] = { '"', ',', ':', '}', ']', '\\', 'x', ' ', '\n', '\x80', '1' };
	for (size_t at = 0; at < n; at += 7) {
		memcpy(copy, kubectl_list, n);
		copy[at] = bytes[at % sizeof(bytes)];
		char *want = decode_whole(copy, n, 0);
		kp__json_window = 2 + at % 11;
		char *got = decode_pieces(copy, n, 3, 0);
		ck_assert_msg(strcmp(want, got) == 0, "byte %zu changed:\n%s\n--- whole:\n%s", at, got,
			      want);
		free(want);
		free(got);
	}
	free(copy);
}
END_TEST

/* A List item larger than the reader's window (1 MiB) grows it. */
START_TEST(an_item_larger_than_the_window)
{
	kp__buf b = { 0 };
	kp__buf_puts(&b, "{\"apiVersion\": \"v1\", \"items\": [");
	for (int k = 0; k < 3; k++) {
		kp__buf_printf(&b, "%s{\"apiVersion\": \"v1\", \"kind\": \"Pod\", \"metadata\": {\"name\": "
				   "\"p%d\", \"annotations\": {\"big\": \"", k ? ", " : "", k);
		for (int i = 0; i < (k == 1 ? 3 << 20 : 100); i++)
			kp__buf_putc(&b, (char)('a' + i % 26));
		kp__buf_puts(&b, "\"}}, \"spec\": {\"containers\": [{\"name\": \"c\", \"image\": \"i\"}]}}");
	}
	kp__buf_puts(&b, "], \"kind\": \"List\"}");
	kp_decode_options o = KP_DECODE_OPTIONS_INIT;
	piece_reader pr = { b.data, b.len, 0, 1 << 16, 0, 0, 0 };
	kp_decode_result *r = NULL;
	kp_error err = KP_ERROR_INIT;
	ck_assert_msg(kp_decode_read(&r, read_pieces, &pr, &o, &err) == KP_OK, "%s", err.message);
	ck_assert_uint_eq(kp_decode_result_count(r), 3);
	ck_assert_str_eq(kp_decode_result_at(r, 2)->name, "p2");
	const kp_pod *pod = kp_decode_result_at(r, 1)->object;
	ck_assert_uint_eq(strlen(kp_labels_get(&pod->metadata->annotations, "big")), 3u << 20);
	kp_decode_result_free(r);
	kp__buf_dispose(&b);
}
END_TEST

START_TEST(reader_failures)
{
	const char *text = "apiVersion: v1\nkind: Namespace\nmetadata: {name: a}\n";
	for (int fail = 1; fail <= 3; fail++) {
		piece_reader pr = { text, strlen(text), 0, 8, fail, 0, 0 };
		kp_decode_result *r = (kp_decode_result *)1;
		kp_error err = KP_ERROR_INIT;
		ck_assert_int_eq(kp_decode_read(&r, read_pieces, &pr, NULL, &err), KP_EIO);
		ck_assert_ptr_null(r);
		ck_assert_str_eq(err.message, "disk on fire");
	}
	piece_reader over = { text, strlen(text), 0, 8, 0, 0, 1 };
	kp_decode_result *r = NULL;
	kp_error err = KP_ERROR_INIT;
	ck_assert_int_eq(kp_decode_read(&r, read_pieces, &over, NULL, &err), KP_EINVAL);
	ck_assert_str_eq(err.message, "the read function returned 4097 bytes for a buffer of 4096");
	ck_assert_int_eq(kp_decode_read(&r, NULL, NULL, NULL, &err), KP_EINVAL);
	/* the input limit counts what is read */
	kp_decode_options o = KP_DECODE_OPTIONS_INIT;
	o.max_bytes = 20;
	piece_reader pr = { text, strlen(text), 0, 8, 0, 0, 0 };
	ck_assert_int_eq(kp_decode_read(&r, read_pieces, &pr, &o, &err), KP_ERANGE);
	ck_assert_str_eq(err.message, "the input is larger than 20 bytes, the limit (max_bytes)");
	ck_assert_str_eq(kp_strerror(KP_EIO), "input could not be read");
}
END_TEST

/* What is skipped is exactly what no decision reads: the same objects as
 * without those members, while a repeated key, bad syntax and an anchor
 * inside them count as before. */
START_TEST(skipped_members)
{
	static const char *const pairs[][2] = {
		{ "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\","
		  "\"managedFields\":[{\"manager\":\"m\",\"fieldsV1\":{\"f:spec\":{}}}]},"
		  "\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"i\",\"env\":[{\"name\":\"A\"}],"
		  "\"livenessProbe\":{\"exec\":{\"command\":[\"x\"]}}}]},"
		  "\"status\":{\"hostIP\":\"10.0.0.1\",\"phase\":\"Running\"}}",
		  "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\"},"
		  "\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"i\"}]},"
		  "\"status\":{\"phase\":\"Running\"}}" },
		{ "apiVersion: v1\nkind: Node\nmetadata:\n  name: n\n  managedFields: [{manager: m}]\n"
		  "status:\n  images: [{names: [a, b], sizeBytes: 1}]\n  capacity: {cpu: \"4\"}\n"
		  "  nodeInfo: {kubeletVersion: v1.31.0}\n",
		  "apiVersion: v1\nkind: Node\nmetadata: {name: n}\nstatus: {capacity: {cpu: \"4\"}}\n" },
		/* an anchor in a skipped member, copied by a member that is read */
		{ "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  managedFields: [&sel {disk: ssd}]\n"
		  "spec:\n  containers: [{name: c, image: i}]\n  nodeSelector: *sel\n",
		  "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n"
		  "spec: {containers: [{name: c, image: i}], nodeSelector: {disk: ssd}}\n" },
	};
	for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		char *a = decode_whole(pairs[i][0], strlen(pairs[i][0]), 0);
		char *b = decode_whole(pairs[i][1], strlen(pairs[i][1]), 0);
		ck_assert_msg(strcmp(a, b) == 0, "pair %zu:\n%s\n---\n%s", i, a, b);
		free(a);
		free(b);
	}
	static const struct {
		const char *text;
		const char *want;
	} errors[] = {
		{ "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\","
		  "\"managedFields\":[],\"managedFields\":[]}}",
		  "error -1 [metadata.managedFields] Pod/p: duplicate field \"metadata.managedFields\"\n" },
		{ "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"data\":{\"a\":tru}}",
		  "error -9 [] line 1: invalid character 't' in literal\n" },
		{ "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"data\":{\"a\":\"\\ud800\\u0000\"}}",
		  "error -9 [] line 1: NUL character (\\u0000) in string is not supported\n" },
		{ "apiVersion: v1\nkind: ConfigMap\ndata: {a: *nowhere}\n",
		  "error -9 [] document 1: line 3: unknown anchor 'nowhere' referenced\n" },
		{ "apiVersion: v1\nkind: ConfigMap\ndata: {a: .inf}\n",
		  "error -9 [] document 1: line 3: json: unsupported value: .inf\n" },
	};
	for (size_t i = 0; i < sizeof(errors) / sizeof(errors[0]); i++) {
		char *got = decode_whole(errors[i].text, strlen(errors[i].text), 0);
		ck_assert_str_eq(got, errors[i].want);
		free(got);
		got = decode_pieces(errors[i].text, strlen(errors[i].text), 2, 0);
		ck_assert_str_eq(got, errors[i].want);
		free(got);
	}
}
END_TEST

static Suite *decode_read_suite(void)
{
	Suite *s = suite_create("decode_read");
	TCase *tc = tcase_create("pieces");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, pieces_decode_as_the_whole);
	tcase_add_test(tc, truncated_and_mutated_inputs_agree);
	tcase_add_test(tc, an_item_larger_than_the_window);
	tcase_add_test(tc, reader_failures);
	tcase_add_test(tc, skipped_members);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	Suite *s = decode_read_suite();
	return kp_test_run(&s, 1);
}
