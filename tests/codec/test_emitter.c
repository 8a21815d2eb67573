/*
 * The streaming emitter (karpenter/emitter.h) through the public API only:
 * its three JSON styles and YAML, exact bytes; objects written from their
 * structs equal to kp_encode's text and reading back to the same object;
 * the sticky errors (misuse, non-finite numbers, a refusing callback, text
 * that is not JSON) with what was written before them.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <karpenter/karpenter.h>

#include "kp_test.h"

typedef struct sink {
	char *data;
	size_t len;
	int refuse_after; /* calls accepted before refusing; -1 never */
	int calls;
} sink;

static int sink_write(void *ctx, const char *data, size_t len)
{
	sink *s = ctx;
	if (s->refuse_after >= 0 && s->calls >= s->refuse_after) {
		s->calls++;
		return -1;
	}
	s->calls++;
	s->data = realloc(s->data, s->len + len + 1);
	ck_assert_ptr_nonnull(s->data);
	memcpy(s->data + s->len, data, len);
	s->len += len;
	s->data[s->len] = '\0';
	return 0;
}

static kp_emitter *emitter(sink *s, uint32_t format, uint32_t indent)
{
	memset(s, 0, sizeof(*s));
	s->refuse_after = -1;
	kp_emitter_options o = KP_EMITTER_OPTIONS_INIT;
	o.format = format;
	o.indent = indent;
	kp_emitter *em = NULL;
	ck_assert_int_eq(kp_emitter_new(&em, &o, sink_write, s, NULL), KP_OK);
	return em;
}

/* {"a": [1, -2.5, "x\"y"], "b": {}, "c": [], "d": null, "e": true} */
static void sample(kp_emitter *em)
{
	kp_emitter_begin_object(em);
	kp_emitter_key(em, "a");
	kp_emitter_begin_array(em);
	kp_emitter_int(em, 1);
	kp_emitter_number(em, -2.5);
	kp_emitter_string(em, "x\"y");
	kp_emitter_end_array(em);
	kp_emitter_key(em, "b");
	kp_emitter_begin_object(em);
	kp_emitter_end_object(em);
	kp_emitter_key(em, "c");
	kp_emitter_begin_array(em);
	kp_emitter_end_array(em);
	kp_emitter_key(em, "d");
	kp_emitter_string(em, NULL);
	kp_emitter_key(em, "e");
	kp_emitter_bool(em, 1);
	kp_emitter_end_object(em);
}

START_TEST(styles_exact_bytes)
{
	static const struct {
		uint32_t format, indent;
		const char *text;
	} cases[] = {
		{ KP_FORMAT_JSON, KP_EMITTER_INDENT_KUBECTL,
		  "{\n    \"a\": [\n        1,\n        -2.5,\n        \"x\\\"y\"\n    ],\n"
		  "    \"b\": {},\n    \"c\": [],\n    \"d\": null,\n    \"e\": true\n}\n" },
		{ KP_FORMAT_JSON, KP_EMITTER_INDENT_COMPACT,
		  "{\"a\":[1,-2.5,\"x\\\"y\"],\"b\":{},\"c\":[],\"d\":null,\"e\":true}" },
		{ KP_FORMAT_JSON, KP_EMITTER_INDENT_2,
		  "{\n  \"a\": [\n    1,\n    -2.5,\n    \"x\\\"y\"\n  ],\n  \"b\": {},\n"
		  "  \"c\": [],\n  \"d\": null,\n  \"e\": true\n}" },
		{ KP_FORMAT_YAML, 0, "a:\n- 1\n- -2.5\n- x\"y\nb: {}\nc: []\nd: null\ne: true\n" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		sink s;
		kp_emitter *em = emitter(&s, cases[i].format, cases[i].indent);
		sample(em);
		ck_assert_int_eq(kp_emitter_status(em), KP_OK);
		ck_assert_int_eq(kp_emitter_close(em, NULL), KP_OK);
		ck_assert_str_eq(s.data, cases[i].text);
		free(s.data);
	}
}
END_TEST

/* Strings: Go's escapes, invalid UTF-8 as U+FFFD one per byte, NUL inside
 * a counted string, YAML's quoting of what would not read back plain. */
START_TEST(strings_read_back)
{
	sink s;
	kp_emitter *em = emitter(&s, KP_FORMAT_JSON, KP_EMITTER_INDENT_COMPACT);
	kp_emitter_begin_array(em);
	kp_emitter_string(em, "\t\x01\x7f\xe2\x80\xa8\xff");
	kp_emitter_string_n(em, "a\0b", 3);
	kp_emitter_end_array(em);
	ck_assert_int_eq(kp_emitter_close(em, NULL), KP_OK);
	ck_assert_str_eq(s.data, "[\"\\t\\u0001\x7f\\u2028\\ufffd\",\"a\\u0000b\"]");
	free(s.data);
	/* spliced text is read as kp_decode reads JSON: a lone surrogate is
	 * U+FFFD, numbers keep their text, NUL is refused */
	em = emitter(&s, KP_FORMAT_JSON, KP_EMITTER_INDENT_COMPACT);
	static const char spliced[] = " [\"\\ud800x\", 1.50, -0, {\"k\": \"\\u00e9\"}] ";
	ck_assert_int_eq(kp_emitter_json(em, spliced, strlen(spliced)), KP_OK);
	ck_assert_int_eq(kp_emitter_close(em, NULL), KP_OK);
	ck_assert_str_eq(s.data, "[\"\xef\xbf\xbdx\",1.50,-0,{\"k\":\"\xc3\xa9\"}]");
	free(s.data);
	em = emitter(&s, KP_FORMAT_JSON, KP_EMITTER_INDENT_COMPACT);
	ck_assert_int_eq(kp_emitter_json(em, "\"a\\u0000\"", 9), KP_EPARSE);
	ck_assert_int_eq(kp_emitter_close(em, NULL), KP_EPARSE);
	free(s.data);
	em = emitter(&s, KP_FORMAT_YAML, 0);
	kp_emitter_begin_object(em);
	static const char *const v[] = { "yes", "1100m", "0x1F", "a: b", "", "-x", "plain", "\x7f" };
	static const char *const k[] = { "a", "b", "c", "d", "e", "f", "g", "h" };
	for (size_t i = 0; i < 8; i++) {
		kp_emitter_key(em, k[i]);
		kp_emitter_string(em, v[i]);
	}
	kp_emitter_end_object(em);
	ck_assert_int_eq(kp_emitter_close(em, NULL), KP_OK);
	ck_assert_str_eq(s.data, "a: \"yes\"\nb: 1100m\nc: \"0x1F\"\nd: \"a: b\"\ne: \"\"\nf: \"-x\"\n"
				 "g: plain\nh: \"\\u007f\"\n");
	free(s.data);
}
END_TEST

/* An object from its struct is kp_encode's text, and reads back. */
START_TEST(objects_from_structs)
{
	static const char nc_yaml[] =
		"apiVersion: karpenter.sh/v1\nkind: NodeClaim\nmetadata:\n  name: c\n"
		"  labels: {karpenter.sh/nodepool: default, \"a\\\"b\": \"x\\\\y\"}\n"
		"spec:\n  nodeClassRef: {group: karpenter.kwok.sh, kind: KWOKNodeClass, name: default}\n"
		"  requirements: [{key: node.kubernetes.io/instance-type, operator: In, values: [a, b]}]\n"
		"  resources: {requests: {cpu: 1500m, memory: 1Gi}}\n"
		"status:\n  providerID: kwok://x\n  capacity: {cpu: \"4\"}\n";
	kp_error e = KP_ERROR_INIT;
	void *nc = NULL;
	ck_assert_int_eq(kp_decode_one(&nc, KP_KIND_NODECLAIM, nc_yaml, strlen(nc_yaml), NULL, &e),
			 KP_OK);
	char *want = NULL;
	ck_assert_int_eq(kp_encode(&want, NULL, KP_KIND_NODECLAIM, nc, KP_FORMAT_JSON, 0, &e), KP_OK);
	sink s;
	kp_emitter *em = emitter(&s, KP_FORMAT_JSON, KP_EMITTER_INDENT_COMPACT);
	ck_assert_int_eq(kp_encode_emit(em, NULL, KP_KIND_NODECLAIM, nc), KP_OK);
	ck_assert_int_eq(kp_emitter_close(em, NULL), KP_OK);
	ck_assert_str_eq(s.data, want);
	free(s.data);
	/* indented inside a document, in YAML: reads back to the same object */
	for (uint32_t f = KP_FORMAT_JSON; f <= KP_FORMAT_YAML; f++) {
		em = emitter(&s, f, KP_EMITTER_INDENT_KUBECTL);
		ck_assert_int_eq(kp_encode_emit(em, NULL, KP_KIND_NODECLAIM, nc), KP_OK);
		ck_assert_int_eq(kp_emitter_close(em, NULL), KP_OK);
		void *back = NULL;
		ck_assert_int_eq(kp_decode_one(&back, KP_KIND_NODECLAIM, s.data, s.len, NULL, &e),
				 KP_OK);
		char *again = NULL;
		ck_assert_int_eq(kp_encode(&again, NULL, KP_KIND_NODECLAIM, back, KP_FORMAT_JSON, 0, &e),
				 KP_OK);
		ck_assert_str_eq(again, want);
		kp_encoded_free(again);
		kp_object_free(KP_KIND_NODECLAIM, back);
		free(s.data);
	}
	/* an unknown kind writes nothing; the emitter goes on */
	em = emitter(&s, KP_FORMAT_JSON, KP_EMITTER_INDENT_COMPACT);
	ck_assert_int_eq(kp_encode_emit(em, NULL, 9999, nc), KP_EINVAL);
	ck_assert_int_eq(kp_emitter_null(em), KP_OK);
	ck_assert_int_eq(kp_emitter_close(em, NULL), KP_OK);
	ck_assert_str_eq(s.data, "null");
	free(s.data);
	/* an object the encoder refuses half-way (a NULL requirement, which
	 * kp_encode refuses too) fails the emitter: its output is cut short */
	kp_nodeclaim *bad = nc;
	kp_nodeclaim_requirement *first = bad->spec->requirements[0];
	bad->spec->requirements[0] = NULL;
	char *text = NULL;
	ck_assert_int_eq(kp_encode(&text, NULL, KP_KIND_NODECLAIM, bad, KP_FORMAT_JSON, 0, &e),
			 KP_EINVAL);
	ck_assert_str_eq(e.message, "spec.requirements[0]: NULL item in a list");
	em = emitter(&s, KP_FORMAT_JSON, KP_EMITTER_INDENT_COMPACT);
	ck_assert_int_eq(kp_encode_emit(em, NULL, KP_KIND_NODECLAIM, bad), KP_EINVAL);
	ck_assert_int_eq(kp_emitter_status(em), KP_EINVAL);
	ck_assert_int_eq(kp_emitter_null(em), KP_EINVAL); /* sticky */
	ck_assert_int_eq(kp_emitter_close(em, &e), KP_EINVAL);
	free(s.data);
	bad->spec->requirements[0] = first;
	kp_encoded_free(want);
	kp_object_free(KP_KIND_NODECLAIM, nc);
}
END_TEST

START_TEST(sticky_errors)
{
	sink s;
	kp_error e = KP_ERROR_INIT;
	/* a value without a key: what came before is written */
	kp_emitter *em = emitter(&s, KP_FORMAT_JSON, KP_EMITTER_INDENT_KUBECTL);
	kp_emitter_begin_object(em);
	ck_assert_int_eq(kp_emitter_string(em, "x"), KP_EINVAL);
	ck_assert_int_eq(kp_emitter_key(em, "k"), KP_EINVAL); /* sticky */
	ck_assert_int_eq(kp_emitter_close(em, &e), KP_EINVAL);
	ck_assert_str_eq(e.message, "calls out of order");
	ck_assert_str_eq(s.data, "{");
	free(s.data);
	/* a number that is not finite */
	em = emitter(&s, KP_FORMAT_JSON, KP_EMITTER_INDENT_COMPACT);
	ck_assert_int_eq(kp_emitter_number(em, NAN), KP_EINVAL);
	ck_assert_int_eq(kp_emitter_close(em, &e), KP_EINVAL);
	ck_assert_str_eq(e.message, "a number is not finite");
	free(s.data);
	/* an unfinished document, two documents */
	em = emitter(&s, KP_FORMAT_YAML, 0);
	kp_emitter_begin_array(em);
	ck_assert_int_eq(kp_emitter_close(em, NULL), KP_EINVAL);
	free(s.data);
	em = emitter(&s, KP_FORMAT_JSON, KP_EMITTER_INDENT_COMPACT);
	kp_emitter_null(em);
	ck_assert_int_eq(kp_emitter_null(em), KP_EINVAL);
	ck_assert_int_eq(kp_emitter_close(em, NULL), KP_EINVAL);
	free(s.data);
	/* text that is not one JSON value */
	em = emitter(&s, KP_FORMAT_JSON, KP_EMITTER_INDENT_COMPACT);
	ck_assert_int_eq(kp_emitter_json(em, "[1,", 3), KP_EPARSE);
	ck_assert_int_eq(kp_emitter_close(em, NULL), KP_EPARSE);
	free(s.data);
	/* a callback that refuses: nothing more is handed to it */
	em = emitter(&s, KP_FORMAT_JSON, KP_EMITTER_INDENT_COMPACT);
	s.refuse_after = 0;
	kp_emitter_string(em, "x");
	ck_assert_int_eq(kp_emitter_close(em, &e), KP_EIO);
	ck_assert_ptr_null(s.data);
	ck_assert_int_eq(s.calls, 1);
	/* arguments */
	kp_emitter *bad = NULL;
	ck_assert_int_eq(kp_emitter_new(&bad, NULL, NULL, NULL, NULL), KP_EINVAL);
	kp_emitter_options o = KP_EMITTER_OPTIONS_INIT;
	o.format = 7;
	ck_assert_int_eq(kp_emitter_new(&bad, &o, sink_write, &s, &e), KP_EINVAL);
	ck_assert_str_eq(e.field, "format");
	ck_assert_ptr_null(bad);
	ck_assert_int_eq(kp_emitter_close(NULL, NULL), KP_EINVAL);
}
END_TEST

/* A document far larger than the buffer arrives whole, in large writes. */
START_TEST(large_documents_in_large_writes)
{
	sink s;
	kp_emitter *em = emitter(&s, KP_FORMAT_JSON, KP_EMITTER_INDENT_KUBECTL);
	kp_emitter_begin_array(em);
	for (int i = 0; i < 100000; i++)
		kp_emitter_int(em, i);
	kp_emitter_end_array(em);
	ck_assert_int_eq(kp_emitter_close(em, NULL), KP_OK);
	size_t want = 1 + 3; /* "[" and "\n]\n" */
	for (int i = 0; i < 100000; i++)
		want += 5 + (size_t)snprintf(NULL, 0, "%d", i) + (i < 99999);
	ck_assert_uint_eq(s.len, want);
	ck_assert_int_le(s.calls, (int)(want >> 16) + 1); /* 64 KiB writes */
	ck_assert_ptr_nonnull(strstr(s.data, "\n    99999\n]\n"));
	free(s.data);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("emitter");
	TCase *tc = tcase_create("emitter");
	tcase_add_test(tc, styles_exact_bytes);
	tcase_add_test(tc, strings_read_back);
	tcase_add_test(tc, objects_from_structs);
	tcase_add_test(tc, sticky_errors);
	tcase_add_test(tc, large_documents_in_large_writes);
	suite_add_tcase(s, tc);
	return kp_test_run(&s, 1);
}
