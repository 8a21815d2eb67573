/*
 * libFuzzer target: the emitter (karpenter/emitter.h). Arbitrary bytes are
 * read as JSON by the library's reader; every value read is written by the
 * emitter in kubectl's JSON, compact JSON, 2-space JSON and YAML, and each
 * output must read back (JSON with the JSON reader, YAML with the YAML
 * reader) to the same tree: the same types, keys and strings, and numbers
 * of the same value. The bytes are also spliced as they are
 * (kp_emitter_json). Never a crash, a leak or undefined behaviour.
 *
 * Built with -Dfuzz=true and clang (see .ci/run).
 * SPDX-License-Identifier: Apache-2.0
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <karpenter/karpenter.h>

#include "document/tree.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int buf_write(void *ctx, const char *d, size_t n)
{
	kp__buf_put(ctx, d, n);
	return 0;
}

static int same_number(const kp__node *a, const kp__node *b)
{
	if (a->len == b->len && !memcmp(a->text, b->text, a->len))
		return 1;
	return strtod(a->text, NULL) == strtod(b->text, NULL);
}

/* a and b are the same tree (numbers by value). */
static int same(const kp__node *a, const kp__node *b)
{
	if (a->type != b->type)
		return 0;
	switch (a->type) {
	case KP__N_NULL: return 1;
	case KP__N_BOOL: return !a->boolean == !b->boolean;
	case KP__N_NUMBER: return same_number(a, b);
	case KP__N_STRING: return a->len == b->len && !memcmp(a->text, b->text, a->len);
	default: break;
	}
	if (a->n != b->n)
		return 0;
	for (size_t i = 0; i < a->n; i++) {
		if (a->type == KP__N_OBJECT && strcmp(a->keys[i], b->keys[i]))
			return 0;
		if (!same(a->items[i], b->items[i]))
			return 0;
	}
	return 1;
}

/* Whether every string and key of n is valid UTF-8 (the emitter writes an
 * invalid byte as U+FFFD, which reads back as another string) and every
 * number fits a double (YAML readers, Go's among them, read a float out of
 * range as a string: no YAML text reads back as that number). */
static int valid_text(const kp__node *n)
{
	if (n->type == KP__N_STRING)
		return kp__utf8_valid(n->text, n->len);
	if (n->type == KP__N_NUMBER)
		return isfinite(strtod(n->text, NULL));
	for (size_t i = 0; i < n->n; i++)
		if ((n->type == KP__N_OBJECT && !kp__utf8_valid(n->keys[i], strlen(n->keys[i]))) ||
		    !valid_text(n->items[i]))
			return 0;
	return 1;
}

static void round_trip(const kp__node *v, uint32_t format, uint32_t indent)
{
	kp__buf out = { 0 };
	kp_emitter_options o = KP_EMITTER_OPTIONS_INIT;
	o.format = format;
	o.indent = indent;
	kp_emitter *em = NULL;
	if (kp_emitter_new(&em, &o, buf_write, &out, NULL))
		abort();
	if (kp__emit_node(em, v) != KP_OK || kp_emitter_close(em, NULL) != KP_OK)
		abort(); /* a tree the reader built is always writable */
	if (out.failed)
		abort();
	kp__budget b = { .max_nodes = out.len * 2 + 64, .max_text = out.len * 2 + 64,
			 .max_depth = 1000 };
	kp__node *docs = NULL;
	int rc = format == KP_FORMAT_YAML
			 ? kp__yaml_parse(&docs, out.data ? out.data : "", out.len, &b, NULL)
			 : kp__json_parse(&docs, out.data ? out.data : "", out.len, &b, NULL);
	if (rc != KP_OK || !docs || docs->n != 1 || (valid_text(v) && !same(v, docs->items[0])))
		abort(); /* what we wrote does not read back */
	kp__node_free(docs);
	kp__buf_dispose(&out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	kp__budget b = { .max_nodes = 20000, .max_text = 1 << 20, .max_depth = 64 };
	kp__node *docs = NULL;
	if (kp__json_parse(&docs, text, size, &b, NULL) == KP_OK && docs) {
		for (size_t i = 0; i < docs->n; i++) {
			round_trip(docs->items[i], KP_FORMAT_JSON, KP_EMITTER_INDENT_KUBECTL);
			round_trip(docs->items[i], KP_FORMAT_JSON, KP_EMITTER_INDENT_COMPACT);
			round_trip(docs->items[i], KP_FORMAT_JSON, KP_EMITTER_INDENT_2);
			round_trip(docs->items[i], KP_FORMAT_YAML, 0);
		}
	}
	kp__node_free(docs);
	/* the same bytes spliced as one value: written or refused */
	kp__buf out = { 0 };
	kp_emitter *em = NULL;
	if (kp_emitter_new(&em, NULL, buf_write, &out, NULL))
		abort();
	kp_emitter_begin_array(em);
	kp_emitter_json(em, text, size);
	kp_emitter_end_array(em);
	(void)kp_emitter_close(em, NULL);
	kp__buf_dispose(&out);
	return 0;
}
