/*
 * Tests of kubectl-karpenter's document writers (tools/kubectl-karpenter/
 * output.c): what -o json and -o yaml write reads back as the same document
 * (with cJSON, and with libyaml typed as go-yaml v2 / sigs.k8s.io/yaml
 * types plain scalars, through the library's YAML reader), strings that are
 * not UTF-8 read back with U+FFFD as Go's encoding/json writes them, and a
 * number that is not finite is refused, never written as 0 or "inf"; the
 * streaming writer (writer.c) writes exact text in every container
 * context, splices JSON text as the cJSON path did, and reports misuse,
 * non-finite numbers and a stream that refuses output.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#define _POSIX_C_SOURCE 200809L /* open_memstream */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yaml.h>

#include "kp_test.h"
#include "kp_test_strings.h"
#include "document/tree.h"
#include "output.h"
#include "writer.h"

/* ---- helpers ---- */

typedef int (*writer)(FILE *, const cJSON *, char **);

/* What a writer writes (malloc'ed), its return code in *rc and the bad
 * path in *bad (malloc'ed or NULL). */
static char *write_doc(writer w, const cJSON *doc, int *rc, char **bad)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	ck_assert_ptr_nonnull(f);
	char *path = NULL;
	*rc = w(f, doc, &path);
	ck_assert_int_eq(fclose(f), 0);
	if (bad)
		*bad = path;
	else
		free(path);
	return text;
}

static char *write_ok(writer w, const cJSON *doc)
{
	int rc;
	char *text = write_doc(w, doc, &rc, NULL);
	ck_assert_int_eq(rc, CLI_OUTPUT_OK);
	return text;
}

/* ck_assert_str_eq for texts longer than Check's message limit: the two
 * texts go to stderr. */
static void assert_text_eq(const char *got, const char *want)
{
	if (strcmp(got, want) == 0)
		return;
	fprintf(stderr, "got:\n%s\nwant:\n%s\n", got, want);
	ck_abort_msg("texts differ (see stderr)");
}

/* The library's tree as cJSON: numbers through strtod. */
static cJSON *node_to_cjson(const kp__node *n)
{
	switch (n->type) {
	case KP__N_NULL: return cJSON_CreateNull();
	case KP__N_BOOL: return cJSON_CreateBool(n->boolean);
	case KP__N_NUMBER: return cJSON_CreateNumber(strtod(n->text, NULL));
	case KP__N_STRING: return cJSON_CreateString(n->text);
	case KP__N_ARRAY: {
		cJSON *a = cJSON_CreateArray();
		for (size_t i = 0; i < n->n; i++)
			cJSON_AddItemToArray(a, node_to_cjson(n->items[i]));
		return a;
	}
	default: {
		cJSON *o = cJSON_CreateObject();
		for (size_t i = 0; i < n->n; i++)
			cJSON_AddItemToObject(o, n->keys[i], node_to_cjson(n->items[i]));
		return o;
	}
	}
}

/* Read YAML as Kubernetes clients do (go-yaml v2 typing, then JSON). */
static cJSON *read_yaml(const char *text)
{
	kp__budget b = { (size_t)1 << 22, 0, (size_t)1 << 26, 0, 200, NULL, 0, 0 };
	kp__node *docs = NULL;
	kp_error e = KP_ERROR_INIT;
	int rc = kp__yaml_parse(&docs, text, strlen(text), &b, &e);
	ck_assert_msg(rc == KP_OK, "YAML does not read back: %s\n%s", e.message, text);
	ck_assert_uint_eq(docs->n, 1);
	cJSON *j = node_to_cjson(docs->items[0]);
	kp__node_free(docs);
	return j;
}

/* Whether a plain scalar is something other than a string for a YAML 1.2
 * core-schema reader (null, bool, int, float). */
static int core_schema_typed(const char *s)
{
	static const char *const words[] = { "", "~", "null", "Null", "NULL", "true", "True", "TRUE",
					     "false", "False", "FALSE", ".inf", ".Inf", ".INF",
					     "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF",
					     ".nan", ".NaN", ".NAN" };
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (!strcmp(s, words[i]))
			return 1;
	const char *p = s;
	if ((p[0] == '0' && p[1] == 'o' && p[2] && strspn(p + 2, "01234567") == strlen(p + 2)) ||
	    (p[0] == '0' && p[1] == 'x' && p[2] &&
	     strspn(p + 2, "0123456789abcdefABCDEF") == strlen(p + 2)))
		return 1;
	if (*p == '-' || *p == '+')
		p++;
	size_t d = strspn(p, "0123456789");
	p += d;
	size_t f = 0;
	if (*p == '.') {
		p++;
		f = strspn(p, "0123456789");
		p += f;
	}
	if (!d && !f)
		return 0;
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '-' || *p == '+')
			p++;
		size_t x = strspn(p, "0123456789");
		if (!x)
			return 0;
		p += x;
	}
	return *p == '\0';
}

/* Every plain scalar of text (keys and values) stays a string for a YAML
 * 1.2 core-schema reader too (the library's reader checks YAML 1.1). */
static void assert_plain_scalars_are_strings(const char *text)
{
	yaml_parser_t p;
	ck_assert(yaml_parser_initialize(&p));
	yaml_parser_set_input_string(&p, (const unsigned char *)text, strlen(text));
	for (;;) {
		yaml_event_t ev;
		ck_assert_msg(yaml_parser_parse(&p, &ev), "libyaml: %s\n%s", p.problem, text);
		int done = ev.type == YAML_STREAM_END_EVENT;
		if (ev.type == YAML_SCALAR_EVENT && ev.data.scalar.style == YAML_PLAIN_SCALAR_STYLE)
			ck_assert_msg(!core_schema_typed((const char *)ev.data.scalar.value),
				      "plain scalar '%s' is not a string in YAML 1.2:\n%s",
				      (const char *)ev.data.scalar.value, text);
		yaml_event_delete(&ev);
		if (done)
			break;
	}
	yaml_parser_delete(&p);
}

/* ---- random documents ---- */

/* A random value and, in *want, what it reads back as (strings sanitized).
 * strings_only: every scalar is a string. */
static cJSON *random_value(kp_ts_rng *r, int depth, int strings_only, cJSON **want)
{
	uint32_t k = kp_ts_next(r) % (depth >= 3 ? 1 : 4);
	if (k == 0 || k == 3) {
		uint32_t t = strings_only ? 0 : kp_ts_next(r) % 6;
		if (t == 1) {
			static const double nums[] = { 0, 1, -1, 0.5, 1.525, 1e-05, 1e21, 1.7e308,
						       -2.5e-308, 123456789012345678.0, 1e15, 0.1 };
			double d = nums[kp_ts_next(r) % (sizeof(nums) / sizeof(nums[0]))];
			if (kp_ts_next(r) % 2)
				d = (double)kp_ts_next(r) / 7.0 - 1e5;
			*want = cJSON_CreateNumber(d);
			return cJSON_CreateNumber(d);
		}
		if (t == 2) {
			int b = (int)(kp_ts_next(r) % 2);
			*want = cJSON_CreateBool(b);
			return cJSON_CreateBool(b);
		}
		if (t == 3) {
			*want = cJSON_CreateNull();
			return cJSON_CreateNull();
		}
		char *s = kp_ts_random_string(r), *w = kp_ts_sanitize(s);
		cJSON *v = cJSON_CreateString(s);
		*want = cJSON_CreateString(w);
		free(s);
		free(w);
		return v;
	}
	int obj = k == 1;
	cJSON *v = obj ? cJSON_CreateObject() : cJSON_CreateArray();
	*want = obj ? cJSON_CreateObject() : cJSON_CreateArray();
	int n = (int)(kp_ts_next(r) % 5);
	for (int i = 0; i < n; i++) {
		cJSON *cw = NULL;
		cJSON *c = random_value(r, depth + 1, strings_only, &cw);
		if (!obj) {
			cJSON_AddItemToArray(v, c);
			cJSON_AddItemToArray(*want, cw);
			continue;
		}
		char *key = kp_ts_random_string(r), *wk = kp_ts_sanitize(key);
		if (cJSON_GetObjectItemCaseSensitive(*want, wk)) { /* keys stay distinct */
			cJSON_Delete(c);
			cJSON_Delete(cw);
		} else {
			cJSON_AddItemToObject(v, key, c);
			cJSON_AddItemToObject(*want, wk, cw);
		}
		free(key);
		free(wk);
	}
	return v;
}

START_TEST(random_documents_read_back)
{
	kp_ts_rng rng = { 0xC0FFEE1234567ull + (uint64_t)_i };
	for (int iter = 0; iter < 100; iter++) {
		int strings_only = iter % 2;
		cJSON *want = NULL;
		cJSON *doc = cJSON_CreateObject();
		cJSON *w = cJSON_CreateObject();
		for (int i = 0; i < 4; i++) {
			cJSON *cw = NULL;
			cJSON *c = random_value(&rng, 0, strings_only, &cw);
			char *key = kp_ts_random_string(&rng), *wk = kp_ts_sanitize(key);
			if (cJSON_GetObjectItemCaseSensitive(w, wk)) {
				cJSON_Delete(c);
				cJSON_Delete(cw);
			} else {
				cJSON_AddItemToObject(doc, key, c);
				cJSON_AddItemToObject(w, wk, cw);
			}
			free(key);
			free(wk);
		}
		want = w;

		char *json = write_ok(cli_output_json, doc);
		cJSON *back = cJSON_Parse(json);
		ck_assert_msg(back != NULL, "iteration %d: JSON does not parse:\n%s", iter, json);
		ck_assert_msg(cJSON_Compare(back, want, 1), "iteration %d: JSON reads back different:\n%s",
			      iter, json);
		cJSON_Delete(back);

		char *yaml = write_ok(cli_output_yaml, doc);
		back = read_yaml(yaml);
		if (!cJSON_Compare(back, want, 1)) {
			char *got = cJSON_Print(back);
			ck_abort_msg("iteration %d: YAML reads back different:\n%s\nas\n%s", iter, yaml, got);
		}
		cJSON_Delete(back);
		if (strings_only)
			assert_plain_scalars_are_strings(yaml);
		free(json);
		free(yaml);
		cJSON_Delete(doc);
		cJSON_Delete(want);
	}
}
END_TEST

/* ---- exact text ---- */

static cJSON *one_string(const char *key, const char *value)
{
	cJSON *doc = cJSON_CreateObject();
	cJSON_AddStringToObject(doc, key, value);
	return doc;
}

/* The names: DEL and NEL, then C1, LS/PS, BOM, U+FFFE/FFFF and
 * invalid UTF-8; JSON writes what Go's encoding/json writes. */
START_TEST(escapes_exact_text)
{
	static const struct {
		const char *in, *json, *yaml;
	} cases[] = {
		{ "\x7f", "\"\x7f\"", "\"\\u007f\"" },
		{ "\xc2\x85x", "\"\xc2\x85x\"", "\"\\u0085x\"" },
		{ "\xc2\x80\xc2\x9f\xc2\xa0", "\"\xc2\x80\xc2\x9f\xc2\xa0\"", "\"\\u0080\\u009f\xc2\xa0\"" },
		{ "\xe2\x80\xa8\xe2\x80\xa9", "\"\\u2028\\u2029\"", "\"\\u2028\\u2029\"" },
		{ "\xef\xbb\xbf\xef\xbf\xbe\xef\xbf\xbf\xef\xbf\xbd",
		  "\"\xef\xbb\xbf\xef\xbf\xbe\xef\xbf\xbf\xef\xbf\xbd\"",
		  "\"\\ufeff\\ufffe\\uffff\xef\xbf\xbd\"" },
		{ "a\xff" "b\xe2\x80" "c\xed\xa0\x80", "\"a\\ufffdb\\ufffd\\ufffdc\\ufffd\\ufffd\\ufffd\"",
		  "\"a\\ufffdb\\ufffd\\ufffdc\\ufffd\\ufffd\\ufffd\"" },
		{ "\x01\t\x1b", "\"\\u0001\\t\\u001b\"", "\"\\u0001\\t\\u001b\"" },
		{ "é", "\"é\"", "\"é\"" },
		{ "1100m", "\"1100m\"", "1100m" },
		{ "yes", "\"yes\"", "\"yes\"" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		cJSON *doc = one_string("name", cases[i].in);
		char *json = write_ok(cli_output_json, doc);
		char *yaml = write_ok(cli_output_yaml, doc);
		char want[128];
		snprintf(want, sizeof(want), "{\n    \"name\": %s\n}\n", cases[i].json);
		ck_assert_str_eq(json, want);
		snprintf(want, sizeof(want), "name: %s\n", cases[i].yaml);
		ck_assert_str_eq(yaml, want);
		free(json);
		free(yaml);
		/* as a key too */
		cJSON_Delete(doc);
		doc = one_string(cases[i].in, "v");
		json = write_ok(cli_output_json, doc);
		yaml = write_ok(cli_output_yaml, doc);
		snprintf(want, sizeof(want), "{\n    %s: \"v\"\n}\n", cases[i].json);
		ck_assert_str_eq(json, want);
		snprintf(want, sizeof(want), "%s: v\n", cases[i].yaml);
		ck_assert_str_eq(yaml, want);
		free(json);
		free(yaml);
		cJSON_Delete(doc);
	}
}
END_TEST

/* Ordinary documents are written as before, byte for byte. */
START_TEST(ordinary_text_unchanged)
{
	cJSON *doc = cJSON_Parse("{\"nodeClaims\": [{\"nodeClaim\": {\"metadata\": {\"name\": \"default-1\","
				 "\"labels\": {\"karpenter.sh/nodepool\": \"default\"}}, \"spec\": {\"x\": [],"
				 "\"y\": {}}}, \"price\": 0.0832}], \"pods\": [{\"namespace\": \"team-a\","
				 "\"name\": \"a b\", \"node\": null, \"reasons\": [[1, \"2\"]], \"ok\": true}],"
				 "\"cost\": 1e-05, \"big\": 1e21, \"n\": 3}");
	ck_assert_ptr_nonnull(doc);
	char *json = write_ok(cli_output_json, doc);
	char *yaml = write_ok(cli_output_yaml, doc);
	ck_assert_str_eq(json, "{\n"
			       "    \"nodeClaims\": [\n"
			       "        {\n"
			       "            \"nodeClaim\": {\n"
			       "                \"metadata\": {\n"
			       "                    \"name\": \"default-1\",\n"
			       "                    \"labels\": {\n"
			       "                        \"karpenter.sh/nodepool\": \"default\"\n"
			       "                    }\n"
			       "                },\n"
			       "                \"spec\": {\n"
			       "                    \"x\": [],\n"
			       "                    \"y\": {}\n"
			       "                }\n"
			       "            },\n"
			       "            \"price\": 0.0832\n"
			       "        }\n"
			       "    ],\n"
			       "    \"pods\": [\n"
			       "        {\n"
			       "            \"namespace\": \"team-a\",\n"
			       "            \"name\": \"a b\",\n"
			       "            \"node\": null,\n"
			       "            \"reasons\": [\n"
			       "                [\n"
			       "                    1,\n"
			       "                    \"2\"\n"
			       "                ]\n"
			       "            ],\n"
			       "            \"ok\": true\n"
			       "        }\n"
			       "    ],\n"
			       "    \"cost\": 1e-05,\n"
			       "    \"big\": 1e+21,\n"
			       "    \"n\": 3\n"
			       "}\n");
	ck_assert_str_eq(yaml, "nodeClaims:\n"
			       "- nodeClaim:\n"
			       "    metadata:\n"
			       "      name: default-1\n"
			       "      labels:\n"
			       "        karpenter.sh/nodepool: default\n"
			       "    spec:\n"
			       "      x: []\n"
			       "      \"y\": {}\n"
			       "  price: 0.0832\n"
			       "pods:\n"
			       "- namespace: team-a\n"
			       "  name: a b\n"
			       "  node: null\n"
			       "  reasons:\n"
			       "  -\n"
			       "    - 1\n"
			       "    - \"2\"\n"
			       "  ok: true\n"
			       "cost: 1.0e-05\n"
			       "big: 1.0e+21\n"
			       "\"n\": 3\n");
	free(json);
	free(yaml);
	cJSON_Delete(doc);
}
END_TEST

/* A key longer than a YAML simple key may be is written "? key", in a
 * mapping, in a sequence item, before a scalar, a mapping and a sequence. */
START_TEST(long_keys_read_back)
{
	char key[1101];
	memset(key, 'k', sizeof(key) - 1);
	key[sizeof(key) - 1] = '\0';
	cJSON *doc = cJSON_CreateObject();
	cJSON_AddStringToObject(doc, key, "v");
	cJSON *m = cJSON_AddObjectToObject(doc, "m");
	cJSON_AddNumberToObject(cJSON_AddObjectToObject(m, key), "a", 1);
	cJSON *seq = cJSON_AddArrayToObject(doc, "s");
	cJSON *item = cJSON_CreateObject();
	cJSON_AddItemToArray(seq, item);
	cJSON *inner = cJSON_AddArrayToObject(item, key);
	cJSON_AddItemToArray(inner, cJSON_CreateString("x"));
	cJSON_AddItemToArray(inner, cJSON_CreateString("y"));
	cJSON_AddStringToObject(item, "after", "z");
	char *yaml = write_ok(cli_output_yaml, doc);
	char *want = malloc(8192);
	snprintf(want, 8192, "? %s\n: v\nm:\n  ? %s\n  :\n    a: 1\ns:\n- ? %s\n  :\n  - x\n  - \"y\"\n  after: z\n",
		 key, key, key);
	assert_text_eq(yaml, want);
	cJSON *back = read_yaml(yaml);
	ck_assert(cJSON_Compare(back, doc, 1));
	cJSON_Delete(back);
	free(want);
	free(yaml);
	/* A key just short enough stays a simple key. */
	key[1000] = '\0';
	cJSON_Delete(doc);
	doc = one_string(key, "v");
	yaml = write_ok(cli_output_yaml, doc);
	ck_assert_uint_eq(strlen(yaml), 1000 + 4);
	back = read_yaml(yaml);
	ck_assert(cJSON_Compare(back, doc, 1));
	cJSON_Delete(back);
	free(yaml);
	cJSON_Delete(doc);
}
END_TEST

/* ---- numbers that are not finite ---- */

START_TEST(nonfinite_refused)
{
	static const struct {
		const char *json; /* inf/nan spelled as 1e999 / marker */
		const char *path;
	} cases[] = {
		{ "{\"nodeClaims\": [{\"price\": 1}, {\"price\": \"INF\"}], \"cost\": \"INF\"}",
		  "nodeClaims[1].price" },
		{ "{\"nodeClaims\": [{\"price\": 1}], \"pods\": [], \"cost\": \"INF\"}", "cost" },
		{ "{\"cost\": \"NAN\"}", "cost" },
		{ "{\"a.b\": {\"x\": [[0, \"-INF\"]]}}", "[\"a.b\"].x[0][1]" },
		{ "\"INF\"", "(the document)" },
	};
	const writer writers[] = { cli_output_json, cli_output_yaml };
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		cJSON *doc = cJSON_Parse(cases[i].json);
		ck_assert_ptr_nonnull(doc);
		/* Replace the markers by the non-finite numbers. */
		cJSON *stack[16];
		int sp = 0;
		stack[sp++] = doc;
		while (sp) {
			cJSON *v = stack[--sp];
			if (cJSON_IsString(v) && (!strcmp(v->valuestring, "INF") ||
						  !strcmp(v->valuestring, "-INF") ||
						  !strcmp(v->valuestring, "NAN"))) {
				double d = !strcmp(v->valuestring, "NAN") ? NAN
					   : v->valuestring[0] == '-'     ? -INFINITY
									  : INFINITY;
				cJSON_free(v->valuestring);
				v->valuestring = NULL;
				v->type = cJSON_Number;
				v->valuedouble = d;
			}
			for (cJSON *c = v->child; c; c = c->next)
				stack[sp++] = c;
		}
		for (int w = 0; w < 2; w++) {
			int rc;
			char *bad = NULL;
			char *text = write_doc(writers[w], doc, &rc, &bad);
			ck_assert_int_eq(rc, CLI_OUTPUT_NONFINITE);
			ck_assert_str_eq(text, ""); /* nothing written: never 0, never inf */
			ck_assert_str_eq(bad, cases[i].path);
			char *found = NULL;
			ck_assert_int_eq(cli_output_find_nonfinite(doc, &found), CLI_OUTPUT_NONFINITE);
			ck_assert_str_eq(found, cases[i].path);
			free(found);
			free(bad);
			free(text);
		}
		cJSON_Delete(doc);
	}
	/* The largest finite numbers are written, and read back. */
	cJSON *doc = cJSON_CreateObject();
	cJSON_AddNumberToObject(doc, "cost", 1.7e308);
	cJSON_AddNumberToObject(doc, "min", -1.7976931348623157e308);
	char *found = (char *)1;
	ck_assert_int_eq(cli_output_find_nonfinite(doc, &found), CLI_OUTPUT_OK);
	ck_assert_ptr_null(found);
	char *json = write_ok(cli_output_json, doc);
	ck_assert_str_eq(json, "{\n    \"cost\": 1.7e+308,\n    \"min\": -1.7976931348623157e+308\n}\n");
	char *yaml = write_ok(cli_output_yaml, doc);
	ck_assert_str_eq(yaml, "cost: 1.7e+308\nmin: -1.7976931348623157e+308\n");
	cJSON *back = read_yaml(yaml);
	ck_assert(cJSON_Compare(back, doc, 1));
	cJSON_Delete(back);
	free(json);
	free(yaml);
	cJSON_Delete(doc);
}
END_TEST

/* ---- the streaming writer ---- */

/* What a sequence of writer calls writes (malloc'ed); its close code in *rc. */
typedef void (*calls)(cli_writer *w);

static char *stream(enum cli_writer_format fmt, calls c, int *rc)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	ck_assert_ptr_nonnull(f);
	cli_writer *w = cli_writer_new(f, fmt);
	ck_assert_ptr_nonnull(w);
	c(w);
	*rc = cli_writer_close(w, f);
	ck_assert_int_eq(fclose(f), 0);
	return text;
}

/* Every container context: empty and not, as a member, an item, nested. */
static void every_context(cli_writer *w)
{
	kp_emitter_begin_object(w);
	kp_emitter_key(w, "a");
	kp_emitter_begin_object(w);
	kp_emitter_end_object(w);
	kp_emitter_key(w, "b");
	kp_emitter_begin_array(w);
	kp_emitter_end_array(w);
	kp_emitter_key(w, "c");
	kp_emitter_begin_array(w);
	kp_emitter_begin_object(w);
	kp_emitter_key(w, "x");
	kp_emitter_number(w, 1);
	kp_emitter_key(w, "y");
	kp_emitter_begin_array(w);
	kp_emitter_string(w, "s");
	kp_emitter_end_array(w);
	kp_emitter_end_object(w);
	kp_emitter_begin_array(w);
	kp_emitter_bool(w, 1);
	kp_emitter_begin_array(w);
	kp_emitter_end_array(w);
	kp_emitter_end_array(w);
	kp_emitter_begin_object(w);
	kp_emitter_end_object(w);
	kp_emitter_null(w);
	kp_emitter_end_array(w);
	kp_emitter_key(w, "d");
	kp_emitter_begin_object(w);
	kp_emitter_key(w, "e");
	kp_emitter_number(w, 1e-05);
	kp_emitter_end_object(w);
	kp_emitter_end_object(w);
}

START_TEST(stream_exact_text)
{
	int rc;
	char *json = stream(CLI_WRITER_JSON, every_context, &rc);
	ck_assert_int_eq(rc, 0);
	assert_text_eq(json, "{\n"
			     "    \"a\": {},\n"
			     "    \"b\": [],\n"
			     "    \"c\": [\n"
			     "        {\n"
			     "            \"x\": 1,\n"
			     "            \"y\": [\n"
			     "                \"s\"\n"
			     "            ]\n"
			     "        },\n"
			     "        [\n"
			     "            true,\n"
			     "            []\n"
			     "        ],\n"
			     "        {},\n"
			     "        null\n"
			     "    ],\n"
			     "    \"d\": {\n"
			     "        \"e\": 1e-05\n"
			     "    }\n"
			     "}\n");
	char *yaml = stream(CLI_WRITER_YAML, every_context, &rc);
	ck_assert_int_eq(rc, 0);
	assert_text_eq(yaml, "a: {}\n"
			     "b: []\n"
			     "c:\n"
			     "- x: 1\n"
			     "  \"y\":\n" /* YAML 1.1's "yes" */
			     "  - s\n"
			     "-\n"
			     "  - true\n"
			     "  - []\n"
			     "- {}\n"
			     "- null\n"
			     "d:\n"
			     "  e: 1.0e-05\n");
	free(json);
	free(yaml);
}
END_TEST

static const char *splice_text;
static size_t splice_len;
static int splice_rc;

static void splice_calls(cli_writer *w)
{
	splice_rc = kp_emitter_json(w, splice_text, splice_len);
}

/* Splicing JSON text writes what writing the cJSON tree cJSON_Parse reads
 * from it writes (what simulate did before it streamed), in both formats,
 * for random documents (escapes, U+FFFD, long keys, nesting, numbers). The
 * text is the JSON writer's own, whose numbers read back exactly
 * (cJSON's printer rounds some to 15 digits). */
START_TEST(splice_equals_tree)
{
	kp_ts_rng rng = { 0xBADC0DEull + (uint64_t)_i };
	const struct {
		enum cli_writer_format fmt;
		writer tree;
	} forms[] = { { CLI_WRITER_JSON, cli_output_json }, { CLI_WRITER_YAML, cli_output_yaml } };
	for (int iter = 0; iter < 100; iter++) {
		cJSON *want = NULL;
		cJSON *doc = cJSON_CreateObject();
		for (int i = 0; i < 4; i++) {
			char *key = kp_ts_random_string(&rng);
			if (!cJSON_GetObjectItemCaseSensitive(doc, key))
				cJSON_AddItemToObject(doc, key, random_value(&rng, 0, iter % 2, &want));
			cJSON_Delete(want);
			want = NULL;
			free(key);
		}
		char *compact = write_ok(cli_output_json, doc);
		cJSON *parsed = cJSON_Parse(compact);
		ck_assert_ptr_nonnull(parsed);
		for (int f = 0; f < 2; f++) {
			int rc;
			splice_text = compact;
			splice_len = strlen(compact);
			char *got = stream(forms[f].fmt, splice_calls, &rc);
			ck_assert_int_eq(splice_rc, 0);
			ck_assert_int_eq(rc, 0);
			char *tree = write_ok(forms[f].tree, parsed);
			assert_text_eq(got, tree);
			free(got);
			free(tree);
		}
		free(compact);
		cJSON_Delete(parsed);
		cJSON_Delete(doc);
	}
}
END_TEST

START_TEST(splice_escapes)
{
	/* \u escapes, a surrogate pair, \/ and the short escapes; a lone
	 * surrogate reads as U+FFFD (the library's JSON reader, as Go's) */
	splice_text = "{\"k\\u00e9\":\"a\\/b\\ud83d\\ude00\\n\\u2028\",\"n\":-1.5e3,\"t\":[true,false,null]}";
	splice_len = strlen(splice_text);
	int rc;
	char *json = stream(CLI_WRITER_JSON, splice_calls, &rc);
	ck_assert_int_eq(splice_rc, 0);
	ck_assert_int_eq(rc, 0);
	assert_text_eq(json, "{\n    \"k\xc3\xa9\": \"a/b\xf0\x9f\x98\x80\\n\\u2028\",\n"
			     "    \"n\": -1.5e3,\n    \"t\": [\n        true,\n        false,\n"
			     "        null\n    ]\n}\n");
	free(json);
	static const char *const bad[] = {
		"", "{", "{\"a\" 1}", "[1,]", "\"\\u0000\"", "\"\\x\"", "nul",
		"[1] 2", "{\"a\":1,}", "\"open",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		splice_text = bad[i];
		splice_len = strlen(bad[i]);
		char *out = stream(CLI_WRITER_JSON, splice_calls, &rc);
		ck_assert_msg(splice_rc == KP_EPARSE, "accepted %s", bad[i]);
		ck_assert_int_eq(rc, CLI_WRITER_MISUSE);
		free(out);
	}
}
END_TEST

/* Numbers are spliced as written: every int64 (2^53 + 1 here) and longer
 * ones read back as they were; in YAML a number with an exponent gets
 * YAML 1.1's float form (YAML 1.1 reads 1e2 as a string). */
START_TEST(splice_integers_exact)
{
	splice_text = "{\"a\":9007199254740993,\"b\":-0,\"c\":123456789012345678901234567890,"
		      "\"d\":1e2,\"e\":-9223372036854775808}";
	splice_len = strlen(splice_text);
	int rc;
	char *json = stream(CLI_WRITER_JSON, splice_calls, &rc);
	ck_assert_int_eq(splice_rc, 0);
	ck_assert_int_eq(rc, 0);
	assert_text_eq(json, "{\n    \"a\": 9007199254740993,\n    \"b\": -0,\n"
			     "    \"c\": 123456789012345678901234567890,\n    \"d\": 1e2,\n"
			     "    \"e\": -9223372036854775808\n}\n");
	char *yaml = stream(CLI_WRITER_YAML, splice_calls, &rc);
	ck_assert_int_eq(splice_rc, 0);
	ck_assert_int_eq(rc, 0);
	assert_text_eq(yaml, "a: 9007199254740993\nb: -0\nc: 123456789012345678901234567890\n"
			     "d: 1.0e+2\ne: -9223372036854775808\n");
	free(json);
	free(yaml);
	/* not numbers */
	static const char *const bad[] = { "-", "1e", "01x", "--1" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		splice_text = bad[i];
		splice_len = strlen(bad[i]);
		char *out = stream(CLI_WRITER_JSON, splice_calls, &rc);
		ck_assert_msg(splice_rc == KP_EPARSE, "accepted %s", bad[i]);
		free(out);
	}
}
END_TEST

static void value_without_key(cli_writer *w)
{
	kp_emitter_begin_object(w);
	kp_emitter_string(w, "v");
	kp_emitter_end_object(w);
}

static void unbalanced(cli_writer *w)
{
	kp_emitter_begin_array(w);
	kp_emitter_end_object(w);
}

static void unfinished(cli_writer *w)
{
	kp_emitter_begin_array(w);
	kp_emitter_string(w, "x");
}

static void nonfinite(cli_writer *w)
{
	kp_emitter_begin_array(w);
	kp_emitter_number(w, 1);
	kp_emitter_number(w, NAN);
	kp_emitter_number(w, 2);
	kp_emitter_end_array(w);
}

static void two_documents(cli_writer *w)
{
	kp_emitter_null(w);
	kp_emitter_null(w);
}

START_TEST(stream_errors)
{
	const struct {
		calls c;
		int rc;
		const char *json; /* written before the error */
	} cases[] = {
		{ value_without_key, CLI_WRITER_MISUSE, "{" },
		{ unbalanced, CLI_WRITER_MISUSE, "[" },
		{ unfinished, CLI_WRITER_MISUSE, "[\n    \"x\"" },
		{ nonfinite, CLI_WRITER_NONFINITE, "[\n    1" },
		{ two_documents, CLI_WRITER_MISUSE, "null" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int rc;
		char *out = stream(CLI_WRITER_JSON, cases[i].c, &rc);
		ck_assert_int_eq(rc, cases[i].rc);
		ck_assert_str_eq(out, cases[i].json);
		free(out);
	}
	/* a stream that refuses the output */
	FILE *full = fopen("/dev/full", "w");
	if (full) {
		cli_writer *w = cli_writer_new(full, CLI_WRITER_JSON);
		kp_emitter_string(w, "x");
		ck_assert_int_eq(cli_writer_close(w, full), CLI_WRITER_IO);
		fclose(full);
	}
}
END_TEST

static Suite *output_suite(void)
{
	Suite *s = suite_create("output");
	TCase *tc = tcase_create("read back");
	tcase_add_loop_test(tc, random_documents_read_back, 0, 4);
	tcase_add_test(tc, escapes_exact_text);
	tcase_add_test(tc, ordinary_text_unchanged);
	tcase_add_test(tc, long_keys_read_back);
	suite_add_tcase(s, tc);
	tc = tcase_create("numbers");
	tcase_add_test(tc, nonfinite_refused);
	suite_add_tcase(s, tc);
	tc = tcase_create("streaming");
	tcase_add_test(tc, stream_exact_text);
	tcase_add_loop_test(tc, splice_equals_tree, 0, 3);
	tcase_add_test(tc, splice_escapes);
	tcase_add_test(tc, splice_integers_exact);
	tcase_add_test(tc, stream_errors);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	Suite *suites[] = { output_suite() };
	return kp_test_run(suites, 1);
}
