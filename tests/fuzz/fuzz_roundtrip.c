/*
 * libFuzzer target: encoding is a fixed point. For every object a decode
 * of the input yields (strict and lenient, the core kinds and
 * KWOKNodeClass), in each form (compact JSON, indented JSON, YAML): the
 * encoded text must decode (default limits) to one object of the same kind
 * and name whose encoding in that form is the same bytes, and whose
 * compact JSON is the original's (a YAML or indented round trip loses
 * nothing either). Whatever decodes must encode. And the encoding invents
 * nothing: every member it writes was in the input object (read as a tree
 * by lib/document), so that a value is never written as another field (a
 * volume source the model does not name written as "gitRepo": {}). And the
 * emitter's events written straight from the struct (kp_encode_emit) are
 * the same bytes as the encoding (compact and indented JSON). On any
 * mismatch the two texts are printed and the target aborts, so that
 * libFuzzer reports the input.
 *
 * Built with -Dfuzz=true and clang (see .ci/run).
 * SPDX-License-Identifier: Apache-2.0
 */
#define KP_EXPERIMENTAL_API 1 /* KWOKNodeClass through a registry */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <karpenter/karpenter.h>
#include <karpenter/sys/kwok.h>

#include "document/tree.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static kp_registry *registry;

static void setup(void)
{
	uint32_t kwok_kind;
	if (!registry && (kp_registry_new(&registry, NULL) ||
			  kp_kwok_register(registry, &kwok_kind, NULL)))
		__builtin_trap(); /* not input-dependent: the harness is broken */
}

static void fail(const char *what, const kp_decoded_object *o, const char *a, const char *b)
{
	fprintf(stderr, "fuzz-roundtrip: %s/%s: %s\n--- first:\n%s\n--- then:\n%s\n", o->kind_name,
		o->name, what, a ? a : "", b ? b : "");
	abort();
}

static char *encode(const kp_decoded_object *o, uint32_t kind, const void *object, uint32_t format,
		    uint32_t flags)
{
	char *text = NULL;
	kp_error err = KP_ERROR_INIT;
	if (kp_registry_encode(&text, NULL, registry, kind, object, format, flags, &err) != KP_OK)
		fail("a decoded object does not encode", o, err.message, NULL);
	return text;
}

/* 1 when @p enc has a member @p in lacks, its path appended to @p path
 * (arrays compared element by element when of the same length). */
static int invented(kp__buf *path, const kp__node *enc, const kp__node *in)
{
	if (enc->type == KP__N_OBJECT && in->type == KP__N_OBJECT) {
		for (size_t i = 0; i < enc->n; i++) {
			const kp__node *v = kp__node_get(in, enc->keys[i]);
			if (!v) {
				kp__buf_printf(path, ".%s", enc->keys[i]);
				return 1;
			}
			/* A null map value reads as "" or 0, as in Go. */
			if (v->type == KP__N_NULL)
				continue;
			size_t mark = path->len;
			kp__buf_printf(path, ".%s", enc->keys[i]);
			if (invented(path, enc->items[i], v))
				return 1;
			path->len = mark;
		}
	} else if (enc->type == KP__N_ARRAY && in->type == KP__N_ARRAY && enc->n == in->n) {
		for (size_t i = 0; i < enc->n; i++) {
			size_t mark = path->len;
			kp__buf_printf(path, "[%zu]", i);
			if (invented(path, enc->items[i], in->items[i]))
				return 1;
			path->len = mark;
		}
	}
	return 0;
}

static const char *node_text(const kp__node *obj, const char *key)
{
	const kp__node *n = obj && obj->type == KP__N_OBJECT ? kp__node_get(obj, key) : NULL;
	return n && n->type == KP__N_STRING ? n->text : NULL;
}

/* The input's tree of a decoded object: its document, or the item of its
 * document's List; NULL when not found plainly (a List in a List). */
static const kp__node *input_object(const kp__node *docs, const kp_decoded_object *o)
{
	if (!docs || o->document >= docs->n)
		return NULL;
	const kp__node *n = docs->items[o->document];
	if (o->in_list) {
		const kp__node *items = n->type == KP__N_OBJECT ? kp__node_get(n, "items") : NULL;
		n = items && items->type == KP__N_ARRAY && o->item < items->n ? items->items[o->item]
									       : NULL;
	}
	const char *kind = node_text(n, "kind");
	if (!kind || strcmp(kind, o->kind_name) != 0)
		return NULL;
	const char *name = node_text(n ? kp__node_get(n, "metadata") : NULL, "name");
	return strcmp(name ? name : "", o->name) == 0 ? n : NULL;
}

static void invents_nothing(const kp_decoded_object *o, const kp__node *docs, const char *json)
{
	const kp__node *in = input_object(docs, o);
	if (!in)
		return;
	kp__node *enc = NULL;
	kp__budget b = { (size_t)1 << 24, 0, (size_t)1 << 28, 0, 1000, NULL, 0, 0 };
	if (kp__json_parse(&enc, json, strlen(json), &b, NULL) != KP_OK || enc->n != 1)
		fail("the encoding is not one JSON value", o, json, NULL);
	kp__buf path = { 0 };
	kp__buf_putc(&path, '$');
	if (invented(&path, enc->items[0], in)) {
		kp__buf_putc(&path, '\0');
		fail("the encoding writes a member the input did not have", o, json,
		     path.failed ? "" : path.data);
	}
	kp__buf_dispose(&path);
	kp__node_free(enc);
}

static int append(void *ctx, const char *data, size_t len)
{
	kp__buf_put(ctx, data, len);
	return 0;
}

/* kp_encode_emit into an emitter of @p indent must give @p want (what
 * kp_registry_encode wrote from its tree), a final newline aside. */
static void emits_the_same(const kp_decoded_object *o, uint32_t indent, const char *want)
{
	kp__buf b = { 0 };
	kp_emitter_options eo = KP_EMITTER_OPTIONS_INIT;
	eo.format = KP_FORMAT_JSON;
	eo.indent = indent;
	kp_emitter *em = NULL;
	if (kp_emitter_new(&em, &eo, append, &b, NULL) != KP_OK ||
	    kp_encode_emit(em, registry, o->kind, o->object) != KP_OK ||
	    kp_emitter_close(em, NULL) != KP_OK || b.failed)
		fail("kp_encode_emit refuses what kp_registry_encode wrote", o, want, NULL);
	kp__buf_putc(&b, '\0');
	size_t n = strlen(want);
	while (n && want[n - 1] == '\n')
		n--;
	size_t m = strlen(b.data);
	while (m && b.data[m - 1] == '\n')
		m--;
	if (n != m || memcmp(want, b.data, n) != 0)
		fail("kp_encode_emit writes other bytes than kp_registry_encode", o, want, b.data);
	kp__buf_dispose(&b);
}

static void round_trip(const kp_decoded_object *o, const kp__node *docs)
{
	static const struct {
		uint32_t format, flags;
	} forms[] = { { KP_FORMAT_JSON, 0 }, { KP_FORMAT_JSON, KP_ENCODE_PRETTY }, { KP_FORMAT_YAML, 0 } };
	char *json = encode(o, o->kind, o->object, KP_FORMAT_JSON, 0);
	invents_nothing(o, docs, json);
	emits_the_same(o, KP_EMITTER_INDENT_COMPACT, json);
	char *pretty = encode(o, o->kind, o->object, KP_FORMAT_JSON, KP_ENCODE_PRETTY);
	emits_the_same(o, KP_EMITTER_INDENT_2, pretty);
	kp_encoded_free(pretty);
	for (size_t f = 0; f < sizeof(forms) / sizeof(forms[0]); f++) {
		char *first = encode(o, o->kind, o->object, forms[f].format, forms[f].flags);
		kp_decode_options opts = KP_DECODE_OPTIONS_INIT;
		opts.format = forms[f].format;
		opts.registry = registry;
		kp_decode_result *res = NULL;
		kp_error err = KP_ERROR_INIT;
		if (kp_decode(&res, first, strlen(first), &opts, &err) != KP_OK)
			fail("what was encoded does not decode", o, first, err.message);
		const kp_decoded_object *again = kp_decode_result_at(res, 0);
		if (kp_decode_result_count(res) != 1 || again->kind != o->kind || !again->object ||
		    strcmp(again->name, o->name) != 0)
			fail("what was encoded decodes to another object", o, first, NULL);
		char *then = encode(o, again->kind, again->object, forms[f].format, forms[f].flags);
		if (strcmp(first, then) != 0)
			fail("encode -> decode -> encode is not a fixed point", o, first, then);
		kp_encoded_free(then);
		if (f > 0) {
			then = encode(o, again->kind, again->object, KP_FORMAT_JSON, 0);
			if (strcmp(json, then) != 0)
				fail("a round trip through this form changes the object", o, json, then);
			kp_encoded_free(then);
		}
		kp_decode_result_free(res);
		kp_encoded_free(first);
	}
	kp_encoded_free(json);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	setup();
	kp_decode_options opts = KP_DECODE_OPTIONS_INIT;
	opts.max_bytes = 1 << 20;
	opts.max_nodes = 1 << 16;
	opts.registry = registry;
	/* The input as a tree, as kp_decode reads it (JSON when the first
	 * byte after a BOM and blanks is '{'). */
	size_t at = size >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
	while (at < size && (data[at] == ' ' || data[at] == '\t' || data[at] == '\r' || data[at] == '\n'))
		at++;
	kp__node *docs = NULL;
	kp__budget b = { opts.max_nodes, 0, 2 * opts.max_bytes, 0, 100, NULL, 0, 0 };
	if (size > opts.max_bytes ||
	    (at < size && data[at] == '{' ? kp__json_parse(&docs, (const char *)data, size, &b, NULL)
					: kp__yaml_parse(&docs, (const char *)data, size, &b, NULL)) != KP_OK) {
		kp__node_free(docs);
		docs = NULL;
	}
	for (uint32_t flags = 0; flags <= KP_DECODE_LENIENT; flags += KP_DECODE_LENIENT) {
		kp_decode_result *res = NULL;
		kp_error err = KP_ERROR_INIT;
		opts.flags = flags;
		if (kp_decode(&res, (const char *)data, size, &opts, &err) == KP_OK) {
			for (size_t i = 0; i < kp_decode_result_count(res); i++) {
				const kp_decoded_object *o = kp_decode_result_at(res, i);
				if (o && o->object)
					round_trip(o, docs);
			}
		} else if (err.message[0] == '\0') {
			__builtin_trap(); /* every failure must say why */
		}
		kp_decode_result_free(res);
	}
	kp__node_free(docs);
	return 0;
}
